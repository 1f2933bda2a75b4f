// MLIR runs function passes on its thread pool, one function at a time;
// the pipeline's output must not depend on it. Several kernels, each
// lowered by the function-anchored passes, compared with and without
// threading (and the shipped example too).
//
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-to-pto)' -o %t.threads
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-to-pto)' --mlir-disable-threading -o %t.single
// RUN: diff %t.threads %t.single
// RUN: pld-opt %S/../../../examples/allreduce.mlir --pass-pipeline='builtin.module(pld-to-pto)' --mlir-use-nameloc-as-prefix -o %t.example.threads
// RUN: pld-opt %S/../../../examples/allreduce.mlir --pass-pipeline='builtin.module(pld-to-pto)' --mlir-use-nameloc-as-prefix --mlir-disable-threading -o %t.example.single
// RUN: diff %t.example.threads %t.example.single
// Both ways every kernel is converted:
// RUN: grep -c 'pto.kernel_kind = #pto.kernel_kind<"vector">' %t.threads | FileCheck %s --check-prefix=KERNELS
// KERNELS: 6

func.func @kernel_0(%d: tensor<1x4097xf32, #pld.dist>, %s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%d, %s) {op = #pld.reduce_op<"sum">, mode = "mesh"} : (tensor<1x4097xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<1x4097xf32, #pld.dist>
  %b = "pld.tensor_barrier"(%s) : (tensor<4x1xi32, #pld.dist>) -> tensor<4x1xi32, #pld.dist>
  return
}

func.func @kernel_1(%d: tensor<1x4096xf32, #pld.dist>, %s: tensor<6x4xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%d, %s) {op = #pld.reduce_op<"sum">, mode = "ring"} : (tensor<1x4096xf32, #pld.dist>, tensor<6x4xi32, #pld.dist>) -> tensor<1x4096xf32, #pld.dist>
  return
}

func.func @kernel_2(%d: tensor<1x17xf32, #pld.dist>, %s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%d, %s) {op = #pld.reduce_op<"max">, mode = "mesh"} : (tensor<1x17xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<1x17xf32, #pld.dist>
  %b = "pld.tensor_barrier"(%s) : (tensor<4x1xi32, #pld.dist>) -> tensor<4x1xi32, #pld.dist>
  return
}

func.func @kernel_3(%d: tensor<1x65537xf32, #pld.dist>, %s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%d, %s) {op = #pld.reduce_op<"prod">, mode = "mesh"} : (tensor<1x65537xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<1x65537xf32, #pld.dist>
  %b = "pld.tensor_barrier"(%s) : (tensor<4x1xi32, #pld.dist>) -> tensor<4x1xi32, #pld.dist>
  return
}

func.func @kernel_4(%d: tensor<1x1024xf32, #pld.dist>, %s: tensor<6x4xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%d, %s) {op = #pld.reduce_op<"sum">, mode = "ring"} : (tensor<1x1024xf32, #pld.dist>, tensor<6x4xi32, #pld.dist>) -> tensor<1x1024xf32, #pld.dist>
  return
}

func.func @kernel_5(%d: tensor<1x300xf32, #pld.dist>, %s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%d, %s) {op = #pld.reduce_op<"min">, mode = "mesh"} : (tensor<1x300xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<1x300xf32, #pld.dist>
  %b = "pld.tensor_barrier"(%s) : (tensor<4x1xi32, #pld.dist>) -> tensor<4x1xi32, #pld.dist>
  return
}

