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
    BuiltinBarrier::NAME,
    BuiltinBroadcast::NAME,
    BuiltinReduceScatter::NAME,
    BuiltinReduce::NAME,
    BuiltinAllGather::NAME,
    BuiltinAllToAll::NAME,
    BuiltinAllToAllV::NAME,
];

/// What one builtin kernel supports (docs/dialect.md 4.9). The verifier checks builtin
/// ops against it and the HOST lowering checks user collectives against it
/// before it emits them.
#[derive(Clone, Copy, Debug)]
pub struct Capability {
    /// Element types of the data operands (empty: the kernel moves no
    /// data, as the barrier's).
    pub dtypes: &'static [&'static str],
    /// The same, for messages.
    pub dtype_names: &'static str,
    /// Only `op = "sum"`.
    pub sum_only: bool,
    /// The signal must be rank 1 (`[NR]`).
    pub rank1_signal: bool,
}

/// Largest ring a `pld.builtin_allreduce_ring` kernel supports.
pub const RING_MAX_RANKS: i64 = 16;

/// The capability of builtin `name`, if it is one.
pub fn capability(name: &str) -> Option<Capability> {
    const F32: &[&str] = &["f32"];
    let (dtypes, dtype_names, sum_only, rank1_signal) = match name {
        BuiltinAllReduce::NAME => (&["f16", "f32"][..], "f16 or f32", false, false),
        BuiltinAllReduceRing::NAME => (F32, "f32", true, false),
        BuiltinBarrier::NAME => (&[][..], "", false, true),
        BuiltinBroadcast::NAME => (F32, "f32", false, true),
        BuiltinReduceScatter::NAME => (F32, "f32", true, true),
        BuiltinReduce::NAME => (&["f16", "f32"][..], "f16 or f32", false, true),
        BuiltinAllGather::NAME | BuiltinAllToAll::NAME => (F32, "f32", false, false),
        BuiltinAllToAllV::NAME => (&["f32", "i8"][..], "f32 or i8", false, false),
        _ => return None,
    };
    Some(Capability {
        dtypes,
        dtype_names,
        sum_only,
        rank1_signal,
    })
}

/// The `arg_directions` attribute value for a list of directions.
pub fn directions_attribute<'c>(
    context: &'c melior::Context,
    directions: &[Direction],
) -> Attribute<'c> {
    let items: Vec<Attribute> = directions.iter().map(|d| d.to_attribute(context)).collect();
    ArrayAttribute::new(context, &items).into()
}
