// The all_reduce program `pld-bench shard-mpi` runs through both
// lowerings (bench/inputs/shard_all_reduce.mlir). The bench compiles the
// MPI side and runs it with MPICH, which `make test` does not install;
// here each side is checked on its own: upstream's convert-shard-to-mpi
// lowers it (a comm_split by row, an allreduce), and pld runs it on 8
// simulated devices, checked against the shard semantics.
//
// RUN: mlir-opt --convert-shard-to-mpi %S/../../../../bench/inputs/shard_all_reduce.mlir | FileCheck %s --check-prefix=MPI
// RUN: python3 %S/../../../shard/shard_golden.py %S/../../../../bench/inputs/shard_all_reduce.mlir --ranks 8 --work %t --check | FileCheck %s --check-prefix=PLD

// MPI: mpi.comm_split
// MPI: mpi.allreduce({{.*}}, MPI_SUM,

// PLD: @all_reduce on 8 devices: 2 collective calls
// PLD-COUNT-2: pld.tensor_allreduce at {{.*}}shard_all_reduce.mlir:10:12: f32 x 65536 (sum, two_shot), {{.*}}: ok on 4 ranks
// PLD: golden: result0 ok on 8 devices (65536 elements each)
