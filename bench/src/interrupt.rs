//! Ctrl-C. [`install`] makes SIGINT and SIGTERM only raise a flag; a
//! watcher thread then passes the signal on to the children still running
//! (pld-run, mpirun, the anchors: a Ctrl-C at the terminal reaches them
//! anyway, a `kill` of pld-bench alone does not), waits a moment for them,
//! removes the benchmark's scratch directories (`$TMPDIR/pld-bench-*-<pid>`,
//! compiled anchors and generated programs), says so, and ends the process
//! with 128 + the signal. The benchmark's own thread, which sees its child
//! fail, waits for that instead of reporting the failure ([`stopping`]).
//!
//! The only FFI of this crate is here: `signal(2)` and `kill(2)` from the
//! C library the binary links anyway (the harness stays free of
//! dependencies).

use std::sync::atomic::{AtomicI32, Ordering};
use std::time::Duration;

/// The signal received, or 0.
static RECEIVED: AtomicI32 = AtomicI32::new(0);

const SIGINT: i32 = 2;
const SIGTERM: i32 = 15;

extern "C" {
    fn signal(signum: i32, handler: extern "C" fn(i32)) -> usize;
    fn kill(pid: i32, signum: i32) -> i32;
}

/// Whether a signal came: the caller should not report what it broke, as
/// the process is about to end ([`watch`]); it waits here for that.
pub fn stopping() {
    // A signal sent to the whole process group (a terminal's Ctrl-C) may
    // end the child before this process's handler has run: a moment's
    // grace before the failure counts as one.
    for _ in 0..10 {
        if RECEIVED.load(Ordering::Relaxed) != 0 {
            loop {
                std::thread::park();
            }
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Async-signal-safe: one atomic store.
extern "C" fn received(signum: i32) {
    RECEIVED.store(signum, Ordering::Relaxed);
}

/// Installs the handlers and starts the watcher.
pub fn install() {
    for signum in [SIGINT, SIGTERM] {
        // SAFETY: `received` is an `extern "C" fn(i32)` that only stores
        // to an atomic, which is async-signal-safe; replacing the
        // disposition of SIGINT and SIGTERM affects nothing else.
        unsafe {
            signal(signum, received);
        }
    }
    let _ = std::thread::Builder::new()
        .name("interrupt".into())
        .spawn(watch);
}

/// Waits for a signal; then cleans up and exits.
#[allow(clippy::disallowed_macros)]
fn watch() {
    loop {
        let signum = RECEIVED.load(Ordering::Relaxed);
        if signum != 0 {
            // The directories there before the children stop: a
            // benchmark that sees its tool end may remove its own first.
            let tmp = std::env::temp_dir();
            let before = scratch_dirs(&tmp);
            stop_children(signum);
            remove_scratch(&tmp);
            let removed = before.iter().filter(|dir| !dir.exists()).count();
            let what = match signum {
                SIGINT => "interrupted",
                _ => "terminated",
            };
            let left = match removed {
                0 => String::new(),
                n => format!(" (removed {n} scratch director{})", plural(n)),
            };
            eprintln!("pld-bench: {what}{left}");
            std::process::exit(128 + signum);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Passes `signum` on to this process's children, and waits up to two
/// seconds for them to end.
fn stop_children(signum: i32) {
    for child in children() {
        // SAFETY: kill(2) with a pid read from /proc as our child's; at
        // worst the pid is gone (ESRCH) or reused, and an error is ignored.
        unsafe {
            kill(child, signum);
        }
    }
    let until = std::time::Instant::now() + Duration::from_secs(2);
    while !children().is_empty() && std::time::Instant::now() < until {
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The processes whose parent is this one (from `/proc/<pid>/stat`; a
/// zombie, which has ended, is not counted).
fn children() -> Vec<i32> {
    let me = std::process::id().to_string();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| {
            let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
                return false;
            };
            // After the command's ")": the state, then the parent's pid.
            let mut fields = stat
                .rsplit_once(')')
                .map_or("", |(_, r)| r)
                .split_whitespace();
            let state = fields.next();
            state != Some("Z") && fields.next() == Some(me.as_str())
        })
        .collect()
}

fn plural(n: usize) -> &'static str {
    match n {
        1 => "y",
        _ => "ies",
    }
}

/// Removes this process's scratch directories from `tmp`.
fn remove_scratch(tmp: &std::path::Path) {
    for dir in scratch_dirs(tmp) {
        let _ = std::fs::remove_dir_all(dir);
    }
}

/// This process's scratch directories in `tmp`: `pld-bench-*-<pid>`.
fn scratch_dirs(tmp: &std::path::Path) -> Vec<std::path::PathBuf> {
    let suffix = format!("-{}", std::process::id());
    let Ok(entries) = std::fs::read_dir(tmp) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter(|entry| {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            name.starts_with("pld-bench-") && name.ends_with(&suffix)
        })
        .map(|entry| entry.path())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_running_child_is_found_and_stopped() {
        let mut child = std::process::Command::new("sleep")
            .arg("30")
            .spawn()
            .unwrap();
        let pid = child.id() as i32;
        assert!(children().contains(&pid));
        // SAFETY: our own child, not yet waited for.
        unsafe {
            kill(pid, SIGTERM);
        }
        let status = child.wait().unwrap();
        assert!(!status.success());
        assert!(!children().contains(&pid));
    }

    #[test]
    fn only_this_process_scratch_is_removed() {
        let pid = std::process::id();
        // A directory of its own: the anchors' tests make scratch
        // directories of this process in the real one.
        let tmp = std::env::temp_dir().join(format!("pld-bench-interrupt-test.{pid}"));
        let ours = tmp.join(format!("pld-bench-test-interrupt-{pid}"));
        let other = tmp.join(format!("pld-bench-test-interrupt-{pid}0"));
        let unrelated = tmp.join(format!("pld-run-test-interrupt-{pid}"));
        for dir in [&ours, &other, &unrelated] {
            std::fs::create_dir_all(dir.join("inside")).unwrap();
        }
        assert_eq!(scratch_dirs(&tmp), vec![ours.clone()]);
        remove_scratch(&tmp);
        assert!(!ours.exists());
        assert!(other.exists() && unrelated.exists());
        std::fs::remove_dir_all(&tmp).unwrap();
    }
}
