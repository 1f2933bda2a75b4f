//! `libpld.so`, pld's C API (`include/pld-c/`), in the conventions of
//! MLIR's C API: opaque handles holding one pointer, `MlirStringRef` for
//! strings, `MlirLogicalResult` for success, errors as diagnostics on the
//! caller's context (docs/embedding.md, "The C API").
//!
//! It is thin over the crates the tools use, and shares MLIR with its host:
//! it links Debian's shared `libMLIR.so` through `libMLIR-C.so`, so the
//! host's `MlirContext`, modules and pass managers are pld's.
//!
//! * [`dialects`], [`passes`], [`translate`]: `Dialects.h`, `Passes.h`,
//!   `Translate.h`;
//! * [`program`], [`run`], [`report`]: loading a module for the simulator,
//!   running it with the caller's buffers, and what the run found, in plain
//!   Rust; [`api`] is `Run.h` over them; `watched::run` runs a module
//!   there, plain runs on the calling thread and explored schedules on a
//!   thread of their own (the `run::Watcher` the sweep reports to), so
//!   that one that cannot end does not keep the caller's;
//! * [`raw`]: every unsafe operation of the crate (the C caller's handles,
//!   strings and memory), and the guard that keeps panics from crossing the
//!   C boundary: every `extern "C"` function runs its body in
//!   [`raw::guard`].

#![allow(non_snake_case)]

pub mod api;
pub mod dialects;
pub mod passes;
pub mod program;
mod raw;
pub mod report;
pub mod run;
pub mod translate;
mod watched;

use mlir_sys::MlirLogicalResult;

/// MLIR's success or failure.
pub(crate) fn status(success: bool) -> MlirLogicalResult {
    MlirLogicalResult {
        value: i8::from(success),
    }
}
