//! docs/dialect.md 4.9: the per-device builtin dispatches the HOST rail lowers to.
//! Spec name `builtin.tensor.<op>`; IR name `pld.builtin_<op>`.

use super::pld_op;
use crate::enums::{Direction, PldEnum};
use melior::ir::{attribute::ArrayAttribute, Attribute};

pld_op! {
    BuiltinAllReduce, BuiltinAllReduceBuilder = "pld.builtin_allreduce" {
        src: one, signal: one, device: one
    }
}

pld_op! {
    BuiltinAllReduceRing, BuiltinAllReduceRingBuilder = "pld.builtin_allreduce_ring" {
        src: one, signal: one, device: one
    }
}

pld_op! {
    BuiltinAllReduceTwoShot, BuiltinAllReduceTwoShotBuilder = "pld.builtin_allreduce_two_shot" {
        src: one, signal: one, device: one
    }
}

pld_op! {
    BuiltinBarrier, BuiltinBarrierBuilder = "pld.builtin_barrier" { signal: one, device: one }
}

pld_op! {
    BuiltinBroadcast, BuiltinBroadcastBuilder = "pld.builtin_broadcast" {
        target: one, signal: one, device: one
    }
}

pld_op! {
    BuiltinReduceScatter, BuiltinReduceScatterBuilder = "pld.builtin_reduce_scatter" {
        target: one, signal: one, device: one
    }
}

pld_op! {
    BuiltinReduce, BuiltinReduceBuilder = "pld.builtin_reduce" {
        target: one, signal: one, device: one
    }
}

pld_op! {
    BuiltinAllGather, BuiltinAllGatherBuilder = "pld.builtin_allgather" {
        input: one, target: one, signal: one, device: one
    }
}

pld_op! {
    BuiltinAllToAll, BuiltinAllToAllBuilder = "pld.builtin_all_to_all" {
        input: one, target: one, signal: one, device: one
    }
}

pld_op! {
    BuiltinAllToAllV, BuiltinAllToAllVBuilder = "pld.builtin_all_to_all_v" {
        input: one, target: one, signal: one, send_counts: one, recv_counts: one, device: one,
        core_num: opt
    }
}

/// Names of all builtin dispatch ops.
pub const BUILTINS: &[&str] = &[
    BuiltinAllReduce::NAME,
    BuiltinAllReduceRing::NAME,
    BuiltinAllReduceTwoShot::NAME,
    BuiltinBarrier::NAME,
    BuiltinBroadcast::NAME,
    BuiltinReduceScatter::NAME,
    BuiltinReduce::NAME,
    BuiltinAllGather::NAME,
    BuiltinAllToAll::NAME,
    BuiltinAllToAllV::NAME,
];

/// Largest ring a `pld.builtin_allreduce_ring` kernel supports: every rank
/// a CommContext can name (`kMaxRanks` of the kernels' shared header).
pub const RING_MAX_RANKS: i64 = 64;

/// The `arg_directions` attribute value for a list of directions.
pub fn directions_attribute<'c>(
    context: &'c melior::Context,
    directions: &[Direction],
) -> Attribute<'c> {
    let items: Vec<Attribute> = directions.iter().map(|d| d.to_attribute(context)).collect();
    ArrayAttribute::new(context, &items).into()
}
