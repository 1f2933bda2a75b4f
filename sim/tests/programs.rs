//! Whole HOST programs on simulated devices: every collective they call,
//! on every rail, compared with the golden (sim/src/program/golden.rs, written
//! from the collectives' semantics), every signal back at zero, and the
//! L3 -> L2 round trips counted.

use pld_sim::program::orchestrate::{Buffer, ProgramOutcome, ProgramRun, Unchecked};
use std::time::Duration;

/// A HOST program over window buffers `(name, type, bytes)`: every device
/// first gets a dispatch of a CHIP orchestrator that receives them all (the
/// HOST rail groups the buffers of what it dispatches into a comm domain),
/// then `body` runs on the host with the windows as `%<name>`.
fn program(buffers: &[(&str, String, usize)], body: &str) -> String {
    let types: Vec<&str> = buffers.iter().map(|(_, t, _)| t.as_str()).collect();
    let params: Vec<String> = buffers
        .iter()
        .enumerate()
        .map(|(i, (_, t, _))| format!("%a{i}: {t}"))
        .collect();
    let mut text = format!(
        "func.func @chip({}) attributes {{pld.kind = #pld.func_kind<\"chip\">}} {{\n  return\n}}\n\
         func.func @main() attributes {{pld.kind = #pld.func_kind<\"host\">}} {{\n\
         \x20 %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n\
         \x20 %c2 = arith.constant 2 : index\n\
         \x20 %ws = \"pld.system_world_size\"() : () -> i64\n\
         \x20 %n = arith.index_cast %ws : i64 to index\n",
        params.join(", ")
    );
    for (name, ty, bytes) in buffers {
        text += &format!(
            "  %{name}_bytes = arith.constant {bytes} : i64\n\
             \x20 %{name}_buf = \"pld.tensor_alloc_window_buffer\"(%{name}_bytes) {{name = \"{name}\"}} : (i64) -> !pld.ptr\n\
             \x20 %{name} = \"pld.tensor_window\"(%{name}_buf) : (!pld.ptr) -> {ty}\n"
        );
    }
    let names: Vec<String> = buffers.iter().map(|(n, _, _)| format!("%{n}")).collect();
    text += &format!(
        "  scf.for %r = %c0 to %n step %c1 {{\n    \"pld.dispatch\"(%r) ({{\n\
         \x20     func.call @chip({}) : ({}) -> ()\n      gpu.yield\n    }}) : (index) -> ()\n  }}\n",
        names.join(", "),
        types.join(", ")
    );
    text += body;
    text += "  return\n}\n";
    text
}

/// Inputs exact in f16 and f32: small halves, distinct per rank and
/// element. Products stay small.
fn value(device: usize, i: usize, product: bool) -> f64 {
    if product {
        ((i + device) % 4) as f64 * 0.5 + 0.5
    } else {
        ((i * 7 + device * 13) % 11) as f64 - 5.0 + device as f64 * 0.5
    }
}

fn fill(buffer: &Buffer, device: usize, product: bool) -> Vec<u8> {
    if buffer.signal {
        return vec![0; buffer.view.bytes()];
    }
    (0..buffer.view.elements())
        .flat_map(|i| buffer.view.dtype.encode(value(device, i, product)))
        .collect()
}

/// Every call checked and right, nothing left behind, `trips` round trips
/// on every device.
fn assert_clean(what: &str, outcome: &ProgramOutcome, calls: usize, trips: u64) {
    assert_checked(what, outcome, calls);
    assert!(
        outcome.round_trips.iter().all(|t| *t == trips),
        "{what}: round trips {:?}",
        outcome.round_trips
    );
}

/// Every call checked and right, nothing left behind.
fn assert_checked(what: &str, outcome: &ProgramOutcome, calls: usize) {
    assert!(outcome.outcome.ok(), "{what}: {:?}", outcome.outcome);
    assert!(
        outcome.leaks.is_empty(),
        "{what}: leaks {:?}",
        outcome.leaks
    );
    assert_eq!(outcome.calls.len(), calls, "{what}: {:?}", outcome.calls);
    for call in &outcome.calls {
        match &call.check {
            Ok(ranks) => assert!(
                ranks.iter().all(|r| r.ok),
                "{what}: {} at {} is wrong: {ranks:?}",
                call.kind,
                call.location
            ),
            Err(why) => assert!(
                *why == Unchecked::NoNumericResult,
                "{what}: {} was not checked: {why}",
                call.kind
            ),
        }
    }
}

const DEADLINE: Duration = Duration::from_secs(10);

#[test]
fn host_allreduce_with_a_synthesized_signal() {
    for dtype in ["f16", "f32"] {
        let elem = if dtype == "f16" { 2 } else { 4 };
        for op in ["sum", "max", "min", "prod"] {
            for numel in [1usize, 17, 256, 4127, 65537] {
                for core_num in [1, 4] {
                    let ty = format!("tensor<1x{numel}x{dtype}, #pld.dist>");
                    let text = program(
                        &[("data", ty.clone(), numel * elem)],
                        &format!(
                            "  %r = \"pld.tensor_allreduce\"(%data) {{op = #pld.reduce_op<\"{op}\">, \
                             core_num = {core_num} : i64}} : ({ty}) -> {ty}\n"
                        ),
                    );
                    let mut run = ProgramRun::load(&text, "allreduce.mlir", None, 2)
                        .unwrap_or_else(|e| panic!("{e}\n{text}"));
                    for ranks in [2, 3, 4, 8] {
                        run.replan(ranks).unwrap();
                        let what = format!("{dtype} {op} N={numel} core_num={core_num} P={ranks}");
                        let outcome = run
                            .execute(DEADLINE, false, true, |b, d| fill(b, d, op == "prod"))
                            .unwrap_or_else(|e| panic!("{what}: {e}"));
                        assert_clean(&what, &outcome, 1, 2);
                        let call = &outcome.calls[0];
                        assert_eq!((call.dtype.as_str(), call.elements), (dtype, numel));
                        assert!(
                            call.location.starts_with("allreduce.mlir:"),
                            "{what}: {call:?}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn host_ring_allreduce() {
    for ranks in [2usize, 4] {
        let numel = 1024;
        let rows = 2 * (ranks - 1) + 1;
        let data = format!("tensor<1x{numel}xf32, #pld.dist>");
        let ring = format!("tensor<{rows}x{ranks}xi32, #pld.dist>");
        let text = program(
            &[
                ("data", data.clone(), numel * 4),
                ("ring_sig", ring.clone(), rows * ranks * 4),
            ],
            &format!(
                "  %r = \"pld.tensor_allreduce\"(%data, %ring_sig) {{op = #pld.reduce_op<\"sum\">, \
                 mode = \"ring\"}} : ({data}, {ring}) -> {data}\n"
            ),
        );
        let run = ProgramRun::load(&text, "ring.mlir", None, ranks)
            .unwrap_or_else(|e| panic!("{e}\n{text}"));
        let outcome = run
            .execute(DEADLINE, false, true, |b, d| fill(b, d, false))
            .unwrap();
        assert_clean(&format!("ring P={ranks}"), &outcome, 1, 2);
    }
}

#[test]
fn an_explicit_signal_allreduce_twice_in_a_loop() {
    for ranks in [2usize, 4] {
        let data = "tensor<1x300xf32, #pld.dist>".to_string();
        let sig = format!("tensor<{ranks}x1xi32, #pld.dist>");
        let text = program(
            &[("data", data.clone(), 1200), ("sig", sig.clone(), ranks * 4)],
            &format!(
                "  scf.for %i = %c0 to %c2 step %c1 {{\n\
                 \x20   %r = \"pld.tensor_allreduce\"(%data, %sig) {{op = #pld.reduce_op<\"sum\">}} : ({data}, {sig}) -> {data}\n\
                 \x20 }}\n"
            ),
        );
        let run = ProgramRun::load(&text, "loop.mlir", None, ranks)
            .unwrap_or_else(|e| panic!("{e}\n{text}"));
        let outcome = run
            .execute(DEADLINE, false, true, |b, d| fill(b, d, false))
            .unwrap();
        // One dispatch and two builtin calls per device; the second call
        // reduces the first one's result.
        assert_clean(&format!("loop P={ranks}"), &outcome, 2, 3);
    }
}

/// The count matrices of collectives spec 12, as `counts(sender, dest)`.
fn count_matrices(ranks: usize, cap: i64) -> Vec<(&'static str, Vec<Vec<i32>>)> {
    let by = |f: &dyn Fn(usize, usize) -> i64| -> Vec<Vec<i32>> {
        (0..ranks)
            .map(|s| (0..ranks).map(|d| f(s, d) as i32).collect())
            .collect()
    };
    vec![
        (
            "zero_and_full",
            by(&|_, d| if d % 2 == 0 { 0 } else { cap }),
        ),
        ("one_and_full", by(&|_, d| if d % 2 == 0 { 1 } else { cap })),
        ("over_capacity", by(&|_, _| cap + 3)),
        ("negative", by(&|_, d| if d % 2 == 0 { -2 } else { cap })),
        ("default", by(&|_, d| (ranks - d) as i64)),
    ]
}

#[test]
fn host_all_to_all_v_with_the_count_matrices() {
    const CAP: usize = 4;
    const ROW: usize = 8;
    for ranks in [2usize, 4] {
        let rows = ranks * CAP;
        let big = format!("tensor<{rows}x{ROW}xf32, #pld.dist>");
        let sig = format!("tensor<{ranks}x1xi32, #pld.dist>");
        let cnt = format!("tensor<{ranks}xi32, #pld.dist>");
        let rcv = format!("tensor<{ranks}x1xi32, #pld.dist>");
        let text = program(
            &[
                ("vin", big.clone(), rows * ROW * 4),
                ("vout", big.clone(), rows * ROW * 4),
                ("vsig", sig.clone(), ranks * 4),
                ("cnt", cnt.clone(), ranks * 4),
                ("rcv", rcv.clone(), ranks * 4),
            ],
            &format!(
                "  %v = \"pld.tensor_all_to_all_v\"(%vin, %vout, %vsig, %cnt, %rcv) : \
                 ({big}, {big}, {sig}, {cnt}, {rcv}) -> {big}\n"
            ),
        );
        let run = ProgramRun::load(&text, "a2av.mlir", None, ranks)
            .unwrap_or_else(|e| panic!("{e}\n{text}"));
        for (name, counts) in count_matrices(ranks, CAP as i64) {
            let outcome = run
                .execute(DEADLINE, false, true, |b, d| match b.name.as_str() {
                    "cnt" => counts[d].iter().flat_map(|c| c.to_le_bytes()).collect(),
                    "vout" | "rcv" => vec![0; b.view.bytes()],
                    _ => fill(b, d, false),
                })
                .unwrap();
            assert_clean(&format!("all_to_all_v {name} P={ranks}"), &outcome, 1, 2);
        }
    }
}

#[test]
fn host_barrier_broadcast_reduce_scatter_allgather_all_to_all() {
    for ranks in [2usize, 4] {
        let rows = format!("tensor<{ranks}x16xf32, #pld.dist>");
        let row = "tensor<1x16xf32, #pld.dist>".to_string();
        let sig = format!("tensor<{ranks}xi32, #pld.dist>");
        let sig2 = format!("tensor<{ranks}x1xi32, #pld.dist>");
        let mut body = format!(
            "  %b = \"pld.tensor_barrier\"(%sig) : ({sig}) -> {sig}\n\
             \x20 %s = \"pld.tensor_reduce_scatter\"(%rows, %sig) {{op = #pld.reduce_op<\"sum\">}} : ({rows}, {sig}) -> {rows}\n\
             \x20 %g = \"pld.tensor_allgather\"(%row, %out, %sig2) : ({row}, {rows}, {sig2}) -> {rows}\n\
             \x20 %t = \"pld.tensor_all_to_all\"(%rows, %out, %sig2) : ({rows}, {rows}, {sig2}) -> {rows}\n"
        );
        for root in 0..ranks {
            body += &format!(
                "  %c{root}_b = \"pld.tensor_broadcast\"(%rows, %sig) {{root = {root} : i64}} : ({rows}, {sig}) -> {rows}\n"
            );
        }
        let text = program(
            &[
                ("rows", rows.clone(), ranks * 64),
                ("out", rows.clone(), ranks * 64),
                ("row", row.clone(), 64),
                ("sig", sig.clone(), ranks * 4),
                ("sig2", sig2.clone(), ranks * 4),
            ],
            &body,
        );
        let run = ProgramRun::load(&text, "others.mlir", None, ranks)
            .unwrap_or_else(|e| panic!("{e}\n{text}"));
        let outcome = run
            .execute(DEADLINE, false, true, |b, d| fill(b, d, false))
            .unwrap();
        let calls = 4 + ranks;
        assert_clean(
            &format!("others P={ranks}"),
            &outcome,
            calls,
            1 + calls as u64,
        );
        let ops: Vec<&str> = outcome.calls.iter().map(|c| c.kind.op_name()).collect();
        assert_eq!(
            &ops[..4],
            [
                "pld.tensor_barrier",
                "pld.tensor_reduce_scatter",
                "pld.tensor_allgather",
                "pld.tensor_all_to_all"
            ]
        );
        assert_eq!(
            outcome.calls[0].check.as_ref().unwrap_err(),
            &Unchecked::NoNumericResult
        );
    }
}

#[test]
fn the_shipped_example_runs_both_rails() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/allreduce.mlir"
    ))
    .unwrap();
    let mut run = ProgramRun::load(&text, "examples/allreduce.mlir", None, 2).unwrap();
    for ranks in [2, 4, 8] {
        run.replan(ranks).unwrap();
        let outcome = run
            .execute(DEADLINE, false, true, |b, d| fill(b, d, false))
            .unwrap();
        assert_clean(&format!("example P={ranks}"), &outcome, 2, 2);
        assert_eq!(
            outcome.calls[0].kernel.as_deref(),
            Some("reduce_kernel"),
            "{:?}",
            outcome.calls
        );
        assert!(outcome.calls[1].kernel.is_none());
    }
}

#[test]
fn a_signal_too_small_for_its_core_num_is_refused_without_a_hang() {
    // An explicit [P, 1] signal with core_num = 4 needs four lanes.
    let ranks = 2;
    let data = "tensor<1x64xf32, #pld.dist>".to_string();
    let sig = format!("tensor<{ranks}x1xi32, #pld.dist>");
    let text = program(
        &[("data", data.clone(), 256), ("sig", sig.clone(), ranks * 4)],
        &format!(
            "  %r = \"pld.tensor_allreduce\"(%data, %sig) {{op = #pld.reduce_op<\"sum\">, \
             core_num = 4 : i64}} : ({data}, {sig}) -> {data}\n"
        ),
    );
    let error = ProgramRun::load(&text, "small.mlir", None, ranks)
        .err()
        .expect("refused");
    assert!(error.contains("small.mlir:"), "{error}");
    assert!(error.contains("lane count (4)"), "{error}");
}

/// The CHIP-rail pipeline of issue 11 for `ranks` devices: each device's
/// CHIP orchestrator stages its data with an InCore allreduce (Sum),
/// exchanges it with all_to_all_v and consumes the result with a second
/// InCore allreduce (Max). With `chip_rail` all three are one CHIP
/// orchestrator's pipeline (the exchange lowered by
/// pld-lower-l2-tensor-collectives), one dispatch; without it the same
/// computation is three HOST steps: a dispatch, a HOST all_to_all_v and a
/// dispatch.
fn a2av_pipeline(ranks: usize, cap: usize, row: usize, core_num: i64, chip_rail: bool) -> String {
    let rows = ranks * cap;
    let big = format!("tensor<{rows}x{row}xf32, #pld.dist>");
    let flat = format!("tensor<1x{}xf32, #pld.dist>", rows * row);
    let ar_sig = "tensor<8x1xi32, #pld.dist>";
    let sig = format!("tensor<{ranks}x10xi32, #pld.dist>");
    let cnt = format!("tensor<{ranks}xi32, #pld.dist>");
    let rcv = format!("tensor<{ranks}x1xi32, #pld.dist>");
    let bytes = rows * row * 4;
    let params = format!(
        "%vin: {big}, %vout: {big}, %fin: {flat}, %fout: {flat}, %s1: {ar_sig}, %s2: {ar_sig}, \
         %vsig: {sig}, %cnt: {cnt}, %rcv: {rcv}"
    );
    let types = format!("{big}, {big}, {flat}, {flat}, {ar_sig}, {ar_sig}, {sig}, {cnt}, {rcv}");
    let args = "%vin, %vout, %fin, %fout, %s1, %s2, %vsig, %cnt, %rcv";
    let exchange = format!(
        "  %cn = arith.constant {core_num} : index\n\
         \x20 %x = \"pld.tensor_all_to_all_v\"(%vin, %vout, %vsig, %cnt, %rcv, %cn) : \
         ({big}, {big}, {sig}, {cnt}, {rcv}, index) -> {big}\n"
    );
    let mut text = format!(
        "func.func @stage(%d: {flat}, %s: {ar_sig}) attributes {{pld.kind = #pld.func_kind<\"incore\">}} {{\n\
         \x20 %r = \"pld.tensor_allreduce\"(%d, %s) {{op = #pld.reduce_op<\"sum\">}} : ({flat}, {ar_sig}) -> {flat}\n\
         \x20 return\n}}\n\
         func.func @consume(%d: {flat}, %s: {ar_sig}) attributes {{pld.kind = #pld.func_kind<\"incore\">}} {{\n\
         \x20 %r = \"pld.tensor_allreduce\"(%d, %s) {{op = #pld.reduce_op<\"max\">}} : ({flat}, {ar_sig}) -> {flat}\n\
         \x20 return\n}}\n\
         func.func @chip_stage({params}) attributes {{pld.kind = #pld.func_kind<\"chip\">}} {{\n\
         \x20 func.call @stage(%fin, %s1) : ({flat}, {ar_sig}) -> ()\n"
    );
    if chip_rail {
        text += &exchange;
        text += &format!("  func.call @consume(%fout, %s2) : ({flat}, {ar_sig}) -> ()\n");
    }
    text += &format!(
        "  return\n}}\n\
         func.func @chip_consume({params}) attributes {{pld.kind = #pld.func_kind<\"chip\">}} {{\n\
         \x20 func.call @consume(%fout, %s2) : ({flat}, {ar_sig}) -> ()\n  return\n}}\n\
         func.func @main() attributes {{pld.kind = #pld.func_kind<\"host\">}} {{\n\
         \x20 %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n\
         \x20 %ws = \"pld.system_world_size\"() : () -> i64\n\
         \x20 %n = arith.index_cast %ws : i64 to index\n"
    );
    for (name, size, views) in [
        ("vin", bytes, vec![("vin", &big), ("fin", &flat)]),
        ("vout", bytes, vec![("vout", &big), ("fout", &flat)]),
        ("s1", 32, vec![("s1", &ar_sig.to_string())]),
        ("s2", 32, vec![("s2", &ar_sig.to_string())]),
        ("vsig", ranks * 40, vec![("vsig", &sig)]),
        ("cnt", ranks * 4, vec![("cnt", &cnt)]),
        ("rcv", ranks * 4, vec![("rcv", &rcv)]),
    ] {
        text += &format!(
            "  %{name}_bytes = arith.constant {size} : i64\n\
             \x20 %{name}_buf = \"pld.tensor_alloc_window_buffer\"(%{name}_bytes) {{name = \"{name}\"}} : (i64) -> !pld.ptr\n"
        );
        for (view, ty) in views {
            text +=
                &format!("  %{view} = \"pld.tensor_window\"(%{name}_buf) : (!pld.ptr) -> {ty}\n");
        }
    }
    let dispatch = |chip: &str| {
        format!(
            "  scf.for %r = %c0 to %n step %c1 {{\n    \"pld.dispatch\"(%r) ({{\n\
             \x20     func.call @{chip}({args}) : ({types}) -> ()\n      gpu.yield\n    }}) : (index) -> ()\n  }}\n"
        )
    };
    text += &dispatch("chip_stage");
    if !chip_rail {
        text += &exchange;
        text += &dispatch("chip_consume");
    }
    text += "  return\n}\n";
    text
}

#[test]
fn chip_rail_all_to_all_v_pipeline_matches_the_host_rail() {
    const CAP: usize = 4;
    const ROW: usize = 8;
    for ranks in [2usize, 4] {
        for core_num in [1, 5, 10] {
            let load = |chip: bool| {
                let text = a2av_pipeline(ranks, CAP, ROW, core_num, chip);
                ProgramRun::load(&text, "pipeline.mlir", None, ranks)
                    .unwrap_or_else(|e| panic!("{e}\n{text}"))
            };
            let (chip, host) = (load(true), load(false));
            for (name, counts) in count_matrices(ranks, CAP as i64) {
                let init = |b: &Buffer, d: usize| match b.name.as_str() {
                    "cnt" => counts[d].iter().flat_map(|c| c.to_le_bytes()).collect(),
                    "vout" | "rcv" => vec![0; b.view.bytes()],
                    _ => fill(b, d, false),
                };
                let what = format!("{name} P={ranks} core_num={core_num}");
                let on_chip = chip.execute(DEADLINE, false, true, init).unwrap();
                // stage, exchange, consume: one round trip on the CHIP
                // rail, three on the HOST rail.
                assert_clean(&format!("CHIP rail {what}"), &on_chip, 3, 1);
                let on_host = host.execute(DEADLINE, false, true, init).unwrap();
                assert_clean(&format!("HOST rail {what}"), &on_host, 3, 3);
                assert_eq!(on_chip.calls[1].kind.op_name(), "pld.tensor_all_to_all_v");
                assert!(on_chip.calls[1].location.contains("pipeline.mlir:"));
                let result = |o: &ProgramOutcome| -> Vec<Vec<u8>> {
                    let vout = chip.buffers.iter().position(|b| b.name == "vout").unwrap();
                    o.final_bytes[vout].clone()
                };
                assert_eq!(result(&on_chip), result(&on_host), "{what}: rails differ");
            }
        }
    }
}

/// The HOST rail's reduce (pld.builtin_reduce, root a run-time scalar of its
/// entry): on every P, dtype, op and a root at each end, the root's data
/// is the fold of every device's, computed here from the inputs, and the
/// others' data are unchanged.
#[test]
fn host_reduce_folds_into_the_root_only() {
    for ranks in [2usize, 3, 4, 8] {
        for (dtype, op, numel) in [
            ("f32", "sum", 300),
            ("f16", "max", 17),
            ("f32", "prod", 9),
            ("f16", "min", 600),
        ] {
            for root in [0, ranks - 1] {
                let elem = if dtype == "f16" { 2 } else { 4 };
                let ty = format!("tensor<{numel}x{dtype}, #pld.dist>");
                let sig = format!("tensor<{ranks}xi32, #pld.dist>");
                let body = format!(
                    "  %r = \"pld.tensor_reduce\"(%data, %sig) {{op = #pld.reduce_op<\"{op}\">, root = {root} : i64}} : ({ty}, {sig}) -> {ty}\n"
                );
                let text = program(
                    &[("data", ty.clone(), numel * elem), ("sig", sig, ranks * 4)],
                    &body,
                );
                let what = format!("reduce {op} {dtype} P={ranks} root={root}");
                let run = ProgramRun::load(&text, "reduce.mlir", None, ranks)
                    .unwrap_or_else(|e| panic!("{what}: {e}\n{text}"));
                let product = op == "prod";
                let outcome = run
                    .execute(DEADLINE, false, true, |b, d| fill(b, d, product))
                    .unwrap();
                assert_clean(&what, &outcome, 1, 2);
                let data = run.buffers.iter().position(|b| b.name == "data").unwrap();
                let dtype_of = run.buffers[data].view.dtype;
                for device in 0..ranks {
                    let bytes = &outcome.final_bytes[data][device];
                    for i in 0..numel {
                        let got = dtype_of.read(bytes, i);
                        let values = (0..ranks).map(|d| value(d, i, product));
                        let want = if device == root {
                            match op {
                                "sum" => values.sum(),
                                "max" => values.fold(f64::MIN, f64::max),
                                "min" => values.fold(f64::MAX, f64::min),
                                _ => values.product(),
                            }
                        } else {
                            value(device, i, product)
                        };
                        assert_eq!(got, want, "{what}: device {device} element {i}");
                    }
                }
            }
        }
    }
}

/// Every HOST builtin family past the 16 ranks the reference kernels stop
/// at, up to the 64 a CommContext can name: the calls' own goldens, and an
/// independent one computed here from the fill (an allreduce through the
/// mesh and the ring, a broadcast and a reduce from the last rank and from
/// rank 16, reduce_scatter, allgather, all_to_all), each on a buffer of its
/// own. Until the kernels' rank limit was raised every one of them left its
/// data as it was on 17 ranks or more, quietly.
#[test]
fn every_host_builtin_on_17_32_and_64_ranks() {
    for ranks in [17usize, 32, 64] {
        let p = ranks;
        let vec_ty = |n: usize| format!("tensor<1x{n}xf32, #pld.dist>");
        let rows = format!("tensor<{p}x8xf32, #pld.dist>");
        let row = vec_ty(8);
        let ring = format!("tensor<{p}x8xf32, #pld.dist>");
        let ring_sig = format!("tensor<{}x{p}xi32, #pld.dist>", 2 * (p - 1) + 1);
        let sig = format!("tensor<{p}xi32, #pld.dist>");
        let sig2 = format!("tensor<{p}x1xi32, #pld.dist>");
        let (mesh, last) = (vec_ty(300), p - 1);
        let body = format!(
            "  %ar = \"pld.tensor_allreduce\"(%mesh) {{op = #pld.reduce_op<\"sum\">, core_num = 4 : i64}} : ({mesh}) -> {mesh}\n\
             \x20 %rr = \"pld.tensor_allreduce\"(%ring, %ring_sig) {{op = #pld.reduce_op<\"sum\">, mode = \"ring\"}} : ({ring}, {ring_sig}) -> {ring}\n\
             \x20 %b = \"pld.tensor_barrier\"(%sig) : ({sig}) -> {sig}\n\
             \x20 %bl = \"pld.tensor_broadcast\"(%bc_last, %sig) {{root = {last} : i64}} : ({rows}, {sig}) -> {rows}\n\
             \x20 %b16 = \"pld.tensor_broadcast\"(%bc_16, %sig) {{root = 16 : i64}} : ({rows}, {sig}) -> {rows}\n\
             \x20 %rl = \"pld.tensor_reduce\"(%red_last, %sig) {{op = #pld.reduce_op<\"max\">, root = {last} : i64}} : ({rows}, {sig}) -> {rows}\n\
             \x20 %r16 = \"pld.tensor_reduce\"(%red_16, %sig) {{op = #pld.reduce_op<\"sum\">, root = 16 : i64}} : ({rows}, {sig}) -> {rows}\n\
             \x20 %s = \"pld.tensor_reduce_scatter\"(%rs, %sig) {{op = #pld.reduce_op<\"sum\">}} : ({rows}, {sig}) -> {rows}\n\
             \x20 %g = \"pld.tensor_allgather\"(%row, %ag, %sig2) : ({row}, {rows}, {sig2}) -> {rows}\n\
             \x20 %t = \"pld.tensor_all_to_all\"(%a2a_in, %a2a_out, %sig2) : ({rows}, {rows}, {sig2}) -> {rows}\n"
        );
        let mut buffers = vec![
            ("mesh", mesh.clone(), 1200),
            ("ring", ring.clone(), p * 32),
            ("ring_sig", ring_sig.clone(), (2 * (p - 1) + 1) * p * 4),
            ("row", row.clone(), 32),
            ("sig", sig.clone(), p * 4),
            ("sig2", sig2.clone(), p * 4),
        ];
        for name in [
            "bc_last", "bc_16", "red_last", "red_16", "rs", "ag", "a2a_in", "a2a_out",
        ] {
            buffers.push((name, rows.clone(), p * 32));
        }
        let text = program(&buffers, &body);
        let run = ProgramRun::load(&text, "wide.mlir", None, ranks)
            .unwrap_or_else(|e| panic!("{e}\n{text}"));
        let outcome = run
            .execute(Duration::from_secs(60), false, true, |b, d| {
                fill(b, d, false)
            })
            .unwrap_or_else(|e| panic!("P={ranks}: {e}"));
        assert_clean(&format!("wide P={ranks}"), &outcome, 10, 11);
        let at = |name: &str, d: usize| -> Vec<f32> {
            let values = final_values(&run, &outcome, name, d);
            values.into_iter().map(|v| v as f32).collect()
        };
        let sum = |i: usize| (0..p).map(|d| value(d, i, false)).sum::<f64>() as f32;
        let max = |i: usize| (0..p).map(|d| value(d, i, false)).fold(f64::MIN, f64::max) as f32;
        for d in 0..p {
            let sums: Vec<f32> = (0..300).map(sum).collect();
            assert_eq!(at("mesh", d), sums, "mesh allreduce P={p} rank {d}");
            let sums: Vec<f32> = (0..p * 8).map(sum).collect();
            assert_eq!(at("ring", d), sums, "ring allreduce P={p} rank {d}");
            let root_of = |root: usize| {
                (0..p * 8)
                    .map(|i| value(root, i, false) as f32)
                    .collect::<Vec<_>>()
            };
            assert_eq!(
                at("bc_last", d),
                root_of(last),
                "broadcast root {last} P={p} rank {d}"
            );
            assert_eq!(
                at("bc_16", d),
                root_of(16),
                "broadcast root 16 P={p} rank {d}"
            );
            let share = &at("rs", d)[d * 8..d * 8 + 8];
            let want: Vec<f32> = (d * 8..d * 8 + 8).map(sum).collect();
            assert_eq!(share, want, "reduce_scatter P={p} rank {d}");
            let gathered: Vec<f32> = (0..p)
                .flat_map(|s| (0..8).map(move |i| value(s, i, false) as f32))
                .collect();
            assert_eq!(at("ag", d), gathered, "allgather P={p} rank {d}");
            let exchanged: Vec<f32> = (0..p)
                .flat_map(|s| (d * 8..d * 8 + 8).map(move |i| value(s, i, false) as f32))
                .collect();
            assert_eq!(at("a2a_out", d), exchanged, "all_to_all P={p} rank {d}");
        }
        let maxes: Vec<f32> = (0..p * 8).map(max).collect();
        assert_eq!(at("red_last", last), maxes, "reduce max to {last} P={p}");
        let sums: Vec<f32> = (0..p * 8).map(sum).collect();
        assert_eq!(at("red_16", 16), sums, "reduce sum to 16 P={p}");
    }
}

/// The final f64 values of buffer `name` on `device` (empty when the
/// device is not in the buffer's comm domain).
fn final_values(run: &ProgramRun, outcome: &ProgramOutcome, name: &str, device: usize) -> Vec<f64> {
    let index = run.buffers.iter().position(|b| b.name == name).unwrap();
    let view = &run.buffers[index].view;
    let bytes = &outcome.final_bytes[index][device];
    if bytes.is_empty() {
        return Vec::new();
    }
    (0..view.elements())
        .map(|i| view.dtype.read(bytes, i))
        .collect()
}

/// Issue 20 item 4: a pair of devices and every device in one program,
/// with scopes inferred. `pair` is dispatched to devices 1 and 2 only, so
/// its domain's ranks are not its devices; `data` is used by a HOST
/// allreduce alone (no dispatch names it), which runs on every device.
/// The pair's allreduce comes first, so device 0's first call is not the
/// pair's: calls are matched per domain, not by position.
#[test]
fn two_inferred_comm_domains_and_a_host_only_allreduce() {
    const N: usize = 300;
    let ty = format!("tensor<{N}xf32, #pld.dist>");
    let text = format!(
        "func.func @pair_step(%p: {ty}) attributes {{pld.kind = #pld.func_kind<\"chip\">}} {{\n  return\n}}\n\
         func.func @main() attributes {{pld.kind = #pld.func_kind<\"host\">}} {{\n\
         \x20 %c1 = arith.constant 1 : index\n  %c2 = arith.constant 2 : index\n\
         \x20 %bytes = arith.constant {b} : i64\n\
         \x20 %pbuf = \"pld.tensor_alloc_window_buffer\"(%bytes) {{name = \"pair\"}} : (i64) -> !pld.ptr\n\
         \x20 %dbuf = \"pld.tensor_alloc_window_buffer\"(%bytes) {{name = \"data\"}} : (i64) -> !pld.ptr\n\
         \x20 %pair = \"pld.tensor_window\"(%pbuf) : (!pld.ptr) -> {ty}\n\
         \x20 %data = \"pld.tensor_window\"(%dbuf) : (!pld.ptr) -> {ty}\n\
         \x20 \"pld.dispatch\"(%c1) ({{\n    func.call @pair_step(%pair) : ({ty}) -> ()\n    gpu.yield\n  }}) : (index) -> ()\n\
         \x20 \"pld.dispatch\"(%c2) ({{\n    func.call @pair_step(%pair) : ({ty}) -> ()\n    gpu.yield\n  }}) : (index) -> ()\n\
         \x20 %p = \"pld.tensor_allreduce\"(%pair) {{op = #pld.reduce_op<\"sum\">}} : ({ty}) -> {ty}\n\
         \x20 %d = \"pld.tensor_allreduce\"(%data) {{op = #pld.reduce_op<\"max\">}} : ({ty}) -> {ty}\n\
         \x20 return\n}}\n",
        b = N * 4
    );
    let mut run =
        ProgramRun::load(&text, "two.mlir", None, 3).unwrap_or_else(|e| panic!("{e}\n{text}"));
    for ranks in [3usize, 4, 5] {
        run.replan(ranks).unwrap();
        let outcome = run
            .execute(DEADLINE, false, true, |b, d| fill(b, d, false))
            .unwrap();
        let what = format!("P={ranks}");
        assert!(outcome.outcome.ok(), "{what}: {:?}", outcome.outcome);
        assert!(outcome.leaks.is_empty(), "{what}: {:?}", outcome.leaks);
        let ranks_of: Vec<usize> = outcome.calls.iter().map(|c| c.ranks).collect();
        assert_eq!(ranks_of, [2, ranks], "{what}");
        for device in 0..ranks {
            let pair = final_values(&run, &outcome, "pair", device);
            if device == 1 || device == 2 {
                let want: Vec<f64> = (0..N)
                    .map(|i| value(1, i, false) + value(2, i, false))
                    .collect();
                assert_eq!(pair, want, "{what}: pair on device {device}");
            } else {
                assert!(
                    pair.is_empty(),
                    "{what}: device {device} has no pair window"
                );
            }
            let data = final_values(&run, &outcome, "data", device);
            let want: Vec<f64> = (0..N)
                .map(|i| {
                    (0..ranks)
                        .map(|d| value(d, i, false))
                        .fold(f64::MIN, f64::max)
                })
                .collect();
            assert_eq!(data, want, "{what}: data on device {device}");
        }
        // The simulator's own golden check agrees. Devices 1 and 2 have the
        // dispatch and two builtins, the others one builtin.
        assert_checked(&what, &outcome, 2);
        let trips: Vec<u64> = (0..ranks as u64)
            .map(|d| if d == 1 || d == 2 { 3 } else { 1 })
            .collect();
        assert_eq!(outcome.round_trips, trips, "{what}");
    }
}

/// Issue 20 item 4: hand-written sibling comm domains without their size
/// records (docs/dialect.md: they may be left out), one of them over
/// devices 0 and 2, holding an allreduce written without a signal (its
/// synthesized signal joins the domain of its data).
#[test]
fn hand_written_sibling_domains_without_sizes() {
    const N: usize = 64;
    let ty = format!("tensor<{N}xf32, #pld.dist>");
    let text = format!(
        "func.func @main() attributes {{pld.kind = #pld.func_kind<\"host\">}} {{\n\
         \x20 %bytes = arith.constant {b} : i64\n\
         \x20 %ws = \"pld.system_world_size\"() : () -> i64\n\
         \x20 %c4 = arith.constant 4 : i64\n\
         \x20 %sbytes = arith.muli %ws, %c4 : i64\n\
         \x20 %n = arith.index_cast %ws : i64 to index\n\
         \x20 \"pld.comm_domain\"() ({{\n\
         \x20   %dbuf = \"pld.tensor_alloc_window_buffer\"(%bytes) {{name = \"data\"}} : (i64) -> !pld.ptr\n\
         \x20   %sbuf = \"pld.tensor_alloc_window_buffer\"(%sbytes) {{name = \"sig\"}} : (i64) -> !pld.ptr\n\
         \x20   %data = \"pld.tensor_window\"(%dbuf) : (!pld.ptr) -> {ty}\n\
         \x20   %sig = \"pld.tensor_window\"(%sbuf, %n) : (!pld.ptr, index) -> tensor<?x1xi32, #pld.dist>\n\
         \x20   %s = \"pld.tensor_allreduce\"(%data, %sig) {{op = #pld.reduce_op<\"sum\">}} : ({ty}, tensor<?x1xi32, #pld.dist>) -> {ty}\n\
         \x20   gpu.yield\n\
         \x20 }}) {{name = \"world\", devices = array<i64>, slots = [\"data\", \"sig\"]}} : () -> ()\n\
         \x20 \"pld.comm_domain\"() ({{\n\
         \x20   %pbuf = \"pld.tensor_alloc_window_buffer\"(%bytes) {{name = \"pair\"}} : (i64) -> !pld.ptr\n\
         \x20   %pair = \"pld.tensor_window\"(%pbuf) : (!pld.ptr) -> {ty}\n\
         \x20   %p = \"pld.tensor_allreduce\"(%pair) {{op = #pld.reduce_op<\"min\">}} : ({ty}) -> {ty}\n\
         \x20   gpu.yield\n\
         \x20 }}) {{name = \"pair_domain\", devices = array<i64: 0, 2>, slots = [\"pair\"]}} : () -> ()\n\
         \x20 return\n}}\n",
        b = N * 4
    );
    for ranks in [3usize, 4] {
        let run = ProgramRun::load(&text, "siblings.mlir", None, ranks)
            .unwrap_or_else(|e| panic!("{e}\n{text}"));
        let outcome = run
            .execute(DEADLINE, false, true, |b, d| fill(b, d, false))
            .unwrap();
        let what = format!("P={ranks}");
        assert_checked(&what, &outcome, 2);
        for device in 0..ranks {
            let data = final_values(&run, &outcome, "data", device);
            let want: Vec<f64> = (0..N)
                .map(|i| (0..ranks).map(|d| value(d, i, false)).sum())
                .collect();
            assert_eq!(data, want, "{what}: data on device {device}");
            let pair = final_values(&run, &outcome, "pair", device);
            if device == 0 || device == 2 {
                let want: Vec<f64> = (0..N)
                    .map(|i| value(0, i, false).min(value(2, i, false)))
                    .collect();
                assert_eq!(pair, want, "{what}: pair on device {device}");
            } else {
                assert!(
                    pair.is_empty(),
                    "{what}: device {device} has no pair window"
                );
            }
        }
    }
}
