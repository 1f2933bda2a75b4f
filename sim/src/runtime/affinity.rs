//! Pinning the threads of a run to cores.
//!
//! Two busy-waiting rank threads can end up on one core while the other
//! core idles: each `sched_yield` hands the core to the other rank, so the
//! threads look runnable to the scheduler's load balancer only in turns
//! and it seldom moves one. Measured on the 2-core VM (a 64 MiB ring
//! allreduce on 2 ranks): unpinned, 10 runs took 28-41 ms (median 33), and
//! `perf record -e sched:sched_switch` showed both ranks on CPU 0 for most
//! of a slow run; pinned, 13 of 15 runs took 20-23 ms. A run whose threads
//! take every core gives each its own.

/// The CPUs the process may run on, in increasing order (empty when they
/// cannot be read).
pub(crate) fn allowed_cpus() -> Vec<usize> {
    // SAFETY: `cpu_set_t` is plain bits, valid when zeroed;
    // `sched_getaffinity` writes at most `size_of::<cpu_set_t>()` bytes
    // into it, and `CPU_ISSET` reads it within its size.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
            return Vec::new();
        }
        (0..libc::CPU_SETSIZE as usize)
            .filter(|&cpu| libc::CPU_ISSET(cpu, &set))
            .collect()
    }
}

/// The CPU the calling thread runs on now.
pub(crate) fn current_cpu() -> Option<usize> {
    // SAFETY: `sched_getcpu` has no preconditions.
    usize::try_from(unsafe { libc::sched_getcpu() }).ok()
}

/// Restricts the calling thread to `cpu`. Best effort: a thread that
/// cannot be pinned runs wherever the scheduler puts it.
pub(crate) fn pin_current_thread(cpu: usize) {
    if cpu >= libc::CPU_SETSIZE as usize {
        return;
    }
    // SAFETY: as above; `CPU_SET` writes within the set (the index was
    // checked), and `sched_setaffinity` only reads it.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(cpu, &mut set);
        let _ = libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pinned_thread_runs_on_its_cpu() {
        let cpus = allowed_cpus();
        assert!(!cpus.is_empty(), "the process may run somewhere");
        assert!(current_cpu().is_some_and(|cpu| cpus.contains(&cpu)));
        let last = *cpus.last().unwrap();
        let seen = std::thread::spawn(move || {
            pin_current_thread(last);
            // After sched_setaffinity returns, the thread runs only there.
            (allowed_cpus(), current_cpu())
        })
        .join()
        .unwrap();
        assert_eq!(seen, (vec![last], Some(last)));
        // Out-of-range CPUs are ignored, not a crash.
        std::thread::spawn(|| pin_current_thread(usize::MAX))
            .join()
            .unwrap();
    }
}
