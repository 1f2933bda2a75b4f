//! What PTOAS's verifiers and the pto-isa headers its C++ instantiates
//! require of the ops the printer spells, checked before the text is
//! written (pto-interface.md 1.5), so that a hand-converted kernel that
//! breaks them is refused at its op rather than by the assembler or its
//! compiler: a tile buffer's row (a column-major buffer's column) spans a
//! multiple of 32 bytes (`pto::Tile` asserts it), a tile fits the target's
//! unified buffer, and a signal is an `i32` view of static positive extents
//! compared or notified with an `i32`.

use pld_dialect::pto_types::{params, split_shape, TileBuf};

/// Bytes a tile buffer's aligned dimension must span a multiple of.
const ALIGN_BYTES: i64 = 32;

/// Bits of an element type as printed (`f32`, `bf16`, `i8`, `index`).
fn bits(element: &str) -> Option<i64> {
    if element == "index" {
        return Some(64);
    }
    let digits = ["bf", "tf", "si", "ui", "f", "i"]
        .iter()
        .find_map(|prefix| element.strip_prefix(prefix))?;
    let digits: String = digits.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

/// A tile buffer's aligned dimension spans a multiple of 32 bytes.
pub(super) fn tile_alignment(tile: &TileBuf) -> Result<(), String> {
    let (Some((rows, cols)), Some(bits)) = (tile.rows_cols(), bits(tile.element)) else {
        return Ok(());
    };
    let bytes = (bits / 8).max(1);
    let column_major = tile
        .props
        .iter()
        .any(|(key, value)| *key == "blayout" && value.trim_matches('"') == "col_major");
    let (what, extent) = match column_major {
        true => ("column (a column-major buffer's rows)", rows),
        false => ("row (its columns)", cols),
    };
    if (extent * bytes) % ALIGN_BYTES == 0 {
        return Ok(());
    }
    let unit = (ALIGN_BYTES / bytes).max(1);
    Err(format!(
        "tile buffer {} has a {what} of {} bytes; pto-isa's Tile needs a multiple of 32: \
         make it {} with the valid extent {extent}",
        tile.shape,
        extent * bytes,
        (extent + unit - 1) / unit * unit
    ))
}

/// A tile buffer fits `ub` bytes of unified buffer (of `target`).
pub(super) fn tile_fits(tile: &TileBuf, ub: i64, target: &str) -> Result<(), String> {
    let Some((rows, cols)) = tile.rows_cols() else {
        return Ok(());
    };
    let bytes = (bits(tile.element).unwrap_or(8) / 8).max(1);
    let size = rows.checked_mul(cols).and_then(|n| n.checked_mul(bytes));
    match size {
        Some(size) if size <= ub => Ok(()),
        _ => Err(format!(
            "tile buffer {} of {} bytes does not fit the {} KiB unified buffer of pld.target \
             \"{target}\"",
            tile.shape,
            size.map_or("more than 2^63".to_string(), |s| s.to_string()),
            ub / 1024
        )),
    }
}

/// A signal operand (`t[0]`, as printed) is an `i32` view of static
/// positive extents, and the value (`t[1]`) an `i32`.
pub(super) fn signal(types: &[String]) -> Result<(), String> {
    let (Some(signal), Some(value)) = (types.first(), types.get(1)) else {
        return Ok(());
    };
    let shape = ["!pto.partition_tensor_view", "!pto.tensor_view"]
        .iter()
        .find_map(|prefix| params(signal, prefix));
    if let Some((dims, element)) = shape.and_then(split_shape) {
        let static_dims = dims.iter().all(|d| d.parse::<i64>().is_ok_and(|n| n > 0));
        if element != "i32" || !static_dims {
            return Err(format!(
                "signal {signal} is no i32 view of static positive extents, which PTOAS's comm \
                 verifier requires"
            ));
        }
    }
    if value != "i32" {
        return Err(format!(
            "the value compared or notified is a {value}; PTOAS's comm verifier requires an i32"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tile(text: &str) -> TileBuf<'_> {
        TileBuf::parse(text).expect("a tile buffer")
    }

    #[test]
    fn rows_span_whole_32_bytes() {
        let ok = "!pto.tile_buf<\"vec\", tensor<1x24xf32>, {pad = 1 : i64}>";
        assert!(tile_alignment(&tile(ok)).is_ok());
        let odd = "!pto.tile_buf<\"vec\", tensor<1x17xf32>, {pad = 1 : i64}>";
        let said = tile_alignment(&tile(odd)).unwrap_err();
        assert!(said.contains("row (its columns) of 68 bytes"), "{said}");
        assert!(
            said.contains("make it 24 with the valid extent 17"),
            "{said}"
        );
        let column = "!pto.tile_buf<\"vec\", tensor<8x1xf16>, {blayout = \"col_major\"}>";
        assert!(tile_alignment(&tile(column)).is_err());
        let i8_row = "!pto.tile_buf<\"vec\", tensor<3x32xi8>, {}>";
        assert!(tile_alignment(&tile(i8_row)).is_ok());
    }

    #[test]
    fn signals_are_static_i32_views() {
        let typed = |s: &str, v: &str| vec![s.to_string(), v.to_string()];
        assert!(signal(&typed("!pto.partition_tensor_view<1x1xi32>", "i32")).is_ok());
        assert!(signal(&typed("!pto.partition_tensor_view<1x1xf32>", "i32")).is_err());
        assert!(signal(&typed("!pto.partition_tensor_view<1x?xi32>", "i32")).is_err());
        assert!(signal(&typed("!pto.partition_tensor_view<1x1xi32>", "index")).is_err());
    }

    #[test]
    fn tiles_fit_the_unified_buffer() {
        let big = "!pto.tile_buf<\"vec\", tensor<1x100000xf32>, {}>";
        let said = tile_fits(&tile(big), 192 * 1024, "a2a3").unwrap_err();
        assert!(
            said.contains("400000 bytes does not fit the 192 KiB"),
            "{said}"
        );
        let fits = "!pto.tile_buf<\"vec\", tensor<1x4096xf32>, {}>";
        assert!(tile_fits(&tile(fits), 192 * 1024, "a2a3").is_ok());
    }
}
