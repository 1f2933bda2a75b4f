/* The ideal in-process allreduces of `pld-bench allreduce`, P pthreads over
 * P shared buffers of N floats:
 * - ring: reduce-scatter then all-gather around the ring (each step pulls
 *   one segment from the left neighbour), one barrier per step;
 * - one_shot: every thread reads all P inputs and writes its own sum (into
 *   a buffer of its own, so no reader sees a sum), one barrier.
 * Best of RUNS timed allreduces; prints "best <seconds>".
 *
 * usage: ideal_allreduce P N RUNS [ring|one_shot] */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "in_process.h"

static int ranks;
static long n;
static float **buffers;
static float **sums;
static pthread_barrier_t barrier;

/* Elements summed at a time: the block stays in the cache while the P
 * inputs stream past it once each. */
#define BLOCK 4096L

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


static void *one_shot_main(void *arg) {
  int me = (int)(long)arg;
  float *out = sums[me];
  static _Thread_local float block[BLOCK];
  for (long start = 0; start < n; start += BLOCK) {
    long count = start + BLOCK < n ? BLOCK : n - start;
    for (long i = 0; i < count; i++) block[i] = buffers[0][start + i];
    for (int r = 1; r < ranks; r++) {
      const float *restrict in = buffers[r] + start;
      for (long i = 0; i < count; i++) block[i] += in[i];
    }
    store_past_cache(out + start, block, count);
  }
  pthread_barrier_wait(&barrier);
  return NULL;
}



int main(int argc, char **argv) {
  ranks = argc > 1 ? atoi(argv[1]) : 2;
  n = argc > 2 ? atol(argv[2]) : 16L * 1024 * 1024;
  int runs = argc > 3 ? atoi(argv[3]) : 5;
  int one_shot = argc > 4 && strcmp(argv[4], "one_shot") == 0;
  if (ranks < 1 || n < 1 || (argc > 4 && !one_shot && strcmp(argv[4], "ring") != 0)) return 2;
  buffers = calloc((size_t)ranks, sizeof(float *));
  sums = calloc((size_t)ranks, sizeof(float *));
  pthread_t *threads = calloc((size_t)ranks, sizeof(pthread_t));
  for (int r = 0; r < ranks; r++) {
    buffers[r] = window(n);
    sums[r] = one_shot ? window(n) : buffers[r];
    if (buffers[r] == NULL || sums[r] == NULL) return 1;
  }
  pthread_barrier_init(&barrier, NULL, (unsigned)ranks);
  void *(*body)(void *) = one_shot ? one_shot_main : rank_main;
  double best = 1e30;
  for (int run = 0; run <= runs; run++) {
    for (int r = 0; r < ranks; r++)
      for (long i = 0; i < n; i++) buffers[r][i] = 1.0f;
    double start = now();
    for (int r = 0; r < ranks; r++) pthread_create(&threads[r], NULL, body, (void *)(long)r);
    for (int r = 0; r < ranks; r++) pthread_join(threads[r], NULL);
    double took = now() - start;
    if (run > 0 && took < best) best = took;
  }
  for (int r = 0; r < ranks; r++)
    if (sums[r][0] != (float)ranks || sums[r][n - 1] != (float)ranks) {
      fprintf(stderr, "ideal_allreduce: wrong result\n");
      return 1;
    }
  printf("best %.9f\n", best);
  return 0;
}
