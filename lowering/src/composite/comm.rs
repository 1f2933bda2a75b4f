//! The comm setup, barrier and epilogue every composite rule shares
//! (docs/passes/pld-lower-composite-ops.md "Comm setup prelude", `EmitBarrier`, `EmitEpilogueReset`,
//! docs/passes/pld-lower-composite-ops.md, "The comm prelude, the barrier and the epilogue").

use melior::ir::Value;
use pld_dialect::{
    enums::{NotifyOp, WaitCmp},
    ops::{
        ctx::{GetCommCtx, NRanks, Rank},
        signal::{Notify, Wait},
    },
};
use pld_ir::build::Builder;

/// Values of the comm prelude.
#[derive(Clone, Copy)]
pub struct Comm<'c, 'a> {
    /// The `[NR, 1]` signal.
    pub signal: Value<'c, 'a>,
    /// Number of ranks (index), read at run time.
    pub nranks: Value<'c, 'a>,
    /// This rank (index).
    pub me: Value<'c, 'a>,
    pub zero: Value<'c, 'a>,
    pub one: Value<'c, 'a>,
    /// The prelude's `pld.system_nranks`, the first op of a rule that
    /// `pld-materialize-dist-tensor-ctx` keeps.
    pub prelude: Option<melior::ir::OperationRef<'c, 'a>>,
}

impl<'c, 'a> Comm<'c, 'a> {
    /// Keeps `mode = "auto"`'s record on the first op of the expansion
    /// (docs/passes/pld-select-allreduce-modes.md).
    pub fn record(&self, name: &str, choice: Option<melior::ir::Attribute<'c>>) {
        if let (Some(prelude), Some(choice)) = (self.prelude, choice) {
            pld_ir::set_attribute(prelude, name, choice);
        }
    }
}

/// `get_comm_ctx`, `nranks`, `rank`, and the index constants.
pub fn setup<'c, 'a>(b: &Builder<'c, 'a>, signal: Value<'c, 'a>) -> Comm<'c, 'a>
where
    'c: 'a,
{
    let ctx_type = melior::ir::Type::parse(b.context, "!pld.ctx").expect("!pld.ctx parses");
    let ctx = b.value(
        GetCommCtx::builder(b.context, b.location)
            .tensor(signal)
            .result(ctx_type)
            .build(),
    );
    let nranks = b.value(
        NRanks::builder(b.context, b.location)
            .ctx(ctx)
            .result(b.i32_type())
            .build(),
    );
    let prelude = pld_ir::defining_op(nranks);
    let nranks = b.index_cast(nranks, b.index_type());
    let me = b.value(
        Rank::builder(b.context, b.location)
            .ctx(ctx)
            .result(b.i32_type())
            .build(),
    );
    let me = b.index_cast(me, b.index_type());
    Comm {
        signal,
        nranks,
        me,
        zero: b.index(0),
        one: b.index(1),
        prelude,
    }
}

/// `for p in 0..nranks: if p != me: body(p)`.
fn for_each_peer<'c, 'a>(
    b: &Builder<'c, 'a>,
    comm: &Comm<'c, 'a>,
    body: impl Fn(&Builder<'c, 'a>, Value<'c, 'a>),
) where
    'c: 'a,
{
    let peers = b.for_loop(comm.zero, comm.nranks, comm.one, &[]);
    let other = peers.body.not_equal(peers.induction, comm.me);
    let guard = peers.body.if_then_else(other, &[]);
    body(&guard.then_body, peers.induction);
}

/// Which signal cells a barrier uses.
#[derive(Clone, Copy)]
pub enum Cells<'c, 'a> {
    /// `[NR, 1]` mesh signals: a rank's credits from `src` land in `[src, 0]`.
    Mesh,
    /// Ring signals `[rows, NR]`: one row per round, cell `[row, src]`.
    Row(Value<'c, 'a>),
}

impl<'c, 'a> Cells<'c, 'a> {
    /// The cell that collects the credits of `rank`.
    fn of(self, comm: &Comm<'c, 'a>, rank: Value<'c, 'a>) -> [Value<'c, 'a>; 2] {
        match self {
            Cells::Mesh => [rank, comm.zero],
            Cells::Row(row) => [row, rank],
        }
    }
}

/// One barrier generation: add a credit to our cell on every peer, then
/// wait until each peer's credit in our own cells reaches `expected` (an
/// i32; `Ge`, because a fast peer may already be ahead).
pub fn barrier<'c, 'a>(
    b: &Builder<'c, 'a>,
    comm: &Comm<'c, 'a>,
    cells: Cells<'c, 'a>,
    expected: Value<'c, 'a>,
) where
    'c: 'a,
{
    for_each_peer(b, comm, |b, peer| {
        let one = b.i32(1);
        b.insert(
            Notify::builder(b.context, b.location)
                .target(comm.signal)
                .peer(peer)
                .offsets(&cells.of(comm, comm.me))
                .value(one)
                .notify_op(b.context, NotifyOp::AtomicAdd)
                .build(),
        );
    });
    for_each_peer(b, comm, |b, source| {
        b.insert(
            Wait::builder(b.context, b.location)
                .signal(comm.signal)
                .offsets(&cells.of(comm, source))
                .expected(expected)
                .cmp(b.context, WaitCmp::Ge)
                .build(),
        );
    });
}

/// The epilogue of one cell family: take the call's credits (a negative
/// i32) back out of every peer's cell of our own signal, so the signal
/// returns to zero (docs/passes/pld-lower-composite-ops.md, "The comm prelude, the barrier and the epilogue").
pub fn epilogue<'c, 'a>(
    b: &Builder<'c, 'a>,
    comm: &Comm<'c, 'a>,
    cells: Cells<'c, 'a>,
    negative_credits: Value<'c, 'a>,
) where
    'c: 'a,
{
    for_each_peer(b, comm, |b, source| {
        b.insert(
            Notify::builder(b.context, b.location)
                .target(comm.signal)
                .peer(comm.me)
                .offsets(&cells.of(comm, source))
                .value(negative_credits)
                .notify_op(b.context, NotifyOp::AtomicAdd)
                .build(),
        );
    });
}
