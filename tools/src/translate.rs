//! The `pld-translate` driver: parse, verify, then write the module in a
//! foreign format: the PTOAS text of `--emit=pto`, or the rendered builtin
//! kernel packages of `--emit=kernels`.

use crate::files::{read_named_input, write_output};
use crate::split;
use melior::ir::operation::OperationLike;
use pld_ir::diag::{Captured, Severity, Sink};
use std::path::Path;

/// The formats `pld-translate` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Emit {
    /// PTO in the custom syntax the PTOAS assembler parses.
    Pto,
    /// The builtin kernel packages every `pld.builtin_*` dispatch names
    /// (spec 11.1), written under the `-o` directory.
    Kernels,
}

/// What `pld-translate` was asked to do.
#[derive(Clone, Debug)]
pub struct Options {
    /// Input path, `-` for standard input.
    pub input: String,
    /// Output path, `-` or `None` for standard output.
    pub output: Option<String>,
    pub emit: Emit,
    /// `--split-input-file[=MARKER]`: the marker the input is split at.
    pub split_input_file: Option<String>,
    /// `--output-split-marker`: the line between the chunks' outputs.
    pub output_split_marker: String,
}

/// Runs `pld-translate`; returns the process exit status (0 ok, 1 error).
pub fn run(options: &Options) -> i32 {
    if options.emit == Emit::Kernels {
        return run_kernels(options);
    }
    let Some((buffer_name, text)) = read_named_input("pld-translate", &options.input) else {
        return 1;
    };
    let context = pld_dialect::context();
    let sink = Sink::attach(&context);
    let mut outputs = Vec::new();
    let mut failed = false;
    for chunk in split::chunks(&text, options.split_input_file.as_deref()) {
        let output = translate(&context, &buffer_name, &chunk.padded(), options.emit);
        let diagnostics = sink.take();
        for diagnostic in &diagnostics {
            pld_ir::diag::write_stderr(&diagnostic.render_in(&buffer_name, Some(&text)));
        }
        let chunk_failed =
            output.is_none() || diagnostics.iter().any(|d| d.severity == Severity::Error);
        failed |= chunk_failed;
        // As pld-opt (and mlir-opt): a chunk that failed prints nothing
        // between its separators, so outputs still match chunks.
        outputs.push(output.filter(|_| !chunk_failed).unwrap_or_default());
    }
    // A failed run leaves an output file alone rather than replace it with
    // a partial translation; on the terminal the good chunks still show.
    let to_file = options.output.as_deref().is_some_and(|path| path != "-");
    if failed && to_file {
        return 1;
    }
    let joined = outputs.join(&format!("{}\n", options.output_split_marker));
    if let Err(e) = write_output(options.output.as_deref(), &joined) {
        pld_ir::say!("pld-translate: error: {e}");
        return 1;
    }
    i32::from(failed)
}

/// `--emit=pto` of one module held in memory (`text`, named
/// `buffer_name` in diagnostics), without splitting: the PTOAS text
/// (`None` when it failed) and every diagnostic, in source order.
pub fn pto_source(text: &str, buffer_name: &str) -> (Option<String>, Vec<Captured>) {
    let context = pld_dialect::context();
    let sink = Sink::attach(&context);
    let output = translate(&context, buffer_name, text, Emit::Pto);
    (output, sink.take())
}

/// One chunk's translation; `None` when it failed (the reasons went to the
/// diagnostic handler).
fn translate(
    context: &melior::Context,
    buffer_name: &str,
    text: &str,
    emit: Emit,
) -> Option<String> {
    let module = pld_dialect::parse_source(context, text, buffer_name)?;
    if !pld_dialect::verify::verify_and_emit(module.as_operation()) {
        return None;
    }
    match emit {
        Emit::Pto => match pld_backend::ptoas::emit(module.as_operation()) {
            Ok(text) => {
                // As --emit=kernels says of an empty package.
                let kernels = pld_ir::functions(module.as_operation())
                    .into_iter()
                    .any(|f| f.attribute("pto.kernel_kind").is_ok());
                if !kernels {
                    pld_ir::diag::emit_warning(
                        melior::ir::Location::unknown(context),
                        "the module holds no converted kernel (no function with \
                         pto.kernel_kind): the PTO text is empty",
                    );
                }
                Some(text)
            }
            Err(error) => {
                pld_ir::diag::error(error.op, &error.message);
                None
            }
        },
        Emit::Kernels => None,
    }
}

/// `--emit=kernels -o DIR`: renders the package of every builtin variant
/// the module dispatches into DIR, with `DIR/kernels.json`, and every CHIP
/// orchestrator's sub-build of the kernels the CHIP rail synthesized
/// (`DIR/next_levels/<chip_func>/`). The module's `pld.target` picks the
/// launch-spec setter of the entries.
fn run_kernels(options: &Options) -> i32 {
    let dir = match options.output.as_deref() {
        Some(dir) if dir != "-" && !dir.is_empty() => std::path::PathBuf::from(dir),
        _ => {
            pld_ir::say!(
                "pld-translate: error: --emit=kernels writes a directory of files; name it with -o DIR"
            );
            return 1;
        }
    };
    if options.split_input_file.is_some() {
        pld_ir::say!(
            "pld-translate: error: --emit=kernels writes one package directory per module; \
             --split-input-file is not supported with it"
        );
        return 1;
    }
    let Some((buffer_name, text)) = read_named_input("pld-translate", &options.input) else {
        return 1;
    };
    let show = |diagnostics: &[Captured]| {
        for diagnostic in diagnostics {
            pld_ir::diag::write_stderr(&diagnostic.render_in(&buffer_name, Some(&text)));
        }
    };
    match kernels_source(&text, &buffer_name, &dir) {
        Ok(diagnostics) => {
            show(&diagnostics);
            0
        }
        Err(KernelsFailed::Diagnostics(diagnostics)) => {
            show(&diagnostics);
            1
        }
        Err(KernelsFailed::Write(message)) => {
            pld_ir::say!("pld-translate: error: {message}");
            1
        }
    }
}

/// Why [`kernels_source`] wrote nothing (or not everything).
pub enum KernelsFailed {
    /// The module does not parse or verify, still holds HOST collectives,
    /// or names a variant that has no kernel; every diagnostic, in source
    /// order.
    Diagnostics(Vec<Captured>),
    /// The directory could not be written.
    Write(String),
}

/// `--emit=kernels` of one module held in memory (`text`, named
/// `buffer_name` in diagnostics) into `dir`; the diagnostics short of an
/// error (warnings, remarks) when it went through.
pub fn kernels_source(
    text: &str,
    buffer_name: &str,
    dir: &std::path::Path,
) -> Result<Vec<Captured>, KernelsFailed> {
    let context = pld_dialect::context();
    let sink = Sink::attach(&context);
    let rendered = kernel_packages(&context, buffer_name, text);
    let mut diagnostics = sink.take();
    let rendered = match rendered {
        Some(rendered) if !diagnostics.iter().any(|d| d.severity == Severity::Error) => rendered,
        _ => return Err(KernelsFailed::Diagnostics(diagnostics)),
    };
    if rendered.packages.is_empty() && rendered.chip.is_empty() {
        // An empty input (a pld-opt that failed before a pipe) parses as
        // an empty module.
        diagnostics.push(Captured {
            severity: Severity::Warning,
            position: None,
            message: "the module has no lowered collective (no pld.builtin_* dispatch, no CHIP \
                      orchestrator's collective): the package is empty"
                .into(),
            notes: Vec::new(),
        });
    }
    write_staged(&rendered, dir)
        .map(|()| diagnostics)
        .map_err(KernelsFailed::Write)
}

/// Writes `rendered` into `dir` through a staging directory beside it:
/// every file is written there first, then every destination is checked
/// (no directory where a file goes, no file where a directory goes) before
/// any is moved into `dir`. A failure names the path at fault and leaves
/// `dir` as it was.
fn write_staged(rendered: &pld_backend::kernels::Rendered, dir: &Path) -> Result<(), String> {
    let parent = dir
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let cannot = |path: &Path, e: &dyn std::fmt::Display| {
        format!("cannot write the kernels to '{}': {e}", path.display())
    };
    std::fs::create_dir_all(parent).map_err(|e| {
        let file = parent.ancestors().find(|d| d.exists() && !d.is_dir());
        match file {
            Some(file) => format!(
                "cannot write the kernels to '{}': '{}' is {}, where a directory goes",
                dir.display(),
                file.display(),
                not_a_directory(file)
            ),
            None => format!(
                "cannot write the kernels to '{}': cannot make its directory '{}': {e}",
                dir.display(),
                parent.display()
            ),
        }
    })?;
    let name = dir
        .file_name()
        .map_or("kernels".into(), |n| n.to_string_lossy().into_owned());
    let staging = parent.join(format!(".{name}.pld-{}", std::process::id()));
    // Staged beside `dir`, in `parent`: a directory that takes no new
    // entry (`/proc`) is named as the place at fault.
    let stage = |e: &dyn std::fmt::Display| {
        format!(
            "cannot write the kernels to '{}': cannot stage them in '{}': {e}",
            dir.display(),
            parent.display()
        )
    };
    let written = rendered
        .write(&staging)
        .map_err(|e| stage(&e))
        .and_then(|()| staged_files(&staging, Path::new("")).map_err(|e| cannot(dir, &e)))
        .and_then(|files| {
            files.iter().try_for_each(|f| fits(dir, f))?;
            files.iter().try_for_each(|f| {
                let to = dir.join(f);
                if let Some(up) = to.parent() {
                    std::fs::create_dir_all(up).map_err(|e| cannot(up, &e))?;
                }
                std::fs::rename(staging.join(f), &to).map_err(|e| cannot(&to, &e))
            })
        });
    let _ = std::fs::remove_dir_all(&staging);
    written
}

/// The files under `root/relative`, as paths relative to `root`.
fn staged_files(root: &Path, relative: &Path) -> std::io::Result<Vec<std::path::PathBuf>> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(root.join(relative))? {
        let entry = entry?;
        let path = relative.join(entry.file_name());
        match entry.file_type()?.is_dir() {
            true => files.extend(staged_files(root, &path)?),
            false => files.push(path),
        }
    }
    Ok(files)
}

/// Whether file `relative` can go into `dir`: nothing but a directory (or
/// nothing) on the way to it, and no directory where it goes.
fn fits(dir: &Path, relative: &Path) -> Result<(), String> {
    let to = dir.join(relative);
    if to.is_dir() {
        return Err(format!(
            "cannot write the kernels: '{}' is a directory, where the file goes",
            to.display()
        ));
    }
    let mut up = to.parent();
    while let Some(d) = up {
        if d.exists() && !d.is_dir() {
            return Err(format!(
                "cannot write the kernels: '{}' is {}, where a directory goes",
                d.display(),
                not_a_directory(d)
            ));
        }
        if d == dir {
            break;
        }
        up = d.parent();
    }
    Ok(())
}

/// What `path`, which exists and is no directory, is, as an error says
/// it: `a file`, `a device` (`/dev/null`), or `not a directory`.
fn not_a_directory(path: &Path) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    match std::fs::metadata(path).map(|m| m.file_type()) {
        Ok(t) if t.is_file() => "a file",
        Ok(t) if t.is_char_device() || t.is_block_device() => "a device",
        _ => "not a directory",
    }
}

/// The rendered kernels of `text`; `None` when the module does not parse
/// or verify, or [`pld_backend::kernels::module_kernels`] refuses it (the
/// reasons went to the diagnostic handler).
fn kernel_packages(
    context: &melior::Context,
    buffer_name: &str,
    text: &str,
) -> Option<pld_backend::kernels::Rendered> {
    let module = pld_ir::parse::parse(context, text, buffer_name)?;
    let root = module.as_operation();
    if !pld_dialect::verify::verify_and_emit(root) {
        return None;
    }
    pld_backend::kernels::module_kernels(root)
}
