//! Small IR utilities the passes share: walking, moving, erasing, names.
//!
//! melior's safe API covers building and reading IR; the few mutations the
//! passes need beyond it go through the MLIR C API here, in one place.

use melior::{
    ir::{
        attribute::IntegerAttribute,
        operation::{OperationLike, WalkOrder, WalkResult},
        r#type::IntegerType,
        BlockLike, Location, Operation, OperationRef, Type, Value, ValueLike,
    },
    Context,
};
use pld_dialect::ops::op_name;

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
    // SAFETY: the ops are nested in `root`, which outlives the result.
    raw.into_iter()
        .map(|r| unsafe { OperationRef::from_raw(r) })
        .collect()
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

/// The outermost op enclosing `op` (the module), or `op` itself.
pub fn outermost<'c, 'a>(op: OperationRef<'c, 'a>) -> OperationRef<'c, 'a> {
    let mut top = op;
    while let Some(parent) = top.parent_operation() {
        top = parent;
    }
    top
}

/// Replaces every use of `old` by `new`.
pub fn replace_all_uses(old: Value, new: Value) {
    unsafe { mlir_sys::mlirValueReplaceAllUsesOfWith(old.to_raw(), new.to_raw()) }
}

/// Detaches `op` from its block and destroys it. Its results must be
/// unused.
pub fn erase(op: OperationRef) {
    unsafe {
        mlir_sys::mlirOperationRemoveFromParent(op.to_raw());
        mlir_sys::mlirOperationDestroy(op.to_raw());
    }
}

/// Moves `op` (with its regions) right before `anchor`, which may be in
/// another block.
pub fn move_before(op: OperationRef, anchor: OperationRef) {
    unsafe { mlir_sys::mlirOperationMoveBefore(op.to_raw(), anchor.to_raw()) }
}

/// Replaces the operands of `op`; the count may change.
pub fn set_operands(op: OperationRef, values: &[Value]) {
    let raw: Vec<_> = values.iter().map(|v| v.to_raw()).collect();
    unsafe { mlir_sys::mlirOperationSetOperands(op.to_raw(), raw.len() as isize, raw.as_ptr()) }
}

/// Sets the location of `op`.
pub fn set_location(op: OperationRef, location: Location) {
    unsafe { mlir_sys::mlirOperationSetLocation(op.to_raw(), location.to_raw()) }
}

/// The names an op's location carries (`loc("name")`, also inside fused
/// and call-site locations).
pub fn location_names(location: Location) -> Vec<String> {
    let mut names = Vec::new();
    let mut pending = vec![location];
    while let Some(location) = pending.pop() {
        if location.is_name() {
            let name = location.name_value();
            names.push(pld_dialect::attr::string_ref(unsafe {
                mlir_sys::mlirIdentifierStr(name.to_raw())
            }));
            pending.push(location.name_child_location());
        } else if location.is_fused() {
            pending.extend((0..location.fused_num_locations()).map(|i| location.fused_location(i)));
        } else if location.is_call_site() {
            pending.push(location.call_site_callee());
            pending.push(location.call_site_caller());
        }
    }
    names
}

/// `location` wrapped in a name, so that printing with
/// `--mlir-use-nameloc-as-prefix` shows `%name` for the op's result.
pub fn named<'c>(context: &'c Context, name: &str, location: Location<'c>) -> Location<'c> {
    Location::name(context, name, location)
}

/// `arith.constant value : ty` (an integer or index type).
pub fn constant<'c>(
    context: &'c Context,
    ty: Type<'c>,
    value: i64,
    location: Location<'c>,
) -> Operation<'c> {
    melior::dialect::arith::constant(context, IntegerAttribute::new(ty, value).into(), location)
}

/// The `i64` type.
pub fn i64_type(context: &Context) -> Type<'_> {
    IntegerType::new(context, 64).into()
}

/// The first result of an op that has one.
pub fn result<'c, 'a>(op: OperationRef<'c, 'a>) -> Value<'c, 'a>
where
    'c: 'a,
{
    op.result(0).expect("op built with one result").into()
}

/// Inserts `op` before `anchor` in `anchor`'s block and returns it.
pub fn insert_before<'c, 'a>(
    anchor: OperationRef<'c, 'a>,
    op: Operation<'c>,
) -> OperationRef<'c, 'a>
where
    'c: 'a,
{
    let block = anchor.block().expect("anchor is in a block");
    block.insert_operation_before(anchor, op)
}

/// Reports an error about `op` at its location, prefixed like MLIR's own
/// op diagnostics.
pub fn error(op: OperationRef, message: &str) {
    pld_dialect::verify::emit_error(op.location(), &format!("'{}' op {message}", op_name(&op)));
}

// Navigation with uniform lifetimes. melior ties a value reached from an
// op to a borrow of that op, which makes use-def walks awkward; these read
// the same links through the C API and keep the IR's lifetimes.

/// The op that defines `value`, if it is an op result.
pub fn defining_op<'c, 'a>(value: Value<'c, 'a>) -> Option<OperationRef<'c, 'a>>
where
    'c: 'a,
{
    unsafe {
        mlir_sys::mlirValueIsAOpResult(value.to_raw())
            .then(|| OperationRef::from_raw(mlir_sys::mlirOpResultGetOwner(value.to_raw())))
    }
}

/// The index of `value` among its defining op's results.
pub fn result_number(value: Value) -> usize {
    unsafe { mlir_sys::mlirOpResultGetResultNumber(value.to_raw()) as usize }
}

/// Operand `index` of `op`.
pub fn operand<'c, 'a>(op: OperationRef<'c, 'a>, index: usize) -> Option<Value<'c, 'a>>
where
    'c: 'a,
{
    unsafe {
        let raw = op.to_raw();
        (index < mlir_sys::mlirOperationGetNumOperands(raw) as usize)
            .then(|| Value::from_raw(mlir_sys::mlirOperationGetOperand(raw, index as isize)))
    }
}

/// For a block argument: the op owning its block, the index of that block's
/// region in the op, whether the block is the region's first, and the
/// argument's number.
pub struct ArgumentSite<'c, 'a> {
    pub parent: OperationRef<'c, 'a>,
    pub entry_block: bool,
    pub region_is_first: bool,
    pub number: usize,
}

/// Where a block argument lives, if `value` is one.
pub fn argument_site<'c, 'a>(value: Value<'c, 'a>) -> Option<ArgumentSite<'c, 'a>>
where
    'c: 'a,
{
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
    unsafe {
        let region = mlir_sys::mlirOperationGetRegion(op.to_raw(), index as isize);
        let block = mlir_sys::mlirRegionGetFirstBlock(region);
        if block.ptr.is_null() {
            return Vec::new();
        }
        (0..mlir_sys::mlirBlockGetNumArguments(block))
            .map(|i| Value::from_raw(mlir_sys::mlirBlockGetArgument(block, i)))
            .collect()
    }
}

/// The type of a value.
pub fn type_of<'c>(value: Value<'c, '_>) -> Type<'c> {
    value.r#type()
}
