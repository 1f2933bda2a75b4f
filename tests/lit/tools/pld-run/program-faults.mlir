// Faults pld-run reports for a whole program, named as for one kernel:
// a deadlock (status 3) and credit leaks (status 1) by the window buffer
// holding the cell, its [row, col] and the collective whose signal it is,
// with its location; a wrong result (status 1) by each wrong rank's count
// of wrong elements and the first ones, [row, col] with expected and
// actual value; and a launch the builtin entry would refuse (status 1),
// before anything runs.
//
// --entry on a module without a HOST orchestrator says so, not "(those are: )".
// RUN: not pld-run %S/../../../../examples/reduce.mlir --ranks 2 --entry nope 2>&1 | FileCheck %s --check-prefix=NOHOST
// NOHOST: pld-run: error: {{.*}}reduce.mlir: --entry @nope: the program has no HOST orchestrator (--entry names the HOST orchestrator to run; --kernel names a kernel)
// RUN: split-file %s %t
// RUN: not pld-run %t/deadlock.mlir --ranks 3 --deadline 0.2 2>&1 | FileCheck %s --check-prefix=DEADLOCK
// RUN: sh -c 'pld-run %t/deadlock.mlir --ranks 3 --deadline 0.2 > /dev/null 2>&1; test $? -eq 3'
// RUN: not pld-run %t/leak.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=LEAK
// The same kernel run alone names its parameter the same way:
// RUN: not pld-run %t/leak.mlir --kernel stray --ranks 2 2>&1 | FileCheck %s --check-prefix=KERNEL-LEAK
// RUN: not pld-run %t/wrong.mlir --ranks 2 --check 2>&1 | FileCheck %s --check-prefix=WRONG
// Under --explore a wrong result says what a plain run says: where the call
// is, the first wrong elements and the note on the kernel's own store (it
// said only "at wrong.mlir:13:3 on rank 0: 8 wrong elements"); so does
// the kernel explored alone.
// RUN: not pld-run %t/wrong.mlir --ranks 2 --check --explore 2 2>&1 | FileCheck %s --check-prefix=XWRONG
// RUN: not pld-run %t/wrong.mlir --kernel corrupt --ranks 2 --check --explore 1 2>&1 | FileCheck %s --check-prefix=XKWRONG
// The golden of the wrong program is what the kernel computes without its
// corrupting store:
// RUN: sed '/pld.tile_store/d' %t/wrong.mlir > %t/right.mlir
// RUN: rm -rf %t.right %t.wrong
// RUN: pld-run %t/right.mlir --ranks 2 --check --output-dir %t.right | FileCheck %s --check-prefix=RIGHT
// RUN: not pld-run %t/wrong.mlir --ranks 2 --check --output-dir %t.wrong > /dev/null
// RUN: cmp %t.right/data.rank0.npy %t.wrong/data.rank0.golden.npy
// RUN: cmp %t.right/data.rank1.npy %t.wrong/data.rank1.golden.npy
// RUN: not cmp -s %t.wrong/data.rank0.npy %t.wrong/data.rank0.golden.npy
// RUN: not pld-run %t/cores.mlir --ranks 4 2>&1 | FileCheck %s --check-prefix=CORES
// RUN: sh -c 'pld-run %t/cores.mlir --ranks 4 > /dev/null 2>&1; test $? -eq 1'
// A HOST ring whose target (60 elements) the rank count (7) does not
// divide is refused at the collective before the run (its entry stopped
// every rank with a fatal error after the run began, 14 times).
// RUN: not pld-run %t/ring.mlir --ranks 7 2>&1 | FileCheck %s --check-prefix=RING
// RING: ring.mlir:18:8: error: pld.tensor_allreduce with mode = "ring" needs a target of a positive multiple of the ranks' elements (a segment per rank): 'x_buf' holds 60 on 7 ranks
// RING-NOT: fatal
// RUN: pld-run %t/ring.mlir --ranks 6 --check | FileCheck %s --check-prefix=RING6
// RING6: pld.tensor_allreduce 6 240 60 f32 sum - {{.*}} 0{{$}}
// A kernel collective whose target and signal are views of two comm
// domains is refused at the collective (the target was addressed through
// the signal's domain's windows: loads at address 0x0, then a deadlock).
// RUN: not pld-run %t/mixed.mlir --ranks 4 2>&1 | FileCheck %s --check-prefix=MIXED
// MIXED: mixed.mlir:6:8: error: pld.tensor_allreduce takes views of different comm domains (%x of 'comm_d{{[0-9]}}', %s of 'comm_d{{[0-9]}}'); a collective runs in one
// A kernel given a view of a hand-written domain on a device that is not
// its member is refused at the call, before the run (the device's kernel
// ran on addresses of no window: a segfault, status 139).
// RUN: not pld-run %t/outsider.mlir --ranks 4 2>&1 | FileCheck %s --check-prefix=OUTSIDER
// RUN: not pld-run %t/outsider.mlir --ranks 4 --explore 2 2>&1 | FileCheck %s --check-prefix=OUTSIDER
// OUTSIDER: outsider.mlir:8:3: error: 'func.call' passes a view of 'pair_buf' of comm domain 'pair' (devices 0, 1) to @k on device 2, which is not a member: it holds no part of that window

// Rank 0 skips the barrier; ranks 1 and 2 wait for its credit in row 0 of
// their 'flags'.
// DEADLOCK: pld-run: deadlock: every live rank has waited for more than 200.0ms
// Each blocked device is named by the kernel that waits, with its call and
// the pld.dispatch that ran it (one kernel may run from several; not the HOST
// orchestrator), the waiting op and its location, as for one kernel.
// DEADLOCK-NEXT: rank 1 in @divergent (called at {{.*}}deadlock.mlir:15:3 in @step, dispatched at {{.*}}deadlock.mlir:27:5): waits for the i32 cell at rank 1's window, byte 0 (i32 cell 0 of the window) >= 1, which holds 0 (pto.comm_twait at {{.*}}deadlock.mlir:10:10)
// DEADLOCK-NEXT: rank 2 in @divergent (called at {{.*}}deadlock.mlir:15:3 in @step, dispatched at {{.*}}deadlock.mlir:27:5): waits for the i32 cell at rank 2's window, byte 0 (i32 cell 0 of the window) >= 1, which holds 0 (pto.comm_twait at {{.*}}deadlock.mlir:10:10)
// DEADLOCK-NEXT: finished: rank 0
// DEADLOCK-NEXT: rank 1 waits on flags at [0, 0], the signal of pld.tensor_barrier in @divergent at {{.*}}deadlock.mlir:10:10
// DEADLOCK-NEXT: rank 2 waits on flags at [0, 0], the signal of pld.tensor_barrier in @divergent at {{.*}}deadlock.mlir:10:10

// After the barrier each rank adds a stray credit to row `me` of its
// peer's signal: rank 1's lands in rank 0's [1, 0], rank 0's in rank 1's
// [0, 0].
// LEAK: pld-run: credit leak in flags at [1, 0]: rank 0's cell holds 1 (should be back to 0); flags is the signal of pld.tensor_barrier in @stray at {{.*}}leak.mlir:4:8
// LEAK-NEXT: pld-run: credit leak in flags at [0, 0]: rank 1's cell holds 1 (should be back to 0); flags is the signal of pld.tensor_barrier in @stray at {{.*}}leak.mlir:4:8
// KERNEL-LEAK: pld-run: credit leak in %sig (arg0) at [1, 0]: rank 0's cell holds 1 (should be back to 0); %sig (arg0) is the signal of pld.tensor_barrier at {{.*}}leak.mlir:4:8
// KERNEL-LEAK-NEXT: pld-run: credit leak in %sig (arg0) at [0, 0]: rank 1's cell holds 1 (should be back to 0); %sig (arg0) is the signal of pld.tensor_barrier at {{.*}}leak.mlir:4:8

// The store zeroes [2, 8] to [2, 15] of the allreduced [4, 16] on each
// rank: 8 wrong elements per rank, 16 in all. With the ramp input 'data'
// holds -2 and 0.5 at [2, 8] on ranks 0 and 1 (sum -1.5), 5 and -3.5 at
// [2, 9] (sum 1.5). A sum of f32 may be off by 2^-23 per rank times the
// sum of the magnitudes: 2 * 2.5 / 2^23 = 6.0e-7 at [2, 8], 2 * 8.5 / 2^23
// = 2.0e-6 at [2, 9].
// WRONG: pld.tensor_allreduce in @corrupt (called at {{.*}}wrong.mlir:13:3): f32 x 64 (sum, mesh), {{.*}}: WRONG on ranks [0, 1]
// XWRONG: schedule 0 (--replay 0): wrong result of pld.tensor_allreduce in @corrupt (called at {{.*}}wrong.mlir:13:3) on rank 0: 8 wrong elements; first: [2, 8] expected -1.5 ± 6.0e-7, got 0; [2, 9] expected 1.5 ± 2.0e-6, got 0; {{.*}}; the kernel also writes the target (pld.tile_store at {{.*}}wrong.mlir:9:3): the difference may be its own
// XWRONG-NEXT: schedule 0 (--replay 0): wrong result of pld.tensor_allreduce in @corrupt (called at {{.*}}wrong.mlir:13:3) on rank 1: 8 wrong elements; first: [2, 8]
// XKWRONG: schedule 0 (--replay 0): wrong result on rank 0: 8 wrong elements; first: [2, 8] expected -1.5 ± 6.0e-7, got 0;
// XKWRONG-NEXT: note: @corrupt also writes the target of its pld.tensor_allreduce (pld.tile_store at {{.*}}wrong.mlir:9:3): the difference may be the kernel's own, not the collective's
// XKWRONG-NEXT: schedule 0 (--replay 0): wrong result on rank 1: 8 wrong elements; first: [2, 8]
// WRONG-NEXT: rank 0: 8 wrong elements; first: [2, 8] expected -1.5 ± 6.0e-7, got 0; [2, 9] expected 1.5 ± 2.0e-6, got 0; [2, 10] expected {{[-0-9.]+ ± [0-9.e-]+}}, got 0; [2, 11] expected {{[-0-9.]+ ± [0-9.e-]+}}, got 0; [2, 12] expected {{[-0-9.]+ ± [0-9.e-]+}}, got 0{{$}}
// WRONG-NEXT: rank 1: 8 wrong elements; first: [2, 8] expected -1.5 ± 6.0e-7, got 0; [2, 9] expected 1.5 ± 2.0e-6, got 0;
// WRONG: {{^ +# +0 pld.tensor_allreduce +2 +256 +64 +f32 +sum +- +[0-9.]+ +[0-9.]+ +[0-9.]+ +16$}}
// RIGHT: pld.tensor_allreduce in @corrupt {{.*}}: ok on 2 ranks
// RIGHT: {{^ +# +0 pld.tensor_allreduce +2 +256 +64 +f32 +sum +- +[0-9.]+ +[0-9.]+ +[0-9.]+ +0$}}

// core_num is computed when the program runs (world size squared, times
// 2048: 32768 on 4 ranks), one above what the builtin entry takes.
// CORES: {{.*}}cores.mlir:35:8: error: pld.tensor_all_to_all_v has core_num = 32768; the builtin entry takes 1 to 32767
// CORES-NOT: finished

//--- deadlock.mlir
// Rank 0 skips the barrier its peers enter.
!sig = tensor<4x1xi32, #pld.dist>
func.func @divergent(%sig: !sig) attributes {pld.kind = #pld.func_kind<"incore">} {
  %ctx = "pld.system_get_comm_ctx"(%sig) : (!sig) -> !pld.ctx
  %me = "pld.system_rank"(%ctx) : (!pld.ctx) -> i32
  %c0 = arith.constant 0 : i32
  %skip = arith.cmpi eq, %me, %c0 : i32
  scf.if %skip {
  } else {
    %r = "pld.tensor_barrier"(%sig) : (!sig) -> !sig
  }
  return
}
func.func @step(%sig: !sig) attributes {pld.kind = #pld.func_kind<"chip">} {
  func.call @divergent(%sig) : (!sig) -> ()
  return
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bytes = arith.constant 16 : i64
  %ws = "pld.system_world_size"() : () -> i64
  %n = arith.index_cast %ws : i64 to index
  %b = "pld.tensor_alloc_window_buffer"(%bytes) {name = "flags"} : (i64) -> !pld.ptr
  %sig = "pld.tensor_window"(%b) : (!pld.ptr) -> !sig
  scf.for %r = %c0 to %n step %c1 {
    "pld.dispatch"(%r) ({
      func.call @step(%sig) : (!sig) -> ()
      gpu.yield
    }) : (index) -> ()
  }
  return
}

//--- leak.mlir
// A barrier, then a stray credit in the peer's signal.
!sig = tensor<2x1xi32, #pld.dist>
func.func @stray(%sig: !sig) attributes {pld.kind = #pld.func_kind<"incore">} {
  %s = "pld.tensor_barrier"(%sig) : (!sig) -> !sig
  %ctx = "pld.system_get_comm_ctx"(%s) : (!sig) -> !pld.ctx
  %me32 = "pld.system_rank"(%ctx) : (!pld.ctx) -> i32
  %me = arith.index_cast %me32 : i32 to index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %peer = arith.subi %c1, %me : index
  %one = arith.constant 1 : i32
  "pld.system_notify"(%s, %peer, %me, %c0, %one) {op = #pld.notify_op<"atomic_add">} : (!sig, index, index, index, i32) -> ()
  return
}
func.func @step(%sig: !sig) attributes {pld.kind = #pld.func_kind<"chip">} {
  func.call @stray(%sig) : (!sig) -> ()
  return
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bytes = arith.constant 8 : i64
  %ws = "pld.system_world_size"() : () -> i64
  %n = arith.index_cast %ws : i64 to index
  %b = "pld.tensor_alloc_window_buffer"(%bytes) {name = "flags"} : (i64) -> !pld.ptr
  %sig = "pld.tensor_window"(%b) : (!pld.ptr) -> !sig
  scf.for %r = %c0 to %n step %c1 {
    "pld.dispatch"(%r) ({
      func.call @step(%sig) : (!sig) -> ()
      gpu.yield
    }) : (index) -> ()
  }
  return
}

//--- wrong.mlir
// An allreduce, then a store of an all-zero tile over 8 of its elements.
!data = tensor<4x16xf32, #pld.dist>
!sig = tensor<2x1xi32, #pld.dist>
func.func @corrupt(%data: !data, %sig: !sig) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">} : (!data, !sig) -> !data
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %t = "pld.tile_create"() : () -> tensor<1x8xf32, #pld.tile>
  "pld.tile_store"(%t, %r, %c2, %c8) : (tensor<1x8xf32, #pld.tile>, !data, index, index) -> ()
  return
}
func.func @step(%data: !data, %sig: !sig) attributes {pld.kind = #pld.func_kind<"chip">} {
  func.call @corrupt(%data, %sig) : (!data, !sig) -> ()
  return
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bytes = arith.constant 256 : i64
  %sig_bytes = arith.constant 8 : i64
  %ws = "pld.system_world_size"() : () -> i64
  %n = arith.index_cast %ws : i64 to index
  %b = "pld.tensor_alloc_window_buffer"(%bytes) {name = "data"} : (i64) -> !pld.ptr
  %s = "pld.tensor_alloc_window_buffer"(%sig_bytes) {name = "flags"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%b) : (!pld.ptr) -> !data
  %sig = "pld.tensor_window"(%s) : (!pld.ptr) -> !sig
  scf.for %r = %c0 to %n step %c1 {
    "pld.dispatch"(%r) ({
      func.call @step(%data, %sig) : (!data, !sig) -> ()
      gpu.yield
    }) : (index) -> ()
  }
  return
}

//--- cores.mlir
!rows = tensor<12x8xf32, #pld.dist>
!sig = tensor<4x8xi32, #pld.dist>
// The window buffers must reach a CHIP orchestrator dispatch; this one
// does nothing with them.
func.func @chip(%send: !rows, %recv: !rows, %sig: !sig, %sc: tensor<4xi32, #pld.dist>, %rc: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %rb = arith.constant 384 : i64
  %gb = arith.constant 128 : i64
  %cb = arith.constant 16 : i64
  %ws = "pld.system_world_size"() : () -> i64
  %devices = arith.index_cast %ws : i64 to index
  %send_buf = "pld.tensor_alloc_window_buffer"(%rb) {name = "send"} : (i64) -> !pld.ptr
  %recv_buf = "pld.tensor_alloc_window_buffer"(%rb) {name = "recv"} : (i64) -> !pld.ptr
  %sig_buf = "pld.tensor_alloc_window_buffer"(%gb) {name = "signal"} : (i64) -> !pld.ptr
  %sc_buf = "pld.tensor_alloc_window_buffer"(%cb) {name = "send_counts"} : (i64) -> !pld.ptr
  %rc_buf = "pld.tensor_alloc_window_buffer"(%cb) {name = "recv_counts"} : (i64) -> !pld.ptr
  %send = "pld.tensor_window"(%send_buf) : (!pld.ptr) -> !rows
  %recv = "pld.tensor_window"(%recv_buf) : (!pld.ptr) -> !rows
  %sig = "pld.tensor_window"(%sig_buf) : (!pld.ptr) -> !sig
  %sc = "pld.tensor_window"(%sc_buf) : (!pld.ptr) -> tensor<4xi32, #pld.dist>
  %rc = "pld.tensor_window"(%rc_buf) : (!pld.ptr) -> tensor<4x1xi32, #pld.dist>
  %c2048 = arith.constant 2048 : index
  %square = arith.muli %devices, %devices : index
  %core = arith.muli %square, %c2048 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %r = %c0 to %devices step %c1 {
    "pld.dispatch"(%r) ({
      func.call @chip(%send, %recv, %sig, %sc, %rc) : (!rows, !rows, !sig, tensor<4xi32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> ()
      gpu.yield
    }) : (index) -> ()
  }
  %d = "pld.tensor_all_to_all_v"(%send, %recv, %sig, %sc, %rc, %core) : (!rows, !rows, !sig, tensor<4xi32, #pld.dist>, tensor<4x1xi32, #pld.dist>, index) -> !rows
  return
}

//--- outsider.mlir
!row = tensor<1x64xf32, #pld.dist>
!s2 = tensor<2x1xi32, #pld.dist>
func.func @k(%x: !row, %s: !s2) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%x, %s) {op = #pld.reduce_op<"sum">} : (!row, !s2) -> !row
  return
}
func.func @step(%x: !row, %s: !s2) attributes {pld.kind = #pld.func_kind<"chip">} {
  func.call @k(%x, %s) : (!row, !s2) -> ()
  return
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  "pld.comm_domain"() ({
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %b = arith.constant 256 : i64
    %b8 = arith.constant 8 : i64
    %buf = "pld.tensor_alloc_window_buffer"(%b) {name = "pair_buf"} : (i64) -> !pld.ptr
    %sbuf = "pld.tensor_alloc_window_buffer"(%b8) {name = "pair_sig"} : (i64) -> !pld.ptr
    %x = "pld.tensor_window"(%buf) : (!pld.ptr) -> !row
    %s = "pld.tensor_window"(%sbuf) : (!pld.ptr) -> !s2
    "pld.dispatch"(%c0) ({
      func.call @step(%x, %s) : (!row, !s2) -> ()
      gpu.yield
    }) : (index) -> ()
    "pld.dispatch"(%c2) ({
      func.call @step(%x, %s) : (!row, !s2) -> ()
      gpu.yield
    }) : (index) -> ()
    gpu.yield
  }) {name = "pair", devices = array<i64: 0, 1>, slots = ["pair_buf", "pair_sig"]} : () -> ()
  return
}

//--- ring.mlir
// A HOST ring allreduce over every device, its signal view
// [2 * ws - 1, ws] carved out of a buffer sized for up to 8 devices.
!row = tensor<1x60xf32, #pld.dist>
!rsig = tensor<?x?xi32, #pld.dist>
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %b = arith.constant 240 : i64
  %bs = arith.constant 480 : i64
  %one = arith.constant 1 : index
  %two = arith.constant 2 : index
  %ws = "pld.system_world_size"() : () -> i64
  %n = arith.index_cast %ws : i64 to index
  %n2 = arith.muli %n, %two : index
  %rows = arith.subi %n2, %one : index
  %xb = "pld.tensor_alloc_window_buffer"(%b) {name = "x_buf"} : (i64) -> !pld.ptr
  %sb = "pld.tensor_alloc_window_buffer"(%bs) {name = "ring_sig"} : (i64) -> !pld.ptr
  %x = "pld.tensor_window"(%xb) : (!pld.ptr) -> !row
  %s = "pld.tensor_window"(%sb, %rows, %n) : (!pld.ptr, index, index) -> !rsig
  %r = "pld.tensor_allreduce"(%x, %s) {op = #pld.reduce_op<"sum">, mode = "ring"} : (!row, !rsig) -> !row
  return
}

//--- mixed.mlir
// The target is dispatched to devices 0 and 1 only, the signal to every
// device: pld-run makes them two comm domains.
!row = tensor<1x64xf32, #pld.dist>
!sig = tensor<4x1xi32, #pld.dist>
func.func @k(%x: !row, %s: !sig) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%x, %s) {op = #pld.reduce_op<"sum">} : (!row, !sig) -> !row
  return
}
func.func @pair_step(%x: !row, %s: !sig) attributes {pld.kind = #pld.func_kind<"chip">} {
  func.call @k(%x, %s) : (!row, !sig) -> ()
  return
}
func.func @all_step(%s: !sig) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %b = arith.constant 256 : i64
  %b16 = arith.constant 16 : i64
  %ws = "pld.system_world_size"() : () -> i64
  %n = arith.index_cast %ws : i64 to index
  %xb = "pld.tensor_alloc_window_buffer"(%b) {name = "pair_x"} : (i64) -> !pld.ptr
  %sb = "pld.tensor_alloc_window_buffer"(%b16) {name = "all_sig"} : (i64) -> !pld.ptr
  %x = "pld.tensor_window"(%xb) : (!pld.ptr) -> !row
  %s = "pld.tensor_window"(%sb) : (!pld.ptr) -> !sig
  scf.for %d = %c0 to %n step %c1 {
    "pld.dispatch"(%d) ({
      func.call @all_step(%s) : (!sig) -> ()
      gpu.yield
    }) : (index) -> ()
  }
  scf.for %d = %c0 to %c2 step %c1 {
    "pld.dispatch"(%d) ({
      func.call @pair_step(%x, %s) : (!row, !sig) -> ()
      gpu.yield
    }) : (index) -> ()
  }
  return
}
