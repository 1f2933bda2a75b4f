//! `explore`: what the protocol explorer (issue 14, `pld-run --explore`)
//! costs over a plain run of the same kernel: a composite mesh allreduce
//! (`@reduce_kernel` of `examples/allreduce.mlir`, 4096 FP32, an InCore
//! kernel) and the builtin allreduce of the HOST rail on the same 4096
//! FP32 (a HOST program the bench writes), on 2, 4 and 8 simulated ranks.
//!
//! The anchor is the plain run, measured in the same run: `pld-run --iters
//! 10` (its per-run mean: the kernel's `finished in`, the program's `run`
//! phase), against `pld-run --explore 100` (100 schedules, seeds apart;
//! its total divided by 100, so that the explorer's start, some 0.2 ms
//! per process, is spread as over a real exploration). Both times are `pld-run`'s own, so compiling the
//! kernel does not count; both include setting up fresh windows per run.
//! The second anchor is the same schedules with the explorer's agents as
//! OS threads that hand the turn on through condition variables
//! (`PLD_EXPLORE_THREADS=1`, how explore mode ran before its agents became
//! fibers of one thread). Each of the `min(--runs, 5)` processes per mode
//! is one sample; the table shows the medians, explore / plain, explore /
//! threads, the scheduling decisions (steps) per schedule and the time per
//! step both ways. A schedule with a finding fails the benchmark (the
//! shipped kernels must be clean), and so do seeds whose steps differ
//! between threads and fibers.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use crate::harness::{
    display_path, format_duration, parse_duration, pld_binary, workspace_path, Config, Result,
    Stats,
};

/// Plain runs inside one `pld-run` process.
const REPETITIONS: usize = 10;
/// Schedules inside one `pld-run --explore` process: enough that the
/// explorer's start (some 0.2 ms per process: the agents' stacks, the
/// checker, the first schedule's page faults) does not count as part of
/// every step (with 10 schedules it was a third of the composite
/// allreduce's time per step on 2 ranks, 20 steps a schedule).
const SCHEDULES: usize = 100;
const RANKS: [usize; 3] = [2, 4, 8];

/// The builtin allreduce on the HOST rail: the program allocates the
/// window, dispatches a CHIP step that leaves it alone (an allocation must
/// reach a dispatch) and allreduces it.
const HOST_ALLREDUCE: &str = r#"!data = tensor<1x4096xf32, #pld.dist>

func.func @chip_step(%data: !data) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}

func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bytes = arith.constant 16384 : i64
  %ws = "pld.system_world_size"() : () -> i64
  %devices = arith.index_cast %ws : i64 to index
  %buf = "pld.tensor_alloc_window_buffer"(%bytes) {name = "data_buf"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%buf) : (!pld.ptr) -> !data
  scf.for %r = %c0 to %devices step %c1 {
    "pld.dispatch"(%r) ({
      func.call @chip_step(%data) : (!data) -> ()
      gpu.yield
    }) : (index) -> ()
  }
  %sum = "pld.tensor_allreduce"(%data) {op = #pld.reduce_op<"sum">} : (!data) -> !data
  return
}
"#;

/// One kernel the bench times.
struct Case {
    label: &'static str,
    file: PathBuf,
    /// `--kernel` (an InCore kernel); `None` runs the HOST program.
    kernel: Option<&'static str>,
}

/// The first word after `marker` on a line that has it, as a duration
/// (trailing `,` and `)` dropped).
fn duration_after(stdout: &str, marker: &str) -> Option<Duration> {
    stdout.lines().find_map(|l| {
        let word = l.split(marker).nth(1)?.split_whitespace().next()?;
        parse_duration(word.trim_end_matches([',', ')']))
    })
}

/// A plain run's time per run: a kernel's `finished in X (kernels ..)
/// (the mean of N runs ..)`, or a program's `phases: .. run X (mean)`.
fn plain_time(stdout: &str, program: bool) -> Option<Duration> {
    if program {
        duration_after(stdout, " run ")
    } else {
        duration_after(stdout, "finished in ")
    }
}

/// An explore run's `N schedules explored (seeds a to b) in T, S steps each
/// on average: no race, ..`: T and S, when every schedule was clean.
fn explored(stdout: &str) -> Option<(Duration, u64)> {
    let line = stdout
        .lines()
        .find(|l| l.contains("schedules explored") && l.contains(": no race"))?;
    let rest = line.split(") in ").nth(1)?;
    let (time, rest) = rest.split_once(" (")?;
    let rest = rest.split_once("), ")?.1;
    let steps = rest.split_once(" steps each")?.0.parse().ok()?;
    let time = parse_duration(time)?;
    Some((time, steps))
}

/// Runs `pld-run` on `case` with `args`; `threads` selects the explorer's
/// hand-over between OS threads (`PLD_EXPLORE_THREADS=1`) instead of
/// fibers.
fn pld_run(
    binary: &Path,
    case: &Case,
    ranks: usize,
    args: &[String],
    threads: bool,
) -> Result<String> {
    let mut command = Command::new(binary);
    if threads {
        command.env("PLD_EXPLORE_THREADS", "1");
    } else {
        command.env_remove("PLD_EXPLORE_THREADS");
    }
    command
        .arg(&case.file)
        .args(["--ranks", &ranks.to_string()]);
    if let Some(kernel) = case.kernel {
        command.args(["--kernel", kernel]);
    }
    let output = command
        .args(args)
        .output()
        .map_err(|e| format!("cannot run pld-run: {e}"))?;
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    if !output.status.success() {
        return Err(format!(
            "pld-run failed on {} P={ranks} ({}):\n{stdout}{}",
            case.label,
            output.status,
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    Ok(stdout)
}

/// One row of the table.
struct Row {
    plain: Stats,
    /// Explored schedules with the agents as OS threads, and as fibers.
    threads: Stats,
    fibers: Stats,
    steps: u64,
}

/// `SCHEDULES` schedules from seed `first`: the time per schedule and
/// the mean steps.
fn schedules(
    binary: &Path,
    case: &Case,
    ranks: usize,
    first: usize,
    threads: bool,
) -> Result<(Duration, u64)> {
    let first = first.to_string();
    let args = ["--explore", &SCHEDULES.to_string(), "--seed", &first].map(String::from);
    let out = pld_run(binary, case, ranks, &args, threads)?;
    let (total, steps) = explored(&out).ok_or_else(|| {
        format!(
            "{} P={ranks}: no clean explore summary in pld-run's output:\n{out}",
            case.label
        )
    })?;
    Ok((total / SCHEDULES as u32, steps))
}

fn measure(binary: &Path, case: &Case, ranks: usize, samples: usize) -> Result<Row> {
    let program = case.kernel.is_none();
    let (mut plain, mut threads, mut fibers) = (Vec::new(), Vec::new(), Vec::new());
    let mut steps = Vec::new();
    for sample in 0..samples {
        let mut args = vec!["--iters".to_string(), REPETITIONS.to_string()];
        if program {
            args.push("--stats".into());
        }
        let out = pld_run(binary, case, ranks, &args, false)?;
        plain.push(
            plain_time(&out, program)
                .ok_or_else(|| format!("no run time in pld-run's output:\n{out}"))?,
        );
        let first = sample * SCHEDULES;
        let (on_threads, steps_threads) = schedules(binary, case, ranks, first, true)?;
        let (on_fibers, steps_fibers) = schedules(binary, case, ranks, first, false)?;
        if steps_threads != steps_fibers {
            return Err(format!(
                "{} P={ranks}: seeds {first}.. took {steps_threads} steps on threads and \
                 {steps_fibers} on fibers: the schedules differ",
                case.label
            ));
        }
        threads.push(on_threads);
        fibers.push(on_fibers);
        steps.push(steps_fibers);
    }
    let stats = |samples: &[Duration]| Stats::from_samples(samples).ok_or("no samples");
    Ok(Row {
        plain: stats(&plain)?,
        threads: stats(&threads)?,
        fibers: stats(&fibers)?,
        steps: steps.iter().sum::<u64>() / steps.len().max(1) as u64,
    })
}

pub fn run(config: Config) -> Result {
    let binary = pld_binary("pld-run")?;
    println!("  pld-run: {}", display_path(&binary));
    let dir = std::env::temp_dir().join(format!("pld-bench-explore-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let host = dir.join("host_allreduce.mlir");
    let result = std::fs::write(&host, HOST_ALLREDUCE)
        .map_err(|e| format!("cannot write {}: {e}", host.display()))
        .and_then(|()| table(config, &binary, host));
    let _ = std::fs::remove_dir_all(&dir);
    result
}

fn table(config: Config, binary: &Path, host: PathBuf) -> Result {
    let cases = [
        Case {
            label: "composite allreduce (@reduce_kernel)",
            file: workspace_path("examples/allreduce.mlir"),
            kernel: Some("reduce_kernel"),
        },
        Case {
            label: "builtin allreduce (HOST rail)",
            file: host,
            kernel: None,
        },
    ];
    let samples = config.runs.clamp(1, 5);
    println!(
        "  4096 FP32 (sum); median of {} per mode, each {REPETITIONS} runs or {SCHEDULES} \
         schedules; times per run / schedule",
        match samples {
            1 => "1 pld-run process".to_string(),
            n => format!("{n} pld-run processes"),
        }
    );
    println!(
        "  anchors: the plain run of the same kernel, and the explorer handing the turn from \
         OS thread to OS thread (PLD_EXPLORE_THREADS=1, as before fibers)"
    );
    println!("  explore = one schedule with the checker, its agents fibers of one thread");
    println!();
    let width = cases.iter().map(|c| c.label.len()).max().unwrap_or(0);
    println!(
        "  {:<width$}  {:>2}  {:>10}  {:>10}  {:>10}  {:>13}  {:>15}  {:>6}  {:>9}  {:>10}  {:>9}",
        "kernel",
        "P",
        "plain",
        "threads",
        "explore",
        "explore/plain",
        "explore/threads",
        "steps",
        "per step",
        "over plain",
        "(threads)"
    );
    let (mut ratios, mut speedups, mut worst) = (Vec::new(), Vec::new(), Duration::ZERO);
    for case in &cases {
        for ranks in RANKS {
            let row = measure(binary, case, ranks, samples)?;
            let ratio = row.fibers.ratio_to(&row.plain);
            let speedup = row.fibers.ratio_to(&row.threads);
            ratios.push(ratio);
            speedups.push(speedup);
            let steps = row.steps.max(1) as u32;
            worst = worst.max(row.fibers.median / steps);
            // What a step adds to a plain run of the kernel (which pays
            // for the windows, the inputs and the threads too).
            let over = row.fibers.median.saturating_sub(row.plain.median) / steps;
            println!(
                "  {:<width$}  {ranks:>2}  {:>10}  {:>10}  {:>10}  {:>12.1}x  {:>14.2}x  {:>6}  \
                 {:>9}  {:>10}  {:>9}",
                case.label,
                format_duration(row.plain.median),
                format_duration(row.threads.median),
                format_duration(row.fibers.median),
                ratio,
                speedup,
                row.steps,
                format_duration(row.fibers.median / steps),
                format_duration(over),
                format_duration(row.threads.median / steps),
            );
        }
    }
    let range = |v: &[f64]| {
        let min = v.iter().copied().fold(f64::INFINITY, f64::min);
        let max = v.iter().copied().fold(0.0, f64::max);
        (min, max)
    };
    let (min, max) = range(&ratios);
    let (fast, slow) = range(&speedups);
    println!();
    println!(
        "  => one explored schedule costs {min:.1}x to {max:.1}x a plain run of the same kernel \
         and {fast:.2}x to {slow:.2}x the same schedule on threads; at most {} per step (every \
         schedule clean, the same steps either way)",
        format_duration(worst)
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_times_as_pld_run_prints_them() {
        let kernel = "@reduce_kernel on 8 ranks: finished in 740.8µs (kernels 558.0µs) (the mean \
                      of 10 runs after 0 warm-up runs)\n#  size ...";
        let near = |got: Option<Duration>, ns: u64| {
            got.is_some_and(|d| d.as_nanos().abs_diff(u128::from(ns)) <= 1)
        };
        assert!(near(plain_time(kernel, false), 740_800));
        let program = "@main on 4 devices: 1 collective call, finished in 84.8ms (10 runs, 0 \
                       warm-up; call times are the mean of 10)\n  phases: lower 40.6ms, compile \
                       15.6ms, plan 14.3ms, fill 8.2ms, run 963.0µs (mean), check 0.0ns";
        assert!(near(plain_time(program, true), 963_000));
        assert_eq!(plain_time("@main: finished in 1.2s", true), None);
    }

    #[test]
    fn explore_summaries_as_pld_run_prints_them() {
        let clean = "@reduce_kernel on 8 ranks: 10 schedules explored (seeds 0 to 9) in 104.0ms \
                     (96.2 schedules/s), 368 steps each on average: no race, missing fence, \
                     mixed notify, leak or deadlock";
        assert_eq!(explored(clean), Some((Duration::from_millis(104), 368)));
        let found = "schedule 3 (--replay 3): race: ...\n@k on 2 ranks: 10 schedules explored \
                     (seeds 0 to 9) in 4.0ms (2500.0 schedules/s): 1 finding (first seen with seed 3)";
        assert_eq!(explored(found), None);
    }
}
