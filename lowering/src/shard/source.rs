//! Reading the shard dialect: grids, the collectives' attributes,
//! shardings and tensor types, each with the message that says why a
//! value cannot be converted (reported at the op by the caller).

use super::grid::{Grid, Groups};
use super::types::TensorType;
use melior::ir::{
    operation::OperationLike, r#type::RankedTensorType, OperationRef, TypeLike, Value,
};
use pld_dialect::{enums::ReduceOp, ops::builtin::RING_MAX_RANKS};
use pld_ir::attr;

/// Why something cannot be converted.
pub type Refusal = String;

/// The static type of a tensor value.
pub fn tensor_type(value: Value) -> Result<TensorType, Refusal> {
    let ty = pld_ir::type_of(value);
    let Ok(tensor) = RankedTensorType::try_from(ty) else {
        return Err(format!(
            "works on {ty}; convert-shard-to-pld converts ranked tensors only"
        ));
    };
    let mut shape = Vec::new();
    for dim in pld_ir::types::tensor_shape(tensor) {
        match dim {
            Some(d) if d >= 0 => shape.push(d as usize),
            _ => {
                return Err(format!(
                    "works on {ty}, which has a dynamic dimension; convert-shard-to-pld needs static shapes"
                ))
            }
        }
    }
    if tensor.encoding().is_some() {
        return Err(format!("works on {ty}, a tensor with an encoding"));
    }
    let elem = pld_ir::types::tensor_element(tensor);
    let Some(bytes) = pld_ir::types::byte_width(elem).filter(|_| !elem.is_index()) else {
        return Err(format!(
            "works on elements of type {elem}, which pld cannot hold"
        ));
    };
    if shape.contains(&0) {
        return Err(format!(
            "works on {ty}, which has no elements; convert-shard-to-pld needs tensors of at least one element (a pld window buffer is never empty)"
        ));
    }
    let size = shape
        .iter()
        .try_fold(bytes as u64, |acc, d| acc.checked_mul(*d as u64));
    if size.is_none_or(|size| size > 1 << MAX_TENSOR_BITS) {
        return Err(format!(
            "works on {ty}, which is larger than the 2^{MAX_TENSOR_BITS} bytes convert-shard-to-pld converts (a collective's scratch holds up to {RING_MAX_RANKS} such tensors, and window sizes are 64-bit integers)"
        ));
    }
    Ok(TensorType::new(shape, &elem.to_string(), bytes as usize))
}

/// The largest tensor converted is `2^MAX_TENSOR_BITS` bytes: a
/// collective's scratch holds one copy per device of a group (at most
/// [`RING_MAX_RANKS`], 2^6), so a scratch buffer stays below 2^62 bytes and
/// every window size and offset fits an `i64`.
pub const MAX_TENSOR_BITS: u32 = 56;

/// The grid a `shard.grid` op defines.
pub fn grid(op: OperationRef) -> Result<Grid, Refusal> {
    let name = pld_ir::symbol_name(op).unwrap_or_default();
    let shape = op
        .attribute("shape")
        .ok()
        .and_then(attr::i64_array)
        .ok_or("has no shape")?;
    if shape.iter().any(|d| *d < 0) {
        let dims: Vec<String> = shape
            .iter()
            .map(|d| if *d < 0 { "?".into() } else { d.to_string() })
            .collect();
        return Err(format!(
            "has the dynamic shape {}; convert-shard-to-pld needs a static grid (the device count of a pld program is fixed)",
            dims.join("x")
        ));
    }
    if shape.is_empty() || shape.contains(&0) {
        return Err("has no devices".into());
    }
    let devices = shape.iter().try_fold(1i64, |acc, d| acc.checked_mul(*d));
    if devices.is_none_or(|n| n > RING_MAX_RANKS) {
        return Err(format!(
            "has more devices than the {RING_MAX_RANKS} a pld comm domain holds (the CommContext's capacity)"
        ));
    }
    Ok(Grid {
        name,
        shape: shape.into_iter().map(|d| d as usize).collect(),
    })
}

/// The grid an op names (`on @g`), by symbol.
pub fn grid_name(op: OperationRef) -> Option<String> {
    attr::flat_symbol(op.attribute("grid").ok()?)
}

/// The `grid_axes` (or `axes`) of an op on `grid`, checked.
pub fn axes(op: OperationRef, attribute: &str, grid: &Grid) -> Result<Vec<usize>, Refusal> {
    let Ok(value) = op.attribute(attribute) else {
        return Ok(Vec::new());
    };
    let raw = attr::i16_array(value).ok_or(format!("has a malformed {attribute}"))?;
    let mut axes = Vec::new();
    for axis in raw {
        match usize::try_from(axis) {
            Ok(a) if a < grid.shape.len() && !axes.contains(&a) => axes.push(a),
            _ => {
                return Err(format!(
                    "names grid axis {axis}, which grid @{} of rank {} does not have once",
                    grid.name,
                    grid.shape.len()
                ))
            }
        }
    }
    Ok(axes)
}

/// The groups of a collective.
pub fn groups(op: OperationRef, grid: &Grid) -> Result<Groups, Refusal> {
    Ok(grid.groups(&axes(op, "grid_axes", grid)?))
}

/// An index attribute (`gather_axis = 1`) that must name a dimension of a
/// rank-`rank` tensor.
pub fn tensor_axis(op: OperationRef, name: &str, rank: usize) -> Result<usize, Refusal> {
    let value = op
        .attribute(name)
        .ok()
        .and_then(attr::int)
        .ok_or(format!("has no {name}"))?;
    usize::try_from(value)
        .ok()
        .filter(|a| *a < rank)
        .ok_or(format!(
            "has {name} = {value}, not a dimension of its rank-{rank} tensor"
        ))
}

/// The `reduction` of an all_reduce or reduce_scatter as a pld reduce op.
pub fn reduction(op: OperationRef) -> Result<ReduceOp, Refusal> {
    let Ok(value) = op.attribute("reduction") else {
        return Ok(ReduceOp::Sum);
    };
    let text = value.to_string();
    let kind = text
        .strip_prefix("#shard<partial ")
        .and_then(|k| k.strip_suffix('>'))
        .unwrap_or(&text)
        .trim();
    match kind {
        "sum" => Ok(ReduceOp::Sum),
        "max" => Ok(ReduceOp::Max),
        "min" => Ok(ReduceOp::Min),
        "product" => Ok(ReduceOp::Prod),
        other => Err(format!(
            "has reduction = {other}, which no pld collective computes: pld reduces by sum, max, min and product"
        )),
    }
}
