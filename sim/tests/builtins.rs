//! The builtin kernels (rendered from builtins/templates and compiled by
//! runtime-sys's build script) run on N simulated ranks through their
//! entries, as HOST dispatches call them (spec 10.3, 11), checked against
//! the goldens of `pld_sim::program::golden::reference`, with every signal
//! cell back at zero afterwards (the cases are in `common/builtins.rs`,
//! shared with `explore_builtins.rs`).
//!
//! Each test runs its cases one after the other; a case stops at the first
//! problem and reports it with the case's parameters.

mod common {
    pub mod builtins;
}

use common::builtins::*;
use pld_dialect::enums::ReduceOp;
use pld_dialect::launch::all_to_all_v_blocks;
use pld_sim::program::builtins::{BuiltinRun, Hook, Scalar, TensorArg};
use pld_sim::{CommDomain, RankEnv};
use std::time::Duration;

const NUMELS: [usize; 7] = [1, 17, 255, 256, 257, 4127, 65537];
const RANKS: [usize; 5] = [1, 2, 3, 4, 8];
const CORES: [usize; 3] = [1, 2, 4];

/// Runs one call of `variant` on every rank of `domain` (its kernel itself
/// with `launch` blocks, or its entry) and checks that each rank refused
/// it: a fatal invalid-argument error naming `reason`, no deadlock, no
/// other error, no notify.
fn assert_refused(
    domain: &CommDomain,
    (variant, tensors, scalars, launch): (&str, &[TensorArg], &[Scalar], Option<i32>),
    before: Option<Hook<'_>>,
    reason: &str,
) {
    let run = BuiltinRun {
        variant,
        tensors,
        scalars,
        calls: 1,
        aiv_limit: AIV_CORES,
        deadline: DEADLINE,
        record_remote_writes: false,
        launch,
    }
    .execute(domain, before, None)
    .unwrap();
    let o = &run.outcome;
    assert!(
        o.deadlock.is_none() && o.errors.is_empty(),
        "{variant}: {o:?}"
    );
    assert_eq!(
        o.fatals.len(),
        domain.ranks(),
        "{variant}: {:?} {:?} {:?}",
        o.fatals,
        run.calls,
        o.counters
    );
    for f in &o.fatals {
        assert_eq!(f.code, 5, "{variant}: {f}");
        assert!(f.message.contains(reason), "{variant}: {f}");
    }
    for rank in 0..domain.ranks() {
        assert_eq!(o.counters[rank].notifies, 0, "{variant}: rank {rank}");
    }
}

fn mesh_matrix(dt: Dt, ops: &[ReduceOp]) {
    let mut cases = Vec::new();
    for &op in ops {
        for ranks in RANKS {
            for numel in NUMELS {
                for core_num in CORES {
                    cases.push(mesh_case(dt, op, ranks, numel, core_num, Mode::PLAIN));
                }
            }
        }
    }
    all(cases);
}

#[test]
fn mesh_allreduce_f32_sum_max() {
    mesh_matrix(Dt::F32, &[ReduceOp::Sum, ReduceOp::Max]);
}

#[test]
fn mesh_allreduce_f32_min_prod() {
    mesh_matrix(Dt::F32, &[ReduceOp::Min, ReduceOp::Prod]);
}

#[test]
fn mesh_allreduce_f16_sum_max() {
    mesh_matrix(Dt::F16, &[ReduceOp::Sum, ReduceOp::Max]);
}

#[test]
fn mesh_allreduce_f16_min_prod() {
    mesh_matrix(Dt::F16, &[ReduceOp::Min, ReduceOp::Prod]);
}

fn two_shot_matrix(dt: Dt, ops: &[ReduceOp]) {
    let mut cases = Vec::new();
    for &op in ops {
        for ranks in [1, 2, 3, 5, 8] {
            for numel in NUMELS {
                for core_num in CORES {
                    cases.push(lanes_case(
                        Lanes::TwoShot,
                        dt,
                        op,
                        ranks,
                        numel,
                        core_num,
                        Mode::PLAIN,
                    ));
                }
            }
        }
    }
    all(cases);
}

#[test]
fn two_shot_allreduce_f32() {
    two_shot_matrix(
        Dt::F32,
        &[ReduceOp::Sum, ReduceOp::Max, ReduceOp::Min, ReduceOp::Prod],
    );
}

#[test]
fn two_shot_allreduce_f16() {
    two_shot_matrix(
        Dt::F16,
        &[ReduceOp::Sum, ReduceOp::Max, ReduceOp::Min, ReduceOp::Prod],
    );
}

#[test]
fn two_shot_remote_bytes_by_hand() {
    // FP32 numel 17 on 2 ranks: A = 8, b = 0, 16, 17. Rank 0 reads its 16
    // elements (64 bytes) from rank 1, then rank 1's one element as 32
    // bytes; rank 1 reads its element as 32 bytes, then 64 bytes.
    assert_eq!(two_shot_remote_bytes(17, 4, 2, 0), 64 + 32);
    assert_eq!(two_shot_remote_bytes(17, 4, 2, 1), 32 + 64);
    // FP16 numel 600 on 3 ranks: A = 16, b = 0, 208, 400, 600; segments of
    // 208 (one tile, 416 bytes), 192 (384 bytes), 200 (400 -> 416 bytes).
    assert_eq!(two_shot_remote_bytes(600, 2, 3, 1), 2 * 384 + 416 + 416);
}

#[test]
fn mesh_remote_bytes_by_hand() {
    // numel 4127 FP32: 16 full tiles of 1024 bytes and a last tile of 31
    // elements loaded as 32 (128 bytes); from one peer.
    assert_eq!(mesh_remote_bytes(4127, 4, 2), 16 * 1024 + 128);
    // FP16 17 elements: 34 bytes, loaded as 64.
    assert_eq!(mesh_remote_bytes(17, 2, 3), 2 * 64);
}

#[test]
fn ring_allreduce() {
    let mut cases = Vec::new();
    for ranks in [2, 4, 8] {
        // One element per rank, a chunk that is not a tile multiple, and
        // chunks of several tiles.
        for per_rank in [1, 67, 600] {
            cases.push(ring_case(ranks, ranks * per_rank, Mode::PLAIN));
        }
    }
    all(cases);
}

#[test]
fn all_to_all_v_matrix() {
    let mut cases = Vec::new();
    for dt in [Dt::F32, Dt::I8] {
        for ranks in [2, 4] {
            for m in [
                Counts::ZeroAndFull,
                Counts::OneAndFull,
                Counts::OverCapacity,
                Counts::Negative,
                Counts::Default,
            ] {
                for core_num in [1, 2, 5, 10] {
                    cases.push(a2av_case(dt, ranks, m, core_num, Mode::PLAIN));
                }
            }
        }
    }
    all(cases);
}

/// Spec 8.2: a signal stride below B is rejected by the entry before
/// anything is submitted: a fatal invalid-argument error on every rank,
/// no hang, nothing written.
#[test]
fn all_to_all_v_rejects_a_narrow_signal() {
    let (ranks, core_num) = (4, 10);
    let blocks = all_to_all_v_blocks(ranks as i64, core_num).unwrap() as usize;
    assert_eq!(blocks, 8);
    let dt = Dt::F32;
    let a = a2av_layout(dt, ranks, blocks - 1);
    let domain = CommDomain::new(ranks, a.size).unwrap();
    let before = |env: RankEnv<'_>, _call: usize| {
        write(
            env.domain,
            env.rank,
            a.input,
            &vec![0x11; ranks * MAX_RECV * a.row * 4],
        );
        write(
            env.domain,
            env.rank,
            a.send,
            &i32s(&vec![MAX_RECV as i64; ranks]),
        );
    };
    let run = BuiltinRun {
        variant: "builtin.tensor.all_to_all_v__fp32",
        tensors: &a2av_tensors(&a, dt, ranks),
        scalars: &[Scalar::Context, Scalar::Value(core_num as u64)],
        calls: 1,
        aiv_limit: AIV_CORES,
        deadline: DEADLINE,
        record_remote_writes: false,
        launch: None,
    }
    .execute(&domain, Some(&before), None)
    .unwrap();
    let o = &run.outcome;
    assert!(o.deadlock.is_none() && o.errors.is_empty(), "{o:?}");
    assert_eq!(o.fatals.len(), ranks, "{:?}", o.fatals);
    for f in &o.fatals {
        assert_eq!(f.code, 5, "{f}");
        assert!(f.message.contains("S=7 < launched_core_num=8"), "{f}");
    }
    for (rank, calls) in run.calls.iter().enumerate() {
        assert_eq!(calls[0].status, 1, "rank {rank}");
        assert_eq!(o.counters[rank].notifies, 0, "rank {rank} touched a signal");
        assert!(o.logs[rank].is_empty(), "{:?}", o.logs[rank]);
        let target = read(&domain, rank, a.target, ranks * MAX_RECV * a.row * 4);
        assert!(target.iter().all(|&b| b == 0), "rank {rank} got data");
    }
    assert!(domain.leaks(a.signal, ranks * (blocks - 1)).is_empty());
}

/// Spec 8.2: a launch wider than the device is a sync-start admission
/// failure (code 7), naming B, not L; P=2, L=51 -> B=50 > 48.
#[test]
fn all_to_all_v_wider_than_the_device_fails_at_submit() {
    let (ranks, core_num) = (2, 51);
    let blocks = all_to_all_v_blocks(ranks as i64, core_num).unwrap() as usize;
    let a = a2av_layout(Dt::F32, ranks, blocks);
    let domain = CommDomain::new(ranks, a.size).unwrap();
    let run = BuiltinRun {
        variant: "builtin.tensor.all_to_all_v__fp32",
        tensors: &a2av_tensors(&a, Dt::F32, ranks),
        scalars: &[Scalar::Context, Scalar::Value(core_num as u64)],
        calls: 1,
        aiv_limit: AIV_CORES,
        deadline: DEADLINE,
        record_remote_writes: false,
        launch: None,
    }
    .execute(&domain, None, None)
    .unwrap();
    let o = &run.outcome;
    assert!(o.deadlock.is_none() && o.errors.is_empty(), "{o:?}");
    assert_eq!(o.fatals.len(), ranks);
    for f in &o.fatals {
        assert_eq!(f.code, 7);
        assert!(
            f.message
                .contains("require_sync_start block_num=50 > limit=48"),
            "{f}"
        );
    }
}

/// A kernel that cannot do its work says so: a fatal invalid-argument
/// error on every rank naming the reason, nothing written, no deadlock.
/// (Before, each of these returned quietly and left the data as it was.)
#[test]
fn a_kernel_that_refuses_its_call_says_why() {
    let refusals: [(&str, Vec<TensorArg>, Vec<Scalar>, &str); 3] = [
        (
            "builtin.tensor.barrier__fp32",
            vec![TensorArg::new(0, &[2], 4)],
            vec![Scalar::Value(65), Scalar::Context],
            "nranks is not in [1, 64]",
        ),
        (
            "builtin.tensor.reduce__max__fp32",
            vec![TensorArg::new(0, &[8], 4), TensorArg::new(32, &[2], 4)],
            vec![Scalar::Ranks, Scalar::Context, Scalar::Value(2)],
            "the root is not a rank",
        ),
        (
            "builtin.tensor.reduce_scatter__sum__fp32",
            vec![TensorArg::new(0, &[7], 4), TensorArg::new(32, &[2], 4)],
            vec![Scalar::Ranks, Scalar::Context],
            "not a positive multiple of nranks",
        ),
    ];
    for (variant, tensors, scalars, reason) in refusals {
        let domain = CommDomain::new(2, 64).unwrap();
        let before = |env: RankEnv<'_>, _call: usize| write(env.domain, env.rank, 0, &[0x5a; 28]);
        let call = (variant, tensors.as_slice(), scalars.as_slice(), None);
        assert_refused(&domain, call, Some(&before), reason);
        for rank in 0..2 {
            assert_eq!(
                read(&domain, rank, 0, 28),
                [0x5a; 28],
                "{variant}: rank {rank}"
            );
        }
    }
}

/// The indexed_all_to_all_v kernel names the operand it refuses: each
/// shape it cannot serve (2 ranks, an [8, 16] target: 4 rows per slot) is
/// refused once per rank, not once per block, with its own reason. (Before,
/// one message for all of them named the target, input and counts for a
/// short index, once per block.)
#[test]
fn the_indexed_kernel_names_the_operand_it_refuses() {
    let rows = |n: u32, width: u32| TensorArg::new(0, &[n, width], 4);
    let tensors = |input: TensorArg, index: &[u32], send: &[u32]| {
        vec![
            input,
            TensorArg::new(512, &[8, 16], 4),
            TensorArg::new(1024, &[2, 2], 4),
            TensorArg::new(1056, send, 4),
            TensorArg::new(1088, &[2, 1], 4),
            TensorArg::new(1120, index, 4),
        ]
    };
    let refusals = [
        (
            tensors(rows(8, 16), &[1], &[2]),
            "the index has fewer elements than the target has rows",
        ),
        (
            tensors(rows(8, 16), &[2, 3], &[2]),
            "the index has fewer elements",
        ),
        (
            tensors(rows(16, 8), &[8], &[2]),
            "the input's rows are not as wide as the target's",
        ),
        (
            tensors(rows(8, 16), &[8], &[1]),
            "send_counts has fewer rows than nranks",
        ),
    ];
    for (tensors, reason) in refusals {
        let domain = CommDomain::new(2, 1184).unwrap();
        let run = BuiltinRun {
            variant: "builtin.tensor.indexed_all_to_all_v__fp32",
            tensors: &tensors,
            scalars: &[Scalar::Context, Scalar::Context, Scalar::Context],
            calls: 1,
            aiv_limit: AIV_CORES,
            deadline: DEADLINE,
            record_remote_writes: false,
            launch: Some(2),
        }
        .execute(&domain, None, None)
        .unwrap();
        let o = &run.outcome;
        assert!(
            o.deadlock.is_none() && o.errors.is_empty(),
            "{reason}: {o:?}"
        );
        assert_eq!(o.fatals.len(), 2, "{reason}: {:?}", o.fatals);
        for f in &o.fatals {
            assert_eq!(f.code, 5, "{f}");
            assert!(f.message.starts_with(reason), "{reason}: {f}");
        }
    }
}

#[test]
fn barrier_broadcast_reduce_scatter_allgather_all_to_all() {
    let mut cases = Vec::new();
    for ranks in [2, 4] {
        cases.push(barrier_case(ranks, Mode::PLAIN));
        for root in 0..ranks {
            cases.push(broadcast_case(ranks, root, 300, Mode::PLAIN));
        }
        let m = 70;
        cases.push(reduce_scatter_case(ranks, m, Mode::PLAIN));
        for root in [0, ranks - 1] {
            cases.push(reduce_case(ranks, root, 300, Mode::PLAIN));
        }
        cases.push(gather_case(true, ranks, m, Mode::PLAIN));
        cases.push(gather_case(false, ranks, m, Mode::PLAIN));
    }
    all(cases);
}

// ---- templates broken on purpose -----------------------------------------

/// The test-only copies (runtime-sys/build.rs) are caught: a deadlock is
/// reported (and the run ends), a wrong result and a leaked credit fail
/// the checks. None of them hangs.
#[test]
fn broken_templates_are_caught() {
    // Waits for a credit nobody sends.
    let ranks = 2;
    let domain = CommDomain::new(ranks, 32).unwrap();
    let run = BuiltinRun {
        variant: "broken.deadlock.builtin.tensor.barrier__fp32",
        tensors: &[TensorArg::new(0, &[ranks as u32], 4)],
        scalars: &[Scalar::Ranks, Scalar::Context],
        calls: 1,
        aiv_limit: AIV_CORES,
        deadline: Duration::from_millis(200),
        record_remote_writes: false,
        launch: None,
    }
    .execute(&domain, None, None)
    .unwrap();
    let report = run.outcome.deadlock.as_ref().expect("a deadlock report");
    assert_eq!(report.blocked.len(), ranks, "{report}");
    for b in &report.blocked {
        assert_eq!(
            (b.block, b.expected, b.actual),
            (Some((0, 1)), 2, 1),
            "{report}"
        );
    }
    assert!(report.to_string().contains("block 0 of 1"), "{report}");

    // Folds in every rank but the last: mesh_case reports a wrong result.
    let wrong = broken_allreduce(
        "broken.skip_last_peer.builtin.tensor.allreduce__sum__fp32",
        None,
    );
    assert!(wrong.contains("element"), "{wrong}");
    // Gives back one credit too few: a leak.
    let leak = broken_allreduce("broken.leak.builtin.tensor.allreduce__sum__fp32", None);
    assert!(leak.contains("credit leak"), "{leak}");
}

/// A kernel launched with more blocks than its signal has lanes refuses
/// the call (once per rank) instead of leaving the share of the blocks
/// past the lanes unsent: all_to_all_v with S = 2 and B = 4 gave rank 1
/// nothing, exit 0, when launched without its entry (which checks S >= B
/// first), and indexed_all_to_all_v, which has no entry, with S = 1 and
/// B = 2 left rows out.
#[test]
fn a_kernel_with_fewer_lanes_than_blocks_refuses_its_call() {
    let ranks = 2;
    let a = a2av_layout(Dt::F32, ranks, 2);
    let indexed = vec![
        TensorArg::new(0, &[8, 16], 4),
        TensorArg::new(512, &[8, 16], 4),
        TensorArg::new(1024, &[2, 1], 4),
        TensorArg::new(1056, &[2], 4),
        TensorArg::new(1088, &[2, 1], 4),
        TensorArg::new(1120, &[8], 4),
    ];
    // (variant, tensors, scalars, blocks, window bytes)
    type Case = (&'static str, Vec<TensorArg>, Vec<Scalar>, i32, usize);
    let cases: [Case; 2] = [
        (
            "builtin.tensor.all_to_all_v__fp32",
            a2av_tensors(&a, Dt::F32, ranks),
            vec![Scalar::Context],
            4,
            a.size,
        ),
        (
            "builtin.tensor.indexed_all_to_all_v__fp32",
            indexed,
            vec![Scalar::Context, Scalar::Context, Scalar::Context],
            2,
            1184,
        ),
    ];
    for (variant, tensors, scalars, blocks, size) in cases {
        let domain = CommDomain::new(ranks, size).unwrap();
        let call = (
            variant,
            tensors.as_slice(),
            scalars.as_slice(),
            Some(blocks),
        );
        let reason = "the signal has fewer lanes (S) than the blocks launched";
        assert_refused(&domain, call, None, reason);
    }
}
