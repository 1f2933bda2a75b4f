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
//! argument into `pld.tensor_all_to_all_v`; [`kernel`] and [`program`]
//! write the result as MLIR text, which the pass parses into the module.

pub mod builder;
pub mod collectives;
pub mod convert;
pub mod grid;
pub mod kernel;
pub mod layout;
pub mod program;
pub mod reshard;
pub mod source;
pub mod text;
pub mod types;

use melior::ir::OperationRef;

/// Whether `module` still holds sharding annotations that upstream
/// `shard-partition` must partition before `convert-shard-to-pld` (every
/// `shard.shard` other than the reshard pairs of function arguments that
/// the conversion takes itself).
pub fn needs_partition(module: OperationRef) -> bool {
    pld_ir::collect(module, |n| n == "shard.shard")
        .into_iter()
        .any(|op| !reshard::in_argument_pair(op))
}
