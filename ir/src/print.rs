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
    /// `--mlir-elide-elementsattrs-if-larger=N`: elements attributes with
    /// more than N elements print as `dense_resource<__elided__>`.
    pub elide_elements_larger_than: Option<usize>,
    /// `--mlir-print-local-scope`: attributes and types written out where
    /// they are used, no `#alias = ...` at the top, and locations inline.
    pub local_scope: bool,
}

/// MLIR's printing flags for `options`.
pub fn flags(options: PrintOptions) -> OperationPrintingFlags {
    let mut flags = OperationPrintingFlags::new();
    if options.debug_info {
        flags = flags.enable_debug_info(true, false);
    }
    if options.generic {
        flags = flags.print_generic_operation_form();
    }
    if options.local_scope {
        flags = flags.use_local_scope();
    }
    if let Some(limit) = options.elide_elements_larger_than {
        flags = flags.elide_large_elements_attributes(limit);
    }
    if options.nameloc_as_prefix {
        // SAFETY: `flags` is a live printing-flags object owned by this
        // function; the setter only flips one of its fields.
        unsafe { mlir_sys::mlirOpPrintingFlagsPrintNameLocAsPrefix(flags.to_raw()) };
    }
    flags
}

/// The module's text, ending with a newline.
pub fn module_text(module: &Module, options: PrintOptions) -> String {
    op_text(&module.as_operation(), options)
}

/// The text of one op (a module or any other), ending with a newline.
pub fn op_text<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>, options: PrintOptions) -> String {
    let text = printed(op, options);
    if text.ends_with('\n') {
        text
    } else {
        text + "\n"
    }
}

/// An op as `mlir-opt` writes its output: the printer's text and a
/// newline (an empty line after a module with outlined attributes or
/// locations, none after one printed with local scope).
pub fn op_output<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>, options: PrintOptions) -> String {
    printed(op, options) + "\n"
}

fn printed<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>, options: PrintOptions) -> String {
    op.to_string_with_flags(flags(options))
        .unwrap_or_else(|_| op.to_string())
}

/// A reference to the symbol `name` as MLIR spells it: `@step` for a bare
/// identifier (a letter or `_`, then letters, digits, `_`, `$` and `.`),
/// else quoted, `@"my.step-1"` (a function may have any name).
pub fn symbol_ref(name: &str) -> String {
    let mut chars = name.chars();
    let bare = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '.'));
    match bare {
        true => format!("@{name}"),
        false => format!("@\"{}\"", escaped(name)),
    }
}

/// The name a function is given by, as a user writes it: `k`, `@k`, or
/// quoted as MLIR spells a name that is no bare identifier
/// (`@"sum four"`, `"sum four"`; escapes `\"`, `\\` and two hex digits
/// read back): the inverse of [`symbol_ref`].
pub fn symbol_name(reference: &str) -> String {
    let name = reference.strip_prefix('@').unwrap_or(reference);
    match name
        .strip_prefix('"')
        .and_then(|quoted| quoted.strip_suffix('"'))
    {
        Some(inside) => unescaped(inside),
        None => name.to_string(),
    }
}

/// The bytes an MLIR string literal's inside `text` stands for (an
/// escape it does not know is kept as written).
fn unescaped(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .filter(|h| h.iter().all(u8::is_ascii_hexdigit))
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], bytes.get(i + 1), hex) {
            (b'\\', Some(&c @ (b'"' | b'\\')), _) => {
                out.push(c);
                i += 2;
            }
            (b'\\', _, Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (byte, _, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `text` as the inside of an MLIR string literal, as MLIR prints one: a
/// backslash doubled, a quote and every byte outside printable ASCII as a
/// backslash and two hex digits (`\22`).
pub fn escaped(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        match byte {
            b'\\' => out.push_str("\\\\"),
            b'"' => out.push_str("\\22"),
            0x20..=0x7e => out.push(byte as char),
            _ => out.push_str(&format!("\\{byte:02X}")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_read_back_as_written() {
        for name in ["k", "sum four", "my.step-1", "9lives", "a\"b\\c", "d\u{e9}"] {
            assert_eq!(symbol_name(&symbol_ref(name)), name);
            assert_eq!(symbol_name(symbol_ref(name).trim_start_matches('@')), name);
        }
        assert_eq!(symbol_name("@k"), "k");
        assert_eq!(symbol_name("k"), "k");
        assert_eq!(symbol_name("@\"x\\zz\""), "x\\zz");
        assert_eq!(symbol_name("@\"x\\+5\""), "x\\+5");
    }

    #[test]
    fn a_symbol_is_quoted_unless_it_is_a_bare_identifier() {
        assert_eq!(symbol_ref("step"), "@step");
        assert_eq!(symbol_ref("_a.b$c9"), "@_a.b$c9");
        assert_eq!(symbol_ref("my.step-1"), "@\"my.step-1\"");
        assert_eq!(symbol_ref("9lives"), "@\"9lives\"");
        assert_eq!(symbol_ref(""), "@\"\"");
        assert_eq!(symbol_ref("a\"b\\c\u{e9}"), "@\"a\\22b\\\\c\\C3\\A9\"");
    }
}
