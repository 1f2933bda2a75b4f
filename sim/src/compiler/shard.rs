//! Shard programs for the simulator: a module holding a `shard.grid` is
//! converted into a pld program first (docs/passes/convert-shard-to-pld.md,
//! "Running a shard program"): with upstream `sharding-propagation` and
//! `shard-partition` when it still holds sharding annotations, then
//! `convert-shard-to-pld`.

use super::diag::render_source;
use melior::ir::OperationRef;
use pld_ir::diag::Sink;

/// A shard module converted into a pld program.
pub struct ShardProgram {
    /// The pld program, keeping the source's locations.
    pub text: String,
    /// The devices of its grids, when they all have the same number: the
    /// rank count it runs on.
    pub devices: Option<usize>,
    /// Each function that runs on a grid, with that grid's devices (the
    /// rank count it runs on, when the grids differ).
    pub functions: Vec<(String, usize)>,
}

/// The pld program of a shard module, `None` when `text` holds no
/// `shard.grid`, or the diagnostics of the conversion.
pub fn shard_to_pld(text: &str, source_name: &str) -> Result<Option<ShardProgram>, String> {
    if !text.contains("shard.grid") {
        return Ok(None);
    }
    let registry = pld_backend::registry();
    let context = pld_dialect::context();
    let sink = Sink::attach(&context);
    let failed = |what: &str| format!("{what} failed:{}", render_source(&sink, source_name, text));
    let mut module =
        pld_dialect::parse_source(&context, text, source_name).ok_or_else(|| failed("parse"))?;
    let grids = pld_ir::collect(module.as_operation(), |n| n == "shard.grid");
    if grids.is_empty() {
        return Ok(None);
    }
    let counts: Vec<Option<usize>> = grids
        .iter()
        .map(|g| {
            pld_lowering::shard::source::grid(*g)
                .ok()
                .map(|g| g.devices())
        })
        .collect();
    let devices = counts[0].filter(|n| counts.iter().all(|c| *c == Some(*n)));
    let functions = function_grids(module.as_operation(), &grids);
    let pipeline = if pld_lowering::shard::needs_partition(module.as_operation()) {
        if let Some((op, why)) = refused_by_conversion(module.as_operation()) {
            pld_ir::diag::error(op, &why);
            return Err(failed("convert-shard-to-pld"));
        }
        "builtin.module(func.func(sharding-propagation,shard-partition),convert-shard-to-pld)"
    } else {
        "builtin.module(convert-shard-to-pld)"
    };
    let steps = pld_ir::pipeline::parse(pipeline, &registry).map_err(|e| e.to_string())?;
    let plan = pld_ir::pipeline::plan(&context, &steps, &registry).map_err(|e| e.to_string())?;
    for step in &plan {
        step.run(&mut module)
            .map_err(|_| failed("convert-shard-to-pld"))?;
    }
    let text = pld_ir::print::module_text(
        &module,
        pld_ir::print::PrintOptions {
            debug_info: true,
            ..Default::default()
        },
    );
    Ok(Some(ShardProgram {
        text,
        devices,
        functions,
    }))
}

/// Each function of `module` with the devices of the grid its first op
/// on a grid names.
fn function_grids(
    module: melior::ir::OperationRef,
    grids: &[melior::ir::OperationRef],
) -> Vec<(String, usize)> {
    use pld_lowering::shard::source;
    let devices_of = |name: &str| {
        grids.iter().find_map(|g| {
            let grid = source::grid(*g).ok()?;
            (grid.name == name).then(|| grid.devices())
        })
    };
    pld_ir::functions(module)
        .into_iter()
        .filter_map(|function| {
            let on_grid = pld_ir::collect(function, |n| n.starts_with("shard."))
                .into_iter()
                .find_map(source::grid_name)?;
            Some((pld_ir::symbol_name(function)?, devices_of(&on_grid)?))
        })
        .collect()
}

/// The pld program that runs in place of the shard module `text` on
/// `ranks` ranks (`None` when it holds no `shard.grid`), and the rank count
/// it runs on: what `pld-run`, `pld.run` and `pldProgramCreate` run. A
/// program whose grids all have another number of devices than `ranks` is
/// refused, and so is an `entry` (a function's name, as
/// `pld_ir::print::symbol_name` reads what the user wrote) whose grid
/// has; without `ranks` (`pld-run` given no `--ranks`) the grid's device
/// count is taken, else 2.
pub fn shard_program_for(
    text: &str,
    source_name: &str,
    ranks: Option<usize>,
    entry: Option<&str>,
) -> Result<Option<(String, usize)>, String> {
    let Some(converted) = shard_to_pld(text, source_name)? else {
        return Ok(None);
    };
    let entry = entry.filter(|e| !e.is_empty());
    // The function named, or without a name (and grids of different
    // sizes) the only one that runs on a grid.
    let entry_grid = match (entry, converted.devices) {
        (Some(entry), _) => converted.functions.iter().find(|(name, _)| name == entry),
        (None, Some(_)) => None,
        (None, None) => match converted.functions.as_slice() {
            [only] => Some(only),
            _ => None,
        },
    };
    let grid = entry_grid
        .map(|(_, devices)| *devices)
        .or(converted.devices);
    let Some(ranks) = ranks else {
        return Ok(Some((converted.text, grid.unwrap_or(2))));
    };
    let refused = |devices: usize, what: &str| {
        Err(format!(
            "{source_name}: {what} runs on a grid of {devices} devices; run it on {devices} \
             ranks, not {ranks}"
        ))
    };
    match (entry_grid, converted.devices) {
        (Some((name, devices)), _) if *devices != ranks => {
            refused(*devices, &pld_ir::print::symbol_ref(name))
        }
        (None, Some(devices)) if devices != ranks => refused(devices, "the shard program"),
        _ => Ok(Some((converted.text, ranks))),
    }
}

/// The first op of a function with sharding annotations that
/// convert-shard-to-pld refuses whatever upstream partitioning makes of it,
/// and why.
fn refused_by_conversion<'c, 'a>(
    root: OperationRef<'c, 'a>,
) -> Option<(OperationRef<'c, 'a>, String)>
where
    'c: 'a,
{
    let annotated = pld_ir::collect(root, |n| n == "func.func")
        .into_iter()
        .filter(|f| !pld_ir::collect(*f, |n| n == "shard.shard").is_empty());
    annotated
        .flat_map(|f| pld_ir::collect(f, |_| true))
        .find_map(|op| {
            pld_lowering::shard::convert::refused_before_partition(op).map(|why| (op, why))
        })
}
