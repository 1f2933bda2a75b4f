//! Capturing MLIR diagnostics and printing them the way compilers do:
//! `file:line:col: error: message`.

use melior::{
    diagnostic::{Diagnostic, DiagnosticSeverity},
    ir::Location,
    Context,
};
use std::{cell::RefCell, fmt, rc::Rc};

/// Severity of a captured diagnostic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
    Note,
    Remark,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
            Severity::Remark => "remark",
        })
    }
}

/// A source position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// File name as recorded in the IR; empty or `-` for the parsed buffer.
    pub file: String,
    pub line: usize,
    pub column: usize,
}

/// One diagnostic, copied out of MLIR.
#[derive(Clone, Debug)]
pub struct Captured {
    pub severity: Severity,
    /// `None` for an unknown location.
    pub position: Option<Position>,
    pub message: String,
    pub notes: Vec<Captured>,
}

impl Captured {
    /// Renders the diagnostic and its notes, naming the parsed buffer
    /// `buffer_name`.
    pub fn render(&self, buffer_name: &str) -> String {
        let mut out = format!(
            "{}: {}: {}\n",
            where_(&self.position, buffer_name),
            self.severity,
            self.message
        );
        for note in &self.notes {
            out.push_str(&note.render(buffer_name));
        }
        out
    }
}

/// `file:line:col` of a position, or the buffer name when unknown.
pub fn where_(position: &Option<Position>, buffer_name: &str) -> String {
    match position {
        Some(p) => format!(
            "{}:{}:{}",
            display_file(&p.file, buffer_name),
            p.line,
            p.column
        ),
        None => buffer_name.to_string(),
    }
}

/// The parser names the buffer it reads `-`; show the real input instead.
pub fn display_file<'a>(file: &'a str, buffer_name: &'a str) -> &'a str {
    if file.is_empty() || file == "-" {
        buffer_name
    } else {
        file
    }
}

/// Whether a note only repeats the op (MLIR adds "see current operation"
/// to verifier errors); such notes are not shown.
fn is_op_dump(note: &Captured) -> bool {
    note.message.starts_with("see current operation")
}

/// The first file position a location refers to, looking through names,
/// call sites and fused locations.
pub fn position(location: Location) -> Option<Position> {
    if location.is_file_line_col_range() {
        let file = location.file_line_col_range_filename();
        return Some(Position {
            file: pld_dialect::attr::string_ref(unsafe {
                mlir_sys::mlirIdentifierStr(file.to_raw())
            }),
            line: location.file_line_col_range_start_line(),
            column: location.file_line_col_range_start_column(),
        });
    }
    if location.is_name() {
        return position(location.name_child_location());
    }
    if location.is_call_site() {
        return position(location.call_site_callee());
    }
    if location.is_fused() {
        return (0..location.fused_num_locations())
            .find_map(|i| position(location.fused_location(i)));
    }
    None
}

fn capture(diagnostic: &Diagnostic) -> Captured {
    let severity = match diagnostic.severity() {
        DiagnosticSeverity::Error => Severity::Error,
        DiagnosticSeverity::Warning => Severity::Warning,
        DiagnosticSeverity::Note => Severity::Note,
        DiagnosticSeverity::Remark => Severity::Remark,
    };
    let notes = (0..diagnostic.note_count())
        .filter_map(|i| diagnostic.note(i).ok())
        .map(|n| capture(&n))
        .filter(|n| !is_op_dump(n))
        .collect();
    Captured {
        severity,
        position: position(diagnostic.location()),
        message: diagnostic.to_string(),
        notes,
    }
}

/// Collects every diagnostic emitted in a context.
#[derive(Clone, Default)]
pub struct Sink(Rc<RefCell<Vec<Captured>>>);

impl Sink {
    /// Attaches a handler that captures (and thereby silences) every
    /// diagnostic of `context`. The context must not run passes on several
    /// threads: the handler is not thread-safe.
    pub fn attach(context: &Context) -> Self {
        let sink = Sink::default();
        let store = sink.0.clone();
        context.attach_diagnostic_handler(move |diagnostic| {
            store.borrow_mut().push(capture(&diagnostic));
            true
        });
        sink
    }

    /// Takes the diagnostics captured so far.
    pub fn take(&self) -> Vec<Captured> {
        std::mem::take(&mut *self.0.borrow_mut())
    }
}
