//! Guards against known crashes of upstream MLIR 22 passes that pld's
//! drivers can run: each finds the op the pass would crash on, so the
//! driver reports an error there instead
//! (`tests/lit/passes/convert-shard-to-pld/partition-guard.mlir`).

use crate::attr;
use melior::ir::{operation::OperationLike, r#type::RankedTensorType, OperationRef};

/// An op upstream `shard-partition` (LLVM 22.1) would crash on, and why:
///
/// * a `shard.sharding` with `sharded_dims_offsets` that a `shard.shard`
///   uses (resharding such a tensor dereferences a null value in
///   `partitionTriviallyShardableOperation`);
/// * in a function with sharding annotations, an op (not of the shard
///   dialect) with a tensor operand that no `shard.shard` annotates, as
///   `sharding-propagation` leaves none (a `tensor.empty` feeding a
///   `linalg.matmul`, a `func.call` of an argument: the pass segfaults).
pub fn shard_partition_crash<'c, 'a>(
    root: OperationRef<'c, 'a>,
) -> Option<(OperationRef<'c, 'a>, &'static str)>
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
             function argument itself",
        ));
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
                 shard-partition (LLVM 22) crashes; run sharding-propagation before it",
            )
        })
}

/// Whether `op` has a ranked tensor operand not defined by a `shard.shard`.
fn unannotated_tensor_operand(op: OperationRef) -> bool {
    crate::operands(op).into_iter().any(|value| {
        RankedTensorType::try_from(crate::type_of(value)).is_ok()
            && crate::defining_op(value).is_none_or(|d| crate::op_name(&d) != "shard.shard")
    })
}
