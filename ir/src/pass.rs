//! The shape of a pld pass and its wrapping as an MLIR external pass.
//!
//! A pass declares the op it is anchored on. Function-local passes anchor
//! on `func.func` and MLIR runs them on its worker threads, one function at
//! a time; they must read and change nothing outside that function. Passes
//! that add, rename or retype functions, or need the whole program (unique
//! names, call graphs), anchor on `builtin.module`.

pub use crate::diag::{PassFailed, Report};
use melior::{
    dialect::DialectHandle,
    ir::{operation::OperationLike, r#type::TypeId, OperationRef},
    pass::{ExternalPass, Pass},
    Context, StringRef,
};
use mlir_sys::{MlirContext, MlirExternalPass, MlirLogicalResult, MlirOperation};
use std::ffi::c_void;
use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// The op a pass runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    /// `builtin.module`: the pass sees the whole program.
    Module,
    /// `func.func`: the pass sees one function and runs in parallel.
    Function,
}

impl Anchor {
    /// The op name MLIR anchors the pass on.
    pub fn op_name(self) -> &'static str {
        match self {
            Anchor::Module => "builtin.module",
            Anchor::Function => "func.func",
        }
    }
}

/// Why a module pass (`what`: `pass 'pld-verify'`, or a named pipeline
/// holding one, `pipeline 'pld-to-pto'`) cannot go under `op` (a nested
/// `builtin.module` included: pld's module passes see the whole program);
/// said alike by pld-opt's pipelines and MLIR's global registry.
pub fn module_only(what: &str, op: &str) -> String {
    match op {
        "builtin.module" => format!(
            "{what} runs on the outermost builtin.module only and cannot be nested under \
             another 'builtin.module' (write it outside the inner builtin.module(...))"
        ),
        _ => format!("{what} runs on builtin.module and cannot be nested under '{op}'"),
    }
}

impl fmt::Display for Anchor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.op_name())
    }
}

/// A pld pass. It reports problems as MLIR diagnostics at the offending
/// op's location and returns [`PassFailed`] to fail the pipeline.
pub trait PldPass: Clone + Send + 'static {
    /// Pipeline name, e.g. `pld-verify`.
    const ARGUMENT: &'static str;
    /// Human-readable name used in IR dumps, e.g. `PldVerify`.
    const NAME: &'static str;
    /// One-line summary for `--list-passes`.
    const SUMMARY: &'static str;
    /// The op the pass runs on.
    const ANCHOR: Anchor;

    /// Runs the pass on `op`, an op of kind [`Self::ANCHOR`].
    fn run(&self, context: &Context, op: OperationRef) -> Result<(), PassFailed>;
}

/// Adapts a [`PldPass`] to MLIR's external-pass interface.
#[derive(Clone)]
struct External<P>(P);

impl<P: PldPass> External<P> {
    fn run(&self, op: OperationRef<'_, '_>, pass: ExternalPass<'_>) {
        // `to_ref` points into the `ContextRef` itself, so the ContextRef
        // is a named local that outlives every use of `context`.
        let context_ref = op.context();
        // SAFETY: the op's context outlives the pass run, and `context_ref`
        // lives until the end of this function.
        let context = unsafe { context_ref.to_ref() };
        // Ops the pass erases are destroyed after it returns, when no
        // reference it held can be used any more (see `crate::edit`). A
        // panic must not unwind into MLIR (the host may be `mlir-opt` or a
        // C program): it becomes an error at the op the pass ran on.
        let result = catch_unwind(AssertUnwindSafe(|| {
            crate::edit::erasure_scope(|| self.0.run(context, op))
        }))
        .unwrap_or_else(|panic| {
            let message = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            crate::diag::emit_error(
                op.location(),
                &format!("internal error in pass '{}': {message}", P::ARGUMENT),
            );
            Err(PassFailed)
        });
        if result.is_err() {
            pass.signal_failure();
        }
    }
}

/// The upstream dialects whose ops pld passes create: each pass declares
/// them, so a pass manager loads them before it runs. A host context (stock
/// `mlir-opt`, a C or Python caller) loads only the dialects its input
/// uses, and an op of a dialect that is not loaded is built unregistered.
fn dependent_dialects() -> [DialectHandle; 6] {
    [
        DialectHandle::arith(),
        DialectHandle::func(),
        DialectHandle::gpu(),
        DialectHandle::llvm(),
        DialectHandle::scf(),
        DialectHandle::tensor(),
    ]
}

/// Unique identity of one pass type, as MLIR requires. Each pass declares
/// one `static` of this type and hands it to [`external`].
#[repr(align(8))]
pub struct PassIdentity;

/// Wraps `pass` as an MLIR pass anchored on [`PldPass::ANCHOR`].
///
/// The pass is handed to MLIR boxed, as the user data of an external pass,
/// with the callbacks below. (melior's `create_external` does the same but
/// its destruct callback only drops the value in place, never freeing the
/// box, so every non-empty pass and every clone MLIR made of it leaked its
/// box; these callbacks free it.)
pub fn external<P: PldPass>(pass: P, identity: &'static PassIdentity) -> Pass {
    let dialects = dependent_dialects().map(|d| d.to_raw());
    let callbacks = mlir_sys::MlirExternalPassCallbacks {
        construct: Some(construct),
        destruct: Some(destruct::<P>),
        initialize: Some(initialize),
        run: Some(run::<P>),
        clone: Some(clone::<P>),
    };
    let data = Box::into_raw(Box::new(External(pass))) as *mut c_void;
    // SAFETY: the strings are `'static`; MLIR copies the dialect handles
    // (plain values) during the call; `data` is a box of `External<P>`,
    // which only the callbacks instantiated for `P` read and free. The
    // returned pass is owned by the caller until a pass manager takes it.
    let raw = unsafe {
        mlir_sys::mlirCreateExternalPass(
            TypeId::create(identity).to_raw(),
            StringRef::new(P::NAME).to_raw(),
            StringRef::new(P::ARGUMENT).to_raw(),
            StringRef::new(P::SUMMARY).to_raw(),
            StringRef::new(P::ANCHOR.op_name()).to_raw(),
            dialects.len() as isize,
            dialects.as_ptr() as *mut mlir_sys::MlirDialectHandle,
            callbacks,
            data,
        )
    };
    // SAFETY: `raw` is the new, valid pass created above.
    unsafe { Pass::from_raw(raw) }
}

unsafe extern "C" fn construct(_data: *mut c_void) {}

unsafe extern "C" fn initialize(_context: MlirContext, _data: *mut c_void) -> MlirLogicalResult {
    MlirLogicalResult { value: 1 }
}

/// Frees a pass object's box (MLIR destroys the pass).
unsafe extern "C" fn destruct<P: PldPass>(data: *mut c_void) {
    // SAFETY: `data` is the box `external` or `clone` made for this pass
    // object; MLIR calls destruct once, when it destroys the object, and
    // never uses `data` afterwards.
    drop(unsafe { Box::from_raw(data as *mut External<P>) });
}

/// Runs the pass on `op` (MLIR runs it).
unsafe extern "C" fn run<P: PldPass>(op: MlirOperation, pass: MlirExternalPass, data: *mut c_void) {
    // SAFETY: `data` is this pass object's live box (see `destruct`); `op`
    // is the live op MLIR runs the pass on and `pass` the running pass, both
    // valid for the duration of the call.
    let (external, op, pass) = unsafe {
        (
            &*(data as *const External<P>),
            OperationRef::from_raw(op),
            ExternalPass::from_raw(pass),
        )
    };
    external.run(op, pass)
}

/// A new box holding a copy of the pass (MLIR clones a pass object for
/// each thread of a parallel pass manager); its clone's `destruct` frees it.
unsafe extern "C" fn clone<P: PldPass>(data: *mut c_void) -> *mut c_void {
    // SAFETY: `data` is this pass object's live box (see `destruct`).
    let external = unsafe { &*(data as *const External<P>) };
    Box::into_raw(Box::new(external.clone())) as *mut c_void
}

/// Parses pipeline elements (`cse,canonicalize{max-iterations=2}`, without
/// an anchor) into `manager`, as `OpPassManager::addPipeline` does. The
/// error is MLIR's message.
pub fn add_pipeline_elements(
    manager: melior::pass::OperationPassManager,
    elements: &str,
) -> Result<(), String> {
    unsafe extern "C" fn collect(text: mlir_sys::MlirStringRef, data: *mut std::ffi::c_void) {
        if text.data.is_null() || data.is_null() {
            return;
        }
        // SAFETY: `data` is the `String` passed below, alive for the whole
        // call that invokes this callback; `text` is a valid string
        // reference for the duration of the callback.
        let (message, bytes) = unsafe {
            (
                &mut *(data as *mut String),
                std::slice::from_raw_parts(text.data as *const u8, text.length),
            )
        };
        message.push_str(&String::from_utf8_lossy(bytes));
    }
    let mut message = String::new();
    // SAFETY: `manager` is a live pass manager, the string reference points
    // into `elements`, and `message` outlives the call (the callback writes
    // into it only during the call).
    let result = unsafe {
        mlir_sys::mlirOpPassManagerAddPipeline(
            manager.to_raw(),
            crate::parse::string_ref(elements),
            Some(collect),
            &mut message as *mut String as *mut std::ffi::c_void,
        )
    };
    if result.value != 0 {
        Ok(())
    } else {
        Err(message.trim().to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Sink;
    use melior::{ir::Module, pass::PassManager};

    #[derive(Clone)]
    struct Panicking;

    impl PldPass for Panicking {
        const ARGUMENT: &'static str = "test-panicking-pass";
        const NAME: &'static str = "TestPanickingPass";
        const SUMMARY: &'static str = "panics";
        const ANCHOR: Anchor = Anchor::Module;

        fn run(&self, _: &Context, _: OperationRef) -> Result<(), PassFailed> {
            panic!("boom")
        }
    }

    static PANICKING: PassIdentity = PassIdentity;

    #[test]
    fn a_panic_is_an_error_at_the_op() {
        let context = crate::parse::upstream_context();
        let sink = Sink::attach(&context);
        let mut module = Module::parse(&context, "module {}").expect("parses");
        let manager = PassManager::new(&context);
        manager.add_pass(external(Panicking, &PANICKING));
        assert!(manager.run(&mut module).is_err());
        let messages: Vec<String> = sink.take().into_iter().map(|d| d.message).collect();
        assert_eq!(
            messages,
            ["internal error in pass 'test-panicking-pass': boom"]
        );
    }

    #[derive(Clone)]
    struct Idle;

    impl PldPass for Idle {
        const ARGUMENT: &'static str = "test-idle-pass";
        const NAME: &'static str = "TestIdlePass";
        const SUMMARY: &'static str = "does nothing";
        const ANCHOR: Anchor = Anchor::Module;

        fn run(&self, _: &Context, _: OperationRef) -> Result<(), PassFailed> {
            Ok(())
        }
    }

    static IDLE: PassIdentity = PassIdentity;

    #[test]
    fn a_pass_loads_the_dialects_pld_passes_build() {
        // As in a host's context: every dialect registered, none loaded.
        let registry = melior::dialect::DialectRegistry::new();
        melior::utility::register_all_dialects(&registry);
        let context = Context::new();
        context.append_dialect_registry(&registry);
        let mut module = Module::parse(&context, "module {}").expect("parses");
        let ops = [
            "arith.constant",
            "func.call",
            "gpu.yield",
            "llvm.call",
            "scf.for",
            "tensor.dim",
        ];
        assert!(ops.iter().all(|op| !context.is_registered_operation(op)));
        let manager = PassManager::new(&context);
        manager.add_pass(external(Idle, &IDLE));
        manager.run(&mut module).expect("runs");
        for op in ops {
            assert!(context.is_registered_operation(op), "{op} is not loaded");
        }
    }
}
