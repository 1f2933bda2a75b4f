//! The builtins and their names.

/// The eight builtin kernels of the HOST rail (spec 4.9) and the CHIP
/// rail's indexed_all_to_all_v (spec 4.8), one template directory each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Builtin {
    AllReduce,
    AllReduceRing,
    Barrier,
    Broadcast,
    ReduceScatter,
    AllGather,
    AllToAll,
    AllToAllV,
    /// CHIP rail only, A5 (URMA): a kernel template and nothing else.
    IndexedAllToAllV,
}

impl Builtin {
    pub const ALL: [Builtin; 9] = [
        Builtin::AllReduce,
        Builtin::AllReduceRing,
        Builtin::Barrier,
        Builtin::Broadcast,
        Builtin::ReduceScatter,
        Builtin::AllGather,
        Builtin::AllToAll,
        Builtin::AllToAllV,
        Builtin::IndexedAllToAllV,
    ];

    /// The builtin whose template directory is `dir`.
    pub fn from_dir(dir: &str) -> Option<Builtin> {
        Builtin::ALL.into_iter().find(|b| b.dir() == dir)
    }

    /// The template directory and spec name (`builtin.tensor.<dir>`).
    pub fn dir(self) -> &'static str {
        match self {
            Builtin::AllReduce => "allreduce",
            Builtin::AllReduceRing => "allreduce_ring",
            Builtin::Barrier => "barrier",
            Builtin::Broadcast => "broadcast",
            Builtin::ReduceScatter => "reduce_scatter",
            Builtin::AllGather => "allgather",
            Builtin::AllToAll => "all_to_all",
            Builtin::AllToAllV => "all_to_all_v",
            Builtin::IndexedAllToAllV => "indexed_all_to_all_v",
        }
    }

    /// `template_package` (spec 11.1, the registry handle without its
    /// leading colon).
    pub fn template_package(self) -> String {
        format!("pypto.runtime.builtins.collectives.{}", self.dir())
    }
}
