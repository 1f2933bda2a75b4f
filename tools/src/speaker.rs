//! Which process of a job speaks: with threads the one process; under
//! MPI process 0 reports the run, and the launcher's process 0 says what
//! is wrong before MPI starts. No other module of pld-tools is needed here,
//! so that the run's watch, its reports and the MPI agreement can all ask.

use pld_sim::runtime::transport::{self, Transport};

/// Whether this process reports: always with threads, only process 0 under
/// MPI (also when MPI failed to start: the launcher's rank 0, so that
/// an error is said once).
pub fn reports() -> bool {
    use pld_sim::runtime::mpi;
    match (mpi::initialised(), transport::current()) {
        (Some(world), _) => world.rank == 0,
        (None, Transport::Threads) => true,
        (None, Transport::Mpi | Transport::MpiRma) => speaks_first(),
    }
}

/// Whether this process says what is wrong with its command line before
/// MPI starts: under mpirun, where every process was given it, the
/// launcher's process 0 alone.
pub fn speaks_first() -> bool {
    pld_sim::runtime::mpi::launcher_rank().is_none_or(|r| r == 0)
}
