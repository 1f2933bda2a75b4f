//! The other composite rules of docs/passes/pld-lower-composite-ops.md: broadcast, reduce_scatter,
//! allgather, all_to_all and all_to_all_v. All use a `[NR, 1]` signal and
//! are self-clearing, so they are legal inside loops.

use super::comm::{self, Cells, Comm};
use super::geometry;
use melior::ir::Value;
use pld_dialect::{
    enums::{AtomicType, NotifyOp, ReduceOp},
    ops::{
        remote::{TileGet, TilePut},
        signal::Notify,
        tile::{TensorRead, TileCreate},
    },
    types::TensorInfo,
};
use pld_ir::build::Builder;

fn element_bytes(info: &TensorInfo) -> i64 {
    pld_ir::types::byte_width(info.element).unwrap_or(4)
}

/// A staging tile for moving `rows x cols` elements of `info`'s dtype.
fn stage<'c, 'a>(
    b: &Builder<'c, 'a>,
    info: &TensorInfo,
    rows: Option<i64>,
    cols: Option<i64>,
) -> Value<'c, 'a>
where
    'c: 'a,
{
    let (rows, cols) = geometry::stage_shape(rows, cols, element_bytes(info));
    let ty = b.parse_type(&format!(
        "tensor<{rows}x{cols}x{}, #pld.tile>",
        info.dtype()
    ));
    b.value(
        TileCreate::builder(b.context, b.location)
            .result(ty)
            .build(),
    )
}

/// One barrier generation and the matching epilogue of `credits`.
fn finish_with_credits<'c, 'a>(b: &Builder<'c, 'a>, comm: &Comm<'c, 'a>, credits: i64)
where
    'c: 'a,
{
    let negative = b.i32(-credits);
    comm::epilogue(b, comm, Cells::Mesh, negative);
}

/// `broadcast(target, signal) {root}`: after a ready barrier every rank
/// copies root's target into its own.
pub fn broadcast<'c, 'a>(
    b: &Builder<'c, 'a>,
    target: Value<'c, 'a>,
    info: &TensorInfo,
    signal: Value<'c, 'a>,
    root: i64,
) -> Result<(), String>
where
    'c: 'a,
{
    let Some((rows, cols)) = matrix(info) else {
        return Err("needs a static target shape in an InCore kernel".into());
    };
    let comm = comm::setup(b, signal);
    let one = b.i32(1);
    comm::barrier(b, &comm, Cells::Mesh, one);
    let staging = stage(b, info, Some(rows), Some(cols));
    let root = b.i32(root);
    b.insert(
        TileGet::builder(b.context, b.location)
            .dst(target)
            .peer(root)
            .src(target)
            .stage(staging)
            .pong(None)
            .dst_offsets(&[])
            .src_offsets(&[])
            .shape(&[])
            .build(),
    );
    finish_with_credits(b, &comm, 1);
    Ok(())
}

/// `[prod(shape[:-1]), shape[-1]]` of a static shape.
fn matrix(info: &TensorInfo) -> Option<(i64, i64)> {
    let (last, leading) = info.shape.split_last()?;
    let rows = leading.iter().try_fold(1i64, |acc, d| Some(acc * (*d)?))?;
    Some((rows, (*last)?))
}

/// The static row width of a `[NR, SIZE]` operand.
fn row_width(info: &TensorInfo, role: &str) -> Result<i64, String> {
    info.dim(1)
        .ok_or_else(|| format!("needs a static {role} dim 1 (the row width) in an InCore kernel"))
}

/// `reduce_scatter(target [NR, SIZE], signal) {sum}`: after a ready barrier
/// each rank sums every peer's row `me` into its own row `me`; a second
/// barrier keeps the store after every peer's read.
pub fn reduce_scatter<'c, 'a>(
    b: &Builder<'c, 'a>,
    target: Value<'c, 'a>,
    info: &TensorInfo,
    signal: Value<'c, 'a>,
    ub: i64,
) -> Result<(), String>
where
    'c: 'a,
{
    if info.valid_shape.is_some() {
        return Err(
            "a target with a valid_shape is not supported by pld.tensor_reduce_scatter yet".into(),
        );
    }
    let size = row_width(info, "target")?;
    // Its own row and a peer's, whole, in UB at once.
    let bytes = size.saturating_mul(element_bytes(info)).saturating_mul(2);
    if bytes > ub {
        return Err(format!(
            "reduces a whole row of its target in UB on the InCore rail: two tiles of {size} x \
             {} take {bytes} bytes, more than the {ub} bytes of UB; rows of at most {} elements \
             fit (the HOST rail takes any row)",
            info.dtype(),
            ub / 2 / element_bytes(info).max(1)
        ));
    }
    let comm = comm::setup(b, signal);
    let tile = b.parse_type(&format!("tensor<1x{size}x{}, #pld.tile>", info.dtype()));
    super::mesh::reduce_box(b, &comm, target, &[comm.me, comm.zero], tile, ReduceOp::Sum);
    Ok(())
}

/// A put of `shape` rows from `src` at `src_offsets` into `peer`'s `dst`
/// at `dst_offsets`, through `staging`.
#[allow(clippy::too_many_arguments)]
fn put<'c, 'a>(
    b: &Builder<'c, 'a>,
    dst: Value<'c, 'a>,
    peer: Value<'c, 'a>,
    src: Value<'c, 'a>,
    staging: Value<'c, 'a>,
    dst_offsets: &[Value<'c, 'a>],
    src_offsets: &[Value<'c, 'a>],
    shape: &[Value<'c, 'a>],
) where
    'c: 'a,
{
    b.insert(
        TilePut::builder(b.context, b.location)
            .dst(dst)
            .peer(peer)
            .src(src)
            .stage(staging)
            .pong(None)
            .dst_offsets(dst_offsets)
            .src_offsets(src_offsets)
            .shape(shape)
            .atomic(b.context, AtomicType::None)
            .build(),
    );
}

/// `allgather(input [1, SIZE], target [NR, SIZE], signal)`: every rank puts
/// its row into row `me` of every rank's target (itself included), then a
/// barrier.
pub fn allgather<'c, 'a>(
    b: &Builder<'c, 'a>,
    input: Value<'c, 'a>,
    input_info: &TensorInfo,
    target: Value<'c, 'a>,
    signal: Value<'c, 'a>,
) -> Result<(), String>
where
    'c: 'a,
{
    if input_info.is_distributed() {
        return Err(
            "input must be a plain tensor of one row (no #pld.dist) in an InCore kernel".into(),
        );
    }
    put_row_to_every_rank(b, input, input_info, target, signal, RowSource::Gather)
}

/// `all_to_all(input [NR, SIZE], target, signal)`: row `dest` of the input
/// goes to row `me` of rank `dest`'s target, then a barrier.
pub fn all_to_all<'c, 'a>(
    b: &Builder<'c, 'a>,
    input: Value<'c, 'a>,
    input_info: &TensorInfo,
    target: Value<'c, 'a>,
    signal: Value<'c, 'a>,
) -> Result<(), String>
where
    'c: 'a,
{
    put_row_to_every_rank(b, input, input_info, target, signal, RowSource::Exchange)
}

/// Which input row goes to each destination.
#[derive(Clone, Copy, PartialEq, Eq)]
enum RowSource {
    /// allgather: the one input row to everyone.
    Gather,
    /// all_to_all: input row `dest` to rank `dest`.
    Exchange,
}
/// The body allgather and all_to_all share: for every rank `dest` (this
/// one included), put an input row into row `me` of `dest`'s target
/// through a one-row stage, then one barrier and its credit back.
fn put_row_to_every_rank<'c, 'a>(
    b: &Builder<'c, 'a>,
    input: Value<'c, 'a>,
    input_info: &TensorInfo,
    target: Value<'c, 'a>,
    signal: Value<'c, 'a>,
    source: RowSource,
) -> Result<(), String>
where
    'c: 'a,
{
    let size = row_width(input_info, "input")?;
    let comm = comm::setup(b, signal);
    let staging = stage(b, input_info, Some(1), Some(size));
    let width = b.index(size);
    let dests = b.for_loop(comm.zero, comm.nranks, comm.one, &[]);
    let source_row = match source {
        RowSource::Gather => comm.zero,
        RowSource::Exchange => dests.induction,
    };
    put(
        &dests.body,
        target,
        dests.induction,
        input,
        staging,
        &[comm.me, comm.zero],
        &[source_row, comm.zero],
        &[comm.one, width],
    );
    let one = b.i32(1);
    comm::barrier(b, &comm, Cells::Mesh, one);
    finish_with_credits(b, &comm, 1);
    Ok(())
}

/// The operands of `all_to_all_v`.
pub struct AllToAllV<'c, 'a> {
    pub input: Value<'c, 'a>,
    pub input_info: TensorInfo<'c>,
    pub target: Value<'c, 'a>,
    pub target_info: TensorInfo<'c>,
    pub signal: Value<'c, 'a>,
    pub signal_info: TensorInfo<'c>,
    pub send_counts: Value<'c, 'a>,
    pub send_info: TensorInfo<'c>,
    pub recv_counts: Value<'c, 'a>,
    pub core_num: Option<Value<'c, 'a>>,
}

/// `all_to_all_v` (docs/passes/pld-lower-composite-ops.md, newer semantics): for each destination `d`
/// exactly `clamp(send_counts[d], 0, MAX)` rows are put into `d`'s slot for
/// this rank, the count is always published to `d`'s `recv_counts[me]`
/// (with Set: these are data cells, not credits), and a zero count skips
/// the put; then one barrier.
pub fn all_to_all_v<'c, 'a>(b: &Builder<'c, 'a>, op: &AllToAllV<'c, 'a>) -> Result<(), String>
where
    'c: 'a,
{
    if let Some(core_num) = op.core_num {
        if pld_ir::constant_int(core_num) != Some(1) {
            return Err(
                "in an InCore kernel needs core_num = 1 (a constant); call it from a CHIP \
                 orchestrator to use several AIV cores"
                    .into(),
            );
        }
    }
    let (Some(rows), Some(nr)) = (op.target_info.dim(0), op.signal_info.dim(0)) else {
        return Err(
            "in an InCore kernel needs a static target dim 0 and signal dim 0 (the number of \
             ranks) to size each sender's slot of target rows (target dim 0 / ranks)"
                .into(),
        );
    };
    if nr <= 0 || rows % nr != 0 {
        return Err(format!(
            "signal dim 0 ({nr}, the number of ranks) must divide target dim 0 ({rows})"
        ));
    }
    let capacity = rows / nr;
    let size = row_width(&op.target_info, "target")?;
    let comm = comm::setup(b, op.signal);
    let staging = stage(b, &op.target_info, Some(capacity), Some(size));
    let max = b.index(capacity);
    let width = b.index(size);
    let first_row = b.mul(comm.me, max);

    let dests = b.for_loop(comm.zero, comm.nranks, comm.one, &[]);
    let d = dests.body;
    let dest = dests.induction;
    let mut indices = vec![dest];
    if op.send_info.rank() == 2 {
        indices.push(comm.zero);
    }
    let count = d.value(
        TensorRead::builder(b.context, b.location)
            .source(op.send_counts)
            .indices(&indices)
            .result(d.i32_type())
            .build(),
    );
    let count = d.index_cast(count, d.index_type());
    let count = d.min(count, max);
    let count = d.max(count, comm.zero);
    let published = d.index_cast(count, d.i32_type());
    d.insert(
        Notify::builder(b.context, b.location)
            .target(op.recv_counts)
            .peer(dest)
            .offsets(&[comm.me, comm.zero])
            .value(published)
            .notify_op(b.context, NotifyOp::Set)
            .build(),
    );
    let some = d.less_than(comm.zero, count);
    let guard = d.if_then_else(some, &[]);
    let g = guard.then_body;
    let source_row = g.mul(dest, max);
    put(
        &g,
        op.target,
        dest,
        op.input,
        staging,
        &[first_row, comm.zero],
        &[source_row, comm.zero],
        &[count, width],
    );
    let one = b.i32(1);
    comm::barrier(b, &comm, Cells::Mesh, one);
    finish_with_credits(b, &comm, 1);
    Ok(())
}
