// The shipped example stays valid and round-trips, goes through the HOST
// pipeline, and through the whole chain to PTOAS text as `make demo` does.
//
// RUN: pld-opt %S/../../../examples/allreduce.mlir --pass-pipeline='builtin.module(pld-to-pto)' --mlir-use-nameloc-as-prefix | pld-translate --emit=pto | FileCheck %s --check-prefix=PTOAS
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

// PTOAS: // skipped @chip_step: CHIP orchestrator, not PTO code
// PTOAS-NEXT: // skipped @main: HOST orchestrator, not PTO code
// PTOAS-NEXT: module {
// PTOAS-NEXT: func.func @reduce_kernel(%arg0: !pto.ptr<f32>, %arg1: !pto.ptr<i32>, %arg2: !pto.ptr<i64>, %arg3: !pto.ptr<i64>) attributes {pto.entry, pto.kernel_kind = #pto.kernel_kind<vector>} {
// N = 4096, the ready barrier, then one FP32 chunk: the chunk loop runs to
// N in steps of C = 4096.
// PTOAS: %[[N:.*]] = arith.constant 4096 : index
// PTOAS: pto.comm.tnotify({{.*}}) {notifyOp = #pto<notify_op atomic_add>}
// PTOAS: %[[C:.*]] = arith.constant 4096 : index
// PTOAS-NEXT: scf.for %{{.*}} = %c0 to %[[N]] step %[[C]] {
// PTOAS: pto.tadd ins(
// PTOAS: pto.tstore ins(

// HOST-LABEL: func.func @main
// HOST: "pld.comm_domain"() ({
// HOST: %__allreduce_signal_0 = "pld.tensor_window"
// HOST: scf.for
// HOST-NEXT: "pld.builtin_allreduce"({{.*}}, %__allreduce_signal_0, {{.*}}) {{{.*}}core_num = 1 : i64, dtype = f32, op = #pld.reduce_op<"sum">}
// HOST: slots = ["data_buf", "kernel_signal_buf", "__allreduce_signal_buf_0"]

// The whole program on 4 simulated devices (what `make demo` runs): both
// allreduces checked against the golden, two round trips per device (the
// dispatch of @chip_step and the builtin allreduce).
// RUN: pld-run %S/../../../examples/allreduce.mlir --ranks 4 --check --stats --per-rank | FileCheck %s --check-prefix=SIM
// SIM: @main on 4 devices: 2 collective calls
// SIM: pld.tensor_allreduce in @reduce_kernel (called at {{.*}}examples/allreduce.mlir:24:3): f32 x 4096 (sum, mesh), {{.*}}: ok on 4 ranks
// SIM: pld.tensor_allreduce at {{.*}}examples/allreduce.mlir:47:10: f32 x 4096 (sum, mesh), {{.*}}: ok on 4 ranks
// SIM: device  round trips
// SIM-NEXT: 0            2
// SIM-NEXT: 1            2
// SIM-NEXT: 2            2
// SIM-NEXT: 3            2
