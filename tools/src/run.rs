//! The `pld-run` driver: read the input, then run a whole program from its
//! HOST orchestrator ([`crate::run_program`]) or one kernel
//! ([`crate::run_kernel`]).

use crate::files::read_named_input;
use crate::options::Options;

/// Runs `pld-run`; returns the process exit status.
pub fn run(options: &Options) -> i32 {
    match drive(options) {
        Ok(status) => status,
        Err(message) => {
            eprintln!("pld-run: error: {message}");
            1
        }
    }
}

fn drive(options: &Options) -> Result<i32, String> {
    let Some((buffer_name, text)) = read_named_input("pld-run", &options.input) else {
        return Ok(1);
    };
    if !(1..=pld_sim::MAX_RANKS).contains(&options.ranks) {
        return Err(format!(
            "--ranks must be 1 to {}, not {}",
            pld_sim::MAX_RANKS,
            options.ranks
        ));
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
