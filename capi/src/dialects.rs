//! `pld-c/Dialects.h`: the pld and pto dialects in a caller's context.

use crate::raw;
use crate::status;
use melior::ir::Location;
use mlir_sys::{MlirContext, MlirLogicalResult, MlirStringRef};
use std::ffi::CString;
use std::sync::OnceLock;

#[no_mangle]
pub extern "C" fn pldContextLoadDialects(context: MlirContext) -> MlirLogicalResult {
    if raw::refused_null(
        context.ptr.is_null(),
        "pldContextLoadDialects",
        "MlirContext",
    ) {
        return status(false);
    }
    raw::guard(Some(context), status(false), || {
        raw::with_context(context, |context| {
            match pld_dialect::context::load_into(context) {
                Ok(()) => status(true),
                Err(message) => {
                    pld_ir::diag::emit_error(Location::unknown(context), &message);
                    status(false)
                }
            }
        })
    })
}

#[no_mangle]
pub extern "C" fn pldGetIRDLDefinitions() -> MlirStringRef {
    static TEXT: OnceLock<CString> = OnceLock::new();
    let text = TEXT.get_or_init(|| {
        // The embedded file is text without NUL bytes.
        CString::new(pld_dialect::context::BOTH_IRDL).unwrap_or_default()
    });
    raw::string_ref(text.to_str().unwrap_or_default())
}
