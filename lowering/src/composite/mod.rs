//! Shared pieces of the composite (InCore) rail, spec 7.1.

pub mod comm;
pub mod exchange;
pub mod geometry;
pub mod mesh;
pub mod ring;
pub mod row;
