//! Ring allreduce (docs/passes/pld-lower-composite-ops.md): reduce-scatter then all-gather around the
//! ring of ranks, pulling from the left neighbour, one signal row per step.
//!
//! The target is one row of SIZE elements split into NR segments
//! (`b(i) = i*SIZE/NR`; FP16 rounds interior boundaries up to 16 elements).
//! Every rank walks the same `max_seg / C` subchunks per step, also past
//! the end of a shorter segment, so every rank issues the same number of
//! barriers per row; inactive subchunks load one local element as a
//! placeholder. Each subchunk has a ready and a read-complete barrier, so a
//! row collects `2 * ceil(max_seg / C)` credits.

use super::comm::{self, Cells, Comm};
use super::geometry;
use super::mesh::Segmented;
use super::row::{view_as_row, RowTiles};
use super::AllReduceRequest;
use melior::ir::Value;
use pld_dialect::collective::CollectiveKind;
use pld_dialect::enums::AllReduceMode;
use pld_dialect::{
    enums::ReduceOp,
    ops::{
        tile::{reduction_op, TileSetValidShape, TileStore},
        OpBuild,
    },
    types::TensorInfo,
};
use pld_ir::build::Builder;

/// The preconditions of docs/passes/pld-lower-composite-ops.md: a `[2*(NR-1), NR]` INT32 signal and a
/// valid region that is a contiguous row-major prefix.
pub fn check(request: &AllReduceRequest) -> Result<(), String> {
    check_shapes(&request.signal_info, &request.info)
}

/// [`check`] on the types alone (also what `mode = "auto"` asks of a
/// ring candidate).
pub fn check_shapes(signal: &TensorInfo, info: &TensorInfo) -> Result<(), String> {
    if !signal.is_distributed() {
        return Err("mode = \"ring\" needs a distributed signal (#pld.dist)".into());
    }
    if signal.rank() != 2 {
        return Err(format!(
            "mode = \"ring\" needs a rank-2 signal [2*(NR-1), NR], NR the number of ranks, got rank {}",
            signal.rank()
        ));
    }
    if signal.dtype() != "i32" {
        return Err(format!(
            "mode = \"ring\" needs an i32 signal, got {}",
            signal.dtype()
        ));
    }
    super::ranks_fit(signal.dim(1), "signal dim 1")?;
    if let (Some(rows), Some(nr)) = (signal.dim(0), signal.dim(1)) {
        let [needed, _] = CollectiveKind::AllReduce.composite_signal_shape(AllReduceMode::Ring, nr);
        if nr > 0 && rows != needed {
            return Err(format!(
                "signal dim 0 ({rows}) must be 2*(NR-1) = {needed} for NR = {nr} ranks (signal dim 1)"
            ));
        }
    }
    contiguous_prefix(info)
}

/// A valid region the flat row can carry: a contiguous row-major prefix
/// (leading 1s, then one partial dimension, then full ones).
pub fn contiguous_prefix(info: &TensorInfo) -> Result<(), String> {
    if let Some(valid) = &info.valid_shape {
        let first = valid.iter().position(|v| *v != 1).unwrap_or(valid.len());
        let prefix = (first + 1..valid.len()).all(|j| Some(valid[j]) == info.dim(j));
        if !prefix {
            return Err("target valid_shape must be a contiguous row-major prefix".into());
        }
    }
    Ok(())
}

/// Types and values shared by both phases.
struct Ring<'c, 'a> {
    comm: Comm<'c, 'a>,
    tiles: RowTiles<'c, 'a>,
    size: Value<'c, 'a>,
    nr: Value<'c, 'a>,
    max_segment: Value<'c, 'a>,
    chunk: Value<'c, 'a>,
    left: Value<'c, 'a>,
    reduce: ReduceOp,
}

impl<'c, 'a> Ring<'c, 'a>
where
    'c: 'a,
{
    /// Segment boundary `b(i)`.
    fn boundary(&self, b: &Builder<'c, 'a>, i: Value<'c, 'a>) -> Value<'c, 'a> {
        let scaled = b.mul(i, self.size);
        if self.tiles.fp16 {
            let block = b.index(geometry::FP16_BLOCK);
            let blocks = b.mul(self.nr, block);
            let rounded = b.ceil_div(scaled, blocks);
            let rounded = b.mul(rounded, block);
            b.min(rounded, self.size)
        } else {
            b.div(scaled, self.nr)
        }
    }

    /// A remote load of `[0, col]` with `valid` logical columns from the
    /// left neighbour, fill-padded.
    fn pull(&self, b: &Builder<'c, 'a>, col: Value<'c, 'a>, valid: Value<'c, 'a>) -> Value<'c, 'a> {
        let span = self.tiles.span(b, valid);
        self.tiles
            .remote(b, &self.comm, self.left, col, valid, span)
    }

    /// A local load of `[0, col]` with `valid` columns, fill-padded.
    fn local(
        &self,
        b: &Builder<'c, 'a>,
        col: Value<'c, 'a>,
        valid: Value<'c, 'a>,
    ) -> Value<'c, 'a> {
        self.tiles.local(b, &self.comm, col, valid)
    }

    /// One phase: `NR - 1` steps on signal rows `first_row..`, each moving
    /// segment `(me + NR - step - back) mod NR` from the left neighbour;
    /// `reduce` adds the local segment (reduce-scatter) or not (all-gather).
    fn phase(&self, b: &Builder<'c, 'a>, first_row: Value<'c, 'a>, back: i64, reduce: bool) {
        let comm = &self.comm;
        let steps = b.sub(comm.nranks, comm.one);
        let outer = b.for_loop(comm.zero, steps, comm.one, &[]);
        let s = outer.body;
        let step = s.add(outer.induction, comm.one);
        let row = s.add(outer.induction, first_row);
        let shifted = s.add(comm.me, comm.nranks);
        let shifted = s.sub(shifted, step);
        let back = s.index(back);
        let shifted = s.sub(shifted, back);
        let segment = s.rem(shifted, comm.nranks);
        let begin = self.boundary(&s, segment);
        let next = s.add(segment, comm.one);
        let end = self.boundary(&s, next);
        let length = s.sub(end, begin);

        let subchunks = s.for_loop(comm.zero, self.max_segment, self.chunk, &[]);
        let c = subchunks.body;
        let sub = subchunks.induction;
        let active = c.less_than(sub, length);
        let left_in_segment = c.sub(length, sub);
        let valid = c.min(self.chunk, left_in_segment);
        let loaded = c.max(comm.one, valid);
        let k = c.div(sub, self.chunk);
        let two = c.index(2);
        let twice = c.mul(k, two);
        let ready = c.add(twice, comm.one);
        let ready32 = c.index_cast(ready, c.i32_type());
        comm::barrier(&c, comm, Cells::Row(row), ready32);

        let col = c.add(begin, sub);
        let branch = c.if_then_else(active, &[self.tiles.tile]);
        let then = branch.then_body;
        let pulled = self.pull(&then, col, loaded);
        let value = if reduce {
            let mine = self.local(&then, col, loaded);
            then.value(
                OpBuild::new(c.context, reduction_op(self.reduce), c.location)
                    .operands("lhs", &[mine])
                    .operands("rhs", &[pulled])
                    .result(self.tiles.tile)
                    .build(),
            )
        } else {
            pulled
        };
        pld_ir::set_operands(then.anchor, &[value]);
        let otherwise = branch
            .else_body
            .expect("the if has results, so an else branch");
        // Inactive: a real one-element local load of the same type.
        let placeholder = self.local(&otherwise, comm.zero, loaded);
        pld_ir::set_operands(otherwise.anchor, &[placeholder]);
        let acc = pld_ir::result(branch.op);

        let read = c.add(ready, comm.one);
        let read32 = c.index_cast(read, c.i32_type());
        comm::barrier(&c, comm, Cells::Row(row), read32);

        // The store offset and extent are clamped into [0, SIZE) so that a
        // bounds prover need not reason about the `if` (identities when
        // active).
        let guard = c.if_then_else(active, &[]);
        let g = guard.then_body;
        let zero = comm.zero;
        let over = g.sub(self.size, col);
        let over = g.max(zero, over);
        let start = g.sub(self.size, over);
        let tail = g.add(start, valid);
        let past = g.sub(self.size, tail);
        let past = g.max(zero, past);
        let stop = g.sub(self.size, past);
        let extent = g.sub(stop, start);
        let narrowed = g.value(
            TileSetValidShape::builder(g.context, g.location)
                .tile(acc)
                .valid_shape(&[comm.one, extent])
                .result(self.tiles.ragged)
                .build(),
        );
        g.insert(
            TileStore::builder(g.context, g.location)
                .tile(narrowed)
                .target(self.tiles.row)
                .offsets(&[zero, start])
                .build(),
        );
    }
}

pub fn lower<'c, 'a>(b: &Builder<'c, 'a>, request: &AllReduceRequest<'c, 'a>)
where
    'c: 'a,
{
    let Segmented {
        dtype,
        fp16,
        element_bytes,
        comm,
        static_total,
        total,
        static_size,
        size,
    } = Segmented::new(b, request);
    let static_nr = request.signal_info.dim(1);
    let nr = b.dim(request.signal, static_nr, 1);

    // Geometry: static when SIZE and NR are.
    let chunk_elems = geometry::chunk_elems(element_bytes);
    let (chunk, max_segment, per_row) = match (static_size, static_nr) {
        (Some(size), Some(ranks)) if ranks > 0 => {
            let ring = geometry::ring(size, ranks, element_bytes, fp16);
            (
                b.index(ring.chunk_cols),
                b.index(ring.max_segment),
                Some(ring.credits_per_row),
            )
        }
        _ => {
            let mut longest = b.ceil_div(size, nr);
            if fp16 {
                let extra = b.index(geometry::FP16_TAIL_PADDING);
                let padded = b.add(longest, extra);
                longest = b.min(size, padded);
            }
            (b.index(chunk_elems), longest, None)
        }
    };
    let chunk_cols = pld_ir::constant_int(chunk).unwrap_or(chunk_elems);

    let row = view_as_row(b, request.target, static_total, total, &dtype);
    let last = b.sub(comm.nranks, comm.one);
    let shifted = b.add(comm.me, last);
    let left = b.rem(shifted, comm.nranks);
    let ring = Ring {
        comm,
        tiles: RowTiles::new(b, row, chunk_cols, &dtype),
        size,
        nr,
        max_segment,
        chunk,
        left,
        reduce: request.reduce,
    };

    // Phase 1: reduce-scatter on rows 0..NR-2; after it rank r holds the
    // full reduction of segment r.
    ring.phase(b, comm.zero, 1, true);
    // Phase 2: all-gather on rows NR-1..2NR-3.
    ring.phase(b, last, 0, false);

    // Epilogue: every cell of every row gave back 2 * ceil(max_seg / C).
    let negative = match per_row {
        Some(credits) => b.i32(-credits),
        None => {
            let subchunks = b.ceil_div(max_segment, chunk);
            let two = b.index(2);
            let credits = b.mul(subchunks, two);
            let zero = b.index(0);
            let negative = b.sub(zero, credits);
            b.index_cast(negative, b.i32_type())
        }
    };
    let rows = b.dim(request.signal, request.signal_info.dim(0), 0);
    let each_row = b.for_loop(comm.zero, rows, comm.one, &[]);
    comm::epilogue(
        &each_row.body,
        &comm,
        Cells::Row(each_row.induction),
        negative,
    );
}
