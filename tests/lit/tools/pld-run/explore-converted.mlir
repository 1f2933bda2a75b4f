// A finding quotes the input's line under each op it names only when the
// op is at a place of the input. A module converted with its source's
// locations (--mlir-print-debuginfo) has its ops at places of that
// source, whose lines are not the converted text's: its line 20 was
// quoted under remote-load-without-wait.mlir:20:8, a caret into an
// unrelated line (explore25 MED 1).
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: pld-opt %S/../../../explore/remote-load-without-wait.mlir --pass-pipeline='builtin.module(pld-to-pto)' --mlir-print-debuginfo -o %t/converted.mlir
// RUN: not pld-run %t/converted.mlir --ranks 2 --explore 10 > %t/converted.out 2>&1
// RUN: FileCheck %s --check-prefix=CONVERTED --input-file=%t/converted.out
// CONVERTED: race: rank 1's `pto.tload` at {{.*}}remote-load-without-wait.mlir:20:8
// CONVERTED-NOT: {{^}}  {{.*}}remote-load-without-wait.mlir:20:8:{{$}}
//
// Converted under the same file name as its source (the locations name
// remote-load-without-wait.mlir, and so does the input): the ops at those
// lines are not the ones named, so nothing is quoted (the converted
// text's lines 20 and 17 were: recheck25b M1).
// RUN: mkdir -p %t/same && cd %S/../../../explore && pld-opt remote-load-without-wait.mlir --pass-pipeline='builtin.module(pld-to-pto)' --mlir-print-debuginfo -o %t/same/remote-load-without-wait.mlir
// RUN: cd %t/same && not pld-run remote-load-without-wait.mlir --ranks 2 --explore 10 > %t/same.out 2>&1
// RUN: FileCheck %s --check-prefix=SAME --input-file=%t/same.out
// SAME: race: rank 1's `pto.tload` at remote-load-without-wait.mlir:20:8
// SAME-NOT: {{^}}  remote-load-without-wait.mlir:{{[0-9]+}}:{{[0-9]+}}:{{$}}
//
// The source itself is quoted:
// RUN: not pld-run %S/../../../explore/remote-load-without-wait.mlir --ranks 2 --explore 10 2>&1 | FileCheck %s --check-prefix=SOURCE
// SOURCE: {{^}}  {{.*}}remote-load-without-wait.mlir:20:8:{{$}}
// SOURCE-NEXT: pld.tile_remote_load
