// pld-to-pto: InCore kernels end as func/arith/scf/pto only, for every
// composite collective; pld-incore-pipeline stops before PTO.
//
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-to-pto)' | FileCheck %s
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-to-pto)' | pld-opt | FileCheck %s
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-incore-pipeline)' | FileCheck %s --check-prefix=INCORE
// Its own output goes through unchanged (the second run rewrote
// pld.signature to the pointer types, and pld-run then refused the module):
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-to-pto)' -o %t.once
// RUN: pld-opt %t.once --pass-pipeline='builtin.module(pld-to-pto)' | diff %t.once -
// RUN: pld-opt %S/../../../examples/ring_allreduce.mlir --pass-pipeline='builtin.module(pld-to-pto,pld-to-pto)' -o %t.twice
// RUN: pld-run %t.twice --ranks 4 | FileCheck %s --check-prefix=TWICE
// TWICE: @ring_allreduce on 4 ranks: finished
// Every op left is func, arith, scf or pto:
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-to-pto)' | grep -oE '("[a-z_]+\.[a-z_]+"|= [a-z_]+\.[a-z_]+|^ *[a-z_]+\.[a-z_]+ )' | grep -oE '[a-z_]+\.' | sort -u | FileCheck %s --check-prefix=DIALECTS
// The whole chain to PTOAS text:
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-to-pto)' | pld-translate --emit=pto | FileCheck %s --check-prefix=PTOAS
// DIALECTS: arith.
// DIALECTS-NEXT: func.
// DIALECTS-NEXT: pto.
// DIALECTS-NEXT: scf.
// DIALECTS-EMPTY:

!row = tensor<1x4097xf32, #pld.dist>
!half = tensor<1x8193xf16, #pld.dist>
!mesh = tensor<4x1xi32, #pld.dist>
!ring = tensor<6x4xi32, #pld.dist>

// CHECK-LABEL: func.func @mesh(%arg0: !pto.ptr<f32>, %arg1: !pto.ptr<i32>, %arg2: !pto.ptr<i64>, %arg3: !pto.ptr<i64>)
// CHECK-SAME: pto.kernel_kind = #pto.kernel_kind<"vector">
// CHECK: "pto.comm_tnotify"
// CHECK: "pto.tadd"
// CHECK: "pto.tstore"
// CHECK-NOT: "pld.
// INCORE-LABEL: func.func @mesh(%arg0: tensor<1x4097xf32, #pld.dist>, %arg1: tensor<4x1xi32, #pld.dist>, %arg2: !pld.ctx, %arg3: !pld.ctx)
// INCORE: "pld.system_wait"
// INCORE-NEXT: "pld.system_cacheinvalid"()
// INCORE: "pld.tile_store"
// INCORE: "pld.system_cacheinvalid"(%{{.*}}
// INCORE-NEXT: "pld.system_fence"
// PTOAS-LABEL: func.func @mesh(%arg0: !pto.ptr<f32>, %arg1: !pto.ptr<i32>, %arg2: !pto.ptr<i64>, %arg3: !pto.ptr<i64>) attributes {pto.entry, pto.kernel_kind = #pto.kernel_kind<vector>} {
// rank count: the high half of CommContext slot 2.
// PTOAS: %[[PAIR:.*]] = pto.load_scalar %arg3[%c2] : !pto.ptr<i64> -> i64
// PTOAS-NEXT: %c32_i64 = arith.constant 32 : i64
// PTOAS-NEXT: %{{.*}} = arith.shrui %[[PAIR]], %c32_i64 : i64
// the peer address of the signal: windowsIn of self and peer, byte delta over 4.
// PTOAS: %[[SELF:.*]] = pto.load_scalar %arg3[%{{[0-9]+}}] : !pto.ptr<i64> -> i64
// PTOAS-NEXT: %[[SLOT:.*]] = arith.addi %c4{{.*}}, %arg4 : index
// PTOAS-NEXT: %[[PEER:.*]] = pto.load_scalar %arg3[%[[SLOT]]] : !pto.ptr<i64> -> i64
// PTOAS-NEXT: %[[DELTA:.*]] = arith.subi %[[PEER]], %[[SELF]] : i64
// PTOAS-NEXT: %[[ELEM:.*]] = arith.constant 4 : i64
// PTOAS-NEXT: %[[ELEMS:.*]] = arith.divsi %[[DELTA]], %[[ELEM]] : i64
// PTOAS-NEXT: %[[OFF:.*]] = arith.index_cast %[[ELEMS]] : i64 to index
// PTOAS-NEXT: %[[PTR:.*]] = pto.addptr %arg1, %[[OFF]] : !pto.ptr<i32> -> !pto.ptr<i32>
// PTOAS: %[[VIEW:.*]] = pto.make_tensor_view %[[PTR]], shape = [{{.*}}], strides = [{{.*}}] {layout = #pto.layout<dn>} : !pto.tensor_view<?x?xi32>
// PTOAS: %[[CELL:.*]] = pto.partition_view %[[VIEW]], offsets = [{{.*}}], sizes = [{{.*}}] : !pto.tensor_view<?x?xi32> -> !pto.partition_tensor_view<1x1xi32>
// PTOAS-NEXT: pto.barrier <PIPE_ALL>
// PTOAS-NEXT: pto.comm.tnotify(%[[CELL]], %{{.*}} : !pto.partition_tensor_view<1x1xi32>, i32) {notifyOp = #pto<notify_op atomic_add>}
// PTOAS: pto.comm.twait(%{{.*}}, %{{.*}} : !pto.partition_tensor_view<1x1xi32>, i32) {cmp = #pto<wait_cmp ge>}
// PTOAS-NEXT: pto.cmo.cacheinvalid all #pto.address_space<gm>
// PTOAS: pto.alloc_tile valid_row = %c1 valid_col = %{{.*}} : !pto.tile_buf<vec, 1x4096xf32, valid=?x?, pad=1>
// PTOAS: pto.tadd ins(%[[ACC:.*]], %{{.*}} : !pto.tile_buf<vec, 1x4096xf32, valid=?x?, pad=1>, !pto.tile_buf<vec, 1x4096xf32, valid=?x?, pad=1>) outs(%[[ACC]] : !pto.tile_buf<vec, 1x4096xf32, valid=?x?, pad=1>)
// PTOAS: pto.tstore ins(%{{.*}} : !pto.tile_buf<vec, 1x4096xf32, valid=?x?, pad=1>) outs(%{{.*}} : !pto.partition_tensor_view<?x?xf32>)
// PTOAS: pto.cmo.cacheinvalid %{{.*}} single_cache_line : !pto.partition_tensor_view<1x4097xf32>
// PTOAS-NEXT: pto.barrier <PIPE_ALL>
// PTOAS-NEXT: pto.fence.barrier_all #pto.fence_scope<gm>
func.func @mesh(%data: !row, %sig: !mesh) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">} : (!row, !mesh) -> !row
  return
}

// CHECK-LABEL: func.func @ring_fp16
// CHECK: "pto.tmax"
// CHECK-NOT: "pld.
// PTOAS-LABEL: func.func @ring_fp16(%arg0: !pto.ptr<f16>,
// PTOAS: pto.tmax ins({{.*}} : !pto.tile_buf<vec, 1x2064xf16, valid=?x?, pad=1>, {{.*}}) outs(
// PTOAS-NOT: "pld.
func.func @ring_fp16(%data: !half, %sig: !ring) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"max">, mode = "ring"} : (!half, !ring) -> !half
  return
}

// CHECK-LABEL: func.func @exchange
// CHECK: "pto.load_scalar"(%arg3,
// CHECK: "pto.comm_tnotify"({{.*}}) {notifyOp = #pto.notify_op<"set">}
// CHECK: "pto.comm_tput"
// CHECK-NOT: "pld.
// PTOAS-LABEL: func.func @exchange(
// PTOAS: %[[DST:.*]] = pto.partition_view {{.*}} -> !pto.partition_tensor_view<?x16xf32>
// PTOAS-NEXT: %[[SRC:.*]] = pto.partition_view {{.*}} -> !pto.partition_tensor_view<?x16xf32>
// PTOAS-NEXT: pto.barrier <PIPE_ALL>
// PTOAS-NEXT: pto.comm.tput(%[[DST]], %[[SRC]], buf(%{{.*}}) : !pto.partition_tensor_view<?x16xf32>, !pto.partition_tensor_view<?x16xf32>, !pto.tile_buf<vec, 2x16xf32, valid=?x?, pad=1>) {atomicType = #pto<atomic_type atomic_none>}
// PTOAS-NEXT: pto.barrier <PIPE_ALL>
// PTOAS-NEXT: pto.cmo.cacheinvalid %[[DST]] single_cache_line : !pto.partition_tensor_view<?x16xf32>
// PTOAS-NOT: "pto.
func.func @exchange(%i: tensor<8x16xf32>, %t: tensor<8x16xf32, #pld.dist>, %s: !mesh, %c: tensor<4xi32>, %rc: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_all_to_all_v"(%i, %t, %s, %c, %rc) : (tensor<8x16xf32>, tensor<8x16xf32, #pld.dist>, !mesh, tensor<4xi32>, tensor<4x1xi32, #pld.dist>) -> tensor<8x16xf32, #pld.dist>
  return
}
