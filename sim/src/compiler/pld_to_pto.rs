//! The pld pipeline down to PTO (`pld-to-pto`), for the kernels the
//! simulator compiles: errors are the diagnostics, with the source line
//! they point at.

use super::cache::Use;
use super::diag::render_source;
use super::source::Source;
use pld_ir::diag::Sink;

/// Runs `pld-to-pto` on a pld module (text) and returns the converted
/// module as text, or the diagnostics.
pub fn to_pto(text: &str) -> Result<String, String> {
    to_pto_named(text, "<kernel>")
}

/// `to_pto` of a source named `source_name`: the output keeps the ops'
/// locations (`loc("file":line:col)`), so what runs it can point at the
/// user's program.
pub fn to_pto_named(text: &str, source_name: &str) -> Result<String, String> {
    to_pto_source(Source::new(text, source_name))
}

/// `to_pto` of `source`, its diagnostics quoting the lines of its file.
pub fn to_pto_source(source: Source) -> Result<String, String> {
    let Source { text, name, file } = source;
    let registry = pld_backend::registry();
    let steps = pld_ir::pipeline::parse("builtin.module(pld-to-pto)", &registry)
        .map_err(|e| e.to_string())?;
    let context = pld_dialect::context();
    let sink = Sink::attach(&context);
    let plan = pld_ir::pipeline::plan(&context, &steps, &registry).map_err(|e| e.to_string())?;
    let failed = |what: &str| format!("{what} failed:{}", render_source(&sink, name, file));
    let mut module =
        pld_dialect::parse_source(&context, text, name).ok_or_else(|| failed("parse"))?;
    if !pld_dialect::verify::verify_and_emit(module.as_operation()) {
        return Err(failed("verify"));
    }
    for step in &plan {
        step.run(&mut module).map_err(|_| failed("pld-to-pto"))?;
    }
    Ok(pld_ir::print::module_text(
        &module,
        pld_ir::print::PrintOptions {
            debug_info: true,
            ..Default::default()
        },
    ))
}

/// Resolves every `mode = "auto"` allreduce of `module` in place as
/// `pld-to-pto` does (`pld-select-allreduce-modes`, with the tool's cost
/// model), so that what reads a source before it is lowered (the
/// collectives' schedules, the goldens' fold order, the shape checks made
/// before a run) sees the schedule that will run. Its diagnostics are
/// dropped: a call the pass refuses stays `"auto"`, and lowering it says
/// why.
pub fn resolve_modes<'c>(context: &'c melior::Context, module: &mut melior::ir::Module<'c>) {
    let registry = pld_backend::registry();
    let Ok(steps) =
        pld_ir::pipeline::parse("builtin.module(pld-select-allreduce-modes)", &registry)
    else {
        return;
    };
    let _quiet = Sink::attach(context);
    if let Ok(plan) = pld_ir::pipeline::plan(context, &steps, &registry) {
        for step in &plan {
            let _ = step.run(module);
        }
    }
}

/// `to_pto_source`, kept in the disk cache (`super::cache`): an unchanged
/// source is not lowered again by a later process. Also says what the
/// cache did (an environment variable that means nothing is an error).
pub fn to_pto_cached(source: Source) -> Result<(String, Use), String> {
    use super::cache::{self, Entry, Kind, Place};
    let cache = match cache::place()? {
        Place::On(cache) => cache,
        Place::Off(off) => return Ok((to_pto_source(source)?, Use::Off(off))),
    };
    // `mode = "auto"` resolves by the cost model the tool was given.
    let model = pld_lowering::passes::select_allreduce_modes::defaults_key();
    let key = cache::key(Kind::Lowered, &[source.name, source.text, &model]);
    let hit = cache
        .load(Kind::Lowered, &key)
        .and_then(|e| String::from_utf8(e.payload).ok());
    if let Some(lowered) = hit {
        return Ok((lowered, Use::Read));
    }
    let writer = cache.writer(Kind::Lowered, &key);
    let lowered = to_pto_source(source)?;
    let stored = match writer {
        Err(reason) => Use::NotCached(reason),
        Ok(writer) => writer.store(&Entry {
            meta: Vec::new(),
            payload: lowered.clone().into_bytes(),
        }),
    };
    Ok((lowered, stored))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A converted program whose op is located in the user's file: the
    /// diagnostic quotes the user's line, not the converted text's.
    #[test]
    fn diagnostics_quote_the_file_a_program_was_converted_from() {
        let program = r#"func.func @f() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : i64
  %b = "pld.tensor_alloc_window_buffer"(%c0) {name = "arg0"} : (i64) -> !pld.ptr loc("user.mlir":2:8)
  return
}
"#;
        let file = "shard.grid @g(shape = 2)\n  %r = shard.all_reduce %x on @g\n";
        let error = to_pto_source(Source::converted(program, "user.mlir", file)).unwrap_err();
        let expected = "user.mlir:2:8: error: 'pld.tensor_alloc_window_buffer' op window size must be positive, got 0 bytes\n  %r = shard.all_reduce %x on @g\n       ^";
        assert!(error.contains(expected), "{error}");
        // The program itself is its own file.
        let own = to_pto_named(program, "user.mlir").unwrap_err();
        assert!(
            own.contains("  %c0 = arith.constant 0 : i64\n       ^"),
            "{own}"
        );
    }
}
