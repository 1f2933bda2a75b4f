//! `plugin`: `pld-to-pto` through Debian's stock `mlir-opt` with the pass
//! plugin (`libPldPlugin.so`, dialects from `--irdl-file`) against
//! `pld-opt`, the anchor, on the compile-scaling input (modules of N InCore
//! mesh allreduce kernels, N = 100 and 1000), in the same run.
//!
//! `pld-opt` runs the semantic verifier after parsing and after every pass;
//! `mlir-opt` runs `pld-verify` where the pipeline says (twice in
//! `pld-to-pto`). A third column runs the plugin with `pld-verify` written
//! after every pass of `pld-to-pto`, the checks `pld-opt` makes.
//!
//! All three commands must print the same module (blank lines aside:
//! mlir-opt ends its output with one) before anything is timed. Their runs
//! alternate, so a change in the machine's load hits all of them; each
//! figure is the best of `min(--runs, 3)`. Goal: the plugin's `pld-to-pto`
//! within 1.2x `pld-opt`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use crate::compile_scaling::module;
use crate::harness::{
    describe_ratio, display_command, display_path, format_duration, llvm_tool, pld_binary,
    workspace_path, Config, Result,
};

const SIZES: [usize; 2] = [100, 1000];
const PIPELINE: &str = "--pass-pipeline=builtin.module(pld-to-pto)";
/// `pld-to-pto`'s ten passes with `pld-verify` first (after parsing) and
/// after each, as `pld-opt` checks them. Should `pld-to-pto` change, the
/// outputs differ and the benchmark says so before timing.
const VERIFIED: &str = "--pass-pipeline=builtin.module(pld-verify, pld-verify, pld-verify, \
     pld-lower-composite-ops, pld-verify, pld-lower-l2-tensor-collectives, pld-verify, \
     pld-synthesize-allreduce-signals, pld-verify, pld-materialize-comm-domain-scopes, \
     pld-verify, pld-lower-host-tensor-collectives, pld-verify, \
     pld-materialize-dist-tensor-ctx, pld-verify, pld-insert-comm-fence, pld-verify, \
     pld-verify, pld-verify, convert-pld-to-pto, pld-verify)";
/// The goal of issue 21: the plugin within 1.2x pld-opt.
const GOAL: f64 = 1.2;

/// The tools that run `pld-to-pto`.
struct Tools<'a> {
    pld_opt: &'a Path,
    mlir_opt: &'a Path,
    plugin: &'a Path,
    irdl: &'a Path,
}

impl Tools<'_> {
    fn pld_opt(&self, input: &Path, output: &Path) -> Command {
        let mut command = Command::new(self.pld_opt);
        command.arg(input).arg(PIPELINE).arg("-o").arg(output);
        command
    }

    fn plugin(&self, input: &Path, pipeline: &str, output: &Path) -> Command {
        let mut command = Command::new(self.mlir_opt);
        command
            .arg(format!("--load-pass-plugin={}", self.plugin.display()))
            .arg(format!("--irdl-file={}", self.irdl.display()))
            .arg(input)
            .arg(pipeline)
            .arg("-o")
            .arg(output);
        command
    }

    /// The three commands on `input`, writing `outputs`.
    fn commands(&self, input: &Path, outputs: &[PathBuf; 3]) -> [Command; 3] {
        [
            self.pld_opt(input, &outputs[0]),
            self.plugin(input, PIPELINE, &outputs[1]),
            self.plugin(input, VERIFIED, &outputs[2]),
        ]
    }
}

pub fn run(config: Config) -> Result {
    let pld_opt = pld_binary("pld-opt")?;
    let plugin = pld_binary("libPldPlugin.so")?;
    let mlir_opt = llvm_tool("mlir-opt")?;
    let irdl = workspace_path("dialect/irdl/pld-and-pto.irdl.mlir");
    println!("  pld-opt: {}", display_path(&pld_opt));
    println!("  mlir-opt: {}", mlir_opt.display());
    println!("  plugin: {}", display_path(&plugin));
    let tools = Tools {
        pld_opt: &pld_opt,
        mlir_opt: &mlir_opt,
        plugin: &plugin,
        irdl: &irdl,
    };
    let dir = std::env::temp_dir().join(format!("pld-bench-plugin-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let result = measure(config, &tools, &dir);
    let _ = std::fs::remove_dir_all(&dir);
    result
}

fn measure(config: Config, tools: &Tools, dir: &Path) -> Result {
    let runs = config.runs.clamp(1, 3);
    println!(
        "  best of {} each, the commands alternating; anchor: pld-opt",
        crate::harness::runs(runs)
    );
    println!();
    println!(
        "  {:>7}  {:>10}  {:>15}  {:>6}  {:>24}  {:>6}",
        "kernels", "pld-opt", "mlir-opt+plugin", "ratio", "plugin, verify each pass", "ratio"
    );
    let mut worst: f64 = 0.0;
    for kernels in SIZES {
        let input = dir.join(format!("kernels_{kernels}.mlir"));
        std::fs::write(&input, module(kernels)).map_err(|e| e.to_string())?;
        let outputs = ["pld-opt", "plugin", "verified"].map(|n| dir.join(format!("{n}.mlir")));
        same_output(tools.commands(&input, &outputs), &outputs, &input)?;
        let mut best = [Duration::MAX; 3];
        for _ in 0..runs {
            for (best, command) in best.iter_mut().zip(tools.commands(&input, &outputs)) {
                *best = (*best).min(time(command)?);
            }
        }
        let ratio = |i: usize| best[i].as_secs_f64() / best[0].as_secs_f64();
        worst = worst.max(ratio(1));
        println!(
            "  {kernels:>7}  {:>10}  {:>15}  {:>5.2}x  {:>24}  {:>5.2}x",
            format_duration(best[0]),
            format_duration(best[1]),
            ratio(1),
            format_duration(best[2]),
            ratio(2)
        );
    }
    println!();
    println!(
        "  => pld-to-pto through mlir-opt with the plugin, at the larger ratio: {} pld-opt \
         (goal <= {GOAL}: {})",
        describe_ratio(worst),
        if worst <= GOAL { "met" } else { "MISSED" }
    );
    Ok(())
}

/// Runs the commands once; they must succeed and write the same module.
fn same_output(commands: [Command; 3], outputs: &[PathBuf; 3], input: &Path) -> Result {
    for command in commands {
        time(command)?;
    }
    let texts = outputs
        .iter()
        .map(|path| std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display())))
        .collect::<Result<Vec<_>>>()?;
    if texts
        .iter()
        .any(|text| non_blank(text) != non_blank(&texts[0]))
    {
        return Err(format!(
            "pld-opt and mlir-opt with the plugin printed different modules for {}",
            input.display()
        ));
    }
    Ok(())
}

/// The lines of `text` that are not blank.
fn non_blank(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|line| !line.trim().is_empty())
        .collect()
}

/// The wall-clock time of one run of a command that must succeed.
fn time(mut command: Command) -> Result<Duration> {
    let started = Instant::now();
    let output = command
        .output()
        .map_err(|e| format!("cannot run {}: {e}", display_command(&command)))?;
    let took = started.elapsed();
    if !output.status.success() {
        return Err(format!(
            "{} failed: {}",
            display_command(&command),
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    Ok(took)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blank_lines_do_not_count() {
        assert_eq!(non_blank("a\n\nb\n\n"), non_blank("a\nb\n"));
        assert_ne!(non_blank("a\nb\n"), non_blank("a\nc\n"));
    }
}
