//! Local tile ops of the composite rail.

use super::OpCx;
use crate::types::{Layout, TensorInfo, TensorKind};
use pld_ir::constant_int;

/// The result must be a tile; returns its info.
fn result_tile<'c>(cx: &mut OpCx<'_, 'c, '_>) -> Option<TensorInfo<'c>> {
    let tile = cx.result_tensor()?;
    if tile.kind != TensorKind::Tile {
        cx.error(format!(
            "result must be a tile (#pld.tile encoding), got a {}",
            tile.kind
        ));
        return None;
    }
    if tile.shape.iter().any(Option::is_none) {
        cx.error("a tile's physical shape must be static");
        return None;
    }
    // L17: the tile fits the unified buffer (of a well-formed target; a
    // malformed one is G8's error).
    if let Some(target) = cx.target {
        let ub = target.ub_bytes();
        let bytes = tile.shape.iter().flatten().try_fold(
            pld_ir::types::byte_width(tile.element).unwrap_or(1),
            |acc, d| acc.checked_mul(*d),
        );
        if bytes.is_none_or(|b| b > ub) {
            let size = bytes.map_or("more than 2^63".to_string(), |b| b.to_string());
            cx.error(format!(
                "a tile of {size} bytes does not fit the {} KiB unified buffer of pld.target \"{target}\"",
                ub / 1024
            ));
            return None;
        }
    }
    Some(tile)
}

/// Operand `role` must be a tile.
fn tile<'c>(cx: &mut OpCx<'_, 'c, '_>, role: &str) -> Option<TensorInfo<'c>> {
    let info = cx.tensor(role)?;
    if info.kind != TensorKind::Tile {
        cx.error(format!("{role} must be a tile, got a {}", info.kind));
        return None;
    }
    Some(info)
}

/// `valid_shape` holds no extent or one per dimension, none negative.
fn valid_extents(cx: &mut OpCx, rank: usize, allow_empty: bool) {
    let valid = cx.group("valid_shape");
    if (valid.is_empty() && allow_empty) || valid.len() == rank {
        if let Some(v) = valid.into_iter().filter_map(constant_int).find(|v| *v < 0) {
            cx.error(format!("valid_shape extents must not be negative, got {v}"));
        }
        return;
    }
    let expected = if allow_empty {
        format!("0 or {rank}")
    } else {
        rank.to_string()
    };
    cx.error(format!(
        "expected {expected} valid_shape extents (one per dimension), got {}",
        valid.len()
    ));
}

/// Two tiles hold the same physical shape and dtype.
fn same_tile_type(
    cx: &mut OpCx,
    a: &TensorInfo,
    a_role: &str,
    b: &TensorInfo,
    b_role: &str,
) -> bool {
    if a.shape != b.shape || a.element != b.element {
        cx.error(format!(
            "{a_role} and {b_role} must have the same physical shape and dtype, got {}x{} and {}x{}",
            shape_text(a),
            a.dtype(),
            shape_text(b),
            b.dtype()
        ));
        return false;
    }
    true
}

fn shape_text(info: &TensorInfo) -> String {
    info.shape
        .iter()
        .map(|d| d.map_or("?".to_string(), |d| d.to_string()))
        .collect::<Vec<_>>()
        .join("x")
}

pub fn tensor_view(cx: &mut OpCx) {
    let Some(source) = cx.global("source") else {
        return;
    };
    let Some(view) = cx.result_tensor() else {
        return;
    };
    if view.kind != source.kind {
        cx.error(format!(
            "the view must be a {} like its source, got a {}",
            source.kind, view.kind
        ));
        return;
    }
    cx.same_dtype("view", &view, "source", &source);
    if source.layout.is_some_and(|l| l != Layout::Nd) {
        cx.error("source view only supports ND layout");
    }
    if let (Some(strides), Some(packed)) = (&source.strides, source.packed_strides()) {
        if *strides != packed {
            cx.error("source shape reinterpret requires a packed source");
        }
    }
    // A `?` whose size operand is a constant counts as that size.
    let sizes = cx.group("dynamic_sizes");
    let mut constant = sizes.iter().map(|v| pld_ir::constant_int(*v));
    let view_numel = view.shape.iter().try_fold(1i64, |acc, d| {
        let d = match d {
            Some(d) => *d,
            None => constant.next().flatten()?,
        };
        acc.checked_mul(d)
    });
    if let (Some(a), Some(b)) = (source.static_numel(), view_numel) {
        if a != b {
            cx.error(format!(
                "the view must keep the element count ({a}), got {b}"
            ));
        }
    }
    let dynamic = view.shape.iter().filter(|d| d.is_none()).count();
    let given = cx.group("dynamic_sizes").len();
    if dynamic != given {
        cx.error(format!(
            "expected {dynamic} dynamic size operands (one per '?' in the result type), got {given}"
        ));
    }
    valid_extents(cx, view.rank(), true);
}

pub fn tile_create(cx: &mut OpCx) {
    result_tile(cx);
}

pub fn tile_load(cx: &mut OpCx) {
    let Some(source) = cx.global("source") else {
        return;
    };
    let Some(tile) = result_tile(cx) else {
        return;
    };
    if !cx.tuple_rank("offsets", "source", source.rank()) {
        return;
    }
    if tile.rank() != source.rank() {
        cx.error(format!(
            "tile rank {} must equal the source rank {}",
            tile.rank(),
            source.rank()
        ));
        return;
    }
    cx.same_dtype("tile", &tile, "source", &source);
    valid_extents(cx, tile.rank(), true);
}

pub fn tile_store(cx: &mut OpCx) {
    let Some(tile) = tile(cx, "tile") else {
        return;
    };
    let Some(target) = cx.global("target") else {
        return;
    };
    cx.same_dtype("tile", &tile, "target", &target);
    if cx.tuple_rank("offsets", "target", target.rank()) && tile.rank() != target.rank() {
        cx.error(format!(
            "tile rank {} must equal the target rank {}",
            tile.rank(),
            target.rank()
        ));
    }
}

pub fn tile_fillpad(cx: &mut OpCx) {
    let (Some(input), Some(result)) = (tile(cx, "tile"), result_tile(cx)) else {
        return;
    };
    if same_tile_type(cx, &input, "tile", &result, "result") {
        let full = result
            .valid_shape
            .as_ref()
            .is_none_or(|v| v.iter().zip(&result.shape).all(|(v, d)| Some(*v) == *d));
        if !full {
            cx.error(
                "the result of a fill-pad is fully valid: its type has no partial valid_shape",
            );
        }
    }
}

pub fn tile_set_validshape(cx: &mut OpCx) {
    let (Some(input), Some(result)) = (tile(cx, "tile"), result_tile(cx)) else {
        return;
    };
    if same_tile_type(cx, &input, "tile", &result, "result") {
        valid_extents(cx, result.rank(), false);
    }
}

pub fn elementwise(cx: &mut OpCx) {
    let (Some(lhs), Some(rhs), Some(result)) = (tile(cx, "lhs"), tile(cx, "rhs"), result_tile(cx))
    else {
        return;
    };
    if same_tile_type(cx, &lhs, "lhs", &rhs, "rhs") {
        same_tile_type(cx, &lhs, "lhs", &result, "result");
    }
}

pub fn tensor_read(cx: &mut OpCx) {
    let Some(source) = cx.global("source") else {
        return;
    };
    if !cx.tuple_rank("indices", "source", source.rank()) {
        return;
    }
    if let Ok(result) = melior::ir::operation::OperationLike::result(&cx.view.op, 0) {
        use melior::ir::ValueLike;
        if result.r#type() != source.element {
            cx.error(format!(
                "result type {} must be the element type {} of the source",
                result.r#type(),
                source.dtype()
            ));
        }
    }
}
