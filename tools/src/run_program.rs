//! `pld-run` on a whole program: its HOST orchestrator run on N simulated
//! devices, every collective it calls (on every rail) checked.

use crate::explore::explore_program;
use crate::inputs::{assign, fill_ranks, Generator};
use crate::options::{Options, Refusal, DEADLOCK};
use crate::program_text::{
    as_param, call_place, result_shape, shown_name, waiting_lines, write_outputs, wrong_notes,
};
use crate::report::{self, counter_rows, Progress};
use pld_dialect::ops::collective::ModeOrigin;
use pld_ir::print::symbol_ref;
use pld_sim::compiler::Source;
use pld_sim::program::orchestrate::{
    devices, Buffer, CallReport, ProgramOutcome, ProgramRun, Unchecked,
};
use pld_sim::program::Param;
use std::time::{Duration, Instant};

/// The HOST orchestrators of a module (empty when it has none).
pub fn host_functions(text: &str) -> Vec<String> {
    let context = pld_dialect::context();
    // A parse error is reported by the run that follows, with the file's
    // name; this look is quiet.
    let _quiet = pld_ir::diag::Sink::attach(&context);
    let Some(module) = pld_ir::parse::parse(&context, text, "<input>") else {
        return Vec::new();
    };
    pld_ir::functions(module.as_operation())
        .into_iter()
        .filter(|f| {
            pld_dialect::query::function_kind(*f) == Ok(Some(pld_dialect::enums::FuncKind::Host))
        })
        .filter_map(pld_ir::symbol_name)
        .collect()
}

/// Runs the program of `source`; the process exit status.
pub fn drive(options: &Options, source: Source) -> Result<i32, Refusal> {
    let buffer_name = source.name;
    let started = Instant::now();
    let progress = Progress::start();
    let in_file = |e| crate::files::in_file(buffer_name, e);
    let compiling = progress.phase(format!("lowering and compiling {buffer_name}"));
    let program = pld_sim::program::Program::load_source(source).map_err(in_file)?;
    drop(compiling);
    let planning = format!(
        "planning the HOST orchestrator for {}",
        devices(options.ranks)
    );
    crate::watch::phase(planning.clone());
    let planned = progress.phase(planning);
    let run =
        ProgramRun::planned(program, options.entry.as_deref(), options.ranks).map_err(in_file)?;
    drop(planned);
    crate::report::cache_warning(&run.program.cache);
    if options.output_dir.is_some() {
        for buffer in &run.buffers {
            crate::files::check_file_name("the buffer", &buffer.name).map_err(in_file)?;
        }
    }
    let fill_started = Instant::now();
    crate::watch::phase("filling the inputs");
    let at = report::function_location(source.file, buffer_name, &run.entry);
    let inputs = program_inputs(&run, options, &progress, &at)?;
    let fill_time = fill_started.elapsed();
    let index_of = |buffer: &Buffer| {
        run.buffers
            .iter()
            .position(|b| b.domain == buffer.domain && b.name == buffer.name)
            .unwrap_or(0)
    };
    let init = |buffer: &Buffer, device: usize| inputs[index_of(buffer)][device].clone();
    if let Some(seeds) = options.explore {
        crate::watch::phase(format!("exploring {}", symbol_ref(&run.entry)));
        return Ok(explore_program(options, seeds, &run, &init, source)?);
    }
    // Under MPI every process is ready, or all stop here.
    crate::mpi_agree::ready()?;
    let series = run_series(&run, options, &init, &progress);
    let interrupted = series
        .finished
        .as_ref()
        .is_ok_and(|f| f.outcome.interrupted);
    if crate::mpi_run::stopped(interrupted) {
        if crate::speaker::reports() {
            pld_ir::say!("{}", crate::watch::interrupted_message());
        }
        return Ok(pld_sim::runtime::interrupt::status());
    }
    let finished = series.finished.as_ref().map_err(Clone::clone)?;
    if !crate::speaker::reports() {
        // Under MPI, process 0 reports the whole run (it has every
        // device's verdicts and reaches every window).
        return Ok(0);
    }
    if let (Some(path), Some(trace)) = (&options.trace, &finished.outcome.trace) {
        crate::files::write_trace(path, trace)?;
    }
    let Some(mut status) = report_problems(&run, finished, source) else {
        return Ok(DEADLOCK);
    };
    if let Some(dir) = &options.output_dir {
        write_outputs(dir, &run, finished, true)?;
    }
    let elapsed = started.elapsed();
    report_run(&run, options, &series, finished, elapsed, &mut status);
    if options.stats {
        print_stats(&run, options, &series, finished, fill_time);
    }
    Ok(status)
}

/// Prints the run's errors, fatal errors, deadlock and credit leaks on
/// standard error: the exit status so far, or `None` after a deadlock
/// (nothing else is reported then).
fn report_problems(run: &ProgramRun, finished: &ProgramOutcome, source: Source) -> Option<i32> {
    let mut status = i32::from(report::run_errors(&finished.outcome, source));
    if let Some(deadlock) = &finished.outcome.deadlock {
        pld_ir::diag::write_stderr(&format!("pld-run: {deadlock}"));
        report_waiting(run, deadlock);
        return None;
    }
    for (number, leak) in &finished.leaks {
        let buffer = &run.buffers[*number];
        pld_ir::say!(
            "{}",
            report::leak(
                &shown_name(run, buffer),
                &buffer.view.shape,
                leak,
                &run.signal_users(*number)
            )
        );
        status = 1;
    }
    Some(status)
}

/// The headline, every call with its check, and the table of the calls.
fn report_run(
    run: &ProgramRun,
    options: &Options,
    series: &Series,
    finished: &ProgramOutcome,
    elapsed: Duration,
    status: &mut i32,
) {
    println!(
        "{} on {}{}: {} collective call{}, finished in {:.1?}{}",
        symbol_ref(&run.entry),
        devices(options.ranks),
        crate::mpi_run::processes_note(options),
        finished.calls.len(),
        if finished.calls.len() == 1 { "" } else { "s" },
        elapsed,
        if series.runs > 1 {
            format!(
                " ({} runs, {} warm-up; call times are the mean of {})",
                series.runs,
                options.warmup.min(series.runs),
                series.timed_runs
            )
        } else {
            String::new()
        }
    );
    print_calls(run, &finished.calls, status);
    summary(&finished.calls, options.ranks);
}

/// `--stats`: the counters, the launch lines the calls logged and the
/// phase times.
fn print_stats(
    run: &ProgramRun,
    options: &Options,
    series: &Series,
    finished: &ProgramOutcome,
    fill_time: Duration,
) {
    print_counters(finished, options.per_rank);
    print!("{}", report::log_lines(&finished.outcome.logs));
    let phases = [
        ("lower", run.program.lower_time),
        ("compile", run.program.compile_time),
        ("plan", run.plan_time),
        ("fill", fill_time),
        ("run", series.run_time),
        ("check", finished.check_time),
    ];
    println!("{}", report::phases(&phases, series.timed_runs > 1));
    println!("  compile cache: {}", run.program.cache);
}

/// Every buffer's initial bytes on every device, `[buffer][device]`: the
/// signals zero, the rest a ramp, unless `--input` says otherwise; the fill
/// phase of `progress`.
/// `at`: the HOST orchestrator's location (`file:line:col: `), for the
/// memory check.
fn program_inputs(
    run: &ProgramRun,
    options: &Options,
    progress: &Progress,
    at: &str,
) -> Result<Vec<Vec<Vec<u8>>>, Refusal> {
    let generators: Vec<Generator> = run
        .buffers
        .iter()
        .map(|b| {
            if b.signal {
                Generator::Zeros
            } else {
                Generator::Ramp
            }
        })
        .collect();
    let resolve = |name: &str| {
        run.buffers
            .iter()
            .position(|b| b.name == name)
            .ok_or_else(|| unknown_buffer(run, name, options.ranks))
    };
    let generators = assign(&options.inputs, generators, "BUFFER", resolve, |index| {
        format!("buffer '{}'", run.buffers[index].name)
    })?;
    let columns: Vec<(Param, Generator)> =
        run.buffers.iter().map(as_param).zip(generators).collect();
    // Refused before anything is allocated (under MPI for this process's
    // own device).
    let held = crate::mpi_run::held(options.ranks);
    run.check_memory(held, options.check)
        .map_err(|e| format!("{at}{e}"))?;
    let per_device: usize = run.buffers.iter().map(|b| b.view.bytes()).sum();
    let _filling = progress.phase(format!(
        "filling the buffers of {} on {} ({})",
        symbol_ref(&run.entry),
        devices(options.ranks),
        report::bytes(per_device * options.ranks)
    ));
    // `[device][buffer]` to `[buffer][device]`.
    let mut inputs: Vec<Vec<Vec<u8>>> = vec![Vec::new(); columns.len()];
    // A buffer is filled on its comm domain's devices only.
    let (buffers, plan) = (&run.buffers, &run.plan);
    let wanted = |device, buffer: usize| {
        crate::mpi_run::fills(device) && buffers[buffer].held_on(plan, device)
    };
    for row in fill_ranks(&columns, options.ranks, &wanted, at)? {
        for (buffer, bytes) in inputs.iter_mut().zip(row) {
            buffer.push(bytes);
        }
    }
    Ok(inputs)
}

/// Why `--input` cannot fill `name`, which is not a buffer a task of the
/// run takes: allocated but taken by no task, or no buffer at all (with the
/// buffers it can fill).
pub fn unknown_buffer(run: &ProgramRun, name: &str, ranks: usize) -> String {
    let names: Vec<&str> = run.buffers.iter().map(|b| b.name.as_str()).collect();
    if unused_buffers(run).iter().any(|n| n == name) && !names.is_empty() {
        // Allocated, and dispatched perhaps, but no kernel or builtin of
        // the run takes it.
        return format!(
            "the window buffer '{name}' is allocated, but no task of the run reads or writes \
             it (no kernel or builtin takes it), so it has nothing to fill; --input names the \
             buffers the tasks use ({})",
            names.join(", ")
        );
    }
    match names.is_empty() {
        // Its buffers are those its tasks use.
        true => format!(
            "the program has no window buffer '{name}' that a task uses: on {} it runs no \
             kernel and no builtin (its dispatches call none, or their loops run no \
             iteration), so it has no buffer to fill",
            pld_sim::program::orchestrate::plan::devices(ranks)
        ),
        false => format!(
            "the program has no window buffer '{name}' (its buffers: {})",
            names.join(", ")
        ),
    }
}

/// The window buffers the program allocates that no task of the run takes.
pub fn unused_buffers(run: &ProgramRun) -> Vec<String> {
    let slots = run.plan.domains.iter().flat_map(|d| d.slots.iter());
    let mut unused: Vec<String> = slots
        .map(|s| s.name.clone())
        .filter(|n| !run.buffers.iter().any(|b| &b.name == n))
        .collect();
    unused.sort();
    unused.dedup();
    unused
}

/// How a series of runs of the program went: the last run (the one
/// reported, its calls' times the mean over the timed runs), the run phase
/// (one execution without its golden comparison; the mean of the timed
/// ones), how many ran and how many were timed.
struct Series {
    finished: Result<ProgramOutcome, String>,
    run_time: Duration,
    runs: usize,
    timed_runs: u32,
}

/// `--warmup` untimed runs, then `--iters` timed ones (the program
/// compiled once, fresh buffers every run); each call's time is its mean
/// over the timed runs, the results those of the last. A run that fails
/// ends the series and is the one reported.
fn run_series(
    run: &ProgramRun,
    options: &Options,
    init: &(dyn Fn(&Buffer, usize) -> Vec<u8> + Sync),
    progress: &Progress,
) -> Series {
    let on_devices = format!("{} on {}", symbol_ref(&run.entry), devices(options.ranks));
    let running = progress.phase(format!("running {on_devices}"));
    let iters = options.iters.max(1);
    let mut timed: Vec<Duration> = Vec::new();
    // The run phase: each execution without its golden comparison.
    let mut run_time;
    let mut timed_total = Duration::ZERO;
    let mut runs = 0;
    let mut result;
    let total = options.warmup.saturating_add(iters);
    if total > 1 {
        crate::watch::done(format!("0 of {total} runs finished"));
    }
    loop {
        crate::watch::phase(format!(
            "running {} on {}{}",
            symbol_ref(&run.entry),
            devices(options.ranks),
            crate::watch::of_total(runs, total)
        ));
        let run_started = Instant::now();
        result = run.execute_announced(
            options.deadline,
            options.trace.is_some(),
            options.check,
            init,
            || {
                progress.phase(format!(
                    "checking the calls of {on_devices} against their goldens"
                ))
            },
        );
        run_time = run_started
            .elapsed()
            .saturating_sub(result.as_ref().map_or(Duration::ZERO, |f| f.check_time));
        runs += 1;
        let failed = result.as_ref().map_or(true, |f| {
            f.outcome.deadlock.is_some() || !f.outcome.errors.is_empty()
        });
        if runs > options.warmup {
            timed_total += run_time;
            if let Ok(f) = &result {
                timed.resize(f.calls.len(), Duration::ZERO);
                for (sum, call) in timed.iter_mut().zip(&f.calls) {
                    *sum += call.time;
                }
            }
        }
        // Under MPI every process must stop after the same run: the
        // outcome's (merged) interruption, not this process's own Ctrl-C.
        let interrupted = result.as_ref().is_ok_and(|f| f.outcome.interrupted);
        if failed || runs >= total || crate::mpi_run::stopped(interrupted) {
            if failed {
                crate::watch::series_stopped(runs, total);
            }
            break;
        }
        // This run's outcome (its copies of every window) goes before the
        // next run.
        drop(result);
        crate::watch::done(format!("{runs} of {total} runs finished"));
    }
    drop(running);
    let timed_runs = runs.saturating_sub(options.warmup).max(1) as u32;
    if runs > options.warmup {
        if let Ok(finished) = &mut result {
            for (call, sum) in finished.calls.iter_mut().zip(&timed) {
                call.time = *sum / timed_runs;
            }
        }
        run_time = timed_total / timed_runs;
    }
    Series {
        finished: result,
        run_time,
        runs,
        timed_runs,
    }
}

/// Each waited-on cell of a deadlock as the source names it: the window
/// buffer holding it, its [row, col] in the buffer's view, and the
/// collectives whose signal the buffer is.
fn report_waiting(run: &ProgramRun, deadlock: &pld_sim::DeadlockReport) {
    for line in waiting_lines(run, deadlock) {
        pld_ir::say!("{line}");
    }
}

/// `f32 x 4096 (sum, root 0)`: a call's element type and count, and in
/// parentheses its reduction, its root and an allreduce's schedule (`ring`,
/// `ring, chosen by mode = "auto"`, `mesh, kept by mode = "auto": ...`).
fn what_it_moves(call: &CallReport) -> String {
    let mut details: Vec<String> = Vec::new();
    details.extend(call.reduce.map(|op| op.to_string()));
    details.extend(call.root.map(|root| format!("root {root}")));
    details.extend(call.mode.map(|mode| match call.origin {
        ModeOrigin::AutoPriced => format!("{mode}, chosen by mode = \"auto\""),
        // The only reason a call that ran has for it (the other, no mode
        // lowers the call, stops the lowering).
        ModeOrigin::AutoDefault => {
            format!("{mode}, kept by mode = \"auto\": sizes known only at run time")
        }
        ModeOrigin::Written => mode.to_string(),
    }));
    match details.is_empty() {
        true => format!("{} x {}", call.dtype, call.elements),
        false => format!(
            "{} x {} ({})",
            call.dtype,
            call.elements,
            details.join(", ")
        ),
    }
}

/// `devices 1, 3; `: the devices of a call whose comm domain is not the
/// first devices in order (rank r on device r), before its worst error.
fn devices_note(call: &CallReport) -> String {
    if call
        .devices
        .iter()
        .enumerate()
        .all(|(rank, &device)| rank == device)
    {
        return String::new();
    }
    let listed: Vec<String> = call.devices.iter().map(usize::to_string).collect();
    match listed.as_slice() {
        [one] => format!("device {one}; "),
        _ => format!("devices {}; ", listed.join(", ")),
    }
}

/// One line per collective call (where, what, its time, its check), and
/// the wrong elements of each wrong rank; a wrong call, and one `--check`
/// cannot compare (an error on standard error too, once per text), set
/// `status` to 1.
fn print_calls(run: &ProgramRun, calls: &[CallReport], status: &mut i32) {
    let mut said = std::collections::HashSet::new();
    for call in calls {
        // As the table has it: a call without a target (a barrier) moves
        // no data; its operand is the signal.
        let what = if call.target.is_none() {
            "no data".to_string()
        } else {
            what_it_moves(call)
        };
        let place = call_place(call);
        let verdict = verdict(call, status, &mut said);
        println!(
            "  {} {place}: {what}, {:.1?}: {verdict}",
            call.kind, call.time
        );
        // The wrong elements of each wrong rank, by index in the result.
        if let Ok(checks) = &call.check {
            let shape = result_shape(run, call);
            for check in checks.iter().filter(|c| !c.ok) {
                println!(
                    "    rank {}: {}",
                    check.rank,
                    report::wrong_elements(check, &shape)
                );
            }
        }
    }
}

/// A call's verdict: `ok on 4 ranks (...)`, `WRONG on ranks [1] (...)`, or
/// why it was not compared. A wrong call, and one `--check` cannot compare,
/// set `status` to 1; the latter is an error on standard error too, unless
/// `said` holds its text (the calls of one kernel of several collectives
/// share it).
fn verdict(
    call: &CallReport,
    status: &mut i32,
    said: &mut std::collections::HashSet<String>,
) -> String {
    match &call.check {
        Ok(checks) => {
            let wrong: Vec<usize> = checks.iter().filter(|c| !c.ok).map(|c| c.rank).collect();
            let worst = checks.iter().map(|c| c.worst).fold(0.0, f64::max);
            let devices = devices_note(call);
            if wrong.is_empty() {
                let ranks = report::count(checks.len(), "rank");
                return format!("ok on {ranks} ({devices}worst error {worst:.3e})");
            }
            *status = 1;
            let notes = wrong_notes(call);
            format!("WRONG on ranks {wrong:?} ({devices}worst error {worst:.3e}){notes}")
        }
        Err(why) => {
            // --check that cannot compare a call fails the run (a
            // barrier's run is its check).
            if let Unchecked::Cannot(reason) = why {
                *status = 1;
                let error = format!(
                    "pld-run: error: {}: --check cannot compare {}: {reason}",
                    call.location, call.kind
                );
                if said.insert(error.clone()) {
                    pld_ir::say!("{error}");
                }
            }
            why.to_string()
        }
    }
}

/// The `--stats` table: round trips and traffic counters per device (or
/// over all devices).
fn print_counters(finished: &ProgramOutcome, per_rank: bool) {
    println!("  device  round trips  notifies  waits  remote bytes read  remote bytes written");
    let rows = counter_rows(&finished.outcome.counters, per_rank);
    for (device, c) in rows {
        // Over all devices, the round trips are per device: the same on
        // every one, or their range.
        let trips = match device.parse::<usize>() {
            Ok(d) => finished
                .round_trips
                .get(d)
                .copied()
                .unwrap_or(0)
                .to_string(),
            Err(_) => {
                let least = finished.round_trips.iter().min().copied().unwrap_or(0);
                let most = finished.round_trips.iter().max().copied().unwrap_or(0);
                if least == most {
                    format!("{most} each")
                } else {
                    format!("{least}-{most} each")
                }
            }
        };
        println!(
            "  {device:>6}  {:>11}  {:>8}  {:>5}  {:>17}  {:>20}",
            trips, c.notifies, c.waits, c.remote_bytes_read, c.remote_bytes_written
        );
    }
}

/// The calls in the table [`report::collective_table`] prints: the size
/// of each call's result (nothing for a barrier) and its time on the
/// slowest rank.
fn summary(calls: &[CallReport], world: usize) {
    if calls.is_empty() {
        return;
    }
    let rows: Vec<report::TableRow> = calls
        .iter()
        .map(|call| {
            let (count, dtype) = match call.target {
                Some(_) => (call.elements, call.dtype.clone()),
                None => (0, "-".to_string()),
            };
            report::TableRow {
                collective: call.kind,
                // The ranks of the call's comm domain, which may be fewer
                // than the program's devices.
                ranks: if call.ranks > 0 { call.ranks } else { world },
                bytes: count * dtype_bytes(&dtype),
                count,
                dtype,
                reduce: call.reduce,
                root: call.root,
                time: call.time,
                wrong: call
                    .check
                    .as_ref()
                    .ok()
                    .map(|checks| checks.iter().map(|c| c.wrong).sum()),
            }
        })
        .collect();
    print!("{}", report::collective_table(&rows, "  "));
}

/// Bytes of an element type as the reports spell it.
fn dtype_bytes(dtype: &str) -> usize {
    match dtype {
        "f32" | "i32" => 4,
        "f16" => 2,
        _ => 1,
    }
}
