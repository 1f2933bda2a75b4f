//! Local tile ops: creation, loads and stores of this rank's tensors,
//! fill-pad, valid shapes and element-wise math.

use super::ops::{Converted, Converter, Op};
use super::views::make_view;
use melior::ir::{block::BlockLike, operation::OperationLike, OperationRef, Value};
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
                let tile = self.changeable(&b, op, one("tile")?)?;
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
                let tile = self.changeable(&b, op, one("tile")?)?;
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
                // In place into the left operand (PTO allows it) when its
                // buffer holds no value still wanted, else into a new tile.
                let (lhs, rhs) = (one("lhs")?, one("rhs")?);
                let dst = if reusable(op, lhs) {
                    lhs
                } else {
                    let (rows, cols) = self.valid_of(&b, lhs);
                    self.alloc(&b, &self.result_tile(op)?, rows, cols)?
                };
                let built = match name {
                    tile::TileAdd::NAME => pto::TAdd::builder(self.context, b.location)
                        .src0(lhs)
                        .src1(rhs)
                        .dst(dst)
                        .build(),
                    tile::TileMaximum::NAME => pto::TMax::builder(self.context, b.location)
                        .src0(lhs)
                        .src1(rhs)
                        .dst(dst)
                        .build(),
                    tile::TileMinimum::NAME => pto::TMin::builder(self.context, b.location)
                        .src0(lhs)
                        .src1(rhs)
                        .dst(dst)
                        .build(),
                    _ => pto::TMul::builder(self.context, b.location)
                        .src0(lhs)
                        .src1(rhs)
                        .dst(dst)
                        .build(),
                };
                b.insert(built);
                Some(dst)
            }
            _ => return Err("has no PTO lowering".into()),
        })
    }

    /// The buffer that `op` (fill-pad, set_validshape: they change their
    /// tile's buffer) may change: `tile` itself when nothing reads it after
    /// `op`, it shares no other value's buffer ([`shares_buffer`]) and no
    /// loop around `op` reads it again ([`loop_between`]); else a copy.
    fn changeable(
        &self,
        b: &pld_ir::build::Builder<'c, 'a>,
        op: OperationRef<'c, 'a>,
        tile: Value<'c, 'a>,
    ) -> Result<Value<'c, 'a>, String> {
        let chosen = shares_buffer(tile);
        // (An op converted already is out of its block, or a PTO op before
        // `op`.)
        let read_later = pld_ir::users(tile)
            .into_iter()
            .any(|u| u.block().is_some() && u != op && !op_name(&u).starts_with("pto."));
        // Made before a loop that holds `op`: the next iteration reads it
        // again.
        let again = loop_between(op, tile);
        match chosen || read_later || again {
            true => self.copy_as(b, tile, &self.result_tile(op)?),
            false => Ok(tile),
        }
    }
}

/// Whether `value` may be the buffer of a value visible elsewhere: an
/// `arith.select`'s result, or an `scf.if` / `scf.index_switch` result
/// that some branch yields from outside itself (a tile each branch makes
/// for it is the result's own, as the composite rail's ragged tails are).
fn shares_buffer(value: Value) -> bool {
    let Some(maker) = pld_ir::defining_op(value) else {
        return false;
    };
    match op_name(&maker).as_str() {
        "arith.select" => true,
        "scf.if" | "scf.index_switch" => {
            let index = pld_ir::result_number(value);
            (0..maker.region_count()).any(|r| {
                let Some(yielded) =
                    pld_ir::region_terminator(maker, r).and_then(|y| pld_ir::operand(y, index))
                else {
                    return false;
                };
                let inside = pld_ir::defining_op(yielded)
                    .is_some_and(|d| pld_ir::ancestors(d).contains(&maker));
                !inside || shares_buffer(yielded)
            })
        }
        _ => false,
    }
}

/// Whether an `scf.for` or `scf.while` holds `op` but not `value`'s
/// definition (its block), so that every iteration reads the same `value`.
fn loop_between(op: OperationRef, value: Value) -> bool {
    let home = pld_ir::defining_block(value);
    let mut inner = op;
    while let Some(outer) = inner.parent_operation() {
        if inner.block().map(|b| b.to_raw().ptr) == home {
            return false;
        }
        if matches!(op_name(&outer).as_str(), "scf.for" | "scf.while") {
            return true;
        }
        inner = outer;
    }
    false
}

/// Whether `a` and `b` lie in different regions of one `scf.if` (one runs
/// only when the other does not).
fn other_branch(a: OperationRef, b: OperationRef) -> bool {
    // (The regions of an `scf.if` have one block each.)
    let region = |o: &OperationRef| o.block().map(|b| b.to_raw().ptr);
    // `b`'s enclosing ops, each with the region of it that holds `b`.
    let mut around_b = Vec::new();
    let mut inner = b;
    while let Some(outer) = inner.parent_operation() {
        around_b.push((outer, region(&inner)));
        inner = outer;
    }
    let mut inner = a;
    while let Some(outer) = inner.parent_operation() {
        let shared = around_b.iter().find(|(o, _)| *o == outer);
        if let Some((_, b_region)) = shared {
            return op_name(&outer) == "scf.if" && *b_region != region(&inner);
        }
        inner = outer;
    }
    false
}

/// Whether element-wise `op` may write its result over its left operand
/// `lhs` (a converted tile buffer) because nothing reads `lhs` after it:
///
/// - a tile made by a `pto.alloc_tile` of `op`'s own block (not a loop's,
///   branch's or `arith.select`'s result, which shares other buffers),
///   read before `op` only (by PTO ops, converted from the ops before it)
///   and not handed to a loop or branch (whose values would share it);
/// - the carried tile of an `scf.for` whose body `op` is in (in a branch
///   of it too), read before `op` only, else passed on unchanged by
///   another branch, or yielded by the loop in its own place: the loop's
///   carry buffer (`super::carry`), the accumulator of a reduction.
fn reusable<'c, 'a>(op: OperationRef<'c, 'a>, lhs: Value<'c, 'a>) -> bool
where
    'c: 'a,
{
    // (An op converted already is out of its block, not yet freed.)
    let mut others = pld_ir::users(lhs)
        .into_iter()
        .filter(|u| u.block().is_some() && *u != op);
    let pto = |u: &OperationRef| op_name(u).starts_with("pto.");
    if pld_ir::defining_op(lhs).is_some() {
        return super::carry::fresh_in_block_of(lhs, op) && others.all(|u| pto(&u));
    }
    let Some(site) = pld_ir::argument_site(lhs) else {
        return false;
    };
    let (lp, number) = (site.parent, site.number);
    if op_name(&lp) != "scf.for" || !site.entry_block || number == 0 || !in_body(op, lp) {
        return false;
    }
    let loop_yield = pld_ir::region_terminator(lp, 0);
    others.all(|u| {
        (pto(&u) && pld_ir::runs_before(u, op))
            || other_branch(u, op)
            || (Some(u) == loop_yield && yielded_in_place(u, lhs, number - 1))
    })
}

/// Whether the loop's `yield_op` reads the carried tile `arg` nowhere but
/// in its own place, `position`, and there not as it was (`scf.yield %arg`
/// after the op wants the tile before it).
fn yielded_in_place(yield_op: OperationRef, arg: Value, position: usize) -> bool {
    pld_ir::operands(yield_op)
        .into_iter()
        .enumerate()
        .all(|(p, v)| match p == position {
            true => v != arg,
            false => !super::carry::same_buffer(v, arg),
        })
}

/// Whether `op` is in the body of `lp`, directly or in branches of
/// `scf.if`s there (not in a loop of its own, which would run it again
/// with the same carried tile).
fn in_body(op: OperationRef, lp: OperationRef) -> bool {
    let mut outer = op.parent_operation();
    while let Some(o) = outer {
        if o == lp {
            return true;
        }
        if op_name(&o) != "scf.if" {
            return false;
        }
        outer = o.parent_operation();
    }
    false
}
