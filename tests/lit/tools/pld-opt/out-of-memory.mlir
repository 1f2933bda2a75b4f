// A failed allocation of pld-opt's own (Rust) code ends it with an error
// and status 1, not an abort: a 200 MiB module under an address-space
// limit of 700 MB (ulimit -v) was read, then its copy's allocation failed
// and Rust aborted ("memory allocation of ... bytes failed", status 134).
// Either the read itself or a later allocation may fail, depending on the
// machine; neither may abort (`not` fails on a crash). The limit lies in
// the middle of the range where the tools start and this module does not
// fit (about 350 to 1200 MB for the debug build, 400 to 1000 MB release).
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 -c "open('%t/big.mlir', 'w').write('// ' + 'x' * (200 << 20) + '\nmodule {}\n')"
// RUN: not sh -c 'ulimit -v 700000 && exec pld-opt %t/big.mlir -o /dev/null' 2>&1 | FileCheck %s
// RUN: rm -rf %t
// CHECK: pld-opt: error: {{(cannot read '.*big.mlir': out of memory|out of memory \(an allocation of pld-opt failed\): the machine's free memory, or the process's limit \(ulimit -v\), is too small for this run)}}
