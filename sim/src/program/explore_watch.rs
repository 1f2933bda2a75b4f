//! Watching explored schedules for one that cannot end. A schedule whose
//! ranks take no scheduling decision for a while cannot end: either a
//! rank polls a flag no rank sets with scalar reads, past the cut the
//! explorer makes after [`NO_PROGRESS_STEPS`] decisions without progress
//! (a read cannot be made to hold, as a failed wait or test is), or a rank
//! loops without any device call, where the simulator never gets control
//! back. Neither rank can be stopped, so whoever runs schedules for a
//! caller (the `pld-explore-protocol` pass, `pld.explore`) runs them on a
//! thread of its own and asks [`Watch::stalled`] while it waits: a stalled
//! schedule is reported as a finding with its replay command, and its
//! thread is left behind (it hung the pass, or ended the process that
//! embedded it, before).

use crate::explore::scheduler::{cut_schedules, decisions, last_cut_pollers};
use crate::runtime::report::NO_PROGRESS_STEPS;
use crate::runtime::report::{polling_text, Actor};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How long a schedule may go without a decision: the explorer's own
/// deadlock deadline in the pass.
pub const QUIET: Duration = Duration::from_secs(10);

/// The schedule running, as the watch sees it.
struct Running {
    /// How its finding starts (`file:line:col: error: protocol explorer,
    /// <ranks, seed, replay>` in the pass).
    prefix: String,
    /// The process's cut schedules when it began.
    cut: u64,
    /// The process's decisions when it began: none taken since means its
    /// run has not started (its buffers are being filled).
    decisions: u64,
    since: Instant,
}

/// The schedule that runs and the process's decisions as last seen;
/// shared between the thread that runs schedules and the one that waits.
pub struct Watch {
    running: Mutex<Option<Running>>,
    /// The process's decision count and when it was seen to change.
    last: Mutex<(u64, Instant)>,
    quiet: Duration,
}

impl Watch {
    /// A watch that calls a schedule stalled after `quiet` without a
    /// decision.
    pub fn new(quiet: Duration) -> Self {
        Watch {
            running: Mutex::new(None),
            last: Mutex::new((decisions(), Instant::now())),
            quiet,
        }
    }

    /// A schedule begins; `prefix` is how its finding would start.
    pub fn begin(&self, prefix: String) {
        *self.running.lock().unwrap_or_else(|e| e.into_inner()) = Some(Running {
            prefix,
            cut: cut_schedules(),
            decisions: decisions(),
            since: Instant::now(),
        });
    }

    /// The schedule ended.
    pub fn end(&self) {
        *self.running.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }

    /// `Some(finding)` when the running schedule has taken no decision for
    /// the watch's quiet time: its prefix, then why it cannot end. Asked
    /// every so often by the waiting thread.
    pub fn stalled(&self) -> Option<String> {
        self.stalled_parts()
            .map(|stalled| format!("{}: {}", stalled.prefix, stalled.why))
    }

    /// [`Watch::stalled`] in its parts: the schedule's prefix, why it
    /// cannot end, and the ranks that poll on.
    pub fn stalled_parts(&self) -> Option<Stalled> {
        let now = decisions();
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        if now != last.0 {
            *last = (now, Instant::now());
            return None;
        }
        let running = self.running.lock().unwrap_or_else(|e| e.into_inner());
        let r = running.as_ref().filter(|r| now > r.decisions)?;
        let stalled = last.1.max(r.since).elapsed();
        (stalled >= self.quiet).then(|| {
            let (why, polling) = why(r, stalled);
            Stalled {
                prefix: r.prefix.clone(),
                why,
                polling,
            }
        })
    }
}

/// Why a schedule cut for making no progress cannot end: its ranks poll
/// on by scalar reads, unscheduled (a read cannot be made to hold, as a
/// failed wait or test is); the ranks that polled at the cut, at their op.
pub fn still_polling() -> String {
    still_polling_named(&|_| None)
}

/// [`still_polling`], each op named as the user wrote it where `pld_op`
/// knows the pld op at its `file:line:col` (the PTO op it became in
/// parentheses), as the findings name theirs.
pub fn still_polling_named(pld_op: &dyn Fn(&str) -> Option<String>) -> String {
    let polling = cut_polling();
    let mut polled = polling_text(&polling);
    for site in polling.iter().filter_map(|a| a.site.as_ref()) {
        if let Some(pld) = pld_op(&site.location) {
            let pto = format!("`{}` at {}", site.op, site.location);
            let both = format!("`{pld}` ({}) at {}", site.op, site.location);
            polled = polled.replace(&pto, &both);
        }
    }
    format!(
        "no progress: {NO_PROGRESS_STEPS} decisions in a row in which no rank wrote, notified, \
         got past a wait or a test, moved a copy or ended, and a rank still polls (a flag read \
         with pld.tensor_read that no rank sets?){polled}"
    )
}

/// The ranks that polled, at their ops, when the process's last schedule
/// was cut for making no progress (those of a kernel's ops).
fn cut_polling() -> Vec<Actor> {
    (last_cut_pollers().iter())
        .map(|p| crate::explore::poller("", p))
        .filter(|a| a.site.is_some())
        .collect()
}

/// A schedule that cannot end, as [`Watch::stalled_parts`] says it.
pub struct Stalled {
    /// How its finding starts.
    pub prefix: String,
    /// Why it cannot end.
    pub why: String,
    /// The ranks that poll on and where, for a schedule cut for making no
    /// progress (empty for one whose rank loops without device calls).
    pub polling: Vec<Actor>,
}

/// Why a schedule that took no decision for `stalled` cannot end.
fn why(running: &Running, stalled: Duration) -> (String, Vec<Actor>) {
    match cut_schedules() > running.cut {
        true => (still_polling(), cut_polling()),
        false => (
            format!(
                "no device call for {} s: a rank loops without notifying, waiting, copying or \
                 reading a window, which the explorer cannot schedule around",
                stalled.as_secs()
            ),
            Vec::new(),
        ),
    }
}
