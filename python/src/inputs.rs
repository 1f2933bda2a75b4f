//! The buffers a run fills, as the caller sees them ([`Described`]), and
//! how the caller fills each ([`Fill`]): numpy arrays (read with the GIL
//! held, checked by `pld/_inputs.py`), or `pld-run`'s generators, whose
//! defaults are `pld-run`'s (the signals zero, everything else a ramp).

use crate::report::Kind;
use pld_sim::program::{Dtype, Param};
use pld_tools::inputs::{fill, Generator};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

/// A kernel parameter or a program's window buffer.
#[derive(Clone, Debug)]
pub struct Slot {
    /// The name the generators are salted with (the parameter's SSA name,
    /// or the buffer's).
    pub name: String,
    /// The name of its outputs (a buffer's comm domain added when two
    /// domains have a buffer of its name).
    pub key: String,
    /// Every name `inputs` may give it.
    pub aliases: Vec<String>,
    /// How `pld-run` lists it among the valid names (`%data (arg0)`).
    pub shown: String,
    pub shape: Vec<usize>,
    pub dtype: Dtype,
    /// A collective's signal: zero unless the caller says otherwise.
    pub signal: bool,
    /// The devices that hold it (a program's buffer: its comm domain's,
    /// `Buffer::held_on`); `None` for every rank (a kernel's parameter).
    pub devices: Option<Vec<usize>>,
}

impl Slot {
    /// Whether `rank` holds the slot (and so gets its input).
    pub fn held_on(&self, rank: usize) -> bool {
        self.devices.as_ref().is_none_or(|d| d.contains(&rank))
    }

    pub fn param(&self) -> Param {
        Param {
            name: self.name.clone(),
            distributed: true,
            shape: self.shape.clone(),
            dtype: self.dtype,
        }
    }
}

/// What a run asks its caller once the source is loaded.
#[derive(Clone, Debug)]
pub struct Described {
    pub kind: Kind,
    pub name: String,
    pub slots: Vec<Slot>,
    /// Names that are no slot, with why (a program's window buffer that
    /// it allocates but no task takes), as pld-run says it.
    pub refusals: Vec<(String, String)>,
    /// The ranks (a program's devices) the run has: per-rank inputs give
    /// one array each.
    pub ranks: usize,
}

/// How one slot is filled.
pub enum Fill {
    /// As `pld-run` fills it: zeros for a signal, the ramp otherwise.
    Default,
    Generate(Generator),
    /// The same bytes on every rank.
    Same(Vec<u8>),
    /// The bytes of each rank.
    PerRank(Vec<Vec<u8>>),
}

impl Fill {
    /// The slot's bytes on `rank`.
    pub fn bytes(&self, slot: &Slot, rank: usize) -> Result<Vec<u8>, String> {
        match self {
            Fill::Default if slot.signal => fill(&Generator::Zeros, &slot.param(), rank, ""),
            Fill::Default => fill(&Generator::Ramp, &slot.param(), rank, ""),
            Fill::Generate(generator) => fill(generator, &slot.param(), rank, ""),
            Fill::Same(bytes) => Ok(bytes.clone()),
            Fill::PerRank(ranks) => ranks
                .get(rank)
                .cloned()
                .ok_or_else(|| format!("no input of '{}' for rank {rank}", slot.key)),
        }
    }
}

/// The generator a name means (as `pld-run --input P=NAME`).
fn generator(name: &str) -> Option<Generator> {
    Some(match name {
        "zeros" => Generator::Zeros,
        "ones" => Generator::Ones,
        "ramp" => Generator::Ramp,
        "rank" => Generator::Rank,
        _ => return None,
    })
}

/// The caller's fills for `described`: `inputs` (a mapping from names to
/// arrays, per-rank arrays or generator names) checked and normalised by
/// `pld._inputs.normalize` into one entry per slot (`None`, a generator
/// name, a flat `uint8` array of the slot's bytes, or a list of them, one
/// per rank), whose bytes are copied here.
pub fn answer(
    py: Python<'_>,
    described: &Described,
    inputs: &Bound<'_, PyAny>,
) -> PyResult<Vec<Fill>> {
    let normalize = py.import("pld._inputs")?.getattr("normalize")?;
    let entries = normalize.call1((describe(py, described)?, inputs, described.ranks))?;
    let mut fills = Vec::new();
    for entry in entries.try_iter()? {
        let entry = entry?;
        fills.push(if entry.is_none() {
            Fill::Default
        } else if let Ok(name) = entry.extract::<String>() {
            let generator = generator(&name).ok_or_else(|| {
                pyo3::exceptions::PyValueError::new_err(format!("no generator '{name}'"))
            })?;
            Fill::Generate(generator)
        } else if let Ok(list) = entry.cast::<PyList>() {
            let mut per_rank = Vec::new();
            for array in list.iter() {
                // None: a device that does not hold the buffer.
                per_rank.push(match array.is_none() {
                    true => Vec::new(),
                    false => bytes_of(&array)?,
                });
            }
            Fill::PerRank(per_rank)
        } else {
            Fill::Same(bytes_of(&entry)?)
        });
    }
    Ok(fills)
}

/// The bytes of a flat, contiguous `uint8` array.
fn bytes_of(array: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    let array: numpy::PyReadonlyArray1<'_, u8> = array.extract()?;
    Ok(array.as_slice()?.to_vec())
}

/// `described` as the dictionary `pld._inputs.normalize` reads.
pub fn describe<'py>(py: Python<'py>, described: &Described) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("kind", described.kind.name())?;
    d.set_item("name", &described.name)?;
    let slots = PyList::empty(py);
    for slot in &described.slots {
        let s = PyDict::new(py);
        s.set_item("name", &slot.name)?;
        s.set_item("key", &slot.key)?;
        s.set_item("aliases", &slot.aliases)?;
        s.set_item("shown", &slot.shown)?;
        s.set_item("shape", &slot.shape)?;
        s.set_item("devices", &slot.devices)?;
        s.set_item("dtype", slot.dtype.name())?;
        s.set_item("signal", slot.signal)?;
        slots.append(s)?;
    }
    d.set_item("slots", slots)?;
    let refusals = PyDict::new(py);
    for (name, why) in &described.refusals {
        refusals.set_item(name, why)?;
    }
    d.set_item("refusals", refusals)?;
    Ok(d)
}
