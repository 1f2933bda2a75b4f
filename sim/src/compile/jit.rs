//! From a converted module to machine code: the sim-only lowering, MLIR's
//! LLVM lowering, and `ExecutionEngine`, with the simulator's device
//! functions registered as the symbols the kernels call.

use super::lower::{self, Refusal};
use crate::ffi;
use melior::{
    ir::{operation::OperationLike, Module},
    pass::PassManager,
    Context, ExecutionEngine,
};
use std::collections::HashMap;

/// A kernel's packed entry point: `void f(void **arguments)`, where
/// `arguments[i]` points at the value of parameter `i`.
#[derive(Clone, Copy)]
pub struct Kernel<'a> {
    entry: unsafe extern "C" fn(*mut *mut ()),
    /// The machine code lives as long as the `Compiled` it came from.
    _code: std::marker::PhantomData<&'a ()>,
}

impl Kernel<'_> {
    /// Calls the kernel.
    ///
    /// # Safety
    ///
    /// `arguments` must hold one pointer per kernel parameter, each to a
    /// value of the parameter's type, and every address passed must be
    /// valid for what the kernel does with it.
    pub unsafe fn call(&self, arguments: &mut [*mut ()]) {
        unsafe { (self.entry)(arguments.as_mut_ptr()) }
    }
}

/// The compiled kernels of one module.
pub struct Compiled {
    engine: ExecutionEngine,
    kernels: HashMap<String, unsafe extern "C" fn(*mut *mut ())>,
}

impl Compiled {
    /// Compiles every kernel (function with `pto.kernel_kind`) of a
    /// converted module, given as text. Errors name the op and location.
    pub fn from_text(text: &str) -> Result<Self, String> {
        let context = pld_dialect::context();
        melior::utility::register_all_llvm_translations(&context);
        let errors = collect_diagnostics(&context);
        let Some(mut module) = Module::parse(&context, text) else {
            return Err(format!(
                "the module does not parse: {}",
                errors.take().join("; ")
            ));
        };
        let names = pld_ir::erasure_scope(|| {
            lower::lower_module(&context, &module).map_err(|r: Refusal| lower::describe(&r))
        })?;
        if !module.as_operation().verify() {
            return Err(format!(
                "the lowered module does not verify: {}",
                errors.take().join("; ")
            ));
        }
        melior::utility::register_all_passes();
        let passes = PassManager::new(&context);
        melior::utility::parse_pass_pipeline(
            passes.as_operation_pass_manager(),
            "builtin.module(convert-scf-to-cf,convert-to-llvm,reconcile-unrealized-casts)",
        )
        .map_err(|e| format!("pass pipeline: {e}"))?;
        passes
            .run(&mut module)
            .map_err(|_| format!("lowering to LLVM failed: {}", errors.take().join("; ")))?;
        let engine = ExecutionEngine::new(&module, 2, &[], false, false);
        // SAFETY: the device functions have the signatures `pld_sim.h`
        // declares and the lowering calls them with.
        unsafe {
            engine.register_symbol("pld_sim_notify", ffi::pld_sim_notify as *mut ());
            engine.register_symbol("pld_sim_wait", ffi::pld_sim_wait as *mut ());
            engine.register_symbol("pld_sim_test", ffi::pld_sim_test as *mut ());
            engine.register_symbol("pld_sim_fence", ffi::pld_sim_fence as *mut ());
            engine.register_symbol("pld_sim_tile_alloc", ffi::pld_sim_tile_alloc as *mut ());
            engine.register_symbol("pld_sim_copy", ffi::pld_sim_copy as *mut ());
            engine.register_symbol("pld_sim_fill_pad", ffi::pld_sim_fill_pad as *mut ());
        }
        let mut kernels = HashMap::new();
        for name in names {
            let entry = engine.lookup(&format!("_mlir_{name}"));
            if entry.is_null() {
                return Err(format!("the JIT has no entry point for @{name}"));
            }
            // SAFETY: `_mlir_<name>` is the packed wrapper MLIR generates,
            // `void(void **)`.
            let entry = unsafe {
                std::mem::transmute::<*mut (), unsafe extern "C" fn(*mut *mut ())>(entry)
            };
            kernels.insert(name, entry);
        }
        Ok(Compiled { engine, kernels })
    }

    /// `from_text`, remembered by the text's content hash for the life of
    /// the calling thread (the JIT's code is not shared across threads), so
    /// running a kernel again does not compile it again.
    pub fn cached(text: &str) -> Result<std::rc::Rc<Self>, String> {
        use std::hash::{Hash, Hasher};
        thread_local! {
            static CACHE: std::cell::RefCell<HashMap<u64, std::rc::Rc<Compiled>>> =
                std::cell::RefCell::new(HashMap::new());
        }
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        text.hash(&mut hasher);
        let key = hasher.finish();
        if let Some(hit) = CACHE.with(|c| c.borrow().get(&key).cloned()) {
            return Ok(hit);
        }
        let compiled = std::rc::Rc::new(Self::from_text(text)?);
        CACHE.with(|c| c.borrow_mut().insert(key, compiled.clone()));
        Ok(compiled)
    }

    /// The kernel named `name` (without `@`).
    pub fn kernel(&self, name: &str) -> Option<Kernel<'_>> {
        self.kernels.get(name).map(|entry| Kernel {
            entry: *entry,
            _code: std::marker::PhantomData,
        })
    }

    /// Keeps the machine code alive as long as `self`.
    pub fn engine(&self) -> &ExecutionEngine {
        &self.engine
    }
}

/// Captures the context's diagnostics as strings.
fn collect_diagnostics(context: &Context) -> Diagnostics {
    let store = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    let sink = store.clone();
    context.attach_diagnostic_handler(move |d| {
        sink.borrow_mut().push(format!("{}: {d}", d.location()));
        true
    });
    Diagnostics(store)
}

struct Diagnostics(std::rc::Rc<std::cell::RefCell<Vec<String>>>);

impl Diagnostics {
    fn take(&self) -> Vec<String> {
        std::mem::take(&mut *self.0.borrow_mut())
    }
}
