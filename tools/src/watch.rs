//! What `pld-run` is doing and has done, for the moments it must stop
//! early, and the watchdog that stops it.
//!
//! The drivers tell this module the phase they are in ([`phase`]), what
//! they finished ([`done`]) and, under `--explore`, which schedule runs
//! ([`schedule_started`]). The watchdog ([`start`]) reads it:
//!
//! - **Ctrl-C.** The first SIGINT raises `pld_sim`'s interrupt flag; the
//!   run in progress stops as a deadlock would and the drivers, which look
//!   at the flag between runs and schedules, report what was done and
//!   exit with status 130. Should they not get there within
//!   [`GRACE`] (a rank in a loop without device calls, a long fill), the
//!   watchdog prints the same account and ends the process with 130. A
//!   second Ctrl-C ends it at once.
//! - **`--time-limit`.** The run is over its limit: the account of what
//!   ran, status 3.
//! - **A schedule that makes no device call** (explore mode): when no
//!   scheduling decision was taken for `--deadline` while a schedule runs,
//!   the running simulated thread loops without notifying, waiting or
//!   copying; the schedule is named (with its `--replay` seed) and the
//!   process ends with status 3. While a schedule runs, a progress line
//!   every [`HEARTBEAT`].

use crate::options::DEADLOCK;
use pld_sim::runtime::interrupt;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How long a process other than 0 of an MPI job waits after its
/// `--time-limit` before it exits, so that process 0 (whose limit ends
/// within moments of its own) reports first.
const MPI_STRAGGLE: Duration = Duration::from_secs(2);

/// How long the drivers get to stop by themselves after Ctrl-C.
pub const GRACE: Duration = Duration::from_millis(600);

/// How often a long schedule says that it runs.
pub const HEARTBEAT: Duration = Duration::from_secs(2);

/// How often the watchdog looks.
const TICK: Duration = Duration::from_millis(50);

/// A one-sided MPI transfer this long on average is slow: between the
/// processes of one machine one takes a few microseconds (about 9 us in a
/// debug build on the 2-vCPU VM), on a machine whose cores other work keeps
/// busy hundreds.
const SLOW_TRANSFER: Duration = Duration::from_micros(100);

/// How often the watchdog looks at the MPI transfers.
const MPI_WATCH: Duration = Duration::from_secs(5);

/// What the watchdog knows.
struct Account {
    /// What runs now ("filling the inputs", "run 3 of 10 of @k").
    phase: String,
    /// When the phase started.
    since: Option<Instant>,
    /// What finished, one clause ("2 of 10 runs finished").
    done: String,
    /// The schedule that runs now.
    schedule: Option<Running>,
}

/// A schedule that runs (explore mode).
struct Running {
    seed: u64,
    label: String,
    since: Instant,
    /// The process's scheduling decisions when it started: none taken yet
    /// means its run has not begun (its buffers are being filled).
    decisions: u64,
    /// The process's schedules cut for no progress when it started.
    cut: u64,
}

static ACCOUNT: Mutex<Account> = Mutex::new(Account {
    phase: String::new(),
    since: None,
    done: String::new(),
    schedule: None,
});

fn account() -> std::sync::MutexGuard<'static, Account> {
    ACCOUNT
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The explored module's file (its name and text), whose pld ops a
/// schedule cut for making no progress names.
static EXPLORED: Mutex<Option<(String, String)>> = Mutex::new(None);

/// Exploring `source` from now on.
pub fn exploring(source: pld_sim::compiler::Source) {
    let mut explored = EXPLORED.lock().unwrap_or_else(|e| e.into_inner());
    *explored = Some((source.name.to_string(), source.file.to_string()));
}

/// [`pld_sim::program::explore_watch::still_polling`] with the pld ops of
/// the explored file named.
fn still_polling() -> String {
    let explored = EXPLORED.lock().unwrap_or_else(|e| e.into_inner()).clone();
    let Some((name, file)) = explored else {
        return pld_sim::program::explore_watch::still_polling();
    };
    let source = pld_sim::compiler::Source::converted("", &name, &file);
    pld_sim::program::explore_watch::still_polling_named(&|location| {
        let (line, col) = crate::source_op::line_col(location, source)?;
        crate::source_op::pld_op_at(source.file, line, col)
    })
}

/// The phase that starts now.
pub fn phase(what: impl Into<String>) {
    let mut a = account();
    a.phase = what.into();
    a.since = Some(Instant::now());
}

/// What has been done so far (replaces the previous account).
pub fn done(what: impl Into<String>) {
    account().done = what.into();
}

/// Schedule `seed` of `label` starts (explore mode).
pub fn schedule_started(seed: u64, label: &str) {
    account().schedule = Some(Running {
        seed,
        label: label.to_string(),
        since: Instant::now(),
        decisions: pld_sim::explore::scheduler::decisions(),
        cut: pld_sim::explore::scheduler::cut_schedules(),
    });
}

/// The schedule that ran is over.
pub fn schedule_finished() {
    account().schedule = None;
}

/// ` (run 3 of 10)` for the run after `runs` of `total`, nothing for a
/// single run.
pub fn of_total(runs: usize, total: usize) -> String {
    match total {
        1 => String::new(),
        _ => format!(" (run {} of {total})", runs + 1),
    }
}

/// Whether Ctrl-C was pressed.
pub fn interrupted() -> bool {
    interrupt::requested()
}

/// What `pld-run` says when Ctrl-C stopped it: the phase it was in and
/// what was done.
pub fn interrupted_message() -> String {
    let a = account();
    let mut text = format!("pld-run: interrupted{}", interrupt::by());
    if !a.phase.is_empty() {
        text += &format!(" while {}", a.phase);
    }
    if !a.done.is_empty() {
        text += &format!("; {}", a.done);
    }
    text
}

/// Installs the Ctrl-C handler and starts the watchdog: `limit` is
/// `--time-limit`, `quiet` (`--deadline`) how long a schedule may take no
/// decision.
pub fn start(limit: Duration, quiet: Duration) {
    interrupt::install();
    let started = Instant::now();
    std::thread::spawn(move || {
        let mut interrupted_at = None;
        let mut heartbeat = Instant::now();
        let mut decisions = (pld_sim::explore::scheduler::decisions(), Instant::now());
        let mut transfers = (pld_sim::runtime::mpi::transfers_so_far(), Instant::now());
        let mut slow_said = false;
        loop {
            std::thread::sleep(TICK);
            if interrupt::requested() {
                let at = *interrupted_at.get_or_insert_with(Instant::now);
                if at.elapsed() >= GRACE {
                    say_interrupted(interrupted_message());
                    crate::files::remove_partial();
                    interrupt::end_process(interrupt::status());
                }
                continue;
            }
            if started.elapsed() >= limit {
                // Under MPI every process ends itself so (mpirun then ends
                // the job with the first status, 3); process 0 says why,
                // and the others give it time to, before their exit makes
                // mpirun end it.
                say(over_time(limit, quiet));
                if !crate::speaker::reports() {
                    std::thread::sleep(MPI_STRAGGLE);
                }
                crate::files::remove_partial();
                interrupt::end_process(DEADLOCK);
            }
            let now = pld_sim::explore::scheduler::decisions();
            if now != decisions.0 {
                decisions = (now, Instant::now());
            }
            watch_schedule(&mut heartbeat, decisions, quiet);
            watch_transfers(&mut transfers, &mut slow_said);
        }
    });
}

/// This process's one-sided MPI transfers over a stretch of time, when
/// they took most of it and each far longer than between the processes of
/// one machine: `spent 4.1s of 5.0s in 6012 one-sided MPI transfers of at
/// most 4 KiB, 682us each on average ...` (larger ones take longer by their
/// bytes and are not counted).
fn slow_transfers(
    before: &pld_sim::runtime::mpi::Transfers,
    now: &pld_sim::runtime::mpi::Transfers,
    stretch: Duration,
) -> Option<String> {
    let count = now.count - before.count;
    let busy = now.busy - before.busy;
    let mean = busy.checked_div(u32::try_from(count).ok()?)?;
    if busy < stretch / 2 || mean < SLOW_TRANSFER {
        return None;
    }
    let longest = now.longest.map_or(String::new(), |(t, took)| {
        format!(
            "; the longest, {} into process {}'s window, took {took:.1?}",
            t.calls, t.target
        )
    });
    Some(format!(
        "spent {} of {} in {count} one-sided MPI transfers of at most {} KiB, {mean:.0?} each \
         on average where a few microseconds is usual{longest}",
        shown(busy),
        shown(stretch),
        pld_sim::runtime::mpi::SMALL_TRANSFER / 1024,
    ))
}

/// Why the MPI library is slow, and where the docs say more.
const SLOW_MPI: &str = "Open MPI's one-sided transfers progress slowly when other work keeps \
                        the machine's cores busy (docs/tools/pld-run.md, \"MPI on a busy \
                        machine\")";

/// Under MPI, process 0 says once that its one-sided transfers took most
/// of the last [`MPI_WATCH`]; `last` is what they were when it last looked.
fn watch_transfers(last: &mut (pld_sim::runtime::mpi::Transfers, Instant), said: &mut bool) {
    if *said || last.1.elapsed() < MPI_WATCH {
        return;
    }
    let now = pld_sim::runtime::mpi::transfers_so_far();
    if let Some(slow) = slow_transfers(&last.0, &now, last.1.elapsed()) {
        if pld_sim::runtime::mpi::initialised().is_some() && crate::speaker::reports() {
            pld_ir::say!("pld-run: warning: process 0 {slow}: {SLOW_MPI}; the run goes on");
            *said = true;
        }
    }
    *last = (now, Instant::now());
}

/// Prints `text`, an interrupt's message, on standard error: under MPI a
/// process other than 0 names itself (`pld-run: process 1: interrupted
/// ...`), since process 0, which reports the job, may not have been
/// interrupted and may never get to say it (a rank that does not end holds
/// it, and mpirun ends the job once this process exits).
fn say_interrupted(text: String) {
    match pld_sim::runtime::mpi::initialised() {
        Some(world) if world.rank != 0 => {
            let named = format!("pld-run: process {}: ", world.rank);
            pld_ir::say!("{}", text.replacen("pld-run: ", &named, 1));
        }
        _ => say(text),
    }
}

/// Prints `text` on standard error, from process 0 only under MPI.
fn say(text: String) {
    if crate::speaker::reports() {
        pld_ir::say!("{text}");
    }
}

/// Says which run of a series of several (`--warmup`, `--iters`) failed:
/// the report that follows is that run's.
pub(crate) fn series_stopped(runs: usize, total: usize) {
    if total > 1 {
        say(format!(
            "pld-run: run {runs} of {total} failed; the series stopped there"
        ));
    }
}

/// Tenths of a second, or what a shorter time is (`1ns`, not `0.0s`).
fn shown(time: Duration) -> String {
    match time >= Duration::from_millis(100) {
        true => format!("{:.1}s", time.as_secs_f64()),
        false => format!("{time:?}"),
    }
}

/// The message of a run over `--time-limit`; `quiet` is `--deadline`.
fn over_time(limit: Duration, quiet: Duration) -> String {
    let a = account();
    let mut text = format!("pld-run: error: --time-limit ({}) reached", shown(limit));
    match &a.schedule {
        Some(Running { seed, label, .. }) => {
            text += &format!(" during schedule {seed} of {label} (--replay {seed})");
        }
        None if a.phase.starts_with("running") => {
            let running = a.since.map_or(Duration::ZERO, |since| since.elapsed());
            text += &format!(" while {}, which had not finished", a.phase);
            let mpi_slow = pld_sim::runtime::mpi::initialised().and_then(|_| {
                let none = pld_sim::runtime::mpi::Transfers::default();
                slow_transfers(&none, &pld_sim::runtime::mpi::transfers_so_far(), limit)
            });
            let ranks = pld_sim::rank_states();
            if let Some(slow) = mpi_slow {
                text += &format!(" (process 0 {slow}: {SLOW_MPI})");
            } else if running >= quiet {
                // Blocked that long, every rank would have been a deadlock.
                text += " (it ran past --deadline without a deadlock: some rank was not \
                         blocked in a wait, such as a rank in a loop that does not end)";
            }
            if !ranks.0.is_empty() {
                // Which rank held the run up (a loop, a stopped process).
                let note = ranks.1.map_or(String::new(), |note| format!(" ({note})"));
                text += &format!("; at the limit {}{note}", ranks.0.join(", "));
            }
        }
        None if !a.phase.is_empty() => text += &format!(" while {}", a.phase),
        None => {}
    }
    if !a.done.is_empty() {
        text += &format!("; {}", a.done);
    }
    text
}

/// Under `--explore`: a progress line every [`HEARTBEAT`], and the end of a
/// schedule whose threads took no decision for `quiet` once its run began.
/// `decisions`: the process's count and when it last changed.
fn watch_schedule(heartbeat: &mut Instant, decisions: (u64, Instant), quiet: Duration) {
    let a = account();
    let Some(running) = &a.schedule else {
        return;
    };
    let Running {
        seed, label, since, ..
    } = running;
    let begun = decisions.0 > running.decisions;
    let stalled = decisions.1.max(*since).elapsed();
    if begun && stalled >= quiet {
        // Cut for no progress, a rank polls on by scalar reads (which
        // cannot be made to hold, as a failed test or wait is).
        let why = match pld_sim::explore::scheduler::cut_schedules() > running.cut {
            true => format!("{}, which no schedule ends", still_polling()),
            false => format!(
                "no device call for {} (--deadline {}): a simulated thread loops without \
                 notifying, waiting or copying, or computes longer than that between two, \
                 which explore mode cannot schedule around",
                shown(stalled),
                shown(quiet)
            ),
        };
        pld_ir::say!(
            "pld-run: error: schedule {seed} of {label} (--replay {seed}): {why}; stopped{}",
            if a.done.is_empty() {
                String::new()
            } else {
                format!("; {}", a.done)
            }
        );
        crate::files::remove_partial();
        interrupt::end_process(DEADLOCK);
    }
    if heartbeat.elapsed() >= HEARTBEAT {
        *heartbeat = Instant::now();
        let running = since.elapsed();
        pld_ir::say!(
            "pld-run: {}{}...",
            if a.done.is_empty() {
                "exploring"
            } else {
                &a.done
            },
            if running >= Duration::from_secs(1) {
                format!(
                    "; schedule {seed} running for {:.0}s",
                    running.as_secs_f64()
                )
            } else {
                String::new()
            }
        );
    }
}

#[cfg(test)]
mod tests {
    use super::slow_transfers;
    use pld_sim::runtime::mpi::{Transfer, Transfers};
    use std::time::{Duration, Instant};

    fn tally(count: u64, busy_ms: u64) -> Transfers {
        let longest = Transfer {
            calls: "MPI_Fetch_and_op and MPI_Win_flush_local",
            target: 2,
            bytes: 4,
            since: Instant::now(),
        };
        Transfers {
            current: None,
            count,
            busy: Duration::from_millis(busy_ms),
            longest: Some((longest, Duration::from_millis(38))),
        }
    }

    const FIVE: Duration = Duration::from_secs(5);

    #[test]
    fn transfers_taking_most_of_the_time_at_hundreds_of_microseconds_are_slow() {
        // 4.8 s in 5356 transfers: 896 us each (a loaded VM measured so).
        let said = slow_transfers(&tally(100, 10), &tally(5456, 4810), FIVE).unwrap();
        assert!(
            said.starts_with("spent 4.8s of 5.0s in 5356 one-sided MPI transfers of at most 4 KiB, 896µs each on average"),
            "{said}"
        );
        assert!(
            said.ends_with(
                "the longest, MPI_Fetch_and_op and MPI_Win_flush_local into process 2's window, took 38.0ms"
            ),
            "{said}"
        );
    }

    #[test]
    fn fast_transfers_or_a_mostly_idle_stretch_are_not() {
        // An idle machine: 96868 transfers in 0.84 s of 20 s, 8.7 us each.
        assert_eq!(
            slow_transfers(&tally(0, 0), &tally(96868, 838), FIVE * 4),
            None
        );
        // Slow ones that took a fifth of the time: a few, not the run's pace.
        assert_eq!(slow_transfers(&tally(0, 0), &tally(1000, 1000), FIVE), None);
        // As many as half of the time, but microseconds each.
        assert_eq!(
            slow_transfers(&tally(0, 0), &tally(400_000, 3000), FIVE),
            None
        );
        // No transfer at all.
        assert_eq!(slow_transfers(&tally(7, 70), &tally(7, 70), FIVE), None);
    }
}
