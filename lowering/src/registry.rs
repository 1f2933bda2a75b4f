//! Every pld pass and named pipeline, by name.

use crate::pass::PldPass;
use crate::passes;
use melior::pass::Pass;

/// A pld pass known to pipeline strings.
pub struct PassEntry {
    /// Pipeline name, e.g. `pld-verify`.
    pub argument: &'static str,
    /// Name used in IR dumps.
    pub name: &'static str,
    pub summary: &'static str,
    pub create: fn() -> Pass,
}

/// A named pipeline: a fixed sequence of pld passes.
pub struct PipelineEntry {
    pub argument: &'static str,
    pub summary: &'static str,
    pub passes: &'static [&'static str],
}

const fn entry<P: PldPass>(create: fn() -> Pass) -> PassEntry {
    PassEntry {
        argument: P::ARGUMENT,
        name: P::NAME,
        summary: P::SUMMARY,
        create,
    }
}

/// Every pld pass.
pub const PASSES: &[PassEntry] = &[
    entry::<passes::verify::Verify>(passes::verify::create),
    entry::<passes::synthesize_allreduce_signals::SynthesizeAllReduceSignals>(
        passes::synthesize_allreduce_signals::create,
    ),
    entry::<passes::materialize_comm_domain_scopes::MaterializeCommDomainScopes>(
        passes::materialize_comm_domain_scopes::create,
    ),
    entry::<passes::lower_host_tensor_collectives::LowerHostTensorCollectives>(
        passes::lower_host_tensor_collectives::create,
    ),
    entry::<passes::lower_composite_ops::LowerCompositeOps>(passes::lower_composite_ops::create),
    entry::<passes::materialize_dist_tensor_ctx::MaterializeDistTensorCtx>(
        passes::materialize_dist_tensor_ctx::create,
    ),
    entry::<passes::insert_comm_fence::InsertCommFence>(passes::insert_comm_fence::create),
];

/// Every named pipeline of this crate.
pub const PIPELINES: &[PipelineEntry] = &[
    PipelineEntry {
        argument: "pld-host-pipeline",
        summary: "The HOST rail: verify, synthesize allreduce signals, materialize comm domains, lower to builtin dispatches, verify",
        passes: &[
            "pld-verify",
            "pld-synthesize-allreduce-signals",
            "pld-materialize-comm-domain-scopes",
            "pld-lower-host-tensor-collectives",
            "pld-verify",
        ],
    },
    PipelineEntry {
        argument: "pld-incore-pipeline",
        summary: "The InCore rail: verify, expand composite collectives, materialize CommContexts, insert fences, verify",
        passes: &[
            "pld-verify",
            "pld-lower-composite-ops",
            "pld-materialize-dist-tensor-ctx",
            "pld-insert-comm-fence",
            "pld-verify",
        ],
    },
];

/// The passes and pipelines a driver knows: this crate's, plus those of
/// crates further down the stack (the backend adds its own).
#[derive(Clone)]
pub struct Registry {
    passes: Vec<&'static PassEntry>,
    pipelines: Vec<&'static PipelineEntry>,
}

impl Registry {
    /// The passes and pipelines of this crate.
    pub fn lowering() -> Self {
        Self {
            passes: PASSES.iter().collect(),
            pipelines: PIPELINES.iter().collect(),
        }
    }

    /// Adds more passes and pipelines.
    pub fn extend(
        mut self,
        passes: &'static [PassEntry],
        pipelines: &'static [PipelineEntry],
    ) -> Self {
        self.passes.extend(passes.iter());
        self.pipelines.extend(pipelines.iter());
        self
    }

    /// The pld pass called `argument`.
    pub fn pass(&self, argument: &str) -> Option<&'static PassEntry> {
        self.passes.iter().copied().find(|p| p.argument == argument)
    }

    /// The named pipeline called `argument`.
    pub fn pipeline(&self, argument: &str) -> Option<&'static PipelineEntry> {
        self.pipelines
            .iter()
            .copied()
            .find(|p| p.argument == argument)
    }

    pub fn passes(&self) -> &[&'static PassEntry] {
        &self.passes
    }

    pub fn pipelines(&self) -> &[&'static PipelineEntry] {
        &self.pipelines
    }
}
