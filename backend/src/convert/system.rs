//! The system ops: rank and rank count from the CommContext, notify and wait
//! on signal cells (with their PTO spelling of the enums), fences and cache
//! invalidation.

use super::ops::{attribute, Converted, Converter, Op};
use super::views::{context_slot, make_view, partition};
use melior::dialect::arith;
use pld_dialect::{
    enums::{NotifyOp, PldEnum, WaitCmp},
    ops::{ctx, fence, pto, signal},
};
use pld_ir::{self as ir, op_name};

impl<'c, 'a> Converter<'_, 'c, 'a>
where
    'c: 'a,
{
    /// Converts one op of this family; returns the value replacing its
    /// result, if any.
    pub(super) fn system(&mut self, cx: &Op<'c, 'a>) -> Converted<'c, 'a> {
        let Op { op, b, ref view } = *cx;
        let one = |group: &str| cx.one(group);
        Ok(match op_name(&op).as_str() {
            ctx::Rank::NAME | ctx::NRanks::NAME => {
                let slot = b.index(crate::abi::RANK_SLOT);
                let pair = context_slot(&b, one("ctx")?, slot);
                let half = if op_name(&op) == ctx::NRanks::NAME {
                    let shift = b.value(ir::constant(
                        self.context,
                        ir::i64_type(self.context),
                        32,
                        b.location,
                    ));
                    b.value(arith::shrui(pair, shift, b.location))
                } else {
                    pair
                };
                Some(b.value(arith::trunci(half, b.i32_type(), b.location)))
            }
            signal::Notify::NAME => {
                let target = self.globals.of(one("target")?)?;
                let peer_view = self.peer_view(&b, &target, one("peer")?, 0)?;
                let cell = self.cell(
                    &b,
                    &target,
                    peer_view,
                    &view.group("offsets").unwrap_or_default(),
                );
                self.barrier(&b);
                let value = self.to_i32(&b, one("value")?);
                let notify = NotifyOp::from_attribute(view.attribute("op").ok_or("no op")?)
                    .ok_or("bad op")?;
                let name = match notify {
                    NotifyOp::AtomicAdd => "atomic_add",
                    NotifyOp::Set => "set",
                };
                b.insert(
                    pto::CommTNotify::builder(self.context, b.location)
                        .signal(cell)
                        .value(value)
                        .attribute(
                            "notifyOp",
                            attribute(self.context, &format!("#pto.notify_op<\"{name}\">")),
                        )
                        .build(),
                );
                None
            }
            signal::Wait::NAME => {
                let signal = self.globals.of(one("signal")?)?;
                let local = make_view(&b, &signal, signal.pointer, 0);
                let cell = self.cell(
                    &b,
                    &signal,
                    local,
                    &view.group("offsets").unwrap_or_default(),
                );
                let expected = self.to_i32(&b, one("expected")?);
                let cmp = WaitCmp::from_attribute(view.attribute("cmp").ok_or("no cmp")?)
                    .ok_or("bad cmp")?;
                let name = match cmp {
                    WaitCmp::Eq => "eq",
                    WaitCmp::Ge => "ge",
                };
                b.insert(
                    pto::CommTWait::builder(self.context, b.location)
                        .signal(cell)
                        .cmp_value(expected)
                        .attribute(
                            "cmp",
                            attribute(self.context, &format!("#pto.wait_cmp<\"{name}\">")),
                        )
                        .build(),
                );
                None
            }
            fence::Fence::NAME => {
                // PTOAS no longer inserts drains (docs/passes/convert-pld-to-pto.md, "Barriers and caches"): the
                // MTE/FIX/TPUT payload must leave the pipes before the
                // GM fence orders it.
                self.barrier(&b);
                b.insert(
                    pto::FenceBarrierAll::builder(self.context, b.location)
                        .attribute("scope", attribute(self.context, "#pto.fence_scope<\"gm\">"))
                        .build(),
                );
                None
            }
            fence::CacheInvalid::NAME => {
                match view.one("tensor") {
                    None => self.invalidate_line(&b, None),
                    Some(tensor) => {
                        let global = self.globals.of(tensor)?;
                        let local = make_view(&b, &global, global.pointer, 0);
                        let part = partition(
                            &b,
                            local,
                            global.element,
                            &view.group("offsets").unwrap_or_default(),
                            &view.group("sizes").unwrap_or_default(),
                        );
                        self.invalidate_line(&b, Some(part));
                    }
                }
                None
            }
            ctx::GetCommCtx::NAME => {
                return Err("run pld-materialize-dist-tensor-ctx before PTO codegen".into())
            }
            _ => return Err("has no PTO lowering".into()),
        })
    }
}
