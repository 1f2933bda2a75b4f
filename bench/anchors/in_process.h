/* What the in-process anchors (ideal_allreduce.c, tiled_allreduce.c)
 * share: buffers as the simulator's windows are, stores past the cache,
 * and the clock. Written next to them by the bench (bench/src/anchors.rs). */
#ifndef PLD_BENCH_IN_PROCESS_H
#define PLD_BENCH_IN_PROCESS_H

#ifdef __AVX__
#include <immintrin.h>
#endif
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define HUGE ((size_t)2 << 20)

/* A buffer of `elements` floats, 2 MiB aligned and advised as huge pages,
 * as the simulator's windows are, so an anchor is not slowed by small
 * pages; NULL when there is no memory. */
static float *window(long elements) {
  size_t bytes = ((size_t)elements * sizeof(float) + HUGE - 1) / HUGE * HUGE;
  float *p = aligned_alloc(HUGE, bytes);
  if (p != NULL) madvise(p, bytes, MADV_HUGEPAGE);
  return p;
}

/* Stores `count` floats into lines the core has not read lately past the
 * cache (streaming stores, as the simulator's window stores are); a plain
 * copy where there is no AVX. */
static void store_past_cache(float *dst, const float *src, long count) {
#ifdef __AVX__
  long i = 0;
  if (((size_t)dst & 31) == 0) {
    for (; i + 8 <= count; i += 8) _mm256_stream_ps(dst + i, _mm256_loadu_ps(src + i));
    _mm_sfence();
  }
  for (; i < count; i++) dst[i] = src[i];
#else
  memcpy(dst, src, (size_t)count * sizeof(float));
#endif
}

/* Seconds on the monotonic clock. */
static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

#endif
