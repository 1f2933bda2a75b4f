//! Local tile ops the composite (InCore) rail expands collectives into.

use super::pld_op;
use crate::enums::ReduceOp;

pld_op! {
    /// `%v = pld.tensor_view(%t, dynamic dims..., valid...)`: a packed tensor
    /// seen in another shape.
    TensorView, TensorViewBuilder = "pld.tensor_view" {
        source: one, dynamic_sizes: many, valid_shape: many
    }
}

pld_op! {
    /// `%v = pld.tensor_read(%t, indices...)`: one element (a scalar load).
    TensorRead, TensorReadBuilder = "pld.tensor_read" { source: one, indices: many }
}

pld_op! {
    /// `%t = pld.tile_create`: an uninitialised tile.
    TileCreate, TileCreateBuilder = "pld.tile_create" {}
}

pld_op! {
    /// `%t = pld.tile_load(%src, offsets..., valid...)`: a local load.
    TileLoad, TileLoadBuilder = "pld.tile_load" { source: one, offsets: many, valid_shape: many }
}

pld_op! {
    /// `pld.tile_store(%t, %dst, offsets...)`: stores the valid region.
    TileStore, TileStoreBuilder = "pld.tile_store" { tile: one, target: one, offsets: many }
}

pld_op! {
    /// `%f = pld.tile_fillpad(%t)`: fully valid, padding zeroed.
    TileFillPad, TileFillPadBuilder = "pld.tile_fillpad" { tile: one }
}

pld_op! {
    /// `%v = pld.tile_set_validshape(%t, valid...)`.
    TileSetValidShape, TileSetValidShapeBuilder = "pld.tile_set_validshape" {
        tile: one, valid_shape: many
    }
}

pld_op! { TileAdd, TileAddBuilder = "pld.tile_add" { lhs: one, rhs: one } }
pld_op! { TileMaximum, TileMaximumBuilder = "pld.tile_maximum" { lhs: one, rhs: one } }
pld_op! { TileMinimum, TileMinimumBuilder = "pld.tile_minimum" { lhs: one, rhs: one } }
pld_op! { TileMul, TileMulBuilder = "pld.tile_mul" { lhs: one, rhs: one } }

/// The elementwise tile op of a reduction (docs/dialect.md 3: Sum -> tile.add, ...).
pub fn reduction_op(op: ReduceOp) -> &'static str {
    match op {
        ReduceOp::Sum => TileAdd::NAME,
        ReduceOp::Max => TileMaximum::NAME,
        ReduceOp::Min => TileMinimum::NAME,
        ReduceOp::Prod => TileMul::NAME,
    }
}

/// Names of the elementwise tile ops.
pub const ELEMENTWISE: &[&str] = &[
    TileAdd::NAME,
    TileMaximum::NAME,
    TileMinimum::NAME,
    TileMul::NAME,
];
