//! Shared benchmark machinery: run configuration, timing, statistics, the
//! results table, and locating the binaries under test.
//!
//! Benchmarks never compare against absolute thresholds: every report is a
//! set of measurements next to a baseline measured in the same run, and the
//! printed ratio (`median / baseline median`) is the result.

use std::env;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Errors are human-readable messages; `main` prints them and exits non-zero.
pub type Result<T = ()> = std::result::Result<T, String>;

/// Directory of the LLVM 22 tools when `LLVM_BIN_DIR` is not set.
const DEFAULT_LLVM_BIN_DIR: &str = "/usr/lib/llvm-22/bin";

/// How many times each measurement is repeated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// Timed runs per measurement.
    pub runs: usize,
    /// Untimed runs before the timed ones (page cache, CPU frequency, ...).
    pub warmup: usize,
    /// `pld-run --transport` of the benchmarks that run pld-run on ranks
    /// (`allreduce`): `threads`, or `mpi` / `mpi-rma` under `mpirun`.
    pub transport: &'static str,
    /// A smaller sweep (`--quick`), where a benchmark has one.
    pub quick: bool,
    /// Timed runs inside one `pld-run` process (`pld-run --iters`), for the
    /// benchmarks that time a kernel that way (`algorithms`, `calibrate`).
    pub iters: usize,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            runs: 20,
            warmup: 3,
            transport: "threads",
            quick: false,
            iters: 200,
        }
    }
}

/// Summary statistics of a set of timings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stats {
    pub runs: usize,
    pub min: Duration,
    pub median: Duration,
    pub mean: Duration,
    /// Sample standard deviation (n - 1 denominator); zero for a single run.
    pub stddev: Duration,
}

impl Stats {
    /// Statistics of `samples`, or `None` if there are none.
    pub fn from_samples(samples: &[Duration]) -> Option<Self> {
        let mut sorted = samples.to_vec();
        sorted.sort_unstable();
        let n = sorted.len();
        let min = *sorted.first()?;
        let median = if n % 2 == 1 {
            sorted[n / 2]
        } else {
            (sorted[n / 2 - 1] + sorted[n / 2]) / 2
        };
        let secs: Vec<f64> = sorted.iter().map(Duration::as_secs_f64).collect();
        let mean = secs.iter().sum::<f64>() / n as f64;
        let variance = if n > 1 {
            secs.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (n - 1) as f64
        } else {
            0.0
        };
        Some(Self {
            runs: n,
            min,
            median,
            mean: Duration::from_secs_f64(mean),
            stddev: Duration::from_secs_f64(variance.sqrt()),
        })
    }

    /// Ratio of this median to `baseline`'s median.
    pub fn ratio_to(&self, baseline: &Stats) -> f64 {
        self.median.as_secs_f64() / baseline.median.as_secs_f64()
    }
}

/// Times `f` `config.runs` times after `config.warmup` untimed calls.
/// The first error returned by `f` aborts the measurement.
pub fn time_fn(config: Config, mut f: impl FnMut() -> Result) -> Result<Stats> {
    for _ in 0..config.warmup {
        f()?;
    }
    let mut samples = Vec::with_capacity(config.runs);
    for _ in 0..config.runs {
        let start = Instant::now();
        f()?;
        samples.push(start.elapsed());
    }
    Stats::from_samples(&samples).ok_or_else(|| "no timed runs (--runs must be >= 1)".into())
}

/// Times `command` (wall clock, including process start-up) with its standard
/// streams detached. Every run must exit successfully.
pub fn time_command(config: Config, command: &mut Command) -> Result<Stats> {
    command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    time_fn(config, || {
        let status = command
            .status()
            .map_err(|e| format!("cannot run {}: {e}", display_command(command)))?;
        if status.success() {
            Ok(())
        } else {
            Err(format!("{} failed ({status})", display_command(command)))
        }
    })
}

/// Runs `command` once and fails with its standard error if it does not exit
/// successfully. Call it before timing so a broken setup is reported clearly
/// instead of being measured.
pub fn check_command(command: &mut Command) -> Result {
    let output = command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| format!("cannot run {}: {e}", display_command(command)))?;
    if output.status.success() {
        return Ok(());
    }
    let stderr = String::from_utf8_lossy(&output.stderr);
    Err(format!(
        "check run failed, not timing it: {} ({})\n{}",
        display_command(command),
        output.status,
        stderr.trim_end()
    ))
}

/// `program arg1 arg2 ...`, for messages.
pub fn display_command(command: &Command) -> String {
    std::iter::once(command.get_program())
        .chain(command.get_args())
        .map(|s| s.to_string_lossy())
        .collect::<Vec<_>>()
        .join(" ")
}

/// One labelled result row.
#[derive(Clone, Debug)]
pub struct Measurement {
    pub label: String,
    pub stats: Stats,
}

impl Measurement {
    pub fn new(label: impl Into<String>, stats: Stats) -> Self {
        Self {
            label: label.into(),
            stats,
        }
    }
}

/// Measurements compared against a baseline measured in the same run.
#[derive(Clone, Debug)]
pub struct Report {
    pub title: String,
    pub baseline: Measurement,
    pub candidates: Vec<Measurement>,
}

impl Report {
    pub fn new(title: impl Into<String>, baseline: Measurement) -> Self {
        Self {
            title: title.into(),
            baseline,
            candidates: Vec::new(),
        }
    }

    pub fn add(&mut self, candidate: Measurement) -> &mut Self {
        self.candidates.push(candidate);
        self
    }

    /// Median ratio of the candidate labelled `label` to the baseline.
    pub fn ratio(&self, label: &str) -> Option<f64> {
        self.candidates
            .iter()
            .find(|c| c.label == label)
            .map(|c| c.stats.ratio_to(&self.baseline.stats))
    }

    /// Prints the results table: one row per measurement, baseline first,
    /// with each median's ratio to the baseline median.
    pub fn print(&self) {
        let rows: Vec<(String, &Stats)> = std::iter::once((
            format!("{} (baseline)", self.baseline.label),
            &self.baseline.stats,
        ))
        .chain(self.candidates.iter().map(|c| (c.label.clone(), &c.stats)))
        .collect();
        let width = rows
            .iter()
            .map(|(label, _)| label.len())
            .max()
            .unwrap_or(0)
            .max("measurement".len());
        println!("{}", self.title);
        println!(
            "  {:<width$}  {:>10}  {:>10}  {:>10}  {:>10}  {:>8}",
            "measurement", "min", "median", "mean", "stddev", "ratio"
        );
        for (label, stats) in rows {
            println!(
                "  {:<width$}  {:>10}  {:>10}  {:>10}  {:>10}  {:>7.2}x",
                label,
                format_duration(stats.min),
                format_duration(stats.median),
                format_duration(stats.mean),
                format_duration(stats.stddev),
                stats.ratio_to(&self.baseline.stats),
            );
        }
    }
}

/// A duration as the tools print it (Rust's `{:.1?}`: `2.1ms`, `1.5s`,
/// `850.0µs`), the inverse of what `pld-run` writes; `None` otherwise.
pub fn parse_duration(text: &str) -> Option<Duration> {
    let split = text.find(|c: char| !(c.is_ascii_digit() || c == '.'))?;
    let (number, unit) = text.split_at(split);
    let value: f64 = number.parse().ok()?;
    let seconds = match unit {
        "s" => value,
        "ms" => value / 1e3,
        "µs" | "us" => value / 1e6,
        "ns" => value / 1e9,
        _ => return None,
    };
    Some(Duration::from_secs_f64(seconds))
}

/// `d` with three significant-ish digits in a unit that suits it.
/// "1 run", "5 runs".
pub fn runs(n: usize) -> String {
    match n {
        1 => "1 run".to_string(),
        _ => format!("{n} runs"),
    }
}

pub fn format_duration(d: Duration) -> String {
    let secs = d.as_secs_f64();
    if secs >= 1.0 {
        format!("{secs:.3} s")
    } else if secs >= 1e-3 {
        format!("{:.2} ms", secs * 1e3)
    } else if secs >= 1e-6 {
        format!("{:.2} us", secs * 1e6)
    } else {
        format!("{} ns", d.as_nanos())
    }
}

/// Reading of a `candidate / baseline` ratio, to be followed by the
/// baseline's name: `"1.35x, 35% slower than"`, `"0.50x, 50% faster than"`,
/// or `"1.02x, on par (within 5%) with"`.
pub fn describe_ratio(ratio: f64) -> String {
    let percent = (ratio - 1.0) * 100.0;
    if percent.abs() < 5.0 {
        format!("{ratio:.2}x, on par (within 5%) with")
    } else if percent > 0.0 {
        format!("{ratio:.2}x, {percent:.0}% slower than")
    } else {
        format!("{ratio:.2}x, {:.0}% faster than", -percent)
    }
}

/// Root of the Cargo workspace this crate belongs to.
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("bench/ has a parent directory")
        .to_path_buf()
}

/// `relative` resolved against the workspace root.
pub fn workspace_path(relative: impl AsRef<Path>) -> PathBuf {
    workspace_root().join(relative)
}

/// A binary built by this workspace: `$PLD_BIN_DIR/<name>` if that variable
/// is set, else `<target>/release/<name>`, else `<target>/debug/<name>`,
/// where `<target>` is `$CARGO_TARGET_DIR` or `<workspace>/target`.
pub fn pld_binary(name: &str) -> Result<PathBuf> {
    if let Some(dir) = env::var_os("PLD_BIN_DIR") {
        return existing(Path::new(&dir).join(name), "PLD_BIN_DIR");
    }
    let target = env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_path("target"));
    let candidates = ["release", "debug"].map(|profile| target.join(profile).join(name));
    candidates
        .iter()
        .find(|path| path.is_file())
        .cloned()
        .ok_or_else(|| {
            format!(
                "{name} not found (looked for {} and {}); build it with \
                 `cargo build --release -p pld-tools` or point PLD_BIN_DIR at it",
                candidates[0].display(),
                candidates[1].display()
            )
        })
}

/// A release build of a binary of this workspace: `$PLD_BIN_DIR/<name>` if
/// that variable is set (whatever its build), else
/// `<target>/release/<name>`; a debug build is not taken silently, for the
/// benchmarks whose numbers mean something only optimised (`algorithms`,
/// `calibrate`).
pub fn pld_release_binary(name: &str) -> Result<PathBuf> {
    if env::var_os("PLD_BIN_DIR").is_some() {
        return pld_binary(name);
    }
    let target = env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_path("target"));
    let path = target.join("release").join(name);
    if path.is_file() {
        Ok(path)
    } else {
        Err(format!(
            "{} not found: build it with `cargo build --release -p pld-tools`, or set \
             PLD_BIN_DIR to the directory of the build to measure",
            path.display()
        ))
    }
}

/// An LLVM/MLIR tool: `$LLVM_BIN_DIR/<name>`, default `/usr/lib/llvm-22/bin/<name>`.
pub fn llvm_tool(name: &str) -> Result<PathBuf> {
    match env::var_os("LLVM_BIN_DIR") {
        Some(dir) => existing(Path::new(&dir).join(name), "LLVM_BIN_DIR"),
        None => existing(Path::new(DEFAULT_LLVM_BIN_DIR).join(name), "LLVM_BIN_DIR"),
    }
}

fn existing(path: PathBuf, variable: &str) -> Result<PathBuf> {
    if path.is_file() {
        Ok(path)
    } else {
        Err(format!(
            "{} not found (set {variable} to the directory that contains it)",
            path.display()
        ))
    }
}

/// `path` as output shows it: relative to the directory the bench runs in
/// when it is inside it, else as it is.
pub fn display_path(path: &Path) -> String {
    // Relative to where the bench was started, when it is below it: a
    // path relative to anything else would name another file there.
    let here = std::env::current_dir().ok();
    here.as_deref()
        .and_then(|here| path.strip_prefix(here).ok())
        .unwrap_or(path)
        .display()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_as_pld_run_prints_them() {
        assert_eq!(parse_duration("2.1ms"), Some(Duration::from_micros(2100)));
        assert_eq!(parse_duration("1.5s"), Some(Duration::from_millis(1500)));
        assert_eq!(parse_duration("850.0µs"), Some(Duration::from_micros(850)));
        assert_eq!(parse_duration("fast"), None);
    }

    fn ms(values: &[u64]) -> Vec<Duration> {
        values.iter().copied().map(Duration::from_millis).collect()
    }

    fn assert_close(actual: Duration, expected_ms: f64) {
        let actual_ms = actual.as_secs_f64() * 1e3;
        assert!(
            (actual_ms - expected_ms).abs() < 1e-6,
            "expected {expected_ms} ms, got {actual_ms} ms"
        );
    }

    #[test]
    fn empty_samples_have_no_stats() {
        assert_eq!(Stats::from_samples(&[]), None);
    }

    #[test]
    fn single_sample() {
        let stats = Stats::from_samples(&ms(&[7])).unwrap();
        assert_eq!(stats.runs, 1);
        assert_eq!(stats.min, Duration::from_millis(7));
        assert_eq!(stats.median, Duration::from_millis(7));
        assert_close(stats.mean, 7.0);
        assert_eq!(stats.stddev, Duration::ZERO);
    }

    #[test]
    fn odd_count_median_is_middle_value() {
        let stats = Stats::from_samples(&ms(&[9, 1, 5, 3, 7])).unwrap();
        assert_eq!(stats.min, Duration::from_millis(1));
        assert_eq!(stats.median, Duration::from_millis(5));
        assert_close(stats.mean, 5.0);
        // Squared deviations 16+4+0+4+16 = 40, / (5 - 1) = 10.
        assert_close(stats.stddev, 10f64.sqrt());
    }

    #[test]
    fn even_count_median_averages_middle_values() {
        // Classic example: population stddev 2, sample stddev sqrt(32 / 7).
        let stats = Stats::from_samples(&ms(&[5, 2, 9, 4, 4, 7, 4, 5])).unwrap();
        assert_eq!(stats.runs, 8);
        assert_eq!(stats.min, Duration::from_millis(2));
        assert_eq!(stats.median, Duration::from_millis(9) / 2);
        assert_close(stats.mean, 5.0);
        assert_close(stats.stddev, (32.0f64 / 7.0).sqrt());
    }

    #[test]
    fn identical_samples_have_zero_stddev() {
        let stats = Stats::from_samples(&ms(&[3, 3, 3, 3])).unwrap();
        assert_eq!(stats.median, Duration::from_millis(3));
        assert_close(stats.stddev, 0.0);
    }

    #[test]
    fn ratio_compares_medians() {
        let baseline = Stats::from_samples(&ms(&[10, 10, 100])).unwrap();
        let candidate = Stats::from_samples(&ms(&[15, 15, 1])).unwrap();
        assert!((candidate.ratio_to(&baseline) - 1.5).abs() < 1e-12);
    }

    #[test]
    fn time_fn_counts_warmup_and_runs() {
        let mut calls = 0;
        let config = Config {
            runs: 4,
            warmup: 2,
            ..Config::default()
        };
        let stats = time_fn(config, || {
            calls += 1;
            Ok(())
        })
        .unwrap();
        assert_eq!(calls, 6);
        assert_eq!(stats.runs, 4);
    }

    #[test]
    fn time_fn_propagates_errors_and_rejects_zero_runs() {
        let config = Config {
            runs: 3,
            warmup: 0,
            ..Config::default()
        };
        assert_eq!(time_fn(config, || Err("boom".into())), Err("boom".into()));
        let config = Config {
            runs: 0,
            warmup: 1,
            ..Config::default()
        };
        assert!(time_fn(config, || Ok(())).is_err());
    }

    #[test]
    fn durations_are_formatted_in_a_fitting_unit() {
        assert_eq!(format_duration(Duration::from_nanos(750)), "750 ns");
        assert_eq!(format_duration(Duration::from_micros(12)), "12.00 us");
        assert_eq!(format_duration(Duration::from_micros(12_346)), "12.35 ms");
        assert_eq!(format_duration(Duration::from_millis(2_500)), "2.500 s");
    }

    #[test]
    fn ratios_are_described() {
        assert_eq!(describe_ratio(1.02), "1.02x, on par (within 5%) with");
        assert_eq!(describe_ratio(1.35), "1.35x, 35% slower than");
        assert_eq!(describe_ratio(0.5), "0.50x, 50% faster than");
    }
}
