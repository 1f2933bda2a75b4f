//! Goldens of the builtin collectives on plain values, one `Vec` per rank
//! (f64; the caller rounds to the dtype). Written from the spec's
//! semantics (4.5-4.7, 11, 12), independently of the kernels.

use pld_dialect::enums::ReduceOp;

/// `values` folded in rank order with `op`.
pub fn fold(op: ReduceOp, values: impl IntoIterator<Item = f64>) -> f64 {
    let mut values = values.into_iter();
    let first = values.next().unwrap_or(0.0);
    values.fold(first, |acc, v| match op {
        ReduceOp::Sum => acc + v,
        ReduceOp::Max => acc.max(v),
        ReduceOp::Min => acc.min(v),
        ReduceOp::Prod => acc * v,
    })
}

/// allreduce (mesh or ring): every rank gets the element-wise fold.
pub fn allreduce(op: ReduceOp, inputs: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let n = inputs.first().map_or(0, Vec::len);
    let folded: Vec<f64> = (0..n)
        .map(|i| fold(op, inputs.iter().map(|r| r[i])))
        .collect();
    vec![folded; inputs.len()]
}

/// broadcast: every rank gets the root's data.
pub fn broadcast(root: usize, inputs: &[Vec<f64>]) -> Vec<Vec<f64>> {
    vec![inputs[root].clone(); inputs.len()]
}

/// reduce_scatter over `[P, M]`: row `r` of rank `r` becomes the fold
/// of every rank's row `r`; the other rows keep their values.
pub fn reduce_scatter(op: ReduceOp, inputs: &[Vec<f64>], m: usize) -> Vec<Vec<f64>> {
    (0..inputs.len())
        .map(|r| {
            let mut out = inputs[r].clone();
            for j in 0..m {
                out[r * m + j] = fold(op, inputs.iter().map(|q| q[r * m + j]));
            }
            out
        })
        .collect()
}

/// allgather of `[M]` inputs into `[P*M]`: row `s` is rank `s`'s input.
pub fn allgather(inputs: &[Vec<f64>]) -> Vec<Vec<f64>> {
    vec![inputs.concat(); inputs.len()]
}

/// all_to_all of `[P*M]`: row `s` of rank `r`'s output is row `r` of
/// rank `s`'s input.
pub fn all_to_all(inputs: &[Vec<f64>], m: usize) -> Vec<Vec<f64>> {
    let p = inputs.len();
    (0..p)
        .map(|r| {
            (0..p)
                .flat_map(|s| inputs[s][r * m..(r + 1) * m].to_vec())
                .collect()
        })
        .collect()
}

/// all_to_all_v (spec 12, the newer semantics): sender `s` sends
/// `clamp(counts[s][r], 0, cap)` rows of `row` elements from its block
/// for `r` into slot `s` of `r`'s target; the other rows keep
/// `targets[r]`. Returns the targets and the published counts
/// (`recv[r][s]`).
pub fn all_to_all_v(
    inputs: &[Vec<f64>],
    counts: &[Vec<i64>],
    cap: usize,
    row: usize,
    targets: &[Vec<f64>],
) -> (Vec<Vec<f64>>, Vec<Vec<i64>>) {
    let p = inputs.len();
    let mut out = targets.to_vec();
    let mut recv = vec![vec![0i64; p]; p];
    for r in 0..p {
        for s in 0..p {
            let sent = counts[s][r].clamp(0, cap as i64);
            recv[r][s] = sent;
            for k in 0..sent as usize {
                for j in 0..row {
                    out[r][(s * cap + k) * row + j] = inputs[s][(r * cap + k) * row + j];
                }
            }
        }
    }
    (out, recv)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_cases_by_hand() {
        let inputs = vec![vec![1.0, -2.0], vec![3.0, 4.0]];
        assert_eq!(allreduce(ReduceOp::Sum, &inputs)[1], [4.0, 2.0]);
        assert_eq!(allreduce(ReduceOp::Max, &inputs)[0], [3.0, 4.0]);
        assert_eq!(allreduce(ReduceOp::Min, &inputs)[0], [1.0, -2.0]);
        assert_eq!(allreduce(ReduceOp::Prod, &inputs)[0], [3.0, -8.0]);
        assert_eq!(broadcast(1, &inputs)[0], [3.0, 4.0]);
        // [P=2, M=1]: rank 0 row 0 = 1 + 3, rank 1 row 1 = -2 + 4.
        assert_eq!(
            reduce_scatter(ReduceOp::Sum, &inputs, 1),
            [vec![4.0, -2.0], vec![3.0, 2.0]]
        );
        assert_eq!(allgather(&inputs)[1], [1.0, -2.0, 3.0, 4.0]);
        assert_eq!(all_to_all(&inputs, 1), [vec![1.0, 3.0], vec![-2.0, 4.0]]);
        // cap 2, row 1: rank 0 sends 1 row to 1, rank 1 sends 5 (-> 2)
        // rows to 0 and -1 (-> 0) to itself.
        let inputs = vec![vec![10.0, 11.0, 12.0, 13.0], vec![20.0, 21.0, 22.0, 23.0]];
        let counts = vec![vec![0, 1], vec![5, -1]];
        let zeros = vec![vec![0.0; 4]; 2];
        let (out, recv) = all_to_all_v(&inputs, &counts, 2, 1, &zeros);
        assert_eq!(out[0], [0.0, 0.0, 20.0, 21.0]);
        assert_eq!(out[1], [12.0, 0.0, 0.0, 0.0]);
        assert_eq!(recv, [vec![0, 2], vec![1, 0]]);
    }
}
