//! Comm domains: one zeroed window per rank and one `CommContext` per rank
//! that records where every window lives.

use crate::runtime::mpi::Win;
use crate::runtime::report::CellLeak;
use crate::runtime::transport::Transport;
use pld_runtime_sys::{PldCommContext, PLD_COMM_BUFFER_ALIGNMENT, PLD_COMM_MAX_RANK_NUM};
use std::alloc::{alloc_zeroed, dealloc, Layout};
use std::ptr::NonNull;
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::Arc;

/// The most ranks a comm domain has: the size of a `CommContext`'s window
/// tables (`PLD_COMM_MAX_RANK_NUM` of runtime-sys's `comm_context.h`). The
/// one place the simulator and the tools take the rank limit from.
pub const MAX_RANKS: usize = PLD_COMM_MAX_RANK_NUM as usize;

/// What can go wrong setting up a simulation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SimError {
    /// A rank count outside `1..=MAX_RANKS`.
    RankCount(usize),
    /// A window size the allocator cannot serve.
    WindowSize(usize),
    /// An MPI transport could not set the windows up (MPI's words).
    Mpi(String),
}

impl std::fmt::Display for SimError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SimError::RankCount(n) => {
                write!(f, "a comm domain has 1 to {MAX_RANKS} ranks, not {n}")
            }
            SimError::WindowSize(n) => write!(f, "cannot allocate a window of {n} bytes"),
            SimError::Mpi(message) => write!(f, "{message}"),
        }
    }
}

impl std::error::Error for SimError {}

/// One rank's window: zeroed memory that every rank may read and write
/// (through the peer addresses of the `CommContext`).
pub struct Window {
    base: NonNull<u8>,
    /// The window's bytes.
    len: usize,
    memory: Memory,
}

/// Where a window's bytes are.
enum Memory {
    /// This process's allocation the window is carved from (an alignment
    /// more than `len`), freed with the window.
    Owned { block: NonNull<u8>, layout: Layout },
    /// Rank `rank`'s part of an MPI window. `mapped`: in this process's
    /// memory at `base` (the rank's own part, or any part of a shared
    /// window); otherwise `base` is an address reserved for the rank that
    /// nothing may touch (`mpi-rma`), and its bytes move through MPI.
    Mpi {
        win: Arc<Win>,
        rank: usize,
        mapped: bool,
    },
}

/// Large windows start at a huge-page boundary and are advised to the
/// kernel as transparent huge pages: a kernel streams through its window in
/// tiles, and with 4 KiB pages every 16 KiB tile copy crosses four TLB
/// entries (and the placement of fresh small pages made the same copies
/// vary by 1.5x from one run to the next).
const HUGE: usize = 2 << 20;

fn advise_huge_pages(base: *mut u8, len: usize) {
    if len < HUGE {
        return;
    }
    // SAFETY: madvise only changes how the kernel backs the range, which is
    // mapped memory of this window (an advice the kernel does not take is
    // harmless, so its result is ignored).
    unsafe {
        libc::madvise(base.cast(), len & !(PAGE - 1), libc::MADV_HUGEPAGE);
    }
}

/// Windows start at a page boundary.
const PAGE: usize = 4096;

// SAFETY: a window is plain memory shared by the rank threads on purpose;
// signal cells in it are only touched atomically, data races on payload
// are the simulated program's (the credit protocol orders them).
unsafe impl Send for Window {}
unsafe impl Sync for Window {}

impl Window {
    fn new(bytes: usize) -> Result<Self, SimError> {
        // Page-aligned (huge-page aligned from 2 MiB on), so every 32-byte
        // aligned buffer offset inside is 32-byte aligned in memory too.
        // The block is allocated with the allocator's own alignment and
        // an alignment's worth to spare, so that zeroing it is the
        // allocator's (`calloc`: fresh pages from the kernel, not written
        // until used) rather than a memset of the whole window up front; a
        // 64 MiB window costs memory only where the run writes (in 2 MiB
        // pages).
        let len = bytes.max(1);
        let align = if len >= HUGE { HUGE } else { PAGE };
        let layout = len
            .checked_add(align)
            .and_then(|size| Layout::from_size_align(size, 16).ok())
            .ok_or(SimError::WindowSize(bytes))?;
        // SAFETY: the layout has a non-zero size.
        let block =
            NonNull::new(unsafe { alloc_zeroed(layout) }).ok_or(SimError::WindowSize(bytes))?;
        let skip = block.as_ptr().align_offset(align);
        // SAFETY: `skip < align`, so the window's `len` bytes after it lie
        // inside the block.
        let base = unsafe { NonNull::new_unchecked(block.as_ptr().add(skip)) };
        advise_huge_pages(base.as_ptr(), len);
        Ok(Window {
            base,
            len,
            memory: Memory::Owned { block, layout },
        })
    }

    /// Rank `rank`'s part of `win`, at `base` in this process (mapped) or
    /// at a reserved address (not mapped).
    fn of_mpi(win: &Arc<Win>, rank: usize, base: *mut u8, len: usize, mapped: bool) -> Self {
        Window {
            base: NonNull::new(base).unwrap_or(NonNull::dangling()),
            len,
            memory: Memory::Mpi {
                win: Arc::clone(win),
                rank,
                mapped,
            },
        }
    }

    /// The MPI window and rank through which this window's bytes move,
    /// when they are not in this process's memory (`mpi-rma`'s peers).
    pub fn remote(&self) -> Option<(&Win, usize)> {
        match &self.memory {
            Memory::Mpi {
                win,
                rank,
                mapped: false,
            } => Some((win, *rank)),
            Memory::Mpi { mapped: true, .. } | Memory::Owned { .. } => None,
        }
    }

    /// The address of byte 0.
    pub fn base(&self) -> *mut u8 {
        self.base.as_ptr()
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether `[address, address + bytes)` lies inside the window.
    pub fn contains(&self, address: usize, bytes: usize) -> bool {
        let start = self.base() as usize;
        address >= start
            && address
                .checked_add(bytes)
                .is_some_and(|end| end <= start + self.len())
    }

    /// The i32 cell at `offset` bytes, for atomic access (none in a
    /// window of another process that is not mapped here).
    pub fn cell(&self, offset: usize) -> Option<&AtomicI32> {
        let aligned = offset.is_multiple_of(std::mem::align_of::<AtomicI32>());
        (aligned && offset + 4 <= self.len() && self.remote().is_none()).then(|| {
            // SAFETY: in bounds and aligned; the memory lives as long as
            // `self`, and cells are only accessed atomically.
            unsafe { AtomicI32::from_ptr(self.base().add(offset).cast()) }
        })
    }

    /// Copies `bytes` out of the window (for inputs, outputs and checks).
    pub fn read(&self, offset: usize, out: &mut [u8]) -> bool {
        let fits = offset
            .checked_add(out.len())
            .is_some_and(|end| end <= self.len());
        if let (true, Some((win, rank))) = (fits, self.remote()) {
            return win.get(rank, offset, out).is_ok();
        }
        if fits {
            // SAFETY: in bounds; the caller synchronises with the ranks.
            unsafe {
                std::ptr::copy_nonoverlapping(self.base().add(offset), out.as_mut_ptr(), out.len())
            };
        }
        fits
    }

    /// Copies `data` into the window.
    pub fn write(&self, offset: usize, data: &[u8]) -> bool {
        let fits = offset
            .checked_add(data.len())
            .is_some_and(|end| end <= self.len());
        if let (true, Some((win, rank))) = (fits, self.remote()) {
            return win.put(rank, offset, data).is_ok();
        }
        if fits {
            // SAFETY: in bounds; the caller synchronises with the ranks.
            unsafe {
                std::ptr::copy_nonoverlapping(data.as_ptr(), self.base().add(offset), data.len())
            };
        }
        fits
    }
}

impl Drop for Window {
    fn drop(&mut self) {
        match &self.memory {
            // SAFETY: allocated with this layout in `new`.
            Memory::Owned { block, layout } => unsafe { dealloc(block.as_ptr(), *layout) },
            // The MPI window is freed when its last part goes.
            Memory::Mpi { .. } => {}
        }
    }
}

/// The windows and `CommContext`s of one group of ranks (docs/passes/convert-pld-to-pto.md: the
/// windows have a symmetric layout, so a buffer is at the same offset in
/// every rank's window).
pub struct CommDomain {
    windows: Vec<Window>,
    /// Every window's bytes `[base, end)` and rank, lowest base first: an
    /// address is located by a binary search over this one array (the
    /// device calls locate their cells and blocks on every call; a scan of
    /// the windows was O(P) per call, and at P = 64 a search through
    /// `windows` still took a third of the ranks' time).
    spans: Vec<(usize, usize, usize)>,
    /// Never resized after `new`, so the addresses handed to kernels stay
    /// valid.
    contexts: Vec<PldCommContext>,
    /// The ranks this process runs: all of them, or its own under MPI.
    local: std::ops::Range<usize>,
    /// Under `mpi-rma`, and under `mpi` across nodes: the MPI window the
    /// remote copies and signals of windows not mapped here go through
    /// (`crate::runtime::transport`).
    rma: Option<Arc<Win>>,
    /// Whether every signal cell, this process's own and its node's too,
    /// goes through `rma` (`mpi-rma`, and `mpi` across nodes: MPI's
    /// atomics combine only with each other, never with CPU atomics on a
    /// shared mapping); otherwise only those of windows not mapped here.
    cells_through_mpi: bool,
    /// Under `mpi`: the node's shared window (freed after `rma`, which
    /// may be a window over its memory; every process frees them in this
    /// order).
    _shared: Option<Arc<Win>>,
    /// Under MPI with peers on other nodes: the addresses reserved for
    /// their windows (dropped after the windows).
    _reserved: Option<Reserved>,
}

/// The windows of an MPI domain, and what must outlive them.
struct MpiParts {
    windows: Vec<Window>,
    rma: Option<Arc<Win>>,
    shared: Option<Arc<Win>>,
    reserved: Option<Reserved>,
}

impl CommDomain {
    /// Allocates `ranks` zeroed windows of `window_bytes` each and fills
    /// every rank's context; every rank runs in this process.
    pub fn new(ranks: usize, window_bytes: usize) -> Result<Self, SimError> {
        if ranks == 0 || ranks > MAX_RANKS {
            return Err(SimError::RankCount(ranks));
        }
        let windows = (0..ranks)
            .map(|_| Window::new(window_bytes))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Self::assemble(windows, window_bytes, 0..ranks, None, None))
    }

    /// The domain of `ranks` ranks over `transport`: [`CommDomain::new`]
    /// for threads; under MPI (collective: every process calls it), one
    /// window per process from MPI, this process running its own rank
    /// (`crate::runtime::transport`).
    pub fn over(transport: Transport, ranks: usize, window_bytes: usize) -> Result<Self, SimError> {
        let rma = match transport {
            Transport::Threads => return Self::new(ranks, window_bytes),
            Transport::Mpi => false,
            Transport::MpiRma => true,
        };
        let world = crate::runtime::mpi::initialised()
            .ok_or_else(|| SimError::Mpi("MPI is not initialised".into()))?;
        if ranks != world.size {
            return Err(SimError::Mpi(format!(
                "{ranks} ranks on {} MPI processes: each process is one rank",
                world.size
            )));
        }
        let len = window_bytes.max(1);
        let me = world.rank;
        let parts = match rma {
            true => Self::rma_windows(ranks, me, len)?,
            false => Self::node_windows(ranks, len)?,
        };
        let local = me..me + 1;
        let mut domain = Self::assemble(
            parts.windows,
            window_bytes,
            local,
            parts.rma,
            parts.reserved,
        );
        domain.cells_through_mpi = domain.rma.is_some();
        domain._shared = parts.shared;
        Ok(domain)
    }

    /// `mpi-rma`: every window an `MPI_Win_allocate` window; the peers'
    /// reached through MPI at addresses reserved for them.
    fn rma_windows(ranks: usize, me: usize, len: usize) -> Result<MpiParts, SimError> {
        let win = Arc::new(Win::allocate(len, false).map_err(SimError::Mpi)?);
        if !win.unified().map_err(SimError::Mpi)? {
            return Err(SimError::Mpi(
                "the MPI window is in the separate memory model; --transport mpi-rma needs \
                 the unified one"
                    .into(),
            ));
        }
        let reserved = Reserved::new(ranks, len)?;
        let windows = (0..ranks)
            .map(|r| match r == me {
                true => Window::of_mpi(&win, r, win.base(), len, true),
                false => Window::of_mpi(&win, r, reserved.slot(r), len, false),
            })
            .collect();
        Ok(MpiParts {
            windows,
            rma: Some(win),
            shared: None,
            reserved: Some(reserved),
        })
    }

    /// `mpi`: one shared window per node, mapped into each of its
    /// processes (its peers addressed directly); when the job spans nodes,
    /// a world window over each process's part of it, through which the
    /// other nodes' peers are reached with RMA.
    fn node_windows(ranks: usize, len: usize) -> Result<MpiParts, SimError> {
        let shared = Arc::new(Win::allocate(len, true).map_err(SimError::Mpi)?);
        let members = crate::runtime::mpi::node_members();
        let rma = match members.len() < ranks {
            true => Some(Arc::new(Win::create_over(&shared).map_err(SimError::Mpi)?)),
            false => None,
        };
        let reserved = match &rma {
            Some(_) => Some(Reserved::new(ranks, len)?),
            None => None,
        };
        let mut windows = Vec::new();
        for r in 0..ranks {
            let window = match (members.iter().position(|m| *m == r), &rma, &reserved) {
                (Some(node_rank), _, _) => {
                    let base = shared.shared_base(node_rank).map_err(SimError::Mpi)?;
                    Window::of_mpi(&shared, node_rank, base, len, true)
                }
                (None, Some(win), Some(reserved)) => {
                    Window::of_mpi(win, r, reserved.slot(r), len, false)
                }
                (None, _, _) => return Err(SimError::Mpi(format!("rank {r} is on no node"))),
            };
            windows.push(window);
        }
        Ok(MpiParts {
            windows,
            rma,
            shared: Some(shared),
            reserved,
        })
    }

    fn assemble(
        windows: Vec<Window>,
        window_bytes: usize,
        local: std::ops::Range<usize>,
        rma: Option<Arc<Win>>,
        reserved: Option<Reserved>,
    ) -> Self {
        let ranks = windows.len();
        let contexts = (0..ranks)
            .map(|rank| {
                let (workspace, workspace_bytes) = crate::runtime::dma::workspace();
                let mut ctx = PldCommContext {
                    workSpace: workspace,
                    workSpaceSize: workspace_bytes,
                    rankId: rank as u32,
                    rankNum: ranks as u32,
                    winSize: window_bytes as u64,
                    ..Default::default()
                };
                for (r, window) in windows.iter().enumerate() {
                    ctx.windowsIn[r] = window.base() as u64;
                    ctx.windowsOut[r] = window.base() as u64;
                }
                ctx
            })
            .collect();
        let mut spans: Vec<(usize, usize, usize)> = windows
            .iter()
            .enumerate()
            .map(|(rank, w)| (w.base() as usize, w.base() as usize + w.len(), rank))
            .collect();
        spans.sort_unstable();
        CommDomain {
            windows,
            spans,
            contexts,
            local,
            rma,
            cells_through_mpi: false,
            _shared: None,
            _reserved: reserved,
        }
    }

    /// The ranks this process runs.
    pub fn local(&self) -> std::ops::Range<usize> {
        self.local.clone()
    }

    /// Under MPI with windows not mapped here (`mpi-rma`, or `mpi` across
    /// nodes), the MPI window remote copies go through.
    pub fn rma(&self) -> Option<&Win> {
        self.rma.as_deref()
    }

    /// The MPI window through which a signal cell of `window`'s is
    /// reached: every cell's under `mpi-rma` and under `mpi` across nodes;
    /// none on one node (CPU atomics).
    pub fn signal_win(&self, window: usize) -> Option<&Win> {
        let remote = self
            .windows
            .get(window)
            .is_some_and(|w| w.remote().is_some());
        self.rma().filter(|_| self.cells_through_mpi || remote)
    }

    pub fn ranks(&self) -> usize {
        self.windows.len()
    }

    pub fn window(&self, rank: usize) -> &Window {
        &self.windows[rank]
    }

    pub fn windows(&self) -> &[Window] {
        &self.windows
    }

    /// Rank `rank`'s context, as a kernel receives it.
    pub fn context(&self, rank: usize) -> *const PldCommContext {
        &self.contexts[rank]
    }

    /// The window holding `[address, address + bytes)` and the offset in
    /// it, if any.
    pub fn locate(&self, address: usize, bytes: usize) -> Option<(usize, usize)> {
        let (base, end, rank) = self.at_or_below(address)?;
        let inside = address.checked_add(bytes).is_some_and(|last| last <= end);
        inside.then_some((rank, address - base))
    }

    /// The span of the window with the highest base at or below `address`
    /// (windows do not overlap, so only it can hold `address`).
    fn at_or_below(&self, address: usize) -> Option<(usize, usize, usize)> {
        let above = self.spans.partition_point(|&(base, _, _)| base <= address);
        Some(self.spans[above.checked_sub(1)?])
    }

    /// The window with the highest base at or below `address`: its rank,
    /// base and length.
    pub fn below(&self, address: usize) -> Option<(usize, usize, usize)> {
        let (base, end, rank) = self.at_or_below(address)?;
        Some((rank, base, end - base))
    }

    /// Whether the bytes `[start, end)` (`start < end`) touch some window.
    pub fn touches_a_window(&self, start: usize, end: usize) -> bool {
        self.at_or_below(end - 1)
            .is_some_and(|(_, window_end, _)| start < window_end)
    }

    /// The cells of an i32 signal buffer of `cells` entries at byte
    /// `offset` (the same in every window) that are not zero: after a
    /// collective returns, each is a credit it left behind.
    pub fn leaks(&self, offset: usize, cells: usize) -> Vec<CellLeak> {
        let mut leaks = Vec::new();
        for (rank, window) in self.windows.iter().enumerate() {
            for index in 0..cells {
                let value = match window.cell(offset + 4 * index) {
                    Some(cell) => cell.load(Ordering::Acquire),
                    None => {
                        let mut bytes = [0u8; 4];
                        window.read(offset + 4 * index, &mut bytes);
                        i32::from_ne_bytes(bytes)
                    }
                };
                if value != 0 {
                    leaks.push(CellLeak { rank, index, value });
                }
            }
        }
        leaks
    }
}

/// Addresses reserved for the windows of `mpi-rma`'s peers: distinct
/// addresses a kernel's peer arithmetic (`windowsIn[peer] + offset`) can
/// compute and the device functions can place, mapped with no access, so
/// a kernel that dereferences one directly faults (and takes the job down,
/// naming its rank) instead of reading bytes that are not the peer's.
struct Reserved {
    base: *mut u8,
    stride: usize,
    len: usize,
}

impl Reserved {
    fn new(ranks: usize, window: usize) -> Result<Self, SimError> {
        let stride = window.div_ceil(PAGE) * PAGE;
        let len = stride
            .checked_mul(ranks)
            .ok_or(SimError::WindowSize(window))?;
        // SAFETY: a fresh anonymous mapping with no access, chosen by the
        // kernel; nothing else refers to it.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_NONE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                -1,
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return Err(SimError::WindowSize(window));
        }
        Ok(Reserved {
            base: base.cast(),
            stride,
            len,
        })
    }

    fn slot(&self, rank: usize) -> *mut u8 {
        self.base.wrapping_add(rank * self.stride)
    }
}

impl Drop for Reserved {
    fn drop(&mut self) {
        // SAFETY: the mapping made in `new`, unmapped once.
        unsafe { libc::munmap(self.base.cast(), self.len) };
    }
}

// SAFETY: the reservation is never accessed, only compared against.
unsafe impl Send for Reserved {}
unsafe impl Sync for Reserved {}

/// Rounds a buffer size up to the comm buffer alignment (32 bytes).
pub fn aligned(bytes: usize) -> usize {
    let a = PLD_COMM_BUFFER_ALIGNMENT as usize;
    bytes.div_ceil(a) * a
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contexts_hold_every_window() {
        let domain = CommDomain::new(3, 256).unwrap();
        for rank in 0..3 {
            // SAFETY: the context lives as long as the domain.
            let ctx = unsafe { &*domain.context(rank) };
            assert_eq!(ctx.rankId as usize, rank);
            assert_eq!(ctx.rankNum, 3);
            for r in 0..3 {
                assert_eq!(ctx.windowsIn[r], domain.window(r).base() as u64);
            }
            assert_eq!(ctx.windowsIn[3], 0);
        }
        let w1 = domain.window(1).base() as usize;
        assert_eq!(domain.locate(w1 + 8, 4), Some((1, 8)));
        assert_eq!(domain.locate(w1 + 254, 4), None);
        assert_eq!(domain.window(0).base() as usize % 32, 0);
    }

    #[test]
    fn the_binary_search_finds_what_a_scan_finds() {
        let domain = CommDomain::new(16, 4096).unwrap();
        let scan = |address: usize, bytes: usize| {
            domain
                .windows()
                .iter()
                .position(|w| w.contains(address, bytes))
                .map(|r| (r, address - domain.window(r).base() as usize))
        };
        let touches = |start: usize, end: usize| {
            domain.windows().iter().any(|w| {
                let base = w.base() as usize;
                start < base + w.len() && end > base
            })
        };
        for window in domain.windows() {
            let base = window.base() as usize;
            for address in [
                base - 8,
                base - 1,
                base,
                base + 4,
                base + 4092,
                base + 4095,
                base + 4096,
            ] {
                for bytes in [1, 4, 8, 5000] {
                    assert_eq!(domain.locate(address, bytes), scan(address, bytes));
                    assert_eq!(
                        domain.touches_a_window(address, address + bytes),
                        touches(address, address + bytes),
                        "{address:#x} + {bytes}"
                    );
                }
            }
        }
        assert_eq!(domain.locate(8, 4), None);
    }

    #[test]
    fn windows_start_zeroed_and_leaks_are_listed() {
        let domain = CommDomain::new(2, 64).unwrap();
        assert!(domain.leaks(0, 16).is_empty());
        domain
            .window(1)
            .cell(8)
            .unwrap()
            .store(3, Ordering::Release);
        assert_eq!(
            domain.leaks(0, 16),
            vec![CellLeak {
                rank: 1,
                index: 2,
                value: 3
            }]
        );
        assert!(matches!(CommDomain::new(0, 8), Err(SimError::RankCount(0))));
        assert!(matches!(
            CommDomain::new(65, 8),
            Err(SimError::RankCount(65))
        ));
        assert_eq!(aligned(33), 64);
    }
}
