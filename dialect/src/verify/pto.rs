//! The PTO ops pld emits, checked as the PTOAS assembler checks them
//! (docs/dialect.md, "PTO ops"), so that `pld-translate --emit=pto` never
//! prints something the assembler refuses.

use crate::ops::OpView;
use crate::pto_types::TileBuf;
use melior::ir::{OperationRef, ValueLike};

/// `pto.alloc_tile`: a `valid_row` / `valid_col` operand is present exactly
/// when the result type's valid extent in that dimension is `?`. The
/// messages; none when the op holds.
pub fn alloc_tile(op: OperationRef) -> Vec<String> {
    let Some(view) = OpView::new(op) else {
        return Vec::new();
    };
    let Some(result) = op.result(0).ok() else {
        return Vec::new();
    };
    let text = result.r#type().to_string();
    let Ok(tile) = TileBuf::parse(&text) else {
        return Vec::new();
    };
    // Without a `valid` property the tile is valid in full: static.
    let valid = tile
        .valid
        .clone()
        .unwrap_or_else(|| tile.dims.iter().map(|d| d.parse().ok()).collect());
    let mut problems = Vec::new();
    for (index, (operand, what)) in [("valid_row", "row"), ("valid_col", "column")]
        .into_iter()
        .enumerate()
    {
        let Some(extent) = valid.get(index) else {
            continue;
        };
        let present = view.one(operand).is_some();
        match (extent, present) {
            (Some(n), true) => problems.push(format!(
                "{operand} operand must be absent: the result type's valid {what} is {n}, not ?"
            )),
            (None, false) => problems.push(format!(
                "needs a {operand} operand: the result type's valid {what} is ?"
            )),
            _ => {}
        }
    }
    problems
}
