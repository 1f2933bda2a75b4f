// A shard.all_reduce gives every device of its group the same bytes, as
// the shard dialect promises: with 1e8, 1 and -1e8 on a grid of 3, devices
// 0 and 1 held 0 and device 2 held 1 (the mesh folded each device's copy in
// its own order), and --check said ok. convert-shard-to-pld now asks for the
// two-shot schedule, whose one fold per element every device copies.
//
// RUN: python3 %S/Inputs/npy.py write %t.x.rank0.npy f4 1 4cbebc20
// RUN: python3 %S/Inputs/npy.py write %t.x.rank1.npy f4 1 3f800000
// RUN: python3 %S/Inputs/npy.py write %t.x.rank2.npy f4 1 ccbebc20
// RUN: rm -rf %t.out && pld-run %s --ranks 3 --check --input 'arg0=%t.x.rank{rank}.npy' --output-dir %t.out | FileCheck %s --check-prefix=RUN3
// RUN3: ok on 3 ranks
// RUN: sh -c 'for d in 0 1 2; do python3 %S/Inputs/npy.py show %t.out/result0.rank$d.npy; done' | FileCheck %s
// CHECK: <f4 (1,): [[V:[0-9a-f]+]] x 1
// CHECK-NEXT: <f4 (1,): [[V]] x 1
// CHECK-NEXT: <f4 (1,): [[V]] x 1

shard.grid @g(shape = 3)
func.func @f(%h: tensor<1xf32>) -> tensor<1xf32> {
  %s = shard.all_reduce %h on @g grid_axes = [0] reduction = sum : tensor<1xf32> -> tensor<1xf32>
  return %s : tensor<1xf32>
}
