//! `pld._pld`, the extension module of the Python package `pld`
//! (docs/embedding.md, "Python"): `pld-opt`, `pld-translate` and `pld-run`
//! as functions, over the same crates and the drivers' own functions.
//! The public API, its checks of the arguments and its result classes are
//! Python (`pld/__init__.py`, `pld/_results.py`, `pld/_inputs.py`); this
//! module moves the bytes and runs the compiler and the simulator:
//!
//! * [`compile`]: `pld.opt`, `pld.translate`, with the GIL released;
//! * [`run`] and [`explore`]: `pld.run`, `pld.explore`, on a worker thread
//!   ([`worker`]) that asks for the inputs ([`inputs`]) once it has loaded
//!   the source, while the calling thread answers Ctrl-C; what they find
//!   comes back as plain data ([`report`]);
//! * [`error`]: failures as `pld.Error` with the MLIR diagnostics.
//!
//! No panic crosses into Python: every call runs under
//! [`error::guarded`] or on a worker that catches it.

mod compile;
mod error;
mod explore;
mod inputs;
mod report;
mod run;
mod worker;

use crate::error::{guarded, Failure};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::time::Duration;

/// A deadline in seconds as a duration (pld-run's rule, which
/// `pld/__init__.py` checks first).
fn seconds(value: f64) -> Result<Duration, Failure> {
    use pld_sim::runtime::duration;
    duration::seconds(value).ok_or_else(|| {
        Failure::plain(format!(
            "deadline takes a positive number of seconds ({}), not {value:?}",
            duration::MOST
        ))
    })
}

/// A time limit in seconds as a duration (`None`: no limit).
fn limit(value: Option<f64>) -> Result<Option<Duration>, Failure> {
    value
        .map(|v| {
            pld_sim::runtime::duration::seconds(v).ok_or_else(|| {
                Failure::plain(format!(
                    "time_limit takes a positive number of seconds (at most about 1.8e19) or \
                     None, not {v:?}"
                ))
            })
        })
        .transpose()
}

/// `pld-run` on `source`: the report as a dictionary.
#[allow(clippy::too_many_arguments)]
#[pyfunction]
#[pyo3(
    name = "run",
    signature = (source, name, ranks, inputs, check, kernel, entry, deadline, time_limit)
)]
fn run_source<'py>(
    py: Python<'py>,
    source: String,
    name: String,
    ranks: Option<usize>,
    inputs: Bound<'py, PyAny>,
    check: bool,
    kernel: Option<String>,
    entry: Option<String>,
    deadline: f64,
    time_limit: Option<f64>,
) -> PyResult<Bound<'py, PyDict>> {
    let time_limit = limit(time_limit).map_err(|f| f.into_pyerr(py))?;
    let request = run::Request {
        source,
        converted: None,
        name,
        ranks: ranks.unwrap_or(2),
        ranks_given: ranks.is_some(),
        kernel: kernel.as_deref().map(pld_ir::print::symbol_name),
        entry: entry.as_deref().map(pld_ir::print::symbol_name),
        check,
        deadline: seconds(deadline).map_err(|f| f.into_pyerr(py))?,
    };
    let report = worker::converse(
        py,
        (time_limit, worker::never()),
        move |asker| guarded(|| run::run(&request, asker)),
        |py, described| inputs::answer(py, &described, &inputs),
        // A stopped run's results are not returned.
        |_, _, _| {},
    )?;
    report.into_python(py)
}

/// `pld-run --explore count --seed first` on `source`: the findings as a
/// dictionary.
#[allow(clippy::too_many_arguments)]
#[pyfunction]
#[pyo3(
    name = "explore",
    signature = (source, name, ranks, inputs, check, kernel, entry, deadline, time_limit, first, count)
)]
fn explore_source<'py>(
    py: Python<'py>,
    source: String,
    name: String,
    ranks: Option<usize>,
    inputs: Bound<'py, PyAny>,
    check: bool,
    kernel: Option<String>,
    entry: Option<String>,
    deadline: f64,
    time_limit: Option<f64>,
    first: u64,
    count: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let time_limit = limit(time_limit).map_err(|f| f.into_pyerr(py))?;
    let exploration = explore::Exploration {
        request: run::Request {
            source,
            converted: None,
            name,
            ranks: ranks.unwrap_or(2),
            ranks_given: ranks.is_some(),
            kernel: kernel.as_deref().map(pld_ir::print::symbol_name),
            entry: entry.as_deref().map(pld_ir::print::symbol_name),
            check,
            deadline: seconds(deadline).map_err(|f| f.into_pyerr(py))?,
        },
        first,
        count,
    };
    // A schedule that cannot end ends the exploration (pld-run ends the
    // process there).
    let progress = explore::Progress::new(exploration.request.deadline);
    let watched = progress.clone();
    let explored = worker::converse(
        py,
        (time_limit, Box::new(move || watched.stalled())),
        move |asker| guarded(|| explore::explore(&exploration, asker, &progress)),
        |py, described| inputs::answer(py, &described, &inputs),
        // The schedules explored before the time limit, on the error.
        |py, partial: explore::Explored, raised| {
            if let Ok(found) = partial.into_python(py) {
                let _ = raised.value(py).setattr("partial", found);
            }
        },
    )?;
    explored.into_python(py)
}

#[pymodule]
fn _pld(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(compile::opt, module)?)?;
    module.add_function(wrap_pyfunction!(compile::source_text, module)?)?;
    module.add_function(wrap_pyfunction!(compile::translate_pto, module)?)?;
    module.add_function(wrap_pyfunction!(compile::translate_kernels, module)?)?;
    module.add_function(wrap_pyfunction!(run_source, module)?)?;
    module.add_function(wrap_pyfunction!(explore_source, module)?)?;
    module.add("MAX_RANKS", pld_sim::MAX_RANKS)?;
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
