//! The kernels of a module already converted by `pld-to-pto`, described
//! for running: their parameters come from `pld.signature` (the function
//! type as written, which `convert-pld-to-pto` keeps), their signals from
//! the PTO signal ops (the pointers a `pto.comm_twait` or `pto.comm_ttest`
//! watches, or an adding `pto.comm_tnotify` adds to).

use crate::program::model::{tensor_param, KernelInfo};
use melior::ir::{
    operation::{OperationLike, OperationResult},
    r#type::FunctionType,
    OperationRef, RegionLike, Value,
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
            )?);
        }
        let mut signals = Vec::new();
        let mut cells = Vec::new();
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
            let param = argument.and_then(|a| param_of_input.get(a).copied().flatten());
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
        });
    }
    Ok(kernels)
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
