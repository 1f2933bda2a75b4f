//! The device functions of `pld_sim.h`, as simulated kernels call them.
//!
//! Each acts on the rank the calling thread simulates. A bad argument (a
//! cell outside every window, an unknown op) is recorded as an error of the
//! run and the call does nothing: these functions must not unwind into
//! generated code.

use crate::run::with_current;
use crate::signal::{Cmp, NotifyOp};
use std::sync::atomic::{AtomicI32, Ordering};

/// The signal cell at `cell` if it is an aligned i32 inside some window.
fn cell_in_windows<'a>(
    state: &crate::run::State<'_>,
    rank: usize,
    cell: *const i32,
    what: &str,
) -> Option<&'a AtomicI32> {
    let address = cell as usize;
    if !address.is_multiple_of(4) || state.domain.locate(address, 4).is_none() {
        state.error(
            rank,
            format!("{what} on the signal cell at {address:#x}, which is outside every window"),
        );
        return None;
    }
    // SAFETY: an aligned i32 inside a window of the run's domain, which
    // outlives the run; cells are only accessed atomically.
    Some(unsafe { AtomicI32::from_ptr(cell as *mut i32) })
}

/// `pto.comm.tnotify`: applies `op` (0 AtomicAdd, 1 Set) with `value`.
#[no_mangle]
pub extern "C" fn pld_sim_notify(cell: *mut i32, value: i32, op: i32) {
    let done = with_current(|state, rank| {
        let Some(op) = NotifyOp::from_abi(op) else {
            state.error(rank, format!("notify with unknown op {op}"));
            return;
        };
        if let Some(cell) = cell_in_windows(state, rank, cell, "notify") {
            op.apply(cell, value);
            state
                .counters(rank)
                .notifies
                .fetch_add(1, Ordering::Relaxed);
        }
    });
    if done.is_none() {
        eprintln!("pld_sim_notify called outside a simulated rank; ignored");
    }
}

/// `pto.comm.twait`: blocks until the cell compares `cmp` (0 Eq, 1 Ge) to
/// `expected`, or the run is declared deadlocked.
#[no_mangle]
pub extern "C" fn pld_sim_wait(cell: *const i32, expected: i32, cmp: i32) {
    let done = with_current(|state, rank| {
        let Some(cmp) = Cmp::from_abi(cmp) else {
            state.error(rank, format!("wait with unknown comparison {cmp}"));
            return;
        };
        if let Some(cell) = cell_in_windows(state, rank, cell, "wait") {
            state.counters(rank).waits.fetch_add(1, Ordering::Relaxed);
            state.wait(rank, cell, expected, cmp);
        }
    });
    if done.is_none() {
        eprintln!("pld_sim_wait called outside a simulated rank; ignored");
    }
}

/// `pto.comm.ttest`: 1 when the cell compares `cmp` to `expected` now.
#[no_mangle]
pub extern "C" fn pld_sim_test(cell: *const i32, expected: i32, cmp: i32) -> i32 {
    with_current(|state, rank| {
        let cmp = Cmp::from_abi(cmp)?;
        let cell = cell_in_windows(state, rank, cell, "test")?;
        Some(i32::from(cmp.holds(cell.load(Ordering::Acquire), expected)))
    })
    .flatten()
    .unwrap_or(0)
}

/// `pto.fence.barrier_all`: this rank's earlier writes are ordered before
/// its later ones (the notify that follows publishes them).
#[no_mangle]
pub extern "C" fn pld_sim_fence() {
    std::sync::atomic::fence(Ordering::SeqCst);
}
