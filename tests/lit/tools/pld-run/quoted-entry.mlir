// Functions whose names are no bare identifiers are written in pld-run's
// reports as MLIR spells them (`@"sum four"`; they were printed raw, `@sum
// four`, which in a list reads as two names), and --entry takes that
// spelling as well as the bare name.
// RUN: not pld-run %s --ranks 2 2>&1 | FileCheck %s --check-prefix=SEVERAL
// SEVERAL: error: {{.*}}quoted-entry.mlir: the program has several HOST orchestrators (@"sum four", @"max-eight"); pick one with --entry
// RUN: pld-run %s --ranks 2 '--entry=@"sum four"' --check | FileCheck %s --check-prefix=QUOTED
// RUN: pld-run %s --ranks 2 '--entry=sum four' --check | FileCheck %s --check-prefix=QUOTED
// QUOTED: @"sum four" on 2 devices: 1 collective call
// QUOTED: pld.tensor_allreduce at {{.*}}quoted-entry.mlir:{{[0-9]+}}:10: f32 x 64 (sum, mesh), {{.*}}: ok on 2 ranks
// RUN: not pld-run %s --ranks 2 '--entry=@"no such"' 2>&1 | FileCheck %s --check-prefix=NONE
// NONE: error: {{.*}}quoted-entry.mlir: @"no such" is not a HOST orchestrator of the program (those are: @"sum four", @"max-eight")

!data = tensor<1x64xf32, #pld.dist>
func.func @"sum four"() attributes {pld.kind = #pld.func_kind<"host">} {
  %bytes = arith.constant 256 : i64
  %buf = "pld.tensor_alloc_window_buffer"(%bytes) {name = "a"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%buf) : (!pld.ptr) -> !data
  %sum = "pld.tensor_allreduce"(%data) {op = #pld.reduce_op<"sum">} : (!data) -> !data
  return
}
func.func @"max-eight"() attributes {pld.kind = #pld.func_kind<"host">} {
  %bytes = arith.constant 256 : i64
  %buf = "pld.tensor_alloc_window_buffer"(%bytes) {name = "b"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%buf) : (!pld.ptr) -> !data
  %max = "pld.tensor_allreduce"(%data) {op = #pld.reduce_op<"max">} : (!data) -> !data
  return
}
