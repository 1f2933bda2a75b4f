//! `allreduce`: a 64 MiB FP32 allreduce (Sum), ring, mesh and two-shot, on
//! 2, 4 and 8 simulated ranks, through `pld-run --stats`, side by side with
//! its anchors measured in the same run: OpenMPI's `MPI_Allreduce` on as
//! many processes and the ideal in-process ring and one-shot
//! (`anchors.rs`).
//!
//! Reported per case, as nccl-tests defines them: the kernel time (best of
//! the runs; `pld-run` reports it apart from the set-up), busbw (bytes /
//! time * 2(P-1)/P) and its ratio to each anchor's, with the goals of
//! issue 25 (ring and mesh at least 2x OpenMPI and 0.8x their ideal: the
//! ring the ideal ring's, the mesh the ideal one-shot's; the two-shot,
//! which moves the ring's bytes, is shown beside the ideal ring without a
//! goal), beside the same schedule written in C (`tiled`: 16 KiB tiles
//! and the spec's barriers, no simulator; `x tiled` is what simulating it
//! costs, `tiled/ideal` what the schedule itself reaches of the goal's
//! anchor) and issue 24 (under `--transport mpi`, the transport's fastest
//! schedule at each P, the one `mode = "auto"` picks at this size, at
//! least as fast as OpenMPI; every schedule's ratio is shown); and the
//! remote bytes each rank read divided by the schedule's bound (ring and
//! two-shot 2(P-1)/P * bytes, mesh (P-1) * bytes), which is 1.00 when the
//! kernel moves exactly what its schedule needs.

use std::process::Command;
use std::time::Duration;

use crate::anchors;
use crate::harness::{display_path, format_duration, parse_duration, Config, Result};

/// Elements of the allreduce (64 MiB of f32).
const ELEMENTS: usize = 16 * 1024 * 1024;
const BYTES: usize = ELEMENTS * 4;

/// The kernel time of `pld-run`'s `finished in 1.2s (kernels 175.9ms)`.
fn kernel_time(stdout: &str) -> Option<Duration> {
    stdout.lines().find_map(|l| {
        let rest = l.split("(kernels ").nth(1)?;
        parse_duration(rest.trim_end().strip_suffix(')')?)
    })
}

/// Bus bandwidth of an allreduce of `BYTES` on `ranks` in `time`, bytes/s.
fn busbw(ranks: usize, time: Duration) -> f64 {
    busbw_of(BYTES, ranks, time)
}

/// Bus bandwidth of an allreduce of `bytes` on `ranks` in `time`, bytes/s
/// (nccl-tests' definition).
pub(crate) fn busbw_of(bytes: usize, ranks: usize, time: Duration) -> f64 {
    bytes as f64 / time.as_secs_f64() * 2.0 * (ranks - 1) as f64 / ranks as f64
}

/// The allreduce schedules `pld.tensor_allreduce` offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Schedule {
    Ring,
    Mesh,
    TwoShot,
}

impl Schedule {
    const ALL: [Schedule; 3] = [Schedule::Ring, Schedule::Mesh, Schedule::TwoShot];

    /// As `mode = "..."` spells it.
    fn name(self) -> &'static str {
        match self {
            Schedule::Ring => "ring",
            Schedule::Mesh => "mesh",
            Schedule::TwoShot => "two_shot",
        }
    }

    /// The signal's shape on `ranks` ranks, and the op's mode attribute.
    fn signal(self, ranks: usize) -> ((usize, usize), &'static str) {
        match self {
            Schedule::Ring => ((2 * (ranks - 1), ranks), ", mode = \"ring\""),
            Schedule::Mesh => ((ranks, 1), ""),
            Schedule::TwoShot => ((ranks, 1), ", mode = \"two_shot\""),
        }
    }

    /// The in-process anchor that moves the same bytes.
    fn ideal(self) -> anchors::Ideal {
        match self {
            Schedule::Ring | Schedule::TwoShot => anchors::Ideal::Ring,
            Schedule::Mesh => anchors::Ideal::OneShot,
        }
    }

    /// The bytes a rank must read from its peers.
    fn bound(self, ranks: usize) -> f64 {
        match self {
            Schedule::Ring | Schedule::TwoShot => {
                2.0 * (ranks - 1) as f64 / ranks as f64 * BYTES as f64
            }
            Schedule::Mesh => (ranks - 1) as f64 * BYTES as f64,
        }
    }
}

pub(crate) struct Measured {
    pub time: Duration,
    /// Remote bytes read, per rank.
    pub read: Vec<u64>,
}

/// `pld-run` on `ranks` ranks: itself with threads, under `mpirun -np
/// ranks` with an MPI transport.
fn pld_run_command(pld_run: &std::path::Path, transport: &str, ranks: usize) -> Command {
    if transport == "threads" {
        return Command::new(pld_run);
    }
    let mut command = Command::new("mpirun");
    command
        .args(["--oversubscribe", "-np", &ranks.to_string()])
        .arg(pld_run)
        .args(["--transport", transport])
        // A container's root user may run it.
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
    command
}

fn run_case(
    pld_run: &std::path::Path,
    dir: &std::path::Path,
    schedule: Schedule,
    ranks: usize,
    transport: &str,
) -> Result<Measured> {
    run_sized(pld_run, dir, (schedule, ranks, ELEMENTS), transport)
}

/// `pld-run --stats` on an f32 sum allreduce of `elements` in `mode` on
/// `ranks` ranks: the kernel time and the remote bytes each rank read.
pub(crate) fn run_sized(
    pld_run: &std::path::Path,
    dir: &std::path::Path,
    (schedule, ranks, elements): (Schedule, usize, usize),
    transport: &str,
) -> Result<Measured> {
    let mode = schedule.name();
    let ((rows, cols), mode_attr) = schedule.signal(ranks);
    let data = format!("tensor<1x{elements}xf32, #pld.dist>");
    let signal = format!("tensor<{rows}x{cols}xi32, #pld.dist>");
    let source = format!(
        "func.func @allreduce(%d: {data}, %s: {signal}) attributes {{pld.kind = #pld.func_kind<\"incore\">}} {{\n  \
         %r = \"pld.tensor_allreduce\"(%d, %s) {{op = #pld.reduce_op<\"sum\">{mode_attr}}} : ({data}, {signal}) -> {data}\n  \
         return\n}}\n"
    );
    let path = dir.join(format!("allreduce_{mode}_{ranks}_{elements}.mlir"));
    std::fs::write(&path, source).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    let output = pld_run_command(pld_run, transport, ranks)
        .arg(&path)
        .args([
            "--ranks",
            &ranks.to_string(),
            "--stats",
            "--per-rank",
            "--deadline",
            "60",
        ])
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
    let time = kernel_time(&stdout)
        .ok_or_else(|| format!("no kernel time in pld-run's output:\n{stdout}"))?;
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

/// The goals of one schedule against OpenMPI and the ideal in-process
/// schedule, `None` where there is none: issue 25's on threads (ring and
/// mesh at least 2x OpenMPI and 0.8x their ideal; the two-shot 2x
/// OpenMPI). Issue 24's for the shared-memory MPI transport is the
/// transport's, not a schedule's ([`transport_goal`]); mpi-rma has none.
fn goals(transport: &str, schedule: Schedule) -> (Option<f64>, Option<f64>) {
    match (transport, schedule) {
        ("threads", Schedule::TwoShot) => (Some(2.0), None),
        ("threads", _) => (Some(2.0), Some(0.8)),
        _ => (None, None),
    }
}

/// Issue 24's goal under `--transport mpi`: at each P the fastest
/// schedule (the one `mode = "auto"` picks for 64 MiB) at least as fast as
/// `MPI_Allreduce`, as an MPI library is judged by the algorithm it picks.
fn transport_goal(transport: &str) -> Option<f64> {
    (transport == "mpi").then_some(1.0)
}

fn goals_text(transport: &str) -> &'static str {
    match transport {
        "threads" => "every schedule >= 2x OpenMPI; ring and mesh >= 0.8x their ideal (ring: the ideal ring, mesh: the ideal one-shot; two_shot shown beside the ideal ring)",
        "mpi" => "the fastest schedule at each P >= 1x OpenMPI (one MPI process per rank, shared-memory windows; every schedule's ratio shown)",
        _ => "none (MPI one-sided calls for every remote byte and signal; ratios reported)",
    }
}

/// The ranks each schedule runs on.
const RANKS: [usize; 3] = [2, 4, 8];

/// One printed row: how many goals it missed, and its ratio to OpenMPI.
struct Row {
    missed: usize,
    mpi_ratio: Option<f64>,
}

/// Measures and prints `schedule` on `ranks` ranks (best of `runs`) beside
/// its anchors.
fn measure_row(
    config: Config,
    (pld_run, dir, anchors): (&std::path::Path, &std::path::Path, &anchors::Anchors),
    schedule: Schedule,
    ranks: usize,
    runs: usize,
) -> Result<Row> {
    let mut best: Option<Measured> = None;
    for _ in 0..runs {
        let measured = run_case(pld_run, dir, schedule, ranks, config.transport)?;
        if best.as_ref().is_none_or(|b| measured.time < b.time) {
            best = Some(measured);
        }
    }
    let measured = best.ok_or("no run")?;
    let mine = busbw(ranks, measured.time);
    let mpi = match &anchors.mpi {
        Ok(binary) => Some(busbw(ranks, anchors::mpi(binary, ranks, ELEMENTS, runs)?)),
        Err(_) => None,
    };
    let ideal = busbw(
        ranks,
        anchors::ideal(&anchors.ideal, schedule.ideal(), ranks, ELEMENTS, runs)?,
    );
    let tiled = busbw(
        ranks,
        anchors::tiled(&anchors.tiled, schedule.name(), ranks, ELEMENTS, runs)?,
    );
    let worst = measured.read.iter().copied().max().unwrap_or(0) as f64;
    let (mpi_goal, ideal_goal) = goals(config.transport, schedule);
    let mpi_ratio = mpi.map(|mpi| mine / mpi);
    let ideal_ratio = mine / ideal;
    let missed = usize::from(mpi_ratio.zip(mpi_goal).is_some_and(|(r, g)| r < g))
        + usize::from(ideal_goal.is_some_and(|g| ideal_ratio < g));
    println!(
        "  {:<8} {ranks:>2}  {:>9}  {:>6.2}  {:>8}  {:>10}  {:>6.2}  {:>10}  {:>6.2}  {:>7.2}  {:>11.2}  {:>10.3}",
        schedule.name(),
        format_duration(measured.time),
        mine / 1e9,
        mpi.map_or("-".into(), |m| format!("{:.2}", m / 1e9)),
        mpi_ratio.map_or("-".into(), |r| verdict(r, mpi_goal)),
        ideal / 1e9,
        verdict(ideal_ratio, ideal_goal),
        tiled / 1e9,
        mine / tiled,
        tiled / ideal,
        worst / schedule.bound(ranks)
    );
    Ok(Row { missed, mpi_ratio })
}

/// `ratio` with whether it meets `goal`, for the table.
fn verdict(ratio: f64, goal: Option<f64>) -> String {
    match goal {
        Some(goal) if ratio >= goal => format!("{ratio:.2} met"),
        Some(_) => format!("{ratio:.2} MISSED"),
        None => format!("{ratio:.2}"),
    }
}

pub fn run(config: Config) -> Result {
    anchors::with_anchors("allreduce", |pld_run, dir, anchors| {
        measure(config, pld_run, dir, anchors)
    })
}

fn measure(
    config: Config,
    pld_run: &std::path::Path,
    dir: &std::path::Path,
    anchors: &anchors::Anchors,
) -> Result {
    // Every pld-run process compiles the kernel again; a few are enough
    // for a best-of.
    let runs = config.runs.clamp(1, 5);
    println!(
        "  best of {} each; anchors: OpenMPI MPI_Allreduce ({}), ideal in-process ring and one-shot, and the tiled schedules (C, pthreads)",
        crate::harness::runs(runs),
        match &anchors.mpi {
            Ok(path) => display_path(path),
            Err(e) => format!("unavailable: {e}"),
        }
    );
    println!(
        "  this machine: memcpy {:.1} GB/s (one thread, 64 MiB, best of 5)",
        memcpy_bandwidth() / 1e9
    );
    println!("  pld-run --transport {}", config.transport);
    println!("  busbw in GB/s; goals: {}", goals_text(config.transport));
    println!("  tiled: the same schedule written in C (anchors/tiled_allreduce.c: 16 KiB tiles, the spec's barriers, no simulator); tiled/ideal: what the schedule itself reaches of its ideal");
    println!();
    println!(
        "  {:<8} {:>2}  {:>9}  {:>6}  {:>8}  {:>10}  {:>6}  {:>10}  {:>6}  {:>7}  {:>11}  {:>10}",
        "mode",
        "P",
        "kernel",
        "busbw",
        "OpenMPI",
        "x OpenMPI",
        "ideal",
        "x ideal",
        "tiled",
        "x tiled",
        "tiled/ideal",
        "read/bound"
    );
    let mut missed = 0;
    // Per P: the best schedule's busbw over OpenMPI's.
    let mut best_of = vec![(0.0f64, Schedule::Ring); RANKS.len()];
    for schedule in Schedule::ALL {
        for (i, &ranks) in RANKS.iter().enumerate() {
            let row = measure_row(config, (pld_run, dir, anchors), schedule, ranks, runs)?;
            missed += row.missed;
            if let Some(ratio) = row.mpi_ratio.filter(|r| *r > best_of[i].0) {
                best_of[i] = (ratio, schedule);
            }
        }
    }
    if anchors.mpi.is_ok() {
        println!();
        let goal = transport_goal(config.transport);
        for (&ranks, (ratio, schedule)) in RANKS.iter().zip(&best_of) {
            missed += usize::from(goal.is_some_and(|g| *ratio < g));
            let judged = match goal {
                Some(g) if *ratio >= g => " (goal >= 1x: met)",
                Some(_) => " (goal >= 1x: MISSED)",
                None => "",
            };
            println!(
                "  P = {ranks}: the fastest schedule, {}, at {ratio:.2}x OpenMPI{judged}",
                schedule.name()
            );
        }
    }
    println!();
    println!("  {missed} of the goals missed on this machine in this run");
    Ok(())
}

/// The bytes per second one thread copies between two 64 MiB buffers
/// (best of 5): the machine's memory speed, printed with the results.
fn memcpy_bandwidth() -> f64 {
    let src = vec![1u8; BYTES];
    let mut dst = vec![0u8; BYTES];
    (0..5)
        .map(|_| {
            let start = std::time::Instant::now();
            dst.copy_from_slice(std::hint::black_box(&src));
            std::hint::black_box(&dst);
            BYTES as f64 / start.elapsed().as_secs_f64()
        })
        .fold(0.0, f64::max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kernel_time_of_pld_run() {
        let out = "@allreduce on 4 ranks: finished in 1.2s (kernels 175.9ms)\n  rank ...";
        assert_eq!(kernel_time(out), Some(Duration::from_micros(175900)));
        assert_eq!(kernel_time("@k on 2 ranks: finished in 1.2s"), None);
    }
}
