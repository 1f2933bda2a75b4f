// `--pld-cost-model` gives pld-run the model `mode = "auto"` is chosen by,
// as pld-opt's option of that name does (without it pld-run compiled every
// auto call with the built-in figures, whatever `pld-bench calibrate`
// had measured). A model whose barriers cost a second picks the mesh (it
// reads all three peers' 16388 bytes); one whose bytes cost a second
// picks the two-shot (it reads half as much). The compile cache keeps the
// two lowerings apart, and both results are right.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: printf '[sim]\nalpha = 1.0\nbeta = 1e-12\ngamma = 1e-12\noverhead = 0\n' > %t/barriers.toml
// RUN: printf '[sim]\nalpha = 0\nbeta = 1.0\ngamma = 1.0\noverhead = 0\n' > %t/bytes.toml
// RUN: pld-run %s --ranks 4 --check --stats --cache-dir %t/cache --pld-cost-model=%t/barriers.toml | FileCheck %s --check-prefix=MESH
// RUN: pld-run %s --ranks 4 --check --stats --cache-dir %t/cache --pld-cost-model %t/bytes.toml | FileCheck %s --check-prefix=TWO
// RUN: pld-run %s --ranks 4 --check --stats --cache-dir %t/cache --pld-cost-model=%t/barriers.toml | FileCheck %s --check-prefix=MESH
// MESH: rank 3: ok
// MESH: all 48 36 196656 0
// TWO: rank 3: ok
// TWO: all 48 36 98328 0
//
// A file that cannot be read or parsed, or a target it lacks, is refused
// before anything runs.
// RUN: printf '[sim]\nalpha = x\n' > %t/bad.toml
// RUN: not pld-run %s --ranks 4 --pld-cost-model=%t/bad.toml 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not pld-run %s --ranks 4 --pld-cost-model=%t/missing.toml 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not pld-run %s --ranks 4 --pld-cost-model=%t/bytes.toml --pld-cost-target=a5 2>&1 | FileCheck %s --check-prefix=TARGET
// BAD: pld-run: error: {{.*}}bad.toml:2: `alpha` must be a non-negative number, got `x`
// MISSING: pld-run: error: pld-select-allreduce-modes: cannot read cost model '{{.*}}missing.toml'
// TARGET: pld-run: error: {{.*}}bytes.toml: no table [a5] (the cost model's targets: sim)

func.func @k(%d: tensor<1x4097xf32, #pld.dist>, %s: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%d, %s) {op = #pld.reduce_op<"sum">, mode = "auto"} : (tensor<1x4097xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<1x4097xf32, #pld.dist>
  return
}
