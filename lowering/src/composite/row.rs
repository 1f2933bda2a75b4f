//! One row of a distributed tensor read into fill-padded `1 x C` tiles:
//! the loads the mesh and ring allreduces share (docs/passes/
//! pld-lower-composite-ops.md, "Chunks and tails").

use super::comm::Comm;
use super::geometry;
use melior::ir::{Type, Value};
use pld_dialect::ops::{
    remote::{RemoteLoad, RemoteLoadTailPadded},
    tile::{TensorView, TileFillPad, TileLoad, TileSetValidShape},
};
use pld_ir::build::Builder;

/// `target` viewed as one row of `length` elements of `dtype` (a static
/// type when `static_length` is known).
pub fn view_as_row<'c, 'a>(
    b: &Builder<'c, 'a>,
    target: Value<'c, 'a>,
    static_length: Option<i64>,
    length: Value<'c, 'a>,
    dtype: &str,
) -> Value<'c, 'a>
where
    'c: 'a,
{
    let (row_type, dynamic) = match static_length {
        Some(n) => (format!("tensor<1x{n}x{dtype}, #pld.dist>"), vec![]),
        None => (format!("tensor<1x?x{dtype}, #pld.dist>"), vec![length]),
    };
    b.value(
        TensorView::builder(b.context, b.location)
            .source(target)
            .dynamic_sizes(&dynamic)
            .valid_shape(&[])
            .result(b.parse_type(&row_type))
            .build(),
    )
}

/// The row and the two tile types its chunks are loaded as.
#[derive(Clone, Copy)]
pub struct RowTiles<'c, 'a> {
    /// The target viewed as one row of N elements.
    pub row: Value<'c, 'a>,
    /// A full `1 x C` tile.
    pub tile: Type<'c>,
    /// A `1 x C` tile whose valid columns are known at run time.
    pub ragged: Type<'c>,
    /// FP16 data: remote loads read whole 32-byte blocks.
    pub fp16: bool,
}

impl<'c, 'a> RowTiles<'c, 'a>
where
    'c: 'a,
{
    /// The tiles of `cols` columns of `dtype` (`f16` or `f32`) for `row`.
    pub fn new(b: &Builder<'c, 'a>, row: Value<'c, 'a>, cols: i64, dtype: &str) -> Self {
        RowTiles {
            row,
            tile: b.parse_type(&format!("tensor<1x{cols}x{dtype}, #pld.tile>")),
            ragged: b.parse_type(&format!(
                "tensor<1x{cols}x{dtype}, #pld.tile_with<{{valid_shape = array<i64: 1, -1>}}>>"
            )),
            fp16: dtype == "f16",
        }
    }

    /// The columns a remote load of `valid` columns reads: whole 32-byte
    /// blocks for FP16, else exactly `valid`.
    pub fn span(&self, b: &Builder<'c, 'a>, valid: Value<'c, 'a>) -> Value<'c, 'a> {
        if self.fp16 {
            b.round_up(valid, geometry::FP16_BLOCK)
        } else {
            valid
        }
    }

    /// This rank's `[0, col]` with `valid` columns, fill-padded.
    pub fn local(
        &self,
        b: &Builder<'c, 'a>,
        comm: &Comm<'c, 'a>,
        col: Value<'c, 'a>,
        valid: Value<'c, 'a>,
    ) -> Value<'c, 'a> {
        let loaded = b.value(
            TileLoad::builder(b.context, b.location)
                .source(self.row)
                .offsets(&[comm.zero, col])
                .valid_shape(&[comm.one, valid])
                .result(self.ragged)
                .build(),
        );
        self.fill_pad(b, loaded)
    }

    /// `peer`'s `[0, col]` with `valid` logical columns, fill-padded. `span`
    /// (from [`RowTiles::span`]) is what is read: FP16 reads whole 32-byte
    /// blocks through the tail-padded load and narrows back to `valid`.
    pub fn remote(
        &self,
        b: &Builder<'c, 'a>,
        comm: &Comm<'c, 'a>,
        peer: Value<'c, 'a>,
        col: Value<'c, 'a>,
        valid: Value<'c, 'a>,
        span: Value<'c, 'a>,
    ) -> Value<'c, 'a> {
        let loaded = if self.fp16 {
            let wide = b.value(
                RemoteLoadTailPadded::builder(b.context, b.location)
                    .target(self.row)
                    .peer(peer)
                    .offsets(&[comm.zero, col])
                    .valid_shape(&[comm.one, span])
                    .result(self.ragged)
                    .build(),
            );
            b.value(
                TileSetValidShape::builder(b.context, b.location)
                    .tile(wide)
                    .valid_shape(&[comm.one, valid])
                    .result(self.ragged)
                    .build(),
            )
        } else {
            b.value(
                RemoteLoad::builder(b.context, b.location)
                    .target(self.row)
                    .peer(peer)
                    .offsets(&[comm.zero, col])
                    .valid_shape(&[comm.one, span])
                    .result(self.ragged)
                    .build(),
            )
        };
        self.fill_pad(b, loaded)
    }

    fn fill_pad(&self, b: &Builder<'c, 'a>, tile: Value<'c, 'a>) -> Value<'c, 'a> {
        b.value(
            TileFillPad::builder(b.context, b.location)
                .tile(tile)
                .result(self.tile)
                .build(),
        )
    }
}
