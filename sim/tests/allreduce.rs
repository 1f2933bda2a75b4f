//! Allreduce kernels compiled from pld source and run on simulated ranks,
//! checked against a golden computed in Rust (f64 accumulation).
//!
//! Inputs depend on rank and index, so a misplaced chunk or segment shows.

mod common;
use common::run as run_kernel;

/// The input of `rank` at element `i` for reduction `op`: halves of small
/// integers (exact in f16 and f32 through any sum of 8 ranks), and for
/// products factors whose product over 8 ranks stays small.
fn input(op: &str, rank: usize, i: usize) -> f64 {
    let k = (i * 7 + rank * 13) % 11;
    if op == "prod" {
        [0.5, 1.0, 1.5, -1.0, 2.0, -0.5, 1.0, 0.75, -2.0, 1.25, 1.0][k]
    } else {
        k as f64 - 5.0 + rank as f64 * 0.5
    }
}

fn reduce(op: &str, values: impl Iterator<Item = f64>) -> f64 {
    values
        .reduce(|a, b| match op {
            "sum" => a + b,
            "max" => a.max(b),
            "min" => a.min(b),
            _ => a * b,
        })
        .unwrap()
}

struct Case {
    ranks: usize,
    n: usize,
    dtype: &'static str,
    op: &'static str,
    mode: &'static str,
}

fn run(case: &Case) {
    let Case {
        ranks,
        n,
        dtype,
        op,
        mode,
    } = *case;
    let signal_rows = if mode == "ring" {
        2 * (ranks - 1)
    } else {
        ranks
    };
    let signal_cols = if mode == "ring" { ranks } else { 1 };
    let mode_attr = match mode {
        "mesh" => String::new(),
        _ => format!(", mode = \"{mode}\""),
    };
    let data = format!("tensor<1x{n}x{dtype}, #pld.dist>");
    let sig = format!("tensor<{signal_rows}x{signal_cols}xi32, #pld.dist>");
    let source = format!(
        r#"func.func @k(%d: {data}, %s: {sig}) attributes {{pld.kind = #pld.func_kind<"incore">}} {{
  %r = "pld.tensor_allreduce"(%d, %s) {{op = #pld.reduce_op<"{op}">{mode_attr}}} : ({data}, {sig}) -> {data}
  return
}}"#
    );
    let cells = signal_rows * signal_cols;
    let finished = run_kernel(&source, "k", ranks, |rank, param| {
        if param == 1 {
            return vec![0; cells * 4];
        }
        (0..n)
            .flat_map(|i| {
                let v = input(op, rank, i);
                if dtype == "f16" {
                    pld_sim::runtime::half::f32_to_f16(v as f32)
                        .to_le_bytes()
                        .to_vec()
                } else {
                    (v as f32).to_le_bytes().to_vec()
                }
            })
            .collect()
    });
    let outcome = &finished.outcome;
    let domain = &finished.domain;
    let signal_offset = finished.offsets[1].unwrap();
    let label = format!("{mode} {op} {dtype} N={n} P={ranks}");
    assert!(outcome.ok(), "{label}: {outcome:?}");
    assert!(
        domain.leaks(signal_offset, cells).is_empty(),
        "{label}: {:?}",
        domain.leaks(signal_offset, cells)
    );
    for (rank, buffers) in finished.buffers().iter().enumerate() {
        let bytes = &buffers[0];
        for i in 0..n {
            let got = if dtype == "f16" {
                f64::from(pld_sim::runtime::half::f16_to_f32(u16::from_le_bytes([
                    bytes[2 * i],
                    bytes[2 * i + 1],
                ])))
            } else {
                f64::from(f32::from_le_bytes(
                    bytes[4 * i..4 * i + 4].try_into().unwrap(),
                ))
            };
            let want = reduce(op, (0..ranks).map(|r| input(op, r, i)));
            // f16 products round at every step.
            let ulp = if dtype == "f16" {
                1.0 / 1024.0
            } else {
                1.0 / 8_388_608.0
            };
            let tolerance = ulp * ranks as f64 * want.abs().max(1.0);
            assert!(
                (got - want).abs() <= tolerance,
                "{label}: rank {rank} element {i}: got {got}, want {want}"
            );
        }
    }
}

/// Lengths around the chunk and segment boundaries, and P - 1.
fn lengths(ranks: usize) -> Vec<usize> {
    let mut n = vec![1, 3, 17, ranks - 1, 4097, 8193, 65537];
    n.retain(|n| *n > 0);
    n.dedup();
    n
}

fn matrix(mode: &'static str, dtype: &'static str) {
    matrix_on(mode, dtype, &[2, 3, 4, 8]);
}

fn matrix_on(mode: &'static str, dtype: &'static str, rank_counts: &[usize]) {
    for &ranks in rank_counts {
        for n in lengths(ranks) {
            for op in ["sum", "max", "min", "prod"] {
                run(&Case {
                    ranks,
                    n,
                    dtype,
                    op,
                    mode,
                });
            }
        }
    }
}

#[test]
fn mesh_allreduce_f32() {
    matrix("mesh", "f32");
}

#[test]
fn mesh_allreduce_f16() {
    matrix("mesh", "f16");
}

#[test]
fn ring_allreduce_f32() {
    matrix("ring", "f32");
}

#[test]
fn ring_allreduce_f16() {
    matrix("ring", "f16");
}

/// Two-shot on every rank count from 2 to 8: the segments of
/// `i * N / P` (FP16: rounded up to 16 elements) are ragged at the odd
/// lengths and empty where N < P.
#[test]
fn two_shot_allreduce_f32() {
    matrix_on("two_shot", "f32", &[2, 3, 4, 5, 6, 7, 8]);
}

#[test]
fn two_shot_allreduce_f16() {
    matrix_on("two_shot", "f16", &[2, 3, 4, 5, 6, 7, 8]);
}

/// The rebind idiom: a barrier and an allreduce called five times in a loop
/// whose iter_args carry the data and the signal (`%s2 = barrier(%s)`
/// yielded back), written with `scf.for` and with `scf.while`. After five
/// sums over P ranks every rank holds P^4 times the sum of the inputs.
fn looped(kind: &str, ranks: usize) {
    let n = 96;
    let data = "tensor<1x96xf32, #pld.dist>";
    let sig = format!("tensor<{ranks}x1xi32, #pld.dist>");
    let body = format!(
        r#"    %s2 = "pld.tensor_barrier"(%s) : ({sig}) -> {sig}
    %x2 = "pld.tensor_allreduce"(%x, %s2) {{op = #pld.reduce_op<"sum">}} : ({data}, {sig}) -> {data}"#
    );
    let looped = match kind {
        "for" => format!(
            r#"  %r:2 = scf.for %i = %c0 to %c5 step %c1 iter_args(%x = %d, %s = %sig) -> ({data}, {sig}) {{
{body}
    scf.yield %x2, %s2 : {data}, {sig}
  }}"#
        ),
        _ => format!(
            r#"  %r:3 = scf.while (%i = %c0, %x = %d, %s = %sig) : (index, {data}, {sig}) -> (index, {data}, {sig}) {{
    %go = arith.cmpi slt, %i, %c5 : index
    scf.condition(%go) %i, %x, %s : index, {data}, {sig}
  }} do {{
  ^bb0(%j: index, %x: {data}, %s: {sig}):
{body}
    %next = arith.addi %j, %c1 : index
    scf.yield %next, %x2, %s2 : index, {data}, {sig}
  }}"#
        ),
    };
    let source = format!(
        r#"func.func @k(%d: {data}, %sig: {sig}) attributes {{pld.kind = #pld.func_kind<"incore">}} {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
{looped}
  return
}}"#
    );
    let input = |rank: usize, i: usize| ((i * 3 + rank * 5) % 7) as f64 - 3.0;
    let finished = run_kernel(&source, "k", ranks, |rank, param| {
        if param == 1 {
            return vec![0; ranks * 4];
        }
        common::f32s((0..n).map(|i| input(rank, i) as f32))
    });
    let label = format!("scf.{kind}, {ranks} ranks");
    assert!(finished.outcome.ok(), "{label}: {:?}", finished.outcome);
    let signal = finished.offsets[1].unwrap();
    assert!(
        finished.domain.leaks(signal, ranks).is_empty(),
        "{label}: {:?}",
        finished.domain.leaks(signal, ranks)
    );
    let scale = (ranks as f64).powi(4);
    for rank in 0..ranks {
        let got = common::as_f32s(&finished.buffers()[rank][0]);
        for (i, value) in got.iter().enumerate() {
            let want = scale * (0..ranks).map(|r| input(r, i)).sum::<f64>();
            assert_eq!(f64::from(*value), want, "{label}: rank {rank} element {i}");
        }
    }
    // Five barriers and five allreduces: every rank waited on every peer
    // in each of them.
    for counters in &finished.outcome.counters {
        assert!(
            counters.waits >= 10 * (ranks as u64 - 1),
            "{label}: {counters:?}"
        );
    }
}

#[test]
fn rebound_barrier_and_allreduce_five_times_in_a_loop() {
    for ranks in [2, 3] {
        looped("for", ranks);
        looped("while", ranks);
    }
}
