//! The `pld-translate` driver: parse, verify, then write the module in a
//! foreign format (today: the PTOAS text of `--emit=pto`).

use crate::files::{read_named_input, write_output};
use crate::split;
use pld_ir::diag::{Severity, Sink};

/// The formats `pld-translate` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Emit {
    /// PTO in the custom syntax the PTOAS assembler parses.
    Pto,
}

/// What `pld-translate` was asked to do.
#[derive(Clone, Debug)]
pub struct Options {
    /// Input path, `-` for standard input.
    pub input: String,
    /// Output path, `-` or `None` for standard output.
    pub output: Option<String>,
    pub emit: Emit,
    pub split_input_file: bool,
}

/// Runs `pld-translate`; returns the process exit status (0 ok, 1 error).
pub fn run(options: &Options) -> i32 {
    let Some((buffer_name, text)) = read_named_input("pld-translate", &options.input) else {
        return 1;
    };
    let context = pld_dialect::context();
    let sink = Sink::attach(&context);
    let mut outputs = Vec::new();
    let mut failed = false;
    for chunk in split::chunks(&text, options.split_input_file) {
        let output = translate(&context, &buffer_name, &chunk.padded(), options.emit);
        let diagnostics = sink.take();
        for diagnostic in &diagnostics {
            eprint!("{}", diagnostic.render_in(&buffer_name, Some(&text)));
        }
        failed |= output.is_none() || diagnostics.iter().any(|d| d.severity == Severity::Error);
        outputs.extend(output);
    }
    // A failed run leaves an output file alone rather than replace it with
    // a partial translation; on the terminal the good chunks still show.
    let to_file = options.output.as_deref().is_some_and(|path| path != "-");
    if failed && to_file {
        return 1;
    }
    let joined = outputs.join(&format!("{}\n", split::MARKER));
    if let Err(e) = write_output(options.output.as_deref(), &joined) {
        eprintln!("pld-translate: error: cannot write output: {e}");
        return 1;
    }
    i32::from(failed)
}

/// One chunk's translation; `None` when it failed (the reasons went to the
/// diagnostic handler).
fn translate(
    context: &melior::Context,
    buffer_name: &str,
    text: &str,
    emit: Emit,
) -> Option<String> {
    let module = pld_dialect::parse_source(context, text, buffer_name)?;
    if !pld_dialect::verify::verify_and_emit(module.as_operation()) {
        return None;
    }
    match emit {
        Emit::Pto => match pld_backend::ptoas::emit(module.as_operation()) {
            Ok(text) => Some(text),
            Err(error) => {
                pld_ir::diag::error(error.op, &error.message);
                None
            }
        },
    }
}
