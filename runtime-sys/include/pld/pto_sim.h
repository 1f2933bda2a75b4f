/*
 * pld's own C++17 implementation of the pto-isa subset the builtin kernels
 * (builtins/templates/<builtin>/kernel.cpp.in) use, for the simulator.
 *
 * Names, namespaces, template parameters and signatures follow the real
 * pto-isa API (pto-interface.md section 3) for what the kernels use, down
 * to its const-ness and its qualified cache constants; forms no kernel
 * uses may be laxer, so the real check is
 * runtime-sys/tests/cpp/check_builtins.py --pto-isa. The kernels include
 * it through the shims under include/pto-sim/pto/ at the real header paths
 * (<pto/pto-inst.hpp>, <pto/comm/comm_types.hpp>,
 * <pto/comm/pto_comm_inst.hpp>).
 *
 * Everything is built on the simulator's device functions (pld_sim.h):
 *   - GM <-> UB and GM -> GM traffic goes through pld_sim_copy (which checks
 *     window bounds and counts remote bytes); TSTORE / TPUT with
 *     AtomicType::AtomicAdd use its element-atomic accumulate kinds.
 *   - TNOTIFY is pld_sim_notify; TWAIT / TTEST are pld_sim_wait /
 *     pld_sim_test over every element of the signal view.
 *   - TPUT_ASYNC / TGET_ASYNC (SDMA, URMA) submit with pld_sim_dma_submit;
 *     AsyncEvent::Wait / Test are pld_sim_dma_wait / pld_sim_dma_test: the
 *     copy lands between the submit and the first successful Wait / Test.
 *   - pipe_barrier, set_flag / wait_flag, dcci are no-ops apart from checks
 *     (every wait_flag must match an earlier set_flag of the same pipes and
 *     event on the same core); dsb is pld_sim_fence.
 *   - Tiles keep their elements in the tile object (modelling the UB bytes
 *     at their TASSIGN offset); TASSIGN checks alignment, the UB capacity
 *     and overlap with the core's other live tiles. TLOAD pads outside the
 *     valid region with the tile's pad value; TSTORE writes the valid
 *     region only; TADD / TMAX / TMIN / TMUL iterate over the dst valid
 *     region (float, half, int8_t, int32_t and the other arithmetic types).
 * A violated constraint is reported with pld_sim_fatal and the instruction
 * does nothing.
 */
#ifndef PLD_PTO_SIM_H
#define PLD_PTO_SIM_H

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <thread>
#include <type_traits>
#include <chrono>
#include <cmath>

#include "pld_sim.h" /* this directory */

/* ---- Qualifiers and attributes the device compiler knows ------------------ */

#define __global__
#define __aicore__
#define __gm__
#define __ubuf__
#define __in__
#define __out__
#define AICORE
#define PTO_INLINE inline
#define PTO_INST inline
#define PTO_INTERNAL inline

/* FP16 element type, as pto-isa's CPU mode spells it. */
typedef _Float16 half;

/* ---- Pipes, events, flags, cache maintenance ----------------------------- */

typedef int pipe_t;
constexpr pipe_t PIPE_S = 0;
constexpr pipe_t PIPE_V = 1;
constexpr pipe_t PIPE_M = 2;
constexpr pipe_t PIPE_MTE1 = 3;
constexpr pipe_t PIPE_MTE2 = 4;
constexpr pipe_t PIPE_MTE3 = 5;
constexpr pipe_t PIPE_ALL = 6;
constexpr pipe_t PIPE_MTE4 = 7;
constexpr pipe_t PIPE_MTE5 = 8;
constexpr pipe_t PIPE_V2 = 9;
constexpr pipe_t PIPE_FIX = 10;

typedef int event_t;
constexpr event_t EVENT_ID0 = 0;
constexpr event_t EVENT_ID1 = 1;
constexpr event_t EVENT_ID2 = 2;
constexpr event_t EVENT_ID3 = 3;
constexpr event_t EVENT_ID4 = 4;
constexpr event_t EVENT_ID5 = 5;
constexpr event_t EVENT_ID6 = 6;
constexpr event_t EVENT_ID7 = 7;

/* dcci's arguments as pto-isa's cpu_stub.hpp spells them, qualified (on
 * the device they are CCE enumerators, which the same qualified names
 * reach); no bare SINGLE_CACHE_LINE, which the real CPU headers lack. */
struct cache_line_t {
  static constexpr int SINGLE_CACHE_LINE = 0;
  static constexpr int ENTIRE_DATA_CACHE = 1;
};
struct dcci_dst_t {
  static constexpr int CACHELINE_OUT = 0;
};
typedef int mem_dsb_t;
constexpr mem_dsb_t DSB_DDR = 0;

namespace pld_pto_sim {

/* Reports a broken constraint of the calling core. */
inline void Fail(const char *what) { pld_sim_fatal(PLD_FATAL_INVALID_ARGS, what); }

constexpr int kPipes = 11;
constexpr int kEvents = 8;

/* Outstanding set_flag count per (src pipe, dst pipe, event) of this core. */
struct FlagState {
  int pending[kPipes][kPipes][kEvents] = {};
};

/* UB ranges of the live tiles of this core. */
struct UbRange {
  const void *tile;
  uint64_t begin;
  uint64_t end;
};
struct UbMap {
  static constexpr int kMax = 64;
  UbRange ranges[kMax];
  int count = 0;
};

/* What the instructions remember per simulated core. A core is a thread
 * (a block of a launch), or a fiber of the simulator's explore mode, which
 * runs every core on one thread: the state is reached through a pointer
 * of the calling thread that the simulator swaps with the fiber
 * (pld_builtin_core_swap), made on first use and freed with its thread
 * (or by pld_builtin_core_free). */
struct CoreState {
  FlagState flags;
  UbMap ub;
};
struct CoreHolder {
  CoreState *state = nullptr;
  CoreHolder() = default;
  CoreHolder(const CoreHolder &) = delete;
  CoreHolder &operator=(const CoreHolder &) = delete;
  ~CoreHolder() { delete state; }
};
inline CoreHolder &Holder() {
  static thread_local CoreHolder h;
  return h;
}
inline CoreState &Core() {
  CoreHolder &h = Holder();
  if (h.state == nullptr) h.state = new CoreState();
  return *h.state;
}
inline FlagState &Flags() { return Core().flags; }

}  // namespace pld_pto_sim

inline void pipe_barrier(pipe_t pipe) {
  if (pipe < 0 || pipe >= pld_pto_sim::kPipes) pld_pto_sim::Fail("pipe_barrier on an unknown pipe");
}

inline void set_flag(pipe_t src, pipe_t dst, event_t ev) {
  if (src < 0 || src >= pld_pto_sim::kPipes || dst < 0 || dst >= pld_pto_sim::kPipes || ev < 0 ||
      ev >= pld_pto_sim::kEvents) {
    pld_pto_sim::Fail("set_flag with an unknown pipe or event");
    return;
  }
  ++pld_pto_sim::Flags().pending[src][dst][ev];
}

inline void wait_flag(pipe_t src, pipe_t dst, event_t ev) {
  if (src < 0 || src >= pld_pto_sim::kPipes || dst < 0 || dst >= pld_pto_sim::kPipes || ev < 0 ||
      ev >= pld_pto_sim::kEvents) {
    pld_pto_sim::Fail("wait_flag with an unknown pipe or event");
    return;
  }
  int &n = pld_pto_sim::Flags().pending[src][dst][ev];
  if (n <= 0) {
    /* On the device this wait would never be satisfied. */
    pld_pto_sim::Fail("wait_flag without a matching earlier set_flag (the core would hang)");
    return;
  }
  --n;
}

/* Scalar D-cache clean+invalidate: the simulator has no scalar cache. */
inline void dcci(const volatile void *addr, int mode) {
  (void)addr;
  (void)mode;
}
inline void dcci(const volatile void *addr, int mode, int dst) {
  (void)addr;
  (void)mode;
  (void)dst;
}

/* GM visibility barrier. */
inline void dsb(mem_dsb_t kind) {
  (void)kind;
  pld_sim_fence();
}

namespace pto {

constexpr int DYNAMIC = -1;

enum class TileType { Vec, Mat, Left, Right, Acc, Bias, Scaling, ScaleLeft, ScaleRight, Ctrl };
enum class BLayout { RowMajor = 0, ColMajor = 1 };
enum class SLayout { NoneBox = 0, RowMajor = 1, ColMajor = 2 };
enum class PadValue : uint64_t { Null = 0, Zero = 1, Max = 2, Min = 3, CustomBase = 0x100000000ULL };
enum class CompactMode { Null, Normal, RowPlusOne, RowAlignedPadding };
enum class Layout { ND, DN, NZ, SCALE, MX_A_ND, MX_A_DN, MX_A_ZZ, MX_B_ND, MX_B_DN, MX_B_NN };
enum class AtomicType : uint8_t { AtomicNone = 0, AtomicAdd = 1 };

namespace GlobalTensorDim {
constexpr int DIM_0 = 0;
constexpr int DIM_1 = 1;
constexpr int DIM_2 = 2;
constexpr int DIM_3 = 3;
constexpr int DIM_4 = 4;
constexpr int TOTAL_DIM = 5;
}  // namespace GlobalTensorDim

namespace TileConfig {
constexpr int alignedSize = 32;
constexpr int fixedRowSize = 16;
constexpr int fixedColSize = 16;
constexpr int fractalABSize = 512;
constexpr int fractalCSize = 1024;
constexpr int fractalMxSize = 32;
}  // namespace TileConfig

/* UB capacity of one AIV core (A2/A3) and the alignment of tile addresses. */
constexpr uint64_t kSimUbBytes = 192 * 1024;
constexpr uint64_t kSimUbAlign = 32;

/* What instructions return; the simulator executes synchronously. */
struct RecordEvent {};

namespace detail {

/* Stores the five dims of a Shape / Stride: static ones from the template,
 * dynamic ones from the constructor (all five, or one per dynamic dim in
 * order). */
template <int64_t D0, int64_t D1, int64_t D2, int64_t D3, int64_t D4>
struct Dims5 {
  static constexpr int64_t kStatic[5] = {D0, D1, D2, D3, D4};
  static constexpr int kDynamic = (D0 == DYNAMIC) + (D1 == DYNAMIC) + (D2 == DYNAMIC) +
                                  (D3 == DYNAMIC) + (D4 == DYNAMIC);
  int64_t v[5];

  void InitDefault() {
    for (int i = 0; i < 5; ++i) v[i] = kStatic[i] == DYNAMIC ? 1 : kStatic[i];
  }
  template <typename... Ints>
  void Init(Ints... ns) {
    static_assert(sizeof...(Ints) == 5 || static_cast<int>(sizeof...(Ints)) == kDynamic,
                  "give all five dims or one value per dynamic dim");
    const int64_t vals[] = {static_cast<int64_t>(ns)...};
    InitDefault();
    if constexpr (sizeof...(Ints) == 5) {
      for (int i = 0; i < 5; ++i)
        if (kStatic[i] == DYNAMIC) v[i] = vals[i];
    } else {
      int k = 0;
      for (int i = 0; i < 5; ++i)
        if (kStatic[i] == DYNAMIC) v[i] = vals[k++];
    }
  }
};

}  // namespace detail

template <int64_t N1 = DYNAMIC, int64_t N2 = DYNAMIC, int64_t N3 = DYNAMIC, int64_t N4 = DYNAMIC,
          int64_t N5 = DYNAMIC>
struct Shape {
  static constexpr int64_t staticShape[5] = {N1, N2, N3, N4, N5};
  Shape() { d_.InitDefault(); }
  template <typename... Ints, typename = std::enable_if_t<(sizeof...(Ints) >= 1) &&
                                                          (std::is_integral_v<Ints> && ...)>>
  Shape(Ints... ns) {  // NOLINT(runtime/explicit): the real API converts too
    d_.Init(ns...);
  }
  int64_t operator[](int i) const { return d_.v[i]; }

 private:
  detail::Dims5<N1, N2, N3, N4, N5> d_;
};

template <int64_t SN1 = DYNAMIC, int64_t SN2 = DYNAMIC, int64_t SN3 = DYNAMIC, int64_t SN4 = DYNAMIC,
          int64_t SN5 = DYNAMIC>
struct Stride {
  static constexpr int64_t staticStride[5] = {SN1, SN2, SN3, SN4, SN5};
  Stride() { d_.InitDefault(); }
  template <typename... Ints, typename = std::enable_if_t<(sizeof...(Ints) >= 1) &&
                                                          (std::is_integral_v<Ints> && ...)>>
  Stride(Ints... ns) {  // NOLINT(runtime/explicit)
    d_.Init(ns...);
  }
  int64_t operator[](int i) const { return d_.v[i]; }

 private:
  detail::Dims5<SN1, SN2, SN3, SN4, SN5> d_;
};

template <typename Element_, typename Shape_, typename Stride_, Layout Layout_ = Layout::ND>
struct GlobalTensor {
  using Shape = Shape_;
  using Stride = Stride_;
  using RawDType = std::remove_cv_t<Element_>;
  using DType = RawDType;
  static constexpr Layout layout = Layout_;

  GlobalTensor() : data_(nullptr) {}
  GlobalTensor(DType *data, const Shape &shape = Shape(), const Stride &stride = Stride())
      : data_(data), shape_(shape), stride_(stride) {}

  DType *data() { return data_; }
  const DType *data() const { return data_; }
  /* Not const, as in pto-isa (a kernel calling them on a const tensor
   * compiles here only if it compiles there); the simulator's own code
   * reads SimShape and SimStride. */
  int64_t GetShape(const int dim) { return SimShape(dim); }
  int64_t GetStride(const int dim) { return SimStride(dim); }
  int64_t SimShape(const int dim) const { return (dim >= 0 && dim < 5) ? shape_[dim] : -1; }
  int64_t SimStride(const int dim) const { return (dim >= 0 && dim < 5) ? stride_[dim] : -1; }
  template <int dim>
  static constexpr int64_t GetShape() {
    static_assert(dim >= 0 && dim < 5, "only dims 0-4");
    static_assert(Shape::staticShape[dim] != DYNAMIC, "dim is dynamic");
    return Shape::staticShape[dim];
  }
  int64_t Numel() const {
    int64_t n = 1;
    for (int i = 0; i < 5; ++i) n *= shape_[i];
    return n;
  }

 private:
  DType *data_;
  Shape shape_;
  Stride stride_;
};

namespace detail {

using pld_pto_sim::UbMap;
using pld_pto_sim::UbRange;
inline UbMap &Ub() { return pld_pto_sim::Core().ub; }
inline void UbRelease(const void *tile) {
  UbMap &m = Ub();
  for (int i = 0; i < m.count; ++i) {
    if (m.ranges[i].tile == tile) {
      m.ranges[i] = m.ranges[--m.count];
      return;
    }
  }
}
inline bool UbClaim(const void *tile, uint64_t addr, uint64_t bytes) {
  UbRelease(tile);
  if (addr % kSimUbAlign != 0) {
    pld_pto_sim::Fail("TASSIGN: a UB address that is not 32-byte aligned");
    return false;
  }
  if (addr + bytes > kSimUbBytes) {
    pld_pto_sim::Fail("TASSIGN: the tile does not fit in the core's 192 KiB UB");
    return false;
  }
  UbMap &m = Ub();
  for (int i = 0; i < m.count; ++i) {
    if (addr < m.ranges[i].end && m.ranges[i].begin < addr + bytes) {
      pld_pto_sim::Fail("TASSIGN: the tile overlaps another live tile in UB");
      return false;
    }
  }
  if (m.count == UbMap::kMax) {
    pld_pto_sim::Fail("TASSIGN: too many live tiles");
    return false;
  }
  m.ranges[m.count++] = UbRange{tile, addr, addr + bytes};
  return true;
}

template <typename T>
constexpr int32_t AccumulateKind() {
  if constexpr (std::is_same_v<T, float>) return PLD_COPY_ADD_F32;
  else if constexpr (std::is_same_v<T, half>) return PLD_COPY_ADD_F16;
  else if constexpr (std::is_same_v<T, int32_t>) return PLD_COPY_ADD_I32;
  else return -1;
}

}  // namespace detail

template <TileType Loc_, typename Element_, const int Rows_, const int Cols_,
          const BLayout BFractal_ = BLayout::RowMajor, const int RowValid_ = Rows_,
          const int ColValid_ = Cols_, const SLayout SFractal_ = SLayout::NoneBox,
          const int SFractalSize_ = TileConfig::fractalABSize, auto PadVal_ = PadValue::Null,
          const CompactMode Compact_ = CompactMode::Null>
struct Tile {
 public:
  using DType = Element_;
  static constexpr TileType Loc = Loc_;
  static constexpr int Rows = Rows_;
  static constexpr int Cols = Cols_;
  static constexpr int RowStride = BFractal_ == BLayout::RowMajor ? Cols : 1;
  static constexpr int ColStride = BFractal_ == BLayout::RowMajor ? 1 : Rows;
  static constexpr int ValidRow = RowValid_;
  static constexpr int ValidCol = ColValid_;
  static constexpr BLayout BFractal = BFractal_;
  static constexpr SLayout SFractal = SFractal_;
  static constexpr int Numel = Rows * Cols;
  static constexpr bool isRowMajor = BFractal_ == BLayout::RowMajor;
  static constexpr int SFractalSize = SFractalSize_;
  static constexpr auto PadVal = PadVal_;
  static constexpr CompactMode Compact = Compact_;

  static_assert(Rows > 0 && Cols > 0, "Invalid Tile Layout.");
  static_assert((ValidRow == DYNAMIC || (ValidRow > 0 && ValidRow <= Rows)) &&
                    (ValidCol == DYNAMIC || (ValidCol > 0 && ValidCol <= Cols)),
                "Invalid Tile Layout.");
  static_assert(SFractal_ != SLayout::NoneBox ||
                    (BFractal_ == BLayout::RowMajor && Cols * sizeof(DType) % TileConfig::alignedSize == 0) ||
                    (BFractal_ == BLayout::ColMajor && Rows * sizeof(DType) % TileConfig::alignedSize == 0),
                "RowMajor tiles need 32-byte rows, ColMajor tiles 32-byte columns.");
  static_assert(SFractal_ == SLayout::NoneBox, "pld's simulator models non-boxed tiles only");

  using TileDType = DType *;

  Tile() : valid_row_(ValidRow == DYNAMIC ? Rows : ValidRow), valid_col_(ValidCol == DYNAMIC ? Cols : ValidCol) {}

  template <int RowMask = ValidRow, int ColMask = ValidCol>
  Tile(std::enable_if_t<RowMask == DYNAMIC && ColMask == DYNAMIC, unsigned> vr,
       std::enable_if_t<RowMask == DYNAMIC && ColMask == DYNAMIC, unsigned> vc)
      : valid_row_(Rows), valid_col_(Cols) {
    SetValidShape(vr, vc);
  }
  template <int RowMask = ValidRow, int ColMask = ValidCol>
  explicit Tile(std::enable_if_t<(RowMask == DYNAMIC) && (ColMask > 0), unsigned> vr)
      : valid_row_(Rows), valid_col_(ColMask) {
    SetValidRow(vr);
  }
  template <int RowMask = ValidRow, int ColMask = ValidCol>
  explicit Tile(std::enable_if_t<(RowMask > 0) && (ColMask == DYNAMIC), unsigned> vc)
      : valid_row_(RowMask), valid_col_(Cols) {
    SetValidCol(vc);
  }

  Tile(const Tile &other) : valid_row_(other.valid_row_), valid_col_(other.valid_col_) {
    for (int i = 0; i < Numel; ++i) buf_[i] = other.buf_[i];
  }
  Tile &operator=(const Tile &other) {
    valid_row_ = other.valid_row_;
    valid_col_ = other.valid_col_;
    for (int i = 0; i < Numel; ++i) buf_[i] = other.buf_[i];
    return *this;
  }
  ~Tile() {
    if (assigned_) detail::UbRelease(this);
  }

  DType *data() { return buf_; }
  const DType *data() const { return buf_; }

  unsigned GetValidRow() const { return valid_row_; }
  unsigned GetValidCol() const { return valid_col_; }

  void SetValidRow(unsigned r) {
    static_assert(ValidRow == DYNAMIC, "Only Dynamic Valid Row Support Set Value.");
    if (r > static_cast<unsigned>(Rows)) {
      pld_pto_sim::Fail("SetValidRow beyond the tile's rows");
      return;
    }
    valid_row_ = r;
  }
  void SetValidCol(unsigned c) {
    static_assert(ValidCol == DYNAMIC, "Only Dynamic Valid Col Support Set Value.");
    if (c > static_cast<unsigned>(Cols)) {
      pld_pto_sim::Fail("SetValidCol beyond the tile's cols");
      return;
    }
    valid_col_ = c;
  }
  void SetValidShape(unsigned r, unsigned c) {
    static_assert(ValidRow == DYNAMIC && ValidCol == DYNAMIC,
                  "Only Dynamic Valid Shape Support Set Value.");
    if (r > static_cast<unsigned>(Rows) || c > static_cast<unsigned>(Cols)) {
      pld_pto_sim::Fail("SetValidShape beyond the tile's shape");
      return;
    }
    valid_row_ = r;
    valid_col_ = c;
  }

  /* Simulator bookkeeping (not part of the pto-isa API). */
  bool SimAssigned() const { return assigned_; }
  void SimAssign(uint64_t addr) {
    assigned_ = detail::UbClaim(this, addr, static_cast<uint64_t>(Numel) * sizeof(DType));
  }
  /* Element (r, c) in the tile's storage order. */
  DType &SimAt(int64_t r, int64_t c) { return buf_[r * RowStride + c * ColStride]; }

 private:
  alignas(64) DType buf_[Numel] = {};
  unsigned valid_row_;
  unsigned valid_col_;
  bool assigned_ = false;
};

template <typename T, typename AddrType>
inline void TASSIGN(T &obj, AddrType addr) {
  static_assert(std::is_integral_v<AddrType>, "TASSIGN takes a UB byte address");
  if (addr < 0) {
    pld_pto_sim::Fail("TASSIGN: a negative UB address");
    return;
  }
  obj.SimAssign(static_cast<uint64_t>(addr));
}

namespace detail {

template <typename TileData>
inline bool CheckTileUsable(TileData &tile, const char *op) {
  if (!tile.SimAssigned()) {
    char msg[128];
    std::snprintf(msg, sizeof msg, "%s on a tile that has no UB address (TASSIGN it first)", op);
    pld_pto_sim::Fail(msg);
    return false;
  }
  return true;
}

/* Rows of a 5-D GM view as seen by a 2-D tile: dims 0..3 are rows, dim 4 is
 * the column dim. */
template <typename GlobalData>
inline int64_t GmRows(const GlobalData &g) {
  return g.SimShape(0) * g.SimShape(1) * g.SimShape(2) * g.SimShape(3);
}

/* Calls f(ptr_of_row_block_start, rows_in_block, row_stride) for each run
 * of rows along dim 3 (dims 0..2 are walked explicitly). */
template <typename GlobalData, typename F>
inline void ForEachRowRun(GlobalData &g, F &&f) {
  int64_t row = 0;
  for (int64_t i0 = 0; i0 < g.SimShape(0); ++i0)
    for (int64_t i1 = 0; i1 < g.SimShape(1); ++i1)
      for (int64_t i2 = 0; i2 < g.SimShape(2); ++i2) {
        auto *p = g.data() + i0 * g.SimStride(0) + i1 * g.SimStride(1) + i2 * g.SimStride(2);
        f(p, row, g.SimShape(3), g.SimStride(3));
        row += g.SimShape(3);
      }
}

template <typename T>
inline T PadFill(PadValue pad) {
  if (pad == PadValue::Max) {
    if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, half>) return static_cast<T>(INFINITY);
    else return std::numeric_limits<T>::max();
  }
  if (pad == PadValue::Min) {
    if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, half>) return static_cast<T>(-INFINITY);
    else return std::numeric_limits<T>::lowest();
  }
  return static_cast<T>(0);
}

template <typename TileData, typename GlobalData>
inline bool CheckViewMatchesTile(TileData &tile, GlobalData &g, const char *op) {
  if (GmRows(g) != static_cast<int64_t>(tile.GetValidRow()) ||
      g.SimShape(4) != static_cast<int64_t>(tile.GetValidCol())) {
    char msg[192];
    std::snprintf(msg, sizeof msg,
                  "%s: the GM view (%lld rows x %lld cols) does not match the tile's valid region "
                  "(%u x %u)",
                  op, static_cast<long long>(GmRows(g)), static_cast<long long>(g.SimShape(4)),
                  tile.GetValidRow(), tile.GetValidCol());
    pld_pto_sim::Fail(msg);
    return false;
  }
  return true;
}

}  // namespace detail

/* GM -> UB: fills the whole tile with its pad value, then copies the valid
 * region from the view (whose shape must equal the valid region). */
template <typename TileData, typename GlobalData, typename... WaitEvents>
inline RecordEvent TLOAD(TileData &dst, GlobalData &src, WaitEvents &...events) {
  ((void)events, ...);
  using T = typename TileData::DType;
  static_assert(sizeof(typename GlobalData::DType) == sizeof(T), "TLOAD: element widths differ");
  if (!detail::CheckTileUsable(dst, "TLOAD") || !detail::CheckViewMatchesTile(dst, src, "TLOAD"))
    return {};
  const T pad = detail::PadFill<T>(static_cast<PadValue>(TileData::PadVal));
  for (int i = 0; i < TileData::Numel; ++i) dst.data()[i] = pad;
  detail::ForEachRowRun(src, [&](auto *p, int64_t row0, int64_t rows, int64_t row_stride) {
    pld_sim_copy(&dst.SimAt(row0, 0), TileData::RowStride, TileData::ColStride, p, row_stride,
                 src.SimStride(4), rows, src.SimShape(4), static_cast<int32_t>(sizeof(T)), PLD_COPY_ASSIGN);
  });
  return {};
}

/* UB -> GM: the valid region only; with AtomicAdd, element-atomic adds. */
template <typename TileData, typename GlobalData, AtomicType atomicType = AtomicType::AtomicNone,
          typename... WaitEvents>
inline RecordEvent TSTORE(GlobalData &dst, TileData &src, WaitEvents &...events) {
  ((void)events, ...);
  using T = typename TileData::DType;
  static_assert(sizeof(typename GlobalData::DType) == sizeof(T), "TSTORE: element widths differ");
  int32_t kind = PLD_COPY_ASSIGN;
  if constexpr (atomicType == AtomicType::AtomicAdd) {
    kind = detail::AccumulateKind<T>();
    if (kind < 0) {
      pld_pto_sim::Fail("TSTORE AtomicAdd: element type not supported (f32, f16, i32)");
      return {};
    }
  }
  if (!detail::CheckTileUsable(src, "TSTORE") || !detail::CheckViewMatchesTile(src, dst, "TSTORE"))
    return {};
  detail::ForEachRowRun(dst, [&](auto *p, int64_t row0, int64_t rows, int64_t row_stride) {
    pld_sim_copy(p, row_stride, dst.SimStride(4), &src.SimAt(row0, 0), TileData::RowStride,
                 TileData::ColStride, rows, dst.SimShape(4), static_cast<int32_t>(sizeof(T)), kind);
  });
  return {};
}

namespace detail {

enum class BinOp { Add, Max, Min, Mul };

/* IEEE 754-2019 maximum and minimum, as arith.maximumf / minimumf (the
 * InCore rail) and the goldens: NaN when either side is NaN (a plain
 * `x > y ? x : y` lost a NaN on the left), and -0 below +0. */
template <typename F>
inline F FloatMax(F x, F y) {
  if (std::isnan(x) || std::isnan(y)) return std::isnan(x) ? x : y;
  if (x == y) return std::signbit(x) ? y : x;
  return x > y ? x : y;
}
template <typename F>
inline F FloatMin(F x, F y) {
  if (std::isnan(x) || std::isnan(y)) return std::isnan(x) ? x : y;
  if (x == y) return std::signbit(x) ? x : y;
  return x < y ? x : y;
}

template <typename T>
inline T Apply(BinOp op, T a, T b) {
  if constexpr (std::is_same_v<T, half>) {
    /* Round once to half, as the vector unit does. */
    float x = static_cast<float>(a), y = static_cast<float>(b);
    switch (op) {
      case BinOp::Add: return static_cast<half>(x + y);
      case BinOp::Max: return static_cast<half>(FloatMax(x, y));
      case BinOp::Min: return static_cast<half>(FloatMin(x, y));
      case BinOp::Mul: return static_cast<half>(x * y);
    }
    return a;
  } else if constexpr (std::is_integral_v<T>) {
    /* Integer vector ops wrap around. */
    using W = std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>;
    W x = static_cast<W>(a), y = static_cast<W>(b);
    switch (op) {
      case BinOp::Add: return static_cast<T>(static_cast<uint64_t>(x) + static_cast<uint64_t>(y));
      case BinOp::Max: return x > y ? a : b;
      case BinOp::Min: return x < y ? a : b;
      case BinOp::Mul: return static_cast<T>(static_cast<uint64_t>(x) * static_cast<uint64_t>(y));
    }
    return a;
  } else {
    switch (op) {
      case BinOp::Add: return a + b;
      case BinOp::Max: return FloatMax(a, b);
      case BinOp::Min: return FloatMin(a, b);
      case BinOp::Mul: return a * b;
    }
    return a;
  }
}

template <typename Dst, typename Src0, typename Src1>
inline void Binary(BinOp op, const char *name, Dst &dst, Src0 &src0, Src1 &src1) {
  using T = typename Dst::DType;
  static_assert(std::is_same_v<T, typename Src0::DType> && std::is_same_v<T, typename Src1::DType>,
                "binary tile ops need one element type");
  if (!CheckTileUsable(dst, name) || !CheckTileUsable(src0, name) || !CheckTileUsable(src1, name)) return;
  const int64_t rows = dst.GetValidRow(), cols = dst.GetValidCol();
  if (rows > static_cast<int64_t>(src0.GetValidRow()) || cols > static_cast<int64_t>(src0.GetValidCol()) ||
      rows > static_cast<int64_t>(src1.GetValidRow()) || cols > static_cast<int64_t>(src1.GetValidCol())) {
    char msg[128];
    std::snprintf(msg, sizeof msg, "%s: a source's valid region is smaller than dst's", name);
    pld_pto_sim::Fail(msg);
    return;
  }
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) dst.SimAt(r, c) = Apply<T>(op, src0.SimAt(r, c), src1.SimAt(r, c));
}

}  // namespace detail

template <typename TileDataDst, typename TileDataSrc0, typename TileDataSrc1, typename... WaitEvents>
inline RecordEvent TADD(TileDataDst &dst, TileDataSrc0 &src0, TileDataSrc1 &src1, WaitEvents &...events) {
  ((void)events, ...);
  detail::Binary(detail::BinOp::Add, "TADD", dst, src0, src1);
  return {};
}
template <typename TileDataDst, typename TileDataSrc0, typename TileDataSrc1, typename... WaitEvents>
inline RecordEvent TMAX(TileDataDst &dst, TileDataSrc0 &src0, TileDataSrc1 &src1, WaitEvents &...events) {
  ((void)events, ...);
  detail::Binary(detail::BinOp::Max, "TMAX", dst, src0, src1);
  return {};
}
template <typename TileDataDst, typename TileDataSrc0, typename TileDataSrc1, typename... WaitEvents>
inline RecordEvent TMIN(TileDataDst &dst, TileDataSrc0 &src0, TileDataSrc1 &src1, WaitEvents &...events) {
  ((void)events, ...);
  detail::Binary(detail::BinOp::Min, "TMIN", dst, src0, src1);
  return {};
}
template <typename TileDataDst, typename TileDataSrc0, typename TileDataSrc1, typename... WaitEvents>
inline RecordEvent TMUL(TileDataDst &dst, TileDataSrc0 &src0, TileDataSrc1 &src1, WaitEvents &...events) {
  ((void)events, ...);
  detail::Binary(detail::BinOp::Mul, "TMUL", dst, src0, src1);
  return {};
}

/* ---- pto::comm ----------------------------------------------------------- */

namespace comm {

enum class NotifyOp : uint8_t { AtomicAdd = 0, Set = 1 };
enum class WaitCmp : uint8_t { EQ = 0, NE = 1, GT = 2, GE = 3, LT = 4, LE = 5 };
enum class ReduceOp : uint8_t { Sum = 0, Max = 1, Min = 2 };
enum class DmaEngine : uint8_t { SDMA = 0, URMA = 1, RDMA = 2 };
enum class CollEngine : uint8_t { AIV = 0, CCU = 1 };

using Signal = GlobalTensor<int32_t, Shape<1, 1, 1, 1, 1>, Stride<1, 1, 1, 1, 1>, Layout::ND>;

template <typename Element_, typename Shape_, typename Stride_, Layout Layout_ = Layout::ND>
using GlobalSignal = GlobalTensor<Element_, Shape_, Stride_, Layout_>;

template <int Rows, int Cols>
struct Signal2D : public GlobalTensor<int32_t, Shape<1, 1, 1, Rows, Cols>, Stride<1, 1, 1, DYNAMIC, 1>, Layout::ND> {
 private:
  using Base = GlobalTensor<int32_t, Shape<1, 1, 1, Rows, Cols>, Stride<1, 1, 1, DYNAMIC, 1>, Layout::ND>;

 public:
  explicit Signal2D(typename Base::DType *ptr) : Base(ptr, typename Base::Shape(), typename Base::Stride(Cols)) {}
  Signal2D(typename Base::DType *ptr, int stride)
      : Base(ptr, typename Base::Shape(), typename Base::Stride(stride)) {}
};

namespace detail {

/* Calls f(cell) for every element of a (5-D, strided) signal view. */
template <typename GlobalSignalData, typename F>
inline void ForEachCell(GlobalSignalData &s, F &&f) {
  for (int64_t i0 = 0; i0 < s.SimShape(0); ++i0)
    for (int64_t i1 = 0; i1 < s.SimShape(1); ++i1)
      for (int64_t i2 = 0; i2 < s.SimShape(2); ++i2)
        for (int64_t i3 = 0; i3 < s.SimShape(3); ++i3)
          for (int64_t i4 = 0; i4 < s.SimShape(4); ++i4)
            f(s.data() + i0 * s.SimStride(0) + i1 * s.SimStride(1) + i2 * s.SimStride(2) +
              i3 * s.SimStride(3) + i4 * s.SimStride(4));
}

/* Whether the cell compares `cmp` to `v` now, on pld_sim_test (which
 * knows Eq and Ge). */
inline bool TestCell(const int32_t *cell, int32_t v, WaitCmp cmp) {
  switch (cmp) {
    case WaitCmp::EQ: return pld_sim_test(cell, v, PLD_WAIT_EQ) != 0;
    case WaitCmp::NE: return pld_sim_test(cell, v, PLD_WAIT_EQ) == 0;
    case WaitCmp::GE: return pld_sim_test(cell, v, PLD_WAIT_GE) != 0;
    case WaitCmp::LT: return pld_sim_test(cell, v, PLD_WAIT_GE) == 0;
    case WaitCmp::GT:
      return v != std::numeric_limits<int32_t>::max() && pld_sim_test(cell, v + 1, PLD_WAIT_GE) != 0;
    case WaitCmp::LE:
      return v == std::numeric_limits<int32_t>::max() || pld_sim_test(cell, v + 1, PLD_WAIT_GE) == 0;
  }
  return false;
}

/* Blocks until one cell compares `cmp` to `v`: EQ / GE / GT go through the
 * simulator's blocking wait (with its deadlock detection); NE / LT / LE
 * poll, and give up with a fatal error after ~10 s. */
inline void WaitCell(const int32_t *cell, int32_t v, WaitCmp cmp) {
  switch (cmp) {
    case WaitCmp::EQ: pld_sim_wait(cell, v, PLD_WAIT_EQ); return;
    case WaitCmp::GE: pld_sim_wait(cell, v, PLD_WAIT_GE); return;
    case WaitCmp::GT:
      if (v == std::numeric_limits<int32_t>::max()) {
        pld_pto_sim::Fail("TWAIT GT INT32_MAX can never hold");
        return;
      }
      pld_sim_wait(cell, v + 1, PLD_WAIT_GE);
      return;
    default: break;
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!TestCell(cell, v, cmp)) {
    if (std::chrono::steady_clock::now() > deadline) {
      pld_pto_sim::Fail("TWAIT (NE/LT/LE) did not hold within 10 s");
      return;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(20));
  }
}

template <typename GlobalData>
inline bool SameShape(GlobalData &a, GlobalData &b) {
  for (int i = 0; i < 5; ++i)
    if (a.SimShape(i) != b.SimShape(i)) return false;
  return true;
}

/* GM -> GM copy of a view's elements (TPUT / TGET). */
template <typename GlobalDstData, typename GlobalSrcData>
inline void CopyView(GlobalDstData &dst, GlobalSrcData &src, int32_t kind, const char *op) {
  using T = typename GlobalDstData::DType;
  static_assert(std::is_same_v<std::remove_cv_t<T>, std::remove_cv_t<typename GlobalSrcData::DType>>,
                "TPUT/TGET: dst and src element types differ");
  for (int i = 0; i < 5; ++i) {
    if (dst.SimShape(i) != src.SimShape(i)) {
      char msg[96];
      std::snprintf(msg, sizeof msg, "%s: dst and src views differ in shape", op);
      pld_pto_sim::Fail(msg);
      return;
    }
  }
  for (int64_t i0 = 0; i0 < src.SimShape(0); ++i0)
    for (int64_t i1 = 0; i1 < src.SimShape(1); ++i1)
      for (int64_t i2 = 0; i2 < src.SimShape(2); ++i2) {
        auto *d = dst.data() + i0 * dst.SimStride(0) + i1 * dst.SimStride(1) + i2 * dst.SimStride(2);
        auto *s = src.data() + i0 * src.SimStride(0) + i1 * src.SimStride(1) + i2 * src.SimStride(2);
        pld_sim_copy(d, dst.SimStride(3), dst.SimStride(4), s, src.SimStride(3), src.SimStride(4),
                     src.SimShape(3), src.SimShape(4), static_cast<int32_t>(sizeof(T)), kind);
      }
}

}  // namespace detail

/* Applies `op` with `value` to the (single) signal cell of the view. */
template <typename GlobalSignalData, typename... WaitEvents>
inline void TNOTIFY(GlobalSignalData &dstSignalData, int32_t value, NotifyOp op, WaitEvents &...events) {
  ((void)events, ...);
  static_assert(std::is_same_v<std::remove_cv_t<typename GlobalSignalData::DType>, int32_t>,
                "TNOTIFY: signals are int32_t");
  if (dstSignalData.Numel() != 1) {
    pld_pto_sim::Fail("TNOTIFY on a signal view of more than one element");
    return;
  }
  pld_sim_notify(dstSignalData.data(), value,
                 op == NotifyOp::Set ? PLD_NOTIFY_SET : PLD_NOTIFY_ATOMIC_ADD);
}

/* Blocks until every element of the signal view compares `cmp` to
 * `cmpValue`. */
template <typename GlobalSignalData, typename... WaitEvents>
inline void TWAIT(GlobalSignalData &signalData, int32_t cmpValue, WaitCmp cmp, WaitEvents &...events) {
  ((void)events, ...);
  static_assert(std::is_same_v<std::remove_cv_t<typename GlobalSignalData::DType>, int32_t>,
                "TWAIT: signals are int32_t");
  /* Wait for each cell, then confirm all at once (an EQ cell may have
   * moved on meanwhile). When the simulator has stopped a deadlocked run,
   * its waits return without the condition holding; so does this (the
   * deadlock is already reported). */
  for (int round = 0; round < 64; ++round) {
    detail::ForEachCell(signalData, [&](int32_t *cell) { detail::WaitCell(cell, cmpValue, cmp); });
    bool all = true;
    detail::ForEachCell(signalData, [&](int32_t *cell) { all = all && detail::TestCell(cell, cmpValue, cmp); });
    if (all || cmp == WaitCmp::GE || cmp == WaitCmp::GT) return;
  }
}

/* Whether every element of the signal view compares `cmp` to `cmpValue`
 * now. */
template <typename GlobalSignalData, typename... WaitEvents>
inline bool TTEST(GlobalSignalData &signalData, int32_t cmpValue, WaitCmp cmp, WaitEvents &...events) {
  ((void)events, ...);
  static_assert(std::is_same_v<std::remove_cv_t<typename GlobalSignalData::DType>, int32_t>,
                "TTEST: signals are int32_t");
  bool all = true;
  detail::ForEachCell(signalData, [&](int32_t *cell) { all = all && detail::TestCell(cell, cmpValue, cmp); });
  return all;
}

/* Remote write: dst (any rank's GM) <- src (local GM), through the staging
 * tile on the device; the simulator copies directly. With AtomicAdd the
 * destination accumulates element-atomically. */
template <AtomicType atomicType = AtomicType::AtomicNone, typename GlobalDstData, typename GlobalSrcData,
          typename TileData, typename... WaitEvents>
inline RecordEvent TPUT(GlobalDstData &dstGlobalData, GlobalSrcData &srcGlobalData, TileData &stagingTileData,
                        WaitEvents &...events) {
  ((void)events, ...);
  static_assert(sizeof(typename TileData::DType) == sizeof(typename GlobalSrcData::DType),
                "TPUT: the staging tile's element type differs from the data's");
  if (!::pto::detail::CheckTileUsable(stagingTileData, "TPUT")) return {};
  int32_t kind = PLD_COPY_ASSIGN;
  if constexpr (atomicType == AtomicType::AtomicAdd) {
    kind = ::pto::detail::AccumulateKind<std::remove_cv_t<typename GlobalDstData::DType>>();
    if (kind < 0) {
      pld_pto_sim::Fail("TPUT AtomicAdd: element type not supported (f32, f16, i32)");
      return {};
    }
  }
  detail::CopyView(dstGlobalData, srcGlobalData, kind, "TPUT");
  return {};
}

/* Ping-pong: two staging tiles of one type (the device overlaps loads and
 * stores through them); both must be usable, and the copy is the same. */
template <AtomicType atomicType = AtomicType::AtomicNone, typename GlobalDstData, typename GlobalSrcData,
          typename TileData, typename... WaitEvents>
inline RecordEvent TPUT(GlobalDstData &dstGlobalData, GlobalSrcData &srcGlobalData, TileData &pingTile,
                        TileData &pongTile, WaitEvents &...events) {
  if (!::pto::detail::CheckTileUsable(pongTile, "TPUT")) return {};
  return TPUT<atomicType>(dstGlobalData, srcGlobalData, pingTile, events...);
}

/* The run-time form, TPUT(dst, src, staging, atomicType). */
template <typename GlobalDstData, typename GlobalSrcData, typename TileData>
inline RecordEvent TPUT(GlobalDstData &dstGlobalData, GlobalSrcData &srcGlobalData, TileData &stagingTileData,
                        AtomicType atomicType) {
  if (atomicType == AtomicType::AtomicAdd)
    return TPUT<AtomicType::AtomicAdd>(dstGlobalData, srcGlobalData, stagingTileData);
  return TPUT<AtomicType::AtomicNone>(dstGlobalData, srcGlobalData, stagingTileData);
}

/* Remote read: dst (local GM) <- src (any rank's GM). */
template <typename GlobalDstData, typename GlobalSrcData, typename TileData, typename... WaitEvents>
inline RecordEvent TGET(GlobalDstData &dstGlobalData, GlobalSrcData &srcGlobalData, TileData &stagingTileData,
                        WaitEvents &...events) {
  ((void)events, ...);
  static_assert(sizeof(typename TileData::DType) == sizeof(typename GlobalSrcData::DType),
                "TGET: the staging tile's element type differs from the data's");
  if (!::pto::detail::CheckTileUsable(stagingTileData, "TGET")) return {};
  detail::CopyView(dstGlobalData, srcGlobalData, PLD_COPY_ASSIGN, "TGET");
  return {};
}

/* Ping-pong, as TPUT's. */
template <typename GlobalDstData, typename GlobalSrcData, typename TileData, typename... WaitEvents>
inline RecordEvent TGET(GlobalDstData &dstGlobalData, GlobalSrcData &srcGlobalData, TileData &pingTile,
                        TileData &pongTile, WaitEvents &...events) {
  if (!::pto::detail::CheckTileUsable(pongTile, "TGET")) return {};
  return TGET(dstGlobalData, srcGlobalData, pingTile, events...);
}

/* ---- Asynchronous DMA: TPUT_ASYNC / TGET_ASYNC (pto-interface 7) ---------
 *
 * A session is built once per kernel (BuildAsyncSession<engine>); each
 * submit returns an AsyncEvent whose Wait / Test says when the copy is
 * complete. The copy itself is the simulator's (pld_sim_dma_submit): it
 * lands somewhere between the submit and the first successful Wait / Test
 * of its event, never at a moment the kernel could rely on, so reading the
 * destination or writing the source before then shows. Both engines move
 * flat contiguous 1-D spans (the real ones assert so). A URMA copy goes on
 * the queue of its peer (PER_PEER mode): the explicit `peer` argument, or
 * the session's destRankId; the peer's window must hold the remote side.
 * The simulator models SDMA and URMA; RDMA is refused at compile time. */

namespace sdma {

/* Static transfer parameters of an SDMA session (unused by the simulator). */
struct SdmaBaseConfig {
  uint64_t block_bytes;
  uint64_t comm_block_offset;
  uint32_t queue_num;
};
using sdma_base_config_t = SdmaBaseConfig;

constexpr uint32_t kAutoChannelGroupIdx = UINT32_MAX;
constexpr uint64_t kDefaultSdmaBlockBytes = 1024 * 1024;

}  // namespace sdma

/* Engine-agnostic session, as the real API lays it out (the simulator
 * reads only engine, valid and destRankId). */
struct AsyncSession {
  DmaEngine engine{DmaEngine::SDMA};
  bool valid{false};
  __gm__ uint8_t *contextGm{nullptr};
  __ubuf__ uint8_t *tmpBufAddr{nullptr};
  uint32_t tmpBufSize{0};
  uint32_t syncId{0};
  uint32_t channelGroupIdx{sdma::kAutoChannelGroupIdx};
  uint64_t blockBytes{sdma::kDefaultSdmaBlockBytes};
  uint64_t commBlockOffset{0};
  uint32_t queueNum{1};
  uint32_t destRankId{0};
  uint32_t qpIdx{0};
};

/* What TPUT_ASYNC / TGET_ASYNC return: handle 0 means nothing to wait for. */
struct AsyncEvent {
  uint64_t handle{0};
  DmaEngine engine{DmaEngine::SDMA};

  constexpr AsyncEvent() = default;
  constexpr AsyncEvent(uint64_t h, DmaEngine e) : handle(h), engine(e) {}
  constexpr bool valid() const { return handle != 0; }

  /* Blocks until the copy is complete; false on an engine error (here: a
   * session of another engine, or an event that is not outstanding). */
  inline bool Wait(const AsyncSession &session) const;
  /* Whether the copy is complete now; true once means done, as a Wait. */
  inline bool Test(const AsyncSession &session) const;
};

namespace detail {

/* A session the event's engine can poll. */
inline bool SessionServes(const AsyncSession &session, DmaEngine engine, const char *op) {
  if (session.valid && session.engine == engine) return true;
  char msg[160];
  std::snprintf(msg, sizeof msg, "AsyncEvent::%s with a session that is not a valid session of the event's engine",
                op);
  pld_pto_sim::Fail(msg);
  return false;
}

/* The simulator's number of an engine (PLD_DMA_*). */
inline int32_t EngineCode(DmaEngine engine) { return engine == DmaEngine::URMA ? PLD_DMA_URMA : PLD_DMA_SDMA; }

}  // namespace detail

inline bool AsyncEvent::Wait(const AsyncSession &session) const {
  if (handle == 0) return true;
  if (!detail::SessionServes(session, engine, "Wait")) return false;
  return pld_sim_dma_wait(static_cast<int64_t>(handle), detail::EngineCode(engine)) != 0;
}

inline bool AsyncEvent::Test(const AsyncSession &session) const {
  if (handle == 0) return true;
  if (!detail::SessionServes(session, engine, "Test")) return false;
  return pld_sim_dma_test(static_cast<int64_t>(handle), detail::EngineCode(engine)) != 0;
}

/* SDMA session: a UB scratch tile and the engine's workspace. */
template <DmaEngine engine = DmaEngine::SDMA, typename ScratchTile>
inline bool BuildAsyncSession(ScratchTile &scratchTile, __gm__ uint8_t *workspace, AsyncSession &session,
                              uint32_t syncId = 0,
                              const sdma::SdmaBaseConfig &baseConfig = {sdma::kDefaultSdmaBlockBytes, 0, 1},
                              uint32_t channelGroupIdx = sdma::kAutoChannelGroupIdx) {
  static_assert(engine == DmaEngine::SDMA,
                "This overload is for SDMA; use the engine-specific BuildAsyncSession overload for URMA");
  session = AsyncSession{};
  session.engine = engine;
  if (!::pto::detail::CheckTileUsable(scratchTile, "BuildAsyncSession<SDMA>")) return false;
  session.contextGm = workspace;
  session.tmpBufAddr = reinterpret_cast<__ubuf__ uint8_t *>(scratchTile.data());
  session.tmpBufSize = static_cast<uint32_t>(ScratchTile::Numel * sizeof(typename ScratchTile::DType));
  session.syncId = syncId;
  session.channelGroupIdx = channelGroupIdx;
  session.blockBytes = baseConfig.block_bytes;
  session.commBlockOffset = baseConfig.comm_block_offset;
  session.queueNum = baseConfig.queue_num;
  session.valid = workspace != nullptr;
  return session.valid;
}

/* URMA session (A5, PER_PEER queues): the engine's workspace. */
template <DmaEngine engine>
inline bool BuildAsyncSession(__gm__ uint8_t *workspace, AsyncSession &session) {
  static_assert(engine == DmaEngine::URMA, "This overload is for URMA only");
  session = AsyncSession{};
  session.engine = engine;
  session.contextGm = workspace;
  session.valid = workspace != nullptr;
  return session.valid;
}

/* URMA session bound to one peer (the submits without an explicit peer go
 * to its queue). */
template <DmaEngine engine>
inline bool BuildAsyncSession(__gm__ uint8_t *workspace, uint32_t destRankId, AsyncSession &session) {
  static_assert(engine == DmaEngine::URMA, "This overload is for URMA only");
  if (!BuildAsyncSession<engine>(workspace, session)) return false;
  session.destRankId = destRankId;
  return session.valid;
}

namespace detail {

/* A view the DMA engines move: packed and a single line (the real
 * TPutAsyncIsFlatContiguous1D). */
template <typename GlobalData>
inline bool FlatContiguous1D(const GlobalData &g) {
  const bool packed = g.SimStride(4) == 1 && g.SimStride(3) == g.SimShape(4) &&
                      g.SimStride(2) == g.SimShape(3) * g.SimStride(3) &&
                      g.SimStride(1) == g.SimShape(2) * g.SimStride(2) &&
                      g.SimStride(0) == g.SimShape(1) * g.SimStride(1);
  return packed && g.SimShape(0) == 1 && g.SimShape(1) == 1 && g.SimShape(2) == 1 && g.SimShape(3) == 1;
}

/* The largest transfer of one URMA work request. */
constexpr uint64_t kUrmaMaxTransferBytes = 256ULL * 1024 * 1024;

/* Submits src -> dst (all of src's elements) on `engine`; `direction` says
 * which side is the peer's. */
template <DmaEngine engine, typename GlobalDstData, typename GlobalSrcData>
inline AsyncEvent SubmitAsync(GlobalDstData &dst, GlobalSrcData &src, const AsyncSession &session, uint32_t peer,
                              int32_t direction, const char *op) {
  static_assert(engine != DmaEngine::RDMA, "the simulator models the SDMA and URMA engines, not RDMA");
  using T = typename GlobalSrcData::RawDType;
  static_assert(std::is_same_v<T, typename GlobalDstData::RawDType>, "TPUT_ASYNC/TGET_ASYNC: src/dst element type mismatch");
  static_assert(GlobalSrcData::layout == GlobalDstData::layout, "TPUT_ASYNC/TGET_ASYNC: src/dst layout mismatch");
  char msg[192];
  if (!session.valid || session.engine != engine) {
    std::snprintf(msg, sizeof msg, "%s: the session is not a valid session of this engine (BuildAsyncSession)", op);
    pld_pto_sim::Fail(msg);
    return {};
  }
  if (!FlatContiguous1D(src) || !FlatContiguous1D(dst)) {
    std::snprintf(msg, sizeof msg, "%s: src and dst must be flat contiguous 1-D views (packed, a single line)", op);
    pld_pto_sim::Fail(msg);
    return {};
  }
  const int64_t n = src.Numel();
  if (dst.Numel() < n) {
    std::snprintf(msg, sizeof msg, "%s: dst has fewer elements than src", op);
    pld_pto_sim::Fail(msg);
    return {};
  }
  const uint64_t bytes = static_cast<uint64_t>(n) * sizeof(T);
  if (engine == DmaEngine::URMA && (bytes == 0 || bytes > kUrmaMaxTransferBytes)) {
    std::snprintf(msg, sizeof msg, "%s URMA: the transfer must be in (0, 256 MiB] bytes, not %llu", op,
                  static_cast<unsigned long long>(bytes));
    pld_pto_sim::Fail(msg);
    return {};
  }
  if (bytes == 0) return AsyncEvent(0, engine);
  const bool urma = engine == DmaEngine::URMA;
  const int64_t handle = pld_sim_dma_submit(dst.data(), n, 1, src.data(), n, 1, 1, n, dst.Numel(),
                                            static_cast<int32_t>(sizeof(T)), urma ? PLD_DMA_URMA : PLD_DMA_SDMA,
                                            direction, urma ? static_cast<int64_t>(peer) : int64_t{PLD_DMA_NO_PEER});
  return AsyncEvent(static_cast<uint64_t>(handle), engine);
}

}  // namespace detail

/* Asynchronous remote write: dst (the peer's GM) <- src (local GM). */
template <DmaEngine engine = DmaEngine::SDMA, typename GlobalDstData, typename GlobalSrcData, typename... WaitEvents>
inline AsyncEvent TPUT_ASYNC(GlobalDstData &dstGlobalData, GlobalSrcData &srcGlobalData, const AsyncSession &session,
                             WaitEvents &...events) {
  ((void)events, ...);
  return detail::SubmitAsync<engine>(dstGlobalData, srcGlobalData, session, session.destRankId, PLD_DMA_PUT,
                                     "TPUT_ASYNC");
}

/* The same on the queue of `peer` (URMA; SDMA ignores it). */
template <DmaEngine engine = DmaEngine::SDMA, typename GlobalDstData, typename GlobalSrcData, typename... WaitEvents>
inline AsyncEvent TPUT_ASYNC(GlobalDstData &dstGlobalData, GlobalSrcData &srcGlobalData, const AsyncSession &session,
                             uint32_t peer, WaitEvents &...events) {
  ((void)events, ...);
  return detail::SubmitAsync<engine>(dstGlobalData, srcGlobalData, session, peer, PLD_DMA_PUT, "TPUT_ASYNC");
}

/* Asynchronous remote read: dst (local GM) <- src (the peer's GM). */
template <DmaEngine engine = DmaEngine::SDMA, typename GlobalDstData, typename GlobalSrcData, typename... WaitEvents>
inline AsyncEvent TGET_ASYNC(GlobalDstData &dstGlobalData, GlobalSrcData &srcGlobalData, const AsyncSession &session,
                             WaitEvents &...events) {
  ((void)events, ...);
  return detail::SubmitAsync<engine>(dstGlobalData, srcGlobalData, session, session.destRankId, PLD_DMA_GET,
                                     "TGET_ASYNC");
}

/* The same on the queue of `peer` (URMA; SDMA ignores it). */
template <DmaEngine engine = DmaEngine::SDMA, typename GlobalDstData, typename GlobalSrcData, typename... WaitEvents>
inline AsyncEvent TGET_ASYNC(GlobalDstData &dstGlobalData, GlobalSrcData &srcGlobalData, const AsyncSession &session,
                             uint32_t peer, WaitEvents &...events) {
  ((void)events, ...);
  return detail::SubmitAsync<engine>(dstGlobalData, srcGlobalData, session, peer, PLD_DMA_GET, "TGET_ASYNC");
}

}  // namespace comm
}  // namespace pto

#endif /* PLD_PTO_SIM_H */
