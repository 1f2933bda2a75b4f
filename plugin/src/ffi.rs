//! The plugin's boundary: the entry point `mlir-opt` calls, the C++ shim
//! (src/shim.cpp) and the callbacks it makes. Every `unsafe` block and
//! every `extern "C"` function of the crate is here, and every entry from
//! C++ catches panics: none unwinds into `mlir-opt`.

use crate::element::{self, Element};
use melior::pass::OperationPassManager;
use mlir_sys::{MlirOpPassManager, MlirStringCallback, MlirStringRef};
use std::ffi::{c_char, c_void};
use std::panic::{catch_unwind, AssertUnwindSafe};

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

/// The shim's callback type: adds an element to a pass manager.
type AddFn = unsafe extern "C" fn(
    element: *const c_void,
    manager: MlirOpPassManager,
    anchor: MlirStringRef,
    options: MlirStringRef,
    braces: bool,
    on_error: MlirStringCallback,
    error_data: *mut c_void,
) -> bool;

extern "C" {
    fn pld_plugin_info() -> PassPluginLibraryInfo;
    fn pld_plugin_register(
        argument: MlirStringRef,
        summary: MlirStringRef,
        element: *const c_void,
        add: AddFn,
    );
}

/// The entry point `mlir-opt --load-pass-plugin` looks up.
#[no_mangle]
pub extern "C" fn mlirGetPassPluginInfo() -> PassPluginLibraryInfo {
    // SAFETY: the shim returns constants (MLIR's plugin API version, static
    // strings, `pld_plugin_register_all`); it reads nothing.
    unsafe { pld_plugin_info() }
}

/// Called by `mlir-opt` once the library is loaded: registers every
/// element. A failure is reported and leaves the registry without pld.
#[no_mangle]
extern "C" fn pld_plugin_register_all() {
    let registered = catch_unwind(|| {
        for element in element::all() {
            register(element);
        }
    });
    if let Err(panic) = registered {
        eprintln!(
            "error: the pld plugin could not register its passes: {}",
            panic_message(panic.as_ref())
        );
    }
}

fn register(element: &'static Element) {
    let (argument, summary) = (element.argument(), element.summary());
    // SAFETY: the strings are 'static and MLIR copies them; `element` lives
    // as long as the process (`element::all`), so the pointer MLIR keeps
    // for the builder stays valid; `add` has the shim's signature.
    unsafe {
        pld_plugin_register(
            string_ref(argument),
            string_ref(summary),
            element as *const Element as *const c_void,
            add,
        )
    }
}

/// The builder MLIR calls when a pipeline string names an element.
unsafe extern "C" fn add(
    element: *const c_void,
    manager: MlirOpPassManager,
    anchor: MlirStringRef,
    options: MlirStringRef,
    braces: bool,
    on_error: MlirStringCallback,
    error_data: *mut c_void,
) -> bool {
    let added = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: `element` is one `register` passed for this entry (valid
        // for the process); the string references are valid for this call;
        // `manager` is the live pass manager MLIR is building.
        let (element, anchor, options, manager) = unsafe {
            (
                &*(element as *const Element),
                text(anchor),
                text(options),
                OperationPassManager::from_raw(manager),
            )
        };
        element::add(
            element,
            manager,
            &anchor,
            braces.then_some(options.as_str()),
        )
    }))
    .unwrap_or_else(|panic| {
        Err(format!(
            "internal error in the pld plugin: {}",
            panic_message(panic.as_ref())
        ))
    });
    match added {
        Ok(()) => true,
        Err(message) => {
            if let Some(on_error) = on_error {
                // SAFETY: the shim's callback appends the message (valid
                // for the call) to the string behind `error_data`.
                unsafe { on_error(string_ref(&message), error_data) };
            }
            false
        }
    }
}

fn string_ref(text: &str) -> MlirStringRef {
    MlirStringRef {
        data: text.as_ptr() as *const c_char,
        length: text.len(),
    }
}

/// The text of a string reference (MLIR's empty `StringRef` has no data).
///
/// # Safety
/// `reference` points to `length` readable bytes, or has null data.
unsafe fn text(reference: MlirStringRef) -> String {
    if reference.data.is_null() {
        return String::new();
    }
    // SAFETY: the caller guarantees `length` readable bytes at `data`.
    let bytes =
        unsafe { std::slice::from_raw_parts(reference.data as *const u8, reference.length) };
    String::from_utf8_lossy(bytes).into_owned()
}

fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".into())
}
