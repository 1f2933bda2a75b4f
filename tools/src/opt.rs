//! The `pld-opt` driver: parse, verify, run a pipeline, verify after every
//! pass, print.

use crate::expectations;
use crate::files::{read_named_input_bytes, write_output_bytes};
use crate::split::{self, Chunk};
use crate::timing::Timing;
use melior::ir::{block::BlockLike, operation::OperationLike, Module};
use pld_ir::diag::{Captured, Severity, Sink};
use pld_ir::pipeline::{self, Instrumentation, PassSelection, Planned, Step};
use pld_ir::print::PrintOptions;
use pld_ir::registry::Registry;

/// What `pld-opt` was asked to do.
#[derive(Clone, Debug)]
pub struct Options {
    /// Input path, `-` for standard input.
    pub input: String,
    /// Output path, `-` or `None` for standard output.
    pub output: Option<String>,
    /// `builtin.module(...)` pipeline.
    pub pipeline: Option<String>,
    /// `--split-input-file[=MARKER]`: the marker the input is split at.
    pub split_input_file: Option<String>,
    /// `--output-split-marker`: the line between the chunks' outputs.
    pub output_split_marker: String,
    /// `--verify-diagnostics[=all|only-expected]`.
    pub verify_diagnostics: Option<VerifyMode>,
    /// `--mlir-print-ir-before=` / `--mlir-print-ir-before-all`.
    pub print_before: PassSelection,
    /// `--mlir-print-ir-after=` / `--mlir-print-ir-after-all`.
    pub print_after: PassSelection,
    /// `--mlir-print-ir-after-change`.
    pub print_after_change: bool,
    /// `--mlir-print-ir-after-failure`.
    pub print_after_failure: bool,
    /// `--mlir-print-ir-module-scope`.
    pub print_module_scope: bool,
    /// Printing flags of the output and of the IR dumps.
    pub print: PrintOptions,
    /// `--mlir-disable-threading`: run function passes on this thread.
    pub disable_threading: bool,
    /// `--mlir-timing`: an execution time report on standard error.
    pub timing: bool,
    /// `--mlir-pass-statistics`: the pass statistics report.
    pub pass_statistics: bool,
    /// `--dump-pass-pipeline`: print the pipeline before running it.
    pub dump_pass_pipeline: bool,
    /// `--allow-unregistered-dialect`.
    pub allow_unregistered_dialect: bool,
    /// `--emit-bytecode`: write MLIR bytecode instead of text.
    pub emit_bytecode: bool,
    /// `--verify-each` (on by default): verify after every pass.
    pub verify_each: bool,
    /// `--no-implicit-module`: the input is one top-level op, printed as is.
    pub no_implicit_module: bool,
}

/// What `--verify-diagnostics` checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VerifyMode {
    /// Every diagnostic: one nothing expects is a failure (`=all`, the
    /// bare flag).
    All,
    /// The expected ones only: the others are not shown (`=only-expected`).
    OnlyExpected,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            input: "-".into(),
            output: None,
            pipeline: None,
            split_input_file: None,
            output_split_marker: split::MARKER.to_string(),
            verify_diagnostics: None,
            print_before: PassSelection::Nothing,
            print_after: PassSelection::Nothing,
            print_after_change: false,
            print_after_failure: false,
            print_module_scope: false,
            print: PrintOptions::default(),
            disable_threading: false,
            timing: false,
            pass_statistics: false,
            dump_pass_pipeline: false,
            allow_unregistered_dialect: false,
            emit_bytecode: false,
            verify_each: true,
            no_implicit_module: false,
        }
    }
}

/// Runs `pld-opt`; returns the process exit status (0 ok, 1 error).
pub fn run(options: &Options) -> i32 {
    let mut timing = Timing::new(options.timing);
    let Some((buffer_name, bytes)) = read_named_input_bytes("pld-opt", &options.input) else {
        return 1;
    };
    let ran = with_session(options, &buffer_name, |run, sink| {
        run_chunks(run, sink, &bytes, &mut timing)
    });
    ran.unwrap_or_else(|e| {
        pld_ir::say!("pld-opt: error: {e}");
        1
    })
}

/// What `pld-opt` made of one module held in memory
/// ([`process_source`]).
pub struct Processed {
    /// The output, `None` when a step failed.
    pub output: Option<Vec<u8>>,
    /// Every diagnostic, in source order.
    pub diagnostics: Vec<Captured>,
}

impl Processed {
    /// Whether the module went through: an output and no error.
    pub fn held(&self) -> bool {
        self.output.is_some() && !has_error(&self.diagnostics)
    }
}

/// `pld-opt` on one module held in memory (`source`, text or bytecode,
/// named `buffer_name` in diagnostics), as [`run`] processes each chunk
/// without `--verify-diagnostics`; the options' input, output and
/// splitting are not used. `Err` for an invalid pipeline.
pub fn process_source(
    source: &[u8],
    buffer_name: &str,
    options: &Options,
) -> Result<Processed, String> {
    with_session(options, buffer_name, |run, sink| {
        let output = run.process(source, &mut Timing::new(false));
        Processed {
            output,
            diagnostics: sink.take(),
        }
    })
}

/// Sets up what `pld-opt` processes modules with (the registry, the
/// pipeline, a context whose diagnostics go to a sink, the planned
/// passes) and hands it to `body`. `Err` for an invalid pipeline.
fn with_session<T>(
    options: &Options,
    buffer_name: &str,
    body: impl FnOnce(&Run, &Sink) -> T,
) -> Result<T, String> {
    let registry = pld_sim::registry();
    let steps = match options.pipeline.as_deref() {
        Some(text) => pipeline::parse(text, &registry).map_err(|e| {
            // mlir-opt would run `func.func(...)` on a lone function.
            let note =
                if options.no_implicit_module && !text.trim_start().starts_with("builtin.module") {
                    " (also under --no-implicit-module: pld-opt runs pipelines on a module only; \
                 put the function in a `module { ... }`)"
                } else {
                    ""
                };
            format!("invalid pass pipeline: {e}{note}")
        })?,
        None => Vec::new(),
    };
    let context = pld_dialect::context();
    if options.disable_threading {
        context.enable_multi_threading(false);
    }
    context.set_allow_unregistered_dialects(options.allow_unregistered_dialect);
    let sink = Sink::attach_for_opt(&context);
    let plan = plan(&context, &steps, &registry, options)?;
    let run = Run {
        context: &context,
        buffer_name,
        plan: &plan,
        registry: &registry,
        options,
    };
    Ok(body(&run, &sink))
}

/// Runs every chunk of the input (`bytes`), writes the output and the
/// reports; the exit status.
fn run_chunks(run: &Run, sink: &Sink, bytes: &[u8], timing: &mut Timing) -> i32 {
    let options = run.options;
    let bytecode_input = pld_ir::parse::is_bytecode(bytes);
    timing.restart();
    // Bytecode is one unit: it is never split, and is not text to show.
    let text = if bytecode_input {
        String::new()
    } else {
        String::from_utf8_lossy(bytes).into_owned()
    };
    let chunks = if bytecode_input {
        vec![Chunk {
            first_line: 1,
            text: String::new(),
        }]
    } else {
        split::chunks(&text, options.split_input_file.as_deref())
    };
    let shown = (!bytecode_input).then_some(text.as_str());
    let mut outputs: Vec<Vec<u8>> = Vec::new();
    let mut failed = false;
    for chunk in chunks {
        let source = if bytecode_input {
            bytes.to_vec()
        } else {
            chunk.padded().into_bytes()
        };
        let (output, held) = run.chunk(&chunk, &source, shown, sink, timing);
        failed |= !held;
        // A chunk that failed prints nothing between its separators.
        outputs.push(output.unwrap_or_default());
    }

    // Like mlir-opt: a chunk that failed prints nothing; the others print
    // on the terminal, but a failed run leaves an output file alone rather
    // than replace it with a partial or empty one. The chunks' outputs are
    // joined with the separator line, bytecode too (as mlir-opt 22 writes
    // it: such a file is no longer bytecode as a whole).
    let output_started = timing.start();
    let separator = format!("{}\n", options.output_split_marker).into_bytes();
    let joined = outputs.join(separator.as_slice());
    let to_file = options.output.as_deref().is_some_and(|path| path != "-");
    if !(failed && to_file) {
        // (A Ctrl-C before is said as the pass it stopped.)
        crate::opt_watch::writing();
        crate::opt_watch::step(Some("writing the output".into()));
        let written = write_output_bytes(options.output.as_deref(), &joined);
        crate::opt_watch::wrote();
        if let Err(e) = written {
            pld_ir::say!("pld-opt: error: {e}");
            return 1;
        }
    }
    timing.record_output(output_started);
    if options.pass_statistics {
        pld_ir::diag::write_stderr(&statistics_report());
    }
    timing.report(run.plan, run.registry);
    i32::from(failed)
}

/// The pipeline's passes, instrumented as the options ask (and printed
/// first under `--dump-pass-pipeline`); `Err` when the pipeline is
/// invalid.
fn plan<'c>(
    context: &'c melior::Context,
    steps: &[Step],
    registry: &Registry,
    options: &Options,
) -> Result<Vec<Planned<'c>>, String> {
    let instrumentation = Instrumentation {
        print_before: options.print_before.clone(),
        print_after: options.print_after.clone(),
        after_change: options.print_after_change,
        after_failure: options.print_after_failure,
        module_scope: options.print_module_scope,
        print: options.print,
        verify_each: options.verify_each,
        threading: !options.disable_threading,
    };
    // (An option naming no pass is no error of the pipeline.)
    pipeline::check_instrumentation(context, registry, &instrumentation)?;
    let invalid = |e: pipeline::PipelineError| format!("invalid pass pipeline: {e}");
    let plan =
        pipeline::plan_instrumented(context, steps, registry, &instrumentation).map_err(invalid)?;
    if options.dump_pass_pipeline {
        let shown = with_tool_defaults(steps);
        pld_ir::diag::write_stderr(
            &pipeline::describe(context, &shown, registry).map_err(invalid)?,
        );
        if shown.as_slice() != steps {
            use pld_lowering::passes::select_allreduce_modes as select;
            if let Some(note) = select::unwritable_defaults() {
                pld_ir::say!("pld-opt: warning: {note}");
            }
        }
    }
    Ok(plan)
}

/// `steps` with the options `--pld-cost-model`, `--pld-cost-target`,
/// `--pld-remark-allreduce-mode` and `--pld-world-size` give
/// pld-select-allreduce-modes written out, as the dump shows them.
fn with_tool_defaults(steps: &[Step]) -> Vec<Step> {
    use pld_ir::pass::PldPass;
    use pld_lowering::passes::select_allreduce_modes::{self as select, SelectAllReduceModes};
    steps
        .iter()
        .map(|step| match step.pass == SelectAllReduceModes::ARGUMENT {
            true => Step {
                options: select::options_with_defaults(step.options.as_deref()),
                ..step.clone()
            },
            false => step.clone(),
        })
        .collect()
}

fn has_error(diagnostics: &[Captured]) -> bool {
    diagnostics.iter().any(|d| d.severity == Severity::Error)
}

/// MLIR's pass statistics report. pld passes declare no statistics, and
/// the upstream passes' counters exist only in LLVM builds with statistics
/// enabled (not the Debian packages pld builds with), where `mlir-opt`
/// prints the same empty report.
fn statistics_report() -> String {
    let rule = "===-------------------------------------------------------------------------===";
    format!("{rule}\n                         ... Pass statistics report ...\n{rule}\n\n")
}

/// One chunk's run.
struct Run<'a, 'c> {
    context: &'c melior::Context,
    buffer_name: &'a str,
    plan: &'a [Planned<'c>],
    registry: &'a Registry,
    options: &'a Options,
}

impl<'c> Run<'_, 'c> {
    /// Runs one chunk (`source`, its bytes to parse) and reports its
    /// diagnostics, quoting `shown` (the input's text), or checks them
    /// against the chunk's expectations under `--verify-diagnostics`: the
    /// chunk's output, if it produced one, and whether everything held.
    fn chunk(
        &self,
        chunk: &Chunk,
        source: &[u8],
        shown: Option<&str>,
        sink: &Sink,
        timing: &mut Timing,
    ) -> (Option<Vec<u8>>, bool) {
        let Some(mode) = self.options.verify_diagnostics else {
            let result = self.process(source, timing);
            let diagnostics = sink.take();
            for diagnostic in &diagnostics {
                pld_ir::diag::write_stderr(&diagnostic.render_in(self.buffer_name, shown));
            }
            let held = result.is_some() && !has_error(&diagnostics);
            return (result, held);
        };
        // As in mlir-opt, a malformed annotation is reported and left out,
        // and the chunk runs all the same.
        let (expected, mut problems) = expectations::parse(chunk, self.buffer_name);
        let result = self.process(source, timing);
        let diagnostics = sink.take();
        problems.extend(expectations::check(
            &expected,
            &diagnostics,
            self.buffer_name,
            mode == VerifyMode::OnlyExpected,
        ));
        for problem in &problems {
            pld_ir::diag::write_stderr(&problem.render(self.buffer_name, shown));
        }
        (result, problems.is_empty())
    }

    /// Parses, verifies, runs the plan and prints one chunk. `None` when
    /// any step failed (the reasons went to the diagnostic handler).
    fn process(&self, source: &[u8], timing: &mut Timing) -> Option<Vec<u8>> {
        let started = timing.start();
        let (mut module, bare) = self.parse(source)?;
        let verified = pld_dialect::verify::verify_and_emit(module.as_operation());
        timing.record_parser(started);
        if !verified {
            return None;
        }
        if bare && !self.plan.is_empty() {
            // The pipeline is anchored on builtin.module, as in mlir-opt.
            let op = module.body().first_operation()?;
            let name = op.name().as_string_ref().as_str().unwrap_or("").to_string();
            pld_ir::diag::emit_error(
                op.location(),
                &format!("can't run 'builtin.module' pass manager on '{name}' op"),
            );
            return None;
        }
        for (index, step) in self.plan.iter().enumerate() {
            let started = timing.start();
            // (Kept after the pass: Ctrl-C may have ended it just now.)
            crate::opt_watch::step(Some(format!("running pass '{}'", step.step.pass)));
            let ran = step.run(&mut module).is_ok();
            let verified = ran
                && (!self.options.verify_each
                    || pld_dialect::verify::verify_and_emit(module.as_operation()));
            timing.record_step(index, started);
            if !ran {
                return None;
            }
            if !verified {
                if self.options.print_after_failure {
                    // MLIR's dump of a pass whose verification failed.
                    pld_ir::say!(
                        "// -----// IR Dump After {} Failed //----- //\n{}",
                        step.step.display_name(self.registry),
                        pld_ir::print::module_text(&module, self.options.print)
                    );
                }
                return None;
            }
        }
        Some(self.output(&module, bare))
    }

    /// The chunk's module, and whether it holds a bare top-level op that is
    /// printed without the module (`--no-implicit-module`).
    fn parse(&self, source: &[u8]) -> Option<(Module<'c>, bool)> {
        if !self.options.no_implicit_module {
            let module = pld_dialect::parse_source_bytes(self.context, source, self.buffer_name)?;
            return Some((module, false));
        }
        let op = pld_dialect::parse_source_op(self.context, source, self.buffer_name)?;
        let bare = pld_ir::op_name(&op) != "builtin.module";
        let module = pld_ir::parse::into_module(self.context, op, self.buffer_name)?;
        Some((module, bare))
    }

    fn output(&self, module: &Module, bare: bool) -> Vec<u8> {
        let op = if bare {
            module.body().first_operation()
        } else {
            None
        };
        if self.options.emit_bytecode {
            return match op {
                Some(op) => op.write_bytecode(),
                None => module.as_operation().write_bytecode(),
            };
        }
        // As mlir-opt writes it, byte for byte (cli24 L7: the chunks ran
        // together before each `// -----`).
        match op {
            Some(op) => pld_ir::print::op_output(&op, self.options.print).into_bytes(),
            None => {
                pld_ir::print::op_output(&module.as_operation(), self.options.print).into_bytes()
            }
        }
    }
}
