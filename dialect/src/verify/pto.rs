//! The PTO ops pld emits, checked as the PTOAS assembler checks them
//! (docs/dialect.md, "PTO ops"), so that `pld-translate --emit=pto` never
//! prints something the assembler refuses.

use crate::ops::OpView;
use crate::pto_types::{params, split_shape, TileBuf};
use melior::ir::{operation::OperationLike, OperationRef, ValueLike};

/// `pto.alloc_tile`: a `valid_row` / `valid_col` operand is present exactly
/// when the result type's valid extent in that dimension is `?`. The
/// messages; none when the op holds.
pub fn alloc_tile(op: OperationRef) -> Vec<String> {
    let Some(view) = OpView::new(op) else {
        return Vec::new();
    };
    let Some(result) = op.result(0).ok() else {
        return Vec::new();
    };
    let text = result.r#type().to_string();
    let Ok(tile) = TileBuf::parse(&text) else {
        return Vec::new();
    };
    // Without a `valid` property the tile is valid in full: static.
    let valid = tile
        .valid
        .clone()
        .unwrap_or_else(|| tile.dims.iter().map(|d| d.parse().ok()).collect());
    let mut problems = Vec::new();
    for (index, (operand, what)) in [("valid_row", "row"), ("valid_col", "column")]
        .into_iter()
        .enumerate()
    {
        let Some(extent) = valid.get(index) else {
            continue;
        };
        let present = view.one(operand).is_some();
        match (extent, present) {
            (Some(n), true) => problems.push(format!(
                "{operand} operand must be absent: the result type's valid {what} is {n}, not ?"
            )),
            (None, false) => problems.push(format!(
                "needs a {operand} operand: the result type's valid {what} is ?"
            )),
            _ => {}
        }
    }
    problems
}

/// `pto.comm_build_async_session`: an SDMA session needs a UB scratch tile
/// (`loc` vec), a URMA session takes none (P2).
pub fn build_async_session(op: OperationRef) -> Vec<String> {
    let Some(view) = OpView::new(op) else {
        return Vec::new();
    };
    let engine = session_engine_of(op);
    let scratch = view.one("scratch");
    match (engine.as_deref(), scratch) {
        (Some("sdma"), None) => {
            vec!["engine sdma needs a scratch operand (a UB tile_buf of loc vec)".into()]
        }
        (Some("urma"), Some(_)) => {
            vec!["engine urma takes no scratch operand (only SDMA stages through UB)".into()]
        }
        (Some("urma"), None) if declared_a2a3(op) => vec![
            "engine urma exists on A5 only (NPU_ARCH 3510), and this module declares \
             pld.target = \"a2a3\": use engine sdma, or pld.target = \"a5\""
                .into(),
        ],
        (Some("sdma"), Some(tile)) => {
            let text = tile.r#type().to_string();
            match TileBuf::parse(&text) {
                Ok(t) if t.loc == "vec" => Vec::new(),
                _ => vec![format!(
                    "scratch must be a tile_buf of loc vec (UB), got {text}"
                )],
            }
        }
        _ => Vec::new(),
    }
}

/// Whether a module around `op` says `pld.target = "a2a3"` (a converted
/// module without the attribute may come from anywhere: its URMA ops are
/// taken as written).
fn declared_a2a3(op: OperationRef) -> bool {
    let mut current = op.parent_operation();
    while let Some(candidate) = current {
        if pld_ir::op_name(&candidate) == "builtin.module"
            && candidate.attribute(crate::target::TARGET_ATTR).is_ok()
        {
            return crate::target::target_of(candidate) == Ok(crate::target::Target::A2A3);
        }
        current = candidate.parent_operation();
    }
    false
}

/// The engine (`sdma`, `urma`) of a `pto.comm_build_async_session`.
fn session_engine_of(op: OperationRef) -> Option<String> {
    let value = op.attribute("engine").ok()?;
    pld_ir::attr::enum_payload(value, "pto.dma_engine")
}

/// `pto.comm_tput_async` / `pto.comm_tget_async`: the DMA engines move
/// flat contiguous 1-D spans, so `dst` and `src` are partition views whose
/// every dimension but the last is 1, of one element type, `dst` at least
/// as long as `src` (P3); a transfer on a URMA session names its peer, the
/// PER_PEER queue (P4).
pub fn async_transfer(op: OperationRef) -> Vec<String> {
    let Some(view) = OpView::new(op) else {
        return Vec::new();
    };
    let mut problems = Vec::new();
    let mut spans = Vec::new();
    for role in ["dst", "src"] {
        let Some(value) = view.one(role) else {
            return problems;
        };
        let text = value.r#type().to_string();
        match flat_span(&text) {
            Some(span) => spans.push(span),
            None => problems.push(format!(
                "{role} must be a flat contiguous 1-D view (every dimension but the last 1), got {text}"
            )),
        }
    }
    if let [(dst_len, dst_elem), (src_len, src_elem)] = spans.as_slice() {
        if dst_elem != src_elem {
            problems.push(format!(
                "dst element type {dst_elem} must equal the src element type {src_elem}"
            ));
        }
        if let (Some(d), Some(s)) = (dst_len, src_len) {
            if d < s {
                problems.push(format!("dst has {d} elements, fewer than the {s} of src"));
            }
        }
    }
    let mut builders = Vec::new();
    if let Some(session) = view.one("session") {
        session_builders(session, &mut builders, &mut Default::default());
    }
    let urma = builders
        .into_iter()
        .filter_map(session_engine_of)
        .any(|e| e == "urma");
    if urma && view.one("peer").is_none() {
        problems
            .push("a transfer on a URMA session needs a peer operand (its PER_PEER queue)".into());
    }
    problems
}

/// The `pto.comm_build_async_session` ops `value` may come from: through
/// `arith.select`, the results of `scf.if` (what either branch yields) and the iteration
/// arguments and results of `scf.for` (its initial value and what the body
/// yields). `seen` holds the values visited (a loop's argument reaches
/// itself through its yield).
fn session_builders<'c, 'a>(
    value: melior::ir::Value<'c, 'a>,
    found: &mut Vec<OperationRef<'c, 'a>>,
    seen: &mut std::collections::HashSet<usize>,
) where
    'c: 'a,
{
    use melior::ir::ValueLike;
    if !seen.insert(value.to_raw().ptr as usize) {
        return;
    }
    let mut follow = |v: Option<melior::ir::Value<'c, 'a>>| {
        if let Some(v) = v {
            session_builders(v, found, seen);
        }
    };
    if let Some(op) = pld_ir::defining_op(value) {
        let index = pld_ir::result_number(value);
        let yielded =
            |region| pld_ir::region_terminator(op, region).and_then(|t| pld_ir::operand(t, index));
        match pld_ir::op_name(&op).as_str() {
            crate::ops::pto::CommBuildAsyncSession::NAME => found.push(op),
            "scf.if" => {
                follow(yielded(0));
                follow(yielded(1));
            }
            "arith.select" => {
                follow(pld_ir::operand(op, 1));
                follow(pld_ir::operand(op, 2));
            }
            "scf.for" => {
                follow(pld_ir::operand(op, 3 + index));
                follow(yielded(0));
            }
            _ => {}
        }
        return;
    }
    // An iteration argument of an scf.for body (argument 0 is the index).
    let Some(site) = pld_ir::argument_site(value) else {
        return;
    };
    if pld_ir::op_name(&site.parent) == "scf.for" && site.number > 0 {
        let loop_op = site.parent;
        follow(pld_ir::operand(loop_op, 2 + site.number));
        follow(
            pld_ir::region_terminator(loop_op, 0).and_then(|t| pld_ir::operand(t, site.number - 1)),
        );
    }
}

/// The length (`None`: dynamic) and element type of a flat 1-D partition
/// view; `None` when it is not one.
fn flat_span(text: &str) -> Option<(Option<i64>, String)> {
    let inner = params(text, "!pto.partition_tensor_view")?;
    let (dims, element) = split_shape(params(inner.trim(), "tensor")?)?;
    let (last, leading) = dims.split_last()?;
    leading
        .iter()
        .all(|d| *d == "1")
        .then(|| (last.parse().ok(), element.to_string()))
}
