//! `pld-select-allreduce-modes`: gives every `pld.tensor_allreduce` written
//! with `mode = "auto"` the schedule the alpha-beta cost model predicts
//! fastest for its static size, rank count and dtype (`crate::cost`).
//!
//! Docs: `docs/passes/pld-select-allreduce-modes.md` (the model:
//! `docs/algorithms.md`); tests: `tests/lit/passes/pld-select-allreduce-modes/`.
//!
//! The candidates are the schedules that can lower the call: each mode is
//! asked what its rail would check (`crate::composite` and
//! `crate::host::allreduce`, the checks the lowerings make; on the HOST
//! rail also what its builtin takes), and the modes left out are named in
//! the remark with the reason. The model prices the elements the call
//! moves (an InCore target's valid region). When the size or the rank
//! count is not static, or no mode can lower the call, the mesh (the
//! default mode) is kept. The op gets `mode` set to the choice and
//! `pld.auto_mode`, a dictionary with the choice and every candidate's
//! predicted time; with `remarks=true` a remark says the same.

use crate::composite::{check_mesh_signal, mesh, ring};
use crate::cost::{self, CostFile, CostModel, Rail, Shape};
use crate::host::allreduce::{check_mesh_lanes, check_ring, check_rows};
use melior::{
    ir::{
        attribute::{IntegerAttribute, StringAttribute},
        operation::OperationLike,
        Attribute, OperationRef,
    },
    pass::Pass,
    Context,
};
use pld_dialect::{
    collective::{capability, CollectiveKind},
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
    /// The file the model was read from (`None`: the built-in figures),
    /// for the remark.
    pub file: Option<String>,
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

/// The record of the choice: `{chosen = "two_shot", mesh_ns = ..., two_shot_ns = ...}`,
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

/// What the process-wide defaults ([`set_defaults`]) make the instances
/// built without options do, as text that changes whenever a lowering
/// would (the model's figures, not the file's name): a part of the key of
/// a cache of lowered modules. Empty when no defaults were set.
pub fn defaults_key() -> String {
    let Some(defaults) = DEFAULTS.get() else {
        return String::new();
    };
    SelectAllReduceModes::from_parts(
        defaults.file.as_deref(),
        defaults.target.as_deref(),
        defaults.remarks,
    )
    .and_then(|pass| pass.with_world_size(defaults.world_size))
    .map_or_else(|error| error, |pass| format!("{pass:?}"))
}

/// The process-wide defaults ([`set_defaults`]) written as this pass's
/// options (`cost-model="m.toml" target="a5" remarks=true world-size=8`,
/// those set and not in `given`), then `given`, the options an instance was
/// written with: what `--dump-pass-pipeline` shows, so that the pipeline it
/// prints runs the same without the flags.
pub fn options_with_defaults(given: Option<&str>) -> Option<String> {
    let given = given.map(str::trim).filter(|g| !g.is_empty());
    let keys: Vec<String> = match given {
        None => Vec::new(),
        Some(text) => match ir::pass_options::items(SelectAllReduceModes::ARGUMENT, text) {
            Ok(items) => items.into_iter().map(|i| i.key).collect(),
            Err(_) => return Some(text.to_string()), // refused when the pass is made
        },
    };
    let defaults = DEFAULTS.get().cloned().unwrap_or_default();
    // A value no pipeline carries (a brace without its pair) is written in
    // a quote it does not hold, which the options read back
    // (`unwritable_defaults` says that the pipeline does not).
    let quoted = |v: String| {
        ir::pass_options::quoted(&v).unwrap_or_else(|| match v.contains('"') {
            true => format!("'{v}'"),
            false => format!("\"{v}\""),
        })
    };
    let written = [
        ("cost-model", defaults.file.map(quoted)),
        ("target", defaults.target.map(quoted)),
        ("remarks", defaults.remarks.then(|| "true".to_string())),
        ("world-size", defaults.world_size.map(|n| n.to_string())),
    ];
    let mut options: Vec<String> = written
        .into_iter()
        .filter(|(key, _)| !keys.iter().any(|k| k == key))
        .filter_map(|(key, value)| Some(format!("{key}={}", value?)))
        .collect();
    options.extend(given.map(String::from));
    (!options.is_empty()).then(|| options.join(" "))
}

/// The process-wide defaults ([`set_defaults`]) that a pipeline's text
/// cannot carry (a brace without its pair), as a note: the pipeline
/// `--dump-pass-pipeline` prints with them does not read back.
pub fn unwritable_defaults() -> Option<String> {
    let defaults = DEFAULTS.get().cloned().unwrap_or_default();
    let flags = [
        ("--pld-cost-model", defaults.file),
        ("--pld-cost-target", defaults.target),
    ];
    let unwritable: Vec<String> = flags
        .into_iter()
        .filter_map(|(flag, value)| {
            let value = value?;
            ir::pass_options::quoted(&value)
                .is_none()
                .then(|| format!("{flag} '{value}'"))
        })
        .collect();
    (!unwritable.is_empty()).then(|| {
        format!(
            "the pipeline above does not read back: {} holds a brace without its pair, \
             which ends a pass's options in a pipeline's text",
            unwritable.join(" and ")
        )
    })
}

impl SelectAllReduceModes {
    /// The model as the remark names it: its table, and the file it was
    /// read from (`'sim'` for the built-in figures, `'sim' of m.toml`).
    fn model_name(&self) -> String {
        match &self.file {
            Some(file) => format!("'{}' of {file}", self.target),
            None => format!("'{}'", self.target),
        }
    }

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
                     (only 'sim'); give a file with cost-model=FILE (pld-opt and pld-run: \
                     --pld-cost-model=FILE)"
                ))
            }
            Some(path) => {
                let text = read_model(path).map_err(|e| {
                    format!("pld-select-allreduce-modes: cannot read cost model '{path}': {e}")
                })?;
                let parsed = CostFile::parse(&text)
                    .map_err(|e| format!("{path}:{}: {}", e.line, e.message))?;
                parsed.target(&target).ok_or_else(|| {
                    format!(
                        "{path}: no table [{}] (the cost model's targets: {})",
                        crate::cost::quoted(&target),
                        names(&parsed)
                    )
                })?
            }
        };
        Ok(SelectAllReduceModes {
            model,
            target,
            file: file.map(str::to_string),
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

    /// Reads `cost-model=FILE target=NAME remarks=true|false world-size=N`
    /// (a value may be quoted: `cost-model="my models/a.toml"`).
    pub fn parse(text: &str) -> Result<Self, String> {
        let defaults = DEFAULTS.get().cloned().unwrap_or_default();
        let (mut file, mut target, mut remarks, mut world_size) = (
            defaults.file,
            defaults.target,
            defaults.remarks,
            defaults.world_size,
        );
        const PASS: &str = "pld-select-allreduce-modes";
        const KEYS: [&str; 4] = ["cost-model", "target", "remarks", "world-size"];
        for item in ir::pass_options::items(PASS, text)? {
            let key = item.key.as_str();
            // A flag may stand alone; an unknown option is that before it
            // is one without a value.
            let valued = KEYS.contains(&key) && key != "remarks";
            let value = if valued { item.text(PASS)? } else { "" };
            match key {
                "cost-model" => file = Some(value.to_string()),
                "target" => target = Some(value.to_string()),
                "remarks" => {
                    remarks = item.flag().ok_or_else(|| {
                        format!(
                            "{PASS}: remarks is true or false (or 1 or 0), not '{}'",
                            item.value.as_deref().unwrap_or_default()
                        )
                    })?
                }
                "world-size" => {
                    world_size = Some(value.parse().map_err(|_| {
                        // Digits past i64 are a number, out of range.
                        match value
                            .strip_prefix('-')
                            .unwrap_or(value)
                            .bytes()
                            .all(|b| b.is_ascii_digit())
                            && !value.is_empty()
                        {
                            true => format!("{PASS}: world-size must be 1 to 64, got {value}"),
                            false => {
                                format!("{PASS}: world-size is a number of ranks, not '{value}'")
                            }
                        }
                    })?)
                }
                other => {
                    return Err(format!(
                        "{PASS} has no option '{other}' (its options: {})",
                        KEYS.join(", ")
                    ))
                }
            }
        }
        Self::from_parts(file.as_deref(), target.as_deref(), remarks)?.with_world_size(world_size)
    }
}

/// The largest cost-model file read: a model is a few tables of a few
/// numbers.
const MODEL_BYTES: u64 = 1 << 20;

/// The text of the cost-model file at `path`: a regular file of at most
/// [`MODEL_BYTES`] (a device such as `/dev/zero` or a huge file is refused
/// rather than read without end).
fn read_model(path: &str) -> Result<String, String> {
    use std::io::Read;
    // Asked before opening: opening a FIFO waits for a writer.
    let meta = std::fs::metadata(path).map_err(|e| e.to_string())?;
    if !meta.is_file() {
        return Err("not a regular file".into());
    }
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let mut bytes = Vec::new();
    file.take(MODEL_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| e.to_string())?;
    if bytes.len() as u64 > MODEL_BYTES {
        return Err(format!(
            "larger than {MODEL_BYTES} bytes, too large for a cost model"
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let line = valid.iter().filter(|&&b| b == b'\n').count() + 1;
        format!("line {line} is not UTF-8 text (a cost model is TOML, which is)")
    })
}

fn names(file: &CostFile) -> String {
    let names: Vec<String> = file
        .tables
        .iter()
        .map(|(n, _)| crate::cost::quoted(n))
        .collect();
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
    /// The modes that cannot lower the call, and why.
    dropped: Vec<(AllReduceMode, String)>,
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
        let choice = self.choose(&call);
        // A call without a signal was chosen for world-size=N ranks: the
        // record keeps N, for the signal pld-synthesize-allreduce-signals
        // makes (the ring's is sized by it).
        let planned = match (allreduce.signal(), choice.times.is_empty()) {
            (None, false) => call.ranks,
            _ => None,
        };
        let dictionary = record(context, choice.chosen, &choice.times, planned);
        ir::set_attribute(
            op,
            "mode",
            StringAttribute::new(context, &choice.chosen.to_string()).into(),
        );
        ir::set_attribute(op, AUTO_MODE_ATTRIBUTE, dictionary);
        if self.remarks {
            let text = remark(&choice, &call.dropped, &self.model_name(), self.model.tie());
            ir::diag::emit_remark(op.location(), &text);
        }
        Ok(())
    }

    /// The model's choice among the candidates, or the fallback when the
    /// numbers are not static or no candidate is left.
    fn choose(&self, call: &Call) -> Choice {
        let fallback = match call.candidates.as_slice() {
            [] => Fallback::NoCandidate,
            [only] if *only != AllReduceMode::Mesh => Fallback::Only(*only),
            _ => Fallback::Default,
        };
        let shape = match (call.elements, call.ranks) {
            _ if call.candidates.is_empty() => None,
            (Some(elements), Some(ranks)) if ranks > 0 => Some(Shape {
                rail: call.rail,
                elements,
                element_bytes: call.element_bytes,
                ranks,
            }),
            _ => None,
        };
        let chosen = shape.and_then(|shape| {
            let (mode, times) = cost::choose(&self.model, &shape, &call.candidates)?;
            Some((shape, mode, times))
        });
        match chosen {
            Some((shape, chosen, times)) => Choice {
                chosen,
                times,
                why: Why::Static(
                    shape.elements.saturating_mul(shape.element_bytes),
                    shape.ranks,
                ),
            },
            None => Choice {
                chosen: fallback.mode(),
                times: Vec::new(),
                why: Why::Fallback(
                    fallback,
                    match call.ranks {
                        Some(0) => Unpriced::NoRows,
                        _ => Unpriced::RunTime,
                    },
                ),
            },
        }
    }
}

/// What "auto" resolved to, and on what grounds.
struct Choice {
    chosen: AllReduceMode,
    /// Every candidate's predicted time (empty without a static call).
    times: Vec<(AllReduceMode, f64)>,
    why: Why,
}

enum Why {
    /// The model's choice for this many bytes on this many ranks.
    Static(i64, i64),
    /// No prediction: the size or rank count is known only at run time
    /// (or the signal has no rows), or no candidate is left.
    Fallback(Fallback, Unpriced),
}

/// Why a call with candidates got no prediction.
#[derive(Clone, Copy)]
enum Unpriced {
    /// Its size or rank count is known only at run time.
    RunTime,
    /// Its signal has no rows: no rank count runs it.
    NoRows,
}

impl Unpriced {
    fn grounds(self) -> &'static str {
        match self {
            Unpriced::RunTime => "for a size or rank count known only at run time",
            Unpriced::NoRows => {
                "without a prediction (the signal has no rows, which no rank count fits)"
            }
        }
    }
}

enum Fallback {
    /// The default, the mesh, among the candidates.
    Default,
    /// One candidate, not the mesh.
    Only(AllReduceMode),
    /// No mode can lower the call: the default is kept (its rail says why).
    NoCandidate,
}

impl Fallback {
    fn mode(&self) -> AllReduceMode {
        match self {
            Fallback::Only(mode) => *mode,
            Fallback::Default | Fallback::NoCandidate => AllReduceMode::Mesh,
        }
    }
}

/// `mode = "auto" chose "two_shot" for 4194304 bytes on 4 ranks (cost
/// model 'sim'): two_shot 412.0 us, mesh 812.5 us`, then the tie rule when
/// it kept a slower mode, and the modes that cannot lower the call.
/// `model`: how the remark names the model (`'sim'`, `'a5' of m.toml`).
fn remark(choice: &Choice, dropped: &[(AllReduceMode, String)], model: &str, tie: f64) -> String {
    let chosen = choice.chosen;
    let mut text = match &choice.why {
        Why::Static(bytes, ranks) => predicted(choice, (*bytes, *ranks), model, tie),
        Why::Fallback(Fallback::Default, unpriced) => format!(
            "mode = \"auto\" kept \"{chosen}\" (the default) {}",
            unpriced.grounds()
        ),
        Why::Fallback(Fallback::Only(_), unpriced) => format!(
            "mode = \"auto\" chose \"{chosen}\", the only schedule that can lower the call, {}",
            unpriced.grounds()
        ),
        Why::Fallback(Fallback::NoCandidate, _) => format!(
            "mode = \"auto\" kept \"{chosen}\" (the default): no schedule can lower the call"
        ),
    };
    if !dropped.is_empty() {
        let reasons: Vec<String> = dropped
            .iter()
            .map(|(mode, why)| format!("\"{mode}\": {why}"))
            .collect();
        text += &format!("; not a candidate: {}", reasons.join("; "));
    }
    text
}

/// The model's part of the remark: the times, fastest first, and the tie
/// rule (`tie`: the model's fraction) when it kept a mode that is not the
/// fastest.
fn predicted(choice: &Choice, (bytes, ranks): (i64, i64), model: &str, tie: f64) -> String {
    let chosen = choice.chosen;
    let mut sorted = choice.times.clone();
    sorted.sort_by(|a, b| a.1.total_cmp(&b.1));
    let times: Vec<String> = sorted
        .iter()
        .map(|(mode, seconds)| format!("{mode} {}", shown_us(*seconds)))
        .collect();
    let mut text = format!(
        "mode = \"auto\" chose \"{chosen}\" for {bytes} bytes on {ranks} rank{} (cost model {model}): {}",
        if ranks == 1 { "" } else { "s" },
        times.join(", ")
    );
    if let Some((fastest, _)) = sorted.first().filter(|(m, _)| *m != chosen) {
        text += &format!(
            " (within {} % of the fastest: kept \"{chosen}\", which comes before \"{fastest}\" in the order mesh, two_shot, ring)",
            percent(tie)
        );
    }
    text
}

/// `{chosen = "...", <mode>_ns = ..., ranks = N}`: the choice, every
/// candidate's predicted time in nanoseconds (rounded to 100 ns, at most
/// `i64::MAX`; an integer prints the same way whatever its value) and the rank count a
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
        let value = IntegerAttribute::new(ir::i64_type(context), recorded_ns(*seconds)).into();
        entries.push((format!("{mode}_ns"), value));
    }
    if let Some(ranks) = planned {
        let value = IntegerAttribute::new(ir::i64_type(context), ranks).into();
        entries.push(("ranks".to_string(), value));
    }
    dictionary(context, &entries)
}

/// `tie` as a percentage, as precise as it is written (at most four
/// decimals): `1`, `0.5`, `99.9999`.
fn percent(tie: f64) -> String {
    let text = format!("{:.4}", tie * 100.0);
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// A predicted time as the record keeps it: nanoseconds rounded to 100
/// (halves away from zero, as the 64-bit float has them). A model of absurd figures predicts past 2^63
/// ns (292 years): such a time is recorded as the largest one, not
/// wrapped. The remark shows the same number ([`shown_us`]).
fn recorded_ns(seconds: f64) -> i64 {
    ((seconds * 1e7).round() as i64).saturating_mul(100)
}

/// A predicted time as the remark shows it: the record's nanoseconds in
/// microseconds, so that both round alike (`0.3 us` for a recorded 300).
fn shown_us(seconds: f64) -> String {
    let nanos = recorded_ns(seconds);
    format!("{}.{} us", nanos / 1000, nanos % 1000 / 100)
}

fn dictionary<'c>(context: &'c Context, entries: &[(String, Attribute<'c>)]) -> Attribute<'c> {
    let text: Vec<String> = entries.iter().map(|(k, v)| format!("{k} = {v}")).collect();
    Attribute::parse(context, &format!("{{{}}}", text.join(", "))).expect("a dictionary parses")
}

/// The rail, the candidates that can lower the call, the ones dropped and
/// why, and the static numbers.
fn describe(
    kind: FuncKind,
    allreduce: &AllReduce,
    world_size: Option<i64>,
) -> Result<Call, String> {
    let target = allreduce.target().ok_or("malformed allreduce")?;
    let info = operand_tensor(target)?;
    let signal = allreduce.signal().map(operand_tensor).transpose()?;
    let (rail, fits, ranks) = match kind {
        FuncKind::Host => {
            let fit = HostFit {
                allreduce,
                info: &info,
                signal: signal.as_ref(),
                world_size,
            };
            let lanes = allreduce.core_num().unwrap_or(1).max(1);
            (Rail::Builtin { lanes }, fit.all(), fit.ranks())
        }
        FuncKind::InCore => {
            let signal = signal.as_ref().ok_or("malformed allreduce: no signal")?;
            let fits = AllReduceMode::ALL.map(|m| (m, incore_fits(m, &info, signal)));
            let ring = fits
                .iter()
                .any(|(m, f)| *m == AllReduceMode::Ring && f.is_ok());
            (
                Rail::Composite,
                fits.to_vec(),
                signal.dim(usize::from(ring)),
            )
        }
        FuncKind::Chip | FuncKind::Aiv | FuncKind::Aic => {
            return Err(format!(
                "mode = \"auto\" is not supported in a {}",
                kind.describe()
            ))
        }
    };
    let (candidates, dropped) = split(fits);
    Ok(Call {
        rail,
        candidates,
        dropped,
        elements: moved_elements(rail, &info),
        element_bytes: if info.dtype() == "f16" { 2 } else { 4 },
        ranks,
    })
}

/// The candidates and the dropped modes with their reasons.
type Split = (Vec<AllReduceMode>, Vec<(AllReduceMode, String)>);

fn split(fits: Vec<(AllReduceMode, Result<(), String>)>) -> Split {
    let mut candidates = Vec::new();
    let mut dropped = Vec::new();
    for (mode, fit) in fits {
        match fit {
            Ok(()) => candidates.push(mode),
            Err(why) => dropped.push((mode, why)),
        }
    }
    (candidates, dropped)
}

/// The elements a call moves: on the InCore rail its valid region (the
/// mesh's partial path and the row of two-shot and the ring carry only
/// that), on the HOST rail the whole tensor, which its builtin moves.
fn moved_elements(rail: Rail, info: &TensorInfo) -> Option<i64> {
    match rail {
        Rail::Composite => info
            .effective_valid()
            .iter()
            .try_fold(1i64, |acc, d| acc.checked_mul((*d)?)),
        Rail::Builtin { .. } => info.static_numel(),
    }
}

/// Whether the InCore expansion of `mode` takes the call: the checks
/// `pld-lower-composite-ops` makes. A ring also needs a static signal
/// whose dim 1 (its rank count) exceeds 1.
fn incore_fits(mode: AllReduceMode, info: &TensorInfo, signal: &TensorInfo) -> Result<(), String> {
    match mode {
        AllReduceMode::Mesh => {
            check_mesh_signal(signal)?;
            // A target with a valid_shape takes the partial-valid path.
            match info.valid_shape {
                Some(_) => mesh::partial_box(info).map(|_| ()),
                None => Ok(()),
            }
        }
        AllReduceMode::TwoShot => {
            check_mesh_signal(signal)?;
            ring::contiguous_prefix(info)
        }
        AllReduceMode::Ring => {
            if signal.rank() != 2 || signal.dim(1).is_none_or(|n| n <= 1) {
                return Err(format!(
                    "it needs a signal [2*(NR-1), NR] with a static NR > 1, got {}",
                    signal_shape(signal)
                ));
            }
            ring::check_shapes(signal, info)
        }
    }
}

/// A signal's shape as MLIR writes it: `[4, 1]`, `[?, 1]`.
fn signal_shape(signal: &TensorInfo) -> String {
    let dims: Vec<String> = (0..signal.rank())
        .map(|i| signal.dim(i).map_or("?".into(), |d| d.to_string()))
        .collect();
    format!("[{}]", dims.join(", "))
}

/// A HOST call and what its builtins take (docs/builtins.md).
struct HostFit<'x, 'c, 'a> {
    allreduce: &'x AllReduce<'c, 'a>,
    info: &'x TensorInfo<'c>,
    signal: Option<&'x TensorInfo<'c>>,
    world_size: Option<i64>,
}

impl HostFit<'_, '_, '_> {
    fn all(&self) -> Vec<(AllReduceMode, Result<(), String>)> {
        AllReduceMode::ALL.map(|m| (m, self.fits(m))).to_vec()
    }

    /// The rank count: without a signal `world-size=N`; a signal of the
    /// ring's shape `[2(NR-1)+1, NR]` gives its NR (dim 1), which the
    /// mesh's and two-shot's `[NR, S]` signals (at least NR rows) take
    /// too, whether or not the ring builtin takes the call (an f16 call, a
    /// `max`): one signal, one rank count; any other signal its rows. A
    /// call with `core_num` above 1 is no ring: its signal is the mesh's
    /// `[ranks, lanes]`, whatever its shape.
    fn ranks(&self) -> Option<i64> {
        let one_core = self.allreduce.core_num().unwrap_or(1) == 1;
        match self.signal {
            None => self.world_size,
            Some(signal) => match (signal.rank(), signal.dim(0), signal.dim(1)) {
                (2, Some(rows), Some(nr)) if one_core && nr > 1 && rows == 2 * (nr - 1) + 1 => {
                    Some(nr)
                }
                _ => signal.dim(0),
            },
        }
    }

    /// Whether the builtin of `mode` takes the call: its element type and
    /// reduction, then the signal checks of
    /// `pld-lower-host-tensor-collectives`.
    fn fits(&self, mode: AllReduceMode) -> Result<(), String> {
        self.capable(mode)?;
        let core_num = self.allreduce.core_num().unwrap_or(1);
        let Some(signal) = self.signal else {
            // The signal is made after this pass in the chosen shape.
            return match mode {
                AllReduceMode::Ring => self.ring_without_signal(core_num),
                AllReduceMode::Mesh | AllReduceMode::TwoShot => Ok(()),
            };
        };
        match mode {
            AllReduceMode::Mesh | AllReduceMode::TwoShot => {
                check_mesh_lanes(signal, core_num, None)?;
                check_rows(signal, None)
            }
            AllReduceMode::Ring => {
                if core_num != 1 {
                    return Err(format!("it needs core_num = 1, got {core_num}"));
                }
                if signal.rank() != 2
                    || signal.dim(1).is_none_or(|n| n <= 1)
                    || signal.dim(0).is_none()
                {
                    return Err(format!(
                        "it needs a static signal [2*(NR-1)+1, NR] with NR > 1, got {}",
                        signal_shape(signal)
                    ));
                }
                check_ring(signal, self.info, None)
            }
        }
    }

    /// The builtin's element types and reductions.
    fn capable(&self, mode: AllReduceMode) -> Result<(), String> {
        let name = CollectiveKind::AllReduce
            .builtin_op(mode)
            .ok_or("no HOST builtin")?;
        let Some(supports) = capability(name) else {
            return Ok(());
        };
        let dtype = self.info.dtype();
        if !supports.accepts(&dtype) {
            return Err(format!(
                "{name} supports only element type {}, got {dtype}",
                supports.dtype_names()
            ));
        }
        let reduce = self.allreduce.reduce_op().unwrap_or(ReduceOp::Sum);
        if supports.sum_only() && reduce != ReduceOp::Sum {
            return Err(format!(
                "{name} supports only op = #pld.reduce_op<\"sum\">, got #pld.reduce_op<\"{reduce}\">"
            ));
        }
        Ok(())
    }

    /// The ring of a call without a signal: one lane and `world-size=N`
    /// ranks dividing a static element count.
    fn ring_without_signal(&self, core_num: i64) -> Result<(), String> {
        let Some(ranks) = self.world_size else {
            return Err("the rank count is known only at run time (no world-size=N)".into());
        };
        if core_num != 1 {
            return Err(format!("it needs core_num = 1, got {core_num}"));
        }
        let numel = self.info.static_numel().ok_or("it needs a static shape")?;
        if ranks < 2 {
            return Err(format!("it needs 2 ranks or more, got world-size={ranks}"));
        }
        if numel % ranks != 0 {
            return Err(format!(
                "it needs an element count ({numel}) that the rank count ({ranks}) divides"
            ));
        }
        Ok(())
    }
}

static IDENTITY: PassIdentity = PassIdentity;

/// Creates the pass with the process defaults (or the simulator's model).
pub fn create() -> Pass {
    let pass = SelectAllReduceModes::parse("").unwrap_or(SelectAllReduceModes {
        model: CostModel::SIMULATOR,
        target: "sim".into(),
        file: None,
        remarks: false,
        world_size: None,
    });
    external(pass, &IDENTITY)
}

/// Creates the pass from its option text.
pub fn configure(options: &str) -> Result<Pass, String> {
    Ok(external(SelectAllReduceModes::parse(options)?, &IDENTITY))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tie as written (the uat-cost10b tester saw `tie = 0.999999`
    /// shown as "within 100 %"), and times as the record rounds them.
    #[test]
    fn ties_and_times_are_shown_as_they_are() {
        assert_eq!(percent(0.01), "1");
        assert_eq!(percent(0.005), "0.5");
        assert_eq!(percent(0.999999), "99.9999");
        assert_eq!(percent(0.08), "8");
        assert_eq!(
            (recorded_ns(2.5e-7), shown_us(2.5e-7)),
            (300, "0.3 us".into())
        );
        assert_eq!(shown_us(1e300), "9223372036854775.8 us");
    }
}
