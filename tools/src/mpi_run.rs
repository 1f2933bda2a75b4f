//! `pld-run --transport mpi|mpi-rma`: one rank per MPI process
//! (`pld_sim::runtime::transport`). Every process loads and compiles the
//! module, fills its rank's inputs ([`fills`]) and runs its rank; the run's outcome is
//! merged on every process, and process 0 alone reports it (results,
//! checks, files) and carries the job's exit status.

use crate::options::Options;
use pld_sim::runtime::transport::{self, Transport};

/// Starts the chosen transport: MPI initialised for an MPI transport, with
/// the options it refuses (`--ranks` other than the job's size,
/// `--explore`). Threads start nothing.
pub fn start(options: &Options) -> Result<(), String> {
    let Some(world) = transport::select(options.transport)? else {
        return Ok(());
    };
    let name = options.transport.name();
    if options.ranks != world.size {
        return Err(format!(
            "--ranks {} but mpirun started {} processes: under --transport {name} each process \
             is one rank (mpirun -np {} ... --ranks {})",
            options.ranks, world.size, options.ranks, options.ranks
        ));
    }
    if options.explore.is_some() {
        return Err(format!(
            "--explore and --replay schedule every rank's threads in one address space; they do \
             not run under --transport {name} (run them without --transport)"
        ));
    }
    Ok(())
}

/// Whether this process reports: always with threads, only process 0 under
/// MPI.
pub fn reports() -> bool {
    pld_sim::runtime::mpi::initialised().is_none_or(|world| world.rank == 0)
}

/// Whether this process fills `rank`'s inputs: every rank's with threads;
/// under MPI its own, and process 0 every rank's when it checks them
/// against the golden (`check`).
pub fn fills(rank: usize, check: bool) -> bool {
    pld_sim::runtime::mpi::initialised()
        .is_none_or(|world| world.rank == rank || (world.rank == 0 && check))
}

/// The refusal of program mode under MPI, if that is the transport.
pub fn refuse_programs(transport: Transport) -> Result<(), String> {
    match transport {
        Transport::Threads => Ok(()),
        Transport::Mpi | Transport::MpiRma => Err(format!(
            "a whole program (its HOST orchestrator) does not run under --transport {} yet; \
             run one of its kernels with --kernel, or the program without --transport",
            transport.name()
        )),
    }
}

/// Ends MPI, if it was started; the process's exit status: `status` on
/// process 0, and on the others too when they fail before a run (each
/// reports nothing, so process 0's status is the job's).
pub fn finish(status: i32) -> i32 {
    pld_sim::runtime::mpi::finalize();
    status
}
