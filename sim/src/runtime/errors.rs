//! A run's error lines: each different error said once with how often it
//! came (an op's errors that differ in their numbers only, its stores at
//! three addresses or past three extents, are one), and the key that
//! groups errors across ranks and runs (the protocol explorer's findings).

/// The different errors a run lists; past them, only how many more came
/// (an error is a line of at most a few hundred bytes). The protocol
/// explorer groups a run's errors by kind, so a kernel with a fault at
/// every cell of 64 ranks (some ten thousand different errors) keeps them
/// all.
pub(crate) const MAX_ERRORS: usize = 100_000;

/// The run's errors, each said once with how often it came: a division by
/// zero in a loop of five million iterations made ten million lines and
/// grew the memory without bound.
/// An op's errors that differ in their numbers only (a store at 0x0,
/// 0x100, 0x200; elements 4..5, 5..6 past an extent; peers 64, 65) are one
/// error, said with the first; other errors differ in their addresses
/// only to be one.
#[derive(Default)]
pub(crate) struct Errors {
    said: Vec<String>,
    /// How often each of `said` came again, and whether with other
    /// numbers.
    repeats: Vec<(u64, bool)>,
    /// Each error's [`same`] key, to its index in `said`.
    index: std::collections::HashMap<String, usize>,
    /// Errors past [`MAX_ERRORS`] different ones.
    more: u64,
}

impl Errors {
    pub(crate) fn push(&mut self, error: String) {
        let key = same(&error);
        if let Some(&i) = self.index.get(&key) {
            let (again, elsewhere) = &mut self.repeats[i];
            *again += 1;
            *elsewhere |= self.said[i] != error;
        } else if self.said.len() >= MAX_ERRORS {
            self.more += 1;
        } else {
            self.index.insert(key, self.said.len());
            self.said.push(error);
            self.repeats.push((0, false));
        }
    }

    /// One line per different error (`... (5000000 times)` when it came
    /// again), and how many more there were.
    pub(crate) fn into_lines(self) -> Vec<String> {
        let mut lines: Vec<String> = self
            .said
            .into_iter()
            .zip(self.repeats)
            .map(|(error, again)| match again {
                (0, _) => error,
                (n, false) => format!("{error} ({} times)", n + 1),
                (n, true) => format!("{error} ({} times, with other numbers too)", n + 1),
            })
            .collect();
        if self.more > 0 {
            lines.push(format!(
                "{} more errors, not listed: the first {MAX_ERRORS} different ones are",
                self.more
            ));
        }
        lines
    }
}

/// An error line without the repeat count [`Errors`] adds to it (` (3
/// times)`, ` (3 times, with other numbers too)`).
pub fn without_count(error: &str) -> &str {
    let Some(at) = error.rfind(" (") else {
        return error;
    };
    let tail = &error[at + 2..];
    let count = tail
        .split(' ')
        .next()
        .is_some_and(|n| n.parse::<u64>().is_ok());
    match count && tail.ends_with(')') && tail.contains(" times") {
        true => &error[..at],
        false => error,
    }
}

/// The rank and the op's location an error of the run names, as
/// `runtime::run`'s `State::error`, `State::error_at` and `Fatal` write them
/// (`rank 1: k.mlir:5:3: pto.comm_tnotify: ...`), when it names them: for a
/// host that wants them apart from the text (the C API's findings,
/// Python's `RunError`).
pub fn error_place(error: &str) -> (Option<usize>, Option<&str>) {
    let Some((rank, rest)) = error
        .strip_prefix("rank ")
        .and_then(|rest| rest.split_once(": "))
    else {
        return (None, None);
    };
    let Ok(rank) = rank.parse() else {
        return (None, None);
    };
    let location = rest
        .split_once(": ")
        .map(|(place, _)| place)
        .filter(|place| is_location(place));
    (Some(rank), location)
}

/// Whether `place` is `file:line:col`.
fn is_location(place: &str) -> bool {
    pld_ir::loc::Position::parse(place).is_some()
}

/// What two errors of one run must share to be one: an error at an op
/// (`rank R: f.mlir:l:c: pto.tstore: ...`) its rank, place and op, and its
/// message without numbers ([`without_numbers`]); any other its text
/// without addresses.
fn same(error: &str) -> String {
    let place = error_place(error).1;
    match place.and_then(|p| Some(error.find(p)? + p.len())) {
        Some(at) => format!("{}{}", &error[..at], without_numbers(&error[at..])),
        None => without_addresses(error),
    }
}

/// What the protocol explorer's findings group a run's error by, across
/// ranks and schedules: its [`same`] key without its repeat count and its
/// rank numbers (one fault of every rank, at every cell, is one finding).
pub fn finding_key(error: &str) -> String {
    let bare = same(without_count(error));
    let mut key = String::with_capacity(bare.len());
    let mut rest = bare.as_str();
    while let Some(at) = rest.find("rank ") {
        key.push_str(&rest[..at + 5]);
        rest = &rest[at + 5..];
        // (`the rank count` names no rank.)
        if rest.starts_with(|c: char| c.is_ascii_digit() || c == '#') {
            key.push('?');
            rest = rest.trim_start_matches(|c: char| c.is_ascii_digit() || c == '#');
        }
    }
    key.push_str(rest);
    key
}

/// For each error, in order, what to add to it when a finding says it:
/// for the first of its [`finding_key`], the other ranks that had the
/// same fault (` (also on rank 2)`, ` (also on ranks 2, 3)`; their numbers
/// may differ), else nothing (the later ones are the same finding).
pub fn also_on_other_ranks(errors: &[String]) -> Vec<String> {
    let keys: Vec<String> = errors.iter().map(|e| finding_key(e)).collect();
    let mut out = Vec::with_capacity(errors.len());
    for (index, error) in errors.iter().enumerate() {
        let first = !keys[..index].contains(&keys[index]);
        let own = leading_rank(error);
        let mut ranks: Vec<&str> = Vec::new();
        for other in (index + 1..errors.len()).filter(|&o| first && keys[o] == keys[index]) {
            match leading_rank(&errors[other]) {
                Some(rank) if Some(rank) != own && !ranks.contains(&rank) => ranks.push(rank),
                _ => {}
            }
        }
        out.push(match ranks.as_slice() {
            [] => String::new(),
            [one] => format!(" (also on rank {one})"),
            _ => format!(" (also on ranks {})", ranks.join(", ")),
        });
    }
    out
}

/// The `N` of the `rank N: ` an error of the run begins with.
fn leading_rank(error: &str) -> Option<&str> {
    let rest = error.strip_prefix("rank ")?;
    let end = rest.find(|c: char| !c.is_ascii_digit())?;
    (end > 0 && rest[end..].starts_with(':')).then(|| &rest[..end])
}

/// `text` with every number that is a word of its own taken out: decimal
/// (`64`, the `4` and `5` of `4..5`, `-1`'s digits) and `0x...` (not the
/// `32` of `i32`, the `10` of `10x10xf32` after an `x`).
pub fn without_numbers(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut previous: Option<char> = None;
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        let starts_word = !previous.is_some_and(|p| p.is_ascii_alphanumeric() || p == '_');
        if starts_word && c.is_ascii_digit() {
            let hex = text[at..].starts_with("0x");
            let mut end = at + if hex { 2 } else { 1 };
            while let Some(&(i, d)) = chars.peek() {
                let digit = if hex {
                    d.is_ascii_hexdigit()
                } else {
                    d.is_ascii_digit()
                };
                if i < end || digit {
                    end = i + d.len_utf8();
                    chars.next();
                } else {
                    break;
                }
            }
            out.push('#');
            previous = Some('#');
            continue;
        }
        out.push(c);
        previous = Some(c);
    }
    out
}

/// `text` with the digits of every `0x...` number taken out (a word of
/// its own: not the `0x1` of `10x10xf32`).
pub fn without_addresses(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("0x") {
        let before = rest[..at].chars().last().or_else(|| out.chars().last());
        let word = !before.is_some_and(|c| c.is_ascii_alphanumeric());
        out.push_str(&rest[..at + 2]);
        rest = &rest[at + 2..];
        if word {
            rest = rest.trim_start_matches(|c: char| c.is_ascii_hexdigit());
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_that_comes_again_is_said_once_with_its_count() {
        let mut errors = Errors::default();
        for _ in 0..3 {
            errors.push("rank 0: k.mlir:3:8: arith.remui: divides by zero".into());
        }
        errors.push("rank 1: other".into());
        for i in 0..MAX_ERRORS + 5 {
            errors.push(format!("rank 2: error {i}"));
        }
        let lines = errors.into_lines();
        assert_eq!(
            lines[0],
            "rank 0: k.mlir:3:8: arith.remui: divides by zero (3 times)"
        );
        assert_eq!(lines[1], "rank 1: other");
        assert_eq!(lines.len(), MAX_ERRORS + 1);
        // One op's stores at three addresses are one error (they were three
        // lines: explore25 LOW 1).
        let mut errors = Errors::default();
        for address in ["0x0", "0x100", "0x200"] {
            errors.push(format!(
                "rank 3: k.mlir:20:5: pto.tstore: a store at address {address}"
            ));
        }
        errors.push("rank 3: k.mlir:20:5: pto.tstore: a store at address 0x0".into());
        assert_eq!(
            without_addresses("tensor<10x10xf32> at 0x1f0, 0xA"),
            "tensor<10x10xf32> at 0x, 0x"
        );
        assert_eq!(
            errors.into_lines(),
            ["rank 3: k.mlir:20:5: pto.tstore: a store at address 0x0 (4 times, with other numbers too)"]
        );
        // And an op's stores past its tensor at other elements (they were
        // a line each: recheck25c M2), not another op's or rank's.
        let mut errors = Errors::default();
        let past = |rank, line, from| {
            format!("rank {rank}: k.mlir:{line}:5: pto.tstore: elements {from}..{} of dimension 0, which holds 4", from + 1)
        };
        for from in 4..8 {
            errors.push(past(0, 9, from));
        }
        errors.push(past(1, 9, 4));
        errors.push(past(0, 10, 4));
        assert_eq!(
            errors.into_lines(),
            [
                format!("{} (4 times, with other numbers too)", past(0, 9, 4)),
                past(1, 9, 4),
                past(0, 10, 4)
            ]
        );
        assert_eq!(
            without_numbers("peer 64 of i32 0x7f1a at 4..5, -1 in 10x10xf32"),
            "peer # of i32 # at #..#, -# in #x10xf32"
        );
        assert_eq!(
            lines[MAX_ERRORS],
            "7 more errors, not listed: the first 100000 different ones are"
        );
    }
}
