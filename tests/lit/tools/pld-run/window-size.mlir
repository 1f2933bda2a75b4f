// A window size of world_size that is 0 or less on the run's rank count
// (64 - 16 * world_size: 0 on 4 devices, -16 on 5) is refused at the
// allocation, saying so (0 failed later at the view, "views 16 bytes of
// 'data_buf', which has 0"; -16 named a pld.comm_domain the user never
// wrote). On fewer devices the program runs.
//
// RUN: not pld-run %s --ranks 4 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not pld-run %s --ranks 5 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// RUN: pld-run %s --ranks 3 | FileCheck %s --check-prefix=RUNS
// ZERO: window-size.mlir:[[# @LINE + 15]]:10: error: the window buffer 'data_buf' is 0 bytes on 4 devices (its size, affine_map<()[s0] -> (s0 * -16 + 64)> of world_size s0); a window size must be positive
// NEGATIVE: window-size.mlir:[[# @LINE + 14]]:10: error: the window buffer 'data_buf' is -16 bytes on 5 devices
// RUNS: @main on 3 devices: 0 collective calls

!data = tensor<4xf32, #pld.dist>
func.func @chip(%d: !data) attributes {pld.kind = #pld.func_kind<"chip">} {
  return
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : i64
  %c16 = arith.constant 16 : i64
  %ws = "pld.system_world_size"() : () -> i64
  %scaled = arith.muli %ws, %c16 : i64
  %bytes = arith.subi %c64, %scaled : i64
  %buf = "pld.tensor_alloc_window_buffer"(%bytes) {name = "data_buf"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%buf) : (!pld.ptr) -> !data
  "pld.dispatch"(%c0) ({
    func.call @chip(%data) : (!data) -> ()
    gpu.yield
  }) : (index) -> ()
  return
}
