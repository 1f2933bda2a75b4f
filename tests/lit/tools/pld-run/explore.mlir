// pld-run --explore K runs K seeded schedules of the protocol explorer and
// prints every distinct finding once, with the seed that reproduces it;
// --replay SEED reruns exactly that schedule.
//
// A remote load without its wait: a race naming the pld ops, status 1.
// RUN: not pld-run %S/../../../explore/remote-load-without-wait.mlir --ranks 2 --explore 10 > %t.race 2>&1
// RUN: FileCheck %s --check-prefix=RACE --input-file=%t.race
// RACE: schedule 0 (--replay 0): race: rank 1's `pld.tile_remote_load` (pto.tload) at {{.*}}remote-load-without-wait.mlir:20:8 read bytes [0, 256) of rank 0's window (%data (arg0) [0, 0]..[0, 63]), written by rank 0's `pld.tile_store` (pto.tstore) at {{.*}}remote-load-without-wait.mlir:17:3; no signal orders them
// RACE-NEXT: remote-load-without-wait.mlir:20:8:
// RACE-NEXT: %r = "pld.tile_remote_load"
// RACE-NEXT: ^
// RACE: @exchange on 2 ranks: 10 schedules explored (seeds 0 to 9) in {{.*}}: {{[0-9]+}} finding
// The replay of seed 0 finds the same race, and so does a replay later.
// RUN: not pld-run %S/../../../explore/remote-load-without-wait.mlir --ranks 2 --replay 0 | FileCheck %s --check-prefix=REPLAY
// REPLAY: schedule 0 (--replay 0): race: rank 1's `pld.tile_remote_load` (pto.tload) at {{.*}}:20:8 read bytes [0, 256) of rank 0's window
// REPLAY: @exchange on 2 ranks: schedule 0 replayed in
//
// A deadlock is exact, names the waiting op and ends with status 3.
// RUN: sh -c 'pld-run %S/../../../explore/wait-one-credit-too-many.mlir --ranks 3 --explore 5 > %t.dead 2>&1; test $? -eq 3'
// RUN: FileCheck %s --check-prefix=DEADLOCK --input-file=%t.dead
// DEADLOCK: schedule 0 (--replay 0): deadlock: no thread of any rank can run; each live one waits for a signal no rank is left to give
// DEADLOCK-NEXT: rank {{[0-2]}} in @barrier: waits for the i32 cell at rank {{[0-2]}}'s window, byte {{[0-9]+}} (i32 cell {{[0-9]}} of the window) >= 2, which holds 1 (pto.comm_twait at {{.*}}wait-one-credit-too-many.mlir:28:7)
// DEADLOCK: rank 0 waits on %sig (arg0) at [1, 0]
//
// The shipped collectives are clean: status 0. Whole programs (HOST
// builtins and CHIP-dispatched kernels) are explored the same way.
// RUN: pld-run %S/../../../../examples/ring_allreduce.mlir --ranks 4 --explore 20 --check | FileCheck %s --check-prefix=CLEAN
// CLEAN: @ring_allreduce on 4 ranks: 20 schedules explored (seeds 0 to 19) in {{.*}}, {{[0-9]+}} steps each on average: no race, missing fence, mixed notify, shared queue, leak, deadlock or wrong result
// RUN: pld-run %S/../../../../examples/allreduce.mlir --ranks 3 --explore 3 --seed 100 --check | FileCheck %s --check-prefix=PROGRAM
// PROGRAM: @main on 3 devices: 3 schedules explored (seeds 100 to 102) in {{.*}}: no race, missing fence, mixed notify, shared queue, leak, deadlock or wrong result
// A race inside a program's kernel names its bytes as a kernel's finding
// does, by the window buffer and every element it spans.
// RUN: rm -rf %t.split && split-file %s %t.split
// RUN: not pld-run %t.split/program-race.mlir --ranks 2 --explore 3 2>&1 | FileCheck %s --check-prefix=PROGRACE
// PROGRACE: schedule 0 (--replay 0): race: rank 1's `pld.tile_remote_load` (pto.tload) at {{.*}}program-race.mlir:19:8 read bytes [0, 256) of rank 0's window (data [0, 0]..[0, 63]), written by rank 0's `pld.tile_store` (pto.tstore) at {{.*}}program-race.mlir:16:3; no signal orders them
//
// A converted PTO kernel that notifies after a remote store with no fence.
// RUN: not pld-run %S/../../../explore/missing-fence.pto.mlir --ranks 2 --explore 3 | FileCheck %s --check-prefix=FENCE
// FENCE: schedule 0 (--replay 0): missing fence: rank {{[01]}}'s `pto.comm_tnotify` at {{.*}}missing-fence.pto.mlir:81:5 follows rank {{[01]}}'s `pto.tstore` at {{.*}}missing-fence.pto.mlir:55:5, which wrote bytes [0, 256) of rank {{[01]}}'s window (arg0 [0, 0]..[0, 63]), with no fence (`pld.system_fence`, `pto.fence_barrier_all`) in between
//
// Options that do not go with --explore are a malformed command line
// (status 2, as --explore with --replay; they had status 1), named as
// given (--per-rank was called --stats).
// RUN: sh -c 'pld-run %S/../../../../examples/barrier.mlir --explore 3 --trace %t.json > /dev/null 2>&1; test $? -eq 2'
// RUN: not pld-run %S/../../../../examples/barrier.mlir --explore 3 --per-rank 2>&1 | FileCheck %s --check-prefix=PER-RANK
// PER-RANK: pld-run: error: --per-rank does not apply to --explore
// RUN: not pld-run %S/../../../../examples/barrier.mlir --explore 3 --trace %t.json 2>&1 | FileCheck %s --check-prefix=TRACE
// TRACE: pld-run: error: --trace does not apply to --explore (schedules run one thread at a time: they are not timed or traced)
// RUN: not pld-run %S/../../../../examples/barrier.mlir --replay 3 --trace %t.json 2>&1 | FileCheck %s --check-prefix=TRACE-REPLAY
// TRACE-REPLAY: pld-run: error: --trace does not apply to --replay (schedules run one thread at a time: they are not timed or traced)
// RUN: not pld-run %S/../../../../examples/barrier.mlir --explore 3 --iters 2 --stats 2>&1 | FileCheck %s --check-prefix=BOTH
// BOTH: pld-run: error: --iters/--warmup, --stats do not apply to --explore
//
// --output-dir goes with --replay, which writes its one schedule's buffers
// (a hand-written kernel's numbers could be read from plain runs only,
// whose order the OS picks: explore25 LOW 2); a ring's sum is the same
// whatever the schedule.
// RUN: not pld-run %S/../../../../examples/barrier.mlir --explore 3 --output-dir %t.out 2>&1 | FileCheck %s --check-prefix=OUTDIR
// OUTDIR: pld-run: error: --output-dir does not apply to --explore (schedules run one thread at a time: they are not timed or traced; --replay S --output-dir writes the buffers of schedule S)
// RUN: rm -rf %t.replay %t.plain
// RUN: pld-run %S/../../../../examples/ring_allreduce.mlir --ranks 4 --replay 3 --output-dir %t.replay
// RUN: pld-run %S/../../../../examples/ring_allreduce.mlir --ranks 4 --output-dir %t.plain
// RUN: cmp %t.replay/data.rank2.npy %t.plain/data.rank2.npy
// RUN: rm -rf %t.replay-program && pld-run %S/../../../../examples/allreduce.mlir --ranks 4 --replay 1 --output-dir %t.replay-program
// RUN: rm -rf %t.plain-program && pld-run %S/../../../../examples/allreduce.mlir --ranks 4 --output-dir %t.plain-program
// RUN: cmp %t.replay-program/data_buf.rank3.npy %t.plain-program/data_buf.rank3.npy
// No goldens under --replay, --check or not, for a program as for a kernel
// (a program's replay wrote them: explore27 L4):
// RUN: rm -rf %t.replay-check && pld-run %S/../../../../examples/allreduce.mlir --ranks 4 --replay 1 --check --output-dir %t.replay-check
// RUN: ls %t.replay-check | FileCheck %s --check-prefix=NOGOLDEN
// NOGOLDEN: data_buf.rank0.npy
// NOGOLDEN-NOT: golden
// RUN: not pld-run %S/../../../../examples/barrier.mlir --seed 3 2>&1 | FileCheck %s --check-prefix=SEED
// SEED: pld-run: error: --seed sets the first schedule of --explore; give --explore K
// RUN: not pld-run %S/../../../../examples/barrier.mlir --replay 3 --seed 4 2>&1 | FileCheck %s --check-prefix=REPLAYSEED
// REPLAYSEED: pld-run: error: --replay names its schedule; --seed is for --explore
// No schedules is a malformed command line (status 2), as --iters 0 is.
// RUN: not pld-run %S/../../../../examples/barrier.mlir --explore 0 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: sh -c 'pld-run %S/../../../../examples/barrier.mlir --explore 0 > /dev/null 2>&1; test $? -eq 2'
// ZERO: error: invalid value '0' for '--explore <K>': 0 is not in 1..18446744073709551615
// The seeds do not wrap around past the last one; up to it they run.
// RUN: not pld-run %S/../../../../examples/barrier.mlir --explore 3 --seed 18446744073709551614 2>&1 | FileCheck %s --check-prefix=WRAP
// WRAP: pld-run: error: --seed 18446744073709551614 with --explore 3 runs past the last seed, 18446744073709551615
// RUN: pld-run %S/../../../../examples/barrier.mlir --ranks 2 --explore 2 --seed 18446744073709551614 | FileCheck %s --check-prefix=LAST
// LAST: 2 schedules explored (seeds 18446744073709551614 to 18446744073709551615)
// RUN: not pld-run %S/../../../explore/remote-load-without-wait.mlir --ranks 2 --explore 3 --check 2>&1 | FileCheck %s --check-prefix=CHECK0
// CHECK0: remote-load-without-wait.mlir:6:1: error: --check cannot compare @exchange: @exchange has 0 collectives; --check needs exactly one
// PLD_EXPLORE_THREADS is read by the rule of every yes-or-no variable;
// yes runs the same schedules on OS threads.
// RUN: not env PLD_EXPLORE_THREADS=2 pld-run %S/../../../../examples/barrier.mlir --ranks 2 --explore 2 2>&1 | FileCheck %s --check-prefix=THREADSBAD
// THREADSBAD: pld-run: error: PLD_EXPLORE_THREADS=2: say 1, true, yes or on to explore on OS threads, or 0, false, no, off or nothing to explore on fibers
// A run that would not read it refuses it too, as it refuses the others:
// RUN: not env PLD_EXPLORE_THREADS=2 pld-run %S/../../../../examples/barrier.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=THREADSBAD
// RUN: not env PLD_MPI_SHOW_NODES=true2 pld-run %S/../../../../examples/barrier.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=SHOWBAD
// SHOWBAD: pld-run: error: PLD_MPI_SHOW_NODES=true2: say 1, true, yes or on to show the nodes
// RUN: env PLD_EXPLORE_THREADS=yes pld-run %S/../../../../examples/barrier.mlir --ranks 2 --explore 2 | FileCheck %s --check-prefix=THREADSYES
// THREADSYES: 2 schedules explored
// RUN: split-file %s %t.dir
// RUN: not pld-run %t.dir/nosig.mlir 2>&1 | FileCheck %s --check-prefix=NOSIG
// NOSIG: pld-run: error: {{.*}}nosig.mlir: @k has no pld.signature (the tensor types it was converted from); convert it with this version of pld-to-pto

//--- nosig.mlir
func.func @k(%p: !pto.ptr<i32>) attributes {pto.kernel_kind = #pto.kernel_kind<"vector">} {
  return
}

//--- program-race.mlir
// A HOST program whose CHIP step calls a kernel that reads its peer's row
// before it waits for the peer's signal (the race above).
!data = tensor<1x64xf32, #pld.dist>
!sig = tensor<2x1xi32, #pld.dist>
func.func @exchange(%data: !data, %sig: !sig, %out: !data) attributes {pld.kind = #pld.func_kind<"incore">} {
  %ctx = "pld.system_get_comm_ctx"(%data) : (!data) -> !pld.ctx
  %me32 = "pld.system_rank"(%ctx) : (!pld.ctx) -> i32
  %me = arith.index_cast %me32 : i32 to index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %minus = arith.constant -1 : i32
  %peer = arith.subi %c1, %me : index
  %peer32 = arith.index_cast %peer : index to i32
  %t = "pld.tile_load"(%out, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 0>} : (!data, index, index) -> tensor<1x64xf32, #pld.tile>
  "pld.tile_store"(%t, %data, %c0, %c0) : (tensor<1x64xf32, #pld.tile>, !data, index, index) -> ()
  "pld.system_fence"() : () -> ()
  "pld.system_notify"(%sig, %peer, %me, %c0, %one) {op = #pld.notify_op<"atomic_add">} : (!sig, index, index, index, i32) -> ()
  %r = "pld.tile_remote_load"(%data, %peer32, %c0, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (!data, i32, index, index) -> tensor<1x64xf32, #pld.tile>
  "pld.system_wait"(%sig, %peer, %c0, %one) {cmp = #pld.wait_cmp<"ge">} : (!sig, index, index, i32) -> ()
  "pld.tile_store"(%r, %out, %c0, %c0) : (tensor<1x64xf32, #pld.tile>, !data, index, index) -> ()
  "pld.system_notify"(%sig, %me, %peer, %c0, %minus) {op = #pld.notify_op<"atomic_add">} : (!sig, index, index, index, i32) -> ()
  return
}
func.func @step(%data: !data, %sig: !sig, %out: !data) attributes {pld.kind = #pld.func_kind<"chip">} {
  func.call @exchange(%data, %sig, %out) : (!data, !sig, !data) -> ()
  return
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b256 = arith.constant 256 : i64
  %b8 = arith.constant 8 : i64
  %ws = "pld.system_world_size"() : () -> i64
  %n = arith.index_cast %ws : i64 to index
  %db = "pld.tensor_alloc_window_buffer"(%b256) {name = "data"} : (i64) -> !pld.ptr
  %sb = "pld.tensor_alloc_window_buffer"(%b8) {name = "sig"} : (i64) -> !pld.ptr
  %ob = "pld.tensor_alloc_window_buffer"(%b256) {name = "out"} : (i64) -> !pld.ptr
  %d = "pld.tensor_window"(%db) : (!pld.ptr) -> !data
  %s = "pld.tensor_window"(%sb) : (!pld.ptr) -> !sig
  %o = "pld.tensor_window"(%ob) : (!pld.ptr) -> !data
  scf.for %r = %c0 to %n step %c1 {
    "pld.dispatch"(%r) ({
      func.call @step(%d, %s, %o) : (!data, !sig, !data) -> ()
      gpu.yield
    }) : (index) -> ()
  }
  %x = "pld.tensor_allreduce"(%o) {op = #pld.reduce_op<"sum">} : (!data) -> !data
  return
}
