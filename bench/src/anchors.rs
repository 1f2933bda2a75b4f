//! The anchors the simulator's throughput is measured against, built and
//! run by the bench itself: OpenMPI's `MPI_Allreduce` (`anchors/
//! mpi_allreduce.c`, through `mpicc` and `mpirun`) and the ideal in-process
//! allreduces (`anchors/ideal_allreduce.c`, P pthreads over P shared
//! buffers, through `cc -O3 -march=native`): a ring with one barrier per
//! step, and a one-shot in which every thread reads all P inputs and writes
//! its own sum, with one barrier.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use crate::harness::Result;

const MPI_SOURCE: &str = include_str!("../anchors/mpi_allreduce.c");
const IDEAL_SOURCE: &str = include_str!("../anchors/ideal_allreduce.c");

/// The built anchors.
pub struct Anchors {
    /// `None` (with the reason) when OpenMPI is not installed.
    pub mpi: std::result::Result<PathBuf, String>,
    /// `ideal_allreduce`: the ideal ring and one-shot.
    pub ideal: PathBuf,
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

/// Writes and compiles both anchors in `dir`.
pub fn build_all(dir: &Path) -> Result<Anchors> {
    let write = |name: &str, text: &str| -> Result<PathBuf> {
        let path = dir.join(name);
        std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        Ok(path)
    };
    let ideal_source = write("ideal_allreduce.c", IDEAL_SOURCE)?;
    let ideal = dir.join("ideal_allreduce");
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    build(
        &cc,
        &["-O3", "-march=native", "-pthread"],
        &ideal_source,
        &ideal,
    )?;
    let mpi_source = write("mpi_allreduce.c", MPI_SOURCE)?;
    let mpi = dir.join("mpi_allreduce");
    let mpi = build("mpicc", &["-O3"], &mpi_source, &mpi)
        .map(|()| mpi)
        .map_err(|e| format!("{e} (`make bench` installs OpenMPI)"));
    Ok(Anchors { mpi, ideal })
}

/// The `best <seconds>` line an anchor prints.
fn best(output: std::process::Output, what: &str) -> Result<Duration> {
    let stdout = String::from_utf8_lossy(&output.stdout);
    if !output.status.success() {
        return Err(format!(
            "{what} failed: {stdout}{}",
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
    let output = Command::new(binary)
        .args([ranks.to_string(), elements.to_string(), runs.to_string()])
        .arg(schedule.argument())
        .output()
        .map_err(|e| format!("cannot run the ideal allreduce: {e}"))?;
    best(output, &format!("the ideal {}", schedule.argument()))
}
