//! Running the simulator from Python: on a thread of its own, with the
//! GIL released, Ctrl-C raising `KeyboardInterrupt` promptly.
//!
//! Python runs its signal handlers on the main thread, between bytecodes;
//! a thread that sits in Rust for the length of a run would leave Ctrl-C
//! unanswered until the run ends. So the job runs on a worker thread while
//! the calling thread waits for it without the GIL and, every [`TICK`],
//! takes the GIL back for `Python::check_signals`. When that raises (the
//! `KeyboardInterrupt` of Ctrl-C, or whatever a handler raised), it raises
//! `pld_sim`'s interrupt flag, which stops the run as a deadlock would
//! (every wait returns), gives the worker [`GRACE`] to come back, and
//! raises the exception. A worker that has not ended by then is left
//! behind: a kernel that goes on calling into the simulator is parked for
//! good a few seconds after the stop (`pld_sim`'s `ABANDON`) and costs no
//! CPU, and the next call runs as if it had ended. A rank looping without
//! device calls cannot be stopped from outside: it keeps its core.
//!
//! Past the call's `time_limit=` the waiting thread stops the job's run
//! alone (the `Stop` the worker entered, which the simulator's runs started
//! on it take) and raises `pld.TimeLimitError` the same way.
//!
//! A job that can get stuck where no stop reaches it (an explored schedule
//! that cannot end) is also asked after every tick whether to give up
//! ([`Watching`]): its answer is the call's result, its run is stopped and
//! the worker is left behind.
//!
//! The job can ask the calling thread a question while it runs
//! ([`Asker::ask`]): the run asks for its inputs once it knows the
//! parameters, and they are read from numpy arrays with the GIL held.

use crate::error::{panic_text, Failure};
use pld_sim::runtime::interrupt::{self, Stop};
use pyo3::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How often the waiting thread looks at Python's signals.
const TICK: Duration = Duration::from_millis(50);

/// How long a stopped run gets to come back before the exception is
/// raised without it.
const GRACE: Duration = Duration::from_secs(2);

/// Workers still running (the interrupt flag is the process's: it is
/// lowered only when none runs).
static WORKERS: AtomicUsize = AtomicUsize::new(0);

/// What a worker sends the calling thread.
enum Message<Q, R> {
    Question(Q),
    Done(Result<R, Failure>),
}

/// Sends a question to the calling thread; false when it has gone.
type Sending<Q> = Box<dyn Fn(Q) -> bool + Send>;

/// The job's way to ask the calling thread a question.
pub struct Asker<Q, A> {
    send: Sending<Q>,
    answers: Receiver<A>,
}

impl<Q, A> Asker<Q, A> {
    /// The answer to `question`; `Err` when the caller gave up (its
    /// answer raised, or Ctrl-C).
    pub fn ask(&self, question: Q) -> Result<A, Failure> {
        if !(self.send)(question) {
            return Err(Failure::Interrupted);
        }
        self.answers.recv().map_err(|_| Failure::Interrupted)
    }
}

/// Counts a worker from its start to its end, or until its caller leaves
/// it behind ([`uncount`]).
struct Counted(Arc<AtomicBool>);

impl Counted {
    fn start() -> Self {
        if WORKERS.fetch_add(1, Ordering::SeqCst) == 0 {
            // Ctrl-C of an earlier call, whose workers have all ended or
            // been left behind.
            interrupt::clear();
        }
        Counted(Arc::new(AtomicBool::new(true)))
    }
}

/// Takes a worker out of [`WORKERS`], once.
fn uncount(counted: &AtomicBool) {
    if counted.swap(false, Ordering::SeqCst) {
        WORKERS.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        uncount(&self.0);
    }
}

/// How long a job may take (`time_limit=`), the stop of its run, and
/// whether to give it up.
struct Limit<R> {
    seconds: Option<(Duration, Instant)>,
    stop: Stop,
    give_up: Watching<R>,
}

impl<R> Limit<R> {
    /// Whether the job is over its time limit.
    fn over(&self) -> bool {
        self.seconds
            .is_some_and(|(limit, since)| since.elapsed() >= limit)
    }

    /// How long to wait for the worker before looking again: a [`TICK`],
    /// or less when the limit comes sooner (a limit shorter than a tick
    /// stops the run when it passes, as `pld-run --time-limit` does, not
    /// at the first tick).
    fn next_look(&self) -> Duration {
        match self.seconds {
            Some((limit, since)) => TICK.min(limit.saturating_sub(since.elapsed())),
            None => TICK,
        }
    }
}

/// What the waiting thread asks after every tick besides Python's signals
/// and the time limit: `Some(result)` ends the call with it, the worker
/// left behind.
pub type Watching<R> = Box<dyn FnMut() -> Option<R>>;

/// A [`Watching`] that never gives up.
pub fn never<R>() -> Watching<R> {
    Box::new(|| None)
}

/// Runs `job` on a worker thread and waits for it without the GIL,
/// answering its questions with `answer` (GIL held) and looking at
/// Python's signals, and at `limit` (`time_limit=`), every [`TICK`]. A job
/// stopped by its time limit that still comes back with a result (an
/// exploration's findings so far) hands it to `keep` with the
/// `TimeLimitError` about to be raised. `give_up` is asked too.
pub fn converse<'py, Q, A, R>(
    py: Python<'py>,
    (limit, give_up): (Option<Duration>, Watching<R>),
    job: impl FnOnce(&Asker<Q, A>) -> Result<R, Failure> + Send + 'static,
    answer: impl FnMut(Python<'py>, Q) -> PyResult<A>,
    keep: impl FnOnce(Python<'py>, R, &PyErr),
) -> PyResult<R>
where
    Q: Send + 'static,
    A: Send + 'static,
    R: Send + 'static,
{
    let limit = Limit {
        seconds: limit.map(|l| (l, Instant::now())),
        stop: Stop::default(),
        give_up,
    };
    let (from_worker, to_worker, (counted, thread)) =
        spawn(limit.stop.clone(), job).map_err(|f| f.into_pyerr(py))?;
    wait(
        py,
        (from_worker, to_worker),
        (&counted, thread),
        limit,
        (answer, keep),
    )
}

/// Starts the worker: what it sends, where its answers go, whether it is
/// counted, and its thread.
#[allow(clippy::type_complexity)]
fn spawn<Q, A, R>(
    stop: Stop,
    job: impl FnOnce(&Asker<Q, A>) -> Result<R, Failure> + Send + 'static,
) -> Result<
    (
        Receiver<Message<Q, R>>,
        Sender<A>,
        (Arc<AtomicBool>, JoinHandle<()>),
    ),
    Failure,
>
where
    Q: Send + 'static,
    A: Send + 'static,
    R: Send + 'static,
{
    let (to_caller, from_worker) = channel::<Message<Q, R>>();
    let (to_worker, answers) = channel::<A>();
    let counted = Counted::start();
    let handle = counted.0.clone();
    let thread = std::thread::Builder::new()
        .name("pld".into())
        .stack_size(pld_ir::nesting::STACK_BYTES)
        .spawn(move || {
            let questions = to_caller.clone();
            let asker = Asker {
                send: Box::new(move |q| questions.send(Message::Question(q)).is_ok()),
                answers,
            };
            let job = || stop.enter(|| job(&asker));
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job))
                .unwrap_or_else(|panic| {
                    Err(Failure::plain(format!(
                        "internal error in pld: {}",
                        panic_text(&*panic)
                    )))
                });
            // Counted out before the caller hears of the end, so that its
            // next run finds no worker running and lowers the flag.
            drop(counted);
            let _ = to_caller.send(Message::Done(result));
        })
        .map_err(|e| Failure::plain(format!("cannot start a thread: {e}")))?;
    Ok((from_worker, to_worker, (handle, thread)))
}

/// Waits for a worker that sent its last message to end: its compiled
/// kernels (kept for the thread's life) are destroyed as it ends, which
/// must not race the interpreter's exit.
fn join(py: Python<'_>, thread: JoinHandle<()>) {
    py.detach(move || {
        let _ = thread.join();
    });
}

/// Waits for the worker's result without the GIL: answers its questions,
/// and on a raised signal, or past the time limit, stops the run and
/// raises.
fn wait<'py, Q, A, R>(
    py: Python<'py>,
    (mut from_worker, to_worker): (Receiver<Message<Q, R>>, Sender<A>),
    (counted, thread): (&AtomicBool, JoinHandle<()>),
    mut limit: Limit<R>,
    (mut answer, keep): (
        impl FnMut(Python<'py>, Q) -> PyResult<A>,
        impl FnOnce(Python<'py>, R, &PyErr),
    ),
) -> PyResult<R>
where
    Q: Send + 'static,
    R: Send + 'static,
{
    loop {
        // The receiver goes into the detached closure and comes back (it
        // is Send, not Sync).
        let look = limit.next_look();
        let (received, back) = py.detach(move || (from_worker.recv_timeout(look), from_worker));
        from_worker = back;
        match received {
            // An answer that raises drops `to_worker` on return: the job's
            // question fails and it ends.
            Ok(Message::Question(question)) => {
                let _ = to_worker.send(answer(py, question)?);
            }
            Ok(Message::Done(result)) => {
                join(py, thread);
                return result.map_err(|f| f.into_pyerr(py));
            }
            Err(RecvTimeoutError::Timeout) => {
                let (raised, timed_out) = match py.check_signals() {
                    Err(raised) => {
                        interrupt::request();
                        (raised, false)
                    }
                    Ok(()) if limit.over() => {
                        limit.stop.request();
                        let seconds = limit.seconds.map(|(s, _)| s).unwrap_or_default();
                        (Failure::TimeLimit(seconds).into_pyerr(py), true)
                    }
                    Ok(()) => match (limit.give_up)() {
                        None => continue,
                        Some(result) => {
                            // Its ranks cannot be stopped: those that poll
                            // park once they see the stop.
                            limit.stop.request();
                            uncount(counted);
                            return Ok(result);
                        }
                    },
                };
                drop(to_worker);
                match py.detach(move || wait_for_done(&from_worker)) {
                    // Left behind (its ranks park once they see the
                    // stop): the next call may lower the flag.
                    None => uncount(counted),
                    Some(Some(partial)) if timed_out => {
                        join(py, thread);
                        keep(py, partial, &raised);
                    }
                    Some(_) => join(py, thread),
                }
                return Err(raised);
            }
            Err(RecvTimeoutError::Disconnected) => {
                let message = "internal error in pld: the run's thread ended without a result";
                return Err(Failure::plain(message).into_pyerr(py));
            }
        }
    }
}

/// Waits up to [`GRACE`] for the worker's end: `None` when it has not
/// ended by then, else what it came back with, if a result.
fn wait_for_done<Q, R>(from_worker: &Receiver<Message<Q, R>>) -> Option<Option<R>> {
    let until = Instant::now() + GRACE;
    while let Some(left) = until.checked_duration_since(Instant::now()) {
        match from_worker.recv_timeout(left) {
            Ok(Message::Done(result)) => return Some(result.ok()),
            Err(RecvTimeoutError::Disconnected) => return Some(None),
            Err(RecvTimeoutError::Timeout) => return None,
            Ok(Message::Question(_)) => continue,
        }
    }
    None
}
