// Entries the compile cache does not trust (docs/tools/pld-run.md#the-compile-cache):
// what is in an entry's place is read only when it is a regular file, and
// never more than its first line says; a changed byte anywhere, the
// metadata's source locations included, makes it a miss that is made and
// written again.
//
// A FIFO and a link to /dev/zero in place of the entries: neither blocks
// nor reads without end (the old pld-run hung here, hence the timeout);
// both are made and replaced by regular files.
// RUN: rm -rf %t && mkdir -p %t
// RUN: pld-run %s --ranks 2 --cache-dir %t/c > /dev/null
// RUN: sh -c 'for f in %t/c/*.object; do rm "$f" && mkfifo "$f"; done'
// RUN: sh -c 'for f in %t/c/*.lowered; do rm "$f" && ln -s /dev/zero "$f"; done'
// RUN: timeout 60 pld-run %s --ranks 2 --check --stats --cache-dir %t/c | FileCheck %s --check-prefix=REMADE
// REMADE: rank 1: ok
// REMADE: compile cache: lowered module made and cached, code made and cached
// RUN: sh -c 'for f in %t/c/*; do test -f "$f" && test ! -L "$f" || exit 1; done'
// RUN: pld-run %s --ranks 2 --check --stats --cache-dir %t/c | FileCheck %s --check-prefix=READ
// READ: compile cache: lowered module read from the cache, code read from the cache
//
// An entry with bytes after those its first line counts is a miss.
// RUN: sh -c 'for f in %t/c/*.lowered; do echo "// more" >> "$f"; done'
// RUN: pld-run %s --ranks 2 --check --stats --cache-dir %t/c | FileCheck %s --check-prefix=LONGER
// LONGER: compile cache: lowered module made and cached, code read from the cache
//
// A source location changed in the code's entry (the sites its reports
// name): a miss, so a race found later names the op where it is, and the
// entry is written again without the change.
// RUN: not pld-run %S/../../../explore/remote-load-without-wait.mlir --ranks 2 --explore 4 --cache-dir %t/race > /dev/null
// RUN: grep -c -a 'remote-load-without-wait.mlir:20:8' %t/race/*.object
// RUN: sed -i 's/remote-load-without-wait.mlir:20:8/remote-load-without-wait.mlir:29:99/' %t/race/*.object
// RUN: not pld-run %S/../../../explore/remote-load-without-wait.mlir --ranks 2 --explore 4 --cache-dir %t/race > %t/race.out
// RUN: FileCheck %s --check-prefix=RACE --input-file=%t/race.out
// RACE: race: rank {{[01]}}'s `pld.tile_remote_load` (pto.tload) at {{.*}}remote-load-without-wait.mlir:20:8
// RACE-NOT: :29:99
// RUN: not grep -q -a ':29:99' %t/race/*.object

func.func @sum(%data: tensor<1x64xf32, #pld.dist>, %sig: tensor<2x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">} : (tensor<1x64xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>) -> tensor<1x64xf32, #pld.dist>
  return
}
