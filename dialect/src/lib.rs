//! The `pld` and `pto` MLIR dialects.
//!
//! * [`context()`] makes an MLIR context with every upstream dialect and both
//!   IRDL dialects loaded.
//! * [`schema`] reads operand layouts from the IRDL files (the single source
//!   of truth); [`ops`] wraps every op family with named accessors and a
//!   builder on top of it.
//! * [`types`] classifies tensors (plain, distributed, tile) and reads their
//!   properties; [`enums`] holds the ABI enums.
//! * [`query`] reads pld facts off the IR (a function's kind, whether it is
//!   a synthesized builtin kernel); [`target`] the module's `pld.target`.
//! * [`collective`] is the one table of per-collective facts
//!   ([`collective::CollectiveKind`]).
//! * [`verify`] is the semantic verifier behind the `pld-verify` pass.
//!
//! Generic IR work (walks, attribute readers, parsing, diagnostics) lives
//! in `pld_ir`, below this crate.

pub mod collective;
pub mod context;
pub mod enums;
pub mod launch;
pub mod ops;
pub mod pto_types;
pub mod query;
pub mod schema;
pub mod target;
pub mod types;
pub mod verify;

pub use context::{context, parse_source, parse_source_bytes, parse_source_op, PLD_IRDL, PTO_IRDL};
