// Every pld pass on its own, run by Debian's stock mlir-opt with the pld
// plugin and by pld-opt (compare.sh: same output, diagnostics and exit
// status), on the shipped examples and on the pass's own lit inputs. Some
// passes refuse some examples: the same way in both.
//
// RUN: sh %S/compare.sh %pld_plugin %both_irdl 'pld-verify' '--split-input-file' %S/../../../examples/*.mlir %S/../passes/pld-verify/pass.mlir %S/../passes/pld-verify/target-module.mlir
// RUN: sh %S/compare.sh %pld_plugin %both_irdl 'pld-synthesize-allreduce-signals' '--split-input-file' %S/../../../examples/*.mlir %S/../passes/pld-synthesize-allreduce-signals/synthesize.mlir
// RUN: sh %S/compare.sh %pld_plugin %both_irdl 'pld-materialize-comm-domain-scopes' '--split-input-file' %S/../../../examples/*.mlir %S/../passes/pld-materialize-comm-domain-scopes/hand-written.mlir %S/../passes/pld-materialize-comm-domain-scopes/host-collectives.mlir %S/../passes/pld-materialize-comm-domain-scopes/materialize.mlir
// RUN: sh %S/compare.sh %pld_plugin %both_irdl 'pld-lower-host-tensor-collectives' '--split-input-file' %S/../../../examples/*.mlir %S/../passes/pld-lower-host-tensor-collectives/lower.mlir
// RUN: sh %S/compare.sh %pld_plugin %both_irdl 'pld-lower-l2-tensor-collectives' '--split-input-file' %S/../../../examples/*.mlir %S/../passes/pld-lower-l2-tensor-collectives/contiguous.mlir %S/../passes/pld-lower-l2-tensor-collectives/indexed.mlir %S/../passes/pld-lower-l2-tensor-collectives/launch.mlir %S/../passes/pld-lower-l2-tensor-collectives/lower.mlir
// RUN: sh %S/compare.sh %pld_plugin %both_irdl 'pld-lower-composite-ops' '--split-input-file' %S/../../../examples/*.mlir %S/../passes/pld-lower-composite-ops/exchange.mlir %S/../passes/pld-lower-composite-ops/mesh-geometry.mlir %S/../passes/pld-lower-composite-ops/mesh.mlir %S/../passes/pld-lower-composite-ops/reduce.mlir %S/../passes/pld-lower-composite-ops/ring-geometry.mlir %S/../passes/pld-lower-composite-ops/ring.mlir %S/../pipelines/threading-diagnostics.mlir
// RUN: sh %S/compare.sh %pld_plugin %both_irdl 'pld-materialize-dist-tensor-ctx' '--split-input-file' %S/../../../examples/*.mlir %S/../passes/pld-materialize-dist-tensor-ctx/ctx.mlir
// RUN: sh %S/compare.sh %pld_plugin %both_irdl 'pld-insert-comm-fence' '--split-input-file' %S/../../../examples/*.mlir %S/../passes/pld-insert-comm-fence/fence.mlir
// RUN: sh %S/compare.sh %pld_plugin %both_irdl 'convert-pld-to-pto' '--split-input-file' %S/../../../examples/*.mlir %S/../passes/convert-pld-to-pto/loop-carried.mlir %S/../passes/convert-pld-to-pto/orchestrator-calls.mlir %S/../passes/convert-pld-to-pto/remote.mlir
// RUN: sh %S/compare.sh %pld_plugin %both_irdl 'convert-pto-to-sim' '--split-input-file' %S/../passes/convert-pto-to-sim/lower.mlir
//
// A function pass written under func.func, as MLIR spells it.
// RUN: sh %S/compare.sh %pld_plugin %both_irdl 'func.func(pld-insert-comm-fence)' '' %S/../../../examples/*.mlir
