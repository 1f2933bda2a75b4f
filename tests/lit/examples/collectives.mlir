// Every shipped example runs as its header says, on the simulated ranks,
// with every rank's result compared with the golden (a barrier has no
// numbers: its signals must end at zero, which pld-run checks on every run).
//
// RUN: pld-run %S/../../../examples/barrier.mlir --ranks 4 --check --stats | FileCheck %s --check-prefix=BARRIER
// RUN: pld-run %S/../../../examples/broadcast.mlir --ranks 4 --check | FileCheck %s --check-prefix=FOUR
// RUN: pld-run %S/../../../examples/reduce_scatter.mlir --ranks 4 --check | FileCheck %s --check-prefix=FOUR
// RUN: pld-run %S/../../../examples/allgather.mlir --ranks 4 --check | FileCheck %s --check-prefix=FOUR
// RUN: pld-run %S/../../../examples/all_to_all.mlir --ranks 4 --check | FileCheck %s --check-prefix=FOUR
// RUN: pld-run %S/../../../examples/all_to_all_v.mlir --ranks 4 --check | FileCheck %s --check-prefix=FOUR
// RUN: pld-run %S/../../../examples/all_to_all_v.mlir --ranks 4 --check --input send_counts=rank | FileCheck %s --check-prefix=FOUR
// RUN: pld-run %S/../../../examples/ring_allreduce.mlir --ranks 4 --check | FileCheck %s --check-prefix=FOUR
// RUN: pld-run %S/../../../examples/allreduce.mlir --ranks 4 --check | FileCheck %s --check-prefix=PROGRAM
// RUN: pld-run %S/../../../examples/chip_all_to_all_v.mlir --ranks 2 --check | FileCheck %s --check-prefix=CHIP

// BARRIER: @barrier on 4 ranks: finished
// BARRIER-NEXT: --check: a barrier has no numeric result to check
// BARRIER: rank  notifies  waits
// BARRIER-NEXT: 0         6      3

// FOUR: rank 0: ok
// FOUR-NEXT: rank 1: ok
// FOUR-NEXT: rank 2: ok
// FOUR-NEXT: rank 3: ok

// PROGRAM: @main on 4 devices: 2 collective calls
// PROGRAM-NEXT: pld.tensor_allreduce in @reduce_kernel {{.*}}: ok on 4 ranks
// PROGRAM-NEXT: pld.tensor_allreduce at {{.*}}: ok on 4 ranks

// CHIP: @main on 2 devices: 3 collective calls
// CHIP-COUNT-3: ok on 2 ranks
