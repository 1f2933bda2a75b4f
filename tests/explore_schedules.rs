//! The protocol explorer takes the same schedules for the same seeds from
//! one build to the next: for a set of kernels and programs (the broken
//! corpus of `tests/explore/`, the examples, the kernels `pld-bench
//! explore` times) and seeds, `pld-run --explore K --schedule-log` writes
//! each schedule's steps, the digest of its scheduling decisions and its
//! findings' keys, and they must equal `tests/explore/schedules.txt`.
//!
//! That file was written by the explorer that handed the turn from OS
//! thread to OS thread (before agents became fibers of one thread), and is
//! never rewritten by this test unless asked to: `PLD_RECORD_SCHEDULES=1`
//! records what the build under test does instead of comparing (for a
//! deliberate change of the schedules, to be reviewed as such).

use std::path::{Path, PathBuf};
use std::process::Command;

/// `pld-run` arguments of each case (paths from the workspace root), and
/// how many schedules from seed 0.
const CASES: &[(&str, usize)] = &[
    (
        "tests/explore/async-event-never-waited.pto.mlir --ranks 2",
        8,
    ),
    (
        "tests/explore/async-get-destination-read-before-wait.pto.mlir --ranks 2",
        8,
    ),
    (
        "tests/explore/async-plain-source-reused-before-wait.pto.mlir --ranks 2",
        8,
    ),
    ("tests/explore/async-put-waited.pto.mlir --ranks 2", 8),
    ("tests/explore/async-read-before-wait.pto.mlir --ranks 2", 8),
    (
        "tests/explore/async-source-reused-before-wait.pto.mlir --ranks 2",
        8,
    ),
    ("tests/explore/epilogue-forgets-a-row.mlir --ranks 3", 8),
    ("tests/explore/missing-fence.pto.mlir --ranks 2", 8),
    ("tests/explore/rank-dependent-wait.mlir --ranks 3", 8),
    ("tests/explore/remote-load-without-wait.mlir --ranks 2", 8),
    ("tests/explore/scalar-read-before-wait.mlir --ranks 2", 8),
    ("tests/explore/set-and-add-mixed.mlir --ranks 2", 8),
    (
        "tests/explore/signal-index-past-its-shape.mlir --ranks 2",
        8,
    ),
    ("tests/explore/wait-one-credit-too-many.mlir --ranks 3", 8),
    // The composite allreduce pld-bench explore times, on 2, 4, 8 ranks.
    (
        "examples/allreduce.mlir --kernel reduce_kernel --ranks 2",
        6,
    ),
    (
        "examples/allreduce.mlir --kernel reduce_kernel --ranks 4",
        4,
    ),
    (
        "examples/allreduce.mlir --kernel reduce_kernel --ranks 8",
        2,
    ),
    // Whole programs: builtin kernels with their AIV blocks, CHIP tasks.
    ("examples/allreduce.mlir --ranks 2", 4),
    ("examples/allreduce.mlir --ranks 4", 2),
    ("examples/all_to_all.mlir --ranks 4", 4),
    ("examples/all_to_all_v.mlir --ranks 4", 4),
    ("examples/allgather.mlir --ranks 4", 4),
    ("examples/barrier.mlir --ranks 4", 4),
    ("examples/broadcast.mlir --ranks 4", 4),
    ("examples/chip_all_to_all_v.mlir --ranks 2", 4),
    ("examples/chip_indexed_all_to_all_v.mlir --ranks 2", 4),
    ("examples/reduce.mlir --ranks 2", 4),
    ("examples/reduce_scatter.mlir --ranks 4", 4),
    ("examples/ring_allreduce.mlir --ranks 4", 4),
    ("examples/two_domains.mlir --ranks 4", 2),
    ("examples/shard.mlir --ranks 8", 2),
];

const EXPECTED: &str = "tests/explore/schedules.txt";

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the workspace")
        .to_path_buf()
}

/// The schedule log of one case, under a `== ARGS` header.
fn explore(case: &str, schedules: usize, dir: &Path, index: usize) -> String {
    let mode = ["--explore".to_string(), schedules.to_string()];
    let log = schedule_log(case, &mode, dir, index);
    format!("== {case} (--explore {schedules})\n{log}")
}

/// `pld-run ARGS MODE --schedule-log`: the log it wrote.
fn schedule_log(case: &str, mode: &[String], dir: &Path, index: usize) -> String {
    let root = workspace();
    let mut args = case.split_whitespace();
    // Relative to the workspace: findings name the file as given.
    let file = args.next().expect("a file");
    let log = dir.join(format!("case{index}.log"));
    let output = Command::new(env!("CARGO_BIN_EXE_pld-run"))
        .current_dir(&root)
        .arg(file)
        .args(args)
        .args(mode)
        .args(["--deadline", "30"])
        .arg("--schedule-log")
        .arg(&log)
        .output()
        .expect("pld-run runs");
    // Clean (0), a finding (1) or a deadlock (3): never a crash.
    let status = output.status.code();
    assert!(
        matches!(status, Some(0 | 1 | 3)),
        "{case}: status {status:?}\n{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    std::fs::read_to_string(&log).unwrap_or_else(|e| panic!("{case}: no log: {e}"))
}

#[test]
fn the_same_seeds_take_the_same_schedules() {
    let dir = std::env::temp_dir().join(format!("pld-schedules-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let got: String = CASES
        .iter()
        .enumerate()
        .map(|(i, (case, schedules))| explore(case, *schedules, &dir, i))
        .collect();
    let _ = std::fs::remove_dir_all(&dir);
    let expected_path = workspace().join(EXPECTED);
    if std::env::var_os("PLD_RECORD_SCHEDULES").is_some() {
        std::fs::write(&expected_path, &got).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&expected_path).unwrap();
    for (want, have) in expected.split("== ").zip(got.split("== ")) {
        assert_eq!(want, have, "the schedules differ from {EXPECTED}");
    }
    assert_eq!(expected, got, "the schedules differ from {EXPECTED}");
}

#[test]
fn a_replayed_seed_takes_its_recorded_schedule() {
    let expected = std::fs::read_to_string(workspace().join(EXPECTED)).unwrap();
    let dir = std::env::temp_dir().join(format!("pld-replays-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut replayed = 0;
    for (index, section) in expected.split("== ").skip(1).enumerate() {
        let case = section.split(" (--explore").next().unwrap();
        // The broken corpus: seed 5 of each, alone.
        if !case.starts_with("tests/explore/") {
            continue;
        }
        let want = section
            .lines()
            .find(|l| l.starts_with("seed 5 "))
            .expect("seed 5 was recorded");
        let mode = ["--replay".to_string(), "5".to_string()];
        let got = schedule_log(case, &mode, &dir, index);
        assert_eq!(got.trim_end(), want, "{case} --replay 5");
        replayed += 1;
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(replayed, 14);
}
