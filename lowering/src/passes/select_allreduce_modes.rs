//! `pld-select-allreduce-modes`: gives every `pld.tensor_allreduce` written
//! with `mode = "auto"` the schedule the alpha-beta cost model predicts
//! fastest for its static size, rank count and dtype (`crate::cost`).
//!
//! Docs: `docs/passes/pld-select-allreduce-modes.md` (the model:
//! `docs/algorithms.md`); tests: `tests/lit/passes/pld-select-allreduce-modes/`.
//!
//! The candidates are the schedules the call's signal fits: a ring-shaped
//! signal (InCore `[2(NR-1), NR]`, HOST `[2(NR-1)+1, NR]`) only the ring,
//! any other signal (or none, on the HOST rail) the mesh and two-shot. When the size or the rank count is not static, the
//! mesh (the default mode) is kept. The op gets `mode` set to the choice
//! and `pld.auto_mode`, a dictionary with the choice and every candidate's
//! predicted time; with `remarks=true` a remark says the same.

use crate::cost::{self, CostFile, CostModel, Rail, Shape};
use melior::{
    ir::{
        attribute::{FloatAttribute, IntegerAttribute, StringAttribute},
        operation::OperationLike,
        Attribute, OperationRef, Type,
    },
    pass::Pass,
    Context,
};
use pld_dialect::{
    enums::{AllReduceMode, FuncKind, ReduceOp},
    ops::collective::AllReduce,
    query::function_kind,
    types::{operand_tensor, TensorInfo},
};
use pld_ir as ir;
use pld_ir::pass::{external, Anchor, PassFailed, PassIdentity, PldPass, Report};
use std::sync::OnceLock;

/// The pass and its options.
#[derive(Clone, Debug, PartialEq)]
pub struct SelectAllReduceModes {
    pub model: CostModel,
    /// The table the model came from, for the remark (`sim` by default).
    pub target: String,
    /// Emit a remark per resolved call.
    pub remarks: bool,
    /// The rank count a HOST call without a signal is chosen for
    /// (`world-size=N`; `None`: such a call keeps the default).
    pub world_size: Option<i64>,
}

/// What `pld-opt --pld-cost-model=FILE --pld-cost-target=NAME
/// --pld-remark-allreduce-mode` sets for every instance made without
/// options (the named pipelines' instances).
#[derive(Clone, Debug, Default)]
pub struct Defaults {
    pub file: Option<String>,
    pub target: Option<String>,
    pub remarks: bool,
    /// `--pld-world-size=N`.
    pub world_size: Option<i64>,
}

static DEFAULTS: OnceLock<Defaults> = OnceLock::new();

/// The record of the choice: `{chosen = "two_shot", mesh_us = ..., two_shot_us = ...}`,
/// kept on the op the rails lower the allreduce to.
pub use crate::composite::AUTO_MODE_ATTRIBUTE;

/// Sets the process-wide defaults (once, before any pipeline is built).
pub fn set_defaults(defaults: Defaults) -> Result<(), String> {
    SelectAllReduceModes::from_parts(
        defaults.file.as_deref(),
        defaults.target.as_deref(),
        defaults.remarks,
    )?
    .with_world_size(defaults.world_size)?;
    DEFAULTS
        .set(defaults)
        .map_err(|_| "the cost-model defaults are already set".to_string())
}

impl SelectAllReduceModes {
    /// The pass for a model file (`None`: the simulator's defaults), a
    /// target table and the remark switch.
    pub fn from_parts(
        file: Option<&str>,
        target: Option<&str>,
        remarks: bool,
    ) -> Result<Self, String> {
        let target = target.unwrap_or("sim").to_string();
        let model = match file {
            None if target == "sim" => CostModel::SIMULATOR,
            None => {
                return Err(format!(
                    "pld-select-allreduce-modes: no built-in cost model for target '{target}' \
                     (only 'sim'); give a file with cost-model=FILE"
                ))
            }
            Some(path) => {
                let text = std::fs::read_to_string(path).map_err(|e| {
                    format!("pld-select-allreduce-modes: cannot read cost model '{path}': {e}")
                })?;
                let parsed = CostFile::parse(&text)
                    .map_err(|e| format!("{path}:{}: {}", e.line, e.message))?;
                parsed.target(&target).ok_or_else(|| {
                    format!(
                        "{path}: no table [{target}] (the cost model's targets: {})",
                        names(&parsed)
                    )
                })?
            }
        };
        Ok(SelectAllReduceModes {
            model,
            target,
            remarks,
            world_size: None,
        })
    }

    /// The pass with the rank count of HOST calls without a signal (1 to
    /// 64 ranks, the HOST ring's limit).
    pub fn with_world_size(self, world_size: Option<i64>) -> Result<Self, String> {
        if let Some(n) = world_size.filter(|n| !(1..=64).contains(n)) {
            return Err(format!(
                "pld-select-allreduce-modes: world-size must be 1 to 64, got {n}"
            ));
        }
        Ok(SelectAllReduceModes { world_size, ..self })
    }

    /// Reads `cost-model=FILE target=NAME remarks=true|false`.
    pub fn parse(text: &str) -> Result<Self, String> {
        let defaults = DEFAULTS.get().cloned().unwrap_or_default();
        let (mut file, mut target, mut remarks, mut world_size) = (
            defaults.file,
            defaults.target,
            defaults.remarks,
            defaults.world_size,
        );
        for item in text.split_whitespace() {
            let (key, value) = item.split_once('=').ok_or_else(|| {
                format!("pld-select-allreduce-modes: expected key=value, not '{item}'")
            })?;
            match key {
                "cost-model" => file = Some(value.to_string()),
                "target" => target = Some(value.to_string()),
                "remarks" => {
                    remarks = value.parse().map_err(|_| {
                        format!("pld-select-allreduce-modes: remarks is true or false, not '{value}'")
                    })?
                }
                "world-size" => {
                    world_size = Some(value.parse().map_err(|_| {
                        format!("pld-select-allreduce-modes: world-size is a number of ranks, not '{value}'")
                    })?)
                }
                other => {
                    return Err(format!(
                        "pld-select-allreduce-modes has no option '{other}' (its options: cost-model, target, remarks, world-size)"
                    ))
                }
            }
        }
        Self::from_parts(file.as_deref(), target.as_deref(), remarks)?.with_world_size(world_size)
    }
}

fn names(file: &CostFile) -> String {
    let names: Vec<&str> = file.tables.iter().map(|(n, _)| n.as_str()).collect();
    names.join(", ")
}

impl PldPass for SelectAllReduceModes {
    const ARGUMENT: &'static str = "pld-select-allreduce-modes";
    const NAME: &'static str = "PldSelectAllReduceModes";
    const SUMMARY: &'static str =
        "Resolve mode = \"auto\" of every allreduce to the schedule the alpha-beta cost model predicts fastest";
    const ANCHOR: Anchor = Anchor::Module;

    fn run(&self, context: &Context, root: OperationRef) -> Result<(), PassFailed> {
        let mut report = Report::default();
        for function in ir::functions(root) {
            let Ok(Some(kind)) = function_kind(function) else {
                continue;
            };
            for op in ir::collect(function, |n| n == AllReduce::NAME) {
                let Some(allreduce) = AllReduce::cast(op).filter(|a| a.is_auto()) else {
                    continue;
                };
                if let Err(message) = self.resolve(context, kind, &allreduce) {
                    report.error(op, &message);
                }
            }
        }
        report.finish()
    }
}

/// A call's inputs to the model, as far as they are static.
struct Call {
    rail: Rail,
    candidates: Vec<AllReduceMode>,
    elements: Option<i64>,
    element_bytes: i64,
    ranks: Option<i64>,
}

impl SelectAllReduceModes {
    fn resolve(
        &self,
        context: &Context,
        kind: FuncKind,
        allreduce: &AllReduce,
    ) -> Result<(), String> {
        let call = describe(kind, allreduce, self.world_size)?;
        let op = allreduce.op();
        let fallback = if call.candidates.contains(&AllReduceMode::Mesh) {
            AllReduceMode::Mesh
        } else {
            call.candidates[0]
        };
        let (chosen, times, why) = match (call.elements, call.ranks) {
            (Some(elements), Some(ranks)) if ranks > 0 => {
                let shape = Shape {
                    rail: call.rail,
                    elements,
                    element_bytes: call.element_bytes,
                    ranks,
                };
                let (chosen, times) = cost::choose(&self.model, &shape, &call.candidates)
                    .ok_or("no candidate schedule")?;
                let bytes = elements * call.element_bytes;
                (chosen, times, format!("{bytes} bytes on {ranks} ranks"))
            }
            _ => (
                fallback,
                Vec::new(),
                "a size or rank count known only at run time".into(),
            ),
        };
        // A call without a signal was chosen for world-size=N ranks: the
        // record keeps N, for the signal pld-synthesize-allreduce-signals
        // makes (the ring's is sized by it).
        let planned = match (allreduce.signal(), times.is_empty()) {
            (None, false) => call.ranks,
            _ => None,
        };
        let dictionary = record(context, chosen, &times, planned);
        ir::set_attribute(
            op,
            "mode",
            StringAttribute::new(context, &chosen.to_string()).into(),
        );
        ir::set_attribute(op, AUTO_MODE_ATTRIBUTE, dictionary);
        if self.remarks {
            ir::diag::emit_remark(op.location(), &remark(chosen, &times, &why, &self.target));
        }
        Ok(())
    }
}

/// `mode = "auto" chose "two_shot" for 4194304 bytes on 4 ranks (model 'sim'): two_shot 412.0 us, mesh 812.5 us`.
fn remark(
    chosen: AllReduceMode,
    times: &[(AllReduceMode, f64)],
    why: &str,
    target: &str,
) -> String {
    let mut sorted = times.to_vec();
    sorted.sort_by(|a, b| a.1.total_cmp(&b.1));
    let predicted: Vec<String> = sorted
        .iter()
        .map(|(mode, seconds)| format!("{mode} {:.1} us", seconds * 1e6))
        .collect();
    if predicted.is_empty() {
        return format!("mode = \"auto\" kept \"{chosen}\" (the default) for {why}");
    }
    format!(
        "mode = \"auto\" chose \"{chosen}\" for {why} (cost model '{target}'): {}",
        predicted.join(", ")
    )
}

/// `{chosen = "...", <mode>_us = ..., ranks = N}`: the choice, every
/// candidate's predicted microseconds (to 0.1 us) and the rank count a
/// call without a signal was chosen for.
fn record<'c>(
    context: &'c Context,
    chosen: AllReduceMode,
    times: &[(AllReduceMode, f64)],
    planned: Option<i64>,
) -> Attribute<'c> {
    let mut entries = vec![(
        "chosen".to_string(),
        StringAttribute::new(context, &chosen.to_string()).into(),
    )];
    for (mode, seconds) in times {
        let micros = (seconds * 1e7).round() / 10.0;
        let value: Attribute = FloatAttribute::new(context, Type::float64(context), micros).into();
        entries.push((format!("{mode}_us"), value));
    }
    if let Some(ranks) = planned {
        let value = IntegerAttribute::new(ir::i64_type(context), ranks).into();
        entries.push(("ranks".to_string(), value));
    }
    dictionary(context, &entries)
}

fn dictionary<'c>(context: &'c Context, entries: &[(String, Attribute<'c>)]) -> Attribute<'c> {
    let text: Vec<String> = entries.iter().map(|(k, v)| format!("{k} = {v}")).collect();
    Attribute::parse(context, &format!("{{{}}}", text.join(", "))).expect("a dictionary parses")
}

/// The rail, the candidates the signal fits, and the static numbers.
fn describe(
    kind: FuncKind,
    allreduce: &AllReduce,
    world_size: Option<i64>,
) -> Result<Call, String> {
    let target = allreduce.target().ok_or("malformed allreduce")?;
    let info = operand_tensor(target)?;
    let signal = allreduce.signal().map(operand_tensor).transpose()?;
    let rail = match kind {
        FuncKind::Host => Rail::Builtin {
            lanes: allreduce.core_num().unwrap_or(1).max(1),
        },
        FuncKind::InCore => Rail::Composite,
        FuncKind::Chip | FuncKind::Aiv | FuncKind::Aic => {
            return Err(format!(
                "mode = \"auto\" is not supported in a {}",
                kind.describe()
            ))
        }
    };
    let mesh_and_two_shot = vec![AllReduceMode::Mesh, AllReduceMode::TwoShot];
    let (candidates, ranks) = match &signal {
        // A ring-shaped signal leaves the ring only (the other schedules
        // cannot run on it), any other signal the mesh and two-shot.
        Some(s) if is_ring_signal(s, rail, allreduce.core_num()) => {
            (vec![AllReduceMode::Ring], s.dim(1))
        }
        Some(s) => (mesh_and_two_shot, s.dim(0)),
        // Without a signal (HOST): the signal is made in the chosen shape,
        // so the ring too wherever its builtin runs.
        None => {
            let mut all = mesh_and_two_shot;
            if world_size.is_some_and(|n| host_ring_runs(allreduce, &info, n)) {
                all.push(AllReduceMode::Ring);
            }
            (all, world_size)
        }
    };
    Ok(Call {
        rail,
        candidates,
        elements: info.static_numel(),
        element_bytes: if info.dtype() == "f16" { 2 } else { 4 },
        ranks,
    })
}

/// Whether the HOST ring builtin runs this call on `ranks` ranks: f32,
/// sum, one lane, an element count `ranks` divides (docs/builtins.md).
fn host_ring_runs(allreduce: &AllReduce, info: &TensorInfo, ranks: i64) -> bool {
    let sum = allreduce.reduce_op() == Some(ReduceOp::Sum);
    let divides = info
        .static_numel()
        .is_some_and(|n| n > 0 && ranks > 1 && n % ranks == 0);
    info.dtype() == "f32" && sum && allreduce.core_num() == Some(1) && divides
}

/// A ring's signal: on the InCore rail any rank-2 signal with more than one
/// column (`[2(NR-1), NR]`); on the HOST rail, where a mesh signal may have
/// a column per lane, `[2(NR-1)+1, NR]` (NR > 1) of a one-lane call.
fn is_ring_signal(signal: &TensorInfo, rail: Rail, core_num: Option<i64>) -> bool {
    let columns = signal.dim(1).filter(|c| signal.rank() == 2 && *c > 1);
    match (rail, columns) {
        (_, None) => false,
        (Rail::Composite, Some(_)) => true,
        (Rail::Builtin { .. }, Some(nr)) => {
            core_num == Some(1) && signal.dim(0) == Some(2 * (nr - 1) + 1)
        }
    }
}

static IDENTITY: PassIdentity = PassIdentity;

/// Creates the pass with the process defaults (or the simulator's model).
pub fn create() -> Pass {
    let pass = SelectAllReduceModes::parse("").unwrap_or(SelectAllReduceModes {
        model: CostModel::SIMULATOR,
        target: "sim".into(),
        remarks: false,
        world_size: None,
    });
    external(pass, &IDENTITY)
}

/// Creates the pass from its option text.
pub fn configure(options: &str) -> Result<Pass, String> {
    Ok(external(SelectAllReduceModes::parse(options)?, &IDENTITY))
}
