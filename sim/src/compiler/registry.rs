//! The compiler layer's pass, `convert-pto-to-sim`, and the registry the
//! JIT runs its pipelines from: the backend's passes and pipelines (which
//! include the lowering's) and this one. The crate's full registry
//! (`pld_sim::registry`) adds the programs layer's `pld-explore-protocol`.

use crate::compiler::convert_pto_to_sim::{self, ConvertPtoToSim};
use pld_ir::registry::{PassEntry, Registry};

/// `convert-pto-to-sim`'s entry.
pub const CONVERT_PTO_TO_SIM: PassEntry =
    PassEntry::of::<ConvertPtoToSim>(convert_pto_to_sim::create);

/// The compiler layer's passes.
pub const PASSES: &[PassEntry] = &[CONVERT_PTO_TO_SIM];

/// What the JIT's pipelines need: the backend's registry and [`PASSES`].
pub fn registry() -> Registry {
    pld_backend::registry().extend(PASSES, &[])
}
