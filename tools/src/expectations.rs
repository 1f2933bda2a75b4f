//! `--verify-diagnostics`: checks the diagnostics of a chunk against the
//! `expected-error`, `expected-warning`, `expected-note` and
//! `expected-remark` annotations in its comments, as MLIR's tools do.
//!
//! An annotation is `expected-<severity>[@<where>] {{<text>}}` where
//! `<where>` is `+N` / `-N` (lines below / above), `above` / `below` (the
//! nearest line that is not itself an annotation) or `unknown` (a
//! diagnostic without a location); without `@` it is the annotation's own
//! line. A diagnostic matches when its severity and line agree and `<text>`
//! occurs in its message.

use crate::split::Chunk;
use pld_ir::diag::{display_file, Captured, Severity};

/// One annotation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expected {
    pub severity: Severity,
    /// Line the diagnostic must be on; `None` for `@unknown`.
    pub line: Option<usize>,
    pub text: String,
    /// Line of the annotation itself.
    pub source_line: usize,
}

const DESIGNATOR: &str = "expected-";

/// Reads the annotations of a chunk. Malformed annotations are errors.
pub fn parse(chunk: &Chunk) -> Result<Vec<Expected>, Vec<(usize, String)>> {
    let lines: Vec<&str> = chunk.text.lines().collect();
    let line_no = |index: usize| chunk.first_line + index;
    let is_designator = |index: usize| lines.get(index).is_some_and(|l| l.contains(DESIGNATOR));
    let mut expected = Vec::new();
    let mut errors = Vec::new();
    for (index, line) in lines.iter().enumerate() {
        let Some(start) = line.find(DESIGNATOR) else {
            continue;
        };
        let rest = &line[start + DESIGNATOR.len()..];
        let (severity, rest) = match [
            ("error", Severity::Error),
            ("warning", Severity::Warning),
            ("note", Severity::Note),
            ("remark", Severity::Remark),
        ]
        .into_iter()
        .find(|(word, _)| rest.starts_with(word))
        {
            Some((word, severity)) => (severity, &rest[word.len()..]),
            None => {
                errors.push((line_no(index), "unknown expected-* annotation".to_string()));
                continue;
            }
        };
        if rest.starts_with("-re") {
            errors.push((
                line_no(index),
                "expected-*-re annotations are not supported; use a plain substring".to_string(),
            ));
            continue;
        }
        let rest = rest.trim_start();
        let (target, rest) = match rest.strip_prefix('@') {
            None => (Some(line_no(index)), rest),
            Some(after) => {
                let end = after
                    .find(|c: char| c.is_whitespace() || c == '{')
                    .unwrap_or(after.len());
                let (word, rest) = after.split_at(end);
                let target = match word {
                    "unknown" => None,
                    "above" => (0..index).rev().find(|i| !is_designator(*i)).map(line_no),
                    "below" => (index + 1..lines.len())
                        .find(|i| !is_designator(*i))
                        .map(line_no),
                    offset => match offset.parse::<i64>() {
                        Ok(delta) if offset.starts_with(['+', '-']) => {
                            usize::try_from(line_no(index) as i64 + delta).ok()
                        }
                        _ => {
                            errors.push((
                                line_no(index),
                                format!("bad location designator '@{offset}'"),
                            ));
                            continue;
                        }
                    },
                };
                if target.is_none() && word != "unknown" {
                    errors.push((
                        line_no(index),
                        format!("'@{word}' points outside the input"),
                    ));
                    continue;
                }
                (target, rest)
            }
        };
        let rest = rest.trim_start();
        let text = rest
            .strip_prefix("{{")
            .and_then(|r| r.rfind("}}").map(|end| &r[..end]));
        match text {
            Some(text) => expected.push(Expected {
                severity,
                line: target,
                text: text.to_string(),
                source_line: line_no(index),
            }),
            None => errors.push((
                line_no(index),
                "expected '{{message}}' after the annotation".to_string(),
            )),
        }
    }
    if errors.is_empty() {
        Ok(expected)
    } else {
        Err(errors)
    }
}

/// Compares `diagnostics` with `expected`. Returns one error line per
/// unexpected diagnostic and per annotation that was not produced.
pub fn check(
    mut expected: Vec<Expected>,
    diagnostics: &[Captured],
    buffer_name: &str,
) -> Vec<String> {
    let mut problems = Vec::new();
    let mut flat = Vec::new();
    for diagnostic in diagnostics {
        flat.push(diagnostic);
        flat.extend(diagnostic.notes.iter());
    }
    for diagnostic in flat {
        let line = diagnostic
            .position
            .as_ref()
            .filter(|p| display_file(&p.file, buffer_name) == buffer_name)
            .map(|p| p.line);
        let found = expected.iter().position(|e| {
            e.severity == diagnostic.severity
                && e.line == line
                && diagnostic.message.contains(&e.text)
        });
        match found {
            Some(index) => {
                expected.remove(index);
            }
            None => {
                let mut lone = diagnostic.clone();
                lone.notes.clear();
                problems.push(format!(
                    "{}: error: unexpected {}: {}",
                    pld_ir::diag::where_(&lone.position, buffer_name),
                    lone.severity,
                    lone.message
                ));
            }
        }
    }
    for missing in expected {
        let at = match missing.line {
            Some(line) => format!("line {line}"),
            None => "an unknown location".to_string(),
        };
        problems.push(format!(
            "{buffer_name}:{}: error: expected {} \"{}\" at {at} was not produced",
            missing.source_line, missing.severity, missing.text
        ));
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;
    use pld_ir::diag::Position;

    fn chunk(text: &str) -> Chunk {
        Chunk {
            first_line: 10,
            text: text.to_string(),
        }
    }

    #[test]
    fn designators() {
        let parsed = parse(&chunk(
            "a // expected-error {{own}}\n\
             // expected-warning@+1 {{plus}}\n\
             b\n\
             // expected-note @above {{above}}\n\
             // expected-error@below {{below}}\n\
             // expected-remark@-2 {{minus}}\n\
             c\n\
             // expected-error@unknown {{nowhere}}\n",
        ))
        .unwrap();
        let lines: Vec<_> = parsed.iter().map(|e| e.line).collect();
        assert_eq!(
            lines,
            vec![Some(10), Some(12), Some(12), Some(16), Some(13), None]
        );
        assert_eq!(parsed[1].severity, Severity::Warning);
        assert_eq!(parsed[0].text, "own");
    }

    #[test]
    fn malformed_annotations_are_errors() {
        assert!(parse(&chunk("// expected-error @+x {{a}}\n")).is_err());
        assert!(parse(&chunk("// expected-error no braces\n")).is_err());
        assert!(parse(&chunk("// expected-bogus {{a}}\n")).is_err());
    }

    #[test]
    fn matching() {
        let expected = parse(&chunk("x\n// expected-error@-1 {{bad thing}}\n")).unwrap();
        let diagnostic = |line, message: &str| Captured {
            severity: Severity::Error,
            position: Some(Position {
                file: "-".into(),
                line,
                column: 3,
            }),
            message: message.into(),
            notes: vec![],
        };
        assert!(check(
            expected.clone(),
            &[diagnostic(10, "a bad thing here")],
            "f.mlir"
        )
        .is_empty());
        let problems = check(expected, &[diagnostic(11, "a bad thing here")], "f.mlir");
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(problems[0].starts_with("f.mlir:11:3: error: unexpected error: a bad thing"));
        assert!(problems[1].contains("was not produced"));
    }
}
