//! Reading the input and writing the output the way MLIR tools do: `-` is
//! standard input or output, and non-UTF-8 bytes do not abort the read.

use std::io::{Read, Write};

/// The text of `path`, or of standard input for `-`.
pub fn read_input(path: &str) -> std::io::Result<String> {
    Ok(String::from_utf8_lossy(&read_bytes(path)?).into_owned())
}

/// The most bytes an input module may have: a source that goes on past
/// it (`/dev/zero`, a stream that never ends) is refused rather than read
/// until the memory runs out.
pub const MAX_INPUT_BYTES: u64 = 2 << 30;

/// The bytes of `path`, or of standard input for `-`, at most
/// [`MAX_INPUT_BYTES`].
pub fn read_bytes(path: &str) -> std::io::Result<Vec<u8>> {
    if path == "-" {
        return read_at_most(std::io::stdin(), MAX_INPUT_BYTES);
    }
    read_at_most(std::fs::File::open(path)?, MAX_INPUT_BYTES)
}

/// Everything `reader` gives, refused past `limit` bytes, or at once when
/// its first block is neither MLIR text nor bytecode (`/dev/zero` was read
/// to the limit first, 2 GiB).
fn read_at_most(mut reader: impl Read, limit: u64) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    (&mut reader)
        .take(FIRST_BLOCK.min(limit + 1))
        .read_to_end(&mut bytes)?;
    not_mlir(&bytes).map_or(Ok(()), |why| Err(std::io::Error::other(why)))?;
    // A file larger than the memory is an error of the read (std's
    // try_reserve), not the end of the tool.
    let left = (limit + 1).saturating_sub(bytes.len() as u64);
    pld_sim::runtime::oom::fallible(|| reader.take(left).read_to_end(&mut bytes))?;
    if bytes.len() as u64 > limit {
        return Err(std::io::Error::other(format!(
            "more than {}; an input module is at most that (is it a device such as /dev/zero, \
             or a stream that does not end?)",
            pld_ir::diag::bytes_text(usize::try_from(limit).unwrap_or(usize::MAX))
        )));
    }
    Ok(bytes)
}

/// How much of an input [`not_mlir`] looks at.
const FIRST_BLOCK: u64 = 64 << 10;

/// Why `first` (an input's first bytes) cannot begin an MLIR module: MLIR
/// text has no NUL byte, and bytecode begins with `ML\xefR`.
fn not_mlir(first: &[u8]) -> Option<String> {
    if first.starts_with(b"ML\xefR") {
        return None;
    }
    let at = first.iter().position(|&b| b == 0)?;
    Some(format!(
        "not MLIR: a NUL byte at offset {at} (MLIR text has none, and MLIR bytecode begins with \
         ML\\xefR)"
    ))
}

/// `pld-run --output-dir`: refuses a path that exists and is not a
/// directory (checked before the run, so that it is not lost at the end).
pub fn check_output_dir(dir: &str) -> Result<(), String> {
    match std::fs::metadata(dir) {
        Ok(meta) if !meta.is_dir() => Err(format!(
            "--output-dir '{dir}' is a file, not a directory; give a directory (it is created \
             when missing)"
        )),
        _ => Ok(()),
    }
}

/// `pld-run --trace FILE`: refuses, before the run, a path that is a
/// directory or whose directory does not exist (the trace is written
/// after the run, which would be lost).
pub fn check_trace(path: &str) -> Result<(), String> {
    let file = std::path::Path::new(path);
    if file.is_dir() {
        return Err(format!(
            "--trace '{path}' is a directory; give the file to write the trace to"
        ));
    }
    let parent = file
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(std::path::Path::new("."));
    if !parent.is_dir() {
        return Err(format!(
            "--trace '{path}': '{}' is not a directory; the trace's directory must exist",
            parent.display()
        ));
    }
    Ok(())
}

/// Writes the `--trace` file.
pub fn write_trace(path: &str, trace: &str) -> Result<(), String> {
    std::fs::write(path, trace).map_err(|e| format!("cannot write the --trace file '{path}': {e}"))
}

/// `pld-run --output-dir`: a buffer's name must make a file inside the
/// directory (`<name>.rank<r>.npy`): without `/` or a control character.
/// Checked before the run: a program's `name = "../../x"` wrote two levels
/// above the directory.
pub fn check_file_name(what: &str, name: &str) -> Result<(), String> {
    // A file name is at most 255 bytes on Linux's file systems.
    if format!("{name}.rank64.npy").len() > 255 {
        return Err(format!(
            "--output-dir writes {what} {name:?} to DIR/<name>.rank<r>.npy, a file name longer \
             than the 255 bytes a file system takes; rename it, or leave out --output-dir"
        ));
    }
    if name.contains('/') || name.contains(char::is_control) {
        return Err(format!(
            "--output-dir writes {what} {name:?} to DIR/{}.rank<r>.npy, which is no file \
             inside the directory (a name without '/' or control characters); rename it, or \
             leave out --output-dir",
            name.escape_debug()
        ));
    }
    Ok(())
}

/// Creates the `--output-dir` directory (and its parents) if missing.
pub fn create_output_dir(dir: &str) -> Result<(), String> {
    check_output_dir(dir)?;
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create the directory '{dir}': {e}"))
}

/// Writes `text` to `path`, or to standard output for `-` or `None`.
pub fn write_output(path: Option<&str>, text: &str) -> Result<(), String> {
    write_output_bytes(path, text.as_bytes())
}

/// Writes `bytes` to `path`, or to standard output for `-` or `None`. A
/// regular file is written whole or not at all: the bytes go to a
/// temporary file beside it, renamed over it once complete (through a
/// symbolic link, the file it names). Anything else that exists already
/// (`/dev/null`, a FIFO, a terminal) is written in place: renaming over a
/// device would replace it. The error names the path.
pub fn write_output_bytes(path: Option<&str>, bytes: &[u8]) -> Result<(), String> {
    let Some(path) = path.filter(|p| *p != "-") else {
        let mut stdout = std::io::stdout().lock();
        return match stdout.write_all(bytes).and_then(|()| stdout.flush()) {
            // A reader that stopped (`| head`): the process ends quietly
            // with the status of SIGPIPE, as mlir-opt's does.
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
                pld_sim::runtime::interrupt::end_process(141)
            }
            written => written.map_err(|e| format!("cannot write to standard output: {e}")),
        };
    };
    if path.is_empty() {
        return Err("cannot write '': -o names no file (use -o - for standard output)".into());
    }
    let target = std::path::Path::new(path);
    let written = match std::fs::metadata(target) {
        Ok(meta) if !meta.is_file() => std::fs::OpenOptions::new()
            .write(true)
            .open(target)
            .and_then(|mut file| file.write_all(bytes))
            .map_err(|e| e.to_string()),
        Ok(_) => std::fs::canonicalize(target)
            .map_err(|e| e.to_string())
            .and_then(|real| replace_whole(&real, bytes)),
        Err(_) => replace_whole(target, bytes),
    };
    written.map_err(|e| format!("cannot write '{path}': {e}"))
}

/// The temporary file [`replace_whole`] is writing, if any: a process
/// ended before it is renamed (Ctrl-C's grace ran out) removes it first
/// ([`remove_partial`]).
static PARTIAL: std::sync::Mutex<Option<std::path::PathBuf>> = std::sync::Mutex::new(None);

fn partial() -> std::sync::MutexGuard<'static, Option<std::path::PathBuf>> {
    PARTIAL.lock().unwrap_or_else(|e| e.into_inner())
}

/// Removes the temporary file of a write in progress: called by whatever
/// ends the process while another thread may be writing one.
pub fn remove_partial() {
    if let Some(path) = partial().take() {
        let _ = std::fs::remove_file(path);
    }
}

/// Writes `bytes` to a temporary file beside `target` and renames it over
/// `target`; on failure the temporary file is removed and `target` is as
/// it was. The error says which of the two failed (a file in a directory
/// where no file can be made, `/proc/version`, fails at the first).
fn replace_whole(target: &std::path::Path, bytes: &[u8]) -> Result<(), String> {
    replace_whole_unless(target, bytes, &|| false)
}

/// How much of a file one write call takes: a stop is seen between two,
/// and the process can end between two (a single write of a GiB runs to
/// its end whatever signal comes).
const WRITE_CHUNK: usize = 16 << 20;

/// [`replace_whole`], given up between two chunks once `stop` says so:
/// the temporary file is removed and the error says it was stopped.
pub fn replace_whole_unless(
    target: &std::path::Path,
    bytes: &[u8],
    stop: &dyn Fn() -> bool,
) -> Result<(), String> {
    let name = target
        .file_name()
        .map_or_else(|| "output".into(), |n| n.to_string_lossy().into_owned());
    let temporary = target.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
    let shown = temporary.display();
    // The file keeps its permissions, as mlir-opt's output does (a new
    // file gets the umask's).
    let kept = std::fs::metadata(target).ok().map(|m| m.permissions());
    *partial() = Some(temporary.clone());
    let written = write_chunks(&temporary, bytes, stop)
        .and_then(|()| match kept {
            Some(permissions) => std::fs::set_permissions(&temporary, permissions),
            None => Ok(()),
        })
        .map_err(|e| format!("cannot write the temporary file '{shown}' to rename over it: {e}"))
        .and_then(|()| {
            std::fs::rename(&temporary, target)
                .map_err(|e| format!("cannot rename the temporary file '{shown}' over it: {e}"))
        });
    if written.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    *partial() = None;
    written
}

/// Writes `bytes` to a new file at `path` in [`WRITE_CHUNK`]s, an error
/// (`Interrupted`) once `stop` says so.
fn write_chunks(
    path: &std::path::Path,
    bytes: &[u8],
    stop: &dyn Fn() -> bool,
) -> std::io::Result<()> {
    let mut file = std::fs::File::create(path)?;
    for chunk in bytes.chunks(WRITE_CHUNK) {
        if stop() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::Interrupted,
                "stopped",
            ));
        }
        file.write_all(chunk)?;
    }
    Ok(())
}

/// The input of a tool run: its text, and the name diagnostics give it
/// (`<stdin>` for `-`). A read failure is reported as `tool: error: ...`.
pub fn read_named_input(tool: &str, path: &str) -> Option<(String, String)> {
    let (name, bytes) = read_named_input_bytes(tool, path)?;
    match as_text(&name, &bytes) {
        Ok(text) => Some((name, text)),
        Err(shown) => {
            pld_ir::diag::write_stderr(&shown);
            None
        }
    }
}

/// `bytes` as MLIR text: text as it is (bytes that are not UTF-8 do not
/// stop it), MLIR bytecode read by MLIR and printed back with its
/// locations, so that diagnostics point where the bytecode's ops came
/// from. Bytecode MLIR cannot read gives its diagnostics, rendered.
pub fn as_text(buffer_name: &str, bytes: &[u8]) -> Result<String, String> {
    if !pld_ir::parse::is_bytecode(bytes) {
        return Ok(String::from_utf8_lossy(bytes).into_owned());
    }
    let context = pld_dialect::context();
    let sink = pld_ir::diag::Sink::attach(&context);
    let options = pld_ir::print::PrintOptions {
        debug_info: true,
        ..Default::default()
    };
    let text = pld_ir::parse::parse_bytes(&context, bytes, buffer_name)
        .map(|module| pld_ir::print::module_text(&module, options));
    text.ok_or_else(|| sink.take().iter().map(|d| d.render(buffer_name)).collect())
}

/// [`read_named_input`] without printing: the buffer name and the text, or
/// why the file cannot be read.
pub fn read_named_input_text(path: &str) -> Result<(String, String), String> {
    let buffer_name = match path {
        "-" => "<stdin>".to_string(),
        _ => path.to_string(),
    };
    let bytes = read_bytes(path).map_err(|e| format!("cannot read '{buffer_name}': {e}"))?;
    let text = as_text(&buffer_name, &bytes).map_err(|shown| {
        format!(
            "cannot read the bytecode of '{buffer_name}':\n{}",
            shown.trim_end()
        )
    })?;
    Ok((buffer_name, text))
}

/// [`read_named_input`] as bytes (MLIR bytecode stays intact).
pub fn read_named_input_bytes(tool: &str, path: &str) -> Option<(String, Vec<u8>)> {
    let buffer_name = if path == "-" {
        "<stdin>".to_string()
    } else {
        path.to_string()
    };
    match read_bytes(path) {
        Ok(bytes) => Some((buffer_name, bytes)),
        Err(e) => {
            pld_ir::say!("{tool}: error: cannot read '{buffer_name}': {e}");
            None
        }
    }
}

/// Makes a closed standard output (`pld-run ... | head`) end the process
/// as it ends a C tool, quietly with the status of SIGPIPE (141), instead
/// of a panic in `println!`, and any other failure to write it (a full
/// disk) an error with status 1. Other panics are reported as before.
pub fn quiet_on_closed_stdout() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if let Some(reason) = message.strip_prefix("failed printing to stdout: ") {
            if reason.contains("Broken pipe") {
                pld_sim::runtime::interrupt::end_process(141);
            }
            // A full disk, /dev/full: an error as other tools say it.
            let tool = std::env::args_os()
                .next()
                .and_then(|a| a.to_string_lossy().rsplit('/').next().map(str::to_string))
                .unwrap_or_else(|| "pld".into());
            pld_ir::say!("{tool}: error: cannot write the standard output: {reason}");
            pld_sim::runtime::interrupt::end_process(1);
        }
        previous(info);
    }));
}

/// A refusal of loading `buffer_name`, naming the file unless it names it
/// already (a refusal at an op starts with its `file:line:col`).
pub fn in_file(buffer_name: &str, message: String) -> String {
    if message.starts_with(&format!("{buffer_name}:")) {
        message
    } else {
        format!("{buffer_name}: {message}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_write_stopped_between_chunks_leaves_no_file() {
        // recheck26 M1: a GiB written in one call ran on past Ctrl-C.
        let dir = std::env::temp_dir().join(format!("pld-chunks-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let target = dir.join("big.npy");
        let bytes = vec![7u8; 3 * WRITE_CHUNK];
        let calls = std::cell::Cell::new(0);
        // Stopped after the first chunk.
        let stop = || {
            calls.set(calls.get() + 1);
            calls.get() > 1
        };
        assert!(replace_whole_unless(&target, &bytes, &stop).is_err());
        assert_eq!(calls.get(), 2);
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
        replace_whole_unless(&target, &bytes, &|| false).unwrap();
        assert_eq!(std::fs::read(&target).unwrap().len(), bytes.len());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_partial_file_is_removed_when_the_process_is_ended() {
        // What the watchdog does before it ends pld-run while a file of
        // --output-dir is being written (trust26 H1).
        let name = format!(".pld-partial-{}.tmp", std::process::id());
        let temporary = std::env::temp_dir().join(name);
        std::fs::write(&temporary, b"half").unwrap();
        *partial() = Some(temporary.clone());
        remove_partial();
        assert!(!temporary.exists());
        assert!(partial().is_none());
    }

    #[test]
    fn an_input_past_the_limit_is_refused_and_one_at_it_is_read() {
        let limit = 10;
        assert_eq!(read_at_most(&[7u8; 10][..], limit).unwrap(), vec![7u8; 10]);
        let endless = std::io::repeat(b' ');
        let message = read_at_most(endless, limit).unwrap_err().to_string();
        assert!(
            message.starts_with("more than 10 B; an input module is at most that"),
            "{message}"
        );
    }

    #[test]
    fn a_nul_byte_in_the_first_block_is_refused_at_once_but_bytecode_is_read() {
        let endless = std::io::repeat(0);
        let message = read_at_most(endless, MAX_INPUT_BYTES)
            .unwrap_err()
            .to_string();
        assert!(
            message.starts_with("not MLIR: a NUL byte at offset 0"),
            "{message}"
        );
        let text = b"module {}\0";
        assert!(read_at_most(&text[..], 100)
            .unwrap_err()
            .to_string()
            .contains("offset 9"));
        let bytecode = b"ML\xefR\0\0\x05";
        assert_eq!(read_at_most(&bytecode[..], 100).unwrap(), bytecode.to_vec());
        let beyond = [vec![b' '; FIRST_BLOCK as usize], vec![0]].concat();
        assert_eq!(
            read_at_most(&beyond[..], 1 << 20).unwrap().len(),
            beyond.len()
        );
    }
}
