//! Tiles carried by `scf.for` and `scf.while` loops keep their meaning although the PTO
//! ops write buffers in place (docs/passes/convert-pld-to-pto.md, "Tile
//! values keep their meaning"): each carried tile lives in a buffer of its
//! own, the loop's carry buffer, which holds the tile the next iteration
//! starts from.
//!
//! - On entry the initial tile is copied into a new buffer, unless the loop
//!   is its only reader (it is made in the loop's block, nothing after the
//!   loop or inside it reads it, and the loop takes it once).
//! - At the end of an iteration a yielded tile that is not already the
//!   carry buffer is copied into it (through a temporary when it is another
//!   carried tile, which may be overwritten first).
//!
//! A tile made inside the body is one buffer in every iteration: without
//! the copy, the next iteration's new tile would overwrite the carried one
//! while it is still read. A copy is `pto.tmax` of a tile with itself.

use super::ops::Converter;
use melior::ir::{block::BlockLike, operation::OperationLike, OperationRef, Value, ValueLike};
use pld_dialect::{
    ops::pto,
    types::{tensor_info, TensorInfo},
};
use pld_ir::{self as ir, build::Builder, op_name};

impl<'c, 'a> Converter<'_, 'c, 'a>
where
    'c: 'a,
{
    /// Gives every tile carried by an `scf.for` or `scf.while` of
    /// `function` its carry buffer (see the module).
    pub(super) fn carry_tiles(&self, function: OperationRef<'c, 'a>) -> Result<(), String> {
        for lp in ir::collect(function, |n| n == "scf.for" || n == "scf.while") {
            match op_name(&lp).as_str() {
                "scf.for" => self.carry_for(lp)?,
                _ => self.carry_while(lp)?,
            }
        }
        Ok(())
    }

    /// An `scf.for`: its body's arguments (after the induction variable)
    /// are the carry buffers; its operand `2 + i` starts argument `i`, and
    /// its yield's operand `i - 1` ends it.
    fn carry_for(&self, lp: OperationRef<'c, 'a>) -> Result<(), String> {
        let Some(yield_op) = ir::region_terminator(lp, 0) else {
            return Ok(());
        };
        let args = ir::entry_arguments(lp, 0);
        let carried: Vec<usize> = (1..args.len()).filter(|&i| is_tile(args[i])).collect();
        for &i in &carried {
            self.own_initial(lp, 2 + i, args[i])?;
        }
        let ends: Vec<End> = carried
            .iter()
            .map(|&i| End {
                position: i - 1,
                carry: args[i],
                like: args[i],
            })
            .collect();
        self.copy_back(yield_op, &ends, &args, |end, yielded| {
            same_buffer(yielded, end.carry)
        })
    }

    /// An `scf.while`: each carried tile's carry buffer is the loop's
    /// operand that starts it (owned by the loop, see [`Self::own_initial`]),
    /// which the "after" region sees. The condition may pass carried tiles
    /// on in other slots and new tiles in theirs; an after argument it
    /// passes a carried tile on as is that tile's buffer.
    fn carry_while(&self, lp: OperationRef<'c, 'a>) -> Result<(), String> {
        let before = ir::entry_arguments(lp, 0);
        let after = ir::entry_arguments(lp, 1);
        let (Some(condition), Some(yield_op)) =
            (ir::region_terminator(lp, 0), ir::region_terminator(lp, 1))
        else {
            return Ok(());
        };
        // Condition operand 0 is the flag; operand 1 + j becomes after
        // argument j.
        let passed = ir::operands(condition);
        let carried_in = |value: Value<'c, 'a>| {
            let j = after.iter().position(|a| *a == value)?;
            let forwarded = passed.get(1 + j)?;
            before.iter().position(|b| b == forwarded)
        };
        let mut ends = Vec::new();
        for (k, arg) in before.iter().enumerate().filter(|(_, a)| is_tile(**a)) {
            self.own_initial(lp, k, *arg)?;
            if let Some(carry) = ir::operand(lp, k) {
                ends.push(End {
                    position: k,
                    carry,
                    like: *arg,
                });
            }
        }
        self.copy_back(yield_op, &ends, &after, |end, yielded| {
            carried_in(yielded) == Some(end.position)
        })
    }

    /// Copies the loop's operand `index` (an initial tile) into a new
    /// buffer when anything but the loop reads it.
    fn own_initial(
        &self,
        lp: OperationRef<'c, 'a>,
        index: usize,
        arg: Value<'c, 'a>,
    ) -> Result<(), String> {
        let Some(init) = ir::operand(lp, index) else {
            return Ok(());
        };
        if only_read_by(lp, init) {
            return Ok(());
        }
        let b = Builder::before(self.context, lp);
        let copy = self.copy(&b, init, arg)?;
        let mut operands = ir::operands(lp);
        operands[index] = copy;
        ir::set_operands(lp, &operands);
        Ok(())
    }

    /// Makes `yield_op` yield, at each of `ends`, the carry buffer, copying
    /// what it yielded there into it unless `in_place` says it already is
    /// that buffer. The copies are a parallel assignment: a yielded tile
    /// that may be one of `args` (which the copies may overwrite) is read
    /// into a new tile first.
    fn copy_back(
        &self,
        yield_op: OperationRef<'c, 'a>,
        ends: &[End<'c, 'a>],
        args: &[Value<'c, 'a>],
        in_place: impl Fn(&End<'c, 'a>, Value<'c, 'a>) -> bool,
    ) -> Result<(), String> {
        let mut operands = ir::operands(yield_op);
        let b = Builder::before(self.context, yield_op);
        let mut staged = Vec::new();
        for end in ends {
            let Some(&yielded) = operands.get(end.position) else {
                continue;
            };
            if in_place(end, yielded) {
                continue;
            }
            let source = match args.iter().any(|a| may_be_buffer(yielded, *a)) {
                true => self.copy(&b, yielded, end.like)?,
                false => yielded,
            };
            staged.push((end, source));
        }
        for (end, source) in staged {
            self.copy_into(&b, source, end.carry);
            operands[end.position] = end.carry;
        }
        ir::set_operands(yield_op, &operands);
        Ok(())
    }

    /// A new tile holding `tile`'s elements and valid extents, of the type
    /// of the carried tile `like`.
    fn copy(
        &self,
        b: &Builder<'c, 'a>,
        tile: Value<'c, 'a>,
        like: Value<'c, 'a>,
    ) -> Result<Value<'c, 'a>, String> {
        let info = tensor_info(like.r#type())
            .ok()
            .flatten()
            .ok_or("a carried value is not a tile")?;
        self.copy_as(b, tile, &info)
    }

    /// A new tile of type `info` holding `tile`'s elements and valid
    /// extents.
    pub(super) fn copy_as(
        &self,
        b: &Builder<'c, 'a>,
        tile: Value<'c, 'a>,
        info: &TensorInfo<'c>,
    ) -> Result<Value<'c, 'a>, String> {
        let (rows, cols) = self.valid_of(b, tile);
        let buffer = self.alloc(b, info, rows, cols)?;
        b.insert(self.tmax_copy(b, tile, buffer));
        Ok(buffer)
    }

    fn tmax_copy(
        &self,
        b: &Builder<'c, 'a>,
        src: Value<'c, 'a>,
        dst: Value<'c, 'a>,
    ) -> melior::ir::Operation<'c> {
        pto::TMax::builder(self.context, b.location)
            .src0(src)
            .src1(src)
            .dst(dst)
            .build()
    }

    /// `dst` = `src`, elements and valid extents.
    fn copy_into(&self, b: &Builder<'c, 'a>, src: Value<'c, 'a>, dst: Value<'c, 'a>) {
        let (rows, cols) = self.valid_of(b, src);
        self.set_valid(b, dst, rows, cols);
        b.insert(self.tmax_copy(b, src, dst));
    }
}

/// One carried tile's end of an iteration: the yield's operand
/// `position` ends in the buffer `carry`; `like` is a value of the tile's
/// type (the carry may be a converted buffer already).
struct End<'c, 'a> {
    position: usize,
    carry: Value<'c, 'a>,
    like: Value<'c, 'a>,
}

fn is_tile(value: Value) -> bool {
    tensor_info(value.r#type())
        .ok()
        .flatten()
        .is_some_and(|info| info.kind == pld_dialect::types::TensorKind::Tile)
}

/// Whether `lp` is the only reader of `init`: a buffer of its own (made by
/// a `pto.alloc_tile` of `lp`'s block, not chosen by a branch or select
/// among others), taken by `lp` once, and otherwise read only by PTO ops
/// before `lp` (ops converted already; not ones inside it).
fn only_read_by(lp: OperationRef, init: Value) -> bool {
    if !fresh_in_block_of(init, lp) {
        return false;
    }
    let mut taken = 0;
    for user in ir::users(init) {
        if user.block().is_none() {
            continue; // converted and detached
        }
        if user == lp {
            taken += 1;
        } else if !(op_name(&user).starts_with("pto.") && ir::runs_before(user, lp)) {
            return false;
        }
    }
    taken == 1
}

/// Whether `value` is always the buffer `arg`: `arg` itself, or the result
/// of an `scf.if` each of whose branches yields such a value.
pub(super) fn same_buffer(value: Value, arg: Value) -> bool {
    if value == arg {
        return true;
    }
    let Some(branch) = ir::defining_op(value).filter(|o| op_name(o) == "scf.if") else {
        return false;
    };
    let index = ir::result_number(value);
    (0..branch.region_count()).all(|r| {
        ir::region_terminator(branch, r)
            .and_then(|y| ir::operand(y, index))
            .is_some_and(|v| same_buffer(v, arg))
    })
}

/// Whether `value` is a buffer made by a `pto.alloc_tile` in `op`'s block
/// (not a loop's or branch's result, nor an `arith.select` among buffers,
/// which share the buffers they choose from).
pub(super) fn fresh_in_block_of(value: Value, op: OperationRef) -> bool {
    let block = |o: OperationRef| o.block().map(|b| b.to_raw().ptr);
    ir::defining_op(value)
        .is_some_and(|maker| op_name(&maker) == pto::AllocTile::NAME && block(maker) == block(op))
}

/// Whether `value` may be the buffer `arg`: `arg` itself, or a result of
/// an `scf.if`, `scf.index_switch` or `arith.select` one of whose choices
/// may be (a worklist: branches nest without bound).
fn may_be_buffer(value: Value, arg: Value) -> bool {
    let mut work = vec![value];
    let mut seen = std::collections::HashSet::new();
    while let Some(v) = work.pop() {
        if v == arg {
            return true;
        }
        if !seen.insert(v.to_raw().ptr) {
            continue;
        }
        let Some(op) = ir::defining_op(v) else {
            continue;
        };
        match op_name(&op).as_str() {
            "scf.if" | "scf.index_switch" => {
                let index = ir::result_number(v);
                work.extend((0..op.region_count()).filter_map(|r| {
                    ir::region_terminator(op, r).and_then(|y| ir::operand(y, index))
                }));
            }
            "arith.select" => work.extend(ir::operands(op).into_iter().skip(1)),
            _ => {}
        }
    }
    false
}
