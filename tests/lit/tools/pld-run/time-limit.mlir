// A kernel that never stops (an scf.for with a step of -1 counts away from
// its bound) is never blocked, so no deadlock is detected; --time-limit ends
// the run with status 3 and says why.
//
// RUN: not pld-run %s --ranks 2 --time-limit 3 --deadline 1 2>&1 | FileCheck %s
// A run stopped before --deadline passed is not explained (ranks blocked
// that long would have been a deadlock; before, it always blamed "a rank in
// a loop that does not end", also in a long healthy series).
// RUN: not pld-run %s --ranks 2 --time-limit 1 --deadline 100 2>&1 | FileCheck %s --check-prefix=SHORT
// SHORT: pld-run: error: --time-limit (1.0s) reached while running @forever on 2 ranks, which had not finished; at the limit rank 0 {{.*}}, rank 1 {{[^(]*}}{{( \(.*\))?$}}
// RUN: sh -c 'pld-run %s --ranks 2 --time-limit 1 > /dev/null 2>&1; test $? -eq 3'
// RUN: not pld-run %s --ranks 2 --time-limit 0 2>&1 | FileCheck %s --check-prefix=ZERO
// A malformed command line: status 2, also for a value past what a
// duration holds; huge counts are long runs, never an allocation or a
// panic (the time limit ends them).
// RUN: sh -c 'pld-run %s --ranks 2 --time-limit 1e300 > /dev/null 2>&1; test $? -eq 2'
// A limit below a tenth of a second is shown as it is (it said "0.0s"):
// RUN: not pld-run %s --ranks 2 --time-limit 1e-9 2>&1 | FileCheck %s --check-prefix=TINY
// TINY: pld-run: error: --time-limit (1ns) reached
// RUN: sh -c 'pld-run %s --ranks 2 --explore 18446744073709551615 --time-limit 1 > /dev/null 2>&1; test $? -eq 3'
// RUN: sh -c 'pld-run %s --ranks 2 --warmup 18446744073709551615 --time-limit 1 > /dev/null 2>&1; test $? -eq 3'
// CHECK: pld-run: error: --time-limit (3.0s) reached while running @forever on 2 ranks, which had not finished (it ran past --deadline without a deadlock: some rank was not blocked in a wait, such as a rank in a loop that does not end); at the limit rank 0 {{.*}}, rank 1
// ZERO: pld-run: error: --time-limit takes a positive number of seconds (at most about 1.8e19), not 0.0

!sig = tensor<2x1xi32, #pld.dist>
func.func @forever(%sig: !sig) attributes {pld.kind = #pld.func_kind<"incore">} {
  %c0 = arith.constant 0 : index
  %back = arith.constant -1 : index
  %c5 = arith.constant 5 : index
  %r = scf.for %i = %c0 to %c5 step %back iter_args(%s = %sig) -> (!sig) {
    %s2 = "pld.tensor_barrier"(%s) : (!sig) -> !sig
    scf.yield %s2 : !sig
  }
  return
}
