//! A module loaded for the simulator (`PldProgram`): checked and lowered in
//! the caller's context, so what is wrong with it is reported there at its
//! ops, then loaded, compiled and planned by the simulator, as `pld-run`
//! does.

use melior::ir::{operation::OperationLike, Module};
use melior::Context;
use pld_ir::print::symbol_ref;
use pld_sim::program::orchestrate::ProgramRun;
use pld_sim::program::{Dtype, KernelInfo, Program};
use std::collections::HashMap;

/// What runs: one kernel, or a whole program from its HOST orchestrator.
pub enum Mode {
    Kernel { program: Program, kernel: usize },
    Whole(Box<ProgramRun>),
}

/// A buffer the caller fills and reads: a kernel's parameter or a
/// program's window buffer.
#[derive(Clone)]
pub struct Buffer {
    pub name: String,
    pub shape: Vec<usize>,
    pub dtype: Dtype,
    pub signal: bool,
    /// The ranks that hold it (a window buffer lives on the devices of its
    /// comm domain); `None` for every rank.
    pub devices: Option<Vec<usize>>,
}

impl Buffer {
    /// Its bytes on one rank.
    pub fn bytes(&self) -> usize {
        self.shape.iter().product::<usize>() * self.dtype.bytes()
    }

    /// Whether rank `rank` holds it.
    pub fn on(&self, rank: usize) -> bool {
        self.devices.as_ref().is_none_or(|d| d.contains(&rank))
    }
}

/// A loaded module.
pub struct Loaded {
    pub mode: Mode,
    pub entry: String,
    pub ranks: usize,
    pub buffers: Vec<Buffer>,
    /// The pld op at each `file:line:col` of the module, to name the ops
    /// of a finding as the user wrote them (the simulator sees the PTO
    /// ops they became).
    pub pld_ops: HashMap<String, String>,
    /// The text the simulator loaded, and the name of its source: what
    /// [`Reload::load`] loads again on another thread.
    text: String,
    source: String,
}

/// The pld op at each `file:line:col` of `root`.
fn pld_ops(root: melior::ir::OperationRef) -> HashMap<String, String> {
    pld_ir::collect(root, |n| n.starts_with("pld."))
        .into_iter()
        .filter_map(|op| {
            Some((
                pld_sim::compiler::locate::position(op)?,
                pld_ir::op_name(&op),
            ))
        })
        .collect()
}

/// A loaded module as plain data, to load it again on another thread (a
/// loaded program's compiled code belongs to the thread that loaded it).
pub struct Reload {
    text: String,
    source: String,
    entry: String,
    ranks: usize,
    /// The kernel that runs, `None` for a whole program.
    kernel: Option<usize>,
    buffers: Vec<Buffer>,
    pld_ops: HashMap<String, String>,
}

impl Reload {
    /// The module loaded on the calling thread: its kernels come from the
    /// compile cache the first load filled.
    pub fn load(self) -> Result<Loaded, String> {
        let mode = match self.kernel {
            Some(kernel) => Mode::Kernel {
                program: Program::load_named(&self.text, &self.source)?,
                kernel,
            },
            None => Mode::Whole(Box::new(ProgramRun::load(
                &self.text,
                &self.source,
                Some(&self.entry),
                self.ranks,
            )?)),
        };
        Ok(Loaded {
            mode,
            entry: self.entry,
            ranks: self.ranks,
            buffers: self.buffers,
            pld_ops: self.pld_ops,
            text: self.text,
            source: self.source,
        })
    }
}

/// Why a module could not be loaded.
pub enum Refusal {
    /// The reasons were emitted as diagnostics at their ops.
    Reported,
    /// Not yet reported: a message, which may start with `file:line:col: `.
    Message(String),
}

impl From<String> for Refusal {
    fn from(message: String) -> Self {
        Refusal::Message(message)
    }
}

impl Loaded {
    /// Loads `module` (of `context`) for `ranks` ranks, running `entry`
    /// (empty: the only HOST orchestrator, or else the only kernel; with
    /// or without its `@`).
    pub fn load(
        context: &Context,
        module: &Module,
        entry: &str,
        ranks: usize,
    ) -> Result<Loaded, Refusal> {
        if !(1..=pld_sim::MAX_RANKS).contains(&ranks) {
            return Err(Refusal::Message(ranks_refused(ranks)));
        }
        // `@name` is the name as the source spells it.
        if entry == "@" {
            return Err(Refusal::Message(
                "the entry '@' names no function: give its name (with or without the @), or \
                 an empty entry for the only HOST orchestrator or kernel"
                    .into(),
            ));
        }
        let entry = pld_ir::print::symbol_name(entry);
        let entry = entry.as_str();
        let source = source_name(module);
        let text = pld_ir::print::module_text(
            module,
            pld_ir::print::PrintOptions {
                debug_info: true,
                ..Default::default()
            },
        );
        // A shard module runs as the pld program pld-run makes of it.
        let converted =
            match pld_sim::compiler::shard_program_for(&text, &source, Some(ranks), Some(entry))? {
                Some((program, _)) => Some((
                    pld_ir::parse::parse(context, &program, &source).ok_or(Refusal::Reported)?,
                    program,
                )),
                None => None,
            };
        let (module, text) = match &converted {
            Some((converted, program)) => (converted, program.clone()),
            None => (module, text),
        };
        if !lowers(context, module) {
            return Err(Refusal::Reported);
        }
        let root = module.as_operation();
        let hosts: Vec<String> = pld_lowering::host::host_functions(root)
            .into_iter()
            .filter_map(pld_ir::symbol_name)
            .collect();
        let whole = if entry.is_empty() {
            !hosts.is_empty()
        } else {
            hosts.iter().any(|h| h == entry)
        };
        let ops = pld_ops(root);
        if whole {
            let named = Some(entry).filter(|e| !e.is_empty());
            let run = ProgramRun::load(&text, &source, named, ranks)?;
            Ok(Loaded::whole(run, ranks, ops, (text, source)))
        } else {
            let program = Program::load_named(&text, &source)?;
            let kernel = choose_kernel(&program, entry, &source)
                .map_err(|e| not_an_entry(root, entry, &hosts).unwrap_or(e))?;
            let info = &program.kernels[kernel];
            pld_sim::program::shapes::check(
                info,
                ranks,
                pld_sim::program::shapes::Rail::Composite,
            )?;
            Ok(Loaded {
                entry: info.name.clone(),
                buffers: kernel_buffers(info),
                mode: Mode::Kernel { program, kernel },
                ranks,
                pld_ops: ops,
                text,
                source,
            })
        }
    }

    /// What loads this module again on another thread ([`Reload::load`]).
    pub fn reload(&self) -> Reload {
        Reload {
            text: self.text.clone(),
            source: self.source.clone(),
            entry: self.entry.clone(),
            ranks: self.ranks,
            kernel: match &self.mode {
                Mode::Kernel { kernel, .. } => Some(*kernel),
                Mode::Whole(_) => None,
            },
            buffers: self.buffers.clone(),
            pld_ops: self.pld_ops.clone(),
        }
    }

    fn whole(
        run: ProgramRun,
        ranks: usize,
        pld_ops: HashMap<String, String>,
        (text, source): (String, String),
    ) -> Loaded {
        let buffers = run
            .buffers
            .iter()
            .map(|b| Buffer {
                name: b.name.clone(),
                shape: b.view.shape.clone(),
                dtype: b.view.dtype,
                signal: b.signal,
                devices: run.plan.domains.get(b.domain).map(|d| d.devices.clone()),
            })
            .collect();
        Loaded {
            entry: run.entry.clone(),
            buffers,
            mode: Mode::Whole(Box::new(run)),
            ranks,
            pld_ops,
            text,
            source,
        }
    }

    /// The buffer `name` names: a buffer's name, or for a kernel's
    /// parameter `argN`, `%argN` or `N`.
    pub fn lookup(&self, name: &str) -> Option<usize> {
        let bare = name.strip_prefix('%').unwrap_or(name);
        self.buffers
            .iter()
            .position(|b| b.name == bare)
            .or_else(|| {
                match &self.mode {
                    Mode::Kernel { .. } => bare.parse::<usize>().ok(),
                    Mode::Whole(_) => None,
                }
                .filter(|&i| i < self.buffers.len())
            })
    }
}

/// Why `ranks` (as the caller gave it) is no rank count.
pub fn ranks_refused(ranks: impl std::fmt::Display) -> String {
    format!(
        "a program runs on 1 to {} ranks, not {ranks}",
        pld_sim::MAX_RANKS
    )
}

/// Verifies `module` and lowers a copy of it with `pld-to-pto` in the
/// caller's context, so that its errors reach the caller's diagnostic
/// handler at their ops; whether both succeeded. A module lowered already
/// is only verified.
fn lowers(context: &Context, module: &Module) -> bool {
    let root = module.as_operation();
    if !pld_dialect::verify::verify_and_emit(root) {
        return false;
    }
    let converted = pld_ir::functions(root)
        .into_iter()
        .any(|f| f.attribute("pto.kernel_kind").is_ok());
    if converted {
        return true;
    }
    let registry = pld_backend::registry();
    let planned = pld_ir::pipeline::parse("builtin.module(pld-to-pto)", &registry)
        .and_then(|steps| pld_ir::pipeline::plan(context, &steps, &registry));
    let Ok(plan) = planned else {
        return false;
    };
    let Some(mut copy) = Module::from_operation(pld_ir::clone_op(root)) else {
        return false;
    };
    plan.iter().all(|step| step.run(&mut copy).is_ok())
}

/// The file the module's ops came from (its first op's location), for the
/// messages that name the input.
fn source_name(module: &Module) -> String {
    let root = module.as_operation();
    pld_ir::functions(root)
        .into_iter()
        .find_map(|f| pld_ir::loc::position(f.location()))
        .map(|p| p.file)
        .filter(|f| !f.is_empty())
        .unwrap_or_else(|| "<module>".into())
}

/// Why `entry` cannot be run when it names a function that is neither a
/// HOST orchestrator nor a kernel (a CHIP orchestrator, a plain function):
/// "has no ... @entry" read as if it did not exist (embed26 L5).
fn not_an_entry(root: melior::ir::OperationRef, entry: &str, hosts: &[String]) -> Option<String> {
    let function = pld_ir::find_function(root, entry)?;
    let kind = pld_dialect::query::function_kind(function).ok().flatten();
    let what = match kind {
        // (A kernel other kernels call is no entry either; said as before.)
        Some(kind) if kind.is_device() => return None,
        Some(kind) => format!("a {}", kind.describe()),
        None => "a function without pld.kind".to_string(),
    };
    let hosts: Vec<String> = hosts.iter().map(|h| symbol_ref(h)).collect();
    Some(format!(
        "{} is {what}: the entry runs a HOST orchestrator (the program's: {}) or a device \
         kernel",
        symbol_ref(entry),
        if hosts.is_empty() {
            "none".to_string()
        } else {
            hosts.join(", ")
        }
    ))
}

/// The kernel `entry` names, or the only one.
fn choose_kernel(program: &Program, entry: &str, source: &str) -> Result<usize, String> {
    let names: Vec<String> = program
        .kernels
        .iter()
        .map(|k| symbol_ref(&k.name))
        .collect();
    if !entry.is_empty() {
        return program
            .kernels
            .iter()
            .position(|k| k.name == entry)
            .ok_or_else(|| {
                format!(
                    "{source} has no HOST orchestrator or device kernel {} (its kernels: {})",
                    symbol_ref(entry),
                    if names.is_empty() {
                        "none".to_string()
                    } else {
                        names.join(", ")
                    }
                )
            });
    }
    match names.len() {
        1 => Ok(0),
        0 => Err(format!(
            "{source} has no HOST orchestrator and no device kernel to run"
        )),
        _ => Err(format!(
            "{source} has several kernels ({}); name the one to run",
            names.join(", ")
        )),
    }
}

/// A kernel's parameters as buffers.
fn kernel_buffers(kernel: &KernelInfo) -> Vec<Buffer> {
    kernel
        .params
        .iter()
        .enumerate()
        .map(|(i, p)| Buffer {
            name: p.name.clone(),
            shape: p.shape.clone(),
            dtype: p.dtype,
            signal: kernel.signals.contains(&i),
            devices: None,
        })
        .collect()
}
