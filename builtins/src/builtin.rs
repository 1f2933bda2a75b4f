//! The builtins, their names and the tensors their dispatches pass.

/// The eight builtin kernels of the HOST rail (spec 4.9) and the CHIP
/// rail's indexed_all_to_all_v (spec 4.8), one template directory each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Builtin {
    AllReduce,
    AllReduceRing,
    /// Reduce-scatter by reading the peers' shards, then gather
    /// (docs/algorithms.md); core_num lanes as the mesh's.
    AllReduceTwoShot,
    Barrier,
    Broadcast,
    ReduceScatter,
    /// A reduction into one rank, the root (a run-time scalar).
    Reduce,
    AllGather,
    AllToAll,
    AllToAllV,
    /// CHIP rail only, A5 (URMA): a kernel template and nothing else.
    IndexedAllToAllV,
}

impl Builtin {
    pub const ALL: [Builtin; 11] = [
        Builtin::AllReduce,
        Builtin::AllReduceRing,
        Builtin::AllReduceTwoShot,
        Builtin::Barrier,
        Builtin::Broadcast,
        Builtin::ReduceScatter,
        Builtin::Reduce,
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
            Builtin::AllReduceTwoShot => "allreduce_two_shot",
            Builtin::Barrier => "barrier",
            Builtin::Broadcast => "broadcast",
            Builtin::ReduceScatter => "reduce_scatter",
            Builtin::Reduce => "reduce",
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
            | Builtin::AllReduceTwoShot
            | Builtin::Broadcast
            | Builtin::ReduceScatter
            | Builtin::Reduce => DATA_SIGNAL,
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

/// The scalars a builtin's entry passes to its kernel after the tensors
/// (spec 10.3): the rank count and the CommContext*, and a reduce's root.
/// The multi-block entries (allreduce, all_to_all_v) spell their own.
impl Builtin {
    /// Whether the root is part of the variant (`__root<R>`, a broadcast's)
    /// rather than a run-time scalar (a reduce's) or absent.
    pub fn root_in_variant(self) -> bool {
        match self {
            Builtin::Broadcast => true,
            Builtin::AllReduce
            | Builtin::AllReduceRing
            | Builtin::AllReduceTwoShot
            | Builtin::Barrier
            | Builtin::ReduceScatter
            | Builtin::Reduce
            | Builtin::AllGather
            | Builtin::AllToAll
            | Builtin::AllToAllV
            | Builtin::IndexedAllToAllV => false,
        }
    }

    pub fn scalars(self) -> &'static [Scalar] {
        use Scalar::{Context, CoreNum, Ranks, Root};
        const RANKS_CONTEXT: &[Scalar] = &[Ranks, Context];
        match self {
            Builtin::AllReduce | Builtin::AllReduceTwoShot => &[Ranks, Context, CoreNum],
            Builtin::AllToAllV | Builtin::IndexedAllToAllV => &[Context, CoreNum],
            Builtin::Reduce => &[Ranks, Context, Root],
            Builtin::AllReduceRing
            | Builtin::Barrier
            | Builtin::Broadcast
            | Builtin::ReduceScatter
            | Builtin::AllGather
            | Builtin::AllToAll => RANKS_CONTEXT,
        }
    }
}

/// A scalar a builtin's entry takes after its tensors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scalar {
    /// The number of ranks of the comm domain.
    Ranks,
    /// The calling rank's CommContext*.
    Context,
    /// The requested launch width.
    CoreNum,
    /// A reduce's root rank.
    Root,
}

impl Scalar {
    /// Its name in the rendered entry's comment.
    pub fn name(self) -> &'static str {
        match self {
            Scalar::Ranks => "nranks",
            Scalar::Context => "CommContext*",
            Scalar::CoreNum => "core_num",
            Scalar::Root => "root",
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

/// The reduction a variant is instantiated for, spelled as spec 10.3 names
/// variants. Numbered like the ABI's ReduceOp (Sum=0 Max=1 Min=2 Prod=3);
/// the backend maps `pld_dialect::enums::ReduceOp` onto it (a test checks
/// the two agree).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Reduction {
    Sum,
    Max,
    Min,
    Prod,
}

impl Reduction {
    pub const ALL: [Reduction; 4] = [
        Reduction::Sum,
        Reduction::Max,
        Reduction::Min,
        Reduction::Prod,
    ];

    /// The variant-name spelling: `sum`, `max`, `min`, `prod`.
    pub fn key(self) -> &'static str {
        match self {
            Reduction::Sum => "sum",
            Reduction::Max => "max",
            Reduction::Min => "min",
            Reduction::Prod => "prod",
        }
    }

    /// `op_cpp`: the kernel's own `ReduceOp` enumerator.
    pub fn op_cpp(self) -> &'static str {
        match self {
            Reduction::Sum => "ReduceOp::kSum",
            Reduction::Max => "ReduceOp::kMax",
            Reduction::Min => "ReduceOp::kMin",
            Reduction::Prod => "ReduceOp::kProd",
        }
    }

    /// `reduce_inst`: the pto-isa vector instruction.
    pub fn reduce_inst(self) -> &'static str {
        match self {
            Reduction::Sum => "TADD",
            Reduction::Max => "TMAX",
            Reduction::Min => "TMIN",
            Reduction::Prod => "TMUL",
        }
    }
}

/// The element type a variant moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Elem {
    F16,
    F32,
    I8,
}

impl Elem {
    /// The variant-name spelling: `fp16`, `fp32`, `int8`.
    pub fn key(self) -> &'static str {
        match self {
            Elem::F16 => "fp16",
            Elem::F32 => "fp32",
            Elem::I8 => "int8",
        }
    }

    /// `dtype_cpp`.
    pub fn cpp(self) -> &'static str {
        match self {
            Elem::F16 => "half",
            Elem::F32 => "float",
            Elem::I8 => "int8_t",
        }
    }

    /// The MLIR element type name (`f16`, `f32`, `i8`).
    pub fn mlir(self) -> &'static str {
        match self {
            Elem::F16 => "f16",
            Elem::F32 => "f32",
            Elem::I8 => "i8",
        }
    }

    pub fn bytes(self) -> usize {
        match self {
            Elem::F16 => 2,
            Elem::F32 => 4,
            Elem::I8 => 1,
        }
    }
}
