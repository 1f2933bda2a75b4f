// pld-run on an A5 program: pld.tensor_indexed_all_to_all_v on the CHIP
// rail runs its URMA kernel (copies land between their submit and their
// completion wait), checked against the golden, and clean under the
// explorer. The same program on a2a3 (no pld.target) is refused by the
// verifier before anything runs.
//
// RUN: pld-run %S/../../../../examples/chip_indexed_all_to_all_v.mlir --ranks 2 --input send_counts=rank --check --stats | FileCheck %s
// The summary's collective column is as wide as the op's name (31), so the
// ranks column still ends under its title (it used to be pushed 5 right):
// RUN: pld-run %S/../../../../examples/chip_indexed_all_to_all_v.mlir --ranks 2 --input send_counts=rank | FileCheck %s --strict-whitespace --check-prefix=TABLE
// TABLE: {{^}}  #    collective                      ranks         size      count  type  redop  root       time    algbw    busbw  #wrong{{$}}
// TABLE: {{^}}  #  0 pld.tensor_indexed_all_to_all_v     2          512        128   f32   none     - {{ *[0-9.]+ +[0-9.]+ +[0-9.]+}}     N/A{{$}}
// RUN: pld-run %S/../../../../examples/chip_indexed_all_to_all_v.mlir --ranks 2 --input send_counts=ones --explore 20 | FileCheck %s --check-prefix=EXPLORE
// The builtin's asynchronous copies in --trace carry the call they serve,
// as its other events do (their "op" was the copy's direction, which kept
// the call's op and location out: dma26 M2):
// RUN: pld-run %S/../../../../examples/chip_indexed_all_to_all_v.mlir --ranks 2 --input send_counts=rank --trace %t.trace.json > /dev/null
// RUN: grep '"dma submit"' %t.trace.json | FileCheck %s --check-prefix=TRACE
// TRACE: "engine": "URMA", "copy": "T{{PUT|GET}}_ASYNC", "bytes": {{[0-9]+}}, "op": "pld.tensor_indexed_all_to_all_v", "loc": "{{.*}}chip_indexed_all_to_all_v.mlir:34:15"
// RUN: sed -e 's/module attributes {pld.target = "a5"} {/module {/' %S/../../../../examples/chip_indexed_all_to_all_v.mlir > %t.a2a3.mlir
// RUN: sh -c 'pld-run %t.a2a3.mlir --ranks 2 2>&1; test $? -eq 1' | FileCheck %s --check-prefix=A2A3
// A signal too narrow for core_num = 3 blocks, refused while planning:
// RUN: sed -e 's/2x3xi32/2x2xi32/g' %S/../../../../examples/chip_indexed_all_to_all_v.mlir > %t.narrow.mlir
// RUN: sh -c 'pld-opt %t.narrow.mlir --pass-pipeline="builtin.module(pld-lower-l2-tensor-collectives)" 2>&1; test $? -eq 1' | FileCheck %s --check-prefix=NARROW

// CHECK: @main on 2 devices: 1 collective call
// CHECK-NEXT: pld.tensor_indexed_all_to_all_v at {{.*}}chip_indexed_all_to_all_v.mlir:34:15: f32 x 128, {{.*}}: ok on 2 ranks
// CHECK: # 0 pld.tensor_indexed_all_to_all_v 2 512 128 f32 none - {{[0-9.]+}} {{[0-9.]+}} {{[0-9.]+}} 0
// CHECK: device  round trips
// CHECK-NEXT: all       1 each

// EXPLORE: @main on 2 devices: 20 schedules explored (seeds 0 to 19) {{.*}}: no race, missing fence, mixed notify, shared queue, leak or deadlock

// A2A3: {{.*}}.a2a3.mlir:34:15: error: 'pld.tensor_indexed_all_to_all_v' op requires pld.target = "a5" (its URMA transport exists only on A5), but the module targets "a2a3"

// NARROW: error: 'pld.tensor_indexed_all_to_all_v' op signal second dimension (S = 2) must be at least the launched block count
