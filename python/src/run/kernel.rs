//! One kernel on N ranks, as `pld-run` runs it (`pld_tools::run_kernel`
//! names the kernel, its parameters, cells and signal users).

use super::{check_kernel_memory, fill_ranks, Buffers, Inputs, Kind, Request};
use crate::error::Failure;
use crate::inputs::{Described, Slot};
use crate::report::{unravel, Blocked, Call, Deadlock, Leak, Output, Report};
use pld_dialect::collective::{CollectiveKind, Role};
use pld_dialect::ops::collective::ModeOrigin;
use pld_sim::program::golden::{self, RankCheck};
use pld_sim::program::shapes::{self, Rail};
use pld_sim::program::{Finished, KernelInfo, Program};
use pld_tools::run_kernel::{choose_kernel, shown_name, signal_users, waiting_lines};
use std::sync::Mutex;
use std::time::Instant;

/// Loads the kernel, asks for its inputs, runs and checks it.
pub fn run(request: &Request, inputs: &Inputs) -> Result<Report, Failure> {
    let program = load(request)?;
    let kernel = choose(request, &program)?;
    let described = describe(kernel, request.ranks);
    let fills = inputs.ask(described.clone())?;
    check_kernel_memory(&described.slots, request.ranks).map_err(|e| request.refuse(e))?;
    let fill_started = Instant::now();
    let initial =
        fill_ranks(&described.slots, &fills, request.ranks).map_err(|e| request.refuse(e))?;
    let fill_time = fill_started.elapsed();
    let run_started = Instant::now();
    let (finished, initial) = execute(request, &program, kernel, initial)?;
    let run_time = run_started.elapsed();
    if finished.outcome.interrupted || pld_sim::runtime::interrupt::requested() {
        return Err(Failure::Interrupted);
    }
    let check_started = Instant::now();
    let buffers = finished.buffers();
    let calls = calls(request, kernel, &finished, &initial, &buffers)?;
    let check_time = check_started.elapsed();
    let outcome = &finished.outcome;
    Ok(Report {
        kind: Kind::Kernel,
        name: kernel.name.clone(),
        ranks: request.ranks,
        calls,
        deadlock: deadlock(kernel, &finished),
        leaks: leaks(kernel, &finished),
        errors: crate::report::errors(outcome),
        counters: outcome.counters.clone(),
        round_trips: None,
        times: vec![
            ("lower", program.lower_time),
            ("compile", program.compile_time),
            ("fill", fill_time),
            ("run", run_time),
            ("kernels", outcome.kernel_time),
            ("check", check_time),
        ],
        outputs: outputs(kernel, buffers),
    })
}

/// The program lowered and compiled, as `pld-run` loads it.
pub fn load(request: &Request) -> Result<Program, Failure> {
    Program::load_source(request.loaded())
        .map_err(|e| request.refuse(pld_tools::files::in_file(&request.name, e)))
}

/// The kernel the request names (or the only one), its collectives'
/// shapes checked against the rank count.
pub fn choose<'p>(request: &Request, program: &'p Program) -> Result<&'p KernelInfo, Failure> {
    let kernel =
        choose_kernel(program, &request.options(), &request.name).map_err(|e| request.refuse(e))?;
    shapes::check(kernel, request.ranks, Rail::Composite).map_err(|e| request.refuse(e))?;
    pld_tools::run_kernel::checkable(&request.options(), kernel, &request.source, &request.name)
        .map_err(|e| request.refuse(e))?;
    Ok(kernel)
}

/// The kernel's parameters as the caller fills them: by SSA name (with
/// or without `%`), `argN` or position.
pub fn describe(kernel: &KernelInfo, ranks: usize) -> Described {
    let slots = kernel
        .params
        .iter()
        .enumerate()
        .map(|(i, p)| Slot {
            name: p.name.clone(),
            key: p.name.clone(),
            aliases: vec![
                p.name.clone(),
                format!("%{}", p.name),
                format!("arg{i}"),
                i.to_string(),
            ],
            shown: kernel.shown_name(i),
            shape: p.shape.clone(),
            dtype: p.dtype,
            signal: kernel.signals.contains(&i),
            devices: None,
        })
        .collect();
    Described {
        kind: Kind::Kernel,
        name: kernel.name.clone(),
        slots,
        refusals: Vec::new(),
        ranks,
    }
}

/// One run of the kernel. Without a check the inputs are handed over
/// rather than copied (the buffers of a large run are the process's
/// memory), as `pld-run` does; with one they are kept for the golden.
fn execute(
    request: &Request,
    program: &Program,
    kernel: &KernelInfo,
    initial: Buffers,
) -> Result<(Finished, Buffers), Failure> {
    let run = |init: &(dyn Fn(usize, usize) -> Vec<u8> + Sync)| {
        program
            .run(&kernel.name, request.ranks, request.deadline, init)
            .map_err(|e| request.refuse(e))
    };
    if request.check {
        let finished = run(&|rank, param| initial[rank][param].clone())?;
        return Ok((finished, initial));
    }
    let handed: Vec<Vec<Mutex<Vec<u8>>>> = initial
        .into_iter()
        .map(|row| row.into_iter().map(Mutex::new).collect())
        .collect();
    let finished = run(&|rank, param| {
        handed[rank][param]
            .lock()
            .map(|mut bytes| std::mem::take(&mut *bytes))
            .unwrap_or_default()
    })?;
    Ok((finished, Vec::new()))
}

/// The kernel's collectives, the one of them checked under `check` (as
/// `pld-run --check` checks it).
fn calls(
    request: &Request,
    kernel: &KernelInfo,
    finished: &Finished,
    initial: &[Vec<Vec<u8>>],
    buffers: &[Vec<Vec<u8>>],
) -> Result<Vec<Call>, Failure> {
    let checks = checks(request, kernel, finished, initial, buffers)?;
    Ok(kernel
        .collectives
        .iter()
        .map(|c| {
            let target = c.at(Role::Target).map(|t| &kernel.params[t]);
            Call {
                kind: c.op().to_string(),
                location: c.location.clone(),
                op_location: c.location.clone(),
                kernel: Some(kernel.name.clone()),
                dtype: target.map_or("-", |p| p.dtype.name()).to_string(),
                elements: target.map_or(0, |p| p.elements()),
                shape: target.map_or_else(Vec::new, |p| p.shape.clone()),
                reduce: c.reduce.map(|op| op.to_string()),
                root: c.root,
                ranks: request.ranks,
                time: finished.outcome.kernel_time,
                checks: checks.clone(),
                // (pld.run raises where a kernel's check cannot be made.)
                uncheckable: false,
                devices: (0..request.ranks).collect(),
                mode: (c.kind == CollectiveKind::AllReduce).then(|| c.mode.to_string()),
                auto: c.kind == CollectiveKind::AllReduce && c.origin != ModeOrigin::Written,
            }
        })
        .collect())
}

/// The golden check of the kernel's one numeric collective, or why there
/// is none; an error where `pld-run --check` refuses (several numeric
/// collectives, one in a loop).
fn checks(
    request: &Request,
    kernel: &KernelInfo,
    finished: &Finished,
    initial: &[Vec<Vec<u8>>],
    buffers: &[Vec<Vec<u8>>],
) -> Result<Result<Vec<RankCheck>, String>, Failure> {
    let numeric = kernel.collectives.iter().any(|c| c.kind.facts().numeric);
    if !request.check {
        return Ok(Err("not checked (check=False)".into()));
    }
    if finished.outcome.deadlock.is_some() {
        return Ok(Err("not checked: the run deadlocked".into()));
    }
    if !kernel.collectives.is_empty() && !numeric {
        return Ok(Err(
            "no numeric result to compare; every rank got through it".into(),
        ));
    }
    golden::check(kernel, initial, buffers)
        .map(Ok)
        .map_err(|e| request.refuse(e))
}

/// Every parameter of every rank.
fn outputs(kernel: &KernelInfo, buffers: Buffers) -> Vec<Vec<Output>> {
    buffers
        .into_iter()
        .map(|row| {
            kernel
                .params
                .iter()
                .zip(row)
                .map(|(p, bytes)| Output {
                    name: p.name.clone(),
                    shape: p.shape.clone(),
                    dtype: p.dtype,
                    bytes,
                })
                .collect()
        })
        .collect()
}

/// The deadlock, each waited-on cell named by its parameter and index.
fn deadlock(kernel: &KernelInfo, finished: &Finished) -> Option<Deadlock> {
    let report = finished.outcome.deadlock.as_ref()?;
    let mut message = report.to_string();
    for line in waiting_lines(kernel, finished, report) {
        message.push_str(&line);
        message.push('\n');
    }
    let blocked = report
        .blocked
        .iter()
        .map(|b| {
            let cell = b
                .window
                .and_then(|_| kernel.element_at(&finished.offsets, b.offset))
                .map(|(p, i)| {
                    let param = &kernel.params[p];
                    (param.name.clone(), unravel(i, &param.shape))
                });
            Blocked::of(b, cell)
        })
        .collect();
    Some(Deadlock {
        message: message.trim_end().to_string(),
        blocked,
        finished: report.finished.clone(),
    })
}

/// The credits left in the kernel's signals (none is looked for after a
/// deadlock, which leaves them by definition).
fn leaks(kernel: &KernelInfo, finished: &Finished) -> Vec<Leak> {
    if finished.outcome.deadlock.is_some() {
        return Vec::new();
    }
    let mut leaks = Vec::new();
    for &signal in &kernel.signals {
        let param = &kernel.params[signal];
        let offset = finished.offsets[signal].unwrap_or(0);
        for leak in finished.domain.leaks(offset, param.elements()) {
            let message = pld_tools::report::leak(
                &shown_name(kernel, param),
                &param.shape,
                &leak,
                &signal_users(kernel, param),
            );
            leaks.push(Leak {
                buffer: param.name.clone(),
                index: unravel(leak.index, &param.shape),
                rank: leak.rank,
                value: leak.value,
                message: message
                    .strip_prefix("pld-run: ")
                    .unwrap_or(&message)
                    .to_string(),
            });
        }
    }
    leaks
}
