//! `pld-insert-comm-fence`: the data-before-signal markers the
//! PTO assembler expects but does not check (a missing one is a silent
//! race).
//!
//! Docs: `docs/passes/pld-insert-comm-fence.md`; tests: `tests/lit/passes/pld-insert-comm-fence/`.
//!
//! | after | inserted |
//! |---|---|
//! | a local write into a window (`tile_store`, a get into a window) | region `cacheinvalid` + `fence` |
//! | a remote write (`tile_remote_store`, `tensor_remote_store`, `tile_put`, `tensor_put`) | `fence` (codegen invalidates the peer line) |
//! | a call of another function (an opaque write) | whole-GM `cacheinvalid` + `fence` |
//! | `pld.system_wait` | whole-GM `cacheinvalid` |
//!
//! Device functions only (orchestrators are untouched); one structural
//! walk, no flow analysis; markers already in place are not repeated.

use melior::{
    ir::{operation::OperationLike, OperationRef, Value},
    pass::Pass,
    Context,
};
use pld_dialect::ops::remote::{
    TensorGet, TensorPut, TensorRemoteStore, TileGet, TilePut, TileRemoteStore,
};
use pld_dialect::ops::tile::TileStore;
use pld_dialect::{
    ops::{fence::CacheInvalid, fence::Fence, OpView},
    query::function_kind,
    types::{value_info, TensorKind},
};
use pld_ir as ir;
use pld_ir::build::Builder;
use pld_ir::constant_int;
use pld_ir::op_name;
use pld_ir::pass::{external, Anchor, PassFailed, PassIdentity, PldPass, Report};

#[derive(Clone, Default)]
pub struct InsertCommFence;

impl PldPass for InsertCommFence {
    const ARGUMENT: &'static str = "pld-insert-comm-fence";
    const NAME: &'static str = "PldInsertCommFence";
    const SUMMARY: &'static str =
        "Insert the cache-invalidate and fence markers that order data before signals";

    const ANCHOR: Anchor = Anchor::Function;

    fn run(&self, context: &Context, root: OperationRef) -> Result<(), PassFailed> {
        let functions = ir::functions(root);
        let mut report = Report::default();
        for &function in &functions {
            crate::order::refuse_unlowered(&mut report, function, Self::ARGUMENT);
        }
        report.finish()?;
        for function in functions {
            if !function_kind(function)
                .ok()
                .flatten()
                .is_some_and(|k| k.is_device())
            {
                continue;
            }
            for op in ir::collect(function, |_| true) {
                mark(context, op);
            }
        }
        Ok(())
    }
}

/// What follows one op.
enum Marker<'c, 'a> {
    /// A local write into this window.
    Local(Value<'c, 'a>),
    Remote,
    Opaque,
    Wait,
}

fn marker<'c, 'a>(op: OperationRef<'c, 'a>) -> Option<Marker<'c, 'a>>
where
    'c: 'a,
{
    let name = op_name(&op);
    let window = |group: &str| {
        let value = OpView::new(op)?.one(group)?;
        let info = value_info(value).ok().flatten()?;
        (info.kind == TensorKind::Distributed).then_some(value)
    };
    match name.as_str() {
        TileStore::NAME => window("target").map(Marker::Local),
        TileGet::NAME | TensorGet::NAME => window("dst").map(Marker::Local),
        TileRemoteStore::NAME | TensorRemoteStore::NAME | TilePut::NAME | TensorPut::NAME => {
            Some(Marker::Remote)
        }
        "func.call" => Some(Marker::Opaque),
        pld_dialect::ops::signal::Wait::NAME => Some(Marker::Wait),
        _ => None,
    }
}

fn is_fence(op: Option<OperationRef>) -> bool {
    op.is_some_and(|op| op_name(&op) == Fence::NAME)
}

/// A whole-GM (`whole`) or region cache invalidate.
fn is_invalidate(op: Option<OperationRef>, whole: bool) -> bool {
    op.is_some_and(|op| op_name(&op) == CacheInvalid::NAME && (op.operand_count() == 0) == whole)
}

/// Whether a region invalidate covers all of `window`: its tensor, zero
/// offsets, and sizes equal to the window's extents (constants, or
/// `tensor.dim`s of the window for dynamic ones).
fn covers(invalidate: OperationRef, window: Value) -> bool {
    let Some(view) = OpView::new(invalidate) else {
        return false;
    };
    let Some(info) = value_info(window).ok().flatten() else {
        return false;
    };
    let sizes = view.group("sizes").unwrap_or_default();
    let offsets = view.group("offsets").unwrap_or_default();
    let size_ok = |i: usize, size: Value| match info.dim(i) {
        Some(d) => constant_int(size) == Some(d),
        None => ir::defining_op(size).is_some_and(|dim| {
            op_name(&dim) == "tensor.dim"
                && ir::operand(dim, 0) == Some(window)
                && ir::operand(dim, 1).and_then(constant_int) == Some(i as i64)
        }),
    };
    view.one("tensor") == Some(window)
        && sizes.len() == info.rank()
        && offsets.len() == info.rank()
        && offsets.iter().all(|o| constant_int(*o) == Some(0))
        && sizes.iter().enumerate().all(|(i, s)| size_ok(i, *s))
}

fn mark<'c, 'a>(context: &'c Context, op: OperationRef<'c, 'a>)
where
    'c: 'a,
{
    let Some(marker) = marker(op) else { return };
    let Some(next) = op.next_in_block() else {
        return;
    };
    // Markers already in place. The sizes and offsets of a region
    // invalidate (constants, and `tensor.dim` for dynamic extents) come
    // first, so they are looked through.
    let mut existing = Vec::new();
    let mut cursor = Some(next);
    while let Some(candidate) = cursor {
        if !matches!(
            op_name(&candidate).as_str(),
            "arith.constant" | "tensor.dim"
        ) {
            existing.push(candidate);
            if existing.len() == 2 {
                break;
            }
        }
        cursor = candidate.next_in_block();
    }
    let (first, after) = (existing.first().copied(), existing.get(1).copied());
    let b = Builder::before(context, next);
    let fence = || {
        b.insert(Fence::builder(context, b.location).build());
    };
    let invalidate_all = || {
        b.insert(
            CacheInvalid::builder(context, b.location)
                .tensor(None)
                .sizes(&[])
                .offsets(&[])
                .build(),
        );
    };
    match marker {
        Marker::Local(window) => {
            if is_invalidate(first, false)
                && first.is_some_and(|f| covers(f, window))
                && is_fence(after)
            {
                return;
            }
            let Some(info) = value_info(window).ok().flatten() else {
                return;
            };
            let sizes: Vec<Value> = info
                .shape
                .iter()
                .enumerate()
                .map(|(i, d)| b.dim(window, *d, i))
                .collect();
            let zero = b.index(0);
            let offsets = vec![zero; sizes.len()];
            b.insert(
                CacheInvalid::builder(context, b.location)
                    .tensor(Some(window))
                    .sizes(&sizes)
                    .offsets(&offsets)
                    .build(),
            );
            // A fence already in place serves once the invalidate is in
            // front of it.
            if !is_fence(first) {
                fence();
            }
        }
        Marker::Remote => {
            if !is_fence(first) {
                fence();
            }
        }
        Marker::Opaque => {
            if !(is_invalidate(first, true) && is_fence(after)) {
                invalidate_all();
                fence();
            }
        }
        Marker::Wait => {
            if !is_invalidate(first, true) {
                invalidate_all();
            }
        }
    }
}

static IDENTITY: PassIdentity = PassIdentity;

/// Creates the pass.
pub fn create() -> Pass {
    external(InsertCommFence, &IDENTITY)
}
