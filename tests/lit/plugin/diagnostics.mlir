// pld's diagnostics reach stock mlir-opt's handler: located at the op,
// checked by mlir-opt's own --verify-diagnostics, and worded as pld-opt
// words them.
//
// This file's kernel, lowered: the composite rail refuses its mode where
// the op is written, through both tools, and mlir-opt's
// --verify-diagnostics reads the annotation in it.
// RUN: mlir-opt --load-pass-plugin=%pld_plugin --irdl-file=%both_irdl %s --pass-pipeline='builtin.module(pld-to-pto)' --verify-diagnostics
// RUN: not mlir-opt --load-pass-plugin=%pld_plugin --irdl-file=%both_irdl %s --pass-pipeline='builtin.module(pld-to-pto)' 2>&1 | FileCheck %s
// RUN: not pld-opt %s --pass-pipeline='builtin.module(pld-to-pto)' 2>&1 | FileCheck %s
//
// Every pass's suite of invalid programs, through stock mlir-opt. Where
// pld-opt runs the semantic verifier after parsing and after each pass,
// the pipeline says pld-verify.
// RUN: mlir-opt --load-pass-plugin=%pld_plugin --irdl-file=%both_irdl --split-input-file --verify-diagnostics %S/../passes/pld-verify/invalid.mlir --pass-pipeline='builtin.module(pld-verify)'
// RUN: mlir-opt --load-pass-plugin=%pld_plugin --irdl-file=%both_irdl --split-input-file --verify-diagnostics %S/../passes/pld-verify/byte-count.mlir --pass-pipeline='builtin.module(pld-verify)'
// RUN: mlir-opt --load-pass-plugin=%pld_plugin --irdl-file=%both_irdl --split-input-file --verify-diagnostics %S/../passes/pld-verify/reduce.mlir --pass-pipeline='builtin.module(pld-verify)'
// RUN: mlir-opt --load-pass-plugin=%pld_plugin --irdl-file=%both_irdl --split-input-file --verify-diagnostics %S/../passes/pld-verify/target.mlir --pass-pipeline='builtin.module(pld-verify)'
// RUN: mlir-opt --load-pass-plugin=%pld_plugin --irdl-file=%both_irdl --split-input-file --verify-diagnostics %S/../passes/pld-verify/tile-ub.mlir --pass-pipeline='builtin.module(pld-verify)'
// RUN: mlir-opt --load-pass-plugin=%pld_plugin --irdl-file=%both_irdl --split-input-file --verify-diagnostics %S/../passes/pld-verify/pto-alloc-tile.mlir --pass-pipeline='builtin.module(pld-verify)'
// RUN: mlir-opt --load-pass-plugin=%pld_plugin --irdl-file=%both_irdl --split-input-file --verify-diagnostics %S/../passes/pld-synthesize-allreduce-signals/invalid.mlir --pass-pipeline='builtin.module(pld-verify, pld-synthesize-allreduce-signals, pld-verify)'
// RUN: mlir-opt --load-pass-plugin=%pld_plugin --irdl-file=%both_irdl --split-input-file --verify-diagnostics %S/../passes/pld-materialize-comm-domain-scopes/invalid.mlir --pass-pipeline='builtin.module(pld-verify, pld-materialize-comm-domain-scopes, pld-verify)'
// RUN: mlir-opt --load-pass-plugin=%pld_plugin --irdl-file=%both_irdl --split-input-file --verify-diagnostics %S/../passes/pld-lower-host-tensor-collectives/invalid.mlir --pass-pipeline='builtin.module(pld-verify, pld-materialize-comm-domain-scopes, pld-verify, pld-lower-host-tensor-collectives, pld-verify)'
// RUN: mlir-opt --load-pass-plugin=%pld_plugin --irdl-file=%both_irdl --split-input-file --verify-diagnostics %S/../passes/pld-lower-host-tensor-collectives/no-scope.mlir --pass-pipeline='builtin.module(pld-verify, pld-lower-host-tensor-collectives, pld-verify)'
// RUN: mlir-opt --load-pass-plugin=%pld_plugin --irdl-file=%both_irdl --verify-diagnostics %S/../passes/pld-lower-host-tensor-collectives/nested.mlir --pass-pipeline='builtin.module(pld-verify, pld-materialize-comm-domain-scopes, pld-verify, pld-lower-host-tensor-collectives, pld-verify)'
// RUN: mlir-opt --load-pass-plugin=%pld_plugin --irdl-file=%both_irdl --split-input-file --verify-diagnostics %S/../passes/pld-lower-l2-tensor-collectives/invalid.mlir --pass-pipeline='builtin.module(pld-verify, pld-lower-l2-tensor-collectives, pld-verify)'
// RUN: mlir-opt --load-pass-plugin=%pld_plugin --irdl-file=%both_irdl --split-input-file --verify-diagnostics %S/../passes/pld-lower-l2-tensor-collectives/indexed-invalid.mlir --pass-pipeline='builtin.module(pld-verify, pld-lower-l2-tensor-collectives, pld-verify)'
// RUN: mlir-opt --load-pass-plugin=%pld_plugin --irdl-file=%both_irdl --split-input-file --verify-diagnostics %S/../passes/pld-lower-l2-tensor-collectives/not-contiguous.mlir --pass-pipeline='builtin.module(pld-verify, pld-lower-l2-tensor-collectives, pld-verify)'
// RUN: mlir-opt --load-pass-plugin=%pld_plugin --irdl-file=%both_irdl --split-input-file --verify-diagnostics %S/../passes/pld-lower-composite-ops/invalid.mlir --pass-pipeline='builtin.module(pld-verify, pld-lower-composite-ops, pld-verify)'
// RUN: mlir-opt --load-pass-plugin=%pld_plugin --irdl-file=%both_irdl --split-input-file --verify-diagnostics %S/../passes/pld-materialize-dist-tensor-ctx/invalid.mlir --pass-pipeline='builtin.module(pld-verify, pld-materialize-dist-tensor-ctx, pld-verify)'
// RUN: mlir-opt --load-pass-plugin=%pld_plugin --irdl-file=%both_irdl --split-input-file --verify-diagnostics %S/../passes/convert-pld-to-pto/invalid.mlir --pass-pipeline='builtin.module(pld-verify, convert-pld-to-pto, pld-verify)'
// RUN: mlir-opt --load-pass-plugin=%pld_plugin --irdl-file=%both_irdl --split-input-file --verify-diagnostics %S/../passes/convert-pto-to-sim/invalid.mlir --pass-pipeline='builtin.module(pld-verify, convert-pto-to-sim, pld-verify)'
//
// The check is real: without the pipeline, the kernel's annotation is
// not met.
// RUN: not mlir-opt --load-pass-plugin=%pld_plugin --irdl-file=%both_irdl --verify-diagnostics %s 2>&1 | FileCheck %s --check-prefix=UNMET
// UNMET: error: expected error "'pld.tensor_allreduce' op mode must be "mesh", "ring", "two_shot" or "auto", got "spiral"" was not produced

// CHECK: diagnostics.mlir:[[@LINE+4]]:8: error: 'pld.tensor_allreduce' op mode must be "mesh", "ring", "two_shot" or "auto", got "spiral"
// CHECK-NEXT: %r = "pld.tensor_allreduce"(%data, %sig)
func.func @kernel(%data: tensor<1x64xf32, #pld.dist>, %sig: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  // expected-error@+1 {{'pld.tensor_allreduce' op mode must be "mesh", "ring", "two_shot" or "auto", got "spiral"}}
  %r = "pld.tensor_allreduce"(%data, %sig) {mode = "spiral", op = #pld.reduce_op<"sum">} : (tensor<1x64xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<1x64xf32, #pld.dist>
  return
}
