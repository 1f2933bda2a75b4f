/* The OpenMPI anchor of `pld-bench allreduce`: MPI_Allreduce of N floats
 * (Sum) on every rank, best of RUNS timed calls after one warm-up call,
 * each timed between barriers. Prints "best <seconds>" on rank 0.
 *
 * usage: mpirun -np P mpi_allreduce N RUNS */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  long n = argc > 1 ? atol(argv[1]) : 16L * 1024 * 1024;
  int runs = argc > 2 ? atoi(argv[2]) : 5;
  float *data = malloc(sizeof(float) * (size_t)n);
  if (data == NULL) {
    fprintf(stderr, "mpi_allreduce: out of memory\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  double best = 1e30;
  for (int run = 0; run <= runs; run++) {
    for (long i = 0; i < n; i++) data[i] = 1.0f;
    MPI_Barrier(MPI_COMM_WORLD);
    double start = MPI_Wtime();
    MPI_Allreduce(MPI_IN_PLACE, data, (int)n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    double local = MPI_Wtime() - start, slowest = 0;
    MPI_Reduce(&local, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (run > 0 && slowest < best) best = slowest;
  }
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (data[0] != (float)size || data[n - 1] != (float)size) {
    fprintf(stderr, "mpi_allreduce: wrong result %g\n", data[0]);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  if (rank == 0) printf("best %.9f\n", best);
  free(data);
  MPI_Finalize();
  return 0;
}
