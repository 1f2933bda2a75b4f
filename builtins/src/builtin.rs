//! The builtins, the files of a variant's package and the templates (with
//! the exact key list of each) they are rendered from.

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

    /// The files the builtin has templates for: all three, except the
    /// CHIP-only indexed_all_to_all_v, whose kernel is submitted by the
    /// CHIP orchestrator's own pipeline (no entry, no config of its own).
    pub fn files(self) -> &'static [File] {
        match self {
            Builtin::IndexedAllToAllV => &[File::Kernel],
            _ => &File::ALL,
        }
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

    /// The three template texts.
    pub fn templates(self) -> Templates {
        macro_rules! dir {
            ($d:literal) => {
                Templates {
                    kernel: include_str!(concat!("../templates/", $d, "/kernel.cpp.in")),
                    entry: include_str!(concat!("../templates/", $d, "/entry.cpp.in")),
                    config: include_str!(concat!("../templates/", $d, "/kernel_config.py.in")),
                }
            };
        }
        match self {
            Builtin::AllReduce => dir!("allreduce"),
            Builtin::AllReduceRing => dir!("allreduce_ring"),
            Builtin::Barrier => dir!("barrier"),
            Builtin::Broadcast => dir!("broadcast"),
            Builtin::ReduceScatter => dir!("reduce_scatter"),
            Builtin::AllGather => dir!("allgather"),
            Builtin::AllToAll => dir!("all_to_all"),
            Builtin::AllToAllV => dir!("all_to_all_v"),
            // Only a kernel: `files` lists what may be rendered.
            Builtin::IndexedAllToAllV => Templates {
                kernel: include_str!("../templates/indexed_all_to_all_v/kernel.cpp.in"),
                entry: "",
                config: "",
            },
        }
    }

    /// Exactly the keys each file's template uses (the README's table).
    pub fn keys(self, file: File) -> &'static [&'static str] {
        const CONFIG: &[&str] = &[
            "variant",
            "entry",
            "kernel_name",
            "template_package",
            "runtime",
        ];
        const ENTRY: &[&str] = &[
            "variant",
            "entry",
            "kernel_name",
            "template_package",
            "runtime",
        ];
        match (self, file) {
            (Builtin::AllReduce, File::Kernel) => &[
                "kernel_name",
                "template_package",
                "dtype_cpp",
                "op_cpp",
                "reduce_inst",
            ],
            (Builtin::AllReduce, File::Entry) => &[
                "variant",
                "entry",
                "kernel_name",
                "template_package",
                "runtime",
                "launch_core_count_method",
            ],
            (Builtin::AllReduceRing | Builtin::ReduceScatter, File::Kernel) => {
                &["kernel_name", "template_package", "dtype_cpp", "op_cpp"]
            }
            (Builtin::Barrier, File::Kernel) => &["kernel_name", "template_package"],
            (Builtin::Broadcast, File::Kernel) => {
                &["kernel_name", "template_package", "dtype_cpp", "root_cpp"]
            }
            (Builtin::AllGather | Builtin::AllToAll, File::Kernel) => {
                &["kernel_name", "template_package", "dtype_cpp"]
            }
            (Builtin::AllToAllV | Builtin::IndexedAllToAllV, File::Kernel) => {
                &["dtype_cpp", "template_package"]
            }
            (Builtin::IndexedAllToAllV, _) => &[],
            (Builtin::AllToAllV, File::Entry) => &[
                "variant",
                "entry",
                "template_package",
                "runtime",
                "launch_core_count_method",
            ],
            (Builtin::AllToAllV, File::Config) => &[
                "variant",
                "entry",
                "kernel_name",
                "template_package",
                "runtime",
            ],
            (_, File::Entry) => ENTRY,
            (_, File::Config) => CONFIG,
        }
    }
}

/// The templates of one builtin.
#[derive(Clone, Copy, Debug)]
pub struct Templates {
    pub kernel: &'static str,
    pub entry: &'static str,
    pub config: &'static str,
}

/// The three files of a variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum File {
    /// `kernel.cpp.in`, the AIV kernel.
    Kernel,
    /// `entry.cpp.in`, the chip orchestration that submits it.
    Entry,
    /// `kernel_config.py.in`.
    Config,
}

impl File {
    pub const ALL: [File; 3] = [File::Kernel, File::Entry, File::Config];

    pub fn template_name(self) -> &'static str {
        match self {
            File::Kernel => "kernel.cpp.in",
            File::Entry => "entry.cpp.in",
            File::Config => "kernel_config.py.in",
        }
    }
}
