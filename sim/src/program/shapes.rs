//! The shapes a collective's operands need for a number of ranks, checked
//! before anything runs: with a signal, a root or per-rank rows sized for
//! another rank count, the credits and the data would land outside their
//! buffers. `pld-run` checks a kernel's collectives with it, and whole
//! programs check every call of every device.

use crate::program::model::KernelInfo;
use pld_dialect::ops::collective::{
    composite_signal_shape, AllGather, AllReduce, AllToAll, AllToAllV, ReduceScatter,
};

/// Which kernels run the collective: the composite expansion in an InCore
/// kernel, or a builtin kernel (whose ring signal has one more row).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rail {
    Composite,
    Builtin,
}

/// The rank count must fit every shape the kernel's collectives imply, or
/// the credits and the data land outside their buffers: each signal's shape
/// for its schedule, a broadcast's root, the per-rank rows of allgather,
/// all_to_all and reduce_scatter targets and the slots of all_to_all_v.
pub fn check(kernel: &KernelInfo, ranks: usize, rail: Rail) -> Result<(), String> {
    let param = |i: Option<usize>| i.and_then(|i| kernel.params.get(i));
    for collective in &kernel.collectives {
        let op = collective.op.as_str();
        if let Some(signal) = param(collective.signal) {
            let ring = op == AllReduce::NAME && collective.mode.as_deref() == Some("ring");
            let [mut rows, cols] = composite_signal_shape(ring, ranks as i64);
            if ring && rail == Rail::Builtin {
                // The builtin ring has one more row: the final barrier's
                // (collectives spec 3, `[2*(NR-1)+1, NR]`).
                rows += 1;
            }
            // A one-dimensional signal (a builtin barrier's) is one column.
            let shape: Vec<usize> = match signal.shape.as_slice() {
                [n] => vec![*n, 1],
                other => other.to_vec(),
            };
            // A ring's steps are the signal's rows: it must be shaped for
            // exactly this many ranks.
            // all_to_all_v addresses one signal row per peer and reads its
            // rank count from the CommContext: exactly one row per rank.
            let exact_rows = op == AllToAllV::NAME;
            let fits = if exact_rows {
                shape.len() == 2 && shape[0] as i64 == rows && shape[1] as i64 >= cols
            } else if ring {
                shape.len() == 2 && shape[0] as i64 == rows && shape[1] as i64 == cols
            } else {
                shape.len() == 2 && shape[0] as i64 >= rows && shape[1] as i64 >= cols
            };
            if !fits {
                return Err(format!(
                    "the signal of {op} ({}) is {:?}; on {ranks} ranks it needs {} \
                     [{rows}, {cols}]",
                    signal.name,
                    signal.shape,
                    if ring {
                        "exactly"
                    } else if exact_rows {
                        "one row per rank and at least one lane:"
                    } else {
                        "at least"
                    }
                ));
            }
        }
        if let Some(root) = collective.root.filter(|r| *r < 0 || *r as usize >= ranks) {
            return Err(format!(
                "{op} has root = {root}, which is not one of the {ranks} ranks"
            ));
        }
        if let Some((send, recv)) = collective.counts {
            for (role, index) in [("send_counts", send), ("recv_counts", recv)] {
                if let Some(counts) = param(Some(index)) {
                    let rows = counts.shape.first().copied().unwrap_or(0);
                    if rows < ranks {
                        return Err(format!(
                            "the {role} of {op} ({}) is {:?}; on {ranks} ranks it needs a row \
                             per rank",
                            counts.name, counts.shape
                        ));
                    }
                }
            }
        }
        let Some(target) = param(collective.target) else {
            continue;
        };
        let rows = target.shape.first().copied().unwrap_or(0);
        let per_rank = match op {
            AllGather::NAME | AllToAll::NAME | ReduceScatter::NAME => rows == ranks,
            AllToAllV::NAME => ranks > 0 && rows % ranks == 0 && rows >= ranks,
            _ => true,
        };
        if !per_rank {
            let needs = if op == AllToAllV::NAME {
                format!("a multiple of {ranks} rows (NR * MAX_RECV with NR = {ranks})")
            } else {
                format!("{ranks} rows, one per rank")
            };
            return Err(format!(
                "the target of {op} ({}) is {:?}; on {ranks} ranks it needs {needs}",
                target.name, target.shape
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::model::{Collective, Dtype, Param};

    fn ring(rows: usize, ranks: usize) -> KernelInfo {
        let param = |name: &str, shape: Vec<usize>, dtype| Param {
            name: name.into(),
            distributed: true,
            shape,
            dtype,
        };
        let collective = Collective {
            op: AllReduce::NAME.into(),
            target: Some(0),
            signal: Some(1),
            reduce: Some("sum".into()),
            mode: Some("ring".into()),
            input: None,
            root: None,
            counts: None,
            in_loop: None,
            location: String::new(),
        };
        KernelInfo {
            name: "k".into(),
            params: vec![
                param("data", vec![1, 64], Dtype::F32),
                param("sig", vec![rows, ranks], Dtype::I32),
            ],
            collectives: vec![collective],
            signals: vec![1],
            cells: vec![1],
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
    }
}
