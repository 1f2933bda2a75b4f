// pld-select-allreduce-modes: a bad cost model or option is an error with
// the file and line, and nothing runs; "auto" in a CHIP orchestrator is an
// error at the op; "auto" left for a rail to lower says which pass resolves
// it.
//
// RUN: not pld-opt %s --pass-pipeline='builtin.module(pld-select-allreduce-modes)' --pld-cost-model=%S/Inputs/bad-number.toml 2>&1 | FileCheck %s --check-prefix=NUMBER
// NUMBER: pld-opt: error: {{.*}}bad-number.toml:3: `beta` must be a non-negative number, got `fast`
// A number that is not TOML's, and one beyond a 64-bit float.
// RUN: printf '[sim]\nalpha = 0\nbeta = 0\ngamma = 0\noverhead = 0\ndelta = 5.\n' > %t.point.toml
// RUN: not pld-opt %s --pass-pipeline='builtin.module(pld-select-allreduce-modes)' --pld-cost-model=%t.point.toml 2>&1 | FileCheck %s --check-prefix=POINT
// POINT: pld-opt: error: {{.*}}.point.toml:6: `delta` must be a non-negative number, got `5.`
// RUN: printf '[sim]\nalpha = 0\nbeta = 0\ngamma = 0\noverhead = 0\ndelta = 1e400\n' > %t.big.toml
// RUN: not pld-opt %s --pass-pipeline='builtin.module(pld-select-allreduce-modes)' --pld-cost-model=%t.big.toml 2>&1 | FileCheck %s --check-prefix=BIG
// BIG: pld-opt: error: {{.*}}.big.toml:6: `delta` = 1e400 is too large (beyond a 64-bit floating-point number)
// RUN: not pld-opt %s --pass-pipeline='builtin.module(pld-select-allreduce-modes{cost-model=%S/Inputs/missing.toml})' 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: {{.*}}missing.toml:1: table [sim] has no `overhead`
// RUN: not pld-opt %s --pass-pipeline='builtin.module(pld-select-allreduce-modes)' --pld-cost-model=%S/Inputs/missing-file.toml 2>&1 | FileCheck %s --check-prefix=NOFILE
// NOFILE: pld-opt: error: pld-select-allreduce-modes: cannot read cost model '{{.*}}missing-file.toml'
// A device or a huge file is refused, not read without end (/dev/zero
// filled the memory until the kernel killed the tool).
// RUN: not pld-opt %s --pass-pipeline='builtin.module(pld-select-allreduce-modes)' --pld-cost-model=/dev/zero 2>&1 | FileCheck %s --check-prefix=DEVICE
// DEVICE: pld-opt: error: pld-select-allreduce-modes: cannot read cost model '/dev/zero': not a regular file
// RUN: python3 -c "open(r'%t.huge.toml', 'w').write('#' * 1048577)"
// RUN: not pld-opt %s --pass-pipeline='builtin.module(pld-select-allreduce-modes{cost-model=%t.huge.toml})' 2>&1 | FileCheck %s --check-prefix=HUGE
// HUGE: error: {{.*}}cannot read cost model '{{.*}}.huge.toml': larger than 1048576 bytes, too large for a cost model
// RUN: not pld-opt %s --pass-pipeline='builtin.module(pld-select-allreduce-modes)' --pld-cost-model=%S/Inputs/latency.toml --pld-cost-target=a5 2>&1 | FileCheck %s --check-prefix=TARGET
// TARGET: pld-opt: error: {{.*}}latency.toml: no table [a5] (the cost model's targets: sim)
// RUN: not pld-opt %s --pass-pipeline='builtin.module(pld-select-allreduce-modes)' --pld-cost-target=a5 2>&1 | FileCheck %s --check-prefix=BUILTIN
// BUILTIN: pld-opt: error: pld-select-allreduce-modes: no built-in cost model for target 'a5' (only 'sim'); give a file with cost-model=FILE (pld-opt and pld-run: --pld-cost-model=FILE)
// An integer past TOML's 64 bits, and a file that is not UTF-8, by line:
// RUN: printf '[sim]\nalpha = 0\nbeta = 0\ngamma = 0\noverhead = 0\ncores = 9223372036854775808\n' > %t.int.toml
// RUN: not pld-opt %s --pass-pipeline='builtin.module(pld-select-allreduce-modes)' --pld-cost-model=%t.int.toml 2>&1 | FileCheck %s --check-prefix=INT
// INT: pld-opt: error: {{.*}}.int.toml:6: `cores` = 9223372036854775808 is too large (a TOML integer is at most 9223372036854775807; write a larger number as a float, such as 1e19)
// RUN: printf '[sim]\nalpha = 0\377\n' > %t.latin.toml
// RUN: not pld-opt %s --pass-pipeline='builtin.module(pld-select-allreduce-modes)' --pld-cost-model=%t.latin.toml 2>&1 | FileCheck %s --check-prefix=UTF8
// UTF8: pld-opt: error: pld-select-allreduce-modes: cannot read cost model '{{.*}}.latin.toml': line 2 is not UTF-8 text (a cost model is TOML, which is)
// RUN: not pld-opt %s --pass-pipeline='builtin.module(pld-select-allreduce-modes{remarks=maybe})' 2>&1 | FileCheck %s --check-prefix=REMARKS
// REMARKS: error: {{.*}}pld-select-allreduce-modes: remarks is true or false (or 1 or 0), not 'maybe'
// Options as MLIR writes them: a quoted path keeps its space, and a
// boolean may be 1 or 0 (as upstream passes' are).
// RUN: rm -rf "%t.dir" && mkdir -p "%t.dir/with space" && cp %S/Inputs/latency.toml "%t.dir/with space/m.toml"
// RUN: pld-opt %S/select.mlir --pass-pipeline='builtin.module(pld-select-allreduce-modes{cost-model="%t.dir/with space/m.toml" remarks=1})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=QUOTED
// QUOTED: remark: mode = "auto" chose "two_shot" for 1048576 bytes on 4 ranks
// Braced, as MLIR's own options take a value, and a flag alone:
// RUN: pld-opt %S/select.mlir --pass-pipeline='builtin.module(pld-select-allreduce-modes{cost-model={%t.dir/with space/m.toml} remarks})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=QUOTED
// RUN: not pld-opt %s --pass-pipeline='builtin.module(pld-select-allreduce-modes{cost-model="%t.dir/with space/m.toml})' 2>&1 | FileCheck %s --check-prefix=OPEN
// OPEN: error: {{.*}}pld-select-allreduce-modes: the value of 'cost-model' opens a quote (") that does not close
// RUN: not pld-opt %s --pass-pipeline='builtin.module(pld-select-allreduce-modes{world-size=4 world-size=5})' 2>&1 | FileCheck %s --check-prefix=TWICE
// TWICE: error: {{.*}}pld-select-allreduce-modes: option 'world-size' is given more than once
// RUN: not pld-opt %s --pass-pipeline='builtin.module(pld-select-allreduce-modes{model=x})' 2>&1 | FileCheck %s --check-prefix=KEY
// KEY: error: {{.*}}pld-select-allreduce-modes has no option 'model' (its options: cost-model, target, remarks, world-size)
//
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-select-allreduce-modes)' --verify-diagnostics --split-input-file -o /dev/null

func.func @chip(%d: tensor<1x64xf32, #pld.dist>, %s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"chip">} {
  // expected-error@+1 {{mode = "auto" is not supported in a CHIP orchestrator}}
  %r = "pld.tensor_allreduce"(%d, %s) {op = #pld.reduce_op<"sum">, mode = "auto"} : (tensor<1x64xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<1x64xf32, #pld.dist>
  return
}
