//! The pld passes and named pipelines a driver knows, by name.
//!
//! The MLIR C API cannot register a named pass globally, so each crate
//! lists its passes as [`PassEntry`]s and a driver assembles a [`Registry`]
//! from the crates it links (lowering, backend, sim). `pld_ir::pipeline`
//! resolves names in pipeline strings against it.

use crate::pass::{Anchor, PldPass};
use melior::pass::Pass;

/// Makes a pass from the option text between its braces.
pub type Configure = fn(&str) -> Result<Pass, String>;

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
    /// For a pass with options (`name{key=value ...}`): creates it from the
    /// option text between the braces, or says what is wrong with it.
    pub configure: Option<Configure>,
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
            configure: None,
        }
    }

    /// The entry of pass `P`, which takes options: `create` makes it with
    /// its defaults, `configure` from an option text.
    pub const fn configurable<P: PldPass>(create: fn() -> Pass, configure: Configure) -> Self {
        let mut entry = Self::of::<P>(create);
        entry.configure = Some(configure);
        entry
    }

    /// The pass for `options` (the text between the braces, if any).
    pub fn instantiate(&self, options: Option<&str>) -> Result<Pass, String> {
        match (options, self.configure) {
            // `name{}`: no options, as MLIR reads `cse{}`.
            (None, _) => Ok((self.create)()),
            (Some(text), None) if text.trim().is_empty() => Ok((self.create)()),
            (Some(text), Some(configure)) => configure(text),
            (Some(_), None) => Err(format!("pass '{}' takes no options", self.argument)),
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

impl PipelineEntry {
    /// Why `name{...}` is refused: a named pipeline takes no options.
    pub fn takes_no_options(&self) -> String {
        format!(
            "pipeline '{}' takes no options (its passes: {})",
            self.argument,
            self.passes.join(", ")
        )
    }
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
