//! The device functions of `pld_sim.h`, as simulated kernels call them.
//!
//! Each acts on the rank the calling thread simulates. A bad argument (a
//! cell outside every window, an unknown op) is recorded as an error of the
//! run and the call does nothing: these functions must not unwind into
//! generated code.

use crate::runtime::explorer::{Memory, MemoryAccess};
use crate::runtime::run::transfer::{Checked, CopyCall};
use crate::runtime::run::{with_current, State};
use crate::runtime::signal::Compare;
use crate::runtime::transport::Cell as SignalCell;
use pld_dialect::enums::{NotifyOp, PldEnum, WaitCmp};
use std::sync::atomic::{AtomicI32, Ordering};

/// The signal cell at `cell` if it is an aligned i32 inside some window:
/// how to reach it (`crate::runtime::transport`) and its place (window,
/// byte offset).
fn cell_in_windows(
    state: &State<'_>,
    (rank, site): (usize, i64),
    cell: *const i32,
    what: &str,
) -> Option<(SignalCell, (usize, usize))> {
    // The explorer checks a cell against its signal's shape itself, at the
    // address the kernel computed (a finding, the same as ever).
    let cell = match state.explored() {
        true => crate::runtime::outside::kernel_address(cell as usize) as *const i32,
        false => cell,
    };
    let address = cell as usize;
    let place = state
        .domain
        .locate(address, 4)
        .filter(|_| address.is_multiple_of(4));
    let Some(place) = place else {
        if address < 1 << 16 && state.peer_refused_at(rank, site) {
            return None; // the peer lookup's error said it
        }
        let message = crate::runtime::outside::describe(what, site, address).unwrap_or_else(|| {
            // As a copy's: an address in the first 64 KiB came from an
            // empty CommContext slot, or a field before the slots.
            let peer = match address < 1 << 16 {
                true => ": a peer at or beyond the rank count, or below 0?",
                false => "",
            };
            format!(
                "{what} on the signal cell at {address:#x}, which is outside every window{peer}"
            )
        });
        state.error_at(rank, site, message);
        return None;
    };
    let reached = match state.domain.signal_win(place.0) {
        Some(win) => SignalCell::Rma {
            win,
            rank: place.0,
            offset: place.1,
        },
        None => SignalCell::Mapped(cell.cast()),
    };
    Some((reached, place))
}

/// The cell as an atomic of this process, for explore mode (which runs
/// every rank here, so every cell is mapped).
fn mapped<'a>(cell: SignalCell) -> Option<&'a AtomicI32> {
    match cell {
        // SAFETY: an aligned i32 inside a window of the run's domain, which
        // outlives the run; cells are only accessed atomically.
        SignalCell::Mapped(cell) => Some(unsafe { &*cell }),
        SignalCell::Rma { .. } => None,
    }
}

/// Trace arguments naming a signal cell (its window, index, and the
/// buffer element the run names it by), a value, and the op.
fn where_(state: &State<'_>, (window, offset): (usize, usize), value: i32, site: i64) -> String {
    let name = state
        .name_of(window, offset)
        .map_or(String::new(), |n| format!(", \"name\": {n:?}"));
    format!(
        "\"window\": {window}, \"cell\": {}{name}, \"value\": {value}{}",
        offset / 4,
        crate::runtime::sites::op_args(site)
    )
}

/// `pld_sim_at`: the next device call on this thread is made by the op
/// the lowering numbered `site` (see `crate::runtime::sites`).
#[no_mangle]
pub extern "C" fn pld_sim_at(site: i64) {
    crate::runtime::run::set_site(site);
}

/// `pld_sim_view_outside`: the address that stands for a partition view
/// leaving its tensor view (`crate::runtime::outside`), in every run: under
/// the protocol explorer too, where a copy or scalar access through it is
/// then refused at its op as a finding of the schedule (the kernel's own
/// address could lie inside the window, on the signal after the tensor,
/// and go unseen); a signal cell there goes back to the kernel's address
/// ([`cell_in_windows`]). A correct kernel never gets here, so its
/// schedules are unchanged.
#[no_mangle]
pub extern "C" fn pld_sim_view_outside(
    address: *mut u8,
    site: i64,
    dim: i64,
    offset: i64,
    size: i64,
    extent: i64,
) -> *mut u8 {
    crate::runtime::outside::record(address as usize, (site, dim), offset, size, extent) as *mut u8
}

/// `pld_sim_undefined`: the kernel's integer op at `site` divides by zero
/// (`what` 0), divides the minimum of its signed type by -1 (1) or shifts
/// by its type's width or more (2), or its `cf.assert` fails (3); an error
/// of the run at the op (the kernel goes on with a harmless operand).
#[no_mangle]
pub extern "C" fn pld_sim_undefined(site: i64, what: i32) {
    let message = match what {
        0 => "divides by zero",
        1 => "overflows: the minimum of its signed type divided by -1",
        2 => "shifts by the width of its type or more (or by a negative amount)",
        _ => "fails",
    };
    with_current(|state, rank| state.error_at(rank, site, message.to_string()));
}

/// `pld_sim_context_slot`: the i64 at `slot` of the CommContext
/// `context` where the slot is a peer's windowsIn entry (`pld_sim.h`):
/// its value for a rank of the comm domain, else an error of the run at
/// the op and 0, the base of no window.
///
/// # Safety
/// `context` is the kernel's CommContext parameter, a `PldCommContext`
/// the run made, as the lowering passes it.
#[no_mangle]
pub unsafe extern "C" fn pld_sim_context_slot(
    context: *const pld_runtime_sys::PldCommContext,
    slot: i64,
    site: i64,
) -> i64 {
    let first = pld_runtime_sys::abi::WINDOWS_IN_OFFSET / 8;
    // SAFETY: the caller's contract: a live PldCommContext.
    let context = unsafe { &*context };
    let ranks = i64::from(context.rankNum);
    let peer = slot.wrapping_sub(first);
    if (0..ranks).contains(&peer) {
        return context.windowsIn[peer as usize] as i64;
    }
    let message = format!(
        "addresses the window of peer {peer}, which is no rank of its comm domain (its ranks are \
         0 to {})",
        ranks - 1
    );
    with_current(|state, rank| state.refuse_peer(rank, site, message));
    0
}

/// `pld_sim_scalar`: a scalar access of `bytes` at `address`; returns the
/// address the kernel accesses: `address` when the bytes lie where a
/// copy's side may (a window, a tile of the core, a buffer the run gave the
/// kernel), else the thread's scratch cell, after an error of the run at
/// the op (the access is not made: an offset past a window would read
/// other memory, or fault). In explore mode a scheduling point too: a rank
/// may poll a flag with scalar reads, and the rank that sets it must get a
/// turn; an access inside a window is checked like a copy.
#[no_mangle]
pub extern "C" fn pld_sim_scalar(address: *mut u8, bytes: i64, write: i32, site: i64) -> *mut u8 {
    let allowed = with_current(|state, rank| {
        if let Some((explore, agent)) = state.turn() {
            explore.scalar(agent, site, write != 0);
            announce_scalar(
                (state, rank),
                (explore, agent),
                (address, bytes, write),
                site,
            );
        }
        let start = address as usize;
        let bytes = usize::try_from(bytes).unwrap_or(0).clamp(1, SCRATCH_BYTES);
        let what = match write {
            0 => "a scalar load",
            _ => "a scalar store",
        };
        let range = start.checked_add(bytes).map(|end| (start, end));
        crate::runtime::run::transfer::check_side(state, (rank, site), what, range).is_ok()
    });
    match allowed {
        Some(false) => SCRATCH.with(|s| s.get().cast()),
        _ => address,
    }
}

/// The bytes of the thread's scratch cell (the widest scalar).
const SCRATCH_BYTES: usize = 16;

thread_local! {
    /// Where a refused scalar access goes instead (its value is of no use:
    /// the run has an error).
    static SCRATCH: std::cell::UnsafeCell<[u64; SCRATCH_BYTES / 8]> =
        const { std::cell::UnsafeCell::new([0; SCRATCH_BYTES / 8]) };
}

/// Tells the explorer of a scalar access: inside a window, or in `rank`'s
/// own memory.
fn announce_scalar(
    (state, rank): (&State<'_>, usize),
    (explore, agent): (&dyn crate::runtime::explorer::Explorer, usize),
    (address, bytes, write): (*mut u8, i64, i32),
    site: i64,
) {
    let bytes = usize::try_from(bytes).unwrap_or(0);
    let (memory, offset) = match state.domain.locate(address as usize, bytes.max(1)) {
        Some((window, offset)) => (Memory::Window(window), offset),
        None => (Memory::Own(rank), address as usize),
    };
    let access = MemoryAccess {
        memory,
        offset,
        strides: [1, 1],
        shape: [1, 1],
        elem: bytes,
        write: (write != 0).then_some(false),
    };
    explore.accessed(agent, access, site);
}

/// `pto.comm.tnotify`: applies `op` (0 AtomicAdd, 1 Set) with `value`.
#[no_mangle]
pub extern "C" fn pld_sim_notify(cell: *mut i32, value: i32, op: i32) {
    let site = crate::runtime::run::take_site();
    let done = with_current(|state, rank| {
        let turn = state.turn();
        let Some(op) = NotifyOp::from_abi(op) else {
            state.error_at(rank, site, format!("notify with unknown op {op}"));
            return;
        };
        if let Some((cell, place)) = cell_in_windows(state, (rank, site), cell, "notify") {
            let begin = state.stamp();
            if let Err(message) = cell.notify(op, value) {
                state.error_at(rank, site, format!("notify: {message}"));
            }
            if let Some((explore, agent)) = turn {
                explore.notified(agent, place, op, site, state.outside_signals(place.1));
            }
            state.wake(place.0, matches!(cell, SignalCell::Mapped(_)));
            if state.across_processes() {
                crate::runtime::transport::wake(cell);
            }
            state
                .counters(rank)
                .notifies
                .fetch_add(1, Ordering::Relaxed);
            state.record(rank, "notify", begin, || where_(state, place, value, site));
        }
    });
    if done.is_none() {
        pld_ir::say!("pld_sim_notify called outside a simulated rank; ignored");
    }
}

/// `pto.comm.twait`: blocks until the cell compares `cmp` (0 Eq, 1 Ge) to
/// `expected`, or the run is declared deadlocked.
#[no_mangle]
pub extern "C" fn pld_sim_wait(cell: *const i32, expected: i32, cmp: i32) {
    let site = crate::runtime::run::take_site();
    let done = with_current(|state, rank| {
        let Some(cmp) = WaitCmp::from_abi(cmp) else {
            state.error_at(rank, site, format!("wait with unknown comparison {cmp}"));
            return;
        };
        if let Some((cell, place)) = cell_in_windows(state, (rank, site), cell, "wait") {
            let begin = state.stamp();
            state.counters(rank).waits.fetch_add(1, Ordering::Relaxed);
            match (state.explore(), mapped(cell)) {
                (Some(explore), Some(atomic)) => {
                    // What the rank runs, for the report of a deadlock the
                    // explorer finds here (its tasks end before it reports).
                    // Not once the schedule ended: the ranks then run on
                    // past the waits that did not hold, into later tasks.
                    if !explore.is_free() {
                        state.note_blocked_in(rank);
                    }
                    let agent = crate::runtime::run::current_agent();
                    let outside = state.outside_signals(place.1);
                    explore.wait(agent, atomic, place, expected, cmp, site, outside);
                    crate::runtime::run::dma::deliver_due(state, explore);
                }
                _ => state.wait(rank, cell, place.0, expected, cmp, site),
            }
            state.record(rank, "wait", begin, || where_(state, place, expected, site));
        }
    });
    if done.is_none() {
        pld_ir::say!("pld_sim_wait called outside a simulated rank; ignored");
    }
}

/// `pto.comm.ttest`: 1 when the cell compares `cmp` to `expected` now.
#[no_mangle]
pub extern "C" fn pld_sim_test(cell: *const i32, expected: i32, cmp: i32) -> i32 {
    let site = crate::runtime::run::take_site();
    with_current(|state, rank| {
        let turn = state.turn();
        let Some(cmp) = WaitCmp::from_abi(cmp) else {
            state.error_at(rank, site, format!("test with unknown comparison {cmp}"));
            return None;
        };
        let (cell, place) = cell_in_windows(state, (rank, site), cell, "test")?;
        // Once an explored schedule is over (a deadlock, or no progress:
        // a rank polling forever) the ranks run on past tests that did not
        // hold, as past waits, so that the run ends and is reported.
        let over = turn.is_none() && state.explore().is_some();
        let holds = over || cmp.holds(cell.load(), expected);
        if let Some((explore, agent)) = turn {
            explore.tested(agent, place, holds, site);
        }
        Some(i32::from(holds))
    })
    .flatten()
    .unwrap_or(0)
}

/// `pto.fence.barrier_all`: this rank's earlier writes are ordered before
/// its later ones (the notify that follows publishes them).
#[no_mangle]
pub extern "C" fn pld_sim_fence() {
    crate::runtime::run::take_site();
    with_current(|state, _| {
        if let Some((explore, agent)) = state.turn() {
            explore.fenced(agent);
        }
    });
    std::sync::atomic::fence(Ordering::SeqCst);
}

/// `pto.alloc_tile`: see `crate::runtime::tiles::alloc`; its error (an
/// impossible size, a UB overflow) is the calling rank's.
#[no_mangle]
pub extern "C" fn pld_sim_tile_alloc(site: i64, bytes: i64) -> *mut u8 {
    let (pointer, error) = crate::runtime::tiles::alloc(site, bytes);
    if let Some(message) = error {
        with_current(|state, rank| state.error(rank, message));
    }
    pointer
}

/// `pto.tload`, `pto.tstore`, `pto.comm.tput`, `pto.comm.tget`.
///
/// # Safety
///
/// Both blocks must be valid for their strided extent. Inside the
/// simulated windows this is checked (an overrun is an error of the run and
/// nothing is copied); tiles and other buffers are the caller's to get
/// right.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn pld_sim_copy(
    dst: *mut u8,
    dst_row_stride: i64,
    dst_col_stride: i64,
    src: *const u8,
    src_row_stride: i64,
    src_col_stride: i64,
    rows: i64,
    cols: i64,
    elem_bytes: i32,
    accumulate: i32,
) {
    let copy = CopyCall {
        dst,
        dst_strides: [dst_row_stride, dst_col_stride],
        src,
        src_strides: [src_row_stride, src_col_stride],
        shape: [rows, cols],
        elem_bytes,
        accumulate,
    };
    let site = crate::runtime::run::take_site();
    let checked = with_current(|state, rank| copy.check(state, rank, site));
    if checked == Some(None) {
        return;
    }
    let streaming = matches!(
        checked,
        Some(Some(Checked {
            streaming: true,
            ..
        }))
    );
    // SAFETY: both blocks were checked against their windows (or are tiles
    // and buffers the kernel owns).
    let delivered = with_current(|state, rank| unsafe { copy.deliver(state, rank, streaming) });
    if delivered.is_none() {
        // SAFETY: as above (outside a rank: the caller's own buffers).
        unsafe { copy.perform(streaming) };
    }
    if let Some(Some(Checked {
        ahead: Some((start, end)),
        ..
    })) = checked
    {
        crate::runtime::copy::prefetch(start, end);
    }
    if let Some(Some(checked)) = checked {
        with_current(|state, rank| {
            state.record(rank, "copy", checked.begin, || {
                copy.trace_args(state, &checked, site)
            })
        });
    }
}

/// `TPUT_ASYNC` / `TGET_ASYNC` (`pto.comm.tput_async`,
/// `pto.comm.tget_async`): submits an asynchronous copy (see
/// `crate::runtime::run::dma`) and returns its event's handle (0: nothing
/// submitted, the error recorded).
///
/// # Safety
///
/// As `pld_sim_copy`'s, for as long as the event is outstanding.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn pld_sim_dma_submit(
    dst: *mut u8,
    dst_row_stride: i64,
    dst_col_stride: i64,
    src: *const u8,
    src_row_stride: i64,
    src_col_stride: i64,
    rows: i64,
    cols: i64,
    dst_elems: i64,
    elem_bytes: i32,
    engine: i32,
    direction: i32,
    peer: i64,
) -> i64 {
    let copy = CopyCall {
        dst,
        dst_strides: [dst_row_stride, dst_col_stride],
        src,
        src_strides: [src_row_stride, src_col_stride],
        shape: [rows, cols],
        elem_bytes,
        accumulate: 0,
    };
    let route = crate::runtime::run::dma::Route {
        dst_elems,
        engine,
        direction,
        peer,
    };
    let site = crate::runtime::run::take_site();
    let handle = with_current(|state, rank| {
        crate::runtime::run::dma::submit(state, rank, site, copy, route)
    });
    if handle.is_none() {
        pld_ir::say!("pld_sim_dma_submit called outside a simulated rank; ignored");
    }
    handle.map_or(0, |h| i64::try_from(h).unwrap_or(0))
}

/// `AsyncEvent::Wait` (`pto.comm.wait_async_event`) with a session on
/// `engine`: 1 once the copy of `event` is complete, 0 for an event that
/// is not outstanding.
#[no_mangle]
pub extern "C" fn pld_sim_dma_wait(event: i64, engine: i32) -> i32 {
    let site = crate::runtime::run::take_site();
    let handle = u64::try_from(event).unwrap_or(u64::MAX);
    with_current(|state, rank| crate::runtime::run::dma::wait(state, rank, (handle, engine), site))
        .map_or(0, i32::from)
}

/// `AsyncEvent::Test` (`pto.comm.test_async_event`) with a session on
/// `engine`: 1 when the copy of `event` is complete now.
#[no_mangle]
pub extern "C" fn pld_sim_dma_test(event: i64, engine: i32) -> i32 {
    let site = crate::runtime::run::take_site();
    let handle = u64::try_from(event).unwrap_or(u64::MAX);
    with_current(|state, rank| crate::runtime::run::dma::test(state, rank, (handle, engine), site))
        .map_or(0, i32::from)
}

/// `pto.tfillpad`: zero outside the valid corner.
///
/// # Safety
///
/// `data` must be a tile of `rows x cols` elements of `elem_bytes` each.
#[no_mangle]
pub unsafe extern "C" fn pld_sim_fill_pad(
    data: *mut u8,
    rows: i64,
    cols: i64,
    valid_rows: i64,
    valid_cols: i64,
    elem_bytes: i32,
) {
    let elem = elem_bytes.max(0) as usize;
    let (rows, cols) = (rows.max(0) as usize, cols.max(0) as usize);
    let valid_rows = valid_rows.clamp(0, rows as i64) as usize;
    let valid_cols = valid_cols.clamp(0, cols as i64) as usize;
    // Per valid row, the columns past the valid ones; then whole rows.
    if valid_cols < cols {
        for r in 0..valid_rows {
            // SAFETY: columns valid_cols..cols of row r of the tile.
            unsafe {
                std::ptr::write_bytes(
                    data.add((r * cols + valid_cols) * elem),
                    0,
                    (cols - valid_cols) * elem,
                )
            };
        }
    }
    // SAFETY: rows valid_rows..rows of the tile.
    unsafe {
        std::ptr::write_bytes(
            data.add(valid_rows * cols * elem),
            0,
            (rows - valid_rows) * cols * elem,
        )
    };
}

/// `pld_sim_rank_handle`: the calling thread's rank, or null.
#[no_mangle]
pub extern "C" fn pld_sim_rank_handle() -> *mut std::ffi::c_void {
    crate::runtime::run::rank_handle()
}

/// `pld_sim_block_enter`: binds this (unbound) thread to a rank as one
/// block of a launch. A bad handle or an already bound thread is reported
/// on stderr and ignored: the block's device functions then act on no rank.
#[no_mangle]
pub extern "C" fn pld_sim_block_enter(rank: *mut std::ffi::c_void, block_idx: i32, block_num: i32) {
    if let Err(message) = crate::runtime::run::bind_block(rank, block_idx, block_num) {
        pld_ir::say!("{message}; ignored");
    }
}

/// `pld_sim_block_exit`: frees the block's tiles and unbinds the thread.
#[no_mangle]
pub extern "C" fn pld_sim_block_exit() {
    if let Err(message) = crate::runtime::run::unbind_block() {
        pld_ir::say!("{message}; ignored");
    }
}

/// `pld_sim_launch_blocks`: in explore mode, the blocks of a launch run as
/// fibers of the calling rank's thread (1, once all returned); otherwise
/// nothing runs (0) and the caller starts a thread per block.
#[no_mangle]
pub extern "C" fn pld_sim_launch_blocks(
    blocks: i32,
    block: Option<unsafe extern "C" fn(*mut std::ffi::c_void, i32)>,
    context: *mut std::ffi::c_void,
) -> i32 {
    let (Some(block), Ok(count)) = (block, usize::try_from(blocks)) else {
        return 0;
    };
    let context = context as usize;
    let run = |b: usize| {
        // SAFETY: the caller's block function with its context, called
        // once per block index below `blocks` (pld_sim.h), before this
        // call returns.
        unsafe { block(context as *mut std::ffi::c_void, b as i32) };
    };
    let ran = with_current(|state, rank| state.launch_on_fibers(rank, count, &run));
    i32::from(ran == Some(true))
}

/// A C string from the kernel side (lossy UTF-8; empty for null).
///
/// # Safety
///
/// `text` is null or a NUL-terminated string.
unsafe fn c_text(text: *const std::ffi::c_char) -> String {
    if text.is_null() {
        return String::new();
    }
    // SAFETY: the caller's contract.
    unsafe { std::ffi::CStr::from_ptr(text) }
        .to_string_lossy()
        .into_owned()
}

/// `pld_sim_fatal`: records a fatal error of the calling rank's call.
///
/// # Safety
///
/// `message` is null or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn pld_sim_fatal(code: i32, message: *const std::ffi::c_char) {
    // SAFETY: the caller's contract.
    let message = unsafe { c_text(message) };
    if with_current(|state, rank| state.fatal(rank, code, message.clone())).is_none() {
        pld_ir::say!("pld_sim_fatal outside a simulated rank: code {code}: {message}");
    }
}

/// `pld_sim_log`: appends a line to the calling rank's log.
///
/// # Safety
///
/// `line` is null or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn pld_sim_log(line: *const std::ffi::c_char) {
    // SAFETY: the caller's contract.
    let line = unsafe { c_text(line) };
    if with_current(|state, rank| state.log(rank, line.clone())).is_none() {
        pld_ir::say!("{line}");
    }
}

/// Every device function this module implements, by the name `pld_sim.h`
/// gives it, for the JIT to resolve the kernels' calls.
pub const DEVICE_FUNCTIONS: &[(&str, *mut ())] = &[
    ("pld_sim_at", pld_sim_at as *mut ()),
    ("pld_sim_scalar", pld_sim_scalar as *mut ()),
    ("pld_sim_view_outside", pld_sim_view_outside as *mut ()),
    ("pld_sim_undefined", pld_sim_undefined as *mut ()),
    ("pld_sim_context_slot", pld_sim_context_slot as *mut ()),
    ("pld_sim_notify", pld_sim_notify as *mut ()),
    ("pld_sim_wait", pld_sim_wait as *mut ()),
    ("pld_sim_test", pld_sim_test as *mut ()),
    ("pld_sim_fence", pld_sim_fence as *mut ()),
    ("pld_sim_tile_alloc", pld_sim_tile_alloc as *mut ()),
    ("pld_sim_copy", pld_sim_copy as *mut ()),
    ("pld_sim_fill_pad", pld_sim_fill_pad as *mut ()),
    ("pld_sim_dma_submit", pld_sim_dma_submit as *mut ()),
    ("pld_sim_dma_wait", pld_sim_dma_wait as *mut ()),
    ("pld_sim_dma_test", pld_sim_dma_test as *mut ()),
    ("pld_sim_rank_handle", pld_sim_rank_handle as *mut ()),
    ("pld_sim_block_enter", pld_sim_block_enter as *mut ()),
    ("pld_sim_block_exit", pld_sim_block_exit as *mut ()),
    ("pld_sim_launch_blocks", pld_sim_launch_blocks as *mut ()),
    ("pld_sim_fatal", pld_sim_fatal as *mut ()),
    ("pld_sim_log", pld_sim_log as *mut ()),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_bind_only_to_live_ranks() {
        // Outside a run: no handle, and a made-up handle binds nothing.
        assert!(pld_sim_rank_handle().is_null());
        pld_sim_block_enter(0x1000 as *mut std::ffi::c_void, 0, 1);
        assert!(pld_sim_rank_handle().is_null());
        pld_sim_block_exit();
        // Inside a run: a block thread bound through its rank's handle acts
        // on that rank (its log line lands there) and is unbound after.
        let domain = crate::runtime::domain::CommDomain::new(2, 64).unwrap();
        let outcome = crate::runtime::run::Run::new(&domain, std::time::Duration::from_secs(5))
            .execute("t", |env| {
                let handle = pld_sim_rank_handle() as usize;
                assert_ne!(handle, 0);
                std::thread::spawn(move || {
                    pld_sim_block_enter(handle as *mut std::ffi::c_void, 0, 1);
                    assert_eq!(pld_sim_rank_handle() as usize, handle);
                    let line = std::ffi::CString::new(format!("block of {}", env.rank)).unwrap();
                    // SAFETY: a NUL-terminated string.
                    unsafe { pld_sim_log(line.as_ptr()) };
                    pld_sim_block_exit();
                    assert!(pld_sim_rank_handle().is_null());
                })
                .join()
                .unwrap();
            });
        assert!(outcome.ok(), "{outcome:?}");
        assert_eq!(outcome.logs, [vec!["block of 0"], vec!["block of 1"]]);
    }
}
