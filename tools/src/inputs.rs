//! How `pld-run` fills a kernel's parameters or a program's buffers: the
//! generators of `--input PARAM=GENERATOR`.

use crate::options::Refusal;
use pld_sim::program::{npy, parallel, Param};

/// How a parameter is filled.
#[derive(Clone, Debug, PartialEq)]
pub enum Generator {
    Zeros,
    Ones,
    /// A value that depends on rank and index (exact in f16).
    Ramp,
    /// The rank number everywhere.
    Rank,
    /// A `.npy` file per rank; `{rank}` in the path is replaced.
    File(String),
}

/// `generators` (one per parameter, the defaults) with the `--input
/// PARAM=GENERATOR` pairs applied: `resolve` finds the parameter a name
/// means (several names may mean one), `describe` names it. `what` is the
/// option's placeholder, `PARAM` or `BUFFER`. Two pairs for one parameter
/// are a malformed command line.
pub(crate) fn assign(
    pairs: &[String],
    mut generators: Vec<Generator>,
    what: &str,
    resolve: impl Fn(&str) -> Result<usize, String>,
    describe: impl Fn(usize) -> String,
) -> Result<Vec<Generator>, Refusal> {
    let mut given: Vec<Option<&str>> = vec![None; generators.len()];
    for pair in pairs {
        let (name, value) = pair.split_once('=').ok_or_else(|| {
            Refusal::Usage(format!("--input takes {what}=GENERATOR, not '{pair}'"))
        })?;
        let index = resolve(name)?;
        if let Some(first) = given[index].replace(pair) {
            return Err(Refusal::Usage(format!(
                "--input fills {} twice, with '{first}' and with '{pair}'; keep one of them",
                describe(index)
            )));
        }
        generators[index] = generator(value);
    }
    Ok(generators)
}

pub fn generator(text: &str) -> Generator {
    match text {
        "zeros" => Generator::Zeros,
        "ones" => Generator::Ones,
        "ramp" => Generator::Ramp,
        "rank" => Generator::Rank,
        path => Generator::File(path.to_string()),
    }
}

/// The ramp input: halves of small integers, distinct per rank and index,
/// and shifted per buffer by `salt`, so that two buffers of one shape start
/// different (a copy that lands in the wrong buffer, or is skipped, shows).
pub fn ramp(rank: usize, i: usize, salt: usize) -> f64 {
    ((i * 7 + rank * 13 + salt * 3) % 11) as f64 - 5.0 + rank as f64 * 0.5
}

/// The ramp repeats after this many elements (its index term is
/// `i * 7 % 11`, and 7 and 11 are coprime).
const RAMP_PERIOD: usize = 11;

/// A buffer's ramp shift, from its name.
fn salt(name: &str) -> usize {
    name.bytes().map(usize::from).sum::<usize>() % 11
}

/// A parameter's bytes on `rank`. The computed generators encode one
/// period of their values and copy it over the buffer (memory speed; the
/// values are those of the generator's definition, element by element).
/// `at` (`file:line:col: ` of the kernel or orchestrator, or nothing)
/// starts the message of an allocation that fails.
pub fn fill(
    generator: &Generator,
    param: &Param,
    rank: usize,
    at: &str,
) -> Result<Vec<u8>, String> {
    let out_of_memory = |_| {
        format!(
            "{at}cannot allocate the {} of {} on rank {rank}",
            crate::report::bytes(param.bytes()),
            param.name
        )
    };
    Ok(match generator {
        Generator::Zeros => {
            let mut zeros = Vec::new();
            pld_sim::runtime::oom::fallible(|| zeros.try_reserve_exact(param.bytes()))
                .map_err(out_of_memory)?;
            zeros.resize(param.bytes(), 0);
            zeros
        }
        Generator::Ones => repeated(param, &[1.0]).map_err(out_of_memory)?,
        Generator::Ramp => {
            let salt = salt(&param.name);
            let period: Vec<f64> = (0..RAMP_PERIOD).map(|i| ramp(rank, i, salt)).collect();
            repeated(param, &period).map_err(out_of_memory)?
        }
        Generator::Rank => repeated(param, &[rank as f64]).map_err(out_of_memory)?,
        Generator::File(pattern) => {
            let path = pattern.replace("{rank}", &rank.to_string());
            // Which input it is, for a pattern given to several.
            let whose = format!("for '{}' on rank {rank}", param.name);
            let bytes = read_npy_file(&path, param.bytes()).map_err(|e| {
                format!(
                    "cannot read '{path}' ({whose}): {e} (a generator is zeros, ones, rank, ramp \
                     or the path of a .npy file per rank, with {{rank}} for the rank)"
                )
            })?;
            npy::decode(&bytes, param.dtype, &param.shape)
                .map_err(|e| format!("'{path}' ({whose}) {e}"))?
        }
    })
}

/// The most header bytes a `.npy` file of pld's may have before its data
/// (numpy writes 64 to 128).
const NPY_HEADER_BYTES: usize = 1 << 16;

/// The bytes of the `.npy` file at `path` for a parameter of `data`
/// bytes: no more than its header and data can take, so that a device
/// (`/dev/zero`) or a wrong, huge file is refused instead of read
/// without end.
fn read_npy_file(path: &str, data: usize) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let limit = data.saturating_add(NPY_HEADER_BYTES);
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let mut bytes = Vec::new();
    pld_sim::runtime::oom::fallible(|| {
        file.take((limit as u64).saturating_add(1))
            .read_to_end(&mut bytes)
    })
    .map_err(|e| e.to_string())?;
    if bytes.len() > limit {
        return Err(format!(
            "it holds more than the {limit} bytes a .npy file of the parameter's {data} bytes \
             can take"
        ));
    }
    Ok(bytes)
}

/// `period` encoded in the parameter's dtype and repeated over its
/// elements (the last repetition cut short): element `i` is
/// `period[i % period.len()]`. The buffer doubles by copying what it holds,
/// a whole number of periods each time.
fn repeated(param: &Param, period: &[f64]) -> Result<Vec<u8>, std::collections::TryReserveError> {
    let total = param.bytes();
    let mut bytes = param.dtype.encode_all(period.iter().copied());
    bytes.truncate(total);
    pld_sim::runtime::oom::fallible(|| bytes.try_reserve_exact(total - bytes.len()))?;
    while !bytes.is_empty() && bytes.len() < total {
        let more = bytes.len().min(total - bytes.len());
        bytes.extend_from_within(..more);
    }
    Ok(bytes)
}

/// Refuses, before anything is allocated, a run whose buffers need more
/// memory than the process can have: `need` bytes, `what` says for what.
pub(crate) fn check_memory(need: usize, what: impl FnOnce() -> String) -> Result<(), String> {
    pld_sim::program::memory::check(need, what)
}

/// Every parameter filled on every rank, `[rank][param]`, the ranks (and
/// parameters) in parallel; the first error in that order.
pub fn fill_all(
    params: &[(Param, Generator)],
    ranks: usize,
    at: &str,
) -> Result<Vec<Vec<Vec<u8>>>, String> {
    fill_ranks(params, ranks, &|_, _| true, at)
}

/// [`fill_all`] for the ranks and parameters `wanted(rank, param)` names;
/// the others' buffers are left empty (under MPI, the ranks of other
/// processes; in a program, the devices outside a buffer's comm domain).
pub fn fill_ranks(
    params: &[(Param, Generator)],
    ranks: usize,
    wanted: &(dyn Fn(usize, usize) -> bool + Sync),
    at: &str,
) -> Result<Vec<Vec<Vec<u8>>>, String> {
    let per_rank: usize = params.iter().map(|(p, _)| p.bytes()).sum();
    let columns = params.len().max(1);
    let mut cells = parallel::map(ranks * params.len(), ranks * per_rank, |k| {
        let (param, generator) = &params[k % columns];
        match wanted(k / columns, k % columns) {
            true => fill(generator, param, k / columns, at),
            false => Ok(Vec::new()),
        }
    })
    .into_iter();
    (0..ranks)
        .map(|_| cells.by_ref().take(params.len()).collect())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use pld_sim::program::Dtype;

    fn param(name: &str, dtype: Dtype, elements: usize) -> Param {
        Param {
            name: name.into(),
            distributed: true,
            shape: vec![elements],
            dtype,
        }
    }

    /// Every computed generator gives, element by element, the values of
    /// its definition, encoded one at a time.
    #[test]
    fn fills_hold_the_generators_values() {
        for dtype in [Dtype::F16, Dtype::F32, Dtype::I32, Dtype::I8] {
            for elements in [0, 1, 10, 11, 12, 22, 23, 100, 1000, 4099] {
                let p = param("data", dtype, elements);
                for rank in [0, 1, 5] {
                    let one_by_one = |f: &dyn Fn(usize) -> f64| {
                        let mut bytes = Vec::new();
                        for i in 0..elements {
                            bytes.extend(dtype.encode(f(i)));
                        }
                        bytes
                    };
                    let salt = salt("data");
                    let cases = [
                        (Generator::Ramp, one_by_one(&|i| ramp(rank, i, salt))),
                        (Generator::Ones, one_by_one(&|_| 1.0)),
                        (Generator::Rank, one_by_one(&|_| rank as f64)),
                        (Generator::Zeros, one_by_one(&|_| 0.0)),
                    ];
                    for (generator, expected) in cases {
                        let filled = fill(&generator, &p, rank, "").unwrap();
                        assert_eq!(filled, expected, "{generator:?} {dtype:?} x {elements}");
                    }
                }
            }
        }
    }

    #[test]
    fn the_ramp_has_its_period() {
        for (rank, salt) in [(0, 0), (3, 7), (9, 10)] {
            for i in 0..50 {
                assert_eq!(ramp(rank, i, salt), ramp(rank, i + RAMP_PERIOD, salt));
            }
        }
        // Halves of small integers, distinct along one period.
        let values: Vec<f64> = (0..RAMP_PERIOD).map(|i| ramp(1, i, 0)).collect();
        assert_eq!(values[..3], [-2.5, 4.5, 0.5]);
    }

    #[test]
    fn all_ranks_in_rank_order() {
        let params = [
            (param("a", Dtype::F32, 5), Generator::Rank),
            (param("b", Dtype::I8, 3), Generator::Ones),
        ];
        let filled = fill_all(&params, 3, "").unwrap();
        assert_eq!(filled.len(), 3);
        assert_eq!(filled[2][0], Dtype::F32.encode_all([2.0; 5]));
        assert_eq!(filled[1][1], [1, 1, 1]);
        let missing = [(
            param("c", Dtype::F32, 2),
            Generator::File("/nonexistent/{rank}".into()),
        )];
        let error = fill_all(&missing, 2, "").unwrap_err();
        assert!(error.contains("cannot read '/nonexistent/0'"), "{error}");
    }
}
