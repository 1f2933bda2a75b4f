//! The template files under `templates/`, each with exactly the keys it
//! uses, and which of them each file of each builtin is rendered from.
//!
//! A key list belongs to its template text, not to a builtin: a template
//! shared by several builtins has one list, and the renderer's strictness
//! (every key used is given, every key given is used) checks it against
//! the text for every builtin that uses it.

use crate::builtin::Builtin;
use crate::error::KernelError;
use crate::file::File;
use crate::render::render;

/// One template file and exactly the keys it uses. The catalog's are
/// `'static` (compiled in); a build may make a changed copy of one
/// (runtime-sys's copies broken on purpose).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Template<'a> {
    /// Its path under `templates/`, e.g. `allreduce/kernel.cpp.in`.
    pub name: &'a str,
    pub text: &'a str,
    pub keys: &'a [&'a str],
}

impl Template<'_> {
    /// Renders the text with the values of exactly its keys, taken from
    /// `values` (which may hold more): a key of the list that `values`
    /// lacks, or that the text does not use, is an error.
    pub fn render(&self, values: &[(&str, String)]) -> Result<String, KernelError> {
        let given: Vec<(&str, String)> = values
            .iter()
            .filter(|(k, _)| self.keys.contains(k))
            .cloned()
            .collect();
        render(self.name, self.text, &given)
    }
}

macro_rules! template {
    ($name:literal, [$($key:literal),* $(,)?]) => {
        Template {
            name: $name,
            text: include_str!(concat!("../templates/", $name)),
            keys: &[$($key),*],
        }
    };
}

static ALLREDUCE_KERNEL: Template<'static> = template!(
    "allreduce/kernel.cpp.in",
    [
        "kernel_name",
        "template_package",
        "dtype_cpp",
        "op_cpp",
        "reduce_inst"
    ]
);
static ALLREDUCE_RING_KERNEL: Template<'static> = template!(
    "allreduce_ring/kernel.cpp.in",
    ["kernel_name", "template_package", "dtype_cpp", "op_cpp"]
);
static ALLREDUCE_TWO_SHOT_KERNEL: Template<'static> = template!(
    "allreduce_two_shot/kernel.cpp.in",
    ["kernel_name", "template_package", "dtype_cpp", "op_cpp"]
);
static BARRIER_KERNEL: Template<'static> =
    template!("barrier/kernel.cpp.in", ["kernel_name", "template_package"]);
static BROADCAST_KERNEL: Template<'static> = template!(
    "broadcast/kernel.cpp.in",
    ["kernel_name", "template_package", "dtype_cpp", "root_cpp"]
);
static REDUCE_SCATTER_KERNEL: Template<'static> = template!(
    "reduce_scatter/kernel.cpp.in",
    ["kernel_name", "template_package", "dtype_cpp", "op_cpp"]
);
static REDUCE_KERNEL: Template<'static> = template!(
    "reduce/kernel.cpp.in",
    ["kernel_name", "template_package", "dtype_cpp", "op_cpp"]
);
static ALLGATHER_KERNEL: Template<'static> = template!(
    "allgather/kernel.cpp.in",
    ["kernel_name", "template_package", "dtype_cpp"]
);
static ALL_TO_ALL_KERNEL: Template<'static> = template!(
    "all_to_all/kernel.cpp.in",
    ["kernel_name", "template_package", "dtype_cpp"]
);
/// Only `dtype_cpp` and `template_package` (identical on both rails):
/// the HOST and CHIP renders are byte-identical (spec 11.1).
static ALL_TO_ALL_V_KERNEL: Template<'static> = template!(
    "all_to_all_v/kernel.cpp.in",
    ["dtype_cpp", "template_package"]
);
static INDEXED_ALL_TO_ALL_V_KERNEL: Template<'static> = template!(
    "indexed_all_to_all_v/kernel.cpp.in",
    ["dtype_cpp", "template_package"]
);
/// The header every kernel includes (no keys: it is the same text in every
/// package, on both rails).
pub static COMMON_HEADER: Template<'static> = template!("common/pld_collective.h", []);

/// The entry of every builtin that runs one block and passes its tensors,
/// then its scalars (nranks and the CommContext, and a reduce's root;
/// spec 11.3); the tensors' directions and the scalars are keys.
static ONE_BLOCK_ENTRY: Template<'static> = template!(
    "common/entry.cpp.in",
    [
        "variant",
        "entry",
        "kernel_name",
        "template_package",
        "runtime",
        "tensor_dirs",
        "scalar_count",
        "scalar_names"
    ]
);
/// The mesh and two-shot allreduces launch core_num blocks (spec 11.3, 11.4).
static ALLREDUCE_ENTRY: Template<'static> = template!(
    "allreduce/entry.cpp.in",
    [
        "variant",
        "entry",
        "kernel_name",
        "template_package",
        "runtime",
        "launch_core_count_method"
    ]
);
/// all_to_all_v derives its launch width from the rank count (spec 8).
static ALL_TO_ALL_V_ENTRY: Template<'static> = template!(
    "all_to_all_v/entry.cpp.in",
    [
        "variant",
        "entry",
        "template_package",
        "runtime",
        "launch_core_count_method"
    ]
);
/// The build description of every HOST variant (spec 11.2); the tensors'
/// directions are a key.
static CONFIG: Template<'static> = template!(
    "common/kernel_config.py.in",
    [
        "variant",
        "entry",
        "kernel_name",
        "template_package",
        "runtime",
        "signature"
    ]
);

impl Builtin {
    /// The files of the builtin's package, in [`File::ALL`] order: all of
    /// them, except for the CHIP-only indexed_all_to_all_v, whose kernel is
    /// submitted by the CHIP orchestrator's own pipeline (no entry, no
    /// config of its own; the kernel still needs the header).
    pub fn files(self) -> Vec<File> {
        File::ALL
            .into_iter()
            .filter(|file| self.template(*file).is_some())
            .collect()
    }

    /// The template the builtin's `file` is rendered from; `None` for a
    /// file the builtin does not have (see [`Builtin::files`]).
    pub fn template(self, file: File) -> Option<&'static Template<'static>> {
        match file {
            File::Kernel => Some(self.kernel_template()),
            File::Entry => self.entry_template(),
            File::Config => self.config_template(),
            File::Header => Some(&COMMON_HEADER),
        }
    }

    /// Exactly the keys the builtin's `file` template uses (none for a file
    /// it does not have).
    pub fn keys(self, file: File) -> &'static [&'static str] {
        self.template(file).map_or(&[], |t| t.keys)
    }

    fn kernel_template(self) -> &'static Template<'static> {
        match self {
            Builtin::AllReduce => &ALLREDUCE_KERNEL,
            Builtin::AllReduceRing => &ALLREDUCE_RING_KERNEL,
            Builtin::AllReduceTwoShot => &ALLREDUCE_TWO_SHOT_KERNEL,
            Builtin::Barrier => &BARRIER_KERNEL,
            Builtin::Broadcast => &BROADCAST_KERNEL,
            Builtin::ReduceScatter => &REDUCE_SCATTER_KERNEL,
            Builtin::Reduce => &REDUCE_KERNEL,
            Builtin::AllGather => &ALLGATHER_KERNEL,
            Builtin::AllToAll => &ALL_TO_ALL_KERNEL,
            Builtin::AllToAllV => &ALL_TO_ALL_V_KERNEL,
            Builtin::IndexedAllToAllV => &INDEXED_ALL_TO_ALL_V_KERNEL,
        }
    }

    fn entry_template(self) -> Option<&'static Template<'static>> {
        match self {
            Builtin::AllReduce | Builtin::AllReduceTwoShot => Some(&ALLREDUCE_ENTRY),
            Builtin::AllReduceRing
            | Builtin::Barrier
            | Builtin::Broadcast
            | Builtin::ReduceScatter
            | Builtin::Reduce
            | Builtin::AllGather
            | Builtin::AllToAll => Some(&ONE_BLOCK_ENTRY),
            Builtin::AllToAllV => Some(&ALL_TO_ALL_V_ENTRY),
            Builtin::IndexedAllToAllV => None,
        }
    }

    fn config_template(self) -> Option<&'static Template<'static>> {
        match self {
            Builtin::AllReduce
            | Builtin::AllReduceRing
            | Builtin::AllReduceTwoShot
            | Builtin::Barrier
            | Builtin::Broadcast
            | Builtin::ReduceScatter
            | Builtin::Reduce
            | Builtin::AllGather
            | Builtin::AllToAll
            | Builtin::AllToAllV => Some(&CONFIG),
            Builtin::IndexedAllToAllV => None,
        }
    }
}
