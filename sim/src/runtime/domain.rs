//! Comm domains: one zeroed window per rank and one `CommContext` per rank
//! that records where every window lives.

use crate::runtime::mpi::Win;
use crate::runtime::report::CellLeak;
use pld_runtime_sys::{PldCommContext, PLD_COMM_BUFFER_ALIGNMENT, PLD_COMM_MAX_RANK_NUM};
use std::ptr::NonNull;
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::{Arc, Mutex};

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
    /// The address space the windows are laid out in (one window every
    /// `stride` bytes) cannot be reserved: `ulimit -v` counts it.
    AddressSpace {
        window: usize,
        ranks: usize,
        bytes: usize,
    },
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
            SimError::AddressSpace {
                window,
                ranks,
                bytes,
            } => write!(
                f,
                "cannot reserve {} of address space for {ranks} windows of {window} bytes (the \
                 windows lie at least 64 MiB apart, with no access between them; the \
                 process's address-space limit, ulimit -v, counts that space)",
                pld_ir::diag::bytes_text(*bytes)
            ),
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
    /// A slot of the domain's [`Region`] (freed with the domain).
    Slot,
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
    // mapped memory of the windows (an advice the kernel does not take is
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
            Memory::Mpi { mapped: true, .. } | Memory::Slot => None,
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

/// The windows and `CommContext`s of one group of ranks (docs/passes/convert-pld-to-pto.md: the
/// windows have a symmetric layout, so a buffer is at the same offset in
/// every rank's window).
pub struct CommDomain {
    windows: Vec<Window>,
    /// When window `r` is at `base + r * stride` for every rank (a threads
    /// domain's windows, one [`Region`]): an address is located by a
    /// multiplication. The device calls locate their cells and blocks on every
    /// call, and at P = 64 the binary search below, whose lines the tiles
    /// keep pushing out of the cache, was most of a wait's cost.
    uniform: Option<Uniform>,
    /// Every window's bytes `[base, end)` and rank, lowest base first: an
    /// address is located by a binary search over this one array otherwise.
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
    /// With threads, the windows' memory; under MPI with peers on other
    /// nodes, the addresses reserved for their windows (dropped after the
    /// windows).
    _region: Option<Region>,
    /// Where the windows go when the domain is dropped, for the next run
    /// of the same shape (threads only).
    spare: Option<Spare>,
}

/// The windows of a finished run, kept for the next run of the same shape
/// (ranks and window bytes) that is given the same `Spare`, zeroed again
/// rather than mapped afresh: mapping a run's windows, faulting their
/// pages in and unmapping them was over half the cost of a short run (an
/// explored schedule of the two-rank allreduce of 4096 f32: three
/// `mmap`s, a `munmap` and the page faults of the first touches). Holds
/// one set of windows at most, released when the last clone is dropped or
/// a run of another shape asks for windows; only a threads domain's
/// windows are kept.
#[derive(Clone, Default)]
pub struct Spare(Arc<Mutex<Option<Region>>>);

impl Spare {
    /// The kept windows when they have this shape, zeroed; any others are
    /// released.
    fn take(&self, ranks: usize, window: usize) -> Option<Region> {
        let held = self.0.lock().unwrap_or_else(|e| e.into_inner()).take()?;
        if held.ranks != ranks || held.window != window {
            return None;
        }
        held.zero();
        Some(held)
    }

    fn keep(&self, region: Region) {
        let old = self
            .0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .replace(region);
        drop(old);
    }
}

impl Drop for CommDomain {
    fn drop(&mut self) {
        if let (Some(spare), Some(region)) = (self.spare.take(), self._region.take()) {
            spare.keep(region);
        }
    }
}

/// Windows in rank order at one stride: window `r` is `[base + r * stride,
/// + len)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Uniform {
    base: usize,
    stride: usize,
    len: usize,
    ranks: usize,
    /// `u64::MAX / stride`: an offset's slot by a multiplication (a
    /// division costs tens of cycles, on every device call).
    reciprocal: u64,
}

impl Uniform {
    /// Whether `windows` lie so (all of one length, at least that apart).
    fn of(windows: &[Window]) -> Option<Uniform> {
        let first = windows.first()?;
        let base = first.base() as usize;
        let len = first.len();
        let stride = match windows.get(1) {
            Some(second) => (second.base() as usize).checked_sub(base)?,
            None => len.max(1),
        };
        let regular = windows.iter().enumerate().all(|(rank, w)| {
            w.len() == len
                && Some(w.base() as usize)
                    == rank.checked_mul(stride).and_then(|o| base.checked_add(o))
        });
        (regular && stride >= len && stride > 0).then_some(Uniform {
            base,
            stride,
            len,
            ranks: windows.len(),
            reciprocal: u64::MAX / stride as u64,
        })
    }

    /// The window with the highest base at or below `address`: its
    /// `[base, end)` and rank.
    fn at_or_below(self, address: usize) -> Option<(usize, usize, usize)> {
        let offset = address.checked_sub(self.base)?;
        // `offset / stride` or one less (the reciprocal is rounded down; the
        // error stays below one for any offset under 2^62), then corrected.
        let mut slot = ((offset as u128 * self.reciprocal as u128) >> 64) as usize;
        if offset - slot * self.stride >= self.stride {
            slot += 1;
        }
        let rank = slot.min(self.ranks - 1);
        let start = self.base + rank * self.stride;
        Some((start, start + self.len, rank))
    }
}

/// The windows of an MPI domain, and what must outlive them.
struct MpiParts {
    windows: Vec<Window>,
    rma: Option<Arc<Win>>,
    shared: Option<Arc<Win>>,
    reserved: Option<Region>,
}

impl CommDomain {
    /// Allocates `ranks` zeroed windows of `window_bytes` each and fills
    /// every rank's context; every rank runs in this process.
    pub fn new(ranks: usize, window_bytes: usize) -> Result<Self, SimError> {
        Self::reusing(ranks, window_bytes, None)
    }

    /// [`CommDomain::new`], with the windows `spare` keeps when they have
    /// this shape (zeroed again); the windows go back to `spare` when the
    /// domain is dropped.
    pub fn reusing(
        ranks: usize,
        window_bytes: usize,
        spare: Option<&Spare>,
    ) -> Result<Self, SimError> {
        if ranks == 0 || ranks > MAX_RANKS {
            return Err(SimError::RankCount(ranks));
        }
        let len = window_bytes.max(1);
        let region = match spare.and_then(|spare| spare.take(ranks, len)) {
            Some(region) => region,
            None => Region::new(ranks, len, Access::ReadWrite)?,
        };
        let windows = (0..ranks)
            .map(|rank| Window {
                base: NonNull::new(region.slot(rank)).unwrap_or(NonNull::dangling()),
                len,
                memory: Memory::Slot,
            })
            .collect();
        let mut domain = Self::assemble(windows, window_bytes, 0..ranks, None, Some(region));
        domain.spare = spare.cloned();
        Ok(domain)
    }

    /// The domain of `ranks` ranks over `transport`: [`CommDomain::new`]
    /// for threads; under MPI (collective: every process calls it), one
    /// window per process from MPI, this process running its own rank
    /// (`crate::runtime::transport`).
    /// `spare`: as for [`CommDomain::reusing`] (threads only; MPI's windows
    /// are made collectively every run).
    pub fn over(
        transport: Transport,
        ranks: usize,
        window_bytes: usize,
        spare: Option<&Spare>,
    ) -> Result<Self, SimError> {
        let rma = match transport {
            Transport::Threads => return Self::reusing(ranks, window_bytes, spare),
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
        let reserved = Region::new(ranks, len, Access::None)?;
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
            Some(_) => Some(Region::new(ranks, len, Access::None)?),
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
        region: Option<Region>,
    ) -> Self {
        let ranks = windows.len();
        let contexts = (0..ranks)
            .map(|rank| {
                let (workspace, workspace_bytes) = workspace();
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
            uniform: Uniform::of(&windows),
            windows,
            spans,
            contexts,
            local,
            rma,
            cells_through_mpi: false,
            _shared: None,
            _region: region,
            spare: None,
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
        // (Asked first: with threads no window's line is read.)
        let rma = self.rma()?;
        let remote = || {
            self.windows
                .get(window)
                .is_some_and(|w| w.remote().is_some())
        };
        (self.cells_through_mpi || remote()).then_some(rma)
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
        match self.uniform {
            Some(uniform) => uniform.at_or_below(address),
            None => self.searched(address),
        }
    }

    /// [`Self::at_or_below`] by a binary search over the spans.
    fn searched(&self, address: usize) -> Option<(usize, usize, usize)> {
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

/// Address space with a slot for each rank's window, slot `r` at `base + r
/// * stride`, the stride at least [`REACH`] and twice the window (a power
/// of two) plus the windows' alignment, the space between the windows
/// reserved with no access: an offset that runs past a window's end by up
/// to that much lands in no window (an error the copy reports) rather than
/// in another rank's, and an address names its window by a multiplication
/// ([`Uniform`]).
///
/// * [`Access::ReadWrite`]: the windows of a threads domain, mapped into
///   their slots, zero until written (the kernel maps fresh pages only
///   where the run writes); page-aligned, huge-page aligned and advised as
///   transparent huge pages from 2 MiB on (see [`HUGE`]).
/// * [`Access::None`]: addresses reserved for the windows of MPI peers that
///   are not mapped here: distinct addresses a kernel's peer arithmetic
///   (`windowsIn[peer] + offset`) can compute and the device functions can
///   place, with no access, so that a kernel dereferencing one directly
///   faults (and takes the job down, naming its rank) instead of reading
///   bytes that are not the peer's.
struct Region {
    /// The whole reservation, and its length (the windows' mappings lie
    /// inside it and go with it).
    mapping: *mut u8,
    mapped: usize,
    /// Slot 0 (`mapping` rounded up to the windows' alignment).
    base: *mut u8,
    stride: usize,
    /// The ranks and the bytes of each window it was made for.
    ranks: usize,
    window: usize,
}

/// How far apart windows are at least (from one window's start to the
/// next's, less the alignment): an offset up to this far past a small
/// window's end lands in no window. Address space, not memory.
const REACH: usize = 64 << 20;

/// `bytes` of address space with no access, chosen by the kernel.
fn reserve(bytes: usize) -> Option<*mut u8> {
    // SAFETY: a fresh anonymous mapping with no access; nothing else
    // refers to it.
    let mapping = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            bytes,
            libc::PROT_NONE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
            -1,
            0,
        )
    };
    (mapping != libc::MAP_FAILED).then_some(mapping.cast::<u8>())
}

/// What a [`Region`]'s slots may be used for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Access {
    ReadWrite,
    None,
}

impl Region {
    fn new(ranks: usize, window: usize, access: Access) -> Result<Self, SimError> {
        let huge = access == Access::ReadWrite && window >= HUGE;
        let align = if huge { HUGE } else { PAGE };
        let too_large = SimError::WindowSize(window);
        let len = window
            .max(1)
            .checked_next_multiple_of(align)
            .ok_or(too_large.clone())?;
        let twice = len
            .checked_mul(2)
            .and_then(usize::checked_next_power_of_two)
            .ok_or(too_large.clone())?;
        // One alignment more than a power of two: the windows' bases differ
        // in their low bits, so that the same offset of each window (a
        // barrier's cells) falls in different cache and TLB sets (with a
        // power-of-two stride every rank's cell is in one set, and the
        // 64-rank ring at 1 MiB per rank ran 1.4x slower). Not much wider:
        // with 4 GiB between windows the ring at 8 MiB ran 10-15 % slower
        // (64 MiB measured as twice the window).
        let stride = twice
            .max(REACH)
            .checked_add(align)
            .ok_or(too_large.clone())?;
        let mapped = stride
            .checked_mul(ranks)
            .and_then(|bytes| bytes.checked_add(align - PAGE))
            .ok_or(too_large.clone())?;
        let mapping = reserve(mapped).ok_or(SimError::AddressSpace {
            window,
            ranks,
            bytes: mapped,
        })?;
        // `align - PAGE` spare bytes: the rounded base leaves `stride *
        // ranks` inside the page-aligned reservation.
        let base = mapping.wrapping_add(mapping.align_offset(align));
        let region = Region {
            mapping,
            mapped,
            base,
            stride,
            ranks,
            window,
        };
        let windows = access == Access::ReadWrite;
        if windows && !(0..ranks).all(|rank| region.map_window(rank, len)) {
            return Err(too_large);
        }
        Ok(region)
    }

    /// Maps `len` bytes of fresh zero memory at slot `rank` (counted
    /// against the machine's memory as an allocation is, so that a window
    /// the machine cannot hold is refused here). `false` when it is.
    fn map_window(&self, rank: usize, len: usize) -> bool {
        let at = self.slot(rank);
        // SAFETY: `[at, at + len)` lies inside this region's reservation
        // (`len <= stride`), which nothing else uses: MAP_FIXED replaces
        // only our own no-access pages.
        let mapped = unsafe {
            libc::mmap(
                at.cast(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_FIXED,
                -1,
                0,
            )
        };
        if mapped != at.cast() {
            return false;
        }
        advise_huge_pages(at, len);
        true
    }

    fn slot(&self, rank: usize) -> *mut u8 {
        self.base.wrapping_add(rank * self.stride)
    }

    /// Zeroes every window's bytes again (a run writes nothing else: an
    /// access outside its windows is refused before it is made).
    fn zero(&self) {
        for rank in 0..self.ranks {
            // SAFETY: window `rank`'s `window` bytes, mapped read-write
            // (`zero` is called on kept windows only, which no run uses).
            unsafe { std::ptr::write_bytes(self.slot(rank), 0, self.window) };
        }
    }
}

impl Drop for Region {
    fn drop(&mut self) {
        // SAFETY: the mapping made in `new`, unmapped once (after the
        // windows in it: see `CommDomain`'s fields).
        unsafe { libc::munmap(self.mapping.cast(), self.mapped) };
    }
}

// SAFETY: the region's memory is the windows' (see `Window`), or reserved
// addresses that are never accessed, only compared against.
unsafe impl Send for Region {}
unsafe impl Sync for Region {}
/// Rounds a buffer size up to the comm buffer alignment (32 bytes).
pub fn aligned(bytes: usize) -> usize {
    let a = PLD_COMM_BUFFER_ALIGNMENT as usize;
    bytes.div_ceil(a) * a
}

/// The DMA engines' workspace every `CommContext` names (`workSpace`,
/// `workSpaceSize`): what `BuildAsyncSession<DmaEngine::URMA>` takes, as
/// the runtime's context gives it on the device. The simulated engines
/// keep nothing there; a kernel needs it only to be there.
static WORKSPACE: [std::sync::atomic::AtomicU64; 8] =
    [const { std::sync::atomic::AtomicU64::new(0) }; 8];

/// The workspace's address and size, for a `CommContext`.
pub fn workspace() -> (u64, u64) {
    (
        WORKSPACE.as_ptr() as u64,
        std::mem::size_of_val(&WORKSPACE) as u64,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The window and offset of `address` by both ways of locating it.
    fn both_ways(domain: &CommDomain, address: usize, bytes: usize) -> [Option<(usize, usize)>; 2] {
        let inside = |(base, end, rank): (usize, usize, usize)| {
            let fits = address.checked_add(bytes).is_some_and(|last| last <= end);
            fits.then_some((rank, address - base))
        };
        [
            domain.locate(address, bytes),
            domain.searched(address).and_then(inside),
        ]
    }

    /// A layout no address space holds (64 windows of 16 TiB, twice that
    /// apart: 2^51 bytes) is refused as a reservation, naming its size,
    /// not as "a window of N bytes" the machine cannot allocate.
    #[test]
    fn a_reservation_the_address_space_cannot_hold_says_so() {
        let Err(error) = Region::new(64, 1 << 44, Access::None) else {
            panic!("2^51 bytes of address space were reserved");
        };
        assert!(
            matches!(error, SimError::AddressSpace { ranks: 64, .. }),
            "{error:?}"
        );
        let text = error.to_string();
        assert!(
            text.starts_with(
                "cannot reserve 2097152.0 GiB of address space for 64 windows of \
                 17592186044416 bytes"
            ),
            "{text}"
        );
    }

    #[test]
    fn windows_of_a_threads_domain_are_located_by_their_stride() {
        // Small windows (page-aligned), one alone (its stride its length)
        // and large ones (2 MiB-aligned), REACH and an alignment apart, or
        // twice their rounded size (a power of two) when that is more.
        let cases = [
            (5, 3000, REACH + PAGE),
            (1, 10, 10),
            (3, (3 << 20) + 5, REACH + HUGE),
            (2, (2 << 30) + 1, (8 << 30) + HUGE),
        ];
        for (ranks, bytes, stride) in cases {
            let domain = CommDomain::new(ranks, bytes).unwrap();
            let uniform = domain.uniform.expect("one mapping at one stride");
            assert_eq!(
                (uniform.stride, uniform.len, uniform.ranks),
                (stride, bytes, ranks)
            );
            let base = domain.window(0).base() as usize;
            if bytes >= HUGE {
                assert_eq!(base % HUGE, 0);
            }
            for rank in 0..ranks {
                let start = domain.window(rank).base() as usize;
                assert_eq!(start, base + rank * stride);
                assert_eq!(domain.locate(start, 4), Some((rank, 0)));
                assert_eq!(domain.locate(start + bytes - 4, 4), Some((rank, bytes - 4)));
                // Past the end: the gap, or the next window's first byte.
                assert_eq!(domain.locate(start + bytes - 3, 4), None);
                assert_eq!(domain.locate(start + bytes, 1), None);
                assert_eq!(domain.below(start + stride - 1), Some((rank, start, bytes)));
                // The gap after a window: in no window, not in the next
                // one, up to the stride (a page past a window rounded to a
                // page, 2 MiB past one rounded to 2 MiB, and so on).
                if ranks > 1 {
                    for past in [PAGE, 2 * PAGE, HUGE, 4 * HUGE, stride - PAGE] {
                        let rounded = bytes.next_multiple_of(PAGE);
                        if rounded + past < stride {
                            assert_eq!(domain.locate(start + rounded + past, 4), None);
                        }
                    }
                }
            }
            assert_eq!(domain.locate(base - 4, 4), None);
            assert_eq!(domain.below(base - 1), None);
            assert_eq!(domain.locate(base + ranks * stride, 4), None);
            assert_eq!(domain.locate(usize::MAX - 2, 4), None);
            // The stride agrees with the search everywhere near a window.
            for rank in 0..ranks {
                let start = base + rank * stride;
                for address in
                    (start.saturating_sub(8)..start + 8).chain(start + bytes - 8..start + bytes + 8)
                {
                    let [divided, searched] = both_ways(&domain, address, 4);
                    assert_eq!(divided, searched, "address {address:#x}");
                }
            }
        }
    }

    #[test]
    fn the_reciprocal_finds_the_slot_a_division_would() {
        for stride in [4097usize, 12345, (4 << 30) + PAGE, (8 << 30) + HUGE] {
            let uniform = Uniform {
                base: 1 << 20,
                stride,
                len: 4096,
                ranks: 64,
                reciprocal: u64::MAX / stride as u64,
            };
            for k in 0..64 {
                for offset in [k * stride, (k * stride).saturating_sub(1), k * stride + 1] {
                    let rank = (offset / stride).min(63);
                    let start = uniform.base + rank * stride;
                    assert_eq!(
                        uniform.at_or_below(uniform.base + offset),
                        Some((start, start + 4096, rank)),
                        "stride {stride}, offset {offset}"
                    );
                }
            }
        }
    }

    #[test]
    fn windows_that_are_not_at_one_stride_are_searched() {
        let memory = vec![0u8; 4 * 4096];
        let at = |page: usize| {
            NonNull::new(memory.as_ptr().wrapping_add(page * 4096).cast_mut()).unwrap()
        };
        let window = |page, len| Window {
            base: at(page),
            len,
            memory: Memory::Slot,
        };
        // Out of rank order, and one of another length.
        assert_eq!(Uniform::of(&[window(2, 100), window(0, 100)]), None);
        assert_eq!(
            Uniform::of(&[window(0, 100), window(1, 100), window(3, 100)]),
            None
        );
        assert_eq!(Uniform::of(&[window(0, 100), window(1, 200)]), None);
        // Overlapping windows are not one stride apart either.
        assert_eq!(Uniform::of(&[window(0, 8192), window(1, 8192)]), None);
        let regular = Uniform::of(&[window(0, 100), window(2, 100)]).unwrap();
        assert_eq!((regular.stride, regular.len), (8192, 100));
        assert_eq!(Uniform::of(&[]), None);
    }

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
    fn a_spare_hands_the_next_domain_of_its_shape_the_same_windows_zeroed() {
        let spare = Spare::default();
        let bases = |d: &CommDomain| -> Vec<usize> {
            d.windows().iter().map(|w| w.base() as usize).collect()
        };
        let first = CommDomain::reusing(3, 3000, Some(&spare)).unwrap();
        let kept = bases(&first);
        for window in first.windows() {
            assert!(window.write(10, &[7; 2990]));
        }
        drop(first);
        let second = CommDomain::reusing(3, 3000, Some(&spare)).unwrap();
        assert_eq!(bases(&second), kept);
        for window in second.windows() {
            let mut bytes = [1; 3000];
            assert!(window.read(0, &mut bytes));
            assert!(bytes.iter().all(|b| *b == 0));
        }
        assert_eq!(second.locate(kept[1] + 2999, 1), Some((1, 2999)));
        drop(second);
        // Another shape gets windows of its own, and the kept ones go.
        let other = CommDomain::reusing(2, 3000, Some(&spare)).unwrap();
        assert!(spare.0.lock().unwrap().is_none());
        drop(other);
        let wider = CommDomain::reusing(2, 4000, Some(&spare)).unwrap();
        assert_eq!(wider.window(1).len(), 4000);
        drop(wider);
        // Without a spare nothing is kept.
        drop(CommDomain::new(2, 4000).unwrap());
        assert_eq!(
            spare.0.lock().unwrap().as_ref().map(|r| r.window),
            Some(4000)
        );
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
