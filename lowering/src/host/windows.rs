//! Which allocation a distributed value belongs to.
//!
//! A view is bound to its allocation by SSA: `pld.tensor_window` takes the
//! `pld.tensor_alloc_window_buffer` result as its operand. Other values
//! reach a view through a collective's result ("window as result"), a
//! slice of it, a loop-carried value or a region's result; [`allocation_of`]
//! follows those links back.

use super::roles;
use melior::ir::{OperationRef, Value};
use pld_dialect::ops::host::CommDomain;
use pld_dialect::ops::window::Window;
use pld_dialect::ops::{window::AllocWindowBuffer, OpView};
use pld_ir::op_name;
use pld_ir::{argument_site, defining_op, operand, region_terminator, result_number};

/// The `pld.tensor_alloc_window_buffer` a distributed value is a view of,
/// or `None` (a function parameter, or a value of unknown origin).
pub fn allocation_of<'c, 'a>(value: Value<'c, 'a>) -> Option<OperationRef<'c, 'a>>
where
    'c: 'a,
{
    let mut value = value;
    // Each step moves to a value defined earlier, so this ends; the bound
    // guards against malformed cyclic IR all the same.
    for _ in 0..10_000 {
        value = match defining_op(value) {
            Some(owner) => {
                let index = result_number(value);
                match op_name(&owner).as_str() {
                    Window::NAME => {
                        let defining = defining_op(operand(owner, 0)?)?;
                        return AllocWindowBuffer::cast(defining).map(|a| a.op());
                    }
                    // A slice of a view is a view of the same allocation.
                    "tensor.extract_slice" => operand(owner, 0)?,
                    // A loop's result starts as its init value.
                    "scf.for" => operand(owner, 3 + index)?,
                    // A while's results are what its scf.condition passes.
                    "scf.while" => operand(region_terminator(owner, 0)?, 1 + index)?,
                    // A region op's result is what its body yields.
                    CommDomain::NAME => operand(region_terminator(owner, 0)?, index)?,
                    // An scf.if result is a view only when both branches
                    // yield views of one allocation.
                    "scf.if" => {
                        let then = operand(region_terminator(owner, 0)?, index)?;
                        let other = operand(region_terminator(owner, 1)?, index)?;
                        let allocation = allocation_of(then)?;
                        return (allocation_of(other)? == allocation).then_some(allocation);
                    }
                    name => {
                        let kind = roles::host_kind(name)?;
                        OpView::new(owner)?.one(kind.facts().alias.group())?
                    }
                }
            }
            None => {
                let site = argument_site(value)?;
                match op_name(&site.parent).as_str() {
                    // Argument 0 is the induction variable; the others are
                    // the loop-carried values, initialised by operands 3...
                    "scf.for" if site.number > 0 => operand(site.parent, 3 + site.number - 1)?,
                    "scf.while" if site.region_is_first => operand(site.parent, site.number)?,
                    // The "after" region receives what scf.condition
                    // forwards after the condition.
                    "scf.while" => operand(region_terminator(site.parent, 0)?, 1 + site.number)?,
                    _ => return None,
                }
            }
        };
    }
    None
}

/// The allocation's name.
pub fn allocation_name(allocation: OperationRef) -> String {
    AllocWindowBuffer::cast(allocation)
        .and_then(|a| a.name())
        .unwrap_or_default()
}
