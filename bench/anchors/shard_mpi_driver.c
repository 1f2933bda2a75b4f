/* Runs a function that upstream MLIR's convert-shard-to-mpi lowered (a
 * rank-2 f32 tensor in, one out, through the C interface MLIR generates
 * for `llvm.emit_c_interface`) on every MPI process: reads this rank's
 * input, calls it `runs` times, each call timed between barriers (the
 * slowest rank's time), writes the last result, prints `best <seconds>`.
 *
 *   mpirun -np P shard_mpi ROWS COLS RUNS in.rank%d.bin out.rank%d.bin
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  float *allocated;
  float *aligned;
  int64_t offset;
  int64_t sizes[2];
  int64_t strides[2];
} Memref2;

void _mlir_ciface_all_reduce(Memref2 *result, Memref2 *input);

static int io(const char *pattern, int rank, float *data, size_t count, int write) {
  char path[4096];
  snprintf(path, sizeof path, pattern, rank);
  FILE *file = fopen(path, write ? "wb" : "rb");
  if (!file) {
    fprintf(stderr, "rank %d: cannot open %s\n", rank, path);
    return 1;
  }
  size_t done = write ? fwrite(data, sizeof(float), count, file)
                      : fread(data, sizeof(float), count, file);
  fclose(file);
  if (done != count) {
    fprintf(stderr, "rank %d: short %s of %s\n", rank, write ? "write" : "read", path);
    return 1;
  }
  return 0;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (argc != 6) {
    if (rank == 0) fprintf(stderr, "usage: shard_mpi ROWS COLS RUNS IN OUT\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  int64_t rows = atoll(argv[1]), cols = atoll(argv[2]);
  int runs = atoi(argv[3]);
  size_t count = (size_t)(rows * cols);
  float *input = malloc(count * sizeof(float));
  if (!input || io(argv[4], rank, input, count, 0)) MPI_Abort(MPI_COMM_WORLD, 1);
  Memref2 in = {input, input, 0, {rows, cols}, {cols, 1}};
  Memref2 out = {0};
  double best = 1e300;
  for (int run = 0; run < runs; run++) {
    if (out.allocated) free(out.allocated);
    MPI_Barrier(MPI_COMM_WORLD);
    double start = MPI_Wtime();
    _mlir_ciface_all_reduce(&out, &in);
    double mine = MPI_Wtime() - start, slowest;
    MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (slowest < best) best = slowest;
  }
  if (io(argv[5], rank, out.aligned + out.offset, count, 1)) MPI_Abort(MPI_COMM_WORLD, 1);
  if (rank == 0) printf("best %.9f\n", best);
  MPI_Finalize();
  return 0;
}
