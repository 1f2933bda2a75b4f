//! A whole program on N devices, as `pld-run` runs it from its HOST
//! orchestrator (`pld_tools::run_program` names the buffers).

use super::{fill_ranks, Inputs, Kind, Request};
use crate::error::Failure;
use crate::inputs::{Described, Slot};
use crate::report::{unravel, Blocked, Call, Deadlock, Leak, Output, Report};
use pld_dialect::ops::collective::ModeOrigin;
use pld_sim::program::orchestrate::{Buffer, CallReport, ProgramOutcome, ProgramRun};
use pld_tools::program_text::shown_name;
use std::time::Instant;

/// Loads and plans the program, asks for its buffers, runs and checks it.
pub fn run(request: &Request, inputs: &Inputs) -> Result<Report, Failure> {
    let run = load(request)?;
    let described = describe(&run);
    let fills = inputs.ask(described.clone())?;
    run.check_memory(request.ranks, request.check)
        .map_err(|e| request.refuse(e))?;
    let fill_started = Instant::now();
    let initial =
        fill_ranks(&described.slots, &fills, request.ranks).map_err(|e| request.refuse(e))?;
    let fill_time = fill_started.elapsed();
    let buffers = &run.buffers;
    let init = |buffer: &Buffer, device: usize| initial[device][index_of(buffers, buffer)].clone();
    let started = Instant::now();
    let mut finished = run
        .execute(request.deadline, false, request.check, init)
        .map_err(|e| request.refuse(e))?;
    let run_time = started.elapsed().saturating_sub(finished.check_time);
    if finished.outcome.interrupted || pld_sim::runtime::interrupt::requested() {
        return Err(Failure::Interrupted);
    }
    Ok(Report {
        kind: Kind::Program,
        name: run.entry.clone(),
        ranks: request.ranks,
        outputs: outputs(&run, std::mem::take(&mut finished.final_bytes)),
        calls: finished
            .calls
            .iter()
            .map(|c| call(request, &run, c))
            .collect(),
        deadlock: deadlock(&run, &finished),
        leaks: leaks(&run, &finished),
        errors: crate::report::errors(&finished.outcome),
        counters: finished.outcome.counters.clone(),
        round_trips: Some(finished.round_trips.clone()),
        times: vec![
            ("lower", run.program.lower_time),
            ("compile", run.program.compile_time),
            ("plan", run.plan_time),
            ("fill", fill_time),
            ("run", run_time),
            ("kernels", finished.outcome.kernel_time),
            ("check", finished.check_time),
        ],
    })
}

/// The program lowered, compiled and planned, as `pld-run` loads it.
pub fn load(request: &Request) -> Result<ProgramRun, Failure> {
    // Refusals at an op already start with its location.
    ProgramRun::load_source(request.loaded(), request.entry.as_deref(), request.ranks)
        .map_err(|e| request.refuse(pld_tools::files::in_file(&request.name, e)))
}

/// The program's window buffers as the caller fills them, by name.
pub fn describe(run: &ProgramRun) -> Described {
    let slots = run
        .buffers
        .iter()
        .map(|b| Slot {
            name: b.name.clone(),
            key: shown_name(run, b),
            aliases: vec![b.name.clone()],
            shown: b.name.clone(),
            shape: b.view.shape.clone(),
            dtype: b.view.dtype,
            signal: b.signal,
            devices: Some(
                (0..run.plan.world)
                    .filter(|d| b.held_on(&run.plan, *d))
                    .collect(),
            ),
        })
        .collect();
    let refusals = pld_tools::run_program::unused_buffers(run)
        .into_iter()
        .map(|name| {
            let why = pld_tools::run_program::unknown_buffer(run, &name, run.plan.world);
            (name, why)
        })
        .collect();
    Described {
        kind: Kind::Program,
        name: run.entry.clone(),
        slots,
        refusals,
        ranks: run.plan.world,
    }
}

/// The position of `buffer` in the program's `buffers`.
pub fn index_of(buffers: &[Buffer], buffer: &Buffer) -> usize {
    buffers
        .iter()
        .position(|b| b.domain == buffer.domain && b.name == buffer.name)
        .unwrap_or(0)
}

/// Every buffer of every device that holds it, from the run's
/// `final_bytes` (`[buffer][device]`, empty outside a buffer's domain).
fn outputs(run: &ProgramRun, final_bytes: Vec<Vec<Vec<u8>>>) -> Vec<Vec<Output>> {
    let mut outputs: Vec<Vec<Output>> = (0..run.plan.world).map(|_| Vec::new()).collect();
    for (buffer, per_device) in run.buffers.iter().zip(final_bytes) {
        for (device, bytes) in per_device.into_iter().enumerate() {
            if bytes.is_empty() {
                continue;
            }
            outputs[device].push(Output {
                name: shown_name(run, buffer),
                shape: buffer.view.shape.clone(),
                dtype: buffer.view.dtype,
                bytes,
            });
        }
    }
    outputs
}

/// A collective call and its check.
fn call(request: &Request, run: &ProgramRun, call: &CallReport) -> Call {
    let shape = call
        .target
        .as_ref()
        .and_then(|(name, _)| run.buffers.iter().find(|b| &b.name == name))
        .map(|b| b.view.shape.clone())
        .unwrap_or_else(|| vec![call.elements]);
    Call {
        kind: call.kind.op_name().to_string(),
        location: call.location.clone(),
        op_location: call.site.clone(),
        kernel: call.kernel.clone(),
        dtype: call.dtype.clone(),
        elements: call.elements,
        shape,
        reduce: call.reduce.map(|op| op.to_string()),
        root: call.root,
        ranks: call.ranks,
        time: call.time,
        checks: match request.check {
            true => call.check.clone().map_err(|why| why.to_string()),
            false => Err("not checked (check=False)".into()),
        },
        devices: call.devices.clone(),
        mode: call.mode.map(|m| m.to_string()),
        auto: call.mode.is_some() && call.origin != ModeOrigin::Written,
        uncheckable: request.check
            && matches!(
                call.check,
                Err(pld_sim::program::orchestrate::Unchecked::Cannot(_))
            ),
    }
}

/// The deadlock, each waited-on cell named by its buffer and index.
fn deadlock(run: &ProgramRun, finished: &ProgramOutcome) -> Option<Deadlock> {
    let report = finished.outcome.deadlock.as_ref()?;
    let mut message = report.to_string();
    let mut blocked = Vec::new();
    for b in &report.blocked {
        let cell = b.window.and_then(|_| run.cell_at(b.offset));
        if let Some((number, index)) = cell {
            let buffer = &run.buffers[number];
            message.push_str(&pld_tools::report::waiting(
                b,
                &shown_name(run, buffer),
                &buffer.view.shape,
                index,
                &run.signal_users(number),
            ));
            message.push('\n');
        }
        let named = cell.map(|(number, index)| {
            let buffer = &run.buffers[number];
            (shown_name(run, buffer), unravel(index, &buffer.view.shape))
        });
        blocked.push(Blocked::of(b, named));
    }
    Some(Deadlock {
        message: message.trim_end().to_string(),
        blocked,
        finished: report.finished.clone(),
    })
}

/// The credits left in the program's signals.
fn leaks(run: &ProgramRun, finished: &ProgramOutcome) -> Vec<Leak> {
    if finished.outcome.deadlock.is_some() {
        return Vec::new();
    }
    finished
        .leaks
        .iter()
        .map(|(number, leak)| {
            let buffer = &run.buffers[*number];
            let name = shown_name(run, buffer);
            let message = pld_tools::report::leak(
                &name,
                &buffer.view.shape,
                leak,
                &run.signal_users(*number),
            );
            Leak {
                buffer: name,
                index: unravel(leak.index, &buffer.view.shape),
                rank: leak.rank,
                value: leak.value,
                message: message
                    .strip_prefix("pld-run: ")
                    .unwrap_or(&message)
                    .to_string(),
            }
        })
        .collect()
}
