//! `pld-run --transport mpi|mpi-rma`: one rank (kernel mode) or one
//! device (program mode) per MPI process (`pld_sim::runtime::transport`).
//! Every process loads and compiles the module, fills its rank's inputs
//! ([`fills`]) and runs its rank or device; the run's
//! outcome is merged on every process, and process 0 alone reports it
//! (results, checks, files) and carries the job's exit status.

use crate::options::Options;
use pld_sim::runtime::transport::{self, Transport};

/// Starts the chosen transport: MPI initialised for an MPI transport, with
/// the options it refuses (`--ranks` other than the job's size,
/// `--explore`). Threads start nothing.
pub fn start(options: &Options) -> Result<(), String> {
    if !(1..=pld_sim::MAX_RANKS).contains(&options.ranks) {
        return Err(format!(
            "--ranks must be 1 to {}, not {}",
            pld_sim::MAX_RANKS,
            options.ranks
        ));
    }
    if options.transport.is_mpi() && !pld_sim::runtime::mpi::launched() {
        return Err(format!(
            "--transport mpi and mpi-rma run one rank per MPI process: start pld-run with \
             mpirun (mpirun -np {} {})",
            options.ranks,
            command_line()
        ));
    }
    let Some(world) = transport::select(options.transport)? else {
        return Ok(());
    };
    crate::mpi_agree::same_launch(options)?;
    let name = options.transport.name();
    if options.input == "-" && world.size > 1 {
        return Err(format!(
            "the module is read from standard input (no file named, or `-`), which mpirun \
             gives to process 0 alone: under --transport {name} name the file (mpirun -np {} \
             pld-run FILE ...)",
            world.size
        ));
    }
    if options.ranks != world.size {
        // (It advised only `-np` of the --ranks given, 2 when none is.)
        return Err(format!(
            "--ranks {} but mpirun started {}: under --transport {name} each process is one \
             rank (give --ranks {}, or start mpirun -np {}; --ranks is 2 when not given)",
            options.ranks,
            match world.size {
                1 => "1 process".to_string(),
                n => format!("{n} processes"),
            },
            world.size,
            options.ranks
        ));
    }
    if pld_sim::runtime::env::SHOW_NODES.read()? && world.rank == 0 {
        pld_ir::diag::write_stderr(&node_report(&pld_sim::runtime::mpi::node_split()));
    }
    Ok(())
}

/// The refusal of a thread run started by an MPI launcher as one of
/// several processes: each would run every rank on its own (or, beside
/// `--transport mpi` processes, leave them waiting in `MPI_Init` until
/// `mpirun` ends them). Said by every such process (none knows how the
/// others were started), before any work.
pub fn threads_among_peers(options: &Options) -> Option<String> {
    match options.transport {
        Transport::Threads => {}
        Transport::Mpi | Transport::MpiRma => return None,
    }
    let seen = pld_sim::runtime::mpi::launcher_peers()?;
    Some(format!(
        "this process is one of several of an MPI job ({seen}), but --transport threads (the \
         default) runs every rank in each process on its own: add --transport mpi (or mpi-rma) \
         to every process's command line (mpirun -np {} {} --transport mpi), or start one \
         process",
        options.ranks,
        command_line().replace(" --transport threads", "")
    ))
}

/// The job's nodes, a line each after a headline: `pld-run: node 1 (host
/// b): processes 2, 3`.
fn node_report(nodes: &[pld_sim::runtime::mpi::Node]) -> String {
    let processes: usize = nodes.iter().map(|n| n.processes.len()).sum();
    let mut text = format!(
        "pld-run: {processes} MPI process{} on {} node{}, split by {}\n",
        if processes == 1 { "" } else { "es" },
        nodes.len(),
        if nodes.len() == 1 { "" } else { "s" },
        pld_sim::runtime::mpi::split_by()
    );
    for (i, node) in nodes.iter().enumerate() {
        let list = |items: &[String]| items.join(", ");
        let ranks: Vec<String> = node.processes.iter().map(usize::to_string).collect();
        text += &format!(
            "pld-run:   node {i} (host{} {}): process{} {}\n",
            if node.hosts.len() == 1 { "" } else { "s" },
            list(&node.hosts),
            if ranks.len() == 1 { "" } else { "es" },
            list(&ranks)
        );
    }
    text
}

/// This process's command line as a shell reads it (an argument with
/// characters the shell treats specially in single quotes).
fn command_line() -> String {
    let plain = |a: &str| {
        !a.is_empty()
            && a.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-_./=:,@%+{}".contains(&b))
    };
    std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .enumerate()
        .map(|(i, a)| match (i, plain(&a)) {
            (0, _) => "pld-run".to_string(),
            (_, true) => a,
            (_, false) => format!("'{}'", a.replace('\'', r"'\''")),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Ends a process that leaves the reason of its failure to process 0
/// ([`crate::speaker::speaks_first`]) with `status`, after letting process 0 say it:
/// mpirun ends the job at the first failed process, which could be before
/// process 0 has printed a word.
pub fn exit_silently(status: i32) -> ! {
    std::thread::sleep(SILENT_FAILURE_GRACE);
    std::process::exit(status)
}

/// Whether this process fills `rank`'s inputs (or device `rank`'s
/// buffers): every rank's with threads; under MPI its own (each process
/// checks its own rank, from the inputs the others send it).
pub fn fills(rank: usize) -> bool {
    pld_sim::runtime::mpi::initialised().is_none_or(|world| world.rank == rank)
}

/// Whether a run was stopped by Ctrl-C (or `--time-limit`): under MPI as
/// the run's merged outcome says (every process then agrees, and all go
/// on or stop together), with threads also when this process was asked
/// after the run.
pub fn stopped(outcome_interrupted: bool) -> bool {
    match pld_sim::runtime::mpi::initialised() {
        Some(_) => outcome_interrupted,
        None => outcome_interrupted || crate::watch::interrupted(),
    }
}

/// The devices (or ranks) whose buffers this process holds: all of them
/// with threads, one under MPI.
pub fn held(ranks: usize) -> usize {
    match pld_sim::runtime::mpi::initialised() {
        Some(_) => 1,
        None => ranks,
    }
}

/// What a headline adds under MPI: ` (4 MPI processes under --transport
/// mpi)`, with ` on 2 nodes` when the job spans several; nothing with
/// threads.
pub fn processes_note(options: &Options) -> String {
    let nodes = match pld_sim::runtime::mpi::nodes() {
        0 | 1 => String::new(),
        n => format!(" on {n} nodes"),
    };
    match options.transport {
        Transport::Threads => String::new(),
        Transport::Mpi | Transport::MpiRma => format!(
            " ({} MPI process{}{nodes} under --transport {})",
            options.ranks,
            if options.ranks == 1 { "" } else { "es" },
            options.transport.name()
        ),
    }
}

/// Ends MPI, if it was started; the process's exit status: `status` on
/// process 0, and on the others too when they fail before a run (each
/// reports nothing, so process 0's status is the job's). A process that
/// fails without saying why waits [`SILENT_FAILURE_GRACE`] before it
/// exits: mpirun ends the whole job at the first non-zero exit, and a
/// silent process that got there first could end process 0 before the
/// line that says what is wrong had reached mpirun (measured: one run in
/// six of lit tools/pld-run/mpi/nodes.mlir lost it, 4 processes on 2
/// cores).
pub fn finish(status: i32) -> i32 {
    let silent = status != 0 && !crate::speaker::reports();
    pld_sim::runtime::mpi::finalize();
    if silent {
        std::thread::sleep(SILENT_FAILURE_GRACE);
    }
    status
}

/// How long a process that failed without saying why lets process 0 go
/// first (it is killed sooner when process 0's exit ends the job).
const SILENT_FAILURE_GRACE: std::time::Duration = std::time::Duration::from_millis(500);

#[cfg(test)]
mod tests {
    use super::node_report;
    use pld_sim::runtime::mpi::Node;

    #[test]
    fn node_report_names_every_node_its_hosts_and_processes() {
        let node = |processes: &[usize], hosts: &[&str]| Node {
            processes: processes.to_vec(),
            hosts: hosts.iter().map(|h| h.to_string()).collect(),
        };
        let text = node_report(&[node(&[0, 1], &["a"]), node(&[2], &["b", "c"])]);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3, "{text}");
        assert!(lines[0].starts_with("pld-run: 3 MPI processes on 2 nodes, split by "));
        assert_eq!(lines[1], "pld-run:   node 0 (host a): processes 0, 1");
        assert_eq!(lines[2], "pld-run:   node 1 (hosts b, c): process 2");
    }
}
