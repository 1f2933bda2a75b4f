// pld-lower-host-tensor-collectives, mode = "two_shot": one
// pld.builtin_allreduce_two_shot per device with the mesh's core_num lanes;
// a call without a signal gets the mesh's synthesized [world_size, core_num]
// signal. The numbers on simulated devices are checked against a golden
// computed by a Python standard-library script, not by pld.
//
// RUN: split-file %s %t
// RUN: pld-opt %t/host.mlir --pass-pipeline='builtin.module(pld-host-pipeline)' --mlir-use-nameloc-as-prefix | FileCheck %s
// CHECK-LABEL: func.func @main
// CHECK: %__allreduce_signal_0 = "pld.tensor_window"({{.*}}) : (!pld.ptr, index) -> tensor<?x3xi32, #pld.dist>
// CHECK: "pld.builtin_allreduce_two_shot"(%{{.*}}, %__allreduce_signal_0, %{{.*}}) {arg_directions = [#pld.direction<"inout">, #pld.direction<"inout">], core_num = 3 : i64, dtype = f16, op = #pld.reduce_op<"max">}
// CHECK: "pld.builtin_allreduce_two_shot"(%{{.*}}, %{{.*}}, %{{.*}}) {{{.*}}core_num = 1 : i64, dtype = f32, op = #pld.reduce_op<"sum">}
// CHECK-NOT: pld.tensor_allreduce
//
// RUN: mkdir -p %t/in
// RUN: python3 %S/../pld-lower-composite-ops/Inputs/allreduce_golden.py write %t/in f2 1,1001 5 max
// RUN: pld-run %t/host.mlir --ranks 5 --input 'data_buf=%t/in/x.rank{rank}.npy' --output-dir %t/out | FileCheck %s --check-prefix=SIM
// RUN: python3 %S/../pld-lower-composite-ops/Inputs/allreduce_golden.py check %t/out data_buf f2 1,1001 5 max | FileCheck %s --check-prefix=MAX
// SIM: @main on 5 devices: 2 collective calls
// MAX: ok: 5 ranks x 1001 elements
//
// The kernels compile for the devices, and the explorer finds nothing.
// RUN: pld-run %t/host.mlir --ranks 3 --explore 20 | FileCheck %s --check-prefix=CLEAN
// CLEAN: 20 schedules explored {{.*}}: no race, missing fence, mixed notify, shared queue, leak or deadlock
// RUN: pld-opt %t/host.mlir --pass-pipeline='builtin.module(pld-to-pto)' | pld-translate --emit=kernels -o %t/kernels
// RUN: FileCheck %s --check-prefix=KERNEL --input-file=%t/kernels/next_levels/builtin.tensor.allreduce_two_shot__max__fp16/kernels/aiv/builtin_tensor_allreduce_two_shot__max__fp16_kernel.cpp
// KERNEL: HOST two-shot allreduce
// KERNEL: using Elem = half;
// KERNEL: constexpr ReduceOp kOp = ReduceOp::kMax;
// KERNEL: pld::LaneBarrier(lane, 3);
// KERNEL: pld::LaneEpilogue(lane, 3);

//--- host.mlir
!data = tensor<1x1001xf16, #pld.dist>
!sig = tensor<8x1xi32, #pld.dist>
!other = tensor<1x40xf32, #pld.dist>
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %bytes = arith.constant 2002 : i64
  %sbytes = arith.constant 32 : i64
  %obytes = arith.constant 160 : i64
  %buf = "pld.tensor_alloc_window_buffer"(%bytes) {name = "data_buf"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%buf) : (!pld.ptr) -> !data
  %sbuf = "pld.tensor_alloc_window_buffer"(%sbytes) {name = "sig_buf"} : (i64) -> !pld.ptr
  %sig = "pld.tensor_window"(%sbuf) : (!pld.ptr) -> !sig
  %obuf = "pld.tensor_alloc_window_buffer"(%obytes) {name = "other_buf"} : (i64) -> !pld.ptr
  %other = "pld.tensor_window"(%obuf) : (!pld.ptr) -> !other
  %r = "pld.tensor_allreduce"(%data) {op = #pld.reduce_op<"max">, mode = "two_shot", core_num = 3 : i64} : (!data) -> !data
  %o = "pld.tensor_allreduce"(%other, %sig) {op = #pld.reduce_op<"sum">, mode = "two_shot"} : (!other, !sig) -> !other
  return
}
