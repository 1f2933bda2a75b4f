//! Printing modules with `mlir-opt`'s printing options.

use melior::ir::{
    operation::{OperationLike, OperationPrintingFlags},
    Module,
};

/// How to print a module.
#[derive(Clone, Copy, Debug, Default)]
pub struct PrintOptions {
    /// `--mlir-print-debuginfo`: locations after every op.
    pub debug_info: bool,
    /// `--mlir-print-op-generic`.
    pub generic: bool,
    /// `--mlir-use-nameloc-as-prefix`: `%name` from name locations.
    pub nameloc_as_prefix: bool,
}

/// The module's text, ending with a newline.
pub fn module_text(module: &Module, options: PrintOptions) -> String {
    let mut flags = OperationPrintingFlags::new();
    if options.debug_info {
        flags = flags.enable_debug_info(true, false);
    }
    if options.generic {
        flags = flags.print_generic_operation_form();
    }
    if options.nameloc_as_prefix {
        // SAFETY: `flags` is a live printing-flags object owned by this
        // function; the setter only flips one of its fields.
        unsafe { mlir_sys::mlirOpPrintingFlagsPrintNameLocAsPrefix(flags.to_raw()) };
    }
    let text = module
        .as_operation()
        .to_string_with_flags(flags)
        .unwrap_or_else(|_| module.as_operation().to_string());
    if text.ends_with('\n') {
        text
    } else {
        text + "\n"
    }
}
