//! Running one kernel per rank, each on its own thread, with the
//! bookkeeping the device functions need: which rank a thread is, whether
//! it is blocked and on what, the traffic counters, and the deadlock
//! verdict.

use crate::domain::CommDomain;
use crate::report::{BlockedRank, DeadlockReport};
use crate::signal::Compare;
use pld_dialect::enums::WaitCmp;
use std::cell::Cell;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Per-rank traffic, as counted by the device functions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    pub notifies: u64,
    pub waits: u64,
    /// Bytes read from other ranks' windows.
    pub remote_bytes_read: u64,
    /// Bytes written into other ranks' windows.
    pub remote_bytes_written: u64,
}

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
        cell: *const AtomicI32,
        expected: i32,
        cmp: WaitCmp,
        since: Instant,
    },
    Done,
}

struct Slot {
    status: Mutex<Status>,
    counters: AtomicCounters,
}

/// The state the rank threads share during one run.
pub(crate) struct State<'d> {
    pub domain: &'d CommDomain,
    kernel: String,
    deadline: Duration,
    slots: Vec<Slot>,
    stopped: AtomicBool,
    deadlock: Mutex<Option<DeadlockReport>>,
    errors: Mutex<Vec<String>>,
    /// Per-rank timeline, when tracing.
    trace: Option<Vec<Mutex<Vec<Event>>>>,
    start: Instant,
}

/// One step of a rank, for the timeline.
#[derive(Clone, Debug)]
pub(crate) struct Event {
    pub name: &'static str,
    /// Microseconds since the run started.
    pub begin: f64,
    pub duration: f64,
    /// `"key": value` pairs, already JSON.
    pub args: String,
}

// SAFETY: the raw cell pointers in `Status` point into the domain's
// windows, which outlive the run and are only accessed atomically.
unsafe impl Send for Slot {}
unsafe impl Sync for Slot {}

thread_local! {
    /// The run and rank the current thread simulates, while it does.
    static CURRENT: Cell<Option<(*const State<'static>, usize)>> = const { Cell::new(None) };
}

/// Calls `f` with the state and rank of the calling thread, if it is a
/// rank thread of a run.
pub(crate) fn with_current<R>(f: impl FnOnce(&State<'_>, usize) -> R) -> Option<R> {
    CURRENT.with(|c| c.get()).map(|(state, rank)| {
        // SAFETY: set by `Run::execute` for the duration of the rank's
        // kernel, during which the state lives (scoped threads).
        f(unsafe { &*state }, rank)
    })
}

impl State<'_> {
    /// Adds a step that began at `begin` and ends now to `rank`'s timeline,
    /// when the run is traced. `args` is computed only then.
    pub fn record(
        &self,
        rank: usize,
        name: &'static str,
        begin: Instant,
        args: impl FnOnce() -> String,
    ) {
        if let Some(trace) = &self.trace {
            let now = Instant::now();
            let micros = |t: Instant| t.duration_since(self.start).as_secs_f64() * 1e6;
            trace[rank].lock().unwrap().push(Event {
                name,
                begin: micros(begin),
                duration: micros(now) - micros(begin),
                args: args(),
            });
        }
    }

    pub fn counters(&self, rank: usize) -> &AtomicCounters {
        &self.slots[rank].counters
    }

    pub fn stopped(&self) -> bool {
        self.stopped.load(Ordering::Acquire)
    }

    pub fn error(&self, rank: usize, message: String) {
        self.errors
            .lock()
            .unwrap()
            .push(format!("rank {rank}: {message}"));
    }

    /// Blocks `rank` until `cell` compares `cmp` to `expected`, or the run
    /// is stopped (a deadlock was declared). Spins briefly, then yields,
    /// then sleeps, so that blocked ranks leave the CPU to running ones.
    pub fn wait(&self, rank: usize, cell: &AtomicI32, expected: i32, cmp: WaitCmp) {
        let mut spins = 0u32;
        let mut blocked = false;
        let mut last_check = Instant::now();
        loop {
            if cmp.holds(cell.load(Ordering::Acquire), expected) || self.stopped() {
                break;
            }
            if !blocked {
                *self.slots[rank].status.lock().unwrap() = Status::Blocked {
                    cell,
                    expected,
                    cmp,
                    since: Instant::now(),
                };
                blocked = true;
            }
            spins += 1;
            if spins < 200 {
                std::hint::spin_loop();
            } else if spins < 400 {
                std::thread::yield_now();
            } else {
                std::thread::sleep(Duration::from_micros(50));
            }
            if last_check.elapsed() >= Duration::from_millis(2) {
                last_check = Instant::now();
                self.declare_deadlock_if_stuck();
            }
        }
        if blocked {
            *self.slots[rank].status.lock().unwrap() = Status::Running;
        }
    }

    /// Stops the run when every live rank has been blocked longer than the
    /// deadline on a condition that still does not hold.
    fn declare_deadlock_if_stuck(&self) {
        // Hold every rank's status for the whole scan: a rank that notifies
        // a waiter and then finishes must not be seen finished while the
        // waiter's cell is seen before the notify. (No thread holds two of
        // these locks otherwise, so this cannot deadlock.)
        let statuses: Vec<_> = self
            .slots
            .iter()
            .map(|s| s.status.lock().unwrap())
            .collect();
        let now = Instant::now();
        let mut blocked = Vec::new();
        let mut finished = Vec::new();
        for (rank, status) in statuses.iter().enumerate() {
            match **status {
                Status::Running => return,
                Status::Done => finished.push(rank),
                Status::Blocked {
                    cell,
                    expected,
                    cmp,
                    since,
                } => {
                    // SAFETY: the cell is in a window of the domain.
                    let actual = unsafe { &*cell }.load(Ordering::Acquire);
                    if now.duration_since(since) < self.deadline || cmp.holds(actual, expected) {
                        return;
                    }
                    let located = self.domain.locate(cell as usize, 4);
                    blocked.push(BlockedRank {
                        rank,
                        kernel: self.kernel.clone(),
                        window: located.map(|(w, _)| w),
                        offset: located.map_or(cell as usize, |(_, o)| o),
                        cmp: cmp.symbol(),
                        expected,
                        actual,
                    });
                }
            }
        }
        if blocked.is_empty() {
            return;
        }
        drop(statuses);
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
    /// Per rank.
    pub counters: Vec<Counters>,
    /// The timeline in Chrome's trace format (JSON, for Perfetto or
    /// chrome://tracing), when the run was traced.
    pub trace: Option<String>,
}

impl Outcome {
    pub fn ok(&self) -> bool {
        self.deadlock.is_none() && self.errors.is_empty()
    }
}

/// One execution of a kernel on every rank of a domain.
pub struct Run<'d> {
    domain: &'d CommDomain,
    deadline: Duration,
    trace: bool,
}

impl<'d> Run<'d> {
    /// `deadline`: how long every live rank may be blocked before the run
    /// is declared deadlocked.
    pub fn new(domain: &'d CommDomain, deadline: Duration) -> Self {
        Run {
            domain,
            deadline,
            trace: false,
        }
    }

    /// Records a timeline of every rank's kernel, waits, notifies and
    /// copies (`Outcome::trace`).
    pub fn traced(mut self, trace: bool) -> Self {
        self.trace = trace;
        self
    }

    /// Runs `kernel` once per rank, each on its own thread, and waits for
    /// all of them. `name` is how reports refer to the kernel.
    pub fn execute(&self, name: &str, kernel: impl Fn(RankEnv<'d>) + Sync) -> Outcome {
        let ranks = self.domain.ranks();
        let state = State {
            domain: self.domain,
            kernel: name.to_string(),
            deadline: self.deadline,
            slots: (0..ranks)
                .map(|_| Slot {
                    status: Mutex::new(Status::Running),
                    counters: AtomicCounters::default(),
                })
                .collect(),
            stopped: AtomicBool::new(false),
            trace: self
                .trace
                .then(|| (0..ranks).map(|_| Mutex::new(Vec::new())).collect()),
            start: Instant::now(),
            deadlock: Mutex::new(None),
            errors: Mutex::new(Vec::new()),
        };
        std::thread::scope(|scope| {
            for rank in 0..ranks {
                let state = &state;
                let kernel = &kernel;
                let domain = self.domain;
                std::thread::Builder::new()
                    .name(format!("rank {rank}"))
                    .spawn_scoped(scope, move || {
                        // The thread-local forgets the lifetime; it is
                        // cleared before the state goes away.
                        let erased = std::ptr::from_ref(state).cast::<State<'static>>();
                        CURRENT.with(|c| c.set(Some((erased, rank))));
                        let begin = Instant::now();
                        let result = std::panic::catch_unwind(AssertUnwindSafe(|| {
                            kernel(RankEnv { rank, domain })
                        }));
                        state.record(rank, "kernel", begin, || format!("\"kernel\": {name:?}"));
                        crate::tiles::release();
                        CURRENT.with(|c| c.set(None));
                        if let Err(panic) = result {
                            let message = panic
                                .downcast_ref::<String>()
                                .cloned()
                                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                                .unwrap_or_else(|| "panicked".into());
                            state.error(rank, format!("kernel {name} failed: {message}"));
                        }
                        *state.slots[rank].status.lock().unwrap() = Status::Done;
                    })
                    .expect("spawn a rank thread");
            }
        });
        let counters = state.slots.iter().map(|s| s.counters.snapshot()).collect();
        let trace = state.trace.as_ref().map(|ranks| chrome_trace(ranks));
        Outcome {
            trace,
            deadlock: state.deadlock.into_inner().unwrap(),
            errors: state.errors.into_inner().unwrap(),
            counters,
        }
    }
}

/// The timeline as Chrome trace events: one thread per rank, complete
/// events (`"ph": "X"`) in microseconds.
fn chrome_trace(ranks: &[Mutex<Vec<Event>>]) -> String {
    let mut events = Vec::new();
    for (rank, timeline) in ranks.iter().enumerate() {
        events.push(format!(
            "{{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 0, \"tid\": {rank}, \"args\": {{\"name\": \"rank {rank}\"}}}}"
        ));
        for event in timeline.lock().unwrap().iter() {
            events.push(format!(
                "{{\"name\": \"{}\", \"ph\": \"X\", \"pid\": 0, \"tid\": {rank}, \"ts\": {:.3}, \"dur\": {:.3}, \"args\": {{{}}}}}",
                event.name, event.begin, event.duration, event.args
            ));
        }
    }
    format!("{{\"traceEvents\": [\n{}\n]}}\n", events.join(",\n"))
}
