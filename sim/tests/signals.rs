//! The signal protocol on simulated ranks, driven through the device
//! functions exactly as compiled kernels call them: a barrier with its
//! epilogue leaves nothing behind, a missing epilogue is a credit leak, a
//! rank that waits for a notify nobody sends is a deadlock, and a slow but
//! live rank is not.

use pld_sim::runtime::ffi::{pld_sim_fence, pld_sim_notify, pld_sim_wait};
use pld_sim::{CellLeak, CommDomain, RankEnv, Run};
use std::time::{Duration, Instant};

const ADD: i32 = 0;
const GE: i32 = 1;
const SIGNAL: usize = 0; // byte offset of the [NR, 1] signal in every window

/// The i32 cell `index` of the signal in `rank`'s window, as a peer pointer.
fn cell(env: &RankEnv, rank: usize, index: usize) -> *mut i32 {
    // SAFETY: in bounds of the window (the tests size it).
    unsafe {
        env.domain
            .window(rank)
            .base()
            .add(SIGNAL + 4 * index)
            .cast()
    }
}

/// One barrier generation of docs/passes/pld-lower-composite-ops.md, "The comm prelude, the barrier and the epilogue": a credit into our cell on every peer,
/// then wait for every peer's credit in our own cells.
fn barrier(env: &RankEnv, generation: i32) {
    let ranks = env.domain.ranks();
    for peer in (0..ranks).filter(|p| *p != env.rank) {
        pld_sim_notify(cell(env, peer, env.rank), 1, ADD);
    }
    for peer in (0..ranks).filter(|p| *p != env.rank) {
        pld_sim_wait(cell(env, env.rank, peer), generation, GE);
    }
}

/// Takes `credits` back out of our own cells.
fn epilogue(env: &RankEnv, credits: i32) {
    for peer in (0..env.domain.ranks()).filter(|p| *p != env.rank) {
        pld_sim_notify(cell(env, env.rank, peer), -credits, ADD);
    }
}

#[test]
fn barriers_with_their_epilogue_leave_no_credit() {
    for ranks in [2, 3, 4, 8] {
        let domain = CommDomain::new(ranks, 4096).unwrap();
        let run = Run::new(&domain, Duration::from_secs(2));
        let outcome = run.execute("@barriers", |env| {
            // Three generations in a row, then one epilogue, like a
            // collective called in a loop with one signal.
            for generation in 1..=3 {
                barrier(&env, generation);
            }
            pld_sim_fence();
            epilogue(&env, 3);
        });
        assert!(outcome.ok(), "{ranks} ranks: {outcome:?}");
        assert!(domain.leaks(SIGNAL, ranks).is_empty());
        let peers = (ranks - 1) as u64;
        for counters in &outcome.counters {
            assert_eq!(counters.notifies, 3 * peers + peers);
            assert_eq!(counters.waits, 3 * peers);
        }
    }
}

#[test]
fn a_missing_epilogue_is_a_credit_leak() {
    let domain = CommDomain::new(3, 4096).unwrap();
    let outcome = Run::new(&domain, Duration::from_secs(2)).execute("@no_epilogue", |env| {
        barrier(&env, 1);
    });
    assert!(outcome.ok(), "{outcome:?}");
    let leaks = domain.leaks(SIGNAL, 3);
    // Every rank holds one credit from each peer.
    let mut expected = Vec::new();
    for rank in 0..3 {
        for index in (0..3).filter(|i| *i != rank) {
            expected.push(CellLeak {
                rank,
                index,
                value: 1,
            });
        }
    }
    assert_eq!(leaks, expected);
    assert_eq!(
        leaks[0].to_string(),
        "rank 0's signal cell 1 holds 1 (should be back to 0)"
    );
}

#[test]
fn divergent_control_flow_is_reported_as_a_deadlock() {
    let domain = CommDomain::new(4, 4096).unwrap();
    let deadline = Duration::from_millis(200);
    let started = Instant::now();
    let outcome = Run::new(&domain, deadline).execute("@diverge", |env| {
        // Rank 2 skips the barrier: its peers wait for its credit forever.
        if env.rank != 2 {
            barrier(&env, 1);
        }
    });
    assert!(started.elapsed() < Duration::from_secs(5));
    let report = outcome.deadlock.expect("a deadlock report");
    assert_eq!(report.finished, vec![2]);
    let stuck: Vec<usize> = report.blocked.iter().map(|b| b.rank).collect();
    assert_eq!(stuck, vec![0, 1, 3]);
    for b in &report.blocked {
        // Each waits in its own window, on rank 2's cell, for one credit.
        assert_eq!(b.window, Some(b.rank));
        assert_eq!(b.offset, SIGNAL + 4 * 2);
        assert_eq!((b.cmp, b.expected, b.actual), (">=", 1, 0));
        assert_eq!(b.kernel, "@diverge");
    }
    let text = report.to_string();
    assert!(
        text.contains("rank 0 in @diverge: waits for the i32 cell at rank 0's window, byte 8 (i32 cell 2 of the window) >= 1, which holds 0"),
        "{text}"
    );
}

#[test]
fn a_slow_rank_is_not_a_deadlock() {
    let domain = CommDomain::new(2, 4096).unwrap();
    // The deadline is shorter than rank 1's delay, but rank 1 is running,
    // not blocked, so rank 0's wait is legitimate.
    let outcome = Run::new(&domain, Duration::from_millis(50)).execute("@slow", |env| {
        if env.rank == 1 {
            std::thread::sleep(Duration::from_millis(300));
        }
        barrier(&env, 1);
        epilogue(&env, 1);
    });
    assert!(outcome.ok(), "{outcome:?}");
    assert!(domain.leaks(SIGNAL, 2).is_empty());
}

#[test]
fn a_signal_outside_every_window_is_an_error_not_a_crash() {
    let domain = CommDomain::new(2, 64).unwrap();
    let mut stray = 0i32;
    let stray_address = &mut stray as *mut i32 as usize;
    let outcome = Run::new(&domain, Duration::from_secs(1)).execute("@stray", |env| {
        if env.rank == 0 {
            pld_sim_notify(stray_address as *mut i32, 1, ADD);
            pld_sim_wait(stray_address as *const i32, 1, GE);
            pld_sim_notify(cell(&env, 1, 0), 1, 9);
        }
    });
    assert_eq!(stray, 0);
    assert_eq!(outcome.errors.len(), 3, "{:?}", outcome.errors);
    assert!(outcome.errors[0].starts_with("rank 0: notify on the signal cell at 0x"));
    assert!(outcome.errors[2].contains("notify with unknown op 9"));
}
