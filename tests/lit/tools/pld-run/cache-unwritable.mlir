// A compile cache that cannot be written: the run is the same, its
// --stats line says that nothing was cached and why, and one warning on
// standard error says so (docs/tools/pld-run.md#the-compile-cache).
//
// A directory under a regular file, a device (not a directory: it said
// "cannot make the directory ...: File exists"), a directory /proc refuses:
// RUN: rm -rf %t && mkdir -p %t && echo precious > %t/afile
// RUN: pld-run %s --ranks 2 --check --stats --cache-dir %t/afile/sub > %t/sub.out 2> %t/sub.err
// RUN: FileCheck %s --check-prefix=SUB --input-file=%t/sub.out
// SUB: rank 1: ok
// SUB: compile cache: lowered module and code made, not cached: cannot make the directory '{{.*}}afile/sub': {{.*}}
// RUN: FileCheck %s --check-prefix=WARN-SUB --input-file=%t/sub.err
// WARN-SUB: pld-run: warning: the compile cache cannot keep what this run made: cannot make the directory '{{.*}}afile/sub': {{.*}}
// RUN: sh -c 'test "$(wc -l < %t/sub.err)" -eq 1'
// RUN: grep -qx precious %t/afile
// RUN: pld-run %s --ranks 2 --check --stats --cache-dir /dev/null > %t/null.out 2> %t/null.err
// RUN: FileCheck %s --check-prefix=NULL --input-file=%t/null.out
// NULL: compile cache: lowered module and code made, not cached: '/dev/null' is not a directory{{$}}
// RUN: sh -c 'test "$(wc -l < %t/null.err)" -eq 1'
// RUN: pld-run %s --ranks 2 --check --stats --cache-dir /proc/self/nope > %t/proc.out 2> %t/proc.err
// RUN: FileCheck %s --check-prefix=PROC --input-file=%t/proc.out
// PROC: compile cache: lowered module and code made, not cached: cannot make the directory '/proc/self/nope': {{.*}}
// RUN: FileCheck %s --check-prefix=WARN-PROC --input-file=%t/proc.err
// WARN-PROC: pld-run: warning: the compile cache cannot keep what this run made: cannot make the directory '/proc/self/nope'
// RUN: sh -c 'test "$(wc -l < %t/proc.err)" -eq 1'
//
// An entry's name taken by a directory: the lowered module is read back,
// the code is made and not cached.
// RUN: pld-run %s --ranks 2 --cache-dir %t/d > /dev/null
// RUN: sh -c 'for f in %t/d/*.object; do rm "$f" && mkdir "$f"; done'
// RUN: pld-run %s --ranks 2 --check --stats --cache-dir %t/d > %t/dir.out 2> %t/dir.err
// RUN: FileCheck %s --check-prefix=DIR --input-file=%t/dir.out
// DIR: rank 1: ok
// DIR: compile cache: lowered module read from the cache, code made, not cached: its entry '{{.*}}.object' is a directory
// RUN: FileCheck %s --check-prefix=WARN-DIR --input-file=%t/dir.err
// WARN-DIR: pld-run: warning: the compile cache cannot keep what this run made: its entry '{{.*}}.object' is a directory
//
// A bound smaller than any entry: nothing is written, and the run says so.
// RUN: env PLD_CACHE_MAX_BYTES=0 pld-run %s --ranks 2 --check --stats --cache-dir %t/zero > %t/zero.out 2> %t/zero.err
// RUN: FileCheck %s --check-prefix=ZERO --input-file=%t/zero.out
// ZERO: compile cache: lowered module made, not cached: the entry's {{[0-9]+}} bytes exceed the cache's bound of 0 bytes (PLD_CACHE_MAX_BYTES), code made, not cached: the entry's {{[0-9]+}} bytes exceed
// RUN: sh -c 'test "$(wc -l < %t/zero.err)" -eq 1'
// RUN: sh -c 'test -z "$(ls -A %t/zero)"'
//
// A directory this user may not write (as an unprivileged user when run
// as root): no message of LLVM's about the object file it could not dump.
// RUN: mkdir -p %t/ro %t/home && chmod 555 %t/ro && chmod 777 %t/home && chmod 755 %t
// RUN: sh -c 'if [ "$(id -u)" = 0 ]; then setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=%t/home TMPDIR=%t/home pld-run %s --ranks 2 --stats --cache-dir %t/ro; else pld-run %s --ranks 2 --stats --cache-dir %t/ro; fi' > %t/ro.out 2> %t/ro.err
// RUN: FileCheck %s --check-prefix=RO --input-file=%t/ro.out
// RO: compile cache: lowered module and code made, not cached: cannot write a file in '{{.*}}ro': Permission denied
// RUN: FileCheck %s --check-prefix=WARN-RO --input-file=%t/ro.err
// WARN-RO: pld-run: warning: the compile cache cannot keep what this run made: cannot write a file in '{{.*}}ro': Permission denied
// RUN: sh -c 'test "$(wc -l < %t/ro.err)" -eq 1'

func.func @sum(%data: tensor<1x64xf32, #pld.dist>, %sig: tensor<2x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">} : (tensor<1x64xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>) -> tensor<1x64xf32, #pld.dist>
  return
}
