//! The options of a pld pass as MLIR writes them in a pipeline:
//! `pass{key=value key2="a value with spaces" key3={braced} flag=1 flag2}`.
//! MLIR hands a pass the text between the braces; these split it the way
//! its own option parser would, so that a path with a space can be quoted
//! or braced, and a boolean is written as LLVM's command-line options take
//! one (or left bare).

/// One option as written: `key=value`, or a bare `key` (a boolean flag,
/// as MLIR's options take one: `remarks` means `remarks=true`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    pub key: String,
    pub value: Option<String>,
}

impl Item {
    /// The value of an option that takes one; a bare key is an error.
    pub fn text(&self, pass: &str) -> Result<&str, String> {
        self.value.as_deref().ok_or_else(|| {
            format!(
                "{pass}: expected {}=value, not '{}' alone",
                self.key, self.key
            )
        })
    }

    /// The value of a boolean option (a bare key is `true`); `None` when
    /// it is not a boolean as LLVM's options read one.
    pub fn flag(&self) -> Option<bool> {
        self.value.as_deref().map_or(Some(true), boolean)
    }
}

/// The items of `text`, in order, separated by spaces; a value may be
/// quoted with `"` or `'`, or braced with `{...}` (nested braces kept),
/// which are not part of it, and inside which spaces are kept. An
/// unterminated quote or brace and a key given twice are errors, each
/// starting with `pass: ` (the pass's argument).
pub fn items(pass: &str, text: &str) -> Result<Vec<Item>, String> {
    let mut items: Vec<Item> = Vec::new();
    let mut rest = text.trim_start();
    while !rest.is_empty() {
        let (item, after) = next_item(pass, rest)?;
        if items.iter().any(|i| i.key == item.key) {
            return Err(format!(
                "{pass}: option '{}' is given more than once",
                item.key
            ));
        }
        items.push(item);
        rest = after.trim_start();
    }
    Ok(items)
}

/// The first item of `text` (which starts with one) and what follows it.
fn next_item<'t>(pass: &str, text: &'t str) -> Result<(Item, &'t str), String> {
    let word_end = text.find(char::is_whitespace).unwrap_or(text.len());
    let Some(equals) = text[..word_end].find('=') else {
        let item = Item {
            key: text[..word_end].to_string(),
            value: None,
        };
        return Ok((item, &text[word_end..]));
    };
    let key = text[..equals].to_string();
    let (value, after) = value_of(pass, &key, &text[equals + 1..])?;
    if after.starts_with(|c: char| !c.is_whitespace()) {
        return Err(format!(
            "{pass}: expected a space after the quoted value of '{key}', not '{}'",
            after.split(char::is_whitespace).next().unwrap_or(after)
        ));
    }
    let item = Item {
        key,
        value: Some(value.to_string()),
    };
    Ok((item, after))
}

/// The value at the start of `text` (bare, quoted or braced) and what
/// follows it.
fn value_of<'t>(pass: &str, key: &str, text: &'t str) -> Result<(&'t str, &'t str), String> {
    let opening = text.chars().next();
    let close = match opening {
        Some('"' | '\'') => {
            let quote = opening.unwrap_or('"');
            text[1..].find(quote).map(|at| at + 1)
        }
        Some('{') => {
            let mut depth = 0usize;
            text.char_indices().find_map(|(at, c)| {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    _ => {}
                }
                (depth == 0).then_some(at)
            })
        }
        _ => {
            let end = text.find(char::is_whitespace).unwrap_or(text.len());
            return Ok((&text[..end], &text[end..]));
        }
    };
    let opening = opening.unwrap_or('"');
    let close = close.ok_or_else(|| {
        format!("{pass}: the value of '{key}' opens a quote ({opening}) that does not close")
    })?;
    Ok((&text[1..close], &text[close + 1..]))
}

/// `value` written so that [`items`] reads it back whole inside a
/// pipeline's braces: quoted with `"`, with `'` when it holds a `"`, or
/// braced when it holds both. `None` when no writing carries it: a brace
/// without its pair (a pipeline's options end at the brace that closes
/// them, quoted or not, in MLIR's parser as in pld's).
pub fn quoted(value: &str) -> Option<String> {
    let mut depth = 0usize;
    for c in value.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.checked_sub(1)?,
            _ => {}
        }
    }
    if depth != 0 {
        return None;
    }
    Some(match (value.contains('"'), value.contains('\'')) {
        (false, _) => format!("\"{value}\""),
        (true, false) => format!("'{value}'"),
        (true, true) => format!("{{{value}}}"),
    })
}

/// A boolean option's value as LLVM's options read one: `true`, `TRUE`,
/// `True`, `1`, `false`, `FALSE`, `False`, `0`.
pub fn boolean(value: &str) -> Option<bool> {
    match value {
        "true" | "TRUE" | "True" | "1" => Some(true),
        "false" | "FALSE" | "False" | "0" => Some(false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(text: &str) -> Result<Vec<(String, Option<String>)>, String> {
        items("p", text).map(|items| items.into_iter().map(|i| (i.key, i.value)).collect())
    }

    fn given(key: &str, value: &str) -> (String, Option<String>) {
        (key.to_string(), Some(value.to_string()))
    }

    #[test]
    fn items_split_on_spaces_and_quotes_keep_them() {
        let got = pairs(r#"  ranks=2,3  cost-model="a b/c d.toml" target='x y' empty= "#).unwrap();
        let want = [
            given("ranks", "2,3"),
            given("cost-model", "a b/c d.toml"),
            given("target", "x y"),
            given("empty", ""),
        ];
        assert_eq!(got, want.to_vec());
        assert_eq!(pairs("").unwrap(), Vec::new());
        assert_eq!(pairs(r#"k="it's""#).unwrap()[0].1.as_deref(), Some("it's"));
        // Braces as MLIR writes them, nested ones kept; a bare flag.
        assert_eq!(
            pairs("m={a {b} c} remarks").unwrap(),
            [given("m", "a {b} c"), ("remarks".to_string(), None)]
        );
    }

    #[test]
    fn malformed_items_are_named() {
        assert_eq!(
            items("p", "ranks").unwrap()[0].text("p").unwrap_err(),
            "p: expected ranks=value, not 'ranks' alone"
        );
        for (text, message) in [
            (
                r#"k="open"#,
                "the value of 'k' opens a quote (\") that does not close",
            ),
            (
                "k={a {b}",
                "the value of 'k' opens a quote ({) that does not close",
            ),
            (
                r#"k="a"b"#,
                "expected a space after the quoted value of 'k', not 'b'",
            ),
            ("k=1 k=2", "option 'k' is given more than once"),
        ] {
            assert_eq!(pairs(text).unwrap_err(), format!("p: {message}"), "{text}");
        }
    }

    #[test]
    fn quoted_values_read_back_whole() {
        for value in ["a b.toml", r#"a"b"#, r#"a'b"c"#, "a{b}c", r#"{x"'}"#, ""] {
            let text = format!("k={} f", quoted(value).unwrap());
            assert_eq!(pairs(&text).unwrap()[0], given("k", value), "{value}");
        }
        for value in ["a}b", "a{b", "}{"] {
            assert_eq!(quoted(value), None, "{value}");
        }
    }

    #[test]
    fn booleans_are_llvms() {
        for (text, value) in [("1", true), ("True", true), ("0", false), ("FALSE", false)] {
            assert_eq!(boolean(text), Some(value), "{text}");
        }
        for text in ["yes", "2", "", "tRue"] {
            assert_eq!(boolean(text), None, "{text}");
        }
        assert_eq!(items("p", "f").unwrap()[0].flag(), Some(true));
        assert_eq!(items("p", "f=0").unwrap()[0].flag(), Some(false));
    }
}
