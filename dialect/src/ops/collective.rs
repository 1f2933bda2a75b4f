//! docs/dialect.md 4.5-4.8: the composite collectives. Each returns its target's
//! storage ("window as result").

use super::{enum_attribute, int_attribute, pld_op};
use crate::enums::{AllReduceMode, PldEnum, ReduceOp};
use melior::ir::{
    attribute::{IntegerAttribute, StringAttribute},
    r#type::IntegerType,
};

pld_op! {
    /// `%r = pld.tensor_allreduce(%target[, %signal]) {op, mode?, core_num?}`.
    AllReduce, AllReduceBuilder = "pld.tensor_allreduce" { target: one, signal: opt }
}

pld_op! {
    /// `%r = pld.tensor_barrier(%signal)`.
    Barrier, BarrierBuilder = "pld.tensor_barrier" { signal: one }
}

pld_op! {
    /// `%r = pld.tensor_broadcast(%target, %signal) {root}`.
    Broadcast, BroadcastBuilder = "pld.tensor_broadcast" { target: one, signal: one }
}

pld_op! {
    /// `%r = pld.tensor_reduce_scatter(%target, %signal) {op}`.
    ReduceScatter, ReduceScatterBuilder = "pld.tensor_reduce_scatter" { target: one, signal: one }
}

pld_op! {
    /// `%r = pld.tensor_reduce(%target, %signal) {op, root}`: the root's
    /// target becomes the reduction of every rank's target.
    Reduce, ReduceBuilder = "pld.tensor_reduce" { target: one, signal: one }
}

pld_op! {
    /// `%r = pld.tensor_allgather(%input, %target, %signal)`.
    AllGather, AllGatherBuilder = "pld.tensor_allgather" { input: one, target: one, signal: one }
}

pld_op! {
    /// `%r = pld.tensor_all_to_all(%input, %target, %signal)`.
    AllToAll, AllToAllBuilder = "pld.tensor_all_to_all" { input: one, target: one, signal: one }
}

pld_op! {
    /// `%r = pld.tensor_all_to_all_v(%input, %target, %signal, %send_counts,
    /// %recv_counts[, %core_num])`.
    AllToAllV, AllToAllVBuilder = "pld.tensor_all_to_all_v" {
        input: one, target: one, signal: one, send_counts: one, recv_counts: one, core_num: opt
    }
}

pld_op! {
    /// `%r = pld.tensor_indexed_all_to_all_v(..., %index[, %core_num])`
    /// (CHIP rail only).
    IndexedAllToAllV, IndexedAllToAllVBuilder = "pld.tensor_indexed_all_to_all_v" {
        input: one, target: one, signal: one, send_counts: one, recv_counts: one,
        index: one, core_num: opt
    }
}

/// `mode = "auto"` (docs/algorithms.md).
pub const AUTO_MODE: &str = "auto";
/// The record `pld-select-allreduce-modes` leaves on a call it resolved:
/// the choice and every candidate's predicted time (docs/algorithms.md).
pub const AUTO_MODE_RECORD: &str = "pld.auto_mode";

/// The mode `mode = "auto"` chose for `op`, when the op's `mode` is still
/// that one (a mode edited by hand after the choice is the writer's, and a
/// refusal of it names no choice).
pub fn chosen_by_auto(op: melior::ir::OperationRef) -> Option<(String, ModeOrigin)> {
    use melior::ir::operation::OperationLike;
    let mode = pld_ir::attr::string(op.attribute("mode").ok()?)?;
    match mode_origin(op, &mode) {
        ModeOrigin::Written => None,
        origin => Some((mode, origin)),
    }
}

/// How an allreduce's schedule came about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModeOrigin {
    /// Written in the source (or the default, mesh, with no `mode`).
    Written,
    /// `mode = "auto"` priced the schedules and chose it.
    AutoPriced,
    /// `mode = "auto"` kept the default, mesh: the size or the rank count
    /// was known only at run time, so nothing was priced.
    AutoDefault,
}

/// How `mode` (the schedule of `op`: its `mode`, or for a builtin call a
/// rail lowered it to, its name) came about, from `op`'s record.
pub fn mode_origin(op: melior::ir::OperationRef, mode: &str) -> ModeOrigin {
    use melior::ir::operation::OperationLike;
    let record = op
        .attribute(AUTO_MODE_RECORD)
        .ok()
        .and_then(pld_ir::attr::dictionary)
        .unwrap_or_default();
    let chosen = (record.iter())
        .find(|(key, _)| key == "chosen")
        .and_then(|(_, value)| pld_ir::attr::string(*value));
    if chosen.as_deref() != Some(mode) {
        return ModeOrigin::Written;
    }
    // The record holds every candidate's predicted time when it priced them.
    match record.iter().any(|(key, _)| key.ends_with("_ns")) {
        true => ModeOrigin::AutoPriced,
        false => ModeOrigin::AutoDefault,
    }
}

impl AllReduce<'_, '_> {
    pub fn reduce_op(&self) -> Option<ReduceOp> {
        enum_attribute(&self.0, "op")
    }

    /// The schedule (`mode`, default mesh); `Err` holds an unknown mode, or
    /// `"auto"`, which `pld-select-allreduce-modes` resolves before a rail
    /// lowers the op.
    pub fn mode(&self) -> Result<AllReduceMode, String> {
        if self.is_auto() {
            return Err(format!(
                "mode = \"{AUTO_MODE}\" is resolved by pld-select-allreduce-modes, which runs \
                 first in pld-to-pto, pld-host-pipeline and pld-incore-pipeline"
            ));
        }
        match self.0.attribute("mode") {
            None => Ok(AllReduceMode::Mesh),
            Some(a) => pld_ir::attr::string(a)
                .ok_or_else(|| format!("mode must be a string, got {a}"))?
                .parse(),
        }
    }

    /// Whether `mode = "auto"`: the cost model picks the schedule.
    pub fn is_auto(&self) -> bool {
        self.0
            .attribute("mode")
            .and_then(pld_ir::attr::string)
            .is_some_and(|m| m == AUTO_MODE)
    }

    /// `core_num` (default 1), `None` when it is not an integer.
    pub fn core_num(&self) -> Option<i64> {
        match self.0.attribute("core_num") {
            None => Some(1),
            Some(_) => int_attribute(&self.0, "core_num"),
        }
    }
}

impl<'c> AllReduceBuilder<'c, '_> {
    pub fn reduce_op(self, context: &'c melior::Context, op: ReduceOp) -> Self {
        self.attribute("op", op.to_attribute(context))
    }

    pub fn mode(self, context: &'c melior::Context, mode: AllReduceMode) -> Self {
        self.attribute(
            "mode",
            StringAttribute::new(context, &mode.to_string()).into(),
        )
    }

    pub fn core_num(self, context: &'c melior::Context, core_num: i64) -> Self {
        let i64_type = IntegerType::new(context, 64).into();
        self.attribute("core_num", IntegerAttribute::new(i64_type, core_num).into())
    }
}

impl Broadcast<'_, '_> {
    pub fn root(&self) -> Option<i64> {
        int_attribute(&self.0, "root")
    }
}

impl Reduce<'_, '_> {
    pub fn reduce_op(&self) -> Option<ReduceOp> {
        enum_attribute(&self.0, "op")
    }

    pub fn root(&self) -> Option<i64> {
        int_attribute(&self.0, "root")
    }
}

impl ReduceScatter<'_, '_> {
    pub fn reduce_op(&self) -> Option<ReduceOp> {
        enum_attribute(&self.0, "op")
    }
}
