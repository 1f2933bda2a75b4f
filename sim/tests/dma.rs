//! Asynchronous DMA (`TPUT_ASYNC` / `TGET_ASYNC`, docs/memory-model.md)
//! driven through the device functions as compiled kernels and
//! `pto_sim.h` call them: a copy lands between its submit and the first
//! successful wait or test of its event, never at the submit; a queue's
//! copies land in order; events that are not outstanding, URMA copies
//! whose memory is not their peer's, and events never waited for are
//! errors. Under the explorer: the destination read before the wait and
//! the source written before it are races naming the copy, two agents on
//! one PER_PEER queue are a finding, an event never waited is a leak, and
//! the same exchange with its waits is clean.

use pld_sim::runtime::ffi::{
    pld_sim_dma_submit, pld_sim_dma_test, pld_sim_dma_wait, pld_sim_fence, pld_sim_notify,
    pld_sim_wait,
};
use pld_sim::{CommDomain, Finding, Outcome, RankEnv, Run, Schedule};
use std::time::Duration;

const SDMA: i32 = 0;
const URMA: i32 = 1;
const PUT: i32 = 0;
const GET: i32 = 1;
const NO_PEER: i64 = pld_runtime_sys::PLD_DMA_NO_PEER;
const ADD: i32 = 0;
const GE: i32 = 1;
const DEADLINE: Duration = Duration::from_secs(5);

/// Byte `offset` of `rank`'s window.
fn at(env: &RankEnv, rank: usize, offset: usize) -> *mut u8 {
    // SAFETY: the tests keep every offset inside the window.
    unsafe { env.domain.window(rank).base().add(offset) }
}

fn f32_at(env: &RankEnv, rank: usize, index: usize) -> f32 {
    // SAFETY: as `at`; the test reads bytes it wrote or copied.
    unsafe { at(env, rank, 4 * index).cast::<f32>().read() }
}

fn set_f32(env: &RankEnv, rank: usize, index: usize, value: f32) {
    // SAFETY: as `at`.
    unsafe { at(env, rank, 4 * index).cast::<f32>().write(value) }
}

/// Submits a copy of `n` f32 from element `from` of `src_rank`'s window
/// to element `to` of `dst_rank`'s.
#[allow(clippy::too_many_arguments)]
fn submit(
    env: &RankEnv,
    (dst_rank, to): (usize, usize),
    (src_rank, from): (usize, usize),
    n: i64,
    engine: i32,
    direction: i32,
    peer: i64,
) -> i64 {
    // SAFETY: both blocks lie in the windows.
    unsafe {
        pld_sim_dma_submit(
            at(env, dst_rank, 4 * to),
            n,
            1,
            at(env, src_rank, 4 * from),
            n,
            1,
            1,
            n,
            n,
            4,
            engine,
            direction,
            peer,
        )
    }
}

fn run(ranks: usize, kernel: impl Fn(RankEnv) + Sync) -> Outcome {
    let domain = CommDomain::new(ranks, 4096).unwrap();
    Run::new(&domain, DEADLINE).execute("@dma", kernel)
}

#[test]
fn a_put_lands_at_its_wait_not_at_its_submit() {
    let outcome = run(2, |env| {
        if env.rank != 0 {
            return;
        }
        for i in 0..8 {
            set_f32(&env, 0, i, 1.0 + i as f32);
        }
        let event = submit(&env, (1, 16), (0, 0), 8, URMA, PUT, 1);
        assert_ne!(event, 0);
        assert_eq!(f32_at(&env, 1, 16), 0.0, "nothing lands at the submit");
        // What the source holds when the copy lands is what arrives.
        set_f32(&env, 0, 0, 42.0);
        assert_eq!(pld_sim_dma_wait(event, URMA), 1);
        assert_eq!(f32_at(&env, 1, 16), 42.0);
        assert_eq!(f32_at(&env, 1, 23), 8.0);
        assert_eq!(
            pld_sim_dma_wait(event, URMA),
            0,
            "a second wait has no event"
        );
    });
    assert_eq!(outcome.errors.len(), 1, "{outcome:?}");
    assert!(outcome.errors[0].contains("not an outstanding asynchronous copy of rank 0"));
    assert_eq!(outcome.counters[0].remote_bytes_written, 32);
}

#[test]
fn a_copy_moves_its_source_and_refuses_a_shorter_destination() {
    let outcome = run(2, |env| {
        if env.rank != 0 {
            return;
        }
        for i in 0..8 {
            set_f32(&env, 0, i, 1.0 + i as f32);
            set_f32(&env, 1, 16 + i, -1.0);
        }
        // SAFETY: both blocks lie in the windows.
        let into = |dst_elems: i64| unsafe {
            pld_sim_dma_submit(
                at(&env, 1, 64),
                4,
                1,
                at(&env, 0, 0),
                4,
                1,
                1,
                4,
                dst_elems,
                4,
                URMA,
                PUT,
                1,
            )
        };
        // Four of a destination of eight: the rest stays.
        let event = into(8);
        assert_eq!(pld_sim_dma_wait(event, URMA), 1);
        assert_eq!(f32_at(&env, 1, 19), 4.0);
        assert_eq!(f32_at(&env, 1, 20), -1.0, "past the source: untouched");
        // Four into a destination of three: refused, nothing moves.
        set_f32(&env, 0, 0, 9.0);
        assert_eq!(into(3), 0);
        assert_eq!(f32_at(&env, 1, 16), 1.0);
    });
    assert_eq!(outcome.errors.len(), 1, "{outcome:?}");
    assert!(
        outcome.errors[0].contains("dst has 3 elements, fewer than the 4 of src"),
        "{outcome:?}"
    );
}

#[test]
fn a_wait_polls_its_sessions_engine() {
    let outcome = run(2, |env| {
        if env.rank != 0 {
            return;
        }
        let event = submit(&env, (1, 16), (0, 0), 8, URMA, PUT, 1);
        assert_eq!(pld_sim_dma_wait(event, SDMA), 1);
        let event = submit(&env, (1, 16), (0, 0), 8, SDMA, PUT, NO_PEER);
        assert_eq!(pld_sim_dma_test(event, -1), 0);
        assert_eq!(pld_sim_dma_wait(event, SDMA), 1);
    });
    assert_eq!(outcome.errors.len(), 2, "{outcome:?}");
    assert!(outcome.errors[0].contains("the event of a copy on URMA waited with a session on SDMA"));
    assert!(outcome.errors[1].contains(
        "the event of a copy on SDMA tested with a session BuildAsyncSession did not build"
    ));
}

#[test]
fn a_test_finds_the_copy_in_flight_first_and_a_get_reads_the_peer() {
    let outcome = run(2, |env| {
        if env.rank != 1 {
            return;
        }
        set_f32(&env, 0, 4, 7.0);
        let event = submit(&env, (1, 0), (0, 4), 1, URMA, GET, 0);
        assert_eq!(pld_sim_dma_test(event, URMA), 0, "in flight");
        assert_eq!(f32_at(&env, 1, 0), 0.0);
        assert_eq!(pld_sim_dma_test(event, URMA), 1);
        assert_eq!(f32_at(&env, 1, 0), 7.0);
        assert_eq!(pld_sim_dma_wait(0, URMA), 1, "handle 0 is complete");
    });
    assert!(outcome.ok(), "{outcome:?}");
    assert_eq!(outcome.counters[1].remote_bytes_read, 4);
}

#[test]
fn a_queue_lands_in_submit_order_and_queues_are_independent() {
    let outcome = run(3, |env| {
        if env.rank != 0 {
            return;
        }
        set_f32(&env, 0, 0, 1.0);
        set_f32(&env, 0, 1, 2.0);
        // Two copies onto one element on the queue to rank 1: waiting for
        // the second lands the first before it.
        let first = submit(&env, (1, 8), (0, 0), 1, URMA, PUT, 1);
        let second = submit(&env, (1, 8), (0, 1), 1, URMA, PUT, 1);
        let other = submit(&env, (2, 8), (0, 0), 1, URMA, PUT, 2);
        assert_eq!(pld_sim_dma_wait(second, URMA), 1);
        assert_eq!(f32_at(&env, 1, 8), 2.0);
        assert_eq!(f32_at(&env, 2, 8), 0.0, "another queue has not moved");
        assert_eq!(
            pld_sim_dma_wait(first, URMA),
            1,
            "landed, still outstanding"
        );
        assert_eq!(f32_at(&env, 1, 8), 2.0);
        assert_eq!(pld_sim_dma_wait(other, URMA), 1);
        assert_eq!(f32_at(&env, 2, 8), 1.0);
    });
    assert!(outcome.ok(), "{outcome:?}");
}

#[test]
fn a_urma_copy_must_go_to_its_peers_memory() {
    let outcome = run(3, |env| {
        if env.rank != 0 {
            return;
        }
        assert_eq!(submit(&env, (2, 0), (0, 0), 4, URMA, PUT, 1), 0);
        assert_eq!(submit(&env, (1, 0), (0, 0), 4, URMA, PUT, 3), 0);
        assert_eq!(submit(&env, (0, 0), (0, 8), 4, URMA, GET, 1), 0);
        assert_eq!(submit(&env, (1, 0), (0, 0), 4, URMA, PUT, NO_PEER), 0);
        // A peer operand of -1 is a peer that is no rank, not a missing
        // operand (dma24 M3: it was taken for PLD_DMA_NO_PEER).
        assert_eq!(submit(&env, (1, 0), (0, 0), 4, URMA, PUT, -1), 0);
        // SDMA has no per-peer queue.
        let sdma = submit(&env, (2, 0), (0, 0), 4, SDMA, PUT, NO_PEER);
        assert_eq!(pld_sim_dma_wait(sdma, SDMA), 1);
    });
    let errors = outcome.errors.join("\n");
    assert_eq!(outcome.errors.len(), 5, "{errors}");
    assert!(errors.contains("a URMA TPUT_ASYNC names no peer: the op has no peer operand"));
    assert!(errors.contains("on the queue to peer -1, which is not a rank of the domain"));
    assert!(errors.contains(
        "a URMA TPUT_ASYNC on the queue to rank 1 has its destination in rank 2's window"
    ));
    assert!(errors.contains("on the queue to peer 3, which is not a rank of the domain (3 ranks)"));
    assert!(errors.contains("TGET_ASYNC on the queue to rank 1 has its source in rank 0's window"));
}

#[test]
fn a_copy_of_no_element_moves_nothing_on_either_engine() {
    // Views of 0 elements at the end of the peer's window, which no byte
    // of it holds: URMA refused the put ("its destination in memory
    // outside every window") where SDMA took it (dma24 M2).
    let end = 4096;
    let outcome = run(2, |env| {
        if env.rank != 0 {
            return;
        }
        for engine in [URMA, SDMA] {
            let peer = if engine == URMA { 1 } else { NO_PEER };
            let put = submit(&env, (1, end / 4), (0, 0), 0, engine, PUT, peer);
            assert_eq!(pld_sim_dma_wait(put, engine), 1);
            let get = submit(&env, (0, 0), (1, end / 4), 0, engine, GET, peer);
            assert_eq!(pld_sim_dma_wait(get, engine), 1);
        }
    });
    assert!(outcome.ok(), "{outcome:?}");
}

#[test]
fn an_event_never_waited_for_lands_at_the_end_and_is_an_error() {
    let domain = CommDomain::new(2, 4096).unwrap();
    let outcome = Run::new(&domain, DEADLINE).execute("@leak", |env| {
        if env.rank == 0 {
            set_f32(&env, 0, 0, 5.0);
            submit(&env, (1, 4), (0, 0), 1, URMA, PUT, 1);
        }
    });
    assert_eq!(outcome.errors.len(), 1, "{outcome:?}");
    assert!(outcome.errors[0]
        .contains("rank 0: an asynchronous copy (URMA TPUT_ASYNC, 4 bytes) was never waited for"));
    let mut landed = [0u8; 4];
    domain.window(1).read(16, &mut landed);
    assert_eq!(f32::from_ne_bytes(landed), 5.0);
}

/// Each rank puts 4 f32 into its peer's window and signals it; the peer
/// waits for the signal and reads them. `waits` puts the copy's wait
/// before the notify; `reuse` writes the source right after the submit.
fn exchange(env: &RankEnv, waits: bool, reuse: bool) {
    let (me, peer) = (env.rank, 1 - env.rank);
    for i in 0..4 {
        set_f32(env, me, i, (10 * me + i) as f32);
    }
    let event = submit(env, (peer, 16), (me, 0), 4, URMA, PUT, peer as i64);
    if reuse {
        // Writing the source while the copy may still read it.
        // SAFETY: a block of this rank's window.
        unsafe {
            pld_sim::runtime::ffi::pld_sim_copy(
                at(env, me, 0),
                1,
                1,
                at(env, me, 8),
                1,
                1,
                1,
                1,
                4,
                0,
            )
        };
    }
    if waits {
        assert_eq!(pld_sim_dma_wait(event, URMA), 1);
    }
    pld_sim_fence();
    let signal = |rank: usize| at(env, rank, 1024).cast::<i32>();
    pld_sim_notify(signal(peer), 1, ADD);
    pld_sim_wait(signal(me), 1, GE);
    // Read what the peer put, through a copy the explorer sees.
    // SAFETY: blocks of this rank's window.
    unsafe {
        pld_sim::runtime::ffi::pld_sim_copy(
            at(env, me, 128),
            4,
            1,
            at(env, me, 64),
            4,
            1,
            1,
            4,
            4,
            0,
        )
    };
    if !waits {
        pld_sim_dma_wait(event, URMA);
    }
    pld_sim_notify(signal(me), -1, ADD);
}

fn explored(ranks: usize, seed: u64, kernel: impl Fn(RankEnv) + Sync) -> Outcome {
    let domain = CommDomain::new(ranks, 4096).unwrap();
    Run::new(&domain, DEADLINE)
        .explore(Some(Schedule { seed }))
        .execute("@exchange", kernel)
}

#[test]
fn the_explorer_finds_a_read_before_the_wait_and_the_waited_exchange_is_clean() {
    for seed in 0..20 {
        let clean = explored(2, seed, |env| exchange(&env, true, false));
        assert!(clean.ok(), "seed {seed}: {clean:?}");
        let broken = explored(2, seed, |env| exchange(&env, false, false));
        let race = broken.findings.iter().find_map(|f| match f {
            Finding::Race { later, earlier, .. } if earlier.asynchronous => Some((later, earlier)),
            _ => None,
        });
        let (later, earlier) = race.unwrap_or_else(|| panic!("seed {seed}: {broken:?}"));
        assert!(!later.asynchronous && later.rank != earlier.rank);
        let text = Finding::Race {
            conflict: pld_sim::explore::shadow::Conflict::ReadAfterWrite,
            later: later.clone(),
            earlier: earlier.clone(),
            bytes: pld_sim::explore::Bytes::window(0, 0..4),
        }
        .to_string();
        assert!(
            text.contains(
                "asynchronous copy by call in @exchange (in flight until a wait on its event)"
            ),
            "{text}"
        );
    }
}

#[test]
fn the_explorer_finds_the_source_written_before_the_wait() {
    let outcome = explored(2, 3, |env| exchange(&env, true, true));
    let text: Vec<String> = outcome.findings.iter().map(|f| f.to_string()).collect();
    assert!(
        text.iter().any(|t| t.starts_with("race: rank")
            && t.contains("wrote bytes [0, 4) of rank")
            && t.contains("read by rank")
            && t.contains("asynchronous copy")),
        "{text:?}"
    );
}

#[test]
fn the_explorer_reports_an_event_never_waited_for() {
    let outcome = explored(2, 1, |env| {
        if env.rank == 0 {
            submit(&env, (1, 4), (0, 0), 1, URMA, PUT, 1);
        }
    });
    assert!(
        outcome
            .findings
            .iter()
            .any(|f| matches!(f, Finding::UnwaitedCopy { .. })),
        "{outcome:?}"
    );
    assert!(outcome.errors.is_empty(), "{outcome:?}");
}

/// Launches `blocks` blocks of the calling rank running `body(b)`, as
/// the builtin kernels' runtime does (`pld_runtime.h`): as fibers of the
/// rank's thread when the simulator runs them (`pld_sim_launch_blocks`,
/// explore mode), else a thread each.
fn launch(blocks: i32, body: &(dyn Fn(i32) + Sync)) {
    struct Launch<'a> {
        handle: usize,
        blocks: i32,
        body: &'a (dyn Fn(i32) + Sync),
    }
    unsafe extern "C" fn block(context: *mut std::ffi::c_void, b: i32) {
        // SAFETY: the `Launch` below, alive for the whole launch.
        let launch = unsafe { &*context.cast::<Launch>() };
        pld_sim::runtime::ffi::pld_sim_block_enter(launch.handle as *mut _, b, launch.blocks);
        (launch.body)(b);
        pld_sim::runtime::ffi::pld_sim_block_exit();
    }
    let launch = Launch {
        handle: pld_sim::runtime::ffi::pld_sim_rank_handle() as usize,
        blocks,
        body,
    };
    let context = std::ptr::from_ref(&launch).cast_mut().cast();
    if pld_sim::runtime::ffi::pld_sim_launch_blocks(blocks, Some(block), context) == 1 {
        return;
    }
    let context = context as usize;
    std::thread::scope(|scope| {
        for b in 0..blocks {
            // SAFETY: as above; the threads end before `launch` does.
            scope.spawn(move || unsafe { block(context as *mut _, b) });
        }
    });
}

#[test]
fn two_blocks_on_one_per_peer_queue_are_a_finding_one_block_per_queue_is_not() {
    for (shared, seed) in [(true, 0), (false, 0), (true, 5), (false, 5)] {
        let outcome = explored(3, seed, move |env| {
            if env.rank != 0 {
                return;
            }
            launch(2, &|block| {
                // Block b puts into element b of rank 1 (shared) or of
                // rank 1 + b (one queue each).
                let peer = if shared { 1 } else { 1 + block as usize };
                let event = submit(
                    &env,
                    (peer, block as usize),
                    (0, 8),
                    1,
                    URMA,
                    PUT,
                    peer as i64,
                );
                assert_eq!(pld_sim_dma_wait(event, URMA), 1);
            });
        });
        let found = outcome.findings.iter().any(|f| {
            matches!(
                f,
                Finding::SharedQueue {
                    rank: 0,
                    peer: 1,
                    ..
                }
            )
        });
        assert_eq!(found, shared, "{outcome:?}");
        assert!(outcome.errors.is_empty(), "{outcome:?}");
    }
}
