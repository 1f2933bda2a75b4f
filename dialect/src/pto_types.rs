//! Reading the PTO types pld emits (`!pto.ptr`, `!pto.tensor_view`,
//! `!pto.partition_tensor_view`, `!pto.tile_buf`).
//!
//! They are IRDL types, whose parameters the MLIR C API cannot read, so
//! they are read from the text MLIR prints for them; `pto.irdl.mlir` fixes
//! that text's shape. The PTOAS printer and the simulator's lowering both
//! read them here.

/// The parameter text of `prefix<...>`, if `text` is that.
pub fn params<'t>(text: &'t str, prefix: &str) -> Option<&'t str> {
    text.strip_prefix(prefix)?
        .strip_prefix('<')?
        .strip_suffix('>')
}

/// Splits at the commas outside any `<>`, `{}`, `[]` or `()`.
pub fn split_top(text: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (i, c) in text.char_indices() {
        match c {
            '<' | '{' | '[' | '(' => depth += 1,
            '>' | '}' | ']' | ')' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if !text[start..].trim().is_empty() {
        parts.push(&text[start..]);
    }
    parts
}

/// `1x?xf32` -> (["1", "?"], "f32"): the dimensions are the leading
/// `x`-separated runs of digits or `?`; the rest is the element type (which
/// may itself contain an `x`, like `index`).
pub fn split_shape(text: &str) -> Option<(Vec<&str>, &str)> {
    let mut dims = Vec::new();
    let mut rest = text;
    while let Some((dim, tail)) = rest.split_once('x') {
        if dim == "?" || (!dim.is_empty() && dim.bytes().all(|b| b.is_ascii_digit())) {
            dims.push(dim);
            rest = tail;
        } else {
            break;
        }
    }
    (!rest.is_empty()).then_some((dims, rest))
}

/// The element type text of `!pto.ptr<T>`, `!pto.tensor_view<tensor<..xT>>`
/// or `!pto.partition_tensor_view<tensor<..xT>>`.
pub fn element(text: &str) -> Option<&str> {
    if let Some(pointee) = params(text, "!pto.ptr") {
        return Some(pointee);
    }
    let inner =
        params(text, "!pto.tensor_view").or_else(|| params(text, "!pto.partition_tensor_view"))?;
    Some(split_shape(params(inner.trim(), "tensor")?)?.1)
}

/// A `!pto.tile_buf<"loc", tensor<RxCxT>, {props}>`, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TileBuf<'t> {
    /// The memory location, e.g. `vec`.
    pub loc: &'t str,
    /// The shape text, e.g. `1x256xf32`.
    pub shape: &'t str,
    /// The physical dimensions as printed (`?` for dynamic).
    pub dims: Vec<&'t str>,
    /// The element type text.
    pub element: &'t str,
    /// Every property but `valid`, in order, values as printed.
    pub props: Vec<(&'t str, &'t str)>,
    /// The `valid` property: one extent per dimension, `None` for `-1`.
    pub valid: Option<Vec<Option<i64>>>,
}

impl<'t> TileBuf<'t> {
    /// Reads the printed type.
    pub fn parse(text: &'t str) -> Result<Self, String> {
        let inner = params(text.trim(), "!pto.tile_buf")
            .ok_or_else(|| format!("{text} is not a !pto.tile_buf"))?;
        let parts = split_top(inner);
        let [loc, tensor, props] = parts.as_slice() else {
            return Err(format!("malformed tile buffer parameters <{inner}>"));
        };
        let shape = params(tensor.trim(), "tensor")
            .ok_or_else(|| format!("expected a tensor type, got {tensor}"))?;
        let (dims, element) =
            split_shape(shape).ok_or_else(|| format!("malformed tile shape {shape}"))?;
        let props = props
            .trim()
            .strip_prefix('{')
            .and_then(|p| p.strip_suffix('}'))
            .ok_or_else(|| format!("malformed tile buffer properties {props}"))?;
        let mut buffer = TileBuf {
            loc: loc.trim().trim_matches('"'),
            shape,
            dims,
            element,
            props: Vec::new(),
            valid: None,
        };
        for entry in split_top(props) {
            let Some((key, value)) = entry.split_once('=') else {
                continue;
            };
            let (key, value) = (key.trim(), value.trim());
            if key == "valid" {
                buffer.valid = Some(valid_extents(value)?);
            } else {
                buffer.props.push((key, value));
            }
        }
        Ok(buffer)
    }

    /// The static physical `[rows, cols]` of a 2-D tile.
    pub fn rows_cols(&self) -> Option<(i64, i64)> {
        match self.dims.as_slice() {
            [rows, cols] => Some((rows.parse().ok()?, cols.parse().ok()?)),
            _ => None,
        }
    }
}

/// `array<i64: 1, -1>` -> `[Some(1), None]`.
fn valid_extents(text: &str) -> Result<Vec<Option<i64>>, String> {
    let body = params(text, "array")
        .and_then(|b| b.strip_prefix("i64:"))
        .ok_or_else(|| format!("malformed valid shape {text}"))?;
    body.split(',')
        .map(|v| {
            v.trim()
                .parse::<i64>()
                .map(|n| (n >= 0).then_some(n))
                .map_err(|_| format!("malformed valid shape {text}"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_tile_buffers() {
        let tile = TileBuf::parse(
            "!pto.tile_buf<\"vec\", tensor<8x1xf16>, {blayout = \"col_major\", valid = array<i64: 8, -1>}>",
        )
        .unwrap();
        assert_eq!(tile.loc, "vec");
        assert_eq!(tile.shape, "8x1xf16");
        assert_eq!(tile.element, "f16");
        assert_eq!(tile.rows_cols(), Some((8, 1)));
        assert_eq!(tile.props, [("blayout", "\"col_major\"")]);
        assert_eq!(tile.valid, Some(vec![Some(8), None]));
        assert!(TileBuf::parse("!pto.tile_buf<\"vec\">").is_err());
        assert!(TileBuf::parse("!pto.ptr<f32>").is_err());
    }

    #[test]
    fn reads_elements_and_shapes() {
        assert_eq!(element("!pto.ptr<i64>"), Some("i64"));
        assert_eq!(element("!pto.tensor_view<tensor<?x?xf32>>"), Some("f32"));
        assert_eq!(
            element("!pto.partition_tensor_view<tensor<1x2xindex>>"),
            Some("index")
        );
        assert_eq!(split_shape("2x?xindex"), Some((vec!["2", "?"], "index")));
        assert_eq!(
            split_top("a<b, c>, {d, e}, f"),
            ["a<b, c>", " {d, e}", " f"]
        );
    }
}
