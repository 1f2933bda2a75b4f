//! Remote data movement: loads, stores, puts and gets through the peer's
//! address computed from the CommContext, and scalar reads.

use super::ops::{Converted, Converter, Op};
use pld_dialect::ops::remote::FP16_TAIL_PADDING;

use pld_dialect::ops::{pto, remote, tile};
use pld_ir::op_name;

impl<'c, 'a> Converter<'_, 'c, 'a>
where
    'c: 'a,
{
    /// Converts one op of this family; returns the value replacing its
    /// result, if any.
    pub(super) fn remote(&mut self, cx: &Op<'c, 'a>) -> Converted<'c, 'a> {
        let Op { op, b, ref view } = *cx;
        let one = |group: &str| cx.one(group);
        Ok(match op_name(&op).as_str() {
            remote::RemoteLoad::NAME | remote::RemoteLoadTailPadded::NAME => {
                let padded = op_name(&op) != remote::RemoteLoad::NAME;
                let target = self.globals.of(one("target")?)?;
                let tile = self.result_tile(op)?;
                let (rows, cols) =
                    self.extents(&b, &tile, &view.group("valid_shape").unwrap_or_default());
                let extra = if padded { FP16_TAIL_PADDING } else { 0 };
                let peer_view = self.peer_view(&b, &target, one("peer")?, extra)?;
                let part = self.part_at(&b, &target, peer_view, view, rows, cols);
                Some(self.load_tile(&b, part, &tile, rows, cols)?)
            }
            remote::TileRemoteStore::NAME => {
                let target = self.globals.of(one("target")?)?;
                let tile = one("src")?;
                let (rows, cols) = self.valid_of(&b, tile);
                let peer_view = self.peer_view(&b, &target, one("peer")?, 0)?;
                let part = self.part_at(&b, &target, peer_view, view, rows, cols);
                let atomic = remote::atomic(view).ok_or("bad atomic")?;
                self.tstore(&b, tile, part, atomic);
                self.invalidate_line(&b, Some(part));
                None
            }
            remote::TilePut::NAME | remote::TileGet::NAME => {
                self.transfer(&b, view, op_name(&op) == remote::TilePut::NAME)?;
                None
            }
            tile::TensorRead::NAME => {
                let source = self.globals.of(one("source")?)?;
                let mut offset = b.index(0);
                for (index, stride) in view
                    .group("indices")
                    .unwrap_or_default()
                    .iter()
                    .zip(&source.strides)
                {
                    let stride = b.index(*stride);
                    let scaled = b.mul(*index, stride);
                    offset = b.add(offset, scaled);
                }
                Some(
                    b.value(
                        pto::LoadScalar::builder(self.context, b.location)
                            .ptr(source.pointer)
                            .offset(offset)
                            .result(source.element)
                            .build(),
                    ),
                )
            }
            remote::TensorPut::NAME | remote::TensorGet::NAME | remote::TensorRemoteStore::NAME => {
                return Err(format!(
                    "has no PTO lowering yet (only the tile forms are converted); write it as '{}' \
                     with an explicit staging tile",
                    op_name(&op).replace("pld.tensor_", "pld.tile_")
                ))
            }
            _ => return Err("has no PTO lowering".into()),
        })
    }
}
