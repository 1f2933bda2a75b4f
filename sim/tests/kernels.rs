//! Compiled kernels on simulated ranks: pld source through pld-to-pto, the
//! sim lowering and the JIT, then run on every rank with its real window
//! and CommContext.

use pld_sim::compiler::{to_pto, Compiled};
use pld_sim::{CommDomain, Outcome, Run};
use std::time::Duration;

/// Runs kernel `name` of `compiled` on every rank of `domain`, passing the
/// rank's signal buffer (at `signal` bytes in its window) and its context.
fn run_signal_kernel(
    compiled: &Compiled,
    name: &str,
    domain: &CommDomain,
    signal: usize,
    deadline: Duration,
) -> Outcome {
    let kernel = compiled.kernel(name).expect("kernel compiled");
    Run::new(domain, deadline).execute(name, |env| {
        // Parameters: the signal pointer, then its CommContext.
        // SAFETY: `signal` is an offset inside the rank's window.
        let mut sig = unsafe { env.domain.window(env.rank).base().add(signal) } as *mut ();
        let mut ctx = env.domain.context(env.rank) as *mut ();
        let mut arguments = [
            &mut sig as *mut *mut () as *mut (),
            &mut ctx as *mut *mut () as *mut (),
        ];
        // SAFETY: one pointer per parameter, to values of its type; the
        // addresses are the rank's window and context.
        unsafe { kernel.call(&mut arguments) };
    })
}

const BARRIER: &str = r#"
func.func @barrier(%sig: tensor<8x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_barrier"(%sig) : (tensor<8x1xi32, #pld.dist>) -> tensor<8x1xi32, #pld.dist>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  scf.for %i = %c0 to %c3 step %c1 {
    %again = "pld.tensor_barrier"(%sig) : (tensor<8x1xi32, #pld.dist>) -> tensor<8x1xi32, #pld.dist>
  }
  return
}
"#;

#[test]
fn the_compiled_barrier_synchronises_and_clears_its_signal() {
    let pto = to_pto(BARRIER).expect("pld-to-pto");
    let compiled = Compiled::from_text(&pto).expect("compiles");
    for ranks in [2, 3, 4, 8] {
        let domain = CommDomain::new(ranks, 4096).unwrap();
        let outcome = run_signal_kernel(&compiled, "barrier", &domain, 0, Duration::from_secs(2));
        assert!(outcome.ok(), "{ranks} ranks: {outcome:?}");
        assert!(domain.leaks(0, 8).is_empty(), "{:?}", domain.leaks(0, 8));
        // Four barriers, each a notify to every peer, a wait on every peer
        // and the epilogue's notify per peer.
        let peers = (ranks - 1) as u64;
        for counters in &outcome.counters {
            assert_eq!(counters.waits, 4 * peers, "{ranks} ranks");
            assert_eq!(counters.notifies, 4 * 2 * peers, "{ranks} ranks");
        }
    }
}

/// Rank 0 skips the barrier the others enter.
const DIVERGENT: &str = r#"
func.func @divergent(%sig: tensor<8x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %ctx = "pld.system_get_comm_ctx"(%sig) : (tensor<8x1xi32, #pld.dist>) -> !pld.ctx
  %me = "pld.system_rank"(%ctx) : (!pld.ctx) -> i32
  %c0 = arith.constant 0 : i32
  %skip = arith.cmpi eq, %me, %c0 : i32
  scf.if %skip {
  } else {
    %r = "pld.tensor_barrier"(%sig) : (tensor<8x1xi32, #pld.dist>) -> tensor<8x1xi32, #pld.dist>
  }
  return
}
"#;

#[test]
fn rank_dependent_control_flow_is_reported_as_a_deadlock() {
    let pto = to_pto(DIVERGENT).expect("pld-to-pto");
    let compiled = Compiled::from_text(&pto).expect("compiles");
    let domain = CommDomain::new(3, 4096).unwrap();
    let started = std::time::Instant::now();
    let outcome = run_signal_kernel(
        &compiled,
        "divergent",
        &domain,
        0,
        Duration::from_millis(300),
    );
    assert!(started.elapsed() < Duration::from_secs(5));
    let report = outcome.deadlock.expect("a deadlock report");
    assert_eq!(report.finished, vec![0]);
    // Ranks 1 and 2 wait for rank 0's credit, in their own cell 0.
    let stuck: Vec<(usize, Option<usize>, usize, i32, i32)> = report
        .blocked
        .iter()
        .map(|b| (b.rank, b.window, b.offset, b.expected, b.actual))
        .collect();
    assert_eq!(stuck, vec![(1, Some(1), 0, 1, 0), (2, Some(2), 0, 1, 0)]);
}

/// A hand-written barrier without the epilogue that returns its credits.
const NO_EPILOGUE: &str = r#"
func.func @leaky(%sig: tensor<8x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %ctx = "pld.system_get_comm_ctx"(%sig) : (tensor<8x1xi32, #pld.dist>) -> !pld.ctx
  %me32 = "pld.system_rank"(%ctx) : (!pld.ctx) -> i32
  %n32 = "pld.system_nranks"(%ctx) : (!pld.ctx) -> i32
  %me = arith.index_cast %me32 : i32 to index
  %n = arith.index_cast %n32 : i32 to index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  scf.for %p = %c0 to %n step %c1 {
    %other = arith.cmpi ne, %p, %me : index
    scf.if %other {
      "pld.system_notify"(%sig, %p, %me, %c0, %one) {op = #pld.notify_op<"atomic_add">} : (tensor<8x1xi32, #pld.dist>, index, index, index, i32) -> ()
    }
  }
  scf.for %p = %c0 to %n step %c1 {
    %other = arith.cmpi ne, %p, %me : index
    scf.if %other {
      "pld.system_wait"(%sig, %p, %c0, %one) {cmp = #pld.wait_cmp<"ge">} : (tensor<8x1xi32, #pld.dist>, index, index, i32) -> ()
    }
  }
  return
}
"#;

#[test]
fn a_kernel_without_its_epilogue_leaks_credits() {
    let pto = to_pto(NO_EPILOGUE).expect("pld-to-pto");
    let compiled = Compiled::from_text(&pto).expect("compiles");
    let domain = CommDomain::new(3, 4096).unwrap();
    let outcome = run_signal_kernel(&compiled, "leaky", &domain, 0, Duration::from_secs(2));
    assert!(outcome.ok(), "{outcome:?}");
    let leaks: Vec<(usize, usize, i32)> = domain
        .leaks(0, 8)
        .iter()
        .map(|l| (l.rank, l.index, l.value))
        .collect();
    assert_eq!(
        leaks,
        vec![
            (0, 1, 1),
            (0, 2, 1),
            (1, 0, 1),
            (1, 2, 1),
            (2, 0, 1),
            (2, 1, 1)
        ]
    );
}

#[test]
fn an_op_the_simulator_cannot_run_is_refused_with_its_location() {
    // A load with a pad value (no converted kernel emits one).
    let source = r#"
!tile = !pto.tile_buf<"vec", tensor<1x64xf32>, {valid = array<i64: 1, 64>}>
!part = !pto.partition_tensor_view<tensor<1x64xf32>>
func.func @padded(%p: !pto.ptr<f32>, %pad: f32) attributes {pto.kernel_kind = #pto.kernel_kind<"vector">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %v = "pto.make_tensor_view"(%p, %c1, %c64, %c64, %c1) {layout = #pto.layout<"nd">, operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.ptr<f32>, index, index, index, index) -> !pto.tensor_view<tensor<?x?xf32>>
  %pv = "pto.partition_view"(%v, %c0, %c0, %c1, %c64) {operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.tensor_view<tensor<?x?xf32>>, index, index, index, index) -> !part
  %t = "pto.alloc_tile"() {operandSegmentSizes = array<i32: 0, 0, 0>} : () -> !tile
  "pto.tload"(%pv, %t, %pad) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (!part, !tile, f32) -> ()
  return
}
"#;
    let error = Compiled::from_text(source).err().expect("refused");
    assert!(
        error.ends_with("'pto.tload' op is not simulated with these operands"),
        "{error}"
    );
    assert!(error.contains(":11:"), "names the line: {error}");
}

#[test]
fn compiled_kernels_are_cached_by_content() {
    let pto = to_pto(BARRIER).expect("pld-to-pto");
    let first = Compiled::cached(&pto).expect("compiles");
    let again = Compiled::cached(&pto).expect("cached");
    assert!(std::rc::Rc::ptr_eq(&first, &again));
    let other = Compiled::cached(&to_pto(DIVERGENT).expect("pld-to-pto")).expect("compiles");
    assert!(!std::rc::Rc::ptr_eq(&first, &other));
}

/// `tiles` allocations of `cols` f32 each, at one site inside a loop of
/// `trips` iterations (the same buffer every trip) or at `tiles` sites.
fn tile_kernel(cols: i64, sites: usize, trips: i64) -> String {
    let tile =
        format!("!pto.tile_buf<\"vec\", tensor<1x{cols}xf32>, {{valid = array<i64: 1, {cols}>}}>");
    let mut body = String::new();
    for _ in 0..sites {
        body.push_str(&format!(
            "    %t{} = \"pto.alloc_tile\"() {{operandSegmentSizes = array<i32: 0, 0, 0>}} : () -> {tile}\n    \"pto.tload\"(%pv, %t{}) {{operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0>}} : (!part, {tile}) -> ()\n",
            body.len(),
            body.len()
        ));
    }
    format!(
        r#"!part = !pto.partition_tensor_view<tensor<1x{cols}xf32>>
func.func @tiles(%p: !pto.ptr<f32>) attributes {{pto.kernel_kind = #pto.kernel_kind<"vector">}} {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cols = arith.constant {cols} : index
  %trips = arith.constant {trips} : index
  %v = "pto.make_tensor_view"(%p, %c1, %cols, %cols, %c1) {{layout = #pto.layout<"nd">, operandSegmentSizes = array<i32: 1, 2, 2>}} : (!pto.ptr<f32>, index, index, index, index) -> !pto.tensor_view<tensor<?x?xf32>>
  %pv = "pto.partition_view"(%v, %c0, %c0, %c1, %cols) {{operandSegmentSizes = array<i32: 1, 2, 2>}} : (!pto.tensor_view<tensor<?x?xf32>>, index, index, index, index) -> !part
  scf.for %i = %c0 to %trips step %c1 {{
{body}  }}
  return
}}
"#
    )
}

/// Runs `@tiles` of `source` on 2 ranks over a private buffer of `cols`
/// floats each (given to the run, as the kernel's plain buffers are).
fn run_tiles(source: &str, cols: usize) -> Outcome {
    let compiled = Compiled::from_text(source).expect("compiles");
    let kernel = compiled.kernel("tiles").expect("kernel compiled");
    let domain = CommDomain::new(2, 64).unwrap();
    let mut data = vec![vec![1.0f32; cols]; 2];
    let spans = data
        .iter()
        .map(|d| (d.as_ptr() as usize, d.as_ptr() as usize + 4 * cols))
        .collect();
    let pointers: Vec<usize> = data.iter_mut().map(|d| d.as_mut_ptr() as usize).collect();
    Run::new(&domain, Duration::from_secs(5))
        .buffers(spans)
        .execute("tiles", |env| {
            let mut pointer = pointers[env.rank] as *mut ();
            let mut arguments = [&mut pointer as *mut *mut () as *mut ()];
            // SAFETY: one pointer per parameter, to this rank's buffer of
            // `cols` floats, which outlives the run.
            unsafe { kernel.call(&mut arguments) };
        })
}

#[test]
fn a_tile_site_in_a_loop_reuses_one_buffer_of_the_core_s_ub() {
    // 1000 trips of two 64 KiB tiles: 128 KiB of UB, not 125 MiB.
    let outcome = run_tiles(&tile_kernel(16384, 2, 1000), 16384);
    assert!(outcome.ok(), "{outcome:?}");
}

#[test]
fn tiles_beyond_the_ub_capacity_are_reported_with_their_location() {
    // Two 128 KiB tiles do not fit in 192 KiB; the second one is named.
    let outcome = run_tiles(&tile_kernel(32768, 2, 1), 32768);
    assert_eq!(
        outcome.errors.len(),
        2,
        "one per rank: {:?}",
        outcome.errors
    );
    for error in &outcome.errors {
        assert!(
            error.contains(":12:13: the kernel's tiles need 262144 bytes of UB, more than the 196608 of an AIV core"),
            "{error}"
        );
    }
}
