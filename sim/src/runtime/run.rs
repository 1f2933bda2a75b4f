//! Running one kernel per rank, each on its own thread, with the
//! bookkeeping the device functions need: which rank a thread is, whether
//! it is blocked and on what, the traffic counters, and the deadlock
//! verdict.

use crate::runtime::board::{Board, Published};
use crate::runtime::domain::CommDomain;
use crate::runtime::errors::{error_place, Errors};
use crate::runtime::explorer::{Explorer, ExplorerFactory};
use crate::runtime::fiber::Yielded;
use crate::runtime::pool::Task;
pub(crate) use crate::runtime::records::Event;
pub use crate::runtime::records::{Counters, Fatal, RemoteWrite};
use crate::runtime::report::{BlockedRank, DeadlockReport, Finding, RankSeen, Within};
use crate::runtime::signal::Compare;
use crate::runtime::sites::Site;
use crate::runtime::transport::Cell as SignalCell;
use pld_dialect::enums::WaitCmp;
use std::cell::Cell;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicPtr, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The asynchronous DMA copies of a run and their events.
pub(crate) mod dma;
/// One copy of a run: its checks, what the explorer is shown, its bytes.
pub(crate) mod transfer;

#[derive(Default)]
pub(crate) struct AtomicCounters {
    pub notifies: AtomicU64,
    pub waits: AtomicU64,
    pub remote_bytes_read: AtomicU64,
    pub remote_bytes_written: AtomicU64,
}

impl AtomicCounters {
    fn snapshot(&self) -> Counters {
        Counters {
            notifies: self.notifies.load(Ordering::Relaxed),
            waits: self.waits.load(Ordering::Relaxed),
            remote_bytes_read: self.remote_bytes_read.load(Ordering::Relaxed),
            remote_bytes_written: self.remote_bytes_written.load(Ordering::Relaxed),
        }
    }
}

#[derive(Clone, Copy)]
enum Status {
    Running,
    Blocked {
        cell: SignalCell,
        expected: i32,
        cmp: WaitCmp,
        /// When the first deadlock scan saw the wait (a wait takes no
        /// clock read of its own: most end long before a scan).
        since: Option<Instant>,
        /// The waiting op (`crate::runtime::sites`), or -1.
        site: i64,
    },
    /// A rank's own thread while blocks of a launch it submitted are bound
    /// (it only joins them): not live for deadlock detection.
    Parked,
    Done,
}

/// One thread of a rank: index 0 is the rank's own thread, the others are
/// the blocks of its launches (`pld_sim_block_enter`).
#[derive(Clone, Copy)]
struct Thread {
    /// `(block_idx, block_num)` for a block thread.
    block: Option<(i32, i32)>,
    status: Status,
}

struct Slot {
    rank: usize,
    /// The run's state, for block threads that bind through a rank handle
    /// (set once the state has its final address).
    owner: AtomicPtr<State<'static>>,
    threads: Mutex<Vec<Thread>>,
    /// Block threads bound right now.
    bound: AtomicUsize,
    /// Whether the rank's kernel has begun (a rank waits for its fiber's
    /// worker behind the ranks before it).
    started: AtomicBool,
    /// Blocks of the launch in progress that have not bound yet: while
    /// some have not, the rank counts as running (a block that is being
    /// started will run; its peers' waits on it are no deadlock).
    starting: AtomicUsize,
    /// In explore mode: the agent id of block 0 of the launch in progress.
    launch_base: AtomicUsize,
    counters: AtomicCounters,
    log: Mutex<Vec<String>>,
    /// The call the rank runs now (`pld.tensor_allreduce at f.mlir:3:8`),
    /// as its caller named it ([`label_call`]): the trace and the log lines
    /// of its kernels carry it.
    call: Mutex<Option<(String, String)>>,
    /// The kernel the rank runs now when it is not the run's own (a task
    /// of a program: [`name_current_kernel`]).
    kernel: Mutex<Option<String>>,
    /// What the rank ran when it last blocked in a wait, in a program
    /// (what a deadlock report names).
    blocked_in: Mutex<Option<Within>>,
    /// The site of the rank's last peer lookup that was refused (a peer
    /// outside its comm domain; -1: none): the access that follows at the
    /// same op, at the address the refusal gave, is not made and not
    /// reported again.
    refused_peer: AtomicI64,
}

impl Slot {
    /// Where this rank is now (no cell is read: under MPI that is an MPI
    /// call), and what a program's rank runs.
    fn seen(&self) -> (RankSeen, Option<String>) {
        let threads = self.threads.lock().unwrap_or_else(|e| e.into_inner());
        let starting = self.starting.load(Ordering::Acquire) > 0;
        let waits = threads.iter().find_map(|t| match t.status {
            Status::Blocked { site, .. } => Some(site),
            _ => None,
        });
        let seen = match (threads.first().map(|t| t.status), waits) {
            _ if !self.started.load(Ordering::Acquire) => RankSeen::NotStarted,
            (Some(Status::Done), _) => RankSeen::Finished,
            _ if starting || threads.iter().any(|t| matches!(t.status, Status::Running)) => {
                RankSeen::Runs
            }
            (_, Some(site)) => RankSeen::Waits(crate::runtime::sites::get(site)),
            (_, None) => RankSeen::Runs,
        };
        let kernel = self
            .kernel
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        (seen, kernel)
    }
}

/// Where every rank of this process's runs is now, said for a run that
/// has not ended (`--time-limit`): its own ranks as they are, and under
/// MPI the others as the status board last showed them, which the note
/// says (`ranks 1, 2 as the status board showed 1.2ms ago`). Empty outside
/// a run.
pub fn rank_states() -> (Vec<String>, Option<String>) {
    let live = LIVE_SLOTS.lock().unwrap_or_else(|e| e.into_inner());
    let slots: Vec<&Slot> = live
        .iter()
        // SAFETY: a slot is in LIVE_SLOTS from the start of its run's
        // execution until its run's threads have ended, and is taken out
        // under this lock (held here) before its state is dropped.
        .map(|&handle| unsafe { &*(handle as *const Slot) })
        .collect();
    // The first run's (pld-run has one at a time; the Python package may
    // have several).
    let owner = slots.first().map(|slot| slot.owner.load(Ordering::Acquire));
    // SAFETY: as above, the slot's state outlives its place in the list;
    // `owner` is null until the state has its final address.
    let Some(state) = owner.and_then(|owner| unsafe { owner.as_ref() }) else {
        return (Vec::new(), None);
    };
    // The ranks this process runs (the others' slots stay unused).
    let local = state.domain.local();
    let mut said: Vec<(usize, String)> = slots
        .iter()
        .filter(|slot| Some(slot.owner.load(Ordering::Acquire)) == owner)
        .filter(|slot| local.contains(&slot.rank))
        .map(|slot| {
            let (seen, kernel) = slot.seen();
            (slot.rank, seen.said(slot.rank, kernel.as_deref()))
        })
        .collect();
    let note = state
        .board
        .as_ref()
        .map(|board| other_processes(board, state.domain, &mut said));
    said.sort_by_key(|(rank, _)| *rank);
    (said.into_iter().map(|(_, text)| text).collect(), note)
}

/// Under MPI: the other processes' ranks as this process last read the
/// status board, added to `said`, and the note that says so.
fn other_processes(board: &Board, domain: &CommDomain, said: &mut Vec<(usize, String)>) -> String {
    let local = domain.local();
    let others: Vec<usize> = (0..domain.ranks()).filter(|r| !local.contains(r)).collect();
    let listed = others.iter().map(usize::to_string).collect::<Vec<_>>();
    let ranks = match others.len() {
        1 => format!("rank {}", listed.join(", ")),
        _ => format!("ranks {}", listed.join(", ")),
    };
    match board.last_read() {
        Some((board, ago)) => {
            for rank in others {
                said.push((rank, board[rank].said(rank, None)));
            }
            format!("{ranks} as the status board showed {ago:.1?} ago")
        }
        // Only a waiting rank reads the board.
        None => format!(
            "{ranks} not known here: this process's rank never waited, so it never read the \
             status board"
        ),
    }
}

/// The state the rank threads share during one run.
pub(crate) struct State<'d> {
    pub domain: &'d CommDomain,
    kernel: String,
    deadline: Duration,
    slots: Vec<Slot>,
    stopped: AtomicBool,
    /// Ctrl-C was seen during this run ([`State::stopped`]).
    interrupted: AtomicBool,
    /// When a wait first found the run stopped by Ctrl-C
    /// ([`State::after_stop`]).
    stop_seen: std::sync::OnceLock<Instant>,
    /// The stop of this run alone, when its host set one (a time limit):
    /// it stops the run as Ctrl-C does.
    stop: Option<crate::runtime::interrupt::Stop>,
    /// The buffers outside the windows the run gave its kernels,
    /// `[start, end)`, sorted ([`Run::buffers`]).
    buffers: Vec<(usize, usize)>,
    /// Per window: the threads sleeping in a wait on one of its cells.
    sleepers: Vec<Sleepers>,
    /// How many threads sleep in a wait, on any window: a notify reads
    /// this one line, not its window's, when none does (the usual case).
    asleep: AtomicUsize,
    /// Busy-wait rounds before a wait yields: [`SPINS`] when every rank
    /// is pinned to a core, fewer when the ranks fit the cores unpinned,
    /// none when they outnumber the cores.
    spins: u32,
    deadlock: Mutex<Option<DeadlockReport>>,
    errors: Mutex<Errors>,
    fatals: Mutex<Vec<Fatal>>,
    /// Remote writes, when recorded.
    remote_writes: Option<Mutex<Vec<RemoteWrite>>>,
    /// Per-rank timeline, when tracing.
    trace: Option<Vec<Mutex<Vec<Event>>>>,
    start: Instant,
    /// The explorer (its scheduler and checker), in explore mode.
    explore: Option<Box<dyn Explorer>>,
    /// Names of window bytes, for the timeline.
    names: Option<WindowNamer<'d>>,
    /// The byte ranges of every window that hold signal cells, when known.
    cells: Option<Vec<std::ops::Range<usize>>>,
    /// The byte ranges of every window that hold credit signals (which
    /// no copy may write), when known.
    credits: Option<Vec<std::ops::Range<usize>>>,
    /// The asynchronous copies whose events are outstanding.
    dmas: Mutex<crate::runtime::run::dma::Table>,
    /// Under MPI: the status board the ranks of every process share.
    board: Option<Board>,
}

/// How a run names bytes of a window for its timeline: `(window, byte
/// offset)` to a buffer and element, `%sig (arg0) [1, 0]`.
pub type WindowNamer<'d> = &'d (dyn Fn(usize, usize) -> Option<String> + Sync);

/// Yields of a waiting thread before it sleeps. A yield hands the core to
/// a runnable rank at once; sleeping costs a wake-up through the scheduler
/// (measured: far slower per barrier when the machine is loaded), so a
/// waiter keeps yielding for about a millisecond before it sleeps.
const YIELDS: u32 = 1000;

/// How long a kernel may go on calling into the simulator after Ctrl-C
/// before its rank is parked for good ([`State::after_stop`]): well past
/// the time a finite kernel takes to run on to its end once its waits
/// return at once, so that only a kernel that would never end is left.
const ABANDON: Duration = Duration::from_secs(5);

/// How long a waiting fiber polls the conditions the other fibers of its
/// worker wait for, none of them holding, before the worker sleeps in its
/// wait (woken by a notify into the
/// window of the cell, or after a millisecond). In a balanced run on a
/// quiet machine a barrier's peers arrive within tens of microseconds;
/// when they do not, another process holds the core of their worker, and
/// polling on only takes this core from whatever could run on it (the
/// 64 MiB ring on 8 ranks at a load average of 8, five runs each: a median
/// of 744 ms with workers that never slept, 368 to 512 ms with thresholds
/// of 20 us to 1 ms; 132 ms on a quiet machine).
const FIBER_DOZE: Duration = Duration::from_micros(100);

/// Busy-wait rounds (a `pause` each, some tens of nanoseconds) before a
/// waiting thread pinned to a core of its own starts yielding it: about the
/// time a peer takes to reach the matching notify in a balanced kernel, so
/// most barriers complete without a system call.
const SPINS: u32 = 1000;

/// The same when the ranks fit the cores but are not pinned (whole
/// programs, whose builtin kernels start a thread per block): a waiter may
/// share its core with the thread it waits for, so it spins only briefly.
const UNPINNED_SPINS: u32 = 100;

/// Whether a waiter's deadlock check is due: at its first due round
/// (which starts the deadline of the waits the check sees for the first
/// time), then every 2 ms.
fn check_due(last_check: &mut Option<Instant>) -> bool {
    let now = Instant::now();
    let due = last_check.is_none_or(|last| now.duration_since(last) >= Duration::from_millis(2));
    if due {
        *last_check = Some(now);
    }
    due
}

/// The threads asleep in a wait on cells of one window.
#[derive(Default)]
struct Sleepers {
    /// How many: notifiers skip the lock when none.
    count: AtomicUsize,
    threads: Mutex<Vec<std::thread::Thread>>,
}

// SAFETY: the raw cell pointers in `Status` point into the domain's
// windows, which outlive the run and are only accessed atomically.
unsafe impl Send for Slot {}
unsafe impl Sync for Slot {}

thread_local! {
    /// The run, rank and thread index (0: the rank's own thread) the
    /// current thread simulates, while it does.
    static CURRENT: Cell<Option<(*const State<'static>, usize, usize)>> = const { Cell::new(None) };
    /// In explore mode, the agent the current thread is.
    static AGENT: Cell<usize> = const { Cell::new(0) };
    /// The site of the device call about to be made (`pld_sim_at`), or -1.
    static SITE: Cell<i64> = const { Cell::new(-1) };
}

/// What a rank's device calls keep in thread-locals, carried by its fiber
/// while it is switched out.
#[derive(Default)]
struct RankLocals {
    current: Option<(*const State<'static>, usize, usize)>,
    agent: usize,
    site: i64,
    tiles: crate::runtime::tiles::CoreTiles,
    recent: crate::runtime::copy::Recent,
    /// The builtin kernels' per-core state (`pto_sim.h`).
    builtin: BuiltinCore,
}

impl crate::runtime::fiber::Locals for RankLocals {
    fn take() -> Self {
        RankLocals {
            current: CURRENT.with(|c| c.take()),
            agent: AGENT.with(|a| a.take()),
            site: SITE.with(|s| s.replace(-1)),
            tiles: crate::runtime::tiles::take_core(),
            recent: crate::runtime::copy::take_core(),
            builtin: BuiltinCore::take(),
        }
    }

    fn put(self) {
        CURRENT.with(|c| c.set(self.current));
        AGENT.with(|a| a.set(self.agent));
        SITE.with(|s| s.set(self.site));
        crate::runtime::tiles::put_core(self.tiles);
        crate::runtime::copy::put_core(self.recent);
        self.builtin.put();
    }
}

/// The per-core state the builtin kernels' instructions keep in a
/// thread-local of the C++ side (`pld_builtin_core_swap`), while its fiber
/// is switched out: owned here, freed when dropped.
struct BuiltinCore(*mut std::ffi::c_void);

impl Default for BuiltinCore {
    fn default() -> Self {
        BuiltinCore(std::ptr::null_mut())
    }
}

impl BuiltinCore {
    /// Moves the calling thread's state out (leaving none).
    fn take() -> Self {
        // SAFETY: swaps the C++ thread-local pointer with null; the old
        // one (a state the C++ side made, or null) is ours from now on.
        BuiltinCore(unsafe { pld_runtime_sys::pld_builtin_core_swap(std::ptr::null_mut()) })
    }

    /// Gives the calling thread this state (it has none: its fiber's was
    /// taken when it was switched out).
    fn put(mut self) {
        let state = std::mem::replace(&mut self.0, std::ptr::null_mut());
        // SAFETY: hands the C++ side a state it made (or null), which
        // nobody else owns; what it had is null (see `take`), or freed.
        let old = unsafe { pld_runtime_sys::pld_builtin_core_swap(state) };
        drop(BuiltinCore(old));
    }
}

impl Drop for BuiltinCore {
    fn drop(&mut self) {
        if !self.0.is_null() {
            // SAFETY: a state the C++ side made and handed over (`take`),
            // owned by this value alone.
            unsafe { pld_runtime_sys::pld_builtin_core_free(self.0) };
        }
    }
}

/// `pld_sim_at`: the next device call on this thread is made by `site`.
pub(crate) fn set_site(site: i64) {
    SITE.with(|s| s.set(site));
}

/// The site of the device call being made, once: calls without a
/// `pld_sim_at` before them (a builtin kernel's) have none.
pub(crate) fn take_site() -> i64 {
    SITE.with(|s| s.replace(-1))
}

/// The calling thread's agent (explore mode).
pub(crate) fn current_agent() -> usize {
    AGENT.with(|a| a.get())
}

/// Addresses of the slots of the runs in progress: the only values
/// `pld_sim_block_enter` accepts as rank handles.
static LIVE_SLOTS: Mutex<Vec<usize>> = Mutex::new(Vec::new());

/// Calls `f` with the state and rank of the calling thread, if it is a
/// rank (or block) thread of a run. Every device call comes here first: in
/// a run stopped by Ctrl-C (or its own stop), a kernel still calling into
/// the simulator [`ABANDON`] later is parked here, whatever the call (a
/// loop whose waits hold at once never reaches the parking of a wait that
/// does not).
pub(crate) fn with_current<R>(f: impl FnOnce(&State<'_>, usize) -> R) -> Option<R> {
    CURRENT.with(|c| c.get()).map(|(state, rank, _)| {
        // SAFETY: set by `Run::execute` for the duration of the rank's
        // kernel, and by `bind_block` for a block of it, during which the
        // state lives (scoped threads; blocks end before their rank does).
        let state = unsafe { &*state };
        if state.stopped() {
            state.after_stop();
        }
        f(state, rank)
    })
}

/// Names the call the calling rank thread runs from now on (`(op,
/// location)`, `None` once it is over): the trace events and log lines of
/// the kernels it launches carry it.
pub(crate) fn label_current_call(call: Option<(String, String)>) {
    with_current(|state, rank| state.label_call(rank, call));
}

/// Names the kernel the calling rank thread runs from now on (`@k`, or a
/// builtin's variant; `None` once it returned) when it is not the run's
/// own: a program's task. A deadlock report names it.
pub(crate) fn name_current_kernel(kernel: Option<String>) {
    with_current(|state, rank| *state.slots[rank].kernel.lock().unwrap() = kernel);
}

/// A program's task (a kernel or a builtin) returned on the calling rank
/// thread. On the device each task is a kernel launch of its own, with its
/// own UB and DMA events: the task's asynchronous copies still outstanding
/// are reported as never waited for, and its tiles are freed, before the
/// next task of the device starts.
pub(crate) fn end_task() {
    with_current(|state, rank| crate::runtime::run::dma::orphans(state, rank, current_thread()));
    crate::runtime::tiles::release();
}

/// The calling thread's index among its rank's threads.
pub(crate) fn current_thread() -> usize {
    CURRENT.with(|c| c.get()).map_or(0, |(_, _, thread)| thread)
}

/// `pld_sim_rank_handle`: the calling thread's rank slot, or null.
pub(crate) fn rank_handle() -> *mut std::ffi::c_void {
    with_current(|state, rank| std::ptr::from_ref(&state.slots[rank]) as *mut std::ffi::c_void)
        .unwrap_or(std::ptr::null_mut())
}

/// `pld_sim_block_enter`: binds the calling thread to the rank behind
/// `handle` as block `block` of `blocks`. `Err` when the handle is not a
/// live rank or the thread is bound already.
pub(crate) fn bind_block(
    handle: *mut std::ffi::c_void,
    block: i32,
    blocks: i32,
) -> Result<(), String> {
    if CURRENT.with(|c| c.get()).is_some() {
        return Err("pld_sim_block_enter on a thread that is bound already".into());
    }
    let live = LIVE_SLOTS.lock().unwrap().contains(&(handle as usize));
    if !live {
        return Err(format!(
            "pld_sim_block_enter with {handle:p}, which is not a rank handle of a running simulation"
        ));
    }
    // SAFETY: a slot of a run in progress (checked above); the slot lives
    // until its run's `execute` returns, which waits for the rank thread,
    // which waits for this block (rt_submit_aiv_task joins its blocks).
    let slot = unsafe { &*(handle as *const Slot) };
    let state = slot.owner.load(Ordering::Acquire);
    // SAFETY: the owner is set before any rank thread starts and lives as
    // long as the slot (see above).
    let explore = unsafe { state.as_ref() }.and_then(|s| s.explore.as_deref());
    let thread = {
        let mut threads = slot.threads.lock().unwrap();
        let width = usize::try_from(blocks).unwrap_or(1).max(1);
        let first = slot.bound.fetch_add(1, Ordering::AcqRel) == 0;
        // A launch begins with its first block: the others are still to
        // bind (a block that left early does not begin another).
        match slot.starting.load(Ordering::Acquire) {
            0 if first => slot.starting.store(width - 1, Ordering::Release),
            0 => {}
            n => slot.starting.store(n - 1, Ordering::Release),
        }
        if first {
            if let Some(own) = threads.first_mut() {
                own.status = Status::Parked;
            }
            if let Some(explore) = explore {
                let base = explore.launched(slot.rank, usize::try_from(blocks).unwrap_or(1).max(1));
                slot.launch_base.store(base, Ordering::Release);
            }
        }
        if let Some(explore) = explore {
            // A block index outside the launch (a malformed launch) is
            // folded into it rather than indexing past its agents.
            let width = usize::try_from(blocks).unwrap_or(1).max(1);
            let index = usize::try_from(block).unwrap_or(0).min(width - 1);
            let agent = slot.launch_base.load(Ordering::Acquire) + index;
            explore.block_started(agent, slot.rank);
            AGENT.with(|a| a.set(agent));
        }
        let fresh = Thread {
            block: Some((block, blocks)),
            status: Status::Running,
        };
        // Reuse the entry of a block that has left (launches follow one
        // another), so the list stays as long as the widest launch.
        match (1..threads.len()).find(|&i| matches!(threads[i].status, Status::Done)) {
            Some(i) => {
                threads[i] = fresh;
                i
            }
            None => {
                threads.push(fresh);
                threads.len() - 1
            }
        }
    };
    CURRENT.with(|c| c.set(Some((state.cast_const(), slot.rank, thread))));
    Ok(())
}

/// `pld_sim_block_exit`: frees the block's tiles and unbinds it; the rank's
/// own thread is live again once its last block left.
pub(crate) fn unbind_block() -> Result<(), String> {
    let Some((state, rank, thread)) = CURRENT.with(|c| c.get()) else {
        return Err("pld_sim_block_exit on a thread that is not bound".into());
    };
    if thread == 0 {
        return Err("pld_sim_block_exit on a rank's own thread".into());
    }
    // SAFETY: as in `with_current`.
    let run = unsafe { &*state };
    crate::runtime::run::dma::orphans(run, rank, thread);
    crate::runtime::tiles::release();
    if let Some(explore) = &run.explore {
        explore.block_exited(current_agent(), rank);
    }
    let slot = &run.slots[rank];
    {
        let mut threads = slot.threads.lock().unwrap();
        threads[thread].status = Status::Done;
        if slot.bound.fetch_sub(1, Ordering::AcqRel) == 1 {
            threads[0].status = Status::Running;
        }
    }
    CURRENT.with(|c| c.set(None));
    Ok(())
}

impl State<'_> {
    /// The start of an event for the timeline: the time now when tracing,
    /// else nothing (a clock read costs about as much as a small device
    /// call, so untraced runs take none).
    pub fn stamp(&self) -> Option<Instant> {
        self.trace.as_ref().map(|_| Instant::now())
    }

    /// Adds a step that began at `begin` and ends now to `rank`'s timeline,
    /// when the run is traced. `args` is computed only then.
    pub fn record(
        &self,
        rank: usize,
        name: &'static str,
        begin: Option<Instant>,
        args: impl FnOnce() -> String,
    ) {
        if let (Some(trace), Some(begin)) = (&self.trace, begin) {
            let now = Instant::now();
            let micros = |t: Instant| t.duration_since(self.start).as_secs_f64() * 1e6;
            let mut args = args();
            // Events of a builtin's kernels carry the call they serve.
            if !args.contains("\"op\":") {
                if let Some((op, loc)) = &*self.slots[rank].call.lock().unwrap() {
                    let sep = if args.is_empty() { "" } else { ", " };
                    args += &format!("{sep}\"op\": {op:?}, \"loc\": {loc:?}");
                }
            }
            let track = self.slots[rank]
                .threads
                .lock()
                .unwrap()
                .get(current_thread())
                .and_then(|t| t.block)
                .map_or(0, |(block, _)| 1 + block.max(0) as usize);
            trace[rank].lock().unwrap().push(Event {
                name,
                track,
                begin: micros(begin),
                duration: micros(now) - micros(begin),
                args,
            });
        }
    }

    /// Names the call `rank` runs from now on (`None`: no call).
    pub fn label_call(&self, rank: usize, call: Option<(String, String)>) {
        if let Some(explore) = self.explore.as_deref() {
            explore.call_label(rank, call.as_ref().map(|(op, at)| format!("{op} at {at}")));
        }
        *self.slots[rank].call.lock().unwrap() = call;
    }

    /// The first byte of a credit signal's cell in `[start, end)` of a
    /// window, when the run knows its credit signals.
    pub fn signal_byte_in(&self, start: usize, end: usize) -> Option<usize> {
        self.credits
            .as_ref()?
            .iter()
            .filter(|r| r.start < end && start < r.end)
            .map(|r| r.start.max(start))
            .min()
    }

    /// Whether a cell at byte `offset` of a window is outside the signals
    /// the run was told of (never, when it was told none).
    pub fn outside_signals(&self, offset: usize) -> bool {
        self.cells
            .as_ref()
            .is_some_and(|cells| !cells.iter().any(|r| r.contains(&offset)))
    }

    /// The name of the bytes at `offset` of `window`'s window, when the run
    /// was given names.
    pub fn name_of(&self, window: usize, offset: usize) -> Option<String> {
        self.names.and_then(|names| names(window, offset))
    }

    /// Whether the run's ranks are in several processes (MPI).
    pub fn across_processes(&self) -> bool {
        self.board.is_some()
    }

    /// The explorer, in explore mode.
    pub fn explore(&self) -> Option<&dyn Explorer> {
        self.explore.as_deref()
    }

    /// A device call begins: in explore mode, waits for the calling
    /// agent's turn and returns the explorer and the agent.
    /// Whether the run is under the protocol explorer (no scheduling
    /// step, unlike [`State::turn`]).
    pub(crate) fn explored(&self) -> bool {
        self.explore.is_some()
    }

    pub fn turn(&self) -> Option<(&dyn Explorer, usize)> {
        let explore = self.explore.as_deref()?;
        let agent = current_agent();
        // Once the schedule is over (a deadlock) the ranks run on past
        // waits that did not hold: what they do then is not checked.
        let checked = explore.turn(agent);
        crate::runtime::run::dma::deliver_due(self, explore);
        checked.then_some((explore, agent))
    }

    /// `pld_sim_launch_blocks`: in explore mode on fibers, runs `blocks`
    /// blocks (`block(b)` each, which binds and unbinds itself) as fibers
    /// of the calling rank's thread, and returns once all have finished;
    /// `false` (nothing ran) otherwise.
    pub(crate) fn launch_on_fibers(
        &self,
        rank: usize,
        blocks: usize,
        block: &dyn Fn(usize),
    ) -> bool {
        let Some(explore) = self.explore.as_deref() else {
            return false;
        };
        if crate::runtime::fiber::current().is_none() {
            return false;
        }
        let mut spawned = Vec::with_capacity(blocks);
        for b in 0..blocks {
            match crate::runtime::fiber::spawn(Box::new(move || block(b))) {
                Ok(fiber) => spawned.push(fiber),
                Err(message) => {
                    self.error(
                        rank,
                        format!("block {b} of a launch cannot start: {message}"),
                    );
                    break;
                }
            }
        }
        // The blocks start (each runs to its first device call) and then
        // run as the scheduler picks them; the rank waits for the last.
        while !spawned.iter().all(|&f| crate::runtime::fiber::finished(f)) {
            explore.pass();
        }
        true
    }

    /// The asynchronous copies whose events are outstanding
    /// (`crate::runtime::run::dma`).
    pub(crate) fn dmas(&self) -> &Mutex<crate::runtime::run::dma::Table> {
        &self.dmas
    }

    pub fn counters(&self, rank: usize) -> &AtomicCounters {
        &self.slots[rank].counters
    }

    /// Whether the run was stopped: a deadlock was declared, or Ctrl-C
    /// pressed (`crate::runtime::interrupt`). A run that saw Ctrl-C stays
    /// stopped when a host lowers the process's flag for its next run
    /// (the Python package) while this one has not ended.
    pub fn stopped(&self) -> bool {
        if self.stopped.load(Ordering::Acquire) || self.interrupted.load(Ordering::Relaxed) {
            return true;
        }
        let now = self.stop_requested();
        if now {
            self.interrupted.store(true, Ordering::Relaxed);
        }
        now
    }

    /// Whether `[start, end)` lies in one of the buffers the run gave its
    /// kernels outside the windows.
    pub fn holds_buffer(&self, start: usize, end: usize) -> bool {
        let above = self.buffers.partition_point(|&(base, _)| base <= start);
        above
            .checked_sub(1)
            .is_some_and(|i| end <= self.buffers[i].1)
    }

    /// Whether Ctrl-C or this run's own stop was requested.
    fn stop_requested(&self) -> bool {
        // (The run took its thread's stop when it began: no thread-local
        // to read on the device calls' path.)
        match &self.stop {
            Some(stop) => stop.requested(),
            None => crate::runtime::interrupt::pressed(),
        }
    }

    pub fn error(&self, rank: usize, message: String) {
        // In explore mode, faults after the schedule ended (a deadlock) come
        // from ranks running on past waits that did not hold.
        if self.explore.as_ref().is_some_and(|e| e.is_free()) {
            return;
        }
        self.errors
            .lock()
            .unwrap()
            .push(format!("rank {rank}: {message}"));
    }

    /// An error of `rank`'s device call at `site` (the sim lowering's
    /// number of the op, -1 when not known), led by the op's location and
    /// name when known: `k.mlir:9:3: pto.comm.tnotify: notify on ...`.
    /// Without a site (a builtin kernel's device call), the call the rank
    /// runs names it, when a program named one.
    pub fn error_at(&self, rank: usize, site: i64, message: String) {
        let message = match crate::runtime::sites::get(site) {
            Some(at) => format!("{}: {}: {message}", at.location, at.op),
            None => match self.call_of(rank) {
                Some(call) => format!("{call}: {message}"),
                None => message,
            },
        };
        self.error(rank, message);
    }

    /// An error of `rank`'s run at `site`: its peer lookup named no rank of
    /// the comm domain (`message` says which). The access it was for, at
    /// the same op, is then not reported again ([`State::peer_refused_at`]).
    pub fn refuse_peer(&self, rank: usize, site: i64, message: String) {
        if let Some(slot) = self.slots.get(rank) {
            slot.refused_peer.store(site, Ordering::Relaxed);
        }
        self.error_at(rank, site, message);
    }

    /// Whether `rank`'s last refused peer lookup was at the op of `site`
    /// (the same source place: the lookup and the access are two PTO ops
    /// of one pld op).
    pub fn peer_refused_at(&self, rank: usize, site: i64) -> bool {
        let Some(slot) = self.slots.get(rank) else {
            return false;
        };
        let refused = slot.refused_peer.load(Ordering::Relaxed);
        if refused < 0 {
            return false;
        }
        let (Some(a), Some(b)) = (
            crate::runtime::sites::get(refused),
            crate::runtime::sites::get(site),
        ) else {
            return refused == site;
        };
        a.location == b.location
    }

    /// The call `rank` runs, where a program named it: its place and op
    /// (`f.mlir:14:15: pld.tensor_indexed_all_to_all_v`).
    fn call_of(&self, rank: usize) -> Option<String> {
        let call = self.slots[rank].call.lock().unwrap();
        call.as_ref()
            .map(|(op, location)| format!("{location}: {op}"))
    }

    /// Records a copy into another rank's window, when the run records
    /// them.
    pub fn remote_write(&self, write: RemoteWrite) {
        if let Some(writes) = &self.remote_writes {
            writes.lock().unwrap().push(write);
        }
    }

    pub fn records_remote_writes(&self) -> bool {
        self.remote_writes.is_some()
    }

    /// A fatal error of `rank`'s current call (`pld_sim_fatal`), named by
    /// the call when the rank runs a named one; once per rank, call and
    /// reason (every block of a launch refuses the same arguments).
    pub fn fatal(&self, rank: usize, code: i32, message: String) {
        let fatal = Fatal {
            rank,
            code,
            message,
            call: self.call_of(rank).unwrap_or_default(),
        };
        let mut fatals = self.fatals.lock().unwrap();
        if !fatals.contains(&fatal) {
            fatals.push(fatal);
        }
    }

    /// One line of `rank`'s log (`pld_sim_log`).
    /// One line of `rank`'s log (`pld_sim_log`), prefixed with the call it
    /// belongs to, if named; also an event of the trace.
    pub fn log(&self, rank: usize, line: String) {
        let line = match &*self.slots[rank].call.lock().unwrap() {
            Some((op, loc)) => format!("{op} at {loc}: {line}"),
            None => line,
        };
        self.record(rank, "log", Some(Instant::now()), || {
            format!("\"line\": {line:?}")
        });
        self.slots[rank].log.lock().unwrap().push(line);
    }

    /// Records what `rank` runs as it blocks, when that is a program's
    /// task (nothing in a kernel's run: the run's name is the kernel).
    pub(crate) fn note_blocked_in(&self, rank: usize) {
        let slot = &self.slots[rank];
        let kernel = slot.kernel.lock().unwrap().clone();
        let call = slot.call.lock().unwrap().clone();
        *slot.blocked_in.lock().unwrap() = kernel.map(|kernel| Within {
            kernel,
            call: call.map(|(op, location)| Site { op, location }),
        });
    }

    /// `blocked` named by what its rank ran when it blocked (a program's
    /// task), else by the run.
    fn name_blocked(&self, blocked: &mut BlockedRank) {
        if let Some(within) = &*self.slots[blocked.rank].blocked_in.lock().unwrap() {
            within.name(blocked);
        }
    }

    fn set_status(&self, rank: usize, thread: usize, status: Status) {
        let mut threads = self.slots[rank].threads.lock().unwrap();
        if let Some(t) = threads.get_mut(thread) {
            t.status = status;
        }
        if let Some(board) = &self.board {
            let starting = self.slots[rank].starting.load(Ordering::Acquire) > 0;
            board.publish(published(&threads, starting, false, self.domain), false);
        }
    }

    /// A wait that does not hold, in a stopped run, returns at once so
    /// that the kernel can finish. After Ctrl-C, a kernel that still calls
    /// into the simulator [`ABANDON`] later (a loop around a barrier that
    /// never ends; [`with_current`] asks at every device call) would spin
    /// for ever: its rank stops here for good,
    /// parked, using no CPU, and its run never returns (`pld-run` has
    /// exited by then; the Python package leaves the run behind). A run
    /// stopped by a deadlock is not abandoned: its ranks run on to their
    /// end however long that takes, and the deadlock is reported.
    fn after_stop(&self) {
        if !self.interrupted.load(Ordering::Relaxed) {
            return;
        }
        let seen = *self.stop_seen.get_or_init(Instant::now);
        if seen.elapsed() < ABANDON {
            return;
        }
        loop {
            std::thread::park();
        }
    }

    /// Blocks `rank` until `cell` compares `cmp` to `expected`, or the run
    /// is stopped (a deadlock was declared).
    ///
    /// A waiting thread gives its core away at once when the ranks
    /// outnumber the cores (it spins first when the ranks fit the cores:
    /// [`SPINS`] rounds when pinned, [`UNPINNED_SPINS`] otherwise), keeps
    /// yielding for a while (a peer that is about to notify runs in
    /// between), then sleeps on the cell's window (`window`, the one that
    /// holds it) until a notify into that window wakes it
    /// ([`State::wake`]). The sleep has a timeout, so the deadlock check
    /// runs however the cell changes.
    pub fn wait(
        &self,
        rank: usize,
        cell: SignalCell,
        window: usize,
        expected: i32,
        cmp: WaitCmp,
        site: i64,
    ) {
        // Most waits of a balanced kernel hold at once or within a few
        // microseconds: those take no lock and read no clock.
        if cell.holds(cmp, expected) {
            return;
        }
        if self.stopped() {
            return self.after_stop();
        }
        let holds = || cell.holds(cmp, expected) || self.stopped();
        // (No spinning when the ranks outnumber the cores, fibers or not.)
        for _ in 0..self.spins {
            std::hint::spin_loop();
            if holds() {
                return;
            }
        }
        // The blocked status first (a lock, no clock read): a fiber then
        // hands its worker to the others of it, which do not come back to
        // it before its cell holds, and the deadlock check must see it.
        // (Under MPI the process says what its rank ran now; with threads
        // the check names what the blocked ranks run when it declares.)
        let thread = current_thread();
        if self.board.is_some() {
            self.note_blocked_in(rank);
        }
        let blocked = Status::Blocked {
            cell,
            expected,
            cmp,
            since: None,
            site,
        };
        self.set_status(rank, thread, blocked);
        let mut rounds = 0u32;
        let mut last_check: Option<Instant> = None;
        let mut idle = None;
        while !holds() {
            rounds += 1;
            // A fiber gives its worker to the next rank of the worker that
            // can go on, if any.
            let yielded = crate::runtime::fiber::yield_until(&holds);
            if yielded != Yielded::Alone {
                self.idle_fiber(yielded, rounds, &mut idle, (window, cell, expected, cmp));
            } else if self.board.is_some() {
                // One rank per process: its peers' processes need the core
                // more than its yields do.
                // With a core per process a peer is about to notify: it
                // yields as long as a thread would before it dozes.
                let patience = if self.spins > 0 { YIELDS } else { 16 };
                crate::runtime::transport::doze(cell, rounds, patience);
            } else if rounds < YIELDS {
                std::thread::yield_now();
            } else {
                self.sleep(window, cell, expected, cmp);
            }
            // The clock is read every few rounds only: a fiber's round is a
            // switch of a few nanoseconds, a clock read costs more.
            let due = rounds.is_multiple_of(64) || self.board.is_some();
            if due && check_due(&mut last_check) {
                self.declare_deadlock_if_stuck();
            }
        }
        self.set_status(rank, thread, Status::Running);
    }

    /// A round of a waiting fiber that yielded: when no rank of its worker
    /// could go on (`NoneReady`) for [`FIBER_DOZE`] (`idle`: since when),
    /// the worker sleeps until a notify into the window of the cell wakes
    /// it, so that the OS runs what has work (the ranks the worker waits
    /// for are on a worker the OS does not run now).
    fn idle_fiber(
        &self,
        yielded: Yielded,
        rounds: u32,
        idle: &mut Option<Instant>,
        (window, cell, expected, cmp): (usize, SignalCell, i32, WaitCmp),
    ) {
        if yielded == Yielded::Switched {
            *idle = None;
            return;
        }
        std::hint::spin_loop();
        if !rounds.is_multiple_of(64) {
            return;
        }
        let now = Instant::now();
        if now.duration_since(*idle.get_or_insert(now)) >= FIBER_DOZE {
            self.sleep(window, cell, expected, cmp);
            *idle = None;
        }
    }

    /// Sleeps until a notify into `window` wakes this thread (or a short
    /// timeout passes). The sleeper is registered before the cell is read
    /// again, and a notifier applies its change before it looks for
    /// sleepers (both sequentially consistent), so a wake-up is never lost.
    fn sleep(&self, window: usize, cell: SignalCell, expected: i32, cmp: WaitCmp) {
        let sleepers = &self.sleepers[window];
        let me = std::thread::current();
        let id = me.id();
        sleepers.threads.lock().unwrap().push(me);
        self.asleep.fetch_add(1, Ordering::SeqCst);
        sleepers.count.fetch_add(1, Ordering::SeqCst);
        if !cell.holds(cmp, expected) && !self.stopped() {
            std::thread::park_timeout(Duration::from_millis(1));
        }
        sleepers.count.fetch_sub(1, Ordering::SeqCst);
        self.asleep.fetch_sub(1, Ordering::SeqCst);
        let mut threads = sleepers.threads.lock().unwrap();
        if let Some(i) = threads.iter().position(|t| t.id() == id) {
            threads.swap_remove(i);
        }
    }

    /// Wakes the threads sleeping on `window` (a notify changed one of its
    /// cells). Cheap when nobody sleeps: one atomic load of a line every
    /// notify reads (a thread asleep on another window adds a second).
    ///
    /// `seq_cst`: the change was a sequentially consistent atomic of this
    /// process (a mapped cell's notify): it is ordered before the read of
    /// the sleepers' count without a fence (both are in the single total
    /// order of such operations, as the sleeper's count update and its read
    /// of the cell are).
    pub fn wake(&self, window: usize, seq_cst: bool) {
        let Some(sleepers) = self.sleepers.get(window) else {
            return;
        };
        if !seq_cst {
            std::sync::atomic::fence(Ordering::SeqCst);
        }
        if self.asleep.load(Ordering::SeqCst) == 0 || sleepers.count.load(Ordering::SeqCst) == 0 {
            return;
        }
        for thread in sleepers.threads.lock().unwrap().iter() {
            thread.unpark();
        }
    }

    /// Stops the run when every live thread (a rank's own thread, or the
    /// blocks of a launch while they are bound, which park their rank's
    /// thread) has been blocked longer than the deadline on a condition
    /// that still does not hold.
    fn declare_deadlock_if_stuck(&self) {
        if let Some(board) = &self.board {
            return self.check_board(board);
        }
        // Hold every rank's thread list for the whole scan: a rank that
        // notifies a waiter and then finishes must not be seen finished
        // while the waiter's cell is seen before the notify. (No thread
        // holds two of these locks otherwise, so this cannot deadlock.)
        let mut ranks: Vec<_> = self
            .slots
            .iter()
            .map(|s| s.threads.lock().unwrap())
            .collect();
        let now = Instant::now();
        // A wait seen for the first time starts its deadline now.
        for thread in ranks.iter_mut().flat_map(|threads| threads.iter_mut()) {
            if let Status::Blocked {
                since: since @ None,
                ..
            } = &mut thread.status
            {
                *since = Some(now);
            }
        }
        let mut blocked = Vec::new();
        let mut finished = Vec::new();
        for (rank, threads) in ranks.iter().enumerate() {
            if matches!(threads.first().map(|t| t.status), Some(Status::Done)) {
                finished.push(rank);
                continue;
            }
            if self.slots[rank].starting.load(Ordering::Acquire) > 0 {
                return; // a block of its launch is still to start
            }
            for thread in threads.iter() {
                match thread.status {
                    Status::Running => return,
                    Status::Done | Status::Parked => {}
                    Status::Blocked {
                        cell,
                        expected,
                        cmp,
                        since,
                        site,
                    } => {
                        let actual = cell.load();
                        let waited = since.map_or(Duration::ZERO, |since| now - since);
                        if waited < self.deadline || cmp.holds(actual, expected) {
                            return;
                        }
                        let located = match cell {
                            SignalCell::Mapped(c) => self.domain.locate(c as usize, 4),
                            SignalCell::Rma { rank, offset, .. } => Some((rank, offset)),
                        };
                        blocked.push(BlockedRank {
                            rank,
                            block: thread.block,
                            kernel: self.kernel.clone(),
                            window: located.map(|(w, _)| w),
                            offset: located.map_or(0, |(_, o)| o),
                            cmp: cmp.symbol(),
                            expected,
                            actual,
                            site: crate::runtime::sites::get(site),
                        });
                    }
                }
            }
        }
        if blocked.is_empty() {
            return;
        }
        drop(ranks);
        for b in &mut blocked {
            // Blocked, the rank still runs what it blocked in.
            self.note_blocked_in(b.rank);
            self.name_blocked(b);
        }
        let mut verdict = self.deadlock.lock().unwrap();
        if verdict.is_none() {
            *verdict = Some(DeadlockReport {
                deadline: self.deadline,
                blocked,
                finished,
            });
        }
        self.stopped.store(true, Ordering::Release);
    }
}

impl State<'_> {
    /// Under MPI: refreshes this process's entry of the status board (the
    /// value its waiting thread sees now), then reads the board; stops the
    /// run when the stop flag is up or a deadlock is declared here.
    fn check_board(&self, board: &Board) {
        for rank in self.domain.local() {
            let threads = self.slots[rank].threads.lock().unwrap();
            let starting = self.slots[rank].starting.load(Ordering::Acquire) > 0;
            board.publish(published(&threads, starting, true, self.domain), true);
        }
        let holds = |window: usize, offset: usize, ge: bool, expected: i32| {
            let cmp = if ge { WaitCmp::Ge } else { WaitCmp::Eq };
            signal_cell(self.domain, window, offset).is_some_and(|c| c.holds(cmp, expected))
        };
        match board.check(self.deadline, &self.kernel, holds) {
            Ok(None) => return,
            Ok(Some(report)) => {
                let mut verdict = self.deadlock.lock().unwrap();
                verdict.get_or_insert(report);
            }
            Err(()) => {}
        }
        self.stopped.store(true, Ordering::Release);
    }
}

/// The signal cell at byte `offset` of rank `window`'s window, as a wait
/// reaches it (through MPI when the domain reads cells so, else mapped).
fn signal_cell(domain: &CommDomain, window: usize, offset: usize) -> Option<SignalCell> {
    if window >= domain.ranks() {
        return None;
    }
    match domain.signal_win(window) {
        Some(win) => Some(SignalCell::Rma {
            win,
            rank: window,
            offset,
        }),
        None => domain
            .window(window)
            .cell(offset)
            .map(|c| SignalCell::Mapped(c as *const _)),
    }
}

/// A rank's state for the status board: done once its own thread is,
/// running while any thread of it runs or a block of its launch is still
/// `starting`, and with `look` while any of its waits holds now (its
/// thread will go on: the cells are read); else waiting as its first
/// blocked thread does.
fn published(threads: &[Thread], starting: bool, look: bool, domain: &CommDomain) -> Published {
    if matches!(threads.first().map(|t| t.status), Some(Status::Done)) {
        return Published::Done;
    }
    if starting {
        return Published::Running;
    }
    let mut waiting = None;
    for thread in threads {
        match thread.status {
            Status::Running => return Published::Running,
            Status::Done | Status::Parked => {}
            Status::Blocked {
                cell,
                expected,
                cmp,
                site,
                ..
            } => {
                // A wait that holds now ends once its thread runs.
                if look && cell.holds(cmp, expected) {
                    return Published::Running;
                }
                let (window, offset) = match cell {
                    SignalCell::Mapped(c) => domain.locate(c as usize, 4).unwrap_or((0, 0)),
                    SignalCell::Rma { rank, offset, .. } => (rank, offset),
                };
                waiting.get_or_insert(Published::Waiting {
                    block: thread.block,
                    window,
                    offset,
                    ge: cmp == WaitCmp::Ge,
                    expected,
                    actual: cell.load(),
                    site,
                });
            }
        }
    }
    waiting.unwrap_or(Published::Running)
}

/// The cores this process may run on (counted once).
fn available_cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// What a rank's kernel gets to know about itself.
#[derive(Clone, Copy)]
pub struct RankEnv<'d> {
    pub rank: usize,
    pub domain: &'d CommDomain,
}

/// How a run ended.
#[derive(Debug, Default)]
pub struct Outcome {
    /// Set when the run was stopped as deadlocked.
    pub deadlock: Option<DeadlockReport>,
    /// Faults the device functions caught (e.g. a signal outside every
    /// window), and kernels that panicked.
    pub errors: Vec<String>,
    /// Fatal errors the ranks' calls reported (a builtin entry's
    /// admission checks, a violated pto-isa constraint).
    pub fatals: Vec<Fatal>,
    /// Every copy into another rank's window, in no particular order, when
    /// the run recorded them (`Run::record_remote_writes`).
    pub remote_writes: Vec<RemoteWrite>,
    /// Per rank: the lines its calls logged (`pld_sim_log`).
    pub logs: Vec<Vec<String>>,
    /// Per rank.
    pub counters: Vec<Counters>,
    /// Wall-clock time of the kernels: from starting the first rank's
    /// thread to the return of the last.
    pub kernel_time: Duration,
    /// The timeline in Chrome's trace format (JSON, for Perfetto or
    /// chrome://tracing), when the run was traced.
    pub trace: Option<String>,
    /// In explore mode: what the checker found, and how many scheduling
    /// decisions the schedule took.
    pub findings: Vec<Finding>,
    pub steps: u64,
    /// In explore mode: a digest of the scheduling decisions (the same
    /// digest, the same schedule).
    pub schedule_digest: u64,
    /// Ctrl-C stopped the run (`crate::runtime::interrupt`): what it left
    /// behind means nothing.
    pub interrupted: bool,
}

impl Outcome {
    pub fn ok(&self) -> bool {
        !self.interrupted
            && self.deadlock.is_none()
            && self.errors.is_empty()
            && self.fatals.is_empty()
            && self.findings.is_empty()
    }
}

/// One execution of a kernel on every rank of a domain.
pub struct Run<'d> {
    domain: &'d CommDomain,
    deadline: Duration,
    trace: bool,
    remote_writes: bool,
    explorer: Option<Box<dyn ExplorerFactory>>,
    names: Option<WindowNamer<'d>>,
    fibers: bool,
    pinned: bool,
    cells: Option<Vec<std::ops::Range<usize>>>,
    credits: Option<Vec<std::ops::Range<usize>>>,
    buffers: Vec<(usize, usize)>,
}

impl<'d> Run<'d> {
    /// `deadline`: how long every live rank may be blocked before the run
    /// is declared deadlocked.
    pub fn new(domain: &'d CommDomain, deadline: Duration) -> Self {
        Run {
            domain,
            deadline,
            trace: false,
            remote_writes: false,
            explorer: None,
            names: None,
            fibers: false,
            pinned: false,
            cells: None,
            credits: None,
            buffers: Vec::new(),
        }
    }

    /// The buffers outside the windows the kernels are given (a kernel's
    /// plain parameters), `[start, end)`: a copy may touch them, as it may
    /// the windows, its tiles and its stack, and nothing else.
    pub fn buffers(mut self, mut buffers: Vec<(usize, usize)>) -> Self {
        buffers.sort_unstable();
        self.buffers = buffers;
        self
    }

    /// The byte ranges (the same in every window) that hold the kernel's
    /// signal cells: explore mode reports a notify or wait outside them.
    pub fn signal_cells(mut self, cells: Option<Vec<std::ops::Range<usize>>>) -> Self {
        self.cells = cells;
        self
    }

    /// The byte ranges (the same in every window) of the kernel's credit
    /// signals: a copy that stores into them is an error of the run at its
    /// op (their cells change only by notifies).
    pub fn credit_signals(mut self, credits: Vec<std::ops::Range<usize>>) -> Self {
        self.credits = Some(credits);
        self
    }

    /// With more ranks than cores, runs the ranks as fibers on one worker
    /// thread per core (`crate::runtime::fiber`) instead of a thread each. For
    /// kernels that only call the device functions: a kernel that blocks
    /// its thread outside them (a builtin entry joining its blocks) would
    /// stop the other ranks of its worker. Explore mode (`explore`) makes
    /// every rank a fiber of one thread whatever this says (its blocks
    /// too: `State::launch_on_fibers`).
    pub fn fibers(mut self, fibers: bool) -> Self {
        self.fibers = fibers;
        self
    }

    /// Gives every rank thread (or fiber worker) a core of its own, when
    /// there are enough (`crate::runtime::affinity`). For kernels whose
    /// ranks do not start threads of their own (those would inherit the
    /// core). Not with `explore`, where one thread runs at a time.
    pub fn pinned(mut self, pinned: bool) -> Self {
        self.pinned = pinned;
        self
    }

    /// Names window bytes in the timeline (`"name": "%sig (arg0) [1, 0]"`
    /// beside the window and cell of a notify, wait or copy).
    pub fn named(mut self, names: Option<WindowNamer<'d>>) -> Self {
        self.names = names;
        self
    }

    /// Runs under an explorer (explore mode's `Schedule`: its seeded
    /// scheduler, one simulated thread at a time, with the happens-before
    /// checker, `Outcome::findings`); a deadlock is then exact (no thread
    /// can run), not a timeout.
    pub fn explore<F: ExplorerFactory + 'static>(mut self, explorer: Option<F>) -> Self {
        self.explorer = explorer.map(|f| Box::new(f) as Box<dyn ExplorerFactory>);
        self
    }

    /// Records a timeline of every rank's kernel, waits, notifies and
    /// copies (`Outcome::trace`).
    pub fn traced(mut self, trace: bool) -> Self {
        self.trace = trace;
        self
    }

    /// Records every copy into another rank's window
    /// (`Outcome::remote_writes`), e.g. to check transfer alignment.
    pub fn record_remote_writes(mut self, record: bool) -> Self {
        self.remote_writes = record;
        self
    }

    /// Runs `kernel` once per rank, each on its own thread, and waits for
    /// all of them. `name` is how reports refer to the kernel.
    pub fn execute(&self, name: &str, kernel: impl Fn(RankEnv<'d>) + Sync) -> Outcome {
        let placement = self.placement();
        let mut state = self.state(name, &placement);
        if let Err(message) = self.join_processes(&mut state) {
            state.error(self.domain.local().start, message);
            return state.into_outcome(name, Duration::ZERO);
        }
        // Block threads reach the state through their rank's slot; the
        // state does not move from here on.
        let erased = std::ptr::from_ref(&state)
            .cast::<State<'static>>()
            .cast_mut();
        let handles: Vec<usize> = state
            .slots
            .iter()
            .map(|slot| {
                slot.owner.store(erased, Ordering::Release);
                std::ptr::from_ref(slot) as usize
            })
            .collect();
        LIVE_SLOTS.lock().unwrap().extend(&handles);
        let started = Instant::now();
        let domain = self.domain;
        // One rank's whole life on the thread (or fiber) that runs it.
        let body = |rank: usize| state.run_rank(rank, name, || kernel(RankEnv { rank, domain }));
        placement.run(&state, &body);
        let kernel_time = started.elapsed();
        LIVE_SLOTS
            .lock()
            .unwrap()
            .retain(|slot| !handles.contains(slot));
        state.into_outcome(name, kernel_time)
    }

    /// Under MPI (this process runs some of the ranks): the status board
    /// of the run, and every process at the start line (collective).
    fn join_processes(&self, state: &mut State<'d>) -> Result<(), String> {
        let local = self.domain.local();
        if local.len() == self.domain.ranks() {
            return Ok(());
        }
        state.board = Some(Board::new(self.domain.ranks(), local.start)?);
        crate::runtime::mpi::barrier()
    }

    /// Where the run's threads go: ranks as threads, or as fibers on a
    /// worker per core, and the CPUs they are pinned to.
    fn placement(&self) -> Placement {
        let local = self.domain.local();
        if local.len() < self.domain.ranks() {
            // One rank per process: no fibers, no pinning, spinning only
            // when the machine has a core per process.
            let spins = if self.domain.ranks() <= available_cores() {
                UNPINNED_SPINS
            } else {
                0
            };
            return Placement {
                ranks: self.domain.ranks(),
                local,
                workers: 1,
                fibers: false,
                here: false,
                spins,
                cpus: Vec::new(),
                first: 0,
            };
        }
        let ranks = self.domain.ranks();
        let cores = available_cores();
        let workers = cores.min(ranks);
        let fibers = self.fibers
            && self.explorer.is_none()
            && ranks > workers
            && crate::runtime::fiber::available();
        // Explore mode runs one agent at a time: every one a fiber of one
        // thread, handing the turn on in user space.
        let explore_fibers =
            self.explorer.is_some() && crate::runtime::fiber::available() && !explore_on_threads();
        // Pinned when the threads (ranks, or workers of fibers) take every
        // core the run may use: the scheduler then has no better place for
        // any of them, only worse ones (two on one core). Thread i goes to
        // the i-th allowed CPU after the one the run starts on, so that
        // runs in parallel processes spread when they can.
        let threads = if fibers { workers } else { ranks };
        let cpus = if self.pinned && self.explorer.is_none() && threads == cores {
            crate::runtime::affinity::allowed_cpus()
        } else {
            Vec::new()
        };
        let pinned = !cpus.is_empty() && cpus.len() >= threads;
        let first = crate::runtime::affinity::current_cpu()
            .and_then(|cpu| cpus.iter().position(|&c| c == cpu))
            .unwrap_or(0);
        Placement {
            ranks,
            local: 0..ranks,
            workers: if explore_fibers { 1 } else { workers },
            fibers: fibers || explore_fibers,
            // The calling thread runs them itself when it is no rank or
            // fiber of another run (a thread of its own per schedule costs
            // its start, its memory arena and its exit).
            here: explore_fibers
                && crate::runtime::fiber::current().is_none()
                && CURRENT.with(|c| c.get()).is_none(),
            spins: match (ranks <= cores, pinned) {
                (true, true) => SPINS,
                (true, false) => UNPINNED_SPINS,
                // Fibers switch instead; threads give their core away.
                (false, _) => 0,
            },
            cpus: if pinned { cpus } else { Vec::new() },
            first,
        }
    }

    /// The state of a run of `name`, nothing run yet.
    fn state(&self, name: &str, placement: &Placement) -> State<'d> {
        let ranks = placement.ranks;
        State {
            domain: self.domain,
            kernel: name.to_string(),
            deadline: self.deadline,
            slots: (0..ranks)
                .map(|rank| Slot {
                    rank,
                    owner: AtomicPtr::new(std::ptr::null_mut()),
                    threads: Mutex::new(vec![Thread {
                        block: None,
                        status: Status::Running,
                    }]),
                    bound: AtomicUsize::new(0),
                    started: AtomicBool::new(false),
                    starting: AtomicUsize::new(0),
                    launch_base: AtomicUsize::new(0),
                    counters: AtomicCounters::default(),
                    log: Mutex::new(Vec::new()),
                    call: Mutex::new(None),
                    kernel: Mutex::new(None),
                    blocked_in: Mutex::new(None),
                    refused_peer: AtomicI64::new(-1),
                })
                .collect(),
            stopped: AtomicBool::new(false),
            interrupted: AtomicBool::new(false),
            stop_seen: std::sync::OnceLock::new(),
            stop: stop_in_scope(),
            buffers: self.buffers.clone(),
            sleepers: (0..ranks).map(|_| Sleepers::default()).collect(),
            asleep: AtomicUsize::new(0),
            spins: placement.spins,
            trace: self
                .trace
                .then(|| (0..ranks).map(|_| Mutex::new(Vec::new())).collect()),
            start: Instant::now(),
            deadlock: Mutex::new(None),
            errors: Mutex::new(Errors::default()),
            fatals: Mutex::new(Vec::new()),
            remote_writes: self.remote_writes.then(|| Mutex::new(Vec::new())),
            explore: self.explorer.as_ref().map(|f| f.explorer(ranks, name)),
            names: self.names,
            cells: self.cells.clone(),
            credits: self.credits.clone(),
            dmas: Mutex::new(crate::runtime::run::dma::Table::default()),
            board: None,
        }
    }
}

/// The stop a run started here runs under: the one of the run whose rank
/// the calling thread simulates (a builtin a program's device launches),
/// else the one the thread entered (`interrupt::Stop::enter`).
fn stop_in_scope() -> Option<crate::runtime::interrupt::Stop> {
    let Some((state, _, _)) = CURRENT.with(Cell::get) else {
        return crate::runtime::interrupt::current();
    };
    // SAFETY: CURRENT holds the state of the run the thread simulates a
    // rank of, set by the run before the rank's work and cleared after
    // it; the state outlives that work.
    unsafe { (*state).stop.clone() }
}

/// Whether Ctrl-C, or the stop of the run the calling thread works for,
/// was requested: for loops between device calls (a program's tasks, the
/// explorer's decisions, planning) to stop starting new work.
pub fn stop_requested() -> bool {
    match CURRENT.with(Cell::get) {
        // SAFETY: as in `stop_in_scope`.
        Some((state, _, _)) => unsafe { (*state).stop_requested() },
        None => crate::runtime::interrupt::requested(),
    }
}

/// Whether explore mode hands the turn from thread to thread, as it did
/// before its agents were fibers (`PLD_EXPLORE_THREADS`, read once; a
/// value it refuses reads as no here, and `pld-run --explore` refuses it
/// first): kept to compare the two (`pld-bench explore`) and for
/// architectures without fibers, where it is the only way. The schedules
/// are the same.
pub fn explore_on_threads() -> bool {
    static THREADS: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *THREADS.get_or_init(|| crate::runtime::env::EXPLORE_THREADS.read().unwrap_or(false))
}

/// Where a run's ranks run: a thread each, or fibers on `workers` threads
/// (rank r on worker r mod W), pinned to CPUs when `cpus` is not empty;
/// the threads are the process's pooled ones ([`crate::runtime::pool`]).
struct Placement {
    ranks: usize,
    /// The ranks this process runs.
    local: std::ops::Range<usize>,
    workers: usize,
    fibers: bool,
    /// Every rank a fiber of the calling thread (explore mode).
    here: bool,
    /// Busy-wait rounds of a waiter (`State::spins`).
    spins: u32,
    /// The allowed CPUs, when every thread gets one of its own.
    cpus: Vec<usize>,
    /// The position in `cpus` of the CPU the run starts on.
    first: usize,
}

impl Placement {
    /// The CPU thread `thread` (a rank, or a worker of fibers) is pinned
    /// to, if any.
    fn core_of(&self, thread: usize) -> Option<usize> {
        (!self.cpus.is_empty()).then(|| self.cpus[(self.first + thread) % self.cpus.len()])
    }

    /// Runs `body(rank)` for every rank, on its own thread or as a fiber of
    /// its worker, and waits for all of them.
    fn run(&self, state: &State<'_>, body: &(dyn Fn(usize) + Sync)) {
        let (ranks, workers) = (self.ranks, self.workers);
        if self.here {
            let bodies: Vec<Box<dyn FnOnce() + '_>> = (0..ranks)
                .map(|rank| Box::new(move || body(rank)) as Box<dyn FnOnce()>)
                .collect();
            if let Err(message) = crate::runtime::fiber::run_all::<RankLocals>(bodies) {
                state.error(0, format!("the ranks' fibers failed: {message}"));
            }
            return;
        }
        let tasks = if self.fibers {
            // Rank r on worker r mod W.
            (0..workers)
                .map(|worker| Task {
                    role: self.core_of(worker),
                    name: format!("ranks {worker} mod {workers}"),
                    run: Box::new(move || {
                        let bodies: Vec<Box<dyn FnOnce() + '_>> = (worker..ranks)
                            .step_by(workers)
                            .map(|rank| Box::new(move || body(rank)) as Box<dyn FnOnce()>)
                            .collect();
                        if let Err(message) = crate::runtime::fiber::run_all::<RankLocals>(bodies) {
                            state.error(worker, format!("the ranks' fibers failed: {message}"));
                        }
                    }) as Box<dyn FnOnce() + Send + '_>,
                })
                .collect()
        } else {
            self.local
                .clone()
                .map(|rank| Task {
                    role: self.core_of(rank),
                    name: format!("rank {rank}"),
                    run: Box::new(move || body(rank)) as Box<dyn FnOnce() + Send + '_>,
                })
                .collect()
        };
        crate::runtime::pool::scope(tasks);
    }
}

impl State<'_> {
    /// Rank `rank`'s whole life on the thread (or fiber) that runs it:
    /// `kernel` run as the rank (its panic an error of the run of `name`),
    /// then its tiles freed and the rank done.
    fn run_rank(&self, rank: usize, name: &str, kernel: impl FnOnce()) {
        // The thread-local forgets the lifetime; it is cleared before the
        // state goes away.
        let erased = std::ptr::from_ref(self).cast::<State<'static>>();
        CURRENT.with(|c| c.set(Some((erased, rank, 0))));
        self.slots[rank].started.store(true, Ordering::Release);
        if let Some(explore) = &self.explore {
            AGENT.with(|a| a.set(rank));
            explore.rank_started(rank);
        }
        let begin = self.stamp();
        let result = std::panic::catch_unwind(AssertUnwindSafe(kernel));
        self.record(rank, "kernel", begin, || format!("\"kernel\": {name:?}"));
        crate::runtime::run::dma::orphans(self, rank, 0);
        crate::runtime::tiles::release();
        CURRENT.with(|c| c.set(None));
        if let Err(panic) = result {
            let message = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "panicked".into());
            self.error(rank, format!("kernel {name} failed: {message}"));
        }
        self.set_status(rank, 0, Status::Done);
        if let Some(explore) = &self.explore {
            explore.rank_finished(rank);
        }
    }

    /// How the run of `name` ended, its kernels having taken
    /// `kernel_time`.
    fn into_outcome(mut self, name: &str, kernel_time: Duration) -> Outcome {
        let local_stop = self.stop_requested();
        let (kernel_time, interrupted) = match self.board.is_some() {
            true => self.gather_shares(kernel_time),
            false => (kernel_time, local_stop),
        };
        let counters = self.slots.iter().map(|s| s.counters.snapshot()).collect();
        let logs = self
            .slots
            .iter()
            .map(|s| std::mem::take(&mut *s.log.lock().unwrap()))
            .collect();
        let trace = self.trace.as_ref().map(|ranks| chrome_trace(ranks));
        let (mut deadlock, mut findings, mut steps, mut schedule_digest) =
            (self.deadlock.into_inner().unwrap(), Vec::new(), 0, 0);
        if let Some(explore) = self.explore {
            let verdict = explore.finish(self.domain, name);
            (findings, steps, schedule_digest) = (verdict.findings, verdict.steps, verdict.digest);
            if verdict.deadlock.is_some() {
                deadlock = verdict.deadlock;
                // Named by what each rank ran at its last wait, as a
                // plain run names them (a program's task, not its entry).
                for b in deadlock.iter_mut().flat_map(|d| d.blocked.iter_mut()) {
                    if let Some(within) = &*self.slots[b.rank].blocked_in.lock().unwrap() {
                        within.name(b);
                    }
                }
            }
        }
        Outcome {
            trace,
            findings,
            steps,
            schedule_digest,
            interrupted,
            deadlock,
            errors: in_rank_order(self.errors.into_inner().unwrap().into_lines()),
            fatals: self.fatals.into_inner().unwrap(),
            remote_writes: self
                .remote_writes
                .map(|w| w.into_inner().unwrap())
                .unwrap_or_default(),
            logs,
            counters,
            kernel_time,
        }
    }
}

/// The run's errors by rank (each `rank N: ...`, [`State::error`]), in
/// the order each rank had them: the threads record them as they come,
/// so that a report reads the same from one run to the next.
fn in_rank_order(mut errors: Vec<String>) -> Vec<String> {
    errors.sort_by_key(|e| error_place(e).0.unwrap_or(usize::MAX));
    errors
}

impl State<'_> {
    /// Under MPI: every process's share of the run, merged into this
    /// state as if its ranks had run here (collective); the slowest
    /// process's kernel time, and whether any process was interrupted
    /// (so that every process ends the run the same way).
    fn gather_shares(&mut self, kernel_time: Duration) -> (Duration, bool) {
        let me = self.domain.local().start;
        let share = crate::runtime::board::Share {
            rank: me,
            counters: self.slots[me].counters.snapshot(),
            errors: std::mem::take(&mut *self.errors.lock().unwrap()).into_lines(),
            fatals: std::mem::take(&mut *self.fatals.lock().unwrap()),
            logs: std::mem::take(&mut *self.slots[me].log.lock().unwrap()),
            remote_writes: self
                .remote_writes
                .as_ref()
                .map(|w| std::mem::take(&mut *w.lock().unwrap()))
                .unwrap_or_default(),
            events: self
                .trace
                .as_ref()
                .map(|t| std::mem::take(&mut *t[me].lock().unwrap()))
                .unwrap_or_default(),
            kernel_time,
            interrupted: self.stop_requested(),
            deadlock: self.deadlock.lock().unwrap().take(),
            blocked_in: self.slots[me].blocked_in.lock().unwrap().clone(),
        };
        let shares = match crate::runtime::board::gather(&share) {
            Ok(shares) => shares,
            Err(message) => {
                self.error(me, message);
                return (kernel_time, self.stop_requested());
            }
        };
        let mut slowest = Duration::ZERO;
        let mut interrupted = false;
        for share in shares {
            slowest = slowest.max(share.kernel_time);
            interrupted |= share.interrupted;
            let slot = &self.slots[share.rank];
            let c = share.counters;
            slot.counters.notifies.store(c.notifies, Ordering::Relaxed);
            slot.counters.waits.store(c.waits, Ordering::Relaxed);
            (slot.counters.remote_bytes_read).store(c.remote_bytes_read, Ordering::Relaxed);
            (slot.counters.remote_bytes_written).store(c.remote_bytes_written, Ordering::Relaxed);
            *slot.log.lock().unwrap() = share.logs;
            let mut errors = self.errors.lock().unwrap();
            share.errors.into_iter().for_each(|e| errors.push(e));
            drop(errors);
            self.fatals.lock().unwrap().extend(share.fatals);
            if let Some(writes) = &self.remote_writes {
                writes.lock().unwrap().extend(share.remote_writes);
            }
            if let Some(trace) = &self.trace {
                *trace[share.rank].lock().unwrap() = share.events;
            }
            *slot.blocked_in.lock().unwrap() = share.blocked_in;
            let mut deadlock = self.deadlock.lock().unwrap();
            if deadlock.is_none() {
                *deadlock = share.deadlock;
            }
        }
        // The board knows where each rank waits, its process what it ran.
        if let Some(report) = &mut *self.deadlock.lock().unwrap() {
            for b in &mut report.blocked {
                self.name_blocked(b);
            }
        }
        (slowest, interrupted)
    }
}

/// The timeline as Chrome trace events: a process per rank, a track
/// (thread) for its own thread and one for each block of its launches
/// (blocks run at the same time: one track would have overlapping
/// slices), complete events (`"ph": "X"`) in microseconds.
fn chrome_trace(ranks: &[Mutex<Vec<Event>>]) -> String {
    let mut events = Vec::new();
    for (rank, timeline) in ranks.iter().enumerate() {
        let timeline = timeline.lock().unwrap();
        events.push(format!(
            "{{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": {rank}, \"args\": {{\"name\": \"rank {rank}\"}}}}"
        ));
        let mut tracks: Vec<usize> = timeline.iter().map(|e| e.track).collect();
        tracks.push(0);
        tracks.sort_unstable();
        tracks.dedup();
        for track in tracks {
            let name = match track {
                0 => format!("rank {rank}"),
                b => format!("rank {rank} AIV block {}", b - 1),
            };
            events.push(format!(
                "{{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": {rank}, \"tid\": {track}, \"args\": {{\"name\": \"{name}\"}}}}"
            ));
        }
        for event in timeline.iter() {
            events.push(format!(
                "{{\"name\": \"{}\", \"ph\": \"X\", \"pid\": {rank}, \"tid\": {}, \"ts\": {:.3}, \"dur\": {:.3}, \"args\": {{{}}}}}",
                event.name, event.track, event.begin, event.duration, event.args
            ));
        }
    }
    format!("{{\"traceEvents\": [\n{}\n]}}\n", events.join(",\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_errors_rank_and_location_are_read_back() {
        let at = "rank 12: k.mlir:5:3: pto.comm_tnotify: notify on a cell outside every window";
        assert_eq!(error_place(at), (Some(12), Some("k.mlir:5:3")));
        // A builtin's device call names no op; a fatal error names its call.
        let plain = "rank 0: a copy of 64 bytes outside every window";
        assert_eq!(error_place(plain), (Some(0), None));
        let fatal = Fatal {
            rank: 3,
            code: 5,
            message: "bad".into(),
            call: "dir/f.mlir:14:15: pld.tensor_all_to_all_v".into(),
        };
        assert_eq!(
            error_place(&fatal.to_string()),
            (Some(3), Some("dir/f.mlir:14:15"))
        );
        assert_eq!(error_place("no rank here: x.mlir:1:2: y"), (None, None));
        assert_eq!(error_place("rank 1: x.mlir:1: y"), (Some(1), None));
    }

    #[test]
    fn errors_are_reported_by_rank_each_rank_in_its_order() {
        let errors = [
            "rank 2: b",
            "rank 10: c",
            "rank 0: x",
            "rank 2: a",
            "rank 1: y",
        ];
        let sorted = in_rank_order(errors.iter().map(|e| e.to_string()).collect());
        assert_eq!(
            sorted,
            [
                "rank 0: x",
                "rank 1: y",
                "rank 2: b",
                "rank 2: a",
                "rank 10: c"
            ]
        );
    }

    /// A fatal error, and a device error without an op of its own (a
    /// builtin kernel's), are led by the call a program's task named; the
    /// same refusal from several blocks of one rank is one fatal error.
    #[test]
    fn a_call_names_its_fatal_and_siteless_errors_once_per_rank() {
        let domain = CommDomain::new(2, 64).unwrap();
        let outcome = Run::new(&domain, Duration::from_secs(5)).execute("@k", |_env| {
            label_current_call(Some(("pld.tensor_allreduce".into(), "f.mlir:3:8".into())));
            for _ in 0..3 {
                // SAFETY: a NUL-terminated message, on a rank thread.
                unsafe { crate::runtime::ffi::pld_sim_fatal(5, c"refused".as_ptr()) };
            }
            with_current(|state, rank| state.error_at(rank, -1, "a copy went wrong".into()));
            label_current_call(None);
        });
        let mut fatals: Vec<String> = outcome.fatals.iter().map(ToString::to_string).collect();
        fatals.sort();
        assert_eq!(
            fatals,
            [
                "rank 0: f.mlir:3:8: pld.tensor_allreduce: fatal error (code 5): refused",
                "rank 1: f.mlir:3:8: pld.tensor_allreduce: fatal error (code 5): refused",
            ]
        );
        let mut errors = outcome.errors.clone();
        errors.sort();
        assert_eq!(
            errors,
            [
                "rank 0: f.mlir:3:8: pld.tensor_allreduce: a copy went wrong",
                "rank 1: f.mlir:3:8: pld.tensor_allreduce: a copy went wrong",
            ]
        );
    }
}
