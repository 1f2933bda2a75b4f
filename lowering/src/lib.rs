//! pld passes, named pipelines and the pass registry.
//!
//! The MLIR C API cannot register a named pass globally, so this crate owns
//! the names: [`registry`] lists every pld pass and named pipeline, and
//! [`pipeline`] parses `builtin.module(...)` pipeline strings that mix pld
//! passes with upstream MLIR passes and runs them one pass at a time (so a
//! tool can verify and print the IR between passes).

pub mod build;
pub mod composite;
pub mod host;
pub mod ir;
pub mod pass;
pub mod passes;
pub mod pipeline;
pub mod registry;
