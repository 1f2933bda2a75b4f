//! One pld op at a time, to its PTO sequence (docs/passes/convert-pld-to-pto.md).

use super::types;
use super::views::{make_view, partition, peer_pointer, Global, Globals};
use melior::{
    dialect::arith,
    ir::{operation::OperationLike, Attribute, OperationRef, Type, Value, ValueLike},
    Context,
};
use pld_dialect::{
    enums::AtomicType,
    ops::{ctx, fence, pto, remote, signal, tile, OpView},
    types::{tensor_info, TensorInfo},
};
use pld_ir::op_name;
use pld_ir::{self as ir, build::Builder};
use std::collections::HashMap;

/// The op being converted, where to build its replacement, and its
/// operand groups.
pub(super) struct Op<'c, 'a> {
    pub op: OperationRef<'c, 'a>,
    pub b: Builder<'c, 'a>,
    pub view: OpView<'c, 'a>,
}

impl<'c, 'a> Op<'c, 'a> {
    /// The single operand of group `group`.
    pub fn one(&self, group: &str) -> Result<Value<'c, 'a>, String> {
        self.view
            .one(group)
            .ok_or_else(|| format!("no {group} operand"))
    }
}

/// A family's result: the value replacing the op's result, if any.
pub(super) type Converted<'c, 'a> = Result<Option<Value<'c, 'a>>, String>;

pub struct Converter<'x, 'c, 'a> {
    pub context: &'c Context,
    pub globals: &'x Globals<'c, 'a>,
    /// The CommContext of each distributed parameter.
    pub context_of: &'x HashMap<usize, Value<'c, 'a>>,
}

pub(super) fn attribute<'c>(context: &'c Context, text: &str) -> Attribute<'c> {
    Attribute::parse(context, text).unwrap_or_else(|| panic!("attribute {text} parses"))
}

impl<'c, 'a> Converter<'_, 'c, 'a>
where
    'c: 'a,
{
    /// Converts `op`; on success it is gone.
    pub fn convert(&mut self, op: OperationRef<'c, 'a>) -> Result<(), String> {
        let b = Builder::before(self.context, op);
        let view = OpView::new(op).ok_or("malformed op")?;
        let cx = Op { op, b, view };
        let name = op_name(&op);
        let replacement: Option<Value> = match name.as_str() {
            ctx::Rank::NAME
            | ctx::NRanks::NAME
            | signal::Notify::NAME
            | signal::Wait::NAME
            | fence::Fence::NAME
            | fence::CacheInvalid::NAME
            | ctx::GetCommCtx::NAME => self.system(&cx)?,
            tile::TileCreate::NAME
            | tile::TileLoad::NAME
            | tile::TileStore::NAME
            | tile::TileFillPad::NAME
            | tile::TileSetValidShape::NAME
            | tile::TileAdd::NAME
            | tile::TileMaximum::NAME
            | tile::TileMinimum::NAME
            | tile::TileMul::NAME => self.tiles(&cx)?,
            remote::RemoteLoad::NAME
            | remote::RemoteLoadTailPadded::NAME
            | remote::TileRemoteStore::NAME
            | remote::TilePut::NAME
            | remote::TileGet::NAME
            | tile::TensorRead::NAME
            | remote::TensorPut::NAME
            | remote::TensorGet::NAME
            | remote::TensorRemoteStore::NAME => self.remote(&cx)?,
            other if other.starts_with("pld.tensor_") => {
                return Err(
                    "has no PTO form; lower it first (pld-lower-composite-ops expands \
                            InCore collectives into tile ops)"
                        .into(),
                )
            }

            _ => return Err("has no PTO lowering".into()),
        };
        if let (Some(new), Some(result)) = (replacement, ir::result_at(op, 0)) {
            ir::replace_all_uses(result, new);
            keep_record(op, new);
        }
        ir::erase(op);
        Ok(())
    }
}

/// `mode = "auto"`'s record (`pld.auto_mode`, on the expansion's
/// `pld.system_nranks`) moves to the op that computes the replacement
/// value, so the lowered kernel still says what was chosen and why.
fn keep_record<'c, 'a>(op: OperationRef<'c, 'a>, new: Value<'c, 'a>) {
    const RECORD: &str = pld_lowering::composite::AUTO_MODE_ATTRIBUTE;
    if let (Ok(record), Some(owner)) = (op.attribute(RECORD), pld_ir::defining_op(new)) {
        ir::set_attribute(owner, RECORD, record);
    }
}

impl<'c, 'a> Converter<'_, 'c, 'a>
where
    'c: 'a,
{
    /// The part of `global` (seen through the view `base`) that a rows x
    /// cols tile covers at the op's `offsets`.
    pub(super) fn part_at(
        &self,
        b: &Builder<'c, 'a>,
        global: &Global<'c, 'a>,
        base: Value<'c, 'a>,
        view: &OpView<'c, 'a>,
        rows: Value<'c, 'a>,
        cols: Value<'c, 'a>,
    ) -> Value<'c, 'a> {
        let sizes = self.sizes(b, global, rows, cols);
        let offsets = view.group("offsets").unwrap_or_default();
        partition(b, base, global.element, &offsets, &sizes)
    }

    /// A new tile buffer of type `tile`, valid rows x cols, loaded from `part`.
    pub(super) fn load_tile(
        &self,
        b: &Builder<'c, 'a>,
        part: Value<'c, 'a>,
        tile: &TensorInfo<'c>,
        rows: Value<'c, 'a>,
        cols: Value<'c, 'a>,
    ) -> Result<Value<'c, 'a>, String> {
        let buffer = self.alloc(b, tile, rows, cols)?;
        self.tload(b, part, buffer);
        Ok(buffer)
    }

    pub(super) fn result_tile(&self, op: OperationRef<'c, 'a>) -> Result<TensorInfo<'c>, String> {
        let result = ir::result_at(op, 0).ok_or("no result")?;
        tensor_info(result.r#type())
            .ok()
            .flatten()
            .ok_or_else(|| "the result is not a tile".to_string())
    }

    /// The valid extents given to an op, else the tile's shape.
    pub(super) fn extents(
        &self,
        b: &Builder<'c, 'a>,
        tile: &TensorInfo,
        valid: &[Value<'c, 'a>],
    ) -> (Value<'c, 'a>, Value<'c, 'a>) {
        match valid {
            [rows, cols] => (*rows, *cols),
            _ => (
                b.index(tile.dim(0).unwrap_or(1)),
                b.index(tile.dim(1).unwrap_or(1)),
            ),
        }
    }

    /// Partition sizes for a 2-D tile over a tensor of any rank: leading 1s.
    pub(super) fn sizes(
        &self,
        b: &Builder<'c, 'a>,
        global: &Global<'c, 'a>,
        rows: Value<'c, 'a>,
        cols: Value<'c, 'a>,
    ) -> Vec<Value<'c, 'a>> {
        let rank = global.shape.len();
        let mut sizes: Vec<Value> = (0..rank.saturating_sub(2)).map(|_| b.index(1)).collect();
        if rank >= 2 {
            sizes.push(rows);
        }
        sizes.push(cols);
        sizes
    }

    /// A one-element partition of `view` at `offsets`.
    pub(super) fn cell(
        &self,
        b: &Builder<'c, 'a>,
        global: &Global<'c, 'a>,
        view: Value<'c, 'a>,
        offsets: &[Value<'c, 'a>],
    ) -> Value<'c, 'a> {
        let ones: Vec<Value> = offsets.iter().map(|_| b.index(1)).collect();
        partition(b, view, global.element, offsets, &ones)
    }

    pub(super) fn peer_view(
        &self,
        b: &Builder<'c, 'a>,
        global: &Global<'c, 'a>,
        peer: Value<'c, 'a>,
        extra_last: i64,
    ) -> Result<Value<'c, 'a>, String> {
        let ctx = *self.context_of.get(&global.parameter).ok_or_else(|| {
            format!(
                "parameter #{} is not a distributed tensor: remote access needs a window",
                global.parameter
            )
        })?;
        let pointer = peer_pointer(b, global, ctx, peer);
        Ok(make_view(b, global, pointer, extra_last))
    }

    pub(super) fn to_i32(&self, b: &Builder<'c, 'a>, value: Value<'c, 'a>) -> Value<'c, 'a> {
        let ty = value.r#type();
        if ty == b.i32_type() {
            value
        } else if ty == b.index_type() {
            b.index_cast(value, b.i32_type())
        } else {
            b.value(arith::trunci(value, b.i32_type(), b.location))
        }
    }

    pub(super) fn barrier(&self, b: &Builder<'c, 'a>) {
        b.insert(
            pto::PtoBarrier::builder(self.context, b.location)
                .attribute("pipe", attribute(self.context, "#pto.pipe<\"PIPE_ALL\">"))
                .build(),
        );
    }

    pub(super) fn alloc(
        &self,
        b: &Builder<'c, 'a>,
        tile: &TensorInfo<'c>,
        rows: Value<'c, 'a>,
        cols: Value<'c, 'a>,
    ) -> Result<Value<'c, 'a>, String> {
        let buffer: Type = types::tile_buffer(self.context, tile)?;
        Ok(b.value(
            pto::AllocTile::builder(self.context, b.location)
                .addr(None)
                .valid_row(Some(rows))
                .valid_col(Some(cols))
                .result(buffer)
                .build(),
        ))
    }

    pub(super) fn tload(&self, b: &Builder<'c, 'a>, part: Value<'c, 'a>, buffer: Value<'c, 'a>) {
        b.insert(
            pto::TLoad::builder(self.context, b.location)
                .src(part)
                .dst(buffer)
                .pad_value(None)
                .left_padding_num(None)
                .right_padding_num(None)
                .init_condition(None)
                .build(),
        );
    }

    pub(super) fn tstore(
        &self,
        b: &Builder<'c, 'a>,
        tile: Value<'c, 'a>,
        part: Value<'c, 'a>,
        atomic: AtomicType,
    ) {
        let mut builder = pto::TStore::builder(self.context, b.location)
            .src(tile)
            .dst(part)
            .fp(None)
            .pre_quant_scalar(None);
        if atomic == AtomicType::Add {
            builder = builder.attribute(
                "atomicType",
                attribute(self.context, "#pto.atomic_type<\"atomic_add\">"),
            );
        }
        b.insert(builder.build());
    }

    /// `(rows, cols)` of a tile's current valid region.
    pub(super) fn valid_of(
        &self,
        b: &Builder<'c, 'a>,
        tile: Value<'c, 'a>,
    ) -> (Value<'c, 'a>, Value<'c, 'a>) {
        let index = b.index_type();
        let op = b.insert(
            pto::GetValidShape::builder(self.context, b.location)
                .tile(tile)
                .result(index)
                .result(index)
                .build(),
        );
        (
            op.result(0).expect("row").into(),
            op.result(1).expect("col").into(),
        )
    }

    pub(super) fn set_valid(
        &self,
        b: &Builder<'c, 'a>,
        tile: Value<'c, 'a>,
        rows: Value<'c, 'a>,
        cols: Value<'c, 'a>,
    ) {
        b.insert(
            pto::SetValidShape::builder(self.context, b.location)
                .tile(tile)
                .row(rows)
                .col(cols)
                .build(),
        );
    }

    /// Whole-cache (`None`) or one-line cache invalidation.
    pub(super) fn invalidate_line(&self, b: &Builder<'c, 'a>, part: Option<Value<'c, 'a>>) {
        let mut builder = pto::CmoCacheInvalid::builder(self.context, b.location).addr(part);
        builder = match part {
            Some(_) => builder.attribute(
                "line",
                attribute(self.context, "#pto.cache_line<\"single_cache_line\">"),
            ),
            None => builder
                .attribute("line", attribute(self.context, "#pto.cache_line<\"all\">"))
                .attribute(
                    "space",
                    attribute(self.context, "#pto.address_space<\"gm\">"),
                ),
        };
        b.insert(builder.build());
    }

    /// `tile_put` (remote destination) and `tile_get` (remote source).
    pub(super) fn transfer(
        &self,
        b: &Builder<'c, 'a>,
        view: &OpView<'c, 'a>,
        put: bool,
    ) -> Result<(), String> {
        let one = |group: &str| view.one(group).ok_or_else(|| format!("no {group} operand"));
        let dst = self.globals.of(one("dst")?)?;
        let src = self.globals.of(one("src")?)?;
        let peer = one("peer")?;
        let (dst_view, src_view) = if put {
            (
                self.peer_view(b, &dst, peer, 0)?,
                make_view(b, &src, src.pointer, 0),
            )
        } else {
            (
                make_view(b, &dst, dst.pointer, 0),
                self.peer_view(b, &src, peer, 0)?,
            )
        };
        let shape = view.group("shape").unwrap_or_default();
        let zeros = |rank: usize| -> Vec<Value> { (0..rank).map(|_| b.index(0)).collect() };
        let full =
            |g: &Global<'c, 'a>| -> Vec<Value> { g.shape.iter().map(|d| b.index(*d)).collect() };
        let (dst_offsets, src_offsets, dst_sizes, src_sizes) = if shape.is_empty() {
            (
                zeros(dst.shape.len()),
                zeros(src.shape.len()),
                full(&dst),
                full(&src),
            )
        } else {
            (
                view.group("dst_offsets").unwrap_or_default(),
                view.group("src_offsets").unwrap_or_default(),
                shape.clone(),
                shape,
            )
        };
        let dst_part = partition(b, dst_view, dst.element, &dst_offsets, &dst_sizes);
        let src_part = partition(b, src_view, src.element, &src_offsets, &src_sizes);
        let stage = one("stage")?;
        let pong = view.one("pong");
        self.barrier(b);
        if put {
            let atomic = match remote::atomic(view).ok_or("bad atomic")? {
                AtomicType::None => "atomic_none",
                AtomicType::Add => "atomic_add",
            };
            b.insert(
                pto::CommTPut::builder(self.context, b.location)
                    .dst(dst_part)
                    .src(src_part)
                    .ping(stage)
                    .pong(pong)
                    .attribute(
                        "atomicType",
                        attribute(self.context, &format!("#pto.atomic_type<\"{atomic}\">")),
                    )
                    .build(),
            );
            // Drain the DMA before any release (PTOAS#872), then clean the
            // peer's line.
            self.barrier(b);
            self.invalidate_line(b, Some(dst_part));
        } else {
            b.insert(
                pto::CommTGet::builder(self.context, b.location)
                    .dst(dst_part)
                    .src(src_part)
                    .ping(stage)
                    .pong(pong)
                    .build(),
            );
            self.barrier(b);
        }
        Ok(())
    }
}
