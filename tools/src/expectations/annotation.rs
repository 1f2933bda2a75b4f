//! The annotations' syntax, read the way `mlir-opt` 22 reads it.
//!
//! An annotation is `expected-<severity>[-re][ *@<where>] *{{<text>}}` at
//! the end of its line (trailing white space aside); the spaces are spaces
//! only. `<severity>` is `error`, `warning`, `note` or `remark`; `<where>`
//! is `+N` / `-N` (decimal; `mlir-opt` reads a leading `0` as octal, so
//! pld refuses one), `above` / `below` (the nearest line that is not an
//! annotation) or `unknown`. `<text>` runs from the first `{{` to the last
//! `}}` of the line. With `-re`, each `{{...}}` inside `<text>` is a regular
//! expression and the rest is literal.
//!
//! `mlir-opt` silently ignores a line whose `expected-<severity>` does not
//! fit this form, so such an annotation can never fail; pld reports it.

use super::{Expected, Matcher, Problem, Target};
use crate::split::Chunk;
use pld_ir::diag::{Position, Severity};

const PREFIX: &str = "expected-";

const SEVERITIES: [(&str, Severity); 4] = [
    ("error", Severity::Error),
    ("warning", Severity::Warning),
    ("note", Severity::Note),
    ("remark", Severity::Remark),
];

/// Where an annotation says its diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Designator {
    /// No `@`: the annotation's own line.
    Here,
    /// `@+N` / `@-N`.
    Offset(i64),
    Above,
    Below,
    Unknown,
}

/// An annotation as written.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Raw<'a> {
    severity: Severity,
    regex: bool,
    designator: Designator,
    text: &'a str,
}

/// What follows one `expected-` of a line.
enum Read<'a> {
    /// Not `expected-<severity>`: no annotation.
    NotOne,
    Annotation(Raw<'a>),
    /// `expected-<severity>` in a form `mlir-opt` does not read: why.
    Malformed(String),
}

/// Reads the annotations of a chunk: the expectations, and a problem for
/// each annotation that is malformed or whose regular expression is not
/// valid (those are left out, as `mlir-opt` leaves them out).
pub fn parse(chunk: &Chunk, buffer_name: &str) -> (Vec<Expected>, Vec<Problem>) {
    let lines: Vec<&str> = chunk.text.lines().map(str::trim_end).collect();
    let reads: Vec<Option<(usize, Result<Raw, String>)>> =
        lines.iter().map(|line| read_line(line)).collect();
    let mut expected = Vec::new();
    let mut problems = Vec::new();
    for (index, read) in reads.iter().enumerate() {
        let Some((byte, read)) = read else {
            continue;
        };
        let at = Position {
            file: buffer_name.to_string(),
            line: chunk.first_line + index,
            column: lines[index][..*byte].chars().count() + 1,
        };
        let problem = |message: String, width: usize| Problem {
            at: Some(at.clone()),
            message,
            width,
        };
        let raw = match read {
            Ok(raw) => raw,
            Err(message) => {
                problems.push(problem(message.clone(), 1));
                continue;
            }
        };
        let is_annotation = |i: usize| reads[i].is_some();
        let target = match resolve(raw.designator, index, lines.len(), &is_annotation) {
            Ok(Some(target)) => target.map(|i| chunk.first_line + i),
            Ok(None) => Target::Unknown,
            Err(message) => {
                problems.push(problem(message, 1));
                continue;
            }
        };
        let matcher = match raw.regex {
            false => Matcher::Substring,
            true => match regex(raw.text) {
                Ok(regex) => Matcher::Regex(regex),
                Err(message) => {
                    problems.push(problem(message, raw.text.len()));
                    continue;
                }
            },
        };
        expected.push(Expected {
            severity: raw.severity,
            target,
            text: raw.text.to_string(),
            matcher,
            at: at.clone(),
        });
    }
    (expected, problems)
}

/// The annotation of a line, if it has one, and the byte where its
/// `expected-` starts: the first `expected-` that reads as one (as the
/// search of `mlir-opt`'s pattern finds it), else the first that is
/// `expected-<severity>` but malformed.
fn read_line(line: &str) -> Option<(usize, Result<Raw<'_>, String>)> {
    let mut malformed = None;
    for (start, _) in line.match_indices(PREFIX) {
        match read_at(&line[start + PREFIX.len()..]) {
            Read::NotOne => {}
            Read::Annotation(raw) => return Some((start, Ok(raw))),
            Read::Malformed(why) => {
                malformed.get_or_insert((start, Err(why)));
            }
        }
    }
    malformed
}

/// Reads what follows `expected-`.
fn read_at(rest: &str) -> Read<'_> {
    let Some((severity, rest)) = SEVERITIES
        .iter()
        .find_map(|(word, severity)| rest.strip_prefix(word).map(|r| (*severity, r)))
    else {
        return Read::NotOne;
    };
    let (regex, rest) = match rest.strip_prefix("-re") {
        Some(rest) => (true, rest),
        None => (false, rest),
    };
    if rest.starts_with(|c: char| c.is_alphanumeric() || c == '_' || c == '-') {
        // `expected-errors`, `expected-error-prone`: another word.
        return Read::NotOne;
    }
    let rest = rest.trim_start_matches(' ');
    let (designator, rest) = match rest.strip_prefix('@') {
        None => (Designator::Here, rest),
        Some(after) => {
            let end = after.find([' ', '{']).unwrap_or(after.len());
            match designator(&after[..end]) {
                Ok(designator) => (designator, &after[end..]),
                Err(why) => return Read::Malformed(why),
            }
        }
    };
    let Some(body) = rest.trim_start_matches(' ').strip_prefix("{{") else {
        return Read::Malformed(
            "expected '{{<message>}}' after the annotation, separated by spaces only \
             (mlir-opt ignores this line, so the annotation could never fail)"
                .into(),
        );
    };
    match body.strip_suffix("}}") {
        Some(text) => Read::Annotation(Raw {
            severity,
            regex,
            designator,
            text,
        }),
        None => Read::Malformed(
            "an annotation's '}}' ends its line (mlir-opt ignores this line, so the \
             annotation could never fail)"
                .into(),
        ),
    }
}

const DESIGNATORS: &str = "@+N, @-N, @above, @below or @unknown";

/// Reads the word after `@`.
fn designator(word: &str) -> Result<Designator, String> {
    match word {
        "above" => return Ok(Designator::Above),
        "below" => return Ok(Designator::Below),
        "unknown" => return Ok(Designator::Unknown),
        "*" => {
            return Err(format!(
                "'@*' is clang's -verify syntax, which mlir-opt 22 does not read (it ignores \
                 this line): use @unknown for a diagnostic without a location, or {DESIGNATORS}"
            ))
        }
        _ if word.starts_with('#') => {
            return Err(format!(
                "'@{word}' is a clang -verify marker, which mlir-opt 22 does not read (it \
                 ignores this line): use {DESIGNATORS}"
            ))
        }
        _ => {}
    }
    let bad = || {
        format!("bad location designator '@{word}': use {DESIGNATORS} (mlir-opt ignores this line)")
    };
    let (sign, digits) = match word.split_at_checked(1) {
        Some(("+", digits)) => (1, digits),
        Some(("-", digits)) => (-1, digits),
        _ => return Err(bad()),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    if digits.len() > 1 && digits.starts_with('0') {
        return Err(format!(
            "'@{word}': mlir-opt reads a number with a leading 0 as octal; write it without \
             the 0"
        ));
    }
    let lines: i64 = digits.parse().map_err(|_| bad())?;
    Ok(Designator::Offset(sign * lines))
}

/// The chunk line (0-based index) a designator names, from the
/// annotation's `index` (`None` for `@unknown`); `@above` and `@below`
/// skip lines that are annotations themselves.
fn resolve(
    designator: Designator,
    index: usize,
    count: usize,
    is_annotation: &dyn Fn(usize) -> bool,
) -> Result<Option<Target>, String> {
    let line = match designator {
        Designator::Unknown => return Ok(None),
        Designator::Here => Some(index),
        Designator::Offset(delta) => {
            let line = i64::try_from(index).ok().and_then(|i| i.checked_add(delta));
            return match line.and_then(|l| usize::try_from(l).ok()) {
                Some(line) => Ok(Some(Target::Line(line))),
                None => Err(format!(
                    "'@{delta:+}' points above the first line of the input (under \
                     --split-input-file, of its chunk)"
                )),
            };
        }
        Designator::Above => (0..index).rev().find(|i| !is_annotation(*i)),
        Designator::Below => (index + 1..count).find(|i| !is_annotation(*i)),
    };
    match (line, designator) {
        (Some(line), _) => Ok(Some(Target::Line(line))),
        (None, Designator::Above) => Err(
            "'@above' finds no line above it that is not an annotation (under \
             --split-input-file, in its chunk)"
                .into(),
        ),
        (None, _) => Err(
            "'@below' finds no line below it that is not an annotation (under \
             --split-input-file, in its chunk)"
                .into(),
        ),
    }
}

/// The regular expression of an `-re` annotation's text: each `{{...}}` a
/// regular expression (checked on its own), the rest literal.
fn regex(text: &str) -> Result<regex::Regex, String> {
    let mut pattern = String::new();
    let mut rest = text;
    while let Some(open) = rest.find("{{") {
        pattern.push_str(&regex::escape(&rest[..open]));
        rest = &rest[open + 2..];
        let close = rest
            .find("}}")
            .ok_or("found start of regex with no end '}}'")?;
        let piece = &rest[..close];
        regex::Regex::new(piece).map_err(|e| format!("invalid regex: {}", regex_error(&e)))?;
        pattern.push('(');
        pattern.push_str(piece);
        pattern.push(')');
        rest = &rest[close + 2..];
    }
    pattern.push_str(&regex::escape(rest));
    regex::RegexBuilder::new(&pattern)
        .dot_matches_new_line(true)
        .build()
        .map_err(|e| format!("invalid regex: {}", regex_error(&e)))
}

/// The reason of a regex error, without the pattern the crate repeats.
fn regex_error(error: &regex::Error) -> String {
    let text = error.to_string();
    text.lines()
        .rev()
        .find_map(|l| l.trim().strip_prefix("error: "))
        .unwrap_or(text.lines().last().unwrap_or_default())
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunk(text: &str) -> Chunk {
        Chunk {
            first_line: 10,
            text: text.to_string(),
        }
    }

    fn lines(expected: &[Expected]) -> Vec<Target> {
        expected.iter().map(|e| e.target).collect()
    }

    #[test]
    fn designators() {
        let (parsed, problems) = parse(
            &chunk(
                "a // expected-error {{own}}\n\
                 // expected-warning@+1 {{plus}}\n\
                 b\n\
                 // expected-note @above {{above}}\n\
                 // expected-error@below {{below}}\n\
                 // expected-remark  @-2   {{minus}}\n\
                 c\n\
                 // expected-error@unknown {{nowhere}}\n",
            ),
            "f.mlir",
        );
        assert!(problems.is_empty(), "{problems:?}");
        use Target::{Line, Unknown};
        assert_eq!(
            lines(&parsed),
            vec![Line(10), Line(12), Line(12), Line(16), Line(13), Unknown]
        );
        assert_eq!(parsed[1].severity, Severity::Warning);
        assert_eq!(parsed[0].text, "own");
        assert_eq!((parsed[0].at.line, parsed[0].at.column), (10, 6));
    }

    #[test]
    fn text_runs_to_the_last_braces() {
        let (parsed, _) = parse(&chunk("// expected-error {{a}} b {{c}}  \n"), "f");
        assert_eq!(parsed[0].text, "a}} b {{c");
        // The first `expected-` that reads as an annotation is the one.
        let (parsed, problems) = parse(&chunk("// expected-errors and expected-note {{x}}\n"), "f");
        assert!(problems.is_empty());
        assert_eq!(parsed[0].severity, Severity::Note);
    }

    #[test]
    fn regex_pieces() {
        let (parsed, problems) = parse(
            &chunk("// expected-error-re {{op (@{{[a-z]+}}) has {{[0-9]}} results.}}\n"),
            "f",
        );
        assert!(problems.is_empty(), "{problems:?}");
        let e = &parsed[0];
        assert!(e.matches("'func.return' op (@foo) has 2 results."));
        // The parts outside {{ }} are literal: '(' and '.' match themselves.
        assert!(!e.matches("op x@foo) has 2 results."));
        assert!(!e.matches("op (@foo) has 2 resultsX"));
        assert!(!e.matches("op (@Foo) has 2 results."));
        let (parsed, _) = parse(&chunk("// expected-error {{a{{.*}}b}}\n"), "f");
        assert!(parsed[0].matches("xa{{.*}}bx") && !parsed[0].matches("a-b"));
    }

    #[test]
    fn malformed_annotations_are_problems() {
        for text in [
            "// expected-error @+x {{a}}\n",
            "// expected-error no braces\n",
            "// expected-error {{a}} trailing\n",
            "// expected-error\t{{a}}\n",
            "// expected-error@#marker {{a}}\n",
            "// expected-error@* {{a}}\n",
            "// expected-error@+010 {{a}}\n",
            "// expected-error-re {{a{{x}}\n",
            "// expected-error-re {{{{[}}}}\n",
            "x\n// expected-error@-9 {{a}}\n",
            "// expected-error@above {{a}}\n",
            "// expected-error@below {{a}}\n",
        ] {
            let (parsed, problems) = parse(&chunk(text), "f");
            assert!(
                parsed.is_empty() && problems.len() == 1,
                "{text}: {problems:?}"
            );
        }
        // Not annotations at all, as in mlir-opt.
        for text in ["// expected-bogus {{a}}\n", "// expected-errors {{a}}\n"] {
            let (parsed, problems) = parse(&chunk(text), "f");
            assert!(parsed.is_empty() && problems.is_empty(), "{text}");
        }
    }
}
