/* The allreduce schedules of the collectives spec (section 7.1), written
 * directly in C: what the simulator's ring and mesh would cost with no
 * simulator in between. P ranks over P shared buffers of N floats; data
 * moves through 16 KiB tiles (the UB chunk of the spec), each rank with
 * its own accumulator tile;
 * - ring: reduce-scatter then all-gather, each step in subchunks of one
 *   tile, two all-rank barriers per subchunk (ready, read-complete), the
 *   store after the second;
 * - mesh: a ready barrier, then per tile: load the own tile, add every
 *   peer's, one all-rank barrier, store;
 * - two_shot (pld's own, docs/passes/pld-lower-composite-ops.md): a ready
 *   barrier, each rank reduces its own segment tile by tile as the mesh
 *   does, a barrier, each gathers the other segments from their owners
 *   (staggered: me + 1 first), a done barrier.
 * Barriers are the spec's too: a rank adds a credit to its cell in each
 * peer's signal (ring: [2(P-1), P], a row per step; the others [P, 1]),
 * then waits until each of its own cells holds the count expected. The
 * ranks run on one thread per core (ranks w, w + W, ... on thread w, as
 * the simulator's workers have them): at a barrier the ranks of a thread
 * all give their credits, then all wait. What the simulator takes beyond
 * this is what simulating the schedule costs.
 * Rank r's element i starts as r + 1 + i mod 7, so every element of the
 * result is known exactly (P(P+1)/2 + P (i mod 7)) and a segment moved to
 * the wrong place shows. Best of RUNS timed allreduces, each checked;
 * prints "best <seconds>".
 *
 * usage: tiled_allreduce P N RUNS [ring|mesh|two_shot] */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "in_process.h"

/* Elements of a tile: 16 KiB of f32. */
#define TILE 4096L

static int ranks, workers;
static long n;
static float **buffers;
/* One accumulator tile per rank, held across the barrier before its store. */
static float (*acc)[TILE];

/* Each rank's signal cells, zero before every run. */
static atomic_int **signals;

/* The all-rank barrier on the signal cells `first + src` (src = 0..P-1). */
static void barrier(int worker, int first, int expected) {
  for (int me = worker; me < ranks; me += workers)
    for (int peer = 0; peer < ranks; peer++)
      if (peer != me) atomic_fetch_add_explicit(&signals[peer][first + me], 1, memory_order_acq_rel);
  for (int me = worker; me < ranks; me += workers)
    for (int src = 0; src < ranks; src++)
      while (src != me && atomic_load_explicit(&signals[me][first + src], memory_order_acquire) < expected) {
#ifdef __AVX__
        _mm_pause();
#endif
      }
}

static long boundary(int segment) { return (long)((double)segment * (double)n / ranks); }
static long min_long(long a, long b) { return a < b ? a : b; }

static void add_tile(float *restrict to, const float *restrict from, long count) {
  for (long i = 0; i < count; i++) to[i] += from[i];
}


/* The segment of rank `me` in step `step` (0-based) of a ring phase: the
 * one it reduces (`gather` 0) or copies (`gather` 1). */
static int ring_segment(int me, int step, int gather) {
  return (me - step - 2 + gather + 2 * ranks) % ranks;
}

static void ring_phase(int worker, int gather) {
  float tile[TILE];
  long max_seg = (n + ranks - 1) / ranks;
  for (int step = 0; step < ranks - 1; step++) {
    int row = gather * (ranks - 1) + step;
    for (long sub = 0; sub < max_seg; sub += TILE) {
      int ready = 2 * (int)(sub / TILE) + 1;
      barrier(worker, row * ranks, ready);
      for (int me = worker; me < ranks; me += workers) {
        int segment = ring_segment(me, step, gather), left = (me + ranks - 1) % ranks;
        long begin = boundary(segment) + sub, count = min_long(TILE, boundary(segment + 1) - begin);
        if (count <= 0) continue;
        memcpy(acc[me], buffers[left] + begin, (size_t)count * sizeof(float));
        if (gather) continue;
        memcpy(tile, buffers[me] + begin, (size_t)count * sizeof(float));
        add_tile(acc[me], tile, count);
      }
      barrier(worker, row * ranks, ready + 1);
      for (int me = worker; me < ranks; me += workers) {
        int segment = ring_segment(me, step, gather);
        long begin = boundary(segment) + sub, count = min_long(TILE, boundary(segment + 1) - begin);
        if (count <= 0) continue;
        if (gather)
          store_past_cache(buffers[me] + begin, acc[me], count);
        else
          memcpy(buffers[me] + begin, acc[me], (size_t)count * sizeof(float));
      }
    }
  }
}

static void *ring_main(void *arg) {
  int worker = (int)(long)arg;
  ring_phase(worker, 0);
  ring_phase(worker, 1);
  return NULL;
}

/* Reduces `count` elements at `start` of rank `me`'s buffer into its own
 * buffer: its own tile, then every peer's in rank order. */
static void reduce_tile(int me, long start, long count, float *tile) {
  memcpy(acc[me], buffers[me] + start, (size_t)count * sizeof(float));
  for (int peer = 0; peer < ranks; peer++) {
    if (peer == me) continue;
    memcpy(tile, buffers[peer] + start, (size_t)count * sizeof(float));
    add_tile(acc[me], tile, count);
  }
}

static void *mesh_main(void *arg) {
  int worker = (int)(long)arg;
  float tile[TILE];
  barrier(worker, 0, 1);
  for (long start = 0; start < n; start += TILE) {
    long count = min_long(TILE, n - start);
    for (int me = worker; me < ranks; me += workers) reduce_tile(me, start, count, tile);
    barrier(worker, 0, (int)(start / TILE) + 2);
    for (int me = worker; me < ranks; me += workers)
      memcpy(buffers[me] + start, acc[me], (size_t)count * sizeof(float));
  }
  return NULL;
}

static void *two_shot_main(void *arg) {
  int worker = (int)(long)arg;
  float tile[TILE];
  barrier(worker, 0, 1);
  for (int me = worker; me < ranks; me += workers)
    for (long start = boundary(me); start < boundary(me + 1); start += TILE) {
      long count = min_long(TILE, boundary(me + 1) - start);
      reduce_tile(me, start, count, tile);
      memcpy(buffers[me] + start, acc[me], (size_t)count * sizeof(float));
    }
  barrier(worker, 0, 2);
  for (int me = worker; me < ranks; me += workers)
    for (int i = 1; i < ranks; i++) {
      int owner = (me + i) % ranks;
      for (long start = boundary(owner); start < boundary(owner + 1); start += TILE) {
        long count = min_long(TILE, boundary(owner + 1) - start);
        memcpy(tile, buffers[owner] + start, (size_t)count * sizeof(float));
        store_past_cache(buffers[me] + start, tile, count);
      }
    }
  barrier(worker, 0, 3);
  return NULL;
}

/* Whether every rank holds the sum of every rank's start. */
static int correct(void) {
  for (int r = 0; r < ranks; r++)
    for (long i = 0; i < n; i++)
      if (buffers[r][i] != (float)(ranks * (ranks + 1) / 2 + ranks * (i % 7))) return 0;
  return 1;
}



int main(int argc, char **argv) {
  ranks = argc > 1 ? atoi(argv[1]) : 2;
  n = argc > 2 ? atol(argv[2]) : 16L * 1024 * 1024;
  int runs = argc > 3 ? atoi(argv[3]) : 5;
  const char *schedule = argc > 4 ? argv[4] : "ring";
  void *(*body)(void *) = strcmp(schedule, "ring") == 0       ? ring_main
                          : strcmp(schedule, "mesh") == 0     ? mesh_main
                          : strcmp(schedule, "two_shot") == 0 ? two_shot_main
                                                              : NULL;
  if (ranks < 1 || n < 1 || body == NULL) return 2;
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  workers = cores > 0 && cores < ranks ? (int)cores : ranks;
  buffers = calloc((size_t)ranks, sizeof(float *));
  signals = calloc((size_t)ranks, sizeof(atomic_int *));
  /* The ring's signal has the most cells: 2(P-1) x P. */
  size_t cells = (size_t)(2 * ranks) * (size_t)ranks;
  acc = aligned_alloc(64, (size_t)ranks * sizeof(*acc));
  pthread_t *threads = calloc((size_t)workers, sizeof(pthread_t));
  if (buffers == NULL || signals == NULL || acc == NULL || threads == NULL) return 1;
  for (int r = 0; r < ranks; r++)
    if ((buffers[r] = window(n)) == NULL || (signals[r] = calloc(cells, sizeof(atomic_int))) == NULL)
      return 1;
  double best = 1e30;
  for (int run = 0; run <= runs; run++) {
    for (int r = 0; r < ranks; r++) {
      for (long i = 0; i < n; i++) buffers[r][i] = (float)(r + 1 + i % 7);
      for (size_t i = 0; i < cells; i++) atomic_store(&signals[r][i], 0);
    }
    double start = now();
    for (int w = 0; w < workers; w++) pthread_create(&threads[w], NULL, body, (void *)(long)w);
    for (int w = 0; w < workers; w++) pthread_join(threads[w], NULL);
    double took = now() - start;
    if (run > 0 && took < best) best = took;
    if (!correct()) {
      fprintf(stderr, "tiled_allreduce: wrong result\n");
      return 1;
    }
  }
  printf("best %.9f\n", best);
  return 0;
}
