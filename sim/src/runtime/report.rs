//! What the simulator tells the user when a run goes wrong: deadlocks,
//! credit leaks, and what explore mode found ([`Finding`]).

use crate::runtime::sites::Site;
use std::fmt;
use std::ops::Range;
use std::time::Duration;

/// Decisions in a row without progress (no agent wrote, notified, got past
/// a wait or a test, moved a copy or ended) after which a schedule is
/// declared not to make progress: a rank that polls with `pto.comm.ttest`
/// forever, say. A long schedule that progresses is never cut (a ring
/// allreduce on 64 ranks takes tens of millions of decisions).
pub const NO_PROGRESS_STEPS: u64 = 1_000_000;

/// Where a rank of a run that has not ended is (for `--time-limit`'s
/// message): running code, in a wait (at its op when the lowering named
/// it), or finished.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RankSeen {
    /// Its kernel has not begun: the ranks that share its worker thread
    /// (as fibers) ahead of it have not let it run.
    NotStarted,
    Runs,
    Waits(Option<Site>),
    Finished,
}

impl RankSeen {
    /// `rank 1 runs, in no wait (in @k)`, `rank 0 waits (pto.comm_twait at
    /// k.mlir:8:10)`, `rank 2 finished`; `kernel`: what a program's rank
    /// runs.
    pub fn said(&self, rank: usize, kernel: Option<&str>) -> String {
        let within = kernel.map_or(String::new(), |k| format!(" in {k}"));
        match self {
            RankSeen::NotStarted => format!("rank {rank} has not started"),
            RankSeen::Runs => format!("rank {rank} runs{within}, in no wait"),
            RankSeen::Waits(Some(site)) => format!("rank {rank} waits{within} ({site})"),
            RankSeen::Waits(None) => format!("rank {rank} waits{within}"),
            RankSeen::Finished => format!("rank {rank} finished"),
        }
    }
}

/// A rank stuck in a wait when the run was declared deadlocked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockedRank {
    pub rank: usize,
    /// `(block_idx, block_num)` when the stuck thread is a block of a
    /// launch (a builtin kernel), `None` for the rank's own thread.
    pub block: Option<(i32, i32)>,
    /// The kernel it was running.
    pub kernel: String,
    /// Whose window holds the cell, and the cell's byte offset in it.
    pub window: Option<usize>,
    pub offset: usize,
    /// `==` or `>=`.
    pub cmp: &'static str,
    pub expected: i32,
    /// The cell's value when the deadlock was declared.
    pub actual: i32,
    /// The op whose wait it is, when the lowering named it (`pld_sim_at`).
    pub site: Option<Site>,
}

/// What a rank of a program ran when it blocked: the kernel of the task
/// (`@divergent`, or a builtin's variant) and, for a builtin, whose
/// kernel has no sites, the HOST collective it carries out
/// (`pld.tensor_allreduce at k.mlir:3:8`). A deadlock report names it
/// instead of the run's entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Within {
    pub kernel: String,
    pub call: Option<Site>,
}

impl Within {
    /// `blocked` as named by what its rank ran: the kernel, and the call
    /// where the wait itself has no site.
    pub fn name(&self, blocked: &mut BlockedRank) {
        blocked.kernel = self.kernel.clone();
        if blocked.site.is_none() {
            blocked.site = self.call.clone();
        }
    }
}

/// Every live rank blocked in a wait for longer than the deadline (or, in
/// explore mode, where `deadline` is zero: no thread able to run).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeadlockReport {
    pub deadline: Duration,
    pub blocked: Vec<BlockedRank>,
    /// Ranks that had already finished.
    pub finished: Vec<usize>,
}

impl fmt::Display for DeadlockReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.deadline.is_zero() {
            writeln!(
                f,
                "deadlock: no thread of any rank can run; each live one waits for a signal no \
                 rank is left to give"
            )?;
        } else {
            writeln!(
                f,
                "deadlock: every live rank has waited for more than {:.1?} with no rank left to \
                 notify it",
                self.deadline
            )?;
        }
        for b in &self.blocked {
            let place = match b.window {
                Some(w) => format!("rank {w}'s window, byte {}", b.offset),
                None => format!("address {:#x}", b.offset),
            };
            let block = b
                .block
                .map_or(String::new(), |(i, n)| format!(" block {i} of {n}"));
            let site = b.site.as_ref().map_or(String::new(), |s| format!(" ({s})"));
            writeln!(
                f,
                "  rank {}{block} in {}: waits for the i32 cell at {place} (i32 cell {} of the window) {} {}, \
                 which holds {}{site}",
                b.rank,
                b.kernel,
                b.offset / 4,
                b.cmp,
                b.expected,
                b.actual
            )?;
        }
        if !self.finished.is_empty() {
            let list: Vec<String> = self.finished.iter().map(|r| r.to_string()).collect();
            writeln!(f, "  finished: rank {}", list.join(", "))?;
        }
        Ok(())
    }
}

/// A signal cell that did not return to zero after a collective.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellLeak {
    /// Whose window.
    pub rank: usize,
    /// The cell's index in the signal buffer.
    pub index: usize,
    pub value: i32,
}

impl fmt::Display for CellLeak {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "rank {}'s signal cell {} holds {} (should be back to 0)",
            self.rank, self.index, self.value
        )
    }
}

/// Two accesses to the same bytes that no signal orders.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Conflict {
    /// A read of bytes whose write it is not ordered after.
    ReadAfterWrite,
    /// A write over bytes whose last write it is not ordered after.
    WriteAfterWrite,
    /// A write over bytes a read it is not ordered after still reads.
    WriteAfterRead,
}

/// One access a finding names: who, and at which op.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Actor {
    pub rank: usize,
    /// The op (`None` for the calls of a builtin kernel, which have no
    /// site; `kernel` names it then).
    pub site: Option<Site>,
    pub kernel: String,
    /// For a builtin kernel's access in a program: the call it serves
    /// (`pld.tensor_allreduce at k.mlir:9:3`).
    pub call: Option<String>,
    /// The access is an asynchronous copy's (`TPUT_ASYNC`, `TGET_ASYNC`),
    /// made at some moment between its submit and its wait.
    pub asynchronous: bool,
}

impl Actor {
    fn op(&self) -> String {
        let op = match &self.site {
            Some(site) => format!("`{}` at {}", site.op, site.location),
            None => match &self.call {
                Some(call) => format!("builtin kernel of {call}"),
                None => format!("call in {}", self.kernel),
            },
        };
        if self.asynchronous {
            format!("asynchronous copy by {op} (in flight until a wait on its event)")
        } else {
            op
        }
    }
}

impl Actor {
    /// The actor as the op that made the access, without the asynchronous
    /// copy's note (for findings about the submit itself).
    fn plain(&self) -> Actor {
        Actor {
            asynchronous: false,
            ..self.clone()
        }
    }
}

impl fmt::Display for Actor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "rank {}'s {}", self.rank, self.op())
    }
}

/// Where bytes lie.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Memory {
    /// Rank `n`'s window; ranges are offsets from its base.
    Window(usize),
    /// Rank `n`'s own memory outside every window (a tile or a buffer the
    /// run gave its kernel); ranges are addresses. Only the rank's agents
    /// and its asynchronous copies reach it.
    Own(usize),
}

/// Bytes of a window, or of a rank's own memory: whose, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bytes {
    pub memory: Memory,
    pub range: Range<usize>,
}

impl Bytes {
    /// Bytes `range` of rank `window`'s window.
    pub fn window(window: usize, range: Range<usize>) -> Self {
        Bytes {
            memory: Memory::Window(window),
            range,
        }
    }

    /// What `namer` calls window bytes (`%data[0, 16]..[0, 32]`); `None`
    /// for a rank's own memory, which no namer knows.
    pub fn named(&self, namer: Namer) -> Option<String> {
        match self.memory {
            Memory::Window(window) => namer(window, &self.range),
            Memory::Own(_) => None,
        }
    }
}

/// What explore mode found wrong in one schedule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Finding {
    /// Two accesses of the same bytes, at least one a write, that no
    /// signal orders.
    Race {
        conflict: Conflict,
        /// The later access (the one that found the conflict) and the
        /// earlier one.
        later: Actor,
        earlier: Actor,
        bytes: Bytes,
    },
    /// A notify after a write into another rank's window with no fence in
    /// between: the signal can overtake the data.
    UnfencedNotify {
        notify: Actor,
        write: Actor,
        bytes: Bytes,
    },
    /// Set and AtomicAdd on one cell, not ordered by a signal: the Set can
    /// clobber a credit.
    MixedNotify { set: Actor, add: Actor, cell: Bytes },
    /// A wait left blocked at the deadlock on a cell that no rank notified
    /// in the whole run.
    NeverNotified { wait: Actor, cell: Bytes },
    /// A notify or wait on a cell outside every signal (and Set-written
    /// data cell) of the kernel: an index past the signal's extent.
    OutsideSignals { op: Actor, cell: Bytes },
    /// The schedule took the explorer's limit of decisions in a row
    /// without progress (`explore::scheduler::NO_PROGRESS_STEPS`); `steps`
    /// is how many it took in all, `polling` the ranks that polled then (a
    /// test that did not hold, or one scalar read over and over), at the
    /// op they polled with last.
    NoProgress { steps: u64, polling: Vec<Actor> },
    /// Two agents used one URMA queue (PER_PEER mode: one writer per
    /// queue) with no signal ordering them: `rank`'s queue to `peer`.
    SharedQueue {
        first: Actor,
        second: Actor,
        rank: usize,
        peer: usize,
    },
    /// An asynchronous copy whose event no wait or test completed before
    /// its submitter ended.
    UnwaitedCopy { submit: Actor },
}

/// How findings name window bytes: `(window, range)` to a buffer and
/// element description such as `%data[0, 16]..[0, 32]`, when known.
pub type Namer<'n> = &'n dyn Fn(usize, &Range<usize>) -> Option<String>;

fn bytes_text(bytes: &Bytes, namer: Namer) -> String {
    match bytes.memory {
        Memory::Window(window) => {
            let named = bytes
                .named(namer)
                .map(|n| format!(" ({n})"))
                .unwrap_or_default();
            format!(
                "bytes [{}, {}) of rank {window}'s window{named}",
                bytes.range.start, bytes.range.end
            )
        }
        // (Addresses differ from run to run.)
        Memory::Own(rank) => format!(
            "{} bytes of rank {rank}'s own memory (a tile, or a buffer outside its window)",
            bytes.range.len()
        ),
    }
}

/// The ranks that polled when a schedule was cut, each op once with its
/// ranks (``; polling then: `pto.comm_ttest` at k.mlir:9:10 (ranks 0, 1)``),
/// empty for none known.
pub fn polling_text(polling: &[Actor]) -> String {
    let mut ops: Vec<(String, Vec<usize>)> = Vec::new();
    for actor in polling {
        let op = actor.op();
        match ops.iter_mut().find(|(o, _)| *o == op) {
            Some((_, ranks)) => ranks.push(actor.rank),
            None => ops.push((op, vec![actor.rank])),
        }
    }
    let each: Vec<String> = (ops.iter())
        .map(|(op, ranks)| {
            let listed: Vec<String> = ranks.iter().map(usize::to_string).collect();
            let word = if ranks.len() == 1 { "rank" } else { "ranks" };
            format!("{op} ({word} {})", listed.join(", "))
        })
        .collect();
    match each.is_empty() {
        true => String::new(),
        false => format!("; polling then: {}", each.join(", ")),
    }
}

impl Finding {
    /// A one-paragraph report, naming bytes with `namer`.
    pub fn describe(&self, namer: Namer) -> String {
        match self {
            Finding::Race {
                conflict,
                later,
                earlier,
                bytes,
            } => {
                let (did, by) = match conflict {
                    Conflict::ReadAfterWrite => ("read", "written by"),
                    Conflict::WriteAfterWrite => ("wrote", "also written by"),
                    Conflict::WriteAfterRead => ("wrote", "read by"),
                };
                format!(
                    "race: {later} {did} {}, {by} {earlier}; no signal orders them",
                    bytes_text(bytes, namer)
                )
            }
            Finding::UnfencedNotify {
                notify,
                write,
                bytes,
            } => format!(
                "missing fence: {notify} follows {write}, which wrote {}, with no fence \
                 (`pld.system_fence`, `pto.fence_barrier_all`) in between: the signal can reach \
                 the peer before the data",
                bytes_text(bytes, namer)
            ),
            Finding::MixedNotify { set, add, cell } => format!(
                "Set and AtomicAdd mixed on one cell: {set} sets the i32 cell at {} that {add} \
                 adds to, and no signal orders them (a Set can clobber a credit)",
                bytes_text(cell, namer)
            ),
            Finding::NeverNotified { wait, cell } => format!(
                "wait on a cell no rank ever notifies: {wait} waits on the i32 cell at {}",
                bytes_text(cell, namer)
            ),
            Finding::OutsideSignals { op, cell } => format!(
                "signal cell outside the signals: {op} uses the i32 cell at {}, which is not in \
                 a signal of the kernel (an index past the signal's shape?)",
                bytes_text(cell, namer)
            ),
            Finding::NoProgress { steps, polling } => format!(
                "no progress: after {steps} steps the schedule had taken {} in a row in which no \
                 rank wrote, notified, got past a wait or a test, moved a copy or ended (a rank \
                 polling a flag with pto.comm_ttest or scalar reads forever? A loop of that many \
                 reads with nothing else between counts too){}",
                NO_PROGRESS_STEPS,
                polling_text(polling)
            ),
            Finding::SharedQueue {
                first,
                second,
                rank,
                peer,
            } => format!(
                "two writers on one PER_PEER queue: {second} uses rank {rank}'s URMA queue to \
                 rank {peer}, which {first} used too, and no signal orders them (PER_PEER mode \
                 allows one writer per queue)",
                second = second.plain(),
                first = first.plain()
            ),
            Finding::UnwaitedCopy { submit } => format!(
                "event never waited for: {} submitted an asynchronous copy, and no wait or \
                 test of its event succeeded before it ended (a leaked completion)",
                submit.plain()
            ),
        }
    }

    /// What identifies the finding across schedules (the ops involved,
    /// not the bytes or ranks).
    pub fn key(&self) -> String {
        let op = |a: &Actor| {
            a.site
                .as_ref()
                .map_or_else(|| a.kernel.clone(), |s| s.to_string())
        };
        match self {
            // The same two ops race whichever runs first.
            Finding::Race { later, earlier, .. } => {
                let mut pair = [op(later), op(earlier)];
                pair.sort();
                format!("race {} {}", pair[0], pair[1])
            }
            Finding::UnfencedNotify { notify, write, .. } => {
                format!("fence {} {}", op(notify), op(write))
            }
            Finding::MixedNotify { set, add, .. } => format!("mixed {} {}", op(set), op(add)),
            Finding::NeverNotified { wait, .. } => format!("never {}", op(wait)),
            Finding::OutsideSignals { op: actor, .. } => format!("outside {}", op(actor)),
            Finding::NoProgress { .. } => "no progress".into(),
            Finding::SharedQueue { first, second, .. } => {
                let mut pair = [op(first), op(second)];
                pair.sort();
                format!("queue {} {}", pair[0], pair[1])
            }
            Finding::UnwaitedCopy { submit } => format!("unwaited {}", op(submit)),
        }
    }

    /// The source sites the finding names, later access first, each once.
    pub fn sites(&self) -> Vec<&Site> {
        let actors: Vec<&Actor> = match self {
            Finding::Race { later, earlier, .. } => vec![later, earlier],
            Finding::UnfencedNotify { notify, write, .. } => vec![notify, write],
            Finding::MixedNotify { set, add, .. } => vec![set, add],
            Finding::NeverNotified { wait, .. } => vec![wait],
            Finding::OutsideSignals { op, .. } => vec![op],
            Finding::NoProgress { polling, .. } => polling.iter().collect(),
            Finding::SharedQueue { first, second, .. } => vec![second, first],
            Finding::UnwaitedCopy { submit } => vec![submit],
        };
        let mut sites: Vec<&Site> = Vec::new();
        for site in actors.into_iter().filter_map(|a| a.site.as_ref()) {
            if !sites.contains(&site) {
                sites.push(site);
            }
        }
        sites
    }
}

impl Finding {
    /// [`Finding::describe`], each op named as the user wrote it where
    /// `pld_op` knows the pld op at a site's `file:line:col` (the PTO op it
    /// became in parentheses): `` `pld.tile_remote_load` (pto.tload) at
    /// k.mlir:17:8 `` for `` `pto.tload` at k.mlir:17:8 ``. What `pld-run`,
    /// the C API and the Python package report.
    pub fn describe_in_source(
        &self,
        namer: Namer,
        pld_op: &dyn Fn(&str) -> Option<String>,
    ) -> String {
        let mut text = self.describe(namer);
        for site in self.sites() {
            if let Some(pld) = pld_op(&site.location) {
                let pto = format!("`{}` at {}", site.op, site.location);
                let both = format!("`{pld}` ({}) at {}", site.op, site.location);
                text = text.replace(&pto, &both);
            }
        }
        text
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe(&|_, _| None))
    }
}
