// pld-lower-composite-ops, mesh allreduce: the worked geometry of spec
// 7.1.2, one function per row. After canonicalize a single-chunk loop is
// inlined, so the tail extent and the remote span appear as the constants
// the loads use; multi-chunk rows pin the chunk loop's bound and step. The
// credit total is the epilogue's notify value. Multi-chunk tails are
// checked numerically by the simulator.
//
// RUN: pld-opt %s --split-input-file --pass-pipeline='builtin.module(pld-lower-composite-ops, canonicalize)' | FileCheck %s

// -----

// CHECK-LABEL: func.func @f32_1
// CHECK: %[[TOTAL:.*]] = arith.constant -2 : i32
// CHECK: "pld.tile_load"(%{{.*}}, %c0, %c0, %c1, %c1) {{.*}} -> tensor<1x8xf32, #pld.tile_with<{valid_shape = array<i64: 1, -1>}>>
// CHECK: "pld.tile_remote_load"(%{{.*}}, %{{.*}}, %c0, %c0, %c1, %c1) {{.*}} -> tensor<1x8xf32, #pld.tile_with<{valid_shape = array<i64: 1, -1>}>>
// CHECK: "pld.tile_set_validshape"(%{{.*}}, %c1, %c1)
// CHECK-NEXT: "pld.tile_store"
// CHECK: "pld.system_notify"(%arg1, %{{.*}}, %{{.*}}, %c0, %[[TOTAL]])
func.func @f32_1(%data: tensor<1x1xf32, #pld.dist>, %sig: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">} : (tensor<1x1xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<1x1xf32, #pld.dist>
  return
}

// -----

// CHECK-LABEL: func.func @f32_3
// CHECK: %[[TOTAL:.*]] = arith.constant -2 : i32
// CHECK: "pld.tile_load"(%{{.*}}, %c0, %c0, %c1, %c3) {{.*}} -> tensor<1x8xf32, #pld.tile_with<{valid_shape = array<i64: 1, -1>}>>
// CHECK: "pld.tile_remote_load"(%{{.*}}, %{{.*}}, %c0, %c0, %c1, %c3) {{.*}} -> tensor<1x8xf32, #pld.tile_with<{valid_shape = array<i64: 1, -1>}>>
// CHECK: "pld.tile_set_validshape"(%{{.*}}, %c1, %c3)
// CHECK-NEXT: "pld.tile_store"
// CHECK: "pld.system_notify"(%arg1, %{{.*}}, %{{.*}}, %c0, %[[TOTAL]])
func.func @f32_3(%data: tensor<1x3xf32, #pld.dist>, %sig: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">} : (tensor<1x3xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<1x3xf32, #pld.dist>
  return
}

// -----

// CHECK-LABEL: func.func @f32_17
// CHECK: %[[TOTAL:.*]] = arith.constant -2 : i32
// CHECK: "pld.tile_load"(%{{.*}}, %c0, %c0, %c1, %c17) {{.*}} -> tensor<1x24xf32, #pld.tile_with<{valid_shape = array<i64: 1, -1>}>>
// CHECK: "pld.tile_remote_load"(%{{.*}}, %{{.*}}, %c0, %c0, %c1, %c17) {{.*}} -> tensor<1x24xf32, #pld.tile_with<{valid_shape = array<i64: 1, -1>}>>
// CHECK: "pld.tile_set_validshape"(%{{.*}}, %c1, %c17)
// CHECK-NEXT: "pld.tile_store"
// CHECK: "pld.system_notify"(%arg1, %{{.*}}, %{{.*}}, %c0, %[[TOTAL]])
func.func @f32_17(%data: tensor<1x17xf32, #pld.dist>, %sig: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">} : (tensor<1x17xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<1x17xf32, #pld.dist>
  return
}

// -----

// CHECK-LABEL: func.func @f32_4096
// CHECK: %[[TOTAL:.*]] = arith.constant -2 : i32
// CHECK: "pld.tile_load"(%{{.*}}, %c0, %c0, %c1, %c4096) {{.*}} -> tensor<1x4096xf32, #pld.tile_with<{valid_shape = array<i64: 1, -1>}>>
// CHECK: "pld.tile_remote_load"(%{{.*}}, %{{.*}}, %c0, %c0, %c1, %c4096) {{.*}} -> tensor<1x4096xf32, #pld.tile_with<{valid_shape = array<i64: 1, -1>}>>
// CHECK: "pld.tile_set_validshape"(%{{.*}}, %c1, %c4096)
// CHECK-NEXT: "pld.tile_store"
// CHECK: "pld.system_notify"(%arg1, %{{.*}}, %{{.*}}, %c0, %[[TOTAL]])
func.func @f32_4096(%data: tensor<1x4096xf32, #pld.dist>, %sig: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">} : (tensor<1x4096xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<1x4096xf32, #pld.dist>
  return
}

// -----

// CHECK-LABEL: func.func @f32_4097
// CHECK: %[[TOTAL:.*]] = arith.constant -3 : i32
// CHECK: scf.for %[[COL:.*]] = %c0 to %c4097 step %c4096 {
// CHECK: "pld.tile_load"{{.*}} -> tensor<1x4096xf32, #pld.tile_with<{valid_shape = array<i64: 1, -1>}>>
// CHECK: "pld.system_notify"(%arg1, %{{.*}}, %{{.*}}, %c0, %[[TOTAL]])
func.func @f32_4097(%data: tensor<1x4097xf32, #pld.dist>, %sig: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">} : (tensor<1x4097xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<1x4097xf32, #pld.dist>
  return
}

// -----

// CHECK-LABEL: func.func @f32_65537
// CHECK: %[[TOTAL:.*]] = arith.constant -18 : i32
// CHECK: scf.for %[[COL:.*]] = %c0 to %c65537 step %c4096 {
// CHECK: "pld.tile_load"{{.*}} -> tensor<1x4096xf32, #pld.tile_with<{valid_shape = array<i64: 1, -1>}>>
// CHECK: "pld.system_notify"(%arg1, %{{.*}}, %{{.*}}, %c0, %[[TOTAL]])
func.func @f32_65537(%data: tensor<1x65537xf32, #pld.dist>, %sig: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">} : (tensor<1x65537xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<1x65537xf32, #pld.dist>
  return
}

// -----

// CHECK-LABEL: func.func @f16_17
// CHECK: %[[TOTAL:.*]] = arith.constant -2 : i32
// CHECK: "pld.tile_load"(%{{.*}}, %c0, %c0, %c1, %c17) {{.*}} -> tensor<1x32xf16, #pld.tile_with<{valid_shape = array<i64: 1, -1>}>>
// CHECK: "pld.tile_remote_load_with_physical_tail_padding"(%{{.*}}, %{{.*}}, %c0, %c0, %c1, %c32) {{.*}} -> tensor<1x32xf16, #pld.tile_with<{valid_shape = array<i64: 1, -1>}>>
// CHECK-NEXT: "pld.tile_set_validshape"(%{{.*}}, %c1, %c17)
// CHECK: "pld.tile_set_validshape"(%{{.*}}, %c1, %c17)
// CHECK-NEXT: "pld.tile_store"
// CHECK: "pld.system_notify"(%arg1, %{{.*}}, %{{.*}}, %c0, %[[TOTAL]])
func.func @f16_17(%data: tensor<1x17xf16, #pld.dist>, %sig: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">} : (tensor<1x17xf16, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<1x17xf16, #pld.dist>
  return
}

// -----

// CHECK-LABEL: func.func @f16_8193
// CHECK: %[[TOTAL:.*]] = arith.constant -3 : i32
// CHECK: scf.for %[[COL:.*]] = %c0 to %c8193 step %c8192 {
// CHECK: "pld.tile_load"{{.*}} -> tensor<1x8192xf16, #pld.tile_with<{valid_shape = array<i64: 1, -1>}>>
// CHECK: "pld.system_notify"(%arg1, %{{.*}}, %{{.*}}, %c0, %[[TOTAL]])
func.func @f16_8193(%data: tensor<1x8193xf16, #pld.dist>, %sig: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">} : (tensor<1x8193xf16, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<1x8193xf16, #pld.dist>
  return
}

// -----

// A symbolic length takes whole 4096-element chunks; the credit total is
// computed at run time: -(1 + (n + 4095) / 4096), which canonicalize writes
// as -1 - (n + 4095) / 4096.
// CHECK-LABEL: func.func @f32_symbolic
// CHECK: %[[N:.*]] = tensor.dim %arg0, %c0
// CHECK: "pld.tensor_view"(%arg0, %[[N]]) {{.*}} -> tensor<1x?xf32, #pld.dist>
// CHECK: scf.for %{{.*}} = %c0 to %[[N]] step %c4096 {
// CHECK: "pld.tile_load"{{.*}} -> tensor<1x4096xf32, #pld.tile_with<{valid_shape = array<i64: 1, -1>}>>
// CHECK: %[[BIASED:.*]] = arith.addi %[[N]], %c4095 : index
// CHECK-NEXT: %[[CHUNKS:.*]] = arith.divui %[[BIASED]], %c4096 : index
// CHECK-NEXT: %[[NEG:.*]] = arith.subi %c-1, %[[CHUNKS]] : index
// CHECK-NEXT: %[[TOTAL:.*]] = arith.index_cast %[[NEG]] : index to i32
// CHECK: "pld.system_notify"(%arg1, %{{.*}}, %{{.*}}, %c0, %[[TOTAL]])
func.func @f32_symbolic(%data: tensor<?xf32, #pld.dist>, %sig: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">} : (tensor<?xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<?xf32, #pld.dist>
  return
}
