//! `pld-lower-composite-ops`: expands the collectives of InCore
//! kernels into signal, remote-load and local tile ops in the same kernel.
//!
//! Docs: `docs/passes/pld-lower-composite-ops.md`; tests: `tests/lit/passes/pld-lower-composite-ops/`.
//!
//! Rules: the common allreduce front end (7.1.1), the mesh allreduce
//! (7.1.2: any length on a fully valid target, one chunk on a partial valid
//! box), the ring allreduce (7.1.3), the two-shot allreduce, and the other composite collectives of
//! 7.1.4 (barrier, broadcast, reduce_scatter, allgather, all_to_all,
//! all_to_all_v). HOST and CHIP orchestrators are left to
//! their own rails.

use crate::composite::{
    check_mesh_signal,
    comm::{self, Cells},
    exchange, mesh, name_the_choice, ring, two_shot, AllReduceRequest,
};
use melior::ir::operation::OperationLike;
use melior::{ir::OperationRef, pass::Pass, Context};
use pld_dialect::{
    collective::CollectiveKind,
    enums::{AllReduceMode, FuncKind, ReduceOp},
    ops::{
        collective::{AllReduce, Broadcast, Reduce},
        OpView,
    },
    query::function_kind,
    types::{operand_tensor, Layout, TensorInfo},
};
use pld_ir as ir;
use pld_ir::build::Builder;
use pld_ir::op_name;
use pld_ir::pass::{external, Anchor, PassFailed, PassIdentity, PldPass, Report};

#[derive(Clone, Default)]
pub struct LowerCompositeOps;

impl PldPass for LowerCompositeOps {
    const ARGUMENT: &'static str = "pld-lower-composite-ops";
    const NAME: &'static str = "PldLowerCompositeOps";
    const SUMMARY: &'static str =
        "Expand the collectives of InCore kernels into notify/wait, remote loads and tile ops (composite rail)";

    const ANCHOR: Anchor = Anchor::Function;

    fn run(&self, context: &Context, root: OperationRef) -> Result<(), PassFailed> {
        let mut report = Report::default();
        let functions = ir::functions(root);
        for function in functions {
            if function_kind(function) != Ok(Some(FuncKind::InCore)) {
                continue;
            }
            note_ranks_at_least(context, function);
            for op in ir::collect(function, |n| CollectiveKind::from_op_name(n).is_some()) {
                if let Err(message) = lower(context, op) {
                    report.error(op, &message);
                }
            }
        }
        report.finish()
    }
}

/// The function attribute that keeps, past the expansion, the fewest ranks
/// the kernel's roots need: a broadcast or reduce to root r runs on r + 1
/// ranks or more, which a converted kernel no longer shows
/// (`pld-explore-protocol` leaves smaller rank counts out by default).
pub const RANKS_AT_LEAST: &str = "pld.ranks_at_least";

/// Sets [`RANKS_AT_LEAST`] on `function` when a collective of it names a
/// root (the largest root plus one; the collective table says which take
/// one).
fn note_ranks_at_least(context: &Context, function: OperationRef) {
    let roots = ir::collect(function, |n| {
        CollectiveKind::from_op_name(n).is_some_and(|kind| kind.facts().root)
    });
    let least = roots
        .into_iter()
        .filter_map(|op| op.attribute("root").ok().and_then(ir::attr::int))
        .filter_map(|root| root.checked_add(1))
        .max();
    if let Some(least) = least.filter(|&n| n > 1) {
        let value = melior::ir::attribute::IntegerAttribute::new(ir::i64_type(context), least);
        ir::set_attribute(function, RANKS_AT_LEAST, value.into());
    }
}

/// Lowers one collective; on success the op is replaced.
fn lower<'c, 'a>(context: &'c Context, op: OperationRef<'c, 'a>) -> Result<(), String>
where
    'c: 'a,
{
    let kind = CollectiveKind::from_op_name(&op_name(&op)).ok_or("not a collective")?;
    let b = Builder::before(context, op);
    let view = OpView::new(op).ok_or("malformed collective")?;
    let alias = match kind {
        CollectiveKind::AllReduce => {
            allreduce(&b, op).map_err(|message| name_the_choice(op, message))?
        }
        CollectiveKind::Barrier => barrier(&b, &view)?,
        CollectiveKind::Broadcast => {
            let root = Broadcast::cast(op).and_then(|b| b.root()).unwrap_or(0);
            let (target, signal) = operands2(&view, "target", "signal")?;
            let target_info = operand_tensor(target)?;
            whole_rows(kind, &[("target", target, &target_info)])?;
            check_mesh_signal(&operand_tensor(signal)?)?;
            exchange::broadcast(&b, target, &target_info, signal, root)?;
            target
        }
        CollectiveKind::ReduceScatter => {
            let (target, signal) = operands2(&view, "target", "signal")?;
            let target_info = operand_tensor(target)?;
            whole_rows(kind, &[("target", target, &target_info)])?;
            check_mesh_signal(&operand_tensor(signal)?)?;
            let ub = pld_dialect::target::target_of(op)?.ub_bytes();
            exchange::reduce_scatter(&b, target, &target_info, signal, ub)?;
            target
        }
        CollectiveKind::Reduce => reduce(&b, op)?,
        CollectiveKind::AllGather | CollectiveKind::AllToAll => {
            let (input, target) = operands2(&view, "input", "target")?;
            let signal = view.one("signal").ok_or("malformed collective")?;
            check_mesh_signal(&operand_tensor(signal)?)?;
            let input_info = operand_tensor(input)?;
            let target_info = operand_tensor(target)?;
            whole_rows(
                kind,
                &[
                    ("input", input, &input_info),
                    ("target", target, &target_info),
                ],
            )?;
            if kind == CollectiveKind::AllGather {
                exchange::allgather(&b, input, &input_info, target, signal)?;
            } else {
                exchange::all_to_all(&b, input, &input_info, target, signal)?;
            }
            target
        }
        CollectiveKind::AllToAllV => all_to_all_v(&b, &view)?,
        CollectiveKind::IndexedAllToAllV => {
            return Err(format!("{kind} is not lowered on the InCore rail yet"))
        }
    };
    finish(op, alias)
}

/// 7.1.1-7.1.3: a mesh, ring or two-shot allreduce.
fn allreduce<'c, 'a>(
    b: &Builder<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> Result<melior::ir::Value<'c, 'a>, String>
where
    'c: 'a,
{
    let allreduce = AllReduce::cast(op).ok_or("malformed allreduce")?;
    let signal = allreduce
        .signal()
        .ok_or("needs a signal operand outside HOST orchestrators")?;
    let target = allreduce.target().ok_or("malformed allreduce")?;
    let info = operand_tensor(target)?;
    // 7.1.1: a packed ND target, one core, a known mode.
    packed_nd(&info)?;
    credits_fit(&info)?;
    if allreduce.core_num() != Some(1) {
        return Err(
            "core_num > 1 is supported only in a HOST orchestrator, whose builtin \
             kernel runs on core_num blocks; in a kernel it must be 1"
                .into(),
        );
    }
    let request = AllReduceRequest {
        target,
        info,
        signal,
        signal_info: operand_tensor(signal)?,
        reduce: allreduce.reduce_op().unwrap_or(ReduceOp::Sum),
        root: None,
        choice: op.attribute(crate::composite::AUTO_MODE_ATTRIBUTE).ok(),
    };
    match allreduce.mode()? {
        AllReduceMode::Ring => {
            ring::check(&request)?;
            ring::lower(b, &request);
        }
        AllReduceMode::TwoShot => {
            check_mesh_signal(&request.signal_info)?;
            ring::contiguous_prefix(&request.info)?;
            two_shot::lower(b, &request);
        }
        AllReduceMode::Mesh => {
            check_mesh_signal(&request.signal_info)?;
            if request.info.valid_shape.is_some() {
                mesh::lower_partial(b, &request)?;
            } else {
                mesh::lower(b, &request);
            }
        }
    }
    Ok(target)
}

/// A reduce to a root: the mesh allreduce's schedule in which only the
/// root folds in its peers' chunks and stores (docs/passes/pld-lower-composite-ops.md).
fn reduce<'c, 'a>(
    b: &Builder<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> Result<melior::ir::Value<'c, 'a>, String>
where
    'c: 'a,
{
    let reduce = Reduce::cast(op).ok_or("malformed reduce")?;
    let (Some(target), Some(signal)) = (reduce.target(), reduce.signal()) else {
        return Err("malformed reduce".into());
    };
    let info = operand_tensor(target)?;
    if info.valid_shape.is_some() {
        return Err("a target with a valid_shape is not supported by pld.tensor_reduce yet".into());
    }
    packed_nd(&info)?;
    credits_fit(&info)?;
    let signal_info = operand_tensor(signal)?;
    check_mesh_signal(&signal_info)?;
    let root = b.index(reduce.root().unwrap_or(0));
    let request = AllReduceRequest {
        target,
        info,
        signal,
        signal_info,
        reduce: reduce.reduce_op().unwrap_or(ReduceOp::Sum),
        root: Some(root),
        choice: None,
    };
    mesh::lower(b, &request);
    Ok(target)
}

/// A signal cell is an i32: the credits one call gives a cell (a barrier
/// per chunk of the target, and one more) must fit it, or the counts and
/// the epilogue wrap. Only a static target is checked (a dynamic one is
/// counted at run time).
fn credits_fit(info: &TensorInfo) -> Result<(), String> {
    let Some(elements) = info.static_numel() else {
        return Ok(());
    };
    let width = pld_ir::types::byte_width(info.element).unwrap_or(4).max(1);
    let chunk = crate::composite::geometry::chunk_elems(width);
    let chunks = elements / chunk + i64::from(elements % chunk != 0);
    if chunks >= i64::from(i32::MAX) {
        return Err(format!(
            "has {elements} elements, {chunks} chunks of {chunk}: a call would give a signal \
             cell more credits (a barrier per chunk) than an i32 counts ({})",
            i32::MAX
        ));
    }
    Ok(())
}

/// 7.1.1: the target is viewed as one row, so it must be ND and packed.
fn packed_nd(info: &TensorInfo) -> Result<(), String> {
    packed_nd_as("target", info)
}

/// [`packed_nd`] of operand `role`.
fn packed_nd_as(role: &str, info: &TensorInfo) -> Result<(), String> {
    if info.layout.is_some_and(|l| l != Layout::Nd) {
        return Err(format!("{role} view only supports ND layout"));
    }
    if let (Some(strides), Some(packed)) = (&info.strides, info.packed_strides()) {
        if *strides != packed {
            return Err(format!("{role} shape reinterpret requires a packed source"));
        }
    }
    Ok(())
}

/// The data operands of a broadcast, reduce_scatter, allgather or
/// all_to_all: their expansions copy whole packed rows, so each must be ND,
/// packed and fully valid (a strided operand ran past its buffer, a `dn`
/// one was read as row-major, and a partial valid_shape was ignored).
fn whole_rows(
    kind: CollectiveKind,
    operands: &[(&str, melior::ir::Value, &TensorInfo)],
) -> Result<(), String> {
    for (role, value, info) in operands {
        packed_nd_as(role, info)?;
        let article = if role.starts_with('i') { "an" } else { "a" };
        if info.valid_shape.is_some() {
            return Err(format!(
                "{article} {role} with a valid_shape is not supported by {} yet",
                kind.op_name()
            ));
        }
        if view_narrows(*value, info) {
            return Err(format!(
                "{article} {role} that is a pld.tensor_view with valid_shape operands other \
                 than its full shape is not supported by {} yet (its whole rows would be moved)",
                kind.op_name()
            ));
        }
    }
    Ok(())
}

/// Whether `value` is a `pld.tensor_view` whose valid_shape operands may
/// be smaller than its type's shape (any that is not a constant equal to
/// the extent): a valid region its type does not show.
fn view_narrows(value: melior::ir::Value, info: &TensorInfo) -> bool {
    let Some(view) = ir::defining_op(value)
        .filter(|op| op_name(op) == pld_dialect::ops::tile::TensorView::NAME)
        .and_then(OpView::new)
    else {
        return false;
    };
    let valid = view.group("valid_shape").unwrap_or_default();
    valid
        .iter()
        .zip(info.shape.iter().chain(std::iter::repeat(&None)))
        .any(|(v, extent)| match (ir::constant_int(*v), extent) {
            (Some(size), Some(extent)) => size != *extent,
            _ => true,
        })
}

/// 7.1.4: one barrier round and its epilogue.
fn barrier<'c, 'a>(
    b: &Builder<'c, 'a>,
    view: &OpView<'c, 'a>,
) -> Result<melior::ir::Value<'c, 'a>, String>
where
    'c: 'a,
{
    let signal = view.one("signal").ok_or("malformed barrier")?;
    check_mesh_signal(&operand_tensor(signal)?)?;
    let comm = comm::setup(b, signal);
    let first = b.i32(1);
    comm::barrier(b, &comm, Cells::Mesh, first);
    let negative = b.i32(-1);
    comm::epilogue(b, &comm, Cells::Mesh, negative);
    Ok(signal)
}

/// 7.1.4: all_to_all_v.
fn all_to_all_v<'c, 'a>(
    b: &Builder<'c, 'a>,
    view: &OpView<'c, 'a>,
) -> Result<melior::ir::Value<'c, 'a>, String>
where
    'c: 'a,
{
    let (input, target) = operands2(view, "input", "target")?;
    let (signal, send_counts) = operands2(view, "signal", "send_counts")?;
    let recv_counts = view.one("recv_counts").ok_or("malformed all_to_all_v")?;
    let signal_info = operand_tensor(signal)?;
    check_mesh_signal(&signal_info)?;
    exchange::all_to_all_v(
        b,
        &exchange::AllToAllV {
            input,
            input_info: operand_tensor(input)?,
            target,
            target_info: operand_tensor(target)?,
            signal,
            signal_info,
            send_counts,
            send_info: operand_tensor(send_counts)?,
            recv_counts,
            core_num: view.one("core_num"),
        },
    )?;
    Ok(target)
}

/// Window as result: later uses of the collective read `alias`.
fn finish<'c, 'a>(op: OperationRef<'c, 'a>, alias: melior::ir::Value<'c, 'a>) -> Result<(), String>
where
    'c: 'a,
{
    crate::window_result::retire(op, alias);
    Ok(())
}

/// Two named operands of a collective.
fn operands2<'c, 'a>(
    view: &OpView<'c, 'a>,
    first: &str,
    second: &str,
) -> Result<(melior::ir::Value<'c, 'a>, melior::ir::Value<'c, 'a>), String> {
    match (view.one(first), view.one(second)) {
        (Some(a), Some(b)) => Ok((a, b)),
        _ => Err(format!("malformed collective: no {first} or {second}")),
    }
}

static IDENTITY: PassIdentity = PassIdentity;

/// Creates the pass.
pub fn create() -> Pass {
    external(LowerCompositeOps, &IDENTITY)
}
