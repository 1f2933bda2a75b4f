//! The moves between a shard op's layout and the rows a pld collective
//! moves.
//!
//! pld's collectives are row-based: an allgather or all_to_all moves one
//! row `[1, SIZE]` per rank, a reduce_scatter leaves row `r` on rank `r`.
//! A shard op works along any tensor axis `a`. Around `a` a tensor is a
//! `[P, D, Q]` block (`P` elements before the axis, `D` along it, `Q`
//! after), so splitting axis `a` into `G` chunks of `c = D / G` is
//! splitting the columns of the matrix `[P, D*Q]`; a chunk is the box
//! `[P, c*Q]` at column `k*c*Q`, and the chunks become rows by storing
//! chunk `k` as rows `[k*P, (k+1)*P)` of the matrix `[G*P, c*Q]` (a
//! transpose of `[P, G, c*Q]` into `[G, P, c*Q]`). Gathering along `a` is
//! the inverse. For `a = 0` (`P = 1`) both are plain copies.
//!
//! The chunk of key `k` goes to (or comes from) the member whose key is
//! `k`; pld numbers members by rank, so rank `r` takes chunk
//! [`Groups::key_at`]`(r)`. When keys and ranks agree the `G` boxes are one
//! loop, otherwise `G` boxes of their own.

use super::grid::Groups;
use super::kernel::{Move, Offset, Place};
use super::types::PerDevice;

/// The matrix `[1, n]` of `n` elements, seen by a plain copy.
pub fn flat(n: usize) -> [usize; 2] {
    [1, n]
}

/// A place at a fixed box start.
fn at(devices: usize, param: usize, view: [usize; 2], row: usize, col: usize) -> Place {
    Place {
        param,
        view,
        row: Offset::fixed(devices, row, 0),
        col: Offset::fixed(devices, col, 0),
    }
}

/// Copies all `n` elements of parameter `src` into parameter `dst`.
pub fn whole(devices: usize, src: usize, dst: usize, n: usize) -> Move {
    let view = flat(n);
    Move {
        src: at(devices, src, view, 0, 0),
        dst: at(devices, dst, view, 0, 0),
        extent: view,
        count: 1,
    }
}

/// One box per group rank `r` from `src` to `dst`: `from(r)` and `to(r)`
/// give each end's start; as a loop when they are affine in `r`.
fn per_rank(
    devices: usize,
    groups: &Groups,
    (src, src_view): (usize, [usize; 2]),
    (dst, dst_view): (usize, [usize; 2]),
    extent: [usize; 2],
    ends: impl Fn(usize) -> ([usize; 2], [usize; 2]),
) -> Vec<Move> {
    let size = groups.size();
    let moves = |r: usize, count: usize, steps: ([usize; 2], [usize; 2])| {
        let (from, to) = ends(r);
        let place = |param, view, start: [usize; 2], step: [usize; 2]| Place {
            param,
            view,
            row: Offset::fixed(devices, start[0], step[0]),
            col: Offset::fixed(devices, start[1], step[1]),
        };
        Move {
            src: place(src, src_view, from, steps.0),
            dst: place(dst, dst_view, to, steps.1),
            extent,
            count,
        }
    };
    if groups.keys_are_ranks() && size > 1 {
        let (from0, to0) = ends(0);
        let (from1, to1) = ends(1);
        let step = |a: [usize; 2], b: [usize; 2]| [b[0] - a[0], b[1] - a[1]];
        return vec![moves(0, size, (step(from0, from1), step(to0, to1)))];
    }
    (0..size).map(|r| moves(r, 1, ([0, 0], [0, 0]))).collect()
}

/// Splits axis `a` of `src` (`[P, G*c*Q]`) into the rows of `dst`
/// (`[G*P, c*Q]`): rank `r`'s rows hold the chunk of key `key_at(r)`.
pub fn split_to_rows(
    devices: usize,
    groups: &Groups,
    src: usize,
    dst: usize,
    (p, cq): (usize, usize),
) -> Vec<Move> {
    let g = groups.size();
    per_rank(
        devices,
        groups,
        (src, [p, g * cq]),
        (dst, [g * p, cq]),
        [p, cq],
        |r| ([0, groups.key_at(r) * cq], [r * p, 0]),
    )
}

/// Gathers the rows of `src` (`[G*P, d*Q]`, rank `r`'s rows from member
/// `r`) along axis `a` of `dst` (`[P, G*d*Q]`, in key order).
pub fn rows_to_axis(
    devices: usize,
    groups: &Groups,
    src: usize,
    dst: usize,
    (p, dq): (usize, usize),
) -> Vec<Move> {
    let g = groups.size();
    per_rank(
        devices,
        groups,
        (src, [g * p, dq]),
        (dst, [p, g * dq]),
        [p, dq],
        |r| ([r * p, 0], [0, groups.key_at(r) * dq]),
    )
}

/// This device's rows of `src` (`[G*P, c*Q]`, rows `[rank*P, (rank+1)*P)`)
/// into `dst` (`[P, c*Q]`).
pub fn own_rows(
    devices: usize,
    groups: &Groups,
    src: usize,
    dst: usize,
    (p, cq): (usize, usize),
) -> Move {
    let g = groups.size();
    Move {
        src: Place {
            param: src,
            view: [g * p, cq],
            row: Offset {
                base: PerDevice::from_fn(devices, |d| (groups.rank_of(d) * p) as i64),
                step: 0,
            },
            col: Offset::fixed(devices, 0, 0),
        },
        dst: at(devices, dst, [p, cq], 0, 0),
        extent: [p, cq],
        count: 1,
    }
}

/// This device's chunk of axis `a` of `src` (`[P, G*c*Q]`, the chunk of
/// its key) into `dst` (`[P, c*Q]`).
pub fn own_chunk(
    devices: usize,
    groups: &Groups,
    src: usize,
    dst: usize,
    (p, cq): (usize, usize),
) -> Move {
    let g = groups.size();
    Move {
        src: Place {
            param: src,
            view: [p, g * cq],
            row: Offset::fixed(devices, 0, 0),
            col: Offset {
                base: PerDevice::from_fn(devices, |d| (groups.key_of(d) * cq) as i64),
                step: 0,
            },
        },
        dst: at(devices, dst, [p, cq], 0, 0),
        extent: [p, cq],
        count: 1,
    }
}

#[cfg(test)]
mod tests {
    use super::super::grid::Grid;
    use super::*;

    #[test]
    fn ascending_axes_make_one_loop() {
        let groups = Grid {
            name: "g".into(),
            shape: vec![2, 4],
        }
        .groups(&[1]);
        let moves = rows_to_axis(8, &groups, 0, 1, (8, 4));
        assert_eq!(moves.len(), 1);
        assert_eq!(moves[0].count, 4);
        assert_eq!(moves[0].src.row.step, 8);
        assert_eq!(moves[0].dst.col.step, 4);
        assert_eq!(moves[0].dst.view, [8, 16]);
    }

    #[test]
    fn reversed_axes_make_one_box_per_rank() {
        let groups = Grid {
            name: "g".into(),
            shape: vec![2, 2],
        }
        .groups(&[1, 0]);
        let moves = split_to_rows(4, &groups, 0, 1, (1, 3));
        assert_eq!(moves.len(), 4);
        // Rank 1 is key 2: its row takes the chunk at column 2*3.
        assert_eq!(moves[1].src.col.base.as_constant(), Some(6));
        assert_eq!(moves[1].dst.row.base.as_constant(), Some(1));
    }
}
