//! `libPldPlugin.so`: pld's passes and named pipelines in stock `mlir-opt`.
//!
//! ```sh
//! mlir-opt --load-pass-plugin=libPldPlugin.so \
//!   --irdl-file=pld-and-pto.irdl.mlir \
//!   --pass-pipeline='builtin.module(pld-to-pto)' in.mlir
//! ```
//!
//! When `mlir-opt` loads the library it calls [`ffi::mlirGetPassPluginInfo`],
//! whose registration callback puts every pass and named pipeline of
//! `pld_sim::registry()` (the registry `pld-opt` uses) into MLIR's global
//! pass registry, one pipeline entry each (`src/shim.cpp` says why). When
//! a pipeline string names one, [`element::add`] adds its passes to the
//! pass manager with pld's option parser and anchoring, so a pipeline means
//! in `mlir-opt` what it means in `pld-opt`. The passes are the same
//! objects `pld-opt` runs; their diagnostics go to `mlir-opt`'s handler.
//!
//! The plugin links MLIR shared (`libMLIR.so` and the `libMLIR-C.so` that
//! `pld-ir` builds), so it shares the host's context and registry; the
//! dialects come from `--irdl-file` (docs/embedding.md says why not from
//! `--load-dialect-plugin`).

// Cargo names the library after the crate: `PldPlugin` gives the file name
// `libPldPlugin.so` that the docs, `make install` and MLIR's own plugin
// examples use.
#![allow(non_snake_case)]

pub mod element;
mod ffi;
