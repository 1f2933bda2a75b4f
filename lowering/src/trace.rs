//! Which kernel parameter a tensor value is (docs/passes/pld-materialize-dist-tensor-ctx.md):
//! the SSA chain from a use back to an entry-block parameter, through views,
//! collective results, loop carries and branch results. Used by
//! `pld-materialize-dist-tensor-ctx` to pick a CommContext, and by the
//! simulator to find a kernel's signals and collective operands.

use melior::ir::{operation::OperationLike, OperationRef, Value};
use pld_dialect::ops::tile::TensorView;
use pld_dialect::ops::OpView;
use pld_ir as ir;
use pld_ir::op_name;

/// Why a loop carry has no single CommContext.
#[derive(Clone, Copy, Debug)]
pub enum Carry {
    /// The body yields a value of a different window.
    Rebound,
    /// The body yields a value whose window cannot be traced.
    Untraceable,
}

impl Carry {
    pub fn message(self) -> &'static str {
        match self {
            Carry::Rebound => {
                "this loop rebinds a carried distributed tensor to a different tensor, so the \
                 CommContext of the carried value is ambiguous; carry one window per iter_arg"
            }
            Carry::Untraceable => {
                "cannot tell which window this loop carries: the value it yields for a carried \
                 distributed tensor does not derive from a parameter; yield the carried tensor \
                 (or a view or collective result of it)"
            }
        }
    }
}

pub type Traced<'c, 'a> = Result<Option<usize>, (OperationRef<'c, 'a>, Carry)>;

/// The entry-block parameter a value derives from, through views,
/// collective results, loop carries (`scf.for`, `scf.while`), `scf.if` results whose branches agree,
/// and callee results that return one of the callee's parameters.
/// `Ok(None)` when it derives from none; `Err` when a loop it flows through
/// (at any depth) yields a carry that does not derive from the carry's
/// initial value (docs/passes/pld-materialize-dist-tensor-ctx.md: a rebound carry is diagnosed, not guessed).
pub fn trace<'c, 'a>(value: Value<'c, 'a>) -> Traced<'c, 'a>
where
    'c: 'a,
{
    trace_checking(value, &mut Vec::new())
}

/// `trace`, with the loop carries being checked further up (a carry's
/// check reaches the carry itself again through the loop body).
fn trace_checking<'c, 'a>(
    value: Value<'c, 'a>,
    checking: &mut Vec<(usize, usize)>,
) -> Traced<'c, 'a>
where
    'c: 'a,
{
    let mut value = value;
    for _ in 0..10_000 {
        // Through carry `k` of an `scf.for` or `scf.while`: the initial
        // value, once the body is known to yield back the same window.
        let mut carry = |owner: OperationRef<'c, 'a>, k: usize| {
            let (init, body) = if op_name(&owner) == "scf.while" {
                (ir::operand(owner, k), 1)
            } else {
                (ir::operand(owner, 3 + k), 0)
            };
            let key = (owner.to_raw().ptr as usize, k);
            if let (Some(start), false) = (init, checking.contains(&key)) {
                let yielded = ir::region_terminator(owner, body).and_then(|y| ir::operand(y, k));
                if let Some(yielded) = yielded {
                    checking.push(key);
                    let expected = trace_checking(start, checking);
                    let actual = trace_checking(yielded, checking);
                    checking.pop();
                    let (expected, actual) = (expected?, actual?);
                    if expected != actual {
                        let why = if actual.is_none() {
                            Carry::Untraceable
                        } else {
                            Carry::Rebound
                        };
                        return Err((owner, why));
                    }
                }
            }
            Ok(init)
        };
        let next = match ir::defining_op(value) {
            Some(owner) => {
                let index = ir::result_number(value);
                match op_name(&owner).as_str() {
                    // A zero-copy view, and the bridge the CHIP rail puts
                    // between a call site's type and a canonical parameter.
                    TensorView::NAME | "builtin.unrealized_conversion_cast" => {
                        ir::operand(owner, 0)
                    }
                    "scf.for" => carry(owner, index)?,
                    // A while loop's results are what its condition passes on.
                    "scf.while" => {
                        ir::region_terminator(owner, 0).and_then(|c| ir::operand(c, index + 1))
                    }
                    "scf.if" => {
                        // Both branches must yield the same window.
                        let branch = |region| {
                            ir::region_terminator(owner, region).and_then(|y| ir::operand(y, index))
                        };
                        let (Some(then), Some(otherwise)) = (branch(0), branch(1)) else {
                            return Ok(None);
                        };
                        let then = trace_checking(then, checking)?;
                        let otherwise = trace_checking(otherwise, checking)?;
                        return Ok(if then == otherwise { then } else { None });
                    }
                    "func.call" => returned_argument(owner, index),
                    name => crate::host::roles::host_kind(name)
                        .and_then(|kind| OpView::new(owner)?.one(kind.facts().alias.group())),
                }
            }
            None => {
                let Some(site) = ir::argument_site(value) else {
                    return Ok(None);
                };
                match op_name(&site.parent).as_str() {
                    "func.func" if site.entry_block => return Ok(Some(site.number)),
                    "scf.for" if site.number > 0 => carry(site.parent, site.number - 1)?,
                    // The before region's arguments are the carries; the
                    // after region's are what the condition passes on.
                    "scf.while" if site.region_is_first => carry(site.parent, site.number)?,
                    "scf.while" => ir::region_terminator(site.parent, 0)
                        .and_then(|c| ir::operand(c, site.number + 1)),
                    _ => None,
                }
            }
        };
        match next {
            Some(next) => value = next,
            None => return Ok(None),
        }
    }
    Ok(None)
}

/// For result `index` of a call whose callee returns one of its own
/// parameters there: the call's argument for that parameter.
pub fn returned_argument<'c, 'a>(call: OperationRef<'c, 'a>, index: usize) -> Option<Value<'c, 'a>>
where
    'c: 'a,
{
    let callee = pld_ir::attr::callee(call)?;
    // The callee is a sibling of the caller in the module this pass runs on.
    let module = ir::enclosing_function(call)?.parent_operation()?;
    let function = ir::find_function(module, &callee)?;
    let returned = ir::operand(ir::region_terminator(function, 0)?, index)?;
    let site = ir::argument_site(returned)?;
    if op_name(&site.parent) != "func.func" || !site.entry_block {
        return None;
    }
    ir::operand(call, site.number)
}

/// The entry-block parameter `value` derives from ([`trace`]), or `None`
/// when it derives from none or a loop it flows through rebinds it.
pub fn parameter_of(value: Value) -> Option<usize> {
    trace(value).ok().flatten()
}
