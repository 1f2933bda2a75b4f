//! Runs the commands the documentation shows (README.md and docs/**/*.md)
//! with the pld tools this `cargo test` built, so a doc example that stops
//! working fails the build.
//!
//! What counts as a command:
//! - a line starting with `pld-opt`, `pld-translate`, `pld-run` or
//!   `mlir-opt` (Debian's, with the pass plugin at
//!   `target/debug/libPldPlugin.so`) in a ```` ```sh ```` block (with `\`
//!   continuations joined and a trailing `# comment` dropped): it must
//!   exit 0;
//! - a `$ pld-...` or `$ mlir-opt` line in a transcript block, followed by the output the
//!   doc shows: when that output has a diagnostic (`error:`, `pld-run: ...`)
//!   or an explorer finding (`schedule N (--replay N): ...`) the command
//!   must fail, otherwise exit 0; either way it must print every shown line
//!   (durations and paths are compared loosely).
//!
//! - a line starting with a host's command (`make install`, `cc`, `c++`,
//!   `cmake`, `mpirun`, or running the C and C++ examples it builds), in either kind
//!   of block, as the tools' commands: docs/embedding.md installs pld into
//!   a scratch `$PREFIX` and builds the examples against it
//!   ([`HOST_COMMANDS`]).
//!
//! A command's `.mlir` inputs are the repository's files (`examples/...`,
//! `tests/lit/...`) or a file the doc shows: the nearest ```` ```mlir ````
//! block before the command whose introduction names the file
//! (`` `chain.mlir`: ... ``). A command whose input is neither is skipped
//! and listed (a doc sketch such as `pld-opt input.mlir`).

use std::path::{Path, PathBuf};
use std::process::Command;

#[path = "support/plugin.rs"]
mod plugin;

struct Block {
    lang: String,
    /// The text right before the fence (the introduction).
    intro: String,
    lines: Vec<String>,
    line: usize,
}

fn blocks(text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        let Some(lang) = lines[i].trim_start().strip_prefix("```") else {
            i += 1;
            continue;
        };
        let start = i;
        let from = (start.saturating_sub(8)..start)
            .rev()
            .find(|&j| lines[j].trim_start().starts_with("```"))
            .map_or(start.saturating_sub(8), |j| j + 1);
        let intro = lines[from..start].join("\n");
        let mut body = Vec::new();
        i += 1;
        while i < lines.len() && !lines[i].trim_start().starts_with("```") {
            body.push(lines[i].to_string());
            i += 1;
        }
        out.push(Block {
            lang: lang.trim().to_string(),
            intro,
            lines: body,
            line: start + 1,
        });
        i += 1;
    }
    out
}

/// Writes a file a doc shows into the doc's scratch directory `dir`,
/// never through the links to the repository's folders there: a doc whose
/// shown file is named like a repository file (`examples/x.mlir`) would
/// otherwise overwrite it.
fn write_shown(dir: &Path, name: &str, body: &str, place: &str) {
    let path = dir.join(name);
    let inside = |p: &Path| {
        p.canonicalize()
            .is_ok_and(|p| p.starts_with(dir.canonicalize().unwrap()))
    };
    let parent = path.parent().unwrap_or(dir);
    let linked = path
        .symlink_metadata()
        .is_ok_and(|m| m.file_type().is_symlink());
    assert!(
        inside(parent) && !linked,
        "{place}: the doc shows a file `{name}` that would be written outside its scratch \
         directory (into the repository); name it differently"
    );
    std::fs::write(path, body).unwrap();
}

/// One command to run, with what the doc says it prints.
struct Example {
    line: usize,
    command: String,
    /// The output the doc shows (transcripts only).
    shown: Option<Vec<String>>,
    /// Files the doc shows, by name.
    files: Vec<(String, String)>,
}

const TOOLS: [&str; 4] = ["pld-opt", "pld-translate", "pld-run", "mlir-opt"];

/// How the commands of a host that embeds pld start: installing it,
/// building the shipped C and C++ examples against the installed prefix,
/// running them. They run with `PREFIX` a scratch prefix and
/// `PKG_CONFIG_PATH` its pkg-config directory; `make` runs in the
/// repository, its `make install` with `FROM` this test's build
/// (tests/support/staged_build.rs).
const HOST_COMMANDS: [&str; 9] = [
    "make install",
    "mpirun ",
    // docs/tools/pld-run.md's test knob of pretended nodes.
    "PLD_MPI_RANKS_PER_NODE=",
    "cc ",
    "c++ ",
    "cmake ",
    "./lower_and_run",
    "./pass_manager",
    "build/lower_and_run",
];

fn is_tool_command(line: &str) -> bool {
    TOOLS
        .iter()
        .any(|t| line.starts_with(&format!("{t} ")) || line == *t)
        || HOST_COMMANDS.iter().any(|h| line.starts_with(h))
}

#[path = "support/staged_build.rs"]
mod staged_build;

fn examples(root: &Path, text: &str) -> Vec<Example> {
    let mut out = Vec::new();
    let mut files: Vec<(String, String)> = Vec::new();
    // A repository file the doc names (`tests/lit/.../skip.mlir`) stands
    // for its file name in the doc's commands.
    for word in text.split('`') {
        if word.ends_with(".mlir") && word.contains('/') && !word.contains(' ') {
            if let Ok(body) = std::fs::read_to_string(root.join(word)) {
                let name = word.rsplit('/').next().unwrap_or(word).to_string();
                files.retain(|(n, _)| *n != name);
                files.push((name, body));
            }
        }
    }
    let all = blocks(text);
    for (b, block) in all.iter().enumerate() {
        // An unnamed, complete ```mlir block right before a command's block
        // is the file the command names.
        let adjacent = block.intro.trim().is_empty();
        let previous = b
            .checked_sub(1)
            .map(|p| &all[p])
            .filter(|p| adjacent && p.lang == "mlir" && !p.lines.iter().any(|l| l.trim() == "..."));
        if block.lang == "mlir" {
            // `name.mlir` in the introduction names the block.
            for word in block.intro.split('`') {
                let name = word.trim();
                if name.ends_with(".mlir") && !name.contains(' ') && !name.contains('/') {
                    files.retain(|(n, _)| n != name);
                    files.push((name.to_string(), block.lines.join("\n") + "\n"));
                }
            }
            continue;
        }
        if block.lang == "sh" || block.lang == "bash" {
            let mut pending = String::new();
            for (k, raw) in block.lines.iter().enumerate() {
                let line = raw.trim();
                let joined = format!("{pending}{line}");
                if let Some(stripped) = joined.strip_suffix('\\') {
                    pending = format!("{stripped} ");
                    continue;
                }
                pending.clear();
                let command = match joined.split_once(" #") {
                    Some((c, _)) => c.trim().to_string(),
                    None => joined.trim().to_string(),
                };
                if is_tool_command(&command) {
                    out.push(Example {
                        line: block.line + 1 + k,
                        command,
                        shown: None,
                        files: files.clone(),
                    });
                }
            }
            continue;
        }
        // Transcripts: `$ command`, then what it prints.
        let mut k = 0;
        while k < block.lines.len() {
            let Some(command) = block.lines[k].strip_prefix("$ ") else {
                k += 1;
                continue;
            };
            let line = block.line + 1 + k;
            let mut shown = Vec::new();
            k += 1;
            while k < block.lines.len() && !block.lines[k].starts_with("$ ") {
                shown.push(block.lines[k].clone());
                k += 1;
            }
            if is_tool_command(command.trim()) {
                let mut files = files.clone();
                let first_input = command
                    .split_whitespace()
                    .find(|w| w.ends_with(".mlir") && !w.starts_with('-'));
                if let (Some(name), Some(previous)) = (first_input, previous) {
                    if !files.iter().any(|(n, _)| n == name) {
                        files.push((name.to_string(), previous.lines.join("\n") + "\n"));
                    }
                }
                out.push(Example {
                    line,
                    command: command.trim().to_string(),
                    shown: Some(shown),
                    files,
                });
            }
        }
    }
    out
}

fn markdown_files(root: &Path) -> Vec<PathBuf> {
    let mut out = vec![root.join("README.md")];
    let mut dirs = vec![root.join("docs")];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut entries: Vec<PathBuf> = entries.filter_map(|e| Some(e.ok()?.path())).collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            }
        }
    }
    out
}

/// Durations and absolute paths vary from run to run and machine to
/// machine; compare lines without them.
fn loose(line: &str) -> String {
    let mut out = String::new();
    for word in line.split_whitespace() {
        let bare = word.trim_end_matches([',', ')', ':', ';']);
        let numeric = bare.trim_end_matches(|c: char| c.is_alphabetic() || c == 'µ');
        let is_duration = !numeric.is_empty()
            && numeric.chars().all(|c| c.is_ascii_digit() || c == '.')
            && ["ns", "µs", "us", "ms", "s"]
                .iter()
                .any(|u| bare.ends_with(u))
            && bare.len() > numeric.len();
        let word = if is_duration {
            "<time>".to_string()
        } else {
            // A path is compared by its file name.
            word.rsplit('/').next().unwrap_or(word).to_string()
        };
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&word);
    }
    out
}

#[test]
fn every_command_of_the_docs_runs_as_shown() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let root = root.canonicalize().expect("the repository");
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_pld-opt"))
        .parent()
        .expect("binary directory")
        .to_path_buf();
    let scratch = std::env::temp_dir().join(format!("pld-doc-commands-{}", std::process::id()));
    let path = format!(
        "{}:/usr/lib/llvm-22/bin:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let prefix = scratch.join("prefix");
    std::fs::create_dir_all(&scratch).unwrap();
    let from = staged_build::stage(&scratch);
    let pkg_config_path = prefix.join("lib/pkgconfig");
    let mut ran = 0;
    let mut skipped = Vec::new();
    let mut failures = Vec::new();
    // Files one doc shows and another one names and uses (`signal.mlir` of
    // the convert-pld-to-pto page in pld-translate's): every named block of
    // every doc, the doc's own taking precedence.
    let mut shown_anywhere: Vec<(String, String)> = Vec::new();
    for doc in markdown_files(&root) {
        let text = std::fs::read_to_string(&doc).expect("a doc");
        for example in examples(&root, &text) {
            for file in example.files {
                if !shown_anywhere.iter().any(|(n, _)| *n == file.0) {
                    shown_anywhere.push(file);
                }
            }
        }
    }
    for doc in markdown_files(&root) {
        let text = std::fs::read_to_string(&doc).expect("a doc");
        // One directory per doc: its commands may use what earlier ones
        // wrote (`-o target/demo/...`).
        let dir = scratch.join(doc.file_stem().unwrap_or_default());
        std::fs::create_dir_all(dir.join("target/demo")).unwrap();
        for folder in ["examples", "tests", "dialect"] {
            let _ = std::os::unix::fs::symlink(root.join(folder), dir.join(folder));
        }
        // `mlir-opt --load-pass-plugin=target/debug/libPldPlugin.so`, as
        // in a build tree, with the library it needs next to it.
        std::fs::create_dir_all(dir.join("target/debug")).unwrap();
        for (name, library) in [
            ("libPldPlugin.so", plugin::plugin(&bin)),
            ("libMLIR-C.so", bin.join("libMLIR-C.so")),
        ] {
            let _ = std::os::unix::fs::symlink(library, dir.join("target/debug").join(name));
        }
        for example in examples(&root, &text) {
            let place = format!(
                "{}:{}",
                doc.strip_prefix(&root).unwrap_or(&doc).display(),
                example.line
            );
            // The files the doc shows, as it shows them up to here, and
            // those other docs show.
            for (name, body) in &shown_anywhere {
                let mentioned = text.contains(&format!("`{name}`"));
                if mentioned && !example.files.iter().any(|(n, _)| n == name) {
                    write_shown(&dir, name, body, &place);
                }
            }
            for (name, body) in &example.files {
                write_shown(&dir, name, body, &place);
            }
            let inputs_exist = example
                .command
                .split_whitespace()
                .filter(|w| w.ends_with(".mlir") && !w.starts_with('-') && !w.contains('='))
                .all(|w| dir.join(w).exists() || w.starts_with("target/"));
            if !inputs_exist {
                skipped.push(format!("{place}: {}", example.command));
                continue;
            }
            ran += 1;
            let command = match example.command.strip_prefix("make ") {
                Some(rest) => format!("make -C {} --no-print-directory {rest}", root.display()),
                None => example.command.clone(),
            };
            let output = Command::new("sh")
                .arg("-c")
                .arg(format!("{command} 2>&1"))
                .current_dir(&dir)
                .env("PATH", &path)
                .env("PREFIX", &prefix)
                .env("PKG_CONFIG_PATH", &pkg_config_path)
                .env("FROM", &from)
                // `mpirun` (docs/tools/pld-run.md, "Running across
                // machines") as root too, as CI runs.
                .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
                .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
                .output()
                .expect("run sh");
            let printed = String::from_utf8_lossy(&output.stdout).to_string();
            let status = output.status.code().unwrap_or(-1);
            let shown = example.shown.unwrap_or_default();
            // A transcript that shows a diagnostic, or a finding of the
            // protocol explorer (`schedule 3 (--replay 3): race: ...`),
            // shows a failing command.
            let fails = shown.iter().any(|l| {
                l.contains("error:")
                    || TOOLS.iter().any(|t| l.starts_with(&format!("{t}: ")))
                    || (l.starts_with("schedule ") && l.contains(" (--replay "))
            });
            let printed_lines: Vec<String> = printed.lines().map(loose).collect();
            if fails != (status != 0) {
                failures.push(format!(
                    "{place}: `{}` exited {status}; the doc shows it {}:\n{printed}",
                    example.command,
                    if fails { "failing" } else { "succeeding" }
                ));
                continue;
            }
            // Every shown line (a `...` line stands for anything). Standard
            // output and error interleave as the pipes flush, so lines are
            // looked for anywhere.
            for line in shown.iter().filter(|l| !l.trim().is_empty()) {
                if line.trim_start().starts_with("...") {
                    continue;
                }
                if !printed_lines.contains(&loose(line)) {
                    failures.push(format!(
                        "{place}: `{}` did not print\n    {line}\n  it printed:\n{printed}",
                        example.command
                    ));
                    break;
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
    pld_ir::say!(
        "doc commands: {ran} run, {} skipped (their inputs are sketches):",
        skipped.len()
    );
    for s in &skipped {
        pld_ir::say!("  skipped {s}");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    // The shipped examples' commands and the transcripts of the pass pages
    // must be among those run: a parser that finds nothing is a failure.
    assert!(ran >= 30, "only {ran} doc commands were found and run");
}

/// Every complete ```` ```mlir ```` block of the docs (one that starts with
/// `func.func` or `module`, without `...` elisions) parses and verifies
/// with `pld-opt`, unless its introduction says it shows invalid IR (it
/// names an error, a rejection or a failure, or the block is an error
/// example's `*_err.mlir`).
#[test]
fn the_docs_mlir_examples_verify() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let pld_opt = PathBuf::from(env!("CARGO_BIN_EXE_pld-opt"));
    let mut checked = 0;
    let mut failures = Vec::new();
    for doc in markdown_files(&root) {
        let text = std::fs::read_to_string(&doc).expect("a doc");
        for block in blocks(&text) {
            let first = block
                .lines
                .iter()
                .map(|l| l.trim())
                .find(|l| !l.is_empty() && !l.starts_with("//"))
                .unwrap_or_default();
            let complete = first.starts_with("func.func") || first.starts_with("module");
            let intro = block.intro.to_lowercase();
            let invalid = [
                "error",
                "reject",
                "fail",
                "invalid",
                "_err",
                "not valid",
                "refuse",
            ]
            .iter()
            .any(|w| intro.contains(w));
            if block.lang != "mlir"
                || !complete
                || invalid
                || block.lines.iter().any(|l| l.trim() == "...")
            {
                continue;
            }
            checked += 1;
            let mut child = Command::new(&pld_opt)
                .arg("-")
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("run pld-opt");
            use std::io::Write;
            child
                .stdin
                .take()
                .unwrap()
                .write_all(block.lines.join("\n").as_bytes())
                .unwrap();
            let output = child.wait_with_output().unwrap();
            if !output.status.success() {
                failures.push(format!(
                    "{}:{}: {}",
                    doc.strip_prefix(&root).unwrap_or(&doc).display(),
                    block.line,
                    String::from_utf8_lossy(&output.stderr)
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked >= 20, "only {checked} complete examples found");
}
