//! `pld-materialize-comm-domain-scopes`: groups the window
//! allocations of each HOST orchestrator into comm domains.
//!
//! Docs: `docs/passes/pld-materialize-comm-domain-scopes.md`; tests: `tests/lit/passes/pld-materialize-comm-domain-scopes/`.
//!
//! 1. Every `pld.dispatch` names its devices: a constant, or the induction
//!    variable of an `scf.for` from 0 with step 1 to `world_size` (every
//!    device) or to a constant `N` (devices `0..N`). Each view passed to the
//!    dispatched function gives its allocation those devices.
//! 2. HOST collectives: a data window (or a barrier's signal) that no
//!    dispatch names gets the devices of the collective's dispatched data
//!    windows, or every device when there are none. Signals inherit the
//!    devices of their collective's target (and all_to_all_v's receive
//!    counts too).
//! 3. Allocations with equal device sets form one domain, in source order;
//!    the function body is wrapped in one `pld.comm_domain` per domain, the
//!    first outermost. Each records, per slot, the logical byte count and
//!    the count padded to 32 bytes (affine maps of `s0` = world_size), and
//!    the window size, the sum of the padded counts.
//!
//! A function that already has comm domains keeps them: the pass only
//! completes them (a signal no slot names joins its target's domain, and
//! missing size records are computed), so it is idempotent. A function
//! without allocations is unchanged.

use crate::host::{
    devices::{of_device, Devices},
    enclosing_loop, host_functions, roles, sizes,
    windows::{allocation_name, allocation_of},
};
use melior::{
    ir::{
        attribute::{ArrayAttribute, DenseI64ArrayAttribute, StringAttribute},
        block::BlockLike,
        operation::{OperationBuilder, OperationLike},
        Attribute, Block, Location, OperationRef, Region, RegionLike, Type, Value, ValueLike,
    },
    pass::Pass,
    Context,
};
use pld_dialect::collective::{CollectiveKind, Role};
use pld_dialect::ops::{
    builtin::BUILTINS,
    collective::AllToAllV,
    host::{CommDomain, Dispatch},
    window::{AllocWindowBuffer, Window},
    OpView,
};
use pld_ir as ir;
use pld_ir::op_name;
use pld_ir::pass::{external, Anchor, PassFailed, PassIdentity, PldPass, Report};
use std::collections::{HashMap, HashSet};

#[derive(Clone, Default)]
pub struct MaterializeCommDomainScopes;

impl PldPass for MaterializeCommDomainScopes {
    const ARGUMENT: &'static str = "pld-materialize-comm-domain-scopes";
    const NAME: &'static str = "PldMaterializeCommDomainScopes";
    const SUMMARY: &'static str =
        "Group the window allocations of each HOST orchestrator into pld.comm_domain scopes by the devices that use them";

    const ANCHOR: Anchor = Anchor::Function;

    fn run(&self, context: &Context, module: OperationRef) -> Result<(), PassFailed> {
        let mut report = Report::default();
        for function in host_functions(module) {
            let scopes = ir::collect(function, |n| n == CommDomain::NAME);
            if !scopes.is_empty() {
                for (op, message) in complete(context, function, &scopes) {
                    report.error(op, &message);
                }
                continue;
            }
            match plan(function) {
                Ok(domains) if domains.is_empty() => {}
                Ok(domains) => {
                    let wrapped = readable_depth(function, domains.len())
                        .and_then(|()| wrap(context, function, &domains));
                    if let Err((op, message)) = wrapped {
                        report.error(op, &message);
                    }
                }
                Err(errors) => {
                    for (op, message) in errors {
                        report.error(op, &message);
                    }
                }
            }
        }
        report.finish()
    }
}

/// One comm domain to create.
struct Domain<'c, 'a> {
    devices: Devices,
    allocations: Vec<OperationRef<'c, 'a>>,
    /// Logical byte count of each allocation.
    sizes: Vec<sizes::Size>,
}

type Errors<'c, 'a> = Vec<(OperationRef<'c, 'a>, String)>;

/// Key of an allocation in maps (ops are compared by identity).
fn key(op: OperationRef) -> usize {
    op.to_raw().ptr as usize
}

fn plan<'c, 'a>(function: OperationRef<'c, 'a>) -> Result<Vec<Domain<'c, 'a>>, Errors<'c, 'a>>
where
    'c: 'a,
{
    let mut errors: Errors = Vec::new();
    check_loops(function, &mut errors);
    let allocations = ir::collect(function, |n| n == AllocWindowBuffer::NAME);
    if allocations.is_empty() {
        return if errors.is_empty() {
            Ok(Vec::new())
        } else {
            Err(errors)
        };
    }
    let mut coverage: HashMap<usize, Devices> = HashMap::new();
    // A dispatch whose devices are unknown would make its windows look
    // unused, so stop after such errors.
    dispatch_coverage(function, &mut coverage, &mut errors);
    if !errors.is_empty() {
        return Err(errors);
    }
    collective_coverage(function, &mut coverage);
    group(function, allocations, &coverage, errors)
}

/// A HOST all_to_all_v runs once per program point
/// (docs/passes/pld-materialize-comm-domain-scopes.md step 4).
fn check_loops<'c, 'a>(function: OperationRef<'c, 'a>, errors: &mut Errors<'c, 'a>) {
    for op in ir::collect(function, |n| n == AllToAllV::NAME) {
        if enclosing_loop(op).is_some() {
            errors.push((
                op,
                "cannot be inside an scf.for or scf.while in a HOST orchestrator; call it once, \
                 outside the loop"
                    .into(),
            ));
        }
    }
}

/// The devices each allocation reaches through the dispatches' calls.
fn dispatch_coverage<'c, 'a>(
    function: OperationRef<'c, 'a>,
    coverage: &mut HashMap<usize, Devices>,
    errors: &mut Errors<'c, 'a>,
) {
    // would make its windows look unused, so stop after such errors.
    for op in ir::collect(function, |n| n == Dispatch::NAME) {
        let Some(dispatch) = Dispatch::cast(op) else {
            continue;
        };
        let Some(device) = dispatch.device() else {
            continue;
        };
        let devices = match of_device(device) {
            Ok(devices) => devices,
            Err(message) => {
                errors.push((op, message));
                continue;
            }
        };
        for call in dispatch.calls() {
            for argument in call.operands() {
                if let Some(allocation) = allocation_of(argument) {
                    merge_into(coverage, allocation, &devices);
                }
            }
        }
    }
}

/// HOST collectives give devices to their windows too. The operands that
/// need coverage of their own (the data, a barrier's signal) and that no
/// dispatch names run on the devices the dispatches give the collective's
/// other such operands, or on every device when no dispatch names any of
/// them (a HOST collective is a per-device dispatch itself). Signals and
/// all_to_all_v's receive counts then inherit their target's devices.
fn collective_coverage<'c, 'a>(
    function: OperationRef<'c, 'a>,
    coverage: &mut HashMap<usize, Devices>,
) where
    'c: 'a,
{
    let dispatched = coverage.clone();
    for op in ir::collect(function, |n| roles::host_kind(n).is_some()) {
        let Some(kind) = roles::host_kind(&op_name(&op)) else {
            continue;
        };
        let Some(view) = OpView::new(op) else {
            continue;
        };
        let allocation = |role: Role| view.one(role.group()).and_then(allocation_of);
        let operands = kind.facts().operands;
        let own: Vec<OperationRef> = operands
            .iter()
            .filter(|o| o.inherits.is_none())
            .filter_map(|o| allocation(o.role))
            .collect();
        let mut devices: Option<Devices> = None;
        for known in own.iter().filter_map(|a| dispatched.get(&key(*a))) {
            match devices.as_mut() {
                Some(d) => d.merge(known),
                None => devices = Some(known.clone()),
            }
        }
        let devices = devices.unwrap_or(Devices::All);
        for window in own.iter().filter(|a| !dispatched.contains_key(&key(**a))) {
            merge_into(coverage, *window, &devices);
        }
        for operand in operands {
            let Some(source) = operand.inherits else {
                continue;
            };
            let (Some(heir), Some(source)) = (allocation(operand.role), allocation(source)) else {
                continue;
            };
            if let Some(devices) = coverage.get(&key(source)).cloned() {
                merge_into(coverage, heir, &devices);
            }
        }
    }
}

/// Adds `devices` to the coverage of `allocation`.
fn merge_into(coverage: &mut HashMap<usize, Devices>, allocation: OperationRef, devices: &Devices) {
    coverage
        .entry(key(allocation))
        .and_modify(|d| d.merge(devices))
        .or_insert_with(|| devices.clone());
}

/// When a view of `allocation` is an operand of a `pld.builtin_*`
/// dispatch written by hand: what to write instead (a builtin is what
/// pld-lower-host-tensor-collectives emits inside the scopes this pass
/// makes, so it gives no coverage).
fn builtin_hint(allocation: OperationRef) -> String {
    let builtin = ir::users(ir::result(allocation))
        .into_iter()
        .filter(|u| op_name(u) == Window::NAME)
        .flat_map(|window| ir::users(ir::result(window)))
        .map(|user| op_name(&user))
        .find(|name| BUILTINS.contains(&name.as_str()));
    match builtin {
        Some(name) => format!(
            "; its view is an operand of {name}, a dispatch the HOST rail emits inside a \
             pld.comm_domain: write the collective (pld.tensor_<op>) instead, or put the \
             builtin in a pld.comm_domain whose slots name \"{}\"",
            allocation_name(allocation)
        ),
        None => String::new(),
    }
}

/// The `func.call`s outside any `pld.dispatch` of `function` that pass a
/// view of `allocation`: HOST subroutines or helpers, where this pass does
/// not look for dispatches.
fn passed_to_calls<'c, 'a>(
    function: OperationRef<'c, 'a>,
    allocation: OperationRef<'c, 'a>,
) -> Vec<OperationRef<'c, 'a>> {
    ir::collect(function, |n| n == Window::NAME)
        .into_iter()
        .filter(|window| {
            allocation_of(ir::result(*window)).is_some_and(|a| key(a) == key(allocation))
        })
        .flat_map(|window| ir::users(ir::result(window)))
        .filter(|user| {
            op_name(user) == "func.call"
                && !ir::ancestors(*user)
                    .iter()
                    .any(|p| op_name(p) == Dispatch::NAME)
        })
        .collect()
}

/// Whether the function `call` calls dispatches or runs a HOST collective,
/// itself or through the functions it calls: the devices it gives a view
/// passed to it are not seen here.
fn call_dispatches(function: OperationRef, call: OperationRef) -> bool {
    let Some(module) = function.parent_operation() else {
        return false;
    };
    let mut pending: Vec<String> = pld_ir::attr::callee(call).into_iter().collect();
    let mut seen = HashSet::new();
    while let Some(name) = pending.pop() {
        if !seen.insert(name.clone()) {
            continue;
        }
        let Some(callee) = ir::find_function(module, &name) else {
            continue;
        };
        let dispatching = ir::collect(callee, |n| {
            n == Dispatch::NAME || CollectiveKind::from_op_name(n).is_some()
        });
        if !dispatching.is_empty() {
            return true;
        }
        pending.extend(
            ir::collect(callee, |n| n == "func.call")
                .into_iter()
                .filter_map(pld_ir::attr::callee),
        );
    }
    false
}

/// Every allocation must be viewed and reach a device; allocations with
/// the same devices form one domain. `errors` are those found so far.
fn group<'c, 'a>(
    function: OperationRef<'c, 'a>,
    allocations: Vec<OperationRef<'c, 'a>>,
    coverage: &HashMap<usize, Devices>,
    mut errors: Errors<'c, 'a>,
) -> Result<Vec<Domain<'c, 'a>>, Errors<'c, 'a>> {
    // Which allocations have a view.
    let mut viewed = std::collections::HashSet::new();
    for window in ir::collect(function, |n| n == Window::NAME) {
        if let Some(allocation) = allocation_of(ir::result(window)) {
            viewed.insert(key(allocation));
        }
    }

    let mut domains: Vec<Domain> = Vec::new();
    for allocation in allocations {
        let name = allocation_name(allocation);
        if !viewed.contains(&key(allocation)) {
            errors.push((
                allocation,
                format!("allocation \"{name}\" has no pld.tensor_window materialisation (dead allocation)"),
            ));
            continue;
        }
        let calls = passed_to_calls(function, allocation);
        let dispatching = calls
            .iter()
            .copied()
            .find(|call| call_dispatches(function, *call));
        if let (Some(_), Some(call)) = (coverage.get(&key(allocation)), dispatching) {
            let callee = pld_ir::attr::callee(call).unwrap_or_default();
            errors.push((
                call,
                format!(
                    "passes the view of allocation \"{name}\" to @{callee}, which dispatches \
                     or runs a HOST collective: pld-materialize-comm-domain-scopes finds an \
                     allocation's devices in the HOST orchestrator that allocates it, so the \
                     devices @{callee} gives it would be lost; write the pld.dispatch (or the \
                     collective) in @{}",
                    ir::symbol_name(function).unwrap_or_default()
                ),
            ));
            continue;
        }
        let Some(devices) = coverage.get(&key(allocation)) else {
            if let Some(&call) = calls.first() {
                let callee = pld_ir::attr::callee(call).unwrap_or_default();
                errors.push((
                    call,
                    format!(
                        "passes the view of allocation \"{name}\" to @{callee}, and no \
                         dispatch or HOST collective of @{} uses it: \
                         pld-materialize-comm-domain-scopes finds an allocation's devices in \
                         the HOST orchestrator that allocates it, so write the pld.dispatch \
                         (or the collective) there, not in a function it calls",
                        ir::symbol_name(function).unwrap_or_default()
                    ),
                ));
                continue;
            }
            let message = format!(
                "allocation \"{name}\" is not consumed by any CHIP orchestrator dispatch \
                 or HOST collective{}",
                builtin_hint(allocation)
            );
            errors.push((allocation, message));
            continue;
        };
        let size = AllocWindowBuffer::cast(allocation)
            .and_then(|a| a.size())
            .ok_or_else(|| "malformed allocation".to_string())
            .and_then(sizes::expression);
        let size = match size {
            Ok(size) => size,
            Err(message) => {
                errors.push((allocation, format!("size of \"{name}\": {message}")));
                continue;
            }
        };
        // Collectives find their domain by slot name, so names are unique
        // in the whole function, not only within one domain.
        if domains
            .iter()
            .flat_map(|d| d.allocations.iter())
            .any(|a| allocation_name(*a) == name)
        {
            errors.push((
                allocation,
                format!(
                    "duplicate slot name \"{name}\": the allocations of one HOST orchestrator \
                     need distinct names"
                ),
            ));
            continue;
        }
        let index = domains.iter().position(|d| d.devices == *devices);
        let domain = match index {
            Some(i) => &mut domains[i],
            None => {
                domains.push(Domain {
                    devices: devices.clone(),
                    allocations: Vec::new(),
                    sizes: Vec::new(),
                });
                domains.last_mut().expect("just pushed")
            }
        };
        if let Some(message) = overflows(&domain.sizes, &size) {
            errors.push((allocation, format!("size of \"{name}\": {message}")));
            continue;
        }
        domain.allocations.push(allocation);
        domain.sizes.push(size);
    }
    if errors.is_empty() {
        Ok(domains)
    } else {
        Err(errors)
    }
}

/// Why a slot of `size` cannot join a window of the slots `before`: its
/// padded size, or the window's, overflows 64 bits on one device (MLIR
/// would fold the records' constants to a wrapped, negative count).
fn overflows(before: &[sizes::Size], size: &sizes::Size) -> Option<String> {
    let Some(padded) = sizes::aligned_on_one(size) else {
        return Some(format!(
            "{} bytes padded to {} overflow a 64-bit byte count",
            size.on_one,
            sizes::ALIGNMENT
        ));
    };
    // The slots before were checked as they joined.
    let window = sizes::window_on_one(before).unwrap_or(i64::MAX);
    window.checked_add(padded).is_none().then(|| {
        format!(
            "the comm domain's window would hold {window} bytes of earlier slots and {} of this \
             one, more than a 64-bit byte count holds",
            size.on_one
        )
    })
}

/// The size records of a domain whose slots have the logical byte counts
/// `sizes` (affine expressions of `s0`): `logical_bytes`, `aligned_bytes`
/// and `window_bytes`, in that order.
fn size_records<'c>(
    context: &'c Context,
    sizes: &[sizes::Size],
) -> [(&'static str, Attribute<'c>); 3] {
    let maps = |f: &dyn Fn(&String) -> String| -> Attribute<'c> {
        let maps: Vec<Attribute> = sizes
            .iter()
            .map(|s| affine_map(context, &f(&s.text)))
            .collect();
        ArrayAttribute::new(context, &maps).into()
    };
    let window = sizes
        .iter()
        .map(|s| sizes::aligned(&s.text))
        .collect::<Vec<_>>()
        .join(" + ");
    let window = if window.is_empty() {
        "0".into()
    } else {
        window
    };
    [
        ("logical_bytes", maps(&|s| s.clone())),
        ("aligned_bytes", maps(&|s| sizes::aligned(s))),
        ("window_bytes", affine_map(context, &window)),
    ]
}

/// Completes the comm domains a HOST function already has (hand-written,
/// or from an earlier run): a signal or receive-count allocation that no
/// slot names joins the domain of its target when it is nested in it (it
/// inherits its target's devices; `pld-synthesize-allreduce-signals`
/// inserts such a signal inside a scope), and a domain that gained a slot
/// or lacks a size record gets its records computed from its allocations.
/// Records a domain already has are kept unless it gained a slot.
fn complete<'c, 'a>(
    context: &'c Context,
    function: OperationRef<'c, 'a>,
    scopes: &[OperationRef<'c, 'a>],
) -> Errors<'c, 'a>
where
    'c: 'a,
{
    let grown = adopt(context, function, scopes);
    let mut errors = Vec::new();
    for scope in scopes {
        let missing: Vec<&str> = ["logical_bytes", "aligned_bytes", "window_bytes"]
            .into_iter()
            .filter(|name| scope.attribute(name).is_err())
            .collect();
        let changed = grown.contains(&key(*scope));
        if missing.is_empty() && !changed {
            continue;
        }
        let Some(sizes) = slot_sizes(*scope, &mut errors) else {
            continue;
        };
        for (name, value) in size_records(context, &sizes) {
            if changed || missing.contains(&name) {
                ir::set_attribute(*scope, name, value);
            }
        }
    }
    errors
}

/// Adds each signal or receive-count allocation that no slot of the
/// function names to the domain of the collective's target, when the
/// domain encloses it; returns the domains that grew.
fn adopt<'c, 'a>(
    context: &'c Context,
    function: OperationRef<'c, 'a>,
    scopes: &[OperationRef<'c, 'a>],
) -> HashSet<usize>
where
    'c: 'a,
{
    let mut owner: HashMap<String, OperationRef> = HashMap::new();
    for scope in scopes {
        let slots = CommDomain::cast(*scope)
            .and_then(|d| d.slots())
            .unwrap_or_default();
        for slot in slots {
            owner.entry(slot).or_insert(*scope);
        }
    }
    let mut grown = HashSet::new();
    for op in ir::collect(function, |n| roles::host_kind(n).is_some()) {
        let (Some(kind), Some(view)) = (roles::host_kind(&op_name(&op)), OpView::new(op)) else {
            continue;
        };
        let allocation = |role: Role| view.one(role.group()).and_then(allocation_of);
        for operand in kind.facts().operands {
            let Some(source) = operand.inherits else {
                continue;
            };
            let (Some(heir), Some(source)) = (allocation(operand.role), allocation(source)) else {
                continue;
            };
            let name = allocation_name(heir);
            if owner.contains_key(&name) {
                continue;
            }
            let Some(scope) = owner.get(&allocation_name(source)).copied() else {
                continue;
            };
            if !ir::ancestors(heir).contains(&scope) {
                continue;
            }
            let mut slots = CommDomain::cast(scope)
                .and_then(|d| d.slots())
                .unwrap_or_default();
            slots.push(name.clone());
            let slots: Vec<Attribute> = slots
                .iter()
                .map(|s| StringAttribute::new(context, s).into())
                .collect();
            ir::set_attribute(scope, "slots", ArrayAttribute::new(context, &slots).into());
            owner.insert(name, scope);
            grown.insert(key(scope));
        }
    }
    grown
}

/// The logical byte count of each slot of `scope`, from the allocation of
/// that name nested in it; `None` after reporting a slot whose size is not
/// an expression of constants and `world_size`.
fn slot_sizes<'c, 'a>(
    scope: OperationRef<'c, 'a>,
    errors: &mut Errors<'c, 'a>,
) -> Option<Vec<sizes::Size>>
where
    'c: 'a,
{
    let slots = CommDomain::cast(scope)
        .and_then(|d| d.slots())
        .unwrap_or_default();
    let allocations = ir::collect(scope, |n| n == AllocWindowBuffer::NAME);
    let mut sizes = Vec::new();
    let before = errors.len();
    for slot in slots {
        let Some(allocation) = allocations.iter().find(|a| allocation_name(**a) == slot) else {
            errors.push((
                scope,
                format!(
                    "slot \"{slot}\" names no pld.tensor_alloc_window_buffer inside the domain"
                ),
            ));
            continue;
        };
        let size = AllocWindowBuffer::cast(*allocation)
            .and_then(|a| a.size())
            .ok_or_else(|| "malformed allocation".to_string())
            .and_then(sizes::expression);
        match size.map(|size| (overflows(&sizes, &size), size)) {
            Ok((None, size)) => sizes.push(size),
            Ok((Some(message), _)) | Err(message) => {
                errors.push((*allocation, format!("size of \"{slot}\": {message}")))
            }
        }
    }
    (errors.len() == before).then_some(sizes)
}

/// An affine map attribute computing `expr` from `s0` = world_size.
fn affine_map<'c>(context: &'c Context, expr: &str) -> Attribute<'c> {
    Attribute::parse(context, &sizes::map_text(expr)).expect("affine map text parses")
}

/// Wraps the body of `function` in the domains, the first outermost.
/// Refuses to wrap `function` in `scopes` nested scopes when the printed
/// module would nest deeper than pld's tools read back
/// ([`pld_ir::nesting::MAX_NESTING`]): the pass succeeded and wrote a
/// module no pld tool could read (a shard program of 30 allreduces over
/// different grid axes of 64 devices made 505 domains). A scope nests its
/// body two levels deeper in the printed text (`({`), as does every region
/// the body already has; the module, the function and a line's types take a
/// few more.
fn readable_depth<'c, 'a>(
    function: OperationRef<'c, 'a>,
    scopes: usize,
) -> Result<(), (OperationRef<'c, 'a>, String)> {
    const MARGIN: usize = 8;
    let own = region_depth(function);
    let depth = 2 * (scopes + own) + MARGIN;
    if depth <= pld_ir::nesting::MAX_NESTING {
        return Ok(());
    }
    let name = ir::symbol_name(function).unwrap_or_default();
    let most = pld_ir::nesting::MAX_NESTING;
    let wrapped = format!(
        "@{name} would need {} around its body, one per distinct set of devices its window \
         buffers are used on, and its own ops nest {} deep; in the printed module (generic form, \
         two levels per region: `({{`) that is about {depth} levels, and pld's tools read at \
         most {most} (docs/tools/pld-opt.md)",
        pld_ir::diag::count(scopes, "nested pld.comm_domain scope"),
        pld_ir::diag::count(own, "region"),
    );
    // Advice for what makes most of the depth.
    let advice = match own >= scopes {
        true => "nest its loops and branches less deeply",
        false => {
            "use fewer distinct device sets (for a shard program, fewer distinct groups of grid \
             axes)"
        }
    };
    Err((function, format!("{wrapped}: {advice}")))
}

/// How many regions deep the deepest op of `op`'s regions is.
fn region_depth(op: OperationRef) -> usize {
    let mut deepest = 0;
    for region in op.regions() {
        let mut block = region.first_block();
        while let Some(b) = block {
            let mut inner = b.first_operation();
            while let Some(nested) = inner {
                deepest = deepest.max(1 + region_depth(nested));
                inner = nested.next_in_block();
            }
            block = b.next_in_region();
        }
    }
    deepest
}

fn wrap<'c, 'a>(
    context: &'c Context,
    function: OperationRef<'c, 'a>,
    domains: &[Domain<'c, 'a>],
) -> Result<(), (OperationRef<'c, 'a>, String)>
where
    'c: 'a,
{
    let body = function
        .region(0)
        .ok()
        .and_then(|r| r.first_block())
        .ok_or((function, "HOST function has no body".to_string()))?;
    let ret = body
        .terminator()
        .ok_or((function, "HOST function body has no terminator".to_string()))?;
    let returned: Vec<Value> = ret.operands().collect();
    let result_types: Vec<Type> = returned.iter().map(|v| v.r#type()).collect();
    if result_types.windows(2).any(|w| w[0] != w[1]) {
        return Err((
            ret,
            "cannot wrap a HOST function that returns values of different types in comm domains"
                .into(),
        ));
    }
    // The ops to move: everything but the terminator.
    let mut moved = Vec::new();
    let mut next = body.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        if op != ret {
            moved.push(op);
        }
    }

    let mut anchor = ret;
    let mut scopes = Vec::new();
    for (n, domain) in domains.iter().enumerate() {
        let location = domain
            .allocations
            .first()
            .map(|a| a.location())
            .unwrap_or_else(|| Location::unknown(context));
        let scope = ir::insert_before(
            anchor,
            build_scope(context, n, domain, &result_types, location),
        );
        let inner_yield = ir::region_terminator(scope, 0).expect("scope has its gpu.yield");
        scopes.push((scope, inner_yield));
        anchor = inner_yield;
    }
    for op in moved {
        ir::move_before(op, anchor);
    }
    // Thread returned values out through every scope, innermost first.
    if !returned.is_empty() {
        let mut values = returned;
        for (scope, inner_yield) in scopes.iter().rev() {
            ir::set_operands(*inner_yield, &values);
            values = scope.results().map(Into::into).collect();
        }
        ir::set_operands(ret, &values);
    }
    Ok(())
}

fn build_scope<'c>(
    context: &'c Context,
    index: usize,
    domain: &Domain,
    result_types: &[Type<'c>],
    location: Location<'c>,
) -> melior::ir::Operation<'c> {
    let block = Block::new(&[]);
    block.append_operation(
        OperationBuilder::new("gpu.yield", location)
            .build()
            .expect("gpu.yield builds"),
    );
    let region = Region::new();
    region.append_block(block);
    let text = |s: &str| -> Attribute { StringAttribute::new(context, s).into() };
    let slots: Vec<Attribute> = domain
        .allocations
        .iter()
        .map(|a| text(&allocation_name(*a)))
        .collect();
    let mut builder = CommDomain::builder(context, location)
        .region(region)
        .attribute("name", text(&format!("comm_d{index}")))
        .attribute(
            "devices",
            DenseI64ArrayAttribute::new(context, &domain.devices.list()).into(),
        )
        .attribute("slots", ArrayAttribute::new(context, &slots).into());
    for (name, value) in size_records(context, &domain.sizes) {
        builder = builder.attribute(name, value);
    }
    for ty in result_types {
        builder = builder.result(*ty);
    }
    builder.build()
}

static IDENTITY: PassIdentity = PassIdentity;

/// Creates the pass.
pub fn create() -> Pass {
    external(MaterializeCommDomainScopes, &IDENTITY)
}
