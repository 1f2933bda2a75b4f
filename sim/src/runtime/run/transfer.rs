//! One copy between windows, tiles and buffers (`pld_sim_copy`, and the
//! asynchronous copies of `crate::runtime::run::dma`): its arguments, the
//! checks of its two sides against the windows, what the explorer is
//! shown, the counters, and the movement of its bytes.

use crate::runtime::explorer::{Memory, MemoryAccess};
use crate::runtime::mpi::{Summed, Win};
use crate::runtime::run::State;
use std::sync::atomic::Ordering;

/// The byte range a strided block touches: from its first to one past its
/// last element.
pub(crate) fn extent(
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

/// Checks one side of a copy: it must lie inside one window, a tile of the
/// running core, a buffer the run gave its kernel or the core's stack
/// (each refusal an error of `rank`'s run at `site`). Returns the owning
/// window's rank, if any.
pub(crate) fn check_side(
    state: &State<'_>,
    (rank, site): (usize, i64),
    what: &str,
    range: Option<(usize, usize)>,
) -> Result<Option<usize>, ()> {
    let refuse = |message: String| {
        state.error_at(rank, site, message);
        Err(())
    };
    let Some((start, end)) = range else {
        return refuse(format!("{what} with negative or overflowing strides"));
    };
    if start == end {
        return Ok(None);
    }
    // No window, tile or buffer lives in the first 64 KiB: an address there
    // is an offset computed from an empty CommContext slot (a peer at or
    // past the rank count), or from a field before the slots (a negative
    // peer).
    if start < 1 << 16 {
        if state.peer_refused_at(rank, site) {
            return Err(()); // the peer lookup's error said it
        }
        return refuse(format!(
            "{what} at address {start:#x}, outside every window: a peer at or beyond the rank \
             count, or below 0?"
        ));
    }
    // A range inside a window (the common case: `locate` finds it by the
    // windows' stride with threads, else searches).
    if let Some((owner, _)) = state.domain.locate(start, end - start) {
        return Ok(Some(owner));
    }
    if let Some(leaving) = leaves_a_window(state, what, start, end) {
        return refuse(leaving);
    }
    match outside_windows(state, what, site, start, end) {
        Some(refused) => refuse(refused),
        None => Ok(None),
    }
}

/// Why `[start, end)`, in no window whole, is refused when it touches one:
/// it leaves the first window it touches (the scan finds it, to name it).
fn leaves_a_window(state: &State<'_>, what: &str, start: usize, end: usize) -> Option<String> {
    if !state.domain.touches_a_window(start, end) {
        return None;
    }
    let (owner, window) = state
        .domain
        .windows()
        .iter()
        .enumerate()
        .find(|(_, w)| start < w.base() as usize + w.len() && end > w.base() as usize)?;
    let base = window.base() as usize;
    Some(format!(
        "{what} of bytes {}..{} relative to rank {owner}'s window leaves it ({} bytes)",
        start as i128 - base as i128,
        end as i128 - base as i128,
        window.len()
    ))
}

/// Why `[start, end)`, touching no window, is refused, if it is: it must
/// lie inside the tile of this core it touches, else in a buffer the run
/// gave its kernel or a builtin's tile (a C++ object on the running core's
/// stack); anything else is memory no kernel owns (an offset past its
/// tensor) and is not touched.
fn outside_windows(
    state: &State<'_>,
    what: &str,
    site: i64,
    start: usize,
    end: usize,
) -> Option<String> {
    if let Some((base, size)) = crate::runtime::tiles::overlapping(start, end) {
        return (start < base || end > base + size).then(|| {
            format!(
                "{what} of bytes {}..{} relative to a {size}-byte tile leaves it (a valid shape \
                 larger than the tile?)",
                start as i128 - base as i128,
                end as i128 - base as i128
            )
        });
    }
    if state.holds_buffer(start, end) || crate::runtime::stack::holds(start, end) {
        return None;
    }
    Some(outside_everything(state, what, site, start, end))
}

/// Why a copy into `owner`'s window over `[start, end)` is refused: it
/// writes signal cells, whose values only notifies change (the waits on
/// them would go on, or not, on the data's bits): a copy through a view
/// larger than its tensor, or a store meant to reset a signal.
fn onto_signals(state: &State<'_>, owner: usize, (start, end): (usize, usize)) -> Option<String> {
    let base = state.domain.window(owner).base() as usize;
    let (start, end) = (start - base, end - base);
    let first = state.signal_byte_in(start, end)?;
    let named = state
        .name_of(owner, first)
        .map_or(String::new(), |name| format!(" ({name})"));
    Some(format!(
        "a copy into bytes {start}..{end} of rank {owner}'s window writes its signal cells \
         from byte {first}{named}, which only notifies change (a view larger than its tensor? \
         A signal is reset by a notify that sets it)"
    ))
}

/// Why `[start, end)` is refused: named relative to the window below it,
/// when there is one.
fn outside_everything(
    state: &State<'_>,
    what: &str,
    site: i64,
    start: usize,
    end: usize,
) -> String {
    if let Some(view) = crate::runtime::outside::describe(what, site, start) {
        return view;
    }
    if start >= crate::runtime::outside::UNREACHABLE {
        return format!(
            "{what} at an offset that does not fit 64 bits (offset x stride x element size \
             wraps around), in no window, tile or buffer of the run"
        );
    }
    match state.domain.below(start) {
        Some((owner, base, len)) => format!(
            "{what} of bytes {}..{} relative to rank {owner}'s window lies past its end ({len} \
             bytes), in no window, tile or buffer of the run (an offset past the end of its \
             tensor?)",
            start - base,
            end - base
        ),
        None => format!(
            "{what} at address {start:#x}..{end:#x} lies in no window, tile or buffer of the run"
        ),
    }
}

/// The arguments of one `pld_sim_copy`: strides in elements.
#[derive(Clone, Copy)]
pub(crate) struct CopyCall {
    pub dst: *mut u8,
    pub dst_strides: [i64; 2],
    pub src: *const u8,
    pub src_strides: [i64; 2],
    /// Rows and columns.
    pub shape: [i64; 2],
    pub elem_bytes: i32,
    /// 0 assigns, else the accumulation (`PLD_COPY_ADD_*`).
    pub accumulate: i32,
}

// SAFETY: the pointers are addresses a kernel handed over (windows, tiles,
// its buffers); a copy kept for later (an asynchronous one,
// `crate::runtime::run::dma`) is moved by whichever simulated thread delivers
// it, and its memory outlives the run.
unsafe impl Send for CopyCall {}

/// A copy that may go ahead: the windows its source and destination lie
/// in (`None` for a tile or a buffer), its bytes, when it began, and
/// whether the store streams past the cache.
#[derive(Clone, Copy, PartialEq)]
pub(crate) struct Checked {
    pub reads: Option<usize>,
    pub writes: Option<usize>,
    pub bytes: u64,
    pub begin: Option<std::time::Instant>,
    pub streaming: bool,
    /// Window bytes to prefetch once the copy is done
    /// ([`crate::runtime::copy::read_ahead`]).
    pub ahead: Option<(usize, usize)>,
}

/// The windows the two sides of a copy lie in (`None` for a tile or a
/// buffer).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Sides {
    pub reads: Option<usize>,
    pub writes: Option<usize>,
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

    /// The destination's byte range.
    pub fn dst_range(&self) -> Option<(usize, usize)> {
        self.range(self.dst as usize, self.dst_strides)
    }

    /// The source's byte range.
    pub fn src_range(&self) -> Option<(usize, usize)> {
        self.range(self.src as usize, self.src_strides)
    }

    /// Moves the bytes as the run's transport does: through MPI when a
    /// side is a window of another process (`mpi-rma`, an error of `rank`
    /// when MPI fails), else in memory ([`CopyCall::perform`]).
    ///
    /// # Safety
    ///
    /// As [`CopyCall::perform`]'s, for the sides in this process's memory.
    pub unsafe fn deliver(&self, state: &State<'_>, rank: usize, streaming: bool) {
        if state.domain.rma().is_some() {
            let side = |range: Option<(usize, usize)>| {
                let (start, end) = range?;
                state
                    .domain
                    .locate(start, (end - start).max(1))
                    .map(|(w, _)| w)
            };
            let sides = Sides {
                reads: side(self.src_range()),
                writes: side(self.dst_range()),
            };
            // SAFETY: the caller's contract.
            match unsafe { rma_copy(state.domain, self, sides) } {
                Ok(true) => return,
                Ok(false) => {}
                Err(message) => return state.error(rank, format!("a copy failed: {message}")),
            }
        }
        // SAFETY: the caller's contract.
        unsafe { self.perform(streaming) }
    }

    /// The bytes the copy moves.
    pub fn bytes(&self) -> u64 {
        let [rows, cols] = self.shape;
        (rows.max(0) * cols.max(0) * i64::from(self.elem_bytes)) as u64
    }

    /// Checks both sides against the windows: the windows they lie in, or
    /// `None` (an error of `rank`'s run) when one leaves its window.
    pub fn sides(&self, state: &State<'_>, rank: usize, site: i64) -> Option<Sides> {
        let dst_range = self.dst_range();
        let src_range = self.range(self.src as usize, self.src_strides);
        let writes = check_side(state, (rank, site), "a store", dst_range).ok()?;
        let reads = check_side(state, (rank, site), "a load", src_range).ok()?;
        if let (Some(owner), Some(range)) = (writes, dst_range) {
            if let Some(refused) = onto_signals(state, owner, range) {
                state.error_at(rank, site, refused);
                return None;
            }
        }
        Some(Sides { reads, writes })
    }

    /// Checks both sides against the windows (an error of `rank`'s run,
    /// and `None`, when one leaves its window), shows them to the explorer,
    /// counts the remote traffic and records a remote write.
    pub fn check(&self, state: &State<'_>, rank: usize, site: i64) -> Option<Checked> {
        let begin = state.stamp();
        let turn = state.turn();
        let sides = self.sides(state, rank, site)?;
        if let Some((explore, agent)) = turn {
            for access in self.accesses(state, rank, sides) {
                explore.accessed(agent, access, site);
            }
        }
        let bytes = self.count(state, rank, sides);
        // A store into a window streams past the cache unless the core
        // has just read those bytes (`crate::runtime::copy`).
        let mut ahead = None;
        if let (Some(owner), Some((start, end))) =
            (sides.reads, self.range(self.src as usize, self.src_strides))
        {
            crate::runtime::copy::note_window_read(start, end);
            let window = state.domain.window(owner);
            let mapped_end = window
                .remote()
                .is_none()
                .then(|| window.base() as usize + window.len());
            ahead =
                mapped_end.and_then(|limit| crate::runtime::copy::read_ahead(start, end, limit));
        }
        let streaming = sides.writes.is_some()
            && self
                .dst_range()
                .is_some_and(|(s, e)| crate::runtime::copy::should_stream(s, e));
        Some(Checked {
            reads: sides.reads,
            writes: sides.writes,
            bytes,
            begin,
            streaming,
            ahead,
        })
    }

    /// Counts the copy's bytes from and to other ranks' windows as
    /// `rank`'s remote traffic and records a remote write (when the run
    /// records them). Returns the bytes.
    pub fn count(&self, state: &State<'_>, rank: usize, sides: Sides) -> u64 {
        let bytes = self.bytes();
        let counters = state.counters(rank);
        if sides.reads.is_some_and(|owner| owner != rank) {
            counters
                .remote_bytes_read
                .fetch_add(bytes, Ordering::Relaxed);
        }
        if sides.writes.is_some_and(|owner| owner != rank) {
            counters
                .remote_bytes_written
                .fetch_add(bytes, Ordering::Relaxed);
            let dst_range = self.dst_range();
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
        bytes
    }

    /// Both sides as the explorer sees them, the read, then the write: in
    /// a window, or (a tile, a buffer) in `rank`'s own memory.
    pub fn accesses(&self, state: &State<'_>, rank: usize, sides: Sides) -> Vec<MemoryAccess> {
        // A copy of a block onto itself (a broadcast's root getting its own
        // data) cannot change a byte: only its read counts.
        let onto_itself = self.accumulate == 0
            && std::ptr::eq(self.dst.cast_const(), self.src)
            && self.dst_strides == self.src_strides;
        let read = (self.src as usize, self.src_strides, sides.reads, None);
        let write = (
            self.dst as usize,
            self.dst_strides,
            sides.writes,
            Some(self.accumulate != 0),
        );
        let sides = match onto_itself {
            true => vec![read],
            false => vec![read, write],
        };
        sides
            .into_iter()
            .map(|(address, strides, owner, write)| {
                let (memory, offset) = match owner {
                    Some(window) => (
                        Memory::Window(window),
                        address - state.domain.window(window).base() as usize,
                    ),
                    None => (Memory::Own(rank), address),
                };
                MemoryAccess {
                    memory,
                    offset,
                    strides,
                    shape: self.shape,
                    elem: self.elem_bytes as usize,
                    write,
                }
            })
            .collect()
    }

    /// Moves the bytes (streaming contiguous rows past the cache when
    /// `streaming`).
    ///
    /// # Safety
    ///
    /// As `pld_sim_copy`'s: both blocks valid for their strided extent.
    pub unsafe fn perform(&self, streaming: bool) {
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
    pub fn trace_args(&self, state: &State<'_>, checked: &Checked, site: i64) -> String {
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
            crate::runtime::sites::op_args(site)
        )
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
unsafe fn rma_copy(
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
            "an f16 accumulation at byte {offset} of a {}-byte window is not in an aligned 4-byte word of it",
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
    fn extents_cover_strided_blocks() {
        assert_eq!(
            extent(100, 8, 1, 2, 4, 4),
            Some((100, 100 + (8 + 3 + 1) * 4))
        );
        assert_eq!(extent(0, 1, 4, 4, 1, 4), Some((0, 16)));
        assert_eq!(extent(0, -1, 1, 2, 2, 4), None);
    }
}
