//! The seeded scheduler of explore mode: one simulated thread (an *agent*:
//! a rank's own thread or a block of one of its launches) runs at a time,
//! and at every device call the scheduler decides which runs next.
//!
//! The decision is a pure function of the seed and of what the agents did,
//! never of the OS scheduler: a decision is taken only when every agent is
//! either waiting for its turn, blocked, parked or done (an agent that was
//! just created, or resumed after its launch, is *starting* until it
//! reaches its first device call, and the scheduler waits for it). So the
//! same seed replays the same interleaving, and a deadlock is exact: no
//! agent can run and not all are done.
//!
//! Two policies, picked by the seed: PCT (each agent gets a random
//! priority, the highest-priority runnable agent runs, and at a few
//! randomly chosen steps the running agent drops to the lowest priority:
//! a bounded number of preemptions at random places) and a random walk (a
//! uniformly random runnable agent at every step).
//!
//! The agents are user-space fibers of one thread when the run makes them
//! so (`crate::runtime::fiber`): a hand-over is then a switch to the next
//! agent's fiber, tens of nanoseconds, instead of waking its thread and
//! putting this one to sleep. The decisions are the same either way.

use crate::runtime::fiber;
use crate::runtime::report::NO_PROGRESS_STEPS;
use crate::runtime::signal::Compare;
use pld_dialect::enums::WaitCmp;
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::{Arc, Condvar, Mutex};

/// A small, fast, seedable generator (splitmix64): the schedules must be
/// the same on every machine, so no platform generator.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed ^ 0x9e37_79b9_7f4a_7c15)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
}

/// How the scheduler picks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Policy {
    /// Highest priority first; at each of `changes` (ascending steps) the
    /// agent that just ran drops to the lowest priority.
    Pct { changes: Vec<u64> },
    /// A uniformly random runnable agent at every step.
    Walk,
}

impl Policy {
    /// The policy schedule `seed` uses: half of the seeds a random walk,
    /// half PCT with one to three priority changes spread over a run of
    /// unknown length (each change at a step below a random power of two
    /// from 16 to 16384, so short and long runs both get some).
    pub fn of_seed(rng: &mut Rng) -> Policy {
        if rng.below(2) == 0 {
            return Policy::Walk;
        }
        let depth = 1 + rng.below(3);
        let mut changes: Vec<u64> = (0..depth)
            .map(|_| {
                let scale = 1u64 << (4 + rng.below(11));
                1 + rng.below(scale)
            })
            .collect();
        changes.sort_unstable();
        Policy::Pct { changes }
    }
}

/// When the asynchronous copies of a schedule land (between their submit
/// and the first successful wait or test of their event).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Delivery {
    /// As late as possible: at the wait (a test finds the copy in flight
    /// the first [`LATE_TESTS`] times).
    Late,
    /// At random turns, any pending copy (out of order across queues), and
    /// a test finds a copy complete with probability one half.
    Random,
}

impl Delivery {
    /// The delivery schedule `seed` uses: half of the seeds each. Drawn
    /// from a generator of its own, so that a kernel without asynchronous
    /// copies is scheduled exactly as before they existed.
    pub fn of_seed(rng: &mut Rng) -> Delivery {
        if rng.below(2) == 0 {
            Delivery::Late
        } else {
            Delivery::Random
        }
    }
}

/// Tests that find a copy in flight under [`Delivery::Late`].
pub const LATE_TESTS: u32 = 3;

/// The asynchronous copies of a schedule that have not landed.
#[derive(Debug)]
struct Copies {
    rng: Rng,
    delivery: Delivery,
    /// By event, in submit order.
    pending: Vec<u64>,
    /// Chosen to land at the turn just given.
    due: Vec<u64>,
    /// Failed tests per pending copy.
    tests: std::collections::HashMap<u64, u32>,
}

impl Copies {
    fn new(seed: u64) -> Self {
        let mut rng = Rng::new(seed ^ 0x005e_ed0f_d3a5_c0de);
        let delivery = Delivery::of_seed(&mut rng);
        Copies {
            rng,
            delivery,
            pending: Vec::new(),
            due: Vec::new(),
            tests: std::collections::HashMap::new(),
        }
    }

    /// At a decision: under [`Delivery::Random`], one time in three a
    /// random pending copy lands before the chosen agent runs.
    fn decide(&mut self) {
        if self.delivery == Delivery::Random && !self.pending.is_empty() && self.rng.below(3) == 0 {
            let at = self.rng.below(self.pending.len() as u64) as usize;
            let handle = self.pending.remove(at);
            self.due.push(handle);
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Status {
    /// Created or resumed, not yet at its first device call.
    Starting,
    /// At a device call, waiting for its turn.
    Ready,
    /// In a wait whose condition did not hold.
    Blocked {
        cell: *const AtomicI32,
        expected: i32,
        cmp: WaitCmp,
        site: i64,
    },
    /// A rank's own thread while its launch's blocks run.
    Parked,
    Done,
}

#[derive(Debug)]
struct Agent {
    status: Status,
    rank: usize,
    /// `(block_idx, block_num)` for a block of a launch.
    block: Option<(i32, i32)>,
    priority: u64,
    /// The agent that launched this block, and how many of its blocks are
    /// still running (for a rank's own thread).
    parent: Option<usize>,
    children: usize,
    /// The site of the agent's last scalar read, and how many times in a
    /// row it read there (a poll).
    last_scalar: Option<i64>,
    repeats: u32,
    /// The site of the agent's last poll: a test that did not hold, or a
    /// scalar read repeated [`POLL_REPEATS`] times (`crate::runtime::sites`,
    /// -1 for none known).
    polls_at: Option<i64>,
    /// Where the agent's thread sleeps until its turn (one per agent: a
    /// hand-over wakes exactly the next agent).
    turn: Arc<Condvar>,
    /// The agent's fiber, when agents are fibers of one thread (known from
    /// its first device call on): a hand-over switches to it.
    fiber: Option<usize>,
}

/// How a wait under the scheduler ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Waited {
    /// Its condition held when the agent got its turn.
    Held,
    /// The run deadlocked with the agent blocked in this wait.
    Stuck,
    /// The schedule was over (a deadlock elsewhere, no progress): the run
    /// goes on unchecked, as after a deadlock in a plain run.
    Unchecked,
}

/// An agent blocked when the run deadlocked.
#[derive(Clone, Copy, Debug)]
pub struct Stuck {
    pub agent: usize,
    pub rank: usize,
    pub block: Option<(i32, i32)>,
    pub cell: *const AtomicI32,
    pub expected: i32,
    pub cmp: WaitCmp,
    /// The waiting op (`crate::runtime::sites`), or -1.
    pub site: i64,
    /// The cell's value when the deadlock was found.
    pub actual: i32,
}

/// A deadlock: the agents blocked, and the ranks whose own thread had
/// finished.
#[derive(Clone, Debug)]
pub struct Deadlock {
    pub stuck: Vec<Stuck>,
    pub finished: Vec<usize>,
}

struct Inner {
    agents: Vec<Agent>,
    current: Option<usize>,
    /// The agent that ran last (PCT demotes it at a change point).
    last: Option<usize>,
    rng: Rng,
    policy: Policy,
    /// Decisions taken so far.
    steps: u64,
    /// [`Scheduler::progress`] as the last decision saw it, and the step
    /// at which it last changed.
    progress: (u64, u64),
    /// Set when the schedule is over (deadlock, step limit): from then on
    /// every agent runs freely, as in a plain run, to its end.
    free: bool,
    /// The lowest priority given so far (demotions go below it).
    lowest: u64,
    deadlock: Option<Deadlock>,
    /// Set when the schedule was cut for making no progress: the agents
    /// that polled then.
    livelock: Option<Vec<Poller>>,
    copies: Copies,
    /// The runnable agents at the decision being taken.
    runnable: Vec<usize>,
    /// FNV-1a over the agents picked, in order: the schedule's identity.
    digest: u64,
}

/// Decisions taken by every schedule of the process so far.
static DECISIONS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Scheduling decisions taken in this process so far, over every schedule:
/// a tool that sees it stand still while a schedule runs knows that the
/// running agent makes no device call (a loop that neither notifies, waits
/// nor copies), which no step limit catches.
pub fn decisions() -> u64 {
    DECISIONS.load(std::sync::atomic::Ordering::Relaxed)
}

/// Schedules of this process cut for making no progress.
static CUT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// The agents that polled when the process's last schedule was cut.
static LAST_CUT: Mutex<Vec<Poller>> = Mutex::new(Vec::new());

/// An agent polling when its schedule was cut for making no progress:
/// its rank, block of a launch, and the site it last polled at
/// (`crate::runtime::sites`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Poller {
    pub rank: usize,
    pub block: Option<(i32, i32)>,
    pub site: i64,
}

/// The agents that polled when the process's last schedule was cut (what
/// a tool watching a schedule that cannot end names: the cut schedule's
/// ranks poll on, unscheduled).
pub fn last_cut_pollers() -> Vec<Poller> {
    LAST_CUT.lock().unwrap_or_else(|e| e.into_inner()).clone()
}

/// Schedules of this process cut so far for making no progress
/// ([`NO_PROGRESS_STEPS`]): a tool that sees the running schedule cut and
/// its decisions stand still knows that a rank polls on (with scalar
/// reads of a flag no rank sets) past the cut.
pub fn cut_schedules() -> u64 {
    CUT.load(std::sync::atomic::Ordering::Relaxed)
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// One step of FNV-1a over the eight bytes of `value`.
fn fnv(mut hash: u64, value: u64) -> u64 {
    for byte in value.to_le_bytes() {
        hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

/// Scalar reads at one site in a row after which an agent counts as
/// polling.
const POLL_REPEATS: u32 = 16;

/// The explore-mode scheduler of one run.
pub struct Scheduler {
    inner: Mutex<Inner>,
    /// Progress the agents made (writes, notifies, waits and tests that
    /// held, copies submitted and completed, agents that ended): counted
    /// outside the lock, by the agent that has the turn.
    progress: std::sync::atomic::AtomicU64,
}

// SAFETY: the cell pointers in `Status` point into the run's windows, which
// outlive it, and are only read atomically.
unsafe impl Send for Scheduler {}
unsafe impl Sync for Scheduler {}

impl Scheduler {
    /// A scheduler for `ranks` rank agents (ids `0..ranks`), all starting.
    pub fn new(ranks: usize, seed: u64) -> Self {
        let mut rng = Rng::new(seed);
        let policy = Policy::of_seed(&mut rng);
        let mut inner = Inner {
            agents: Vec::new(),
            current: None,
            last: None,
            rng,
            policy,
            steps: 0,
            progress: (0, 0),
            free: false,
            lowest: u64::MAX / 2,
            deadlock: None,
            livelock: None,
            copies: Copies::new(seed),
            runnable: Vec::new(),
            digest: FNV_OFFSET,
        };
        for rank in 0..ranks {
            inner.add(rank, None, None);
        }
        Scheduler {
            inner: Mutex::new(inner),
            progress: std::sync::atomic::AtomicU64::new(0),
        }
    }

    /// The calling agent reached a device call: waits for its turn.
    pub fn point(&self, me: usize) {
        let mut inner = self.inner.lock().unwrap();
        if inner.free {
            // Every agent runs freely: a fiber lets the others run too.
            drop(inner);
            fiber::yield_now();
            return;
        }
        inner.agents[me].fiber = fiber::current();
        inner.agents[me].status = Status::Ready;
        if inner.current == Some(me) {
            inner.current = None;
        }
        self.dispatch(&mut inner);
        drop(self.await_turn(inner, me));
    }

    /// The calling fiber cannot go on yet (a rank whose launch's blocks
    /// run): hands its thread to the fiber that should run now.
    pub fn pass(&self) {
        let inner = self.inner.lock().unwrap();
        let target = if inner.free {
            None
        } else {
            inner.fiber_target()
        };
        drop(inner);
        if !target.is_some_and(fiber::switch_to) {
            fiber::yield_now();
        }
    }

    /// The calling agent waits until `cell` compares `cmp` to `expected`:
    /// it is not picked before the condition holds.
    pub fn wait(
        &self,
        me: usize,
        cell: &AtomicI32,
        expected: i32,
        cmp: WaitCmp,
        site: i64,
    ) -> Waited {
        let mut inner = self.inner.lock().unwrap();
        if inner.free {
            return Waited::Unchecked;
        }
        inner.agents[me].fiber = fiber::current();
        inner.agents[me].status = Status::Blocked {
            cell,
            expected,
            cmp,
            site,
        };
        if inner.current == Some(me) {
            inner.current = None;
        }
        self.dispatch(&mut inner);
        let inner = self.await_turn(inner, me);
        let stuck = inner
            .deadlock
            .as_ref()
            .is_some_and(|d| d.stuck.iter().any(|s| s.agent == me));
        if stuck {
            Waited::Stuck
        } else if inner.free {
            Waited::Unchecked
        } else {
            Waited::Held
        }
    }

    /// A scalar read or write by the running agent at `site`: an agent
    /// that reads at one site many times in a row without another device
    /// call polls a flag, and goes last from then on (as a failed test).
    pub fn scalar_read(&self, me: usize, site: i64, write: bool) {
        let mut inner = self.inner.lock().unwrap();
        let agent = &mut inner.agents[me];
        if write || agent.last_scalar != Some(site) {
            agent.last_scalar = (!write).then_some(site);
            agent.repeats = 0;
            return;
        }
        agent.repeats += 1;
        if agent.repeats >= POLL_REPEATS {
            agent.repeats = 0;
            agent.polls_at = Some(site);
            inner.lowest -= 1;
            let lowest = inner.lowest;
            inner.agents[me].priority = lowest;
        }
    }

    /// The agent with the turn made progress (see [`Scheduler::progress`]).
    pub fn progressed(&self) {
        self.progress
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }

    /// A `pto.comm.ttest` at `site` that failed: the agent polls, so
    /// others go first.
    pub fn polled(&self, me: usize, site: i64) {
        let mut inner = self.inner.lock().unwrap();
        inner.lowest -= 1;
        inner.agents[me].priority = inner.lowest;
        inner.agents[me].polls_at = Some(site);
    }

    /// An asynchronous copy was submitted: it is pending until it lands.
    pub fn copy_submitted(&self, handle: u64) {
        self.inner.lock().unwrap().copies.pending.push(handle);
    }

    /// The copies chosen to land at the turn just given (once).
    pub fn copies_due(&self) -> Vec<u64> {
        std::mem::take(&mut self.inner.lock().unwrap().copies.due)
    }

    /// These copies landed.
    pub fn copies_delivered(&self, handles: &[u64]) {
        let mut inner = self.inner.lock().unwrap();
        let copies = &mut inner.copies;
        copies.pending.retain(|h| !handles.contains(h));
        copies.due.retain(|h| !handles.contains(h));
        for h in handles {
            copies.tests.remove(h);
        }
    }

    /// A test by `me` of a copy that has not landed: whether it lands now.
    /// When it does not, `me` polls and others go first.
    pub fn copy_tested(&self, me: usize, handle: u64) -> bool {
        let mut inner = self.inner.lock().unwrap();
        let copies = &mut inner.copies;
        let failed = copies.tests.entry(handle).or_insert(0);
        let lands = match copies.delivery {
            Delivery::Late => *failed >= LATE_TESTS,
            Delivery::Random => copies.rng.below(2) == 0,
        };
        if !lands {
            *failed += 1;
            inner.lowest -= 1;
            inner.agents[me].priority = inner.lowest;
        }
        lands
    }

    /// The calling agent (a rank's own thread) launches `blocks` blocks:
    /// they become agents `base..base + blocks` (returned), starting, and
    /// the caller is parked until the last of them is done.
    pub fn fork(&self, me: usize, blocks: usize) -> usize {
        let mut inner = self.inner.lock().unwrap();
        let base = inner.agents.len();
        let rank = inner.agents[me].rank;
        for b in 0..blocks {
            inner.add(rank, Some((b as i32, blocks as i32)), Some(me));
        }
        inner.agents[me].children = blocks;
        inner.agents[me].status = Status::Parked;
        if inner.current == Some(me) {
            inner.current = None;
        }
        self.dispatch(&mut inner);
        base
    }

    /// The calling agent is done (a rank's kernel returned, a block
    /// exited). The last block of a launch resumes its parent.
    pub fn finish(&self, me: usize) {
        let mut inner = self.inner.lock().unwrap();
        inner.agents[me].status = Status::Done;
        if let Some(parent) = inner.agents[me].parent {
            let p = &mut inner.agents[parent];
            p.children -= 1;
            if p.children == 0 {
                p.status = Status::Starting;
            }
        }
        if inner.current == Some(me) {
            inner.current = None;
        }
        self.dispatch(&mut inner);
    }

    /// How the schedule ended: the agents stuck in a deadlock, the agents
    /// that polled when it was cut for making no progress (`None`: not
    /// cut), how many decisions it took and their digest.
    pub fn verdict(&self) -> (Option<Deadlock>, Option<Vec<Poller>>, u64, u64) {
        let inner = self.inner.lock().unwrap();
        (
            inner.deadlock.clone(),
            inner.livelock.clone(),
            inner.steps,
            inner.digest,
        )
    }

    /// Whether the schedule was abandoned (every agent runs freely).
    pub fn is_free(&self) -> bool {
        self.inner.lock().unwrap().free
    }

    /// Waits until `me` has the turn (or the schedule is over). A thread
    /// sleeps on its condition variable until the agent before it picks
    /// it; a fiber switches to the fiber that should run instead, in user
    /// space, and is switched back to when it has the turn.
    fn await_turn<'g>(
        &'g self,
        mut inner: std::sync::MutexGuard<'g, Inner>,
        me: usize,
    ) -> std::sync::MutexGuard<'g, Inner> {
        if inner.agents[me].fiber.is_some() {
            while !inner.free && inner.current != Some(me) {
                let target = inner.fiber_target();
                drop(inner);
                if !target.is_some_and(fiber::switch_to) {
                    fiber::yield_now();
                }
                inner = self.inner.lock().unwrap();
            }
            return inner;
        }
        let turn = inner.agents[me].turn.clone();
        while !inner.free && inner.current != Some(me) {
            inner = turn.wait(inner).unwrap();
        }
        inner
    }

    /// Picks the next agent, if a decision can be taken now.
    fn dispatch(&self, inner: &mut Inner) {
        if inner.free || inner.current.is_some() {
            return;
        }
        if crate::runtime::run::stop_requested() {
            // Ctrl-C: the schedule is abandoned, and nothing is found.
            inner.release_all();
            return;
        }
        if inner
            .agents
            .iter()
            .any(|a| matches!(a.status, Status::Starting))
        {
            return; // decided once it arrives
        }
        // (One vector for every decision, not one each.)
        let mut runnable = std::mem::take(&mut inner.runnable);
        runnable.clear();
        runnable.extend((0..inner.agents.len()).filter(|&i| inner.runnable(i)));
        self.decide(inner, &runnable);
        inner.runnable = runnable;
    }

    /// Takes the decision among `runnable` (or finds the deadlock when it
    /// is empty).
    fn decide(&self, inner: &mut Inner, runnable: &[usize]) {
        if runnable.is_empty() {
            let stuck: Vec<Stuck> = inner
                .agents
                .iter()
                .enumerate()
                .filter_map(|(agent, a)| match a.status {
                    Status::Blocked {
                        cell,
                        expected,
                        cmp,
                        site,
                    } => Some(Stuck {
                        agent,
                        rank: a.rank,
                        block: a.block,
                        cell,
                        expected,
                        cmp,
                        site,
                        // SAFETY: a cell of the run's windows (see
                        // `Scheduler`).
                        actual: unsafe { &*cell }.load(Ordering::SeqCst),
                    }),
                    _ => None,
                })
                .collect();
            if !stuck.is_empty() {
                let finished = inner
                    .agents
                    .iter()
                    .filter(|a| a.parent.is_none() && a.status == Status::Done)
                    .map(|a| a.rank)
                    .collect();
                inner.deadlock = Some(Deadlock { stuck, finished });
                inner.release_all();
            }
            return;
        }
        inner.steps += 1;
        DECISIONS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let progress = self.progress.load(std::sync::atomic::Ordering::Relaxed);
        if progress != inner.progress.0 {
            inner.progress = (progress, inner.steps);
        }
        if inner.steps - inner.progress.1 > NO_PROGRESS_STEPS {
            CUT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let pollers = inner.pollers();
            *LAST_CUT.lock().unwrap_or_else(|e| e.into_inner()) = pollers.clone();
            inner.livelock = Some(pollers);
            inner.release_all();
            return;
        }
        let next = match &mut inner.policy {
            Policy::Walk => runnable[inner.rng.below(runnable.len() as u64) as usize],
            Policy::Pct { changes } => {
                if changes.first() == Some(&inner.steps) {
                    changes.remove(0);
                    if let Some(last) = inner.last {
                        inner.lowest -= 1;
                        inner.agents[last].priority = inner.lowest;
                    }
                }
                *runnable
                    .iter()
                    .max_by_key(|&&i| inner.agents[i].priority)
                    .expect("a runnable agent")
            }
        };
        inner.current = Some(next);
        inner.last = Some(next);
        inner.digest = fnv(inner.digest, next as u64);
        inner.copies.decide();
        // A fiber is switched to by the agent that hands over; only a
        // thread sleeps on its condition variable (and waking one is a
        // system call, even with nobody asleep).
        if inner.agents[next].fiber.is_none() {
            inner.agents[next].turn.notify_one();
        }
    }
}

impl Inner {
    /// The fiber that should run now, when agents are fibers: one that has
    /// not started yet (a new rank or block, which runs to its first device
    /// call before any decision), else a starting agent (a rank whose
    /// launch ended), else the agent whose turn it is.
    fn fiber_target(&self) -> Option<usize> {
        if let Some(fresh) = fiber::fresh() {
            return Some(fresh);
        }
        let starting = self
            .agents
            .iter()
            .find(|a| a.status == Status::Starting && a.fiber.is_some());
        match starting {
            Some(agent) => agent.fiber,
            None => self.current.and_then(|c| self.agents[c].fiber),
        }
    }

    /// The agents still running that polled last: neither ended nor
    /// blocked in a wait.
    fn pollers(&self) -> Vec<Poller> {
        let running = |a: &&Agent| !matches!(a.status, Status::Done | Status::Blocked { .. });
        (self.agents.iter().filter(running))
            .filter_map(|a| {
                Some(Poller {
                    rank: a.rank,
                    block: a.block,
                    site: a.polls_at?,
                })
            })
            .collect()
    }

    /// Ends the schedule: every agent runs freely from now on.
    fn release_all(&mut self) {
        self.free = true;
        for agent in &self.agents {
            agent.turn.notify_all();
        }
    }

    fn add(&mut self, rank: usize, block: Option<(i32, i32)>, parent: Option<usize>) {
        // Random priorities above every demoted one.
        let priority = u64::MAX / 2 + 1 + self.rng.below(u64::MAX / 4);
        self.agents.push(Agent {
            status: Status::Starting,
            rank,
            block,
            priority,
            parent,
            children: 0,
            last_scalar: None,
            repeats: 0,
            polls_at: None,
            turn: Arc::new(Condvar::new()),
            fiber: None,
        });
    }

    fn runnable(&self, agent: usize) -> bool {
        match self.agents[agent].status {
            Status::Ready => true,
            Status::Blocked {
                cell,
                expected,
                cmp,
                ..
            } => {
                // SAFETY: a cell of the run's windows (see `Scheduler`).
                cmp.holds(unsafe { &*cell }.load(Ordering::SeqCst), expected)
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_generator_is_the_same_everywhere() {
        let mut rng = Rng::new(1);
        let first: Vec<u64> = (0..3).map(|_| rng.next_u64()).collect();
        let mut again = Rng::new(1);
        assert_eq!(first, (0..3).map(|_| again.next_u64()).collect::<Vec<_>>());
        assert_ne!(Rng::new(2).next_u64(), first[0]);
    }

    #[test]
    fn policies_come_from_the_seed() {
        let kinds: Vec<bool> = (0..64)
            .map(|s| matches!(Policy::of_seed(&mut Rng::new(s)), Policy::Walk))
            .collect();
        assert!(kinds.iter().any(|w| *w) && kinds.iter().any(|w| !*w));
        for s in 0..64 {
            if let Policy::Pct { changes } = Policy::of_seed(&mut Rng::new(s)) {
                assert!((1..=3).contains(&changes.len()));
                assert!(changes.windows(2).all(|w| w[0] <= w[1]));
            }
        }
    }
}
