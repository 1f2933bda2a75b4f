//! Signals, fences and remote transfers: `pto.comm_tnotify`,
//! `pto.comm_twait`, `pto.comm_ttest`, `pto.fence_barrier_all`,
//! `pto.comm_tput` and `pto.comm_tget` become calls of the device functions;
//! cache invalidation and pipe barriers are no-ops (the CPU is coherent and
//! the simulated pipes are synchronous).

use super::rewriter::{payload, refuse, Lowered, Op, Rewriter, Step};
use melior::ir::Value;
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
                            format!("the simulator waits with eq or ge, not {other}"),
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
                self.copy(
                    b,
                    dst.address,
                    [drs, dcs],
                    src.address,
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
}
