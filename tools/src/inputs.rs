//! How `pld-run` fills a kernel's parameters or a program's buffers: the
//! generators of `--input PARAM=GENERATOR`.

use crate::options::Refusal;
use pld_sim::program::npy;
use pld_sim::program::Param;

/// How a parameter is filled.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Generator {
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
        let (name, value) = pair
            .split_once('=')
            .ok_or_else(|| format!("--input takes {what}=GENERATOR, not '{pair}'"))?;
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

pub(crate) fn generator(text: &str) -> Generator {
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

/// A buffer's ramp shift, from its name.
fn salt(name: &str) -> usize {
    name.bytes().map(usize::from).sum::<usize>() % 11
}

pub(crate) fn fill(generator: &Generator, param: &Param, rank: usize) -> Result<Vec<u8>, String> {
    let values = |f: &dyn Fn(usize) -> f64| -> Vec<u8> {
        param.dtype.encode_all((0..param.elements()).map(f))
    };
    Ok(match generator {
        Generator::Zeros => vec![0; param.bytes()],
        Generator::Ones => values(&|_| 1.0),
        Generator::Ramp => values(&|i| ramp(rank, i, salt(&param.name))),
        Generator::Rank => values(&|_| rank as f64),
        Generator::File(pattern) => {
            let path = pattern.replace("{rank}", &rank.to_string());
            let bytes = std::fs::read(&path).map_err(|e| {
                format!(
                    "cannot read '{path}': {e} (a generator is zeros, ones, rank, ramp or the \
                     path of a .npy file per rank, with {{rank}} for the rank)"
                )
            })?;
            npy::decode(&bytes, param.dtype, &param.shape).map_err(|e| format!("'{path}' {e}"))?
        }
    })
}
