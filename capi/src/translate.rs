//! `pld-c/Translate.h`: what `pld-translate --emit=pto` and
//! `--emit=kernels` write, for a module the caller holds.

use crate::raw;
use crate::status;
use melior::ir::operation::OperationLike;
use mlir_sys::{MlirLogicalResult, MlirModule, MlirStringCallback, MlirStringRef};
use std::ffi::c_void;

#[no_mangle]
pub extern "C" fn pldTranslateModuleToPTO(
    module: MlirModule,
    callback: MlirStringCallback,
    user_data: *mut c_void,
) -> MlirLogicalResult {
    if raw::refused_null(
        module.ptr.is_null(),
        "pldTranslateModuleToPTO",
        "MlirModule",
    ) {
        return status(false);
    }
    let context = raw::module_context(module);
    raw::guard(Some(context), status(false), || {
        let text = raw::with_module(module, |module| {
            let root = module.as_operation();
            if !pld_dialect::verify::verify_and_emit(root) {
                return None;
            }
            pld_backend::ptoas::emit(root)
                .map_err(|error| pld_ir::diag::error(error.op, &error.message))
                .ok()
        });
        match text {
            Some(text) => {
                raw::call_back(callback, user_data, &text);
                status(true)
            }
            None => status(false),
        }
    })
}

#[no_mangle]
pub extern "C" fn pldTranslateModuleToKernels(
    module: MlirModule,
    directory: MlirStringRef,
) -> MlirLogicalResult {
    if raw::refused_null(
        module.ptr.is_null(),
        "pldTranslateModuleToKernels",
        "MlirModule",
    ) {
        return status(false);
    }
    let context = raw::module_context(module);
    raw::guard(Some(context), status(false), || {
        raw::with_module(module, |module| {
            let root = module.as_operation();
            let directory = match raw::string(directory, "the directory") {
                Ok(directory) if !directory.is_empty() => directory,
                Ok(_) => {
                    pld_ir::diag::error(root, "names no directory to write the kernels to");
                    return status(false);
                }
                Err(message) => {
                    pld_ir::diag::error(root, &message);
                    return status(false);
                }
            };
            if !pld_dialect::verify::verify_and_emit(root) {
                return status(false);
            }
            let Some(rendered) = pld_backend::kernels::module_kernels(root) else {
                return status(false);
            };
            match rendered.write(std::path::Path::new(&directory)) {
                Ok(()) => status(true),
                Err(e) => {
                    pld_ir::diag::emit_error(
                        root.location(),
                        &format!("cannot write the kernels to '{directory}': {e}"),
                    );
                    status(false)
                }
            }
        })
    })
}
