//! The expected results of a kernel's collective, computed in Rust with
//! f64 accumulation, and the comparison with what the ranks produced.

use crate::program::{Dtype, KernelInfo};

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
            _ => (0..ranks).map(|r| value(r, i).abs()).sum(),
        }
    };
    let golden: Box<dyn Fn(usize, usize) -> f64> = match collective.op.as_str() {
        "pld.tensor_allreduce" => {
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
        other => {
            return Err(format!(
                "no golden for {other} yet; --check knows pld.tensor_allreduce"
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
            RankCheck {
                rank,
                worst,
                at,
                ok,
            }
        })
        .collect())
}
