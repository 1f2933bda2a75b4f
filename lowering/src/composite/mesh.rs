//! Mesh allreduce of any length (docs/passes/pld-lower-composite-ops.md, fully-valid path).
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
//!
//! A reduce to a root is the same schedule in which only the root folds
//! its peers' chunks in and stores (the peer loop is empty and the store
//! skipped elsewhere); every rank takes part in every barrier.

use super::comm::{self, Cells, Comm};
use super::geometry;
use super::row::{view_as_row, RowTiles};
use super::AllReduceRequest;
use melior::ir::{Type, Value};
use pld_dialect::{
    enums::ReduceOp,
    ops::{
        remote::RemoteLoad,
        tile::{reduction_op, TensorView, TileLoad, TileSetValidShape, TileStore},
        OpBuild,
    },
    types::TensorInfo,
};
use pld_ir::build::Builder;

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

/// What the ring and two-shot schedules start from: the element type, the
/// signal's communicator (with the auto-mode record on it), the target's
/// flat length and the reduced length (its valid prefix, or all of it).
pub struct Segmented<'c, 'a> {
    pub dtype: String,
    pub fp16: bool,
    pub element_bytes: i64,
    pub comm: Comm<'c, 'a>,
    pub static_total: Option<i64>,
    pub total: Value<'c, 'a>,
    pub static_size: Option<i64>,
    pub size: Value<'c, 'a>,
}

impl<'c, 'a> Segmented<'c, 'a>
where
    'c: 'a,
{
    pub fn new(b: &Builder<'c, 'a>, request: &AllReduceRequest<'c, 'a>) -> Self {
        let dtype = request.info.dtype();
        let fp16 = dtype == "f16";
        let comm = comm::setup(b, request.signal);
        comm.record(super::AUTO_MODE_ATTRIBUTE, request.choice);
        let (static_total, total) = flat_length(b, request.target, &request.info);
        let static_size = match &request.info.valid_shape {
            Some(valid) => Some(valid.iter().product::<i64>()),
            None => static_total,
        };
        let size = match static_size {
            Some(size) => b.index(size),
            None => total,
        };
        Segmented {
            element_bytes: if fp16 { 2 } else { 4 },
            dtype,
            fp16,
            comm,
            static_total,
            total,
            static_size,
            size,
        }
    }
}

pub fn lower<'c, 'a>(b: &Builder<'c, 'a>, request: &AllReduceRequest<'c, 'a>)
where
    'c: 'a,
{
    let dtype = request.info.dtype();
    let fp16 = dtype == "f16";
    let element_bytes = if fp16 { 2 } else { 4 };
    let comm: Comm = comm::setup(b, request.signal);
    comm.record(super::AUTO_MODE_ATTRIBUTE, request.choice);
    let (static_n, n) = flat_length(b, request.target, &request.info);
    let chunk = geometry::select_static_chunk_cols(static_n, element_bytes);

    // The target as one row of N elements.
    let row = view_as_row(b, request.target, static_n, n, &dtype);
    let tiles = RowTiles::new(b, row, chunk, &dtype);

    // Ready barrier: every rank's data is in place.
    let ready = b.i32(1);
    comm::barrier(b, &comm, Cells::Mesh, ready);

    let c = b.index(chunk);
    let chunks = b.for_loop(comm.zero, n, c, &[]);
    let body = chunks.body;
    let col = chunks.induction;
    let left = body.sub(n, col);
    let valid = body.min(c, left);
    let remote_valid = tiles.span(&body, valid);
    let first = tiles.local(&body, &comm, col, valid);
    let is_root = request.root.map(|root| body.equal(comm.me, root));
    let upper = match is_root {
        Some(is_root) => body.select(is_root, comm.nranks, comm.zero),
        None => comm.nranks,
    };

    // Reduce every peer's chunk into the accumulator.
    let columns = Chunk {
        col,
        valid,
        span: remote_valid,
    };
    let total = fold_peers(&body, &comm, &tiles, upper, first, &columns, request.reduce);

    // Chunk k waits for generation k + 2: no rank overwrites this chunk
    // before every peer has read it.
    let k = body.div(col, c);
    let two = body.index(2);
    let generation = body.add(k, two);
    let generation = body.index_cast(generation, body.i32_type());
    comm::barrier(&body, &comm, Cells::Mesh, generation);
    let only_root;
    let body = match is_root {
        Some(is_root) => {
            only_root = body.if_then_else(is_root, &[]);
            &only_root.then_body
        }
        None => &body,
    };
    let narrowed = body.value(
        TileSetValidShape::builder(b.context, b.location)
            .tile(total)
            .valid_shape(&[comm.one, valid])
            .result(tiles.ragged)
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

/// Columns `[col, col + valid)` of the row; `span` is what a remote load
/// of them reads ([`RowTiles::span`]).
pub struct Chunk<'c, 'a> {
    pub col: Value<'c, 'a>,
    pub valid: Value<'c, 'a>,
    pub span: Value<'c, 'a>,
}

/// `first` with the chunk of every peer below `upper` but this rank
/// folded in by `reduce`, in rank order.
pub fn fold_peers<'c, 'a>(
    b: &Builder<'c, 'a>,
    comm: &Comm<'c, 'a>,
    tiles: &RowTiles<'c, 'a>,
    upper: Value<'c, 'a>,
    first: Value<'c, 'a>,
    chunk: &Chunk<'c, 'a>,
    reduce: ReduceOp,
) -> Value<'c, 'a>
where
    'c: 'a,
{
    let tile = tiles.tile;
    let peers = b.for_loop(comm.zero, upper, comm.one, &[first]);
    let acc = peers.carried[0];
    let other = peers.body.not_equal(peers.induction, comm.me);
    let guard = peers.body.if_then_else(other, &[tile]);
    let then = guard.then_body;
    let (col, valid, span) = (chunk.col, chunk.valid, chunk.span);
    let padded = tiles.remote(&then, comm, peers.induction, col, valid, span);
    let reduced = then.value(
        OpBuild::new(b.context, reduction_op(reduce), b.location)
            .operands("lhs", &[acc])
            .operands("rhs", &[padded])
            .result(tile)
            .build(),
    );
    pld_ir::set_operands(
        pld_ir::region_terminator(guard.op, 0).expect("then yield"),
        &[reduced],
    );
    pld_ir::set_operands(
        pld_ir::region_terminator(guard.op, 1).expect("else yield"),
        &[acc],
    );
    pld_ir::set_operands(peers.yield_op, &[pld_ir::result(guard.op)]);
    pld_ir::result(peers.op)
}

/// The physical and the valid 2-D extents of the partial-valid path.
pub struct PartialBox {
    pub rows: i64,
    pub cols: i64,
    pub valid_rows: i64,
    pub valid_cols: i64,
}

/// Whether the partial-valid path can lower a target with a valid_shape,
/// and its box: representable as one 2-D view of static extents, the
/// valid box within one mesh chunk. Also asked by
/// `pld-select-allreduce-modes`, for which the mesh is no candidate
/// otherwise.
pub fn partial_box(info: &TensorInfo) -> Result<PartialBox, String> {
    let Some(valid) = &info.valid_shape else {
        return Err("internal: the partial-valid path needs a valid_shape".into());
    };
    let (Some((valid_last, valid_leading)), Some((last, leading))) =
        (valid.split_last(), info.shape.split_last())
    else {
        return Err("valid_shape cannot be represented by a single 2D view".into());
    };
    // Collapsing the leading dimensions keeps the valid rows contiguous
    // only when every dimension after the first non-1 valid one is full.
    let first = valid_leading
        .iter()
        .position(|v| *v != 1)
        .unwrap_or(valid_leading.len());
    let contiguous = (first + 1..valid_leading.len()).all(|j| Some(valid_leading[j]) == leading[j]);
    if !contiguous {
        return Err("valid_shape cannot be represented by a single 2D view".into());
    }
    let rows: Option<i64> = leading.iter().try_fold(1i64, |acc, d| Some(acc * (*d)?));
    let (Some(rows), Some(cols)) = (rows, *last) else {
        // The spec allows this; our 2-D view type needs static extents.
        return Err(
            "a partial valid_shape needs a static physical shape on the composite rail (dynamic dimensions are not supported yet)"
                .into(),
        );
    };
    let valid_rows: i64 = valid_leading.iter().product();
    let valid_cols = *valid_last;
    let element_bytes = if info.dtype() == "f16" { 2 } else { 4 };
    if valid_rows * valid_cols > geometry::chunk_elems(element_bytes) {
        return Err(format!(
            "partial valid_shape must fit within one {}-byte mesh chunk using a statically bounded \
             tile (the valid box is {valid_rows} x {valid_cols})",
            geometry::CHUNK_BYTES
        ));
    }
    Ok(PartialBox {
        rows,
        cols,
        valid_rows,
        valid_cols,
    })
}

/// The partial-valid path of docs/passes/pld-lower-composite-ops.md: the valid box, collapsed to
/// `[prod(valid[:-1]), valid[-1]]`, is one tile; every peer's box is added
/// in, and a second barrier guards the store.
pub fn lower_partial<'c, 'a>(
    b: &Builder<'c, 'a>,
    request: &AllReduceRequest<'c, 'a>,
) -> Result<(), String>
where
    'c: 'a,
{
    let info = &request.info;
    let PartialBox {
        rows,
        cols,
        valid_rows,
        valid_cols,
    } = partial_box(info)?;
    let dtype = info.dtype();
    let comm = comm::setup(b, request.signal);
    comm.record(super::AUTO_MODE_ATTRIBUTE, request.choice);
    let view_type = b.parse_type(&format!(
            "tensor<{rows}x{cols}x{dtype}, #pld.dist_with<{{valid_shape = array<i64: {valid_rows}, {valid_cols}>}}>>"
        ),
    );
    let valid_rows_value = b.index(valid_rows);
    let valid_cols_value = b.index(valid_cols);
    let view = b.value(
        TensorView::builder(b.context, b.location)
            .source(request.target)
            .dynamic_sizes(&[])
            .valid_shape(&[valid_rows_value, valid_cols_value])
            .result(view_type)
            .build(),
    );
    // A single-column box of several rows is a column-major tile (spec:
    // an [M, 1] tile is col_major; the loads' verifier requires it).
    let encoding = match (valid_rows, valid_cols) {
        (2.., 1) => r#"#pld.tile_with<{blayout = "col_major"}>"#,
        _ => "#pld.tile",
    };
    let tile = b.parse_type(&format!(
        "tensor<{valid_rows}x{valid_cols}x{dtype}, {encoding}>"
    ));
    reduce_box(
        b,
        &comm,
        view,
        &[comm.zero, comm.zero],
        tile,
        request.reduce,
    );
    Ok(())
}

/// One box reduced in place across the ranks, for the partial-valid path
/// and reduce_scatter: a ready barrier (generation 1); this rank's tile at
/// `offsets` of `source` with every other rank's tile at the same offsets
/// folded in by `reduce`; a second barrier (generation 2), so no peer still
/// reads the box when it is overwritten; the store; and the epilogue that
/// returns both credits.
pub fn reduce_box<'c, 'a>(
    b: &Builder<'c, 'a>,
    comm: &Comm<'c, 'a>,
    source: Value<'c, 'a>,
    offsets: &[Value<'c, 'a>],
    tile: Type<'c>,
    reduce: ReduceOp,
) where
    'c: 'a,
{
    let one = b.i32(1);
    comm::barrier(b, comm, Cells::Mesh, one);
    let mine = b.value(
        TileLoad::builder(b.context, b.location)
            .source(source)
            .offsets(offsets)
            .valid_shape(&[])
            .result(tile)
            .build(),
    );
    let peers = b.for_loop(comm.zero, comm.nranks, comm.one, &[mine]);
    let acc = peers.carried[0];
    let other = peers.body.not_equal(peers.induction, comm.me);
    let guard = peers.body.if_then_else(other, &[tile]);
    let then = guard.then_body;
    let theirs = then.value(
        RemoteLoad::builder(b.context, b.location)
            .target(source)
            .peer(peers.induction)
            .offsets(offsets)
            .valid_shape(&[])
            .result(tile)
            .build(),
    );
    let reduced = then.value(
        OpBuild::new(b.context, reduction_op(reduce), b.location)
            .operands("lhs", &[acc])
            .operands("rhs", &[theirs])
            .result(tile)
            .build(),
    );
    pld_ir::set_operands(then.anchor, &[reduced]);
    let otherwise = guard
        .else_body
        .expect("an if with results has an else branch");
    pld_ir::set_operands(otherwise.anchor, &[acc]);
    pld_ir::set_operands(peers.yield_op, &[pld_ir::result(guard.op)]);
    let total = pld_ir::result(peers.op);
    let two = b.i32(2);
    comm::barrier(b, comm, Cells::Mesh, two);
    b.insert(
        TileStore::builder(b.context, b.location)
            .tile(total)
            .target(source)
            .offsets(offsets)
            .build(),
    );
    let negative = b.i32(-2);
    comm::epilogue(b, comm, Cells::Mesh, negative);
}
