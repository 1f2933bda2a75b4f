// pld-run and pld-translate read MLIR bytecode as pld-opt writes it, as
// they read its text: MLIR reads it, and its ops keep the locations of
// the text they were made from.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: pld-opt %S/../../../../examples/allreduce.mlir --emit-bytecode -o %t/allreduce.mlirbc
// RUN: pld-run %t/allreduce.mlirbc --ranks 4 --check | FileCheck %s
// CHECK: pld.tensor_allreduce in @reduce_kernel (called at {{.*}}examples/allreduce.mlir:{{[0-9]+}}:{{[0-9]+}}): f32 x 4096 (sum, mesh), {{.*}}: ok on 4 ranks
// RUN: pld-opt %S/../../../../examples/ring_allreduce.mlir --pass-pipeline='builtin.module(pld-to-pto)' -o %t/ring.mlir
// RUN: pld-opt %t/ring.mlir --emit-bytecode -o %t/ring.mlirbc
// RUN: pld-translate --emit=pto %t/ring.mlirbc -o %t/from-bytecode.pto
// RUN: pld-translate --emit=pto %t/ring.mlir -o %t/from-text.pto
// RUN: diff %t/from-text.pto %t/from-bytecode.pto
// Bytecode cut short is an error that names the file, never text read
// from binary bytes:
// RUN: head -c 40 %t/ring.mlirbc > %t/cut.mlirbc
// RUN: not pld-run %t/cut.mlirbc --ranks 2 2>&1 | FileCheck %s --check-prefix=CUT
// CUT: pld-run: error: cannot read the bytecode of '{{.*}}cut.mlirbc':
// CUT-NOT: unexpected character
// RUN: not pld-translate --emit=pto %t/cut.mlirbc 2>&1 | FileCheck %s --check-prefix=CUTT
// CUTT: cut.mlirbc
// CUTT-NOT: unexpected character
