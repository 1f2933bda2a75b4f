//! One pld op at a time, to its PTO sequence (spec 9.3).

use super::types;
use super::views::{context_slot, make_view, partition, peer_pointer, Global, Globals};
use melior::{
    dialect::arith,
    ir::{Attribute, OperationRef, Type, Value, ValueLike},
    Context,
};
use pld_dialect::{
    enums::{AtomicType, NotifyOp, PldEnum, WaitCmp},
    ops::{pto, remote, OpView},
    types::{tensor_info, TensorInfo},
};
use pld_ir::op_name;
use pld_ir::{self as ir, build::Builder};
use std::collections::HashMap;

/// Extra columns the FP16 tail variant may read: one 32-byte block.
const FP16_TAIL_PADDING: i64 = 15;

pub struct Converter<'x, 'c, 'a> {
    pub context: &'c Context,
    pub globals: &'x Globals<'c, 'a>,
    /// The CommContext of each distributed parameter.
    pub context_of: &'x HashMap<usize, Value<'c, 'a>>,
}

fn attribute<'c>(context: &'c Context, text: &str) -> Attribute<'c> {
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
        let one = |group: &str| view.one(group).ok_or_else(|| format!("no {group} operand"));
        let replacement: Option<Value> = match op_name(&op).as_str() {
            "pld.system_rank" | "pld.system_nranks" => {
                let slot = b.index(crate::abi::RANK_SLOT);
                let pair = context_slot(&b, one("ctx")?, slot);
                let half = if op_name(&op) == "pld.system_nranks" {
                    let shift = b.value(ir::constant(
                        self.context,
                        ir::i64_type(self.context),
                        32,
                        b.location,
                    ));
                    b.value(arith::shrui(pair, shift, b.location))
                } else {
                    pair
                };
                Some(b.value(arith::trunci(half, b.i32_type(), b.location)))
            }
            "pld.system_notify" => {
                let target = self.globals.of(one("target")?)?;
                let peer_view = self.peer_view(&b, &target, one("peer")?, 0)?;
                let cell = self.cell(
                    &b,
                    &target,
                    peer_view,
                    &view.group("offsets").unwrap_or_default(),
                );
                self.barrier(&b);
                let value = self.to_i32(&b, one("value")?);
                let notify = NotifyOp::from_attribute(view.attribute("op").ok_or("no op")?)
                    .ok_or("bad op")?;
                let name = match notify {
                    NotifyOp::AtomicAdd => "atomic_add",
                    NotifyOp::Set => "set",
                };
                b.insert(
                    pto::CommTNotify::builder(self.context, b.location)
                        .signal(cell)
                        .value(value)
                        .attribute(
                            "notifyOp",
                            attribute(self.context, &format!("#pto.notify_op<\"{name}\">")),
                        )
                        .build(),
                );
                None
            }
            "pld.system_wait" => {
                let signal = self.globals.of(one("signal")?)?;
                let local = make_view(&b, &signal, signal.pointer, 0);
                let cell = self.cell(
                    &b,
                    &signal,
                    local,
                    &view.group("offsets").unwrap_or_default(),
                );
                let expected = self.to_i32(&b, one("expected")?);
                let cmp = WaitCmp::from_attribute(view.attribute("cmp").ok_or("no cmp")?)
                    .ok_or("bad cmp")?;
                let name = match cmp {
                    WaitCmp::Eq => "eq",
                    WaitCmp::Ge => "ge",
                };
                b.insert(
                    pto::CommTWait::builder(self.context, b.location)
                        .signal(cell)
                        .cmp_value(expected)
                        .attribute(
                            "cmp",
                            attribute(self.context, &format!("#pto.wait_cmp<\"{name}\">")),
                        )
                        .build(),
                );
                None
            }
            "pld.tile_create" => {
                let tile = self.result_tile(op)?;
                let rows = b.index(tile.dim(0).unwrap_or(1));
                let cols = b.index(tile.dim(1).unwrap_or(1));
                Some(self.alloc(&b, &tile, rows, cols)?)
            }
            "pld.tile_load" => {
                let source = self.globals.of(one("source")?)?;
                let tile = self.result_tile(op)?;
                let (rows, cols) =
                    self.extents(&b, &tile, &view.group("valid_shape").unwrap_or_default());
                let local = make_view(&b, &source, source.pointer, 0);
                let sizes = self.sizes(&b, &source, rows, cols);
                let part = partition(
                    &b,
                    local,
                    source.element,
                    &view.group("offsets").unwrap_or_default(),
                    &sizes,
                );
                let buffer = self.alloc(&b, &tile, rows, cols)?;
                self.tload(&b, part, buffer);
                Some(buffer)
            }
            "pld.tile_remote_load" | "pld.tile_remote_load_with_physical_tail_padding" => {
                let padded = op_name(&op) != remote::RemoteLoad::NAME;
                let target = self.globals.of(one("target")?)?;
                let tile = self.result_tile(op)?;
                let (rows, cols) =
                    self.extents(&b, &tile, &view.group("valid_shape").unwrap_or_default());
                let extra = if padded { FP16_TAIL_PADDING } else { 0 };
                let peer_view = self.peer_view(&b, &target, one("peer")?, extra)?;
                let sizes = self.sizes(&b, &target, rows, cols);
                let part = partition(
                    &b,
                    peer_view,
                    target.element,
                    &view.group("offsets").unwrap_or_default(),
                    &sizes,
                );
                let buffer = self.alloc(&b, &tile, rows, cols)?;
                self.tload(&b, part, buffer);
                Some(buffer)
            }
            "pld.tile_store" => {
                let target = self.globals.of(one("target")?)?;
                let tile = one("tile")?;
                let (rows, cols) = self.valid_of(&b, tile);
                let local = make_view(&b, &target, target.pointer, 0);
                let sizes = self.sizes(&b, &target, rows, cols);
                let part = partition(
                    &b,
                    local,
                    target.element,
                    &view.group("offsets").unwrap_or_default(),
                    &sizes,
                );
                self.tstore(&b, tile, part, AtomicType::None);
                None
            }
            "pld.tile_remote_store" => {
                let target = self.globals.of(one("target")?)?;
                let tile = one("src")?;
                let (rows, cols) = self.valid_of(&b, tile);
                let peer_view = self.peer_view(&b, &target, one("peer")?, 0)?;
                let sizes = self.sizes(&b, &target, rows, cols);
                let part = partition(
                    &b,
                    peer_view,
                    target.element,
                    &view.group("offsets").unwrap_or_default(),
                    &sizes,
                );
                let atomic = remote::atomic(&view).ok_or("bad atomic")?;
                self.tstore(&b, tile, part, atomic);
                self.invalidate_line(&b, Some(part));
                None
            }
            "pld.tile_put" | "pld.tile_get" => {
                self.transfer(&b, &view, op_name(&op) == "pld.tile_put")?;
                None
            }
            "pld.tile_fillpad" => {
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
            "pld.tile_set_validshape" => {
                let tile = one("tile")?;
                let valid = view.group("valid_shape").unwrap_or_default();
                let (Some(rows), Some(cols)) = (valid.first(), valid.get(1)) else {
                    return Err("PTO tiles are 2-D".into());
                };
                self.set_valid(&b, tile, *rows, *cols);
                Some(tile)
            }
            name @ ("pld.tile_add" | "pld.tile_maximum" | "pld.tile_minimum" | "pld.tile_mul") => {
                // In place into the left operand, which PTO allows.
                let (lhs, rhs) = (one("lhs")?, one("rhs")?);
                let built = match name {
                    "pld.tile_add" => pto::TAdd::builder(self.context, b.location)
                        .src0(lhs)
                        .src1(rhs)
                        .dst(lhs)
                        .build(),
                    "pld.tile_maximum" => pto::TMax::builder(self.context, b.location)
                        .src0(lhs)
                        .src1(rhs)
                        .dst(lhs)
                        .build(),
                    "pld.tile_minimum" => pto::TMin::builder(self.context, b.location)
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
            "pld.tensor_read" => {
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
            "pld.system_fence" => {
                // PTOAS no longer inserts drains (pto-interface 1.6): the
                // MTE/FIX/TPUT payload must leave the pipes before the
                // GM fence orders it.
                self.barrier(&b);
                b.insert(
                    pto::FenceBarrierAll::builder(self.context, b.location)
                        .attribute("scope", attribute(self.context, "#pto.fence_scope<\"gm\">"))
                        .build(),
                );
                None
            }
            "pld.system_cacheinvalid" => {
                match view.one("tensor") {
                    None => self.invalidate_line(&b, None),
                    Some(tensor) => {
                        let global = self.globals.of(tensor)?;
                        let local = make_view(&b, &global, global.pointer, 0);
                        let part = partition(
                            &b,
                            local,
                            global.element,
                            &view.group("offsets").unwrap_or_default(),
                            &view.group("sizes").unwrap_or_default(),
                        );
                        self.invalidate_line(&b, Some(part));
                    }
                }
                None
            }
            "pld.system_get_comm_ctx" => {
                return Err("run pld-materialize-dist-tensor-ctx before PTO codegen".into())
            }
            "pld.tensor_put" | "pld.tensor_get" | "pld.tensor_remote_store" => {
                return Err(format!(
                    "has no PTO lowering yet (spec 9.3 covers the tile forms); write it as '{}' \
                     with an explicit staging tile",
                    op_name(&op).replace("pld.tensor_", "pld.tile_")
                ))
            }
            other if other.starts_with("pld.tensor_") => {
                return Err(
                    "has no PTO form; lower it first (pld-lower-composite-ops expands \
                            InCore collectives into tile ops)"
                        .into(),
                )
            }
            _ => return Err("has no PTO lowering".into()),
        };
        if let (Some(new), Ok(result)) = (replacement, op.result(0)) {
            ir::replace_all_uses(result.into(), new);
        }
        ir::erase(op);
        Ok(())
    }

    fn result_tile(&self, op: OperationRef<'c, 'a>) -> Result<TensorInfo<'c>, String> {
        let result = op.result(0).map_err(|_| "no result")?;
        tensor_info(result.r#type())
            .ok()
            .flatten()
            .ok_or_else(|| "the result is not a tile".to_string())
    }

    /// The valid extents given to an op, else the tile's shape.
    fn extents(
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
    fn sizes(
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
    fn cell(
        &self,
        b: &Builder<'c, 'a>,
        global: &Global<'c, 'a>,
        view: Value<'c, 'a>,
        offsets: &[Value<'c, 'a>],
    ) -> Value<'c, 'a> {
        let ones: Vec<Value> = offsets.iter().map(|_| b.index(1)).collect();
        partition(b, view, global.element, offsets, &ones)
    }

    fn peer_view(
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

    fn to_i32(&self, b: &Builder<'c, 'a>, value: Value<'c, 'a>) -> Value<'c, 'a> {
        let ty = value.r#type();
        if ty == b.i32_type() {
            value
        } else if ty == b.index_type() {
            b.index_cast(value, b.i32_type())
        } else {
            b.value(arith::trunci(value, b.i32_type(), b.location))
        }
    }

    fn barrier(&self, b: &Builder<'c, 'a>) {
        b.insert(
            pto::PtoBarrier::builder(self.context, b.location)
                .attribute("pipe", attribute(self.context, "#pto.pipe<\"PIPE_ALL\">"))
                .build(),
        );
    }

    fn alloc(
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

    fn tload(&self, b: &Builder<'c, 'a>, part: Value<'c, 'a>, buffer: Value<'c, 'a>) {
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

    fn tstore(
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
    fn valid_of(&self, b: &Builder<'c, 'a>, tile: Value<'c, 'a>) -> (Value<'c, 'a>, Value<'c, 'a>) {
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

    fn set_valid(
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
    fn invalidate_line(&self, b: &Builder<'c, 'a>, part: Option<Value<'c, 'a>>) {
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
    fn transfer(
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
