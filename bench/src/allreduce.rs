//! `allreduce`: a 64 MiB FP32 allreduce, ring and mesh, on 2, 4 and 8
//! simulated ranks, through `pld-run --stats`.
//!
//! Reported per case, as nccl-tests defines them: the run time, algbw
//! (bytes / time) and busbw (algbw * 2(P-1)/P for an allreduce), each
//! divided by the machine's memcpy bandwidth measured in the same run; and
//! the remote bytes each rank read divided by the algorithm's bound (ring
//! 2(P-1)/P * bytes, mesh (P-1) * bytes), which is 1.00 when the kernel
//! moves exactly what its schedule needs.

use std::process::Command;
use std::time::{Duration, Instant};

use crate::harness::{display_path, pld_binary, Config, Result};

/// Elements of the allreduce (64 MiB of f32).
const ELEMENTS: usize = 16 * 1024 * 1024;
const BYTES: usize = ELEMENTS * 4;

/// The best of a few 64 MiB memcpys, in bytes per second.
fn memcpy_bandwidth(config: Config) -> f64 {
    let source = vec![1u8; BYTES];
    let mut target = vec![0u8; BYTES];
    let mut best = Duration::MAX;
    for _ in 0..config.runs.clamp(3, 10) {
        let started = Instant::now();
        target.copy_from_slice(std::hint::black_box(&source));
        best = best.min(started.elapsed());
        std::hint::black_box(&target);
    }
    BYTES as f64 / best.as_secs_f64()
}

/// `2.1ms`, `1.23s`, `850µs` (Rust's `{:.1?}` of a duration).
fn parse_duration(text: &str) -> Option<Duration> {
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

struct Measured {
    time: Duration,
    /// Remote bytes read, per rank.
    read: Vec<u64>,
}

fn run_case(
    pld_run: &std::path::Path,
    dir: &std::path::Path,
    mode: &str,
    ranks: usize,
) -> Result<Measured> {
    let (rows, cols, mode_attr) = if mode == "ring" {
        (2 * (ranks - 1), ranks, ", mode = \"ring\"")
    } else {
        (ranks, 1, "")
    };
    let data = format!("tensor<1x{ELEMENTS}xf32, #pld.dist>");
    let signal = format!("tensor<{rows}x{cols}xi32, #pld.dist>");
    let source = format!(
        "func.func @allreduce(%d: {data}, %s: {signal}) attributes {{pld.kind = #pld.func_kind<\"incore\">}} {{\n  \
         %r = \"pld.tensor_allreduce\"(%d, %s) {{op = #pld.reduce_op<\"sum\">{mode_attr}}} : ({data}, {signal}) -> {data}\n  \
         return\n}}\n"
    );
    let path = dir.join(format!("allreduce_{mode}_{ranks}.mlir"));
    std::fs::write(&path, source).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    let output = Command::new(pld_run)
        .arg(&path)
        .args(["--ranks", &ranks.to_string(), "--stats", "--deadline", "60"])
        .args(["--input", "arg0=ones"])
        .output()
        .map_err(|e| format!("cannot run pld-run: {e}"))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    if !output.status.success() {
        return Err(format!(
            "pld-run failed on {mode} P={ranks}: {}{}",
            stdout,
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    let time = stdout
        .lines()
        .find_map(|l| l.split("finished in ").nth(1))
        .and_then(|t| parse_duration(t.trim()))
        .ok_or_else(|| format!("no run time in pld-run's output:\n{stdout}"))?;
    // The --stats table: rank, notifies, waits, remote read, remote written.
    let read = stdout
        .lines()
        .filter_map(|l| {
            let fields: Vec<&str> = l.split_whitespace().collect();
            match fields.as_slice() {
                [rank, _, _, read, _] if rank.parse::<usize>().is_ok() => read.parse().ok(),
                _ => None,
            }
        })
        .collect();
    Ok(Measured { time, read })
}

pub fn run(config: Config) -> Result {
    let pld_run = pld_binary("pld-run")?;
    println!("  pld-run: {}", display_path(&pld_run));
    let dir = std::env::temp_dir().join(format!("pld-bench-allreduce-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let memcpy = memcpy_bandwidth(config);
    println!(
        "  baseline: memcpy of 64 MiB at {:.2} GB/s (best of the runs)",
        memcpy / 1e9
    );
    println!();
    println!(
        "  {:<5} {:>2}  {:>10}  {:>14}  {:>14}  {:>22}",
        "mode", "P", "time", "algbw/memcpy", "busbw/memcpy", "read per rank / bound"
    );
    for mode in ["ring", "mesh"] {
        for ranks in [2, 4, 8] {
            let measured = run_case(&pld_run, &dir, mode, ranks)?;
            let seconds = measured.time.as_secs_f64();
            let algbw = BYTES as f64 / seconds;
            let busbw = algbw * 2.0 * (ranks - 1) as f64 / ranks as f64;
            let bound = if mode == "ring" {
                2.0 * (ranks - 1) as f64 / ranks as f64 * BYTES as f64
            } else {
                (ranks - 1) as f64 * BYTES as f64
            };
            let worst = measured.read.iter().copied().max().unwrap_or(0) as f64;
            println!(
                "  {mode:<5} {ranks:>2}  {:>10}  {:>14.3}  {:>14.3}  {:>22.3}",
                crate::harness::format_duration(measured.time),
                algbw / memcpy,
                busbw / memcpy,
                worst / bound
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
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
}
