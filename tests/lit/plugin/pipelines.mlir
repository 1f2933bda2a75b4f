// The named pld pipelines, run by Debian's stock mlir-opt with the pld
// plugin: compare.sh fails unless the output, the diagnostics and the exit
// status are pld-opt's for the same pipeline (docs/embedding.md), on every
// shipped example and on the pipelines' own lit inputs.
//
// RUN: sh %S/compare.sh %pld_plugin %both_irdl 'pld-to-pto' '' %S/../../../examples/*.mlir %S/../examples/*.mlir %S/../pipelines/*.mlir
// RUN: sh %S/compare.sh %pld_plugin %both_irdl 'pld-host-pipeline' '' %S/../../../examples/*.mlir %S/../examples/*.mlir
// RUN: sh %S/compare.sh %pld_plugin %both_irdl 'pld-chip-pipeline' '' %S/../../../examples/*.mlir %S/../pipelines/pld-chip-pipeline.mlir
// RUN: sh %S/compare.sh %pld_plugin %both_irdl 'pld-incore-pipeline' '' %S/../../../examples/*.mlir %S/../pipelines/*.mlir
//
// As a part of a longer pipeline, next to upstream passes, and with a
// function pass written under func.func (pld-opt and the plugin nest a
// function pass written under builtin.module alike).
// RUN: sh %S/compare.sh %pld_plugin %both_irdl 'func.func(pld-lower-composite-ops, cse), canonicalize, pld-to-pto' '' %S/../../../examples/*.mlir
// RUN: sh %S/compare.sh %pld_plugin %both_irdl 'pld-synthesize-allreduce-signals, symbol-dce, pld-host-pipeline, pld-chip-pipeline' '' %S/../../../examples/*.mlir
// RUN: sh %S/compare.sh %pld_plugin %both_irdl 'pld-to-pto, canonicalize, cse' '' %S/../../../examples/*.mlir
//
// The harness tells a difference: without the plugin, mlir-opt knows no
// pld pass.
// RUN: not sh %S/compare.sh %t.no-plugin.so %both_irdl 'pld-to-pto' '' %S/../../../examples/barrier.mlir 2>&1 | FileCheck %s --check-prefix=HARNESS
// HARNESS: exit status differs on {{.*}}barrier.mlir with builtin.module(pld-to-pto)
