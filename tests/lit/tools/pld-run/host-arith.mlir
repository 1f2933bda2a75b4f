// The HOST and CHIP orchestrators' integer arith is MLIR's, at the width of
// its type: an i32 wraps at 32 bits, floordivsi and ceildivsi round as
// MLIR does for negative divisors too, the unsigned ops read the bits as
// unsigned, and shifts are run. What has no value in MLIR (the minimum
// divided by -1, a shift by the width or more) is refused at the op. The
// interpreter held every value as an i64: MAX + 1 in i32 stayed 2^31,
// floordivsi(7, -2) was -3 (Euclid's, not floor), ceildivsi of the
// minimum by -1 panicked (status 101), and shifts were refused.
//
// The round count below is, by hand: floordivsi(7, -2) = -4, + 5 = 1;
// the wrapped i32 MAX + 1 is negative: + 1 (2 before it wrapped: 0 + 1);
// ceildivsi(-7, -2) = 4 (ceil 3.5), - 3 = 1; divui(-1 as i8 = 255, 85) = 3,
// - 2 = 1; shli(1, 2) = 4 >> 2 = 1, shrui(-8 as i8 = 248, 7) = 1: 1 + 1 +
// 1 + 1 + 1 + 1 = 6 rounds of one allreduce each.
// RUN: pld-run %s --ranks 2 | FileCheck %s
// CHECK: @main on 2 devices: 6 collective calls
// RUN: sed 's/^  %%cm1_64 = arith.constant -1 : i64$/&\n  %%bad = arith.ceildivsi %%min64, %%cm1_64 : i64/' %s > %t.min.mlir
// RUN: not pld-run %t.min.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=MIN
// MIN: error: 'arith.ceildivsi' divides by zero, or divides the minimum of its signed type by -1 (an overflow)
// MIN-NOT: panicked
// RUN: sed 's/^  %%sh = arith.constant 2 : i64$/  %%sh = arith.constant 64 : i64/' %s > %t.shift.mlir
// RUN: not pld-run %t.shift.mlir --ranks 2 2>&1 | FileCheck %s --check-prefix=SHIFT
// SHIFT: error: 'arith.shli' shifts by the width of its type or more (or by a negative amount)

!data = tensor<1x64xf32, #pld.dist>
!signal = tensor<8x1xi32, #pld.dist>
func.func @reduce_kernel(%data: !data, %signal: !signal) attributes {pld.kind = #pld.func_kind<"incore">} {
  %sum = "pld.tensor_allreduce"(%data, %signal) {op = #pld.reduce_op<"sum">} : (!data, !signal) -> !data
  return
}
func.func @chip_step(%data: !data, %signal: !signal) attributes {pld.kind = #pld.func_kind<"chip">} {
  func.call @reduce_kernel(%data, %signal) : (!data, !signal) -> ()
  return
}
func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one64 = arith.constant 1 : i64
  %zero64 = arith.constant 0 : i64
  %min64 = arith.constant -9223372036854775808 : i64
  %cm1_64 = arith.constant -1 : i64
  // floordivsi(7, -2) + 5 = 1
  %c7 = arith.constant 7 : i64
  %cm2 = arith.constant -2 : i64
  %c5 = arith.constant 5 : i64
  %f = arith.floordivsi %c7, %cm2 : i64
  %r1 = arith.addi %f, %c5 : i64
  // i32 MAX + 1 wraps negative: 1 round (2 if it did not)
  %max32 = arith.constant 2147483647 : i32
  %one32 = arith.constant 1 : i32
  %w32 = arith.addi %max32, %one32 : i32
  %w64 = arith.extsi %w32 : i32 to i64
  %neg = arith.cmpi slt, %w64, %zero64 : i64
  %c2 = arith.constant 2 : i64
  %r2 = arith.select %neg, %one64, %c2 : i64
  // ceildivsi(-7, -2) - 3 = 1
  %cm7 = arith.constant -7 : i64
  %c3 = arith.constant 3 : i64
  %cd = arith.ceildivsi %cm7, %cm2 : i64
  %r3 = arith.subi %cd, %c3 : i64
  // divui(255 as i8, 85) - 2 = 1
  %m1_8 = arith.constant -1 : i8
  %c85 = arith.constant 85 : i8
  %du8 = arith.divui %m1_8, %c85 : i8
  %du = arith.extui %du8 : i8 to i64
  %r4 = arith.subi %du, %c2 : i64
  // shli(1, 2) >> 2 = 1; shrui(248 as i8, 7) = 1
  %sh = arith.constant 2 : i64
  %s1 = arith.shli %one64, %sh : i64
  %r5 = arith.shrsi %s1, %sh : i64
  %m8_8 = arith.constant -8 : i8
  %c7_8 = arith.constant 7 : i8
  %su8 = arith.shrui %m8_8, %c7_8 : i8
  %r6 = arith.extui %su8 : i8 to i64
  %t1 = arith.addi %r1, %r2 : i64
  %t2 = arith.addi %t1, %r3 : i64
  %t3 = arith.addi %t2, %r4 : i64
  %t4 = arith.addi %t3, %r5 : i64
  %t5 = arith.addi %t4, %r6 : i64
  %rounds = arith.index_cast %t5 : i64 to index
  %bytes = arith.constant 256 : i64
  %signal_bytes = arith.constant 32 : i64
  %ws = "pld.system_world_size"() : () -> i64
  %buf = "pld.tensor_alloc_window_buffer"(%bytes) {name = "data_buf"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%buf) : (!pld.ptr) -> !data
  %sbuf = "pld.tensor_alloc_window_buffer"(%signal_bytes) {name = "sig_buf"} : (i64) -> !pld.ptr
  %signal = "pld.tensor_window"(%sbuf) : (!pld.ptr) -> !signal
  %n = arith.index_cast %ws : i64 to index
  scf.for %it = %c0 to %rounds step %c1 {
    scf.for %r = %c0 to %n step %c1 {
      "pld.dispatch"(%r) ({
        func.call @chip_step(%data, %signal) : (!data, !signal) -> ()
        gpu.yield
      }) : (index) -> ()
    }
  }
  return
}
