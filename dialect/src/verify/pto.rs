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
    let urma = view
        .one("session")
        .and_then(pld_ir::defining_op)
        .filter(|d| pld_ir::op_name(d) == crate::ops::pto::CommBuildAsyncSession::NAME)
        .and_then(session_engine_of)
        .is_some_and(|e| e == "urma");
    if urma && view.one("peer").is_none() {
        problems
            .push("a transfer on a URMA session needs a peer operand (its PER_PEER queue)".into());
    }
    problems
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
