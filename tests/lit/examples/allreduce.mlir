// The shipped example stays valid and round-trips, and goes through the
// HOST pipeline as `make demo` shows it.
//
// RUN: pld-opt %S/../../../examples/allreduce.mlir --pass-pipeline='builtin.module(pld-host-pipeline)' --mlir-use-nameloc-as-prefix | FileCheck %s --check-prefix=HOST
// RUN: pld-opt %S/../../../examples/allreduce.mlir -o %t.1.mlir
// RUN: pld-opt %t.1.mlir | diff %t.1.mlir -
// RUN: FileCheck %s --input-file=%t.1.mlir

// CHECK-LABEL: func.func @reduce_kernel
// CHECK: "pld.tensor_allreduce"(%arg0, %arg1) {op = #pld.reduce_op<"sum">}
// CHECK-LABEL: func.func @main
// CHECK: "pld.tensor_alloc_window_buffer"({{.*}}) {name = "data_buf"}
// CHECK: scf.for
// CHECK: "pld.dispatch"
// CHECK: func.call @chip_step
// CHECK: "pld.tensor_allreduce"

// HOST-LABEL: func.func @main
// HOST: "pld.comm_domain"() ({
// HOST: %__allreduce_signal_0 = "pld.tensor_window"
// HOST: scf.for
// HOST-NEXT: "pld.builtin_allreduce"({{.*}}, %__allreduce_signal_0, {{.*}}) {{{.*}}core_num = 1 : i64, dtype = f32, op = #pld.reduce_op<"sum">}
// HOST: slots = ["data_buf", "__allreduce_signal_buf_0"]
