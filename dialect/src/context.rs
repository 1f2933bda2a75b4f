//! Context set-up: upstream dialects plus the two IRDL dialects.

use melior::{ir::Module, utility::load_irdl_dialects, Context};

/// Text of `dialect/irdl/pld.irdl.mlir`.
pub const PLD_IRDL: &str = include_str!("../irdl/pld.irdl.mlir");
/// Text of `dialect/irdl/pto.irdl.mlir`.
pub const PTO_IRDL: &str = include_str!("../irdl/pto.irdl.mlir");

/// A context with every upstream MLIR dialect registered and loaded, and the
/// `pld` and `pto` dialects loaded from their IRDL definitions.
pub fn context() -> Context {
    let context = upstream_context();
    load_irdl(&context, PLD_IRDL, "pld");
    load_irdl(&context, PTO_IRDL, "pto");
    context
}

/// A context with every upstream MLIR dialect registered and loaded.
pub(crate) fn upstream_context() -> Context {
    pld_ir::parse::upstream_context()
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

#[cfg(test)]
mod tests {
    #[test]
    fn both_dialects_load() {
        let context = super::context();
        assert!(context.is_registered_operation("pld.tensor_allreduce"));
        assert!(context.is_registered_operation("pto.comm_tnotify"));
    }
}
