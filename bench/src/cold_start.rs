//! `cold-start`: wall-clock time for `pld-opt` to start, parse, verify and
//! print a small pld file, relative to stock `mlir-opt` doing the same with
//! the pld dialect loaded from its IRDL definition.
//!
//! On a small input both runs are dominated by process start-up: dynamic
//! loading, MLIR context creation and dialect registration. The ratio shows
//! what the Rust driver (embedded IRDL for pld and pto, semantic verifier)
//! costs on top of the stock tool.
//!
//! Then `pld-run` cold and warm: the demo's ring allreduce
//! (`examples/ring_allreduce.mlir`, 4 ranks) with `--stats`, once with an
//! empty compile cache (`--cache-dir` of a fresh directory per run: it
//! lowers and compiles) and once with the cache the cold runs filled (it
//! reads the lowered module and loads the object). The anchor is the cold
//! run; the table has the lower + compile phases and the whole process.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use crate::harness::{
    check_command, describe_ratio, display_path, format_duration, llvm_tool, parse_duration,
    pld_binary, time_command, workspace_path, Config, Measurement, Report, Result, Stats,
};

/// Input file, relative to the workspace root.
const INPUT: &str = "bench/inputs/small.mlir";
/// IRDL definition of the pld dialect given to `mlir-opt`.
const PLD_IRDL: &str = "dialect/irdl/pld.irdl.mlir";

pub fn run(config: Config) -> Result {
    let input = workspace_path(INPUT);
    let irdl = workspace_path(PLD_IRDL);
    let pld_opt = pld_binary("pld-opt")?;
    let mlir_opt = llvm_tool("mlir-opt")?;

    let mut baseline = Command::new(&mlir_opt);
    baseline
        .arg(format!("--irdl-file={}", irdl.display()))
        .arg(&input)
        .args(["-o", "/dev/null"]);
    let mut candidate = Command::new(&pld_opt);
    candidate.arg(&input).args(["-o", "/dev/null"]);

    check_command(&mut baseline)?;
    check_command(&mut candidate)?;

    println!("  mlir-opt: {}", mlir_opt.display());
    println!("  pld-opt:  {}", display_path(&pld_opt));
    let mut report = Report::new(
        format!("cold-start: parse + verify + print {INPUT}"),
        Measurement::new("mlir-opt --irdl-file", time_command(config, &mut baseline)?),
    );
    report.add(Measurement::new(
        "pld-opt",
        time_command(config, &mut candidate)?,
    ));
    report.print();

    let ratio = report.ratio("pld-opt").expect("pld-opt was measured");
    println!(
        "  => pld-opt cold start: {} stock mlir-opt loading pld.irdl.mlir",
        describe_ratio(ratio)
    );
    println!();
    cold_and_warm(config)
}

/// The program `pld-run` runs cold and warm.
const PROGRAM: &str = "examples/ring_allreduce.mlir";

/// One `pld-run --stats` of the program with the compile cache in `cache`:
/// its lower + compile time (from `--stats`) and the whole process's.
fn pld_run(binary: &Path, cache: &Path) -> Result<(Duration, Duration)> {
    let started = Instant::now();
    let output = Command::new(binary)
        .arg(workspace_path(PROGRAM))
        .args(["--ranks", "4", "--stats", "--cache-dir"])
        .arg(cache)
        .output()
        .map_err(|e| format!("cannot run pld-run: {e}"))?;
    let wall = started.elapsed();
    let stdout = String::from_utf8_lossy(&output.stdout);
    if !output.status.success() {
        return Err(format!("pld-run failed on {PROGRAM}:\n{stdout}"));
    }
    let phase = |name: &str| {
        let marker = format!(" {name} ");
        stdout.lines().find_map(|l| {
            let word = l.split(&marker).nth(1)?.split_whitespace().next()?;
            parse_duration(word.trim_end_matches([',', ')']))
        })
    };
    match (phase("lower"), phase("compile")) {
        (Some(lower), Some(compile)) => Ok((lower + compile, wall)),
        _ => Err(format!(
            "no lower and compile phases in pld-run's output:\n{stdout}"
        )),
    }
}

/// Lower + compile and whole-process times, cold and warm.
type ColdWarm = ((Stats, Stats), (Stats, Stats));

/// `config.runs` cold runs (each with a fresh cache under `root`) and
/// warm runs (with the cache the first cold run filled).
fn measure(config: Config, binary: &Path, root: &Path) -> Result<ColdWarm> {
    let warm_dir = root.join("warm");
    let (mut cold, mut warm) = ((Vec::new(), Vec::new()), (Vec::new(), Vec::new()));
    for run in 0..config.warmup + config.runs {
        let fresh = root.join(format!("cold{run}"));
        let (compile, wall) = pld_run(binary, &fresh)?;
        let _ = std::fs::remove_dir_all(&fresh);
        if run == 0 {
            pld_run(binary, &warm_dir)?;
        }
        let (warm_compile, warm_wall) = pld_run(binary, &warm_dir)?;
        if run >= config.warmup {
            cold.0.push(compile);
            cold.1.push(wall);
            warm.0.push(warm_compile);
            warm.1.push(warm_wall);
        }
    }
    let stats = |s: &[Duration]| Stats::from_samples(s).ok_or("no samples".to_string());
    Ok((
        (stats(&cold.0)?, stats(&cold.1)?),
        (stats(&warm.0)?, stats(&warm.1)?),
    ))
}

/// `pld-run` with an empty cache and with a filled one.
fn cold_and_warm(config: Config) -> Result {
    let binary = pld_binary("pld-run")?;
    let root = std::env::temp_dir().join(format!("pld-bench-cache-{}", std::process::id()));
    let result = measure(config, &binary, &root);
    let _ = std::fs::remove_dir_all(&root);
    let ((cold_compile, cold_wall), (warm_compile, warm_wall)) = result?;
    println!(
        "== cold-start: pld-run {PROGRAM} --ranks 4 --stats, an empty compile cache vs a filled \
         one (median of {})",
        config.runs
    );
    println!("  pld-run:  {}", display_path(&binary));
    println!(
        "  {:<28} {:>14} {:>14}",
        "", "lower+compile", "whole process"
    );
    for (label, compile, wall) in [
        ("cold (anchor): empty cache", &cold_compile, &cold_wall),
        ("warm: cache filled", &warm_compile, &warm_wall),
    ] {
        println!(
            "  {label:<28} {:>14} {:>14}",
            format_duration(compile.median),
            format_duration(wall.median)
        );
    }
    println!(
        "  => warm / cold: lower+compile {:.3}x, whole process {:.2}x",
        warm_compile.ratio_to(&cold_compile),
        warm_wall.ratio_to(&cold_wall)
    );
    Ok(())
}
