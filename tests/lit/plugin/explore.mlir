// After pld-to-pto, through Debian's stock mlir-opt with the pld plugin and
// through pld-opt (compare.sh): the simulator's lowering, and the protocol
// explorer with its options, whose findings are diagnostics at the ops
// (they must be the same too; examples/broadcast.mlir has one on 2 ranks).
//
// RUN: sh %S/compare.sh %pld_plugin %both_irdl 'pld-to-pto, convert-pto-to-sim' '' %S/../../../examples/*.mlir
// RUN: sh %S/compare.sh %pld_plugin %both_irdl 'pld-to-pto, pld-explore-protocol{schedules=2 seed=3}' '' %S/../../../examples/*.mlir
// RUN: sh %S/compare.sh %pld_plugin %both_irdl 'pld-to-pto, pld-explore-protocol{ranks=2,4 schedules=1}' '' %S/../../../examples/*.mlir
