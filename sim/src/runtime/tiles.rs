//! Tile buffers: on-chip (UB) buffers, modelled as such. Each
//! `pto.alloc_tile` is an allocation *site* (a process-wide number the
//! lowering gives it, [`crate::runtime::sites`]); a core (the thread running a
//! kernel or a block) gets one buffer per site, the first time the site
//! runs, and the same buffer every later time (a loop reuses it), until the
//! kernel returns. The buffers a core holds must fit in an AIV core's UB
//! (192 KiB on A2/A3): a kernel that needs more is reported with the
//! location of the allocation that overflows.

/// The UB of one AIV core (A2/A3), in bytes.
pub const UB_BYTES: usize = 192 * 1024;

/// Bytes before a tile's data: the simulator's header (the valid rows and
/// columns, two i64), which the sim lowering's code reads and writes. The
/// runtime's tile ABI.
pub(crate) const TILE_HEADER: i64 = 16;

/// [`TILE_HEADER`] in bytes; not part of the UB the tile takes.
const HEADER: usize = TILE_HEADER as usize;

fn site_location(site: i64) -> String {
    crate::runtime::sites::get(site)
        .map_or_else(|| format!("allocation site {site}"), |s| s.location)
}

struct Tile {
    site: i64,
    pointer: *mut u8,
    layout: std::alloc::Layout,
}

thread_local! {
    /// The tile buffers of the kernel running on this thread (this core).
    static TILES: std::cell::RefCell<Vec<Tile>> = const { std::cell::RefCell::new(Vec::new()) };
    /// Whether this core's overflow was reported already.
    static REPORTED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The calling core's 64-byte aligned block of `bytes` for `site`: the
/// buffer it had for the site if any (holding what the site's last tile
/// left there, as UB does), else a new, zeroed one. Null when the size is
/// impossible. With it, the error the run should record, if any: an
/// impossible size, or the first tile of the core that overflows the UB.
pub(crate) fn alloc(site: i64, bytes: i64) -> (*mut u8, Option<String>) {
    let layout = usize::try_from(bytes)
        .ok()
        .and_then(|b| std::alloc::Layout::from_size_align(b.max(1), 64).ok());
    let Some(layout) = layout else {
        let error = format!("a tile of {bytes} bytes at {}", site_location(site));
        return (std::ptr::null_mut(), Some(error));
    };
    TILES.with(|tiles| {
        let mut tiles = tiles.borrow_mut();
        if let Some(tile) = tiles.iter().find(|t| t.site == site) {
            if tile.layout == layout {
                // As UB: what the site's last tile left there.
                return (tile.pointer, None);
            }
        }
        let held: usize = tiles
            .iter()
            .map(|t| t.layout.size().saturating_sub(HEADER))
            .sum();
        let needed = held + layout.size().saturating_sub(HEADER);
        let error = (needed > UB_BYTES && !REPORTED.with(|r| r.replace(true))).then(|| {
            format!(
                "{}: the kernel's tiles need {needed} bytes of UB, more than the {UB_BYTES} of \
                 an AIV core (this tile of {} bytes does not fit)",
                site_location(site),
                layout.size().saturating_sub(HEADER)
            )
        });
        // SAFETY: the layout has a non-zero size.
        let pointer = unsafe { std::alloc::alloc_zeroed(layout) };
        if !pointer.is_null() {
            tiles.push(Tile {
                site,
                pointer,
                layout,
            });
        }
        (pointer, error)
    })
}

/// A core's tile buffers, moved out of the thread while the core's fiber
/// is switched out (`crate::runtime::fiber`).
#[derive(Default)]
pub(crate) struct CoreTiles {
    tiles: Vec<Tile>,
    reported: bool,
}

/// Moves the calling thread's tile buffers out.
pub(crate) fn take_core() -> CoreTiles {
    CoreTiles {
        tiles: TILES.with(|t| std::mem::take(&mut *t.borrow_mut())),
        reported: REPORTED.with(|r| r.replace(false)),
    }
}

/// Gives the calling thread the tile buffers of a core.
pub(crate) fn put_core(core: CoreTiles) {
    TILES.with(|t| *t.borrow_mut() = core.tiles);
    REPORTED.with(|r| r.set(core.reported));
}

/// Frees the calling core's tile buffers (when its kernel has returned).
pub(crate) fn release() {
    REPORTED.with(|r| r.set(false));
    TILES.with(|tiles| {
        for tile in tiles.borrow_mut().drain(..) {
            // SAFETY: allocated by `alloc` with this layout, freed once.
            unsafe { std::alloc::dealloc(tile.pointer, tile.layout) };
        }
    });
}

/// The first tile buffer of the calling thread that the byte range
/// `[start, end)` overlaps, as (base address, size).
pub(crate) fn overlapping(start: usize, end: usize) -> Option<(usize, usize)> {
    TILES.with(|tiles| {
        tiles.borrow().iter().find_map(|tile| {
            let base = tile.pointer as usize;
            let overlaps = start < base + tile.layout.size() && end > base;
            overlaps.then_some((base, tile.layout.size()))
        })
    })
}
