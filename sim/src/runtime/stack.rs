//! Where the running code's stack lies: the bytes a copy may name besides
//! windows, tiles and the buffers a run hands its kernels. A builtin
//! kernel's tiles are C++ objects on the stack of the core (the block
//! thread, or the fiber) that runs it (`pto_sim.h`), so a copy into one is
//! a copy into that stack.

use std::cell::Cell;

thread_local! {
    /// The calling thread's own stack, `[low, high)`, once read.
    static THREAD_STACK: Cell<Option<(usize, usize)>> = const { Cell::new(None) };
}

/// Whether `[start, end)` lies in the stack the calling code runs on: the
/// running fiber's, else the thread's.
pub(crate) fn holds(start: usize, end: usize) -> bool {
    let stack = crate::runtime::fiber::current_stack().or_else(thread_stack);
    stack.is_some_and(|(low, high)| low <= start && end <= high)
}

/// The calling thread's stack, `[low, high)`; `None` when the system does
/// not say.
fn thread_stack() -> Option<(usize, usize)> {
    if let Some(known) = THREAD_STACK.with(Cell::get) {
        return Some(known);
    }
    let read = read_thread_stack()?;
    THREAD_STACK.with(|s| s.set(Some(read)));
    Some(read)
}

fn read_thread_stack() -> Option<(usize, usize)> {
    // SAFETY: `attr` is initialised by pthread_getattr_np before it is read
    // and destroyed after; pthread_attr_getstack only writes the two
    // out-parameters, which are plain locals.
    unsafe {
        let mut attr: libc::pthread_attr_t = std::mem::zeroed();
        if libc::pthread_getattr_np(libc::pthread_self(), &mut attr) != 0 {
            return None;
        }
        let mut low: *mut libc::c_void = std::ptr::null_mut();
        let mut size: libc::size_t = 0;
        let got = libc::pthread_attr_getstack(&attr, &mut low, &mut size);
        libc::pthread_attr_destroy(&mut attr);
        (got == 0).then(|| (low as usize, low as usize + size))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_local_is_on_the_stack_and_a_heap_buffer_is_not() {
        let local = [0u8; 64];
        let at = local.as_ptr() as usize;
        assert!(super::holds(at, at + 64));
        let heap = Box::new([0u8; 64]);
        let at = heap.as_ptr() as usize;
        assert!(!super::holds(at, at + 64));
    }
}
