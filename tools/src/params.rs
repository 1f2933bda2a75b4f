//! Kernel parameters by the names the source gives them. MLIR keeps no SSA
//! names once parsed, so `%data` in `func.func @k(%data: ...)` is read from
//! the text of the signature.

/// The SSA names (without `%`) of `@function`'s parameters, by position:
/// `None` where the text does not say (no such function, an unusual form).
pub fn source_names(text: &str, function: &str) -> Vec<Option<String>> {
    let needle = format!("@{function}(");
    let Some(start) = text
        .match_indices(&needle)
        .find(|(at, _)| {
            let before = text[..*at].trim_end();
            before.ends_with("func.func")
                || before.ends_with("private")
                || before.ends_with("public")
        })
        .map(|(at, _)| at + needle.len())
    else {
        return Vec::new();
    };
    let mut names = Vec::new();
    let mut depth = 0usize;
    let mut quoted = false;
    let mut piece = String::new();
    for c in text[start..].chars() {
        if quoted {
            quoted = c != '"';
            piece.push(c);
            continue;
        }
        match c {
            '"' => quoted = true,
            '(' | '<' | '[' | '{' => depth += 1,
            ')' if depth == 0 => {
                names.push(name_of(&piece));
                return names;
            }
            ')' | '>' | ']' | '}' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                names.push(name_of(&piece));
                piece.clear();
                continue;
            }
            _ => {}
        }
        piece.push(c);
    }
    Vec::new()
}

/// `%data: tensor<...>` -> `data`.
fn name_of(piece: &str) -> Option<String> {
    let rest = piece.trim().strip_prefix('%')?;
    let name: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || "_$.-".contains(*c))
        .collect();
    (!name.is_empty()).then_some(name)
}

#[cfg(test)]
mod tests {
    use super::source_names;

    #[test]
    fn names_come_from_the_signature() {
        let text = "func.func private @other(%z: i32)\nfunc.func @k(%data: tensor<1x4xf32, \
                    #pld.dist>, %sig: tensor<2x1xi32, #pld.dist>) attributes {x = \"(,)\"} {\n}";
        assert_eq!(
            source_names(text, "k"),
            [Some("data".to_string()), Some("sig".to_string())]
        );
        assert_eq!(source_names(text, "other"), [Some("z".to_string())]);
        assert!(source_names(text, "missing").is_empty());
        assert_eq!(source_names("func.func @e() {\n}", "e"), [None::<String>]);
    }
}
