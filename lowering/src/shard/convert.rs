//! Converting one shard function into a [`Program`], op by op.

use super::arith;
use super::builder::{loc, Builder};
use super::collectives;
use super::grid::Grid;
use super::kernel::Action;
use super::layout;
use super::program::Program;
use super::reshard;
use super::slice;
use super::source::{self, tensor_type, Refusal};
use super::types::PerDevice;
use melior::ir::{
    block::BlockLike, operation::OperationLike, OperationRef, RegionLike, TypeLike, Value,
};
use pld_ir::op_name;
use std::collections::{HashMap, HashSet};

/// A failure at an op.
pub struct Failure<'c, 'a> {
    pub op: OperationRef<'c, 'a>,
    pub message: Refusal,
}

type Converted<'c, 'a, T = ()> = Result<T, Failure<'c, 'a>>;

fn at<'c, 'a, T>(op: OperationRef<'c, 'a>, result: Result<T, Refusal>) -> Converted<'c, 'a, T> {
    result.map_err(|message| Failure { op, message })
}

/// The grids of a module, by name: each `shard.grid` op with the grid it
/// defines or why it cannot be converted.
pub type Grids<'c, 'a> = HashMap<String, (OperationRef<'c, 'a>, Result<Grid, Refusal>)>;

/// Whether a function is a shard program that the pass converts: it holds
/// shard ops, or it is a function of a module that defines a grid
/// (`shard_module`) with a body, not one of pld's (no `pld.kind`) or
/// PTO's. Such a function is converted whole or refused at its first op
/// outside the supported set: none is left behind unconverted.
pub fn is_shard_function(function: OperationRef, shard_module: bool) -> bool {
    let holds_shard_ops = !pld_ir::collect(function, |n| n.starts_with("shard.")).is_empty();
    let has_body = function
        .region(0)
        .ok()
        .and_then(|r| r.first_block())
        .is_some();
    let foreign = ["pld.kind", "pto.kernel_kind"]
        .iter()
        .any(|a| function.attribute(a).is_ok());
    holds_shard_ops || (shard_module && has_body && !foreign)
}

/// The grid a function runs on: the first one its shard ops name, which
/// every other op must name too; for a function that names none, the
/// module's only grid.
fn function_grid<'c, 'a>(
    function: OperationRef<'c, 'a>,
    grids: &Grids<'c, 'a>,
) -> Converted<'c, 'a, Grid> {
    let mut chosen: Option<(String, Grid)> = None;
    for op in pld_ir::collect(function, |n| n.starts_with("shard.")) {
        let Some(name) = source::grid_name(op) else {
            continue;
        };
        match &chosen {
            Some((first, _)) if *first != name => {
                return at(op, Err(format!(
                    "runs on grid @{name}, but the function already runs on @{first}; a converted function runs on one grid"
                )))
            }
            Some(_) => {}
            None => match grids.get(&name) {
                Some((_, Ok(grid))) => chosen = Some((name, grid.clone())),
                Some((grid_op, Err(message))) => return at(*grid_op, Err(message.clone())),
                None => {
                    return at(op, Err(format!("names grid @{name}, which the module does not define")))
                }
            },
        }
    }
    match chosen {
        Some((_, grid)) => Ok(grid),
        None => only_grid(function, grids),
    }
}

/// The grid of a function that names none: the module's only one.
fn only_grid<'c, 'a>(
    function: OperationRef<'c, 'a>,
    grids: &Grids<'c, 'a>,
) -> Converted<'c, 'a, Grid> {
    match grids.values().collect::<Vec<_>>().as_slice() {
        [(_, Ok(grid))] => Ok(grid.clone()),
        [(grid_op, Err(message))] => at(*grid_op, Err(message.clone())),
        [] => at(
            function,
            Err("names no grid, and the module defines none; a converted function runs on a shard.grid".into()),
        ),
        several => {
            let mut names: Vec<String> = grids.keys().map(|n| format!("@{n}")).collect();
            names.sort();
            at(
                function,
                Err(format!(
                    "names no grid, and the module defines {} grids ({}); a converted function runs on one grid, which one of its shard ops must name",
                    several.len(),
                    names.join(", ")
                )),
            )
        }
    }
}

/// Converts `function` into the program of a HOST orchestrator.
pub fn function<'c, 'a>(
    function: OperationRef<'c, 'a>,
    grids: &Grids<'c, 'a>,
    converted: &HashSet<String>,
    taken: HashSet<String>,
) -> Converted<'c, 'a, Program> {
    let grid = function_grid(function, grids)?;
    let name = pld_ir::symbol_name(function).unwrap_or_default();
    // The program's functions are named after it (recheck27b H1, M2).
    if name.is_empty() {
        return at(function, Err("has an empty name; convert-shard-to-pld names the functions it makes after it: give it one".into()));
    }
    if name.contains('\0') {
        let why = pld_dialect::query::NUL_IN_NAME;
        return at(function, Err(format!("has {why}")));
    }
    let mut b = Builder::new(&name, grid, taken, loc(function));
    let region = function.region(0).ok();
    let Some(block) = region.and_then(|r| r.first_block()) else {
        return at(function, Err("has no body".into()));
    };
    if block.next_in_region().is_some() {
        return at(
            function,
            Err(
                "has more than one block; convert-shard-to-pld converts straight-line functions"
                    .into(),
            ),
        );
    }
    // An argument an op uses is refused there when no pld program can
    // take it; one nothing uses (dropped with the signature) here.
    for i in 0..block.argument_count() {
        let Ok(argument) = block.argument(i) else {
            continue;
        };
        let value = argument.into();
        let ty = pld_ir::type_of(value);
        let unranked = ty.is_unranked_tensor() || ty.is_unranked_mem_ref();
        if pld_ir::users(value).is_empty() && (ty.is_mem_ref() || unranked) {
            return at(
                function,
                Err(format!(
                    "takes argument #{i} of type {ty}; convert-shard-to-pld converts ranked \
                     tensors only"
                )),
            );
        }
    }
    let mut next = block.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        if op_name(&op) == "func.call" {
            return at(op, Err(call(op, converted)));
        }
        at(op, convert_op(&mut b, op))?;
    }
    Ok(b.finish())
}

/// Converts one op of the function body.
fn convert_op(b: &mut Builder, op: OperationRef) -> Result<(), Refusal> {
    let name = op_name(&op);
    match name.as_str() {
        "shard.all_reduce" => collectives::all_reduce(b, op),
        "shard.all_gather" => collectives::all_gather(b, op),
        "shard.reduce_scatter" => collectives::reduce_scatter(b, op),
        "shard.all_to_all" => collectives::all_to_all(b, op),
        "shard.broadcast" => collectives::broadcast(b, op),
        "shard.all_slice" => collectives::all_slice(b, op),
        "shard.process_linear_index" | "shard.process_multi_index" | "shard.grid_shape" => {
            process_index(b, op, &name)
        }
        "shard.sharding" => Ok(()),
        "shard.shard" => reshard::shard(b, op),
        "tensor.cast" => cast(b, op),
        "tensor.extract_slice" => slice::extract_slice(b, op),
        "func.return" => returns(b, op),
        _ if name.starts_with("arith.") && integer_results(op) => integer(b, op, &name),
        _ => Err(unsupported(&name)),
    }
}

/// Why a call is refused: the callee is a function the pass converts
/// (`converted`), or computation the table does not hold.
pub fn call(op: OperationRef, converted: &HashSet<String>) -> Refusal {
    let callee = pld_ir::attr::callee(op).unwrap_or_default();
    if converted.contains(&callee) {
        return format!(
            "calls @{callee}, a shard function that convert-shard-to-pld turns into a HOST orchestrator without arguments or results; inline it into its caller first"
        );
    }
    format!(
        "calls @{callee}; a shard function may hold the shard collectives, integer arithmetic on device indices, tensor.cast and tensor.extract_slice, not calls"
    )
}

/// Why this pass will refuse `op`, an op written in a function with
/// sharding annotations, whatever upstream `sharding-propagation` and
/// `shard-partition` make of it first (they keep such an op, per device);
/// `None` when it may be converted. For pld-run to say so before upstream
/// fails on it in its own words (`'arith.addf' op sharding interface is not
/// implemented.`, twice).
pub fn refused_before_partition(op: OperationRef) -> Option<Refusal> {
    let name = op_name(&op);
    let converted = name.starts_with("shard.")
        || name.starts_with("func.")
        || matches!(name.as_str(), "tensor.cast" | "tensor.extract_slice")
        || (name.starts_with("arith.") && integer_results(op));
    (!converted).then(|| unsupported(&name))
}

/// Why an op is not converted.
fn unsupported(name: &str) -> Refusal {
    if name.starts_with("shard.") {
        return "has no pld lowering; convert-shard-to-pld converts shard.all_reduce, all_gather, \
                reduce_scatter, all_to_all, broadcast, all_slice, process_linear_index, \
                process_multi_index and grid_shape, and reshards (shard.shard pairs) of \
                function arguments"
            .into();
    }
    "is not converted by convert-shard-to-pld: a shard function may hold the shard \
     collectives, integer arithmetic on device indices (arith.constant of an integer, addi, subi, muli, \
     divsi, divui, remsi, remui, floordivsi, ceildivsi, ceildivui, maxsi, maxui, minsi, \
     minui, shli, shrsi, shrui, andi, ori, xori, cmpi, select, index_cast, index_castui, \
     extsi, extui, trunci), tensor.cast and tensor.extract_slice; other per-device \
     computation belongs in a pld kernel"
        .into()
}

/// Whether every result of an op is an integer or an index.
fn integer_results(op: OperationRef) -> bool {
    (0..op.result_count()).all(|i| {
        pld_ir::result_at(op, i).is_some_and(|r| {
            let ty = pld_ir::type_of(r);
            ty.is_index() || ty.is_integer()
        })
    })
}

/// `shard.process_linear_index`, `process_multi_index`, `grid_shape`.
fn process_index(b: &mut Builder, op: OperationRef, name: &str) -> Result<(), Refusal> {
    let grid = b.grid.clone();
    let axes = source::axes(op, "axes", &grid)?;
    let axes: Vec<usize> = if axes.is_empty() {
        (0..grid.shape.len()).collect()
    } else {
        axes
    };
    let n = b.devices;
    let values: Vec<PerDevice> = match name {
        "shard.process_linear_index" => vec![PerDevice::from_fn(n, |d| d as i64)],
        "shard.process_multi_index" => axes
            .iter()
            .map(|&a| PerDevice::from_fn(n, |d| grid.coords(d)[a] as i64))
            .collect(),
        _ => axes
            .iter()
            .map(|&a| PerDevice::constant(n, grid.shape[a] as i64))
            .collect(),
    };
    for (i, value) in values.into_iter().enumerate() {
        let result = pld_ir::result_at(op, i).ok_or("has fewer results than axes")?;
        b.set_int(result, value);
    }
    Ok(())
}

/// Integer `arith` ops on device-dependent integers, evaluated per device
/// at their type's width ([`super::arith`]).
fn integer(b: &mut Builder, op: OperationRef, name: &str) -> Result<(), Refusal> {
    let result = pld_ir::result_at(op, 0).ok_or("has no result")?;
    let width = |value| pld_ir::types::bit_width(pld_ir::type_of(value)).unwrap_or(64);
    let operand = |i: usize| pld_ir::operand(op, i).ok_or("lacks an operand");
    let value_of = |b: &Builder, i: usize| -> Result<PerDevice, Refusal> { b.int_of(operand(i)?) };
    let to = width(result);
    let widths = pld_ir::operands(op).into_iter().map(width).chain([to]);
    if widths.max().unwrap_or(0) > 64 {
        return Err("works on integers wider than 64 bits; device indices fit 64".into());
    }
    let value = match name {
        "arith.constant" => PerDevice::constant(b.devices, arith::wrap(constant(op)?.into(), to)),
        "arith.select" => {
            let (condition, then, other) = (value_of(b, 0)?, value_of(b, 1)?, value_of(b, 2)?);
            let chosen = |d: usize| match condition.0[d] {
                0 => other.0[d],
                _ => then.0[d],
            };
            PerDevice::from_fn(b.devices, chosen)
        }
        "arith.cmpi" => {
            let (predicate, from) = (predicate(op)?, width(operand(0)?));
            let compared =
                value_of(b, 0)?.try_zip(&value_of(b, 1)?, |x, y| Some(predicate.apply(x, y, from)));
            compared.map_err(|_| "has malformed operands")?
        }
        _ => match (arith::Cast::from_name(name), arith::IntOp::from_name(name)) {
            (Some(cast), _) => {
                let from = width(operand(0)?);
                let lhs = value_of(b, 0)?;
                PerDevice(lhs.0.iter().map(|v| cast.apply(*v, from, to)).collect())
            }
            (None, Some(int_op)) => {
                let rhs = value_of(b, 1)?;
                value_of(b, 0)?
                    .try_zip(&rhs, |x, y| int_op.apply(x, y, to))
                    .map_err(|device| no_value(int_op, device, rhs.0[device]))?
            }
            (None, None) => return Err(unsupported(name)),
        },
    };
    b.set_int(result, value);
    Ok(())
}

/// An `arith.constant`'s integer (`true` is 1).
fn constant(op: OperationRef) -> Result<i64, Refusal> {
    let value = op.attribute("value").ok();
    value
        .and_then(pld_ir::attr::int)
        .or_else(|| value.and_then(pld_ir::attr::bool_value).map(i64::from))
        .ok_or_else(|| "is not an integer constant".into())
}

/// An `arith.cmpi`'s predicate.
fn predicate(op: OperationRef) -> Result<arith::Predicate, Refusal> {
    op.attribute("predicate")
        .ok()
        .and_then(pld_ir::attr::int)
        .and_then(arith::Predicate::from_number)
        .ok_or_else(|| "has a predicate this pass does not know".into())
}

/// Why `op` has no value on `device`, whose right operand is `rhs`, in
/// MLIR's terms: a shift by the width or more, a division by zero, or the
/// type's minimum divided by -1 (signed division only).
fn no_value(op: arith::IntOp, device: usize, rhs: i64) -> Refusal {
    use arith::IntOp::*;
    let why = match (op, rhs) {
        (ShL | ShRS | ShRU, _) => "shifts by the width or more",
        (_, 0) => "divides by zero",
        _ => "divides the type's minimum by -1",
    };
    format!("{why} on device {device}, where it has no value")
}

/// `tensor.cast` between equal static types: the same slot.
fn cast(b: &mut Builder, op: OperationRef) -> Result<(), Refusal> {
    let source = pld_ir::operand(op, 0).ok_or("has no source")?;
    let result = pld_ir::result_at(op, 0).ok_or("has no result")?;
    if tensor_type(source)? != tensor_type(result)? {
        return Err("changes the static shape".into());
    }
    let slot = b.slot_of(source)?;
    b.bind(result, slot);
    Ok(())
}

/// `func.return`: each returned tensor ends up in a slot `result<N>`.
fn returns(b: &mut Builder, op: OperationRef) -> Result<(), Refusal> {
    let mut named: HashSet<usize> = HashSet::new();
    for (i, value) in pld_ir::operands(op).into_iter().enumerate() {
        if b.is_int(value) {
            return Err(format!(
                "returns a per-device integer (result #{i}); a converted function returns its tensors in window buffers only"
            ));
        }
        let slot = b.slot_of(value)?;
        let name = format!("result{i}");
        let own =
            !b.is_argument(slot) && b.program.slots[slot].groups.is_world() && named.insert(slot);
        if own && !returned_twice(op, value) {
            b.program.slots[slot].name = name;
            continue;
        }
        copy_out(b, op, slot, name)?;
    }
    Ok(())
}

/// Whether `value` is returned more than once.
fn returned_twice(op: OperationRef, value: Value) -> bool {
    pld_ir::operands(op).iter().filter(|v| **v == value).count() > 1
}

/// Copies `slot` into a new slot of the whole grid named `name`.
fn copy_out(b: &mut Builder, op: OperationRef, slot: usize, name: String) -> Result<(), Refusal> {
    let ty = b.program.slots[slot].ty.clone();
    let world = b.world();
    let result = b.slot(name.clone(), ty.clone(), world, &loc(op));
    let copy = layout::whole(b.devices, 0, 1, ty.elements());
    b.kernel(
        &format!("copy_{name}"),
        &[slot, result],
        vec![Action::Copy(copy)],
        &loc(op),
    )
}
