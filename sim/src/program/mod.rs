//! Programs (layer 4 of 4, over [`crate::runtime`], [`crate::compiler`]
//! and [`crate::explore`]): a pld module's kernels described ([`model`]),
//! loaded and compiled ([`Program`], `converted` modules), checked
//! ([`shapes`], [`golden`]), filled and saved ([`npy`]), and run on N
//! simulated ranks; whole programs through the orchestration interpreter
//! ([`orchestrate`]) and the builtin kernels ([`builtins`]); and the
//! `pld-explore-protocol` pass ([`explore_protocol`]), which loads and runs
//! the kernels of a module under explore mode; [`parallel`] spreads filling
//! and checking over the cores.

pub mod builtins;
pub(crate) mod converted;
pub mod explore_protocol;
pub mod explore_watch;
pub mod golden;
pub(crate) mod load;
pub mod memory;
pub mod model;
pub mod npy;
pub mod orchestrate;
pub mod parallel;
pub mod processes;
pub mod shapes;

pub use load::{source_names, Finished, Program};
pub use model::{index_of, Collective, Dtype, KernelInfo, Param};
