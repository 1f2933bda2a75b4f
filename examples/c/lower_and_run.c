/* A C host of libpld.so (docs/embedding.md, "The C API").
 *
 *   lower_and_run FILE [RANKS] [DIR]
 *
 * Loads pld's dialects into a context of its own, parses FILE, runs the
 * pld-to-pto pipeline on it with MLIR's pass manager and prints the PTO of
 * its kernels; then runs FILE on RANKS simulated ranks (4 by default) with
 * buffers it fills itself, and prints what the run found per collective
 * call and rank. With DIR, it writes every buffer it filled and every
 * buffer's result as DIR/<buffer>.rank<r>.in.npy and .out.npy.
 *
 * Exit status: 0 when the run is clean, 1 otherwise.
 */

#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "pld-c/Pld.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Prints MLIR's diagnostics as compilers do: location, then message. */
static void print_to(MlirStringRef text, void *stream) {
  fwrite(text.data, 1, text.length, (FILE *)stream);
}

static MlirLogicalResult on_diagnostic(MlirDiagnostic diagnostic, void *data) {
  (void)data;
  mlirLocationPrint(mlirDiagnosticGetLocation(diagnostic), print_to, stderr);
  fprintf(stderr, ": error: ");
  mlirDiagnosticPrint(diagnostic, print_to, stderr);
  fprintf(stderr, "\n");
  return mlirLogicalResultSuccess();
}

/* "%.*s" of a string reference. */
#define STR(s) (int)(s).length, (s).data

/* A value for element i of a buffer on `rank`, small enough to be exact in
 * every element type. */
static int value_of(intptr_t rank, intptr_t i) {
  return (int)((i * 5 + rank * 3) % 9) - 4 + (int)rank;
}

/* Fills `size` bytes of a buffer of element type `type`; 0 when it cannot
 * (f16 is left to the reader: see pld-run's generators). */
static int fill(void *data, intptr_t size, MlirStringRef type, intptr_t rank) {
  if (strncmp(type.data, "f32", type.length) == 0) {
    for (intptr_t i = 0; i < size / 4; ++i)
      ((float *)data)[i] = (float)value_of(rank, i) * 0.5f;
  } else if (strncmp(type.data, "i32", type.length) == 0) {
    for (intptr_t i = 0; i < size / 4; ++i)
      ((int32_t *)data)[i] = value_of(rank, i);
  } else if (strncmp(type.data, "i8", type.length) == 0) {
    for (intptr_t i = 0; i < size; ++i)
      ((int8_t *)data)[i] = (int8_t)value_of(rank, i);
  } else {
    return 0;
  }
  return 1;
}

/* Writes a buffer as a .npy file (version 1.0, little-endian). */
static void write_npy(const char *path, PldProgram program, intptr_t buffer,
                      const void *data, intptr_t size) {
  MlirStringRef type = pldProgramGetBufferElementType(program, buffer);
  const char *descr = strncmp(type.data, "f32", type.length) == 0   ? "<f4"
                      : strncmp(type.data, "i32", type.length) == 0 ? "<i4"
                      : strncmp(type.data, "i8", type.length) == 0  ? "|i1"
                                                                    : "<f2";
  char shape[256] = "";
  for (intptr_t d = 0; d < pldProgramGetBufferNumDims(program, buffer); ++d) {
    char dim[32];
    snprintf(dim, sizeof dim, "%lld, ",
             (long long)pldProgramGetBufferDimSize(program, buffer, d));
    strncat(shape, dim, sizeof shape - strlen(shape) - 1);
  }
  char header[512];
  int length = snprintf(header, sizeof header,
                        "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }",
                        descr, shape);
  int padded = (10 + length + 1 + 63) / 64 * 64 - 10;
  memset(header + length, ' ', (size_t)(padded - length - 1));
  header[padded - 1] = '\n';
  FILE *file = fopen(path, "wb");
  if (!file) {
    perror(path);
    return;
  }
  unsigned char preamble[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0,
                                (unsigned char)(padded & 0xff),
                                (unsigned char)(padded >> 8)};
  fwrite(preamble, 1, sizeof preamble, file);
  fwrite(header, 1, (size_t)padded, file);
  fwrite(data, 1, (size_t)size, file);
  fclose(file);
}

/* Lowers `module` with pld-to-pto and prints the PTO of its kernels. */
static int print_pto(MlirContext context, MlirModule module) {
  MlirPassManager manager = mlirPassManagerCreateOnOperation(
      context, mlirStringRefCreateFromCString("builtin.module"));
  MlirLogicalResult parsed = mlirParsePassPipeline(
      mlirPassManagerGetAsOpPassManager(manager),
      mlirStringRefCreateFromCString("builtin.module(pld-to-pto)"), print_to,
      stderr);
  int ok = mlirLogicalResultIsSuccess(parsed) &&
           mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(
               manager, mlirModuleGetOperation(module))) &&
           mlirLogicalResultIsSuccess(
               pldTranslateModuleToPTO(module, print_to, stdout));
  mlirPassManagerDestroy(manager);
  return ok;
}

/* Prints the calls, findings and counters of a run. */
static void print_result(PldRunResult result) {
  for (intptr_t c = 0; c < pldRunResultGetNumCalls(result); ++c) {
    MlirStringRef kernel = pldRunResultGetCallKernel(result, c);
    printf("call %ld: %.*s at %.*s", (long)c,
           STR(pldRunResultGetCallCollective(result, c)),
           STR(pldRunResultGetCallLocation(result, c)));
    if (kernel.length > 0)
      printf(" in @%.*s", STR(kernel));
    printf("\n");
    MlirStringRef note = pldRunResultGetCallNote(result, c);
    if (note.length > 0) {
      printf("  %.*s\n", STR(note));
      continue;
    }
    for (intptr_t r = 0; r < pldRunResultGetCallNumRanks(result, c); ++r)
      printf("  rank %ld: %s (worst error %.3e, %ld wrong)\n", (long)r,
             pldRunResultGetCallCheck(result, c, r) == PldCheckOk ? "ok"
                                                                  : "WRONG",
             pldRunResultGetCallWorstError(result, c, r),
             (long)pldRunResultGetCallNumWrong(result, c, r));
  }
  for (intptr_t f = 0; f < pldRunResultGetNumFindings(result); ++f)
    printf("finding: %.*s\n", STR(pldRunResultGetFindingMessage(result, f)));
  for (intptr_t r = 0; r < pldRunResultGetNumRanks(result); ++r) {
    PldCounters c = pldRunResultGetCounters(result, r);
    printf("rank %ld: %llu notifies, %llu waits, %llu bytes read and %llu "
           "written remotely\n",
           (long)r, (unsigned long long)c.notifies,
           (unsigned long long)c.waits,
           (unsigned long long)c.remoteBytesRead,
           (unsigned long long)c.remoteBytesWritten);
  }
}

/* Runs the file's program with buffers of our own; whether it was clean. */
static int run(MlirModule module, intptr_t ranks, const char *dir) {
  PldProgram program = pldProgramCreate(module, mlirStringRefCreate(NULL, 0), ranks);
  if (pldProgramIsNull(program))
    return 0;
  intptr_t buffers = pldProgramGetNumBuffers(program);
  printf("== @%.*s on %ld ranks (%s) ==\n", STR(pldProgramGetEntry(program)),
         (long)ranks, pldProgramIsWhole(program) ? "a whole program" : "a kernel");
  /* One input and one output per buffer and rank; the signals start at
   * zero, so they get no input. */
  intptr_t count = 0, inputs = 0;
  PldInputBuffer *in = calloc((size_t)(buffers * ranks), sizeof *in);
  PldOutputBuffer *out = calloc((size_t)(buffers * ranks), sizeof *out);
  for (intptr_t b = 0; b < buffers; ++b) {
    intptr_t size = pldProgramGetBufferSize(program, b);
    for (intptr_t r = 0; r < ranks; ++r) {
      if (!pldProgramIsBufferOnRank(program, b, r))
        continue;
      void *result = malloc((size_t)size);
      out[count++] = (PldOutputBuffer){b, r, result, size};
      void *data = malloc((size_t)size);
      if (pldProgramIsBufferSignal(program, b) ||
          !fill(data, size, pldProgramGetBufferElementType(program, b), r)) {
        free(data);
        continue;
      }
      in[inputs++] = (PldInputBuffer){b, r, data, size};
    }
  }
  PldRunOptions options = pldRunOptionsCreate();
  PldRunResult result = pldProgramRun(program, options, inputs, in, count, out);
  int clean = !pldRunResultIsNull(result) && pldRunResultIsOk(result);
  if (!pldRunResultIsNull(result))
    print_result(result);
  printf("result: %s\n", clean ? "clean" : "NOT clean");
  for (intptr_t i = 0; dir && i < count; ++i) {
    char path[4096];
    MlirStringRef name = pldProgramGetBufferName(program, out[i].buffer);
    snprintf(path, sizeof path, "%s/%.*s.rank%ld.out.npy", dir, STR(name),
             (long)out[i].rank);
    write_npy(path, program, out[i].buffer, out[i].data, out[i].size);
  }
  for (intptr_t i = 0; dir && i < inputs; ++i) {
    char path[4096];
    MlirStringRef name = pldProgramGetBufferName(program, in[i].buffer);
    snprintf(path, sizeof path, "%s/%.*s.rank%ld.in.npy", dir, STR(name),
             (long)in[i].rank);
    write_npy(path, program, in[i].buffer, in[i].data, in[i].size);
  }
  for (intptr_t i = 0; i < inputs; ++i)
    free((void *)in[i].data);
  for (intptr_t i = 0; i < count; ++i)
    free(out[i].data);
  free(in);
  free(out);
  pldRunResultDestroy(result);
  pldRunOptionsDestroy(options);
  pldProgramDestroy(program);
  return clean;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s FILE [RANKS] [DIR]\n", argv[0]);
    return 2;
  }
  intptr_t ranks = argc > 2 ? atol(argv[2]) : 4;
  const char *dir = argc > 3 ? argv[3] : NULL;

  MlirContext context = mlirContextCreate();
  mlirContextAttachDiagnosticHandler(context, on_diagnostic, NULL, NULL);
  pldRegisterPasses();
  int ok = mlirLogicalResultIsSuccess(pldContextLoadDialects(context));

  /* The program runs from the source: pld-to-pto changes the module. */
  MlirModule source = mlirModuleCreateParseFromFile(
      context, mlirStringRefCreateFromCString(argv[1]));
  MlirModule lowered = mlirModuleCreateParseFromFile(
      context, mlirStringRefCreateFromCString(argv[1]));
  ok = ok && !mlirModuleIsNull(source) && !mlirModuleIsNull(lowered);
  if (ok) {
    printf("== the PTO of %s ==\n", argv[1]);
    ok = print_pto(context, lowered) && run(source, ranks, dir);
  }
  if (!mlirModuleIsNull(source))
    mlirModuleDestroy(source);
  if (!mlirModuleIsNull(lowered))
    mlirModuleDestroy(lowered);
  mlirContextDestroy(context);
  return ok ? 0 : 1;
}
