//! What a whole program's reports say of its buffers and calls, shared by
//! a plain run (`run_program`) and an explored one (`explore`): a buffer's
//! shown name, the lines of a deadlock's waits, `--output-dir`'s files, a
//! call's place, notes and result shape.

use crate::output_dir::OutputDir;
use crate::report;
use pld_ir::print::symbol_ref;
use pld_sim::program::npy;
use pld_sim::program::orchestrate::{Buffer, CallReport, ProgramOutcome, ProgramRun};
use pld_sim::program::Param;

/// A buffer as a parameter, for the generators and `.npy` files.
pub fn as_param(buffer: &Buffer) -> Param {
    Param {
        name: buffer.name.clone(),
        distributed: true,
        shape: buffer.view.shape.clone(),
        dtype: buffer.view.dtype,
    }
}

/// A buffer as reports name it: its `name`, and its comm domain's when
/// another domain has a buffer of that name.
pub fn shown_name(run: &ProgramRun, buffer: &Buffer) -> String {
    let clash = run
        .buffers
        .iter()
        .any(|b| b.name == buffer.name && b.domain != buffer.domain);
    match run.plan.domains.get(buffer.domain) {
        Some(domain) if clash => format!("{} (comm domain {})", buffer.name, domain.name),
        _ => buffer.name.clone(),
    }
}

/// The lines of `run_program`'s report of a deadlock's waits (an explored schedule's deadlock
/// carries them too).
pub fn waiting_lines(run: &ProgramRun, deadlock: &pld_sim::DeadlockReport) -> Vec<String> {
    let mut lines = Vec::new();
    for blocked in deadlock.blocked.iter().filter(|b| b.window.is_some()) {
        let Some((number, index)) = run.cell_at(blocked.offset) else {
            continue;
        };
        let buffer = &run.buffers[number];
        lines.push(report::waiting(
            blocked,
            &shown_name(run, buffer),
            &buffer.view.shape,
            index,
            &run.signal_users(number),
        ));
    }
    lines
}

/// `--output-dir`: every buffer of every device as
/// `DIR/<buffer>.rank<device>.npy`, and with `goldens` (a plain run's
/// `--check`) the golden of each checked call's result next to it (a later
/// call on the same buffer overwrites an earlier one's, as the result
/// does).
pub(crate) fn write_outputs(
    dir: &str,
    run: &ProgramRun,
    finished: &ProgramOutcome,
    goldens: bool,
) -> Result<(), String> {
    let out = OutputDir::open(dir)?;
    for (buffer, per_device) in run.buffers.iter().zip(&finished.final_bytes) {
        let param = as_param(buffer);
        for (device, bytes) in per_device.iter().enumerate() {
            if bytes.is_empty() {
                continue;
            }
            let name = format!("{}.rank{device}.npy", buffer.name);
            out.write(&name, &npy::encode(param.dtype, &param.shape, bytes))?;
        }
    }
    for call in finished.calls.iter().filter(|_| goldens) {
        let (Ok(checks), Some((name, devices))) = (&call.check, &call.target) else {
            continue;
        };
        let Some(buffer) = run.buffers.iter().find(|b| &b.name == name) else {
            continue;
        };
        let param = as_param(buffer);
        for check in checks {
            let Some(device) = devices.get(check.rank) else {
                continue;
            };
            if check.expected.len() != param.bytes() {
                continue;
            }
            let file = format!("{name}.rank{device}.golden.npy");
            out.write(
                &file,
                &npy::encode(param.dtype, &param.shape, &check.expected),
            )?;
        }
    }
    Ok(())
}

/// Where a call is: `in @k (called at f.mlir:25:3)` for a collective in a
/// kernel a task runs (`at f.mlir:5:8 in @k (called at f.mlir:25:3)` in a
/// kernel of several), `at f.mlir:12:5` for one the HOST dispatches.
pub(crate) fn call_place(call: &CallReport) -> String {
    match &call.kernel {
        Some(kernel) if call.kernel_collectives > 1 => {
            format!(
                "at {} in {} (called at {})",
                call.site,
                symbol_ref(kernel),
                call.location
            )
        }
        Some(kernel) => format!("in {} (called at {})", symbol_ref(kernel), call.location),
        None => format!("at {}", call.location),
    }
}

/// What may explain a wrong call other than the collective: the kernel's
/// own write of the target, a peer's task that overlapped the snapshot
/// (`; ...` clauses, or nothing).
pub(crate) fn wrong_notes(call: &CallReport) -> String {
    let own = call.also_written.as_ref().map_or(String::new(), |write| {
        format!("; the kernel also writes the target ({write}): the difference may be its own")
    });
    let late = call
        .overlapped_by
        .as_ref()
        .map_or(String::new(), |note| format!("; {note}"));
    format!("{own}{late}")
}

/// The shape of a call's result, as its wrong elements are indexed.
pub(crate) fn result_shape(run: &ProgramRun, call: &CallReport) -> Vec<usize> {
    call.target
        .as_ref()
        .and_then(|(name, _)| run.buffers.iter().find(|b| &b.name == name))
        .map(|b| b.view.shape.clone())
        .unwrap_or_else(|| vec![call.elements])
}
