// A CHIP orchestrator keeps calling the kernels convert-pld-to-pto
// converted: each argument whose type changed goes through an
// unrealized_conversion_cast to the kernel's new parameter type, so the
// module verifies; the orchestrator itself is not converted.
//
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-to-pto)' | FileCheck %s

!data = tensor<1x64xf32, #pld.dist>
!signal = tensor<4x1xi32, #pld.dist>

// CHECK-LABEL: func.func @kernel(%arg0: !pto.ptr<f32>, %arg1: !pto.ptr<i32>, %arg2: !pto.ptr<i64>, %arg3: !pto.ptr<i64>)
func.func @kernel(%d: !data, %s: !signal) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%d, %s) {op = #pld.reduce_op<"sum">} : (!data, !signal) -> !data
  return
}

// CHECK-LABEL: func.func @chip(%arg0: tensor<1x64xf32, #pld.dist>, %arg1: tensor<4x1xi32, #pld.dist>, %arg2: !pld.ctx, %arg3: !pld.ctx)
// CHECK-SAME: pld.kind = #pld.func_kind<"chip">
// CHECK: %[[D:.*]] = builtin.unrealized_conversion_cast %arg0 : tensor<1x64xf32, #pld.dist> to !pto.ptr<f32>
// CHECK: %[[S:.*]] = builtin.unrealized_conversion_cast %arg1 : tensor<4x1xi32, #pld.dist> to !pto.ptr<i32>
// CHECK: %[[C0:.*]] = builtin.unrealized_conversion_cast %arg2 : !pld.ctx to !pto.ptr<i64>
// CHECK: %[[C1:.*]] = builtin.unrealized_conversion_cast %arg3 : !pld.ctx to !pto.ptr<i64>
// CHECK: call @kernel(%[[D]], %[[S]], %[[C0]], %[[C1]])
// CHECK-NOT: "pto.
// CHECK: return
func.func @chip(%d: !data, %s: !signal) attributes {pld.kind = #pld.func_kind<"chip">} {
  func.call @kernel(%d, %s) : (!data, !signal) -> ()
  return
}
