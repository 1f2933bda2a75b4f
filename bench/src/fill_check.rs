//! `fill-check`: how fast `pld-run` fills the inputs of a 64 MiB FP32
//! allreduce (the default `ramp`) and checks its result (`--check`), on 4
//! and 8 simulated ranks: the `fill` and `check` phases of `--stats`.
//!
//! The anchors are measured in the same run, in this process, on one
//! thread: writing the same bytes into fresh memory (for the fill), and
//! copying every rank's result into fresh memory and comparing it with one
//! golden (for the check: `pld-run` reads the windows back and compares
//! them with the golden). Both are memory speed; a ratio near or below 1
//! means `pld-run` fills and checks at memory speed too. Each of the
//! `min(--runs, 5)` `pld-run` processes is one sample; the table shows the
//! medians.

use std::hint::black_box;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use crate::harness::{display_path, format_duration, parse_duration, pld_binary, Config, Result};

/// Elements of the allreduce (64 MiB of f32).
const ELEMENTS: usize = 16 * 1024 * 1024;
const BYTES: usize = ELEMENTS * 4;
const RANKS: [usize; 2] = [4, 8];

/// The phase `name` of `--stats`'s `phases: lower 1.2ms, ..., fill 3.4ms,
/// ...` line.
fn phase(stdout: &str, name: &str) -> Option<Duration> {
    let line = stdout.lines().find(|l| l.contains("phases:"))?;
    let rest = line.split(&format!(" {name} ")).nth(1)?;
    parse_duration(rest.split([',', ' ']).next()?)
}

/// One `pld-run --check --stats` of the allreduce: its fill and check
/// phases.
fn run_once(pld_run: &Path, kernel: &Path, ranks: usize) -> Result<(Duration, Duration)> {
    let output = Command::new(pld_run)
        .arg(kernel)
        .args(["--ranks", &ranks.to_string(), "--check", "--stats"])
        .args(["--deadline", "60"])
        .output()
        .map_err(|e| format!("cannot run pld-run: {e}"))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    if !output.status.success() {
        return Err(format!(
            "pld-run failed on P={ranks}: {stdout}{}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    let fill = phase(&stdout, "fill");
    let check = phase(&stdout, "check");
    fill.zip(check)
        .ok_or_else(|| format!("no fill and check phases in pld-run's output:\n{stdout}"))
}

/// Writing `ranks` buffers of `BYTES` into fresh memory.
fn anchor_fill(ranks: usize) -> Duration {
    let started = Instant::now();
    let buffers: Vec<Vec<u8>> = (0..ranks).map(|r| vec![r as u8 + 1; BYTES]).collect();
    let elapsed = started.elapsed();
    black_box(&buffers);
    elapsed
}

/// Copying `ranks` results of `BYTES` into fresh memory and comparing each
/// with one golden.
fn anchor_check(ranks: usize) -> Duration {
    let results: Vec<Vec<u8>> = (0..ranks).map(|_| vec![7u8; BYTES]).collect();
    let golden = vec![7u8; BYTES];
    let started = Instant::now();
    let copies: Vec<Vec<u8>> = black_box(&results).to_vec();
    let equal = copies.iter().all(|c| *c == golden);
    let elapsed = started.elapsed();
    black_box(equal);
    elapsed
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort_unstable();
    samples[samples.len() / 2]
}

pub fn run(config: Config) -> Result {
    let pld_run = pld_binary("pld-run")?;
    println!("  pld-run: {}", display_path(&pld_run));
    let dir = std::env::temp_dir().join(format!("pld-bench-fill-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let result = measure(config, &pld_run, &dir);
    let _ = std::fs::remove_dir_all(&dir);
    result
}

fn measure(config: Config, pld_run: &Path, dir: &Path) -> Result {
    let samples = config.runs.clamp(1, 5);
    println!(
        "  median of {samples} pld-run processes per case; anchors: fresh memory written, and \
         copied and compared, on one thread in this process"
    );
    println!();
    println!(
        "  {:>2} {:>10} {:>10} {:>10} {:>7} {:>10} {:>10} {:>7}",
        "P", "inputs", "fill", "anchor", "ratio", "check", "anchor", "ratio"
    );
    for ranks in RANKS {
        let data = format!("tensor<1x{ELEMENTS}xf32, #pld.dist>");
        let signal = format!("tensor<{ranks}x1xi32, #pld.dist>");
        let source = format!(
            "func.func @allreduce(%d: {data}, %s: {signal}) attributes {{pld.kind = \
             #pld.func_kind<\"incore\">}} {{\n  %r = \"pld.tensor_allreduce\"(%d, %s) {{op = \
             #pld.reduce_op<\"sum\">}} : ({data}, {signal}) -> {data}\n  return\n}}\n"
        );
        let kernel = dir.join(format!("allreduce_{ranks}.mlir"));
        std::fs::write(&kernel, source).map_err(|e| format!("cannot write: {e}"))?;
        let (mut fills, mut checks, mut fill_anchors, mut check_anchors) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for _ in 0..samples {
            let (fill, check) = run_once(pld_run, &kernel, ranks)?;
            fills.push(fill);
            checks.push(check);
            fill_anchors.push(anchor_fill(ranks));
            check_anchors.push(anchor_check(ranks));
        }
        let (fill, check) = (median(fills), median(checks));
        let (fill_anchor, check_anchor) = (median(fill_anchors), median(check_anchors));
        println!(
            "  {ranks:>2} {:>6} MiB {:>10} {:>10} {:>6.2}x {:>10} {:>10} {:>6.2}x",
            (ranks * BYTES) >> 20,
            format_duration(fill),
            format_duration(fill_anchor),
            fill.as_secs_f64() / fill_anchor.as_secs_f64(),
            format_duration(check),
            format_duration(check_anchor),
            check.as_secs_f64() / check_anchor.as_secs_f64(),
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_phases_of_pld_run() {
        let stdout =
            "  phases: lower 32.8ms, compile 46.6ms, fill 4.4ms, run 1.3ms (mean), check 1.2s\n";
        assert_eq!(phase(stdout, "fill"), Some(Duration::from_micros(4400)));
        assert_eq!(phase(stdout, "check"), Some(Duration::from_millis(1200)));
        assert_eq!(phase(stdout, "plan"), None);
    }
}
