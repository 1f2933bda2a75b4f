//! Every unsafe operation of `libpld.so`, in one place: C handles turned
//! into Rust values and back, MLIR's C types into melior's, the caller's
//! strings and buffers read and written, the caller's callbacks called, and
//! panics stopped at the boundary. Each SAFETY comment names the part of
//! the contract of `include/pld-c/*.h` that makes it sound; the functions
//! here are safe to call from the rest of the crate on the values a C
//! caller passed in, as long as the caller kept that contract.

use melior::ir::{Location, Module};
use melior::{Context, ContextRef};
use mlir_sys::{MlirContext, MlirModule, MlirStringCallback, MlirStringRef};
use std::ffi::c_void;
use std::mem::ManuallyDrop;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// A new handle owning `value`: a pointer to it, boxed.
pub(crate) fn into_handle<T>(value: T) -> *mut c_void {
    Box::into_raw(Box::new(value)) as *mut c_void
}

/// The value a handle points to; `None` for a null handle.
pub(crate) fn handle<'a, T>(ptr: *mut c_void) -> Option<&'a T> {
    // SAFETY: the headers' contract: a handle passed in is null, or one
    // that a `...Create` function of this library returned for this type
    // (so it points to a live, boxed `T`) and that was not destroyed.
    unsafe { (ptr as *const T).as_ref() }
}

/// The value a handle points to, to change; `None` for a null handle.
pub(crate) fn handle_mut<'a, T>(ptr: *mut c_void) -> Option<&'a mut T> {
    // SAFETY: as in `handle`; the headers say an object is used by one
    // thread at a time, so nothing else refers to it during the call.
    unsafe { (ptr as *mut T).as_mut() }
}

/// Frees the value of a handle; a null handle is ignored.
pub(crate) fn destroy<T>(ptr: *mut c_void) {
    if !ptr.is_null() {
        // SAFETY: as in `handle`; the caller gives the handle up with this
        // call (`...Destroy`), so nothing uses the box afterwards.
        drop(unsafe { Box::from_raw(ptr as *mut T) });
    }
}

/// A string reference to `text`, valid while `text` is.
pub(crate) fn string_ref(text: &str) -> MlirStringRef {
    MlirStringRef {
        data: text.as_ptr() as *const _,
        length: text.len(),
    }
}

/// The caller's string, copied; an error when it is not UTF-8, or a null
/// pointer with a positive length.
pub(crate) fn string(text: MlirStringRef, what: &str) -> Result<String, String> {
    if text.length == 0 {
        return Ok(String::new());
    }
    if text.data.is_null() {
        return Err(format!(
            "{what}: a null pointer with a length of {}",
            text.length
        ));
    }
    // SAFETY: an `MlirStringRef` passed in points to `length` readable
    // bytes for the duration of the call (MLIR's convention).
    let bytes = unsafe { std::slice::from_raw_parts(text.data as *const u8, text.length) };
    std::str::from_utf8(bytes)
        .map(str::to_string)
        .map_err(|_| format!("{what} is not UTF-8"))
}

/// Hands `text` to the caller's callback (a null callback is skipped).
pub(crate) fn call_back(callback: MlirStringCallback, data: *mut c_void, text: &str) {
    if let Some(callback) = callback {
        // SAFETY: the caller passed `callback` and `data` together for
        // this call; the string reference is valid while it runs.
        unsafe { callback(string_ref(text), data) };
    }
}

/// Runs `work` with the caller's context.
pub(crate) fn with_context<R>(raw: MlirContext, work: impl FnOnce(&Context) -> R) -> R {
    // SAFETY: a context passed in is a live context the caller owns, for
    // the duration of the call. `ContextRef` does not destroy it, and the
    // `&Context` made from it lives no longer than `reference`.
    let reference = unsafe { ContextRef::from_raw(raw) };
    // SAFETY: see above; `reference` outlives every use of `context`.
    let context = unsafe { reference.to_ref() };
    work(context)
}

/// Runs `work` with the caller's module, which stays the caller's.
pub(crate) fn with_module<R>(raw: MlirModule, work: impl FnOnce(&Module) -> R) -> R {
    // SAFETY: a module passed in is a live module the caller owns, for the
    // duration of the call; `ManuallyDrop` keeps melior from destroying it.
    let module = ManuallyDrop::new(unsafe { Module::from_raw(raw) });
    work(&module)
}

/// Whether the caller passed a null module or context to `function`,
/// which then fails: there is no context to report on, so it says so on
/// standard error (MLIR's C API leaves a null handle undefined; pld's
/// refuses it).
pub(crate) fn refused_null(null: bool, function: &str, what: &str) -> bool {
    if null {
        pld_ir::say!("{function}: a null {what}; nothing was done");
    }
    null
}

/// The raw context of a module the caller passed in.
pub(crate) fn module_context(raw: MlirModule) -> MlirContext {
    with_module(raw, pld_ir::parse::raw_context)
}

/// The caller's array of `count` elements at `items` (empty for a count
/// of 0, whatever the pointer); an error for a negative count, or a null
/// pointer with a positive one.
pub(crate) fn array<'a, T>(items: *const T, count: isize, what: &str) -> Result<&'a [T], String> {
    let count = usize::try_from(count).map_err(|_| format!("{what}: a negative count"))?;
    if count == 0 {
        return Ok(&[]);
    }
    if items.is_null() {
        return Err(format!("{what}: a null pointer with a count of {count}"));
    }
    // SAFETY: the caller passes `count` initialised elements at `items`,
    // read during the call (pldProgramRun's contract).
    Ok(unsafe { std::slice::from_raw_parts(items, count) })
}

/// The `size` bytes at `data` the caller lends for reading during the call.
pub(crate) fn bytes<'a>(data: *const c_void, size: usize) -> Result<&'a [u8], String> {
    if size == 0 {
        return Ok(&[]);
    }
    if data.is_null() {
        return Err("a null pointer".into());
    }
    // SAFETY: an input buffer's `data` points to `size` readable bytes for
    // the duration of pldProgramRun (its contract).
    Ok(unsafe { std::slice::from_raw_parts(data as *const u8, size) })
}

/// Copies `bytes` to the caller's memory at `data`, which holds exactly
/// `bytes.len()` writable bytes.
pub(crate) fn write(data: *mut c_void, bytes: &[u8]) {
    if bytes.is_empty() || data.is_null() {
        return;
    }
    // SAFETY: an output buffer's `data` points to `size` writable bytes
    // during pldProgramRun, and the run checked `size == bytes.len()`
    // before it started; the caller's memory is not one of the run's.
    unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), data as *mut u8, bytes.len()) };
}

/// Runs `work`; a panic becomes `fallback`, with an error diagnostic on
/// `context` when there is one: no panic unwinds into the caller.
pub(crate) fn guard<R>(context: Option<MlirContext>, fallback: R, work: impl FnOnce() -> R) -> R {
    match catch_unwind(AssertUnwindSafe(work)) {
        Ok(result) => result,
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic".into());
            if let Some(raw) = context.filter(|c| !c.ptr.is_null()) {
                with_context(raw, |context| {
                    pld_ir::diag::emit_error(
                        Location::unknown(context),
                        &format!("internal error in libpld: {what}"),
                    )
                });
            }
            fallback
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A panic in an entry's work becomes its fallback and an error
    /// diagnostic on the caller's context.
    #[test]
    fn a_panic_stops_at_the_boundary() {
        let context = Context::new();
        let sink = pld_ir::diag::Sink::attach(&context);
        let value = guard(Some(context.to_raw()), 7, || -> i32 { panic!("boom") });
        assert_eq!(value, 7);
        let said: Vec<String> = sink.take().into_iter().map(|d| d.message).collect();
        assert_eq!(said, ["internal error in libpld: boom"]);
        assert_eq!(guard(None, 7, || 8), 8);
    }
}
