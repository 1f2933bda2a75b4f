//! `pld-synthesize-allreduce-signals`: gives every HOST
//! `pld.tensor_allreduce` written without a signal a fresh private one.
//!
//! Docs: `docs/passes/pld-synthesize-allreduce-signals.md`; tests: `tests/lit/passes/pld-synthesize-allreduce-signals/`.
//!
//! Before the collective it inserts
//!
//! ```text
//! %__allreduce_signal_world_size_k = pld.system_world_size
//! %__allreduce_signal_buf_k = pld.tensor_alloc_window_buffer(ws * 4)   // * core_num lanes
//! %__allreduce_signal_k = pld.tensor_window(%buf, ws) : tensor<?x1xi32, #pld.dist>
//! ```
//!
//! and passes the view as the signal; for the ring `mode = "auto"` chose
//! (its record holds the rank count N) a static `[2(N-1)+1, N]` window,
//! the HOST ring's. The names come from one counter for
//! the whole module that skips every name already in use (allocation names
//! and location names), and are attached as the allocation's `name` and as
//! name locations, so `--mlir-use-nameloc-as-prefix` prints them. Calls that
//! pass a signal, and allreduces outside HOST orchestrators, are left alone.

use crate::host::{enclosing_loop, host_functions};
use melior::{
    ir::{operation::OperationLike, Location, OperationRef, Type, Value},
    pass::Pass,
    Context,
};
use pld_dialect::enums::AllReduceMode;
use pld_dialect::ops::collective::AUTO_MODE_RECORD;
use pld_dialect::ops::host::CommDomain;
use pld_dialect::ops::{
    collective::AllReduce,
    window::{AllocWindowBuffer, Window, WorldSize},
};
use pld_ir as ir;
use pld_ir::op_name;
use pld_ir::pass::{external, Anchor, PassFailed, PassIdentity, PldPass, Report};
use std::collections::HashSet;

#[derive(Clone, Default)]
pub struct SynthesizeAllReduceSignals;

impl PldPass for SynthesizeAllReduceSignals {
    const ARGUMENT: &'static str = "pld-synthesize-allreduce-signals";
    const NAME: &'static str = "PldSynthesizeAllReduceSignals";
    const SUMMARY: &'static str =
        "Give each HOST allreduce written without a signal a fresh i32 signal window in the shape its mode needs ([world_size, lanes]; the HOST ring's [2(N-1)+1, N])";

    const ANCHOR: Anchor = Anchor::Module;

    fn run(&self, context: &Context, module: OperationRef) -> Result<(), PassFailed> {
        // Names are unique in the whole program.
        let mut names = FreshNames::new(used_names(module));
        let mut report = Report::default();
        for function in host_functions(module) {
            for op in ir::collect(function, |n| n == AllReduce::NAME) {
                let Some(allreduce) = AllReduce::cast(op) else {
                    continue;
                };
                match check(allreduce) {
                    Err(message) => report.error(op, &message),
                    Ok(false) => {}
                    Ok(true) => match signal_shape(allreduce) {
                        Ok(shape) => synthesize(context, allreduce, shape, &names.next()),
                        Err(message) => report.error(op, &message),
                    },
                }
            }
        }
        report.finish()
    }
}

/// Checks one HOST allreduce; `Ok(true)` when it needs a signal.
fn check(allreduce: AllReduce) -> Result<bool, String> {
    let op = allreduce.op();
    let operands = op.operand_count();
    if !(1..=2).contains(&operands) {
        return Err(format!(
            "expects a target and an optional signal operand, got {operands} operands"
        ));
    }
    if let Some(parent) = ir::ancestors(op).into_iter().find(|a| {
        !matches!(
            op_name(a).as_str(),
            "scf.if" | "scf.for" | "scf.while" | CommDomain::NAME
        )
    }) {
        return Err(format!(
            "must be directly in the body of the HOST orchestrator, or of an scf.if, scf.for or \
             scf.while in it, for pld-synthesize-allreduce-signals; it is inside '{}'",
            op_name(&parent)
        ));
    }
    if allreduce.signal().is_some() {
        return Ok(false);
    }
    if enclosing_loop(op).is_some() {
        return Err(
            "without a signal operand cannot be inside an scf.for or scf.while on the HOST rail; \
             pass a signal (a pld.tensor_window of a pld.tensor_alloc_window_buffer) or move the \
             op out of the loop"
                .into(),
        );
    }
    Ok(true)
}

/// The three names of one synthesized signal.
struct SignalNames {
    world_size: String,
    buffer: String,
    view: String,
}

/// Draws `k = 0, 1, ...` until none of the three names of `k` is taken.
struct FreshNames {
    used: HashSet<String>,
    next: usize,
}

impl FreshNames {
    fn new(used: HashSet<String>) -> Self {
        Self { used, next: 0 }
    }

    fn next(&mut self) -> SignalNames {
        loop {
            let k = self.next;
            self.next += 1;
            let names = SignalNames {
                world_size: format!("__allreduce_signal_world_size_{k}"),
                buffer: format!("__allreduce_signal_buf_{k}"),
                view: format!("__allreduce_signal_{k}"),
            };
            let all = [&names.world_size, &names.buffer, &names.view];
            if all.iter().all(|n| !self.used.contains(*n)) {
                self.used.extend(all.into_iter().cloned());
                return names;
            }
        }
    }
}

/// Every name the module already uses: allocation names and the names in
/// op locations.
fn used_names(module: OperationRef) -> HashSet<String> {
    let mut used = HashSet::new();
    for op in ir::collect(module, |_| true) {
        used.extend(ir::location_names(op.location()));
        if let Some(name) = AllocWindowBuffer::cast(op).and_then(|a| a.name()) {
            used.insert(name);
        }
    }
    used
}

/// The shape of the synthesized signal: what the call's mode needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SignalShape {
    /// `[world_size, lanes]`: the mesh's and two-shot's.
    Lanes(i64),
    /// `[2 (N-1) + 1, N]`: the HOST ring's, for the N ranks
    /// `mode = "auto"` chose it for (a window's size must be linear in
    /// world_size, so it is static).
    Ring(i64),
}

/// The shape `allreduce`'s mode needs. A ring without a signal is one
/// that `mode = "auto"` chose: its record holds the rank count.
fn signal_shape(allreduce: AllReduce) -> Result<SignalShape, String> {
    let lanes = allreduce.core_num().unwrap_or(1).max(1);
    match allreduce.mode() {
        Ok(AllReduceMode::Ring) => allreduce
            .op()
            .attribute(AUTO_MODE_RECORD)
            .ok()
            .and_then(pld_ir::attr::dictionary)
            .and_then(|record| record.into_iter().find(|(key, _)| key == "ranks"))
            .and_then(|(_, ranks)| pld_ir::attr::int(ranks))
            .filter(|n| (2..=64).contains(n))
            .map(SignalShape::Ring)
            .ok_or_else(|| {
                format!(
                    "mode = \"ring\" without a signal needs the rank count `ranks` (2 to 64) \
                     in its {AUTO_MODE_RECORD} record, as pld-select-allreduce-modes \
                     world-size=N writes it"
                )
            }),
        // "auto" (resolved first, to these or the ring) and unknown modes
        // (reported by the rail) get the mesh's shape.
        Ok(AllReduceMode::Mesh | AllReduceMode::TwoShot) | Err(_) => Ok(SignalShape::Lanes(lanes)),
    }
}

/// The synthesized signal's size in bytes, its `[world_size, lanes]`
/// rows (`None`: a static shape) and its type, inserted before `op`.
fn signal_size<'c, 'a>(
    context: &'c Context,
    op: OperationRef<'c, 'a>,
    shape: SignalShape,
    names: &SignalNames,
) -> (Value<'c, 'a>, Option<Value<'c, 'a>>, String) {
    let location = op.location();
    let i64_type = ir::i64_type(context);
    match shape {
        SignalShape::Lanes(lanes) => {
            let world_size = ir::result(ir::insert_before(
                op,
                WorldSize::builder(context, ir::named(context, &names.world_size, location))
                    .result(i64_type)
                    .build(),
            ));
            // One INT32 cell per peer and lane.
            let mut bytes = world_size;
            if lanes > 1 {
                bytes = multiply(context, op, bytes, lanes, location);
            }
            let bytes = multiply(context, op, bytes, 4, location);
            (
                bytes,
                Some(world_size),
                format!("tensor<?x{lanes}xi32, #pld.dist>"),
            )
        }
        SignalShape::Ring(n) => {
            let rows = 2 * (n - 1) + 1;
            let bytes = ir::result(ir::insert_before(
                op,
                ir::constant(context, i64_type, rows * n * 4, location),
            ));
            (bytes, None, format!("tensor<{rows}x{n}xi32, #pld.dist>"))
        }
    }
}

fn synthesize(context: &Context, allreduce: AllReduce, shape: SignalShape, names: &SignalNames) {
    let op = allreduce.op();
    let location = op.location();
    let named = |name: &str| ir::named(context, name, location);
    let (bytes, rows, view_type) = signal_size(context, op, shape, names);
    let buffer = ir::result(ir::insert_before(
        op,
        AllocWindowBuffer::builder(context, named(&names.buffer))
            .size(bytes)
            .name(context, &names.buffer)
            .result(Type::parse(context, "!pld.ptr").expect("!pld.ptr parses"))
            .build(),
    ));
    // The rows of a `[world_size, lanes]` view, as an index.
    let sizes: Vec<Value> = rows
        .map(|rows| {
            ir::result(ir::insert_before(
                op,
                melior::dialect::arith::index_cast(rows, Type::index(context), location),
            ))
        })
        .into_iter()
        .collect();
    let view = ir::result(ir::insert_before(
        op,
        Window::builder(context, named(&names.view))
            .buffer(buffer)
            .dynamic_sizes(&sizes)
            .result(Type::parse(context, &view_type).expect("signal type parses"))
            .build(),
    ));
    let Some(target) = allreduce.target() else {
        return;
    };
    ir::set_operands(op, &[target, view]);
}

/// Inserts `value * factor` (i64) before `anchor`.
fn multiply<'c, 'a>(
    context: &'c Context,
    anchor: OperationRef<'c, 'a>,
    value: Value<'c, 'a>,
    factor: i64,
    location: Location<'c>,
) -> Value<'c, 'a> {
    let factor = ir::result(ir::insert_before(
        anchor,
        ir::constant(context, ir::i64_type(context), factor, location),
    ));
    ir::result(ir::insert_before(
        anchor,
        melior::dialect::arith::muli(value, factor, location),
    ))
}

static IDENTITY: PassIdentity = PassIdentity;

/// Creates the pass.
pub fn create() -> Pass {
    external(SynthesizeAllReduceSignals, &IDENTITY)
}
