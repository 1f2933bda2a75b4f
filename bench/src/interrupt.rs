//! Ctrl-C. The children a benchmark runs (pld-run, mpirun, the anchors)
//! share its process group and stop on their own; what would be left is
//! the benchmark's scratch directories (`$TMPDIR/pld-bench-*-<pid>`,
//! compiled anchors and generated programs). [`install`] makes SIGINT and
//! SIGTERM only raise a flag; a watcher thread then removes those
//! directories, says so, and ends the process with 128 + the signal.
//!
//! The only FFI of this crate is here: `signal(2)` from the C library the
//! binary links anyway (the harness stays free of dependencies).

use std::sync::atomic::{AtomicI32, Ordering};
use std::time::Duration;

/// The signal received, or 0.
static RECEIVED: AtomicI32 = AtomicI32::new(0);

const SIGINT: i32 = 2;
const SIGTERM: i32 = 15;

extern "C" {
    fn signal(signum: i32, handler: extern "C" fn(i32)) -> usize;
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
            let removed = remove_scratch(&std::env::temp_dir());
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

fn plural(n: usize) -> &'static str {
    match n {
        1 => "y",
        _ => "ies",
    }
}

/// Removes this process's scratch directories from `tmp`; returns how
/// many.
fn remove_scratch(tmp: &std::path::Path) -> usize {
    let suffix = format!("-{}", std::process::id());
    let Ok(entries) = std::fs::read_dir(tmp) else {
        return 0;
    };
    entries
        .flatten()
        .filter(|entry| {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            name.starts_with("pld-bench-") && name.ends_with(&suffix)
        })
        .filter(|entry| std::fs::remove_dir_all(entry.path()).is_ok())
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(remove_scratch(&tmp), 1);
        assert!(!ours.exists());
        assert!(other.exists() && unrelated.exists());
        std::fs::remove_dir_all(&tmp).unwrap();
    }
}
