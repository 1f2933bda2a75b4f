//! Context set-up: upstream dialects plus the two IRDL dialects.

use melior::{
    dialect::DialectRegistry,
    ir::Module,
    utility::{load_irdl_dialects, register_all_dialects},
    Context,
};

/// Text of `dialect/irdl/pld.irdl.mlir`.
pub const PLD_IRDL: &str = include_str!("../irdl/pld.irdl.mlir");
/// Text of `dialect/irdl/pto.irdl.mlir`.
pub const PTO_IRDL: &str = include_str!("../irdl/pto.irdl.mlir");

/// A context with every upstream MLIR dialect registered and loaded, and the
/// `pld` and `pto` dialects loaded from their IRDL definitions.
pub fn context() -> Context {
    let registry = DialectRegistry::new();
    register_all_dialects(&registry);
    let context = Context::new();
    context.append_dialect_registry(&registry);
    context.load_all_available_dialects();
    load_irdl(&context, PLD_IRDL, "pld");
    load_irdl(&context, PTO_IRDL, "pto");
    context
}

fn load_irdl(context: &Context, text: &str, what: &str) {
    // Both files are embedded in the binary and covered by tests, so a
    // failure here is a build defect, not a user error.
    let module = Module::parse(context, text)
        .unwrap_or_else(|| panic!("embedded {what}.irdl.mlir does not parse"));
    assert!(
        load_irdl_dialects(&module),
        "embedded {what}.irdl.mlir does not load"
    );
}

/// Parses a module from `text`. Unlike `melior::ir::Module::parse`, this
/// accepts any bytes (text with a NUL byte is reported as a parse error
/// instead of panicking). Errors go to the context's diagnostic handlers.
pub fn parse<'c>(context: &'c Context, text: &str) -> Option<Module<'c>> {
    let raw = unsafe {
        mlir_sys::mlirModuleCreateParse(
            context.to_raw(),
            mlir_sys::MlirStringRef {
                data: text.as_ptr() as *const _,
                length: text.len(),
            },
        )
    };
    unsafe { Module::from_option_raw(raw) }
}

#[cfg(test)]
mod tests {
    #[test]
    fn both_dialects_load() {
        let context = super::context();
        assert!(context.is_registered_operation("pld.tensor_allreduce"));
        assert!(context.is_registered_operation("pto.comm_tnotify"));
    }

    #[test]
    fn parse_accepts_any_bytes() {
        let context = super::context();
        assert!(super::parse(&context, "module {}").is_some());
        // MLIR's lexer skips a NUL inside the buffer like white space.
        assert!(super::parse(&context, "module {\0}").is_some());
        assert!(super::parse(&context, "module {\0").is_none());
    }
}
