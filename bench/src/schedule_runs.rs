//! The allreduce kernels `algorithms` and `calibrate` time, and the tools
//! that time and predict them: the release `pld-run` (kernel times over
//! interleaved processes, [`Timing`]) and `pld-opt` (the cost model's
//! predictions and `mode = "auto"`'s choice), in one scratch directory.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use crate::harness::{
    display_path, format_duration, parse_duration, pld_release_binary, Config, Result,
};

/// The allreduce schedules, in the order the tables list them.
pub const MODES: [&str; 3] = ["mesh", "two_shot", "ring"];

/// The tools and a scratch directory.
pub struct Tools {
    run: PathBuf,
    opt: PathBuf,
    pub dir: PathBuf,
    pub model: Option<PathBuf>,
}

/// The kernel times of one `pld-run` process, in seconds: the quantiles
/// `pld-run --stats` prints (`kernel times: min ..., q1 ..., median ...,
/// q3 ..., max ... over N runs`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Timing {
    pub min: f64,
    pub q1: f64,
    pub median: f64,
    pub q3: f64,
    pub max: f64,
    pub runs: usize,
}

impl Timing {
    /// The line of `pld-run --stats`, if `stdout` has it.
    fn parse(stdout: &str) -> Option<Timing> {
        let line = stdout
            .lines()
            .find_map(|l| l.trim().strip_prefix("kernel times: "))?;
        let (values, runs) = line.split_once(" over ")?;
        let mut numbers = values.split(", ").map(|item| {
            let (_, value) = item.split_once(' ')?;
            parse_duration(value).map(|d| d.as_secs_f64())
        });
        let mut next = || numbers.next().flatten();
        Some(Timing {
            min: next()?,
            q1: next()?,
            median: next()?,
            q3: next()?,
            max: next()?,
            runs: runs.strip_suffix(" runs")?.parse().ok()?,
        })
    }

    /// The figure a point is measured by: the fastest run, the one the
    /// other jobs of the machine disturbed least.
    pub fn best(&self) -> f64 {
        self.min
    }

    /// The interquartile range over the median.
    pub fn spread(&self) -> f64 {
        (self.q3 - self.q1) / self.median
    }
}

/// Timed runs for a call of `bytes` per rank on `ranks` ranks: `iters`,
/// but no more than about 1 GiB of allreduced data per process (at least
/// 3 runs), so that the largest calls of the sweep fit the machine. Small
/// calls are cheap (a 4 KiB call takes about 0.1 ms), so their many runs
/// spread over enough time to meet a quiet moment of a loaded machine.
pub fn iterations(iters: usize, bytes: usize, ranks: usize) -> usize {
    let budget = 1usize << 30;
    (budget / (bytes * ranks).max(1)).clamp(iters.min(3), iters)
}

impl Tools {
    pub fn new(name: &str) -> Result<Tools> {
        let dir = std::env::temp_dir().join(format!("pld-bench-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        Ok(Tools {
            run: pld_release_binary("pld-run")?,
            opt: pld_release_binary("pld-opt")?,
            dir,
            model: std::env::var_os("PLD_COST_MODEL").map(PathBuf::from),
        })
    }

    /// The release `pld-run` the benchmark runs.
    pub fn pld_run(&self) -> &Path {
        &self.run
    }

    pub fn describe(&self) -> String {
        format!(
            "pld-run: {}; cost model: {}",
            display_path(&self.run),
            self.model
                .as_deref()
                .map_or("the built-in simulator defaults".into(), display_path)
        )
    }

    pub fn write(&self, name: &str, text: &str) -> Result<PathBuf> {
        let path = self.dir.join(name);
        std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        Ok(path)
    }

    /// One `pld-run` process: `iters` timed runs of the kernel after
    /// `warmup` untimed ones, its kernel times.
    pub fn kernel_times(
        &self,
        path: &Path,
        ranks: usize,
        iters: usize,
        warmup: usize,
    ) -> Result<Timing> {
        let output = Command::new(&self.run)
            .arg(path)
            .args(["--ranks", &ranks.to_string(), "--deadline", "600"])
            .args(["--iters", &iters.max(2).to_string()])
            .args(["--warmup", &warmup.to_string(), "--stats"])
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
        Timing::parse(&stdout)
            .ok_or_else(|| format!("no kernel times in pld-run's output:\n{stdout}"))
    }

    /// Each kernel of `paths` timed in `rounds` `pld-run` processes, taken
    /// in turn (the first kernel, the second, ..., then the first again), so
    /// that a disturbed minute of the machine or an unlucky process falls
    /// on every kernel alike; per kernel, the times of its process with
    /// the fastest run.
    pub fn interleaved_times(
        &self,
        paths: &[PathBuf],
        ranks: usize,
        iters: usize,
        warmup: usize,
        rounds: usize,
    ) -> Result<Vec<Timing>> {
        let mut best: Vec<Option<Timing>> = vec![None; paths.len()];
        for _ in 0..rounds.max(1) {
            for (path, best) in paths.iter().zip(&mut best) {
                let t = self.kernel_times(path, ranks, iters, warmup)?;
                if best.is_none_or(|b| t.best() < b.best()) {
                    *best = Some(t);
                }
            }
        }
        Ok(best.into_iter().flatten().collect())
    }

    /// The `pld.auto_mode` record `pld-select-allreduce-modes` writes with
    /// the sweep's model ([`Tools::model`]; `None`: the built-in defaults):
    /// the choice and each candidate's predicted time in microseconds.
    pub fn predict(&self, path: &Path) -> Result<(String, Vec<(String, f64)>)> {
        self.predict_with(path, self.model.as_deref())
    }

    /// [`Tools::predict`] with `model` (`None`: the built-in defaults).
    pub fn predict_with(
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
        if !output.status.success() {
            return Err(format!(
                "pld-opt failed: {}",
                String::from_utf8_lossy(&output.stderr).trim_end()
            ));
        }
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
        parse_record(record)
    }
}

/// `chosen = "mesh", mesh_ns = 1200 : i64, ...`: the choice and the times
/// (in microseconds).
fn parse_record(record: &str) -> Result<(String, Vec<(String, f64)>)> {
    let mut chosen = String::new();
    let mut times = Vec::new();
    for entry in record.split(", ") {
        let Some((key, value)) = entry.split_once(" = ") else {
            continue;
        };
        if key == "chosen" {
            chosen = value.trim_matches('"').to_string();
        } else if let Some(mode) = key.strip_suffix("_ns") {
            let number = value.split(" : ").next().unwrap_or(value);
            let nanos: i64 = number.parse().map_err(|_| format!("bad time `{value}`"))?;
            times.push((mode.to_string(), nanos as f64 / 1000.0));
        }
    }
    Ok((chosen, times))
}

impl Drop for Tools {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// An InCore f32 sum over `elements` on `ranks` ranks in `mode` (a ring
/// signal for the ring, one cell per rank otherwise).
pub fn kernel(mode: &str, elements: usize, ranks: usize) -> String {
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

/// [`kernel`] with `mode = "auto"`: what the compiler would choose for a
/// call with `mode`'s signal.
pub fn auto_kernel(mode: &str, elements: usize, ranks: usize) -> String {
    kernel(mode, elements, ranks).replace(&format!("mode = \"{mode}\""), "mode = \"auto\"")
}

/// `pld-run` processes per kernel for a call of `bytes` per rank
/// ([`Tools::interleaved_times`]): 3 up to 1 MiB, where a process costs
/// little and the fastest run of one process moved by up to 50 % from one
/// process to the next (the order of two schedules a few microseconds
/// apart flipped between two sweeps minutes apart), else 1.
pub fn rounds(bytes: usize) -> usize {
    if bytes <= 1 << 20 {
        3
    } else {
        1
    }
}

/// Warm-up runs for a call: `--warmup` (1 to 3), one for the large calls.
pub fn warmups(config: Config, bytes: usize, ranks: usize) -> usize {
    if bytes * ranks >= 64 << 20 {
        1
    } else {
        config.warmup.clamp(1, 3)
    }
}

pub fn size(bytes: usize) -> String {
    if bytes >= 1 << 20 {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{} KiB", bytes >> 10)
    }
}

pub fn fmt(seconds: f64) -> String {
    format_duration(Duration::from_secs_f64(seconds))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timings_as_pld_run_prints_them() {
        let out = "@k on 2 ranks: finished\n  phases: lower 1.0ms\n  kernel times: min 850.0µs, q1 900.0µs, median 1.0ms, q3 1.2ms, max 2.5s over 30 runs\n";
        let t = Timing::parse(out).unwrap();
        assert_eq!(t.runs, 30);
        assert!((t.min - 850e-6).abs() < 1e-12 && (t.max - 2.5).abs() < 1e-12);
        assert!((t.spread() - 0.3).abs() < 1e-9, "{t:?}");
        assert_eq!(Timing::parse("@k on 2 ranks: finished in 1.0ms"), None);
    }

    #[test]
    fn iterations_shrink_with_the_call() {
        assert_eq!(iterations(30, 4 << 10, 8), 30);
        assert_eq!(iterations(200, 1 << 20, 2), 200);
        assert_eq!(iterations(30, 16 << 20, 8), 8);
        assert_eq!(iterations(30, 256 << 20, 8), 3);
        assert_eq!(iterations(2, 256 << 20, 8), 2);
    }

    #[test]
    fn small_calls_take_three_processes() {
        assert_eq!(rounds(4 << 10), 3);
        assert_eq!(rounds(1 << 20), 3);
        assert_eq!(rounds(4 << 20), 1);
    }

    #[test]
    fn records_as_pld_opt_prints_them() {
        let (chosen, times) = parse_record(
            "chosen = \"two_shot\", mesh_ns = 3155700 : i64, two_shot_ns = 1582900 : i64",
        )
        .unwrap();
        assert_eq!(chosen, "two_shot");
        assert_eq!(
            times,
            vec![
                ("mesh".to_string(), 3155.7),
                ("two_shot".to_string(), 1582.9)
            ]
        );
    }
}
