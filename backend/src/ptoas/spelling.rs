//! How PTOAS spells our PTO types and attributes.
//!
//! The IRDL definitions in `dialect/irdl/pto.irdl.mlir` can only print
//! their parameters generically (`!pto.tensor_view<tensor<?x?xf32>>`,
//! `#pto.notify_op<"set">`); PTOAS parses its own custom forms
//! (`!pto.tensor_view<?x?xf32>`, `#pto<notify_op set>`). The IRDL
//! parameters have no C API, so the translation reads MLIR's printed text,
//! whose shape our IRDL file fixes.

use pld_dialect::pto_types::{params, split_shape, TileBuf};
use std::fmt::Write;

/// The PTOAS spelling of a type: the PTO types, and the builtin scalars
/// (integers, floats, `index`) as MLIR prints them. Anything else (tensors,
/// memrefs, other dialects' types) has no place in a PTO kernel.
pub fn type_(text: &str) -> Result<String, String> {
    let unsupported = || Err(format!("type {text} has no PTOAS spelling"));
    if let Some(inner) = params(text, "!pto.tensor_view") {
        return Ok(format!("!pto.tensor_view<{}>", shaped(inner)?));
    }
    if let Some(inner) = params(text, "!pto.partition_tensor_view") {
        return Ok(format!("!pto.partition_tensor_view<{}>", shaped(inner)?));
    }
    if params(text, "!pto.tile_buf").is_some() {
        return tile_buf(text);
    }
    // The async handles have no parameters: spelled alike.
    if matches!(text, "!pto.async_session" | "!pto.async_event") {
        return Ok(text.to_string());
    }
    if let Some(element) = params(text, "!pto.ptr") {
        return if scalar(element) {
            Ok(text.to_string())
        } else {
            unsupported()
        };
    }
    if scalar(text) {
        return Ok(text.to_string());
    }
    unsupported()
}

/// `index`, `iN`/`siN`/`uiN`, or a builtin float (`f16`, `bf16`, `f32`, ...).
fn scalar(text: &str) -> bool {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    text == "index"
        || ["i", "si", "ui"]
            .iter()
            .any(|p| text.strip_prefix(p).is_some_and(digits))
        || matches!(text, "f16" | "bf16" | "f32" | "f64" | "tf32")
        || text.starts_with("f8")
}

/// `tensor<1x?xf32>` -> `1x?xf32`; the shape must be plain (no encoding)
/// with a scalar element.
fn shaped(text: &str) -> Result<&str, String> {
    let inner = params(text.trim(), "tensor")
        .ok_or_else(|| format!("expected a tensor type, got {text}"))?;
    match split_shape(inner) {
        Some((_, element)) if scalar(element) => Ok(inner),
        _ => Err(format!("shape {text} has no PTOAS spelling")),
    }
}

/// `!pto.tile_buf<"vec", tensor<1x256xf32>, {pad = 1 : i64, valid =
/// array<i64: -1, -1>}>` -> `!pto.tile_buf<vec, 1x256xf32, valid=?x?,
/// pad=1>`: the compact form, with fields at their defaults left out.
fn tile_buf(text: &str) -> Result<String, String> {
    let tile = TileBuf::parse(text)?;
    super::rules::tile_alignment(&tile)?;
    let shape = shaped(&format!("tensor<{}>", tile.shape))?.to_string();
    if tile.dims.len() != 2 || tile.dims.contains(&"?") {
        return Err(format!(
            "PTO tile buffers have a static 2-D physical shape, not {shape}"
        ));
    }
    let mut out = format!("!pto.tile_buf<{}, {shape}", tile.loc);
    if let Some(valid) = &tile.valid {
        let spelled: Vec<String> = valid
            .iter()
            .map(|v| v.map_or("?".to_string(), |n| n.to_string()))
            .collect();
        if valid.len() != tile.dims.len() {
            return Err(format!(
                "tile valid shape {} does not match {shape}",
                spelled.join("x")
            ));
        }
        if spelled.iter().zip(&tile.dims).any(|(v, p)| v != p) {
            write!(out, ", valid={}", spelled.join("x")).expect("string write");
        }
    }
    for (key, value) in &tile.props {
        if !matches!(*key, "blayout" | "slayout" | "fractal" | "pad" | "compact") {
            return Err(format!(
                "tile buffer property '{key}' has no PTOAS spelling"
            ));
        }
        // `1 : i64` -> `1`, `"col_major"` -> `col_major`.
        let bare = value.split(" : ").next().unwrap_or(value).trim_matches('"');
        write!(out, ", {key}={bare}").expect("string write");
    }
    out.push('>');
    Ok(out)
}

/// A PTO enum attribute `#pto.<kind><"value">`, split.
pub fn enum_attribute(text: &str) -> Option<(&str, &str)> {
    let rest = text.strip_prefix("#pto.")?;
    let (kind, value) = rest.split_once('<')?;
    Some((kind, value.strip_suffix('>')?.trim_matches('"')))
}

/// The PTOAS spelling of a PTO attribute inside an attribute dictionary:
/// the ODS `EnumAttr`s print as `#pto<kind value>`, the ones with their own
/// assembly format as `#pto.kind<value>` (docs/tools/pld-translate.md).
pub fn attribute(text: &str) -> String {
    match enum_attribute(text) {
        Some((
            kind @ ("notify_op" | "wait_cmp" | "atomic_type" | "reduce_op" | "dma_engine"),
            value,
        )) => {
            format!("#pto<{kind} {value}>")
        }
        Some((kind, value)) => format!("#pto.{kind}<{value}>"),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn views_drop_the_inner_tensor() {
        assert_eq!(
            type_("!pto.tensor_view<tensor<?x?xf32>>").unwrap(),
            "!pto.tensor_view<?x?xf32>"
        );
        assert_eq!(
            type_("!pto.partition_tensor_view<tensor<1x1xi32>>").unwrap(),
            "!pto.partition_tensor_view<1x1xi32>"
        );
        assert_eq!(type_("!pto.ptr<i64>").unwrap(), "!pto.ptr<i64>");
        assert_eq!(type_("index").unwrap(), "index");
        assert_eq!(type_("i1").unwrap(), "i1");
        assert_eq!(type_("bf16").unwrap(), "bf16");
        for bad in [
            "!pld.ctx",
            "tensor<1x64xf32, #pld.dist>",
            "memref<4xf32>",
            "!pto.ptr<!pld.ctx>",
            "!pto.tensor_view<tensor<?x?xf32, \"enc\">>",
        ] {
            assert!(type_(bad).is_err(), "{bad}");
        }
        assert_eq!(
            type_("!pto.tensor_view<tensor<?x4xindex>>").unwrap(),
            "!pto.tensor_view<?x4xindex>"
        );
    }

    #[test]
    fn tile_buffers_print_compact() {
        assert_eq!(
            type_("!pto.tile_buf<\"vec\", tensor<1x4096xf32>, {pad = 1 : i64, valid = array<i64: -1, -1>}>")
                .unwrap(),
            "!pto.tile_buf<vec, 1x4096xf32, valid=?x?, pad=1>"
        );
        assert_eq!(
            type_("!pto.tile_buf<\"vec\", tensor<16x64xf16>, {valid = array<i64: 16, 64>}>")
                .unwrap(),
            "!pto.tile_buf<vec, 16x64xf16>"
        );
        assert_eq!(
            type_("!pto.tile_buf<\"vec\", tensor<16x1xf16>, {blayout = \"col_major\", valid = array<i64: 8, -1>}>")
                .unwrap(),
            "!pto.tile_buf<vec, 16x1xf16, valid=8x?, blayout=col_major>"
        );
    }

    #[test]
    fn tile_buffers_are_static_2d_with_known_properties() {
        for bad in [
            "!pto.tile_buf<\"vec\", tensor<256xf32>, {}>",
            "!pto.tile_buf<\"vec\", tensor<?x16xf32>, {}>",
            "!pto.tile_buf<\"vec\", tensor<1x16xf32>, {bogus = 1 : i64}>",
        ] {
            assert!(type_(bad).is_err(), "{bad}");
        }
        assert_eq!(
            type_("!pto.tile_buf<\"vec\", tensor<2x8xindex>, {valid = array<i64: 2, 8>}>").unwrap(),
            "!pto.tile_buf<vec, 2x8xindex>"
        );
    }

    #[test]
    fn enum_attributes_follow_their_definition_kind() {
        assert_eq!(
            attribute("#pto.notify_op<\"atomic_add\">"),
            "#pto<notify_op atomic_add>"
        );
        assert_eq!(attribute("#pto.wait_cmp<\"ge\">"), "#pto<wait_cmp ge>");
        assert_eq!(attribute("#pto.layout<\"nd\">"), "#pto.layout<nd>");
        assert_eq!(
            attribute("#pto.kernel_kind<\"vector\">"),
            "#pto.kernel_kind<vector>"
        );
        assert_eq!(
            enum_attribute("#pto.pipe<\"PIPE_ALL\">"),
            Some(("pipe", "PIPE_ALL"))
        );
    }
}
