//! HOST orchestration ops: per-device dispatch and comm-domain scopes.

use super::OpCx;
use crate::enums::FuncKind;
use crate::ops::{
    host::{CommDomain, Dispatch},
    window::AllocWindowBuffer,
};
use melior::ir::{block::BlockLike, operation::OperationLike, RegionLike, ValueLike};

pub fn dispatch(cx: &mut OpCx) {
    let Some(dispatch) = Dispatch::cast(cx.view.op) else {
        return;
    };
    let calls = dispatch.calls();
    if calls.len() != 1 {
        // Calls nested in a branch or loop of the body are not the one.
        let nested = pld_ir::collect(cx.view.op, |n| n == "func.call").len() - calls.len();
        let others = calls
            .iter()
            .filter_map(|c| pld_ir::attr::callee(*c))
            .filter(|callee| cx.function_kind(callee) != Some(Some(FuncKind::Chip)))
            .map(|callee| format!("@{callee}"))
            .collect::<Vec<_>>();
        let note = match (nested, others.as_slice()) {
            (0, others) if calls.len() > 1 && !others.is_empty() => format!(
                " calls (of which {} {} not a CHIP orchestrator: every call in the body \
                 counts, so compute what the dispatch needs before it, or in the CHIP \
                 orchestrator)",
                others.join(", "),
                if others.len() == 1 { "is" } else { "are" }
            ),
            (0, _) => String::new(),
            (n, _) => format!(
                " directly in its body ({n} inside an op nested in it: the call must be \
                 directly in the body, so put the branch or loop in the CHIP orchestrator)"
            ),
        };
        cx.error(format!(
            "body must hold exactly one func.call of a CHIP orchestrator, found {}{note}",
            calls.len()
        ));
        return;
    }
    let Some(callee) = dispatch.callee() else {
        return;
    };
    let Some(kind) = cx.function_kind(&callee) else {
        // func.call's own verifier reports a missing callee.
        return;
    };
    if kind != Some(FuncKind::Chip) {
        cx.error(format!(
            "dispatched function @{callee} must be a CHIP orchestrator (pld.kind \"chip\")"
        ));
    }
    if let Some(terminator) = dispatch
        .op()
        .region(0)
        .ok()
        .and_then(|r| r.first_block())
        .and_then(|b| b.terminator())
    {
        if pld_ir::op_name(&terminator) != "gpu.yield" || terminator.operand_count() != 0 {
            cx.error("body must end with a gpu.yield without operands");
        }
    }
}

/// A slot of `slots` that a comm domain before `op` in its function also
/// lists, with that domain's name.
fn earlier_domain_sharing_a_slot(
    op: melior::ir::OperationRef,
    slots: &[String],
) -> Option<(String, String)> {
    use melior::ir::operation::{WalkOrder, WalkResult};
    let function = pld_ir::enclosing_function(op)?;
    let mut found = None;
    function.walk(WalkOrder::PreOrder, |nested| {
        if nested.to_raw().ptr == op.to_raw().ptr {
            return WalkResult::Interrupt;
        }
        if let Some(domain) = CommDomain::cast(nested) {
            if let Some(slot) = domain
                .slots()
                .unwrap_or_default()
                .into_iter()
                .find(|s| slots.contains(s))
            {
                found = Some((slot, domain.name().unwrap_or_default()));
                return WalkResult::Interrupt;
            }
        }
        WalkResult::Advance
    });
    found
}

/// Names of the window allocations nested in `op`.
fn allocations_inside(op: melior::ir::OperationRef) -> Vec<String> {
    use melior::ir::operation::{WalkOrder, WalkResult};
    let mut names = Vec::new();
    op.walk(WalkOrder::PreOrder, |nested| {
        if pld_ir::op_name(&nested) == AllocWindowBuffer::NAME {
            if let Some(name) = nested.attribute("name").ok().and_then(pld_ir::attr::string) {
                names.push(name);
            }
        }
        WalkResult::Advance
    });
    names
}

/// The optional size record of a comm domain: `logical_bytes` and
/// `aligned_bytes` hold one affine map per slot, `window_bytes` one map.
fn sizes(cx: &mut OpCx, slots: usize) {
    let is_map = pld_ir::attr::is_affine_map;
    for name in ["logical_bytes", "aligned_bytes"] {
        let Some(attribute) = cx.view.attribute(name) else {
            continue;
        };
        let ok = pld_ir::attr::array(attribute)
            .is_some_and(|maps| maps.len() == slots && maps.into_iter().all(is_map));
        if !ok {
            cx.error(format!(
                "{name} must hold one affine map per slot ({slots}), got {attribute}"
            ));
        }
    }
    if let Some(window) = cx.view.attribute("window_bytes") {
        if !is_map(window) {
            cx.error(format!("window_bytes must be an affine map, got {window}"));
        }
    }
}

pub fn comm_domain(cx: &mut OpCx) {
    let name = cx.view.attribute("name").and_then(pld_ir::attr::string);
    if name.as_deref().unwrap_or("").is_empty() {
        cx.error("requires a non-empty 'name'");
    }
    match cx
        .view
        .attribute("devices")
        .and_then(pld_ir::attr::i64_array)
    {
        None => cx.error("devices must be array<i64: ...>"),
        Some(devices) => {
            let ascending = devices.windows(2).all(|w| w[0] < w[1]);
            if !ascending || devices.iter().any(|d| *d < 0) {
                cx.error(format!(
                    "devices must be distinct, ascending and non-negative, got {devices:?}"
                ));
            }
        }
    }
    let slots: Option<Vec<String>> = cx
        .view
        .attribute("slots")
        .and_then(pld_ir::attr::array)
        .and_then(|items| items.into_iter().map(pld_ir::attr::string).collect());
    let Some(slots) = slots.filter(|s| s.iter().all(|n| !n.is_empty())) else {
        cx.error("slots must be an array of non-empty allocation names");
        return;
    };
    sizes(cx, slots.len());
    for (i, slot) in slots.iter().enumerate() {
        if slots[..i].contains(slot) {
            cx.error(format!("slot \"{slot}\" appears twice"));
            return;
        }
    }
    // A slot belongs to one domain of its function: collectives find their
    // domain by slot name.
    if let Some((slot, other)) = earlier_domain_sharing_a_slot(cx.view.op, &slots) {
        cx.error(format!(
            "slot \"{slot}\" is also a slot of comm domain \"{other}\" in this function"
        ));
        return;
    }
    // Every slot is an allocation made inside the domain.
    let allocated = allocations_inside(cx.view.op);
    if let Some(missing) = slots.iter().find(|s| !allocated.contains(s)) {
        cx.error(format!(
            "slot \"{missing}\" names no pld.tensor_alloc_window_buffer inside the domain"
        ));
        return;
    }
    // The results are what the body's terminator yields.
    let op = cx.view.op;
    let Ok(region) = op.region(0) else { return };
    let Some(block) = region.first_block() else {
        return;
    };
    let Some(terminator) = block.terminator() else {
        return;
    };
    let yielded: Vec<_> = terminator.operands().map(|v| v.r#type()).collect();
    let results: Vec<_> = op.results().map(|r| r.r#type()).collect();
    if pld_ir::op_name(&terminator) != "gpu.yield" || yielded != results {
        cx.error("body must end with gpu.yield of values matching the results");
    }
}
