//! The errors of the catalog: why a variant or a rendering does not exist.

use crate::builtin::{Builtin, Elem, Reduction};
use crate::file::File;
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
