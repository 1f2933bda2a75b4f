//! `--verify-diagnostics`: checks the diagnostics of a chunk against the
//! `expected-error`, `expected-warning`, `expected-note` and
//! `expected-remark` annotations in its comments (and their `-re` forms),
//! as `mlir-opt` 22 does (MLIR's `SourceMgrDiagnosticVerifierHandler`).
//!
//! The syntax is in [`annotation`]. A diagnostic (or a note of one) is
//! expected when an annotation of its severity is on its line (an
//! `@unknown` one, for a diagnostic without a location) and the
//! annotation's text occurs in its message (with `-re`, its regular
//! expression matches somewhere in it). One annotation covers every such
//! diagnostic. A diagnostic in another file matches nothing.
//!
//! The reports are `mlir-opt`'s: `unexpected <severity>: <message>` at the
//! diagnostic, `'<severity>' diagnostic emitted when expecting a
//! '<severity>'` at an annotation whose text matched but whose severity
//! did not, and `expected <severity> "<text>" was not produced` at the
//! annotation, each followed by the source line and a caret (`^~~~` under
//! an annotation's text length).

mod annotation;

pub use annotation::parse;
use pld_ir::diag::{display_file, excerpt, Captured, Position, Severity};

/// The line a diagnostic is expected on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// A line of the input (1-based).
    Line(usize),
    /// `@unknown`: a diagnostic without a location.
    Unknown,
}

impl Target {
    fn map(self, f: impl Fn(usize) -> usize) -> Target {
        match self {
            Target::Line(line) => Target::Line(f(line)),
            Target::Unknown => Target::Unknown,
        }
    }
}

/// How an annotation's text is compared with a message.
#[derive(Clone, Debug)]
pub enum Matcher {
    /// `expected-<severity>`: the text occurs in the message.
    Substring,
    /// `expected-<severity>-re`: this expression matches somewhere in it.
    Regex(regex::Regex),
}

/// One annotation.
#[derive(Clone, Debug)]
pub struct Expected {
    pub severity: Severity,
    pub target: Target,
    /// The text between the braces, as written.
    pub text: String,
    pub matcher: Matcher,
    /// Where the annotation's `expected-` is.
    pub at: Position,
}

impl Expected {
    /// Whether `message` is what this annotation describes (severity and
    /// line aside).
    pub fn matches(&self, message: &str) -> bool {
        match &self.matcher {
            Matcher::Substring => message.contains(&self.text),
            Matcher::Regex(regex) => regex.is_match(message),
        }
    }
}

/// A verification failure, printed as an error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// Where; `None` for an unknown location (`<unknown>:0`).
    pub at: Option<Position>,
    pub message: String,
    /// How many characters from the column the caret line marks (`^` and
    /// `~`s).
    pub width: usize,
}

impl Problem {
    /// `file:line:col: error: message`, then, when the position is in the
    /// input `source` (named `buffer_name`), its line and the caret.
    pub fn render(&self, buffer_name: &str, source: Option<&str>) -> String {
        let Some(at) = &self.at else {
            return format!("<unknown>:0: error: {}\n", self.message);
        };
        let mut out = format!(
            "{}:{}:{}: error: {}\n",
            at.file, at.line, at.column, self.message
        );
        if let (Some(source), true) = (source, at.file == buffer_name && at.column > 0) {
            out.push_str(&underline(
                excerpt(source, at.line, at.column),
                source,
                at,
                self.width,
            ));
        }
        out
    }
}

/// Widens the caret of `shown` (an excerpt) to `width` characters, as far
/// as the line goes.
fn underline(shown: String, source: &str, at: &Position, width: usize) -> String {
    let rest = source
        .lines()
        .nth(at.line.saturating_sub(1))
        .map_or(0, |l| {
            l.trim_end().chars().count().saturating_sub(at.column - 1)
        });
    let width = width.min(rest).min(EXCERPT_REACH);
    match shown.strip_suffix("^\n") {
        Some(head) if width > 1 => format!("{head}^{}\n", "~".repeat(width - 1)),
        _ => shown,
    }
}

/// How far past the column a long line is shown (`pld_ir::diag::excerpt`).
const EXCERPT_REACH: usize = 80;

/// Where a diagnostic is, for matching.
enum Place {
    Line(usize),
    Unknown,
    /// In another file than the input.
    Elsewhere,
}

/// Compares `diagnostics` (and their notes) with `expected`: a problem for
/// each diagnostic nothing expects (unless `only_expected`) and each
/// annotation nothing matched, the diagnostics' in their order, then the
/// annotations' (the located ones first, as `mlir-opt` reports them).
pub fn check(
    expected: &[Expected],
    diagnostics: &[Captured],
    buffer_name: &str,
    only_expected: bool,
) -> Vec<Problem> {
    let mut matched = vec![false; expected.len()];
    let mut problems = Vec::new();
    // The callers' notes are shown only: mlir-opt's verifier never sees
    // them.
    let flat = diagnostics
        .iter()
        .flat_map(|d| std::iter::once(d).chain(d.notes.iter()))
        .filter(|d| !(d.severity == Severity::Note && d.message == pld_ir::diag::CALLED_FROM));
    for diagnostic in flat {
        match match_one(expected, &mut matched, diagnostic, buffer_name) {
            Some((problem, Unmatched::Unexpected)) if only_expected => drop(problem),
            Some((problem, _)) => problems.push(problem),
            None => {}
        }
    }
    let unmatched = expected.iter().zip(&matched).filter(|(_, m)| !**m);
    let (located, unknown): (Vec<_>, Vec<_>) =
        unmatched.partition(|(e, _)| e.target != Target::Unknown);
    for (missing, _) in located.into_iter().chain(unknown) {
        problems.push(Problem {
            at: Some(missing.at.clone()),
            message: format!(
                "expected {} \"{}\" was not produced",
                missing.severity, missing.text
            ),
            width: missing.text.chars().count(),
        });
    }
    problems
}

/// Why a diagnostic matched no annotation.
enum Unmatched {
    /// One at its place has its text but another severity.
    Severity,
    /// None expects it.
    Unexpected,
}

/// Marks the annotations `diagnostic` satisfies; the problem when none
/// does.
fn match_one(
    expected: &[Expected],
    matched: &mut [bool],
    diagnostic: &Captured,
    buffer_name: &str,
) -> Option<(Problem, Unmatched)> {
    let place = match &diagnostic.position {
        None => Place::Unknown,
        Some(p) if display_file(&p.file, buffer_name) == buffer_name => Place::Line(p.line),
        Some(_) => Place::Elsewhere,
    };
    let here = |e: &Expected| match (&place, e.target) {
        (Place::Line(line), Target::Line(target)) => *line == target,
        (Place::Unknown, Target::Unknown) => true,
        _ => false,
    };
    let mut near_miss = None;
    for (index, e) in expected.iter().enumerate() {
        if !here(e) || !e.matches(&diagnostic.message) {
            continue;
        }
        if e.severity == diagnostic.severity {
            matched[index] = true;
            return None;
        }
        near_miss = Some(e);
    }
    Some(match near_miss {
        Some(e) => (
            Problem {
                at: Some(e.at.clone()),
                message: format!(
                    "'{}' diagnostic emitted when expecting a '{}'",
                    diagnostic.severity, e.severity
                ),
                width: 1,
            },
            Unmatched::Severity,
        ),
        None => (
            Problem {
                at: diagnostic.position.as_ref().map(|p| Position {
                    file: display_file(&p.file, buffer_name).to_string(),
                    ..p.clone()
                }),
                message: format!("unexpected {}: {}", diagnostic.severity, diagnostic.message),
                width: 1,
            },
            Unmatched::Unexpected,
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::split::Chunk;

    fn diagnostic(severity: Severity, file: &str, line: usize, message: &str) -> Captured {
        Captured {
            severity,
            position: Some(Position {
                file: file.into(),
                line,
                column: 3,
            }),
            message: message.into(),
            notes: vec![],
        }
    }

    fn expect(text: &str) -> Vec<Expected> {
        let chunk = Chunk {
            first_line: 10,
            text: text.to_string(),
        };
        let (expected, problems) = parse(&chunk, "f.mlir");
        assert!(problems.is_empty(), "{problems:?}");
        expected
    }

    #[test]
    fn matching() {
        let expected = expect("x\n// expected-error@-1 {{bad thing}}\n");
        let error = |line| diagnostic(Severity::Error, "-", line, "a bad thing here");
        assert!(check(&expected, &[error(10)], "f.mlir", false).is_empty());
        // One annotation covers every such diagnostic on its line.
        assert!(check(&expected, &[error(10), error(10)], "f.mlir", false).is_empty());
        let problems = check(&expected, &[error(11)], "f.mlir", false);
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert_eq!(problems[0].message, "unexpected error: a bad thing here");
        assert_eq!(problems[0].at.as_ref().unwrap().file, "f.mlir");
        assert_eq!(
            problems[1].message,
            "expected error \"bad thing\" was not produced"
        );
        let at = problems[1].at.as_ref().unwrap();
        assert_eq!((at.line, at.column, problems[1].width), (11, 4, 9));
        // In another file: nothing matches it, not even @unknown.
        let unknown = expect("// expected-error@unknown {{bad thing}}\n");
        let elsewhere = diagnostic(Severity::Error, "other.mlir", 10, "a bad thing");
        assert_eq!(check(&unknown, &[elsewhere], "f.mlir", false).len(), 2);
        // =only-expected: the unexpected one is not a problem, the missing
        // annotation still is.
        let problems = check(&expected, &[error(11)], "f.mlir", true);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].message.ends_with("was not produced"));
        assert!(check(&expected, &[error(10), error(12)], "f.mlir", true).is_empty());
    }

    #[test]
    fn near_miss_names_both_severities() {
        let expected = expect("x // expected-warning {{thing}}\n");
        let problems = check(
            &expected,
            &[diagnostic(Severity::Error, "f.mlir", 10, "a thing")],
            "f.mlir",
            false,
        );
        assert_eq!(
            problems[0].message,
            "'error' diagnostic emitted when expecting a 'warning'"
        );
        assert_eq!(problems[0].at.as_ref().unwrap().column, 6);
        assert!(problems[1].message.ends_with("was not produced"));
    }

    #[test]
    fn rendering_underlines_the_text() {
        let source = "x\n  // expected-error {{abc}}\n";
        let problem = Problem {
            at: Some(Position {
                file: "f.mlir".into(),
                line: 2,
                column: 6,
            }),
            message: "expected error \"abc\" was not produced".into(),
            width: 3,
        };
        assert_eq!(
            problem.render("f.mlir", Some(source)),
            "f.mlir:2:6: error: expected error \"abc\" was not produced\n\
             \x20 // expected-error {{abc}}\n\
             \x20    ^~~\n"
        );
        let nowhere = Problem {
            at: None,
            ..problem
        };
        assert_eq!(
            nowhere.render("f.mlir", Some(source)),
            "<unknown>:0: error: expected error \"abc\" was not produced\n"
        );
    }
}
