//! Running a loaded module on its ranks with the caller's buffers, and
//! turning what the simulator reports into a [`Report`]: the calls and
//! their checks, deadlocked ranks and leaked credits with the cells the
//! source names, the explorer's findings, the counters. `watched::run`
//! is its entry.

use crate::program::{Loaded, Mode};
use crate::report::{Call, Counters, Finding, FindingKind, Report};
use pld_dialect::collective::{CollectiveKind, Role};
use pld_dialect::ops::collective::ModeOrigin;
use pld_sim::program::memory;
use pld_sim::program::orchestrate::{ProgramOutcome, ProgramRun};
use pld_sim::program::{golden, index_of, Finished, KernelInfo, Program};
use pld_sim::runtime::interrupt::Stop;
use pld_sim::{DeadlockReport, Schedule};
use std::time::Duration;

/// How to run.
#[derive(Clone, Debug)]
pub struct Options {
    /// Compare every call's result with its golden.
    pub check: bool,
    /// How long every live rank may be blocked before a deadlock.
    pub deadline: Duration,
    /// `(first seed, schedules)` of the protocol explorer; `None` for a
    /// plain run.
    pub explore: Option<(u64, usize)>,
    /// The setters' refusals, by setter (`pldRunOptionsSetExplore` with a
    /// negative count): a run with these options is refused with the first
    /// until the setter is called again with a valid value.
    pub refused: std::collections::BTreeMap<&'static str, String>,
    /// How long the run (all its schedules) may take before it is
    /// stopped; `None`: no limit.
    pub time_limit: Option<Duration>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            check: true,
            deadline: Duration::from_secs(2),
            explore: None,
            refused: Default::default(),
            time_limit: None,
        }
    }
}

/// The bytes one buffer starts with on one rank.
pub struct Input<'a> {
    pub buffer: usize,
    pub rank: usize,
    pub bytes: &'a [u8],
}

/// Every buffer's bytes on every rank after a run, `[buffer][rank]`
/// (empty where a rank does not hold the buffer).
pub type Finals = Vec<Vec<Vec<u8>>>;

/// Checks that `(buffer, rank, size)` names a buffer a rank holds, with its
/// size; `what` says which argument it is, for the message.
pub fn check_binding(
    loaded: &Loaded,
    (buffer, rank, size): (usize, usize, usize),
    what: &str,
) -> Result<(), String> {
    let b = loaded.buffers.get(buffer).ok_or_else(|| {
        format!(
            "{what} names buffer {buffer}, but @{} has {} buffers",
            loaded.entry,
            loaded.buffers.len()
        )
    })?;
    if rank >= loaded.ranks {
        return Err(format!(
            "{what} names rank {rank} of '{}', but the program runs on {} ranks",
            b.name, loaded.ranks
        ));
    }
    if !b.on(rank) {
        return Err(format!(
            "{what} names rank {rank} of '{}', which is not in that buffer's comm domain",
            b.name
        ));
    }
    if size != b.bytes() {
        return Err(format!(
            "{what} gives {size} bytes for '{}' on rank {rank}, which holds {} bytes ({} x {})",
            b.name,
            b.bytes(),
            b.dtype.name(),
            b.shape.iter().product::<usize>()
        ));
    }
    Ok(())
}

/// The bytes each buffer starts with on each rank, `[buffer][rank]`
/// (`None`: zeros), from `inputs`, each checked, at most one per buffer
/// and rank; the options' refusal first.
pub(crate) fn starts<'i>(
    loaded: &Loaded,
    options: &Options,
    inputs: &[Input<'i>],
) -> Result<Vec<Vec<Option<&'i [u8]>>>, String> {
    if let Some(refused) = options.refused.values().next() {
        return Err(refused.clone());
    }
    let mut start: Vec<Vec<Option<&[u8]>>> = vec![vec![None; loaded.ranks]; loaded.buffers.len()];
    for (i, input) in inputs.iter().enumerate() {
        let what = format!("input {i}");
        check_binding(loaded, (input.buffer, input.rank, input.bytes.len()), &what)?;
        let slot = &mut start[input.buffer][input.rank];
        if slot.replace(input.bytes).is_some() {
            return Err(format!(
                "{what} fills '{}' on rank {} a second time",
                loaded.buffers[input.buffer].name, input.rank
            ));
        }
    }
    Ok(start)
}

/// Runs the schedules of `sweep` on the calling thread, under the
/// options' time limit.
pub(crate) fn run_schedules(
    loaded: &Loaded,
    options: &Options,
    start: &[Vec<Option<&[u8]>>],
    sweep: &Sweep,
) -> Result<(Report, Finals), String> {
    // (A watched sweep's stop is its watcher's to request too.)
    let stop = sweep.watcher.map_or_else(Stop::default, Watcher::stop);
    let limit = options.time_limit.map(|limit| (limit, timer(&stop, limit)));
    let on = (loaded.ranks, &loaded.pld_ops);
    let (mut report, finals) = stop.enter(|| match &loaded.mode {
        Mode::Kernel { program, kernel } => {
            let kernel = &program.kernels[*kernel];
            run_kernel(program, kernel, on, options, start, sweep)
        }
        Mode::Whole(run) => run_whole(run, on, options, start, sweep),
    })?;
    // (A limit that passed just after the last schedule ended stopped
    // nothing.)
    let total = sweep.seeds.len();
    let cut = report.stopped || report.schedules < total;
    if let (Some((limit, _)), true) = (limit, stop.own() && cut) {
        report
            .findings
            .push(over_time(limit, report.schedules, total));
    }
    Ok((report, finals))
}

/// Who watches a sweep from another thread: told as each schedule begins
/// and ends, and holding the stop the sweep runs under.
pub(crate) trait Watcher {
    /// Schedule `seed` begins.
    fn begin(&self, seed: u64);
    /// A schedule ended: `report` holds it and those before.
    fn ended(&self, report: &Report);
    /// The sweep's stop.
    fn stop(&self) -> Stop;
}

/// The schedules to run, and who watches them.
pub(crate) struct Sweep<'a> {
    pub seeds: Seeds,
    pub watcher: Option<&'a dyn Watcher>,
}

impl Sweep<'_> {
    /// A schedule begins.
    fn begin(&self, seed: Option<u64>) {
        if let (Some(watcher), Some(seed)) = (self.watcher, seed) {
            watcher.begin(seed);
        }
    }

    /// A schedule ended: `report` holds it and those before.
    fn ended(&self, report: &Report) {
        if let Some(watcher) = self.watcher {
            watcher.ended(report);
        }
    }
}

/// The schedules of a run: one plain run, or `count` explored schedules
/// from seed `first` on (made one at a time: a count may be far more than
/// a time limit lets run).
#[derive(Clone, Copy)]
pub(crate) enum Seeds {
    Plain,
    Explore { first: u64, count: usize },
}

impl Seeds {
    pub(crate) fn len(self) -> usize {
        match self {
            Seeds::Plain => 1,
            Seeds::Explore { count, .. } => count,
        }
    }

    /// Each schedule's seed (`None` for the plain run).
    fn iter(self) -> impl Iterator<Item = Option<u64>> {
        let first = match self {
            Seeds::Plain => None,
            Seeds::Explore { first, .. } => Some(first),
        };
        (0..self.len() as u64).map(move |i| first.map(|f| f.wrapping_add(i)))
    }
}

/// Requests `stop` once `limit` has passed, unless the returned sender is
/// dropped first (the run ended).
fn timer(stop: &Stop, limit: Duration) -> std::sync::mpsc::Sender<()> {
    let (done, ended) = std::sync::mpsc::channel::<()>();
    let stop = stop.clone();
    std::thread::spawn(move || {
        if let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = ended.recv_timeout(limit) {
            stop.request();
        }
    });
    done
}

/// The finding of a run its time limit stopped, after `ran` of `total`
/// schedules had started.
pub(crate) fn over_time(limit: Duration, ran: usize, total: usize) -> Finding {
    let which = match total {
        1 => String::new(),
        _ => format!(" during schedule {ran} of {total}"),
    };
    Finding::message(
        FindingKind::TimeLimit,
        format!(
            "time limit ({} s) reached{which}: the run was stopped before it ended; its \
             calls are not checked and its buffers hold what the ranks had written by then",
            limit.as_secs_f64()
        ),
    )
}

/// Whether the run's time limit (or Ctrl-C) stopped it: no further
/// schedule starts.
fn stopped() -> bool {
    pld_sim::runtime::interrupt::requested()
}

/// Adds one schedule's calls, findings and counters to `report`: the
/// findings once each (with their seed) when exploring, where a wrong rank
/// is a finding too.
fn record(
    report: &mut Report,
    seed: Option<u64>,
    calls: Vec<Call>,
    mut findings: Vec<Finding>,
    counters: Vec<Counters>,
) {
    report.schedules += 1;
    // A check asked for and not made is a finding, as pld-run fails on it.
    findings.extend(calls.iter().filter_map(Call::uncheckable_finding));
    match seed {
        None => report.findings = findings,
        Some(seed) => {
            for call in &calls {
                for (rank, check) in call.ranks.iter().enumerate() {
                    if check.check == crate::report::Check::Wrong {
                        // A finding's ranks are devices (a program's call
                        // may run on a comm domain of some of them).
                        let device = call.device(rank);
                        let on = match call.devices.is_empty() {
                            true => format!("rank {rank}"),
                            false => format!("device {device} (rank {rank} of its comm domain)"),
                        };
                        let mut wrong = Finding::message(
                            FindingKind::WrongResult,
                            format!(
                                "wrong result of {} at {} on {on}: {} wrong elements",
                                call.collective, call.location, check.wrong
                            ),
                        );
                        wrong.ranks = vec![device];
                        wrong.locations = vec![call.location.clone()];
                        wrong.key = format!("wrong {} {rank}", call.location);
                        findings.push(wrong);
                    }
                }
            }
            report.merge(findings, seed);
        }
    }
    report.calls = calls;
    report.counters = counters;
}

/// The errors and fatal errors of a run, each with the rank and the op's
/// location it names.
fn faults(outcome: &pld_sim::Outcome) -> Vec<Finding> {
    let fatals = outcome.fatals.iter().map(ToString::to_string);
    outcome
        .errors
        .iter()
        .cloned()
        .chain(fatals)
        .map(|message| {
            let (rank, location) = pld_sim::error_place(&message);
            let located = location.map(str::to_string);
            let mut finding = Finding::message(FindingKind::Error, message);
            finding.ranks = rank.into_iter().collect();
            finding.locations = located.into_iter().collect();
            finding
        })
        .collect()
}

/// One finding per rank of a deadlock; `cell(offset)` names a waited-on
/// cell of a window.
fn deadlocked(report: &DeadlockReport, cell: impl Fn(usize) -> Option<String>) -> Vec<Finding> {
    let mut sites: Vec<String> = report
        .blocked
        .iter()
        .map(|b| b.site.as_ref().map_or(b.kernel.clone(), |s| s.to_string()))
        .collect();
    sites.sort();
    sites.dedup();
    report
        .blocked
        .iter()
        .map(|b| {
            let named = b.window.and_then(|_| cell(b.offset)).unwrap_or_default();
            let place = match (b.window, named.is_empty()) {
                (Some(_), false) => named.clone(),
                (Some(w), true) => {
                    format!("the i32 cell at byte {} of rank {w}'s window", b.offset)
                }
                (None, _) => format!("the i32 cell at address {:#x}", b.offset),
            };
            let block = b
                .block
                .map_or(String::new(), |(i, n)| format!(" (block {i} of {n})"));
            let site = b.site.as_ref().map_or(String::new(), |s| format!(" ({s})"));
            Finding {
                kind: FindingKind::Deadlock,
                message: format!(
                    "deadlock: rank {}{block} in {} waits for {place} {} {}, which holds {}{site}",
                    b.rank, b.kernel, b.cmp, b.expected, b.actual
                ),
                ranks: vec![b.rank],
                cell: named,
                locations: b.site.iter().map(|s| s.location.clone()).collect(),
                seed: None,
                key: format!("deadlock {} rank {}", sites.join(" "), b.rank),
            }
        })
        .collect()
}

/// A credit left in `cell` (a buffer's element) on `rank`.
fn leak(cell: String, rank: usize, value: i32, users: Vec<String>) -> Finding {
    Finding {
        kind: FindingKind::Leak,
        message: format!(
            "credit leak in {cell}: rank {rank}'s cell holds {value} (should be back to 0)"
        ),
        ranks: vec![rank],
        key: format!("leak {cell} rank {rank}"),
        cell,
        locations: users,
        seed: None,
    }
}

fn run_kernel(
    program: &Program,
    kernel: &KernelInfo,
    (ranks, pld_ops): (usize, &PldOps),
    options: &Options,
    start: &[Vec<Option<&[u8]>>],
    sweep: &Sweep,
) -> Result<(Report, Finals), String> {
    // Inputs, windows, the buffers read back and, with the check, the
    // goldens: refused up front rather than ending the host on a failed
    // allocation.
    let per_rank: usize = kernel.params.iter().map(|p| p.bytes()).sum();
    memory::check(per_rank.saturating_mul(ranks).saturating_mul(4), || {
        format!(
            "@{} on {ranks} ranks ({} of parameters per rank, as inputs, windows, results and \
             goldens)",
            kernel.name,
            pld_ir::diag::bytes_text(per_rank)
        )
    })?;
    // `[rank][param]`, as the simulator and the golden take them.
    let inputs: Vec<Vec<Vec<u8>>> = (0..ranks)
        .map(|rank| {
            kernel
                .params
                .iter()
                .enumerate()
                .map(|(i, p)| start[i][rank].map_or_else(|| vec![0; p.bytes()], <[u8]>::to_vec))
                .collect()
        })
        .collect();
    let mut report = Report {
        ranks,
        ..Report::default()
    };
    let mut last = Vec::new();
    for seed in sweep.seeds.iter() {
        if stopped() {
            break;
        }
        sweep.begin(seed);
        let finished = program.run_explored(
            &kernel.name,
            ranks,
            options.deadline,
            false,
            seed.map(|seed| Schedule { seed }),
            |rank, param| inputs[rank][param].clone(),
        )?;
        let buffers = finished.buffers();
        let mut calls = kernel_calls(kernel, &inputs, &buffers, &finished, options.check);
        if finished.outcome.interrupted {
            calls = calls.into_iter().map(Call::unfinished).collect();
            report.stopped = true;
        }
        let findings = kernel_findings(kernel, &finished, pld_ops);
        let counters = finished
            .outcome
            .counters
            .iter()
            .map(|c| Counters::of(c, 0))
            .collect();
        record(&mut report, seed, calls, findings, counters);
        sweep.ended(&report);
        last = buffers;
    }
    // `[rank][param]` to `[param][rank]`.
    let mut finals: Finals = vec![Vec::new(); kernel.params.len()];
    for row in last {
        for (param, bytes) in finals.iter_mut().zip(row) {
            param.push(bytes);
        }
    }
    Ok((report, finals))
}

/// A kernel's collectives as calls, checked against the golden when asked
/// and possible (one numeric collective, a run that finished).
fn kernel_calls(
    kernel: &KernelInfo,
    inputs: &[Vec<Vec<u8>>],
    buffers: &[Vec<Vec<u8>>],
    finished: &Finished,
    check: bool,
) -> Vec<Call> {
    let ranks = inputs.len();
    let outcome = &finished.outcome;
    let finished_run = outcome.deadlock.is_none() && outcome.errors.is_empty();
    let checks = if !check {
        Err("not checked (the run options' check is off)".to_string())
    } else if !finished_run {
        Err("not checked: the run did not finish".to_string())
    } else if kernel.collectives.len() > 1 {
        Err(format!(
            "not checked: @{} has {} collectives, a check takes exactly one",
            kernel.name,
            kernel.collectives.len()
        ))
    } else {
        golden::check(kernel, inputs, buffers)
    };
    kernel
        .collectives
        .iter()
        .map(|c| {
            let name = kernel.name.clone();
            let mode = (c.kind == CollectiveKind::AllReduce).then_some(c.mode);
            let call = match (&checks, c.kind.facts().numeric) {
                (Ok(checks), true) => {
                    Call::checked(c.op(), c.location.clone(), name, ranks, checks)
                }
                (_, false) => Call::unchecked(
                    c.op(),
                    c.location.clone(),
                    name,
                    ranks,
                    format!("{} has no numeric result to compare", c.op()),
                ),
                (Err(note), true) => {
                    let call =
                        Call::unchecked(c.op(), c.location.clone(), name, ranks, note.clone());
                    match check && finished_run {
                        true => call.uncheckable(),
                        false => call,
                    }
                }
            };
            (call.scheduled(mode, c.origin != ModeOrigin::Written)).written_at(c.location.clone())
        })
        .collect()
}

/// `name[index]` of element `element` of kernel parameter `param`.
fn param_cell(kernel: &KernelInfo, param: usize, element: usize) -> String {
    let p = &kernel.params[param];
    span(&p.name, &p.shape, element, element)
}

/// Elements `first..=last` of the buffer `name` of `shape`, as reports
/// name them: `data[0, 16]`, or `data[0, 16]..[0, 31]`.
fn span(name: &str, shape: &[usize], first: usize, last: usize) -> String {
    if first == last {
        format!("{name}{}", index_of(first, shape))
    } else {
        format!(
            "{name}{}..{}",
            index_of(first, shape),
            index_of(last, shape)
        )
    }
}

/// The pld op at each `file:line:col` of the module (`Loaded::pld_ops`).
type PldOps = std::collections::HashMap<String, String>;

/// The errors, deadlocked ranks, leaked credits and explorer findings of
/// one run of a kernel.
fn kernel_findings(kernel: &KernelInfo, finished: &Finished, pld_ops: &PldOps) -> Vec<Finding> {
    let outcome = &finished.outcome;
    let mut findings = faults(outcome);
    let cell_at = |offset: usize| {
        let (param, element) = kernel.element_at(&finished.offsets, offset)?;
        Some(param_cell(kernel, param, element))
    };
    if let Some(report) = &outcome.deadlock {
        findings.extend(deadlocked(report, cell_at));
    } else if !outcome.interrupted {
        // (A stopped run's credits were never all taken back.)
        for &signal in &kernel.signals {
            let param = &kernel.params[signal];
            let users: Vec<String> = kernel
                .collectives
                .iter()
                .filter(|c| c.at(Role::Signal) == Some(signal))
                .map(|c| c.location.clone())
                .collect();
            let offset = finished.offsets[signal].unwrap_or(0);
            for cell in finished.domain.leaks(offset, param.elements()) {
                let name = param_cell(kernel, signal, cell.index);
                findings.push(leak(name, cell.rank, cell.value, users.clone()));
            }
        }
    }
    let namer = |_window: usize, range: &std::ops::Range<usize>| {
        let (param, first) = kernel.element_at(&finished.offsets, range.start)?;
        let last = kernel
            .element_at(&finished.offsets, range.end.checked_sub(1)?)
            .filter(|(other, _)| *other == param)
            .map_or(first, |(_, last)| last);
        let p = &kernel.params[param];
        Some(span(&p.name, &p.shape, first, last))
    };
    findings.extend(
        outcome
            .findings
            .iter()
            .map(|f| Finding::explored(f, &namer, &|at| pld_ops.get(at).cloned())),
    );
    findings
}

fn run_whole(
    run: &ProgramRun,
    (ranks, pld_ops): (usize, &PldOps),
    options: &Options,
    start: &[Vec<Option<&[u8]>>],
    sweep: &Sweep,
) -> Result<(Report, Finals), String> {
    // Refused before anything is allocated, as pld-run refuses it.
    run.check_memory(ranks, options.check)?;
    // (The closure runs on the devices' threads: it holds only the
    // buffers, not the program.)
    let buffers = &run.buffers;
    let init = |buffer: &pld_sim::program::orchestrate::Buffer, device: usize| {
        let index = buffers
            .iter()
            .position(|b| b.domain == buffer.domain && b.name == buffer.name);
        match index.and_then(|i| start[i].get(device).copied().flatten()) {
            Some(bytes) => bytes.to_vec(),
            None => vec![0; buffer.view.bytes()],
        }
    };
    let mut report = Report {
        ranks,
        ..Report::default()
    };
    let mut last = Vec::new();
    for seed in sweep.seeds.iter() {
        if stopped() {
            break;
        }
        sweep.begin(seed);
        let finished = run.execute_explored(
            options.deadline,
            false,
            options.check,
            seed.map(|seed| Schedule { seed }),
            init,
        )?;
        let mut calls = whole_calls(&finished, ranks, options.check);
        if finished.outcome.interrupted {
            calls = calls.into_iter().map(Call::unfinished).collect();
            report.stopped = true;
        }
        let findings = whole_findings(run, &finished, pld_ops);
        let counters = finished
            .outcome
            .counters
            .iter()
            .enumerate()
            .map(|(d, c)| Counters::of(c, finished.round_trips.get(d).copied().unwrap_or(0)))
            .collect();
        record(&mut report, seed, calls, findings, counters);
        sweep.ended(&report);
        last = finished.final_bytes;
    }
    Ok((report, last))
}

/// A program's collective calls.
fn whole_calls(finished: &ProgramOutcome, world: usize, check: bool) -> Vec<Call> {
    finished
        .calls
        .iter()
        .map(|call| {
            let ranks = if call.ranks > 0 { call.ranks } else { world };
            let op = call.kind.op_name();
            let kernel = call.kernel.clone().unwrap_or_default();
            let devices = call.devices.clone();
            let made = match &call.check {
                Ok(checks) => Call::checked(op, call.location.clone(), kernel, ranks, checks),
                Err(_) if !check => Call::unchecked(
                    op,
                    call.location.clone(),
                    kernel,
                    ranks,
                    "not checked (the run options' check is off)".into(),
                ),
                Err(note) => {
                    let unchecked =
                        Call::unchecked(op, call.location.clone(), kernel, ranks, note.to_string());
                    match note {
                        pld_sim::program::orchestrate::Unchecked::Cannot(_) => {
                            unchecked.uncheckable()
                        }
                        _ => unchecked,
                    }
                }
            };
            made.on_devices(devices)
                .scheduled(call.mode, call.origin != ModeOrigin::Written)
                .written_at(call.site.clone())
        })
        .collect()
}

/// The errors, deadlocked devices, leaked credits and explorer findings of
/// one run of a program.
fn whole_findings(run: &ProgramRun, finished: &ProgramOutcome, pld_ops: &PldOps) -> Vec<Finding> {
    let outcome = &finished.outcome;
    let mut findings = faults(outcome);
    let buffer_cell = |buffer: usize, element: usize| {
        let b = &run.buffers[buffer];
        span(&b.name, &b.view.shape, element, element)
    };
    let cell_at = |offset: usize| {
        let (buffer, element) = run.cell_at(offset)?;
        Some(buffer_cell(buffer, element))
    };
    if let Some(report) = &outcome.deadlock {
        findings.extend(deadlocked(report, cell_at));
    } else if !outcome.interrupted {
        for (buffer, cell) in &finished.leaks {
            // "pld.tensor_allreduce at file:line:col" -> the location.
            let users = run
                .signal_users(*buffer)
                .iter()
                .filter_map(|u| u.rsplit_once(" at ").map(|(_, at)| at.to_string()))
                .collect();
            let name = buffer_cell(*buffer, cell.index);
            findings.push(leak(name, cell.rank, cell.value, users));
        }
    }
    let namer = |_window: usize, range: &std::ops::Range<usize>| {
        let (buffer, first) = run.cell_at(range.start)?;
        let last = run
            .cell_at(range.end.checked_sub(1)?)
            .filter(|(other, _)| *other == buffer)
            .map_or(first, |(_, last)| last);
        let b = &run.buffers[buffer];
        Some(span(&b.name, &b.view.shape, first, last))
    };
    findings.extend(
        outcome
            .findings
            .iter()
            .map(|f| Finding::explored(f, &namer, &|at| pld_ops.get(at).cloned())),
    );
    findings
}
