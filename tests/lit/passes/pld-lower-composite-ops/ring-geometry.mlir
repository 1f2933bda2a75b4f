// pld-lower-composite-ops, ring allreduce: the worked geometry of spec
// 7.1.3, all twelve rows, after canonicalize. Each row pins the segment
// boundary arithmetic (SIZE and NR as the constants b(i) uses), the shared
// subchunk loop (bound max_seg, step C), the tile width C and the per-row
// credit total of the epilogue. The boundary values themselves are run-time
// (they depend on the rank); the simulator checks the numbers. The loop is
// checked before canonicalize, which inlines a single-subchunk loop.
//
// RUN: pld-opt %s --split-input-file --pass-pipeline='builtin.module(pld-lower-composite-ops, canonicalize)' | FileCheck %s
// RUN: pld-opt %s --split-input-file --pass-pipeline='builtin.module(pld-lower-composite-ops)' | FileCheck %s --check-prefix=LOOP

// -----

// CHECK-LABEL: func.func @f32_16_nr2
// LOOP-LABEL: func.func @f32_16_nr2
// CHECK: %[[NEG:.*]] = arith.constant -2 : i32
// CHECK: %[[SCALED:.*]] = arith.muli %{{.*}}, %c16 : index
// CHECK-NEXT: arith.divui %[[SCALED]], %c2 : index
// LOOP: scf.for %{{.*}} = %c0{{(_[0-9]+)?}} to %c8{{(_[0-9]+)?}} step %c8{{(_[0-9]+)?}} {
// LOOP: -> tensor<1x8xf32, #pld.tile_with<{valid_shape = array<i64: 1, -1>}>>
// CHECK: "pld.system_notify"(%arg1, %{{.*}}, %{{.*}}, %{{.*}}, %[[NEG]])
func.func @f32_16_nr2(%data: tensor<1x16xf32, #pld.dist>, %sig: tensor<2x2xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">, mode = "ring"} : (tensor<1x16xf32, #pld.dist>, tensor<2x2xi32, #pld.dist>) -> tensor<1x16xf32, #pld.dist>
  return
}

// -----

// CHECK-LABEL: func.func @f32_17_nr2
// LOOP-LABEL: func.func @f32_17_nr2
// CHECK: %[[NEG:.*]] = arith.constant -2 : i32
// CHECK: %[[SCALED:.*]] = arith.muli %{{.*}}, %c17 : index
// CHECK-NEXT: arith.divui %[[SCALED]], %c2 : index
// LOOP: scf.for %{{.*}} = %c0{{(_[0-9]+)?}} to %c9{{(_[0-9]+)?}} step %c16{{(_[0-9]+)?}} {
// LOOP: -> tensor<1x16xf32, #pld.tile_with<{valid_shape = array<i64: 1, -1>}>>
// CHECK: "pld.system_notify"(%arg1, %{{.*}}, %{{.*}}, %{{.*}}, %[[NEG]])
func.func @f32_17_nr2(%data: tensor<1x17xf32, #pld.dist>, %sig: tensor<2x2xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">, mode = "ring"} : (tensor<1x17xf32, #pld.dist>, tensor<2x2xi32, #pld.dist>) -> tensor<1x17xf32, #pld.dist>
  return
}

// -----

// CHECK-LABEL: func.func @f32_17_nr4
// LOOP-LABEL: func.func @f32_17_nr4
// CHECK: %[[NEG:.*]] = arith.constant -2 : i32
// CHECK: %[[SCALED:.*]] = arith.muli %{{.*}}, %c17 : index
// CHECK-NEXT: arith.divui %[[SCALED]], %c4 : index
// LOOP: scf.for %{{.*}} = %c0{{(_[0-9]+)?}} to %c5{{(_[0-9]+)?}} step %c8{{(_[0-9]+)?}} {
// LOOP: -> tensor<1x8xf32, #pld.tile_with<{valid_shape = array<i64: 1, -1>}>>
// CHECK: "pld.system_notify"(%arg1, %{{.*}}, %{{.*}}, %{{.*}}, %[[NEG]])
func.func @f32_17_nr4(%data: tensor<1x17xf32, #pld.dist>, %sig: tensor<6x4xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">, mode = "ring"} : (tensor<1x17xf32, #pld.dist>, tensor<6x4xi32, #pld.dist>) -> tensor<1x17xf32, #pld.dist>
  return
}

// -----

// CHECK-LABEL: func.func @f32_1_nr4
// LOOP-LABEL: func.func @f32_1_nr4
// CHECK: %[[NEG:.*]] = arith.constant -2 : i32
// CHECK: arith.divui %{{.*}}, %c4 : index
// LOOP: scf.for %{{.*}} = %c0{{(_[0-9]+)?}} to %c1{{(_[0-9]+)?}} step %c8{{(_[0-9]+)?}} {
// LOOP: -> tensor<1x8xf32, #pld.tile_with<{valid_shape = array<i64: 1, -1>}>>
// CHECK: "pld.system_notify"(%arg1, %{{.*}}, %{{.*}}, %{{.*}}, %[[NEG]])
func.func @f32_1_nr4(%data: tensor<1x1xf32, #pld.dist>, %sig: tensor<6x4xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">, mode = "ring"} : (tensor<1x1xf32, #pld.dist>, tensor<6x4xi32, #pld.dist>) -> tensor<1x1xf32, #pld.dist>
  return
}

// -----

// CHECK-LABEL: func.func @f32_3_nr4
// LOOP-LABEL: func.func @f32_3_nr4
// CHECK: %[[NEG:.*]] = arith.constant -2 : i32
// CHECK: %[[SCALED:.*]] = arith.muli %{{.*}}, %c3 : index
// CHECK-NEXT: arith.divui %[[SCALED]], %c4 : index
// LOOP: scf.for %{{.*}} = %c0{{(_[0-9]+)?}} to %c1{{(_[0-9]+)?}} step %c8{{(_[0-9]+)?}} {
// LOOP: -> tensor<1x8xf32, #pld.tile_with<{valid_shape = array<i64: 1, -1>}>>
// CHECK: "pld.system_notify"(%arg1, %{{.*}}, %{{.*}}, %{{.*}}, %[[NEG]])
func.func @f32_3_nr4(%data: tensor<1x3xf32, #pld.dist>, %sig: tensor<6x4xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">, mode = "ring"} : (tensor<1x3xf32, #pld.dist>, tensor<6x4xi32, #pld.dist>) -> tensor<1x3xf32, #pld.dist>
  return
}

// -----

// CHECK-LABEL: func.func @f32_8193_nr4
// LOOP-LABEL: func.func @f32_8193_nr4
// CHECK: %[[NEG:.*]] = arith.constant -2 : i32
// CHECK: %[[SCALED:.*]] = arith.muli %{{.*}}, %c8193 : index
// CHECK-NEXT: arith.divui %[[SCALED]], %c4 : index
// LOOP: scf.for %{{.*}} = %c0{{(_[0-9]+)?}} to %c2049{{(_[0-9]+)?}} step %c2056{{(_[0-9]+)?}} {
// LOOP: -> tensor<1x2056xf32, #pld.tile_with<{valid_shape = array<i64: 1, -1>}>>
// CHECK: "pld.system_notify"(%arg1, %{{.*}}, %{{.*}}, %{{.*}}, %[[NEG]])
func.func @f32_8193_nr4(%data: tensor<1x8193xf32, #pld.dist>, %sig: tensor<6x4xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">, mode = "ring"} : (tensor<1x8193xf32, #pld.dist>, tensor<6x4xi32, #pld.dist>) -> tensor<1x8193xf32, #pld.dist>
  return
}

// -----

// CHECK-LABEL: func.func @f32_65537_nr2
// LOOP-LABEL: func.func @f32_65537_nr2
// CHECK: %[[NEG:.*]] = arith.constant -18 : i32
// CHECK: %[[SCALED:.*]] = arith.muli %{{.*}}, %c65537 : index
// CHECK-NEXT: arith.divui %[[SCALED]], %c2 : index
// LOOP: scf.for %{{.*}} = %c0{{(_[0-9]+)?}} to %c32769{{(_[0-9]+)?}} step %c4096{{(_[0-9]+)?}} {
// LOOP: -> tensor<1x4096xf32, #pld.tile_with<{valid_shape = array<i64: 1, -1>}>>
// CHECK: "pld.system_notify"(%arg1, %{{.*}}, %{{.*}}, %{{.*}}, %[[NEG]])
func.func @f32_65537_nr2(%data: tensor<1x65537xf32, #pld.dist>, %sig: tensor<2x2xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">, mode = "ring"} : (tensor<1x65537xf32, #pld.dist>, tensor<2x2xi32, #pld.dist>) -> tensor<1x65537xf32, #pld.dist>
  return
}

// -----

// CHECK-LABEL: func.func @f16_17_nr2
// LOOP-LABEL: func.func @f16_17_nr2
// CHECK: %[[NEG:.*]] = arith.constant -2 : i32
// CHECK: arith.divui %{{.*}}, %c32 : index
// CHECK-NEXT: arith.muli %{{.*}}, %c16 : index
// CHECK-NEXT: arith.minsi %{{.*}}, %c17 : index
// LOOP: scf.for %{{.*}} = %c0{{(_[0-9]+)?}} to %c17{{(_[0-9]+)?}} step %c32{{(_[0-9]+)?}} {
// LOOP: -> tensor<1x32xf16, #pld.tile_with<{valid_shape = array<i64: 1, -1>}>>
// CHECK: "pld.system_notify"(%arg1, %{{.*}}, %{{.*}}, %{{.*}}, %[[NEG]])
func.func @f16_17_nr2(%data: tensor<1x17xf16, #pld.dist>, %sig: tensor<2x2xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">, mode = "ring"} : (tensor<1x17xf16, #pld.dist>, tensor<2x2xi32, #pld.dist>) -> tensor<1x17xf16, #pld.dist>
  return
}

// -----

// CHECK-LABEL: func.func @f16_33_nr2
// LOOP-LABEL: func.func @f16_33_nr2
// CHECK: %[[NEG:.*]] = arith.constant -2 : i32
// CHECK: arith.divui %{{.*}}, %c32 : index
// CHECK-NEXT: arith.muli %{{.*}}, %c16 : index
// CHECK-NEXT: arith.minsi %{{.*}}, %c33 : index
// LOOP: scf.for %{{.*}} = %c0{{(_[0-9]+)?}} to %c32{{(_[0-9]+)?}} step %c32{{(_[0-9]+)?}} {
// LOOP: -> tensor<1x32xf16, #pld.tile_with<{valid_shape = array<i64: 1, -1>}>>
// CHECK: "pld.system_notify"(%arg1, %{{.*}}, %{{.*}}, %{{.*}}, %[[NEG]])
func.func @f16_33_nr2(%data: tensor<1x33xf16, #pld.dist>, %sig: tensor<2x2xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">, mode = "ring"} : (tensor<1x33xf16, #pld.dist>, tensor<2x2xi32, #pld.dist>) -> tensor<1x33xf16, #pld.dist>
  return
}

// -----

// CHECK-LABEL: func.func @f16_17_nr4
// LOOP-LABEL: func.func @f16_17_nr4
// CHECK: %[[NEG:.*]] = arith.constant -2 : i32
// CHECK: arith.divui %{{.*}}, %c64 : index
// CHECK-NEXT: arith.muli %{{.*}}, %c16 : index
// CHECK-NEXT: arith.minsi %{{.*}}, %c17 : index
// LOOP: scf.for %{{.*}} = %c0{{(_[0-9]+)?}} to %c17{{(_[0-9]+)?}} step %c32{{(_[0-9]+)?}} {
// LOOP: -> tensor<1x32xf16, #pld.tile_with<{valid_shape = array<i64: 1, -1>}>>
// CHECK: "pld.system_notify"(%arg1, %{{.*}}, %{{.*}}, %{{.*}}, %[[NEG]])
func.func @f16_17_nr4(%data: tensor<1x17xf16, #pld.dist>, %sig: tensor<6x4xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">, mode = "ring"} : (tensor<1x17xf16, #pld.dist>, tensor<6x4xi32, #pld.dist>) -> tensor<1x17xf16, #pld.dist>
  return
}

// -----

// CHECK-LABEL: func.func @f16_8193_nr2
// LOOP-LABEL: func.func @f16_8193_nr2
// CHECK: %[[NEG:.*]] = arith.constant -2 : i32
// CHECK: arith.divui %{{.*}}, %c32 : index
// CHECK-NEXT: arith.muli %{{.*}}, %c16 : index
// CHECK-NEXT: arith.minsi %{{.*}}, %c8193 : index
// LOOP: scf.for %{{.*}} = %c0{{(_[0-9]+)?}} to %c4112{{(_[0-9]+)?}} step %c4112{{(_[0-9]+)?}} {
// LOOP: -> tensor<1x4112xf16, #pld.tile_with<{valid_shape = array<i64: 1, -1>}>>
// CHECK: "pld.system_notify"(%arg1, %{{.*}}, %{{.*}}, %{{.*}}, %[[NEG]])
func.func @f16_8193_nr2(%data: tensor<1x8193xf16, #pld.dist>, %sig: tensor<2x2xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">, mode = "ring"} : (tensor<1x8193xf16, #pld.dist>, tensor<2x2xi32, #pld.dist>) -> tensor<1x8193xf16, #pld.dist>
  return
}

// -----

// CHECK-LABEL: func.func @f16_65537_nr4
// LOOP-LABEL: func.func @f16_65537_nr4
// CHECK: %[[NEG:.*]] = arith.constant -6 : i32
// CHECK: arith.divui %{{.*}}, %c64 : index
// CHECK-NEXT: arith.muli %{{.*}}, %c16 : index
// CHECK-NEXT: arith.minsi %{{.*}}, %c65537 : index
// LOOP: scf.for %{{.*}} = %c0{{(_[0-9]+)?}} to %c16400{{(_[0-9]+)?}} step %c8192{{(_[0-9]+)?}} {
// LOOP: -> tensor<1x8192xf16, #pld.tile_with<{valid_shape = array<i64: 1, -1>}>>
// CHECK: "pld.system_notify"(%arg1, %{{.*}}, %{{.*}}, %{{.*}}, %[[NEG]])
func.func @f16_65537_nr4(%data: tensor<1x65537xf16, #pld.dist>, %sig: tensor<6x4xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">, mode = "ring"} : (tensor<1x65537xf16, #pld.dist>, tensor<6x4xi32, #pld.dist>) -> tensor<1x65537xf16, #pld.dist>
  return
}
