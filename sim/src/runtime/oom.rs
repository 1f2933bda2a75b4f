//! The pld tools' answer to a failed allocation (in MLIR or LLVM,
//! `csrc/oom.cpp`, or in Rust, [`ExitOnFailure`]) or a fatal error inside
//! LLVM: an error and status 1 instead of an abort.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::ffi::{c_char, CString};
use std::sync::OnceLock;

extern "C" {
    fn pld_exit_on_out_of_memory(text: *const c_char, tool: *const c_char);
}

/// Makes a failed allocation in MLIR or LLVM end the process with `tool`'s
/// error and status 1 (operator new threw through the C API into Rust,
/// which aborted; LLVM's allocator aborted), and LLVM's other fatal errors
/// too (`pld-run: error: LLVM: pthread_create failed: ...`). For the tools
/// only: a library leaves its host's handlers be.
pub fn exit_on_out_of_memory(tool: &str) {
    let rust = format!(
        "{tool}: error: out of memory (an allocation of {tool} failed): the machine's free \
         memory, or the process's limit (ulimit -v), is too small for this run\n"
    );
    let _ = RUST_MESSAGE.set(Box::leak(rust.into_bytes().into_boxed_slice()));
    let text = format!(
        "{tool}: error: out of memory in MLIR or LLVM (a C++ allocation failed): the machine's \
         free memory, or the process's limit (ulimit -v), is too small for this module\n"
    );
    let (Ok(text), Ok(name)) = (CString::new(text), CString::new(tool)) else {
        return;
    };
    let text: &'static std::ffi::CStr = Box::leak(text.into_boxed_c_str());
    let name: &'static std::ffi::CStr = Box::leak(name.into_boxed_c_str());
    // SAFETY: both strings are NUL-terminated and live for the rest of the
    // process (leaked); the C++ side stores the pointers and installs the
    // handlers, which write them and call _exit.
    unsafe { pld_exit_on_out_of_memory(text.as_ptr(), name.as_ptr()) }
}

/// What a failed Rust allocation of a tool writes before it ends the
/// process (set by [`exit_on_out_of_memory`]).
static RUST_MESSAGE: OnceLock<&'static [u8]> = OnceLock::new();

thread_local! {
    /// Whether this thread is inside [`fallible`]: its failed allocations
    /// are answered by the code that asked (`try_reserve`), not here.
    static FALLIBLE: Cell<bool> = const { Cell::new(false) };
}

/// The tools' global allocator: the system's, but a failed allocation
/// ends the process with the tool's error and status 1 rather than Rust's
/// abort ("memory allocation of N bytes failed", status 134), unless it
/// happens inside [`fallible`]. Each tool's binary declares it
/// (`#[global_allocator]`); libraries leave their host's allocator be.
pub struct ExitOnFailure;

/// Ends the process after a failed allocation outside [`fallible`].
fn failed() {
    if FALLIBLE.try_with(Cell::get).unwrap_or(false) {
        return;
    }
    let text = RUST_MESSAGE
        .get()
        .copied()
        .unwrap_or(b"pld: error: out of memory\n");
    // SAFETY: write(2) and _exit(2) are async-signal-safe and allocate
    // nothing; `text` is a live static byte string of that length.
    unsafe {
        libc::write(2, text.as_ptr().cast(), text.len());
        libc::_exit(1);
    }
}

// SAFETY: every call goes to the system allocator with the caller's
// arguments unchanged; only a null result is looked at, and either passed
// on (inside `fallible`) or the process ends without returning.
unsafe impl GlobalAlloc for ExitOnFailure {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let pointer = unsafe { System.alloc(layout) };
        if pointer.is_null() {
            failed();
        }
        pointer
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let pointer = unsafe { System.alloc_zeroed(layout) };
        if pointer.is_null() {
            failed();
        }
        pointer
    }

    unsafe fn realloc(&self, pointer: *mut u8, layout: Layout, size: usize) -> *mut u8 {
        let moved = unsafe { System.realloc(pointer, layout, size) };
        if moved.is_null() {
            failed();
        }
        moved
    }

    unsafe fn dealloc(&self, pointer: *mut u8, layout: Layout) {
        unsafe { System.dealloc(pointer, layout) }
    }
}

/// What the tools' malloc (`tools/csrc/malloc.c`) does on a NULL from
/// glibc, through the `pld_alloc_failed` each tool's binary defines
/// ([`crate::tool_allocation`]): ends the process with the tool's error,
/// unless the allocation is a fallible one ([`fallible`]), which gets its
/// NULL.
pub fn alloc_failed() {
    failed();
}

/// In a tool's binary: its global allocator ([`ExitOnFailure`]) and the
/// `pld_alloc_failed` its malloc calls (`tools/csrc/malloc.c`). Only the
/// binaries define them, so that the libraries (the C API, the Python
/// package) export nothing of it and leave their host's allocator be.
#[macro_export]
macro_rules! tool_allocation {
    () => {
        /// A failed allocation ends the tool with an error and status 1,
        /// not an abort or a crash (`pld_sim::runtime::oom`).
        #[global_allocator]
        static ALLOCATOR: $crate::runtime::oom::ExitOnFailure = $crate::runtime::oom::ExitOnFailure;

        /// Called by the tools' malloc on a NULL from glibc.
        #[no_mangle]
        pub extern "C" fn pld_alloc_failed() {
            $crate::runtime::oom::alloc_failed();
        }
    };
}

/// Runs `f`, whose failed allocations come back to it as errors
/// (`try_reserve`) instead of ending the process.
pub fn fallible<T>(f: impl FnOnce() -> T) -> T {
    let before = FALLIBLE.with(|inside| inside.replace(true));
    let result = f();
    FALLIBLE.with(|inside| inside.set(before));
    result
}
