//! The static checks of a HOST allreduce's signal and data
//! (docs/passes/pld-lower-host-tensor-collectives.md): what
//! `pld-lower-host-tensor-collectives` checks before it emits a builtin,
//! and what `pld-select-allreduce-modes` asks of a candidate of
//! `mode = "auto"`.

use pld_dialect::{ops::builtin::RING_MAX_RANKS, types::TensorInfo};

/// A static signal has at least one row per participating device.
pub fn check_rows(signal: &TensorInfo, world: Option<i64>) -> Result<(), String> {
    if let (Some(rows), Some(world)) = (signal.dim(0), world) {
        if rows < world {
            return Err(format!(
                "collective signal dim 0 ({rows}) must be at least the participating device \
                 count ({world})"
            ));
        }
    }
    Ok(())
}

/// Mesh allreduce: one signal lane per AIV core it runs on.
pub fn check_mesh_lanes(
    signal: &TensorInfo,
    core_num: i64,
    aiv_cores: Option<i64>,
) -> Result<(), String> {
    if let Some(cores) = aiv_cores.filter(|c| core_num > *c) {
        return Err(format!(
            "core_num ({core_num}) exceeds the backend AIV core count ({cores})"
        ));
    }
    match signal.rank() {
        1 if core_num == 1 => Ok(()),
        1 => Err(format!(
            "rank-1 signal is valid only when one signal lane is required (core_num = {core_num})"
        )),
        2 => match signal.dim(1) {
            None => Err("rank-2 signal dim 1 must be static".into()),
            Some(lanes) if lanes < core_num => Err(format!(
                "rank-2 signal dim 1 ({lanes}) must be at least the required lane count ({core_num})"
            )),
            Some(_) => Ok(()),
        },
        r => Err(format!("allreduce signal must be rank 1 or 2, got rank {r}")),
    }
}

/// Ring allreduce: `[2*(W-1)+1, W]` signal, at most 64 devices, a static
/// source whose element count W divides.
pub fn check_ring(
    signal: &TensorInfo,
    data: &TensorInfo,
    world: Option<i64>,
) -> Result<(), String> {
    if signal.dtype() != "i32" || signal.rank() != 2 {
        return Err(format!(
            "ring allreduce signal must be a rank-2 i32 tensor [2*(NR-1)+1, NR], NR the number of \
             ranks, got rank {} {}",
            signal.rank(),
            signal.dtype()
        ));
    }
    if let Some(world) = world {
        if let Some(rows) = signal.dim(0).filter(|r| *r < 2 * (world - 1) + 1) {
            return Err(format!(
                "ring signal dim 0 ({rows}) must be at least 2*(NR-1) + 1 = {} for NR = {world} \
                 participating devices",
                2 * (world - 1) + 1
            ));
        }
        if let Some(ranks) = signal.dim(1).filter(|r| *r != world) {
            return Err(format!(
                "ring signal dim 1 ({ranks}) must equal the participating device count ({world})"
            ));
        }
    }
    if let (Some(rows), Some(ranks)) = (signal.dim(0), signal.dim(1)) {
        if rows != 2 * (ranks - 1) + 1 {
            return Err(format!(
                "ring signal dim 0 ({rows}) must equal 2*(NR-1) + 1 = {} for NR = {ranks} ranks \
                 (signal dim 1)",
                2 * (ranks - 1) + 1
            ));
        }
    }
    // Without an explicit device list the signal's columns give the ring.
    let Some(ranks) = world.or(signal.dim(1)) else {
        return Ok(());
    };
    if ranks > RING_MAX_RANKS {
        return Err(format!(
            "mode = \"ring\" supports {RING_MAX_RANKS} or fewer participating devices, got {ranks}"
        ));
    }
    let numel = data
        .static_numel()
        .ok_or("mode = \"ring\" requires a statically-known src shape")?;
    if numel % ranks != 0 {
        return Err(format!(
            "mode = \"ring\" needs a src element count ({numel}) that is an exact multiple of the \
             rank count ({ranks}); got a remainder of {}",
            numel % ranks
        ));
    }
    Ok(())
}
