//! Context set-up: upstream dialects plus the two IRDL dialects.

use melior::{
    dialect::DialectRegistry,
    ir::{block::BlockLike, operation::OperationLike, Location, Module, Operation},
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

/// Parses a module from `text`, naming the source `source_name` in
/// locations. As in `mlir-opt`, several top-level ops are wrapped in an
/// implicit `module`. Any bytes are accepted (a NUL inside the text is
/// white space to MLIR's lexer). Errors go to the context's diagnostic
/// handlers; `None` when there were any.
///
/// The C API parses with a source name only when the text holds a single
/// top-level op; other texts are parsed as an implicit module under the
/// buffer name `-`, and the ops' locations are renamed afterwards (block
/// arguments keep `-`: the C API cannot set their locations).
pub fn parse<'c>(context: &'c Context, text: &str, source_name: &str) -> Option<Module<'c>> {
    let several_top_level_ops = std::rc::Rc::new(std::cell::Cell::new(false));
    let seen = several_top_level_ops.clone();
    let handler = context.attach_diagnostic_handler(move |diagnostic| {
        if diagnostic
            .to_string()
            .starts_with("source must contain a single top-level operation")
        {
            seen.set(true);
        }
        true
    });
    let single = unsafe {
        Operation::from_option_raw(mlir_sys::mlirOperationCreateParse(
            context.to_raw(),
            string_ref(text),
            string_ref(source_name),
        ))
    };
    context.detach_diagnostic_handler(handler);
    if let Some(op) = single {
        return into_module(context, op, source_name);
    }
    // Parse again so the context's handlers see the errors, or build the
    // implicit module.
    let module = unsafe {
        Module::from_option_raw(mlir_sys::mlirModuleCreateParse(
            context.to_raw(),
            string_ref(text),
        ))
    }?;
    if several_top_level_ops.get() {
        rename_source(context, &module, source_name);
    }
    Some(module)
}

fn string_ref(text: &str) -> mlir_sys::MlirStringRef {
    mlir_sys::MlirStringRef {
        data: text.as_ptr() as *const _,
        length: text.len(),
    }
}

/// A module holding `op` (or `op` itself when it is a module).
fn into_module<'c>(
    context: &'c Context,
    op: Operation<'c>,
    source_name: &str,
) -> Option<Module<'c>> {
    let name = unsafe {
        crate::attr::string_ref(mlir_sys::mlirIdentifierStr(mlir_sys::mlirOperationGetName(
            op.to_raw(),
        )))
    };
    if name == "builtin.module" {
        return Module::from_operation(op);
    }
    let module = Module::new(Location::new(context, source_name, 1, 1));
    module.body().append_operation(op);
    Some(module)
}

/// Gives every op located in the unnamed parse buffer `source_name`.
fn rename_source(context: &Context, module: &Module, source_name: &str) {
    use melior::ir::operation::{WalkOrder, WalkResult};
    module.as_operation().walk(WalkOrder::PreOrder, |op| {
        let location = op.location();
        if location.is_file_line_col_range() {
            let file = unsafe {
                crate::attr::string_ref(mlir_sys::mlirIdentifierStr(
                    location.file_line_col_range_filename().to_raw(),
                ))
            };
            if file == "-" || file.is_empty() {
                let renamed = Location::new(
                    context,
                    source_name,
                    location.file_line_col_range_start_line(),
                    location.file_line_col_range_start_column(),
                );
                unsafe { mlir_sys::mlirOperationSetLocation(op.to_raw(), renamed.to_raw()) };
            }
        }
        WalkResult::Advance
    });
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
        assert!(super::parse(&context, "module {}", "t.mlir").is_some());
        // MLIR's lexer skips a NUL inside the buffer like white space.
        assert!(super::parse(&context, "module {\0}", "t.mlir").is_some());
        assert!(super::parse(&context, "module {\0", "t.mlir").is_none());
    }

    #[test]
    fn implicit_module_keeps_file_and_line_numbers() {
        use melior::ir::operation::OperationLike;
        let context = super::context();
        for text in [
            "// comment\nfunc.func private @a()\nfunc.func private @b()\n",
            "!t = i32\nfunc.func private @a(!t)\nfunc.func private @b()\n",
            "\n\nfunc.func private @a()",
        ] {
            let module = super::parse(&context, text, "t.mlir").expect(text);
            let printed = module
                .as_operation()
                .to_string_with_flags(
                    melior::ir::operation::OperationPrintingFlags::new()
                        .enable_debug_info(true, false),
                )
                .unwrap();
            let line = text.lines().position(|l| l.contains("@a")).unwrap() + 1;
            assert!(
                printed.contains(&format!("\"t.mlir\":{line}:")),
                "{printed}"
            );
        }
        // An explicit module is not wrapped again.
        let module = super::parse(&context, "module {\n}\n", "t.mlir").unwrap();
        assert!(!module
            .as_operation()
            .to_string()
            .contains("module {\n  module"));
    }
}
