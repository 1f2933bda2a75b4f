//! `convert-shard-to-pld`: upstream MLIR's `shard` programs (partitioned
//! functions on a static `shard.grid`) become pld programs: a HOST
//! orchestrator per function, with the window buffers of its tensors, the
//! pld collectives of each device group and the InCore kernels (behind
//! CHIP orchestrators) that move data between the shard ops' layouts and
//! the collectives' rows.
//!
//! Docs: `docs/passes/convert-shard-to-pld.md`; tests: `tests/lit/passes/convert-shard-to-pld/`.
//! The conversion itself is in `lowering/src/shard/`.

use crate::shard::{
    convert::{self, Grids},
    source,
};
use melior::{
    ir::{block::BlockLike, operation::OperationLike, OperationRef, RegionLike},
    pass::Pass,
    Context,
};
use pld_ir as ir;
use pld_ir::pass::{external, Anchor, PassFailed, PassIdentity, PldPass, Report};
use std::collections::HashSet;

#[derive(Clone, Default)]
pub struct ConvertShardToPld;

impl PldPass for ConvertShardToPld {
    const ARGUMENT: &'static str = "convert-shard-to-pld";
    const NAME: &'static str = "ConvertShardToPld";
    const SUMMARY: &'static str =
        "Convert partitioned shard functions on static grids into pld programs (HOST orchestrator, collectives per device group, InCore data movement)";

    const ANCHOR: Anchor = Anchor::Module;

    fn run(&self, context: &Context, module: OperationRef) -> Result<(), PassFailed> {
        let mut report = Report::default();
        // Shard code in a nested module: the pipelines lower the outermost
        // module's functions only (as pld-verify says of pld code).
        for grid in ir::collect(module, |n| n == "shard.grid") {
            if grid.parent_operation() != Some(module) {
                report.error(
                    grid,
                    "is inside a nested module; convert-shard-to-pld converts the shard \
                     programs of the outermost module only: move the grid and its functions there",
                );
            }
        }
        if report.failed() {
            return report.finish();
        }
        let grids = grids(module);
        let mut taken: HashSet<String> = ir::collect(module, |_| true)
            .into_iter()
            .filter_map(ir::symbol_name)
            .collect();
        // A function without shard ops is the program's only in a module
        // that defines a grid itself (a nested module's helper is not).
        let functions: Vec<OperationRef> = ir::functions(module)
            .into_iter()
            .filter(|f| convert::is_shard_function(*f, in_grid_module(*f)))
            .collect();
        let converted: HashSet<String> = functions
            .iter()
            .filter_map(|f| ir::symbol_name(*f))
            .collect();
        check_calls(module, &converted, &mut report);
        for function in functions {
            match convert::function(function, &grids, &converted, taken.clone()) {
                Ok(program) => {
                    for kernel in &program.kernels {
                        taken.insert(kernel.name.clone());
                        taken.insert(format!("{}_chip", kernel.name));
                    }
                    if !splice(context, function, &program.render()) {
                        report.error(function, "could not be converted: the generated pld program does not parse (a bug in convert-shard-to-pld)");
                    }
                }
                Err(failure) => report.error(failure.op, &failure.message),
            }
        }
        let result = report.finish();
        if result.is_ok() {
            for (grid, _) in grids.values() {
                ir::erase(*grid);
            }
        }
        result
    }
}

/// Whether the module that holds `function` defines a `shard.grid` (at its
/// top level).
fn in_grid_module(function: OperationRef) -> bool {
    let Some(module) = function.parent_operation() else {
        return false;
    };
    let first = module.region(0).ok().and_then(|r| r.first_block());
    let mut op = first.and_then(|b| b.first_operation());
    while let Some(current) = op {
        if ir::op_name(&current) == "shard.grid" {
            return true;
        }
        op = current.next_in_block();
    }
    false
}

/// Every `shard.grid` of the module, by name, with the grid it defines or
/// why it cannot be converted.
fn grids<'c, 'a>(module: OperationRef<'c, 'a>) -> Grids<'c, 'a> {
    ir::collect(module, |n| n == "shard.grid")
        .into_iter()
        .map(|op| {
            (
                ir::symbol_name(op).unwrap_or_default(),
                (op, source::grid(op)),
            )
        })
        .collect()
}

/// Calls of a converted function from a function that is not converted
/// (a pld function) are refused: the callee becomes a HOST orchestrator
/// without arguments or results. (A converted caller refuses its calls
/// itself, at its first op outside the supported set.)
fn check_calls(module: OperationRef, converted: &HashSet<String>, report: &mut Report) {
    for call in ir::collect(module, |n| n == "func.call") {
        let caller = ir::enclosing_function(call).and_then(ir::symbol_name);
        let callee = ir::attr::callee(call);
        let refused = callee.is_some_and(|c| converted.contains(&c))
            && caller.is_none_or(|c| !converted.contains(&c));
        if refused {
            report.error(call, &convert::call(call, converted));
        }
    }
}

/// Replaces `function` by the functions of the module in `text`.
fn splice(context: &Context, function: OperationRef, text: &str) -> bool {
    let Some(parsed) = ir::parse::parse_op(context, text.as_bytes(), "convert-shard-to-pld") else {
        return false;
    };
    let Some(body) = parsed.region(0).ok().and_then(|r| r.first_block()) else {
        return false;
    };
    let mut ops = Vec::new();
    let mut next = body.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        ops.push(op);
    }
    for op in ops {
        ir::move_before(op, function);
    }
    ir::erase(function);
    true
}

static IDENTITY: PassIdentity = PassIdentity;

/// Creates the pass.
pub fn create() -> Pass {
    external(ConvertShardToPld, &IDENTITY)
}
