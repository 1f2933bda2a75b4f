// pld-run on the CHIP rail: the shipped example's pipeline (stage kernel,
// all_to_all_v, consume kernel) runs as one CHIP orchestrator per device:
// one L3 -> L2 round trip each, every call checked against the golden. A
// run on more ranks than the signal has rows is refused before it starts,
// and an operand that is not contiguous when the program runs is refused
// before any rank starts the exchange.
//
// RUN: pld-run %S/../../../../examples/chip_all_to_all_v.mlir --ranks 2 --check --stats --per-rank | FileCheck %s
// RUN: pld-run %S/../../../../examples/chip_all_to_all_v.mlir --ranks 2 --stats | FileCheck %s --check-prefix=ALL
// ALL: device  round trips
// ALL-NEXT: all       1 each
// RUN: not pld-run %S/../../../../examples/chip_all_to_all_v.mlir --ranks 4 2>&1 | FileCheck %s --check-prefix=RANKS
// With --check, --output-dir writes each checked call's golden next to the
// result; the last call on `recv` (the consume kernel's allreduce) is right:
// RUN: rm -rf %t.out && pld-run %S/../../../../examples/chip_all_to_all_v.mlir --ranks 2 --check --output-dir %t.out > /dev/null
// RUN: cmp %t.out/recv.rank0.npy %t.out/recv.rank0.golden.npy
// RUN: cmp %t.out/recv.rank1.npy %t.out/recv.rank1.golden.npy
// RUN: split-file %s %t
// RUN: not pld-run %t/strided.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=STRIDED
// A dense slice (the first rows of a wider window) is a window tensor at
// an offset, and runs:
// RUN: pld-run %t/rowslice.mlir --ranks 2 --check | FileCheck %s --check-prefix=ROWS
// An exchange in an scf.while loop, three times: every call checked.
// RUN: pld-run %t/while.mlir --ranks 2 --check | FileCheck %s --check-prefix=WHILE
// Launches the entry would refuse at run time, and two operands viewing
// one buffer, are refused before anything runs:
// RUN: not pld-run %t/wide.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=WIDE
// RUN: not pld-run %t/alias.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=ALIAS
// A HOST all_to_all_v whose run-time core_num launches more blocks than
// its signal has lanes:
// RUN: not pld-run %t/lanes.mlir --ranks 4 2>&1 | FileCheck %s --check-prefix=LANES

// CHECK: @main on 2 devices: 3 collective calls
// CHECK-NEXT: pld.tensor_allreduce in @stage {{.*}}: f32 x 128 (sum, mesh), {{.*}}: ok on 2 ranks
// CHECK-NEXT: pld.tensor_all_to_all_v at {{.*}}chip_all_to_all_v.mlir:39:15: f32 x 128, {{.*}}: ok on 2 ranks
// CHECK-NEXT: pld.tensor_allreduce in @consume {{.*}}: f32 x 128 (max, mesh), {{.*}}: ok on 2 ranks
// The nccl-tests summary: one row per call, no wrong element.
// CHECK-NEXT: collective ranks size count type redop root time algbw busbw #wrong
// CHECK-NEXT: (B) (elements) (us) (GB/s) (GB/s)
// CHECK-NEXT: # 0 pld.tensor_allreduce 2 512 128 f32 sum - {{[0-9.]+}} {{[0-9.]+}} {{[0-9.]+}} 0
// CHECK-NEXT: # 1 pld.tensor_all_to_all_v 2 512 128 f32 none - {{[0-9.]+}} {{[0-9.]+}} {{[0-9.]+}} 0
// CHECK-NEXT: # 2 pld.tensor_allreduce 2 512 128 f32 max - {{[0-9.]+}} {{[0-9.]+}} {{[0-9.]+}} 0
// CHECK-NEXT: device  round trips
// CHECK-NEXT: {{^ +}}0            1
// CHECK-NEXT: {{^ +}}1            1

// RANKS: {{.*}}chip_all_to_all_v.mlir:39:15: error: the signal of pld.tensor_all_to_all_v (signal) is [2, 4]; on 4 ranks it needs one row per rank, [4, L], with a lane (L) for each block it launches

// STRIDED: {{.*}}strided.mlir:10:15: error: 'func.call' passes the tensor.extract_slice at {{.*}}strided.mlir:28:11 (offsets [0, 0], sizes [8, 16], strides [1, 1] of a [8, 32] tensor, which is not contiguous), as the input of @__builtin_all_to_all_v__fp32 (the CHIP rail's pld.tensor_all_to_all_v), whose operands must be contiguous (require_contiguous_operands); refused before any rank starts the exchange
// STRIDED-NOT: finished

// ROWS: pld.tensor_all_to_all_v at {{.*}}rowslice.mlir:{{.*}}: ok on 2 ranks

// WHILE: @main on 2 devices: 3 collective calls
// WHILE-COUNT-3: pld.tensor_all_to_all_v at {{.*}}while.mlir:10:10: f32 x 128, {{.*}}: ok on 2 ranks

// WIDE: {{.*}}wide.mlir:4:8: error: pld.tensor_all_to_all_v launches 50 AIV blocks that must start together, but the device has 48 AIV cores (pld.aiv_core_count); lower its core_num
// LANES: {{.*}}lanes.mlir:{{[0-9]+}}:8: error: the signal of pld.tensor_all_to_all_v (signal) has 8 lanes per rank, fewer than the 16 blocks it launches (core_num = 16 on 4 ranks)
// ALIAS: {{.*}}alias.mlir:3:8: error: pld.tensor_all_to_all_v takes two views of one window buffer ('send' and 'send' overlap); its operands must be distinct buffers

//--- strided.mlir
!rows = tensor<8x16xf32, #pld.dist>
!signal = tensor<2x1xi32, #pld.dist>
!send_counts = tensor<2xi32, #pld.dist>
!recv_counts = tensor<2x1xi32, #pld.dist>
// The CHIP rail cannot see at compile time where a parameter's tensor
// comes from: the host passes a column slice of a wider window (and the
// window itself, which puts its buffer in the pipeline's comm domain).
func.func @pipeline(%wide: tensor<8x32xf32, #pld.dist>, %send: !rows, %recv: !rows, %signal: !signal, %send_counts: !send_counts, %recv_counts: !recv_counts)
    attributes {pld.kind = #pld.func_kind<"chip">} {
  %received = "pld.tensor_all_to_all_v"(%send, %recv, %signal, %send_counts, %recv_counts)
      : (!rows, !rows, !signal, !send_counts, !recv_counts) -> !rows
  return
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %wide_bytes = arith.constant 1024 : i64
  %rows_bytes = arith.constant 512 : i64
  %small = arith.constant 8 : i64
  %ws = "pld.system_world_size"() : () -> i64
  %devices = arith.index_cast %ws : i64 to index
  %wide_buf = "pld.tensor_alloc_window_buffer"(%wide_bytes) {name = "wide"} : (i64) -> !pld.ptr
  %recv_buf = "pld.tensor_alloc_window_buffer"(%rows_bytes) {name = "recv"} : (i64) -> !pld.ptr
  %signal_buf = "pld.tensor_alloc_window_buffer"(%small) {name = "signal"} : (i64) -> !pld.ptr
  %send_counts_buf = "pld.tensor_alloc_window_buffer"(%small) {name = "send_counts"} : (i64) -> !pld.ptr
  %recv_counts_buf = "pld.tensor_alloc_window_buffer"(%small) {name = "recv_counts"} : (i64) -> !pld.ptr
  %wide = "pld.tensor_window"(%wide_buf) : (!pld.ptr) -> tensor<8x32xf32, #pld.dist>
  %send = tensor.extract_slice %wide[0, 0] [8, 16] [1, 1] : tensor<8x32xf32, #pld.dist> to !rows
  %recv = "pld.tensor_window"(%recv_buf) : (!pld.ptr) -> !rows
  %signal = "pld.tensor_window"(%signal_buf) : (!pld.ptr) -> !signal
  %send_counts = "pld.tensor_window"(%send_counts_buf) : (!pld.ptr) -> !send_counts
  %recv_counts = "pld.tensor_window"(%recv_counts_buf) : (!pld.ptr) -> !recv_counts
  scf.for %r = %c0 to %devices step %c1 {
    "pld.dispatch"(%r) ({
      func.call @pipeline(%wide, %send, %recv, %signal, %send_counts, %recv_counts)
          : (tensor<8x32xf32, #pld.dist>, !rows, !rows, !signal, !send_counts, !recv_counts) -> ()
      gpu.yield
    }) : (index) -> ()
  }
  return
}

//--- wide.mlir
// P = 2, core_num = 51: B = 50 blocks, two more than the device has.
func.func @chip(%send: tensor<10x16xf32, #pld.dist>, %recv: tensor<10x16xf32, #pld.dist>, %sig: tensor<2x50xi32, #pld.dist>, %sc: tensor<2xi32, #pld.dist>, %rc: tensor<2x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"chip">} {
  %core = arith.constant 51 : index
  %d = "pld.tensor_all_to_all_v"(%send, %recv, %sig, %sc, %rc, %core) : (tensor<10x16xf32, #pld.dist>, tensor<10x16xf32, #pld.dist>, tensor<2x50xi32, #pld.dist>, tensor<2xi32, #pld.dist>, tensor<2x1xi32, #pld.dist>, index) -> tensor<10x16xf32, #pld.dist>
  return
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = arith.constant 640 : i64
  %sigb = arith.constant 400 : i64
  %small = arith.constant 8 : i64
  %ws = "pld.system_world_size"() : () -> i64
  %n = arith.index_cast %ws : i64 to index
  %b0 = "pld.tensor_alloc_window_buffer"(%rows) {name = "send"} : (i64) -> !pld.ptr
  %b1 = "pld.tensor_alloc_window_buffer"(%rows) {name = "recv"} : (i64) -> !pld.ptr
  %b2 = "pld.tensor_alloc_window_buffer"(%sigb) {name = "signal"} : (i64) -> !pld.ptr
  %b3 = "pld.tensor_alloc_window_buffer"(%small) {name = "send_counts"} : (i64) -> !pld.ptr
  %b4 = "pld.tensor_alloc_window_buffer"(%small) {name = "recv_counts"} : (i64) -> !pld.ptr
  %send = "pld.tensor_window"(%b0) : (!pld.ptr) -> tensor<10x16xf32, #pld.dist>
  %recv = "pld.tensor_window"(%b1) : (!pld.ptr) -> tensor<10x16xf32, #pld.dist>
  %sig = "pld.tensor_window"(%b2) : (!pld.ptr) -> tensor<2x50xi32, #pld.dist>
  %sc = "pld.tensor_window"(%b3) : (!pld.ptr) -> tensor<2xi32, #pld.dist>
  %rc = "pld.tensor_window"(%b4) : (!pld.ptr) -> tensor<2x1xi32, #pld.dist>
  scf.for %r = %c0 to %n step %c1 {
    "pld.dispatch"(%r) ({
      func.call @chip(%send, %recv, %sig, %sc, %rc) : (tensor<10x16xf32, #pld.dist>, tensor<10x16xf32, #pld.dist>, tensor<2x50xi32, #pld.dist>, tensor<2xi32, #pld.dist>, tensor<2x1xi32, #pld.dist>) -> ()
      gpu.yield
    }) : (index) -> ()
  }
  return
}

//--- alias.mlir
// The input and the target are two views of one buffer.
func.func @chip(%send: tensor<8x16xf32, #pld.dist>, %recv: tensor<8x16xf32, #pld.dist>, %sig: tensor<2x1xi32, #pld.dist>, %sc: tensor<2xi32, #pld.dist>, %rc: tensor<2x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"chip">} {
  %d = "pld.tensor_all_to_all_v"(%send, %recv, %sig, %sc, %rc) : (tensor<8x16xf32, #pld.dist>, tensor<8x16xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>, tensor<2xi32, #pld.dist>, tensor<2x1xi32, #pld.dist>) -> tensor<8x16xf32, #pld.dist>
  return
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = arith.constant 512 : i64
  %small = arith.constant 8 : i64
  %ws = "pld.system_world_size"() : () -> i64
  %n = arith.index_cast %ws : i64 to index
  %b0 = "pld.tensor_alloc_window_buffer"(%rows) {name = "send"} : (i64) -> !pld.ptr
  %b2 = "pld.tensor_alloc_window_buffer"(%small) {name = "signal"} : (i64) -> !pld.ptr
  %b3 = "pld.tensor_alloc_window_buffer"(%small) {name = "send_counts"} : (i64) -> !pld.ptr
  %b4 = "pld.tensor_alloc_window_buffer"(%small) {name = "recv_counts"} : (i64) -> !pld.ptr
  %send = "pld.tensor_window"(%b0) : (!pld.ptr) -> tensor<8x16xf32, #pld.dist>
  %recv = "pld.tensor_window"(%b0) : (!pld.ptr) -> tensor<8x16xf32, #pld.dist>
  %sig = "pld.tensor_window"(%b2) : (!pld.ptr) -> tensor<2x1xi32, #pld.dist>
  %sc = "pld.tensor_window"(%b3) : (!pld.ptr) -> tensor<2xi32, #pld.dist>
  %rc = "pld.tensor_window"(%b4) : (!pld.ptr) -> tensor<2x1xi32, #pld.dist>
  scf.for %r = %c0 to %n step %c1 {
    "pld.dispatch"(%r) ({
      func.call @chip(%send, %recv, %sig, %sc, %rc) : (tensor<8x16xf32, #pld.dist>, tensor<8x16xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>, tensor<2xi32, #pld.dist>, tensor<2x1xi32, #pld.dist>) -> ()
      gpu.yield
    }) : (index) -> ()
  }
  return
}

//--- while.mlir
func.func @chip(%send: tensor<8x16xf32, #pld.dist>, %recv: tensor<8x16xf32, #pld.dist>, %sig: tensor<2x4xi32, #pld.dist>, %sc: tensor<2xi32, #pld.dist>, %rc: tensor<2x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"chip">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %i, %x = scf.while (%i = %c0, %a = %recv) : (index, tensor<8x16xf32, #pld.dist>) -> (index, tensor<8x16xf32, #pld.dist>) {
    %more = arith.cmpi slt, %i, %c3 : index
    scf.condition(%more) %i, %a : index, tensor<8x16xf32, #pld.dist>
  } do {
  ^bb0(%j: index, %y: tensor<8x16xf32, #pld.dist>):
    %d = "pld.tensor_all_to_all_v"(%send, %y, %sig, %sc, %rc) : (tensor<8x16xf32, #pld.dist>, tensor<8x16xf32, #pld.dist>, tensor<2x4xi32, #pld.dist>, tensor<2xi32, #pld.dist>, tensor<2x1xi32, #pld.dist>) -> tensor<8x16xf32, #pld.dist>
    %next = arith.addi %j, %c1 : index
    scf.yield %next, %d : index, tensor<8x16xf32, #pld.dist>
  }
  return
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = arith.constant 512 : i64
  %sigb = arith.constant 32 : i64
  %small = arith.constant 8 : i64
  %ws = "pld.system_world_size"() : () -> i64
  %n = arith.index_cast %ws : i64 to index
  %b0 = "pld.tensor_alloc_window_buffer"(%rows) {name = "send"} : (i64) -> !pld.ptr
  %b1 = "pld.tensor_alloc_window_buffer"(%rows) {name = "recv"} : (i64) -> !pld.ptr
  %b2 = "pld.tensor_alloc_window_buffer"(%sigb) {name = "signal"} : (i64) -> !pld.ptr
  %b3 = "pld.tensor_alloc_window_buffer"(%small) {name = "send_counts"} : (i64) -> !pld.ptr
  %b4 = "pld.tensor_alloc_window_buffer"(%small) {name = "recv_counts"} : (i64) -> !pld.ptr
  %send = "pld.tensor_window"(%b0) : (!pld.ptr) -> tensor<8x16xf32, #pld.dist>
  %recv = "pld.tensor_window"(%b1) : (!pld.ptr) -> tensor<8x16xf32, #pld.dist>
  %sig = "pld.tensor_window"(%b2) : (!pld.ptr) -> tensor<2x4xi32, #pld.dist>
  %sc = "pld.tensor_window"(%b3) : (!pld.ptr) -> tensor<2xi32, #pld.dist>
  %rc = "pld.tensor_window"(%b4) : (!pld.ptr) -> tensor<2x1xi32, #pld.dist>
  scf.for %r = %c0 to %n step %c1 {
    "pld.dispatch"(%r) ({
      func.call @chip(%send, %recv, %sig, %sc, %rc) : (tensor<8x16xf32, #pld.dist>, tensor<8x16xf32, #pld.dist>, tensor<2x4xi32, #pld.dist>, tensor<2xi32, #pld.dist>, tensor<2x1xi32, #pld.dist>) -> ()
      gpu.yield
    }) : (index) -> ()
  }
  return
}

//--- rowslice.mlir
func.func @chip(%send: tensor<8x16xf32, #pld.dist>, %recv: tensor<8x16xf32, #pld.dist>, %sig: tensor<2x4xi32, #pld.dist>, %sc: tensor<2xi32, #pld.dist>, %rc: tensor<2x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"chip">} {
  %core = arith.constant 5 : index
  %d = "pld.tensor_all_to_all_v"(%send, %recv, %sig, %sc, %rc, %core) : (tensor<8x16xf32, #pld.dist>, tensor<8x16xf32, #pld.dist>, tensor<2x4xi32, #pld.dist>, tensor<2xi32, #pld.dist>, tensor<2x1xi32, #pld.dist>, index) -> tensor<8x16xf32, #pld.dist>
  return
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rb = arith.constant 512 : i64
  %wb = arith.constant 1024 : i64
  %gb = arith.constant 32 : i64
  %cb = arith.constant 8 : i64
  %ws = "pld.system_world_size"() : () -> i64
  %devices = arith.index_cast %ws : i64 to index
  %send_buf = "pld.tensor_alloc_window_buffer"(%wb) {name = "send"} : (i64) -> !pld.ptr
  %recv_buf = "pld.tensor_alloc_window_buffer"(%rb) {name = "recv"} : (i64) -> !pld.ptr
  %sig_buf = "pld.tensor_alloc_window_buffer"(%gb) {name = "signal"} : (i64) -> !pld.ptr
  %sc_buf = "pld.tensor_alloc_window_buffer"(%cb) {name = "send_counts"} : (i64) -> !pld.ptr
  %rc_buf = "pld.tensor_alloc_window_buffer"(%cb) {name = "recv_counts"} : (i64) -> !pld.ptr
  %wide = "pld.tensor_window"(%send_buf) : (!pld.ptr) -> tensor<16x16xf32, #pld.dist>
  %send = tensor.extract_slice %wide[0, 0] [8, 16] [1, 1] : tensor<16x16xf32, #pld.dist> to tensor<8x16xf32, #pld.dist>
  %recv = "pld.tensor_window"(%recv_buf) : (!pld.ptr) -> tensor<8x16xf32, #pld.dist>
  %sig = "pld.tensor_window"(%sig_buf) : (!pld.ptr) -> tensor<2x4xi32, #pld.dist>
  %sc = "pld.tensor_window"(%sc_buf) : (!pld.ptr) -> tensor<2xi32, #pld.dist>
  %rc = "pld.tensor_window"(%rc_buf) : (!pld.ptr) -> tensor<2x1xi32, #pld.dist>
  scf.for %r = %c0 to %devices step %c1 {
    "pld.dispatch"(%r) ({
      func.call @chip(%send, %recv, %sig, %sc, %rc) : (tensor<8x16xf32, #pld.dist>, tensor<8x16xf32, #pld.dist>, tensor<2x4xi32, #pld.dist>, tensor<2xi32, #pld.dist>, tensor<2x1xi32, #pld.dist>) -> ()
      gpu.yield
    }) : (index) -> ()
  }
  return
}

//--- lanes.mlir
func.func @chip(%send: tensor<12x8xf32, #pld.dist>, %recv: tensor<12x8xf32, #pld.dist>, %sig: tensor<4x8xi32, #pld.dist>, %sc: tensor<4xi32, #pld.dist>, %rc: tensor<4x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
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
  %send = "pld.tensor_window"(%send_buf) : (!pld.ptr) -> tensor<12x8xf32, #pld.dist>
  %recv = "pld.tensor_window"(%recv_buf) : (!pld.ptr) -> tensor<12x8xf32, #pld.dist>
  %sig = "pld.tensor_window"(%sig_buf) : (!pld.ptr) -> tensor<4x8xi32, #pld.dist>
  %sc = "pld.tensor_window"(%sc_buf) : (!pld.ptr) -> tensor<4xi32, #pld.dist>
  %rc = "pld.tensor_window"(%rc_buf) : (!pld.ptr) -> tensor<4x1xi32, #pld.dist>
  scf.for %r = %c0 to %devices step %c1 {
    "pld.dispatch"(%r) ({
      func.call @chip(%send, %recv, %sig, %sc, %rc) : (tensor<12x8xf32, #pld.dist>, tensor<12x8xf32, #pld.dist>, tensor<4x8xi32, #pld.dist>, tensor<4xi32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> ()
      gpu.yield
    }) : (index) -> ()
  }
  %core = arith.muli %devices, %devices : index
  %d = "pld.tensor_all_to_all_v"(%send, %recv, %sig, %sc, %rc, %core) : (tensor<12x8xf32, #pld.dist>, tensor<12x8xf32, #pld.dist>, tensor<4x8xi32, #pld.dist>, tensor<4xi32, #pld.dist>, tensor<4x1xi32, #pld.dist>, index) -> tensor<12x8xf32, #pld.dist>
  scf.for %r = %c0 to %devices step %c1 {
    "pld.dispatch"(%r) ({
      func.call @chip(%send, %recv, %sig, %sc, %rc) : (tensor<12x8xf32, #pld.dist>, tensor<12x8xf32, #pld.dist>, tensor<4x8xi32, #pld.dist>, tensor<4xi32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> ()
      gpu.yield
    }) : (index) -> ()
  }
  return
}
