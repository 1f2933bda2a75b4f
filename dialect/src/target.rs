//! The backend a module is compiled for: the module attribute
//! `pld.target = "a2a3" | "a5"` (docs/dialect.md 2.6), read by the
//! verifier, the lowerings and the kernel renderer. Absent means `a2a3`.

use melior::ir::{operation::OperationLike, OperationRef};
use std::fmt;

/// Name of the module attribute.
pub const TARGET_ATTR: &str = "pld.target";

/// An Ascend backend family.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Target {
    /// Ascend910B (A2/A3): the default. BF16 atomic add; launch width set
    /// with `set_block_num`; no URMA.
    #[default]
    A2A3,
    /// Ascend950-class (A5): URMA transport (indexed_all_to_all_v); launch
    /// width set with `set_core_num`; no BF16 atomic add.
    A5,
}

impl Target {
    /// The attribute's spelling.
    pub fn name(self) -> &'static str {
        match self {
            Target::A2A3 => "a2a3",
            Target::A5 => "a5",
        }
    }

    /// Whether a remote store or put may accumulate (`atomic = add`) BF16
    /// (collectives spec 3: BF16 atomic add only on A2/A3).
    pub fn has_bf16_atomic_add(self) -> bool {
        self == Target::A2A3
    }

    /// Whether the URMA transport of `pld.tensor_indexed_all_to_all_v`
    /// exists (spec 4.8: A5 only).
    pub fn has_urma(self) -> bool {
        self == Target::A5
    }

    /// Bytes of an AIV core's unified buffer (UB), where every tile lives:
    /// 192 KiB on A2/A3, 256 KiB on A5 (pto-interface.md, pitfall 7).
    pub fn ub_bytes(self) -> i64 {
        match self {
            Target::A2A3 => 192 * 1024,
            Target::A5 => 256 * 1024,
        }
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The target of the module that holds `op` (or of `op` itself when it is
/// a module): the `pld.target` of the nearest enclosing `builtin.module`
/// that carries one, else the default. `Err` with the diagnostic text when
/// the attribute is not `"a2a3"` or `"a5"`.
pub fn target_of(op: OperationRef) -> Result<Target, String> {
    let mut current = Some(op);
    while let Some(candidate) = current {
        if pld_ir::op_name(&candidate) == "builtin.module" {
            if let Ok(attribute) = candidate.attribute(TARGET_ATTR) {
                return match pld_ir::attr::string(attribute).as_deref() {
                    Some("a2a3") => Ok(Target::A2A3),
                    Some("a5") => Ok(Target::A5),
                    _ => Err(format!(
                        "{TARGET_ATTR} must be \"a2a3\" or \"a5\", got {attribute}"
                    )),
                };
            }
        }
        current = candidate.parent_operation();
    }
    Ok(Target::default())
}
