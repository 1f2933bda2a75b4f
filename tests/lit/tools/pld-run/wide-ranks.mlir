// Past the 16 ranks of the reference kernels, up to the 64 a CommContext
// names: a HOST allreduce with a synthesized signal (mesh), a HOST ring
// allreduce, a broadcast from rank 16, and a CHIP all_to_all_v, checked
// against pld-run's golden on 17, 32 and 64 ranks. Each used to leave its
// data as it was on 17 ranks or more (the kernels returned at their rank
// guard), caught only by --check; a broadcast root of 16 or more had no
// kernel at all.
//
// The signals' and the ring's shapes follow the rank count P (@P@ below,
// @R@ = 2 * (P - 1) + 1 rows of the ring's signal, @T@ = 2 * P rows of the
// exchange); the buffers are sized for 64.
//
// RUN: split-file %s %t
// RUN: sed -e 's/@P@/17/g' -e 's/@R@/33/g' %t/host.mlir > %t/host17.mlir
// RUN: sed -e 's/@P@/64/g' -e 's/@R@/127/g' %t/host.mlir > %t/host64.mlir
// RUN: pld-run %t/host17.mlir --ranks 17 --check | FileCheck %s --check-prefix=HOST17
// RUN: pld-run %t/host64.mlir --ranks 64 --check | FileCheck %s --check-prefix=HOST64
// RUN: sed -e 's/@P@/17/g' -e 's/@T@/34/g' %t/chip.mlir > %t/chip17.mlir
// RUN: sed -e 's/@P@/32/g' -e 's/@T@/64/g' %t/chip.mlir > %t/chip32.mlir
// RUN: sed -e 's/@P@/64/g' -e 's/@T@/128/g' %t/chip.mlir > %t/chip64.mlir
// RUN: pld-run %t/chip17.mlir --ranks 17 --check | FileCheck %s --check-prefix=CHIP
// RUN: pld-run %t/chip32.mlir --ranks 32 --check | FileCheck %s --check-prefix=CHIP
// RUN: pld-run %t/chip64.mlir --ranks 64 --check | FileCheck %s --check-prefix=CHIP
//
// HOST17-COUNT-2: pld.tensor_allreduce {{.*}}: ok on 17 ranks
// HOST17: pld.tensor_broadcast {{.*}} (root 16), {{.*}}: ok on 17 ranks
// HOST64-COUNT-2: pld.tensor_allreduce {{.*}}: ok on 64 ranks
// HOST64: pld.tensor_broadcast {{.*}} (root 16), {{.*}}: ok on 64 ranks
// CHIP: pld.tensor_all_to_all_v {{.*}}: ok on {{17|32|64}} ranks

//--- host.mlir
!data = tensor<1x4096xf32, #pld.dist>
!ring = tensor<@P@x64xf32, #pld.dist>
!ring_signal = tensor<@R@x@P@xi32, #pld.dist>
!signal = tensor<@P@xi32, #pld.dist>
func.func @chip(%d: !data, %r: !ring, %rs: !ring_signal, %s: !signal) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ws = "pld.system_world_size"() : () -> i64
  %n = arith.index_cast %ws : i64 to index
  %data_bytes = arith.constant 16384 : i64
  %ring_signal_bytes = arith.constant 32512 : i64
  %signal_bytes = arith.constant 256 : i64
  %dbuf = "pld.tensor_alloc_window_buffer"(%data_bytes) {name = "data"} : (i64) -> !pld.ptr
  %rbuf = "pld.tensor_alloc_window_buffer"(%data_bytes) {name = "ring"} : (i64) -> !pld.ptr
  %rsbuf = "pld.tensor_alloc_window_buffer"(%ring_signal_bytes) {name = "ring_signal"} : (i64) -> !pld.ptr
  %sbuf = "pld.tensor_alloc_window_buffer"(%signal_bytes) {name = "signal"} : (i64) -> !pld.ptr
  %d = "pld.tensor_window"(%dbuf) : (!pld.ptr) -> !data
  %r = "pld.tensor_window"(%rbuf) : (!pld.ptr) -> !ring
  %rs = "pld.tensor_window"(%rsbuf) : (!pld.ptr) -> !ring_signal
  %s = "pld.tensor_window"(%sbuf) : (!pld.ptr) -> !signal
  scf.for %i = %c0 to %n step %c1 {
    "pld.dispatch"(%i) ({
      func.call @chip(%d, %r, %rs, %s) : (!data, !ring, !ring_signal, !signal) -> ()
      gpu.yield
    }) : (index) -> ()
  }
  %a = "pld.tensor_allreduce"(%d) {op = #pld.reduce_op<"sum">, core_num = 4 : i64} : (!data) -> !data
  %b = "pld.tensor_allreduce"(%r, %rs) {op = #pld.reduce_op<"sum">, mode = "ring"} : (!ring, !ring_signal) -> !ring
  %c = "pld.tensor_broadcast"(%d, %s) {root = 16 : i64} : (!data, !signal) -> !data
  return
}

//--- chip.mlir
!rows = tensor<@T@x8xf32, #pld.dist>
!signal = tensor<@P@x1xi32, #pld.dist>
!send_counts = tensor<@P@xi32, #pld.dist>
!recv_counts = tensor<@P@x1xi32, #pld.dist>
func.func @exchange(%send: !rows, %recv: !rows, %signal: !signal, %send_counts: !send_counts, %recv_counts: !recv_counts)
    attributes {pld.kind = #pld.func_kind<"chip">} {
  %core_num = arith.constant 1 : index
  %received = "pld.tensor_all_to_all_v"(%send, %recv, %signal, %send_counts, %recv_counts, %core_num)
      : (!rows, !rows, !signal, !send_counts, !recv_counts, index) -> !rows
  return
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %row_bytes = arith.constant 4096 : i64
  %small = arith.constant 256 : i64
  %ws = "pld.system_world_size"() : () -> i64
  %devices = arith.index_cast %ws : i64 to index
  %send_buf = "pld.tensor_alloc_window_buffer"(%row_bytes) {name = "send"} : (i64) -> !pld.ptr
  %recv_buf = "pld.tensor_alloc_window_buffer"(%row_bytes) {name = "recv"} : (i64) -> !pld.ptr
  %signal_buf = "pld.tensor_alloc_window_buffer"(%small) {name = "signal"} : (i64) -> !pld.ptr
  %send_counts_buf = "pld.tensor_alloc_window_buffer"(%small) {name = "send_counts"} : (i64) -> !pld.ptr
  %recv_counts_buf = "pld.tensor_alloc_window_buffer"(%small) {name = "recv_counts"} : (i64) -> !pld.ptr
  %send = "pld.tensor_window"(%send_buf) : (!pld.ptr) -> !rows
  %recv = "pld.tensor_window"(%recv_buf) : (!pld.ptr) -> !rows
  %signal = "pld.tensor_window"(%signal_buf) : (!pld.ptr) -> !signal
  %send_counts = "pld.tensor_window"(%send_counts_buf) : (!pld.ptr) -> !send_counts
  %recv_counts = "pld.tensor_window"(%recv_counts_buf) : (!pld.ptr) -> !recv_counts
  scf.for %r = %c0 to %devices step %c1 {
    "pld.dispatch"(%r) ({
      func.call @exchange(%send, %recv, %signal, %send_counts, %recv_counts)
          : (!rows, !rows, !signal, !send_counts, !recv_counts) -> ()
      gpu.yield
    }) : (index) -> ()
  }
  return
}
