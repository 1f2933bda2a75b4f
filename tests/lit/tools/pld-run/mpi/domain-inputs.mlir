// REQUIRES: mpirun
// As ../domain-inputs.mlir, on 4 MPI processes under mpi and mpi-rma:
// pair_buf's --input files are read on devices 1 and 3 only.
//
// RUN: rm -rf %t && split-file %S/../domain-inputs.mlir %t && mkdir -p %t/in
// RUN: python3 %S/../Inputs/npy.py write %t/in/pair.rank1.npy f4 64 3f800000
// RUN: python3 %S/../Inputs/npy.py write %t/in/pair.rank3.npy f4 64 40000000
// RUN: %mpirun -np 4 pld-run %t/pair13.mlir --ranks 4 --check --transport mpi --input pair_buf=%t/in/pair.rank{rank}.npy --output-dir %t/mpi | FileCheck %s
// RUN: %mpirun -np 4 pld-run %t/pair13.mlir --ranks 4 --check --transport mpi-rma --input pair_buf=%t/in/pair.rank{rank}.npy --output-dir %t/rma | FileCheck %s
// RUN: python3 %S/../Inputs/npy.py show %t/mpi/pair_buf.rank1.npy | FileCheck %s --check-prefix=SUM
// RUN: python3 %S/../Inputs/npy.py show %t/rma/pair_buf.rank3.npy | FileCheck %s --check-prefix=SUM
// CHECK: pld.tensor_allreduce at {{.*}}pair13.mlir:{{[0-9]+}}:{{[0-9]+}}: f32 x 64 (sum, mesh), {{.*}}: ok on 2 ranks
// SUM: <f4 (64,): 40400000 x 64
