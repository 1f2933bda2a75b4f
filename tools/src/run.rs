//! The `pld-run` driver: load a program, run one kernel on N simulated
//! ranks, check it, report.

use crate::files::read_named_input;
use pld_dialect::ops::collective::{
    composite_signal_shape, AllGather, AllReduce, AllToAll, AllToAllV, ReduceScatter,
};
use pld_sim::golden;
use pld_sim::npy;
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
    pub deadline: Duration,
    pub output_dir: Option<String>,
    /// Where to write the Chrome-trace timeline.
    pub trace: Option<String>,
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

/// The ramp input: halves of small integers, distinct per rank and index.
pub fn ramp(rank: usize, i: usize) -> f64 {
    ((i * 7 + rank * 13) % 11) as f64 - 5.0 + rank as f64 * 0.5
}

pub(crate) fn fill(generator: &Generator, param: &Param, rank: usize) -> Result<Vec<u8>, String> {
    let values = |f: &dyn Fn(usize) -> f64| -> Vec<u8> {
        (0..param.elements())
            .flat_map(|i| param.dtype.encode(f(i)))
            .collect()
    };
    Ok(match generator {
        Generator::Zeros => vec![0; param.bytes()],
        Generator::Ones => values(&|_| 1.0),
        Generator::Ramp => values(&|i| ramp(rank, i)),
        Generator::Rank => values(&|_| rank as f64),
        Generator::File(pattern) => {
            let path = pattern.replace("{rank}", &rank.to_string());
            let bytes = std::fs::read(&path).map_err(|e| format!("cannot read '{path}': {e}"))?;
            npy::decode(&bytes, param.dtype, &param.shape).map_err(|e| format!("'{path}': {e}"))?
        }
    })
}

/// The rank count must fit every shape the kernel's collectives imply, or
/// the credits and the data land outside their buffers: each signal's shape
/// for its schedule, a broadcast's root, the per-rank rows of allgather,
/// all_to_all and reduce_scatter targets and the slots of all_to_all_v.
fn check_shapes(kernel: &pld_sim::program::KernelInfo, ranks: usize) -> Result<(), String> {
    let param = |i: Option<usize>| i.and_then(|i| kernel.params.get(i));
    for collective in &kernel.collectives {
        let op = collective.op.as_str();
        if let Some(signal) = param(collective.signal) {
            let ring = op == AllReduce::NAME && collective.mode.as_deref() == Some("ring");
            let [rows, cols] = composite_signal_shape(ring, ranks as i64);
            let shape = &signal.shape;
            // A ring's steps are the signal's rows: it must be shaped for
            // exactly this many ranks.
            let fits = if ring {
                shape.len() == 2 && shape[0] as i64 == rows && shape[1] as i64 == cols
            } else {
                shape.len() == 2 && shape[0] as i64 >= rows && shape[1] as i64 >= cols
            };
            if !fits {
                return Err(format!(
                    "the signal of {op} ({}) is {shape:?}; on {ranks} ranks it needs {} \
                     [{rows}, {cols}]",
                    signal.name,
                    if ring { "exactly" } else { "at least" }
                ));
            }
        }
        if let Some(root) = collective.root.filter(|r| *r < 0 || *r as usize >= ranks) {
            return Err(format!(
                "{op} has root = {root}, which is not one of the {ranks} ranks"
            ));
        }
        let Some(target) = param(collective.target) else {
            continue;
        };
        let rows = target.shape.first().copied().unwrap_or(0);
        let per_rank = match op {
            AllGather::NAME | AllToAll::NAME | ReduceScatter::NAME => rows == ranks,
            AllToAllV::NAME => ranks > 0 && rows % ranks == 0 && rows >= ranks,
            _ => true,
        };
        if !per_rank {
            let needs = if op == AllToAllV::NAME {
                format!("a multiple of {ranks} rows (NR * MAX_RECV with NR = {ranks})")
            } else {
                format!("{ranks} rows, one per rank")
            };
            return Err(format!(
                "the target of {op} ({}) is {:?}; on {ranks} ranks it needs {needs}",
                target.name, target.shape
            ));
        }
    }
    Ok(())
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
    if !(1..=64).contains(&options.ranks) {
        return Err(format!("--ranks must be 1 to 64, not {}", options.ranks));
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
        Some(name) => program
            .kernel(name)
            .ok_or_else(|| format!("{buffer_name} has no kernel @{name}"))?,
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
    check_shapes(kernel, options.ranks)?;
    for pair in &options.inputs {
        let (name, value) = pair
            .split_once('=')
            .ok_or_else(|| format!("--input takes PARAM=GENERATOR, not '{pair}'"))?;
        let index = kernel
            .params
            .iter()
            .position(|p| p.name == name || p.name == format!("arg{name}"))
            .ok_or_else(|| format!("@{} has no parameter '{name}'", kernel.name))?;
        generators[index] = generator(value);
    }
    let mut inputs = Vec::new();
    for rank in 0..options.ranks {
        let mut row = Vec::new();
        for (param, generator) in kernel.params.iter().zip(&generators) {
            row.push(fill(generator, param, rank)?);
        }
        inputs.push(row);
    }

    let handed: Vec<Vec<std::cell::RefCell<Vec<u8>>>> = match options.check {
        true => Vec::new(),
        false => std::mem::take(&mut inputs)
            .into_iter()
            .map(|row| row.into_iter().map(std::cell::RefCell::new).collect())
            .collect(),
    };
    let started = Instant::now();
    // Only runs longer than a second say that they are running.
    let (finished_tx, finished_rx) = std::sync::mpsc::channel::<()>();
    let label = format!("@{} on {} ranks", kernel.name, options.ranks);
    let progress = std::thread::spawn(move || {
        if finished_rx.recv_timeout(Duration::from_secs(1)).is_err() {
            eprintln!("pld-run: running {label}...");
        }
    });
    let finished = program.run_traced(
        &kernel.name,
        options.ranks,
        options.deadline,
        options.trace.is_some(),
        // Without --check the inputs are handed over, not copied.
        |rank, param| match options.check {
            true => inputs[rank][param].clone(),
            false => std::mem::take(&mut handed[rank][param].borrow_mut()),
        },
    );
    let elapsed = started.elapsed();
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
        return Ok(DEADLOCK);
    }
    // Credits left in the collectives' signals.
    for &signal in &kernel.signals {
        let param = &kernel.params[signal];
        let offset = finished.offsets[signal].unwrap_or(0);
        for leak in finished.domain.leaks(offset, param.elements()) {
            eprintln!("pld-run: credit leak in {}: {leak}", param.name);
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
    println!(
        "@{} on {} ranks: finished in {:.1?} (kernels {:.1?})",
        kernel.name, options.ranks, elapsed, finished.outcome.kernel_time
    );
    if options.check {
        let checks = golden::check(kernel, &inputs, &finished.buffers())?;
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
            }
        }
    }
    if options.stats {
        println!("  rank  notifies  waits  remote bytes read  remote bytes written");
        for (rank, c) in finished.outcome.counters.iter().enumerate() {
            println!(
                "  {rank:>4}  {:>8}  {:>5}  {:>17}  {:>20}",
                c.notifies, c.waits, c.remote_bytes_read, c.remote_bytes_written
            );
        }
    }
    Ok(status)
}
