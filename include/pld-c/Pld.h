/*===-- pld-c/Pld.h - pld C API: every header ---------------------*- C -*-===*\
|*                                                                            *|
|* Part of pld, under the Apache License v2.0.                                *|
|*                                                                            *|
|*===----------------------------------------------------------------------===*|
|*                                                                            *|
|* The whole C API of libpld.so (docs/embedding.md, "The C API"):             *|
|*  - Dialects.h: the pld and pto dialects in a caller's context;             *|
|*  - Passes.h: pld's passes and pipelines for a caller's pass manager;       *|
|*  - Translate.h: PTO text and builtin kernel packages;                      *|
|*  - Run.h: runs on simulated ranks with the caller's buffers.               *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef PLD_C_PLD_H
#define PLD_C_PLD_H

#include "pld-c/Dialects.h"
#include "pld-c/Passes.h"
#include "pld-c/Run.h"
#include "pld-c/Translate.h"

#endif /* PLD_C_PLD_H */
