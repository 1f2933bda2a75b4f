//! The transport boundary: how ranks reach each other's windows.
//!
//! * [`Transport::Threads`] (the default): every rank a thread of this
//!   process, windows in its memory, signals CPU atomics.
//! * [`Transport::Mpi`]: every rank an MPI process; the windows of a
//!   node's processes one `MPI_Win_allocate_shared` window mapped into each
//!   of them, so peers on the node are addressed directly and their signals
//!   stay CPU atomics, exactly as with threads; peers on other nodes are
//!   reached as under `mpi-rma`, through a world window
//!   (`MPI_Win_create`) over each process's part of the shared one, and
//!   then every signal and accumulating store of the run goes through it,
//!   the node's too (MPI's atomics combine only with each other).
//! * [`Transport::MpiRma`]: every rank an MPI process, anywhere; windows
//!   from `MPI_Win_allocate`, a peer's window reached through `MPI_Get` /
//!   `MPI_Put` (each flushed before the call returns, which also makes it
//!   the data-before-signal fence), notifies through `MPI_Accumulate`
//!   (`MPI_SUM` or `MPI_REPLACE`) and waits through `MPI_Fetch_and_op`
//!   polls (`MPI_NO_OP`), on the rank's own cells too; accumulating
//!   stores through `MPI_Accumulate` ([`copy`]), into the own window too.
//!
//! The comm domain ([`crate::runtime::domain::CommDomain::over`]) makes the
//! windows, the device functions reach a signal cell through [`Cell`] and
//! a copy's far side through [`copy`], runs ([`crate::runtime::run`]) run
//! the local ranks and learn about the others through [`crate::runtime::board`],
//! and merge every rank's outcome through [`crate::runtime::board::gather`].

use crate::runtime::mpi::{Win, World};
use pld_dialect::enums::{NotifyOp, WaitCmp};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::OnceLock;

pub use crate::runtime::domain::Transport;

static SELECTED: OnceLock<Transport> = OnceLock::new();

/// Chooses the process's transport, once (later calls must choose the
/// same). An MPI transport initialises MPI (refused outside `mpirun`) and
/// returns the world.
pub fn select(transport: Transport) -> Result<Option<World>, String> {
    if *SELECTED.get_or_init(|| transport) != transport {
        return Err("the transport was chosen already".into());
    }
    if !transport.is_mpi() {
        return Ok(None);
    }
    crate::runtime::mpi::world().map(Some)
}

/// The process's transport (threads unless [`select`]ed).
pub fn current() -> Transport {
    SELECTED.get().copied().unwrap_or_default()
}

/// A signal cell as a device function reaches it.
#[derive(Clone, Copy)]
pub(crate) enum Cell {
    /// In this process's memory: CPU atomics.
    Mapped(*const AtomicI32),
    /// Through MPI atomics: byte `offset` of `rank`'s part of `win`.
    Rma {
        win: *const Win,
        rank: usize,
        offset: usize,
    },
}

impl Cell {
    /// The cell's value now (an atomic read either way).
    pub fn load(self) -> i32 {
        match self {
            // SAFETY: a cell of a window of the run's domain, which
            // outlives every `Cell` (they live in the run's state).
            Cell::Mapped(cell) => unsafe { &*cell }.load(Ordering::SeqCst),
            // SAFETY: as above, for the domain's MPI window. A failing read
            // (MPI's error) reads as 0; MPI reports it on stderr.
            Cell::Rma { win, rank, offset } => unsafe { &*win }.read_i32(rank, offset).unwrap_or(0),
        }
    }

    /// Applies a notify (sequentially consistent with threads; complete at
    /// the target on return with MPI, after the rank's earlier puts, which
    /// were flushed when they were made).
    pub fn notify(self, op: NotifyOp, value: i32) -> Result<(), String> {
        match self {
            Cell::Mapped(cell) => {
                // SAFETY: as in `load`.
                crate::runtime::signal::Notify::apply(op, unsafe { &*cell }, value);
                Ok(())
            }
            Cell::Rma { win, rank, offset } => {
                let replace = match op {
                    NotifyOp::AtomicAdd => false,
                    NotifyOp::Set => true,
                };
                // SAFETY: as in `load`.
                unsafe { &*win }.update_i32(rank, offset, value, replace)
            }
        }
    }

    /// Whether the cell compares `cmp` to `expected` now.
    pub fn holds(self, cmp: WaitCmp, expected: i32) -> bool {
        crate::runtime::signal::Compare::holds(cmp, self.load(), expected)
    }
}

/// One round of a waiting MPI rank whose cell is still not as it waits for
/// (`round` counts from 1): a yield for the first `patience`, then a sleep until
/// a notify wakes the cell ([`wake`], a futex on the shared mapping) or
/// 1 ms passes; a cell reached through MPI is polled every 50 us.
pub(crate) fn doze(cell: Cell, round: u32, patience: u32) {
    if round < patience {
        return std::thread::yield_now();
    }
    match cell {
        Cell::Mapped(cell) => {
            // Counted before the cell is read: a notify that the read
            // misses sees the count (both sequentially consistent) and
            // wakes this process.
            let dozers = crate::runtime::mpi::dozers();
            if let Some(dozers) = dozers {
                dozers.fetch_add(1, Ordering::SeqCst);
            }
            let seen = Cell::Mapped(cell).load();
            let timeout = libc::timespec {
                tv_sec: 0,
                tv_nsec: 1_000_000,
            };
            // SAFETY: FUTEX_WAIT reads the aligned i32 at `cell` (a cell of
            // a window mapped into this process, alive for the run) and
            // sleeps while it holds `seen`, at most `timeout`; the shared
            // (not private) futex is keyed by the mapping, so a notify of
            // another process reaches it.
            unsafe {
                libc::syscall(
                    libc::SYS_futex,
                    cell.cast::<i32>(),
                    libc::FUTEX_WAIT,
                    seen,
                    &timeout as *const libc::timespec,
                )
            };
            if let Some(dozers) = dozers {
                dozers.fetch_sub(1, Ordering::SeqCst);
            }
        }
        Cell::Rma { .. } => std::thread::sleep(std::time::Duration::from_micros(50)),
    }
}

/// Wakes the processes dozing on `cell` (after a notify changed it, with
/// a sequentially consistent atomic): no system call when no process of
/// the node dozes.
pub(crate) fn wake(cell: Cell) {
    if let Cell::Mapped(cell) = cell {
        let dozers = crate::runtime::mpi::dozers();
        if dozers.is_some_and(|d| d.load(Ordering::SeqCst) == 0) {
            return;
        }
        // SAFETY: FUTEX_WAKE only names the address (a cell of a mapped
        // window); it reads and writes nothing.
        unsafe {
            libc::syscall(
                libc::SYS_futex,
                cell.cast::<i32>(),
                libc::FUTEX_WAKE,
                i32::MAX,
            )
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transports_by_name_and_threads_by_default() {
        for t in [Transport::Threads, Transport::Mpi, Transport::MpiRma] {
            assert_eq!(Transport::parse(t.name()), Some(t));
        }
        assert_eq!(Transport::parse("tcp"), None);
        // Nothing selected one in this test process: threads, and MPI never
        // initialised.
        assert_eq!(current(), Transport::Threads);
        assert!(crate::runtime::mpi::initialised().is_none());
    }
}
