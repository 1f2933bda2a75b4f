//! Parsing and running `builtin.module(...)` pass pipelines that mix pld
//! passes and upstream MLIR passes.
//!
//! A pipeline is flattened into [`Step`]s, one per pass, each remembering
//! the op anchors it is nested under (`builtin.module(func.func(cse))` gives
//! the step `cse` anchored on `func.func`). Named pld pipelines expand into
//! their passes. A pld pass anchored on `func.func` and written directly
//! under `builtin.module` is nested under `func.func` for the user (so
//! `builtin.module(pld-to-pto)` works); a pass anchored on `builtin.module`
//! nested under another op is an error. Running step by step lets a driver
//! verify and print the IR after every pass.

use crate::pass::{Anchor, PassFailed};
use crate::registry::Registry;
use melior::{
    ir::Module,
    pass::{OperationPassManager, PassManager},
    utility::{parse_pass_pipeline, register_all_passes},
    Context,
};
use std::fmt;

/// One pass of a flattened pipeline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// Op names the pass is nested under, outermost first, excluding the
    /// root `builtin.module`.
    pub anchors: Vec<String>,
    /// Pass argument, e.g. `pld-verify` or `canonicalize`.
    pub pass: String,
    /// Option text between the braces, if any (upstream passes only).
    pub options: Option<String>,
}

impl Step {
    /// Name for IR dumps: `PldVerify (pld-verify)` or the upstream argument.
    pub fn display_name(&self, registry: &Registry) -> String {
        match registry.pass(&self.pass) {
            Some(entry) => format!("{} ({})", entry.name, entry.argument),
            None => self.pass.clone(),
        }
    }

    /// The step as upstream pipeline text, e.g. `builtin.module(func.func(cse))`.
    pub fn text(&self) -> String {
        let mut text = match &self.options {
            Some(o) => format!("{}{{{o}}}", self.pass),
            None => self.pass.clone(),
        };
        for anchor in self.anchors.iter().rev() {
            text = format!("{anchor}({text})");
        }
        format!("builtin.module({text})")
    }
}

/// A malformed pipeline string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PipelineError(pub String);

impl fmt::Display for PipelineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PipelineError {}

/// Parses `builtin.module(...)` into steps. Named pld pipelines expand into
/// their passes. Whether an upstream name is a real pass is decided by
/// [`plan`], which asks MLIR.
pub fn parse(text: &str, registry: &Registry) -> Result<Vec<Step>, PipelineError> {
    let mut parser = Parser {
        text: text.as_bytes(),
        pos: 0,
        registry,
    };
    parser.skip_space();
    let root = parser.name()?;
    if root != "builtin.module" {
        return Err(PipelineError(format!(
            "the pipeline must be anchored on builtin.module, as in 'builtin.module({root}...)'"
        )));
    }
    parser.expect(b'(')?;
    let mut steps = Vec::new();
    parser.elements(&mut Vec::new(), &mut steps)?;
    parser.expect(b')')?;
    parser.skip_space();
    if parser.pos != parser.text.len() {
        return Err(parser.error("unexpected text after the pipeline"));
    }
    steps
        .iter_mut()
        .try_for_each(|step| anchor(step, registry))?;
    Ok(steps)
}

/// Nests a pld pass where its anchor says.
fn anchor(step: &mut Step, registry: &Registry) -> Result<(), PipelineError> {
    let Some(entry) = registry.pass(&step.pass) else {
        return Ok(());
    };
    match entry.anchor {
        Anchor::Function => {
            if step.anchors.last().map(String::as_str) != Some("func.func") {
                step.anchors.push("func.func".into());
            }
        }
        Anchor::Module => {
            if let Some(op) = step.anchors.last() {
                return Err(PipelineError(format!(
                    "pass '{}' runs on builtin.module and cannot be nested under '{op}'",
                    step.pass
                )));
            }
        }
    }
    Ok(())
}

struct Parser<'t> {
    text: &'t [u8],
    pos: usize,
    registry: &'t Registry,
}

impl Parser<'_> {
    fn error(&self, what: &str) -> PipelineError {
        PipelineError(format!("{what} at column {}", self.pos + 1))
    }

    fn skip_space(&mut self) {
        while self.text.get(self.pos).is_some_and(u8::is_ascii_whitespace) {
            self.pos += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.skip_space();
        self.text.get(self.pos).copied()
    }

    fn expect(&mut self, c: u8) -> Result<(), PipelineError> {
        if self.peek() == Some(c) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.error(&format!("expected '{}'", c as char)))
        }
    }

    fn name(&mut self) -> Result<String, PipelineError> {
        self.skip_space();
        let start = self.pos;
        while self
            .text
            .get(self.pos)
            .is_some_and(|c| c.is_ascii_alphanumeric() || b"_-.".contains(c))
        {
            self.pos += 1;
        }
        if start == self.pos {
            return Err(self.error("expected a pass name"));
        }
        Ok(String::from_utf8_lossy(&self.text[start..self.pos]).into_owned())
    }

    /// Text between balanced braces (the opening brace already consumed).
    fn options(&mut self) -> Result<String, PipelineError> {
        let start = self.pos;
        let mut depth = 1;
        while let Some(c) = self.text.get(self.pos) {
            match c {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        let options = String::from_utf8_lossy(&self.text[start..self.pos]);
                        self.pos += 1;
                        return Ok(options.into_owned());
                    }
                }
                _ => {}
            }
            self.pos += 1;
        }
        Err(self.error("unterminated '{'"))
    }

    fn elements(
        &mut self,
        anchors: &mut Vec<String>,
        steps: &mut Vec<Step>,
    ) -> Result<(), PipelineError> {
        if self.peek() == Some(b')') {
            return Ok(());
        }
        loop {
            let name = self.name()?;
            match self.peek() {
                Some(b'(') => {
                    self.pos += 1;
                    anchors.push(name);
                    self.elements(anchors, steps)?;
                    anchors.pop();
                    self.expect(b')')?;
                }
                Some(b'{') => {
                    self.pos += 1;
                    let options = self.options()?;
                    steps.push(Step {
                        anchors: anchors.clone(),
                        pass: name,
                        options: Some(options),
                    });
                }
                _ => match self.registry.pipeline(&name) {
                    Some(pipeline) => steps.extend(pipeline.passes.iter().map(|p| Step {
                        anchors: anchors.clone(),
                        pass: p.to_string(),
                        options: None,
                    })),
                    None => steps.push(Step {
                        anchors: anchors.clone(),
                        pass: name,
                        options: None,
                    }),
                },
            }
            if self.peek() == Some(b',') {
                self.pos += 1;
            } else {
                return Ok(());
            }
        }
    }
}

/// A step ready to run: its pass manager is built (and upstream pass names
/// were checked by MLIR).
pub struct Planned<'c> {
    pub step: Step,
    manager: PassManager<'c>,
}

impl<'c> Planned<'c> {
    /// Runs the step on `module`. Failures were reported as diagnostics.
    pub fn run(&self, module: &mut Module<'c>) -> Result<(), PassFailed> {
        self.manager.run(module).map_err(|_| PassFailed)
    }
}

/// Builds one pass manager per step, so that every pass name and option is
/// checked before any pass runs.
pub fn plan<'c>(
    context: &'c Context,
    steps: &[Step],
    registry: &Registry,
) -> Result<Vec<Planned<'c>>, PipelineError> {
    register_all_passes();
    steps
        .iter()
        .map(|step| {
            let manager = PassManager::new(context);
            match registry.pass(&step.pass) {
                Some(entry) => {
                    if step.options.is_some() {
                        return Err(PipelineError(format!(
                            "pass '{}' takes no options",
                            step.pass
                        )));
                    }
                    nest(manager.as_operation_pass_manager(), &step.anchors)
                        .add_pass((entry.create)());
                }
                None => {
                    parse_pass_pipeline(manager.as_operation_pass_manager(), &step.text())
                        .map_err(|e| {
                            let hint = suggestion(&step.pass, registry)
                                .map(|name| format!(" (did you mean '{name}'?)"))
                                .unwrap_or_default();
                            PipelineError(format!("pass '{}'{hint}: {}", step.pass, clean(&e)))
                        })?;
                }
            }
            Ok(Planned {
                step: step.clone(),
                manager,
            })
        })
        .collect()
}

fn nest<'c, 'a>(
    manager: OperationPassManager<'c, 'a>,
    anchors: &[String],
) -> OperationPassManager<'c, 'a> {
    anchors
        .iter()
        .fold(manager, |manager, anchor| manager.nested_under(anchor))
}

/// The pld pass or pipeline name closest to `name`, when it is close enough
/// to be a typo of it (at most a third of its letters off).
fn suggestion(name: &str, registry: &Registry) -> Option<&'static str> {
    registry
        .passes()
        .iter()
        .map(|p| p.argument)
        .chain(registry.pipelines().iter().map(|p| p.argument))
        .map(|candidate| (edit_distance(name, candidate), candidate))
        .filter(|(distance, candidate)| *distance <= candidate.len().max(3) / 3)
        .min()
        .map(|(_, candidate)| candidate)
}

/// Levenshtein distance between two names.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut current = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != *cb);
            current.push(substitution.min(previous[j + 1] + 1).min(current[j] + 1));
        }
        previous = current;
    }
    previous[b.len()]
}

fn clean(error: &melior::Error) -> String {
    let text = error.to_string();
    text.trim_start_matches("failed to parse pass pipeline:")
        .trim()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(anchors: &[&str], pass: &str, options: Option<&str>) -> Step {
        Step {
            anchors: anchors.iter().map(|s| s.to_string()).collect(),
            pass: pass.into(),
            options: options.map(Into::into),
        }
    }

    use crate::pass::{external, PassIdentity, PldPass};
    use crate::registry::{PassEntry, PipelineEntry};
    use melior::{ir::OperationRef, Context};

    #[derive(Clone)]
    struct ModulePass;
    impl PldPass for ModulePass {
        const ARGUMENT: &'static str = "test-module-pass";
        const NAME: &'static str = "TestModulePass";
        const SUMMARY: &'static str = "does nothing, on the module";
        const ANCHOR: Anchor = Anchor::Module;
        fn run(&self, _: &Context, _: OperationRef) -> Result<(), PassFailed> {
            Ok(())
        }
    }

    #[derive(Clone)]
    struct FunctionPass;
    impl PldPass for FunctionPass {
        const ARGUMENT: &'static str = "test-function-pass";
        const NAME: &'static str = "TestFunctionPass";
        const SUMMARY: &'static str = "does nothing, on each function";
        const ANCHOR: Anchor = Anchor::Function;
        fn run(&self, _: &Context, _: OperationRef) -> Result<(), PassFailed> {
            Ok(())
        }
    }

    static MODULE_ID: PassIdentity = PassIdentity;
    static FUNCTION_ID: PassIdentity = PassIdentity;
    static PASSES: &[PassEntry] = &[
        PassEntry::of::<ModulePass>(|| external(ModulePass, &MODULE_ID)),
        PassEntry::of::<FunctionPass>(|| external(FunctionPass, &FUNCTION_ID)),
    ];
    static PIPELINES: &[PipelineEntry] = &[PipelineEntry {
        argument: "test-pipeline",
        summary: "both test passes",
        passes: &["test-module-pass", "test-function-pass"],
    }];

    fn registry() -> Registry {
        Registry::new(PASSES, PIPELINES)
    }

    #[test]
    fn nests_passes_by_anchor() {
        let steps = parse("builtin.module(test-pipeline)", &registry()).unwrap();
        assert_eq!(
            steps,
            vec![
                step(&[], "test-module-pass", None),
                step(&["func.func"], "test-function-pass", None),
            ]
        );
        let nested = parse("builtin.module(func.func(test-function-pass))", &registry()).unwrap();
        assert_eq!(
            nested,
            vec![step(&["func.func"], "test-function-pass", None)]
        );
        let error = parse("builtin.module(func.func(test-module-pass))", &registry())
            .expect_err("a module pass under func.func is rejected");
        assert!(
            error.0.contains("cannot be nested under 'func.func'"),
            "{error}"
        );
    }

    #[test]
    fn flattens_nested_pipelines() {
        let steps =
            parse(
                "builtin.module(test-module-pass, func.func(cse, canonicalize{max-iterations=2}), symbol-dce)",
                &registry(),
            )
                .unwrap();
        assert_eq!(
            steps,
            vec![
                step(&[], "test-module-pass", None),
                step(&["func.func"], "cse", None),
                step(&["func.func"], "canonicalize", Some("max-iterations=2")),
                step(&[], "symbol-dce", None),
            ]
        );
        assert_eq!(
            steps[2].text(),
            "builtin.module(func.func(canonicalize{max-iterations=2}))"
        );
    }

    #[test]
    fn rejects_malformed_text() {
        let registry = registry();
        assert!(parse("func.func(cse)", &registry).is_err());
        assert!(parse("builtin.module(cse", &registry).is_err());
        assert!(parse("builtin.module(cse{a=1)", &registry).is_err());
        assert!(parse("builtin.module(cse) x", &registry).is_err());
        assert_eq!(parse("builtin.module()", &registry).unwrap(), vec![]);
    }

    #[test]
    fn plan_checks_names() {
        let context = Context::new();
        let registry = registry();
        let ok = parse(
            "builtin.module(test-module-pass, func.func(cse))",
            &registry,
        )
        .unwrap();
        assert_eq!(plan(&context, &ok, &registry).expect("plans").len(), 2);
        let typo = parse("builtin.module(test-modul-pass)", &registry).unwrap();
        let error = plan(&context, &typo, &registry)
            .err()
            .expect("a typo is rejected");
        assert!(
            error
                .0
                .starts_with("pass 'test-modul-pass' (did you mean 'test-module-pass'?): "),
            "{error}"
        );
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        let bad = parse("builtin.module(no-such-pass)", &registry).unwrap();
        let error = plan(&context, &bad, &registry)
            .err()
            .expect("unknown pass rejected");
        assert!(error.0.contains("no-such-pass"), "{error}");
        let opts = parse("builtin.module(test-module-pass{x=1})", &registry).unwrap();
        assert!(plan(&context, &opts, &registry).is_err());
    }
}
