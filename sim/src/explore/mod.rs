//! Explore mode (docs/memory-model.md): runs under a seeded scheduler
//! ([`scheduler`]) with a happens-before checker that finds what a plain
//! run's lucky interleaving hides: reads and writes of window bytes that no
//! signal orders, notifies that publish a remote write no fence completed,
//! Set and AtomicAdd mixed on one cell, and waits on cells no rank ever
//! notifies.

pub mod clock;
pub mod scheduler;
pub mod shadow;

use crate::sites::{self, Site};
use clock::Clock;
use pld_dialect::enums::NotifyOp;
use shadow::{Access, Conflict, Shadow};
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::ops::Range;

/// One access a finding names: who, and at which op.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Actor {
    pub rank: usize,
    /// The op (`None` for the calls of a builtin kernel, which have no
    /// site; `kernel` names it then).
    pub site: Option<Site>,
    pub kernel: String,
}

impl Actor {
    fn op(&self) -> String {
        match &self.site {
            Some(site) => format!("`{}` at {}", site.op, site.location),
            None => format!("call in {}", self.kernel),
        }
    }
}

impl fmt::Display for Actor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "rank {}'s {}", self.rank, self.op())
    }
}

/// Bytes of a window: whose, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bytes {
    pub window: usize,
    pub range: Range<usize>,
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
    /// The schedule made no progress in [`scheduler::MAX_STEPS`] decisions.
    NoProgress { steps: u64 },
}

/// How findings name window bytes: `(window, range)` to a buffer and
/// element description such as `%data[0, 16]..[0, 32]`, when known.
pub type Namer<'n> = &'n dyn Fn(usize, &Range<usize>) -> Option<String>;

fn bytes_text(bytes: &Bytes, namer: Namer) -> String {
    let named = namer(bytes.window, &bytes.range)
        .map(|n| format!(" ({n})"))
        .unwrap_or_default();
    format!(
        "bytes [{}, {}) of rank {}'s window{named}",
        bytes.range.start, bytes.range.end, bytes.window
    )
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
            Finding::NoProgress { steps } => format!(
                "no progress: the schedule took {steps} steps without finishing (a rank polling \
                 with pto.comm.ttest forever?)"
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
        }
    }

    /// The source sites the finding names, later access first.
    pub fn sites(&self) -> Vec<&Site> {
        let actors: Vec<&Actor> = match self {
            Finding::Race { later, earlier, .. } => vec![later, earlier],
            Finding::UnfencedNotify { notify, write, .. } => vec![notify, write],
            Finding::MixedNotify { set, add, .. } => vec![set, add],
            Finding::NeverNotified { wait, .. } => vec![wait],
            Finding::OutsideSignals { op, .. } => vec![op],
            Finding::NoProgress { .. } => vec![],
        };
        actors.into_iter().filter_map(|a| a.site.as_ref()).collect()
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe(&|_, _| None))
    }
}

/// The schedule one explore-mode run follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Schedule {
    pub seed: u64,
}

/// An agent's last write into another rank's window since its last fence.
#[derive(Clone, Copy)]
struct Unfenced {
    site: i64,
    window: usize,
    range: (usize, usize),
}

/// A signal cell's history, for release/acquire and the Set/AtomicAdd
/// rule.
#[derive(Default)]
struct CellState {
    clock: Clock,
    /// The last Set, and the AtomicAdds since (one per agent).
    set: Option<Access>,
    adds: Vec<Access>,
}

/// The happens-before state of one explore-mode run. The scheduler runs one
/// agent at a time, so one lock around this is uncontended.
pub struct Checker {
    /// Per agent: its clock, rank and the kernel it runs.
    clocks: Vec<Clock>,
    ranks: Vec<usize>,
    kernel: String,
    cells: HashMap<(usize, usize), CellState>,
    shadows: Vec<Shadow>,
    unfenced: Vec<Option<Unfenced>>,
    /// Cells any notify touched, by (window, offset).
    notified: HashSet<(usize, usize)>,
    findings: Vec<Finding>,
    keys: HashSet<String>,
}

/// How much of a copy's strided block the checker tracks as separate
/// intervals before it falls back to the block's extent.
const MAX_INTERVALS: usize = 4096;

impl Checker {
    pub fn new(windows: usize, kernel: &str) -> Self {
        Checker {
            clocks: Vec::new(),
            ranks: Vec::new(),
            kernel: kernel.to_string(),
            cells: HashMap::new(),
            shadows: (0..windows).map(|_| Shadow::default()).collect(),
            unfenced: Vec::new(),
            notified: HashSet::new(),
            findings: Vec::new(),
            keys: HashSet::new(),
        }
    }

    /// Agent `agent` of rank `rank` starts; a block inherits what its
    /// `parent` knew.
    pub fn start(&mut self, agent: usize, rank: usize, parent: Option<usize>) {
        let inherited = parent.and_then(|p| self.clocks.get(p)).cloned();
        if self.clocks.len() <= agent {
            self.clocks.resize(agent + 1, Clock::default());
            self.ranks.resize(agent + 1, 0);
            self.unfenced.resize(agent + 1, None);
        }
        self.clocks[agent] = Clock::fresh(agent, inherited.as_ref());
        self.ranks[agent] = rank;
        if let Some(p) = parent {
            // What the parent does after the launch is not ordered before
            // the block.
            self.clocks[p].tick(clock::plain(p));
        }
    }

    /// A block ended: its launcher, which joins it, knows what it did.
    pub fn join(&mut self, agent: usize, parent: usize) {
        let child = self.clocks[agent].clone();
        self.clocks[parent].join(&child);
    }

    fn actor(&self, agent: usize, site: i64) -> Actor {
        Actor {
            rank: self.ranks[agent],
            site: sites::get(site),
            kernel: self.kernel.clone(),
        }
    }

    fn access(&self, agent: usize, component: usize, site: i64) -> Access {
        Access {
            agent,
            rank: self.ranks[agent],
            component,
            epoch: self.clocks[agent].get(component),
            site,
        }
    }

    fn report(&mut self, finding: Finding) {
        if self.keys.insert(finding.key()) {
            self.findings.push(finding);
        }
    }

    /// `pto.fence.barrier_all`: the agent's earlier remote writes are
    /// complete; the next notify publishes them.
    pub fn fence(&mut self, agent: usize) {
        self.clocks[agent].tick(clock::remote(agent));
        self.unfenced[agent] = None;
    }

    /// A notify of the cell at `cell` (window, offset).
    pub fn notify(&mut self, agent: usize, cell: (usize, usize), op: NotifyOp, site: i64) {
        self.notified.insert(cell);
        // Reported once per unfenced write (later notifies repeat it).
        if let Some(write) = self.unfenced[agent].take() {
            self.report(Finding::UnfencedNotify {
                notify: self.actor(agent, site),
                write: self.actor(agent, write.site),
                bytes: Bytes {
                    window: write.window,
                    range: write.range.0..write.range.1,
                },
            });
        }
        let clock = &self.clocks[agent];
        let released = clock.released(agent);
        let me = self.access(agent, clock::plain(agent), site);
        let state = self.cells.entry(cell).or_default();
        let mixed = match op {
            NotifyOp::AtomicAdd => {
                let clash = state
                    .set
                    .filter(|s| !s.ordered_before(agent, clock))
                    .map(|s| (s, me));
                state.clock.join(&released);
                state.adds.retain(|a| a.agent != agent);
                state.adds.push(me);
                clash
            }
            NotifyOp::Set => {
                let clash = state
                    .adds
                    .iter()
                    .find(|a| !a.ordered_before(agent, clock))
                    .map(|a| (me, *a));
                state.clock = released;
                state.set = Some(me);
                state.adds.clear();
                clash
            }
        };
        if let Some((set, add)) = mixed {
            self.report(Finding::MixedNotify {
                set: self.actor(set.agent, set.site),
                add: self.actor(add.agent, add.site),
                cell: Bytes {
                    window: cell.0,
                    range: cell.1..cell.1 + 4,
                },
            });
        }
        self.clocks[agent].tick(clock::plain(agent));
    }

    /// A wait or test that saw its condition hold on `cell`.
    pub fn acquire(&mut self, agent: usize, cell: (usize, usize)) {
        if let Some(state) = self.cells.get(&cell) {
            let clock = state.clock.clone();
            self.clocks[agent].join(&clock);
        }
    }

    /// A notify or wait on `cell`, which is outside the kernel's signals.
    pub fn outside_signals(&mut self, agent: usize, cell: (usize, usize), site: i64) {
        self.report(Finding::OutsideSignals {
            op: self.actor(agent, site),
            cell: Bytes {
                window: cell.0,
                range: cell.1..cell.1 + 4,
            },
        });
    }

    /// A wait left blocked at a deadlock: reported when no rank ever
    /// notified its cell.
    pub fn stuck(&mut self, agent: usize, cell: (usize, usize), site: i64) {
        if !self.notified.contains(&cell) {
            self.report(Finding::NeverNotified {
                wait: self.actor(agent, site),
                cell: Bytes {
                    window: cell.0,
                    range: cell.1..cell.1 + 4,
                },
            });
        }
    }

    /// A copy's side in a window: `rows` rows of `cols` elements of
    /// `elem` bytes from byte `offset`, strides in elements.
    #[allow(clippy::too_many_arguments)]
    pub fn copy_side(
        &mut self,
        agent: usize,
        window: usize,
        offset: usize,
        [row_stride, col_stride]: [i64; 2],
        [rows, cols]: [i64; 2],
        elem: usize,
        write: Option<bool>,
        site: i64,
    ) {
        let ranges = intervals(offset, [row_stride, col_stride], [rows, cols], elem);
        let remote = write.is_some() && window != self.ranks[agent];
        let component = if remote {
            clock::remote(agent)
        } else {
            clock::plain(agent)
        };
        let me = self.access(agent, component, site);
        let clock = self.clocks[agent].clone();
        let mut found = Vec::new();
        for range in &ranges {
            found.extend(match write {
                None => self.shadows[window].read(range.clone(), me, &clock),
                Some(accumulate) => {
                    self.shadows[window].write(range.clone(), me, &clock, accumulate)
                }
            });
        }
        if remote {
            let (start, end) = (ranges[0].start, ranges[ranges.len() - 1].end);
            self.unfenced[agent] = Some(Unfenced {
                site,
                window,
                range: (start, end),
            });
        }
        for (conflict, earlier, bytes) in found {
            self.report(Finding::Race {
                conflict,
                later: self.actor(agent, site),
                earlier: self.actor(earlier.agent, earlier.site),
                bytes: Bytes {
                    window,
                    range: bytes,
                },
            });
        }
    }

    pub fn findings(self) -> Vec<Finding> {
        self.findings
    }
}

/// The byte intervals a strided block covers: one per row when rows are
/// contiguous, one per element otherwise (up to [`MAX_INTERVALS`], then
/// the extent).
fn intervals(
    offset: usize,
    [row_stride, col_stride]: [i64; 2],
    [rows, cols]: [i64; 2],
    elem: usize,
) -> Vec<Range<usize>> {
    let (rows, cols) = (rows.max(0) as usize, cols.max(0) as usize);
    let (rs, cs) = (row_stride.max(0) as usize, col_stride.max(0) as usize);
    let at = |r: usize, c: usize| offset + (r * rs + c * cs) * elem;
    if rows == 0 || cols == 0 {
        return std::iter::once(offset..offset).collect();
    }
    if cs == 1 && (rs == cols || rows == 1) {
        return std::iter::once(offset..offset + rows * cols * elem).collect();
    }
    if cs == 1 && rows <= MAX_INTERVALS {
        return (0..rows)
            .map(|r| at(r, 0)..at(r, 0) + cols * elem)
            .collect();
    }
    if rows * cols <= MAX_INTERVALS {
        return (0..rows)
            .flat_map(|r| (0..cols).map(move |c| (r, c)))
            .map(|(r, c)| at(r, c)..at(r, c) + elem)
            .collect();
    }
    std::iter::once(offset..at(rows - 1, cols - 1) + elem).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strided_blocks_become_rows_or_elements() {
        assert_eq!(intervals(0, [4, 1], [2, 4], 4), vec![(0..32)]);
        assert_eq!(intervals(0, [8, 1], [2, 4], 4), vec![0..16, 32..48]);
        assert_eq!(intervals(0, [1, 4], [1, 2], 4), vec![0..4, 16..20]);
    }

    #[test]
    fn a_notify_without_a_fence_after_a_remote_write_is_reported() {
        let mut c = Checker::new(2, "@k");
        c.start(0, 0, None);
        c.start(1, 1, None);
        c.copy_side(0, 1, 0, [4, 1], [1, 4], 4, Some(false), -1);
        c.notify(0, (1, 64), NotifyOp::AtomicAdd, -1);
        // The peer acquires the notify and reads the data: the write was
        // never fenced, so the read races too.
        c.acquire(1, (1, 64));
        c.copy_side(1, 1, 0, [4, 1], [1, 4], 4, None, -1);
        let findings = c.findings();
        assert!(matches!(findings[0], Finding::UnfencedNotify { .. }));
        assert!(matches!(
            findings[1],
            Finding::Race {
                conflict: Conflict::ReadAfterWrite,
                ..
            }
        ));
    }

    #[test]
    fn a_fenced_write_published_by_a_notify_is_ordered() {
        let mut c = Checker::new(2, "@k");
        c.start(0, 0, None);
        c.start(1, 1, None);
        c.copy_side(0, 1, 0, [4, 1], [1, 4], 4, Some(false), -1);
        c.fence(0);
        c.notify(0, (1, 64), NotifyOp::AtomicAdd, -1);
        c.acquire(1, (1, 64));
        c.copy_side(1, 1, 0, [4, 1], [1, 4], 4, None, -1);
        assert!(c.findings().is_empty());
    }

    #[test]
    fn set_and_add_unordered_on_one_cell_are_reported_ordered_ones_not() {
        let mut c = Checker::new(2, "@k");
        c.start(0, 0, None);
        c.start(1, 1, None);
        c.notify(0, (0, 0), NotifyOp::Set, -1);
        c.acquire(1, (0, 0));
        c.notify(1, (0, 0), NotifyOp::AtomicAdd, -1);
        assert!(c.findings.is_empty(), "ordered by the acquire");
        c.notify(0, (0, 0), NotifyOp::Set, -1);
        assert!(matches!(c.findings[0], Finding::MixedNotify { .. }));
    }
}
