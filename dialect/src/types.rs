//! Tensor kinds and their properties.
//!
//! pld tensors are builtin ranked tensors whose encoding says what they are
//! (see the header of `pld.irdl.mlir`): no encoding or `#pld.view<..>` is a
//! plain tensor, `#pld.dist` / `#pld.dist_with<..>` a distributed
//! (window-bound) tensor, `#pld.tile` / `#pld.tile_with<..>` an on-chip tile.

use melior::ir::{r#type::RankedTensorType, Attribute, Type, TypeLike, Value, ValueLike};
use pld_ir::attr;
use std::fmt;

/// What a tensor-typed value is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TensorKind {
    /// An ordinary global-memory tensor.
    Plain,
    /// A window-bound distributed tensor.
    Distributed,
    /// An on-chip tile.
    Tile,
}

impl fmt::Display for TensorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TensorKind::Plain => "plain tensor",
            TensorKind::Distributed => "distributed tensor",
            TensorKind::Tile => "tile",
        })
    }
}

/// Memory layout of a tensor view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    Nd,
    Dn,
    Nz,
    MxAZz,
    MxBNn,
}

impl Layout {
    pub fn parse(text: &str) -> Option<Self> {
        Some(match text {
            "nd" => Layout::Nd,
            "dn" => Layout::Dn,
            "nz" => Layout::Nz,
            "mx_a_zz" => Layout::MxAZz,
            "mx_b_nn" => Layout::MxBNn,
            _ => return None,
        })
    }

    /// The attribute spelling: `nd`, `dn`, `nz`, `mx_a_zz`, `mx_b_nn`.
    pub fn name(self) -> &'static str {
        match self {
            Layout::Nd => "nd",
            Layout::Dn => "dn",
            Layout::Nz => "nz",
            Layout::MxAZz => "mx_a_zz",
            Layout::MxBNn => "mx_b_nn",
        }
    }

    /// The MX (microscaling) layouts, which remote loads do not support.
    pub fn is_mx(self) -> bool {
        matches!(self, Layout::MxAZz | Layout::MxBNn)
    }
}

/// Block layout of a tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BLayout {
    RowMajor,
    ColMajor,
}

/// Everything the verifier and the passes read off a tensor type.
#[derive(Clone, Debug)]
pub struct TensorInfo<'c> {
    pub kind: TensorKind,
    /// Extents; `None` for a dynamic (`?`) dimension.
    pub shape: Vec<Option<i64>>,
    pub element: Type<'c>,
    /// Explicit layout (`None` = the default, ND).
    pub layout: Option<Layout>,
    /// Explicit element strides.
    pub strides: Option<Vec<i64>>,
    /// Explicit valid region; for tiles -1 marks a runtime extent.
    pub valid_shape: Option<Vec<i64>>,
    /// Window buffer a distributed view is bound to.
    pub window: Option<String>,
    /// Explicit block layout of a tile (`None` = row-major).
    pub blayout: Option<BLayout>,
}

impl<'c> TensorInfo<'c> {
    pub fn rank(&self) -> usize {
        self.shape.len()
    }

    pub fn is_distributed(&self) -> bool {
        self.kind == TensorKind::Distributed
    }

    /// Static extent of dimension `i`.
    pub fn dim(&self, i: usize) -> Option<i64> {
        self.shape.get(i).copied().flatten()
    }

    /// Number of elements when the shape is static.
    pub fn static_numel(&self) -> Option<i64> {
        self.shape
            .iter()
            .try_fold(1i64, |acc, d| acc.checked_mul((*d)?))
    }

    /// The element type's name, e.g. `f32`.
    pub fn dtype(&self) -> String {
        self.element.to_string()
    }

    /// Packed row-major strides, when the shape is static.
    pub fn packed_strides(&self) -> Option<Vec<i64>> {
        let mut strides = vec![1i64; self.rank()];
        for i in (0..self.rank().saturating_sub(1)).rev() {
            strides[i] = strides[i + 1].checked_mul(self.dim(i + 1)?)?;
        }
        Some(strides)
    }

    /// The region a reader may touch: the valid shape where one is given,
    /// else the shape.
    pub fn effective_valid(&self) -> Vec<Option<i64>> {
        match &self.valid_shape {
            Some(valid) => valid.iter().map(|v| (*v >= 0).then_some(*v)).collect(),
            None => self.shape.clone(),
        }
    }
}

/// Classifies a type. `Ok(None)` for a type that is not a ranked tensor;
/// `Err` with a message when the encoding is not one of pld's or its
/// properties are malformed.
pub fn tensor_info(ty: Type<'_>) -> Result<Option<TensorInfo<'_>>, String> {
    let Ok(tensor) = RankedTensorType::try_from(ty) else {
        return Ok(None);
    };
    let shape = pld_ir::types::tensor_shape(tensor);
    let element = pld_ir::types::tensor_element(tensor);
    let mut info = TensorInfo {
        kind: TensorKind::Plain,
        shape,
        element,
        layout: None,
        strides: None,
        valid_shape: None,
        window: None,
        blayout: None,
    };
    let Some(encoding) = tensor.encoding() else {
        return Ok(Some(info));
    };
    // Printed once: printing an attribute is the slow part.
    let printed = encoding.to_string();
    let props = match printed.as_str() {
        "#pld.dist" => {
            info.kind = TensorKind::Distributed;
            None
        }
        "#pld.tile" => {
            info.kind = TensorKind::Tile;
            None
        }
        _ => {
            let (kind, text) = [
                (TensorKind::Distributed, "pld.dist_with"),
                (TensorKind::Plain, "pld.view"),
                (TensorKind::Tile, "pld.tile_with"),
            ]
            .into_iter()
            .find_map(|(kind, m)| Some((kind, attr::printed_params(&printed, m)?)))
            .ok_or_else(|| format!("tensor encoding {encoding} is not a pld encoding"))?;
            info.kind = kind;
            Some(
                pld_ir::types::parse_attribute_beside(encoding, text)
                    .ok_or_else(|| format!("malformed properties in tensor encoding {encoding}"))?,
            )
        }
    };
    if let Some(props) = props {
        read_props(&mut info, props)?;
    }
    fits_a_byte_count(&info, ty)?;
    Ok(Some(info))
}

/// A pld tensor's static extents and element size must multiply to a byte
/// count that a signed 64-bit size holds (every rail addresses it so), or
/// the sizes computed from it overflow.
fn fits_a_byte_count(info: &TensorInfo, ty: Type) -> Result<(), String> {
    let element = pld_ir::types::byte_width(info.element).unwrap_or(1).max(1);
    let bytes = info
        .shape
        .iter()
        .flatten()
        .try_fold(element, |total, &extent| total.checked_mul(extent));
    match bytes {
        Some(_) => Ok(()),
        None => Err(format!(
            "{ty} holds more bytes than a 64-bit size counts ({} x {element} bytes)",
            info.shape
                .iter()
                .map(|d| d.map_or("?".to_string(), |d| d.to_string()))
                .collect::<Vec<_>>()
                .join(" x ")
        )),
    }
}

/// Classifies the type of a value.
pub fn value_info<'c>(value: Value<'c, '_>) -> Result<Option<TensorInfo<'c>>, String> {
    tensor_info(value.r#type())
}

/// The tensor a collective's operand must be, or the error that it is not.
pub fn operand_tensor<'c>(value: Value<'c, '_>) -> Result<TensorInfo<'c>, String> {
    value_info(value)
        .ok()
        .flatten()
        .ok_or_else(|| "operand is not a tensor".to_string())
}

fn read_props(info: &mut TensorInfo, props: Attribute) -> Result<(), String> {
    let entries = attr::dictionary(props).ok_or("tensor properties must be a dictionary")?;
    let rank = info.rank();
    for (key, value) in entries {
        match (info.kind, key.as_str()) {
            (TensorKind::Distributed | TensorKind::Plain, "layout") => {
                let text = attr::string(value).ok_or("layout must be a string")?;
                info.layout = Some(Layout::parse(&text).ok_or_else(|| {
                    format!("unknown layout \"{text}\" (expected nd, dn, nz, mx_a_zz or mx_b_nn)")
                })?);
            }
            (TensorKind::Distributed | TensorKind::Plain, "strides") => {
                let strides = attr::i64_array(value).ok_or("strides must be array<i64: ...>")?;
                if strides.len() != rank {
                    return Err(format!(
                        "strides has {} entries but the tensor has rank {rank}",
                        strides.len()
                    ));
                }
                info.strides = Some(strides);
            }
            (_, "valid_shape") => {
                let valid = attr::i64_array(value).ok_or("valid_shape must be array<i64: ...>")?;
                if valid.len() != rank {
                    return Err(format!(
                        "valid_shape has {} entries but the tensor has rank {rank}",
                        valid.len()
                    ));
                }
                for (i, v) in valid.iter().enumerate() {
                    let dynamic_ok = info.kind == TensorKind::Tile && *v == -1;
                    if *v < 0 && !dynamic_ok {
                        return Err(format!("valid_shape[{i}] = {v} is negative"));
                    }
                    if let Some(d) = info.dim(i) {
                        if *v > d {
                            return Err(format!(
                                "valid_shape[{i}] = {v} exceeds the dimension ({d})"
                            ));
                        }
                    }
                }
                // A valid region covering the whole shape says nothing: it is
                // canonicalised away (docs/passes/pld-lower-composite-ops.md), so every consumer sees one
                // spelling of "fully valid".
                let covers_all = valid.iter().zip(&info.shape).all(|(v, d)| Some(*v) == *d);
                info.valid_shape = (!covers_all).then_some(valid);
            }
            (TensorKind::Distributed, "window") => {
                let name = attr::string(value).ok_or("window must be a string")?;
                if name.is_empty() {
                    return Err("window name must not be empty".into());
                }
                info.window = Some(name);
            }
            (TensorKind::Tile, "blayout") => {
                info.blayout = Some(match attr::string(value).as_deref() {
                    Some("row_major") => BLayout::RowMajor,
                    Some("col_major") => BLayout::ColMajor,
                    _ => return Err("blayout must be \"row_major\" or \"col_major\"".into()),
                });
            }
            (kind, other) => {
                return Err(format!("unknown {kind} property '{other}'"));
            }
        }
    }
    Ok(())
}

/// Whether a type is a scalar integer (`iN`) or `index`.
pub fn is_int_or_index(ty: Type) -> bool {
    ty.is_integer() || ty.is_index()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info<'c>(context: &'c melior::Context, text: &str) -> Result<TensorInfo<'c>, String> {
        let ty = Type::parse(context, text).expect("type parses");
        tensor_info(ty).map(|i| i.expect("a tensor"))
    }

    #[test]
    fn kinds() {
        let context = crate::context();
        assert_eq!(
            info(&context, "tensor<4xf32>").unwrap().kind,
            TensorKind::Plain
        );
        let d = info(&context, "tensor<?x1xi32, #pld.dist>").unwrap();
        assert_eq!(d.kind, TensorKind::Distributed);
        assert_eq!(d.shape, vec![None, Some(1)]);
        assert_eq!(d.dtype(), "i32");
        let t = info(&context, "tensor<1x256xf16, #pld.tile>").unwrap();
        assert_eq!(t.kind, TensorKind::Tile);
        assert!(Type::parse(&context, "i32")
            .map(tensor_info)
            .unwrap()
            .unwrap()
            .is_none());
    }

    #[test]
    fn properties() {
        let context = crate::context();
        let d = info(
            &context,
            r#"tensor<2x8xf32, #pld.dist_with<{layout = "dn", valid_shape = array<i64: 2, 4>, window = "buf"}>>"#,
        )
        .unwrap();
        assert_eq!(d.layout, Some(Layout::Dn));
        assert_eq!(d.valid_shape, Some(vec![2, 4]));
        assert_eq!(d.window.as_deref(), Some("buf"));
        assert_eq!(d.packed_strides(), Some(vec![8, 1]));
        // A valid region equal to the shape is the same as none.
        let full = info(
            &context,
            r#"tensor<2x8xf32, #pld.dist_with<{valid_shape = array<i64: 2, 8>}>>"#,
        )
        .unwrap();
        assert_eq!(full.valid_shape, None);
        let dynamic = info(
            &context,
            r#"tensor<?x8xf32, #pld.dist_with<{valid_shape = array<i64: 2, 8>}>>"#,
        )
        .unwrap();
        assert_eq!(dynamic.valid_shape, Some(vec![2, 8]));
        let err = info(
            &context,
            r#"tensor<2x8xf32, #pld.dist_with<{valid_shape = array<i64: 3, 4>}>>"#,
        )
        .unwrap_err();
        assert!(err.contains("exceeds"), "{err}");
        let err = info(&context, r#"tensor<2x8xf32, #pld.view<{window = "b"}>>"#).unwrap_err();
        assert!(
            err.contains("unknown plain tensor property 'window'"),
            "{err}"
        );
    }
}
