// A shard function whose name is no bare identifier (`my.step-1` has a
// `-`, `9lives` starts with a digit) is converted: the generated program
// quotes every symbol made from it (it did not parse, "a bug in
// convert-shard-to-pld": shard27 H1).
//
// RUN: rm -rf %t && split-file %s %t
// RUN: pld-opt %t/gather.mlir --pass-pipeline='builtin.module(convert-shard-to-pld)' | FileCheck %s --check-prefix=IR
// IR-DAG: func.func @"my.step-1"() attributes {pld.kind = #pld.func_kind<"host">}
// IR-DAG: func.func @"my.step-1__all_gather0_pack"(
// IR-DAG: func.func @"my.step-1__all_gather0_pack_chip"(
// IR-DAG: func.call @"my.step-1__all_gather0_unpack_chip"(
// Rows [a; b] of the two devices of each row of the 2x2 grid, gathered
// along axis 1: devices 0, 1 both hold [x0; x1], devices 2, 3 [x2; x3].
// RUN: python3 %S/../../tools/pld-run/Inputs/npy.py write %t/x.rank0.npy f4 4,2 3f800000
// RUN: python3 %S/../../tools/pld-run/Inputs/npy.py write %t/x.rank1.npy f4 4,2 40000000
// RUN: python3 %S/../../tools/pld-run/Inputs/npy.py write %t/x.rank2.npy f4 4,2 40400000
// RUN: python3 %S/../../tools/pld-run/Inputs/npy.py write %t/x.rank3.npy f4 4,2 40800000
// RUN: pld-run %t/gather.mlir --ranks 4 --input 'arg0=%t/x.rank{rank}.npy' --check --output-dir %t/out | FileCheck %s --check-prefix=RUN1
// RUN1: @"my.step-1" on 4 devices: 2 collective calls
// RUN1-COUNT-2: ok on 2 ranks
// RUN: python3 %S/../../tools/pld-run/Inputs/npy.py show %t/out/result0.rank1.npy | FileCheck %s --check-prefix=ROW0
// RUN: python3 %S/../../tools/pld-run/Inputs/npy.py show %t/out/result0.rank3.npy | FileCheck %s --check-prefix=ROW1
// ROW0: <f4 (8, 2): 3f800000 x 8, 40000000 x 8
// ROW1: <f4 (8, 2): 40400000 x 8, 40800000 x 8
// RUN: pld-run %t/digit.mlir --ranks 2 --check | FileCheck %s --check-prefix=DIGIT
// DIGIT: pld.tensor_allreduce at {{.*}}digit.mlir:3:8: f32 x 4 (sum, two_shot), {{.*}}: ok on 2 ranks
// An empty name, and one with a NUL byte, are refused at the function (the
// first was an error at a line of the generated program, the second
// crashed pld-run now and then: recheck27b M2, H1):
// RUN: sed 's/@"9lives"/@""/' %t/digit.mlir > %t/empty.mlir
// RUN: not pld-run %t/empty.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: empty.mlir:2:1: error: 'func.func' op has an empty name; convert-shard-to-pld names the functions it makes after it: give it one
// RUN: sed 's/@"9lives"/@"a\\00b"/' %t/digit.mlir > %t/nul.mlir
// RUN: not pld-run %t/nul.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=NUL
// RUN: not pld-opt %t/nul.mlir --pass-pipeline='builtin.module(convert-shard-to-pld)' 2>&1 | FileCheck %s --check-prefix=NUL
// NUL: nul.mlir:2:1: error: {{.*}}has a NUL byte in its name, which no compiled function can carry; rename it

//--- gather.mlir
shard.grid @g(shape = 2x2)
func.func @"my.step-1"(%x: tensor<4x2xf32>) -> tensor<8x2xf32> {
  %r = shard.all_gather %x on @g grid_axes = [1] gather_axis = 0 : tensor<4x2xf32> -> tensor<8x2xf32>
  return %r : tensor<8x2xf32>
}

//--- digit.mlir
shard.grid @g(shape = 2)
func.func @"9lives"(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = shard.all_reduce %x on @g grid_axes = [0] : tensor<4xf32> -> tensor<4xf32>
  return %r : tensor<4xf32>
}
