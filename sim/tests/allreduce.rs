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
    let mode_attr = if mode == "ring" {
        ", mode = \"ring\""
    } else {
        ""
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
                    pld_sim::half::f32_to_f16(v as f32).to_le_bytes().to_vec()
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
                f64::from(pld_sim::half::f16_to_f32(u16::from_le_bytes([
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
    for ranks in [2, 3, 4, 8] {
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
