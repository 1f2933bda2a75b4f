//! The `pld-run` driver: read the input, then run a whole program from its
//! HOST orchestrator ([`crate::run_program`]) or one kernel
//! ([`crate::run_kernel`]).

use crate::files::read_named_input;
use crate::options::{Options, Refusal};

/// Runs `pld-run`; returns the process exit status.
pub fn run(options: &Options) -> i32 {
    match drive(options) {
        Ok(status) => status,
        Err(refusal) => {
            eprintln!("pld-run: error: {}", refusal.message());
            refusal.status()
        }
    }
}

fn drive(options: &Options) -> Result<i32, Refusal> {
    let Some((buffer_name, text)) = read_named_input("pld-run", &options.input) else {
        return Ok(1);
    };
    if !(1..=pld_sim::MAX_RANKS).contains(&options.ranks) {
        return Err(Refusal::Error(format!(
            "--ranks must be 1 to {}, not {}",
            pld_sim::MAX_RANKS,
            options.ranks
        )));
    }
    if let Some(dir) = &options.output_dir {
        crate::files::check_output_dir(dir)?;
    }
    // A program with a HOST orchestrator runs whole, unless a kernel is
    // named.
    if options.entry.is_some()
        || (options.kernel.is_none() && !crate::run_program::host_functions(&text).is_empty())
    {
        return crate::run_program::drive(options, &buffer_name, &text);
    }
    crate::run_kernel::drive(options, &buffer_name, &text)
}
