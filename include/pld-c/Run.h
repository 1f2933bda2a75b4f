/*===-- pld-c/Run.h - pld C API: runs on simulated ranks ----------*- C -*-===*\
|*                                                                            *|
|* Part of pld, under the Apache License v2.0.                                *|
|*                                                                            *|
|*===----------------------------------------------------------------------===*|
|*                                                                            *|
|* Running a pld module on N simulated ranks in this process, as pld-run     *|
|* does (docs/simulator.md): one kernel, or a whole program from its HOST     *|
|* orchestrator. The caller owns the input and output memory; the result is  *|
|* structured: per collective call and rank, ok or wrong with the worst       *|
|* error; the deadlocks, credit leaks, races and other findings with their    *|
|* ranks, cells and source locations; per-rank traffic counters.              *|
|*                                                                            *|
|* A run:                                                                     *|
|*   PldProgram p = pldProgramCreate(module, mlirStringRefCreate(NULL, 0), 4); *|
|*   PldInputBuffer in = {buffer, rank, data, size};  (one per buffer, rank)  *|
|*   PldRunResult r = pldProgramRun(p, options, 1, &in, n, outputs);          *|
|*   ... pldRunResultGetNumCalls(r), pldRunResultGetCallCheck(r, c, rank) ... *|
|*   pldRunResultDestroy(r); pldProgramDestroy(p);                            *|
|*                                                                            *|
|* Objects of this header are used by one thread at a time; a program is     *|
|* run and destroyed on the thread that created it (pldProgramRun refuses    *|
|* another thread's call, pldProgramDestroy leaves it allocated, each with   *|
|* an error). An index out of range gives an empty string, 0, -1 or          *|
|* PldCheckNotChecked, never a crash.                                        *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef PLD_C_RUN_H
#define PLD_C_RUN_H

#include "pld-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// A module loaded for the simulator: lowered with pld-to-pto, its kernels
/// compiled, planned for a number of ranks. Owned by the caller.
PLD_DEFINE_C_API_STRUCT(PldProgram, void);
/// How to run (check, deadline, explore). Owned by the caller.
PLD_DEFINE_C_API_STRUCT(PldRunOptions, void);
/// What a run found. Owned by the caller.
PLD_DEFINE_C_API_STRUCT(PldRunResult, void);

static inline bool pldProgramIsNull(PldProgram program) { return !program.ptr; }
static inline bool pldRunResultIsNull(PldRunResult result) { return !result.ptr; }

/// The bytes a buffer starts with on one rank: `size` bytes at `data`, which
/// must be the buffer's size on a rank (pldProgramGetBufferSize). Elements
/// are little-endian, row-major, of the buffer's element type.
typedef struct PldInputBuffer {
  intptr_t buffer; ///< Index of the buffer (pldProgramLookupBuffer).
  intptr_t rank;   ///< 0 <= rank < pldProgramGetNumRanks.
  const void *data;
  intptr_t size;
} PldInputBuffer;

/// Where a buffer's bytes on one rank go when the run ends.
typedef struct PldOutputBuffer {
  intptr_t buffer;
  intptr_t rank;
  void *data;
  intptr_t size;
} PldOutputBuffer;

/// Per-rank counters of a run.
typedef struct PldCounters {
  uint64_t notifies;           ///< Signal notifies the rank sent.
  uint64_t waits;              ///< Signal waits it began (one a deadlock stopped too).
  uint64_t remoteBytesRead;    ///< Bytes it read from other ranks' windows.
  uint64_t remoteBytesWritten; ///< Bytes it wrote into other ranks' windows.
  uint64_t roundTrips;         ///< L3 -> L2 round trips (whole programs).
} PldCounters;

/// How one rank's result of one collective call compared with its golden.
typedef enum PldCheck {
  PldCheckNotChecked = 0, ///< No comparison (pldRunResultGetCallNote says why).
  PldCheckOk = 1,         ///< Within the tolerance of its dtype everywhere.
  PldCheckWrong = 2,      ///< At least one element outside it.
} PldCheck;

/// What kind of problem a finding is.
typedef enum PldFindingKind {
  /// A fault of the run: a signal outside every window, a builtin's admission
  /// check, a violated pto-isa constraint.
  PldFindingError = 0,
  /// A rank blocked in a wait no rank will satisfy (one finding per rank).
  PldFindingDeadlock = 1,
  /// A signal cell not back to zero after the run (one finding per cell).
  PldFindingLeak = 2,
  /// Two accesses of the same bytes, one a write, no signal orders (explore).
  PldFindingRace = 3,
  /// A notify after a remote write with no fence between them (explore).
  PldFindingMissingFence = 4,
  /// Set and AtomicAdd on one cell, unordered (explore).
  PldFindingMixedNotify = 5,
  /// A wait on a cell no rank ever notifies (explore).
  PldFindingNeverNotified = 6,
  /// A notify or wait outside the kernel's signals (explore).
  PldFindingOutsideSignals = 7,
  /// A schedule that made no progress (explore).
  PldFindingNoProgress = 8,
  /// A schedule whose result is wrong on some ranks (explore with check).
  PldFindingWrongResult = 9,
  /// Two agents submitting on one PER_PEER URMA queue, unordered (explore).
  PldFindingSharedQueue = 10,
  /// An asynchronous copy whose event no wait or test completed (explore).
  PldFindingUnwaitedCopy = 11,
  /// The run reached its time limit (pldRunOptionsSetTimeLimit) and was
  /// stopped before it ended; its calls are not checked.
  PldFindingTimeLimit = 12,
  /// A call the run's check cannot compare with a golden (a kernel holding
  /// several collectives, members making it from different places): its
  /// note says why (pld-run --check fails on it too).
  PldFindingUncheckable = 13,
} PldFindingKind;

//===----------------------------------------------------------------------===//
// Programs
//===----------------------------------------------------------------------===//

/// Loads `module` for `numRanks` simulated ranks (1 to 64, the CommContext's
/// limit): verifies it and lowers a copy with pld-to-pto (diagnostics on the
/// module's context, as pld-opt reports them), compiles its kernels, and
/// plans the run. `entry`
/// names the function to run, with or without its `@` (`ring_allreduce` or
/// `@ring_allreduce`; a name that is no bare identifier also quoted as MLIR
/// writes it, `@"sum four"`): a HOST orchestrator (the whole program, its
/// comm domains, dispatches and builtins) or a kernel (InCore, AIV or AIC);
/// empty for the module's only HOST orchestrator or, without one, its only
/// kernel. The buffers of a whole program are its window buffers, named by
/// their `name` attribute; a kernel's are its parameters, named `arg0`,
/// `arg1`, ... (MLIR keeps no SSA names).
///
/// Ownership: the caller owns the returned program (pldProgramDestroy). It
/// keeps no reference to `module`, which may be changed or destroyed; the
/// module's context must outlive the program (later errors are reported on
/// it).
/// Errors: a null program, with error diagnostics on the module's context.
PLD_CAPI_EXPORTED PldProgram pldProgramCreate(MlirModule module,
                                              MlirStringRef entry,
                                              intptr_t numRanks);

/// Destroys a program the caller owns. A null program is ignored.
PLD_CAPI_EXPORTED void pldProgramDestroy(PldProgram program);

/// Whether the program runs a whole program from a HOST orchestrator (true)
/// or one kernel (false).
PLD_CAPI_EXPORTED bool pldProgramIsWhole(PldProgram program);

/// The function it runs, without the `@`. Borrowed from the program.
PLD_CAPI_EXPORTED MlirStringRef pldProgramGetEntry(PldProgram program);

/// The number of ranks (devices) it was planned for.
PLD_CAPI_EXPORTED intptr_t pldProgramGetNumRanks(PldProgram program);

/// The number of its buffers.
PLD_CAPI_EXPORTED intptr_t pldProgramGetNumBuffers(PldProgram program);

/// The index of the buffer `name` names (a window buffer's name; a kernel
/// parameter's `argN`, `N` or `%argN`), or -1.
PLD_CAPI_EXPORTED intptr_t pldProgramLookupBuffer(PldProgram program,
                                                  MlirStringRef name);

/// The name of buffer `buffer`. Borrowed from the program.
PLD_CAPI_EXPORTED MlirStringRef pldProgramGetBufferName(PldProgram program,
                                                        intptr_t buffer);

/// Its element type: "f32", "f16", "i32" or "i8". Borrowed, static.
PLD_CAPI_EXPORTED MlirStringRef
pldProgramGetBufferElementType(PldProgram program, intptr_t buffer);

/// The number of its dimensions, and the extent of dimension `dim`.
PLD_CAPI_EXPORTED intptr_t pldProgramGetBufferNumDims(PldProgram program,
                                                      intptr_t buffer);
PLD_CAPI_EXPORTED int64_t pldProgramGetBufferDimSize(PldProgram program,
                                                     intptr_t buffer,
                                                     intptr_t dim);

/// Its size in bytes on one rank: the size of an input or output of it.
PLD_CAPI_EXPORTED intptr_t pldProgramGetBufferSize(PldProgram program,
                                                   intptr_t buffer);

/// Whether it is a collective's signal (credit cells: it should start at
/// zero, and a run checks that it ends there).
PLD_CAPI_EXPORTED bool pldProgramIsBufferSignal(PldProgram program,
                                                intptr_t buffer);

/// Whether rank `rank` holds it: every rank holds a kernel's parameters, the
/// devices of its comm domain hold a program's window buffer. An input or
/// output for a rank that does not hold the buffer is an error.
PLD_CAPI_EXPORTED bool pldProgramIsBufferOnRank(PldProgram program,
                                                intptr_t buffer,
                                                intptr_t rank);

/// Runs the program once (or, with pldRunOptionsSetExplore, under a number of
/// seeded schedules of the protocol explorer). Each buffer starts on each rank
/// with the bytes of its input in `inputs` (zeros without one); when the run
/// ends, the bytes of each buffer named in `outputs` are copied there. With
/// the options' check (the default), every collective call's result is
/// compared with a golden computed from the inputs. `options` may be null for
/// the defaults.
///
/// Ownership: the caller owns the returned result (pldRunResultDestroy) and
/// keeps owning `inputs`, `outputs` and the memory they point to: the inputs
/// are read during the call and the outputs written before it returns.
/// Errors: a null result, with an error diagnostic on the module's context,
/// when the run cannot start (a buffer or rank out of range, a size that is
/// not the buffer's, two inputs for one buffer and rank, a negative count or
/// a null array with a positive count, options one of whose setters refused
/// its value); for a null program, a line on standard error instead. A run
/// that
/// deadlocks, leaks credits, races or computes wrong numbers is not an error:
/// its result says so (pldRunResultIsOk).
PLD_CAPI_EXPORTED PldRunResult pldProgramRun(PldProgram program,
                                             PldRunOptions options,
                                             intptr_t numInputs,
                                             const PldInputBuffer *inputs,
                                             intptr_t numOutputs,
                                             const PldOutputBuffer *outputs);

//===----------------------------------------------------------------------===//
// Run options
//===----------------------------------------------------------------------===//

/// New options with the defaults: check on, a 2 s deadlock deadline, no
/// exploring, no time limit. Owned by the caller (pldRunOptionsDestroy).
PLD_CAPI_EXPORTED PldRunOptions pldRunOptionsCreate(void);

/// Destroys options the caller owns. Null options are ignored.
PLD_CAPI_EXPORTED void pldRunOptionsDestroy(PldRunOptions options);

/// Whether to compare every collective call's result with its golden.
PLD_CAPI_EXPORTED void pldRunOptionsSetCheck(PldRunOptions options,
                                             bool check);

/// How long every live rank may be blocked before the run is a deadlock, in
/// seconds: a positive number up to about 1.8e19 (below a nanosecond counts
/// as a nanosecond). Anything else is refused: the next pldProgramRun with
/// these options fails with an error diagnostic naming it (until a valid
/// value is set).
PLD_CAPI_EXPORTED void pldRunOptionsSetDeadline(PldRunOptions options,
                                                double seconds);

/// Runs under `numSchedules` seeded schedules of the protocol explorer
/// (seeds firstSeed, firstSeed + 1, ...), as `pld-run --explore`, each on
/// fresh copies of the inputs; the findings of all schedules are reported,
/// each once, with the first seed that found it. 0 schedules: a plain run.
/// A negative count, and seeds past 2^63 - 1 (the last one
/// pldRunResultGetFindingSeed can give), are refused: the next
/// pldProgramRun with these options fails with an error diagnostic naming
/// it (until a valid count is set). The schedules run on a thread of
/// their own, loaded there again (from the compile cache), while the
/// calling thread waits: a schedule that cannot end (a rank polling a flag
/// no rank sets with scalar reads, `pld.tensor_read`, past the explorer's
/// no-progress cut, or looping without any device call) takes no
/// scheduling decision, and once it has taken none for the run's deadline
/// pldProgramRun returns what the schedules before it found, with that
/// schedule as the last finding (PldFindingNoProgress, its seed, `schedule
/// S cannot end: ...`); the outputs are not written, and the schedule's
/// thread is left behind, as pld.explore leaves it (pld-run --explore ends
/// its process there). A rank polling with waits or tests ends on its
/// own, with a PldFindingNoProgress finding.
PLD_CAPI_EXPORTED void pldRunOptionsSetExplore(PldRunOptions options,
                                               uint64_t firstSeed,
                                               intptr_t numSchedules);

/// How long a run (all its schedules) may take, in seconds, as
/// `pld-run --time-limit`: a positive number up to about 1.8e19 (below a
/// nanosecond counts as a nanosecond); 0 (the default) or infinity for no
/// limit. A run
/// over it is stopped as a deadlock stops one (every wait returns at once,
/// no further call or schedule starts) and pldProgramRun returns its
/// result with a PldFindingTimeLimit finding; its calls are not checked
/// and the outputs hold what the ranks had written. It stops this run
/// only: runs of other threads go on. A kernel that loops on after its
/// waits have returned (a loop that never ends, around a barrier or a
/// wait for a value, whatever it waits for) keeps pldProgramRun from
/// returning: its ranks are parked a few seconds after the stop (no CPU)
/// but never end, and the host's output memory is written only when they
/// do; pld-run, which can end its process, and pld.run, which copies the
/// outputs, return. Explored runs (pldRunOptionsSetExplore) run on a
/// thread of their own: one whose schedule could not be stopped is given
/// up half a second past the limit, with the PldFindingTimeLimit finding,
/// its thread left behind and the outputs not written. A negative, NaN or larger value is
/// refused: the next pldProgramRun with these options fails with an error
/// diagnostic naming it (until a valid value is set).
PLD_CAPI_EXPORTED void pldRunOptionsSetTimeLimit(PldRunOptions options,
                                                 double seconds);

//===----------------------------------------------------------------------===//
// Results
//===----------------------------------------------------------------------===//

/// Destroys a result the caller owns. A null result is ignored.
PLD_CAPI_EXPORTED void pldRunResultDestroy(PldRunResult result);

/// Whether the run is clean: no finding and no wrong call on any rank.
PLD_CAPI_EXPORTED bool pldRunResultIsOk(PldRunResult result);

/// The number of ranks it ran on.
PLD_CAPI_EXPORTED intptr_t pldRunResultGetNumRanks(PldRunResult result);

/// The number of schedules it ran (1 without exploring).
PLD_CAPI_EXPORTED intptr_t pldRunResultGetNumSchedules(PldRunResult result);

/// The collective calls of the run, in program order (of the last schedule
/// when exploring).
PLD_CAPI_EXPORTED intptr_t pldRunResultGetNumCalls(PldRunResult result);

/// The call's collective as its op names it ("pld.tensor_allreduce").
/// Borrowed from the result, as every string below.
PLD_CAPI_EXPORTED MlirStringRef pldRunResultGetCallCollective(PldRunResult result,
                                                             intptr_t call);

/// Where it is in the source: "file:line:col" of the collective, or of the
/// kernel call for a collective inside a kernel a program calls.
PLD_CAPI_EXPORTED MlirStringRef pldRunResultGetCallLocation(PldRunResult result,
                                                           intptr_t call);

/// Where the collective op itself is written, "file:line:col" (the
/// location above is the kernel call's for a collective inside a kernel a
/// program calls: this one tells the collectives of one kernel apart).
PLD_CAPI_EXPORTED MlirStringRef pldRunResultGetCallOpLocation(PldRunResult result,
                                                             intptr_t call);

/// The kernel it is in, without the `@`; empty for a HOST collective.
PLD_CAPI_EXPORTED MlirStringRef pldRunResultGetCallKernel(PldRunResult result,
                                                         intptr_t call);

/// An allreduce's schedule as its `mode` attribute spells it ("mesh",
/// "ring", "two_shot"); empty for every other collective.
PLD_CAPI_EXPORTED MlirStringRef pldRunResultGetCallMode(PldRunResult result,
                                                       intptr_t call);

/// Whether the allreduce was written `mode = "auto"`, which chose its
/// schedule (or kept mesh where the sizes were known only at run time);
/// false for every other collective.
PLD_CAPI_EXPORTED bool pldRunResultIsCallModeAuto(PldRunResult result,
                                                  intptr_t call);

/// The number of ranks of its comm domain (which may be fewer than the
/// program's); `rank` below counts within them.
PLD_CAPI_EXPORTED intptr_t pldRunResultGetCallNumRanks(PldRunResult result,
                                                      intptr_t call);

/// The device (0 to the program's ranks - 1) that is rank `rank` of the
/// call's comm domain; rank r is device r for a kernel run on its own, -1 out
/// of range. A finding's ranks (pldRunResultGetFindingRank) are devices.
PLD_CAPI_EXPORTED intptr_t pldRunResultGetCallDevice(PldRunResult result,
                                                    intptr_t call,
                                                    intptr_t rank);

/// How rank `rank`'s result compared with its golden.
PLD_CAPI_EXPORTED PldCheck pldRunResultGetCallCheck(PldRunResult result,
                                                    intptr_t call,
                                                    intptr_t rank);

/// The largest difference from the golden on that rank (0 when not checked).
PLD_CAPI_EXPORTED double pldRunResultGetCallWorstError(PldRunResult result,
                                                       intptr_t call,
                                                       intptr_t rank);

/// The number of elements outside the tolerance on that rank.
PLD_CAPI_EXPORTED intptr_t pldRunResultGetCallNumWrong(PldRunResult result,
                                                       intptr_t call,
                                                       intptr_t rank);

/// Why the call was not checked (empty when it was).
PLD_CAPI_EXPORTED MlirStringRef pldRunResultGetCallNote(PldRunResult result,
                                                       intptr_t call);

/// The findings: errors, deadlocked ranks, leaked credits, and what the
/// explorer found.
PLD_CAPI_EXPORTED intptr_t pldRunResultGetNumFindings(PldRunResult result);

PLD_CAPI_EXPORTED PldFindingKind
pldRunResultGetFindingKind(PldRunResult result, intptr_t finding);

/// The finding in words, as pld-run reports it (one or more lines).
PLD_CAPI_EXPORTED MlirStringRef
pldRunResultGetFindingMessage(PldRunResult result, intptr_t finding);

/// The ranks it involves (a deadlocked rank; the rank whose window holds a
/// leaked cell; the later and the earlier access of a race; ...).
PLD_CAPI_EXPORTED intptr_t
pldRunResultGetFindingNumRanks(PldRunResult result, intptr_t finding);
PLD_CAPI_EXPORTED intptr_t pldRunResultGetFindingRank(PldRunResult result,
                                                      intptr_t finding,
                                                      intptr_t index);

/// The cell or bytes it is about, as the source names them
/// ("kernel_signal_buf[1, 0]", "arg0[0, 16]..[0, 31]"); empty when unknown.
PLD_CAPI_EXPORTED MlirStringRef pldRunResultGetFindingCell(PldRunResult result,
                                                          intptr_t finding);

/// The source locations ("file:line:col") of the ops it involves: the wait of
/// a deadlocked rank, the collectives whose signal leaked, the two accesses of
/// a race.
PLD_CAPI_EXPORTED intptr_t
pldRunResultGetFindingNumLocations(PldRunResult result, intptr_t finding);
PLD_CAPI_EXPORTED MlirStringRef
pldRunResultGetFindingLocation(PldRunResult result, intptr_t finding,
                               intptr_t index);

/// The explorer's seed that found it first (replay it with
/// `pld-run --replay SEED`); -1 outside explore mode.
PLD_CAPI_EXPORTED int64_t pldRunResultGetFindingSeed(PldRunResult result,
                                                     intptr_t finding);

/// The counters of rank `rank` (of the last schedule when exploring).
PLD_CAPI_EXPORTED PldCounters pldRunResultGetCounters(PldRunResult result,
                                                      intptr_t rank);

#ifdef __cplusplus
}
#endif

#endif /* PLD_C_RUN_H */
