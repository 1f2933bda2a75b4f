//! Diagnostic handlers that read what MLIR hands them without assuming the
//! text is UTF-8.
//!
//! MLIR's messages can carry any bytes: a damaged bytecode file's producer
//! string is quoted into a note as it is (`in bytecode version 6 produced
//! by: MLIR\xNN2.1.8`). melior's `Display` of a diagnostic fails on bytes
//! that are not UTF-8, so its `to_string` panics, inside a handler called
//! from C++, which aborts the process. Here such bytes become U+FFFD.

use super::Severity;
use melior::{ir::Location, Context};
use std::{ffi::c_void, marker::PhantomData};

/// A diagnostic MLIR hands to a handler attached with [`attach`], live
/// during the call.
#[derive(Clone, Copy)]
pub struct Received<'a> {
    raw: mlir_sys::MlirDiagnostic,
    call: PhantomData<&'a ()>,
}

impl<'a> Received<'a> {
    /// The message, bytes that are not UTF-8 replaced.
    pub fn message(&self) -> String {
        let mut bytes: Vec<u8> = Vec::new();
        // SAFETY: `self.raw` is live during the handler's call; `append`
        // only reads the string MLIR passes it and writes to `bytes`,
        // which outlives the call.
        unsafe {
            mlir_sys::mlirDiagnosticPrint(
                self.raw,
                Some(append),
                &mut bytes as *mut Vec<u8> as *mut c_void,
            )
        };
        String::from_utf8_lossy(&bytes).into_owned()
    }

    /// The severity (an unknown one is an error).
    pub fn severity(&self) -> Severity {
        // SAFETY: `self.raw` is live during the handler's call.
        match unsafe { mlir_sys::mlirDiagnosticGetSeverity(self.raw) } {
            mlir_sys::MlirDiagnosticSeverity_MlirDiagnosticWarning => Severity::Warning,
            mlir_sys::MlirDiagnosticSeverity_MlirDiagnosticNote => Severity::Note,
            mlir_sys::MlirDiagnosticSeverity_MlirDiagnosticRemark => Severity::Remark,
            _ => Severity::Error,
        }
    }

    /// Where MLIR reports it.
    pub fn location(&self) -> Location<'a> {
        // SAFETY: `self.raw` is live during the handler's call, and its
        // location is owned by the context, which outlives the call.
        unsafe { Location::from_raw(mlir_sys::mlirDiagnosticGetLocation(self.raw)) }
    }

    /// The notes attached to it.
    pub fn notes(&self) -> Vec<Received<'a>> {
        // SAFETY: `self.raw` is live during the handler's call.
        let count = unsafe { mlir_sys::mlirDiagnosticGetNumNotes(self.raw) };
        let note = |index| {
            // SAFETY: the notes are owned by `self.raw`, live during the
            // call, and `index` stays below their count.
            let raw = unsafe { mlir_sys::mlirDiagnosticGetNote(self.raw, index) };
            Received {
                raw,
                call: PhantomData,
            }
        };
        (0..count).map(note).collect()
    }
}

/// Appends the bytes of `text` to the `Vec<u8>` at `data`.
unsafe extern "C" fn append(text: mlir_sys::MlirStringRef, data: *mut c_void) {
    if text.data.is_null() || text.length == 0 {
        return;
    }
    // SAFETY: `data` is the `Vec<u8>` of `Received::message`, used by
    // nothing else during the call; `text` points at `length` readable
    // bytes during the call.
    unsafe {
        let bytes = &mut *(data as *mut Vec<u8>);
        bytes.extend_from_slice(std::slice::from_raw_parts(
            text.data as *const u8,
            text.length,
        ));
    }
}

/// An attached handler, to [`detach`] it.
#[derive(Clone, Copy, Debug)]
pub struct Handler(mlir_sys::MlirDiagnosticHandlerID);

/// The handler closure's type: whether it handled the diagnostic (`false`
/// passes it on to the handlers attached before it).
type Boxed = Box<dyn FnMut(&Received<'_>) -> bool>;

/// Attaches `handler` to `context`: MLIR calls it with every diagnostic
/// (serially, possibly from its worker threads) until it is detached or
/// the context is destroyed. A panic in `handler` is caught (it must not
/// unwind into MLIR's C++) and counts as not handled.
pub fn attach(context: &Context, handler: impl FnMut(&Received<'_>) -> bool + 'static) -> Handler {
    let boxed: Box<Boxed> = Box::new(Box::new(handler));
    // SAFETY: `handle` and `destroy` take `data` as the `Box<Boxed>` made
    // here; MLIR calls `destroy` once, when the handler is detached or the
    // context is destroyed, and `handle` never after that.
    let id = unsafe {
        mlir_sys::mlirContextAttachDiagnosticHandler(
            context.to_raw(),
            Some(handle),
            Box::into_raw(boxed) as *mut c_void,
            Some(destroy),
        )
    };
    Handler(id)
}

/// Detaches a handler [`attach`] attached to `context`.
pub fn detach(context: &Context, handler: Handler) {
    // SAFETY: the id came from `attach` on this context; MLIR ignores an
    // id it no longer knows.
    unsafe { mlir_sys::mlirContextDetachDiagnosticHandler(context.to_raw(), handler.0) }
}

unsafe extern "C" fn handle(
    raw: mlir_sys::MlirDiagnostic,
    data: *mut c_void,
) -> mlir_sys::MlirLogicalResult {
    // SAFETY: `data` is the `Box<Boxed>` of `attach`, alive until
    // `destroy`; MLIR serialises the calls of one handler.
    let handler = unsafe { &mut *(data as *mut Boxed) };
    let received = Received {
        raw,
        call: PhantomData,
    };
    let call = std::panic::AssertUnwindSafe(|| handler(&received));
    let handled = std::panic::catch_unwind(call).unwrap_or(false);
    mlir_sys::MlirLogicalResult {
        value: if handled { 1 } else { 0 },
    }
}

unsafe extern "C" fn destroy(data: *mut c_void) {
    // SAFETY: `data` is the `Box<Boxed>` of `attach`; MLIR calls this once.
    drop(unsafe { Box::from_raw(data as *mut Boxed) });
}

#[cfg(test)]
mod tests {
    use std::{cell::RefCell, rc::Rc};

    #[test]
    fn a_message_that_is_not_utf8_is_read_lossily() {
        let context = melior::Context::new();
        let seen = Rc::new(RefCell::new(Vec::new()));
        let store = seen.clone();
        let handler = super::attach(&context, move |diagnostic| {
            store.borrow_mut().push(diagnostic.message());
            true
        });
        // A message with the byte 0xFF, as a damaged bytecode file's
        // producer string brings into MLIR's note.
        let location = melior::ir::Location::new(&context, "t.mlir", 1, 1);
        let text = std::ffi::CString::new(b"produced by: MLIR\xFF2.1.8".to_vec()).unwrap();
        // SAFETY: `text` is NUL-terminated and outlives the call.
        unsafe { mlir_sys::mlirEmitError(location.to_raw(), text.as_ptr()) };
        super::detach(&context, handler);
        assert_eq!(*seen.borrow(), ["produced by: MLIR\u{FFFD}2.1.8"]);
    }
}
