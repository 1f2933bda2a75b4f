// --dump-pass-pipeline: the pipeline that will run, as mlir-opt prints it
// (to standard error): the number of top-level passes, one pass a line,
// named pld pipelines expanded into their passes, upstream passes with all
// their options, adjacent passes on the same anchor in one nested pipeline.
//
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-verify,func.func(cse,canonicalize{max-iterations=3}),symbol-dce)' --dump-pass-pipeline 2>&1 >/dev/null | FileCheck %s
// CHECK: Pass Manager with 3 passes:
// CHECK-NEXT: builtin.module(
// CHECK-NEXT:   pld-verify,
// CHECK-NEXT:   func.func(
// CHECK-NEXT:     cse,
// CHECK-NEXT:     canonicalize{{{.*}}max-iterations=3{{.*}}}
// CHECK-NEXT:   ),
// CHECK-NEXT:   symbol-dce
// CHECK-NEXT: )
//
// A function-anchored pld pass written at the top is nested for the user.
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-host-pipeline)' --dump-pass-pipeline 2>&1 >/dev/null | FileCheck %s --check-prefix=NAMED
// NAMED: builtin.module(
// NAMED-NEXT:   pld-verify,
// NAMED-NEXT:   pld-select-allreduce-modes,
// NAMED-NEXT:   pld-synthesize-allreduce-signals,
// NAMED-NEXT:   func.func(
// NAMED-NEXT:     pld-materialize-comm-domain-scopes
// NAMED-NEXT:   ),

// A pld pass's options are printed as written (MLIR printed its name alone,
// so the dump did not say what would run):
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-select-allreduce-modes{ world-size=4 },pld-explore-protocol{ranks=2 schedules=3},cse)' --dump-pass-pipeline 2>&1 >/dev/null | FileCheck %s --check-prefix=OPTIONS
// OPTIONS: Pass Manager with 3 passes:
// OPTIONS-NEXT: builtin.module(
// OPTIONS-NEXT:   pld-select-allreduce-modes{world-size=4},
// OPTIONS-NEXT:   pld-explore-protocol{ranks=2 schedules=3},
// OPTIONS-NEXT:   cse
// OPTIONS-NEXT: )

// The cost-model flags are written out as pld-select-allreduce-modes'
// options, an option written in the pipeline winning over its flag, so
// that the dump pasted back runs the same without the flags (it printed a
// bare pld-select-allreduce-modes, and the model was lost):
// RUN: pld-opt %s --pld-cost-model=%S/../../passes/pld-select-allreduce-modes/Inputs/latency.toml --pld-cost-target=sim --pld-remark-allreduce-mode --pld-world-size=8 --pass-pipeline='builtin.module(pld-select-allreduce-modes{world-size=4},pld-host-pipeline)' --dump-pass-pipeline 2>&1 >/dev/null | FileCheck %s --check-prefix=FLAGS
// FLAGS: Pass Manager with 7 passes:
// FLAGS-NEXT: builtin.module(
// FLAGS-NEXT:   pld-select-allreduce-modes{cost-model="{{.*}}latency.toml" target="sim" remarks=true world-size=4},
// FLAGS-NEXT:   pld-verify,
// FLAGS-NEXT:   pld-select-allreduce-modes{cost-model="{{.*}}latency.toml" target="sim" remarks=true world-size=8},
// The printed options parse and read the model:
// RUN: pld-opt %S/../../passes/pld-select-allreduce-modes/select.mlir --pass-pipeline='builtin.module(pld-select-allreduce-modes{cost-model="%S/../../passes/pld-select-allreduce-modes/Inputs/latency.toml" target="sim" remarks=true world-size=8})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=PASTED
// PASTED: remark: mode = "auto" chose "two_shot" for 1048576 bytes on 4 ranks (cost model 'sim' of {{.*}}.toml): two_shot 40.0 us

// A path holding a quote is written in the other quote, or braced when it
// holds both (--pld-cost-model with a `"` failed: "expected a space after
// the quoted value"); the dump pastes back:
// RUN: rm -rf %t && mkdir -p %t
// RUN: cp %S/../../passes/pld-select-allreduce-modes/Inputs/latency.toml '%t/a"b.toml'
// RUN: cp %S/../../passes/pld-select-allreduce-modes/Inputs/latency.toml %t/"a'b\"c.toml"
// RUN: cp %S/../../passes/pld-select-allreduce-modes/Inputs/latency.toml '%t/a}b.toml'
// RUN: pld-opt %s --pld-cost-model='%t/a"b.toml' --pld-remark-allreduce-mode --pass-pipeline='builtin.module(pld-select-allreduce-modes)' --dump-pass-pipeline 2>%t/one.txt >/dev/null
// RUN: FileCheck %s --check-prefix=QUOTE1 < %t/one.txt
// QUOTE1: pld-select-allreduce-modes{cost-model='{{.*}}a"b.toml' remarks=true}
// RUN: sh %S/Inputs/paste-back.sh %t/one.txt %S/../../passes/pld-select-allreduce-modes/select.mlir 2>&1 | FileCheck %s --check-prefix=PASTED
// RUN: pld-opt %s --pld-cost-model=%t/"a'b\"c.toml" --pld-remark-allreduce-mode --pass-pipeline='builtin.module(pld-select-allreduce-modes)' --dump-pass-pipeline 2>%t/both.txt >/dev/null
// RUN: FileCheck %s --check-prefix=QUOTE2 < %t/both.txt
// QUOTE2: pld-select-allreduce-modes{cost-model={{[{]}}{{.*}}a'b"c.toml} remarks=true}
// RUN: sh %S/Inputs/paste-back.sh %t/both.txt %S/../../passes/pld-select-allreduce-modes/select.mlir 2>&1 | FileCheck %s --check-prefix=PASTED
// A brace without its pair cannot be written in a pipeline at all: the
// dump says so (the flag itself works):
// RUN: pld-opt %s --pld-cost-model='%t/a}b.toml' --pass-pipeline='builtin.module(pld-select-allreduce-modes)' --dump-pass-pipeline 2>&1 >/dev/null | FileCheck %s --check-prefix=BRACE
// BRACE: pld-select-allreduce-modes{cost-model="{{.*}}a}b.toml"}
// One that also holds a `"` is written in the other quote, so that pld-opt
// goes on (it failed: "expected a space after the quoted value"):
// RUN: cp %S/../../passes/pld-select-allreduce-modes/Inputs/latency.toml %t/"d\"{x.toml"
// RUN: pld-opt %s --pld-cost-model=%t/"d\"{x.toml" --pass-pipeline='builtin.module(pld-select-allreduce-modes)' --dump-pass-pipeline 2>&1 >/dev/null | FileCheck %s --check-prefix=BOTH
// BOTH: pld-select-allreduce-modes{cost-model='{{.*}}d"{x.toml'}
// BOTH: pld-opt: warning: the pipeline above does not read back
// BRACE: pld-opt: warning: the pipeline above does not read back: --pld-cost-model '{{.*}}a}b.toml' holds a brace without its pair, which ends a pass's options in a pipeline's text

func.func @f() {
  return
}
