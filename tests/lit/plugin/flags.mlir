// A pld pass is no command-line flag of stock mlir-opt, although its --help
// lists it among the pass pipelines: mlir-opt makes its pass flags before it
// loads the plugin (docs/embedding.md, "Differences from pld-opt"). The
// pipeline form runs it.
//
// RUN: mlir-opt --load-pass-plugin=%pld_plugin --help | FileCheck %s --check-prefix=HELP
// RUN: not mlir-opt --load-pass-plugin=%pld_plugin --irdl-file=%both_irdl %S/../../../examples/ring_allreduce.mlir --pld-to-pto 2>&1 | FileCheck %s --check-prefix=FLAG
// RUN: mlir-opt --load-pass-plugin=%pld_plugin --irdl-file=%both_irdl %S/../../../examples/ring_allreduce.mlir --pass-pipeline='builtin.module(pld-to-pto)' | FileCheck %s
// RUN: mlir-opt --load-pass-plugin=%pld_plugin --irdl-file=%both_irdl %S/../../../examples/ring_allreduce.mlir --pass-pipeline='builtin.module(shard-to-pto)' | FileCheck %s

// HELP: --pld-to-pto
// HELP: --shard-to-pto

// FLAG: for the -p option: may not occur within a group!
// FLAG: Unknown command line argument '--pld-to-pto'

// CHECK: func.func @ring_allreduce
// CHECK-SAME: pto.kernel_kind = #pto.kernel_kind<"vector">
