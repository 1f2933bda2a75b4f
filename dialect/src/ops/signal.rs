//! docs/dialect.md 4.3: signal primitives.

use super::{enum_attribute, pld_op};
use crate::enums::{NotifyOp, PldEnum, WaitCmp};

pld_op! {
    /// `pld.system_notify(%target, %peer, offsets..., %value) {op}`: update
    /// cell `offsets` of `peer`'s copy of `target`.
    Notify, NotifyBuilder = "pld.system_notify" { target: one, peer: one, offsets: many, value: one }
}

pld_op! {
    /// `pld.system_wait(%signal, offsets..., %expected) {cmp}`: block until
    /// the local cell compares true against `expected`.
    Wait, WaitBuilder = "pld.system_wait" { signal: one, offsets: many, expected: one }
}

pld_op! {
    /// `pld.system_defer_wait(...)`: a wait completed by the task runtime
    /// (Ge only, INT32 signal parameter).
    DeferWait, DeferWaitBuilder = "pld.system_defer_wait" { signal: one, offsets: many, expected: one }
}

impl Notify<'_, '_> {
    pub fn notify_op(&self) -> Option<NotifyOp> {
        enum_attribute(&self.0, "op")
    }
}

impl<'c> NotifyBuilder<'c, '_> {
    pub fn notify_op(self, context: &'c melior::Context, op: NotifyOp) -> Self {
        self.attribute("op", op.to_attribute(context))
    }
}

impl Wait<'_, '_> {
    pub fn cmp(&self) -> Option<WaitCmp> {
        enum_attribute(&self.0, "cmp")
    }
}

impl<'c> WaitBuilder<'c, '_> {
    pub fn cmp(self, context: &'c melior::Context, cmp: WaitCmp) -> Self {
        self.attribute("cmp", cmp.to_attribute(context))
    }
}
