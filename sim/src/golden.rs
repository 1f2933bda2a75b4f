//! The expected results of a kernel's collective, computed in Rust with
//! f64 accumulation, and the comparison with what the ranks produced.

use crate::program::{Dtype, KernelInfo};
use pld_dialect::ops::collective::{
    AllGather, AllReduce, AllToAll, AllToAllV, Broadcast, ReduceScatter,
};

/// How far a rank's result is from the golden.
#[derive(Clone, Debug, PartialEq)]
pub struct RankCheck {
    pub rank: usize,
    /// Largest |got - want| over the checked elements.
    pub worst: f64,
    /// The element where it occurs.
    pub at: usize,
    pub ok: bool,
}

/// The allowed error of one element: a rounding step of the dtype per rank
/// that contributed, relative to the magnitude of what was combined (so
/// that contributions that cancel out are not held to the tiny result).
fn tolerance(dtype: Dtype, ranks: usize, magnitude: f64) -> f64 {
    let ulp = match dtype {
        Dtype::F16 => 1.0 / 1024.0,
        Dtype::F32 => 1.0 / 8_388_608.0,
        Dtype::I32 => 0.0,
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
    let [collective] = kernel.collectives.as_slice() else {
        return Err(format!(
            "@{} has {} collectives; --check needs exactly one",
            kernel.name,
            kernel.collectives.len()
        ));
    };
    let target = collective
        .target
        .ok_or("the collective's target is not a parameter of the kernel")?;
    let param = &kernel.params[target];
    let ranks = inputs.len();
    let n = param.elements();
    let value = |rank: usize, i: usize| param.dtype.read(&inputs[rank][target], i);
    // What the golden combines, in magnitude, for the tolerance.
    let magnitude = |i: usize| -> f64 {
        match collective.reduce.as_deref() {
            Some("prod") => (0..ranks).map(|r| value(r, i).abs()).product(),
            Some(_) => (0..ranks).map(|r| value(r, i).abs()).sum(),
            // Copies are exact.
            None => 0.0,
        }
    };
    let golden: Box<dyn Fn(usize, usize) -> f64> = match collective.op.as_str() {
        AllReduce::NAME => {
            let op = collective.reduce.clone().unwrap_or_else(|| "sum".into());
            Box::new(move |_rank, i| {
                (1..ranks).fold(value(0, i), |acc, r| {
                    let v = value(r, i);
                    match op.as_str() {
                        "max" => acc.max(v),
                        "min" => acc.min(v),
                        "prod" => acc * v,
                        _ => acc + v,
                    }
                })
            })
        }
        Broadcast::NAME => {
            let root = collective.root.unwrap_or(0) as usize;
            if root >= ranks {
                return Err(format!(
                    "the broadcast's root {root} is not one of {ranks} ranks"
                ));
            }
            Box::new(move |_rank, i| value(root, i))
        }
        ReduceScatter::NAME => {
            // Row `me` becomes the sum of every rank's row `me`; the others
            // keep their values.
            let size = *param.shape.last().unwrap_or(&1);
            Box::new(move |rank, i| {
                if i / size == rank {
                    (0..ranks).map(|r| value(r, i)).sum()
                } else {
                    value(rank, i)
                }
            })
        }
        AllGather::NAME | AllToAll::NAME => {
            let source = collective
                .input
                .ok_or("the collective's input is not a parameter of the kernel")?;
            let input = &kernel.params[source];
            let size = *param.shape.last().unwrap_or(&1);
            let gather = collective.op == AllGather::NAME;
            Box::new(move |rank, i| {
                let (row, col) = (i / size, i % size);
                // allgather: row r is rank r's input row; all_to_all: row r
                // is row `rank` of rank r's input.
                let at = if gather { col } else { rank * size + col };
                input.dtype.read(&inputs[row][source], at)
            })
        }
        AllToAllV::NAME => {
            // Each sender `s` owns `capacity` rows of every receiver's
            // target; it fills the first clamp(count, 0, capacity) of them
            // with its input rows for that receiver, the rest keep their
            // values.
            let source = collective
                .input
                .ok_or("the collective's input is not a parameter of the kernel")?;
            let (send, _) = collective
                .counts
                .ok_or("the collective's counts are not parameters of the kernel")?;
            let input = &kernel.params[source];
            let size = *param.shape.last().unwrap_or(&1);
            let capacity = param.shape.first().copied().unwrap_or(0) / ranks.max(1);
            let counts = &kernel.params[send];
            Box::new(move |rank, i| {
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
            })
        }
        other => {
            return Err(format!(
                "no golden for {other} yet; --check knows allreduce, broadcast, reduce_scatter, \
                 allgather, all_to_all and all_to_all_v"
            ))
        }
    };
    Ok((0..ranks)
        .map(|rank| {
            let mut worst = 0.0f64;
            let mut at = 0;
            let mut ok = true;
            for i in 0..n {
                let want = golden(rank, i);
                let got = param.dtype.read(&outputs[rank][target], i);
                let error = if got == want { 0.0 } else { (got - want).abs() };
                if error > worst || error.is_nan() {
                    worst = error;
                    at = i;
                }
                ok &= close(got, want, tolerance(param.dtype, ranks, magnitude(i)));
            }
            // all_to_all_v also publishes what each sender sent.
            if let (Some((send, receive)), AllToAllV::NAME) =
                (collective.counts, collective.op.as_str())
            {
                let capacity = param.shape.first().copied().unwrap_or(0) / ranks.max(1);
                let (counts, published) = (&kernel.params[send], &kernel.params[receive]);
                for (sender, buffers) in inputs.iter().enumerate() {
                    let asked = counts.dtype.read(&buffers[send], rank) as i64;
                    let sent = asked.clamp(0, capacity as i64) as f64;
                    ok &= published.dtype.read(&outputs[rank][receive], sender) == sent;
                }
            }
            RankCheck {
                rank,
                worst,
                at,
                ok,
            }
        })
        .collect())
}
