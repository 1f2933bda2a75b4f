//! Work spread over the cores with scoped threads, for what touches every
//! rank's buffers: filling the inputs and computing and comparing the
//! goldens run at memory speed, not at the speed of one core.

use std::sync::atomic::{AtomicUsize, Ordering};

/// Below this many bytes of work a job runs on the calling thread (starting
/// threads would cost more than they save).
const SMALL: usize = 1 << 20;

/// How many threads a job of `bytes` over `items` independent items gets:
/// one per core the process may use, at most one per item, one when small.
fn workers(items: usize, bytes: usize) -> usize {
    if bytes < SMALL {
        return 1;
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    cores.min(items).max(1)
}

/// `f(i)` for every `i < n`, in order; `bytes` is about how much memory
/// the whole job touches (a small job runs on the calling thread). A panic
/// in `f` is a panic of the caller.
pub fn map<T: Send>(n: usize, bytes: usize, f: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let workers = workers(n, bytes);
    if workers <= 1 {
        return (0..n).map(f).collect();
    }
    let next = AtomicUsize::new(0);
    let mut done: Vec<(usize, T)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= n {
                            break mine;
                        }
                        mine.push((i, f(i)));
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    done.sort_unstable_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, t)| t).collect()
}

/// `f(offset, piece)` over `data` cut into one piece per core, each a whole
/// number of `unit` bytes; `offset` is where the piece starts in `data`.
pub fn pieces(data: &mut [u8], unit: usize, f: impl Fn(usize, &mut [u8]) + Sync) {
    pieces_of_all(&mut [data], unit, |offset, pieces| f(offset, pieces[0]));
}

/// [`pieces`] of several buffers of one length at once: `f(offset,
/// pieces)` with the same piece of every buffer.
pub fn pieces_of_all(
    data: &mut [&mut [u8]],
    unit: usize,
    f: impl Fn(usize, &mut [&mut [u8]]) + Sync,
) {
    let unit = unit.max(1);
    let len = data.first().map_or(0, |d| d.len());
    let units = len / unit;
    let workers = workers(units, len * data.len());
    if workers <= 1 {
        f(0, data);
        return;
    }
    let piece = units.div_ceil(workers) * unit;
    let mut rows: Vec<Vec<&mut [u8]>> = (0..len.div_ceil(piece)).map(|_| Vec::new()).collect();
    for buffer in data.iter_mut() {
        for (row, chunk) in rows.iter_mut().zip(buffer.chunks_mut(piece)) {
            row.push(chunk);
        }
    }
    std::thread::scope(|scope| {
        for (i, mut row) in rows.into_iter().enumerate() {
            let f = &f;
            scope.spawn(move || f(i * piece, &mut row));
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_item_once_in_order() {
        for (n, bytes) in [(0, 0), (1, 0), (5, 0), (7, 1 << 30), (64, 1 << 30)] {
            let squares = map(n, bytes, |i| i * i);
            let expected: Vec<usize> = (0..n).map(|i| i * i).collect();
            assert_eq!(squares, expected, "{n} items");
        }
    }

    #[test]
    fn pieces_cover_the_data_in_whole_units() {
        for len in [0usize, 3, 4, 12, 3 << 20, (3 << 20) + 12] {
            let mut data = vec![0u8; len];
            pieces(&mut data, 4, |offset, piece| {
                assert_eq!(offset % 4, 0);
                for (k, byte) in piece.iter_mut().enumerate() {
                    *byte = ((offset + k) % 251) as u8;
                }
            });
            assert!(
                data.iter().enumerate().all(|(k, b)| *b == (k % 251) as u8),
                "{len} bytes"
            );
        }
    }
}
