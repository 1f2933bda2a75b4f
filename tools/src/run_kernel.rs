//! The `pld-run` driver: load a program, run one kernel on N simulated
//! ranks, check it, report.

use crate::files::read_named_input;
use crate::report;
use crate::report::index_of;
use pld_dialect::ops::collective::{AllReduce, Barrier, Broadcast};
use pld_sim::program::golden;
use pld_sim::program::npy;
use pld_sim::program::{Param, Program};
use std::time::{Duration, Instant};

/// What `pld-run` was asked to do.
#[derive(Clone, Debug, Default)]
pub struct Options {
    pub input: String,
    pub kernel: Option<String>,
    /// The HOST orchestrator to run (program mode).
    pub entry: Option<String>,
    pub ranks: usize,
    /// `PARAM=GENERATOR` pairs.
    pub inputs: Vec<String>,
    pub check: bool,
    pub stats: bool,
    /// With `stats`: a row per rank instead of one over all ranks.
    pub per_rank: bool,
    pub deadline: Duration,
    pub output_dir: Option<String>,
    /// Where to write the Chrome-trace timeline.
    pub trace: Option<String>,
    /// Timed runs of the kernel (0 counts as 1); the reported time is
    /// their mean, the results those of the last.
    pub iters: usize,
    /// Untimed runs before them.
    pub warmup: usize,
    /// `--explore K` / `--replay SEED`: run under the protocol explorer.
    pub explore: Option<crate::explore::Seeds>,
}

/// Exit status of a deadlocked run (distinct from errors).
pub const DEADLOCK: i32 = 3;

/// How a parameter is filled.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Generator {
    Zeros,
    Ones,
    /// A value that depends on rank and index (exact in f16).
    Ramp,
    /// The rank number everywhere.
    Rank,
    /// A `.npy` file per rank; `{rank}` in the path is replaced.
    File(String),
}

pub(crate) fn generator(text: &str) -> Generator {
    match text {
        "zeros" => Generator::Zeros,
        "ones" => Generator::Ones,
        "ramp" => Generator::Ramp,
        "rank" => Generator::Rank,
        path => Generator::File(path.to_string()),
    }
}

/// The ramp input: halves of small integers, distinct per rank and index,
/// and shifted per buffer by `salt`, so that two buffers of one shape start
/// different (a copy that lands in the wrong buffer, or is skipped, shows).
pub fn ramp(rank: usize, i: usize, salt: usize) -> f64 {
    ((i * 7 + rank * 13 + salt * 3) % 11) as f64 - 5.0 + rank as f64 * 0.5
}

/// A buffer's ramp shift, from its name.
fn salt(name: &str) -> usize {
    name.bytes().map(usize::from).sum::<usize>() % 11
}

pub(crate) fn fill(generator: &Generator, param: &Param, rank: usize) -> Result<Vec<u8>, String> {
    let values = |f: &dyn Fn(usize) -> f64| -> Vec<u8> {
        param.dtype.encode_all((0..param.elements()).map(f))
    };
    Ok(match generator {
        Generator::Zeros => vec![0; param.bytes()],
        Generator::Ones => values(&|_| 1.0),
        Generator::Ramp => values(&|i| ramp(rank, i, salt(&param.name))),
        Generator::Rank => values(&|_| rank as f64),
        Generator::File(pattern) => {
            let path = pattern.replace("{rank}", &rank.to_string());
            let bytes = std::fs::read(&path).map_err(|e| {
                format!(
                    "cannot read '{path}': {e} (a generator is zeros, ones, rank, ramp or the \
                     path of a .npy file per rank, with {{rank}} for the rank)"
                )
            })?;
            npy::decode(&bytes, param.dtype, &param.shape).map_err(|e| format!("'{path}': {e}"))?
        }
    })
}

/// The parameter `name` names: its SSA name as the source writes it, with
/// or without the `%` (`%data`, `data`), or its position (`arg0`, `0`). An
/// unknown name lists the valid ones.
fn param_index(kernel: &pld_sim::program::KernelInfo, name: &str) -> Result<usize, String> {
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
                "@{} has no parameter '{name}'; its parameters are {}",
                kernel.name,
                valid.join(", ")
            )
        })
}

/// The collective's result in nccl-tests' columns: size in bytes and count
/// in elements of its buffer (the target: for reduce_scatter, allgather
/// and the all-to-alls the whole `[ranks, ...]` buffer, as nccl-tests
/// counts them), element type, reduction, root, the run's time, and the
/// algorithm and bus bandwidths (busbw = algbw times 2(n-1)/n for an
/// allreduce, (n-1)/n for reduce_scatter, allgather and the all-to-alls, 1
/// for a broadcast); #wrong is the number of wrong elements over all ranks
/// under --check, N/A without.
fn summary(
    kernel: &pld_sim::program::KernelInfo,
    collective: &pld_sim::program::Collective,
    ranks: usize,
    elapsed: Duration,
    wrong: Option<usize>,
) -> String {
    let target = collective.target.map(|t| &kernel.params[t]);
    let count = target.map_or(0, Param::elements);
    let size = target.map_or(0, |p| p.elements() * p.dtype.bytes());
    let dtype = target.map_or("-", |p| p.dtype.name());
    let factor = bus_factor(&collective.op, ranks);
    let seconds = elapsed.as_secs_f64().max(1e-9);
    let algbw = size as f64 / seconds / 1e9;
    let redop = collective.reduce.as_deref().unwrap_or("none");
    let root = collective.root.unwrap_or(-1);
    let wrong = wrong.map_or("N/A".to_string(), |w| w.to_string());
    format!(
        "#{:>12} {:>12} {:>6} {:>6} {:>5} {:>10} {:>8} {:>8} {:>7}\n\
         #{:>12} {:>12} {:>6} {:>6} {:>5} {:>10} {:>8} {:>8} {:>7}\n \
         {size:>12} {count:>12} {dtype:>6} {redop:>6} {root:>5} {:>10.1} {algbw:>8.3} {:>8.3} {wrong:>7}\n",
        "size", "count", "type", "redop", "root", "time", "algbw", "busbw", "#wrong",
        "(B)", "(elements)", "", "", "", "(us)", "(GB/s)", "(GB/s)", "",
        seconds * 1e6,
        algbw * factor,
    )
}

/// nccl-tests' bus bandwidth factor of a collective on `ranks` ranks:
/// busbw = algbw x 2(n-1)/n for an allreduce, (n-1)/n for reduce_scatter,
/// allgather and the all-to-alls, 1 for a broadcast (0 for a barrier).
pub(crate) fn bus_factor(op: &str, ranks: usize) -> f64 {
    let n = ranks.max(1) as f64;
    match op {
        AllReduce::NAME => 2.0 * (n - 1.0) / n,
        Barrier::NAME => 0.0,
        Broadcast::NAME => 1.0,
        _ => (n - 1.0) / n,
    }
}

/// The rows of the `--stats` table: one per rank (`--per-rank`), or one,
/// `all`, summing every rank's counters.
pub(crate) fn counter_rows(
    counters: &[pld_sim::Counters],
    per_rank: bool,
) -> Vec<(String, pld_sim::Counters)> {
    if per_rank {
        return counters
            .iter()
            .enumerate()
            .map(|(rank, c)| (rank.to_string(), *c))
            .collect();
    }
    let mut all = pld_sim::Counters::default();
    for c in counters {
        all.notifies += c.notifies;
        all.waits += c.waits;
        all.remote_bytes_read += c.remote_bytes_read;
        all.remote_bytes_written += c.remote_bytes_written;
    }
    vec![("all".to_string(), all)]
}

/// A parameter as reports name it: `%data (arg0)` when the source names
/// it, `arg0` otherwise.
fn shown_name(kernel: &pld_sim::program::KernelInfo, param: &Param) -> String {
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
fn waiting_lines(
    kernel: &pld_sim::program::KernelInfo,
    finished: &pld_sim::program::Finished,
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
    seeds: crate::explore::Seeds,
    program: &Program,
    kernel: &pld_sim::program::KernelInfo,
    inputs: &[Vec<Vec<u8>>],
    source: &str,
) -> Result<i32, String> {
    let label = format!(
        "@{} on {}",
        kernel.name,
        report::count(options.ranks, "rank")
    );
    let numeric = kernel.collectives.iter().any(|c| c.op != Barrier::NAME);
    if options.check && numeric && kernel.collectives.len() != 1 {
        return Err(format!(
            "@{} has {} collectives; --check needs exactly one",
            kernel.name,
            kernel.collectives.len()
        ));
    }
    if options.check && kernel.collectives.is_empty() {
        return Err(format!(
            "@{} has 0 collectives; --check needs exactly one",
            kernel.name
        ));
    }
    crate::explore::explore(&label, seeds, |schedule| {
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
            let (i, first) = kernel.element_at(&finished.offsets, range.start)?;
            let p = &kernel.params[i];
            let start = finished.offsets[i]?;
            let last = (range.end.min(start + p.bytes()) - start - 1) / p.dtype.bytes();
            let span = if first == last {
                index_of(first, &p.shape)
            } else {
                format!(
                    "{}..{}",
                    index_of(first, &p.shape),
                    index_of(last, &p.shape)
                )
            };
            Some(format!("{} {span}", kernel.shown_name(i)))
        };
        let mut verdict = crate::explore::Verdict::of(&finished.outcome, &namer, source);
        if let Some(report) = &finished.outcome.deadlock {
            verdict.annotate_deadlock(&waiting_lines(kernel, &finished, report));
        }
        if finished.outcome.deadlock.is_none() {
            for &signal in &kernel.signals {
                let param = &kernel.params[signal];
                let offset = finished.offsets[signal].unwrap_or(0);
                for leak in finished.domain.leaks(offset, param.elements()) {
                    let cell = index_of(leak.index, &param.shape);
                    verdict.push(
                        format!("leak {} {cell}", param.name),
                        format!(
                            "credit leak in {} at {cell}: rank {}'s cell holds {} (should be back \
                             to 0)",
                            shown_name(kernel, param),
                            leak.rank,
                            leak.value
                        ),
                    );
                }
            }
            if options.check && numeric {
                for check in golden::check(kernel, inputs, &finished.buffers())? {
                    if !check.ok {
                        verdict.push(
                            format!("wrong {}", check.rank),
                            format!(
                                "wrong result on rank {}: {} wrong elements",
                                check.rank, check.wrong
                            ),
                        );
                    }
                }
            }
        }
        Ok(verdict)
    })
}

/// The collectives of the kernel whose signal `param` is, with their
/// locations (`pld.tensor_barrier at file:line:col`).
fn signal_users(kernel: &pld_sim::program::KernelInfo, param: &Param) -> Vec<String> {
    let number = kernel.params.iter().position(|p| std::ptr::eq(p, param));
    kernel
        .collectives
        .iter()
        .filter(|c| c.signal.is_some() && c.signal == number)
        .map(|c| format!("{} at {}", c.op, c.location))
        .collect()
}

/// Runs `pld-run`; returns the process exit status.
pub fn run(options: &Options) -> i32 {
    match drive(options) {
        Ok(status) => status,
        Err(message) => {
            eprintln!("pld-run: error: {message}");
            1
        }
    }
}

fn drive(options: &Options) -> Result<i32, String> {
    let Some((buffer_name, text)) = read_named_input("pld-run", &options.input) else {
        return Ok(1);
    };
    if !(1..=pld_sim::MAX_RANKS).contains(&options.ranks) {
        return Err(format!(
            "--ranks must be 1 to {}, not {}",
            pld_sim::MAX_RANKS,
            options.ranks
        ));
    }
    // A program with a HOST orchestrator runs whole, unless a kernel is
    // named.
    if options.entry.is_some()
        || (options.kernel.is_none() && !crate::run_program::host_functions(&text).is_empty())
    {
        return crate::run_program::drive(options, &buffer_name, &text);
    }
    let program =
        Program::load_named(&text, &buffer_name).map_err(|e| format!("{buffer_name}: {e}"))?;
    let kernel = match &options.kernel {
        Some(name) => program.kernel(name).ok_or_else(|| {
            let kernels: Vec<String> = program
                .kernels
                .iter()
                .map(|k| format!("@{}", k.name))
                .collect();
            format!(
                "{buffer_name} has no device kernel @{name} (--kernel names an InCore, AIV or AIC \
                 function; this module has {}; a HOST orchestrator runs whole, without --kernel)",
                if kernels.is_empty() {
                    "none".to_string()
                } else {
                    kernels.join(", ")
                }
            )
        })?,
        None => match program.kernels.as_slice() {
            [only] => only,
            [] => return Err(format!("{buffer_name} has no InCore kernel")),
            many => {
                let names: Vec<String> = many.iter().map(|k| format!("@{}", k.name)).collect();
                return Err(format!(
                    "choose a kernel with --kernel: {}",
                    names.join(", ")
                ));
            }
        },
    };
    // Generators: signals (the credit cells) start at zero, the rest as a ramp.
    let mut generators: Vec<Generator> = (0..kernel.params.len())
        .map(|i| {
            if kernel.signals.contains(&i) {
                Generator::Zeros
            } else {
                Generator::Ramp
            }
        })
        .collect();
    pld_sim::program::shapes::check(
        kernel,
        options.ranks,
        pld_sim::program::shapes::Rail::Composite,
    )?;
    for pair in &options.inputs {
        let (name, value) = pair
            .split_once('=')
            .ok_or_else(|| format!("--input takes PARAM=GENERATOR, not '{pair}'"))?;
        let index = param_index(kernel, name)?;
        generators[index] = generator(value);
    }
    let fill_started = Instant::now();
    let mut inputs = Vec::new();
    for rank in 0..options.ranks {
        let mut row = Vec::new();
        for (param, generator) in kernel.params.iter().zip(&generators) {
            row.push(fill(generator, param, rank)?);
        }
        inputs.push(row);
    }

    let fill_time = fill_started.elapsed();
    if let Some(seeds) = options.explore {
        return explore_kernel(options, seeds, &program, kernel, &inputs, &text);
    }
    // A single run without --check gets the inputs handed over, not copied
    // (the buffers of a large run are the process's memory).
    let single = options.iters <= 1 && options.warmup == 0;
    let handed: Vec<Vec<std::cell::RefCell<Vec<u8>>>> = if single && !options.check {
        std::mem::take(&mut inputs)
            .into_iter()
            .map(|row| row.into_iter().map(std::cell::RefCell::new).collect())
            .collect()
    } else {
        Vec::new()
    };
    let started = Instant::now();
    // Only runs longer than a second say that they are running.
    let (finished_tx, finished_rx) = std::sync::mpsc::channel::<()>();
    let label = format!(
        "@{} on {}",
        kernel.name,
        report::count(options.ranks, "rank")
    );
    let progress = std::thread::spawn(move || {
        if finished_rx.recv_timeout(Duration::from_secs(1)).is_err() {
            eprintln!("pld-run: running {label}...");
        }
    });
    // The kernel is compiled once; every run gets fresh buffers. A run
    // that fails stops the series and is the one reported.
    let iters = options.iters.max(1);
    let mut timed = Duration::ZERO;
    let mut runs = 0;
    let mut finished;
    loop {
        let run_started = Instant::now();
        finished = program.run_traced(
            &kernel.name,
            options.ranks,
            options.deadline,
            options.trace.is_some(),
            |rank, param| match handed.get(rank) {
                Some(row) => std::mem::take(&mut *row[param].borrow_mut()),
                None => inputs[rank][param].clone(),
            },
        );
        runs += 1;
        if runs > options.warmup {
            timed += run_started.elapsed();
        }
        let failed = finished.as_ref().map_or(true, |f| {
            f.outcome.deadlock.is_some() || !f.outcome.errors.is_empty()
        });
        if failed || runs >= options.warmup + iters {
            break;
        }
    }
    let timed_runs = runs.saturating_sub(options.warmup).max(1) as u32;
    let elapsed = if runs > options.warmup {
        timed / timed_runs
    } else {
        started.elapsed()
    };
    let _ = finished_tx.send(());
    let _ = progress.join();
    let finished = finished?;

    if let (Some(path), Some(trace)) = (&options.trace, &finished.outcome.trace) {
        std::fs::write(path, trace).map_err(|e| format!("cannot write '{path}': {e}"))?;
    }
    let mut status = 0;
    // Errors first: they are often why the ranks got stuck.
    for error in &finished.outcome.errors {
        eprintln!("pld-run: error: {error}");
        status = 1;
    }
    if let Some(report) = &finished.outcome.deadlock {
        eprint!("pld-run: {report}");
        for line in waiting_lines(kernel, &finished, report) {
            eprintln!("{line}");
        }
        return Ok(DEADLOCK);
    }
    // Credits left in the collectives' signals.
    for &signal in &kernel.signals {
        let param = &kernel.params[signal];
        let offset = finished.offsets[signal].unwrap_or(0);
        for leak in finished.domain.leaks(offset, param.elements()) {
            // The cell named as the source names it: parameter and index.
            eprintln!(
                "{}",
                report::leak(
                    &shown_name(kernel, param),
                    &param.shape,
                    &leak,
                    &signal_users(kernel, param)
                )
            );
            status = 1;
        }
    }
    if let Some(dir) = &options.output_dir {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create '{dir}': {e}"))?;
        for (rank, buffers) in finished.buffers().iter().enumerate() {
            for (param, bytes) in kernel.params.iter().zip(buffers) {
                let path = format!("{dir}/{}.rank{rank}.npy", param.name);
                std::fs::write(&path, npy::encode(param.dtype, &param.shape, bytes))
                    .map_err(|e| format!("cannot write '{path}': {e}"))?;
            }
        }
    }
    let series = if runs > 1 {
        format!(
            " (the mean of {timed_runs} runs after {} warm-up runs)",
            options.warmup.min(runs)
        )
    } else {
        String::new()
    };
    println!(
        "@{} on {}: finished in {:.1?} (kernels {:.1?}){series}",
        kernel.name,
        report::count(options.ranks, "rank"),
        elapsed,
        finished.outcome.kernel_time
    );
    let only_barriers =
        !kernel.collectives.is_empty() && kernel.collectives.iter().all(|c| c.op == Barrier::NAME);
    if options.check && only_barriers {
        // Nothing numeric to compare; the run itself was checked.
        println!(
            "  --check: {} has no numeric result to compare; every rank got through it{}",
            Barrier::NAME,
            if status == 0 {
                " and no credit is left"
            } else {
                ""
            }
        );
    }
    let mut wrong = None;
    let check_started = Instant::now();
    if options.check && !only_barriers {
        let checks = golden::check(kernel, &inputs, &finished.buffers())?;
        let shape = kernel.collectives[0]
            .target
            .map(|t| kernel.params[t].shape.clone())
            .unwrap_or_default();
        for check in &checks {
            println!(
                "  rank {}: {} (worst error {:.3e} at element {})",
                check.rank,
                if check.ok { "ok" } else { "WRONG" },
                check.worst,
                check.at
            );
            if !check.ok {
                status = 1;
                println!("    {}", report::wrong_elements(check, &shape));
            }
        }
        wrong = Some(checks.iter().map(|c| c.wrong).sum::<usize>());
        // The golden next to the result, in the target's dtype.
        if let (Some(dir), Some(target)) = (&options.output_dir, kernel.collectives[0].target) {
            let param = &kernel.params[target];
            for check in &checks {
                let bytes = param.dtype.encode_all(check.expected.iter().copied());
                let path = format!("{dir}/{}.rank{}.golden.npy", param.name, check.rank);
                std::fs::write(&path, npy::encode(param.dtype, &param.shape, &bytes))
                    .map_err(|e| format!("cannot write '{path}': {e}"))?;
            }
        }
    }
    let check_time = check_started.elapsed();
    if options.stats {
        println!("  rank  notifies  waits  remote bytes read  remote bytes written");
        for (rank, c) in counter_rows(&finished.outcome.counters, options.per_rank) {
            println!(
                "  {rank:>4}  {:>8}  {:>5}  {:>17}  {:>20}",
                c.notifies, c.waits, c.remote_bytes_read, c.remote_bytes_written
            );
        }
        let phases = [
            ("lower", program.lower_time),
            ("compile", program.compile_time),
            ("fill", fill_time),
            ("run", elapsed),
            ("check", check_time),
        ];
        println!("{}", report::phases(&phases, timed_runs > 1));
    }
    if let [collective] = kernel.collectives.as_slice() {
        print!(
            "{}",
            summary(kernel, collective, options.ranks, elapsed, wrong)
        );
    }
    Ok(status)
}
