//! MLIR's JIT, made without LLVM's perf listener (`cpp/engine.cpp` says
//! why: the C API's engine leaves a `jit-<pid>.dump` file behind in a
//! directory of its own on every run), used through the C API.

use melior::ir::Module;
use std::ffi::{c_char, CStr, CString};

extern "C" {
    /// `cpp/engine.cpp`.
    fn pld_ir_engine_create(
        module: mlir_sys::MlirModule,
        opt_level: i32,
        enable_object_dump: bool,
        message: *mut c_char,
        capacity: usize,
    ) -> mlir_sys::MlirExecutionEngine;
}

/// A module compiled to machine code in this process.
pub struct Engine {
    raw: mlir_sys::MlirExecutionEngine,
}

impl Engine {
    /// Compiles `module` (in the LLVM dialect) at LLVM optimisation level
    /// `opt_level` (0 to 3), keeping the object for
    /// [`Engine::dump_to_object_file`] when `dump`. The error is LLVM's.
    pub fn new(module: &Module, opt_level: usize, dump: bool) -> Result<Engine, String> {
        let mut message = [0 as c_char; 512];
        // SAFETY: `module` is a live module; `message` is a writable buffer
        // of the length passed, which the shim fills NUL-terminated.
        let raw = unsafe {
            pld_ir_engine_create(
                module.to_raw(),
                i32::try_from(opt_level).unwrap_or(3).min(3),
                dump,
                message.as_mut_ptr(),
                message.len(),
            )
        };
        if raw.ptr.is_null() {
            // SAFETY: the shim wrote a NUL-terminated string into `message`
            // (or left it all zeros) when it returned no engine.
            let text = unsafe { CStr::from_ptr(message.as_ptr()) };
            return Err(text.to_string_lossy().into_owned());
        }
        Ok(Engine { raw })
    }

    /// The address of the function `name`, null when there is none.
    pub fn lookup(&self, name: &str) -> *mut () {
        let name = melior::StringRef::new(name);
        // SAFETY: `self.raw` is a live engine; MLIR reads `name` during the
        // call only.
        unsafe { mlir_sys::mlirExecutionEngineLookup(self.raw, name.to_raw()) as *mut () }
    }

    /// Makes `address` the definition of the external symbol `name` for
    /// the code of this engine.
    ///
    /// # Safety
    /// `address` must be a function with the signature the compiled code
    /// calls `name` with, alive as long as the engine's code may run.
    pub unsafe fn register_symbol(&self, name: &str, address: *mut ()) {
        let name = melior::StringRef::new(name);
        // SAFETY: `self.raw` is a live engine; the caller vouches for the
        // address (above).
        unsafe {
            mlir_sys::mlirExecutionEngineRegisterSymbol(self.raw, name.to_raw(), address.cast())
        }
    }

    /// Writes the object file of the compiled code to `path` (an engine
    /// made with `dump`); LLVM reports a failure on standard error.
    pub fn dump_to_object_file(&self, path: &str) {
        let Ok(path) = CString::new(path) else {
            return;
        };
        let path = melior::StringRef::from_c_str(&path);
        // SAFETY: `self.raw` is a live engine; MLIR reads `path` during the
        // call only.
        unsafe { mlir_sys::mlirExecutionEngineDumpToObjectFile(self.raw, path.to_raw()) }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        // SAFETY: `self.raw` is a live engine, destroyed once, here.
        unsafe { mlir_sys::mlirExecutionEngineDestroy(self.raw) }
    }
}
