//! `scaling`: the ring allreduce of `allreduce` on P = 2, 16, 32 and 64
//! simulated ranks (issue 25's scaling in ranks), beside the ideal
//! in-process ring (`anchors/ideal_allreduce.c`) on as many threads and
//! the ring's schedule written in C (`anchors/tiled_allreduce.c`: 16 KiB
//! tiles and the spec's signals, the ranks on one thread per core), in the
//! same run.
//!
//! The machine has a few cores and P ranks share them, so per P it reports
//! busbw x P / cores: the bus bandwidth the cores deliver together, which a
//! schedule that scales keeps (busbw falls as 1/P when P ranks share the
//! same cores), and that figure relative to P = 2, for the simulator and
//! for the ideal ring. The goal: the simulator's curve no more than 20 %
//! below the ideal's (its relative figure at least 0.8x the ideal's). The
//! tiled ring's curve beside it shows how the schedule itself scales, and
//! `x tiled` what the simulator takes beyond it at each P.
//!
//! Every rank holds the same 32 MiB of f32 at every P: at P = 2 the
//! windows (64 MiB) are twice a 32 MiB L3, so the reference runs from
//! memory as the larger P do (with 16 MiB it ran from the cache); at P = 64
//! 2 GiB of windows and as much of inputs, which fit beside other work.
//! Each figure is the best of `min(--runs, 3)`.

use crate::allreduce::{busbw_of, run_sized, Schedule};
use crate::anchors;
use crate::harness::{format_duration, Config, Result};
use std::time::Duration;

/// Elements per rank (32 MiB of f32).
const ELEMENTS: usize = 8 * 1024 * 1024;
const BYTES: usize = ELEMENTS * 4;

/// The rank counts; the first is the reference.
const RANKS: [usize; 4] = [2, 16, 32, 64];

/// The relative figure the simulator must reach, as a fraction of the
/// ideal ring's.
const GOAL: f64 = 0.8;

/// busbw x P / cores, in bytes/s.
fn per_core(ranks: usize, time: Duration, cores: usize) -> f64 {
    busbw_of(BYTES, ranks, time) * ranks as f64 / cores as f64
}

pub fn run(config: Config) -> Result {
    anchors::with_anchors("scaling", |pld_run, dir, anchors| {
        measure(config, pld_run, dir, anchors)
    })
}

/// The best kernel time of `runs` ring allreduces on `ranks`.
fn best_ring(
    pld_run: &std::path::Path,
    dir: &std::path::Path,
    ranks: usize,
    runs: usize,
) -> Result<Duration> {
    let mut best: Option<Duration> = None;
    for _ in 0..runs {
        let measured = run_sized(pld_run, dir, (Schedule::Ring, ranks, ELEMENTS), "threads")?;
        best = Some(best.map_or(measured.time, |b| b.min(measured.time)));
    }
    best.ok_or_else(|| "no run".into())
}

fn measure(
    config: Config,
    pld_run: &std::path::Path,
    dir: &std::path::Path,
    anchors: &anchors::Anchors,
) -> Result {
    let runs = config.runs.clamp(1, 3);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!(
        "  32 MiB of f32 per rank, Sum, ring; best of {} each; {cores} cores; \
         anchors: the ideal in-process ring (C, pthreads) on as many threads, and the tiled \
         ring (the same schedule in C, no simulator)",
        crate::harness::runs(runs)
    );
    println!(
        "  per core = busbw x P / cores (GB/s); rel = per core / per core at P = {}; goal: \
         pld rel >= {GOAL}x ideal rel",
        RANKS[0]
    );
    println!();
    println!(
        "  {:>2}  {:>9}  {:>8}  {:>6}  {:>9}  {:>8}  {:>6}  {:>16}  {:>9}  {:>6}  {:>7}",
        "P",
        "kernel",
        "per core",
        "rel",
        "ideal",
        "per core",
        "rel",
        "pld rel / ideal",
        "tiled",
        "rel",
        "x tiled"
    );
    let mut reference: Option<(f64, f64, f64)> = None;
    let mut missed = 0;
    for ranks in RANKS {
        let mine = best_ring(pld_run, dir, ranks, runs)?;
        let ideal = &anchors.ideal;
        let theirs = anchors::ideal(ideal, anchors::Ideal::Ring, ranks, ELEMENTS, runs)?;
        let tiled = anchors::tiled(&anchors.tiled, "ring", ranks, ELEMENTS, runs)?;
        let (mine_pc, theirs_pc) = (per_core(ranks, mine, cores), per_core(ranks, theirs, cores));
        let tiled_pc = per_core(ranks, tiled, cores);
        let (mine_ref, theirs_ref, tiled_ref) =
            *reference.get_or_insert((mine_pc, theirs_pc, tiled_pc));
        let (mine_rel, theirs_rel) = (mine_pc / mine_ref, theirs_pc / theirs_ref);
        let ratio = mine_rel / theirs_rel;
        let verdict = match ranks == RANKS[0] {
            true => "(reference)",
            false if ratio >= GOAL => "met",
            false => {
                missed += 1;
                "MISSED"
            }
        };
        println!(
            "  {ranks:>2}  {:>9}  {:>8.2}  {:>6.2}  {:>9}  {:>8.2}  {:>6.2}  {:>5.2} {verdict:<10}  {:>9}  {:>6.2}  {:>7.2}",
            format_duration(mine),
            mine_pc / 1e9,
            mine_rel,
            format_duration(theirs),
            theirs_pc / 1e9,
            theirs_rel,
            ratio,
            format_duration(tiled),
            tiled_pc / tiled_ref,
            mine_pc / tiled_pc
        );
    }
    println!();
    println!("  {missed} of the goals missed on this machine in this run");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn per_core_bandwidth_is_busbw_times_ranks_over_cores() {
        // 32 MiB in 1 s on 4 ranks: busbw = 32 MiB * 2 * 3/4; x 4 / 2.
        let expected = BYTES as f64 * 1.5 * 2.0;
        let got = per_core(4, Duration::from_secs(1), 2);
        assert!(
            (got - expected).abs() < 1e-6 * expected,
            "{got} vs {expected}"
        );
    }
}
