//! The library behind the pld command-line tools (the binaries are thin).
//!
//! Diagnostics are captured and printed by `pld_ir::diag`.
//! * [`split`] cuts `--split-input-file` input into chunks.
//! * [`expectations`] implements `--verify-diagnostics`.
//! * [`opt`] is the `pld-opt` driver, [`translate`] the `pld-translate` one,
//!   [`run`] the `pld-run` one: [`options`] what it was asked,
//!   [`run_program`] for whole programs, [`run_kernel`] for one kernel,
//!   [`explore`] for `--explore` and `--replay`; [`inputs`] fills
//!   parameters and buffers, [`report`] is what both modes print alike:
//!   indices, signal cells, counters, phases; `source_op` reads the op
//!   written at a place of the input, which errors and findings name.
//! * [`mpi_run`] starts and ends `--transport mpi` / `mpi-rma` (one rank
//!   per MPI process); [`mpi_agree`] is what its processes agree on
//!   before the run (the same options and source; every one ready).
//! * [`files`] reads inputs and writes outputs, `-` meaning the terminal.
//! * [`args`] accepts LLVM's single-dash long options; [`timing`] is
//!   `pld-opt --mlir-timing`.

pub mod args;
pub mod expectations;
pub mod explore;
pub mod files;
pub mod inputs;
pub mod mpi_agree;
pub mod mpi_run;
pub mod opt;
pub mod opt_watch;
pub mod options;
pub mod output_dir;
pub mod program_text;
pub mod report;
pub mod run;
pub mod run_kernel;
pub mod run_program;
mod source_op;
pub mod speaker;
pub mod split;
pub mod timing;
pub mod translate;
pub mod watch;
