// pld-to-pto: InCore kernels end as func/arith/scf/pto only, for every
// composite collective; pld-incore-pipeline stops before PTO.
//
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-to-pto)' | FileCheck %s
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-to-pto)' | pld-opt | FileCheck %s
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-incore-pipeline)' | FileCheck %s --check-prefix=INCORE
// Every op left is func, arith, scf or pto:
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-to-pto)' | grep -oE '("[a-z_]+\.[a-z_]+"|= [a-z_]+\.[a-z_]+|^ *[a-z_]+\.[a-z_]+ )' | grep -oE '[a-z_]+\.' | sort -u | FileCheck %s --check-prefix=DIALECTS
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
func.func @mesh(%data: !row, %sig: !mesh) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">} : (!row, !mesh) -> !row
  return
}

// CHECK-LABEL: func.func @ring_fp16
// CHECK: "pto.tmax"
// CHECK-NOT: "pld.
func.func @ring_fp16(%data: !half, %sig: !ring) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"max">, mode = "ring"} : (!half, !ring) -> !half
  return
}

// CHECK-LABEL: func.func @exchange
// CHECK: "pto.load_scalar"(%arg3,
// CHECK: "pto.comm_tnotify"({{.*}}) {notifyOp = #pto.notify_op<"set">}
// CHECK: "pto.comm_tput"
// CHECK-NOT: "pld.
func.func @exchange(%i: tensor<8x16xf32>, %t: tensor<8x16xf32, #pld.dist>, %s: !mesh, %c: tensor<4xi32>, %rc: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_all_to_all_v"(%i, %t, %s, %c, %rc) : (tensor<8x16xf32>, tensor<8x16xf32, #pld.dist>, !mesh, tensor<4xi32>, tensor<4x1xi32, #pld.dist>) -> tensor<8x16xf32, #pld.dist>
  return
}
