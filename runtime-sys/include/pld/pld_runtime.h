/*
 * The subset of the device runtime that pld's rendered builtin entries
 * (builtins/templates/<builtin>/entry.cpp.in) and kernels
 * (kernel.cpp.in) use.
 *
 * Kernel side (always available, also on the device): the 128-byte tensor
 * descriptor the runtime passes by pointer in args[0..tensor_count), and
 * get_block_idx(args) / get_block_num(args), which read the per-dispatch
 * LocalContext at args[48] (pto-interface 4.2).
 *
 * Orchestration side:
 *   - With PLD_USE_SIMPLER_RUNTIME defined (device builds), the entries use
 *     the real runtime: this header includes simpler's
 *     pto_orchestration_api.h (kernels: intrinsic.h) instead of the
 *     simulation below. That path is not exercised here.
 *   - Otherwise (the simulator), this header implements ChipTaskArgs,
 *     CoreTaskArgs with its launch spec, rt_submit_aiv_task (each launched
 *     block on its own std::thread, or a fiber of the simulator's explore
 *     mode (pld_sim_launch_blocks), bound to the submitting thread's
 *     simulated rank through pld_sim.h), rt_report_fatal and LOG_INFO.
 *
 * Header-only C++17; nothing here needs linking beyond pld_sim.h's
 * device functions.
 */
#ifndef PLD_RUNTIME_H
#define PLD_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#include "comm_context.h" /* this directory */

#ifndef __gm__
#define __gm__
#endif
#ifndef __aicore__
#if defined(__CCE_AICORE__)
#define __aicore__ [aicore]
#else
#define __aicore__
#endif
#endif

/* ---- Tensor descriptor (pto-interface 4.2) -------------------------------- */

#define PLD_TENSOR_MAX_DIMS 5
#define PLD_TENSOR_DESC_SIZE 128
/* Argument slots of a kernel: 16 tensors, then up to 32 scalars, then the
 * LocalContext and GlobalContext pointers. */
#define PLD_MAX_TENSOR_ARGS 16
#define PLD_MAX_SCALAR_ARGS 32
#define PLD_SPMD_LOCAL_CONTEXT_INDEX 48
#define PLD_SPMD_GLOBAL_CONTEXT_INDEX 49
#define PLD_KERNEL_ARGS_LEN 50

struct PldTensorBuffer {
  uint64_t addr; /* device address of the buffer */
  uint64_t size; /* bytes */
};

/* One tensor argument. Kernels compute base = (T *)buffer.addr +
 * start_offset (elements) and numel = prod(shapes[0..ndims)). */
struct PldTensor {
  PldTensorBuffer buffer;
  uint64_t owner_task_id;
  uint64_t start_offset; /* in elements */
  int32_t version;
  uint32_t ndims;
  uint8_t dtype;
  uint8_t manual_dep;
  uint8_t is_contiguous;
  uint8_t reserved0;
  uint32_t shapes[PLD_TENSOR_MAX_DIMS];
  /* second cache line */
  uint64_t extent_elem_cache;
  uint32_t strides[PLD_TENSOR_MAX_DIMS];
  uint8_t reserved1[36];
};

static_assert(offsetof(PldTensor, buffer) == 0, "buffer.addr offset");
static_assert(offsetof(PldTensor, buffer) + offsetof(PldTensorBuffer, size) == 8,
              "buffer.size offset");
static_assert(offsetof(PldTensor, owner_task_id) == 16, "owner_task_id offset");
static_assert(offsetof(PldTensor, start_offset) == 24, "start_offset offset");
static_assert(offsetof(PldTensor, version) == 32, "version offset");
static_assert(offsetof(PldTensor, ndims) == 36, "ndims offset");
static_assert(offsetof(PldTensor, dtype) == 40, "dtype offset");
static_assert(offsetof(PldTensor, manual_dep) == 41, "manual_dep offset");
static_assert(offsetof(PldTensor, is_contiguous) == 42, "is_contiguous offset");
static_assert(offsetof(PldTensor, shapes) == 44, "shapes offset");
static_assert(offsetof(PldTensor, extent_elem_cache) == 64, "extent_elem_cache offset");
static_assert(offsetof(PldTensor, strides) == 72, "strides offset");
static_assert(sizeof(PldTensor) == PLD_TENSOR_DESC_SIZE, "tensor descriptor size");

/* Element count of a descriptor (0 for a malformed one). */
static __aicore__ inline int64_t PldTensorNumel(__gm__ const PldTensor *t) {
  if (t->ndims == 0 || t->ndims > PLD_TENSOR_MAX_DIMS) return 0;
  int64_t n = 1;
  for (uint32_t i = 0; i < t->ndims; ++i) n *= static_cast<int64_t>(t->shapes[i]);
  return n;
}

/* Launch width of all_to_all_v (spec 8.1): L below one rank cohort, else
 * the largest multiple of P not above L. 0 for non-positive inputs. */
static inline int32_t CalAllToAllVBlocks(int32_t P, int32_t L) {
  if (P <= 0 || L <= 0) return 0;
  return (L < P) ? L : (L / P) * P;
}

/* Per-dispatch block identity (args[48]) and cluster lane (args[49]). */
struct PldLocalContext {
  int32_t block_idx;
  int32_t block_num;
  uint64_t async_ctx; /* placeholder for the runtime's AsyncCtx */
};
struct PldGlobalContext {
  int32_t sub_block_id;
};

#if defined(PLD_USE_SIMPLER_RUNTIME)
/* Device builds: the real runtime. */
#if defined(__CCE_AICORE__)
#include "intrinsic.h" /* get_block_idx(args), get_block_num(args) */
#else
#include "pto_orchestration_api.h"
/* Spellings differ between runtime versions (pto2_rt_* / PTO2_ERROR_* in
 * older ones, rt_* / SIMPLER_ERROR_* in newer ones). */
#if !defined(rt_report_fatal) && defined(pto2_rt_report_fatal)
#define rt_report_fatal pto2_rt_report_fatal
#endif
#ifndef PTO2_ERROR_INVALID_ARGS
#define PTO2_ERROR_INVALID_ARGS 5
#endif
#ifndef PTO2_ERROR_REQUIRE_SYNC_START_INVALID
#define PTO2_ERROR_REQUIRE_SYNC_START_INVALID 7
#endif
#endif
#else /* simulator */

static __aicore__ inline int32_t get_block_idx(__gm__ int64_t *args) {
  return reinterpret_cast<__gm__ PldLocalContext *>(
             static_cast<uintptr_t>(args[PLD_SPMD_LOCAL_CONTEXT_INDEX]))
      ->block_idx;
}
static __aicore__ inline int32_t get_block_num(__gm__ int64_t *args) {
  return reinterpret_cast<__gm__ PldLocalContext *>(
             static_cast<uintptr_t>(args[PLD_SPMD_LOCAL_CONTEXT_INDEX]))
      ->block_num;
}
static __aicore__ inline int32_t get_sub_block_id(__gm__ int64_t *args) {
  return reinterpret_cast<__gm__ PldGlobalContext *>(
             static_cast<uintptr_t>(args[PLD_SPMD_GLOBAL_CONTEXT_INDEX]))
      ->sub_block_id;
}

/* The cache and fence builtins (dcci, dsb, cache_line_t::..., DSB_DDR)
 * come from the device's headers, pto-isa's cpu_stub.hpp under __CPU_SIM,
 * or pto_sim.h: none is defined here, so that a check against the real
 * headers sees every call's arguments. */

/* ---- Orchestration side (simulation) ---------------------------------- */

#include <atomic>
#include <condition_variable>
#include <cstdarg>
#include <cstdio>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

#include "pld_sim.h" /* this directory */

/* Runtime error codes (simpler's PTO2_ERROR_* numbering). */
#ifndef PTO2_ERROR_INVALID_ARGS
#define PTO2_ERROR_INVALID_ARGS 5
#endif
#ifndef PTO2_ERROR_REQUIRE_SYNC_START_INVALID
#define PTO2_ERROR_REQUIRE_SYNC_START_INVALID 7
#endif

/* What aicpu_orchestration_config returns. */
struct PTO2OrchestrationConfig {
  int expected_arg_count;
};

/* A tensor argument of the orchestration, as the dispatch passed it. */
class PldTensorArg {
 public:
  PldTensorArg() = default;
  explicit PldTensorArg(const PldTensor *t) : t_(t) {}
  const PldTensor &ref() const { return *t_; }

 private:
  const PldTensor *t_ = nullptr;
};

/* The orchestration's arguments: the dispatch's tensors, then its scalars
 * (spec 10.3 order). Filled by the caller of the entry. */
class ChipTaskArgs {
 public:
  void add_tensor(const PldTensor *t) {
    if (tensor_count_ < PLD_MAX_TENSOR_ARGS) tensors_[tensor_count_++] = PldTensorArg(t);
  }
  void add_scalar(uint64_t v) {
    if (scalar_count_ < PLD_MAX_SCALAR_ARGS) scalars_[scalar_count_++] = v;
  }
  const PldTensorArg &tensor(int i) const { return tensors_[i]; }
  uint64_t scalar(int i) const { return scalars_[i]; }
  int tensor_count() const { return tensor_count_; }
  int scalar_count() const { return scalar_count_; }

 private:
  PldTensorArg tensors_[PLD_MAX_TENSOR_ARGS];
  uint64_t scalars_[PLD_MAX_SCALAR_ARGS] = {};
  int tensor_count_ = 0;
  int scalar_count_ = 0;
};

/* SPMD launch parameters of one task. */
class PldLaunchSpec {
 public:
  int16_t core_num() const { return core_num_; }
  int16_t block_num() const { return core_num_; }
  void set_core_num(int16_t n) { core_num_ = n; }
  void set_block_num(int16_t n) { core_num_ = n; }
  bool require_sync_start() const { return require_sync_start_; }
  void set_require_sync_start(bool v) { require_sync_start_ = v; }

 private:
  int16_t core_num_ = 1;
  bool require_sync_start_ = false;
};

enum class PldArgDirection : uint8_t { Input, Output, InOut };

/* The arguments of one AIV task: tensors first, then scalars, in the order
 * the kernel reads them. */
class CoreTaskArgs {
 public:
  void add_input(const PldTensor &t) { add(t, PldArgDirection::Input); }
  void add_output(const PldTensor &t) { add(t, PldArgDirection::Output); }
  void add_inout(const PldTensor &t) { add(t, PldArgDirection::InOut); }
  void add_scalar(uint64_t v) {
    if (scalar_count_ >= PLD_MAX_SCALAR_ARGS) {
      error_ = "too many scalar arguments";
      return;
    }
    scalars_[scalar_count_++] = v;
  }
  int tensor_count() const { return tensor_count_; }
  int scalar_count() const { return scalar_count_; }
  const PldTensor &tensor(int i) const { return tensors_[i]; }
  PldArgDirection direction(int i) const { return directions_[i]; }
  uint64_t scalar(int i) const { return scalars_[i]; }
  bool has_error() const { return error_ != nullptr; }
  const char *error_msg() const { return error_; }

  PldLaunchSpec launch_spec;

 private:
  void add(const PldTensor &t, PldArgDirection d) {
    if (scalar_count_ > 0) {
      error_ = "tensor argument added after a scalar";
      return;
    }
    if (tensor_count_ >= PLD_MAX_TENSOR_ARGS) {
      error_ = "too many tensor arguments";
      return;
    }
    tensors_[tensor_count_] = t; /* the descriptor is copied, like the runtime does */
    directions_[tensor_count_++] = d;
  }
  PldTensor tensors_[PLD_MAX_TENSOR_ARGS] = {};
  PldArgDirection directions_[PLD_MAX_TENSOR_ARGS] = {};
  uint64_t scalars_[PLD_MAX_SCALAR_ARGS] = {};
  int tensor_count_ = 0;
  int scalar_count_ = 0;
  const char *error_ = nullptr;
};

/* What a submit returns (nothing the builtin entries use). */
struct TaskOutputTensors {
  bool submitted = false;
};

/* An AIV kernel entry point: extern "C" void k(__gm__ int64_t *args). */
typedef void (*PldAivKernelFn)(__gm__ int64_t *args);

namespace pld_rt {

/* Per calling thread (= per rank's orchestration): the kernels the entry
 * may submit, by func_id, and whether the current entry call failed. */
struct ThreadState {
  PldAivKernelFn kernels[8] = {};
  bool fatal = false;
  int32_t aiv_limit = 48; /* AIV cores of the simulated device */
};

inline ThreadState &state() {
  static thread_local ThreadState s;
  return s;
}

}  // namespace pld_rt

/* Binds func_id to a kernel for entries called on this thread (kernel_config.py's
 * KERNELS table, done by whoever calls the entry). */
inline void pld_rt_bind_kernel(int32_t func_id, PldAivKernelFn fn) {
  if (func_id >= 0 && func_id < 8) pld_rt::state().kernels[func_id] = fn;
}

/* Device AIV count used for the require_sync_start admission check. */
inline void pld_rt_set_aiv_limit(int32_t n) { pld_rt::state().aiv_limit = n; }

/* Clears the fatal flag before an entry call; returns whether the previous
 * call on this thread reported a fatal error. */
inline bool pld_rt_take_fatal() {
  bool f = pld_rt::state().fatal;
  pld_rt::state().fatal = false;
  return f;
}

inline bool rt_is_fatal() { return pld_rt::state().fatal; }

/* Formats and reports a fatal error (pld_sim_fatal); later submits of this
 * entry call are ignored. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
inline void pld_rt_report_fatal(int32_t code, const char *func, const char *fmt, ...) {
  char message[512];
  int n = std::snprintf(message, sizeof message, "FATAL(code=%d) %s: ", static_cast<int>(code),
                        func ? func : "?");
  if (n < 0) n = 0;
  if (n > static_cast<int>(sizeof message) - 1) n = static_cast<int>(sizeof message) - 1;
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(message + n, sizeof message - static_cast<size_t>(n), fmt, ap);
  va_end(ap);
  pld_rt::state().fatal = true;
  pld_sim_fatal(code, message);
}

/* Formats one log line (pld_sim_log). */
#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
inline void pld_rt_log(const char *fmt, ...) {
  char line[512];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  pld_sim_log(line);
}

/* The runtime's spellings (simpler's orchestration API). */
#define rt_report_fatal(code, ...) pld_rt_report_fatal((code), __func__, __VA_ARGS__)
#define LOG_INFO(...) pld_rt_log(__VA_ARGS__)

namespace pld_rt {

/* Start gate of one launch: every block thread waits until all of them
 * exist (require_sync_start co-residency), then they start together. */
class StartGate {
 public:
  explicit StartGate(int n) : remaining_(n) {}
  /* Whether the launch goes ahead: false once it was called off. */
  bool arrive_and_wait() {
    std::unique_lock<std::mutex> lock(mu_);
    if (--remaining_ == 0) {
      cv_.notify_all();
      return !off_;
    }
    cv_.wait(lock, [this] { return remaining_ <= 0 || off_; });
    return !off_;
  }
  /* Calls the launch off (not every block could start): the blocks
   * waiting return without running. */
  void call_off() {
    std::lock_guard<std::mutex> lock(mu_);
    off_ = true;
    cv_.notify_all();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  int remaining_;
  bool off_ = false;
};

/* One launch, as its blocks see it. */
struct Launch {
  void *rank;
  int blocks;
  PldAivKernelFn kernel;
  std::vector<std::vector<int64_t>> *args;
};

/* Block `b` of a launch, from binding to unbinding. */
inline void RunBlock(void *context, int32_t b) {
  Launch *launch = static_cast<Launch *>(context);
  pld_sim_block_enter(launch->rank, b, launch->blocks);
  launch->kernel((*launch->args)[static_cast<size_t>(b)].data());
  pld_sim_block_exit();
}

}  // namespace pld_rt

/* Submits the AIV kernel bound to func_id with `params`: runs
 * launch_spec.block_num() blocks, each on its own thread bound to the
 * calling thread's rank, all started together; returns when every block
 * has returned. Admission failures are fatal errors (nothing runs). */
inline TaskOutputTensors rt_submit_aiv_task(int32_t func_id, const CoreTaskArgs &params) {
  TaskOutputTensors out;
  pld_rt::ThreadState &st = pld_rt::state();
  if (st.fatal) return out;
  if (params.has_error()) {
    rt_report_fatal(PTO2_ERROR_INVALID_ARGS, "%s", params.error_msg());
    return out;
  }
  PldAivKernelFn kernel = (func_id >= 0 && func_id < 8) ? st.kernels[func_id] : nullptr;
  if (kernel == nullptr) {
    rt_report_fatal(PTO2_ERROR_INVALID_ARGS, "no AIV kernel bound to func_id=%d",
                    static_cast<int>(func_id));
    return out;
  }
  const int blocks = params.launch_spec.block_num();
  if (blocks < 1) {
    rt_report_fatal(PTO2_ERROR_INVALID_ARGS, "block_num=%d < 1", blocks);
    return out;
  }
  if (params.launch_spec.require_sync_start() && blocks > st.aiv_limit) {
    rt_report_fatal(PTO2_ERROR_REQUIRE_SYNC_START_INVALID, "require_sync_start block_num=%d > limit=%d",
                    blocks, static_cast<int>(st.aiv_limit));
    return out;
  }
  void *rank = pld_sim_rank_handle();
  if (rank == nullptr) {
    std::fprintf(stderr, "rt_submit_aiv_task called outside a simulated rank; ignored\n");
    return out;
  }

  /* Descriptors live for the whole launch; every block gets its own args
   * array (only args[48] differs). */
  std::vector<PldTensor> tensors(static_cast<size_t>(params.tensor_count()));
  for (int i = 0; i < params.tensor_count(); ++i) tensors[static_cast<size_t>(i)] = params.tensor(i);
  std::vector<PldLocalContext> locals(static_cast<size_t>(blocks));
  PldGlobalContext global{0};
  std::vector<std::vector<int64_t>> args(static_cast<size_t>(blocks),
                                         std::vector<int64_t>(PLD_KERNEL_ARGS_LEN, 0));
  for (int b = 0; b < blocks; ++b) {
    std::vector<int64_t> &a = args[static_cast<size_t>(b)];
    int k = 0;
    for (int i = 0; i < params.tensor_count(); ++i)
      a[static_cast<size_t>(k++)] =
          static_cast<int64_t>(reinterpret_cast<uintptr_t>(&tensors[static_cast<size_t>(i)]));
    for (int i = 0; i < params.scalar_count(); ++i)
      a[static_cast<size_t>(k++)] = static_cast<int64_t>(params.scalar(i));
    locals[static_cast<size_t>(b)].block_idx = b;
    locals[static_cast<size_t>(b)].block_num = blocks;
    locals[static_cast<size_t>(b)].async_ctx = 0;
    a[PLD_SPMD_LOCAL_CONTEXT_INDEX] =
        static_cast<int64_t>(reinterpret_cast<uintptr_t>(&locals[static_cast<size_t>(b)]));
    a[PLD_SPMD_GLOBAL_CONTEXT_INDEX] = static_cast<int64_t>(reinterpret_cast<uintptr_t>(&global));
  }

  /* In explore mode the simulator runs the blocks as fibers of this thread;
   * the other ranks it runs here meanwhile use this thread's state too. */
  pld_rt::Launch launch{rank, blocks, kernel, &args};
  const pld_rt::ThreadState saved = st;
  if (pld_sim_launch_blocks(blocks, &pld_rt::RunBlock, &launch) != 0) {
    pld_rt::state() = saved;
    out.submitted = true;
    return out;
  }

  pld_rt::StartGate gate(blocks);
  std::vector<std::thread> threads;
  threads.reserve(static_cast<size_t>(blocks));
  int started = 0;
  try {
    for (; started < blocks; ++started) {
      const int b = started;
      threads.emplace_back([&, b] {
        pld_sim_block_enter(rank, b, blocks);
        if (gate.arrive_and_wait()) kernel(args[static_cast<size_t>(b)].data());
        pld_sim_block_exit();
      });
    }
  } catch (const std::system_error &e) {
    /* The machine has no thread left for the next block (a launch of
     * thousands of blocks per rank): nothing runs, the call fails. */
    gate.call_off();
    for (std::thread &t : threads) t.join();
    rt_report_fatal(PTO2_ERROR_INVALID_ARGS,
                    "cannot start block %d of %d: %s (the simulator runs each block of a launch on a "
                    "thread of its own; launch fewer blocks, core_num)",
                    started, blocks, e.what());
    return out;
  }
  for (std::thread &t : threads) t.join();
  out.submitted = true;
  return out;
}

#endif /* simulator */

#endif /* PLD_RUNTIME_H */
