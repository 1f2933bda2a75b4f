//! `compile-scaling`: `pld-to-pto` on modules of N InCore mesh allreduce
//! kernels (4097 f32 each), N = 100, 300, 1000, 3000, against `mlir-opt`
//! parsing and printing the lowered module of N = 1000 in the same run.
//!
//! Prints the time per N, the ratio to `mlir-opt` at N = 1000 (goal: at
//! most 3) and the scaling exponent between N = 100 and N = 3000,
//! `log(t(3000) / t(100)) / log(30)` (goal: at most 1.1; 1 is linear).

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use crate::harness::{
    display_path, format_duration, llvm_tool, pld_binary, workspace_path, Config, Result,
};

const SIZES: [usize; 4] = [100, 300, 1000, 3000];
/// The module size the `mlir-opt` anchor parses and prints.
const ANCHOR: usize = 1000;

/// A module of `kernels` InCore kernels, each one mesh allreduce.
pub fn module(kernels: usize) -> String {
    let data = "tensor<1x4097xf32, #pld.dist>";
    let signal = "tensor<4x1xi32, #pld.dist>";
    (0..kernels)
        .map(|i| {
            format!(
                "func.func @k{i}(%d: {data}, %s: {signal}) attributes {{pld.kind = #pld.func_kind<\"incore\">}} {{\n  \
                 %r = \"pld.tensor_allreduce\"(%d, %s) {{op = #pld.reduce_op<\"sum\">}} : ({data}, {signal}) -> {data}\n  \
                 return\n}}\n"
            )
        })
        .collect()
}

/// The best wall-clock time of `runs` runs of a command that must succeed.
fn best(runs: usize, make: impl Fn() -> Command) -> Result<Duration> {
    let mut best = Duration::MAX;
    for _ in 0..runs {
        let mut command = make();
        let started = Instant::now();
        let output = command
            .output()
            .map_err(|e| format!("cannot run {command:?}: {e}"))?;
        let took = started.elapsed();
        if !output.status.success() {
            return Err(format!(
                "{command:?} failed: {}",
                String::from_utf8_lossy(&output.stderr)
            ));
        }
        best = best.min(took);
    }
    Ok(best)
}

/// `log(t_large / t_small) / log(n_large / n_small)`.
pub fn exponent(small: (usize, Duration), large: (usize, Duration)) -> f64 {
    (large.1.as_secs_f64() / small.1.as_secs_f64()).ln() / (large.0 as f64 / small.0 as f64).ln()
}

pub fn run(config: Config) -> Result {
    let pld_opt = pld_binary("pld-opt")?;
    let mlir_opt = llvm_tool("mlir-opt")?;
    let irdl = workspace_path("dialect/irdl/pto.irdl.mlir");
    println!("  pld-opt: {}", display_path(&pld_opt));
    println!("  mlir-opt: {}", display_path(&mlir_opt));
    let dir = std::env::temp_dir().join(format!("pld-bench-compile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let result = measure(config, &pld_opt, &mlir_opt, &irdl, &dir);
    let _ = std::fs::remove_dir_all(&dir);
    result
}

fn measure(config: Config, pld_opt: &Path, mlir_opt: &Path, irdl: &Path, dir: &Path) -> Result {
    let runs = config.runs.clamp(1, 3);
    println!("  best of {} each", crate::harness::runs(runs));
    println!();
    println!(
        "  {:>7}  {:>12}  {:>10}",
        "kernels", "pld-to-pto", "per kernel"
    );
    let mut times = Vec::new();
    for kernels in SIZES {
        let input = dir.join(format!("kernels_{kernels}.mlir"));
        let output = dir.join(format!("kernels_{kernels}.pto.mlir"));
        std::fs::write(&input, module(kernels)).map_err(|e| e.to_string())?;
        let time = best(runs, || {
            let mut command = Command::new(pld_opt);
            command
                .arg(&input)
                .arg("--pass-pipeline=builtin.module(pld-to-pto)")
                .arg("-o")
                .arg(&output);
            command
        })?;
        println!(
            "  {kernels:>7}  {:>12}  {:>10}",
            format_duration(time),
            format_duration(time / kernels as u32)
        );
        times.push((kernels, time));
    }
    let lowered = dir.join(format!("kernels_{ANCHOR}.pto.mlir"));
    let anchor = best(runs, || {
        let mut command = Command::new(mlir_opt);
        command
            .arg("--allow-unregistered-dialect")
            .arg(format!("--irdl-file={}", irdl.display()))
            .arg(&lowered)
            .arg("-o")
            .arg("/dev/null");
        command
    })?;
    let at_anchor = times
        .iter()
        .find(|(n, _)| *n == ANCHOR)
        .map(|(_, t)| *t)
        .ok_or("no anchor size")?;
    let ratio = at_anchor.as_secs_f64() / anchor.as_secs_f64();
    let (first, last) = (times[0], times[times.len() - 1]);
    let slope = exponent(first, last);
    println!();
    println!(
        "  anchor: mlir-opt parses and prints the {ANCHOR}-kernel output in {}",
        format_duration(anchor)
    );
    println!(
        "  pld-to-pto / mlir-opt at {ANCHOR} kernels: {ratio:.2} (goal <= 3: {})",
        if ratio <= 3.0 { "met" } else { "MISSED" }
    );
    println!(
        "  scaling exponent {}..{} kernels: {slope:.2} (goal <= 1.1: {})",
        first.0,
        last.0,
        if slope <= 1.1 { "met" } else { "MISSED" }
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_and_quadratic_exponents() {
        let t = Duration::from_secs;
        assert!((exponent((100, t(1)), (3000, t(30))) - 1.0).abs() < 1e-9);
        assert!((exponent((100, t(1)), (3000, t(900))) - 2.0).abs() < 1e-9);
    }

    #[test]
    fn modules_have_one_kernel_each() {
        let text = module(3);
        assert_eq!(text.matches("func.func @k").count(), 3);
        assert!(text.contains("@k2("));
    }
}
