//! `pld-c/Run.h`: programs, run options and results as C handles over
//! [`crate::program`], [`crate::run`] and [`crate::report`]. An index out
//! of range gives an empty string, 0 or `PldCheckNotChecked`, never a
//! crash.

use crate::program::{Loaded, Mode, Refusal};
use crate::raw;
use crate::report::{Check, Counters, FindingKind, Report};
use crate::run::{self, Input, Options};
use melior::ir::{operation::OperationLike, Location};
use mlir_sys::{MlirContext, MlirModule, MlirStringRef};
use pld_ir::loc::Position;
use pld_sim::runtime::duration;
use std::ffi::c_void;

/// `PldProgram`.
#[repr(C)]
pub struct PldProgram {
    pub ptr: *mut c_void,
}

/// `PldRunOptions`.
#[repr(C)]
pub struct PldRunOptions {
    pub ptr: *mut c_void,
}

/// `PldRunResult`.
#[repr(C)]
pub struct PldRunResult {
    pub ptr: *mut c_void,
}

/// `PldInputBuffer`.
#[repr(C)]
pub struct PldInputBuffer {
    pub buffer: isize,
    pub rank: isize,
    pub data: *const c_void,
    pub size: isize,
}

/// `PldOutputBuffer`.
#[repr(C)]
pub struct PldOutputBuffer {
    pub buffer: isize,
    pub rank: isize,
    pub data: *mut c_void,
    pub size: isize,
}

/// What a `PldProgram` holds: the loaded module, and where to report.
struct Program {
    loaded: Loaded,
    /// The module's context, the caller's (it outlives the program).
    context: MlirContext,
    /// Where the entry function is, for errors of a run.
    origin: Option<Position>,
    /// The thread that created it: its compiled kernels are shared with
    /// that thread's cache of compiled modules, so only that thread may run
    /// or free it.
    thread: std::thread::ThreadId,
}

impl Program {
    /// An error when the calling thread is not the one that created the
    /// program.
    fn on_its_thread(&self, what: &str) -> Result<(), String> {
        if std::thread::current().id() == self.thread {
            Ok(())
        } else {
            Err(format!(
                "{what}: a PldProgram is run and destroyed on the thread that created it"
            ))
        }
    }
}

/// Emits `message` as an error on `context`: at the place it starts with
/// (`file:line:col: ...`), else at `origin`.
fn report_error(context: MlirContext, origin: Option<&Position>, message: &str) {
    raw::with_context(context, |ctx| {
        let (location, text) = match located(message) {
            Some((file, line, column, rest)) => (Location::new(ctx, file, line, column), rest),
            None => (
                origin.map_or_else(
                    || Location::unknown(ctx),
                    |p| Location::new(ctx, &p.file, p.line, p.column),
                ),
                message,
            ),
        };
        pld_ir::diag::emit_error(location, text);
    });
}

/// A message's leading `file:line:col: ` (and `error: `), and the rest.
fn located(message: &str) -> Option<(&str, usize, usize, &str)> {
    let first = message.lines().next()?;
    first.match_indices(": ").find_map(|(at, _)| {
        let mut parts = first[..at].rsplitn(3, ':');
        let column = parts.next()?.parse().ok()?;
        let line = parts.next()?.parse().ok()?;
        let file = parts.next().filter(|f| !f.is_empty())?;
        let rest = &message[at + 2..];
        Some((
            file,
            line,
            column,
            rest.strip_prefix("error: ").unwrap_or(rest),
        ))
    })
}

fn null_program() -> PldProgram {
    PldProgram {
        ptr: std::ptr::null_mut(),
    }
}

fn null_result() -> PldRunResult {
    PldRunResult {
        ptr: std::ptr::null_mut(),
    }
}

#[no_mangle]
pub extern "C" fn pldProgramCreate(
    module: MlirModule,
    entry: MlirStringRef,
    numRanks: isize,
) -> PldProgram {
    if raw::refused_null(module.ptr.is_null(), "pldProgramCreate", "MlirModule") {
        return null_program();
    }
    let context = raw::module_context(module);
    raw::guard(Some(context), null_program(), || {
        let loaded = raw::with_context(context, |ctx| {
            raw::with_module(module, |m| {
                let entry = raw::string(entry, "the entry name")?;
                let ranks = usize::try_from(numRanks)
                    .map_err(|_| Refusal::Message(crate::program::ranks_refused(numRanks)))?;
                let loaded = Loaded::load(ctx, m, &entry, ranks)?;
                // Errors of a run are reported at the function it runs.
                let origin = pld_ir::functions(m.as_operation())
                    .into_iter()
                    .find(|f| pld_ir::symbol_name(*f).as_deref() == Some(loaded.entry.as_str()))
                    .and_then(|f| pld_ir::loc::position(f.location()));
                Ok::<_, Refusal>((loaded, origin))
            })
        });
        match loaded {
            Ok((loaded, origin)) => PldProgram {
                ptr: raw::into_handle(Program {
                    loaded,
                    context,
                    origin,
                    thread: std::thread::current().id(),
                }),
            },
            Err(Refusal::Reported) => null_program(),
            Err(Refusal::Message(message)) => {
                let origin = raw::with_module(module, |m| {
                    pld_ir::loc::position(m.as_operation().location())
                });
                report_error(context, origin.as_ref(), &message);
                null_program()
            }
        }
    })
}

#[no_mangle]
pub extern "C" fn pldProgramDestroy(program: PldProgram) {
    let Some(handle) = raw::handle::<Program>(program.ptr) else {
        return;
    };
    raw::guard(Some(handle.context), (), || {
        match handle.on_its_thread("pldProgramDestroy") {
            Ok(()) => raw::destroy::<Program>(program.ptr),
            // Left allocated: freeing it here could race with its thread.
            Err(message) => report_error(handle.context, handle.origin.as_ref(), &message),
        }
    })
}

fn loaded<'a>(program: &PldProgram) -> Option<&'a Loaded> {
    raw::handle::<Program>(program.ptr).map(|p| &p.loaded)
}

/// A string of the program, or empty.
fn program_str(program: PldProgram, get: impl FnOnce(&Loaded) -> Option<&str>) -> MlirStringRef {
    raw::guard(None, raw::string_ref(""), || {
        raw::string_ref(loaded(&program).and_then(get).unwrap_or(""))
    })
}

/// A number of the program, or `fallback`.
fn program_number<T: Copy>(
    program: PldProgram,
    fallback: T,
    get: impl FnOnce(&Loaded) -> Option<T>,
) -> T {
    raw::guard(None, fallback, || {
        loaded(&program).and_then(get).unwrap_or(fallback)
    })
}

fn index(value: isize) -> usize {
    usize::try_from(value).unwrap_or(usize::MAX)
}

#[no_mangle]
pub extern "C" fn pldProgramIsWhole(program: PldProgram) -> bool {
    program_number(program, false, |l| Some(matches!(l.mode, Mode::Whole(_))))
}

#[no_mangle]
pub extern "C" fn pldProgramGetEntry(program: PldProgram) -> MlirStringRef {
    program_str(program, |l| Some(&l.entry))
}

#[no_mangle]
pub extern "C" fn pldProgramGetNumRanks(program: PldProgram) -> isize {
    program_number(program, 0, |l| isize::try_from(l.ranks).ok())
}

#[no_mangle]
pub extern "C" fn pldProgramGetNumBuffers(program: PldProgram) -> isize {
    program_number(program, 0, |l| isize::try_from(l.buffers.len()).ok())
}

#[no_mangle]
pub extern "C" fn pldProgramLookupBuffer(program: PldProgram, name: MlirStringRef) -> isize {
    program_number(program, -1, |l| {
        let name = raw::string(name, "the name").ok()?;
        l.lookup(&name).and_then(|i| isize::try_from(i).ok())
    })
}

#[no_mangle]
pub extern "C" fn pldProgramGetBufferName(program: PldProgram, buffer: isize) -> MlirStringRef {
    program_str(program, |l| Some(&l.buffers.get(index(buffer))?.name))
}

#[no_mangle]
pub extern "C" fn pldProgramGetBufferElementType(
    program: PldProgram,
    buffer: isize,
) -> MlirStringRef {
    program_str(program, |l| {
        Some(l.buffers.get(index(buffer))?.dtype.name())
    })
}

#[no_mangle]
pub extern "C" fn pldProgramGetBufferNumDims(program: PldProgram, buffer: isize) -> isize {
    program_number(program, 0, |l| {
        isize::try_from(l.buffers.get(index(buffer))?.shape.len()).ok()
    })
}

#[no_mangle]
pub extern "C" fn pldProgramGetBufferDimSize(
    program: PldProgram,
    buffer: isize,
    dim: isize,
) -> i64 {
    program_number(program, 0, |l| {
        i64::try_from(*l.buffers.get(index(buffer))?.shape.get(index(dim))?).ok()
    })
}

#[no_mangle]
pub extern "C" fn pldProgramGetBufferSize(program: PldProgram, buffer: isize) -> isize {
    program_number(program, 0, |l| {
        isize::try_from(l.buffers.get(index(buffer))?.bytes()).ok()
    })
}

#[no_mangle]
pub extern "C" fn pldProgramIsBufferSignal(program: PldProgram, buffer: isize) -> bool {
    program_number(program, false, |l| {
        Some(l.buffers.get(index(buffer))?.signal)
    })
}

#[no_mangle]
pub extern "C" fn pldProgramIsBufferOnRank(
    program: PldProgram,
    buffer: isize,
    rank: isize,
) -> bool {
    program_number(program, false, |l| {
        let rank = usize::try_from(rank).ok().filter(|&r| r < l.ranks)?;
        Some(l.buffers.get(index(buffer))?.on(rank))
    })
}

/// `(buffer, rank, size)` of a binding, as indices; an error for a
/// negative one.
fn binding(
    buffer: isize,
    rank: isize,
    size: isize,
    what: &str,
) -> Result<(usize, usize, usize), String> {
    let non_negative = |value: isize, name: &str| {
        usize::try_from(value).map_err(|_| format!("{what} has a negative {name} ({value})"))
    };
    Ok((
        non_negative(buffer, "buffer")?,
        non_negative(rank, "rank")?,
        non_negative(size, "size")?,
    ))
}

#[no_mangle]
pub extern "C" fn pldProgramRun(
    program: PldProgram,
    options: PldRunOptions,
    numInputs: isize,
    inputs: *const PldInputBuffer,
    numOutputs: isize,
    outputs: *const PldOutputBuffer,
) -> PldRunResult {
    let Some(handle) = raw::handle::<Program>(program.ptr) else {
        raw::refused_null(true, "pldProgramRun", "PldProgram");
        return null_result();
    };
    raw::guard(Some(handle.context), null_result(), || {
        let options = raw::handle::<Options>(options.ptr)
            .cloned()
            .unwrap_or_default();
        let ran = run_with(handle, &options, (numInputs, inputs), (numOutputs, outputs));
        match ran {
            Ok(report) => PldRunResult {
                ptr: raw::into_handle(report),
            },
            Err(message) => {
                report_error(handle.context, handle.origin.as_ref(), &message);
                null_result()
            }
        }
    })
}

/// Checks the caller's bindings, runs, and copies the outputs.
fn run_with(
    handle: &Program,
    options: &Options,
    (num_inputs, inputs): (isize, *const PldInputBuffer),
    (num_outputs, outputs): (isize, *const PldOutputBuffer),
) -> Result<Report, String> {
    handle.on_its_thread("pldProgramRun")?;
    let loaded = &handle.loaded;
    let mut given = Vec::new();
    for (i, input) in raw::array(inputs, num_inputs, "the inputs")?
        .iter()
        .enumerate()
    {
        let what = format!("input {i}");
        let (buffer, rank, size) = binding(input.buffer, input.rank, input.size, &what)?;
        let bytes = raw::bytes(input.data, size).map_err(|e| format!("{what} has {e}"))?;
        given.push(Input {
            buffer,
            rank,
            bytes,
        });
    }
    let outputs = raw::array(outputs, num_outputs, "the outputs")?;
    let mut wanted = Vec::new();
    for (i, output) in outputs.iter().enumerate() {
        let what = format!("output {i}");
        let place = binding(output.buffer, output.rank, output.size, &what)?;
        run::check_binding(loaded, place, &what)?;
        if output.data.is_null() && place.2 > 0 {
            return Err(format!("{what} has a null pointer"));
        }
        wanted.push((place, output.data));
    }
    let (report, finals) = crate::watched::run(loaded, options, &given)?;
    for ((buffer, rank, _), data) in wanted {
        if let Some(bytes) = finals.get(buffer).and_then(|b| b.get(rank)) {
            raw::write(data, bytes);
        }
    }
    Ok(report)
}

#[no_mangle]
pub extern "C" fn pldRunOptionsCreate() -> PldRunOptions {
    PldRunOptions {
        ptr: raw::guard(None, std::ptr::null_mut(), || {
            raw::into_handle(Options::default())
        }),
    }
}

#[no_mangle]
pub extern "C" fn pldRunOptionsDestroy(options: PldRunOptions) {
    raw::guard(None, (), || raw::destroy::<Options>(options.ptr))
}

/// Changes the options behind a handle (a null handle is ignored).
fn set_option(options: PldRunOptions, change: impl FnOnce(&mut Options)) {
    raw::guard(None, (), || {
        if let Some(options) = raw::handle_mut::<Options>(options.ptr) {
            change(options)
        }
    })
}

#[no_mangle]
pub extern "C" fn pldRunOptionsSetCheck(options: PldRunOptions, check: bool) {
    set_option(options, |o| o.check = check)
}

#[no_mangle]
pub extern "C" fn pldRunOptionsSetDeadline(options: PldRunOptions, seconds: f64) {
    const SETTER: &str = "pldRunOptionsSetDeadline";
    set_option(options, |o| match duration::seconds(seconds) {
        Some(deadline) => {
            o.deadline = deadline;
            o.refused.remove(SETTER);
        }
        None => {
            let why = format!(
                "{SETTER}: {seconds:?} is no deadline (a positive number of seconds, {})",
                duration::MOST
            );
            o.refused.insert(SETTER, why);
        }
    })
}

#[no_mangle]
pub extern "C" fn pldRunOptionsSetExplore(
    options: PldRunOptions,
    firstSeed: u64,
    numSchedules: isize,
) {
    const SETTER: &str = "pldRunOptionsSetExplore";
    // The results give seeds as int64_t (pldRunResultGetFindingSeed).
    let past_the_last = |n: usize| {
        let last = u64::try_from(n.saturating_sub(1))
            .ok()
            .and_then(|k| firstSeed.checked_add(k));
        n > 0 && last.is_none_or(|last| last > i64::MAX as u64)
    };
    set_option(options, |o| match usize::try_from(numSchedules) {
        Ok(n) if past_the_last(n) => {
            let why = format!(
                "{SETTER}: {n} schedules from seed {firstSeed} run past seed {}, the last one \
                 pldRunResultGetFindingSeed (an int64_t) can give",
                i64::MAX
            );
            o.refused.insert(SETTER, why);
        }
        Ok(n) => {
            o.explore = Some((firstSeed, n)).filter(|_| n > 0);
            o.refused.remove(SETTER);
        }
        Err(_) => {
            let why = format!("{SETTER}: a negative number of schedules ({numSchedules})");
            o.refused.insert(SETTER, why);
        }
    })
}

#[no_mangle]
pub extern "C" fn pldRunOptionsSetTimeLimit(options: PldRunOptions, seconds: f64) {
    const SETTER: &str = "pldRunOptionsSetTimeLimit";
    // 0 and infinity: no limit.
    let none = seconds == 0.0 || seconds == f64::INFINITY;
    set_option(options, |o| match (none, duration::seconds(seconds)) {
        (true, _) | (false, Some(_)) => {
            o.time_limit = duration::seconds(seconds).filter(|_| !none);
            o.refused.remove(SETTER);
        }
        (false, None) => {
            let why = format!(
                "{SETTER}: {seconds:?} seconds is no time limit (a positive number of seconds, {}; \
                 0 or infinity for none)",
                duration::MOST
            );
            o.refused.insert(SETTER, why);
        }
    })
}

#[no_mangle]
pub extern "C" fn pldRunResultDestroy(result: PldRunResult) {
    raw::guard(None, (), || raw::destroy::<Report>(result.ptr))
}

/// A value of the result, or `fallback`.
fn result_value<T: Copy>(
    result: PldRunResult,
    fallback: T,
    get: impl FnOnce(&Report) -> Option<T>,
) -> T {
    raw::guard(None, fallback, || {
        raw::handle::<Report>(result.ptr)
            .and_then(get)
            .unwrap_or(fallback)
    })
}

/// A string of the result, or empty.
fn result_str(result: PldRunResult, get: impl FnOnce(&Report) -> Option<&str>) -> MlirStringRef {
    raw::guard(None, raw::string_ref(""), || {
        raw::string_ref(
            raw::handle::<Report>(result.ptr)
                .and_then(get)
                .unwrap_or(""),
        )
    })
}

fn count(n: usize) -> Option<isize> {
    isize::try_from(n).ok()
}

#[no_mangle]
pub extern "C" fn pldRunResultIsOk(result: PldRunResult) -> bool {
    result_value(result, false, |r| Some(r.ok()))
}

#[no_mangle]
pub extern "C" fn pldRunResultGetNumRanks(result: PldRunResult) -> isize {
    result_value(result, 0, |r| count(r.ranks))
}

#[no_mangle]
pub extern "C" fn pldRunResultGetNumSchedules(result: PldRunResult) -> isize {
    result_value(result, 0, |r| count(r.schedules))
}

#[no_mangle]
pub extern "C" fn pldRunResultGetNumCalls(result: PldRunResult) -> isize {
    result_value(result, 0, |r| count(r.calls.len()))
}

#[no_mangle]
pub extern "C" fn pldRunResultGetCallCollective(
    result: PldRunResult,
    call: isize,
) -> MlirStringRef {
    result_str(result, |r| Some(r.calls.get(index(call))?.collective))
}

#[no_mangle]
pub extern "C" fn pldRunResultGetCallLocation(result: PldRunResult, call: isize) -> MlirStringRef {
    result_str(result, |r| Some(&r.calls.get(index(call))?.location))
}

#[no_mangle]
pub extern "C" fn pldRunResultGetCallKernel(result: PldRunResult, call: isize) -> MlirStringRef {
    result_str(result, |r| Some(&r.calls.get(index(call))?.kernel))
}

#[no_mangle]
pub extern "C" fn pldRunResultGetCallOpLocation(
    result: PldRunResult,
    call: isize,
) -> MlirStringRef {
    result_str(result, |r| Some(&r.calls.get(index(call))?.op_location))
}

#[no_mangle]
pub extern "C" fn pldRunResultGetCallMode(result: PldRunResult, call: isize) -> MlirStringRef {
    result_str(result, |r| Some(&r.calls.get(index(call))?.mode))
}

#[no_mangle]
pub extern "C" fn pldRunResultIsCallModeAuto(result: PldRunResult, call: isize) -> bool {
    result_value(result, false, |r| Some(r.calls.get(index(call))?.auto))
}

#[no_mangle]
pub extern "C" fn pldRunResultGetCallNumRanks(result: PldRunResult, call: isize) -> isize {
    result_value(result, 0, |r| count(r.calls.get(index(call))?.ranks.len()))
}

#[no_mangle]
pub extern "C" fn pldRunResultGetCallDevice(
    result: PldRunResult,
    call: isize,
    rank: isize,
) -> isize {
    result_value(result, -1, |r| {
        let c = r.calls.get(index(call))?;
        (index(rank) < c.ranks.len()).then(|| count(c.device(index(rank))))?
    })
}

#[no_mangle]
pub extern "C" fn pldRunResultGetCallCheck(
    result: PldRunResult,
    call: isize,
    rank: isize,
) -> Check {
    result_value(result, Check::NotChecked, |r| {
        Some(r.calls.get(index(call))?.ranks.get(index(rank))?.check)
    })
}

#[no_mangle]
pub extern "C" fn pldRunResultGetCallWorstError(
    result: PldRunResult,
    call: isize,
    rank: isize,
) -> f64 {
    result_value(result, 0.0, |r| {
        Some(r.calls.get(index(call))?.ranks.get(index(rank))?.worst)
    })
}

#[no_mangle]
pub extern "C" fn pldRunResultGetCallNumWrong(
    result: PldRunResult,
    call: isize,
    rank: isize,
) -> isize {
    result_value(result, 0, |r| {
        count(r.calls.get(index(call))?.ranks.get(index(rank))?.wrong)
    })
}

#[no_mangle]
pub extern "C" fn pldRunResultGetCallNote(result: PldRunResult, call: isize) -> MlirStringRef {
    result_str(result, |r| Some(&r.calls.get(index(call))?.note))
}

#[no_mangle]
pub extern "C" fn pldRunResultGetNumFindings(result: PldRunResult) -> isize {
    result_value(result, 0, |r| count(r.findings.len()))
}

#[no_mangle]
pub extern "C" fn pldRunResultGetFindingKind(result: PldRunResult, finding: isize) -> FindingKind {
    result_value(result, FindingKind::Error, |r| {
        Some(r.findings.get(index(finding))?.kind)
    })
}

#[no_mangle]
pub extern "C" fn pldRunResultGetFindingMessage(
    result: PldRunResult,
    finding: isize,
) -> MlirStringRef {
    result_str(result, |r| Some(&r.findings.get(index(finding))?.message))
}

#[no_mangle]
pub extern "C" fn pldRunResultGetFindingNumRanks(result: PldRunResult, finding: isize) -> isize {
    result_value(result, 0, |r| {
        count(r.findings.get(index(finding))?.ranks.len())
    })
}

#[no_mangle]
pub extern "C" fn pldRunResultGetFindingRank(
    result: PldRunResult,
    finding: isize,
    which: isize,
) -> isize {
    result_value(result, -1, |r| {
        count(*r.findings.get(index(finding))?.ranks.get(index(which))?)
    })
}

#[no_mangle]
pub extern "C" fn pldRunResultGetFindingCell(
    result: PldRunResult,
    finding: isize,
) -> MlirStringRef {
    result_str(result, |r| Some(&r.findings.get(index(finding))?.cell))
}

#[no_mangle]
pub extern "C" fn pldRunResultGetFindingNumLocations(
    result: PldRunResult,
    finding: isize,
) -> isize {
    result_value(result, 0, |r| {
        count(r.findings.get(index(finding))?.locations.len())
    })
}

#[no_mangle]
pub extern "C" fn pldRunResultGetFindingLocation(
    result: PldRunResult,
    finding: isize,
    which: isize,
) -> MlirStringRef {
    result_str(result, |r| {
        Some(
            r.findings
                .get(index(finding))?
                .locations
                .get(index(which))?,
        )
    })
}

#[no_mangle]
pub extern "C" fn pldRunResultGetFindingSeed(result: PldRunResult, finding: isize) -> i64 {
    result_value(result, -1, |r| {
        let seed = r.findings.get(index(finding))?.seed?;
        i64::try_from(seed).ok()
    })
}

#[no_mangle]
pub extern "C" fn pldRunResultGetCounters(result: PldRunResult, rank: isize) -> Counters {
    result_value(result, Counters::default(), |r| {
        r.counters.get(index(rank)).copied()
    })
}

#[cfg(test)]
mod tests {
    use super::located;

    #[test]
    fn messages_that_start_at_a_place_are_split() {
        assert_eq!(
            located("a/b.mlir:3:14: error: bad\n  more"),
            Some(("a/b.mlir", 3, 14, "bad\n  more"))
        );
        assert_eq!(
            located("x.mlir:1:2: @k: no kernel"),
            Some(("x.mlir", 1, 2, "@k: no kernel"))
        );
        assert_eq!(located("a program runs on 1 to 64 ranks"), None);
        assert_eq!(located(":3:4: no file"), None);
    }
}
