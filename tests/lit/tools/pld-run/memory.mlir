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
// A program needs its inputs, its windows and what the report reads of
// every window after the run (3 copies: a 4 GiB window on 2 devices was
// let through at 2 and killed by the kernel's OOM killer, status 137, no
// message); --check keeps every task's operands before and after it, so a
// loop of calls needs a copy per call (it counted one):
// RUN: not pld-run %t/loop.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=LOOP
// RUN: not pld-run %t/loop.mlir --ranks 2 --check 2>&1 | FileCheck %s --check-prefix=LOOP-CHECK
// LOOP: loop.mlir:1:1: error: @main on 2 devices (8.0 GiB of window buffers per device, as inputs and as read after the run, and a window of 8.0 GiB per device) needs 48.0 GiB of memory
// LOOP-CHECK: loop.mlir:1:1: error: @main on 2 devices (8.0 GiB of window buffers per device, as inputs and as read after the run, and a window of 8.0 GiB per device; checking keeps every task's operands before and after it: 3248.0 GiB) needs 3296.0 GiB of memory
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

//--- loop.mlir
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %bytes = arith.constant 8589934592 : i64
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : index
  %sbytes = arith.constant 8 : i64
  %b = "pld.tensor_alloc_window_buffer"(%bytes) {name = "x"} : (i64) -> !pld.ptr
  %sb = "pld.tensor_alloc_window_buffer"(%sbytes) {name = "s"} : (i64) -> !pld.ptr
  %x = "pld.tensor_window"(%b) : (!pld.ptr) -> tensor<1x2147483648xf32, #pld.dist>
  %s = "pld.tensor_window"(%sb) : (!pld.ptr) -> tensor<2x1xi32, #pld.dist>
  scf.for %i = %c0 to %c100 step %c1 {
    %r = "pld.tensor_allreduce"(%x, %s) {op = #pld.reduce_op<"sum">} : (tensor<1x2147483648xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>) -> tensor<1x2147483648xf32, #pld.dist>
  }
  return
}
