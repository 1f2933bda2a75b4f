//! Window sizes as affine expressions of `world_size` (docs/passes/pld-lower-host-tensor-collectives.md, 10.2).
//!
//! An allocation's byte count is an SSA expression over constants and
//! `pld.system_world_size`. The comm domain records it as an affine map
//! with one symbol, `s0` = world_size, so it stays symbolic and MLIR prints
//! it simplified: `world_size * 4` is `affine_map<()[s0] -> (s0 * 4)>`.

use super::devices::strip_casts;
use melior::ir::Value;
use pld_dialect::ops::window::WorldSize;
use pld_ir::constant_int;
use pld_ir::op_name;
use pld_ir::{defining_op, operand};

/// Buffers start on 32-byte boundaries and their sizes are padded to 32
/// bytes (`kCommBufferAlignmentBytes`).
pub const ALIGNMENT: i64 = 32;

/// An affine expression text over `s0`, and whether it involves `s0`.
struct Expr {
    text: String,
    symbolic: bool,
}

/// The affine expression (over `s0` = world_size) that computes `value`.
pub fn expression(value: Value) -> Result<String, String> {
    Ok(build(value, 0)?.text)
}

fn build(value: Value, depth: usize) -> Result<Expr, String> {
    const UNSUPPORTED: &str =
        "must be built from constants and world_size with arith.addi, arith.subi and arith.muli";
    if depth > 64 {
        return Err(format!(
            "window size expression is too deep; it {UNSUPPORTED}"
        ));
    }
    let value = strip_casts(value);
    if let Some(c) = constant_int(value) {
        return Ok(Expr {
            text: c.to_string(),
            symbolic: false,
        });
    }
    let owner = defining_op(value).ok_or_else(|| format!("window size {UNSUPPORTED}"))?;
    let name = op_name(&owner);
    if name == WorldSize::NAME {
        return Ok(Expr {
            text: "s0".into(),
            symbolic: true,
        });
    }
    let symbol = match name.as_str() {
        "arith.addi" => "+",
        "arith.subi" => "-",
        "arith.muli" => "*",
        _ => return Err(format!("window size {UNSUPPORTED} (found {name})")),
    };
    let operand = |i| operand(owner, i).ok_or_else(|| format!("malformed {name}"));
    let lhs = build(operand(0)?, depth + 1)?;
    let rhs = build(operand(1)?, depth + 1)?;
    if symbol == "*" && lhs.symbolic && rhs.symbolic {
        return Err(
            "window size must be linear in world_size (it multiplies world_size by itself)".into(),
        );
    }
    Ok(Expr {
        text: format!("({} {symbol} {})", lhs.text, rhs.text),
        symbolic: lhs.symbolic || rhs.symbolic,
    })
}

/// `expr` rounded up to the alignment.
pub fn aligned(expr: &str) -> String {
    format!(
        "((({expr}) + {a}) floordiv {ALIGNMENT}) * {ALIGNMENT}",
        a = ALIGNMENT - 1
    )
}

/// The text of an affine map with symbol `s0` computing `expr`.
pub fn map_text(expr: &str) -> String {
    format!("affine_map<()[s0] -> ({expr})>")
}
