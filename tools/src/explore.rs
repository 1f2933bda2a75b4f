//! `pld-run --explore K` and `--replay SEED`: the kernel (or program) run
//! under K seeded schedules of the protocol explorer (docs/memory-model.md),
//! every distinct finding printed once with the seed that reproduces it.

use crate::options::{Options, Seeds, DEADLOCK};
use crate::program_text;
use crate::report::{count, index_of};
use crate::source_op::{line_col, named_error, op_at, pld_op_at};
use pld_sim::compiler::Source;
use pld_sim::program::orchestrate::{Buffer, ProgramRun, Unchecked};
use pld_sim::{Finding, Outcome, Schedule};
use std::collections::HashSet;
use std::time::Instant;

/// What one schedule found, beyond the checker's findings: a deadlock,
/// credits left behind, wrong numbers, errors of the run.
pub struct Verdict {
    pub findings: Vec<String>,
    /// Identifies each finding across schedules.
    pub keys: Vec<String>,
    pub deadlock: bool,
    pub steps: u64,
    /// A digest of the schedule's decisions (`Outcome::schedule_digest`).
    pub digest: u64,
}

impl Verdict {
    /// The findings of a run's outcome (checker findings, errors, the
    /// deadlock), naming window bytes with `namer`.
    pub fn of(outcome: &Outcome, namer: pld_sim::explore::Namer, source: Source) -> Verdict {
        let mut verdict = Verdict {
            findings: Vec::new(),
            keys: Vec::new(),
            deadlock: outcome.deadlock.is_some(),
            steps: outcome.steps,
            digest: outcome.schedule_digest,
        };
        for finding in &outcome.findings {
            verdict.push(finding.key(), describe(finding, namer, source));
        }
        // One finding for one fault of an op on every rank, whatever its
        // numbers and how often it came (which differ from schedule to
        // schedule), as the pass groups them; the first says the other
        // ranks that had it (recheck27b M1: they went unmentioned).
        let also = pld_sim::runtime::errors::also_on_other_ranks(&outcome.errors);
        for (error, also) in outcome.errors.iter().zip(also) {
            let key = pld_sim::runtime::errors::finding_key(error);
            let said = named_error(error, source);
            verdict.push(format!("error {key}"), format!("error: {said}{also}"));
        }
        for fatal in &outcome.fatals {
            verdict.push(format!("fatal {fatal}"), format!("error: {fatal}"));
        }
        if let Some(report) = &outcome.deadlock {
            let text = report.to_string();
            // One deadlock per set of waiting ops, whichever ranks and
            // cells they wait on.
            let mut key: Vec<String> = report
                .blocked
                .iter()
                .map(|b| {
                    b.site
                        .as_ref()
                        .map_or_else(|| b.kernel.clone(), |s| s.to_string())
                })
                .collect();
            key.sort();
            key.dedup();
            verdict.push(
                format!("deadlock {}", key.join(" ")),
                text.trim_end().into(),
            );
        }
        verdict
    }

    /// Appends lines (the waited-on cells, named) to the deadlock's report.
    pub fn annotate_deadlock(&mut self, lines: &[String]) {
        let at = self.keys.iter().position(|k| k.starts_with("deadlock "));
        if let Some(text) = at.map(|i| &mut self.findings[i]) {
            for line in lines {
                text.push('\n');
                text.push_str(line);
            }
        }
    }

    pub fn push(&mut self, key: String, text: String) {
        self.keys.push(key);
        self.findings.push(text);
    }
}

/// A finding, with the source line of each op it names under it (from
/// `source.file`, the input, for the ops at places of it).
fn describe(finding: &Finding, namer: pld_sim::explore::Namer, source: Source) -> String {
    // Name the pld op the user wrote there, not the PTO op it became.
    let pld_op = |location: &str| {
        let (line, col) = line_col(location, source)?;
        pld_op_at(source.file, line, col)
    };
    let mut text = finding.describe_in_source(namer, &pld_op);
    for site in finding.sites() {
        // The line shows the op named, or the op of the user's source it
        // came from (a pld op, or the shard op of a shard program): a
        // converted module named as its source (whose ops are at its
        // places) has other ops at those lines.
        let shown = |(line, col): (usize, usize)| {
            op_at(source.file, line, col)
                .is_some_and(|name| {
                    name == site.op || name.starts_with("pld.") || name.starts_with("shard.")
                })
                .then_some((line, col))
        };
        if let Some((line, col)) = line_col(&site.location, source).and_then(shown) {
            let excerpt = pld_ir::diag::excerpt(source.file, line, col);
            if !excerpt.is_empty() {
                text.push_str(&format!("\n  {}:\n", site.location));
                for l in excerpt.lines() {
                    text.push_str(&format!("    {l}\n"));
                }
                text.pop();
            }
        }
    }
    text
}

/// Runs `schedule(seed)` for every seed, printing each new finding with
/// its seed; returns the exit status (3 when a schedule deadlocked, 1 on
/// any other finding, 0 when every schedule was clean). With `log`
/// (`--schedule-log`), writes a line per schedule there; `checked`
/// (`--check`) says that wrong results are findings too.
pub fn explore(
    label: &str,
    seeds: Seeds,
    (log, checked): (Option<&str>, bool),
    mut schedule: impl FnMut(Schedule) -> Result<Verdict, String>,
) -> Result<i32, String> {
    let total = seeds.count();
    let started = Instant::now();
    let mut tally = Tally::default();
    let mut log = log.map(ScheduleLog::create).transpose()?;
    crate::watch::done(format!("explored 0 of {total} schedules of {label}"));
    for seed in seeds.iter() {
        crate::watch::schedule_started(seed, label);
        let verdict = schedule(Schedule { seed });
        crate::watch::schedule_finished();
        if crate::watch::interrupted() {
            break; // the schedule Ctrl-C cut short counts for nothing
        }
        let verdict = verdict?;
        if let Some(log) = &mut log {
            log.line(seed, &verdict)?;
        }
        tally.add(seed, &verdict);
        crate::watch::done(format!(
            "explored {} of {total} schedules of {label}{} ({})",
            tally.schedules,
            match tally.found {
                0 => ", all clean".to_string(),
                n => format!(", {n} finding{} so far", if n == 1 { "" } else { "s" }),
            },
            rate(tally.schedules, started.elapsed())
        ));
    }
    if crate::watch::interrupted() {
        pld_ir::say!("{}", crate::watch::interrupted_message());
        return Ok(pld_sim::runtime::interrupt::status());
    }
    Ok(tally.summary(label, seeds, started.elapsed(), checked))
}

/// `N schedules/s`: how fast `schedules` took `elapsed`.
fn rate(schedules: usize, elapsed: std::time::Duration) -> String {
    let per_second = schedules as f64 / elapsed.as_secs_f64().max(1e-9);
    format!("{per_second:.1} schedules/s")
}

/// `--schedule-log FILE`: one line per schedule, `seed S steps N digest
/// D` and the keys of its findings, in the order the schedules ran.
struct ScheduleLog {
    path: String,
    file: std::io::BufWriter<std::fs::File>,
}

impl ScheduleLog {
    fn create(path: &str) -> Result<ScheduleLog, String> {
        let file = std::fs::File::create(path)
            .map_err(|e| format!("cannot write the schedule log {path}: {e}"))?;
        Ok(ScheduleLog {
            path: path.to_string(),
            file: std::io::BufWriter::new(file),
        })
    }

    fn line(&mut self, seed: u64, verdict: &Verdict) -> Result<(), String> {
        use std::io::Write;
        let mut line = format!(
            "seed {seed} steps {} digest {:016x}",
            verdict.steps, verdict.digest
        );
        for key in &verdict.keys {
            line.push_str(" | ");
            line.push_str(key);
        }
        writeln!(self.file, "{line}")
            .and_then(|()| self.file.flush())
            .map_err(|e| format!("cannot write the schedule log {}: {e}", self.path))
    }
}

/// What the schedules explored so far found.
#[derive(Default)]
struct Tally {
    schedules: usize,
    steps: u64,
    found: usize,
    deadlocked: bool,
    /// Each finding's key, once.
    seen: HashSet<String>,
    /// The seeds that found something new.
    first_seeds: Vec<u64>,
}

impl Tally {
    /// Counts schedule `seed`'s verdict, printing each finding not seen
    /// before with the seed that replays it.
    fn add(&mut self, seed: u64, verdict: &Verdict) {
        self.schedules += 1;
        self.steps += verdict.steps;
        self.deadlocked |= verdict.deadlock;
        let mut new_here = false;
        for (key, text) in verdict.keys.iter().zip(&verdict.findings) {
            if self.seen.insert(key.clone()) {
                self.found += 1;
                new_here = true;
                println!("schedule {seed} (--replay {seed}): {text}");
            }
        }
        if new_here {
            self.first_seeds.push(seed);
        }
    }

    /// Prints the closing line; the exit status (3 when a schedule
    /// deadlocked, 1 on any other finding, 0 when every one was clean).
    fn summary(
        &self,
        label: &str,
        seeds: Seeds,
        elapsed: std::time::Duration,
        checked: bool,
    ) -> i32 {
        let schedules = self.schedules;
        let mean = self.steps / schedules.max(1) as u64;
        let what = match seeds {
            Seeds::Replay(seed) => format!("schedule {seed} replayed in {elapsed:.1?}"),
            Seeds::Explore { first, .. } => format!(
                "{} explored ({}) in {elapsed:.1?} ({})",
                pld_ir::diag::count(schedules, "schedule"),
                match schedules {
                    1 => format!("seed {first}"),
                    _ => format!(
                        "seeds {first} to {}",
                        first.wrapping_add(schedules as u64 - 1)
                    ),
                },
                rate(schedules, elapsed)
            ),
        };
        if self.found == 0 {
            let steps = pld_ir::diag::count(mean, "step");
            let steps = match schedules {
                1 => steps,
                _ => format!("{steps} each on average"),
            };
            let last = match checked {
                true => "leak, deadlock or wrong result",
                false => "leak or deadlock",
            };
            println!(
                "{label}: {what}, {steps}: no race, missing fence, mixed notify, shared queue, \
                 {last}"
            );
            return 0;
        }
        let seeds: Vec<String> = self.first_seeds.iter().map(u64::to_string).collect();
        println!(
            "{label}: {what}: {} finding{} (first seen with seed {})",
            self.found,
            if self.found == 1 { "" } else { "s" },
            seeds.join(", ")
        );
        if self.deadlocked {
            DEADLOCK
        } else {
            1
        }
    }
}

/// `--explore` / `--replay` of a whole program: every schedule a fresh run
/// of the orchestration (planned and compiled once); its credit leaks and
/// (under `--check`) wrong calls are findings too.
pub fn explore_program(
    options: &Options,
    seeds: Seeds,
    run: &ProgramRun,
    init: &(dyn Fn(&Buffer, usize) -> Vec<u8> + Sync),
    source: Source,
) -> Result<i32, String> {
    let label = format!(
        "{} on {}",
        pld_ir::print::symbol_ref(&run.entry),
        count(options.ranks, "device")
    );
    crate::watch::exploring(source);
    let log = (options.schedule_log.as_deref(), options.check);
    explore(&label, seeds, log, |schedule| {
        program_verdict(options, run, init, source, schedule)
    })
}

/// One explored schedule of a whole program, its buffers filled by
/// `init`: the checker's findings, the deadlock, credit leaks and (under
/// `--check`) wrong calls. `source` is the input, quoted under the ops the
/// findings name.
pub fn program_verdict(
    options: &Options,
    run: &ProgramRun,
    init: &(dyn Fn(&Buffer, usize) -> Vec<u8> + Sync),
    source: Source,
    schedule: Schedule,
) -> Result<Verdict, String> {
    // Window bytes as the program names them: buffer and element.
    let namer = |_window: usize, range: &std::ops::Range<usize>| run.name_bytes(range);
    let finished =
        run.execute_explored(options.deadline, false, options.check, Some(schedule), init)?;
    let mut verdict = Verdict::of(&finished.outcome, &namer, source);
    if let Some(report) = &finished.outcome.deadlock {
        // As a plain run names them: `rank 1 waits on flags at [0, 0], ...`.
        verdict.annotate_deadlock(&program_text::waiting_lines(run, report));
        return Ok(verdict);
    }
    // `--replay S --output-dir DIR`: the schedule's buffers (no goldens:
    // a plain run's, as for a kernel; explore27 L4).
    if let Some(dir) = &options.output_dir {
        program_text::write_outputs(dir, run, &finished, false)?;
    }
    for (buffer, leak) in &finished.leaks {
        let b = &run.buffers[*buffer];
        let cell = index_of(leak.index, &b.view.shape);
        verdict.push(
            format!("leak {} {cell}", b.name),
            format!(
                "credit leak in {} at {cell}: device {}'s cell holds {} (should be back to 0)",
                b.name, leak.rank, leak.value
            ),
        );
    }
    for call in &finished.calls {
        if let Err(Unchecked::Cannot(why)) = &call.check {
            verdict.push(
                format!("unchecked {}", call.location),
                format!(
                    "--check cannot compare {} at {}: {why}",
                    call.kind, call.location
                ),
            );
        }
        if let Ok(checks) = &call.check {
            // As a plain run says it: where, the wrong elements, and what
            // may explain them.
            let (place, notes) = (
                program_text::call_place(call),
                program_text::wrong_notes(call),
            );
            let shape = program_text::result_shape(run, call);
            for check in checks.iter().filter(|c| !c.ok) {
                verdict.push(
                    format!("wrong {} {}", call.location, check.rank),
                    format!(
                        "wrong result of {} {place} on rank {}: {}{notes}",
                        call.kind,
                        check.rank,
                        crate::report::wrong_elements(check, &shape)
                    ),
                );
            }
        }
    }
    Ok(verdict)
}
