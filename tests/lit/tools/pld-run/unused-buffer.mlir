// A window buffer that is allocated but that no task of the run takes
// (here: dispatched to a CHIP orchestrator that runs nothing with it) has
// nothing to fill: --input of it says so (it said "the program has no
// window buffer 'w' (its buffers: x, ...)", as of a name never written),
// and --output-dir writes the buffers the tasks use, not it.
//
// RUN: not pld-run %s --ranks 2 --input w=ones 2>&1 | FileCheck %s --check-prefix=UNUSED
// RUN: rm -rf %t.out && pld-run %s --ranks 2 --output-dir %t.out > /dev/null
// RUN: ls %t.out | FileCheck %s --check-prefix=FILES
// UNUSED: pld-run: error: the window buffer 'w' is allocated, but no task of the run reads or writes it (no kernel or builtin takes it), so it has nothing to fill; --input names the buffers the tasks use (x, __allreduce_signal_buf_0)
// FILES: x.rank0.npy
// FILES-NOT: w.rank

func.func @noop(%w: tensor<1x8xf32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ws = "pld.system_world_size"() : () -> i64
  %n = arith.index_cast %ws : i64 to index
  %b32 = arith.constant 32 : i64
  %wbuf = "pld.tensor_alloc_window_buffer"(%b32) {name = "w"} : (i64) -> !pld.ptr
  %xbuf = "pld.tensor_alloc_window_buffer"(%b32) {name = "x"} : (i64) -> !pld.ptr
  %w = "pld.tensor_window"(%wbuf) : (!pld.ptr) -> tensor<1x8xf32, #pld.dist>
  %x = "pld.tensor_window"(%xbuf) : (!pld.ptr) -> tensor<1x8xf32, #pld.dist>
  scf.for %r = %c0 to %n step %c1 {
    "pld.dispatch"(%r) ({
      func.call @noop(%w) : (tensor<1x8xf32, #pld.dist>) -> ()
      gpu.yield
    }) : (index) -> ()
  }
  %s = "pld.tensor_allreduce"(%x) {op = #pld.reduce_op<"sum">} : (tensor<1x8xf32, #pld.dist>) -> tensor<1x8xf32, #pld.dist>
  return
}
