//! docs/dialect.md 4.3 signal primitives and 4.10 memory-consistency ops.

use super::OpCx;
use crate::enums::{NotifyOp, PldEnum, WaitCmp};
use crate::types::TensorInfo;
use pld_ir::constant_int;

/// Constant offsets must lie inside their (static) dimension.
pub fn offsets_in_bounds(cx: &mut OpCx, group: &str, target: &TensorInfo) {
    for (i, offset) in cx.group(group).into_iter().enumerate() {
        let (Some(offset), Some(size)) = (constant_int(offset), target.dim(i)) else {
            continue;
        };
        if offset < 0 || offset >= size {
            cx.error(format!(
                "offset {offset} is out of bounds for dimension {i} (size {size})"
            ));
        }
    }
}

/// Checks an enum attribute `name` holds a member of `E`.
pub fn enum_member<E: PldEnum>(cx: &mut OpCx, name: &str, what: &str) -> Option<E> {
    let attribute = cx.view.attribute(name)?;
    let raw = E::raw_name(attribute);
    match raw.as_deref().map(str::parse::<E>) {
        Some(Ok(member)) => Some(member),
        _ => {
            cx.error(format!(
                "{name} must be {what} {}, got {}",
                E::member_list(),
                attribute
            ));
            None
        }
    }
}

pub fn notify(cx: &mut OpCx) {
    enum_member::<NotifyOp>(cx, "op", "NotifyOp");
    let Some(target) = cx.signal("target") else {
        return;
    };
    if cx.tuple_rank("offsets", "target", target.rank()) {
        offsets_in_bounds(cx, "offsets", &target);
    }
}

pub fn wait(cx: &mut OpCx, deferred: bool) {
    let cmp = enum_member::<WaitCmp>(cx, "cmp", "WaitCmp");
    if deferred && cmp == Some(WaitCmp::Eq) {
        cx.error("supports only cmp = \"ge\"");
    }
    let Some(signal) = cx.signal("signal") else {
        return;
    };
    if cx.tuple_rank("offsets", "signal", signal.rank()) {
        offsets_in_bounds(cx, "offsets", &signal);
    }
    if deferred {
        if let Some(value) = cx.one("signal") {
            if !is_function_parameter(value) {
                cx.error("signal must be a parameter of the enclosing function");
            }
        }
    }
}

/// Whether `value` is an argument of a function's entry block.
fn is_function_parameter(value: melior::ir::Value) -> bool {
    use melior::ir::{
        block::{BlockArgument, BlockLike},
        operation::OperationLike,
        RegionLike,
    };
    let Ok(argument) = BlockArgument::try_from(value) else {
        return false;
    };
    let block = argument.owner();
    let Some(function) = block
        .parent_operation()
        .filter(|op| pld_ir::op_name(op) == "func.func")
    else {
        return false;
    };
    function
        .region(0)
        .ok()
        .and_then(|body| body.first_block())
        .is_some_and(|entry| entry == block)
}

pub fn cacheinvalid(cx: &mut OpCx) {
    let sizes = cx.group("sizes").len();
    let offsets = cx.group("offsets").len();
    if cx.one("tensor").is_none() {
        if sizes + offsets != 0 {
            cx.error("sizes and offsets need a tensor (the whole-GM form has no operands)");
        }
        return;
    }
    let Some(tensor) = cx.distributed("tensor") else {
        return;
    };
    if cx.tuple_rank("sizes", "tensor", tensor.rank()) {
        cx.tuple_rank("offsets", "tensor", tensor.rank());
    }
}
