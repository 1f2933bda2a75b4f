// Test driver of check_builtins.py: runs every rendered builtin entry on
// P simulated ranks (threads, real windows, real CommContexts) through the
// simulation in pld_runtime.h / pto_sim.h and sim_stub.cpp, and checks the
// results against goldens computed here, independently of the kernels.

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "pld/pld_runtime.h"
#include "sim_stub.h"

struct VariantEntry {
  const char *variant;
  const char *builtin;
  void (*entry)(const ChipTaskArgs &);
  PTO2OrchestrationConfig (*config)(const ChipTaskArgs &);
  void (*kernel)(int64_t *);
};

#include "variants.inc"

namespace {

int g_cases = 0;
int g_failures = 0;

#define CHECK(cond, ...)                                  \
  do {                                                    \
    if (!(cond)) {                                        \
      ++g_failures;                                       \
      if (g_failures <= 40) {                             \
        std::fprintf(stderr, "FAIL [%s] ", g_case.c_str()); \
        std::fprintf(stderr, __VA_ARGS__);                \
        std::fprintf(stderr, "\n");                       \
      }                                                   \
      return false;                                       \
    }                                                     \
  } while (0)

std::string g_case;

const VariantEntry &Find(const std::string &variant) {
  for (const VariantEntry &v : kVariants)
    if (variant == v.variant) return v;
  std::fprintf(stderr, "no variant %s\n", variant.c_str());
  std::exit(2);
}

// Bump allocator of 32-byte aligned buffers in a window (spec 10.2).
struct WinLayout {
  size_t size = 0;
  size_t Add(size_t bytes) {
    const size_t at = size;
    size += (bytes + 31) / 32 * 32;
    return at;
  }
};

PldTensor Desc(SimRank &rank, size_t offset, const std::vector<uint32_t> &shape, size_t elem_bytes) {
  PldTensor t{};
  t.buffer.addr = reinterpret_cast<uint64_t>(rank.window + offset);
  size_t n = 1;
  for (uint32_t s : shape) n *= s;
  t.buffer.size = n * elem_bytes;
  t.start_offset = 0;
  t.ndims = static_cast<uint32_t>(shape.size());
  for (size_t i = 0; i < shape.size(); ++i) t.shapes[i] = shape[i];
  uint32_t stride = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    t.strides[i] = stride;
    stride *= shape[i];
  }
  t.is_contiguous = 1;
  return t;
}

template <typename T>
T *At(SimRank &rank, size_t offset) {
  return reinterpret_cast<T *>(rank.window + offset);
}

using Build = std::function<void(int rank, int call, std::vector<PldTensor> &, std::vector<uint64_t> &)>;
using BeforeCall = std::function<void(int rank, int call)>;

// Runs `calls` consecutive calls of `v` on every rank of `w` (one thread
// per rank; rank `absent` does not call). Returns false on simulator
// errors, unexpected fatals or a deadlock (unless expected).
// After the first call, every rank waits until all have finished it and
// `after_first` runs once (e.g. to check the signal is back at zero); the
// later calls run back to back without host synchronisation.
std::function<bool()> g_after_first;

bool RunAll(SimWorld &w, const VariantEntry &v, int calls, const Build &build, const BeforeCall &before = nullptr,
            bool expect_fatal = false, int absent = -1, bool expect_deadlock = false) {
  const int P = static_cast<int>(w.ranks.size());
  std::vector<std::thread> threads;
  std::vector<std::string> config_errors(static_cast<size_t>(P));
  std::mutex gate_mu;
  std::condition_variable gate_cv;
  int arrived = 0;
  bool first_ok = true;
  const int participants = absent >= 0 ? P - 1 : P;
  for (int r = 0; r < P; ++r) {
    if (r == absent) continue;
    threads.emplace_back([&, r] {
      SimRank *rank = w.ranks[static_cast<size_t>(r)].get();
      sim_bind_thread(w, rank);
      pld_rt_bind_kernel(0, v.kernel);
      pld_rt_set_aiv_limit(48);
      for (int c = 0; c < calls; ++c) {
        if (before) before(r, c);
        std::vector<PldTensor> tensors;
        std::vector<uint64_t> scalars;
        build(r, c, tensors, scalars);
        ChipTaskArgs args;
        for (const PldTensor &t : tensors) args.add_tensor(&t);
        for (uint64_t s : scalars) args.add_scalar(s);
        const int expected = v.config(args).expected_arg_count;
        if (expected != static_cast<int>(tensors.size() + scalars.size()))
          config_errors[static_cast<size_t>(r)] = "expected_arg_count " + std::to_string(expected) + " != " +
                                                  std::to_string(tensors.size() + scalars.size());
        pld_rt_take_fatal();
        v.entry(args);
        pld_rt_take_fatal();
        if (c == 0 && calls > 1) {
          std::unique_lock<std::mutex> lock(gate_mu);
          if (++arrived == participants) {
            if (g_after_first && !w.deadlocked) first_ok = g_after_first();
            gate_cv.notify_all();
          } else {
            gate_cv.wait(lock, [&] { return arrived == participants; });
          }
        }
      }
      sim_unbind_thread();
    });
  }
  for (std::thread &t : threads) t.join();
  g_after_first = nullptr;
  CHECK(first_ok, "check after the first call failed");
  for (int r = 0; r < P; ++r) CHECK(config_errors[static_cast<size_t>(r)].empty(), "rank %d: %s", r,
                                    config_errors[static_cast<size_t>(r)].c_str());
  if (expect_deadlock) {
    CHECK(w.deadlocked, "expected a deadlock report");
  } else {
    CHECK(!w.deadlocked, "%s", w.deadlock_report.c_str());
  }
  for (auto &rank : w.ranks) {
    CHECK(rank->errors.empty(), "rank %d: simulator error: %s", rank->id, rank->errors.front().c_str());
    if (!expect_fatal)
      CHECK(rank->fatals.empty(), "rank %d: fatal code %d: %s", rank->id, rank->fatals.front().first,
            rank->fatals.front().second.c_str());
  }
  return true;
}

bool SignalsZero(SimWorld &w, size_t offset, size_t cells) {
  for (auto &rank : w.ranks) {
    const int32_t *s = At<int32_t>(*rank, offset);
    for (size_t i = 0; i < cells; ++i)
      CHECK(s[i] == 0, "rank %d: signal cell %zu is %d after the call (credit leak)", rank->id, i, s[i]);
  }
  return true;
}

// ---- mesh allreduce -----------------------------------------------------------

enum class Op { Sum, Max, Min, Prod };
const char *OpName(Op op) {
  switch (op) {
    case Op::Sum: return "sum";
    case Op::Max: return "max";
    case Op::Min: return "min";
    case Op::Prod: return "prod";
  }
  return "?";
}

// Input values chosen so that every fold order gives the same exact result
// in FP16 and FP32.
double Input(Op op, int rank, int64_t i, int call) {
  switch (op) {
    case Op::Sum: return static_cast<double>((rank * 7 + i * 3 + call) % 9) - 4.0;
    case Op::Max:
    case Op::Min: return static_cast<double>((rank * 13 + i * 5 + call * 3) % 17) - 8.5;
    case Op::Prod: {
      static const double v[] = {-2.0, -1.0, -0.5, 0.5, 1.0, 2.0};
      return v[(rank * 5 + i * 7 + call) % 6];
    }
  }
  return 0;
}

double Fold(Op op, double a, double b) {
  switch (op) {
    case Op::Sum: return a + b;
    case Op::Max: return a > b ? a : b;
    case Op::Min: return a < b ? a : b;
    case Op::Prod: return a * b;
  }
  return a;
}

template <typename T>
bool MeshAllreduceCase(const char *dt, Op op, int P, int64_t numel, int core_num, int S) {
  const std::string variant = std::string("builtin.tensor.allreduce__") + OpName(op) + "__" + dt;
  const VariantEntry &v = Find(variant);
  char name[160];
  std::snprintf(name, sizeof name, "%s P=%d numel=%lld core_num=%d S=%d", variant.c_str(), P,
                static_cast<long long>(numel), core_num, S);
  g_case = name;
  ++g_cases;
  WinLayout layout;
  const size_t data_bytes = static_cast<size_t>(numel) * sizeof(T);
  const size_t data_off = layout.Add(data_bytes);
  const size_t data_end = layout.size;
  const size_t sig_off = layout.Add(static_cast<size_t>(P * S) * 4);
  SimWorld w;
  sim_world_create(w, P, layout.size);
  const int calls = 3;
  g_after_first = [&] { return SignalsZero(w, sig_off, static_cast<size_t>(P * S)); };
  auto before = [&](int r, int c) {
    SimRank &rank = *w.ranks[static_cast<size_t>(r)];
    T *d = At<T>(rank, data_off);
    for (int64_t i = 0; i < numel; ++i) d[i] = static_cast<T>(Input(op, r, i, c));
    std::memset(rank.window + data_off + data_bytes, 0x5A, data_end - data_off - data_bytes);
  };
  std::vector<std::vector<T>> results(static_cast<size_t>(calls * P));
  auto build = [&](int r, int c, std::vector<PldTensor> &t, std::vector<uint64_t> &s) {
    SimRank &rank = *w.ranks[static_cast<size_t>(r)];
    (void)c;
    t.push_back(Desc(rank, data_off, {static_cast<uint32_t>(numel)}, sizeof(T)));
    t.push_back(Desc(rank, sig_off, {static_cast<uint32_t>(P), static_cast<uint32_t>(S)}, 4));
    s.push_back(static_cast<uint64_t>(P));
    s.push_back(reinterpret_cast<uint64_t>(&rank.ctx));
    s.push_back(static_cast<uint64_t>(core_num));
  };
  // Save each call's result right before the next refill (and after the last call).
  auto before_saving = [&](int r, int c) {
    if (c > 0) {
      SimRank &rank = *w.ranks[static_cast<size_t>(r)];
      const T *d = At<T>(rank, data_off);
      results[static_cast<size_t>((c - 1) * P + r)].assign(d, d + numel);
    }
    before(r, c);
  };
  const bool ran = RunAll(w, v, calls, build, before_saving);
  bool ok = ran;
  if (ran) {
    for (int r = 0; r < P; ++r) {
      SimRank &rank = *w.ranks[static_cast<size_t>(r)];
      const T *d = At<T>(rank, data_off);
      results[static_cast<size_t>((calls - 1) * P + r)].assign(d, d + numel);
    }
    for (int c = 0; c < calls && ok; ++c) {
      for (int r = 0; r < P && ok; ++r) {
        const std::vector<T> &got = results[static_cast<size_t>(c * P + r)];
        for (int64_t i = 0; i < numel; ++i) {
          double g = Input(op, 0, i, c);
          for (int q = 1; q < P; ++q) g = Fold(op, g, Input(op, q, i, c));
          const T want = static_cast<T>(g);
          if (!(got[static_cast<size_t>(i)] == want)) {
            ++g_failures;
            if (g_failures <= 40)
              std::fprintf(stderr, "FAIL [%s] call %d rank %d element %lld: got %g want %g\n", name, c, r,
                           static_cast<long long>(i), static_cast<double>(got[static_cast<size_t>(i)]),
                           static_cast<double>(want));
            ok = false;
            break;
          }
        }
      }
    }
    for (int r = 0; r < P && ok; ++r) {
      SimRank &rank = *w.ranks[static_cast<size_t>(r)];
      for (size_t b = data_off + data_bytes; b < data_end; ++b) {
        if (rank.window[b] != 0x5A) {
          ++g_failures;
          std::fprintf(stderr, "FAIL [%s] rank %d wrote past numel (byte %zu)\n", name, r, b);
          ok = false;
          break;
        }
      }
      if (ok && P > 1 && rank.remote_read == 0) {
        ++g_failures;
        std::fprintf(stderr, "FAIL [%s] rank %d read nothing remotely\n", name, r);
        ok = false;
      }
    }
    ok = ok && SignalsZero(w, sig_off, static_cast<size_t>(P * S));
  }
  sim_world_destroy(w);
  return ok;
}

// ---- ring allreduce -----------------------------------------------------------

bool RingCase(int P, int64_t numel) {
  const VariantEntry &v = Find("builtin.tensor.allreduce_ring__sum__fp32");
  char name[128];
  std::snprintf(name, sizeof name, "ring P=%d numel=%lld", P, static_cast<long long>(numel));
  g_case = name;
  ++g_cases;
  WinLayout layout;
  const size_t data_off = layout.Add(static_cast<size_t>(numel) * 4);
  const int rows = 2 * (P - 1) + 1;
  const size_t sig_off = layout.Add(static_cast<size_t>(rows * P) * 4);
  SimWorld w;
  sim_world_create(w, P, layout.size);
  const int calls = 3;
  g_after_first = [&] { return SignalsZero(w, sig_off, static_cast<size_t>(rows * P)); };
  std::vector<std::vector<float>> results(static_cast<size_t>(calls * P));
  auto before = [&](int r, int c) {
    SimRank &rank = *w.ranks[static_cast<size_t>(r)];
    float *d = At<float>(rank, data_off);
    if (c > 0) results[static_cast<size_t>((c - 1) * P + r)].assign(d, d + numel);
    for (int64_t i = 0; i < numel; ++i) d[i] = static_cast<float>(Input(Op::Sum, r, i, c));
  };
  auto build = [&](int r, int, std::vector<PldTensor> &t, std::vector<uint64_t> &s) {
    SimRank &rank = *w.ranks[static_cast<size_t>(r)];
    t.push_back(Desc(rank, data_off, {static_cast<uint32_t>(numel)}, 4));
    t.push_back(Desc(rank, sig_off, {static_cast<uint32_t>(rows), static_cast<uint32_t>(P)}, 4));
    s.push_back(static_cast<uint64_t>(P));
    s.push_back(reinterpret_cast<uint64_t>(&rank.ctx));
  };
  bool ok = RunAll(w, v, calls, build, before);
  if (ok) {
    for (int r = 0; r < P; ++r) {
      const float *d = At<float>(*w.ranks[static_cast<size_t>(r)], data_off);
      results[static_cast<size_t>((calls - 1) * P + r)].assign(d, d + numel);
    }
    for (int c = 0; c < calls && ok; ++c)
      for (int r = 0; r < P && ok; ++r)
        for (int64_t i = 0; i < numel; ++i) {
          double g = 0;
          for (int q = 0; q < P; ++q) g += Input(Op::Sum, q, i, c);
          if (results[static_cast<size_t>(c * P + r)][static_cast<size_t>(i)] != static_cast<float>(g)) {
            ++g_failures;
            std::fprintf(stderr, "FAIL [%s] call %d rank %d element %lld: got %g want %g\n", name, c, r,
                         static_cast<long long>(i),
                         static_cast<double>(results[static_cast<size_t>(c * P + r)][static_cast<size_t>(i)]), g);
            ok = false;
            break;
          }
        }
    ok = ok && SignalsZero(w, sig_off, static_cast<size_t>(rows * P));
  }
  sim_world_destroy(w);
  return ok;
}

// ---- all_to_all_v -----------------------------------------------------------

enum class Counts { ZeroAndFull, OneAndFull, OverCapacity, Negative, Default };
const char *CountsName(Counts m) {
  switch (m) {
    case Counts::ZeroAndFull: return "zero_and_full";
    case Counts::OneAndFull: return "one_and_full";
    case Counts::OverCapacity: return "over_capacity";
    case Counts::Negative: return "negative";
    case Counts::Default: return "default";
  }
  return "?";
}
int32_t RawCount(Counts m, int P, int d, int max_rows) {
  switch (m) {
    case Counts::ZeroAndFull: return d % 2 == 0 ? 0 : max_rows;
    case Counts::OneAndFull: return d % 2 == 0 ? 1 : max_rows;
    case Counts::OverCapacity: return max_rows + 3;
    case Counts::Negative: return d % 2 == 0 ? -2 : max_rows;
    case Counts::Default: return P - d;
  }
  return 0;
}

template <typename T>
T A2avInput(int r, int d, int k, int j) {
  if constexpr (std::is_same_v<T, int8_t>) {
    return static_cast<T>((r * 37 + d * 11 + k * 5 + j) % 100 - 50);
  } else {
    return static_cast<T>(0.25 + r * 1000 + d * 100 + k * 10 + (j % 10));
  }
}

// expect: 0 = runs, 5 / 7 = the entry / submit reports that fatal code.
template <typename T>
bool A2avCase(const char *dt, int P, Counts m, int L, int S, int expect_fatal_code = 0) {
  const std::string variant = std::string("builtin.tensor.all_to_all_v__") + dt;
  const VariantEntry &v = Find(variant);
  constexpr int kMax = 4;
  const int row = std::is_same_v<T, int8_t> ? 40 : 24;
  char name[192];
  std::snprintf(name, sizeof name, "%s P=%d counts=%s L=%d S=%d", variant.c_str(), P, CountsName(m), L, S);
  g_case = name;
  ++g_cases;
  WinLayout layout;
  const size_t block_elems = static_cast<size_t>(P * kMax * row);
  const size_t in_off = layout.Add(block_elems * sizeof(T));
  const size_t tgt_off = layout.Add(block_elems * sizeof(T));
  const size_t sig_off = layout.Add(static_cast<size_t>(P * S) * 4);
  const size_t send_off = layout.Add(static_cast<size_t>(P) * 4);
  const size_t recv_off = layout.Add(static_cast<size_t>(P) * 4);
  SimWorld w;
  sim_world_create(w, P, layout.size);
  for (auto &rank : w.ranks) {
    rank->record_remote_writes = true;
    T *in = At<T>(*rank, in_off);
    for (int d = 0; d < P; ++d)
      for (int k = 0; k < kMax; ++k)
        for (int j = 0; j < row; ++j) in[(d * kMax + k) * row + j] = A2avInput<T>(rank->id, d, k, j);
    int32_t *send = At<int32_t>(*rank, send_off);
    for (int d = 0; d < P; ++d) send[d] = RawCount(m, P, d, kMax);
  }
  auto build = [&](int r, int, std::vector<PldTensor> &t, std::vector<uint64_t> &s) {
    SimRank &rank = *w.ranks[static_cast<size_t>(r)];
    t.push_back(Desc(rank, in_off, {static_cast<uint32_t>(P * kMax), static_cast<uint32_t>(row)}, sizeof(T)));
    t.push_back(Desc(rank, tgt_off, {static_cast<uint32_t>(P * kMax), static_cast<uint32_t>(row)}, sizeof(T)));
    t.push_back(Desc(rank, sig_off, {static_cast<uint32_t>(P), static_cast<uint32_t>(S)}, 4));
    t.push_back(Desc(rank, send_off, {static_cast<uint32_t>(P)}, 4));
    t.push_back(Desc(rank, recv_off, {static_cast<uint32_t>(P)}, 4));
    s.push_back(reinterpret_cast<uint64_t>(&rank.ctx));
    s.push_back(static_cast<uint64_t>(L));
  };
  const int calls = 3;
  g_after_first = [&] { return SignalsZero(w, sig_off, static_cast<size_t>(P * S)); };
  bool ok = RunAll(w, v, calls, build, nullptr, expect_fatal_code != 0);
  const int B = CalAllToAllVBlocks(P, L);
  for (int r = 0; r < P && ok; ++r) {
    SimRank &rank = *w.ranks[static_cast<size_t>(r)];
    const T *tgt = At<T>(rank, tgt_off);
    const int32_t *recv = At<int32_t>(rank, recv_off);
    if (expect_fatal_code != 0) {
      // Nothing submitted: no output, no traffic, no log line, the fatal reported per call.
      if (rank.fatals.size() != static_cast<size_t>(calls) || rank.fatals[0].first != expect_fatal_code) {
        ++g_failures;
        std::fprintf(stderr, "FAIL [%s] rank %d: %zu fatals (want %d of code %d)%s%s\n", name, r,
                     rank.fatals.size(), calls, expect_fatal_code, rank.fatals.empty() ? "" : ": ",
                     rank.fatals.empty() ? "" : rank.fatals[0].second.c_str());
        ok = false;
        break;
      }
      if (expect_fatal_code == PTO2_ERROR_REQUIRE_SYNC_START_INVALID) {
        char want[96];
        std::snprintf(want, sizeof want, "require_sync_start block_num=%d > limit=48", B);
        if (rank.fatals[0].second.find(want) == std::string::npos) {
          ++g_failures;
          std::fprintf(stderr, "FAIL [%s] rank %d: fatal message '%s' lacks '%s'\n", name, r,
                       rank.fatals[0].second.c_str(), want);
          ok = false;
          break;
        }
      }
      for (size_t i = 0; i < block_elems && ok; ++i)
        if (tgt[i] != T(0)) {
          ++g_failures;
          std::fprintf(stderr, "FAIL [%s] rank %d: target written despite the rejection\n", name, r);
          ok = false;
        }
      for (int s = 0; s < P && ok; ++s)
        if (recv[s] != 0) {
          ++g_failures;
          std::fprintf(stderr, "FAIL [%s] rank %d: recv_counts written despite the rejection\n", name, r);
          ok = false;
        }
      if (ok && (rank.remote_written != 0 || rank.notifies != 0)) {
        ++g_failures;
        std::fprintf(stderr, "FAIL [%s] rank %d: traffic despite the rejection\n", name, r);
        ok = false;
      }
      const size_t want_logs = expect_fatal_code == PTO2_ERROR_INVALID_ARGS ? 0u : static_cast<size_t>(calls);
      if (ok && rank.logs.size() != want_logs) {
        ++g_failures;
        std::fprintf(stderr, "FAIL [%s] rank %d: %zu log lines, want %zu\n", name, r, rank.logs.size(), want_logs);
        ok = false;
      }
      continue;
    }
    for (int src = 0; src < P && ok; ++src) {
      const int32_t raw = RawCount(m, P, r, kMax);
      const int32_t rows = raw < 0 ? 0 : (raw > kMax ? kMax : raw);
      if (recv[src] != rows) {
        ++g_failures;
        std::fprintf(stderr, "FAIL [%s] rank %d: recv_counts[%d] = %d, want %d\n", name, r, src, recv[src], rows);
        ok = false;
        break;
      }
      for (int k = 0; k < kMax && ok; ++k)
        for (int j = 0; j < row; ++j) {
          const T got = tgt[(src * kMax + k) * row + j];
          const T want = k < rows ? A2avInput<T>(src, r, k, j) : T(0);
          if (got != want) {
            ++g_failures;
            std::fprintf(stderr, "FAIL [%s] rank %d: target[src %d row %d col %d] = %g, want %g\n", name, r, src,
                         k, j, static_cast<double>(got), static_cast<double>(want));
            ok = false;
            break;
          }
        }
    }
    // One DFX line per call.
    char want[160];
    std::snprintf(want, sizeof want, "requested_core_num=%d launched_core_num=%d active_lanes=%d nranks=%d", L, B,
                  B < S ? B : S, P);
    if (ok && (rank.logs.size() != static_cast<size_t>(calls) || rank.logs[0] != want)) {
      ++g_failures;
      std::fprintf(stderr, "FAIL [%s] rank %d: log %s, want %d x '%s'\n", name, r,
                   rank.logs.empty() ? "(none)" : rank.logs[0].c_str(), calls, want);
      ok = false;
    }
    // Every remote transfer into a target slot starts 32-byte aligned
    // within the slot.
    const size_t slot_bytes = static_cast<size_t>(kMax * row) * sizeof(T);
    for (const auto &wr : rank.remote_writes) {
      if (wr.second < tgt_off || wr.second >= tgt_off + block_elems * sizeof(T)) continue;
      const size_t in_slot = wr.second - tgt_off - static_cast<size_t>(r) * slot_bytes;
      if (in_slot % 32 != 0) {
        ++g_failures;
        std::fprintf(stderr, "FAIL [%s] rank %d: a transfer into rank %d starts at slot byte %zu\n", name, r,
                     wr.first, in_slot);
        ok = false;
        break;
      }
    }
  }
  ok = ok && SignalsZero(w, sig_off, static_cast<size_t>(P * S));
  sim_world_destroy(w);
  return ok;
}

bool LaunchWidthTable() {
  g_case = "CalAllToAllVBlocks table (spec 8.1)";
  ++g_cases;
  struct Row {
    int P, L, B;
  };
  const Row rows[] = {{8, 1, 1},   {8, 2, 2},   {8, 4, 4},   {8, 7, 7},   {8, 8, 8},   {8, 10, 8},  {8, 15, 8},
                      {8, 16, 16}, {16, 1, 1},  {16, 4, 4},  {16, 8, 8},  {16, 15, 15}, {16, 16, 16}, {16, 7, 7},
                      {4, 1, 1},   {4, 2, 2},   {4, 4, 4},   {4, 8, 8},   {4, 10, 8},  {4, 16, 16}, {2, 2, 2},
                      {2, 5, 4},   {2, 6, 6},   {2, 51, 50}};
  for (const Row &r : rows)
    CHECK(CalAllToAllVBlocks(r.P, r.L) == r.B, "CalAllToAllVBlocks(%d, %d) = %d, want %d", r.P, r.L,
          CalAllToAllVBlocks(r.P, r.L), r.B);
  CHECK(CalAllToAllVBlocks(0, 4) == 0 && CalAllToAllVBlocks(4, 0) == 0, "non-positive inputs");
  return true;
}

// ---- barrier, broadcast, reduce_scatter, allgather, all_to_all -------------

bool BarrierCase(int P) {
  const VariantEntry &v = Find("builtin.tensor.barrier__fp32");
  g_case = "barrier P=" + std::to_string(P);
  ++g_cases;
  WinLayout layout;
  const size_t sig_off = layout.Add(static_cast<size_t>(P) * 4);
  SimWorld w;
  sim_world_create(w, P, layout.size);
  auto build = [&](int r, int, std::vector<PldTensor> &t, std::vector<uint64_t> &s) {
    SimRank &rank = *w.ranks[static_cast<size_t>(r)];
    t.push_back(Desc(rank, sig_off, {static_cast<uint32_t>(P)}, 4));
    s.push_back(static_cast<uint64_t>(P));
    s.push_back(reinterpret_cast<uint64_t>(&rank.ctx));
  };
  g_after_first = [&] { return SignalsZero(w, sig_off, static_cast<size_t>(P)); };
  bool ok = RunAll(w, v, 3, build);
  for (auto &rank : w.ranks)
    if (ok && rank->notifies != static_cast<uint64_t>(3 * 2 * (P - 1))) {
      ++g_failures;
      std::fprintf(stderr, "FAIL [%s] rank %d: %llu notifies\n", g_case.c_str(), rank->id,
                   static_cast<unsigned long long>(rank->notifies.load()));
      ok = false;
    }
  ok = ok && SignalsZero(w, sig_off, static_cast<size_t>(P));
  sim_world_destroy(w);
  return ok;
}

float Data(int r, int64_t i, int c) { return static_cast<float>(r * 1000 + i + c * 0.5); }

bool BroadcastCase(int P, int root) {
  const VariantEntry &v = Find("builtin.tensor.broadcast__root" + std::to_string(root) + "__fp32");
  g_case = "broadcast P=" + std::to_string(P) + " root=" + std::to_string(root);
  ++g_cases;
  const int64_t n = 300;
  WinLayout layout;
  const size_t data_off = layout.Add(static_cast<size_t>(n) * 4);
  const size_t sig_off = layout.Add(static_cast<size_t>(P) * 4);
  SimWorld w;
  sim_world_create(w, P, layout.size);
  const int calls = 3;
  g_after_first = [&] { return SignalsZero(w, sig_off, static_cast<size_t>(P)); };
  std::vector<std::vector<float>> results(static_cast<size_t>(calls * P));
  auto before = [&](int r, int c) {
    float *d = At<float>(*w.ranks[static_cast<size_t>(r)], data_off);
    if (c > 0) results[static_cast<size_t>((c - 1) * P + r)].assign(d, d + n);
    for (int64_t i = 0; i < n; ++i) d[i] = Data(r, i, c);
  };
  auto build = [&](int r, int, std::vector<PldTensor> &t, std::vector<uint64_t> &s) {
    SimRank &rank = *w.ranks[static_cast<size_t>(r)];
    t.push_back(Desc(rank, data_off, {static_cast<uint32_t>(n)}, 4));
    t.push_back(Desc(rank, sig_off, {static_cast<uint32_t>(P), 1}, 4));
    s.push_back(static_cast<uint64_t>(P));
    s.push_back(reinterpret_cast<uint64_t>(&rank.ctx));
  };
  bool ok = RunAll(w, v, calls, build, before);
  if (ok) {
    for (int r = 0; r < P; ++r) {
      const float *d = At<float>(*w.ranks[static_cast<size_t>(r)], data_off);
      results[static_cast<size_t>((calls - 1) * P + r)].assign(d, d + n);
    }
    for (int c = 0; c < calls && ok; ++c)
      for (int r = 0; r < P && ok; ++r)
        for (int64_t i = 0; i < n; ++i)
          if (results[static_cast<size_t>(c * P + r)][static_cast<size_t>(i)] != Data(root, i, c)) {
            ++g_failures;
            std::fprintf(stderr, "FAIL [%s] call %d rank %d element %lld\n", g_case.c_str(), c, r,
                         static_cast<long long>(i));
            ok = false;
            break;
          }
    ok = ok && SignalsZero(w, sig_off, static_cast<size_t>(P));
  }
  sim_world_destroy(w);
  return ok;
}

bool ReduceScatterCase(int P) {
  const VariantEntry &v = Find("builtin.tensor.reduce_scatter__sum__fp32");
  g_case = "reduce_scatter P=" + std::to_string(P);
  ++g_cases;
  const int64_t m = 300;
  WinLayout layout;
  const size_t data_off = layout.Add(static_cast<size_t>(P * m) * 4);
  const size_t sig_off = layout.Add(static_cast<size_t>(P) * 4);
  SimWorld w;
  sim_world_create(w, P, layout.size);
  for (auto &rank : w.ranks) {
    float *d = At<float>(*rank, data_off);
    for (int64_t i = 0; i < P * m; ++i) d[i] = static_cast<float>(Input(Op::Sum, rank->id, i, 0));
  }
  auto build = [&](int r, int, std::vector<PldTensor> &t, std::vector<uint64_t> &s) {
    SimRank &rank = *w.ranks[static_cast<size_t>(r)];
    t.push_back(Desc(rank, data_off, {static_cast<uint32_t>(P), static_cast<uint32_t>(m)}, 4));
    t.push_back(Desc(rank, sig_off, {static_cast<uint32_t>(P)}, 4));
    s.push_back(static_cast<uint64_t>(P));
    s.push_back(reinterpret_cast<uint64_t>(&rank.ctx));
  };
  bool ok = RunAll(w, v, 1, build);
  for (int r = 0; r < P && ok; ++r) {
    const float *d = At<float>(*w.ranks[static_cast<size_t>(r)], data_off);
    for (int64_t i = 0; i < P * m; ++i) {
      double want = Input(Op::Sum, r, i, 0);
      if (i / m == r) {
        want = 0;
        for (int q = 0; q < P; ++q) want += Input(Op::Sum, q, i, 0);
      }
      if (d[i] != static_cast<float>(want)) {
        ++g_failures;
        std::fprintf(stderr, "FAIL [%s] rank %d element %lld: got %g want %g\n", g_case.c_str(), r,
                     static_cast<long long>(i), static_cast<double>(d[i]), want);
        ok = false;
        break;
      }
    }
  }
  ok = ok && SignalsZero(w, sig_off, static_cast<size_t>(P));
  sim_world_destroy(w);
  return ok;
}

bool GatherLikeCase(bool all_to_all, int P) {
  const VariantEntry &v =
      Find(all_to_all ? "builtin.tensor.all_to_all__fp32" : "builtin.tensor.allgather__fp32");
  g_case = std::string(all_to_all ? "all_to_all" : "allgather") + " P=" + std::to_string(P);
  ++g_cases;
  const int64_t m = all_to_all ? 100 : 300;
  const int64_t in_elems = all_to_all ? P * m : m;
  WinLayout layout;
  const size_t in_off = layout.Add(static_cast<size_t>(in_elems) * 4);
  const size_t out_off = layout.Add(static_cast<size_t>(P * m) * 4);
  const size_t sig_off = layout.Add(static_cast<size_t>(P) * 4);
  SimWorld w;
  sim_world_create(w, P, layout.size);
  for (auto &rank : w.ranks) {
    float *d = At<float>(*rank, in_off);
    for (int64_t i = 0; i < in_elems; ++i) d[i] = Data(rank->id, i, 0);
  }
  auto build = [&](int r, int, std::vector<PldTensor> &t, std::vector<uint64_t> &s) {
    SimRank &rank = *w.ranks[static_cast<size_t>(r)];
    t.push_back(Desc(rank, in_off, {static_cast<uint32_t>(in_elems)}, 4));
    t.push_back(Desc(rank, out_off, {static_cast<uint32_t>(P * m)}, 4));
    t.push_back(Desc(rank, sig_off, {static_cast<uint32_t>(P)}, 4));
    s.push_back(static_cast<uint64_t>(P));
    s.push_back(reinterpret_cast<uint64_t>(&rank.ctx));
  };
  g_after_first = [&] { return SignalsZero(w, sig_off, static_cast<size_t>(P)); };
  bool ok = RunAll(w, v, 3, build);
  for (int r = 0; r < P && ok; ++r) {
    const float *out = At<float>(*w.ranks[static_cast<size_t>(r)], out_off);
    for (int src = 0; src < P && ok; ++src)
      for (int64_t i = 0; i < m; ++i) {
        const float want = all_to_all ? Data(src, r * m + i, 0) : Data(src, i, 0);
        if (out[src * m + i] != want) {
          ++g_failures;
          std::fprintf(stderr, "FAIL [%s] rank %d slot %d element %lld\n", g_case.c_str(), r, src,
                       static_cast<long long>(i));
          ok = false;
          break;
        }
      }
  }
  ok = ok && SignalsZero(w, sig_off, static_cast<size_t>(P));
  sim_world_destroy(w);
  return ok;
}

// A rank that never calls: its peers must be reported deadlocked, not hang.
bool DeadlockIsReported() {
  const VariantEntry &v = Find("builtin.tensor.allreduce__sum__fp32");
  g_case = "deadlock report (rank 1 never calls allreduce)";
  ++g_cases;
  const int P = 2, n = 64;
  WinLayout layout;
  const size_t data_off = layout.Add(n * 4);
  const size_t sig_off = layout.Add(P * 4);
  SimWorld w;
  sim_world_create(w, P, layout.size);
  w.deadlock_ms = 300;
  auto build = [&](int r, int, std::vector<PldTensor> &t, std::vector<uint64_t> &s) {
    SimRank &rank = *w.ranks[static_cast<size_t>(r)];
    t.push_back(Desc(rank, data_off, {static_cast<uint32_t>(n)}, 4));
    t.push_back(Desc(rank, sig_off, {static_cast<uint32_t>(P), 1}, 4));
    s.push_back(static_cast<uint64_t>(P));
    s.push_back(reinterpret_cast<uint64_t>(&rank.ctx));
    s.push_back(1);
  };
  const auto t0 = std::chrono::steady_clock::now();
  const bool ok = RunAll(w, v, 1, build, nullptr, false, /*absent=*/1, /*expect_deadlock=*/true);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (ok) std::printf("  deadlock reported after %.2f s: %s\n", secs, w.deadlock_report.c_str());
  sim_world_destroy(w);
  return ok;
}

}  // namespace

int RunPtoSimUnitTests();

int main(int argc, char **argv) {
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  const auto t0 = std::chrono::steady_clock::now();
  auto section = [&](const char *what, int before_cases, int before_failures) {
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("%-40s %4d cases, %d failures  (t=%.1fs)\n", what, g_cases - before_cases,
                g_failures - before_failures, secs);
    std::fflush(stdout);
  };

  int c0 = g_cases, f0 = g_failures;
  ++g_cases;
  g_failures += RunPtoSimUnitTests();
  section("pto_sim instruction semantics", c0, f0);

  c0 = g_cases, f0 = g_failures;
  LaunchWidthTable();
  section("launch width table", c0, f0);

  c0 = g_cases, f0 = g_failures;
  const Op ops[] = {Op::Sum, Op::Max, Op::Min, Op::Prod};
  const int ranks[] = {1, 2, 3, 4, 8};
  const int64_t numels[] = {1, 17, 255, 256, 257, 4127};
  const int cores[] = {1, 2, 4};
  for (Op op : ops)
    for (int P : ranks)
      for (int64_t n : numels)
        for (int core : cores) {
          if (quick && (P == 3 || P == 8 || n == 255)) continue;
          MeshAllreduceCase<_Float16>("fp16", op, P, n, core, core);
          MeshAllreduceCase<float>("fp32", op, P, n, core, core);
        }
  // Fewer signal lanes than blocks: the extra blocks retire.
  MeshAllreduceCase<float>("fp32", Op::Sum, 2, 4127, 4, 2);
  MeshAllreduceCase<_Float16>("fp16", Op::Max, 3, 600, 4, 1);
  section("mesh allreduce (f16/f32 x 4 ops)", c0, f0);

  c0 = g_cases, f0 = g_failures;
  for (int P : {2, 4, 8})
    for (int64_t per : {1, 64, 300}) RingCase(P, P * per);
  section("ring allreduce f32", c0, f0);

  c0 = g_cases, f0 = g_failures;
  const Counts matrices[] = {Counts::ZeroAndFull, Counts::OneAndFull, Counts::OverCapacity, Counts::Negative,
                             Counts::Default};
  for (int P : {2, 4})
    for (Counts m : matrices)
      for (int L : {1, 2, 5, 10}) {
        A2avCase<float>("fp32", P, m, L, 10);
        A2avCase<int8_t>("int8", P, m, L, 10);
      }
  // Admission: S < B is rejected before anything runs; B above the AIV
  // count fails at submit (FATAL code 7).
  A2avCase<float>("fp32", 2, Counts::Default, 10, 4, PTO2_ERROR_INVALID_ARGS);
  A2avCase<int8_t>("int8", 4, Counts::Default, 10, 7, PTO2_ERROR_INVALID_ARGS);
  A2avCase<float>("fp32", 2, Counts::Default, 51, 64, PTO2_ERROR_REQUIRE_SYNC_START_INVALID);
  section("all_to_all_v f32/int8", c0, f0);

  c0 = g_cases, f0 = g_failures;
  for (int P : {2, 4}) {
    BarrierCase(P);
    for (int root = 0; root < P; ++root) BroadcastCase(P, root);
    ReduceScatterCase(P);
    GatherLikeCase(false, P);
    GatherLikeCase(true, P);
  }
  section("barrier/broadcast/reduce_scatter/...", c0, f0);

  c0 = g_cases, f0 = g_failures;
  DeadlockIsReported();
  section("deadlock detection", c0, f0);

  std::printf("%s: %d cases, %d failures\n", g_failures == 0 ? "PASS" : "FAIL", g_cases, g_failures);
  return g_failures == 0 ? 0 : 1;
}
