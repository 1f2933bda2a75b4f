//! What a run found, as plain data the worker thread hands back
//! ([`Report`]), and its conversion to the dictionaries `pld/_results.py`
//! builds its classes from (with the GIL, on the calling thread). Output
//! bytes become numpy arrays without a copy.

use numpy::PyArray1;
use pld_sim::program::golden::RankCheck;
use pld_sim::program::Dtype;
use pld_sim::Counters;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::time::Duration;

/// What runs: one kernel, or a whole program from its HOST orchestrator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Kernel,
    Program,
}

impl Kind {
    /// As `RunResult.kind` spells it.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Kernel => "kernel",
            Kind::Program => "program",
        }
    }
}

/// One buffer of one rank after the run.
pub struct Output {
    pub name: String,
    pub shape: Vec<usize>,
    pub dtype: Dtype,
    pub bytes: Vec<u8>,
}

/// One collective call and its check.
pub struct Call {
    pub kind: String,
    pub location: String,
    /// Where the collective op itself is written (a kernel's collective's
    /// `location` is the kernel call's).
    pub op_location: String,
    /// The kernel it is in (a kernel's collective).
    pub kernel: Option<String>,
    pub dtype: String,
    pub elements: usize,
    /// The shape of its result (for the indices of the check).
    pub shape: Vec<usize>,
    pub reduce: Option<String>,
    pub root: Option<i64>,
    /// The ranks of its comm domain.
    pub ranks: usize,
    /// Its time on the slowest rank (a kernel's own time for one kernel).
    pub time: Duration,
    /// The check per rank, or why there is none.
    pub checks: Result<Vec<RankCheck>, String>,
    /// A check was asked for and this call cannot be compared (`checks`
    /// says why): a finding, as `pld-run --check` fails on it.
    pub uncheckable: bool,
    /// The device of each rank of its comm domain.
    pub devices: Vec<usize>,
    /// An allreduce's schedule (`ring`), `None` for other collectives.
    pub mode: Option<String>,
    /// Whether it was written `mode = "auto"` (which chose the schedule, or
    /// kept the default).
    pub auto: bool,
}

/// A rank stuck at the deadlock, and the cell it waits on.
pub struct Blocked {
    pub rank: usize,
    pub block: Option<(i32, i32)>,
    pub kernel: String,
    /// The buffer (or parameter) holding the cell, and the cell's index.
    pub cell: Option<(String, Vec<usize>)>,
    pub cmp: String,
    pub expected: i32,
    pub actual: i32,
    /// The op whose wait it is, and its location.
    pub site: Option<(String, String)>,
}

impl Blocked {
    /// `b`, its cell named as the source names it.
    pub fn of(b: &pld_sim::BlockedRank, cell: Option<(String, Vec<usize>)>) -> Self {
        Blocked {
            rank: b.rank,
            block: b.block,
            kernel: b.kernel.clone(),
            cell,
            cmp: b.cmp.to_string(),
            expected: b.expected,
            actual: b.actual,
            site: b.site.as_ref().map(|s| (s.op.clone(), s.location.clone())),
        }
    }
}

/// The report of a deadlock: `pld-run`'s text, and who waits where.
pub struct Deadlock {
    pub message: String,
    pub blocked: Vec<Blocked>,
    pub finished: Vec<usize>,
}

/// A credit left in a signal cell.
pub struct Leak {
    pub buffer: String,
    pub index: Vec<usize>,
    pub rank: usize,
    pub value: i32,
    pub message: String,
}

/// Everything a run found.
pub struct Report {
    pub kind: Kind,
    /// The kernel or HOST orchestrator.
    pub name: String,
    pub ranks: usize,
    /// Per rank.
    pub outputs: Vec<Vec<Output>>,
    pub calls: Vec<Call>,
    pub deadlock: Option<Deadlock>,
    pub leaks: Vec<Leak>,
    pub errors: Vec<String>,
    /// Per rank.
    pub counters: Vec<Counters>,
    /// L3 -> L2 round trips per device (a program).
    pub round_trips: Option<Vec<u64>>,
    /// Phase times, in order.
    pub times: Vec<(&'static str, Duration)>,
}

/// A run's device errors and fatal errors, as `pld-run` prints them.
pub fn errors(outcome: &pld_sim::Outcome) -> Vec<String> {
    let fatals = outcome.fatals.iter().map(ToString::to_string);
    outcome.errors.iter().cloned().chain(fatals).collect()
}

/// Flat element `i` of a row-major `shape` as its multi-dimensional index.
pub fn unravel(i: usize, shape: &[usize]) -> Vec<usize> {
    let mut rest = i;
    let mut index = vec![0; shape.len()];
    for (slot, extent) in index.iter_mut().zip(shape).rev() {
        let extent = (*extent).max(1);
        *slot = rest % extent;
        rest /= extent;
    }
    index
}

impl Report {
    /// The dictionary `pld._results.RunResult` is built from.
    pub fn into_python(self, py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("kind", self.kind.name())?;
        d.set_item("name", &self.name)?;
        d.set_item("ranks", self.ranks)?;
        let outputs = PyList::empty(py);
        for rank in self.outputs {
            let row = PyList::empty(py);
            for output in rank {
                row.append((
                    output.name,
                    output.shape,
                    output.dtype.name(),
                    PyArray1::from_vec(py, output.bytes),
                ))?;
            }
            outputs.append(row)?;
        }
        d.set_item("outputs", outputs)?;
        let calls = PyList::empty(py);
        for call in &self.calls {
            calls.append(call_dict(py, call)?)?;
        }
        d.set_item("calls", calls)?;
        d.set_item(
            "deadlock",
            self.deadlock
                .as_ref()
                .map(|x| deadlock_dict(py, x))
                .transpose()?,
        )?;
        let leaks: Vec<_> = self
            .leaks
            .iter()
            .map(|l| (&l.buffer, &l.index, l.rank, l.value, &l.message))
            .collect();
        d.set_item("leaks", leaks)?;
        d.set_item("errors", &self.errors)?;
        // Each error's rank and op location, where it names them.
        let places: Vec<_> = self
            .errors
            .iter()
            .map(|e| pld_sim::error_place(e))
            .collect();
        d.set_item("error_places", places)?;
        let counters: Vec<_> = self
            .counters
            .iter()
            .map(|c| {
                (
                    c.notifies,
                    c.waits,
                    c.remote_bytes_read,
                    c.remote_bytes_written,
                )
            })
            .collect();
        d.set_item("counters", counters)?;
        d.set_item("round_trips", &self.round_trips)?;
        let times: Vec<_> = self
            .times
            .iter()
            .map(|(name, time)| (*name, time.as_secs_f64()))
            .collect();
        d.set_item("times", times)?;
        Ok(d)
    }
}

fn call_dict<'py>(py: Python<'py>, call: &Call) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("kind", &call.kind)?;
    d.set_item("location", &call.location)?;
    d.set_item("kernel", &call.kernel)?;
    d.set_item("dtype", &call.dtype)?;
    d.set_item("elements", call.elements)?;
    d.set_item("shape", &call.shape)?;
    d.set_item("reduce", &call.reduce)?;
    d.set_item("root", call.root)?;
    d.set_item("ranks", call.ranks)?;
    d.set_item("time", call.time.as_secs_f64())?;
    d.set_item("uncheckable", call.uncheckable)?;
    d.set_item("devices", &call.devices)?;
    d.set_item("mode", &call.mode)?;
    d.set_item("op_location", &call.op_location)?;
    d.set_item("auto", call.auto)?;
    match &call.checks {
        Ok(checks) => {
            let list = PyList::empty(py);
            for check in checks {
                list.append(check_dict(py, check, &call.shape)?)?;
            }
            d.set_item("checks", list)?;
            d.set_item("unchecked", py.None())?;
        }
        Err(why) => {
            d.set_item("checks", py.None())?;
            d.set_item("unchecked", why)?;
        }
    }
    Ok(d)
}

fn check_dict<'py>(
    py: Python<'py>,
    check: &RankCheck,
    shape: &[usize],
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("rank", check.rank)?;
    d.set_item("ok", check.ok)?;
    d.set_item("worst", check.worst)?;
    d.set_item("at", unravel(check.at, shape))?;
    d.set_item("wrong", check.wrong)?;
    let first: Vec<_> = check
        .first_wrong
        .iter()
        .map(|w| {
            (
                unravel(w.index, shape),
                w.expected.widen(),
                w.got.widen(),
                w.tolerance,
                w.expected.to_string(),
                w.got.to_string(),
            )
        })
        .collect();
    d.set_item("first_wrong", first)?;
    Ok(d)
}

fn deadlock_dict<'py>(py: Python<'py>, deadlock: &Deadlock) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("message", &deadlock.message)?;
    d.set_item("finished", &deadlock.finished)?;
    let blocked = PyList::empty(py);
    for b in &deadlock.blocked {
        let item = PyDict::new(py);
        item.set_item("rank", b.rank)?;
        item.set_item("block", b.block)?;
        item.set_item("kernel", &b.kernel)?;
        item.set_item("cell", &b.cell)?;
        item.set_item("cmp", &b.cmp)?;
        item.set_item("expected", b.expected)?;
        item.set_item("actual", b.actual)?;
        item.set_item("site", &b.site)?;
        blocked.append(item)?;
    }
    d.set_item("blocked", blocked)?;
    Ok(d)
}
