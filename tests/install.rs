//! `make install` into a scratch prefix, then the shipped C and C++
//! examples built OUT OF TREE against what it installed (the headers,
//! `libpld.so`, `libMLIR-C.so`, `pld.pc`, the CMake package), with
//! pkg-config and with CMake, and run: their output against `pld-opt`,
//! `pld-translate` and `pld-run` on the same inputs, their numbers against
//! sums computed here. The installed binaries and libraries must find
//! their libraries through their run paths alone.
//!
//! `make install FROM=DIR` installs this test's build (debug) instead of
//! building in release mode ([`staged_build`]).

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .unwrap()
}

#[path = "support/staged_build.rs"]
mod staged_build;
use staged_build::{bin_dir, stage};

/// Runs `command` (through `sh`, in `dir`, with `env`); its standard
/// output, or a panic with everything it printed.
fn sh(dir: &Path, env: &[(&str, &str)], command: &str) -> String {
    let output = Command::new("sh")
        .arg("-c")
        .arg(command)
        .current_dir(dir)
        .envs(env.iter().copied())
        .output()
        .expect("sh runs");
    assert!(
        output.status.success(),
        "`{command}` failed:\n{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The data of a `.npy` file (after its header).
fn npy_data(path: &Path) -> Vec<u8> {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let header = u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
    bytes[10 + header..].to_vec()
}

fn f32s(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// The C API's symbols `libpld.so` exports (`pld<Capital>...`) and the
/// functions the installed headers declare: the same set. Besides them it
/// exports only the simulator's device functions (`pld_sim_*`, which Rust
/// exports from a cdylib like every `#[no_mangle]` function it links).
fn exports_match_headers(prefix: &Path) {
    let nm = sh(
        prefix,
        &[],
        "/usr/lib/llvm-22/bin/llvm-nm -D --defined-only lib/libpld.so",
    );
    let symbols: Vec<&str> = nm
        .lines()
        .filter_map(|l| l.split_whitespace().nth(2))
        .collect();
    let c_api = |s: &&str| s.starts_with("pld") && s[3..].starts_with(char::is_uppercase);
    let others: Vec<&&str> = symbols
        .iter()
        .filter(|s| !c_api(s) && !s.starts_with("pld_sim_"))
        .collect();
    assert!(others.is_empty(), "libpld.so exports {others:?}");
    let mut exported: Vec<&str> = symbols.iter().copied().filter(c_api).collect();
    exported.sort();
    let mut declared = Vec::new();
    for header in std::fs::read_dir(prefix.join("include/pld-c")).unwrap() {
        let text = std::fs::read_to_string(header.unwrap().path()).unwrap();
        // `PLD_CAPI_EXPORTED <type> name(` over one or more lines.
        for (at, _) in text.match_indices("\nPLD_CAPI_EXPORTED ") {
            let head = text[at..].split('(').next().unwrap_or_default();
            if let Some(name) = head.split_whitespace().last() {
                declared.push(name.trim_start_matches('*').to_string());
            }
        }
    }
    declared.sort();
    assert_eq!(exported, declared);
}

/// The C example on `input` (in the repository) on 4 ranks, against
/// `pld-opt | pld-translate` for the PTO and `pld-run` for the run.
fn c_example_matches_the_tools(example: &Path, input: &str, work: &Path) -> Vec<String> {
    let root = root();
    let out = work.join(format!("out-{}", input.replace('/', "_")));
    std::fs::create_dir_all(&out).unwrap();
    let printed = sh(
        &root,
        &[],
        &format!("{} {input} 4 {}", example.display(), out.display()),
    );
    let bin = bin_dir();
    let lowered = work.join("lowered.mlir");
    sh(
        &root,
        &[],
        &format!(
            "{}/pld-opt {input} --pass-pipeline='builtin.module(pld-to-pto)' -o {}",
            bin.display(),
            lowered.display()
        ),
    );
    let pto = sh(
        &root,
        &[],
        &format!(
            "{}/pld-translate --emit=pto {}",
            bin.display(),
            lowered.display()
        ),
    );
    let (_, after_title) = printed.split_once('\n').unwrap();
    let (example_pto, run) = after_title.split_once("== @").unwrap();
    assert_eq!(example_pto, pto, "the PTO differs from pld-translate's");

    // pld-run on the inputs the example wrote.
    let mut inputs = Vec::new();
    let mut buffers: Vec<String> = Vec::new();
    for entry in std::fs::read_dir(&out).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if let Some(buffer) = name.strip_suffix(".rank0.in.npy") {
            inputs.push(format!(
                "--input {buffer}={}/{buffer}.rank{{rank}}.in.npy",
                out.display()
            ));
        }
        if let Some(buffer) = name.strip_suffix(".rank0.out.npy") {
            buffers.push(buffer.to_string());
        }
    }
    assert!(!inputs.is_empty() && !buffers.is_empty(), "{printed}");
    let theirs = work.join(format!("run-{}", input.replace('/', "_")));
    let stats = sh(
        &root,
        &[],
        &format!(
            "{}/pld-run {input} --ranks 4 --check --stats --per-rank {} --output-dir {}",
            bin.display(),
            inputs.join(" "),
            theirs.display()
        ),
    );
    for buffer in &buffers {
        for rank in 0..4 {
            // pld-run names a kernel's buffers by their source names.
            let name = match buffer.strip_prefix("arg") {
                Some(_) => pld_name(input, buffer),
                None => buffer.clone(),
            };
            assert_eq!(
                npy_data(&out.join(format!("{buffer}.rank{rank}.out.npy"))),
                npy_data(&theirs.join(format!("{name}.rank{rank}.npy"))),
                "{buffer} on rank {rank} differs from pld-run's"
            );
        }
    }
    // The same counters, rank by rank.
    for line in run
        .lines()
        .filter(|l| l.starts_with("rank ") && l.contains("notifies"))
    {
        let numbers: Vec<&str> = line
            .split(|c: char| !c.is_ascii_digit())
            .filter(|w| !w.is_empty())
            .collect();
        let (rank, notifies, waits, read, written) =
            (numbers[0], numbers[1], numbers[2], numbers[3], numbers[4]);
        let found = stats.lines().any(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let tail = &words[words.len().saturating_sub(4)..];
            words.first() == Some(&rank) && tail == [notifies, waits, read, written]
        });
        assert!(found, "pld-run has no row for {line}:\n{stats}");
    }
    assert!(run.contains("result: clean"), "{printed}");
    buffers
}

/// A kernel parameter's source name, as pld-run names its files: the
/// example's `argN` is the N-th parameter of the only function.
fn pld_name(input: &str, arg: &str) -> String {
    let text = std::fs::read_to_string(root().join(input)).unwrap();
    let index: usize = arg["arg".len()..].parse().unwrap();
    let signature = text.split("func.func @").nth(1).unwrap();
    signature
        .split('%')
        .skip(1)
        .map(|p| p.split(':').next().unwrap().to_string())
        .nth(index)
        .unwrap()
}

#[test]
fn installed_prefix_builds_and_runs_the_examples_out_of_tree() {
    let work = std::env::temp_dir().join(format!("pld-install-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();
    let from = stage(&work);
    let prefix = work.join("prefix");
    sh(
        &root(),
        &[],
        &format!(
            "make --no-print-directory install FROM={} PREFIX={}",
            from.display(),
            prefix.display()
        ),
    );
    for file in [
        "bin/pld-opt",
        "bin/pld-translate",
        "bin/pld-run",
        "lib/libpld.so",
        "lib/libMLIR-C.so",
        "include/pld-c/Pld.h",
        "include/pld-c/Run.h",
        "share/pld/pld-and-pto.irdl.mlir",
        "share/pld/pld.irdl.mlir",
        "share/pld/pto.irdl.mlir",
        "lib/pkgconfig/pld.pc",
        "lib/cmake/PLD/PLDConfig.cmake",
        "lib/cmake/PLD/PLDConfigVersion.cmake",
        "share/pld/examples/c/lower_and_run.c",
        "share/pld/examples/cpp/pass_manager.cpp",
    ] {
        assert!(prefix.join(file).is_file(), "make install wrote no {file}");
    }
    exports_match_headers(&prefix);
    // The installed tools and library find libMLIR-C.so in the prefix,
    // through their run path, with no LD_LIBRARY_PATH.
    let installed = prefix.join("lib/libMLIR-C.so").canonicalize().unwrap();
    for file in ["bin/pld-run", "lib/libpld.so"] {
        let ldd = sh(&prefix, &[], &format!("env -u LD_LIBRARY_PATH ldd {file}"));
        let found = ldd
            .lines()
            .find_map(|l| l.trim().strip_prefix("libMLIR-C.so => "))
            .and_then(|rest| rest.split(" (").next())
            .and_then(|path| Path::new(path).canonicalize().ok());
        assert_eq!(found.as_ref(), Some(&installed), "{file}:\n{ldd}");
    }
    let env = [(
        "PKG_CONFIG_PATH",
        prefix.join("lib/pkgconfig").to_str().unwrap().to_string(),
    )];
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let examples = prefix.join("share/pld/examples");

    // The C example with pkg-config, on a whole program.
    let c_example = work.join("lower_and_run");
    sh(
        &work,
        &env,
        &format!(
            "cc -std=c11 -Wall -Wextra -Werror {}/c/lower_and_run.c -o {} $(pkg-config --cflags --libs pld)",
            examples.display(),
            c_example.display()
        ),
    );
    let buffers = c_example_matches_the_tools(&c_example, "examples/allreduce.mlir", &work);
    assert!(buffers.contains(&"data_buf".to_string()));
    // The numbers: the kernel's allreduce, then the HOST one: 4 x the sum.
    let out = work.join("out-examples_allreduce.mlir");
    let ins: Vec<Vec<f32>> = (0..4)
        .map(|r| f32s(&npy_data(&out.join(format!("data_buf.rank{r}.in.npy")))))
        .collect();
    for r in 0..4 {
        let got = f32s(&npy_data(&out.join(format!("data_buf.rank{r}.out.npy"))));
        for (i, value) in got.iter().enumerate() {
            let sum: f32 = ins.iter().map(|v| v[i]).sum();
            assert_eq!(*value, 4.0 * sum, "rank {r}, element {i}");
        }
    }

    // The C example with CMake, on a kernel.
    let build = work.join("cmake-build");
    sh(
        &work,
        &[],
        &format!(
            "cmake -S {}/c -B {} -DCMAKE_PREFIX_PATH={} > /dev/null && cmake --build {} > /dev/null",
            examples.display(),
            build.display(),
            prefix.display(),
            build.display()
        ),
    );
    let buffers = c_example_matches_the_tools(
        &build.join("lower_and_run"),
        "examples/ring_allreduce.mlir",
        &work,
    );
    assert_eq!(buffers.len(), 2, "{buffers:?}");
    let out = work.join("out-examples_ring_allreduce.mlir");
    let ins: Vec<Vec<f32>> = (0..4)
        .map(|r| f32s(&npy_data(&out.join(format!("arg0.rank{r}.in.npy")))))
        .collect();
    for r in 0..4 {
        let got = f32s(&npy_data(&out.join(format!("arg0.rank{r}.out.npy"))));
        assert_eq!(got.len(), 4097);
        for (i, value) in got.iter().enumerate() {
            let sum: f32 = ins.iter().map(|v| v[i]).sum();
            assert_eq!(*value, sum, "rank {r}, element {i}");
        }
    }

    // The C++ example: an mlir::PassManager with pld passes next to
    // upstream ones, printing what pld-opt prints.
    let cpp_example = work.join("pass_manager");
    sh(
        &work,
        &env,
        &format!(
            "c++ -std=c++17 {}/cpp/pass_manager.cpp -o {} $(pkg-config --cflags --libs pld)",
            examples.display(),
            cpp_example.display()
        ),
    );
    for (passes, pipeline) in [
        ("", "pld-to-pto,canonicalize,cse,pld-verify"),
        (
            "'pld-lower-composite-ops,cse,pld-insert-comm-fence'",
            "pld-lower-composite-ops,cse,pld-insert-comm-fence,pld-verify",
        ),
    ] {
        for input in ["examples/allreduce.mlir", "examples/ring_allreduce.mlir"] {
            let ours = sh(
                &root(),
                &[],
                &format!("{} {input} {passes}", cpp_example.display()),
            );
            let theirs = sh(
                &root(),
                &[],
                &format!(
                    "{}/pld-opt {input} --pass-pipeline='builtin.module({pipeline})'",
                    bin_dir().display()
                ),
            );
            // The example prints the module's text; pld-opt writes it as
            // mlir-opt does, with a newline after it.
            assert_eq!(
                ours.trim_end(),
                theirs.trim_end(),
                "{input} through {pipeline}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&work);
}
