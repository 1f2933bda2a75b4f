//! Interpreting a lowered program's HOST and CHIP orchestrators into what
//! every device does (docs/simulator.md, "Whole programs").
//!
//! Orchestrators compute nothing from device data: their control flow
//! depends on integers only (`arith`, `scf`, the world size). So the
//! interpreter runs them once, on the calling thread, for a given world
//! size, and records for every device the ordered list of its work: the
//! kernels its CHIP orchestrators call and the builtin dispatches the HOST
//! rail emitted. Each HOST-level dispatch (`pld.dispatch` of a CHIP
//! orchestrator, or a `pld.builtin_*`) is one L3 -> L2 round trip of that
//! device.

use super::affine;
use crate::program::model::{location, Collective, Dtype, Rail};
use melior::ir::{
    block::BlockLike, operation::OperationLike, BlockRef, Module, OperationRef, RegionLike, Value,
    ValueLike,
};
use pld_backend::kernels::{Builtin, Scalar};
use pld_dialect::{
    collective::CollectiveKind,
    enums::{AllReduceMode, FuncKind, PldEnum, ReduceOp},
    ops::{
        ctx::GetCommCtx,
        host::{CommDomain, Dispatch},
        window::{AllocWindowBuffer, Window, WorldSize},
        OpView,
    },
    query::{builtin_template, function_kind},
    types::{tensor_info, TensorKind},
};
use pld_ir::op_name;
use std::collections::HashMap;

/// A tensor in a comm domain's windows: the same bytes of every member's
/// window.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TensorRef {
    pub domain: usize,
    /// Byte offset in the domain's window.
    pub offset: usize,
    pub shape: Vec<usize>,
    pub dtype: Dtype,
    /// The `name` of the window buffer it views.
    pub buffer: String,
    /// For a slice of a window view: that view's `(offset, shape)`.
    pub slice_of: Option<(usize, Vec<usize>)>,
}

impl TensorRef {
    /// The window view this tensor is (or is a slice of).
    pub fn whole(&self) -> TensorRef {
        match &self.slice_of {
            None => self.clone(),
            Some((offset, shape)) => TensorRef {
                offset: *offset,
                shape: shape.clone(),
                slice_of: None,
                ..self.clone()
            },
        }
    }

    pub fn elements(&self) -> usize {
        self.shape.iter().product()
    }

    pub fn bytes(&self) -> usize {
        self.elements() * self.dtype.bytes()
    }
}

/// One window buffer of a domain.
#[derive(Clone, Debug)]
pub struct Slot {
    pub name: String,
    pub offset: usize,
    pub bytes: usize,
}

/// A `pld.comm_domain`, evaluated for the world size.
#[derive(Clone, Debug)]
pub struct DomainPlan {
    pub name: String,
    /// The devices (global ranks) of the domain, in domain-rank order.
    pub devices: Vec<usize>,
    pub window_bytes: usize,
    pub slots: Vec<Slot>,
}

impl DomainPlan {
    /// The domain rank of `device`.
    pub fn rank_of(&self, device: usize) -> Option<usize> {
        self.devices.iter().position(|d| *d == device)
    }
}

/// An argument of a kernel call.
#[derive(Clone, Debug)]
pub enum Arg {
    Tensor(TensorRef),
    /// The CommContext of a domain, for the calling device.
    Context(usize),
    /// An integer scalar, passed as a 64-bit value.
    Int(i64),
}

/// A scalar argument of a builtin entry (collectives spec 10.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuiltinScalar {
    /// The domain's size.
    Ranks,
    /// The calling device's CommContext in the domain.
    Context,
    /// The requested launch width.
    CoreNum(i64),
    /// Any other value (a reduce's root).
    Value(i64),
}

/// A builtin dispatch on one device.
#[derive(Clone, Debug)]
pub struct BuiltinTask {
    /// The variant (`builtin.tensor.allreduce__sum__fp32`).
    pub variant: String,
    pub domain: usize,
    /// The tensors in the order the entry takes them.
    pub tensors: Vec<TensorRef>,
    pub scalars: Vec<BuiltinScalar>,
    /// `Some(B)` for a CHIP-only kernel, which has no entry: its kernel is
    /// launched with B blocks, the tensors then the scalars its arguments.
    pub launch: Option<i64>,
    /// The collective it carries out; its operands are `tensors`, in
    /// order.
    pub collective: Collective,
    /// The source location of the HOST collective.
    pub location: String,
}

/// A kernel called from a CHIP orchestrator on one device.
#[derive(Clone, Debug)]
pub struct KernelTask {
    pub kernel: String,
    pub args: Vec<Arg>,
    /// The CHIP orchestrator that called it.
    pub caller: String,
    /// Where it was called, and the `pld.dispatch` that ran its caller.
    pub location: String,
    pub dispatch: String,
}

/// One piece of a device's work, in program order.
#[derive(Clone, Debug)]
pub enum Task {
    Kernel(KernelTask),
    Builtin(BuiltinTask),
}

/// `count` devices as a sentence says it: `1 device`, `4 devices`.
pub fn devices(count: usize) -> String {
    match count {
        1 => "1 device".to_string(),
        n => format!("{n} devices"),
    }
}

/// What every device does.
#[derive(Clone, Debug, Default)]
pub struct Plan {
    pub world: usize,
    pub domains: Vec<DomainPlan>,
    /// `tasks[device]`, in program order.
    pub tasks: Vec<Vec<Task>>,
    /// Every task as `(device, index in tasks[device])`, in the order the
    /// orchestration issued them (program order across devices).
    pub order: Vec<(usize, usize)>,
    /// L3 -> L2 round trips per device.
    pub round_trips: Vec<u64>,
}

/// A value of the orchestrators.
#[derive(Clone, Debug)]
enum Val {
    Int(i64),
    /// Window buffer `slot` of domain `domain`.
    Buffer {
        domain: usize,
        slot: usize,
    },
    Tensor(TensorRef),
    /// A view that is not dense row-major (a `tensor.extract_slice` that
    /// narrows an inner dimension or strides): described for the refusal
    /// of whatever passes it to a kernel.
    Strided {
        domain: usize,
        what: String,
    },
    Context(usize),
}

/// Why a program cannot be run, at an op.
pub struct Refusal {
    pub location: String,
    pub message: String,
}

type Step<T = ()> = Result<T, Refusal>;

fn refuse<T>(op: OperationRef, message: impl Into<String>) -> Step<T> {
    Err(Refusal {
        location: location(op),
        message: format!("{} {}", shown_op(&op_name(&op)), message.into()),
    })
}

/// An op as a refusal names it: a builtin dispatch by the collective the
/// user wrote, at whose location it is (`'pld.tensor_allreduce' (as
/// pld.builtin_allreduce)`), any other op by its own name.
fn shown_op(name: &str) -> String {
    match CollectiveKind::from_builtin_op(name) {
        Some((kind, _)) => format!("'{}' (as {name})", kind.op_name()),
        None => format!("'{name}'"),
    }
}

fn key(value: Value) -> usize {
    value.to_raw().ptr as usize
}

/// Where the interpreter is: on the host, or on one device (inside a
/// `pld.dispatch` or a CHIP orchestrator).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    Host,
    Device(usize),
}

struct Interpreter<'c, 'a> {
    functions: HashMap<String, OperationRef<'c, 'a>>,
    values: HashMap<usize, Val>,
    plan: Plan,
    /// The domain being materialised, innermost last.
    open: Vec<usize>,
    /// The CHIP orchestrator being interpreted, and the location of the
    /// `pld.dispatch` that runs it, for the tasks it records.
    caller: String,
    dispatch: String,
    depth: usize,
    /// The most dispatches the plan may hold.
    limit: usize,
    /// Whether `limit` is the memory's, below PLD_MAX_DISPATCHES.
    memory_limited: bool,
    /// Iterations of the orchestrators' `scf.for` loops so far: at most
    /// [`ITERATIONS_PER_DISPATCH`] times `limit`.
    iterations: usize,
}

/// How many calls deep orchestrators are interpreted (the entry counts as
/// the first): deeper recursion is refused rather than run out of stack.
const MAX_CALL_DEPTH: usize = 64;

/// What one planned dispatch may take in memory, as the plan's limit
/// counts it (a task with its operands, its place in the order, and the
/// interpreter's values around it: under a kilobyte).
const DISPATCH_BYTES: usize = 1024;

/// The most dispatches a plan may hold: PLD_MAX_DISPATCHES's `limit`, or
/// fewer when half the `available` memory holds fewer (a limit set far
/// above what the machine holds grew the plan until an allocation aborted
/// the process); and whether the memory's is the smaller.
fn dispatch_limit(limit: usize, available: Option<usize>) -> (usize, bool) {
    let room = available.map(|bytes| (bytes / 2 / DISPATCH_BYTES).max(1));
    match room {
        Some(room) if room < limit => (room, true),
        _ => (limit, false),
    }
}

/// How many loop iterations of the orchestrators a run may interpret per
/// dispatch it may hold: a loop that dispatches nothing (or calls a CHIP
/// orchestrator with no task) still ends.
const ITERATIONS_PER_DISPATCH: usize = 16;

/// Interprets the HOST orchestrator `entry` of `module` (lowered by
/// `pld-to-pto`) for `world` devices.
pub fn plan(module: &Module, entry: &str, world: usize) -> Result<Plan, Refusal> {
    let mut functions = HashMap::new();
    for function in pld_ir::functions(module.as_operation()) {
        if let Some(name) = pld_ir::symbol_name(function) {
            functions.insert(name, function);
        }
    }
    let Some(host) = functions.get(entry).copied() else {
        return Err(Refusal {
            location: String::new(),
            message: format!("the program has no function @{entry}"),
        });
    };
    let limit = crate::runtime::env::MAX_DISPATCHES
        .read()
        .map_err(|message| Refusal {
            location: String::new(),
            message,
        })?;
    let (limit, memory_limited) = dispatch_limit(limit, crate::program::memory::available());
    let mut interpreter = Interpreter {
        limit,
        memory_limited,
        iterations: 0,
        functions,
        values: HashMap::new(),
        plan: Plan {
            world,
            domains: Vec::new(),
            tasks: vec![Vec::new(); world],
            order: Vec::new(),
            round_trips: vec![0; world],
        },
        open: Vec::new(),
        caller: String::new(),
        dispatch: String::new(),
        depth: 0,
    };
    interpreter.call(host, &[], Place::Host)?;
    Ok(interpreter.plan)
}

impl<'c, 'a> Interpreter<'c, 'a>
where
    'c: 'a,
{
    fn get(&self, op: OperationRef<'c, 'a>, value: Value<'c, 'a>) -> Step<Val> {
        match self.values.get(&key(value)) {
            Some(v) => Ok(v.clone()),
            None => refuse(op, "uses a value the simulator did not compute"),
        }
    }

    fn int(&self, op: OperationRef<'c, 'a>, value: Value<'c, 'a>) -> Step<i64> {
        match self.get(op, value)? {
            Val::Int(v) => Ok(v),
            other => refuse(op, format!("expects an integer, got {other:?}")),
        }
    }

    fn set(&mut self, value: Value<'c, 'a>, v: Val) {
        self.values.insert(key(value), v);
    }

    /// Appends `task` to `device`'s work, refused at `op` when the plan
    /// already holds `limit` dispatches ([`crate::runtime::env::MAX_DISPATCHES`]):
    /// an orchestrator loop whose bound is far larger than meant would
    /// grow the plan (near a kilobyte a dispatch) until the machine runs
    /// out of memory.
    fn issue(&mut self, op: OperationRef<'c, 'a>, device: usize, task: Task) -> Step {
        if self.plan.order.len() >= self.limit {
            let why = match self.memory_limited {
                true => format!(
                    "as many as half the free memory plans, about {} bytes each; \
                     PLD_MAX_DISPATCHES asks for more",
                    DISPATCH_BYTES
                ),
                false => "PLD_MAX_DISPATCHES sets it".to_string(),
            };
            return refuse(
                op,
                format!(
                    "goes past the limit of {} in one run (kernel calls and builtins over \
                     {}; {why}): is a loop bound larger than meant?",
                    match self.limit {
                        1 => "1 dispatch".to_string(),
                        n => format!("{n} dispatches"),
                    },
                    devices(self.plan.world)
                ),
            );
        }
        self.plan
            .order
            .push((device, self.plan.tasks[device].len()));
        self.plan.tasks[device].push(task);
        Ok(())
    }

    /// Runs `function` with `arguments`; returns what it returns.
    fn call(
        &mut self,
        function: OperationRef<'c, 'a>,
        arguments: &[Val],
        place: Place,
    ) -> Step<Vec<Val>> {
        self.depth += 1;
        if self.depth > MAX_CALL_DEPTH {
            return refuse(
                function,
                format!(
                    "is called more than {MAX_CALL_DEPTH} calls deep (in calls from calls, or in \
                     recursion): the simulator interprets orchestrators at most that deep"
                ),
            );
        }
        let parameters = pld_ir::entry_arguments(function, 0);
        if parameters.len() != arguments.len() {
            return refuse(
                function,
                format!(
                    "takes {} arguments, the call passes {}",
                    parameters.len(),
                    arguments.len()
                ),
            );
        }
        for (parameter, argument) in parameters.iter().zip(arguments) {
            self.set(*parameter, argument.clone());
        }
        let Some(body) = function.region(0).ok().and_then(|r| r.first_block()) else {
            return refuse(function, "has no body to run");
        };
        let returned = self.block(body, place)?;
        self.depth -= 1;
        Ok(returned)
    }

    /// Runs the ops of `block`; returns the operands of its terminator.
    fn block(&mut self, block: BlockRef<'c, 'a>, place: Place) -> Step<Vec<Val>> {
        let mut op = block.first_operation();
        while let Some(current) = op {
            op = current.next_in_block();
            if crate::runtime::run::stop_requested() {
                return refuse(current, "was not reached: Ctrl-C stopped the planning");
            }
            let name = op_name(&current);
            if matches!(
                name.as_str(),
                "func.return" | "scf.yield" | "gpu.yield" | "scf.condition"
            ) {
                return pld_ir::operands(current)
                    .into_iter()
                    .map(|v| self.get(current, v))
                    .collect();
            }
            self.op(current, &name, place)?;
        }
        Ok(Vec::new())
    }

    fn op(&mut self, op: OperationRef<'c, 'a>, name: &str, place: Place) -> Step {
        if let Some(result) = self.arith(op, name)? {
            self.set(pld_ir::result(op), Val::Int(result));
            return Ok(());
        }
        match name {
            "scf.for" => self.for_loop(op, place),
            "scf.if" => self.if_(op, place),
            "scf.while" => self.while_loop(op, place),
            "func.call" => self.func_call(op, place),
            "builtin.unrealized_conversion_cast" => {
                // Orchestrators pass tensors to converted kernels through
                // casts: the value is the tensor.
                let source = pld_ir::operand(op, 0)
                    .ok_or(())
                    .or_else(|_| refuse(op, "has no operand"))?;
                let value = self.get(op, source)?;
                self.set(pld_ir::result(op), value);
                Ok(())
            }
            "tensor.extract_slice" => self.slice(op),
            WorldSize::NAME => {
                self.set(pld_ir::result(op), Val::Int(self.plan.world as i64));
                Ok(())
            }
            CommDomain::NAME => self.comm_domain(op, place),
            AllocWindowBuffer::NAME => self.alloc(op),
            Window::NAME => self.window(op),
            GetCommCtx::NAME => {
                let tensor = pld_ir::operand(op, 0)
                    .ok_or(())
                    .or_else(|_| refuse(op, "has no operand"))?;
                let domain = match self.get(op, tensor)? {
                    Val::Tensor(TensorRef { domain, .. }) | Val::Strided { domain, .. } => domain,
                    other => return refuse(op, format!("expects a window tensor, got {other:?}")),
                };
                self.set(pld_ir::result(op), Val::Context(domain));
                Ok(())
            }
            Dispatch::NAME => self.dispatch(op, place),
            _ if CollectiveKind::from_builtin_op(name).is_some() => self.builtin(op, place),
            _ => {
                // What to write instead, where an interpreted op does it.
                let instead = match name {
                    "scf.index_switch" => "; write its cases as nested scf.if",
                    "scf.execute_region" => "; write its body in place",
                    "cf.br" | "cf.cond_br" | "cf.switch" => {
                        "; write the branches as scf.if or scf.for"
                    }
                    "affine.for" | "affine.if" => "; write it as scf.for or scf.if",
                    _ => "",
                };
                refuse(
                    op,
                    format!(
                        "is not run by the simulator's orchestration (it interprets arith, \
                         scf.for, scf.while, scf.if, func.call, pld.comm_domain, window \
                         allocation, tensor.extract_slice of windows, pld.dispatch and the \
                         pld.builtin_* dispatches){instead}"
                    ),
                )
            }
        }
    }

    /// The integer ops of `arith`, as MLIR defines them at their type's
    /// width (`pld_lowering::shard::arith`: an `i32` wraps at 32 bits, the
    /// unsigned ops read the bits as unsigned, `true` is -1); `Ok(None)`
    /// for any other op. What has no value in MLIR (a division by zero, the
    /// minimum divided by -1, a shift by the width or more) is refused at
    /// the op.
    fn arith(&mut self, op: OperationRef<'c, 'a>, name: &str) -> Step<Option<i64>> {
        use pld_lowering::shard::arith::{wrap, Cast, IntOp, Predicate};
        let value = |i: usize| {
            pld_ir::operand(op, i)
                .ok_or(())
                .or_else(|_| refuse(op, "lacks an operand"))
        };
        let operand = |i: usize| -> Step<i64> { self.int(op, value(i)?) };
        let width = |i: usize| -> Step<u32> { Ok(integer_width(value(i)?.r#type())) };
        let result_width = pld_ir::result_at(op, 0).map_or(64, |r| integer_width(r.r#type()));
        if let Some(int_op) = IntOp::from_name(name) {
            let (a, b, w) = (operand(0)?, operand(1)?, width(0)?);
            return match int_op.apply(a, b, w) {
                Some(v) => Ok(Some(v)),
                None => refuse(op, undefined(int_op)),
            };
        }
        if let Some(cast) = Cast::from_name(name) {
            return Ok(Some(cast.apply(operand(0)?, width(0)?, result_width)));
        }
        Ok(Some(match name {
            "arith.constant" => match op.attribute("value").ok().and_then(pld_ir::attr::int) {
                Some(v) => wrap(v.into(), result_width),
                None => match op
                    .attribute("value")
                    .ok()
                    .and_then(pld_ir::attr::bool_value)
                {
                    Some(b) => -i64::from(b),
                    None => return refuse(op, "is not an integer constant"),
                },
            },
            "arith.select" => {
                if operand(0)? != 0 {
                    operand(1)?
                } else {
                    operand(2)?
                }
            }
            "arith.cmpi" => {
                let predicate = op
                    .attribute("predicate")
                    .ok()
                    .and_then(pld_ir::attr::int)
                    .and_then(Predicate::from_number);
                let Some(predicate) = predicate else {
                    return refuse(op, "has an unknown predicate");
                };
                predicate.apply(operand(0)?, operand(1)?, width(0)?)
            }
            _ => return Ok(None),
        }))
    }

    fn for_loop(&mut self, op: OperationRef<'c, 'a>, place: Place) -> Step {
        let operands = pld_ir::operands(op);
        let [lower, upper, step, inits @ ..] = operands.as_slice() else {
            return refuse(op, "has fewer than three operands");
        };
        let (lower, upper, step) = (
            self.int(op, *lower)?,
            self.int(op, *upper)?,
            self.int(op, *step)?,
        );
        if step <= 0 {
            return refuse(
                op,
                format!("has step {step}; the simulator needs a positive step"),
            );
        }
        let mut carried: Vec<Val> = inits
            .iter()
            .map(|v| self.get(op, *v))
            .collect::<Step<_>>()?;
        let Some(body) = op.region(0).ok().and_then(|r| r.first_block()) else {
            return refuse(op, "has no body");
        };
        let arguments = pld_ir::entry_arguments(op, 0);
        let mut i = lower;
        while i < upper {
            self.iterations += 1;
            if self.iterations > self.limit.saturating_mul(ITERATIONS_PER_DISPATCH) {
                return refuse(
                    op,
                    format!(
                        "goes past {} iterations of the orchestrators' loops in one run ({} \
                         times the limit of {} dispatches; PLD_MAX_DISPATCHES sets it): is a \
                         loop bound larger than meant?",
                        self.limit.saturating_mul(ITERATIONS_PER_DISPATCH),
                        ITERATIONS_PER_DISPATCH,
                        self.limit
                    ),
                );
            }
            if let Some(induction) = arguments.first() {
                self.set(*induction, Val::Int(i));
            }
            for (argument, value) in arguments.iter().skip(1).zip(&carried) {
                self.set(*argument, value.clone());
            }
            carried = self.block(body, place)?;
            i += step;
        }
        for (index, value) in carried.into_iter().enumerate() {
            if let Some(result) = pld_ir::result_at(op, index) {
                self.set(result, value);
            }
        }
        Ok(())
    }

    /// `scf.while`: the `before` region decides, through `scf.condition`,
    /// whether the `do` region runs again with the values it passes.
    fn while_loop(&mut self, op: OperationRef<'c, 'a>, place: Place) -> Step {
        /// Orchestration loops that run longer are taken for runaways.
        const MAX_ITERATIONS: u64 = 1 << 16;
        let mut carried: Vec<Val> = pld_ir::operands(op)
            .into_iter()
            .map(|v| self.get(op, v))
            .collect::<Step<_>>()?;
        let region = |i: usize| op.region(i).ok().and_then(|r| r.first_block());
        let (Some(before), Some(after)) = (region(0), region(1)) else {
            return refuse(op, "has no before or do region");
        };
        let (before_args, after_args) = (
            pld_ir::entry_arguments(op, 0),
            pld_ir::entry_arguments(op, 1),
        );
        for _ in 0..MAX_ITERATIONS {
            for (argument, value) in before_args.iter().zip(&carried) {
                self.set(*argument, value.clone());
            }
            let mut passed = self.block(before, place)?.into_iter();
            let go_on = match passed.next() {
                Some(Val::Int(flag)) => flag != 0,
                _ => return refuse(op, "has an scf.condition without an integer condition"),
            };
            let passed: Vec<Val> = passed.collect();
            if !go_on {
                for (index, value) in passed.into_iter().enumerate() {
                    if let Ok(result) = op.result(index) {
                        self.set(result.into(), value);
                    }
                }
                return Ok(());
            }
            for (argument, value) in after_args.iter().zip(&passed) {
                self.set(*argument, value.clone());
            }
            carried = self.block(after, place)?;
        }
        refuse(
            op,
            format!("runs more than {MAX_ITERATIONS} iterations; the simulator takes it for a runaway loop"),
        )
    }

    fn if_(&mut self, op: OperationRef<'c, 'a>, place: Place) -> Step {
        let condition = pld_ir::operand(op, 0)
            .ok_or(())
            .or_else(|_| refuse(op, "has no condition"))?;
        let region = if self.int(op, condition)? != 0 { 0 } else { 1 };
        let results = match op.region(region).ok().and_then(|r| r.first_block()) {
            Some(block) => self.block(block, place)?,
            None => Vec::new(),
        };
        for (index, value) in results.into_iter().enumerate() {
            if let Ok(result) = op.result(index) {
                self.set(result.into(), value);
            }
        }
        Ok(())
    }

    fn func_call(&mut self, op: OperationRef<'c, 'a>, place: Place) -> Step {
        let Some(callee) = pld_ir::attr::callee(op) else {
            return refuse(op, "has no callee");
        };
        let Some(function) = self.functions.get(&callee).copied() else {
            return refuse(
                op,
                format!("calls @{callee}, which the program does not define"),
            );
        };
        let arguments: Vec<Val> = pld_ir::operands(op)
            .into_iter()
            .map(|v| self.get(op, v))
            .collect::<Step<_>>()?;
        if builtin_template(function).is_some() {
            return self.builtin_kernel(op, &callee, function, arguments, place);
        }
        let kind = function_kind(function).ok().flatten();
        match (kind, place) {
            (Some(k), Place::Device(device)) if k.is_device() => {
                let args: Vec<Arg> = arguments
                    .into_iter()
                    .map(|v| match v {
                        Val::Tensor(t) => Ok(Arg::Tensor(t)),
                        Val::Context(d) => Ok(Arg::Context(d)),
                        Val::Int(i) => Ok(Arg::Int(i)),
                        Val::Buffer { .. } => refuse(op, "passes a window buffer to a kernel; pass a pld.tensor_window of it"),
                        Val::Strided { what, .. } => refuse(op, format!("passes {what} to @{callee}; the simulator passes kernels dense row-major tensors only")),
                    })
                    .collect::<Step<_>>()?;
                self.held_by(op, &args, device, &callee)?;
                self.issue(op, device, Task::Kernel(KernelTask {
                    kernel: callee,
                    args,
                    caller: self.caller.clone(),
                    location: location(op),
                    dispatch: self.dispatch.clone(),
                }))
            }
            (Some(k), Place::Host) if k.is_device() => refuse(
                op,
                format!("calls the kernel @{callee} from the host; call it from a CHIP orchestrator inside a pld.dispatch"),
            ),
            (Some(FuncKind::Chip), Place::Host) => refuse(
                op,
                format!("calls the CHIP orchestrator @{callee} outside a pld.dispatch"),
            ),
            _ => {
                let saved = std::mem::replace(&mut self.caller, callee.clone());
                // A frame of its own: a function sees only its arguments,
                // and a recursive call must not overwrite its caller's
                // values (it did, and recursion computed wrong counts).
                let frame = std::mem::take(&mut self.values);
                let returned = self.call(function, &arguments, place);
                self.values = frame;
                let returned = returned?;
                self.caller = saved;
                for (index, value) in returned.into_iter().enumerate() {
                    if let Ok(result) = op.result(index) {
                        self.set(result.into(), value);
                    }
                }
                Ok(())
            }
        }
    }

    fn comm_domain(&mut self, op: OperationRef<'c, 'a>, place: Place) -> Step {
        if place != Place::Host {
            return refuse(op, "is only run in a HOST orchestrator");
        }
        let world = self.plan.world;
        let name = op
            .attribute("name")
            .ok()
            .and_then(pld_ir::attr::string)
            .unwrap_or_else(|| format!("comm_d{}", self.plan.domains.len()));
        let devices = match op
            .attribute("devices")
            .ok()
            .and_then(pld_ir::attr::i64_array)
        {
            None => (0..world).collect(),
            Some(list) if list.is_empty() => (0..world).collect(),
            Some(list) => {
                let mut devices = Vec::new();
                for d in list {
                    match usize::try_from(d) {
                        Ok(d) if d < world => devices.push(d),
                        _ => {
                            // A materialized scope lists its dispatches'
                            // devices: the dispatch is what the user wrote.
                            if let Some(dispatch) = dispatch_to(op, d) {
                                return refuse(
                                    dispatch,
                                    format!(
                                        "dispatches to device {d}, but the program runs on {}{}",
                                        self::devices(world),
                                        more_ranks(d)
                                    ),
                                );
                            }
                            return refuse(
                                op,
                                format!(
                                    "lists device {d}, but the program runs on {}",
                                    self::devices(world)
                                ),
                            );
                        }
                    }
                }
                devices
            }
        };
        let slots: Vec<String> = op
            .attribute("slots")
            .ok()
            .and_then(pld_ir::attr::array)
            .unwrap_or_default()
            .into_iter()
            .filter_map(pld_ir::attr::string)
            .collect();
        let maps = |name: &str| -> Vec<String> {
            op.attribute(name)
                .ok()
                .and_then(pld_ir::attr::array)
                .unwrap_or_default()
                .iter()
                .map(|m| m.to_string())
                .collect()
        };
        let (logical, padded) = (maps("logical_bytes"), maps("aligned_bytes"));
        if logical.len() != slots.len() || padded.len() != slots.len() {
            return refuse(
                op,
                "records no logical_bytes and aligned_bytes per slot; run \
                 pld-materialize-comm-domain-scopes",
            );
        }
        let evaluate = |slot: &str, map: &str| -> Step<usize> {
            let bytes = affine::evaluate(map, world as i64).map_err(|m| Refusal {
                location: location(op),
                message: format!(
                    "'{}' cannot size slot '{slot}' on {world} devices ({map}): {m}",
                    op_name(&op)
                ),
            })?;
            // Said of the buffer: the domain may be one the user never
            // wrote (pld-materialize-comm-domain-scopes made it).
            usize::try_from(bytes)
                .ok()
                .filter(|bytes| *bytes > 0)
                .ok_or_else(|| Refusal {
                    location: location(op),
                    message: format!(
                        "the window buffer '{slot}' is {bytes} bytes on {world} devices (its \
                         size, {map} of world_size s0); a window size must be positive"
                    ),
                })
        };
        let mut offset = 0usize;
        let mut planned = Vec::new();
        for ((slot, logical), padded) in slots.iter().zip(&logical).zip(&padded) {
            let bytes = evaluate(slot, logical)?;
            planned.push(Slot {
                name: slot.clone(),
                offset,
                bytes,
            });
            // Buffers start 32-byte aligned (collectives spec 10.2).
            let padded = evaluate(slot, padded)?;
            offset = padded
                .checked_next_multiple_of(32)
                .and_then(|b| offset.checked_add(b))
                .map_or_else(
                    || {
                        refuse(
                            op,
                            format!(
                                "needs more than 2^64 bytes of window on {world} devices \
                                 (slot '{slot}' of {padded} bytes)"
                            ),
                        )
                    },
                    Ok,
                )?;
        }
        let window_bytes = match op.attribute("window_bytes") {
            Ok(map) => affine::evaluate(&map.to_string(), world as i64)
                .ok()
                .and_then(|b| usize::try_from(b).ok())
                .unwrap_or(offset),
            Err(_) => offset,
        };
        if window_bytes < offset {
            return refuse(
                op,
                format!("records window_bytes {window_bytes}, less than its slots' {offset}"),
            );
        }
        self.plan.domains.push(DomainPlan {
            name,
            devices,
            window_bytes,
            slots: planned,
        });
        self.open.push(self.plan.domains.len() - 1);
        let body = op.region(0).ok().and_then(|r| r.first_block());
        let yielded = match body {
            Some(block) => self.block(block, place),
            None => Ok(Vec::new()),
        };
        self.open.pop();
        // What the scope yields (a view of its window, `gpu.yield %data`)
        // is its results' value after it: a HOST orchestrator may return
        // it, or use it.
        for (index, value) in yielded?.into_iter().enumerate() {
            if let Ok(result) = op.result(index) {
                self.set(result.into(), value);
            }
        }
        Ok(())
    }

    /// The innermost open domain whose slots name `name`, and the slot:
    /// nested domains (a pair of devices inside every device) hold their
    /// allocations at any depth, and a slot name is unique in a function
    /// (docs/dialect.md, D12).
    fn slot_of(&self, op: OperationRef<'c, 'a>, name: &str) -> Step<(usize, usize)> {
        if self.open.is_empty() {
            return refuse(
                op,
                "is outside every pld.comm_domain: a function with pld.comm_domain scopes of \
                 its own keeps them as written (pld-materialize-comm-domain-scopes only adds \
                 signals and sizes to them); put the allocation inside the scope whose devices \
                 use it and name it in its slots",
            );
        }
        for &domain in self.open.iter().rev() {
            if let Some(slot) = self.plan.domains[domain]
                .slots
                .iter()
                .position(|s| s.name == name)
            {
                return Ok((domain, slot));
            }
        }
        let around: Vec<&str> = self
            .open
            .iter()
            .rev()
            .map(|d| self.plan.domains[*d].name.as_str())
            .collect();
        refuse(
            op,
            format!(
                "allocates '{name}', which no slot of the comm domains around it names ({}); \
                 add it to the slots of the one whose devices use it",
                around.join(", ")
            ),
        )
    }

    fn alloc(&mut self, op: OperationRef<'c, 'a>) -> Step {
        let name = op
            .attribute("name")
            .ok()
            .and_then(pld_ir::attr::string)
            .unwrap_or_default();
        let (domain, slot) = self.slot_of(op, &name)?;
        let size = pld_ir::operand(op, 0)
            .ok_or(())
            .or_else(|_| refuse(op, "has no size"))?;
        let bytes = self.int(op, size)?;
        let plan = &self.plan.domains[domain];
        if usize::try_from(bytes).ok() != Some(plan.slots[slot].bytes) {
            return refuse(
                op,
                format!(
                    "allocates {bytes} bytes, but its comm domain records {} for '{name}'",
                    plan.slots[slot].bytes
                ),
            );
        }
        self.set(pld_ir::result(op), Val::Buffer { domain, slot });
        Ok(())
    }

    fn window(&mut self, op: OperationRef<'c, 'a>) -> Step {
        let view = OpView::new(op)
            .ok_or(())
            .or_else(|_| refuse(op, "is malformed"))?;
        let buffer = view
            .one("buffer")
            .ok_or(())
            .or_else(|_| refuse(op, "has no buffer"))?;
        let Val::Buffer { domain, slot } = self.get(op, buffer)? else {
            return refuse(op, "views something other than a window buffer");
        };
        let result = pld_ir::result(op);
        let info = match tensor_info(result.r#type()) {
            Ok(Some(info)) if info.kind == TensorKind::Distributed => info,
            _ => return refuse(op, "does not produce a distributed tensor"),
        };
        let dtype = Dtype::of(&info.dtype()).ok_or(()).or_else(|_| {
            refuse(
                op,
                format!(
                    "has element type {}; the simulator moves f16, f32, i32 and i8",
                    info.dtype()
                ),
            )
        })?;
        let mut dynamic = view.group("dynamic_sizes").unwrap_or_default().into_iter();
        let mut shape = Vec::new();
        for dim in &info.shape {
            let extent = match dim {
                Some(d) => *d,
                None => match dynamic.next() {
                    Some(v) => self.int(op, v)?,
                    None => return refuse(op, "has fewer dynamic sizes than `?` dimensions"),
                },
            };
            shape.push(
                usize::try_from(extent).or_else(|_| refuse(op, format!("has extent {extent}")))?,
            );
        }
        let plan = &self.plan.domains[domain];
        let slot = &plan.slots[slot];
        let tensor = TensorRef {
            domain,
            offset: slot.offset,
            shape,
            dtype,
            buffer: slot.name.clone(),
            slice_of: None,
        };
        if tensor.bytes() > slot.bytes {
            return refuse(
                op,
                format!(
                    "views {} bytes of '{}', which has {}",
                    tensor.bytes(),
                    slot.name,
                    slot.bytes
                ),
            );
        }
        self.set(result, Val::Tensor(tensor));
        Ok(())
    }

    fn dispatch(&mut self, op: OperationRef<'c, 'a>, place: Place) -> Step {
        if place != Place::Host {
            return refuse(op, "is only run in a HOST orchestrator");
        }
        let device = pld_ir::operand(op, 0)
            .ok_or(())
            .or_else(|_| refuse(op, "has no device"))?;
        let device = self.int(op, device)?;
        let device = self.device(op, device)?;
        // A dispatch whose CHIP orchestrator submits nothing counts too.
        if self.plan.round_trips.iter().sum::<u64>() > self.limit as u64 {
            return refuse(
                op,
                format!(
                    "goes past the limit of {} dispatches in one run (pld.dispatch round trips \
                     over {}; PLD_MAX_DISPATCHES sets it): is a loop bound larger than meant?",
                    self.limit,
                    devices(self.plan.world)
                ),
            );
        }
        self.plan.round_trips[device] += 1;
        self.dispatch = location(op);
        match op.region(0).ok().and_then(|r| r.first_block()) {
            Some(block) => self.block(block, Place::Device(device)).map(|_| ()),
            None => Ok(()),
        }
    }

    fn builtin(&mut self, op: OperationRef<'c, 'a>, place: Place) -> Step {
        if place != Place::Host {
            return refuse(op, "is only run in a HOST orchestrator");
        }
        let name = op_name(&op);
        let variant = match pld_backend::kernels::variant_of(op) {
            Ok(Some(v)) => v,
            Ok(None) => return refuse(op, "is not a builtin dispatch"),
            Err(message) => return refuse(op, message),
        };
        let view = OpView::new(op)
            .ok_or(())
            .or_else(|_| refuse(op, "is malformed"))?;
        let mut tensors = Vec::new();
        let mut device = None;
        let mut core_num = op.attribute("core_num").ok().and_then(pld_ir::attr::int);
        for group in &view.schema.operands {
            let values = view.group(&group.name).unwrap_or_default();
            for value in values {
                match (group.name.as_str(), self.get(op, value)?) {
                    ("device", Val::Int(d)) => device = Some(d),
                    ("core_num", Val::Int(c)) => core_num = Some(c),
                    (_, Val::Tensor(t)) => tensors.push(t),
                    (group, Val::Strided { what, .. }) => {
                        return refuse(
                            op,
                            format!(
                                "takes {what} as {group}; a builtin kernel needs dense row-major \
                                 operands"
                            ),
                        )
                    }
                    (group, other) => {
                        return refuse(
                            op,
                            format!("operand {group} is {other:?}, not a window tensor"),
                        )
                    }
                }
            }
        }
        let device = device
            .ok_or(())
            .or_else(|_| refuse(op, "names no device"))?;
        let device = self.device(op, device)?;
        let domain = self.domain_of(op, &tensors, device)?;
        let Some((kind, mode)) = CollectiveKind::from_builtin_op(&name) else {
            return refuse(op, "is not a builtin dispatch");
        };
        let collective = builtin_call(op, kind, mode);
        let scalars = entry_scalars(variant.builtin(), &collective, core_num.unwrap_or(1));
        self.plan.round_trips[device] += 1;
        self.issue(
            op,
            device,
            Task::Builtin(BuiltinTask {
                variant: variant.name(),
                domain,
                tensors,
                scalars,
                launch: None,
                collective,
                location: location(op),
            }),
        )
    }

    /// Device `device` of the program, which must be one of its devices.
    fn device(&self, op: OperationRef<'c, 'a>, device: i64) -> Step<usize> {
        match usize::try_from(device)
            .ok()
            .filter(|d| *d < self.plan.world)
        {
            Some(device) => Ok(device),
            None => refuse(
                op,
                format!(
                    "dispatches to device {device}, but the program runs on {}",
                    devices(self.plan.world)
                ),
            ),
        }
    }

    /// Refuses a kernel call on `device` that is given a tensor (or a
    /// comm context) of a domain `device` is not a member of: the device
    /// holds no part of that window, and its kernel ran on addresses of no
    /// window (a segfault, or loads and stores nobody saw).
    fn held_by(&self, op: OperationRef<'c, 'a>, args: &[Arg], device: usize, callee: &str) -> Step {
        for arg in args {
            let (domain, what) = match arg {
                Arg::Tensor(t) => (t.domain, format!("a view of '{}'", t.buffer)),
                Arg::Context(d) => (*d, "the comm context".to_string()),
                Arg::Int(_) => continue,
            };
            let plan = &self.plan.domains[domain];
            if plan.rank_of(device).is_none() {
                let members: Vec<String> = plan.devices.iter().map(usize::to_string).collect();
                return refuse(
                    op,
                    format!(
                        "passes {what} of comm domain '{}' (devices {}) to @{callee} on device \
                         {device}, which is not a member: it holds no part of that window",
                        plan.name,
                        members.join(", ")
                    ),
                );
            }
        }
        Ok(())
    }

    /// The comm domain of a builtin's tensors, which must all be in one
    /// domain that has `device` as a member.
    fn domain_of(
        &self,
        op: OperationRef<'c, 'a>,
        tensors: &[TensorRef],
        device: usize,
    ) -> Step<usize> {
        let Some(first) = tensors.first() else {
            return refuse(op, "has no tensor operand");
        };
        let domain = first.domain;
        if tensors.iter().any(|t| t.domain != domain) {
            return refuse(op, "takes tensors of different comm domains");
        }
        if self.plan.domains[domain].rank_of(device).is_none() {
            return refuse(
                op,
                format!("runs on device {device}, which is not in its tensors' comm domain"),
            );
        }
        Ok(domain)
    }

    /// A CHIP orchestrator's call of a builtin kernel the CHIP rail
    /// synthesized: one more task in the device's own pipeline (no L3 -> L2
    /// round trip). all_to_all_v runs the same compiled kernel as the HOST
    /// rail's, through its entry; indexed_all_to_all_v (A5, URMA) has no
    /// entry: its kernel is launched with `core_num` blocks, as the CHIP
    /// orchestrator submits it. The kernels require contiguous operands: a
    /// strided view is refused here, while planning, so no rank starts the
    /// exchange.
    fn builtin_kernel(
        &mut self,
        op: OperationRef<'c, 'a>,
        callee: &str,
        function: OperationRef<'c, 'a>,
        arguments: Vec<Val>,
        place: Place,
    ) -> Step {
        let Place::Device(device) = place else {
            return refuse(
                op,
                format!("calls the builtin kernel @{callee} outside a CHIP orchestrator"),
            );
        };
        let variant =
            pld_backend::kernels::chip::kernel_variant(function).or_else(|m| refuse(op, m))?;
        let kind = match variant.builtin() {
            Builtin::AllToAllV => CollectiveKind::AllToAllV,
            Builtin::IndexedAllToAllV => CollectiveKind::IndexedAllToAllV,
            other => {
                return refuse(
                    op,
                    format!(
                        "calls @{callee}, a {} kernel the CHIP rail does not synthesize",
                        other.dir()
                    ),
                )
            }
        };
        let roles: Vec<&str> = kind
            .facts()
            .operands
            .iter()
            .map(|o| o.role.group())
            .collect();
        let tensors = chip_tensors(op, callee, kind, &roles, &arguments)?;
        let domain = self.domain_of(op, &tensors, device)?;
        let (scalars, launch) = chip_launch(op, kind);
        let target = tensors[1].clone();
        self.issue(
            op,
            device,
            Task::Builtin(BuiltinTask {
                variant: variant.name(),
                domain,
                tensors,
                scalars,
                launch,
                collective: builtin_call(op, kind, AllReduceMode::Mesh),
                location: location(op),
            }),
        )?;
        if let Ok(result) = op.result(0) {
            self.set(result.into(), Val::Tensor(target));
        }
        Ok(())
    }

    /// `tensor.extract_slice` of a window tensor: a dense slice (full inner
    /// dimensions, then one narrowed dimension, then unit dimensions) is a
    /// tensor at an offset of the window; any other is a strided view that
    /// no kernel may receive.
    fn slice(&mut self, op: OperationRef<'c, 'a>) -> Step {
        let operands = pld_ir::operands(op);
        let Some((&source, mut dynamic)) = operands.split_first().map(|(s, r)| (s, r.iter()))
        else {
            return refuse(op, "has no source");
        };
        let t = match self.get(op, source)? {
            Val::Tensor(t) => t,
            other => return refuse(op, format!("slices {other:?}, not a window tensor")),
        };
        let rank = t.shape.len();
        let mut read = |name: &str| -> Step<Vec<i64>> {
            let Some(list) = op.attribute(name).ok().and_then(pld_ir::attr::i64_array) else {
                return refuse(op, format!("has no {name}"));
            };
            if list.len() != rank {
                return refuse(
                    op,
                    format!("has {} {name} for a rank-{rank} source", list.len()),
                );
            }
            list.into_iter()
                .map(|v| match v {
                    i64::MIN => match dynamic.next() {
                        Some(value) => self.int(op, *value),
                        None => refuse(op, "has fewer dynamic operands than `?` entries"),
                    },
                    v => Ok(v),
                })
                .collect()
        };
        let offsets = read("static_offsets")?;
        let sizes = read("static_sizes")?;
        let strides = read("static_strides")?;
        for d in 0..rank {
            let extent = t.shape[d] as i64;
            let (o, z, s) = (offsets[d], sizes[d], strides[d]);
            let last = o + (z - 1).max(0) * s;
            if o < 0 || z < 0 || s < 1 || (z > 0 && last >= extent) {
                return refuse(
                    op,
                    format!(
                        "reads past dimension {d} of its {:?} source (offset {o}, size {z}, \
                         stride {s})",
                        t.shape
                    ),
                );
            }
        }
        let full = |d: usize| offsets[d] == 0 && sizes[d] == t.shape[d] as i64;
        let mut k = rank;
        while k > 0 && full(k - 1) {
            k -= 1;
        }
        // Dimensions 0..k: the last may be narrowed (unit stride), those
        // before it must be single rows.
        let dense = k == 0
            || ((strides[k - 1] == 1 || sizes[k - 1] == 1)
                && sizes[..k - 1].iter().all(|z| *z == 1))
            || sizes.contains(&0);
        let result = pld_ir::result(op);
        if !dense {
            let what = format!(
                "the tensor.extract_slice at {} (offsets {offsets:?}, sizes {sizes:?}, strides \
                 {strides:?} of a {:?} tensor, which is not contiguous)",
                location(op),
                t.shape
            );
            self.set(
                result,
                Val::Strided {
                    domain: t.domain,
                    what,
                },
            );
            return Ok(());
        }
        let mut linear = 0i64;
        let mut pitch = 1i64;
        for d in (0..rank).rev() {
            linear += offsets[d] * pitch;
            pitch *= t.shape[d] as i64;
        }
        let rank_out = match tensor_info(result.r#type()) {
            Ok(Some(info)) => info.rank(),
            _ => return refuse(op, "does not produce a ranked tensor"),
        };
        let mut shape: Vec<usize> = sizes.iter().map(|z| *z as usize).collect();
        while shape.len() > rank_out {
            match shape.iter().position(|z| *z == 1) {
                Some(unit) => {
                    shape.remove(unit);
                }
                None => return refuse(op, "drops a dimension that is not a unit dimension"),
            }
        }
        let whole = t.whole();
        let tensor = TensorRef {
            offset: t.offset + linear as usize * t.dtype.bytes(),
            shape,
            slice_of: Some((whole.offset, whole.shape)),
            ..t
        };
        self.set(result, Val::Tensor(tensor));
        Ok(())
    }
}

/// The collective a builtin kernel call carries out: its operands are the
/// call's tensors, in the builtin's order.
fn builtin_call(op: OperationRef, kind: CollectiveKind, mode: AllReduceMode) -> Collective {
    let given = op.attribute("op").ok().and_then(ReduceOp::from_attribute);
    let root = op.attribute("root").ok().and_then(pld_ir::attr::int);
    Collective {
        kind,
        mode,
        // The builtin's name is its schedule; the record says auto chose it.
        origin: pld_dialect::ops::collective::mode_origin(op, &mode.to_string()),
        rail: Rail::Builtin,
        valid_shape: None,
        reduce: kind.reduce_op(given),
        root: kind.facts().root.then(|| root.unwrap_or(0)),
        operands: (0..kind.facts().operands.len()).map(Some).collect(),
        shapes: Vec::new(),
        in_loop: None,
        in_branch: None,
        location: location(op),
    }
}

/// The scalars of a CHIP-rail builtin task and, for a kernel without an
/// entry, its launch width. The call carries the launch width B (absent:
/// one block): all_to_all_v's entry computes CalAllToAllVBlocks(P, B) = B
/// again; the indexed kernel is launched on exactly B blocks, with one
/// CommContext per distributed operand (target, signal, send_counts:
/// slots 6 to 8).
fn chip_launch(op: OperationRef, kind: CollectiveKind) -> (Vec<BuiltinScalar>, Option<i64>) {
    let blocks = op
        .attribute("core_num")
        .ok()
        .and_then(pld_ir::attr::int)
        .unwrap_or(1);
    match kind {
        CollectiveKind::IndexedAllToAllV => (vec![BuiltinScalar::Context; 3], Some(blocks)),
        CollectiveKind::AllReduce
        | CollectiveKind::Barrier
        | CollectiveKind::Broadcast
        | CollectiveKind::ReduceScatter
        | CollectiveKind::Reduce
        | CollectiveKind::AllGather
        | CollectiveKind::AllToAll
        | CollectiveKind::AllToAllV => (
            vec![BuiltinScalar::Context, BuiltinScalar::CoreNum(blocks)],
            None,
        ),
    }
}

/// The tensors a CHIP orchestrator passes to a synthesized builtin kernel,
/// one per role of `kind` (named `roles`), each a contiguous window tensor.
fn chip_tensors(
    op: OperationRef,
    callee: &str,
    kind: CollectiveKind,
    roles: &[&str],
    arguments: &[Val],
) -> Step<Vec<TensorRef>> {
    let mut tensors = Vec::new();
    for (role, value) in roles.iter().zip(arguments) {
        match value {
            Val::Tensor(t) => tensors.push(t.clone()),
            Val::Strided { what, .. } => {
                return refuse(
                    op,
                    format!(
                        "passes {what}, as the {role} of @{callee} (the CHIP rail's {}), whose \
                         operands must be contiguous (require_contiguous_operands); refused \
                         before any rank starts the exchange",
                        kind.op_name()
                    ),
                )
            }
            other => {
                return refuse(
                    op,
                    format!("passes {other:?} as the {role} of @{callee}, not a window tensor"),
                )
            }
        }
    }
    if tensors.len() != roles.len() {
        return refuse(
            op,
            format!(
                "passes {} tensors to @{callee}, which takes {}",
                tensors.len(),
                roles.len()
            ),
        );
    }
    Ok(tensors)
}

/// The scalars a builtin's entry takes after its tensors, as the catalog
/// lists them.
fn entry_scalars(builtin: Builtin, collective: &Collective, core_num: i64) -> Vec<BuiltinScalar> {
    builtin
        .scalars()
        .iter()
        .map(|scalar| match scalar {
            Scalar::Ranks => BuiltinScalar::Ranks,
            Scalar::Context => BuiltinScalar::Context,
            Scalar::CoreNum => BuiltinScalar::CoreNum(core_num),
            Scalar::Root => BuiltinScalar::Value(collective.root.unwrap_or(0)),
        })
        .collect()
}

/// The first `pld.dispatch` inside `scope` to the constant device `device`.
fn dispatch_to<'c, 'a>(scope: OperationRef<'c, 'a>, device: i64) -> Option<OperationRef<'c, 'a>>
where
    'c: 'a,
{
    pld_ir::collect(scope, |n| n == "pld.dispatch")
        .into_iter()
        .find(|dispatch| {
            pld_ir::operand(*dispatch, 0)
                .and_then(pld_ir::defining_op)
                .filter(|c| op_name(c) == "arith.constant")
                .and_then(|c| c.attribute("value").ok())
                .and_then(pld_ir::attr::int)
                == Some(device)
        })
}

/// The bits of an integer type (`index` is 64 in the simulator; anything
/// else is read as 64).
fn integer_width(ty: melior::ir::Type) -> u32 {
    melior::ir::r#type::IntegerType::try_from(ty).map_or(64, |t| t.width())
}

/// Why MLIR gives `op` no value for its operands.
fn undefined(op: pld_lowering::shard::arith::IntOp) -> &'static str {
    use pld_lowering::shard::arith::IntOp;
    match op {
        IntOp::ShL | IntOp::ShRS | IntOp::ShRU => {
            "shifts by the width of its type or more (or by a negative amount)"
        }
        IntOp::DivS | IntOp::FloorDivS | IntOp::CeilDivS => {
            "divides by zero, or divides the minimum of its signed type by -1 (an overflow)"
        }
        IntOp::Add
        | IntOp::Sub
        | IntOp::Mul
        | IntOp::DivU
        | IntOp::RemS
        | IntOp::RemU
        | IntOp::CeilDivU
        | IntOp::MaxS
        | IntOp::MaxU
        | IntOp::MinS
        | IntOp::MinU
        | IntOp::And
        | IntOp::Or
        | IntOp::Xor => "divides by zero",
    }
}

/// `: run it on 6 ranks or more` for a dispatch to device 5 past the run's
/// devices, when that many ranks can run.
fn more_ranks(device: i64) -> String {
    match usize::try_from(device) {
        Ok(d) if d < crate::MAX_RANKS => format!(": run it on {} ranks or more", d + 1),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_dispatch_limit_is_the_smaller_of_the_setting_and_half_the_memory() {
        let gib = 1 << 30;
        // 8 GiB free: 4 Mi dispatches of 1 KiB fit in half of it.
        assert_eq!(dispatch_limit(1_000_000, Some(8 * gib)), (1_000_000, false));
        assert_eq!(
            dispatch_limit(1_000_000_000, Some(8 * gib)),
            (4 << 20, true)
        );
        assert_eq!(dispatch_limit(1_000_000_000, None), (1_000_000_000, false));
        assert_eq!(dispatch_limit(10, Some(0)), (1, true));
    }
}
