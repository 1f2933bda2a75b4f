// A module of upstream shard IR that convert-shard-to-pld has not
// converted has no builtin kernel and no PTO form: both emitters refuse it
// at its first shard op with the pipeline to run (--emit=kernels wrote an
// empty kernels.json with exit 0; --emit=pto named the shard.grid).
// RUN: rm -rf %t && not pld-translate --emit=kernels %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t/kernels.json
// RUN: not pld-translate --emit=pto %s 2>&1 | FileCheck %s
// The converted module translates.
// RUN: pld-opt %s --pass-pipeline='builtin.module(shard-to-pto)' | pld-translate --emit=kernels -o %t.ok
// RUN: FileCheck %s --check-prefix=JSON --input-file=%t.ok/kernels.json
// CHECK: shard-input.mlir:[[# @LINE + 6]]:8: error: 'shard.all_reduce' op is upstream shard IR, which names no builtin kernel and has no PTO form; convert it first (the shard-to-pto pipeline, or convert-shard-to-pld then pld-to-pto)
// CHECK-NOT: error:
// JSON: builtin.tensor.allreduce_two_shot__sum__fp32

shard.grid @g(shape = 4)
func.func @reduce(%x: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %s = shard.all_reduce %x on @g grid_axes = [0] : tensor<4x6xf32> -> tensor<4x6xf32>
  return %s : tensor<4x6xf32>
}
// A shard module whose function holds no shard op is refused at its grid.
// RUN: rm -rf %t.none && not pld-translate --emit=kernels %S/Inputs/shard-no-op.mlir -o %t.none 2>&1 | FileCheck %s --check-prefix=NONE
// NONE: shard-no-op.mlir:1:1: error: 'shard.grid' op is upstream shard IR, which names no builtin kernel and has no PTO form; convert it first
