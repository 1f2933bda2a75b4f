// pld-translate --emit=kernels into a directory that cannot take the
// package (a directory where kernels.json goes, a file where next_levels
// goes): the error names the path at fault, and nothing is written (it
// named the -o directory and left the package's other files behind).
//
// RUN: rm -rf %t && mkdir -p %t/json/kernels.json %t/levels && touch %t/levels/next_levels
// RUN: pld-opt %S/../../../../examples/chip_all_to_all_v.mlir --pass-pipeline='builtin.module(pld-to-pto)' -o %t/lowered.mlir
// RUN: not pld-translate --emit=kernels %t/lowered.mlir -o %t/json 2>&1 | FileCheck %s --check-prefix=JSON
// JSON: pld-translate: error: cannot write the kernels: '{{.*}}json/kernels.json' is a directory, where the file goes
// RUN: find %t/json | sort | FileCheck %s --check-prefix=JSON-LEFT
// JSON-LEFT: json
// JSON-LEFT-NEXT: json/kernels.json
// JSON-LEFT-NOT: json/
// RUN: not pld-translate --emit=kernels %t/lowered.mlir -o %t/levels 2>&1 | FileCheck %s --check-prefix=LEVELS
// LEVELS: pld-translate: error: cannot write the kernels: '{{.*}}levels/next_levels' is a file, where a directory goes
// RUN: find %t/levels | sort | FileCheck %s --check-prefix=LEVELS-LEFT
// LEVELS-LEFT: levels
// LEVELS-LEFT-NEXT: levels/next_levels
// LEVELS-LEFT-NOT: levels/
// No staging directory is left beside them.
// RUN: ls -a %t | FileCheck %s --check-prefix=STAGING
// STAGING-NOT: pld-
// The same module into a fresh directory goes through.
// A DIR whose directory cannot be made names DIR and what is at fault (it
// named only the parent, as if that were the output):
// RUN: not pld-translate --emit=kernels %t/lowered.mlir -o %t/levels/next_levels/a/b 2>&1 | FileCheck %s --check-prefix=PARENT
// PARENT: pld-translate: error: cannot write the kernels to '{{.*}}levels/next_levels/a/b': '{{.*}}levels/next_levels' is a file, where a directory goes
// RUN: not pld-translate --emit=kernels %t/lowered.mlir -o /proc/no-such-dir/x 2>&1 | FileCheck %s --check-prefix=PROC
// PROC: pld-translate: error: cannot write the kernels to '/proc/no-such-dir/x': cannot make its directory '/proc/no-such-dir': No such file or directory
// A device where DIR goes is called a device (it was "a file"); a DIR
// whose parent takes no new entry names the parent where the package is
// staged (it said only "No such file or directory" of /proc/self):
// RUN: not pld-translate --emit=kernels %t/lowered.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEVICE
// DEVICE: pld-translate: error: cannot write the kernels: '/dev/null' is a device, where a directory goes
// RUN: not pld-translate --emit=kernels %t/lowered.mlir -o /proc/self 2>&1 | FileCheck %s --check-prefix=STAGE
// STAGE: pld-translate: error: cannot write the kernels to '/proc/self': cannot stage them in '/proc': No such file or directory
// RUN: pld-translate --emit=kernels %t/lowered.mlir -o %t/fresh
// RUN: ls %t/fresh | FileCheck %s --check-prefix=FRESH
// FRESH: kernels.json
// FRESH: next_levels
