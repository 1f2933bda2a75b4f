//! `cold-start`: wall-clock time for `pld-opt` to start, parse, verify and
//! print a small pld file, relative to stock `mlir-opt` doing the same with
//! the pld dialect loaded from its IRDL definition.
//!
//! On a small input both runs are dominated by process start-up: dynamic
//! loading, MLIR context creation and dialect registration. The ratio shows
//! what the Rust driver (embedded IRDL for pld and pto, semantic verifier)
//! costs on top of the stock tool.

use std::process::Command;

use crate::harness::{
    check_command, describe_ratio, display_path, llvm_tool, pld_binary, time_command,
    workspace_path, Config, Measurement, Report, Result,
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
    Ok(())
}
