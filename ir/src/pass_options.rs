//! The options of a pld pass as MLIR writes them in a pipeline:
//! `pass{key=value key2="a value with spaces" flag=1}`. MLIR hands a pass
//! the text between the braces; these split it the way its own option
//! parser would, so that a path with a space can be quoted and a boolean
//! is written as LLVM's command-line options take one.

/// The `key=value` items of `text`, in order; a value may be quoted with
/// `"` or `'` (the quotes are not part of it; inside them spaces are kept).
/// An item without `=`, an unterminated quote and a key given twice are
/// errors, each starting with `pass: ` (the pass's argument).
pub fn items(pass: &str, text: &str) -> Result<Vec<(String, String)>, String> {
    let mut items: Vec<(String, String)> = Vec::new();
    let mut rest = text.trim_start();
    while !rest.is_empty() {
        let (item, after) = next_item(pass, rest)?;
        if items.iter().any(|(k, _)| *k == item.0) {
            return Err(format!(
                "{pass}: option '{}' is given more than once",
                item.0
            ));
        }
        items.push(item);
        rest = after.trim_start();
    }
    Ok(items)
}

/// The first item of `text` (which starts with one) and what follows it.
fn next_item<'t>(pass: &str, text: &'t str) -> Result<((String, String), &'t str), String> {
    let word_end = text.find(char::is_whitespace).unwrap_or(text.len());
    let Some(equals) = text[..word_end].find('=') else {
        return Err(format!(
            "{pass}: expected key=value, not '{}'",
            &text[..word_end]
        ));
    };
    let key = text[..equals].to_string();
    let value = &text[equals + 1..];
    let Some(quote) = value.chars().next().filter(|c| matches!(c, '"' | '\'')) else {
        let end = value.find(char::is_whitespace).unwrap_or(value.len());
        return Ok(((key, value[..end].to_string()), &value[end..]));
    };
    let Some(close) = value[1..].find(quote) else {
        return Err(format!(
            "{pass}: the value of '{key}' opens a quote ({quote}) that does not close"
        ));
    };
    let after = &value[close + 2..];
    if after.starts_with(|c: char| !c.is_whitespace()) {
        return Err(format!(
            "{pass}: expected a space after the quoted value of '{key}', not '{}'",
            after.split(char::is_whitespace).next().unwrap_or(after)
        ));
    }
    Ok(((key, value[1..=close].to_string()), after))
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

    fn pairs(text: &str) -> Result<Vec<(String, String)>, String> {
        items("p", text)
    }

    #[test]
    fn items_split_on_spaces_and_quotes_keep_them() {
        let got = pairs(r#"  ranks=2,3  cost-model="a b/c d.toml" target='x y' empty= "#).unwrap();
        let want = [
            ("ranks", "2,3"),
            ("cost-model", "a b/c d.toml"),
            ("target", "x y"),
            ("empty", ""),
        ];
        assert_eq!(
            got,
            want.map(|(k, v)| (k.to_string(), v.to_string())).to_vec()
        );
        assert_eq!(pairs("").unwrap(), Vec::new());
        assert_eq!(pairs(r#"k="it's""#).unwrap()[0].1, "it's");
    }

    #[test]
    fn malformed_items_are_named() {
        assert_eq!(
            pairs("ranks").unwrap_err(),
            "p: expected key=value, not 'ranks'"
        );
        assert_eq!(
            pairs(r#"k="open"#).unwrap_err(),
            "p: the value of 'k' opens a quote (\") that does not close"
        );
        assert_eq!(
            pairs(r#"k="a"b"#).unwrap_err(),
            "p: expected a space after the quoted value of 'k', not 'b'"
        );
        assert_eq!(
            pairs("k=1 k=2").unwrap_err(),
            "p: option 'k' is given more than once"
        );
    }

    #[test]
    fn booleans_are_llvms() {
        for (text, value) in [("1", true), ("True", true), ("0", false), ("FALSE", false)] {
            assert_eq!(boolean(text), Some(value), "{text}");
        }
        for text in ["yes", "2", "", "tRue"] {
            assert_eq!(boolean(text), None, "{text}");
        }
    }
}
