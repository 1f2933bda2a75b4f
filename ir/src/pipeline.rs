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

use crate::pass::{module_only, Anchor, PassFailed};
use crate::print::PrintOptions;
use crate::registry::Registry;
use melior::{
    ir::Module,
    pass::{OperationPassManager, PassIrPrintingOptions, PassManager},
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
    /// Option text between the braces, if any.
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
    // `any(...)` runs on whatever the top-level op is, as in mlir-opt: a
    // module here.
    if root != "builtin.module" && root != "any" {
        return Err(PipelineError(format!(
            "the pipeline must be anchored on builtin.module (or any), as in \
             'builtin.module({root}(...))'"
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
                return Err(PipelineError(module_only(
                    &format!("pass '{}'", step.pass),
                    op,
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

    /// Whether the `{` at the cursor opens empty braces (spaces only);
    /// if so, they are consumed.
    fn empty_braces(&mut self) -> bool {
        let mut end = self.pos + 1;
        while self.text.get(end).is_some_and(u8::is_ascii_whitespace) {
            end += 1;
        }
        let empty = self.text.get(end) == Some(&b'}');
        if empty {
            self.pos = end + 1;
        }
        empty
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
                Some(b'{') if !self.empty_braces() => {
                    if let Some(pipeline) = self.registry.pipeline(&name) {
                        return Err(PipelineError(pipeline.takes_no_options()));
                    }
                    self.pos += 1;
                    let options = self.options()?;
                    steps.push(Step {
                        anchors: anchors.clone(),
                        pass: name,
                        options: Some(options),
                    });
                }
                // `name` or `name{}`: no options, as MLIR reads `cse{}`.
                _ => match self.registry.pipeline(&name) {
                    Some(pipeline) => {
                        let on_module = |p: &&str| {
                            self.registry
                                .pass(p)
                                .is_some_and(|e| matches!(e.anchor, Anchor::Module))
                        };
                        if let (Some(op), true) =
                            (anchors.last(), pipeline.passes.iter().any(on_module))
                        {
                            // Named as it was written: the pipeline, not its pass.
                            return Err(PipelineError(module_only(
                                &format!("pipeline '{name}'"),
                                op,
                            )));
                        }
                        steps.extend(pipeline.passes.iter().map(|p| Step {
                            anchors: anchors.clone(),
                            pass: p.to_string(),
                            options: None,
                        }))
                    }
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
        if self.step.pass == "shard-partition" {
            if let Some((op, message)) = crate::guard::shard_partition_crash(module.as_operation())
            {
                crate::diag::error(op, &message);
                return Err(PassFailed);
            }
        }
        self.manager.run(module).map_err(|_| PassFailed)
    }
}

/// Which passes an IR printing option selects (`--mlir-print-ir-before=`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum PassSelection {
    #[default]
    Nothing,
    /// Every pass (`--mlir-print-ir-before-all`).
    All,
    /// The passes with these arguments (`--mlir-print-ir-before=cse,pld-verify`).
    Passes(Vec<String>),
}

impl PassSelection {
    /// Whether the pass with argument `pass` is selected.
    pub fn selects(&self, pass: &str) -> bool {
        match self {
            PassSelection::Nothing => false,
            PassSelection::All => true,
            PassSelection::Passes(passes) => passes.iter().any(|p| p == pass),
        }
    }

    /// Adds the passes of one `--mlir-print-ir-before=a,b` occurrence
    /// (an empty name too, which [`check_instrumentation`] refuses, as
    /// mlir-opt refuses `--mlir-print-ir-after=`).
    pub fn add(&mut self, list: &str) {
        let names = list.split(',').map(str::trim).map(String::from);
        match self {
            PassSelection::Nothing => *self = PassSelection::Passes(names.collect()),
            PassSelection::All => {}
            PassSelection::Passes(passes) => passes.extend(names),
        }
    }
}

/// What a pass manager does around each pass, with the meaning of
/// `mlir-opt`'s flags of the same names. The IR dumps are MLIR's own (its
/// IR printing instrumentation, to standard error).
#[derive(Clone, Debug)]
pub struct Instrumentation {
    /// `--mlir-print-ir-before=` / `--mlir-print-ir-before-all`.
    pub print_before: PassSelection,
    /// `--mlir-print-ir-after=` / `--mlir-print-ir-after-all`.
    pub print_after: PassSelection,
    /// `--mlir-print-ir-after-change`: an after-dump only when the pass
    /// changed the IR.
    pub after_change: bool,
    /// `--mlir-print-ir-after-failure`: an after-dump only when the pass
    /// failed (of every pass, whatever `print_after` selects).
    pub after_failure: bool,
    /// `--mlir-print-ir-module-scope`: dump the whole module, not the op
    /// the pass ran on. MLIR allows it only without threads.
    pub module_scope: bool,
    /// How dumps print.
    pub print: PrintOptions,
    /// `--verify-each`: MLIR's verifier after every pass.
    pub verify_each: bool,
    /// Whether the context runs passes on threads.
    pub threading: bool,
}

impl Default for Instrumentation {
    fn default() -> Self {
        Instrumentation {
            print_before: PassSelection::Nothing,
            print_after: PassSelection::Nothing,
            after_change: false,
            after_failure: false,
            module_scope: false,
            print: PrintOptions::default(),
            verify_each: true,
            threading: true,
        }
    }
}

impl Instrumentation {
    fn prints(&self) -> bool {
        self.print_before != PassSelection::Nothing
            || self.print_after != PassSelection::Nothing
            || self.after_failure
    }

    /// Turns the instrumentation on in the manager of a step running `pass`.
    fn apply(&self, manager: &PassManager, pass: &str) {
        manager.enable_verifier(self.verify_each);
        let before = self.print_before.selects(pass);
        let after = self.print_after.selects(pass) || self.after_failure;
        if before || after {
            manager.enable_ir_printing(&PassIrPrintingOptions {
                before_all: before,
                after_all: after,
                module_scope: self.module_scope,
                on_change: self.after_change,
                on_failure: self.after_failure,
                flags: crate::print::flags(self.print),
                tree_printing_path: Default::default(),
            });
        }
    }
}

/// Builds one pass manager per step, so that every pass name and option is
/// checked before any pass runs.
pub fn plan<'c>(
    context: &'c Context,
    steps: &[Step],
    registry: &Registry,
) -> Result<Vec<Planned<'c>>, PipelineError> {
    plan_instrumented(context, steps, registry, &Instrumentation::default())
}

/// Whether `instrumentation` can be set up: the passes its options name
/// exist, and a module-scope print has threading off. The error names the
/// option (it is no error of the pipeline).
pub fn check_instrumentation(
    context: &Context,
    registry: &Registry,
    instrumentation: &Instrumentation,
) -> Result<(), String> {
    register_all_passes();
    if instrumentation.module_scope && instrumentation.threading && instrumentation.prints() {
        // MLIR aborts the process when asked for this; say it instead.
        return Err(
            "IR print for module scope can't be setup on a pass-manager without disabling \
             multi-threading first (add --mlir-disable-threading)"
                .into(),
        );
    }
    // Every name that is no pass is said, as mlir-opt says each.
    let mut refused = Vec::new();
    for (option, selection) in [
        ("--mlir-print-ir-before", &instrumentation.print_before),
        ("--mlir-print-ir-after", &instrumentation.print_after),
    ] {
        if let PassSelection::Passes(passes) = selection {
            for pass in passes {
                let checked = match pass.is_empty() {
                    true => Err(PipelineError(
                        "an empty pass name (give pass names, comma separated)".into(),
                    )),
                    false => check_pass_name(context, pass, registry),
                };
                if let Err(e) = checked {
                    refused.push(format!("for the {option} option: {e}"));
                }
            }
        }
    }
    match refused.is_empty() {
        true => Ok(()),
        false => Err(refused.join("; ")),
    }
}

/// [`plan`] with `instrumentation` in every step's pass manager.
pub fn plan_instrumented<'c>(
    context: &'c Context,
    steps: &[Step],
    registry: &Registry,
    instrumentation: &Instrumentation,
) -> Result<Vec<Planned<'c>>, PipelineError> {
    check_instrumentation(context, registry, instrumentation).map_err(PipelineError)?;
    steps
        .iter()
        .map(|step| {
            let manager = PassManager::new(context);
            add_step(manager.as_operation_pass_manager(), step, registry)?;
            instrumentation.apply(&manager, &step.pass);
            Ok(Planned {
                step: step.clone(),
                manager,
            })
        })
        .collect()
}

/// Adds the pass of `step` to `manager` (the root), nested as the step says.
fn add_step(
    manager: OperationPassManager,
    step: &Step,
    registry: &Registry,
) -> Result<(), PipelineError> {
    match registry.pass(&step.pass) {
        Some(entry) => {
            let pass = entry
                .instantiate(step.options.as_deref())
                .map_err(PipelineError)?;
            nest(manager, &step.anchors).add_pass(pass);
            Ok(())
        }
        None => parse_pass_pipeline(manager, &step.text()).map_err(|e| unknown(step, registry, &e)),
    }
}

fn unknown(step: &Step, registry: &Registry, error: &melior::Error) -> PipelineError {
    let hint = suggestion(&step.pass, registry)
        .map(|name| format!(" (did you mean '{name}'?)"))
        .unwrap_or_default();
    PipelineError(format!("pass '{}'{hint}: {}", step.pass, clean(error)))
}

/// Checks that `pass` names a pld pass or an upstream MLIR pass (on a
/// module or on a function), as `--mlir-print-ir-before=` requires.
fn check_pass_name(
    context: &Context,
    pass: &str,
    registry: &Registry,
) -> Result<(), PipelineError> {
    if registry.pass(pass).is_some() {
        return Ok(());
    }
    let known = [vec![], vec!["func.func".to_string()]]
        .into_iter()
        .any(|anchors| {
            let scratch = PassManager::new(context);
            let step = Step {
                anchors,
                pass: pass.to_string(),
                options: None,
            };
            parse_pass_pipeline(scratch.as_operation_pass_manager(), &step.text()).is_ok()
        });
    if known {
        return Ok(());
    }
    if registry.pipeline(pass).is_some() {
        // A named pipeline is not a pass of its own: its passes are.
        return Err(PipelineError(format!(
            "'{pass}' is a pipeline, not a pass: name one of its passes (--dump-pass-pipeline \
             lists them)"
        )));
    }
    let hint = suggestion(pass, registry)
        .filter(|name| *name != pass)
        .map(|name| format!(" (did you mean '{name}'?)"))
        .unwrap_or_default();
    Err(PipelineError(format!("no pass named '{pass}'{hint}")))
}

/// The whole pipeline as MLIR prints it (`--dump-pass-pipeline`):
/// `Pass Manager with N passes:` and the nested pipeline, one pass a line,
/// upstream passes with all their options. Adjacent steps under the same
/// anchors share one nested pass manager, as in the text they came from.
pub fn describe(
    context: &Context,
    steps: &[Step],
    registry: &Registry,
) -> Result<String, PipelineError> {
    register_all_passes();
    let manager = PassManager::new(context);
    let root = manager.as_operation_pass_manager();
    let mut rest = steps;
    while let Some(first) = rest.first() {
        let run = rest
            .iter()
            .take_while(|step| step.anchors == first.anchors)
            .count();
        let nested = nest(root, &first.anchors);
        for step in &rest[..run] {
            match registry.pass(&step.pass) {
                Some(entry) => nested.add_pass(
                    entry
                        .instantiate(step.options.as_deref())
                        .map_err(PipelineError)?,
                ),
                None => {
                    let element = match &step.options {
                        Some(o) => format!("{}{{{o}}}", step.pass),
                        None => step.pass.clone(),
                    };
                    crate::pass::add_pipeline_elements(nested, &element).map_err(|message| {
                        PipelineError(format!("pass '{}': {message}", step.pass))
                    })?;
                }
            }
        }
        rest = &rest[run..];
    }
    // The C API's manager is anchored on `any`; the pipeline's root is
    // builtin.module.
    let printed = root.to_string();
    let body = printed
        .split_once('(')
        .and_then(|(_, rest)| rest.strip_suffix(')'))
        .unwrap_or("");
    let body = with_pld_options(body, steps, registry);
    let text = format!("builtin.module({body})");
    let count = top_level_elements(&body);
    Ok(format!(
        "Pass Manager with {count} passes:\n{}\n",
        pretty_pipeline(&text)
    ))
}

/// `printed` (MLIR's print of the pipeline of `steps`, in their order)
/// with the options of each pld pass as written, `name{options}`: MLIR
/// prints a pass made through the C API by its name alone. (The options as
/// written, not every option with its default as MLIR prints its own
/// passes: a default `ranks` of pld-explore-protocol is not the same as the
/// same counts given.)
fn with_pld_options(printed: &str, steps: &[Step], registry: &Registry) -> String {
    let mut out = String::with_capacity(printed.len());
    let mut rest = printed;
    for step in steps {
        let Some(at) = element_at(rest, &step.pass) else {
            continue;
        };
        let end = at + step.pass.len();
        out.push_str(&rest[..end]);
        rest = &rest[end..];
        let options = step.options.as_deref().map(str::trim).unwrap_or("");
        if registry.pass(&step.pass).is_some() && !options.is_empty() {
            out.push('{');
            out.push_str(options);
            out.push('}');
        }
    }
    out.push_str(rest);
    out
}

/// Where the pipeline element named `pass` first starts in `text`: the name
/// after `(`, `,`, a space or the start, and before `,`, `)`, `{`, a space
/// or the end (not a part of a longer name).
fn element_at(text: &str, pass: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    text.match_indices(pass).map(|(i, _)| i).find(|&i| {
        let before = i.checked_sub(1).map(|j| bytes[j]);
        let after = bytes.get(i + pass.len()).copied();
        matches!(before, None | Some(b'(' | b',' | b' ' | b'\n'))
            && matches!(after, None | Some(b',' | b')' | b'{' | b' ' | b'\n'))
    })
}

/// Number of comma-separated elements at the top level of `body`.
fn top_level_elements(body: &str) -> usize {
    if body.trim().is_empty() {
        return 0;
    }
    let mut depth = 0i32;
    let mut count = 1;
    for c in body.chars() {
        match c {
            '(' | '{' => depth += 1,
            ')' | '}' => depth -= 1,
            ',' if depth == 0 => count += 1,
            _ => {}
        }
    }
    count
}

/// `a(b(c,d{x=1}),e)` laid out as MLIR's pretty pipeline printer does: one
/// element a line, two spaces per nesting level, options kept on the line.
fn pretty_pipeline(text: &str) -> String {
    let mut out = String::new();
    let mut level = 0usize;
    let mut braces = 0usize;
    let indent = |out: &mut String, level: usize| {
        out.push('\n');
        out.push_str(&"  ".repeat(level));
    };
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if braces > 0 {
            braces += usize::from(c == '{');
            braces -= usize::from(c == '}');
            out.push(c);
            continue;
        }
        match c {
            '{' => {
                braces = 1;
                out.push(c);
            }
            '(' => {
                out.push('(');
                if chars.peek() == Some(&')') {
                    continue;
                }
                level += 1;
                indent(&mut out, level);
            }
            ')' => {
                if out.ends_with('(') {
                    out.push(')');
                    continue;
                }
                level = level.saturating_sub(1);
                indent(&mut out, level);
                out.push(')');
            }
            ',' => {
                out.push(',');
                indent(&mut out, level);
            }
            _ => out.push(c),
        }
    }
    out
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
    fn empty_braces_are_no_options() {
        let registry = registry();
        let with = parse(
            "builtin.module(test-module-pass{ }, func.func(test-function-pass{}))",
            &registry,
        )
        .unwrap();
        let without = parse(
            "builtin.module(test-module-pass, func.func(test-function-pass))",
            &registry,
        )
        .unwrap();
        assert_eq!(with, without);
        let pipeline = parse("builtin.module(test-pipeline{})", &registry).unwrap();
        assert_eq!(
            pipeline,
            parse("builtin.module(test-pipeline)", &registry).unwrap()
        );
    }

    #[test]
    fn a_named_pipeline_takes_no_options() {
        let error = parse("builtin.module(test-pipeline{x=1})", &registry()).unwrap_err();
        assert_eq!(
            error.0,
            "pipeline 'test-pipeline' takes no options (its passes: test-module-pass, test-function-pass)"
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
