//! What the ranks of an MPI run know of each other, through paths that do
//! not depend on the kernels' windows (`crate::runtime::transport`):
//!
//! * the status board, a small MPI window of its own on process 0 where
//!   every rank publishes whether it runs, waits (on which cell, for what,
//!   seeing what, at which op) or finished, and a beat its process counts
//!   up whenever it looks at its waits again; a waiting rank reads it every
//!   few milliseconds and declares the deadlock when every rank has waited
//!   (or finished) with the states unchanged for the run's deadline, every
//!   waiting rank's process has beaten since, and no waiting cell holds
//!   when read, then raises the board's stop flag, which ends every other
//!   rank's wait;
//! * [`gather`]: after the kernels, every rank's share of the outcome
//!   (counters, errors, fatal errors, logs, remote writes, its timeline)
//!   to every process (`MPI_Allgatherv`), merged as one run's.

use crate::runtime::mpi::Win;
use crate::runtime::records::{Counters, Event, Fatal, RemoteWrite};
use crate::runtime::report::{BlockedRank, DeadlockReport, RankSeen, Within};
use crate::runtime::sites::Site;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The i64 fields of one rank's state.
const FIELDS: usize = 8;
/// A rank's entry: its state, then its beat, which its process counts up
/// each time it looks at its waits again while it waits.
const ENTRY: usize = FIELDS + 1;
const BEAT: usize = FIELDS;
const RUNNING: i64 = 0;
const WAITING: i64 = 1;
const DONE: i64 = 2;

/// One rank's state, as published.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Published {
    Running,
    Done,
    Waiting {
        /// `(block_idx, block_num)` of a block thread.
        block: Option<(i32, i32)>,
        window: usize,
        offset: usize,
        ge: bool,
        expected: i32,
        actual: i32,
        site: i64,
    },
}

impl Published {
    fn encode(self) -> [i64; FIELDS] {
        match self {
            Published::Running => [RUNNING, 0, 0, 0, 0, 0, 0, 0],
            Published::Done => [DONE, 0, 0, 0, 0, 0, 0, 0],
            Published::Waiting {
                block,
                window,
                offset,
                ge,
                expected,
                actual,
                site,
            } => {
                let (index, width) = block.unwrap_or((-1, 0));
                [
                    WAITING,
                    window as i64,
                    offset as i64,
                    i64::from(ge),
                    i64::from(expected),
                    i64::from(actual),
                    site,
                    (i64::from(index) << 32) | i64::from(width as u32),
                ]
            }
        }
    }
}

/// The status board of one run.
pub(crate) struct Board {
    win: Win,
    ranks: usize,
    me: usize,
    /// What this process published last (published again only on change).
    last: Mutex<Option<[i64; ENTRY]>>,
    /// This process's beat.
    beat: std::sync::atomic::AtomicI64,
    /// The board as last read, and since when it has looked so.
    seen: Mutex<Option<(Vec<i64>, Instant)>>,
    /// The board as last read, and when (for [`Board::last_read`]).
    latest: Mutex<Option<(Vec<i64>, Instant)>>,
}

impl Board {
    /// The board of a run of `ranks` ranks (collective).
    pub fn new(ranks: usize, me: usize) -> Result<Board, String> {
        let bytes = if me == 0 { (ranks * ENTRY + 1) * 8 } else { 0 };
        Ok(Board {
            win: Win::allocate(bytes, false)?,
            ranks,
            me,
            last: Mutex::new(None),
            beat: std::sync::atomic::AtomicI64::new(0),
            seen: Mutex::new(None),
            latest: Mutex::new(None),
        })
    }

    /// Publishes this process's rank's state (when it changed), and with
    /// `beat` a new beat: the process has looked at its waits again
    /// ([`Board::check`] trusts a waiting entry only after that).
    pub fn publish(&self, state: Published, beat: bool) {
        use std::sync::atomic::Ordering;
        let count = match beat {
            true => self.beat.fetch_add(1, Ordering::AcqRel) + 1,
            false => self.beat.load(Ordering::Acquire),
        };
        let mut entry = [0i64; ENTRY];
        entry[..FIELDS].copy_from_slice(&state.encode());
        entry[BEAT] = count;
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        if *last != Some(entry) {
            *last = Some(entry);
            let _ = self.win.store_i64(0, self.me * ENTRY * 8, &entry);
        }
    }

    fn read(&self) -> Vec<i64> {
        let mut board = vec![0i64; self.ranks * ENTRY + 1];
        let _ = self.win.load_i64(0, 0, &mut board);
        *self.latest.lock().unwrap_or_else(|e| e.into_inner()) =
            Some((board.clone(), Instant::now()));
        board
    }

    /// Every rank's state as this process last read the board (a waiting
    /// rank reads it every few milliseconds), and how long ago; `None`
    /// before a first read. No MPI call: a thread stuck in one (holding
    /// the process's MPI lock) cannot hold this up.
    pub fn last_read(&self) -> Option<(Vec<RankSeen>, Duration)> {
        let latest = self.latest.lock().unwrap_or_else(|e| e.into_inner());
        let (board, when) = latest.as_ref()?;
        let seen = (0..self.ranks)
            .map(|rank| {
                let e = &board[rank * ENTRY..(rank + 1) * ENTRY];
                match e[0] {
                    DONE => RankSeen::Finished,
                    WAITING => RankSeen::Waits(crate::runtime::sites::get(e[6])),
                    _ => RankSeen::Runs,
                }
            })
            .collect();
        Some((seen, when.elapsed()))
    }

    /// Reads the board: `Err(())` when the stop flag is up; the deadlock
    /// when every rank has waited or finished, at least one waits, the
    /// states have not changed for `deadline`, every waiting rank's process
    /// has beaten since they stopped changing (it looked at all its waits
    /// again, and none held), no waiting rank's cell holds what it waits
    /// for (`holds(window, offset, ge, expected)`, read now), and the states
    /// are still the same after those reads (the flag is then raised). An
    /// entry can be stale: a process kept off the CPU for the deadline has
    /// not seen its cells change, and one whose wait just ended publishes
    /// that it runs before it consumes the cell.
    pub fn check(
        &self,
        deadline: Duration,
        kernel: &str,
        holds: impl Fn(usize, usize, bool, i32) -> bool,
    ) -> Result<Option<DeadlockReport>, ()> {
        let board = self.read();
        if board[self.ranks * ENTRY] != 0 {
            return Err(());
        }
        let states: Vec<i64> = (0..self.ranks).map(|r| board[r * ENTRY]).collect();
        let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        if states.contains(&RUNNING) || !states.contains(&WAITING) {
            *seen = None;
            return Ok(None);
        }
        match &*seen {
            Some((first, since)) if same_states(first, &board, self.ranks) => {
                let beaten = (0..self.ranks).all(|r| {
                    board[r * ENTRY] != WAITING || board[r * ENTRY + BEAT] > first[r * ENTRY + BEAT]
                });
                if since.elapsed() < deadline || !beaten {
                    return Ok(None);
                }
            }
            _ => {
                *seen = Some((board, Instant::now()));
                return Ok(None);
            }
        }
        let stale = (0..self.ranks)
            .map(|r| &board[r * ENTRY..(r + 1) * ENTRY])
            .any(|e| {
                e[0] == WAITING && holds(e[1] as usize, e[2] as usize, e[3] != 0, e[4] as i32)
            });
        if stale || !same_states(&self.read(), &board, self.ranks) {
            *seen = None;
            return Ok(None);
        }
        let _ = self.win.store_i64(0, self.ranks * ENTRY * 8, &[1]);
        Ok(Some(report(&board, self.ranks, deadline, kernel)))
    }
}

/// Whether two reads of the board show every rank in the same state
/// (their beats aside).
fn same_states(a: &[i64], b: &[i64], ranks: usize) -> bool {
    (0..ranks).all(|r| a[r * ENTRY..r * ENTRY + FIELDS] == b[r * ENTRY..r * ENTRY + FIELDS])
}

/// The deadlock a board shows.
fn report(board: &[i64], ranks: usize, deadline: Duration, kernel: &str) -> DeadlockReport {
    let mut blocked = Vec::new();
    let mut finished = Vec::new();
    for rank in 0..ranks {
        let e = &board[rank * ENTRY..(rank + 1) * ENTRY];
        match e[0] {
            DONE => finished.push(rank),
            WAITING => {
                let (index, width) = ((e[7] >> 32) as i32, e[7] as u32 as i32);
                blocked.push(BlockedRank {
                    rank,
                    block: (index >= 0).then_some((index, width)),
                    kernel: kernel.to_string(),
                    window: Some(e[1] as usize),
                    offset: e[2] as usize,
                    cmp: if e[3] != 0 { ">=" } else { "==" },
                    expected: e[4] as i32,
                    actual: e[5] as i32,
                    site: crate::runtime::sites::get(e[6]),
                });
            }
            _ => {}
        }
    }
    DeadlockReport {
        deadline,
        blocked,
        finished,
    }
}

/// One process's share of a run's outcome.
#[derive(Default)]
pub(crate) struct Share {
    pub rank: usize,
    pub counters: Counters,
    pub errors: Vec<String>,
    pub fatals: Vec<Fatal>,
    pub logs: Vec<String>,
    pub remote_writes: Vec<RemoteWrite>,
    pub events: Vec<Event>,
    pub kernel_time: Duration,
    pub interrupted: bool,
    pub deadlock: Option<DeadlockReport>,
    /// What the rank ran when it last blocked, in a program.
    pub blocked_in: Option<Within>,
}

/// Every process's share, in rank order, on every process.
pub(crate) fn gather(share: &Share) -> Result<Vec<Share>, String> {
    let all = crate::runtime::mpi::allgather(&encode(share))?;
    all.iter()
        .map(|bytes| decode(bytes).ok_or_else(|| "a rank's report is malformed".to_string()))
        .collect()
}

/// The wire format of what processes gather: little-endian u64s, f64s
/// by their bits, strings and byte strings after their length.
pub(crate) struct Writer(pub Vec<u8>);

impl Writer {
    pub fn u64(&mut self, v: u64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    pub fn f64(&mut self, v: f64) {
        self.u64(v.to_bits());
    }
    pub fn str(&mut self, s: &str) {
        self.bytes(s.as_bytes());
    }
    pub fn bytes(&mut self, b: &[u8]) {
        self.u64(b.len() as u64);
        self.0.extend_from_slice(b);
    }
}

/// Reads what a [`Writer`] wrote; `None` for a message cut short.
pub(crate) struct Reader<'a>(pub &'a [u8]);

impl Reader<'_> {
    pub fn u64(&mut self) -> Option<u64> {
        let (head, rest) = self.0.split_first_chunk::<8>()?;
        self.0 = rest;
        Some(u64::from_le_bytes(*head))
    }
    pub fn f64(&mut self) -> Option<f64> {
        self.u64().map(f64::from_bits)
    }
    pub fn str(&mut self) -> Option<String> {
        self.bytes()
            .map(|text| String::from_utf8_lossy(&text).into_owned())
    }
    pub fn bytes(&mut self) -> Option<Vec<u8>> {
        let len = usize::try_from(self.u64()?).ok()?;
        let (head, rest) = (self.0.get(..len)?, self.0.get(len..)?);
        self.0 = rest;
        Some(head.to_vec())
    }
}

/// The names timeline events have (`State::record`), so a decoded event
/// keeps a `&'static str`.
const EVENT_NAMES: &[&str] = &[
    "kernel",
    "copy",
    "notify",
    "wait",
    "log",
    "task",
    "dma submit",
    "dma wait",
];

fn encode(share: &Share) -> Vec<u8> {
    let mut w = Writer(Vec::new());
    let c = share.counters;
    for v in [
        share.rank as u64,
        c.notifies,
        c.waits,
        c.remote_bytes_read,
        c.remote_bytes_written,
    ] {
        w.u64(v);
    }
    w.u64(share.kernel_time.as_nanos() as u64);
    w.u64(u64::from(share.interrupted));
    for list in [&share.errors, &share.logs] {
        w.u64(list.len() as u64);
        list.iter().for_each(|s| w.str(s));
    }
    w.u64(share.fatals.len() as u64);
    for f in &share.fatals {
        w.u64(f.code as u64);
        w.str(&f.message);
        w.str(&f.call);
    }
    w.u64(share.remote_writes.len() as u64);
    for r in &share.remote_writes {
        [r.window, r.offset, r.bytes]
            .iter()
            .for_each(|&v| w.u64(v as u64));
    }
    w.u64(share.events.len() as u64);
    for e in &share.events {
        let name = EVENT_NAMES.iter().position(|n| *n == e.name).unwrap_or(0);
        w.u64(name as u64);
        w.u64(e.track as u64);
        w.f64(e.begin);
        w.f64(e.duration);
        w.str(&e.args);
    }
    encode_deadlock(&mut w, share.deadlock.as_ref());
    encode_within(&mut w, share.blocked_in.as_ref());
    w.0
}

fn encode_deadlock(w: &mut Writer, deadlock: Option<&DeadlockReport>) {
    let Some(d) = deadlock else {
        w.u64(0);
        return;
    };
    w.u64(1);
    w.u64(d.deadline.as_nanos() as u64);
    w.u64(d.finished.len() as u64);
    d.finished.iter().for_each(|&r| w.u64(r as u64));
    w.u64(d.blocked.len() as u64);
    for b in &d.blocked {
        let (index, width) = b.block.unwrap_or((-1, 0));
        for v in [b.rank as u64, index as i64 as u64, width as i64 as u64] {
            w.u64(v);
        }
        w.str(&b.kernel);
        w.u64(b.window.map_or(u64::MAX, |x| x as u64));
        w.u64(b.offset as u64);
        w.u64(u64::from(b.cmp == ">="));
        w.u64(b.expected as i64 as u64);
        w.u64(b.actual as i64 as u64);
        w.str(&b.site.as_ref().map_or(String::new(), |s| s.op.to_string()));
        w.str(
            &b.site
                .as_ref()
                .map_or(String::new(), |s| s.location.clone()),
        );
    }
}

/// `within` as a count (0 or 1) and its kernel, then the call as a count
/// and its op and location.
fn encode_within(w: &mut Writer, within: Option<&Within>) {
    w.u64(u64::from(within.is_some()));
    if let Some(within) = within {
        w.str(&within.kernel);
        w.u64(u64::from(within.call.is_some()));
        if let Some(call) = &within.call {
            w.str(&call.op);
            w.str(&call.location);
        }
    }
}

fn decode_within(r: &mut Reader<'_>) -> Option<Option<Within>> {
    if r.u64()? == 0 {
        return Some(None);
    }
    let kernel = r.str()?;
    let call = match r.u64()? {
        0 => None,
        _ => Some(Site {
            op: r.str()?,
            location: r.str()?,
        }),
    };
    Some(Some(Within { kernel, call }))
}

fn decode(bytes: &[u8]) -> Option<Share> {
    let mut r = Reader(bytes);
    let rank = r.u64()? as usize;
    let counters = Counters {
        notifies: r.u64()?,
        waits: r.u64()?,
        remote_bytes_read: r.u64()?,
        remote_bytes_written: r.u64()?,
    };
    let kernel_time = Duration::from_nanos(r.u64()?);
    let interrupted = r.u64()? != 0;
    let mut lists = [Vec::new(), Vec::new()];
    for list in &mut lists {
        for _ in 0..r.u64()? {
            list.push(r.str()?);
        }
    }
    let [errors, logs] = lists;
    let mut fatals = Vec::new();
    for _ in 0..r.u64()? {
        let code = r.u64()? as i32;
        let message = r.str()?;
        let call = r.str()?;
        fatals.push(Fatal {
            rank,
            code,
            message,
            call,
        });
    }
    let mut remote_writes = Vec::new();
    for _ in 0..r.u64()? {
        let (window, offset, bytes) = (r.u64()? as usize, r.u64()? as usize, r.u64()? as usize);
        remote_writes.push(RemoteWrite {
            rank,
            window,
            offset,
            bytes,
        });
    }
    let mut events = Vec::new();
    for _ in 0..r.u64()? {
        events.push(Event {
            name: EVENT_NAMES.get(r.u64()? as usize).copied()?,
            track: r.u64()? as usize,
            begin: r.f64()?,
            duration: r.f64()?,
            args: r.str()?,
        });
    }
    let deadlock = decode_deadlock(&mut r)?;
    let blocked_in = decode_within(&mut r)?;
    Some(Share {
        rank,
        counters,
        errors,
        fatals,
        logs,
        remote_writes,
        events,
        kernel_time,
        interrupted,
        deadlock,
        blocked_in,
    })
}

fn decode_deadlock(r: &mut Reader<'_>) -> Option<Option<DeadlockReport>> {
    if r.u64()? == 0 {
        return Some(None);
    }
    let deadline = Duration::from_nanos(r.u64()?);
    let mut finished = Vec::new();
    for _ in 0..r.u64()? {
        finished.push(r.u64()? as usize);
    }
    let mut blocked = Vec::new();
    for _ in 0..r.u64()? {
        let rank = r.u64()? as usize;
        let (index, width) = (r.u64()? as i64 as i32, r.u64()? as i64 as i32);
        let kernel = r.str()?;
        let window = r.u64()?;
        let offset = r.u64()? as usize;
        let cmp = if r.u64()? != 0 { ">=" } else { "==" };
        let (expected, actual) = (r.u64()? as i64 as i32, r.u64()? as i64 as i32);
        let (op, location) = (r.str()?, r.str()?);
        blocked.push(BlockedRank {
            rank,
            block: (index >= 0).then_some((index, width)),
            kernel,
            window: (window != u64::MAX).then_some(window as usize),
            offset,
            cmp,
            expected,
            actual,
            site: (!op.is_empty()).then_some(Site { op, location }),
        });
    }
    Some(Some(DeadlockReport {
        deadline,
        blocked,
        finished,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_share_survives_the_wire() {
        let deadlock = DeadlockReport {
            deadline: Duration::from_millis(300),
            blocked: vec![BlockedRank {
                rank: 2,
                block: Some((1, 4)),
                kernel: "@k".into(),
                window: Some(2),
                offset: 8,
                cmp: ">=",
                expected: 3,
                actual: -1,
                site: Some(crate::runtime::sites::Site {
                    op: "pto.comm_twait".into(),
                    location: "k.mlir:4:8".into(),
                }),
            }],
            finished: vec![0],
        };
        let share = Share {
            rank: 2,
            counters: Counters {
                notifies: 1,
                waits: 2,
                remote_bytes_read: 3,
                remote_bytes_written: 4,
            },
            errors: vec!["rank 2: oops".into()],
            fatals: vec![Fatal {
                rank: 2,
                code: 5,
                message: "bad".into(),
                call: "f.mlir:3:8: pld.tensor_allreduce".into(),
            }],
            logs: vec!["a line".into()],
            remote_writes: vec![RemoteWrite {
                rank: 2,
                window: 1,
                offset: 64,
                bytes: 32,
            }],
            events: vec![Event {
                name: "wait",
                track: 1,
                begin: 1.5,
                duration: 2.25,
                args: "\"cell\": 2".into(),
            }],
            kernel_time: Duration::from_micros(1234),
            interrupted: false,
            deadlock: Some(deadlock.clone()),
            blocked_in: Some(Within {
                kernel: "builtin.tensor.barrier".into(),
                call: Some(Site {
                    op: "pld.tensor_barrier".into(),
                    location: "p.mlir:7:3".into(),
                }),
            }),
        };
        let back = decode(&encode(&share)).unwrap();
        assert_eq!(back.counters, share.counters);
        assert_eq!((&back.errors, &back.logs), (&share.errors, &share.logs));
        assert_eq!(back.fatals, share.fatals);
        assert_eq!(back.remote_writes, share.remote_writes);
        assert_eq!(back.events[0].name, "wait");
        assert_eq!(back.events[0].args, share.events[0].args);
        assert_eq!(back.kernel_time, share.kernel_time);
        assert_eq!(back.deadlock, Some(deadlock));
        assert_eq!(back.blocked_in, share.blocked_in);
        // A cut message is refused, not misread.
        let bytes = encode(&share);
        assert!(decode(&bytes[..bytes.len() - 3]).is_none());
    }

    #[test]
    fn a_waiting_rank_reads_back_as_published() {
        let waiting = Published::Waiting {
            block: Some((3, 8)),
            window: 1,
            offset: 12,
            ge: true,
            expected: 2,
            actual: 1,
            site: -1,
        };
        let mut board = vec![0i64; 2 * ENTRY + 1];
        board[..FIELDS].copy_from_slice(&Published::Done.encode());
        board[ENTRY..ENTRY + FIELDS].copy_from_slice(&waiting.encode());
        let report = report(&board, 2, Duration::from_secs(1), "@k");
        assert_eq!(report.finished, vec![0]);
        let b = &report.blocked[0];
        assert_eq!(
            (b.rank, b.block, b.window, b.offset),
            (1, Some((3, 8)), Some(1), 12)
        );
        assert_eq!(
            (b.cmp, b.expected, b.actual, b.site.is_none()),
            (">=", 2, 1, true)
        );
    }
}
