//! Robustness: seeded mutations of the lit inputs (byte flips, truncations,
//! token swaps, ...) fed to `pld-opt` (sometimes through the pipelines) and
//! `pld-translate`. Every run must end with exit status 0
//! (the mutation was harmless) or 1 (a located error): never a panic, an
//! abort or a signal. A failing input is saved for reproduction.

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
    let failures = failures.into_inner().unwrap();
    assert!(
        failures.is_empty(),
        "{} of {mutations} mutated inputs (seed {seed}) crashed a pld tool:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}
