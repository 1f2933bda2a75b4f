//! A pld program ready to simulate: its kernels' parameters read from the
//! source, the kernels compiled, and a way to run one on N ranks with
//! buffers laid out the way the compiled code expects.
//!
//! Every distributed tensor parameter gets a buffer at the same 32-byte
//! aligned offset of every rank's window; every plain tensor parameter a
//! buffer private to the rank; the CommContexts of the distributed
//! parameters follow the parameters, in order (as
//! `pld-materialize-dist-tensor-ctx` adds them).

use super::model::{index_of, location, tensor_param, Collective, KernelInfo, Param, Rail};
use crate::compiler::{Compiled, Source};
use crate::runtime::domain::{aligned, CommDomain, Spare};
use crate::runtime::run::{Outcome, Run};
use melior::ir::{
    block::BlockLike, operation::OperationLike, r#type::FunctionType, OperationRef, RegionLike,
};
use pld_dialect::collective::{CollectiveKind, Role};
use pld_dialect::enums::{AllReduceMode, PldEnum, ReduceOp};
use pld_dialect::ops::collective::mode_origin;
use pld_dialect::ops::signal::{Notify, Wait};
use pld_ir::op_name;
use pld_lowering::trace::parameter_of;
use std::sync::Mutex;
use std::time::Duration;

/// A program: the kernels of a pld module, compiled.
pub struct Program {
    pub kernels: Vec<KernelInfo>,
    /// The module after `pld-to-pto`, as text.
    pub lowered: String,
    compiled: std::rc::Rc<Compiled>,
    /// What the disk cache did for the lowered module and for its code.
    pub cache: crate::compiler::cache::Uses,
    /// How long `pld-to-pto` took (reading its result, when the disk
    /// cache had it).
    pub lower_time: Duration,
    /// How long compiling the lowered module for the simulator took (near
    /// zero when it came from the cache of this thread, short when its
    /// object came from the disk cache).
    pub compile_time: Duration,
    /// The windows of its last finished run, for its next run of the same
    /// shape (an `--iters` series, the schedules of `--explore`).
    spare: Spare,
    /// The name of its source (what locations of a module converted
    /// without them name: its own lines).
    pub source_name: String,
    /// Its source was a module already converted by `pld-to-pto`, whose
    /// HOST program may have been printed without the locations of its
    /// own source (one dispatch per device, each on a line of its own).
    pub converted: bool,
}

/// The buffers of every rank after a run.
pub struct Finished {
    pub outcome: Outcome,
    /// Window offset of each distributed parameter.
    pub offsets: Vec<Option<usize>>,
    pub domain: CommDomain,
    /// Bytes of each parameter.
    sizes: Vec<usize>,
    /// `locals[rank][param]`: the private buffers (empty for distributed
    /// parameters, which live in the windows).
    locals: Vec<Vec<Vec<u8>>>,
}

impl Finished {
    /// `buffers()[rank][param]`: every buffer's bytes after the run, read
    /// from the windows when asked (a run holds no second copy of its
    /// windows), the ranks in parallel.
    pub fn buffers(&self) -> Vec<Vec<Vec<u8>>> {
        let ranks = self.domain.ranks();
        let bytes = ranks * self.sizes.iter().sum::<usize>();
        crate::program::parallel::map(ranks, bytes, |rank| self.rank_buffers(rank))
    }

    /// `rank`'s buffers after the run, `[param]` (under MPI, a private
    /// buffer only of this process's own rank).
    pub fn rank_buffers(&self, rank: usize) -> Vec<Vec<u8>> {
        self.sizes
            .iter()
            .enumerate()
            .map(|(i, size)| match self.offsets[i] {
                Some(offset) => {
                    let mut bytes = vec![0; *size];
                    self.domain.window(rank).read(offset, &mut bytes);
                    bytes
                }
                None => self.locals[rank][i].clone(),
            })
            .collect()
    }
}

impl Program {
    /// The windows its last run left for its next (a program's runs of
    /// HOST and CHIP programs keep theirs here too).
    pub(crate) fn spare(&self) -> &Spare {
        &self.spare
    }

    /// Reads the kernels of a pld module (its device functions, with their
    /// tensor parameters) and compiles them through `pld-to-pto`.
    pub fn load(text: &str) -> Result<Self, String> {
        Self::load_named(text, "<kernel>")
    }

    /// `load` of a source named `source_name` (in the locations of the
    /// lowered module).
    pub fn load_named(text: &str, source_name: &str) -> Result<Self, String> {
        Self::load_source(Source::new(text, source_name))
    }

    /// `load` of `source`, its diagnostics quoting the lines of its file.
    pub fn load_source(source: Source) -> Result<Self, String> {
        Self::load_source_checked(source, |_| Ok(()))
    }

    /// [`Program::load_source`] that asks `check` about the module's
    /// kernels once it is lowered and described, before their code is
    /// compiled (the long part for a module of many kernels): a refusal
    /// (a kernel to choose) comes at once.
    pub fn load_source_checked(
        source: Source,
        check: impl FnOnce(&[KernelInfo]) -> Result<(), String>,
    ) -> Result<Self, String> {
        let Source { text, name, .. } = source;
        if is_converted(text) {
            return Self::converted(source);
        }
        // Lowering first: its diagnostics point at the source.
        let started = std::time::Instant::now();
        let (lowered, lowered_from) = crate::compiler::to_pto_cached(source)?;
        let lower_time = started.elapsed();
        let kernels = describe(text, name)?;
        check(&kernels)?;
        let started = std::time::Instant::now();
        let compiled = Compiled::cached(&lowered)?;
        Ok(Program {
            kernels,
            lowered,
            cache: crate::compiler::cache::Uses {
                lowered: lowered_from,
                code: compiled.cache_use(),
            },
            compiled,
            lower_time,
            compile_time: started.elapsed(),
            spare: Spare::default(),
            source_name: name.to_string(),
            converted: false,
        })
    }

    /// Loads a module already converted by `pld-to-pto` (whose kernels keep
    /// their tensor types in `pld.signature`) and compiles it. Parameters
    /// are named `argN`; the kernels have no collectives to check, but
    /// their signals are known from the signal ops.
    pub fn load_converted(text: &str, source_name: &str) -> Result<Self, String> {
        Self::converted(Source::new(text, source_name))
    }

    /// `load_converted` of `source`: verified first (docs/dialect.md 6), as
    /// a module before `pld-to-pto` is, its findings quoting its file.
    fn converted(source: Source) -> Result<Self, String> {
        let Source { text, name, file } = source;
        let context = pld_dialect::context();
        let sink = pld_ir::diag::Sink::attach(&context);
        let failed = |what: &str| {
            let diagnostics = crate::compiler::diag::render_source(&sink, name, file);
            format!("{what} failed:{diagnostics}")
        };
        let module = pld_ir::parse::parse(&context, text, name).ok_or_else(|| failed("parse"))?;
        if !pld_dialect::verify::verify_and_emit(module.as_operation()) {
            return Err(failed("verify"));
        }
        let kernels = crate::program::converted::describe(&module)?;
        let started = std::time::Instant::now();
        let compiled = Compiled::cached_named(text, name)?;
        Ok(Program {
            kernels,
            lowered: text.to_string(),
            cache: crate::compiler::cache::Uses {
                lowered: crate::compiler::cache::Use::NotNeeded,
                code: compiled.cache_use(),
            },
            compiled,
            lower_time: Duration::ZERO,
            compile_time: started.elapsed(),
            spare: Spare::default(),
            source_name: name.to_string(),
            converted: true,
        })
    }

    /// The compiled entry of kernel `name`.
    pub fn entry(&self, name: &str) -> Option<crate::compiler::Kernel<'_>> {
        self.compiled.kernel(name)
    }

    pub fn kernel(&self, name: &str) -> Option<&KernelInfo> {
        self.kernels.iter().find(|k| k.name == name)
    }

    /// Runs `kernel` on `ranks` ranks; `init(rank, param)` gives each
    /// buffer's initial bytes (of the parameter's size).
    pub fn run(
        &self,
        kernel: &str,
        ranks: usize,
        deadline: Duration,
        init: impl Fn(usize, usize) -> Vec<u8> + Sync,
    ) -> Result<Finished, String> {
        self.run_traced(kernel, ranks, deadline, false, init)
    }

    /// `run`, recording a timeline when `trace` (`Outcome::trace`).
    pub fn run_traced(
        &self,
        kernel: &str,
        ranks: usize,
        deadline: Duration,
        trace: bool,
        init: impl Fn(usize, usize) -> Vec<u8> + Sync,
    ) -> Result<Finished, String> {
        self.run_explored(kernel, ranks, deadline, trace, None, init)
    }

    /// `run_traced`, under the explorer's `schedule` when given
    /// (`Run::explore`).
    pub fn run_explored(
        &self,
        kernel: &str,
        ranks: usize,
        deadline: Duration,
        trace: bool,
        schedule: Option<crate::explore::Schedule>,
        init: impl Fn(usize, usize) -> Vec<u8> + Sync,
    ) -> Result<Finished, String> {
        let info = self
            .kernel(kernel)
            .ok_or_else(|| format!("no kernel @{kernel}"))?;
        let entry = self
            .compiled
            .kernel(kernel)
            .ok_or_else(|| format!("@{kernel} was not compiled"))?;
        let params = &info.params;
        let mut offsets = Vec::new();
        let mut window_bytes = 0;
        for param in params {
            if param.distributed {
                offsets.push(Some(window_bytes));
                window_bytes += aligned(param.bytes());
            } else {
                offsets.push(None);
            }
        }
        let transport = crate::runtime::transport::current();
        let domain = CommDomain::over(transport, ranks, window_bytes.max(32), Some(&self.spare))
            .map_err(|e| e.to_string())?;
        let locals = write_inputs(&domain, params, &offsets, &init)?;
        // The timeline names window bytes by parameter and element.
        let names = |_window: usize, offset: usize| {
            let (i, element) = info.element_at(&offsets, offset)?;
            Some(format!(
                "{} {}",
                info.shown_name(i),
                index_of(element, &params[i].shape)
            ))
        };
        let plain: Vec<(usize, usize)> = locals
            .iter()
            .flatten()
            .map(|m| {
                let bytes = m.lock().unwrap_or_else(|e| e.into_inner());
                (
                    bytes.as_ptr() as usize,
                    bytes.as_ptr() as usize + bytes.len(),
                )
            })
            .filter(|(start, end)| start < end)
            .collect();
        // The window bytes of some of the parameters (signals, cells).
        let ranges = |chosen: &[usize]| -> Vec<std::ops::Range<usize>> {
            chosen
                .iter()
                .filter_map(|&i| offsets[i].map(|o| o..o + params[i].bytes()))
                .collect()
        };
        // A kernel only calls the device functions: its ranks may share
        // threads as fibers.
        let outcome = Run::new(&domain, deadline)
            .buffers(plain)
            .traced(trace)
            .explore(schedule)
            .named(Some(&names))
            .signal_cells(schedule.map(|_| ranges(&info.cells)))
            .credit_signals(ranges(&info.signals))
            .fibers(true)
            .pinned(true)
            .execute(&format!("@{kernel}"), |env| {
                let mut guards: Vec<_> =
                    locals[env.rank].iter().map(|m| m.lock().unwrap()).collect();
                let mut values: Vec<*mut ()> = Vec::new();
                for (i, offset) in offsets.iter().enumerate() {
                    values.push(match offset {
                        // SAFETY: inside the window, which was sized for it.
                        Some(offset) => {
                            unsafe { env.domain.window(env.rank).base().add(*offset) }.cast()
                        }
                        None => guards[i].as_mut_ptr().cast(),
                    });
                }
                for _ in offsets.iter().flatten() {
                    values.push(env.domain.context(env.rank).cast_mut().cast());
                }
                let mut arguments: Vec<*mut ()> = values
                    .iter_mut()
                    .map(|v| (v as *mut *mut ()).cast())
                    .collect();
                // SAFETY: one pointer per parameter, each to a pointer to a
                // buffer of the parameter's size that outlives the call.
                unsafe { entry.call(&mut arguments) };
            });
        let mut locals: Vec<Vec<Vec<u8>>> = locals
            .into_iter()
            .map(|row| {
                row.into_iter()
                    .map(|m| m.into_inner().unwrap_or_else(|e| e.into_inner()))
                    .collect()
            })
            .collect();
        gather_locals(&domain, &mut locals)?;
        Ok(Finished {
            outcome,
            offsets,
            domain,
            sizes: params.iter().map(|p| p.bytes()).collect(),
            locals,
        })
    }
}

/// Every rank's inputs, `init(rank, param)`, written into its window (a
/// distributed parameter, at its offset) or kept as its private buffer (a
/// plain one, returned); the ranks in parallel.
fn write_inputs(
    domain: &CommDomain,
    params: &[Param],
    offsets: &[Option<usize>],
    init: &(impl Fn(usize, usize) -> Vec<u8> + Sync),
) -> Result<Vec<Vec<Mutex<Vec<u8>>>>, String> {
    let ranks = domain.ranks();
    let bytes = ranks * params.iter().map(Param::bytes).sum::<usize>();
    crate::program::parallel::map(ranks, bytes, |rank| {
        let mut row = Vec::new();
        if !domain.local().contains(&rank) {
            // Another process's rank (MPI): its process writes it.
            return Ok(params.iter().map(|_| Mutex::new(Vec::new())).collect());
        }
        for (i, param) in params.iter().enumerate() {
            let bytes = init(rank, i);
            if bytes.len() != param.bytes() {
                return Err(format!(
                    "the input of {} on rank {rank} has {} bytes, the parameter {}",
                    param.name,
                    bytes.len(),
                    param.bytes()
                ));
            }
            match offsets[i] {
                Some(offset) => {
                    domain.window(rank).write(offset, &bytes);
                    row.push(Mutex::new(Vec::new()));
                }
                None => row.push(Mutex::new(bytes)),
            }
        }
        Ok(row)
    })
    .into_iter()
    .collect()
}

/// Under MPI: every rank's private buffers after the run, from the
/// process that ran it (collective; nothing to do with threads).
fn gather_locals(domain: &CommDomain, locals: &mut [Vec<Vec<u8>>]) -> Result<(), String> {
    let mine = domain.local();
    if mine.len() == domain.ranks() {
        return Ok(());
    }
    let mut bytes = Vec::new();
    for buffer in &locals[mine.start] {
        bytes.extend_from_slice(&(buffer.len() as u64).to_le_bytes());
        bytes.extend_from_slice(buffer);
    }
    let all = crate::runtime::mpi::allgather(&bytes)?;
    for (rank, mut rest) in all.iter().map(Vec::as_slice).enumerate() {
        for buffer in locals[rank].iter_mut() {
            let (len, tail) = rest
                .split_first_chunk::<8>()
                .ok_or("a rank's buffers are malformed")?;
            let len = u64::from_le_bytes(*len) as usize;
            let (data, tail) = tail
                .split_at_checked(len)
                .ok_or("a rank's buffers are malformed")?;
            *buffer = data.to_vec();
            rest = tail;
        }
    }
    Ok(())
}

/// The SSA names of `@function`'s parameters as the source writes them
/// (`data` for `%data: ...`), in order; empty when the signature is not
/// found in the text. MLIR keeps no SSA names, so they are read off the
/// text of the signature.
pub fn source_names(text: &str, function: &str) -> Vec<String> {
    let needle = format!("@{function}(");
    let Some(start) = text
        .match_indices(&needle)
        .map(|(at, _)| at)
        .find(|&at| text[..at].trim_end().ends_with("func.func"))
    else {
        return Vec::new();
    };
    let signature = &text[start + needle.len()..];
    let mut names = Vec::new();
    let mut depth = 1usize;
    for (at, c) in signature.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            '%' if depth == 1 => {
                let ident: String = signature[at + 1..]
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || matches!(c, '_' | '$' | '.' | '-'))
                    .collect();
                let after = signature[at + 1 + ident.len()..].trim_start();
                if !ident.is_empty() && after.starts_with(':') {
                    names.push(ident);
                }
            }
            _ => {}
        }
    }
    names
}

/// The InCore kernels of a pld module and their tensor parameters.
fn describe(text: &str, source_name: &str) -> Result<Vec<KernelInfo>, String> {
    let context = pld_dialect::context();
    // pld_ir's parser takes any bytes (melior's panics on a NUL).
    let mut module =
        pld_ir::parse::parse(&context, text, source_name).ok_or("the module does not parse")?;
    // The schedule `mode = "auto"` will get, as the lowering chooses it.
    crate::compiler::resolve_modes(&context, &mut module);
    let mut kernels = Vec::new();
    let mut op = module.body().first_operation();
    while let Some(function) = op {
        op = function.next_in_block();
        if op_name(&function) != "func.func" {
            continue;
        }
        let kind = pld_dialect::query::function_kind(function).ok().flatten();
        let device =
            kind.is_some_and(|k| k.is_device()) || function.attribute("pto.kernel_kind").is_ok();
        let declaration = function
            .region(0)
            .ok()
            .and_then(|r| r.first_block())
            .is_none();
        if !device || declaration {
            continue;
        }
        let name = function
            .attribute("sym_name")
            .ok()
            .and_then(pld_ir::attr::string)
            .unwrap_or_default();
        let params = match params_of(text, &name, function) {
            Ok(params) => params,
            // A kernel that only other kernels call, with what they pass
            // it (an index, say), is compiled with them, not run by itself
            // (one a CHIP orchestrator runs as a task needs its tensors).
            Err(_)
                if crate::program::model::called_by_kernels_only(module.as_operation(), &name) =>
            {
                continue
            }
            Err(e) => return Err(e),
        };
        let collectives = collectives_of(function);
        let (signals, cells) = signals_of(function, &collectives);
        let other_writes = other_writes(function, &collectives);
        let called_collective = called_collective(module.as_operation(), function);
        kernels.push(KernelInfo {
            name,
            params,
            collectives,
            signals,
            cells,
            other_writes,
            called_collective,
        });
    }
    Ok(kernels)
}

/// The first collective in a function `function` calls, directly or
/// through other calls (each function looked at once).
fn called_collective(module: OperationRef, function: OperationRef) -> Option<String> {
    let mut seen = std::collections::HashSet::new();
    let mut work = vec![function];
    while let Some(caller) = work.pop() {
        for call in pld_ir::collect(caller, |n| n == "func.call") {
            let Some(name) = pld_ir::attr::callee(call) else {
                continue;
            };
            if !seen.insert(name.clone()) {
                continue;
            }
            let Some(callee) = pld_ir::functions(module)
                .into_iter()
                .find(|f| pld_ir::symbol_name(*f).as_deref() == Some(name.as_str()))
            else {
                continue;
            };
            let found = pld_ir::collect(callee, |n| CollectiveKind::from_op_name(n).is_some());
            if let Some(op) = found.first() {
                return Some(format!("@{name}'s {} at {}", op_name(op), location(*op)));
            }
            work.push(callee);
        }
    }
    None
}

/// The tensor parameters of kernel `@name` (`function`), named as `text`
/// names them; the contexts the pipeline adds are left out.
fn params_of(text: &str, name: &str, function: OperationRef) -> Result<Vec<Param>, String> {
    let ty = function
        .attribute("function_type")
        .ok()
        .and_then(pld_ir::attr::type_value)
        .and_then(|t| FunctionType::try_from(t).ok())
        .ok_or_else(|| format!("@{name} has no function type"))?;
    let names = source_names(text, name);
    let mut params = Vec::new();
    for i in 0..ty.input_count() {
        let input = ty.input(i).map_err(|e| e.to_string())?;
        if input.to_string() == "!pld.ctx" {
            continue; // added by the pipeline; pld-run passes contexts itself
        }
        if input.to_string().starts_with("!pto.") {
            return Err(format!(
                "@{name} is already converted to PTO but has no pto.kernel_kind; run the \
                 pld source of the kernel"
            ));
        }
        let fallback = format!("arg{i}");
        let param_name = names.get(i).unwrap_or(&fallback);
        params.push(tensor_param(function, name, i, input, param_name)?);
    }
    Ok(params)
}

/// The collectives of a kernel, with their targets as parameter numbers.
/// The ops of `function` besides its collectives that may write a
/// collective's target (a store, put, get or call given it, through views
/// too), as `op at file:line:col` ([`KernelInfo::other_writes`]).
fn other_writes(function: OperationRef, collectives: &[Collective]) -> Vec<String> {
    let targets: Vec<usize> = collectives
        .iter()
        .filter_map(|c| c.at(c.kind.facts().alias))
        .collect();
    const WRITES: [&str; 8] = [
        "pld.tile_store",
        "pld.tile_remote_store",
        "pld.tensor_remote_store",
        "pld.tensor_put",
        "pld.tile_put",
        "pld.tensor_get",
        "pld.tile_get",
        "func.call",
    ];
    let touches_a_target = |op: &OperationRef| {
        pld_ir::operands(*op)
            .into_iter()
            .filter_map(parameter_of)
            .any(|param| targets.contains(&param))
    };
    pld_ir::collect(function, |n| WRITES.contains(&n))
        .into_iter()
        .filter(touches_a_target)
        .map(|op| match crate::compiler::locate::position(op) {
            Some(at) => format!("{} at {at}", op_name(&op)),
            None => op_name(&op),
        })
        .collect()
}

fn collectives_of(function: OperationRef) -> Vec<Collective> {
    let mut collectives = Vec::new();
    for op in pld_ir::collect(function, |n| CollectiveKind::from_op_name(n).is_some()) {
        let Some(kind) = CollectiveKind::from_op_name(&op_name(&op)) else {
            continue;
        };
        let Some(view) = pld_dialect::ops::OpView::new(op) else {
            continue;
        };
        // Through views, loop carries and branches (the rebind idiom).
        let operands = kind
            .roles()
            .map(|role| view.one(role.group()).and_then(parameter_of))
            .collect();
        let shapes = kind
            .roles()
            .map(|role| view.one(role.group()).and_then(static_shape))
            .collect();
        let given = op.attribute("op").ok().and_then(ReduceOp::from_attribute);
        let mode = op
            .attribute("mode")
            .ok()
            .and_then(pld_ir::attr::string)
            .and_then(|m| m.parse().ok())
            .unwrap_or(AllReduceMode::Mesh);
        let root = kind.facts().root.then(|| {
            op.attribute("root")
                .ok()
                .and_then(pld_ir::attr::int)
                .unwrap_or(0)
        });
        let in_loop = pld_ir::ancestors(op)
            .into_iter()
            .map(|a| op_name(&a))
            .find(|n| {
                matches!(
                    n.as_str(),
                    "scf.for"
                        | "scf.while"
                        | "scf.parallel"
                        | "scf.forall"
                        | "affine.for"
                        | "affine.parallel"
                )
            })
            .or_else(|| {
                pld_ir::in_branch_cycle(op)
                    .then(|| "unstructured loop (a branch back to its block)".to_string())
            });
        let in_branch = pld_ir::ancestors(op)
            .into_iter()
            .map(|a| op_name(&a))
            .find(|n| matches!(n.as_str(), "scf.if" | "scf.index_switch" | "affine.if"))
            .map(|n| format!("an {n}"))
            .or_else(|| {
                pld_ir::in_skippable_block(op).then(|| "a block cf branches can skip".to_string())
            });
        collectives.push(Collective {
            kind,
            mode,
            origin: mode_origin(op, &mode.to_string()),
            rail: Rail::Composite,
            valid_shape: target_valid_shape(&view),
            reduce: kind.reduce_op(given),
            root,
            operands,
            shapes,
            in_loop,
            in_branch,
            location: location(op),
        });
    }
    collectives
}

/// The `valid_shape` of a collective's target type, if it has one.
/// The extents of a tensor value's type, when all are static.
fn static_shape(value: melior::ir::Value) -> Option<Vec<usize>> {
    use melior::ir::ValueLike;
    let info = pld_dialect::types::tensor_info(value.r#type()).ok()??;
    info.shape
        .iter()
        .map(|d| d.and_then(|d| usize::try_from(d).ok()))
        .collect()
}

fn target_valid_shape(view: &pld_dialect::ops::OpView) -> Option<Vec<usize>> {
    use melior::ir::ValueLike;
    let target = view.one(Role::Target.group())?;
    let info = pld_dialect::types::tensor_info(target.r#type()).ok()??;
    let valid = info.valid_shape?;
    valid.iter().map(|v| usize::try_from(*v).ok()).collect()
}

/// The parameters of a kernel used as credit signals (by one of its
/// `collectives`, a wait, or an adding notify), and every parameter whose
/// cells a notify or wait may touch: the signals, and the data cells
/// written with Set.
fn signals_of(function: OperationRef, collectives: &[Collective]) -> (Vec<usize>, Vec<usize>) {
    let mut signals: Vec<usize> = collectives
        .iter()
        .filter_map(|c| c.at(Role::Signal))
        .collect();
    let mut cells = Vec::new();
    for (credit, param) in signal_uses(function) {
        cells.push(param);
        if credit {
            signals.push(param);
        }
    }
    signals.sort_unstable();
    signals.dedup();
    cells.extend(&signals);
    cells.extend(
        collectives
            .iter()
            .filter(|c| c.kind.facts().publishes_counts)
            .filter_map(|c| c.at(Role::RecvCounts)),
    );
    cells.sort_unstable();
    cells.dedup();
    (signals, cells)
}

/// The notifies and waits of `function` and of the kernels it calls
/// (helpers, at most `model::HELPER_DEPTH` calls deep), each as whether it
/// counts credits (a wait, an adding notify) and the parameter of
/// `function` its cell derives from: a signal a kernel uses only through a
/// helper is its signal too (it was filled as data, and the explorer called
/// its cells outside the signals).
fn signal_uses(function: OperationRef) -> Vec<(bool, usize)> {
    crate::program::model::signal_uses_through_calls(function, &own_signal_uses, &|v, _| {
        parameter_of(v)
    })
}

/// The notifies and waits of `function` itself (see [`signal_uses`]).
fn own_signal_uses(function: OperationRef) -> Vec<(bool, usize)> {
    let mut uses = Vec::new();
    for op in pld_ir::collect(function, |n| n == Notify::NAME || n == Wait::NAME) {
        let Some(view) = pld_dialect::ops::OpView::new(op) else {
            continue;
        };
        let credit = op_name(&op) == Wait::NAME
            || op
                .attribute("op")
                .ok()
                .and_then(|a| pld_ir::attr::enum_payload(a, "pld.notify_op"))
                .as_deref()
                == Some("atomic_add");
        let operand = if op_name(&op) == Wait::NAME {
            "signal"
        } else {
            "target"
        };
        let param = view.one(operand).and_then(parameter_of);
        uses.extend(param.map(|p| (credit, p)));
    }
    uses
}

/// Whether `text` is a module already converted by `pld-to-pto` (a kernel
/// with `pto.kernel_kind`).
fn is_converted(text: &str) -> bool {
    let context = pld_dialect::context();
    let _quiet = pld_ir::diag::Sink::attach(&context);
    pld_ir::parse::parse(&context, text, "<input>").is_some_and(|module| {
        pld_ir::functions(module.as_operation())
            .into_iter()
            .any(|f| f.attribute("pto.kernel_kind").is_ok())
    })
}

#[cfg(test)]
mod tests {
    use super::source_names;

    #[test]
    fn parameter_names_come_from_the_signature() {
        let text = "func.func @other(%x: i32) { return }\n\
                    func.func @k(%data: tensor<1x4xf32, #pld.dist>,\n    %sig_2: tensor<2x1xi32, #pld.dist> {a = (1)}, %n: index)\n\
                    attributes {pld.kind = #pld.func_kind<\"incore\">} { return }\n";
        assert_eq!(source_names(text, "k"), ["data", "sig_2", "n"]);
        assert_eq!(source_names(text, "other"), ["x"]);
        // Only a definition's signature counts, not a call.
        assert!(source_names("func.call @k(%a) : (i32) -> ()", "k").is_empty());
        assert!(source_names(text, "missing").is_empty());
    }
}
