//! The collectives an orchestrator still holds as written: neither the
//! builtin kernels (`--emit=kernels`) nor the PTO text (`--emit=pto`) of a
//! module exists before its HOST and CHIP rails have lowered them, so both
//! refuse such a module at each of them instead of writing nothing; so
//! does a function of upstream `shard` IR that convert-shard-to-pld has
//! not converted.

use melior::ir::OperationRef;
use pld_dialect::collective::CollectiveKind;
use pld_dialect::{enums::FuncKind, query::function_kind};

/// Why a function of upstream `shard` IR blocks translation.
const SHARD: &str = "is upstream shard IR, which names no builtin kernel and has no PTO form; \
                     convert it first (the shard-to-pto pipeline, or convert-shard-to-pld then \
                     pld-to-pto)";

/// Each collective of a HOST or CHIP orchestrator in `root` that its rail
/// has not lowered yet, with why it blocks translation.
pub fn collectives<'c, 'a>(root: OperationRef<'c, 'a>) -> Vec<(OperationRef<'c, 'a>, String)> {
    let mut found = Vec::new();
    for function in pld_ir::functions(root) {
        // A function of upstream shard IR (the first shard op of each).
        if let Some(op) = pld_ir::collect(function, |n| n.starts_with("shard.")).first() {
            found.push((*op, SHARD.to_string()));
            continue;
        }
        let pipeline = match function_kind(function) {
            Ok(Some(FuncKind::Host)) => ("HOST", "pld-host-pipeline"),
            Ok(Some(FuncKind::Chip)) => ("CHIP", "pld-chip-pipeline"),
            _ => continue,
        };
        let ops = pld_ir::collect(function, |n| CollectiveKind::from_op_name(n).is_some());
        for op in ops {
            let message = format!(
                "is a {} collective that names no builtin kernel yet; lower it first (the {} or \
                 pld-to-pto pipeline)",
                pipeline.0, pipeline.1
            );
            found.push((op, message));
        }
    }
    // A shard module whose functions hold no shard op: its grid.
    if found.is_empty() {
        let grids = pld_ir::collect(root, |n| n == "shard.grid");
        if let Some(grid) = grids.first() {
            found.push((*grid, SHARD.to_string()));
        }
    }
    found
}

/// Emits an error at each of [`collectives`]; whether there was one.
pub fn refuse(root: OperationRef) -> bool {
    let found = collectives(root);
    for (op, message) in &found {
        pld_ir::diag::error(*op, message);
    }
    !found.is_empty()
}
