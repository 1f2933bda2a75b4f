//! `pld.run`: what `pld-run` does, on the worker thread, with the
//! caller's arrays as inputs and a [`Report`] instead of printed lines.
//! A module with a HOST orchestrator runs whole ([`program`]), unless a
//! kernel is named; otherwise its one (or named) kernel runs ([`kernel`]),
//! as `pld-run` decides.

pub mod kernel;
pub mod program;

use crate::error::Failure;
use crate::inputs::{Described, Fill, Slot};
use crate::report::Report;
use crate::worker::Asker;
use pld_tools::options::Options;
use std::time::Duration;

pub use crate::report::Kind;

/// What `pld.run` (and `pld.explore`) was asked.
#[derive(Clone)]
pub struct Request {
    pub source: String,
    /// The pld program that runs in place of a shard `source`
    /// ([`Request::with_shard_converted`]).
    pub converted: Option<String>,
    /// The source's name in diagnostics and locations.
    pub name: String,
    /// The ranks: as given, or (not given) a shard program's grid's device
    /// count once converted ([`Request::with_shard_converted`]), else 2.
    pub ranks: usize,
    /// Whether the caller gave `ranks` (pld-run's `--ranks`).
    pub ranks_given: bool,
    pub kernel: Option<String>,
    pub entry: Option<String>,
    pub check: bool,
    pub deadline: Duration,
}

/// Every buffer's bytes on every rank, `[rank][buffer]`.
pub type Buffers = Vec<Vec<Vec<u8>>>;

/// The worker's questions and the caller's answers.
pub type Inputs = Asker<Described, Vec<Fill>>;

impl Request {
    /// `pld-run`'s options for the same run.
    pub fn options(&self) -> Options {
        Options {
            input: self.name.clone(),
            kernel: self.kernel.clone(),
            entry: self.entry.clone(),
            ranks: self.ranks,
            check: self.check,
            deadline: self.deadline,
            iters: 1,
            ..Options::default()
        }
    }

    /// An error as `pld-run` shows it (a message that starts at a place
    /// of the source quotes the line), without the tool's name, and with
    /// the keywords of `pld.run` where `pld-run` names its flags.
    pub fn refuse(&self, message: impl AsRef<str>) -> Failure {
        let shown = pld_tools::run::shown_error(message.as_ref(), &self.name, &self.source);
        let shown = shown.strip_prefix("pld-run: error: ").unwrap_or(&shown);
        Failure::message(python_words(shown))
    }

    /// The request with a shard source converted into the pld program
    /// that runs in its place, as `pld-run` converts it.
    pub fn with_shard_converted(&self) -> Result<Request, Failure> {
        let given = self.ranks_given.then_some(self.ranks);
        let converted = pld_sim::compiler::shard_program_for(
            &self.source,
            &self.name,
            given,
            self.entry.as_deref(),
        )
        .map_err(|e| self.refuse(e))?;
        Ok(match converted {
            Some((program, ranks)) => Request {
                converted: Some(program),
                ranks,
                ..self.clone()
            },
            None => Request {
                converted: None,
                ..self.clone()
            },
        })
    }

    /// The source as the simulator loads it: the converted program of a
    /// shard source (its diagnostics quoting the user's lines), else the
    /// source itself.
    pub fn loaded(&self) -> pld_sim::compiler::Source<'_> {
        match &self.converted {
            Some(program) => {
                pld_sim::compiler::Source::converted(program, &self.name, &self.source)
            }
            None => pld_sim::compiler::Source::new(&self.source, &self.name),
        }
    }

    /// Whether the source runs whole from a HOST orchestrator, or one
    /// kernel of it, as `pld-run` decides.
    pub fn kind(&self) -> Result<Kind, Failure> {
        if !(1..=pld_sim::MAX_RANKS).contains(&self.ranks) {
            return Err(self.refuse(format!(
                "ranks must be 1 to {}, not {}",
                pld_sim::MAX_RANKS,
                self.ranks
            )));
        }
        let whole = self.entry.is_some()
            || (self.kernel.is_none()
                && !pld_tools::run_program::host_functions(self.loaded().text).is_empty());
        Ok(if whole { Kind::Program } else { Kind::Kernel })
    }
}

/// The flags of `pld-run` a message may name, and the keyword of
/// `pld.run` (and `pld.explore`) that says the same.
const KEYWORDS: [(&str, &str); 5] = [
    ("--check", "check=True"),
    ("--kernel", "kernel="),
    ("--entry", "entry="),
    ("--ranks", "ranks="),
    ("--deadline", "deadline="),
];

/// `message` (the simulator's or `pld-run`'s words) with each flag of
/// `pld-run` it names spelled as the keyword of `pld.run`: `--check` as
/// `check=True`, `--entry @main` as `entry='main'`.
pub fn python_words(message: &str) -> String {
    let mut words = String::new();
    let mut rest = message;
    while let Some(at) = rest.find("--") {
        words.push_str(&rest[..at]);
        let after = &rest[at..];
        let Some((flag, keyword)) = KEYWORDS.iter().find(|(flag, _)| {
            after.strip_prefix(flag).is_some_and(|tail| {
                !tail.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '-')
            })
        }) else {
            words.push_str("--");
            rest = &after[2..];
            continue;
        };
        rest = &after[flag.len()..];
        // A named function: `--entry @main` -> `entry='main'`.
        let named = rest.strip_prefix(" @").filter(|_| keyword.ends_with('='));
        match named {
            Some(tail) => {
                let end = tail
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
                    .unwrap_or(tail.len());
                words.push_str(&format!("{keyword}'{}'", &tail[..end]));
                rest = &tail[end..];
            }
            None => words.push_str(keyword),
        }
    }
    words.push_str(rest);
    words
}

/// Reads the environment as `pld-run` does before it loads anything: its
/// yes-or-no switches and the compile cache's variables, a value that
/// means nothing refused in the variable's own words (not as an error of
/// the source).
pub fn environment() -> Result<(), Failure> {
    pld_sim::runtime::env::check_all().map_err(Failure::plain)?;
    let choice = pld_sim::compiler::cache::Choice::Default;
    pld_sim::compiler::cache::configure(choice).map_err(Failure::plain)
}

/// Runs the request, asking `inputs` for the buffers once it knows them.
pub fn run(request: &Request, inputs: &Inputs) -> Result<Report, Failure> {
    environment()?;
    let request = &request.with_shard_converted()?;
    match request.kind()? {
        Kind::Program => program::run(request, inputs),
        Kind::Kernel => kernel::run(request, inputs),
    }
}

/// Refuses, before anything is allocated, a kernel run the process
/// cannot hold, as `pld-run` and the C API refuse it (a program's run is
/// refused by `ProgramRun::check_memory`), rather than ending the host on
/// a failed allocation: the inputs, windows, results read back and the
/// goldens, four copies of every rank's parameters.
pub fn check_kernel_memory(slots: &[Slot], ranks: usize) -> Result<(), String> {
    use pld_sim::program::memory;
    let per_rank: usize = slots.iter().map(|s| s.param().bytes()).sum();
    memory::check(per_rank.saturating_mul(ranks).saturating_mul(4), || {
        format!(
            "the run on {} ({} of buffers per rank, as inputs, windows, results and goldens)",
            pld_ir::diag::count(ranks, "rank"),
            pld_ir::diag::bytes_text(per_rank)
        )
    })
}

/// Every slot's bytes on every rank that holds it (`[rank][slot]`, empty
/// where the rank does not: a program's buffer outside its comm domain,
/// as `pld-run` fills it), the ranks in parallel. The run's memory is
/// checked before ([`check_kernel_memory`], `ProgramRun::check_memory`).
pub fn fill_ranks(slots: &[Slot], fills: &[Fill], ranks: usize) -> Result<Buffers, String> {
    let per_rank: usize = slots.iter().map(|s| s.param().bytes()).sum();
    let bytes = per_rank.saturating_mul(ranks);
    pld_sim::program::parallel::map(ranks, bytes, |rank| {
        slots
            .iter()
            .zip(fills)
            .map(|(slot, fill)| match slot.held_on(rank) {
                true => fill.bytes(slot, rank),
                false => Ok(Vec::new()),
            })
            .collect()
    })
    .into_iter()
    .collect()
}
