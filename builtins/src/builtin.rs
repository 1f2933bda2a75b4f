//! The builtins, their names and the tensors their dispatches pass.

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

    /// The dispatch's tensors in orchestration order, which is also the
    /// kernel's argument order (spec 10.3, 11.2), by name and direction.
    /// The shared entry and config templates are rendered from it.
    pub fn tensors(self) -> &'static [(&'static str, Dir)] {
        const DATA_SIGNAL: &[(&str, Dir)] = &[("data", Dir::InOut), ("signal", Dir::InOut)];
        const PUSH: &[(&str, Dir)] = &[
            ("input", Dir::In),
            ("output", Dir::InOut),
            ("signal", Dir::InOut),
        ];
        const EXCHANGE: &[(&str, Dir)] = &[
            ("input", Dir::In),
            ("target", Dir::InOut),
            ("signal", Dir::InOut),
            ("send_counts", Dir::In),
            ("recv_counts", Dir::InOut),
        ];
        match self {
            Builtin::AllReduce
            | Builtin::AllReduceRing
            | Builtin::Broadcast
            | Builtin::ReduceScatter => DATA_SIGNAL,
            Builtin::Barrier => &[("signal", Dir::InOut)],
            Builtin::AllGather | Builtin::AllToAll => PUSH,
            Builtin::AllToAllV => EXCHANGE,
            // The CHIP sub-build lists it with the call's own directions.
            Builtin::IndexedAllToAllV => &[
                ("input", Dir::In),
                ("target", Dir::InOut),
                ("signal", Dir::InOut),
                ("send_counts", Dir::In),
                ("recv_counts", Dir::InOut),
                ("index", Dir::In),
            ],
        }
    }
}

/// How a dispatch's tensor reaches the kernel (spec 11.2): read only, or
/// read and written. (INOUT, not OUT, for outputs: rows or elements a call
/// does not write keep their contents.)
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    In,
    InOut,
}

impl Dir {
    /// `kernel_config.py`'s spelling: `"IN"`, `"INOUT"`.
    pub fn signature(self) -> &'static str {
        match self {
            Dir::In => "\"IN\"",
            Dir::InOut => "\"INOUT\"",
        }
    }

    /// The shared entry template's C++ enumerator.
    pub fn cpp(self) -> &'static str {
        match self {
            Dir::In => "Dir::kIn",
            Dir::InOut => "Dir::kInOut",
        }
    }
}
