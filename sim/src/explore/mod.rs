//! Explore mode (docs/memory-model.md; layer 3 of 4, over
//! [`crate::runtime`]): runs under a seeded scheduler ([`scheduler`]) with a
//! happens-before checker that finds what a plain run's lucky interleaving
//! hides: reads and writes of window bytes that no signal orders, notifies
//! that publish a remote write no fence completed, Set and AtomicAdd mixed
//! on one cell, and waits on cells no rank ever notifies.
//!
//! A run reaches the scheduler and the checker through the runtime's
//! [`Explorer`] trait, which this module implements; a [`Schedule`] makes
//! one for each run (`Run::explore`).

pub mod clock;
pub mod scheduler;
pub mod shadow;

use crate::runtime::domain::CommDomain;
use crate::runtime::explorer::{
    DmaSubmit, Explorer, ExplorerFactory, MemoryAccess, Place, Verdict,
};
pub use crate::runtime::report::{Actor, Bytes, Finding, Memory, Namer};
use crate::runtime::report::{BlockedRank, DeadlockReport};
use crate::runtime::signal::Compare;
use crate::runtime::sites;
use clock::Clock;
use pld_dialect::enums::{NotifyOp, WaitCmp};
use scheduler::{Deadlock, Scheduler, Waited};
use shadow::{Access, Shadow, Stamp};
use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::sync::atomic::AtomicI32;
use std::sync::Mutex;
use std::time::Duration;

/// The schedule one explore-mode run follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Schedule {
    pub seed: u64,
}

impl ExplorerFactory for Schedule {
    fn explorer(&self, ranks: usize, kernel: &str) -> Box<dyn Explorer> {
        Box::new(Explore {
            scheduler: Scheduler::new(ranks, self.seed),
            checker: Mutex::new(Checker::new(ranks, kernel)),
        })
    }
}

/// Explore mode's part of a run: the scheduler and the checker.
struct Explore {
    scheduler: Scheduler,
    checker: Mutex<Checker>,
}

impl Explore {
    fn checker(&self) -> std::sync::MutexGuard<'_, Checker> {
        self.checker.lock().unwrap()
    }
}

impl Explorer for Explore {
    fn rank_started(&self, rank: usize) {
        self.checker().start(rank, rank, None);
        self.scheduler.point(rank);
    }

    fn rank_finished(&self, rank: usize) {
        self.scheduler.progressed();
        self.scheduler.finish(rank);
    }

    fn call_label(&self, rank: usize, label: Option<String>) {
        self.checker().label_call(rank, label);
    }

    fn launched(&self, rank: usize, blocks: usize) -> usize {
        self.scheduler.fork(rank, blocks)
    }

    fn block_started(&self, agent: usize, rank: usize) {
        self.checker().start(agent, rank, Some(rank));
    }

    fn block_exited(&self, agent: usize, rank: usize) {
        self.scheduler.progressed();
        self.checker().join(agent, rank);
        self.scheduler.finish(agent);
    }

    fn turn(&self, agent: usize) -> bool {
        self.scheduler.point(agent);
        !self.scheduler.is_free()
    }

    fn is_free(&self) -> bool {
        self.scheduler.is_free()
    }

    fn pass(&self) {
        self.scheduler.pass();
    }

    fn scalar(&self, agent: usize, site: i64, write: bool) {
        if write {
            self.scheduler.progressed();
        }
        self.scheduler.scalar_read(agent, site, write);
    }

    fn accessed(&self, agent: usize, access: MemoryAccess, site: i64) {
        // A write into a rank's own memory (a tile, a buffer) is no
        // progress another rank can see: a rank polling through a tile is
        // cut as before.
        if access.write.is_some() && matches!(access.memory, Memory::Window(_)) {
            self.scheduler.progressed();
        }
        self.checker().copy_side(agent, access, site);
    }

    fn notified(&self, agent: usize, cell: Place, op: NotifyOp, site: i64, outside: bool) {
        self.scheduler.progressed();
        let mut checker = self.checker();
        if outside {
            checker.outside_signals(agent, cell, site);
        }
        checker.notify(agent, cell, op, site);
    }

    fn wait(
        &self,
        agent: usize,
        value: &AtomicI32,
        cell: Place,
        expected: i32,
        cmp: WaitCmp,
        site: i64,
        outside: bool,
    ) {
        let waited = self.scheduler.wait(agent, value, expected, cmp, site);
        let mut checker = self.checker();
        if waited != Waited::Unchecked && outside {
            checker.outside_signals(agent, cell, site);
        }
        match waited {
            Waited::Held => {
                self.scheduler.progressed();
                checker.acquire(agent, cell)
            }
            Waited::Stuck => checker.stuck(agent, cell, site),
            // After the schedule ended nothing is checked: the ranks run on
            // past waits that did not hold.
            Waited::Unchecked => {}
        }
    }

    fn tested(&self, agent: usize, cell: Place, holds: bool, site: i64) {
        if holds {
            self.scheduler.progressed();
            self.checker().acquire(agent, cell);
        } else {
            self.scheduler.polled(agent, site);
        }
    }

    fn fenced(&self, agent: usize) {
        self.checker().fence(agent);
    }

    fn dma_submitted(&self, agent: usize, dma: &DmaSubmit) {
        self.scheduler.progressed();
        self.checker().copy_submitted(agent, dma);
        self.scheduler.copy_submitted(dma.handle);
    }

    fn dma_due(&self) -> Vec<u64> {
        self.scheduler.copies_due()
    }

    fn dma_delivered(&self, handles: &[u64]) {
        self.scheduler.copies_delivered(handles);
    }

    fn dma_test(&self, agent: usize, handle: u64) -> bool {
        self.scheduler.copy_tested(agent, handle)
    }

    fn dma_completed(&self, agent: usize, handle: u64, site: i64) {
        self.scheduler.progressed();
        self.checker().copy_completed(agent, handle, site);
    }

    fn dma_unwaited(&self, _agent: usize, handle: u64) {
        self.checker().copy_unwaited(handle);
    }

    fn finish(self: Box<Self>, domain: &CommDomain, kernel: &str) -> Verdict {
        let (stuck, livelock, steps, digest) = self.scheduler.verdict();
        let mut findings = self.checker.into_inner().unwrap().findings();
        if let Some(pollers) = livelock {
            let polling = pollers.iter().map(|p| poller(kernel, p)).collect();
            findings.push(Finding::NoProgress { steps, polling });
        }
        Verdict {
            deadlock: stuck.map(|stuck| exact_deadlock(domain, kernel, &stuck)),
            findings,
            steps,
            digest,
        }
    }
}

/// A rank that polled when its schedule was cut, as a finding names it.
pub fn poller(kernel: &str, poller: &scheduler::Poller) -> Actor {
    Actor {
        rank: poller.rank,
        site: sites::get(poller.site),
        kernel: kernel.to_string(),
        call: None,
        asynchronous: false,
    }
}

/// The deadlock explore mode found: the threads that wait, and the ranks
/// that finished.
fn exact_deadlock(domain: &CommDomain, kernel: &str, deadlock: &Deadlock) -> DeadlockReport {
    let blocked = deadlock
        .stuck
        .iter()
        .map(|s| {
            let actual = s.actual;
            let located = domain.locate(s.cell as usize, 4);
            BlockedRank {
                rank: s.rank,
                block: s.block,
                kernel: kernel.to_string(),
                window: located.map(|(w, _)| w),
                offset: located.map_or(s.cell as usize, |(_, o)| o),
                cmp: s.cmp.symbol(),
                expected: s.expected,
                actual,
                site: sites::get(s.site),
            }
        })
        .collect();
    DeadlockReport {
        deadline: Duration::ZERO,
        blocked,
        finished: deadlock.finished.clone(),
    }
}

/// An agent's last write into another rank's window since its last fence.
#[derive(Clone, Copy)]
struct Unfenced {
    site: i64,
    window: usize,
    range: (usize, usize),
}

/// An asynchronous copy whose event is outstanding: who submitted it (and
/// its number among that agent's copies), where, and on which URMA queue.
#[derive(Clone, Copy)]
struct Outstanding {
    agent: usize,
    number: u32,
    site: i64,
    queue: Option<(usize, usize)>,
}

/// A signal cell's history, for release/acquire and the Set/AtomicAdd
/// rule.
#[derive(Default)]
struct CellState {
    clock: Clock,
    /// The last Set and the last AtomicAdd of each agent: a later notify of
    /// the other kind that is not ordered after one of them races with it,
    /// whatever notifies came between (an agent's earlier ones are ordered
    /// before its last, so the last stands for them all).
    sets: Vec<Access>,
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
    /// Per rank, its own memory (tiles, buffers) where an asynchronous
    /// copy read or wrote: the ranges, and their shadow. Only accesses
    /// there are tracked: elsewhere no other rank and no copy reaches it
    /// (docs/memory-model.md: accesses to it are not checked).
    own: HashMap<usize, (Ranges, Shadow)>,
    unfenced: Vec<Option<Unfenced>>,
    /// Cells any notify touched, by (window, offset).
    notified: HashSet<(usize, usize)>,
    /// Asynchronous copies by event, and how many each agent submitted.
    copies: HashMap<u64, Outstanding>,
    submitted: Vec<u32>,
    /// The last use of each URMA queue `(rank, peer)`: a submit, or a
    /// wait on one of its events.
    queues: HashMap<(usize, usize), Access>,
    findings: Vec<Finding>,
    keys: HashSet<String>,
    /// Per rank: the program call it runs, when told
    /// ([`Explorer::call_label`]), as its number in `labels`.
    calls: Vec<Option<u32>>,
    /// Every program call a rank ran (`pld.tensor_allreduce at f:l:c`),
    /// once each: accesses keep the number of theirs.
    labels: Vec<String>,
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
            own: HashMap::new(),
            unfenced: Vec::new(),
            notified: HashSet::new(),
            copies: HashMap::new(),
            submitted: Vec::new(),
            queues: HashMap::new(),
            findings: Vec::new(),
            keys: HashSet::new(),
            calls: Vec::new(),
            labels: Vec::new(),
        }
    }

    /// Rank `rank` runs program call `label` from now on (`None`: none).
    fn label_call(&mut self, rank: usize, label: Option<String>) {
        let number = label.map(|label| match self.labels.iter().position(|l| *l == label) {
            Some(i) => i as u32,
            None => {
                self.labels.push(label);
                self.labels.len() as u32 - 1
            }
        });
        if self.calls.len() <= rank {
            self.calls.resize(rank + 1, None);
        }
        self.calls[rank] = number;
    }

    /// The program call agent `agent`'s rank runs now, if any.
    fn call_of(&self, agent: usize) -> Option<u32> {
        self.calls.get(self.ranks[agent]).copied().flatten()
    }

    /// Agent `agent` of rank `rank` starts; a block inherits what its
    /// `parent` knew.
    pub fn start(&mut self, agent: usize, rank: usize, parent: Option<usize>) {
        let inherited = parent.and_then(|p| self.clocks.get(p)).cloned();
        if self.clocks.len() <= agent {
            self.clocks.resize(agent + 1, Clock::default());
            self.ranks.resize(agent + 1, 0);
            self.unfenced.resize(agent + 1, None);
            self.submitted.resize(agent + 1, 0);
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
        let rank = self.ranks[agent];
        Actor {
            rank,
            site: sites::get(site),
            kernel: self.kernel.clone(),
            // A call without a site is a builtin kernel's: named by the
            // program call it serves, when there is one.
            call: self.label(self.call_of(agent)),
            asynchronous: false,
        }
    }

    fn label(&self, call: Option<u32>) -> Option<String> {
        call.and_then(|c| self.labels.get(c as usize).cloned())
    }

    /// Who made `access`: its agent's op (and the call its rank ran then),
    /// or the asynchronous copy.
    fn actor_of(&self, access: &Access) -> Actor {
        Actor {
            asynchronous: access.is_copy(),
            call: self.label(access.call),
            ..self.actor(access.agent, access.site)
        }
    }

    fn access(&self, agent: usize, component: usize, site: i64) -> Access {
        Access {
            agent,
            rank: self.ranks[agent],
            stamp: Stamp::Agent {
                component,
                epoch: self.clocks[agent].get(component),
            },
            site,
            call: self.call_of(agent),
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
                bytes: Bytes::window(write.window, write.range.0..write.range.1),
            });
        }
        let clock = &self.clocks[agent];
        let released = clock.released(agent);
        let me = self.access(agent, clock::plain(agent), site);
        let state = self.cells.entry(cell).or_default();
        let mixed = match op {
            NotifyOp::AtomicAdd => {
                let clash = state
                    .sets
                    .iter()
                    .find(|s| !s.ordered_before(agent, clock))
                    .map(|s| (*s, me));
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
                state.sets.retain(|s| s.agent != agent);
                state.sets.push(me);
                clash
            }
        };
        if let Some((set, add)) = mixed {
            self.report(Finding::MixedNotify {
                set: self.actor_of(&set),
                add: self.actor_of(&add),
                cell: Bytes::window(cell.0, cell.1..cell.1 + 4),
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
            cell: Bytes::window(cell.0, cell.1..cell.1 + 4),
        });
    }

    /// A wait left blocked at a deadlock: reported when no rank ever
    /// notified its cell.
    pub fn stuck(&mut self, agent: usize, cell: (usize, usize), site: i64) {
        if !self.notified.contains(&cell) {
            self.report(Finding::NeverNotified {
                wait: self.actor(agent, site),
                cell: Bytes::window(cell.0, cell.1..cell.1 + 4),
            });
        }
    }

    /// A side of a copy, or a scalar access: in a window, or in the
    /// rank's own memory, which is tracked only where an asynchronous copy
    /// went (its source must not change, and its destination not be read,
    /// before its wait).
    pub fn copy_side(&mut self, agent: usize, access: MemoryAccess, site: i64) {
        let ranges = intervals(access.offset, access.strides, access.shape, access.elem);
        let remote = match access.memory {
            Memory::Window(window) => access.write.is_some() && window != self.ranks[agent],
            Memory::Own(rank) => {
                let copied = self.own.get(&rank).map(|(copied, _)| copied);
                if !copied.is_some_and(|c| ranges.iter().any(|r| c.overlaps(r))) {
                    return;
                }
                false
            }
        };
        let component = if remote {
            clock::remote(agent)
        } else {
            clock::plain(agent)
        };
        let me = self.access(agent, component, site);
        let clock = self.clocks[agent].clone();
        self.shadow_access(me, &clock, access.memory, &ranges, access.write);
        if let (true, Memory::Window(window)) = (remote, access.memory) {
            let (start, end) = (ranges[0].start, ranges[ranges.len() - 1].end);
            self.unfenced[agent] = Some(Unfenced {
                site,
                window,
                range: (start, end),
            });
        }
    }

    /// Records `me`'s access of `ranges` of `memory` (a read, or a write
    /// that may accumulate), made with what `clock` knows, and reports the
    /// accesses it is not ordered with.
    fn shadow_access(
        &mut self,
        me: Access,
        clock: &Clock,
        memory: Memory,
        ranges: &[Range<usize>],
        write: Option<bool>,
    ) {
        let shadow = match memory {
            Memory::Window(window) => &mut self.shadows[window],
            Memory::Own(rank) => &mut self.own.entry(rank).or_default().1,
        };
        let mut found = Vec::new();
        for range in ranges {
            found.extend(match write {
                None => shadow.read(range.clone(), me, clock),
                Some(accumulate) => shadow.write(range.clone(), me, clock, accumulate),
            });
        }
        for (conflict, earlier, bytes) in found {
            self.report(Finding::Race {
                conflict,
                later: self.actor_of(&me),
                earlier: self.actor_of(&earlier),
                bytes: Bytes {
                    memory,
                    range: bytes,
                },
            });
        }
    }

    /// `agent` submitted an asynchronous copy: its read of the source and
    /// write of the destination are the copy's, ordered after what the
    /// agent knew at the submit and before whoever learns that a wait on
    /// its event succeeded.
    pub fn copy_submitted(&mut self, agent: usize, dma: &DmaSubmit) {
        if let Some(queue) = dma.queue {
            self.use_queue(agent, queue, dma.site);
        }
        self.submitted[agent] += 1;
        let number = self.submitted[agent];
        self.copies.insert(
            dma.handle,
            Outstanding {
                agent,
                number,
                site: dma.site,
                queue: dma.queue,
            },
        );
        let me = Access {
            agent,
            rank: self.ranks[agent],
            stamp: Stamp::Copy { number },
            site: dma.site,
            call: self.call_of(agent),
        };
        let clock = self.clocks[agent].clone();
        for a in &dma.accesses {
            let ranges = intervals(a.offset, a.strides, a.shape, a.elem);
            if let Memory::Own(rank) = a.memory {
                let (copied, _) = self.own.entry(rank).or_default();
                ranges.iter().for_each(|r| copied.insert(r.clone()));
            }
            self.shadow_access(me, &clock, a.memory, &ranges, a.write);
        }
    }

    /// A wait or test by `agent` found the copy of `handle` complete.
    pub fn copy_completed(&mut self, agent: usize, handle: u64, site: i64) {
        if let Some(copy) = self.copies.remove(&handle) {
            if let Some(queue) = copy.queue {
                self.use_queue(agent, queue, site);
            }
            self.clocks[agent].learn_copy(copy.agent, copy.number);
        }
    }

    /// The copy of `handle` was never waited for.
    pub fn copy_unwaited(&mut self, handle: u64) {
        if let Some(copy) = self.copies.remove(&handle) {
            self.report(Finding::UnwaitedCopy {
                submit: self.actor(copy.agent, copy.site),
            });
        }
    }

    /// `agent` uses the URMA queue `(rank, peer)` at `site`: in PER_PEER
    /// mode only one agent may, so an earlier use by another agent must be
    /// ordered before this one.
    fn use_queue(&mut self, agent: usize, queue: (usize, usize), site: i64) {
        let me = self.access(agent, clock::plain(agent), site);
        if let Some(last) = self.queues.get(&queue).copied() {
            if !last.ordered_before(agent, &self.clocks[agent]) {
                self.report(Finding::SharedQueue {
                    first: self.actor_of(&last),
                    second: self.actor(agent, site),
                    rank: queue.0,
                    peer: queue.1,
                });
            }
        }
        self.queues.insert(queue, me);
    }

    pub fn findings(self) -> Vec<Finding> {
        self.findings
    }
}

/// Disjoint byte ranges, sorted, merged as they are added.
#[derive(Default)]
struct Ranges(Vec<Range<usize>>);

impl Ranges {
    fn insert(&mut self, mut range: Range<usize>) {
        if range.is_empty() {
            return;
        }
        // The ranges that touch it are merged into it.
        let first = self.0.partition_point(|r| r.end < range.start);
        let last = self.0.partition_point(|r| r.start <= range.end);
        if first < last {
            range.start = range.start.min(self.0[first].start);
            range.end = range.end.max(self.0[last - 1].end);
        }
        self.0.splice(first..last, std::iter::once(range));
    }

    /// Whether `range` shares a byte with them (an empty one shares none).
    fn overlaps(&self, range: &Range<usize>) -> bool {
        let i = self.0.partition_point(|r| r.end <= range.start);
        !range.is_empty() && self.0.get(i).is_some_and(|r| r.start < range.end)
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
    use crate::runtime::report::Conflict;

    /// A side in `window`.
    fn side(
        window: usize,
        offset: usize,
        strides: [i64; 2],
        shape: [i64; 2],
        elem: usize,
        write: Option<bool>,
    ) -> MemoryAccess {
        MemoryAccess {
            memory: Memory::Window(window),
            offset,
            strides,
            shape,
            elem,
            write,
        }
    }

    #[test]
    fn ranges_merge_what_touches_and_find_what_overlaps() {
        let mut ranges = Ranges::default();
        ranges.insert(10..20);
        ranges.insert(30..40);
        ranges.insert(0..0);
        assert_eq!(ranges.0, vec![10..20, 30..40]);
        // Touching and overlapping ranges merge, across several.
        ranges.insert(20..30);
        assert_eq!(ranges.0, vec![10..40]);
        ranges.insert(50..60);
        ranges.insert(5..12);
        assert_eq!(ranges.0, vec![5..40, 50..60]);
        ranges.insert(1..70);
        assert_eq!(ranges.0, vec![1..70]);
        let mut ranges = Ranges::default();
        ranges.insert(10..20);
        ranges.insert(40..50);
        for (probe, overlaps) in [
            (0..10, false),
            (9..11, true),
            (19..25, true),
            (20..40, false),
            (45..46, true),
            (50..60, false),
            (15..15, false),
        ] {
            assert_eq!(ranges.overlaps(&probe), overlaps, "{probe:?}");
        }
    }

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
        c.copy_side(0, side(1, 0, [4, 1], [1, 4], 4, Some(false)), -1);
        c.notify(0, (1, 64), NotifyOp::AtomicAdd, -1);
        // The peer acquires the notify and reads the data: the write was
        // never fenced, so the read races too.
        c.acquire(1, (1, 64));
        c.copy_side(1, side(1, 0, [4, 1], [1, 4], 4, None), -1);
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
        c.copy_side(0, side(1, 0, [4, 1], [1, 4], 4, Some(false)), -1);
        c.fence(0);
        c.notify(0, (1, 64), NotifyOp::AtomicAdd, -1);
        c.acquire(1, (1, 64));
        c.copy_side(1, side(1, 0, [4, 1], [1, 4], 4, None), -1);
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

    /// A Set between an add and another agent's Set orders neither: rank 1
    /// adds, waits for its own credit and resets the cell, then rank 0 sets
    /// it unordered with rank 1's add (the order in which the race shows
    /// no clash of the last two notifies).
    #[test]
    fn a_set_in_between_does_not_hide_an_unordered_add() {
        let mut c = Checker::new(2, "@k");
        c.start(0, 0, None);
        c.start(1, 1, None);
        c.notify(1, (1, 0), NotifyOp::AtomicAdd, -1);
        c.acquire(1, (1, 0));
        c.notify(1, (1, 0), NotifyOp::Set, -1);
        assert!(c.findings.is_empty(), "one agent's notifies are ordered");
        c.notify(0, (1, 0), NotifyOp::Set, -1);
        assert!(matches!(c.findings[0], Finding::MixedNotify { .. }));
        // And the other way round: sets by both, then an add ordered after
        // the last set only.
        let mut c = Checker::new(2, "@k");
        c.start(0, 0, None);
        c.start(1, 1, None);
        c.notify(0, (1, 0), NotifyOp::Set, -1);
        c.notify(1, (1, 0), NotifyOp::Set, -1);
        c.notify(1, (1, 0), NotifyOp::AtomicAdd, -1);
        assert!(matches!(c.findings[0], Finding::MixedNotify { .. }));
    }
}
