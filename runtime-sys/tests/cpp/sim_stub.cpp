// Test-only implementation of pld_sim.h's device functions (see sim_stub.h).

#include "sim_stub.h"

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "pld/pld_sim.h"

namespace {

SimWorld *g_world = nullptr;
std::mutex g_wait_mu;
std::condition_variable g_wait_cv;
std::atomic<uint64_t> g_progress{0};

struct Binding {
  SimRank *rank = nullptr;
  int block_idx = -1;
  int block_num = 0;
  std::vector<void *> tiles;
};
thread_local Binding tl;

void RecordError(const std::string &msg) {
  if (tl.rank == nullptr) {
    std::fprintf(stderr, "sim error outside a rank: %s\n", msg.c_str());
    return;
  }
  std::lock_guard<std::mutex> lock(tl.rank->mu);
  tl.rank->errors.push_back(msg);
}

// The rank whose window holds [start, end), -1 if none; -2 if the range
// leaves the window it starts in (or straddles one).
int Locate(uintptr_t start, uintptr_t end) {
  if (g_world == nullptr) return -1;
  for (auto &r : g_world->ranks) {
    const uintptr_t base = reinterpret_cast<uintptr_t>(r->window);
    const uintptr_t limit = base + r->win_size;
    const bool overlaps = start < limit && end > base;
    if (!overlaps) continue;
    if (start >= base && end <= limit) return r->id;
    return -2;
  }
  return -1;
}

bool CellOk(const int32_t *cell, const char *what) {
  const uintptr_t a = reinterpret_cast<uintptr_t>(cell);
  if (a % 4 != 0 || Locate(a, a + 4) < 0) {
    char msg[160];
    std::snprintf(msg, sizeof msg, "%s on a cell at %#lx outside every window", what, static_cast<unsigned long>(a));
    RecordError(msg);
    return false;
  }
  return true;
}

bool Holds(int32_t v, int32_t expected, int32_t cmp) {
  return cmp == PLD_WAIT_EQ ? v == expected : v >= expected;
}

uint16_t F32ToF16(float f) {
  _Float16 h = static_cast<_Float16>(f);
  uint16_t bits;
  std::memcpy(&bits, &h, 2);
  return bits;
}
float F16ToF32(uint16_t bits) {
  _Float16 h;
  std::memcpy(&h, &bits, 2);
  return static_cast<float>(h);
}

}  // namespace

void sim_world_create(SimWorld &w, int P, size_t win_size) {
  w.ranks.clear();
  w.deadlocked = false;
  w.deadlock_report.clear();
  if (const char *ms = std::getenv("PLD_TEST_DEADLOCK_MS")) w.deadlock_ms = std::atoi(ms);
  win_size = (win_size + 31) / 32 * 32;
  for (int r = 0; r < P; ++r) {
    auto rank = std::make_unique<SimRank>();
    rank->id = r;
    rank->win_size = win_size;
    rank->window = static_cast<uint8_t *>(std::aligned_alloc(64, (win_size + 63) / 64 * 64));
    std::memset(rank->window, 0, win_size);
    w.ranks.push_back(std::move(rank));
  }
  for (auto &rank : w.ranks) {
    rank->ctx.rankId = static_cast<uint32_t>(rank->id);
    rank->ctx.rankNum = static_cast<uint32_t>(P);
    rank->ctx.winSize = win_size;
    for (int r = 0; r < P; ++r) rank->ctx.windowsIn[r] = reinterpret_cast<uint64_t>(w.ranks[r]->window);
  }
  g_world = &w;
}

void sim_world_destroy(SimWorld &w) {
  for (auto &r : w.ranks) std::free(r->window);
  w.ranks.clear();
  g_world = nullptr;
}

void sim_bind_thread(SimWorld &w, SimRank *rank) {
  (void)w;
  tl.rank = rank;
  tl.block_idx = -1;
}

void sim_unbind_thread() { tl = Binding(); }

extern "C" {

void pld_sim_notify(int32_t *cell, int32_t value, int32_t op) {
  if (!CellOk(cell, "notify")) return;
  if (op == PLD_NOTIFY_ATOMIC_ADD) {
    __atomic_fetch_add(cell, value, __ATOMIC_SEQ_CST);
  } else if (op == PLD_NOTIFY_SET) {
    __atomic_store_n(cell, value, __ATOMIC_SEQ_CST);
  } else {
    RecordError("notify with an unknown op");
    return;
  }
  if (tl.rank) tl.rank->notifies.fetch_add(1);
  g_progress.fetch_add(1);
  std::lock_guard<std::mutex> lock(g_wait_mu);
  g_wait_cv.notify_all();
}

void pld_sim_wait(const int32_t *cell, int32_t expected, int32_t cmp) {
  if (!CellOk(cell, "wait")) return;
  if (cmp != PLD_WAIT_EQ && cmp != PLD_WAIT_GE) {
    RecordError("wait with an unknown comparison");
    return;
  }
  using Clock = std::chrono::steady_clock;
  uint64_t seen = g_progress.load();
  auto last_change = Clock::now();
  std::unique_lock<std::mutex> lock(g_wait_mu);
  for (;;) {
    const int32_t v = __atomic_load_n(cell, __ATOMIC_SEQ_CST);
    if (Holds(v, expected, cmp)) return;
    if (g_world && g_world->deadlocked) return;
    g_wait_cv.wait_for(lock, std::chrono::milliseconds(2));
    const uint64_t now_progress = g_progress.load();
    if (now_progress != seen) {
      seen = now_progress;
      last_change = Clock::now();
    } else if (g_world &&
               Clock::now() - last_change > std::chrono::milliseconds(g_world->deadlock_ms)) {
      const int32_t actual = __atomic_load_n(cell, __ATOMIC_SEQ_CST);
      char msg[256];
      const int owner = Locate(reinterpret_cast<uintptr_t>(cell), reinterpret_cast<uintptr_t>(cell) + 4);
      const uintptr_t base = owner >= 0 ? reinterpret_cast<uintptr_t>(g_world->ranks[owner]->window) : 0;
      std::snprintf(msg, sizeof msg,
                    "deadlock: rank %d block %d waits on window %d cell %ld for %s %d, actual %d",
                    tl.rank ? tl.rank->id : -1, tl.block_idx, owner,
                    static_cast<long>((reinterpret_cast<uintptr_t>(cell) - base) / 4),
                    cmp == PLD_WAIT_EQ ? "==" : ">=", expected, actual);
      {
        std::lock_guard<std::mutex> wl(g_world->mu);
        if (g_world->deadlock_report.empty()) g_world->deadlock_report = msg;
      }
      g_world->deadlocked = true;
      g_wait_cv.notify_all();
      return;
    }
  }
}

int32_t pld_sim_test(const int32_t *cell, int32_t expected, int32_t cmp) {
  if (!CellOk(cell, "test")) return 0;
  return Holds(__atomic_load_n(cell, __ATOMIC_SEQ_CST), expected, cmp) ? 1 : 0;
}

void pld_sim_fence(void) { std::atomic_thread_fence(std::memory_order_seq_cst); }

void *pld_sim_tile_alloc(int64_t site, int64_t bytes) {
  (void)site;
  if (bytes < 0) {
    RecordError("tile_alloc of a negative size");
    return nullptr;
  }
  const size_t n = (static_cast<size_t>(bytes) + 63) / 64 * 64 + 64;
  void *p = std::aligned_alloc(64, n);
  std::memset(p, 0, n);
  tl.tiles.push_back(p);
  return p;
}

void pld_sim_copy(void *dst, int64_t dst_row_stride, int64_t dst_col_stride, const void *src,
                  int64_t src_row_stride, int64_t src_col_stride, int64_t rows, int64_t cols,
                  int32_t elem_bytes, int32_t accumulate) {
  if (rows <= 0 || cols <= 0) return;
  if (dst_row_stride < 0 || dst_col_stride < 0 || src_row_stride < 0 || src_col_stride < 0 ||
      elem_bytes <= 0) {
    RecordError("copy with negative strides");
    return;
  }
  const int64_t dlast = (rows - 1) * dst_row_stride + (cols - 1) * dst_col_stride;
  const int64_t slast = (rows - 1) * src_row_stride + (cols - 1) * src_col_stride;
  const uintptr_t d0 = reinterpret_cast<uintptr_t>(dst), s0 = reinterpret_cast<uintptr_t>(src);
  const uintptr_t d1 = d0 + static_cast<uintptr_t>((dlast + 1) * elem_bytes);
  const uintptr_t s1 = s0 + static_cast<uintptr_t>((slast + 1) * elem_bytes);
  const int downer = Locate(d0, d1), sowner = Locate(s0, s1);
  if (downer == -2 || sowner == -2) {
    char msg[200];
    std::snprintf(msg, sizeof msg, "%s of %lld x %lld elements leaves its window",
                  downer == -2 ? "a store" : "a load", static_cast<long long>(rows), static_cast<long long>(cols));
    RecordError(msg);
    return;
  }
  const uint64_t bytes = static_cast<uint64_t>(rows * cols * elem_bytes);
  if (tl.rank) {
    if (sowner >= 0 && sowner != tl.rank->id) tl.rank->remote_read += bytes;
    if (downer >= 0 && downer != tl.rank->id) {
      tl.rank->remote_written += bytes;
      if (tl.rank->record_remote_writes) {
        std::lock_guard<std::mutex> lock(tl.rank->mu);
        tl.rank->remote_writes.emplace_back(
            downer, static_cast<uint64_t>(d0 - reinterpret_cast<uintptr_t>(g_world->ranks[downer]->window)));
      }
    }
  }
  auto *dp = static_cast<uint8_t *>(dst);
  auto *sp = static_cast<const uint8_t *>(src);
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = 0; c < cols; ++c) {
      uint8_t *d = dp + (r * dst_row_stride + c * dst_col_stride) * elem_bytes;
      const uint8_t *s = sp + (r * src_row_stride + c * src_col_stride) * elem_bytes;
      switch (accumulate) {
        case PLD_COPY_ASSIGN: std::memmove(d, s, static_cast<size_t>(elem_bytes)); break;
        case PLD_COPY_ADD_F32: {
          float add;
          std::memcpy(&add, s, 4);
          uint32_t old = __atomic_load_n(reinterpret_cast<uint32_t *>(d), __ATOMIC_SEQ_CST), nw;
          do {
            float f;
            std::memcpy(&f, &old, 4);
            f += add;
            std::memcpy(&nw, &f, 4);
          } while (!__atomic_compare_exchange_n(reinterpret_cast<uint32_t *>(d), &old, nw, false,
                                                __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
          break;
        }
        case PLD_COPY_ADD_F16: {
          uint16_t addb;
          std::memcpy(&addb, s, 2);
          const float add = F16ToF32(addb);
          uint16_t old = __atomic_load_n(reinterpret_cast<uint16_t *>(d), __ATOMIC_SEQ_CST), nw;
          do {
            nw = F32ToF16(F16ToF32(old) + add);
          } while (!__atomic_compare_exchange_n(reinterpret_cast<uint16_t *>(d), &old, nw, false,
                                                __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
          break;
        }
        case PLD_COPY_ADD_I32: {
          int32_t add;
          std::memcpy(&add, s, 4);
          __atomic_fetch_add(reinterpret_cast<int32_t *>(d), add, __ATOMIC_SEQ_CST);
          break;
        }
        default: RecordError("copy with an unknown accumulate kind"); return;
      }
    }
  }
}

// Asynchronous copies: kept at the submit, moved at the wait (or at the
// second test), as late as the simulator's plain runs move them.
namespace {
struct StubDma {
  int64_t handle;
  int rank;
  void *dst;
  int64_t dst_strides[2];
  const void *src;
  int64_t src_strides[2];
  int64_t rows, cols;
  int32_t elem_bytes;
  int tests;
};
std::mutex g_dma_mu;
std::vector<StubDma> g_dmas;
int64_t g_next_dma = 0;
}  // namespace

int64_t pld_sim_dma_submit(void *dst, int64_t dst_row_stride, int64_t dst_col_stride, const void *src,
                           int64_t src_row_stride, int64_t src_col_stride, int64_t rows, int64_t cols,
                           int64_t dst_elems, int32_t elem_bytes, int32_t engine, int32_t direction, int64_t peer) {
  (void)direction;
  if (dst_elems < rows * cols) {
    RecordError("an asynchronous copy into a destination shorter than its source");
    return 0;
  }
  if (engine == PLD_DMA_URMA && (g_world == nullptr || peer < 0 || peer >= static_cast<int32_t>(g_world->ranks.size()))) {
    RecordError("a URMA copy on the queue of a peer that is not a rank");
    return 0;
  }
  std::lock_guard<std::mutex> lock(g_dma_mu);
  const int64_t handle = ++g_next_dma;
  g_dmas.push_back(StubDma{handle, tl.rank ? tl.rank->id : -1, dst, {dst_row_stride, dst_col_stride}, src,
                           {src_row_stride, src_col_stride}, rows, cols, elem_bytes, 0});
  return handle;
}

namespace {
// Removes the outstanding copy `event` of the calling rank into *out.
bool TakeDma(int64_t event, StubDma *out, bool test) {
  std::lock_guard<std::mutex> lock(g_dma_mu);
  for (size_t i = 0; i < g_dmas.size(); ++i) {
    if (g_dmas[i].handle != event || g_dmas[i].rank != (tl.rank ? tl.rank->id : -1)) continue;
    if (test && g_dmas[i].tests++ == 0) return false;
    *out = g_dmas[i];
    g_dmas.erase(g_dmas.begin() + static_cast<long>(i));
    return true;
  }
  return false;
}
int32_t CompleteDma(int64_t event, bool test) {
  if (event == 0) return 1;
  StubDma d{};
  if (!TakeDma(event, &d, test)) {
    if (!test) RecordError("a wait on an event that is not outstanding");
    return 0;
  }
  pld_sim_copy(d.dst, d.dst_strides[0], d.dst_strides[1], d.src, d.src_strides[0], d.src_strides[1], d.rows,
               d.cols, d.elem_bytes, PLD_COPY_ASSIGN);
  return 1;
}
}  // namespace

int32_t pld_sim_dma_wait(int64_t event, int32_t engine) {
  (void)engine;
  return CompleteDma(event, false);
}
int32_t pld_sim_dma_test(int64_t event, int32_t engine) {
  (void)engine;
  return CompleteDma(event, true);
}

void pld_sim_fill_pad(void *data, int64_t rows, int64_t cols, int64_t valid_rows, int64_t valid_cols,
                      int32_t elem_bytes) {
  auto *p = static_cast<uint8_t *>(data);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      if (r >= valid_rows || c >= valid_cols) std::memset(p + (r * cols + c) * elem_bytes, 0, static_cast<size_t>(elem_bytes));
}

void *pld_sim_rank_handle(void) { return tl.rank; }

void pld_sim_block_enter(void *rank, int32_t block_idx, int32_t block_num) {
  if (tl.rank != nullptr) std::fprintf(stderr, "pld_sim_block_enter on a bound thread\n");
  tl.rank = static_cast<SimRank *>(rank);
  tl.block_idx = block_idx;
  tl.block_num = block_num;
}

void pld_sim_block_exit(void) {
  for (void *p : tl.tiles) std::free(p);
  tl = Binding();
}

/* The stub runs every launch's blocks on threads of their own. */
int32_t pld_sim_launch_blocks(int32_t, void (*)(void *, int32_t), void *) { return 0; }

void pld_sim_fatal(int32_t code, const char *message) {
  if (tl.rank == nullptr) {
    std::fprintf(stderr, "fatal outside a rank: code=%d %s\n", code, message);
    return;
  }
  std::lock_guard<std::mutex> lock(tl.rank->mu);
  tl.rank->fatals.emplace_back(code, message ? message : "");
}

void pld_sim_log(const char *line) {
  if (tl.rank == nullptr) {
    std::fprintf(stderr, "log outside a rank: %s\n", line);
    return;
  }
  std::lock_guard<std::mutex> lock(tl.rank->mu);
  tl.rank->logs.emplace_back(line ? line : "");
}

}  // extern "C"
