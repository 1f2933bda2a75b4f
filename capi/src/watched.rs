//! Explored runs on a thread of their own, watched by the caller's.
//!
//! A schedule can fail to end in a way nothing inside the run can stop: a
//! rank polls a flag no rank sets with scalar reads, past the explorer's
//! no-progress cut, or loops without any device call, where the simulator
//! never gets control back. `pldProgramRun` with explored schedules
//! therefore loads the module again on a thread of its own (a loaded
//! program's compiled code belongs to the thread that loaded it; the
//! compile cache makes the second load cheap), runs the sweep there, and
//! waits on the caller's thread, asking the sweep's
//! [`Watch`](pld_sim::program::explore_watch::Watch) every [`TICK`]. A
//! schedule that took no scheduling decision for the run's deadline ends
//! the call: the result holds what the schedules before it found and that
//! schedule as its last finding, the outputs are not written, and the
//! exploring thread is left behind (as `pld.explore` leaves it; `pld-run
//! --explore` ends its process there). The run's time limit bounds the
//! wait as well: a sweep still running [`GRACE`] past it (its schedule
//! could not be stopped) is given up the same way, with the time limit's
//! finding.

use crate::program::Loaded;
use crate::report::{Finding, FindingKind, Report};
use crate::run::{run_schedules, starts, Finals, Input, Options, Seeds, Sweep, Watcher};
use pld_sim::program::explore_watch::Watch;
use pld_sim::runtime::interrupt::Stop;
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How often the caller's thread looks at the sweep.
const TICK: Duration = Duration::from_millis(50);

/// How long past the run's time limit the caller's thread waits for the
/// sweep to end on its own (a schedule that can be stopped ends in far
/// less) before it gives the schedule up.
const GRACE: Duration = Duration::from_millis(500);

/// The sweep as the waiting thread sees it: the report of the schedules
/// that ended, the schedule that runs, and the sweep's stop.
pub struct Progress {
    report: Mutex<Option<Report>>,
    seed: Mutex<u64>,
    watch: Watch,
    /// The stop the sweep runs under (its time limit requests it too):
    /// requested when the caller gives a schedule up, so that its ranks
    /// that poll park instead of spinning.
    stop: Stop,
}

impl Watcher for Progress {
    fn begin(&self, seed: u64) {
        *lock(&self.seed) = seed;
        self.watch.begin(format!("schedule {seed}"));
    }

    fn ended(&self, report: &Report) {
        self.watch.end();
        *lock(&self.report) = Some(report.clone());
    }

    fn stop(&self) -> Stop {
        self.stop.clone()
    }
}

impl Progress {
    /// The report of the schedules that ended.
    fn so_far(&self, ranks: usize) -> Report {
        lock(&self.report).clone().unwrap_or(Report {
            ranks,
            ..Report::default()
        })
    }

    /// The report of the schedules that ended, the stalled one its last
    /// finding; `None` while no schedule is stalled.
    fn stalled(&self, ranks: usize) -> Option<Report> {
        let stalled = self.watch.stalled_parts()?;
        let why = stalled.why;
        let seed = *lock(&self.seed);
        let mut report = self.so_far(ranks);
        let mut finding = Finding::message(
            FindingKind::NoProgress,
            format!(
                "schedule {seed} cannot end: {why}; the exploration ends here and its rank \
                 threads are left behind"
            ),
        );
        finding.key = "a schedule that cannot end".into();
        finding.ranks = stalled.polling.iter().map(|a| a.rank).collect();
        finding.locations = (stalled.polling.iter())
            .filter_map(|a| Some(a.site.as_ref()?.location.clone()))
            .collect();
        report.merge(vec![finding], seed);
        Some(report)
    }

    /// The report of a sweep whose time limit passed while a schedule
    /// that cannot be stopped ran on: the schedules that ended, and the
    /// time limit's finding.
    fn over_time(&self, ranks: usize, limit: Duration, total: usize) -> Report {
        let mut report = self.so_far(ranks);
        let mut finding = crate::run::over_time(limit, report.schedules, total);
        finding.message += "; the schedule did not end (a rank that cannot be stopped: its \
                            thread is left behind), so the outputs are not written";
        report.stopped = true;
        report.findings.push(finding);
        report
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

/// What the exploring thread sends back.
type Ran = Result<(Report, Finals), String>;

/// Runs `loaded` with `inputs` (each checked, at most one per buffer and
/// rank; a buffer without one starts as zeros): a plain run on the
/// calling thread, explored schedules on a thread of their own; what it
/// found, and the buffers after the (last) run.
pub fn run(loaded: &Loaded, options: &Options, inputs: &[Input]) -> Ran {
    let start = starts(loaded, options, inputs)?;
    match options.explore {
        Some((first, count)) if count > 0 => {
            explore(loaded, options, &start, Seeds::Explore { first, count })
        }
        _ => {
            let sweep = Sweep {
                seeds: Seeds::Plain,
                watcher: None,
            };
            run_schedules(loaded, options, &start, &sweep)
        }
    }
}

/// Runs the explored `seeds` of `loaded` with the inputs `start`
/// (`[buffer][rank]`) on a thread of its own (see the module's doc).
fn explore(loaded: &Loaded, options: &Options, start: &[Vec<Option<&[u8]>>], seeds: Seeds) -> Ran {
    let progress = Arc::new(Progress {
        report: Mutex::new(None),
        seed: Mutex::new(0),
        watch: Watch::new(options.deadline),
        stop: Stop::default(),
    });
    let started = Instant::now();
    let (result, thread) = spawn(loaded, options, start, (seeds, progress.clone()))?;
    let give_up = (options.time_limit).map(|limit| (limit, limit.saturating_add(GRACE)));
    let gave_up = |report: Report| -> Ran {
        progress.stop.request();
        Ok((report, Vec::new()))
    };
    loop {
        match result.recv_timeout(TICK) {
            Ok(ran) => {
                // Its compiled kernels go as it ends: not while the host
                // exits.
                let _ = thread.join();
                return ran;
            }
            Err(RecvTimeoutError::Timeout) => {
                if let Some(report) = progress.stalled(loaded.ranks) {
                    return gave_up(report);
                }
                if let Some((limit, _)) = give_up.filter(|(_, at)| started.elapsed() >= *at) {
                    return gave_up(progress.over_time(loaded.ranks, limit, seeds.len()));
                }
            }
            Err(RecvTimeoutError::Disconnected) => {
                let _ = thread.join();
                return Err(
                    "internal error in libpld: the exploring thread ended without a \
                            result"
                        .into(),
                );
            }
        }
    }
}

/// Starts the sweep on its thread, the module loaded there again: where
/// its result comes, and the thread.
fn spawn(
    loaded: &Loaded,
    options: &Options,
    start: &[Vec<Option<&[u8]>>],
    (seeds, progress): (Seeds, Arc<Progress>),
) -> Result<(Receiver<Ran>, JoinHandle<()>), String> {
    let (done, result) = channel();
    let owned: Vec<Vec<Option<Vec<u8>>>> = start
        .iter()
        .map(|ranks| ranks.iter().map(|b| b.map(<[u8]>::to_vec)).collect())
        .collect();
    let reload = loaded.reload();
    let options = options.clone();
    let worker = move || {
        let start: Vec<Vec<Option<&[u8]>>> = owned
            .iter()
            .map(|ranks| ranks.iter().map(Option::as_deref).collect())
            .collect();
        let sweep = Sweep {
            seeds,
            watcher: Some(&*progress),
        };
        let ran = reload
            .load()
            .and_then(|again| run_schedules(&again, &options, &start, &sweep));
        let _ = done.send(ran);
    };
    let thread = std::thread::Builder::new()
        .name("pld-explore".into())
        .stack_size(pld_ir::nesting::STACK_BYTES)
        .spawn(worker)
        .map_err(|e| format!("cannot start the exploring thread: {e}"))?;
    Ok((result, thread))
}
