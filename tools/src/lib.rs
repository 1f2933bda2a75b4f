//! The library behind the pld command-line tools (the binaries are thin).
//!
//! Diagnostics are captured and printed by `pld_ir::diag`.
//! * [`split`] cuts `--split-input-file` input into chunks.
//! * [`expectations`] implements `--verify-diagnostics`.
//! * [`opt`] is the `pld-opt` driver, [`translate`] the `pld-translate` one,
//!   [`run_kernel`] the `pld-run` one ([`run_program`] for whole programs,
//!   [`explore`] for `--explore` and `--replay`; [`report`] what both
//!   modes print alike: indices, signal cells, phases).
//! * [`files`] reads inputs and writes outputs, `-` meaning the terminal.
//! * [`args`] accepts LLVM's single-dash long options; [`timing`] is
//!   `pld-opt --mlir-timing`; [`params`] reads parameter names from the
//!   source (`%data`).

pub mod args;
pub mod expectations;
pub mod explore;
pub mod files;
pub mod opt;
pub mod report;
pub mod run_kernel;
pub mod run_program;
pub mod split;
pub mod timing;
pub mod translate;
