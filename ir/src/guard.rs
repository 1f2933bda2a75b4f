//! Guards against known crashes of upstream MLIR 22 passes that pld's
//! drivers can run: each finds the op the pass would crash on, so the
//! driver reports an error there instead (`tests/lit/passes/convert-shard-to-pld/partition-guard.mlir`).

use crate::attr;
use melior::ir::{operation::OperationLike, OperationRef};

/// The `shard.sharding` that upstream `shard-partition` (LLVM 22.1) would
/// crash on: one with `sharded_dims_offsets` that a `shard.shard` uses
/// (the pass dereferences a null value in
/// `partitionTriviallyShardableOperation` when it reshards such a tensor,
/// and yields dynamic shapes for it otherwise).
pub fn shard_partition_crash<'c, 'a>(root: OperationRef<'c, 'a>) -> Option<OperationRef<'c, 'a>>
where
    'c: 'a,
{
    crate::collect(root, |n| n == "shard.shard")
        .into_iter()
        .filter_map(|shard| crate::operand(shard, 1).and_then(crate::defining_op))
        .find(|sharding| {
            sharding
                .attribute("static_sharded_dims_offsets")
                .ok()
                .and_then(attr::i64_array)
                .is_some_and(|offsets| !offsets.is_empty())
        })
}
