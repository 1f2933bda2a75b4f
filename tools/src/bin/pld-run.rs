//! `pld-run`: run a pld kernel on N simulated ranks on the CPU.

use clap::Parser;
use pld_lowering::passes::select_allreduce_modes::{self, Defaults};
use pld_sim::compiler::cache::{self, Choice};
use pld_sim::runtime::transport::Transport;
use pld_tools::options::{Options, Seeds};
use pld_tools::run::run;
use std::time::Duration;

#[derive(Parser)]
#[command(
    name = "pld-run",
    version = concat!(env!("CARGO_PKG_VERSION"), " (MLIR/LLVM 22)"),
    about = "Run a pld program (its HOST orchestrator) or one InCore kernel on N simulated ranks",
    after_help = "A kernel's parameters are named arg0, arg1, ... in source order, or by their \
                  names in the source (%data or data); a program's window buffers by their \
                  allocation's name; a shard program's arguments arg0, arg1, ... and results \
                  result0, result1 and so on. Generators: zeros, ones, \
                  ramp (depends on rank and index), rank, or a .npy file per rank ('{rank}' in \
                  the path is replaced). The kernel's signals start at zero, other tensors as a \
                  ramp.\n\nExit status: 0 when everything checked holds, 1 on an \
                  error, a wrong result or a credit leak, 3 on a deadlock, when the run \
                  outlasts --time-limit or when an explored schedule makes no device call for \
                  --deadline, 130 after Ctrl-C."
)]
struct Cli {
    /// Input file (a pld module, text or bytecode, or one already converted
    /// by pld-to-pto), or - for standard input.
    #[arg(default_value = "-")]
    input: String,
    /// The kernel to run, with or without its @ (a name that is no bare
    /// identifier also quoted, as MLIR writes it: '@"sum four"'; default:
    /// the only one;
    /// ignored when the program has a HOST orchestrator, which runs whole,
    /// unless this is given; not with --entry).
    #[arg(long, conflicts_with = "entry")]
    kernel: Option<String>,
    /// The HOST orchestrator to run, with or without its @, named as for
    /// --kernel (default: the only one).
    #[arg(long)]
    entry: Option<String>,
    /// Number of simulated ranks, 1 to 64 [default: 2; a shard program's
    /// grid's device count].
    #[arg(long, allow_negative_numbers = true, value_parser = rank_count)]
    ranks: Option<usize>,
    /// How a parameter is filled: PARAM=GENERATOR (repeatable).
    #[arg(long = "input", value_name = "PARAM=GENERATOR")]
    inputs: Vec<String>,
    /// Compare the collective's result with a golden computed in Rust.
    #[arg(long)]
    check: bool,
    /// Print the notifies, waits and remote traffic of all ranks together
    /// (and, for a program, the L3 -> L2 round trips), and the phase times.
    #[arg(long)]
    stats: bool,
    /// With --stats (which it implies): one row of counters per rank.
    #[arg(long = "per-rank")]
    per_rank: bool,
    /// Seconds every live rank may be blocked before the run is a deadlock.
    #[arg(long, default_value_t = 2.0, allow_negative_numbers = true)]
    deadline: f64,
    /// Seconds the whole run may take; a run still going then (a rank that
    /// keeps looping, which no deadlock detection catches) ends with
    /// status 3.
    #[arg(
        long = "time-limit",
        default_value_t = 600.0,
        value_name = "SECONDS",
        allow_negative_numbers = true
    )]
    time_limit: f64,
    /// Timed runs of the kernel or whole program (compiled once, fresh
    /// buffers every run); the reported time is their mean, the results
    /// those of the last.
    #[arg(long, default_value_t = 1, value_name = "N", allow_negative_numbers = true,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    iters: usize,
    /// Untimed runs before the timed ones.
    #[arg(
        long,
        default_value_t = 0,
        value_name = "N",
        allow_negative_numbers = true
    )]
    warmup: usize,
    /// Write every parameter of every rank as DIR/<param>.rank<r>.npy.
    #[arg(long, value_name = "DIR",
          value_parser = clap::builder::NonEmptyStringValueParser::new())]
    output_dir: Option<String>,
    /// Write a timeline of every rank (Chrome trace JSON, for Perfetto).
    #[arg(long, value_name = "FILE",
          value_parser = clap::builder::NonEmptyStringValueParser::new())]
    trace: Option<String>,
    /// Run K schedules of the protocol explorer: one simulated thread at a
    /// time in a seeded order, checking happens-before on window memory
    /// (races, missing fences, Set/AtomicAdd mixed, exact deadlocks).
    #[arg(long, value_name = "K", conflicts_with = "replay", allow_negative_numbers = true,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    explore: Option<usize>,
    /// The first schedule's seed under --explore (schedule i has seed S+i).
    #[arg(long, value_name = "S", allow_negative_numbers = true)]
    seed: Option<u64>,
    /// Rerun exactly the schedule of one seed (as --explore printed it).
    #[arg(long, value_name = "SEED", allow_negative_numbers = true)]
    replay: Option<u64>,
    /// Under --explore or --replay: write a line per schedule to FILE (its
    /// seed, steps, a digest of its scheduling decisions and its findings),
    /// to compare the schedules of two builds.
    #[arg(long = "schedule-log", value_name = "FILE",
          value_parser = clap::builder::NonEmptyStringValueParser::new())]
    schedule_log: Option<String>,
    /// Lower and compile even when the compile cache holds the result
    /// (and store nothing there).
    #[arg(long = "no-cache", conflicts_with = "cache_dir")]
    no_cache: bool,
    /// The compile cache's directory (default: $PLD_CACHE_DIR, else
    /// $XDG_CACHE_HOME/pld, else ~/.cache/pld); PLD_NO_CACHE=1 turns the
    /// cache off even so.
    #[arg(long = "cache-dir", value_name = "DIR",
          value_parser = clap::builder::NonEmptyStringValueParser::new())]
    cache_dir: Option<String>,
    /// How the ranks reach each other: threads of this process, or one MPI
    /// process each (start with mpirun -np N ... --ranks N): mpi maps a
    /// node's windows into each of its processes and reaches other nodes
    /// through MPI's one-sided calls, mpi-rma moves every peer's bytes and
    /// signals through MPI's one-sided calls, as across machines.
    #[arg(long, default_value = "threads", value_parser = ["threads", "mpi", "mpi-rma"])]
    transport: String,
    /// The cost model `mode = "auto"` allreduces are chosen by (a file
    /// `pld-bench calibrate` writes; docs/algorithms.md), as pld-opt's
    /// option of that name; default: the simulator's built-in figures.
    #[arg(long = "pld-cost-model", value_name = "FILE")]
    cost_model: Option<String>,
    /// The table of the cost model to use (default `sim`).
    #[arg(long = "pld-cost-target", value_name = "NAME")]
    cost_target: Option<String>,
}

/// The options that do not go with `--explore` / `--replay` (schedules are
/// not timed, traced or saved), and `--seed` without `--explore`.
fn explore_options(options: &Options, seed: bool) -> Result<(), String> {
    let Some(seeds) = options.explore else {
        if options.schedule_log.is_some() {
            return Err("--schedule-log logs the schedules of --explore or --replay".into());
        }
        return match seed {
            true => Err("--seed sets the first schedule of --explore; give --explore K".into()),
            false => Ok(()),
        };
    };
    if seed && matches!(seeds, Seeds::Replay(_)) {
        return Err("--replay names its schedule; --seed is for --explore".into());
    }
    if options.transport.is_mpi() {
        return Err(format!(
            "--explore and --replay schedule every rank's threads in one address space; they do \
             not run under --transport {} (run them without --transport)",
            options.transport.name()
        ));
    }
    if let Seeds::Explore { first, count } = seeds {
        let last = u64::try_from(count - 1)
            .ok()
            .and_then(|n| first.checked_add(n));
        if last.is_none() {
            return Err(format!(
                "--seed {first} with --explore {count} runs past the last seed, {}",
                u64::MAX
            ));
        }
    }
    let mut unused = Vec::new();
    if options.iters > 1 || options.warmup > 0 {
        unused.push("--iters/--warmup");
    }
    if options.trace.is_some() {
        unused.push("--trace");
    }
    // (A replay writes its one schedule's buffers.)
    if options.output_dir.is_some() && matches!(seeds, Seeds::Explore { .. }) {
        unused.push("--output-dir");
    }
    if options.stats {
        unused.push(if options.per_rank {
            "--per-rank"
        } else {
            "--stats"
        });
    }
    let mode = match seeds {
        Seeds::Explore { .. } => "--explore",
        Seeds::Replay(_) => "--replay",
    };
    let saved = match unused.contains(&"--output-dir") {
        true => "; --replay S --output-dir writes the buffers of schedule S",
        false => "",
    };
    match unused.is_empty() {
        true => Ok(()),
        false => Err(format!(
            "{} {} not apply to {mode} (schedules run one thread at a time: they are not \
             timed or traced{saved})",
            unused.join(", "),
            if unused.len() == 1 { "does" } else { "do" }
        )),
    }
}

/// Ends the process with `status` and an error about its command line,
/// said once under mpirun (by the launcher's process 0).
/// `--ranks`: a count the simulator runs (a malformed command line
/// otherwise, as `--iters 0` is).
fn rank_count(text: &str) -> Result<usize, String> {
    let most = pld_sim::MAX_RANKS;
    match text.parse::<i128>() {
        Ok(n) if (1..=most as i128).contains(&n) => Ok(n as usize),
        Ok(_) => Err(format!("ranks must be 1 to {most}")),
        Err(_) => Err(format!("not a number of ranks (1 to {most})")),
    }
}

fn refuse(message: &str, status: i32) -> ! {
    if !pld_tools::speaker::speaks_first() {
        pld_tools::mpi_run::exit_silently(status);
    }
    pld_ir::say!("pld-run: error: {message}");
    std::process::exit(status)
}

/// Ctrl-C from the first moment on (pld_tools::watch): the dynamic loader
/// calls the functions of `.preinit_array` once it has mapped and relocated
/// the libraries and before their constructors run (LLVM's and MLIR's take
/// some 80 ms), so a SIGINT during those (`kill -INT` of a job started in
/// the background, whose SIGINT starts ignored) is not lost. `main`
/// installs it again, in case a library's constructor changed it.
#[used]
#[link_section = ".preinit_array"]
static EARLY_CTRL_C: extern "C" fn() = early_ctrl_c;

extern "C" fn early_ctrl_c() {
    pld_sim::runtime::interrupt::install();
}

/// A positive number of seconds `option` took, else the refusal (status 2).
fn seconds(option: &str, value: f64) -> Duration {
    use pld_sim::runtime::duration;
    match duration::seconds(value) {
        Some(duration) => duration,
        None => refuse(
            &format!(
                "{option} takes a positive number of seconds ({}), not {value:?}",
                duration::MOST
            ),
            2,
        ),
    }
}

/// The command line as [`Options`]: every field of `Cli` taken apart (so
/// that an option cannot be added without deciding where it goes, and the
/// MPI agreement, which compares `Options`, sees it), the malformed ones
/// refused.
fn options(cli: Cli) -> Options {
    let Cli {
        input,
        kernel,
        entry,
        ranks,
        inputs,
        check,
        stats,
        per_rank,
        deadline,
        time_limit,
        iters,
        warmup,
        output_dir,
        trace,
        explore,
        seed,
        replay,
        schedule_log,
        no_cache,
        cache_dir,
        transport,
        cost_model,
        cost_target,
    } = cli;
    // A function named as the IR spells it, `@k` or `@"sum four"`, or as
    // `k`.
    let bare = |name: Option<String>| name.map(|n| pld_ir::print::symbol_name(&n));
    let options = Options {
        input,
        kernel: bare(kernel),
        entry: bare(entry),
        ranks: ranks.unwrap_or(2),
        ranks_given: ranks.is_some(),
        inputs,
        check,
        stats: stats || per_rank,
        per_rank,
        deadline: seconds("--deadline", deadline),
        time_limit: Duration::ZERO,
        output_dir,
        trace,
        iters,
        warmup,
        explore: match (explore, replay) {
            (_, Some(seed)) => Some(Seeds::Replay(seed)),
            (Some(count), None) => Some(Seeds::Explore {
                first: seed.unwrap_or(0),
                count,
            }),
            (None, None) => None,
        },
        schedule_log,
        transport: Transport::parse(&transport).unwrap_or_default(),
        cache: match (no_cache, cache_dir) {
            (true, _) => Choice::Off,
            (false, Some(dir)) => Choice::Dir(dir.into()),
            (false, None) => Choice::Default,
        },
        cost_model,
        cost_target,
    };
    if let Err(message) = explore_options(&options, seed.is_some()) {
        refuse(&message, pld_tools::options::USAGE);
    }
    // After the options above: their errors come first, as they did.
    Options {
        time_limit: seconds("--time-limit", time_limit),
        ..options
    }
}

pld_sim::tool_allocation!();

fn main() {
    pld_ir::diag::name_program("pld-run");
    pld_sim::runtime::interrupt::install();
    if !pld_sim::runtime::mpi::launched() {
        pld_sim::runtime::interrupt::install_terminate();
    }
    pld_tools::files::quiet_on_closed_stdout();
    pld_sim::runtime::oom::exit_on_out_of_memory("pld-run");
    let given = pld_tools::args::text("pld-run", 2);
    let parsed = Cli::try_parse_from(pld_tools::args::llvm_style(given.clone()));
    let shown = |e| pld_tools::args::as_given(pld_tools::args::with_full_usage::<Cli>(e), &given);
    let cli = match parsed.map_err(shown) {
        Ok(cli) => cli,
        // Under mpirun every process has the same command line: one says it.
        Err(e) if !pld_tools::speaker::speaks_first() => {
            pld_tools::mpi_run::exit_silently(e.exit_code())
        }
        Err(e) if !e.use_stderr() => e.exit(), // --help, --version
        Err(e) => {
            pld_tools::args::say_error("pld-run", &e);
            std::process::exit(e.exit_code())
        }
    };
    let options = options(cli);
    // A malformed --input is the command line's fault, said before the
    // module is read (a module's error came first: recheck27b M4).
    if let Some(bad) = options.inputs.iter().find(|pair| !pair.contains('=')) {
        refuse(&format!("--input takes PARAM=GENERATOR, not '{bad}'"), 2);
    }
    // Every yes-or-no variable, including those this run would not read.
    let model = Defaults {
        file: options.cost_model.clone(),
        target: options.cost_target.clone(),
        ..Defaults::default()
    };
    let configured = pld_sim::runtime::env::check_all()
        .and_then(|()| cache::configure(options.cache.clone()))
        .and_then(|()| select_allreduce_modes::set_defaults(model));
    if let Err(e) = configured {
        // One process of an MPI job: the others hear of it as MPI starts
        // (its environment or files may be its own).
        if options.transport.is_mpi() && pld_sim::runtime::mpi::launched() {
            std::process::exit(pld_tools::run::failed_before_run(&options, &e));
        }
        refuse(&e, 1);
    }
    // Ctrl-C, --time-limit and explored schedules without device calls
    // (the rank threads cannot be stopped from outside; ending the process
    // ends them).
    pld_tools::watch::start(options.time_limit, options.deadline);
    std::process::exit(run(&options));
}
