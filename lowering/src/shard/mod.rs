//! The front end from upstream MLIR's `shard` dialect: a partitioned
//! (SPMD) shard function on a static grid becomes a pld program, a HOST
//! orchestrator with the kernels it dispatches
//! (docs/passes/convert-shard-to-pld.md).
//!
//! [`convert`] walks a function op by op into a [`program::Program`]
//! (window buffers and steps): [`collectives`] packs each shard
//! collective's input into the rows pld's collectives move ([`layout`]),
//! calls the pld collective once per device group ([`grid`]) and unpacks
//! the result; [`reshard`] turns the reshard of an (unevenly) split
//! argument into `pld.tensor_all_to_all_v`; [`slice`] copies the box of
//! a `tensor.extract_slice`; [`kernel`] and [`program`]
//! write the result as MLIR text, which the pass parses into the module.

pub mod arith;
pub mod builder;
pub mod collectives;
pub mod convert;
pub mod grid;
pub mod kernel;
pub mod layout;
pub mod program;
pub mod reshard;
pub mod slice;
pub mod source;
pub mod text;
pub mod types;

use melior::ir::{operation::OperationLike, OperationRef};

/// The shard dialect's collectives (what a partitioned function holds).
const COLLECTIVES: [&str; 12] = [
    "all_gather",
    "all_reduce",
    "all_slice",
    "all_to_all",
    "broadcast",
    "gather",
    "recv",
    "reduce",
    "reduce_scatter",
    "scatter",
    "send",
    "shift",
];

/// Whether `module` still holds sharding annotations for upstream
/// `sharding-propagation` and `shard-partition` to partition before
/// `convert-shard-to-pld`: any `shard.shard`, unless a sharding uses
/// `sharded_dims_offsets` (on which `shard-partition` crashes;
/// `convert-shard-to-pld` reshards such arguments itself, see [`reshard`]),
/// or every function that has one only reshards its arguments (shardings,
/// `shard.shard`s and its return) and one of those reshards takes more
/// than the one step `shard-partition` makes (it crashes on some, and
/// returns the first step of others): `convert-shard-to-pld` reshards an
/// argument in one collective, or refuses the reshard at its op.
pub fn needs_partition(module: OperationRef) -> bool {
    let shards = pld_ir::collect(module, |n| n == "shard.shard");
    let only_reshards = shards.iter().all(|shard| {
        pld_ir::enclosing_function(*shard).is_some_and(|f| {
            pld_ir::collect(f, |n| {
                !matches!(n, "shard.sharding" | "shard.shard" | "func.return")
            })
            .is_empty()
        })
    });
    let in_steps = shards
        .iter()
        .any(|s| pld_ir::guard::is_reshard_in_steps(*s));
    if only_reshards && in_steps {
        return false;
    }
    // A function that already holds shard collectives is partitioned:
    // sharding-propagation stops at them ("sharding interface is not
    // implemented"), and the conversion reshards its arguments itself.
    let partitioned = shards.iter().any(|shard| {
        pld_ir::enclosing_function(*shard).is_some_and(|f| {
            !pld_ir::collect(f, |n| {
                n.strip_prefix("shard.")
                    .is_some_and(|op| COLLECTIVES.contains(&op))
            })
            .is_empty()
        })
    });
    if partitioned {
        return false;
    }
    let uneven = shards.iter().any(|shard| {
        pld_ir::operand(*shard, 1)
            .and_then(pld_ir::defining_op)
            .and_then(|s| s.attribute("static_sharded_dims_offsets").ok())
            .and_then(pld_ir::attr::i64_array)
            .is_some_and(|offsets| !offsets.is_empty())
    });
    !shards.is_empty() && !uneven
}
