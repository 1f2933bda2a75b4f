//! The plugin's boundary: the entry point `mlir-opt` calls and the
//! registration callback it makes. Every `unsafe` block and every
//! `extern "C"` function of the crate is here; no panic unwinds into
//! `mlir-opt`.

use std::ffi::c_char;
use std::panic::catch_unwind;

/// MLIR's `mlir::PassPluginLibraryInfo` (mlir/Tools/Plugins/PassPlugin.h),
/// filled in by the shim from MLIR's header; the shim checks the size.
#[repr(C)]
pub struct PassPluginLibraryInfo {
    api_version: u32,
    name: *const c_char,
    version: *const c_char,
    register: Option<extern "C" fn()>,
}

const _: () = assert!(std::mem::size_of::<PassPluginLibraryInfo>() == 32);

extern "C" {
    fn pld_plugin_info() -> PassPluginLibraryInfo;
}

/// The entry point `mlir-opt --load-pass-plugin` looks up.
#[no_mangle]
pub extern "C" fn mlirGetPassPluginInfo() -> PassPluginLibraryInfo {
    // SAFETY: the shim returns constants (MLIR's plugin API version, static
    // strings, `pld_plugin_register_all`); it reads nothing.
    unsafe { pld_plugin_info() }
}

/// Called by `mlir-opt` once the library is loaded: registers every pass
/// and pipeline. A failure is reported and leaves the registry without pld.
#[no_mangle]
extern "C" fn pld_plugin_register_all() {
    if let Err(panic) = catch_unwind(crate::register_all) {
        let what = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic".into());
        pld_ir::say!("error: the pld plugin could not register its passes: {what}");
    }
}
