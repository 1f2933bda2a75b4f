//! Mutating IR beyond melior's safe API: erasing, moving, retyping,
//! attributes, operands, function signatures.
//!
//! Erasure is deferred. An `OperationRef` is `Copy`, so a pass may still
//! hold a reference to an op it erased (in a list collected before the
//! loop, say); destroying the op at once would leave that reference
//! dangling. [`erase`] therefore only detaches the op, and the op is
//! destroyed when the innermost [`erasure_scope`] ends. The pass adapter
//! opens one scope around every pass run, and `pld_ir::pipeline` one around
//! every step, so no reference a pass holds outlives the memory it points
//! to.

use melior::{
    ir::{
        attribute::{ArrayAttribute, DictionaryAttribute, TypeAttribute},
        block::BlockArgument,
        operation::OperationLike,
        r#type::FunctionType,
        Attribute, AttributeLike, BlockLike, Location, Operation, OperationRef, RegionLike, Type,
        TypeLike, Value, ValueLike,
    },
    Context, StringRef,
};
use std::cell::RefCell;

thread_local! {
    /// Ops detached by [`erase`], one list per open [`erasure_scope`],
    /// innermost last.
    static GRAVEYARD: RefCell<Vec<Vec<mlir_sys::MlirOperation>>> = const { RefCell::new(Vec::new()) };
}

/// Runs `body`; every op [`erase`]d during it is destroyed when it returns.
pub fn erasure_scope<R>(body: impl FnOnce() -> R) -> R {
    struct Scope;
    impl Drop for Scope {
        fn drop(&mut self) {
            let detached = GRAVEYARD.with(|g| g.borrow_mut().pop()).unwrap_or_default();
            for op in detached {
                // SAFETY: `op` was detached from its parent by `erase`, so
                // nothing owns it; it is destroyed exactly once, here, after
                // the code that could still reference it has returned.
                unsafe { mlir_sys::mlirOperationDestroy(op) };
            }
        }
    }
    GRAVEYARD.with(|g| g.borrow_mut().push(Vec::new()));
    let _scope = Scope;
    body()
}

/// Removes `op` from the IR. Its results must be unused. The op is
/// destroyed when the enclosing [`erasure_scope`] ends; outside any scope it
/// is only detached (and leaked), which is safe but should not happen.
pub fn erase(op: OperationRef) {
    let raw = op.to_raw();
    // SAFETY: `op` is a live op in a block; removing it from its parent
    // transfers ownership to us, and it stays allocated (see the module
    // comment), so other references to it remain valid.
    unsafe { mlir_sys::mlirOperationRemoveFromParent(raw) };
    GRAVEYARD.with(|g| {
        if let Some(scope) = g.borrow_mut().last_mut() {
            scope.push(raw);
        } else {
            debug_assert!(false, "pld_ir::erase outside an erasure scope");
        }
    });
}

/// Replaces every use of `old` by `new`.
pub fn replace_all_uses(old: Value, new: Value) {
    // SAFETY: both values are live values of the same context.
    unsafe { mlir_sys::mlirValueReplaceAllUsesOfWith(old.to_raw(), new.to_raw()) }
}

/// Moves `op` (with its regions) right before `anchor`, which may be in
/// another block.
pub fn move_before(op: OperationRef, anchor: OperationRef) {
    // SAFETY: both ops are live and in blocks; MLIR unlinks and relinks.
    unsafe { mlir_sys::mlirOperationMoveBefore(op.to_raw(), anchor.to_raw()) }
}

/// Replaces the operands of `op`; the count may change.
pub fn set_operands(op: OperationRef, values: &[Value]) {
    let raw: Vec<_> = values.iter().map(|v| v.to_raw()).collect();
    // SAFETY: `raw` holds `raw.len()` live values and outlives the call,
    // which copies them into the op's operand list.
    unsafe { mlir_sys::mlirOperationSetOperands(op.to_raw(), raw.len() as isize, raw.as_ptr()) }
}

/// Sets the location of `op`.
pub fn set_location(op: OperationRef, location: Location) {
    // SAFETY: the location is a uniqued attribute of the op's context.
    unsafe { mlir_sys::mlirOperationSetLocation(op.to_raw(), location.to_raw()) }
}

/// Sets the location of the block argument `argument`.
pub fn set_argument_location(argument: BlockArgument, location: Location) {
    // SAFETY: `argument` is a live block argument and the location a
    // uniqued attribute of its context.
    unsafe { mlir_sys::mlirBlockArgumentSetLocation(argument.to_raw(), location.to_raw()) }
}

/// Changes the type of `value` in place (uses are not rechecked: the
/// caller keeps the IR consistent).
pub fn set_type(value: Value, ty: Type) {
    // SAFETY: both handles are live objects of one context.
    unsafe { mlir_sys::mlirValueSetType(value.to_raw(), ty.to_raw()) }
}

/// Sets (or replaces) the attribute `name` of `op`.
pub fn set_attribute(op: OperationRef, name: &str, value: Attribute) {
    let name = StringRef::new(name);
    // SAFETY: `name` outlives the call; MLIR copies it into an identifier.
    unsafe { mlir_sys::mlirOperationSetAttributeByName(op.to_raw(), name.to_raw(), value.to_raw()) }
}

/// Removes the attribute `name` of `op`, if present.
pub fn remove_attribute(op: OperationRef, name: &str) {
    let name = StringRef::new(name);
    // SAFETY: `name` outlives the call.
    unsafe { mlir_sys::mlirOperationRemoveAttributeByName(op.to_raw(), name.to_raw()) };
}

/// A deep copy of `op`, owned by the caller (to be appended somewhere).
pub fn clone_op<'c>(op: OperationRef<'c, '_>) -> Operation<'c> {
    // SAFETY: the clone is a fresh op that nothing else owns; wrapping it in
    // an owned `Operation` makes its new owner responsible for it.
    unsafe { Operation::from_raw(mlir_sys::mlirOperationClone(op.to_raw())) }
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

/// Gives a `func.func` the parameter types `inputs` and result types
/// `results`: the entry block's arguments are retyped in place, arguments
/// for extra parameters are appended (with empty argument attributes when
/// the function has `arg_attrs`), and `function_type` is replaced. There
/// must be at least as many inputs as the function has parameters.
pub fn retype_function<'c>(
    context: &'c Context,
    function: OperationRef<'c, '_>,
    inputs: &[Type<'c>],
    results: &[Type<'c>],
) {
    let arguments = crate::entry_arguments(function, 0);
    for (argument, ty) in arguments.iter().zip(inputs) {
        if argument.r#type() != *ty {
            set_type(*argument, *ty);
        }
    }
    if inputs.len() > arguments.len() {
        append_entry_arguments(context, function, &inputs[arguments.len()..]);
    }
    if let Ok(attributes) = function.attribute("arg_attrs") {
        if let Some(mut items) = crate::attr::array(attributes) {
            let empty: Attribute = DictionaryAttribute::new(context, &[]).into();
            items.resize(inputs.len(), empty);
            set_attribute(
                function,
                "arg_attrs",
                ArrayAttribute::new(context, &items).into(),
            );
        }
    }
    let ty = FunctionType::new(context, inputs, results);
    set_attribute(
        function,
        "function_type",
        TypeAttribute::new(ty.into()).into(),
    );
}

fn append_entry_arguments(context: &Context, function: OperationRef, types: &[Type]) {
    let Some(block) = function.region(0).ok().and_then(|r| r.first_block()) else {
        return;
    };
    let location = Location::unknown(context);
    for ty in types {
        block.add_argument(*ty, location);
    }
}
