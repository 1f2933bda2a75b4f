//! The PTO ops pld emits (see `pto.irdl.mlir`).

use super::pld_op;

pld_op! { LoadScalar, LoadScalarBuilder = "pto.load_scalar" { ptr: one, offset: one } }
pld_op! { StoreScalar, StoreScalarBuilder = "pto.store_scalar" { value: one, ptr: one, offset: one } }
pld_op! { AddPtr, AddPtrBuilder = "pto.addptr" { ptr: one, offset: one } }
pld_op! { MakeTensorView, MakeTensorViewBuilder = "pto.make_tensor_view" { ptr: one, shape: many, strides: many } }
pld_op! { PartitionView, PartitionViewBuilder = "pto.partition_view" { source: one, offsets: many, sizes: many } }
pld_op! { AllocTile, AllocTileBuilder = "pto.alloc_tile" { addr: opt, valid_row: opt, valid_col: opt } }
pld_op! { SetValidShape, SetValidShapeBuilder = "pto.set_validshape" { tile: one, row: one, col: one } }
pld_op! { GetValidShape, GetValidShapeBuilder = "pto.get_validshape" { tile: one } }
pld_op! {
    TLoad, TLoadBuilder = "pto.tload" {
        src: one, dst: one, pad_value: opt, left_padding_num: opt, right_padding_num: opt,
        init_condition: opt
    }
}
pld_op! { TStore, TStoreBuilder = "pto.tstore" { src: one, dst: one, fp: opt, pre_quant_scalar: opt } }
pld_op! { TAdd, TAddBuilder = "pto.tadd" { src0: one, src1: one, dst: one } }
pld_op! { TMax, TMaxBuilder = "pto.tmax" { src0: one, src1: one, dst: one } }
pld_op! { TMin, TMinBuilder = "pto.tmin" { src0: one, src1: one, dst: one } }
pld_op! { TMul, TMulBuilder = "pto.tmul" { src0: one, src1: one, dst: one } }
pld_op! { TFillPad, TFillPadBuilder = "pto.tfillpad" { src: one, dst: one } }
pld_op! { TFillPadInplace, TFillPadInplaceBuilder = "pto.tfillpad_inplace" { src: one, dst: one } }
pld_op! { PtoBarrier, PtoBarrierBuilder = "pto.barrier" {} }
pld_op! { FenceBarrierAll, FenceBarrierAllBuilder = "pto.fence_barrier_all" {} }
pld_op! { CmoCacheInvalid, CmoCacheInvalidBuilder = "pto.cmo_cacheinvalid" { addr: opt } }
pld_op! { CommTNotify, CommTNotifyBuilder = "pto.comm_tnotify" { signal: one, value: one } }
pld_op! { CommTWait, CommTWaitBuilder = "pto.comm_twait" { signal: one, cmp_value: one } }
pld_op! { CommTTest, CommTTestBuilder = "pto.comm_ttest" { signal: one, cmp_value: one } }
pld_op! { CommTPut, CommTPutBuilder = "pto.comm_tput" { dst: one, src: one, ping: one, pong: opt } }
pld_op! { CommTGet, CommTGetBuilder = "pto.comm_tget" { dst: one, src: one, ping: one, pong: opt } }
pld_op! {
    CommBuildAsyncSession, CommBuildAsyncSessionBuilder = "pto.comm_build_async_session" {
        scratch: opt, workspace: one
    }
}
pld_op! { CommTPutAsync, CommTPutAsyncBuilder = "pto.comm_tput_async" { dst: one, src: one, session: one, peer: opt } }
pld_op! { CommTGetAsync, CommTGetAsyncBuilder = "pto.comm_tget_async" { dst: one, src: one, session: one, peer: opt } }
pld_op! { CommWaitAsyncEvent, CommWaitAsyncEventBuilder = "pto.comm_wait_async_event" { event: one, session: one } }
pld_op! { CommTestAsyncEvent, CommTestAsyncEventBuilder = "pto.comm_test_async_event" { event: one, session: one } }
pld_op! { GetBlockIdx, GetBlockIdxBuilder = "pto.get_block_idx" {} }
pld_op! { GetBlockNum, GetBlockNumBuilder = "pto.get_block_num" {} }
