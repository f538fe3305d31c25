//===- IRAnalysisTest.cpp - Natural loops and liveness --------------------===//
//
// LoopInfo and Liveness on small hand-drawn CFGs; the expected loops and
// live sets are worked out by hand in the comments.
//
//===----------------------------------------------------------------------===//
#include "wave/Analysis/Liveness.h"
#include "wave/Analysis/LoopInfo.h"
#include "wave/Analysis/Uniformity.h"
#include "wave/IR/MIRParser.h"
#include "wave/IR/Verifier.h"

#include <gtest/gtest.h>

using namespace llvm;
using namespace wave::mir;

namespace {

struct Parsed {
  SourceMgr SM;
  std::unique_ptr<Module> M;
  Function *F = nullptr;

  explicit Parsed(StringRef Text) {
    auto R = parseMIRString(Text, SM);
    if (!R) {
      ADD_FAILURE() << toString(R.takeError());
      return;
    }
    M = std::move(*R);
    if (Error E = verifyModule(*M))
      ADD_FAILURE() << toString(std::move(E));
    F = M->functions()[0].get();
  }
  BasicBlock *block(StringRef Name) const {
    for (const auto &BB : F->blocks())
      if (BB->name() == Name)
        return BB.get();
    return nullptr;
  }
  const Value *value(StringRef Name) const {
    for (unsigned I = 0; I < F->numArgs(); ++I)
      if (F->arg(I)->name() == Name)
        return F->arg(I);
    for (const auto &BB : F->blocks())
      for (const Instruction &I : BB->insts())
        if (I.name() == Name)
          return &I;
    return nullptr;
  }
};

// entry -> outer; outer -> inner; inner -> inner | latch; latch -> outer |
// exit. Loops: {outer, inner, latch} with header outer and preheader entry;
// {inner} with header inner and parent outer. Its only outside predecessor,
// outer, has inner as its only successor, so outer is its preheader.
const char *Nested = R"(func @f(u32 %n) -> u32 {
^entry:
  br ^outer
^outer:
  %i = phi u32 [0, ^entry], [%i.next, ^latch]
  br ^inner
^inner:
  %j = phi u32 [0, ^outer], [%j.next, ^inner]
  %j.next = add u32 %j, 1
  %more = icmp lt u32 %j.next, %n
  condbr %more, ^inner, ^latch
^latch:
  %i.next = add u32 %i, %j.next
  %again = icmp lt u32 %i.next, %n
  condbr %again, ^outer, ^exit
^exit:
  ret u32 %i.next
}
)";

TEST(IRLoops, NestedNaturalLoops) {
  Parsed P(Nested);
  ASSERT_TRUE(P.F);
  CFG G(*P.F);
  DominatorTree DT(G);
  LoopInfo LI(DT);
  ASSERT_EQ(LI.loops().size(), 2u);
  ASSERT_EQ(LI.topLevel().size(), 1u);
  Loop *Outer = LI.topLevel()[0];
  EXPECT_EQ(Outer->header(), P.block("outer"));
  EXPECT_EQ(Outer->blocks().size(), 3u);
  EXPECT_TRUE(Outer->contains(P.block("latch")));
  EXPECT_FALSE(Outer->contains(P.block("exit")));
  EXPECT_EQ(Outer->preheader(), P.block("entry"));
  ASSERT_EQ(Outer->latches().size(), 1u);
  EXPECT_EQ(Outer->latches()[0], P.block("latch"));
  ASSERT_EQ(Outer->exits().size(), 1u);
  EXPECT_EQ(Outer->exits()[0], P.block("exit"));

  ASSERT_EQ(Outer->subLoops().size(), 1u);
  Loop *Inner = Outer->subLoops()[0];
  EXPECT_EQ(Inner->header(), P.block("inner"));
  EXPECT_EQ(Inner->parent(), Outer);
  EXPECT_EQ(Inner->blocks().size(), 1u);
  EXPECT_EQ(Inner->preheader(), P.block("outer"));
  EXPECT_EQ(Inner->depth(), 2u);

  EXPECT_EQ(LI.loopFor(P.block("inner")), Inner);
  EXPECT_EQ(LI.loopFor(P.block("latch")), Outer);
  EXPECT_EQ(LI.loopFor(P.block("exit")), nullptr);
  EXPECT_EQ(LI.depth(P.block("entry")), 0u);
}

TEST(IRLoops, IrreducibleCycleIsNotALoop) {
  // a and b form a cycle entered at both a and b: neither dominates the
  // other, so there is no natural loop.
  Parsed P(R"(func @f(i1 %c) {
^entry:
  condbr %c, ^a, ^b
^a:
  condbr %c, ^b, ^exit
^b:
  br ^a
^exit:
  ret
}
)");
  ASSERT_TRUE(P.F);
  CFG G(*P.F);
  DominatorTree DT(G);
  LoopInfo LI(DT);
  EXPECT_TRUE(LI.loops().empty());
}

TEST(IRLiveness, PhiOperandsLiveOutOfTheirEdge) {
  Parsed P(Nested);
  ASSERT_TRUE(P.F);
  CFG G(*P.F);
  Liveness L(G);
  const Value *N = P.value("n"), *I = P.value("i"), *J = P.value("j");
  const Value *JNext = P.value("j.next"), *INext = P.value("i.next");
  // %n is used in every loop: live into and out of the loop blocks.
  EXPECT_TRUE(L.liveIn(P.block("inner")).contains(N));
  EXPECT_TRUE(L.liveOut(P.block("latch")).contains(N));
  EXPECT_FALSE(L.liveOut(P.block("exit")).contains(N));
  // %i lives across the inner loop; %j only inside it.
  EXPECT_TRUE(L.liveOut(P.block("inner")).contains(I));
  EXPECT_TRUE(L.liveIn(P.block("inner")).contains(J)); // phi result
  EXPECT_FALSE(L.liveOut(P.block("inner")).contains(J));
  // %j.next flows on the back edge (phi use) and into ^latch.
  EXPECT_TRUE(L.liveOut(P.block("inner")).contains(JNext));
  EXPECT_FALSE(L.liveIn(P.block("inner")).contains(JNext));
  // %i.next: live out of ^latch (back edge phi and ^exit), not into it.
  EXPECT_TRUE(L.liveOut(P.block("latch")).contains(INext));
  EXPECT_FALSE(L.liveIn(P.block("latch")).contains(INext));
  EXPECT_TRUE(L.liveIn(P.block("exit")).contains(INext));
  // Nothing is live into the entry but the arguments it needs later.
  EXPECT_EQ(L.liveIn(P.block("entry")).size(), 1u);
}

} // namespace

namespace {

struct Uniformity {
  Parsed P;
  CFG G;
  DominatorTree DT;
  DominanceFrontier DF;
  LoopInfo LI;
  UniformityInfo UI;
  explicit Uniformity(StringRef Text)
      : P(Text), G(*P.F), DT(G), DF(DT), LI(DT), UI(*P.F, DF, LI) {}
  bool divergent(StringRef Name) const {
    const Value *V = P.value(Name);
    EXPECT_NE(V, nullptr) << Name.str();
    return V && UI.isDivergent(V);
  }
};

TEST(IRUniformity, SourcesAndDataDependence) {
  Uniformity U(R"(kernel @k(ptr<device> %p, u32 %n) {
^entry:
  %tid = sreg thread_id_x
  %wg = sreg workgroup_id_x
  %size = sreg workgroup_size_x
  %base = mul u32 %wg, %size
  %i = add u32 %base, %tid
  %off = shl u32 %i, 2
  %q = ptradd ptr<device> %p, %off
  %lv = load u32, ptr<device> %q
  %uv = load u32, ptr<device> %p
  %sum = wave_reduce_add u32 %lv
  %bc = wave_broadcast u32 %lv, 0
  %sh = wave_shuffle_xor u32 %uv, 1
  %old = atomic_add device u32, ptr<device> %p, 1
  %k = add u32 %n, %sum
  ret
}
)");
  EXPECT_FALSE(U.divergent("n"));    // kernel parameter
  EXPECT_TRUE(U.divergent("tid"));   // lane-dependent special register
  EXPECT_FALSE(U.divergent("base")); // workgroup id x size
  EXPECT_TRUE(U.divergent("i"));
  EXPECT_TRUE(U.divergent("lv"));   // divergent address
  EXPECT_FALSE(U.divergent("uv"));  // uniform address
  EXPECT_FALSE(U.divergent("sum")); // reductions are uniform
  EXPECT_FALSE(U.divergent("bc"));
  EXPECT_TRUE(U.divergent("sh"));  // a shuffle reads other lanes
  EXPECT_TRUE(U.divergent("old")); // each lane gets its own old value
  EXPECT_FALSE(U.divergent("k"));
}

TEST(IRUniformity, SyncDependenceAtJoins) {
  // A divergent branch makes the join's phi divergent even though both
  // incoming values are constants; a uniform branch does not.
  Uniformity U(R"(kernel @k(u32 %n) {
^entry:
  %lane = sreg lane_id
  %c = icmp lt u32 %lane, 16
  condbr %c, ^a, ^join
^a:
  br ^join
^join:
  %p = phi u32 [1, ^a], [2, ^entry]
  %u = icmp lt u32 %n, 16
  condbr %u, ^b, ^join2
^b:
  br ^join2
^join2:
  %q = phi u32 [1, ^b], [2, ^join]
  ret
}
)");
  EXPECT_TRUE(U.divergent("p"));
  EXPECT_FALSE(U.divergent("q"));
  EXPECT_TRUE(U.UI.isDivergentBranch(U.P.block("entry")->terminator()));
  EXPECT_FALSE(U.UI.isDivergentBranch(U.P.block("join")->terminator()));
}

TEST(IRUniformity, TemporalDivergenceAtLoopExit) {
  // Lanes leave the loop at different iterations, so %i.next seen after the
  // loop differs between lanes: it is divergent (it cannot be one scalar
  // register), and so, conservatively, is the phi it feeds. A value the
  // loop computes from uniform values and does not export stays uniform.
  Uniformity U(R"(kernel @k(ptr<device> %p) {
^entry:
  %lane = sreg lane_id
  %w = sreg workgroup_id_x
  br ^loop
^loop:
  %i = phi u32 [0, ^entry], [%i.next, ^loop]
  %x = mul u32 %w, 3
  store u32 %x, ptr<device> %p
  %i.next = add u32 %i, 1
  %more = icmp lt u32 %i.next, %lane
  condbr %more, ^loop, ^exit
^exit:
  store u32 %i.next, ptr<device> %p
  ret
}
)");
  EXPECT_TRUE(U.divergent("more"));
  EXPECT_TRUE(U.divergent("i.next"));
  EXPECT_TRUE(U.divergent("i"));
  EXPECT_FALSE(U.divergent("x"));
  EXPECT_TRUE(U.UI.isDivergentBranch(U.P.block("loop")->terminator()));
}

} // namespace
