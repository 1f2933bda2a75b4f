//! The hook explore mode plugs into a run: the runtime tells an
//! [`Explorer`] what every simulated thread (an *agent*: a rank's own
//! thread, ids `0..ranks`, or a block of one of its launches) does at each
//! device call, and the explorer decides who runs next and checks the
//! accesses. The runtime defines this boundary; the explorer
//! (`crate::explore`) implements it, so the runtime does not depend on it.

use crate::runtime::domain::CommDomain;
pub use crate::runtime::report::Memory;
use crate::runtime::report::{DeadlockReport, Finding};
use pld_dialect::enums::{NotifyOp, WaitCmp};
use std::sync::atomic::AtomicI32;

/// A cell or byte of a window: whose window, and the byte offset in it.
pub type Place = (usize, usize);

/// One side of a copy (or a scalar access), as the checker sees it:
/// `shape` rows and columns of `elem` bytes from byte `offset` of `memory`
/// (an offset in a window, an address in a rank's own memory), `strides`
/// in elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemoryAccess {
    pub memory: Memory,
    pub offset: usize,
    pub strides: [i64; 2],
    pub shape: [i64; 2],
    pub elem: usize,
    /// `None` for a read; for a write, whether it accumulates.
    pub write: Option<bool>,
}

/// An asynchronous copy as the explorer sees it at its submit: its event,
/// the URMA queue it went on (the submitting rank, and the peer), and its
/// sides. Its read and write happen at some moment before its
/// event's first successful wait or test.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DmaSubmit {
    pub handle: u64,
    /// `(rank, peer)` of a URMA copy's PER_PEER queue; `None` for SDMA.
    pub queue: Option<(usize, usize)>,
    pub accesses: Vec<MemoryAccess>,
    pub site: i64,
}

/// How an explored run ended, as the explorer saw it.
#[derive(Debug, Default)]
pub struct Verdict {
    /// The exact deadlock, when no agent could run.
    pub deadlock: Option<DeadlockReport>,
    pub findings: Vec<Finding>,
    /// Scheduling decisions taken.
    pub steps: u64,
    /// A digest of the decisions (which agent ran at each step): two
    /// schedules with the same digest took the same decisions.
    pub digest: u64,
}

/// Explore mode's part of one run. One agent runs at a time; each method is
/// called on the thread of the agent it names.
pub trait Explorer: Send + Sync {
    /// Agent `rank` (a rank's own thread) starts its kernel: waits for its
    /// first turn.
    fn rank_started(&self, rank: usize);

    /// Agent `rank`'s kernel returned.
    fn rank_finished(&self, rank: usize);

    /// Rank `rank`'s own thread launches `blocks` blocks (its first block
    /// binds): they become agents, starting, and the rank's thread is
    /// parked until they are done. Returns the agent id of block 0 (the
    /// others follow it).
    fn launched(&self, rank: usize, blocks: usize) -> usize;

    /// Block agent `agent` of rank `rank` binds: it inherits what the rank
    /// knew at the launch.
    fn block_started(&self, agent: usize, rank: usize);

    /// Block agent `agent` of rank `rank` exits (its rank joins it).
    fn block_exited(&self, agent: usize, rank: usize);

    /// Rank `rank` runs the call `label` from now on (a program's builtin
    /// or kernel task: `pld.tensor_allreduce at k.mlir:9:3`), `None` once it
    /// is over: the accesses of a builtin kernel, which have no site, are
    /// named by it.
    fn call_label(&self, rank: usize, label: Option<String>);

    /// A device call of `agent` begins: waits for its turn. `false` once
    /// the schedule is over (a deadlock, no progress): the ranks then run
    /// on past waits that did not hold, and nothing they do is checked.
    fn turn(&self, agent: usize) -> bool;

    /// Whether the schedule is over (see [`Explorer::turn`]).
    fn is_free(&self) -> bool;

    /// The calling fiber (a rank whose launch's blocks run as fibers of
    /// its thread) cannot go on yet: hands the thread to the agent that
    /// should run. Returns when the calling fiber is switched back to.
    fn pass(&self);

    /// A scalar read or write by `agent` at `site` (a flag polled with
    /// scalar reads makes the agent go last).
    fn scalar(&self, agent: usize, site: i64, write: bool);

    /// `agent` reads or writes bytes of a window or of its rank's own
    /// memory (a side of a copy, a scalar access) at `site`.
    fn accessed(&self, agent: usize, access: MemoryAccess, site: i64);

    /// `agent` applied `op` to the cell at `cell`; `outside` when the cell is
    /// outside the kernel's signals.
    fn notified(&self, agent: usize, cell: Place, op: NotifyOp, site: i64, outside: bool);

    /// `agent` waits until `value` (the cell at `cell`) compares `cmp` to
    /// `expected`: returns when the explorer lets it go on (the condition
    /// held, the run deadlocked, or the schedule is over).
    #[allow(clippy::too_many_arguments)]
    fn wait(
        &self,
        agent: usize,
        value: &AtomicI32,
        cell: Place,
        expected: i32,
        cmp: WaitCmp,
        site: i64,
        outside: bool,
    );

    /// A test of the cell at `cell` by `agent` at `site` found its
    /// condition to hold, or not.
    fn tested(&self, agent: usize, cell: Place, holds: bool, site: i64);

    /// `agent` fenced: its earlier remote writes are complete.
    fn fenced(&self, agent: usize);

    /// `agent` submitted an asynchronous copy (`TPUT_ASYNC`, `TGET_ASYNC`):
    /// it reads its source and writes its destination some time before a
    /// wait on its event succeeds.
    fn dma_submitted(&self, agent: usize, dma: &DmaSubmit);

    /// The copies the scheduler decided should land now, at the turn just
    /// given (taken once; the runtime delivers each, and the copies queued
    /// before it on its queue first).
    fn dma_due(&self) -> Vec<u64>;

    /// The runtime delivered these copies (they are no longer pending).
    fn dma_delivered(&self, handles: &[u64]);

    /// Whether a test by `agent` of the copy `handle`, not delivered yet,
    /// finds it complete now (the explorer's choice). On `false` the agent
    /// polls, and others go first.
    fn dma_test(&self, agent: usize, handle: u64) -> bool;

    /// A wait or test by `agent` found the copy `handle` complete: what
    /// the copy did is ordered before what `agent` does next.
    fn dma_completed(&self, agent: usize, handle: u64, site: i64);

    /// The copy `handle`, submitted by `agent`, was never waited for: its
    /// agent ended with the event outstanding.
    fn dma_unwaited(&self, agent: usize, handle: u64);

    /// The run is over: the explorer's deadlock (naming cells in `domain`'s
    /// windows and the kernel `kernel`), findings and steps.
    fn finish(self: Box<Self>, domain: &CommDomain, kernel: &str) -> Verdict;
}

/// What makes an [`Explorer`] for each run (explore mode's `Schedule`).
pub trait ExplorerFactory: Sync {
    /// The explorer of one run of `kernel` on `ranks` ranks.
    fn explorer(&self, ranks: usize, kernel: &str) -> Box<dyn Explorer>;
}
