//! Whole programs on simulated ranks (docs/simulator.md, "Whole
//! programs"): a HOST orchestrator's comm domains, dispatches of CHIP
//! orchestrators, the kernels those call and the HOST rail's builtin
//! dispatches, run on one thread per device.
//!
//! [`plan`] interprets the orchestration once (it depends on integers
//! only) into every device's ordered work; [`ProgramRun::execute`] lays the
//! comm domains out in every device's window, runs each device's work on
//! its own thread (the kernels JIT-compiled, the builtins from the
//! library runtime-sys builds), and, when asked, snapshots the operands of
//! every collective before and after it for the golden check.

pub mod affine;
mod members;
pub mod plan;
mod processes;

pub use plan::{
    devices, Arg, BuiltinScalar, BuiltinTask, DomainPlan, KernelTask, Plan, Task, TensorRef,
};

use crate::compiler::jit::Kernel;
use crate::compiler::Source;
use crate::program::builtins::{self, TensorDesc};
use crate::program::golden::{self, RankCheck};
use crate::program::load::Program;
use crate::program::memory;
use crate::program::model::{index_of, Collective, KernelInfo, Param};
use crate::runtime::domain::CommDomain;
use crate::runtime::report::CellLeak;
use crate::runtime::run::{Outcome, Run};
use melior::ir::operation::OperationLike;
use pld_dialect::collective::{CollectiveKind, CoreNum, Role};
use pld_dialect::enums::AllReduceMode;
use pld_dialect::enums::FuncKind;
use pld_dialect::enums::ReduceOp;
use pld_dialect::ops::collective::ModeOrigin;
use pld_runtime_sys::PldCommContext;
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// AIV cores of a simulated device: the limit a sync-start launch must fit
/// (A2/A3 devices have 48; a module's `pld.aiv_core_count` overrides it).
pub const DEFAULT_AIV_CORES: i32 = 48;

/// A window buffer of the program, and what is known of its contents.
#[derive(Clone, Debug)]
pub struct Buffer {
    pub domain: usize,
    pub name: String,
    /// The first tensor that views it (its dtype and shape).
    pub view: TensorRef,
    /// Used as a collective's signal: starts at zero and must end there.
    pub signal: bool,
}

impl Buffer {
    /// Whether `device` holds the buffer: the devices of its comm domain
    /// do, and only they get its input, write it out and read it back
    /// (`pld-run`, the Python package and the run itself ask this).
    pub fn held_on(&self, plan: &Plan, device: usize) -> bool {
        plan.domains
            .get(self.domain)
            .is_some_and(|d| d.devices.contains(&device))
    }
}

/// A program ready to run on `world` devices.
pub struct ProgramRun {
    pub program: Program,
    pub plan: Plan,
    pub entry: String,
    pub buffers: Vec<Buffer>,
    pub aiv_cores: i32,
    /// How long interpreting the orchestration into the plan took (with
    /// the checks of every call's operands).
    pub plan_time: Duration,
}

/// One collective call of the program: where it is in the source, and
/// what `--check` found.
#[derive(Clone, Debug)]
pub struct CallReport {
    /// The user-level collective.
    pub kind: CollectiveKind,
    /// The source location of the collective (or of the kernel call, for a
    /// collective inside a kernel).
    pub location: String,
    /// For a collective inside a kernel: the kernel.
    pub kernel: Option<String>,
    /// Where the source writes the collective op itself (`location`, for
    /// a HOST collective).
    pub site: String,
    /// The collectives of its kernel (1 for a HOST collective): where there
    /// are several, the call site alone does not tell them apart.
    pub kernel_collectives: usize,
    /// The element type and count of its result.
    pub dtype: String,
    pub elements: usize,
    pub reduce: Option<ReduceOp>,
    pub root: Option<i64>,
    /// Its time on the slowest rank.
    pub time: Duration,
    /// The check per rank, or why there is none.
    pub check: Result<Vec<RankCheck>, Unchecked>,
    /// For a collective inside a kernel: the first other op of the kernel
    /// that may write its target (`KernelInfo::other_writes`).
    pub also_written: Option<String>,
    /// Another device's task that ran while a member read its operands or
    /// ran its task of this call, as the WRONG line says it (`device 1's
    /// @push (at f:l:c), before the call, was still running when device 0
    /// began it and may have written ...`). Known with threads only.
    pub overlapped_by: Option<String>,
    /// The window buffer holding its result, and the devices of its comm
    /// domain in rank order (for writing the golden next to the result).
    pub target: Option<(String, Vec<usize>)>,
    /// The number of devices in its comm domain (its ranks).
    pub ranks: usize,
    /// The devices of its comm domain, in rank order (`devices[r]` is
    /// rank r's device).
    pub devices: Vec<usize>,
    /// An allreduce's schedule (`None` for every other collective).
    pub mode: Option<AllReduceMode>,
    /// How `mode` came about.
    pub origin: ModeOrigin,
}

/// Why a call was not compared with its golden.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unchecked {
    /// The run was not asked to check.
    NotAsked,
    /// A barrier: it has no numeric result; the run itself (no deadlock,
    /// no credit left) is its check.
    NoNumericResult,
    /// Checking was asked for, but this call cannot be compared (why):
    /// `pld-run --check` fails on it.
    Cannot(String),
}

impl std::fmt::Display for Unchecked {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unchecked::NotAsked => f.write_str("not checked (run with --check)"),
            Unchecked::NoNumericResult => f.write_str("a barrier has no numeric result to check"),
            Unchecked::Cannot(why) => f.write_str(why),
        }
    }
}

/// How a program run ended.
pub struct ProgramOutcome {
    pub outcome: Outcome,
    /// Every collective call, in program order (matched across the devices
    /// of its comm domain).
    pub calls: Vec<CallReport>,
    /// Signal cells left non-zero: the buffer (its index in
    /// [`ProgramRun::buffers`]) and the cell (`rank` the device whose
    /// window holds it, `index` the element in the buffer's view).
    pub leaks: Vec<(usize, CellLeak)>,
    /// L3 -> L2 round trips per device.
    pub round_trips: Vec<u64>,
    /// Every buffer's bytes on every device after the run:
    /// `buffers[buffer][device]` (empty for a device outside its domain).
    pub final_bytes: Vec<Vec<Vec<u8>>>,
    /// How long comparing the calls with their goldens took (zero without
    /// `check`).
    pub check_time: Duration,
}

impl ProgramRun {
    /// Loads `text` (a pld module with a HOST orchestrator), lowers and
    /// compiles it, and plans it for `world` devices. `entry` names the
    /// HOST orchestrator (default: the only one).
    pub fn load(
        text: &str,
        source_name: &str,
        entry: Option<&str>,
        world: usize,
    ) -> Result<Self, String> {
        Self::load_source(Source::new(text, source_name), entry, world)
    }

    /// `load` of `source`, its diagnostics quoting the lines of its file.
    pub fn load_source(source: Source, entry: Option<&str>, world: usize) -> Result<Self, String> {
        Self::planned(Program::load_source(source)?, entry, world)
    }

    /// A loaded and compiled `program` planned for `world` devices (the
    /// HOST orchestrator interpreted: every dispatch and call it makes).
    pub fn planned(program: Program, entry: Option<&str>, world: usize) -> Result<Self, String> {
        let mut run = ProgramRun {
            program,
            plan: Plan::default(),
            entry: entry.unwrap_or_default().to_string(),
            buffers: Vec::new(),
            aiv_cores: DEFAULT_AIV_CORES,
            plan_time: Duration::ZERO,
        };
        run.plan_for(world, entry)?;
        Ok(run)
    }

    /// Plans the loaded program again, for `world` devices (the kernels
    /// stay compiled).
    pub fn replan(&mut self, world: usize) -> Result<(), String> {
        let entry = self.entry.clone();
        self.plan_for(world, Some(&entry))
    }

    fn plan_for(&mut self, world: usize, entry: Option<&str>) -> Result<(), String> {
        let started = Instant::now();
        let planned = self.plan_checked(world, entry);
        self.plan_time = started.elapsed();
        planned
    }

    fn plan_checked(&mut self, world: usize, entry: Option<&str>) -> Result<(), String> {
        let context = pld_dialect::context();
        // (Ops without a location of their own, in a module converted
        // without its source's, are on lines of the program's source.)
        let module =
            pld_ir::parse::parse(&context, &self.program.lowered, &self.program.source_name)
                .ok_or("the lowered module does not parse")?;
        let hosts: Vec<String> = pld_ir::functions(module.as_operation())
            .into_iter()
            .filter(|f| pld_dialect::query::function_kind(*f) == Ok(Some(FuncKind::Host)))
            .filter_map(pld_ir::symbol_name)
            .collect();
        let entry = match entry {
            Some(name) if hosts.iter().any(|h| h == name) => name.to_string(),
            Some(name) if hosts.is_empty() => {
                return Err(format!(
                    "--entry {}: the program has no HOST orchestrator (--entry names \
                     the HOST orchestrator to run; --kernel names a kernel)",
                    pld_ir::print::symbol_ref(name)
                ))
            }
            Some(name) => {
                return Err(format!(
                    "{} is not a HOST orchestrator of the program (those are: {})",
                    pld_ir::print::symbol_ref(name),
                    list(&hosts)
                ))
            }
            None => match hosts.as_slice() {
                [only] => only.clone(),
                [] => return Err("the program has no HOST orchestrator".into()),
                many => {
                    return Err(format!(
                        "the program has several HOST orchestrators ({}); pick one with --entry",
                        list(many)
                    ))
                }
            },
        };
        self.aiv_cores = module
            .as_operation()
            .attribute("pld.aiv_core_count")
            .ok()
            .and_then(pld_ir::attr::int)
            .and_then(|c| i32::try_from(c).ok())
            .unwrap_or(DEFAULT_AIV_CORES);
        self.plan = plan::plan(&module, &entry, world).map_err(|r| match r.location {
            location if location.is_empty() => r.message,
            location => format!("{location}: {}", r.message),
        })?;
        self.entry = entry;
        self.buffers = self.describe_buffers()?;
        self.check_shapes()
    }

    /// Every call's operands against the size of its comm domain, before
    /// anything runs (a signal sized for other rank counts would put
    /// credits outside its buffer), and against the other members' (see
    /// [`members`]).
    fn check_shapes(&self) -> Result<(), String> {
        use crate::program::shapes::Rail;
        for task in self.plan.tasks.iter().flatten() {
            let (info, domain, location, rail) = match task {
                Task::Builtin(b) => (
                    builtin_collective(b).0,
                    b.domain,
                    &b.location,
                    Rail::Builtin,
                ),
                Task::Kernel(k) => {
                    let Some(info) = self.program.kernel(&k.kernel) else {
                        continue;
                    };
                    if let Some(called) = &info.called_collective {
                        // Its signals are not found (they were filled as
                        // data) nor its call checked: the run deadlocked.
                        return Err(format!(
                            "{}: the task @{} calls {called}: pld-run runs the collectives of \
                             the kernels a CHIP orchestrator calls; call the kernel that \
                             holds it from the CHIP orchestrator, or write the collective in @{} \
                             itself",
                            k.location, k.kernel, k.kernel
                        ));
                    }
                    let tensors = tensors_of(k);
                    self.one_domain_per_collective(info, &tensors)?;
                    self.kernel_shapes(info, &tensors)?;
                    continue;
                }
            };
            let ranks = self.plan.domains[domain].devices.len();
            // (Its errors carry the collective's own location.)
            crate::program::shapes::check(&info, ranks, rail)?;
            if let Task::Builtin(b) = task {
                self.check_launch(b, ranks)
                    .and_then(|()| check_distinct(b))
                    .map_err(|m| format!("{location}: {m}"))?;
            }
        }
        self.check_call_members()
    }

    /// Each collective of a kernel call against the size of its own comm
    /// domain, its operands' (a kernel may hold collectives of two domains:
    /// all were sized by its first parameter's). `tensors` are the call's
    /// tensor arguments, the kernel's parameters in order.
    fn kernel_shapes(&self, info: &KernelInfo, tensors: &[&TensorRef]) -> Result<(), String> {
        use crate::program::shapes::{check_one, Rail};
        let aligned = tensors.len() == info.params.len();
        for collective in &info.collectives {
            let operand = collective.operands.iter().flatten().next();
            let own = operand.filter(|_| aligned).and_then(|&p| tensors.get(p));
            let Some(domain) = own.or(tensors.first()).map(|t| t.domain) else {
                continue;
            };
            let ranks = self.plan.domains[domain].devices.len();
            check_one(info, collective, ranks, Rail::Composite)?;
        }
        Ok(())
    }

    /// Every collective of a kernel call takes views of one comm domain
    /// (its comm context is its signal's domain): a target in another
    /// domain was addressed through the wrong windows (loads at address 0,
    /// then a deadlock). `tensors` are the call's tensor arguments, the
    /// kernel's parameters in order.
    fn one_domain_per_collective(
        &self,
        info: &KernelInfo,
        tensors: &[&TensorRef],
    ) -> Result<(), String> {
        if tensors.len() != info.params.len() {
            return Ok(());
        }
        for collective in &info.collectives {
            let operands: Vec<(&str, usize)> = collective
                .operands
                .iter()
                .flatten()
                .map(|&p| (info.params[p].name.as_str(), tensors[p].domain))
                .collect();
            let Some(&(_, first)) = operands.first() else {
                continue;
            };
            if operands.iter().all(|(_, d)| *d == first) {
                continue;
            }
            let named: Vec<String> = operands
                .iter()
                .map(|(name, d)| format!("%{name} of '{}'", self.plan.domains[*d].name))
                .collect();
            return Err(format!(
                "{}: {} takes views of different comm domains ({}); a collective runs in one",
                collective.location,
                collective.op(),
                named.join(", ")
            ));
        }
        Ok(())
    }

    /// A builtin's launch, as its entry will see it: `core_num` in range,
    /// the blocks that start together within the device's AIV cores, and
    /// an all_to_all_v signal with a lane per block. The entry would stop
    /// the rank with a fatal error; refused here, nothing starts.
    fn check_launch(&self, task: &BuiltinTask, ranks: usize) -> Result<(), String> {
        let requested = task.launch.or_else(|| {
            task.scalars.iter().find_map(|s| match s {
                BuiltinScalar::CoreNum(v) => Some(*v),
                _ => None,
            })
        });
        ring_divides(task, ranks)?;
        let Some(requested) = requested else {
            return Ok(());
        };
        let (op, kind) = (task.collective.op(), task.collective.kind);
        // The exchanges address one signal lane per launched block.
        let lanes = kind.facts().core_num == CoreNum::Operand;
        if !(1..=pld_dialect::launch::MAX_CORE_NUM).contains(&requested) {
            return Err(format!(
                "{op} has core_num = {requested}; the builtin entry takes 1 to {}",
                pld_dialect::launch::MAX_CORE_NUM
            ));
        }
        let blocks = kind
            .launched_blocks(task.collective.mode, ranks as i64, requested)
            .map_err(|e| format!("{op}: {e}"))?;
        if blocks > i64::from(self.aiv_cores) {
            return Err(format!(
                "{op} launches {blocks} AIV blocks that must start together, but the device \
                 has {} AIV cores (pld.aiv_core_count); lower its core_num",
                self.aiv_cores
            ));
        }
        let signal = task
            .collective
            .at(Role::Signal)
            .and_then(|i| task.tensors.get(i));
        if let (true, Some(signal)) = (lanes, signal) {
            let stride = signal.shape.get(1).copied();
            if let Some(stride) = stride.filter(|s| (*s as i64) < blocks) {
                return Err(format!(
                    "the signal of {op} ({}) has {} per rank, fewer than the {blocks} blocks \
                     it launches (core_num = {requested} on {})",
                    signal.buffer,
                    pld_ir::diag::count(stride, "lane"),
                    pld_ir::diag::count(ranks, "rank")
                ));
            }
        }
        Ok(())
    }

    /// The window buffers the tasks use, with a view of each.
    fn describe_buffers(&self) -> Result<Vec<Buffer>, String> {
        let mut buffers: Vec<Buffer> = Vec::new();
        let mut note = |tensor: &TensorRef, signal: bool| match buffers
            .iter_mut()
            .find(|b| b.domain == tensor.domain && b.name == tensor.buffer)
        {
            Some(b) => b.signal |= signal,
            None => buffers.push(Buffer {
                domain: tensor.domain,
                name: tensor.buffer.clone(),
                view: tensor.whole(),
                signal,
            }),
        };
        for task in self.plan.tasks.iter().flatten() {
            match task {
                Task::Builtin(b) => {
                    let signal = b.collective.at(Role::Signal);
                    for (i, t) in b.tensors.iter().enumerate() {
                        note(t, Some(i) == signal);
                    }
                }
                Task::Kernel(k) => {
                    let info = self.program.kernel(&k.kernel);
                    for (i, t) in tensors_of(k).into_iter().enumerate() {
                        let signal = info.is_some_and(|info| info.signals.contains(&i));
                        note(t, signal);
                    }
                }
            }
        }
        Ok(buffers)
    }

    /// Runs the program. `init(buffer, device)` gives a buffer's initial
    /// bytes on a device (of the size of the buffer's view). With `check`
    /// every collective's operands are snapshotted and compared with the
    /// golden.
    pub fn execute(
        &self,
        deadline: Duration,
        trace: bool,
        check: bool,
        init: impl Fn(&Buffer, usize) -> Vec<u8> + Sync,
    ) -> Result<ProgramOutcome, String> {
        self.execute_with(deadline, trace, check, None, init, || ())
    }

    /// `execute`, calling `checking()` as the comparison with the goldens
    /// begins and dropping what it returns as it ends (`pld-run`'s
    /// progress line of the check).
    pub fn execute_announced<G>(
        &self,
        deadline: Duration,
        trace: bool,
        check: bool,
        init: impl Fn(&Buffer, usize) -> Vec<u8> + Sync,
        checking: impl FnOnce() -> G,
    ) -> Result<ProgramOutcome, String> {
        self.execute_with(deadline, trace, check, None, init, checking)
    }

    /// `execute`, under the explorer's `schedule` when given
    /// (`Run::explore`).
    pub fn execute_explored(
        &self,
        deadline: Duration,
        trace: bool,
        check: bool,
        schedule: Option<crate::explore::Schedule>,
        init: impl Fn(&Buffer, usize) -> Vec<u8> + Sync,
    ) -> Result<ProgramOutcome, String> {
        self.execute_with(deadline, trace, check, schedule, init, || ())
    }

    fn execute_with<G>(
        &self,
        deadline: Duration,
        trace: bool,
        check: bool,
        schedule: Option<crate::explore::Schedule>,
        init: impl Fn(&Buffer, usize) -> Vec<u8> + Sync,
        checking: impl FnOnce() -> G,
    ) -> Result<ProgramOutcome, String> {
        let (bases, total) = self.layout();
        let transport = crate::runtime::transport::current();
        let memory = CommDomain::over(
            transport,
            self.plan.world,
            total.max(64),
            Some(self.program.spare()),
        )
        .map_err(|e| e.to_string())?;
        let contexts = self.contexts(&memory, &bases);
        self.fill(&memory, &bases, init)?;
        let (kernels, variants) = self.entries()?;
        // The rank threads see the plan, not the program (whose compiled
        // code stays with this thread; they get its entry points).
        let devices = Devices {
            plan: &self.plan,
            memory: &memory,
            bases: &bases,
            contexts: &contexts,
            kernels: &kernels,
            variants: &variants,
            aiv_cores: self.aiv_cores,
            check,
        };
        // Snapshots: `[device][task] = (before, after)` per tensor operand.
        let snapshots: Vec<Mutex<Vec<Option<Snapshot>>>> = (0..self.plan.world)
            .map(|_| Mutex::new(Vec::new()))
            .collect();
        // The timeline names window bytes by buffer and element (the
        // buffers' extents, taken here: the rank threads do not see the
        // program).
        let extents: Vec<(std::ops::Range<usize>, &Buffer)> = self
            .buffers
            .iter()
            .map(|b| {
                let start = bases[b.domain] + b.view.offset;
                (start..start + b.view.bytes(), b)
            })
            .collect();
        let names = |_window: usize, offset: usize| {
            extents.iter().find_map(|(range, b)| {
                range.contains(&offset).then(|| {
                    let element = (offset - range.start) / b.view.dtype.bytes();
                    format!("{} {}", b.name, index_of(element, &b.view.shape))
                })
            })
        };
        let outcome = Run::new(&memory, deadline)
            .traced(trace)
            .explore(schedule)
            .named(Some(&names))
            .execute(&format!("@{}", self.entry), |env| {
                *snapshots[env.rank].lock().unwrap() = devices.run(env.rank);
            });
        let snapshots: Vec<Vec<Option<Snapshot>>> = snapshots
            .into_iter()
            .map(|m| m.into_inner().unwrap())
            .collect();
        let (calls, check_time) =
            self.checked_calls(&outcome, snapshots, (check, checking), &memory)?;
        // Process 0 reads every window (through MPI where not mapped); the
        // others wait for it in the domain's collective teardown.
        let reporting = crate::program::processes::reporting();
        Ok(ProgramOutcome {
            outcome,
            calls,
            leaks: match reporting {
                true => self.leaks(&memory, &bases),
                false => Vec::new(),
            },
            round_trips: self.plan.round_trips.clone(),
            final_bytes: match reporting {
                true => self.final_bytes(&memory, &bases),
                false => Vec::new(),
            },
            check_time,
        })
    }

    /// Every call's report after a run (none after a deadlock or an
    /// interruption), with the goldens compared when `check` (announced by
    /// `checking` first), and how long that took. Under MPI every process
    /// gets here with the same outcome (merged by the run), so all of them
    /// exchange their snapshots and verdicts, or none.
    fn checked_calls<G>(
        &self,
        outcome: &Outcome,
        snapshots: Vec<Vec<Option<Snapshot>>>,
        (check, checking): (bool, impl FnOnce() -> G),
        memory: &CommDomain,
    ) -> Result<(Vec<CallReport>, Duration), String> {
        let checked = Instant::now();
        let calls = if outcome.deadlock.is_none() && !outcome.interrupted {
            let _announced = check.then(checking);
            let snapshots = processes::share_snapshots(snapshots, memory.local())?;
            processes::merge_checks(self.reports(&snapshots, check, memory.local()))?
        } else {
            Vec::new()
        };
        let check_time = match check {
            true => checked.elapsed(),
            false => Duration::ZERO,
        };
        Ok((calls, check_time))
    }

    /// Writes every buffer's initial bytes, `init(buffer, device)`, into
    /// the windows of its comm domain's devices; the devices in parallel.
    fn fill(
        &self,
        memory: &CommDomain,
        bases: &[usize],
        init: impl Fn(&Buffer, usize) -> Vec<u8> + Sync,
    ) -> Result<(), String> {
        // The plan and the buffers, not the program: its compiled code
        // stays with this thread.
        let (plan, buffers) = (&self.plan, &self.buffers);
        let bytes = plan.world * buffers.iter().map(|b| b.view.bytes()).sum::<usize>();
        let local = memory.local();
        crate::program::parallel::map(plan.world, bytes, |device| {
            if !local.contains(&device) {
                return Ok(()); // another process's device (MPI)
            }
            for buffer in buffers.iter().filter(|b| b.held_on(plan, device)) {
                let bytes = init(buffer, device);
                if bytes.len() != buffer.view.bytes() {
                    return Err(format!(
                        "the input of '{}' on device {device} has {} bytes, the buffer's view {}",
                        buffer.name,
                        bytes.len(),
                        buffer.view.bytes()
                    ));
                }
                memory
                    .window(device)
                    .write(bases[buffer.domain] + buffer.view.offset, &bytes);
            }
            Ok(())
        })
        .into_iter()
        .collect()
    }

    /// The compiled kernels and builtins the plan calls, looked up once.
    #[allow(clippy::type_complexity)]
    fn entries(
        &self,
    ) -> Result<
        (
            HashMap<String, Kernel<'_>>,
            HashMap<String, builtins::Compiled>,
        ),
        String,
    > {
        let mut kernels = HashMap::new();
        let mut variants = HashMap::new();
        for task in self.plan.tasks.iter().flatten() {
            match task {
                Task::Kernel(k) => {
                    let entry = self
                        .program
                        .entry(&k.kernel)
                        .ok_or_else(|| format!("@{} was not compiled", k.kernel))?;
                    kernels.insert(k.kernel.clone(), entry);
                }
                Task::Builtin(b) => {
                    let compiled = builtins::find(&b.variant).ok_or_else(|| {
                        format!("{}: no compiled builtin kernel {}", b.location, b.variant)
                    })?;
                    variants.insert(b.variant.clone(), compiled);
                }
            }
        }
        Ok((kernels, variants))
    }

    /// The bytes the report reads after a run ([`Self::final_bytes`]):
    /// every buffer's view on every device of its domain (process 0 reads
    /// them all, under MPI too).
    fn final_read_bytes(&self) -> usize {
        self.buffers
            .iter()
            .map(|b| {
                let devices = (0..self.plan.world)
                    .filter(|d| self.plan.domains[b.domain].rank_of(*d).is_some())
                    .count();
                b.view.bytes().saturating_mul(devices)
            })
            .fold(0, usize::saturating_add)
    }

    /// The bytes `--check` holds besides the run's: every task's tensor
    /// operands before and after it on every device (the snapshots, which
    /// process 0 compares after the run), and room for one call's goldens
    /// (six times the largest operand: its folds in several orders and the
    /// copies compared; measured: 5.4 at 64 MiB, 4 calls on 2 devices).
    fn check_bytes(&self) -> usize {
        let operands = self
            .plan
            .tasks
            .iter()
            .flatten()
            .flat_map(|task| match task {
                Task::Kernel(k) => tensors_of(k),
                Task::Builtin(b) => b.tensors.iter().collect(),
            });
        let (total, largest) = operands.fold((0usize, 0usize), |(total, largest), t| {
            (total.saturating_add(t.bytes()), largest.max(t.bytes()))
        });
        total
            .saturating_mul(2)
            .saturating_add(largest.saturating_mul(6))
    }

    /// Refuses a run of the program that the process cannot hold, before
    /// anything is allocated, as pld-run, the C API and the Python package
    /// all refuse it: the inputs and windows of the `held` devices this
    /// process runs (under MPI its own one), what the report reads of
    /// every device after the run and, with `check`, every task's
    /// snapshots and one call's goldens ([`Self::check_bytes`]). The
    /// message starts with `@entry on N devices (...)`.
    pub fn check_memory(&self, held: usize, check: bool) -> Result<(), String> {
        let per_device: usize = self.buffers.iter().map(|b| b.view.bytes()).sum();
        let snapshots = if check { self.check_bytes() } else { 0 };
        let need = per_device
            .saturating_add(self.window_bytes())
            .saturating_mul(held)
            .saturating_add(self.final_read_bytes())
            .saturating_add(snapshots);
        memory::check(need, || {
            format!(
                "@{} on {} ({} of window buffers per device, as inputs and as read after the \
                 run, and a window of {} per device{})",
                self.entry,
                plan::devices(self.plan.world),
                pld_ir::diag::bytes_text(per_device),
                pld_ir::diag::bytes_text(self.window_bytes()),
                match check {
                    true => format!(
                        "; checking keeps every task's operands before and after it: {}",
                        pld_ir::diag::bytes_text(snapshots)
                    ),
                    false => String::new(),
                }
            )
        })
    }

    /// Every buffer's bytes on every device after a run:
    /// `[buffer][device]`, empty for a device outside the buffer's domain.
    fn final_bytes(&self, memory: &CommDomain, bases: &[usize]) -> Vec<Vec<Vec<u8>>> {
        self.buffers
            .iter()
            .map(|buffer| {
                (0..self.plan.world)
                    .map(|device| {
                        if self.plan.domains[buffer.domain].rank_of(device).is_none() {
                            return Vec::new();
                        }
                        let mut bytes = vec![0; buffer.view.bytes()];
                        memory
                            .window(device)
                            .read(bases[buffer.domain] + buffer.view.offset, &mut bytes);
                        bytes
                    })
                    .collect()
            })
            .collect()
    }

    /// The bytes of one device's window: every comm domain's, each at its
    /// own page-aligned base (what a run maps per device, whatever its
    /// views use of it).
    pub fn window_bytes(&self) -> usize {
        self.layout().1
    }

    /// Where every comm domain starts in a device's window (each at its
    /// own page-aligned base), and the window's size.
    fn layout(&self) -> (Vec<usize>, usize) {
        let mut bases = Vec::new();
        let mut total = 0usize;
        for domain in &self.plan.domains {
            bases.push(total);
            total += domain.window_bytes.div_ceil(4096) * 4096;
        }
        (bases, total)
    }

    /// The buffer and element a byte offset in a device's window falls
    /// in (as a deadlock report gives a waited-on cell): the index in
    /// [`ProgramRun::buffers`] and the element of the buffer's view.
    pub fn cell_at(&self, offset: usize) -> Option<(usize, usize)> {
        let (i, start) = self.buffer_at(offset)?;
        Some((i, (offset - start) / self.buffers[i].view.dtype.bytes()))
    }

    /// The buffer holding window byte `offset` and the byte it starts at.
    fn buffer_at(&self, offset: usize) -> Option<(usize, usize)> {
        let (bases, _) = self.layout();
        self.buffers.iter().enumerate().find_map(|(i, b)| {
            let start = bases[b.domain] + b.view.offset;
            (start..start + b.view.bytes())
                .contains(&offset)
                .then_some((i, start))
        })
    }

    /// Window bytes `range` as reports name them: the buffer that holds its
    /// first byte and the elements it touches, `data [0, 0]..[0, 63]`.
    pub fn name_bytes(&self, range: &std::ops::Range<usize>) -> Option<String> {
        let (i, start) = self.buffer_at(range.start)?;
        let view = &self.buffers[i].view;
        let span = crate::program::model::element_span(
            range,
            (start, view.bytes()),
            view.dtype.bytes(),
            &view.shape,
        );
        Some(format!("{} {span}", self.buffers[i].name))
    }

    /// The collectives whose signal views `buffer` (an index in
    /// [`ProgramRun::buffers`]), as reports name them: `pld.tensor_barrier
    /// in @kernel at file:line:col` for one inside a kernel,
    /// `pld.tensor_allreduce at file:line:col` for a HOST one; each once.
    pub fn signal_users(&self, buffer: usize) -> Vec<String> {
        let Some(buffer) = self.buffers.get(buffer) else {
            return Vec::new();
        };
        let views = |t: &TensorRef| t.domain == buffer.domain && t.buffer == buffer.name;
        let mut users: Vec<String> = Vec::new();
        for task in self.plan.tasks.iter().flatten() {
            let found: Vec<String> = match task {
                Task::Builtin(b) => b
                    .collective
                    .at(Role::Signal)
                    .and_then(|i| b.tensors.get(i))
                    .filter(|t| views(t))
                    .map(|_| format!("{} at {}", b.collective.op(), b.location))
                    .into_iter()
                    .collect(),
                Task::Kernel(k) => {
                    let Some(info) = self.program.kernel(&k.kernel) else {
                        continue;
                    };
                    let tensors = tensors_of(k);
                    info.collectives
                        .iter()
                        .filter(|c| {
                            c.at(Role::Signal)
                                .and_then(|i| tensors.get(i))
                                .is_some_and(|t| views(t))
                        })
                        .map(|c| format!("{} in @{} at {}", c.op(), k.kernel, c.location))
                        .collect()
                }
            };
            for user in found {
                if !users.contains(&user) {
                    users.push(user);
                }
            }
        }
        users
    }

    /// Every domain's CommContexts: `contexts[domain][domain rank]`, each
    /// naming the domain's windows (its part of every member's window).
    fn contexts(&self, memory: &CommDomain, bases: &[usize]) -> Vec<Vec<PldCommContext>> {
        self.plan
            .domains
            .iter()
            .zip(bases)
            .map(|(domain, base)| {
                (0..domain.devices.len())
                    .map(|rank| {
                        let (workspace, workspace_bytes) = crate::runtime::domain::workspace();
                        let mut ctx = PldCommContext {
                            workSpace: workspace,
                            workSpaceSize: workspace_bytes,
                            rankId: rank as u32,
                            rankNum: domain.devices.len() as u32,
                            winSize: domain.window_bytes as u64,
                            ..Default::default()
                        };
                        for (r, device) in domain.devices.iter().enumerate() {
                            let address = memory.window(*device).base() as u64 + *base as u64;
                            ctx.windowsIn[r] = address;
                            ctx.windowsOut[r] = address;
                        }
                        ctx
                    })
                    .collect()
            })
            .collect()
    }

    /// The program's calls, in program order: the tasks that carry out one
    /// call on the devices of its comm domain. A device's tasks on a domain
    /// are matched with the other members' by where they come from (the
    /// collective's or the kernel call's source location) and how many
    /// tasks from there the device ran before on that domain: domains over
    /// other devices interleave their own tasks. When that leaves a call
    /// without some member, and matching each device's k-th collective on
    /// a domain with the others' k-th completes every call with one kind of
    /// collective, the module was already converted, and no two devices'
    /// tasks share the place of a call left incomplete, the calls are
    /// those: a module converted without its source's locations has one
    /// dispatch per device, each on a line of its own.
    fn calls(&self) -> Vec<Call> {
        // Every collective call has all its members (other tasks may run
        // on some devices of a domain only).
        let whole = |c: &Call| {
            let (device, index) = c.first;
            self.collective_kind(&self.plan.tasks[device][index])
                .is_none()
                || c.tasks.iter().all(Option::is_some)
        };
        let complete = |calls: &[Call]| calls.iter().all(whole);
        let mut placed = HashMap::new();
        let by_place = self.grouped(|device, domain, location, _| {
            let count = placed.entry((device, domain, location)).or_insert(0);
            *count += 1;
            Some((domain, location, *count))
        });
        // Order matches only a converted module's calls left without
        // members because each device's tasks come from places of their
        // own: in a source with its locations (and a converted one with
        // two members at the place of an incomplete call) different places
        // (two kernels called on the even and the odd devices) are
        // different calls, said as such.
        let one_device_each = by_place
            .iter()
            .filter(|c| !whole(c))
            .all(|c| c.tasks.iter().filter(|t| t.is_some()).count() <= 1);
        if complete(&by_place) || !self.program.converted || !one_device_each {
            return by_place;
        }
        let mut ordered = HashMap::new();
        let by_order = self.grouped(|device, domain, _, task| {
            self.collective_kind(task)?;
            let count = ordered.entry((device, domain)).or_insert(0);
            *count += 1;
            Some((domain, "", *count))
        });
        let one_kind = |call: &Call| {
            let kinds: Vec<_> = (call.tasks.iter().enumerate())
                .filter_map(|(rank, t)| {
                    let device = self.plan.domains[call.domain].devices[rank];
                    self.collective_kind(&self.plan.tasks[device][(*t)?])
                })
                .collect();
            kinds.windows(2).all(|w| w[0] == w[1])
        };
        match complete(&by_order) && by_order.iter().all(one_kind) {
            true => by_order,
            false => by_place,
        }
    }

    /// The tasks in program order grouped into calls by `key` (`(device,
    /// domain, location, task)` to the call's key; `None` leaves the task
    /// out).
    fn grouped<'p>(
        &'p self,
        mut key: impl FnMut(usize, usize, &'p str, &'p Task) -> Option<(usize, &'p str, usize)>,
    ) -> Vec<Call> {
        let mut calls: Vec<Call> = Vec::new();
        let mut found: HashMap<(usize, &str, usize), usize> = HashMap::new();
        for &(device, index) in &self.plan.order {
            let task = &self.plan.tasks[device][index];
            let domain = self.domain_of(task);
            let location = match task {
                Task::Builtin(b) => b.location.as_str(),
                Task::Kernel(k) => k.location.as_str(),
            };
            let Some(id) = key(device, domain, location, task) else {
                continue;
            };
            let members = &self.plan.domains[domain].devices;
            let call = *found.entry(id).or_insert_with(|| {
                calls.push(Call {
                    domain,
                    first: (device, index),
                    tasks: vec![None; members.len()],
                });
                calls.len() - 1
            });
            if let Some(rank) = self.plan.domains[domain].rank_of(device) {
                calls[call].tasks[rank] = Some(index);
            }
        }
        calls
    }

    /// The kind of collective a task carries out, if any.
    fn collective_kind(&self, task: &Task) -> Option<CollectiveKind> {
        match task {
            Task::Builtin(b) => Some(b.collective.kind),
            Task::Kernel(k) => Some(self.program.kernel(&k.kernel)?.collectives.first()?.kind),
        }
    }

    /// The collective calls with their checks.
    /// `local`: the devices this process checks (all of them with
    /// threads; its own under MPI, the others' `after` being empty).
    fn reports(
        &self,
        snapshots: &[Vec<Option<Snapshot>>],
        check: bool,
        local: std::ops::Range<usize>,
    ) -> Vec<CallReport> {
        let mut reports = Vec::new();
        for call in self.calls() {
            let (device, index) = call.first;
            let task = &self.plan.tasks[device][index];
            let spec = match task {
                Task::Builtin(b) => Some(builtin_collective(b)),
                Task::Kernel(k) => self.kernel_collective(k),
            };
            let Some((info, report)) = spec else {
                continue;
            };
            let members = &self.plan.domains[call.domain].devices;
            // The snapshot of domain rank `rank`'s task of this call.
            let snapshot = |rank: usize| -> Option<&Snapshot> {
                let index = call.tasks[rank]?;
                snapshots.get(members[rank])?.get(index)?.as_ref()
            };
            let taken: Vec<Option<&Snapshot>> = (0..members.len()).map(snapshot).collect();
            let time = taken
                .iter()
                .flatten()
                .map(|s| s.time)
                .max()
                .unwrap_or_default();
            let check = if check {
                let mine = |rank: usize| local.contains(&members[rank]);
                check_call(&info, &taken, &mine).map_err(|why| self.made_elsewhere(&call, why))
            } else {
                Err(Unchecked::NotAsked)
            };
            let tensors = match task {
                Task::Builtin(b) => b.tensors.iter().collect(),
                Task::Kernel(k) => tensors_of(k),
            };
            let target = info
                .collectives
                .first()
                .and_then(|c| c.at(Role::Target))
                .and_then(|t| tensors.get(t))
                .map(|t| (t.buffer.clone(), members.clone()));
            let overlapped_by = self.overlapped_by(&call, snapshots);
            let first = CallReport {
                time,
                check,
                target,
                ranks: members.len(),
                devices: members.clone(),
                overlapped_by,
                ..report
            };
            if let Task::Kernel(k) = task {
                let more = self.later_collectives(k, &info, &first);
                reports.push(first);
                reports.extend(more);
            } else {
                reports.push(first);
            }
        }
        reports
    }

    /// `why` a call cannot be compared, with where its missing members
    /// made it when they ran the same kernel (or builtin) of its comm
    /// domain from another place: "not every member ran this call" alone
    /// read as if they had skipped it (progs26 MED-2).
    fn made_elsewhere(&self, call: &Call, why: Unchecked) -> Unchecked {
        let Unchecked::Cannot(reason) = &why else {
            return why;
        };
        let (device, index) = call.first;
        // The same kernel (or builtin) called elsewhere, or another kernel
        // holding a collective of this call's comm domain (mpi27 H1: the
        // members ran one all-device allreduce in two kernels).
        let same = |task: &Task| match (&self.plan.tasks[device][index], task) {
            (Task::Kernel(a), Task::Kernel(b)) if a.kernel == b.kernel => {
                a.location != b.location && self.domain_of(task) == call.domain
            }
            (Task::Kernel(_), Task::Kernel(b)) => self.holds_collective_of(b, call.domain),
            (Task::Builtin(a), Task::Builtin(b)) => {
                a.collective.kind == b.collective.kind
                    && a.location != b.location
                    && b.domain == call.domain
            }
            _ => false,
        };
        let members = &self.plan.domains[call.domain].devices;
        let mut places: Vec<(usize, &str)> = Vec::new();
        for (rank, _) in call.tasks.iter().enumerate().filter(|(_, t)| t.is_none()) {
            let other = self.plan.tasks[members[rank]].iter().find(|t| same(t));
            places.extend(other.map(|t| (members[rank], location_of(t))));
        }
        let Some(&(_, place)) = places.first() else {
            return why;
        };
        let devices: Vec<String> = places.iter().map(|(d, _)| d.to_string()).collect();
        Unchecked::Cannot(format!(
            "{reason} here: device{} {} made it from another place ({place}); --check compares \
             a call whose members all make it from one place",
            if devices.len() == 1 { "" } else { "s" },
            devices.join(", ")
        ))
    }

    /// Whether the kernel `task` runs holds a collective of comm domain
    /// `domain`.
    fn holds_collective_of(&self, task: &KernelTask, domain: usize) -> bool {
        let Some(info) = self.program.kernel(&task.kernel) else {
            return false;
        };
        (info.collectives.iter()).any(|c| collective_domain(task, info, c) == Some(domain))
    }

    /// The collectives of a kernel call after its first, each a call of
    /// its own in the report (they were not reported at all): the task's
    /// time and check (`--check` refuses a kernel of several), each its
    /// own collective's result, comm domain and ranks.
    fn later_collectives(
        &self,
        task: &KernelTask,
        info: &KernelInfo,
        first: &CallReport,
    ) -> Vec<CallReport> {
        let tensors = tensors_of(task);
        let aligned = tensors.len() == info.params.len();
        (info.collectives.iter().skip(1))
            .map(|collective| {
                let report = call_report(collective, info, &task.location);
                let members = collective_domain(task, info, collective)
                    .map(|domain| self.plan.domains[domain].devices.clone());
                let target = collective
                    .at(Role::Target)
                    .filter(|_| aligned)
                    .and_then(|t| tensors.get(t))
                    .zip(members.clone())
                    .map(|(t, members)| (t.buffer.clone(), members));
                // A kernel of several collectives is never compared.
                let check = match (&first.check, collective.kind.facts().numeric) {
                    (Err(Unchecked::NotAsked), _) => Err(Unchecked::NotAsked),
                    (_, false) => Err(Unchecked::NoNumericResult),
                    (_, true) => Err(Unchecked::Cannot(format!(
                        "@{} has {} collectives; --check needs exactly one",
                        task.kernel,
                        info.collectives.len()
                    ))),
                };
                let devices = members.unwrap_or_else(|| first.devices.clone());
                CallReport {
                    kernel: first.kernel.clone(),
                    time: first.time,
                    check,
                    target,
                    ranks: devices.len(),
                    devices,
                    ..report
                }
            })
            .collect()
    }

    /// A task of another device, not of `call`, that ran while a member of
    /// `call` read its operands or ran its task of it, said with what
    /// orders it (see [`Overlap`]): one that comes before the call on its
    /// device first, then one after it, then one of a device outside the
    /// call's comm domain. A HOST barrier writes only its signal, and a
    /// task whose views share no byte with the call's cannot have touched
    /// its operands: never named.
    fn overlapped_by(&self, call: &Call, snapshots: &[Vec<Option<Snapshot>>]) -> Option<String> {
        let members = &self.plan.domains[call.domain].devices;
        let (first_device, first_index) = call.first;
        let called = &self.plan.tasks[first_device][first_index];
        // Where `device`'s task `index` stands to the call on its device.
        let order = |device: usize, index: usize| match members.iter().position(|&m| m == device) {
            Some(rank) => match call.tasks[rank] {
                Some(own) if index < own => Some(Overlap::Before),
                Some(own) if index > own => Some(Overlap::After),
                Some(_) => None,
                None => Some(Overlap::Outside),
            },
            None => Some(Overlap::Outside),
        };
        let spans: Vec<(usize, (Instant, Instant))> = members
            .iter()
            .zip(&call.tasks)
            .filter_map(|(&m, task)| Some((m, snapshots.get(m)?.get((*task)?)?.as_ref()?.span?)))
            .collect();
        let mut found = Vec::new();
        for &(member, (begin, end)) in &spans {
            for (device, tasks) in snapshots.iter().enumerate().filter(|(d, _)| *d != member) {
                for (index, snapshot) in tasks.iter().enumerate() {
                    let ran = snapshot
                        .as_ref()
                        .and_then(|s| s.span)
                        .is_some_and(|(from, to)| from < end && begin < to);
                    let task = &self.plan.tasks[device][index];
                    let barrier = matches!(task, Task::Builtin(b) if b.collective.kind == CollectiveKind::Barrier);
                    let apart = !shares_bytes(task, called);
                    if let (true, false, false, Some(overlap)) =
                        (ran, barrier, apart, order(device, index))
                    {
                        found.push((overlap, member, device, index));
                    }
                }
            }
        }
        let (overlap, member, device, index) = found.into_iter().min_by_key(|f| f.0)?;
        let what = match &self.plan.tasks[device][index] {
            Task::Kernel(k) => format!("@{} (at {})", k.kernel, k.location),
            Task::Builtin(b) => format!("{} (at {})", b.collective.kind.op_name(), b.location),
        };
        Some(overlap.say(&format!("device {device}'s {what}"), member))
    }

    /// The collective inside a kernel task, as the golden check sees it
    /// (the first, for a kernel holding several: the check refuses those).
    fn kernel_collective(&self, task: &KernelTask) -> Option<(KernelInfo, CallReport)> {
        let info = self.program.kernel(&task.kernel)?;
        let collective = info.collectives.first()?;
        let mut report = call_report(collective, info, &task.location);
        report.kernel = Some(task.kernel.clone());
        Some((info.clone(), report))
    }

    /// Signal cells left non-zero after the run.
    fn leaks(&self, memory: &CommDomain, bases: &[usize]) -> Vec<(usize, CellLeak)> {
        let mut leaks = Vec::new();
        for (number, buffer) in self.buffers.iter().enumerate() {
            if !buffer.signal {
                continue;
            }
            let domain = &self.plan.domains[buffer.domain];
            for device in &domain.devices {
                let window = memory.window(*device);
                for index in 0..buffer.view.elements() {
                    let offset = bases[buffer.domain] + buffer.view.offset + 4 * index;
                    // A cell of another process's window not mapped here
                    // (`mpi-rma`) is read through MPI.
                    let value = match window.cell(offset) {
                        Some(cell) => cell.load(std::sync::atomic::Ordering::Acquire),
                        None => {
                            let mut bytes = [0u8; 4];
                            window.read(offset, &mut bytes);
                            i32::from_ne_bytes(bytes)
                        }
                    };
                    if value != 0 {
                        let leak = CellLeak {
                            rank: *device,
                            index,
                            value,
                        };
                        leaks.push((number, leak));
                    }
                }
            }
        }
        leaks
    }
}

/// What the rank threads of a program run need: the plan, the devices'
/// memory and contexts, and the compiled entries.
struct Devices<'r> {
    plan: &'r Plan,
    memory: &'r CommDomain,
    /// Where each comm domain starts in a window.
    bases: &'r [usize],
    contexts: &'r [Vec<PldCommContext>],
    kernels: &'r HashMap<String, Kernel<'r>>,
    variants: &'r HashMap<String, builtins::Compiled>,
    aiv_cores: i32,
    /// Snapshot every task's operands before and after it.
    check: bool,
}

impl Devices<'_> {
    /// Runs `device`'s work, in order, on the calling rank thread; its
    /// tasks' snapshots (operands only with `check`) and times, one per
    /// task (`None` for a task that did not run).
    fn run(&self, device: usize) -> Vec<Option<Snapshot>> {
        let window = self.memory.window(device);
        let read = |t: &TensorRef| {
            let mut bytes = vec![0; t.bytes()];
            window.read(self.bases[t.domain] + t.offset, &mut bytes);
            bytes
        };
        let mut mine = Vec::new();
        for task in &self.plan.tasks[device] {
            if crate::runtime::run::stop_requested() {
                break; // Ctrl-C: the rest of the work is not started
            }
            let operands: Vec<&TensorRef> = match task {
                Task::Kernel(k) => tensors_of(k),
                Task::Builtin(b) => b.tensors.iter().collect(),
            };
            let start = Instant::now();
            let before: Vec<Vec<u8>> = if self.check {
                operands.iter().map(|t| read(t)).collect()
            } else {
                Vec::new()
            };
            let begin = Instant::now();
            let ran = match task {
                Task::Kernel(k) => self.kernel(device, k),
                Task::Builtin(b) => self.builtin(device, b),
            };
            if !ran {
                mine.push(None);
                continue;
            }
            crate::runtime::run::end_task();
            let time = begin.elapsed();
            crate::runtime::run::with_current(|state, rank| {
                state.record(rank, "task", Some(begin), || match task {
                    Task::Kernel(k) => {
                        format!("\"kernel\": \"@{}\", \"loc\": {:?}", k.kernel, k.location)
                    }
                    Task::Builtin(b) => format!(
                        "\"builtin\": {:?}, \"op\": {:?}, \"loc\": {:?}",
                        b.variant,
                        b.collective.kind.op_name(),
                        b.location
                    ),
                })
            });
            let after = if self.check {
                operands.iter().map(|t| read(t)).collect()
            } else {
                Vec::new()
            };
            mine.push(Some(Snapshot {
                before,
                after,
                time,
                span: Some((start, Instant::now())),
            }));
        }
        mine
    }

    /// The address of a tensor in `device`'s window.
    fn address(&self, device: usize, t: &TensorRef) -> usize {
        self.memory.window(device).base() as usize + self.bases[t.domain] + t.offset
    }

    /// Calls kernel task `k` on `device`; false when it was not compiled.
    fn kernel(&self, device: usize, k: &KernelTask) -> bool {
        let Some(entry) = self.kernels.get(&k.kernel) else {
            return false;
        };
        let mut values: Vec<u64> = Vec::new();
        for arg in &k.args {
            values.push(match arg {
                Arg::Tensor(t) => self.address(device, t) as u64,
                Arg::Context(d) => context_of(self.contexts, self.plan, *d, device),
                Arg::Int(i) => *i as u64,
            });
        }
        let mut arguments: Vec<*mut ()> =
            values.iter_mut().map(|v| (v as *mut u64).cast()).collect();
        // Named with its call and dispatch: one kernel may run from several.
        crate::runtime::run::name_current_kernel(Some(format!(
            "@{} (called at {} in @{}, dispatched at {})",
            k.kernel, k.location, k.caller, k.dispatch
        )));
        // SAFETY: one pointer per kernel parameter, each to a 64-bit value:
        // an address inside this device's window (the plan checked every
        // view fits its buffer), a CommContext that outlives the run, or a
        // scalar.
        unsafe { entry.call(&mut arguments) };
        crate::runtime::run::name_current_kernel(None);
        true
    }

    /// Dispatches builtin task `b` on `device`; false when it was not
    /// compiled.
    fn builtin(&self, device: usize, b: &BuiltinTask) -> bool {
        let Some(compiled) = self.variants.get(&b.variant) else {
            return false;
        };
        let descs: Vec<TensorDesc> = b
            .tensors
            .iter()
            .filter_map(|t| {
                let shape: Vec<u32> = t.shape.iter().map(|&d| d as u32).collect();
                TensorDesc::dense(self.address(device, t) as u64, &shape, t.dtype.bytes())
            })
            .collect();
        let ranks = self.plan.domains[b.domain].devices.len() as u64;
        let scalars: Vec<u64> = b
            .scalars
            .iter()
            .map(|s| match s {
                BuiltinScalar::Ranks => ranks,
                BuiltinScalar::Context => context_of(self.contexts, self.plan, b.domain, device),
                BuiltinScalar::CoreNum(v) | BuiltinScalar::Value(v) => *v as u64,
            })
            .collect();
        let op = b.collective.kind.op_name().to_string();
        crate::runtime::run::label_current_call(Some((op, b.location.clone())));
        crate::runtime::run::name_current_kernel(Some(b.variant.clone()));
        // SAFETY: a rank thread of the run; the descriptors describe buffers
        // of this device's window.
        unsafe {
            match b.launch {
                Some(blocks) => {
                    let blocks = i32::try_from(blocks).unwrap_or(i32::MAX);
                    builtins::launch(compiled, &descs, &scalars, blocks, self.aiv_cores)
                }
                None => builtins::call(compiled, &descs, &scalars, self.aiv_cores),
            }
        };
        crate::runtime::run::label_current_call(None);
        crate::runtime::run::name_current_kernel(None);
        true
    }
}

/// A call compared with its golden, from the snapshots of its tasks on the
/// members of its comm domain (in domain rank order).
fn check_call(
    info: &KernelInfo,
    taken: &[Option<&Snapshot>],
    mine: &(dyn Fn(usize) -> bool + Sync),
) -> Result<Vec<RankCheck>, Unchecked> {
    // Only barriers: nothing to compare (a barrier beside a numeric
    // collective is a kernel of several, which the golden refuses).
    if info.collectives.iter().all(|c| !c.kind.facts().numeric) {
        return Err(Unchecked::NoNumericResult);
    }
    let gather = |after: bool| -> Option<Vec<Vec<Vec<u8>>>> {
        taken
            .iter()
            .map(|s| {
                let s = (*s)?;
                Some(if after {
                    s.after.clone()
                } else {
                    s.before.clone()
                })
            })
            .collect()
    };
    match (gather(false), gather(true)) {
        (Some(inputs), Some(outputs)) => {
            golden::check_ranks(info, &inputs, &outputs, mine).map_err(Unchecked::Cannot)
        }
        _ => Err(Unchecked::Cannot(
            "not every member of the comm domain ran this call".into(),
        )),
    }
}

/// One collective call of a program: the tasks that carry it out.
struct Call {
    domain: usize,
    /// The first task issued for it, `(device, index in its work)`.
    first: (usize, usize),
    /// `tasks[domain rank]`: that member's task (its index in the
    /// member's work), `None` when the member has none for this call.
    tasks: Vec<Option<usize>>,
}

/// What one device's task saw: its tensor operands before and after, and
/// how long it took.
struct Snapshot {
    before: Vec<Vec<u8>>,
    after: Vec<Vec<u8>>,
    time: Duration,
    /// When the task began and ended, by this process's clock (`None` for
    /// another process's device).
    span: Option<(Instant, Instant)>,
}

/// How a task that ran alongside a collective call stands to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Overlap {
    /// It comes before the call on its device (a member's).
    Before,
    /// It comes after the call on its device.
    After,
    /// Its device is outside the call's comm domain.
    Outside,
}

impl Overlap {
    /// The note on a WRONG call: `task` ran while `member` was in it.
    fn say(self, task: &str, member: usize) -> String {
        match self {
            Overlap::Before => format!(
                "{task}, before the call, was still running when device {member} began it and \
                 may have written the operands after --check read them (a pld.tensor_barrier \
                 before the call orders them)"
            ),
            Overlap::After => format!(
                "{task}, after the call, ran while device {member} was still in it and may have \
                 written the operands while the call read them (a pld.tensor_barrier after the \
                 call orders them)"
            ),
            Overlap::Outside => format!(
                "{task} ran while device {member} was in the call and may have written its \
                 operands (a pld.tensor_barrier between them orders them)"
            ),
        }
    }
}

/// A HOST ring allreduce's target holds a positive multiple of the ranks'
/// elements (each rank owns one segment): its entry refuses anything else
/// with a fatal error on every rank (`the data is not a positive multiple
/// of nranks elements`), after the run began. A dynamic signal leaves the
/// rank count to the run, so the pipeline cannot check it.
fn ring_divides(task: &BuiltinTask, ranks: usize) -> Result<(), String> {
    let collective = &task.collective;
    if collective.kind != CollectiveKind::AllReduce || collective.mode != AllReduceMode::Ring {
        return Ok(());
    }
    let Some(target) = collective
        .at(Role::Target)
        .and_then(|i| task.tensors.get(i))
    else {
        return Ok(());
    };
    let elements: usize = target.shape.iter().product();
    if elements == 0 || !elements.is_multiple_of(ranks) {
        return Err(format!(
            "{} with mode = \"ring\" needs a target of a positive multiple of the ranks' \
             elements (a segment per rank): '{}' holds {elements} on {}",
            collective.op(),
            target.buffer,
            pld_ir::diag::count(ranks, "rank")
        ));
    }
    Ok(())
}

/// No two operands of a builtin share bytes: the kernels read one while
/// peers write the other, so results would depend on timing.
fn check_distinct(task: &BuiltinTask) -> Result<(), String> {
    let span = |t: &TensorRef| (t.domain, t.offset, t.offset + t.bytes());
    for (i, a) in task.tensors.iter().enumerate() {
        for b in &task.tensors[i + 1..] {
            let ((da, sa, ea), (db, sb, eb)) = (span(a), span(b));
            if da == db && sa < eb && sb < ea && sa != ea && sb != eb {
                return Err(format!(
                    "{} takes two views of one window buffer ('{}' and '{}' overlap); its \
                     operands must be distinct buffers",
                    task.collective.op(),
                    a.buffer,
                    b.buffer
                ));
            }
        }
    }
    Ok(())
}

/// Whether two tasks' views share a byte of one comm domain's window (the
/// whole window view of a slice, as a slice's strided rows lie within it).
fn shares_bytes(a: &Task, b: &Task) -> bool {
    let views = |task: &Task| -> Vec<TensorRef> {
        let tensors = match task {
            Task::Builtin(t) => t.tensors.iter().collect(),
            Task::Kernel(k) => tensors_of(k),
        };
        tensors.into_iter().map(TensorRef::whole).collect()
    };
    let span = |t: &TensorRef| (t.domain, t.offset, t.offset + t.bytes());
    let theirs = views(b);
    views(a).iter().any(|x| {
        theirs.iter().any(|y| {
            let ((dx, sx, ex), (dy, sy, ey)) = (span(x), span(y));
            dx == dy && sx < ey && sy < ex
        })
    })
}

/// The tensor arguments of a kernel task, in parameter order.
/// Where a task was called or its collective written.
fn location_of(task: &Task) -> &str {
    match task {
        Task::Builtin(b) => &b.location,
        Task::Kernel(k) => &k.location,
    }
}

/// The comm domain of `collective` of the kernel `task` runs: its first
/// operand's view's (`None` where the task's views do not line up with the
/// kernel's parameters).
fn collective_domain(
    task: &KernelTask,
    info: &KernelInfo,
    collective: &Collective,
) -> Option<usize> {
    let tensors = tensors_of(task);
    let operand = *collective.operands.iter().flatten().next()?;
    (tensors.len() == info.params.len())
        .then(|| tensors.get(operand).map(|t| t.domain))
        .flatten()
}

fn tensors_of(task: &KernelTask) -> Vec<&TensorRef> {
    task.args
        .iter()
        .filter_map(|a| match a {
            Arg::Tensor(t) => Some(t),
            _ => None,
        })
        .collect()
}

fn context_of(contexts: &[Vec<PldCommContext>], plan: &Plan, domain: usize, device: usize) -> u64 {
    plan.domains[domain]
        .rank_of(device)
        .map_or(0, |rank| std::ptr::from_ref(&contexts[domain][rank]) as u64)
}

/// A builtin dispatch as the golden check sees it: its tensors as the
/// parameters of a kernel holding the one collective.
fn builtin_collective(task: &BuiltinTask) -> (KernelInfo, CallReport) {
    let params: Vec<Param> = task
        .tensors
        .iter()
        .map(|t| Param {
            name: t.buffer.clone(),
            distributed: true,
            shape: t.shape.clone(),
            dtype: t.dtype,
        })
        .collect();
    let collective = &task.collective;
    let signal: Vec<usize> = collective.at(Role::Signal).into_iter().collect();
    let mut cells = signal.clone();
    if collective.kind.facts().publishes_counts {
        cells.extend(collective.at(Role::RecvCounts));
    }
    let info = KernelInfo {
        name: task.variant.clone(),
        params,
        collectives: vec![collective.clone()],
        signals: signal,
        cells,
        // A builtin's only write is its collective.
        other_writes: Vec::new(),
        called_collective: None,
    };
    let report = call_report(collective, &info, &task.location);
    (info, report)
}

fn call_report(collective: &Collective, info: &KernelInfo, location: &str) -> CallReport {
    let result = collective
        .at(collective.kind.facts().alias)
        .and_then(|i| info.params.get(i));
    CallReport {
        kind: collective.kind,
        location: location.to_string(),
        kernel: None,
        site: collective.location.clone(),
        kernel_collectives: info.collectives.len(),
        dtype: result.map_or("-".into(), |p| p.dtype.name().to_string()),
        elements: result.map_or(0, Param::elements),
        reduce: collective.reduce,
        root: collective.root,
        time: Duration::ZERO,
        check: Err(Unchecked::NotAsked),
        also_written: info.other_writes.first().cloned(),
        overlapped_by: None,
        target: None,
        ranks: 0,
        devices: Vec::new(),
        mode: (collective.kind == CollectiveKind::AllReduce).then_some(collective.mode),
        origin: collective.origin,
    }
}

fn list(names: &[String]) -> String {
    names
        .iter()
        .map(|n| pld_ir::print::symbol_ref(n))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::model::Dtype;

    fn kernel(views: &[(usize, usize, usize)]) -> Task {
        let args = views
            .iter()
            .map(|&(domain, offset, elements)| {
                Arg::Tensor(TensorRef {
                    domain,
                    offset,
                    shape: vec![elements],
                    dtype: Dtype::F32,
                    buffer: "b".into(),
                    slice_of: None,
                })
            })
            .collect();
        Task::Kernel(KernelTask {
            kernel: "k".into(),
            args,
            caller: "chip".into(),
            location: "k.mlir:1:1".into(),
            dispatch: String::new(),
        })
    }

    #[test]
    fn tasks_share_bytes_of_one_domain_only() {
        // 16 f32 from byte 0 and 64: apart; from 60: one element shared.
        let call = kernel(&[(0, 0, 16)]);
        assert!(!shares_bytes(&kernel(&[(0, 64, 16)]), &call));
        assert!(shares_bytes(&kernel(&[(0, 60, 16)]), &call));
        assert!(shares_bytes(&kernel(&[(0, 64, 4), (0, 8, 1)]), &call));
        // The same offsets in another domain's window.
        assert!(!shares_bytes(&kernel(&[(1, 0, 16)]), &call));
        assert!(!shares_bytes(&kernel(&[]), &call));
    }
}
