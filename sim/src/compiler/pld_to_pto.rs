//! The pld pipeline down to PTO (`pld-to-pto`), for the kernels the
//! simulator compiles: errors are the diagnostics, with the source line
//! they point at.

use super::cache::Use;
use super::diag::render_source;
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
    let registry = pld_backend::registry();
    let steps = pld_ir::pipeline::parse("builtin.module(pld-to-pto)", &registry)
        .map_err(|e| e.to_string())?;
    let context = pld_dialect::context();
    let sink = Sink::attach(&context);
    let plan = pld_ir::pipeline::plan(&context, &steps, &registry).map_err(|e| e.to_string())?;
    let failed = |what: &str| format!("{what} failed:{}", render_source(&sink, source_name, text));
    let mut module =
        pld_dialect::parse_source(&context, text, source_name).ok_or_else(|| failed("parse"))?;
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

/// `to_pto_named`, kept in the disk cache (`super::cache`): an unchanged
/// source is not lowered again by a later process. Also says what the
/// cache did (an environment variable that means nothing is an error).
pub fn to_pto_cached(text: &str, source_name: &str) -> Result<(String, Use), String> {
    use super::cache::{self, Entry, Kind, Place};
    let cache = match cache::place()? {
        Place::On(cache) => cache,
        Place::Off(off) => return Ok((to_pto_named(text, source_name)?, Use::Off(off))),
    };
    let key = cache::key(Kind::Lowered, &[source_name, text]);
    let hit = cache
        .load(Kind::Lowered, &key)
        .and_then(|e| String::from_utf8(e.payload).ok());
    if let Some(lowered) = hit {
        return Ok((lowered, Use::Read));
    }
    let writer = cache.writer(Kind::Lowered, &key);
    let lowered = to_pto_named(text, source_name)?;
    let stored = match writer {
        Err(reason) => Use::NotCached(reason),
        Ok(writer) => writer.store(&Entry {
            meta: Vec::new(),
            payload: lowered.clone().into_bytes(),
        }),
    };
    Ok((lowered, stored))
}
