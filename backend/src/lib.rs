//! The pld backend: conversion of device kernels to the PTO dialect and
//! the PTO text that the PTOAS assembler reads.

pub mod abi;
pub mod convert;
pub mod kernels;
pub mod ptoas;
pub mod unlowered;

use pld_ir::registry::{PassEntry, PipelineEntry, Registry};

/// This crate's passes.
pub const PASSES: &[PassEntry] = &[PassEntry::of::<convert::ConvertPldToPto>(convert::create)];

/// The passes of `pld-to-pto`, after `$first` (the passes a pipeline runs
/// before them): one list for both pipelines that end in it.
macro_rules! to_pto_after {
    ($($first:literal),*) => {
        &[
            $($first,)*
            "pld-verify",
            "pld-select-allreduce-modes",
            "pld-lower-composite-ops",
            "pld-lower-l2-tensor-collectives",
            "pld-synthesize-allreduce-signals",
            "pld-materialize-comm-domain-scopes",
            "pld-lower-host-tensor-collectives",
            "pld-materialize-dist-tensor-ctx",
            "pld-insert-comm-fence",
            "pld-verify",
            "convert-pld-to-pto",
        ]
    };
}

/// This crate's named pipelines.
pub const PIPELINES: &[PipelineEntry] = &[
    PipelineEntry {
        argument: "pld-to-pto",
        summary:
            "Everything, in the spec's order: the InCore, CHIP and HOST rails, CommContexts, fences, then PTO",
        passes: to_pto_after!(),
    },
    PipelineEntry {
        argument: "shard-to-pto",
        summary:
            "A shard-partitioned module to PTO: convert-shard-to-pld, then everything pld-to-pto does",
        passes: to_pto_after!("convert-shard-to-pld"),
    },
];

/// Every pld pass and pipeline: the lowering crate's and the backend's.
pub fn registry() -> Registry {
    pld_lowering::registry().extend(PASSES, PIPELINES)
}
