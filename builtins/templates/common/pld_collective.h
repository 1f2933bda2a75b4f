// pld_collective.h: the C++ that every builtin collective kernel of pld
// shares (builtins/templates/README.md, docs/builtins.md). Shipped verbatim,
// never rendered: every package has a copy next to its kernel
// (kernels/aiv/pld_collective.h), so a kernel's #include "pld_collective.h"
// finds it in the kernel's own directory in every build (the device
// runtime's, runtime-sys's simulator library, check_builtins.py) without an
// include path of its own. Do not edit a shipped copy.
//
// What is here is what the kernels need alike: the rank limit, the tile
// geometry, argument decoding, peer addressing, the signal primitives, the
// lane barriers with their peer loops and epilogues (collectives spec 5),
// and the tile movements. A kernel template holds only what is particular
// to its collective.
//
// Everything is `inline` or a template in namespace pld: a build that links
// several kernels into one library (runtime-sys's unity files) includes
// this header once, before it wraps each kernel in a namespace of its own,
// and the include guard turns the kernels' own includes into no-ops.

#ifndef PLD_COLLECTIVE_H
#define PLD_COLLECTIVE_H

#include <stdint.h>

#include <pto/pto-inst.hpp>
#include <pto/comm/comm_types.hpp>
#include <pto/comm/pto_comm_inst.hpp>

#include "pld/comm_context.h"
#include "pld/pld_runtime.h"

// The real pto-isa headers' CPU simulation mode (__CPU_SIM) leaves out
// BuildAsyncSession: their async_event_impl.hpp needs the device. pto-isa's
// own CPU tests define the URMA form next to their kernels; so does this
// header, in that mode only and, like the device headers, only where URMA
// exists (PTO_URMA_SUPPORTED: A5). The simulator's pto_sim.h and the
// device headers have their own.
#if defined(__CPU_SIM) && !defined(PLD_PTO_SIM_H) && defined(PTO_URMA_SUPPORTED)
namespace pto {
namespace comm {
template <DmaEngine engine>
inline bool BuildAsyncSession(__gm__ uint8_t *workspace, AsyncSession &session) {
  static_assert(engine == DmaEngine::URMA, "This overload is for URMA only");
  session = AsyncSession{};
  session.engine = engine;
  session.contextGm = workspace;
  session.valid = workspace != nullptr;
  return session.valid;
}
}  // namespace comm
}  // namespace pto
#endif

// On the device each kernel is an object of its own and exports the
// runtime's entry point, kernel_entry (kernel_config.py's function_name); a
// build that links several kernels into one library gives each a name of its
// own by defining PLD_KERNEL_ENTRY (runtime-sys's simulator build does).
#ifndef PLD_KERNEL_ENTRY
#define PLD_KERNEL_ENTRY kernel_entry
#endif

namespace pld {

// ---- Limits and geometry ---------------------------------------------------

// The most ranks a builtin kernel serves: the CommContext's capacity
// (COMM_MAX_RANK_NUM, pto-interface 4.3). The reference kernels stop at 16
// (spec 11.4); nothing here is sized by the rank count, so pld serves every
// rank a context can name. A call with more is refused (Refuse below).
constexpr int32_t kMaxRanks = PLD_COMM_MAX_RANK_NUM;

// Elements of one vector tile: the unit of every copy and reduction.
constexpr int32_t kTileElems = 256;

// UB addresses of a kernel's (at most two) tiles.
constexpr uint64_t kFirstTileUb = 0x0;
constexpr uint64_t kSecondTileUb = 0x10000;

// Window buffers start at 32-byte multiples and have 32-byte padding
// (spec 10.2): loads round up to it, lanes split at it (spec 8.3).
constexpr int64_t kAlignBytes = 32;

template <typename T>
using VecTile = pto::Tile<pto::TileType::Vec, T, 1, kTileElems, pto::BLayout::RowMajor, -1, -1>;

using DynShape = pto::Shape<pto::DYNAMIC, pto::DYNAMIC, pto::DYNAMIC, pto::DYNAMIC, pto::DYNAMIC>;
using DynStride = pto::Stride<pto::DYNAMIC, pto::DYNAMIC, pto::DYNAMIC, pto::DYNAMIC, pto::DYNAMIC>;
template <typename T>
using GmSpanT = pto::GlobalTensor<T, DynShape, DynStride>;

// A contiguous 1-D view of n elements.
template <typename T>
__aicore__ inline GmSpanT<T> GmSpan(__gm__ T *p, int64_t n) {
  return GmSpanT<T>(p, DynShape(1, 1, 1, 1, n), DynStride(n, n, n, n, 1));
}

// The elements of the tile that starts at `off` of an n-element range.
__aicore__ inline int64_t TileLen(int64_t n, int64_t off) {
  return (n - off) < kTileElems ? (n - off) : kTileElems;
}

// ---- Refusals -----------------------------------------------------------------

// A kernel that cannot do its work with these arguments says so before it
// returns: never a quiet return that leaves the data as it was. On the
// device the message goes to the kernel's printf buffer and the core traps
// (pto-isa's own assertions do the same); in the simulator the call fails
// with the message as a fatal error of the rank (pld_sim.h). Pipes are
// drained first, as on every early return.
__aicore__ inline void Refuse(const char *reason) {
  pipe_barrier(PIPE_ALL);
#if defined(__CCE_AICORE__)
  cce::printf("[pld] builtin kernel refused its call: %s\n", reason);
  trap();
#elif defined(PLD_SIM_H)
  pld_sim_fatal(PLD_FATAL_INVALID_ARGS, reason);
#else
  (void)reason;
#endif
}

// ---- Arguments ---------------------------------------------------------------

// Kernel argument `i` as the tensor descriptor it points to (pto-interface 4.2).
__aicore__ inline __gm__ PldTensor *TensorArg(__gm__ int64_t *args, int32_t i) {
  return reinterpret_cast<__gm__ PldTensor *>(args[i]);
}

// Kernel argument `i` as the rank's CommContext.
__aicore__ inline __gm__ PldCommContext *ContextArg(__gm__ int64_t *args, int32_t i) {
  return reinterpret_cast<__gm__ PldCommContext *>(args[i]);
}

// The first element of a tensor argument (start_offset counts elements).
template <typename T>
__aicore__ inline __gm__ T *TensorData(__gm__ PldTensor *t) {
  return reinterpret_cast<__gm__ T *>(t->buffer.addr) + t->start_offset;
}

// The elements of one row: the product of every extent but the first.
__aicore__ inline int64_t InnerElems(__gm__ PldTensor *t) {
  int64_t n = 1;
  for (uint32_t i = 1; i < t->ndims && i < PLD_TENSOR_MAX_DIMS; ++i) n *= static_cast<int64_t>(t->shapes[i]);
  return n;
}

// A rank count the kernels serve.
__aicore__ inline bool RanksOk(int32_t nranks) { return nranks >= 1 && nranks <= kMaxRanks; }

// A block index inside the launch.
__aicore__ inline bool BlockOk(int32_t block_idx, int32_t block_num) {
  return block_num >= 1 && block_idx >= 0 && block_idx < block_num;
}

// A row count of all_to_all_v clamped to [0, max_rows] (spec 12).
__aicore__ inline int64_t ClampRows(int32_t raw, int64_t max_rows) {
  return raw < 0 ? 0 : (raw > max_rows ? max_rows : raw);
}

// ---- Peers and signals -------------------------------------------------------

// The same window offset in rank `peer`'s window (spec 9.2, byte form).
template <typename P>
__aicore__ inline __gm__ P *PeerPtr(__gm__ PldCommContext *ctx, __gm__ P *local, int32_t peer) {
  const uint64_t mine = ctx->windowsIn[ctx->rankId];
  const uint64_t offset = reinterpret_cast<uint64_t>(local) - mine;
  return reinterpret_cast<__gm__ P *>(ctx->windowsIn[peer] + offset);
}

__aicore__ inline void NotifyAdd(__gm__ int32_t *cell, int32_t value) {
  pipe_barrier(PIPE_ALL);
  pto::comm::Signal sig(cell);
  pto::comm::TNOTIFY(sig, value, pto::comm::NotifyOp::AtomicAdd);
}

__aicore__ inline void WaitGe(__gm__ int32_t *cell, int32_t expected) {
  pto::comm::Signal sig(cell);
  pto::comm::TWAIT(sig, expected, pto::comm::WaitCmp::GE);
}

// One lane of a signal, as this rank sees it (spec 5): cell (x, lane) of
// a signal INT32 [P, S] is x * S + lane and counts the barriers rank x has
// passed on that lane; a signal [P] has one lane (S = 1).
struct Lane {
  __gm__ PldCommContext *ctx;
  __gm__ int32_t *signal;  // cell (0, 0)
  int32_t me;
  int32_t nranks;
  int32_t stride;  // S
  int32_t lane;
};

// S of a signal tensor [P, S] (1 for [P]).
__aicore__ inline int32_t LaneStride(__gm__ PldTensor *signal_t) {
  return signal_t->ndims == 1 ? 1 : static_cast<int32_t>(signal_t->shapes[1]);
}

// Lane `lane` of the signal tensor `signal_t` for this rank.
__aicore__ inline Lane SignalLane(__gm__ PldCommContext *ctx, __gm__ PldTensor *signal_t, int32_t nranks,
                                  int32_t lane) {
  Lane l;
  l.ctx = ctx;
  l.signal = TensorData<int32_t>(signal_t);
  l.me = static_cast<int32_t>(ctx->rankId);
  l.nranks = nranks;
  l.stride = LaneStride(signal_t);
  l.lane = lane;
  return l;
}

// The blocks of a launch that get a lane: min(block_num, S). A block past
// them retires at once (its lane would run into the next rank's row).
__aicore__ inline int32_t ActiveLanes(int32_t block_num, int32_t stride) {
  return block_num < stride ? block_num : stride;
}

// The start every single-block kernel shares. Its arguments are `tensors`
// tensor descriptors, then nranks, then the CommContext* (spec 10.3), the
// signal being tensor `signal`. Only block 0 works; the rank count must be
// one the kernels serve and the signal have a dimension. On success `lane`
// is lane 0 of the signal; otherwise the kernel returns at once, a block
// past 0 quietly (it has no work), bad arguments refused.
__aicore__ inline bool StartSingleBlock(__gm__ int64_t *args, int32_t tensors, int32_t signal, Lane &lane) {
  if (get_block_idx(args) != 0) return false;
  const int32_t nranks = static_cast<int32_t>(args[tensors]);
  __gm__ PldTensor *signal_t = TensorArg(args, signal);
  if (!RanksOk(nranks)) {
    Refuse("nranks is not in [1, 64]");
    return false;
  }
  if (signal_t->ndims < 1) {
    Refuse("the signal has no dimension");
    return false;
  }
  lane = SignalLane(ContextArg(args, tensors + 1), signal_t, nranks, 0);
  return true;
}

// The start of a single-block kernel with a root whose tensor 0 is its
// data and tensor 1 its signal (broadcast, reduce): `data` and `numel` are
// the data's; false when StartSingleBlock is, or (refused) when the root is
// not a rank or the data is empty.
template <typename T>
__aicore__ inline bool StartRooted(__gm__ int64_t *args, int64_t root, Lane &lane, __gm__ T *&data, int64_t &numel) {
  if (!StartSingleBlock(args, 2, 1, lane)) return false;
  __gm__ PldTensor *data_t = TensorArg(args, 0);
  numel = PldTensorNumel(data_t);
  if (root < 0 || root >= lane.nranks) {
    Refuse("the root is not a rank: not in [0, nranks)");
    return false;
  }
  if (numel <= 0) {
    Refuse("the data is empty");
    return false;
  }
  data = TensorData<T>(data_t);
  return true;
}

// One barrier on the lane: +1 into every peer's cell (me, lane), then wait
// until every own cell (peer, lane) reached `expected`.
__aicore__ inline void LaneBarrier(const Lane &l, int32_t expected) {
  pipe_barrier(PIPE_ALL);
  dsb(DSB_DDR);
  for (int32_t peer = 0; peer < l.nranks; ++peer) {
    if (peer != l.me) NotifyAdd(PeerPtr(l.ctx, l.signal + l.me * l.stride + l.lane, peer), 1);
  }
  for (int32_t peer = 0; peer < l.nranks; ++peer) {
    if (peer != l.me) WaitGe(l.signal + peer * l.stride + l.lane, expected);
  }
}

// Epilogue of the lane: give back the `count` credits every peer put on it,
// so every cell reads 0 again once every rank finished the call.
__aicore__ inline void LaneEpilogue(const Lane &l, int32_t count) {
  pipe_barrier(PIPE_ALL);
  dsb(DSB_DDR);
  for (int32_t peer = 0; peer < l.nranks; ++peer) {
    if (peer != l.me) NotifyAdd(l.signal + peer * l.stride + l.lane, -count);
  }
}

// ---- Tile movements and reductions -------------------------------------------

// dst[0, n) = the tile's first n elements once pipe kAfter is done with the
// tile (event kReady); MTE2 may load into it again after event kDone.
template <pipe_t kAfter, event_t kReady, event_t kDone, typename T>
__aicore__ inline void StoreAfter(VecTile<T> &tile, __gm__ T *dst, int64_t n) {
  tile.SetValidShape(1, static_cast<unsigned>(n));
  set_flag(kAfter, PIPE_MTE3, kReady);
  wait_flag(kAfter, PIPE_MTE3, kReady);
  GmSpanT<T> to = GmSpan(dst, n);
  pto::TSTORE(to, tile);
  set_flag(PIPE_MTE3, PIPE_MTE2, kDone);
  wait_flag(PIPE_MTE3, PIPE_MTE2, kDone);
}

// dst[0, n) = src[0, n) through the tile (n <= kTileElems): TLOAD, then TSTORE.
template <typename T>
__aicore__ inline void CopyThroughTile(VecTile<T> &tile, __gm__ T *dst, __gm__ T *src, int64_t n) {
  tile.SetValidShape(1, static_cast<unsigned>(n));
  GmSpanT<T> from = GmSpan(src, n);
  pto::TLOAD(tile, from);
  StoreAfter<PIPE_MTE2, EVENT_ID0, EVENT_ID0>(tile, dst, n);
}

// Remote write of n elements in tile-sized TPUT pieces through `stage`
// (pipe barriers around each piece, as the reference's put lowering does).
template <typename T>
__aicore__ inline void PutSpan(VecTile<T> &stage, __gm__ T *dst, __gm__ T *src, int64_t n) {
  for (int64_t off = 0; off < n; off += kTileElems) {
    const int64_t piece = TileLen(n, off);
    stage.SetValidShape(1, static_cast<unsigned>(piece));
    GmSpanT<T> to = GmSpan(dst + off, piece);
    GmSpanT<T> from = GmSpan(src + off, piece);
    pipe_barrier(PIPE_ALL);
    pto::comm::TPUT(to, from, stage);
    pipe_barrier(PIPE_ALL);
  }
}

// The push collectives (allgather, all_to_all; spec 11.7) on lane 0: a
// ready barrier (every destination has entered the call), n elements
// pushed into `slot` (an address of this rank's window) of every rank's
// window, self included, rank d getting src[d * src_step, d * src_step + n),
// a done barrier (every push into this rank has landed), epilogue -2.
template <typename T>
__aicore__ inline void PushToEveryRank(const Lane &l, __gm__ T *slot, __gm__ T *src, int64_t src_step, int64_t n) {
  LaneBarrier(l, 1);
  VecTile<T> stage(1, kTileElems);
  pto::TASSIGN(stage, kFirstTileUb);
  for (int32_t dest = 0; dest < l.nranks; ++dest) {
    PutSpan(stage, PeerPtr(l.ctx, slot, dest), src + dest * src_step, n);
  }
  LaneBarrier(l, 2);
  LaneEpilogue(l, 2);
}

// The reduction of a variant (`op_cpp`: ReduceOp::kSum, ...).
enum class ReduceOp { kSum, kMax, kMin, kProd };

// acc = acc (op) other with the pto-isa instruction of kOp.
template <ReduceOp kOp>
struct Reduce {
  template <typename Tile>
  __aicore__ inline static void Apply(Tile &acc, Tile &other) {
    if constexpr (kOp == ReduceOp::kSum) {
      pto::TADD(acc, acc, other);
    } else if constexpr (kOp == ReduceOp::kMax) {
      pto::TMAX(acc, acc, other);
    } else if constexpr (kOp == ReduceOp::kMin) {
      pto::TMIN(acc, acc, other);
    } else {
      pto::TMUL(acc, acc, other);
    }
  }
};

// acc[0, n) = local[0, n) folded (Fold::Apply(acc, recv)) with the same n
// elements of the window of every rank below nranks but me, one peer at a
// time through `recv`.
template <typename Fold, typename T>
__aicore__ inline void FoldPeers(__gm__ PldCommContext *ctx, VecTile<T> &acc, VecTile<T> &recv, __gm__ T *local,
                                 int64_t n, int32_t me, int32_t nranks) {
  acc.SetValidShape(1, static_cast<unsigned>(n));
  recv.SetValidShape(1, static_cast<unsigned>(n));
  GmSpanT<T> mine = GmSpan(local, n);
  pto::TLOAD(acc, mine);
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  for (int32_t peer = 0; peer < nranks; ++peer) {
    if (peer == me) continue;
    GmSpanT<T> remote = GmSpan(PeerPtr(ctx, local, peer), n);
    pto::TLOAD(recv, remote);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID1);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID1);
    Fold::Apply(acc, recv);
    set_flag(PIPE_V, PIPE_MTE2, EVENT_ID1);
    wait_flag(PIPE_V, PIPE_MTE2, EVENT_ID1);
  }
}

// dst[0, n) = the tile's first n elements, once the vector pipe is done
// with it.
template <typename T>
__aicore__ inline void StoreTile(VecTile<T> &tile, __gm__ T *dst, int64_t n) {
  StoreAfter<PIPE_V, EVENT_ID2, EVENT_ID3>(tile, dst, n);
}

// data[0, n) := data[0, n) folded with the same n elements of every peer's
// window, one tile at a time (FoldPeers, then StoreTile). With `align` the
// loads are rounded up to 32 bytes (an FP16 tail: a comm buffer is padded
// to 32 bytes, and only the exact tile is stored).
template <typename Fold, typename T>
__aicore__ inline void FoldTiles(const Lane &l, __gm__ T *data, int64_t n, bool align) {
  constexpr int64_t kAlign = kAlignBytes / static_cast<int64_t>(sizeof(T));
  VecTile<T> acc(1, kTileElems);
  VecTile<T> recv(1, kTileElems);
  pto::TASSIGN(acc, kFirstTileUb);
  pto::TASSIGN(recv, kSecondTileUb);
  for (int64_t off = 0; off < n; off += kTileElems) {
    const int64_t len = TileLen(n, off);
    const int64_t load = align ? (len + kAlign - 1) / kAlign * kAlign : len;
    FoldPeers<Fold>(l.ctx, acc, recv, data + off, load, l.me, l.nranks);
    StoreTile(acc, data + off, len);
  }
}

}  // namespace pld

#endif  // PLD_COLLECTIVE_H
