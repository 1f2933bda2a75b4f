// The compile cache (docs/tools/pld-run.md#the-compile-cache): the first
// run of a program lowers and compiles it and stores both; the next reads
// them back and gets the same results; --no-cache makes both again; a
// damaged entry (cut short, or one byte changed) is made again and
// rewritten, never used; runs in parallel on one cache all succeed; the
// size bound removes entries. Reports from code loaded from the cache name
// the ops as those of a compiled one do.
//
// RUN: rm -rf %t.cache && mkdir -p %t.cache
// RUN: pld-run %s --ranks 2 --check --stats --cache-dir %t.cache | FileCheck %s --check-prefix=COLD
// RUN: pld-run %s --ranks 2 --check --stats --cache-dir %t.cache | FileCheck %s --check-prefix=WARM
// RUN: pld-run %s --ranks 2 --check --stats --no-cache | FileCheck %s --check-prefix=OFF
// COLD: rank 0: ok
// COLD: compile cache: lowered module made and cached, code made and cached
// WARM: rank 0: ok
// WARM-NEXT: rank 1: ok
// WARM: compile cache: lowered module read from the cache, code read from the cache
// OFF: compile cache: lowered module and code made (cache off: --no-cache)
//
// Two entries, the lowered module and the object; cut the object short
// and change a byte of the lowered module: both are made again.
// RUN: ls %t.cache | FileCheck %s --check-prefix=FILES
// FILES-DAG: {{^[0-9a-f]{16}\.lowered$}}
// FILES-DAG: {{^[0-9a-f]{16}\.object$}}
// RUN: sh -c 'for f in %t.cache/*.object; do head -c 2000 "$f" > "$f.cut" && mv "$f.cut" "$f"; done'
// RUN: sh -c 'for f in %t.cache/*.lowered; do sed -i "s/func.func/func.fxnc/" "$f"; done'
// RUN: pld-run %s --ranks 2 --check --stats --cache-dir %t.cache | FileCheck %s --check-prefix=COLD
// RUN: pld-run %s --ranks 2 --check --stats --cache-dir %t.cache | FileCheck %s --check-prefix=WARM
//
// Four runs at once on an empty cache: each is right, and the entries are
// whole.
// RUN: rm -rf %t.par
// RUN: sh -c 'for i in 1 2 3 4; do pld-run %s --ranks 2 --check --cache-dir %t.par > %t.par$i 2>&1 & done; wait'
// RUN: cat %t.par1 %t.par2 %t.par3 %t.par4 | FileCheck %s --check-prefix=PAR
// PAR-COUNT-4: rank 1: ok
// RUN: pld-run %s --ranks 2 --check --stats --cache-dir %t.par | FileCheck %s --check-prefix=WARM
//
// A bound of one byte leaves nothing after a write.
// RUN: rm -rf %t.small
// RUN: env PLD_CACHE_MAX_BYTES=1 pld-run %s --ranks 2 --cache-dir %t.small
// RUN: sh -c 'test -z "$(ls %t.small)"'
//
// The environment names the directory too; PLD_NO_CACHE turns it off.
// RUN: rm -rf %t.env
// RUN: env PLD_CACHE_DIR=%t.env pld-run %s --ranks 2 > /dev/null
// RUN: ls %t.env | FileCheck %s --check-prefix=FILES
// RUN: env PLD_NO_CACHE=1 pld-run %s --ranks 2 --stats | FileCheck %s --check-prefix=ENV-OFF
// ENV-OFF: compile cache: lowered module and code made (cache off: PLD_NO_CACHE)
//
// A race found by code from the cache names its ops as before.
// RUN: rm -rf %t.race
// RUN: not pld-run %S/../../../explore/remote-load-without-wait.mlir --ranks 2 --explore 4 --cache-dir %t.race > %t.race1
// RUN: not pld-run %S/../../../explore/remote-load-without-wait.mlir --ranks 2 --explore 4 --cache-dir %t.race > %t.race2
// RUN: FileCheck %s --check-prefix=RACE --input-file=%t.race2
// RACE: race: rank {{[01]}}'s `pld.tile_remote_load` (pto.tload) at {{.*}}remote-load-without-wait.mlir:20:8
// RUN: sh -c 'grep -v "schedules explored" %t.race1 > %t.race1.f; grep -v "schedules explored" %t.race2 > %t.race2.f; cmp %t.race1.f %t.race2.f'
//
// --no-cache and --cache-dir do not go together.
// RUN: not pld-run %s --no-cache --cache-dir %t.cache 2>&1 | FileCheck %s --check-prefix=BOTH
// BOTH: error: the argument '--no-cache' cannot be used with '--cache-dir <DIR>'

func.func @sum(%data: tensor<1x64xf32, #pld.dist>, %sig: tensor<2x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %r = "pld.tensor_allreduce"(%data, %sig) {op = #pld.reduce_op<"sum">} : (tensor<1x64xf32, #pld.dist>, tensor<2x1xi32, #pld.dist>) -> tensor<1x64xf32, #pld.dist>
  return
}
