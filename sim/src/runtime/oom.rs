//! The pld tools' answer to a failed allocation or a fatal error inside
//! MLIR or LLVM (`csrc/oom.cpp`): an error and status 1 instead of an
//! abort.

use std::ffi::{c_char, CString};

extern "C" {
    fn pld_exit_on_out_of_memory(text: *const c_char, tool: *const c_char);
}

/// Makes a failed allocation in MLIR or LLVM end the process with `tool`'s
/// error and status 1 (operator new threw through the C API into Rust,
/// which aborted; LLVM's allocator aborted), and LLVM's other fatal errors
/// too (`pld-run: error: LLVM: pthread_create failed: ...`). For the tools
/// only: a library leaves its host's handlers be.
pub fn exit_on_out_of_memory(tool: &str) {
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
