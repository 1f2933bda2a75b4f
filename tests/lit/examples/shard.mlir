// examples/shard.mlir: a shard program on a 2x4 grid, every collective
// over the four devices of a row (grid_axes = [1]) and an uneven reshard,
// run whole on 8 simulated devices: pld-run checks every pld collective
// against its golden, shard_golden.py every result against the shard
// semantics. It also lowers to PTOAS text through shard-to-pto.
//
// RUN: python3 %S/../../shard/shard_golden.py %S/../../../examples/shard.mlir --ranks 8 --work %t --check | FileCheck %s
// RUN: pld-opt %S/../../../examples/shard.mlir --pass-pipeline='builtin.module(shard-to-pto)' | pld-translate --emit=pto -o %t.pto
// RUN: FileCheck %s --check-prefix=PTO --input-file=%t.pto
// RUN: not pld-run %S/../../../examples/shard.mlir --ranks 4 2>&1 | FileCheck %s --check-prefix=RANKS
// Without --ranks it runs on the grid's 8 devices (it was refused, "run it
// on 8 ranks, not 2": shard27 L2):
// RUN: pld-run %S/../../../examples/shard.mlir --check | FileCheck %s --check-prefix=GRID
// GRID: @step on 8 devices: 12 collective calls
// GRID-NOT: WRONG

// CHECK: @step on 8 devices: 12 collective calls
// CHECK-COUNT-2: pld.tensor_allreduce at {{.*}}shard.mlir:20:10: f32 x 128 (sum, two_shot), {{.*}}: ok on 4 ranks
// CHECK-COUNT-2: pld.tensor_allgather at {{.*}}shard.mlir:21:15: f32 x 512, {{.*}}: ok on 4 ranks
// CHECK-COUNT-2: pld.tensor_reduce_scatter at {{.*}}shard.mlir:22:16: f32 x 128 (sum), {{.*}}: ok on 4 ranks
// CHECK-COUNT-2: pld.tensor_all_to_all at {{.*}}shard.mlir:23:16: f32 x 128, {{.*}}: ok on 4 ranks
// CHECK-COUNT-2: pld.tensor_broadcast at {{.*}}shard.mlir:24:12: f32 x 128 (root 0), {{.*}}: ok on 4 ranks
// CHECK-COUNT-2: pld.tensor_all_to_all_v at {{.*}}shard.mlir:33:12: f32 x 320, {{.*}}: ok on 4 ranks
// CHECK: golden: result0 ok on 8 devices (128 elements each)
// CHECK: golden: result1 ok on 8 devices (512 elements each)
// CHECK: golden: result2 ok on 8 devices (32 elements each)
// CHECK: golden: result3 ok on 8 devices (128 elements each)
// CHECK: golden: result4 ok on 8 devices (128 elements each)
// CHECK: golden: result5 ok on 8 devices (32 elements each)
// CHECK: golden: result6 ok on 8 devices (224 elements each)
// CHECK-NOT: WRONG

// PTO: func.func @step__all_gather0_unpack(
// PTO: pto.tstore

// RANKS: pld-run: error: {{.*}}shard.mlir: the shard program runs on a grid of 8 devices; run it on 8 ranks, not 4
