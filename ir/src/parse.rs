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
    let context = Context::new();
    load_upstream_dialects(&context);
    context
}

/// Registers every upstream MLIR dialect in `context` and loads them all.
pub fn load_upstream_dialects(context: &Context) {
    let registry = DialectRegistry::new();
    register_all_dialects(&registry);
    context.append_dialect_registry(&registry);
    context.load_all_available_dialects();
}

/// The context `module` belongs to, as the MLIR C API names it (for a
/// host's handle).
pub fn raw_context(module: &Module) -> mlir_sys::MlirContext {
    // SAFETY: `module` is live; MLIR only reads the context it belongs to.
    unsafe { mlir_sys::mlirModuleGetContext(module.to_raw()) }
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
/// operation"). Errors go to the context's diagnostic handlers. Text that
/// would crash MLIR's parser is refused first, as by [`parse_bytes`].
pub fn parse_op<'c>(context: &'c Context, text: &[u8], source_name: &str) -> Option<Operation<'c>> {
    if refused(context, text, source_name) {
        return None;
    }
    let op = parse_op_unchecked(context, text, source_name)?;
    (!deeper_than_taken(context, &op, text, source_name)).then_some(op)
}

/// [`parse_op`] without the checks of [`refused`] and
/// [`deeper_than_taken`].
fn parse_op_unchecked<'c>(
    context: &'c Context,
    text: &[u8],
    source_name: &str,
) -> Option<Operation<'c>> {
    let buffer = nul_terminated(text);
    // SAFETY: both string references point into `buffer` (the text, a NUL
    // after it) and `source_name`, which outlive the call; a null result
    // (parse error) becomes `None`.
    unsafe {
        Operation::from_option_raw(mlir_sys::mlirOperationCreateParse(
            context.to_raw(),
            bytes_ref(&buffer[..text.len()]),
            string_ref(source_name),
        ))
    }
}

/// `text` with a NUL after it. MLIR's lexer finds the end of its buffer by
/// the NUL that follows it (a file's buffer has one), and the C API hands
/// it the caller's bytes as they are: text without the NUL was read past
/// its end (`xyz.q` without a final newline was "unexpected character" at
/// column 25, or a custom op `xyz.qU`).
fn nul_terminated(text: &[u8]) -> Vec<u8> {
    let mut buffer = Vec::with_capacity(text.len() + 1);
    buffer.extend_from_slice(text);
    buffer.push(0);
    buffer
}

/// Whether `parsed` was read from bytecode and nests too deeply for
/// MLIR's printer and pld's walks ([`crate::bytecode::too_deep`]), with
/// an error at `file:0:0` if so (text was measured before parsing).
fn deeper_than_taken<'c: 'a, 'a>(
    context: &Context,
    parsed: &impl OperationLike<'c, 'a>,
    text: &[u8],
    source_name: &str,
) -> bool {
    if !is_bytecode(text) {
        return false;
    }
    let Some(problem) = crate::bytecode::too_deep(parsed) else {
        return false;
    };
    let location = Location::new(context, source_name, 0, 0);
    crate::diag::emit_error(location, &format!("the bytecode {problem}"));
    true
}

/// Parses a module from `text`, naming the source `source_name` in
/// locations. As in `mlir-opt`, several top-level ops are wrapped in an
/// implicit `module`. Any bytes are accepted (a NUL inside the text is
/// white space to MLIR's lexer). Errors go to the context's diagnostic
/// handlers; `None` when there were any.
///
/// The C API parses with a source name only when the text holds a single
/// top-level op; other texts are parsed as an implicit module under the
/// buffer name `-`, and the locations of the ops and block arguments are
/// renamed afterwards.
pub fn parse<'c>(context: &'c Context, text: &str, source_name: &str) -> Option<Module<'c>> {
    parse_bytes(context, text.as_bytes(), source_name)
}

pub use crate::nesting::{too_deep, Nesting, TooDeep, MAX_NESTING, STACK_BYTES};

/// Where MLIR 22's linalg parser would crash: the custom syntax of
/// `linalg.transpose` (`permutation = [..]`), `linalg.broadcast` and
/// `linalg.reduce` (`dimensions = [..]`) sets the attribute it failed to
/// parse, a null one, and dereferences it (stock `mlir-opt` segfaults the
/// same way). The position (1-based line and column) of the first such
/// value that is not a list of plain integers (`[1, 0]`; `[1.0, 0]`,
/// `["x"]`, `[1 : i32]` and `array<i64: 1, 0>` crash it too), on a line
/// naming a linalg op in its custom syntax (the generic form,
/// `"linalg.transpose"(...) <{permutation = array<i64: 1, 0>}>`, is read by
/// MLIR's attribute parser, which reports its errors).
pub fn linalg_array_crash(text: &str) -> Option<(usize, usize)> {
    let mut start = 0;
    for (index, line) in text.split_inclusive('\n').enumerate() {
        let line_start = start;
        start += line.len();
        if !line.contains("linalg.") || line.contains("\"linalg.") {
            continue;
        }
        for keyword in ["permutation", "dimensions"] {
            for (at, _) in line.match_indices(keyword) {
                let rest = line[at + keyword.len()..].trim_start();
                let Some(value) = rest.strip_prefix('=') else {
                    continue;
                };
                let value = value.trim_start();
                let column = line.len() - value.len() + 1;
                // The list may go on over the next lines.
                if !integer_list(&text[line_start + column - 1..]) {
                    return Some((index + 1, column));
                }
            }
        }
    }
    None
}

/// Whether `value` starts with a list of plain integers, `[1, -2]` or `[]`,
/// which may span lines and hold `//` comments; a list without its `]` is
/// not one.
fn integer_list(value: &str) -> bool {
    let Some(inner) = value.strip_prefix('[') else {
        return false;
    };
    let Some(end) = inner.find(']') else {
        return false;
    };
    let items: String = inner[..end]
        .lines()
        .map(|l| l.split_once("//").map_or(l, |(code, _)| code))
        .collect::<Vec<_>>()
        .join(" ");
    let items = items.trim();
    items.is_empty()
        || items.split(',').all(|item| {
            let digits = item.trim().strip_prefix('-').unwrap_or(item.trim());
            !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
        })
}

/// [`parse`] of bytes: text in any encoding, or MLIR bytecode. A text
/// nested deeper than [`MAX_NESTING`] levels ([`too_deep`]) is refused with
/// an error at the token that goes too deep, and one that would crash
/// MLIR's linalg parser ([`linalg_array_crash`]) at the value it cannot
/// read.
pub fn parse_bytes<'c>(context: &'c Context, text: &[u8], source_name: &str) -> Option<Module<'c>> {
    if refused(context, text, source_name) {
        return None;
    }
    let several_top_level_ops = std::rc::Rc::new(std::cell::Cell::new(false));
    let seen = several_top_level_ops.clone();
    let handler = crate::diag::attach(context, move |diagnostic| {
        if diagnostic
            .message()
            .starts_with("source must contain a single top-level operation")
        {
            seen.set(true);
        }
        true
    });
    let single = parse_op_unchecked(context, text, source_name);
    crate::diag::detach(context, handler);
    if let Some(op) = single {
        if deeper_than_taken(context, &op, text, source_name) {
            return None;
        }
        return into_module(context, op, source_name);
    }
    // Parse again so the context's handlers see the errors, or build the
    // implicit module.
    let buffer = nul_terminated(text);
    // SAFETY: as in `parse_op_unchecked`.
    let module = unsafe {
        Module::from_option_raw(mlir_sys::mlirModuleCreateParse(
            context.to_raw(),
            bytes_ref(&buffer[..text.len()]),
        ))
    }?;
    if deeper_than_taken(context, &module.as_operation(), text, source_name) {
        return None;
    }
    if several_top_level_ops.get() {
        rename_source(context, &module, source_name);
    }
    Some(module)
}

/// Whether `text` is refused before MLIR reads it, with an error at the
/// place: bytecode whose counts would make MLIR's reader abort or corrupt
/// memory ([`crate::bytecode::damaged`], at `file:0:0` as MLIR reports
/// bytecode errors), text nested too deeply ([`too_deep`]) or that would
/// crash MLIR's linalg parser ([`linalg_array_crash`]).
fn refused(context: &Context, text: &[u8], source_name: &str) -> bool {
    let (line, column, message) = if is_bytecode(text) {
        let Some(damage) = crate::bytecode::damaged(text) else {
            return false;
        };
        (0, 0, format!("damaged bytecode: {damage}"))
    } else if let Some(found) = too_deep(text) {
        (found.line, found.column, found.to_string())
    } else if let Some((line, column)) = linalg_array_crash(&String::from_utf8_lossy(text)) {
        let message = "expected an array of integers, `[..]`".to_string();
        (line, column, message)
    } else {
        return false;
    };
    crate::diag::emit_error(Location::new(context, source_name, line, column), &message);
    true
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
    // Where `mlir-opt` puts the implicit module: line 0, column 0.
    let module = Module::new(Location::new(context, source_name, 0, 0));
    module.body().append_operation(op);
    Some(module)
}

/// Gives every op and block argument located in the unnamed parse buffer
/// `source_name`.
fn rename_source(context: &Context, module: &Module, source_name: &str) {
    use melior::ir::{
        operation::{WalkOrder, WalkResult},
        BlockLike, RegionLike, ValueLike,
    };
    let renamed = |location: Location<'_>| {
        let file = crate::loc::file_name(location)?;
        (file == "-" || file.is_empty()).then(|| {
            Location::new(
                context,
                source_name,
                location.file_line_col_range_start_line(),
                location.file_line_col_range_start_column(),
            )
        })
    };
    module.as_operation().walk(WalkOrder::PreOrder, |op| {
        if let Some(location) = renamed(op.location()) {
            crate::edit::set_location(op, location);
        }
        for region in op.regions() {
            let mut block = region.first_block();
            while let Some(current) = block {
                for index in 0..current.argument_count() {
                    let Ok(argument) = current.argument(index) else {
                        continue;
                    };
                    if let Some(location) = renamed(argument.location()) {
                        crate::edit::set_argument_location(argument, location);
                    }
                }
                block = current.next_in_region();
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
    fn the_text_ends_where_its_slice_ends() {
        // MLIR's lexer read on past the end of a text without a NUL after
        // it (recheck25 H2): an identifier at the very end took in the
        // bytes after it (`xyz.q` was a custom op `xyz.qU`).
        let context = context();
        let backing = "func.func private @f() -> i32";
        let text = &backing[..backing.len() - 1];
        for module in [
            super::parse(&context, text, "t.mlir").expect("parses"),
            super::into_module(
                &context,
                super::parse_op(&context, text.as_bytes(), "t.mlir").expect("parses"),
                "t.mlir",
            )
            .expect("a module"),
        ] {
            let printed = module.as_operation().to_string();
            assert!(printed.contains("@f() -> i3\n"), "{printed}");
        }
    }

    #[test]
    fn text_nested_too_deeply_is_refused_before_mlir_overflows() {
        let context = context();
        let deep =
            |open: &str, close: &str| format!("{}i32{}", open.repeat(10_000), close.repeat(10_000));
        let attribute = format!(
            "func.func private @f() attributes {{x = {}}}",
            deep("[", "]")
        );
        let tuple = format!("func.func private @f(%a: {})", deep("tuple<", ">"));
        for text in [attribute, tuple] {
            assert!(super::parse(&context, &text, "t.mlir").is_none());
            // Without the implicit module too (`--no-implicit-module`).
            assert!(super::parse_op(&context, text.as_bytes(), "t.mlir").is_none());
        }
    }

    #[test]
    fn a_linalg_array_that_is_not_one_is_refused_before_mlir_crashes() {
        use super::linalg_array_crash;
        let good = "%t = linalg.transpose ins(%a : t) outs(%b : t) permutation = [1, 0]";
        assert_eq!(linalg_array_crash(good), None);
        let bad =
            "\n  %t = linalg.transpose ins(%a : t) outs(%b : t) permutation = arith.constant 0]";
        assert_eq!(linalg_array_crash(bad), Some((2, 64)));
        assert_eq!(linalg_array_crash("x = {dimensions = 3}"), None);
        // Arrays of other things crash it as well; lists of integers and the
        // generic form do not.
        for value in [
            "[1.0, 0]",
            "[\"x\"]",
            "[[1], 0]",
            "[1 : i32, 0]",
            "array<i64: 1, 0>",
            "[1, 0.5]",
        ] {
            let line =
                format!("%t = linalg.transpose ins(%a : t) outs(%b : t) permutation = {value}");
            assert_eq!(linalg_array_crash(&line), Some((1, 62)), "{value}");
        }
        for value in ["[]", "[0]", "[1, 0, -1]", "[ 2 ,0 ]"] {
            let line =
                format!("%t = linalg.broadcast ins(%a : t) outs(%b : t) dimensions = {value}");
            assert_eq!(linalg_array_crash(&line), None, "{value}");
        }
        // A list cut short crashed it too (mutation testing); one that
        // spans lines, comments and all, does not.
        let cut = "%t = linalg.transpose ins(%a : t) outs(%b : t) permutation = [1, \n  return";
        assert_eq!(linalg_array_crash(cut), Some((1, 62)));
        let spanning =
            "%t = linalg.transpose ins(%a : t) outs(%b : t) permutation = [1, // one\n 0]\n";
        assert_eq!(linalg_array_crash(spanning), None);
        let generic = "%t = \"linalg.transpose\"(%a, %b) <{permutation = array<i64: 1, 0>}>";
        assert_eq!(linalg_array_crash(generic), None);
        let context = context();
        let text = "func.func @f(%a: tensor<2x2xf32>, %b: tensor<2x2xf32>) -> tensor<2x2xf32> {\n\
                    %t = linalg.transpose ins(%a : tensor<2x2xf32>) outs(%b : tensor<2x2xf32>) permutation = 0\n\
                    return %t : tensor<2x2xf32>\n}";
        assert!(super::parse(&context, text, "t.mlir").is_none());
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
        // Block arguments too, in nested regions as well.
        let text = "func.func @a(%x: i32) {
  scf.execute_region {
  ^bb0:
    cf.br ^bb1(%x : i32)
  ^bb1(%y: i32):
    scf.yield
  }
  return
}
func.func private @b()
";
        let module = super::parse(&context, text, "t.mlir").expect(text);
        let printed = module
            .as_operation()
            .to_string_with_flags(
                melior::ir::operation::OperationPrintingFlags::new().enable_debug_info(true, false),
            )
            .unwrap();
        assert!(!printed.contains("\"-\""), "{printed}");
        assert!(printed.contains("loc(\"t.mlir\":1:14)"), "{printed}");
        assert!(printed.contains("loc(\"t.mlir\":5:8)"), "{printed}");
        // An explicit module is not wrapped again.
        let module = super::parse(&context, "module {\n}\n", "t.mlir").unwrap();
        assert!(!module
            .as_operation()
            .to_string()
            .contains("module {\n  module"));
    }
}
