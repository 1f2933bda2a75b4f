//! Ctrl-C. A tool that runs kernels calls [`install`] once: from then on
//! the first SIGINT only raises a flag ([`requested`]) that stops the
//! current run as a deadlock would (every wait returns, explore mode ends
//! its schedule at the next device call) and that the tools' loops read
//! between iterations and schedules, so they can say what was done before
//! they exit with status 130. A second Ctrl-C ends the process at once
//! with status 130 (a SIGINT within a quarter second of the first counts
//! as the same press).
//!
//! SIGTERM (what `kill` and process managers send) is taken the same way
//! where a tool asks for it ([`install_terminate`]): the run stops, the
//! tool says what was done, and the status is 143 (128 + SIGTERM).
//!
//! The handler is installed even where SIGINT was ignored: a shell starts
//! a background job (`pld-run ... &` in a script) with SIGINT ignored, and
//! `kill -INT` should still stop it.

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicI64, Ordering};
use std::sync::Arc;

static REQUESTED: AtomicBool = AtomicBool::new(false);

/// When the first SIGINT came, in milliseconds of the monotonic clock.
static FIRST_MS: AtomicI64 = AtomicI64::new(0);

/// A second SIGINT this soon after the first is the same Ctrl-C delivered
/// twice (`timeout -s INT` signals its child and then its process group).
const SAME_PRESS_MS: i64 = 250;

/// The exit status of a process ended by Ctrl-C (128 + SIGINT).
pub const STATUS: i32 = 130;

/// The signal that raised the flag first (SIGINT or SIGTERM; 0 before).
static SIGNAL: AtomicI32 = AtomicI32::new(0);

/// The exit status of a process the flag stopped: 128 + the signal that
/// raised it (130 for Ctrl-C or a [`request`], 143 for SIGTERM).
pub fn status() -> i32 {
    match SIGNAL.load(Ordering::Relaxed) {
        0 => STATUS,
        signal => 128 + signal,
    }
}

/// How the tools say what stopped them after "interrupted": nothing for
/// Ctrl-C, ` by SIGTERM` for SIGTERM.
pub fn by() -> &'static str {
    match SIGNAL.load(Ordering::Relaxed) {
        libc::SIGTERM => " by SIGTERM",
        _ => "",
    }
}

/// Whether Ctrl-C was pressed since [`install`] (or [`request`]ed),
/// whatever stop the calling thread runs under.
pub fn pressed() -> bool {
    REQUESTED.load(Ordering::Relaxed)
}

/// Whether Ctrl-C was pressed since [`install`], or the [`Stop`] the
/// calling thread runs under ([`Stop::enter`]) was requested.
pub fn requested() -> bool {
    REQUESTED.load(Ordering::Relaxed) || SCOPE.with(|s| s.borrow().as_ref().is_some_and(Stop::own))
}

/// A stop of one run only, as Ctrl-C stops every run of the process: a
/// host that embeds the simulator (the C API's and the Python package's
/// time limits) requests it for the run it started, and runs on other
/// threads go on. Clones share the request.
#[derive(Clone, Debug, Default)]
pub struct Stop(Arc<AtomicBool>);

impl Stop {
    /// Requests the stop (from any thread).
    pub fn request(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether this stop, or Ctrl-C, was requested.
    pub fn requested(&self) -> bool {
        self.own() || REQUESTED.load(Ordering::Relaxed)
    }

    /// Whether this stop was requested (Ctrl-C aside).
    pub fn own(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// Runs `work` on the calling thread under this stop: [`requested`]
    /// and [`current`] see it there (a run started inside takes it).
    pub fn enter<R>(&self, work: impl FnOnce() -> R) -> R {
        struct Leave(Option<Stop>);
        impl Drop for Leave {
            fn drop(&mut self) {
                SCOPE.with(|s| *s.borrow_mut() = self.0.take());
            }
        }
        let _leave = Leave(SCOPE.with(|s| s.borrow_mut().replace(self.clone())));
        work()
    }
}

thread_local! {
    /// The stop the thread runs under ([`Stop::enter`]).
    static SCOPE: RefCell<Option<Stop>> = const { RefCell::new(None) };
}

/// The stop the calling thread runs under, if any.
pub fn current() -> Option<Stop> {
    SCOPE.with(|s| s.borrow().clone())
}

/// Raises the flag as a SIGINT would (for tests, and for a tool that
/// stops its run for a reason of its own).
pub fn request() {
    REQUESTED.store(true, Ordering::Relaxed);
}

/// Lowers the flag again, for a host that stays alive after a stopped
/// run and runs more (the Python package, whose interpreter turns Ctrl-C
/// into `KeyboardInterrupt` and [`request`]s the stop itself).
pub fn clear() {
    REQUESTED.store(false, Ordering::Relaxed);
    FIRST_MS.store(0, Ordering::Relaxed);
    SIGNAL.store(0, Ordering::Relaxed);
}

/// The monotonic clock in milliseconds (async-signal-safe).
fn now_ms() -> i64 {
    // SAFETY: `timespec` is plain data; `clock_gettime` is
    // async-signal-safe and writes only into it.
    unsafe {
        let mut t: libc::timespec = std::mem::zeroed();
        libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut t);
        t.tv_sec as i64 * 1000 + t.tv_nsec as i64 / 1_000_000
    }
}

extern "C" fn on_signal(signal: libc::c_int) {
    let now = now_ms();
    if !REQUESTED.swap(true, Ordering::Relaxed) {
        FIRST_MS.store(now, Ordering::Relaxed);
        SIGNAL.store(signal, Ordering::Relaxed);
    } else if now - FIRST_MS.load(Ordering::Relaxed) >= SAME_PRESS_MS {
        // SAFETY: `_exit` is async-signal-safe; it ends the process
        // without running anything else.
        unsafe { libc::_exit(status()) };
    }
}

/// Ends the process with `status` from any thread, while other threads
/// may still be inside LLVM or MLIR (compiling, say): standard output and
/// error are flushed, and nothing else runs. `std::process::exit` would
/// run the C++ libraries' static destructors under the threads still
/// using them (a SIGSEGV in LLVM's code generator after Ctrl-C during a
/// compile).
pub fn end_process(status: i32) -> ! {
    use std::io::Write;
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    // SAFETY: `_exit` ends the process at once; the buffered output that
    // matters was flushed above, and no destructor or exit handler runs.
    unsafe { libc::_exit(status) }
}

/// Installs the SIGINT handler. Returns false when the system refused it
/// (then Ctrl-C keeps its default action, which ends the process).
pub fn install() -> bool {
    handle(libc::SIGINT)
}

/// Installs the same handler for SIGTERM. Not for a process of an MPI job:
/// mpirun ends the job's other processes with SIGTERM when one fails, and
/// they should end at once, not report an interruption.
pub fn install_terminate() -> bool {
    handle(libc::SIGTERM)
}

fn handle(signal: libc::c_int) -> bool {
    // SAFETY: `sigaction` is plain data, valid when zeroed; the handler
    // only touches atomics and calls `_exit`, all async-signal-safe;
    // SA_RESTART keeps interrupted system calls of other threads going.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
        action.sa_flags = libc::SA_RESTART;
        libc::sigemptyset(&mut action.sa_mask);
        libc::sigaction(signal, &action, std::ptr::null_mut()) == 0
    }
}
