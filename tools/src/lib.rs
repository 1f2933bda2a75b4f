//! The library behind the pld command-line tools (the binaries are thin).
//!
//! * [`diagnostics`] captures MLIR diagnostics and prints them as
//!   `file:line:col: error: message`.
//! * [`split`] cuts `--split-input-file` input into chunks.
//! * [`expectations`] implements `--verify-diagnostics`.
//! * [`opt`] is the `pld-opt` driver, [`translate`] the `pld-translate` one,
//!   [`run`] the `pld-run` one.
//! * [`files`] reads inputs and writes outputs, `-` meaning the terminal.

pub mod diagnostics;
pub mod expectations;
pub mod files;
pub mod opt;
pub mod run;
pub mod split;
pub mod translate;
