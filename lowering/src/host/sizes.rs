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

/// An affine expression text over `s0`, whether it involves `s0`, and its
/// value on one device (`s0` = 1) and on the most (`s0` = 64; `None` when
/// that overflows).
struct Expr {
    text: String,
    symbolic: bool,
    on_one: i64,
    on_most: Option<i64>,
}

/// The most devices a program runs on (the HOST ring's limit).
const MOST_DEVICES: i64 = 64;

/// A window size: the affine expression (over `s0` = world_size) that
/// computes it, and its byte count on one device. MLIR folds the
/// expression's constant terms in 64 bits, wrapping, so an expression
/// whose count overflows there would be recorded as a negative size (and
/// printed as a map that does not parse); it is refused instead.
#[derive(Clone, Debug)]
pub struct Size {
    pub text: String,
    pub on_one: i64,
}

/// The size `value` computes.
pub fn expression(value: Value) -> Result<Size, String> {
    let expr = build(value, 0)?;
    // A constant count (one that grows with world_size is checked by the
    // run that knows it).
    if !expr.symbolic && expr.on_one <= 0 {
        return Err(format!(
            "it is {} bytes, and a window size must be positive",
            expr.on_one
        ));
    }
    // Linear in world_size: not positive on 1 device nor on 64, it is
    // positive on none.
    if let Some(most) = expr.on_most.filter(|m| *m <= 0 && expr.on_one <= 0) {
        return Err(format!(
            "it is {} bytes on 1 device and {most} on {MOST_DEVICES}, not positive for any \
             world size, and a window size must be positive",
            expr.on_one
        ));
    }
    Ok(Size {
        text: expr.text,
        on_one: expr.on_one,
    })
}

/// The padded size of a slot on one device, if it fits 64 bits.
pub fn aligned_on_one(size: &Size) -> Option<i64> {
    Some(
        size.on_one
            .checked_add(ALIGNMENT - 1)?
            .div_euclid(ALIGNMENT)
            * ALIGNMENT,
    )
}

/// The window of slots `sizes` on one device (the sum of their padded
/// counts), if it fits 64 bits.
pub fn window_on_one(sizes: &[Size]) -> Option<i64> {
    sizes
        .iter()
        .try_fold(0i64, |sum, size| sum.checked_add(aligned_on_one(size)?))
}

const OVERFLOW: &str = "window size overflows a 64-bit byte count";

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
            on_one: c,
            on_most: Some(c),
        });
    }
    let owner = defining_op(value).ok_or_else(|| format!("window size {UNSUPPORTED}"))?;
    let name = op_name(&owner);
    if name == WorldSize::NAME {
        return Ok(Expr {
            text: "s0".into(),
            symbolic: true,
            on_one: 1,
            on_most: Some(MOST_DEVICES),
        });
    }
    let (symbol, fold): (_, fn(i64, i64) -> Option<i64>) = match name.as_str() {
        "arith.addi" => ("+", i64::checked_add),
        "arith.subi" => ("-", i64::checked_sub),
        "arith.muli" => ("*", i64::checked_mul),
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
        on_one: fold(lhs.on_one, rhs.on_one).ok_or(OVERFLOW)?,
        on_most: lhs.on_most.zip(rhs.on_most).and_then(|(l, r)| fold(l, r)),
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
