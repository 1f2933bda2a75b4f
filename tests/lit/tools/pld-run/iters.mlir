// --iters N --warmup W: the kernel is compiled once and run W + N times
// with fresh buffers; the time is the mean of the N timed runs, the results
// (checks, counters) those of the last. --stats adds the phase times.
// A whole program runs W + N times too; each call's time is its mean over
// the N timed runs. Its phases have the plan (the orchestration
// interpreted for the rank count) between compile and fill; without
// --check nothing is compared, so its check phase takes no time.
//
// RUN: pld-run %s --ranks 2 --iters 4 --warmup 2 --check --stats | FileCheck %s
// RUN: pld-run %S/../../../../examples/allreduce.mlir --ranks 2 --iters 2 --warmup 1 --check --stats | FileCheck %s --check-prefix=PROGRAM
// RUN: pld-run %S/../../../../examples/allreduce.mlir --ranks 2 --stats | FileCheck %s --check-prefix=ONCE
// The kernels' time in the headline is the mean of the timed runs too
// (Inputs/iters_mean.py: with 3 runs the spread line lists all three).
// RUN: pld-run %s --ranks 2 --iters 3 --stats | python3 %S/Inputs/iters_mean.py | FileCheck %s --check-prefix=MEAN
// MEAN: mean ok
// Zero timed runs is a malformed command line (clap's status 2), not one run.
// RUN: not pld-run %s --ranks 2 --iters 0 2>&1 | FileCheck %s --check-prefix=ZERO
// A run that fails ends the series, and pld-run says which run it was:
// RUN: not pld-run %S/../../../explore/wait-one-credit-too-many.mlir --ranks 2 --deadline 0.2 --warmup 1 --iters 3 2>&1 | FileCheck %s --check-prefix=FAILED
// FAILED: pld-run: run 1 of 4 failed; the series stopped there
// FAILED: pld-run: deadlock: every live rank has waited
// RUN: sh -c 'pld-run %s --ranks 2 --iters 0 > /dev/null 2>&1; test $? -eq 2'
// ZERO: error: invalid value '0' for '--iters <N>'
// CHECK: @sum on 2 ranks: finished in {{.*}} (the mean of 4 runs after 2 warm-up runs)
// CHECK-NEXT: rank 0: ok
// CHECK-NEXT: rank 1: ok
// The counters are one run's: a mesh allreduce of 2 ranks.
// CHECK: phases: lower {{[0-9.]+[^ ,]*}}, compile {{[0-9.]+[^ ,]*}}, fill {{[0-9.]+[^ ,]*}}, run {{[0-9.]+[^ ,]*}} (mean), check {{[0-9.]+[^ ,]*}}
// The spread of the 4 timed runs' kernel times (one kernel only).
// CHECK-NEXT: kernel times: min {{[0-9.]+[^ ,]*}}, q1 {{[0-9.]+[^ ,]*}}, median {{[0-9.]+[^ ,]*}}, q3 {{[0-9.]+[^ ,]*}}, max {{[0-9.]+[^ ,]*}} over 4 runs
// CHECK: {{^#  0 pld.tensor_allreduce +2 +256 +64 +f32 +sum +- +[0-9.]+ +[0-9.]+ +[0-9.]+ +0$}}
// PROGRAM: @main on 2 devices: 2 collective calls, finished in {{.*}} (3 runs, 1 warm-up; call times are the mean of 2)
// PROGRAM-NEXT: pld.tensor_allreduce in @reduce_kernel {{.*}}: ok on 2 ranks
// PROGRAM-NEXT: pld.tensor_allreduce at {{.*}}: ok on 2 ranks
// PROGRAM: phases: lower {{[0-9.]+[^ ,]*}}, compile {{[0-9.]+[^ ,]*}}, plan {{[0-9.]+[^ ,]*}}, fill {{[0-9.]+[^ ,]*}}, run {{[0-9.]+[^ ,]*}} (mean), check {{[0-9.]+[^ ,]*}}{{$}}
// ONCE: phases: lower {{[0-9.]+[^ ,]*}}, compile {{[0-9.]+[^ ,]*}}, plan {{[0-9.]+[^ ,]*}}, fill {{[0-9.]+[^ ,]*}}, run {{[0-9.]+[^ ,(]*}}, check 0.0ns{{$}}
// A program's run, and one run, have no spread line.
// PROGRAM-NOT: kernel times:
// ONCE-NOT: kernel times:

func.func @sum(%data: tensor<1x64xf32, #pld.dist>, %sig: tensor<2x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">} : (tensor<1x64xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>) -> tensor<1x64xf32, #pld.dist>
  return
}
