// A module already converted by pld-to-pto (PTO ops, `pto.kernel_kind`) is
// verified before it runs, as a pld source is (docs/dialect.md 6, rules P2
// to P4): before, pld-run ran it unverified, so an SDMA session without a
// scratch tile ran with exit 0, a put into a shorter destination copied
// part of its row with exit 0, and a URMA put without its peer operand
// failed at run time on "the queue to peer -1".
//
// RUN: rm -rf %t && split-file %s %t
// RUN: not pld-run %t/sdma.pto.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=SDMA
// RUN: not pld-run %t/sdma.pto.mlir --ranks 2 --explore 2 2>&1 | FileCheck %s --check-prefix=SDMA
// SDMA: sdma.pto.mlir:5:16: error: 'pto.comm_build_async_session' op engine sdma needs a scratch operand (a UB tile_buf of loc vec)
// SDMA-NEXT: %session = "pto.comm_build_async_session"
// SDMA-NEXT: ^
//
// RUN: sed -e 's/%%session, %%peer32) {operandSegmentSizes = array<i32: 1, 1, 1, 1>} : (!row, !row, !pto.async_session, i32)/%%session) {operandSegmentSizes = array<i32: 1, 1, 1, 0>} : (!row, !row, !pto.async_session)/' %S/../../../explore/async-put-waited.pto.mlir > %t/no-peer.pto.mlir
// RUN: not pld-run %t/no-peer.pto.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=PEER
// PEER: no-peer.pto.mlir:56:12: error: 'pto.comm_tput_async' op a transfer on a URMA session needs a peer operand (its PER_PEER queue)
// PEER-NOT: peer -1
//
// Its pld.signature must be the one it was converted from, and give the
// arguments the simulator passes (each tensor's pointer, then a context
// per distributed tensor): a signal declared plain got no context, and the
// kernel's own loads of it crashed pld-run (status 139); an f32 signal, a
// missing or an extra entry ran (status 0).
// RUN: pld-opt %S/../../../../examples/barrier.mlir --pass-pipeline='builtin.module(pld-to-pto)' -o %t/barrier.pto.mlir
// RUN: sed -e 's/pld.signature = (tensor<4x1xi32, #pld.dist>, !pld.ctx)/pld.signature = (tensor<4x1xi32>, !pld.ctx)/' %t/barrier.pto.mlir > %t/plain.pto.mlir
// RUN: not pld-run %t/plain.pto.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=PLAIN
// PLAIN: plain.pto.mlir:2:3: error: @barrier: takes (!pto.ptr<i32>, !pto.ptr<i64>), but the simulator passes a kernel of pld.signature (tensor<4x1xi32>, !pld.ctx) its tensors' pointers and then a context per distributed tensor: (!pto.ptr<i32>)
// RUN: sed -e 's/pld.signature = (tensor<4x1xi32, #pld.dist>, !pld.ctx)/pld.signature = (tensor<4x1xf32, #pld.dist>, !pld.ctx)/' %t/barrier.pto.mlir > %t/f32.pto.mlir
// RUN: not pld-run %t/f32.pto.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=F32
// F32: f32.pto.mlir:2:3: error: @barrier: its pld.signature (tensor<4x1xf32, #pld.dist>, !pld.ctx) is not the one it was converted from: it converts to (!pto.ptr<f32>, !pto.ptr<i64>), but the function takes (!pto.ptr<i32>, !pto.ptr<i64>)
// RUN: sed -e 's/pld.signature = (tensor<4x1xi32, #pld.dist>, !pld.ctx)/pld.signature = (tensor<4x1xi32, #pld.dist>)/' %t/barrier.pto.mlir > %t/short.pto.mlir
// RUN: not pld-run %t/short.pto.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=SHORT
// SHORT: short.pto.mlir:2:3: error: @barrier: its pld.signature (tensor<4x1xi32, #pld.dist>) is not the one it was converted from
//
// A pld op left in a converted kernel is refused at the op (it failed to
// compile, "could not convert to LLVM IR", with no location):
// RUN: sed -e 's/^    return$/    "pld.system_fence"() : () -> ()\n    return/' %t/barrier.pto.mlir > %t/mixed.pto.mlir
// RUN: not pld-run %t/mixed.pto.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=MIXED
// MIXED: mixed.pto.mlir:91:5: error: 'pld.system_fence' op in @barrier, a kernel converted by pld-to-pto (pto.kernel_kind): the simulator runs a converted kernel's PTO, arith, scf and func ops; run pld-to-pto on the module that holds it
// An op of another dialect in a converted kernel is refused at the op, as
// pld-translate refuses it (an unrealized cast that made an event failed to
// compile, in the words of a func.call nobody wrote):
// RUN: sed -e 's/^    return$/    %%fz = arith.constant 1.0 : f32\n    %%fa = math.absf %%fz : f32\n    return/' %t/barrier.pto.mlir > %t/foreign.pto.mlir
// RUN: not pld-run %t/foreign.pto.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=FOREIGN
// FOREIGN: foreign.pto.mlir:92:11: error: 'math.absf' op has no PTO form: a converted kernel holds func, arith, scf and pto ops only
// RUN: pld-run %t/barrier.pto.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=BARRIER
// BARRIER: @barrier on 2 ranks: finished
//
// The shipped module itself still runs:
// RUN: pld-run %S/../../../explore/async-put-waited.pto.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=FINE
// FINE: @exchange on 2 ranks: finished

//--- sdma.pto.mlir
// An SDMA session needs a UB scratch tile (rule P3).
module {
  func.func @k(%data: !pto.ptr<f32>, %ctx: !pto.ptr<i64>) attributes {pld.kind = #pld.func_kind<"incore">, pld.signature = (tensor<1x64xf32, #pld.dist>, !pld.ctx) -> (), pto.kernel_kind = #pto.kernel_kind<"vector">} {
    %ws = arith.constant 0 : i64
    %session = "pto.comm_build_async_session"(%ws) {engine = #pto.dma_engine<"sdma">, operandSegmentSizes = array<i32: 0, 1>} : (i64) -> !pto.async_session
    return
  }
}
