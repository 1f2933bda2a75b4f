//! `pld-opt`: an mlir-opt-style driver for the pld and pto dialects.

use clap::{Parser, ValueEnum};
use pld_ir::pipeline::PassSelection;
use pld_ir::print::PrintOptions;
use pld_lowering::passes::select_allreduce_modes::{self, Defaults};
use pld_tools::opt::{run, Options, VerifyMode};
use pld_tools::split::SplitFlags;

/// `--verify-diagnostics=` values, as mlir-opt spells them.
#[derive(Clone, Copy, ValueEnum)]
enum Verify {
    /// Check all diagnostics (expected, unexpected, near misses).
    All,
    /// Check only the expected diagnostics.
    OnlyExpected,
}

#[derive(Parser)]
#[command(
    name = "pld-opt",
    version = concat!(env!("CARGO_PKG_VERSION"), " (MLIR/LLVM 22)"),
    about = "Parse, verify and transform pld/pto MLIR",
    after_help = "Every upstream MLIR pass can appear in --pass-pipeline next to the pld passes \
                  listed by --list-passes.",
    // As in mlir-opt, an option given twice takes its last value.
    args_override_self = true
)]
struct Cli {
    /// Input file, or - for standard input.
    #[arg(default_value = "-")]
    input: String,
    /// Output file (default: standard output).
    #[arg(short = 'o', value_name = "FILE")]
    output: Option<String>,
    /// Pass pipeline, e.g. 'builtin.module(pld-verify,canonicalize)'.
    #[arg(long = "pass-pipeline", short = 'p', value_name = "PIPELINE")]
    pass_pipeline: Option<String>,
    #[command(flatten)]
    split: SplitFlags,
    /// Check diagnostics against expected-* annotations in the input: all
    /// of them (the default), or only the expected ones.
    #[arg(
        long = "verify-diagnostics",
        value_name = "MODE",
        value_enum,
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "all"
    )]
    verify_diagnostics: Option<Verify>,
    /// Print IR before specified passes (pass arguments, comma separated).
    #[arg(long = "mlir-print-ir-before", value_name = "pass-arg")]
    print_ir_before: Vec<String>,
    /// Print IR before each pass.
    #[arg(long = "mlir-print-ir-before-all")]
    print_ir_before_all: bool,
    /// Print IR after specified passes (pass arguments, comma separated).
    #[arg(long = "mlir-print-ir-after", value_name = "pass-arg")]
    print_ir_after: Vec<String>,
    /// Print IR after each pass.
    #[arg(long = "mlir-print-ir-after-all")]
    print_ir_after_all: bool,
    /// When printing the IR after a pass, only print if the IR changed.
    #[arg(long = "mlir-print-ir-after-change")]
    print_ir_after_change: bool,
    /// When printing the IR after a pass, only print if the pass failed.
    #[arg(long = "mlir-print-ir-after-failure")]
    print_ir_after_failure: bool,
    /// When printing IR for print-ir-[before|after]{-all} always print the
    /// top-level operation (needs --mlir-disable-threading).
    #[arg(long = "mlir-print-ir-module-scope")]
    print_ir_module_scope: bool,
    /// Print locations with the IR.
    #[arg(long = "mlir-print-debuginfo")]
    print_debuginfo: bool,
    /// Print every op in the generic form.
    #[arg(long = "mlir-print-op-generic")]
    print_generic: bool,
    /// Elide ElementsAttrs with "..." that have more elements than the given
    /// upper limit.
    #[arg(long = "mlir-elide-elementsattrs-if-larger", value_name = "uint")]
    elide_elementsattrs_if_larger: Option<usize>,
    /// Disable multi-threading within MLIR: run every pass on the calling
    /// thread (function passes otherwise run on MLIR's thread pool).
    #[arg(long = "mlir-disable-threading")]
    disable_threading: bool,
    /// Print attributes and types where they are used, without aliases, and
    /// locations inline.
    #[arg(long = "mlir-print-local-scope")]
    print_local_scope: bool,
    /// Name SSA values after their name locations (`%__allreduce_signal_0`).
    #[arg(long = "mlir-use-nameloc-as-prefix")]
    nameloc_as_prefix: bool,
    /// Display execution times.
    #[arg(long = "mlir-timing")]
    timing: bool,
    /// Display the statistics of each pass.
    #[arg(long = "mlir-pass-statistics")]
    pass_statistics: bool,
    /// Print the pipeline that will be run.
    #[arg(long = "dump-pass-pipeline")]
    dump_pass_pipeline: bool,
    /// Allow operation with no registered dialects.
    #[arg(long = "allow-unregistered-dialect")]
    allow_unregistered_dialect: bool,
    /// Emit bytecode when generating output.
    #[arg(long = "emit-bytecode")]
    emit_bytecode: bool,
    /// Run the verifier after each transformation pass (default true;
    /// --verify-each=false or =0 turns it off, as in mlir-opt).
    #[arg(
        long = "verify-each",
        value_name = "bool",
        num_args = 0..=1,
        require_equals = true,
        default_value = "true",
        default_missing_value = "true",
        value_parser = pld_tools::args::llvm_bool,
        action = clap::ArgAction::Set
    )]
    verify_each: bool,
    /// Disable implicit addition of a top-level module op during parsing.
    #[arg(long = "no-implicit-module")]
    no_implicit_module: bool,
    /// List the pld passes and named pipelines, then exit.
    #[arg(long = "list-passes")]
    list_passes: bool,
    /// The cost model pld-select-allreduce-modes reads (docs/algorithms.md):
    /// a TOML file of [target] tables; the simulator's defaults without it.
    #[arg(long = "pld-cost-model", value_name = "FILE")]
    cost_model: Option<String>,
    /// The table of the cost model to use (default `sim`).
    #[arg(long = "pld-cost-target", value_name = "NAME")]
    cost_target: Option<String>,
    /// A remark at every `mode = "auto"` allreduce: the chosen schedule and
    /// every candidate's predicted time.
    #[arg(long = "pld-remark-allreduce-mode")]
    remark_allreduce_mode: bool,
    /// The rank count `mode = "auto"` chooses for at a HOST allreduce
    /// written without a signal (whose rank count is known only at run
    /// time); without it such a call keeps the default, the mesh.
    #[arg(long = "pld-world-size", value_name = "N", value_parser = clap::value_parser!(i64).range(1..=64))]
    world_size: Option<i64>,
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

pld_sim::tool_allocation!();

fn main() {
    pld_ir::diag::name_program("pld-opt");
    pld_tools::files::quiet_on_closed_stdout();
    pld_sim::runtime::oom::exit_on_out_of_memory("pld-opt");
    let cli = pld_tools::args::parse_or_exit_1::<Cli>(pld_tools::args::text("pld-opt", 1));
    pld_tools::opt_watch::start();
    if cli.list_passes {
        list_passes();
        return;
    }
    let defaults = Defaults {
        file: cli.cost_model.clone(),
        target: cli.cost_target.clone(),
        remarks: cli.remark_allreduce_mode,
        world_size: cli.world_size,
    };
    if let Err(message) = select_allreduce_modes::set_defaults(defaults) {
        pld_ir::say!("pld-opt: error: {message}");
        std::process::exit(1);
    }
    let selection = |all: bool, lists: &[String]| {
        let mut selection = if all {
            PassSelection::All
        } else {
            PassSelection::Nothing
        };
        lists.iter().for_each(|list| selection.add(list));
        selection
    };
    let options = Options {
        input: cli.input,
        output: cli.output,
        pipeline: cli.pass_pipeline,
        split_input_file: cli.split.input(),
        output_split_marker: cli.split.output(),
        verify_diagnostics: cli.verify_diagnostics.map(|mode| match mode {
            Verify::All => VerifyMode::All,
            Verify::OnlyExpected => VerifyMode::OnlyExpected,
        }),
        print_before: selection(cli.print_ir_before_all, &cli.print_ir_before),
        print_after: selection(cli.print_ir_after_all, &cli.print_ir_after),
        print_after_change: cli.print_ir_after_change,
        print_after_failure: cli.print_ir_after_failure,
        print_module_scope: cli.print_ir_module_scope,
        print: PrintOptions {
            debug_info: cli.print_debuginfo,
            generic: cli.print_generic,
            nameloc_as_prefix: cli.nameloc_as_prefix,
            elide_elements_larger_than: cli.elide_elementsattrs_if_larger,
            local_scope: cli.print_local_scope,
        },
        disable_threading: cli.disable_threading,
        timing: cli.timing,
        pass_statistics: cli.pass_statistics,
        dump_pass_pipeline: cli.dump_pass_pipeline,
        allow_unregistered_dialect: cli.allow_unregistered_dialect,
        emit_bytecode: cli.emit_bytecode,
        verify_each: cli.verify_each,
        no_implicit_module: cli.no_implicit_module,
    };
    std::process::exit(run(&options));
}
