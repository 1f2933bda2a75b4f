// mlir-opt with the plugin and the pld dialect alone (pld.irdl.mlir, not
// pld-and-pto.irdl.mlir): convert-pld-to-pto says which file to load. It
// panicked inside the pass before ("type !pto.ptr<i32> parses", then an
// internal error).
// RUN: not mlir-opt --load-pass-plugin=%pld_plugin --irdl-file=%pld_irdl %s --pass-pipeline='builtin.module(pld-to-pto)' 2>&1 | FileCheck %s
// CHECK-NOT: panicked
// CHECK: pld-irdl-only.mlir:[[@LINE+3]]:1: error: 'func.func' op convert-pld-to-pto needs the pto dialect, which this context has not loaded: with mlir-opt, give --irdl-file=<prefix>/share/pld/pld-and-pto.irdl.mlir (pld.irdl.mlir holds the pld dialect alone)
// CHECK-NOT: panicked
// CHECK-NOT: internal error
func.func @k(%data: tensor<1x64xf32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %t = "pld.tile_load"(%data, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 0>} : (tensor<1x64xf32, #pld.dist>, index, index) -> tensor<1x64xf32, #pld.tile>
  "pld.tile_store"(%t, %data, %c0, %c0) : (tensor<1x64xf32, #pld.tile>, tensor<1x64xf32, #pld.dist>, index, index) -> ()
  return
}
