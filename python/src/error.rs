//! How the module fails: a [`Failure`] carries what `pld-opt` or
//! `pld-run` would print and the MLIR diagnostics in it, and becomes the
//! Python exception `pld.Error` (defined in `pld/_errors.py`, with its
//! `Diagnostic`s), or `KeyboardInterrupt` after Ctrl-C.

use pld_ir::diag::{Captured, Severity};
use pyo3::exceptions::PyKeyboardInterrupt;
use pyo3::prelude::*;
use pyo3::types::PyList;

/// One diagnostic: `file:line:col: severity: message`, and its notes.
#[derive(Clone, Debug, PartialEq)]
pub struct Diagnostic {
    pub severity: String,
    /// Where it points, when it points somewhere.
    pub file: Option<String>,
    pub line: Option<usize>,
    pub column: Option<usize>,
    pub message: String,
    pub notes: Vec<Diagnostic>,
}

impl Diagnostic {
    /// A diagnostic MLIR emitted, its file named as `pld-opt` names it.
    pub fn captured(captured: &Captured, buffer_name: &str) -> Self {
        let position = captured.position.as_ref();
        Diagnostic {
            severity: captured.severity.to_string(),
            // One at a location that names no place is the input's, as
            // pld-opt prints it (`k.mlir: error: loc("bar"): ...`).
            file: Some(
                position
                    .map_or(buffer_name, |p| {
                        pld_ir::diag::display_file(&p.file, buffer_name)
                    })
                    .to_string(),
            ),
            line: position.map(|p| p.line),
            column: position.map(|p| p.column),
            message: captured.message.clone(),
            notes: captured
                .notes
                .iter()
                .map(|n| Self::captured(n, buffer_name))
                .collect(),
        }
    }

    /// A rendered line `file:line:col: severity: message`, or `None` when
    /// the line is something else (a quoted source line, a caret).
    pub fn parse_line(line: &str) -> Option<Self> {
        let (place, severity, message) =
            ["error", "warning", "note", "remark"]
                .iter()
                .find_map(|severity| {
                    let (place, message) = line.split_once(&format!(": {severity}: "))?;
                    Some((place, *severity, message))
                })?;
        // `k.mlir: error: ...`: at a location that names no place of the
        // file (a tool's own `pld-run: error:` is no file's).
        let (file, line, column) = match pld_ir::loc::Position::parse(place) {
            Some(at) => (at.file, Some(at.line), Some(at.column)),
            None if !place.contains(' ') && place.contains(['.', '/']) => {
                (place.to_string(), None, None)
            }
            None => return None,
        };
        Some(Diagnostic {
            severity: severity.to_string(),
            file: Some(file),
            line,
            column,
            message: message.to_string(),
            notes: Vec::new(),
        })
    }
}

/// Why a call failed.
#[derive(Debug)]
pub enum Failure {
    /// An error to raise as `pld.Error`: its message (what the tool would
    /// print) and the diagnostics in it.
    Error {
        message: String,
        diagnostics: Vec<Diagnostic>,
    },
    /// Ctrl-C stopped the run: `KeyboardInterrupt`.
    Interrupted,
    /// The run went over its `time_limit=` (that many seconds) and was
    /// stopped: `pld.TimeLimitError`.
    TimeLimit(std::time::Duration),
}

impl Failure {
    /// An error whose message may hold rendered diagnostics (a load that
    /// failed: `parse failed:` and the `file:line:col: error: ...` lines);
    /// notes follow the diagnostic they belong to.
    pub fn message(message: impl Into<String>) -> Self {
        let message = message.into();
        let mut diagnostics: Vec<Diagnostic> = Vec::new();
        for line in message.lines() {
            let Some(found) = Diagnostic::parse_line(line) else {
                continue;
            };
            match diagnostics.last_mut() {
                Some(last) if found.severity == "note" => last.notes.push(found),
                _ => diagnostics.push(found),
            }
        }
        Failure::Error {
            message,
            diagnostics,
        }
    }

    /// An error that is no diagnostic of the source (an invalid pass
    /// pipeline, an unknown kernel).
    pub fn plain(message: impl Into<String>) -> Self {
        Failure::Error {
            message: message.into(),
            diagnostics: Vec::new(),
        }
    }

    /// A failed compile step: `summary` when MLIR said nothing, otherwise
    /// the diagnostics as `pld-opt` prints them (quoting `source`).
    pub fn captured(
        summary: &str,
        captured: &[Captured],
        buffer_name: &str,
        source: Option<&str>,
    ) -> Self {
        let rendered: String = captured
            .iter()
            .map(|d| d.render_in(buffer_name, source))
            .collect();
        let message = if captured.iter().any(|d| d.severity == Severity::Error) {
            rendered.trim_end().to_string()
        } else {
            format!("{summary}\n{rendered}").trim_end().to_string()
        };
        Failure::Error {
            message,
            diagnostics: captured
                .iter()
                .map(|d| Diagnostic::captured(d, buffer_name))
                .collect(),
        }
    }

    /// The Python exception.
    pub fn into_pyerr(self, py: Python<'_>) -> PyErr {
        match self {
            Failure::Interrupted => PyKeyboardInterrupt::new_err(()),
            Failure::TimeLimit(limit) => {
                let message = format!(
                    "time_limit ({} s) reached: the run was stopped before it ended",
                    limit.as_secs_f64()
                );
                match raise_named(py, "TimeLimitError", &message, &[]) {
                    Ok(error) | Err(error) => error,
                }
            }
            Failure::Error {
                message,
                diagnostics,
            } => match raise_named(py, "Error", &message, &diagnostics) {
                Ok(error) | Err(error) => error,
            },
        }
    }
}

/// `pld.<class>(message, diagnostics)` (`pld.Error` or a subclass); an
/// error making it is raised instead.
fn raise_named(
    py: Python<'_>,
    exception: &str,
    message: &str,
    diagnostics: &[Diagnostic],
) -> PyResult<PyErr> {
    let module = py.import("pld._errors")?;
    let class = module.getattr("Diagnostic")?;
    let list = PyList::empty(py);
    for diagnostic in diagnostics {
        list.append(to_python(&class, diagnostic)?)?;
    }
    let error = module.getattr(exception)?.call1((message, list))?;
    Ok(PyErr::from_value(error))
}

/// `diagnostic` as a `pld.Diagnostic`.
pub fn diagnostic_to_python<'py>(
    py: Python<'py>,
    diagnostic: &Diagnostic,
) -> PyResult<Bound<'py, PyAny>> {
    let class = py.import("pld._errors")?.getattr("Diagnostic")?;
    to_python(&class, diagnostic)
}

/// A `pld.Diagnostic`.
fn to_python<'py>(class: &Bound<'py, PyAny>, d: &Diagnostic) -> PyResult<Bound<'py, PyAny>> {
    let notes = PyList::empty(class.py());
    for note in &d.notes {
        notes.append(to_python(class, note)?)?;
    }
    class.call1((
        d.severity.as_str(),
        d.file.as_deref(),
        d.line,
        d.column,
        d.message.as_str(),
        notes,
    ))
}

/// Runs `body`, a panic turned into an error (nothing unwinds into
/// Python).
pub fn guarded<T>(body: impl FnOnce() -> Result<T, Failure>) -> Result<T, Failure> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(body)).unwrap_or_else(|panic| {
        Err(Failure::plain(format!(
            "internal error in pld: {}",
            panic_text(&*panic)
        )))
    })
}

/// The message of a panic.
pub fn panic_text(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "a panic without a message".into())
}
