//! docs/dialect.md 4.9: the builtin dispatches of the HOST rail.

use super::{collective, signal::enum_member, OpCx};
use crate::collective::capability;
use crate::collective::CollectiveKind;
use crate::enums::{AllReduceMode, Direction, PldEnum, ReduceOp};
use crate::launch::MAX_CORE_NUM;
use crate::ops::builtin::RING_MAX_RANKS;
use crate::schema::Arity;
use pld_ir::attr::Integer;

/// The rules of the builtin dispatch that carries out `kind` in `mode`.
pub fn check(kind: CollectiveKind, mode: AllReduceMode, cx: &mut OpCx) {
    directions(cx);
    // The data operand whose dtype the kernel is instantiated for.
    let data = if cx.view.schema.operand_group("src").is_some() {
        "src"
    } else if cx.view.schema.operand_group("target").is_some() {
        "target"
    } else {
        ""
    };
    // HOST builtins read and write windows only.
    let mut windows_ok = true;
    for role in ["src", "target", "input", "send_counts", "recv_counts"] {
        if cx.view.schema.operand_group(role).is_some() {
            windows_ok &= cx.distributed(role).is_some();
        }
    }
    if !windows_ok {
        return;
    }
    let Some(signal) = cx.signal("signal") else {
        return;
    };
    let dtype = if data.is_empty() {
        None
    } else {
        cx.tensor(data).map(|t| t.dtype())
    };
    if let (Some(dtype), Some(attribute)) = (&dtype, cx.view.attribute("dtype")) {
        let declared = pld_ir::attr::type_value(attribute).map(|t| t.to_string());
        if declared.as_deref() != Some(dtype.as_str()) {
            cx.error(format!(
                "dtype attribute {attribute} must equal the {data} element type {dtype}"
            ));
        }
    }
    let reduce = if cx.view.attribute("op").is_some() {
        enum_member::<ReduceOp>(cx, "op", "ReduceOp")
    } else {
        None
    };
    let Some(supports) = capability(&cx.name) else {
        return;
    };
    // The exchanges instantiate their kernel for the target's dtype.
    let dtype = match dtype {
        Some(dtype) => dtype,
        None => cx.tensor("target").map(|t| t.dtype()).unwrap_or_default(),
    };
    // A barrier moves no data: it has no element type to check.
    if !dtype.is_empty() && !supports.accepts(&dtype) {
        cx.error(format!(
            "supports only {}, got {dtype}",
            supports.dtype_names()
        ));
    }
    if let Some(reduce) = reduce.filter(|r| supports.sum_only() && *r != ReduceOp::Sum) {
        cx.error(format!(
            "supports only op = #pld.reduce_op<\"sum\">, got #pld.reduce_op<\"{reduce}\">"
        ));
    }
    if supports.rank1_signal() && signal.rank() != 1 {
        cx.error(format!(
            "signal must be rank 1, one element per rank, got rank {}",
            signal.rank()
        ));
    }
    match (kind, mode) {
        (CollectiveKind::AllReduce, AllReduceMode::Mesh | AllReduceMode::TwoShot) => {
            mesh_lanes(cx, &signal)
        }
        (CollectiveKind::AllReduce, AllReduceMode::Ring) => ring(cx, &signal),
        (CollectiveKind::Broadcast | CollectiveKind::Reduce, _) => {
            if let Some(root) = collective::root_attribute(cx) {
                let negative = collective::negative_root(cx, &root);
                let rank = matches!(root, Integer::InRange(i) if i < RING_MAX_RANKS);
                if !negative && !rank {
                    cx.error(format!(
                        "root = {root} is not a rank: a pld comm domain holds at most \
                         {RING_MAX_RANKS} ranks"
                    ));
                }
            }
        }
        // The exchanges keep the shape rules of the user-level ops.
        (CollectiveKind::AllGather | CollectiveKind::AllToAll | CollectiveKind::AllToAllV, _) => {
            collective::check(kind, cx)
        }
        (
            CollectiveKind::Barrier
            | CollectiveKind::ReduceScatter
            | CollectiveKind::IndexedAllToAllV,
            _,
        ) => {}
    }
}

/// The mesh allreduce's lanes: a positive `core_num` and a signal with a
/// lane column per core (a rank-1 signal is one lane).
fn mesh_lanes(cx: &mut OpCx, signal: &crate::types::TensorInfo) {
    let core_num = cx
        .view
        .attribute("core_num")
        .and_then(pld_ir::attr::integer);
    let core_num = match core_num {
        Some(Integer::InRange(n)) if n > 0 && n <= MAX_CORE_NUM => n,
        Some(Integer::InRange(n)) if n <= 0 => {
            return cx.error(format!("core_num must be a positive integer, got {n}"))
        }
        Some(large) => {
            return cx.error(format!(
                "core_num must be at most {MAX_CORE_NUM} (the launch width a builtin entry \
                 takes), got {large}"
            ))
        }
        None => return cx.error("core_num must be a positive integer"),
    };
    match signal.rank() {
        1 if core_num != 1 => cx.error(format!(
            "a rank-1 signal is valid only when core_num is 1, got {core_num}"
        )),
        1 => {}
        2 => match signal.dim(1) {
            Some(lanes) if lanes >= core_num => {}
            Some(lanes) => cx.error(format!(
                "signal dim 1 ({lanes}) must be at least core_num ({core_num})"
            )),
            None => cx.error("rank-2 signal dim 1 must be static"),
        },
        r => cx.error(format!("signal must be rank 1 or 2, got rank {r}")),
    }
}

/// `[2*(NR-1)+1, NR]` ring signal, at most 64 ranks, static src whose
/// element count NR divides.
fn ring(cx: &mut OpCx, signal: &crate::types::TensorInfo) {
    if signal.rank() != 2 {
        cx.error(format!(
            "ring signal must be rank 2, [2*(NR-1)+1, NR] with NR the number of ranks, got rank {}",
            signal.rank()
        ));
        return;
    }
    if let (Some(rows), Some(nr)) = (signal.dim(0), signal.dim(1)) {
        if rows != 2 * (nr - 1) + 1 {
            cx.error(format!(
                "ring signal dim 0 ({rows}) must equal 2*(NR-1) + 1 = {}, NR being signal dim 1",
                2 * (nr - 1) + 1
            ));
        }
    }
    let Some(nr) = signal.dim(1) else { return };
    if nr > RING_MAX_RANKS {
        cx.error(format!(
            "ring allreduce supports {RING_MAX_RANKS} or fewer ranks, got {nr}"
        ));
    }
    let Some(src) = cx.tensor("src") else { return };
    match src.static_numel() {
        None => cx.error("ring allreduce requires a statically-known src shape"),
        Some(n) if nr > 0 && n % nr != 0 => cx.error(format!(
            "ring allreduce src element count ({n}) must be an exact multiple of the rank count ({nr}); got a remainder of {}",
            n % nr
        )),
        Some(_) => {}
    }
}

/// `arg_directions`: one valid direction per tensor operand.
fn directions(cx: &mut OpCx) {
    let Some(attribute) = cx.view.attribute("arg_directions") else {
        return;
    };
    let tensors = cx
        .view
        .schema
        .operands
        .iter()
        .filter(|g| g.arity == Arity::Single && g.name != "device")
        .count();
    let Some(items) = pld_ir::attr::array(attribute) else {
        return;
    };
    if items.len() != tensors {
        cx.error(format!(
            "arg_directions has {} entries but the op has {tensors} tensor operands",
            items.len()
        ));
        return;
    }
    for item in items {
        if Direction::from_attribute(item).is_none() {
            cx.error(format!(
                "arg_directions entries must be #pld.direction<...> with one of {}, got {item}",
                Direction::member_list()
            ));
            return;
        }
    }
}
