//! Robustness: seeded mutations of the lit inputs (byte flips, truncations,
//! token swaps, ...) fed to `pld-opt` (sometimes through the pipelines) and
//! `pld-translate`. Every run must end with exit status 0
//! (the mutation was harmless) or 1 (a located error): never a panic, an
//! abort or a signal. Mutations of the small kernels and programs of the
//! `pld-run` lit tests and the examples run through `pld-run` (a few ranks,
//! a short deadline, a fifth under the protocol explorer) and must end with
//! 0, 1 or 3 (a deadlock); mutated
//! `.npy` files go through the reader `pld-run --input` uses, which must
//! return an error rather than panic. A failing input is saved for
//! reproduction.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Number of mutated inputs per run of the test (`PLD_MUTATIONS` overrides,
/// for longer exploratory runs).
const MUTATIONS: usize = 600;
/// Seed of the first mutation; mutation `i` uses `SEED + i`
/// (`PLD_MUTATION_SEED` overrides).
const SEED: u64 = 0x5eed_f91d;

fn setting(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A small deterministic generator (xorshift64*), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

/// Tokens worth inserting: IR punctuation and pld spellings.
const TOKENS: &[&str] = &[
    "}",
    "{",
    "(",
    ")",
    "<",
    ">",
    ",",
    ":",
    "->",
    "%0",
    "%arg0",
    "-1",
    "0",
    "4294967296",
    "tensor<",
    "tensor<?x1xi32, #pld.dist>",
    "#pld.dist",
    "#pld.tile",
    "#pld.dist_with<{}>",
    "!pld.ptr",
    "!pld.ctx",
    "\"pld.tensor_allreduce\"",
    "\"pld.tile_remote_load\"",
    "operandSegmentSizes = array<i32: 1, -1>",
    "#pld.reduce_op<\"\">",
    "gpu.yield",
    "func.func",
    "// -----",
    "// expected-error@+1 {{x}}",
    "\"",
    "\u{0}",
    "@",
    "#",
    "!",
];

/// Byte spans of the white-space separated tokens of `bytes`.
fn tokens(bytes: &[u8]) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut start = None;
    for (i, c) in bytes.iter().enumerate() {
        match (c.is_ascii_whitespace(), start) {
            (false, None) => start = Some(i),
            (true, Some(s)) => {
                spans.push((s, i));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        spans.push((s, bytes.len()));
    }
    spans
}

/// Applies one to three random mutations to `text`, working on bytes (a
/// byte flip may leave invalid UTF-8 for later steps).
fn mutate(text: &str, rng: &mut Rng) -> Vec<u8> {
    let mut bytes = text.as_bytes().to_vec();
    for _ in 0..1 + rng.below(3) {
        if bytes.is_empty() {
            break;
        }
        match rng.below(7) {
            // Flip one byte to a random value.
            0 => {
                let i = rng.below(bytes.len());
                bytes[i] = rng.next() as u8;
            }
            // Truncate.
            1 => {
                let at = rng.below(bytes.len());
                bytes.truncate(at);
            }
            // Swap two tokens.
            2 => {
                let spans = tokens(&bytes);
                if spans.len() >= 2 {
                    let (a, b) = (spans[rng.below(spans.len())], spans[rng.below(spans.len())]);
                    let (first, second) = if a.0 <= b.0 { (a, b) } else { (b, a) };
                    if first.1 <= second.0 {
                        bytes = [
                            &bytes[..first.0],
                            &bytes[second.0..second.1],
                            &bytes[first.1..second.0],
                            &bytes[first.0..first.1],
                            &bytes[second.1..],
                        ]
                        .concat();
                    }
                }
            }
            // Delete a token.
            3 => {
                let spans = tokens(&bytes);
                if !spans.is_empty() {
                    let (s, e) = spans[rng.below(spans.len())];
                    bytes.drain(s..e);
                }
            }
            // Insert a token.
            4 => {
                let spans = tokens(&bytes);
                if !spans.is_empty() {
                    let (s, _) = spans[rng.below(spans.len())];
                    let token = TOKENS[rng.below(TOKENS.len())];
                    bytes.splice(s..s, format!("{token} ").into_bytes());
                }
            }
            // Duplicate a line.
            5 => {
                let lines: Vec<&[u8]> = bytes.split_inclusive(|b| *b == b'\n').collect();
                let i = rng.below(lines.len());
                let mut out = lines.clone();
                out.insert(i, lines[i]);
                bytes = out.concat();
            }
            // Change a number.
            _ => {
                let digits: Vec<usize> = bytes
                    .iter()
                    .enumerate()
                    .filter(|(_, c)| c.is_ascii_digit())
                    .map(|(i, _)| i)
                    .collect();
                if !digits.is_empty() {
                    let i = digits[rng.below(digits.len())];
                    let replacement = ["0", "9", "-1", "99999999999"][rng.below(4)];
                    bytes.splice(i..i + 1, replacement.bytes());
                }
            }
        }
    }
    bytes
}

fn lit_inputs(root: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut pending = vec![root.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                if path.file_name().is_some_and(|n| n != "Output") {
                    pending.push(path);
                }
            } else if path.extension().is_some_and(|e| e == "mlir") {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

#[test]
fn mutated_inputs_never_crash_the_tools() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let inputs: Vec<(PathBuf, String)> = lit_inputs(&workspace.join("tests/lit"))
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).expect("read lit input");
            (p, text)
        })
        .collect();
    assert!(!inputs.is_empty(), "no lit inputs found");
    let pld_opt = env!("CARGO_BIN_EXE_pld-opt");
    let pld_translate = env!("CARGO_BIN_EXE_pld-translate");
    let scratch = std::env::temp_dir().join(format!("pld-mutation-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).expect("scratch directory");
    let saved = workspace.join("target/mutation-failures");

    let mutations = setting("PLD_MUTATIONS", MUTATIONS as u64) as usize;
    let seed = setting("PLD_MUTATION_SEED", SEED);
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get().min(4));
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                if index >= mutations {
                    break;
                }
                let mut rng = Rng::new(seed + index as u64);
                let (source, text) = &inputs[rng.below(inputs.len())];
                let mutated = mutate(text, &mut rng);
                let file = scratch.join(format!("m{index}.mlir"));
                std::fs::write(&file, &mutated).expect("write mutation");
                // Most runs go through pld-opt (half of them checking
                // annotations, some through the HOST + composite passes or the
                // whole pld-to-pto chain, so passes see malformed IR too); a
                // sixth go through pld-translate's PTOAS printer.
                let mode = rng.below(6);
                let mut command = Command::new(if mode == 5 { pld_translate } else { pld_opt });
                command.arg(&file).arg("--split-input-file");
                if mode == 5 {
                    command.arg("--emit=pto");
                } else {
                    if rng.below(2) == 0 {
                        command.arg("--verify-diagnostics");
                    }
                    match mode {
                        0 | 1 => {
                            command.arg("--pass-pipeline=builtin.module(pld-host-pipeline,pld-lower-composite-ops,canonicalize)");
                        }
                        2 => {
                            command.arg("--pass-pipeline=builtin.module(pld-to-pto)");
                        }
                        _ => {}
                    }
                }
                let output = command
                    .stdin(Stdio::null())
                    .stdout(Stdio::null())
                    .stderr(Stdio::piped())
                    .output()
                    .expect("run the tool");
                let code = output.status.code();
                if !matches!(code, Some(0) | Some(1)) {
                    let _ = std::fs::create_dir_all(&saved);
                    let keep = saved.join(format!("m{index}.mlir"));
                    let _ = std::fs::write(&keep, &mutated);
                    let stderr = String::from_utf8_lossy(&output.stderr);
                    let tail: Vec<String> = stderr
                        .lines()
                        .take(6)
                        .map(|l| l.chars().take(300).collect())
                        .collect();
                    let tail = tail.join("\n");
                    failures.lock().unwrap().push(format!(
                        "mutation {index} of {} ended with {:?} (saved as {}):\n{tail}",
                        source.display(),
                        output.status,
                        keep.display()
                    ));
                }
                let _ = std::fs::remove_file(&file);
            });
        }
    });
    let _ = std::fs::remove_dir_all(&scratch);
    assert_no_crash(
        failures.into_inner().unwrap(),
        &format!("{mutations} mutated inputs (seed {seed})"),
        "a pld tool",
    );
}

/// Number of mutated kernels and programs run through `pld-run` per test
/// run (`PLD_RUN_MUTATIONS` overrides).
const RUN_MUTATIONS: usize = 500;
/// Number of mutated `.npy` files decoded per test run.
const NPY_MUTATIONS: usize = 4000;

/// The small kernels and programs `pld-run` runs in the lit suite and the
/// shipped examples, one source per kernel (`split-file` parts apart).
fn run_seeds(workspace: &Path) -> Vec<(String, String)> {
    let mut files = lit_inputs(&workspace.join("tests/lit/tools/pld-run"));
    files.extend(lit_inputs(&workspace.join("examples")));
    let mut seeds = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(&path).expect("read seed");
        let name = path.display().to_string();
        if text.contains("\n//--- ") {
            for part in text.split("\n//--- ").skip(1) {
                let (file, body) = part.split_once('\n').unwrap_or((part, ""));
                seeds.push((format!("{name}:{file}"), body.to_string()));
            }
        } else {
            seeds.push((name, text));
        }
    }
    seeds
}

/// The rank count a seed's first i32 signal is shaped for: `[N, 1]` (a
/// mesh signal) or `[R, N]` (a ring one), when N is small.
fn natural_ranks(text: &str) -> Option<usize> {
    text.split("tensor<").find_map(|rest| {
        let shape = rest.split_once("xi32, #pld.dist>")?.0;
        let dims: Vec<usize> = shape
            .split('x')
            .map(|d| d.parse().ok())
            .collect::<Option<_>>()?;
        let ranks = match dims.as_slice() {
            [n] | [n, 1] => *n,
            [_, n] => *n,
            _ => return None,
        };
        (1..=8).contains(&ranks).then_some(ranks)
    })
}

/// pld-run's arguments for one mutant: a small rank count (mostly the one
/// the seed is written for, so that runs get past the shape checks), a
/// short deadline, and sometimes --check, --stats, --explore or a
/// generator.
fn run_arguments(seed: &str, rng: &mut Rng) -> Vec<String> {
    let ranks = match natural_ranks(seed) {
        Some(n) if rng.below(4) != 0 => n,
        _ => 1 + rng.below(4),
    };
    let mut arguments = vec![
        format!("--ranks={ranks}"),
        "--deadline=0.3".to_string(),
        // A mutated loop bound may make a kernel run (almost) forever.
        "--time-limit=5".to_string(),
    ];
    if rng.below(2) == 0 {
        arguments.push("--check".into());
    }
    // Some under the protocol explorer (which refuses --stats).
    if rng.below(5) == 0 {
        arguments.push("--explore=2".into());
    } else if rng.below(3) == 0 {
        arguments.push("--stats".into());
    }
    if rng.below(4) == 0 {
        let generator = ["zeros", "ones", "rank", "ramp", "x"][rng.below(5)];
        arguments.push(format!("--input=arg{}={generator}", rng.below(4)));
    }
    arguments
}

#[test]
fn mutated_kernels_and_programs_never_crash_pld_run() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let seeds = run_seeds(&workspace);
    assert!(seeds.len() >= 10, "too few pld-run seeds: {}", seeds.len());
    let pld_run = env!("CARGO_BIN_EXE_pld-run");
    let scratch = std::env::temp_dir().join(format!("pld-run-mutation-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).expect("scratch directory");
    let saved = workspace.join("target/mutation-failures");

    let mutations = setting("PLD_RUN_MUTATIONS", RUN_MUTATIONS as u64) as usize;
    let seed = setting("PLD_MUTATION_SEED", SEED);
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    let outcomes = Mutex::new([0usize; 3]);
    // Deadlocked mutants sleep through their deadline: more workers than
    // cores keeps the run short.
    let workers = 4;
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                if index >= mutations {
                    break;
                }
                let mut rng = Rng::new((seed ^ 0x00ff_00ff).wrapping_add(index as u64));
                let (source, text) = &seeds[rng.below(seeds.len())];
                // A tenth of the runs take the seed as it is.
                let mutated = if rng.below(10) == 0 {
                    text.clone().into_bytes()
                } else {
                    mutate(text, &mut rng)
                };
                let file = scratch.join(format!("r{index}.mlir"));
                std::fs::write(&file, &mutated).expect("write mutation");
                let arguments = run_arguments(text, &mut rng);
                let output = Command::new(pld_run)
                    .arg(&file)
                    .args(&arguments)
                    .stdin(Stdio::null())
                    .stdout(Stdio::null())
                    .stderr(Stdio::piped())
                    .output()
                    .expect("run pld-run");
                match output.status.code() {
                    Some(code @ (0 | 1 | 3)) => {
                        let slot = if code == 3 { 2 } else { code as usize };
                        outcomes.lock().unwrap()[slot] += 1;
                    }
                    _ => {
                        let _ = std::fs::create_dir_all(&saved);
                        let keep = saved.join(format!("r{index}.mlir"));
                        let _ = std::fs::write(&keep, &mutated);
                        let stderr = String::from_utf8_lossy(&output.stderr);
                        let tail: Vec<String> = stderr
                            .lines()
                            .take(6)
                            .map(|l| l.chars().take(300).collect())
                            .collect();
                        failures.lock().unwrap().push(format!(
                            "mutation {index} of {source} (pld-run {}) ended with {:?} (saved as \
                             {}):\n{}",
                            arguments.join(" "),
                            output.status,
                            keep.display(),
                            tail.join("\n")
                        ));
                    }
                }
                let _ = std::fs::remove_file(&file);
            });
        }
    });
    let _ = std::fs::remove_dir_all(&scratch);
    assert_no_crash(
        failures.into_inner().unwrap(),
        &format!("{mutations} mutated kernels and programs (seed {seed})"),
        "pld-run",
    );
    // The mutants must exercise the simulator, not only the parser.
    let [ok, errors, deadlocks] = outcomes.into_inner().unwrap();
    assert!(
        ok >= mutations / 50,
        "only {ok} of {mutations} mutants ran to the end ({errors} errors, {deadlocks} deadlocks)"
    );
}

/// A valid `.npy` file of `dtype` (`<f4`, ...) and `shape`, written by hand
/// from the format's description (magic, version 1.0, a little-endian u16
/// header length, a Python-literal header padded with spaces to 64 bytes).
fn npy_file(descr: &str, shape: &[usize], element_bytes: usize, rng: &mut Rng) -> Vec<u8> {
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    let shape_text = match dims.as_slice() {
        [one] => format!("({one},)"),
        _ => format!("({})", dims.join(", ")),
    };
    let mut header =
        format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape_text}, }}");
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    let mut bytes = b"\x93NUMPY\x01\x00".to_vec();
    bytes.extend((header.len() as u16).to_le_bytes());
    bytes.extend(header.bytes());
    let count: usize = shape.iter().product();
    bytes.extend((0..count * element_bytes).map(|_| rng.next() as u8));
    bytes
}

/// Header texts worth splicing into a `.npy` header.
const NPY_TOKENS: &[&str] = &[
    "'<f4'",
    "'<f2'",
    "'<i4'",
    "'|i1'",
    "'>f4'",
    "'<f8'",
    "True",
    "False",
    "(",
    ")",
    ",",
    "()",
    "(0,)",
    "(-1, 2)",
    "(99999999999999999999,)",
    "(4294967296, 4294967296)",
    "'shape':",
    "'descr':",
    "{",
    "}",
    "\u{0}",
    "\u{ff}",
];

/// One to three mutations of a `.npy` file: byte flips (the version and
/// header length bytes among them), truncations, extensions, header
/// splices.
fn mutate_npy(bytes: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut bytes = bytes.to_vec();
    for _ in 0..1 + rng.below(3) {
        match rng.below(6) {
            0 if !bytes.is_empty() => {
                let i = rng.below(bytes.len());
                bytes[i] = rng.next() as u8;
            }
            1 if bytes.len() > 11 => {
                // The version and the header length.
                let i = 6 + rng.below(6);
                bytes[i] = [0, 1, 2, 3, 0xff, rng.next() as u8][rng.below(6)];
            }
            2 => {
                let at = rng.below(bytes.len() + 1);
                bytes.truncate(at);
            }
            3 => bytes.extend((0..rng.below(64)).map(|_| rng.next() as u8)),
            _ => {
                let end = bytes.len().min(128);
                let at = if end > 10 {
                    10 + rng.below(end - 10)
                } else {
                    0
                };
                let token = NPY_TOKENS[rng.below(NPY_TOKENS.len())];
                let cut = rng.below(8).min(bytes.len() - at.min(bytes.len()));
                let at = at.min(bytes.len());
                bytes.splice(at..at + cut, token.bytes());
            }
        }
    }
    bytes
}

#[test]
fn mutated_npy_files_never_crash_the_reader() {
    use pld_sim::program::Dtype;
    let dtypes = [
        (Dtype::F32, "<f4", 4),
        (Dtype::F16, "<f2", 2),
        (Dtype::I32, "<i4", 4),
        (Dtype::I8, "|i1", 1),
    ];
    let mutations = setting("PLD_NPY_MUTATIONS", NPY_MUTATIONS as u64) as usize;
    let seed = setting("PLD_MUTATION_SEED", SEED);
    let mut failures = Vec::new();
    let mut accepted = 0;
    for index in 0..mutations {
        let mut rng = Rng::new((seed ^ 0x0f0f_0f0f).wrapping_add(index as u64));
        let (dtype, descr, width) = dtypes[rng.below(dtypes.len())];
        let shape: Vec<usize> = (0..1 + rng.below(3)).map(|_| 1 + rng.below(5)).collect();
        let file = npy_file(descr, &shape, width, &mut rng);
        let mutated = mutate_npy(&file, &mut rng);
        // Read as written, and as another dtype or shape.
        let (expected_dtype, _, expected_width) = if rng.below(4) == 0 {
            dtypes[rng.below(dtypes.len())]
        } else {
            (dtype, descr, width)
        };
        let mut expected_shape = shape.clone();
        if rng.below(4) == 0 {
            expected_shape.push(1 + rng.below(3));
        }
        match std::panic::catch_unwind(|| {
            pld_sim::program::npy::decode(&mutated, expected_dtype, &expected_shape)
        }) {
            Ok(Ok(data)) => {
                accepted += 1;
                let want: usize = expected_shape.iter().product::<usize>() * expected_width;
                if data.len() != want {
                    failures.push(format!(
                        "mutation {index}: decoded {} bytes for {expected_shape:?}, want {want}",
                        data.len()
                    ));
                }
            }
            Ok(Err(_)) => {}
            Err(_) => failures.push(format!("mutation {index} panicked: {mutated:?}")),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {mutations} mutated .npy files (seed {seed}):\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        accepted > 0,
        "no mutated file decoded: the mutations are too harsh"
    );
}

/// Fails with every crash of a mutation run, `what` saying what was run.
fn assert_no_crash(failures: Vec<String>, what: &str, tool: &str) {
    assert!(
        failures.is_empty(),
        "{} of {what} crashed {tool}:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}
