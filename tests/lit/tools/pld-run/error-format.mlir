// pld-run's errors speak as MLIR tools do: `file:line:col: error: message`,
// the source line and a caret, in kernel mode as in program mode (kernel
// mode's shape errors had no location; neither mode had the `error:` tag
// or the caret); a parse failure is MLIR's diagnostic as it is.
//
// RUN: split-file %s %t
// RUN: not pld-run %S/../../../../examples/ring_allreduce.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=KERNEL
// RUN: not pld-run %t/program.mlir --ranks 4 2>&1 | FileCheck %s --check-prefix=PROGRAM
// RUN: not pld-run %t/broken.mlir 2>&1 | FileCheck %s --check-prefix=PARSE
// RUN: not pld-run %t/program.mlir --kernel nope 2>&1 | FileCheck %s --check-prefix=PLAIN
// A module with nothing to run is refused at its first line (it was a
// message without a place).
// RUN: not pld-run %t/nothing.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=NOTHING
// An empty file has no line to show: the message alone (an empty line
// followed it: trust26 L4).
// RUN: printf '' > %t/empty.mlir
// RUN: not pld-run %t/empty.mlir 2> %t/empty.err
// RUN: FileCheck %s --check-prefix=EMPTY --input-file=%t/empty.err
// RUN: wc -l < %t/empty.err | FileCheck %s --check-prefix=ONELINE
// An op of a dialect nobody registered: MLIR's advice names a flag that
// only pld-opt takes; pld-run and pld-translate say so instead, pld-opt
// keeps MLIR's words.
// RUN: not pld-run %t/unregistered.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=UNREG
// RUN: not pld-translate %t/unregistered.mlir --emit pto 2>&1 | FileCheck %s --check-prefix=UNREG
// RUN: not pld-opt %t/unregistered.mlir 2>&1 | FileCheck %s --check-prefix=UNREG-OPT
// UNREG: {{^}}{{.*}}unregistered.mlir:2:12: error: operation being parsed with an unregistered dialect (pld reads the pld and pto dialects and MLIR's upstream ones; only pld-opt takes --allow-unregistered-dialect)
// UNREG-NOT: please use
// UNREG-OPT: unregistered.mlir:2:12: error: operation being parsed with an unregistered dialect. If this is intended, please use -allow-unregistered-dialect with the MLIR tool used
//
// KERNEL: {{^}}{{.*}}ring_allreduce.mlir:16:10: error: the signal of pld.tensor_allreduce (signal) is [6, 4]; on 2 ranks it needs exactly [2, 2]
// KERNEL-NEXT: {{^}}  %sum = "pld.tensor_allreduce"(%data, %signal)
// KERNEL-NEXT: {{^}}         ^
// PROGRAM: {{^}}{{.*}}program.mlir:{{[0-9]+}}:8: error: the broadcast has root = 6, which is not one of the 4 ranks
// PROGRAM-NEXT: {{^}}  %x = "pld.tensor_broadcast"
// PROGRAM-NEXT: {{^}}       ^
// PARSE: {{^}}{{.*}}broken.mlir:1:14: error: expected non-function type
// PARSE-NEXT: {{^}}func.func @f( {
// PARSE-NEXT: {{^}}             ^
// NOTHING: {{^}}{{.*}}nothing.mlir:1:1: error: the module has nothing to run: no device kernel (a func.func with pld.kind #pld.func_kind<"incore">, "aiv" or "aic") and no HOST orchestrator
// NOTHING-NEXT: {{^}}func.func @plain() {
// NOTHING-NEXT: {{^}}^
// EMPTY: {{^}}{{.*}}empty.mlir:1:1: error: the module has nothing to run: {{.*}} and no HOST orchestrator{{$}}
// ONELINE: {{^ *1$}}
// PLAIN: {{^}}pld-run: error: {{.*}}program.mlir has no device kernel @nope

//--- program.mlir
!rows = tensor<4x8xf32, #pld.dist>
!sig = tensor<8xi32, #pld.dist>
func.func @chip(%a: !rows, %s: !sig) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ws = "pld.system_world_size"() : () -> i64
  %n = arith.index_cast %ws : i64 to index
  %c128 = arith.constant 128 : i64
  %c32 = arith.constant 32 : i64
  %dbuf = "pld.tensor_alloc_window_buffer"(%c128) {name = "data"} : (i64) -> !pld.ptr
  %sbuf = "pld.tensor_alloc_window_buffer"(%c32) {name = "sig"} : (i64) -> !pld.ptr
  %d = "pld.tensor_window"(%dbuf) : (!pld.ptr) -> !rows
  %s = "pld.tensor_window"(%sbuf) : (!pld.ptr) -> !sig
  scf.for %r = %c0 to %n step %c1 {
    "pld.dispatch"(%r) ({
      func.call @chip(%d, %s) : (!rows, !sig) -> ()
      gpu.yield
    }) : (index) -> ()
  }
  %x = "pld.tensor_broadcast"(%d, %s) {root = 6 : i64} : (!rows, !sig) -> !rows
  return
}

//--- broken.mlir
func.func @f( {

//--- nothing.mlir
func.func @plain() {
  return
}

//--- unregistered.mlir
func.func @f() {
  "foo.bar"() : () -> ()
  return
}
