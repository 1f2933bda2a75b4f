//! Every pass and named pipeline of this crate, by name.

use crate::passes;
use pld_ir::registry::{PassEntry, PipelineEntry, Registry};

/// Every pld pass.
pub const PASSES: &[PassEntry] = &[
    PassEntry::of::<passes::verify::Verify>(passes::verify::create),
    PassEntry::configurable::<passes::select_allreduce_modes::SelectAllReduceModes>(
        passes::select_allreduce_modes::create,
        passes::select_allreduce_modes::configure,
    ),
    PassEntry::of::<passes::synthesize_allreduce_signals::SynthesizeAllReduceSignals>(
        passes::synthesize_allreduce_signals::create,
    ),
    PassEntry::of::<passes::materialize_comm_domain_scopes::MaterializeCommDomainScopes>(
        passes::materialize_comm_domain_scopes::create,
    ),
    PassEntry::of::<passes::lower_host_tensor_collectives::LowerHostTensorCollectives>(
        passes::lower_host_tensor_collectives::create,
    ),
    PassEntry::of::<passes::lower_l2_tensor_collectives::LowerL2TensorCollectives>(
        passes::lower_l2_tensor_collectives::create,
    ),
    PassEntry::of::<passes::lower_composite_ops::LowerCompositeOps>(
        passes::lower_composite_ops::create,
    ),
    PassEntry::of::<passes::materialize_dist_tensor_ctx::MaterializeDistTensorCtx>(
        passes::materialize_dist_tensor_ctx::create,
    ),
    PassEntry::of::<passes::insert_comm_fence::InsertCommFence>(passes::insert_comm_fence::create),
    PassEntry::of::<passes::convert_shard_to_pld::ConvertShardToPld>(
        passes::convert_shard_to_pld::create,
    ),
];

/// Every named pipeline of this crate.
pub const PIPELINES: &[PipelineEntry] = &[
    PipelineEntry {
        argument: "pld-host-pipeline",
        summary: "The HOST rail: verify, resolve mode = \"auto\", synthesize allreduce signals, materialize comm domains, lower to builtin dispatches, verify",
        passes: &[
            "pld-verify",
            "pld-select-allreduce-modes",
            "pld-synthesize-allreduce-signals",
            "pld-materialize-comm-domain-scopes",
            "pld-lower-host-tensor-collectives",
            "pld-verify",
        ],
    },
    PipelineEntry {
        argument: "pld-chip-pipeline",
        summary: "The CHIP rail: verify, lower CHIP-orchestrator all_to_all_v to calls of synthesized builtin kernels, verify",
        passes: &[
            "pld-verify",
            "pld-lower-l2-tensor-collectives",
            "pld-verify",
        ],
    },
    PipelineEntry {
        argument: "pld-incore-pipeline",
        summary: "The InCore rail: verify, resolve mode = \"auto\", expand composite collectives, materialize CommContexts, insert fences, verify",
        passes: &[
            "pld-verify",
            "pld-select-allreduce-modes",
            "pld-lower-composite-ops",
            "pld-materialize-dist-tensor-ctx",
            "pld-insert-comm-fence",
            "pld-verify",
        ],
    },
];

/// The passes and pipelines of this crate.
pub fn registry() -> Registry {
    Registry::new(PASSES, PIPELINES)
}
