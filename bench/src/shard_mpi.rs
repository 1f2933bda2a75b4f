//! `shard-mpi`: one shard program, `bench/inputs/shard_all_reduce.mlir`
//! (an all_reduce over the rows of a 2x4 grid), lowered two ways and run
//! on the same inputs: upstream MLIR's `convert-shard-to-mpi` (the only op
//! it lowers) compiled to a native MPI program and run by `mpiexec` on 8
//! processes, and pld's `convert-shard-to-pld` run by `pld-run` on 8
//! simulated devices. The results must be the same bytes on every rank,
//! and equal to the sums computed here; the report puts pld's time next to
//! MPI's.
//!
//! MPI is MPICH (`mpicc.mpich`, `mpiexec.mpich`; `make bench` installs it):
//! LLVM 22's OpenMPI lowering names the reduction `ompi_mpi_sum` (Open MPI
//! exports `ompi_mpi_op_sum`) and reads the communicator `MPI_Comm_split`
//! returns as a 32-bit integer (an Open MPI communicator is a pointer), so
//! it does not link, and once linked it crashes.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use crate::harness::{
    check_command, format_duration, llvm_tool, parse_duration, pld_binary, workspace_path, Config,
    Result,
};

const RANKS: usize = 8;
const ROWS: usize = 64;
const COLS: usize = 1024;
/// The devices of one group (a row of the 2x4 grid).
const GROUP: usize = 4;
const DRIVER: &str = include_str!("../anchors/shard_mpi_driver.c");
/// Lowers what `convert-shard-to-mpi` produces to the LLVM dialect, with
/// a C entry point.
const TO_LLVM: &str = "builtin.module(func.func(llvm-request-c-wrappers),\
one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},\
func.func(convert-linalg-to-loops),lower-affine,expand-strided-metadata,convert-scf-to-cf,\
convert-to-llvm,reconcile-unrealized-casts)";

/// Device `d`'s input: integers, so every sum is exact in any order.
fn input(d: usize) -> Vec<f32> {
    (0..ROWS * COLS)
        .map(|i| ((d * 1009 + i * 7) % 8191) as f32 - 4095.0)
        .collect()
}

fn bytes(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// A `.npy` file (version 1.0) of a `[ROWS, COLS]` f32 array.
fn npy(values: &[f32]) -> Vec<u8> {
    let mut header =
        format!("{{'descr': '<f4', 'fortran_order': False, 'shape': ({ROWS}, {COLS}), }}");
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend((header.len() as u16).to_le_bytes());
    out.extend(header.as_bytes());
    out.extend(bytes(values));
    out
}

/// The data of a `.npy` file pld-run wrote.
fn npy_data(file: &[u8]) -> Result<&[u8]> {
    let length = file
        .get(8..10)
        .map(|b| u16::from_le_bytes([b[0], b[1]]) as usize)
        .ok_or("a truncated .npy file")?;
    file.get(10 + length..)
        .ok_or_else(|| "a truncated .npy file".into())
}

fn write(path: &Path, data: &[u8]) -> Result {
    std::fs::write(path, data).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

fn read(path: &Path) -> Result<Vec<u8>> {
    std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

/// Lowers the program with `convert-shard-to-mpi` down to an object file,
/// `dir/all_reduce.o`.
fn lower_mpi(program: &Path, dir: &Path) -> Result<PathBuf> {
    let mlir_opt = llvm_tool("mlir-opt")?;
    let output = Command::new(&mlir_opt)
        .arg("--convert-shard-to-mpi")
        .arg(program)
        .output()
        .map_err(|e| format!("cannot run mlir-opt: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "convert-shard-to-mpi failed: {}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    // The grid has no LLVM translation; nothing refers to it any more.
    let mpi: String = String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter(|l| !l.trim_start().starts_with("shard.grid"))
        .map(|l| format!("{l}\n"))
        .collect();
    let (mpi_file, llvm, ll) = (
        dir.join("mpi.mlir"),
        dir.join("llvm.mlir"),
        dir.join("all_reduce.ll"),
    );
    let object = dir.join("all_reduce.o");
    write(&mpi_file, mpi.as_bytes())?;
    check_command(
        Command::new(&mlir_opt)
            .arg(&mpi_file)
            .arg(format!("--pass-pipeline={TO_LLVM}"))
            .arg("-o")
            .arg(&llvm),
    )?;
    check_command(
        Command::new(llvm_tool("mlir-translate")?)
            .arg("--mlir-to-llvmir")
            .arg(&llvm)
            .arg("-o")
            .arg(&ll),
    )?;
    check_command(
        Command::new(llvm_tool("clang")?)
            .args(["-O2", "-Wno-override-module", "-c"])
            .arg(&ll)
            .arg("-o")
            .arg(&object),
    )?;
    Ok(object)
}

/// Links the lowered program with the driver into `dir/shard_mpi`.
fn build_mpi(program: &Path, dir: &Path) -> Result<PathBuf> {
    let object = lower_mpi(program, dir)?;
    let driver = dir.join("shard_mpi_driver.c");
    write(&driver, DRIVER.as_bytes())?;
    let binary = dir.join("shard_mpi");
    check_command(
        Command::new("mpicc.mpich")
            .arg("-O2")
            .arg(&driver)
            .arg(&object)
            .arg("-o")
            .arg(&binary),
    )
    .map_err(|e| format!("{e} (`make bench` installs MPICH)"))?;
    Ok(binary)
}

/// Runs the MPI program; its best time.
fn run_mpi(binary: &Path, dir: &Path, runs: usize) -> Result<Duration> {
    let output = Command::new("mpiexec.mpich")
        .args(["-n", &RANKS.to_string()])
        .arg(binary)
        .args([ROWS.to_string(), COLS.to_string(), runs.to_string()])
        .arg(dir.join("in.rank%d.bin"))
        .arg(dir.join("mpi.rank%d.bin"))
        .output()
        .map_err(|e| format!("cannot run mpiexec.mpich: {e}"))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    if !output.status.success() {
        return Err(format!(
            "mpiexec failed: {stdout}{}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    stdout
        .lines()
        .find_map(|l| l.strip_prefix("best "))
        .and_then(|s| s.trim().parse::<f64>().ok())
        .map(Duration::from_secs_f64)
        .ok_or_else(|| format!("the MPI program printed no time: {stdout}"))
}

/// Runs the program with pld-run; the `run` phase of `--stats`.
fn run_pld(program: &Path, dir: &Path, runs: usize) -> Result<Duration> {
    let output = Command::new(pld_binary("pld-run")?)
        .arg(program)
        .args([
            "--ranks",
            &RANKS.to_string(),
            "--check",
            "--stats",
            "--iters",
            &runs.to_string(),
        ])
        .arg("--input")
        .arg(format!("arg0={}", dir.join("in.rank{rank}.npy").display()))
        .arg("--output-dir")
        .arg(dir.join("pld"))
        .output()
        .map_err(|e| format!("cannot run pld-run: {e}"))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    if !output.status.success() {
        return Err(format!(
            "pld-run failed: {stdout}{}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    let line = stdout
        .lines()
        .find(|l| l.contains("phases:"))
        .unwrap_or_default();
    line.split(" run ")
        .nth(1)
        .and_then(|rest| parse_duration(rest.split([',', ' ']).next()?))
        .ok_or_else(|| format!("no run phase in pld-run's output:\n{stdout}"))
}

/// Compares both results on every rank with each other and with the sum
/// over the rank's row.
fn compare(dir: &Path, inputs: &[Vec<f32>]) -> Result {
    for d in 0..RANKS {
        let mpi = read(&dir.join(format!("mpi.rank{d}.bin")))?;
        let pld_file = read(&dir.join("pld").join(format!("result0.rank{d}.npy")))?;
        let pld = npy_data(&pld_file)?;
        let row = d / GROUP * GROUP;
        let golden: Vec<f32> = (0..ROWS * COLS)
            .map(|i| {
                (row..row + GROUP)
                    .map(|s| f64::from(inputs[s][i]))
                    .sum::<f64>() as f32
            })
            .collect();
        if mpi != pld {
            let first = mpi
                .chunks(4)
                .zip(pld.chunks(4))
                .position(|(a, b)| a != b)
                .unwrap_or(0);
            return Err(format!("rank {d}: convert-shard-to-mpi and convert-shard-to-pld differ, first at element {first}"));
        }
        if pld != bytes(&golden).as_slice() {
            return Err(format!(
                "rank {d}: both lowerings agree, but not with the sums over the row"
            ));
        }
    }
    Ok(())
}

pub fn run(config: Config) -> Result {
    let program = workspace_path("bench/inputs/shard_all_reduce.mlir");
    let dir = std::env::temp_dir().join(format!("pld-bench-shard-mpi-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let inputs: Vec<Vec<f32>> = (0..RANKS).map(input).collect();
    for (d, values) in inputs.iter().enumerate() {
        write(&dir.join(format!("in.rank{d}.bin")), &bytes(values))?;
        write(&dir.join(format!("in.rank{d}.npy")), &npy(values))?;
    }
    let runs = config.runs.clamp(1, 5);
    let result = build_mpi(&program, &dir).and_then(|binary| {
        let mpi = run_mpi(&binary, &dir, runs)?;
        let pld = run_pld(&program, &dir, runs)?;
        compare(&dir, &inputs)?;
        Ok((mpi, pld))
    });
    let _ = std::fs::remove_dir_all(&dir);
    let (mpi, pld) = result?;
    println!("shard-mpi: shard.all_reduce (sum) of [{ROWS}, {COLS}] f32 over the rows of a 2x4 grid, {RANKS} ranks");
    println!(
        "  results: the same bytes from both lowerings on all {RANKS} ranks, equal to the row sums"
    );
    println!(
        "  convert-shard-to-mpi, MPICH, {RANKS} processes (best of {runs} calls):   {}",
        format_duration(mpi)
    );
    println!("  convert-shard-to-pld, pld-run, {RANKS} simulated devices (mean of {runs}): {}  ({:.2}x MPI)", format_duration(pld), pld.as_secs_f64() / mpi.as_secs_f64());
    Ok(())
}
