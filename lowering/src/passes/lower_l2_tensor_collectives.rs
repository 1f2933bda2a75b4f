//! `pld-lower-l2-tensor-collectives`: the CHIP (L2) rail. Each
//! `pld.tensor_all_to_all_v` (and `pld.tensor_indexed_all_to_all_v`) of a
//! CHIP orchestrator becomes a `func.call` of a synthesized AIV function
//! whose code is the builtin kernel template, so the exchange is one more
//! task of the orchestrator's own pipeline.
//!
//! Docs: `docs/passes/pld-lower-l2-tensor-collectives.md`; tests: `tests/lit/passes/pld-lower-l2-tensor-collectives/`.
//!
//! For each collective of a CHIP orchestrator (at any depth of its body):
//! 1. the payload dtype picks the variant (`fp32` or `int8`);
//! 2. `core_num` must be a compile-time constant in `[1, INT32_MAX]`; for
//!    all_to_all_v it is folded to `B = all_to_all_v_blocks(P, L)`
//!    (`pld_dialect::launch`), for indexed_all_to_all_v `B = L`; the
//!    signal's stride `S` must be at least `B`;
//! 3. every operand must be provably contiguous (the whitelist of spec 13,
//!    traced through every value it may come from);
//! 4. the collective becomes a call of `__builtin_<op>__<dtype>`, one
//!    function per variant shared by every call site, with
//!    `core_num = B` and `sync_start` on the call when `B > 1`.
//!
//! Then the post-condition: no collective is left in a CHIP orchestrator
//! (checked also when nothing was rewritten). HOST and InCore bodies are not
//! touched.

use melior::{
    dialect::func,
    ir::{
        attribute::{
            BoolAttribute, FlatSymbolRefAttribute, IntegerAttribute, StringAttribute, TypeAttribute,
        },
        block::BlockLike,
        operation::{OperationBuilder, OperationLike},
        r#type::FunctionType,
        Attribute, Block, Identifier, Location, OperationRef, Region, RegionLike, Type, Value,
        ValueLike,
    },
    pass::Pass,
    Context,
};
use pld_dialect::{
    collective::{CollectiveKind, Role, Storage},
    enums::{AllReduceMode, Direction, FuncKind},
    ops::{builtin::directions_attribute, window::Window, OpView},
    query::{
        function_kind, ARG_DIRECTIONS, BUILTIN_TEMPLATE_DIR, BUILTIN_TEMPLATE_VARS,
        REQUIRE_CONTIGUOUS_OPERANDS,
    },
    types::{tensor_info, value_info, Layout, TensorInfo},
};
use pld_ir as ir;
use pld_ir::op_name;
use pld_ir::pass::{external, Anchor, PassFailed, PassIdentity, PldPass, Report};
use std::collections::{HashMap, HashSet};

#[derive(Clone, Default)]
pub struct LowerL2TensorCollectives;

impl PldPass for LowerL2TensorCollectives {
    const ARGUMENT: &'static str = "pld-lower-l2-tensor-collectives";
    const NAME: &'static str = "PldLowerL2TensorCollectives";
    const SUMMARY: &'static str =
        "Lower CHIP-orchestrator all_to_all_v to calls of synthesized AIV builtin kernels";

    const ANCHOR: Anchor = Anchor::Module;

    fn run(&self, context: &Context, module: OperationRef) -> Result<(), PassFailed> {
        let mut report = Report::default();
        let functions = ir::collect(module, |n| n == "func.func");
        let chips: Vec<OperationRef> = functions
            .iter()
            .copied()
            .filter(|f| function_kind(*f) == Ok(Some(FuncKind::Chip)))
            .collect();
        // Synthesized functions of this run, by (symbol table, name): a
        // variant goes into the module that holds its callers.
        let mut synthesized: HashMap<(usize, String), Synthesized> = HashMap::new();
        let mut collided = HashSet::new();
        for chip in &chips {
            let Some(table) = chip.parent_operation() else {
                continue;
            };
            let table_key = table.to_raw().ptr as usize;
            for op in ir::collect(*chip, |n| chip_kind(n).is_some()) {
                let plan = match plan(op) {
                    Ok(plan) => plan,
                    Err(message) => {
                        report.error(op, &message);
                        continue;
                    }
                };
                let name = plan.function_name();
                let key = (table_key, name.clone());
                if !synthesized.contains_key(&key) {
                    if let Some(user) = ir::find_function(table, &name) {
                        if collided.insert(key) {
                            report.error(
                                user,
                                &format!(
                                    "synthesized builtin kernel name '{name}' collides with an \
                                     existing function"
                                ),
                            );
                        }
                        continue;
                    }
                    let Some(made) = synthesize(context, table, &plan, op.location()) else {
                        report.error(op, "cannot add a function next to this CHIP orchestrator");
                        continue;
                    };
                    synthesized.insert(key.clone(), made);
                }
                rewrite(context, op, &plan, &name, &synthesized[&key]);
            }
        }
        // Post-condition (spec 7.2, ResidualCollectiveChecker): the
        // all_to_all_v ops that were not rewritten have their own error.
        for chip in &chips {
            let function = ir::symbol_name(*chip).unwrap_or_default();
            for op in ir::collect(*chip, |n| {
                CollectiveKind::from_op_name(n).is_some() && chip_kind(n).is_none()
            }) {
                let lowered: Vec<&str> = CollectiveKind::ALL
                    .into_iter()
                    .filter(|k| k.facts().rails.chip)
                    .map(CollectiveKind::op_name)
                    .collect();
                report.error(
                    op,
                    &format!(
                        "{} in function '{function}' was not lowered. The managed CHIP/L2 rail \
                         supports only {}; write any other collective in a HOST \
                         orchestrator (builtin dispatch rail) or an InCore function (composite \
                         rail)",
                        op_name(&op),
                        lowered.join(" and ")
                    ),
                );
            }
        }
        report.finish()
    }
}

/// Whether the CHIP rail lowers `op` (docs/dialect.md 1.2).
fn chip_kind(op: &str) -> Option<CollectiveKind> {
    CollectiveKind::from_op_name(op).filter(|kind| kind.facts().rails.chip)
}

/// The element types the kernels are rendered for: (MLIR type, variant
/// suffix, `dtype_cpp`).
const DTYPES: &[(&str, &str, &str)] = &[("f32", "fp32", "float"), ("i8", "int8", "int8_t")];

/// What to emit for one collective.
struct Plan<'c, 'a> {
    kind: CollectiveKind,
    /// (suffix, dtype_cpp).
    dtype: (&'static str, &'static str),
    /// Operands in kernel order.
    operands: Vec<Value<'c, 'a>>,
    /// The launched block count.
    blocks: i64,
}

impl Plan<'_, '_> {
    fn function_name(&self) -> String {
        format!("__builtin_{}__{}", self.kind.spec_name(), self.dtype.0)
    }
}

fn plan<'c, 'a>(op: OperationRef<'c, 'a>) -> Result<Plan<'c, 'a>, String>
where
    'c: 'a,
{
    let kind = chip_kind(&op_name(&op)).ok_or("is not a CHIP collective")?;
    let roles: Vec<Role> = kind.roles().collect();
    let view = OpView::new(op).ok_or_else(|| "has malformed operands".to_string())?;
    let operands = roles
        .iter()
        .map(|role| {
            view.one(role.group())
                .ok_or_else(|| crate::host::roles::missing_operand(*role))
        })
        .collect::<Result<Vec<_>, String>>()?;
    let info = |role: Role| {
        let at = kind.position(role).ok_or("has malformed operands")?;
        value_info(operands[at])
            .ok()
            .flatten()
            .ok_or_else(|| format!("{} is not a tensor", role.group()))
    };
    let target = info(Role::Target)?;
    let signal = info(Role::Signal)?;

    // 1. The variant.
    let dtype = target.dtype();
    let (_, suffix, cpp) = DTYPES
        .iter()
        .find(|(mlir, _, _)| *mlir == dtype)
        .ok_or_else(|| format!("on the CHIP rail supports only f32 or i8 elements, got {dtype}"))?;

    // 2. The launch width.
    let requested = match view.one("core_num") {
        None => 1,
        Some(value) => ir::constant_int(value).ok_or_else(|| {
            "core_num must be a compile-time constant on the CHIP rail (a runtime core_num is \
             supported only on the HOST rail, whose entry runs on the host)"
                .to_string()
        })?,
    };
    if !(1..=i64::from(i32::MAX)).contains(&requested) {
        return Err(format!(
            "core_num must be in [1, {}], got {requested}",
            i32::MAX
        ));
    }
    let (Some(ranks), Some(stride)) = (signal.dim(0), signal.dim(1)) else {
        return Err("signal must have a static shape [ranks, lanes] on the CHIP rail".to_string());
    };
    crate::composite::ranks_fit(Some(ranks), "signal dim 0")?;
    // Spec 4.8 and 8: CalAllToAllVBlocks(P, L), or exactly L for the
    // indexed exchange.
    let blocks = kind
        .launched_blocks(AllReduceMode::Mesh, ranks, requested)
        .map_err(|e| e.to_string())?;
    if stride < blocks {
        return Err(format!(
            "signal second dimension (S = {stride}) must be at least the launched block \
             count (B = {blocks} for P = {ranks}, core_num = {requested})"
        ));
    }

    // 3. Contiguity (spec 13).
    for (i, role) in roles.iter().enumerate() {
        if let Err(broken) = contiguous(operands[i]) {
            return Err(format!(
                "{} is not provably contiguous: it may come from {broken}; the \
                 builtin kernel needs dense row-major operands (see the contiguity whitelist of \
                 pld-lower-l2-tensor-collectives)",
                role.group()
            ));
        }
    }
    Ok(Plan {
        kind,
        dtype: (suffix, cpp),
        operands,
        blocks,
    })
}

/// Checks that every value `value` may come from is dense row-major: every
/// path ends at a root through pass-through steps, and every value on the
/// way has the ND layout and packed strides. `Err` names the value (or op)
/// that breaks contiguity.
fn contiguous(value: Value) -> Result<(), String> {
    let mut pending = vec![value];
    let mut seen = HashSet::new();
    while let Some(value) = pending.pop() {
        if !seen.insert(value.to_raw().ptr as usize) {
            continue;
        }
        let what = describe(value);
        if let Ok(Some(info)) = value_info(value) {
            if let Some(layout) = info.layout.filter(|l| *l != Layout::Nd) {
                return Err(format!(
                    "{what}, whose layout is \"{}\" (not ND)",
                    layout.name()
                ));
            }
            if let (Some(strides), Some(packed)) = (&info.strides, info.packed_strides()) {
                if *strides != packed {
                    return Err(format!(
                        "{what}, whose strides {strides:?} are not the packed strides {packed:?}"
                    ));
                }
            }
        }
        let Some(owner) = ir::defining_op(value) else {
            // A block argument.
            let Some(site) = ir::argument_site(value) else {
                return Err(what);
            };
            let parent = site.parent;
            match op_name(&parent).as_str() {
                "func.func" if site.entry_block && site.region_is_first => {}
                "scf.for" if site.number > 0 => {
                    let k = site.number - 1;
                    pending.extend(ir::operand(parent, 3 + k));
                    pending.extend(yielded(parent, 0, k));
                }
                "scf.while" if site.region_is_first => {
                    pending.extend(ir::operand(parent, site.number));
                    pending.extend(yielded(parent, 1, site.number));
                }
                "scf.while" => pending.extend(yielded(parent, 0, site.number + 1)),
                _ => return Err(what),
            }
            continue;
        };
        let index = ir::result_number(value);
        let name = op_name(&owner);
        match name.as_str() {
            // Roots: dense by construction.
            Window::NAME | "tensor.empty" | "bufferization.alloc_tensor" => {}
            // Zero-copy steps that keep row-major order.
            "tensor.reshape"
            | "tensor.collapse_shape"
            | "tensor.expand_shape"
            | "tensor.cast"
            | "builtin.unrealized_conversion_cast" => pending.extend(ir::operand(owner, 0)),
            // assemble: the result is the destination's storage.
            "tensor.insert_slice" => pending.extend(ir::operand(owner, 1)),
            "tensor.extract_slice" => {
                first_dimension_slice(owner).map_err(|why| format!("{what} ({why})"))?;
                pending.extend(ir::operand(owner, 0));
            }
            "scf.for" => {
                pending.extend(ir::operand(owner, 3 + index));
                pending.extend(yielded(owner, 0, index));
            }
            "scf.while" => {
                pending.extend(ir::operand(owner, index));
                pending.extend(yielded(owner, 0, index + 1));
            }
            "scf.if" => {
                pending.extend(yielded(owner, 0, index));
                pending.extend(yielded(owner, 1, index));
            }
            "func.call" => {
                let argument = crate::trace::returned_argument(owner, index).ok_or_else(|| {
                    format!("{what}, whose callee does not return one of its parameters there")
                })?;
                pending.push(argument);
            }
            other if CollectiveKind::from_op_name(other).is_some() => {
                // Window as result: the alias operand's storage.
                let kind = CollectiveKind::from_op_name(other).ok_or_else(|| what.clone())?;
                let view = OpView::new(owner).ok_or_else(|| what.clone())?;
                pending.extend(view.one(kind.facts().alias.group()));
            }
            _ => return Err(what),
        }
    }
    Ok(())
}

/// `'op' (line N)` for an op result, `a block argument of 'op'` else.
fn describe(value: Value) -> String {
    let line = |op: OperationRef| {
        ir::position(op.location())
            .map(|p| format!(" (line {})", p.line))
            .unwrap_or_default()
    };
    match ir::defining_op(value) {
        Some(op) => format!("'{}'{}", op_name(&op), line(op)),
        None => match ir::argument_site(value) {
            Some(site) if op_name(&site.parent) == "func.func" => "a function parameter".into(),
            Some(site) => format!(
                "a block argument of '{}'{}",
                op_name(&site.parent),
                line(site.parent)
            ),
            None => "a block argument".into(),
        },
    }
}

/// Operand `k` of the terminator of region `region` of `op`.
fn yielded<'c, 'a>(op: OperationRef<'c, 'a>, region: usize, k: usize) -> Option<Value<'c, 'a>>
where
    'c: 'a,
{
    ir::operand(ir::region_terminator(op, region)?, k)
}

/// A `tensor.extract_slice` keeps contiguity only when it narrows the
/// first dimension of a statically shaped tensor, with literal offsets and
/// unit strides (spec 13).
fn first_dimension_slice(slice: OperationRef) -> Result<(), &'static str> {
    if slice.operand_count() != 1 {
        return Err("a slice with non-literal offsets, sizes or strides");
    }
    let source = ir::operand(slice, 0)
        .and_then(|v| value_info(v).ok().flatten())
        .ok_or("a slice of a non-tensor")?;
    let dims: Option<Vec<i64>> = source.shape.iter().copied().collect();
    let dims = dims.ok_or("a slice of a tensor with a dynamic shape")?;
    let read = |name| slice.attribute(name).ok().and_then(pld_ir::attr::i64_array);
    let (Some(offsets), Some(sizes), Some(strides)) = (
        read("static_offsets"),
        read("static_sizes"),
        read("static_strides"),
    ) else {
        return Err("a slice without static offsets, sizes and strides");
    };
    let result_rank = slice
        .result(0)
        .ok()
        .and_then(|r| tensor_info(r.r#type()).ok().flatten())
        .map(|i| i.rank());
    if result_rank != Some(dims.len()) || offsets.len() != dims.len() {
        return Err("a rank-reducing slice");
    }
    if strides.iter().any(|s| *s != 1) {
        return Err("a strided slice");
    }
    let narrows_inner = (1..dims.len()).any(|d| offsets[d] != 0 || sizes[d] != dims[d]);
    if narrows_inner {
        return Err("a slice that narrows a dimension other than the first");
    }
    Ok(())
}

/// A synthesized function's signature.
struct Synthesized<'c> {
    inputs: Vec<Type<'c>>,
    result: Type<'c>,
}

/// The canonical parameter type of a role: the call site's type, without
/// its encoding for a plain parameter (spec 7.2: the kinds must not depend
/// on what the first caller passed).
fn canonical<'c>(context: &'c Context, value: Value<'c, '_>, distributed: bool) -> Type<'c> {
    let ty = value.r#type();
    if distributed {
        return ty;
    }
    match tensor_info(ty) {
        Ok(Some(info)) => plain_type(context, &info).unwrap_or(ty),
        _ => ty,
    }
}

/// `tensor<shape x element>` without an encoding.
fn plain_type<'c>(context: &'c Context, info: &TensorInfo<'c>) -> Option<Type<'c>> {
    let dims: Vec<String> = info
        .shape
        .iter()
        .map(|d| d.map_or("?".to_string(), |d| d.to_string()))
        .collect();
    let text = format!("tensor<{}x{}>", dims.join("x"), info.element);
    Type::parse(context, &text)
}

/// Adds the variant's function at the end of the module: AIV kind,
/// canonical parameters, the directions and template attributes, and a
/// body that returns the target.
fn synthesize<'c>(
    context: &'c Context,
    module: OperationRef<'c, '_>,
    plan: &Plan<'c, '_>,
    location: Location<'c>,
) -> Option<Synthesized<'c>> {
    let facts = plan.kind.facts();
    let inputs: Vec<Type> = plan
        .operands
        .iter()
        .zip(facts.operands)
        .map(|(value, o)| canonical(context, *value, o.storage == Storage::Window))
        .collect();
    let directions: Vec<Direction> = facts.operands.iter().map(|o| o.direction).collect();
    let result = inputs[1];
    let block = Block::new(&inputs.iter().map(|t| (*t, location)).collect::<Vec<_>>());
    let target: Value = block.argument(1).ok()?.into();
    block.append_operation(func::r#return(&[target], location));
    let region = Region::new();
    region.append_block(block);
    let ty = FunctionType::new(context, &inputs, &[result]);
    let kind = pld_dialect::enums::PldEnum::to_attribute(FuncKind::Aiv, context);
    let attributes: Vec<(Identifier, Attribute)> = vec![
        (Identifier::new(context, "pld.kind"), kind),
        (
            Identifier::new(context, ARG_DIRECTIONS),
            directions_attribute(context, &directions),
        ),
        (
            Identifier::new(context, BUILTIN_TEMPLATE_DIR),
            StringAttribute::new(
                context,
                &format!(
                    ":pypto.runtime.builtins.collectives.{}",
                    plan.kind.spec_name()
                ),
            )
            .into(),
        ),
        (
            Identifier::new(context, BUILTIN_TEMPLATE_VARS),
            StringAttribute::new(context, &format!("dtype_cpp={}", plan.dtype.1)).into(),
        ),
        (
            Identifier::new(context, REQUIRE_CONTIGUOUS_OPERANDS),
            BoolAttribute::new(context, true).into(),
        ),
    ];
    let function = func::func(
        context,
        StringAttribute::new(context, &plan.function_name()),
        TypeAttribute::new(ty.into()),
        region,
        &attributes,
        location,
    );
    let body = module.region(0).ok()?.first_block()?;
    body.append_operation(function);
    Some(Synthesized { inputs, result })
}

/// `value` as `ty`: itself, or through a `builtin.unrealized_conversion_cast`
/// inserted before `anchor` (the documented bridge between a call site's
/// type and the canonical parameter type).
fn cast<'c, 'a>(anchor: OperationRef<'c, 'a>, value: Value<'c, 'a>, ty: Type<'c>) -> Value<'c, 'a>
where
    'c: 'a,
{
    if value.r#type() == ty {
        return value;
    }
    let cast = OperationBuilder::new("builtin.unrealized_conversion_cast", anchor.location())
        .add_operands(&[value])
        .add_results(&[ty])
        .build()
        .expect("a cast builds");
    ir::result(ir::insert_before(anchor, cast))
}

fn rewrite<'c, 'a>(
    context: &'c Context,
    op: OperationRef<'c, 'a>,
    plan: &Plan<'c, 'a>,
    name: &str,
    callee: &Synthesized<'c>,
) where
    'c: 'a,
{
    let arguments: Vec<Value> = plan
        .operands
        .iter()
        .zip(&callee.inputs)
        .map(|(value, ty)| cast(op, *value, *ty))
        .collect();
    let call = ir::insert_before(
        op,
        func::call(
            context,
            FlatSymbolRefAttribute::new(context, name),
            &arguments,
            &[callee.result],
            op.location(),
        ),
    );
    if plan.blocks > 1 {
        ir::set_attribute(
            call,
            "core_num",
            IntegerAttribute::new(ir::i64_type(context), plan.blocks).into(),
        );
        ir::set_attribute(call, "sync_start", BoolAttribute::new(context, true).into());
    }
    // The call returns the target's storage; uses of the collective's
    // result keep the type they had.
    let mut result = ir::result(call);
    if let Some(old) = ir::result_at(op, 0) {
        if old.r#type() != result.r#type() {
            result = cast(op, result, old.r#type());
        }
        ir::replace_all_uses(old, result);
    }
    ir::erase(op);
}

static IDENTITY: PassIdentity = PassIdentity;

/// Creates the pass.
pub fn create() -> Pass {
    external(LowerL2TensorCollectives, &IDENTITY)
}
