/*===-- pld-c/Support.h - pld C API: export macro and handles -----*- C -*-===*\
|*                                                                            *|
|* Part of pld, under the Apache License v2.0.                                *|
|*                                                                            *|
|*===----------------------------------------------------------------------===*|
|*                                                                            *|
|* What every pld-c header uses: the export macro of libpld.so and the        *|
|* opaque-handle convention of MLIR's C API (a struct holding one `ptr`).     *|
|*                                                                            *|
|* Conventions of the whole API, as in MLIR's:                                *|
|*  - Handles own their object when a function named `...Create` returned    *|
|*    them; the matching `...Destroy` frees it. Every other handle (a         *|
|*    result's strings, a program's buffer names) is borrowed and lives as    *|
|*    long as the object it came from.                                        *|
|*  - An `MlirStringRef` a function returns is not NUL-terminated unless it   *|
|*    says so; print it with "%.*s", (int)s.length, s.data.                  *|
|*  - Errors are MLIR diagnostics, emitted on the MLIR context the call       *|
|*    works in (attach a handler with mlirContextAttachDiagnosticHandler to   *|
|*    see them); the function then returns a failed MlirLogicalResult or a   *|
|*    null handle. Functions without a context say how they report errors.   *|
|*  - No call lets a Rust panic or C++ exception escape: an internal error    *|
|*    is reported like any other error.                                       *|
|*  - A null MlirContext or MlirModule passed in is refused (a failed result  *|
|*    or a null handle) with a line on standard error, there being no        *|
|*    context to report on; a null pld handle is ignored or refused as each  *|
|*    function says.                                                          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef PLD_C_SUPPORT_H
#define PLD_C_SUPPORT_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#include <stdbool.h>
#include <stdint.h>

/* Functions libpld.so exports. */
#if defined(_WIN32) || defined(__CYGWIN__)
#define PLD_CAPI_EXPORTED
#else
#define PLD_CAPI_EXPORTED __attribute__((visibility("default")))
#endif

/* An opaque handle: a struct holding one pointer, not to be inspected. */
#define PLD_DEFINE_C_API_STRUCT(name, storage)                                 \
  struct name {                                                                \
    storage *ptr;                                                              \
  };                                                                           \
  typedef struct name name

#endif /* PLD_C_SUPPORT_H */
