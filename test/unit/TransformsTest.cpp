//===- TransformsTest.cpp - Private slots, mem2reg, unrolling, inlining ---===//
//
// Library-level checks of the issue-3 passes that lit tests see only
// through printed text: the verifier's private-slot rules as an Error, the
// statistics each pass reports, that the passes leave verified IR, and
// that running a pass twice changes nothing the second time.
//
//===----------------------------------------------------------------------===//
#include "wave/IR/MIRParser.h"
#include "wave/IR/Verifier.h"
#include "wave/Transforms/Pass.h"

#include <gtest/gtest.h>

using namespace llvm;
using namespace wave::mir;

namespace {

std::unique_ptr<Module> parse(SourceMgr &SM, StringRef Text) {
  auto R = parseMIRString(Text, SM);
  if (!R) {
    ADD_FAILURE() << toString(R.takeError());
    return nullptr;
  }
  return std::move(*R);
}

/// Runs pass \p Name on \p M and returns its statistics.
PassStats run(Module &M, StringRef Name) {
  PassStats Stats;
  const PassInfo *P = lookupPass(Name);
  EXPECT_NE(P, nullptr) << Name.str();
  if (P)
    P->Create()->runOnModule(M, Stats);
  if (Error E = verifyModule(M))
    ADD_FAILURE() << toString(std::move(E));
  return Stats;
}

TEST(PrivateSlots, EscapeIsAVerifierError) {
  // Parses (the type tables allow a phi of ptr<private>), but the
  // verifier rejects a slot address used by anything but a load or store.
  SourceMgr SM;
  auto R = parseMIRString(R"(func @f(i1 %c) -> u32 {
^entry:
  %x = alloca u32
  %y = alloca u32
  condbr %c, ^a, ^b
^a:
  br ^m
^b:
  br ^m
^m:
  %p = phi ptr<private> [%x, ^a], [%y, ^b]
  %v = load u32, ptr<private> %p
  ret u32 %v
}
)",
                          SM);
  ASSERT_TRUE(bool(R)) << toString(R.takeError());
  Error E = verifyModule(**R);
  ASSERT_TRUE(bool(E));
  std::string Msg = toString(std::move(E));
  EXPECT_NE(Msg.find("only 'alloca' produces a 'ptr<private>' value"),
            std::string::npos)
      << Msg;
}

TEST(Mem2Reg, PromotesAndIsIdempotent) {
  SourceMgr SM;
  auto M = parse(SM, R"(func @f(u32 %n) -> u32 {
^entry:
  %s = alloca u32
  %i = alloca u32
  br ^head
^head:
  %iv = load u32, ptr<private> %i
  %c = icmp lt u32 %iv, %n
  condbr %c, ^body, ^exit
^body:
  %sv = load u32, ptr<private> %s
  %s2 = add u32 %sv, %iv
  store u32 %s2, ptr<private> %s
  %i2 = add u32 %iv, 1
  store u32 %i2, ptr<private> %i
  br ^head
^exit:
  %r = load u32, ptr<private> %s
  ret u32 %r
}
)");
  ASSERT_TRUE(M);
  PassStats S = run(*M, "mem2reg");
  EXPECT_EQ(S.get("mem2reg", "allocas promoted"), 2u);
  EXPECT_EQ(S.get("mem2reg", "phis inserted"), 2u);
  for (const auto &BB : M->functions()[0]->blocks())
    for (const Instruction &I : BB->insts())
      EXPECT_TRUE(I.opcode() != Opcode::Alloca &&
                  I.opcode() != Opcode::Load && I.opcode() != Opcode::Store);
  EXPECT_TRUE(run(*M, "mem2reg").empty());
}

TEST(LoopUnroll, FullUnrollRemovesTheLoop) {
  SourceMgr SM;
  auto M = parse(SM, R"(func @f(u32 %x) -> u32 {
^entry:
  br ^loop
^loop:
  %i = phi u32 [0, ^entry], [%i2, ^loop]
  %s = phi u32 [%x, ^entry], [%s2, ^loop]
  %s2 = mul u32 %s, 3
  %i2 = add u32 %i, 1
  %c = icmp ne u32 %i2, 5
  condbr %c, ^loop, ^exit
^exit:
  ret u32 %s2
}
)");
  ASSERT_TRUE(M);
  PassStats S = run(*M, "loop-unroll");
  EXPECT_EQ(S.get("loop-unroll", "loops fully unrolled"), 1u);
  // Five copies of the loop block, one exit: no phi is left anywhere.
  const Function &F = *M->functions()[0];
  EXPECT_EQ(F.numBlocks(), 7u);
  for (const auto &BB : F.blocks())
    for (const Instruction &I : BB->insts())
      EXPECT_FALSE(I.isPhi());
  EXPECT_TRUE(run(*M, "loop-unroll").empty());
}

TEST(Inline, SkipsCallGraphCycles) {
  SourceMgr SM;
  auto M = parse(SM, R"(func @a(u32 %x) -> u32 {
^entry:
  %r = call u32 @b(u32 %x)
  ret u32 %r
}

func @b(u32 %x) -> u32 {
^entry:
  %z = icmp eq u32 %x, 0
  condbr %z, ^done, ^rec
^done:
  ret u32 0
^rec:
  %y = sub u32 %x, 1
  %r = call u32 @a(u32 %y)
  ret u32 %r
}

func @leaf(u32 %x) -> u32 {
^entry:
  %y = add u32 %x, 1
  ret u32 %y
}

kernel @k(u32 %n, ptr<device> %p) {
^entry:
  %a = call u32 @a(u32 %n)
  %l = call u32 @leaf(u32 %a)
  store u32 %l, ptr<device> %p
  ret
}
)");
  ASSERT_TRUE(M);
  PassStats S = run(*M, "inline");
  // Only @leaf (into @k) is inlined; @a and @b call each other.
  EXPECT_EQ(S.get("inline", "calls inlined"), 1u);
  unsigned Calls = 0;
  for (const auto &BB : M->function("k")->blocks())
    for (const Instruction &I : BB->insts())
      Calls += I.opcode() == Opcode::Call;
  EXPECT_EQ(Calls, 1u);
}

} // namespace
