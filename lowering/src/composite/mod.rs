//! Shared pieces of the composite (InCore) rail, docs/passes/pld-lower-composite-ops.md.

pub mod comm;
pub mod exchange;
pub mod geometry;
pub mod mesh;
pub mod ring;
pub mod row;
pub mod two_shot;

use melior::ir::Value;
use pld_dialect::{enums::ReduceOp, ops::builtin::RING_MAX_RANKS, types::TensorInfo};

/// What the mesh, ring and two-shot rules need to know about one allreduce (or
/// reduce: an allreduce whose result only its root keeps).
pub struct AllReduceRequest<'c, 'a> {
    pub target: Value<'c, 'a>,
    pub info: TensorInfo<'c>,
    pub signal: Value<'c, 'a>,
    pub signal_info: TensorInfo<'c>,
    pub reduce: ReduceOp,
    /// A reduce's root rank (an index): only it gathers and stores; the
    /// others take part in the barriers. `None` for an allreduce.
    pub root: Option<Value<'c, 'a>>,
    /// `mode = "auto"`'s record, kept on the expansion's first op.
    pub choice: Option<melior::ir::Attribute<'c>>,
}

/// The attribute that holds `mode = "auto"`'s record.
pub const AUTO_MODE_ATTRIBUTE: &str = pld_dialect::ops::collective::AUTO_MODE_RECORD;

/// A rail's error on a collective whose `mode` was chosen by
/// `mode = "auto"` (the op carries the record, and its choice is still the
/// op's mode) says so.
pub fn name_the_choice(op: melior::ir::OperationRef, message: String) -> String {
    use pld_dialect::ops::collective::ModeOrigin;
    match pld_dialect::ops::collective::chosen_by_auto(op) {
        Some((mode, ModeOrigin::AutoDefault)) => {
            format!("{message} (mode \"{mode}\" was kept by mode = \"auto\")")
        }
        Some((mode, _)) => format!("{message} (mode \"{mode}\" was chosen by mode = \"auto\")"),
        None => message,
    }
}

/// `ValidateMeshSignalShape`: one cell per rank, `[NR, 1]`.
pub fn check_mesh_signal(signal: &TensorInfo) -> Result<(), String> {
    if signal.rank() != 2 {
        return Err(format!(
            "signal must be rank 2, [NR, 1] with NR the number of ranks, for a mesh collective, got rank {}",
            signal.rank()
        ));
    }
    // (Its rows are at least the ranks, not their count: a [65, 1] signal
    // serves 64 ranks, as on the HOST rail.)
    match (signal.dim(0), signal.dim(1)) {
        (_, Some(1) | None) => Ok(()),
        // [2NR - 2, NR]: the ring's shape.
        (Some(rows), Some(cols)) if rows == 2 * cols - 2 => Err(
            "signal dim 1 must be 1 (one cell per rank); a signal shaped for \
             mode = \"ring\" cannot be shared with a mesh collective"
                .into(),
        ),
        (_, Some(cols)) => Err(format!(
            "signal dim 1 must be 1 (one cell per rank), got {cols}"
        )),
    }
}

/// A static rank count read off a signal (`which` dimension: the ring's
/// columns, the CHIP rail's rows) is one a CommContext holds: it has
/// [`RING_MAX_RANKS`] windows, so a kernel shaped for more ranks could
/// never run. (A mesh signal's rows only bound the ranks from above.)
pub fn ranks_fit(ranks: Option<i64>, which: &str) -> Result<(), String> {
    match ranks {
        Some(n) if n > RING_MAX_RANKS => Err(format!(
            "{which} ({n}) is the number of ranks, past the {RING_MAX_RANKS} a pld comm domain \
             holds (the CommContext's windows)"
        )),
        _ => Ok(()),
    }
}
