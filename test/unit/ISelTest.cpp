//===- ISelTest.cpp - Unit tests of wave-ra instruction selection ---------===//
//
// Two kinds of tests of selectInstructions (ISel.h):
//   * shape tests: critical-edge splitting, where phi copies go, the SCFG,
//     operand orders and forms, NoR0, predicates, and located errors;
//   * execution tests: single-block kernels are selected, given registers
//     by a small linear scan written here, printed with printLFunction,
//     assembled and run on the emulator, one test vector per thread; every
//     result is compared with a C++ reference computed in this file.
//
//===----------------------------------------------------------------------===//
#include "wave/CodeGen/ISel.h"

#include "wave/Asm/AsmParser.h"
#include "wave/Emu/Emulator.h"
#include "wave/IR/MIR.h"
#include "wave/IR/MIRParser.h"
#include "wave/IR/Verifier.h"
#include "wave/Support/SourceDiagnostic.h"
#include "wave/Tool/Input.h"

#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

using namespace wave;
using namespace wave::codegen;

namespace {

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// A parsed and verified module with the source manager its locations
/// point into.
struct Parsed {
  llvm::SourceMgr SM;
  std::unique_ptr<mir::Module> M;
  mir::Function &kernel(unsigned K = 0) { return *M->functions()[K]; }
};

std::unique_ptr<Parsed> parse(llvm::StringRef Text) {
  auto P = std::make_unique<Parsed>();
  auto M = mir::parseMIRString(Text, P->SM);
  if (!M) {
    ADD_FAILURE() << "parse: " << llvm::toString(M.takeError()) << "\n"
                  << Text.str();
    return nullptr;
  }
  if (llvm::Error E = mir::verifyModule(**M)) {
    ADD_FAILURE() << "verify: " << llvm::toString(std::move(E));
    return nullptr;
  }
  P->M = std::move(*M);
  return P;
}

SelectedFunction selectOk(mir::Function &F) {
  auto SF = selectInstructions(F);
  if (!SF) {
    ADD_FAILURE() << llvm::toString(SF.takeError());
    return {};
  }
  return std::move(*SF);
}

/// The message and line:column of the first error of \p E.
std::string errorAt(llvm::Error E, const llvm::SourceMgr &SM) {
  std::string Out;
  llvm::handleAllErrors(std::move(E), [&](const SourceDiagError &D) {
    if (!Out.empty())
      return;
    if (D.loc().isValid()) {
      auto [Line, Col] = SM.getLineAndColumn(D.loc());
      Out = std::to_string(Line) + ":" + std::to_string(Col) + ": ";
    }
    Out += D.text();
  });
  return Out;
}

/// Virtual-register text of \p Insts, one per line.
std::string text(const LFunction &F, const std::vector<LInst> &Insts) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  for (const LInst &I : Insts)
    printLInst(F, I, OS, /*Virtual=*/true);
  return S;
}

unsigned countOp(const std::vector<LInst> &Insts, Opcode Op) {
  return std::count_if(Insts.begin(), Insts.end(), [&](const LInst &I) {
    return I.Pseudo == LPseudo::None && I.Op == Op;
  });
}

/// Gives registers to the single block of \p SF by linear scan over live
/// intervals (first to last mention; intervals never share a register), puts
/// Blocks[0].Body plus `halt` into F.Insts and returns the assembly.
std::string allocateAndPrint(SelectedFunction &SF) {
  LFunction &F = SF.F;
  F.Insts = SF.Blocks[0].Body;
  F.Insts.push_back(LInst::make(Opcode::Halt, {}));
  unsigned NV = F.VRegs.size();
  std::vector<int> First(NV, -1), Last(NV, -1);
  for (unsigned K = 0; K != F.Insts.size(); ++K)
    for (const LOperand &Op : F.Insts[K].Ops)
      if (Op.isReg()) {
        if (First[Op.V] < 0)
          First[Op.V] = K;
        Last[Op.V] = K;
      }
  F.Assignment.assign(NV, -1);
  std::vector<int> GPRBusyUntil(MaxGPRs, -1), PredBusyUntil(NumPredRegs, -1);
  unsigned Reserved = std::max(F.NumParams, 1u);
  for (unsigned V = 0; V != F.NumParams; ++V) {
    F.Assignment[V] = int16_t(V);
    GPRBusyUntil[V] = std::numeric_limits<int>::max();
  }
  unsigned Used = Reserved;
  // Vregs in order of their first mention.
  std::vector<unsigned> Order;
  for (unsigned V = F.NumParams; V != NV; ++V)
    if (First[V] >= 0)
      Order.push_back(V);
  std::sort(Order.begin(), Order.end(), [&](unsigned A, unsigned B) {
    return std::make_pair(First[A], A) < std::make_pair(First[B], B);
  });
  for (unsigned V : Order) {
    const VRegInfo &VI = F.VRegs[V];
    if (VI.Class == RegClass::Pred) {
      unsigned P = 0;
      while (P != NumPredRegs && PredBusyUntil[P] >= First[V])
        ++P;
      EXPECT_LT(P, NumPredRegs) << "test allocator ran out of predicates";
      P = std::min(P, NumPredRegs - 1);
      PredBusyUntil[P] = Last[V];
      F.Assignment[V] = int16_t(P);
      continue;
    }
    unsigned R = Reserved;
    while (R + VI.Size <= MaxGPRs &&
           !std::all_of(GPRBusyUntil.begin() + R,
                        GPRBusyUntil.begin() + R + VI.Size,
                        [&](int U) { return U < First[V]; }))
      ++R;
    EXPECT_LE(R + VI.Size, MaxGPRs) << "test allocator ran out of registers";
    for (unsigned K = 0; K != VI.Size; ++K)
      GPRBusyUntil[R + K] = Last[V];
    F.Assignment[V] = int16_t(R);
    Used = std::max(Used, R + VI.Size);
  }
  F.RegistersUsed = Used;
  std::string S;
  llvm::raw_string_ostream OS(S);
  printLFunction(F, OS, /*Virtual=*/false);
  return S;
}

/// An output of an execution kernel: a MIR value and its type. f16/bf16
/// are stored with store_u16 into a 4-byte slot, f64 takes 8 bytes, all
/// else 4.
struct Output {
  std::string Name;
  std::string Type;
};

unsigned slotBytes(const Output &O) { return O.Type == "f64" ? 8 : 4; }

/// A single-block kernel over Threads threads: thread t loads the u32
/// words in[t*NumIn + k] as %inK (with %ipK their addresses), runs Body and
/// stores Outs to out[t*OutBytes...].
struct ExecKernel {
  unsigned Threads = 32;
  unsigned NumIn = 1;
  std::string Body;
  std::vector<Output> Outs;
  std::string Attrs;

  unsigned outBytes() const {
    unsigned B = 0;
    for (const Output &O : Outs)
      B += slotBytes(O);
    return B;
  }

  std::string mir() const {
    std::string S;
    llvm::raw_string_ostream OS(S);
    OS << "kernel @k(ptr<device> %in, ptr<device> %out) workgroup_size("
       << Threads << ", 1, 1)" << Attrs << " {\n^entry:\n"
       << "  %t = sreg thread_id_x\n"
       << "  %ib = mul u32 %t, " << NumIn * 4 << "\n"
       << "  %ob = mul u32 %t, " << outBytes() << "\n"
       << "  %ip0 = ptradd ptr<device> %in, %ib\n";
    for (unsigned K = 1; K < NumIn; ++K)
      OS << "  %ip" << K << " = ptradd ptr<device> %ip" << K - 1 << ", 4\n";
    for (unsigned K = 0; K != NumIn; ++K)
      OS << "  %in" << K << " = load u32, ptr<device> %ip" << K << "\n";
    OS << Body;
    unsigned Off = 0;
    for (unsigned K = 0; K != Outs.size(); ++K) {
      const Output &O = Outs[K];
      OS << "  %op" << K << " = ptradd ptr<device> %out, %ob\n";
      std::string Addr = "%op" + std::to_string(K);
      if (Off) {
        OS << "  %opo" << K << " = ptradd ptr<device> %op" << K << ", " << Off
           << "\n";
        Addr = "%opo" + std::to_string(K);
      }
      bool Half = O.Type == "f16" || O.Type == "bf16";
      OS << "  " << (Half ? "store_u16 " : "store ") << O.Type << " %"
         << O.Name << ", ptr<device> " << Addr << "\n";
      Off += slotBytes(O);
    }
    OS << "  ret\n}\n";
    return S;
  }
};

/// Result of running an ExecKernel: the output words of every thread.
struct ExecResult {
  bool Ok = false;
  std::string Asm;
  std::vector<uint32_t> Words; // all threads' outputs, in order
  unsigned WordsPerThread = 0;
  uint32_t at(unsigned T, unsigned W) const {
    return Words[T * WordsPerThread + W];
  }
};

ExecResult runKernel(const ExecKernel &K, const std::vector<uint32_t> &In,
                     uint32_t WaveWidth = 32) {
  ExecResult Res;
  EXPECT_EQ(In.size(), size_t(K.Threads) * K.NumIn);
  std::string Text = K.mir();
  auto P = parse(Text);
  if (!P)
    return Res;
  auto SF = selectInstructions(P->kernel());
  if (!SF) {
    ADD_FAILURE() << "select: " << llvm::toString(SF.takeError());
    return Res;
  }
  EXPECT_EQ(SF->Blocks.size(), 1u);
  Res.Asm = allocateAndPrint(*SF);
  std::string Diags;
  auto W = tool::assembleExecutable(Res.Asm, "isel-test.s", &Diags);
  if (!W) {
    llvm::consumeError(W.takeError());
    ADD_FAILURE() << "assemble: " << Diags << "\n" << Res.Asm;
    return Res;
  }
  emu::EmuConfig C;
  C.WaveWidth = WaveWidth;
  C.Workgroup = {K.Threads, 1, 1};
  uint32_t InBytes = In.size() * 4;
  Res.WordsPerThread = K.outBytes() / 4;
  uint32_t OutBytes = K.outBytes() * K.Threads;
  C.DeviceMemory = (InBytes + OutBytes + 4095) / 4096 * 4096 + 4096;
  C.SetRegs = {{0, 0}, {1, InBytes}};
  auto E = emu::Emulator::create(*W, C);
  if (!E) {
    ADD_FAILURE() << "emulator: " << llvm::toString(E.takeError());
    return Res;
  }
  std::vector<uint8_t> Bytes(InBytes);
  std::memcpy(Bytes.data(), In.data(), InBytes);
  if (llvm::Error Err = (*E)->writeDevice(0, Bytes)) {
    ADD_FAILURE() << llvm::toString(std::move(Err));
    return Res;
  }
  if (llvm::Error Err = (*E)->run()) {
    ADD_FAILURE() << "run: " << llvm::toString(std::move(Err)) << "\n"
                  << Res.Asm;
    return Res;
  }
  Res.Words.resize(OutBytes / 4);
  std::memcpy(Res.Words.data(), (*E)->deviceMemory().data() + InBytes,
              OutBytes);
  Res.Ok = true;
  return Res;
}

uint32_t fb(float X) { return std::bit_cast<uint32_t>(X); }
float bf(uint32_t X) { return std::bit_cast<float>(X); }

/// Whether \p Got matches the f32 \p Want: same bits, or both NaN.
bool sameF32(uint32_t Got, float Want) {
  if (std::isnan(Want))
    return std::isnan(bf(Got));
  return Got == fb(Want);
}

const uint32_t EdgeInts[] = {0,          1,          2,          3,
                             5,          7,          1000,       12345678,
                             0x40000000, 0x7FFFFFFE, 0x7FFFFFFF, 0x80000000,
                             0x80000001, 0xDEADBEEF, 0xFFFFFFFE, 0xFFFFFFFF};

//===----------------------------------------------------------------------===//
// Shape tests
//===----------------------------------------------------------------------===//

const char *LoopMIR = R"(kernel @k(ptr<device> %out, u32 %n) {
^entry:
  %z = icmp eq u32 %n, 0
  condbr %z, ^exit, ^loop

^loop:
  %i = phi u32 [0, ^entry], [%i.next, ^loop]
  %acc = phi u32 [7, ^entry], [%i, ^loop]
  %i.next = add u32 %i, 1
  %more = icmp lt u32 %i.next, %n
  condbr %more, ^loop, ^exit

^exit:
  %r = phi u32 [0, ^entry], [%acc, ^loop]
  store u32 %r, ptr<device> %out
  ret
}
)";

TEST(ISelShape, SplitsCriticalEdgesAndPlacesPhiCopies) {
  auto P = parse(LoopMIR);
  ASSERT_TRUE(P);
  SelectedFunction SF = selectOk(P->kernel());
  // Every edge out of a two-way branch into a block with phis is split,
  // right after its source in successor order.
  std::vector<std::string> Want = {"^entry",
                                   "^entry.exit.split",
                                   "^entry.loop.split",
                                   "^loop",
                                   "^loop.loop.split",
                                   "^loop.exit.split",
                                   "^exit"};
  EXPECT_EQ(SF.G.Names, Want);
  ASSERT_EQ(SF.Blocks.size(), 7u);
  using SV = llvm::SmallVector<unsigned, 2>;
  EXPECT_EQ(SF.G.Succs[0], SV({1, 2}));
  EXPECT_EQ(SF.G.Succs[1], SV({6}));
  EXPECT_EQ(SF.G.Succs[2], SV({3}));
  EXPECT_EQ(SF.G.Succs[3], SV({4, 5}));
  EXPECT_EQ(SF.G.Succs[4], SV({3}));
  EXPECT_EQ(SF.G.Succs[5], SV({6}));
  EXPECT_TRUE(SF.G.Succs[6].empty());
  // The MIR function was edited accordingly and still verifies.
  EXPECT_EQ(P->kernel().numBlocks(), 7u);
  llvm::Error VE = mir::verifyFunction(P->kernel());
  EXPECT_FALSE(bool(VE)) << llvm::toString(std::move(VE));

  // Branch conditions are predicates.
  for (unsigned N : {0u, 3u}) {
    ASSERT_NE(SF.Blocks[N].CondVReg, ~0u);
    EXPECT_EQ(SF.F.VRegs[SF.Blocks[N].CondVReg].Class, RegClass::Pred);
  }
  EXPECT_EQ(SF.Blocks[1].CondVReg, ~0u);

  // ^loop starts with `x = copy x'` for both phis; its two-way branch has
  // no trailing copies.
  const std::vector<LInst> &Loop = SF.Blocks[3].Body;
  ASSERT_GE(Loop.size(), 2u);
  EXPECT_TRUE(Loop[0].isCopy());
  EXPECT_TRUE(Loop[1].isCopy());
  EXPECT_EQ(Loop[0].Comment, "%i");
  EXPECT_FALSE(Loop.back().isCopy());
  unsigned IPrime = Loop[0].Ops[1].V, AccPrime = Loop[1].Ops[1].V;
  unsigned IReg = Loop[0].Ops[0].V;

  // ^entry.loop.split: mov_imm the constants into i' and acc'.
  const std::vector<LInst> &EL = SF.Blocks[2].Body;
  ASSERT_EQ(EL.size(), 2u);
  EXPECT_EQ(EL[0].Op, Opcode::MovImm);
  EXPECT_EQ(EL[0].Ops[0].V, IPrime);
  EXPECT_EQ(EL[0].Ops[1].V, 0u);
  EXPECT_EQ(EL[1].Ops[0].V, AccPrime);
  EXPECT_EQ(EL[1].Ops[1].V, 7u);

  // ^loop.loop.split: i' = copy i.next, acc' = copy i (the swap-free form).
  const std::vector<LInst> &LL = SF.Blocks[4].Body;
  ASSERT_EQ(LL.size(), 2u);
  EXPECT_TRUE(LL[0].isCopy() && LL[1].isCopy());
  EXPECT_EQ(LL[0].Ops[0].V, IPrime);
  EXPECT_EQ(LL[1].Ops[0].V, AccPrime);
  EXPECT_EQ(LL[1].Ops[1].V, IReg);

  // ^exit: r = copy r', then the store.
  const std::vector<LInst> &Exit = SF.Blocks[6].Body;
  ASSERT_GE(Exit.size(), 2u);
  EXPECT_TRUE(Exit[0].isCopy());
  EXPECT_EQ(Exit.back().Op, Opcode::DeviceStoreU32);

  // The result of `add` carries its name.
  bool Named = false;
  for (const LInst &I : Loop)
    Named |= I.Op == Opcode::Iadd && I.Comment == "%i.next";
  EXPECT_TRUE(Named) << text(SF.F, Loop);
  EXPECT_EQ(SF.F.VRegs[IReg].Name, "i");

  // Parameters are precoloured.
  EXPECT_EQ(SF.F.NumParams, 2u);
  EXPECT_EQ(SF.F.VRegs[0].Fixed, 0);
  EXPECT_EQ(SF.F.VRegs[1].Fixed, 1);
  EXPECT_EQ(SF.F.VRegs[1].Name, "n");
}

TEST(ISelShape, CopiesGoAfterEverythingInAOneSuccessorBlock) {
  auto P = parse(R"(kernel @k(ptr<device> %out, u32 %n) {
^entry:
  %a = add u32 %n, 1
  br ^next

^next:
  %x = phi u32 [%a, ^entry]
  %y = phi u32 [%n, ^entry]
  store u32 %x, ptr<device> %out
  ret
}
)");
  ASSERT_TRUE(P);
  SelectedFunction SF = selectOk(P->kernel());
  ASSERT_EQ(SF.Blocks.size(), 2u);
  const std::vector<LInst> &E = SF.Blocks[0].Body;
  ASSERT_GE(E.size(), 3u);
  EXPECT_TRUE(E[E.size() - 1].isCopy());
  EXPECT_TRUE(E[E.size() - 2].isCopy());
  EXPECT_EQ(E[E.size() - 1].Ops[1].V, 1u); // y' = copy %n (vreg 1)
  EXPECT_EQ(SF.G.Names[1], "^next");
}

TEST(ISelShape, UnnamedBlocksArePositional) {
  auto P = parse(R"(kernel @k(u32 %n) {
^0:
  %c = icmp eq u32 %n, 0
  condbr %c, ^1, ^2

^1:
  br ^2

^2:
  %v = phi u32 [1, ^0], [2, ^1]
  ret
}
)");
  ASSERT_TRUE(P);
  SelectedFunction SF = selectOk(P->kernel());
  std::vector<std::string> Want = {"^0", "^0.2.split", "^1", "^2"};
  EXPECT_EQ(SF.G.Names, Want);
}

TEST(ISelShape, UnsignedAndFloatCompareForms) {
  auto P = parse(R"(kernel @k(ptr<device> %o, u32 %a, u32 %b, f32 %x) {
^entry:
  %gt = icmp gt u32 %a, %b
  %ge = icmp ge u32 %a, %b
  %eq = icmp eq u32 %a, %b
  %fge = fcmp ge f32 %x, 1.0
  %s1 = select u32 %gt, %a, %b
  %s2 = select u32 %ge, %a, %b
  %s3 = select u32 %eq, %a, %b
  %s4 = select u32 %fge, %a, %b
  store u32 %s1, ptr<device> %o
  store u32 %s2, ptr<device> %o
  store u32 %s3, ptr<device> %o
  store u32 %s4, ptr<device> %o
  ret
}
)");
  ASSERT_TRUE(P);
  SelectedFunction SF = selectOk(P->kernel());
  const std::vector<LInst> &B = SF.Blocks[0].Body;
  for (Opcode Bad : {Opcode::UcmpGt, Opcode::UcmpGe, Opcode::UcmpEq,
                     Opcode::UcmpNe, Opcode::FcmpGe})
    EXPECT_EQ(countOp(B, Bad), 0u) << text(SF.F, B);
  bool SawGt = false, SawGe = false, SawFge = false;
  for (const LInst &I : B) {
    if (I.Op == Opcode::UcmpLt) {
      SawGt = true; // a > b is b < a
      EXPECT_EQ(I.Ops[1].V, 2u);
      EXPECT_EQ(I.Ops[2].V, 1u);
      EXPECT_EQ(I.Comment, "%gt");
    }
    if (I.Op == Opcode::UcmpLe) {
      SawGe = true;
      EXPECT_EQ(I.Ops[1].V, 2u);
      EXPECT_EQ(I.Ops[2].V, 1u);
    }
    if (I.Op == Opcode::FcmpLe) {
      SawFge = true;
      EXPECT_EQ(I.Ops[2].V, 3u); // x >= 1.0 is 1.0 <= x
    }
  }
  EXPECT_TRUE(SawGt && SawGe && SawFge) << text(SF.F, B);
  EXPECT_EQ(countOp(B, Opcode::IcmpEq), 1u);
  // Compares used only by selects of their block stay predicates: no 0/1
  // materialization.
  EXPECT_EQ(countOp(B, Opcode::Select), 4u);
  // 1.0 is materialized once, as its bit pattern.
  unsigned Imms = 0;
  for (const LInst &I : B)
    if (I.Op == Opcode::MovImm) {
      ++Imms;
      EXPECT_EQ(I.Ops[1].V, 0x3F800000u);
    }
  EXPECT_EQ(Imms, 1u);
}

TEST(ISelShape, CrossBlockBooleansAreZeroOneRegisters) {
  auto P = parse(R"(kernel @k(ptr<device> %o, u32 %a) {
^entry:
  %c = icmp lt u32 %a, 10
  br ^next

^next:
  condbr %c, ^yes, ^no

^yes:
  ret

^no:
  ret
}
)");
  ASSERT_TRUE(P);
  SelectedFunction SF = selectOk(P->kernel());
  const std::vector<LInst> &E = SF.Blocks[0].Body;
  // 0/1 through a select in ^entry ...
  EXPECT_EQ(countOp(E, Opcode::Select), 1u) << text(SF.F, E);
  // ... and back to a predicate where the branch needs it.
  const std::vector<LInst> &N = SF.Blocks[1].Body;
  EXPECT_EQ(countOp(N, Opcode::IcmpNe), 1u) << text(SF.F, N);
  ASSERT_NE(SF.Blocks[1].CondVReg, ~0u);
  EXPECT_EQ(N.back().Ops[0].V, SF.Blocks[1].CondVReg);
}

TEST(ISelShape, AtomicForms) {
  auto P = parse(R"(kernel @k(ptr<device> %d, u32 %v, u32 %w) local_memory(64) {
^entry:
  %old = atomic_add device u32, ptr<device> %d, %v
  %unused = atomic_or workgroup u32, ptr<device> %d, %v
  %l = bitcast u32 %v to ptr<local>
  %lold = atomic_xor workgroup u32, ptr<local> %l, %w
  %lu = atomic_exchange wave u32, ptr<local> %l, %w
  %c = atomic_cas system u32, ptr<device> %d, %v, %w
  %cu = atomic_cas workgroup u32, ptr<local> %l, %v, %w
  %m = atomic_min device u32, ptr<device> %d, %old
  store u32 %lold, ptr<device> %d
  store u32 %c, ptr<device> %d
  store u32 %m, ptr<device> %d
  ret
}
)");
  ASSERT_TRUE(P);
  SelectedFunction SF = selectOk(P->kernel());
  const std::vector<LInst> &B = SF.Blocks[0].Body;
  std::string T = text(SF.F, B);
  auto Find = [&](Opcode Op) -> const LInst * {
    for (const LInst &I : B)
      if (I.Op == Op && I.Pseudo == LPseudo::None)
        return &I;
    ADD_FAILURE() << "missing " << getInstDesc(Op).Mnemonic << "\n" << T;
    return nullptr;
  };
  const LInst *Add = Find(Opcode::AtomicAdd);
  ASSERT_TRUE(Add);
  ASSERT_EQ(Add->Ops.size(), 4u); // rd, addr, val, scope
  EXPECT_TRUE(SF.F.VRegs[Add->Ops[0].V].NoR0);
  EXPECT_EQ(Add->Ops[1].V, 0u);
  EXPECT_EQ(Add->Ops[2].V, 1u);
  EXPECT_EQ(Add->Ops[3].K, LOperand::Kind::Scope);
  EXPECT_EQ(Add->Ops[3].V, 2u);
  const LInst *Or = Find(Opcode::AtomicOr);
  ASSERT_TRUE(Or);
  ASSERT_EQ(Or->Ops.size(), 3u); // addr, val, scope: non-returning
  EXPECT_EQ(Or->Ops[0].V, 0u);
  EXPECT_EQ(Or->Ops[2].V, 1u);
  const LInst *LXor = Find(Opcode::LocalAtomicXor);
  ASSERT_TRUE(LXor);
  EXPECT_EQ(LXor->Ops.size(), 3u); // rd, addr, val; no scope
  EXPECT_TRUE(SF.F.VRegs[LXor->Ops[0].V].NoR0);
  const LInst *LXchg = Find(Opcode::LocalAtomicXchg);
  ASSERT_TRUE(LXchg);
  EXPECT_EQ(LXchg->Ops.size(), 2u);
  const LInst *Cas = Find(Opcode::AtomicCas);
  ASSERT_TRUE(Cas);
  ASSERT_EQ(Cas->Ops.size(), 5u); // rd, addr, cmp, new, scope
  EXPECT_EQ(Cas->Ops[2].V, 1u);
  EXPECT_EQ(Cas->Ops[3].V, 2u);
  EXPECT_EQ(Cas->Ops[4].V, 3u);
  const LInst *LCas = Find(Opcode::LocalAtomicCas);
  ASSERT_TRUE(LCas);
  EXPECT_EQ(LCas->Ops.size(), 3u); // addr, cmp, new
  EXPECT_TRUE(Find(Opcode::AtomicMin));
  EXPECT_EQ(SF.F.LocalMemory, 64u);
  // Atomic results never read as mov_imm'd constants.
  EXPECT_EQ(countOp(B, Opcode::MovImm), 0u) << T;
}

TEST(ISelShape, ConstantsWithAnyBitPattern) {
  auto P = parse(R"(kernel @k(ptr<device> %d, u32 %a) {
^entry:
  %x = add u32 %a, 4294967295
  %y = add u32 %x, 4294967294
  %z = add u32 %y, 4294967295
  %g = load f64, ptr<device> %d
  %h = fadd f64 %g, 0xFFFFFFFFFFFFFFFF
  %i = fadd f64 %h, 0xFFFFFFFFFFFFFFFF
  store u32 %z, ptr<device> %d
  store f64 %i, ptr<device> %d
  ret
}
)");
  ASSERT_TRUE(P);
  SelectedFunction SF = selectOk(P->kernel());
  // One mov_imm per constant and block (two for the f64 pair).
  EXPECT_EQ(countOp(SF.Blocks[0].Body, Opcode::MovImm), 4u)
      << text(SF.F, SF.Blocks[0].Body);
}

TEST(ISelShape, OperandOrders) {
  auto P = parse(R"(kernel @k(ptr<device> %d, u32 %a, u32 %b, u32 %c) {
^entry:
  %f = bfi u32 %a, %b, %c, 4
  %x = bfe u32 %a, %b, %c
  store u32 %f, ptr<device> %d
  store_u8 u32 %x, ptr<device> %d
  %s = sreg lane_id
  fence_release workgroup
  barrier
  store_u16 u32 %s, ptr<device> %d
  ret
}
)");
  ASSERT_TRUE(P);
  SelectedFunction SF = selectOk(P->kernel());
  std::string T = text(SF.F, SF.Blocks[0].Body);
  EXPECT_NE(T.find("bfi %r4, %r1, %r2, %r3, %r7"), std::string::npos) << T;
  EXPECT_NE(T.find("bfe %r5, %r1, %r2, %r3"), std::string::npos) << T;
  EXPECT_NE(T.find("device_store_u32 %r0, %r4"), std::string::npos) << T;
  EXPECT_NE(T.find("device_store_u8 %r0, %r5"), std::string::npos) << T;
  EXPECT_NE(T.find("mov_sr %r6, sr_lane_id"), std::string::npos) << T;
  EXPECT_NE(T.find("fence_release .workgroup"), std::string::npos) << T;
  EXPECT_NE(T.find("barrier"), std::string::npos) << T;
}

TEST(ISelShape, F64ValuesArePairs) {
  auto P = parse(R"(kernel @k(ptr<device> %d, u32 %a) {
^entry:
  %x = load f64, ptr<device> %d
  %y = fadd f64 %x, 1.5
  %c = icmp eq u32 %a, 0
  %z = select f64 %c, %x, %y
  store f64 %z, ptr<device> %d
  ret
}
)");
  ASSERT_TRUE(P);
  SelectedFunction SF = selectOk(P->kernel());
  std::string T = text(SF.F, SF.Blocks[0].Body);
  EXPECT_NE(T.find("device_load_u64 %r2:2, %r0"), std::string::npos) << T;
  EXPECT_NE(T.find("mov_imm %r6.lo, 0"), std::string::npos) << T;
  EXPECT_NE(T.find("mov_imm %r6.hi, 0x3FF80000"), std::string::npos) << T;
  EXPECT_NE(T.find("dadd %r3:2, %r2:2, %r6:2"), std::string::npos) << T;
  EXPECT_NE(T.find("select %r5.lo, %p4, %r2.lo, %r3.lo"), std::string::npos)
      << T;
  EXPECT_NE(T.find("select %r5.hi, %p4, %r2.hi, %r3.hi"), std::string::npos)
      << T;
  EXPECT_NE(T.find("device_store_u64 %r0, %r5:2"), std::string::npos) << T;
  EXPECT_EQ(SF.F.VRegs[2].Size, 2u);
}

TEST(ISelShape, Errors) {
  struct Case {
    const char *Text;
    const char *Want;
  } Cases[] = {
      {R"(kernel @k(ptr<device> %d) {
^entry:
  %x = alloca u32
  store u32 1, ptr<private> %x
  ret
}
)",
       "3:3: function '@k': private variables need a workgroup_size "
       "attribute: each thread's slots live in local memory"},
      {R"(kernel @k(ptr<device> %d) {
^entry:
  %o = atomic_min device i32, ptr<device> %d, 5
  ret
}
)",
       "3:3: function '@k': WAVE has no signed atomic min (formats/isa.md "
       "D32); use "
       "u32 or a compare-and-swap loop"},
      {R"(kernel @k(ptr<device> %d) {
^entry:
  %b = bitcast ptr<device> %d to ptr<local>
  %o = atomic_max workgroup i32, ptr<local> %b, 5
  ret
}
)",
       "4:3: function '@k': WAVE has no signed atomic max (formats/isa.md "
       "D32); use "
       "u32 or a compare-and-swap loop"},
      {R"(func @f() -> u32 {
^entry:
  ret u32 1
}

kernel @k(ptr<device> %d) {
^entry:
  %v = call u32 @f()
  ret
}
)",
       "1:1: function '@f' is a device function; wave-ra compiles kernels "
       "and export funcs and inlines the other device functions they "
       "call"},
  };
  for (const Case &C : Cases) {
    auto P = parse(C.Text);
    ASSERT_TRUE(P);
    auto SF = selectInstructions(P->kernel());
    ASSERT_FALSE(SF) << C.Text;
    std::string Got = errorAt(SF.takeError(), P->SM);
    // The function's location is wherever the parser put it; compare the
    // message, and the position for instruction errors.
    if (llvm::StringRef(C.Want).starts_with("1:1: "))
      EXPECT_NE(Got.find(C.Want + 5), std::string::npos) << Got;
    else
      EXPECT_EQ(Got, C.Want);
  }
  // A call inside a kernel is located at the call.
  auto P = parse(R"(func @f() -> u32 {
^entry:
  ret u32 1
}

kernel @k(ptr<device> %d) {
^entry:
  %v = call u32 @f()
  ret
}
)");
  ASSERT_TRUE(P);
  auto SF = selectInstructions(P->kernel(1));
  ASSERT_FALSE(SF);
  EXPECT_EQ(errorAt(SF.takeError(), P->SM),
            "8:3: function '@k': call to '@f' cannot be inlined (the "
            "function is recursive); wave-ra inlines every call because "
            "WAVE's call/return act on whole waves (formats/isa.md §4.16)");
}

/// Private variables: the slots' region layout after the kernel's own local
/// memory, the entry-block prologue (linear thread id, addresses, zeroing)
/// and local-memory accesses through ptr<private>.
TEST(ISelShape, PrivateSlotsLiveInLocalMemory) {
  auto P = parse(R"(kernel @k(ptr<device> %d) workgroup_size(16, 2, 1) local_memory(20) {
^entry:
  %v = load u32, ptr<device> %d
  %a = alloca u32
  %x = alloca f64
  store u32 %v, ptr<private> %a
  %y = load f64, ptr<private> %x
  store_u16 u32 %v, ptr<private> %a
  %w = load u32, ptr<private> %a
  store u32 %w, ptr<device> %d
  store f64 %y, ptr<device> %d
  ret
}
)");
  ASSERT_TRUE(P);
  SelectedFunction SF = selectOk(P->kernel());
  // 32 threads; private area at alignTo(20, 8) = 24: %a 24..152, %x
  // 152..408.
  EXPECT_EQ(SF.F.LocalMemory, 24u + 32 * 4 + 32 * 8);
  const std::vector<LInst> &B = SF.Blocks[0].Body;
  std::string T = text(SF.F, B);
  // The prologue comes first, before the block's own first load.
  ASSERT_FALSE(B.empty());
  EXPECT_EQ(B[0].Op, Opcode::MovSr) << T;
  EXPECT_EQ(B[0].Ops[1].V, 1u) << T; // sr_thread_id_y
  size_t Load = T.find("device_load_u32");
  for (const char *Want :
       {"sr_thread_id_x", "mov_imm %r", ", 24\n", ", 152\n",
        "local_store_u32 %r2, %r", "local_store_u64 %r3, %r"})
    EXPECT_LT(T.find(Want), Load) << Want << "\n" << T;
  EXPECT_NE(T.find("local_store_u32 %r2, %r1\n"), std::string::npos) << T;
  EXPECT_NE(T.find("local_load_u64 %r4:2, %r3"), std::string::npos) << T;
  EXPECT_NE(T.find("local_store_u16 %r2, %r1\n"), std::string::npos) << T;
  EXPECT_NE(T.find("local_load_u32 %r5, %r2"), std::string::npos) << T;
  EXPECT_EQ(countOp(B, Opcode::LocalStoreU32), 2u) << T; // zeroing + store
}

/// Every opcode of MIROps.def, in a verified kernel, selects or fails with
/// a located error (never crashes).
TEST(ISelShape, EveryOperationSelects) {
  auto P = parse(R"(kernel @k(ptr<device> %d, u32 %a, i32 %s, f32 %x) local_memory(256) {
^entry:
  %l = bitcast u32 %a to ptr<local>
  %h = load_u16 f16, ptr<device> %d
  %bh = load_u16 bf16, ptr<device> %d
  %v = load v2f16, ptr<device> %d
  %vb = load v2bf16, ptr<device> %d
  %g = load f64, ptr<device> %d
  %v1 = add u32 %a, 1
  %v2 = sub i32 %s, 1
  %v3 = mul u32 %a, %a
  %v4 = mulhi i32 %s, %s
  %v5 = mad u32 %a, %a, %a
  %v6 = div i32 %s, 3
  %v7 = rem u32 %a, 3
  %v8 = neg i32 %s
  %v9 = abs u32 %a
  %v10 = min i32 %s, 0
  %v11 = max u32 %a, 4
  %v12 = clamp u32 %a, 1, 9
  %v13 = ptradd ptr<local> %l, 8
  %v14 = fadd f16 %h, %h
  %v15 = fsub bf16 %bh, %bh
  %v16 = fmul v2f16 %v, %v
  %v17 = fma v2bf16 %vb, %vb, %vb
  %v18 = fdiv f64 %g, %g
  %v19 = fsqrt f64 %g
  %v20 = fneg f32 %x
  %v21 = fclamp f32 %x, 0.0, 1.0
  %v22 = fsin f32 %x
  %v23 = and i32 %s, 7
  %v24 = not u32 %a
  %v25 = ashr i32 %s, 3
  %v26 = popcount u32 %a
  %v27 = bitfind u32 %a
  %v28 = bitrev u32 %a
  %v29 = icmp le i32 %s, 0
  %v30 = fcmp unord f32 %x, %x
  %v31 = select i1 %v29, %v30, true
  %v32 = xor i1 %v31, %v29
  %v33 = not i1 %v32
  %v34 = cvt i1 %v33 to u32
  %v35 = cvt f32 %x to bf16
  %v36 = cvt f64 %g to f32
  %v37 = bitcast f16 %h to bf16
  %v38 = load_u8 u32, ptr<local> %l
  store v2f16 %v, ptr<local> %l
  %v39 = atomic_sub device u32, ptr<device> %d, 1
  %v40 = wave_shuffle_xor f32 %x, 1
  %v41 = wave_ballot %v29
  %v42 = wave_any %v30
  %v43 = wave_all %v42
  %v44 = select u32 %v43, 1, 2
  %v45 = wave_prefix_sum u32 %a
  %v46 = wave_reduce_max i32 %s
  %v47 = sreg mma_k
  mma_load_a 0, ptr<local> %l, 16
  mma_load_b 1, ptr<local> %l, 16
  mma_compute 0, 1, 2
  mma_store_c ptr<local> %l, 16, 2
  fence_acq_rel system
  barrier
  ret
}
)");
  ASSERT_TRUE(P);
  SelectedFunction SF = selectOk(P->kernel());
  ASSERT_EQ(SF.Blocks.size(), 1u);
  std::string T = text(SF.F, SF.Blocks[0].Body);
  for (const char *Want :
       {"hadd ", "bsub ", "hmul2 ", "bma2 ", "ddiv ", "dsqrt ",
        "fclamp ", "fsin ", "sar ", "bitcount ", "bitfind ", "bitrev ",
        "icmp_le ", "fcmp_unord ", "cvt_bf16_f32 ", "cvt_f32_f64 ",
        "local_load_u8 ", "local_store_u32 ", "atomic_sub ", "wave_shuffle_xor ",
        "wave_ballot ", "wave_any ", "wave_all ", "wave_prefix_sum ",
        "wave_reduce_max ", "mov_sr %r", "sr_mma_k", "mma_load_a r0, ",
        "mma_load_b r1, ", "mma_compute r0, r1, r2", "mma_store_c ",
        "fence_acq_rel .system", "barrier"})
    EXPECT_NE(T.find(Want), std::string::npos) << Want << "\n" << T;
  // u32 clamp and min/max expand to compares and selects.
  EXPECT_EQ(countOp(SF.Blocks[0].Body, Opcode::Iclamp), 0u);
}

//===----------------------------------------------------------------------===//
// Execution tests
//===----------------------------------------------------------------------===//

TEST(ISelExec, IntegerArithmetic) {
  ExecKernel K;
  K.NumIn = 6; // a, b, ulo, uhi, slo, shi
  K.Body = R"(  %si0 = bitcast u32 %in0 to i32
  %si1 = bitcast u32 %in1 to i32
  %si4 = bitcast u32 %in4 to i32
  %si5 = bitcast u32 %in5 to i32
  %udiv = div u32 %in0, %in1
  %urem = rem u32 %in0, %in1
  %umin = min u32 %in0, %in1
  %umax = max u32 %in0, %in1
  %uclamp = clamp u32 %in0, %in2, %in3
  %umulhi = mulhi u32 %in0, %in1
  %smulhi = mulhi i32 %si0, %si1
  %sdiv = div i32 %si0, %si1
  %srem = rem i32 %si0, %si1
  %smin = min i32 %si0, %si1
  %smax = max i32 %si0, %si1
  %sclamp = clamp i32 %si0, %si4, %si5
  %sabs = abs i32 %si0
  %uabs = abs u32 %in0
  %sneg = neg i32 %si0
  %mad = mad u32 %in0, %in1, %in2
  %sub = sub u32 %in0, %in1
  %mul = mul i32 %si0, %si1
)";
  K.Outs = {{"udiv", "u32"},   {"urem", "u32"},   {"umin", "u32"},
            {"umax", "u32"},   {"uclamp", "u32"}, {"umulhi", "u32"},
            {"smulhi", "i32"}, {"sdiv", "i32"},   {"srem", "i32"},
            {"smin", "i32"},   {"smax", "i32"},   {"sclamp", "i32"},
            {"sabs", "i32"},   {"uabs", "u32"},   {"sneg", "i32"},
            {"mad", "u32"},    {"sub", "u32"},    {"mul", "i32"}};
  std::mt19937 Rng(1234);
  std::vector<std::array<uint32_t, 2>> Pairs;
  for (uint32_t A : EdgeInts)
    for (uint32_t B : EdgeInts)
      Pairs.push_back({A, B});
  while (Pairs.size() % 256 != 0 || Pairs.size() < 512) {
    uint32_t A = Rng() >> (Rng() % 32), B = Rng() >> (Rng() % 32);
    Pairs.push_back({A, B});
  }
  for (size_t Base = 0; Base < Pairs.size(); Base += 256) {
    K.Threads = 256;
    std::vector<uint32_t> In;
    for (unsigned T = 0; T != 256; ++T) {
      auto [A, B] = Pairs[Base + T];
      uint32_t X = Rng(), Y = Rng();
      uint32_t ULo = std::min(X, Y), UHi = std::max(X, Y);
      int32_t SX = int32_t(Rng()), SY = int32_t(Rng());
      In.insert(In.end(), {A, B, ULo, UHi, uint32_t(std::min(SX, SY)),
                           uint32_t(std::max(SX, SY))});
    }
    ExecResult R = runKernel(K, In);
    ASSERT_TRUE(R.Ok);
    for (unsigned T = 0; T != 256; ++T) {
      uint32_t A = In[T * 6], B = In[T * 6 + 1], ULo = In[T * 6 + 2],
               UHi = In[T * 6 + 3];
      int32_t SA = int32_t(A), SB = int32_t(B), SLo = int32_t(In[T * 6 + 4]),
              SHi = int32_t(In[T * 6 + 5]);
      uint32_t Want[] = {
          B ? A / B : 0,
          B ? A % B : 0,
          std::min(A, B),
          std::max(A, B),
          std::min(std::max(A, ULo), UHi),
          uint32_t((uint64_t(A) * B) >> 32),
          uint32_t(uint64_t(int64_t(SA) * int64_t(SB)) >> 32),
          B == 0                        ? 0
          : (SA == INT32_MIN && SB == -1) ? uint32_t(INT32_MIN)
                                          : uint32_t(SA / SB),
          B == 0 || SB == -1 ? 0 : uint32_t(SA % SB),
          uint32_t(std::min(SA, SB)),
          uint32_t(std::max(SA, SB)),
          uint32_t(std::min(std::max(SA, SLo), SHi)),
          SA < 0 ? 0u - A : A,
          A,
          0u - A,
          A * B + ULo,
          A - B,
          A * B};
      for (unsigned W = 0; W != std::size(Want); ++W)
        EXPECT_EQ(R.at(T, W), Want[W])
            << K.Outs[W].Name << " a=" << A << " b=" << B;
    }
  }
}

TEST(ISelExec, BitOperations) {
  ExecKernel K;
  K.NumIn = 4;
  K.Threads = 128;
  K.Body = R"(  %si0 = bitcast u32 %in0 to i32
  %shl = shl u32 %in0, %in1
  %lshr = lshr u32 %in0, %in1
  %si1 = bitcast u32 %in1 to i32
  %ashr = ashr i32 %si0, %si1
  %and = and u32 %in0, %in1
  %or = or u32 %in0, %in1
  %xor = xor u32 %in0, %in1
  %not = not u32 %in0
  %pop = popcount u32 %in0
  %find = bitfind u32 %in0
  %rev = bitrev u32 %in0
  %bfe = bfe u32 %in0, %in2, %in3
  %bfi = bfi u32 %in0, %in1, %in2, %in3
)";
  K.Outs = {{"shl", "u32"}, {"lshr", "u32"}, {"ashr", "i32"},
            {"and", "u32"}, {"or", "u32"},   {"xor", "u32"},
            {"not", "u32"}, {"pop", "u32"},  {"find", "u32"},
            {"rev", "u32"}, {"bfe", "u32"},  {"bfi", "u32"}};
  std::mt19937 Rng(99);
  std::vector<uint32_t> In;
  for (unsigned T = 0; T != K.Threads; ++T) {
    uint32_t A = T < 16 ? EdgeInts[T] : uint32_t(Rng());
    In.insert(In.end(), {A, uint32_t(Rng() % 40), uint32_t(Rng() % 40),
                         uint32_t(Rng() % 40)});
  }
  ExecResult R = runKernel(K, In);
  ASSERT_TRUE(R.Ok);
  for (unsigned T = 0; T != K.Threads; ++T) {
    uint32_t A = In[T * 4], B = In[T * 4 + 1], O = In[T * 4 + 2] & 31,
             N = In[T * 4 + 3] & 31;
    uint32_t Mask = uint32_t(((uint64_t(1) << N) - 1) << O);
    uint32_t Rev = 0;
    for (unsigned Bit = 0; Bit != 32; ++Bit)
      Rev |= ((A >> Bit) & 1) << (31 - Bit);
    uint32_t Want[] = {A << (B & 31),
                       A >> (B & 31),
                       uint32_t(int32_t(A) >> (B & 31)),
                       A & B,
                       A | B,
                       A ^ B,
                       ~A,
                       uint32_t(std::popcount(A)),
                       A ? uint32_t(std::countl_zero(A)) : 0xFFFFFFFFu,
                       Rev,
                       N ? (A >> O) & ((1u << N) - 1) : 0,
                       N ? (A & ~Mask) | ((B << O) & Mask) : A};
    for (unsigned W = 0; W != std::size(Want); ++W)
      EXPECT_EQ(R.at(T, W), Want[W]) << K.Outs[W].Name << " a=" << A;
  }
}

TEST(ISelExec, IntegerComparesAndSelect) {
  static const uint32_t Vals[] = {0,          1,          5,         0x7FFFFFFF,
                                  0x80000000, 0x80000001, 0xFFFFFFFF};
  const unsigned NV = std::size(Vals);
  ExecKernel K;
  K.NumIn = 2;
  K.Threads = NV * NV;
  std::string Body = R"(  %s0 = bitcast u32 %in0 to i32
  %s1 = bitcast u32 %in1 to i32
  %p0 = bitcast u32 %in0 to ptr<device>
  %p1 = bitcast u32 %in1 to ptr<device>
)";
  const char *Preds[] = {"eq", "ne", "lt", "le", "gt", "ge"};
  for (const char *Ty : {"u32", "i32", "ptr"}) {
    for (const char *Pr : Preds) {
      std::string N = std::string(Ty) + "_" + Pr;
      std::string A = Ty[0] == 'u' ? "%in0" : Ty[0] == 'i' ? "%s0" : "%p0";
      std::string B = Ty[0] == 'u' ? "%in1" : Ty[0] == 'i' ? "%s1" : "%p1";
      std::string T = Ty[0] == 'p' ? "ptr<device>" : Ty;
      Body += "  %c_" + N + " = icmp " + Pr + " " + T + " " + A + ", " + B +
              "\n  %" + N + " = cvt i1 %c_" + N + " to u32\n";
      K.Outs.push_back({N, "u32"});
    }
  }
  // A compare used only by a select (a predicate) and i1 logic on 0/1
  // registers.
  Body += R"(  %lt = icmp lt i32 %s0, %s1
  %sel = select u32 %lt, %in0, %in1
  %gtu = icmp gt u32 %in0, %in1
  %eq = icmp eq u32 %in0, %in1
  %x = xor i1 %gtu, %eq
  %o = or i1 %gtu, %eq
  %a = and i1 %gtu, true
  %n = not i1 %x
  %bsel = select i1 %n, %o, %a
  %xo = cvt i1 %x to u32
  %oo = cvt i1 %o to u32
  %ao = cvt i1 %a to i32
  %no = cvt i1 %n to u32
  %bso = cvt i1 %bsel to u32
)";
  K.Body = Body;
  for (const char *N : {"sel", "xo", "oo", "ao", "no", "bso"})
    K.Outs.push_back({N, N == std::string("ao") ? "i32" : "u32"});
  std::vector<uint32_t> In;
  for (uint32_t A : Vals)
    for (uint32_t B : Vals)
      In.insert(In.end(), {A, B});
  ExecResult R = runKernel(K, In);
  ASSERT_TRUE(R.Ok);
  for (unsigned T = 0; T != K.Threads; ++T) {
    uint32_t A = In[2 * T], B = In[2 * T + 1];
    int32_t SA = int32_t(A), SB = int32_t(B);
    std::vector<uint32_t> Want;
    for (int Signed : {0, 1, 0}) {
      int64_t X = Signed ? SA : int64_t(A), Y = Signed ? SB : int64_t(B);
      Want.insert(Want.end(), {X == Y, X != Y, X < Y, X <= Y, X > Y, X >= Y});
    }
    bool Gt = A > B, Eq = A == B, Xr = Gt != Eq, Or = Gt || Eq, An = Gt,
         Nt = !Xr;
    Want.insert(Want.end(), {SA < SB ? A : B, Xr, Or, An, Nt, Nt ? Or : An});
    for (unsigned W = 0; W != Want.size(); ++W)
      EXPECT_EQ(R.at(T, W), Want[W])
          << K.Outs[W].Name << " a=" << A << " b=" << B;
  }
}

const float FVals[] = {0.0f,
                       -0.0f,
                       1.0f,
                       -1.5f,
                       2.5f,
                       3.0e38f,
                       1.0e-40f,
                       std::numeric_limits<float>::infinity(),
                       -std::numeric_limits<float>::infinity(),
                       std::numeric_limits<float>::quiet_NaN()};

TEST(ISelExec, FloatComparesWithNaN) {
  const unsigned NV = std::size(FVals);
  ExecKernel K;
  K.NumIn = 2;
  K.Threads = NV * NV;
  std::string Body = R"(  %x = bitcast u32 %in0 to f32
  %y = bitcast u32 %in1 to f32
)";
  const char *Preds[] = {"eq", "ne", "lt", "le", "gt", "ge", "ord", "unord"};
  for (const char *Pr : Preds) {
    Body += std::string("  %c_") + Pr + " = fcmp " + Pr + " f32 %x, %y\n  %" +
            Pr + " = cvt i1 %c_" + Pr + " to u32\n";
    K.Outs.push_back({Pr, "u32"});
  }
  // ge straight into a select (predicate form).
  Body += "  %gep = fcmp ge f32 %x, %y\n  %sel = select f32 %gep, %x, 5.0\n";
  K.Outs.push_back({"sel", "f32"});
  K.Body = Body;
  std::vector<uint32_t> In;
  for (float A : FVals)
    for (float B : FVals)
      In.insert(In.end(), {fb(A), fb(B)});
  ExecResult R = runKernel(K, In);
  ASSERT_TRUE(R.Ok);
  for (unsigned T = 0; T != K.Threads; ++T) {
    float A = bf(In[2 * T]), B = bf(In[2 * T + 1]);
    bool Un = std::isnan(A) || std::isnan(B);
    uint32_t Want[] = {A == B, A != B, A < B, A <= B,
                       A > B,  A >= B, !Un,   Un};
    for (unsigned W = 0; W != 8; ++W)
      EXPECT_EQ(R.at(T, W), Want[W])
          << K.Outs[W].Name << " " << A << " " << B;
    EXPECT_EQ(R.at(T, 8), A >= B ? fb(A) : fb(5.0f)) << A << " " << B;
  }
}

/// The reference of formats/isa.md §4.7 for the f32 operations whose C++
/// spelling differs.
float refFmin(float A, float B) {
  return std::isnan(A) ? B : std::isnan(B) ? A : B < A ? B : A;
}
float refFmax(float A, float B) {
  return std::isnan(A) ? B : std::isnan(B) ? A : B > A ? B : A;
}
uint32_t refCvtI32(float A) {
  if (std::isnan(A))
    return 0;
  if (A >= 2147483648.0f)
    return 0x7FFFFFFF;
  if (A < -2147483648.0f)
    return 0x80000000;
  return uint32_t(int32_t(A));
}
uint32_t refCvtU32(float A) {
  if (std::isnan(A) || A <= 0)
    return 0;
  if (A >= 4294967296.0f)
    return 0xFFFFFFFF;
  return uint32_t(A);
}

TEST(ISelExec, Float32) {
  const unsigned NV = std::size(FVals);
  ExecKernel K;
  K.NumIn = 3;
  K.Threads = NV * NV;
  K.Body = R"(  %x = bitcast u32 %in0 to f32
  %y = bitcast u32 %in1 to f32
  %z = bitcast u32 %in2 to f32
  %add = fadd f32 %x, %y
  %sub = fsub f32 %x, %y
  %mul = fmul f32 %x, %y
  %fma = fma f32 %x, %y, %z
  %div = fdiv f32 %x, %y
  %neg = fneg f32 %x
  %abs = fabs f32 %x
  %min = fmin f32 %x, %y
  %max = fmax f32 %x, %y
  %sqrt = fsqrt f32 %x
  %floor = ffloor f32 %x
  %ceil = fceil f32 %x
  %trunc = ftrunc f32 %x
  %round = fround f32 %x
  %fract = ffract f32 %x
  %rcp = frcp f32 %x
  %sat = fsat f32 %x
  %toi = cvt f32 %x to i32
  %tou = cvt f32 %x to u32
  %fromi = cvt i32 %in1.i to f32
  %fromu = cvt u32 %in1 to f32
  %plus = fadd f32 %x, 0.25
)";
  // %in1 as i32
  K.Body = "  %in1.i = bitcast u32 %in1 to i32\n" + K.Body;
  K.Outs = {{"add", "f32"},   {"sub", "f32"},   {"mul", "f32"},
            {"fma", "f32"},   {"div", "f32"},   {"neg", "f32"},
            {"abs", "f32"},   {"min", "f32"},   {"max", "f32"},
            {"sqrt", "f32"},  {"floor", "f32"}, {"ceil", "f32"},
            {"trunc", "f32"}, {"round", "f32"}, {"fract", "f32"},
            {"rcp", "f32"},   {"sat", "f32"},   {"toi", "i32"},
            {"tou", "u32"},   {"fromi", "f32"}, {"fromu", "f32"},
            {"plus", "f32"}};
  std::vector<uint32_t> In;
  for (unsigned I = 0; I != NV; ++I)
    for (unsigned J = 0; J != NV; ++J)
      In.insert(In.end(), {fb(FVals[I]), fb(FVals[J]), fb(FVals[(I + J) % NV])});
  ExecResult R = runKernel(K, In);
  ASSERT_TRUE(R.Ok);
  for (unsigned T = 0; T != K.Threads; ++T) {
    float X = bf(In[3 * T]), Y = bf(In[3 * T + 1]), Z = bf(In[3 * T + 2]);
    float Sat = std::isnan(X) ? X : X < 0 ? 0.0f : X > 1 ? 1.0f : X;
    float Want[] = {X + Y,
                    X - Y,
                    X * Y,
                    std::fma(X, Y, Z),
                    Y == 0 ? std::numeric_limits<float>::infinity() : X / Y,
                    -X,
                    std::fabs(X),
                    refFmin(X, Y),
                    refFmax(X, Y),
                    std::sqrt(X),
                    std::floor(X),
                    std::ceil(X),
                    std::trunc(X),
                    std::round(X),
                    X - std::trunc(X),
                    1.0f / X,
                    Sat};
    for (unsigned W = 0; W != std::size(Want); ++W)
      EXPECT_TRUE(sameF32(R.at(T, W), Want[W]))
          << K.Outs[W].Name << " x=" << X << " y=" << Y << " got "
          << bf(R.at(T, W)) << " want " << Want[W];
    EXPECT_EQ(R.at(T, 17), refCvtI32(X)) << X;
    EXPECT_EQ(R.at(T, 18), refCvtU32(X)) << X;
    EXPECT_EQ(R.at(T, 19), fb(float(int32_t(In[3 * T + 1]))));
    EXPECT_EQ(R.at(T, 20), fb(float(In[3 * T + 1])));
    EXPECT_TRUE(sameF32(R.at(T, 21), X + 0.25f));
  }
}

uint16_t h16(float X) { return std::bit_cast<uint16_t>(_Float16(X)); }
float fromH(uint16_t H) { return float(std::bit_cast<_Float16>(H)); }
uint16_t bf16Trunc(float X) { return uint16_t(fb(X) >> 16); }
float fromB(uint16_t B) { return bf(uint32_t(B) << 16); }

TEST(ISelExec, HalfAndPacked) {
  const float HVals[] = {0.0f, -0.0f, 1.0f, -2.5f, 0.333f, 1000.0f, 65504.0f,
                         -3.0e-5f};
  const unsigned NV = std::size(HVals);
  ExecKernel K;
  K.NumIn = 3;
  K.Threads = NV * NV;
  K.Body = R"(  %h0 = load_u16 f16, ptr<device> %ip0
  %h1 = load_u16 f16, ptr<device> %ip1
  %h2 = load_u16 f16, ptr<device> %ip2
  %b0 = load_u16 bf16, ptr<device> %ip0
  %b1 = load_u16 bf16, ptr<device> %ip1
  %b2 = load_u16 bf16, ptr<device> %ip2
  %v0 = bitcast u32 %in0 to v2f16
  %v1 = bitcast u32 %in1 to v2f16
  %v2 = bitcast u32 %in2 to v2f16
  %w0 = bitcast u32 %in0 to v2bf16
  %w1 = bitcast u32 %in1 to v2bf16
  %w2 = bitcast u32 %in2 to v2bf16
  %hadd = fadd f16 %h0, %h1
  %hsub = fsub f16 %h0, %h1
  %hmul = fmul f16 %h0, %h1
  %hma = fma f16 %h0, %h1, %h2
  %badd = fadd bf16 %b0, %b1
  %bsub = fsub bf16 %b0, %b1
  %bmul = fmul bf16 %b0, %b1
  %bma = fma bf16 %b0, %b1, %b2
  %vadd = fadd v2f16 %v0, %v1
  %vsub = fsub v2f16 %v0, %v1
  %vmul = fmul v2f16 %v0, %v1
  %vma = fma v2f16 %v0, %v1, %v2
  %wadd = fadd v2bf16 %w0, %w1
  %wsub = fsub v2bf16 %w0, %w1
  %wmul = fmul v2bf16 %w0, %w1
  %wma = fma v2bf16 %w0, %w1, %w2
  %hf = cvt f16 %h0 to f32
  %fh = cvt f32 %hf to f16
  %bfv = cvt bf16 %b0 to f32
  %fb = cvt f32 %bfv to bf16
  %hb = bitcast f16 %h1 to bf16
)";
  K.Outs = {{"hadd", "f16"}, {"hsub", "f16"}, {"hmul", "f16"},
            {"hma", "f16"},  {"badd", "bf16"}, {"bsub", "bf16"},
            {"bmul", "bf16"}, {"bma", "bf16"}, {"vadd", "v2f16"},
            {"vsub", "v2f16"}, {"vmul", "v2f16"}, {"vma", "v2f16"},
            {"wadd", "v2bf16"}, {"wsub", "v2bf16"}, {"wmul", "v2bf16"},
            {"wma", "v2bf16"}, {"hf", "f32"}, {"fh", "f16"},
            {"bfv", "f32"},   {"fb", "bf16"},  {"hb", "bf16"}};
  // Word k of thread (i, j): the f16 of HVals[...] in the low half and the
  // bf16 of another value in the high half, so scalar and packed lanes
  // differ.
  std::vector<uint32_t> In;
  for (unsigned I = 0; I != NV; ++I)
    for (unsigned J = 0; J != NV; ++J) {
      unsigned Idx[3] = {I, J, (I * 3 + J) % NV};
      for (unsigned Kx : Idx)
        In.push_back(uint32_t(h16(HVals[Kx])) |
                     uint32_t(h16(HVals[(Kx + 3) % NV])) << 16);
    }
  ExecResult R = runKernel(K, In);
  ASSERT_TRUE(R.Ok);
  for (unsigned T = 0; T != K.Threads; ++T) {
    const uint32_t *W = &In[3 * T];
    auto Lane = [&](unsigned K2, unsigned L) {
      return uint16_t(W[K2] >> (16 * L));
    };
    // f16 lane L ops.
    auto HOp = [&](unsigned L, int Op) {
      float A = fromH(Lane(0, L)), B = fromH(Lane(1, L)),
            C = fromH(Lane(2, L));
      float V = Op == 0 ? A + B : Op == 1 ? A - B : Op == 2 ? A * B
                                                         : std::fma(A, B, C);
      return h16(V);
    };
    auto BOp = [&](unsigned L, int Op) {
      float A = fromB(Lane(0, L)), B = fromB(Lane(1, L)),
            C = fromB(Lane(2, L));
      float V = Op == 0 ? A + B : Op == 1 ? A - B : Op == 2 ? A * B
                                                         : std::fma(A, B, C);
      return bf16Trunc(V);
    };
    std::vector<uint32_t> Want;
    for (int Op = 0; Op != 4; ++Op)
      Want.push_back(HOp(0, Op));
    for (int Op = 0; Op != 4; ++Op)
      Want.push_back(BOp(0, Op));
    for (int Op = 0; Op != 4; ++Op)
      Want.push_back(uint32_t(HOp(0, Op)) | uint32_t(HOp(1, Op)) << 16);
    for (int Op = 0; Op != 4; ++Op)
      Want.push_back(uint32_t(BOp(0, Op)) | uint32_t(BOp(1, Op)) << 16);
    float HF = fromH(Lane(0, 0));
    Want.push_back(fb(HF));
    Want.push_back(h16(HF));
    float BF = fromB(Lane(0, 0));
    Want.push_back(fb(BF));
    Want.push_back(bf16Trunc(BF));
    Want.push_back(Lane(1, 0));
    for (unsigned Wd = 0; Wd != Want.size(); ++Wd)
      EXPECT_EQ(R.at(T, Wd), Want[Wd])
          << K.Outs[Wd].Name << " thread " << T << std::hex << " in "
          << W[0] << " " << W[1] << " " << W[2];
  }
}

TEST(ISelExec, Float64) {
  const double DVals[] = {0.0, -0.0, 1.0, -2.75, 1.0e300, 3.0e-310, 0.1,
                          std::numeric_limits<double>::infinity()};
  const unsigned NV = std::size(DVals);
  ExecKernel K;
  K.NumIn = 6; // three f64s
  K.Threads = NV * NV;
  K.Body = R"(  %x = load f64, ptr<device> %ip0
  %y = load f64, ptr<device> %ip2
  %z = load f64, ptr<device> %ip4
  %add = fadd f64 %x, %y
  %sub = fsub f64 %x, %y
  %mul = fmul f64 %x, %y
  %div = fdiv f64 %x, %y
  %ma = fma f64 %x, %y, %z
  %sqrt = fsqrt f64 %x
  %c = fadd f64 %x, 1.5
  %xf = cvt f64 %x to f32
  %yf = cvt f64 %y to f32
  %lt = fcmp lt f32 %xf, %yf
  %sel = select f64 %lt, %x, %y
  %back = cvt f32 %yf to f64
)";
  K.Outs = {{"add", "f64"}, {"sub", "f64"},  {"mul", "f64"}, {"div", "f64"},
            {"ma", "f64"},  {"sqrt", "f64"}, {"c", "f64"},   {"sel", "f64"},
            {"xf", "f32"},  {"back", "f64"}};
  std::vector<uint32_t> In;
  auto Push = [&](double D) {
    uint64_t B = std::bit_cast<uint64_t>(D);
    In.push_back(uint32_t(B));
    In.push_back(uint32_t(B >> 32));
  };
  for (unsigned I = 0; I != NV; ++I)
    for (unsigned J = 0; J != NV; ++J) {
      Push(DVals[I]);
      Push(DVals[J]);
      Push(DVals[(I + 2 * J) % NV]);
    }
  ExecResult R = runKernel(K, In);
  ASSERT_TRUE(R.Ok);
  auto Get = [&](unsigned T, unsigned W) {
    return std::bit_cast<double>(uint64_t(R.at(T, W)) |
                                 uint64_t(R.at(T, W + 1)) << 32);
  };
  auto Same = [](double G, double W) {
    return std::isnan(W) ? std::isnan(G)
                         : std::bit_cast<uint64_t>(G) ==
                               std::bit_cast<uint64_t>(W);
  };
  for (unsigned T = 0; T != K.Threads; ++T) {
    double X = std::bit_cast<double>(uint64_t(In[6 * T]) |
                                     uint64_t(In[6 * T + 1]) << 32);
    double Y = std::bit_cast<double>(uint64_t(In[6 * T + 2]) |
                                     uint64_t(In[6 * T + 3]) << 32);
    double Z = std::bit_cast<double>(uint64_t(In[6 * T + 4]) |
                                     uint64_t(In[6 * T + 5]) << 32);
    float XF = float(X), YF = float(Y);
    double Want[] = {X + Y, X - Y, X * Y, X / Y, std::fma(X, Y, Z),
                     std::sqrt(X), X + 1.5, XF < YF ? X : Y};
    unsigned Wd = 0;
    for (unsigned K2 = 0; K2 != std::size(Want); ++K2, Wd += 2)
      EXPECT_TRUE(Same(Get(T, Wd), Want[K2]))
          << K.Outs[K2].Name << " x=" << X << " y=" << Y << " got "
          << Get(T, Wd) << " want " << Want[K2];
    EXPECT_TRUE(sameF32(R.at(T, Wd), XF)) << X;
    EXPECT_TRUE(Same(Get(T, Wd + 1), double(YF))) << Y;
  }
}

TEST(ISelExec, WaveOperations) {
  ExecKernel K;
  K.NumIn = 1;
  K.Threads = 32;
  K.Body = R"(  %s = bitcast u32 %in0 to i32
  %rmin = wave_reduce_min i32 %s
  %rmax = wave_reduce_max i32 %s
  %umin = wave_reduce_min u32 %in0
  %umax = wave_reduce_max u32 %in0
  %sum = wave_reduce_add u32 %in0
  %pre = wave_prefix_sum u32 %in0
  %neg = icmp lt i32 %s, 0
  %ball = wave_ballot %neg
  %any = wave_any %neg
  %all = wave_all %neg
  %anyo = cvt i1 %any to u32
  %allo = cvt i1 %all to u32
  %big = icmp gt u32 %in0, 1000
  %bany = wave_any %big
  %bsel = select u32 %bany, 11, 22
  %lane = sreg lane_id
  %shx = wave_shuffle_xor u32 %in0, 1
  %shd = wave_shuffle_down u32 %in0, 3
  %bc = wave_broadcast u32 %in0, 5
)";
  K.Outs = {{"rmin", "i32"}, {"rmax", "i32"}, {"umin", "u32"},
            {"umax", "u32"}, {"sum", "u32"},  {"pre", "u32"},
            {"ball", "u32"}, {"anyo", "u32"}, {"allo", "u32"},
            {"bsel", "u32"}, {"lane", "u32"}, {"shx", "u32"},
            {"shd", "u32"},  {"bc", "u32"}};
  std::mt19937 Rng(7);
  for (int Round = 0; Round != 4; ++Round) {
    std::vector<uint32_t> In;
    for (unsigned T = 0; T != 32; ++T) {
      uint32_t V = Round == 3 ? uint32_t(T + 1) : uint32_t(Rng());
      if (Round == 1)
        V &= 0x7FFFFFFF; // all positive
      if (Round == 2)
        V |= 0x80000000; // all negative
      In.push_back(V);
    }
    ExecResult R = runKernel(K, In);
    ASSERT_TRUE(R.Ok);
    int32_t SMin = INT32_MAX, SMax = INT32_MIN;
    uint32_t UMin = ~0u, UMax = 0, Sum = 0, Ball = 0;
    bool Big = false;
    for (unsigned T = 0; T != 32; ++T) {
      SMin = std::min(SMin, int32_t(In[T]));
      SMax = std::max(SMax, int32_t(In[T]));
      UMin = std::min(UMin, In[T]);
      UMax = std::max(UMax, In[T]);
      Sum += In[T];
      Ball |= uint32_t(int32_t(In[T]) < 0) << T;
      Big |= In[T] > 1000;
    }
    uint32_t Pre = 0;
    for (unsigned T = 0; T != 32; ++T) {
      uint32_t Want[] = {uint32_t(SMin), uint32_t(SMax), UMin, UMax, Sum, Pre,
                         Ball, Ball != 0, Ball == ~0u, Big ? 11u : 22u, T,
                         In[T ^ 1], T + 3 < 32 ? In[T + 3] : 0, In[5]};
      for (unsigned W = 0; W != std::size(Want); ++W)
        EXPECT_EQ(R.at(T, W), Want[W])
            << K.Outs[W].Name << " round " << Round << " lane " << T;
      Pre += In[T];
    }
  }
}

TEST(ISelExec, NarrowAndLocalMemory) {
  ExecKernel K;
  K.NumIn = 2;
  K.Threads = 32;
  K.Attrs = " local_memory(256)";
  K.Body = R"(  %b8 = load_u8 u32, ptr<device> %ip0
  %b16 = load_u16 i32, ptr<device> %ip1
  %ip0b = ptradd ptr<device> %ip0, 3
  %hi8 = load_u8 u32, ptr<device> %ip0b
  %loff = shl u32 %t, 2
  %lp = bitcast u32 %loff to ptr<local>
  store u32 %in1, ptr<local> %lp
  barrier
  %nt = xor u32 %t, 7
  %noff = shl u32 %nt, 2
  %np = bitcast u32 %noff to ptr<local>
  %nb = load u32, ptr<local> %np
  %nb8 = load_u8 u32, ptr<local> %np
  store_u8 u32 %in0, ptr<local> %lp
  store_u16 u32 %in0, ptr<local> %np
  barrier
  %mix = load u32, ptr<local> %lp
  %cnt = atomic_add workgroup u32, ptr<local> %lp, 1
  %after = load u32, ptr<local> %lp
  store_u8 u32 %in1, ptr<device> %ip0
  store_u16 u32 %in1, ptr<device> %ip1
  %dev = load u32, ptr<device> %ip0
  %dev2 = load u32, ptr<device> %ip1
)";
  K.Outs = {{"b8", "u32"},  {"b16", "i32"}, {"hi8", "u32"}, {"nb", "u32"},
            {"nb8", "u32"}, {"mix", "u32"}, {"cnt", "u32"}, {"after", "u32"},
            {"dev", "u32"}, {"dev2", "u32"}};
  std::mt19937 Rng(5);
  std::vector<uint32_t> In;
  for (unsigned T = 0; T != 32; ++T)
    In.insert(In.end(), {uint32_t(Rng()), uint32_t(Rng())});
  ExecResult R = runKernel(K, In);
  ASSERT_TRUE(R.Ok);
  for (unsigned T = 0; T != 32; ++T) {
    uint32_t A = In[2 * T], B = In[2 * T + 1];
    unsigned N = T ^ 7;
    // Local word T after the second phase: its byte 0 from thread T's
    // store_u8, bytes 0-1 then overwritten by thread N's store_u16 (thread
    // N's np is T's lp; lanes store in ascending order within one
    // instruction, and store_u16 runs after store_u8).
    uint32_t Mix = (B & 0xFFFF0000u) | (In[2 * N] & 0xFFFF);
    uint32_t Want[] = {A & 0xFF,
                       B & 0xFFFF,
                       A >> 24,
                       In[2 * N + 1],
                       In[2 * N + 1] & 0xFF,
                       Mix,
                       Mix,
                       Mix + 1,
                       (A & 0xFFFFFF00u) | (B & 0xFF),
                       (B & 0xFFFF0000u) | (B & 0xFFFF)};
    for (unsigned W = 0; W != std::size(Want); ++W)
      EXPECT_EQ(R.at(T, W), Want[W]) << K.Outs[W].Name << " thread " << T;
  }
}

/// Private variables on the emulator, two waves: slots read 0 before any
/// store, keep each thread's values apart, take narrow stores, and sit where
/// formats/wave-asm.md §9 puts them (after alignTo(12, 8) = 16: the u32
/// region 16 + 4t, then the f64 region 16 + 64*4 + 8t), which ptr<local>
/// accesses to the same addresses observe.
TEST(ISelExec, PrivateVariables) {
  ExecKernel K;
  K.NumIn = 2;
  K.Threads = 64;
  K.Attrs = " local_memory(12)";
  K.Body = R"(  %s = alloca u32
  %d = alloca f64
  %z = load u32, ptr<private> %s
  %zd = load f64, ptr<private> %d
  %l4 = shl u32 %t, 2
  %la = add u32 %l4, 16
  %lp = bitcast u32 %la to ptr<local>
  %junk = xor u32 %in0, 0x5A5A5A5A
  store u32 %junk, ptr<local> %lp
  %a1 = load u32, ptr<private> %s
  store u32 %in0, ptr<private> %s
  %a2 = load u32, ptr<local> %lp
  store_u8 u32 %in1, ptr<private> %s
  %v = load u32, ptr<private> %s
  %h = load_u16 u32, ptr<private> %s
  %f = cvt u32 %in1 to f32
  %g = cvt f32 %f to f64
  store f64 %g, ptr<private> %d
  %e = load f64, ptr<private> %d
  %l8 = shl u32 %t, 3
  %da = add u32 %l8, 272
  %dp = bitcast u32 %da to ptr<local>
  %dlo = load u32, ptr<local> %dp
  %dp4 = ptradd ptr<local> %dp, 4
  %dhi = load u32, ptr<local> %dp4
)";
  K.Outs = {{"zd", "f64"}, {"e", "f64"},  {"z", "u32"},   {"a1", "u32"},
            {"a2", "u32"}, {"v", "u32"},  {"h", "u32"},   {"dlo", "u32"},
            {"dhi", "u32"}, {"t", "u32"}};
  std::mt19937 Rng(9);
  std::vector<uint32_t> In;
  for (unsigned T = 0; T != K.Threads; ++T)
    In.insert(In.end(), {uint32_t(Rng()), uint32_t(Rng())});
  ExecResult R = runKernel(K, In);
  ASSERT_TRUE(R.Ok);
  EXPECT_NE(R.Asm.find(".local_memory 784"), std::string::npos) << R.Asm;
  for (unsigned T = 0; T != K.Threads; ++T) {
    uint32_t A = In[2 * T], B = In[2 * T + 1];
    uint64_t G = std::bit_cast<uint64_t>(double(float(B)));
    uint32_t V = (A & 0xFFFFFF00u) | (B & 0xFF);
    uint32_t Want[] = {0,      0,         uint32_t(G), uint32_t(G >> 32),
                       0,      A ^ 0x5A5A5A5Au,        A,
                       V,      V & 0xFFFF, uint32_t(G), uint32_t(G >> 32),
                       T};
    for (unsigned W = 0; W != std::size(Want); ++W)
      EXPECT_EQ(R.at(T, W), Want[W]) << "word " << W << " thread " << T;
  }
}

TEST(ISelExec, DeviceAtomics) {
  ExecKernel K;
  K.NumIn = 1;
  K.Threads = 32;
  // Thread t's input word holds 0 (thread 0: a counter) and is the target.
  K.Body = R"(  %p = bitcast u32 0 to ptr<device>
  %old = atomic_add device u32, ptr<device> %p, 2
  %q = ptradd ptr<device> %p, 4
  %cas = atomic_cas device u32, ptr<device> %q, 0, %t
  %r = ptradd ptr<device> %p, 8
  atomic_max device u32, ptr<device> %r, %t
  %m = atomic_min workgroup u32, ptr<device> %r, 100
  %s = ptradd ptr<device> %p, 12
  %x = atomic_exchange system u32, ptr<device> %s, %t
  %final = load u32, ptr<device> %p
)";
  K.Outs = {{"old", "u32"}, {"cas", "u32"}, {"m", "u32"}, {"x", "u32"},
            {"final", "u32"}};
  std::vector<uint32_t> In(32, 0);
  ExecResult R = runKernel(K, In);
  ASSERT_TRUE(R.Ok) << R.Asm;
  // Each atomic runs over all lanes in ascending lane order (formats/isa.md
  // §4.13).
  for (unsigned T = 0; T != 32; ++T) {
    EXPECT_EQ(R.at(T, 0), 2 * T);
    // cas(0 -> t): lane 0 writes 0, lane 1 writes 1, later lanes see 1.
    EXPECT_EQ(R.at(T, 1), T <= 1 ? 0u : 1u) << T;
    // The max left 31, which min(., 100) returns and keeps.
    EXPECT_EQ(R.at(T, 2), 31u) << T;
    EXPECT_EQ(R.at(T, 3), T == 0 ? 0u : T - 1) << T;
    EXPECT_EQ(R.at(T, 4), 64u);
  }
}

} // namespace
