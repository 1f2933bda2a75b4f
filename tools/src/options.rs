//! What `pld-run` was asked to do ([`Options`]), the schedules of
//! `--explore` and `--replay` ([`Seeds`]), and the exit status of a
//! deadlock.

use std::time::Duration;

/// What `pld-run` was asked to do.
#[derive(Clone, Debug, Default)]
pub struct Options {
    pub input: String,
    pub kernel: Option<String>,
    /// The HOST orchestrator to run (program mode).
    pub entry: Option<String>,
    pub ranks: usize,
    /// `--ranks` was given (else `ranks` is 2, or a shard program's grid's
    /// device count).
    pub ranks_given: bool,
    /// `PARAM=GENERATOR` pairs.
    pub inputs: Vec<String>,
    pub check: bool,
    pub stats: bool,
    /// With `stats`: a row per rank instead of one over all ranks.
    pub per_rank: bool,
    pub deadline: Duration,
    /// `--time-limit`: how long the whole run may take.
    pub time_limit: Duration,
    pub output_dir: Option<String>,
    /// Where to write the Chrome-trace timeline.
    pub trace: Option<String>,
    /// Timed runs of the kernel (0 counts as 1); the reported time is
    /// their mean, the results those of the last.
    pub iters: usize,
    /// Untimed runs before them.
    pub warmup: usize,
    /// `--explore K` / `--replay SEED`: run under the protocol explorer.
    pub explore: Option<Seeds>,
    /// `--schedule-log FILE`: a line per explored schedule (seed, steps,
    /// the digest of its decisions, its findings' keys).
    pub schedule_log: Option<String>,
    /// How the ranks reach each other: threads, or MPI processes.
    pub transport: pld_sim::runtime::transport::Transport,
    /// Where compiled kernels are cached (`--no-cache`, `--cache-dir`).
    pub cache: pld_sim::compiler::cache::Choice,
    /// `--pld-cost-model FILE`: the model `mode = "auto"` is chosen by.
    pub cost_model: Option<String>,
    /// `--pld-cost-target NAME`: its table.
    pub cost_target: Option<String>,
}

/// Exit status of a deadlocked run (distinct from errors).
pub const DEADLOCK: i32 = 3;

/// Exit status of a malformed command line (as the argument parser's).
pub const USAGE: i32 = 2;

/// Why `pld-run` stopped with an error message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// A bad input or option value, or a failed run (status 1).
    Error(String),
    /// A malformed command line the argument parser cannot see, such as
    /// two `--input`s for one parameter (status [`USAGE`]).
    Usage(String),
    /// A failure another process of the MPI job had before the run, which
    /// process 0 has printed (status 1, nothing more to say).
    Reported,
}

impl Refusal {
    /// The process exit status.
    pub fn status(&self) -> i32 {
        match self {
            Refusal::Error(_) | Refusal::Reported => 1,
            Refusal::Usage(_) => USAGE,
        }
    }

    pub fn message(&self) -> &str {
        match self {
            Refusal::Error(message) | Refusal::Usage(message) => message,
            Refusal::Reported => "",
        }
    }
}

impl From<String> for Refusal {
    fn from(message: String) -> Self {
        Refusal::Error(message)
    }
}

/// Which schedules to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seeds {
    /// `count` schedules, seeds `first..first + count`.
    Explore { first: u64, count: usize },
    /// Exactly the schedule of one seed.
    Replay(u64),
}

impl Seeds {
    /// The seeds, one at a time (nothing is allocated per seed: a count
    /// up to `usize::MAX` is a long run, not an allocation).
    pub fn iter(self) -> impl Iterator<Item = u64> {
        let (first, count) = match self {
            Seeds::Explore { first, count } => (first, count),
            Seeds::Replay(seed) => (seed, 1),
        };
        (0..count as u64).map(move |i| first.wrapping_add(i))
    }

    /// How many schedules the seeds name.
    pub fn count(self) -> usize {
        match self {
            Seeds::Explore { count, .. } => count,
            Seeds::Replay(_) => 1,
        }
    }
}
