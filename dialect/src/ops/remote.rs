//! docs/dialect.md 4.4: remote data movement.

use super::{enum_attribute, pld_op};
use crate::enums::{AtomicType, PldEnum};

pld_op! {
    /// `%tile = pld.tile_remote_load(%target, %peer, offsets..., valid...)`:
    /// load a window of `peer`'s copy of `target` into a tile whose shape is
    /// the result type's.
    RemoteLoad, RemoteLoadBuilder = "pld.tile_remote_load" {
        target: one, peer: one, offsets: many, valid_shape: many
    }
}

/// Elements of FP16 in one 32-byte transfer block.
pub const FP16_BLOCK: i64 = 16;

/// Columns past its valid extent that a
/// `pld.tile_remote_load_with_physical_tail_padding` may read: the rest of
/// the last 32-byte block.
pub const FP16_TAIL_PADDING: i64 = FP16_BLOCK - 1;

pld_op! {
    /// Lowering-internal FP16 remote load whose ragged tail may be read
    /// rounded up to one 32-byte block.
    RemoteLoadTailPadded, RemoteLoadTailPaddedBuilder =
        "pld.tile_remote_load_with_physical_tail_padding" {
        target: one, peer: one, offsets: many, valid_shape: many
    }
}

pld_op! {
    /// `pld.tile_remote_store(%tile, %target, %peer, offsets...) {atomic}`.
    TileRemoteStore, TileRemoteStoreBuilder = "pld.tile_remote_store" {
        src: one, target: one, peer: one, offsets: many
    }
}

pld_op! {
    /// `pld.tensor_remote_store(%tensor, %target, %peer, offsets...) {atomic}`.
    TensorRemoteStore, TensorRemoteStoreBuilder = "pld.tensor_remote_store" {
        src: one, target: one, peer: one, offsets: many
    }
}

pld_op! {
    /// `pld.tensor_put(%dst, %peer, %src[, dst_off, src_off, shape])`.
    TensorPut, TensorPutBuilder = "pld.tensor_put" {
        dst: one, peer: one, src: one, dst_offsets: many, src_offsets: many, shape: many
    }
}

pld_op! {
    /// `pld.tensor_get(%dst, %peer, %src[, dst_off, src_off, shape])`.
    TensorGet, TensorGetBuilder = "pld.tensor_get" {
        dst: one, peer: one, src: one, dst_offsets: many, src_offsets: many, shape: many
    }
}

pld_op! {
    /// `pld.tile_put(%dst, %peer, %src, %stage[, %pong][, ...])`.
    TilePut, TilePutBuilder = "pld.tile_put" {
        dst: one, peer: one, src: one, stage: one, pong: opt,
        dst_offsets: many, src_offsets: many, shape: many
    }
}

pld_op! {
    /// `pld.tile_get(%dst, %peer, %src, %stage[, %pong][, ...])`.
    TileGet, TileGetBuilder = "pld.tile_get" {
        dst: one, peer: one, src: one, stage: one, pong: opt,
        dst_offsets: many, src_offsets: many, shape: many
    }
}

/// The `atomic` attribute of a store or put (default `none`).
pub fn atomic(view: &super::OpView) -> Option<AtomicType> {
    match view.attribute("atomic") {
        None => Some(AtomicType::None),
        Some(_) => enum_attribute(view, "atomic"),
    }
}

impl<'c> TileRemoteStoreBuilder<'c, '_> {
    pub fn atomic(self, context: &'c melior::Context, atomic: AtomicType) -> Self {
        self.attribute("atomic", atomic.to_attribute(context))
    }
}

impl<'c> TilePutBuilder<'c, '_> {
    pub fn atomic(self, context: &'c melior::Context, atomic: AtomicType) -> Self {
        self.attribute("atomic", atomic.to_attribute(context))
    }
}
