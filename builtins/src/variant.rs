//! Variants: one distinct set of template variables of a builtin (spec
//! 10.3), its names and paths, and its rendering.

use crate::builtin::{Builtin, Dir, Elem, Reduction};
use crate::error::KernelError;
use crate::file::{File, HEADER};

/// The symbol every rendered kernel exports on the device (each kernel is
/// an object of its own there; the runtime resolves this name).
pub const DEVICE_ENTRY: &str = "kernel_entry";

/// The launch-spec setter of the target (`launch_core_count_method`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CoreCountMethod {
    /// A2/A3: `set_block_num`.
    #[default]
    BlockNum,
    /// Ascend950: `set_core_num`.
    CoreNum,
}

impl CoreCountMethod {
    pub fn cpp(self) -> &'static str {
        match self {
            CoreCountMethod::BlockNum => "set_block_num",
            CoreCountMethod::CoreNum => "set_core_num",
        }
    }
}

/// What the backend sets for every variant of one build (spec 11.1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    /// `runtime`: the runtime kind shared by all chip sub-builds.
    pub runtime: String,
    pub core_count_method: CoreCountMethod,
}

/// The runtime kind used when the caller names none.
pub const DEFAULT_RUNTIME: &str = "tensormap_and_ringbuffer";

impl Default for Target {
    fn default() -> Self {
        Target {
            runtime: DEFAULT_RUNTIME.to_string(),
            core_count_method: CoreCountMethod::BlockNum,
        }
    }
}

/// The largest broadcast root the prebuilt (simulator) library carries:
/// the builtin kernels serve up to 64 ranks (a CommContext's capacity), so
/// roots 0..=63.
pub const MAX_PREBUILT_ROOT: u32 = 63;

/// One builtin variant: one distinct set of template variables (spec
/// 10.3), rendered once and shared by all its dispatches. `core_num` is a
/// runtime scalar and not part of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Variant {
    builtin: Builtin,
    reduction: Option<Reduction>,
    elem: Elem,
    root: Option<u32>,
}

impl Variant {
    /// The variant of `builtin` for these attributes, if the builtin has a
    /// kernel for them (spec 4.9 and 10.3: allreduce FP16/FP32 with any
    /// reduction, the ring Sum FP32, all_to_all_v FP32/INT8, the rest
    /// FP32; the barrier moves no data and is named `__fp32`).
    pub fn new(
        builtin: Builtin,
        reduction: Option<Reduction>,
        elem: Elem,
        root: Option<u32>,
    ) -> Result<Variant, KernelError> {
        if !builtin.elems().contains(&elem) {
            return Err(KernelError::Dtype { builtin, elem });
        }
        let reduction_ok = match builtin.reductions() {
            Reductions::Any => reduction.is_some(),
            Reductions::SumOnly => reduction == Some(Reduction::Sum),
            Reductions::None => reduction.is_none(),
        };
        if !reduction_ok {
            return Err(KernelError::Reduction { builtin, reduction });
        }
        if builtin.root_in_variant() != root.is_some() {
            return Err(KernelError::Root { builtin, root });
        }
        Ok(Variant {
            builtin,
            reduction,
            elem,
            root,
        })
    }

    pub fn builtin(&self) -> Builtin {
        self.builtin
    }

    pub fn reduction(&self) -> Option<Reduction> {
        self.reduction
    }

    pub fn elem(&self) -> Elem {
        self.elem
    }

    pub fn root(&self) -> Option<u32> {
        self.root
    }

    /// The variant string of spec 10.3, e.g.
    /// `builtin.tensor.allreduce__sum__fp32`,
    /// `builtin.tensor.broadcast__root2__fp32`.
    pub fn name(&self) -> String {
        let mut name = format!("builtin.tensor.{}", self.builtin.dir());
        if let Some(root) = self.root {
            name.push_str(&format!("__root{root}"));
        }
        if let Some(reduction) = self.reduction {
            name.push_str("__");
            name.push_str(reduction.key());
        }
        name.push_str("__");
        name.push_str(self.elem.key());
        name
    }

    /// The entry symbol: the variant with `.` replaced by `_`.
    pub fn entry(&self) -> String {
        self.name().replace('.', "_")
    }

    /// `kernel_name`: `<entry>_kernel` (also the kernel's file name).
    pub fn kernel_name(&self) -> String {
        format!("{}_kernel", self.entry())
    }

    /// The `extern "C"` name the kernel gets where several kernels link
    /// into one library (runtime-sys's simulator build defines
    /// `PLD_KERNEL_ENTRY` to it): `kernel_name`, except for all_to_all_v,
    /// whose kernel is shared by its element type only (spec 11.1
    /// byte-identity): `builtin_all_to_all_v_kernel__<dtype_cpp>`. On the
    /// device the kernel exports [`DEVICE_ENTRY`] instead.
    pub fn kernel_symbol(&self) -> String {
        match self.builtin {
            Builtin::AllToAllV => format!("builtin_all_to_all_v_kernel__{}", self.elem.cpp()),
            Builtin::IndexedAllToAllV => {
                format!("builtin_indexed_all_to_all_v_kernel__{}", self.elem.cpp())
            }
            Builtin::AllReduce
            | Builtin::AllReduceRing
            | Builtin::AllReduceTwoShot
            | Builtin::Barrier
            | Builtin::Broadcast
            | Builtin::ReduceScatter
            | Builtin::Reduce
            | Builtin::AllGather
            | Builtin::AllToAll => self.kernel_name(),
        }
    }

    /// Every template variable of the variant for `target`, by key
    /// (spec 11.1), sorted by key.
    pub fn vars(&self, target: &Target) -> Vec<(&'static str, String)> {
        let mut vars = vec![
            ("variant", self.name()),
            ("entry", self.entry()),
            ("kernel_name", self.kernel_name()),
            ("template_package", self.builtin.template_package()),
            ("runtime", target.runtime.clone()),
        ];
        if self.builtin != Builtin::Barrier {
            vars.push(("dtype_cpp", self.elem.cpp().to_string()));
        }
        if let Some(reduction) = self.reduction {
            vars.push(("op_cpp", reduction.op_cpp().to_string()));
            if self.builtin == Builtin::AllReduce {
                vars.push(("reduce_inst", reduction.reduce_inst().to_string()));
            }
        }
        if matches!(
            self.builtin,
            Builtin::AllReduce | Builtin::AllReduceTwoShot | Builtin::AllToAllV
        ) {
            vars.push((
                "launch_core_count_method",
                target.core_count_method.cpp().to_string(),
            ));
        }
        if let Some(root) = self.root {
            vars.push(("root_cpp", root.to_string()));
        }
        vars.sort();
        vars
    }

    /// Every value a template key may take: the variant's variables
    /// ([`Variant::vars`]) and the facts of its builtin that the shared
    /// templates render (`signature`, `tensor_dirs`: from
    /// [`Builtin::tensors`]), sorted by key. Each template takes exactly
    /// the keys it lists.
    pub fn template_values(&self, target: &Target) -> Vec<(&'static str, String)> {
        let dirs = || self.builtin.tensors().iter().map(|(_, dir)| *dir);
        let join = |parts: Vec<&str>| parts.join(", ");
        let mut values = self.vars(target);
        values.push(("signature", join(dirs().map(Dir::signature).collect())));
        values.push(("tensor_dirs", join(dirs().map(Dir::cpp).collect())));
        let scalars = self.builtin.scalars();
        values.push(("scalar_count", scalars.len().to_string()));
        let names: Vec<&str> = scalars.iter().map(|s| s.name()).collect();
        values.push(("scalar_names", names.join(", ")));
        values.sort();
        values
    }

    /// The relative path of a rendered file under the output directory
    /// (spec 11.1, HOST rail). The header goes next to the kernel, where
    /// the kernel's `#include "pld_collective.h"` finds it.
    pub fn path(&self, file: File) -> String {
        let base = format!("next_levels/{}", self.name());
        match file {
            File::Entry => format!("{base}/orchestration/{}.cpp", self.entry()),
            File::Kernel => format!("{base}/kernels/aiv/{}.cpp", self.kernel_name()),
            File::Config => format!("{base}/kernel_config.py"),
            File::Header => format!("{base}/kernels/aiv/{HEADER}"),
        }
    }

    /// Renders one file: the template gets exactly the keys it lists.
    pub fn render(&self, file: File, target: &Target) -> Result<String, KernelError> {
        let template = self.builtin.template(file).ok_or(KernelError::NoFile {
            builtin: self.builtin,
            file,
        })?;
        template.render(&self.template_values(target))
    }
}

/// Which reductions a builtin has kernels for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reductions {
    /// It does not reduce.
    None,
    /// Any [`Reduction`].
    Any,
    /// Sum only.
    SumOnly,
}

impl Builtin {
    /// The element types the builtin has kernels for (spec 4.9, 10.3:
    /// allreduce and reduce FP16/FP32, the exchanges FP32/INT8, the rest
    /// FP32; the barrier moves no data and is named for FP32).
    pub fn elems(self) -> &'static [Elem] {
        match self {
            Builtin::AllReduce | Builtin::AllReduceTwoShot | Builtin::Reduce => {
                &[Elem::F16, Elem::F32]
            }
            Builtin::AllToAllV | Builtin::IndexedAllToAllV => &[Elem::F32, Elem::I8],
            Builtin::AllReduceRing
            | Builtin::Barrier
            | Builtin::Broadcast
            | Builtin::ReduceScatter
            | Builtin::AllGather
            | Builtin::AllToAll => &[Elem::F32],
        }
    }

    /// Whether its kernel takes a rank-1 signal only (`[NR]`: one lane).
    pub fn rank1_signal(self) -> bool {
        match self {
            Builtin::Barrier | Builtin::Broadcast | Builtin::ReduceScatter | Builtin::Reduce => {
                true
            }
            Builtin::AllReduce
            | Builtin::AllReduceRing
            | Builtin::AllReduceTwoShot
            | Builtin::AllGather
            | Builtin::AllToAll
            | Builtin::AllToAllV
            | Builtin::IndexedAllToAllV => false,
        }
    }

    /// The reductions the builtin has kernels for.
    pub fn reductions(self) -> Reductions {
        match self {
            Builtin::AllReduce | Builtin::AllReduceTwoShot | Builtin::Reduce => Reductions::Any,
            Builtin::AllReduceRing | Builtin::ReduceScatter => Reductions::SumOnly,
            Builtin::Barrier
            | Builtin::Broadcast
            | Builtin::AllGather
            | Builtin::AllToAll
            | Builtin::AllToAllV
            | Builtin::IndexedAllToAllV => Reductions::None,
        }
    }
}

/// Every HOST-rail variant the templates support, with broadcast roots
/// `0..=max_root` (the finite set runtime-sys prebuilds). The CHIP-only
/// indexed_all_to_all_v is not among them ([`chip_only_variants`]).
pub fn all_variants(max_root: u32) -> Vec<Variant> {
    let mut out = Vec::new();
    let ok = |v: Result<Variant, KernelError>| v.expect("a supported variant");
    for builtin in [Builtin::AllReduce, Builtin::AllReduceTwoShot] {
        for reduction in Reduction::ALL {
            for elem in [Elem::F16, Elem::F32] {
                out.push(ok(Variant::new(builtin, Some(reduction), elem, None)));
            }
        }
    }
    let sum = Some(Reduction::Sum);
    out.push(ok(Variant::new(
        Builtin::AllReduceRing,
        sum,
        Elem::F32,
        None,
    )));
    out.push(ok(Variant::new(Builtin::Barrier, None, Elem::F32, None)));
    for root in 0..=max_root {
        out.push(ok(Variant::new(
            Builtin::Broadcast,
            None,
            Elem::F32,
            Some(root),
        )));
    }
    out.push(ok(Variant::new(
        Builtin::ReduceScatter,
        sum,
        Elem::F32,
        None,
    )));
    for reduction in Reduction::ALL {
        for elem in [Elem::F16, Elem::F32] {
            out.push(ok(Variant::new(
                Builtin::Reduce,
                Some(reduction),
                elem,
                None,
            )));
        }
    }
    out.push(ok(Variant::new(Builtin::AllGather, None, Elem::F32, None)));
    out.push(ok(Variant::new(Builtin::AllToAll, None, Elem::F32, None)));
    for elem in [Elem::F32, Elem::I8] {
        out.push(ok(Variant::new(Builtin::AllToAllV, None, elem, None)));
    }
    out
}

/// The variants of the CHIP-only builtins, which have a kernel and no entry
/// (the CHIP orchestrator submits it): indexed_all_to_all_v for each of
/// its element types. runtime-sys prebuilds them for the simulator, which
/// launches their kernels directly.
pub fn chip_only_variants() -> Vec<Variant> {
    Builtin::IndexedAllToAllV
        .elems()
        .iter()
        .map(|&elem| {
            Variant::new(Builtin::IndexedAllToAllV, None, elem, None).expect("a supported variant")
        })
        .collect()
}
