//! Helpers for the end-to-end tests: run a pld kernel through
//! `pld_sim::program` and read its buffers as numbers.

#![allow(dead_code)]

pub use pld_sim::program::Finished;
use pld_sim::program::Program;
use std::time::Duration;

/// Compiles `source` (pld) and runs `kernel` on `ranks` ranks;
/// `init(rank, param)` gives each buffer's initial bytes.
pub fn run(
    source: &str,
    kernel: &str,
    ranks: usize,
    init: impl Fn(usize, usize) -> Vec<u8> + Sync,
) -> Finished {
    let program = Program::load(source).unwrap_or_else(|e| panic!("{source}\n{e}"));
    program
        .run(kernel, ranks, Duration::from_secs(5), init)
        .unwrap_or_else(|e| panic!("{e}"))
}

pub fn f32s(values: impl IntoIterator<Item = f32>) -> Vec<u8> {
    values.into_iter().flat_map(|v| v.to_le_bytes()).collect()
}

pub fn i32s(values: impl IntoIterator<Item = i32>) -> Vec<u8> {
    values.into_iter().flat_map(|v| v.to_le_bytes()).collect()
}

pub fn as_f32s(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

pub fn as_i32s(bytes: &[u8]) -> Vec<i32> {
    bytes
        .chunks_exact(4)
        .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}
