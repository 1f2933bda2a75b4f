//! Guards against known crashes of upstream MLIR 22 passes that pld's
//! drivers can run: each finds the op the pass would crash on, so the
//! driver reports an error there instead
//! (`tests/lit/passes/convert-shard-to-pld/partition-guard.mlir`).

use crate::attr;
use melior::ir::{operation::OperationLike, r#type::RankedTensorType, OperationRef};

/// An op upstream `shard-partition` (LLVM 22.1) would crash on, or build
/// invalid IR for, and why:
///
/// * a `shard.sharding` with `sharded_dims_offsets` that a `shard.shard`
///   uses (resharding such a tensor dereferences a null value in
///   `partitionTriviallyShardableOperation`);
/// * a `shard.shard` whose sharding splits a static tensor axis evenly
///   over more devices than divide it (the pass cuts every shard to the
///   rounded-down size, then fails on a `tensor.cast` the source never
///   had);
/// * in a function with sharding annotations, an op (not of the shard
///   dialect) with a tensor operand that no `shard.shard` annotates, as
///   `sharding-propagation` leaves none (a `tensor.empty` feeding a
///   `linalg.matmul`, a `func.call` of an argument: the pass segfaults).
pub fn shard_partition_crash<'c, 'a>(
    root: OperationRef<'c, 'a>,
) -> Option<(OperationRef<'c, 'a>, String)>
where
    'c: 'a,
{
    let shards = crate::collect(root, |n| n == "shard.shard");
    let uneven = shards
        .iter()
        .filter_map(|shard| crate::operand(*shard, 1).and_then(crate::defining_op))
        .find(|sharding| {
            sharding
                .attribute("static_sharded_dims_offsets")
                .ok()
                .and_then(attr::i64_array)
                .is_some_and(|offsets| !offsets.is_empty())
        });
    if let Some(sharding) = uneven {
        return Some((
            sharding,
            "has sharded_dims_offsets, on which upstream shard-partition (LLVM 22) crashes; \
             leave shard-partition out: convert-shard-to-pld reshards an unevenly sharded \
             function argument itself"
                .into(),
        ));
    }
    let grids = crate::collect(root, |n| n == "shard.grid");
    if let Some(found) = shards.iter().find_map(|s| undivided_split(*s, &grids)) {
        return Some(found);
    }
    let annotated: Vec<OperationRef> = shards
        .iter()
        .filter_map(|s| crate::enclosing_function(*s))
        .collect();
    annotated
        .into_iter()
        .flat_map(|f| crate::collect(f, |n| !n.starts_with("shard.") && n != "func.return"))
        .find(|op| unannotated_tensor_operand(*op))
        .map(|op| {
            (
                op,
                "has a tensor operand that no shard.shard annotates, on which upstream \
                 shard-partition (LLVM 22) crashes; run sharding-propagation before it"
                    .into(),
            )
        })
}

/// A `shard.shard` whose sharding (without `sharded_dims_offsets`) splits
/// a static axis of its tensor over a device count that does not divide
/// it, and the error for it.
fn undivided_split<'c, 'a>(
    shard: OperationRef<'c, 'a>,
    grids: &[OperationRef<'c, 'a>],
) -> Option<(OperationRef<'c, 'a>, String)> {
    let sharding = crate::operand(shard, 1).and_then(crate::defining_op)?;
    let lists = attr::shard_axis_array(sharding.attribute("split_axes").ok()?)?;
    let grid_name = attr::flat_symbol(sharding.attribute("grid").ok()?)?;
    let grid = grids
        .iter()
        .find(|g| crate::symbol_name(**g).as_deref() == Some(grid_name.as_str()))?;
    let grid_shape = attr::i64_array(grid.attribute("shape").ok()?)?;
    let tensor = RankedTensorType::try_from(crate::type_of(crate::operand(shard, 0)?)).ok()?;
    let shape = crate::types::tensor_shape(tensor);
    lists.iter().enumerate().find_map(|(axis, grid_axes)| {
        let size = (*shape.get(axis)?)?;
        let devices = grid_axes
            .iter()
            .map(|a| grid_shape.get(*a).copied().filter(|d| *d > 0))
            .try_fold(1i64, |n, d| n.checked_mul(d?))?;
        (!grid_axes.is_empty() && size % devices != 0).then(|| {
            (
                shard,
                format!(
                    "splits axis {axis} ({size} elements) evenly over {devices} devices, which \
                     does not divide it; upstream shard-partition (LLVM 22) builds invalid IR \
                     for it: give the sharding sharded_dims_offsets (and leave shard-partition \
                     out: convert-shard-to-pld reshards an unevenly sharded function argument \
                     itself)"
                ),
            )
        })
    })
}

/// Whether `op` has a ranked tensor operand not defined by a `shard.shard`.
fn unannotated_tensor_operand(op: OperationRef) -> bool {
    crate::operands(op).into_iter().any(|value| {
        RankedTensorType::try_from(crate::type_of(value)).is_ok()
            && crate::defining_op(value).is_none_or(|d| crate::op_name(&d) != "shard.shard")
    })
}
