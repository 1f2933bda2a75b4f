// The index of pld.tensor_indexed_all_to_all_v is refused before anything
// runs, at the op, naming the index, when its kernel could not use it: an
// index that is not i32 (the kernel reads int32_t row numbers) or has fewer
// entries than the target has rows (NR * MAX_RECV = 8 here). The verifier
// refuses static shapes (C33, C34); pld-run's admission refuses what the
// verifier cannot see: an index sized by the rank count, and a module
// already converted by pld-to-pto (its builtin call is not the pld op).
// Before, the f32 index ran (its floats read as i32) and the short one
// stopped every block of every rank with the kernel's own refusal, without
// a location, naming the target, input and counts.
//
// RUN: sed -e 's/!index = tensor<8xi32, #pld.dist>/!index = tensor<8xf32, #pld.dist>/' %S/../../../../examples/chip_indexed_all_to_all_v.mlir > %t.f32.mlir
// RUN: not pld-run %t.f32.mlir --ranks 2 --input send_counts=rank --check 2>&1 | FileCheck %s --check-prefix=F32
// F32: f32.mlir:34:15: error: 'pld.tensor_indexed_all_to_all_v' op index must have element type i32, got f32
//
// RUN: sed -e 's/!index = tensor<8xi32, #pld.dist>/!index = tensor<8xi64, #pld.dist>/' -e 's/%%index_bytes = arith.constant 32/%%index_bytes = arith.constant 64/' %S/../../../../examples/chip_indexed_all_to_all_v.mlir > %t.i64.mlir
// RUN: not pld-run %t.i64.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=I64
// I64: i64.mlir:34:15: error: 'pld.tensor_indexed_all_to_all_v' op index must have element type i32, got i64
//
// RUN: sed -e 's/!index = tensor<8xi32, #pld.dist>/!index = tensor<1xi32, #pld.dist>/' -e 's/%%index_bytes = arith.constant 32/%%index_bytes = arith.constant 4/' %S/../../../../examples/chip_indexed_all_to_all_v.mlir > %t.short.mlir
// RUN: not pld-run %t.short.mlir --ranks 2 --input send_counts=rank 2>&1 | FileCheck %s --check-prefix=SHORT
// SHORT: short.mlir:34:15: error: 'pld.tensor_indexed_all_to_all_v' op index has 1 element; it needs at least target dim 0 (8, NR * MAX_RECV): one source row for each row of the target
// SHORT-NOT: fatal error
//
// An index of one entry per device (2 here): the verifier sees `?`.
// RUN: sed -e 's/!index = tensor<8xi32, #pld.dist>/!index = tensor<?xi32, #pld.dist>/' -e 's/"pld.tensor_window"(%%index_buf) : (!pld.ptr)/"pld.tensor_window"(%%index_buf, %%devices) : (!pld.ptr, index)/' %S/../../../../examples/chip_indexed_all_to_all_v.mlir > %t.dynamic.mlir
// RUN: not pld-run %t.dynamic.mlir --ranks 2 --input send_counts=rank --check 2>&1 | FileCheck %s --check-prefix=DYNAMIC
// DYNAMIC: dynamic.mlir:34:15: error: the index of pld.tensor_indexed_all_to_all_v (index) is [2]; it needs at least 8 elements, one source row for each row of the target [8, 16]
// DYNAMIC-NOT: fatal error
//
// The converted module, its index shortened or made f32:
// RUN: pld-opt %S/../../../../examples/chip_indexed_all_to_all_v.mlir --pass-pipeline='builtin.module(pld-to-pto)' -o %t.pto.mlir
// RUN: sed -e 's/tensor<8xi32/tensor<1xi32/g' %t.pto.mlir > %t.short.pto.mlir
// RUN: not pld-run %t.short.pto.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=PTOSHORT
// PTOSHORT: short.pto.mlir:{{[0-9]+}}:10: error: the index of pld.tensor_indexed_all_to_all_v (index) is [1]; it needs at least 8 elements, one source row for each row of the target [8, 16]
// PTOSHORT-NOT: fatal error
// RUN: sed -e 's/tensor<8xi32/tensor<8xf32/g' %t.pto.mlir > %t.f32.pto.mlir
// RUN: not pld-run %t.f32.pto.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=PTOF32
// PTOF32: f32.pto.mlir:{{[0-9]+}}:10: error: the index of pld.tensor_indexed_all_to_all_v (index) holds f32; the kernel reads i32 row numbers
//
// A [2, 4] index has its 8 entries: it runs and checks.
// RUN: sed -e 's/!index = tensor<8xi32, #pld.dist>/!index = tensor<2x4xi32, #pld.dist>/' %S/../../../../examples/chip_indexed_all_to_all_v.mlir > %t.2d.mlir
// RUN: pld-run %t.2d.mlir --ranks 2 --input send_counts=rank --check | FileCheck %s --check-prefix=TWOD
// TWOD: pld.tensor_indexed_all_to_all_v at {{.*}}2d.mlir:34:15: f32 x 128, {{.*}}: ok on 2 ranks
