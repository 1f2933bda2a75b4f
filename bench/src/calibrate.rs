//! `calibrate`: the cost model's parameters on this machine
//! (docs/algorithms.md), written as the `[sim]` table of `$PLD_COST_MODEL`
//! (default `pld-cost-model.toml`).
//!
//! It measures, with the kernels and the statistic of `algorithms` (the
//! minimum of `--iters` runs in one release `pld-run` process):
//!
//! - a loop of 1001 barriers against one barrier on 2, 4 and 8 ranks (the
//!   time of one barrier at each rank count);
//! - every schedule (mesh, two_shot, ring) at 4 KiB, 64 KiB, 1 MiB and
//!   16 MiB per rank on 2, 4 and 8 ranks, and at 64 MiB on 2 (windows that
//!   outgrow the cache);
//!
//! and fits every parameter at once by least squares of the relative error
//! with every parameter non-negative (the best fit over the subsets of
//! parameters left free, the rest 0). The calls' terms (barriers, bytes
//! read alone and shared, bytes reduced, tiles moved, bytes moved in the
//! rank's own window, calls, each times the
//! contention factor) are the compiler's: it reads them back from `pld-select-allreduce-modes` with unit models
//! (one parameter 1, the others 0). A barrier of the loop is counted as
//! the model counts one: `f * (alpha + alpha_peer * (P-1) * f)`. It fits
//! with `cores` = this machine's CPUs and without, each with `cache` =
//! none, 32 MiB and 64 MiB (beta_memory then counts the bytes read alone
//! by calls whose windows exceed it), and keeps the best fit.

use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::harness::{display_path, Config, Result};
use crate::schedule_runs::{
    auto_kernel, fmt, iterations, kernel, rounds, size, warmups, Timing, Tools, MODES,
};

/// The model's linear parameters, as the file names them.
const PARAMS: [&str; 9] = [
    "alpha",
    "alpha_peer",
    "beta",
    "beta_shared",
    "gamma",
    "overhead",
    "beta_memory",
    "delta",
    "beta_local",
];
const N: usize = PARAMS.len();
/// Where `delta` is in [`PARAMS`].
const DELTA: usize = 7;
/// Where `beta_local` is in [`PARAMS`].
const BETA_LOCAL: usize = 8;

/// One measurement and the model's terms for it.
#[derive(Clone, Debug)]
struct Sample {
    seconds: f64,
    terms: [f64; N],
}

/// What was measured, before the terms (which depend on `cores`).
enum Measured {
    /// One barrier of a loop on `ranks` ranks.
    Barrier { ranks: usize, seconds: f64 },
    /// One allreduce call.
    Call {
        mode: &'static str,
        bytes: usize,
        ranks: usize,
        seconds: f64,
    },
}

/// A kernel of `count` barriers on one `[ranks, 1]` signal, in a loop
/// that carries the signal (the rebind idiom).
fn barriers(count: usize, ranks: usize) -> String {
    let signal = format!("tensor<{ranks}x1xi32, #pld.dist>");
    format!(
        "func.func @k(%s: {signal}) attributes {{pld.kind = #pld.func_kind<\"incore\">}} {{\n  \
         %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n  \
         %n = arith.constant {count} : index\n  \
         %r = scf.for %i = %c0 to %n step %c1 iter_args(%x = %s) -> ({signal}) {{\n    \
         %b = \"pld.tensor_barrier\"(%x) : ({signal}) -> {signal}\n    scf.yield %b : {signal}\n  }}\n  \
         return\n}}\n"
    )
}

const RANKS: [usize; 3] = [2, 4, 8];
const SIZES: [usize; 4] = [4 << 10, 64 << 10, 1 << 20, 16 << 20];
/// A call whose windows (128 MiB) outgrow any cache of the machine.
const SPILLING: (usize, usize) = (64 << 20, 2);
/// The `cache` sizes tried (bytes of windows a call may have and still
/// read from the cache; `None`: no such limit).
const CACHES: [Option<usize>; 3] = [None, Some(32 << 20), Some(64 << 20)];

fn measure(tools: &Tools, config: Config) -> Result<Vec<Measured>> {
    let mut measured = Vec::new();
    let show = |what: String, t: &Timing| {
        println!(
            "  {what:<28} {:>10}  (median {}, iqr {:.0}%, {} runs)",
            fmt(t.best()),
            fmt(t.median),
            t.spread() * 100.0,
            t.runs
        )
    };
    for ranks in RANKS {
        let warmup = warmups(config, 4096, ranks);
        let paths = [
            tools.write("barrier1.mlir", &barriers(1, ranks))?,
            tools.write("barrier1001.mlir", &barriers(1001, ranks))?,
        ];
        let times = tools.interleaved_times(&paths, ranks, config.iters, warmup, rounds(4096))?;
        let [one, many] = [times[0], times[1]];
        show(format!("1 barrier on {ranks}"), &one);
        show(format!("1001 barriers on {ranks}"), &many);
        let seconds = (many.best() - one.best()) / 1000.0;
        if seconds > 0.0 {
            measured.push(Measured::Barrier { ranks, seconds });
        }
    }
    let calls = RANKS
        .iter()
        .flat_map(|&ranks| SIZES.iter().map(move |&bytes| (bytes, ranks)))
        .chain([SPILLING]);
    for (bytes, ranks) in calls {
        let modes = MODES;
        let paths = modes
            .iter()
            .map(|mode| tools.write(&format!("{mode}.mlir"), &kernel(mode, bytes / 4, ranks)))
            .collect::<Result<Vec<_>>>()?;
        let iters = iterations(config.iters, bytes, ranks);
        let warmup = warmups(config, bytes, ranks);
        let times = tools.interleaved_times(&paths, ranks, iters, warmup, rounds(bytes))?;
        for (mode, t) in modes.into_iter().zip(times) {
            show(format!("{mode} {} on {ranks}", size(bytes)), &t);
            measured.push(Measured::Call {
                mode,
                bytes,
                ranks,
                seconds: t.best(),
            });
        }
    }
    Ok(measured)
}

/// The two sizes a fit is made for: `cores` and `cache`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Variant {
    cores: Option<usize>,
    cache: Option<usize>,
}

/// A model file with `values` for the parameters and the variant's sizes.
fn model_text(values: &[f64; N], variant: Variant) -> String {
    let mut text = String::from("[sim]\n");
    for (name, value) in PARAMS.iter().zip(values) {
        text.push_str(&format!("{name} = {value:e}\n"));
    }
    if let Some(cores) = variant.cores {
        text.push_str(&format!("cores = {cores}\n"));
    }
    if let Some(cache) = variant.cache {
        text.push_str(&format!("cache = {cache}\n"));
    }
    text
}

/// The terms of one allreduce call under `cores`, read back from the
/// compiler with unit models.
fn call_terms(
    tools: &Tools,
    mode: &str,
    bytes: usize,
    ranks: usize,
    variant: Variant,
) -> Result<[f64; N]> {
    let path = tools.write("probe.mlir", &auto_kernel(mode, bytes / 4, ranks))?;
    let mut terms = [0.0; N];
    for (i, term) in terms.iter_mut().enumerate() {
        let mut unit = [0.0; N];
        unit[i] = 1.0;
        let model = tools.write("unit.toml", &model_text(&unit, variant))?;
        let (_, times) = tools.predict_with(&path, Some(&model))?;
        *term = times
            .iter()
            .find(|(m, _)| m == mode)
            .map(|(_, t)| t * 1e-6)
            .ok_or_else(|| format!("no {mode} term"))?;
    }
    Ok(terms)
}

fn samples(tools: &Tools, measured: &[Measured], variant: Variant) -> Result<Vec<Sample>> {
    measured
        .iter()
        .map(|m| match *m {
            Measured::Barrier { ranks, seconds } => {
                let f = variant
                    .cores
                    .map_or(1.0, |c| (ranks as f64 / c as f64).max(1.0));
                let mut terms = [0.0; N];
                terms[0] = f;
                terms[1] = f * f * (ranks - 1) as f64;
                Ok(Sample { seconds, terms })
            }
            Measured::Call {
                mode,
                bytes,
                ranks,
                seconds,
            } => Ok(Sample {
                seconds,
                terms: call_terms(tools, mode, bytes, ranks, variant)?,
            }),
        })
        .collect()
}

/// Weighted least squares (relative error) of `seconds = p . terms` over
/// the samples with every parameter non-negative: the best of the
/// unconstrained fits over every subset of the parameters (the others
/// fixed at 0) that come out non-negative. The constrained optimum is one
/// of them (its positive parameters are the unconstrained fit on their
/// own), and with 2^9 subsets of at most 9 unknowns the search is
/// instant; so a parameter added to the model never makes the fit worse.
fn fit(samples: &[Sample]) -> [f64; N] {
    let mut best = ([0.0; N], f64::INFINITY);
    for subset in 1u32..(1 << N) {
        let free: Vec<usize> = (0..N).filter(|i| subset & (1 << i) != 0).collect();
        let Some(p) = fit_on(samples, &free) else {
            continue;
        };
        let error = squared_error(samples, &p);
        if error < best.1 {
            best = (p, error);
        }
    }
    best.0
}

/// The unconstrained weighted least squares over the `free` parameters
/// (the rest 0), or `None` when one comes out negative or not finite.
fn fit_on(samples: &[Sample], free: &[usize]) -> Option<[f64; N]> {
    let n = free.len();
    let mut a = vec![vec![0.0; n + 1]; n];
    for s in samples {
        let w = 1.0 / (s.seconds * s.seconds);
        for (r, &i) in free.iter().enumerate() {
            for (c, &j) in free.iter().enumerate() {
                a[r][c] += w * s.terms[i] * s.terms[j];
            }
            a[r][n] += w * s.terms[i] * s.seconds;
        }
    }
    let mut out = [0.0; N];
    for (&i, v) in free.iter().zip(solve(a)) {
        if v < 0.0 || !v.is_finite() {
            return None;
        }
        out[i] = v;
    }
    Some(out)
}

/// The sum of the squared relative errors of `p` over the samples.
fn squared_error(samples: &[Sample], p: &[f64; N]) -> f64 {
    samples
        .iter()
        .map(|s| {
            let predicted: f64 = (0..N).map(|i| p[i] * s.terms[i]).sum();
            (predicted / s.seconds - 1.0).powi(2)
        })
        .sum()
}

/// Gaussian elimination with partial pivoting on an augmented matrix; a
/// parameter without any term (a zero column) comes out 0.
fn solve(mut a: Vec<Vec<f64>>) -> Vec<f64> {
    let n = a.len();
    for col in 0..n {
        let pivot = (col..n)
            .max_by(|x, y| a[*x][col].abs().total_cmp(&a[*y][col].abs()))
            .unwrap_or(col);
        a.swap(col, pivot);
        let pivot_row = a[col].clone();
        if pivot_row[col] == 0.0 {
            continue;
        }
        for row in a.iter_mut().skip(col + 1) {
            let f = row[col] / pivot_row[col];
            for (value, above) in row.iter_mut().zip(&pivot_row).skip(col) {
                *value -= f * above;
            }
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let rest: f64 = (row + 1..n).map(|k| a[row][k] * x[k]).sum();
        x[row] = if a[row][row] == 0.0 {
            0.0
        } else {
            (a[row][n] - rest) / a[row][row]
        };
    }
    x
}

/// Root mean square relative error of a fit, and the largest.
fn residual(samples: &[Sample], p: &[f64; N]) -> (f64, f64) {
    let errors: Vec<f64> = samples
        .iter()
        .map(|s| {
            let predicted: f64 = (0..N).map(|i| p[i] * s.terms[i]).sum();
            predicted / s.seconds - 1.0
        })
        .collect();
    let rms = (errors.iter().map(|e| e * e).sum::<f64>() / errors.len() as f64).sqrt();
    (rms, errors.iter().fold(0.0f64, |m, e| m.max(e.abs())))
}

/// The rms relative error of the best fit with parameter `index` left
/// out (its terms zero): what that term adds to the model.
fn rms_without(samples: &[Sample], index: usize) -> f64 {
    let without: Vec<Sample> = samples
        .iter()
        .map(|s| {
            let mut terms = s.terms;
            terms[index] = 0.0;
            Sample {
                seconds: s.seconds,
                terms,
            }
        })
        .collect();
    residual(&without, &fit(&without)).0
}

/// `calibrate`: the `[sim]` table of this machine.
pub fn run(config: Config) -> Result {
    let tools = Tools::new("calibrate")?;
    let out = std::env::var_os("PLD_COST_MODEL")
        .map_or_else(|| PathBuf::from("pld-cost-model.toml"), PathBuf::from);
    calibrate(&tools, config, &out)
}

/// Measures this machine, fits the model and writes it to `out` (also
/// what `algorithms` runs first when it is given no model).
pub fn calibrate(tools: &Tools, config: Config, out: &Path) -> Result {
    let started = Instant::now();
    println!(
        "  pld-run: {}; the model is written to {}; the minimum of --iters {} runs per pld-run \
         process (fewer for large calls)",
        display_path(tools.pld_run()),
        display_path(out),
        config.iters
    );
    writable(out)?;
    let measured = measure(tools, config)?;
    let machine = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut best: Option<(f64, [f64; N], Variant)> = None;
    for cores in [Some(machine), None] {
        for cache in CACHES {
            let variant = Variant { cores, cache };
            // Each fit asks pld-opt for every measured call's terms: tens
            // of seconds on a loaded machine, so it says what it does.
            println!(
                "  fitting cores = {}, cache = {}: {} predictions through pld-opt ...",
                cores.map_or("none".into(), |c| c.to_string()),
                cache.map_or("none".into(), size),
                measured.len()
            );
            let samples = samples(tools, &measured, variant)?;
            let p = fit(&samples);
            let (rms, worst) = residual(&samples, &p);
            println!(
                "  fit with cores = {}, cache = {}: rms relative error {:.0}%, largest {:.0}% \
                 (without delta, the per-tile term: {:.0}%; without beta_local, the own \
                 window's bytes: {:.0}%)",
                cores.map_or("none".into(), |c| c.to_string()),
                cache.map_or("none".into(), size),
                rms * 100.0,
                worst * 100.0,
                rms_without(&samples, DELTA) * 100.0,
                rms_without(&samples, BETA_LOCAL) * 100.0
            );
            if best.as_ref().is_none_or(|b| rms < b.0) {
                best = Some((rms, p, variant));
            }
        }
    }
    let (rms, p, variant) = best.ok_or("no fit")?;
    println!(
        "  kept: cores = {}, cache = {} (rms relative error {:.0}%)",
        variant.cores.map_or("none".into(), |c| c.to_string()),
        variant.cache.map_or("none".into(), size),
        rms * 100.0
    );
    write_model(&p, variant, out)?;
    println!(
        "  calibration took {}",
        fmt(started.elapsed().as_secs_f64())
    );
    Ok(())
}

/// Whether the model can be written to `out`, asked before the minutes of
/// measuring: a file next to it is made and removed (an existing `out`
/// is left as it is until the model replaces it).
fn writable(out: &Path) -> Result {
    let refused = |e: std::io::Error| format!("cannot write the model to {}: {e}", out.display());
    if out.is_dir() {
        return Err(format!(
            "cannot write the model to {}: a directory",
            out.display()
        ));
    }
    if let Ok(metadata) = std::fs::metadata(out) {
        if metadata.permissions().readonly() {
            return Err(format!(
                "cannot write the model to {}: read-only",
                out.display()
            ));
        }
    }
    let mut probe = out.as_os_str().to_owned();
    probe.push(format!(".probe{}", std::process::id()));
    std::fs::write(&probe, b"").map_err(refused)?;
    std::fs::remove_file(&probe).map_err(refused)
}

/// Writes the model. It gives no `tie`: the compiler's default (1 %)
/// chose better over the recorded sweeps than half the fit's rms error,
/// which it once wrote (bench/README.md, "`algorithms` with `delta`").
fn write_model(p: &[f64; N], variant: Variant, out: &Path) -> Result {
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let load: Vec<&str> = load.split_whitespace().take(3).collect();
    let mut text = format!(
        "# pld cost model (docs/algorithms.md), measured by `pld-bench calibrate`\n\
         # load average {}\n[sim]\n",
        load.join(" ")
    );
    let units = [
        "s per barrier",
        "s per barrier and peer",
        "s per byte read from a peer",
        "s per byte read that other readers read in the same step",
        "s per byte reduced",
        "s per call",
        "s per byte read alone, on top of beta, when the windows exceed cache",
        "s per tile moved (a load, a remote load or a store)",
        "s per byte loaded from or stored to the rank's own window",
    ];
    for ((name, value), unit) in PARAMS.iter().zip(p).zip(units) {
        text.push_str(&format!("{name} = {value:.3e}  # {unit}\n"));
    }
    text.push_str(&variant.cores.map_or(
        "# cores: left out (no contention factor fitted better)\n".to_string(),
        |c| format!("cores = {c}  # ranks that run at the same time\n"),
    ));
    text.push_str(&variant.cache.map_or(
        "# cache: left out (no limit fitted better)\n".to_string(),
        |c| {
            format!(
                "cache = {c}  # bytes of windows a call may have and still read from the cache\n"
            )
        },
    ));
    text.push_str(
        "# tie: left out (the default, 1 %: predictions that close are a tie, the order mesh, two_shot, ring decides)\n",
    );
    std::fs::write(out, &text).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    print!("{text}");
    println!("  written to {}", out.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fit recovers the parameters that made exact samples, and sets a
    /// parameter that would come out negative to 0.
    #[test]
    fn the_fit_recovers_known_parameters() {
        let truth = [1e-6, 3e-7, 2e-10, 4e-11, 5e-11, 1e-4, 3e-10, 2e-7, 4e-11];
        let sample = |terms: [f64; N]| Sample {
            seconds: (0..N).map(|i| truth[i] * terms[i]).sum(),
            terms,
        };
        let samples: Vec<Sample> = [
            [2.0, 2.0, 1e6, 0.0, 1e6, 1.0, 0.0, 180.0, 2e6],
            [3.0, 9.0, 2e6, 0.0, 1e6, 1.0, 0.0, 610.0, 3e6],
            [1025.0, 7175.0, 3e7, 2e7, 3e7, 2.0, 1e7, 9000.0, 4e7],
            [3.0, 3.0, 5e7, 0.0, 2.5e7, 4.0, 5e7, 3300.0, 6e7],
            [65.0, 195.0, 1e5, 3e5, 1e5, 1.0, 0.0, 320.0, 2e5],
            [1.0, 7.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
            [1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
            [3.0, 2.0, 4e6, 0.0, 2e6, 1.0, 0.0, 40.0, 5e6],
            [3.0, 14.0, 7e3, 0.0, 3.5e3, 1.0, 0.0, 23.0, 1e4],
            [2.0, 2.0, 0.0, 0.0, 0.0, 1.0, 0.0, 10.0, 8e6],
        ]
        .into_iter()
        .map(sample)
        .collect();
        let p = fit(&samples);
        for i in 0..N {
            assert!((p[i] / truth[i] - 1.0).abs() < 1e-6, "{p:?}");
        }
        assert!(residual(&samples, &p).0 < 1e-9);
        // With gamma's terms against it, gamma is fixed at 0.
        let skewed: Vec<Sample> = samples
            .iter()
            .map(|s| Sample {
                seconds: s.seconds - 2.0 * truth[4] * s.terms[4],
                ..s.clone()
            })
            .collect();
        assert_eq!(fit(&skewed)[4], 0.0);
        // Without delta the exact samples are no longer fitted exactly.
        assert_eq!(PARAMS[DELTA], "delta");
        assert!(rms_without(&samples, DELTA) > 1e-3);
        assert_eq!(PARAMS[BETA_LOCAL], "beta_local");
        assert!(rms_without(&samples, BETA_LOCAL) > 1e-3);
    }

    /// A parameter more never makes the fit worse, whatever the data: on
    /// samples no non-negative model fits (noise, terms against each
    /// other), the fit with every parameter is at least as good as the fit
    /// without any one of them.
    #[test]
    fn a_parameter_more_never_fits_worse() {
        let mut state = 12345u64;
        let mut next = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        let samples: Vec<Sample> = (0..30)
            .map(|_| {
                let mut terms = [0.0; N];
                for t in terms.iter_mut() {
                    *t = if next() < 0.3 { 0.0 } else { next() * 1e3 };
                }
                Sample {
                    seconds: 1e-6 + next() * 1e-3,
                    terms,
                }
            })
            .collect();
        let all = residual(&samples, &fit(&samples)).0;
        for index in 0..N {
            assert!(all <= rms_without(&samples, index) + 1e-12, "{index}");
        }
        assert!(fit(&samples).iter().all(|p| *p >= 0.0));
    }

    /// The unit models are files the compiler reads: every parameter named.
    #[test]
    fn unit_models_name_every_parameter() {
        let variant = Variant {
            cores: Some(2),
            cache: Some(32 << 20),
        };
        let text = model_text(&[0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], variant);
        assert_eq!(
            text,
            "[sim]\nalpha = 0e0\nalpha_peer = 1e0\nbeta = 0e0\nbeta_shared = 0e0\ngamma = 0e0\noverhead = 0e0\nbeta_memory = 0e0\ndelta = 0e0\nbeta_local = 0e0\ncores = 2\ncache = 33554432\n"
        );
    }
}
