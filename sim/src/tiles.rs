//! Tile buffers: the blocks `pto.alloc_tile` gets for the kernel running
//! on a thread, freed when that kernel returns.

use crate::run::with_current;

thread_local! {
    /// Tile buffers of the kernel running on this thread.
    static TILES: std::cell::RefCell<Vec<(*mut u8, std::alloc::Layout)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// A zeroed, 64-byte aligned block of `bytes` for the calling thread's
/// kernel. Null when the size is impossible (recorded as an error).
pub(crate) fn alloc(bytes: i64) -> *mut u8 {
    let layout = usize::try_from(bytes)
        .ok()
        .and_then(|b| std::alloc::Layout::from_size_align(b.max(1), 64).ok());
    let Some(layout) = layout else {
        with_current(|state, rank| state.error(rank, format!("a tile of {bytes} bytes")));
        return std::ptr::null_mut();
    };
    // SAFETY: the layout has a non-zero size.
    let pointer = unsafe { std::alloc::alloc_zeroed(layout) };
    if !pointer.is_null() {
        TILES.with(|tiles| tiles.borrow_mut().push((pointer, layout)));
    }
    pointer
}

/// Frees the calling thread's tile buffers (when its kernel has returned).
pub(crate) fn release() {
    TILES.with(|tiles| {
        for (pointer, layout) in tiles.borrow_mut().drain(..) {
            // SAFETY: allocated by `alloc` with this layout, freed once.
            unsafe { std::alloc::dealloc(pointer, layout) };
        }
    });
}

/// The first tile buffer of the calling thread that the byte range
/// `[start, end)` overlaps, as (base address, size).
pub(crate) fn overlapping(start: usize, end: usize) -> Option<(usize, usize)> {
    TILES.with(|tiles| {
        tiles.borrow().iter().find_map(|(pointer, layout)| {
            let base = *pointer as usize;
            let overlaps = start < base + layout.size() && end > base;
            overlaps.then_some((base, layout.size()))
        })
    })
}
