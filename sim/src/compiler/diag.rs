//! Captured MLIR diagnostics as the compiler's errors say them.

use pld_ir::diag::Sink;

/// Captured diagnostics as `file:line:col: error: message`, one per line
/// joined by `; `.
pub(crate) fn render(sink: &Sink) -> String {
    render_named(sink, "<kernel>")
}

fn render_named(sink: &Sink, source_name: &str) -> String {
    sink.take()
        .iter()
        .map(|d| d.render(source_name).trim_end().to_string())
        .collect::<Vec<_>>()
        .join("; ")
}

/// Every captured diagnostic as `mlir-opt` prints it, with the line of
/// `source` it points at and a caret.
pub(crate) fn render_source(sink: &Sink, source_name: &str, source: &str) -> String {
    let text: String = sink
        .take()
        .iter()
        .map(|d| d.render_in(source_name, Some(source)))
        .collect();
    format!("\n{}", text.trim_end())
}
