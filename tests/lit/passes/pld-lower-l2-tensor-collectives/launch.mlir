// Launch width on the CHIP rail (spec 7.2, 8.1): core_num = L folds to
// B = CalAllToAllVBlocks(P, L), P the signal's static NR. B > 1 puts
// core_num = B and sync_start on the call; B = 1 leaves it bare. Each
// function is one (P, L) -> B row of the spec's worked table, with the
// signal stride S = B (the smallest accepted).
//
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-lower-l2-tensor-collectives)' | FileCheck %s


// CHECK-LABEL: func.func @p8_l1(
// CHECK: call @__builtin_all_to_all_v__fp32(%{{.*}}) : (
func.func @p8_l1(%in: tensor<16x16xf32>, %out: tensor<16x16xf32, #pld.dist>, %sig: tensor<8x1xi32, #pld.dist>,
    %sc: tensor<8xi32>, %rc: tensor<8x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"chip">} {
  %l = arith.constant 1 : index
  %r = "pld.tensor_all_to_all_v"(%in, %out, %sig, %sc, %rc, %l) : (tensor<16x16xf32>, tensor<16x16xf32, #pld.dist>, tensor<8x1xi32, #pld.dist>, tensor<8xi32>, tensor<8x1xi32, #pld.dist>, index) -> tensor<16x16xf32, #pld.dist>
  return
}

// CHECK-LABEL: func.func @p8_l2(
// CHECK: call @__builtin_all_to_all_v__fp32(%{{.*}}) {core_num = 2 : i64, sync_start = true} :
func.func @p8_l2(%in: tensor<16x16xf32>, %out: tensor<16x16xf32, #pld.dist>, %sig: tensor<8x2xi32, #pld.dist>,
    %sc: tensor<8xi32>, %rc: tensor<8x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"chip">} {
  %l = arith.constant 2 : index
  %r = "pld.tensor_all_to_all_v"(%in, %out, %sig, %sc, %rc, %l) : (tensor<16x16xf32>, tensor<16x16xf32, #pld.dist>, tensor<8x2xi32, #pld.dist>, tensor<8xi32>, tensor<8x1xi32, #pld.dist>, index) -> tensor<16x16xf32, #pld.dist>
  return
}

// CHECK-LABEL: func.func @p8_l7(
// CHECK: call @__builtin_all_to_all_v__fp32(%{{.*}}) {core_num = 7 : i64, sync_start = true} :
func.func @p8_l7(%in: tensor<16x16xf32>, %out: tensor<16x16xf32, #pld.dist>, %sig: tensor<8x7xi32, #pld.dist>,
    %sc: tensor<8xi32>, %rc: tensor<8x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"chip">} {
  %l = arith.constant 7 : index
  %r = "pld.tensor_all_to_all_v"(%in, %out, %sig, %sc, %rc, %l) : (tensor<16x16xf32>, tensor<16x16xf32, #pld.dist>, tensor<8x7xi32, #pld.dist>, tensor<8xi32>, tensor<8x1xi32, #pld.dist>, index) -> tensor<16x16xf32, #pld.dist>
  return
}

// CHECK-LABEL: func.func @p8_l8(
// CHECK: call @__builtin_all_to_all_v__fp32(%{{.*}}) {core_num = 8 : i64, sync_start = true} :
func.func @p8_l8(%in: tensor<16x16xf32>, %out: tensor<16x16xf32, #pld.dist>, %sig: tensor<8x8xi32, #pld.dist>,
    %sc: tensor<8xi32>, %rc: tensor<8x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"chip">} {
  %l = arith.constant 8 : index
  %r = "pld.tensor_all_to_all_v"(%in, %out, %sig, %sc, %rc, %l) : (tensor<16x16xf32>, tensor<16x16xf32, #pld.dist>, tensor<8x8xi32, #pld.dist>, tensor<8xi32>, tensor<8x1xi32, #pld.dist>, index) -> tensor<16x16xf32, #pld.dist>
  return
}

// CHECK-LABEL: func.func @p8_l10(
// CHECK: call @__builtin_all_to_all_v__fp32(%{{.*}}) {core_num = 8 : i64, sync_start = true} :
func.func @p8_l10(%in: tensor<16x16xf32>, %out: tensor<16x16xf32, #pld.dist>, %sig: tensor<8x8xi32, #pld.dist>,
    %sc: tensor<8xi32>, %rc: tensor<8x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"chip">} {
  %l = arith.constant 10 : index
  %r = "pld.tensor_all_to_all_v"(%in, %out, %sig, %sc, %rc, %l) : (tensor<16x16xf32>, tensor<16x16xf32, #pld.dist>, tensor<8x8xi32, #pld.dist>, tensor<8xi32>, tensor<8x1xi32, #pld.dist>, index) -> tensor<16x16xf32, #pld.dist>
  return
}

// CHECK-LABEL: func.func @p8_l15(
// CHECK: call @__builtin_all_to_all_v__fp32(%{{.*}}) {core_num = 8 : i64, sync_start = true} :
func.func @p8_l15(%in: tensor<16x16xf32>, %out: tensor<16x16xf32, #pld.dist>, %sig: tensor<8x8xi32, #pld.dist>,
    %sc: tensor<8xi32>, %rc: tensor<8x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"chip">} {
  %l = arith.constant 15 : index
  %r = "pld.tensor_all_to_all_v"(%in, %out, %sig, %sc, %rc, %l) : (tensor<16x16xf32>, tensor<16x16xf32, #pld.dist>, tensor<8x8xi32, #pld.dist>, tensor<8xi32>, tensor<8x1xi32, #pld.dist>, index) -> tensor<16x16xf32, #pld.dist>
  return
}

// CHECK-LABEL: func.func @p8_l16(
// CHECK: call @__builtin_all_to_all_v__fp32(%{{.*}}) {core_num = 16 : i64, sync_start = true} :
func.func @p8_l16(%in: tensor<16x16xf32>, %out: tensor<16x16xf32, #pld.dist>, %sig: tensor<8x16xi32, #pld.dist>,
    %sc: tensor<8xi32>, %rc: tensor<8x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"chip">} {
  %l = arith.constant 16 : index
  %r = "pld.tensor_all_to_all_v"(%in, %out, %sig, %sc, %rc, %l) : (tensor<16x16xf32>, tensor<16x16xf32, #pld.dist>, tensor<8x16xi32, #pld.dist>, tensor<8xi32>, tensor<8x1xi32, #pld.dist>, index) -> tensor<16x16xf32, #pld.dist>
  return
}

// CHECK-LABEL: func.func @p16_l7(
// CHECK: call @__builtin_all_to_all_v__fp32(%{{.*}}) {core_num = 7 : i64, sync_start = true} :
func.func @p16_l7(%in: tensor<32x16xf32>, %out: tensor<32x16xf32, #pld.dist>, %sig: tensor<16x7xi32, #pld.dist>,
    %sc: tensor<16xi32>, %rc: tensor<16x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"chip">} {
  %l = arith.constant 7 : index
  %r = "pld.tensor_all_to_all_v"(%in, %out, %sig, %sc, %rc, %l) : (tensor<32x16xf32>, tensor<32x16xf32, #pld.dist>, tensor<16x7xi32, #pld.dist>, tensor<16xi32>, tensor<16x1xi32, #pld.dist>, index) -> tensor<32x16xf32, #pld.dist>
  return
}

// CHECK-LABEL: func.func @p16_l15(
// CHECK: call @__builtin_all_to_all_v__fp32(%{{.*}}) {core_num = 15 : i64, sync_start = true} :
func.func @p16_l15(%in: tensor<32x16xf32>, %out: tensor<32x16xf32, #pld.dist>, %sig: tensor<16x15xi32, #pld.dist>,
    %sc: tensor<16xi32>, %rc: tensor<16x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"chip">} {
  %l = arith.constant 15 : index
  %r = "pld.tensor_all_to_all_v"(%in, %out, %sig, %sc, %rc, %l) : (tensor<32x16xf32>, tensor<32x16xf32, #pld.dist>, tensor<16x15xi32, #pld.dist>, tensor<16xi32>, tensor<16x1xi32, #pld.dist>, index) -> tensor<32x16xf32, #pld.dist>
  return
}

// CHECK-LABEL: func.func @p4_l2(
// CHECK: call @__builtin_all_to_all_v__fp32(%{{.*}}) {core_num = 2 : i64, sync_start = true} :
func.func @p4_l2(%in: tensor<8x16xf32>, %out: tensor<8x16xf32, #pld.dist>, %sig: tensor<4x2xi32, #pld.dist>,
    %sc: tensor<4xi32>, %rc: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"chip">} {
  %l = arith.constant 2 : index
  %r = "pld.tensor_all_to_all_v"(%in, %out, %sig, %sc, %rc, %l) : (tensor<8x16xf32>, tensor<8x16xf32, #pld.dist>, tensor<4x2xi32, #pld.dist>, tensor<4xi32>, tensor<4x1xi32, #pld.dist>, index) -> tensor<8x16xf32, #pld.dist>
  return
}

// CHECK-LABEL: func.func @p4_l10(
// CHECK: call @__builtin_all_to_all_v__fp32(%{{.*}}) {core_num = 8 : i64, sync_start = true} :
func.func @p4_l10(%in: tensor<8x16xf32>, %out: tensor<8x16xf32, #pld.dist>, %sig: tensor<4x8xi32, #pld.dist>,
    %sc: tensor<4xi32>, %rc: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"chip">} {
  %l = arith.constant 10 : index
  %r = "pld.tensor_all_to_all_v"(%in, %out, %sig, %sc, %rc, %l) : (tensor<8x16xf32>, tensor<8x16xf32, #pld.dist>, tensor<4x8xi32, #pld.dist>, tensor<4xi32>, tensor<4x1xi32, #pld.dist>, index) -> tensor<8x16xf32, #pld.dist>
  return
}

// CHECK-LABEL: func.func @p4_l16(
// CHECK: call @__builtin_all_to_all_v__fp32(%{{.*}}) {core_num = 16 : i64, sync_start = true} :
func.func @p4_l16(%in: tensor<8x16xf32>, %out: tensor<8x16xf32, #pld.dist>, %sig: tensor<4x16xi32, #pld.dist>,
    %sc: tensor<4xi32>, %rc: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"chip">} {
  %l = arith.constant 16 : index
  %r = "pld.tensor_all_to_all_v"(%in, %out, %sig, %sc, %rc, %l) : (tensor<8x16xf32>, tensor<8x16xf32, #pld.dist>, tensor<4x16xi32, #pld.dist>, tensor<4xi32>, tensor<4x1xi32, #pld.dist>, index) -> tensor<8x16xf32, #pld.dist>
  return
}

// CHECK-LABEL: func.func @p2_l5(
// CHECK: call @__builtin_all_to_all_v__fp32(%{{.*}}) {core_num = 4 : i64, sync_start = true} :
func.func @p2_l5(%in: tensor<4x16xf32>, %out: tensor<4x16xf32, #pld.dist>, %sig: tensor<2x4xi32, #pld.dist>,
    %sc: tensor<2xi32>, %rc: tensor<2x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"chip">} {
  %l = arith.constant 5 : index
  %r = "pld.tensor_all_to_all_v"(%in, %out, %sig, %sc, %rc, %l) : (tensor<4x16xf32>, tensor<4x16xf32, #pld.dist>, tensor<2x4xi32, #pld.dist>, tensor<2xi32>, tensor<2x1xi32, #pld.dist>, index) -> tensor<4x16xf32, #pld.dist>
  return
}

// CHECK-LABEL: func.func @p2_l6(
// CHECK: call @__builtin_all_to_all_v__fp32(%{{.*}}) {core_num = 6 : i64, sync_start = true} :
func.func @p2_l6(%in: tensor<4x16xf32>, %out: tensor<4x16xf32, #pld.dist>, %sig: tensor<2x6xi32, #pld.dist>,
    %sc: tensor<2xi32>, %rc: tensor<2x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"chip">} {
  %l = arith.constant 6 : index
  %r = "pld.tensor_all_to_all_v"(%in, %out, %sig, %sc, %rc, %l) : (tensor<4x16xf32>, tensor<4x16xf32, #pld.dist>, tensor<2x6xi32, #pld.dist>, tensor<2xi32>, tensor<2x1xi32, #pld.dist>, index) -> tensor<4x16xf32, #pld.dist>
  return
}

// CHECK-LABEL: func.func @p2_l51(
// CHECK: call @__builtin_all_to_all_v__fp32(%{{.*}}) {core_num = 50 : i64, sync_start = true} :
func.func @p2_l51(%in: tensor<4x16xf32>, %out: tensor<4x16xf32, #pld.dist>, %sig: tensor<2x50xi32, #pld.dist>,
    %sc: tensor<2xi32>, %rc: tensor<2x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"chip">} {
  %l = arith.constant 51 : index
  %r = "pld.tensor_all_to_all_v"(%in, %out, %sig, %sc, %rc, %l) : (tensor<4x16xf32>, tensor<4x16xf32, #pld.dist>, tensor<2x50xi32, #pld.dist>, tensor<2xi32>, tensor<2x1xi32, #pld.dist>, index) -> tensor<4x16xf32, #pld.dist>
  return
}

// A wider signal than needed is fine: P = 8, L = 10 launches 8 blocks on
// a stride of 12.
// CHECK-LABEL: func.func @wide_signal(
// CHECK: {core_num = 8 : i64, sync_start = true}
func.func @wide_signal(%in: tensor<16x16xf32>, %out: tensor<16x16xf32, #pld.dist>, %sig: tensor<8x12xi32, #pld.dist>,
    %sc: tensor<8xi32>, %rc: tensor<8x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"chip">} {
  %l = arith.constant 10 : index
  %r = "pld.tensor_all_to_all_v"(%in, %out, %sig, %sc, %rc, %l) : (tensor<16x16xf32>, tensor<16x16xf32, #pld.dist>, tensor<8x12xi32, #pld.dist>, tensor<8xi32>, tensor<8x1xi32, #pld.dist>, index) -> tensor<16x16xf32, #pld.dist>
  return
}
