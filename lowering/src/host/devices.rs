//! Which devices a `pld.dispatch` reaches (docs/passes/pld-materialize-comm-domain-scopes.md step 3).

use melior::ir::Value;
use pld_dialect::ops::builtin::RING_MAX_RANKS;
use pld_dialect::ops::window::WorldSize;
use pld_ir::constant_int;
use pld_ir::op_name;
use pld_ir::{argument_site, defining_op, operand};
use std::collections::BTreeSet;

/// The devices a window must be allocated on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Devices {
    /// Every device (`world_size` of them).
    All,
    /// These device indices.
    Subset(BTreeSet<i64>),
}

impl Devices {
    /// Adds `other`'s devices: anything with `All` is `All`.
    pub fn merge(&mut self, other: &Devices) {
        match (&mut *self, other) {
            (Devices::All, _) => {}
            (_, Devices::All) => *self = Devices::All,
            (Devices::Subset(mine), Devices::Subset(theirs)) => mine.extend(theirs),
        }
    }

    /// The device list of a comm domain (empty = all devices).
    pub fn list(&self) -> Vec<i64> {
        match self {
            Devices::All => Vec::new(),
            Devices::Subset(set) => set.iter().copied().collect(),
        }
    }
}

/// Looks through integer and index casts.
pub fn strip_casts<'c, 'a>(value: Value<'c, 'a>) -> Value<'c, 'a>
where
    'c: 'a,
{
    let mut value = value;
    while let Some(owner) = defining_op(value) {
        let cast = matches!(
            op_name(&owner).as_str(),
            "arith.index_cast"
                | "arith.index_castui"
                | "arith.extsi"
                | "arith.extui"
                | "arith.trunci"
        );
        match operand(owner, 0) {
            Some(source) if cast => value = source,
            _ => break,
        }
    }
    value
}

/// Whether `value` is `pld.system_world_size` (through casts).
pub fn is_world_size(value: Value) -> bool {
    defining_op(strip_casts(value)).is_some_and(|op| op_name(&op) == WorldSize::NAME)
}

/// The devices named by a dispatch's device operand: a constant, or the
/// induction variable of an `scf.for` from 0 with step 1 up to
/// `world_size` (all devices) or a constant `N` (devices `0..N`).
pub fn of_device(value: Value) -> Result<Devices, String> {
    let value = strip_casts(value);
    if let Some(device) = constant_int(value) {
        if device < 0 {
            return Err(format!("device index must be non-negative, got {device}"));
        }
        if device >= RING_MAX_RANKS {
            return Err(format!(
                "device index {device} is past the {RING_MAX_RANKS} devices a pld comm domain \
                 holds (the CommContext's capacity)"
            ));
        }
        return Ok(Devices::Subset([device].into()));
    }
    let loop_op = argument_site(value)
        .filter(|site| site.number == 0 && op_name(&site.parent) == "scf.for")
        .map(|site| site.parent);
    let Some(loop_op) = loop_op else {
        return Err(
            "device must be a constant or the induction variable of an scf.for over \
                    world_size or a constant range"
                .into(),
        );
    };
    let bound = |i: usize| operand(loop_op, i).map(strip_casts);
    let (Some(lower), Some(upper), Some(step)) = (bound(0), bound(1), bound(2)) else {
        return Err("malformed scf.for".into());
    };
    if constant_int(step) != Some(1) {
        return Err("device=r over a non-unit-step loop is not supported".into());
    }
    if constant_int(lower) != Some(0) {
        return Err(
            "a device loop must start at 0: for a subset of the devices, dispatch to each with \
             a constant device, or write the pld.comm_domain of those devices by hand \
             (devices = array<i64: 2, 3>)"
                .into(),
        );
    }
    if is_world_size(upper) {
        return Ok(Devices::All);
    }
    match constant_int(upper) {
        Some(n) if n > RING_MAX_RANKS => Err(format!(
            "a device loop runs to {n}, past the {RING_MAX_RANKS} devices a pld comm domain holds \
             (the CommContext's capacity)"
        )),
        Some(n) if n > 0 => Ok(Devices::Subset((0..n).collect())),
        Some(n) => Err(format!(
            "a device loop must reach at least one device, but it runs to {n}"
        )),
        None => Err("a device loop must run to world_size or to a constant".into()),
    }
}
