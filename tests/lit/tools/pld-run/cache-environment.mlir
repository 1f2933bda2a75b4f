// What the environment says about the compile cache, read strictly
// (docs/tools/pld-run.md#the-compile-cache).
//
// PLD_NO_CACHE turns the cache off even with --cache-dir, and --stats says
// why; 0, false, no, off and nothing keep it on; other values are refused.
// RUN: rm -rf %t && mkdir -p %t
// RUN: env PLD_NO_CACHE=1 pld-run %s --ranks 2 --stats --cache-dir %t/off | FileCheck %s --check-prefix=NO-CACHE
// RUN: env PLD_NO_CACHE=Yes pld-run %s --ranks 2 --stats --cache-dir %t/off | FileCheck %s --check-prefix=NO-CACHE
// NO-CACHE: compile cache: lowered module and code made (cache off: PLD_NO_CACHE)
// RUN: test ! -e %t/off
// RUN: env PLD_NO_CACHE=false PLD_CACHE_DIR=%t/on pld-run %s --ranks 2 --stats | FileCheck %s --check-prefix=ON
// RUN: env PLD_NO_CACHE=NO PLD_CACHE_DIR=%t/on2 pld-run %s --ranks 2 --stats | FileCheck %s --check-prefix=ON
// RUN: env PLD_NO_CACHE=Off PLD_CACHE_DIR=%t/on3 pld-run %s --ranks 2 --stats | FileCheck %s --check-prefix=ON
// RUN: env PLD_NO_CACHE= PLD_CACHE_DIR=%t/on4 pld-run %s --ranks 2 --stats | FileCheck %s --check-prefix=ON
// ON: compile cache: lowered module made and cached, code made and cached
// RUN: sh -c 'env PLD_NO_CACHE=maybe pld-run %s --ranks 2 --cache-dir %t/on 2> %t/maybe.err; test $? -eq 1'
// RUN: FileCheck %s --check-prefix=MAYBE --input-file=%t/maybe.err
// MAYBE: pld-run: error: PLD_NO_CACHE=maybe: say 1, true, yes or on to turn the compile cache off, or 0, false, no, off or nothing to keep it on
//
// PLD_CACHE_MAX_BYTES: bytes, or with K, M, G or T; nothing else.
// RUN: env PLD_CACHE_MAX_BYTES=512M pld-run %s --ranks 2 --stats --cache-dir %t/big | FileCheck %s --check-prefix=ON
// RUN: sh -c 'env PLD_CACHE_MAX_BYTES=abc pld-run %s --ranks 2 --cache-dir %t/on 2> %t/abc.err; test $? -eq 1'
// RUN: FileCheck %s --check-prefix=ABC --input-file=%t/abc.err
// ABC: pld-run: error: PLD_CACHE_MAX_BYTES=abc: the compile cache's bound must be a number of bytes, optionally followed by K, M, G or T (powers of 1024), e.g. 512M
// RUN: sh -c 'env PLD_CACHE_MAX_BYTES=-1 pld-run %s --ranks 2 --cache-dir %t/on; test $? -eq 1'
// RUN: sh -c 'env PLD_CACHE_MAX_BYTES=1e6 pld-run %s --ranks 2 --cache-dir %t/on; test $? -eq 1'
// RUN: sh -c 'env PLD_CACHE_MAX_BYTES=" 5000" pld-run %s --ranks 2 --cache-dir %t/on; test $? -eq 1'
//
// --cache-dir "" is a malformed command line; an empty PLD_CACHE_DIR is
// an unset one, and a relative XDG_CACHE_HOME is ignored (the XDG base
// directory specification): both fall back to HOME.
// RUN: sh -c 'pld-run %s --ranks 2 --cache-dir "" 2> %t/empty.err; test $? -eq 2'
// RUN: FileCheck %s --check-prefix=EMPTY --input-file=%t/empty.err
// EMPTY: error: a value is required for '--cache-dir <DIR>' but none was supplied
// RUN: cd %t && env PLD_CACHE_DIR= XDG_CACHE_HOME=rel HOME=%t/home pld-run %s --ranks 2 --stats | FileCheck %s --check-prefix=ON
// RUN: ls %t/home/.cache/pld | FileCheck %s --check-prefix=FILES
// FILES: .lowered
// RUN: test ! -e %t/rel
//
// Neither HOME nor XDG_CACHE_HOME nor PLD_CACHE_DIR: the cache is off, and
// --stats says why.
// RUN: env -u PLD_CACHE_DIR -u XDG_CACHE_HOME -u HOME pld-run %s --ranks 2 --stats | FileCheck %s --check-prefix=NO-DIR
// NO-DIR: compile cache: lowered module and code made (cache off: neither PLD_CACHE_DIR, an absolute XDG_CACHE_HOME nor HOME is set){{$}}
// A relative XDG_CACHE_HOME is no place either (the message said it was
// unset):
// RUN: env -u PLD_CACHE_DIR -u HOME XDG_CACHE_HOME=rel pld-run %s --ranks 2 --stats | FileCheck %s --check-prefix=NO-DIR
//
// A module already converted by pld-to-pto needs no lowering.
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-to-pto)' -o %t/sum.pto.mlir
// RUN: pld-run %t/sum.pto.mlir --ranks 2 --stats --cache-dir %t/pto | FileCheck %s --check-prefix=PTO-COLD
// RUN: pld-run %t/sum.pto.mlir --ranks 2 --stats --cache-dir %t/pto | FileCheck %s --check-prefix=PTO-WARM
// PTO-COLD: compile cache: no lowering needed, code made and cached
// PTO-WARM: compile cache: no lowering needed, code read from the cache

func.func @sum(%data: tensor<1x64xf32, #pld.dist>, %sig: tensor<2x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">} : (tensor<1x64xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>) -> tensor<1x64xf32, #pld.dist>
  return
}
