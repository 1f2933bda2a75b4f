//! What `pld-run` prints alike for one kernel and for a whole program:
//! multi-dimensional indices, signal cells named as the source names them
//! (in credit-leak and deadlock reports, with the collectives whose signal
//! they are), the progress lines of a long run, the nccl-tests style table
//! of the collective calls, and the `--stats` counters and phase times.

use pld_dialect::collective::CollectiveKind;
use pld_dialect::enums::ReduceOp;
use pld_sim::compiler::Source;
use pld_sim::program::golden::RankCheck;
use pld_sim::{BlockedRank, CellLeak};
use std::time::Duration;

pub(crate) use pld_sim::program::index_of;

pub(crate) use pld_ir::diag::count;

/// A wrong rank's listing: `16 wrong elements; first: [0, 40] expected
/// 2.5 ± 1.2e-6, got 0; [0, 41] expected NaN (0x7fc00000), got 1; ...`, the
/// indices in the result's `shape`, each value as the golden file and the
/// result hold it, with the tolerance of an element that has one (a finite
/// sum or product of floats).
pub fn wrong_elements(check: &RankCheck, shape: &[usize]) -> String {
    let first: Vec<String> = check
        .first_wrong
        .iter()
        .map(|w| {
            let tolerance = w.tolerance.map_or(String::new(), |t| format!(" ± {t:.1e}"));
            format!(
                "{} expected {}{tolerance}, got {}",
                index_of(w.index, shape),
                w.expected,
                w.got
            )
        })
        .collect();
    match first.is_empty() {
        // The check counted them but kept none to show (a count that is
        // not a value of the result's elements).
        true => format!("{} wrong elements", check.wrong),
        false => format!(
            "{} wrong elements; first: {}",
            check.wrong,
            first.join("; ")
        ),
    }
}

/// `A at file:line:col and B at file:line:col`: the collectives whose
/// signal a cell is.
fn users_of(users: &[String]) -> String {
    users.join(" and ")
}

/// A blocked rank's (or builtin block's) waited-on cell, as the source
/// names it: the parameter or buffer (`name`, with `shape`), the cell's
/// `[row, col]`, and the collectives whose signal it is, with their
/// locations.
pub fn waiting(
    blocked: &BlockedRank,
    name: &str,
    shape: &[usize],
    index: usize,
    users: &[String],
) -> String {
    let by = if users.is_empty() {
        String::new()
    } else {
        format!(", the signal of {}", users_of(users))
    };
    let block = blocked
        .block
        .map_or(String::new(), |(i, n)| format!(" block {i} of {n}"));
    format!(
        "  rank {}{block} waits on {name} at {}{by}",
        blocked.rank,
        index_of(index, shape)
    )
}

/// A credit left in a signal cell, named as [`waiting`] names cells; the
/// owner of the window holding it; the collectives whose signal it is.
pub fn leak(name: &str, shape: &[usize], leak: &CellLeak, users: &[String]) -> String {
    let by = if users.is_empty() {
        String::new()
    } else {
        format!("; {name} is the signal of {}", users_of(users))
    };
    format!(
        "pld-run: credit leak in {name} at {}: rank {}'s cell holds {} (should be back to 0){by}",
        index_of(leak.index, shape),
        leak.rank,
        leak.value
    )
}

/// The `--stats` line of phase times, in order: `phases: lower 1.2ms,
/// compile 0.0ns, ..., run 3.4ms (mean), check 5.0µs`; `(mean)` follows
/// `run` when it is the mean of several timed runs.
pub(crate) fn phases(phases: &[(&str, Duration)], mean: bool) -> String {
    let parts: Vec<String> = phases
        .iter()
        .map(|(name, time)| {
            let note = if mean && *name == "run" {
                " (mean)"
            } else {
                ""
            };
            format!("{name} {time:.1?}{note}")
        })
        .collect();
    format!("  phases: {}", parts.join(", "))
}

/// The `--stats` line of a series' kernel times: `kernel times: min
/// 1.1ms, q1 1.2ms, median 1.2ms, q3 1.4ms, max 1.9ms over 20 runs`, each
/// quantile a time that was measured (the one at rank `floor((n-1) q)` of
/// the sorted times); `None` for fewer than two timed runs.
pub(crate) fn kernel_spread(times: &[Duration]) -> Option<String> {
    if times.len() < 2 {
        return None;
    }
    let mut sorted = times.to_vec();
    sorted.sort_unstable();
    let last = sorted.len() - 1;
    let at = |quarters: usize| sorted[last * quarters / 4];
    Some(format!(
        "  kernel times: min {:.1?}, q1 {:.1?}, median {:.1?}, q3 {:.1?}, max {:.1?} over {} runs",
        at(0),
        at(1),
        at(2),
        at(3),
        at(4),
        sorted.len()
    ))
}

/// How long `pld-run` goes quietly before its phases say what they do.
const QUIET: Duration = Duration::from_secs(2);

/// The progress lines of a long `pld-run`, on standard error: once the
/// command has been going for two seconds, each phase (filling the inputs,
/// the run, the check) says what it does, `pld-run: filling ...`: the phase
/// under way then says so at that moment, every later one as it starts. A
/// command done within two seconds prints none.
pub(crate) struct Progress {
    started: std::time::Instant,
    /// Where the lines go (standard error; a test's list), each once (a
    /// series of runs checks after every run).
    sink: std::sync::Arc<dyn Fn(String) + Send + Sync>,
}

/// A phase under way; it ends when dropped.
pub(crate) struct Phase {
    notice: Option<(std::sync::mpsc::Sender<()>, std::thread::JoinHandle<()>)>,
}

impl Progress {
    /// Starts the command's clock.
    pub(crate) fn start() -> Progress {
        // Under MPI only process 0 speaks for the run.
        let speaks = crate::speaker::reports();
        Progress::with_sink(std::sync::Arc::new(move |line| {
            if speaks {
                pld_ir::say!("{line}")
            }
        }))
    }

    fn with_sink(sink: std::sync::Arc<dyn Fn(String) + Send + Sync>) -> Progress {
        let said = std::sync::Mutex::new(std::collections::HashSet::new());
        Progress {
            started: std::time::Instant::now(),
            sink: std::sync::Arc::new(move |line: String| {
                if said.lock().map_or(true, |mut s| s.insert(line.clone())) {
                    sink(line);
                }
            }),
        }
    }

    /// Phase `what` (`running @k on 4 ranks`) begins.
    pub(crate) fn phase(&self, what: String) -> Phase {
        let line = format!("pld-run: {what}...");
        let wait = QUIET.saturating_sub(self.started.elapsed());
        if wait.is_zero() {
            (self.sink)(line);
            return Phase { notice: None };
        }
        let (finished, finished_rx) = std::sync::mpsc::channel::<()>();
        let sink = self.sink.clone();
        let notice = std::thread::spawn(move || {
            if let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = finished_rx.recv_timeout(wait)
            {
                sink(line);
            }
        });
        Phase {
            notice: Some((finished, notice)),
        }
    }
}

impl Drop for Phase {
    fn drop(&mut self) {
        if let Some((finished, notice)) = self.notice.take() {
            let _ = finished.send(());
            let _ = notice.join();
        }
    }
}

/// Prints a run's errors and fatal errors on standard error (first: they
/// are often why the ranks got stuck); whether there were any.
pub(crate) fn run_errors(outcome: &pld_sim::Outcome, source: Source) -> bool {
    for error in &outcome.errors {
        let error = crate::source_op::named_error(error, source);
        pld_ir::say!("pld-run: error: {error}");
    }
    for fatal in &outcome.fatals {
        pld_ir::say!("pld-run: error: {fatal}");
    }
    !outcome.errors.is_empty() || !outcome.fatals.is_empty()
}

/// `file:line:col: ` of the function `@name` in `text`, or nothing.
pub(crate) fn function_location(text: &str, buffer_name: &str, name: &str) -> String {
    let signature = format!("@{name}(");
    text.lines()
        .enumerate()
        .find_map(|(i, line)| {
            let column = line.find("func.func")?;
            line[column..]
                .contains(&signature)
                .then(|| format!("{buffer_name}:{}:{}: ", i + 1, column + 1))
        })
        .unwrap_or_default()
}

/// `512.0 MiB`, `1.5 KiB`, `12 B`: an amount of memory as progress lines
/// state it.
pub(crate) fn bytes(n: usize) -> String {
    pld_ir::diag::bytes_text(n)
}

/// The rows of the `--stats` table: one per rank (`--per-rank`), or one,
/// `all`, summing every rank's counters.
pub(crate) fn counter_rows(
    counters: &[pld_sim::Counters],
    per_rank: bool,
) -> Vec<(String, pld_sim::Counters)> {
    if per_rank {
        return counters
            .iter()
            .enumerate()
            .map(|(rank, c)| (rank.to_string(), *c))
            .collect();
    }
    let mut all = pld_sim::Counters::default();
    for c in counters {
        all.notifies += c.notifies;
        all.waits += c.waits;
        all.remote_bytes_read += c.remote_bytes_read;
        all.remote_bytes_written += c.remote_bytes_written;
    }
    vec![("all".to_string(), all)]
}

/// One collective call in the nccl-tests style table that `pld-run` prints
/// for a kernel and for a program alike.
pub(crate) struct TableRow {
    pub collective: CollectiveKind,
    /// The ranks of its comm domain.
    pub ranks: usize,
    /// Bytes and elements of its result (none for a barrier).
    pub bytes: usize,
    pub count: usize,
    /// Element type (`-` for a barrier).
    pub dtype: String,
    pub reduce: Option<ReduceOp>,
    pub root: Option<i64>,
    /// The collective's own time (the mean of the timed runs).
    pub time: Duration,
    /// Wrong elements over all ranks, under `--check`.
    pub wrong: Option<usize>,
}

/// The table: `#`, collective, ranks, size (B), count (elements), type,
/// redop, root (`-` without one), time (us), algbw and busbw (GB/s; busbw
/// = algbw times nccl-tests' factor for the collective and rank count) and
/// #wrong (`N/A` without `--check`). `indent` starts every line.
pub(crate) fn collective_table(rows: &[TableRow], indent: &str) -> String {
    let mut lines: Vec<Vec<String>> = [TABLE_HEADER, TABLE_UNITS]
        .iter()
        .map(|cells| cells.iter().map(ToString::to_string).collect())
        .collect();
    lines.extend(rows.iter().enumerate().map(|(i, row)| table_cells(i, row)));
    // Each column as wide as its widest cell, and at least its usual width.
    let widths: Vec<usize> = TABLE_WIDTHS
        .iter()
        .enumerate()
        .map(|(c, least)| lines.iter().map(|l| l[c].len()).fold(*least, usize::max))
        .collect();
    lines
        .iter()
        .map(|cells| table_line(cells, &widths, indent))
        .collect()
}

/// The table's column titles, the units under them, and each column's
/// usual width (nccl-tests' layout: a wider cell widens its column).
const TABLE_HEADER: [&str; 12] = [
    "",
    "collective",
    "ranks",
    "size",
    "count",
    "type",
    "redop",
    "root",
    "time",
    "algbw",
    "busbw",
    "#wrong",
];
const TABLE_UNITS: [&str; 12] = [
    "",
    "",
    "",
    "(B)",
    "(elements)",
    "",
    "",
    "",
    "(us)",
    "(GB/s)",
    "(GB/s)",
    "",
];
const TABLE_WIDTHS: [usize; 12] = [3, 26, 5, 12, 10, 5, 6, 5, 10, 8, 8, 7];

/// The cells of call `i`.
fn table_cells(i: usize, row: &TableRow) -> Vec<String> {
    let seconds = row.time.as_secs_f64().max(1e-9);
    let algbw = row.bytes as f64 / seconds / 1e9;
    let busbw = algbw * row.collective.bus_factor(row.ranks);
    vec![
        i.to_string(),
        row.collective.to_string(),
        row.ranks.to_string(),
        row.bytes.to_string(),
        row.count.to_string(),
        row.dtype.clone(),
        row.reduce.map_or("none".to_string(), |r| r.to_string()),
        row.root.map_or("-".to_string(), |r| r.to_string()),
        format!("{:.1}", seconds * 1e6),
        format!("{algbw:.3}"),
        format!("{busbw:.3}"),
        row.wrong.map_or("N/A".to_string(), |w| w.to_string()),
    ]
}

/// One line of the table: `#`, then the cells in their columns (the
/// collective's name left-aligned, the rest right-aligned).
fn table_line(cells: &[String], widths: &[usize], indent: &str) -> String {
    let mut line = format!("{indent}#");
    for (c, (cell, &width)) in cells.iter().zip(widths).enumerate() {
        if c > 0 {
            line.push(' ');
        }
        match c {
            1 => line += &format!("{cell:<width$}"),
            _ => line += &format!("{cell:>width$}"),
        }
    }
    line.push('\n');
    line
}

/// The lines the ranks' calls logged (a builtin entry's launch line,
/// `pld.tensor_all_to_all_v at f.mlir:9:8: requested_core_num=5
/// launched_core_num=4 active_lanes=4 nranks=2`), each distinct line once
/// with the devices that logged it: `  log (devices 0-3): ...`.
pub(crate) fn log_lines(logs: &[Vec<String>]) -> String {
    let mut lines: Vec<(&String, Vec<usize>)> = Vec::new();
    for (device, log) in logs.iter().enumerate() {
        for line in log {
            match lines.iter_mut().find(|(l, _)| *l == line) {
                Some((_, devices)) => devices.push(device),
                None => lines.push((line, vec![device])),
            }
        }
    }
    lines
        .iter()
        .map(|(line, logged)| {
            // A line logged again (a call in a loop) names its device once.
            let mut devices = logged.clone();
            devices.dedup();
            let again = match logged.len() > devices.len() {
                true => format!(", {} times in all", logged.len()),
                false => String::new(),
            };
            format!("  log ({}{again}): {line}\n", device_ranges(&devices))
        })
        .collect()
}

/// `device 2`, `devices 0-3`, `devices 0, 2-3`.
fn device_ranges(devices: &[usize]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < devices.len() {
        let mut j = i;
        while j + 1 < devices.len() && devices[j + 1] == devices[j] + 1 {
            j += 1;
        }
        parts.push(match i == j {
            true => devices[i].to_string(),
            false => format!("{}-{}", devices[i], devices[j]),
        });
        i = j + 1;
    }
    let plural = devices.len() > 1;
    format!(
        "device{} {}",
        if plural { "s" } else { "" },
        parts.join(", ")
    )
}

/// The one warning of a run whose compile cache could not keep what it
/// made (`pld-run: warning: ...` on standard error; under MPI, from the
/// first process only).
pub(crate) fn cache_warning(cache: &pld_sim::compiler::cache::Uses) {
    if let Some(warning) = cache.warning() {
        if crate::speaker::speaks_first() {
            pld_ir::say!("pld-run: warning: {warning}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A check that counted wrong elements but kept none to show says the
    /// count alone (it said `2 wrong elements; first: ` with nothing after).
    #[test]
    fn a_count_without_elements_lists_none() {
        let check = RankCheck {
            rank: 0,
            worst: 1.0,
            at: 0,
            ok: false,
            wrong: 2,
            first_wrong: Vec::new(),
            expected: std::sync::Arc::new(Vec::new()),
        };
        assert_eq!(wrong_elements(&check, &[4]), "2 wrong elements");
    }

    /// A name wider than the collective column widens it: every line's
    /// columns end where the header's do.
    #[test]
    fn table_columns_fit_their_widest_cell() {
        let row = |collective| TableRow {
            collective,
            ranks: 2,
            bytes: 512,
            count: 128,
            dtype: "f32".into(),
            reduce: None,
            root: None,
            time: Duration::from_micros(478),
            wrong: Some(0),
        };
        let table = collective_table(
            &[
                row(CollectiveKind::IndexedAllToAllV),
                row(CollectiveKind::AllToAllV),
            ],
            "  ",
        );
        let lines: Vec<&str> = table.lines().collect();
        // "pld.tensor_indexed_all_to_all_v" is 31 characters: the column
        // is 31 wide, not 26, and the ranks column ends 6 further on.
        let end = |line: &str, word: &str| line.find(word).map(|at| at + word.len());
        let ranks_end = end(lines[0], "ranks").unwrap();
        assert_eq!(ranks_end, "  #    ".len() + 31 + " ranks".len());
        assert_eq!(lines[2].as_bytes()[ranks_end - 1], b'2', "{table}");
        assert_eq!(lines[3].as_bytes()[ranks_end - 1], b'2', "{table}");
        let wrong_end = end(lines[0], "#wrong").unwrap();
        assert!(lines[2..].iter().all(|l| l.len() == wrong_end), "{table}");
        // The usual widths when everything fits.
        let usual = collective_table(&[row(CollectiveKind::AllToAllV)], "");
        assert!(usual.starts_with(
            "#    collective                 ranks         size      count  type  redop  root"
        ));
    }

    #[test]
    fn indices_are_row_major() {
        assert_eq!(index_of(0, &[2, 3]), "[0, 0]");
        assert_eq!(index_of(5, &[2, 3]), "[1, 2]");
        assert_eq!(index_of(7, &[2, 2, 2]), "[1, 1, 1]");
        assert_eq!(index_of(3, &[8]), "[3]");
    }

    #[test]
    fn cells_name_their_collectives() {
        let users = vec!["pld.tensor_barrier in @k at a.mlir:3:8".to_string()];
        let mut blocked = BlockedRank {
            rank: 1,
            block: None,
            kernel: "@main".into(),
            window: Some(1),
            offset: 8,
            cmp: ">=",
            expected: 1,
            actual: 0,
            site: None,
        };
        assert_eq!(
            waiting(&blocked, "flags", &[4, 1], 2, &users),
            "  rank 1 waits on flags at [2, 0], the signal of pld.tensor_barrier in @k at \
             a.mlir:3:8"
        );
        blocked.block = Some((0, 2));
        assert_eq!(
            waiting(&blocked, "flags", &[4, 1], 2, &[]),
            "  rank 1 block 0 of 2 waits on flags at [2, 0]"
        );
        let cell = CellLeak {
            rank: 0,
            index: 1,
            value: 1,
        };
        assert_eq!(
            leak("flags", &[2, 1], &cell, &[]),
            "pld-run: credit leak in flags at [1, 0]: rank 0's cell holds 1 (should be back to 0)"
        );
        assert_eq!(
            leak("flags", &[2, 1], &cell, &users),
            "pld-run: credit leak in flags at [1, 0]: rank 0's cell holds 1 (should be back to \
             0); flags is the signal of pld.tensor_barrier in @k at a.mlir:3:8"
        );
    }

    #[test]
    fn a_long_command_names_its_phases() {
        let lines = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let seen = lines.clone();
        let mut progress = Progress::with_sink(std::sync::Arc::new(move |line| {
            seen.lock().unwrap().push(line)
        }));
        // A command that began long ago: every phase says so as it starts,
        // once.
        progress.started -= 2 * QUIET;
        drop(progress.phase("filling 1.0 MiB on 2 ranks".into()));
        drop(progress.phase("running @k on 2 ranks".into()));
        drop(progress.phase("running @k on 2 ranks".into()));
        assert_eq!(
            *lines.lock().unwrap(),
            [
                "pld-run: filling 1.0 MiB on 2 ranks...",
                "pld-run: running @k on 2 ranks..."
            ]
        );
        assert_eq!(bytes(12), "12 B");
        assert_eq!(bytes(8 << 26), "512.0 MiB");
        assert_eq!(bytes(3 << 29), "1.5 GiB");
    }

    #[test]
    fn kernel_spread_has_the_quartiles() {
        let ms = |v: &[u64]| {
            v.iter()
                .map(|m| Duration::from_millis(*m))
                .collect::<Vec<_>>()
        };
        assert_eq!(kernel_spread(&ms(&[3])), None);
        assert_eq!(
            kernel_spread(&ms(&[9, 1, 5, 3])).unwrap(),
            "  kernel times: min 1.0ms, q1 1.0ms, median 3.0ms, q3 5.0ms, max 9.0ms over 4 runs"
        );
        // Five runs: the quartiles are the 2nd and 4th.
        assert_eq!(
            kernel_spread(&ms(&[2, 7, 4, 8, 3])).unwrap(),
            "  kernel times: min 2.0ms, q1 3.0ms, median 4.0ms, q3 7.0ms, max 8.0ms over 5 runs"
        );
    }

    #[test]
    fn phases_mark_the_mean_run() {
        let ms = Duration::from_millis;
        let line = phases(&[("lower", ms(2)), ("run", ms(3)), ("check", ms(0))], true);
        assert_eq!(line, "  phases: lower 2.0ms, run 3.0ms (mean), check 0.0ns");
        let line = phases(&[("run", ms(3))], false);
        assert_eq!(line, "  phases: run 3.0ms");
    }

    #[test]
    fn log_lines_name_the_devices_once_per_line() {
        let line = |t: &str| t.to_string();
        let logs = vec![
            vec![line("a"), line("b")],
            vec![line("a")],
            vec![line("a")],
            vec![line("a"), line("b")],
        ];
        assert_eq!(
            log_lines(&logs),
            "  log (devices 0-3): a\n  log (devices 0, 3): b\n"
        );
        assert_eq!(
            log_lines(&[vec![], vec![line("c")]]),
            "  log (device 1): c\n"
        );
        assert_eq!(log_lines(&[vec![], vec![]]), "");
        // A call in a loop logs its line once per iteration: the devices
        // are named once (it said "devices 0, 0, 0-1, 1, ...").
        let thrice = vec![line("d"), line("d"), line("d")];
        assert_eq!(
            log_lines(&[thrice.clone(), thrice]),
            "  log (devices 0-1, 6 times in all): d\n"
        );
    }
}
