// Unit checks of pld/pto_sim.h's instruction semantics (run by harness.cpp
// on one simulated rank).

#include <cmath>
#include <cstdio>
#include <cstring>

#include <pto/pto-inst.hpp>
#include <pto/comm/comm_types.hpp>
#include <pto/comm/pto_comm_inst.hpp>

#include "sim_stub.h"

namespace {

int g_fail = 0;
#define EXPECT(cond, msg)                                  \
  do {                                                     \
    if (!(cond)) {                                         \
      ++g_fail;                                            \
      std::fprintf(stderr, "FAIL [pto_sim unit] %s\n", msg); \
    }                                                      \
  } while (0)

using Vec8 = pto::Tile<pto::TileType::Vec, float, 1, 8, pto::BLayout::RowMajor, -1, -1>;
using VecMax = pto::Tile<pto::TileType::Vec, float, 2, 8, pto::BLayout::RowMajor, -1, -1, pto::SLayout::NoneBox,
                         pto::TileConfig::fractalABSize, pto::PadValue::Max>;
using Gm = pto::GlobalTensor<float, pto::Shape<1, 1, 1, pto::DYNAMIC, pto::DYNAMIC>,
                             pto::Stride<1, 1, 1, pto::DYNAMIC, 1>>;

size_t Fatals(SimRank &r) { return r.fatals.size(); }

}  // namespace

int RunPtoSimUnitTests() {
  SimWorld w;
  sim_world_create(w, 1, 4096);
  SimRank &rank = *w.ranks[0];
  sim_bind_thread(w, &rank);
  float *gm = reinterpret_cast<float *>(rank.window);
  for (int i = 0; i < 64; ++i) gm[i] = static_cast<float>(i);

  {  // TLOAD of a 2x3 strided block pads the rest of the tile with its pad value.
    VecMax t(2, 3);
    pto::TASSIGN(t, 0);
    Gm src(gm + 1, Gm::Shape(2, 3), Gm::Stride(10));
    pto::TLOAD(t, src);
    EXPECT(t.data()[0] == 1 && t.data()[2] == 3 && t.data()[8] == 11 && t.data()[10] == 13, "TLOAD values");
    EXPECT(std::isinf(t.data()[3]) && t.data()[3] > 0 && std::isinf(t.data()[15]), "TLOAD pads with +inf (PadValue::Max)");
    // TSTORE writes the valid region only.
    Gm dst(gm + 40, Gm::Shape(2, 3), Gm::Stride(4));
    pto::TSTORE(dst, t);
    EXPECT(gm[40] == 1 && gm[42] == 3 && gm[43] == 43 && gm[44] == 11 && gm[46] == 13 && gm[47] == 47,
           "TSTORE valid region only");
    // Atomic-add store accumulates.
    pto::TSTORE<VecMax, Gm, pto::AtomicType::AtomicAdd>(dst, t);
    EXPECT(gm[40] == 2 && gm[46] == 26 && gm[43] == 43, "TSTORE AtomicAdd accumulates");
  }
  {  // Binary ops iterate over dst's valid region.
    Vec8 a(1, 8), b(1, 8), d(1, 8);
    pto::TASSIGN(a, 0);
    pto::TASSIGN(b, 64);
    pto::TASSIGN(d, 128);
    for (int i = 0; i < 8; ++i) {
      a.data()[i] = static_cast<float>(i);
      b.data()[i] = 10.0f - static_cast<float>(i);
      d.data()[i] = -1;
    }
    d.SetValidShape(1, 5);
    pto::TMAX(d, a, b);
    EXPECT(d.data()[0] == 10 && d.data()[4] == 6 && d.data()[5] == -1, "TMAX over dst valid region");
    pto::TMUL(d, a, b);
    EXPECT(d.data()[3] == 21 && d.data()[5] == -1, "TMUL");
  }
  {  // UB checks: overlap and misalignment are reported.
    const size_t before = Fatals(rank);
    Vec8 a(1, 8), b(1, 8), c(1, 8);
    pto::TASSIGN(a, 0);
    pto::TASSIGN(b, 16);  // overlaps a (32 bytes at 0)
    EXPECT(Fatals(rank) == before + 1, "TASSIGN overlap reported");
    pto::TASSIGN(c, 200);  // not 32-byte aligned
    EXPECT(Fatals(rank) == before + 2, "TASSIGN misalignment reported");
    pto::TASSIGN(c, 192 * 1024);  // past the UB
    EXPECT(Fatals(rank) == before + 3, "TASSIGN past the UB reported");
  }
  {  // wait_flag needs a matching set_flag.
    const size_t before = Fatals(rank);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID3);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID3);
    EXPECT(Fatals(rank) == before, "matched flags pass");
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID3);
    EXPECT(Fatals(rank) == before + 1, "unmatched wait_flag reported");
  }
  {  // Signals: TNOTIFY, and TTEST / TWAIT over every element of a 2x2 view.
    int32_t *cells = reinterpret_cast<int32_t *>(rank.window + 1024);
    pto::comm::Signal2D<2, 2> grid(cells, 4);  // rows 4 cells apart
    pto::comm::Signal s00(cells), s01(cells + 1), s10(cells + 4), s11(cells + 5);
    pto::comm::TNOTIFY(s00, 3, pto::comm::NotifyOp::Set);
    pto::comm::TNOTIFY(s01, 2, pto::comm::NotifyOp::AtomicAdd);
    pto::comm::TNOTIFY(s10, 2, pto::comm::NotifyOp::AtomicAdd);
    EXPECT(!pto::comm::TTEST(grid, 2, pto::comm::WaitCmp::GE), "TTEST sees the unset element");
    pto::comm::TNOTIFY(s11, 5, pto::comm::NotifyOp::Set);
    EXPECT(pto::comm::TTEST(grid, 2, pto::comm::WaitCmp::GE), "TTEST GE over all elements");
    EXPECT(!pto::comm::TTEST(grid, 2, pto::comm::WaitCmp::GT), "TTEST GT");
    EXPECT(pto::comm::TTEST(grid, 6, pto::comm::WaitCmp::LT), "TTEST LT");
    EXPECT(pto::comm::TTEST(s01, 2, pto::comm::WaitCmp::EQ) && pto::comm::TTEST(s01, 3, pto::comm::WaitCmp::NE),
           "TTEST EQ / NE");
    pto::comm::TWAIT(grid, 2, pto::comm::WaitCmp::GE);  // holds: returns at once
    const size_t before = Fatals(rank);
    pto::comm::TNOTIFY(grid, 1, pto::comm::NotifyOp::Set);  // more than one element
    EXPECT(Fatals(rank) == before + 1, "TNOTIFY on a multi-element view reported");
  }
  {  // TPUT copies a view (here within the window), through a staging tile.
    Vec8 stage(1, 8);
    pto::TASSIGN(stage, 0);
    Gm from(gm, Gm::Shape(1, 5), Gm::Stride(5));
    Gm to(gm + 50, Gm::Shape(1, 5), Gm::Stride(5));
    pto::comm::TPUT(to, from, stage);
    EXPECT(gm[50] == 0 && gm[54] == 4 && gm[55] == 55, "TPUT");
    // The run-time form of the atomic: TPUT(dst, src, staging, atomicType).
    pto::comm::TPUT(to, from, stage, pto::AtomicType::AtomicAdd);
    EXPECT(gm[50] == 0 && gm[54] == 8 && gm[55] == 55, "TPUT with a run-time AtomicAdd");
    // Ping-pong: the pong tile is checked too (one with no UB address is
    // reported), and the copy is the same.
    Vec8 pong(1, 8);
    pto::TASSIGN(pong, 64);
    pto::comm::TPUT(to, from, stage, pong);
    EXPECT(gm[54] == 4, "TPUT ping-pong");
    Vec8 unplaced(1, 8);
    const size_t before = Fatals(rank);
    pto::comm::TGET(to, from, stage, unplaced);
    EXPECT(Fatals(rank) == before + 1, "TGET with an unplaced pong tile reported");
  }
  {  // TPUT_ASYNC / TGET_ASYNC: the copy lands at the event's wait, not before.
    rank.ctx.workSpace = reinterpret_cast<uint64_t>(&rank.ctx);
    auto *ws = reinterpret_cast<uint8_t *>(rank.ctx.workSpace);
    pto::comm::AsyncSession urma;
    EXPECT(pto::comm::BuildAsyncSession<pto::comm::DmaEngine::URMA>(ws, urma) && urma.valid, "URMA session");
    pto::comm::AsyncSession none;
    EXPECT(!pto::comm::BuildAsyncSession<pto::comm::DmaEngine::URMA>(nullptr, none), "no workspace, no session");
    using Span = pto::GlobalTensor<float, pto::Shape<1, 1, 1, 1, pto::DYNAMIC>,
                                   pto::Stride<pto::DYNAMIC, pto::DYNAMIC, pto::DYNAMIC, pto::DYNAMIC, 1>>;
    for (int i = 0; i < 4; ++i) gm[200 + i] = 100.0f + static_cast<float>(i);
    const Span::Stride packed(4, 4, 4, 4);
    Span from(gm + 200, Span::Shape(4), packed), to(gm + 210, Span::Shape(4), packed);
    pto::comm::AsyncEvent put = pto::comm::TPUT_ASYNC<pto::comm::DmaEngine::URMA>(to, from, urma, 0u);
    EXPECT(put.valid() && gm[210] == 0, "TPUT_ASYNC: nothing landed at the submit");
    EXPECT(!put.Test(urma), "the first Test finds the copy in flight");
    EXPECT(put.Test(urma) && gm[210] == 100 && gm[213] == 103, "the second Test completes it");
    pto::comm::AsyncEvent get = pto::comm::TGET_ASYNC<pto::comm::DmaEngine::URMA>(from, to, urma, 0u);
    gm[210] = 7;  // what the source holds when the copy lands is what arrives
    EXPECT(get.Wait(urma) && gm[200] == 7, "TGET_ASYNC lands at the Wait");
    const size_t before = Fatals(rank);
    using Strided = pto::GlobalTensor<float, pto::Shape<1, 1, 1, 2, 2>, pto::Stride<1, 1, 1, 4, 1>>;
    Strided bad(gm + 300);
    (void)pto::comm::TPUT_ASYNC<pto::comm::DmaEngine::URMA>(bad, bad, urma, 0u);
    EXPECT(Fatals(rank) == before + 1, "a strided view is refused (URMA moves flat 1-D spans)");
    Span empty(gm + 300, Span::Shape(0), Span::Stride(0, 0, 0, 0));
    (void)pto::comm::TPUT_ASYNC<pto::comm::DmaEngine::URMA>(empty, empty, urma, 0u);
    EXPECT(Fatals(rank) == before + 2, "an empty URMA transfer is refused");
    pto::comm::AsyncEvent done;
    EXPECT(done.Wait(urma) && !done.valid(), "handle 0 is complete");
    rank.ctx.workSpace = 0;
  }
  EXPECT(rank.errors.empty(), "no simulator errors");
  sim_unbind_thread();
  sim_world_destroy(w);
  return g_fail;
}
