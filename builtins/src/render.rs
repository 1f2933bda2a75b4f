//! The strict `{{key}}` renderer.

use crate::error::KernelError;
use std::collections::BTreeSet;

/// The keys a template text uses, in order of first use, with the byte
/// range of every `{{key}}`.
fn scan(name: &str, text: &str) -> Result<Vec<(std::ops::Range<usize>, String)>, KernelError> {
    let mut found = Vec::new();
    let mut at = 0;
    while let Some(open) = text[at..].find("{{") {
        let start = at + open;
        let close = text[start + 2..]
            .find("}}")
            .ok_or_else(|| KernelError::Syntax {
                template: name.to_string(),
                at: start,
            })?;
        let key = &text[start + 2..start + 2 + close];
        let ident = !key.is_empty()
            && !key.starts_with(|c: char| c.is_ascii_digit())
            && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !ident {
            return Err(KernelError::Syntax {
                template: name.to_string(),
                at: start,
            });
        }
        let end = start + 2 + close + 2;
        found.push((start..end, key.to_string()));
        at = end;
    }
    Ok(found)
}

/// Plain `{{key}}` replacement. Every key the text uses must be given and
/// every given key must be used; otherwise nothing is rendered.
pub fn render(name: &str, text: &str, vars: &[(&str, String)]) -> Result<String, KernelError> {
    let uses = scan(name, text)?;
    let used: BTreeSet<&str> = uses.iter().map(|(_, k)| k.as_str()).collect();
    let given: BTreeSet<&str> = vars.iter().map(|(k, _)| *k).collect();
    let missing: Vec<String> = used.difference(&given).map(|s| s.to_string()).collect();
    let unused: Vec<String> = given.difference(&used).map(|s| s.to_string()).collect();
    if !missing.is_empty() || !unused.is_empty() {
        return Err(KernelError::Keys {
            template: name.to_string(),
            missing,
            unused,
        });
    }
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (range, key) in uses {
        out.push_str(&text[at..range.start]);
        let value = vars
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v.as_str())
            .unwrap_or_default();
        out.push_str(value);
        at = range.end;
    }
    out.push_str(&text[at..]);
    Ok(out)
}
