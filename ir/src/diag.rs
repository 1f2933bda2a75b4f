//! Diagnostics: emitting them at an op's location, collecting a pass's
//! errors, and capturing what MLIR emits to print it the way compilers do
//! (`file:line:col: error: message`).

mod received;
mod subject;

pub use crate::loc::{position, Position};
use melior::{
    ir::{operation::OperationLike, Location, OperationRef},
    Context,
};
pub use received::{attach, detach, Handler, Received};
use std::{
    fmt,
    sync::{Arc, Mutex},
};

/// Writes `text` to standard error in one `write`, as it is.
///
/// `eprint!` and `eprintln!` write a line in pieces (the prefix, each
/// argument, the newline), and the processes of one MPI job share their
/// launcher's stderr: their pieces interleave mid-line (`pld-run: error:
/// pld-run: error: ...`). One buffer per message keeps every line whole (a
/// pipe write of up to 4 KiB is atomic). A closed or full stderr is
/// ignored: a message that cannot be shown is no reason to panic.
pub fn write_stderr(text: &str) {
    use std::io::Write;
    let _ = std::io::stderr().lock().write_all(text.as_bytes());
}

/// `eprintln!` in one piece: formats the line and its newline into one
/// buffer for [`write_stderr`].
#[macro_export]
macro_rules! say {
    ($($arg:tt)*) => {{
        let mut line = ::std::format!($($arg)*);
        line.push('\n');
        $crate::diag::write_stderr(&line)
    }};
}

/// `n` things, in the plural unless one: `1 rank`, `4 ranks` (for the
/// messages of every tool).
pub fn count(n: impl std::fmt::Display, thing: &str) -> String {
    let n = n.to_string();
    let plural = if n == "1" { "" } else { "s" };
    format!("{n} {thing}{plural}")
}

/// `512.0 MiB`, `1.5 KiB`, `12 B`: an amount of memory as messages state
/// it.
pub fn bytes_text(n: usize) -> String {
    match n {
        0..1024 => format!("{n} B"),
        1024..1048576 => format!("{:.1} KiB", n as f64 / 1024.0),
        1048576..1073741824 => format!("{:.1} MiB", n as f64 / 1048576.0),
        _ => format!("{:.1} GiB", n as f64 / 1073741824.0),
    }
}

/// Emits an error diagnostic at `location`.
pub fn emit_error(location: Location, message: &str) {
    let text = std::ffi::CString::new(message.replace('\0', " ")).unwrap_or_default();
    // SAFETY: `text` is a NUL-terminated string that outlives the call; MLIR
    // copies the message.
    unsafe { mlir_sys::mlirEmitError(location.to_raw(), text.as_ptr()) };
}

extern "C" {
    /// `cpp/diagnostics.cpp`: `mlir::emitRemark(location) << message`.
    fn pld_ir_emit_remark(location: mlir_sys::MlirLocation, message: *const std::ffi::c_char);
    /// `cpp/diagnostics.cpp`: `mlir::emitWarning(location) << message`.
    fn pld_ir_emit_warning(location: mlir_sys::MlirLocation, message: *const std::ffi::c_char);
    /// `cpp/diagnostics.cpp`: LLVM's option parser run on `[name]` alone.
    fn pld_ir_name_program(name: *const std::ffi::c_char);
}

/// Names the program in the errors LLVM's option parser prints itself
/// (an upstream pass option that does not parse: `pld-opt: for the
/// --max-iterations option: '1e30' value invalid for long argument!`,
/// which began with `: ` unnamed). For a tool's `main`, before any
/// pipeline is parsed; a library leaves its host's name alone.
pub fn name_program(name: &str) {
    let text = std::ffi::CString::new(name.replace('\0', " ")).unwrap_or_default();
    // SAFETY: `text` is a NUL-terminated string that outlives the call;
    // LLVM copies the name.
    unsafe { pld_ir_name_program(text.as_ptr()) };
}

/// Emits a remark diagnostic at `location`.
pub fn emit_remark(location: Location, message: &str) {
    let text = std::ffi::CString::new(message.replace('\0', " ")).unwrap_or_default();
    // SAFETY: `location` is a live location of a live context; `text` is a
    // NUL-terminated string that outlives the call, and MLIR copies it.
    unsafe { pld_ir_emit_remark(location.to_raw(), text.as_ptr()) };
}

/// Emits a warning diagnostic at `location`.
pub fn emit_warning(location: Location, message: &str) {
    let text = std::ffi::CString::new(message.replace('\0', " ")).unwrap_or_default();
    // SAFETY: `location` is a live location of a live context; `text` is a
    // NUL-terminated string that outlives the call, and MLIR copies it.
    unsafe { pld_ir_emit_warning(location.to_raw(), text.as_ptr()) };
}

/// Reports an error about `op` at its location, prefixed like MLIR's own
/// op diagnostics (`'pld.tensor_allreduce' op ...`).
pub fn error(op: OperationRef, message: &str) {
    emit_error(
        op.location(),
        &format!("'{}' op {message}", crate::op_name(&op)),
    );
}

/// A pass failed; the reasons were emitted as MLIR diagnostics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PassFailed;

impl fmt::Display for PassFailed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("pass failed (see the diagnostics)")
    }
}

impl std::error::Error for PassFailed {}

/// A pass's error reporting: each error is emitted at its op at once, and
/// [`Report::finish`] fails the pass if there was any.
#[derive(Default)]
pub struct Report {
    failed: bool,
}

impl Report {
    /// Emits an error about `op` (see [`error`]).
    pub fn error(&mut self, op: OperationRef, message: &str) {
        error(op, message);
        self.failed = true;
    }

    /// Records a failure whose diagnostic was already emitted.
    pub fn fail(&mut self) {
        self.failed = true;
    }

    /// Whether an error was reported.
    pub fn failed(&self) -> bool {
        self.failed
    }

    /// The pass's result.
    pub fn finish(self) -> Result<(), PassFailed> {
        if self.failed {
            Err(PassFailed)
        } else {
            Ok(())
        }
    }
}

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
        self.render_in(buffer_name, None)
    }

    /// Renders the diagnostic and its notes as `mlir-opt` does: each
    /// `file:line:col: severity: message` line followed, when it points
    /// into the parsed buffer `source`, by that source line and a caret
    /// under the column.
    pub fn render_in(&self, buffer_name: &str, source: Option<&str>) -> String {
        let mut out = format!(
            "{}: {}: {}\n",
            where_(&self.position, buffer_name),
            self.severity,
            self.message
        );
        if let (Some(source), Some(position)) = (source, &self.position) {
            let file = display_file(&position.file, buffer_name);
            if file == buffer_name {
                out.push_str(&excerpt(source, position.line, position.column));
            }
        }
        for note in &self.notes {
            out.push_str(&note.render_in(buffer_name, source));
        }
        out
    }
}

/// A source line longer than this many characters is cut around the
/// caret, [`EXCERPT_REACH`] characters on each side.
const EXCERPT_WIDTH: usize = 240;
const EXCERPT_REACH: usize = 80;

/// Line `line` (1-based) of `source` and a caret under column `column`
/// (1-based, in characters), or nothing when the line does not exist. A
/// long line is cut to the part around the column, `...` marking the cuts.
pub fn excerpt(source: &str, line: usize, column: usize) -> String {
    let Some(text) = line.checked_sub(1).and_then(|i| source.lines().nth(i)) else {
        return String::new();
    };
    let chars: Vec<char> = text.trim_end().chars().collect();
    let at = column.saturating_sub(1);
    let (start, end) = if chars.len() <= EXCERPT_WIDTH {
        (0, chars.len())
    } else {
        let start = at.saturating_sub(EXCERPT_REACH);
        (start, (at + EXCERPT_REACH).min(chars.len()).max(start))
    };
    let (before, after) = (start > 0, end < chars.len());
    let shown: String = chars[start.min(chars.len())..end].iter().collect();
    // Tabs keep their width under the caret.
    let pad: String = chars[start.min(chars.len())..at.min(chars.len())]
        .iter()
        .map(|c| if *c == '\t' { '\t' } else { ' ' })
        .collect();
    let lead = if before { "..." } else { "" };
    let lead_pad = if before { "   " } else { "" };
    let tail = if after { "..." } else { "" };
    format!("{lead}{shown}{tail}\n{lead_pad}{pad}^\n")
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

/// A copy of `diagnostic` and its notes (without the op dumps), the op it
/// is about named when MLIR left it unnamed (IRDL's errors; see
/// `diag/subject.rs`).
fn capture(diagnostic: &Received) -> Captured {
    // The op dumps, read before a note's location is said in its text.
    let (dumps, notes): (Vec<Received>, Vec<Received>) = diagnostic
        .notes()
        .into_iter()
        .partition(|n| n.message().starts_with(subject::OP_DUMP));
    let notes: Vec<Captured> = notes.iter().map(capture).collect();
    let message = diagnostic.message();
    let dump = dumps
        .first()
        .map(|n| n.message()[subject::OP_DUMP.len()..].to_string());
    let message = match dump {
        Some(dump) => subject::named(&message, &dump),
        None => message,
    };
    let location = diagnostic.location();
    let position = position(location);
    // A location that names no file (`loc("bar")`) is said, as MLIR says
    // it, rather than dropped.
    let message = match &position {
        None if !crate::loc::is_unknown(location) => format!("{location}: {message}"),
        _ => message,
    };
    // The callers of a call-site location, as MLIR notes them.
    let callers = crate::loc::callers(location)
        .into_iter()
        .map(|position| Captured {
            severity: Severity::Note,
            position: Some(position),
            message: CALLED_FROM.to_string(),
            notes: Vec::new(),
        });
    Captured {
        severity: diagnostic.severity(),
        position,
        message,
        notes: callers.chain(notes).collect(),
    }
}

/// The note MLIR's handler shows at each caller of a call-site location
/// (shown only: `--verify-diagnostics` does not see it, as in `mlir-opt`).
pub const CALLED_FROM: &str = "called from";

/// Collects every diagnostic emitted in a context.
///
/// Passes anchored on `func.func` run on MLIR's worker threads, so the
/// handler may be called from several threads (MLIR serialises the calls)
/// and in an order that depends on scheduling; [`Sink::take`] therefore
/// returns the diagnostics sorted by source position, which is the order a
/// single-threaded run reports them in for function-local passes.
#[derive(Clone, Default)]
pub struct Sink(Arc<Mutex<Vec<Captured>>>);

/// What MLIR says about an unregistered dialect after its message:
/// advice to use `-allow-unregistered-dialect`, a flag of `mlir-opt` and
/// `pld-opt` only.
const UNREGISTERED_ADVICE: &str = ". If this is intended, please ";

/// What the tools without that flag say instead.
const UNREGISTERED_INSTEAD: &str =
    " (pld reads the pld and pto dialects and MLIR's upstream ones; only pld-opt takes \
     --allow-unregistered-dialect)";

/// `message` without MLIR's advice to use `-allow-unregistered-dialect`,
/// for the front ends that do not take it (`pld-run`, `pld-translate`,
/// the C API, Python's runners).
pub fn without_flag_advice(message: &str) -> String {
    with_flag_advice(message, UNREGISTERED_INSTEAD)
}

/// `message` with MLIR's advice to use `-allow-unregistered-dialect`
/// replaced by `instead` (a front end's own words for that flag).
pub fn with_flag_advice(message: &str, instead: &str) -> String {
    match message.find(UNREGISTERED_ADVICE) {
        Some(at) if message[at..].contains("allow-unregistered-dialect") => {
            format!("{}{instead}", &message[..at])
        }
        _ => message.to_string(),
    }
}

impl Captured {
    /// The diagnostic and its notes with MLIR's advice replaced by
    /// `instead` ([`with_flag_advice`]).
    pub fn with_flag_advice(mut self, instead: &str) -> Captured {
        self.message = with_flag_advice(&self.message, instead);
        self.notes = self
            .notes
            .into_iter()
            .map(|note| note.with_flag_advice(instead))
            .collect();
        self
    }

    fn without_flag_advice(self) -> Captured {
        self.with_flag_advice(UNREGISTERED_INSTEAD)
    }
}

impl Sink {
    /// Attaches a handler that captures (and thereby silences) every
    /// diagnostic of `context`. MLIR's advice to use
    /// `-allow-unregistered-dialect` is replaced, since only `pld-opt`
    /// takes that flag ([`Sink::attach_for_opt`] keeps it).
    pub fn attach(context: &Context) -> Self {
        Self::attach_with(context, Captured::without_flag_advice)
    }

    /// [`Sink::attach`] for `pld-opt`, which takes
    /// `--allow-unregistered-dialect`: MLIR's advice is kept.
    pub fn attach_for_opt(context: &Context) -> Self {
        Self::attach_with(context, |captured| captured)
    }

    fn attach_with(context: &Context, adjust: fn(Captured) -> Captured) -> Self {
        let sink = Sink::default();
        let store = sink.0.clone();
        attach(context, move |diagnostic| {
            store
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(adjust(capture(diagnostic)));
            true
        });
        sink
    }

    /// Takes the diagnostics captured so far, in source order (stable for
    /// diagnostics at one position; unknown locations last).
    pub fn take(&self) -> Vec<Captured> {
        let mut taken = std::mem::take(&mut *self.0.lock().unwrap_or_else(|e| e.into_inner()));
        taken.sort_by(|a, b| match (&a.position, &b.position) {
            (Some(a), Some(b)) => (a.line, a.column).cmp(&(b.line, b.column)),
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (None, None) => std::cmp::Ordering::Equal,
        });
        taken
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn amounts_read_as_people_write_them() {
        assert_eq!(super::bytes_text(12), "12 B");
        assert_eq!(super::bytes_text(1536), "1.5 KiB");
        assert_eq!(super::bytes_text(512 << 20), "512.0 MiB");
        assert_eq!(super::bytes_text(3 << 30), "3.0 GiB");
    }

    use super::*;

    /// MLIR 22's words for an unknown dialect, as its parser and context
    /// print them: the advice goes, the message stays.
    #[test]
    fn the_flag_advice_is_replaced() {
        let op = "operation being parsed with an unregistered dialect. If this is intended, please use -allow-unregistered-dialect with the MLIR tool used";
        assert_eq!(
            without_flag_advice(op),
            format!("operation being parsed with an unregistered dialect{UNREGISTERED_INSTEAD}")
        );
        let type_ = "`!foo.t` type created with unregistered dialect. If this is intended, please call allowUnregisteredDialects() on the MLIRContext, or use -allow-unregistered-dialect with the MLIR opt tool used";
        assert!(without_flag_advice(type_)
            .starts_with("`!foo.t` type created with unregistered dialect (pld reads"));
        let other = "expected ')'. If this is intended, please do something else";
        assert_eq!(without_flag_advice(other), other);
    }

    #[test]
    fn excerpts_point_at_the_column() {
        let source = "module {\n  %x = \"pld.op\"() : () -> ()\n}\n";
        assert_eq!(
            excerpt(source, 2, 8),
            "  %x = \"pld.op\"() : () -> ()\n       ^\n"
        );
        assert_eq!(excerpt(source, 9, 1), "");
        // A long line shows the part around the column.
        let long = format!("{}X{}", "a".repeat(500), "b".repeat(500));
        let shown = excerpt(&long, 1, 501);
        let (text, caret) = shown.split_once('\n').unwrap();
        assert!(text.starts_with("...") && text.ends_with("..."), "{text}");
        assert_eq!(text.find('X'), caret.find('^'));
        assert!(text.len() < 170);
        let diagnostic = Captured {
            severity: Severity::Error,
            position: Some(Position {
                file: "-".into(),
                line: 2,
                column: 3,
            }),
            message: "bad".into(),
            notes: vec![],
        };
        assert_eq!(
            diagnostic.render_in("in.mlir", Some(source)),
            "in.mlir:2:3: error: bad\n  %x = \"pld.op\"() : () -> ()\n  ^\n"
        );
        assert_eq!(diagnostic.render("in.mlir"), "in.mlir:2:3: error: bad\n");
    }
}
