//! The nesting guard: how deeply a text makes MLIR's parser, verifier and
//! printer recurse, measured before MLIR sees the text.
//!
//! MLIR recurses once per level of every bracket kind its parser nests on
//! (`(`, `[`, `{` with regions, and `<` of types and attributes), once per
//! operator of an affine expression written in a row (`d0 + d0 + ...`,
//! `- - d0`), and through aliases (`#a1 = [#a0]` nests `#a0` one level
//! deeper without any bracket on its line). [`too_deep`] counts all three
//! the way MLIR's lexer splits the text: outside string literals and
//! comments, `->` is an arrow (no bracket), `<=` and `>=` of an integer set
//! compare (no bracket), and a `%`, `@` or `^` name is one token, `-`
//! included.

use std::collections::HashMap;

/// The deepest nesting a text may have. MLIR's parser, verifier and printer
/// recurse once per level of regions, attributes, types and expressions;
/// past a few thousand levels they overflow the stack and abort the
/// process. This limit leaves them a wide margin on an 8 MiB stack.
pub const MAX_NESTING: usize = 1000;

/// The stack a thread needs to parse, verify, lower and print text that
/// nests [`MAX_NESTING`] levels deep: Linux's default for a main thread
/// (about twice what the deepest kinds take in a debug build). A thread
/// pld starts for such work (the Python package's worker) gets this much;
/// Rust's default of 2 MiB for other threads is not enough.
pub const STACK_BYTES: usize = 8 << 20;

/// What nests too deeply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Nesting {
    /// Brackets of any kind: `(`, `[`, `{` (regions too) and `<`.
    Brackets,
    /// An affine expression's operators in a row, on top of its brackets.
    Operators,
    /// A use of this alias (`#name` or `!name`), counted as deep as its
    /// definition nests.
    Alias(String),
}

/// Where a text first nests deeper than [`MAX_NESTING`] levels.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TooDeep {
    /// 1-based line of the token that goes too deep.
    pub line: usize,
    /// 1-based byte column of that token.
    pub column: usize,
    /// What nests there.
    pub nesting: Nesting,
}

impl std::fmt::Display for TooDeep {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let what = match &self.nesting {
            Nesting::Brackets => "levels of brackets, regions, types or attributes".to_string(),
            Nesting::Operators => {
                "levels of brackets and affine expression operators (each operator in a row \
                 nests the expression one level deeper)"
                    .to_string()
            }
            Nesting::Alias(name) => {
                format!("levels with alias '{name}' expanded (an alias nests as deeply as its definition)")
            }
        };
        write!(
            f,
            "nesting deeper than {MAX_NESTING} {what}; pld's parser accepts at most {MAX_NESTING}"
        )
    }
}

/// The first place `text` nests deeper than [`MAX_NESTING`] levels of
/// brackets, affine operators and aliases, outside string literals and
/// comments; `None` when it nests less deeply.
pub fn too_deep(text: &[u8]) -> Option<TooDeep> {
    let mut scanner = Scanner::new(text);
    while scanner.at < text.len() {
        if let Err(too_deep) = scanner.step() {
            return Some(too_deep);
        }
    }
    None
}

/// The kinds of opening bracket.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Bracket {
    Paren,
    Square,
    Brace,
    Angle,
}

impl Bracket {
    fn index(self) -> usize {
        match self {
            Bracket::Paren => 0,
            Bracket::Square => 1,
            Bracket::Brace => 2,
            Bracket::Angle => 3,
        }
    }
}

/// One nesting level: the bracket that opened it (none at the top) and how
/// many operators are in a row in its current expression.
struct Level {
    bracket: Option<Bracket>,
    chain: usize,
}

/// The alias whose definition is being read.
struct Definition<'t> {
    key: &'t [u8],
    deepest: usize,
    /// Whether its value has begun (a token after the `=`).
    started: bool,
    /// A line ended at the top level after the value: the definition ends
    /// unless the next token is the `:` of a typed attribute.
    ending: bool,
}

/// The scanner's state: position, open levels and the aliases seen.
struct Scanner<'t> {
    text: &'t [u8],
    at: usize,
    /// Where the current token starts.
    start: usize,
    line: usize,
    line_start: usize,
    /// The open levels, the top level first.
    levels: Vec<Level>,
    /// Sum of the levels' chains.
    chains: usize,
    /// Open brackets per kind ([`Bracket::index`]).
    open: [usize; 4],
    /// How deeply every alias defined so far nests, by `#name` or `!name`.
    aliases: HashMap<&'t [u8], usize>,
    defining: Option<Definition<'t>>,
    /// The last byte of the last token (`:` keeps a definition going).
    last: u8,
}

/// An error where the text goes too deep.
type Step = Result<(), TooDeep>;

impl<'t> Scanner<'t> {
    fn new(text: &'t [u8]) -> Self {
        let top = Level {
            bracket: None,
            chain: 0,
        };
        Scanner {
            text,
            at: 0,
            start: 0,
            line: 1,
            line_start: 0,
            levels: vec![top],
            chains: 0,
            open: [0; 4],
            aliases: HashMap::new(),
            defining: None,
            last: 0,
        }
    }

    fn peek(&self, offset: usize) -> u8 {
        self.text.get(self.at + offset).copied().unwrap_or(0)
    }

    fn skip_while(&mut self, keep: impl Fn(u8) -> bool) {
        while self.at < self.text.len() && keep(self.text[self.at]) {
            self.at += 1;
        }
    }

    /// How deeply the text nests here: brackets plus operator chains.
    fn depth(&self) -> usize {
        self.levels.len() - 1 + self.chains
    }

    /// Refuses the current token when `depth` is too deep.
    fn check(&mut self, depth: usize, nesting: Nesting) -> Step {
        if let Some(definition) = self.defining.as_mut() {
            definition.deepest = definition.deepest.max(depth);
        }
        if depth <= MAX_NESTING {
            return Ok(());
        }
        Err(TooDeep {
            line: self.line,
            column: self.start - self.line_start + 1,
            nesting,
        })
    }

    /// Reads one token, white space or comment.
    fn step(&mut self) -> Step {
        let byte = self.peek(0);
        self.start = self.at;
        match byte {
            b'\n' => self.newline(),
            b' ' | b'\t' | b'\r' => self.at += 1,
            b'/' if self.peek(1) == b'/' => self.skip_while(|b| b != b'\n'),
            _ => {
                self.significant(byte);
                self.token(byte)?;
                self.last = self.text[self.at - 1];
            }
        }
        Ok(())
    }

    /// A line ends: a definition whose value is complete may end with it.
    fn newline(&mut self) {
        self.at += 1;
        (self.line, self.line_start) = (self.line + 1, self.at);
        let top = self.levels.len() == 1;
        if let Some(definition) = self.defining.as_mut() {
            if top && definition.started && self.last != b':' {
                definition.ending = true;
            }
        }
    }

    /// A token starting with `byte` begins: the value of a definition
    /// begins, or a definition ends before it.
    fn significant(&mut self, byte: u8) {
        let Some(definition) = self.defining.as_mut() else {
            return;
        };
        definition.started = true;
        if definition.ending && byte != b':' {
            self.end_definition();
        } else {
            definition.ending = false;
        }
    }

    fn end_definition(&mut self) {
        if let Some(definition) = self.defining.take() {
            self.aliases.insert(definition.key, definition.deepest);
        }
    }

    fn token(&mut self, byte: u8) -> Step {
        match byte {
            b'"' => self.string(),
            b'#' | b'!' if is_name_start(self.peek(1)) => return self.alias(),
            b'%' | b'@' | b'^' => {
                self.at += 1;
                self.skip_while(is_suffix_char);
            }
            b'-' if self.peek(1) == b'>' => self.at += 2,
            b'<' | b'>' if self.peek(1) == b'=' && self.compares(byte) => {
                self.at += 2;
                self.separator();
            }
            b'(' => return self.push(Bracket::Paren),
            b'[' => return self.push(Bracket::Square),
            b'{' => return self.push(Bracket::Brace),
            b'<' => return self.push(Bracket::Angle),
            b')' => self.close(Bracket::Paren),
            b']' => self.close(Bracket::Square),
            b'}' => self.close(Bracket::Brace),
            b'>' => self.close(Bracket::Angle),
            b'+' | b'-' | b'*' => {
                self.at += 1;
                return self.operator();
            }
            b',' | b':' | b'=' => {
                self.at += 1;
                self.separator();
            }
            _ if is_name_start(byte) => return self.word(),
            _ if byte.is_ascii_digit() => self.skip_while(is_number_char),
            _ => self.at += 1,
        }
        Ok(())
    }

    /// A string literal, up to its closing quote or the end of its line
    /// (where MLIR's lexer stops too).
    fn string(&mut self) {
        self.at += 1;
        while self.at < self.text.len() {
            match self.text[self.at] {
                b'\n' => return,
                b'"' => {
                    self.at += 1;
                    return;
                }
                b'\\' if self.peek(1) != b'\n' => self.at += 2,
                _ => self.at += 1,
            }
        }
        self.at = self.at.min(self.text.len());
    }

    /// A bare word: an affine operator (`floordiv`, `ceildiv`, `mod`) or
    /// anything else (a keyword, a type, an op name).
    fn word(&mut self) -> Step {
        self.skip_while(|b| is_name_start(b) || b.is_ascii_digit() || b == b'$' || b == b'.');
        match &self.text[self.start..self.at] {
            b"floordiv" | b"ceildiv" | b"mod" => self.operator(),
            _ => Ok(()),
        }
    }

    /// Whether `<=` or `>=` here compares (in an integer set's
    /// constraints) rather than opening or closing a bracket.
    fn compares(&self, byte: u8) -> bool {
        byte == b'<' || self.levels.last().and_then(|level| level.bracket) != Some(Bracket::Angle)
    }

    fn push(&mut self, bracket: Bracket) -> Step {
        self.at += 1;
        self.levels.push(Level {
            bracket: Some(bracket),
            chain: 0,
        });
        self.open[bracket.index()] += 1;
        self.check(self.depth(), Nesting::Brackets)
    }

    /// Closes the innermost open `bracket` and every level opened inside
    /// it; a bracket that closes nothing (a `>` that is no bracket) is
    /// ignored.
    fn close(&mut self, bracket: Bracket) {
        self.at += 1;
        if self.open[bracket.index()] == 0 {
            return;
        }
        while let Some(Level {
            bracket: Some(kind),
            chain,
        }) = self.levels.pop()
        {
            self.chains -= chain;
            self.open[kind.index()] -= 1;
            if kind == bracket {
                break;
            }
        }
    }

    /// One more operator in the current expression.
    fn operator(&mut self) -> Step {
        if let Some(level) = self.levels.last_mut() {
            level.chain += 1;
        }
        self.chains += 1;
        self.check(self.depth(), Nesting::Operators)
    }

    /// A `,`, `:`, `=` or comparison ends the current expression.
    fn separator(&mut self) {
        if let Some(level) = self.levels.last_mut() {
            self.chains -= level.chain;
            level.chain = 0;
        }
    }

    /// `#name` or `!name`: an alias's definition at the top level (the name
    /// followed by `=`), otherwise a use, as deep as the alias's definition.
    fn alias(&mut self) -> Step {
        self.at += 1;
        self.skip_while(is_suffix_char);
        let key = &self.text[self.start..self.at];
        if self.levels.len() == 1 && self.defines() {
            self.end_definition();
            self.defining = Some(Definition {
                key,
                deepest: 0,
                started: false,
                ending: false,
            });
            return Ok(());
        }
        let Some(&nested) = self.aliases.get(key) else {
            return Ok(());
        };
        let name = String::from_utf8_lossy(key).into_owned();
        self.check(self.depth() + nested, Nesting::Alias(name))
    }

    /// Whether the next token after white space is `=` (not `==`).
    fn defines(&self) -> bool {
        let rest = &self.text[self.at..];
        let skipped = rest.iter().take_while(|b| b.is_ascii_whitespace()).count();
        rest.get(skipped) == Some(&b'=') && rest.get(skipped + 1) != Some(&b'=')
    }
}

fn is_name_start(byte: u8) -> bool {
    byte.is_ascii_alphabetic() || byte == b'_'
}

/// A character of a `%`, `@`, `^`, `#` or `!` name after its first.
fn is_suffix_char(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || matches!(byte, b'$' | b'.' | b'_' | b'-')
}

/// A character of a number after its first digit (`4x4xf32`, `0x1F`,
/// `1.5e3`; the `-` of an exponent counts as an operator, which only
/// overestimates).
fn is_number_char(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || matches!(byte, b'.' | b'_')
}

#[cfg(test)]
mod tests {
    use super::{too_deep, Nesting, TooDeep, MAX_NESTING};

    /// Where `text` goes too deep: line, column and what nests.
    fn found(text: &str) -> Option<(usize, usize, Nesting)> {
        too_deep(text.as_bytes()).map(
            |TooDeep {
                 line,
                 column,
                 nesting,
             }| (line, column, nesting),
        )
    }

    fn nested(open: &str, close: &str, levels: usize) -> String {
        format!("{}i32{}", open.repeat(levels), close.repeat(levels))
    }

    #[test]
    fn every_bracket_kind_counts() {
        for (open, close) in [
            ("(", ")"),
            ("[", "]"),
            ("{", "}"),
            ("tuple<", ">"),
            ("<", ">"),
        ] {
            assert_eq!(found(&nested(open, close, MAX_NESTING)), None, "{open}");
            // Level 1001 opens at the last byte of the 1001st opener.
            let column = 3 + MAX_NESTING * open.len() + open.len() - 1;
            let text = format!("\n  {}", nested(open, close, MAX_NESTING + 1));
            assert_eq!(found(&text), Some((2, column, Nesting::Brackets)), "{open}");
        }
        // Kinds mixed, as in `tensor<2xtensor<...>>` or `!pld.ptr<...>`.
        let mixed = format!(
            "{}{}",
            "tensor<2x!pld.ptr<[(".repeat(250),
            ")]>>".repeat(250)
        );
        assert_eq!(found(&mixed), None);
        let mixed = format!(
            "{}{}",
            "tensor<2x!pld.ptr<[({".repeat(201),
            "})]>>".repeat(201)
        );
        assert_eq!(found(&mixed).map(|f| f.2), Some(Nesting::Brackets));
    }

    #[test]
    fn arrows_and_comparisons_are_no_brackets() {
        // An arrow closes no `<`: each `tuple<(i32) -> i32, ` nests one
        // level deeper, and the `(` in the 1000th is level 1001.
        let arrows = |n: usize| format!("{}i32{}", "tuple<(i32) -> i32, ".repeat(n), ">".repeat(n));
        assert_eq!(found(&arrows(MAX_NESTING - 1)), None);
        let column = (MAX_NESTING - 1) * "tuple<(i32) -> i32, ".len() + "tuple<(".len();
        assert_eq!(
            found(&arrows(MAX_NESTING)),
            Some((1, column, Nesting::Brackets))
        );
        // `<=` opens nothing, `>=` in parentheses closes nothing: 2000 of
        // them leave the count where it was.
        let constraints = "d0 >= 0, d0 <= 9, ".repeat(2000);
        let set = format!("affine_set<(d0) : ({constraints}d0 == 0)>");
        let inside = format!(
            "{}{set}{}",
            "[".repeat(MAX_NESTING - 2),
            "]".repeat(MAX_NESTING - 2)
        );
        assert_eq!(found(&inside), None);
        let over = format!(
            "{}{set}{}",
            "[".repeat(MAX_NESTING - 1),
            "]".repeat(MAX_NESTING - 1)
        );
        assert!(found(&over).is_some());
        // A `>` that is a bracket closes it even before `=`.
        let closed = "!t = tuple<i32>= ".repeat(2 * MAX_NESTING);
        assert_eq!(found(&closed), None);
        // A `>` with no `<` open closes nothing: `(((>>>` is three deep.
        let stray = format!("{}{}{}", "(".repeat(MAX_NESTING), ">".repeat(5000), "(");
        assert_eq!(found(&stray).map(|f| f.1), Some(MAX_NESTING + 5001));
    }

    #[test]
    fn strings_comments_and_names_hold_no_brackets() {
        let quoted = format!("\"{}\" // {}", "[".repeat(5000), "{".repeat(5000));
        assert_eq!(found(&quoted), None);
        assert_eq!(found(r#""a\"[" (((("#), None);
        // A string ends at its line's end, as MLIR's lexer ends it.
        let text = format!("\"abc\n{}", "[".repeat(MAX_NESTING + 1));
        assert_eq!(found(&text), Some((2, MAX_NESTING + 1, Nesting::Brackets)));
        // `%a-` is a name, so its `>` closes the `<`.
        let names = "<%a->".repeat(3 * MAX_NESTING);
        assert_eq!(found(&names), None);
    }

    #[test]
    fn affine_operators_in_a_row_nest() {
        let plus = |n: usize| format!("affine_map<(d0) -> ({}d0)>", "d0 + ".repeat(n));
        // `<` and `(` are two levels; the operators add to them.
        assert_eq!(found(&plus(MAX_NESTING - 2)), None);
        let column = "affine_map<(d0) -> (".len() + (MAX_NESTING - 2) * "d0 + ".len() + 4;
        assert_eq!(
            found(&plus(MAX_NESTING - 1)),
            Some((1, column, Nesting::Operators))
        );
        for operator in ["-", "- ", " * 2", " mod 3", " floordiv 3", " ceildiv 3"] {
            let chain = format!("(d0){}", operator.repeat(MAX_NESTING + 1));
            assert_eq!(
                found(&chain).map(|f| f.2),
                Some(Nesting::Operators),
                "{operator}"
            );
        }
        // Separated by parentheses the terms still chain.
        // The 1001st `(` is one level below 1000 operators.
        let terms = "(d0) + ".repeat(MAX_NESTING + 1);
        let column = MAX_NESTING * "(d0) + ".len() + 1;
        assert_eq!(found(&terms), Some((1, column, Nesting::Brackets)));
        // A comma, colon or `=` ends an expression.
        let many = format!("dense<[{}]>", "-1, ".repeat(5000));
        assert_eq!(found(&many), None);
        let constants = "%c = arith.constant -1 : i32\n".repeat(5000);
        assert_eq!(found(&constants), None);
    }

    #[test]
    fn aliases_nest_as_deeply_as_their_definitions() {
        let chain = |n: usize| {
            let mut text = "#a0 = [1]\n".to_string();
            for i in 1..n {
                text += &format!("#a{i} = [#a{}]\n", i - 1);
            }
            text + &format!("func.func private @f() attributes {{x = #a{}}}\n", n - 1)
        };
        // `#a999` nests 1000 levels; used inside `{` it is 1001 deep.
        assert_eq!(
            found(&chain(MAX_NESTING - 1)).map(|f| f.2),
            None,
            "#a998 inside braces is 1000 deep"
        );
        let line = MAX_NESTING + 1;
        let column = "func.func private @f() attributes {x = ".len() + 1;
        let alias = Nesting::Alias("#a999".into());
        assert_eq!(found(&chain(MAX_NESTING)), Some((line, column, alias)));
        let mut types = "!t0 = tuple<i32>\n".to_string();
        for i in 1..=MAX_NESTING {
            types += &format!("!t{i} = tuple<!t{}>\n", i - 1);
        }
        // `!t999` nests 1000 levels, `!t1000` (line 1001) one more.
        let column = "!t1000 = tuple<".len() + 1;
        let alias = Nesting::Alias("!t999".into());
        assert_eq!(found(&types), Some((MAX_NESTING + 1, column, alias)));
        // A typed value continues on a line starting with `:`.
        let typed = format!(
            "#v = 1\n  : {}\n#w = [#v]\n",
            nested("tuple<", ">", MAX_NESTING)
        );
        assert_eq!(found(&typed).map(|f| f.0), Some(3));
        // Other top-level ops end a definition; `#a` and `!a` differ.
        let ended = format!(
            "#a = 1\n{}\n!a = i32\n#b = [!a]",
            nested("[", "]", MAX_NESTING)
        );
        assert_eq!(found(&ended), None);
    }
}
