//! Shared pieces of the composite (InCore) rail, docs/passes/pld-lower-composite-ops.md.

pub mod comm;
pub mod exchange;
pub mod geometry;
pub mod mesh;
pub mod ring;
pub mod row;
pub mod two_shot;

use melior::ir::Value;
use pld_dialect::{enums::ReduceOp, types::TensorInfo};

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
