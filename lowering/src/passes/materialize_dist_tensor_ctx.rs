//! `pld-materialize-dist-tensor-ctx`: makes the CommContext
//! dataflow explicit.
//!
//! Docs: `docs/passes/pld-materialize-dist-tensor-ctx.md`; tests: `tests/lit/passes/pld-materialize-dist-tensor-ctx/`.
//!
//! 1. Every non-HOST function with distributed-tensor parameters gets one
//!    trailing `!pld.ctx` parameter per distributed parameter, in order.
//! 2. Every `func.call` of such a function passes the matching contexts:
//!    the caller's own context parameter when the argument derives from one
//!    of the caller's distributed parameters (through views, collective
//!    results, loop-carried values and callee results that return a
//!    parameter); in a HOST orchestrator an unresolved argument gets
//!    `pld.system_get_comm_ctx` right before the call; elsewhere it is an
//!    error.
//! 3. Outside HOST orchestrators `pld.system_get_comm_ctx(%t)` is replaced by
//!    the context it resolves to (HOST keeps the op: the host code generator
//!    reads the window's runtime context).
//!
//! A function whose signature already ends in its contexts is left as is,
//! so the pass is idempotent.

use crate::trace::{trace, Carry};
use melior::{
    ir::{operation::OperationLike, r#type::FunctionType, OperationRef, Type, Value},
    pass::Pass,
    Context,
};
use pld_dialect::{
    enums::FuncKind,
    ops::{ctx::GetCommCtx, OpView},
    query::function_kind,
    types::{tensor_info, TensorKind},
};
use pld_ir as ir;
use pld_ir::pass::{external, Anchor, PassFailed, PassIdentity, PldPass, Report};
use std::collections::HashMap;

#[derive(Clone, Default)]
pub struct MaterializeDistTensorCtx;

impl PldPass for MaterializeDistTensorCtx {
    const ARGUMENT: &'static str = "pld-materialize-dist-tensor-ctx";
    const NAME: &'static str = "PldMaterializeDistTensorCtx";
    const SUMMARY: &'static str =
        "Give functions one !pld.ctx parameter per distributed parameter and pass contexts explicitly";

    const ANCHOR: Anchor = Anchor::Module;

    fn run(&self, context: &Context, root: OperationRef) -> Result<(), PassFailed> {
        let module = root;
        let mut report = Report::default();
        let functions = ir::collect(module, |n| n == "func.func");
        for &function in &functions {
            crate::order::refuse_unlowered(&mut report, function, Self::ARGUMENT);
        }
        if report.failed() {
            return report.finish();
        }

        let contexts = signatures(context, &functions);
        // 2. Calls, and 3. get_comm_ctx.
        let mut rebound = std::collections::HashSet::new();
        for function in &functions {
            let host = function_kind(*function) == Ok(Some(FuncKind::Host));
            let own = ir::symbol_name(*function).and_then(|n| contexts.get(&n).cloned());
            let resolve = |value| resolve(*function, own.as_deref(), value);
            let mut cx = Rebinding {
                report: &mut report,
                rebound: &mut rebound,
            };
            for call in ir::collect(*function, |n| n == "func.call") {
                cx.call(context, call, &contexts, host, &resolve);
            }
            if !host {
                cx.get_comm_ctx(*function, &resolve);
            }
        }
        report.finish()
    }
}

/// A function's contexts: `contexts[f]` lists f's distributed parameters
/// with the index of their context parameter.
type Contexts = HashMap<String, Vec<(usize, usize)>>;

/// Step 1, the signatures: every non-HOST function with distributed
/// parameters gets (or already has) a trailing CommContext parameter for
/// each.
fn signatures(context: &Context, functions: &[OperationRef]) -> Contexts {
    // 1. Signatures. `contexts[f]` lists f's distributed parameters
    // with the index of their context parameter.
    let mut contexts: HashMap<String, Vec<(usize, usize)>> = HashMap::new();
    for function in functions {
        if function_kind(*function) == Ok(Some(FuncKind::Host)) {
            continue;
        }
        let Some(name) = ir::symbol_name(*function) else {
            continue;
        };
        let Some(ty) = ir::function_type(*function) else {
            continue;
        };
        let inputs: Vec<Type> = (0..ty.input_count())
            .filter_map(|i| ty.input(i).ok())
            .collect();
        let distributed: Vec<usize> = inputs
            .iter()
            .enumerate()
            .filter(|(_, t)| is_distributed(**t))
            .map(|(i, _)| i)
            .collect();
        if distributed.is_empty() {
            continue;
        }
        let ctx_type = ctx_type(context);
        let trailing = inputs.iter().rev().take_while(|t| **t == ctx_type).count();
        let first_ctx = if trailing == distributed.len() {
            inputs.len() - trailing
        } else {
            add_parameters(context, *function, &ty, distributed.len());
            inputs.len()
        };
        contexts.insert(
            name,
            distributed
                .iter()
                .enumerate()
                .map(|(k, param)| (*param, first_ctx + k))
                .collect(),
        );
    }

    contexts
}

/// Where steps 2 and 3 report, and the loops already reported.
struct Rebinding<'r> {
    report: &'r mut Report,
    rebound: &'r mut std::collections::HashSet<usize>,
}

/// A value's CommContext (see [`resolve`]).
type Resolve<'x, 'c, 'a> =
    dyn Fn(Value<'c, 'a>) -> Result<Option<Value<'c, 'a>>, (OperationRef<'c, 'a>, Carry)> + 'x;

impl Rebinding<'_> {
    /// Step 2: a call of a function with contexts passes them.
    fn call<'c, 'a>(
        &mut self,
        context: &'c Context,
        call: OperationRef<'c, 'a>,
        contexts: &Contexts,
        host: bool,
        resolve: &Resolve<'_, 'c, 'a>,
    ) where
        'c: 'a,
    {
        let Some(callee) = pld_ir::attr::callee(call) else {
            return;
        };
        let Some(needed) = contexts.get(&callee) else {
            return;
        };
        let arguments: Vec<Value> = call.operands().collect();
        if arguments.len() == needed.last().map_or(0, |(_, c)| c + 1) {
            return; // already passes its contexts
        }
        let mut extra = Vec::new();
        for (param, _) in needed {
            let Some(argument) = arguments.get(*param).copied() else {
                continue;
            };
            match resolve(argument) {
                Err((carrier, why)) => {
                    // Once per loop, however many uses flow through it.
                    if self.rebound.insert(carrier.to_raw().ptr as usize) {
                        self.report.error(carrier, why.message());
                    }
                }
                Ok(Some(ctx)) => extra.push(ctx),
                Ok(None) if host => extra.push(ir::result(ir::insert_before(
                    call,
                    GetCommCtx::builder(context, call.location())
                        .tensor(argument)
                        .result(ctx_type(context))
                        .build(),
                ))),
                Ok(None) => self.report.error(
                    call,
                    &format!(
                        "cannot find the CommContext of argument #{param} of the call to \
                                 @{callee}{}: it does not derive from one distributed parameter \
                                 of this function (followed through views, loop carries, scf.if \
                                 results whose branches yield the same window, and calls that \
                                 return a parameter)",
                        written_as(call)
                    ),
                ),
            }
        }
        if extra.len() == needed.len() {
            let mut operands = arguments;
            operands.extend(extra);
            ir::set_operands(call, &operands);
        }
    }

    /// Step 3: `get_comm_ctx` of a tensor becomes the context it derives from.
    fn get_comm_ctx<'c, 'a>(
        &mut self,
        function: OperationRef<'c, 'a>,
        resolve: &Resolve<'_, 'c, 'a>,
    ) where
        'c: 'a,
    {
        for op in ir::collect(function, |n| n == GetCommCtx::NAME) {
            let Some(tensor) = OpView::new(op).and_then(|v| v.one("tensor")) else {
                continue;
            };
            match resolve(tensor) {
                Err((carrier, why)) => {
                    if self.rebound.insert(carrier.to_raw().ptr as usize) {
                        self.report.error(carrier, why.message());
                    }
                }
                Ok(Some(ctx)) => {
                    ir::replace_all_uses(ir::result(op), ctx);
                    ir::erase(op);
                }
                Ok(None) => self.report.error(
                    op,
                    "cannot resolve the CommContext: the tensor does not derive from a \
                     distributed parameter of this function",
                ),
            }
        }
    }
}

fn ctx_type(context: &Context) -> Type<'_> {
    Type::parse(context, "!pld.ctx").expect("!pld.ctx parses")
}

fn is_distributed(ty: Type) -> bool {
    matches!(tensor_info(ty), Ok(Some(info)) if info.kind == TensorKind::Distributed)
}

/// Appends `count` context parameters to `function` (signature, entry
/// block and argument attributes).
fn add_parameters<'c>(
    context: &'c Context,
    function: OperationRef<'c, '_>,
    ty: &FunctionType<'c>,
    count: usize,
) {
    let ctx = ctx_type(context);
    let mut inputs: Vec<Type> = (0..ty.input_count())
        .filter_map(|i| ty.input(i).ok())
        .collect();
    let results: Vec<Type> = (0..ty.result_count())
        .filter_map(|i| ty.result(i).ok())
        .collect();
    inputs.extend(std::iter::repeat_n(ctx, count));
    ir::retype_function(context, function, &inputs, &results);
}

/// The context parameter of `function` that belongs to the parameter
/// `value` derives from (`own` pairs parameters with their contexts);
/// `Err` when a loop it flows through has no single window for its carry.
fn resolve<'c, 'a>(
    function: OperationRef<'c, 'a>,
    own: Option<&[(usize, usize)]>,
    value: Value<'c, 'a>,
) -> Result<Option<Value<'c, 'a>>, (OperationRef<'c, 'a>, Carry)>
where
    'c: 'a,
{
    let param = trace(value)?;
    Ok(param.and_then(|param| {
        let (_, ctx) = own?.iter().find(|(p, _)| *p == param)?;
        ir::entry_arguments(function, 0).get(*ctx).copied()
    }))
}

/// ` (the CHIP rail's lowering of pld.tensor_all_to_all_v)` for a call of
/// a synthesized builtin kernel, whose call the user did not write.
fn written_as(call: OperationRef) -> String {
    let callee = pld_ir::attr::callee(call).unwrap_or_default();
    let module = ir::enclosing_function(call).and_then(|f| f.parent_operation());
    let builtin = module
        .and_then(|m| ir::find_function(m, &callee))
        .and_then(pld_dialect::query::builtin_template);
    match builtin.as_deref().and_then(|h| h.rsplit('.').next()) {
        Some(package) => format!(" (the CHIP rail's lowering of pld.tensor_{package})"),
        None => String::new(),
    }
}

static IDENTITY: PassIdentity = PassIdentity;

/// Creates the pass.
pub fn create() -> Pass {
    external(MaterializeDistTensorCtx, &IDENTITY)
}
