//! The N-rank CPU simulator (design 5).
//!
//! Ranks are threads of one process. A [`CommDomain`] gives every rank a
//! zeroed window and a `CommContext` (the layout of `pld-runtime-sys`)
//! holding the real addresses of all windows, so the peer-address
//! arithmetic the compiler emits runs unchanged. A [`Run`] executes one
//! kernel per rank on its own thread; the kernels reach the simulator's
//! device functions (`pld_sim_notify`, `pld_sim_wait`, ... in [`ffi`]),
//! which act on the calling rank.
//!
//! Signals are atomic i32 cells with the spec's notify (AtomicAdd, Set) and
//! wait (Eq, Ge) semantics. When every live rank has been blocked in a wait
//! for longer than the run's deadline, the run is stopped and reported as a
//! deadlock ([`DeadlockReport`]); after a collective, [`CommDomain::leaks`]
//! lists the signal cells that did not return to zero.

mod affinity;
pub mod builtins;
pub mod compile;
mod converted;
mod copy;
mod domain;
pub mod explore;
pub mod explorer;
pub mod ffi;
mod fiber;
pub mod golden;
pub mod half;
pub mod lower;
pub mod npy;
pub mod orchestrate;
pub mod passes;
pub mod program;
mod report;
mod run;
pub mod shapes;
mod signal;
pub mod sites;
pub mod tiles;

pub use domain::{aligned, CommDomain, SimError, Window, MAX_RANKS};
pub use explore::Schedule;
pub use report::{BlockedRank, CellLeak, DeadlockReport, Finding};
pub use run::{Counters, Fatal, Outcome, RankEnv, RemoteWrite, Run};
pub use signal::{Compare, Notify};

use pld_ir::registry::{PassEntry, Registry};

/// This crate's passes.
pub const PASSES: &[PassEntry] = &[
    compile::registry::CONVERT_PTO_TO_SIM,
    PassEntry::configurable::<passes::explore_protocol::ExploreProtocol>(
        passes::explore_protocol::create,
        passes::explore_protocol::configure,
    ),
];

/// Every pld pass and pipeline: the backend's (which include the
/// lowering's) and the simulator's.
pub fn registry() -> Registry {
    pld_backend::registry().extend(PASSES, &[])
}
