// The shipped example stays valid and round-trips.
//
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
