//! The pld backend: conversion of device kernels to the PTO dialect and
//! the PTO text that the PTOAS assembler reads.

pub mod abi;

use pld_lowering::registry::{PassEntry, PipelineEntry, Registry};

/// This crate's passes.
pub const PASSES: &[PassEntry] = &[];

/// This crate's named pipelines.
pub const PIPELINES: &[PipelineEntry] = &[];

/// Every pld pass and pipeline: the lowering crate's and the backend's.
pub fn registry() -> Registry {
    Registry::lowering().extend(PASSES, PIPELINES)
}
