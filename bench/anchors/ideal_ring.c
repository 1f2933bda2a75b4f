/* The ideal in-process ring of `pld-bench allreduce`: P pthreads over P
 * shared buffers of N floats, reduce-scatter then all-gather around the
 * ring (each step pulls one segment from the left neighbour), one barrier
 * per step. Best of RUNS timed allreduces; prints "best <seconds>".
 *
 * usage: ideal_ring P N RUNS */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

#define HUGE ((size_t)2 << 20)

static int ranks;
static long n;
static float **buffers;
static pthread_barrier_t barrier;

static long boundary(int segment) { return (long)((double)segment * (double)n / ranks); }

static void *rank_main(void *arg) {
  int me = (int)(long)arg, left = (me + ranks - 1) % ranks;
  float *mine = buffers[me], *theirs = buffers[left];
  for (int step = 1; step < ranks; step++) {
    int segment = (me - step - 1 + 2 * ranks) % ranks;
    for (long i = boundary(segment); i < boundary(segment + 1); i++) mine[i] += theirs[i];
    pthread_barrier_wait(&barrier);
  }
  for (int step = 1; step < ranks; step++) {
    int segment = (me - step + 2 * ranks) % ranks;
    for (long i = boundary(segment); i < boundary(segment + 1); i++) mine[i] = theirs[i];
    pthread_barrier_wait(&barrier);
  }
  return NULL;
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv) {
  ranks = argc > 1 ? atoi(argv[1]) : 2;
  n = argc > 2 ? atol(argv[2]) : 16L * 1024 * 1024;
  int runs = argc > 3 ? atoi(argv[3]) : 5;
  if (ranks < 1 || n < 1) return 2;
  buffers = calloc((size_t)ranks, sizeof(float *));
  pthread_t *threads = calloc((size_t)ranks, sizeof(pthread_t));
  for (int r = 0; r < ranks; r++) {
    /* 2 MiB aligned and advised as huge pages, as the simulator's
     * windows are, so the anchor is not slowed by small pages. */
    size_t bytes = ((size_t)n * sizeof(float) + HUGE - 1) / HUGE * HUGE;
    buffers[r] = aligned_alloc(HUGE, bytes);
    if (buffers[r] == NULL) return 1;
    madvise(buffers[r], bytes, MADV_HUGEPAGE);
  }
  pthread_barrier_init(&barrier, NULL, (unsigned)ranks);
  double best = 1e30;
  for (int run = 0; run <= runs; run++) {
    for (int r = 0; r < ranks; r++)
      for (long i = 0; i < n; i++) buffers[r][i] = 1.0f;
    double start = now();
    for (int r = 0; r < ranks; r++) pthread_create(&threads[r], NULL, rank_main, (void *)(long)r);
    for (int r = 0; r < ranks; r++) pthread_join(threads[r], NULL);
    double took = now() - start;
    if (run > 0 && took < best) best = took;
  }
  for (int r = 0; r < ranks; r++)
    if (buffers[r][0] != (float)ranks || buffers[r][n - 1] != (float)ranks) {
      fprintf(stderr, "ideal_ring: wrong result\n");
      return 1;
    }
  printf("best %.9f\n", best);
  return 0;
}
