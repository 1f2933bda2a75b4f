//! Readers for builtin types that melior does not expose.

use melior::ir::{r#type::RankedTensorType, Attribute, AttributeLike, Type, TypeLike};

/// The shape of a ranked tensor, `None` for each dynamic dimension.
pub fn tensor_shape(tensor: RankedTensorType) -> Vec<Option<i64>> {
    let raw = tensor.to_raw();
    // SAFETY: `raw` is a live ranked tensor type; dimension indices come
    // from its own rank.
    unsafe {
        let rank = mlir_sys::mlirShapedTypeGetRank(raw) as isize;
        (0..rank)
            .map(|i| {
                (!mlir_sys::mlirShapedTypeIsDynamicDim(raw, i))
                    .then(|| mlir_sys::mlirShapedTypeGetDimSize(raw, i))
            })
            .collect()
    }
}

/// The element type of a ranked tensor.
pub fn tensor_element<'c>(tensor: RankedTensorType<'c>) -> Type<'c> {
    // SAFETY: a shaped type always has an element type, uniqued in the
    // same context.
    unsafe { Type::from_raw(mlir_sys::mlirShapedTypeGetElementType(tensor.to_raw())) }
}

/// Width in bits of an integer or float type (64 for `index`).
pub fn bit_width(ty: Type) -> Option<u32> {
    let raw = ty.to_raw();
    // SAFETY: each width accessor is called after its kind check.
    unsafe {
        if mlir_sys::mlirTypeIsAInteger(raw) {
            Some(mlir_sys::mlirIntegerTypeGetWidth(raw))
        } else if mlir_sys::mlirTypeIsAFloat(raw) {
            Some(mlir_sys::mlirFloatTypeGetWidth(raw))
        } else if mlir_sys::mlirTypeIsAIndex(raw) {
            Some(64)
        } else {
            None
        }
    }
}

/// Bytes one element of an integer or float type occupies (a sub-byte type
/// rounds up to 1).
pub fn byte_width(ty: Type) -> Option<i64> {
    bit_width(ty).map(|bits| (i64::from(bits) + 7) / 8)
}

/// Parses `text` as an attribute in the context that owns `context_of`
/// (for readers that only hold an attribute, not the context).
pub fn parse_attribute_beside<'c>(context_of: Attribute<'c>, text: &str) -> Option<Attribute<'c>> {
    // SAFETY: the context of a live attribute is live; the text reference
    // outlives the call, and a null result (parse error) is checked.
    unsafe {
        let context = mlir_sys::mlirAttributeGetContext(context_of.to_raw());
        let raw = mlir_sys::mlirAttributeParseGet(context, crate::parse::string_ref(text));
        (!raw.ptr.is_null()).then(|| Attribute::from_raw(raw))
    }
}

/// A key that tells types apart while their context lives (types are
/// uniqued, so equal types have equal keys): for per-run caches.
pub fn type_key(ty: Type) -> usize {
    ty.to_raw().ptr as usize
}
