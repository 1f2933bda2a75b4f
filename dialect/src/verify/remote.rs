//! docs/dialect.md 4.4: remote loads, stores, puts and gets.

use super::{signal::enum_member, OpCx};
use crate::enums::AtomicType;
use crate::types::{BLayout, Layout, TensorInfo, TensorKind};
use pld_ir::{attr::Integer, constant_int};

/// Element types an atomic-add store or put may accumulate (docs/dialect.md 3).
const ATOMIC_ADD_DTYPES: &[&str] = &["f32", "bf16", "f16", "i32", "i16", "i8"];

/// Extra elements the FP16 tail variant may read past the last column: one
/// 32-byte block, safe because every comm buffer is padded to 32 bytes.
const FP16_TAIL_PADDING: i64 = 15;

pub fn remote_load(cx: &mut OpCx, tail_padded: bool) {
    let Some(target) = cx.distributed("target") else {
        return;
    };
    if target.layout.is_some_and(Layout::is_mx) {
        cx.error("does not support MX layouts");
        return;
    }
    let rank = target.rank();
    if rank == 0 {
        cx.error("target must have rank > 0");
        return;
    }
    let Some(tile) = cx.result_tensor() else {
        return;
    };
    if tile.kind != TensorKind::Tile {
        cx.error(format!(
            "result must be a tile (#pld.tile encoding), got a {}",
            tile.kind
        ));
        return;
    }
    if !cx.tuple_rank("offsets", "target", rank) {
        return;
    }
    if tile.rank() != rank {
        cx.error(format!(
            "tile rank {} must equal the target rank {rank}",
            tile.rank()
        ));
        return;
    }
    cx.same_dtype("tile", &tile, "target", &target);
    let valid = cx.group("valid_shape");
    if !valid.is_empty() && valid.len() != rank {
        cx.error(format!(
            "expected 0 or {rank} valid_shape extents (one per dimension of target), got {}",
            valid.len()
        ));
        return;
    }
    let valid: Vec<Option<i64>> = valid.into_iter().map(constant_int).collect();
    if let Some(negative) = valid.iter().flatten().find(|v| **v < 0) {
        cx.error(format!(
            "valid_shape extents must not be negative, got {negative}"
        ));
        return;
    }
    if tail_padded {
        if target.dtype() != "f16" {
            cx.error(format!("requires an f16 target, got {}", target.dtype()));
        }
        if rank != 2 {
            cx.error(format!("requires a rank-2 target, got rank {rank}"));
        }
        if valid.is_empty() {
            cx.error("requires an explicit valid_shape");
        }
    }

    if !window_extents(cx, &target, &tile, &valid, tail_padded) {
        return;
    }
    block_layout(cx, &target, &tile);
}

/// Whether `extent` elements from `offset` end within `size` (an offset
/// near `i64::MAX` does not wrap around).
fn ends_within(offset: i64, extent: i64, size: i64) -> bool {
    offset.checked_add(extent).is_some_and(|end| end <= size)
}

/// The window each dimension reads stays inside the target, fits the tile
/// and yields the tile's declared valid extent. Returns whether it does.
fn window_extents(
    cx: &mut OpCx,
    target: &TensorInfo,
    tile: &TensorInfo,
    valid: &[Option<i64>],
    tail_padded: bool,
) -> bool {
    let rank = target.rank();
    // The requested window: explicit valid extents, else the tile shape.
    let window: Vec<Option<i64>> = if valid.is_empty() {
        tile.shape.clone()
    } else {
        valid.to_vec()
    };
    let offsets: Vec<Option<i64>> = cx.group("offsets").into_iter().map(constant_int).collect();
    let source_valid = target.effective_valid();
    for k in 0..rank {
        let (Some(offset), Some(extent)) = (offsets[k], window[k]) else {
            continue;
        };
        if offset < 0 {
            cx.error(format!(
                "reads before the start of dimension {k} (offset {offset})"
            ));
            return false;
        }
        let written = target.dim(k);
        let padded = tail_padded && k + 1 == rank;
        let size = match padded {
            true => written.map(|s| s.saturating_add(FP16_TAIL_PADDING)),
            false => written,
        };
        if let (Some(size), Some(written)) = (size, written) {
            if !ends_within(offset, extent, size) {
                let widened = match padded {
                    true => format!(
                        ", its {written} elements and the {FP16_TAIL_PADDING} of the tail padding"
                    ),
                    false => String::new(),
                };
                cx.error(format!(
                    "reads past the end of dimension {k} (offset {offset} + extent {extent} > size {size}{widened})"
                ));
                return false;
            }
        }
        if !valid.is_empty() {
            // With explicit valid extents the tile keeps its physical shape.
            if let Some(physical) = tile.dim(k) {
                if extent > physical {
                    cx.error(format!(
                        "valid_shape extent {extent} of dimension {k} exceeds the tile dimension {physical}"
                    ));
                    return false;
                }
            }
        }
        // The tile's valid extent is the window narrowed by the source's
        // valid region (the tail-padded variant keeps the window).
        let yielded = match (source_valid[k], tail_padded) {
            (Some(src), false) => extent.min((src - offset).max(0)),
            _ => extent,
        };
        let declared = match &tile.valid_shape {
            Some(v) => (v[k] >= 0).then_some(v[k]),
            None => tile.dim(k),
        };
        if let Some(declared) = declared {
            if declared != yielded {
                cx.error(format!(
                    "result tile valid extent of dimension {k} is {declared}, but the load yields {yielded}"
                ));
                return false;
            }
        }
    }
    true
}

/// Block layout: col-major for DN views and for single-column [M, 1]
/// tiles without an explicit ND view; row-major otherwise.
fn block_layout(cx: &mut OpCx, target: &TensorInfo, tile: &TensorInfo) {
    let rank = target.rank();
    let column = rank >= 2 && tile.dim(rank - 1) == Some(1) && tile.dim(rank - 2) != Some(1);
    let expected = match target.layout {
        Some(Layout::Dn) => BLayout::ColMajor,
        Some(_) => BLayout::RowMajor,
        None if column => BLayout::ColMajor,
        None => BLayout::RowMajor,
    };
    let declared = tile.blayout.unwrap_or(BLayout::RowMajor);
    if declared != expected {
        let name = |b: BLayout| match b {
            BLayout::RowMajor => "row_major",
            BLayout::ColMajor => "col_major",
        };
        cx.error(format!(
            "result tile blayout must be {} for this source, got {}",
            name(expected),
            name(declared)
        ));
    }
}

fn atomic(cx: &mut OpCx, dtype: &str) {
    if enum_member::<AtomicType>(cx, "atomic", "AtomicType") != Some(AtomicType::Add) {
        return;
    }
    if !ATOMIC_ADD_DTYPES.contains(&dtype) {
        cx.error(format!(
            "atomic add supports f32, bf16, f16, i32, i16 and i8, got {dtype}"
        ));
    } else if let Some(target) = cx
        .target
        .filter(|t| dtype == "bf16" && !t.has_bf16_atomic_add())
    {
        // R29: only the A2/A3 backend has a BF16 atomic add (spec 3).
        cx.error(format!(
            "atomic add of bf16 is not supported on pld.target \"{target}\" (only on \"a2a3\")"
        ));
    }
}

pub fn remote_store(cx: &mut OpCx, source: TensorKind) {
    let Some(src) = cx.tensor("src") else { return };
    let src_ok = match source {
        TensorKind::Tile => src.kind == TensorKind::Tile,
        _ => src.kind != TensorKind::Tile,
    };
    if !src_ok {
        let want = if source == TensorKind::Tile {
            "a tile"
        } else {
            "a tensor"
        };
        cx.error(format!("src must be {want}, got a {}", src.kind));
        return;
    }
    let Some(target) = cx.distributed("target") else {
        return;
    };
    atomic(cx, &target.dtype());
    cx.same_dtype("src", &src, "target", &target);
    let rank = target.rank();
    if rank < 2 {
        cx.error(format!("target must have rank >= 2, got {rank}"));
        return;
    }
    let src_rank = src.rank();
    if src_rank < 2 || (0..src_rank - 2).any(|i| src.dim(i) != Some(1)) {
        cx.error("src must be 2-D, or N-D with all leading dimensions 1");
        return;
    }
    if !cx.tuple_rank("offsets", "target", rank) {
        return;
    }
    // The pushed region covers the last two target dimensions.
    let offsets: Vec<Option<i64>> = cx.group("offsets").into_iter().map(constant_int).collect();
    let extents = src.effective_valid();
    for (j, k) in [(src_rank - 2, rank - 2), (src_rank - 1, rank - 1)] {
        if offsets[k].is_some_and(|offset| offset < 0) {
            cx.error(format!(
                "the pushed region has a negative offset in dimension {k} ({})",
                offsets[k].unwrap_or_default()
            ));
            return;
        }
        if let (Some(offset), Some(extent), Some(size)) = (offsets[k], extents[j], target.dim(k)) {
            if !ends_within(offset, extent, size) {
                cx.error(format!(
                    "the pushed region does not fit dimension {k} (offset {offset} + extent {extent} > size {size})"
                ));
                return;
            }
        }
    }
}

/// `pld.tensor_put` / `pld.tensor_get` / `pld.tile_put` / `pld.tile_get`.
pub fn transfer(cx: &mut OpCx, put: bool, staged: bool) {
    // A put writes a peer's window; a get reads one.
    let (remote, local) = if put { ("dst", "src") } else { ("src", "dst") };
    let Some(remote_info) = cx.distributed(remote) else {
        return;
    };
    let Some(local_info) = cx.global(local) else {
        return;
    };
    if remote_info.element != local_info.element {
        cx.error(format!(
            "dst and src must have the same dtype, got {} and {}",
            cx.tensor("dst").map(|t| t.dtype()).unwrap_or_default(),
            cx.tensor("src").map(|t| t.dtype()).unwrap_or_default()
        ));
    }
    if put {
        atomic(cx, &remote_info.dtype());
    }
    if staged {
        let Some(stage) = cx.tensor("stage") else {
            return;
        };
        if stage.kind != TensorKind::Tile {
            cx.error(format!("stage must be a tile, got a {}", stage.kind));
            return;
        }
        cx.same_dtype("stage", &stage, remote, &remote_info);
        if let (Some(pong), Some(ping)) = (cx.one("pong"), cx.one("stage")) {
            use melior::ir::ValueLike;
            if pong.r#type() != ping.r#type() {
                cx.error("pong must have the same type as stage");
            }
        }
    } else {
        chunking(cx);
    }
    let counts = [
        cx.group("dst_offsets").len(),
        cx.group("src_offsets").len(),
        cx.group("shape").len(),
    ];
    if counts.iter().all(|c| *c == 0) {
        return;
    }
    if counts.contains(&0) {
        cx.error("dst_offsets, src_offsets and shape must be given together or not at all");
        return;
    }
    let (dst_rank, src_rank) = if put {
        (remote_info.rank(), local_info.rank())
    } else {
        (local_info.rank(), remote_info.rank())
    };
    if cx.tuple_rank("dst_offsets", "dst", dst_rank)
        && cx.tuple_rank("src_offsets", "src", src_rank)
    {
        cx.tuple_rank("shape", "dst", dst_rank);
    }
}

/// `chunk_rows`, `chunk_cols` and `pipeline` of the tensor-level put/get.
fn chunking(cx: &mut OpCx) {
    for name in ["chunk_rows", "chunk_cols"] {
        if let Some(attribute) = cx.view.attribute(name) {
            match pld_ir::attr::integer(attribute) {
                Some(Integer::InRange(v)) if v >= 0 => {}
                Some(large @ Integer::OutOfRange(_)) if !large.is_negative() => {
                    cx.error(format!("{name} = {large} is too large"))
                }
                _ => cx.error(format!(
                    "{name} must be a non-negative integer, got {attribute}"
                )),
            }
        }
    }
    if let Some(attribute) = cx.view.attribute("pipeline") {
        match pld_ir::attr::bool_value(attribute) {
            None => cx.error(format!("pipeline must be true or false, got {attribute}")),
            Some(true) => {
                let set = |n: &str| {
                    cx.view
                        .attribute(n)
                        .and_then(pld_ir::attr::int)
                        .is_some_and(|v| v > 0)
                };
                if !(set("chunk_rows") && set("chunk_cols")) {
                    cx.error("pipeline = true requires positive chunk_rows and chunk_cols");
                }
            }
            Some(false) => {}
        }
    }
}
