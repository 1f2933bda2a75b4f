//! The pld semantic verifier (`pld-verify`).
//!
//! IRDL checks arity and base kinds while parsing; this verifier checks
//! everything else docs/dialect.md 4 states: which operands are distributed,
//! ranks of offset and shape tuples, dtypes, signal shapes, enum values,
//! which function kinds may hold which ops, and the properties carried by
//! tensor encodings. Every finding is reported at the location of the op
//! (or function) it is about. The rules are listed, one line each, in
//! docs/dialect.md, and each has an `expected-error` case in
//! tests/lit/passes/pld-verify/invalid.mlir.

mod builtin;
mod collective;
mod host;
mod placement;
mod pto;
mod remote;
mod signal;
mod tile;
mod window;

use crate::collective::CollectiveKind;
use crate::ops::ctx::GetCommCtx;
use crate::ops::fence::CacheInvalid;
use crate::ops::host::{CommDomain, Dispatch};
use crate::ops::remote::{
    RemoteLoad, RemoteLoadTailPadded, TensorGet, TensorPut, TensorRemoteStore, TileGet, TilePut,
    TileRemoteStore,
};
use crate::ops::signal::{DeferWait, Notify, Wait};
use crate::ops::tile::{
    TensorRead, TensorView, TileAdd, TileCreate, TileFillPad, TileLoad, TileMaximum, TileMinimum,
    TileMul, TileSetValidShape, TileStore,
};
use crate::ops::window::{AllocWindowBuffer, Window};
use crate::target::{target_of, Target, TARGET_ATTR};
use crate::{
    enums::{FuncKind, PldEnum},
    ops::OpView,
    query::function_kind,
    types::{tensor_info, TensorInfo, TensorKind},
};
use melior::ir::{operation::OperationLike, Location, OperationRef, Value, ValueLike};
use pld_ir::{diag::emit_error, enclosing_function, function_type, op_name, symbol_name};
use std::collections::HashMap;

/// One verifier finding.
#[derive(Clone, Debug)]
pub struct Finding<'c> {
    pub location: Location<'c>,
    pub message: String,
}

/// Verifies every op nested in `root` (usually the module). Returns the
/// findings in IR order; empty means the IR is valid.
pub fn verify<'c>(root: OperationRef<'c, '_>) -> Vec<Finding<'c>> {
    let ops = pld_ir::all_ops(root);

    let mut checker = Checker {
        findings: Vec::new(),
        functions: HashMap::new(),
        helper_calls: HashMap::new(),
        infos: Default::default(),
    };
    // G8 (the module's backend, docs/dialect.md 2.6) is checked with the
    // other ops: `all_ops` includes `root`.
    for op in &ops {
        if op_name(op) == "func.func" {
            checker.declare_function(*op);
        }
    }
    for op in ops {
        checker.check_op(op);
    }
    checker.findings
}

/// Verifies `root` and emits each finding as an MLIR error diagnostic, so
/// that diagnostic handlers (and `--verify-diagnostics`) see them. Returns
/// whether the IR is valid.
pub fn verify_and_emit(root: OperationRef) -> bool {
    let findings = verify(root);
    for finding in &findings {
        emit_error(finding.location, &finding.message);
    }
    findings.is_empty()
}

pub(crate) struct Checker<'c> {
    findings: Vec<Finding<'c>>,
    /// The `pld.kind` of every function, by name.
    functions: HashMap<String, Option<FuncKind>>,
    /// The calls in each function without a `pld.kind`, by name: each
    /// callee and whether the call is inside a `pld.dispatch` (D13 checks
    /// calls through such helpers).
    helper_calls: HashMap<String, Vec<(String, bool)>>,
    /// `tensor_info` of every type met so far in this run, by type (the
    /// module is not changed while it is verified): reading a type's pld
    /// encoding prints and parses attributes, far slower than a lookup.
    infos: std::cell::RefCell<HashMap<usize, Result<Option<TensorInfo<'c>>, String>>>,
}

impl<'c> Checker<'c> {
    /// `tensor_info(ty)`, once per type and run.
    fn info(&self, ty: melior::ir::Type<'c>) -> Result<Option<TensorInfo<'c>>, String> {
        self.infos
            .borrow_mut()
            .entry(pld_ir::types::type_key(ty))
            .or_insert_with(|| tensor_info(ty))
            .clone()
    }

    fn error(&mut self, location: Location<'c>, message: String) {
        self.findings.push(Finding { location, message });
    }

    /// G8: a module's `pld.target` names a known backend.
    fn check_target(&mut self, module: OperationRef<'c, '_>) {
        if module.attribute(TARGET_ATTR).is_ok() {
            if let Err(message) = target_of(module) {
                self.error(module.location(), message);
            }
        }
    }

    /// D13: a call stays within the levels: a HOST orchestrator runs a
    /// CHIP orchestrator through `pld.dispatch` and device code only
    /// through one; device code calls no orchestrator. A call of a function
    /// without `pld.kind` is checked through it: what that helper calls,
    /// directly or through other helpers, is called from the caller's level.
    fn check_call(&mut self, call: OperationRef<'c, '_>) {
        let caller_name = enclosing_function(call).and_then(symbol_name);
        let Some(caller) = caller_name.as_ref().and_then(|n| self.kind(n)) else {
            return;
        };
        let Some(callee_name) = pld_ir::attr::callee(call) else {
            return;
        };
        let in_dispatch = in_dispatch(call);
        let why = match self.kind(&callee_name) {
            Some(callee) => level_rule(
                (caller, caller_name.unwrap_or_default()),
                (callee, format!("@{callee_name}")),
                in_dispatch,
            ),
            None => self.through_helpers(&callee_name).into_iter().find_map(
                |(callee, path, inner_dispatch)| {
                    level_rule(
                        (caller, caller_name.clone().unwrap_or_default()),
                        (callee, path),
                        in_dispatch || inner_dispatch,
                    )
                },
            ),
        };
        if let Some(why) = why {
            self.error(call.location(), format!("'func.call' op {why}"));
        }
    }

    fn kind(&self, function: &str) -> Option<FuncKind> {
        self.functions.get(function).copied().flatten()
    }

    /// The functions with a `pld.kind` that `helper` (a function without
    /// one) calls, directly or through other helpers: each with the path
    /// as a message names it (`@k through @helper`) and whether the call is
    /// inside a `pld.dispatch` of a helper.
    fn through_helpers(&self, helper: &str) -> Vec<(FuncKind, String, bool)> {
        let mut reached = Vec::new();
        let mut seen = std::collections::HashSet::from([helper.to_string()]);
        let mut pending = vec![(helper.to_string(), vec![helper.to_string()])];
        while let Some((name, path)) = pending.pop() {
            for (callee, dispatched) in self.helper_calls.get(&name).into_iter().flatten() {
                match self.kind(callee) {
                    Some(kind) => {
                        let through: Vec<String> = path.iter().map(|h| format!("@{h}")).collect();
                        let text = format!("@{callee} through {}", through.join(" and "));
                        reached.push((kind, text, *dispatched));
                    }
                    None if seen.insert(callee.clone()) => {
                        let mut longer = path.clone();
                        longer.push(callee.clone());
                        pending.push((callee.clone(), longer));
                    }
                    None => {}
                }
            }
        }
        reached
    }

    fn declare_function(&mut self, func: OperationRef<'c, '_>) {
        let Some(name) = symbol_name(func) else {
            return;
        };
        let kind = function_kind(func);
        if matches!(kind, Ok(None)) {
            let calls = pld_ir::collect(func, |n| n == "func.call")
                .into_iter()
                .filter_map(|call| Some((pld_ir::attr::callee(call)?, in_dispatch(call))))
                .collect();
            self.helper_calls.insert(name.clone(), calls);
        }
        self.functions.insert(name, kind.ok().flatten());
    }

    fn check_function(&mut self, func: OperationRef<'c, '_>) {
        let location = func.location();
        let name = symbol_name(func).unwrap_or_default();
        // The lowering and the compiled code name functions after it
        // (recheck27c M1, M2: an error inside pld-run's own text, or none
        // at the function).
        let unnamable = match name.as_str() {
            "" => {
                Some("an empty name; the functions pld makes of it are named after it: give it one")
            }
            _ if name.contains('\0') => Some(crate::query::NUL_IN_NAME),
            _ => None,
        };
        if let Some(why) = unnamable {
            let shown = pld_ir::print::symbol_ref(&name);
            self.error(location, format!("function {shown} has {why}"));
        }
        if let Err(text) = function_kind(func) {
            self.error(
                location,
                format!(
                    "function @{name}: pld.kind must be #pld.func_kind<...> with one of {}, got {text}",
                    FuncKind::member_list()
                ),
            );
        }
        if let Some(ty) = function_type(func) {
            for i in 0..ty.input_count() {
                if let Ok(input) = ty.input(i) {
                    if let Err(message) = self.info(input) {
                        self.error(
                            location,
                            format!("function @{name}: argument #{i}: {message}"),
                        );
                    }
                }
            }
            for i in 0..ty.result_count() {
                if let Ok(result) = ty.result(i) {
                    if let Err(message) = self.info(result) {
                        self.error(
                            location,
                            format!("function @{name}: result #{i}: {message}"),
                        );
                    }
                }
            }
        }
    }

    fn check_op(&mut self, op: OperationRef<'c, '_>) {
        let name = op_name(&op);
        if name == "func.func" {
            self.check_function(op);
            return;
        }
        if name == "builtin.module" {
            self.check_target(op);
            return;
        }
        if name == "func.call" {
            self.check_call(op);
            return;
        }
        for (i, result) in op.results().enumerate() {
            if let Err(message) = self.info(result.r#type()) {
                self.error(op.location(), format!("'{name}' op result #{i}: {message}"));
            }
        }
        let pto_rule: Option<fn(OperationRef) -> Vec<String>> = match name.as_str() {
            crate::ops::pto::AllocTile::NAME => Some(pto::alloc_tile),
            crate::ops::pto::CommBuildAsyncSession::NAME => Some(pto::build_async_session),
            crate::ops::pto::CommTPutAsync::NAME | crate::ops::pto::CommTGetAsync::NAME => {
                Some(pto::async_transfer)
            }
            _ => None,
        };
        if let Some(rule) = pto_rule {
            for message in rule(op) {
                self.error(op.location(), format!("'{name}' op {message}"));
            }
            return;
        }
        if !name.starts_with("pld.") {
            return;
        }
        let Some(view) = OpView::new(op) else { return };
        if view.group_ranges().is_none() {
            // IRDL rejects these while parsing; an op built by a pass can
            // still get its operand segments wrong.
            self.error(
                op.location(),
                format!("'{name}' op operands do not match its operand groups"),
            );
            return;
        }
        let func = enclosing_function(op);
        // Read once per function, by `declare_function`.
        let function = func.and_then(symbol_name).unwrap_or_default();
        let kind = match self.functions.get(&function) {
            Some(kind) => *kind,
            None => func.and_then(|f| function_kind(f).ok().flatten()),
        };
        let Some(kind) = kind else {
            self.error(
                op.location(),
                format!(
                    "'{name}' op must be inside a func.func with a pld.kind attribute \
                     (e.g. pld.kind = #pld.func_kind<\"incore\">)"
                ),
            );
            return;
        };
        let function = func.and_then(symbol_name).unwrap_or_default();
        // The nearest enclosing module's target; a malformed one is G8's
        // error, and the rules that depend on it are skipped.
        let target = target_of(op).ok();
        let mut cx = OpCx {
            target,
            checker: self,
            view,
            name,
            kind,
            function,
        };
        if !placement::check(&mut cx) {
            return;
        }
        if let Some(kind) = CollectiveKind::from_op_name(&cx.name) {
            return collective::check(kind, &mut cx);
        }
        if let Some((kind, mode)) = CollectiveKind::from_builtin_op(&cx.name) {
            return builtin::check(kind, mode, &mut cx);
        }
        match cx.name.as_str() {
            AllocWindowBuffer::NAME => window::alloc_window_buffer(&mut cx),
            Window::NAME => window::window(&mut cx),
            GetCommCtx::NAME => window::get_comm_ctx(&mut cx),
            Notify::NAME => signal::notify(&mut cx),
            Wait::NAME => signal::wait(&mut cx, false),
            DeferWait::NAME => signal::wait(&mut cx, true),
            RemoteLoad::NAME => remote::remote_load(&mut cx, false),
            RemoteLoadTailPadded::NAME => remote::remote_load(&mut cx, true),
            TileRemoteStore::NAME => remote::remote_store(&mut cx, TensorKind::Tile),
            TensorRemoteStore::NAME => remote::remote_store(&mut cx, TensorKind::Plain),
            TensorPut::NAME => remote::transfer(&mut cx, true, false),
            TensorGet::NAME => remote::transfer(&mut cx, false, false),
            TilePut::NAME => remote::transfer(&mut cx, true, true),
            TileGet::NAME => remote::transfer(&mut cx, false, true),
            CacheInvalid::NAME => signal::cacheinvalid(&mut cx),
            TensorView::NAME => tile::tensor_view(&mut cx),
            TensorRead::NAME => tile::tensor_read(&mut cx),
            TileCreate::NAME => tile::tile_create(&mut cx),
            TileLoad::NAME => tile::tile_load(&mut cx),
            TileStore::NAME => tile::tile_store(&mut cx),
            TileFillPad::NAME => tile::tile_fillpad(&mut cx),
            TileSetValidShape::NAME => tile::tile_set_validshape(&mut cx),
            TileAdd::NAME | TileMaximum::NAME | TileMinimum::NAME | TileMul::NAME => {
                tile::elementwise(&mut cx)
            }
            Dispatch::NAME => host::dispatch(&mut cx),
            CommDomain::NAME => host::comm_domain(&mut cx),
            _ => {}
        }
    }
}

/// The context of one op's checks.
pub(crate) struct OpCx<'x, 'c, 'a> {
    checker: &'x mut Checker<'c>,
    pub view: OpView<'c, 'a>,
    pub name: String,
    pub kind: FuncKind,
    pub function: String,
    /// The module's `pld.target` (`None` when it is malformed).
    pub target: Option<Target>,
}

impl<'c, 'a> OpCx<'_, 'c, 'a> {
    /// Reports an error about this op.
    pub fn error(&mut self, message: impl AsRef<str>) {
        let location = self.view.op.location();
        let text = format!("'{}' op {}", self.name, message.as_ref());
        self.checker.error(location, text);
    }

    pub fn one(&self, group: &str) -> Option<Value<'c, 'a>> {
        self.view.one(group)
    }

    pub fn group(&self, group: &str) -> Vec<Value<'c, 'a>> {
        self.view.group(group).unwrap_or_default()
    }

    /// The kind of function `name`: `None` if there is no such function,
    /// `Some(None)` if it has no `pld.kind`.
    pub fn function_kind(&self, name: &str) -> Option<Option<FuncKind>> {
        self.checker.functions.get(name).copied()
    }

    /// The tensor info of operand group `group` (a single value). Type
    /// errors of the value were already reported where it is defined.
    pub fn tensor(&self, group: &str) -> Option<TensorInfo<'c>> {
        self.checker.info(self.one(group)?.r#type()).ok().flatten()
    }

    /// The tensor info of the first result.
    pub fn result_tensor(&self) -> Option<TensorInfo<'c>> {
        let result = pld_ir::result_at(self.view.op, 0)?;
        self.checker.info(result.r#type()).ok().flatten()
    }

    /// Requires operand `role` to be a distributed tensor.
    pub fn distributed(&mut self, role: &str) -> Option<TensorInfo<'c>> {
        let info = self.tensor(role)?;
        if info.kind != TensorKind::Distributed {
            self.error(format!(
                "{role} must be a distributed tensor (#pld.dist, bound to a window), got a {}",
                info.kind
            ));
            return None;
        }
        Some(info)
    }

    /// Requires operand `role` to be a global-memory tensor (plain or
    /// distributed), not a tile.
    pub fn global(&mut self, role: &str) -> Option<TensorInfo<'c>> {
        let info = self.tensor(role)?;
        if info.kind == TensorKind::Tile {
            self.error(format!("{role} must be a tensor, not a tile"));
            return None;
        }
        Some(info)
    }

    /// Requires an INT32 distributed signal.
    pub fn signal(&mut self, role: &str) -> Option<TensorInfo<'c>> {
        let info = self.distributed(role)?;
        if info.dtype() != "i32" {
            self.error(format!(
                "{role} must have element type i32, got {}",
                info.dtype()
            ));
            return None;
        }
        Some(info)
    }

    /// Requires `count` values in group `group`, one per dimension of `of`.
    pub fn tuple_rank(&mut self, group: &str, of: &str, rank: usize) -> bool {
        let count = self.group(group).len();
        if count != rank {
            self.error(format!(
                "expected {rank} {group} (one per dimension of {of}), got {count}"
            ));
            return false;
        }
        true
    }

    /// Requires `info` (operand `role`) to have the element type of `other`
    /// (operand `other_role`). Returns whether they agree.
    pub fn same_dtype(
        &mut self,
        role: &str,
        info: &TensorInfo,
        other_role: &str,
        other: &TensorInfo,
    ) -> bool {
        if info.element == other.element {
            return true;
        }
        self.error(format!(
            "{role} dtype {} must equal the {other_role} dtype {}",
            info.dtype(),
            other.dtype()
        ));
        false
    }

    /// Requires the first result to have the type of operand `group`.
    pub fn result_is(&mut self, group: &str) {
        let (Some(value), Some(result)) = (self.one(group), pld_ir::result_at(self.view.op, 0))
        else {
            return;
        };
        if value.r#type() != result.r#type() {
            self.error(format!(
                "result type {} must equal the {group} type {}",
                result.r#type(),
                value.r#type()
            ));
        }
    }
}

/// D13's rule for a call from `caller` (its kind and name) of `callee` (its
/// kind and name as the message gives it: `@k`, or `@k through @helper`):
/// why the call leaves the levels, or `None`.
fn level_rule(
    (caller, caller_name): (FuncKind, String),
    (callee, callee_name): (FuncKind, String),
    in_dispatch: bool,
) -> Option<String> {
    Some(match (caller, callee) {
        (FuncKind::Host, FuncKind::Chip) if !in_dispatch => format!(
            "calls CHIP orchestrator {callee_name} outside a pld.dispatch; a HOST \
             orchestrator runs it on a device with pld.dispatch"
        ),
        // A dispatch's own rule (D2) names a kernel dispatched.
        (FuncKind::Host, device) if device.is_device() && !in_dispatch => format!(
            "calls {} {callee_name} from a HOST orchestrator; device code runs in a task \
             of a CHIP orchestrator: call the kernel from one, and pld.dispatch that",
            device.describe()
        ),
        (caller, FuncKind::Host | FuncKind::Chip) if caller.is_device() => format!(
            "calls {} {callee_name} from {} @{caller_name}; device code calls no orchestrator",
            callee.describe(),
            caller.describe(),
        ),
        (FuncKind::Chip, FuncKind::Host) => format!(
            "calls HOST orchestrator {callee_name} from a CHIP orchestrator; the HOST runs \
             CHIP orchestrators, not the other way round"
        ),
        _ => return None,
    })
}

/// Whether `op` is inside a `pld.dispatch` (in a branch or loop inside it
/// too).
fn in_dispatch(op: OperationRef) -> bool {
    pld_ir::ancestors(op)
        .iter()
        .any(|p| op_name(p) == crate::ops::host::Dispatch::NAME)
}
