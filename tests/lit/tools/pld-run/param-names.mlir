// --input names a parameter as argN or by its SSA name as written in the
// source, with or without the %; an unknown name lists the valid ones.
//
// RUN: pld-run %s --ranks 2 --input %data=ones --check | FileCheck %s
// RUN: pld-run %s --ranks 2 --input data=ones --check | FileCheck %s
// RUN: pld-run %s --ranks 2 --input arg0=ones --check | FileCheck %s
// RUN: pld-run %s --ranks 2 --input 0=ones --check | FileCheck %s
// RUN: not pld-run %s --ranks 2 --input nope=ones 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// CHECK: rank 0: ok
// CHECK: rank 1: ok
// UNKNOWN: pld-run: error: @k has no parameter 'nope'; its parameters are %data (arg0), %sig (arg1)

func.func @k(%data: tensor<1x64xf32, #pld.dist>, %sig: tensor<2x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">} : (tensor<1x64xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>) -> tensor<1x64xf32, #pld.dist>
  return
}
