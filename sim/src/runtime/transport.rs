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

use crate::runtime::mpi::{Summed, Win, World};
use crate::runtime::transfer::{CopyCall, Sides};
use pld_dialect::enums::{NotifyOp, WaitCmp};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::OnceLock;

/// How ranks reach each other (`pld-run --transport`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Transport {
    #[default]
    Threads,
    Mpi,
    MpiRma,
}

impl Transport {
    /// The name `--transport` takes.
    pub fn name(self) -> &'static str {
        match self {
            Transport::Threads => "threads",
            Transport::Mpi => "mpi",
            Transport::MpiRma => "mpi-rma",
        }
    }

    pub fn parse(name: &str) -> Option<Transport> {
        [Transport::Threads, Transport::Mpi, Transport::MpiRma]
            .into_iter()
            .find(|t| t.name() == name)
    }

    pub fn is_mpi(self) -> bool {
        match self {
            Transport::Threads => false,
            Transport::Mpi | Transport::MpiRma => true,
        }
    }
}

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

/// A copy one of whose sides is a window reached through MPI (`mpi-rma`),
/// done with Get and Put, or an accumulating copy into any window of a
/// run whose windows are reached through MPI ([`accumulate_rows`]);
/// `false` when it is neither (the caller moves the bytes itself).
///
/// # Safety
///
/// As `pld_sim_copy`'s: the sides in this process's memory are valid for
/// their strided extent; the far sides were checked against their windows.
pub(crate) unsafe fn copy(
    domain: &crate::runtime::domain::CommDomain,
    call: &CopyCall,
    sides: Sides,
) -> Result<bool, String> {
    let remote = |side: Option<usize>| side.and_then(|w| domain.window(w).remote());
    let (reads, writes) = (remote(sides.reads), remote(sides.writes));
    let accumulates = match (call.accumulate, sides.writes, domain.rma()) {
        (0, _, _) | (_, None, _) | (_, _, None) => None,
        (_, Some(window), Some(win)) => Some((win, window)),
    };
    if reads.is_none() && writes.is_none() && accumulates.is_none() {
        return Ok(false);
    }
    let mut call = *call;
    let mut staged = Vec::new();
    if let (Some((win, rank)), Some(window)) = (reads, sides.reads) {
        // The source's whole extent, fetched once; the copy then reads it
        // here with the same strides.
        let (start, end) = call.src_range().ok_or("a load with bad strides")?;
        staged = vec![0u8; end - start];
        let offset = start - domain.window(window).base() as usize;
        win.get(rank, offset, &mut staged)?;
        call.src = staged.as_ptr();
    }
    match (accumulates, writes, sides.writes) {
        (Some((win, window)), _, _) => {
            let base = domain.window(window).base() as usize;
            // SAFETY: the caller's contract; the source is staged or local.
            unsafe { accumulate_rows(&call, win, window, base) }?;
        }
        (None, Some((win, rank)), Some(window)) => {
            let base = domain.window(window).base() as usize;
            // SAFETY: as above.
            unsafe { put_rows(&call, win, rank, base) }?;
        }
        // SAFETY: the caller's contract; the source is staged.
        _ => unsafe { call.perform(false) },
    }
    drop(staged);
    Ok(true)
}

/// Writes the copy `call` (which does not accumulate) into `rank`'s
/// window (reserved at `base` here) row by row: each destination row is
/// assembled here (read from the target first when the row is strided)
/// and put.
///
/// # Safety
///
/// The source is valid for its strided extent.
unsafe fn put_rows(call: &CopyCall, win: &Win, rank: usize, base: usize) -> Result<(), String> {
    let elem = call.elem_bytes as usize;
    let [rows, cols] = call.shape;
    let [row_stride, col_stride] = call.dst_strides;
    for row in 0..rows.max(0) {
        let start = call.dst as usize + (row * row_stride) as usize * elem;
        let span = ((cols.max(1) - 1) * col_stride + 1) as usize * elem;
        let mut bytes = vec![0u8; span];
        let offset = start - base;
        if col_stride != 1 {
            win.get(rank, offset, &mut bytes)?;
        }
        let one = CopyCall {
            dst: bytes.as_mut_ptr(),
            dst_strides: [0, col_stride],
            src: call
                .src
                .wrapping_add((row * call.src_strides[0]) as usize * elem),
            shape: [1, cols],
            ..*call
        };
        // SAFETY: one row of the source (the caller's contract) into the
        // row assembled here, which spans the row's strided extent.
        unsafe { one.perform(false) };
        win.put(rank, offset, &bytes)?;
    }
    Ok(())
}

/// Adds the copy `call` into `rank`'s window (at `base` here, mapped or
/// not) through MPI, row by row, so that it combines atomically, element
/// by element, with every other process's accumulation into the same
/// elements, on any node.
///
/// MPI's rule (the RMA chapter; `shared/reference/mpi-rma.md`): accumulate
/// operations on one element are atomic against each other when they use
/// the same op and the same predefined datatype, and the windows' default
/// `accumulate_ops = same_op_no_op` asks every concurrent accumulate on a
/// location to use one op. CPU atomics on a shared mapping are no part of
/// that, hence every accumulation of such a run goes this way, the own
/// window's and the node's too. f32 and i32 are `MPI_SUM` on `MPI_FLOAT` /
/// `MPI_INT32_T`; MPI has no f16 type, so an f16 add is a
/// compare-and-swap loop on the aligned `MPI_UINT32_T` word holding the
/// element (the only op on such words: f16 accumulations all take it).
///
/// # Safety
///
/// The source is valid for its strided extent.
unsafe fn accumulate_rows(
    call: &CopyCall,
    win: &Win,
    rank: usize,
    base: usize,
) -> Result<(), String> {
    let elem = call.elem_bytes as usize;
    let [rows, cols] = call.shape;
    let [row_stride, col_stride] = call.dst_strides;
    for row in 0..rows.max(0) {
        let offset = call.dst as usize + (row * row_stride) as usize * elem - base;
        // The source row, gathered contiguous.
        let mut values = vec![0u8; cols.max(0) as usize * elem];
        let one = CopyCall {
            dst: values.as_mut_ptr(),
            dst_strides: [0, 1],
            src: call
                .src
                .wrapping_add((row * call.src_strides[0]) as usize * elem),
            shape: [1, cols],
            accumulate: 0,
            ..*call
        };
        // SAFETY: one row of the source (the caller's contract) into a
        // buffer of the row's size.
        unsafe { one.perform(false) };
        let stride = col_stride as usize;
        match u32::try_from(call.accumulate).unwrap_or(u32::MAX) {
            pld_runtime_sys::PLD_COPY_ADD_F32 => {
                win.sum(rank, offset, Summed::F32, &values, stride)?
            }
            pld_runtime_sys::PLD_COPY_ADD_I32 => {
                win.sum(rank, offset, Summed::I32, &values, stride)?
            }
            pld_runtime_sys::PLD_COPY_ADD_F16 => {
                for (c, add) in values.chunks_exact(2).enumerate() {
                    let add = u16::from_ne_bytes([add[0], add[1]]);
                    add_f16(win, rank, offset + c * stride * 2, add)?;
                }
            }
            other => return Err(format!("unknown accumulation {other}")),
        }
    }
    Ok(())
}

/// Adds the f16 `add` to the f16 at byte `offset` of `rank`'s window
/// through compare-and-swap of the 4-byte word holding it (the other half
/// of the word is written back as it was seen).
fn add_f16(win: &Win, rank: usize, offset: usize, add: u16) -> Result<(), String> {
    use crate::runtime::half::{f16_to_f32, f32_to_f16};
    let word = offset & !3;
    if !offset.is_multiple_of(2) || word + 4 > win.len() {
        return Err(format!(
            "an f16 accumulation at byte {offset} of a {}-byte window is not in an aligned              4-byte word of it",
            win.len()
        ));
    }
    let half = offset - word;
    let mut seen = 0u32;
    loop {
        let mut bytes = seen.to_ne_bytes();
        let old = u16::from_ne_bytes([bytes[half], bytes[half + 1]]);
        let sum = f32_to_f16(f16_to_f32(old) + f16_to_f32(add)).to_ne_bytes();
        bytes[half..half + 2].copy_from_slice(&sum);
        let held = win.compare_and_swap_u32(rank, word, seen, u32::from_ne_bytes(bytes))?;
        if held == seen {
            return Ok(());
        }
        seen = held;
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
