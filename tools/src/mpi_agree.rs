//! What the processes of an MPI job agree on before the run
//! (`--transport mpi|mpi-rma`), so that a process that fails or was
//! started differently ends the whole job at once, with its message,
//! instead of leaving the others waiting in the run's first collective
//! call:
//!
//! * [`same_launch`], right after MPI starts: every process was given the
//!   same options and reads the same source (compared with process 0's).
//! * [`ready`] / [`failed`], right before the run: every process either
//!   reached the run ready or failed on the way (reading the source,
//!   compiling, filling its rank's inputs); one collective call either way,
//!   after which every process knows, process 0 prints every failure
//!   once, and all exit 1 when one failed.

use crate::options::{Options, Refusal, Seeds};
use pld_sim::runtime::mpi;
use std::sync::atomic::{AtomicBool, Ordering};

/// Whether this process has taken part in the agreement before the run.
static AGREED: AtomicBool = AtomicBool::new(false);

/// One option as given: its name (`--transport`, or `the source` for the
/// file) and how it reads (`--transport mpi-rma`).
type Item = (&'static str, String);

/// The options that shape the run, as a command line shows them: every
/// option of the command line (`Options` holds them all, and it is taken
/// apart field by field here, so that a new one is not forgotten) except
/// the compile cache's, which changes how long a process takes to compile,
/// never what it computes, and may rightly differ (a directory of each
/// machine's own).
fn items(options: &Options) -> Vec<Item> {
    let Options {
        input,
        kernel,
        entry,
        ranks,
        ranks_given: _,
        inputs,
        check,
        stats,
        per_rank,
        deadline,
        time_limit,
        output_dir,
        trace,
        iters,
        warmup,
        explore,
        schedule_log,
        transport,
        cache: _,
        cost_model,
        cost_target,
    } = options;
    let mut items: Vec<Item> = vec![
        ("the source", input.clone()),
        ("--ranks", format!("--ranks {ranks}")),
        ("--transport", format!("--transport {}", transport.name())),
        (
            "--deadline",
            format!("--deadline {}", deadline.as_secs_f64()),
        ),
        (
            "--time-limit",
            format!("--time-limit {}", time_limit.as_secs_f64()),
        ),
        ("--iters", format!("--iters {iters}")),
        ("--warmup", format!("--warmup {warmup}")),
    ];
    let flags = [
        (*check, "--check"),
        (*stats, "--stats"),
        (*per_rank, "--per-rank"),
    ];
    items.extend(flags.iter().filter(|f| f.0).map(|f| (f.1, f.1.to_string())));
    let valued = [
        ("--kernel", kernel),
        ("--entry", entry),
        ("--output-dir", output_dir),
        ("--trace", trace),
        ("--schedule-log", schedule_log),
        ("--pld-cost-model", cost_model),
        ("--pld-cost-target", cost_target),
    ];
    for (name, value) in valued {
        if let Some(value) = value {
            items.push((name, format!("{name} {value}")));
        }
    }
    items.extend(inputs.iter().map(|i| ("--input", format!("--input {i}"))));
    if let Some(seeds) = explore {
        let shown = match seeds {
            Seeds::Replay(seed) => format!("--replay {seed}"),
            Seeds::Explore { first, count } => format!("--explore {count} --seed {first}"),
        };
        items.push(("--explore", shown));
    }
    items
}

/// The launch record a process sends: its options, one a line, then a
/// line with a digest of the source's bytes, and one of the cost model's
/// when it was given one (a file of the same name may hold another model
/// on another machine, and the model decides what `mode = "auto"` runs).
fn record(options: &Options) -> String {
    let mut text: String = items(options)
        .iter()
        .map(|(name, shown)| format!("{name}\t{shown}\n"))
        .collect();
    // Standard input reaches process 0 only, so it is not compared.
    let source = match options.input.as_str() {
        "-" => "standard input".to_string(),
        path => digest(path),
    };
    text.push_str(&format!("source\t{source}\n"));
    if let Some(model) = &options.cost_model {
        text.push_str(&format!("model\t{}\n", digest(model)));
    }
    text
}

/// What a record says of a file that cannot be read, before the reason.
const UNREADABLE: &str = "unreadable: ";

/// A digest of the file's bytes, with a fixed-key hash (the same in every
/// process of one pld-run build), in hex; [`UNREADABLE`] and the reason
/// when it cannot be read.
fn digest(path: &str) -> String {
    use std::hash::{Hash, Hasher};
    match std::fs::read(path) {
        Ok(bytes) => {
            let mut hasher = std::collections::hash_map::DefaultHasher::new();
            bytes.hash(&mut hasher);
            format!("{:016x}", hasher.finish())
        }
        Err(e) => format!("{UNREADABLE}{e}"),
    }
}

/// How process `rank` and process 0 differ on a file both were to read
/// (`what`, as a message names it), from the digests their records give.
fn file_difference(rank: usize, what: &str, zero: &str, theirs: &str) -> String {
    match (
        zero.strip_prefix(UNREADABLE),
        theirs.strip_prefix(UNREADABLE),
    ) {
        (_, Some(why)) => format!("process {rank} cannot read {what}: {why}"),
        (Some(why), None) => {
            format!("process 0 cannot read {what}: {why} (process {rank} can)")
        }
        (None, None) => {
            format!("process {rank} read a different {what} than process 0 (the bytes differ)")
        }
    }
}

/// How `theirs` (process `rank`'s record) differs from process 0's
/// `first`, if it does.
fn difference(rank: usize, first: &str, theirs: &str, source: &str) -> Option<String> {
    if first == theirs {
        return None;
    }
    let parse = |text: &str| -> Vec<(String, String)> {
        text.lines()
            .filter_map(|l| l.split_once('\t'))
            .map(|(n, s)| (n.to_string(), s.to_string()))
            .collect()
    };
    let (zero, other) = (parse(first), parse(theirs));
    let shown = |items: &[(String, String)], name: &str| -> Vec<String> {
        items
            .iter()
            .filter(|i| i.0 == name)
            .map(|i| i.1.clone())
            .collect()
    };
    let mut names: Vec<&str> = Vec::new();
    for (name, _) in zero.iter().chain(&other) {
        let digest = name == "source" || name == "model";
        if !digest && !names.contains(&name.as_str()) {
            names.push(name);
        }
    }
    let mut parts = Vec::new();
    for name in names {
        let (a, b) = (shown(&zero, name), shown(&other, name));
        if a != b {
            parts.push(match (a.is_empty(), b.is_empty()) {
                (_, true) => format!("without {}", a.join(" ")),
                (true, false) => b.join(" "),
                (false, false) => format!("{} (process 0: {})", b.join(" "), a.join(" ")),
            });
        }
    }
    Some(match parts.is_empty() {
        false => format!(
            "process {rank} was started with different options than process 0: {}",
            parts.join(", ")
        ),
        true => {
            let (name, what) = match shown(&zero, "source") == shown(&other, "source") {
                true => {
                    let model = shown(&zero, "--pld-cost-model").join(" ");
                    ("model", format!("cost model ({model})"))
                }
                false => ("source", source.to_string()),
            };
            let digest = |items: &[(String, String)]| shown(items, name).concat();
            file_difference(rank, &what, &digest(&zero), &digest(&other))
        }
    })
}

/// Collective, right after MPI starts: every process's options and source
/// compared with process 0's; the differences (the same message on every
/// process) as an error.
pub fn same_launch(options: &Options) -> Result<(), String> {
    let mine = record(options);
    let all = mpi::allgather(mine.as_bytes())?;
    let records: Vec<String> = all
        .iter()
        .map(|r| String::from_utf8_lossy(r).into_owned())
        .collect();
    let differences: Vec<String> = records
        .iter()
        .enumerate()
        .skip(1)
        .filter_map(|(rank, theirs)| difference(rank, &records[0], theirs, &options.input))
        .collect();
    let differences = zero_once(differences);
    match differences.is_empty() {
        true => Ok(()),
        false => Err(differences.join("\npld-run: error: ")),
    }
}

/// `differences` with the lines that say process 0 cannot read a file
/// merged into one naming every process that can (`(processes 1, 2 can)`;
/// there was one line for each).
fn zero_once(differences: Vec<String>) -> Vec<String> {
    let mut merged: Vec<(String, Vec<String>)> = Vec::new();
    for line in differences {
        let split = line
            .strip_suffix(" can)")
            .and_then(|l| l.rsplit_once(" (process "))
            .filter(|(head, _)| head.starts_with("process 0 cannot read "));
        match split {
            Some((head, who)) => match merged.iter_mut().find(|m| m.0 == head) {
                Some(m) => m.1.push(who.to_string()),
                None => merged.push((head.to_string(), vec![who.to_string()])),
            },
            None => merged.push((line, Vec::new())),
        }
    }
    merged
        .into_iter()
        .map(|(head, who)| match who.as_slice() {
            [] => head,
            [one] => format!("{head} (process {one} can)"),
            many => format!("{head} (processes {} can)", many.join(", ")),
        })
        .collect()
}

/// Collective under MPI, once, right before the run: this process is
/// ready. `Err(Refusal::Reported)` when another process failed (process 0
/// printed why); nothing with threads.
pub fn ready() -> Result<(), Refusal> {
    match agree(None) {
        true => Ok(()),
        false => Err(Refusal::Reported),
    }
}

/// This process failed with `shown` (an error as pld-run prints it): under
/// MPI before the run, the agreement (collective; process 0 prints every
/// process's failure); otherwise printed where pld-run reports.
pub fn failed(shown: &str) {
    if mpi::initialised().is_none() || AGREED.load(Ordering::SeqCst) {
        if crate::speaker::reports() {
            pld_ir::say!("{shown}");
        }
        return;
    }
    agree(Some(shown));
}

/// Every process's failure (or none), gathered; process 0 prints them.
/// Whether every process is ready. Taken once per process: a later call
/// says only whether this one is.
fn agree(failure: Option<&str>) -> bool {
    let Some(world) = mpi::initialised() else {
        return failure.is_none();
    };
    if AGREED.swap(true, Ordering::SeqCst) {
        return failure.is_none();
    }
    // `+` when ready (never empty: MPI refuses an all-empty gather), else
    // `!` and the error.
    let mine = failure.map_or(b"+".to_vec(), |f| [b"!".as_slice(), f.as_bytes()].concat());
    let all = match mpi::allgather(&mine) {
        Ok(all) => all,
        Err(message) => {
            pld_ir::say!("pld-run: error: process {}: {message}", world.rank);
            return false;
        }
    };
    let failures: Vec<(usize, String)> = all
        .iter()
        .enumerate()
        .filter_map(|(rank, r)| Some((rank, String::from_utf8_lossy(r.strip_prefix(b"!")?).into())))
        .collect();
    if world.rank == 0 {
        for line in shown_failures(&failures, world.size) {
            pld_ir::say!("{line}");
        }
    }
    failures.is_empty()
}

/// The failures as process 0 prints them: each distinct message once, as
/// is when every process failed with it (or only process 0), else
/// prefixed by the processes that did (`pld-run: process 1: ...`).
fn shown_failures(failures: &[(usize, String)], size: usize) -> Vec<String> {
    let mut distinct: Vec<(Vec<usize>, &str)> = Vec::new();
    for (rank, message) in failures {
        match distinct.iter_mut().find(|d| d.1 == message) {
            Some(d) => d.0.push(*rank),
            None => distinct.push((vec![*rank], message)),
        }
    }
    distinct
        .into_iter()
        .map(|(ranks, message)| {
            if ranks.len() == size || ranks == [0] {
                return message.to_string();
            }
            let who = match ranks.as_slice() {
                [one] => format!("process {one}"),
                many => format!(
                    "processes {}",
                    many.iter()
                        .map(usize::to_string)
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            };
            match message.strip_prefix("pld-run: ") {
                Some(rest) => format!("pld-run: {who}: {rest}"),
                None => format!("pld-run: {who}: {message}"),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn differences_are_named_as_options() {
        let base = Options {
            input: "k.mlir".into(),
            ranks: 2,
            ..Options::default()
        };
        let checked = Options {
            check: true,
            ..base.clone()
        };
        let (a, b) = (record(&base), record(&checked));
        assert_eq!(difference(1, &a, &a, "k.mlir"), None);
        assert_eq!(
            difference(1, &a, &b, "k.mlir").unwrap(),
            "process 1 was started with different options than process 0: --check"
        );
        assert_eq!(
            difference(2, &b, &a, "k.mlir").unwrap(),
            "process 2 was started with different options than process 0: without --check"
        );
        let limited = Options {
            time_limit: std::time::Duration::from_secs(30),
            ..base.clone()
        };
        assert_eq!(
            difference(1, &a, &record(&limited), "k.mlir").unwrap(),
            "process 1 was started with different options than process 0: --time-limit 30 \
             (process 0: --time-limit 0)"
        );
        let cached = Options {
            cache: pld_sim::compiler::cache::Choice::Off,
            ..base.clone()
        };
        assert_eq!(difference(1, &a, &record(&cached), "k.mlir"), None);
        // (k.mlir does not exist here: both records say so.)
        let unreadable = "source\tunreadable: No such file or directory (os error 2)";
        assert!(a.contains(unreadable), "{a}");
        let read = a.replace(unreadable, "source\t00000000000000aa");
        let other = a.replace(unreadable, "source\t00000000000000bb");
        assert_eq!(
            difference(1, &read, &other, "k.mlir").unwrap(),
            "process 1 read a different k.mlir than process 0 (the bytes differ)"
        );
        // A file missing on one process is said so (it was "a different
        // k.mlir").
        assert_eq!(
            difference(1, &read, &a, "k.mlir").unwrap(),
            "process 1 cannot read k.mlir: No such file or directory (os error 2)"
        );
        assert_eq!(
            difference(2, &a, &read, "k.mlir").unwrap(),
            "process 0 cannot read k.mlir: No such file or directory (os error 2) (process 2 can)"
        );
        // The same option naming files of different contents (the
        // re-check tester's two working directories): the model differs.
        let modelled = Options {
            cost_model: Some("m.toml".into()),
            ..base.clone()
        };
        let m = record(&modelled);
        assert!(m.contains("\nmodel\t"), "{m}");
        let unreadable = "model\tunreadable: No such file or directory (os error 2)";
        let m = m.replace(unreadable, "model\t0000000000000001");
        let other = m.replace("model\t0000000000000001", "model\t0000000000000002");
        assert_eq!(
            difference(1, &m, &other, "k.mlir").unwrap(),
            "process 1 read a different cost model (--pld-cost-model m.toml) than process 0 \
             (the bytes differ)"
        );
    }

    #[test]
    fn process_zero_unable_to_read_a_file_is_said_once() {
        let why = "process 0 cannot read m.toml: No such file or directory (os error 2)";
        let lines = vec![
            format!("{why} (process 1 can)"),
            "process 2 was started with different options than process 0: --check".to_string(),
            format!("{why} (process 3 can)"),
        ];
        assert_eq!(
            zero_once(lines),
            [
                format!("{why} (processes 1, 3 can)"),
                "process 2 was started with different options than process 0: --check".into(),
            ]
        );
        let one = vec![format!("{why} (process 2 can)")];
        assert_eq!(zero_once(one.clone()), one);
    }

    #[test]
    fn failures_are_shown_once_naming_their_processes() {
        let all = [
            (0, "pld-run: error: x".to_string()),
            (1, "pld-run: error: x".into()),
        ];
        assert_eq!(shown_failures(&all, 2), ["pld-run: error: x"]);
        let one = [(1, "pld-run: error: cannot read 'a'".to_string())];
        assert_eq!(
            shown_failures(&one, 3),
            ["pld-run: process 1: error: cannot read 'a'"]
        );
        let located = [
            (2, "k.mlir:1:2: error: bad".to_string()),
            (3, "k.mlir:1:2: error: bad".into()),
        ];
        assert_eq!(
            shown_failures(&located, 4),
            ["pld-run: processes 2, 3: k.mlir:1:2: error: bad"]
        );
    }
}
