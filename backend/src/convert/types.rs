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

/// Bytes a tile's row (row-major) or column (column-major) must span: the
/// pto-isa `Tile` template asserts it (`Cols * sizeof(T) % 32 == 0` for a
/// row-major tile, `Rows * sizeof(T) % 32 == 0` for a column-major one).
pub const TILE_ALIGN_BYTES: i64 = 32;

/// A vector tile buffer of a tile's physical shape, its aligned dimension
/// (the columns of a row-major tile, the rows of a column-major one)
/// rounded up to [`TILE_ALIGN_BYTES`]: a `[1, 17]` f32 tile is a
/// `1x24xf32` buffer whose valid columns are 17 (the buffer PTOAS makes of
/// `1x17xf32` fails to compile against pto-isa). Valid extents are always
/// run-time (`-1`), so that setting them updates the buffer in place, and
/// every op reads and writes the valid part; the pad value is zero, which
/// is what fill-pad writes.
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
    let column_major = info.blayout == Some(BLayout::ColMajor);
    let blayout = if column_major {
        "blayout = \"col_major\", "
    } else {
        ""
    };
    let unit = pld_ir::types::byte_width(info.element)
        .filter(|bytes| *bytes > 0)
        .map_or(1, |bytes| (TILE_ALIGN_BYTES / bytes).max(1));
    let aligned = |n: i64| (n + unit - 1) / unit * unit;
    let (rows, cols) = match column_major {
        true => (aligned(rows), cols),
        false => (rows, aligned(cols)),
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
