//! `pld-translate`: write pld/pto MLIR in other formats.

use clap::{Parser, ValueEnum};
use pld_tools::split::SplitFlags;
use pld_tools::translate::{run, Emit, Options};

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    /// PTO in the custom syntax of the PTOAS assembler (input: the output
    /// of convert-pld-to-pto or the pld-to-pto pipeline).
    Pto,
    /// The builtin kernel packages (entry, AIV kernel, kernel_config.py per
    /// variant, and kernels.json) of every pld.builtin_* dispatch, under
    /// the -o directory (input: a module lowered by the HOST rail).
    Kernels,
}

#[derive(Parser)]
#[command(
    name = "pld-translate",
    version = concat!(env!("CARGO_PKG_VERSION"), " (MLIR/LLVM 22)"),
    about = "Translate pld/pto MLIR to other formats",
    after_help = "Examples: pld-opt k.mlir --pass-pipeline='builtin.module(pld-to-pto)' | \
                  pld-translate --emit=pto\n          pld-opt k.mlir \
                  --pass-pipeline='builtin.module(pld-to-pto)' | pld-translate --emit=kernels -o out",
    // As in mlir-translate, an option given twice takes its last value.
    args_override_self = true
)]
struct Cli {
    /// Input file, or - for standard input.
    #[arg(default_value = "-")]
    input: String,
    /// Output file (default: standard output); the output directory for
    /// --emit=kernels.
    #[arg(short = 'o', value_name = "FILE")]
    output: Option<String>,
    /// What to write.
    #[arg(long = "emit", value_enum)]
    emit: Format,
    #[command(flatten)]
    split: SplitFlags,
}

pld_sim::tool_allocation!();

fn main() {
    pld_ir::diag::name_program("pld-translate");
    pld_tools::files::quiet_on_closed_stdout();
    pld_sim::runtime::oom::exit_on_out_of_memory("pld-translate");
    let cli = pld_tools::args::parse_or_exit_1::<Cli>(pld_tools::args::text("pld-translate", 1));
    let options = Options {
        input: cli.input,
        output: cli.output,
        emit: match cli.emit {
            Format::Pto => Emit::Pto,
            Format::Kernels => Emit::Kernels,
        },
        split_input_file: cli.split.input(),
        output_split_marker: cli.split.output(),
    };
    std::process::exit(run(&options));
}
