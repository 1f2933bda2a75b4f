//! A program run whose devices are MPI processes: each process runs and
//! snapshots its own device's tasks; [`share_snapshots`] hands every
//! process every device's operands before each task (and its time), so
//! that each checks its own device's results ([`merge_checks`] brings the
//! verdicts to process 0). See [`crate::program::processes`].

use super::{CallReport, Snapshot};
use crate::program::processes::{gather_checks, gather_rows, under_mpi};
use std::ops::Range;
use std::time::Duration;

/// Every device's snapshots, `[device][task]`, from this process's own
/// (`mine`, whose devices outside `local` are empty): under MPI the other
/// devices' come with their operands before each task and its time, but
/// not their results (their processes check those). Collective under MPI.
pub(super) fn share_snapshots(
    mut mine: Vec<Vec<Option<Snapshot>>>,
    local: Range<usize>,
) -> Result<Vec<Vec<Option<Snapshot>>>, String> {
    if !under_mpi() {
        return Ok(mine);
    }
    // Per task: an empty row for a task that did not run, else its time
    // (8 bytes) followed by one row per operand.
    let mut rows = Vec::new();
    for device in local.clone() {
        for snapshot in &mine[device] {
            let Some(s) = snapshot else {
                rows.push(Vec::new());
                continue;
            };
            rows.push((s.time.as_nanos() as u64).to_le_bytes().to_vec());
            rows.push((s.before.len() as u64).to_le_bytes().to_vec());
            rows.extend(s.before.iter().cloned());
        }
    }
    let all = gather_rows(&rows)?;
    for (device, rows) in all.into_iter().enumerate() {
        if !local.contains(&device) && device < mine.len() {
            mine[device] = decode(rows).ok_or("a device's snapshots are malformed")?;
        }
    }
    Ok(mine)
}

fn decode(rows: Vec<Vec<u8>>) -> Option<Vec<Option<Snapshot>>> {
    let word = |row: &[u8]| Some(u64::from_le_bytes(row.try_into().ok()?));
    let mut rows = rows.into_iter();
    let mut snapshots = Vec::new();
    while let Some(head) = rows.next() {
        if head.is_empty() {
            snapshots.push(None);
            continue;
        }
        let time = Duration::from_nanos(word(&head)?);
        let operands = word(&rows.next()?)?;
        let before = (0..operands).map(|_| rows.next()).collect::<Option<_>>()?;
        snapshots.push(Some(Snapshot {
            before,
            after: Vec::new(),
            time,
            span: None,
        }));
    }
    Some(snapshots)
}

/// The calls with every process's verdicts (each process checked its own
/// device's rank of each), in rank order; with threads, `calls` as they
/// are. Collective under MPI: every process has the same calls, and the
/// same ones without verdicts.
pub(super) fn merge_checks(mut calls: Vec<CallReport>) -> Result<Vec<CallReport>, String> {
    if !under_mpi() {
        return Ok(calls);
    }
    for call in &mut calls {
        if let Ok(checks) = &mut call.check {
            *checks = gather_checks(std::mem::take(checks))?;
        }
    }
    Ok(calls)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snapshots_cross_without_their_results() {
        let snapshot = Snapshot {
            before: vec![vec![1, 2], vec![]],
            after: vec![vec![9]],
            time: Duration::from_micros(5),
            span: None,
        };
        let rows = vec![
            (5_000u64).to_le_bytes().to_vec(),
            2u64.to_le_bytes().to_vec(),
            vec![1, 2],
            vec![],
            vec![],
        ];
        let back = decode(rows).unwrap();
        let first = back[0].as_ref().unwrap();
        assert_eq!(
            (&first.before, first.time),
            (&snapshot.before, snapshot.time)
        );
        assert!(first.after.is_empty() && back[1].is_none());
        // Cut short: refused.
        assert!(decode(vec![(5u64).to_le_bytes().to_vec()]).is_none());
    }
}
