//! Runs whose ranks (kernel mode) or devices (program mode) are MPI
//! processes (`pld-run --transport mpi|mpi-rma`): each process fills,
//! runs and checks its own rank. What the others need crosses between the
//! processes here, by `MPI_Allgatherv` ([`crate::runtime::mpi::allgather`]):
//! every rank's operands before a collective (each golden is a function of
//! all of them), then each process's verdicts, so that process 0 reports
//! the run as a thread run does. With threads (every rank in this
//! process) nothing moves.

use crate::program::golden::{RankCheck, Value, WrongElement};
use crate::program::model::Dtype;
use crate::runtime::board::{Reader, Writer};
use std::sync::Arc;

/// Whether this process reports the run: every process with threads,
/// process 0 under MPI (it reads every window; the others' verdicts reach
/// it here).
pub fn reporting() -> bool {
    crate::runtime::mpi::initialised().is_none_or(|world| world.rank == 0)
}

/// Whether the ranks are MPI processes.
pub fn under_mpi() -> bool {
    crate::runtime::mpi::initialised().is_some()
}

/// Every process's `mine` (a list of byte strings), in rank order
/// (collective under MPI; with threads, `mine` alone).
pub fn gather_rows(mine: &[Vec<u8>]) -> Result<Vec<Vec<Vec<u8>>>, String> {
    if !under_mpi() {
        return Ok(vec![mine.to_vec()]);
    }
    let mut w = Writer(Vec::new());
    w.u64(mine.len() as u64);
    mine.iter().for_each(|row| w.bytes(row));
    let all = crate::runtime::mpi::allgather(&w.0)?;
    all.iter()
        .map(|bytes| {
            let mut r = Reader(bytes);
            let n = r.u64()?;
            (0..n).map(|_| r.bytes()).collect::<Option<Vec<_>>>()
        })
        .map(|rows| rows.ok_or_else(|| "a process's buffers are malformed".to_string()))
        .collect()
}

/// Every process's verdicts, in rank order (each process checked its own
/// rank); collective under MPI, `mine` as it is with threads.
pub fn gather_checks(mine: Vec<RankCheck>) -> Result<Vec<RankCheck>, String> {
    if !under_mpi() {
        return Ok(mine);
    }
    let mut w = Writer(Vec::new());
    w.u64(mine.len() as u64);
    mine.iter().for_each(|c| encode_check(&mut w, c));
    let mut all = Vec::new();
    for bytes in crate::runtime::mpi::allgather(&w.0)? {
        let mut r = Reader(&bytes);
        let malformed = || "a process's verdicts are malformed".to_string();
        for _ in 0..r.u64().ok_or_else(malformed)? {
            all.push(decode_check(&mut r).ok_or_else(malformed)?);
        }
    }
    all.sort_by_key(|c| c.rank);
    Ok(all)
}

fn encode_check(w: &mut Writer, c: &RankCheck) {
    w.u64(c.rank as u64);
    w.f64(c.worst);
    w.u64(c.at as u64);
    w.u64(u64::from(c.ok));
    w.u64(c.wrong as u64);
    w.u64(c.first_wrong.len() as u64);
    for e in &c.first_wrong {
        w.u64(e.index as u64);
        w.u64(dtype_code(e.expected.dtype));
        w.u64(u64::from(e.expected.bits));
        w.u64(u64::from(e.got.bits));
        w.u64(u64::from(e.tolerance.is_some()));
        w.f64(e.tolerance.unwrap_or(0.0));
    }
    w.bytes(&c.expected);
}

fn decode_check(r: &mut Reader<'_>) -> Option<RankCheck> {
    let (rank, worst, at) = (r.u64()? as usize, r.f64()?, r.u64()? as usize);
    let (ok, wrong) = (r.u64()? != 0, r.u64()? as usize);
    let mut first_wrong = Vec::new();
    for _ in 0..r.u64()? {
        let index = r.u64()? as usize;
        let dtype = dtype_of(r.u64()?)?;
        let value = |bits: u64| Value {
            dtype,
            bits: bits as u32,
        };
        let (expected, got) = (value(r.u64()?), value(r.u64()?));
        let (bounded, tolerance) = (r.u64()? != 0, r.f64()?);
        first_wrong.push(WrongElement {
            index,
            expected,
            got,
            tolerance: bounded.then_some(tolerance),
        });
    }
    Some(RankCheck {
        rank,
        worst,
        at,
        ok,
        wrong,
        first_wrong,
        expected: Arc::new(r.bytes()?),
    })
}

fn dtype_code(dtype: Dtype) -> u64 {
    match dtype {
        Dtype::F16 => 0,
        Dtype::F32 => 1,
        Dtype::I32 => 2,
        Dtype::I8 => 3,
    }
}

fn dtype_of(code: u64) -> Option<Dtype> {
    [Dtype::F16, Dtype::F32, Dtype::I32, Dtype::I8]
        .get(usize::try_from(code).ok()?)
        .copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_verdict_survives_the_wire() {
        let value = |bits| Value {
            dtype: Dtype::F16,
            bits,
        };
        let check = RankCheck {
            rank: 3,
            worst: 0.5,
            at: 7,
            ok: false,
            wrong: 2,
            first_wrong: vec![WrongElement {
                index: 7,
                expected: value(0x3c00),
                got: value(0x4000),
                tolerance: Some(0.25),
            }],
            expected: Arc::new(vec![1, 2, 3]),
        };
        let mut w = Writer(Vec::new());
        encode_check(&mut w, &check);
        assert_eq!(decode_check(&mut Reader(&w.0)), Some(check));
        // Cut short: refused, not misread.
        assert_eq!(decode_check(&mut Reader(&w.0[..w.0.len() - 1])), None);
        for d in [Dtype::F16, Dtype::F32, Dtype::I32, Dtype::I8] {
            assert_eq!(dtype_of(dtype_code(d)), Some(d));
        }
    }

    #[test]
    fn with_threads_nothing_moves() {
        assert!(reporting() && !under_mpi());
        let rows = vec![vec![1u8, 2], vec![]];
        assert_eq!(gather_rows(&rows).unwrap(), vec![rows]);
    }
}
