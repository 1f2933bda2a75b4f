//! The order in which each rank's schedule folds the ranks' copies of an
//! element, so that a golden is what that rank computes (a float sum or
//! product depends on the order, and an f16 overflow may happen in one
//! order and not in another). From the schedules as the spec and the docs
//! give them, not from the kernels:
//!
//! - **mesh** (and reduce, reduce_scatter, the partial-valid allreduce):
//!   rank `me` starts from its own copy and folds in every other rank's in
//!   rank order (spec 7.1.2, 7.1.4, 11.4; docs/passes/pld-lower-composite-ops.md).
//! - **two-shot**: segment `s` is folded once, by its owner, rank `s`, in
//!   the mesh's order for `s`, and copied to the others
//!   (docs/algorithms.md).
//! - **ring**: segment `k` starts on rank `k + 1` and travels to the right,
//!   each rank adding its copy to what its left neighbour sent, and ends on
//!   rank `k` (spec 7.1.3, 11.5): `x[k+1], x[k+2], ..., x[k]`, then copied.
//!
//! Segment `i` of `size` elements on `ranks` ranks starts at `b(i) =
//! floor(i * size / ranks)`, or, where loads move whole 32-byte blocks,
//! at `min(ceil(i * size / (ranks * A)) * A, size)` (`A` elements of 32
//! bytes): the composite ring and two-shot in f16 (A = 16, spec 7.1.3), the
//! builtin two-shot in every dtype (docs/builtins.md); the builtin ring
//! cuts `numel / ranks` (spec 11.5), which is `floor`.

use crate::program::model::{Collective, Dtype, Rail};
use pld_dialect::enums::AllReduceMode;
use std::ops::Range;

/// Elements `range` of a result, folded from the ranks' copies in the
/// order `ranks`: `((x[ranks[0]] op x[ranks[1]]) op x[ranks[2]]) ...`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Run {
    pub range: Range<usize>,
    pub ranks: Vec<usize>,
}

/// The mesh's order on rank `me`: its own copy, then every other rank's
/// in rank order.
pub(super) fn mesh(me: usize, ranks: usize) -> Vec<usize> {
    std::iter::once(me)
        .chain((0..ranks).filter(|&r| r != me))
        .collect()
}

/// The ring's order for segment `k`: `k + 1, k + 2, ..., k` (mod ranks).
fn ring(k: usize, ranks: usize) -> Vec<usize> {
    (1..=ranks).map(|i| (k + i) % ranks).collect()
}

/// Boundary `b(i)` of `ranks` segments of `size` elements, interior
/// boundaries rounded up to `align` elements when there is one.
fn boundary(i: usize, size: usize, ranks: usize, align: Option<usize>) -> usize {
    match align {
        None => i * size / ranks,
        Some(a) => (i * size).div_ceil(ranks * a).saturating_mul(a).min(size),
    }
}

/// The alignment of the segment boundaries of a two-shot or ring
/// allreduce (module documentation).
fn alignment(rail: Rail, mode: AllReduceMode, dtype: Dtype) -> Option<usize> {
    match (rail, mode) {
        (Rail::Composite, _) => (dtype == Dtype::F16).then_some(16),
        (Rail::Builtin, AllReduceMode::TwoShot) => Some(32 / dtype.bytes()),
        (Rail::Builtin, AllReduceMode::Ring | AllReduceMode::Mesh) => None,
    }
}

/// `size` elements from 0 cut into `ranks` segments, segment `i` folded in
/// the order `order(i)`; empty segments left out.
fn segments(
    size: usize,
    ranks: usize,
    align: Option<usize>,
    order: impl Fn(usize) -> Vec<usize>,
) -> Vec<Run> {
    (0..ranks)
        .map(|i| Run {
            range: boundary(i, size, ranks, align)..boundary(i + 1, size, ranks, align),
            ranks: order(i),
        })
        .filter(|run| !run.range.is_empty())
        .collect()
}

/// How rank `me`'s result of an allreduce is folded: the elements `region`
/// (the valid ones, in index order) in the order of the collective's
/// schedule. A two-shot or ring region must be one prefix, as their
/// lowerings require.
pub(super) fn allreduce(
    collective: &Collective,
    dtype: Dtype,
    region: &[Range<usize>],
    ranks: usize,
    me: usize,
) -> Result<Vec<Run>, String> {
    let prefix = || match region {
        [] => Ok(0),
        [only] if only.start == 0 => Ok(only.end),
        _ => Err(format!(
            "no golden: the valid_shape of {}'s target is not a contiguous row-major prefix",
            collective.op()
        )),
    };
    let align = alignment(collective.rail, collective.mode, dtype);
    Ok(match collective.mode {
        AllReduceMode::Mesh => everywhere(region, mesh(me, ranks)),
        AllReduceMode::TwoShot => segments(prefix()?, ranks, align, |s| mesh(s, ranks)),
        AllReduceMode::Ring => segments(prefix()?, ranks, align, |k| ring(k, ranks)),
    })
}

/// Every range of `region` folded in the one order `ranks`.
pub(super) fn everywhere(region: &[Range<usize>], ranks: Vec<usize>) -> Vec<Run> {
    region
        .iter()
        .map(|range| Run {
            range: range.clone(),
            ranks: ranks.clone(),
        })
        .collect()
}

/// The elements of a `shape` target inside the box `valid` (each extent
/// the valid ones from index 0), as ranges of row-major indices, adjacent
/// ones merged.
pub(super) fn valid_box(shape: &[usize], valid: &[usize]) -> Vec<Range<usize>> {
    let (Some((&last, leading)), Some((&valid_last, valid_leading))) =
        (shape.split_last(), valid.split_last())
    else {
        return whole(shape.iter().product());
    };
    let valid_last = valid_last.min(last);
    let valid_leading: Vec<usize> = valid_leading
        .iter()
        .zip(leading)
        .map(|(v, d)| (*v).min(*d))
        .collect();
    let rows: usize = valid_leading.iter().product();
    if valid_last == 0 {
        return Vec::new();
    }
    let mut ranges: Vec<Range<usize>> = Vec::new();
    let mut index = vec![0usize; leading.len()];
    for _ in 0..rows {
        let row = index.iter().zip(leading).fold(0, |acc, (i, d)| acc * d + i);
        let range = row * last..row * last + valid_last;
        match ranges.last_mut() {
            Some(previous) if previous.end == range.start => previous.end = range.end,
            _ => ranges.push(range),
        }
        // The next index of the leading dimensions inside the box.
        for (j, i) in index.iter_mut().enumerate().rev() {
            *i += 1;
            if *i < valid_leading[j] {
                break;
            }
            *i = 0;
        }
    }
    ranges
}

/// All of `n` elements, as one range.
pub(super) fn whole(n: usize) -> Vec<Range<usize>> {
    std::iter::once(0..n).collect()
}

/// Whether the collective folds with an op whose result does not depend
/// on the order of the steps (a max, a min, integers that wrap around).
pub(super) fn order_free(collective: &Collective, dtype: Dtype) -> bool {
    use pld_dialect::enums::ReduceOp;
    let float = matches!(dtype, Dtype::F16 | Dtype::F32);
    match collective.reduce.unwrap_or(ReduceOp::Sum) {
        ReduceOp::Max | ReduceOp::Min => true,
        ReduceOp::Sum | ReduceOp::Prod => !float,
    }
}

/// `runs` in a form in which two that fold the same values compare equal:
/// in rank order when the order does not matter, else with the first two
/// ranks in rank order (one step of the device's arithmetic is
/// commutative).
pub(super) fn canonical(runs: Vec<Run>, order_free: bool) -> Vec<Run> {
    runs.into_iter()
        .map(|mut run| {
            if order_free {
                run.ranks.sort_unstable();
            } else if run.ranks.len() >= 2 && run.ranks[0] > run.ranks[1] {
                run.ranks.swap(0, 1);
            }
            run
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_are_the_schedules() {
        assert_eq!(mesh(2, 4), [2, 0, 1, 3]);
        assert_eq!(ring(0, 4), [1, 2, 3, 0]);
        assert_eq!(ring(3, 4), [0, 1, 2, 3]);
        // Spec 7.1.3's worked geometry: FP32 17 on 4, FP16 17 on 4, FP16
        // 8193 on 2.
        let cut = |size, ranks, align| {
            (0..=ranks)
                .map(|i| boundary(i, size, ranks, align))
                .collect::<Vec<_>>()
        };
        assert_eq!(cut(17, 4, None), [0, 4, 8, 12, 17]);
        assert_eq!(cut(17, 4, Some(16)), [0, 16, 16, 16, 17]);
        assert_eq!(cut(8193, 2, Some(16)), [0, 4112, 8193]);
        assert_eq!(cut(3, 4, None), [0, 0, 1, 2, 3]);
    }

    fn pairs(ranges: Vec<Range<usize>>) -> Vec<(usize, usize)> {
        ranges.into_iter().map(|r| (r.start, r.end)).collect()
    }

    #[test]
    fn boxes_are_row_major_ranges() {
        assert_eq!(pairs(valid_box(&[4, 100], &[2, 100])), [(0, 200)]);
        assert_eq!(pairs(valid_box(&[4, 100], &[2, 50])), [(0, 50), (100, 150)]);
        assert_eq!(pairs(valid_box(&[1, 64], &[1, 40])), [(0, 40)]);
        assert_eq!(pairs(valid_box(&[3, 50], &[1, 17])), [(0, 17)]);
        assert_eq!(
            pairs(valid_box(&[2, 4, 16], &[1, 3, 12])),
            [(0, 12), (16, 28), (32, 44)]
        );
        assert_eq!(pairs(valid_box(&[2, 3, 4], &[2, 1, 4])), [(0, 4), (12, 16)]);
        assert_eq!(
            pairs(valid_box(&[2, 3], &[0, 3])),
            Vec::<(usize, usize)>::new()
        );
        assert_eq!(
            pairs(valid_box(&[2, 3], &[2, 0])),
            Vec::<(usize, usize)>::new()
        );
    }
}
