//! pld types to PTO types.

use melior::{ir::Type, Context};
use pld_dialect::types::{BLayout, TensorInfo, TensorKind};

/// `!pto.ptr<elem>`.
pub fn pointer<'c>(context: &'c Context, element: Type<'c>) -> Type<'c> {
    parse(context, &format!("!pto.ptr<{element}>"))
}

/// The CommContext pointer, read as u64 slots.
pub fn context_pointer(context: &Context) -> Type<'_> {
    parse(context, "!pto.ptr<i64>")
}

/// A vector tile buffer of a tile's physical shape. Valid extents are
/// always run-time (`-1`), so that setting them updates the buffer in
/// place; the pad value is zero, which is what fill-pad writes.
pub fn tile_buffer<'c>(context: &'c Context, info: &TensorInfo<'c>) -> Result<Type<'c>, String> {
    if info.kind != TensorKind::Tile || info.rank() != 2 {
        return Err(format!(
            "PTO tiles are 2-D; got a rank-{} {}",
            info.rank(),
            info.kind
        ));
    }
    let (Some(rows), Some(cols)) = (info.dim(0), info.dim(1)) else {
        return Err("a tile's physical shape must be static".into());
    };
    // A column tile keeps its block layout (verifier rule R14 requires it
    // for `[N, 1]` tiles); row-major is the default and is left out.
    let blayout = match info.blayout {
        Some(BLayout::ColMajor) => "blayout = \"col_major\", ",
        _ => "",
    };
    Ok(parse(
        context,
        &format!(
            "!pto.tile_buf<\"vec\", tensor<{rows}x{cols}x{}>, {{{blayout}pad = 1 : i64, valid = array<i64: -1, -1>}}>",
            info.element
        ),
    ))
}

/// `!pto.tensor_view<tensor<?x..x?xT>>` of a rank (kernel views keep every
/// extent dynamic, as PTOAS's emitters do).
pub fn tensor_view<'c>(context: &'c Context, rank: usize, element: Type<'c>) -> Type<'c> {
    parse(
        context,
        &format!("!pto.tensor_view<tensor<{}{element}>>", "?x".repeat(rank)),
    )
}

/// `!pto.partition_tensor_view<tensor<AxBxT>>`, `?` for run-time sizes.
pub fn partition_view<'c>(
    context: &'c Context,
    sizes: &[Option<i64>],
    element: Type<'c>,
) -> Type<'c> {
    let dims: String = sizes
        .iter()
        .map(|s| s.map_or("?".to_string(), |s| s.to_string()) + "x")
        .collect();
    parse(
        context,
        &format!("!pto.partition_tensor_view<tensor<{dims}{element}>>"),
    )
}

fn parse<'c>(context: &'c Context, text: &str) -> Type<'c> {
    Type::parse(context, text).unwrap_or_else(|| panic!("type {text} parses"))
}

/// Whether a type is PTO-legal for an element (byte-sized scalars).
pub fn byte_sized(element: Type) -> bool {
    pld_ir::types::bit_width(element).is_some_and(|bits| bits >= 8 && bits % 8 == 0)
}
