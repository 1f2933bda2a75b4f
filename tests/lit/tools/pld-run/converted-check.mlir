// --check of a HOST program converted without its source's locations
// (`pld-opt --pass-pipeline='builtin.module(shard-to-pto)'`, no
// --mlir-print-debuginfo): each device's dispatch of a collective is on a
// line of its own, so the calls are matched member by member in the order
// each device makes them. Before, every dispatch was a call of its own (48
// calls for the 12 of examples/shard.mlir), none checked ("not every member
// of the comm domain ran this call"), and the locations named `<lowered>`.
//
// RUN: pld-opt %S/../../../../examples/shard.mlir --pass-pipeline='builtin.module(shard-to-pto)' -o %t.mlir
// RUN: pld-run %t.mlir --ranks 8 --check 2>&1 | FileCheck %s
// CHECK: @step on 8 devices: 12 collective calls, finished
// CHECK-COUNT-12: at {{.*}}.tmp.mlir:{{[0-9]+}}:{{[0-9]+}}: {{.*}}: ok on 4 ranks
// CHECK-NOT: not every member
// CHECK-NOT: <lowered>
