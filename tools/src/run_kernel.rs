//! `pld-run` on one kernel: load it, run it on N simulated ranks (or
//! explore its schedules), check it, report.

use crate::explore::Verdict;
use crate::inputs::{assign, fill_ranks, Generator};
use crate::options::{Options, Refusal, Seeds, DEADLOCK};
use crate::output_dir::OutputDir;
use crate::report::{self, counter_rows, index_of, Progress};
use pld_dialect::collective::Role;
use pld_ir::print::symbol_ref;
use pld_sim::compiler::Source;
use pld_sim::program::golden::RankCheck;
use pld_sim::program::{golden, npy, Finished, KernelInfo, Param, Program};
use pld_sim::Schedule;
use std::time::{Duration, Instant};

/// The parameter `name` names: its SSA name as the source writes it, with
/// or without the `%` (`%data`, `data`), or its position (`arg0`, `0`). An
/// unknown name lists the valid ones.
pub fn param_index(kernel: &KernelInfo, name: &str) -> Result<usize, String> {
    let bare = name.strip_prefix('%').unwrap_or(name);
    kernel
        .params
        .iter()
        .enumerate()
        .position(|(i, p)| p.name == bare || bare == format!("arg{i}") || bare == i.to_string())
        .ok_or_else(|| {
            let valid: Vec<String> = kernel
                .params
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    if p.name == format!("arg{i}") {
                        p.name.clone()
                    } else {
                        format!("%{} (arg{i})", p.name)
                    }
                })
                .collect();
            format!(
                "{} has no parameter '{name}'; its parameters are {}",
                symbol_ref(&kernel.name),
                valid.join(", ")
            )
        })
}

/// The kernel's collective as a row of the table of the calls
/// ([`report::collective_table`]): the size of its target (allgather's
/// whole output, the all-to-alls' whole `[ranks, ...]` buffer, as
/// nccl-tests counts them; nothing for a barrier) and its time, the mean
/// time of the kernel over the timed runs (`time`).
fn table_row(
    kernel: &KernelInfo,
    collective: &pld_sim::program::Collective,
    ranks: usize,
    time: Duration,
    wrong: Option<usize>,
) -> report::TableRow {
    let target = collective.at(Role::Target).map(|t| &kernel.params[t]);
    report::TableRow {
        collective: collective.kind,
        ranks,
        bytes: target.map_or(0, |p| p.elements() * p.dtype.bytes()),
        count: target.map_or(0, Param::elements),
        dtype: target.map_or("-", |p| p.dtype.name()).to_string(),
        reduce: collective.reduce,
        root: collective.root,
        time,
        wrong,
    }
}

/// A parameter as reports name it: `%data (arg0)` when the source names
/// it, `arg0` otherwise.
pub fn shown_name(kernel: &KernelInfo, param: &Param) -> String {
    let position = kernel
        .params
        .iter()
        .position(|p| std::ptr::eq(p, param))
        .unwrap_or(0);
    kernel.shown_name(position)
}

/// Each waited-on cell of a deadlock as the source names it: the parameter
/// whose window range holds it, its [row, col] there, and the collectives
/// whose signal it is.
pub fn waiting_lines(
    kernel: &KernelInfo,
    finished: &Finished,
    report: &pld_sim::DeadlockReport,
) -> Vec<String> {
    let mut lines = Vec::new();
    for blocked in &report.blocked {
        let cell = blocked
            .window
            .and_then(|_| kernel.element_at(&finished.offsets, blocked.offset));
        if let Some((param, index)) = cell {
            let param = &kernel.params[param];
            lines.push(report::waiting(
                blocked,
                &shown_name(kernel, param),
                &param.shape,
                index,
                &signal_users(kernel, param),
            ));
        }
    }
    lines
}

/// `--explore` / `--replay` of one kernel: every schedule on fresh copies
/// of the inputs; a schedule's credit leaks and (under `--check`) wrong
/// results are findings too.
fn explore_kernel(
    options: &Options,
    seeds: Seeds,
    program: &Program,
    kernel: &KernelInfo,
    inputs: &[Vec<Vec<u8>>],
    source: Source,
) -> Result<i32, String> {
    let label = format!(
        "{} on {}",
        symbol_ref(&kernel.name),
        report::count(options.ranks, "rank")
    );
    crate::watch::exploring(source);
    let log = (options.schedule_log.as_deref(), options.check);
    crate::explore::explore(&label, seeds, log, |schedule| {
        kernel_verdict(options, program, kernel, inputs, source, schedule)
    })
}

/// Whether pld-run can run `kernel` (not one that calls another kernel's
/// collective) and `--check`, when asked, compare a run of it on
/// `options.ranks` ranks: refused before the run, at the collective
/// concerned (or at the kernel in `text`), as a program's call is.
pub fn checkable(
    options: &Options,
    kernel: &KernelInfo,
    text: &str,
    buffer_name: &str,
) -> Result<(), String> {
    if let Some(called) = &kernel.called_collective {
        // Its signals would not be zeroed nor its result checked: the
        // run deadlocked on a ramp-filled signal.
        let at = report::function_location(text, buffer_name, &kernel.name);
        return Err(format!(
            "{at}{} calls {called}: pld-run runs the collectives of the kernel it is given \
             (it zeroes their signals and checks their results); give that kernel with \
             --kernel, or write the collective in {} itself",
            symbol_ref(&kernel.name),
            symbol_ref(&kernel.name)
        ));
    }
    if !options.check || only_barriers(kernel) {
        return Ok(());
    }
    golden::checkable(kernel, options.ranks).map_err(|(collective, why)| match collective {
        Some(c) => format!("{}: --check cannot compare {}: {why}", c.location, c.op()),
        None => {
            let at = report::function_location(text, buffer_name, &kernel.name);
            format!(
                "{at}--check cannot compare {}: {why}",
                symbol_ref(&kernel.name)
            )
        }
    })
}

/// One explored schedule of `kernel` on fresh copies of `inputs`
/// (`[rank][param]`): the checker's findings, the deadlock with its
/// waited-on cells named, credit leaks and (under `--check`) wrong ranks.
/// `source` is the input, quoted under the ops the findings name.
pub fn kernel_verdict(
    options: &Options,
    program: &Program,
    kernel: &KernelInfo,
    inputs: &[Vec<Vec<u8>>],
    source: Source,
    schedule: Schedule,
) -> Result<Verdict, String> {
    let finished = program.run_explored(
        &kernel.name,
        options.ranks,
        options.deadline,
        false,
        Some(schedule),
        |rank, param| inputs[rank][param].clone(),
    )?;
    // Window bytes as the source names them: parameter and elements.
    let namer = |_window: usize, range: &std::ops::Range<usize>| {
        kernel.name_bytes(&finished.offsets, range)
    };
    let mut verdict = Verdict::of(&finished.outcome, &namer, source);
    if let Some(report) = &finished.outcome.deadlock {
        verdict.annotate_deadlock(&waiting_lines(kernel, &finished, report));
        return Ok(verdict);
    }
    // `--replay S --output-dir DIR` (the command line allows it with one
    // schedule only): the schedule's buffers, as a plain run writes them.
    if let Some(dir) = &options.output_dir {
        write_outputs(dir, kernel, &finished)?;
    }
    for &signal in &kernel.signals {
        let param = &kernel.params[signal];
        let offset = finished.offsets[signal].unwrap_or(0);
        for leak in finished.domain.leaks(offset, param.elements()) {
            let cell = index_of(leak.index, &param.shape);
            verdict.push(
                format!("leak {} {cell}", param.name),
                format!(
                    "credit leak in {} at {cell}: rank {}'s cell holds {} (should be back to 0)",
                    shown_name(kernel, param),
                    leak.rank,
                    leak.value
                ),
            );
        }
    }
    let numeric = kernel.collectives.iter().any(|c| c.kind.facts().numeric);
    if options.check && numeric {
        // As a plain run says it: the wrong elements, and what may explain
        // them.
        let shape = target_shape(kernel);
        let notes: String = wrong_notes(kernel)
            .iter()
            .map(|note| format!("\n  note: {note}"))
            .collect();
        for check in golden::check(kernel, inputs, &finished.buffers())? {
            if !check.ok {
                verdict.push(
                    format!("wrong {}", check.rank),
                    format!(
                        "wrong result on rank {}: {}{notes}",
                        check.rank,
                        report::wrong_elements(&check, &shape)
                    ),
                );
            }
        }
    }
    Ok(verdict)
}

/// The collectives of the kernel whose signal `param` is, with their
/// locations (`pld.tensor_barrier at file:line:col`).
pub fn signal_users(kernel: &KernelInfo, param: &Param) -> Vec<String> {
    let number = kernel.params.iter().position(|p| std::ptr::eq(p, param));
    kernel
        .collectives
        .iter()
        .filter(|c| c.at(Role::Signal).is_some() && c.at(Role::Signal) == number)
        .map(|c| format!("{} at {}", c.op(), c.location))
        .collect()
}

/// Runs one kernel of the program of `source`; the process exit status.
pub fn drive(options: &Options, source: Source) -> Result<i32, Refusal> {
    let buffer_name = source.name;
    let progress = Progress::start();
    let compiling = progress.phase(format!("lowering and compiling {buffer_name}"));
    // The kernel is chosen before the module's code is compiled (a module
    // of 100 kernels took 10 s to say that one must be chosen); that
    // refusal is worded as it is without a place in the file.
    let mut refused = None;
    let choose = |kernels: &[KernelInfo]| {
        chosen(kernels, options, buffer_name)
            .map(drop)
            .map_err(|message| {
                refused = Some(message);
                String::new()
            })
    };
    let program = match Program::load_source_checked(source, choose) {
        Ok(program) => program,
        Err(message) => {
            return Err(refused
                .unwrap_or_else(|| crate::files::in_file(buffer_name, message))
                .into())
        }
    };
    drop(compiling);
    crate::report::cache_warning(&program.cache);
    let kernel = choose_kernel(&program, options, buffer_name)?;
    // The checks before a run first (as the Python package makes them): an
    // operand too small for the ranks is said as such, with or without
    // --check (--check named it as a golden it cannot compute).
    pld_sim::program::shapes::check(
        kernel,
        options.ranks,
        pld_sim::program::shapes::Rail::Composite,
    )?;
    checkable(options, kernel, source.file, buffer_name)?;
    let on_ranks = format!(
        "{} on {}",
        symbol_ref(&kernel.name),
        report::count(options.ranks, "rank")
    );
    let fill_started = Instant::now();
    crate::watch::phase("filling the inputs");
    let at = report::function_location(source.file, buffer_name, &kernel.name);
    let mut inputs = kernel_inputs(kernel, options, &progress, &on_ranks, &at)?;
    let fill_time = fill_started.elapsed();
    if let Some(seeds) = options.explore {
        crate::watch::phase(format!("exploring {}", symbol_ref(&kernel.name)));
        return Ok(explore_kernel(
            options, seeds, &program, kernel, &inputs, source,
        )?);
    }
    // Under MPI every process is ready, or all stop here.
    crate::mpi_agree::ready()?;
    let running = progress.phase(format!("running {on_ranks}"));
    let (finished, series) = run_series(&program, kernel, options, &mut inputs);
    drop(running);
    let finished = finished?;
    if crate::mpi_run::stopped(finished.outcome.interrupted) {
        if crate::speaker::reports() {
            pld_ir::say!("{}", crate::watch::interrupted_message());
        }
        return Ok(pld_sim::runtime::interrupt::status());
    }
    // Every process checks its own rank (collective under MPI, so before
    // anything process 0 alone does can fail).
    let check_started = Instant::now();
    let checks = match finished.outcome.deadlock {
        Some(_) => Ok(None),
        None => kernel_checks(options, kernel, &inputs, &finished),
    };
    if !crate::speaker::reports() {
        // Under MPI, process 0 reports the whole run (it has every rank's
        // outcome and verdict, and reaches every window).
        return Ok(0);
    }
    crate::watch::phase("checking the results");
    // Writing files is no checking: its time is left out of `check`
    // (recheck27b L6: 512 MiB of --output-dir showed as check 2.5s).
    let writing_started = Instant::now();
    if let (Some(path), Some(trace)) = (&options.trace, &finished.outcome.trace) {
        crate::files::write_trace(path, trace)?;
    }
    let Some(mut status) = report_problems(kernel, &finished, source) else {
        // The counters say how far the ranks got; there is nothing to check.
        if options.stats {
            print_stats(options, &program, &finished, &series, (fill_time, None));
        }
        return Ok(DEADLOCK);
    };
    if let Some(dir) = &options.output_dir {
        write_outputs(dir, kernel, &finished)?;
    }
    let writing = writing_started.elapsed();
    print_finished(options, kernel, &series);
    let checking = options
        .check
        .then(|| progress.phase(format!("checking {on_ranks} against the golden")));
    let wrong = check_results(options, kernel, checks?, &mut status)?;
    drop(checking);
    let check_time = check_started.elapsed().saturating_sub(writing);
    if options.stats {
        let times = (fill_time, Some(check_time));
        print_stats(options, &program, &finished, &series, times);
    }
    if let [collective] = kernel.collectives.as_slice() {
        let row = table_row(kernel, collective, options.ranks, series.kernel, wrong);
        print!("{}", report::collective_table(&[row], ""));
    }
    Ok(status)
}

/// `--stats`: the counters, the phases' times (`fill` and `check`, the
/// latter `None` when nothing was checked), the spread of the timed runs
/// and what the compile cache did.
fn print_stats(
    options: &Options,
    program: &Program,
    finished: &Finished,
    series: &Series,
    (fill, check): (Duration, Option<Duration>),
) {
    print_counters(finished, options.per_rank);
    let mut phases = vec![
        ("lower", program.lower_time),
        ("compile", program.compile_time),
        ("fill", fill),
        ("run", series.elapsed),
    ];
    phases.extend(check.map(|time| ("check", time)));
    println!("{}", report::phases(&phases, series.timed_runs > 1));
    if let Some(line) = report::kernel_spread(&series.kernel_times) {
        println!("{line}");
    }
    println!("  compile cache: {}", program.cache);
}

/// Prints the run's errors and fatal errors (first: they are often why the
/// ranks got stuck), its deadlock and its credit leaks on standard error: the exit
/// status so far, or `None` after a deadlock (nothing else is reported
/// then).
fn report_problems(kernel: &KernelInfo, finished: &Finished, source: Source) -> Option<i32> {
    let mut status = i32::from(report::run_errors(&finished.outcome, source));
    if let Some(report) = &finished.outcome.deadlock {
        pld_ir::diag::write_stderr(&format!("pld-run: {report}"));
        for line in waiting_lines(kernel, finished, report) {
            pld_ir::say!("{line}");
        }
        return None;
    }
    if report_leaks(kernel, finished) {
        status = 1;
    }
    Some(status)
}

/// The kernel `--kernel` names, or the only one.
pub fn choose_kernel<'p>(
    program: &'p Program,
    options: &Options,
    buffer_name: &str,
) -> Result<&'p KernelInfo, String> {
    chosen(&program.kernels, options, buffer_name)
}

/// The kernel of `kernels` that `--kernel` names, or the only one.
fn chosen<'k>(
    kernels: &'k [KernelInfo],
    options: &Options,
    buffer_name: &str,
) -> Result<&'k KernelInfo, String> {
    match &options.kernel {
        Some(name) => kernels.iter().find(|k| k.name == *name).ok_or_else(|| {
            let kernels: Vec<String> = kernels.iter().map(|k| symbol_ref(&k.name)).collect();
            format!(
                "{buffer_name} has no device kernel {} (--kernel names an InCore, AIV or AIC \
                 function; this module has {}; a HOST orchestrator runs whole, without --kernel)",
                symbol_ref(name),
                if kernels.is_empty() {
                    "none".to_string()
                } else {
                    kernels.join(", ")
                }
            )
        }),
        None => match kernels {
            [only] => Ok(only),
            [] => Err(format!(
                "{buffer_name}:1:1: the module has nothing to run: no device kernel (a func.func \
                 with pld.kind #pld.func_kind<\"incore\">, \"aiv\" or \"aic\") and no HOST \
                 orchestrator"
            )),
            many => {
                let names: Vec<String> = many.iter().map(|k| symbol_ref(&k.name)).collect();
                Err(format!(
                    "choose a kernel with --kernel: {}",
                    names.join(", ")
                ))
            }
        },
    }
}

/// Every rank's initial buffers, `[rank][param]`: the signals (the credit
/// cells) zero, the rest a ramp, unless `--input` says otherwise; the
/// collectives' shapes are checked against the rank count first. The fill
/// phase of `progress` (`on_ranks`: `@k on 4 ranks`).
/// `at`: the kernel's location (`file:line:col: `), for the memory check.
fn kernel_inputs(
    kernel: &KernelInfo,
    options: &Options,
    progress: &Progress,
    on_ranks: &str,
    at: &str,
) -> Result<Vec<Vec<Vec<u8>>>, Refusal> {
    let generators: Vec<Generator> = (0..kernel.params.len())
        .map(|i| {
            if kernel.signals.contains(&i) {
                Generator::Zeros
            } else {
                Generator::Ramp
            }
        })
        .collect();
    let generators = assign(
        &options.inputs,
        generators,
        "PARAM",
        |name| param_index(kernel, name),
        |index| format!("parameter {}", kernel.shown_name(index)),
    )?;
    let columns: Vec<(Param, Generator)> = kernel.params.iter().cloned().zip(generators).collect();
    let per_rank: usize = kernel.params.iter().map(Param::bytes).sum();
    // Inputs and windows, and with --check the goldens and the room their
    // folds take (measured: 3.4 copies at 256 MiB a rank; under MPI a
    // process holds its own rank's).
    let copies = if options.check { 4 } else { 2 };
    let held = crate::mpi_run::held(options.ranks);
    let need = per_rank.saturating_mul(held).saturating_mul(copies);
    crate::inputs::check_memory(need, || {
        format!(
            "{at}{} on {} ({} of parameters per rank, as inputs, windows{})",
            symbol_ref(&kernel.name),
            report::count(options.ranks, "rank"),
            report::bytes(per_rank),
            if options.check { " and goldens" } else { "" }
        )
    })?;
    let _filling = progress.phase(format!(
        "filling the inputs of {on_ranks} ({})",
        report::bytes(per_rank.saturating_mul(options.ranks))
    ));
    let wanted = |rank, _| crate::mpi_run::fills(rank);
    Ok(fill_ranks(&columns, options.ranks, &wanted, at)?)
}

/// How a series of runs of the kernel went: the time of one run (the mean
/// of the timed ones), how many ran and how many were timed.
struct Series {
    elapsed: Duration,
    /// The kernel's own time (from the start of its first rank to the end
    /// of its last), the mean over the timed runs.
    kernel: Duration,
    /// The kernel's time of every timed run, in order.
    kernel_times: Vec<Duration>,
    runs: usize,
    timed_runs: u32,
}

/// `--warmup` untimed runs, then `--iters` timed ones (the kernel compiled
/// once, fresh buffers every run): the last run, the one reported (a run
/// that fails stops the series), and how the series went. A single run without `--check` gets the inputs
/// handed over, not copied (the buffers of a large run are the process's
/// memory): `inputs` is empty after it.
fn run_series(
    program: &Program,
    kernel: &KernelInfo,
    options: &Options,
    inputs: &mut Vec<Vec<Vec<u8>>>,
) -> (Result<Finished, String>, Series) {
    let single = options.iters <= 1 && options.warmup == 0;
    let handed: Vec<Vec<std::sync::Mutex<Vec<u8>>>> = if single && !options.check {
        std::mem::take(inputs)
            .into_iter()
            .map(|row| row.into_iter().map(std::sync::Mutex::new).collect())
            .collect()
    } else {
        Vec::new()
    };
    let started = Instant::now();
    let iters = options.iters.max(1);
    let mut timed = Duration::ZERO;
    let mut kernel_timed = Duration::ZERO;
    let mut kernel_times = Vec::with_capacity(iters.min(1 << 16));
    let mut runs = 0;
    let total = options.warmup.saturating_add(iters);
    if total > 1 {
        crate::watch::done(format!("0 of {total} runs finished"));
    }
    // Each run's `finished` is dropped before the next run starts, so that
    // its windows go back to the program for the next to reuse
    // (`pld_sim::runtime::domain::Spare`).
    let finished = loop {
        crate::watch::phase(format!(
            "running {} on {}{}",
            symbol_ref(&kernel.name),
            report::count(options.ranks, "rank"),
            crate::watch::of_total(runs, total)
        ));
        let run_started = Instant::now();
        let finished = program.run_traced(
            &kernel.name,
            options.ranks,
            options.deadline,
            options.trace.is_some(),
            |rank, param| match handed.get(rank) {
                Some(row) => row[param]
                    .lock()
                    .map(|mut bytes| std::mem::take(&mut *bytes))
                    .unwrap_or_default(),
                None => inputs[rank][param].clone(),
            },
        );
        runs += 1;
        if runs > options.warmup {
            timed += run_started.elapsed();
            let kernel_time = finished
                .as_ref()
                .map_or(Duration::ZERO, |f| f.outcome.kernel_time);
            kernel_timed += kernel_time;
            kernel_times.push(kernel_time);
        }
        let failed = failed(&finished);
        let interrupted = finished.as_ref().is_ok_and(|f| f.outcome.interrupted);
        if failed || runs >= total || crate::mpi_run::stopped(interrupted) {
            break finished;
        }
        crate::watch::done(format!("{runs} of {total} runs finished"));
    };
    if failed(&finished) {
        crate::watch::series_stopped(runs, total);
    }
    let timed_runs = runs.saturating_sub(options.warmup).max(1) as u32;
    let (elapsed, kernel_time) = if runs > options.warmup {
        (timed / timed_runs, kernel_timed / timed_runs)
    } else {
        let last = finished
            .as_ref()
            .map_or(Duration::ZERO, |f| f.outcome.kernel_time);
        (started.elapsed(), last)
    };
    let series = Series {
        elapsed,
        kernel: kernel_time,
        kernel_times,
        runs,
        timed_runs,
    };
    (finished, series)
}

/// Whether a run of a series failed (a deadlock, an error of the run, or
/// no run at all): the series stops there.
fn failed(finished: &Result<Finished, String>) -> bool {
    finished.as_ref().map_or(true, |f| {
        f.outcome.deadlock.is_some() || !f.outcome.errors.is_empty()
    })
}

/// Prints the credits left in the kernel's signals, each cell named as the
/// source names it (parameter and index); whether there were any.
fn report_leaks(kernel: &KernelInfo, finished: &Finished) -> bool {
    let mut leaked = false;
    for &signal in &kernel.signals {
        let param = &kernel.params[signal];
        let offset = finished.offsets[signal].unwrap_or(0);
        for leak in finished.domain.leaks(offset, param.elements()) {
            pld_ir::say!(
                "{}",
                report::leak(
                    &shown_name(kernel, param),
                    &param.shape,
                    &leak,
                    &signal_users(kernel, param)
                )
            );
            leaked = true;
        }
    }
    leaked
}

/// `--output-dir`: every parameter of every rank as
/// `DIR/<param>.rank<r>.npy`.
fn write_outputs(dir: &str, kernel: &KernelInfo, finished: &Finished) -> Result<(), String> {
    let out = OutputDir::open(dir)?;
    for (rank, buffers) in finished.buffers().iter().enumerate() {
        for (param, bytes) in kernel.params.iter().zip(buffers) {
            let name = format!("{}.rank{rank}.npy", param.name);
            out.write(&name, &npy::encode(param.dtype, &param.shape, bytes))?;
        }
    }
    Ok(())
}

/// `@k on 4 ranks: finished in ...`, with the series when there was one:
/// both times are the means of the timed runs.
fn print_finished(options: &Options, kernel: &KernelInfo, series: &Series) {
    let described = if series.runs > 1 {
        format!(
            " (the mean of {} runs after {} warm-up runs)",
            series.timed_runs,
            options.warmup.min(series.runs)
        )
    } else {
        String::new()
    };
    let processes = crate::mpi_run::processes_note(options);
    println!(
        "{} on {}{processes}: finished in {:.1?} (kernels {:.1?}){described}",
        symbol_ref(&kernel.name),
        report::count(options.ranks, "rank"),
        series.elapsed,
        series.kernel
    );
}

/// `--check`: every rank's result against the golden (printed, wrong
/// ranks setting `status` to 1, the golden written next to the result
/// under `--output-dir`); the number of wrong elements over all ranks, if
/// anything was compared.
fn check_results(
    options: &Options,
    kernel: &KernelInfo,
    checks: Option<Vec<RankCheck>>,
    status: &mut i32,
) -> Result<Option<usize>, String> {
    if options.check && only_barriers(kernel) {
        // Nothing numeric to compare; the run itself was checked.
        println!(
            "  --check: {} has no numeric result to compare; every rank got through it{}",
            kernel.collectives[0].op(),
            if *status == 0 {
                " and no credit is left"
            } else {
                ""
            }
        );
    }
    let Some(checks) = checks else {
        return Ok(None);
    };
    let shape = target_shape(kernel);
    for check in &checks {
        println!(
            "  rank {}: {} (worst error {:.3e} at element {})",
            check.rank,
            if check.ok { "ok" } else { "WRONG" },
            check.worst,
            check.at
        );
        if !check.ok {
            *status = 1;
            println!("    {}", report::wrong_elements(check, &shape));
        }
    }
    if checks.iter().any(|c| !c.ok) {
        for note in wrong_notes(kernel) {
            println!("  note: {note}");
        }
    }
    // The golden next to the result, the bytes it was compared with.
    if let (Some(dir), Some(target)) = (&options.output_dir, kernel.collectives[0].at(Role::Target))
    {
        let param = &kernel.params[target];
        let out = OutputDir::open(dir)?;
        for check in &checks {
            let name = format!("{}.rank{}.golden.npy", param.name, check.rank);
            out.write(
                &name,
                &npy::encode(param.dtype, &param.shape, &check.expected),
            )?;
        }
    }
    Ok(Some(checks.iter().map(|c| c.wrong).sum::<usize>()))
}

/// The shape of the kernel's collective's target, as its wrong elements
/// are indexed.
fn target_shape(kernel: &KernelInfo) -> Vec<usize> {
    kernel.collectives[0]
        .at(Role::Target)
        .map(|t| kernel.params[t].shape.clone())
        .unwrap_or_default()
}

/// What may explain a wrong result other than the collective: it sits in a
/// branch that may not have run, or the kernel writes its target too.
fn wrong_notes(kernel: &KernelInfo) -> Vec<String> {
    let collective = &kernel.collectives[0];
    let branch = collective.in_branch.as_ref().map(|branch| {
        format!(
            "the {} of {} is inside {branch}: where the branch was not taken it did not run, \
             and its target kept what it held",
            collective.op(),
            symbol_ref(&kernel.name)
        )
    });
    let own = kernel.other_writes.first().map(|write| {
        format!(
            "{} also writes the target of its {} ({write}): the difference may be the \
             kernel's own, not the collective's",
            symbol_ref(&kernel.name),
            collective.op()
        )
    });
    branch.into_iter().chain(own).collect()
}

/// Whether the kernel's collectives are all barriers (nothing numeric to
/// compare).
fn only_barriers(kernel: &KernelInfo) -> bool {
    !kernel.collectives.is_empty() && kernel.collectives.iter().all(|c| !c.kind.facts().numeric)
}

/// `--check`: every rank's result against the golden, `None` without
/// `--check` or with nothing numeric to compare. Under MPI each process
/// checks its own rank (the golden from every rank's inputs, which the
/// processes exchange) and process 0 gathers the verdicts.
fn kernel_checks(
    options: &Options,
    kernel: &KernelInfo,
    inputs: &[Vec<Vec<u8>>],
    finished: &Finished,
) -> Result<Option<Vec<RankCheck>>, String> {
    if !options.check || only_barriers(kernel) {
        return Ok(None);
    }
    let me = finished.domain.local().start;
    if finished.domain.local().len() == options.ranks {
        return Ok(Some(golden::check(kernel, inputs, &finished.buffers())?));
    }
    let all_inputs = pld_sim::program::processes::gather_rows(&inputs[me])?;
    let mut outputs = vec![Vec::new(); options.ranks];
    outputs[me] = finished.rank_buffers(me);
    let mine = golden::check_ranks(kernel, &all_inputs, &outputs, &|rank| rank == me)?;
    Ok(Some(pld_sim::program::processes::gather_checks(mine)?))
}

/// The `--stats` table of traffic counters.
fn print_counters(finished: &Finished, per_rank: bool) {
    println!("  rank  notifies  waits  remote bytes read  remote bytes written");
    for (rank, c) in counter_rows(&finished.outcome.counters, per_rank) {
        println!(
            "  {rank:>4}  {:>8}  {:>5}  {:>17}  {:>20}",
            c.notifies, c.waits, c.remote_bytes_read, c.remote_bytes_written
        );
    }
}
