//! Context set-up: upstream dialects plus the two IRDL dialects.

use melior::{ir::Module, utility::load_irdl_dialects, Context};

/// Text of `dialect/irdl/pld.irdl.mlir`.
pub const PLD_IRDL: &str = include_str!("../irdl/pld.irdl.mlir");
/// Text of `dialect/irdl/pto.irdl.mlir`.
pub const PTO_IRDL: &str = include_str!("../irdl/pto.irdl.mlir");
/// Text of `dialect/irdl/pld-and-pto.irdl.mlir`: both files in one, for
/// stock MLIR's single `--irdl-file`.
pub const BOTH_IRDL: &str = include_str!("../irdl/pld-and-pto.irdl.mlir");

/// A context with every upstream MLIR dialect registered and loaded, and the
/// `pld` and `pto` dialects loaded from their IRDL definitions.
pub fn context() -> Context {
    let context = upstream_context();
    // Both files are embedded in the binary and covered by tests, so a
    // failure here is a build defect, not a user error.
    if let Err(message) = load_pld_and_pto(&context) {
        panic!("{message}");
    }
    context
}

/// Makes `context`, a host's, hold what [`context`] holds: every upstream
/// MLIR dialect registered and loaded, then the `pld` and `pto` dialects
/// (each unless the context has it already, so a second call does
/// nothing).
pub fn load_into(context: &Context) -> Result<(), String> {
    pld_ir::parse::load_upstream_dialects(context);
    load_pld_and_pto(context)
}

/// A context with every upstream MLIR dialect registered and loaded.
pub(crate) fn upstream_context() -> Context {
    pld_ir::parse::upstream_context()
}

fn load_pld_and_pto(context: &Context) -> Result<(), String> {
    for (text, what, probe) in [
        (PLD_IRDL, "pld", "pld.tensor_allreduce"),
        (PTO_IRDL, "pto", "pto.comm_tnotify"),
    ] {
        if !context.is_registered_operation(probe) {
            load_irdl(context, text, what)?;
        }
    }
    Ok(())
}

fn load_irdl(context: &Context, text: &str, what: &str) -> Result<(), String> {
    let module = Module::parse(context, text)
        .ok_or_else(|| format!("the embedded {what}.irdl.mlir does not parse"))?;
    if load_irdl_dialects(&module) {
        Ok(())
    } else {
        Err(format!("the embedded {what}.irdl.mlir does not load"))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_combined_file_is_both_files() {
        let body = super::BOTH_IRDL
            .split_once("\n\n")
            .map(|(_, body)| body)
            .unwrap_or_default();
        assert_eq!(
            body,
            format!("{}\n{}", super::PLD_IRDL, super::PTO_IRDL),
            "dialect/irdl/pld-and-pto.irdl.mlir is stale: run `make irdl`"
        );
    }

    #[test]
    fn both_dialects_load() {
        let context = super::context();
        assert!(context.is_registered_operation("pld.tensor_allreduce"));
        assert!(context.is_registered_operation("pto.comm_tnotify"));
    }
}

/// Parses a pld program as [`pld_ir::parse::parse`] does, and when MLIR
/// refuses the text without saying why (it does so for an IRDL op written
/// in custom syntax, like `pld.tensor_barrier %s : ...`), emits an error
/// at the first such op saying how pld and pto ops are written.
pub fn parse_source<'c>(
    context: &'c Context,
    text: &str,
    source_name: &str,
) -> Option<melior::ir::Module<'c>> {
    parse_source_bytes(context, text.as_bytes(), source_name)
}

/// [`parse_source`] of bytes: text, or MLIR bytecode.
pub fn parse_source_bytes<'c>(
    context: &'c Context,
    text: &[u8],
    source_name: &str,
) -> Option<melior::ir::Module<'c>> {
    explained(context, text, source_name, || {
        pld_ir::parse::parse_bytes(context, text, source_name)
    })
}

/// The single top-level op of `text` (no implicit module, as under
/// `--no-implicit-module`), with [`parse_source`]'s explanation of
/// custom syntax.
pub fn parse_source_op<'c>(
    context: &'c Context,
    text: &[u8],
    source_name: &str,
) -> Option<melior::ir::Operation<'c>> {
    explained(context, text, source_name, || {
        pld_ir::parse::parse_op(context, text, source_name)
    })
}

/// Runs `parse`; when it fails without a diagnostic, emits one.
fn explained<T>(
    context: &Context,
    text: &[u8],
    source_name: &str,
    parse: impl FnOnce() -> Option<T>,
) -> Option<T> {
    let said = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let seen = said.clone();
    let handler = context.attach_diagnostic_handler(move |_| {
        seen.store(true, std::sync::atomic::Ordering::Relaxed);
        false // let the caller's handlers see it too
    });
    let parsed = parse();
    context.detach_diagnostic_handler(handler);
    if parsed.is_none() && !said.load(std::sync::atomic::Ordering::Relaxed) {
        let text = String::from_utf8_lossy(text);
        let (line, column, op) = custom_syntax_use(&text).unwrap_or((1, 1, String::new()));
        let location = melior::ir::Location::new(context, source_name, line, column);
        let message = if op.is_empty() {
            "the input does not parse, and MLIR gave no reason; note that pld and pto ops have \
             no custom syntax: write them in the generic form"
                .to_string()
        } else {
            format!(
                "'{op}' is written in custom syntax, which pld and pto ops do not have; write it \
                 in the generic form: %r = \"{op}\"(%operands) {{attributes}} : (operand types) -> \
                 result type"
            )
        };
        pld_ir::diag::emit_error(location, &message);
    }
    parsed
}

/// The first pld or pto op written in custom syntax (`= pld.x` or a line
/// starting with `pld.x`, outside quotes and comments): line, column, op.
fn custom_syntax_use(text: &str) -> Option<(usize, usize, String)> {
    for (number, line) in text.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("");
        for dialect in ["pld.", "pto."] {
            let mut from = 0;
            while let Some(found) = code[from..].find(dialect) {
                let at = from + found;
                from = at + dialect.len();
                let before = code[..at].trim_end();
                let quoted = code[..at].matches('"').count() % 2 == 1;
                let attribute = code[..at].ends_with('#') || code[..at].ends_with('!');
                let starts_op = before.is_empty() || before.ends_with('=');
                if quoted || attribute || !starts_op {
                    continue;
                }
                let name: String = code[at..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '.')
                    .collect();
                return Some((number + 1, at + 1, name));
            }
        }
    }
    None
}

#[cfg(test)]
mod syntax_tests {
    #[test]
    fn custom_syntax_is_found_and_explained() {
        let text = "func.func @k(%s: tensor<4xi32, #pld.dist>) {\n  \
                    %r = pld.tensor_barrier %s : tensor<4xi32, #pld.dist>\n  return\n}\n";
        assert_eq!(
            super::custom_syntax_use(text),
            Some((2, 8, "pld.tensor_barrier".to_string()))
        );
        assert_eq!(
            super::custom_syntax_use("%r = \"pld.tensor_barrier\"(%s) : (!t) -> !t"),
            None
        );
        let context = super::context();
        let sink = pld_ir::diag::Sink::attach(&context);
        assert!(super::parse_source(&context, text, "k.mlir").is_none());
        let said = sink.take();
        assert_eq!(said.len(), 1, "{said:?}");
        assert!(said[0]
            .message
            .contains("'pld.tensor_barrier' is written in custom syntax"));
        assert_eq!(
            said[0].position.as_ref().map(|p| (p.line, p.column)),
            Some((2, 8))
        );
    }
}
