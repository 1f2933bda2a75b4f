//! The runtime `CommContext` layout device kernels read (docs/passes/convert-pld-to-pto.md), as the
//! code generator needs it. The numbers come from the C header
//! `runtime-sys/include/pld/comm_context.h` (through `pld-runtime-sys`),
//! the one definition the simulator fills too.

pub use pld_runtime_sys::abi::{
    COMM_BUFFER_ALIGNMENT, COMM_CTX_SIZE, COMM_MAX_RANK_NUM, RANK_ID_OFFSET, RANK_NUM_OFFSET,
    WINDOWS_IN_OFFSET, WINDOWS_OUT_OFFSET, WINDOW_SLOT_STRIDE,
};

/// Kernels read the context as `!pto.ptr<i64>`: u64 slot `k` is bytes
/// `8k..8k+8`.
pub const SLOT_BYTES: i64 = 8;
/// u64 slot holding `rankId` (low half) and `rankNum` (high half).
pub const RANK_SLOT: i64 = RANK_ID_OFFSET / SLOT_BYTES;
/// u64 slot of `windowsIn[0]`.
pub const WINDOWS_IN_SLOT: i64 = WINDOWS_IN_OFFSET / SLOT_BYTES;

// What the generated code assumes of the layout; a drift fails the build.
const _: () = assert!(RANK_NUM_OFFSET == RANK_ID_OFFSET + 4);
const _: () = assert!(RANK_ID_OFFSET % SLOT_BYTES == 0 && WINDOWS_IN_OFFSET % SLOT_BYTES == 0);
const _: () = assert!(WINDOW_SLOT_STRIDE == SLOT_BYTES);
const _: () = assert!(RANK_SLOT == 2 && WINDOWS_IN_SLOT == 4);
