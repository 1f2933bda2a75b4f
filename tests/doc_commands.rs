//! Every command the docs show runs as they say. README.md and docs/**/*.md
//! are read for shell blocks: `$ pld-...` lines (with the output after
//! them) and the `pld-*` lines of ```sh blocks. A command runs in a scratch
//! directory holding the files the doc defines inline (an ```mlir block
//! after a backticked `name.mlir`) and links to the repository's
//! `examples/`, `tests/` and `dialect/`. A command whose output shows an
//! `error:` must fail and print every such line; any other must succeed.
//! Commands on files that neither the doc nor the repository has (`k.mlir`
//! standing for any kernel) are skipped; at least 30 must run.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

fn markdown_files(workspace: &Path) -> Vec<PathBuf> {
    let mut files = vec![workspace.join("README.md")];
    let mut pending = vec![workspace.join("docs")];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).expect("docs directory").flatten() {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// A command of a doc and what the doc shows it printing.
struct Shown {
    line: usize,
    command: String,
    output: Vec<String>,
}

/// The last backticked `*.mlir` name in `text`.
fn named_file(text: &str) -> Option<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|t| {
            t.ends_with(".mlir")
                && !t.contains(' ')
                && t.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "_-./".contains(c))
        })
        .last()
        .map(str::to_string)
}

/// The inline files and the commands of one doc.
fn read_doc(text: &str) -> (BTreeMap<String, String>, Vec<Shown>) {
    let mut files = BTreeMap::new();
    let mut shown: Vec<Shown> = Vec::new();
    let mut prose = String::new();
    let mut lines = text.lines().enumerate().peekable();
    while let Some((number, line)) = lines.next() {
        let Some(info) = line.trim_start().strip_prefix("```") else {
            prose.push_str(line);
            prose.push('\n');
            continue;
        };
        let mut body = Vec::new();
        for (_, inner) in lines.by_ref() {
            if inner.trim_start().starts_with("```") {
                break;
            }
            body.push(inner.to_string());
        }
        match info.trim() {
            "mlir" => {
                if let Some(name) = named_file(&prose) {
                    files.insert(name, body.join("\n") + "\n");
                }
            }
            "" | "sh" | "console" => {
                let prompted = body.iter().any(|l| l.starts_with("$ "));
                let mut i = 0;
                while i < body.len() {
                    let raw = &body[i];
                    let command_line = if prompted {
                        raw.strip_prefix("$ ")
                    } else {
                        Some(raw.as_str())
                    };
                    i += 1;
                    let Some(first) = command_line else { continue };
                    let mut command = first.to_string();
                    while command.ends_with('\\') && i < body.len() {
                        command.pop();
                        command.push(' ');
                        command.push_str(body[i].trim());
                        i += 1;
                    }
                    let mut output = Vec::new();
                    while prompted && i < body.len() && !body[i].starts_with("$ ") {
                        output.push(body[i].clone());
                        i += 1;
                    }
                    let command = command.split(" #").next().unwrap_or("").trim().to_string();
                    let tool = command.split_whitespace().next().unwrap_or("");
                    // Usage synopses (`[-o FILE]`) are not commands.
                    let synopsis = command.contains(" [");
                    if ["pld-opt", "pld-translate", "pld-run"].contains(&tool) && !synopsis {
                        shown.push(Shown {
                            line: number + 1,
                            command,
                            output,
                        });
                    }
                }
            }
            _ => {}
        }
        prose.clear();
    }
    (files, shown)
}

#[test]
fn every_command_of_the_docs_runs_as_shown() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let workspace = workspace.canonicalize().expect("workspace");
    let bin = Path::new(env!("CARGO_BIN_EXE_pld-opt"))
        .parent()
        .expect("binary directory")
        .to_path_buf();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let scratch = std::env::temp_dir().join(format!("pld-doc-commands-{}", std::process::id()));
    let mut failures = Vec::new();
    let (mut ran, mut skipped) = (0, 0);
    for doc in markdown_files(&workspace) {
        let text = std::fs::read_to_string(&doc).expect("read doc");
        let (files, shown) = read_doc(&text);
        if shown.is_empty() {
            continue;
        }
        let _ = std::fs::remove_dir_all(&scratch);
        std::fs::create_dir_all(&scratch).expect("scratch");
        for top in ["examples", "tests", "dialect"] {
            std::os::unix::fs::symlink(workspace.join(top), scratch.join(top)).expect("link");
        }
        for (name, body) in &files {
            let file = scratch.join(name);
            if let Some(parent) = file.parent() {
                std::fs::create_dir_all(parent).expect("inline file directory");
            }
            if !file.exists() {
                std::fs::write(&file, body).expect("inline file");
            }
        }
        let label = doc
            .strip_prefix(&workspace)
            .unwrap_or(&doc)
            .display()
            .to_string();
        for Shown {
            line,
            command,
            output,
        } in shown
        {
            let words: Vec<&str> = command.split_whitespace().collect();
            let missing = words.iter().any(|w| {
                let w = w.trim_matches(|c| c == '\'' || c == '"');
                w.ends_with(".mlir") && !w.starts_with('-') && !scratch.join(w).exists()
            });
            let writes_elsewhere = words.windows(2).any(|p| {
                p[0] == "-o"
                    && Path::new(p[1])
                        .parent()
                        .is_some_and(|d| !d.as_os_str().is_empty() && !scratch.join(d).exists())
            });
            if missing {
                skipped += 1;
                continue;
            }
            if writes_elsewhere {
                for pair in words.windows(2).filter(|p| p[0] == "-o") {
                    if let Some(dir) = Path::new(pair[1]).parent() {
                        std::fs::create_dir_all(scratch.join(dir)).expect("output directory");
                    }
                }
            }
            ran += 1;
            let result = Command::new("sh")
                .arg("-c")
                .arg(&command)
                .current_dir(&scratch)
                .env("PATH", &path)
                .output()
                .expect("run sh");
            let printed = format!(
                "{}{}",
                String::from_utf8_lossy(&result.stdout),
                String::from_utf8_lossy(&result.stderr)
            );
            let errors: Vec<&String> = output.iter().filter(|l| l.contains("error:")).collect();
            let status_ok = if errors.is_empty() {
                result.status.success()
            } else {
                !result.status.success()
            };
            let absent: Vec<&&String> = errors
                .iter()
                .filter(|l| !printed.contains(l.trim()))
                .collect();
            if !status_ok || !absent.is_empty() {
                failures.push(format!(
                    "{label}:{line}: `{command}` ended with {} (expected {}){}\n{}",
                    result.status,
                    if errors.is_empty() {
                        "success"
                    } else {
                        "failure"
                    },
                    if absent.is_empty() {
                        String::new()
                    } else {
                        format!("; not printed: {absent:?}")
                    },
                    printed.lines().take(8).collect::<Vec<_>>().join("\n")
                ));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
    assert!(
        failures.is_empty(),
        "{} of {ran} doc commands do not run as shown ({skipped} skipped):\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    // The skipped ones name placeholder files (`k.mlir`, `input.mlir`).
    assert!(
        ran >= 30,
        "only {ran} doc commands ran, {skipped} were skipped (files the docs do not define)"
    );
}
