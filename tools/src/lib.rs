//! The library behind the pld command-line tools (the binaries are thin).
//!
//! * [`diagnostics`] captures MLIR diagnostics and prints them as
//!   `file:line:col: error: message`.
//! * [`split`] cuts `--split-input-file` input into chunks.
//! * [`expectations`] implements `--verify-diagnostics`.
//! * [`opt`] is the `pld-opt` driver.

pub mod diagnostics;
pub mod expectations;
pub mod opt;
pub mod split;
