//! `pld-opt`: an mlir-opt-style driver for the pld and pto dialects.

use clap::Parser;
use pld_tools::opt::{run, Options};

#[derive(Parser)]
#[command(
    name = "pld-opt",
    version = concat!(env!("CARGO_PKG_VERSION"), " (MLIR/LLVM 22)"),
    about = "Parse, verify and transform pld/pto MLIR",
    after_help = "Every upstream MLIR pass can appear in --pass-pipeline next to the pld passes \
                  listed by --list-passes."
)]
struct Cli {
    /// Input file, or - for standard input.
    #[arg(default_value = "-")]
    input: String,
    /// Output file (default: standard output).
    #[arg(short = 'o', value_name = "FILE")]
    output: Option<String>,
    /// Pass pipeline, e.g. 'builtin.module(pld-verify,canonicalize)'.
    #[arg(long = "pass-pipeline", value_name = "PIPELINE")]
    pass_pipeline: Option<String>,
    /// Process each '// -----' separated chunk independently.
    #[arg(long = "split-input-file")]
    split_input_file: bool,
    /// Check diagnostics against expected-* annotations in the input.
    #[arg(long = "verify-diagnostics")]
    verify_diagnostics: bool,
    /// Print the IR to standard error after every pass.
    #[arg(long = "mlir-print-ir-after-all")]
    print_ir_after_all: bool,
    /// Print locations with the IR.
    #[arg(long = "mlir-print-debuginfo")]
    print_debuginfo: bool,
    /// Print every op in the generic form.
    #[arg(long = "mlir-print-op-generic")]
    print_generic: bool,
    /// Run every pass on the calling thread (function passes otherwise run
    /// on MLIR's thread pool, one function at a time).
    #[arg(long = "mlir-disable-threading")]
    disable_threading: bool,
    /// Name SSA values after their name locations (`%__allreduce_signal_0`).
    #[arg(long = "mlir-use-nameloc-as-prefix")]
    nameloc_as_prefix: bool,
    /// List the pld passes and named pipelines, then exit.
    #[arg(long = "list-passes")]
    list_passes: bool,
}

fn list_passes() {
    let registry = pld_sim::registry();
    println!("pld passes:");
    for pass in registry.passes() {
        println!("  {:<40} {}", pass.argument, pass.summary);
    }
    println!("pld pipelines:");
    for pipeline in registry.pipelines() {
        println!(
            "  {:<40} {} [{}]",
            pipeline.argument,
            pipeline.summary,
            pipeline.passes.join(",")
        );
    }
    println!("Upstream MLIR passes (see `mlir-opt --help`) are accepted too.");
}

fn main() {
    let cli = Cli::parse();
    if cli.list_passes {
        list_passes();
        return;
    }
    let options = Options {
        input: cli.input,
        output: cli.output,
        pipeline: cli.pass_pipeline,
        split_input_file: cli.split_input_file,
        verify_diagnostics: cli.verify_diagnostics,
        print_ir_after_all: cli.print_ir_after_all,
        print_debuginfo: cli.print_debuginfo,
        print_generic: cli.print_generic,
        nameloc_as_prefix: cli.nameloc_as_prefix,
        disable_threading: cli.disable_threading,
    };
    std::process::exit(run(&options));
}
