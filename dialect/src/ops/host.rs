//! HOST orchestration (design.md section 3): per-device dispatch and
//! comm-domain scopes.

use super::pld_op;
use melior::ir::{block::BlockLike, operation::OperationLike, OperationRef, RegionLike};

pld_op! {
    /// `pld.dispatch(%device) ({ func.call @chip_fn(args...); gpu.yield })`:
    /// run a CHIP orchestrator on one device.
    Dispatch, DispatchBuilder = "pld.dispatch" { device: one }
}

pld_op! {
    /// `pld.comm_domain() ({ ... gpu.yield }) {name, devices, slots}`: window
    /// buffers allocated together on a set of devices.
    CommDomain, CommDomainBuilder = "pld.comm_domain" {}
}

impl<'c, 'a> Dispatch<'c, 'a> {
    /// The `func.call` ops of the body (a valid dispatch has exactly one).
    pub fn calls(&self) -> Vec<OperationRef<'c, 'a>> {
        let Ok(region) = self.0.op.region(0) else {
            return Vec::new();
        };
        let mut calls = Vec::new();
        let mut next = region.first_block().and_then(|b| b.first_operation());
        while let Some(op) = next {
            if pld_ir::op_name(&op) == "func.call" {
                calls.push(op);
            }
            next = op.next_in_block();
        }
        calls
    }

    /// The dispatched function's name.
    pub fn callee(&self) -> Option<String> {
        let call = *self.calls().first()?;
        pld_ir::attr::callee(call)
    }
}

impl CommDomain<'_, '_> {
    /// The scope's name, e.g. `comm_d0`.
    pub fn name(&self) -> Option<String> {
        pld_ir::attr::string(self.0.attribute("name")?)
    }

    /// Device indices (empty = every device).
    pub fn devices(&self) -> Option<Vec<i64>> {
        pld_ir::attr::i64_array(self.0.attribute("devices")?)
    }

    /// Allocation names of the slots, in allocation order.
    pub fn slots(&self) -> Option<Vec<String>> {
        pld_ir::attr::array(self.0.attribute("slots")?)?
            .into_iter()
            .map(pld_ir::attr::string)
            .collect()
    }
}
