//! Signals, fences and remote transfers: `pto.comm_tnotify`,
//! `pto.comm_twait`, `pto.comm_ttest`, `pto.fence_barrier_all`,
//! `pto.comm_tput` and `pto.comm_tget` become calls of the device functions;
//! cache invalidation and pipe barriers are no-ops (the CPU is coherent and
//! the simulated pipes are synchronous). The asynchronous copies
//! (`pto.comm_tput_async`, `pto.comm_tget_async`) become
//! `pld_sim_dma_submit`, their waits and tests `pld_sim_dma_wait` /
//! `pld_sim_dma_test`; a session (`pto.comm_build_async_session`) is an i64,
//! its engine's number (`PLD_DMA_SDMA`, `PLD_DMA_URMA`) or -1 when it has no
//! workspace, and an event is the i64 handle the submit returned.

use super::rewriter::{payload, refuse, Lowered, Op, Rewriter, Step};
use melior::ir::{operation::OperationBuilder, operation::OperationLike, Value, ValueLike};
use pld_dialect::enums::{NotifyOp, PldEnum, WaitCmp};
use pld_dialect::ops::pto;
use pld_ir::{self as ir};

impl<'c, 'a> Rewriter<'c, 'a>
where
    'c: 'a,
{
    /// Lowers one op of this family.
    pub(super) fn comm(&mut self, op: &Op<'c, 'a>) -> Lowered<'c, 'a, Step<'c, 'a>> {
        let Op { op, b, ref name } = *op;
        let (b, operand) = (&b, |i| super::rewriter::operand(op, i));
        let replacement: Option<Value<'c, 'a>> = match name.as_str() {
            pto::CommTNotify::NAME => {
                // PTO's notify ops are spelled as pld's, whose ABI values
                // the device functions take.
                let code =
                    match payload(op, "notifyOp", "pto.notify_op").map(|p| p.parse::<NotifyOp>()) {
                        Some(Ok(notify)) => notify.abi(),
                        _ => return refuse(op, "unknown notifyOp"),
                    };
                let cell = self.partition(op, operand(0))?;
                let code = b.i32(i64::from(code));
                self.call(b, "pld_sim_notify", &[cell, operand(1), code], &[]);
                None
            }
            pto::CommTWait::NAME | pto::CommTTest::NAME => {
                let cmp = payload(op, "cmp", "pto.wait_cmp");
                let code = match cmp.as_deref().map(str::parse::<WaitCmp>) {
                    Some(Ok(cmp)) => cmp.abi(),
                    _ => {
                        let other = cmp.as_deref().unwrap_or("an unreadable cmp");
                        return refuse(
                            op,
                            format!(
                                "compares with {other}; the simulator waits with eq or ge only"
                            ),
                        );
                    }
                };
                let cell = self.partition(op, operand(0))?;
                let code = b.i32(i64::from(code));
                if name == pto::CommTWait::NAME {
                    self.call(b, "pld_sim_wait", &[cell, operand(1), code], &[]);
                    None
                } else {
                    let i32_type = b.i32_type();
                    let flag = ir::result(self.call(
                        b,
                        "pld_sim_test",
                        &[cell, operand(1), code],
                        &[i32_type],
                    ));
                    let zero = b.i32(0);
                    Some(b.not_equal(flag, zero))
                }
            }
            pto::FenceBarrierAll::NAME => {
                self.call(b, "pld_sim_fence", &[], &[]);
                None
            }
            // The CPU's caches are coherent and the simulator's pipes are
            // synchronous: nothing to do.
            pto::CmoCacheInvalid::NAME | pto::PtoBarrier::NAME => None,
            pto::CommTPut::NAME | pto::CommTGet::NAME => {
                let dst = self.part(op, operand(0))?;
                let src = self.part(op, operand(1))?;
                let [rows, cols, drs, dcs] = self.block(b, &dst);
                let [_, _, srs, scs] = self.block(b, &src);
                let bytes = pld_ir::types::byte_width(dst.element).unwrap_or(1);
                let accumulate = if name == pto::CommTPut::NAME {
                    self.accumulate(op, dst.element)?
                } else {
                    0
                };
                let (body, dst_at, src_at) = self.slab(b, (op, name), &dst, &src);
                self.copy(
                    &body,
                    dst_at,
                    [drs, dcs],
                    src_at,
                    [srs, scs],
                    rows,
                    cols,
                    bytes,
                    accumulate,
                );
                None
            }

            _ => return super::rewriter::refuse(op, "is not simulated with these operands"),
        };
        Ok(Step::Replace(replacement))
    }

    /// Where a transfer between `dst` and `src` (one shape: TPUT and TGET's
    /// views agree) copies its block of their last two dimensions: the
    /// builder and the two addresses. A partition of more dimensions is
    /// moved one such slab at a time, in a loop over its leading ones,
    /// each walked with its own stride in either view (a 3-D whole tensor
    /// moved only its first slab before); the op's site is named again
    /// before each slab's copy, a device call of its own.
    fn slab(
        &self,
        b: &pld_ir::build::Builder<'c, 'a>,
        (op, name): (melior::ir::OperationRef<'c, 'a>, &str),
        dst: &super::rewriter::Part<'c, 'a>,
        src: &super::rewriter::Part<'c, 'a>,
    ) -> (pld_ir::build::Builder<'c, 'a>, Value<'c, 'a>, Value<'c, 'a>) {
        let lead = dst.sizes.len().saturating_sub(2);
        if lead == 0 || src.strides.len() != dst.sizes.len() {
            return (*b, dst.address, src.address);
        }
        let sizes: Vec<Value> = dst.sizes[..lead]
            .iter()
            .map(|size| self.to_i64(b, *size))
            .collect();
        let count = sizes.iter().fold(self.i64(b, 1), |n, size| b.mul(n, *size));
        let upper = b.index_cast(count, b.index_type());
        let slabs = b.for_loop(b.index(0), upper, b.index(1), &[]);
        let body = slabs.body;
        let mut rest = self.to_i64(&body, slabs.induction);
        let (mut dst_offset, mut src_offset) = (self.i64(&body, 0), self.i64(&body, 0));
        for dim in (0..lead).rev() {
            let index = body.rem(rest, sizes[dim]);
            rest = body.div(rest, sizes[dim]);
            let dst_term = body.mul(index, self.to_i64(&body, dst.strides[dim]));
            let src_term = body.mul(index, self.to_i64(&body, src.strides[dim]));
            dst_offset = body.add(dst_offset, dst_term);
            src_offset = body.add(src_offset, src_term);
        }
        let dst_at = self.offset(&body, dst.address, dst_offset, dst.element);
        let src_at = self.offset(&body, src.address, src_offset, src.element);
        let location = crate::compiler::locate::location_of(op);
        let site = self.i64(&body, crate::runtime::sites::register(name, location));
        self.call(&body, "pld_sim_at", &[site], &[]);
        (body, dst_at, src_at)
    }

    /// Lowers one op of the asynchronous DMA family.
    pub(super) fn dma(&mut self, op: &Op<'c, 'a>) -> Lowered<'c, 'a, Step<'c, 'a>> {
        let Op { op, b, ref name } = *op;
        let b = &b;
        let replacement = match name.as_str() {
            pto::CommBuildAsyncSession::NAME => self.session(op, b)?,
            pto::CommTPutAsync::NAME | pto::CommTGetAsync::NAME => {
                self.submit_async(op, b, name == pto::CommTGetAsync::NAME)?
            }
            pto::CommWaitAsyncEvent::NAME | pto::CommTestAsyncEvent::NAME => {
                let function = if name == pto::CommWaitAsyncEvent::NAME {
                    "pld_sim_dma_wait"
                } else {
                    "pld_sim_dma_test"
                };
                let event = super::rewriter::operand(op, 0);
                let i32_type = b.i32_type();
                // The session's engine: the wait polls it (AsyncEvent::Wait).
                let session = super::rewriter::operand(op, 1);
                let engine = b.value(melior::dialect::arith::trunci(
                    session, i32_type, b.location,
                ));
                let done = ir::result(self.call(b, function, &[event, engine], &[i32_type]));
                let zero = b.i32(0);
                b.not_equal(done, zero)
            }
            _ => return refuse(op, "is not simulated with these operands"),
        };
        Ok(Step::Replace(Some(replacement)))
    }

    /// `pto.comm_build_async_session`: the engine's number when the
    /// workspace (its last operand, a pointer or an i64 address) is not
    /// null, else -1 (`BuildAsyncSession` returns false).
    fn session(
        &mut self,
        op: melior::ir::OperationRef<'c, 'a>,
        b: &pld_ir::build::Builder<'c, 'a>,
    ) -> Lowered<'c, 'a, Value<'c, 'a>> {
        let engine = match payload(op, "engine", "pto.dma_engine").as_deref() {
            Some("sdma") => pld_runtime_sys::PLD_DMA_SDMA,
            Some("urma") => pld_runtime_sys::PLD_DMA_URMA,
            _ => return refuse(op, "unknown engine"),
        };
        let Some(workspace) = op
            .operand_count()
            .checked_sub(1)
            .and_then(|i| ir::operand(op, i))
        else {
            return refuse(op, "has no workspace");
        };
        let i64_type = ir::i64_type(self.context);
        let address = if workspace.r#type() == i64_type {
            workspace
        } else {
            b.value(
                OperationBuilder::new("llvm.ptrtoint", b.location)
                    .add_operands(&[workspace])
                    .add_results(&[i64_type])
                    .build()
                    .expect("llvm.ptrtoint of a pointer"),
            )
        };
        let null = self.i64(b, 0);
        let valid = b.not_equal(address, null);
        let (engine, invalid) = (self.i64(b, i64::from(engine)), self.i64(b, -1));
        Ok(b.select(valid, engine, invalid))
    }

    /// `pto.comm_tput_async` / `pto.comm_tget_async`: `pld_sim_dma_submit`
    /// of src's block into dst (whose element count the runtime checks) on
    /// the session's engine, with the `peer` operand's queue (or none); the
    /// event is the handle.
    fn submit_async(
        &mut self,
        op: melior::ir::OperationRef<'c, 'a>,
        b: &pld_ir::build::Builder<'c, 'a>,
        get: bool,
    ) -> Lowered<'c, 'a, Value<'c, 'a>> {
        let operand = |i| super::rewriter::operand(op, i);
        let dst = self.part(op, operand(0))?;
        let src = self.part(op, operand(1))?;
        // TPUT_ASYNC / TGET_ASYNC move all of src (P3: flat 1-D views),
        // into a dst that must hold at least as many elements.
        let [dst_rows, dst_cols, drs, dcs] = self.block(b, &dst);
        let [rows, cols, srs, scs] = self.block(b, &src);
        let dst_elems = b.mul(dst_rows, dst_cols);
        let bytes = b.i32(pld_ir::types::byte_width(dst.element).unwrap_or(1));
        let i32_type = b.i32_type();
        let engine = b.value(melior::dialect::arith::trunci(
            operand(2),
            i32_type,
            b.location,
        ));
        let direction = b.i32(i64::from(if get {
            pld_runtime_sys::PLD_DMA_GET
        } else {
            pld_runtime_sys::PLD_DMA_PUT
        }));
        let i64_type = ir::i64_type(self.context);
        // Widened: the no-peer value is outside the operand's i32 range.
        let peer = match ir::operand(op, 3) {
            Some(peer) => b.value(melior::dialect::arith::extsi(peer, i64_type, b.location)),
            None => self.i64(b, pld_runtime_sys::PLD_DMA_NO_PEER),
        };
        Ok(ir::result(self.call(
            b,
            "pld_sim_dma_submit",
            &[
                dst.address,
                drs,
                dcs,
                src.address,
                srs,
                scs,
                rows,
                cols,
                dst_elems,
                bytes,
                engine,
                direction,
                peer,
            ],
            &[i64_type],
        )))
    }
}
