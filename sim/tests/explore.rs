//! The protocol explorer (docs/memory-model.md) on the shipped composite
//! collectives, which must stay clean under 200 schedules on 2, 3, 4 and
//! 8 ranks, and on the corpus of broken kernels in `tests/explore/`, each
//! of whose defects must be found within 100 schedules with a report that
//! names the right ops (the asynchronous-DMA ones among them: a read
//! before the wait, a source rewritten before the wait, an event never
//! waited), next to their clean sibling.

use pld_sim::explore::shadow::Conflict;
use pld_sim::explore::Memory;
use pld_sim::program::golden;
use pld_sim::program::{KernelInfo, Program};
use pld_sim::{Finding, Schedule};
use std::time::Duration;

const DEADLINE: Duration = Duration::from_secs(10);

/// Signals zero, counts small, data a ramp that differs per rank.
fn input(kernel: &KernelInfo, rank: usize, param: usize) -> Vec<u8> {
    let p = &kernel.params[param];
    if kernel.signals.contains(&param) {
        return vec![0; p.bytes()];
    }
    let value = |i: usize| match p.dtype {
        pld_sim::program::Dtype::I32 => ((rank + i) % 3) as f64,
        _ => ((rank * 5 + i) % 11) as f64 * 0.5 - 2.0,
    };
    (0..p.elements())
        .flat_map(|i| p.dtype.encode(value(i)))
        .collect()
}

/// What one schedule of `kernel` did: the outcome's findings, whether it
/// deadlocked (and at which source lines), the leaked cells of its signals
/// and whether the numbers were right.
struct Explored {
    findings: Vec<Finding>,
    deadlock: Option<Vec<String>>,
    leaks: Vec<(usize, usize)>,
    errors: Vec<String>,
    wrong: bool,
    report: String,
}

fn schedule(program: &Program, kernel: &KernelInfo, ranks: usize, seed: u64) -> Explored {
    let inputs: Vec<Vec<Vec<u8>>> = (0..ranks)
        .map(|r| {
            (0..kernel.params.len())
                .map(|p| input(kernel, r, p))
                .collect()
        })
        .collect();
    let finished = program
        .run_explored(
            &kernel.name,
            ranks,
            DEADLINE,
            false,
            Some(Schedule { seed }),
            |rank, param| inputs[rank][param].clone(),
        )
        .expect("runs");
    let outcome = &finished.outcome;
    let mut leaks = Vec::new();
    for &signal in &kernel.signals {
        let offset = finished.offsets[signal].unwrap_or(0);
        for leak in finished
            .domain
            .leaks(offset, kernel.params[signal].elements())
        {
            leaks.push((leak.rank, leak.index));
        }
    }
    let wrong = kernel.collectives.len() == 1
        && kernel.collectives[0].op() != "pld.tensor_barrier"
        && golden::check(kernel, &inputs, &finished.buffers())
            .expect("a golden")
            .iter()
            .any(|c| !c.ok);
    let deadlock = outcome.deadlock.as_ref().map(|d| {
        d.blocked
            .iter()
            .filter_map(|b| b.site.as_ref().map(|s| s.location.clone()))
            .collect()
    });
    let report = format!(
        "{} steps\n{:#?}\n{}",
        outcome.steps,
        outcome.findings,
        outcome
            .deadlock
            .as_ref()
            .map_or(String::new(), |d| d.to_string())
    );
    Explored {
        findings: outcome.findings.clone(),
        deadlock,
        leaks,
        errors: outcome.errors.clone(),
        wrong,
        report,
    }
}

/// The composite collectives of `examples/`, shaped for `p` ranks.
fn collectives(p: usize) -> Vec<(&'static str, String)> {
    let ring_rows = 2 * p - 2;
    let root = p - 1;
    let kernel = |name: &str, params: &str, types: &str, op: &str, attrs: &str, result: &str| {
        format!(
            "func.func @{name}({params}) attributes {{pld.kind = #pld.func_kind<\"incore\">}} {{\n  \
             %r = \"{op}\"({operands}){attrs} : ({types}) -> {result}\n  return\n}}\n",
            operands = params
                .split('%')
                .skip(1)
                .map(|p| format!("%{}", p.split(':').next().unwrap()))
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    let sig = format!("tensor<{p}x1xi32, #pld.dist>");
    let data = "tensor<1x300xf32, #pld.dist>";
    // Odd, so the FP16 segments are ragged and the last one is padded.
    let half = "tensor<3x101xf16, #pld.dist>";
    let rows = format!("tensor<{p}x24xf32, #pld.dist>");
    let plain_rows = format!("tensor<{p}x24xf32>");
    vec![
        (
            "barrier",
            kernel(
                "barrier",
                &format!("%s: {sig}"),
                &sig,
                "pld.tensor_barrier",
                "",
                &sig,
            ),
        ),
        (
            "allreduce",
            kernel(
                "allreduce",
                &format!("%d: {data}, %s: {sig}"),
                &format!("{data}, {sig}"),
                "pld.tensor_allreduce",
                " {op = #pld.reduce_op<\"sum\">}",
                data,
            ),
        ),
        (
            "ring_allreduce",
            kernel(
                "ring_allreduce",
                &format!("%d: {data}, %s: tensor<{ring_rows}x{p}xi32, #pld.dist>"),
                &format!("{data}, tensor<{ring_rows}x{p}xi32, #pld.dist>"),
                "pld.tensor_allreduce",
                " {op = #pld.reduce_op<\"sum\">, mode = \"ring\"}",
                data,
            ),
        ),
        (
            "two_shot_allreduce",
            kernel(
                "two_shot_allreduce",
                &format!("%d: {data}, %s: {sig}"),
                &format!("{data}, {sig}"),
                "pld.tensor_allreduce",
                " {op = #pld.reduce_op<\"sum\">, mode = \"two_shot\"}",
                data,
            ),
        ),
        (
            "two_shot_allreduce_f16",
            kernel(
                "two_shot_allreduce_f16",
                &format!("%d: {half}, %s: {sig}"),
                &format!("{half}, {sig}"),
                "pld.tensor_allreduce",
                " {op = #pld.reduce_op<\"max\">, mode = \"two_shot\"}",
                half,
            ),
        ),
        (
            "broadcast",
            kernel(
                "broadcast",
                &format!("%t: tensor<2x40xf32, #pld.dist>, %s: {sig}"),
                &format!("tensor<2x40xf32, #pld.dist>, {sig}"),
                "pld.tensor_broadcast",
                &format!(" {{root = {root} : i64}}"),
                "tensor<2x40xf32, #pld.dist>",
            ),
        ),
        (
            "reduce",
            kernel(
                "reduce",
                &format!("%d: {data}, %s: {sig}"),
                &format!("{data}, {sig}"),
                "pld.tensor_reduce",
                &format!(" {{op = #pld.reduce_op<\"max\">, root = {root} : i64}}"),
                data,
            ),
        ),
        (
            "allgather",
            kernel(
                "allgather",
                &format!("%i: tensor<1x24xf32>, %t: {rows}, %s: {sig}"),
                &format!("tensor<1x24xf32>, {rows}, {sig}"),
                "pld.tensor_allgather",
                "",
                &rows,
            ),
        ),
        (
            "reduce_scatter",
            kernel(
                "reduce_scatter",
                &format!("%t: {rows}, %s: {sig}"),
                &format!("{rows}, {sig}"),
                "pld.tensor_reduce_scatter",
                " {op = #pld.reduce_op<\"sum\">}",
                &rows,
            ),
        ),
        (
            "all_to_all",
            kernel(
                "all_to_all",
                &format!("%i: {plain_rows}, %t: {rows}, %s: {sig}"),
                &format!("{plain_rows}, {rows}, {sig}"),
                "pld.tensor_all_to_all",
                "",
                &rows,
            ),
        ),
        (
            "all_to_all_v",
            kernel(
                "all_to_all_v",
                &format!(
                    "%i: tensor<{r}x8xf32>, %t: tensor<{r}x8xf32, #pld.dist>, %s: {sig}, \
                     %sc: tensor<{p}xi32>, %rc: tensor<{p}x1xi32, #pld.dist>",
                    r = 2 * p
                ),
                &format!(
                    "tensor<{r}x8xf32>, tensor<{r}x8xf32, #pld.dist>, {sig}, tensor<{p}xi32>, \
                     tensor<{p}x1xi32, #pld.dist>",
                    r = 2 * p
                ),
                "pld.tensor_all_to_all_v",
                "",
                &format!("tensor<{}x8xf32, #pld.dist>", 2 * p),
            ),
        ),
    ]
}

#[test]
fn the_shipped_composite_collectives_are_clean_over_200_schedules() {
    for p in [2, 3, 4, 8] {
        for (name, text) in collectives(p) {
            let program = Program::load_named(&text, &format!("{name}.mlir"))
                .unwrap_or_else(|e| panic!("{name} on {p}: {e}\n{text}"));
            let kernel = &program.kernels[0];
            for seed in 0..200 {
                let s = schedule(&program, kernel, p, seed);
                assert!(
                    s.findings.is_empty()
                        && s.deadlock.is_none()
                        && s.leaks.is_empty()
                        && s.errors.is_empty()
                        && !s.wrong,
                    "{name} on {p} ranks, seed {seed}: leaks {:?}, errors {:?}, wrong {}\n{}",
                    s.leaks,
                    s.errors,
                    s.wrong,
                    s.report
                );
            }
        }
    }
}

/// A broken kernel of the corpus, the ranks it runs on, and what must be
/// found.
struct Broken {
    file: &'static str,
    ranks: usize,
    /// Whether a schedule's result shows the defect, with the source lines
    /// (1-based) the report must name.
    found: Check,
}

/// Whether a schedule shows the defect, given a lookup of source lines by
/// their text.
type Check = fn(&Explored, &dyn Fn(&str) -> usize) -> bool;

/// The 1-based line of `file`'s text that first contains `pattern` (after
/// the header comment).
fn line_of(text: &str, pattern: &str) -> usize {
    text.lines()
        .position(|l| !l.starts_with("//") && l.contains(pattern))
        .map(|i| i + 1)
        .unwrap_or_else(|| panic!("no line with {pattern}"))
}

/// Whether `sites` name exactly lines `lines` of the corpus file.
fn names(sites: &[&pld_sim::runtime::sites::Site], lines: &[usize]) -> bool {
    sites.len() == lines.len()
        && sites
            .iter()
            .zip(lines)
            .all(|(s, l)| s.location.contains(&format!(":{l}:")))
}

/// A race of kind `conflict` on bytes of a rank's own memory (outside its
/// window), naming the ops of `lines`, later first.
fn own_memory_race(s: &Explored, conflict: Conflict, lines: [usize; 2]) -> bool {
    s.findings.iter().any(|f| match f {
        Finding::Race {
            conflict: found,
            bytes,
            ..
        } => {
            *found == conflict
                && matches!(bytes.memory, Memory::Own(_))
                && names(&f.sites(), &lines)
        }
        _ => false,
    })
}

const CORPUS: &[Broken] = &[
    Broken {
        file: "remote-load-without-wait.mlir",
        ranks: 2,
        found: |s, line| {
            let (load, store) = (line("pld.tile_remote_load"), line("\"pld.tile_store\"(%t"));
            s.findings.iter().any(|f| {
                matches!(f, Finding::Race { .. })
                    && (names(&f.sites(), &[load, store]) || names(&f.sites(), &[store, load]))
            })
        },
    },
    Broken {
        file: "missing-fence.pto.mlir",
        ranks: 2,
        found: |s, line| {
            let (notify, store) = (line("pto.comm_tnotify"), line("pto.tstore"));
            s.findings.iter().any(|f| {
                matches!(f, Finding::UnfencedNotify { .. }) && names(&f.sites(), &[notify, store])
            })
        },
    },
    Broken {
        file: "wait-one-credit-too-many.mlir",
        ranks: 3,
        found: |s, line| {
            let wait = line("pld.system_wait");
            s.deadlock.as_ref().is_some_and(|sites| {
                !sites.is_empty() && sites.iter().all(|l| l.contains(&format!(":{wait}:")))
            })
        },
    },
    Broken {
        file: "epilogue-forgets-a-row.mlir",
        ranks: 3,
        // Row 2 (the last rank's cell) keeps its credit on ranks 0 and 1.
        found: |s, _| s.leaks.contains(&(0, 2)) && s.leaks.contains(&(1, 2)),
    },
    Broken {
        file: "set-and-add-mixed.mlir",
        ranks: 3,
        found: |s, line| {
            let set = line("notify_op<\"set\">");
            let add = line("%minus) {op");
            s.findings
                .iter()
                .any(|f| matches!(f, Finding::MixedNotify { .. }) && names(&f.sites(), &[set, add]))
        },
    },
    Broken {
        file: "rank-dependent-wait.mlir",
        ranks: 2,
        found: |s, line| {
            let (load, store) = (line("pld.tile_remote_load"), line("\"pld.tile_store\"(%t"));
            s.findings.iter().any(|f| match f {
                Finding::Race { later, earlier, .. } => {
                    // Rank 0, the one that skips its wait, reads unordered.
                    let pair = [later, earlier];
                    pair.iter().any(|a| {
                        a.rank == 0
                            && a.site
                                .as_ref()
                                .is_some_and(|s| s.location.contains(&format!(":{load}:")))
                    }) && (names(&f.sites(), &[load, store]) || names(&f.sites(), &[store, load]))
                }
                _ => false,
            })
        },
    },
    Broken {
        file: "scalar-read-before-wait.mlir",
        ranks: 2,
        found: |s, line| {
            let (read, store) = (line("pld.tensor_read"), line("pld.tile_remote_store"));
            s.findings.iter().any(|f| {
                matches!(f, Finding::Race { .. })
                    && (names(&f.sites(), &[read, store]) || names(&f.sites(), &[store, read]))
            })
        },
    },
    Broken {
        file: "async-read-before-wait.pto.mlir",
        ranks: 2,
        found: |s, line| {
            let (load, put) = (line("\"pto.tload\"(%received"), line("pto.comm_tput_async"));
            s.findings.iter().any(|f| match f {
                Finding::Race { earlier, .. } => {
                    earlier.asynchronous
                        && (names(&f.sites(), &[load, put]) || names(&f.sites(), &[put, load]))
                }
                _ => false,
            })
        },
    },
    Broken {
        file: "async-source-reused-before-wait.pto.mlir",
        ranks: 2,
        found: |s, line| {
            let (store, put) = (line("written again") + 1, line("pto.comm_tput_async"));
            s.findings.iter().any(|f| {
                matches!(
                    f,
                    Finding::Race {
                        conflict: Conflict::WriteAfterRead,
                        ..
                    }
                ) && names(&f.sites(), &[store, put])
            })
        },
    },
    Broken {
        file: "async-plain-source-reused-before-wait.pto.mlir",
        ranks: 2,
        found: |s, line| {
            let (store, put) = (line("written again") + 1, line("pto.comm_tput_async"));
            own_memory_race(s, Conflict::WriteAfterRead, [store, put])
        },
    },
    Broken {
        file: "async-get-destination-read-before-wait.pto.mlir",
        ranks: 2,
        found: |s, line| {
            let (load, get) = (line("may still write it") + 1, line("pto.comm_tget_async"));
            own_memory_race(s, Conflict::ReadAfterWrite, [load, get])
        },
    },
    Broken {
        file: "async-event-never-waited.pto.mlir",
        ranks: 2,
        found: |s, line| {
            let put = line("pto.comm_tput_async");
            s.findings
                .iter()
                .any(|f| matches!(f, Finding::UnwaitedCopy { .. }) && names(&f.sites(), &[put]))
        },
    },
    Broken {
        file: "signal-index-past-its-shape.mlir",
        ranks: 2,
        found: |s, line| {
            let notify = line("%row, %c0, %one");
            s.findings.iter().any(|f| {
                matches!(f, Finding::OutsideSignals { .. }) && names(&f.sites(), &[notify])
            })
        },
    },
];

fn corpus_file(file: &str) -> (String, String) {
    let path = format!("{}/../tests/explore/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    (format!("tests/explore/{file}"), text)
}

#[test]
fn every_broken_kernel_of_the_corpus_is_found_within_100_schedules() {
    for broken in CORPUS {
        let (name, text) = corpus_file(broken.file);
        let program = Program::load_named(&text, &name).unwrap_or_else(|e| panic!("{name}: {e}"));
        let kernel = &program.kernels[0];
        let line = |pattern: &str| line_of(&text, pattern);
        let first = (0..100).find(|&seed| {
            let s = schedule(&program, kernel, broken.ranks, seed);
            (broken.found)(&s, &line)
        });
        assert!(
            first.is_some(),
            "{name}: the defect was not found in 100 schedules; the first one reported:\n{}",
            schedule(&program, kernel, broken.ranks, 0).report
        );
    }
}

#[test]
fn a_broken_kernel_passes_a_plain_run_that_the_explorer_catches() {
    // Without the explorer the remote load without its wait usually gets
    // the right numbers: nothing is reported.
    let (name, text) = corpus_file("remote-load-without-wait.mlir");
    let program = Program::load_named(&text, &name).unwrap();
    let kernel = &program.kernels[0];
    let plain = program
        .run(&kernel.name, 2, DEADLINE, |r, p| input(kernel, r, p))
        .unwrap();
    assert!(plain.outcome.ok(), "{:?}", plain.outcome);
    let explored = schedule(&program, kernel, 2, 0);
    assert!(explored.findings.iter().any(|f| matches!(
        f,
        Finding::Race {
            conflict: Conflict::ReadAfterWrite | Conflict::WriteAfterRead,
            ..
        }
    )));
}

#[test]
fn the_same_seed_gives_the_same_schedule_and_report() {
    for file in ["set-and-add-mixed.mlir", "remote-load-without-wait.mlir"] {
        let (name, text) = corpus_file(file);
        let program = Program::load_named(&text, &name).unwrap();
        let kernel = &program.kernels[0];
        let ranks = if file.starts_with("set") { 3 } else { 2 };
        let mut reports = std::collections::HashSet::new();
        for seed in 0..8 {
            let once = schedule(&program, kernel, ranks, seed);
            let again = schedule(&program, kernel, ranks, seed);
            assert_eq!(once.report, again.report, "{file}, seed {seed}");
            assert_eq!(once.leaks, again.leaks, "{file}, seed {seed}");
            reports.insert(once.report);
        }
        // And the seeds do explore: not every schedule is the same.
        assert!(reports.len() > 1, "{file}: eight seeds, one schedule");
    }
}

/// The clean sibling of the asynchronous corpus kernels: over 200
/// schedules (copies landing late, or at random turns) nothing is found,
/// and every rank's output is its peer's input, computed here.
#[test]
fn the_waited_asynchronous_put_is_clean_and_right_over_200_schedules() {
    let (name, text) = corpus_file("async-put-waited.pto.mlir");
    let program = Program::load_named(&text, &name).unwrap_or_else(|e| panic!("{name}: {e}"));
    let kernel = &program.kernels[0];
    let row = |rank: usize| -> Vec<u8> {
        (0..64)
            .flat_map(|i| (rank as f32 * 100.0 + i as f32).to_le_bytes())
            .collect()
    };
    for seed in 0..200 {
        let finished = program
            .run_explored(
                &kernel.name,
                2,
                DEADLINE,
                false,
                Some(Schedule { seed }),
                |rank, param| match param {
                    2 => row(rank),
                    _ => vec![0; kernel.params[param].bytes()],
                },
            )
            .expect("runs");
        assert!(finished.outcome.ok(), "seed {seed}: {:?}", finished.outcome);
        let buffers = finished.buffers();
        for (rank, params) in buffers.iter().enumerate() {
            assert_eq!(
                params[3],
                row(1 - rank),
                "seed {seed}: rank {rank}'s output"
            );
        }
    }
}
