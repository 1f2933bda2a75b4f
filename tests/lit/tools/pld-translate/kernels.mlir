// pld-translate --emit=kernels: one package per builtin variant a lowered
// module dispatches (collectives spec 10.3, 11.1). The expected names and
// lines below come from the spec and builtins/templates/README.md.
//
// The shipped example, lowered by the whole chain: one mesh Sum FP32
// allreduce dispatch (in a loop over world_size), so one variant.
// RUN: rm -rf %t && pld-opt %S/../../../../examples/allreduce.mlir --pass-pipeline='builtin.module(pld-to-pto)' | pld-translate --emit=kernels -o %t
// RUN: FileCheck %s --check-prefix=KERNEL --input-file=%t/next_levels/builtin.tensor.allreduce__sum__fp32/kernels/aiv/builtin_tensor_allreduce__sum__fp32_kernel.cpp
// RUN: FileCheck %s --check-prefix=HEADER --input-file=%t/next_levels/builtin.tensor.allreduce__sum__fp32/kernels/aiv/pld_collective.h
// RUN: FileCheck %s --check-prefix=ENTRY --input-file=%t/next_levels/builtin.tensor.allreduce__sum__fp32/orchestration/builtin_tensor_allreduce__sum__fp32.cpp
// RUN: FileCheck %s --check-prefix=CONFIG --input-file=%t/next_levels/builtin.tensor.allreduce__sum__fp32/kernel_config.py
// RUN: FileCheck %s --check-prefix=JSON --input-file=%t/kernels.json
// RUN: ls %t/next_levels | FileCheck %s --check-prefix=ONE
// A package builds without an include path of pld's: the runtime headers
// its kernel and entry include are written next to them (before, only
// pld_collective.h was, and `#include "pld/comm_context.h"` was not
// found). Compiled here against the simulator's CPU stand-in for pto-isa
// alone (its headers need pld/pto_sim.h and pld/pld_sim.h, copied apart).
// RUN: rm -rf %t.isa && mkdir -p %t.isa/pld && cp %runtime_include/pld/pto_sim.h %runtime_include/pld/pld_sim.h %t.isa/pld/
// RUN: cd %t/next_levels/builtin.tensor.allreduce__sum__fp32 && clang++ -fsyntax-only -std=c++17 -isystem %runtime_include/pto-sim -isystem %t.isa kernels/aiv/builtin_tensor_allreduce__sum__fp32_kernel.cpp
// RUN: cd %t/next_levels/builtin.tensor.allreduce__sum__fp32 && clang++ -fsyntax-only -std=c++17 -isystem %t.isa orchestration/builtin_tensor_allreduce__sum__fp32.cpp
// RUN: ls %t/next_levels/builtin.tensor.allreduce__sum__fp32/kernels/aiv/pld %t/next_levels/builtin.tensor.allreduce__sum__fp32/orchestration/pld | FileCheck %s --check-prefix=HEADERS
// HEADERS-COUNT-2: comm_context.h{{[[:space:]]+}}pld_runtime.h{{[[:space:]]+}}pld_sim.h
//
// This file: every other builtin, each variant once however many
// dispatches name it.
// RUN: rm -rf %t.all && pld-translate --emit=kernels %s -o %t.all
// RUN: ls %t.all/next_levels | FileCheck %s --check-prefix=ALL
// RUN: FileCheck %s --check-prefix=FP16 --input-file=%t.all/next_levels/builtin.tensor.allreduce__prod__fp16/kernels/aiv/builtin_tensor_allreduce__prod__fp16_kernel.cpp
// RUN: FileCheck %s --check-prefix=ROOT --input-file=%t.all/next_levels/builtin.tensor.broadcast__root1__fp32/kernels/aiv/builtin_tensor_broadcast__root1__fp32_kernel.cpp
// RUN: FileCheck %s --check-prefix=A2AV --input-file=%t.all/next_levels/builtin.tensor.all_to_all_v__fp32/kernels/aiv/builtin_tensor_all_to_all_v__fp32_kernel.cpp
// RUN: FileCheck %s --check-prefix=A2AV-ENTRY --input-file=%t.all/next_levels/builtin.tensor.all_to_all_v__fp32/orchestration/builtin_tensor_all_to_all_v__fp32.cpp
// RUN: FileCheck %s --check-prefix=A2AV-CONFIG --input-file=%t.all/next_levels/builtin.tensor.all_to_all_v__fp32/kernel_config.py
// RUN: FileCheck %s --check-prefix=ALL-JSON --input-file=%t.all/kernels.json

// KERNEL: // AIV kernel builtin_tensor_allreduce__sum__fp32_kernel:
// KERNEL: // pypto.runtime.builtins.collectives.allreduce; do not edit the rendered file.
// KERNEL: #include "pld_collective.h"
// KERNEL: using Elem = float;
// KERNEL: constexpr ReduceOp kOp = ReduceOp::kSum;
// KERNEL: pto::TADD(acc, acc, recv);
// KERNEL: extern "C" __aicore__ void PLD_KERNEL_ENTRY(__gm__ int64_t *args) {
// KERNEL-NOT: {{[{][{]}}

// The shared header, next to the kernel. The device runtime loads every
// kernel by one name; the simulator's library renames each through
// PLD_KERNEL_ENTRY.
// HEADER: #include <pto/pto-inst.hpp>
// HEADER: #define PLD_KERNEL_ENTRY kernel_entry
// HEADER: constexpr int32_t kMaxRanks = PLD_COMM_MAX_RANK_NUM;

// ENTRY: // Orchestration builtin_tensor_allreduce__sum__fp32 of builtin variant builtin.tensor.allreduce__sum__fp32 (runtime
// ENTRY-NEXT: // tensormap_and_ringbuffer)
// ENTRY: aicpu_orchestration_config(
// ENTRY: aicpu_orchestration_entry(const ChipTaskArgs &args)
// ENTRY: params.launch_spec.set_block_num(
// ENTRY: params.launch_spec.set_require_sync_start(true);
// ENTRY: rt_submit_aiv_task(
// ENTRY: void builtin_tensor_allreduce__sum__fp32(const ChipTaskArgs &args) {
// ENTRY-NOT: {{[{][{]}}

// CONFIG: RUNTIME_CONFIG = {"runtime": "tensormap_and_ringbuffer", "aicpu_thread_num": 0}
// CONFIG: "source": "orchestration/builtin_tensor_allreduce__sum__fp32.cpp",
// CONFIG: "function_name": "aicpu_orchestration_entry",
// CONFIG: "signature": ["INOUT", "INOUT"],
// CONFIG: "func_id": 0,
// CONFIG: "source": "kernels/aiv/builtin_tensor_allreduce__sum__fp32_kernel.cpp",
// CONFIG: "function_name": "kernel_entry",
// CONFIG: "core_type": "aiv",

// JSON:      "variant": "builtin.tensor.allreduce__sum__fp32",
// JSON-NEXT: "builtin": "allreduce",
// JSON-NEXT: "entry": "builtin_tensor_allreduce__sum__fp32",
// JSON-NEXT: "kernel": "builtin_tensor_allreduce__sum__fp32_kernel",
// JSON-NEXT: "kernel_symbol": "builtin_tensor_allreduce__sum__fp32_kernel",
// JSON-NEXT: "call_sites": 1,
// JSON-NEXT: "files": {"config": "next_levels/builtin.tensor.allreduce__sum__fp32/kernel_config.py", "header": "next_levels/builtin.tensor.allreduce__sum__fp32/kernels/aiv/pld_collective.h", "kernel": "next_levels/builtin.tensor.allreduce__sum__fp32/kernels/aiv/builtin_tensor_allreduce__sum__fp32_kernel.cpp", "orchestration": "next_levels/builtin.tensor.allreduce__sum__fp32/orchestration/builtin_tensor_allreduce__sum__fp32.cpp"},
// JSON-NEXT: "template_vars": {"dtype_cpp": "float", "entry": "builtin_tensor_allreduce__sum__fp32", "kernel_name": "builtin_tensor_allreduce__sum__fp32_kernel", "launch_core_count_method": "set_block_num", "op_cpp": "ReduceOp::kSum", "reduce_inst": "TADD", "runtime": "tensormap_and_ringbuffer", "template_package": "pypto.runtime.builtins.collectives.allreduce", "variant": "builtin.tensor.allreduce__sum__fp32"}

// ONE: builtin.tensor.allreduce__sum__fp32
// ONE-NOT: builtin

// `ls` sorts the names.
// ALL:      builtin.tensor.all_to_all__fp32
// ALL-NEXT: builtin.tensor.all_to_all_v__fp32
// ALL-NEXT: builtin.tensor.all_to_all_v__int8
// ALL-NEXT: builtin.tensor.allgather__fp32
// ALL-NEXT: builtin.tensor.allreduce__max__fp32
// ALL-NEXT: builtin.tensor.allreduce__prod__fp16
// ALL-NEXT: builtin.tensor.allreduce_ring__sum__fp32
// ALL-NEXT: builtin.tensor.barrier__fp32
// ALL-NEXT: builtin.tensor.broadcast__root1__fp32
// ALL-NEXT: builtin.tensor.broadcast__root3__fp32
// ALL-NEXT: builtin.tensor.reduce_scatter__sum__fp32
// ALL-NOT:  builtin

// FP16: using Elem = half;
// FP16: constexpr ReduceOp kOp = ReduceOp::kProd;
// FP16: pto::TMUL(acc, acc, recv);
// FP16: void PLD_KERNEL_ENTRY(

// ROOT: constexpr int32_t kRoot = 1;
// ROOT: void PLD_KERNEL_ENTRY(

// The all_to_all_v kernel names no variant (HOST and CHIP renders are
// byte-identical); its simulator symbol (kernels.json) carries the element
// type.
// A2AV: using Elem = float;
// A2AV: extern "C" __aicore__ void PLD_KERNEL_ENTRY(__gm__ int64_t *args) {
// A2AV-NOT: builtin_tensor_all_to_all_v

// A2AV-ENTRY: CalAllToAllVBlocks(
// A2AV-ENTRY: PTO2_ERROR_INVALID_ARGS
// A2AV-ENTRY: "requested_core_num=%lld launched_core_num=%d active_lanes=%lld nranks=%d"
// A2AV-ENTRY: params.launch_spec.set_block_num(static_cast<int16_t>(launched));
// A2AV-ENTRY: params.launch_spec.set_require_sync_start(true);
// A2AV-ENTRY: void builtin_tensor_all_to_all_v__fp32(const ChipTaskArgs &args) {

// A2AV-CONFIG: "signature": ["IN", "INOUT", "INOUT", "IN", "INOUT"],
// A2AV-CONFIG: "source": "kernels/aiv/builtin_tensor_all_to_all_v__fp32_kernel.cpp",
// A2AV-CONFIG: "function_name": "kernel_entry",

// In order of first use; the two max allreduce dispatches share a variant.
// ALL-JSON:     "variant": "builtin.tensor.allreduce__max__fp32",
// ALL-JSON:     "call_sites": 2,
// ALL-JSON:     "variant": "builtin.tensor.allreduce__prod__fp16",
// ALL-JSON:     "variant": "builtin.tensor.allreduce_ring__sum__fp32",
// ALL-JSON:     "variant": "builtin.tensor.barrier__fp32",
// ALL-JSON:     "variant": "builtin.tensor.broadcast__root1__fp32",
// ALL-JSON:     "template_vars": {"dtype_cpp": "float", "entry": "builtin_tensor_broadcast__root1__fp32", "kernel_name": "builtin_tensor_broadcast__root1__fp32_kernel", "root_cpp": "1", "runtime": "tensormap_and_ringbuffer", "template_package": "pypto.runtime.builtins.collectives.broadcast", "variant": "builtin.tensor.broadcast__root1__fp32"}
// ALL-JSON:     "variant": "builtin.tensor.broadcast__root3__fp32",
// ALL-JSON:     "variant": "builtin.tensor.reduce_scatter__sum__fp32",
// ALL-JSON:     "variant": "builtin.tensor.allgather__fp32",
// ALL-JSON:     "variant": "builtin.tensor.all_to_all__fp32",
// ALL-JSON:     "variant": "builtin.tensor.all_to_all_v__fp32",
// ALL-JSON:     "kernel_symbol": "builtin_all_to_all_v_kernel__float",
// ALL-JSON:     "call_sites": 2,
// ALL-JSON:     "variant": "builtin.tensor.all_to_all_v__int8",
// ALL-JSON:     "kernel_symbol": "builtin_all_to_all_v_kernel__int8_t",

!rows = tensor<4x16xf32, #pld.dist>
!half = tensor<64xf16, #pld.dist>
!sig = tensor<4x1xi32, #pld.dist>
!lsig = tensor<4x8xi32, #pld.dist>
func.func @lowered(%rows: !rows, %out: !rows, %row: tensor<1x16xf32, #pld.dist>, %h: !half, %sig: !sig, %sig4: tensor<4x4xi32, #pld.dist>, %sig1: tensor<4xi32, #pld.dist>, %ring: tensor<7x4xi32, #pld.dist>, %counts: tensor<4xi32, #pld.dist>, %recv: tensor<4x1xi32, #pld.dist>, %lsig: !lsig, %i8in: tensor<4x16xi8, #pld.dist>, %i8out: tensor<4x16xi8, #pld.dist>, %l: index) attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  "pld.builtin_allreduce"(%rows, %sig4, %c0) {op = #pld.reduce_op<"max">, dtype = f32, core_num = 4 : i64, arg_directions = [#pld.direction<"inout">, #pld.direction<"inout">]} : (!rows, tensor<4x4xi32, #pld.dist>, index) -> ()
  "pld.builtin_allreduce"(%rows, %sig4, %c1) {op = #pld.reduce_op<"max">, dtype = f32, core_num = 2 : i64, arg_directions = [#pld.direction<"inout">, #pld.direction<"inout">]} : (!rows, tensor<4x4xi32, #pld.dist>, index) -> ()
  "pld.builtin_allreduce"(%h, %sig, %c0) {op = #pld.reduce_op<"prod">, dtype = f16, core_num = 1 : i64, arg_directions = [#pld.direction<"inout">, #pld.direction<"inout">]} : (!half, !sig, index) -> ()
  "pld.builtin_allreduce_ring"(%rows, %ring, %c0) {op = #pld.reduce_op<"sum">, dtype = f32, arg_directions = [#pld.direction<"inout">, #pld.direction<"inout">]} : (!rows, tensor<7x4xi32, #pld.dist>, index) -> ()
  "pld.builtin_barrier"(%sig1, %c0) {arg_directions = [#pld.direction<"inout">]} : (tensor<4xi32, #pld.dist>, index) -> ()
  "pld.builtin_broadcast"(%rows, %sig1, %c0) {root = 1 : i64, dtype = f32, arg_directions = [#pld.direction<"inout">, #pld.direction<"inout">]} : (!rows, tensor<4xi32, #pld.dist>, index) -> ()
  "pld.builtin_broadcast"(%rows, %sig1, %c0) {root = 3 : i64, dtype = f32, arg_directions = [#pld.direction<"inout">, #pld.direction<"inout">]} : (!rows, tensor<4xi32, #pld.dist>, index) -> ()
  "pld.builtin_reduce_scatter"(%rows, %sig1, %c0) {op = #pld.reduce_op<"sum">, dtype = f32, arg_directions = [#pld.direction<"inout">, #pld.direction<"inout">]} : (!rows, tensor<4xi32, #pld.dist>, index) -> ()
  "pld.builtin_allgather"(%row, %out, %sig, %c0) {dtype = f32, arg_directions = [#pld.direction<"in">, #pld.direction<"inout">, #pld.direction<"inout">]} : (tensor<1x16xf32, #pld.dist>, !rows, !sig, index) -> ()
  "pld.builtin_all_to_all"(%rows, %out, %sig, %c0) {dtype = f32, arg_directions = [#pld.direction<"in">, #pld.direction<"inout">, #pld.direction<"inout">]} : (!rows, !rows, !sig, index) -> ()
  "pld.builtin_all_to_all_v"(%rows, %out, %sig, %counts, %recv, %c0) {dtype = f32, arg_directions = [#pld.direction<"in">, #pld.direction<"inout">, #pld.direction<"inout">, #pld.direction<"in">, #pld.direction<"inout">]} : (!rows, !rows, !sig, tensor<4xi32, #pld.dist>, tensor<4x1xi32, #pld.dist>, index) -> ()
  "pld.builtin_all_to_all_v"(%rows, %out, %lsig, %counts, %recv, %c0, %l) {dtype = f32, arg_directions = [#pld.direction<"in">, #pld.direction<"inout">, #pld.direction<"inout">, #pld.direction<"in">, #pld.direction<"inout">]} : (!rows, !rows, !lsig, tensor<4xi32, #pld.dist>, tensor<4x1xi32, #pld.dist>, index, index) -> ()
  "pld.builtin_all_to_all_v"(%i8in, %i8out, %sig, %counts, %recv, %c0) {dtype = i8, arg_directions = [#pld.direction<"in">, #pld.direction<"inout">, #pld.direction<"inout">, #pld.direction<"in">, #pld.direction<"inout">]} : (tensor<4x16xi8, #pld.dist>, tensor<4x16xi8, #pld.dist>, !sig, tensor<4xi32, #pld.dist>, tensor<4x1xi32, #pld.dist>, index) -> ()
  return
}
