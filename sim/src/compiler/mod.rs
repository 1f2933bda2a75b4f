//! The simulator's compiler (layer 2 of 4, over [`crate::runtime`]):
//! the pld pipeline down to PTO ([`to_pto`]), `convert-pto-to-sim` (the
//! sim-only lowering of the PTO ops, [`lower`]), then MLIR's LLVM lowering
//! and JIT ([`jit`]), whose kernels call the runtime's device functions;
//! what they make is kept on disk ([`cache`]).

pub mod cache;
pub mod convert_pto_to_sim;
pub(crate) mod diag;
pub mod jit;
pub mod locate;
pub mod lower;
mod pld_to_pto;
pub mod registry;
mod shard;
mod source;

pub use jit::{Compiled, Kernel};
pub use pld_to_pto::{resolve_modes, to_pto, to_pto_cached, to_pto_named, to_pto_source};
pub use shard::{shard_program_for, shard_to_pld, ShardProgram};
pub use source::Source;
