//! `pld-explore-protocol`: the protocol explorer at compile time.
//! Docs: `docs/passes/pld-explore-protocol.md`; tests:
//! `tests/lit/passes/pld-explore-protocol/`.
//!
//! Runs after `pld-to-pto`. Every converted kernel whose parameters have
//! static shapes (`pld.signature`) is compiled for the simulator and run
//! under `schedules` seeded schedules on each rank count of `ranks`
//! ([`crate::explore`]); every distinct finding (a race, a missing fence,
//! Set and AtomicAdd mixed, a wait nobody notifies, a deadlock, a credit
//! left in a signal, a fault of the run) becomes an error at the location
//! of the pld op it names. The module is not changed.

use crate::explore::{Finding, Schedule};
use crate::program::explore_watch::{Watch, QUIET};
use crate::program::load::{Finished, Program};
use crate::program::model::{index_of, KernelInfo};
use crate::runtime::domain::MAX_RANKS;
use crate::runtime::interrupt;
use melior::{
    ir::{operation::OperationLike, Location, OperationRef},
    pass::Pass,
    Context,
};
use pld_ir::loc::Position;
use pld_ir::pass::{external, Anchor, PassFailed, PassIdentity, PldPass};
use std::collections::HashSet;
use std::sync::mpsc::{channel, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The pass and its options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExploreProtocol {
    /// Rank counts to run (`ranks=2,3,4`); counts above a signal's first
    /// dimension are skipped for that kernel.
    pub ranks: Vec<usize>,
    /// Schedules per rank count (`schedules=50`).
    pub schedules: usize,
    /// The first schedule's seed (`seed=0`); schedule i has seed + i.
    pub seed: u64,
    /// Whether `ranks` was given: then every count runs, whatever the
    /// signals' shapes suggest.
    pub ranks_given: bool,
    /// How long the pass may explore (`time-limit=S`, seconds; none by
    /// default): no schedule starts after it, and a warning says how many
    /// ran.
    pub time_limit: Option<Duration>,
}

impl Default for ExploreProtocol {
    fn default() -> Self {
        ExploreProtocol {
            ranks: vec![2, 3, 4],
            schedules: 50,
            seed: 0,
            ranks_given: false,
            time_limit: None,
        }
    }
}

impl ExploreProtocol {
    /// Why no rank count of `ranks` (the default ones) runs `kernel`.
    fn none_fits(&self, kernel: &KernelInfo, least: usize) -> String {
        let list = |keep: &dyn Fn(usize) -> bool| {
            let kept: Vec<String> = self
                .ranks
                .iter()
                .filter(|&&r| keep(r))
                .map(usize::to_string)
                .collect();
            kept.join(",")
        };
        let ranks = list(&|_| true);
        let shaped = list(&|r| admits(kernel, r));
        match shaped.is_empty() {
            true => format!(
                "pld-explore-protocol: the signals of @{} are shaped for none of ranks={ranks} (a \
                 mesh signal [NR, 1] serves up to NR ranks, a ring signal [2NR-2, NR] and a lane \
                 matrix [NR, S] exactly NR); give the rank counts it is written for",
                kernel.name
            ),
            false => format!(
                "pld-explore-protocol: of ranks={ranks}, the signals of @{} serve {shaped}, fewer \
                 than the {least} ranks its root needs; give the rank counts it is written for",
                kernel.name
            ),
        }
    }

    /// Reads `ranks=2,3,4 schedules=50 seed=0 time-limit=60` (any subset,
    /// any order, separated by spaces).
    pub fn parse(text: &str) -> Result<Self, String> {
        let mut pass = ExploreProtocol::default();
        const PASS: &str = "pld-explore-protocol";
        const KEYS: [&str; 4] = ["ranks", "schedules", "seed", "time-limit"];
        for item in pld_ir::pass_options::items(PASS, text)? {
            let key = item.key.as_str();
            // An unknown option is that before it is one without a value.
            let value = match KEYS.contains(&key) {
                true => item.text(PASS)?,
                false => "",
            };
            let number = |v: &str| {
                v.parse::<u64>().map_err(|_| {
                    match !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) {
                        true => format!(
                            "pld-explore-protocol: {key} takes a number up to {}, not '{v}'",
                            u64::MAX
                        ),
                        false => format!("pld-explore-protocol: {key} takes a number, not '{v}'"),
                    }
                })
            };
            match key {
                "ranks" => {
                    // A count past 64 bits is past 64 ranks too.
                    let rank_count = |v: &str| match number(v) {
                        Err(_) if v.bytes().all(|b| b.is_ascii_digit()) && !v.is_empty() => Err(
                            format!("pld-explore-protocol: ranks are 1 to {MAX_RANKS}, not {v}"),
                        ),
                        n => n.map(|n| n as usize),
                    };
                    pass.ranks = value.split(',').map(rank_count).collect::<Result<_, _>>()?;
                    if let Some(bad) = pass.ranks.iter().find(|r| !(1..=MAX_RANKS).contains(*r)) {
                        return Err(format!(
                            "pld-explore-protocol: ranks are 1 to {MAX_RANKS}, not {bad}"
                        ));
                    }
                    pass.ranks_given = true;
                }
                "schedules" => {
                    pass.schedules = number(value)? as usize;
                    if pass.schedules == 0 {
                        return Err("pld-explore-protocol: schedules is at least 1".into());
                    }
                }
                "seed" => pass.seed = number(value)?,
                "time-limit" => {
                    let seconds = value.parse::<u64>().ok().filter(|s| *s >= 1);
                    let Some(seconds) = seconds else {
                        return Err(format!(
                            "pld-explore-protocol: time-limit is a whole number of seconds from \
                             1 to {}, not '{value}'",
                            u64::MAX
                        ));
                    };
                    pass.time_limit = Some(Duration::from_secs(seconds));
                }
                other => {
                    return Err(format!(
                        "{PASS} has no option '{other}' (its options: {})",
                        KEYS.join(", ")
                    ))
                }
            }
        }
        let last = u64::try_from(pass.schedules - 1)
            .ok()
            .and_then(|n| pass.seed.checked_add(n));
        if last.is_none() {
            return Err(format!(
                "pld-explore-protocol: seed={} with schedules={} runs past the last seed, {}",
                pass.seed,
                pass.schedules,
                u64::MAX
            ));
        }
        Ok(pass)
    }
}

impl PldPass for ExploreProtocol {
    const ARGUMENT: &'static str = "pld-explore-protocol";
    const NAME: &'static str = "PldExploreProtocol";
    const SUMMARY: &'static str = "Run every converted kernel under seeded schedules of the protocol explorer and report races, missing fences, deadlocks and leaks at the ops";
    const ANCHOR: Anchor = Anchor::Module;

    fn run(&self, context: &Context, module: OperationRef) -> Result<(), PassFailed> {
        let unconverted = crate::compiler::convert_pto_to_sim::unconverted_kernel(module);
        if let Some(function) = unconverted {
            pld_ir::diag::emit_error(
                function.location(),
                "pld-explore-protocol runs converted kernels: place it after pld-to-pto",
            );
            return Err(PassFailed);
        }
        let converted = pld_ir::functions(module).into_iter().any(|f| {
            use melior::ir::RegionLike;
            let body = f.region(0).ok().and_then(|r| r.first_block()).is_some();
            body && f.attribute("pto.kernel_kind").is_ok()
        });
        if !converted {
            // It explored nothing and said nothing (an A5 program whose
            // collectives are builtins: dma26 L4).
            pld_ir::diag::emit_warning(
                module.location(),
                "pld-explore-protocol: the module has no converted kernel (pto.kernel_kind) to \
                 explore; a program's HOST and CHIP collectives run as builtin kernels, which \
                 pld-run --explore explores",
            );
            return Ok(());
        }
        let text = pld_ir::print::op_text(
            &module,
            pld_ir::print::PrintOptions {
                debug_info: true,
                ..Default::default()
            },
        );
        // The kernels' places are read here, where the MLIR objects live;
        // the schedules run on a thread of their own (below).
        let functions: Vec<OperationRef> = pld_ir::functions(module)
            .into_iter()
            .filter(|f| pld_ir::symbol_name(*f).is_some())
            .collect();
        let kernels: Vec<KernelPlace> = functions
            .iter()
            .map(|f| KernelPlace {
                name: pld_ir::symbol_name(*f).unwrap_or_default(),
                file: replay_file(f.location()),
                least: ranks_at_least(*f),
            })
            .collect();
        let shared = Arc::new(Shared {
            reports: Mutex::new(Vec::new()),
            watch: Watch::new(QUIET),
            kernel: Mutex::new(None),
        });
        let (outcome, stalled) = explore_aside(self.clone(), text, kernels, shared.clone());
        let mut reports =
            std::mem::take(&mut *shared.reports.lock().unwrap_or_else(|e| e.into_inner()));
        let failed = match outcome {
            Some(Ok(explored)) => {
                if let Some((kernel, warning)) = explored.shortfall {
                    let at = kernel.map_or(Where::Module, Where::Kernel);
                    reports.push((at, Severity::Warning, warning));
                }
                explored.failed
            }
            Some(Err(message)) => {
                reports.push(placed(message));
                true
            }
            None if stalled.is_some() => true,
            None => {
                let message = "pld-explore-protocol: internal error: the exploring thread ended \
                               without a result";
                reports.push((Where::Module, Severity::Error, message.into()));
                true
            }
        };
        if let Some(finding) = stalled {
            reports.push((finding.0, Severity::Error, finding.1));
        }
        // A site is reported at the op's own location (a call site with
        // its `called from` notes, a name), else at the place its text
        // names, else at its kernel.
        let mut sites = std::collections::HashMap::new();
        for op in pld_ir::collect(module, |_| true) {
            let text = crate::compiler::locate::location_of(op);
            sites.entry(text).or_insert(op.location());
        }
        let at = |place: Where| match place {
            Where::Kernel(i) => functions[i].location(),
            Where::Site(text, kernel) => (sites.get(&text).copied())
                .or_else(|| location(context, &text))
                .or_else(|| kernel.map(|i| functions[i].location()))
                .unwrap_or(module.location()),
            Where::Module => module.location(),
        };
        let reports = reports
            .into_iter()
            .map(|(place, severity, message)| (at(place), severity, message))
            .collect();
        emit_in_source_order(reports);
        if failed {
            Err(PassFailed)
        } else {
            Ok(())
        }
    }
}

/// A kernel function of the module as the exploring thread needs it: its
/// name, the file its replay command names, and the fewest ranks its
/// roots need.
struct KernelPlace {
    name: String,
    file: String,
    least: usize,
}

/// Where a report goes: a kernel function (by its index in the module's
/// functions), an op's `file:line:col` (in that kernel, if known), or the
/// module.
enum Where {
    Kernel(usize),
    Site(String, Option<usize>),
    Module,
}

/// The reports made so far and the watch of the running schedule, shared
/// by the pass and its exploring thread.
struct Shared {
    reports: Mutex<Vec<(Where, Severity, String)>>,
    watch: Watch,
    /// The kernel being explored (its index among the module's functions).
    kernel: Mutex<Option<usize>>,
}

impl Shared {
    fn report(&self, at: Where, severity: Severity, message: String) {
        let mut reports = self.reports.lock().unwrap_or_else(|e| e.into_inner());
        reports.push((at, severity, message));
    }

    /// The kernel being explored.
    fn kernel_index(&self) -> Option<usize> {
        *self.kernel.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Where the running kernel's errors go.
    fn running_kernel(&self) -> Where {
        self.kernel_index().map_or(Where::Module, Where::Kernel)
    }
}

/// What the exploring thread came back with.
struct Explored {
    failed: bool,
    /// The time limit's warning, and the kernel whose schedules it cut
    /// (its index among the module's functions): the warning goes there,
    /// where `expected-warning` can name it.
    shortfall: Option<(Option<usize>, String)>,
}

/// Explores on a thread of its own and waits for it, asking the watch
/// every [`PERIOD`]: `(what it came back with, a schedule that stalled)`.
/// A stalled schedule's ranks cannot be stopped, so its thread is left
/// behind (the pass ended the process then, its host's too when a library
/// ran it) and the pass reports the schedule; a thread that panicked is an
/// internal error. The thread has the tools' stack.
#[allow(clippy::type_complexity)]
fn explore_aside(
    pass: ExploreProtocol,
    text: String,
    kernels: Vec<KernelPlace>,
    shared: Arc<Shared>,
) -> (Option<Result<Explored, String>>, Option<(Where, String)>) {
    let (done, result) = channel();
    // The thread's own stop, requested when the caller's is (the Python
    // package's time limit) and when the thread is left behind: a rank
    // that polls on is parked then (`pld_sim`'s ABANDON), using no CPU.
    let (outer, stop) = (interrupt::current(), interrupt::Stop::default());
    let (aside, inner) = (shared.clone(), stop.clone());
    let job = move || {
        let work = || inner.enter(|| pass.explore_all(&text, &kernels, &aside));
        let explored =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)).unwrap_or_else(|_| {
                Err("pld-explore-protocol: internal error: the exploring thread panicked".into())
            });
        let _ = done.send(explored);
    };
    let spawned = std::thread::Builder::new()
        .name("pld-explore".into())
        .stack_size(pld_ir::nesting::STACK_BYTES)
        .spawn(job);
    let thread = match spawned {
        Ok(thread) => thread,
        Err(e) => {
            let message = format!("pld-explore-protocol: cannot start a thread: {e}");
            return (Some(Err(message)), None);
        }
    };
    // A thread that ended is joined: its compiled kernels (kept for the
    // thread's life) are destroyed as it ends, which raced the process's
    // exit when the tool ended right after the pass (a segfault in the
    // JIT's teardown, 1 run in 40).
    loop {
        match result.recv_timeout(PERIOD) {
            Ok(explored) => {
                let _ = thread.join();
                return (Some(explored), None);
            }
            Err(RecvTimeoutError::Disconnected) => {
                let _ = thread.join();
                return (None, None);
            }
            Err(RecvTimeoutError::Timeout) => {
                if outer.as_ref().is_some_and(interrupt::Stop::own) {
                    stop.request();
                }
                if let Some(finding) = shared.watch.stalled() {
                    stop.request();
                    let said = format!(
                        "{finding}; its ranks cannot be stopped: the pass stops exploring and \
                         leaves them running until the process ends"
                    );
                    let at = shared.running_kernel();
                    return (None, Some((at, said)));
                }
            }
        }
    }
}

/// How often the waiting pass asks the watch.
const PERIOD: Duration = Duration::from_millis(100);

/// Whether the kernel's signals are shaped for `ranks` ranks, by the
/// conventions of the composite rail (collectives spec 5.1): a mesh signal
/// `[NR, 1]` serves up to NR ranks, a ring signal `[2NR-2, NR]` and a
/// lane matrix `[NR, S]` exactly NR. (A converted kernel no longer names
/// its collectives; their shapes are all that is left to go by.)
fn admits(kernel: &KernelInfo, ranks: usize) -> bool {
    kernel
        .signals
        .iter()
        .all(|&s| match kernel.params[s].shape.as_slice() {
            [n] | [n, 1] => ranks <= *n,
            [rows, cols] if *cols > 1 && *rows == 2 * cols - 2 => ranks == *cols,
            [rows, _] => ranks == *rows,
            other => ranks <= other.iter().product(),
        })
}

/// For a rank count given with `ranks=` that the kernel's signals are not
/// shaped for (by [`admits`]' conventions): what its findings may be
/// worth, and that `pld-run` may refuse their replay (it checks the
/// collectives' shapes in the source); nothing for a count that fits.
fn misfit_note(kernel: &KernelInfo, ranks: usize) -> String {
    if admits(kernel, ranks) {
        return String::new();
    }
    let shapes: Vec<String> = kernel
        .signals
        .iter()
        .map(|&s| format!("{:?}", kernel.params[s].shape))
        .collect();
    format!(
        " [the signals, {}, are not shaped for {} by the composite rail's conventions: what \
         is found may come of that, and pld-run refuses the replay if a collective's signal \
         does not fit]",
        shapes.join(", "),
        pld_ir::diag::count(ranks, "rank")
    )
}

/// The fewest ranks a converted kernel's roots need (a broadcast or reduce
/// to root r: r + 1), as `pld-lower-composite-ops` noted it; 1 when it
/// names none.
fn ranks_at_least(function: OperationRef) -> usize {
    function
        .attribute(pld_lowering::passes::lower_composite_ops::RANKS_AT_LEAST)
        .ok()
        .and_then(pld_ir::attr::int)
        .and_then(|n| usize::try_from(n).ok())
        .unwrap_or(1)
}

/// How the pass fills a parameter; each is a `pld-run` generator, so that
/// the replay command can name every fill.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fill {
    /// Signals: `zeros`.
    Zeros,
    /// The rest: `rank`, the rank number everywhere.
    Rank,
}

impl Fill {
    fn of(kernel: &KernelInfo, param: usize) -> Fill {
        if kernel.signals.contains(&param) {
            Fill::Zeros
        } else {
            Fill::Rank
        }
    }

    /// The `pld-run --input` generator of the same bytes.
    fn generator(self) -> &'static str {
        match self {
            Fill::Zeros => "zeros",
            Fill::Rank => "rank",
        }
    }
}

/// The bytes of parameter `param` on `rank`.
fn input(kernel: &KernelInfo, rank: usize, param: usize) -> Vec<u8> {
    let p = &kernel.params[param];
    match Fill::of(kernel, param) {
        Fill::Zeros => vec![0; p.bytes()],
        Fill::Rank => p.dtype.encode_all((0..p.elements()).map(|_| rank as f64)),
    }
}

/// The file a replay command names for a kernel at `at`: the file it was
/// read from, `-` (standard input) when it has none.
fn replay_file(at: Location) -> String {
    pld_ir::diag::position(at)
        .map(|p| p.file)
        .filter(|f| !f.is_empty() && f != "-" && f != "<stdin>")
        .map_or_else(|| "-".to_string(), |f| shell_word(&f))
}

/// The `pld-run` command that reruns one schedule with the inputs this
/// pass gave it: the file the kernel was read from ([`replay_file`]), the
/// kernel, the rank count, the seed, and each parameter's fill by its
/// number (`argN` names the same parameter in the pld source and in the
/// converted module).
fn replay_command(file: &str, kernel: &KernelInfo, ranks: usize, seed: u64) -> String {
    let mut command = format!(
        "pld-run {file} --kernel {} --ranks {ranks} --replay {seed}",
        shell_word(&kernel.name)
    );
    for param in 0..kernel.params.len() {
        command.push_str(&format!(
            " --input arg{param}={}",
            Fill::of(kernel, param).generator()
        ));
    }
    command
}

/// `word` as one shell word: as it is when it holds only characters no
/// shell treats specially, else in single quotes.
fn shell_word(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_-./+:@%,=".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

impl ExploreProtocol {
    /// Loads the converted module's kernels and explores each, on the
    /// exploring thread; the reports go to `shared` as they are made.
    fn explore_all(
        &self,
        text: &str,
        kernels: &[KernelPlace],
        shared: &Shared,
    ) -> Result<Explored, String> {
        let program = Program::load_converted(text, "<module>")
            .map_err(|message| format!("pld-explore-protocol: {message}"))?;
        let mut budget = Budget::new(self.time_limit);
        let mut failed = false;
        let mut cut = None;
        for kernel in &program.kernels {
            let index = kernels.iter().position(|k| k.name == kernel.name);
            *shared.kernel.lock().unwrap_or_else(|e| e.into_inner()) = index;
            let place = index.map(|i| &kernels[i]);
            failed |= self.explore_kernel(&program, kernel, place, (&mut budget, shared));
            if budget.out && cut.is_none() {
                cut = Some(index);
            }
        }
        Ok(Explored {
            failed,
            shortfall: budget.shortfall().map(|w| (cut.flatten(), w)),
        })
    }

    /// Explores one kernel; `true` when something was reported.
    fn explore_kernel(
        &self,
        program: &Program,
        kernel: &KernelInfo,
        place: Option<&KernelPlace>,
        (budget, shared): (&mut Budget, &Shared),
    ) -> bool {
        let at = || shared.running_kernel();
        let least = place.map_or(1, |p| p.least);
        let file = place.map_or("-", |p| p.file.as_str());
        let fitting: Vec<usize> = self
            .ranks
            .iter()
            .copied()
            .filter(|&r| self.ranks_given || (admits(kernel, r) && r >= least))
            .collect();
        if fitting.is_empty() {
            shared.report(at(), Severity::Error, self.none_fits(kernel, least));
            return true;
        }
        // Given counts run as given, but a root beyond them is no rank:
        // `pld-run` refuses such a run, replays included.
        if let Some(small) = fitting.iter().find(|&&r| r < least) {
            let message = format!(
                "pld-explore-protocol: ranks={small} is fewer than the {least} ranks the root of \
                 @{} needs",
                kernel.name
            );
            shared.report(at(), Severity::Error, message);
            return true;
        }
        let mut seen = HashSet::new();
        let mut reported = false;
        // Findings past the cap are counted, not reported (a misfit signal
        // on 64 ranks faulted at thousands of addresses).
        let mut unshown = 0usize;
        budget.planned += fitting.len() * self.schedules;
        for ranks in fitting {
            for i in 0..self.schedules {
                if !budget.start() {
                    return reported;
                }
                let seed = self.seed.wrapping_add(i as u64);
                let hint = format!(
                    "{}, schedule seed {seed} ({}){}",
                    pld_ir::diag::count(ranks, "rank"),
                    replay_command(file, kernel, ranks, seed),
                    misfit_note(kernel, ranks)
                );
                shared.watch.begin(format!("protocol explorer, {hint}"));
                let run = program.run_explored(
                    &kernel.name,
                    ranks,
                    QUIET,
                    false,
                    Some(Schedule { seed }),
                    |rank, param| input(kernel, rank, param),
                );
                shared.watch.end();
                let finished = match run {
                    Ok(finished) => finished,
                    Err(message) => {
                        let message = format!("pld-explore-protocol: {message}");
                        shared.report(at(), Severity::Error, message);
                        return true;
                    }
                };
                for (key, site, message) in findings(kernel, &finished) {
                    if !seen.insert(key) {
                        continue;
                    }
                    reported = true;
                    if seen.len() > MAX_FINDINGS {
                        unshown += 1;
                        continue;
                    }
                    let message = format!("protocol explorer, {hint}: {message}");
                    let place =
                        site.map_or_else(at, |site| Where::Site(site, shared.kernel_index()));
                    shared.report(place, Severity::Error, message);
                }
            }
        }
        if unshown > 0 {
            let more = format!(
                "protocol explorer: {} more distinct findings in @{} not shown (the first \
                 {MAX_FINDINGS} are); the replay commands above show every finding of their run",
                unshown, kernel.name
            );
            shared.report(at(), Severity::Error, more);
        }
        reported
    }
}

/// The errors the pass found (and its time limit's warning), with where
/// to report them.
type Reports<'c> = Vec<(Location<'c>, Severity, String)>;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Severity {
    Error,
    Warning,
}

/// Emits the errors in source order (unknown locations last, the order of
/// finding kept at one place), the order pld-opt prints diagnostics in: so
/// mlir-opt with the plugin, which prints them as they come, prints the
/// same.
fn emit_in_source_order(mut reports: Reports) {
    reports.sort_by_key(|(location, _, _)| {
        let position = pld_ir::diag::position(*location);
        (position.is_none(), position.map(|p| (p.line, p.column)))
    });
    for (location, severity, message) in reports {
        match severity {
            Severity::Error => pld_ir::diag::emit_error(location, &message),
            Severity::Warning => pld_ir::diag::emit_warning(location, &message),
        }
    }
}

/// The schedules the pass planned and ran, against its time limit.
struct Budget {
    limit: Option<(Duration, std::time::Instant)>,
    planned: usize,
    ran: usize,
    out: bool,
}

impl Budget {
    fn new(limit: Option<Duration>) -> Self {
        Budget {
            limit: limit.map(|l| (l, std::time::Instant::now())),
            planned: 0,
            ran: 0,
            out: false,
        }
    }

    /// Whether the next schedule may start (counting it if so): not past
    /// the time limit, nor after Ctrl-C or the caller's stop.
    fn start(&mut self) -> bool {
        if interrupt::requested() {
            return false;
        }
        self.out |= self
            .limit
            .is_some_and(|(limit, since)| since.elapsed() >= limit);
        self.ran += usize::from(!self.out);
        !self.out
    }

    /// The warning of a pass whose time ran out: how much it explored.
    fn shortfall(&self) -> Option<String> {
        let (limit, _) = self.limit.filter(|_| self.out)?;
        Some(format!(
            "pld-explore-protocol: time-limit={} ran out after {} of {}; the rest were not \
             explored",
            limit.as_secs(),
            self.ran,
            pld_ir::diag::count(self.planned, "schedule")
        ))
    }
}

/// An error of the exploring thread at the op it names, when it starts
/// with one (`pld-explore-protocol: k.mlir:7:8: 'memref.alloca' op ...`,
/// which was reported at the module's `k.mlir:0:0`), else at the module.
fn placed(message: String) -> (Where, Severity, String) {
    let prefix = "pld-explore-protocol: ";
    let site = message.strip_prefix(prefix).and_then(|rest| {
        let (place, said) = Position::leading(rest)?;
        let place = format!("{}:{}:{}", place.file, place.line, place.column);
        Some((place, format!("{prefix}{said}")))
    });
    match site {
        Some((place, said)) => (Where::Site(place, None), Severity::Error, said),
        None => (Where::Module, Severity::Error, message),
    }
}

/// The `file:line:col` of the op a fault of the run names (`rank 0:
/// k.mlir:55:12: pto.comm_wait_async_event: ...`), where it is reported;
/// `None` for one that names none (it goes to the kernel).
fn fault_site(error: &str) -> Option<String> {
    let (_, rest) = error.strip_prefix("rank ")?.split_once(": ")?;
    let (place, _) = Position::leading(rest)?;
    Some(format!("{}:{}:{}", place.file, place.line, place.column))
}

/// `file:line:col` as a location.
fn location<'c>(context: &'c Context, text: &str) -> Option<Location<'c>> {
    let at = Position::parse(text)?;
    Some(Location::new(context, &at.file, at.line, at.column))
}

/// What one schedule found, as (key, the `file:line:col` of the op it
/// names, message).
fn findings(kernel: &KernelInfo, finished: &Finished) -> Vec<(String, Option<String>, String)> {
    let namer =
        |_: usize, range: &std::ops::Range<usize>| kernel.name_bytes(&finished.offsets, range);
    let outcome = &finished.outcome;
    let mut out = Vec::new();
    let at_site = |f: &Finding| f.sites().first().map(|s| s.location.clone());
    for finding in &outcome.findings {
        out.push((finding.key(), at_site(finding), finding.describe(&namer)));
    }
    // One finding per fault of an op, naming the other ranks that had it
    // (recheck27c L1, as pld-run --explore does).
    let errors: Vec<String> = (outcome.errors.iter().map(ToString::to_string))
        .chain(outcome.fatals.iter().map(ToString::to_string))
        .collect();
    let also = crate::runtime::errors::also_on_other_ranks(&errors);
    for (error, also) in errors.iter().zip(also) {
        out.push((
            format!("error {}", error_kind(error)),
            fault_site(error),
            format!("error: {error}{also}"),
        ));
    }
    if let Some(deadlock) = &outcome.deadlock {
        // One error per waiting op, naming every rank blocked there.
        let mut by_site: Vec<(Option<String>, Vec<String>)> = Vec::new();
        for blocked in &deadlock.blocked {
            let site = blocked.site.as_ref().map(|s| s.location.clone());
            // The cell as the kernel names it, `arg0 [1, 1]`, as the other
            // findings and pld-run's deadlock report do (explore27 L3).
            let named = kernel
                .name_bytes(&finished.offsets, &(blocked.offset..blocked.offset + 4))
                .map_or(String::new(), |n| format!(" ({n})"));
            let wait = format!(
                "rank {} waits for the i32 cell at byte {} of rank {}'s window{named} {} {}, \
                 which holds {}",
                blocked.rank,
                blocked.offset,
                blocked.window.map_or("?".into(), |w| w.to_string()),
                blocked.cmp,
                blocked.expected,
                blocked.actual
            );
            match by_site.iter_mut().find(|(s, _)| *s == site) {
                Some((_, waits)) => waits.push(wait),
                None => by_site.push((site, vec![wait])),
            }
        }
        for (site, waits) in by_site {
            out.push((
                format!("deadlock {site:?}"),
                site,
                format!(
                    "deadlock: {}, and no thread of any rank can run",
                    waits.join("; ")
                ),
            ));
        }
    } else {
        for &signal in &kernel.signals {
            let param = &kernel.params[signal];
            let offset = finished.offsets[signal].unwrap_or(0);
            for leak in finished.domain.leaks(offset, param.elements()) {
                out.push((
                    format!("leak {} {}", param.name, leak.index),
                    None,
                    format!(
                        "credit leak: {} {} holds {} on rank {} after the kernel (should be back \
                         to 0)",
                        param.name,
                        index_of(leak.index, &param.shape),
                        leak.value,
                        leak.rank
                    ),
                ));
            }
        }
    }
    out
}

/// The distinct findings of one kernel reported as errors; the pass
/// counts the rest.
const MAX_FINDINGS: usize = 20;

/// A run's error as one finding: its key without the numbers of its
/// message, rank numbers and repeat count, so that one fault of every
/// rank, at every cell, is one.
fn error_kind(error: &str) -> String {
    crate::runtime::errors::finding_key(error)
}

static IDENTITY: PassIdentity = PassIdentity;

/// Creates the pass with its default options.
pub fn create() -> Pass {
    external(ExploreProtocol::default(), &IDENTITY)
}

/// Creates the pass from its option text.
pub fn configure(options: &str) -> Result<Pass, String> {
    Ok(external(ExploreProtocol::parse(options)?, &IDENTITY))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_parse_with_defaults_and_errors_name_the_option() {
        assert_eq!(
            ExploreProtocol::parse("").unwrap(),
            ExploreProtocol::default()
        );
        let pass = ExploreProtocol::parse("ranks=2,8 schedules=7 seed=3").unwrap();
        assert_eq!((pass.ranks, pass.schedules, pass.seed), (vec![2, 8], 7, 3));
        assert!(pass.ranks_given && !ExploreProtocol::default().ranks_given);
        assert!(ExploreProtocol::parse("schedules=0")
            .unwrap_err()
            .contains("at least 1"));
        assert!(ExploreProtocol::parse("rank=2")
            .unwrap_err()
            .contains("no option 'rank'"));
        assert!(ExploreProtocol::parse("ranks=0")
            .unwrap_err()
            .contains("1 to 64"));
        assert!(ExploreProtocol::parse("schedules=x")
            .unwrap_err()
            .contains("a number"));
        assert!(ExploreProtocol::parse("seed=18446744073709551616")
            .unwrap_err()
            .ends_with("takes a number up to 18446744073709551615, not '18446744073709551616'"));
        assert!(ExploreProtocol::parse("seed=18446744073709551615").is_err());
        assert!(ExploreProtocol::parse("seed=18446744073709551615 schedules=1").is_ok());
        assert!(ExploreProtocol::parse("seed=1 seed=2")
            .unwrap_err()
            .contains("'seed' is given more than once"));
    }

    #[test]
    fn a_fault_at_every_cell_of_every_rank_is_one_finding() {
        let kind = |e: &str| super::error_kind(e);
        let at = |rank, address| {
            format!("rank {rank}: f.mlir:13:12: pto.comm_twait: wait on the signal cell at {address}, which is outside every window")
        };
        assert_eq!(
            kind(&at(0, "0x7f18b3fc0020")),
            kind(&at(63, "0x7f18b3fc0a24"))
        );
        assert_ne!(
            kind(&at(0, "0x7f18")),
            kind("rank 0: f.mlir:14:12: pto.comm_tnotify: ...")
        );
        assert_eq!(kind("rank 12 of 0xab at rank 3"), "rank ? of 0x at rank ?");
        assert_eq!(kind("0x"), "0x");
        // The runtime's repeat counts too (one rank's faults at 55 and at
        // 118 addresses were two findings).
        assert_eq!(
            kind(&format!(
                "{} (55 times, with other numbers too)",
                at(8, "0x7f1a")
            )),
            kind(&format!("{} (118 times)", at(9, "0x7f1b")))
        );
    }

    #[test]
    fn the_time_limit_is_whole_seconds_from_one() {
        let pass = ExploreProtocol::parse("time-limit=90").unwrap();
        assert_eq!(pass.time_limit, Some(Duration::from_secs(90)));
        assert_eq!(ExploreProtocol::default().time_limit, None);
        for bad in [
            "time-limit=0",
            "time-limit=1.5",
            "time-limit=-1",
            "time-limit=",
        ] {
            assert!(ExploreProtocol::parse(bad).is_err(), "{bad}");
        }
        let huge = ExploreProtocol::parse("time-limit=18446744073709551615").unwrap();
        let mut budget = Budget::new(huge.time_limit);
        assert!(budget.start() && budget.shortfall().is_none());
    }

    #[test]
    fn a_spent_budget_starts_nothing_and_says_how_far_it_got() {
        let mut budget = Budget::new(None);
        budget.planned = 3;
        assert!((0..3).all(|_| budget.start()));
        assert_eq!(budget.shortfall(), None);
        let mut budget = Budget::new(Some(Duration::ZERO));
        budget.planned = 5;
        assert!(!budget.start() && !budget.start());
        assert_eq!(
            budget.shortfall().as_deref(),
            Some(
                "pld-explore-protocol: time-limit=0 ran out after 0 of 5 schedules; the rest \
                 were not explored"
            )
        );
    }
}
