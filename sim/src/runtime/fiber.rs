//! User-space fibers: more simulated ranks than cores, without the
//! operating system's thread switches.
//!
//! A run with more ranks than cores spends its time in thread switches: a
//! barrier of P ranks needs every rank's thread scheduled in turn, through
//! the kernel, several microseconds each (the ring allreduce has two such
//! barriers per 16 KiB subchunk). In fiber mode a run starts one worker
//! thread per core and runs every rank as a fiber on one of them (rank r on
//! worker r mod W); a rank whose wait does not hold switches to the next
//! fiber of its worker in user space, in tens of nanoseconds.
//!
//! A fiber has its own stack (mapped with a guard page below it) and is
//! switched by [`switch`], which saves and restores the callee-saved
//! registers and the floating-point control words (the System V x86-64
//! ABI's). The thread-locals a rank's device calls use (its run and rank,
//! its tiles) are swapped with it: see [`Locals`]. Fibers never migrate
//! between workers and a fiber's body never unwinds into a switch (it
//! catches its kernel's panics). Only x86-64 has fibers; elsewhere
//! [`available`] is false and runs keep one thread per rank.

use std::cell::{Cell, RefCell};

/// Whether this build can run fibers.
pub fn available() -> bool {
    cfg!(target_arch = "x86_64")
}

/// What a fiber carries of the thread-locals of its worker thread while it
/// is switched out.
pub(crate) trait Locals: Default {
    /// Moves the worker's current values out (leaving defaults).
    fn take() -> Self;
    /// Puts saved values back.
    fn put(self);
}

/// Bytes of a fiber's stack (lazily committed by the kernel: only the
/// pages a rank touches cost memory).
const STACK_BYTES: usize = 8 << 20;
const PAGE: usize = 4096;

/// A mapped stack with an inaccessible guard page at its low end, so that
/// an overflow faults instead of writing over other memory.
struct Stack {
    base: *mut u8,
    len: usize,
}

impl Stack {
    fn new() -> Option<Stack> {
        let len = STACK_BYTES + PAGE;
        // SAFETY: an anonymous private mapping of `len` bytes; the result
        // is checked against MAP_FAILED before use.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                -1,
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return None;
        }
        // SAFETY: the first page of the mapping just made.
        if unsafe { libc::mprotect(base, PAGE, libc::PROT_NONE) } != 0 {
            // SAFETY: unmaps exactly the mapping made above.
            unsafe { libc::munmap(base, len) };
            return None;
        }
        Some(Stack {
            base: base.cast(),
            len,
        })
    }

    /// One past the highest address, 16-byte aligned.
    fn top(&self) -> *mut u8 {
        // SAFETY: one past the end of the mapping.
        unsafe { self.base.add(self.len) }
    }
}

// SAFETY: a stack is an owned mapping, used by one fiber at a time; a
// spare one is used by nobody.
unsafe impl Send for Stack {}

/// Stacks of fibers that finished, kept for the next ones: mapping a
/// stack, its guard page and the first touch of its pages cost more than
/// a short explored schedule's whole hand-over.
static SPARE: std::sync::Mutex<Vec<Stack>> = std::sync::Mutex::new(Vec::new());

/// How many spare stacks are kept (their touched pages stay committed).
const SPARE_STACKS: usize = 64;

impl Stack {
    /// A spare stack, else a new one.
    fn take() -> Option<Stack> {
        let spare = SPARE.lock().unwrap_or_else(|e| e.into_inner()).pop();
        spare.or_else(Stack::new)
    }
}

impl Drop for Stack {
    fn drop(&mut self) {
        // No fiber runs on it any more (a fiber's stack is dropped after
        // its body finished and switched away for the last time): kept
        // for another fiber, or unmapped.
        let mut spare = SPARE.lock().unwrap_or_else(|e| e.into_inner());
        if spare.len() < SPARE_STACKS && self.len == STACK_BYTES + PAGE {
            spare.push(Stack {
                base: std::mem::replace(&mut self.base, std::ptr::null_mut()),
                len: self.len,
            });
            return;
        }
        drop(spare);
        if !self.base.is_null() {
            // SAFETY: the mapping `new` made, used by nobody now.
            unsafe { libc::munmap(self.base.cast(), self.len) };
        }
    }
}

/// The body a fiber runs, and where it switches back to.
struct Start {
    body: Option<Box<dyn FnOnce() + 'static>>,
}

#[cfg(target_arch = "x86_64")]
mod arch {
    /// Saves the callee-saved registers and FP control words on the
    /// current stack, stores the stack pointer in `*from`, loads `to` as
    /// the stack pointer and restores what is saved there.
    ///
    /// # Safety
    ///
    /// `to` is a stack pointer saved by `switch` (or prepared by
    /// [`prepare`]) of a context that is not running.
    #[unsafe(naked)]
    pub unsafe extern "sysv64" fn switch(from: *mut *mut u8, to: *mut u8) {
        core::arch::naked_asm!(
            "push rbp",
            "push rbx",
            "push r12",
            "push r13",
            "push r14",
            "push r15",
            "sub rsp, 8",
            "stmxcsr [rsp]",
            "fnstcw [rsp + 4]",
            "mov [rdi], rsp",
            "mov rsp, rsi",
            "ldmxcsr [rsp]",
            "fldcw [rsp + 4]",
            "add rsp, 8",
            "pop r15",
            "pop r14",
            "pop r13",
            "pop r12",
            "pop rbx",
            "pop rbp",
            "ret",
        )
    }

    /// The first code a fiber runs: calls `entry(r12)`, which never
    /// returns.
    #[unsafe(naked)]
    unsafe extern "sysv64" fn trampoline() {
        core::arch::naked_asm!("mov rdi, r12", "call r13", "ud2")
    }

    /// Lays out a new context at `top` whose first switch runs
    /// `entry(argument)`; returns its stack pointer.
    ///
    /// # Safety
    ///
    /// `top` is the 16-byte aligned end of a stack of at least a page that
    /// nothing else uses.
    pub unsafe fn prepare(
        top: *mut u8,
        entry: unsafe extern "sysv64" fn(*mut u8) -> !,
        argument: *mut u8,
    ) -> *mut u8 {
        // From the top down: two zeros (alignment), the return address of
        // the first `ret` (the trampoline), rbp, rbx, r12 (the argument),
        // r13 (the entry), r14, r15, and the control words. After the first
        // switch pops them, rsp is 16-byte aligned at the trampoline, as
        // its `call` needs.
        let words = top.cast::<u64>();
        // SAFETY: the caller's contract: these ten words are inside the
        // stack.
        unsafe {
            let w = |i: usize| words.sub(i);
            w(1).write(0);
            w(2).write(0);
            w(3).write(trampoline as *const () as usize as u64);
            w(4).write(0); // rbp
            w(5).write(0); // rbx
            w(6).write(argument as u64); // r12
            w(7).write(entry as *const () as usize as u64); // r13
            w(8).write(0); // r14
            w(9).write(0); // r15
                           // MXCSR default (all exceptions masked), x87 control word
                           // default (extended precision, all masked).
            w(10).write(0x1f80 | (0x037f << 32));
            w(10).cast::<u8>()
        }
    }
}

/// One worker thread's fibers.
struct Worker<L: Locals> {
    fibers: Vec<Fiber<L>>,
    /// The fiber running, if any (`None`: the worker's own context).
    current: Option<usize>,
    /// The worker's own saved stack pointer.
    main: *mut u8,
    /// Fibers not yet finished.
    live: usize,
    /// Fibers that have not run yet.
    fresh: usize,
}

/// The condition a fiber suspended in [`yield_until`] waits for: a
/// closure on that fiber's stack, alive while it stays suspended there.
type Until = *const (dyn Fn() -> bool + 'static);

struct Fiber<L: Locals> {
    sp: *mut u8,
    /// Whether it has run (a fresh fiber has not).
    started: bool,
    done: bool,
    /// While it is suspended in [`yield_until`]: what it waits for (the
    /// others do not switch to it before that holds).
    until: Option<Until>,
    locals: L,
    /// Its stack, until it is finished and a new fiber takes it over.
    stack: Option<Stack>,
    /// What the fiber's first frame reads its body from (kept alive until
    /// the fiber finished).
    _start: Box<Start>,
}

/// What the functions of this module do with the worker of the calling
/// thread, whatever its locals' type.
trait Switcher {
    /// The running fiber.
    fn current(&self) -> Option<usize>;
    /// The bytes of the running fiber's stack, `[low, high)`.
    fn stack(&self) -> Option<(usize, usize)>;
    /// The first fiber that has not run yet.
    fn fresh(&self) -> Option<usize>;
    /// Whether `fiber` has finished (an unknown one has).
    fn finished(&self, fiber: usize) -> bool;
    /// Adds a fiber running `body`; it first runs when switched to.
    fn spawn(&mut self, body: Box<dyn FnOnce() + 'static>) -> Result<usize, String>;
    /// The fiber after the running one, round robin, that has not
    /// finished.
    fn next(&self) -> Option<usize>;
    /// The first fiber after the running one, round robin, that has not
    /// finished and waits for nothing or for a condition that holds.
    fn next_ready(&self) -> Option<usize>;
    /// Sets what the running fiber waits for.
    fn set_until(&mut self, until: Option<Until>);
}

impl<L: Locals> Switcher for Worker<L> {
    fn current(&self) -> Option<usize> {
        self.current
    }

    fn stack(&self) -> Option<(usize, usize)> {
        let stack = self.fibers.get(self.current?)?.stack.as_ref()?;
        Some((stack.base as usize, stack.top() as usize))
    }

    fn fresh(&self) -> Option<usize> {
        match self.fresh {
            0 => None,
            _ => self.fibers.iter().position(|f| !f.started),
        }
    }

    fn finished(&self, fiber: usize) -> bool {
        self.fibers.get(fiber).is_none_or(|f| f.done)
    }

    fn spawn(&mut self, body: Box<dyn FnOnce() + 'static>) -> Result<usize, String> {
        // A finished fiber's stack is free: it left it for good.
        // (What it left in its locals goes now too.)
        let reused = self.fibers.iter_mut().find_map(|f| match f.done {
            true => {
                f.locals = L::default();
                f.stack.take()
            }
            false => None,
        });
        let stack = match reused {
            Some(stack) => stack,
            None => Stack::take().ok_or("cannot map a fiber stack")?,
        };
        self.fibers.push(Fiber::new(stack, body));
        self.live += 1;
        self.fresh += 1;
        Ok(self.fibers.len() - 1)
    }

    fn next(&self) -> Option<usize> {
        let me = self.current?;
        let n = self.fibers.len();
        (1..n).map(|k| (me + k) % n).find(|&i| !self.fibers[i].done)
    }

    fn next_ready(&self) -> Option<usize> {
        let me = self.current?;
        let n = self.fibers.len();
        (1..n).map(|k| (me + k) % n).find(|&i| {
            let fiber = &self.fibers[i];
            // SAFETY: `until` is set only while its fiber is suspended in
            // `yield_until`, whose frame holds the closure, and cleared
            // before that frame returns; the closure reads atomics only.
            !fiber.done && fiber.until.is_none_or(|until| unsafe { (*until)() })
        })
    }

    fn set_until(&mut self, until: Option<Until>) {
        if let Some(me) = self.current {
            self.fibers[me].until = until;
        }
    }
}

impl<L: Locals> Worker<L> {
    /// Makes fiber `next` the running one (its locals the thread's) and
    /// returns the stack pointer to switch to.
    fn enter(&mut self, next: usize) -> *mut u8 {
        let fiber = &mut self.fibers[next];
        if !fiber.started {
            fiber.started = true;
            self.fresh -= 1;
        }
        std::mem::take(&mut fiber.locals).put();
        self.current = Some(next);
        fiber.sp
    }
}

impl<L: Locals> Fiber<L> {
    /// A fresh fiber that runs `body` on `stack`.
    fn new(stack: Stack, body: Box<dyn FnOnce() + 'static>) -> Fiber<L> {
        let mut start = Box::new(Start { body: Some(body) });
        let argument = std::ptr::from_mut(&mut *start).cast::<u8>();
        // SAFETY: the top of a stack that only this fiber uses (fresh, or
        // left for good by a finished fiber).
        let sp = unsafe { arch::prepare(stack.top(), fiber_entry::<L>, argument) };
        Fiber {
            sp,
            started: false,
            done: false,
            until: None,
            locals: L::default(),
            stack: Some(stack),
            _start: start,
        }
    }
}

/// The worker of the calling thread, type-erased, and the function that
/// switches it from its running fiber to another.
#[derive(Clone, Copy)]
struct Erased {
    worker: *mut (dyn Switcher + 'static),
    switch: unsafe fn(*mut u8, usize),
}

thread_local! {
    /// The worker this thread runs, while it runs fibers.
    static WORKER: Cell<Option<Erased>> = const { Cell::new(None) };
    static PENDING_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Runs `bodies` as fibers on the calling thread, round robin, until every
/// one has finished (fibers they [`spawn`] included). `Err` when a stack
/// cannot be mapped (nothing ran).
pub(crate) fn run_all<L: Locals + 'static>(
    bodies: Vec<Box<dyn FnOnce() + '_>>,
) -> Result<(), String> {
    if !available() {
        return Err("fibers are not available on this architecture".into());
    }
    let mut worker = Worker::<L> {
        fibers: Vec::new(),
        current: None,
        main: std::ptr::null_mut(),
        live: 0,
        fresh: 0,
    };
    for body in bodies {
        let stack = Stack::take().ok_or("cannot map a fiber stack")?;
        // SAFETY: the fiber's body only runs while `run_all` runs (it
        // returns after every fiber finished), so the borrow it holds is
        // live whenever it is used; the lifetime is erased only to store
        // it.
        let body: Box<dyn FnOnce() + 'static> = unsafe { std::mem::transmute(body) };
        worker.fibers.push(Fiber::new(stack, body));
    }
    worker.live = worker.fibers.len();
    worker.fresh = worker.fibers.len();
    // What the calling thread itself keeps in the locals, back after.
    let own = L::take();
    let raw: *mut Worker<L> = &mut worker;
    WORKER.with(|w| {
        w.set(Some(Erased {
            worker: raw as *mut (dyn Switcher + 'static),
            switch: switch_worker::<L>,
        }))
    });
    loop {
        // Resume the first unfinished fiber; it switches among the others
        // and back here when none is left.
        // SAFETY: no fiber runs while the worker's own context does.
        let worker = unsafe { &mut *raw };
        let Some(next) = worker.fibers.iter().position(|f| !f.done) else {
            break;
        };
        let to = worker.enter(next);
        let main: *mut *mut u8 = &mut worker.main;
        // SAFETY: `to` is the saved context of an unfinished fiber of this
        // worker, not running.
        unsafe { arch::switch(main, to) };
    }
    WORKER.with(|w| w.set(None));
    own.put();
    if let Some(message) = PENDING_PANIC.with(|p| p.borrow_mut().take()) {
        return Err(message);
    }
    Ok(())
}

/// Calls `f` with the calling thread's worker, if it runs fibers.
fn with_worker<R>(f: impl FnOnce(&mut dyn Switcher) -> R) -> Option<R> {
    let erased = WORKER.with(|w| w.get())?;
    // SAFETY: set by `run_all` for as long as it runs, on this thread; no
    // other reference to the worker is live outside a switch.
    Some(f(unsafe { &mut *erased.worker }))
}

/// The running fiber of the calling thread's worker (`None` on a thread
/// that runs no fibers).
pub(crate) fn current() -> Option<usize> {
    with_worker(|w| w.current()).flatten()
}

/// The bytes of the running fiber's stack, `[low, high)` (`None` on a
/// thread that runs no fiber now).
pub(crate) fn current_stack() -> Option<(usize, usize)> {
    with_worker(|w| w.stack()).flatten()
}

/// The first fiber of the calling thread's worker that has not run yet.
pub(crate) fn fresh() -> Option<usize> {
    with_worker(|w| w.fresh()).flatten()
}

/// Whether fiber `fiber` of the calling thread's worker has finished.
pub(crate) fn finished(fiber: usize) -> bool {
    with_worker(|w| w.finished(fiber)).unwrap_or(true)
}

/// Adds a fiber running `body` to the calling thread's worker: it first
/// runs when switched to ([`switch_to`], or round robin). `Err` outside a
/// worker or when no stack can be mapped.
///
/// The body may borrow what outlives the worker's `run_all`.
pub(crate) fn spawn(body: Box<dyn FnOnce() + '_>) -> Result<usize, String> {
    // SAFETY: the body runs before `run_all` returns (it runs every fiber
    // to its end), within the lifetime the caller's borrow promises.
    let body: Box<dyn FnOnce() + 'static> = unsafe { std::mem::transmute(body) };
    with_worker(|w| w.spawn(body)).unwrap_or_else(|| Err("not on a fiber".into()))
}

/// Switches from the running fiber to fiber `fiber` of its worker.
/// `false` (nothing done) when the caller is not a fiber, or `fiber` is
/// the caller, finished or unknown.
pub(crate) fn switch_to(fiber: usize) -> bool {
    let Some(erased) = WORKER.with(|w| w.get()) else {
        return false;
    };
    let ok = with_worker(|w| w.current().is_some_and(|me| me != fiber) && !w.finished(fiber));
    if ok != Some(true) {
        return false;
    }
    // SAFETY: the worker of this thread; `fiber` is another unfinished
    // fiber of it (checked above) and the caller is its running fiber.
    unsafe { (erased.switch)(erased.worker.cast::<u8>(), fiber) };
    true
}

/// Switches from the running fiber to the next unfinished fiber of its
/// worker, round robin, that can go on (one suspended in [`yield_until`]
/// only once its condition holds). `false` when the caller is not a fiber
/// or no other fiber can go on (nothing to switch to).
pub(crate) fn yield_now() -> bool {
    match with_worker(|w| w.next_ready()).flatten() {
        Some(next) => switch_to(next),
        None => false,
    }
}

/// What [`yield_until`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Yielded {
    /// Another fiber ran; the caller runs again.
    Switched,
    /// Every other unfinished fiber of the worker waits for a condition
    /// that does not hold yet: nothing ran.
    NoneReady,
    /// The caller is not a fiber, or the worker's only unfinished one.
    Alone,
}

/// Switches from the running fiber to the next fiber of its worker, round
/// robin, that can make progress: one that waits for nothing, or whose
/// condition (its own `ready`, given to this function) holds now. The
/// caller is not switched back to before its `ready` holds (or another
/// fiber switches to it by number). A wait of many fibers on one worker
/// thus costs a check of each waiter's condition, not a switch to each.
pub(crate) fn yield_until(ready: &dyn Fn() -> bool) -> Yielded {
    if with_worker(|w| w.next()).flatten().is_none() {
        return Yielded::Alone;
    }
    // SAFETY: only the lifetime is erased: the pointer is stored while
    // this frame is suspended below and cleared before it returns.
    let until: Until = unsafe { std::mem::transmute::<&dyn Fn() -> bool, Until>(ready) };
    let next = with_worker(|w| {
        w.set_until(Some(until));
        let next = w.next_ready();
        if next.is_none() {
            w.set_until(None);
        }
        next
    })
    .flatten();
    let Some(next) = next else {
        return Yielded::NoneReady;
    };
    switch_to(next);
    with_worker(|w| w.set_until(None));
    Yielded::Switched
}

/// The switch of a worker of fibers with locals `L`.
///
/// # Safety
///
/// `worker` points to the `Worker<L>` of the calling thread, whose running
/// fiber calls this; `next` is another unfinished fiber of it.
unsafe fn switch_worker<L: Locals>(worker: *mut u8, next: usize) {
    let worker = worker.cast::<Worker<L>>();
    let (from, to) = {
        // SAFETY: the caller's contract; the reference ends before the
        // switch.
        let worker = unsafe { &mut *worker };
        let me = worker.current.expect("a running fiber");
        worker.fibers[me].locals = L::take();
        let to = worker.enter(next);
        let from: *mut *mut u8 = &mut worker.fibers[me].sp;
        (from, to)
    };
    // SAFETY: `to` is the saved context of another unfinished fiber of
    // this worker, not running; this fiber's context is saved in `from`
    // (the vector of fibers does not grow while this one is switched out
    // without it being re-read: `from` is written before any other fiber
    // runs).
    unsafe { arch::switch(from, to) };
}

/// A fiber's first and only frame: runs its body, then leaves for good.
///
/// # Safety
///
/// `argument` is the fiber's `Start`, alive until the fiber finished.
unsafe extern "sysv64" fn fiber_entry<L: Locals>(argument: *mut u8) -> ! {
    // SAFETY: the caller's contract.
    let start = unsafe { &mut *argument.cast::<Start>() };
    if let Some(body) = start.body.take() {
        // A body is not expected to panic (a rank's catches its kernel's);
        // if it does, the run reports it rather than unwinding through a
        // switch.
        if let Err(panic) = std::panic::catch_unwind(std::panic::AssertUnwindSafe(body)) {
            let message = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "a fiber panicked".into());
            PENDING_PANIC.with(|p| *p.borrow_mut() = Some(message));
        }
    }
    let erased = WORKER.with(|w| w.get()).expect("a fiber runs on a worker");
    let mut dead: *mut u8 = std::ptr::null_mut();
    let to = {
        // SAFETY: the worker of this thread (see `with_worker`); the
        // reference ends before the switch.
        let worker = unsafe { &mut *erased.worker.cast::<Worker<L>>() };
        let me = worker.current.expect("the running fiber");
        let next = worker.next();
        worker.fibers[me].done = true;
        worker.fibers[me].locals = L::take();
        worker.live -= 1;
        match next {
            Some(next) => worker.enter(next),
            None => {
                worker.current = None;
                worker.main
            }
        }
    };
    // SAFETY: `to` is a context of this worker that is not running; this
    // fiber is finished and its saved context (`dead`) is never resumed.
    unsafe { arch::switch(&mut dead, to) };
    unreachable!("a finished fiber was resumed")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Default)]
    struct NoLocals;
    impl Locals for NoLocals {
        fn take() -> Self {
            NoLocals
        }
        fn put(self) {}
    }

    #[test]
    fn fibers_interleave_at_their_yields_and_all_finish() {
        let log = RefCell::new(Vec::new());
        let bodies: Vec<Box<dyn FnOnce() + '_>> = (0..3)
            .map(|f| {
                let log = &log;
                Box::new(move || {
                    for step in 0..3 {
                        log.borrow_mut().push((f, step));
                        yield_now();
                    }
                }) as Box<dyn FnOnce()>
            })
            .collect();
        run_all::<NoLocals>(bodies).unwrap();
        let log = log.into_inner();
        assert_eq!(log.len(), 9);
        // Round robin: every fiber's first step before any second one.
        assert_eq!(&log[..3], &[(0, 0), (1, 0), (2, 0)]);
        assert!(!yield_now(), "no fiber outside run_all");
    }

    #[test]
    fn a_fiber_waiting_until_a_condition_is_skipped_until_it_holds() {
        // Fiber 0 waits for the flag fiber 2 raises at its third step;
        // fiber 1 runs throughout. Round robin without conditions would
        // switch to fiber 0 after every step of the others.
        let flag = std::sync::atomic::AtomicBool::new(false);
        let log = RefCell::new(Vec::new());
        let (flag, log_ref) = (&flag, &log);
        let bodies: Vec<Box<dyn FnOnce() + '_>> = vec![
            Box::new(move || {
                let ready = || flag.load(std::sync::atomic::Ordering::Relaxed);
                while !ready() {
                    log_ref.borrow_mut().push("0 waits".to_string());
                    assert_ne!(yield_until(&ready), Yielded::Alone);
                }
                log_ref.borrow_mut().push("0 goes on".into());
            }),
            Box::new(move || {
                for step in 0..4 {
                    log_ref.borrow_mut().push(format!("1.{step}"));
                    yield_now();
                }
            }),
            Box::new(move || {
                for step in 0..3 {
                    log_ref.borrow_mut().push(format!("2.{step}"));
                    if step == 2 {
                        flag.store(true, std::sync::atomic::Ordering::Relaxed);
                    }
                    yield_now();
                }
            }),
        ];
        run_all::<NoLocals>(bodies).unwrap();
        let log = log.into_inner();
        let waits = log.iter().filter(|l| *l == "0 waits").count();
        assert_eq!(
            waits, 1,
            "fiber 0 resumed before its condition held: {log:?}"
        );
        let raised = log.iter().position(|l| l == "2.2").unwrap();
        let resumed = log.iter().position(|l| l == "0 goes on").unwrap();
        assert!(resumed > raised, "{log:?}");
        assert_eq!(
            yield_until(&|| true),
            Yielded::Alone,
            "no fiber outside run_all"
        );
    }

    #[test]
    fn a_fiber_switches_to_the_one_it_names_and_spawns_more() {
        // Fiber 0 starts fiber 2 first (by name), fiber 2 spawns fiber 3
        // and hands over to it; fibers that have not run are "fresh". A
        // finished fiber hands over round robin (3 to 0, 0 to 1, 1 to 2).
        let log = RefCell::new(Vec::new());
        let bodies: Vec<Box<dyn FnOnce() + '_>> = (0..3)
            .map(|f| {
                let log = &log;
                Box::new(move || {
                    log.borrow_mut().push(format!("{f} starts"));
                    match f {
                        0 => {
                            assert_eq!(current(), Some(0));
                            assert_eq!(fresh(), Some(1));
                            assert!(switch_to(2));
                            assert!(!switch_to(0), "not to itself");
                            log.borrow_mut().push("0 back".into());
                        }
                        2 => {
                            let spawned = spawn(Box::new(move || {
                                log.borrow_mut().push("3 runs".into());
                            }))
                            .unwrap();
                            assert_eq!(spawned, 3);
                            assert!(!finished(3));
                            // Back when fiber 3 finished and the ones
                            // after it, round robin, switched on.
                            assert!(switch_to(3));
                            assert!(finished(3));
                            assert!(!switch_to(0), "fiber 0 has finished");
                        }
                        _ => {}
                    }
                }) as Box<dyn FnOnce()>
            })
            .collect();
        run_all::<NoLocals>(bodies).unwrap();
        let log = log.into_inner();
        assert_eq!(
            log,
            ["0 starts", "2 starts", "3 runs", "0 back", "1 starts"].map(String::from)
        );
        assert_eq!(current(), None, "no fiber outside run_all");
        assert!(spawn(Box::new(|| ())).is_err());
    }

    #[test]
    fn floating_point_and_deep_stacks_survive_switches() {
        fn depth(n: u64) -> u64 {
            let local = [n; 64];
            if n == 0 {
                yield_now();
                0
            } else {
                local[7] + depth(n - 1)
            }
        }
        let sums = RefCell::new(Vec::new());
        let bodies: Vec<Box<dyn FnOnce() + '_>> = (0..2)
            .map(|f| {
                let sums = &sums;
                Box::new(move || {
                    let mut x = 0.1f64 * (f + 1) as f64;
                    for _ in 0..100 {
                        x = x * 1.000001 + 0.5;
                        yield_now();
                    }
                    let deep = depth(1000);
                    sums.borrow_mut().push((f, x, deep));
                }) as Box<dyn FnOnce()>
            })
            .collect();
        run_all::<NoLocals>(bodies).unwrap();
        let mut expected = Vec::new();
        for f in 0..2 {
            let mut x = 0.1f64 * (f + 1) as f64;
            for _ in 0..100 {
                x = x * 1.000001 + 0.5;
            }
            expected.push((f, x, (1..=1000).sum::<u64>()));
        }
        let mut got = sums.into_inner();
        got.sort_by_key(|s| s.0);
        assert_eq!(got, expected);
    }
}
