//! Guards against known crashes of upstream MLIR 22 passes that pld's
//! drivers can run: each finds the op the pass would crash on, so the
//! driver reports an error there instead
//! (`tests/lit/passes/convert-shard-to-pld/partition-guard.mlir`,
//! `partition-steps.mlir`, `partition-malformed.mlir`).

use crate::attr;
use melior::ir::{operation::OperationLike, r#type::RankedTensorType, OperationRef};

/// An op upstream `shard-partition` (LLVM 22.1) would crash on, or build
/// invalid IR for, and why:
///
/// * a `shard.shard` whose sharding names a grid axis its grid lacks, or
///   splits more axes than its tensor has ([`malformed_sharding`]);
/// * a `shard.sharding` with `halo_sizes` that a `shard.shard` uses (the
///   pass crashes resharding it, halos of 0 too);
/// * a `shard.sharding` with `sharded_dims_offsets` that a `shard.shard`
///   uses (resharding such a tensor dereferences a null value in
///   `partitionTriviallyShardableOperation`);
/// * a reshard (a `shard.shard ... annotate_for_users` of a value another
///   `shard.shard` annotates) that takes more than one of the steps the
///   pass knows (one grid axis added to or removed from the end of one
///   tensor axis's list, or the one grid axis of a tensor axis moved to
///   one split over none): it crashes (`[[0, 1]]` to `[[]]`, `[[0]]` to `[[1]]`), or
///   partitions the first step alone and returns a tensor of the wrong
///   shape (`[[0], [1]]` to `[[]]` gathers one axis);
/// * a `shard.shard` whose sharding splits a static tensor axis evenly
///   over more devices than divide it (the pass cuts every shard to the
///   rounded-down size, then fails on a `tensor.cast` the source never
///   had);
/// * in a function with sharding annotations, an op (not of the shard
///   dialect) with a tensor operand that no `shard.shard` annotates, as
///   `sharding-propagation` leaves none (a `tensor.empty` feeding a
///   `linalg.matmul`, a `func.call` of an argument: the pass segfaults),
///   or with a tensor result that nothing uses (an unused `tensor.empty`
///   or `tensor.splat`, which propagation leaves unannotated: it segfaults
///   too).
pub fn shard_partition_crash<'c, 'a>(
    root: OperationRef<'c, 'a>,
) -> Option<(OperationRef<'c, 'a>, String)>
where
    'c: 'a,
{
    let shards = crate::collect(root, |n| n == "shard.shard");
    let grids = crate::collect(root, |n| n == "shard.grid");
    if let Some(found) = shards.iter().find_map(|s| malformed_sharding(*s, &grids)) {
        return Some(found);
    }
    let with = |attribute: &str| sharding_with(&shards, attribute);
    if let Some(sharding) = with("static_halo_sizes") {
        return Some((
            sharding,
            "has halo_sizes, which pld does not take: upstream shard-partition (LLVM 22) \
             crashes on resharding such a tensor, and no pld collective moves halos"
                .into(),
        ));
    }
    if let Some(sharding) = with("static_sharded_dims_offsets") {
        return Some((
            sharding,
            "has sharded_dims_offsets, on which upstream shard-partition (LLVM 22) crashes; \
             leave shard-partition out: convert-shard-to-pld reshards an unevenly sharded \
             function argument itself"
                .into(),
        ));
    }
    if let Some(found) = shards.iter().find_map(|s| undivided_split(*s, &grids)) {
        return Some(found);
    }
    if let Some(found) = shards.iter().find_map(|s| reshard_in_steps(*s)) {
        return Some(found);
    }
    let annotated: Vec<OperationRef> = shards
        .iter()
        .filter_map(|s| crate::enclosing_function(*s))
        .collect();
    annotated
        .into_iter()
        .flat_map(|f| crate::collect(f, |n| !n.starts_with("shard.") && n != "func.return"))
        .find_map(|op| {
            let why = if unannotated_tensor_operand(op) {
                "has a tensor operand that no shard.shard annotates, on which upstream \
                 shard-partition (LLVM 22) crashes; run sharding-propagation before it"
            } else if unannotated_tensor_result(op) {
                "has a tensor result that nothing uses, which sharding-propagation leaves \
                 unannotated, and on which upstream shard-partition (LLVM 22) crashes; remove \
                 the op, or use its result"
            } else {
                return None;
            };
            Some((op, why.to_string()))
        })
}

/// A `shard.shard` whose sharding (without `sharded_dims_offsets`) splits
/// a static axis of its tensor over a device count that does not divide
/// it, and the error for it.
fn undivided_split<'c, 'a>(
    shard: OperationRef<'c, 'a>,
    grids: &[OperationRef<'c, 'a>],
) -> Option<(OperationRef<'c, 'a>, String)> {
    let sharding = crate::operand(shard, 1).and_then(crate::defining_op)?;
    let lists = attr::shard_axis_array(sharding.attribute("split_axes").ok()?)?;
    let (_, grid_shape) = grid_of(sharding, grids)?;
    let tensor = RankedTensorType::try_from(crate::type_of(crate::operand(shard, 0)?)).ok()?;
    let shape = crate::types::tensor_shape(tensor);
    lists.iter().enumerate().find_map(|(axis, grid_axes)| {
        let size = (*shape.get(axis)?)?;
        let devices = grid_axes
            .iter()
            .map(|a| grid_shape.get(*a).copied().filter(|d| *d > 0))
            .try_fold(1i64, |n, d| n.checked_mul(d?))?;
        (!grid_axes.is_empty() && size % devices != 0).then(|| {
            (
                shard,
                format!(
                    "splits axis {axis} ({size} elements) evenly over {devices} devices, which \
                     does not divide it; upstream shard-partition (LLVM 22) builds invalid IR \
                     for it: give the sharding sharded_dims_offsets (and leave shard-partition \
                     out: convert-shard-to-pld reshards an unevenly sharded function argument \
                     itself)"
                ),
            )
        })
    })
}

/// The first `shard.sharding` a `shard.shard` of `shards` uses whose i64
/// array `attribute` is not empty (`static_halo_sizes`).
fn sharding_with<'c, 'a>(
    shards: &[OperationRef<'c, 'a>],
    attribute: &str,
) -> Option<OperationRef<'c, 'a>> {
    shards
        .iter()
        .filter_map(|shard| crate::operand(*shard, 1).and_then(crate::defining_op))
        .find(|sharding| {
            sharding
                .attribute(attribute)
                .ok()
                .and_then(attr::i64_array)
                .is_some_and(|values| !values.is_empty())
        })
}

/// A `shard.shard` whose sharding upstream's verifier lets through but
/// `shard-partition` cannot read, and the error for it, in the sharding's
/// terms: more `split_axes` lists than its tensor has axes (upstream made
/// an out-of-bounds gather or an `all_gather` of a 0-d tensor), or a grid
/// axis its grid does not have (it built a shard of 0 rows).
fn malformed_sharding<'c, 'a>(
    shard: OperationRef<'c, 'a>,
    grids: &[OperationRef<'c, 'a>],
) -> Option<(OperationRef<'c, 'a>, String)> {
    let sharding = crate::operand(shard, 1).and_then(crate::defining_op)?;
    let lists = attr::shard_axis_array(sharding.attribute("split_axes").ok()?)?;
    let tensor = RankedTensorType::try_from(crate::type_of(crate::operand(shard, 0)?)).ok()?;
    let rank = crate::types::tensor_shape(tensor).len();
    let (grid_name, grid_shape) = grid_of(sharding, grids)?;
    let shown = crate::type_of(crate::operand(shard, 0)?).to_string();
    let why = split_axes_misfit(&lists, (rank, Some(&shown)), (&grid_name, grid_shape.len()))?;
    Some((
        shard,
        format!("{why}; upstream shard-partition (LLVM 22) cannot partition it"),
    ))
}

/// Why a sharding's `split_axes` (`lists`) do not fit its tensor of `rank`
/// axes (with its type, where shown) or its grid (`@name` of so many axes),
/// in the sharding's terms; `None` when they fit. Trailing empty lists
/// split nothing.
pub fn split_axes_misfit(
    lists: &[Vec<usize>],
    (rank, tensor): (usize, Option<&str>),
    (grid, grid_rank): (&str, usize),
) -> Option<String> {
    let used = lists
        .iter()
        .rposition(|l| !l.is_empty())
        .map_or(0, |i| i + 1);
    if used > rank {
        let tensor = tensor.map_or(String::new(), |t| format!(" {t}"));
        return Some(format!(
            "has a sharding that splits tensor axis {} (split_axes = {lists:?}), but its \
             tensor{tensor} has {}",
            used - 1,
            axes(rank),
        ));
    }
    let axis = lists.iter().flatten().find(|a| **a >= grid_rank)?;
    Some(format!(
        "has a sharding that splits over grid axis {axis} (split_axes = {lists:?}), but grid \
         @{grid} has {}",
        axes(grid_rank)
    ))
}

/// The name and shape of the grid of `grids` that `sharding` names.
fn grid_of(sharding: OperationRef, grids: &[OperationRef]) -> Option<(String, Vec<i64>)> {
    let name = attr::flat_symbol(sharding.attribute("grid").ok()?)?;
    let grid = grids
        .iter()
        .find(|g| crate::symbol_name(**g).as_deref() == Some(name.as_str()))?;
    let shape = attr::i64_array(grid.attribute("shape").ok()?)?;
    Some((name, shape))
}

/// `n` axes, `1 axis`.
fn axes(n: usize) -> String {
    match n {
        1 => "1 axis".to_string(),
        n => format!("{n} axes"),
    }
}

/// Whether `op` has a ranked tensor operand not defined by a `shard.shard`.
fn unannotated_tensor_operand(op: OperationRef) -> bool {
    crate::operands(op).into_iter().any(|value| {
        RankedTensorType::try_from(crate::type_of(value)).is_ok()
            && crate::defining_op(value).is_none_or(|d| crate::op_name(&d) != "shard.shard")
    })
}

/// Whether `op` has a ranked tensor result that nothing uses (a used one
/// that no `shard.shard` annotates is its user's unannotated operand).
fn unannotated_tensor_result(op: OperationRef) -> bool {
    (0..op.result_count()).any(|i| {
        crate::result_at(op, i).is_some_and(|value| {
            RankedTensorType::try_from(crate::type_of(value)).is_ok()
                && crate::users(value).is_empty()
        })
    })
}

/// Whether `shard` is a reshard upstream `shard-partition` does not make in
/// its single step (see [`shard_partition_crash`]).
pub fn is_reshard_in_steps(shard: OperationRef) -> bool {
    reshard_in_steps(shard).is_some()
}

/// A reshard `to` of a value sharded `from` that upstream `shard-partition`
/// does not make in its single step, and the error for it.
fn reshard_in_steps<'c, 'a>(shard: OperationRef<'c, 'a>) -> Option<(OperationRef<'c, 'a>, String)> {
    shard.attribute("annotate_for_users").ok()?;
    let before = crate::operand(shard, 0).and_then(crate::defining_op)?;
    if crate::op_name(&before) != "shard.shard" || before.attribute("annotate_for_users").is_ok() {
        return None;
    }
    let lists = |op: OperationRef| {
        let sharding = crate::operand(op, 1).and_then(crate::defining_op)?;
        attr::shard_axis_array(sharding.attribute("split_axes").ok()?)
    };
    let (from, to) = (lists(before)?, lists(shard)?);
    if one_step(&from, &to) {
        return None;
    }
    let shown = |l: &[Vec<usize>]| format!("{l:?}");
    // convert-shard-to-pld reshards an argument split along one tensor
    // axis to replicated itself (or over the same grid axes, which is no
    // step at all): only then is leaving shard-partition out a way.
    let split_lists = from.iter().filter(|l| !l.is_empty()).count();
    let converted = split_lists == 1 && to.iter().all(Vec::is_empty);
    let instead = match converted {
        true => {
            ", or, for a function argument, leave shard-partition out: convert-shard-to-pld \
                 reshards it itself"
        }
        false => "",
    };
    Some((
        shard,
        format!(
            "reshards split_axes = {} to {} in more than one step, which upstream \
             shard-partition (LLVM 22) does not do (it crashes, or makes the first step \
             alone and returns a tensor of the wrong shape); reshard one step at a time (a \
             grid axis added to or removed from the end of one tensor axis's list, or the one \
             grid axis of a tensor axis moved to one split over none){instead}",
            shown(&from),
            shown(&to)
        ),
    ))
}

/// Whether `to` is `from`, or one step from it: one tensor axis's list
/// with one grid axis more or less at its end, or the one grid axis of one
/// tensor axis moved to a tensor axis split over none.
fn one_step(from: &[Vec<usize>], to: &[Vec<usize>]) -> bool {
    let len = from.len().max(to.len());
    let at = |l: &[Vec<usize>], i: usize| l.get(i).cloned().unwrap_or_default();
    let changed: Vec<(Vec<usize>, Vec<usize>)> = (0..len)
        .map(|i| (at(from, i), at(to, i)))
        .filter(|(f, t)| f != t)
        .collect();
    // `longer` is `shorter` with the grid axis `a` at its end.
    let extends = |longer: &[usize], shorter: &[usize]| match longer.split_last() {
        Some((a, rest)) if rest == shorter => Some(*a),
        _ => None,
    };
    match changed.as_slice() {
        [] => true,
        [(f, t)] => extends(t, f).is_some() || extends(f, t).is_some(),
        // A move: only a tensor axis's one grid axis to a tensor axis
        // split over none (`[[0, 1]]` to `[[0], [1]]` returned the slice of
        // `[[0, 1], [1]]`).
        [(f1, t1), (f2, t2)] => {
            let moved = |(f1, t1): (&[usize], &[usize]), (f2, t2): (&[usize], &[usize])| {
                f1.len() == 1 && t1.is_empty() && f2.is_empty() && t2 == f1
            };
            moved((f1, t1), (f2, t2)) || moved((f2, t2), (f1, t1))
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::one_step;

    #[test]
    fn a_reshard_is_one_step_only_as_upstream_partitions_it() {
        let steps = |from: &[&[usize]], to: &[&[usize]]| {
            let list = |l: &[&[usize]]| l.iter().map(|a| a.to_vec()).collect::<Vec<_>>();
            one_step(&list(from), &list(to))
        };
        // Measured with mlir-opt 22: partitioned right.
        assert!(steps(&[&[0, 1]], &[&[0, 1], &[]]));
        assert!(steps(&[&[0, 1]], &[&[0]]));
        assert!(steps(&[&[0]], &[&[0, 1]]));
        assert!(steps(&[&[1]], &[&[]]));
        assert!(steps(&[&[]], &[&[1]]));
        assert!(steps(&[&[0], &[1]], &[&[0]]));
        assert!(steps(&[&[0]], &[&[], &[0]]));
        assert!(steps(&[&[], &[0]], &[&[0]]));
        // Crashed (status 139).
        assert!(!steps(&[&[0, 1]], &[&[]]));
        assert!(!steps(&[&[]], &[&[0, 1]]));
        assert!(!steps(&[&[0]], &[&[1]]));
        assert!(!steps(&[&[0, 1]], &[&[1]]));
        assert!(!steps(&[&[0, 1]], &[&[1, 0]]));
        // Made the first step alone: a tensor of the wrong shape.
        assert!(!steps(&[&[0], &[1]], &[&[]]));
        assert!(!steps(&[&[0, 1]], &[&[0], &[1]]));
        assert!(!steps(&[&[1], &[0]], &[&[], &[0, 1]]));
        assert!(!steps(&[&[0]], &[&[], &[1]]));
    }
}
