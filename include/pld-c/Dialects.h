/*===-- pld-c/Dialects.h - pld C API: the pld and pto dialects ----*- C -*-===*\
|*                                                                            *|
|* Part of pld, under the Apache License v2.0.                                *|
|*                                                                            *|
|*===----------------------------------------------------------------------===*|
|*                                                                            *|
|* Loading pld's two dialects into a caller's MLIR context. Both are IRDL     *|
|* dialects (dialect/irdl/, embedded in libpld.so), so they have   *|
|* no MlirDialectHandle: they are loaded into one context, not registered.    *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef PLD_C_DIALECTS_H
#define PLD_C_DIALECTS_H

#include "pld-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Makes `context` hold what pld's own tools' contexts hold: every upstream
/// MLIR dialect registered and loaded (pld programs use func, arith, scf and
/// memref, and pld's passes create ops of upstream dialects), then the `pld`
/// and `pto` dialects loaded from their IRDL definitions. A dialect the
/// context holds already is left as it is, so a second call does nothing.
///
/// Ownership: `context` stays the caller's; nothing is retained.
/// Errors: a failed result, with an error diagnostic on `context`.
PLD_CAPI_EXPORTED MlirLogicalResult pldContextLoadDialects(MlirContext context);

/// The IRDL text of both dialects (the file share/pld/pld-and-pto.irdl.mlir
/// installs), for hosts that load dialects themselves (`mlirLoadIRDLDialects`
/// on the module it parses to). Borrowed, static, NUL-terminated.
PLD_CAPI_EXPORTED MlirStringRef pldGetIRDLDefinitions(void);

#ifdef __cplusplus
}
#endif

#endif /* PLD_C_DIALECTS_H */
