//! The pld passes and named pipelines a driver knows, by name.
//!
//! The MLIR C API cannot register a named pass globally, so each crate
//! lists its passes as [`PassEntry`]s and a driver assembles a [`Registry`]
//! from the crates it links (lowering, backend, sim). `pld_ir::pipeline`
//! resolves names in pipeline strings against it.

use crate::pass::{Anchor, PldPass};
use melior::pass::Pass;

/// A pld pass known to pipeline strings.
pub struct PassEntry {
    /// Pipeline name, e.g. `pld-verify`.
    pub argument: &'static str,
    /// Name used in IR dumps.
    pub name: &'static str,
    pub summary: &'static str,
    /// The op the pass runs on.
    pub anchor: Anchor,
    pub create: fn() -> Pass,
}

impl PassEntry {
    /// The entry of pass `P`, made by `create`.
    pub const fn of<P: PldPass>(create: fn() -> Pass) -> Self {
        PassEntry {
            argument: P::ARGUMENT,
            name: P::NAME,
            summary: P::SUMMARY,
            anchor: P::ANCHOR,
            create,
        }
    }
}

/// A named pipeline: a fixed sequence of pld passes (each nested where its
/// anchor says).
pub struct PipelineEntry {
    pub argument: &'static str,
    pub summary: &'static str,
    pub passes: &'static [&'static str],
}

/// The passes and pipelines a driver knows.
#[derive(Clone, Default)]
pub struct Registry {
    passes: Vec<&'static PassEntry>,
    pipelines: Vec<&'static PipelineEntry>,
}

impl Registry {
    /// A registry of `passes` and `pipelines`.
    pub fn new(passes: &'static [PassEntry], pipelines: &'static [PipelineEntry]) -> Self {
        Self::default().extend(passes, pipelines)
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
