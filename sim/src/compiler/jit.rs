//! From a converted module to machine code: the sim-only lowering, MLIR's
//! LLVM lowering, and `ExecutionEngine`, with the simulator's device
//! functions registered as the symbols the kernels call.

use super::diag::render;
use crate::runtime::ffi;
use melior::{
    ir::{block::BlockLike, operation::OperationLike, Module, RegionLike},
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
        // SAFETY: the caller upholds the contract above; `entry` is the
        // packed wrapper of a kernel whose code `'a` keeps alive.
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
        Self::from_text_named(text, "<lowered>")
    }

    /// `from_text` of a module named `source_name`: ops without a location
    /// of their own are located in it (a converted module the user wrote).
    pub fn from_text_named(text: &str, source_name: &str) -> Result<Self, String> {
        let context = pld_dialect::context();
        melior::utility::register_all_llvm_translations(&context);
        let sink = pld_ir::diag::Sink::attach(&context);
        // pld_ir's parser takes any bytes (melior's panics on a NUL).
        let Some(mut module) = pld_ir::parse::parse(&context, text, source_name) else {
            return Err(format!("the module does not parse: {}", render(&sink)));
        };
        run_pipeline(&context, &mut module, "builtin.module(convert-pto-to-sim)")
            .map_err(|e| e.unwrap_or_else(|| render(&sink)))?;
        if !module.as_operation().verify() {
            return Err(format!(
                "the lowered module does not verify: {}",
                render(&sink)
            ));
        }
        let names = kernel_names(&module);
        run_pipeline(
            &context,
            &mut module,
            "builtin.module(convert-scf-to-cf,convert-to-llvm,reconcile-unrealized-casts)",
        )
        .map_err(|e| {
            format!(
                "lowering to LLVM failed: {}",
                e.unwrap_or_else(|| render(&sink))
            )
        })?;
        let engine = ExecutionEngine::new(&module, 2, &[], false, false);
        for (name, address) in ffi::DEVICE_FUNCTIONS {
            // SAFETY: each entry is the Rust implementation of the device
            // function of that name, with the signature `pld_sim.h`
            // declares and the lowering calls it with (checked by a test).
            unsafe { engine.register_symbol(name, *address) };
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
        Self::cached_named(text, "<lowered>")
    }

    /// `cached` of a module named `source_name` (see `from_text_named`).
    pub fn cached_named(text: &str, source_name: &str) -> Result<std::rc::Rc<Self>, String> {
        use std::hash::{Hash, Hasher};
        thread_local! {
            static CACHE: std::cell::RefCell<HashMap<u64, std::rc::Rc<Compiled>>> =
                std::cell::RefCell::new(HashMap::new());
        }
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        (text, source_name).hash(&mut hasher);
        let key = hasher.finish();
        if let Some(hit) = CACHE.with(|c| c.borrow().get(&key).cloned()) {
            return Ok(hit);
        }
        let compiled = std::rc::Rc::new(Self::from_text_named(text, source_name)?);
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

/// Runs a pipeline of the simulator's registry on `module`. `Err(Some)`
/// for a malformed pipeline, `Err(None)` when a pass failed (the reasons
/// went to the context's diagnostics).
fn run_pipeline<'c>(
    context: &'c Context,
    module: &mut Module<'c>,
    pipeline: &str,
) -> Result<(), Option<String>> {
    let registry = super::registry::registry();
    let steps = pld_ir::pipeline::parse(pipeline, &registry).map_err(|e| Some(e.to_string()))?;
    let plan =
        pld_ir::pipeline::plan(context, &steps, &registry).map_err(|e| Some(e.to_string()))?;
    for step in &plan {
        step.run(module).map_err(|_| None)?;
    }
    Ok(())
}

/// The functions with bodies after the sim lowering: the kernels.
fn kernel_names(module: &Module) -> Vec<String> {
    let mut names = Vec::new();
    let mut op = module.body().first_operation();
    while let Some(current) = op {
        op = current.next_in_block();
        let has_body = current
            .region(0)
            .ok()
            .and_then(|r| r.first_block())
            .is_some();
        if has_body {
            names.extend(pld_ir::symbol_name(current));
        }
    }
    names
}
