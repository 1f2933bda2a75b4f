// The printing, IR dump and threading options both tools take, with
// pld-to-pto, through Debian's stock mlir-opt with the pld plugin and
// through pld-opt (compare.sh: same output, same dumps and diagnostics on
// standard error, same exit status). The dumps name the pld passes as
// pld-opt does (`IR Dump After PldVerify (pld-verify)`); function passes'
// dumps come in the order the threads finish, so those runs use one thread.
//
// RUN: sh %S/compare.sh %pld_plugin %both_irdl 'pld-to-pto' '--mlir-print-debuginfo' %S/../../../examples/*.mlir
// RUN: sh %S/compare.sh %pld_plugin %both_irdl 'pld-to-pto' '--mlir-print-op-generic --mlir-disable-threading' %S/../../../examples/*.mlir
// RUN: sh %S/compare.sh %pld_plugin %both_irdl 'pld-to-pto' '--mlir-use-nameloc-as-prefix --mlir-elide-elementsattrs-if-larger=2' %S/../../../examples/*.mlir
// RUN: sh %S/compare.sh %pld_plugin %both_irdl 'pld-to-pto' '--split-input-file' %S/../passes/convert-pld-to-pto/remote.mlir
// RUN: sh %S/compare.sh %pld_plugin %both_irdl 'pld-to-pto' '--dump-pass-pipeline' %S/../../../examples/*.mlir
// RUN: sh %S/compare.sh %pld_plugin %both_irdl 'pld-to-pto' '--mlir-print-ir-after-all --mlir-disable-threading' %S/../../../examples/*.mlir
// RUN: sh %S/compare.sh %pld_plugin %both_irdl 'pld-to-pto' '--mlir-print-ir-before-all --mlir-print-ir-module-scope --mlir-disable-threading' %S/../../../examples/*.mlir
// RUN: sh %S/compare.sh %pld_plugin %both_irdl 'pld-to-pto' '--mlir-print-ir-after-change --mlir-disable-threading' %S/../../../examples/*.mlir
//
// Stock mlir-opt reads the pass names of --mlir-print-ir-before= and
// --mlir-print-ir-after= before it loads any plugin, so a plugin's pass is
// not a value they take (docs/embedding.md); the -all forms dump it.
// RUN: not mlir-opt --load-pass-plugin=%pld_plugin --irdl-file=%both_irdl %S/../../../examples/barrier.mlir --pass-pipeline='builtin.module(pld-to-pto)' --mlir-print-ir-before=pld-verify 2>&1 | FileCheck %s --check-prefix=BEFORE
// BEFORE: for the --mlir-print-ir-before option: Cannot find option named 'pld-verify'!
//
// Two differences, which docs/embedding.md lists: under --split-input-file
// mlir-opt locates the implicit module of every chunk after the first at
// the end of its `// -----` line, pld-opt at <file>:0:0 (it shows only with
// --mlir-print-debuginfo); and pld-opt prints a chunk's diagnostics once
// the chunk has run, mlir-opt as they come, so next to IR dumps (which both
// write to standard error as they come) their order differs.
