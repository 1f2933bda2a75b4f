//! Two-shot allreduce (docs/passes/pld-lower-composite-ops.md, "Two-shot allreduce";
//! docs/algorithms.md): reduce-scatter by reading the peers' shards of this
//! rank's segment, then gather the reduced segments.
//!
//! The target is one row of SIZE elements split into NR segments with the
//! ring's boundaries (`b(i) = i*SIZE/NR`; FP16 rounds interior boundaries up
//! to 16 elements, so a remote load rounded up to whole 32-byte blocks never
//! reads into a segment another rank is writing):
//!
//! ```text
//! barrier g = 1                                   // ready
//! for col in b(me)..b(me+1) step C:               // reduce my segment
//!   acc = fillpad(load(t, [0, col])) (op) every peer's [0, col], in rank order
//!   store(acc, t, [0, col])
//! barrier g = 2                                   // every segment reduced
//! for i in 1..NR: q = (me + i) mod NR             // gather, staggered
//!   for col in b(q)..b(q+1) step C: store(remote_load(t, q, [0, col]), t, [0, col])
//! barrier g = 3                                   // nobody reads my segment any more
//! epilogue -3
//! ```
//!
//! Three barriers whatever the length: in the first phase a rank writes
//! only its own segment, which no peer reads then, and in the second it
//! writes only the others' segments, which no peer reads then either; the
//! third keeps a returning rank from overwriting its segment while a peer
//! still gathers it. The signal is the mesh's `[NR, 1]`.

use super::comm::{self, Cells, Comm};
use super::geometry;
use super::mesh::{fold_peers, Chunk, Segmented};
use super::row::{view_as_row, RowTiles};
use super::AllReduceRequest;
use melior::ir::Value;
use pld_dialect::ops::tile::{TileSetValidShape, TileStore};
use pld_ir::build::Builder;

/// Values both phases share.
struct TwoShot<'c, 'a> {
    comm: Comm<'c, 'a>,
    tiles: RowTiles<'c, 'a>,
    size: Value<'c, 'a>,
    chunk: Value<'c, 'a>,
}

impl<'c, 'a> TwoShot<'c, 'a>
where
    'c: 'a,
{
    /// Segment boundary `b(i)` over the run-time rank count.
    fn boundary(&self, b: &Builder<'c, 'a>, i: Value<'c, 'a>) -> Value<'c, 'a> {
        let scaled = b.mul(i, self.size);
        let nr = self.comm.nranks;
        if self.tiles.fp16 {
            let block = b.index(geometry::FP16_BLOCK);
            let blocks = b.mul(nr, block);
            let rounded = b.ceil_div(scaled, blocks);
            let rounded = b.mul(rounded, block);
            b.min(rounded, self.size)
        } else {
            b.div(scaled, nr)
        }
    }

    /// `for col in b(segment)..b(segment + 1) step C`, handing the body its
    /// chunk's columns.
    fn each_chunk(
        &self,
        b: &Builder<'c, 'a>,
        segment: Value<'c, 'a>,
        body: impl FnOnce(&Builder<'c, 'a>, &Chunk<'c, 'a>),
    ) {
        let begin = self.boundary(b, segment);
        let next = b.add(segment, self.comm.one);
        let end = self.boundary(b, next);
        let chunks = b.for_loop(begin, end, self.chunk, &[]);
        let c = chunks.body;
        let col = chunks.induction;
        let left = c.sub(end, col);
        let valid = c.min(self.chunk, left);
        let span = self.tiles.span(&c, valid);
        body(&c, &Chunk { col, valid, span });
    }

    /// `tile` narrowed to the chunk's valid columns and stored at its place.
    fn store(&self, b: &Builder<'c, 'a>, tile: Value<'c, 'a>, chunk: &Chunk<'c, 'a>) {
        let narrowed = b.value(
            TileSetValidShape::builder(b.context, b.location)
                .tile(tile)
                .valid_shape(&[self.comm.one, chunk.valid])
                .result(self.tiles.ragged)
                .build(),
        );
        b.insert(
            TileStore::builder(b.context, b.location)
                .tile(narrowed)
                .target(self.tiles.row)
                .offsets(&[self.comm.zero, chunk.col])
                .build(),
        );
    }

    /// Phase 1: this rank's segment, every peer's copy folded in.
    fn reduce_own(&self, b: &Builder<'c, 'a>, request: &AllReduceRequest<'c, 'a>) {
        let comm = &self.comm;
        self.each_chunk(b, comm.me, |c, chunk| {
            let mine = self.tiles.local(c, comm, chunk.col, chunk.valid);
            let reduced = fold_peers(
                c,
                comm,
                &self.tiles,
                comm.nranks,
                mine,
                chunk,
                request.reduce,
            );
            self.store(c, reduced, chunk);
        });
    }

    /// Phase 2: every other segment copied from its owner, starting with
    /// the next rank so that the ranks do not all read rank 0 first.
    fn gather(&self, b: &Builder<'c, 'a>) {
        let comm = &self.comm;
        let owners = b.for_loop(comm.one, comm.nranks, comm.one, &[]);
        let o = owners.body;
        let shifted = o.add(comm.me, owners.induction);
        let owner = o.rem(shifted, comm.nranks);
        self.each_chunk(&o, owner, |c, chunk| {
            let theirs = self
                .tiles
                .remote(c, comm, owner, chunk.col, chunk.valid, chunk.span);
            self.store(c, theirs, chunk);
        });
    }
}

/// The static chunk width: the ring's subchunk width when SIZE and the
/// signal's rank count are static, else a whole chunk. Any width is
/// correct; this one keeps short segments in one narrow tile.
fn chunk_cols(size: Option<i64>, ranks: Option<i64>, element_bytes: i64, fp16: bool) -> i64 {
    match (size, ranks) {
        (Some(size), Some(ranks)) if ranks > 0 => {
            geometry::ring(size, ranks, element_bytes, fp16).chunk_cols
        }
        _ => geometry::chunk_elems(element_bytes),
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
    let cols = chunk_cols(static_size, request.signal_info.dim(0), element_bytes, fp16);
    let row = view_as_row(b, request.target, static_total, total, &dtype);
    let shot = TwoShot {
        comm,
        tiles: RowTiles::new(b, row, cols, &dtype),
        size,
        chunk: b.index(cols),
    };
    let one = b.i32(1);
    comm::barrier(b, &comm, Cells::Mesh, one);
    shot.reduce_own(b, request);
    let two = b.i32(2);
    comm::barrier(b, &comm, Cells::Mesh, two);
    shot.gather(b);
    let three = b.i32(3);
    comm::barrier(b, &comm, Cells::Mesh, three);
    let negative = b.i32(-3);
    comm::epilogue(b, &comm, Cells::Mesh, negative);
}
