//! What `pld-opt` is doing, for the moments it must say so: Ctrl-C ends it
//! with status 130 and a line naming the step it interrupted (`pld-opt:
//! interrupted while running pass 'pld-explore-protocol', 4.2s in; no
//! output was written`), where SIGINT's default action ended it without a
//! word; on a terminal, a step that runs long says so every [`HEARTBEAT`]
//! (a `pld-explore-protocol` of many schedules said nothing for minutes).
//! The driver names each step ([`step`]); [`start`] installs the handler
//! and the watchdog.

use pld_sim::runtime::interrupt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How often the watchdog looks.
const TICK: Duration = Duration::from_millis(50);

/// How often a long step says that it runs (on a terminal).
pub const HEARTBEAT: Duration = Duration::from_secs(5);

/// The step that runs, and since when.
static STEP: Mutex<Option<(String, Instant)>> = Mutex::new(None);

/// The output is being written: Ctrl-C waits for it (a temporary file
/// would be left behind), and the driver ends after it ([`wrote`]).
static WRITING: AtomicBool = AtomicBool::new(false);

/// The step that runs from now on (`running pass 'cse'`), or none. A
/// step is kept until the next begins: a pass that Ctrl-C stopped may
/// return before the watchdog looks.
pub fn step(what: Option<String>) {
    *STEP.lock().unwrap_or_else(|e| e.into_inner()) = what.map(|w| (w, Instant::now()));
}

/// The output is about to be written: after a Ctrl-C (a pass it stopped
/// may have returned what it had) the process ends instead.
pub fn writing() {
    WRITING.store(true, Ordering::SeqCst);
    if interrupt::pressed() {
        end_interrupted();
    }
}

/// The output was written: a Ctrl-C that came meanwhile ends the process
/// now.
pub fn wrote() {
    WRITING.store(false, Ordering::SeqCst);
    if interrupt::pressed() {
        pld_ir::say!(
            "pld-opt: interrupted{} while writing the output, which was written",
            interrupt::by()
        );
        interrupt::end_process(interrupt::status())
    }
}

/// Installs the Ctrl-C handler and starts the watchdog.
pub fn start() {
    interrupt::install();
    interrupt::install_terminate();
    use std::io::IsTerminal;
    let terminal = std::io::stderr().is_terminal();
    std::thread::spawn(move || {
        let mut said = Instant::now();
        loop {
            std::thread::sleep(TICK);
            if interrupt::pressed() && !WRITING.load(Ordering::SeqCst) {
                end_interrupted();
            }
            if terminal && said.elapsed() >= HEARTBEAT {
                if let Some(line) = progress() {
                    pld_ir::say!("{line}");
                    said = Instant::now();
                }
            }
        }
    });
}

/// `pld-opt: running pass 'x' for 10s...` when a step has run that long.
fn progress() -> Option<String> {
    let step = STEP.lock().unwrap_or_else(|e| e.into_inner());
    let (what, since) = step.as_ref()?;
    let running = since.elapsed();
    (running >= HEARTBEAT).then(|| format!("pld-opt: {what} for {:.0}s...", running.as_secs_f64()))
}

/// Says what Ctrl-C interrupted and ends the process with status 130.
fn end_interrupted() -> ! {
    let step = STEP.lock().unwrap_or_else(|e| e.into_inner()).clone();
    let what = match step {
        Some((what, since)) => format!(" while {what}, {:.1}s in", since.elapsed().as_secs_f64()),
        None => String::new(),
    };
    pld_ir::say!(
        "pld-opt: interrupted{}{what}; no output was written",
        interrupt::by()
    );
    interrupt::end_process(interrupt::status())
}
