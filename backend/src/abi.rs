//! The runtime `CommContext` layout device kernels read (spec 9.1): one
//! place in the compiler for these numbers.

/// Byte offset of `rankId` (u32).
pub const RANK_ID_OFFSET: i64 = 16;
/// Byte offset of `rankNum` (u32), right after `rankId`: both live in one
/// u64 slot.
pub const RANK_NUM_OFFSET: i64 = 20;
/// Byte offset of `windowsIn[64]` (u64 window base per rank).
pub const WINDOWS_IN_OFFSET: i64 = 32;
/// Byte offset of `windowsOut[64]`.
pub const WINDOWS_OUT_OFFSET: i64 = 544;
/// Bytes between two window slots.
pub const WINDOW_SLOT_STRIDE: i64 = 8;
/// Size of the whole context.
pub const COMM_CTX_SIZE: i64 = 1056;
/// Maximum ranks of a context.
pub const COMM_MAX_RANK_NUM: i64 = 64;

/// Kernels read the context as `!pto.ptr<i64>`: u64 slot `k` is bytes
/// `8k..8k+8`.
pub const SLOT_BYTES: i64 = 8;
/// u64 slot holding `rankId` (low half) and `rankNum` (high half).
pub const RANK_SLOT: i64 = RANK_ID_OFFSET / SLOT_BYTES;
/// u64 slot of `windowsIn[0]`.
pub const WINDOWS_IN_SLOT: i64 = WINDOWS_IN_OFFSET / SLOT_BYTES;

// A layout drift must fail the build.
const _: () = assert!(RANK_NUM_OFFSET == RANK_ID_OFFSET + 4);
const _: () = assert!(RANK_ID_OFFSET % SLOT_BYTES == 0);
const _: () =
    assert!(WINDOWS_IN_OFFSET + COMM_MAX_RANK_NUM * WINDOW_SLOT_STRIDE == WINDOWS_OUT_OFFSET);
const _: () = assert!(WINDOWS_OUT_OFFSET + COMM_MAX_RANK_NUM * WINDOW_SLOT_STRIDE == COMM_CTX_SIZE);
const _: () = assert!(RANK_SLOT == 2 && WINDOWS_IN_SLOT == 4);
