// pld-incore-pipeline: the composite expansion, then CommContexts (which
// resolve the expansion's get_comm_ctx), then fences after the expansion's
// publishing stores; the CHIP caller forwards its contexts. Nothing is PTO
// yet, and a second run changes nothing.
//
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-incore-pipeline)' | FileCheck %s
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-incore-pipeline)' -o %t
// RUN: pld-opt %t --pass-pipeline='builtin.module(pld-incore-pipeline)' | diff %t -

!data = tensor<1x64xf32, #pld.dist>
!sig = tensor<2x1xi32, #pld.dist>

// CHECK-LABEL: func.func @kernel(%arg0: tensor<1x64xf32, #pld.dist>, %arg1: tensor<2x1xi32, #pld.dist>, %arg2: !pld.ctx, %arg3: !pld.ctx)
// The signal's context (the second one) feeds the rank count.
// CHECK-NEXT: "pld.system_nranks"(%arg3)
// CHECK-NOT: pld.system_get_comm_ctx
// CHECK-NOT: pld.tensor_allreduce
// CHECK: "pld.tile_store"(%{{.*}}, %[[VIEW:.*]], %c0, %{{.*}})
// CHECK-NEXT: arith.constant 1 : index
// CHECK-NEXT: arith.constant 64 : index
// CHECK-NEXT: arith.constant 0 : index
// CHECK-NEXT: "pld.system_cacheinvalid"(%[[VIEW]],
// CHECK-NEXT: "pld.system_fence"()
// CHECK-NOT: "pto.
func.func @kernel(%d: !data, %s: !sig) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%d, %s) {op = #pld.reduce_op<"sum">} : (!data, !sig) -> !data
  return
}

// CHECK-LABEL: func.func @chip(%arg0: tensor<1x64xf32, #pld.dist>, %arg1: tensor<2x1xi32, #pld.dist>, %arg2: !pld.ctx, %arg3: !pld.ctx)
// CHECK-NEXT: call @kernel(%arg0, %arg1, %arg2, %arg3)
func.func @chip(%d: !data, %s: !sig) attributes {pld.kind = #pld.func_kind<"chip">} {
  func.call @kernel(%d, %s) : (!data, !sig) -> ()
  return
}

