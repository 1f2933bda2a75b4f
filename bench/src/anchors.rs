//! The anchors the simulator's throughput is measured against, built and
//! run by the bench itself: OpenMPI's `MPI_Allreduce` (`anchors/
//! mpi_allreduce.c`, through `mpicc` and `mpirun`) and the ideal in-process
//! allreduces (`anchors/ideal_allreduce.c`, P pthreads over P shared
//! buffers, through `cc -O3 -march=native`): a ring with one barrier per
//! step, and a one-shot in which every thread reads all P inputs and writes
//! its own sum, with one barrier; and pld's own schedules written directly
//! in C (`anchors/tiled_allreduce.c`: 16 KiB tiles and the spec's barriers,
//! the ranks on one thread per core), what the schedules cost without the
//! simulator.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use crate::harness::Result;

const MPI_SOURCE: &str = include_str!("../anchors/mpi_allreduce.c");
const IDEAL_SOURCE: &str = include_str!("../anchors/ideal_allreduce.c");
const TILED_SOURCE: &str = include_str!("../anchors/tiled_allreduce.c");
/// What the two in-process anchors share (their buffers, streaming
/// stores, the clock).
const IN_PROCESS_HEADER: &str = include_str!("../anchors/in_process.h");

/// The built anchors.
pub struct Anchors {
    /// `None` (with the reason) when OpenMPI is not installed.
    pub mpi: std::result::Result<PathBuf, String>,
    /// `ideal_allreduce`: the ideal ring and one-shot.
    pub ideal: PathBuf,
    /// `tiled_allreduce`: the ring, mesh and two-shot as the spec has them.
    pub tiled: PathBuf,
}

/// The schedules of the ideal in-process allreduce.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ideal {
    Ring,
    OneShot,
}

impl Ideal {
    fn argument(self) -> &'static str {
        match self {
            Ideal::Ring => "ring",
            Ideal::OneShot => "one_shot",
        }
    }
}

fn build(compiler: &str, args: &[&str], source: &Path, output: &Path) -> Result {
    let result = Command::new(compiler)
        .args(args)
        .arg("-o")
        .arg(output)
        .arg(source)
        .output()
        .map_err(|e| format!("cannot run {compiler}: {e}"))?;
    if !result.status.success() {
        return Err(format!(
            "{compiler} failed on {}: {}",
            source.display(),
            String::from_utf8_lossy(&result.stderr)
        ));
    }
    Ok(())
}

/// Runs `measure` with the release `pld-run` (its path printed), a scratch
/// directory named after `bench` and the anchors built in it; the
/// directory is removed afterwards, whatever `measure` returned.
pub fn with_anchors(bench: &str, measure: impl FnOnce(&Path, &Path, &Anchors) -> Result) -> Result {
    let pld_run = crate::harness::pld_binary("pld-run")?;
    println!("  pld-run: {}", crate::harness::display_path(&pld_run));
    let dir = std::env::temp_dir().join(format!("pld-bench-{bench}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let result = build_all(&dir).and_then(|anchors| measure(&pld_run, &dir, &anchors));
    let _ = std::fs::remove_dir_all(&dir);
    result
}

/// Writes `text` to `dir/name`.
fn write(dir: &Path, name: &str, text: &str) -> Result<PathBuf> {
    let path = dir.join(name);
    std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(path)
}

/// Writes the in-process anchor `name` (`name.c` holds `text`) and the
/// header it includes to `dir` and compiles it with `$CC` (default `cc`).
fn in_process_anchor(dir: &Path, name: &str, text: &str) -> Result<PathBuf> {
    write(dir, "in_process.h", IN_PROCESS_HEADER)?;
    let source = write(dir, &format!("{name}.c"), text)?;
    let binary = dir.join(name);
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    build(&cc, &["-O3", "-march=native", "-pthread"], &source, &binary)?;
    Ok(binary)
}

/// Writes and compiles the anchors in `dir`.
pub fn build_all(dir: &Path) -> Result<Anchors> {
    let ideal = in_process_anchor(dir, "ideal_allreduce", IDEAL_SOURCE)?;
    let tiled = in_process_anchor(dir, "tiled_allreduce", TILED_SOURCE)?;
    let mpi_source = write(dir, "mpi_allreduce.c", MPI_SOURCE)?;
    let mpi = dir.join("mpi_allreduce");
    let mpi = build("mpicc", &["-O3"], &mpi_source, &mpi)
        .map(|()| mpi)
        .map_err(|e| format!("{e} (`make bench` installs OpenMPI)"));
    Ok(Anchors { mpi, ideal, tiled })
}

/// The `best <seconds>` line an anchor prints.
fn best(output: std::process::Output, what: &str) -> Result<Duration> {
    let stdout = String::from_utf8_lossy(&output.stdout);
    if !output.status.success() {
        return Err(format!(
            "{what} failed ({}): {stdout}{}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    stdout
        .lines()
        .find_map(|l| l.strip_prefix("best "))
        .and_then(|s| s.trim().parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s > 0.0)
        .map(Duration::from_secs_f64)
        .ok_or_else(|| format!("{what} printed no time: {stdout}"))
}

/// OpenMPI's best allreduce of `elements` floats on `ranks` processes.
pub fn mpi(binary: &Path, ranks: usize, elements: usize, runs: usize) -> Result<Duration> {
    let output = Command::new("mpirun")
        .args(["--oversubscribe", "-np", &ranks.to_string()])
        .arg(binary)
        .args([elements.to_string(), runs.to_string()])
        // A container's root user may run it.
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .output()
        .map_err(|e| format!("cannot run mpirun: {e}"))?;
    best(output, &format!("mpirun -np {ranks}"))
}

/// The ideal in-process `schedule`'s best allreduce of `elements` floats
/// on `ranks` threads.
pub fn ideal(
    binary: &Path,
    schedule: Ideal,
    ranks: usize,
    elements: usize,
    runs: usize,
) -> Result<Duration> {
    let what = format!("the ideal {}", schedule.argument());
    in_process(binary, &what, (ranks, elements, runs), schedule.argument())
}

/// The best allreduce of `elements` floats on `ranks` ranks of pld's
/// schedule `mode` (as `mode = "..."` spells it) written in C.
pub fn tiled(
    binary: &Path,
    mode: &str,
    ranks: usize,
    elements: usize,
    runs: usize,
) -> Result<Duration> {
    let what = format!("the tiled {mode}");
    in_process(binary, &what, (ranks, elements, runs), mode)
}

/// An in-process anchor's best time: `binary P N RUNS schedule`.
fn in_process(
    binary: &Path,
    what: &str,
    (ranks, elements, runs): (usize, usize, usize),
    schedule: &str,
) -> Result<Duration> {
    let output = Command::new(binary)
        .args([ranks.to_string(), elements.to_string(), runs.to_string()])
        .arg(schedule)
        .output()
        .map_err(|e| format!("cannot run {what}: {e}"))?;
    best(output, what)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `check` of the tiled anchor built in a scratch directory of its
    /// own (`tag` names it), which is removed afterwards.
    fn with_tiled<T>(tag: &str, check: impl FnOnce(&Path) -> T) -> Result<T> {
        let dir = std::env::temp_dir().join(format!("pld-bench-{tag}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        let result = in_process_anchor(&dir, "tiled_allreduce", TILED_SOURCE).map(|b| check(&b));
        let _ = std::fs::remove_dir_all(&dir);
        result
    }

    /// The tiled schedules check their own results (every element of
    /// every rank against its exact sum): they must hold on odd lengths
    /// and rank counts, one rank, more ranks than cores, and a length
    /// below the rank count.
    #[test]
    fn the_tiled_schedules_compute_the_allreduce() {
        let failures = with_tiled("anchor-test", |binary| {
            let mut failures = Vec::new();
            for mode in ["ring", "mesh", "two_shot"] {
                for ranks in [1, 2, 3, 5, 8] {
                    for elements in [1, 3, 4097, 12_301] {
                        if let Err(e) = tiled(binary, mode, ranks, elements, 1) {
                            failures.push(format!("{mode} P={ranks} N={elements}: {e}"));
                        }
                    }
                }
            }
            failures
        });
        assert_eq!(failures, Ok(Vec::new()));
    }

    #[test]
    fn a_wrong_schedule_name_is_refused() {
        let refused = with_tiled("anchor-name", |b| tiled(b, "star", 2, 16, 1).is_err());
        assert_eq!(refused, Ok(true));
    }
}
