//! The `pld-explore-protocol` pass's watchdog: a schedule whose ranks take
//! no scheduling decision for [`QUIET`] cannot end. Either a rank polls a
//! flag no rank sets with scalar reads, past the cut the explorer makes
//! after [`NO_PROGRESS_STEPS`] decisions without progress (a read cannot
//! be made to hold, as a failed wait or test is), or a rank loops without
//! any device call, where the simulator never gets control back. Neither
//! rank can be stopped, so the watchdog reports the schedule as a finding
//! at the kernel, with its replay command, and ends the process with
//! status 1 (the pass hung with no output before); `pld-run --explore`
//! ends its process the same way.

use crate::explore::scheduler::{cut_schedules, decisions, NO_PROGRESS_STEPS};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

/// How long a schedule may go without a decision: the explorer's own
/// deadlock deadline in the pass.
pub const QUIET: Duration = Duration::from_secs(10);

/// How often the watchdog looks.
const PERIOD: Duration = Duration::from_millis(100);

/// The schedule running, as the watchdog sees it.
struct Running {
    /// `file:line:col: error: protocol explorer, <ranks, seed, replay>`.
    prefix: String,
    /// The process's cut schedules when it began.
    cut: u64,
    since: Instant,
}

/// Shared between the pass and its watchdog thread.
#[derive(Default)]
pub struct Watch {
    running: Mutex<Option<Running>>,
    done: Mutex<bool>,
    wake: Condvar,
}

impl Watch {
    /// Runs `work` with a watchdog thread beside it.
    pub fn around<T>(work: impl FnOnce(&Watch) -> T) -> T {
        let watch = Watch::default();
        std::thread::scope(|scope| {
            let spawned = std::thread::Builder::new()
                .name("explore-watch".into())
                .spawn_scoped(scope, || watch.watch());
            let result = work(&watch);
            *watch.done.lock().unwrap_or_else(|e| e.into_inner()) = true;
            watch.wake.notify_all();
            drop(spawned);
            result
        })
    }

    /// A schedule begins; `prefix` is how its finding would start.
    pub fn begin(&self, prefix: String) {
        *self.running.lock().unwrap_or_else(|e| e.into_inner()) = Some(Running {
            prefix,
            cut: cut_schedules(),
            since: Instant::now(),
        });
    }

    /// The schedule ended.
    pub fn end(&self) {
        *self.running.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }

    fn watch(&self) {
        let mut last = (decisions(), Instant::now());
        let mut done = self.done.lock().unwrap_or_else(|e| e.into_inner());
        while !*done {
            done = match self.wake.wait_timeout(done, PERIOD) {
                Ok((guard, _)) => guard,
                Err(poisoned) => poisoned.into_inner().0,
            };
            let now = decisions();
            if now != last.0 {
                last = (now, Instant::now());
                continue;
            }
            let running = self.running.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(r) = running.as_ref() {
                let stalled = last.1.max(r.since).elapsed();
                if !*done && stalled >= QUIET {
                    stop(r, stalled);
                }
            }
        }
    }
}

/// Reports the stalled schedule and ends the process.
fn stop(running: &Running, stalled: Duration) -> ! {
    let why = match cut_schedules() > running.cut {
        true => format!(
            "no progress: {NO_PROGRESS_STEPS} decisions in a row in which no rank wrote, \
             notified, got past a wait or a test, moved a copy or ended, and a rank still polls \
             (a flag read with pld.tensor_read that no rank sets?)"
        ),
        false => format!(
            "no device call for {} s: a rank loops without notifying, waiting, copying or \
             reading a window, which the explorer cannot schedule around",
            stalled.as_secs()
        ),
    };
    pld_ir::say!(
        "{}: {why}; its ranks cannot be stopped, so pld-explore-protocol ends the process",
        running.prefix
    );
    crate::runtime::interrupt::end_process(1)
}
