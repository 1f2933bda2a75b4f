// pld-explore-protocol runs every converted kernel under seeded schedules
// of the protocol explorer and reports what it finds at the op, with the
// rank count and the seed that reproduce it; a clean module passes
// through unchanged.
//
// RUN: rm -rf %t && split-file %s %t
// A rank count given with ranks= that the signals are not shaped for
// runs as given, and its findings say so (the pass printed a credit leak
// whose replay pld-run refused, with no word why).
// RUN: not pld-opt %S/../../../../examples/ring_allreduce.mlir --pass-pipeline='builtin.module(pld-to-pto, pld-explore-protocol{ranks=2 schedules=1})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISFIT
// MISFIT: error: protocol explorer, 2 ranks, schedule seed 0 (pld-run {{.*}}ring_allreduce.mlir --kernel ring_allreduce --ranks 2 --replay 0 --input arg0=rank --input arg1=zeros) [the signals, [6, 4], are not shaped for 2 ranks by the composite rail's conventions: what is found may come of that, and pld-run refuses the replay if a collective's signal does not fit]: credit leak:
// On 64 ranks the barrier's [4, 1] signal put a fault at every cell of
// every rank: 10 588 errors. A fault is one finding whatever its rank and
// address, and past 20 distinct findings of a kernel the rest are counted.
// RUN: not pld-opt %S/../../../../examples/barrier.mlir --pass-pipeline='builtin.module(pld-to-pto, pld-explore-protocol{ranks=64 schedules=2})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=WIDE
// WIDE: pto.comm_twait: wait on the signal cell at
// WIDE-NOT: pto.comm_twait: wait on the signal cell at
// The ring on 64 ranks faults at every cell of every rank too: one finding
// per op and kind of fault, whatever the rank, cell or peer.
// RUN: not pld-opt %S/../../../../examples/ring_allreduce.mlir --pass-pipeline='builtin.module(pld-to-pto, pld-explore-protocol{ranks=64 schedules=2})' -o /dev/null 2> %t/ring64.err
// RUN: FileCheck %s --check-prefix=RING64 --input-file=%t/ring64.err
// RING64: error: protocol explorer, 64 ranks
// RING64-NOT: more distinct findings
// A kernel with 24 ops that fault, each a finding of its own:
// RUN: not pld-opt %t/many.mlir --pass-pipeline='builtin.module(pld-to-pto, pld-explore-protocol{ranks=2 schedules=1})' -o /dev/null 2> %t/capped.err
// RUN: FileCheck %s --check-prefix=CAPPED --input-file=%t/capped.err
// RUN: FileCheck %s --check-prefix=UNSHOWN --input-file=%t/capped.err
// CAPPED-COUNT-20: error: protocol explorer, 2 ranks
// CAPPED-NOT: error: protocol explorer, 2 ranks
// (The count is reported at the kernel, in source order with the rest.)
// UNSHOWN: many.mlir:1:1: error: protocol explorer: 4 more distinct findings in @many not shown (the first 20 are); the replay commands above show every finding of their run
//
// A remote load that no wait orders after the peer's store: a race, at the
// load, naming the store. The finding carries the pld-run command that
// replays its schedule (the file, the kernel, the rank count, the seed and
// every parameter's fill as the pass chose it: signals zeros, the rest the
// rank number).
// RUN: not pld-opt %t/race.mlir --pass-pipeline='builtin.module(pld-to-pto, pld-explore-protocol{ranks=2 schedules=20})' -o /dev/null 2> %t/race.err
// RUN: FileCheck %s --check-prefix=RACE < %t/race.err
// RACE: race.mlir:13:8: error: protocol explorer, 2 ranks, schedule seed 0 (pld-run {{.*}}race.mlir --kernel exchange --ranks 2 --replay 0 --input arg0=rank --input arg1=zeros --input arg2=rank --input arg3=rank): race: rank {{[01]}}'s `pto.tload` at {{.*}}race.mlir:13:8 read bytes [0, 256) of rank {{[01]}}'s window (arg0 [0, 0]..[0, 63]), written by rank {{[01]}}'s `pto.tstore` at {{.*}}race.mlir:11:3; no signal orders them
// RACE-NEXT: %r = "pld.tile_remote_load"
// RACE-NOT: error:
//
// The printed command, run as it is, replays the schedule and finds the
// same race (pld-run's status 1 for a finding).
// RUN: sed -n 's/.*schedule seed 0 (\(pld-run [^)]*\)).*/\1/p' %t/race.err > %t/replay-race.sh
// RUN: sh -c 'sh %t/replay-race.sh > %t/replay-race.out 2>&1; test $? -eq 1'
// RUN: FileCheck %s --check-prefix=REPLAY-RACE < %t/replay-race.out
// REPLAY-RACE: schedule 0 (--replay 0): race: rank {{[01]}}'s `pld.tile_remote_load` (pto.tload) at {{.*}}race.mlir:13:8 read bytes [0, 256) of rank {{[01]}}'s window (%data (arg0) [0, 0]..[0, 63]), written by rank {{[01]}}'s `pld.tile_store` (pto.tstore) at {{.*}}race.mlir:11:3; no signal orders them
// REPLAY-RACE: @exchange on 2 ranks: schedule 0 replayed in {{.*}}: 1 finding (first seen with seed 0)
//
// A wait for one credit too many: the deadlock, at the wait, naming every
// rank blocked there (it named the first only); its replay deadlocks the
// same way (status 3).
// RUN: not pld-opt %t/deadlock.mlir --pass-pipeline='builtin.module(pld-to-pto, pld-explore-protocol{ranks=2,3 schedules=5})' -o /dev/null 2> %t/deadlock.err
// RUN: FileCheck %s --check-prefix=DEADLOCK < %t/deadlock.err
// DEADLOCK: deadlock.mlir:11:3: error: protocol explorer, 2 ranks, schedule seed 0 (pld-run {{.*}}deadlock.mlir --kernel barrier --ranks 2 --replay 0 --input arg0=zeros): deadlock: rank {{[01]}} waits for the i32 cell at byte {{[04]}} of rank {{[01]}}'s window (arg0 [{{[01]}}, 0]) >= 2, which holds 1; rank {{[01]}} waits for the i32 cell at byte {{[04]}} of rank {{[01]}}'s window (arg0 [{{[01]}}, 0]) >= 2, which holds 1, and no thread of any rank can run
// RUN: sed -n 's/^.*deadlock.mlir:11:3: error: protocol explorer, 2 ranks, schedule seed 0 (\(pld-run [^)]*\)).*/\1/p' %t/deadlock.err | head -n 1 > %t/replay-deadlock.sh
// RUN: sh -c 'sh %t/replay-deadlock.sh > %t/replay-deadlock.out 2>&1; test $? -eq 3'
// RUN: FileCheck %s --check-prefix=REPLAY-DEADLOCK < %t/replay-deadlock.out
// REPLAY-DEADLOCK: schedule 0 (--replay 0): deadlock: no thread of any rank can run
// REPLAY-DEADLOCK: pto.comm_twait at {{.*}}deadlock.mlir:11:3
//
// The shipped collectives are clean on every rank count their signals
// serve; the module is printed unchanged.
// RUN: pld-opt %S/../../../../examples/allgather.mlir --pass-pipeline='builtin.module(pld-to-pto, pld-explore-protocol{ranks=4 schedules=50})' | FileCheck %s --check-prefix=CLEAN
// RUN: pld-opt %S/../../../../examples/barrier.mlir --pass-pipeline='builtin.module(pld-to-pto, pld-explore-protocol)' | FileCheck %s --check-prefix=CLEAN
// A broadcast from rank 2 needs 3 ranks or more: pld-lower-composite-ops
// notes pld.ranks_at_least = 3 on its kernel, and the default rank counts
// leave 2 out (on 2 ranks rank 2 is no rank; pld-run refuses it so).
// RUN: pld-opt %S/../../../../examples/broadcast.mlir --pass-pipeline='builtin.module(pld-to-pto, pld-explore-protocol{schedules=20})' | FileCheck %s --check-prefix=CLEAN
// CLEAN: func.func @{{all|barrier|broadcast}}
// CLEAN-SAME: pto.kernel_kind
// A module without a converted kernel (an A5 program whose collective is
// a builtin) explored nothing and said nothing (dma26 L4): a warning at
// the module.
// RUN: pld-opt %S/../../../../examples/chip_indexed_all_to_all_v.mlir --pass-pipeline='builtin.module(pld-to-pto, pld-explore-protocol{schedules=2})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOKERNEL
// NOKERNEL: chip_indexed_all_to_all_v.mlir:28:1: warning: pld-explore-protocol: the module has no converted kernel (pto.kernel_kind) to explore; a program's HOST and CHIP collectives run as builtin kernels, which pld-run --explore explores
// A helper kernel that only kernels call, with an index among its
// parameters, is explored through its caller (the pass refused the module:
// "parameter #1 has type index", while pld-run ran it: recheck26 M3).
// RUN: pld-opt %t/helper.mlir --pass-pipeline='builtin.module(pld-to-pto, pld-explore-protocol{ranks=2 schedules=5})' | FileCheck %s --check-prefix=HELPER
// Its signal, used only through the helper, is the kernel's signal: its
// cells start at zero and are not "outside the signals".
// HELPER: func.func private @handshake
// HELPER: func.func @k
// A root no default rank count reaches says so:
// RUN: not pld-opt %t/root.mlir --pass-pipeline='builtin.module(pld-to-pto, pld-explore-protocol)' 2>&1 | FileCheck %s --check-prefix=ROOT
// ROOT: root.mlir:1:1: error: pld-explore-protocol: of ranks=2,3,4, the signals of @broadcast serve 2,3,4, fewer than the 7 ranks its root needs; give the rank counts it is written for
// RUN: pld-opt %t/root.mlir --pass-pipeline='builtin.module(pld-to-pto, pld-explore-protocol{ranks=7,8 schedules=5})' -o /dev/null
// Given rank counts below the root's are refused (the run would read from
// no rank, and pld-run refuses its replay):
// RUN: not pld-opt %t/root.mlir --pass-pipeline='builtin.module(pld-to-pto, pld-explore-protocol{ranks=8,2 schedules=5})' 2>&1 | FileCheck %s --check-prefix=ROOTGIVEN
// ROOTGIVEN: root.mlir:1:1: error: pld-explore-protocol: ranks=2 is fewer than the 7 ranks the root of @broadcast needs
// ROOTGIVEN-NOT: protocol explorer,
//
// Misuse: before pld-to-pto, options it does not have, rank counts the
// signals do not serve.
// RUN: not pld-opt %t/deadlock.mlir --pass-pipeline='builtin.module(pld-explore-protocol)' 2>&1 | FileCheck %s --check-prefix=EARLY
// EARLY: deadlock.mlir:1:1: error: pld-explore-protocol runs converted kernels: place it after pld-to-pto
// RUN: not pld-opt %t/deadlock.mlir --pass-pipeline='builtin.module(pld-to-pto, pld-explore-protocol{rank=2})' 2>&1 | FileCheck %s --check-prefix=OPTION
// OPTION: pld-explore-protocol has no option 'rank' (its options: ranks, schedules, seed, time-limit)
// Without ranks= the rank counts come from the signals' shapes: a [1, 1]
// flag serves one rank, not the default 2, 3, 4; given ranks run as given.
// RUN: not pld-opt %t/flag.mlir --pass-pipeline='builtin.module(pld-to-pto, pld-explore-protocol)' 2>&1 | FileCheck %s --check-prefix=RANKS
// RANKS: flag.mlir:1:1: error: pld-explore-protocol: the signals of @flag are shaped for none of ranks=2,3,4
// RUN: pld-opt %t/flag.mlir --pass-pipeline='builtin.module(pld-to-pto, pld-explore-protocol{ranks=1 schedules=3})' -o /dev/null
// RUN: not pld-opt %t/flag.mlir --pass-pipeline='builtin.module(pld-to-pto, pld-explore-protocol{schedules=0})' 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: pld-explore-protocol: schedules is at least 1
// A value past u64 says so (it was "takes a number").
// RUN: not pld-opt %t/flag.mlir --pass-pipeline='builtin.module(pld-to-pto, pld-explore-protocol{schedules=99999999999999999999})' 2>&1 | FileCheck %s --check-prefix=HUGE
// HUGE: pld-explore-protocol: schedules takes a number up to 18446744073709551615, not '99999999999999999999'
// A rank count past u64 is past 64 ranks (it said "up to 18446744073709551615": trust26 L4).
// RUN: not pld-opt %t/flag.mlir --pass-pipeline='builtin.module(pld-to-pto, pld-explore-protocol{ranks=2,18446744073709551617})' 2>&1 | FileCheck %s --check-prefix=HUGERANKS
// HUGERANKS: pld-explore-protocol: ranks are 1 to 64, not 18446744073709551617
// As pld-run --explore refuses them: seeds past the last u64, and an option
// given twice (which value would win?).
// RUN: not pld-opt %t/flag.mlir --pass-pipeline='builtin.module(pld-to-pto, pld-explore-protocol{ranks=1 schedules=2 seed=18446744073709551615})' 2>&1 | FileCheck %s --check-prefix=SEED
// SEED: pld-explore-protocol: seed=18446744073709551615 with schedules=2 runs past the last seed, 18446744073709551615
// RUN: not pld-opt %t/flag.mlir --pass-pipeline='builtin.module(pld-to-pto, pld-explore-protocol{ranks=2 ranks=3})' 2>&1 | FileCheck %s --check-prefix=TWICE
// TWICE: pld-explore-protocol: option 'ranks' is given more than once
// A time limit: no schedule starts after it, a warning says how far the
// pass got, and with nothing found the pass succeeds (ten million
// schedules would take hours; `timeout` only guards the suite).
// RUN: timeout 300 pld-opt %S/../../../../examples/barrier.mlir --pass-pipeline='builtin.module(pld-to-pto, pld-explore-protocol{ranks=2 schedules=10000000 time-limit=1})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=LIMIT
// LIMIT: barrier.mlir:12:1: warning: pld-explore-protocol: time-limit=1 ran out after {{[1-9][0-9]*}} of 10000000 schedules; the rest were not explored
// The warning is at the kernel whose schedules it cut (it was at the
// module's file:0:0, which no expected-warning can name: cli24 L9).
// RUN: timeout 300 pld-opt %t/limit.mlir --pass-pipeline='builtin.module(pld-to-pto, pld-explore-protocol{ranks=2 schedules=10000000 time-limit=1})' --verify-diagnostics -o /dev/null
// A finding at an op whose location names no file is said as MLIR says
// it, and one at a call site has its `called from` note (both were at
// the module's file:0:0 or the callee alone: recheck24b L1).
// RUN: not pld-opt %t/named.mlir --pass-pipeline='builtin.module(pld-to-pto, pld-explore-protocol{ranks=5 schedules=1})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=NAMED
// NAMED: callee.mlir:1:2: error: protocol explorer, 5 ranks, schedule seed 0
// NAMED-NEXT: caller.mlir:7:9: note: called from
// NAMED: named.mlir: error: loc("bar"): protocol explorer, 5 ranks, schedule seed 0
// RUN: not pld-opt %t/flag.mlir --pass-pipeline='builtin.module(pld-to-pto, pld-explore-protocol{time-limit=0})' 2>&1 | FileCheck %s --check-prefix=LIMIT0
// LIMIT0: pld-explore-protocol: time-limit is a whole number of seconds from 1 to 18446744073709551615, not '0'
// An option that takes a value, given alone:
// RUN: not pld-opt %t/flag.mlir --pass-pipeline='builtin.module(pld-to-pto, pld-explore-protocol{ranks})' 2>&1 | FileCheck %s --check-prefix=ALONE
// ALONE: pld-explore-protocol: expected ranks=value, not 'ranks' alone
// Other pld passes still take no options:
// RUN: not pld-opt %t/deadlock.mlir --pass-pipeline='builtin.module(pld-to-pto, pld-verify{x=1})' 2>&1 | FileCheck %s --check-prefix=NONE
// NONE: pass 'pld-verify' takes no options

//--- race.mlir
func.func @exchange(%data: tensor<1x64xf32, #pld.dist>, %sig: tensor<2x1xi32, #pld.dist>, %src: tensor<1x64xf32>, %out: tensor<1x64xf32>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %ctx = "pld.system_get_comm_ctx"(%data) : (tensor<1x64xf32, #pld.dist>) -> !pld.ctx
  %me32 = "pld.system_rank"(%ctx) : (!pld.ctx) -> i32
  %me = arith.index_cast %me32 : i32 to index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %peer = arith.subi %c1, %me : index
  %peer32 = arith.index_cast %peer : index to i32
  %t = "pld.tile_load"(%src, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 0>} : (tensor<1x64xf32>, index, index) -> tensor<1x64xf32, #pld.tile>
  "pld.tile_store"(%t, %data, %c0, %c0) : (tensor<1x64xf32, #pld.tile>, tensor<1x64xf32, #pld.dist>, index, index) -> ()
  "pld.system_notify"(%sig, %peer, %me, %c0, %one) {op = #pld.notify_op<"atomic_add">} : (tensor<2x1xi32, #pld.dist>, index, index, index, i32) -> ()
  %r = "pld.tile_remote_load"(%data, %peer32, %c0, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (tensor<1x64xf32, #pld.dist>, i32, index, index) -> tensor<1x64xf32, #pld.tile>
  "pld.tile_store"(%r, %out, %c0, %c0) : (tensor<1x64xf32, #pld.tile>, tensor<1x64xf32>, index, index) -> ()
  "pld.system_wait"(%sig, %peer, %c0, %one) {cmp = #pld.wait_cmp<"ge">} : (tensor<2x1xi32, #pld.dist>, index, index, i32) -> ()
  %minus = arith.constant -1 : i32
  "pld.system_notify"(%sig, %me, %peer, %c0, %minus) {op = #pld.notify_op<"atomic_add">} : (tensor<2x1xi32, #pld.dist>, index, index, index, i32) -> ()
  return
}

//--- deadlock.mlir
func.func @barrier(%sig: tensor<2x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %ctx = "pld.system_get_comm_ctx"(%sig) : (tensor<2x1xi32, #pld.dist>) -> !pld.ctx
  %me32 = "pld.system_rank"(%ctx) : (!pld.ctx) -> i32
  %me = arith.index_cast %me32 : i32 to index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %peer = arith.subi %c1, %me : index
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  "pld.system_notify"(%sig, %peer, %me, %c0, %one) {op = #pld.notify_op<"atomic_add">} : (tensor<2x1xi32, #pld.dist>, index, index, index, i32) -> ()
  "pld.system_wait"(%sig, %peer, %c0, %two) {cmp = #pld.wait_cmp<"ge">} : (tensor<2x1xi32, #pld.dist>, index, index, i32) -> ()
  return
}

//--- flag.mlir
func.func @flag(%sig: tensor<1x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %minus = arith.constant -1 : i32
  "pld.system_notify"(%sig, %c0, %c0, %c0, %one) {op = #pld.notify_op<"atomic_add">} : (tensor<1x1xi32, #pld.dist>, index, index, index, i32) -> ()
  "pld.system_wait"(%sig, %c0, %c0, %one) {cmp = #pld.wait_cmp<"ge">} : (tensor<1x1xi32, #pld.dist>, index, index, i32) -> ()
  "pld.system_notify"(%sig, %c0, %c0, %c0, %minus) {op = #pld.notify_op<"atomic_add">} : (tensor<1x1xi32, #pld.dist>, index, index, index, i32) -> ()
  return
}

//--- helper.mlir
!sig = tensor<2x1xi32, #pld.dist>
func.func private @handshake(%sig: !sig, %me: index, %peer: index) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %minus = arith.constant -1 : i32
  "pld.system_notify"(%sig, %peer, %me, %c0, %one) {op = #pld.notify_op<"atomic_add">} : (!sig, index, index, index, i32) -> ()
  "pld.system_wait"(%sig, %peer, %c0, %one) {cmp = #pld.wait_cmp<"ge">} : (!sig, index, index, i32) -> ()
  "pld.system_notify"(%sig, %me, %peer, %c0, %minus) {op = #pld.notify_op<"atomic_add">} : (!sig, index, index, index, i32) -> ()
  return
}
func.func @k(%sig: !sig) attributes {pld.kind = #pld.func_kind<"incore">} {
  %ctx = "pld.system_get_comm_ctx"(%sig) : (!sig) -> !pld.ctx
  %me32 = "pld.system_rank"(%ctx) : (!pld.ctx) -> i32
  %me = arith.index_cast %me32 : i32 to index
  %c1 = arith.constant 1 : index
  %peer = arith.subi %c1, %me : index
  func.call @handshake(%sig, %me, %peer) : (!sig, index, index) -> ()
  return
}

//--- root.mlir
func.func @broadcast(%target: tensor<2x40xf32, #pld.dist>, %signal: tensor<8x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_broadcast"(%target, %signal) {root = 6 : i64} : (tensor<2x40xf32, #pld.dist>, tensor<8x1xi32, #pld.dist>) -> tensor<2x40xf32, #pld.dist>
  return
}

//--- limit.mlir
!signal = tensor<2x1xi32, #pld.dist>
// expected-warning@+1 {{pld-explore-protocol: time-limit=1 ran out after}}
func.func @barrier(%signal: !signal) attributes {pld.kind = #pld.func_kind<"incore">} {
  %after = "pld.tensor_barrier"(%signal) : (!signal) -> !signal
  return
}

//--- named.mlir
!signal = tensor<4x1xi32, #pld.dist>
func.func @named(%signal: !signal) attributes {pld.kind = #pld.func_kind<"incore">} {
  %after = "pld.tensor_barrier"(%signal) : (!signal) -> !signal loc("bar")
  return
}
func.func @called(%signal: !signal) attributes {pld.kind = #pld.func_kind<"incore">} {
  %after = "pld.tensor_barrier"(%signal) : (!signal) -> !signal loc(callsite("callee.mlir":1:2 at "caller.mlir":7:9))
  return
}

//--- many.mlir
func.func @many(%data: tensor<1x64xf32, #pld.dist>, %sig: tensor<2x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c65 = arith.constant 65 : index
  %c66 = arith.constant 66 : index
  %c67 = arith.constant 67 : index
  %c68 = arith.constant 68 : index
  %c69 = arith.constant 69 : index
  %c70 = arith.constant 70 : index
  %c71 = arith.constant 71 : index
  %c72 = arith.constant 72 : index
  %c73 = arith.constant 73 : index
  %c74 = arith.constant 74 : index
  %c75 = arith.constant 75 : index
  %c76 = arith.constant 76 : index
  %c77 = arith.constant 77 : index
  %c78 = arith.constant 78 : index
  %c79 = arith.constant 79 : index
  %c80 = arith.constant 80 : index
  %c81 = arith.constant 81 : index
  %c82 = arith.constant 82 : index
  %c83 = arith.constant 83 : index
  %c84 = arith.constant 84 : index
  %c85 = arith.constant 85 : index
  %c86 = arith.constant 86 : index
  %c87 = arith.constant 87 : index
  %t = "pld.tile_load"(%data, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 0>} : (tensor<1x64xf32, #pld.dist>, index, index) -> tensor<1x8xf32, #pld.tile>
  "pld.tile_store"(%t, %data, %c0, %c64) : (tensor<1x8xf32, #pld.tile>, tensor<1x64xf32, #pld.dist>, index, index) -> ()
  "pld.tile_store"(%t, %data, %c0, %c65) : (tensor<1x8xf32, #pld.tile>, tensor<1x64xf32, #pld.dist>, index, index) -> ()
  "pld.tile_store"(%t, %data, %c0, %c66) : (tensor<1x8xf32, #pld.tile>, tensor<1x64xf32, #pld.dist>, index, index) -> ()
  "pld.tile_store"(%t, %data, %c0, %c67) : (tensor<1x8xf32, #pld.tile>, tensor<1x64xf32, #pld.dist>, index, index) -> ()
  "pld.tile_store"(%t, %data, %c0, %c68) : (tensor<1x8xf32, #pld.tile>, tensor<1x64xf32, #pld.dist>, index, index) -> ()
  "pld.tile_store"(%t, %data, %c0, %c69) : (tensor<1x8xf32, #pld.tile>, tensor<1x64xf32, #pld.dist>, index, index) -> ()
  "pld.tile_store"(%t, %data, %c0, %c70) : (tensor<1x8xf32, #pld.tile>, tensor<1x64xf32, #pld.dist>, index, index) -> ()
  "pld.tile_store"(%t, %data, %c0, %c71) : (tensor<1x8xf32, #pld.tile>, tensor<1x64xf32, #pld.dist>, index, index) -> ()
  "pld.tile_store"(%t, %data, %c0, %c72) : (tensor<1x8xf32, #pld.tile>, tensor<1x64xf32, #pld.dist>, index, index) -> ()
  "pld.tile_store"(%t, %data, %c0, %c73) : (tensor<1x8xf32, #pld.tile>, tensor<1x64xf32, #pld.dist>, index, index) -> ()
  "pld.tile_store"(%t, %data, %c0, %c74) : (tensor<1x8xf32, #pld.tile>, tensor<1x64xf32, #pld.dist>, index, index) -> ()
  "pld.tile_store"(%t, %data, %c0, %c75) : (tensor<1x8xf32, #pld.tile>, tensor<1x64xf32, #pld.dist>, index, index) -> ()
  "pld.tile_store"(%t, %data, %c0, %c76) : (tensor<1x8xf32, #pld.tile>, tensor<1x64xf32, #pld.dist>, index, index) -> ()
  "pld.tile_store"(%t, %data, %c0, %c77) : (tensor<1x8xf32, #pld.tile>, tensor<1x64xf32, #pld.dist>, index, index) -> ()
  "pld.tile_store"(%t, %data, %c0, %c78) : (tensor<1x8xf32, #pld.tile>, tensor<1x64xf32, #pld.dist>, index, index) -> ()
  "pld.tile_store"(%t, %data, %c0, %c79) : (tensor<1x8xf32, #pld.tile>, tensor<1x64xf32, #pld.dist>, index, index) -> ()
  "pld.tile_store"(%t, %data, %c0, %c80) : (tensor<1x8xf32, #pld.tile>, tensor<1x64xf32, #pld.dist>, index, index) -> ()
  "pld.tile_store"(%t, %data, %c0, %c81) : (tensor<1x8xf32, #pld.tile>, tensor<1x64xf32, #pld.dist>, index, index) -> ()
  "pld.tile_store"(%t, %data, %c0, %c82) : (tensor<1x8xf32, #pld.tile>, tensor<1x64xf32, #pld.dist>, index, index) -> ()
  "pld.tile_store"(%t, %data, %c0, %c83) : (tensor<1x8xf32, #pld.tile>, tensor<1x64xf32, #pld.dist>, index, index) -> ()
  "pld.tile_store"(%t, %data, %c0, %c84) : (tensor<1x8xf32, #pld.tile>, tensor<1x64xf32, #pld.dist>, index, index) -> ()
  "pld.tile_store"(%t, %data, %c0, %c85) : (tensor<1x8xf32, #pld.tile>, tensor<1x64xf32, #pld.dist>, index, index) -> ()
  "pld.tile_store"(%t, %data, %c0, %c86) : (tensor<1x8xf32, #pld.tile>, tensor<1x64xf32, #pld.dist>, index, index) -> ()
  "pld.tile_store"(%t, %data, %c0, %c87) : (tensor<1x8xf32, #pld.tile>, tensor<1x64xf32, #pld.dist>, index, index) -> ()
  return
}
