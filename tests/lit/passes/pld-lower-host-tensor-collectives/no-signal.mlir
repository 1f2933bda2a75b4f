// An allreduce without a signal gets one from
// pld-synthesize-allreduce-signals; run alone, the lowering says so (it
// said only "has no signal operand").
//
// RUN: not pld-opt %S/../../../../examples/allreduce.mlir --pass-pipeline='builtin.module(pld-lower-host-tensor-collectives)' 2>&1 | FileCheck %s
// RUN: not pld-opt %S/../../../../examples/allreduce.mlir --pass-pipeline='builtin.module(pld-lower-host-tensor-collectives)' -o /dev/null
// CHECK: allreduce.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'pld.tensor_allreduce' op has no signal operand (an allreduce written without one gets it from pld-synthesize-allreduce-signals, which the pipelines run before this pass)
