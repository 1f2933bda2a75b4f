//! The strict `{{key}}` renderer and the errors of the catalog.

use crate::builtin::Builtin;
use crate::templates::File;
use crate::variant::{Elem, Reduction};
use std::collections::BTreeSet;
use std::fmt;

/// Why a variant or a rendering does not exist.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KernelError {
    /// The builtin has no kernel for this element type.
    Dtype { builtin: Builtin, elem: Elem },
    /// The builtin has no kernel for this reduction.
    Reduction {
        builtin: Builtin,
        reduction: Option<Reduction>,
    },
    /// A broadcast needs a root (and only broadcast takes one).
    Root { builtin: Builtin, root: Option<u32> },
    /// The template uses keys the caller did not give, or the caller gave
    /// keys the template does not use.
    Keys {
        template: String,
        missing: Vec<String>,
        unused: Vec<String>,
    },
    /// `{{` without a closing `}}`, or a key that is not an identifier.
    Syntax { template: String, at: usize },
    /// The builtin has no template for this file.
    NoFile { builtin: Builtin, file: File },
}

impl fmt::Display for KernelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KernelError::Dtype { builtin, elem } => write!(
                f,
                "builtin.tensor.{} has no kernel for element type {}",
                builtin.dir(),
                elem.mlir()
            ),
            KernelError::Reduction { builtin, reduction } => match reduction {
                Some(r) => write!(
                    f,
                    "builtin.tensor.{} has no kernel for op \"{}\"",
                    builtin.dir(),
                    r.key()
                ),
                None => write!(f, "builtin.tensor.{} needs an op", builtin.dir()),
            },
            KernelError::Root { builtin, root } => match root {
                Some(r) => write!(
                    f,
                    "builtin.tensor.{} takes no root (got {r})",
                    builtin.dir()
                ),
                None => write!(f, "builtin.tensor.{} needs a root", builtin.dir()),
            },
            KernelError::Keys {
                template,
                missing,
                unused,
            } => {
                write!(f, "template {template}:")?;
                if !missing.is_empty() {
                    write!(f, " uses keys not given: {}", missing.join(", "))?;
                    if !unused.is_empty() {
                        write!(f, ";")?;
                    }
                }
                if !unused.is_empty() {
                    write!(f, " given keys it does not use: {}", unused.join(", "))?;
                }
                Ok(())
            }
            KernelError::Syntax { template, at } => {
                write!(f, "template {template}: malformed {{{{key}}}} at byte {at}")
            }
            KernelError::NoFile { builtin, file } => {
                write!(f, "builtin {} has no {file:?} file", builtin.dir())
            }
        }
    }
}

impl std::error::Error for KernelError {}

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
