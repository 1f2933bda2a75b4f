/* The pld tools' malloc: glibc's, but a failed allocation ends the tool
 * with its out-of-memory error and status 1 (pld_alloc_failed, which each
 * binary defines: pld_sim::tool_allocation!) rather than returning NULL. MLIR builds
 * an operation in memory from malloc without looking at the result, so
 * under a small `ulimit -v` a NULL there was a segfault (status 139).
 * Linked into the tools' binaries only (build.rs: rustc-link-arg-bins), so
 * that a host of the C API or the Python package keeps its own malloc.
 * An allocation the Rust code asked for fallibly (try_reserve) still gets
 * its NULL back: pld_alloc_failed returns then. */

#include <stddef.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);

/* Ends the process, unless the failing allocation is a fallible one. */
extern void pld_alloc_failed(void);

void *malloc(size_t size) {
  void *pointer = __libc_malloc(size);
  if (pointer == NULL && size != 0) pld_alloc_failed();
  return pointer;
}

void *calloc(size_t count, size_t size) {
  void *pointer = __libc_calloc(count, size);
  if (pointer == NULL && count != 0 && size != 0) pld_alloc_failed();
  return pointer;
}

void *realloc(void *old, size_t size) {
  void *pointer = __libc_realloc(old, size);
  if (pointer == NULL && size != 0) pld_alloc_failed();
  return pointer;
}
