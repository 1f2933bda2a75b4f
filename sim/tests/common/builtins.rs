//! Builtin kernel cases shared by `builtins.rs` (plain runs over a matrix
//! of shapes) and `explore_builtins.rs` (small shapes under many explorer
//! schedules): each case sets up one builtin variant's windows with real
//! inputs, runs it [`Mode::calls`] times back to back on every rank through
//! its entry, as HOST dispatches call it (spec 10.3, 11), and checks every
//! call's results against the goldens of
//! `pld_sim::program::golden::reference`, every signal cell back at zero
//! afterwards, and (under a schedule) no explorer finding.
//!
//! A case stops at its first problem and reports it with its parameters
//! (and seed).

// Results are indexed [rank][call] on purpose.
#![allow(clippy::needless_range_loop, dead_code)]

use pld_dialect::enums::ReduceOp;
use pld_dialect::launch::all_to_all_v_blocks;
use pld_sim::program::builtins::{BuiltinOutcome, BuiltinRun, Hook, Scalar, TensorArg};
use pld_sim::program::golden::reference;
use pld_sim::runtime::half::{f16_to_f32, f32_to_f16};
use pld_sim::{aligned, CommDomain, RankEnv, Schedule};
use std::sync::Mutex;
use std::time::Duration;

/// How long every live thread may wait before a run counts as deadlocked.
pub const DEADLINE: Duration = Duration::from_millis(1500);
/// AIV cores of the simulated device (A2/A3 test device).
pub const AIV_CORES: i32 = 48;

/// An element type the tests write and read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dt {
    F16,
    F32,
    I8,
}

impl Dt {
    pub fn bytes(self) -> usize {
        match self {
            Dt::F16 => 2,
            Dt::F32 => 4,
            Dt::I8 => 1,
        }
    }

    pub fn key(self) -> &'static str {
        match self {
            Dt::F16 => "fp16",
            Dt::F32 => "fp32",
            Dt::I8 => "int8",
        }
    }

    pub fn encode(self, values: &[f64]) -> Vec<u8> {
        values
            .iter()
            .flat_map(|&v| match self {
                Dt::F16 => f32_to_f16(v as f32).to_le_bytes().to_vec(),
                Dt::F32 => (v as f32).to_le_bytes().to_vec(),
                Dt::I8 => vec![(v as i8) as u8],
            })
            .collect()
    }

    pub fn decode(self, bytes: &[u8]) -> Vec<f64> {
        bytes
            .chunks_exact(self.bytes())
            .map(|c| match self {
                Dt::F16 => f64::from(f16_to_f32(u16::from_le_bytes([c[0], c[1]]))),
                Dt::F32 => f64::from(f32::from_le_bytes(c.try_into().unwrap())),
                Dt::I8 => f64::from(c[0] as i8),
            })
            .collect()
    }

    /// `v` rounded to the dtype, as the kernel's result would be.
    pub fn round(self, v: f64) -> f64 {
        self.decode(&self.encode(&[v]))[0]
    }
}

/// Bump allocator of 32-byte aligned buffers in a window (spec 10.2).
#[derive(Default)]
pub struct Layout {
    pub size: usize,
}

impl Layout {
    pub fn add(&mut self, bytes: usize) -> usize {
        let at = self.size;
        self.size += aligned(bytes);
        at
    }
}

pub fn read(domain: &CommDomain, rank: usize, offset: usize, bytes: usize) -> Vec<u8> {
    let mut out = vec![0u8; bytes];
    assert!(domain.window(rank).read(offset, &mut out));
    out
}

pub fn write(domain: &CommDomain, rank: usize, offset: usize, data: &[u8]) {
    assert!(domain.window(rank).write(offset, data));
}

pub fn i32s(values: &[i64]) -> Vec<u8> {
    values
        .iter()
        .flat_map(|&v| (v as i32).to_le_bytes())
        .collect()
}

pub fn as_i32s(bytes: &[u8]) -> Vec<i64> {
    bytes
        .chunks_exact(4)
        .map(|c| i64::from(i32::from_le_bytes(c.try_into().unwrap())))
        .collect()
}

/// How a case runs: how many calls back to back (the second reuses the
/// signal the first gave back), plainly or under an explorer schedule.
#[derive(Clone, Copy, Debug)]
pub struct Mode {
    pub calls: usize,
    pub schedule: Option<Schedule>,
}

impl Mode {
    /// Two calls, no explorer.
    pub const PLAIN: Mode = Mode {
        calls: 2,
        schedule: None,
    };

    /// `calls` calls under the schedule of `seed`.
    pub fn explored(calls: usize, seed: u64) -> Mode {
        Mode {
            calls,
            schedule: Some(Schedule { seed }),
        }
    }
}

/// `base`, and the seed of the schedule when there is one.
pub fn named(base: String, schedule: Option<Schedule>) -> String {
    match schedule {
        Some(s) => format!("{base} seed {}", s.seed),
        None => base,
    }
}

/// Runs `run` on `domain`, under `schedule` when given; an explored run
/// that took no scheduling decision did not run under the explorer.
pub fn execute(
    name: &str,
    run: &BuiltinRun<'_>,
    domain: &CommDomain,
    before: Option<Hook<'_>>,
    after: Option<Hook<'_>>,
    schedule: Option<Schedule>,
) -> Result<BuiltinOutcome, String> {
    let out = run
        .execute_explored(domain, before, after, schedule)
        .map_err(|e| format!("{name}: {e}"))?;
    if schedule.is_some() && out.outcome.steps == 0 {
        return Err(format!("{name}: no scheduling decision: not explored"));
    }
    Ok(out)
}

/// The common verdict of a run: no deadlock, no simulator error, no fatal,
/// no explorer finding, every call returned OK with the expected argument
/// count, no credit left on the signal.
pub fn clean(
    name: &str,
    run: &BuiltinOutcome,
    domain: &CommDomain,
    signal: (usize, usize),
    expected_args: i32,
) -> Result<(), String> {
    let o = &run.outcome;
    if let Some(d) = &o.deadlock {
        return Err(format!("{name}: {d}"));
    }
    if let Some(e) = o.errors.first() {
        return Err(format!("{name}: {e}"));
    }
    if let Some(f) = o.fatals.first() {
        return Err(format!("{name}: {f}"));
    }
    if !o.findings.is_empty() {
        let found: Vec<String> = o.findings.iter().map(|f| format!("  {f}")).collect();
        return Err(format!(
            "{name}: {} finding(s) after {} steps:\n{}",
            found.len(),
            o.steps,
            found.join("\n")
        ));
    }
    // Whatever else `Outcome::ok` may come to check.
    if !o.ok() {
        return Err(format!("{name}: not ok: {o:?}"));
    }
    for (rank, calls) in run.calls.iter().enumerate() {
        for (call, status) in calls.iter().enumerate() {
            if status.status != 0 || status.expected_arg_count != expected_args {
                return Err(format!(
                    "{name}: rank {rank} call {call}: status {} expected_arg_count {} (want {expected_args})",
                    status.status, status.expected_arg_count
                ));
            }
        }
    }
    let leaks = domain.leaks(signal.0, signal.1);
    if let Some(leak) = leaks.first() {
        return Err(format!(
            "{name}: credit leak: {leak} ({} cells)",
            leaks.len()
        ));
    }
    Ok(())
}

/// Compares a rank's result with the golden exactly (inputs are chosen so
/// that every fold order is exact in the dtype).
pub fn same(name: &str, what: &str, got: &[f64], want: &[f64], dt: Dt) -> Result<(), String> {
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        if *g != dt.round(*w) {
            return Err(format!(
                "{name}: {what} element {i}: got {g}, want {}",
                dt.round(*w)
            ));
        }
    }
    if got.len() != want.len() {
        return Err(format!(
            "{name}: {what}: {} elements, want {}",
            got.len(),
            want.len()
        ));
    }
    Ok(())
}

/// Runs every case, collecting failures, and fails with all of them.
pub fn all(cases: impl IntoIterator<Item = Result<(), String>>) {
    let failures: Vec<String> = cases.into_iter().filter_map(Result::err).collect();
    assert!(
        failures.is_empty(),
        "{} failing cases:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
// ---- mesh allreduce ------------------------------------------------------

/// Inputs for which every fold order is exact in FP16 and FP32.
pub fn allreduce_input(op: ReduceOp, rank: usize, i: usize, call: usize) -> f64 {
    match op {
        ReduceOp::Sum => ((rank * 7 + i * 3 + call) % 9) as f64 - 4.0,
        ReduceOp::Max | ReduceOp::Min => ((rank * 13 + i * 5 + call * 3) % 17) as f64 - 8.5,
        ReduceOp::Prod => [-2.0, -1.0, -0.5, 0.5, 1.0, 2.0][(rank * 5 + i * 7 + call) % 6],
    }
}

pub const TILE: usize = 256;

/// Bytes one rank reads remotely in one mesh allreduce call: every tile's
/// load span, rounded up to 32 bytes, from each of the P-1 peers.
pub fn mesh_remote_bytes(numel: usize, elem: usize, ranks: usize) -> u64 {
    let mut bytes = 0;
    let mut base = 0;
    while base < numel {
        let chunk = TILE.min(numel - base);
        bytes += (chunk * elem).div_ceil(32) * 32;
        base += TILE;
    }
    (bytes * (ranks - 1)) as u64
}

/// The two HOST allreduces with core_num lanes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lanes {
    Mesh,
    TwoShot,
    /// A copy of the two-shot kernel broken on purpose (runtime-sys/build.rs
    /// builds it for sum over f32 only), by its tag.
    BrokenTwoShot(&'static str),
}

impl Lanes {
    /// The variant's name for `op` and `dt`.
    fn variant(self, op: ReduceOp, dt: Dt) -> String {
        let plain = |builtin: &str| format!("builtin.tensor.{builtin}__{op}__{}", dt.key());
        match self {
            Lanes::Mesh => plain("allreduce"),
            Lanes::TwoShot => plain("allreduce_two_shot"),
            Lanes::BrokenTwoShot(tag) => format!("broken.{tag}.{}", plain("allreduce_two_shot")),
        }
    }

    /// Bytes `rank` reads remotely in one call.
    fn remote_bytes(self, numel: usize, elem: usize, ranks: usize, rank: usize) -> u64 {
        match self {
            Lanes::Mesh => mesh_remote_bytes(numel, elem, ranks),
            Lanes::TwoShot | Lanes::BrokenTwoShot(_) => {
                two_shot_remote_bytes(numel, elem, ranks, rank)
            }
        }
    }
}

/// Bytes of the tiles of `[begin, end)`, each load rounded up to 32 bytes.
fn span_bytes(begin: usize, end: usize, elem: usize) -> usize {
    let mut bytes = 0;
    let mut base = begin;
    while base < end {
        bytes += (TILE.min(end - base) * elem).div_ceil(32) * 32;
        base += TILE;
    }
    bytes
}

/// Bytes `rank` reads remotely in one two-shot call: its segment from each
/// of the P-1 peers, then every other segment once from its owner. Segment
/// s is `[b(s), b(s+1))`, `b(s) = min(ceil(s*numel/(P*A))*A, numel)` with A
/// the elements of 32 bytes (docs/builtins.md).
pub fn two_shot_remote_bytes(numel: usize, elem: usize, ranks: usize, rank: usize) -> u64 {
    let align = 32 / elem;
    let boundary = |s: usize| ((s * numel).div_ceil(ranks * align) * align).min(numel);
    let segment = |s: usize| span_bytes(boundary(s), boundary(s + 1), elem);
    let others: usize = (0..ranks).filter(|s| *s != rank).map(segment).sum();
    ((ranks - 1) * segment(rank) + others) as u64
}

pub fn mesh_case(
    dt: Dt,
    op: ReduceOp,
    ranks: usize,
    numel: usize,
    core_num: usize,
    mode: Mode,
) -> Result<(), String> {
    lanes_case(Lanes::Mesh, dt, op, ranks, numel, core_num, mode)
}

/// A mesh or two-shot allreduce on core_num lanes: the golden of every call
/// on every rank, the padding past numel untouched, the remote bytes read.
pub fn lanes_case(
    algo: Lanes,
    dt: Dt,
    op: ReduceOp,
    ranks: usize,
    numel: usize,
    core_num: usize,
    mode: Mode,
) -> Result<(), String> {
    // Signal lanes: S >= core_num, sometimes wider; a rank-1 signal when
    // one lane is enough and P is odd.
    let lanes = core_num + ranks % 2;
    let rank1 = core_num == 1 && ranks % 2 == 1;
    let name = named(
        format!(
            "{} P={ranks} numel={numel} core_num={core_num} S={}",
            algo.variant(op, dt),
            if rank1 { 1 } else { lanes }
        ),
        mode.schedule,
    );
    let mut layout = Layout::default();
    let data_bytes = numel * dt.bytes();
    let data = layout.add(data_bytes);
    let data_end = layout.size;
    let cells = if rank1 { ranks } else { ranks * lanes };
    let signal = layout.add(cells * 4);
    let domain = CommDomain::new(ranks, layout.size).map_err(|e| e.to_string())?;
    let calls = mode.calls;
    let results = Mutex::new(vec![vec![Vec::new(); calls]; ranks]);
    let before = |env: RankEnv<'_>, call: usize| {
        let values: Vec<f64> = (0..numel)
            .map(|i| allreduce_input(op, env.rank, i, call))
            .collect();
        write(env.domain, env.rank, data, &dt.encode(&values));
        // The padding up to the next 32 bytes: loaded, never stored.
        write(
            env.domain,
            env.rank,
            data + data_bytes,
            &vec![0x5A; data_end - data - data_bytes],
        );
    };
    let after = |env: RankEnv<'_>, call: usize| {
        let got = dt.decode(&read(env.domain, env.rank, data, data_bytes));
        results.lock().unwrap()[env.rank][call] = got;
    };
    let signal_shape: Vec<u32> = if rank1 {
        vec![ranks as u32]
    } else {
        vec![ranks as u32, lanes as u32]
    };
    let variant = algo.variant(op, dt);
    let run = BuiltinRun {
        variant: &variant,
        tensors: &[
            TensorArg::new(data, &[numel as u32], dt.bytes()),
            TensorArg::new(signal, &signal_shape, 4),
        ],
        scalars: &[
            Scalar::Ranks,
            Scalar::Context,
            Scalar::Value(core_num as u64),
        ],
        calls,
        aiv_limit: AIV_CORES,
        deadline: DEADLINE,
        record_remote_writes: false,
        launch: None,
    };
    let run = execute(
        &name,
        &run,
        &domain,
        Some(&before),
        Some(&after),
        mode.schedule,
    )?;
    clean(&name, &run, &domain, (signal, cells), 5)?;
    let results = results.into_inner().unwrap();
    for call in 0..calls {
        let inputs: Vec<Vec<f64>> = (0..ranks)
            .map(|r| {
                (0..numel)
                    .map(|i| allreduce_input(op, r, i, call))
                    .collect()
            })
            .collect();
        let golden = reference::allreduce(op, &inputs);
        for rank in 0..ranks {
            same(
                &name,
                &format!("call {call} rank {rank}"),
                &results[rank][call],
                &golden[rank],
                dt,
            )?;
        }
    }
    for rank in 0..ranks {
        let pad = read(
            &domain,
            rank,
            data + data_bytes,
            data_end - data - data_bytes,
        );
        if pad.iter().any(|&b| b != 0x5A) {
            return Err(format!("{name}: rank {rank} stored past numel"));
        }
        let want = calls as u64 * algo.remote_bytes(numel, dt.bytes(), ranks, rank);
        let got = run.outcome.counters[rank].remote_bytes_read;
        if got != want {
            return Err(format!(
                "{name}: rank {rank} read {got} remote bytes, want {want}"
            ));
        }
    }
    Ok(())
}
// ---- ring allreduce -----------------------------------------------------

pub fn ring_case(ranks: usize, numel: usize, mode: Mode) -> Result<(), String> {
    let name = named(
        format!("allreduce_ring P={ranks} numel={numel}"),
        mode.schedule,
    );
    let mut layout = Layout::default();
    let data = layout.add(numel * 4);
    let rows = 2 * (ranks - 1) + 1;
    let signal = layout.add(rows * ranks * 4);
    let domain = CommDomain::new(ranks, layout.size).map_err(|e| e.to_string())?;
    let calls = mode.calls;
    let results = Mutex::new(vec![vec![Vec::new(); calls]; ranks]);
    let input = |r: usize, i: usize, call: usize| allreduce_input(ReduceOp::Sum, r, i, call);
    let before = |env: RankEnv<'_>, call: usize| {
        let values: Vec<f64> = (0..numel).map(|i| input(env.rank, i, call)).collect();
        write(env.domain, env.rank, data, &Dt::F32.encode(&values));
    };
    let after = |env: RankEnv<'_>, call: usize| {
        results.lock().unwrap()[env.rank][call] =
            Dt::F32.decode(&read(env.domain, env.rank, data, numel * 4));
    };
    let run = BuiltinRun {
        variant: "builtin.tensor.allreduce_ring__sum__fp32",
        tensors: &[
            TensorArg::new(data, &[numel as u32], 4),
            TensorArg::new(signal, &[rows as u32, ranks as u32], 4),
        ],
        scalars: &[Scalar::Ranks, Scalar::Context],
        calls,
        aiv_limit: AIV_CORES,
        deadline: DEADLINE,
        record_remote_writes: false,
        launch: None,
    };
    let run = execute(
        &name,
        &run,
        &domain,
        Some(&before),
        Some(&after),
        mode.schedule,
    )?;
    clean(&name, &run, &domain, (signal, rows * ranks), 4)?;
    let results = results.into_inner().unwrap();
    for call in 0..calls {
        let inputs: Vec<Vec<f64>> = (0..ranks)
            .map(|r| (0..numel).map(|i| input(r, i, call)).collect())
            .collect();
        let golden = reference::allreduce(ReduceOp::Sum, &inputs);
        for rank in 0..ranks {
            same(
                &name,
                &format!("call {call} rank {rank}"),
                &results[rank][call],
                &golden[rank],
                Dt::F32,
            )?;
        }
    }
    Ok(())
}
// ---- all_to_all_v --------------------------------------------------------

#[derive(Clone, Copy, Debug)]
pub enum Counts {
    ZeroAndFull,
    OneAndFull,
    OverCapacity,
    Negative,
    Default,
}

/// The count matrices of spec 12 (by destination `d`).
pub fn raw_count(m: Counts, ranks: usize, d: usize, max: usize) -> i64 {
    let (even, max) = (d.is_multiple_of(2), max as i64);
    match m {
        Counts::ZeroAndFull => {
            if even {
                0
            } else {
                max
            }
        }
        Counts::OneAndFull => {
            if even {
                1
            } else {
                max
            }
        }
        Counts::OverCapacity => max + 3,
        Counts::Negative => {
            if even {
                -2
            } else {
                max
            }
        }
        Counts::Default => (ranks - d) as i64,
    }
}

/// Spec 12's input formula `salt + r*1000 + d*100 + k*10 + (j mod 10)`
/// (FP32), and a small signed pattern for INT8.
pub fn a2av_input(dt: Dt, salt: usize, r: usize, d: usize, k: usize, j: usize) -> f64 {
    match dt {
        Dt::I8 => ((salt * 7 + r * 37 + d * 11 + k * 5 + j) % 100) as f64 - 50.0,
        _ => 0.25 + salt as f64 + (r * 1000 + d * 100 + k * 10 + j % 10) as f64,
    }
}

pub const MAX_RECV: usize = 4;

pub struct A2av {
    pub input: usize,
    pub target: usize,
    pub signal: usize,
    pub send: usize,
    pub recv: usize,
    pub row: usize,
    pub lanes: usize,
    pub size: usize,
}

pub fn a2av_layout(dt: Dt, ranks: usize, lanes: usize) -> A2av {
    // FP32 rows of 96 bytes, INT8 rows of 40: neither a multiple of the
    // lane split, so lanes start inside rows.
    let row = if dt == Dt::I8 { 40 } else { 24 };
    let mut l = Layout::default();
    let block = ranks * MAX_RECV * row * dt.bytes();
    A2av {
        input: l.add(block),
        target: l.add(block),
        signal: l.add(ranks * lanes * 4),
        send: l.add(ranks * 4),
        recv: l.add(ranks * 4),
        row,
        lanes,
        size: l.size,
    }
}

pub fn a2av_tensors(a: &A2av, dt: Dt, ranks: usize) -> Vec<TensorArg> {
    let rows = (ranks * MAX_RECV) as u32;
    vec![
        TensorArg::new(a.input, &[rows, a.row as u32], dt.bytes()),
        TensorArg::new(a.target, &[rows, a.row as u32], dt.bytes()),
        TensorArg::new(a.signal, &[ranks as u32, a.lanes as u32], 4),
        TensorArg::new(a.send, &[ranks as u32], 4),
        TensorArg::new(a.recv, &[ranks as u32], 4),
    ]
}

pub fn a2av_case(
    dt: Dt,
    ranks: usize,
    m: Counts,
    core_num: usize,
    mode: Mode,
) -> Result<(), String> {
    let blocks =
        all_to_all_v_blocks(ranks as i64, core_num as i64).map_err(|e| e.to_string())? as usize;
    let name = named(
        format!(
            "all_to_all_v {} P={ranks} counts={m:?} core_num={core_num} (B={blocks})",
            dt.key()
        ),
        mode.schedule,
    );
    let a = a2av_layout(dt, ranks, blocks);
    let domain = CommDomain::new(ranks, a.size).map_err(|e| e.to_string())?;
    let calls = mode.calls;
    let counts: Vec<Vec<i64>> = (0..ranks)
        .map(|_| {
            (0..ranks)
                .map(|d| raw_count(m, ranks, d, MAX_RECV))
                .collect()
        })
        .collect();
    let input = |call: usize, r: usize| -> Vec<f64> {
        let mut v = Vec::new();
        for d in 0..ranks {
            for k in 0..MAX_RECV {
                for j in 0..a.row {
                    v.push(a2av_input(dt, call, r, d, k, j));
                }
            }
        }
        v
    };
    let elems = ranks * MAX_RECV * a.row;
    let results = Mutex::new(vec![vec![(Vec::new(), Vec::new()); calls]; ranks]);
    let before = |env: RankEnv<'_>, call: usize| {
        write(
            env.domain,
            env.rank,
            a.input,
            &dt.encode(&input(call, env.rank)),
        );
        write(env.domain, env.rank, a.send, &i32s(&counts[env.rank]));
    };
    let after = |env: RankEnv<'_>, call: usize| {
        let target = dt.decode(&read(env.domain, env.rank, a.target, elems * dt.bytes()));
        let recv = as_i32s(&read(env.domain, env.rank, a.recv, ranks * 4));
        results.lock().unwrap()[env.rank][call] = (target, recv);
    };
    let run = BuiltinRun {
        variant: &format!("builtin.tensor.all_to_all_v__{}", dt.key()),
        tensors: &a2av_tensors(&a, dt, ranks),
        scalars: &[Scalar::Context, Scalar::Value(core_num as u64)],
        calls,
        aiv_limit: AIV_CORES,
        deadline: DEADLINE,
        record_remote_writes: true,
        launch: None,
    };
    let run = execute(
        &name,
        &run,
        &domain,
        Some(&before),
        Some(&after),
        mode.schedule,
    )?;
    clean(&name, &run, &domain, (a.signal, ranks * blocks), 7)?;
    // The launch-width line of spec 8.2, once per call.
    let line = format!(
        "requested_core_num={core_num} launched_core_num={blocks} active_lanes={blocks} nranks={ranks}"
    );
    for (rank, log) in run.outcome.logs.iter().enumerate() {
        if log.len() != calls || log.iter().any(|l| l != &line) {
            return Err(format!(
                "{name}: rank {rank} logged {log:?}, want {calls} x {line:?}"
            ));
        }
    }
    // Every transfer into a target starts on a 32-byte boundary of it.
    for w in &run.outcome.remote_writes {
        if w.offset >= a.target
            && w.offset < a.target + elems * dt.bytes()
            && !(w.offset - a.target).is_multiple_of(32)
        {
            return Err(format!(
                "{name}: rank {} wrote {} bytes at byte {} of rank {}'s target (not 32-byte aligned)",
                w.rank,
                w.bytes,
                w.offset - a.target,
                w.window
            ));
        }
    }
    let results = results.into_inner().unwrap();
    let mut targets = vec![vec![0.0; elems]; ranks];
    for call in 0..calls {
        let inputs: Vec<Vec<f64>> = (0..ranks).map(|r| input(call, r)).collect();
        let (want, recv) = reference::all_to_all_v(&inputs, &counts, MAX_RECV, a.row, &targets);
        for rank in 0..ranks {
            let (got, got_recv) = &results[rank][call];
            same(
                &name,
                &format!("call {call} rank {rank} target"),
                got,
                &want[rank],
                dt,
            )?;
            if got_recv != &recv[rank] {
                return Err(format!(
                    "{name}: call {call} rank {rank} recv_counts {got_recv:?}, want {:?}",
                    recv[rank]
                ));
            }
            // Rows past the received count: exactly zero (fresh window, the
            // same counts in both calls).
            for s in 0..ranks {
                for k in recv[rank][s] as usize..MAX_RECV {
                    let row = &got[(s * MAX_RECV + k) * a.row..(s * MAX_RECV + k + 1) * a.row];
                    if row.iter().any(|&v| v != 0.0) {
                        return Err(format!(
                            "{name}: call {call} rank {rank} slot {s} row {k} is not zero"
                        ));
                    }
                }
            }
        }
        targets = want;
    }
    Ok(())
}
// ---- barrier, broadcast, reduce_scatter, allgather, all_to_all ----------

/// Exact FP32 test values, distinct per rank, element and call.
pub fn value(rank: usize, i: usize, call: usize) -> f64 {
    (rank * 100 + i % 97 + call * 7) as f64 + 0.5
}

/// Runs a one-block FP32 builtin twice back to back: `tensors` are
/// (offset, shape) of the data tensors (an input first when `input` is
/// set), then the signal. Returns each call's data per rank.
struct Simple<'a> {
    variant: &'a str,
    ranks: usize,
    /// (element count, shape) of the input (set by `before`, read-only).
    input: Option<(usize, Vec<u32>)>,
    /// (element count, shape) of the data the call updates.
    data: Option<(usize, Vec<u32>)>,
    expected_args: i32,
    mode: Mode,
    /// A root passed as the entry's third scalar (a reduce's).
    root: Option<usize>,
}

fn simple(s: &Simple<'_>) -> Result<Vec<Vec<Vec<f64>>>, String> {
    let mode = s.mode;
    let name = named(format!("{} P={}", s.variant, s.ranks), mode.schedule);
    let mut layout = Layout::default();
    let input = s.input.as_ref().map(|(n, _)| layout.add(n * 4));
    let data = s.data.as_ref().map(|(n, _)| layout.add(n * 4));
    let signal = layout.add(s.ranks * 4);
    let domain = CommDomain::new(s.ranks, layout.size).map_err(|e| e.to_string())?;
    let calls = mode.calls;
    let results = Mutex::new(vec![vec![Vec::new(); s.ranks]; calls]);
    let before = |env: RankEnv<'_>, call: usize| {
        if let (Some(at), Some((n, _))) = (input, &s.input) {
            let v: Vec<f64> = (0..*n).map(|i| value(env.rank, i, call)).collect();
            write(env.domain, env.rank, at, &Dt::F32.encode(&v));
        } else if let (Some(at), Some((n, _))) = (data, &s.data) {
            let v: Vec<f64> = (0..*n).map(|i| value(env.rank, i, call)).collect();
            write(env.domain, env.rank, at, &Dt::F32.encode(&v));
        }
    };
    let after = |env: RankEnv<'_>, call: usize| {
        if let (Some(at), Some((n, _))) = (data, &s.data) {
            results.lock().unwrap()[call][env.rank] =
                Dt::F32.decode(&read(env.domain, env.rank, at, n * 4));
        }
    };
    let mut tensors = Vec::new();
    if let (Some(at), Some((_, shape))) = (input, &s.input) {
        tensors.push(TensorArg::new(at, shape, 4));
    }
    if let (Some(at), Some((_, shape))) = (data, &s.data) {
        tensors.push(TensorArg::new(at, shape, 4));
    }
    tensors.push(TensorArg::new(signal, &[s.ranks as u32], 4));
    let mut scalars = vec![Scalar::Ranks, Scalar::Context];
    scalars.extend(s.root.map(|r| Scalar::Value(r as u64)));
    let run = BuiltinRun {
        variant: s.variant,
        tensors: &tensors,
        scalars: &scalars,
        calls,
        aiv_limit: AIV_CORES,
        deadline: DEADLINE,
        record_remote_writes: false,
        launch: None,
    };
    let run = execute(
        &name,
        &run,
        &domain,
        Some(&before),
        Some(&after),
        mode.schedule,
    )?;
    clean(&name, &run, &domain, (signal, s.ranks), s.expected_args)?;
    if s.ranks > 1 && run.outcome.counters.iter().any(|c| c.notifies == 0) {
        return Err(format!("{name}: a rank never notified"));
    }
    Ok(results.into_inner().unwrap())
}

pub fn inputs(ranks: usize, n: usize, call: usize) -> Vec<Vec<f64>> {
    (0..ranks)
        .map(|r| (0..n).map(|i| value(r, i, call)).collect())
        .collect()
}

pub fn check_calls(
    name: &str,
    got: &[Vec<Vec<f64>>],
    golden: impl Fn(usize) -> Vec<Vec<f64>>,
) -> Result<(), String> {
    for (call, ranks) in got.iter().enumerate() {
        let want = golden(call);
        for (rank, g) in ranks.iter().enumerate() {
            same(
                name,
                &format!("call {call} rank {rank}"),
                g,
                &want[rank],
                Dt::F32,
            )?;
        }
    }
    Ok(())
}

/// `builtin.tensor.barrier__fp32`: every rank notifies, nothing leaks.
pub fn barrier_case(ranks: usize, mode: Mode) -> Result<(), String> {
    simple(&Simple {
        variant: "builtin.tensor.barrier__fp32",
        ranks,
        input: None,
        data: None,
        expected_args: 3,
        mode,
        root: None,
    })
    .map(|_| ())
}

/// `builtin.tensor.broadcast__root<root>__fp32` of `n` elements.
pub fn broadcast_case(ranks: usize, root: usize, n: usize, mode: Mode) -> Result<(), String> {
    let variant = format!("builtin.tensor.broadcast__root{root}__fp32");
    let got = simple(&Simple {
        variant: &variant,
        ranks,
        input: None,
        data: Some((n, vec![n as u32])),
        expected_args: 4,
        mode,
        root: None,
    })?;
    check_calls(
        &named(format!("{variant} P={ranks} n={n}"), mode.schedule),
        &got,
        |c| reference::broadcast(root, &inputs(ranks, n, c)),
    )
}

/// `builtin.tensor.reduce_scatter__sum__fp32`, `m` elements per rank.
pub fn reduce_scatter_case(ranks: usize, m: usize, mode: Mode) -> Result<(), String> {
    let got = simple(&Simple {
        variant: "builtin.tensor.reduce_scatter__sum__fp32",
        ranks,
        input: None,
        data: Some((ranks * m, vec![ranks as u32, m as u32])),
        expected_args: 4,
        mode,
        root: None,
    })?;
    check_calls(
        &named(format!("reduce_scatter P={ranks} m={m}"), mode.schedule),
        &got,
        |c| reference::reduce_scatter(ReduceOp::Sum, &inputs(ranks, ranks * m, c), m),
    )
}

/// `builtin.tensor.reduce__max__fp32` of `n` elements into `root`: the
/// root's data becomes the element-wise maximum over the ranks (computed
/// here), the others' stay as they were.
pub fn reduce_case(ranks: usize, root: usize, n: usize, mode: Mode) -> Result<(), String> {
    let got = simple(&Simple {
        variant: "builtin.tensor.reduce__max__fp32",
        ranks,
        input: None,
        data: Some((n, vec![n as u32])),
        expected_args: 5,
        mode,
        root: Some(root),
    })?;
    check_calls(
        &named(format!("reduce P={ranks} root={root} n={n}"), mode.schedule),
        &got,
        |c| {
            let ins = inputs(ranks, n, c);
            let mut want = ins.clone();
            want[root] = (0..n)
                .map(|i| ins.iter().map(|r| r[i]).fold(f64::MIN, f64::max))
                .collect();
            want
        },
    )
}

/// `builtin.tensor.allgather__fp32` (`gather`) or
/// `builtin.tensor.all_to_all__fp32`, `m` elements per rank and peer: the
/// data tensor is the output, the input is set before each call.
pub fn gather_case(gather: bool, ranks: usize, m: usize, mode: Mode) -> Result<(), String> {
    let (variant, per_rank_in) = if gather {
        ("builtin.tensor.allgather__fp32", m)
    } else {
        ("builtin.tensor.all_to_all__fp32", ranks * m)
    };
    let got = simple(&Simple {
        variant,
        ranks,
        input: Some((per_rank_in, vec![per_rank_in as u32])),
        data: Some((ranks * m, vec![(ranks * m) as u32])),
        expected_args: 5,
        mode,
        root: None,
    })?;
    check_calls(
        &named(format!("{variant} P={ranks} m={m}"), mode.schedule),
        &got,
        |c| {
            let ins = inputs(ranks, per_rank_in, c);
            if gather {
                reference::allgather(&ins)
            } else {
                reference::all_to_all(&ins, m)
            }
        },
    )
}

/// Runs a broken allreduce copy (runtime-sys/build.rs) on 3 ranks, 2
/// blocks, under `schedule` when given, and returns why its checks fail.
pub fn broken_allreduce(variant: &str, schedule: Option<Schedule>) -> String {
    let name = named(variant.to_string(), schedule);
    let (ranks, numel, core_num) = (3, 600, 2);
    let mut layout = Layout::default();
    let data = layout.add(numel * 4);
    let signal = layout.add(ranks * core_num * 4);
    let domain = CommDomain::new(ranks, layout.size).unwrap();
    let before = |env: RankEnv<'_>, _: usize| {
        let v: Vec<f64> = (0..numel).map(|i| value(env.rank, i, 0)).collect();
        write(env.domain, env.rank, data, &Dt::F32.encode(&v));
    };
    let run = BuiltinRun {
        variant,
        tensors: &[
            TensorArg::new(data, &[numel as u32], 4),
            TensorArg::new(signal, &[ranks as u32, core_num as u32], 4),
        ],
        scalars: &[
            Scalar::Ranks,
            Scalar::Context,
            Scalar::Value(core_num as u64),
        ],
        calls: 1,
        aiv_limit: AIV_CORES,
        deadline: DEADLINE,
        record_remote_writes: false,
        launch: None,
    };
    let run = execute(&name, &run, &domain, Some(&before), None, schedule).unwrap();
    let verdict = clean(&name, &run, &domain, (signal, ranks * core_num), 5).and_then(|()| {
        let golden = reference::allreduce(ReduceOp::Sum, &inputs(ranks, numel, 0));
        (0..ranks).try_for_each(|rank| {
            let got = Dt::F32.decode(&read(&domain, rank, data, numel * 4));
            same(&name, &format!("rank {rank}"), &got, &golden[rank], Dt::F32)
        })
    });
    verdict.expect_err("a broken kernel passed its checks")
}
