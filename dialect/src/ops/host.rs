//! HOST orchestration (design.md section 3): per-device dispatch and
//! comm-domain scopes.

use super::pld_op;

pld_op! {
    /// `pld.dispatch(args..., %device) {callee = @chip_fn}`: run a CHIP
    /// orchestrator on one device.
    Dispatch, DispatchBuilder = "pld.dispatch" { args: many, device: one }
}

pld_op! {
    /// `pld.comm_domain() ({ ... gpu.yield }) {name, devices, slots}`: window
    /// buffers allocated together on a set of devices.
    CommDomain, CommDomainBuilder = "pld.comm_domain" {}
}

impl Dispatch<'_, '_> {
    /// The dispatched function's name.
    pub fn callee(&self) -> Option<String> {
        crate::attr::flat_symbol(self.0.attribute("callee")?)
    }
}

impl CommDomain<'_, '_> {
    /// The scope's name, e.g. `comm_d0`.
    pub fn name(&self) -> Option<String> {
        crate::attr::string(self.0.attribute("name")?)
    }

    /// Device indices (empty = every device).
    pub fn devices(&self) -> Option<Vec<i64>> {
        crate::attr::i64_array(self.0.attribute("devices")?)
    }

    /// Allocation names of the slots, in allocation order.
    pub fn slots(&self) -> Option<Vec<String>> {
        crate::attr::array(self.0.attribute("slots")?)?
            .into_iter()
            .map(crate::attr::string)
            .collect()
    }
}
