//! Naming the subject of an error MLIR's IRDL verifier leaves unnamed.
//!
//! IRDL reports an op that breaks its definition without the op's name
//! (`op expects exactly 2 operands, but got 1`) and an attribute of the
//! wrong kind without the attribute's (`expected base attribute
//! 'builtin.integer' but got 'builtin.float'`). The note MLIR attaches to
//! such an error shows the op in generic form (`see current operation: %0
//! = "pld.tensor_broadcast"(%arg0) {root = 1.000000e+30 : f64} : ...`);
//! [`named`] takes both names from it, as MLIR's own op errors give them:
//! `'pld.tensor_broadcast' op attribute 'root': expected base attribute
//! 'builtin.integer' but got 'builtin.float'`.

/// The start of the note that shows the op.
pub(super) const OP_DUMP: &str = "see current operation: ";

/// `message` with the op (and, for an attribute of the wrong kind, the
/// attribute) named, from the op dump `dump` (a note's text after
/// [`OP_DUMP`]); `message` as it is when it names its op already or the
/// dump does not show one.
pub(super) fn named(message: &str, dump: &str) -> String {
    if message.starts_with('\'') {
        return message.to_string();
    }
    let Some((op, rest)) = op_name(dump) else {
        return message.to_string();
    };
    let message = message.strip_prefix("op ").unwrap_or(message);
    let attributes = got_kind(message)
        .map(|kind| attributes_of_kind(rest, kind))
        .unwrap_or_default();
    match attributes.as_slice() {
        [] => format!("'{op}' op {message}"),
        [name] => format!("'{op}' op attribute '{name}': {message}"),
        // Several of that kind: one of them is the wrong one.
        names => {
            let quoted: Vec<String> = names.iter().map(|n| format!("'{n}'")).collect();
            format!("'{op}' op attribute {}: {message}", quoted.join(" or "))
        }
    }
}

/// The op's name (the first quoted string of the generic form) and the
/// text after it.
fn op_name(dump: &str) -> Option<(&str, &str)> {
    let start = dump.find('"')? + 1;
    let length = dump[start..].find('"')?;
    Some((&dump[start..start + length], &dump[start + length + 1..]))
}

/// The kind an IRDL attribute error got: `'builtin.float'` of `expected
/// base attribute 'builtin.integer' but got 'builtin.float'`.
fn got_kind(message: &str) -> Option<&str> {
    let rest = message.strip_prefix("expected base attribute '")?;
    let got = rest.split("' but got '").nth(1)?;
    got.strip_suffix('\'')
}

/// The attributes of the generic op text `rest` (after the op's name)
/// whose value is of `kind`.
fn attributes_of_kind<'d>(rest: &'d str, kind: &str) -> Vec<&'d str> {
    let Some(dictionary) = attribute_dictionary(rest) else {
        return Vec::new();
    };
    entries(dictionary)
        .into_iter()
        .filter(|(_, value)| kind_of(value) == Some(kind))
        .map(|(name, _)| name)
        .collect()
}

/// The inside of the attribute dictionary of a generic op: after the
/// operands `(...)`, the properties `<{...}>` and the regions `(...)`.
fn attribute_dictionary(rest: &str) -> Option<&str> {
    let mut text = rest.trim_start();
    for opener in ["(", "<{", "("] {
        if text.starts_with(opener) {
            text = text[balanced(text)?..].trim_start();
        }
    }
    text.starts_with('{')
        .then(|| balanced(text))
        .flatten()
        .map(|end| &text[1..end - 1])
}

/// The length of the bracketed group `text` starts with, strings skipped.
fn balanced(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for (at, byte) in text.bytes().enumerate() {
        match (in_string, escaped, byte) {
            (true, true, _) => escaped = false,
            (true, false, b'\\') => escaped = true,
            (true, false, b'"') => in_string = false,
            (true, false, _) => {}
            (false, _, b'"') => in_string = true,
            (false, _, b'(' | b'[' | b'{' | b'<') => depth += 1,
            (false, _, b')' | b']' | b'}' | b'>') if at > 0 && text.as_bytes()[at - 1] == b'-' => {}
            (false, _, b')' | b']' | b'}' | b'>') => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(at + 1);
                }
            }
            (false, _, _) => {}
        }
    }
    None
}

/// The `name = value` entries of a dictionary's inside (a unit attribute
/// has no value).
fn entries(dictionary: &str) -> Vec<(&str, &str)> {
    let mut found = Vec::new();
    let mut rest = dictionary;
    while !rest.trim().is_empty() {
        let end = top_level_comma(rest).unwrap_or(rest.len());
        let entry = rest[..end].trim();
        let (name, value) = entry.split_once(" = ").unwrap_or((entry, "unit"));
        found.push((name.trim().trim_matches('"'), value.trim()));
        rest = rest.get(end + 1..).unwrap_or("");
    }
    found
}

/// The first comma outside brackets and strings.
fn top_level_comma(text: &str) -> Option<usize> {
    let mut at = 0;
    while at < text.len() {
        match text.as_bytes()[at] {
            b',' => return Some(at),
            b'(' | b'[' | b'{' | b'<' | b'"' => at += balanced_or_string(&text[at..])?,
            _ => at += 1,
        }
    }
    None
}

/// The length of the bracketed group or string `text` starts with.
fn balanced_or_string(text: &str) -> Option<usize> {
    if !text.starts_with('"') {
        return balanced(text);
    }
    let mut escaped = false;
    for (at, byte) in text.bytes().enumerate().skip(1) {
        match (escaped, byte) {
            (true, _) => escaped = false,
            (false, b'\\') => escaped = true,
            (false, b'"') => return Some(at + 1),
            _ => {}
        }
    }
    None
}

/// The kind of an attribute as MLIR prints it, by its printed value, as
/// IRDL names it: `builtin.integer`, `builtin.float`, `pld.reduce_op`, ...
/// `None` when the text does not say.
fn kind_of(value: &str) -> Option<&str> {
    let first = value.bytes().next()?;
    Some(match first {
        b'"' => "builtin.string",
        b'[' => "builtin.array",
        b'{' => "builtin.dictionary",
        b'@' => "builtin.symbol_ref",
        b'#' => {
            let name = &value[1..];
            let end = name.find(['<', ' ']).unwrap_or(name.len());
            return Some(&name[..end]);
        }
        b'0'..=b'9' | b'-' => {
            let ty = value.rsplit(" : ").next().unwrap_or("");
            let float = ty.starts_with('f') || ty.starts_with("bf") || ty.starts_with("tf");
            if float {
                "builtin.float"
            } else {
                "builtin.integer"
            }
        }
        _ if value == "true" || value == "false" => "builtin.integer",
        _ if value == "unit" => "builtin.unit",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::named;

    #[test]
    fn the_op_is_named_from_its_dump() {
        let dump = r#"%1 = "pld.tensor_broadcast"(%arg0) {root = 0 : i64} : (tensor<3x4xf32, #pld.dist>) -> tensor<3x4xf32, #pld.dist>"#;
        assert_eq!(
            named("op expects exactly 2 operands, but got 1", dump),
            "'pld.tensor_broadcast' op expects exactly 2 operands, but got 1"
        );
        // A message that names its op is left alone.
        let message = "'pld.tensor_broadcast' op root must be non-negative, got -1";
        assert_eq!(named(message, dump), message);
    }

    #[test]
    fn an_attribute_of_the_wrong_kind_is_named() {
        let message = "expected base attribute 'builtin.integer' but got 'builtin.float'";
        let dump = r#"%0 = "pld.tensor_broadcast"(%arg0, %arg1) {root = 1.000000e+30 : f64} : (tensor<3x4xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<3x4xf32, #pld.dist>"#;
        assert_eq!(
            named(message, dump),
            "'pld.tensor_broadcast' op attribute 'root': expected base attribute \
             'builtin.integer' but got 'builtin.float'"
        );
        let message = "expected base attribute 'pld.reduce_op' but got 'pld.func_kind'";
        let dump = r#"%0 = "pld.tensor_reduce"(%arg0, %arg0) {op = #pld.func_kind<"x, y">, root = 0 : i64, s = "a = b, c"} : (tensor<4x1xi32>) -> ()"#;
        assert_eq!(
            named(message, dump),
            "'pld.tensor_reduce' op attribute 'op': expected base attribute 'pld.reduce_op' \
             but got 'pld.func_kind'"
        );
        // Two attributes of the kind: both are named, one of them is it.
        let message = "expected base attribute 'builtin.integer' but got 'builtin.string'";
        let dump = r#""pld.x"() {a = "1", b = "2"} : () -> ()"#;
        assert_eq!(
            named(message, dump),
            "'pld.x' op attribute 'a' or 'b': expected base attribute 'builtin.integer' but \
             got 'builtin.string'"
        );
        // After regions and properties too.
        let dump = r#""pld.y"() <{p = [1, 2]}> ({ "pld.z"() {a = 1.0 : f32} : () -> () }) {a = "s", b = 1 : i64} : () -> ()"#;
        assert_eq!(
            named(message, dump),
            "'pld.y' op attribute 'a': expected base attribute 'builtin.integer' but got \
             'builtin.string'"
        );
    }
}
