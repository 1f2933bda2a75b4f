//! The expected results of a kernel's collective, computed as each rank's
//! schedule computes them (in the target's dtype, one step per rank, in
//! the order that rank's schedule folds, see [`element`] and [`order`]),
//! and the comparison with what the ranks produced.
//!
//! One golden per rank, the bytes `--output-dir` writes; each element of
//! it is either a copy (of a rank's data: broadcast, allgather,
//! all_to_all, all_to_all_v, and the elements a reduce or reduce_scatter
//! leaves as they were, and those of a composite allreduce's target
//! outside its `valid_shape`), compared bit for bit, NaN included, or a
//! fold of every rank's element. A fold of integers, and a max or min, is
//! exact (integers wrap around as the device's do; a NaN agrees with a
//! NaN); a sum or product of floats is the schedule's, and a result may
//! differ from it by the [`tolerance`] when both are finite (a device's
//! vector unit may round differently), and must be the golden's infinity
//! or NaN otherwise.

mod element;
mod order;
pub mod reference;

use crate::program::model::{Collective, Dtype, KernelInfo, Param, Rail};
use crate::program::parallel;
use crate::program::shapes;
pub use element::Value;
use element::{by_dtype, fold_orders, Element};
use order::Run;
use pld_dialect::collective::{CollectiveKind, Role};
use pld_dialect::enums::ReduceOp;
use std::ops::Range;
use std::sync::Arc;

/// An element outside what the check allows.
#[derive(Clone, Debug, PartialEq)]
pub struct WrongElement {
    /// Its index in the target, row-major.
    pub index: usize,
    /// The golden's value (as the golden file holds it).
    pub expected: Value,
    pub got: Value,
    /// The [`tolerance`] it was held to: `Some` for a finite sum or product
    /// of floats, `None` where the element must be exact.
    pub tolerance: Option<f64>,
}

/// How far a rank's result is from the golden.
#[derive(Clone, Debug, PartialEq)]
pub struct RankCheck {
    pub rank: usize,
    /// Largest |got - want| over the checked elements (infinite where one
    /// is not finite and they disagree).
    pub worst: f64,
    /// The element where it occurs.
    pub at: usize,
    pub ok: bool,
    /// Number of elements outside the tolerance.
    pub wrong: usize,
    /// The first few of them, in index order.
    pub first_wrong: Vec<WrongElement>,
    /// The golden of the whole target in its dtype, as the device holds it
    /// (what `pld-run --output-dir` writes); shared by the ranks whose
    /// golden is the same.
    pub expected: Arc<Vec<u8>>,
}

/// How many wrong elements a [`RankCheck`] lists.
pub const FIRST_WRONG: usize = 5;

/// The allowed difference between a finite float sum or product and its
/// finite golden: a rounding step of the dtype (`2^-10` for f16, `2^-23`
/// for f32) per rank that contributed, relative to the magnitude of what
/// was combined (the sum of the magnitudes, or the product, at least 1, so
/// that contributions that cancel out are not held to the tiny result).
/// Nothing else has a tolerance.
pub fn tolerance(dtype: Dtype, ranks: usize, magnitude: f64) -> f64 {
    let ulp = match dtype {
        Dtype::F16 => 1.0 / 1024.0,
        Dtype::F32 => 1.0 / 8_388_608.0,
        Dtype::I32 | Dtype::I8 => 0.0,
    };
    ulp * ranks as f64 * magnitude.max(1.0)
}

/// Checks the kernel's one collective: the golden of its target for every
/// rank, from the initial buffers `inputs[rank][param]`. `Err` when the
/// kernel has no collective this knows the semantics of.
pub fn check(
    kernel: &KernelInfo,
    inputs: &[Vec<Vec<u8>>],
    outputs: &[Vec<Vec<u8>>],
) -> Result<Vec<RankCheck>, String> {
    check_ranks(kernel, inputs, outputs, &|_| true)
}

/// [`check`] for the ranks `wanted` names (a process under MPI checks its
/// own): the golden still comes from every rank's `inputs`, but only the
/// wanted ranks' `outputs` are read (the others' may be empty), and only
/// their checks are returned.
pub fn check_ranks(
    kernel: &KernelInfo,
    inputs: &[Vec<Vec<u8>>],
    outputs: &[Vec<Vec<u8>>],
    wanted: &(dyn Fn(usize) -> bool + Sync),
) -> Result<Vec<RankCheck>, String> {
    let collective = the_collective(kernel).map_err(|(_, why)| why)?;
    let kernel = &*kernel.as_seen_by(collective);
    let target = collective.at(Role::Target).ok_or(NO_TARGET)?;
    let ranks = inputs.len();
    check_extents(kernel, collective, ranks)?;
    let whole = |row: &Vec<Vec<u8>>| {
        row.len() == kernel.params.len()
            && row
                .iter()
                .zip(&kernel.params)
                .all(|(bytes, p)| bytes.len() == p.bytes())
    };
    let complete = |buffers: &[Vec<Vec<u8>>], only: &dyn Fn(usize) -> bool| {
        buffers
            .iter()
            .enumerate()
            .all(|(r, row)| !only(r) || whole(row))
    };
    if outputs.len() != ranks || !complete(inputs, &|_| true) || !complete(outputs, wanted) {
        return Err("the snapshots do not match the collective's operands".into());
    }
    let operands = Operands {
        kernel,
        collective,
        target,
        inputs,
        outputs,
    };
    let goldens = operands.goldens(wanted)?;
    let bytes = ranks * operands.param().bytes();
    let checks = parallel::map(ranks, bytes, |rank| {
        let golden = goldens[rank].as_ref().filter(|_| wanted(rank))?;
        Some(operands.rank_check(rank, golden))
    });
    Ok(checks.into_iter().flatten().collect())
}

/// The kernel's one collective, run once (not in a loop); or why there is
/// no such collective, with the one concerned (`None`: the kernel has none).
fn the_collective(kernel: &KernelInfo) -> Result<&Collective, Uncheckable<'_>> {
    // A numeric collective first: it is the one --check would compare.
    let numeric = kernel.collectives.iter().filter(|c| c.kind.facts().numeric);
    if let Some((collective, loop_op)) = numeric
        .chain(&kernel.collectives)
        .find_map(|c| Some((c, c.in_loop.as_ref()?)))
    {
        let why = format!(
            "the {} of @{} is inside an {loop_op}, so it may run more than once; --check compares \
             the result of one call with the golden",
            collective.op(),
            kernel.name
        );
        return Err((Some(collective), why));
    }
    let [collective] = kernel.collectives.as_slice() else {
        let why = format!(
            "@{} has {} collectives; --check needs exactly one",
            kernel.name,
            kernel.collectives.len()
        );
        // The second makes one too many.
        return Err((kernel.collectives.get(1), why));
    };
    Ok(collective)
}

/// Why `--check` cannot compare a run: the collective concerned (`None`:
/// the kernel as a whole) and the reason.
pub type Uncheckable<'k> = (Option<&'k Collective>, String);

/// Whether `--check` can compare a run of `kernel` on `ranks` ranks, known
/// before it runs (what [`check_ranks`] would refuse after).
pub fn checkable(kernel: &KernelInfo, ranks: usize) -> Result<(), Uncheckable<'_>> {
    let collective = the_collective(kernel)?;
    let seen = &*kernel.as_seen_by(collective);
    let why = |why: String| (Some(collective), why);
    if collective.at(Role::Target).is_none() {
        return Err(why(NO_TARGET.into()));
    }
    check_extents(seen, collective, ranks).map_err(why)
}

const NO_TARGET: &str = "the collective's target is not a parameter of the kernel";

/// A rank's golden: its target as the device holds it, and the elements
/// that are a fold of every rank's (the others are copies), as sorted,
/// disjoint ranges.
struct RankGolden {
    bytes: Arc<Vec<u8>>,
    folded: Vec<Range<usize>>,
}

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

    /// The reduction (Sum when the collective names none).
    fn op(&self) -> ReduceOp {
        self.collective.reduce.unwrap_or(ReduceOp::Sum)
    }

    /// Rank `rank`'s target before the call.
    fn before(&self, rank: usize) -> &'a [u8] {
        &self.inputs[rank][self.target]
    }

    /// The elements of one row of the target (one index of its first
    /// extent).
    fn row(&self) -> usize {
        let param = self.param();
        param.elements() / param.shape.first().copied().unwrap_or(1).max(1)
    }

    /// The parameter of operand `role`.
    fn operand(&self, role: Role, what: &str) -> Result<usize, String> {
        self.collective
            .at(role)
            .ok_or_else(|| format!("the collective's {what} is not a parameter of the kernel"))
    }

    /// The collective's root, one of the ranks.
    fn root(&self) -> Result<usize, String> {
        let (root, ranks) = (self.collective.root.unwrap_or(0), self.ranks());
        usize::try_from(root)
            .ok()
            .filter(|r| *r < ranks)
            .ok_or_else(|| {
                format!(
                    "the {}'s root {root} is not one of {}",
                    self.collective.kind.spec_name(),
                    pld_ir::diag::count(ranks, "rank")
                )
            })
    }

    /// Elements `range` of every rank's target folded in the order `ranks`
    /// (each rank once), in the target's dtype.
    fn fold(&self, range: Range<usize>, ranks: &[usize]) -> Vec<u8> {
        let mut fold = vec![0; range.len() * self.param().dtype.bytes()];
        self.folds(range, &[ranks], &mut [&mut fold[..]]);
        fold
    }

    /// `folds[j]` := elements `range` of every rank's target folded in the
    /// order `orders[j]`, all at once (one pass over the ranks' copies), in
    /// the target's dtype.
    fn folds(&self, range: Range<usize>, orders: &[&[usize]], folds: &mut [&mut [u8]]) {
        let (dtype, op) = (self.param().dtype, self.op());
        let bytes = range.start * dtype.bytes()..range.end * dtype.bytes();
        let sources: Vec<&[u8]> = (0..self.ranks())
            .map(|r| &self.before(r)[bytes.clone()])
            .collect();
        parallel::pieces_of_all(folds, dtype.bytes(), |offset, pieces| {
            let length = pieces.first().map_or(0, |p| p.len());
            let part: Vec<&[u8]> = sources
                .iter()
                .map(|s| &s[offset..offset + length])
                .collect();
            by_dtype!(dtype, T => fold_orders::<T>(op, pieces, &part, orders));
        });
    }

    /// Every rank's golden, from the collective's semantics (an
    /// allreduce's only for the ranks `wanted`).
    fn goldens(
        &self,
        wanted: &(dyn Fn(usize) -> bool + Sync),
    ) -> Result<Vec<Option<RankGolden>>, String> {
        let all = |goldens: Vec<RankGolden>| goldens.into_iter().map(Some).collect();
        Ok(match self.collective.kind {
            CollectiveKind::AllReduce => self.allreduce(wanted)?,
            CollectiveKind::Reduce => all(self.reduce()?),
            CollectiveKind::Broadcast => all(self.same(self.before(self.root()?).to_vec())),
            CollectiveKind::ReduceScatter => all(self.each(&|rank| self.reduce_scatter(rank))),
            CollectiveKind::AllGather => {
                // Row r is rank r's input row.
                let (source, row) = self.input_rows()?;
                let rows: Vec<&[u8]> = self.inputs.iter().map(|r| &r[source][..row]).collect();
                all(self.same(rows.concat()))
            }
            CollectiveKind::AllToAll => {
                // Row r is row `rank` of rank r's input.
                let (source, row) = self.input_rows()?;
                all(self.each(&|rank| {
                    let rows: Vec<&[u8]> = self
                        .inputs
                        .iter()
                        .map(|r| &r[source][rank * row..(rank + 1) * row])
                        .collect();
                    (rows.concat(), Vec::new())
                }))
            }
            CollectiveKind::AllToAllV => {
                let source = self.operand(Role::Input, "input")?;
                let send = self.operand(Role::SendCounts, "counts")?;
                all(self.each(&|rank| (self.all_to_all_v(rank, source, send), Vec::new())))
            }
            CollectiveKind::IndexedAllToAllV => {
                let source = self.operand(Role::Input, "input")?;
                let send = self.operand(Role::SendCounts, "counts")?;
                let index = self.operand(Role::Index, "index")?;
                all(self.each(&|rank| (self.indexed(rank, source, send, index), Vec::new())))
            }
            CollectiveKind::Barrier => {
                return Err(format!(
                    "no golden for {}; --check knows allreduce, reduce, broadcast, \
                     reduce_scatter, allgather, all_to_all, all_to_all_v and \
                     indexed_all_to_all_v",
                    self.collective.op()
                ))
            }
        })
    }

    /// The same golden for every rank, a copy, computed once.
    fn same(&self, bytes: Vec<u8>) -> Vec<RankGolden> {
        let bytes = Arc::new(bytes);
        (0..self.ranks())
            .map(|_| RankGolden {
                bytes: bytes.clone(),
                folded: Vec::new(),
            })
            .collect()
    }

    /// allreduce: rank `me`'s elements in the region folded in the order of
    /// its schedule ([`order::allreduce`]), the others as they were, for
    /// the ranks `wanted` (under MPI a process computes its own); ranks
    /// whose folds are the same share them.
    fn allreduce(
        &self,
        wanted: &(dyn Fn(usize) -> bool + Sync),
    ) -> Result<Vec<Option<RankGolden>>, String> {
        let (param, ranks) = (self.param(), self.ranks());
        let region = self.region()?;
        let whole = region.iter().map(|r| r.len()).sum::<usize>() == param.elements();
        let free = order::order_free(self.collective, param.dtype);
        let mut plans: Vec<Option<Vec<Run>>> = Vec::with_capacity(ranks);
        for me in 0..ranks {
            let plan = match wanted(me) {
                true => Some(order::allreduce(
                    self.collective,
                    param.dtype,
                    &region,
                    ranks,
                    me,
                )?),
                false => None,
            };
            plans.push(plan.map(|runs| order::canonical(runs, free)));
        }
        let mut distinct: Vec<&[Run]> = Vec::new();
        for plan in plans.iter().flatten() {
            if !distinct.contains(&plan.as_slice()) {
                distinct.push(plan);
            }
        }
        let images = self.images(&distinct);
        Ok((0..ranks)
            .map(|me| {
                let plan = plans[me].as_deref()?;
                let image = &images[distinct.iter().position(|d| *d == plan)?];
                let bytes = match whole {
                    true => image.clone(),
                    false => Arc::new(self.overlay(me, image, &region)),
                };
                Some(RankGolden {
                    bytes,
                    folded: region.clone(),
                })
            })
            .collect())
    }

    /// The folds of each of the `plans` at their places in a target of
    /// zeros; plans that cut the target alike are folded together.
    fn images(&self, plans: &[&[Run]]) -> Vec<Arc<Vec<u8>>> {
        let Some(first) = plans.first() else {
            return Vec::new();
        };
        let alike = plans.iter().all(|plan| {
            plan.len() == first.len() && plan.iter().zip(*first).all(|(a, b)| a.range == b.range)
        });
        if !alike {
            return plans.iter().flat_map(|plan| self.images(&[plan])).collect();
        }
        let size = self.param().dtype.bytes();
        let mut images = vec![vec![0; self.param().bytes()]; plans.len()];
        for (i, run) in first.iter().enumerate() {
            let orders: Vec<&[usize]> = plans.iter().map(|p| p[i].ranks.as_slice()).collect();
            let at = run.range.start * size..run.range.end * size;
            let mut places: Vec<&mut [u8]> = images
                .iter_mut()
                .map(|image| &mut image[at.clone()])
                .collect();
            self.folds(run.range.clone(), &orders, &mut places);
        }
        images.into_iter().map(Arc::new).collect()
    }

    /// The elements an allreduce reduces: a composite allreduce's
    /// `valid_shape` box, else all of them (a builtin kernel reduces the
    /// whole buffer, spec 11.4).
    fn region(&self) -> Result<Vec<Range<usize>>, String> {
        let param = self.param();
        match (&self.collective.valid_shape, self.collective.rail) {
            (Some(valid), Rail::Composite) if valid.len() == param.shape.len() => {
                Ok(order::valid_box(&param.shape, valid))
            }
            (Some(valid), Rail::Composite) => Err(format!(
                "no golden: the valid_shape {valid:?} of {}'s target does not fit its shape {:?}",
                self.collective.op(),
                param.shape
            )),
            (_, Rail::Composite | Rail::Builtin) => Ok(order::whole(param.elements())),
        }
    }

    /// Rank `me`'s target before the call with the elements `region` taken
    /// from `image`.
    fn overlay(&self, me: usize, image: &[u8], region: &[Range<usize>]) -> Vec<u8> {
        let size = self.param().dtype.bytes();
        let mut out = self.before(me).to_vec();
        for range in region {
            let at = range.start * size..range.end * size;
            out[at.clone()].copy_from_slice(&image[at]);
        }
        out
    }

    /// A golden per rank, `golden(rank)`: its bytes and folded elements;
    /// the ranks in parallel.
    fn each(
        &self,
        golden: &(dyn Fn(usize) -> (Vec<u8>, Vec<Range<usize>>) + Sync),
    ) -> Vec<RankGolden> {
        let ranks = self.ranks();
        parallel::map(ranks, ranks * self.param().bytes(), |rank| {
            let (bytes, folded) = golden(rank);
            RankGolden {
                bytes: Arc::new(bytes),
                folded,
            }
        })
    }

    /// reduce: the root's target becomes the fold, in the mesh's order on
    /// the root; the others keep theirs.
    fn reduce(&self) -> Result<Vec<RankGolden>, String> {
        let (root, n) = (self.root()?, self.param().elements());
        let folded = Arc::new(self.fold(0..n, &order::mesh(root, self.ranks())));
        Ok((0..self.ranks())
            .map(|rank| match rank == root {
                true => RankGolden {
                    bytes: folded.clone(),
                    folded: order::whole(n),
                },
                false => RankGolden {
                    bytes: Arc::new(self.before(rank).to_vec()),
                    folded: Vec::new(),
                },
            })
            .collect())
    }

    /// reduce_scatter: row `rank` becomes the fold of every rank's row
    /// `rank`, in the mesh's order on `rank`; the others keep their values.
    fn reduce_scatter(&self, rank: usize) -> (Vec<u8>, Vec<Range<usize>>) {
        let (row, bytes) = (self.row(), self.param().dtype.bytes());
        let folded = rank * row..(rank + 1) * row;
        let mut out = self.before(rank).to_vec();
        let fold = self.fold(folded.clone(), &order::mesh(rank, self.ranks()));
        out[folded.start * bytes..folded.end * bytes].copy_from_slice(&fold);
        (out, vec![folded])
    }

    /// The collective's input, and the bytes of one row of the target.
    fn input_rows(&self) -> Result<(usize, usize), String> {
        let source = self.operand(Role::Input, "input")?;
        Ok((source, self.row() * self.param().dtype.bytes()))
    }

    /// all_to_all_v's capacity: the target's rows each sender owns.
    fn capacity(&self) -> usize {
        let rows = self.param().shape.first().copied().unwrap_or(0);
        rows / self.ranks().max(1)
    }

    /// The rows `sender` sends `receiver`: clamp(count, 0, capacity).
    fn sent(&self, send: usize, sender: usize, receiver: usize) -> usize {
        let counts = &self.kernel.params[send];
        let asked = counts.dtype.read(&self.inputs[sender][send], receiver) as i64;
        asked.clamp(0, self.capacity() as i64) as usize
    }

    /// Each sender `s` owns `capacity` rows of every receiver's target; it
    /// fills the first clamp(count, 0, capacity) of them with its input
    /// rows for that receiver, the rest keep their values.
    fn all_to_all_v(&self, rank: usize, source: usize, send: usize) -> Vec<u8> {
        let (row, capacity) = (self.row() * self.param().dtype.bytes(), self.capacity());
        let mut out = self.before(rank).to_vec();
        for sender in 0..self.ranks() {
            let length = self.sent(send, sender, rank) * row;
            let to = sender * capacity * row;
            let from = rank * capacity * row;
            out[to..to + length].copy_from_slice(&self.inputs[sender][source][from..from + length]);
        }
        out
    }

    /// indexed_all_to_all_v (docs/passes/pld-lower-l2-tensor-collectives.md):
    /// row k < clamp(count, 0, capacity) of sender `s`'s slot in this
    /// rank's target is row `index_s[rank * capacity + k]` of s's input;
    /// a row whose index is outside the input keeps its value, as do the
    /// rows past the count.
    fn indexed(&self, rank: usize, source: usize, send: usize, index: usize) -> Vec<u8> {
        let (row, capacity) = (self.row() * self.param().dtype.bytes(), self.capacity());
        // The input's rows of the target's width.
        let input_rows = self.kernel.params[source].elements() / self.row().max(1);
        let indices = &self.kernel.params[index];
        let mut out = self.before(rank).to_vec();
        for sender in 0..self.ranks() {
            for k in 0..self.sent(send, sender, rank) {
                let from = indices
                    .dtype
                    .read(&self.inputs[sender][index], rank * capacity + k);
                if from < 0.0 || from >= input_rows as f64 {
                    continue;
                }
                let (from, to) = (from as usize * row, (sender * capacity + k) * row);
                out[to..to + row].copy_from_slice(&self.inputs[sender][source][from..from + row]);
            }
        }
        out
    }

    /// What the golden combines for element `i`, in magnitude, for the
    /// tolerance.
    fn magnitude(&self, i: usize) -> f64 {
        let dtype = self.param().dtype;
        let values = (0..self.ranks()).map(|r| dtype.read(self.before(r), i).abs());
        match self.op() {
            ReduceOp::Prod => values.product(),
            ReduceOp::Sum | ReduceOp::Max | ReduceOp::Min => values.sum(),
        }
    }

    /// Rank `rank`'s result against `golden`: the copies bit for bit, the
    /// folds as the module says.
    fn rank_check(&self, rank: usize, golden: &RankGolden) -> RankCheck {
        let param = self.param();
        let (want, got) = (&golden.bytes[..], &self.outputs[rank][self.target][..]);
        let mut tally = Tally::default();
        for (range, folded) in cut(&golden.folded, param.elements()) {
            let fold = folded.then(|| self.op());
            by_dtype!(param.dtype, T => self.compare::<T>(range, fold, want, got, &mut tally));
        }
        // all_to_all_v also publishes what each sender sent; a wrong
        // published count is a wrong element too.
        tally.wrong += self.wrong_counts(rank);
        RankCheck {
            rank,
            worst: tally.worst,
            at: tally.at,
            ok: tally.wrong == 0,
            wrong: tally.wrong,
            first_wrong: tally.first_wrong,
            expected: golden.bytes.clone(),
        }
    }

    /// Elements `range` of `got` against `want`: copies (`fold` None) bit
    /// for bit, folds of `fold` as [`judge`] says; 4096 elements at a time
    /// as bytes first, so that a right result costs a `memcmp`.
    fn compare<T: Element>(
        &self,
        range: Range<usize>,
        fold: Option<ReduceOp>,
        want: &[u8],
        got: &[u8],
        tally: &mut Tally,
    ) {
        const BLOCK: usize = 4096;
        let (dtype, ranks) = (self.param().dtype, self.ranks());
        for start in range.clone().step_by(BLOCK) {
            let end = (start + BLOCK).min(range.end);
            let bytes = start * T::BYTES..end * T::BYTES;
            if want[bytes.clone()] == got[bytes] {
                continue;
            }
            for i in start..end {
                let at = i * T::BYTES..(i + 1) * T::BYTES;
                if want[at.clone()] == got[at.clone()] {
                    continue;
                }
                let (w, g) = (
                    T::load(&want[at.clone()]).widen(),
                    T::load(&got[at]).widen(),
                );
                let allowed = match fold {
                    Some(ReduceOp::Sum | ReduceOp::Prod) if T::FLOAT => {
                        Some(tolerance(dtype, ranks, self.magnitude(i)))
                    }
                    _ => None,
                };
                let (ok, error) = judge(w, g, fold.is_some(), allowed);
                tally.note(i, error);
                if !ok {
                    tally.wrong(WrongElement {
                        index: i,
                        expected: Value::at(dtype, want, i),
                        got: Value::at(dtype, got, i),
                        tolerance: allowed.filter(|_| w.is_finite() && g.is_finite()),
                    });
                }
            }
        }
    }

    /// The counts all_to_all_v published on `rank` that are not what each
    /// sender sent (none for another collective).
    fn wrong_counts(&self, rank: usize) -> usize {
        let collective = self.collective;
        let counts = collective
            .at(Role::SendCounts)
            .zip(collective.at(Role::RecvCounts));
        let Some((send, receive)) = counts.filter(|_| collective.kind.facts().publishes_counts)
        else {
            return 0;
        };
        let published = &self.kernel.params[receive];
        (0..self.ranks())
            .filter(|&sender| {
                let got = published.dtype.read(&self.outputs[rank][receive], sender);
                got != self.sent(send, sender, rank) as f64
            })
            .count()
    }
}

/// `0..n` cut at the sorted, disjoint ranges `folded`: each piece, and
/// whether it is one of them.
fn cut(folded: &[Range<usize>], n: usize) -> Vec<(Range<usize>, bool)> {
    let mut pieces = Vec::with_capacity(2 * folded.len() + 1);
    let mut at = 0;
    for range in folded {
        if range.start > at {
            pieces.push((at..range.start, false));
        }
        pieces.push((range.clone(), true));
        at = range.end;
    }
    if at < n {
        pieces.push((at..n, false));
    }
    pieces
}

/// Whether an element whose bits differ from the golden's is right, and
/// how far it is: a copy never; a fold when both are NaN, when the values
/// are equal (+0 and -0), or when both are finite and within `allowed`.
fn judge(want: f64, got: f64, folded: bool, allowed: Option<f64>) -> (bool, f64) {
    let finite = want.is_finite() && got.is_finite();
    let error = if finite {
        (got - want).abs()
    } else if want.is_nan() && got.is_nan() {
        0.0
    } else {
        f64::INFINITY
    };
    let ok = folded
        && ((want.is_nan() && got.is_nan())
            || want == got
            || (finite && allowed.is_some_and(|a| error <= a)));
    (ok, error)
}

/// The wrong elements of a rank so far, and its worst error.
#[derive(Default)]
struct Tally {
    worst: f64,
    at: usize,
    wrong: usize,
    first_wrong: Vec<WrongElement>,
}

impl Tally {
    fn note(&mut self, i: usize, error: f64) {
        if error > self.worst {
            self.worst = error;
            self.at = i;
        }
    }

    fn wrong(&mut self, element: WrongElement) {
        self.wrong += 1;
        if self.first_wrong.len() < FIRST_WRONG {
            self.first_wrong.push(element);
        }
    }
}

/// The shapes the golden reads must fit the rank count: the per-rank rows
/// of allgather, all_to_all and reduce_scatter targets, the slots, counts
/// and index of the exchanges ([`shapes::check_operands`], the check
/// before a run), and the inputs they read from (of the target's dtype:
/// the golden copies their bytes). An error names the operand at fault.
fn check_extents(kernel: &KernelInfo, collective: &Collective, ranks: usize) -> Result<(), String> {
    let param = |i: Option<usize>| i.and_then(|i| kernel.params.get(i));
    let Some(target) = param(collective.at(Role::Target)) else {
        return Ok(());
    };
    let no_golden = |why: String| format!("no golden: {why}");
    let input = param(collective.at(Role::Input));
    if let Some(input) = input.filter(|p| p.dtype != target.dtype) {
        return Err(no_golden(format!(
            "the input of {} is {}, its target {}",
            collective.op(),
            input.dtype.name(),
            target.dtype.name()
        )));
    }
    shapes::check_operands(kernel, collective, ranks).map_err(no_golden)?;
    let rows = target.shape.first().copied().unwrap_or(0);
    let size = target.elements() / rows.max(1);
    let read = match collective.kind {
        CollectiveKind::AllGather => size,
        CollectiveKind::AllToAll => ranks * size,
        CollectiveKind::AllToAllV | CollectiveKind::IndexedAllToAllV => rows * size,
        CollectiveKind::AllReduce
        | CollectiveKind::Barrier
        | CollectiveKind::Broadcast
        | CollectiveKind::Reduce
        | CollectiveKind::ReduceScatter => 0,
    };
    match input.filter(|p| p.elements() < read) {
        Some(input) => Err(no_golden(format!(
            "the input of {} ({}) is {:?}; on {ranks} ranks the target {:?} is filled from {read} \
             of its elements",
            collective.op(),
            input.name,
            input.shape,
            target.shape
        ))),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pld_dialect::enums::AllReduceMode;
    use pld_dialect::ops::collective::ModeOrigin;

    /// A distributed parameter.
    fn param(name: &str, dtype: Dtype, shape: &[usize]) -> Param {
        Param {
            name: name.into(),
            distributed: true,
            shape: shape.to_vec(),
            dtype,
        }
    }

    /// A kernel whose one collective `kind` works on `t` (`dtype`,
    /// `shape`) with the signal `s`.
    fn kernel(
        kind: CollectiveKind,
        reduce: Option<ReduceOp>,
        dtype: Dtype,
        shape: &[usize],
    ) -> KernelInfo {
        KernelInfo {
            name: "k".into(),
            params: vec![param("t", dtype, shape), param("s", Dtype::I32, &[8, 1])],
            collectives: vec![Collective {
                kind,
                mode: AllReduceMode::Mesh,
                origin: ModeOrigin::Written,
                rail: Rail::Composite,
                valid_shape: None,
                reduce,
                root: (kind == CollectiveKind::Broadcast).then_some(0),
                operands: vec![Some(0), Some(1)],
                shapes: Vec::new(),
                in_loop: None,
                in_branch: None,
                location: "k.mlir:1:1".into(),
            }],
            signals: vec![1],
            cells: vec![1],
            other_writes: Vec::new(),
            called_collective: None,
        }
    }

    /// Every rank's buffers: the target's bytes, and a zero signal.
    fn buffers(targets: Vec<Vec<u8>>) -> Vec<Vec<Vec<u8>>> {
        targets.into_iter().map(|t| vec![t, vec![0; 32]]).collect()
    }

    fn f32s(values: &[f32]) -> Vec<u8> {
        values.iter().flat_map(|v| v.to_le_bytes()).collect()
    }

    fn bits32(bits: &[u32]) -> Vec<u8> {
        bits.iter().flat_map(|b| b.to_le_bytes()).collect()
    }

    /// An indexed_all_to_all_v on `[8, 16]` f32 rows whose index is
    /// `index` (its dtype and shape).
    fn indexed(index: Dtype, shape: &[usize]) -> KernelInfo {
        KernelInfo {
            name: "k".into(),
            params: vec![
                param("input", Dtype::F32, &[8, 16]),
                param("target", Dtype::F32, &[8, 16]),
                param("signal", Dtype::I32, &[2, 3]),
                param("send_counts", Dtype::I32, &[2]),
                param("recv_counts", Dtype::I32, &[2, 1]),
                param("index", index, shape),
            ],
            collectives: vec![Collective {
                kind: CollectiveKind::IndexedAllToAllV,
                mode: AllReduceMode::Mesh,
                origin: ModeOrigin::Written,
                rail: Rail::Builtin,
                valid_shape: None,
                reduce: None,
                root: None,
                operands: (0..6).map(Some).collect(),
                shapes: Vec::new(),
                in_loop: None,
                in_branch: None,
                location: "k.mlir:1:1".into(),
            }],
            signals: vec![2],
            cells: vec![2, 4],
            other_writes: Vec::new(),
            called_collective: None,
        }
    }

    #[test]
    fn a_golden_it_cannot_compute_names_the_operand_at_fault() {
        let reason = |k: &KernelInfo| {
            let collective = &k.collectives[0];
            check_extents(k, collective, 2).unwrap_err()
        };
        assert_eq!(
            reason(&indexed(Dtype::F32, &[8])),
            "no golden: the index of pld.tensor_indexed_all_to_all_v (index) holds f32; the \
             kernel reads i32 row numbers"
        );
        assert_eq!(
            reason(&indexed(Dtype::I32, &[1])),
            "no golden: the index of pld.tensor_indexed_all_to_all_v (index) is [1]; it needs \
             at least 8 elements, one source row for each row of the target [8, 16]"
        );
        let k = indexed(Dtype::I32, &[2, 4]);
        assert!(check_extents(&k, &k.collectives[0], 2).is_ok());
        // Counts for 2 ranks, run on 3.
        assert_eq!(
            check_extents(&k, &k.collectives[0], 3).unwrap_err(),
            "no golden: the send_counts of pld.tensor_indexed_all_to_all_v (send_counts) is [2]; \
             on 3 ranks it needs a row per rank"
        );
    }

    #[test]
    fn copies_are_compared_bit_for_bit() {
        let k = kernel(CollectiveKind::Broadcast, None, Dtype::F32, &[1, 3]);
        // The root's NaNs (a payload, a negative one) and a -0.
        let root = bits32(&[0x7fc0_0001, 0xffc0_0000, 0x8000_0000]);
        let inputs = buffers(vec![root.clone(), f32s(&[1.0, 2.0, 3.0])]);
        let checks = check(&k, &inputs, &buffers(vec![root.clone(), root.clone()])).unwrap();
        assert!(checks.iter().all(|c| c.ok && c.worst == 0.0), "{checks:?}");
        assert_eq!(*checks[1].expected, root);
        // Another NaN, and +0 for -0, are other bits: wrong.
        let other = bits32(&[0x7fc0_0000, 0xffc0_0000, 0]);
        let checks = check(&k, &inputs, &buffers(vec![root.clone(), other])).unwrap();
        assert!(checks[0].ok);
        assert_eq!(checks[1].wrong, 2);
        let first = &checks[1].first_wrong[0];
        assert_eq!(
            (
                first.index,
                first.expected.to_string(),
                first.got.to_string()
            ),
            (0, "NaN (0x7fc00001)".into(), "NaN (0x7fc00000)".into())
        );
        assert_eq!(checks[1].first_wrong[1].got.to_string(), "0");
        assert_eq!(checks[1].first_wrong[1].tolerance, None);
    }

    #[test]
    fn float_sums_have_the_stated_tolerance_and_no_more() {
        let k = kernel(
            CollectiveKind::AllReduce,
            Some(ReduceOp::Sum),
            Dtype::F32,
            &[1, 4],
        );
        let inputs = buffers(vec![
            f32s(&[1.5, 1e30, 3.0e38, f32::NAN]),
            f32s(&[2.0, -1e30, 3.0e38, 1.0]),
        ]);
        // [3.5, 0, inf, NaN]: 1e30 - 1e30 is 0 in rank order; 6e38 is past
        // f32's largest.
        let golden = f32s(&[3.5, 0.0, f32::INFINITY, f32::NAN]);
        // Off by 2 ulps of the magnitude 2e30 at [1]: within 2 * 2^-23 * 2e30.
        let off = 2.0 * 2e30 / 8_388_608.0;
        let got = f32s(&[3.5, off as f32, f32::INFINITY, -f32::NAN]);
        let checks = check(&k, &inputs, &buffers(vec![got.clone(), golden.clone()])).unwrap();
        assert!(checks.iter().all(|c| c.ok), "{checks:?}");
        assert_eq!(*checks[0].expected, golden);
        // Overflow is not hidden: a finite result for an infinite golden,
        // or a result off by more than the tolerance, is wrong.
        let bad = f32s(&[3.5 + 1e-5, 0.0, f32::MAX, f32::NAN]);
        let checks = check(&k, &inputs, &buffers(vec![bad, golden])).unwrap();
        let wrong: Vec<(usize, String, Option<f64>)> = checks[0]
            .first_wrong
            .iter()
            .map(|w| (w.index, w.expected.to_string(), w.tolerance))
            .collect();
        // 2 ranks, magnitude 3.5: 2 * 3.5 / 2^23.
        let tolerance = 2.0 * 3.5 / 8_388_608.0;
        assert_eq!(
            wrong,
            [(0, "3.5".into(), Some(tolerance)), (2, "inf".into(), None)]
        );
        assert_eq!(checks[0].worst, f64::INFINITY);
    }

    #[test]
    fn each_rank_is_judged_by_its_schedules_order() {
        // f16 30000, 40000, -40000, 0 on 4 ranks, 64 elements: inf or 30000
        // by the order (docs/tools/pld-run.md, "Goldens and tolerance").
        let (big, inf) = ([0x53, 0x77], [0x00, 0x7c]);
        let data = |bits: [u8; 2]| bits.repeat(64);
        let inputs = buffers(vec![
            data(big),
            data([0xe2, 0x78]),
            data([0xe2, 0xf8]),
            data([0, 0]),
        ]);
        // Segments of 16: two-shot 2 finite, ring 0 and 1 finite.
        let segments = |finite: &[usize]| -> Vec<u8> {
            (0..4)
                .flat_map(|s| (if finite.contains(&s) { big } else { inf }).repeat(16))
                .collect()
        };
        let mesh: Vec<Vec<u8>> = (0..4)
            .map(|r| data(if r == 2 { big } else { inf }))
            .collect();
        let cases = [
            (AllReduceMode::Mesh, mesh),
            (AllReduceMode::TwoShot, vec![segments(&[2]); 4]),
            (AllReduceMode::Ring, vec![segments(&[0, 1]); 4]),
        ];
        for (mode, right) in cases {
            let mut k = kernel(CollectiveKind::AllReduce, None, Dtype::F16, &[1, 64]);
            k.collectives[0].mode = mode;
            let checks = check(&k, &inputs, &buffers(right.clone())).unwrap();
            assert!(checks.iter().all(|c| c.ok), "{mode:?}: {checks:?}");
            // Rank 1 holding rank 2's mesh result is wrong.
            let mut wrong = right.clone();
            wrong[1] = right[2].clone();
            if wrong[1] != right[1] {
                let checks = check(&k, &inputs, &buffers(wrong)).unwrap();
                let bad: Vec<usize> = checks.iter().filter(|c| !c.ok).map(|c| c.rank).collect();
                assert_eq!(bad, [1], "{mode:?}");
            }
        }
    }

    #[test]
    fn integer_and_half_folds_are_the_devices() {
        // reduce_scatter [4, 2] on 4 ranks: row r of rank r is the fold.
        let k = kernel(
            CollectiveKind::ReduceScatter,
            Some(ReduceOp::Sum),
            Dtype::I8,
            &[4, 2],
        );
        let inputs = buffers(vec![vec![100; 8]; 4]);
        let mut outputs = vec![vec![100u8; 8]; 4];
        for (r, out) in outputs.iter_mut().enumerate() {
            out[2 * r..2 * r + 2].fill(0x90); // -112
        }
        let checks = check(&k, &inputs, &buffers(outputs.clone())).unwrap();
        assert!(checks.iter().all(|c| c.ok), "{checks:?}");
        assert_eq!(*checks[3].expected, outputs[3]);
        // A saturating device (127) is wrong, and said so in i8.
        outputs[1][2] = 127;
        let checks = check(&k, &inputs, &buffers(outputs)).unwrap();
        let w = &checks[1].first_wrong[0];
        assert_eq!(
            (w.index, w.expected.to_string(), w.got.to_string()),
            (2, "-112".into(), "127".into())
        );
        // f16 max of NaN and 1 is NaN, of 60000 and -inf 60000.
        let k = kernel(
            CollectiveKind::AllReduce,
            Some(ReduceOp::Max),
            Dtype::F16,
            &[1, 2],
        );
        let inputs = buffers(vec![
            vec![0x00, 0x7e, 0x53, 0x7b],
            vec![0x00, 0x3c, 0x00, 0xfc],
        ]);
        let outputs = buffers(vec![vec![0x01, 0x7e, 0x53, 0x7b]; 2]);
        let checks = check(&k, &inputs, &outputs).unwrap();
        assert!(checks.iter().all(|c| c.ok), "{checks:?}");
    }
}
