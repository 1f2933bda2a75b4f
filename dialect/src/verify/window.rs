//! docs/dialect.md 4.1 and 4.2: window allocation, views, comm-context queries.

use super::OpCx;
use crate::ops::window::AllocWindowBuffer;
use crate::types::TensorKind;
use melior::ir::{operation::OperationResult, ValueLike};
use pld_ir::constant_int;

pub fn alloc_window_buffer(cx: &mut OpCx) {
    let name = cx.view.attribute("name").and_then(pld_ir::attr::string);
    if name.as_deref().unwrap_or("").is_empty() {
        cx.error("requires a non-empty 'name'");
    }
    if let Some(bytes) = cx.one("size").and_then(constant_int) {
        if bytes <= 0 {
            cx.error(format!("window size must be positive, got {bytes} bytes"));
        }
    }
}

pub fn window(cx: &mut OpCx) {
    let Some(view) = cx.result_tensor() else {
        return;
    };
    if view.kind != TensorKind::Distributed {
        cx.error(format!(
            "result must be a distributed tensor (#pld.dist encoding), got a {}",
            view.kind
        ));
        return;
    }
    if view.rank() == 0 {
        cx.error("window shape must have at least one dimension");
    }
    if let Some(i) = view.shape.iter().position(|d| *d == Some(0)) {
        cx.error(format!("window dimension {i} must be positive, got 0"));
    }
    let dynamic = view.shape.iter().filter(|d| d.is_none()).count();
    let given = cx.group("dynamic_sizes").len();
    if dynamic != given {
        cx.error(format!(
            "expected {dynamic} dynamic size operands (one per '?' in the result type), got {given}"
        ));
    }
    // A view bound to a window buffer must name the allocation it views.
    let buffer = cx
        .one("buffer")
        .and_then(|b| OperationResult::try_from(b).ok())
        .and_then(|r| AllocWindowBuffer::cast(r.owner()));
    // W7: a static view fits a buffer of constant size.
    let size = buffer.and_then(|a| a.size()).and_then(constant_int);
    let viewed = view
        .static_numel()
        .zip(pld_ir::types::byte_width(view.element))
        .and_then(|(n, width)| n.checked_mul(width));
    if let (Some(size), Some(viewed), Some(name)) = (size, viewed, buffer.and_then(|a| a.name())) {
        if size > 0 && viewed > size {
            cx.error(format!(
                "views {viewed} bytes of '{name}', which has {size}"
            ));
        }
    }
    let allocation = buffer.and_then(|a| a.name());
    if let (Some(bound), Some(allocation)) = (&view.window, allocation) {
        if *bound != allocation {
            cx.error(format!(
                "view is bound to window \"{bound}\" but its buffer is allocation \"{allocation}\""
            ));
        }
    }
}

pub fn get_comm_ctx(cx: &mut OpCx) {
    let Some(value) = cx.one("tensor") else {
        return;
    };
    if let Ok(Some(info)) = crate::types::tensor_info(value.r#type()) {
        if info.kind != TensorKind::Distributed {
            cx.error(format!(
                "operand must be a distributed tensor, got a {}",
                info.kind
            ));
        }
    }
}
