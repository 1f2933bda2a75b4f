// Ctrl-C ends pld-opt with status 130 and a line naming the step it
// interrupted (it ended without a word, SIGINT's default action), and
// writes no output, -o's file included (trust23 M3). The explorer's
// schedules are many more than 2 s can run.
//
// RUN: rm -f %t.out
// RUN: sh -c 'timeout -k 5 --preserve-status -s INT 2 pld-opt %s --pass-pipeline="builtin.module(pld-to-pto,pld-explore-protocol{ranks=2 schedules=100000000})" -o %t.out 2> %t.err; test $? -eq 130'
// RUN: FileCheck %s < %t.err
// RUN: not test -e %t.out
// (On a loaded machine the 2 s may end in pld-to-pto already.)
// CHECK: {{^}}pld-opt: interrupted while running pass '{{pld-to-pto|pld-explore-protocol}}', {{[0-9.]+}}s in; no output was written
func.func @k(%sig: tensor<2x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_barrier"(%sig) : (tensor<2x1xi32, #pld.dist>) -> tensor<2x1xi32, #pld.dist>
  return
}
