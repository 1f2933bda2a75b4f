// The CHIP rail in the pipelines. A CHIP orchestrator stages data with an
// InCore kernel, exchanges it with all_to_all_v and consumes it with a
// second kernel. pld-chip-pipeline lowers the exchange; pld-to-pto runs the
// CHIP rail before the CommContexts, so the synthesized kernel gets exactly
// three CommContext parameters (target, signal, recv_counts), and the whole
// module verifies after PTO conversion.
//
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-chip-pipeline)' | FileCheck %s --check-prefix=CHIP
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-to-pto)' | FileCheck %s
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-to-pto)' | pld-opt | FileCheck %s
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-to-pto)' | pld-translate --emit=pto | FileCheck %s --check-prefix=PTOAS

!stage = tensor<8x64xf32, #pld.dist>
!bar = tensor<2x1xi32, #pld.dist>
!out = tensor<8x64xf32, #pld.dist>
!sig = tensor<2x4xi32, #pld.dist>
!sc = tensor<2xi32>
!rc = tensor<2x1xi32, #pld.dist>

func.func @stage_step(%stage: !stage, %bar: !bar) attributes {pld.kind = #pld.func_kind<"incore">} {
  %b = "pld.tensor_barrier"(%bar) : (!bar) -> !bar
  return
}

func.func @consume_step(%data: !out, %rc: !rc) attributes {pld.kind = #pld.func_kind<"incore">} {
  return
}

// CHIP-LABEL: func.func @chip_pipeline(
// CHIP: call @stage_step(
// CHIP: %[[IN:.*]] = builtin.unrealized_conversion_cast %arg0 : tensor<8x64xf32, #pld.dist> to tensor<8x64xf32>
// P = 2, core_num = 5: B = 4 blocks.
// CHIP-NEXT: %[[D:.*]] = call @__builtin_all_to_all_v__fp32(%[[IN]], %arg2, %arg3, %arg4, %arg5) {core_num = 4 : i64, sync_start = true}
// CHIP-NEXT: call @consume_step(%[[D]], %arg5)
// CHIP-LABEL: func.func @__builtin_all_to_all_v__fp32(
// CHIP-SAME: %arg4: tensor<2x1xi32, #pld.dist>) -> tensor<8x64xf32, #pld.dist>

// CHECK-LABEL: func.func @stage_step(%arg0: !pto.ptr<f32>, %arg1: !pto.ptr<i32>, %arg2: !pto.ptr<i64>, %arg3: !pto.ptr<i64>)
// CHECK-LABEL: func.func @chip_pipeline(%arg0: tensor<8x64xf32, #pld.dist>, %arg1: tensor<2x1xi32, #pld.dist>, %arg2: tensor<8x64xf32, #pld.dist>, %arg3: tensor<2x4xi32, #pld.dist>, %arg4: tensor<2xi32>, %arg5: tensor<2x1xi32, #pld.dist>, %arg6: !pld.ctx, %arg7: !pld.ctx, %arg8: !pld.ctx, %arg9: !pld.ctx, %arg10: !pld.ctx)
// CHECK: call @stage_step(
// The exchange passes the contexts of target (arg2), signal (arg3) and
// recv_counts (arg5): arg8, arg9, arg10.
// CHECK: %[[D:.*]] = call @__builtin_all_to_all_v__fp32(%{{.*}}, %arg2, %arg3, %arg4, %arg5, %arg8, %arg9, %arg10) {core_num = 4 : i64, sync_start = true}
// CHECK: call @consume_step(
// CHECK: return
// The synthesized kernel keeps its tensor signature (its code is the
// rendered template), plus exactly three CommContexts.
// CHECK-LABEL: func.func @__builtin_all_to_all_v__fp32(%arg0: tensor<8x64xf32>, %arg1: tensor<8x64xf32, #pld.dist>, %arg2: tensor<2x4xi32, #pld.dist>, %arg3: tensor<2xi32>, %arg4: tensor<2x1xi32, #pld.dist>, %arg5: !pld.ctx, %arg6: !pld.ctx, %arg7: !pld.ctx) -> tensor<8x64xf32, #pld.dist>
// CHECK-NEXT: return %arg1

// PTOAS: // skipped @__builtin_all_to_all_v__fp32: builtin kernel, rendered from its template
// PTOAS: func.func @stage_step(
func.func @chip_pipeline(%stage: !stage, %bar: !bar, %out: !out, %sig: !sig, %sc: !sc, %rc: !rc)
    attributes {pld.kind = #pld.func_kind<"chip">} {
  func.call @stage_step(%stage, %bar) : (!stage, !bar) -> ()
  %c5 = arith.constant 5 : index
  %data = "pld.tensor_all_to_all_v"(%stage, %out, %sig, %sc, %rc, %c5) : (!stage, !out, !sig, !sc, !rc, index) -> !out
  func.call @consume_step(%data, %rc) : (!out, !rc) -> ()
  return
}

// pld-translate --emit=kernels renders the synthesized kernel into the CHIP
// orchestrator's own sub-build (spec 11.1), listed with the call's
// directions; the text is the HOST rail's all_to_all_v kernel.
// RUN: rm -rf %t && pld-opt %s --pass-pipeline='builtin.module(pld-to-pto)' | pld-translate --emit=kernels -o %t
// RUN: FileCheck %s --check-prefix=SUB --input-file=%t/next_levels/chip_pipeline/kernel_config.py
// RUN: FileCheck %s --check-prefix=AIV --input-file=%t/next_levels/chip_pipeline/kernels/aiv/__builtin_all_to_all_v__fp32.cpp
// RUN: ls %t/next_levels | FileCheck %s --check-prefix=DIRS

// SUB: RUNTIME_CONFIG = {"runtime": "tensormap_and_ringbuffer"
// SUB: "source": "kernels/aiv/__builtin_all_to_all_v__fp32.cpp",
// SUB-NEXT: "function_name": "kernel_entry",
// SUB-NEXT: "core_type": "aiv",
// SUB-NEXT: "signature": ["IN", "INOUT", "INOUT", "IN", "INOUT"],
// AIV: using Elem = float;
// AIV: void PLD_KERNEL_ENTRY(
// AIV-NOT: {{[{][{]}}
// The module has no HOST collective, so no HOST package.
// DIRS: chip_pipeline
// DIRS-NOT: builtin.tensor
