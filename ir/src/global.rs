//! pld's passes and named pipelines in MLIR's global pass registry, where
//! every pipeline parser of the process finds them by name:
//! `mlirParsePassPipeline` and `mlirOpPassManagerAddPipeline` of a C host,
//! `mlir::parsePassPipeline` of a C++ one, stock `mlir-opt`. pld's own
//! drivers do not need it ([`crate::pipeline`] resolves names against a
//! [`Registry`]); `libpld.so` calls [`register`].
//!
//! The MLIR C API cannot register anything by name, so
//! `ir/cpp/registration.cpp` does it with MLIR's C++ API and calls back
//! into this file to fill a pass manager. Every pld pass and every named
//! pipeline is registered as a pass *pipeline* entry, whose builder gets the
//! option text as written: the rules of [`crate::pipeline`], which
//! `pld-opt` follows, then hold in any host. A pass anchored on `func.func`
//! written under `builtin.module` is nested under `func.func`
//! (`builtin.module(pld-lower-composite-ops)` works, as in `pld-opt`); a
//! pass anchored on `builtin.module` stands only in a `builtin.module`
//! manager; a pass's options are its own ([`PassEntry::instantiate`], with
//! its messages); a named pipeline takes none. (MLIR hands a registered
//! *pass* its option text through C++ option objects, which a pass made
//! through the C API does not have.)
//!
//! A name some library of the process registered already (pld's `mlir-opt`
//! plugin and `libpld.so`, loaded into the same host, both register
//! through here) is left as it is.

use crate::pass::{module_only, Anchor};
use crate::registry::{PassEntry, PipelineEntry, Registry};
use melior::pass::{OperationPassManager, Pass};
use mlir_sys::{MlirLogicalResult, MlirOpPassManager, MlirStringCallback, MlirStringRef};
use std::ffi::c_void;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Mutex;

/// One entry of MLIR's registry that pld provides; leaked, as the registry
/// lives as long as the process.
enum Entry {
    Pass(&'static PassEntry),
    /// A named pipeline, with the registry its pass names resolve in.
    Pipeline(&'static PipelineEntry, Registry),
}

impl Entry {
    fn argument(&self) -> &'static str {
        match self {
            Entry::Pass(pass) => pass.argument,
            Entry::Pipeline(pipeline, _) => pipeline.argument,
        }
    }

    fn summary(&self) -> &'static str {
        match self {
            Entry::Pass(pass) => pass.summary,
            Entry::Pipeline(pipeline, _) => pipeline.summary,
        }
    }

    /// Adds the entry's passes to `manager` (anchored on `anchor`, `any`
    /// for an op-agnostic one), with `options`, the text between the braces
    /// if there were braces; nothing is added when anything is wrong.
    fn add(
        &self,
        manager: OperationPassManager,
        anchor: &str,
        options: Option<&str>,
    ) -> Result<(), String> {
        let passes: Vec<&PassEntry> = match self {
            Entry::Pass(pass) => vec![pass],
            Entry::Pipeline(pipeline, registry) => {
                if options.is_some_and(|o| !o.trim().is_empty()) {
                    return Err(pipeline.takes_no_options());
                }
                pipeline
                    .passes
                    .iter()
                    .map(|name| {
                        registry.pass(name).ok_or_else(|| {
                            format!("pipeline '{}' names no pass '{name}'", pipeline.argument)
                        })
                    })
                    .collect::<Result<_, _>>()?
            }
        };
        let placed = passes
            .into_iter()
            .map(|pass| Ok((placement(pass, anchor)?, pass.instantiate(options)?)))
            .collect::<Result<Vec<(Placement, Pass)>, String>>()
            .map_err(|e| match self {
                // Named as it was written: the pipeline, not its pass.
                Entry::Pipeline(pipeline, _) => {
                    module_only(&format!("pipeline '{}'", pipeline.argument), anchor)
                }
                Entry::Pass(_) => e,
            })?;
        // Consecutive function passes share one nested manager, as in the
        // pipeline text they stand for.
        let mut functions: Option<OperationPassManager> = None;
        for (placement, pass) in placed {
            match placement {
                Placement::Here => {
                    functions = None;
                    manager.add_pass(pass);
                }
                Placement::InFunctions => functions
                    .get_or_insert_with(|| manager.nested_under(Anchor::Function.op_name()))
                    .add_pass(pass),
            }
        }
        Ok(())
    }
}

/// Where a pass goes relative to a pass manager.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Placement {
    /// Into the manager itself.
    Here,
    /// Into a `func.func` manager nested in it.
    InFunctions,
}

/// Where `pass` goes in a manager anchored on `anchor`, or why it cannot
/// go there.
fn placement(pass: &PassEntry, anchor: &str) -> Result<Placement, String> {
    match pass.anchor {
        Anchor::Function if anchor == Anchor::Function.op_name() => Ok(Placement::Here),
        Anchor::Function => Ok(Placement::InFunctions),
        Anchor::Module if anchor == Anchor::Module.op_name() => Ok(Placement::Here),
        Anchor::Module => Err(module_only(&format!("pass '{}'", pass.argument), anchor)),
    }
}

/// Registers every pass and pipeline of `registry` that no library of the
/// process registered yet; returns the names it registered.
pub fn register(registry: &Registry) -> Vec<&'static str> {
    // MLIR's registry is not safe to fill from two threads at once.
    static LOCK: Mutex<()> = Mutex::new(());
    let _held = LOCK.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let passes = registry.passes().iter().map(|&p| Entry::Pass(p));
    let pipelines = registry
        .pipelines()
        .iter()
        .map(|&p| Entry::Pipeline(p, registry.clone()));
    let mut added = Vec::new();
    for entry in passes.chain(pipelines) {
        if shim::is_registered(entry.argument()) {
            continue;
        }
        added.push(entry.argument());
        shim::register(Box::leak(Box::new(entry)));
    }
    added
}

/// Whether a pass or pipeline called `argument` is in MLIR's global
/// registry.
pub fn is_registered(argument: &str) -> bool {
    shim::is_registered(argument)
}

/// Runs `work`, turning a panic into an error message: nothing may unwind
/// into MLIR's C++ frames.
fn caught<T>(work: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(work)).unwrap_or_else(|panic| {
        let what = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        Err(format!("internal error in pld: {what}"))
    })
}

/// The C++ side (`ir/cpp/registration.cpp`) and the callback it calls:
/// every FFI call of this module.
mod shim {
    use super::*;

    type Build = unsafe extern "C" fn(
        *const c_void,
        MlirOpPassManager,
        MlirStringRef,
        MlirStringRef,
        bool,
        MlirStringCallback,
        *mut c_void,
    ) -> MlirLogicalResult;

    extern "C" {
        fn pld_ir_is_registered(argument: MlirStringRef) -> bool;
        fn pld_ir_register_pipeline(
            entry: *const c_void,
            argument: MlirStringRef,
            summary: MlirStringRef,
            build: Build,
        );
    }

    pub(super) fn is_registered(argument: &str) -> bool {
        // SAFETY: the string reference points into `argument`, alive for
        // the call; the shim only looks the name up.
        unsafe { pld_ir_is_registered(crate::parse::string_ref(argument)) }
    }

    pub(super) fn register(entry: &'static Entry) {
        // SAFETY: the strings are 'static (MLIR copies them anyway) and
        // `entry` is leaked, alive whenever MLIR calls `build` with it.
        unsafe {
            pld_ir_register_pipeline(
                entry as *const Entry as *const c_void,
                crate::parse::string_ref(entry.argument()),
                crate::parse::string_ref(entry.summary()),
                build,
            )
        }
    }

    /// Fills a pass manager with an entry's passes; on failure hands the
    /// reason to `error`.
    unsafe extern "C" fn build(
        entry: *const c_void,
        manager: MlirOpPassManager,
        anchor: MlirStringRef,
        options: MlirStringRef,
        braces: bool,
        error: MlirStringCallback,
        error_data: *mut c_void,
    ) -> MlirLogicalResult {
        // SAFETY: `entry` is the leaked `Entry` given to `register`;
        // `manager` is the live pass manager MLIR is filling; the string
        // references are valid for this call.
        let (entry, manager, anchor, options) = unsafe {
            (
                &*(entry as *const Entry),
                OperationPassManager::from_raw(manager),
                str_of(anchor),
                str_of(options),
            )
        };
        let options = braces.then_some(options.as_str());
        match caught(|| entry.add(manager, &anchor, options)) {
            Ok(()) => MlirLogicalResult { value: 1 },
            Err(message) => {
                if let Some(error) = error {
                    // SAFETY: `error` and `error_data` are the shim's
                    // collector, valid during this call; the string
                    // reference points into `message`, alive for it.
                    unsafe { error(crate::parse::string_ref(&message), error_data) };
                }
                MlirLogicalResult { value: 0 }
            }
        }
    }

    /// The text of a string reference (lossy: names and options are text).
    ///
    /// # Safety
    /// `text` must point to `length` readable bytes.
    unsafe fn str_of(text: MlirStringRef) -> String {
        if text.data.is_null() {
            return String::new();
        }
        // SAFETY: the caller's contract.
        let bytes = unsafe { std::slice::from_raw_parts(text.data as *const u8, text.length) };
        String::from_utf8_lossy(bytes).into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pass::{external, PassFailed, PassIdentity, PldPass};
    use melior::ir::OperationRef;
    use melior::pass::PassManager;
    use melior::Context;

    #[derive(Clone)]
    struct OnModule;
    impl PldPass for OnModule {
        const ARGUMENT: &'static str = "test-global-module-pass";
        const NAME: &'static str = "TestGlobalModulePass";
        const SUMMARY: &'static str = "does nothing, on the module";
        const ANCHOR: Anchor = Anchor::Module;
        fn run(&self, _: &Context, _: OperationRef) -> Result<(), PassFailed> {
            Ok(())
        }
    }

    #[derive(Clone)]
    struct OnFunctions;
    impl PldPass for OnFunctions {
        const ARGUMENT: &'static str = "test-global-function-pass";
        const NAME: &'static str = "TestGlobalFunctionPass";
        const SUMMARY: &'static str = "does nothing, on each function";
        const ANCHOR: Anchor = Anchor::Function;
        fn run(&self, _: &Context, _: OperationRef) -> Result<(), PassFailed> {
            Ok(())
        }
    }

    static MODULE_ID: PassIdentity = PassIdentity;
    static FUNCTION_ID: PassIdentity = PassIdentity;
    static PASSES: &[PassEntry] = &[
        PassEntry::of::<OnModule>(|| external(OnModule, &MODULE_ID)),
        PassEntry::of::<OnFunctions>(|| external(OnFunctions, &FUNCTION_ID)),
    ];
    static PIPELINES: &[PipelineEntry] = &[PipelineEntry {
        argument: "test-global-pipeline",
        summary: "both test passes, twice",
        passes: &[
            "test-global-module-pass",
            "test-global-function-pass",
            "test-global-function-pass",
            "test-global-module-pass",
        ],
    }];

    /// MLIR's own parser of `text`, on a module pass manager, after
    /// registering the test passes: the pipeline it built, or its error.
    fn parsed(text: &str) -> Result<String, String> {
        register(&Registry::new(PASSES, PIPELINES));
        melior::utility::register_all_passes();
        let context = crate::parse::upstream_context();
        let manager = PassManager::new(&context);
        crate::pass::add_pipeline_elements(
            manager
                .as_operation_pass_manager()
                .nested_under("builtin.module"),
            text,
        )?;
        Ok(manager.as_operation_pass_manager().to_string())
    }

    #[test]
    fn names_resolve_in_mlirs_own_parser() {
        assert_eq!(
            parsed("test-global-pipeline").unwrap(),
            "any(builtin.module(test-global-module-pass,\
             func.func(test-global-function-pass,test-global-function-pass),\
             test-global-module-pass))"
        );
        // A function pass under builtin.module is nested for the user.
        assert_eq!(
            parsed("test-global-function-pass,cse").unwrap(),
            "any(builtin.module(func.func(test-global-function-pass),cse))"
        );
        assert!(is_registered("test-global-module-pass"));
        // Registering again registers nothing.
        assert!(register(&Registry::new(PASSES, PIPELINES)).is_empty());
    }

    #[test]
    fn errors_come_back_as_mlirs_errors() {
        let nested = parsed("func.func(test-global-module-pass)").unwrap_err();
        assert!(
            nested.contains("pass 'test-global-module-pass' runs on builtin.module and cannot be nested under 'func.func'"),
            "{nested}"
        );
        let options = parsed("test-global-pipeline{x=1}").unwrap_err();
        assert!(
            options.contains("pipeline 'test-global-pipeline' takes no options"),
            "{options}"
        );
        let pass_options = parsed("test-global-module-pass{x=1}").unwrap_err();
        assert!(
            pass_options.contains("pass 'test-global-module-pass' takes no options"),
            "{pass_options}"
        );
        // Empty braces are no options, as MLIR reads `cse{}`.
        assert!(parsed("test-global-module-pass{}").is_ok());
        assert!(parsed("test-global-pipeline{}").is_ok());
    }
}
