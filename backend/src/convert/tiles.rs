//! Local tile ops: creation, loads and stores of this rank's tensors,
//! fill-pad, valid shapes and element-wise math.

use super::ops::{Converted, Converter, Op};
use super::views::make_view;
use pld_dialect::{
    enums::AtomicType,
    ops::{pto, tile},
};
use pld_ir::op_name;

impl<'c, 'a> Converter<'_, 'c, 'a>
where
    'c: 'a,
{
    /// Converts one op of this family; returns the value replacing its
    /// result, if any.
    pub(super) fn tiles(&mut self, cx: &Op<'c, 'a>) -> Converted<'c, 'a> {
        let Op { op, b, ref view } = *cx;
        let one = |group: &str| cx.one(group);
        Ok(match op_name(&op).as_str() {
            tile::TileCreate::NAME => {
                let tile = self.result_tile(op)?;
                let rows = b.index(tile.dim(0).unwrap_or(1));
                let cols = b.index(tile.dim(1).unwrap_or(1));
                Some(self.alloc(&b, &tile, rows, cols)?)
            }
            tile::TileLoad::NAME => {
                let source = self.globals.of(one("source")?)?;
                let tile = self.result_tile(op)?;
                let (rows, cols) =
                    self.extents(&b, &tile, &view.group("valid_shape").unwrap_or_default());
                let local = make_view(&b, &source, source.pointer, 0);
                let part = self.part_at(&b, &source, local, view, rows, cols);
                Some(self.load_tile(&b, part, &tile, rows, cols)?)
            }
            tile::TileStore::NAME => {
                let target = self.globals.of(one("target")?)?;
                let tile = one("tile")?;
                let (rows, cols) = self.valid_of(&b, tile);
                let local = make_view(&b, &target, target.pointer, 0);
                let part = self.part_at(&b, &target, local, view, rows, cols);
                self.tstore(&b, tile, part, AtomicType::None);
                None
            }
            tile::TileFillPad::NAME => {
                // Zero the padding in place, then the whole tile is valid.
                let tile = one("tile")?;
                b.insert(
                    pto::TFillPadInplace::builder(self.context, b.location)
                        .src(tile)
                        .dst(tile)
                        .build(),
                );
                let info = self.result_tile(op)?;
                let rows = b.index(info.dim(0).unwrap_or(1));
                let cols = b.index(info.dim(1).unwrap_or(1));
                self.set_valid(&b, tile, rows, cols);
                Some(tile)
            }
            tile::TileSetValidShape::NAME => {
                let tile = one("tile")?;
                let valid = view.group("valid_shape").unwrap_or_default();
                let (Some(rows), Some(cols)) = (valid.first(), valid.get(1)) else {
                    return Err("PTO tiles are 2-D".into());
                };
                self.set_valid(&b, tile, *rows, *cols);
                Some(tile)
            }
            name @ (tile::TileAdd::NAME
            | tile::TileMaximum::NAME
            | tile::TileMinimum::NAME
            | tile::TileMul::NAME) => {
                // In place into the left operand, which PTO allows.
                let (lhs, rhs) = (one("lhs")?, one("rhs")?);
                let built = match name {
                    tile::TileAdd::NAME => pto::TAdd::builder(self.context, b.location)
                        .src0(lhs)
                        .src1(rhs)
                        .dst(lhs)
                        .build(),
                    tile::TileMaximum::NAME => pto::TMax::builder(self.context, b.location)
                        .src0(lhs)
                        .src1(rhs)
                        .dst(lhs)
                        .build(),
                    tile::TileMinimum::NAME => pto::TMin::builder(self.context, b.location)
                        .src0(lhs)
                        .src1(rhs)
                        .dst(lhs)
                        .build(),
                    _ => pto::TMul::builder(self.context, b.location)
                        .src0(lhs)
                        .src1(rhs)
                        .dst(lhs)
                        .build(),
                };
                b.insert(built);
                Some(lhs)
            }
            _ => return Err("has no PTO lowering".into()),
        })
    }
}
