/*===-- pld-c/Passes.h - pld C API: passes and pipelines ----------*- C -*-===*\
|*                                                                            *|
|* Part of pld, under the Apache License v2.0.                                *|
|*                                                                            *|
|*===----------------------------------------------------------------------===*|
|*                                                                            *|
|* pld's passes for a caller's pass manager, and their registration in        *|
|* MLIR's global pass registry so that pipeline strings name them.            *|
|*                                                                            *|
|* Every pass is anchored on `builtin.module` or on `func.func`               *|
|* (docs/passes/<pass>.md says which). Added with                             *|
|* mlirOpPassManagerAddOwnedPass, a `func.func` pass goes into a manager      *|
|* nested under func.func (mlirPassManagerGetNestedUnder(pm, "func.func")),   *|
|* as MLIR requires of any pass. In a pipeline string, after                  *|
|* pldRegisterPasses, it is nested for you as pld-opt does:                   *|
|* "builtin.module(pld-lower-composite-ops)" works, and so do the named       *|
|* pipelines (pld-host-pipeline, pld-chip-pipeline, pld-incore-pipeline,      *|
|* pld-to-pto, shard-to-pto) next to upstream passes:                         *|
|* "builtin.module(pld-to-pto,cse)". That is the form mlirParsePassPipeline   *|
|* takes; mlirOpPassManagerAddPipeline and C++ mlir::parsePassPipeline(text,  *|
|* pm) add to a manager already anchored, so they take the list inside it     *|
|* ("pld-to-pto,cse"): given the wrapper, they nest a module pass manager     *|
|* that runs on the modules inside the module, none, and succeeds.            *|
|*                                                                            *|
|* The context a pass runs in must hold the pld and pto dialects and the      *|
|* upstream ones pld uses (pldContextLoadDialects). A pass reports what is    *|
|* wrong with the IR as error diagnostics at the ops' locations, on that      *|
|* context, and fails the pass manager's run.                                 *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef PLD_C_PASSES_H
#define PLD_C_PASSES_H

#include "mlir-c/Pass.h"
#include "pld-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Registers every pld pass and named pipeline in MLIR's global pass
/// registry (mlir::PassRegistry), so that mlirParsePassPipeline,
/// mlirOpPassManagerAddPipeline and C++'s mlir::parsePassPipeline accept
/// their names, with pld-opt's rules: each is registered as a pass pipeline
/// entry that adds its passes where their anchors say (a func.func pass
/// written under builtin.module is nested under func.func) and parses its
/// own options (`pld-explore-protocol{schedules=8}`; a named pipeline takes
/// none). Upstream passes are the host's to register (mlirRegisterAllPasses,
/// mlir::registerTransformsPasses). Safe to call more than once, and from
/// several libraries of one process (a name already registered, e.g. by pld's
/// mlir-opt plugin, is left as it is). Never fails.
PLD_CAPI_EXPORTED void pldRegisterPasses(void);

/// Creates the pld pass whose pipeline name is `argument` ("pld-verify",
/// "convert-pld-to-pto", ...), configured with the option text `options`
/// (what goes between the braces of `pass{...}`; empty for the defaults).
///
/// Ownership: the caller owns the returned pass until it hands it to a pass
/// manager (mlirOpPassManagerAddOwnedPass), which then owns it. MLIR's C
/// API destroys no pass itself: a pass that is not to run is freed by
/// adding it to a pass manager and destroying that manager.
/// Errors: a null pass (`ptr == NULL`); the reason is passed to `callback`
/// (with `userData`), which may be NULL.
PLD_CAPI_EXPORTED MlirPass pldCreatePass(MlirStringRef argument,
                                         MlirStringRef options,
                                         MlirStringCallback callback,
                                         void *userData);

/* One function per pass, with its default options. Each returns a new pass
 * the caller owns until a pass manager takes it (as pldCreatePass). The
 * anchor is in brackets. */

/// `pld-verify` [builtin.module]: the semantic verifier.
PLD_CAPI_EXPORTED MlirPass pldCreateVerifyPass(void);
/// `convert-shard-to-pld` [builtin.module]: upstream `shard` programs to pld.
PLD_CAPI_EXPORTED MlirPass pldCreateConvertShardToPldPass(void);
/// `pld-select-allreduce-modes` [builtin.module]: resolves `mode = "auto"`
/// with the cost model (the simulator's defaults; pldCreatePass takes the
/// options `cost-model=FILE target=NAME remarks=true`).
PLD_CAPI_EXPORTED MlirPass pldCreateSelectAllReduceModesPass(void);
/// `pld-synthesize-allreduce-signals` [builtin.module]: HOST rail.
PLD_CAPI_EXPORTED MlirPass pldCreateSynthesizeAllReduceSignalsPass(void);
/// `pld-materialize-comm-domain-scopes` [func.func]: HOST rail.
PLD_CAPI_EXPORTED MlirPass pldCreateMaterializeCommDomainScopesPass(void);
/// `pld-lower-host-tensor-collectives` [builtin.module]: HOST rail.
PLD_CAPI_EXPORTED MlirPass pldCreateLowerHostTensorCollectivesPass(void);
/// `pld-lower-l2-tensor-collectives` [builtin.module]: CHIP rail.
PLD_CAPI_EXPORTED MlirPass pldCreateLowerL2TensorCollectivesPass(void);
/// `pld-lower-composite-ops` [func.func]: InCore rail.
PLD_CAPI_EXPORTED MlirPass pldCreateLowerCompositeOpsPass(void);
/// `pld-materialize-dist-tensor-ctx` [builtin.module].
PLD_CAPI_EXPORTED MlirPass pldCreateMaterializeDistTensorCtxPass(void);
/// `pld-insert-comm-fence` [func.func].
PLD_CAPI_EXPORTED MlirPass pldCreateInsertCommFencePass(void);
/// `convert-pld-to-pto` [builtin.module].
PLD_CAPI_EXPORTED MlirPass pldCreateConvertPldToPtoPass(void);
/// `convert-pto-to-sim` [builtin.module]: the simulator's lowering of PTO.
PLD_CAPI_EXPORTED MlirPass pldCreateConvertPtoToSimPass(void);
/// `pld-explore-protocol` [builtin.module], default options (pldCreatePass
/// takes its options).
PLD_CAPI_EXPORTED MlirPass pldCreateExploreProtocolPass(void);

#ifdef __cplusplus
}
#endif

#endif /* PLD_C_PASSES_H */
