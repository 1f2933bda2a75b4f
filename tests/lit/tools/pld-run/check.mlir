// pld-run runs the shipped ring allreduce on 4 ranks and checks it. Its
// converted PTO runs too (the kernel keeps its tensor types in
// pld.signature), but names no collective to check.
//
// RUN: pld-run %S/../../../../examples/ring_allreduce.mlir --ranks 4 --check --stats --per-rank | FileCheck %s
// Without --per-rank, one row over all ranks: 4 x 54 notifies, 4 x 36 waits.
// RUN: pld-run %S/../../../../examples/ring_allreduce.mlir --ranks 4 --stats | FileCheck %s --check-prefix=ALL
// ALL: rank  notifies  waits
// ALL-NEXT: all       216    144
// RUN: pld-opt %S/../../../../examples/ring_allreduce.mlir --pass-pipeline='builtin.module(pld-to-pto)' -o %t.pto.mlir
// RUN: pld-run %t.pto.mlir --ranks 4 --stats | FileCheck %s --check-prefix=PTO
// RUN: not pld-run %t.pto.mlir --ranks 4 --check 2>&1 | FileCheck %s --check-prefix=PTOCHECK
// Inputs from .npy files, outputs to .npy files:
// RUN: rm -rf %t.out && pld-run %s --ranks 2 --output-dir %t.out | FileCheck %s --check-prefix=SUM
// RUN: pld-run %s --ranks 2 --input %d=%t.out/d.rank{rank}.npy --check | FileCheck %s --check-prefix=AGAIN
// A collective's signal too small for the rank count is refused up front:
// RUN: not pld-run %s --ranks 4 2>&1 | FileCheck %s --check-prefix=SIGNAL
// SIGNAL: check.mlir:{{[0-9]+}}:8: error: the signal of pld.tensor_allreduce (s) is [2, 1]; on 4 ranks it needs at least [4, 1]
// A timeline in Chrome's trace format, one thread per rank:
// RUN: pld-run %s --ranks 2 --trace %t.json > /dev/null
// RUN: FileCheck %s --input-file=%t.json --check-prefix=TRACE

// CHECK: @ring_allreduce on 4 ranks: finished in
// CHECK-NEXT: rank 0: ok (worst error 0.000e0 at element 0)
// CHECK-NEXT: rank 1: ok
// CHECK-NEXT: rank 2: ok
// CHECK-NEXT: rank 3: ok
// CHECK-NEXT: rank  notifies  waits  remote bytes read  remote bytes written
// From the ring schedule, P = 4: 2(P-1) = 6 steps, each with a ready and a
// read-complete barrier of P-1 waits: 36 waits; the same 36 notifies plus
// an epilogue of P-1 notifies per signal row (6 rows): 54. Each rank reads
// 6 of the segments [1025, 1024, 1024, 1024] from its peers; rank 0 reads
// the 1025-element one once: (1025 + 5 * 1024) * 4 = 24580 bytes.
// CHECK-NEXT: 0        54     36              24580                     0
// The same traffic as from the source: the same kernel ran.
// PTO: @ring_allreduce on 4 ranks: finished in
// PTO: all       216    144
// PTOCHECK: error: --check cannot compare @ring_allreduce: @ring_allreduce has 0 collectives; --check needs exactly one

// A process per rank, a track for the rank's own thread (and one per AIV
// block of a builtin's launch, see program-trace.mlir).
// TRACE: {"traceEvents": [
// TRACE-NEXT: {"name": "process_name", "ph": "M", "pid": 0, "args": {"name": "rank 0"}},
// TRACE-NEXT: {"name": "thread_name", "ph": "M", "pid": 0, "tid": 0, "args": {"name": "rank 0"}},
// Cells and copied bytes are named by parameter and [row, col], ops by the
// pld op's location.
// TRACE: {"name": "notify", "ph": "X", "pid": 0, "tid": 0, "ts": {{[0-9.]+}}, "dur": {{[0-9.]+}}, "args": {"window": 1, "cell": {{[0-9]+}}, "name": "%s (arg1) [0, 0]", "value": 1, "op": "pto.comm_tnotify", "loc": "{{.*}}check.mlir:{{[0-9]+}}:8"}},
// TRACE: {"name": "wait", "ph": "X", "pid": 0, "tid": 0,
// TRACE: {"name": "copy", "ph": "X", "pid": 0, "tid": 0, {{.*}} "args": {"bytes": 132, "from": 1, "from_name": "%d (arg0) [0, 0]", "to": "local", "op": "pto.tload", "loc": "{{.*}}check.mlir:{{[0-9]+}}:8"}},
// TRACE: {"name": "kernel", "ph": "X", "pid": 0, "tid": 0, {{.*}} "args": {"kernel": "@sum"}},
// TRACE: {"name": "process_name", "ph": "M", "pid": 1, "args": {"name": "rank 1"}},
// TRACE-NEXT: {"name": "thread_name", "ph": "M", "pid": 1, "tid": 0, "args": {"name": "rank 1"}},
// TRACE: ]}

// SUM: @sum on 2 ranks
// AGAIN: rank 0: ok
// AGAIN-NEXT: rank 1: ok

func.func @sum(%d: tensor<1x33xf32, #pld.dist>, %s: tensor<2x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%d, %s) {op = #pld.reduce_op<"sum">} : (tensor<1x33xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>) -> tensor<1x33xf32, #pld.dist>
  return
}
