//! Parsing modules as `mlir-opt` does: several top-level ops get an
//! implicit `module`, and locations carry the user's file name.

use melior::{
    dialect::DialectRegistry,
    ir::{block::BlockLike, operation::OperationLike, Location, Module, Operation},
    utility::register_all_dialects,
    Context,
};

/// A context with every upstream MLIR dialect registered and loaded (no
/// pld or pto: `pld_dialect::context()` adds those).
pub fn upstream_context() -> Context {
    let registry = DialectRegistry::new();
    register_all_dialects(&registry);
    let context = Context::new();
    context.append_dialect_registry(&registry);
    context.load_all_available_dialects();
    context
}

/// An MLIR string reference to `text` (valid while `text` is).
pub(crate) fn string_ref(text: &str) -> mlir_sys::MlirStringRef {
    bytes_ref(text.as_bytes())
}

/// An MLIR string reference to `bytes` (valid while `bytes` is).
pub(crate) fn bytes_ref(bytes: &[u8]) -> mlir_sys::MlirStringRef {
    mlir_sys::MlirStringRef {
        data: bytes.as_ptr() as *const _,
        length: bytes.len(),
    }
}

/// Whether `bytes` is MLIR bytecode (it starts with the magic `ML\xEFR`),
/// which the parsing functions here read as well as text.
pub fn is_bytecode(bytes: &[u8]) -> bool {
    bytes.starts_with(b"ML\xEFR")
}

/// Parses exactly one top-level op from `text` (or bytecode) without the
/// implicit module, as `mlir-opt --no-implicit-module` does; several
/// top-level ops are an error ("source must contain a single top-level
/// operation"). Errors go to the context's diagnostic handlers.
pub fn parse_op<'c>(context: &'c Context, text: &[u8], source_name: &str) -> Option<Operation<'c>> {
    // SAFETY: both string references point into `text` and `source_name`,
    // which outlive the call; a null result (parse error) becomes `None`.
    unsafe {
        Operation::from_option_raw(mlir_sys::mlirOperationCreateParse(
            context.to_raw(),
            bytes_ref(text),
            string_ref(source_name),
        ))
    }
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
    parse_bytes(context, text.as_bytes(), source_name)
}

/// [`parse`] of bytes: text in any encoding, or MLIR bytecode.
pub fn parse_bytes<'c>(context: &'c Context, text: &[u8], source_name: &str) -> Option<Module<'c>> {
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
    let single = parse_op(context, text, source_name);
    context.detach_diagnostic_handler(handler);
    if let Some(op) = single {
        return into_module(context, op, source_name);
    }
    // Parse again so the context's handlers see the errors, or build the
    // implicit module.
    // SAFETY: as above.
    let module = unsafe {
        Module::from_option_raw(mlir_sys::mlirModuleCreateParse(
            context.to_raw(),
            bytes_ref(text),
        ))
    }?;
    if several_top_level_ops.get() {
        rename_source(context, &module, source_name);
    }
    Some(module)
}

/// A module holding `op` (or `op` itself when it is a module).
pub fn into_module<'c>(
    context: &'c Context,
    op: Operation<'c>,
    source_name: &str,
) -> Option<Module<'c>> {
    let name = crate::op_name(&op);
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
            let file = crate::loc::file_name(location).unwrap_or_default();
            if file == "-" || file.is_empty() {
                let renamed = Location::new(
                    context,
                    source_name,
                    location.file_line_col_range_start_line(),
                    location.file_line_col_range_start_column(),
                );
                crate::edit::set_location(op, renamed);
            }
        }
        WalkResult::Advance
    });
}

#[cfg(test)]
mod tests {
    use super::upstream_context as context;

    #[test]
    fn parse_accepts_any_bytes() {
        let context = context();
        assert!(super::parse(&context, "module {}", "t.mlir").is_some());
        // MLIR's lexer skips a NUL inside the buffer like white space.
        assert!(super::parse(&context, "module {\0}", "t.mlir").is_some());
        assert!(super::parse(&context, "module {\0", "t.mlir").is_none());
    }

    #[test]
    fn implicit_module_keeps_file_and_line_numbers() {
        use melior::ir::operation::OperationLike;
        let context = context();
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
