//! Running the builtin kernels (collectives spec 11) on N simulated ranks.
//!
//! runtime-sys's build script renders every builtin variant from
//! `builtins/templates` and compiles its entry (the chip orchestration) and
//! AIV kernel into a static library with a registry
//! (`pld/pld_builtins.h`, read in `abi`). [`BuiltinRun`] calls one
//! variant's entry on every rank of a [`CommDomain`], the way a HOST
//! dispatch would (spec 10.3): the orchestration arguments are tensor
//! descriptors into the rank's window (pto-interface 4.2) and scalars (the
//! rank count, the rank's real `CommContext` address, `core_num`, ...).
//! The entry submits its kernel with `rt_submit_aiv_task`
//! (`pld/pld_runtime.h`), which runs each block on its own thread bound to
//! the rank through `pld_sim_block_enter`.

mod abi;

use crate::runtime::domain::CommDomain;
use crate::runtime::run::{Outcome, RankEnv, Run};
pub use abi::TensorDesc;
use std::sync::Mutex;
use std::time::Duration;

/// The layout the C++ side compiled `PldTensor` with, in the order of
/// `pld_builtin_tensor_layout`.
pub fn cpp_tensor_layout() -> [u32; 8] {
    abi::tensor_layout()
}

/// `CalAllToAllVBlocks` as the compiled entries compute it.
pub fn cpp_all_to_all_v_blocks(ranks: i32, requested: i32) -> i32 {
    abi::all_to_all_v_blocks(ranks, requested)
}

/// One compiled variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Compiled {
    pub index: i32,
    /// `builtin.tensor.allreduce__sum__fp32`, or `broken.<what>.<variant>`
    /// for the test-only copies broken on purpose.
    pub variant: String,
    /// The entry symbol; `None` for a CHIP-only kernel (launched with
    /// [`launch`]).
    pub entry: Option<String>,
    pub kernel: String,
}

/// Every variant in the library.
pub fn compiled() -> Vec<Compiled> {
    (0..abi::count())
        .filter_map(|index| {
            let (variant, entry, kernel) = abi::names(index)?;
            Some(Compiled {
                index,
                variant,
                entry,
                kernel,
            })
        })
        .collect()
}

/// The compiled variant named `variant` (spec 10.3 string) or whose entry
/// symbol is `variant`.
pub fn find(variant: &str) -> Option<Compiled> {
    compiled()
        .into_iter()
        .find(|c| c.variant == variant || c.entry.as_deref() == Some(variant))
}

/// A tensor argument: a buffer at the same byte offset of every rank's
/// window.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TensorArg {
    pub offset: usize,
    pub shape: Vec<u32>,
    pub elem_bytes: usize,
}

impl TensorArg {
    pub fn new(offset: usize, shape: &[u32], elem_bytes: usize) -> Self {
        TensorArg {
            offset,
            shape: shape.to_vec(),
            elem_bytes,
        }
    }

    /// Bytes the tensor covers.
    pub fn bytes(&self) -> usize {
        self.shape.iter().map(|&d| d as usize).product::<usize>() * self.elem_bytes
    }
}

/// A scalar argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scalar {
    /// The domain's rank count (`__comm[r].domain_size`).
    Ranks,
    /// The rank's `CommContext` address (`__comm[r].device_ctx`).
    Context,
    Value(u64),
}

/// What one rank's call of the entry returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CallStatus {
    /// `PLD_BUILTIN_OK`, `PLD_BUILTIN_FATAL` or a negative registry error.
    pub status: i32,
    /// The entry's `aicpu_orchestration_config(args).expected_arg_count`.
    pub expected_arg_count: i32,
}

/// How a run of builtin calls ended.
#[derive(Debug)]
pub struct BuiltinOutcome {
    pub outcome: Outcome,
    /// `[rank][call]`.
    pub calls: Vec<Vec<CallStatus>>,
}

/// Why a builtin run could not start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BuiltinError {
    UnknownVariant(String),
    /// A tensor that does not fit the windows, or more than 5 dims.
    Tensor(usize),
    TooManyArguments,
}

impl std::fmt::Display for BuiltinError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BuiltinError::UnknownVariant(v) => write!(f, "no compiled builtin variant {v}"),
            BuiltinError::Tensor(i) => write!(
                f,
                "tensor argument {i} does not fit the windows (or has no 1 to 5 dims)"
            ),
            BuiltinError::TooManyArguments => write!(f, "more than 16 tensors or 32 scalars"),
        }
    }
}

impl std::error::Error for BuiltinError {}

/// Per-rank, per-call hooks: run on the rank's own thread, right before
/// call `call` (e.g. to fill inputs) and right after it (e.g. to save its
/// results before the next call refills them).
pub type Hook<'h> = &'h (dyn Fn(RankEnv<'_>, usize) + Sync);

/// One builtin dispatch per rank, `calls` times back to back.
pub struct BuiltinRun<'a> {
    pub variant: &'a str,
    pub tensors: &'a [TensorArg],
    pub scalars: &'a [Scalar],
    pub calls: usize,
    /// AIV cores of the simulated device (the sync-start admission limit).
    pub aiv_limit: i32,
    pub deadline: Duration,
    /// Record every copy into another rank's window
    /// (`Outcome::remote_writes`).
    pub record_remote_writes: bool,
    /// `Some(B)`: launch the variant's kernel itself with B blocks (a
    /// CHIP-only kernel, which has no entry), as a CHIP orchestrator
    /// submits it; `None`: call its entry.
    pub launch: Option<i32>,
}

impl BuiltinRun<'_> {
    /// Runs the calls on every rank of `domain`, each rank on its own
    /// thread, its blocks on theirs.
    pub fn execute(
        &self,
        domain: &CommDomain,
        before: Option<Hook<'_>>,
        after: Option<Hook<'_>>,
    ) -> Result<BuiltinOutcome, BuiltinError> {
        self.execute_explored(domain, before, after, None)
    }

    /// `execute`, under the explorer's `schedule` when given
    /// (`Run::explore`).
    pub fn execute_explored(
        &self,
        domain: &CommDomain,
        before: Option<Hook<'_>>,
        after: Option<Hook<'_>>,
        schedule: Option<crate::explore::Schedule>,
    ) -> Result<BuiltinOutcome, BuiltinError> {
        let compiled =
            find(self.variant).ok_or_else(|| BuiltinError::UnknownVariant(self.variant.into()))?;
        if self.tensors.len() > pld_runtime_sys::PLD_BUILTIN_MAX_TENSORS as usize
            || self.scalars.len() > pld_runtime_sys::PLD_BUILTIN_MAX_SCALARS as usize
        {
            return Err(BuiltinError::TooManyArguments);
        }
        let window = domain.window(0).len();
        for (i, t) in self.tensors.iter().enumerate() {
            let fits = t
                .offset
                .checked_add(t.bytes())
                .is_some_and(|end| end <= window);
            if !fits || t.shape.is_empty() || t.shape.len() > 5 {
                return Err(BuiltinError::Tensor(i));
            }
        }
        let ranks = domain.ranks();
        let statuses = Mutex::new(vec![Vec::new(); ranks]);
        let outcome = Run::new(domain, self.deadline)
            .record_remote_writes(self.record_remote_writes)
            .explore(schedule)
            .execute(&compiled.variant, |env| {
                let base = env.domain.window(env.rank).base() as u64;
                let descs: Vec<TensorDesc> = self
                    .tensors
                    .iter()
                    .filter_map(|t| {
                        TensorDesc::dense(base + t.offset as u64, &t.shape, t.elem_bytes)
                    })
                    .collect();
                let scalars: Vec<u64> = self
                    .scalars
                    .iter()
                    .map(|s| match s {
                        Scalar::Ranks => ranks as u64,
                        Scalar::Context => env.domain.context(env.rank) as u64,
                        Scalar::Value(v) => *v,
                    })
                    .collect();
                let mut mine = Vec::with_capacity(self.calls);
                for call in 0..self.calls {
                    if let Some(before) = before {
                        before(env, call);
                    }
                    // SAFETY: every descriptor points into this rank's window
                    // and fits it (checked above); this thread is a rank
                    // thread of the run.
                    mine.push(unsafe {
                        match self.launch {
                            Some(blocks) => {
                                self::launch(&compiled, &descs, &scalars, blocks, self.aiv_limit)
                            }
                            None => self::call(&compiled, &descs, &scalars, self.aiv_limit),
                        }
                    });
                    if let Some(after) = after {
                        after(env, call);
                    }
                }
                statuses.lock().unwrap()[env.rank] = mine;
            });
        Ok(BuiltinOutcome {
            outcome,
            calls: statuses.into_inner().unwrap(),
        })
    }
}

/// Calls `compiled`'s entry once, on the calling thread, and returns when
/// the launch's blocks have.
///
/// # Safety
///
/// The calling thread must be a rank thread of a running simulation, and
/// every descriptor must describe memory of that run's windows that the
/// entry may read and write.
pub unsafe fn call(
    compiled: &Compiled,
    descs: &[TensorDesc],
    scalars: &[u64],
    aiv_limit: i32,
) -> CallStatus {
    // SAFETY: the caller's contract; the registry call returns only when
    // the launch's blocks have.
    let (status, expected) = unsafe { abi::call(compiled.index, descs, scalars, aiv_limit) };
    CallStatus {
        status,
        expected_arg_count: expected,
    }
}

/// Launches `compiled`'s kernel itself with `blocks` blocks (all started
/// together when more than one), its arguments the descriptors then the
/// scalars, as a CHIP orchestrator submits a CHIP-only kernel; returns
/// when the blocks have.
///
/// # Safety
///
/// As [`call`]'s.
pub unsafe fn launch(
    compiled: &Compiled,
    descs: &[TensorDesc],
    scalars: &[u64],
    blocks: i32,
    aiv_limit: i32,
) -> CallStatus {
    // SAFETY: the caller's contract.
    let status = unsafe { abi::launch(compiled.index, descs, scalars, blocks, aiv_limit) };
    CallStatus {
        status,
        expected_arg_count: descs.len() as i32 + scalars.len() as i32,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_descriptor_layout_agrees_with_the_cpp_one() {
        let layout = cpp_tensor_layout();
        let rust = [
            std::mem::offset_of!(TensorDesc, addr),
            std::mem::offset_of!(TensorDesc, size),
            std::mem::offset_of!(TensorDesc, start_offset),
            std::mem::offset_of!(TensorDesc, ndims),
            std::mem::offset_of!(TensorDesc, dtype),
            std::mem::offset_of!(TensorDesc, shapes),
            std::mem::offset_of!(TensorDesc, strides),
            std::mem::size_of::<TensorDesc>(),
        ];
        assert_eq!(layout.map(|v| v as usize), rust);
        // pto-interface 4.2 in numbers.
        assert_eq!(layout, [0, 8, 24, 36, 40, 44, 72, 128]);
    }

    #[test]
    fn dense_descriptors_are_row_major() {
        let d = TensorDesc::dense(64, &[3, 4, 5], 4).unwrap();
        assert_eq!((d.ndims, d.shapes[..3].to_vec()), (3, vec![3, 4, 5]));
        assert_eq!(d.strides[..3], [20, 5, 1]);
        assert_eq!(d.size, 240);
        assert!(TensorDesc::dense(0, &[], 4).is_none());
        assert!(TensorDesc::dense(0, &[1; 6], 4).is_none());
    }

    #[test]
    fn every_catalog_variant_is_compiled_under_its_names() {
        let compiled = compiled();
        let catalog = pld_backend::kernels::all_variants(pld_backend::kernels::MAX_PREBUILT_ROOT);
        for variant in &catalog {
            let c = compiled
                .iter()
                .find(|c| c.variant == variant.name())
                .unwrap_or_else(|| panic!("{} is not compiled", variant.name()));
            assert_eq!(c.entry.as_deref(), Some(variant.entry().as_str()));
            assert_eq!(c.kernel, variant.kernel_symbol());
        }
        let chip = pld_backend::kernels::chip_only_variants();
        for variant in &chip {
            let c = find(&variant.name()).expect("compiled");
            assert_eq!((c.entry, c.kernel), (None, variant.kernel_symbol()));
        }
        let broken = compiled
            .iter()
            .filter(|c| c.variant.starts_with("broken."))
            .count();
        assert_eq!(compiled.len(), catalog.len() + chip.len() + broken);
        assert_eq!(broken, 7);
        assert!(find("builtin_tensor_barrier__fp32").is_some());
        assert!(find("builtin.tensor.nothing").is_none());
    }

    #[test]
    fn the_entries_launch_width_is_the_dialects() {
        for p in 1..=16 {
            for l in 1..=64 {
                let rust = pld_dialect::launch::all_to_all_v_blocks(p, l).unwrap();
                assert_eq!(
                    i64::from(cpp_all_to_all_v_blocks(p as i32, l as i32)),
                    rust,
                    "P={p} L={l}"
                );
            }
        }
    }
}
