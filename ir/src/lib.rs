//! pld's MLIR infrastructure, shared by every crate above it.
//!
//! melior's safe API covers most of building and reading IR. What it does
//! not cover goes through the MLIR C API here, and only here: this crate is
//! the one place with direct `mlir_sys` calls, each `unsafe` block with the
//! reason it is sound. The crates above (dialect, lowering, backend, sim,
//! tools) hold no `unsafe` for MLIR.
//!
//! * [`walk`], [`nav`], [`edit`], [`loc`]: walking, use-def navigation,
//!   mutation and locations; re-exported at the crate root, so callers write
//!   `use pld_ir as ir; ir::collect(..)`.
//! * [`attr`], [`types`]: readers for builtin attributes and types.
//! * [`build`]: a builder that inserts arith/scf IR before an anchor.
//! * [`parse`], [`print`]: reading and writing modules as `mlir-opt` does;
//!   [`bytecode`]: the counts of a bytecode file MLIR's reader trusts;
//!   [`nesting`]: the guard that refuses text MLIR would recurse too deeply on.
//! * [`diag`]: emitting diagnostics and capturing them for display.
//! * [`pass`], [`pipeline`], [`registry`]: the pass adapter (every pld pass
//!   declares its anchor and receives `&Context`), pipeline strings that
//!   mix pld and upstream passes, and the registry of named passes;
//!   [`global`] puts a registry into MLIR's global pass registry, for hosts
//!   that parse pipelines themselves.
//! * [`engine`]: MLIR's JIT, made without LLVM's perf listener.
//! * [`orc`]: machine code compiled earlier, loaded back from its object
//!   file (LLVM's ORC JIT, the only LLVM C API calls).

pub mod attr;
pub mod build;
pub mod bytecode;
pub mod diag;
pub mod edit;
pub mod engine;
pub mod global;
pub mod guard;
pub mod loc;
pub mod nav;
pub mod nesting;
pub mod orc;
pub mod parse;
pub mod pass;
pub mod pass_options;
pub mod pipeline;
pub mod print;
pub mod registry;
pub mod types;
pub mod walk;

pub use build::{constant, i64_type};
pub use edit::*;
pub use loc::*;
pub use nav::*;
pub use walk::*;
