//! The `pld-opt` driver: parse, verify, run a pipeline, verify after every
//! pass, print.

use crate::expectations;
use crate::files::{read_named_input, write_output};
use crate::split::{self, Chunk};
use melior::ir::Module;
use pld_ir::diag::{Captured, Severity, Sink};
use pld_ir::pipeline::{self, Planned};
use pld_ir::print::PrintOptions;

/// What `pld-opt` was asked to do.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Input path, `-` for standard input.
    pub input: String,
    /// Output path, `-` or `None` for standard output.
    pub output: Option<String>,
    /// `builtin.module(...)` pipeline.
    pub pipeline: Option<String>,
    pub split_input_file: bool,
    pub verify_diagnostics: bool,
    pub print_ir_after_all: bool,
    pub print_debuginfo: bool,
    pub print_generic: bool,
    pub nameloc_as_prefix: bool,
    /// `--mlir-disable-threading`: run function passes on this thread.
    pub disable_threading: bool,
}

/// Runs `pld-opt`; returns the process exit status (0 ok, 1 error).
pub fn run(options: &Options) -> i32 {
    let Some((buffer_name, text)) = read_named_input("pld-opt", &options.input) else {
        return 1;
    };
    let registry = pld_sim::registry();
    let steps = match options
        .pipeline
        .as_deref()
        .map(|text| pipeline::parse(text, &registry))
        .transpose()
    {
        Ok(steps) => steps.unwrap_or_default(),
        Err(e) => {
            eprintln!("pld-opt: error: invalid pass pipeline: {e}");
            return 1;
        }
    };

    let context = pld_dialect::context();
    if options.disable_threading {
        context.enable_multi_threading(false);
    }
    let sink = Sink::attach(&context);
    let plan = match pipeline::plan(&context, &steps, &registry) {
        Ok(plan) => plan,
        Err(e) => {
            eprintln!("pld-opt: error: invalid pass pipeline: {e}");
            return 1;
        }
    };

    let mut outputs = Vec::new();
    let mut failed = false;
    for chunk in split::chunks(&text, options.split_input_file) {
        let expected = if options.verify_diagnostics {
            match expectations::parse(&chunk) {
                Ok(expected) => Some(expected),
                Err(errors) => {
                    for (line, message) in errors {
                        eprintln!("{buffer_name}:{line}: error: {message}");
                    }
                    failed = true;
                    continue;
                }
            }
        } else {
            None
        };
        let result = process(&context, &buffer_name, &chunk, &plan, &registry, options);
        let diagnostics = sink.take();
        match expected {
            Some(expected) => {
                let problems = expectations::check(expected, &diagnostics, &buffer_name);
                for problem in &problems {
                    eprintln!("{problem}");
                }
                failed |= !problems.is_empty();
            }
            None => {
                for diagnostic in &diagnostics {
                    eprint!("{}", diagnostic.render_in(&buffer_name, Some(&text)));
                }
                failed |= result.is_none() || has_error(&diagnostics);
            }
        }
        if let Some(output) = result {
            outputs.push(output);
        }
    }

    // Like mlir-opt: a chunk that failed prints nothing; the others print.
    let joined = outputs.join(&format!("{}\n", split::MARKER));
    if let Err(e) = write_output(options.output.as_deref(), &joined) {
        eprintln!("pld-opt: error: cannot write output: {e}");
        return 1;
    }
    i32::from(failed)
}

fn has_error(diagnostics: &[Captured]) -> bool {
    diagnostics.iter().any(|d| d.severity == Severity::Error)
}

/// Parses, verifies, runs the plan and prints one chunk. `None` when any
/// step failed (the reasons went to the diagnostic handler).
fn process(
    context: &melior::Context,
    buffer_name: &str,
    chunk: &Chunk,
    plan: &[Planned],
    registry: &pld_ir::registry::Registry,
    options: &Options,
) -> Option<String> {
    let mut module = pld_dialect::parse_source(context, &chunk.padded(), buffer_name)?;
    if !pld_dialect::verify::verify_and_emit(module.as_operation()) {
        return None;
    }
    for step in plan {
        step.run(&mut module).ok()?;
        if options.print_ir_after_all {
            eprintln!(
                "// -----// IR Dump After {} //----- //\n{}",
                step.step.display_name(registry),
                print(&module, options)
            );
        }
        if !pld_dialect::verify::verify_and_emit(module.as_operation()) {
            return None;
        }
    }
    Some(print(&module, options))
}

fn print(module: &Module, options: &Options) -> String {
    pld_ir::print::module_text(
        module,
        PrintOptions {
            debug_info: options.print_debuginfo,
            generic: options.print_generic,
            nameloc_as_prefix: options.nameloc_as_prefix,
        },
    )
}
