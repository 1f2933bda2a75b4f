// Memory a run cannot have is an error at the kernel, naming the bytes,
// never an abort ("memory allocation of 8589934592 bytes failed", status
// 134): a run whose buffers need more than the machine has available is
// refused before anything is allocated, also when what the process lacks
// is address space (here a 1.8 GB limit, ulimit -v: the allocation failed
// later, "cannot allocate the 1.0 GiB of data on rank 1").
//
// RUN: split-file %s %t
// RUN: not pld-run %t/wide.mlir --ranks 64 2>&1 | FileCheck %s --check-prefix=NEED
// RUN: sh -c 'ulimit -v 1800000; pld-run %t/gib.mlir --ranks 2 > /dev/null 2> %t/gib.err; test $? -eq 1'
// RUN: FileCheck %s --check-prefix=ALLOC --input-file=%t/gib.err
//
// NEED: wide.mlir:1:1: error: @k on 64 ranks (4.0 GiB of parameters per rank, as inputs, windows) needs 512.0 GiB of memory; the machine has {{[0-9.]+}} GiB available
// NEED-NEXT: func.func @k(
// ALLOC: gib.mlir:1:1: error: @k on 2 ranks (1.0 GiB of parameters per rank, as inputs, windows) needs 4.0 GiB of memory; the machine has {{[0-9.]+}} {{[GM]}}iB available

//--- wide.mlir
func.func @k(%data: tensor<1x1073741824xf32, #pld.dist>, %sig: tensor<64x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">} : (tensor<1x1073741824xf32, #pld.dist>, tensor<64x1xi32, #pld.dist>) -> tensor<1x1073741824xf32, #pld.dist>
  return
}

//--- gib.mlir
func.func @k(%data: tensor<1x268435456xf32, #pld.dist>, %sig: tensor<2x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">} : (tensor<1x268435456xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>) -> tensor<1x268435456xf32, #pld.dist>
  return
}
