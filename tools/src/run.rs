//! The `pld-run` driver: read the input, then run a whole program from its
//! HOST orchestrator ([`crate::run_program`]) or one kernel
//! ([`crate::run_kernel`]).

use crate::files::read_named_input_text as read_named_input;
use crate::options::{Options, Refusal};
use pld_ir::loc::Position;
use pld_sim::compiler::Source;

/// Runs `pld-run`; returns the process exit status.
pub fn run(options: &Options) -> i32 {
    if let Some(message) = crate::mpi_run::threads_among_peers(options) {
        pld_ir::say!("pld-run: error: {message}");
        return 1;
    }
    if let Err(message) = crate::mpi_run::start(options) {
        return start_failed(&message);
    }
    crate::mpi_run::finish(run_input(options))
}

/// A process of an MPI job that failed before the run (`message`: its
/// environment or the files it reads, which may be its own): it starts MPI
/// as every process does and joins the agreement before the run with its
/// failure, so that process 0 prints it, named by the process. Returns the
/// exit status.
pub fn failed_before_run(options: &Options, message: &str) -> i32 {
    if let Err(start) = crate::mpi_run::start(options) {
        return start_failed(&start);
    }
    crate::mpi_agree::failed(&format!("pld-run: error: {message}"));
    crate::mpi_run::finish(1)
}

/// `mpi_run::start` failed with `message`. Once MPI runs, through the
/// agreement before the run (a process's own failure reaches process 0,
/// which prints every failure once); before, said by the process that
/// speaks first.
fn start_failed(message: &str) -> i32 {
    let shown = format!("pld-run: error: {message}");
    if pld_sim::runtime::mpi::initialised().is_some() {
        crate::mpi_agree::failed(&shown);
    } else if crate::speaker::reports() && crate::speaker::speaks_first() {
        pld_ir::say!("{shown}");
    }
    crate::mpi_run::finish(1)
}

/// Reads, runs and reports the input.
fn run_input(options: &Options) -> i32 {
    crate::watch::phase(format!("reading and compiling {}", options.input));
    let (buffer_name, text) = match read_named_input(&options.input) {
        Ok(read) => read,
        Err(message) => {
            crate::mpi_agree::failed(&format!("pld-run: error: {message}"));
            return 1;
        }
    };
    match drive(options, &buffer_name, &text) {
        Ok(status) => status,
        // What failed because Ctrl-C stopped it is not an error.
        Err(_) if crate::watch::interrupted() => {
            pld_ir::say!("{}", crate::watch::interrupted_message());
            pld_sim::runtime::interrupt::status()
        }
        Err(Refusal::Reported) => Refusal::Reported.status(),
        Err(refusal) => {
            crate::mpi_agree::failed(&shown_error(refusal.message(), &buffer_name, &text));
            refusal.status()
        }
    }
}

/// An error as MLIR tools show one: diagnostics already rendered (a parse
/// or verify failure) as they are; a message that starts at a place of the
/// input as `file:line:col: error: message` with the source line and a
/// caret; anything else as `pld-run: error: message`.
pub fn shown_error(message: &str, buffer_name: &str, text: &str) -> String {
    let lines: Vec<String> = message
        .lines()
        .map(|l| as_diagnostic(l, buffer_name))
        .collect();
    let diagnostic = |l: &String| is_diagnostic(l) || is_unlocated(l, buffer_name);
    if let Some(first) = lines.iter().position(diagnostic) {
        return lines[first..].join("\n");
    }
    if let Some((line, column, rest)) = located(message, buffer_name) {
        // No source line to show (an empty input): the message alone.
        let excerpt = pld_ir::diag::excerpt(text, line, column);
        let shown = match excerpt.is_empty() {
            true => String::new(),
            false => format!("\n{}", excerpt.trim_end()),
        };
        return format!("{buffer_name}:{line}:{column}: error: {rest}{shown}");
    }
    // At a place in another file (a call site's callee), at a location
    // that names no file (`loc("bar")`), or none: as pld-opt says them.
    let rest = message
        .strip_prefix(buffer_name)
        .and_then(|r| r.strip_prefix(": "))
        .unwrap_or(message);
    if let Some((at, said)) = Position::leading(rest) {
        return format!("{}:{}:{}: error: {said}", at.file, at.line, at.column);
    }
    if let Some(said) = rest.strip_prefix("<unknown>: ") {
        return format!("{buffer_name}: error: {said}");
    }
    if rest.starts_with("loc(") {
        return format!("{buffer_name}: error: {rest}");
    }
    format!("pld-run: error: {message}")
}

/// `line` as a diagnostic line when it is one behind the name of the
/// file that failed (`k.mlir: other.mlir:3:4: error: ...`, for an op of
/// another file) or of the simulator's stand-in for it (`<kernel>:
/// error: ...`, for an op without a location, which is the file's); else
/// as it is.
fn as_diagnostic(line: &str, buffer_name: &str) -> String {
    let rest = line
        .strip_prefix(buffer_name)
        .and_then(|r| r.strip_prefix(": "))
        .unwrap_or(line);
    let rest = ["<kernel>", "<lowered>"]
        .iter()
        .find_map(|stand_in| rest.strip_prefix(stand_in))
        .map_or_else(|| rest.to_string(), |r| format!("{buffer_name}{r}"));
    match is_diagnostic(&rest) || is_unlocated(&rest, buffer_name) {
        true => rest,
        false => line.to_string(),
    }
}

/// `<buffer_name>: error: ...` (or warning, note, remark): a diagnostic
/// at a location that names no place in the file.
fn is_unlocated(line: &str, buffer_name: &str) -> bool {
    line.strip_prefix(buffer_name)
        .and_then(|rest| rest.strip_prefix(": "))
        .is_some_and(|rest| SEVERITIES.iter().any(|k| rest.starts_with(k)))
}

/// `file:line:col: error: ...` (or warning, note, remark).
fn is_diagnostic(line: &str) -> bool {
    let mut parts = line.splitn(4, ':');
    let (Some(_), Some(l), Some(c), Some(rest)) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return false;
    };
    let number = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    number(l) && number(c) && SEVERITIES.iter().any(|k| rest.trim_start().starts_with(k))
}

/// How a diagnostic's severity is written after its place.
const SEVERITIES: [&str; 4] = ["error:", "warning:", "note:", "remark:"];

/// The line, column and rest of a message that starts with
/// `<buffer_name>:line:col: `.
fn located<'m>(message: &'m str, buffer_name: &str) -> Option<(usize, usize, &'m str)> {
    let (at, rest) = Position::leading(message).filter(|(at, _)| at.file == buffer_name)?;
    Some((at.line, at.column, rest))
}

fn drive(options: &Options, buffer_name: &str, text: &str) -> Result<i32, Refusal> {
    if let Some(dir) = &options.output_dir {
        crate::files::check_output_dir(dir)?;
    }
    if let Some(path) = &options.trace {
        crate::files::check_trace(path)?;
    }
    // A shard program runs as the pld program convert-shard-to-pld makes
    // of it (its locations still point into `text`).
    // (Under MPI the ranks are the processes, checked against --ranks
    // already: a grid's count is never taken there.)
    let given = (options.ranks_given || options.transport.is_mpi()).then_some(options.ranks);
    let converted =
        pld_sim::compiler::shard_program_for(text, buffer_name, given, options.entry.as_deref())
            .map_err(Refusal::Error)?;
    // Without --ranks, a shard program runs on its grid's devices (shard27
    // L2: "run it on 8 ranks, not 2", a 2 the user never wrote).
    let grid_ranks = Options {
        ranks: converted
            .as_ref()
            .map_or(options.ranks, |(_, ranks)| *ranks),
        ..options.clone()
    };
    let options = &grid_ranks;
    let converted = converted.map(|(program, _)| program);
    // Diagnostics quote the user's file, the converted program's too.
    let source = match &converted {
        Some(program) => Source::converted(program, buffer_name, text),
        None => Source::new(text, buffer_name),
    };
    // A program with a HOST orchestrator runs whole, unless a kernel is
    // named.
    if options.entry.is_some()
        || (options.kernel.is_none() && !crate::run_program::host_functions(source.text).is_empty())
    {
        return crate::run_program::drive(options, source);
    }
    crate::run_kernel::drive(options, source)
}
