//! `convert-pld-to-pto`: device kernels in PTO.
//!
//! Docs: `docs/passes/convert-pld-to-pto.md`; tests: `tests/lit/passes/convert-pld-to-pto/`.
//!
//! Tensor parameters become `!pto.ptr<T>` and CommContexts
//! `!pto.ptr<i64>`; tiles become vector tile buffers whose valid extents are
//! run-time values, so that `set_validshape` and fill-pad update a buffer in
//! place. Every remote op computes its peer's address inline (docs/passes/convert-pld-to-pto.md);
//! the op sequences are those of docs/passes/convert-pld-to-pto.md, with barrier and cache
//! placement as PTOAS expects today (docs/passes/convert-pld-to-pto.md, "Barriers and caches"). After the pass
//! a kernel holds only `func`, `arith`, `scf` and `pto` ops.
//!
//! HOST and CHIP orchestrators are left alone: they are not PTO code; so
//! are the builtin kernels the CHIP rail synthesizes (`builtin_template_dir`),
//! whose code is their rendered template.

mod carry;
mod ops;
mod remote;
mod system;
mod tiles;
mod types;
mod views;

use melior::{
    ir::{
        operation::OperationLike, r#type::FunctionType, Attribute, OperationRef, Type, TypeLike,
        Value, ValueLike,
    },
    pass::Pass,
    Context,
};
use pld_dialect::ops::tile::TensorView;
use pld_dialect::{
    enums::FuncKind,
    query::{builtin_template, function_kind},
    types::{tensor_info, TensorKind},
};
use pld_ir::op_name;
use pld_ir::{
    self as ir,
    pass::{external, Anchor, PassFailed, PassIdentity, PldPass, Report},
};
use std::collections::HashMap;
use views::{describe, Globals};

/// The attribute on a converted kernel holding its function type as
/// written: `pld.signature = (tensor<1x64xf32, #pld.dist>, ...) -> ()`.
pub const SIGNATURE: &str = "pld.signature";

#[derive(Clone, Default)]
pub struct ConvertPldToPto;

impl PldPass for ConvertPldToPto {
    const ARGUMENT: &'static str = "convert-pld-to-pto";
    const NAME: &'static str = "ConvertPldToPto";
    const SUMMARY: &'static str =
        "Convert device kernels to the PTO dialect: pointers, tile buffers, inline peer addressing, comm ops";

    const ANCHOR: Anchor = Anchor::Module;

    fn run(&self, context: &Context, root: OperationRef) -> Result<(), PassFailed> {
        let mut report = Report::default();
        let functions = ir::functions(root);
        let mut kernels = HashMap::new();
        for function in &functions {
            if !function_kind(*function)
                .ok()
                .flatten()
                .is_some_and(FuncKind::is_device)
            {
                continue;
            }
            // A synthesized builtin kernel (CHIP rail) is rendered from its
            // template, never compiled: its placeholder body stays as is.
            if builtin_template(*function).is_some() {
                continue;
            }
            if Type::parse(context, "!pto.ptr<i32>").is_none() {
                report.error(
                    *function,
                    "convert-pld-to-pto needs the pto dialect, which this context has not \
                     loaded: with mlir-opt, give --irdl-file=<prefix>/share/pld/pld-and-pto.irdl.mlir \
                     (pld.irdl.mlir holds the pld dialect alone)",
                );
                break;
            }
            if let Err((call, message)) = helper_calls(*function, &functions) {
                report.error(call, &message);
                continue;
            }
            match convert(context, *function) {
                Err((op, message)) => report.error(op, &message),
                Ok(()) => {
                    if let (Some(name), Some(ty)) =
                        (ir::symbol_name(*function), ir::function_type(*function))
                    {
                        kernels.insert(name, ty);
                    }
                }
            }
        }
        bridge_calls(&functions, &kernels);
        report.finish()
    }
}

type Failure<'c, 'a> = (OperationRef<'c, 'a>, String);

/// A kernel's calls of functions without `pld.kind` pass and get scalars
/// only: this pass converts the signatures of kernels, so a helper's tensor
/// parameter would keep its type while the kernel's value became a pointer.
fn helper_calls<'c, 'a>(
    kernel: OperationRef<'c, 'a>,
    functions: &[OperationRef<'c, 'a>],
) -> Result<(), Failure<'c, 'a>> {
    for call in ir::collect(kernel, |n| n == "func.call") {
        let Some(name) = pld_ir::attr::callee(call) else {
            continue;
        };
        let Some(callee) = functions
            .iter()
            .find(|f| ir::symbol_name(**f).as_deref() == Some(name.as_str()))
        else {
            continue;
        };
        if !matches!(function_kind(*callee), Ok(None)) {
            continue; // a kernel (converted too) or an orchestrator (D13)
        }
        let Some(ty) = ir::function_type(*callee) else {
            continue;
        };
        let types = (0..ty.input_count())
            .filter_map(|i| ty.input(i).ok())
            .chain((0..ty.result_count()).filter_map(|i| ty.result(i).ok()));
        if let Some(wrong) = types.into_iter().find(|t| !is_scalar(*t)) {
            let results = match ty.result_count() > 0 {
                true => {
                    " (a kernel returns nothing: give its results back through a tensor \
                          parameter)"
                }
                false => "",
            };
            return Err((
                call,
                format!(
                    "calls @{name}, a function without pld.kind, whose \
                     signature has {wrong}: convert-pld-to-pto converts the signatures of \
                     kernels only, so a kernel's helper takes and returns scalars (index, \
                     integers, floats); give @{name} pld.kind = #pld.func_kind<\"incore\"> \
                     to have it converted as a kernel{results}"
                ),
            ));
        }
    }
    Ok(())
}

fn is_scalar(ty: Type) -> bool {
    ty.is_index() || ty.is_integer() || ty.is_float()
}

/// Orchestrators keep calling converted kernels with tensors and contexts:
/// each argument whose type the kernel's conversion changed is passed
/// through a `builtin.unrealized_conversion_cast` to the kernel's new
/// parameter type, so the call verifies. Orchestration is not PTO code (the
/// simulator runs it and looks through the casts; a device toolchain builds
/// its task arguments from the original tensors).
fn bridge_calls<'c>(
    functions: &[OperationRef<'c, '_>],
    kernels: &HashMap<String, FunctionType<'c>>,
) {
    for function in functions {
        if function_kind(*function)
            .ok()
            .flatten()
            .is_some_and(FuncKind::is_device)
        {
            continue;
        }
        for call in ir::collect(*function, |n| n == "func.call") {
            let Some(ty) = pld_ir::attr::callee(call).and_then(|callee| kernels.get(&callee))
            else {
                continue;
            };
            let arguments = ir::operands(call);
            if arguments.len() != ty.input_count() {
                continue; // the verifier reports the arity
            }
            let bridged: Vec<Value> = arguments
                .iter()
                .enumerate()
                .map(|(i, argument)| {
                    let want = ty.input(i).expect("checked count");
                    if argument.r#type() == want {
                        return *argument;
                    }
                    let cast = melior::ir::operation::OperationBuilder::new(
                        "builtin.unrealized_conversion_cast",
                        call.location(),
                    )
                    .add_operands(&[*argument])
                    .add_results(&[want])
                    .build()
                    .expect("a cast builds");
                    ir::result(ir::insert_before(call, cast))
                })
                .collect();
            ir::set_operands(call, &bridged);
        }
    }
}

fn convert<'c, 'a>(
    context: &'c Context,
    function: OperationRef<'c, 'a>,
) -> Result<(), Failure<'c, 'a>>
where
    'c: 'a,
{
    let fail = |message: String| (function, message);
    let ty = pld_ir::attr::type_value(
        function
            .attribute("function_type")
            .map_err(|_| fail("no type".into()))?,
    )
    .and_then(|t| FunctionType::try_from(t).ok())
    .ok_or_else(|| fail("malformed function type".into()))?;
    if ty.result_count() > 0 {
        return Err(fail("a PTO kernel returns nothing".into()));
    }
    let inputs: Vec<Type> = (0..ty.input_count())
        .filter_map(|i| ty.input(i).ok())
        .collect();

    unstructured_carries(function)?;
    // The parameters first: a dynamic shape is refused as such, not at the
    // tensor.dim pld-lower-composite-ops reads it with.
    let (parameters, context_of) = parameters(context, function, &inputs)?;
    foreign_parameter_uses(function, &inputs)?;
    let globals = Globals { parameters };

    // The ops, in program order.
    let mut converter = ops::Converter {
        context,
        globals: &globals,
        context_of: &context_of,
    };
    for op in ir::collect(function, |n| n.starts_with("pld.")) {
        if op_name(&op) == TensorView::NAME {
            continue;
        }
        converter.convert(op).map_err(|message| (op, message))?;
    }
    // Tensors carried by loops and branches (the rebind idiom) become the
    // pointer of the parameter they derive from.
    carry_pointers(context, function, &globals)?;
    // Views were only read through `Globals`; they go last, users first.
    // A view still used here is used by an op that is not pld's (a call,
    // a cast, tensor.extract): the view has no PTO value to give it, and
    // erasing it would leave that op reading a freed value.
    for op in ir::collect(function, |n| n == TensorView::NAME)
        .into_iter()
        .rev()
    {
        let foreign = op
            .results()
            .flat_map(|r| ir::users(r.into()))
            .find(|user| !op_name(user).starts_with("pld."));
        if let Some(user) = foreign {
            return Err((
                user,
                "uses the result of a pld.tensor_view, which has no PTO form outside the pld \
                 ops of a kernel: pass the parameter itself, or read the view with pld ops"
                    .to_string(),
            ));
        }
        ir::erase(op);
    }

    // Tiles carried by loops get buffers of their own.
    converter
        .carry_tiles(function)
        .map_err(|message| (function, message))?;
    // Tile-typed loop, branch and select values become tile buffers.
    for op in ir::collect(function, |n| n.starts_with("scf.") || n == "arith.select") {
        for result in op.results() {
            retype_tile(context, result.into()).map_err(|m| (op, m))?;
        }
        for region in 0..op.region_count() {
            for argument in ir::entry_arguments(op, region) {
                retype_tile(context, argument).map_err(|m| (op, m))?;
            }
        }
    }

    retype_signature(context, function, &inputs);

    if let Some(left) = ir::collect(function, |n| n.starts_with("pld.")).first() {
        return Err((*left, "convert-pld-to-pto left this op unconverted".into()));
    }
    Ok(())
}

/// Tensors and tiles are carried through `scf` ops and `arith.select`
/// only: a loop of another dialect (`affine.for`) or a branch passing one
/// to a block (`cf.br`) is refused at that op, naming the value's type.
fn unstructured_carries<'c, 'a>(function: OperationRef<'c, 'a>) -> Result<(), Failure<'c, 'a>> {
    for op in ir::collect(function, |n| {
        !n.starts_with("scf.") && !n.starts_with("pld.")
    }) {
        let mut carried: Vec<Value> = Vec::new();
        if op.region_count() > 0 {
            carried.extend(op.results().map(Value::from));
            for region in 0..op.region_count() {
                carried.extend(ir::entry_arguments(op, region));
            }
        }
        if op.successor_count() > 0 {
            carried.extend(ir::operands(op));
        }
        let pld_typed = carried.iter().find_map(|v| match tensor_info(v.r#type()) {
            Ok(Some(info)) => Some((v.r#type(), info.kind == TensorKind::Tile)),
            _ => None,
        });
        if let Some((ty, tile)) = pld_typed {
            let advice = match tile {
                true => {
                    "convert-pld-to-pto carries tiles through scf ops (scf.for, scf.while, \
                     scf.if, scf.index_switch) and arith.select only; write this control flow \
                     with scf"
                }
                false => {
                    "convert-pld-to-pto gives a kernel's tensors (its parameters and views of \
                     them) their pointers through scf ops only, the same tensor on every path; \
                     use the tensor itself where it is needed instead of passing it on"
                }
            };
            return Err((op, format!("carries a {ty} value: {advice}")));
        }
    }
    Ok(())
}

/// The ops other than pld's that may take a tensor parameter as it is:
/// the loops, branches and yields that carry it (the rebind idiom, which
/// the conversion follows) and calls (refused or bridged by their own
/// rules).
const CARRIERS: [&str; 11] = [
    "scf.for",
    "scf.yield",
    "scf.if",
    "scf.while",
    "scf.condition",
    "cf.br",
    "cf.cond_br",
    "func.call",
    "affine.for",
    "affine.yield",
    "affine.if",
];

/// Refuses an op that is not pld's and uses a tensor parameter directly
/// (`tensor.dim %x`, `tensor.extract`, `tensor.cast`): the parameter
/// becomes a `!pto.ptr<T>`, and the op then failed MLIR's verifier on a
/// type the user never wrote.
fn foreign_parameter_uses<'c, 'a>(
    function: OperationRef<'c, 'a>,
    inputs: &[Type<'c>],
) -> Result<(), Failure<'c, 'a>>
where
    'c: 'a,
{
    for (i, argument) in ir::entry_arguments(function, 0).into_iter().enumerate() {
        let tensor = inputs
            .get(i)
            .is_some_and(|t| matches!(tensor_info(*t), Ok(Some(_))));
        if !tensor {
            continue;
        }
        let foreign = ir::users(argument).into_iter().find(|user| {
            let name = op_name(user);
            !name.starts_with("pld.") && !CARRIERS.contains(&name.as_str())
        });
        if let Some(user) = foreign {
            return Err((
                user,
                format!(
                    "uses the tensor parameter #{i} ({}) directly, which convert-pld-to-pto \
                     turns into a pointer (!pto.ptr): read it with pld ops \
                     (pld.tensor_read, pld.tile_load) instead",
                    argument.r#type()
                ),
            ));
        }
    }
    Ok(())
}

/// Each tensor parameter's global view, and each distributed one's
/// CommContext parameter, by parameter number.
type Parameters<'c, 'a> = (
    HashMap<usize, views::Global<'c, 'a>>,
    HashMap<usize, Value<'c, 'a>>,
);

fn parameters<'c, 'a>(
    context: &'c Context,
    function: OperationRef<'c, 'a>,
    inputs: &[Type<'c>],
) -> Result<Parameters<'c, 'a>, Failure<'c, 'a>>
where
    'c: 'a,
{
    let fail = |message: String| (function, message);
    let arguments = ir::entry_arguments(function, 0);
    // its CommContext (they follow in order).
    let ctx_type = Type::parse(context, "!pld.ctx").expect("!pld.ctx parses");
    let mut parameters = HashMap::new();
    let mut distributed = Vec::new();
    for (i, input) in inputs.iter().enumerate() {
        if input.is_tensor() && !input.is_ranked_tensor() {
            return Err(fail(format!(
                "PTO conversion needs static tensor shapes at kernel boundaries: parameter #{i} \
                 is {input}, of no rank"
            )));
        }
        if let Ok(Some(info)) = tensor_info(*input) {
            if info.kind == TensorKind::Tile {
                return Err(fail(format!(
                    "parameter #{i} is a tile; kernels take tensors"
                )));
            }
            if info.kind == TensorKind::Distributed {
                distributed.push(i);
            }
            if let Some(argument) = arguments.get(i) {
                let name = format!("parameter #{i}");
                let described = describe(*argument, i, &info, (&name, *input));
                parameters.insert(i, described.map_err(fail)?);
            }
        }
    }
    let contexts: Vec<usize> = inputs
        .iter()
        .enumerate()
        .filter(|(_, t)| **t == ctx_type)
        .map(|(i, _)| i)
        .collect();
    if contexts.len() != distributed.len() {
        return Err(fail(format!(
            "{} distributed parameters but {} CommContext parameters: run \
             pld-materialize-dist-tensor-ctx before PTO codegen",
            distributed.len(),
            contexts.len()
        )));
    }
    let context_of: HashMap<usize, Value> = distributed
        .iter()
        .zip(&contexts)
        .filter_map(|(d, c)| Some((*d, *arguments.get(*c)?)))
        .collect();
    Ok((parameters, context_of))
}

/// The converted signature (pointers for tensors and contexts), the one
/// as written kept in `pld.signature`, and the kernel kind.
fn retype_signature<'c>(context: &'c Context, function: OperationRef<'c, '_>, inputs: &[Type<'c>]) {
    let ctx_type = Type::parse(context, "!pld.ctx").expect("!pld.ctx parses");
    let converted: Vec<Type> = inputs
        .iter()
        .map(|input| {
            if *input == ctx_type {
                types::context_pointer(context)
            } else if let Ok(Some(info)) = tensor_info(*input) {
                types::pointer(context, info.element)
            } else {
                *input
            }
        })
        .collect();
    // The signature as written (tensor shapes and layouts), for tools that
    // run converted kernels: the simulator's explorer sizes buffers by it.
    // A function converted before keeps it (its type is pointers by now:
    // converting its output again changes nothing).
    let kept = function.attribute(SIGNATURE).is_ok();
    if let (false, Ok(original)) = (kept, function.attribute("function_type")) {
        ir::set_attribute(function, SIGNATURE, original);
    }
    ir::retype_function(context, function, &converted, &[]);
    // AIC kernels run on the cube unit; InCore and AIV code is vector code.
    let unit = match function_kind(function) {
        Ok(Some(FuncKind::Aic)) => "cube",
        _ => "vector",
    };
    let kind = Attribute::parse(context, &format!("#pto.kernel_kind<\"{unit}\">"))
        .expect("kernel kind parses");
    ir::set_attribute(function, "pto.kernel_kind", kind);
}

/// Gives every global tensor that an `scf.for`, `scf.while` or `scf.if`
/// carries (results, region arguments, the operands that feed them) the
/// pointer type of the kernel parameter it derives from, and passes that
/// parameter's pointer in (docs/passes/convert-pld-to-pto.md, "Loop-carried
/// tensors"). Everything is resolved before anything changes.
fn carry_pointers<'c, 'a>(
    context: &'c Context,
    function: OperationRef<'c, 'a>,
    globals: &Globals<'c, 'a>,
) -> Result<(), Failure<'c, 'a>>
where
    'c: 'a,
{
    let global = |value: Value<'c, 'a>| {
        matches!(
            tensor_info(value.r#type()),
            Ok(Some(info)) if info.kind != TensorKind::Tile
        )
    };
    let mut retyped = Vec::new();
    let mut rewired = Vec::new();
    for op in ir::collect(function, |n| n.starts_with("scf.")) {
        let mut owned: Vec<Value> = op.results().map(Into::into).collect();
        for region in 0..op.region_count() {
            owned.extend(ir::entry_arguments(op, region));
        }
        for value in owned.into_iter().filter(|v| global(*v)) {
            let carried = globals.of(value).map_err(|m| (op, m))?;
            retyped.push((value, types::pointer(context, carried.element)));
        }
        let operands = ir::operands(op);
        if operands.iter().any(|v| global(*v)) {
            let mut passed = operands.clone();
            for (slot, value) in passed.iter_mut().zip(&operands) {
                if global(*value) {
                    *slot = globals.of(*value).map_err(|m| (op, m))?.pointer;
                }
            }
            rewired.push((op, passed));
        }
    }
    for (op, operands) in rewired {
        ir::set_operands(op, &operands);
    }
    for (value, ty) in retyped {
        ir::set_type(value, ty);
    }
    Ok(())
}

fn retype_tile(context: &Context, value: Value) -> Result<(), String> {
    if let Ok(Some(info)) = tensor_info(value.r#type()) {
        if info.kind == TensorKind::Tile {
            let buffer = types::tile_buffer(context, &info)?;
            ir::set_type(value, buffer);
        }
    }
    Ok(())
}

static IDENTITY: PassIdentity = PassIdentity;

/// Creates the pass.
pub fn create() -> Pass {
    external(ConvertPldToPto, &IDENTITY)
}
