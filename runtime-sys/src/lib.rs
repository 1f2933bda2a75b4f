//! The runtime ABI of pld, from the C headers in `include/pld`:
//!
//! * `comm_context.h`: [`PldCommContext`] (docs/passes/convert-pld-to-pto.md) and its offsets;
//! * `kernel_abi.h`: kernel argument slots;
//! * `pld_sim.h`: the simulator's device functions (`pld_sim_*`), which the
//!   simulator crate implements.
//!
//! The compiler takes its ABI constants from here ([`abi`]), so the numbers
//! in generated code and the struct the simulator fills cannot disagree.

#![allow(non_upper_case_globals, non_camel_case_types, non_snake_case)]

include!(concat!(env!("OUT_DIR"), "/bindings.rs"));

/// The text of `include/pld/pld_sim.h`: the one declaration of the device
/// functions, which the simulator's kernel lowering declares from.
pub const PLD_SIM_H: &str = include_str!("../include/pld/pld_sim.h");

/// The runtime headers a rendered builtin package's kernels and entries
/// include (`#include "pld/comm_context.h"`, `"pld/pld_runtime.h"`, and
/// through it `"pld/pld_sim.h"`), as (path under the including file's
/// directory, text): `pld-translate --emit=kernels` writes them next to
/// the files that include them, so that a package builds without an
/// include path of pld's.
pub const PACKAGE_HEADERS: [(&str, &str); 3] = [
    (
        "pld/comm_context.h",
        include_str!("../include/pld/comm_context.h"),
    ),
    (
        "pld/pld_runtime.h",
        include_str!("../include/pld/pld_runtime.h"),
    ),
    ("pld/pld_sim.h", PLD_SIM_H),
];

/// The ABI numbers as the compiler uses them (byte offsets and sizes, as
/// `i64` for building index constants), checked against the C struct.
pub mod abi {
    use super::*;
    use std::mem::{offset_of, size_of};

    pub const RANK_ID_OFFSET: i64 = PLD_RANK_ID_OFFSET as i64;
    pub const RANK_NUM_OFFSET: i64 = PLD_RANK_NUM_OFFSET as i64;
    pub const WINDOWS_IN_OFFSET: i64 = PLD_WINDOWS_IN_OFFSET as i64;
    pub const WINDOWS_OUT_OFFSET: i64 = PLD_WINDOWS_OUT_OFFSET as i64;
    pub const WINDOW_SLOT_STRIDE: i64 = PLD_WINDOW_SLOT_STRIDE as i64;
    pub const COMM_CTX_SIZE: i64 = PLD_COMM_CTX_SIZE as i64;
    pub const COMM_MAX_RANK_NUM: i64 = PLD_COMM_MAX_RANK_NUM as i64;
    pub const COMM_BUFFER_ALIGNMENT: i64 = PLD_COMM_BUFFER_ALIGNMENT as i64;

    // The Rust view of the struct agrees with the C one (bindgen also
    // emits its own layout tests).
    const _: () = assert!(offset_of!(PldCommContext, rankId) as i64 == RANK_ID_OFFSET);
    const _: () = assert!(offset_of!(PldCommContext, rankNum) as i64 == RANK_NUM_OFFSET);
    const _: () = assert!(offset_of!(PldCommContext, windowsIn) as i64 == WINDOWS_IN_OFFSET);
    const _: () = assert!(offset_of!(PldCommContext, windowsOut) as i64 == WINDOWS_OUT_OFFSET);
    const _: () = assert!(size_of::<PldCommContext>() as i64 == COMM_CTX_SIZE);
}
