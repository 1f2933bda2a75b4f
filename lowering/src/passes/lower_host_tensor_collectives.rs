//! `pld-lower-host-tensor-collectives`: turns each collective of
//! a HOST orchestrator into one builtin dispatch per device of its comm
//! domain.
//!
//! Docs: `docs/passes/pld-lower-host-tensor-collectives.md`; tests: `tests/lit/passes/pld-lower-host-tensor-collectives/`.
//!
//! For each collective (inside the `pld.comm_domain` scopes that
//! `pld-materialize-comm-domain-scopes` made):
//! 1. operands a HOST orchestrator must pass as windows are views of an
//!    allocation; every window operand's allocation is found;
//! 2. no two operands share an allocation (a cross-process data race);
//! 3. the innermost scope holding all those allocations gives the devices;
//! 4. the static checks of docs/passes/pld-lower-host-tensor-collectives.md run (with W = the number of devices
//!    when the scope lists them);
//! 5. an explicit device list becomes one `pld.builtin_<op>` per device; all
//!    devices become an `scf.for` over `world_size`;
//! 6. uses of the collective's result now use its alias source ("window as
//!    result"), and the collective is erased.
//!
//! Mesh or ring allreduce is chosen by `mode` alone, never from the signal.

use crate::composite::{name_the_choice, AUTO_MODE_ATTRIBUTE};
use crate::host::allreduce::{check_mesh_lanes, check_ring, check_rows};
use crate::host::{
    host_functions, roles,
    windows::{allocation_name, allocation_of},
};
use melior::{
    ir::{
        attribute::{IntegerAttribute, TypeAttribute},
        block::BlockLike,
        operation::OperationLike,
        Attribute, Block, OperationRef, Region, RegionLike, Type, Value,
    },
    pass::Pass,
    Context,
};
use pld_dialect::{
    collective::{capability, CollectiveKind, CoreNum, Role, Storage},
    enums::{AllReduceMode, Direction, PldEnum, ReduceOp},
    launch::all_to_all_v_blocks,
    ops::{
        builtin::directions_attribute, collective::AllReduce, host::CommDomain, window::WorldSize,
        OpBuild, OpView,
    },
    types::{operand_tensor, TensorInfo},
};
use pld_ir as ir;
use pld_ir::attr::Integer;
use pld_ir::op_name;
use pld_ir::pass::{external, Anchor, PassFailed, PassIdentity, PldPass, Report};

/// Module attribute naming the backend's AIV (vector) core count; when set,
/// a mesh allreduce may not ask for more cores.
pub const AIV_CORE_COUNT_ATTR: &str = "pld.aiv_core_count";

#[derive(Clone, Default)]
pub struct LowerHostTensorCollectives;

impl PldPass for LowerHostTensorCollectives {
    const ARGUMENT: &'static str = "pld-lower-host-tensor-collectives";
    const NAME: &'static str = "PldLowerHostTensorCollectives";
    const SUMMARY: &'static str =
        "Lower HOST collectives to one pld.builtin_<op> dispatch per device of their comm domain";

    const ANCHOR: Anchor = Anchor::Module;

    fn run(&self, context: &Context, module: OperationRef) -> Result<(), PassFailed> {
        let mut report = Report::default();
        // The backend setting is an attribute of the module.
        let top = module;
        let aiv_cores = match top.attribute(AIV_CORE_COUNT_ATTR) {
            Err(_) => None,
            Ok(attribute) => match pld_ir::attr::integer(attribute) {
                Some(Integer::InRange(cores)) if cores > 0 => Some(cores),
                Some(large @ Integer::OutOfRange(_)) if !large.is_negative() => {
                    report.error(
                        top,
                        &format!("{AIV_CORE_COUNT_ATTR} = {large} is too large"),
                    );
                    return report.finish();
                }
                _ => {
                    report.error(
                        top,
                        &format!(
                            "{AIV_CORE_COUNT_ATTR} must be a positive integer, got {attribute}"
                        ),
                    );
                    return report.finish();
                }
            },
        };
        for function in host_functions(module) {
            for op in ir::collect(function, |n| roles::host_kind(n).is_some()) {
                match plan(context, op, aiv_cores) {
                    Ok(plan) => emit(context, op, &plan),
                    Err(message) => report.error(op, &name_the_choice(op, message)),
                }
            }
        }
        report.finish()
    }
}

/// What to emit for one collective.
struct Plan<'c, 'a> {
    builtin: &'static str,
    /// Operands in the builtin's order, with the builtin's group names.
    operands: Vec<(&'static str, Value<'c, 'a>)>,
    attributes: Vec<(&'static str, Attribute<'c>)>,
    directions: Vec<Direction>,
    /// `None`: every device (`world_size`).
    devices: Option<Vec<i64>>,
    alias: Value<'c, 'a>,
}

fn plan<'c, 'a>(
    context: &'c Context,
    op: OperationRef<'c, 'a>,
    aiv_cores: Option<i64>,
) -> Result<Plan<'c, 'a>, String>
where
    'c: 'a,
{
    let kind = roles::host_kind(&op_name(&op)).ok_or("not a HOST collective")?;
    let facts = kind.facts();
    let view = OpView::new(op).ok_or("malformed collective")?;
    let operand = |role: Role| {
        view.one(role.group())
            .ok_or_else(|| roles::missing_operand(role))
    };
    let devices = scope_devices(kind, op, &operand)?;
    let world = devices.as_ref().map(|d| d.len() as i64);

    let signal = operand_tensor(operand(Role::Signal)?)?;
    // The operand whose element type the kernel is instantiated for (a
    // barrier moves no data).
    let data = (facts.alias != Role::Signal)
        .then(|| operand(facts.alias).and_then(operand_tensor))
        .transpose()?;
    let mut attributes: Vec<(&'static str, Attribute)> = Vec::new();
    if let Some(data) = &data {
        attributes.push(("dtype", TypeAttribute::new(data.element).into()));
    }
    // all_to_all_v's requested block count (spec 7.5, 8): a constant or
    // a run-time index, passed on to the builtin, whose entry launches
    // B = CalAllToAllVBlocks(P, L) blocks.
    let core_num = match facts.core_num {
        CoreNum::Operand => view.one("core_num"),
        CoreNum::None | CoreNum::Attribute => None,
    };
    let checked = Checked {
        kind,
        op,
        signal: &signal,
        data: data.as_ref(),
        world,
        aiv_cores,
        core_num,
    };
    let builtin = checked.builtin(context, &mut attributes)?;
    check_capability(builtin, data.as_ref(), &signal, &view)?;

    let mut operands = facts
        .operands
        .iter()
        .map(|o| Ok((roles::builtin_group(kind, o.role), operand(o.role)?)))
        .collect::<Result<Vec<_>, String>>()?;
    if let Some(core_num) = core_num {
        operands.push(("core_num", core_num));
    }
    Ok(Plan {
        builtin,
        operands,
        attributes,
        directions: facts.operands.iter().map(|o| o.direction).collect(),
        devices,
        alias: operand(facts.alias)?,
    })
}

/// Steps 1-3: every operand's allocation, distinct, and the devices of the
/// innermost scope that holds them all (`None`: every device).
fn scope_devices<'c, 'a>(
    kind: CollectiveKind,
    op: OperationRef<'c, 'a>,
    operand: &dyn Fn(Role) -> Result<Value<'c, 'a>, String>,
) -> Result<Option<Vec<i64>>, String> {
    let facts = kind.facts();
    // 1. Operands a HOST orchestrator must pass as views of an allocation.
    for o in facts
        .operands
        .iter()
        .filter(|o| o.storage == Storage::Plain)
    {
        if allocation_of(operand(o.role)?).is_none() {
            return Err(format!(
                "{} must be a window-bound tensor (a pld.tensor_window of a \
                 pld.tensor_alloc_window_buffer) in a HOST orchestrator",
                o.role.group()
            ));
        }
    }
    let mut allocations = Vec::new();
    for o in facts.operands {
        let allocation = allocation_of(operand(o.role)?).ok_or_else(|| {
            format!(
                "{} must be a view of a window allocation of this HOST orchestrator",
                roles::role_name(kind, o.role)
            )
        })?;
        allocations.push((o.role, allocation));
    }
    // 2. Distinct allocations.
    for (i, (role_i, a)) in allocations.iter().enumerate() {
        for (role_j, b) in &allocations[i + 1..] {
            if a == b {
                let (role_i, role_j) = (
                    roles::role_name(kind, *role_i),
                    roles::role_name(kind, *role_j),
                );
                return Err(format!(
                    "{role_i} and {role_j} must be different window allocations (two \
                     pld.tensor_window views of one pld.tensor_alloc_window_buffer race across \
                     processes under the kernel's remote puts and notifies)"
                ));
            }
        }
    }
    // 3. The innermost scope that holds every allocation.
    let names: Vec<String> = allocations
        .iter()
        .map(|(_, a)| allocation_name(*a))
        .collect();
    let scopes: Vec<CommDomain> = ir::ancestors(op)
        .into_iter()
        .filter_map(CommDomain::cast)
        .collect();
    let holds =
        |scope: &CommDomain, name: &String| scope.slots().unwrap_or_default().contains(name);
    // Each in a scope around the op, but no scope holds them all: the
    // operands are buffers of different comm domains (it said to run
    // pld-materialize-comm-domain-scopes, which made those scopes).
    let theirs: Option<Vec<String>> = names
        .iter()
        .map(|n| {
            let scope = scopes.iter().find(|s| holds(s, n))?;
            let devices = scope.devices().unwrap_or_default();
            Some(format!("{n} ({})", device_list(&devices)))
        })
        .collect();
    let scope = scopes
        .iter()
        .find(|scope| names.iter().all(|n| holds(scope, n)))
        .ok_or_else(|| match &theirs {
            Some(theirs) => format!(
                "takes window buffers of different comm domains, {}: a collective's operands \
                 are buffers of one comm domain (use them on the same devices)",
                theirs.join(" and ")
            ),
            None => format!(
                "is not inside a pld.comm_domain holding {}; run \
                 pld-materialize-comm-domain-scopes first (where the function has scopes, \
                 written by hand, which the pass keeps, or made for other uses of these \
                 allocations, one scope around this op must name them all in its slots)",
                names.join(", ")
            ),
        })?;
    let devices = scope.devices().unwrap_or_default();
    Ok((!devices.is_empty()).then_some(devices))
}

/// `devices 0, 1, 3`, `devices 0 to 3` for a run of three or more, or
/// `every device` for a scope that lists none (it spans them all).
fn device_list(devices: &[i64]) -> String {
    let run = devices.len() >= 3 && devices.windows(2).all(|w| w[1] == w[0] + 1);
    match (run, devices.first(), devices.last()) {
        (_, None, _) => "every device".to_string(),
        (true, Some(first), Some(last)) => format!("devices {first} to {last}"),
        _ => {
            let each: Vec<String> = devices.iter().map(i64::to_string).collect();
            format!("devices {}", each.join(", "))
        }
    }
}

/// What step 4 checks one collective with.
struct Checked<'x, 'c, 'a> {
    kind: CollectiveKind,
    op: OperationRef<'c, 'a>,
    signal: &'x TensorInfo<'c>,
    data: Option<&'x TensorInfo<'c>>,
    world: Option<i64>,
    aiv_cores: Option<i64>,
    core_num: Option<Value<'c, 'a>>,
}

impl<'c> Checked<'_, 'c, '_> {
    /// 4. The builtin and the static checks; adds the builtin's attributes.
    fn builtin(
        &self,
        context: &'c Context,
        attributes: &mut Vec<(&'static str, Attribute<'c>)>,
    ) -> Result<&'static str, String> {
        let (signal, world) = (self.signal, self.world);
        let mode = match self.kind {
            CollectiveKind::AllReduce => return self.allreduce(context, attributes),
            CollectiveKind::AllToAllV => {
                let core_num = self.core_num.and_then(pld_ir::constant_int);
                check_lanes_signal(signal, world, core_num)?;
                AllReduceMode::Mesh
            }
            CollectiveKind::Barrier
            | CollectiveKind::Broadcast
            | CollectiveKind::ReduceScatter
            | CollectiveKind::Reduce
            | CollectiveKind::AllGather
            | CollectiveKind::AllToAll => {
                check_generic_signal(signal, world)?;
                AllReduceMode::Mesh
            }
            CollectiveKind::IndexedAllToAllV => return Err("not a HOST collective".into()),
        };
        let facts = self.kind.facts();
        if facts.root {
            let root = int_attribute(self.op, "root").unwrap_or(0);
            attributes.push(("root", i64_attribute(context, root)));
            if let Some(w) = world.filter(|w| root >= *w) {
                return Err(format!("root ({root}) must be a valid rank in [0, {w})"));
            }
        }
        // An `op` is passed on as written (on a collective that does not
        // reduce, the builtin names no kernel and the tools say so).
        let given = self
            .op
            .attribute("op")
            .ok()
            .and_then(ReduceOp::from_attribute);
        if let Some(reduce) = given {
            attributes.push(("op", reduce.to_attribute(context)));
        }
        self.kind
            .builtin_op(mode)
            .ok_or_else(|| "not a HOST collective".into())
    }

    /// The allreduce: mesh or ring by `mode` alone, never from the signal.
    fn allreduce(
        &self,
        context: &'c Context,
        attributes: &mut Vec<(&'static str, Attribute<'c>)>,
    ) -> Result<&'static str, String> {
        let allreduce = AllReduce::cast(self.op).ok_or("malformed allreduce")?;
        let mode = allreduce.mode().map_err(|m| m.to_string())?;
        let reduce = self.kind.reduce_op(allreduce.reduce_op());
        let core_num = allreduce.core_num().unwrap_or(1);
        if let Some(reduce) = reduce {
            attributes.push(("op", reduce.to_attribute(context)));
        }
        // `mode = "auto"`'s record stays with the builtin it chose.
        if let Ok(choice) = self.op.attribute(AUTO_MODE_ATTRIBUTE) {
            attributes.push((AUTO_MODE_ATTRIBUTE, choice));
        }
        let data = self.data.ok_or("allreduce without data")?;
        match mode {
            AllReduceMode::Mesh | AllReduceMode::TwoShot => {
                attributes.push(("core_num", i64_attribute(context, core_num)));
                check_mesh_lanes(self.signal, core_num, self.aiv_cores)?;
                check_rows(self.signal, self.world)?;
            }
            AllReduceMode::Ring => {
                if core_num != 1 {
                    return Err("mode = \"ring\" does not support core_num > 1".into());
                }
                check_ring(self.signal, data, self.world)?;
            }
        }
        self.kind
            .builtin_op(mode)
            .ok_or_else(|| "not a HOST collective".into())
    }
}

fn i64_attribute(context: &Context, value: i64) -> Attribute<'_> {
    IntegerAttribute::new(ir::i64_type(context), value).into()
}

fn int_attribute(op: OperationRef, name: &str) -> Option<i64> {
    op.attribute(name).ok().and_then(pld_ir::attr::int)
}

/// What the builtin kernel supports, checked on the user's op.
fn check_capability(
    builtin: &str,
    data: Option<&TensorInfo>,
    signal: &TensorInfo,
    view: &OpView,
) -> Result<(), String> {
    let Some(supports) = capability(builtin) else {
        return Ok(());
    };
    if let Some(data) = data {
        if !supports.accepts(&data.dtype()) {
            return Err(format!(
                "on the HOST rail supports only element type {}, got {}",
                supports.dtype_names(),
                data.dtype()
            ));
        }
    }
    let reduce = view.attribute("op").and_then(ReduceOp::from_attribute);
    if let Some(reduce) = reduce.filter(|r| supports.sum_only() && *r != ReduceOp::Sum) {
        return Err(format!(
            "on the HOST rail supports only op = #pld.reduce_op<\"sum\">, got \
             #pld.reduce_op<\"{reduce}\">"
        ));
    }
    if supports.rank1_signal() && signal.rank() != 1 {
        return Err(format!(
            "on the HOST rail needs a rank-1 signal, one element per rank, got rank {}",
            signal.rank()
        ));
    }
    Ok(())
}

/// Signal capacity of every collective but allreduce: rank 1 or 2, one lane,
/// at least one row per participating device.
fn check_generic_signal(signal: &TensorInfo, world: Option<i64>) -> Result<(), String> {
    match signal.rank() {
        1 => {}
        2 => match signal.dim(1) {
            None => return Err("rank-2 signal dim 1 must be static".into()),
            Some(1) => {}
            Some(lanes) => {
                return Err(format!(
                    "rank-2 signal dim 1 ({lanes}) must equal the required lane count (1)"
                ))
            }
        },
        r => {
            return Err(format!(
                "collective signal must be rank 1 or 2, got rank {r}"
            ))
        }
    }
    check_rows(signal, world)
}

/// all_to_all_v (spec 8.2): `[NR]` or `[NR, S]` with one lane per launched
/// block. The entry checks `S >= B` at run time; here it is checked when
/// everything is known: the devices (P), a constant `core_num` (L) and a
/// static S. A rank-1 signal has one lane, which only `core_num = 1` fits
/// (any L >= 2 launches at least two blocks, whatever P).
fn check_lanes_signal(
    signal: &TensorInfo,
    world: Option<i64>,
    core_num: Option<i64>,
) -> Result<(), String> {
    let lanes = match signal.rank() {
        1 => Some(1),
        2 => signal.dim(1),
        r => {
            return Err(format!(
                "collective signal must be rank 1 or 2, got rank {r}"
            ))
        }
    };
    if let Some(requested) = core_num {
        if requested <= 0 {
            return Err(format!("core_num must be positive, got {requested}"));
        }
        // The HOST entry takes the launch width as an int16_t (the CHIP rail
        // folds any L to its block count before it launches).
        if requested > pld_dialect::launch::MAX_CORE_NUM {
            return Err(format!(
                "core_num must be at most {} on the HOST rail (the launch width its builtin \
                 entry takes), got {requested}",
                pld_dialect::launch::MAX_CORE_NUM
            ));
        }
        if signal.rank() == 1 && requested > 1 {
            return Err(format!(
                "rank-1 signal is valid only when one signal lane is required (core_num = \
                 {requested}); use a [NR, S] signal (NR ranks, S lanes) with S >= CalAllToAllVBlocks(NR, \
                 core_num)"
            ));
        }
        if let (Some(world), Some(lanes)) = (world, lanes) {
            let blocks = all_to_all_v_blocks(world, requested).map_err(|e| e.to_string())?;
            if lanes < blocks {
                return Err(format!(
                    "signal dim 1 ({lanes}) must be at least the launched block count \
                     CalAllToAllVBlocks({world}, {requested}) = {blocks}"
                ));
            }
        }
    }
    check_rows(signal, world)
}

fn emit<'c, 'a>(context: &'c Context, op: OperationRef<'c, 'a>, plan: &Plan<'c, 'a>)
where
    'c: 'a,
{
    let location = op.location();
    let build = |device: Value<'c, 'a>| {
        let mut builder = OpBuild::new(context, plan.builtin, location);
        for (group, value) in &plan.operands {
            builder = builder.operands(group, &[*value]);
        }
        builder = builder.operands("device", &[device]);
        for (name, value) in &plan.attributes {
            builder = builder.attribute(name, *value);
        }
        builder
            .attribute(
                "arg_directions",
                directions_attribute(context, &plan.directions),
            )
            .build()
    };
    let index = Type::index(context);
    match &plan.devices {
        Some(devices) => {
            for device in devices {
                let device = ir::result(ir::insert_before(
                    op,
                    ir::constant(context, index, *device, location),
                ));
                ir::insert_before(op, build(device));
            }
        }
        None => {
            let world = ir::result(ir::insert_before(
                op,
                WorldSize::builder(context, location)
                    .result(ir::i64_type(context))
                    .build(),
            ));
            let upper = ir::result(ir::insert_before(
                op,
                melior::dialect::arith::index_cast(world, index, location),
            ));
            let zero = ir::result(ir::insert_before(
                op,
                ir::constant(context, index, 0, location),
            ));
            let one = ir::result(ir::insert_before(
                op,
                ir::constant(context, index, 1, location),
            ));
            let body = Block::new(&[(index, location)]);
            let device: Value = body.argument(0).expect("induction variable").into();
            body.append_operation(build(device));
            body.append_operation(melior::dialect::scf::r#yield(&[], location));
            let region = Region::new();
            region.append_block(body);
            ir::insert_before(
                op,
                melior::dialect::scf::r#for(zero, upper, one, region, location),
            );
        }
    }
    // Window as result: later uses read the alias source's storage.
    crate::window_result::retire(op, plan.alias);
}

static IDENTITY: PassIdentity = PassIdentity;

/// Creates the pass.
pub fn create() -> Pass {
    external(LowerHostTensorCollectives, &IDENTITY)
}
