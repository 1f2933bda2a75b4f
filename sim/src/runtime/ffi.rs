//! The device functions of `pld_sim.h`, as simulated kernels call them.
//!
//! Each acts on the rank the calling thread simulates. A bad argument (a
//! cell outside every window, an unknown op) is recorded as an error of the
//! run and the call does nothing: these functions must not unwind into
//! generated code.

use crate::runtime::explorer::{Explorer, WindowAccess};
use crate::runtime::run::{with_current, State};
use crate::runtime::signal::{Compare, Notify};
use pld_dialect::enums::{NotifyOp, PldEnum, WaitCmp};
use std::sync::atomic::{AtomicI32, Ordering};

/// The signal cell at `cell` if it is an aligned i32 inside some window.
fn cell_in_windows<'a>(
    state: &State<'_>,
    rank: usize,
    cell: *const i32,
    what: &str,
) -> Option<(&'a AtomicI32, (usize, usize))> {
    let address = cell as usize;
    let place = state
        .domain
        .locate(address, 4)
        .filter(|_| address.is_multiple_of(4));
    let Some(place) = place else {
        state.error(
            rank,
            format!("{what} on the signal cell at {address:#x}, which is outside every window"),
        );
        return None;
    };
    // SAFETY: an aligned i32 inside a window of the run's domain, which
    // outlives the run; cells are only accessed atomically.
    Some((unsafe { AtomicI32::from_ptr(cell as *mut i32) }, place))
}

/// Trace arguments naming a signal cell (its window, index, and the
/// buffer element the run names it by), a value, and the op.
fn where_(state: &State<'_>, cell: &AtomicI32, value: i32, site: i64) -> String {
    let (window, offset) = state
        .domain
        .locate(cell.as_ptr() as usize, 4)
        .unwrap_or((usize::MAX, 0));
    let name = state
        .name_of(window, offset)
        .map_or(String::new(), |n| format!(", \"name\": {n:?}"));
    format!(
        "\"window\": {window}, \"cell\": {}{name}, \"value\": {value}{}",
        offset / 4,
        op_args(site)
    )
}

/// Trace arguments naming the op of a device call, when it has a site:
/// `, "op": "pto.comm_twait", "loc": "k.mlir:4:8"`.
fn op_args(site: i64) -> String {
    crate::runtime::sites::get(site).map_or(String::new(), |s| {
        format!(", \"op\": {:?}, \"loc\": {:?}", s.op, s.location)
    })
}

/// `pld_sim_at`: the next device call on this thread is made by the op
/// the lowering numbered `site` (see `crate::runtime::sites`).
#[no_mangle]
pub extern "C" fn pld_sim_at(site: i64) {
    crate::runtime::run::set_site(site);
}

/// `pld_sim_scalar`: a scalar access; checked in explore mode when it is in
/// a window (no scheduling point: the access is part of the running
/// agent's step).
#[no_mangle]
pub extern "C" fn pld_sim_scalar(address: *const u8, bytes: i64, write: i32, site: i64) {
    with_current(|state, _| {
        if state.explore().is_none() {
            return;
        }
        // A scheduling point too: a rank may poll a flag with scalar reads,
        // and the rank that sets it must get a turn.
        let Some((explore, agent)) = state.turn() else {
            return;
        };
        explore.scalar(agent, site, write != 0);
        let bytes = usize::try_from(bytes).unwrap_or(0);
        if let Some((window, offset)) = state.domain.locate(address as usize, bytes.max(1)) {
            let access = WindowAccess {
                window,
                offset,
                strides: [1, 1],
                shape: [1, 1],
                elem: bytes,
                write: (write != 0).then_some(false),
            };
            explore.accessed(agent, access, site);
        }
    });
}

/// `pto.comm.tnotify`: applies `op` (0 AtomicAdd, 1 Set) with `value`.
#[no_mangle]
pub extern "C" fn pld_sim_notify(cell: *mut i32, value: i32, op: i32) {
    let site = crate::runtime::run::take_site();
    let done = with_current(|state, rank| {
        let turn = state.turn();
        let Some(op) = NotifyOp::from_abi(op) else {
            state.error(rank, format!("notify with unknown op {op}"));
            return;
        };
        if let Some((cell, place)) = cell_in_windows(state, rank, cell, "notify") {
            let begin = state.stamp();
            op.apply(cell, value);
            if let Some((explore, agent)) = turn {
                explore.notified(agent, place, op, site, state.outside_signals(place.1));
            }
            state.wake(place.0);
            state
                .counters(rank)
                .notifies
                .fetch_add(1, Ordering::Relaxed);
            state.record(rank, "notify", begin, || where_(state, cell, value, site));
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
    let site = crate::runtime::run::take_site();
    let done = with_current(|state, rank| {
        let Some(cmp) = WaitCmp::from_abi(cmp) else {
            state.error(rank, format!("wait with unknown comparison {cmp}"));
            return;
        };
        if let Some((cell, place)) = cell_in_windows(state, rank, cell, "wait") {
            let begin = state.stamp();
            state.counters(rank).waits.fetch_add(1, Ordering::Relaxed);
            match state.explore() {
                Some(explore) => {
                    let agent = crate::runtime::run::current_agent();
                    let outside = state.outside_signals(place.1);
                    explore.wait(agent, cell, place, expected, cmp, site, outside);
                }
                None => state.wait(rank, cell, place.0, expected, cmp, site),
            }
            state.record(rank, "wait", begin, || where_(state, cell, expected, site));
        }
    });
    if done.is_none() {
        eprintln!("pld_sim_wait called outside a simulated rank; ignored");
    }
}

/// `pto.comm.ttest`: 1 when the cell compares `cmp` to `expected` now.
#[no_mangle]
pub extern "C" fn pld_sim_test(cell: *const i32, expected: i32, cmp: i32) -> i32 {
    crate::runtime::run::take_site();
    with_current(|state, rank| {
        let turn = state.turn();
        let cmp = WaitCmp::from_abi(cmp)?;
        let (cell, place) = cell_in_windows(state, rank, cell, "test")?;
        let holds = cmp.holds(cell.load(Ordering::Acquire), expected);
        if let Some((explore, agent)) = turn {
            explore.tested(agent, place, holds);
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

/// The byte range a strided block touches: from its first to one past its
/// last element.
fn extent(
    base: usize,
    row_stride: i64,
    col_stride: i64,
    rows: i64,
    cols: i64,
    elem: i64,
) -> Option<(usize, usize)> {
    if rows <= 0 || cols <= 0 {
        return Some((base, base));
    }
    let last = (rows - 1)
        .checked_mul(row_stride)?
        .checked_add((cols - 1).checked_mul(col_stride)?)?;
    if last < 0 || row_stride < 0 || col_stride < 0 {
        return None;
    }
    let end = base.checked_add(usize::try_from((last + 1).checked_mul(elem)?).ok()?)?;
    Some((base, end))
}

/// Checks one side of a copy against the windows: an address inside a
/// window must stay inside it. Returns the owning window's rank, if any.
fn check_side(
    state: &State<'_>,
    rank: usize,
    what: &str,
    range: Option<(usize, usize)>,
) -> Result<Option<usize>, ()> {
    let Some((start, end)) = range else {
        state.error(rank, format!("{what} with negative or overflowing strides"));
        return Err(());
    };
    if start == end {
        return Ok(None);
    }
    // No window, tile or buffer lives in the first 64 KiB: an address there
    // is an offset computed from an empty CommContext slot (a peer at or
    // past the rank count).
    if start < 1 << 16 {
        state.error(
            rank,
            format!(
                "{what} at address {start:#x}, outside every window: a peer at or beyond the \
                 rank count?"
            ),
        );
        return Err(());
    }
    // A range touching a window must lie inside it.
    for (owner, window) in state.domain.windows().iter().enumerate() {
        let base = window.base() as usize;
        let overlaps = start < base + window.len() && end > base;
        if !overlaps {
            continue;
        }
        if start >= base && end <= base + window.len() {
            return Ok(Some(owner));
        }
        state.error(
            rank,
            format!(
                "{what} of bytes {}..{} relative to rank {owner}'s window leaves it ({} bytes)",
                start as i128 - base as i128,
                end as i128 - base as i128,
                window.len()
            ),
        );
        return Err(());
    }
    // A range touching a tile of this rank must lie inside it.
    let tile = crate::runtime::tiles::overlapping(start, end);
    if let Some((base, size)) = tile {
        if start < base || end > base + size {
            state.error(
                rank,
                format!(
                    "{what} of bytes {}..{} relative to a {size}-byte tile leaves it (a valid \
                     shape larger than the tile?)",
                    start as i128 - base as i128,
                    end as i128 - base as i128
                ),
            );
            return Err(());
        }
    }
    Ok(None) // a tile, or a plain buffer the kernel was given
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
    unsafe { copy.perform(streaming) };
    if let Some(Some(checked)) = checked {
        with_current(|state, rank| {
            state.record(rank, "copy", checked.begin, || {
                copy.trace_args(state, &checked, site)
            })
        });
    }
}

/// The arguments of one `pld_sim_copy`: strides in elements.
#[derive(Clone, Copy)]
struct CopyCall {
    dst: *mut u8,
    dst_strides: [i64; 2],
    src: *const u8,
    src_strides: [i64; 2],
    /// Rows and columns.
    shape: [i64; 2],
    elem_bytes: i32,
    /// 0 assigns, else the accumulation (`PLD_COPY_ADD_*`).
    accumulate: i32,
}

/// A copy that may go ahead: the windows its source and destination lie
/// in (`None` for a tile or a buffer), its bytes, when it began, and
/// whether the store streams past the cache.
#[derive(Clone, Copy, PartialEq)]
struct Checked {
    reads: Option<usize>,
    writes: Option<usize>,
    bytes: u64,
    begin: Option<std::time::Instant>,
    streaming: bool,
}

impl CopyCall {
    /// The byte range the block at `address` with `strides` touches.
    fn range(&self, address: usize, [row_stride, col_stride]: [i64; 2]) -> Option<(usize, usize)> {
        let [rows, cols] = self.shape;
        extent(
            address,
            row_stride,
            col_stride,
            rows,
            cols,
            i64::from(self.elem_bytes),
        )
    }

    /// Checks both sides against the windows (an error of `rank`'s run,
    /// and `None`, when one leaves its window), shows them to the explorer,
    /// counts the remote traffic and records a remote write.
    fn check(&self, state: &State<'_>, rank: usize, site: i64) -> Option<Checked> {
        let begin = state.stamp();
        let turn = state.turn();
        let dst_range = self.range(self.dst as usize, self.dst_strides);
        let src_range = self.range(self.src as usize, self.src_strides);
        let Ok(writes) = check_side(state, rank, "a store", dst_range) else {
            return None;
        };
        let Ok(reads) = check_side(state, rank, "a load", src_range) else {
            return None;
        };
        if let Some((explore, agent)) = turn {
            self.explore(state, explore, agent, reads, writes, site);
        }
        let [rows, cols] = self.shape;
        let bytes = (rows.max(0) * cols.max(0) * i64::from(self.elem_bytes)) as u64;
        let counters = state.counters(rank);
        if reads.is_some_and(|owner| owner != rank) {
            counters
                .remote_bytes_read
                .fetch_add(bytes, Ordering::Relaxed);
        }
        if writes.is_some_and(|owner| owner != rank) {
            counters
                .remote_bytes_written
                .fetch_add(bytes, Ordering::Relaxed);
            if state.records_remote_writes() {
                if let (Some((window, offset)), Some((start, end))) = (
                    dst_range.and_then(|(start, _)| state.domain.locate(start, 1)),
                    dst_range,
                ) {
                    state.remote_write(crate::runtime::run::RemoteWrite {
                        rank,
                        window,
                        offset,
                        bytes: end - start,
                    });
                }
            }
        }
        // A store into a window streams past the cache unless the core
        // has just read those bytes (`crate::runtime::copy`).
        if let (Some(_), Some((start, end))) = (reads, src_range) {
            crate::runtime::copy::note_window_read(start, end);
        }
        let streaming = writes.is_some()
            && dst_range.is_some_and(|(s, e)| crate::runtime::copy::should_stream(s, e));
        Some(Checked {
            reads,
            writes,
            bytes,
            begin,
            streaming,
        })
    }

    /// Shows the sides in windows (`reads`, `writes`: their windows) to the
    /// explorer, as `agent`'s accesses at `site`.
    fn explore(
        &self,
        state: &State<'_>,
        explore: &dyn Explorer,
        agent: usize,
        reads: Option<usize>,
        writes: Option<usize>,
        site: i64,
    ) {
        // A copy of a block onto itself (a broadcast's root getting its own
        // data) cannot change a byte: only its read counts.
        let onto_itself = self.accumulate == 0
            && std::ptr::eq(self.dst.cast_const(), self.src)
            && self.dst_strides == self.src_strides;
        let writes = if onto_itself { None } else { writes };
        let sides = [
            (self.src as usize, self.src_strides, reads, None),
            (
                self.dst as usize,
                self.dst_strides,
                writes,
                Some(self.accumulate != 0),
            ),
        ];
        for (address, strides, owner, write) in sides {
            if let Some(window) = owner {
                let access = WindowAccess {
                    window,
                    offset: address - state.domain.window(window).base() as usize,
                    strides,
                    shape: self.shape,
                    elem: self.elem_bytes as usize,
                    write,
                };
                explore.accessed(agent, access, site);
            }
        }
    }

    /// Moves the bytes (streaming contiguous rows past the cache when
    /// `streaming`).
    ///
    /// # Safety
    ///
    /// As `pld_sim_copy`'s: both blocks valid for their strided extent.
    unsafe fn perform(&self, streaming: bool) {
        let elem = self.elem_bytes as usize;
        let [rows, cols] = self.shape;
        let ([dst_row_stride, dst_col_stride], [src_row_stride, src_col_stride]) =
            (self.dst_strides, self.src_strides);
        if self.accumulate == 0 && dst_col_stride == 1 && src_col_stride == 1 {
            // Contiguous rows.
            // SAFETY: the caller's contract.
            unsafe {
                crate::runtime::copy::copy_rows(
                    self.dst,
                    dst_row_stride.wrapping_mul(elem as i64),
                    self.src,
                    src_row_stride.wrapping_mul(elem as i64),
                    rows.max(0) as usize,
                    cols.max(0) as usize * elem,
                    streaming,
                )
            };
        } else {
            // SAFETY: as above.
            unsafe {
                crate::runtime::copy::copy_elements(
                    self.dst,
                    self.dst_strides,
                    self.src,
                    self.src_strides,
                    self.shape,
                    elem,
                    self.accumulate,
                )
            };
        }
    }

    /// The timeline's arguments of the copy: its bytes, the windows (or
    /// `"local"`) it reads and writes, the buffer elements it starts at
    /// when named, and its op.
    fn trace_args(&self, state: &State<'_>, checked: &Checked, site: i64) -> String {
        let side = |owner: Option<usize>| owner.map_or("\"local\"".to_string(), |o| o.to_string());
        // The buffer elements the copy starts at, when named.
        let named = |key: &str, owner: Option<usize>, address: usize| {
            owner
                .and_then(|w| {
                    let base = state.domain.window(w).base() as usize;
                    state.name_of(w, address.checked_sub(base)?)
                })
                .map_or(String::new(), |n| format!(", \"{key}\": {n:?}"))
        };
        format!(
            "\"bytes\": {}, \"from\": {}{}, \"to\": {}{}{}",
            checked.bytes,
            side(checked.reads),
            named("from_name", checked.reads, self.src as usize),
            side(checked.writes),
            named("to_name", checked.writes, self.dst as usize),
            op_args(site)
        )
    }
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
        eprintln!("{message}; ignored");
    }
}

/// `pld_sim_block_exit`: frees the block's tiles and unbinds the thread.
#[no_mangle]
pub extern "C" fn pld_sim_block_exit() {
    if let Err(message) = crate::runtime::run::unbind_block() {
        eprintln!("{message}; ignored");
    }
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
        eprintln!("pld_sim_fatal outside a simulated rank: code {code}: {message}");
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
        eprintln!("{line}");
    }
}

/// Every device function this module implements, by the name `pld_sim.h`
/// gives it, for the JIT to resolve the kernels' calls.
pub const DEVICE_FUNCTIONS: &[(&str, *mut ())] = &[
    ("pld_sim_at", pld_sim_at as *mut ()),
    ("pld_sim_scalar", pld_sim_scalar as *mut ()),
    ("pld_sim_notify", pld_sim_notify as *mut ()),
    ("pld_sim_wait", pld_sim_wait as *mut ()),
    ("pld_sim_test", pld_sim_test as *mut ()),
    ("pld_sim_fence", pld_sim_fence as *mut ()),
    ("pld_sim_tile_alloc", pld_sim_tile_alloc as *mut ()),
    ("pld_sim_copy", pld_sim_copy as *mut ()),
    ("pld_sim_fill_pad", pld_sim_fill_pad as *mut ()),
    ("pld_sim_rank_handle", pld_sim_rank_handle as *mut ()),
    ("pld_sim_block_enter", pld_sim_block_enter as *mut ()),
    ("pld_sim_block_exit", pld_sim_block_exit as *mut ()),
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

    #[test]
    fn extents_cover_strided_blocks() {
        assert_eq!(
            extent(100, 8, 1, 2, 4, 4),
            Some((100, 100 + (8 + 3 + 1) * 4))
        );
        assert_eq!(extent(0, 1, 4, 4, 1, 4), Some((0, 16)));
        assert_eq!(extent(0, -1, 1, 2, 2, 4), None);
    }
}
