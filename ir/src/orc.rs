//! Loading machine code that MLIR's `ExecutionEngine` compiled earlier and
//! dumped as an object file (`mlirExecutionEngineDumpToObjectFile`), without
//! compiling again: an LLVM ORC `LLJIT` of its own links the object into
//! this process through LLVM's C API (`llvm-c/LLJIT.h`, in Debian's
//! `libLLVM-22.so`, which `libMLIR.so` links anyway).
//!
//! Why not a shared object made by the system linker and `dlopen`: the
//! kernels call the simulator's device functions by name, and a shared
//! object can only find those in the global symbols of the process, which a
//! Rust executable does not export and a Python extension module keeps
//! local. An `LLJIT` is given their addresses, as the `ExecutionEngine` is
//! (`register_symbol`), and the C library's through a search of the
//! process.
//!
//! Every call of the LLVM C API in pld is in this file.

use std::ffi::{c_char, c_void, CStr, CString};

#[repr(C)]
struct Opaque {
    _private: [u8; 0],
}

type LlJit = *mut Opaque;
type Error = *mut Opaque;
type Generator = *mut Opaque;
type Dylib = *mut Opaque;
type Buffer = *mut Opaque;
type Unit = *mut Opaque;
type PoolEntry = *mut Opaque;

#[repr(C)]
#[derive(Clone, Copy)]
struct SymbolFlags {
    generic: u8,
    target: u8,
}

#[repr(C)]
#[derive(Clone, Copy)]
struct EvaluatedSymbol {
    address: u64,
    flags: SymbolFlags,
}

#[repr(C)]
#[derive(Clone, Copy)]
struct SymbolMapPair {
    name: PoolEntry,
    symbol: EvaluatedSymbol,
}

/// `LLVMJITSymbolGenericFlagsExported | Callable`.
const EXPORTED_CALLABLE: u8 = 1 | 4;

#[cfg(target_arch = "x86_64")]
#[link(name = "LLVM-22")]
unsafe extern "C" {
    fn LLVMInitializeX86TargetInfo();
    fn LLVMInitializeX86Target();
    fn LLVMInitializeX86TargetMC();
    fn LLVMInitializeX86AsmPrinter();
}

/// Initialises LLVM's x86 target for the JIT (once).
#[cfg(target_arch = "x86_64")]
fn initialise_target() {
    static TARGET: std::sync::Once = std::sync::Once::new();
    // SAFETY: LLVM's target initialisers, idempotent, run once.
    TARGET.call_once(|| unsafe {
        LLVMInitializeX86TargetInfo();
        LLVMInitializeX86Target();
        LLVMInitializeX86TargetMC();
        LLVMInitializeX86AsmPrinter();
    });
}

#[cfg(not(target_arch = "x86_64"))]
fn initialise_target() {}

#[link(name = "LLVM-22")]
unsafe extern "C" {
    fn LLVMOrcCreateLLJIT(result: *mut LlJit, builder: *mut Opaque) -> Error;
    fn LLVMOrcDisposeLLJIT(jit: LlJit) -> Error;
    fn LLVMOrcLLJITGetMainJITDylib(jit: LlJit) -> Dylib;
    fn LLVMOrcLLJITGetGlobalPrefix(jit: LlJit) -> c_char;
    fn LLVMOrcLLJITMangleAndIntern(jit: LlJit, name: *const c_char) -> PoolEntry;
    fn LLVMOrcLLJITAddObjectFile(jit: LlJit, dylib: Dylib, buffer: Buffer) -> Error;
    fn LLVMOrcLLJITLookup(jit: LlJit, result: *mut u64, name: *const c_char) -> Error;
    fn LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(
        result: *mut Generator,
        prefix: c_char,
        filter: *mut c_void,
        context: *mut c_void,
    ) -> Error;
    fn LLVMOrcJITDylibAddGenerator(dylib: Dylib, generator: Generator);
    fn LLVMOrcAbsoluteSymbols(pairs: *mut SymbolMapPair, count: usize) -> Unit;
    fn LLVMOrcJITDylibDefine(dylib: Dylib, unit: Unit) -> Error;
    fn LLVMOrcDisposeMaterializationUnit(unit: Unit);
    fn LLVMCreateMemoryBufferWithMemoryRangeCopy(
        data: *const c_char,
        length: usize,
        name: *const c_char,
    ) -> Buffer;
    fn LLVMGetErrorMessage(error: Error) -> *mut c_char;
    fn LLVMDisposeErrorMessage(message: *mut c_char);
}

/// The message of an LLVM error (consumed), or `Ok` for none.
fn check(error: Error) -> Result<(), String> {
    if error.is_null() {
        return Ok(());
    }
    // SAFETY: a live error LLVM returned; getting its message consumes it,
    // and the message is a NUL-terminated string we dispose of once read.
    unsafe {
        let message = LLVMGetErrorMessage(error);
        let text = CStr::from_ptr(message).to_string_lossy().into_owned();
        LLVMDisposeErrorMessage(message);
        Err(text)
    }
}

/// Machine code loaded from an object file, with the addresses of its
/// functions; the code lives as long as this value.
pub struct ObjectJit {
    jit: LlJit,
}

impl ObjectJit {
    /// Whether this build can load objects (x86-64 hosts only: the
    /// objects are the host's, and only its target is initialised here).
    pub fn available() -> bool {
        cfg!(target_arch = "x86_64")
    }

    /// Links `object` (an ELF object for this host, as the
    /// `ExecutionEngine` dumped it) into a JIT of its own, its undefined
    /// symbols resolved from `symbols` (name, address) first and from the
    /// process (the C library) after. The object is checked by LLVM as it
    /// links; a malformed one is an `Err`.
    pub fn load(object: &[u8], symbols: &[(&str, *mut ())]) -> Result<ObjectJit, String> {
        if !Self::available() {
            return Err("loading objects needs an x86-64 host".into());
        }
        initialise_target();
        let mut jit: LlJit = std::ptr::null_mut();
        // SAFETY: a null builder asks for the default LLJIT for the host;
        // `jit` receives it on success.
        check(unsafe { LLVMOrcCreateLLJIT(&mut jit, std::ptr::null_mut()) })?;
        let loaded = ObjectJit { jit };
        loaded.define(symbols)?;
        let name = c"pld-cached-object";
        // SAFETY: LLVM copies `object`; the buffer it returns is handed to
        // the JIT, which owns it from then on (also on failure).
        let buffer = unsafe {
            LLVMCreateMemoryBufferWithMemoryRangeCopy(
                object.as_ptr().cast(),
                object.len(),
                name.as_ptr(),
            )
        };
        // SAFETY: the JIT and its main dylib are live; the buffer is ours
        // to give.
        check(unsafe { LLVMOrcLLJITAddObjectFile(jit, LLVMOrcLLJITGetMainJITDylib(jit), buffer) })?;
        Ok(loaded)
    }

    /// Defines `symbols` as absolute addresses in the main dylib, and lets
    /// the rest resolve from the process.
    fn define(&self, symbols: &[(&str, *mut ())]) -> Result<(), String> {
        let jit = self.jit;
        // SAFETY: the JIT is live; the generator created here is handed to
        // its main dylib, which owns it.
        unsafe {
            let dylib = LLVMOrcLLJITGetMainJITDylib(jit);
            let mut generator: Generator = std::ptr::null_mut();
            check(LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(
                &mut generator,
                LLVMOrcLLJITGetGlobalPrefix(jit),
                std::ptr::null_mut(),
                std::ptr::null_mut(),
            ))?;
            LLVMOrcJITDylibAddGenerator(dylib, generator);
        }
        let mut pairs = Vec::with_capacity(symbols.len());
        for (name, address) in symbols {
            let name = CString::new(*name).map_err(|e| e.to_string())?;
            pairs.push(SymbolMapPair {
                // SAFETY: interns a NUL-terminated name in the JIT's pool;
                // the reference it returns goes to `LLVMOrcAbsoluteSymbols`
                // below, which takes it over.
                name: unsafe { LLVMOrcLLJITMangleAndIntern(jit, name.as_ptr()) },
                symbol: EvaluatedSymbol {
                    address: *address as u64,
                    flags: SymbolFlags {
                        generic: EXPORTED_CALLABLE,
                        target: 0,
                    },
                },
            });
        }
        // SAFETY: the pairs own their names (see above); the unit takes
        // them over and is given to the dylib, or disposed of on failure.
        unsafe {
            let unit = LLVMOrcAbsoluteSymbols(pairs.as_mut_ptr(), pairs.len());
            let dylib = LLVMOrcLLJITGetMainJITDylib(jit);
            if let Err(message) = check(LLVMOrcJITDylibDefine(dylib, unit)) {
                LLVMOrcDisposeMaterializationUnit(unit);
                return Err(message);
            }
        }
        Ok(())
    }

    /// The address of the function `name` of the object (links it on the
    /// first lookup), or `Err` when it has none or cannot be linked.
    pub fn lookup(&self, name: &str) -> Result<*mut (), String> {
        let name = CString::new(name).map_err(|e| e.to_string())?;
        let mut address = 0u64;
        // SAFETY: the JIT is live; `address` receives the result.
        check(unsafe { LLVMOrcLLJITLookup(self.jit, &mut address, name.as_ptr()) })?;
        match address {
            0 => Err(format!("{} has no address", name.to_string_lossy())),
            a => Ok(a as usize as *mut ()),
        }
    }
}

impl Drop for ObjectJit {
    fn drop(&mut self) {
        // SAFETY: the JIT this value created; nothing uses its code after
        // its owner is dropped. An error while tearing down is dropped.
        let _ = check(unsafe { LLVMOrcDisposeLLJIT(self.jit) });
    }
}

// SAFETY: the JIT is only read after it was built (lookups lock inside
// LLVM); the code it holds is immutable.
unsafe impl Send for ObjectJit {}
unsafe impl Sync for ObjectJit {}
