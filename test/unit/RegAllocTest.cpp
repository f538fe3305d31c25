//===- RegAllocTest.cpp - Unit tests of the LIR register allocator --------===//
//
// GoogleTest coverage of allocateRegisters (RegAlloc.h):
//   * an independent checker recomputes liveness per instruction with dense
//     sets over the structured control flow (LIR.h) and asserts that no
//     register defined at a point overlaps (pairs included) a different
//     register live after it, that every operand is assigned within K, that
//     NoR0 and precoloured parameters are respected;
//   * execution tests build kernels by hand (straight line, if/else, loops
//     with break, many predicates, register pairs), allocate them with
//     plenty of registers and with few (forcing spills, rematerialisation
//     and predicate spills), print, assemble and run them in the emulator on
//     several waves and workgroups, and compare with C++ reference values;
//   * coalescing, error messages, the interference dump and a 100k
//     instruction scaling run (time printed, not asserted).
//
//===----------------------------------------------------------------------===//
#include "wave/CodeGen/RegAlloc.h"

#include "wave/Asm/AsmParser.h"
#include "wave/Emu/Emulator.h"
#include "wave/Tool/Input.h"

#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <functional>
#include <set>

using namespace wave;
using namespace wave::codegen;

namespace {

LOperand R(unsigned V, unsigned Sub = 0) { return LOperand::reg(V, Sub); }
LOperand Imm(uint32_t V) { return LOperand::imm(V); }

/// Hand-written LIR.
struct Builder {
  LFunction F;
  explicit Builder(unsigned NumParams = 1) {
    F.Name = "k";
    F.NumParams = NumParams;
    for (unsigned P = 0; P != NumParams; ++P) {
      unsigned V = F.newVReg(RegClass::GPR, 1, "param");
      F.VRegs[V].Fixed = int16_t(P);
    }
  }
  unsigned r(unsigned Size = 1) { return F.newVReg(RegClass::GPR, Size); }
  unsigned p() { return F.newVReg(RegClass::Pred); }
  void op(Opcode O, std::initializer_list<LOperand> Ops) {
    F.Insts.push_back(LInst::make(O, Ops));
  }
  unsigned imm(uint32_t V) {
    unsigned D = r();
    op(Opcode::MovImm, {R(D), Imm(V)});
    return D;
  }
  unsigned bin(Opcode O, unsigned A, unsigned B) {
    unsigned D = r();
    op(O, {R(D), R(A), R(B)});
    return D;
  }
  unsigned sr(unsigned Index) {
    unsigned D = r();
    op(Opcode::MovSr, {R(D), LOperand::special(Index)});
    return D;
  }
  unsigned cmp(Opcode O, unsigned A, unsigned B) {
    unsigned D = p();
    op(O, {R(D), R(A), R(B)});
    return D;
  }
  void ctl(Opcode O) { op(O, {}); }
  void ctl(Opcode O, unsigned P) { op(O, {R(P)}); }
  /// Stores \p V to out[Index * Stride + K] of this thread (u32 words).
  void store(unsigned Base, unsigned K, unsigned V) {
    unsigned A = bin(Opcode::Iadd, Base, imm(4 * K));
    op(Opcode::DeviceStoreU32, {R(A), R(V)});
  }
};

//===----------------------------------------------------------------------===//
// Independent checker
//===----------------------------------------------------------------------===//

bool isCtl(const LInst &I, Opcode O) {
  return I.Pseudo == LPseudo::None && I.Op == O;
}

/// Successors of every instruction (LIR.h semantics, written separately
/// from the allocator's: a recursive matcher).
std::vector<std::vector<unsigned>> successors(const LFunction &F) {
  unsigned N = F.Insts.size();
  std::vector<std::vector<unsigned>> S(N);
  std::vector<unsigned> Open; // if/else/loop indices
  std::vector<int> ElseOf(N, -1), EndOf(N, -1), LoopOf(N, -1);
  std::vector<std::vector<unsigned>> Exits(N);
  std::vector<unsigned> LoopStack;
  for (unsigned I = 0; I != N; ++I) {
    const LInst &In = F.Insts[I];
    if (isCtl(In, Opcode::If) || isCtl(In, Opcode::Loop))
      Open.push_back(I);
    if (isCtl(In, Opcode::Loop))
      LoopStack.push_back(I);
    if (isCtl(In, Opcode::Else))
      ElseOf[Open.back()] = int(I);
    if (isCtl(In, Opcode::Endif) || isCtl(In, Opcode::Endloop)) {
      EndOf[Open.back()] = int(I);
      if (isCtl(In, Opcode::Endloop)) {
        LoopOf[I] = int(Open.back());
        LoopStack.pop_back();
      }
      Open.pop_back();
    }
    if (isCtl(In, Opcode::Break) || isCtl(In, Opcode::Continue))
      Exits[LoopStack.back()].push_back(I);
  }
  for (unsigned I = 0; I != N; ++I) {
    if (I + 1 < N && !isCtl(F.Insts[I], Opcode::Else))
      S[I].push_back(I + 1);
  }
  for (unsigned I = 0; I != N; ++I) {
    const LInst &In = F.Insts[I];
    if (isCtl(In, Opcode::If)) {
      unsigned Target =
          ElseOf[I] >= 0 ? unsigned(ElseOf[I]) + 1 : unsigned(EndOf[I]);
      S[I].push_back(Target);
      if (ElseOf[I] >= 0)
        S[ElseOf[I]].push_back(EndOf[I]);
    }
    if (isCtl(In, Opcode::Loop)) {
      unsigned E = unsigned(EndOf[I]);
      S[E].push_back(I + 1);
      for (unsigned X : Exits[I])
        S[X].push_back(isCtl(F.Insts[X], Opcode::Break) ? E + 1 : E);
    }
  }
  for (auto &L : S)
    L.erase(
        std::remove_if(L.begin(), L.end(), [&](unsigned X) { return X >= N; }),
        L.end());
  return S;
}

/// Checks an allocated function; returns a description of the first
/// problem, or "" when the assignment is valid. Liveness: dense per
/// instruction; a register counts as live only where some definition of it
/// may have happened (copies deleted by coalescing leave their destination
/// without a definition; those ranges are checked through execution).
std::string check(const LFunction &F, unsigned K) {
  unsigned N = F.Insts.size(), NV = F.VRegs.size();
  if (F.Assignment.size() != NV)
    return "assignment size";
  auto Succ = successors(F);
  std::vector<std::vector<unsigned>> Pred(N);
  for (unsigned I = 0; I != N; ++I)
    for (unsigned S : Succ[I])
      Pred[S].push_back(I);
  using Set = std::vector<bool>;
  auto IsParam = [&](unsigned V) { return F.VRegs[V].Fixed >= 0; };
  // Operand checks.
  for (unsigned I = 0; I != N; ++I) {
    const LInst &In = F.Insts[I];
    for (unsigned Idx = 0; Idx != In.Ops.size(); ++Idx) {
      const LOperand &Op = In.Ops[Idx];
      if (!Op.isReg())
        continue;
      const VRegInfo &VI = F.VRegs[Op.V];
      int A = F.Assignment[Op.V];
      unsigned Lim = VI.Class == RegClass::Pred ? 4 : K;
      if (A < 0 || unsigned(A) + VI.Size > Lim)
        return "operand %" + std::to_string(Op.V) + " assigned " +
               std::to_string(A);
      if (VI.NoR0 && A == 0)
        return "NoR0 register in r0";
      if (VI.Fixed >= 0 && A != VI.Fixed)
        return "parameter moved";
    }
  }
  // Maybe-defined (forward).
  std::vector<Set> MDOut(N, Set(NV)), MDIn(N, Set(NV));
  auto DefsOf = [&](unsigned I, bool Full) {
    std::vector<unsigned> D;
    const LInst &In = F.Insts[I];
    for (unsigned Idx = 0; Idx != In.Ops.size(); ++Idx)
      if (isDefOperand(In, Idx)) {
        const LOperand &Op = In.Ops[Idx];
        bool Partial =
            Op.Sub || operandWidth(In, Idx, F.VRegs) < F.VRegs[Op.V].Size;
        if (!Full || !Partial)
          D.push_back(Op.V);
      }
    return D;
  };
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (unsigned I = 0; I != N; ++I) {
      Set In(NV);
      if (I == 0)
        for (unsigned V = 0; V != NV; ++V)
          In[V] = IsParam(V);
      for (unsigned P : Pred[I])
        for (unsigned V = 0; V != NV; ++V)
          if (MDOut[P][V])
            In[V] = true;
      Set Out = In;
      for (unsigned D : DefsOf(I, false))
        Out[D] = true;
      if (Out != MDOut[I] || In != MDIn[I]) {
        MDOut[I] = Out;
        MDIn[I] = In;
        Changed = true;
      }
    }
  }
  // Liveness (backward).
  std::vector<Set> LiveIn(N, Set(NV)), LiveOut(N, Set(NV));
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (unsigned I = N; I-- > 0;) {
      Set Out(NV);
      for (unsigned S : Succ[I])
        for (unsigned V = 0; V != NV; ++V)
          if (LiveIn[S][V])
            Out[V] = true;
      Set In = Out;
      const LInst &Inst = F.Insts[I];
      for (unsigned D : DefsOf(I, true))
        In[D] = false;
      for (unsigned Idx = 0; Idx != Inst.Ops.size(); ++Idx) {
        const LOperand &Op = Inst.Ops[Idx];
        if (!Op.isReg())
          continue;
        bool Def = isDefOperand(Inst, Idx);
        bool Partial = Def && (Op.Sub || operandWidth(Inst, Idx, F.VRegs) <
                                             F.VRegs[Op.V].Size);
        if (!Def || (Partial && MDIn[I][Op.V]))
          In[Op.V] = true;
      }
      if (In != LiveIn[I] || Out != LiveOut[I]) {
        LiveIn[I] = In;
        LiveOut[I] = Out;
        Changed = true;
      }
    }
  }
  auto Overlap = [&](unsigned A, unsigned B) {
    const VRegInfo &X = F.VRegs[A], &Y = F.VRegs[B];
    if (X.Class != Y.Class)
      return false;
    int CA = F.Assignment[A], CB = F.Assignment[B];
    return CA < CB + Y.Size && CB < CA + X.Size;
  };
  for (unsigned I = 0; I != N; ++I) {
    const LInst &In = F.Insts[I];
    for (unsigned D : DefsOf(I, false))
      for (unsigned L = 0; L != NV; ++L) {
        if (L == D || !LiveOut[I][L] || !MDIn[I][L] || !Overlap(D, L))
          continue;
        if (In.isCopy() && In.Ops[1].V == L &&
            F.Assignment[L] == F.Assignment[D])
          continue;
        return "instruction " + std::to_string(I) + " defines %" +
               std::to_string(D) + " in the register of live %" +
               std::to_string(L);
      }
  }
  return "";
}

//===----------------------------------------------------------------------===//
// Running
//===----------------------------------------------------------------------===//

constexpr uint32_t OutBase = 0x1000;

struct RunResult {
  std::string Error;
  std::vector<uint32_t> Words;
};

RunResult runKernel(const LFunction &F, unsigned NumWords, unsigned Groups,
                    unsigned WaveWidth) {
  RunResult Res;
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  printLFunction(F, OS, false);
  std::string Diags;
  auto File = tool::assembleExecutable(Text, "ra", &Diags);
  if (!File) {
    Res.Error = llvm::toString(File.takeError()) + "\n" + Diags + "\n" + Text;
    return Res;
  }
  emu::EmuConfig C;
  C.Grid = {Groups, 1, 1};
  C.WaveWidth = WaveWidth;
  C.DeviceMemory = 1 << 20;
  C.SetRegs = {{0, OutBase}};
  auto E = emu::Emulator::create(*File, C);
  if (!E) {
    Res.Error = llvm::toString(E.takeError());
    return Res;
  }
  if (llvm::Error Err = (*E)->run()) {
    Res.Error = llvm::toString(std::move(Err)) + "\n" + Text;
    return Res;
  }
  auto Mem = (*E)->deviceMemory();
  Res.Words.resize(NumWords);
  std::memcpy(Res.Words.data(), Mem.data() + OutBase, 4 * NumWords);
  return Res;
}

/// Workgroup of 8 x 2 threads, three workgroups, waves of 4 lanes.
constexpr uint32_t WX = 8, WY = 2, TPG = WX * WY, Groups = 3;

/// Emits the global linear thread id; sets \p Lin to the in-group id.
unsigned globalId(Builder &B, unsigned &Lin) {
  unsigned Tx = B.sr(0), Ty = B.sr(1), Wg = B.sr(5);
  unsigned Wx = B.imm(WX), T = B.imm(TPG);
  Lin = B.r();
  B.op(Opcode::Imad, {R(Lin), R(Ty), R(Wx), R(Tx)});
  unsigned G = B.r();
  B.op(Opcode::Imad, {R(G), R(Wg), R(T), R(Lin)});
  return G;
}

/// out + gid * Words * 4.
unsigned outRow(Builder &B, unsigned Gid, unsigned Words) {
  unsigned Row = B.r();
  B.op(Opcode::Imad, {R(Row), R(Gid), R(B.imm(Words * 4)), R(0)});
  return Row;
}

struct Kernel {
  std::function<void(Builder &)> Build;
  unsigned Words; ///< u32 results per thread
  std::function<uint32_t(uint32_t Gid, uint32_t Lin, unsigned K)> Expect;
};

/// Builds, allocates with \p MaxRegs, checks and runs \p Kn; returns stats.
RegAllocStats allocRunCheck(const Kernel &Kn, unsigned MaxRegs,
                            unsigned WaveWidth = 4) {
  Builder B;
  B.F.WorkgroupSize = std::array<uint32_t, 3>{WX, WY, 1};
  Kn.Build(B);
  RegAllocOptions O;
  O.MaxRegisters = MaxRegs;
  auto S = allocateRegisters(B.F, O);
  if (!S) {
    ADD_FAILURE() << llvm::toString(S.takeError());
    return {};
  }
  EXPECT_EQ(check(B.F, MaxRegs), "");
  EXPECT_LE(B.F.RegistersUsed, MaxRegs);
  RunResult Res = runKernel(B.F, Kn.Words * TPG * Groups, Groups, WaveWidth);
  EXPECT_EQ(Res.Error, "");
  if (!Res.Error.empty())
    return *S;
  unsigned Bad = 0;
  for (uint32_t G = 0; G != TPG * Groups; ++G)
    for (unsigned K = 0; K != Kn.Words; ++K) {
      uint32_t Want = Kn.Expect(G, G % TPG, K);
      uint32_t Got = Res.Words[G * Kn.Words + K];
      if (Want != Got && Bad++ < 5)
        ADD_FAILURE() << "thread " << G << " word " << K << ": want " << Want
                      << " got " << Got << " (max-registers " << MaxRegs << ")";
    }
  return *S;
}

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

/// Twelve values live at once, then combined and stored.
Kernel straightLine() {
  Kernel K;
  K.Words = 12;
  K.Build = [](Builder &B) {
    unsigned Lin, G = globalId(B, Lin);
    unsigned Row = outRow(B, G, 12);
    std::vector<unsigned> V;
    for (unsigned J = 0; J != 12; ++J) {
      unsigned D = B.r();
      B.op(Opcode::Imad, {R(D), R(G), R(B.imm(J + 3)), R(B.imm(J * 7))});
      V.push_back(D);
    }
    unsigned S = V[0];
    for (unsigned J = 1; J != 12; ++J)
      S = B.bin(Opcode::Iadd, S, V[J]);
    for (unsigned J = 0; J != 12; ++J)
      B.store(Row, J, B.bin(Opcode::Xor, V[J], S));
    B.ctl(Opcode::Halt);
  };
  K.Expect = [](uint32_t G, uint32_t, unsigned J) {
    uint32_t S = 0;
    for (unsigned X = 0; X != 12; ++X)
      S += G * (X + 3) + X * 7;
    return (G * (J + 3) + J * 7) ^ S;
  };
  return K;
}

/// Ten values live across a divergent if/else that redefines them.
Kernel ifElse() {
  Kernel K;
  K.Words = 10;
  K.Build = [](Builder &B) {
    unsigned Lin, G = globalId(B, Lin);
    unsigned Row = outRow(B, G, 10);
    std::vector<unsigned> V;
    for (unsigned J = 0; J != 10; ++J)
      V.push_back(B.bin(Opcode::Imul, G, B.imm(J + 2)));
    unsigned P = B.cmp(Opcode::IcmpLt, Lin, B.imm(5));
    B.ctl(Opcode::If, P);
    for (unsigned J = 0; J != 10; ++J)
      B.op(Opcode::Iadd, {R(V[J]), R(V[J]), R(B.imm(J + 1))});
    B.ctl(Opcode::Else);
    unsigned Three = B.imm(3);
    for (unsigned J = 0; J != 10; ++J)
      B.op(Opcode::Imul, {R(V[J]), R(V[J]), R(Three)});
    B.ctl(Opcode::Endif);
    for (unsigned J = 0; J != 10; ++J)
      B.store(Row, J, V[J]);
    B.ctl(Opcode::Halt);
  };
  K.Expect = [](uint32_t G, uint32_t Lin, unsigned J) {
    uint32_t V = G * (J + 2);
    return Lin < 5 ? V + J + 1 : V * 3;
  };
  return K;
}

/// Ten accumulators over a loop with a per-thread trip count, an if/else in
/// the body and a break at the top.
Kernel loopBreak() {
  Kernel K;
  K.Words = 10;
  K.Build = [](Builder &B) {
    unsigned Lin, G = globalId(B, Lin);
    unsigned Row = outRow(B, G, 10);
    unsigned N =
        B.bin(Opcode::Iadd, B.bin(Opcode::And, Lin, B.imm(3)), B.imm(2));
    std::vector<unsigned> Acc, C;
    for (unsigned J = 0; J != 10; ++J) {
      Acc.push_back(B.imm(J));
      C.push_back(B.imm(J + 1));
    }
    unsigned I = B.imm(0), One = B.imm(1), Hundred = B.imm(100);
    B.ctl(Opcode::Loop);
    unsigned P = B.cmp(Opcode::IcmpGe, I, N);
    B.ctl(Opcode::Break, P);
    for (unsigned J = 0; J != 10; ++J)
      B.op(Opcode::Imad, {R(Acc[J]), R(I), R(C[J]), R(Acc[J])});
    unsigned Odd = B.cmp(Opcode::IcmpNe, B.bin(Opcode::And, I, One), B.imm(0));
    B.ctl(Opcode::If, Odd);
    B.op(Opcode::Iadd, {R(Acc[0]), R(Acc[0]), R(Hundred)});
    B.ctl(Opcode::Else);
    B.op(Opcode::Iadd, {R(Acc[1]), R(Acc[1]), R(One)});
    B.ctl(Opcode::Endif);
    B.op(Opcode::Iadd, {R(I), R(I), R(One)});
    B.ctl(Opcode::Endloop);
    for (unsigned J = 0; J != 10; ++J)
      B.store(Row, J, Acc[J]);
    B.ctl(Opcode::Halt);
  };
  K.Expect = [](uint32_t, uint32_t Lin, unsigned J) {
    uint32_t N = (Lin & 3) + 2, A = J;
    for (uint32_t I = 0; I != N; ++I) {
      A += I * (J + 1);
      if (J == 0 && (I & 1))
        A += 100;
      if (J == 1 && !(I & 1))
        A += 1;
    }
    return A;
  };
  return K;
}

/// Six predicates live at once (K = 4 predicate registers).
Kernel manyPredicates() {
  Kernel K;
  K.Words = 7;
  K.Build = [](Builder &B) {
    unsigned Lin, G = globalId(B, Lin);
    unsigned Row = outRow(B, G, 7);
    std::vector<unsigned> P;
    for (unsigned J = 0; J != 6; ++J)
      P.push_back(B.cmp(Opcode::IcmpLt, Lin, B.imm(2 * J + 3)));
    unsigned Zero = B.imm(0);
    for (unsigned J = 0; J != 6; ++J) {
      unsigned V = B.r();
      B.op(Opcode::Select, {R(V), R(P[J]), R(G), R(Zero)});
      B.store(Row, J, V);
    }
    unsigned X = B.imm(7);
    B.ctl(Opcode::If, P[2]);
    B.op(Opcode::MovImm, {R(X), Imm(9)});
    B.ctl(Opcode::Endif);
    B.store(Row, 6, X);
    B.ctl(Opcode::Halt);
  };
  K.Expect = [](uint32_t G, uint32_t Lin, unsigned J) -> uint32_t {
    if (J == 6)
      return Lin < 7 ? 9 : 7;
    return Lin < 2 * J + 3 ? G : 0;
  };
  return K;
}

/// Four register pairs built half by half, copied, live together and stored
/// with 64-bit stores.
Kernel pairs() {
  Kernel K;
  K.Words = 8;
  K.Build = [](Builder &B) {
    unsigned Lin, G = globalId(B, Lin);
    unsigned Row = outRow(B, G, 8);
    std::vector<unsigned> Q;
    for (unsigned J = 0; J != 4; ++J) {
      unsigned P = B.r(2);
      B.op(Opcode::Iadd, {R(P, 0), R(G), R(B.imm(J))});
      unsigned Hi = B.bin(Opcode::Imul, G, B.imm(2));
      B.op(Opcode::Iadd, {R(P, 1), R(Hi), R(B.imm(J))});
      unsigned C = B.r(2);
      B.F.Insts.push_back(LInst::copy(C, P));
      Q.push_back(C);
    }
    for (unsigned J = 0; J != 4; ++J) {
      unsigned A = B.bin(Opcode::Iadd, Row, B.imm(8 * J));
      B.op(Opcode::DeviceStoreU64, {R(A), R(Q[J])});
    }
    B.ctl(Opcode::Halt);
  };
  K.Expect = [](uint32_t G, uint32_t, unsigned W) {
    unsigned J = W / 2;
    return W % 2 ? G * 2 + J : G + J;
  };
  return K;
}

class RegAllocExec : public ::testing::TestWithParam<unsigned> {};

TEST_P(RegAllocExec, StraightLine) {
  RegAllocStats S = allocRunCheck(straightLine(), GetParam());
  if (GetParam() < 12) {
    EXPECT_GT(S.SpilledVRegs + S.Rematerialized, 0u);
  }
}

TEST_P(RegAllocExec, IfElse) {
  RegAllocStats S = allocRunCheck(ifElse(), GetParam());
  if (GetParam() < 10) {
    EXPECT_GT(S.SpillStores, 0u);
    EXPECT_GT(S.SpillReloads, 0u);
  }
}

TEST_P(RegAllocExec, LoopBreak) { allocRunCheck(loopBreak(), GetParam()); }

TEST_P(RegAllocExec, ManyPredicates) {
  RegAllocStats S = allocRunCheck(manyPredicates(), GetParam());
  EXPECT_GT(S.SpilledPreds, 0u);
  EXPECT_LE(S.PredicatesUsed, 4u);
}

TEST_P(RegAllocExec, Pairs) {
  RegAllocStats S = allocRunCheck(pairs(), GetParam());
  if (GetParam() < 8)
    EXPECT_GT(S.SpilledVRegs, 0u);
}

TEST_P(RegAllocExec, WideWaves) {
  // One wave of 16 lanes per workgroup.
  allocRunCheck(loopBreak(), GetParam(), 16);
}

INSTANTIATE_TEST_SUITE_P(MaxRegisters, RegAllocExec,
                         ::testing::Values(32u, 8u, 6u, 5u));

//===----------------------------------------------------------------------===//
// Focused tests
//===----------------------------------------------------------------------===//

TEST(RegAlloc, CopyChainCoalesces) {
  Builder B;
  B.F.WorkgroupSize = std::array<uint32_t, 3>{WX, WY, 1};
  unsigned Lin, G = globalId(B, Lin);
  unsigned Row = outRow(B, G, 1);
  unsigned A = B.bin(Opcode::Iadd, G, B.imm(5));
  unsigned Prev = A;
  for (unsigned J = 0; J != 4; ++J) {
    unsigned C = B.r();
    B.F.Insts.push_back(LInst::copy(C, Prev));
    Prev = C;
  }
  B.store(Row, 0, Prev);
  B.ctl(Opcode::Halt);
  auto S = allocateRegisters(B.F, {});
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  EXPECT_EQ(S->CoalescedCopies, 4u);
  for (const LInst &I : B.F.Insts)
    EXPECT_FALSE(I.isCopy());
  EXPECT_EQ(B.F.Assignment[A], B.F.Assignment[Prev]);
  EXPECT_EQ(check(B.F, 32), "");
  RunResult Res = runKernel(B.F, TPG * Groups, Groups, 4);
  ASSERT_EQ(Res.Error, "");
  for (uint32_t T = 0; T != TPG * Groups; ++T)
    EXPECT_EQ(Res.Words[T], T + 5);
}

TEST(RegAlloc, PredicateCopy) {
  Builder B;
  B.F.WorkgroupSize = std::array<uint32_t, 3>{WX, WY, 1};
  unsigned Lin, G = globalId(B, Lin);
  unsigned Row = outRow(B, G, 1);
  unsigned P = B.cmp(Opcode::IcmpLt, Lin, B.imm(3));
  unsigned Q = B.p();
  B.F.Insts.push_back(LInst::copy(Q, P));
  unsigned X = B.imm(1);
  // P is redefined while Q still holds the old value.
  B.op(Opcode::IcmpLt, {R(P), R(Lin), R(B.imm(100))});
  B.ctl(Opcode::If, Q);
  B.op(Opcode::MovImm, {R(X), Imm(2)});
  B.ctl(Opcode::Endif);
  unsigned Y = B.r();
  B.op(Opcode::Select, {R(Y), R(P), R(X), R(Lin)});
  B.store(Row, 0, Y);
  B.ctl(Opcode::Halt);
  auto S = allocateRegisters(B.F, {});
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  EXPECT_EQ(check(B.F, 32), "");
  RunResult Res = runKernel(B.F, TPG * Groups, Groups, 4);
  ASSERT_EQ(Res.Error, "");
  for (uint32_t T = 0; T != TPG * Groups; ++T)
    EXPECT_EQ(Res.Words[T], T % TPG < 3 ? 2u : 1u);
}

TEST(RegAlloc, ReturningAtomicAvoidsR0) {
  Builder B(0);
  B.F.WorkgroupSize = std::array<uint32_t, 3>{4, 1, 1};
  unsigned D = B.r();
  B.F.VRegs[D].NoR0 = true;
  unsigned Addr = B.imm(OutBase), One = B.imm(1);
  B.op(Opcode::AtomicAdd, {R(D), R(Addr), R(One), LOperand::scope(2)});
  unsigned A2 =
      B.bin(Opcode::Iadd, Addr,
            B.bin(Opcode::Iadd, B.bin(Opcode::Shl, D, B.imm(2)), B.imm(4)));
  B.op(Opcode::DeviceStoreU32, {R(A2), R(D)});
  B.ctl(Opcode::Halt);
  auto S = allocateRegisters(B.F, {});
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  EXPECT_NE(B.F.Assignment[D], 0);
  EXPECT_EQ(check(B.F, 32), "");
  RunResult Res = runKernel(B.F, 5, 1, 4);
  ASSERT_EQ(Res.Error, "");
  EXPECT_EQ(Res.Words[0], 4u);
  for (unsigned T = 0; T != 4; ++T)
    EXPECT_EQ(Res.Words[1 + T], T);
}

TEST(RegAlloc, ParametersKeepTheirRegisters) {
  Builder B(3);
  B.F.WorkgroupSize = std::array<uint32_t, 3>{4, 1, 1};
  unsigned S = B.bin(Opcode::Iadd, 1, 2);
  B.op(Opcode::DeviceStoreU32, {R(0), R(S)});
  B.ctl(Opcode::Halt);
  auto St = allocateRegisters(B.F, {});
  ASSERT_TRUE(bool(St)) << llvm::toString(St.takeError());
  for (unsigned P = 0; P != 3; ++P)
    EXPECT_EQ(B.F.Assignment[P], int(P));
  EXPECT_GE(B.F.RegistersUsed, 3u);
  EXPECT_EQ(check(B.F, 32), "");
  for (const LInst &I : B.F.Insts)
    EXPECT_FALSE(I.isCopy()); // the entry copies coalesced away
}

/// A call of a declaration (formats/wave-asm.md §9): its argument and
/// result slots land at r(CallBase + slot) above every other register, the
/// frame is CallBase + CallSlots, and the predicate live across the call
/// (the callee clobbers p0..p3) is not read after it unless rewritten
/// after it.
TEST(RegAlloc, CallSlotsAndPredicateClobber) {
  Builder B(2);
  B.F.Callees = {"ext"};
  B.F.CallSlots = 2;
  unsigned P = B.cmp(Opcode::IcmpLt, 0, 1);
  unsigned X = B.bin(Opcode::Iadd, 0, 1);
  unsigned A0 = B.r(), A1 = B.r(), Res = B.r();
  B.F.VRegs[A0].CallSlot = 0;
  B.F.VRegs[A1].CallSlot = 1;
  B.F.VRegs[Res].CallSlot = 0;
  B.F.Insts.push_back(LInst::copy(A0, X));
  B.op(Opcode::MovImm, {R(A1), Imm(7)});
  LInst Call = LInst::make(Opcode::Call,
                           {LOperand::label(0), R(Res), R(A0), R(A1)});
  Call.CallResults = 1;
  B.F.Insts.push_back(Call);
  unsigned Y = B.r();
  B.F.Insts.push_back(LInst::copy(Y, Res));
  unsigned Z = B.r();
  B.op(Opcode::Select, {R(Z), R(P), R(Y), R(X)});
  B.op(Opcode::DeviceStoreU32, {R(0), R(Z)});
  B.ctl(Opcode::Halt);
  auto S = allocateRegisters(B.F, {});
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  EXPECT_EQ(S->SpilledPreds, 1u);
  unsigned Base = B.F.CallBase;
  EXPECT_EQ(B.F.Assignment[A0], int(Base));
  EXPECT_EQ(B.F.Assignment[A1], int(Base + 1));
  EXPECT_EQ(B.F.Assignment[Res], int(Base));
  EXPECT_EQ(B.F.RegistersUsed, Base + 2);
  bool AfterCall = false;
  std::set<int> PredsWritten;
  for (const LInst &I : B.F.Insts) {
    if (isCtl(I, Opcode::Call)) {
      AfterCall = true;
      PredsWritten.clear();
      continue;
    }
    for (unsigned Idx = 0; Idx != I.Ops.size(); ++Idx) {
      const LOperand &Op = I.Ops[Idx];
      if (!Op.isReg())
        continue;
      int Reg = B.F.Assignment[Op.V];
      if (B.F.VRegs[Op.V].Class == RegClass::Pred) {
        if (isDefOperand(I, Idx))
          PredsWritten.insert(Reg);
        else if (AfterCall)
          EXPECT_TRUE(PredsWritten.count(Reg))
              << "p" << Reg << " read after the call without a new value";
      } else if (B.F.VRegs[Op.V].CallSlot < 0) {
        EXPECT_LT(unsigned(Reg) + Op.Sub, Base) << "%r" << Op.V;
      }
    }
  }
  EXPECT_TRUE(AfterCall);
}

TEST(RegAlloc, TooManyParameters) {
  Builder B(5);
  B.ctl(Opcode::Halt);
  RegAllocOptions O;
  O.MaxRegisters = 4;
  auto S = allocateRegisters(B.F, O);
  ASSERT_FALSE(bool(S));
  EXPECT_EQ(llvm::toString(S.takeError()),
            "function '@k' has 5 parameters but --max-registers is 4; kernel "
            "parameters arrive in r0..r4");
}

TEST(RegAlloc, SpillNeedsWorkgroupSize) {
  Builder B;
  Kernel K = ifElse();
  K.Build(B);
  RegAllocOptions O;
  O.MaxRegisters = 5;
  auto S = allocateRegisters(B.F, O);
  ASSERT_FALSE(bool(S));
  std::string Msg = llvm::toString(S.takeError());
  EXPECT_NE(Msg.find("function '@k' needs "), std::string::npos) << Msg;
  EXPECT_NE(Msg.find("spill slots but has no workgroup_size attribute; spill "
                     "slots are per thread"),
            std::string::npos)
      << Msg;
}

TEST(RegAlloc, TooFewRegistersForOneInstruction) {
  Builder B;
  B.F.WorkgroupSize = std::array<uint32_t, 3>{4, 1, 1};
  unsigned A = B.sr(0), Bv = B.sr(1), C = B.sr(2);
  unsigned D = B.r();
  B.op(Opcode::Imad, {R(D), R(A), R(Bv), R(C)});
  B.op(Opcode::DeviceStoreU32, {R(0), R(D)});
  B.op(Opcode::DeviceStoreU32, {R(A), R(C)});
  B.ctl(Opcode::Halt);
  RegAllocOptions O;
  O.MaxRegisters = 2;
  auto S = allocateRegisters(B.F, O);
  ASSERT_FALSE(bool(S));
  std::string Msg = llvm::toString(S.takeError());
  EXPECT_NE(
      Msg.find("function '@k' cannot be allocated with --max-registers 2"),
      std::string::npos)
      << Msg;
}

TEST(RegAlloc, InterferenceDump) {
  Builder B(1);
  unsigned X = B.imm(1), Y = B.imm(2);
  unsigned Z = B.bin(Opcode::Iadd, X, Y);
  unsigned P = B.cmp(Opcode::IcmpLt, Z, X);
  unsigned W = B.r();
  B.op(Opcode::Select, {R(W), R(P), R(Z), R(X)});
  B.op(Opcode::DeviceStoreU32, {R(0), R(W)});
  B.ctl(Opcode::Halt);
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  RegAllocOptions O;
  O.InterferenceOut = &OS;
  auto S = allocateRegisters(B.F, O);
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  // %r0 is the parameter, %r6 its entry copy (coalesced into it); %r1 (x)
  // is live across the definitions of y, z and the compare.
  EXPECT_EQ(Out, "%r0: -> r0\n"
                 "%r1: %r2 %r3 %r6 -> r2\n"
                 "%r2: %r1 %r6 -> r1\n"
                 "%r3: %r1 %r6 -> r1\n"
                 "%p4: -> p0\n"
                 "%r5: %r6 -> r1\n"
                 "%r6: %r1 %r2 %r3 %r5 -> r0\n");
}

/// Nested loops with continue, a break inside an if, a halt inside an if
/// and values redefined on both sides of an else: only the independent
/// checker judges the result (no execution).
TEST(RegAlloc, NestedControlFlowChecks) {
  for (unsigned Regs : {32u, 6u, 5u}) {
    Builder B;
    B.F.WorkgroupSize = std::array<uint32_t, 3>{4, 1, 1};
    std::vector<unsigned> V;
    for (unsigned J = 0; J != 8; ++J)
      V.push_back(B.bin(Opcode::Iadd, B.sr(0), B.imm(J)));
    unsigned One = B.imm(1);
    B.ctl(Opcode::Loop);
    B.ctl(Opcode::Break, B.cmp(Opcode::IcmpGt, V[0], V[7]));
    B.ctl(Opcode::Loop);
    unsigned P = B.cmp(Opcode::IcmpLt, V[1], V[2]);
    B.ctl(Opcode::If, P);
    B.ctl(Opcode::Break, B.cmp(Opcode::IcmpEq, V[3], V[4]));
    B.op(Opcode::Iadd, {R(V[5]), R(V[5]), R(One)});
    B.ctl(Opcode::Else);
    B.ctl(Opcode::Continue, B.cmp(Opcode::IcmpEq, V[5], V[6]));
    B.op(Opcode::Iadd, {R(V[6]), R(V[6]), R(V[1])});
    B.ctl(Opcode::Endif);
    B.op(Opcode::Iadd, {R(V[1]), R(V[1]), R(One)});
    B.ctl(Opcode::Endloop);
    B.ctl(Opcode::If, B.cmp(Opcode::IcmpEq, V[2], V[3]));
    B.ctl(Opcode::Halt);
    B.ctl(Opcode::Endif);
    B.op(Opcode::Iadd, {R(V[0]), R(V[0]), R(V[4])});
    B.ctl(Opcode::Endloop);
    for (unsigned J = 0; J != 8; ++J)
      B.op(Opcode::DeviceStoreU32, {R(0), R(V[J])});
    B.ctl(Opcode::Halt);
    RegAllocOptions O;
    O.MaxRegisters = Regs;
    auto S = allocateRegisters(B.F, O);
    ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
    EXPECT_EQ(check(B.F, Regs), "") << "max-registers " << Regs;
    if (Regs < 8)
      EXPECT_GT(S->SpillStores, 0u);
  }
}

/// The checker itself must notice a broken assignment.
TEST(RegAlloc, CheckerCatchesConflicts) {
  Builder B;
  B.F.WorkgroupSize = std::array<uint32_t, 3>{WX, WY, 1};
  straightLine().Build(B);
  ASSERT_TRUE(bool(allocateRegisters(B.F, {})));
  ASSERT_EQ(check(B.F, 32), "");
  // Give every register the colour of the first non-parameter one.
  LFunction Bad = B.F;
  int First = -1;
  for (unsigned V = 1; V != Bad.VRegs.size(); ++V)
    if (Bad.Assignment[V] >= 0 && Bad.VRegs[V].Class == RegClass::GPR) {
      if (First < 0)
        First = Bad.Assignment[V];
      Bad.Assignment[V] = int16_t(First);
    }
  EXPECT_NE(check(Bad, 32), "");
}

TEST(RegAlloc, UnbalancedControlFlow) {
  Builder B;
  B.ctl(Opcode::Endif);
  auto S = allocateRegisters(B.F, {});
  ASSERT_FALSE(bool(S));
  EXPECT_NE(llvm::toString(S.takeError()).find("'@k'"), std::string::npos);
}

/// A generated function of about \p Target instructions: segments of
/// straight-line code over a rolling window of live values, and loops.
LFunction bigFunction(unsigned Target, unsigned Window) {
  Builder B;
  B.F.WorkgroupSize = std::array<uint32_t, 3>{64, 1, 1};
  std::vector<unsigned> Live;
  for (unsigned J = 0; J != Window; ++J)
    Live.push_back(B.bin(Opcode::Iadd, B.sr(0), B.imm(J)));
  unsigned Step = 0;
  while (B.F.Insts.size() < Target) {
    if (Step % 200 == 199) {
      unsigned I = B.imm(0), N = B.imm(5), One = B.imm(1);
      B.ctl(Opcode::Loop);
      B.ctl(Opcode::Break, B.cmp(Opcode::IcmpGe, I, N));
      for (unsigned J = 0; J != 20; ++J) {
        unsigned &V = Live[(Step + J) % Window];
        B.op(Opcode::Iadd, {R(V), R(V), R(Live[(Step + J + 3) % Window])});
      }
      B.op(Opcode::Iadd, {R(I), R(I), R(One)});
      B.ctl(Opcode::Endloop);
    } else {
      unsigned &V = Live[Step % Window];
      V = B.bin(Opcode::Xor, V, Live[(Step + 7) % Window]);
    }
    ++Step;
  }
  for (unsigned J = 0; J != Window; ++J)
    B.op(Opcode::DeviceStoreU32, {R(0), R(Live[J])});
  B.ctl(Opcode::Halt);
  return std::move(B.F);
}

TEST(RegAlloc, Scaling) {
  for (auto [Regs, Window] : {std::pair{32u, 24u}, std::pair{16u, 24u}}) {
    LFunction F = bigFunction(100000, Window);
    size_t NumInsts = F.Insts.size(), NumVRegs = F.VRegs.size();
    RegAllocOptions O;
    O.MaxRegisters = Regs;
    auto T0 = std::chrono::steady_clock::now();
    auto S = allocateRegisters(F, O);
    auto T1 = std::chrono::steady_clock::now();
    ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
    std::printf("[ scaling  ] %zu instructions, %zu vregs, window %u, "
                "max-registers %u: %.3f s, %u rounds, %u spilled, %u "
                "rematerialized, %u registers\n",
                NumInsts, NumVRegs, Window, Regs,
                std::chrono::duration<double>(T1 - T0).count(), S->Rounds,
                S->SpilledVRegs, S->Rematerialized, S->RegistersUsed);
    EXPECT_LE(F.RegistersUsed, Regs);
  }
}

} // namespace
