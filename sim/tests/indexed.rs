//! `pld.tensor_indexed_all_to_all_v` on the CHIP rail of an A5 program, run
//! on simulated ranks whose URMA copies land when the simulator chooses
//! (between their submit and their completion wait): P = 2, 3, 4 and 8,
//! core_num L in {1, P-1, P, 2P+1}, f32 and i8, with index-gathered rows
//! (runs of consecutive source rows, repeats, indices outside the input),
//! counts clamped at both ends, the self slot and ragged blocks. Every
//! rank's target and received counts are compared with values computed
//! here from the inputs, written from the semantics in
//! docs/passes/pld-lower-l2-tensor-collectives.md (and with `--check`'s
//! golden, which must agree); every signal is back at zero. Under the
//! protocol explorer the exchange is clean over 200 schedules.

use pld_sim::program::orchestrate::{Buffer, ProgramOutcome, ProgramRun};
use pld_sim::Schedule;
use std::time::Duration;

const DEADLINE: Duration = Duration::from_secs(20);
/// Rows each sender owns in a receiver's target (MAX), and row width.
const CAP: usize = 3;
const ROW: usize = 8;

/// The program: one CHIP orchestrator per device calls the exchange with
/// core_num `l` on window buffers named as below.
fn program(ranks: usize, l: usize, elem: &str) -> String {
    let rows = ranks * CAP;
    let lanes = l.max(1);
    let t = |shape: &str, e: &str| format!("tensor<{shape}x{e}, #pld.dist>");
    let (data, signal) = (
        t(&format!("{rows}x{ROW}"), elem),
        t(&format!("{ranks}x{lanes}"), "i32"),
    );
    let (counts, recv, index) = (
        t(&ranks.to_string(), "i32"),
        t(&format!("{ranks}x1"), "i32"),
        t(&rows.to_string(), "i32"),
    );
    let types = [&data, &data, &signal, &counts, &recv, &index].map(|s| s.as_str());
    let names = [
        "input",
        "target",
        "signal",
        "send_counts",
        "recv_counts",
        "index",
    ];
    let params: Vec<String> = names
        .iter()
        .zip(types)
        .map(|(n, t)| format!("%{n}: {t}"))
        .collect();
    let args: Vec<String> = names.iter().map(|n| format!("%{n}")).collect();
    let mut text = format!(
        "module attributes {{pld.target = \"a5\"}} {{\n\
         func.func @exchange({}) attributes {{pld.kind = #pld.func_kind<\"chip\">}} {{\n\
         \x20 %l = arith.constant {l} : index\n\
         \x20 %r = \"pld.tensor_indexed_all_to_all_v\"({}, %l) : ({}, index) -> {data}\n\
         \x20 return\n}}\n\
         func.func @main() attributes {{pld.kind = #pld.func_kind<\"host\">}} {{\n\
         \x20 %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n\
         \x20 %ws = \"pld.system_world_size\"() : () -> i64\n\
         \x20 %n = arith.index_cast %ws : i64 to index\n",
        params.join(", "),
        args.join(", "),
        types.join(", "),
    );
    let elem_bytes = if elem == "i8" { 1 } else { 4 };
    let bytes = [
        rows * ROW * elem_bytes,
        rows * ROW * elem_bytes,
        ranks * lanes * 4,
        ranks * 4,
        ranks * 4,
        rows * 4,
    ];
    for ((name, ty), bytes) in names.iter().zip(types).zip(bytes) {
        text += &format!(
            "  %{name}_bytes = arith.constant {bytes} : i64\n\
             \x20 %{name}_buf = \"pld.tensor_alloc_window_buffer\"(%{name}_bytes) {{name = \"{name}\"}} : (i64) -> !pld.ptr\n\
             \x20 %{name} = \"pld.tensor_window\"(%{name}_buf) : (!pld.ptr) -> {ty}\n"
        );
    }
    text += &format!(
        "  scf.for %d = %c0 to %n step %c1 {{\n    \"pld.dispatch\"(%d) ({{\n\
         \x20     func.call @exchange({}) : ({}) -> ()\n      gpu.yield\n    }}) : (index) -> ()\n  }}\n\
         \x20 return\n}}\n}}\n",
        args.join(", "),
        types.join(", ")
    );
    text
}

/// A small deterministic generator (no dependency): splitmix64.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// What rank `s` asks to send rank `d`: every clamping case appears
/// (negative, 0, inside, exactly CAP, above CAP).
fn count(s: usize, d: usize) -> i32 {
    [-2, 0, 1, 2, CAP as i32, CAP as i32 + 4][(s * 5 + d * 3) % 6]
}

/// Rank `s`'s index entry for row k of destination d's slot: mostly a run
/// of consecutive rows from a start of its own, with repeats of the start
/// and indices outside the input (-1, N) mixed in.
fn index(s: usize, d: usize, k: usize, rows: usize) -> i32 {
    let pair = (s * 64 + d) as u64;
    let start = (mix(pair) % rows as u64) as usize;
    match mix(pair * 16 + k as u64) % 6 {
        0 => -1,
        1 => rows as i32,
        2 => start as i32,
        _ => ((start + k) % rows) as i32,
    }
}

/// Every buffer's initial bytes: the input rows distinct per rank and
/// row, the target a sentinel (so rows left alone are seen), counts and
/// indices as above, the received counts garbage.
fn init(b: &Buffer, device: usize, ranks: usize) -> Vec<u8> {
    let rows = ranks * CAP;
    let dtype = b.view.dtype;
    let encode = |v: f64| dtype.encode(v);
    match b.name.as_str() {
        "input" => (0..b.view.elements())
            .flat_map(|i| encode(((device * 37 + i) % 101) as f64))
            .collect(),
        "target" => (0..b.view.elements())
            .flat_map(|i| encode(-1.0 - (i % 7) as f64))
            .collect(),
        "send_counts" => (0..ranks)
            .flat_map(|d| count(device, d).to_le_bytes())
            .collect(),
        "recv_counts" => (0..ranks).flat_map(|_| 77i32.to_le_bytes()).collect(),
        "index" => (0..rows)
            .flat_map(|i| index(device, i / CAP, i % CAP, rows).to_le_bytes())
            .collect(),
        _ => vec![0; b.view.bytes()],
    }
}

/// The final values of buffer `name` on `device`.
fn values(run: &ProgramRun, outcome: &ProgramOutcome, name: &str, device: usize) -> Vec<f64> {
    let at = run.buffers.iter().position(|b| b.name == name).unwrap();
    let view = &run.buffers[at].view;
    (0..view.elements())
        .map(|i| view.dtype.read(&outcome.final_bytes[at][device], i))
        .collect()
}

/// Rank `me`'s expected target and received counts, from the initial
/// values of every rank (the semantics, written out again here).
fn expected(run: &ProgramRun, ranks: usize, me: usize) -> (Vec<f64>, Vec<f64>) {
    let rows = ranks * CAP;
    let buffer = |name: &str| run.buffers.iter().find(|b| b.name == name).unwrap();
    let decode = |name: &str, device: usize| -> Vec<f64> {
        let b = buffer(name);
        let bytes = init(b, device, ranks);
        (0..b.view.elements())
            .map(|i| b.view.dtype.read(&bytes, i))
            .collect()
    };
    let mut target = decode("target", me);
    let recv = (0..ranks)
        .map(|s| count(s, me).clamp(0, CAP as i32) as f64)
        .collect();
    for s in 0..ranks {
        let sent = count(s, me).clamp(0, CAP as i32) as usize;
        let input = decode("input", s);
        for k in 0..sent {
            let from = index(s, me, k, rows);
            if from < 0 || from as usize >= rows {
                continue;
            }
            let from = from as usize;
            let to = s * CAP + k;
            target[to * ROW..(to + 1) * ROW].copy_from_slice(&input[from * ROW..(from + 1) * ROW]);
        }
    }
    (target, recv)
}

fn core_nums(ranks: usize) -> Vec<usize> {
    let mut l = vec![1, ranks - 1, ranks, 2 * ranks + 1];
    l.sort_unstable();
    l.dedup();
    l
}

fn check(what: &str, run: &ProgramRun, outcome: &ProgramOutcome, ranks: usize) {
    assert!(outcome.outcome.ok(), "{what}: {:?}", outcome.outcome);
    assert!(
        outcome.leaks.is_empty(),
        "{what}: leaks {:?}",
        outcome.leaks
    );
    for me in 0..ranks {
        let (target, recv) = expected(run, ranks, me);
        assert_eq!(
            values(run, outcome, "target", me),
            target,
            "{what}: rank {me}'s target"
        );
        assert_eq!(
            values(run, outcome, "recv_counts", me),
            recv,
            "{what}: rank {me}'s counts"
        );
    }
}

#[test]
fn indexed_exchanges_match_the_semantics_on_2_3_4_and_8_ranks() {
    for ranks in [2, 3, 4, 8] {
        for l in core_nums(ranks) {
            for elem in ["f32", "i8"] {
                let what = format!("P={ranks} L={l} {elem}");
                let text = program(ranks, l, elem);
                let run = ProgramRun::load(&text, "indexed.mlir", None, ranks)
                    .unwrap_or_else(|e| panic!("{what}: {e}\n{text}"));
                let outcome = run
                    .execute(DEADLINE, false, true, |b, d| init(b, d, ranks))
                    .unwrap_or_else(|e| panic!("{what}: {e}"));
                check(&what, &run, &outcome, ranks);
                // --check's golden agrees.
                assert_eq!(outcome.calls.len(), 1, "{what}");
                let checked = outcome.calls[0].check.as_ref().expect("a golden");
                assert!(checked.iter().all(|r| r.ok), "{what}: {checked:?}");
                assert_eq!(
                    outcome.calls[0].kind.op_name(),
                    "pld.tensor_indexed_all_to_all_v"
                );
            }
        }
    }
}

#[test]
fn indexed_exchanges_are_clean_over_200_explored_schedules() {
    for (ranks, l) in [(2, 1), (2, 5), (3, 2), (3, 3), (4, 9), (8, 7), (8, 17)] {
        let text = program(ranks, l, "f32");
        let run = ProgramRun::load(&text, "indexed.mlir", None, ranks).unwrap();
        for seed in 0..200 {
            let what = format!("P={ranks} L={l} seed {seed}");
            let outcome = run
                .execute_explored(DEADLINE, false, false, Some(Schedule { seed }), |b, d| {
                    init(b, d, ranks)
                })
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            assert!(
                outcome.outcome.findings.is_empty(),
                "{what}: {:?}",
                outcome.outcome.findings
            );
            check(&what, &run, &outcome, ranks);
        }
    }
}
