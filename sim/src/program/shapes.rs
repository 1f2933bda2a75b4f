//! The shapes a collective's operands need for a number of ranks, checked
//! before anything runs: with a signal, a root or per-rank rows sized for
//! another rank count, the credits and the data would land outside their
//! buffers. `pld-run` checks a kernel's collectives with it, and whole
//! programs check every call of every device.

pub use crate::program::model::Rail;
use crate::program::model::{Collective, Dtype, KernelInfo, Param};
use pld_dialect::collective::{CollectiveKind, Role, TargetRows};
use pld_dialect::enums::AllReduceMode;
use pld_dialect::ops::collective::ModeOrigin;
use pld_ir::diag::count;

/// How a signal must be sized for a rank count.
#[derive(Clone, Copy, PartialEq, Eq)]
enum SignalFit {
    /// At least the shape: one cell per rank (and lane).
    AtLeast,
    /// Exactly: a ring's steps are its rows and its ranks its columns.
    Exactly,
    /// One row per rank and at least the lanes: the exchanges address one
    /// row per peer and read the rank count from the CommContext.
    RowPerRank,
}

fn signal_fit(collective: &Collective) -> SignalFit {
    match collective.kind {
        CollectiveKind::AllReduce => match collective.mode {
            AllReduceMode::Ring => SignalFit::Exactly,
            AllReduceMode::Mesh | AllReduceMode::TwoShot => SignalFit::AtLeast,
        },
        CollectiveKind::AllToAllV | CollectiveKind::IndexedAllToAllV => SignalFit::RowPerRank,
        CollectiveKind::Barrier
        | CollectiveKind::Broadcast
        | CollectiveKind::ReduceScatter
        | CollectiveKind::Reduce
        | CollectiveKind::AllGather
        | CollectiveKind::AllToAll => SignalFit::AtLeast,
    }
}

/// The rank count must fit every shape the kernel's collectives imply, or
/// the credits and the data land outside their buffers: each signal's shape
/// for its schedule, a root, the counts' rows, the per-rank rows of
/// allgather, all_to_all and reduce_scatter targets, the slots of
/// all_to_all_v and the index of indexed_all_to_all_v.
///
/// An error starts with the collective's location (`file:line:col: `).
pub fn check(kernel: &KernelInfo, ranks: usize, rail: Rail) -> Result<(), String> {
    (kernel.collectives.iter())
        .try_for_each(|collective| check_one(kernel, collective, ranks, rail))
}

/// [`check`] of one of the kernel's collectives, on the `ranks` of its own
/// comm domain (a program's kernel may hold collectives of two).
pub fn check_one(
    kernel: &KernelInfo,
    collective: &Collective,
    ranks: usize,
    rail: Rail,
) -> Result<(), String> {
    check_collective(kernel, collective, ranks, rail).map_err(|message| {
        match collective.location.is_empty() {
            true => message,
            false => format!("{}: {message}", collective.location),
        }
    })
}

fn check_collective(
    kernel: &KernelInfo,
    collective: &Collective,
    ranks: usize,
    rail: Rail,
) -> Result<(), String> {
    let kernel = &*kernel.as_seen_by(collective);
    check_signal(kernel, collective, ranks, rail)?;
    // A builtin call may be the user's own or lowered from a HOST
    // collective (at that op's place): named by its collective.
    let op = match rail {
        Rail::Builtin => format!("the {}", collective.kind.spec_name()),
        _ => collective.op().to_string(),
    };
    if let Some(root) = collective.root.filter(|r| *r < 0 || *r as usize >= ranks) {
        return Err(format!(
            "{op} has root = {root}, which is not {}",
            match ranks {
                1 => "rank 0, the only rank".to_string(),
                _ => format!("one of the {ranks} ranks"),
            }
        ));
    }
    check_operands(kernel, collective, ranks)
}

/// The operands whose rows the rank count sizes, without the signal and
/// the root: the counts' rows, the target's rows (per rank, or slots) and
/// the index. The golden check reads them in the same extents.
pub(crate) fn check_operands(
    kernel: &KernelInfo,
    collective: &Collective,
    ranks: usize,
) -> Result<(), String> {
    let kernel = &*kernel.as_seen_by(collective);
    let op = collective.op();
    for role in [Role::SendCounts, Role::RecvCounts] {
        if let Some(counts) = param(kernel, collective.at(role)) {
            let rows = counts.shape.first().copied().unwrap_or(0);
            if rows < ranks {
                return Err(format!(
                    "the {} of {op} ({}) is {:?}; on {} it needs a row per rank",
                    role.group(),
                    counts.name,
                    counts.shape,
                    count(ranks, "rank")
                ));
            }
        }
    }
    check_target(kernel, collective, ranks)?;
    check_index(kernel, collective)
}

/// indexed_all_to_all_v's index: `i32` entries, one per row of the target
/// (the verifier's C33 and C34, for shapes it could not see).
fn check_index(kernel: &KernelInfo, collective: &Collective) -> Result<(), String> {
    let (Some(index), Some(target)) = (
        param(kernel, collective.at(Role::Index)),
        param(kernel, collective.at(Role::Target)),
    ) else {
        return Ok(());
    };
    let op = collective.op();
    if index.dtype != Dtype::I32 {
        return Err(format!(
            "the index of {op} ({}) holds {}; the kernel reads i32 row numbers",
            index.name,
            index.dtype.name()
        ));
    }
    let rows = target.shape.first().copied().unwrap_or(0);
    if index.elements() < rows {
        return Err(format!(
            "the index of {op} ({}) is {:?}; it needs at least {rows} elements, one source row \
             for each row of the target {:?}",
            index.name, index.shape, target.shape
        ));
    }
    Ok(())
}

fn param(kernel: &KernelInfo, index: Option<usize>) -> Option<&Param> {
    index.and_then(|i| kernel.params.get(i))
}

/// The signal's shape for the collective's schedule on `ranks` ranks.
fn check_signal(
    kernel: &KernelInfo,
    collective: &Collective,
    ranks: usize,
    rail: Rail,
) -> Result<(), String> {
    let Some(signal) = param(kernel, collective.at(Role::Signal)) else {
        return Ok(());
    };
    let fit = signal_fit(collective);
    let [mut rows, cols] = collective
        .kind
        .composite_signal_shape(collective.mode, ranks as i64);
    if fit == SignalFit::Exactly && rail == Rail::Builtin {
        // The builtin ring has one more row: the final barrier's
        // (collectives spec 3, `[2*(NR-1)+1, NR]`).
        rows += 1;
    }
    // A one-dimensional signal (a builtin barrier's) is one column.
    let shape: Vec<usize> = match signal.shape.as_slice() {
        [n] => vec![*n, 1],
        other => other.to_vec(),
    };
    let (r, c) = match shape.as_slice() {
        [r, c] => (*r as i64, *c as i64),
        _ => (-1, -1),
    };
    // Shown with as many dimensions as the signal was written with, when
    // that can hold it (a HOST barrier's signal is one-dimensional), and
    // on the HOST rail with the lanes it has when they are more (a
    // builtin's lanes serve its blocks: fewer would be refused next).
    let shown_cols = match (fit, rail) {
        (SignalFit::AtLeast, Rail::Builtin) => cols.max(c),
        _ => cols,
    };
    let needed = match signal.shape.len() == 1 && shown_cols == 1 {
        true => format!("[{rows}]"),
        false => format!("[{rows}, {shown_cols}]"),
    };
    let (fits, needs) = match fit {
        SignalFit::RowPerRank => (
            r == rows && c >= cols,
            match rail {
                Rail::Builtin => format!(
                    "one row per rank, [{rows}, L], with a lane (L) for each block it launches"
                ),
                Rail::Composite => format!("one row per rank, {needed}"),
            },
        ),
        // A composite ring of one rank has no steps: no signal serves it
        // (the lowering asks for NR > 1).
        SignalFit::Exactly if ranks < 2 && rail != Rail::Builtin => (
            false,
            "2 ranks or more: a ring of one rank has no steps".to_string(),
        ),
        SignalFit::Exactly => (r == rows && c == cols, format!("exactly {needed}")),
        SignalFit::AtLeast => (r >= rows && c >= cols, format!("at least {needed}")),
    };
    if fits {
        return Ok(());
    }
    let chosen = match collective.origin {
        ModeOrigin::AutoPriced => format!(
            " (mode \"{}\" was chosen by mode = \"auto\")",
            collective.mode
        ),
        ModeOrigin::AutoDefault => format!(
            " (mode \"{}\" was kept by mode = \"auto\")",
            collective.mode
        ),
        ModeOrigin::Written => String::new(),
    };
    Err(format!(
        "the signal of {} ({}) is {:?}; on {} it needs {needs}{chosen}",
        collective.op(),
        signal.name,
        signal.shape,
        count(ranks, "rank")
    ))
}

/// The target's rows per rank (allgather, all_to_all, reduce_scatter: one
/// per rank; the exchanges: a slot of rows per peer).
fn check_target(kernel: &KernelInfo, collective: &Collective, ranks: usize) -> Result<(), String> {
    let Some(target) = param(kernel, collective.at(Role::Target)) else {
        return Ok(());
    };
    let rows = target.shape.first().copied().unwrap_or(0);
    let (fits, needs) = match collective.kind.facts().target_rows {
        TargetRows::Any => (true, String::new()),
        TargetRows::PerRank => (
            rows == ranks,
            format!("{}, one per rank", count(ranks, "row")),
        ),
        TargetRows::Slots => (
            ranks > 0 && rows % ranks == 0 && rows >= ranks,
            format!("a multiple of {ranks} rows (NR * MAX_RECV with NR = {ranks})"),
        ),
    };
    if fits {
        return Ok(());
    }
    Err(format!(
        "the target of {} ({}) is {:?}; on {} it needs {needs}",
        collective.op(),
        target.name,
        target.shape,
        count(ranks, "rank")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use pld_dialect::enums::ReduceOp;

    fn ring(rows: usize, ranks: usize) -> KernelInfo {
        allreduce(AllReduceMode::Ring, rows, ranks)
    }

    fn allreduce(mode: AllReduceMode, rows: usize, cols: usize) -> KernelInfo {
        let param = |name: &str, shape: Vec<usize>, dtype| Param {
            name: name.into(),
            distributed: true,
            shape,
            dtype,
        };
        let collective = Collective {
            kind: CollectiveKind::AllReduce,
            mode,
            origin: ModeOrigin::Written,
            rail: Rail::Composite,
            valid_shape: None,
            reduce: Some(ReduceOp::Sum),
            root: None,
            operands: vec![Some(0), Some(1)],
            shapes: Vec::new(),
            in_loop: None,
            in_branch: None,
            location: String::new(),
        };
        KernelInfo {
            name: "k".into(),
            params: vec![
                param("data", vec![1, 64], Dtype::F32),
                param("sig", vec![rows, cols], Dtype::I32),
            ],
            collectives: vec![collective],
            signals: vec![1],
            cells: vec![1],
            other_writes: Vec::new(),
            called_collective: None,
        }
    }

    #[test]
    fn ring_signals_are_exact_per_rail() {
        // Composite: [2(P-1), P]; builtin: one more row.
        assert!(check(&ring(6, 4), 4, Rail::Composite).is_ok());
        assert!(check(&ring(7, 4), 4, Rail::Builtin).is_ok());
        let wrong = check(&ring(7, 4), 4, Rail::Composite).unwrap_err();
        assert!(wrong.contains("exactly [6, 4]"), "{wrong}");
        let wrong = check(&ring(6, 4), 4, Rail::Builtin).unwrap_err();
        assert!(wrong.contains("exactly [7, 4]"), "{wrong}");
        // Sized for 4 ranks, run on 2.
        assert!(check(&ring(6, 4), 2, Rail::Composite).is_err());
        // A composite ring of one rank has no steps.
        let one = check(&ring(0, 1), 1, Rail::Composite).unwrap_err();
        assert!(one.contains("needs 2 ranks or more"), "{one}");
    }

    /// The advice keeps a HOST signal's lanes (the re-check's [4, 2] with
    /// core_num = 2 on 5 ranks was told [5, 1], refused next for lanes).
    #[test]
    fn host_advice_keeps_the_lanes() {
        let mesh = allreduce(AllReduceMode::Mesh, 4, 2);
        let wrong = check(&mesh, 5, Rail::Builtin).unwrap_err();
        assert!(
            wrong.ends_with("on 5 ranks it needs at least [5, 2]"),
            "{wrong}"
        );
        let narrow = allreduce(AllReduceMode::Mesh, 4, 1);
        let wrong = check(&narrow, 5, Rail::Builtin).unwrap_err();
        assert!(
            wrong.ends_with("on 5 ranks it needs at least [5, 1]"),
            "{wrong}"
        );
    }
}
