//! The expected results of a kernel's collective, computed in Rust with
//! f64 accumulation, and the comparison with what the ranks produced.

use crate::program::model::{Collective, Dtype, KernelInfo, Param};
use pld_dialect::collective::{CollectiveKind, Role};
use pld_dialect::enums::ReduceOp;

/// How far a rank's result is from the golden.
#[derive(Clone, Debug, PartialEq)]
pub struct RankCheck {
    pub rank: usize,
    /// Largest |got - want| over the checked elements.
    pub worst: f64,
    /// The element where it occurs.
    pub at: usize,
    pub ok: bool,
    /// Number of elements outside the tolerance.
    pub wrong: usize,
    /// The first few of them: (element, expected, actual).
    pub first_wrong: Vec<(usize, f64, f64)>,
    /// The golden of the whole target, element by element.
    pub expected: Vec<f64>,
}

/// How many wrong elements a [`RankCheck`] lists.
pub const FIRST_WRONG: usize = 5;

/// The allowed error of one element: a rounding step of the dtype per rank
/// that contributed, relative to the magnitude of what was combined (so
/// that contributions that cancel out are not held to the tiny result).
fn tolerance(dtype: Dtype, ranks: usize, magnitude: f64) -> f64 {
    let ulp = match dtype {
        Dtype::F16 => 1.0 / 1024.0,
        Dtype::F32 => 1.0 / 8_388_608.0,
        Dtype::I32 | Dtype::I8 => 0.0,
    };
    ulp * ranks as f64 * magnitude.max(1.0)
}

/// Whether `got` is within `tolerance` of `want` (equal infinities agree).
fn close(got: f64, want: f64, tolerance: f64) -> bool {
    got == want || (got - want).abs() <= tolerance
}

/// Checks the kernel's one collective: the golden of its target for every
/// rank, from the initial buffers `inputs[rank][param]`. `Err` when the
/// kernel has no collective this knows the semantics of.
pub fn check(
    kernel: &KernelInfo,
    inputs: &[Vec<Vec<u8>>],
    outputs: &[Vec<Vec<u8>>],
) -> Result<Vec<RankCheck>, String> {
    let collective = the_collective(kernel)?;
    let target = collective
        .at(Role::Target)
        .ok_or("the collective's target is not a parameter of the kernel")?;
    let ranks = inputs.len();
    check_extents(kernel, collective, ranks)?;
    let complete = |buffers: &[Vec<Vec<u8>>]| {
        buffers.iter().all(|row| {
            row.len() == kernel.params.len()
                && row
                    .iter()
                    .zip(&kernel.params)
                    .all(|(bytes, p)| bytes.len() == p.bytes())
        })
    };
    if outputs.len() != ranks || !complete(inputs) || !complete(outputs) {
        return Err("the snapshots do not match the collective's operands".into());
    }
    let operands = Operands {
        kernel,
        collective,
        target,
        inputs,
        outputs,
    };
    let golden = operands.golden()?;
    Ok((0..ranks)
        .map(|rank| operands.rank_check(rank, &golden))
        .collect())
}

/// The kernel's one collective, run once (not in a loop).
fn the_collective(kernel: &KernelInfo) -> Result<&Collective, String> {
    if let Some((collective, loop_op)) = kernel
        .collectives
        .iter()
        .find_map(|c| Some((c, c.in_loop.as_ref()?)))
    {
        return Err(format!(
            "the {} of @{} is inside an {loop_op}, so it runs more than once; --check compares \
             the result of one call with the golden",
            collective.op(),
            kernel.name
        ));
    }
    let [collective] = kernel.collectives.as_slice() else {
        return Err(format!(
            "@{} has {} collectives; --check needs exactly one",
            kernel.name,
            kernel.collectives.len()
        ));
    };
    Ok(collective)
}

/// A golden: element `i` of rank `rank`'s target.
type Golden<'a> = Box<dyn Fn(usize, usize) -> f64 + 'a>;

/// A collective's operands before (`inputs[rank][param]`) and after
/// (`outputs`) the call, checked to be complete.
struct Operands<'a> {
    kernel: &'a KernelInfo,
    collective: &'a Collective,
    /// The parameter holding the result.
    target: usize,
    inputs: &'a [Vec<Vec<u8>>],
    outputs: &'a [Vec<Vec<u8>>],
}

impl<'a> Operands<'a> {
    fn param(&self) -> &'a Param {
        &self.kernel.params[self.target]
    }

    fn ranks(&self) -> usize {
        self.inputs.len()
    }

    /// Element `i` of rank `rank`'s target before the call.
    fn value(&self) -> impl Fn(usize, usize) -> f64 + Copy + 'a {
        let (param, inputs, target) = (self.param(), self.inputs, self.target);
        move |rank: usize, i: usize| param.dtype.read(&inputs[rank][target], i)
    }

    /// What the golden combines for element `i`, in magnitude, for the
    /// tolerance.
    fn magnitude(&self, i: usize) -> f64 {
        let value = self.value();
        let ranks = self.ranks();
        match self.collective.reduce {
            Some(ReduceOp::Prod) => (0..ranks).map(|r| value(r, i).abs()).product(),
            Some(_) => (0..ranks).map(|r| value(r, i).abs()).sum(),
            // Copies are exact.
            None => 0.0,
        }
    }

    /// The golden of the collective's target, from its semantics.
    fn golden(&self) -> Result<Golden<'a>, String> {
        let (collective, ranks, value) = (self.collective, self.ranks(), self.value());
        let reduce = collective.reduce.unwrap_or(ReduceOp::Sum);
        let root = collective.root.unwrap_or(0);
        let root = usize::try_from(root)
            .ok()
            .filter(|r| *r < ranks)
            .ok_or_else(|| {
                format!(
                    "the {}'s root {root} is not one of {ranks} ranks",
                    collective.kind.spec_name()
                )
            });
        Ok(match collective.kind {
            CollectiveKind::AllReduce => {
                Box::new(move |_rank, i| reference::fold(reduce, (0..ranks).map(|r| value(r, i))))
            }
            CollectiveKind::Reduce => {
                // The root's target becomes the fold; the others keep theirs.
                let root = root?;
                Box::new(move |rank, i| {
                    if rank == root {
                        reference::fold(reduce, (0..ranks).map(|r| value(r, i)))
                    } else {
                        value(rank, i)
                    }
                })
            }
            CollectiveKind::Broadcast => {
                let root = root?;
                Box::new(move |_rank, i| value(root, i))
            }
            CollectiveKind::ReduceScatter => {
                // Row `me` becomes the fold of every rank's row `me`; the
                // others keep their values.
                let size = *self.param().shape.last().unwrap_or(&1);
                Box::new(move |rank, i| {
                    if i / size == rank {
                        reference::fold(reduce, (0..ranks).map(|r| value(r, i)))
                    } else {
                        value(rank, i)
                    }
                })
            }
            CollectiveKind::AllGather => self.gather(true)?,
            CollectiveKind::AllToAll => self.gather(false)?,
            CollectiveKind::AllToAllV => self.all_to_all_v()?,
            CollectiveKind::Barrier | CollectiveKind::IndexedAllToAllV => {
                return Err(format!(
                    "no golden for {} yet; --check knows allreduce, reduce, broadcast, \
                     reduce_scatter, allgather, all_to_all and all_to_all_v",
                    collective.op()
                ))
            }
        })
    }

    /// allgather (`gather`): row r is rank r's input row; all_to_all: row
    /// r is row `rank` of rank r's input.
    fn gather(&self, gather: bool) -> Result<Golden<'a>, String> {
        let (kernel, inputs) = (self.kernel, self.inputs);
        let source = self
            .collective
            .at(Role::Input)
            .ok_or("the collective's input is not a parameter of the kernel")?;
        let input = &kernel.params[source];
        let size = *self.param().shape.last().unwrap_or(&1);
        Ok(Box::new(move |rank, i| {
            let (row, col) = (i / size, i % size);
            let at = if gather { col } else { rank * size + col };
            input.dtype.read(&inputs[row][source], at)
        }))
    }

    /// Each sender `s` owns `capacity` rows of every receiver's target; it
    /// fills the first clamp(count, 0, capacity) of them with its input
    /// rows for that receiver, the rest keep their values.
    fn all_to_all_v(&self) -> Result<Golden<'a>, String> {
        let (kernel, inputs, value) = (self.kernel, self.inputs, self.value());
        let (param, ranks) = (self.param(), self.ranks());
        let source = self
            .collective
            .at(Role::Input)
            .ok_or("the collective's input is not a parameter of the kernel")?;
        let send = self
            .collective
            .at(Role::SendCounts)
            .ok_or("the collective's counts are not parameters of the kernel")?;
        let input = &kernel.params[source];
        let size = *param.shape.last().unwrap_or(&1);
        let capacity = param.shape.first().copied().unwrap_or(0) / ranks.max(1);
        let counts = &kernel.params[send];
        Ok(Box::new(move |rank, i| {
            let (row, col) = (i / size, i % size);
            let (sender, k) = (row / capacity.max(1), row % capacity.max(1));
            let asked = counts.dtype.read(&inputs[sender][send], rank) as i64;
            let sent = asked.clamp(0, capacity as i64) as usize;
            if sender < ranks && k < sent {
                input
                    .dtype
                    .read(&inputs[sender][source], (rank * capacity + k) * size + col)
            } else {
                value(rank, i)
            }
        }))
    }

    /// Rank `rank`'s result against `golden`.
    fn rank_check(&self, rank: usize, golden: &Golden<'_>) -> RankCheck {
        let (param, ranks) = (self.param(), self.ranks());
        let n = param.elements();
        let mut worst = 0.0f64;
        let mut at = 0;
        let mut ok = true;
        let mut wrong = 0;
        let mut first_wrong = Vec::new();
        let mut expected = Vec::with_capacity(n);
        for i in 0..n {
            let want = golden(rank, i);
            expected.push(want);
            let got = param.dtype.read(&self.outputs[rank][self.target], i);
            let error = if got == want { 0.0 } else { (got - want).abs() };
            if error > worst || error.is_nan() {
                worst = error;
                at = i;
            }
            if !close(got, want, tolerance(param.dtype, ranks, self.magnitude(i))) {
                ok = false;
                wrong += 1;
                if first_wrong.len() < FIRST_WRONG {
                    first_wrong.push((i, want, got));
                }
            }
        }
        // all_to_all_v also publishes what each sender sent.
        let collective = self.collective;
        let counts = collective
            .at(Role::SendCounts)
            .zip(collective.at(Role::RecvCounts));
        if let (Some((send, receive)), true) = (counts, collective.kind.facts().publishes_counts) {
            let capacity = param.shape.first().copied().unwrap_or(0) / ranks.max(1);
            let (counts, published) = (&self.kernel.params[send], &self.kernel.params[receive]);
            for (sender, buffers) in self.inputs.iter().enumerate() {
                let asked = counts.dtype.read(&buffers[send], rank) as i64;
                let sent = asked.clamp(0, capacity as i64) as f64;
                if published.dtype.read(&self.outputs[rank][receive], sender) != sent {
                    // A wrong published count is a wrong element too.
                    ok = false;
                    wrong += 1;
                }
            }
        }
        RankCheck {
            rank,
            worst,
            at,
            ok,
            wrong,
            first_wrong,
            expected,
        }
    }
}

/// The shapes the golden reads must fit the rank count: the per-rank rows
/// of allgather, all_to_all and reduce_scatter targets, the slots of
/// all_to_all_v, the inputs they read from.
fn check_extents(kernel: &KernelInfo, collective: &Collective, ranks: usize) -> Result<(), String> {
    let param = |i: Option<usize>| i.and_then(|i| kernel.params.get(i));
    let Some(target) = param(collective.at(Role::Target)) else {
        return Ok(());
    };
    let rows = target.shape.first().copied().unwrap_or(0);
    let size = *target.shape.last().unwrap_or(&1);
    let input = param(collective.at(Role::Input));
    let fits = |elements: usize| input.is_none_or(|p| p.elements() >= elements);
    let ok = match collective.kind {
        CollectiveKind::AllGather => rows == ranks && fits(size),
        CollectiveKind::AllToAll => rows == ranks && fits(ranks * size),
        CollectiveKind::ReduceScatter => rows == ranks,
        CollectiveKind::AllToAllV | CollectiveKind::IndexedAllToAllV => {
            let counts =
                param(collective.at(Role::SendCounts)).zip(param(collective.at(Role::RecvCounts)));
            ranks > 0
                && rows % ranks == 0
                && rows >= ranks
                && fits(rows * size)
                && counts.is_some_and(|(s, r)| s.elements() >= ranks && r.elements() >= ranks)
        }
        CollectiveKind::AllReduce
        | CollectiveKind::Barrier
        | CollectiveKind::Broadcast
        | CollectiveKind::Reduce => true,
    };
    if ok {
        Ok(())
    } else {
        Err(format!(
            "no golden: the shapes of {} ({:?}) do not fit {ranks} ranks",
            collective.op(),
            target.shape
        ))
    }
}

/// Goldens of the builtin collectives on plain values, one `Vec` per rank
/// (f64; the caller rounds to the dtype). Written from the spec's
/// semantics (4.5-4.7, 11, 12), independently of the kernels.
pub mod reference {
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
}
