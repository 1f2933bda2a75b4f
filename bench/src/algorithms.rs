//! `algorithms`: the allreduce schedules on the simulator against the cost
//! model that picks among them (docs/algorithms.md). The kernels and the
//! tools that time and predict them, which `calibrate` shares, are in
//! `schedule_runs`.
//!
//! `algorithms` measures every schedule (mesh, two_shot, ring; an InCore
//! f32 sum through the release `pld-run`, its kernel time) for sizes 4 KiB
//! to 256 MiB per rank and P = 2, 4, 8, and asks `pld-opt` what the model
//! predicts and what `mode = "auto"` chooses (the `pld.auto_mode` record of
//! `pld-select-allreduce-modes`, with the file of `$PLD_COST_MODEL` when
//! set; without it `algorithms` calibrates first). A point is one
//! `pld-run` process per schedule (three for calls up to 1 MiB, [`rounds`](crate::schedule_runs::rounds),
//! taken in turn, the one with the fastest run kept): `--iters` timed
//! runs (fewer for large calls, [`iterations`](crate::schedule_runs::iterations)) after warm-up runs, and the
//! figure is their minimum ([`Timing::best`](crate::schedule_runs::Timing::best): on a machine shared with
//! other jobs the least disturbed run; the median moves with the load);
//! the spread printed is the interquartile range over the median. A point
//! whose choice measured more than 10 % off the best is measured a second
//! time, every mode ([`second_look`]). Per point it prints the measured times, the
//! predictions and their error, the choice and its time over the best
//! measured one; the summary counts the predictions within 25 % and the
//! choices within 10 %.

use std::path::PathBuf;
use std::time::Instant;

use crate::harness::{Config, Result};
use crate::schedule_runs::{
    auto_kernel, fmt, iterations, kernel, rounds, size, warmups, Timing, Tools, MODES,
};

/// The modes the auto kernel (a mesh-shaped signal) can be given.
const CHOOSABLE: [&str; 2] = ["mesh", "two_shot"];

/// The sweep: sizes per rank in bytes and rank counts.
fn sweep(quick: bool) -> (Vec<usize>, Vec<usize>) {
    if quick {
        (vec![4 << 10, 256 << 10, 16 << 20], vec![2, 4, 8])
    } else {
        (
            (0..9).map(|k| (4 << 10) << (2 * k)).collect(),
            vec![2, 4, 8],
        )
    }
}

/// One point of the sweep.
struct Point {
    bytes: usize,
    ranks: usize,
    /// The kernel of each mode.
    paths: Vec<PathBuf>,
    measured: Vec<Timing>,
    /// Whether the point was measured a second time ([`second_look`]).
    second_look: bool,
    predicted: Vec<f64>,
    chosen: String,
    /// What the built-in defaults would choose.
    defaults_chose: String,
}

impl Point {
    fn seconds(&self, mode: usize) -> f64 {
        self.measured[mode].best()
    }

    fn best(&self) -> f64 {
        (0..MODES.len())
            .map(|i| self.seconds(i))
            .fold(f64::INFINITY, f64::min)
    }

    /// The chosen schedule's measured time over the best one.
    fn auto_ratio(&self) -> f64 {
        self.ratio(&self.chosen)
    }

    /// The chosen schedule's measured time over the best of the
    /// schedules the auto kernel's mesh-shaped signal lets it choose (the
    /// mesh and two-shot; the ring needs a signal of its own shape).
    fn candidate_ratio(&self) -> f64 {
        let index = MODES.iter().position(|m| *m == self.chosen).unwrap_or(0);
        let best = CHOOSABLE
            .iter()
            .filter_map(|m| MODES.iter().position(|x| x == m))
            .map(|i| self.seconds(i))
            .fold(f64::INFINITY, f64::min);
        self.seconds(index) / best
    }

    /// `mode`'s measured time over the best one.
    fn ratio(&self, mode: &str) -> f64 {
        let index = MODES.iter().position(|m| *m == mode).unwrap_or(0);
        self.seconds(index) / self.best()
    }

    /// Prediction / measurement - 1 of `mode`.
    fn error(&self, mode: usize) -> f64 {
        self.predicted[mode] * 1e-6 / self.seconds(mode) - 1.0
    }
}

fn measure_point(tools: &Tools, config: Config, bytes: usize, ranks: usize) -> Result<Point> {
    let elements = bytes / 4;
    let iters = iterations(config.iters, bytes, ranks);
    let warmup = warmups(config, bytes, ranks);
    let mut predicted = Vec::new();
    let mut chosen = String::new();
    let mut defaults_chose = String::new();
    let paths = MODES
        .iter()
        .map(|mode| {
            tools.write(
                &format!("{mode}_{ranks}_{bytes}.mlir"),
                &kernel(mode, elements, ranks),
            )
        })
        .collect::<Result<Vec<_>>>()?;
    let measured = tools.interleaved_times(&paths, ranks, iters, warmup, rounds(bytes))?;
    for mode in MODES {
        // The ring's prediction comes from a ring-shaped signal, the other
        // two (and the choice) from a mesh-shaped one.
        if mode != "two_shot" {
            let auto = tools.write("auto.mlir", &auto_kernel(mode, elements, ranks))?;
            let (choice, times) = tools.predict(&auto)?;
            if mode == "mesh" {
                chosen = choice;
                defaults_chose = tools.predict_with(&auto, None)?.0;
            }
            predicted.extend(times);
        }
    }
    let find = |m: &str| predicted.iter().find(|(k, _)| k == m).map(|(_, t)| *t);
    let predicted = MODES
        .iter()
        .map(|m| find(m).ok_or_else(|| format!("no prediction for {m}")))
        .collect::<Result<Vec<f64>>>()?;
    Ok(Point {
        bytes,
        ranks,
        paths,
        measured,
        second_look: false,
        predicted,
        chosen,
        defaults_chose,
    })
}

/// Rounds of the second look at a point.
const SECOND_LOOK_ROUNDS: usize = 2;

/// A point whose auto choice measured more than 10 % slower than the best
/// schedule is measured again: every mode in [`SECOND_LOOK_ROUNDS`] more
/// processes, taken in turn, each mode keeping its fastest process over
/// both looks. A choice that is really slower stays slower; one that lost
/// to a disturbed minute of the machine (single processes of one point
/// moved by 20 to 50 % between sweeps) gets the chance the others had.
fn second_look(tools: &Tools, config: Config, point: &mut Point) -> Result<()> {
    let iters = iterations(config.iters, point.bytes, point.ranks);
    let warmup = warmups(config, point.bytes, point.ranks);
    let again =
        tools.interleaved_times(&point.paths, point.ranks, iters, warmup, SECOND_LOOK_ROUNDS)?;
    for (kept, new) in point.measured.iter_mut().zip(again) {
        if new.best() < kept.best() {
            *kept = new;
        }
    }
    point.second_look = true;
    Ok(())
}

const HEADER: [&str; 15] = [
    "size", "P", "mesh", "two_shot", "ring", "iqr m", "iqr 2", "iqr r", "pred m", "pred 2",
    "pred r", "err m", "err 2", "err r", "auto",
];

fn print_header() {
    let h = HEADER;
    println!(
        "  {:>7} {:>2}  {:>10} {:>10} {:>10}  {:>5} {:>5} {:>5}  {:>10} {:>10} {:>10}  {:>5} {:>5} {:>5}  {:<8} {:>5}  {:<8} {:>5}",
        h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7], h[8], h[9], h[10], h[11], h[12], h[13], h[14], "/best",
        "defaults", "/best"
    );
}

fn print_point(p: &Point) {
    let percent = |x: f64| format!("{:.0}%", x * 100.0);
    let signed = |x: f64| format!("{:+.0}%", x * 100.0);
    let m = &p.measured;
    println!(
        "  {:>7} {:>2}  {:>10} {:>10} {:>10}  {:>5} {:>5} {:>5}  {:>10} {:>10} {:>10}  {:>5} {:>5} {:>5}  {:<8} {:>5.2}  {:<8} {:>5.2}{}",
        size(p.bytes),
        p.ranks,
        fmt(m[0].best()),
        fmt(m[1].best()),
        fmt(m[2].best()),
        percent(m[0].spread()),
        percent(m[1].spread()),
        percent(m[2].spread()),
        fmt(p.predicted[0] * 1e-6),
        fmt(p.predicted[1] * 1e-6),
        fmt(p.predicted[2] * 1e-6),
        signed(p.error(0)),
        signed(p.error(1)),
        signed(p.error(2)),
        p.chosen,
        p.auto_ratio(),
        p.defaults_chose,
        p.ratio(&p.defaults_chose),
        if p.second_look { "  (second look)" } else { "" }
    );
}

pub fn run(config: Config) -> Result {
    let mut tools = Tools::new("algorithms")?;
    if tools.model.is_none() {
        // The built-in defaults were fitted on another machine: a sweep
        // that used them would check that machine's figures against this
        // one's times. Each point also shows what the defaults choose.
        println!(
            "  no $PLD_COST_MODEL: calibrating this machine first (as `pld-bench calibrate` does); \
             the sweep predicts and chooses with that model"
        );
        let model = tools.dir.join("pld-cost-model.toml");
        crate::calibrate::calibrate(&tools, config, &model)?;
        tools.model = Some(model);
    }
    // A model pld-opt refuses is said now, not after a first point's runs.
    let probe = tools.write("model-probe.mlir", &auto_kernel("mesh", 1024, 2))?;
    tools
        .predict(&probe)
        .map_err(|e| format!("the cost model is refused: {e}"))?;
    println!("  {}", tools.describe());
    println!(
        "  InCore f32 sum; kernel time: the minimum of --iters {} timed runs in one pld-run process \
         (fewer for large calls, at least 3), after 1 to 3 warm-up runs; a point whose choice is more \
         than 10% off the best is measured a second time, every mode, and marked; \
         iqr = interquartile range / median; \
         err = predicted / measured - 1; /best = the auto choice's time over the best measured; \
         defaults = what the built-in defaults would choose, and its /best",
        config.iters
    );
    print_header();
    let started = Instant::now();
    let (sizes, ranks) = sweep(config.quick);
    let mut points = Vec::new();
    for &p in &ranks {
        for &bytes in &sizes {
            let mut point = measure_point(&tools, config, bytes, p)?;
            if point.auto_ratio() > 1.10 {
                second_look(&tools, config, &mut point)?;
            }
            print_point(&point);
            points.push(point);
        }
    }
    summary(&points);
    println!("  the sweep took {}", fmt(started.elapsed().as_secs_f64()));
    Ok(())
}

fn summary(points: &[Point]) {
    let total = points.len() * MODES.len();
    let within = points
        .iter()
        .flat_map(|p| (0..MODES.len()).map(move |i| p.error(i)))
        .filter(|e| e.abs() <= 0.25)
        .count();
    let auto_ok = points.iter().filter(|p| p.auto_ratio() <= 1.10).count();
    let mut spreads: Vec<f64> = points
        .iter()
        .flat_map(|p| p.measured.iter().map(Timing::spread))
        .collect();
    spreads.sort_by(f64::total_cmp);
    let worst = points.iter().map(Point::auto_ratio).fold(0.0f64, f64::max);
    let defaults_ok = points
        .iter()
        .filter(|p| p.ratio(&p.defaults_chose) <= 1.10)
        .count();
    println!(
        "  predictions within 25%: {within} of {total}; auto within 10% of the best measured: {auto_ok} of {} \
         (worst {worst:.2}x); iqr / median: median {:.0}%, largest {:.0}%",
        points.len(),
        spreads.get(spreads.len() / 2).copied().unwrap_or(0.0) * 100.0,
        spreads.last().copied().unwrap_or(0.0) * 100.0
    );
    println!(
        "  the built-in defaults' choice within 10% of the best measured: {defaults_ok} of {}",
        points.len()
    );
    let choosable_ok = points
        .iter()
        .filter(|p| p.candidate_ratio() <= 1.10)
        .count();
    println!(
        "  auto within 10% of the best it could choose (mesh or two_shot: the ring needs a \
         signal of its own shape): {choosable_ok} of {}",
        points.len()
    );
    let looked = points.iter().filter(|p| p.second_look).count();
    if looked > 0 {
        println!(
            "  measured a second time (the choice was more than 10% off the best at first): \
             {looked} of {}",
            points.len()
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 16 KiB on 2 ranks as the session-10 sweep measured it: the mesh
    /// chosen, 1.13x the two-shot and 1.07x the ring; against what the
    /// call could choose, 1.13x.
    #[test]
    fn the_choice_is_judged_against_all_and_against_the_choosable() {
        let timing = |min: f64| Timing {
            min,
            q1: min,
            median: min,
            q3: min,
            max: min,
            runs: 1,
        };
        let point = |chosen: &str, times: [f64; 3]| Point {
            bytes: 16 << 10,
            ranks: 2,
            paths: Vec::new(),
            measured: times.iter().map(|t| timing(*t)).collect(),
            second_look: false,
            predicted: vec![0.0; 3],
            chosen: chosen.into(),
            defaults_chose: chosen.into(),
        };
        let p = point("mesh", [10.3e-6, 9.1e-6, 9.6e-6]);
        assert!((p.auto_ratio() - 10.3 / 9.1).abs() < 1e-9);
        assert!((p.candidate_ratio() - 10.3 / 9.1).abs() < 1e-9);
        // The ring fastest: two-shot chosen is 1.2x the best measured but
        // the best it could choose.
        let p = point("two_shot", [12.0e-6, 10.8e-6, 9.0e-6]);
        assert!((p.auto_ratio() - 1.2).abs() < 1e-9);
        assert!((p.candidate_ratio() - 1.0).abs() < 1e-9);
    }
}
