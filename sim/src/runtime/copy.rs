//! The data movement of `pld_sim_copy` (tile loads and stores, puts and
//! gets): contiguous rows by `memmove`, or with streaming stores, and
//! strided or accumulating blocks element by element.
//!
//! Streaming (non-temporal) stores write whole cache lines to memory
//! without reading them first. A store into a window whose lines are not in
//! the cache (an all-gather's copy of a peer's segment into its own)
//! otherwise reads every line before it overwrites it: measured on the
//! 2-core VM, a 16 KiB tile load followed by a streaming store of it runs
//! in two thirds of the time of two `memmove`s. A store back to where the
//! core has just loaded from (a reduction's accumulator) finds its lines in
//! the cache, and there a plain store is faster: each core remembers the
//! last few window ranges it read ([`Recent`]) and stores plainly into
//! those.

use std::sync::atomic::{AtomicI32, Ordering};

/// How many of its last window reads a core remembers: a mesh reduction
/// loads its own chunk, then one per peer, then stores its own chunk back,
/// so this covers meshes of up to 16 ranks (measured at P = 8: a store of
/// the still-cached chunk that streamed made the run 15 % slower).
const REMEMBERED: usize = 16;

/// Blocks smaller than this are stored plainly (a streaming store pays off
/// over many whole lines only).
const STREAM_MIN_BYTES: usize = 4096;

/// The last window byte ranges a core read, in a ring (`next` is the
/// oldest, overwritten by the next read).
#[derive(Default, Clone, Copy)]
pub(crate) struct Recent {
    ranges: [(usize, usize); REMEMBERED],
    next: usize,
}

impl Recent {
    fn note(&mut self, start: usize, end: usize) {
        self.ranges[self.next] = (start, end);
        self.next = (self.next + 1) % REMEMBERED;
    }

    fn overlaps(&self, start: usize, end: usize) -> bool {
        self.ranges.iter().any(|&(s, e)| start < e && end > s)
    }
}

thread_local! {
    static RECENT: std::cell::Cell<Recent> = const {
        std::cell::Cell::new(Recent { ranges: [(0, 0); REMEMBERED], next: 0 })
    };
}

/// Moves the calling core's recent reads out (its fiber is switched out).
pub(crate) fn take_core() -> Recent {
    RECENT.with(|r| r.take())
}

/// Gives the calling thread a core's recent reads.
pub(crate) fn put_core(recent: Recent) {
    RECENT.with(|r| r.set(recent));
}

/// Records that the calling core read window bytes `[start, end)`.
pub(crate) fn note_window_read(start: usize, end: usize) {
    RECENT.with(|r| {
        let mut recent = r.get();
        recent.note(start, end);
        r.set(recent);
    });
}

/// Whether a store of `bytes` into window bytes `[start, end)` should
/// stream past the cache.
pub(crate) fn should_stream(start: usize, end: usize) -> bool {
    end - start >= STREAM_MIN_BYTES && !RECENT.with(|r| r.get().overlaps(start, end))
}

/// The window bytes worth fetching after a read of `[start, end)` from a
/// window of this process that ends at `limit`: the next block of the same
/// size, the next subchunk of a tile loop that walks a segment in order.
/// Fetched while the core adds, stores and waits for its peers, it is in
/// the cache when the loop comes back for it (the 2-core VM, 64 MiB f32,
/// alternating A/B runs: the mesh's minima 4 to 11 % lower at P = 4 and 4
/// % at 8, the ring's 2 to 4 % at P = 2 to 8, two-shot's unchanged;
/// bench/README.md "Reading ahead"). Nothing for blocks under
/// [`PREFETCH_MIN_BYTES`] or at the window's end.
pub(crate) fn read_ahead(start: usize, end: usize, limit: usize) -> Option<(usize, usize)> {
    let bytes = end.checked_sub(start)?;
    (bytes >= PREFETCH_MIN_BYTES && end < limit)
        .then(|| (end, limit.min(end.saturating_add(bytes))))
}

/// Reads smaller than this prefetch nothing (a few lines are not worth the
/// instructions; the hardware's own prefetchers see them).
const PREFETCH_MIN_BYTES: usize = 4096;

/// Asks the core to bring bytes `[start, end)` into its L2 cache. A
/// prefetch is a hint: it changes no value, faults on no address and is
/// invisible to the explorer.
pub(crate) fn prefetch(start: usize, end: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T1};
        for line in (start & !63..end).step_by(64) {
            // SAFETY: `prefetcht1` never faults, whatever the address.
            unsafe { _mm_prefetch::<_MM_HINT_T1>(line as *const i8) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (start, end);
}

/// Copies `rows` rows of `row_bytes` contiguous bytes each, row `r` from
/// `src + r * src_row_bytes` to `dst + r * dst_row_bytes`.
///
/// # Safety
///
/// Both blocks must be valid for their extent (they may overlap: a block
/// that overlaps the other, or whose destination rows overlap each other,
/// is copied plainly, row by row as `memmove` would).
pub(crate) unsafe fn copy_rows(
    dst: *mut u8,
    dst_row_bytes: i64,
    src: *const u8,
    src_row_bytes: i64,
    rows: usize,
    row_bytes: usize,
    streaming: bool,
) {
    let streaming = streaming
        && disjoint(
            extent(dst as usize, dst_row_bytes, rows, row_bytes),
            extent(src as usize, src_row_bytes, rows, row_bytes),
        )
        && (rows <= 1 || dst_row_bytes >= row_bytes as i64);
    for r in 0..rows {
        // Wrapping: a stride the caller got wrong must not panic here
        // (these run under `extern "C"` functions); the contract is the
        // caller's.
        let d = dst.wrapping_offset((r as isize).wrapping_mul(dst_row_bytes as isize));
        let s = src.wrapping_offset((r as isize).wrapping_mul(src_row_bytes as isize));
        if streaming {
            // SAFETY: the caller's contract; the blocks do not overlap.
            unsafe { stream::copy(d, s, row_bytes) };
        } else {
            // SAFETY: the caller's contract.
            unsafe { std::ptr::copy(s, d, row_bytes) };
        }
    }
    if streaming {
        stream::fence();
    }
}

/// The bytes `[start, end)` a block of rows spans, if the strides are
/// non-negative and nothing overflows.
fn extent(base: usize, row_stride: i64, rows: usize, row_bytes: usize) -> Option<(usize, usize)> {
    if rows == 0 || row_bytes == 0 {
        return Some((base, base));
    }
    let stride = usize::try_from(row_stride).ok()?;
    let end = stride
        .checked_mul(rows - 1)?
        .checked_add(row_bytes)?
        .checked_add(base)?;
    Some((base, end))
}

fn disjoint(a: Option<(usize, usize)>, b: Option<(usize, usize)>) -> bool {
    matches!((a, b), (Some(a), Some(b)) if a.1 <= b.0 || b.1 <= a.0)
}

/// Streaming stores, where the target has them (x86-64 always does: SSE2
/// is part of the base ISA); elsewhere plain copies.
mod stream {
    /// Copies `bytes` from `src` to `dst` with streaming stores for the
    /// whole 64-byte lines of `dst`.
    ///
    /// # Safety
    ///
    /// Both ranges valid for `bytes`, not overlapping.
    #[cfg(target_arch = "x86_64")]
    pub(super) unsafe fn copy(dst: *mut u8, src: *const u8, bytes: usize) {
        use std::arch::x86_64::{__m128i, _mm_loadu_si128, _mm_stream_si128};
        const LINE: usize = 64;
        let head = dst.align_offset(LINE).min(bytes);
        let lines = (bytes - head) / LINE;
        let tail = bytes - head - lines * LINE;
        // SAFETY: every access below stays within the `bytes` of both
        // ranges (head, then whole lines, then the tail); the streamed
        // stores are 16-byte aligned because `dst + head` is 64-byte
        // aligned; loads are unaligned.
        unsafe {
            std::ptr::copy_nonoverlapping(src, dst, head);
            let (mut d, mut s) = (dst.add(head), src.add(head));
            for _ in 0..lines {
                for k in 0..4 {
                    let v = _mm_loadu_si128(s.add(16 * k).cast::<__m128i>());
                    _mm_stream_si128(d.add(16 * k).cast::<__m128i>(), v);
                }
                d = d.add(LINE);
                s = s.add(LINE);
            }
            std::ptr::copy_nonoverlapping(s, d, tail);
        }
    }

    /// Orders the streaming stores before everything the thread does
    /// next (a notify that publishes them, above all).
    #[cfg(target_arch = "x86_64")]
    pub(super) fn fence() {
        // SAFETY: `sfence` has no preconditions (SSE is baseline on
        // x86-64).
        unsafe { std::arch::x86_64::_mm_sfence() };
    }

    /// # Safety
    ///
    /// Both ranges valid for `bytes`, not overlapping.
    #[cfg(not(target_arch = "x86_64"))]
    pub(super) unsafe fn copy(dst: *mut u8, src: *const u8, bytes: usize) {
        // SAFETY: the caller's contract.
        unsafe { std::ptr::copy_nonoverlapping(src, dst, bytes) };
    }

    #[cfg(not(target_arch = "x86_64"))]
    pub(super) fn fence() {}
}

/// Element-by-element copy or accumulation of a strided block.
///
/// # Safety
///
/// Both blocks must be valid for their strided extent.
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn copy_elements(
    dst: *mut u8,
    [dst_row_stride, dst_col_stride]: [i64; 2],
    src: *const u8,
    [src_row_stride, src_col_stride]: [i64; 2],
    [rows, cols]: [i64; 2],
    elem: usize,
    accumulate: i32,
) {
    for r in 0..rows.max(0) {
        for c in 0..cols.max(0) {
            let d = (r * dst_row_stride + c * dst_col_stride) as usize * elem;
            let s = (r * src_row_stride + c * src_col_stride) as usize * elem;
            // SAFETY: both blocks were checked against their windows (or
            // are tiles and buffers the kernel owns).
            unsafe {
                let (dp, sp) = (dst.add(d), src.add(s));
                match u32::try_from(accumulate).unwrap_or(u32::MAX) {
                    // Accumulations are element-atomic: several ranks may
                    // add into one element at once.
                    pld_runtime_sys::PLD_COPY_ADD_F32 => {
                        let add = sp.cast::<f32>().read_unaligned();
                        let cell = std::sync::atomic::AtomicU32::from_ptr(dp.cast());
                        let _ = cell.fetch_update(Ordering::AcqRel, Ordering::Acquire, |old| {
                            Some((f32::from_bits(old) + add).to_bits())
                        });
                    }
                    pld_runtime_sys::PLD_COPY_ADD_I32 => {
                        let add = sp.cast::<i32>().read_unaligned();
                        AtomicI32::from_ptr(dp.cast()).fetch_add(add, Ordering::AcqRel);
                    }
                    pld_runtime_sys::PLD_COPY_ADD_F16 => {
                        let add =
                            crate::runtime::half::f16_to_f32(sp.cast::<u16>().read_unaligned());
                        let cell = std::sync::atomic::AtomicU16::from_ptr(dp.cast());
                        let _ = cell.fetch_update(Ordering::AcqRel, Ordering::Acquire, |old| {
                            Some(crate::runtime::half::f32_to_f16(
                                crate::runtime::half::f16_to_f32(old) + add,
                            ))
                        });
                    }
                    _ => std::ptr::copy(sp, dp, elem),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streamed_rows_equal_plain_ones_at_every_alignment() {
        let src: Vec<u8> = (0..9000u32).map(|i| (i * 7 + 3) as u8).collect();
        for offset in [0, 1, 15, 16, 63, 64, 100] {
            for bytes in [0, 1, 63, 64, 65, 4096, 5000, 8000] {
                let mut plain = vec![0u8; 9100];
                let mut streamed = vec![0u8; 9100];
                // SAFETY: offset + bytes <= 8100 < 9100, and the source has
                // 9000 bytes.
                unsafe {
                    copy_rows(
                        plain.as_mut_ptr().add(offset),
                        0,
                        src.as_ptr(),
                        0,
                        1,
                        bytes,
                        false,
                    );
                    copy_rows(
                        streamed.as_mut_ptr().add(offset),
                        0,
                        src.as_ptr(),
                        0,
                        1,
                        bytes,
                        true,
                    );
                }
                assert_eq!(plain, streamed, "offset {offset}, {bytes} bytes");
                assert_eq!(&streamed[offset..offset + bytes], &src[..bytes]);
            }
        }
    }

    #[test]
    fn rows_with_strides_land_where_plain_copies_put_them() {
        let src: Vec<u8> = (0..4096u32).map(|i| i as u8).collect();
        let mut dst = vec![0u8; 8192];
        // SAFETY: 3 rows of 1000 bytes, source rows 1200 apart (ends at
        // 3400), destination rows 2500 apart (ends at 6000).
        unsafe { copy_rows(dst.as_mut_ptr(), 2500, src.as_ptr(), 1200, 3, 1000, true) };
        for r in 0..3 {
            assert_eq!(
                &dst[r * 2500..r * 2500 + 1000],
                &src[r * 1200..r * 1200 + 1000]
            );
            assert!(dst[r * 2500 + 1000..(r * 2500 + 2500).min(8192)]
                .iter()
                .all(|&b| b == 0));
        }
    }

    #[test]
    fn a_read_fetches_the_next_block_of_its_size_inside_its_window() {
        assert_eq!(read_ahead(0, 16384, 1 << 20), Some((16384, 32768)));
        // Clipped at the window's end; nothing past it or for small reads.
        assert_eq!(read_ahead(1000, 9192, 12000), Some((9192, 12000)));
        assert_eq!(read_ahead(0, 8192, 8192), None);
        assert_eq!(read_ahead(0, 4095, 1 << 20), None);
        assert_eq!(read_ahead(10, 5, 1 << 20), None);
        assert_eq!(
            read_ahead(usize::MAX - 8192, usize::MAX - 1, usize::MAX),
            Some((usize::MAX - 1, usize::MAX))
        );
        // A hint at any address is harmless.
        prefetch(0, 4096);
        prefetch(usize::MAX - 64, usize::MAX);
    }

    #[test]
    fn overlapping_blocks_are_copied_as_memmove_copies_them() {
        // A shift inside one buffer, forward and backward, asked to stream.
        for shift in [-100i64, 100] {
            let mut buffer: Vec<u8> = (0..12000u32).map(|i| (i % 251) as u8).collect();
            let mut expected = buffer.clone();
            let (from, to) = (2000usize, (2000 + shift) as usize);
            expected.copy_within(from..from + 8192, to);
            let base = buffer.as_mut_ptr();
            // SAFETY: both 8192-byte ranges lie inside the 12000 bytes.
            unsafe { copy_rows(base.add(to), 0, base.add(from), 0, 1, 8192, true) };
            assert_eq!(buffer, expected, "shift {shift}");
        }
        // Destination rows that overlap each other: later rows win, as
        // with row-by-row memmoves.
        let src: Vec<u8> = (0..20000u32).map(|i| (i % 253) as u8).collect();
        let mut expected = vec![0u8; 12000];
        for r in 0..3 {
            expected[r * 1000..r * 1000 + 5000].copy_from_slice(&src[r * 6000..r * 6000 + 5000]);
        }
        let mut dst = vec![0u8; 12000];
        // SAFETY: source rows end at 17000, destination rows at 7000.
        unsafe { copy_rows(dst.as_mut_ptr(), 1000, src.as_ptr(), 6000, 3, 5000, true) };
        assert_eq!(dst, expected);
    }

    #[test]
    fn a_store_back_to_a_recent_read_is_plain() {
        put_core(Recent::default());
        assert!(should_stream(1 << 20, (1 << 20) + 16384));
        note_window_read(1 << 20, (1 << 20) + 16384);
        assert!(!should_stream(1 << 20, (1 << 20) + 16384));
        assert!(should_stream(2 << 20, (2 << 20) + 16384));
        assert!(
            !should_stream(2 << 20, (2 << 20) + 100),
            "small blocks are plain"
        );
        for k in 0..REMEMBERED {
            note_window_read(3 << 20, (3 << 20) + k + 1);
        }
        assert!(
            should_stream(1 << 20, (1 << 20) + 16384),
            "forgotten after {REMEMBERED} reads"
        );
    }
}
