//! `pld.explore`: `pld-run --explore K` (or `--replay SEED`) on the worker
//! thread: every schedule a run of the protocol explorer, judged by
//! `pld-run`'s own verdicts (`pld_tools::run_kernel::kernel_verdict`,
//! `pld_tools::explore::program_verdict`), each finding kept once with
//! the first seed that showed it.

use crate::error::Failure;
use crate::run::{check_kernel_memory, fill_ranks, kernel, program, Inputs, Kind, Request};
use pld_sim::program::explore_watch::Watch;
use pld_sim::program::orchestrate::Buffer;
use pld_sim::Schedule;
use pld_tools::explore::{program_verdict, Verdict};
use pld_tools::run_kernel::kernel_verdict;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// What to explore: the run, and the seeds `first..first + count`.
pub struct Exploration {
    pub request: Request,
    pub first: u64,
    pub count: usize,
}

/// What the schedules found.
#[derive(Clone)]
pub struct Explored {
    pub kind: Kind,
    pub name: String,
    pub schedules: usize,
    /// Scheduling decisions over all schedules.
    pub steps: u64,
    /// Each distinct finding: the first seed that showed it, its key
    /// (the ops involved) and its report.
    pub findings: Vec<(u64, String, String)>,
    /// Some schedule deadlocked.
    pub deadlock: bool,
    /// The sweep was stopped by the call's time limit.
    pub stopped: bool,
}

/// The sweep as the calling thread sees it while it waits: the schedules
/// explored so far and the one that runs, watched for a schedule that
/// cannot end (a rank polling a flag no rank sets, or looping without
/// device calls). No stop ends such a schedule, so the calling thread ends
/// the exploration there itself ([`Progress::stalled`]) and leaves the
/// worker behind, as `pld-run --explore` ends the process.
pub struct Progress {
    explored: Mutex<Option<Explored>>,
    seed: Mutex<u64>,
    watch: Watch,
}

impl Progress {
    /// A schedule is stalled after `quiet` (the call's `deadline`) without
    /// a scheduling decision.
    pub fn new(quiet: Duration) -> Arc<Self> {
        Arc::new(Progress {
            explored: Mutex::new(None),
            seed: Mutex::new(0),
            watch: Watch::new(quiet),
        })
    }

    /// What the schedules before a stalled one found, that schedule its
    /// last finding; `None` while no schedule is stalled.
    pub fn stalled(&self) -> Option<Explored> {
        let stalled = self.watch.stalled_parts()?;
        let mut explored = lock(&self.explored).clone()?;
        let seed = *lock(&self.seed);
        explored
            .findings
            .push((seed, STALLED.to_string(), stalled.why));
        Some(explored)
    }

    /// Schedule `seed` begins.
    fn begin(&self, seed: u64) {
        *lock(&self.seed) = seed;
        self.watch.begin(format!("schedule {seed}"));
    }
}

/// The key of a stalled schedule's finding.
const STALLED: &str = "a schedule that cannot end";

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

/// Explores the request's kernel or program.
pub fn explore(
    exploration: &Exploration,
    inputs: &Inputs,
    progress: &Progress,
) -> Result<Explored, Failure> {
    // As pld-run refuses them: the simulator reads the switches where no
    // error can be said.
    crate::run::environment()?;
    let exploration = &Exploration {
        request: exploration.request.with_shard_converted()?,
        ..*exploration
    };
    match exploration.request.kind()? {
        Kind::Program => explore_program(exploration, inputs, progress),
        Kind::Kernel => explore_kernel(exploration, inputs, progress),
    }
}

/// Every schedule a fresh run of the program (planned and compiled once).
fn explore_program(
    exploration: &Exploration,
    inputs: &Inputs,
    progress: &Progress,
) -> Result<Explored, Failure> {
    let request = &exploration.request;
    let run = program::load(request)?;
    let described = program::describe(&run);
    let fills = inputs.ask(described.clone())?;
    run.check_memory(request.ranks, request.check)
        .map_err(|e| request.refuse(e))?;
    let initial =
        fill_ranks(&described.slots, &fills, request.ranks).map_err(|e| request.refuse(e))?;
    let buffers = &run.buffers;
    let init = |buffer: &Buffer, device: usize| {
        initial[device][program::index_of(buffers, buffer)].clone()
    };
    let options = request.options();
    let sweep = Sweep {
        exploration,
        progress,
        kind: Kind::Program,
        name: &run.entry,
    };
    sweep.run(|schedule| program_verdict(&options, &run, &init, request.loaded(), schedule))
}

/// Every schedule a run of the kernel on fresh copies of its inputs.
fn explore_kernel(
    exploration: &Exploration,
    inputs: &Inputs,
    progress: &Progress,
) -> Result<Explored, Failure> {
    let request = &exploration.request;
    let options = request.options();
    let loaded = kernel::load(request)?;
    let chosen = kernel::choose(request, &loaded)?;
    let described = kernel::describe(chosen, request.ranks);
    let fills = inputs.ask(described.clone())?;
    check_kernel_memory(&described.slots, request.ranks).map_err(|e| request.refuse(e))?;
    let initial =
        fill_ranks(&described.slots, &fills, request.ranks).map_err(|e| request.refuse(e))?;
    let sweep = Sweep {
        exploration,
        progress,
        kind: Kind::Kernel,
        name: &chosen.name,
    };
    sweep.run(|schedule| {
        kernel_verdict(
            &options,
            &loaded,
            chosen,
            &initial,
            request.loaded(),
            schedule,
        )
    })
}

/// Every schedule of the kernel or program `name`.
struct Sweep<'a> {
    exploration: &'a Exploration,
    progress: &'a Progress,
    kind: Kind,
    name: &'a str,
}

impl Sweep<'_> {
    /// Runs every schedule, keeping each new finding with its seed in the
    /// progress the calling thread watches. Ctrl-C ends the sweep with
    /// `KeyboardInterrupt`; the call's time limit ends it with what the
    /// schedules before found (the schedule either cut short counts for
    /// nothing).
    fn run(
        &self,
        mut verdict: impl FnMut(Schedule) -> Result<Verdict, String>,
    ) -> Result<Explored, Failure> {
        let progress = self.progress;
        *lock(&progress.explored) = Some(Explored {
            kind: self.kind,
            name: self.name.to_string(),
            schedules: 0,
            steps: 0,
            findings: Vec::new(),
            deadlock: false,
            stopped: false,
        });
        let mut seen = HashSet::new();
        for i in 0..self.exploration.count {
            let seed = self.exploration.first.wrapping_add(i as u64);
            progress.begin(seed);
            let judged = verdict(Schedule { seed });
            progress.watch.end();
            if pld_sim::runtime::interrupt::pressed() {
                return Err(Failure::Interrupted);
            }
            let mut explored = lock(&progress.explored);
            let explored = explored.as_mut().expect("set before the first schedule");
            if pld_sim::runtime::interrupt::requested() {
                explored.stopped = true;
                return Ok(explored.clone());
            }
            let judged = judged.map_err(|e| self.exploration.request.refuse(e))?;
            explored.schedules += 1;
            explored.steps += judged.steps;
            explored.deadlock |= judged.deadlock;
            for (key, text) in judged.keys.into_iter().zip(judged.findings) {
                if seen.insert(key.clone()) {
                    explored.findings.push((seed, key, text));
                }
            }
        }
        Ok(lock(&progress.explored).clone().expect("set above"))
    }
}

impl Explored {
    /// The dictionary `pld._results.ExploreResult` is built from.
    pub fn into_python(self, py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("kind", self.kind.name())?;
        d.set_item("name", self.name)?;
        d.set_item("schedules", self.schedules)?;
        d.set_item("steps", self.steps)?;
        d.set_item("findings", self.findings)?;
        d.set_item("deadlock", self.deadlock)?;
        d.set_item("stopped", self.stopped)?;
        Ok(d)
    }
}
