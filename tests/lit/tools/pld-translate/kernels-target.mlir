// The module's pld.target picks the mesh allreduce entry's launch-spec
// setter (collectives spec 11.1, launch_core_count_method): set_block_num
// on a2a3 (the default), set_core_num on a5. A bad target is an error.
//
// RUN: split-file %s %t
// RUN: rm -rf %t/a5.out && pld-translate --emit=kernels %t/a5.mlir -o %t/a5.out
// RUN: FileCheck %s --check-prefix=A5 --input-file=%t/a5.out/next_levels/builtin.tensor.allreduce__sum__fp32/orchestration/builtin_tensor_allreduce__sum__fp32.cpp
// RUN: rm -rf %t/a2a3.out && pld-translate --emit=kernels %t/a2a3.mlir -o %t/a2a3.out
// RUN: FileCheck %s --check-prefix=A2A3 --input-file=%t/a2a3.out/next_levels/builtin.tensor.allreduce__sum__fp32/orchestration/builtin_tensor_allreduce__sum__fp32.cpp
// RUN: not pld-translate --emit=kernels %t/bad.mlir -o %t/bad.out 2>&1 | FileCheck %s --check-prefix=BAD

// A5: params.launch_spec.set_core_num(
// A5-NOT: set_block_num
// A2A3: params.launch_spec.set_block_num(
// A2A3-NOT: set_core_num
// BAD: bad.mlir:1:1: error: pld.target must be "a2a3" or "a5", got "a9"

//--- a5.mlir
module attributes {pld.target = "a5"} {
func.func @main(%d: tensor<4096xf32, #pld.dist>, %s: tensor<2x2xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  "pld.builtin_allreduce"(%d, %s, %c0) {op = #pld.reduce_op<"sum">, dtype = f32, core_num = 2 : i64, arg_directions = [#pld.direction<"inout">, #pld.direction<"inout">]} : (tensor<4096xf32, #pld.dist>, tensor<2x2xi32, #pld.dist>, index) -> ()
  return
}
}

//--- a2a3.mlir
module {
func.func @main(%d: tensor<4096xf32, #pld.dist>, %s: tensor<2x2xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  "pld.builtin_allreduce"(%d, %s, %c0) {op = #pld.reduce_op<"sum">, dtype = f32, core_num = 2 : i64, arg_directions = [#pld.direction<"inout">, #pld.direction<"inout">]} : (tensor<4096xf32, #pld.dist>, tensor<2x2xi32, #pld.dist>, index) -> ()
  return
}
}

//--- bad.mlir
module attributes {pld.target = "a9"} {
}
