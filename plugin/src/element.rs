//! The entries the plugin registers and what each adds to a pass manager.
//!
//! An entry is a pld pass or a named pld pipeline. Adding one follows the
//! rules of `pld_ir::pipeline`, which `pld-opt` uses: a pass anchored on
//! `func.func` written under another op is nested under `func.func`; a
//! pass anchored on `builtin.module` must stand directly in a
//! `builtin.module` pass manager; options are the pass's own
//! (`PassEntry::instantiate`), with its messages.

use melior::pass::OperationPassManager;
use pld_ir::pass::Anchor;
use pld_ir::registry::{PassEntry, PipelineEntry, Registry};
use std::sync::OnceLock;

/// One entry of MLIR's pass registry that the plugin provides.
#[derive(Clone, Copy)]
pub enum Element {
    Pass(&'static PassEntry),
    Pipeline(&'static PipelineEntry),
}

impl Element {
    /// The name pipeline strings use.
    pub fn argument(&self) -> &'static str {
        match self {
            Element::Pass(entry) => entry.argument,
            Element::Pipeline(pipeline) => pipeline.argument,
        }
    }

    /// The one-line summary `mlir-opt --help` shows.
    pub fn summary(&self) -> &'static str {
        match self {
            Element::Pass(entry) => entry.summary,
            Element::Pipeline(pipeline) => pipeline.summary,
        }
    }
}

/// Every pass and pipeline `pld-opt` knows.
pub fn registry() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY.get_or_init(pld_sim::registry)
}

/// Every entry, at addresses that stay valid for the life of the process
/// (MLIR's registry keeps a pointer to each).
pub fn all() -> &'static [Element] {
    static ELEMENTS: OnceLock<Vec<Element>> = OnceLock::new();
    ELEMENTS.get_or_init(|| {
        let registry = registry();
        let passes = registry.passes().iter().copied().map(Element::Pass);
        let pipelines = registry.pipelines().iter().copied().map(Element::Pipeline);
        passes.chain(pipelines).collect()
    })
}

/// Where a pass goes relative to a pass manager.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Placement {
    /// Into the manager itself.
    Here,
    /// Into a `func.func` manager nested in it.
    InFunctions,
}

/// Where `entry` goes in a pass manager anchored on `anchor` (`any` for
/// an op-agnostic one), or why it cannot go there.
fn placement(entry: &PassEntry, anchor: &str) -> Result<Placement, String> {
    match entry.anchor {
        Anchor::Function if anchor == Anchor::Function.op_name() => Ok(Placement::Here),
        Anchor::Function => Ok(Placement::InFunctions),
        Anchor::Module if anchor == Anchor::Module.op_name() => Ok(Placement::Here),
        Anchor::Module => Err(format!(
            "pass '{}' runs on builtin.module and cannot be nested under '{anchor}'",
            entry.argument
        )),
    }
}

/// Adds what `element` stands for to `manager` (anchored on `anchor`),
/// with `options`, the text between the braces if there were braces.
/// Nothing is added when anything is wrong.
pub fn add(
    element: &Element,
    manager: OperationPassManager,
    anchor: &str,
    options: Option<&str>,
) -> Result<(), String> {
    let entries: Vec<&PassEntry> = match element {
        Element::Pass(entry) => vec![entry],
        Element::Pipeline(pipeline) => {
            if options.is_some() {
                return Err(pipeline.takes_no_options());
            }
            pipeline
                .passes
                .iter()
                .map(|name| {
                    registry().pass(name).ok_or_else(|| {
                        format!("pipeline '{}' names no pass '{name}'", pipeline.argument)
                    })
                })
                .collect::<Result<_, _>>()?
        }
    };
    let placed = entries
        .into_iter()
        .map(|entry| {
            let placement = placement(entry, anchor)?;
            Ok((entry.instantiate(options)?, placement))
        })
        .collect::<Result<Vec<_>, String>>()?;
    for (pass, placement) in placed {
        match placement {
            Placement::Here => manager.add_pass(pass),
            Placement::InFunctions => manager
                .nested_under(Anchor::Function.op_name())
                .add_pass(pass),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use melior::pass::PassManager;

    fn find(argument: &str) -> Element {
        *all()
            .iter()
            .find(|e| e.argument() == argument)
            .unwrap_or_else(|| panic!("no entry {argument}"))
    }

    /// The textual pipeline of a fresh pass manager after `add` to its
    /// `builtin.module` manager, or to the `anchor` manager nested in that
    /// (the root of the C API's pass manager is op-agnostic, `any`).
    fn added(argument: &str, anchor: &str, options: Option<&str>) -> Result<String, String> {
        let context = pld_ir::parse::upstream_context();
        let manager = PassManager::new(&context);
        let root = manager.as_operation_pass_manager();
        let module = root.nested_under("builtin.module");
        let target = match anchor {
            "builtin.module" => module,
            other => module.nested_under(other),
        };
        add(&find(argument), target, anchor, options)?;
        let text = root.to_string();
        let inner = text
            .strip_prefix("any(builtin.module(")
            .and_then(|t| t.strip_suffix("))"));
        Ok(format!("builtin.module({})", inner.unwrap_or(&text)))
    }

    #[test]
    fn every_pass_and_pipeline_is_an_entry() {
        let registry = registry();
        for pass in registry.passes() {
            assert!(matches!(find(pass.argument), Element::Pass(_)));
        }
        for pipeline in registry.pipelines() {
            assert!(matches!(find(pipeline.argument), Element::Pipeline(_)));
        }
        assert_eq!(
            all().len(),
            registry.passes().len() + registry.pipelines().len()
        );
        assert!(all().iter().all(|e| !e.summary().is_empty()));
    }

    #[test]
    fn passes_go_where_their_anchor_says() {
        assert_eq!(
            added("pld-verify", "builtin.module", None).unwrap(),
            "builtin.module(pld-verify)"
        );
        assert_eq!(
            added("pld-lower-composite-ops", "builtin.module", None).unwrap(),
            "builtin.module(func.func(pld-lower-composite-ops))"
        );
        assert_eq!(
            added("pld-lower-composite-ops", "func.func", None).unwrap(),
            "builtin.module(func.func(pld-lower-composite-ops))"
        );
        assert_eq!(
            added("pld-verify", "func.func", None).unwrap_err(),
            "pass 'pld-verify' runs on builtin.module and cannot be nested under 'func.func'"
        );
    }

    #[test]
    fn a_pipeline_adds_its_passes_in_order() {
        let text = added("pld-incore-pipeline", "builtin.module", None).unwrap();
        let pipeline = registry().pipeline("pld-incore-pipeline").unwrap();
        let mut from = 0;
        for pass in pipeline.passes {
            let at = text[from..]
                .find(pass)
                .unwrap_or_else(|| panic!("{pass} missing or out of order in {text}"));
            from += at + pass.len();
        }
        assert!(added("pld-to-pto", "builtin.module", Some("x=1"))
            .unwrap_err()
            .starts_with("pipeline 'pld-to-pto' takes no options"));
        // A module pass of pld-to-pto cannot run inside functions, and
        // nothing is added when one cannot.
        assert_eq!(
            added("pld-to-pto", "func.func", None).unwrap_err(),
            "pass 'pld-verify' runs on builtin.module and cannot be nested under 'func.func'"
        );
    }

    #[test]
    fn options_are_the_passes_own() {
        assert!(added(
            "pld-explore-protocol",
            "builtin.module",
            Some("ranks=2 schedules=3")
        )
        .is_ok());
        let expected = registry()
            .pass("pld-explore-protocol")
            .unwrap()
            .instantiate(Some("ranks=99"))
            .err()
            .expect("pld-opt rejects 99 ranks");
        assert_eq!(
            added("pld-explore-protocol", "builtin.module", Some("ranks=99")).unwrap_err(),
            expected
        );
        assert_eq!(
            added("pld-verify", "builtin.module", Some("")).unwrap_err(),
            "pass 'pld-verify' takes no options"
        );
    }
}
