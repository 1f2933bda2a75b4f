// A numeric option given a negative number is refused naming the value
// (it was "unexpected argument '-1' found"), and the usage shown after an
// error is the whole one, INPUT optional. Malformed values are status 2
// (docs/tools/pld-run.md, "Exit status").
//
// RUN: not pld-run %s --ranks -1 2>&1 | FileCheck %s --check-prefix=RANKS
// --kernel and --entry take a name with or without its @ (with it, pld-run
// looked for "@@name").
// RUN: pld-run %S/../../../../examples/ring_allreduce.mlir --ranks 4 --kernel @ring_allreduce | FileCheck %s --check-prefix=AT-KERNEL
// RUN: pld-run %S/../../../../examples/two_domains.mlir --ranks 4 --entry @main | FileCheck %s --check-prefix=AT-ENTRY
// AT-KERNEL: @ring_allreduce on 4 ranks: finished in
// AT-ENTRY: @main on 4 devices: 3 collective calls
// Both at once: refused, status 2 (--kernel was ignored, the program run).
// RUN: sh -c 'pld-run %S/../../../../examples/allreduce.mlir --kernel reduce_kernel --entry main; echo "status $?"' 2>&1 | FileCheck %s --check-prefix=BOTH
// BOTH: error: the argument '--kernel <KERNEL>' cannot be used with '--entry <ENTRY>'
// BOTH: status 2
// RUN: sh -c 'pld-run %s --ranks -1 > /dev/null 2>&1; test $? -eq 2'
// RANKS: pld-run: error: invalid value '-1' for '--ranks <RANKS>': ranks must be 1 to 64
// A count the simulator does not run is a malformed command line too (it
// was status 1, as a bad input is).
// RUN: sh -c 'pld-run %s --ranks 0 > /dev/null 2>&1; test $? -eq 2'
// RUN: not pld-run %s --ranks 65 2>&1 | FileCheck %s --check-prefix=RANKS65
// RUN: sh -c 'pld-run %s --ranks 65 > /dev/null 2>&1; test $? -eq 2'
// RANKS65: {{^}}pld-run: error: invalid value '65' for '--ranks <RANKS>': ranks must be 1 to 64
// RUN: not pld-run %s --ranks two 2>&1 | FileCheck %s --check-prefix=RANKSWORD
// RANKSWORD: error: invalid value 'two' for '--ranks <RANKS>': not a number of ranks (1 to 64)
// RUN: not pld-run %s --warmup -1 2>&1 | FileCheck %s --check-prefix=WARMUP
// WARMUP: error: invalid value '-1' for '--warmup <N>': invalid digit found in string
// RUN: not pld-run %s --explore -3 2>&1 | FileCheck %s --check-prefix=EXPLORE
// EXPLORE: error: invalid value '-3' for '--explore <K>': invalid digit found in string
// RUN: not pld-run %s --time-limit -1 2>&1 | FileCheck %s --check-prefix=LIMIT
// RUN: sh -c 'pld-run %s --time-limit -1 > /dev/null 2>&1; test $? -eq 2'
// LIMIT: pld-run: error: --time-limit takes a positive number of seconds (at most about 1.8e19), not -1.0
// RUN: not pld-run %s --deadline -0.5 2>&1 | FileCheck %s --check-prefix=DEADLINE
// DEADLINE: pld-run: error: --deadline takes a positive number of seconds (at most about 1.8e19), not -0.5
// An --input without `=` is malformed too (it was status 1):
// RUN: not pld-run %s --ranks 2 --input s 2>&1 | FileCheck %s --check-prefix=PAIR
// RUN: sh -c 'pld-run %s --ranks 2 --input s > /dev/null 2>&1; test $? -eq 2'
// PAIR: pld-run: error: --input takes PARAM=GENERATOR, not 's'
// Said before the module is read: a module pld-run refuses (the ring on 2
// ranks, which needs 4) said its own error first, status 1 (recheck27b M4).
// RUN: not pld-run %S/../../../../examples/ring_allreduce.mlir --input data 2>&1 | FileCheck %s --check-prefix=FIRST
// RUN: sh -c 'pld-run %S/../../../../examples/ring_allreduce.mlir --input data > /dev/null 2>&1; test $? -eq 2'
// FIRST: pld-run: error: --input takes PARAM=GENERATOR, not 'data'
// FIRST-NOT: signal
// RUN: not pld-run %s --bogus 2>&1 | FileCheck %s --check-prefix=USAGE
// USAGE: {{^}}pld-run: error: unexpected argument '--bogus' found
// USAGE: Usage: pld-run [OPTIONS] [INPUT]

func.func @k(%s: tensor<2x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_barrier"(%s) : (tensor<2x1xi32, #pld.dist>) -> tensor<2x1xi32, #pld.dist>
  return
}
