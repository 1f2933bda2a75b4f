//! Issue 14, item 5, for the builtin kernels: every shipped builtin variant
//! family (`indexed_all_to_all_v`'s URMA kernel: `explore_indexed.rs`)
//! reports no race, missing fence, mixed notify, never-notified wait,
//! deadlock or credit leak over 200 explorer schedules for each P in
//! {2, 3, 4, 8}, and computes what the goldens of
//! `pld_sim::program::golden::reference` say (the cases of
//! `common/builtins.rs`, shared with `builtins.rs`, on small shapes).
//!
//! Every schedule runs two calls back to back, so the second call reuses
//! the signal the first gave back. Across the seeds of one family the cases
//! rotate through its dtypes, reduce ops, roots, count matrices and
//! `core_num`s, so every compiled variant of a family is explored too,
//! each under fewer seeds.

mod common {
    pub mod builtins;
}

use common::builtins::*;
use pld_dialect::enums::ReduceOp;
use pld_sim::program::builtins::{BuiltinRun, Scalar, TensorArg};
use pld_sim::{CommDomain, Finding, RankEnv, Schedule};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// Largest first: the workers end on the quick ones.
const RANKS: [usize; 4] = [8, 4, 3, 2];
/// Schedules per family and P (seeds `0..SCHEDULES`).
const SCHEDULES: u64 = 200;

/// Runs `case(P, mode)` for every P of [`RANKS`] and every seed, on as
/// many threads as there are cores (each schedule runs one simulated
/// thread at a time), and fails with every failing (P, seed), each with
/// its report.
fn explore(case: impl Fn(usize, Mode) -> Result<(), String> + Sync) {
    let jobs: Vec<(usize, u64)> = RANKS
        .iter()
        .flat_map(|&p| (0..SCHEDULES).map(move |seed| (p, seed)))
        .collect();
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(&(ranks, seed)) = jobs.get(i) else {
                    break;
                };
                let calls = 2;
                if let Err(e) = case(ranks, Mode::explored(calls, seed)) {
                    failures.lock().unwrap().push((i, e));
                }
            });
        }
    });
    let mut failures = failures.into_inner().unwrap();
    failures.sort();
    let reports: Vec<String> = failures.into_iter().map(|(_, e)| e).collect();
    assert!(
        reports.is_empty(),
        "{} of {} schedules failed:\n{}",
        reports.len(),
        jobs.len(),
        reports.join("\n")
    );
}

fn seed(mode: Mode) -> u64 {
    mode.schedule.expect("an explored mode").seed
}

/// What the mesh and two-shot allreduces compile: every dtype and reduce op.
const MESH: [(Dt, ReduceOp); 8] = [
    (Dt::F32, ReduceOp::Sum),
    (Dt::F16, ReduceOp::Sum),
    (Dt::F32, ReduceOp::Max),
    (Dt::F16, ReduceOp::Max),
    (Dt::F32, ReduceOp::Min),
    (Dt::F16, ReduceOp::Min),
    (Dt::F32, ReduceOp::Prod),
    (Dt::F16, ReduceOp::Prod),
];

#[test]
fn mesh_allreduce() {
    // Two tiles (the second partial), on one block or split over two.
    explore(|ranks, mode| {
        let s = seed(mode);
        let (dt, op) = MESH[(s % 8) as usize];
        let core_num = 1 + (s / 8 % 2) as usize;
        mesh_case(dt, op, ranks, 300, core_num, mode)
    });
}

#[test]
fn two_shot_allreduce() {
    // 300 elements (ragged segments, one partial tile each), 257 (the last
    // segment padded), on one block or split over two.
    explore(|ranks, mode| {
        let s = seed(mode);
        let (dt, op) = MESH[(s % 8) as usize];
        let core_num = 1 + (s / 8 % 2) as usize;
        let numel = if (s / 16).is_multiple_of(2) { 300 } else { 257 };
        lanes_case(Lanes::TwoShot, dt, op, ranks, numel, core_num, mode)
    });
}

/// Without its done barrier the two-shot kernel lets a rank that goes on
/// to its next call overwrite its segment while a peer still gathers it:
/// within 100 schedules the explorer finds the race, or a peer gathers the
/// next call's input (a wrong result).
#[test]
fn a_two_shot_without_its_done_barrier_races() {
    let found = (0..100).find_map(|seed| {
        let broken = Lanes::BrokenTwoShot("two_shot_no_done");
        let mode = Mode::explored(2, seed);
        lanes_case(broken, Dt::F32, ReduceOp::Sum, 3, 300, 1, mode).err()
    });
    let report = found.expect("a finding within 100 schedules");
    let race = report.contains("finding") && report.to_lowercase().contains("race");
    let wrong = report.contains(", want ");
    assert!(race || wrong, "{report}");
}

#[test]
fn ring_allreduce() {
    // A chunk per rank that is not a tile multiple, or one element.
    explore(|ranks, mode| {
        let s = seed(mode);
        let per_rank = if s % 4 == 3 { 1 } else { 67 };
        ring_case(ranks, ranks * per_rank, mode)
    });
}

#[test]
fn barrier() {
    explore(barrier_case);
}

#[test]
fn broadcast() {
    explore(|ranks, mode| broadcast_case(ranks, seed(mode) as usize % ranks, 100, mode));
}

#[test]
fn allgather() {
    explore(|ranks, mode| gather_case(true, ranks, 40, mode));
}

#[test]
fn reduce_scatter() {
    explore(|ranks, mode| reduce_scatter_case(ranks, 40, mode));
}

#[test]
fn reduce() {
    explore(|ranks, mode| reduce_case(ranks, ranks / 2, 40, mode));
}

#[test]
fn all_to_all() {
    explore(|ranks, mode| gather_case(false, ranks, 40, mode));
}

#[test]
fn all_to_all_v() {
    // One block, and launches of several (core_num 2 and 5: B = 2 and
    // P * ceil(5 / P) lanes), over every count matrix of spec 12.
    const COUNTS: [Counts; 5] = [
        Counts::ZeroAndFull,
        Counts::OneAndFull,
        Counts::OverCapacity,
        Counts::Negative,
        Counts::Default,
    ];
    explore(|ranks, mode| {
        let s = seed(mode);
        let dt = if s.is_multiple_of(2) { Dt::F32 } else { Dt::I8 };
        let counts = COUNTS[(s / 2 % 5) as usize];
        let core_num = [1, 2, 5][(s % 3) as usize];
        a2av_case(dt, ranks, counts, core_num, mode)
    });
}

/// The same checks fail, under the explorer, on the templates broken on
/// purpose (runtime-sys/build.rs): a wait for a credit nobody sends is an
/// exact deadlock, a credit given back short a leak, a skipped peer a
/// wrong result.
#[test]
fn broken_templates_fail_the_same_checks_under_the_explorer() {
    for seed in 0..5 {
        let schedule = Some(Schedule { seed });
        let ranks = 2;
        let domain = CommDomain::new(ranks, 32).unwrap();
        let run = BuiltinRun {
            variant: "broken.deadlock.builtin.tensor.barrier__fp32",
            tensors: &[TensorArg::new(0, &[ranks as u32], 4)],
            scalars: &[Scalar::Ranks, Scalar::Context],
            calls: 1,
            aiv_limit: AIV_CORES,
            // Exact in explore mode: the deadline never runs out first.
            deadline: Duration::from_secs(60),
            record_remote_writes: false,
            launch: None,
        };
        let run = execute("deadlock", &run, &domain, None, None, schedule).unwrap();
        let report = run.outcome.deadlock.as_ref().expect("a deadlock report");
        assert_eq!(report.blocked.len(), ranks, "seed {seed}: {report}");

        let wrong = broken_allreduce(
            "broken.skip_last_peer.builtin.tensor.allreduce__sum__fp32",
            schedule,
        );
        assert!(wrong.contains("element"), "{wrong}");
        let leak = broken_allreduce("broken.leak.builtin.tensor.allreduce__sum__fp32", schedule);
        assert!(leak.contains("credit leak"), "{leak}");
    }
}

/// The checker sees the builtins' copies: an all_to_all_v whose target is
/// its input, so that a peer's rows land where this rank still reads the
/// rows it sends, races, and some of 20 schedules find it.
#[test]
fn an_all_to_all_v_writing_over_its_own_input_races() {
    let ranks = 2;
    let a = a2av_layout(Dt::F32, ranks, 1);
    let mut tensors = a2av_tensors(&a, Dt::F32, ranks);
    tensors[1].offset = tensors[0].offset;
    let before = |env: RankEnv<'_>, _call: usize| {
        write(
            env.domain,
            env.rank,
            a.send,
            &i32s(&vec![MAX_RECV as i64; ranks]),
        );
    };
    let mut races = Vec::new();
    for seed in 0..20 {
        let domain = CommDomain::new(ranks, a.size).unwrap();
        let run = BuiltinRun {
            variant: "builtin.tensor.all_to_all_v__fp32",
            tensors: &tensors,
            scalars: &[Scalar::Context, Scalar::Value(1)],
            calls: 1,
            aiv_limit: AIV_CORES,
            deadline: DEADLINE,
            record_remote_writes: false,
            launch: None,
        };
        let schedule = Some(Schedule { seed });
        let run = execute("aliased", &run, &domain, Some(&before), None, schedule).unwrap();
        let o = &run.outcome;
        assert!(
            o.deadlock.is_none() && o.errors.is_empty(),
            "seed {seed}: {o:?}"
        );
        races.extend(
            o.findings
                .iter()
                .filter(|f| matches!(f, Finding::Race { .. }))
                .map(|f| f.to_string()),
        );
    }
    assert!(!races.is_empty(), "no schedule found the race");
    assert!(
        races.iter().all(|r| r.contains("all_to_all_v__fp32")),
        "{races:?}"
    );
}
