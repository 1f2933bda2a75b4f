//! Shared pieces of the composite (InCore) rail, docs/passes/pld-lower-composite-ops.md.

pub mod comm;
pub mod exchange;
pub mod geometry;
pub mod mesh;
pub mod ring;
pub mod row;
