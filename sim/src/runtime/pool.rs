//! Threads that outlive a run. Starting a thread per rank and joining it
//! cost more than a small call's kernels: measured on the 2-vCPU VM, two
//! pinned threads started, met once and joined took 55 us at best and
//! 100 us on average (their stacks' pages given back, the TLB shot down on
//! both cores), where a 4 KiB allreduce's own work is a few microseconds.
//! A run hands each of its ranks (or fiber workers) to a thread kept from
//! the runs before, pinned to the same CPU or not pinned ([`Role`]), and
//! waits until every one is back; a thread is started only when none of
//! its role is idle. Idle threads sleep on their mailbox and cost nothing.
//!
//! What a thread keeps between runs is reset by the run itself: the rank's
//! thread-locals (`CURRENT`, the tiles) are cleared when its kernel returns,
//! and [`scope`] gives each job a fresh copy-recency record.

use std::any::Any;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};

/// How long an idle thread keeps looking at its mailbox (yielding its core
/// between looks) before it sleeps: back-to-back runs (`--iters`, a
/// program's calls) then hand over without a wake-up through the
/// scheduler, which on a VM costs tens of microseconds.
const POLL: std::time::Duration = std::time::Duration::from_micros(200);

/// Where a pooled thread runs: pinned to this CPU, or (`None`) wherever the
/// scheduler puts it. A thread keeps its role for life.
pub(crate) type Role = Option<usize>;

/// A job of a [`scope`], on the thread that runs it.
type Job = Box<dyn FnOnce() + Send + 'static>;

/// One pooled thread's inbox: the job it is to run next.
#[derive(Default)]
struct Mailbox {
    job: Mutex<Option<Job>>,
    posted: Condvar,
    /// Whether `job` holds one (read without the lock while polling).
    full: AtomicBool,
}

impl Mailbox {
    fn post(&self, job: Job) {
        let mut slot = self.job.lock().unwrap_or_else(PoisonError::into_inner);
        *slot = Some(job);
        self.full.store(true, Ordering::Release);
        self.posted.notify_one();
    }

    /// The next job: polled for [`POLL`], then slept for.
    fn next(&self) -> Job {
        let polled = std::time::Instant::now();
        while polled.elapsed() < POLL && !self.full.load(Ordering::Acquire) {
            std::thread::yield_now();
        }
        let mut slot = self.job.lock().unwrap_or_else(PoisonError::into_inner);
        loop {
            if let Some(job) = slot.take() {
                self.full.store(false, Ordering::Release);
                return job;
            }
            slot = self
                .posted
                .wait(slot)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }
}

/// An idle pooled thread.
struct Idle {
    role: Role,
    mailbox: Arc<Mailbox>,
}

/// The idle threads of the process.
static IDLE: Mutex<Vec<Idle>> = Mutex::new(Vec::new());

/// The jobs of one scope still running, and the first panic among them.
struct Latch {
    state: Mutex<(usize, Option<Box<dyn Any + Send>>)>,
    done: Condvar,
}

impl Latch {
    fn count_down(&self, panic: Option<Box<dyn Any + Send>>) {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        state.0 -= 1;
        if state.1.is_none() {
            state.1 = panic;
        }
        if state.0 == 0 {
            self.done.notify_all();
        }
    }

    /// Blocks until every job counted down; the first panic, if any.
    fn wait(&self) -> Option<Box<dyn Any + Send>> {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        while state.0 > 0 {
            state = self
                .done
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
        }
        state.1.take()
    }
}

/// One job of a scope: its thread's role and name (a new thread's name,
/// as `perf` and panic messages show it), and what it runs.
pub(crate) struct Task<'env> {
    pub role: Role,
    pub name: String,
    pub run: Box<dyn FnOnce() + Send + 'env>,
}

/// Runs every task on a pooled thread of its role and returns when all
/// have returned; a task's panic is resumed here once all are back (as
/// `std::thread::scope` does).
pub(crate) fn scope(tasks: Vec<Task<'_>>) {
    // Every thread is found or started before any task is posted: a thread
    // that cannot start panics here, while no task borrows anything yet.
    let threads: Vec<Idle> = tasks.iter().map(|t| take(t.role, &t.name)).collect();
    let latch = Arc::new(Latch {
        state: Mutex::new((tasks.len(), None)),
        done: Condvar::new(),
    });
    // Posted last to first: the first task's thread is pinned to the CPU
    // the caller runs on, if any, and would otherwise take it over before
    // the others are posted (then wait for them in vain).
    for (task, thread) in tasks.into_iter().zip(threads).rev() {
        let latch = Arc::clone(&latch);
        let mailbox = Arc::clone(&thread.mailbox);
        let run = task.run;
        let job: Box<dyn FnOnce() + Send + '_> = Box::new(move || {
            crate::runtime::copy::put_core(Default::default());
            let panic = std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)).err();
            IDLE.lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(thread);
            latch.count_down(panic);
        });
        // SAFETY: only the lifetime changes. The job borrows from the
        // caller's frame ('env), and this function does not return before
        // the job has run to its end: `latch.wait()` below returns once
        // every job counted down, which each does after its task returned
        // or panicked (caught above); nothing between posting and waiting
        // can unwind (the locks are taken poison-tolerantly).
        let job: Job = unsafe { std::mem::transmute::<Box<dyn FnOnce() + Send + '_>, Job>(job) };
        mailbox.post(job);
    }
    if let Some(panic) = latch.wait() {
        std::panic::resume_unwind(panic);
    }
}

/// An idle thread of `role`, or a new one named `name`.
fn take(role: Role, name: &str) -> Idle {
    let mut idle = IDLE.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(i) = idle.iter().position(|t| t.role == role) {
        return idle.swap_remove(i);
    }
    drop(idle);
    let mailbox = Arc::new(Mailbox::default());
    let inbox = Arc::clone(&mailbox);
    std::thread::Builder::new()
        .name(name.to_string())
        .spawn(move || serve(role, &inbox))
        .expect("start a simulator thread");
    Idle { role, mailbox }
}

/// A pooled thread's life: pinned once, then every job posted to it.
fn serve(role: Role, mailbox: &Mailbox) {
    if let Some(cpu) = role {
        crate::runtime::affinity::pin_current_thread(cpu);
    }
    loop {
        mailbox.next()();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    fn task<'a>(role: Role, run: impl FnOnce() + Send + 'a) -> Task<'a> {
        Task {
            role,
            name: "pool test".into(),
            run: Box::new(run),
        }
    }

    #[test]
    fn tasks_borrow_the_callers_frame_and_all_run_before_scope_returns() {
        let sum = AtomicUsize::new(0);
        for round in 1..=3 {
            let tasks = (0..4)
                .map(|i| {
                    task(None, {
                        let sum = &sum;
                        move || {
                            sum.fetch_add(i * round, Ordering::SeqCst);
                        }
                    })
                })
                .collect();
            scope(tasks);
        }
        assert_eq!(sum.load(Ordering::SeqCst), 6 * (1 + 2 + 3));
    }

    #[test]
    fn threads_are_reused_and_run_tasks_at_once() {
        // Two tasks that meet each other: each needs the other running.
        let met = AtomicUsize::new(0);
        let meet = || {
            met.fetch_add(1, Ordering::SeqCst);
            while met.load(Ordering::SeqCst) % 2 == 1 {
                std::thread::yield_now();
            }
        };
        // A role of this test's own (a CPU number no machine has: the
        // thread is not pinned), so no other test's threads are taken.
        let role = Some(1 << 20);
        let ids = Mutex::new(Vec::new());
        for _ in 0..3 {
            let record = || ids.lock().unwrap().push(std::thread::current().id());
            scope(vec![
                task(role, || {
                    record();
                    meet()
                }),
                task(role, || {
                    record();
                    meet()
                }),
            ]);
        }
        let ids = ids.into_inner().unwrap();
        let distinct: std::collections::HashSet<_> = ids.iter().collect();
        // Six tasks in three scopes, on the two threads the first started.
        assert_eq!(distinct.len(), 2, "{ids:?}");
        assert_ne!(ids[0], ids[1]);
    }

    #[test]
    fn a_panicking_task_is_resumed_after_the_others_finish() {
        let finished = AtomicUsize::new(0);
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            scope(vec![
                task(None, || panic!("task failed")),
                task(None, || {
                    std::thread::sleep(std::time::Duration::from_millis(20));
                    finished.fetch_add(1, Ordering::SeqCst);
                }),
            ])
        }));
        let panic = result.expect_err("the task's panic reaches the caller");
        assert_eq!(panic.downcast_ref::<&str>(), Some(&"task failed"));
        assert_eq!(finished.load(Ordering::SeqCst), 1);
        // The pool still works after it.
        let ran = AtomicUsize::new(0);
        scope(vec![task(None, || {
            ran.fetch_add(1, Ordering::SeqCst);
        })]);
        assert_eq!(ran.load(Ordering::SeqCst), 1);
    }
}
