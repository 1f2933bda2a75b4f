//! Walking the IR and reading what every pass asks of an op: its name, its
//! functions, its enclosing ops, constants.

use crate::attr;
use melior::ir::{
    operation::{OperationLike, OperationResult, WalkOrder, WalkResult},
    r#type::FunctionType,
    BlockRef, OperationRef, Value,
};

/// Name of an op as a `String` (empty if it is not valid UTF-8).
pub fn op_name<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> String {
    // SAFETY: `op.name()` is an identifier owned by the op's context, alive
    // while `op` is; the string is copied before returning.
    attr::string_ref(unsafe { mlir_sys::mlirIdentifierStr(op.name().to_raw()) })
}

/// Every op nested in `root` (not `root` itself), in pre-order (program
/// order), whose name satisfies `keep`.
pub fn collect<'c, 'a>(
    root: OperationRef<'c, 'a>,
    keep: impl Fn(&str) -> bool,
) -> Vec<OperationRef<'c, 'a>>
where
    'c: 'a,
{
    let mut raw = Vec::new();
    let root_raw = root.to_raw();
    root.walk(WalkOrder::PreOrder, |op| {
        if op.to_raw().ptr != root_raw.ptr && keep(&op_name(&op)) {
            raw.push(op.to_raw());
        }
        WalkResult::Advance
    });
    // SAFETY: the ops are nested in `root`, so they live as long as the
    // borrow `'a` of `root`; the walk is over before any is handed out.
    raw.into_iter()
        .map(|r| unsafe { OperationRef::from_raw(r) })
        .collect()
}

/// Every op nested in `root` and `root` itself, in pre-order.
pub fn all_ops<'c, 'a>(root: OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>>
where
    'c: 'a,
{
    let mut ops = vec![root];
    ops.extend(collect(root, |_| true));
    ops
}

/// The `func.func`s a pass anchored on `root` works on: `root` itself when
/// it is one, then every function nested in it, in program order.
pub fn functions<'c, 'a>(root: OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>>
where
    'c: 'a,
{
    let mut functions = collect(root, |n| n == "func.func");
    if op_name(&root) == "func.func" {
        functions.insert(0, root);
    }
    functions
}

/// The function called `name` among the functions of `root`.
pub fn find_function<'c, 'a>(root: OperationRef<'c, 'a>, name: &str) -> Option<OperationRef<'c, 'a>>
where
    'c: 'a,
{
    functions(root)
        .into_iter()
        .find(|f| symbol_name(*f).as_deref() == Some(name))
}

/// The ops enclosing `op`, innermost first, up to (not including) the
/// first `func.func`.
pub fn ancestors<'c, 'a>(op: OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>>
where
    'c: 'a,
{
    let mut chain = Vec::new();
    let mut current = op.parent_operation();
    while let Some(parent) = current {
        if op_name(&parent) == "func.func" {
            break;
        }
        chain.push(parent);
        current = parent.parent_operation();
    }
    chain
}

/// The `func.func` that encloses `op`, if any.
pub fn enclosing_function<'c, 'a>(op: OperationRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    let mut current = op.parent_operation();
    while let Some(parent) = current {
        if op_name(&parent) == "func.func" {
            return Some(parent);
        }
        current = parent.parent_operation();
    }
    None
}

/// The `sym_name` of a symbol op (a function).
pub fn symbol_name(op: OperationRef) -> Option<String> {
    attr::string(op.attribute("sym_name").ok()?)
}

/// The value of an integer constant (`arith.constant`), if `value` is one.
pub fn constant_int(value: Value) -> Option<i64> {
    let result = OperationResult::try_from(value).ok()?;
    let owner = result.owner();
    if op_name(&owner) != "arith.constant" {
        return None;
    }
    attr::int(owner.attribute("value").ok()?)
}

/// The `function_type` of a `func.func`.
pub fn function_type<'c>(function: OperationRef<'c, '_>) -> Option<FunctionType<'c>> {
    let ty = crate::attr::type_value(function.attribute("function_type").ok()?)?;
    FunctionType::try_from(ty).ok()
}

/// Whether `op`, or an op enclosing it inside its function, is in a block
/// that its region's branches (`cf.br`, `cf.cond_br`, ...) can reach again
/// from itself: a loop written as unstructured control flow.
pub fn in_branch_cycle(op: OperationRef) -> bool {
    enclosing_blocks(op).any(|block| {
        let start = block.to_raw().ptr;
        reaches(successors(block), None, |b| b.to_raw().ptr == start)
    })
}

/// Whether `op`, or an op enclosing it inside its function, is in a block
/// that its region's branches can go around: a path of `cf` branches from
/// the region's entry to a block that leaves the region (its terminator
/// has no successors) avoids it. A block every path runs is not one.
pub fn in_skippable_block(op: OperationRef) -> bool {
    use melior::ir::{block::BlockLike, RegionLike};
    enclosing_blocks(op).any(|block| {
        let avoided = block.to_raw().ptr;
        let Some(entry) = block.parent_region().and_then(|r| r.first_block()) else {
            return false;
        };
        let leaves = |b: BlockRef| b.terminator().is_some_and(|t| t.successor_count() == 0);
        entry.to_raw().ptr != avoided && reaches(vec![entry], Some(avoided), leaves)
    })
}

/// The blocks of `op` and of the ops enclosing it inside its function,
/// innermost first.
fn enclosing_blocks<'c, 'a>(op: OperationRef<'c, 'a>) -> impl Iterator<Item = BlockRef<'c, 'a>>
where
    'c: 'a,
{
    std::iter::once(op)
        .chain(ancestors(op))
        .filter_map(|o| o.block())
}

/// The blocks `block`'s terminator branches to.
fn successors<'c, 'a>(block: BlockRef<'c, 'a>) -> Vec<BlockRef<'c, 'a>> {
    use melior::ir::block::BlockLike;
    block.terminator().map_or_else(Vec::new, |t| {
        (0..t.successor_count())
            .filter_map(|i| t.successor(i).ok())
            .collect()
    })
}

/// Whether a block for which `found` holds is reached from `starts`
/// (themselves included) along branches, never entering `avoided`.
fn reaches<'c, 'a>(
    starts: Vec<BlockRef<'c, 'a>>,
    avoided: Option<*mut std::ffi::c_void>,
    found: impl Fn(BlockRef<'c, 'a>) -> bool,
) -> bool {
    let mut seen = std::collections::HashSet::new();
    let mut pending: Vec<BlockRef> = starts
        .into_iter()
        .filter(|b| Some(b.to_raw().ptr) != avoided && seen.insert(b.to_raw().ptr))
        .collect();
    while let Some(current) = pending.pop() {
        if found(current) {
            return true;
        }
        for next in successors(current) {
            if Some(next.to_raw().ptr) != avoided && seen.insert(next.to_raw().ptr) {
                pending.push(next);
            }
        }
    }
    false
}
