//! Mesh allreduce of any length (spec 7.1.2, fully-valid path).
//!
//! The target is viewed as one row of N elements and reduced in chunks of
//! C columns (a fixed physical `[1, C]` tile with a ragged valid extent):
//!
//! ```text
//! barrier g = 1                                   // ready
//! for col in 0..N step C:
//!   vc  = min(C, N - col); rvc = FP16 ? round_up(vc, 16) : vc
//!   acc = fillpad(load(t, [0, col], valid [1, vc]))
//!   for peer: if peer != me: acc = acc (op) fillpad(remote_load(t, peer, [0, col], valid [1, rvc]))
//!   barrier g = col / C + 2                       // write-after-read guard
//!   store(set_validshape(acc, 1, vc), t, [0, col])
//! epilogue -(1 + ceil(N / C))
//! ```

use super::comm::{self, Cells, Comm};
use super::geometry;
use crate::build::Builder;
use melior::ir::{Type, Value};
use pld_dialect::{
    enums::ReduceOp,
    ops::{
        remote::{RemoteLoad, RemoteLoadTailPadded},
        tile::{reduction_op, TensorView, TileFillPad, TileLoad, TileSetValidShape, TileStore},
        OpBuild,
    },
    types::TensorInfo,
};

/// What the mesh rule needs to know about one allreduce.
pub struct Request<'c, 'a> {
    pub target: Value<'c, 'a>,
    pub info: TensorInfo<'c>,
    pub signal: Value<'c, 'a>,
    pub reduce: ReduceOp,
}

fn parse_type<'c>(b: &Builder<'c, '_>, text: &str) -> Type<'c> {
    Type::parse(b.context, text).unwrap_or_else(|| panic!("type {text} parses"))
}

/// The flat length N: a constant, or the product of the dimensions.
pub fn flat_length<'c, 'a>(
    b: &Builder<'c, 'a>,
    target: Value<'c, 'a>,
    info: &TensorInfo,
) -> (Option<i64>, Value<'c, 'a>)
where
    'c: 'a,
{
    if let Some(n) = info.static_numel() {
        return (Some(n), b.index(n));
    }
    let mut length = b.index(1);
    for (i, extent) in info.shape.iter().enumerate() {
        let extent = b.dim(target, *extent, i);
        length = b.mul(length, extent);
    }
    (None, length)
}

pub fn lower<'c, 'a>(b: &Builder<'c, 'a>, request: &Request<'c, 'a>)
where
    'c: 'a,
{
    let dtype = request.info.dtype();
    let fp16 = dtype == "f16";
    let element_bytes = if fp16 { 2 } else { 4 };
    let comm: Comm = comm::setup(b, request.signal);
    let (static_n, n) = flat_length(b, request.target, &request.info);
    let chunk = geometry::select_static_chunk_cols(static_n, element_bytes);

    // The target as one row of N elements.
    let row_type = match static_n {
        Some(n) => parse_type(b, &format!("tensor<1x{n}x{dtype}, #pld.dist>")),
        None => parse_type(b, &format!("tensor<1x?x{dtype}, #pld.dist>")),
    };
    let dynamic: Vec<Value> = if static_n.is_some() { vec![] } else { vec![n] };
    let row = b.value(
        TensorView::builder(b.context, b.location)
            .source(request.target)
            .dynamic_sizes(&dynamic)
            .valid_shape(&[])
            .result(row_type)
            .build(),
    );
    let tile = parse_type(b, &format!("tensor<1x{chunk}x{dtype}, #pld.tile>"));
    let ragged = parse_type(
        b,
        &format!("tensor<1x{chunk}x{dtype}, #pld.tile_with<{{valid_shape = array<i64: 1, -1>}}>>"),
    );

    // Ready barrier: every rank's data is in place.
    let ready = b.i32(1);
    comm::barrier(b, &comm, Cells::Mesh, ready);

    let c = b.index(chunk);
    let chunks = b.for_loop(comm.zero, n, c, &[]);
    let body = chunks.body;
    let col = chunks.induction;
    let left = body.sub(n, col);
    let valid = body.min(c, left);
    let remote_valid = if fp16 {
        body.round_up(valid, geometry::FP16_BLOCK)
    } else {
        valid
    };
    let local = body.value(
        TileLoad::builder(b.context, b.location)
            .source(row)
            .offsets(&[comm.zero, col])
            .valid_shape(&[comm.one, valid])
            .result(ragged)
            .build(),
    );
    let first = body.value(
        TileFillPad::builder(b.context, b.location)
            .tile(local)
            .result(tile)
            .build(),
    );

    // Reduce every peer's chunk into the accumulator.
    let peers = body.for_loop(comm.zero, comm.nranks, comm.one, &[first]);
    let acc = peers.carried[0];
    let other = peers.body.not_equal(peers.induction, comm.me);
    let guard = peers.body.if_then_else(other, &[tile]);
    let then = guard.then_body;
    let loaded = if fp16 {
        let wide = then.value(
            RemoteLoadTailPadded::builder(b.context, b.location)
                .target(row)
                .peer(peers.induction)
                .offsets(&[comm.zero, col])
                .valid_shape(&[comm.one, remote_valid])
                .result(ragged)
                .build(),
        );
        then.value(
            TileSetValidShape::builder(b.context, b.location)
                .tile(wide)
                .valid_shape(&[comm.one, valid])
                .result(ragged)
                .build(),
        )
    } else {
        then.value(
            RemoteLoad::builder(b.context, b.location)
                .target(row)
                .peer(peers.induction)
                .offsets(&[comm.zero, col])
                .valid_shape(&[comm.one, remote_valid])
                .result(ragged)
                .build(),
        )
    };
    let padded = then.value(
        TileFillPad::builder(b.context, b.location)
            .tile(loaded)
            .result(tile)
            .build(),
    );
    let reduced = then.value(
        OpBuild::new(b.context, reduction_op(request.reduce), b.location)
            .operands("lhs", &[acc])
            .operands("rhs", &[padded])
            .result(tile)
            .build(),
    );
    crate::ir::set_operands(
        crate::ir::region_terminator(guard.op, 0).expect("then yield"),
        &[reduced],
    );
    crate::ir::set_operands(
        crate::ir::region_terminator(guard.op, 1).expect("else yield"),
        &[acc],
    );
    crate::ir::set_operands(peers.yield_op, &[crate::ir::result(guard.op)]);
    let total = crate::ir::result(peers.op);

    // Chunk k waits for generation k + 2: no rank overwrites this chunk
    // before every peer has read it.
    let k = body.div(col, c);
    let two = body.index(2);
    let generation = body.add(k, two);
    let generation = body.index_cast(generation, body.i32_type());
    comm::barrier(&body, &comm, Cells::Mesh, generation);
    let narrowed = body.value(
        TileSetValidShape::builder(b.context, b.location)
            .tile(total)
            .valid_shape(&[comm.one, valid])
            .result(ragged)
            .build(),
    );
    body.insert(
        TileStore::builder(b.context, b.location)
            .tile(narrowed)
            .target(row)
            .offsets(&[comm.zero, col])
            .build(),
    );

    // Epilogue: 1 ready barrier + one per chunk.
    let negative = match static_n {
        Some(0) => b.i32(-1),
        Some(n) => b.i32(-geometry::mesh(n, element_bytes, fp16).credits),
        None => {
            let bias = b.index(chunk - 1);
            let biased = b.add(n, bias);
            let count = b.div(biased, c);
            let credits = b.add(count, comm.one);
            let zero = b.index(0);
            let negative = b.sub(zero, credits);
            b.index_cast(negative, b.i32_type())
        }
    };
    comm::epilogue(b, &comm, Cells::Mesh, negative);
}
