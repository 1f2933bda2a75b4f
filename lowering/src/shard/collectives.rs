//! One conversion per shard collective: pack the input into the rows of
//! the pld collective's buffers (in the windows of each group's comm
//! domain), call the pld collective once per group, unpack the rows into
//! the shard op's result. Groups of one device are the identity, as the
//! shard dialect's canonicalization folds them.

use super::builder::{loc, Builder};
use super::grid::Groups;
use super::kernel::Action;
use super::layout;
use super::program::Call;
use super::source::{self, tensor_type, Refusal};
use super::types::{PerDevice, TensorType};
use melior::ir::{operation::OperationLike, OperationRef};
use pld_dialect::{
    collective::{Capability, CollectiveKind},
    enums::{AllReduceMode, ReduceOp},
};

/// What the HOST rail's builtin for `kind` supports.
fn capability(kind: CollectiveKind) -> Option<Capability> {
    kind.builtin(AllReduceMode::Mesh)
        .map(|builtin| Capability { builtin })
}

/// Whether the HOST rail moves `elem` for `kind`.
fn accepts(kind: CollectiveKind, elem: &str) -> bool {
    capability(kind).is_some_and(|c| c.accepts(elem))
}

/// The refusal of an element type the HOST rail does not move.
fn unsupported(kind: CollectiveKind, elem: &str) -> Refusal {
    let names = capability(kind).map_or_else(|| "nothing".into(), |c| c.dtype_names());
    format!(
        "moves {elem} elements; it becomes {}, whose HOST builtin supports only {names}",
        kind.op_name()
    )
}

/// The refusal of a reduce_scatter of an element type neither of its
/// routes moves: the reduce_scatter builtin, or an allreduce of which
/// every device keeps its chunk.
fn neither_scatters(elem: &str) -> Refusal {
    let names = |kind| capability(kind).map_or_else(|| "nothing".into(), |c| c.dtype_names());
    let sums = capability(CollectiveKind::ReduceScatter)
        .filter(Capability::sum_only)
        .map_or("", |_| ", summing only");
    format!(
        "moves {elem} elements; it becomes pld.tensor_reduce_scatter, whose HOST builtin \
         supports only {}{sums}, or else a pld.tensor_allreduce of which each device keeps its \
         chunk, whose HOST builtin supports only {}",
        names(CollectiveKind::ReduceScatter),
        names(CollectiveKind::AllReduce)
    )
}

/// The signal type of `kind` in groups of `size`: `[G]` where the builtin
/// takes a rank-1 signal, `[G, 1]` otherwise.
fn signal(kind: CollectiveKind, size: usize) -> TensorType {
    let rank1 = capability(kind).is_some_and(|c| c.rank1_signal());
    let shape = if rank1 { vec![size] } else { vec![size, 1] };
    TensorType::new(shape, "i32", 4)
}

/// What every collective starts from: its input's slot and type, groups.
struct Operands {
    input: usize,
    ty: TensorType,
    groups: Groups,
    label: String,
    loc: String,
}

fn operands(b: &mut Builder, op: OperationRef, base: &str) -> Result<Operands, Refusal> {
    let value = pld_ir::operand(op, 0).ok_or("has no input")?;
    let ty = tensor_type(value)?;
    let groups = source::groups(op, &b.grid)?;
    let input = b.slot_of(value)?;
    Ok(Operands {
        input,
        ty,
        groups,
        label: b.label(base),
        loc: loc(op),
    })
}

/// A group of one device: the result is the input.
fn identity(b: &mut Builder, op: OperationRef, o: &Operands) -> Result<bool, Refusal> {
    if o.groups.size() > 1 {
        return Ok(false);
    }
    let result = pld_ir::result_at(op, 0).ok_or("has no result")?;
    if tensor_type(result)? != o.ty {
        return Err("changes the type in a group of one device".into());
    }
    b.bind(result, o.input);
    Ok(true)
}

/// A scratch slot of the collective's groups.
fn scratch(b: &mut Builder, o: &Operands, role: &str, ty: TensorType) -> usize {
    b.slot(format!("{}_{role}", o.label), ty, o.groups.clone(), &o.loc)
}

/// Refuses a result element type other than the input's.
fn same_element(op: OperationRef, o: &Operands) -> Result<(), Refusal> {
    let result = tensor_type(pld_ir::result_at(op, 0).ok_or("has no result")?)?;
    if result.elem != o.ty.elem {
        return Err(format!(
            "accumulates {} into {}; pld's collectives reduce in the input's element type, so the result's must be {} too",
            o.ty.elem, result.elem, o.ty.elem
        ));
    }
    Ok(())
}

/// `shard.all_reduce`.
pub fn all_reduce(b: &mut Builder, op: OperationRef) -> Result<(), Refusal> {
    let reduction = source::reduction(op)?;
    let o = operands(b, op, "all_reduce")?;
    same_element(op, &o)?;
    if !accepts(CollectiveKind::AllReduce, &o.ty.elem) {
        return Err(unsupported(CollectiveKind::AllReduce, &o.ty.elem));
    }
    if identity(b, op, &o)? {
        return Ok(());
    }
    let buf = reduce_whole(b, &o, reduction)?;
    let result = b.result_slot(op, &o.label)?;
    let unpack = vec![Action::Copy(layout::whole(
        b.devices,
        0,
        1,
        o.ty.elements(),
    ))];
    b.kernel(
        &format!("{}_unpack", o.label),
        &[buf, result],
        unpack,
        &o.loc,
    )
}

/// Allreduces the whole input in a `[1, N]` slot per group; the slot.
fn reduce_whole(b: &mut Builder, o: &Operands, reduction: ReduceOp) -> Result<usize, Refusal> {
    let n = o.ty.elements();
    let buf = scratch(b, o, "buf", o.ty.reshaped(vec![1, n]));
    let sig = scratch(
        b,
        o,
        "signal",
        signal(CollectiveKind::AllReduce, o.groups.size()),
    );
    let pack = vec![Action::Copy(layout::whole(b.devices, 0, 1, n))];
    b.kernel(&format!("{}_pack", o.label), &[o.input, buf], pack, &o.loc)?;
    b.call(Call::AllReduce(reduction), vec![buf, sig], &o.loc);
    Ok(buf)
}

/// `shard.all_gather`.
pub fn all_gather(b: &mut Builder, op: OperationRef) -> Result<(), Refusal> {
    let o = operands(b, op, "all_gather")?;
    let axis = source::tensor_axis(op, "gather_axis", o.ty.shape.len())?;
    if !accepts(CollectiveKind::AllGather, &o.ty.elem) {
        return Err(unsupported(CollectiveKind::AllGather, &o.ty.elem));
    }
    if identity(b, op, &o)? {
        return Ok(());
    }
    let (g, n, d) = (o.groups.size(), o.ty.elements(), b.devices);
    let input = scratch(b, &o, "in", o.ty.reshaped(vec![1, n]));
    let out = scratch(b, &o, "out", o.ty.reshaped(vec![g, n]));
    let sig = scratch(b, &o, "signal", signal(CollectiveKind::AllGather, g));
    let pack = vec![Action::Copy(layout::whole(d, 0, 1, n))];
    b.kernel(
        &format!("{}_pack", o.label),
        &[o.input, input],
        pack,
        &o.loc,
    )?;
    b.call(Call::AllGather, vec![input, out, sig], &o.loc);
    let result = b.result_slot(op, &o.label)?;
    let (p, dim, q) = o.ty.around(axis);
    let unpack = layout::rows_to_axis(d, &o.groups, 0, 1, (p, dim * q));
    let actions = unpack.into_iter().map(Action::Copy).collect();
    b.kernel(
        &format!("{}_unpack", o.label),
        &[out, result],
        actions,
        &o.loc,
    )
}

/// The chunk size of splitting `axis` of `ty` over `groups`, or why not.
fn chunk(ty: &TensorType, axis: usize, groups: &Groups, what: &str) -> Result<usize, Refusal> {
    let (dim, g) = (ty.shape[axis], groups.size());
    if !dim.is_multiple_of(g) {
        return Err(format!(
            "splits dimension {axis} ({dim} elements) over a group of {g} devices, which does not divide it; \
             {what} needs equal chunks"
        ));
    }
    Ok(dim / g)
}

/// `shard.reduce_scatter`: the reduce_scatter builtin where it computes
/// the reduction for the element type, otherwise an allreduce of which
/// each device keeps its chunk.
pub fn reduce_scatter(b: &mut Builder, op: OperationRef) -> Result<(), Refusal> {
    let reduction = source::reduction(op)?;
    let o = operands(b, op, "reduce_scatter")?;
    let axis = source::tensor_axis(op, "scatter_axis", o.ty.shape.len())?;
    let c = chunk(&o.ty, axis, &o.groups, "pld's reduce_scatter")?;
    same_element(op, &o)?;
    if identity(b, op, &o)? {
        return Ok(());
    }
    let (p, _, q) = o.ty.around(axis);
    let kind = CollectiveKind::ReduceScatter;
    let builtin = capability(kind).filter(|cap| cap.accepts(&o.ty.elem));
    if builtin.is_some_and(|cap| reduction == ReduceOp::Sum || !cap.sum_only()) {
        return scatter_rows(b, op, &o, (p, c * q));
    }
    if !accepts(CollectiveKind::AllReduce, &o.ty.elem) {
        return Err(neither_scatters(&o.ty.elem));
    }
    let buf = reduce_whole(b, &o, reduction)?;
    let result = b.result_slot(op, &o.label)?;
    let keep = layout::own_chunk(b.devices, &o.groups, 0, 1, (p, c * q));
    b.kernel(
        &format!("{}_unpack", o.label),
        &[buf, result],
        vec![Action::Copy(keep)],
        &o.loc,
    )
}

/// The reduce_scatter builtin on the chunks as rows.
fn scatter_rows(
    b: &mut Builder,
    op: OperationRef,
    o: &Operands,
    (p, cq): (usize, usize),
) -> Result<(), Refusal> {
    let (g, d) = (o.groups.size(), b.devices);
    let rows = scratch(b, o, "rows", o.ty.reshaped(vec![g, p * cq]));
    let sig = scratch(b, o, "signal", signal(CollectiveKind::ReduceScatter, g));
    let pack = layout::split_to_rows(d, &o.groups, 0, 1, (p, cq));
    let actions = pack.into_iter().map(Action::Copy).collect();
    b.kernel(
        &format!("{}_pack", o.label),
        &[o.input, rows],
        actions,
        &o.loc,
    )?;
    b.call(Call::ReduceScatter, vec![rows, sig], &o.loc);
    let result = b.result_slot(op, &o.label)?;
    let keep = layout::own_rows(d, &o.groups, 0, 1, (p, cq));
    b.kernel(
        &format!("{}_unpack", o.label),
        &[rows, result],
        vec![Action::Copy(keep)],
        &o.loc,
    )
}

/// `shard.all_to_all`.
pub fn all_to_all(b: &mut Builder, op: OperationRef) -> Result<(), Refusal> {
    let o = operands(b, op, "all_to_all")?;
    let rank = o.ty.shape.len();
    let split = source::tensor_axis(op, "split_axis", rank)?;
    let concat = source::tensor_axis(op, "concat_axis", rank)?;
    let c = chunk(&o.ty, split, &o.groups, "pld's all_to_all")?;
    if !accepts(CollectiveKind::AllToAll, &o.ty.elem) {
        return Err(unsupported(CollectiveKind::AllToAll, &o.ty.elem));
    }
    if identity(b, op, &o)? {
        return Ok(());
    }
    let (g, d) = (o.groups.size(), b.devices);
    let mut piece = o.ty.shape.clone();
    piece[split] = c;
    let piece = o.ty.reshaped(piece);
    let m = piece.elements();
    let input = scratch(b, &o, "in", o.ty.reshaped(vec![g, m]));
    let out = scratch(b, &o, "out", o.ty.reshaped(vec![g, m]));
    let sig = scratch(b, &o, "signal", signal(CollectiveKind::AllToAll, g));
    let (p, _, q) = o.ty.around(split);
    let pack = layout::split_to_rows(d, &o.groups, 0, 1, (p, c * q));
    let actions = pack.into_iter().map(Action::Copy).collect();
    b.kernel(
        &format!("{}_pack", o.label),
        &[o.input, input],
        actions,
        &o.loc,
    )?;
    b.call(Call::AllToAll, vec![input, out, sig], &o.loc);
    let result = b.result_slot(op, &o.label)?;
    let (p, dim, q) = piece.around(concat);
    let unpack = layout::rows_to_axis(d, &o.groups, 0, 1, (p, dim * q));
    let actions = unpack.into_iter().map(Action::Copy).collect();
    b.kernel(
        &format!("{}_unpack", o.label),
        &[out, result],
        actions,
        &o.loc,
    )
}

/// The pld rank of a broadcast's `root` in each of `groups`: the root is
/// a multi-index over the op's `grid_axes`, its in-group key. An index
/// written as an SSA value (`root = [%c]`) is taken when the conversion
/// knows it on every device and the devices of each group agree on it
/// (groups may have different roots).
fn root_ranks(b: &Builder, op: OperationRef, groups: &Groups) -> Result<Vec<usize>, Refusal> {
    let root = root_indices(b, op)?;
    let axes = source::axes(op, "grid_axes", &b.grid)?;
    if root.len() != axes.len() {
        return Err(format!(
            "has a root of {} indices for {} grid axes",
            root.len(),
            axes.len()
        ));
    }
    let group_rank = |members: &Vec<usize>| {
        let mut key = 0;
        for (position, (values, axis)) in root.iter().zip(&axes).enumerate() {
            let first = members[0];
            let index = values.0[first];
            if let Some(&other) = members.iter().find(|&&d| values.0[d] != index) {
                return Err(format!(
                    "has a root whose index {position} differs between devices {first} and \
                     {other} of one group ({index} and {}); the devices of a group need the \
                     same root",
                    values.0[other]
                ));
            }
            let size = b.grid.shape[*axis];
            match usize::try_from(index) {
                Ok(i) if i < size => key = key * size + i,
                _ => {
                    // A computed index says whose it is (a constant is
                    // every device's).
                    let whose = match values.0.iter().all(|v| *v == index) {
                        true => String::new(),
                        false => format!(" on devices {members:?}"),
                    };
                    return Err(format!(
                        "has root index {index} on grid axis {axis} of size {size}{whose}"
                    ));
                }
            }
        }
        Ok(groups.rank_with_key(key))
    };
    groups.members.iter().map(group_rank).collect()
}

/// The indices of a broadcast's `root` on every device: the attribute's,
/// its SSA operands (after the input) filling its dynamic entries in order.
fn root_indices(b: &Builder, op: OperationRef) -> Result<Vec<PerDevice>, Refusal> {
    let root = op
        .attribute("root")
        .ok()
        .and_then(pld_ir::attr::i64_array)
        .ok_or("has no root")?;
    let mut dynamic = pld_ir::operands(op).into_iter().skip(1);
    let mut indices = Vec::with_capacity(root.len());
    for index in root {
        if index != i64::MIN {
            indices.push(PerDevice::constant(b.devices, index));
            continue;
        }
        let value = dynamic.next().ok_or("lacks a root operand")?;
        if !b.is_int(value) {
            return Err("has a root known only at run time (a function argument, or computed from one); convert-shard-to-pld needs a root it can compute: from constants, device indices and integer arith".into());
        }
        indices.push(b.int_of(value)?);
    }
    Ok(indices)
}

/// `shard.broadcast`.
pub fn broadcast(b: &mut Builder, op: OperationRef) -> Result<(), Refusal> {
    let o = operands(b, op, "broadcast")?;
    let roots = root_ranks(b, op, &o.groups)?;
    if !accepts(CollectiveKind::Broadcast, &o.ty.elem) {
        return Err(unsupported(CollectiveKind::Broadcast, &o.ty.elem));
    }
    if identity(b, op, &o)? {
        return Ok(());
    }
    let (n, d) = (o.ty.elements(), b.devices);
    let buf = scratch(b, &o, "buf", o.ty.reshaped(vec![1, n]));
    let sig = scratch(
        b,
        &o,
        "signal",
        signal(CollectiveKind::Broadcast, o.groups.size()),
    );
    let pack = vec![Action::Copy(layout::whole(d, 0, 1, n))];
    b.kernel(&format!("{}_pack", o.label), &[o.input, buf], pack, &o.loc)?;
    b.call(Call::Broadcast { roots }, vec![buf, sig], &o.loc);
    let result = b.result_slot(op, &o.label)?;
    let unpack = vec![Action::Copy(layout::whole(d, 0, 1, n))];
    b.kernel(
        &format!("{}_unpack", o.label),
        &[buf, result],
        unpack,
        &o.loc,
    )
}

/// `shard.all_slice`: each device keeps the chunk of its key (no
/// communication).
pub fn all_slice(b: &mut Builder, op: OperationRef) -> Result<(), Refusal> {
    let o = operands(b, op, "all_slice")?;
    let axis = source::tensor_axis(op, "slice_axis", o.ty.shape.len())?;
    let c = chunk(&o.ty, axis, &o.groups, "shard.all_slice")?;
    if identity(b, op, &o)? {
        return Ok(());
    }
    let (p, _, q) = o.ty.around(axis);
    let result = b.result_slot(op, &o.label)?;
    let keep = layout::own_chunk(b.devices, &o.groups, 0, 1, (p, c * q));
    b.kernel(
        &o.label.clone(),
        &[o.input, result],
        vec![Action::Copy(keep)],
        &o.loc,
    )
}
