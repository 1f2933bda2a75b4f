// When an allocation of MLIR or LLVM fails (the machine's memory, or the
// process's address-space limit, ulimit -v), operator new would throw
// std::bad_alloc through the C API into Rust, which cannot unwind it and
// aborts the process ("Rust cannot catch foreign exceptions", status 134).
// The pld tools install this new-handler instead: it says so on standard
// error and ends the process with status 1 (docs/tools/pld-run.md,
// "Limits"), as do LLVM's own bad-alloc and fatal-error handlers below.
// Libraries (the C API, the Python package) leave the host's handlers
// alone.

#include <new>
#include <string.h>
#include <unistd.h>

// LLVM's own allocations (safe_malloc and the like) report a failure to
// its bad-alloc handler, which otherwise prints "LLVM ERROR: out of memory"
// and aborts. Declared as llvm/Support/ErrorHandling.h (LLVM 22) declares
// it, so that this file needs no LLVM include path; libLLVM defines it.
namespace llvm {
using fatal_error_handler_t = void (*)(void *user_data, const char *reason,
                                       bool gen_crash_diag);
void install_bad_alloc_error_handler(fatal_error_handler_t handler, void *user_data);
}  // namespace llvm

namespace {

const char *message = "pld: error: out of memory\n";

void out_of_memory() {
  // write(2) and _exit are async-signal-safe and allocate nothing.
  ssize_t written = write(2, message, strlen(message));
  (void)written;
  _exit(1);
}

void llvm_out_of_memory(void *, const char *, bool) { out_of_memory(); }

const char *tool = "pld";

void say(const char *text) {
  ssize_t written = write(2, text, strlen(text));
  (void)written;
}

// Any other fatal error of LLVM (a thread it cannot start under heavy
// load: "pthread_create failed") printed "LLVM ERROR: ..." and aborted.
void llvm_fatal(const char *reason) {
  say(tool);
  say(": error: LLVM: ");
  say(reason);
  say("\n");
  _exit(1);
}

}  // namespace

extern "C" void LLVMInstallFatalErrorHandler(void (*handler)(const char *reason));

// `text` and `name` must live for the rest of the process.
extern "C" void pld_exit_on_out_of_memory(const char *text, const char *name) {
  message = text;
  tool = name;
  std::set_new_handler(out_of_memory);
  llvm::install_bad_alloc_error_handler(llvm_out_of_memory, nullptr);
  LLVMInstallFatalErrorHandler(llvm_fatal);
}
