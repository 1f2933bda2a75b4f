//! pld passes and named pipelines.
//!
//! One file per pass in [`passes`]; the rails' shared pieces in [`host`]
//! (HOST orchestration: devices, windows, sizes) and [`composite`] (the
//! InCore expansions of each collective). [`registry`] lists every pass and
//! named pipeline of this crate for the drivers; [`cost`] is the alpha-beta
//! model that picks an allreduce schedule. The pass adapter, pipeline
//! parsing and the registry type live in `pld_ir`.

pub mod composite;
pub mod cost;
pub mod host;
pub mod order;
pub mod passes;
pub mod registry;
pub mod shard;
pub mod trace;
pub mod window_result;

pub use registry::registry;
