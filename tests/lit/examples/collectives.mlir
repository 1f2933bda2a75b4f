// One example per collective in examples/, each run as its header says and
// checked against the golden (the barrier, which has no numeric result, for
// getting through and leaving no credit). The allreduce examples are
// examples/allreduce.mlir (a whole program) and ring_allreduce.mlir.
//
// RUN: pld-run %S/../../../examples/barrier.mlir --ranks 4 --stats --check | FileCheck %s --check-prefix=BARRIER
// RUN: pld-run %S/../../../examples/broadcast.mlir --ranks 4 --check | FileCheck %s --check-prefixes=CHECK,BROADCAST
// RUN: pld-run %S/../../../examples/reduce_scatter.mlir --ranks 4 --check | FileCheck %s --check-prefixes=CHECK,REDUCE_SCATTER
// RUN: pld-run %S/../../../examples/reduce.mlir --ranks 4 --check | FileCheck %s --check-prefixes=CHECK,REDUCE
// RUN: pld-run %S/../../../examples/allgather.mlir --ranks 4 --check | FileCheck %s --check-prefixes=CHECK,ALLGATHER
// RUN: pld-run %S/../../../examples/all_to_all.mlir --ranks 4 --check | FileCheck %s --check-prefixes=CHECK,ALL_TO_ALL
// RUN: pld-run %S/../../../examples/all_to_all_v.mlir --ranks 4 --input send_counts=rank --check | FileCheck %s --check-prefixes=CHECK,ALL_TO_ALL_V
// RUN: pld-run %S/../../../examples/ring_allreduce.mlir --ranks 4 --check | FileCheck %s --check-prefixes=CHECK,RING
// RUN: pld-run %S/../../../examples/allreduce.mlir --ranks 4 --check | FileCheck %s --check-prefix=PROGRAM
//
// Each also lowers to PTOAS text.
// RUN: pld-opt %S/../../../examples/barrier.mlir --pass-pipeline='builtin.module(pld-to-pto)' | pld-translate --emit=pto -o %t.barrier.pto
// RUN: pld-opt %S/../../../examples/broadcast.mlir --pass-pipeline='builtin.module(pld-to-pto)' | pld-translate --emit=pto -o %t.broadcast.pto
// RUN: pld-opt %S/../../../examples/reduce_scatter.mlir --pass-pipeline='builtin.module(pld-to-pto)' | pld-translate --emit=pto -o %t.reduce_scatter.pto
// RUN: pld-opt %S/../../../examples/reduce.mlir --pass-pipeline='builtin.module(pld-to-pto)' | pld-translate --emit=pto -o %t.reduce.pto
// RUN: pld-opt %S/../../../examples/allgather.mlir --pass-pipeline='builtin.module(pld-to-pto)' | pld-translate --emit=pto -o %t.allgather.pto
// RUN: pld-opt %S/../../../examples/all_to_all.mlir --pass-pipeline='builtin.module(pld-to-pto)' | pld-translate --emit=pto -o %t.all_to_all.pto
// RUN: pld-opt %S/../../../examples/all_to_all_v.mlir --pass-pipeline='builtin.module(pld-to-pto)' | pld-translate --emit=pto -o %t.all_to_all_v.pto
// RUN: pld-opt %S/../../../examples/ring_allreduce.mlir --pass-pipeline='builtin.module(pld-to-pto)' | pld-translate --emit=pto -o %t.ring_allreduce.pto
// RUN: FileCheck %s --check-prefix=PTO --input-file=%t.barrier.pto

// BARRIER: @barrier on 4 ranks: finished
// BARRIER: --check: pld.tensor_barrier has no numeric result to compare; every rank got through it and no credit is left
// BARRIER: rank  notifies  waits
// BROADCAST: @broadcast on 4 ranks: finished
// REDUCE_SCATTER: @reduce_scatter on 4 ranks: finished
// REDUCE: @reduce on 4 ranks: finished
// ALLGATHER: @allgather on 4 ranks: finished
// ALL_TO_ALL: @all_to_all on 4 ranks: finished
// ALL_TO_ALL_V: @all_to_all_v on 4 ranks: finished
// RING: @ring_allreduce on 4 ranks: finished
// CHECK: rank 0: ok
// CHECK: rank 1: ok
// CHECK: rank 2: ok
// CHECK: rank 3: ok
// CHECK-NOT: WRONG
// PROGRAM: @main on 4 devices: 2 collective calls, finished
// PROGRAM: ok on 4 ranks
// PROGRAM: ok on 4 ranks
// PROGRAM-NOT: WRONG
// PROGRAM-NOT: error:
// PTO: func.func @barrier
// PTO: pto.comm.tnotify
// PTO: pto.comm.twait
