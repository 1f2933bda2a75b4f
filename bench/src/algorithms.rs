//! `algorithms` and `calibrate`: the allreduce schedules on the simulator
//! against the cost model that picks among them (docs/algorithms.md).
//!
//! `algorithms` measures every schedule (mesh, two_shot, ring; an InCore
//! f32 sum through `pld-run`, its kernel time) for sizes 4 KiB to 256 MiB
//! per rank and P = 2, 4, 8, and asks `pld-opt` what the model predicts and
//! what `mode = "auto"` chooses (the `pld.auto_mode` record of
//! `pld-select-allreduce-modes`, with the file of `$PLD_COST_MODEL` when
//! set). Per point it prints the measured times, the predictions and their
//! error, the choice and its time over the best measured one; the summary
//! counts the predictions within 25 % and the choices within 10 %.
//!
//! `calibrate` measures the model's parameters on this machine with the
//! same kernels: alpha from a loop of 2001 barriers against one; the
//! overhead from the mesh and two-shot at 64 KiB, then beta and gamma from
//! them at 1 MiB and 16 MiB, on 2, 4 and 8 ranks, by least squares of the
//! relative error, the calls' terms
//! (barriers, bytes read, bytes reduced, contention) it reads back from
//! `pld-select-allreduce-modes` with unit models; `cores` (this machine's
//! CPUs) is kept when it fits better than no contention factor. It writes
//! the `[sim]` table to `$PLD_COST_MODEL` (default `pld-cost-model.toml`).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use crate::harness::{display_path, format_duration, parse_duration, pld_binary, Config, Result};

const MODES: [&str; 3] = ["mesh", "two_shot", "ring"];

/// The tools and a scratch directory.
struct Tools {
    run: PathBuf,
    opt: PathBuf,
    dir: PathBuf,
    model: Option<PathBuf>,
}

impl Tools {
    fn new(name: &str) -> Result<Tools> {
        let dir = std::env::temp_dir().join(format!("pld-bench-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        Ok(Tools {
            run: pld_binary("pld-run")?,
            opt: pld_binary("pld-opt")?,
            dir,
            model: std::env::var_os("PLD_COST_MODEL").map(PathBuf::from),
        })
    }

    fn write(&self, name: &str, text: &str) -> Result<PathBuf> {
        let path = self.dir.join(name);
        std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        Ok(path)
    }

    /// The best of `runs` `pld-run` invocations' kernel times (each one
    /// run after one warm-up run): on a loaded machine the minimum is the
    /// least disturbed.
    fn kernel_time(&self, path: &Path, ranks: usize, config: Config) -> Result<Duration> {
        let mut best: Option<Duration> = None;
        for _ in 0..config.runs {
            let time = self.kernel_time_once(path, ranks, config.warmup)?;
            best = Some(best.map_or(time, |b| b.min(time)));
        }
        best.ok_or_else(|| "no run".into())
    }

    fn kernel_time_once(&self, path: &Path, ranks: usize, warmup: usize) -> Result<Duration> {
        let output = Command::new(&self.run)
            .arg(path)
            .args(["--ranks", &ranks.to_string(), "--deadline", "600"])
            .args(["--warmup", &warmup.to_string()])
            .output()
            .map_err(|e| format!("cannot run pld-run: {e}"))?;
        let stdout = String::from_utf8_lossy(&output.stdout);
        if !output.status.success() {
            return Err(format!(
                "pld-run failed on {}: {stdout}{}",
                path.display(),
                String::from_utf8_lossy(&output.stderr)
            ));
        }
        stdout
            .lines()
            .find_map(|l| {
                let rest = l.split("(kernels ").nth(1)?;
                parse_duration(rest.split(')').next()?)
            })
            .ok_or_else(|| format!("no kernel time in pld-run's output:\n{stdout}"))
    }

    /// The `pld.auto_mode` record `pld-select-allreduce-modes` writes:
    /// the choice and each candidate's predicted time in microseconds.
    fn predict(&self, path: &Path) -> Result<(String, Vec<(String, f64)>)> {
        self.predict_with(path, self.model.as_deref())
    }

    fn predict_with(
        &self,
        path: &Path,
        model: Option<&Path>,
    ) -> Result<(String, Vec<(String, f64)>)> {
        let mut command = Command::new(&self.opt);
        command
            .arg(path)
            .arg("--pass-pipeline=builtin.module(pld-select-allreduce-modes)");
        if let Some(model) = model {
            command.arg(format!("--pld-cost-model={}", model.display()));
        }
        let output = command
            .output()
            .map_err(|e| format!("cannot run pld-opt: {e}"))?;
        let stdout = String::from_utf8_lossy(&output.stdout);
        let record = stdout
            .split("pld.auto_mode = {")
            .nth(1)
            .and_then(|r| r.split('}').next())
            .ok_or_else(|| {
                format!(
                    "no pld.auto_mode in pld-opt's output:\n{stdout}{}",
                    String::from_utf8_lossy(&output.stderr)
                )
            })?;
        let mut chosen = String::new();
        let mut times = Vec::new();
        for entry in record.split(", ") {
            let Some((key, value)) = entry.split_once(" = ") else {
                continue;
            };
            if key == "chosen" {
                chosen = value.trim_matches('"').to_string();
            } else if let Some(mode) = key.strip_suffix("_us") {
                let number = value.split(" : ").next().unwrap_or(value);
                times.push((
                    mode.to_string(),
                    number.parse().map_err(|_| format!("bad time `{value}`"))?,
                ));
            }
        }
        Ok((chosen, times))
    }
}

impl Drop for Tools {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// An InCore f32 sum over `elements` on `ranks` ranks in `mode` (a ring
/// signal for the ring, one cell per rank otherwise).
fn kernel(mode: &str, elements: usize, ranks: usize) -> String {
    let signal = if mode == "ring" {
        format!("tensor<{}x{ranks}xi32, #pld.dist>", 2 * (ranks - 1))
    } else {
        format!("tensor<{ranks}x1xi32, #pld.dist>")
    };
    let data = format!("tensor<1x{elements}xf32, #pld.dist>");
    format!(
        "func.func @k(%d: {data}, %s: {signal}) attributes {{pld.kind = #pld.func_kind<\"incore\">}} {{\n  \
         %r = \"pld.tensor_allreduce\"(%d, %s) {{op = #pld.reduce_op<\"sum\">, mode = \"{mode}\"}} : ({data}, {signal}) -> {data}\n  \
         return\n}}\n"
    )
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

/// The sweep: sizes per rank in bytes and rank counts.
fn sweep(quick: bool) -> (Vec<usize>, Vec<usize>) {
    if quick {
        (vec![4 << 10, 256 << 10, 16 << 20], vec![2, 4, 8])
    } else {
        (
            (0..9).map(|k| (4 << 10) << (2 * k)).collect(),
            vec![2, 4, 8],
        )
    }
}

/// One point of the sweep.
struct Point {
    bytes: usize,
    ranks: usize,
    measured: Vec<Duration>,
    predicted: Vec<f64>,
    chosen: String,
}

fn measure_point(tools: &Tools, config: Config, bytes: usize, ranks: usize) -> Result<Point> {
    let elements = bytes / 4;
    let mut measured = Vec::new();
    let mut predicted = Vec::new();
    let mut chosen = String::new();
    for mode in MODES {
        let path = tools.write(
            &format!("{mode}_{ranks}_{bytes}.mlir"),
            &kernel(mode, elements, ranks),
        )?;
        measured.push(tools.kernel_time(&path, ranks, config)?);
        // The ring's prediction comes from a ring-shaped signal, the other
        // two (and the choice) from a mesh-shaped one.
        if mode != "two_shot" {
            let auto = kernel(mode, elements, ranks)
                .replace(&format!("mode = \"{mode}\""), "mode = \"auto\"");
            let (choice, times) = tools.predict(&tools.write("auto.mlir", &auto)?)?;
            if mode == "mesh" {
                chosen = choice;
            }
            predicted.extend(times);
        }
    }
    let order = |m: &str| predicted.iter().find(|(k, _)| k == m).map(|(_, t)| *t);
    let predicted = MODES
        .iter()
        .map(|m| order(m).ok_or_else(|| format!("no prediction for {m}")))
        .collect::<Result<Vec<f64>>>()?;
    Ok(Point {
        bytes,
        ranks,
        measured,
        predicted,
        chosen,
    })
}

fn size(bytes: usize) -> String {
    if bytes >= 1 << 20 {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{} KiB", bytes >> 10)
    }
}

fn print_point(p: &Point) {
    let micros: Vec<f64> = p.measured.iter().map(|d| d.as_secs_f64() * 1e6).collect();
    let best = micros.iter().copied().fold(f64::INFINITY, f64::min);
    let chosen = MODES.iter().position(|m| *m == p.chosen).unwrap_or(0);
    let errors: Vec<String> = (0..3)
        .map(|i| format!("{:+4.0}%", (p.predicted[i] / micros[i] - 1.0) * 100.0))
        .collect();
    println!(
        "  {:>7} {:>2}  {:>10} {:>10} {:>10}  {:>10} {:>10} {:>10}  {} {} {}  {:<8} {:>5.2}",
        size(p.bytes),
        p.ranks,
        format_duration(p.measured[0]),
        format_duration(p.measured[1]),
        format_duration(p.measured[2]),
        format!("{:.0}us", p.predicted[0]),
        format!("{:.0}us", p.predicted[1]),
        format!("{:.0}us", p.predicted[2]),
        errors[0],
        errors[1],
        errors[2],
        p.chosen,
        micros[chosen] / best
    );
}

pub fn run(config: Config) -> Result {
    let tools = Tools::new("algorithms")?;
    println!(
        "  pld-run: {}; cost model: {}",
        display_path(&tools.run),
        tools
            .model
            .as_deref()
            .map_or("the built-in simulator defaults".into(), display_path)
    );
    let config = Config {
        runs: config.runs.clamp(1, 3),
        warmup: config.warmup.min(1),
        ..config
    };
    println!("  InCore f32 sum; kernel time, best of {} pld-run processes, each one run after {} warm-up; prediction error = predicted / measured - 1", config.runs, config.warmup);
    println!(
        "  {:>7} {:>2}  {:>10} {:>10} {:>10}  {:>10} {:>10} {:>10}  {:>5} {:>5} {:>5}  {:<8} {:>5}",
        "size",
        "P",
        "mesh",
        "two_shot",
        "ring",
        "pred mesh",
        "pred 2shot",
        "pred ring",
        "err m",
        "err 2",
        "err r",
        "auto",
        "/best"
    );
    let (sizes, ranks) = sweep(config.quick);
    let mut points = Vec::new();
    for &p in &ranks {
        for &bytes in &sizes {
            let point = measure_point(&tools, config, bytes, p)?;
            print_point(&point);
            points.push(point);
        }
    }
    summary(&points);
    Ok(())
}

fn summary(points: &[Point]) {
    let mut within = 0;
    let mut total = 0;
    let mut auto_ok = 0;
    for p in points {
        for i in 0..3 {
            let measured = p.measured[i].as_secs_f64() * 1e6;
            total += 1;
            if (p.predicted[i] / measured - 1.0).abs() <= 0.25 {
                within += 1;
            }
        }
        let micros: Vec<f64> = p.measured.iter().map(|d| d.as_secs_f64()).collect();
        let best = micros.iter().copied().fold(f64::INFINITY, f64::min);
        let chosen = MODES.iter().position(|m| *m == p.chosen).unwrap_or(0);
        if micros[chosen] <= 1.10 * best {
            auto_ok += 1;
        }
    }
    println!(
        "  predictions within 25%: {within} of {total}; auto within 10% of the best measured: {auto_ok} of {}",
        points.len()
    );
}

/// One measured call and the model's terms for it, read back from
/// `pld-select-allreduce-modes` with unit models (one parameter 1, the
/// others 0): so the counts are the compiler's, not a copy of them.
#[derive(Clone)]
struct Sample {
    seconds: f64,
    /// One of the 64 KiB calls, which fix the overhead.
    small: bool,
    /// Barriers, bytes read, bytes reduced, calls (each times the
    /// contention factor of the probe's `cores`).
    terms: [f64; 4],
}

/// The terms of `mode` at `bytes` on `ranks` under `cores` (None: no
/// contention factor).
fn terms(
    tools: &Tools,
    mode: &str,
    bytes: usize,
    ranks: usize,
    cores: Option<usize>,
) -> Result<[f64; 4]> {
    let auto =
        kernel(mode, bytes / 4, ranks).replace(&format!("mode = \"{mode}\""), "mode = \"auto\"");
    let path = tools.write("probe.mlir", &auto)?;
    let mut terms = [0.0; 4];
    for (i, term) in terms.iter_mut().enumerate() {
        let mut values = [0.0; 4];
        values[i] = 1.0;
        let cores = cores.map_or(String::new(), |c| format!("cores = {c}\n"));
        let text = format!(
            "[sim]\nalpha = {}\nbeta = {}\ngamma = {}\noverhead = {}\n{cores}",
            values[0], values[1], values[2], values[3]
        );
        let model = tools.write("unit.toml", &text)?;
        let (_, times) = tools.predict_with(&path, Some(&model))?;
        let key = if mode == "ring" { "ring" } else { mode };
        *term = times
            .iter()
            .find(|(m, _)| m == key)
            .map(|(_, t)| t * 1e-6)
            .ok_or_else(|| format!("no {mode} term"))?;
    }
    Ok(terms)
}

/// Weighted least squares (relative error) of `seconds = p . terms` over
/// the samples, for the parameters not fixed in `fixed`; a negative one is
/// fixed at 0 and the rest fitted again.
fn fit(samples: &[Sample], mut fixed: [Option<f64>; 4]) -> [f64; 4] {
    loop {
        let free: Vec<usize> = (0..4).filter(|i| fixed[*i].is_none()).collect();
        let n = free.len();
        let mut a = vec![vec![0.0; n + 1]; n];
        for s in samples {
            let w = 1.0 / (s.seconds * s.seconds);
            let rest: f64 = (0..4)
                .filter_map(|i| fixed[i].map(|v| v * s.terms[i]))
                .sum();
            let y = s.seconds - rest;
            for (r, &i) in free.iter().enumerate() {
                for (c, &j) in free.iter().enumerate() {
                    a[r][c] += w * s.terms[i] * s.terms[j];
                }
                a[r][n] += w * s.terms[i] * y;
            }
        }
        let solved = solve(a);
        match free
            .iter()
            .zip(&solved)
            .find(|(_, v)| **v < 0.0 || !v.is_finite())
        {
            Some((&i, _)) => fixed[i] = Some(0.0),
            None => {
                let mut out = [0.0; 4];
                for i in 0..4 {
                    out[i] = fixed[i].unwrap_or(0.0);
                }
                for (&i, v) in free.iter().zip(solved) {
                    out[i] = v;
                }
                return out;
            }
        }
    }
}

/// Gaussian elimination with partial pivoting on an augmented matrix.
fn solve(mut a: Vec<Vec<f64>>) -> Vec<f64> {
    let n = a.len();
    for col in 0..n {
        let pivot = (col..n)
            .max_by(|x, y| a[*x][col].abs().total_cmp(&a[*y][col].abs()))
            .unwrap_or(col);
        a.swap(col, pivot);
        let pivot_row = a[col].clone();
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
        x[row] = (a[row][n] - rest) / a[row][row];
    }
    x
}

/// The weighted residual of a fit: root mean square relative error.
fn residual(samples: &[Sample], p: &[f64; 4]) -> f64 {
    let sum: f64 = samples
        .iter()
        .map(|s| {
            let predicted: f64 = (0..4).map(|i| p[i] * s.terms[i]).sum();
            (predicted / s.seconds - 1.0).powi(2)
        })
        .sum();
    (sum / samples.len() as f64).sqrt()
}

/// `calibrate`: the `[sim]` table of this machine.
pub fn calibrate(config: Config) -> Result {
    let tools = Tools::new("calibrate")?;
    let config = Config {
        runs: config.runs.clamp(1, 5),
        warmup: config.warmup.clamp(1, 2),
        ..config
    };
    // Alpha: a loop of 2001 barriers against one, on 2 ranks.
    let time = |name: &str, text: String, ranks: usize| -> Result<f64> {
        let path = tools.write(name, &text)?;
        Ok(tools.kernel_time(&path, ranks, config)?.as_secs_f64())
    };
    let one = time("barrier1.mlir", barriers(1, 2), 2)?;
    let many = time("barrier2001.mlir", barriers(2001, 2), 2)?;
    let alpha = ((many - one) / 2000.0).max(0.0);
    println!(
        "  barriers on 2 ranks: 1 in {}, 2001 in {}",
        fmt(one),
        fmt(many)
    );
    // Beta, gamma, overhead: mesh and two-shot at three sizes on 2, 4, 8.
    let machine = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut measured = Vec::new();
    for ranks in [2, 4, 8] {
        for bytes in [64usize << 10, 1 << 20, 16 << 20] {
            for mode in ["mesh", "two_shot"] {
                let path = tools.write("sample.mlir", &kernel(mode, bytes / 4, ranks))?;
                let seconds = tools.kernel_time(&path, ranks, config)?.as_secs_f64();
                println!(
                    "  {mode:<8} {:>7} on {ranks}: {}",
                    size(bytes),
                    fmt(seconds)
                );
                measured.push((mode, bytes, ranks, seconds));
            }
        }
    }
    // With and without the contention factor of this machine's cores.
    let mut best: Option<(f64, [f64; 4], Option<usize>)> = None;
    for cores in [Some(machine), None] {
        let samples = measured
            .iter()
            .map(|&(mode, bytes, ranks, seconds)| {
                Ok(Sample {
                    seconds,
                    small: bytes <= 64 << 10,
                    terms: terms(&tools, mode, bytes, ranks, cores)?,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        // The overhead from the smallest calls, then beta and gamma from
        // the others (a joint fit lets the many small, noisy calls decide).
        let small: Vec<Sample> = samples.iter().filter(|s| s.small).cloned().collect();
        let large: Vec<Sample> = samples.iter().filter(|s| !s.small).cloned().collect();
        let overhead = fit(&small, [Some(alpha), Some(0.0), Some(0.0), None])[3];
        let p = fit(&large, [Some(alpha), None, None, Some(overhead)]);
        let r = residual(&samples, &p);
        println!(
            "  fit with cores = {}: rms relative error {:.0}%",
            cores.map_or("none".into(), |c| c.to_string()),
            r * 100.0
        );
        if best.as_ref().is_none_or(|b| r < b.0) {
            best = Some((r, p, cores));
        }
    }
    let (_, p, cores) = best.ok_or("no fit")?;
    write_model(p, cores)
}

fn write_model(p: [f64; 4], cores: Option<usize>) -> Result {
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let cores_line = cores.map_or(
        "# cores: left out (no contention factor fitted better)\n".to_string(),
        |c| format!("cores = {c}          # ranks that run at the same time\n"),
    );
    let text = format!(
        "# pld cost model (docs/algorithms.md), measured by `pld-bench calibrate`\n\
         # load average {}\n\
         [sim]\n\
         alpha = {:.3e}     # s per barrier\n\
         beta = {:.3e}      # s per byte read from a peer\n\
         gamma = {:.3e}     # s per byte reduced\n\
         overhead = {:.3e}  # s per call\n{cores_line}",
        load.split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" "),
        p[0],
        p[1],
        p[2],
        p[3]
    );
    let out = std::env::var_os("PLD_COST_MODEL")
        .map_or_else(|| PathBuf::from("pld-cost-model.toml"), PathBuf::from);
    std::fs::write(&out, &text).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    print!("{text}");
    println!("  written to {}", out.display());
    Ok(())
}

fn fmt(seconds: f64) -> String {
    format_duration(Duration::from_secs_f64(seconds))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fit recovers the parameters that made exact samples, and sets a
    /// parameter that would come out negative to 0.
    #[test]
    fn the_fit_recovers_known_parameters() {
        let truth = [1e-6, 2e-10, 5e-11, 1e-4];
        let sample = |terms: [f64; 4]| Sample {
            seconds: (0..4).map(|i| truth[i] * terms[i]).sum(),
            small: false,
            terms,
        };
        let samples: Vec<Sample> = [
            [2.0, 1e6, 1e6, 1.0],
            [3.0, 2e6, 1e6, 1.0],
            [1025.0, 3e7, 3e7, 2.0],
            [3.0, 5e7, 2.5e7, 4.0],
            [65.0, 1e5, 1e5, 1.0],
        ]
        .into_iter()
        .map(sample)
        .collect();
        let p = fit(&samples, [None, None, None, None]);
        for i in 0..4 {
            assert!((p[i] / truth[i] - 1.0).abs() < 1e-6, "{p:?}");
        }
        assert!(residual(&samples, &p) < 1e-9);
        // With gamma's terms against it, gamma is fixed at 0.
        let skewed: Vec<Sample> = samples
            .iter()
            .map(|s| Sample {
                seconds: s.seconds - 2.0 * truth[2] * s.terms[2],
                ..s.clone()
            })
            .collect();
        assert_eq!(fit(&skewed, [None, None, None, None])[2], 0.0);
    }
}
