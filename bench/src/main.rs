//! `pld-bench`: benchmarks for the pld tools.
//!
//! Each benchmark is a module with a `run(Config) -> Result` function,
//! registered in [`BENCHMARKS`]. Every benchmark reports ratios against a
//! baseline measured in the same run; see `harness` and `bench/README.md`.

mod algorithms;
mod allreduce;
mod anchors;
mod calibrate;
mod cold_start;
mod compile_scaling;
mod explore;
mod fill_check;
mod harness;
mod interrupt;
mod plugin;
mod scaling;
mod schedule_runs;
mod shard_mpi;

use std::io::Write as _;
use std::process::ExitCode;

use harness::{Config, Result};

/// A registered benchmark.
struct Benchmark {
    /// Subcommand name.
    name: &'static str,
    /// One-line description, shown by `pld-bench list`.
    description: &'static str,
    /// The options it reads, as its header shows them.
    reads: &'static [Setting],
    run: fn(Config) -> Result,
}

/// An option a benchmark reads.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Setting {
    /// `--runs`: every one (`None`), or the best of at most this many.
    Runs(Option<usize>),
    Warmup,
    Iters,
    Quick,
    Transport,
}

impl Setting {
    /// The option's flag.
    fn flag(self) -> &'static str {
        match self {
            Setting::Runs(_) => "--runs",
            Setting::Warmup => "--warmup",
            Setting::Iters => "--iters",
            Setting::Quick => "--quick",
            Setting::Transport => "--transport",
        }
    }

    /// What the option makes the benchmark do, for its header (nothing for
    /// `--quick` when not given).
    fn describe(self, config: &Config) -> Option<String> {
        let runs = harness::runs;
        match self {
            Setting::Runs(None) => Some(runs(config.runs)),
            Setting::Runs(Some(most)) => Some(format!("best of {}", runs(config.runs.min(most)))),
            Setting::Warmup => Some(format!("{} warm-up", config.warmup)),
            Setting::Iters => Some(match config.iters {
                1 => "1 iteration per point".to_string(),
                n => format!("{n} iterations per point"),
            }),
            Setting::Quick => config
                .quick
                .then(|| "the quick sweep: 4 KiB, 256 KiB and 16 MiB only".to_string()),
            Setting::Transport => Some(format!("--transport {}", config.transport)),
        }
    }
}

/// Every benchmark, in the order `pld-bench all` runs them.
const BENCHMARKS: &[Benchmark] = &[
    Benchmark {
        name: "cold-start",
        description: "pld-opt start-up on a small file vs. mlir-opt --irdl-file on the same file",
        reads: &[Setting::Runs(None), Setting::Warmup],
        run: cold_start::run,
    },
    Benchmark {
        name: "allreduce",
        description:
            "64 MiB FP32 allreduce, ring, mesh and two-shot, P = 2, 4, 8 on the simulator vs. OpenMPI, the ideal in-process ring and one-shot, and the same schedules written in C (tiled)",
        reads: &[Setting::Runs(Some(5)), Setting::Transport],
        run: allreduce::run,
    },
    Benchmark {
        name: "scaling",
        description:
            "the ring allreduce, 32 MiB FP32 per rank, on P = 2, 16, 32, 64 simulated ranks: busbw x P / cores relative to P = 2 vs. the ideal in-process ring's and the tiled ring's (its schedule in C)",
        reads: &[Setting::Runs(Some(3))],
        run: scaling::run,
    },
    Benchmark {
        name: "algorithms",
        description:
            "allreduce mesh, two_shot and ring, 4 KiB to 256 MiB, P = 2, 4, 8 on the simulator: measured times, the cost model's predictions and the auto choice",
        reads: &[Setting::Iters, Setting::Warmup, Setting::Quick],
        run: algorithms::run,
    },
    Benchmark {
        name: "calibrate",
        description:
            "measure the simulator and fit the cost model's [sim] table (docs/algorithms.md), written to $PLD_COST_MODEL (default pld-cost-model.toml)",
        reads: &[Setting::Iters],
        run: calibrate::run,
    },
    Benchmark {
        name: "compile-scaling",
        description:
            "pld-to-pto on 100 to 3000 InCore allreduce kernels vs. mlir-opt parsing and printing the output",
        reads: &[Setting::Runs(Some(3))],
        run: compile_scaling::run,
    },
    Benchmark {
        name: "plugin",
        description:
            "pld-to-pto through stock mlir-opt with libPldPlugin.so vs. pld-opt, on 100 and 1000 InCore allreduce kernels",
        reads: &[Setting::Runs(Some(3))],
        run: plugin::run,
    },
    Benchmark {
        name: "explore",
        description:
            "one protocol-explorer schedule vs. a plain run of the same kernel (composite and builtin allreduce, P = 2, 4, 8)",
        reads: &[Setting::Runs(Some(5))],
        run: explore::run,
    },
    Benchmark {
        name: "fill-check",
        description:
            "pld-run filling and checking a 64 MiB FP32 allreduce on 4 and 8 ranks vs. writing and comparing the same bytes",
        reads: &[Setting::Runs(Some(5))],
        run: fill_check::run,
    },
    Benchmark {
        name: "shard-mpi",
        description:
            "one shard all_reduce program through convert-shard-to-mpi (MPICH, 8 processes) and convert-shard-to-pld (pld-run, 8 devices): same bytes, times side by side",
        reads: &[Setting::Runs(Some(5))],
        run: shard_mpi::run,
    },
];

const USAGE: &str = "\
Usage: pld-bench <COMMAND> [OPTIONS]

Commands:
  list         List the benchmarks
  all          Run every benchmark (but calibrate)
  <BENCHMARK>  Run one benchmark (see `list`)

Options:
  --runs <N>    Timed runs per measurement [default: 20]
  --warmup <N>  Untimed warm-up runs per measurement [default: 3]
  --transport <threads|mpi|mpi-rma>
                How allreduce's pld-run reaches its ranks (mpi, mpi-rma: one
                MPI process per rank under mpirun) [default: threads]
  --iters <N>   Timed runs inside one pld-run process per point (algorithms,
                calibrate; fewer for large calls) [default: 200]
  --quick       A smaller sweep where a benchmark has one (algorithms: 4 KiB, 256 KiB, 16 MiB)
  -h, --help    Print help
  -V, --version Print the version

Environment:
  PLD_BIN_DIR   Directory of the pld binaries (default: target/release, then target/debug)
  PLD_COST_MODEL  The cost model algorithms reads and calibrate writes
  LLVM_BIN_DIR  Directory of the LLVM tools (default: /usr/lib/llvm-22/bin)";

/// What the command line asks for.
enum Action {
    Help,
    Version,
    List,
    /// The benchmarks, and the flags the command line gave.
    Run(Vec<&'static Benchmark>, Vec<&'static str>),
}

fn find(name: &str) -> Option<&'static Benchmark> {
    BENCHMARKS.iter().find(|b| b.name == name)
}

/// Parses the arguments after the program name. Options may come before or
/// after the command, as `--runs 5` or `--runs=5`.
fn parse_args(args: impl IntoIterator<Item = String>) -> Result<(Action, Config)> {
    let mut config = Config::default();
    let mut command = None;
    let mut given = Vec::new();
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let (flag, inline_value) = match arg.split_once('=') {
            Some((flag, value)) if flag.starts_with("--") => (flag, Some(value.to_owned())),
            _ => (arg.as_str(), None),
        };
        match flag {
            "-h" | "--help" => return Ok((Action::Help, config)),
            "-V" | "--version" => return Ok((Action::Version, config)),
            "--quick" => {
                config.quick = true;
                given.push("--quick");
            }
            "--runs" | "--warmup" | "--iters" => {
                let value = inline_value
                    .or_else(|| args.next())
                    .ok_or_else(|| format!("{flag} needs a value"))?;
                let n = count(flag, &value)?;
                let (flag, setting) = match flag {
                    "--runs" => ("--runs", &mut config.runs),
                    "--iters" => ("--iters", &mut config.iters),
                    _ => ("--warmup", &mut config.warmup),
                };
                *setting = n;
                given.push(flag);
            }
            "--transport" => {
                let value = inline_value
                    .or_else(|| args.next())
                    .ok_or_else(|| format!("{flag} needs a value"))?;
                given.push("--transport");
                config.transport = ["threads", "mpi", "mpi-rma"]
                    .into_iter()
                    .find(|t| *t == value)
                    .ok_or_else(|| {
                        format!("--transport: expected threads, mpi or mpi-rma, got `{value}`")
                    })?;
            }
            _ if flag.starts_with('-') => return Err(format!("unknown option `{arg}`")),
            _ if command.is_some() => return Err(format!("unexpected argument `{arg}`")),
            _ => command = Some(arg),
        }
    }
    let action = match command.as_deref() {
        None => return Err("missing command".into()),
        Some("help") => Action::Help,
        Some("list") => Action::List,
        // `calibrate` writes a file: it runs only when asked for.
        Some("all") => Action::Run(
            BENCHMARKS
                .iter()
                .filter(|b| b.name != "calibrate")
                .collect(),
            given,
        ),
        Some(name) => Action::Run(
            vec![find(name).ok_or_else(|| {
                format!("unknown benchmark `{name}` (run `pld-bench list` to see them)")
            })?],
            given,
        ),
    };
    Ok((action, config))
}

/// The most runs, warm-up runs or iterations one measurement takes: more
/// would never finish (and a vector of that many times is refused by the
/// allocator).
const MAX_COUNT: usize = 1_000_000;

/// The value of `--runs`, `--warmup` or `--iters`: a whole number up to
/// [`MAX_COUNT`], at least 1 but for `--warmup`.
fn count(flag: &str, value: &str) -> Result<usize> {
    let least = usize::from(flag != "--warmup");
    let n: u128 = value
        .parse()
        .map_err(|_| format!("{flag}: expected a whole number, got `{value}`"))?;
    match usize::try_from(n) {
        Ok(n) if (least..=MAX_COUNT).contains(&n) => Ok(n),
        _ => Err(format!(
            "{flag} must be {least} to {MAX_COUNT}, not {value}"
        )),
    }
}

/// Makes a closed standard output (`pld-bench list | head -1`) end the
/// process quietly with SIGPIPE's status (141), as it ends a C tool,
/// instead of a panic in `println!`.
fn quiet_on_closed_stdout() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let message = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("");
        if let Some(reason) = message.strip_prefix("failed printing to stdout: ") {
            if reason.contains("Broken pipe") {
                std::process::exit(141);
            }
            // A full disk, /dev/full: an error as the other tools say it.
            let _ = writeln!(
                std::io::stderr(),
                "pld-bench: error: cannot write the standard output: {reason}"
            );
            std::process::exit(1);
        }
        if message.starts_with("failed printing to stderr") {
            // Nothing is left to say it on.
            std::process::exit(1);
        }
        previous(info);
    }));
}

fn list() {
    let width = BENCHMARKS.iter().map(|b| b.name.len()).max().unwrap_or(0);
    for benchmark in BENCHMARKS {
        println!("{:<width$}  {}", benchmark.name, benchmark.description);
    }
}

/// Says which flags of the command line none of `benchmarks` reads (the
/// run goes on: they change nothing).
#[allow(clippy::disallowed_macros)]
fn unread(benchmarks: &[&Benchmark], given: &[&str]) {
    for flag in given {
        if !benchmarks
            .iter()
            .any(|b| b.reads.iter().any(|s| s.flag() == *flag))
        {
            let readers: Vec<&str> = BENCHMARKS
                .iter()
                .filter(|b| b.reads.iter().any(|s| s.flag() == *flag))
                .map(|b| b.name)
                .collect();
            eprintln!(
                "pld-bench: note: {flag} changes nothing here; it is read by {}",
                readers.join(", ")
            );
        }
    }
}

/// Runs `benchmarks` in order, carrying on past failures; true if all passed.
// pld-bench runs as one process: its stderr lines cannot interleave.
#[allow(clippy::disallowed_macros)]
fn run_all(benchmarks: &[&Benchmark], config: Config) -> bool {
    let mut failed = Vec::new();
    for (i, benchmark) in benchmarks.iter().enumerate() {
        if i > 0 {
            println!();
        }
        let settings: Vec<String> = benchmark
            .reads
            .iter()
            .filter_map(|s| s.describe(&config))
            .collect();
        println!(
            "== {} ({}): {}",
            benchmark.name,
            settings.join(", "),
            benchmark.description
        );
        if let Err(message) = (benchmark.run)(config) {
            // A child stopped by Ctrl-C is no failure to report.
            interrupt::stopping();
            eprintln!("pld-bench: {}: {message}", benchmark.name);
            failed.push(benchmark.name);
        }
    }
    if benchmarks.len() > 1 && !failed.is_empty() {
        eprintln!("pld-bench: failed: {}", failed.join(", "));
    }
    failed.is_empty()
}

#[allow(clippy::disallowed_macros)]
fn main() -> ExitCode {
    quiet_on_closed_stdout();
    let mut args = Vec::new();
    for arg in std::env::args_os().skip(1) {
        match arg.into_string() {
            Ok(arg) => args.push(arg),
            Err(raw) => {
                eprintln!(
                    "pld-bench: argument '{}' is not UTF-8 text\n\n{USAGE}",
                    raw.to_string_lossy()
                );
                return ExitCode::from(2);
            }
        }
    }
    let (action, config) = match parse_args(args) {
        Ok(parsed) => parsed,
        Err(message) => {
            eprintln!("pld-bench: {message}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    interrupt::install();
    match action {
        Action::Help => println!("{USAGE}"),
        // As the other tools say it.
        Action::Version => println!("pld-bench {} (MLIR/LLVM 22)", env!("CARGO_PKG_VERSION")),
        Action::List => list(),
        Action::Run(benchmarks, given) => {
            unread(&benchmarks, &given);
            if !run_all(&benchmarks, config) {
                return ExitCode::FAILURE;
            }
        }
    }
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<(Action, Config)> {
        parse_args(args.iter().map(|s| s.to_string()))
    }

    /// The command as a string: "help", "list" or the benchmark names.
    fn describe(action: &Action) -> String {
        match action {
            Action::Help => "help".into(),
            Action::Version => "version".into(),
            Action::List => "list".into(),
            Action::Run(benchmarks, _) => {
                let names: Vec<_> = benchmarks.iter().map(|b| b.name).collect();
                format!("run {}", names.join(","))
            }
        }
    }

    #[test]
    fn benchmark_names_are_unique_and_not_reserved() {
        for (i, benchmark) in BENCHMARKS.iter().enumerate() {
            assert!(!["list", "all", "help"].contains(&benchmark.name));
            assert!(!benchmark.name.starts_with('-'));
            assert!(BENCHMARKS[..i].iter().all(|b| b.name != benchmark.name));
        }
    }

    #[test]
    fn parses_commands_and_options() {
        assert_eq!(describe(&parse(&["help"]).unwrap().0), "help");
        assert_eq!(describe(&parse(&["-h", "all"]).unwrap().0), "help");
        assert_eq!(describe(&parse(&["--version"]).unwrap().0), "version");
        assert_eq!(describe(&parse(&["-V", "all"]).unwrap().0), "version");
        assert_eq!(describe(&parse(&["list"]).unwrap().0), "list");
        let (action, config) = parse(&["--runs", "5", "cold-start", "--warmup=1"]).unwrap();
        assert_eq!(describe(&action), "run cold-start");
        assert_eq!(
            config,
            Config {
                runs: 5,
                warmup: 1,
                transport: "threads",
                quick: false,
                iters: 200
            }
        );
        let (_, config) = parse(&["allreduce", "--transport=mpi-rma"]).unwrap();
        assert_eq!(config.transport, "mpi-rma");
        let (action, config) = parse(&["all"]).unwrap();
        // Every benchmark but calibrate, which writes a file.
        let all: Vec<_> = BENCHMARKS
            .iter()
            .map(|b| b.name)
            .filter(|n| *n != "calibrate")
            .collect();
        assert_eq!(describe(&action), format!("run {}", all.join(",")));
        assert_eq!(config, Config::default());
        let (action, config) = parse(&["algorithms", "--quick", "--iters=7"]).unwrap();
        assert_eq!(describe(&action), "run algorithms");
        assert!(config.quick);
        assert_eq!(config.iters, 7);
        assert!(parse(&["algorithms", "--iters", "0"]).is_err());
    }

    #[test]
    fn rejects_bad_arguments() {
        assert!(parse(&[]).is_err());
        assert!(parse(&["--runs", "3"]).is_err());
        assert!(parse(&["nope"]).is_err());
        assert!(parse(&["all", "list"]).is_err());
        assert!(parse(&["all", "--runs"]).is_err());
        assert!(parse(&["all", "--runs", "0"]).is_err());
        assert!(parse(&["all", "--runs=x"]).is_err());
        assert!(parse(&["all", "--runs", "4294967296"]).is_err());
        assert!(parse(&["all", "--iters", "99999999999999999999999"]).is_err());
        assert!(parse(&["all", "--warmup", "0"]).is_ok());
        assert!(parse(&["all", "--warmup", "1000001"]).is_err());
        assert!(parse(&["all", "--frobnicate"]).is_err());
        assert!(parse(&["allreduce", "--transport", "tcp"]).is_err());
    }
}
