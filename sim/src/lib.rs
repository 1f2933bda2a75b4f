//! The N-rank CPU simulator (design 5).
//!
//! Ranks are threads of one process. A [`CommDomain`] gives every rank a
//! zeroed window and a `CommContext` (the layout of `pld-runtime-sys`)
//! holding the real addresses of all windows, so the peer-address
//! arithmetic the compiler emits runs unchanged. A [`Run`] executes one
//! kernel per rank on its own thread; the kernels reach the simulator's
//! device functions (`pld_sim_notify`, `pld_sim_wait`, ... in
//! [`runtime::ffi`]), which act on the calling rank.
//!
//! Signals are atomic i32 cells with the spec's notify (AtomicAdd, Set) and
//! wait (Eq, Ge) semantics. When every live rank has been blocked in a wait
//! for longer than the run's deadline, the run is stopped and reported as a
//! deadlock ([`DeadlockReport`]); after a collective, [`CommDomain::leaks`]
//! lists the signal cells that did not return to zero.
//!
//! The crate is four layers, each a module tree that uses only its own
//! layer and the ones before it (no module cycle, no edge up):
//! * [`runtime`]: windows, signals, copies, tiles, fibers, sites, reports,
//!   runs and the device functions; the boundary a new transport
//!   implements. It reaches explore mode only through the
//!   [`runtime::explorer::Explorer`] trait it defines.
//! * [`compiler`]: `convert-pto-to-sim`, the sim lowering, MLIR's LLVM
//!   lowering and the JIT.
//! * [`explore`]: explore mode's scheduler and happens-before checker.
//! * [`program`]: loading programs, converted modules, shapes, goldens,
//!   `.npy` files, the orchestration interpreter, the builtin runner and
//!   the `pld-explore-protocol` pass.

pub mod compiler;
pub mod explore;
pub mod program;
pub mod runtime;

pub use explore::Schedule;
pub use runtime::domain::{aligned, CommDomain, SimError, Window, MAX_RANKS};
pub use runtime::errors::error_place;
pub use runtime::report::{BlockedRank, CellLeak, DeadlockReport, Finding};
pub use runtime::run::{rank_states, Counters, Fatal, Outcome, RankEnv, RemoteWrite, Run};
pub use runtime::signal::{Compare, Notify};

use pld_ir::registry::{PassEntry, Registry};

/// This crate's passes: the compiler's `convert-pto-to-sim` and the
/// programs layer's `pld-explore-protocol`.
pub const PASSES: &[PassEntry] = &[
    compiler::registry::CONVERT_PTO_TO_SIM,
    PassEntry::configurable::<program::explore_protocol::ExploreProtocol>(
        program::explore_protocol::create,
        program::explore_protocol::configure,
    ),
];

/// Every pld pass and pipeline: the backend's (which include the
/// lowering's) and the simulator's.
pub fn registry() -> Registry {
    pld_backend::registry().extend(PASSES, &[])
}
