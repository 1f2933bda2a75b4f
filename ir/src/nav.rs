//! Use-def navigation with uniform lifetimes.
//!
//! melior ties a value reached from an op to a borrow of that op, which
//! makes use-def walks awkward; these read the same links through the C
//! API and keep the IR's lifetimes `'c` (context) and `'a` (the borrow of
//! the IR being walked).

use melior::ir::{operation::OperationLike, OperationRef, Type, Value, ValueLike};

/// The op that defines `value`, if it is an op result.
pub fn defining_op<'c, 'a>(value: Value<'c, 'a>) -> Option<OperationRef<'c, 'a>>
where
    'c: 'a,
{
    // SAFETY: `value` is a live value of the IR borrowed for `'a`; its
    // owner op lives at least as long as the value.
    unsafe {
        mlir_sys::mlirValueIsAOpResult(value.to_raw())
            .then(|| OperationRef::from_raw(mlir_sys::mlirOpResultGetOwner(value.to_raw())))
    }
}

/// The index of `value` among its defining op's results (0 for a block
/// argument, which has none).
pub fn result_number(value: Value) -> usize {
    // SAFETY: the accessor is only called on an op result, as it requires.
    unsafe {
        if !mlir_sys::mlirValueIsAOpResult(value.to_raw()) {
            return 0;
        }
        mlir_sys::mlirOpResultGetResultNumber(value.to_raw()) as usize
    }
}

/// Operand `index` of `op`.
pub fn operand<'c, 'a>(op: OperationRef<'c, 'a>, index: usize) -> Option<Value<'c, 'a>>
where
    'c: 'a,
{
    // SAFETY: the index is checked against the operand count first; the
    // operand value lives as long as the IR borrowed for `'a`.
    unsafe {
        let raw = op.to_raw();
        (index < mlir_sys::mlirOperationGetNumOperands(raw) as usize)
            .then(|| Value::from_raw(mlir_sys::mlirOperationGetOperand(raw, index as isize)))
    }
}

/// The ops that use `value`, one entry per use, in MLIR's use-list order.
pub fn users<'c, 'a>(value: Value<'c, 'a>) -> Vec<OperationRef<'c, 'a>>
where
    'c: 'a,
{
    let mut users = Vec::new();
    // SAFETY: `value` is live; each use is checked for null before its
    // owner and next use are read, and the owners live as long as the IR
    // borrowed for `'a`.
    unsafe {
        let mut operand = mlir_sys::mlirValueGetFirstUse(value.to_raw());
        while !mlir_sys::mlirOpOperandIsNull(operand) {
            users.push(OperationRef::from_raw(mlir_sys::mlirOpOperandGetOwner(
                operand,
            )));
            operand = mlir_sys::mlirOpOperandGetNextUse(operand);
        }
    }
    users
}

/// Every operand of `op`, with the IR's lifetimes.
pub fn operands<'c, 'a>(op: OperationRef<'c, 'a>) -> Vec<Value<'c, 'a>>
where
    'c: 'a,
{
    (0..op.operand_count())
        .filter_map(|i| operand(op, i))
        .collect()
}

/// For a block argument: the op owning its block, whether the block is its
/// region's first, whether that region is the op's first, and the
/// argument's number.
pub struct ArgumentSite<'c, 'a> {
    pub parent: OperationRef<'c, 'a>,
    pub entry_block: bool,
    pub region_is_first: bool,
    pub number: usize,
}

/// The block `value` is defined in (its defining op's, or the one it is
/// an argument of), as the pointer `BlockRef::to_raw().ptr` compares with.
pub fn defining_block(value: Value) -> Option<*mut std::ffi::c_void> {
    if let Some(maker) = defining_op(value) {
        return maker.block().map(|b| b.to_raw().ptr);
    }
    // SAFETY: the value is checked to be a block argument before its owner
    // is read; the block lives as long as the IR.
    unsafe {
        let raw = value.to_raw();
        if !mlir_sys::mlirValueIsABlockArgument(raw) {
            return None;
        }
        let block = mlir_sys::mlirBlockArgumentGetOwner(raw);
        (!block.ptr.is_null()).then_some(block.ptr)
    }
}

/// Where a block argument lives, if `value` is one.
pub fn argument_site<'c, 'a>(value: Value<'c, 'a>) -> Option<ArgumentSite<'c, 'a>>
where
    'c: 'a,
{
    // SAFETY: every accessor is applied to the kind of object it expects
    // (checked: block argument, then its block, region and parent op, with
    // null checks where MLIR returns null); all live as long as the IR.
    unsafe {
        let raw = value.to_raw();
        if !mlir_sys::mlirValueIsABlockArgument(raw) {
            return None;
        }
        let block = mlir_sys::mlirBlockArgumentGetOwner(raw);
        let parent = mlir_sys::mlirBlockGetParentOperation(block);
        if parent.ptr.is_null() {
            return None;
        }
        let region = mlir_sys::mlirBlockGetParentRegion(block);
        let first_region = mlir_sys::mlirOperationGetRegion(parent, 0);
        Some(ArgumentSite {
            parent: OperationRef::from_raw(parent),
            entry_block: mlir_sys::mlirRegionGetFirstBlock(region).ptr == block.ptr,
            region_is_first: first_region.ptr == region.ptr,
            number: mlir_sys::mlirBlockArgumentGetArgNumber(raw) as usize,
        })
    }
}

/// The terminator of the first block of region `index` of `op`.
pub fn region_terminator<'c, 'a>(
    op: OperationRef<'c, 'a>,
    index: usize,
) -> Option<OperationRef<'c, 'a>>
where
    'c: 'a,
{
    // SAFETY: the region index is checked against the region count and the
    // block and terminator against null before use.
    unsafe {
        let raw = op.to_raw();
        if index >= mlir_sys::mlirOperationGetNumRegions(raw) as usize {
            return None;
        }
        let block = mlir_sys::mlirRegionGetFirstBlock(mlir_sys::mlirOperationGetRegion(
            raw,
            index as isize,
        ));
        if block.ptr.is_null() {
            return None;
        }
        let terminator = mlir_sys::mlirBlockGetTerminator(block);
        (!terminator.ptr.is_null()).then(|| OperationRef::from_raw(terminator))
    }
}

/// The arguments of the first block of region `index` of `op`.
pub fn entry_arguments<'c, 'a>(op: OperationRef<'c, 'a>, index: usize) -> Vec<Value<'c, 'a>>
where
    'c: 'a,
{
    // SAFETY: the region index is checked and the block against null; the
    // argument indices come from the block's own count.
    unsafe {
        let raw = op.to_raw();
        if index >= mlir_sys::mlirOperationGetNumRegions(raw) as usize {
            return Vec::new();
        }
        let region = mlir_sys::mlirOperationGetRegion(raw, index as isize);
        let block = mlir_sys::mlirRegionGetFirstBlock(region);
        if block.ptr.is_null() {
            return Vec::new();
        }
        (0..mlir_sys::mlirBlockGetNumArguments(block))
            .map(|i| Value::from_raw(mlir_sys::mlirBlockGetArgument(block, i)))
            .collect()
    }
}

/// Result `index` of `op`, if it has that many. Use this, not melior's
/// `result(index)`, wherever the result may be missing: melior's error
/// prints the whole op (and, for a nested op, verifies and numbers the
/// module around it), which makes a walk over the ops quadratic.
pub fn result_at<'c, 'a>(op: OperationRef<'c, 'a>, index: usize) -> Option<Value<'c, 'a>>
where
    'c: 'a,
{
    (index < op.result_count()).then(|| op.result(index).ok().map(Into::into))?
}

/// Region `index` of `op`, if it has that many (see [`result_at`] for why
/// not melior's `region(index)`).
pub fn region_at<'c, 'a>(
    op: OperationRef<'c, 'a>,
    index: usize,
) -> Option<melior::ir::RegionRef<'c, 'a>>
where
    'c: 'a,
{
    (index < op.region_count()).then(|| op.region(index).ok())?
}

/// The first result of an op that has one.
pub fn result<'c, 'a>(op: OperationRef<'c, 'a>) -> Value<'c, 'a>
where
    'c: 'a,
{
    op.result(0).expect("op built with one result").into()
}

/// The type of a value.
pub fn type_of<'c>(value: Value<'c, '_>) -> Type<'c> {
    value.r#type()
}

/// Whether `op` runs before `other` in program order: `op`, or the op
/// holding it, comes first in the block of `other` (`false` when `op` is
/// `other` or not in the same region tree, or when `op` sits in a region of
/// `other`).
pub fn runs_before(op: OperationRef, other: OperationRef) -> bool {
    let block = |o: &OperationRef| o.block().map(|b| b.to_raw().ptr);
    let mut ancestor = Some(op);
    while let Some(a) = ancestor {
        if block(&a) == block(&other) {
            // SAFETY: both ops are live and in the same block, which the
            // call requires.
            return a != other
                && unsafe { mlir_sys::mlirOperationIsBeforeInBlock(a.to_raw(), other.to_raw()) };
        }
        ancestor = a.parent_operation();
    }
    false
}
