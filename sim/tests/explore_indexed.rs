//! The protocol explorer on the URMA kernel of
//! `pld.tensor_indexed_all_to_all_v` (launched as the CHIP rail submits
//! it) and on three copies of it broken on purpose (runtime-sys's
//! `broken.*` variants, each one textual change of the real template):
//! signalling completion before waiting for the copies (a peer's read of
//! its target races with a copy in flight), never waiting (every event
//! leaks), and two blocks on one PER_PEER queue. Each defect is found
//! within 100 schedules and named; the real kernel is clean.

use pld_sim::program::builtins::{BuiltinRun, Scalar, TensorArg};
use pld_sim::{CommDomain, Finding, Outcome, RankEnv, Schedule};
use std::time::Duration;

const CAP: usize = 2;
const ROW: usize = 8;
const RANKS: usize = 3;

/// Byte offsets of the operands in every window, and of a scratch area.
struct Layout {
    input: usize,
    target: usize,
    signal: usize,
    send: usize,
    recv: usize,
    index: usize,
    scratch: usize,
    end: usize,
}

fn layout(lanes: usize) -> Layout {
    let data = RANKS * CAP * ROW * 4;
    let input = 0;
    let target = input + data;
    let signal = target + data;
    let send = signal + pld_sim::aligned(RANKS * lanes * 4);
    let recv = send + 32;
    let index = recv + 32;
    let scratch = index + pld_sim::aligned(RANKS * CAP * 4);
    Layout {
        input,
        target,
        signal,
        send,
        recv,
        index,
        scratch,
        end: scratch + data,
    }
}

fn le(values: impl Iterator<Item = i32>) -> Vec<u8> {
    values.flat_map(|v| v.to_le_bytes()).collect()
}

/// Runs `variant` launched on `blocks` blocks under schedule `seed`, each
/// rank reading its target through a copy after the call (a consumer).
fn explore(variant: &str, blocks: usize, seed: u64) -> Outcome {
    let l = layout(blocks);
    let domain = CommDomain::new(RANKS, l.end).unwrap();
    let tensors = [
        TensorArg::new(l.input, &[(RANKS * CAP) as u32, ROW as u32], 4),
        TensorArg::new(l.target, &[(RANKS * CAP) as u32, ROW as u32], 4),
        TensorArg::new(l.signal, &[RANKS as u32, blocks as u32], 4),
        TensorArg::new(l.send, &[RANKS as u32], 4),
        TensorArg::new(l.recv, &[RANKS as u32, 1], 4),
        TensorArg::new(l.index, &[(RANKS * CAP) as u32], 4),
    ];
    let before = |env: RankEnv, _call: usize| {
        let w = env.domain.window(env.rank);
        let rows = (RANKS * CAP * ROW) as i32;
        w.write(l.input, &le((0..rows).map(|i| i + 100 * env.rank as i32)));
        w.write(l.send, &le((0..RANKS).map(|_| CAP as i32)));
        w.write(l.index, &le((0..(RANKS * CAP) as i32).rev()));
    };
    let after = |env: RankEnv, _call: usize| {
        let w = env.domain.window(env.rank).base();
        // SAFETY: two blocks of this rank's window (the layout sizes it).
        unsafe {
            pld_sim::runtime::ffi::pld_sim_copy(
                w.add(l.scratch),
                ROW as i64,
                1,
                w.add(l.target),
                ROW as i64,
                1,
                (RANKS * CAP) as i64,
                ROW as i64,
                4,
                0,
            )
        };
    };
    let run = BuiltinRun {
        variant,
        tensors: &tensors,
        scalars: &[Scalar::Context, Scalar::Context, Scalar::Context],
        calls: 1,
        aiv_limit: 48,
        deadline: Duration::from_secs(10),
        record_remote_writes: false,
        launch: Some(blocks as i32),
    };
    run.execute_explored(
        &domain,
        Some(&before),
        Some(&after),
        Some(Schedule { seed }),
    )
    .expect("runs")
    .outcome
}

const REAL: &str = "builtin.tensor.indexed_all_to_all_v__fp32";

fn broken(tag: &str) -> String {
    format!("broken.{tag}.{REAL}")
}

/// The first seed below 100 whose findings satisfy `found`, with them.
fn first_found(
    variant: &str,
    blocks: usize,
    found: impl Fn(&Finding) -> bool,
) -> (u64, Vec<Finding>) {
    for seed in 0..100 {
        let outcome = explore(variant, blocks, seed);
        if outcome.findings.iter().any(&found) {
            return (seed, outcome.findings);
        }
    }
    panic!("{variant}: not found within 100 schedules");
}

#[test]
fn the_real_kernel_is_clean_with_its_consumer() {
    for blocks in [1, RANKS, 2 * RANKS + 1] {
        for seed in 0..60 {
            let outcome = explore(REAL, blocks, seed);
            assert!(outcome.ok(), "B={blocks} seed {seed}: {outcome:?}");
        }
    }
}

#[test]
fn completion_signalled_before_the_waits_is_a_race_with_the_copy() {
    let (seed, findings) = first_found(
        &broken("notify_before_wait"),
        RANKS,
        |f| matches!(f, Finding::Race { earlier, later, .. } if earlier.asynchronous && !later.asynchronous),
    );
    let text: Vec<String> = findings.iter().map(|f| f.to_string()).collect();
    assert!(
        text.iter().any(|t| t.contains("read bytes")
            && t.contains("written by rank")
            && t.contains("asynchronous copy by call in broken.notify_before_wait")),
        "seed {seed}: {text:?}"
    );
}

#[test]
fn copies_never_waited_for_are_leaked_events() {
    let (_, findings) = first_found(&broken("unwaited"), RANKS, |f| {
        matches!(f, Finding::UnwaitedCopy { .. })
    });
    let text = findings
        .iter()
        .find(|f| matches!(f, Finding::UnwaitedCopy { .. }))
        .unwrap()
        .to_string();
    assert!(text.starts_with("event never waited for: rank"), "{text}");
}

#[test]
fn two_blocks_serving_one_peer_share_its_queue() {
    let (_, findings) = first_found(&broken("shared_queue"), 2 * RANKS, |f| {
        matches!(f, Finding::SharedQueue { .. })
    });
    let text = findings
        .iter()
        .find(|f| matches!(f, Finding::SharedQueue { .. }))
        .unwrap()
        .to_string();
    assert!(
        text.starts_with("two writers on one PER_PEER queue: rank")
            && text.contains("URMA queue to rank"),
        "{text}"
    );
}
