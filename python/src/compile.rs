//! `pld.opt` and `pld.translate`: `pld-opt` and `pld-translate` on one
//! module held in memory, through the drivers' own functions
//! (`pld_tools::opt::process_source`, `pld_tools::translate`), so that
//! they print what the tools print.

use crate::error::{diagnostic_to_python, guarded, Diagnostic, Failure};
use crate::worker::{converse, never, Asker};
use pld_ir::print::PrintOptions;
use pld_tools::opt::{process_source, Options};
use pld_tools::translate::{kernels_source, pto_source, KernelsFailed};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList};

/// What `pld.opt` says instead of MLIR's advice to use
/// `-allow-unregistered-dialect`.
const PYTHON_ADVICE: &str =
    " (pld.opt(..., allow_unregistered_dialect=True) reads such ops in the generic form)";

/// `pld-opt` on `source` (text or bytecode) with `pipeline`
/// (`builtin.module(...)`): the module as text, or as bytecode, and the
/// warnings and remarks the tool would print (each as printed, and as a
/// `pld.Diagnostic`), which `pld.opt` issues as Python warnings.
#[allow(clippy::too_many_arguments)]
#[pyfunction]
#[pyo3(signature = (source, pipeline, name, verify_each, printing, allow_unregistered_dialect, emit_bytecode))]
pub fn opt<'py>(
    py: Python<'py>,
    source: &[u8],
    pipeline: Option<String>,
    name: String,
    verify_each: bool,
    printing: (bool, bool, bool),
    allow_unregistered_dialect: bool,
    emit_bytecode: bool,
) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyList>)> {
    let options = Options {
        pipeline,
        verify_each,
        allow_unregistered_dialect,
        emit_bytecode,
        print: PrintOptions {
            debug_info: printing.0,
            generic: printing.1,
            nameloc_as_prefix: printing.2,
            elide_elements_larger_than: None,
            local_scope: false,
        },
        ..Options::default()
    };
    // On a worker thread, as pld.run runs: Ctrl-C raises KeyboardInterrupt
    // and stops a long pass (pld-explore-protocol), which it could not
    // while the calling thread sat in the pipeline.
    let source = source.to_vec();
    let job = move |_: &Asker<(), ()>| guarded(|| opt_bytes(&source, &name, &options));
    let (output, said) = converse(py, (None, never()), job, |_, ()| Ok(()), |_, _, _| {})?;
    let warnings = PyList::empty(py);
    for (text, diagnostic) in said {
        warnings.append((text, diagnostic_to_python(py, &diagnostic)?))?;
    }
    Ok((PyBytes::new(py, &output), warnings))
}

/// The output, and each warning or remark as printed and as a diagnostic.
type Optimized = (Vec<u8>, Vec<(String, Diagnostic)>);

fn opt_bytes(source: &[u8], name: &str, options: &Options) -> Result<Optimized, Failure> {
    let processed = process_source(source, name, options).map_err(Failure::plain)?;
    let text = String::from_utf8_lossy(source);
    let shown = (!pld_ir::parse::is_bytecode(source)).then_some(text.as_ref());
    if processed.held() {
        if let Some(output) = processed.output {
            let said = processed
                .diagnostics
                .iter()
                .map(|d| {
                    let rendered = d.render_in(name, shown);
                    (
                        rendered.trim_end().to_string(),
                        Diagnostic::captured(d, name),
                    )
                })
                .collect();
            return Ok((output, said));
        }
    }
    // MLIR's advice names pld-opt's flag; Python's word for it is the
    // keyword.
    let diagnostics: Vec<_> = processed
        .diagnostics
        .into_iter()
        .map(|d| d.with_flag_advice(PYTHON_ADVICE))
        .collect();
    Err(Failure::captured(
        &format!("pld-opt failed on {name}"),
        &diagnostics,
        name,
        shown,
    ))
}

/// `source` as MLIR text, as pld-run and pld-translate read their input:
/// bytecode read by MLIR and printed back with its locations.
#[pyfunction]
pub fn source_text(py: Python<'_>, source: Vec<u8>, name: String) -> PyResult<String> {
    // Bytecode MLIR cannot read fails with its rendered diagnostics.
    let read = move || {
        pld_tools::files::as_text(&name, &source)
            .map_err(|shown| Failure::message(shown.trim_end().to_string()))
    };
    py.detach(move || guarded(read))
        .map_err(|f| f.into_pyerr(py))
}

/// `pld-translate --emit=pto` of `source`: the PTOAS text.
#[pyfunction]
pub fn translate_pto(py: Python<'_>, source: String, name: String) -> PyResult<String> {
    py.detach(move || {
        guarded(|| {
            let (output, diagnostics) = pto_source(&source, &name);
            let failed = diagnostics
                .iter()
                .any(|d| d.severity == pld_ir::diag::Severity::Error);
            match output {
                Some(text) if !failed => Ok(text),
                _ => Err(Failure::captured(
                    &format!("pld-translate failed on {name}"),
                    &diagnostics,
                    &name,
                    Some(&source),
                )),
            }
        })
    })
    .map_err(|f| f.into_pyerr(py))
}

/// `pld-translate --emit=kernels -o directory` of `source`.
#[pyfunction]
pub fn translate_kernels(
    py: Python<'_>,
    source: String,
    name: String,
    directory: std::path::PathBuf,
) -> PyResult<()> {
    py.detach(move || {
        guarded(|| match kernels_source(&source, &name, &directory) {
            Ok(_) => Ok(()),
            Err(KernelsFailed::Diagnostics(diagnostics)) => Err(Failure::captured(
                &format!("pld-translate failed on {name}"),
                &diagnostics,
                &name,
                Some(&source),
            )),
            Err(KernelsFailed::Write(message)) => Err(Failure::plain(message)),
        })
    })
    .map_err(|f| f.into_pyerr(py))
}
