// A HOST loop of 100 allreduces over an 8 GiB window buffer: the memory
// estimate of a program run (tests/capi.rs, python/tests/test_run.py).
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
