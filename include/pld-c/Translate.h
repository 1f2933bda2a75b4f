/*===-- pld-c/Translate.h - pld C API: PTO text and kernels -------*- C -*-===*\
|*                                                                            *|
|* Part of pld, under the Apache License v2.0.                                *|
|*                                                                            *|
|*===----------------------------------------------------------------------===*|
|*                                                                            *|
|* What `pld-translate` writes, for a module the caller holds: the PTOAS      *|
|* text of its kernels (--emit=pto) and the builtin kernel packages its HOST  *|
|* dispatches and CHIP tasks name (--emit=kernels). Both take a module        *|
|* lowered by pld-to-pto (docs/tools/pld-translate.md).                       *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef PLD_C_TRANSLATE_H
#define PLD_C_TRANSLATE_H

#include "pld-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Verifies `module` with pld's semantic verifier, then writes its kernels as
/// PTO in the syntax the PTOAS assembler reads: `callback` receives the text
/// (in one or more pieces, with `userData`), exactly what
/// `pld-translate --emit=pto` prints for the same module.
///
/// Ownership: `module` stays the caller's and is not changed.
/// Errors: a failed result, with error diagnostics at the offending ops on
/// the module's context; `callback` is then not called.
PLD_CAPI_EXPORTED MlirLogicalResult
pldTranslateModuleToPTO(MlirModule module, MlirStringCallback callback,
                        void *userData);

/// Verifies `module`, then writes the package of every builtin kernel variant
/// it dispatches into the directory `directory` (created if missing), with
/// `directory/kernels.json`, and every CHIP orchestrator's sub-build under
/// `directory/next_levels/<chip_func>/`: the files of
/// `pld-translate --emit=kernels -o directory`.
///
/// Ownership: `module` stays the caller's and is not changed.
/// Errors: a failed result, with error diagnostics on the module's context (a
/// HOST collective not lowered yet, a variant with no kernel, a directory
/// that cannot be written).
PLD_CAPI_EXPORTED MlirLogicalResult
pldTranslateModuleToKernels(MlirModule module, MlirStringRef directory);

#ifdef __cplusplus
}
#endif

#endif /* PLD_C_TRANSLATE_H */
