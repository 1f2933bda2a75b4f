//! The simulator's runtime (layer 1 of 4): comm domains and their windows
//! (`domain`), signals (`signal`), copies (`copy`), tiles ([`tiles`]),
//! fibers, pooled threads and core affinity, Ctrl-C ([`interrupt`]), the yes-or-no environment variables ([`env`]), op sites ([`sites`]), reports (`report`), a run's error lines ([`errors`]), runs
//! (`run`) and the device functions simulated kernels call ([`ffi`]); how
//! ranks reach each other ([`transport`]: threads, or MPI processes through
//! [`mpi`], with the status board and the gathered outcome of `board`).
//! This is the boundary a new transport implements; it uses no other layer, and
//! reaches explore mode only through the [`explorer::Explorer`] trait it
//! defines.

pub(crate) mod affinity;
pub(crate) mod board;
pub(crate) mod copy;
pub(crate) mod domain;
pub mod duration;
pub mod env;
pub mod errors;
pub mod explorer;
pub mod ffi;
pub(crate) mod fiber;
pub mod half;
pub mod interrupt;
pub mod mpi;
pub mod oom;
pub(crate) mod outside;
pub(crate) mod pool;
pub(crate) mod records;
pub(crate) mod report;
pub(crate) mod run;
pub(crate) mod signal;
pub mod sites;
pub(crate) mod stack;
pub mod tiles;
pub mod transport;
