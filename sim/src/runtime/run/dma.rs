//! Asynchronous DMA: the copies `TPUT_ASYNC` / `TGET_ASYNC` submit
//! (`pld_sim_dma_submit`) and `AsyncEvent::Wait` / `Test` complete
//! (`pld_sim_dma_wait`, `pld_sim_dma_test`; docs/memory-model.md,
//! "Asynchronous copies").
//!
//! A submitted copy is checked at once (its sides against the windows, a
//! URMA queue's peer against the memory it names) and kept; its bytes move
//! later, between the submit and the first successful wait or test of its
//! event, never at a moment the kernel could rely on. A plain run moves
//! them as late as it can: at that wait, or at the second test (the first
//! finds the copy in flight). In explore mode the scheduler may also pick
//! any pending copy to land at any turn ([`crate::runtime::explorer`]).
//! Copies of one queue land in the order they were submitted (a
//! completion queue completes in order); queues are independent.
//!
//! A copy still outstanding when its thread (a block, or a rank's own
//! thread) ends was never waited for: it lands then, and is reported (an
//! error of a plain run, a finding of explore mode).

use crate::runtime::explorer::{DmaSubmit, Explorer};
use crate::runtime::run::transfer::{CopyCall, Sides};
use crate::runtime::run::State;

/// A DMA engine (`pto::comm::DmaEngine`, `PLD_DMA_SDMA` / `PLD_DMA_URMA`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    Sdma,
    Urma,
}

impl Engine {
    fn from_abi(code: i32) -> Option<Self> {
        match code {
            0 => Some(Engine::Sdma),
            1 => Some(Engine::Urma),
            _ => None,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Engine::Sdma => "SDMA",
            Engine::Urma => "URMA",
        }
    }
}

/// Which side of a copy is the peer's (`PLD_DMA_PUT` / `PLD_DMA_GET`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    Put,
    Get,
}

impl Direction {
    fn from_abi(code: i32) -> Option<Self> {
        match code {
            0 => Some(Direction::Put),
            1 => Some(Direction::Get),
            _ => None,
        }
    }

    /// The instruction that submits it.
    fn op(self) -> &'static str {
        match self {
            Direction::Put => "TPUT_ASYNC",
            Direction::Get => "TGET_ASYNC",
        }
    }
}

/// The order copies land in: a rank's URMA queue to one peer, or its SDMA
/// engine (`peer` `None`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Queue {
    rank: usize,
    engine: Engine,
    peer: Option<usize>,
}

/// One submitted copy whose event is outstanding.
struct Pending {
    handle: u64,
    queue: Queue,
    /// The submitting thread: its rank and thread index.
    owner: (usize, usize),
    /// The submitting agent (explore mode).
    agent: usize,
    copy: CopyCall,
    direction: Direction,
    site: i64,
    /// Whether its bytes have moved.
    delivered: bool,
    /// Tests that found it in flight.
    tests: u32,
}

/// The outstanding copies of a run, in the order they were submitted.
#[derive(Default)]
pub(crate) struct Table {
    /// Copies each rank submitted so far.
    submitted: std::collections::HashMap<usize, u64>,
    pending: Vec<Pending>,
}

/// Bits of a handle that number a rank's copies; the rank (plus one)
/// above them. A rank's events are numbered 1, 2, ... in the order it
/// submits them, whatever the other ranks do (the same in every schedule
/// and under MPI), and a handle is never 0.
const SEQUENCE_BITS: u32 = 40;

/// The handle of `rank`'s copy number `sequence` (from 1).
fn handle_of(rank: usize, sequence: u64) -> u64 {
    ((rank as u64 + 1) << SEQUENCE_BITS) | sequence
}

/// How a message names the event of `handle`: its number among its
/// rank's copies.
fn event_number(handle: u64) -> u64 {
    handle & ((1 << SEQUENCE_BITS) - 1)
}

impl Table {
    fn position(&self, handle: u64) -> Option<usize> {
        self.pending.iter().position(|p| p.handle == handle)
    }

    /// Marks the undelivered copies of `handle`'s queue, up to and
    /// including it, delivered, and returns them in order.
    fn take_through(&mut self, handle: u64) -> Vec<(u64, CopyCall)> {
        let Some(at) = self.position(handle) else {
            return Vec::new();
        };
        let queue = self.pending[at].queue;
        self.pending[..=at]
            .iter_mut()
            .filter(|p| p.queue == queue && !p.delivered)
            .map(|p| {
                p.delivered = true;
                (p.handle, p.copy)
            })
            .collect()
    }

    /// Removes and returns the copies the thread `owner` submitted.
    fn take_owned_by(&mut self, owner: (usize, usize)) -> Vec<Pending> {
        let (mine, rest) = std::mem::take(&mut self.pending)
            .into_iter()
            .partition(|p| p.owner == owner);
        self.pending = rest;
        mine
    }
}

/// The arguments of `pld_sim_dma_submit` past the copy's block (the
/// source's: what moves).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Route {
    /// The destination view's elements: at least the source's.
    pub dst_elems: i64,
    pub engine: i32,
    pub direction: i32,
    /// The op's peer operand (an i32), or `PLD_DMA_NO_PEER`.
    pub peer: i64,
}

/// Why a copy is no flat contiguous span the DMA engines move (dialect.md
/// P3), if it is not: a view whose elements are not adjacent (a tensor
/// view with a column stride other than 1) ran as a gather the hardware
/// does not make (dma26 M1).
fn strided(copy: &CopyCall) -> Option<String> {
    let [rows, cols] = copy.shape;
    let sides = [("dst", copy.dst_strides), ("src", copy.src_strides)];
    let (role, [row, col]) = sides.into_iter().find(|(_, [row, col])| {
        (cols > 1 && *col != 1) || (rows > 1 && *row != cols.saturating_mul(*col))
    })?;
    Some(format!(
        "an asynchronous copy moves a flat contiguous span, but its {role} view's elements are \
         not adjacent (strides [{row}, {col}] elements for a {rows} x {cols} view; a DMA engine \
         makes no gather); nothing was copied"
    ))
}

/// `pld_sim_dma_submit` on `rank`'s thread: the event's handle, or 0 when
/// nothing was submitted (the error is recorded).
pub(crate) fn submit(
    state: &State<'_>,
    rank: usize,
    site: i64,
    copy: CopyCall,
    route: Route,
) -> u64 {
    let begin = state.stamp();
    let turn = state.turn();
    if route.engine == -1 {
        // A compiled kernel's session whose workspace was null.
        state.error_at(
            rank,
            site,
            "an asynchronous copy on a session BuildAsyncSession did not build (its workspace \
             is null)"
                .into(),
        );
        return 0;
    }
    let (Some(engine), Some(direction)) = (
        Engine::from_abi(route.engine),
        Direction::from_abi(route.direction),
    ) else {
        state.error_at(
            rank,
            site,
            format!(
                "an asynchronous copy with unknown engine {} or direction {}",
                route.engine, route.direction
            ),
        );
        return 0;
    };
    if let Some(message) = strided(&copy) {
        state.error_at(rank, site, message);
        return 0;
    }
    let moved = copy.shape[0].saturating_mul(copy.shape[1]);
    if route.dst_elems < moved {
        state.error_at(
            rank,
            site,
            format!(
                "dst has {} elements, fewer than the {moved} of src (an asynchronous copy moves \
                 all of src); nothing was copied",
                route.dst_elems
            ),
        );
        return 0;
    }
    let Some(sides) = copy.sides(state, rank, site) else {
        return 0;
    };
    let peer = local_side(rank, direction, sides)
        .and_then(|()| queue_peer(state, engine, direction, (route.peer, moved > 0), sides));
    let peer = match peer {
        Ok(peer) => peer,
        Err(message) => {
            state.error_at(rank, site, message);
            return 0;
        }
    };
    let bytes = copy.count(state, rank, sides);
    let handle = {
        let mut table = state.dmas().lock().unwrap();
        let sequence = table.submitted.entry(rank).or_insert(0);
        *sequence += 1;
        let handle = handle_of(rank, *sequence);
        table.pending.push(Pending {
            handle,
            queue: Queue { rank, engine, peer },
            owner: (rank, crate::runtime::run::current_thread()),
            agent: crate::runtime::run::current_agent(),
            copy,
            direction,
            site,
            delivered: false,
            tests: 0,
        });
        handle
    };
    if let Some((explore, agent)) = turn {
        let dma = DmaSubmit {
            handle,
            queue: peer.filter(|_| engine == Engine::Urma).map(|p| (rank, p)),
            accesses: copy.accesses(state, rank, sides),
            site,
        };
        explore.dma_submitted(agent, &dma);
    }
    state.record(rank, "dma submit", begin, || {
        format!(
            "\"event\": {handle}, \"engine\": {:?}, \"copy\": {:?}, \"bytes\": {bytes}{}",
            engine.name(),
            direction.op(),
            crate::runtime::sites::op_args(site)
        )
    });
    handle
}

/// The local side of a copy (a put's source, a get's destination) must be
/// the rank's own: its window, a tile or a buffer, not a peer's window
/// (the remote side is checked by [`queue_peer`]).
fn local_side(rank: usize, direction: Direction, sides: Sides) -> Result<(), String> {
    let (local, side) = match direction {
        Direction::Put => (sides.reads, "source"),
        Direction::Get => (sides.writes, "destination"),
    };
    match local {
        Some(window) if window != rank => Err(format!(
            "a {} has its {side} in rank {window}'s window: the {side} of a {} \
             is local (this rank's window, a tile or a buffer), and only the other side may be \
             a peer's",
            direction.op(),
            direction.op()
        )),
        _ => Ok(()),
    }
}

/// The peer whose queue a copy goes on (URMA), checked against the memory
/// of its remote side; `None` for SDMA, which has no per-peer queues.
fn queue_peer(
    state: &State<'_>,
    engine: Engine,
    direction: Direction,
    (peer, moves): (i64, bool),
    sides: Sides,
) -> Result<Option<usize>, String> {
    if engine == Engine::Sdma {
        return Ok(None);
    }
    let ranks = state.domain.ranks();
    let op = direction.op();
    if peer == pld_runtime_sys::PLD_DMA_NO_PEER {
        return Err(format!(
            "a URMA {op} names no peer: the op has no peer operand, and a transfer on a URMA \
             session needs one (its PER_PEER queue)"
        ));
    }
    let Some(peer) = usize::try_from(peer).ok().filter(|&p| p < ranks) else {
        return Err(format!(
            "a URMA {op} on the queue to peer {peer}, which is not a rank of the domain ({ranks} \
             ranks)"
        ));
    };
    let (remote, side) = match direction {
        Direction::Put => (sides.writes, "destination"),
        Direction::Get => (sides.reads, "source"),
    };
    // A copy of no element has no remote side to check (its view may end
    // at the window's end, or lie anywhere).
    if remote == Some(peer) || !moves {
        return Ok(Some(peer));
    }
    let actual = remote.map_or("memory outside every window".to_string(), |w| {
        format!("rank {w}'s window")
    });
    Err(format!(
        "a URMA {op} on the queue to rank {peer} has its {side} in {actual}: in PER_PEER mode \
         the peer names both the queue and the memory, so the {side} must be in rank {peer}'s \
         window"
    ))
}

/// Moves the bytes of `handle`'s copy and of the copies queued before it
/// on its queue that have not moved yet, and tells the explorer.
fn deliver_through(state: &State<'_>, handle: u64, explore: Option<&dyn Explorer>) {
    let copies = state.dmas().lock().unwrap().take_through(handle);
    for (_, copy) in &copies {
        // SAFETY: both sides were checked against the windows at the
        // submit (or are buffers the kernel owns, which outlive its
        // outstanding events: they land at the latest when its thread
        // ends, before its tiles are freed).
        unsafe { copy.deliver(state, copy_rank(state), false) };
    }
    if let Some(explore) = explore {
        let handles: Vec<u64> = copies.iter().map(|(h, _)| *h).collect();
        if !handles.is_empty() {
            explore.dma_delivered(&handles);
        }
    }
}

/// In explore mode, after a turn: the copies the scheduler chose to land
/// now.
pub(crate) fn deliver_due(state: &State<'_>, explore: &dyn Explorer) {
    for handle in explore.dma_due() {
        deliver_through(state, handle, Some(explore));
    }
}

/// Whether `handle` is an outstanding event of `rank`, and whether its
/// copy has landed; the error of a wait or test (`op`, at `site`) of
/// anything else.
fn outstanding(
    state: &State<'_>,
    rank: usize,
    (handle, session): (u64, i32),
    (op, site): (&str, i64),
) -> Option<bool> {
    let found = {
        let table = state.dmas().lock().unwrap();
        table
            .position(handle)
            .map(|at| &table.pending[at])
            .filter(|p| p.owner.0 == rank)
            .map(|p| (p.delivered, p.queue.engine))
    };
    if let Some((_, engine)) = found {
        if let Some(message) = session_mismatch(engine, session, op) {
            state.error_at(
                rank,
                site,
                format!(
                    "AsyncEvent::{op} on event {}: {message}",
                    event_number(handle)
                ),
            );
        }
    }
    let found = found.map(|(delivered, _)| delivered);
    if found.is_none() {
        state.error_at(
            rank,
            site,
            format!(
                "AsyncEvent::{op} on event {}, which is not an outstanding asynchronous \
                 copy of rank {rank} (waited for, or tested complete, already; or never \
                 submitted)",
                event_number(handle)
            ),
        );
    }
    found
}

/// Why a wait or test with `session` (the engine's number, or -1 for a
/// session not built) cannot complete a copy on `engine`: on the device,
/// `AsyncEvent::Wait` and `Test` poll the engine of the session they are
/// given, not the event's.
fn session_mismatch(engine: Engine, session: i32, op: &str) -> Option<String> {
    let (done, doing) = match op {
        "Test" => ("tested", "test"),
        _ => ("waited", "wait"),
    };
    match Engine::from_abi(session) {
        Some(given) if given == engine => None,
        Some(given) => Some(format!(
            "the event of a copy on {} {done} with a session on {} (the {doing} polls its \
             session's engine)",
            engine.name(),
            given.name()
        )),
        None => Some(format!(
            "the event of a copy on {} {done} with a session BuildAsyncSession did not build",
            engine.name()
        )),
    }
}

/// The copy of `handle` is complete for the calling thread: its event is
/// done.
fn complete(state: &State<'_>, handle: u64, turn: Option<(&dyn Explorer, usize)>, site: i64) {
    deliver_through(state, handle, turn.map(|(e, _)| e));
    {
        let mut table = state.dmas().lock().unwrap();
        if let Some(at) = table.position(handle) {
            table.pending.remove(at);
        }
    }
    if let Some((explore, agent)) = turn {
        explore.dma_completed(agent, handle, site);
    }
}

/// `pld_sim_dma_wait` on `rank`'s thread: whether the event was
/// outstanding (its copy has landed now).
pub(crate) fn wait(state: &State<'_>, rank: usize, event: (u64, i32), site: i64) -> bool {
    let begin = state.stamp();
    let turn = state.turn();
    let handle = event.0;
    if handle == 0 {
        return true;
    }
    if outstanding(state, rank, event, ("Wait", site)).is_none() {
        return false;
    }
    complete(state, handle, turn, site);
    state.record(rank, "dma wait", begin, || {
        format!(
            "\"event\": {handle}{}",
            crate::runtime::sites::op_args(site)
        )
    });
    true
}

/// `pld_sim_dma_test` on `rank`'s thread: whether the copy is complete
/// now (then its event is done).
pub(crate) fn test(state: &State<'_>, rank: usize, event: (u64, i32), site: i64) -> bool {
    let turn = state.turn();
    let handle = event.0;
    if handle == 0 {
        return true;
    }
    let Some(delivered) = outstanding(state, rank, event, ("Test", site)) else {
        return false;
    };
    let complete_now = delivered
        || match turn {
            Some((explore, agent)) => explore.dma_test(agent, handle),
            // A plain run: the first test finds the copy in flight.
            None => {
                let table = state.dmas().lock().unwrap();
                table
                    .position(handle)
                    .is_some_and(|at| table.pending[at].tests > 0)
            }
        };
    if !complete_now {
        let mut table = state.dmas().lock().unwrap();
        if let Some(at) = table.position(handle) {
            table.pending[at].tests += 1;
        }
        return false;
    }
    complete(state, handle, turn, site);
    true
}

/// The calling thread (`thread` of `rank`) ends: its copies still
/// outstanding land now, and each is reported as never waited for.
pub(crate) fn orphans(state: &State<'_>, rank: usize, thread: usize) {
    let left = state.dmas().lock().unwrap().take_owned_by((rank, thread));
    for p in &left {
        if !p.delivered {
            // SAFETY: as in `deliver_through`; the thread's tiles are
            // freed only after this.
            unsafe { p.copy.deliver(state, rank, false) };
        }
    }
    let explore = state.explore();
    for p in left {
        match explore {
            Some(explore) => explore.dma_unwaited(p.agent, p.handle),
            None => {
                // At the copy's op, as every device error of the run.
                let whose = if thread == 0 { "kernel" } else { "block" };
                state.error_at(
                    rank,
                    p.site,
                    format!(
                        "an asynchronous copy ({} {}, {} bytes) was never waited for: its event \
                         was still outstanding when its {whose} ended",
                        p.queue.engine.name(),
                        p.direction.op(),
                        p.copy.bytes()
                    ),
                );
            }
        }
    }
}

/// The rank a delivered copy's errors are charged to: the process's own
/// (only `mpi-rma`, one rank per process, reports them).
fn copy_rank(state: &State<'_>) -> usize {
    state.domain.local().start
}
