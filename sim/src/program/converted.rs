//! The kernels of a module already converted by `pld-to-pto`, described
//! for running: their parameters come from `pld.signature` (the function
//! type as written, which `convert-pld-to-pto` keeps), their signals from
//! the PTO signal ops (the pointers a `pto.comm_twait` or `pto.comm_ttest`
//! watches, or an adding `pto.comm_tnotify` adds to).

use crate::program::model::{location, tensor_param, KernelInfo, Param};
use melior::ir::{
    operation::{OperationLike, OperationResult},
    r#type::FunctionType,
    OperationRef, RegionLike, Type, Value,
};
use pld_dialect::ops::pto;
use pld_ir::op_name;

/// The converted kernels of `module` (functions with `pto.kernel_kind`,
/// a body and `pld.signature`); an error names a kernel that has no
/// signature or a parameter the simulator cannot fill.
pub(crate) fn describe(module: &melior::ir::Module) -> Result<Vec<KernelInfo>, String> {
    let mut kernels = Vec::new();
    for function in pld_ir::functions(module.as_operation()) {
        let has_body = function
            .region(0)
            .ok()
            .and_then(|r| r.first_block())
            .is_some();
        if function.attribute("pto.kernel_kind").is_err() || !has_body {
            continue;
        }
        let name = pld_ir::symbol_name(function).unwrap_or_default();
        // (Compiling it said only "could not convert to LLVM IR".)
        if let Some(op) = pld_ir::collect(function, |n| n.starts_with("pld.")).first() {
            return Err(format!(
                "{}: '{}' op in @{name}, a kernel converted by pld-to-pto (pto.kernel_kind): \
                 the simulator runs a converted kernel's PTO, arith, scf and func ops; run \
                 pld-to-pto on the module that holds it",
                location(*op),
                op_name(op)
            ));
        }
        // As PTOAS (pld-translate --emit=pto): a converted kernel holds
        // func, arith, scf and pto ops only (a cast that makes an event
        // failed to compile, in the words of a call it never wrote).
        let foreign = |n: &str| {
            let dialect = n.split('.').next().unwrap_or_default();
            !matches!(dialect, "func" | "arith" | "scf" | "pto")
        };
        if let Some(op) = pld_ir::collect(function, foreign).first() {
            return Err(format!(
                "{}: '{}' op has no PTO form: a converted kernel holds func, arith, scf and pto \
                 ops only",
                location(*op),
                op_name(op)
            ));
        }
        let signature = function
            .attribute(pld_backend::convert::SIGNATURE)
            .ok()
            .and_then(pld_ir::attr::type_value)
            .and_then(|t| FunctionType::try_from(t).ok())
            .ok_or_else(|| {
                format!(
                    "@{name} has no {} (the tensor types it was converted from); convert it \
                     with this version of pld-to-pto",
                    pld_backend::convert::SIGNATURE
                )
            })?;
        // Converted parameter i is original input i; contexts are passed by
        // the runner, so parameters are numbered without them.
        let mut params = Vec::new();
        let mut param_of_input = Vec::new();
        for i in 0..signature.input_count() {
            let input = signature.input(i).map_err(|e| e.to_string())?;
            if input.to_string() == "!pld.ctx" {
                param_of_input.push(None);
                continue;
            }
            param_of_input.push(Some(params.len()));
            params.push(tensor_param(
                function,
                &name,
                i,
                input,
                &format!("arg{}", params.len()),
            ));
        }
        // A kernel that only other kernels call, with what they pass it
        // (an index, say), runs with them, not by itself (the pass refused
        // the whole module for it while pld-run ran it: recheck26 M3).
        let params = match params.into_iter().collect::<Result<Vec<Param>, String>>() {
            Ok(params) => params,
            Err(_)
                if crate::program::model::called_by_kernels_only(module.as_operation(), &name) =>
            {
                continue
            }
            Err(e) => return Err(e),
        };
        check_arguments(function, &name, &signature, &params)?;
        let mut signals = Vec::new();
        let mut cells = Vec::new();
        for (adds, argument) in signal_uses(function) {
            let param = param_of_input.get(argument).copied().flatten();
            cells.extend(param);
            if let (true, Some(param)) = (adds, param) {
                signals.push(param);
            }
        }
        signals.sort_unstable();
        signals.dedup();
        cells.sort_unstable();
        cells.dedup();
        kernels.push(KernelInfo {
            name,
            params,
            collectives: Vec::new(),
            signals,
            cells,
            other_writes: Vec::new(),
            called_collective: None,
        });
    }
    Ok(kernels)
}

/// Refuses a kernel whose `pld.signature` is not the one it was converted
/// from, or whose arguments are not what the simulator passes it (each
/// parameter's pointer, then a context pointer per distributed one: the
/// layout `pld-materialize-dist-tensor-ctx` and `convert-pld-to-pto` give a
/// kernel). A signature edited by hand could otherwise hand the kernel a
/// context where it reads none, or none where it reads one (a crash in the
/// kernel's own loads of its context).
fn check_arguments(
    function: OperationRef,
    name: &str,
    signature: &FunctionType,
    params: &[Param],
) -> Result<(), String> {
    let refuse = |what: String| format!("{}: @{name}: {what}", location(function));
    let function_type = function
        .attribute("function_type")
        .ok()
        .and_then(pld_ir::attr::type_value)
        .and_then(|t| FunctionType::try_from(t).ok())
        .ok_or_else(|| refuse("has no function type".into()))?;
    let shown = |types: &[Type]| -> Vec<String> { types.iter().map(Type::to_string).collect() };
    let taken = shown(&inputs(&function_type));
    let written = inputs(signature);
    // Each entry of the signature as convert-pld-to-pto converts it.
    let converted: Vec<String> = written
        .iter()
        .map(|input| match pld_dialect::types::tensor_info(*input) {
            _ if input.to_string() == "!pld.ctx" => "!pto.ptr<i64>".to_string(),
            Ok(Some(info)) if info.kind != pld_dialect::types::TensorKind::Tile => {
                format!("!pto.ptr<{}>", info.element)
            }
            _ => input.to_string(),
        })
        .collect();
    let written = shown(&written);
    if converted != taken {
        return Err(refuse(format!(
            "its pld.signature ({}) is not the one it was converted from: it converts to ({}), \
             but the function takes ({})",
            written.join(", "),
            converted.join(", "),
            taken.join(", ")
        )));
    }
    let passed: Vec<String> = params
        .iter()
        .map(|p| format!("!pto.ptr<{}>", p.dtype.name()))
        .chain(
            params
                .iter()
                .filter(|p| p.distributed)
                .map(|_| "!pto.ptr<i64>".into()),
        )
        .collect();
    if passed != taken {
        return Err(refuse(format!(
            "takes ({}), but the simulator passes a kernel of pld.signature ({}) its \
             tensors' pointers and then a context per distributed tensor: ({})",
            taken.join(", "),
            written.join(", "),
            passed.join(", ")
        )));
    }
    Ok(())
}

/// The input types of a function type.
fn inputs<'c>(ty: &FunctionType<'c>) -> Vec<Type<'c>> {
    (0..ty.input_count())
        .filter_map(|i| ty.input(i).ok())
        .collect()
}

/// The PTO signal ops of `function` and of the kernels it calls (helpers),
/// each as whether it counts credits (a wait, a test, an adding notify)
/// and the argument of `function` its cell derives from (a signal used
/// only through a helper is the kernel's signal too).
fn signal_uses(function: OperationRef) -> Vec<(bool, usize)> {
    crate::program::model::signal_uses_through_calls(function, &own_signal_uses, &argument_of)
}

/// The PTO signal ops of `function` itself (see [`signal_uses`]).
fn own_signal_uses(function: OperationRef) -> Vec<(bool, usize)> {
    let mut uses = Vec::new();
    for op in pld_ir::collect(function, |n| {
        n == pto::CommTNotify::NAME || n == pto::CommTWait::NAME || n == pto::CommTTest::NAME
    }) {
        let adds = op_name(&op) != pto::CommTNotify::NAME
            || op
                .attribute("notifyOp")
                .ok()
                .and_then(|a| pld_ir::attr::enum_payload(a, "pto.notify_op"))
                .as_deref()
                == Some("atomic_add");
        let argument = pld_ir::operand(op, 0).and_then(|v| argument_of(v, function));
        uses.extend(argument.map(|a| (adds, a)));
    }
    uses
}

/// The entry-block argument a view or pointer derives from, through
/// `pto.partition_view`, `pto.make_tensor_view` and `pto.addptr`.
fn argument_of(value: Value, function: OperationRef) -> Option<usize> {
    let mut value = value;
    for _ in 0..64 {
        if let Some(site) = pld_ir::nav::argument_site(value) {
            let entry = site.entry_block && site.region_is_first && site.parent == function;
            return entry.then_some(site.number);
        }
        let op: OperationRef = OperationResult::try_from(value).ok()?.owner();
        let name = op_name(&op);
        let derives = [
            pto::PartitionView::NAME,
            pto::MakeTensorView::NAME,
            pto::AddPtr::NAME,
        ]
        .contains(&name.as_str());
        if !derives {
            return None;
        }
        value = pld_ir::operand(op, 0)?;
    }
    None
}
