//! pld-bench's command-line edges, run as a user runs the binary (the lit
//! suite runs the binaries of pld-tools only: a plain `cargo test` builds
//! this one because of this test).

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::process::{Command, Stdio};

fn pld_bench() -> Command {
    Command::new(env!("CARGO_BIN_EXE_pld-bench"))
}

/// An argument that is not UTF-8 is a command-line error, status 2 (it
/// panicked, 101).
#[test]
fn a_non_utf8_argument_is_a_command_line_error() {
    let output = pld_bench()
        .arg(OsStr::from_bytes(b"x\xff"))
        .output()
        .expect("run pld-bench");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.starts_with("pld-bench: argument 'x\u{fffd}' is not UTF-8 text"),
        "{stderr}"
    );
}

/// A full standard output is an error with status 1, as for the other
/// tools (a panic, 101, before).
#[test]
fn a_full_standard_output_is_an_error() {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full, which Linux provides");
    let output = pld_bench()
        .arg("list")
        .stdout(Stdio::from(full))
        .output()
        .expect("run pld-bench");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert_eq!(
        stderr.trim_end(),
        "pld-bench: error: cannot write the standard output: No space left on device (os error 28)"
    );
}
