//! Resharding a function argument: the pair
//!
//! ```mlir
//! %a = shard.shard %arg0 to %from : tensor<14x16xf32>
//! %b = shard.shard %a to %to annotate_for_users : tensor<14x16xf32>
//! ```
//!
//! says that `%arg0`, a tensor of the global type split along one axis
//! (evenly, or unevenly by `sharded_dims_offsets`), is used with another
//! split of that axis over the same grid axes, or replicated. Upstream's
//! `shard-partition` crashes on it when `sharded_dims_offsets` is given, and
//! no shard collective carries per-device counts; here it becomes one
//! `pld.tensor_all_to_all_v` per group, with the counts derived from the
//! offsets: device `s` sends device `d` the part of its shard that `d`'s
//! new shard covers.
//!
//! Each device holds its shard in a buffer of the global type whose split
//! axis is as long as the longest shard (shard `i` in its first
//! `offsets[i+1] - offsets[i]` entries), and gets its new shard the same
//! way (the whole tensor when replicated).

use super::builder::{loc, Builder};
use super::grid::Groups;
use super::kernel::{Action, Move, Offset, Place};
use super::program::Call;
use super::source::{self, tensor_type, Refusal};
use super::types::TensorType;
use melior::ir::{operation::OperationLike, OperationRef, Value};
use pld_dialect::collective::{Capability, CollectiveKind};
use pld_dialect::enums::AllReduceMode;

/// A sharding of a tensor's axis over grid axes.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Split {
    axis: usize,
    grid_axes: Vec<usize>,
    /// Where each shard starts, then the end: `groups + 1` entries.
    bounds: Vec<usize>,
}

impl Split {
    /// The entries of shard `key` (of every key when the split is one
    /// shard: the whole axis).
    fn range(&self, key: usize) -> (usize, usize) {
        let key = if self.bounds.len() == 2 { 0 } else { key };
        (self.bounds[key], self.bounds[key + 1])
    }

    fn longest(&self) -> usize {
        self.bounds
            .windows(2)
            .map(|w| w[1] - w[0])
            .max()
            .unwrap_or(0)
    }
}

/// `shard.shard`: the first op of a reshard pair converts the pair; the
/// second finds its result converted.
pub fn shard(b: &mut Builder, op: OperationRef) -> Result<(), Refusal> {
    let result = pld_ir::result_at(op, 0).ok_or("has no result")?;
    if op.attribute("annotate_for_users").is_ok() {
        return match b.slot_of(result) {
            Ok(_) => Ok(()),
            Err(_) => Err(partition_first()),
        };
    }
    let users = pld_ir::users(result);
    let [user] = users.as_slice() else {
        return Err(partition_first());
    };
    if pld_ir::op_name(user) != "shard.shard" || user.attribute("annotate_for_users").is_err() {
        return Err(partition_first());
    }
    let source = pld_ir::operand(op, 0).ok_or("has no source")?;
    let number = argument_number(source)?;
    read_elsewhere(op, source, number)?;
    reshard(b, op, *user, source, number)
}

/// Refuses an uneven reshard (`sharded_dims_offsets`) of argument `number`
/// that the function also reads elsewhere: the argument's buffer then holds
/// the largest shard, not the tensor the other op reads (an all_reduce of
/// it failed on the element count of a pld.tensor_view it never wrote).
fn read_elsewhere(op: OperationRef, source: Value, number: usize) -> Result<(), Refusal> {
    let uneven = pld_ir::operand(op, 1)
        .and_then(pld_ir::defining_op)
        .and_then(|s| s.attribute("static_sharded_dims_offsets").ok())
        .and_then(pld_ir::attr::i64_array)
        .is_some_and(|offsets| !offsets.is_empty());
    let Some(other) = pld_ir::users(source).into_iter().find(|u| *u != op) else {
        return Ok(());
    };
    if !uneven {
        return Ok(());
    }
    let at = pld_ir::loc::position(other.location())
        .map(|p| format!(" at {}:{}:{}", p.file, p.line, p.column))
        .unwrap_or_default();
    Err(format!(
        "reshards argument #{number} unevenly (sharded_dims_offsets), which '{}'{at} also \
         reads; convert-shard-to-pld converts an unevenly sharded argument only where its \
         reshard is its one use",
        pld_ir::op_name(&other)
    ))
}

fn partition_first() -> Refusal {
    "is a sharding annotation; convert-shard-to-pld takes partitioned functions (run \
     shard-partition first) and converts only the reshard of a function argument written \
     as a pair of shard.shard ops (the second one annotate_for_users)"
        .into()
}

/// The argument number of a function argument.
fn argument_number(value: Value) -> Result<usize, Refusal> {
    pld_ir::argument_site(value)
        .filter(|s| s.entry_block && pld_ir::op_name(&s.parent) == "func.func")
        .map(|s| s.number)
        .ok_or_else(|| {
            "reshards a value that is not a function argument; convert-shard-to-pld reshards \
             function arguments only"
                .into()
        })
}

/// Converts the pair `op`, `user` on argument `number`.
fn reshard(
    b: &mut Builder,
    op: OperationRef,
    user: OperationRef,
    arg: Value,
    number: usize,
) -> Result<(), Refusal> {
    let ty = tensor_type(arg)?;
    let from = split(b, op, &ty)?.ok_or(
        "shards its argument replicated; convert-shard-to-pld reshards a split argument (a replicated one needs no communication)",
    )?;
    // The target sharding is the pair's second op's: say so (the error is
    // reported at the first).
    let to = split(b, user, &ty).map_err(|why| {
        let at = pld_ir::loc::position(user.location())
            .map(|p| format!(" at {}:{}:{}", p.file, p.line, p.column))
            .unwrap_or_default();
        format!("the shard.shard{at}, the target of this reshard, {why}")
    })?;
    if let Some(to) = &to {
        if to.axis != from.axis || to.grid_axes != from.grid_axes {
            return Err(format!(
                "reshards split axis {} over grid axes {:?} into split axis {} over grid axes {:?}; \
                 convert-shard-to-pld reshards one axis over the same grid axes, or to replicated: \
                 {}",
                from.axis,
                from.grid_axes,
                to.axis,
                to.grid_axes,
                instead(&from, to)
            ));
        }
    }
    let full = Split {
        bounds: vec![0, ty.shape[from.axis]],
        ..from.clone()
    };
    let elem = &ty.elem;
    let capability = CollectiveKind::AllToAllV
        .builtin(AllReduceMode::Mesh)
        .map(|builtin| Capability { builtin });
    if !capability.is_some_and(|c| c.accepts(elem)) {
        let names = capability.map_or_else(String::new, |c| c.dtype_names());
        return Err(format!(
            "moves {elem} elements; it becomes pld.tensor_all_to_all_v, whose HOST builtin supports only {names}"
        ));
    }
    let plan = Plan::new(b, &ty, from, to.unwrap_or(full));
    let result = pld_ir::result_at(user, 0).ok_or("has no result")?;
    plan.emit(b, op, arg, number, result)
}

/// What to write instead of a reshard the conversion does not make: the
/// reshard to replicated and the target's part taken by `shard.all_slice`,
/// or, for an even split, the steps upstream shard-partition makes (which
/// takes no uneven one).
fn instead(from: &Split, to: &Split) -> String {
    let slice = format!(
        "reshard to replicated (split_axes = [[]]) and take each device's part with \
         shard.all_slice (slice_axis = {}, grid_axes = {:?})",
        to.axis, to.grid_axes
    );
    let even = |split: &Split| {
        let part = split.bounds.get(1).copied().unwrap_or(0);
        split.bounds.windows(2).all(|w| w[1] - w[0] == part)
    };
    if !even(to) {
        // shard.all_slice and shard-partition's steps both make even
        // shards: no route reaches an uneven target over other grid axes.
        return "its target is split unevenly (sharded_dims_offsets), which no shard op makes \
                from another split: reshard over the same grid axes"
            .to_string();
    }
    match even(from) {
        true => format!(
            "annotate the steps between them, each a grid axis removed from or added to the end \
             of the list, which upstream shard-partition makes (split_axes = {}), or {slice}",
            steps(from, to)
        ),
        false => format!("{slice} (shard-partition takes no sharded_dims_offsets)"),
    }
}

/// `[[0, 1]] to [[0]] to [[]] to [[1]]`: the one-step reshards from `from`
/// to `to` through replicated, as `split_axes` lists.
fn steps(from: &Split, to: &Split) -> String {
    let list = |axis: usize, grid_axes: &[usize]| {
        let mut lists = vec![Vec::new(); axis + 1];
        lists[axis] = grid_axes.to_vec();
        if grid_axes.is_empty() {
            lists.truncate(1);
        }
        format!("{lists:?}")
    };
    let down = (0..from.grid_axes.len())
        .rev()
        .map(|n| list(from.axis, &from.grid_axes[..n]));
    let up = (1..=to.grid_axes.len()).map(|n| list(to.axis, &to.grid_axes[..n]));
    let all: Vec<String> = std::iter::once(list(from.axis, &from.grid_axes))
        .chain(down)
        .chain(up)
        .collect();
    all.join(" to ")
}

/// Refuses a split over `grid_axes` that the tensor (of `rank` axes) or
/// the grid does not have ([`pld_ir::guard::split_axes_misfit`]), or that
/// names a grid axis twice (which upstream's verifier refuses first);
/// `lists` is the sharding's `split_axes`.
fn fits(
    b: &Builder,
    grid_axes: &[usize],
    rank: usize,
    lists: &[Vec<usize>],
) -> Result<(), Refusal> {
    let grid = (b.grid.name.as_str(), b.grid.shape.len());
    if let Some(why) = pld_ir::guard::split_axes_misfit(lists, (rank, None), grid) {
        return Err(why);
    }
    let twice = (0..grid_axes.len()).find(|i| grid_axes[..*i].contains(&grid_axes[*i]));
    if let Some(a) = twice.map(|i| grid_axes[i]) {
        return Err(format!(
            "has a sharding that names grid axis {a} twice (split_axes = {lists:?})"
        ));
    }
    Ok(())
}

/// The split a `shard.shard` op's sharding makes of `ty`, `None` when it
/// replicates.
fn split(b: &Builder, op: OperationRef, ty: &TensorType) -> Result<Option<Split>, Refusal> {
    let sharding = pld_ir::operand(op, 1)
        .and_then(pld_ir::defining_op)
        .filter(|s| pld_ir::op_name(s) == "shard.sharding")
        .ok_or("has a sharding that is not a shard.sharding op")?;
    if sharding.operand_count() > 0 {
        return Err("has a sharding with dynamic offsets or halo sizes".into());
    }
    let halo = sharding
        .attribute("static_halo_sizes")
        .ok()
        .and_then(pld_ir::attr::i64_array);
    if halo.is_some_and(|h| !h.is_empty()) {
        return Err(
            "has a sharding with halo_sizes, which pld does not take: no pld collective moves \
             halos"
                .into(),
        );
    }
    if source::grid_name(sharding).as_deref() != Some(b.grid.name.as_str()) {
        return Err(format!(
            "has a sharding on another grid than @{}",
            b.grid.name
        ));
    }
    let lists = split_axes(sharding)?;
    let split: Vec<(usize, &Vec<usize>)> = lists
        .iter()
        .enumerate()
        .filter(|(_, a)| !a.is_empty())
        .collect();
    let offsets = sharding
        .attribute("static_sharded_dims_offsets")
        .ok()
        .and_then(pld_ir::attr::i64_array)
        .unwrap_or_default();
    let [(axis, grid_axes)] = split.as_slice() else {
        if split.is_empty() && offsets.is_empty() {
            return Ok(None);
        }
        return Err(format!(
            "has a sharding that splits more than one tensor axis (split_axes = {lists:?}), which \
             pld does not reshard: it reshards a tensor split along one axis (whose list may \
             name several grid axes, [[0, 1]])"
        ));
    };
    fits(b, grid_axes, ty.shape.len(), &lists)?;
    let shards: usize = grid_axes.iter().map(|a| b.grid.shape[*a]).product();
    let bounds = bounds(&offsets, shards, ty.shape[*axis], *axis)?;
    Ok(Some(Split {
        axis: *axis,
        grid_axes: (*grid_axes).clone(),
        bounds,
    }))
}

/// The shard bounds of an axis of `size` split into `shards`: the offsets
/// as written, or equal parts.
fn bounds(offsets: &[i64], shards: usize, size: usize, axis: usize) -> Result<Vec<usize>, Refusal> {
    if offsets.is_empty() {
        if !size.is_multiple_of(shards) {
            return Err(format!(
                "splits axis {axis} ({size} elements) evenly over {shards} devices, which does not divide it; give the sharding sharded_dims_offsets"
            ));
        }
        return Ok((0..=shards).map(|i| i * size / shards).collect());
    }
    let ordered = offsets.windows(2).all(|w| w[0] <= w[1]);
    if offsets.len() != shards + 1 || offsets[0] != 0 || offsets[shards] != size as i64 || !ordered
    {
        return Err(format!(
            "has sharded_dims_offsets {offsets:?}; splitting axis {axis} ({size} elements) over {shards} devices takes {} non-decreasing offsets from 0 to {size}",
            shards + 1
        ));
    }
    Ok(offsets.iter().map(|o| *o as usize).collect())
}

/// The `split_axes` of a `shard.sharding`.
fn split_axes(sharding: OperationRef) -> Result<Vec<Vec<usize>>, Refusal> {
    let attribute = sharding
        .attribute("split_axes")
        .map_err(|_| "has a sharding without split_axes")?;
    pld_ir::attr::shard_axis_array(attribute)
        .ok_or_else(|| format!("has a sharding with split_axes {attribute}"))
}

/// The all_to_all_v of one reshard: who sends whom which part.
struct Plan {
    ty: TensorType,
    groups: Groups,
    from: Split,
    to: Split,
    /// Elements before the split axis (the rows of one message per
    /// covered entry of the axis).
    before: usize,
    /// Elements after the split axis: one all_to_all_v row.
    width: usize,
    /// Rows of one peer's slot.
    capacity: usize,
}

impl Plan {
    fn new(b: &Builder, ty: &TensorType, from: Split, to: Split) -> Plan {
        let groups = b.grid.groups(&from.grid_axes);
        let (before, _, width) = ty.around(from.axis);
        let mut capacity = 1;
        for s in 0..groups.size() {
            for d in 0..groups.size() {
                capacity = capacity.max(before * overlap(from.range(s), to.range(d)).1);
            }
        }
        Plan {
            ty: ty.clone(),
            groups,
            from,
            to,
            before,
            width,
            capacity,
        }
    }

    /// The buffer type of a device's shard under `split`.
    fn local(&self, split: &Split) -> TensorType {
        let mut shape = self.ty.shape.clone();
        shape[split.axis] = split.longest();
        self.ty.reshaped(shape)
    }

    fn emit(
        &self,
        b: &mut Builder,
        op: OperationRef,
        arg: Value,
        number: usize,
        result: Value,
    ) -> Result<(), Refusal> {
        let (g, at) = (self.groups.size(), loc(op));
        let label = b.label("reshard");
        let world = b.world();
        let input = b.slot(
            format!("arg{number}"),
            self.local(&self.from),
            world.clone(),
            &at,
        );
        b.bind_argument(arg, number, input)?;
        let rows = self.ty.reshaped(vec![g * self.capacity, self.width]);
        let scratch = |b: &mut Builder, role: &str, ty: TensorType| {
            b.slot(format!("{label}_{role}"), ty, self.groups.clone(), &at)
        };
        let send = scratch(b, "send", rows.clone());
        let recv = scratch(b, "recv", rows);
        let signal = scratch(b, "signal", TensorType::new(vec![g, 1], "i32", 4));
        let send_counts = scratch(b, "send_counts", TensorType::new(vec![g], "i32", 4));
        let recv_counts = scratch(b, "recv_counts", TensorType::new(vec![g, 1], "i32", 4));
        let output = b.slot(label.clone(), self.local(&self.to), world, &at);
        b.bind(result, output);
        let pack = (0..b.devices).map(|d| self.pack(d)).collect();
        b.kernels_per_device(
            &format!("{label}_pack"),
            &[input, send, send_counts],
            pack,
            &at,
        )?;
        b.call(
            Call::AllToAllV,
            vec![send, recv, signal, send_counts, recv_counts],
            &at,
        );
        let unpack = (0..b.devices).map(|d| self.unpack(d)).collect();
        b.kernels_per_device(&format!("{label}_unpack"), &[recv, output], unpack, &at)
    }

    /// The member of `device`'s group at rank `rank`, and its key.
    fn member(&self, device: usize, rank: usize) -> usize {
        self.groups.members[self.groups.group_of(device)][rank]
    }

    /// Device `s` packs, for each peer rank `r`, the part of its shard
    /// that the peer's new shard covers, and sets the counts.
    fn pack(&self, s: usize) -> Vec<Action> {
        let (g, devices) = (self.groups.size(), self.groups.ranks().len());
        let mine = self.from.range(self.groups.key_of(s));
        let longest = self.from.longest();
        let mut actions = Vec::new();
        let mut counts = vec![0; g];
        for (r, count) in counts.iter_mut().enumerate() {
            let peer = self.member(s, r);
            let (lo, n) = overlap(mine, self.to.range(self.groups.key_of(peer)));
            *count = (self.before * n) as i64;
            if n > 0 {
                actions.push(Action::Copy(self.box_move(
                    devices,
                    (0, [self.before * longest, self.width], lo - mine.0, longest),
                    (1, [g * self.capacity, self.width], r * self.capacity, n),
                    n,
                )));
            }
        }
        actions.push(Action::SetCounts { param: 2, counts });
        actions
    }

    /// Device `d` places what each peer rank `r` sent into its new shard.
    fn unpack(&self, d: usize) -> Vec<Action> {
        let (g, devices) = (self.groups.size(), self.groups.ranks().len());
        let mine = self.to.range(self.groups.key_of(d));
        let longest = self.to.longest();
        let mut actions = Vec::new();
        for r in 0..g {
            let peer = self.member(d, r);
            let (lo, n) = overlap(self.from.range(self.groups.key_of(peer)), mine);
            if n > 0 {
                actions.push(Action::Copy(self.box_move(
                    devices,
                    (0, [g * self.capacity, self.width], r * self.capacity, n),
                    (1, [self.before * longest, self.width], lo - mine.0, longest),
                    n,
                )));
            }
        }
        actions
    }

    /// `n` entries of the split axis for each of the `before` outer
    /// indices: source and destination are `(param, view, first row,
    /// rows per outer index)`.
    fn box_move(
        &self,
        devices: usize,
        src: (usize, [usize; 2], usize, usize),
        dst: (usize, [usize; 2], usize, usize),
        n: usize,
    ) -> Move {
        let place = |(param, view, row, step): (usize, [usize; 2], usize, usize)| Place {
            param,
            view,
            row: Offset::fixed(devices, row, step),
            col: Offset::fixed(devices, 0, 0),
        };
        Move {
            src: place(src),
            dst: place(dst),
            extent: [n, self.width],
            count: self.before,
        }
    }
}

/// The start and length of the overlap of two ranges.
fn overlap(a: (usize, usize), b: (usize, usize)) -> (usize, usize) {
    let (lo, hi) = (a.0.max(b.0), a.1.min(b.1));
    (lo, hi.saturating_sub(lo))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_are_checked_against_the_axis() {
        assert_eq!(
            bounds(&[0, 2, 5, 9, 14], 4, 14, 0),
            Ok(vec![0, 2, 5, 9, 14])
        );
        assert!(bounds(&[0, 2, 5, 9, 13], 4, 14, 0).is_err());
        assert!(bounds(&[0, 5, 2, 9, 14], 4, 14, 0).is_err());
        assert_eq!(bounds(&[], 4, 8, 0), Ok(vec![0, 2, 4, 6, 8]));
        assert!(bounds(&[], 4, 14, 0).is_err());
    }

    #[test]
    fn overlaps() {
        assert_eq!(overlap((2, 5), (4, 9)), (4, 1));
        assert_eq!(overlap((0, 2), (5, 9)), (5, 0));
    }
}
