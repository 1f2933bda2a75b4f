// Pass options through mlir-opt's pipeline syntax: pld's own option parser
// reads the text between the braces, so a bad option gets pld-opt's
// message (mlir-opt prefixes it with `<unknown>:0: error:` and adds the
// element it failed to add, pld-opt with `pld-opt: error: invalid pass
// pipeline:`), and nothing runs.
//
// RUN: mlir-opt --load-pass-plugin=%pld_plugin --irdl-file=%both_irdl %S/../../../examples/barrier.mlir --pass-pipeline='builtin.module(pld-to-pto, pld-explore-protocol{ranks=2,4 schedules=3 seed=9})' -o /dev/null
//
// RUN: not mlir-opt --load-pass-plugin=%pld_plugin --irdl-file=%both_irdl %S/../../../examples/barrier.mlir --pass-pipeline='builtin.module(pld-to-pto, pld-explore-protocol{ranks=99})' 2>&1 | FileCheck %s --check-prefix=RANKS
// RUN: not pld-opt %S/../../../examples/barrier.mlir --pass-pipeline='builtin.module(pld-to-pto, pld-explore-protocol{ranks=99})' 2>&1 | FileCheck %s --check-prefix=RANKS
// RANKS: error: {{.*}}pld-explore-protocol: ranks are 1 to 64, not 99
// RANKS-NOT: module
//
// RUN: not mlir-opt --load-pass-plugin=%pld_plugin --irdl-file=%both_irdl %S/../../../examples/barrier.mlir --pass-pipeline='builtin.module(pld-to-pto, pld-explore-protocol{rank=2})' 2>&1 | FileCheck %s --check-prefix=KEY
// RUN: not pld-opt %S/../../../examples/barrier.mlir --pass-pipeline='builtin.module(pld-to-pto, pld-explore-protocol{rank=2})' 2>&1 | FileCheck %s --check-prefix=KEY
// KEY: error: {{.*}}pld-explore-protocol has no option 'rank' (its options: ranks, schedules, seed, time-limit)
//
// RUN: not mlir-opt --load-pass-plugin=%pld_plugin --irdl-file=%both_irdl %S/../../../examples/barrier.mlir --pass-pipeline='builtin.module(pld-explore-protocol{schedules=0})' 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not pld-opt %S/../../../examples/barrier.mlir --pass-pipeline='builtin.module(pld-explore-protocol{schedules=0})' 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: error: {{.*}}pld-explore-protocol: schedules is at least 1
//
// A pass without options, written with an option, is refused; empty
// braces are no options, as upstream passes take them (`cse{}`), a named
// pipeline's too.
// RUN: not mlir-opt --load-pass-plugin=%pld_plugin --irdl-file=%both_irdl %S/../../../examples/barrier.mlir --pass-pipeline='builtin.module(pld-verify{x=1})' 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: sh %S/compare.sh %pld_plugin %both_irdl 'pld-verify{ }, cse{}' '' %S/../../../examples/barrier.mlir
// RUN: sh %S/compare.sh %pld_plugin %both_irdl 'pld-to-pto{}' '' %S/../../../examples/barrier.mlir
// NONE: error: {{.*}}pass 'pld-verify' takes no options
//
// A named pipeline takes none.
// RUN: not mlir-opt --load-pass-plugin=%pld_plugin --irdl-file=%both_irdl %S/../../../examples/barrier.mlir --pass-pipeline='builtin.module(pld-to-pto{x=1})' 2>&1 | FileCheck %s --check-prefix=PIPELINE
// RUN: not pld-opt %S/../../../examples/barrier.mlir --pass-pipeline='builtin.module(pld-to-pto{x=1})' 2>&1 | FileCheck %s --check-prefix=PIPELINE
// PIPELINE: error: {{.*}}pipeline 'pld-to-pto' takes no options (its passes: pld-verify, pld-select-allreduce-modes, pld-lower-composite-ops,
//
// Anchors: a module pass cannot run inside functions, in a named pipeline
// neither.
// RUN: not mlir-opt --load-pass-plugin=%pld_plugin --irdl-file=%both_irdl %S/../../../examples/barrier.mlir --pass-pipeline='builtin.module(func.func(pld-verify))' 2>&1 | FileCheck %s --check-prefix=ANCHOR
// RUN: not pld-opt %S/../../../examples/barrier.mlir --pass-pipeline='builtin.module(func.func(pld-verify))' 2>&1 | FileCheck %s --check-prefix=ANCHOR
// ANCHOR: error: {{.*}}pass 'pld-verify' runs on builtin.module and cannot be nested under 'func.func'
// A named pipeline is named as it was written, not by its first pass:
// RUN: not mlir-opt --load-pass-plugin=%pld_plugin --irdl-file=%both_irdl %S/../../../examples/barrier.mlir --pass-pipeline='builtin.module(func.func(pld-to-pto))' 2>&1 | FileCheck %s --check-prefix=ANCHORP
// RUN: not pld-opt %S/../../../examples/barrier.mlir --pass-pipeline='builtin.module(func.func(pld-to-pto))' 2>&1 | FileCheck %s --check-prefix=ANCHORP
// ANCHORP: error: {{.*}}pipeline 'pld-to-pto' runs on builtin.module and cannot be nested under 'func.func'
