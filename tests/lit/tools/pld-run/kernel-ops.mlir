// pld-run refuses a kernel op without a PTO form at the op, as
// pld-translate and pld-explore-protocol do (trust23 H2: a 12 MB
// memref.alloca exited 139 without a word; H3: an llvm.load of a null
// pointer spun until --time-limit; M1: a memref.load a hundred billion
// elements out exited 0).
//
// RUN: split-file %s %t
// RUN: not pld-run %t/alloca.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=ALLOCA
// ALLOCA: alloca.mlir:4:8: error: 'memref.alloca' op in kernel @k has no PTO form: the simulator compiles a converted kernel's PTO ops and scalar code (func, arith, math, scf, cf, index, affine ops) only
// RUN: not pld-run %t/alloca.mlir --ranks 2 --explore 1 2>&1 | FileCheck %s --check-prefix=ALLOCA
// pld-explore-protocol refuses it at the op too (it said it at
// alloca.mlir:0:0, the place only in its text: trust23 M2).
// RUN: not pld-opt %t/alloca.mlir --pass-pipeline='builtin.module(pld-to-pto,pld-explore-protocol{ranks=2})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=PASS
// PASS: alloca.mlir:4:8: error: pld-explore-protocol: 'memref.alloca' op has no PTO form
// PASS-NEXT: {{^}}  %m = memref.alloca()
// RUN: not pld-run %t/null.mlir --ranks 2 --time-limit 30 2>&1 | FileCheck %s --check-prefix=NULL
// NULL: null.mlir:2:8: error: 'llvm.mlir.zero' op in kernel @k has no PTO form
// A tensor constant (arith's, but no scalar code) said "compiling to
// machine code failed: could not convert to LLVM IR", at no place
// (recheck24 M2).
// RUN: not pld-run %t/constant.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=CONSTANT
// CONSTANT: constant.mlir:2:8: error: 'arith.constant' op in kernel @k makes a tensor<4xf32>, which has no PTO form
// RUN: not pld-run %t/outside.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=OUTSIDE
// OUTSIDE: outside.mlir:2:8: error: 'memref.alloc' op in kernel @k has no PTO form

//--- alloca.mlir
func.func @k(%sig: tensor<2x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  %m = memref.alloca() : memref<3000000xf32>
  memref.store %f, %m[%c0] : memref<3000000xf32>
  %v = memref.load %m[%c0] : memref<3000000xf32>
  %ok = arith.cmpf oeq, %v, %f : f32
  scf.if %ok {
    %r = "pld.tensor_barrier"(%sig) : (tensor<2x1xi32, #pld.dist>) -> tensor<2x1xi32, #pld.dist>
  }
  return
}
//--- null.mlir
func.func @k(%sig: tensor<2x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %p = llvm.mlir.zero : !llvm.ptr
  %v = llvm.load %p : !llvm.ptr -> i32
  %c0 = arith.constant 0 : i32
  %ok = arith.cmpi eq, %v, %c0 : i32
  scf.if %ok {
    %r = "pld.tensor_barrier"(%sig) : (tensor<2x1xi32, #pld.dist>) -> tensor<2x1xi32, #pld.dist>
  }
  return
}
//--- outside.mlir
func.func @k(%sig: tensor<2x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %m = memref.alloc() : memref<4xf32>
  %i = arith.constant 100000000000 : index
  %v = memref.load %m[%i] : memref<4xf32>
  %f = arith.constant 0.0 : f32
  %ok = arith.cmpf oeq, %v, %f : f32
  scf.if %ok {
    %r = "pld.tensor_barrier"(%sig) : (tensor<2x1xi32, #pld.dist>) -> tensor<2x1xi32, #pld.dist>
  }
  return
}
//--- constant.mlir
func.func @k(%sig: tensor<2x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %t = arith.constant dense<1.0> : tensor<4xf32>
  %r = "pld.tensor_barrier"(%sig) : (tensor<2x1xi32, #pld.dist>) -> tensor<2x1xi32, #pld.dist>
  return
}
