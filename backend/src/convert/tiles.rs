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
}

/// The users of `value` that run after `op` (or hold it in a region, as a
/// loop's yield does): every user that is not a PTO op converted from an
/// op before `op`, nor an op before `op` (an `scf.for` given the tile), nor
/// in another branch of an `scf.if` than `op`.
fn later_users<'c, 'a>(
    op: OperationRef<'c, 'a>,
    value: Value<'c, 'a>,
) -> impl Iterator<Item = OperationRef<'c, 'a>>
where
    'c: 'a,
{
    pld_ir::users(value).into_iter().filter(move |user| {
        // (An op converted already is out of its block, not yet freed.)
        user.block().is_some()
            && *user != op
            && !op_name(user).starts_with("pto.")
            && !pld_ir::runs_before(*user, op)
            && !other_branch(*user, op)
    })
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
/// `lhs` (a converted tile buffer): no op after `op` reads `lhs`, and its
/// buffer holds no other value still wanted. That holds for a tile made
/// by an op of `op`'s own block, and for the carried tile of an `scf.for`
/// whose body `op` is in (in a branch of it too), when the loop's initial
/// tile is itself such a tile at the loop (the accumulator of a
/// reduction). A tile out of a
/// branch or any other region may be another value's buffer too.
fn reusable<'c, 'a>(op: OperationRef<'c, 'a>, lhs: Value<'c, 'a>) -> bool
where
    'c: 'a,
{
    if later_users(op, lhs).next().is_some() {
        return false;
    }
    let block = |o: OperationRef| o.block().map(|b| b.to_raw().ptr);
    if let Some(maker) = pld_ir::defining_op(lhs) {
        return !op_name(&maker).starts_with("scf.") && block(maker) == block(op);
    }
    // A carried tile: region argument 1 + i of the loop's body (argument
    // 0 is the induction variable), started as the loop's operand 3 + i.
    let Some(site) = pld_ir::argument_site(lhs) else {
        return false;
    };
    let (parent, number) = (site.parent, site.number);
    if op_name(&parent) != "scf.for" || !site.entry_block || number == 0 || !in_body(op, parent) {
        return false;
    }
    pld_ir::operand(parent, 2 + number).is_some_and(|init| reusable(parent, init))
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
