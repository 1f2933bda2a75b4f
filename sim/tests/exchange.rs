//! The other composite collectives of docs/passes/pld-lower-composite-ops.md, compiled and run on
//! simulated ranks: every result element checked, every signal back to
//! zero.

mod common;
use common::{as_f32s, as_i32s, f32s, i32s, run};

/// A value that names its rank, row and column.
fn tag(rank: usize, row: usize, col: usize) -> f32 {
    (rank * 10_000 + row * 100 + col) as f32
}

fn signal(ranks: usize) -> String {
    format!("tensor<{ranks}x1xi32, #pld.dist>")
}

fn no_leaks(finished: &common::Finished, signal_param: usize, cells: usize) {
    assert!(finished.outcome.ok(), "{:?}", finished.outcome);
    let offset = finished.offsets[signal_param].unwrap();
    assert!(
        finished.domain.leaks(offset, cells).is_empty(),
        "{:?}",
        finished.domain.leaks(offset, cells)
    );
}

#[test]
fn broadcast_copies_the_roots_target_everywhere() {
    for ranks in [2, 3, 4] {
        for root in [0, ranks - 1] {
            let (rows, cols) = (3, 20);
            let target = format!("tensor<{rows}x{cols}xf32, #pld.dist>");
            let sig = signal(ranks);
            let source = format!(
                r#"func.func @k(%t: {target}, %s: {sig}) attributes {{pld.kind = #pld.func_kind<"incore">}} {{
  %r = "pld.tensor_broadcast"(%t, %s) {{root = {root} : i64}} : ({target}, {sig}) -> {target}
  return
}}"#
            );
            let finished = run(&source, "k", ranks, |rank, p| {
                if p == 0 {
                    f32s((0..rows * cols).map(|i| tag(rank, i / cols, i % cols)))
                } else {
                    i32s(vec![0; ranks])
                }
            });
            no_leaks(&finished, 1, ranks);
            for rank in 0..ranks {
                let got = as_f32s(&finished.buffers()[rank][0]);
                let want: Vec<f32> = (0..rows * cols)
                    .map(|i| tag(root, i / cols, i % cols))
                    .collect();
                assert_eq!(got, want, "P={ranks} root={root} rank {rank}");
            }
        }
    }
}

#[test]
fn reduce_scatter_sums_row_me_across_ranks() {
    for ranks in [2, 3, 4, 8] {
        let size = 37;
        let target = format!("tensor<{ranks}x{size}xf32, #pld.dist>");
        let sig = signal(ranks);
        let source = format!(
            r#"func.func @k(%t: {target}, %s: {sig}) attributes {{pld.kind = #pld.func_kind<"incore">}} {{
  %r = "pld.tensor_reduce_scatter"(%t, %s) {{op = #pld.reduce_op<"sum">}} : ({target}, {sig}) -> {target}
  return
}}"#
        );
        let finished = run(&source, "k", ranks, |rank, p| {
            if p == 0 {
                f32s((0..ranks * size).map(|i| tag(rank, i / size, i % size)))
            } else {
                i32s(vec![0; ranks])
            }
        });
        no_leaks(&finished, 1, ranks);
        for rank in 0..ranks {
            let got = as_f32s(&finished.buffers()[rank][0]);
            for col in 0..size {
                let want: f32 = (0..ranks).map(|r| tag(r, rank, col)).sum();
                assert_eq!(
                    got[rank * size + col],
                    want,
                    "P={ranks} rank {rank} col {col}"
                );
            }
        }
    }
}

#[test]
fn allgather_puts_every_input_row_everywhere() {
    for ranks in [2, 3, 4, 8] {
        let size = 19;
        let target = format!("tensor<{ranks}x{size}xf32, #pld.dist>");
        let input = format!("tensor<1x{size}xf32>");
        let sig = signal(ranks);
        let source = format!(
            r#"func.func @k(%i: {input}, %t: {target}, %s: {sig}) attributes {{pld.kind = #pld.func_kind<"incore">}} {{
  %r = "pld.tensor_allgather"(%i, %t, %s) : ({input}, {target}, {sig}) -> {target}
  return
}}"#
        );
        let finished = run(&source, "k", ranks, |rank, p| match p {
            0 => f32s((0..size).map(|c| tag(rank, 0, c))),
            1 => f32s(vec![-1.0; ranks * size]),
            _ => i32s(vec![0; ranks]),
        });
        no_leaks(&finished, 2, ranks);
        for rank in 0..ranks {
            let got = as_f32s(&finished.buffers()[rank][1]);
            let want: Vec<f32> = (0..ranks * size)
                .map(|i| tag(i / size, 0, i % size))
                .collect();
            assert_eq!(got, want, "P={ranks} rank {rank}");
        }
    }
}

#[test]
fn all_to_all_transposes_rows_across_ranks() {
    for ranks in [2, 3, 4, 8] {
        let size = 11;
        let target = format!("tensor<{ranks}x{size}xf32, #pld.dist>");
        let input = format!("tensor<{ranks}x{size}xf32>");
        let sig = signal(ranks);
        let source = format!(
            r#"func.func @k(%i: {input}, %t: {target}, %s: {sig}) attributes {{pld.kind = #pld.func_kind<"incore">}} {{
  %r = "pld.tensor_all_to_all"(%i, %t, %s) : ({input}, {target}, {sig}) -> {target}
  return
}}"#
        );
        let finished = run(&source, "k", ranks, |rank, p| match p {
            0 => f32s((0..ranks * size).map(|i| tag(rank, i / size, i % size))),
            1 => f32s(vec![-1.0; ranks * size]),
            _ => i32s(vec![0; ranks]),
        });
        no_leaks(&finished, 2, ranks);
        for rank in 0..ranks {
            let got = as_f32s(&finished.buffers()[rank][1]);
            // Row `src` of rank `rank` is row `rank` of rank `src`'s input.
            let want: Vec<f32> = (0..ranks * size)
                .map(|i| tag(i / size, rank, i % size))
                .collect();
            assert_eq!(got, want, "P={ranks} rank {rank}");
        }
    }
}

#[test]
fn all_to_all_v_sends_exactly_the_clamped_counts() {
    let ranks = 4;
    let capacity = 3; // MAX_RECV = rows / NR
    let rows = ranks * capacity;
    let size = 8;
    let target = format!("tensor<{rows}x{size}xf32, #pld.dist>");
    let input = format!("tensor<{rows}x{size}xf32>");
    let sig = signal(ranks);
    let counts = format!("tensor<{ranks}xi32>");
    let recv = format!("tensor<{ranks}x1xi32, #pld.dist>");
    let source = format!(
        r#"func.func @k(%i: {input}, %t: {target}, %s: {sig}, %c: {counts}, %rc: {recv}) attributes {{pld.kind = #pld.func_kind<"incore">}} {{
  %r = "pld.tensor_all_to_all_v"(%i, %t, %s, %c, %rc) : ({input}, {target}, {sig}, {counts}, {recv}) -> {target}
  return
}}"#
    );
    // What rank `src` asks to send to rank `dst`: 0, 1, capacity, over
    // capacity and negative all occur.
    let asked = |src: usize, dst: usize| -> i32 { [0, 1, 3, 5, -2][(src * 3 + dst) % 5] };
    let finished = run(&source, "k", ranks, |rank, p| match p {
        0 => f32s((0..rows * size).map(|i| tag(rank, i / size, i % size))),
        1 => f32s(vec![0.0; rows * size]),
        3 => i32s((0..ranks).map(|d| asked(rank, d))),
        _ => i32s(vec![0; ranks]),
    });
    no_leaks(&finished, 2, ranks);
    for dst in 0..ranks {
        let got = as_f32s(&finished.buffers()[dst][1]);
        let counts = as_i32s(&finished.buffers()[dst][4]);
        for (src, published) in counts.iter().enumerate() {
            let sent = asked(src, dst).clamp(0, capacity as i32) as usize;
            assert_eq!(*published, sent as i32, "count from {src} to {dst}");
            for row in 0..capacity {
                for col in 0..size {
                    let at = (src * capacity + row) * size + col;
                    // Input rows for `dst` start at dst * capacity.
                    let want = if row < sent {
                        tag(src, dst * capacity + row, col)
                    } else {
                        0.0
                    };
                    assert_eq!(got[at], want, "slot of {src} on {dst}, row {row} col {col}");
                }
            }
        }
    }
}

#[test]
fn a_collective_called_twice_in_a_loop_with_one_signal() {
    let ranks = 4;
    let n = 100;
    let data = format!("tensor<1x{n}xf32, #pld.dist>");
    let sig = signal(ranks);
    let source = format!(
        r#"func.func @k(%d: {data}, %s: {sig}) attributes {{pld.kind = #pld.func_kind<"incore">}} {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %i = %c0 to %c2 step %c1 {{
    %r = "pld.tensor_allreduce"(%d, %s) {{op = #pld.reduce_op<"sum">}} : ({data}, {sig}) -> {data}
  }}
  return
}}"#
    );
    let finished = run(&source, "k", ranks, |rank, p| {
        if p == 0 {
            f32s((0..n).map(|i| (rank + i) as f32))
        } else {
            i32s(vec![0; ranks])
        }
    });
    no_leaks(&finished, 1, ranks);
    for rank in 0..ranks {
        let got = as_f32s(&finished.buffers()[rank][0]);
        for (i, value) in got.iter().enumerate() {
            // The second call reduces the first call's sums.
            let once: f32 = (0..ranks).map(|r| (r + i) as f32).sum();
            assert_eq!(*value, once * ranks as f32, "rank {rank} element {i}");
        }
    }
}

#[test]
fn accumulating_stores_from_every_rank_lose_no_update() {
    // Every rank adds a tile of ones into rank 0's window 2000 times, all at
    // once: the adds must be element-atomic.
    let ranks = 8;
    let source = r#"func.func @k(%data: tensor<1x64xf32, #pld.dist>, %ones: tensor<1x64xf32>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cn = arith.constant 2000 : index
  %zero = arith.constant 0 : i32
  %t = "pld.tile_load"(%ones, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 0>} : (tensor<1x64xf32>, index, index) -> tensor<1x64xf32, #pld.tile>
  scf.for %i = %c0 to %cn step %c1 {
    "pld.tile_remote_store"(%t, %data, %zero, %c0, %c0) {atomic = #pld.atomic_type<"add">} : (tensor<1x64xf32, #pld.tile>, tensor<1x64xf32, #pld.dist>, i32, index, index) -> ()
  }
  return
}"#;
    let finished = run(source, "k", ranks, |_, p| {
        if p == 0 {
            f32s(vec![0.0; 64])
        } else {
            f32s(vec![1.0; 64])
        }
    });
    assert!(finished.outcome.ok(), "{:?}", finished.outcome);
    let got = as_f32s(&finished.buffers()[0][0]);
    assert!(
        got.iter().all(|v| *v == (ranks * 2000) as f32),
        "{:?}",
        &got[..4]
    );
    // Rank 0's own adds are local; everyone else's are remote writes.
    let counters = &finished.outcome.counters;
    assert_eq!(counters[0].remote_bytes_written, 0);
    assert!(counters[1..]
        .iter()
        .all(|c| c.remote_bytes_written == 2000 * 64 * 4));
}

/// A small integer that names rank, element and op, exact in f16 and in
/// every fold below (products stay far below f16's largest finite value).
fn reduce_input(rank: usize, i: usize, op: &str) -> f32 {
    match op {
        "prod" => [1.0, 2.0, -1.0, 1.0][(rank + i) % 4],
        _ => ((rank * 7 + i * 3) % 23) as f32 - 11.0,
    }
}

fn fold(op: &str, values: impl Iterator<Item = f32>) -> f32 {
    values
        .reduce(|a, b| match op {
            "sum" => a + b,
            "max" => a.max(b),
            "min" => a.min(b),
            "prod" => a * b,
            other => panic!("no op {other}"),
        })
        .unwrap()
}

fn encode(dtype: &str, values: impl Iterator<Item = f32>) -> Vec<u8> {
    match dtype {
        "f16" => values
            .flat_map(|v| pld_sim::runtime::half::f32_to_f16(v).to_le_bytes())
            .collect(),
        _ => f32s(values),
    }
}

fn decode(dtype: &str, bytes: &[u8]) -> Vec<f32> {
    match dtype {
        "f16" => bytes
            .chunks(2)
            .map(|b| pld_sim::runtime::half::f16_to_f32(u16::from_le_bytes([b[0], b[1]])))
            .collect(),
        _ => as_f32s(bytes),
    }
}

#[test]
fn reduce_folds_every_rank_into_the_root_only() {
    // Lengths: one partial chunk, an odd f16 tail, and more than one 16 KiB
    // chunk of f32 (4096 elements) with a ragged last one.
    let cases = [
        (2, "sum", "f32", 1, 5),
        (3, "max", "f16", 2, 33),
        (4, "min", "f32", 0, 4097),
        (4, "prod", "f16", 3, 17),
        (8, "sum", "f16", 5, 8193),
        (8, "prod", "f32", 7, 100),
        (5, "max", "f32", 4, 9000),
    ];
    for (ranks, op, dtype, root, n) in cases {
        let target = format!("tensor<{n}x{dtype}, #pld.dist>");
        let sig = signal(ranks);
        let source = format!(
            r#"func.func @k(%t: {target}, %s: {sig}) attributes {{pld.kind = #pld.func_kind<"incore">}} {{
  %r = "pld.tensor_reduce"(%t, %s) {{op = #pld.reduce_op<"{op}">, root = {root} : i64}} : ({target}, {sig}) -> {target}
  return
}}"#
        );
        let finished = run(&source, "k", ranks, |rank, p| {
            if p == 0 {
                encode(dtype, (0..n).map(|i| reduce_input(rank, i, op)))
            } else {
                i32s(vec![0; ranks])
            }
        });
        no_leaks(&finished, 1, ranks);
        for rank in 0..ranks {
            let got = decode(dtype, &finished.buffers()[rank][0]);
            let want: Vec<f32> = (0..n)
                .map(|i| {
                    if rank == root {
                        fold(op, (0..ranks).map(|r| reduce_input(r, i, op)))
                    } else {
                        reduce_input(rank, i, op)
                    }
                })
                .collect();
            assert_eq!(
                got, want,
                "P={ranks} {op} {dtype} root={root} n={n} rank {rank}"
            );
        }
    }
}
