//===- IRTest.cpp - MIR data structures, parser, printer, verifier --------===//
//
// Library-level tests of the IR area: the MIROps.def and Passes.def tables,
// use lists, the parse/print round trip, CFG and dominators (hand-computed
// expectations), the verifier's messages for IR built by a pass (no source
// locations), and the pass manager's --verify-each hook.
//
//===----------------------------------------------------------------------===//
#include "wave/IR/Dominators.h"
#include "wave/IR/MIR.h"
#include "wave/IR/MIRParser.h"
#include "wave/IR/MIRPrinter.h"
#include "wave/IR/Verifier.h"
#include "wave/Support/SourceDiagnostic.h"
#include "wave/Transforms/Pass.h"

#include "llvm/ADT/StringSet.h"

#include <gtest/gtest.h>

#include <map>

using namespace llvm;
using namespace wave::mir;

namespace {

std::string print(const Module &M) {
  std::string S;
  raw_string_ostream OS(S);
  printModule(M, OS);
  return S;
}

/// Parses \p Text, failing the test with the diagnostics if it does not.
std::unique_ptr<Module> parse(StringRef Text, SourceMgr &SM) {
  auto M = parseMIRString(Text, SM);
  if (!M) {
    ADD_FAILURE() << toString(M.takeError());
    return nullptr;
  }
  return std::move(*M);
}

std::string errorText(Error E) {
  std::string S;
  handleAllErrors(std::move(E),
                  [&](const ErrorInfoBase &EI) { S += EI.message() + "\n"; });
  return S;
}

BasicBlock *blockNamed(const Function &F, StringRef Name) {
  for (const auto &BB : F.blocks())
    if (BB->name() == Name)
      return BB.get();
  return nullptr;
}

TEST(IRTables, OpcodeNamesAreUniqueAndLookUp) {
  StringSet<> Seen;
  for (unsigned I = 0; I < NumOpcodes; ++I) {
    const OpDesc &D = opDesc(Opcode(I));
    EXPECT_TRUE(Seen.insert(D.Name).second) << D.Name;
    auto Back = lookupOpcode(D.Name);
    ASSERT_TRUE(Back.has_value()) << D.Name;
    EXPECT_EQ(unsigned(*Back), I);
    // Terminators produce nothing the DCE could drop and end blocks.
    if (D.Flags & OF_Term)
      EXPECT_TRUE(D.Shp == Shape::Br || D.Shp == Shape::CondBr ||
                  D.Shp == Shape::Ret);
  }
  EXPECT_FALSE(lookupOpcode("frob").has_value());
}

TEST(IRTables, TypeNamesRoundTrip) {
  for (unsigned I = 0; I < NumTypes; ++I)
    EXPECT_EQ(parseTypeName(typeName(Type(I))), Type(I));
  EXPECT_EQ(typeBits(Type::F64), 64u);
  EXPECT_EQ(typeBits(Type::PtrLocal), 32u);
  EXPECT_FALSE(parseTypeName("ptr<global>").has_value());
}

TEST(IRTables, PassesAreUniqueAndSorted) {
  ArrayRef<PassInfo> P = registeredPasses();
  ASSERT_FALSE(P.empty());
  for (unsigned I = 1; I < P.size(); ++I)
    EXPECT_LT(P[I - 1].Name, P[I].Name);
  for (const PassInfo &Info : P) {
    EXPECT_EQ(Info.Create()->name(), Info.Name);
    EXPECT_EQ(lookupPass(Info.Name), &Info);
  }
  // Every pass of every level is registered.
  for (unsigned L = 0; L <= 3; ++L)
    for (StringRef N : optLevelPasses(L))
      EXPECT_NE(lookupPass(N), nullptr) << N.str();
  EXPECT_TRUE(optLevelPasses(0).empty());
}

TEST(IRTables, SpecialRegistersFollowTheISA) {
  // formats/isa.md §3: index 0 is sr_thread_id_x, 4 is sr_lane_id, 19 is
  // sr_mma_k.
  EXPECT_EQ(specialRegName(0), "thread_id_x");
  EXPECT_EQ(specialRegName(4), "lane_id");
  EXPECT_EQ(specialRegName(19), "mma_k");
  EXPECT_EQ(specialRegName(20), "");
  EXPECT_EQ(parseSpecialReg("workgroup_size_y"), 9u);
}

TEST(IRCore, UseListsFollowOperandEdits) {
  Module M;
  Function *F = M.addFunction("f", false, Type::U32);
  Argument *X = F->addArgument(Type::U32, "x");
  BasicBlock *BB = F->addBlock("entry");
  auto A = Instruction::create(Opcode::Add, Type::U32);
  A->addOperand(X);
  A->addOperand(F->constant(Type::U32, 1));
  Instruction *AI = BB->append(std::move(A));
  auto B = Instruction::create(Opcode::Mul, Type::U32);
  B->addOperand(AI);
  B->addOperand(AI);
  Instruction *BI = BB->append(std::move(B));
  auto R = Instruction::create(Opcode::Ret, Type::Void);
  R->addOperand(BI);
  BB->append(std::move(R));

  EXPECT_EQ(X->numUses(), 1u);
  EXPECT_EQ(AI->numUses(), 2u);
  EXPECT_EQ(F->constant(Type::U32, 1), AI->operand(1)); // uniqued
  BI->replaceAllUsesWith(AI);
  EXPECT_FALSE(BI->hasUses());
  EXPECT_EQ(AI->numUses(), 3u);
  BI->eraseFromParent();
  EXPECT_EQ(AI->numUses(), 1u);
  EXPECT_FALSE(verifyFunction(*F)) << "valid after the edits";
}

TEST(IRCore, RemoveOperandRenumbersUses) {
  SourceMgr SM;
  auto M = parse(R"(func @f(i1 %c, u32 %a, u32 %b) -> u32 {
^entry:
  condbr %c, ^l, ^r

^l:
  br ^j

^r:
  br ^j

^j:
  %p = phi u32 [%a, ^l], [%b, ^r]
  ret u32 %p
}
)",
                 SM);
  ASSERT_TRUE(M);
  Function &F = *M->functions()[0];
  Instruction &Phi = blockNamed(F, "j")->front();
  Phi.removeOperand(0);
  ASSERT_EQ(Phi.numOperands(), 1u);
  EXPECT_EQ(Phi.block(0), blockNamed(F, "r"));
  ASSERT_EQ(F.arg(2)->numUses(), 1u);
  EXPECT_EQ(F.arg(2)->uses()[0].OpNo, 0u);
  EXPECT_FALSE(F.arg(1)->hasUses());
}

TEST(IRText, PrintIsAFixedPoint) {
  const char *Text =
      R"(kernel @k(ptr<device> %p, u32 %n) workgroup_size(32, 1, 1) local_memory(64) {
^entry:
  %0 = sreg lane_id
  %c = icmp lt u32 %0, %n
  condbr %c, ^0, ^exit

^0:
  %v = cvt u32 %0 to f32
  %w = fmul f32 %v, 0.5
  %b = bitcast f32 %w to u32
  store u32 %b, ptr<device> %p
  br ^exit

^exit:
  ret
}
)";
  SourceMgr SM;
  auto M = parse(Text, SM);
  ASSERT_TRUE(M);
  EXPECT_FALSE(verifyModule(*M));
  EXPECT_EQ(print(*M), Text);
}

TEST(IRText, ParserReportsLocations) {
  SourceMgr SM;
  auto M = parseMIRString("func @f() {\n^e:\n  %x = add u32 %y, 1\n  ret\n}\n",
                          SM, "t.wir");
  ASSERT_FALSE(M);
  std::string Out;
  raw_string_ostream OS(Out);
  EXPECT_EQ(wave::printSourceDiagnostics(M.takeError(), SM, "wave-opt", OS),
            1u);
  EXPECT_NE(Out.find("t.wir:3:16: error: use of undefined value '%y'"),
            std::string::npos)
      << Out;
}

TEST(IRText, NoCrashOnAnyPrefix) {
  // Every prefix of a valid module is parsed and (if it parses) verified
  // without crashing; a poor man's fuzzer that always runs.
  std::string Text = R"(func @g(u32 %v) -> u32 {
^entry:
  %r = wave_shuffle_xor u32 %v, 1
  ret u32 %r
}

kernel @k(ptr<device> %p, u32 %n) {
^entry:
  br ^loop

^loop:
  %i = phi u32 [0, ^entry], [%j, ^loop]
  %j = add u32 %i, 1
  %q = call u32 @g(u32 %j)
  %old = atomic_cas device u32, ptr<device> %p, %q, 7
  %more = icmp lt u32 %j, %n
  condbr %more, ^loop, ^exit

^exit:
  ret
}
)";
  for (size_t Len = 0; Len <= Text.size(); ++Len) {
    SourceMgr SM;
    auto M = parseMIRString(StringRef(Text).take_front(Len), SM);
    if (!M) {
      consumeError(M.takeError());
      continue;
    }
    consumeError(verifyModule(**M));
  }
}

TEST(IRAnalysis, DominatorsOfDiamondAndLoop) {
  // entry -> a | b; a -> join; b -> join; join -> loop; loop -> loop | exit.
  SourceMgr SM;
  auto M = parse(R"(func @f(i1 %c) {
^entry:
  condbr %c, ^a, ^b
^a:
  br ^join
^b:
  br ^join
^join:
  br ^loop
^loop:
  condbr %c, ^loop, ^exit
^exit:
  ret
^dead:
  br ^exit
}
)",
                 SM);
  ASSERT_TRUE(M);
  Function &F = *M->functions()[0];
  auto B = [&](StringRef N) { return blockNamed(F, N); };
  CFG G(F);
  DominatorTree DT(G);
  EXPECT_EQ(G.reversePostOrder().front(), B("entry"));
  EXPECT_FALSE(G.isReachable(B("dead")));
  EXPECT_EQ(DT.idom(B("a")), B("entry"));
  EXPECT_EQ(DT.idom(B("join")), B("entry"));
  EXPECT_EQ(DT.idom(B("loop")), B("join"));
  EXPECT_EQ(DT.idom(B("exit")), B("loop"));
  EXPECT_EQ(DT.idom(B("entry")), nullptr);
  EXPECT_TRUE(DT.dominates(B("entry"), B("exit")));
  EXPECT_TRUE(DT.dominates(B("loop"), B("loop")));
  EXPECT_FALSE(DT.dominates(B("a"), B("join")));
  EXPECT_FALSE(DT.dominates(B("dead"), B("exit")));
  EXPECT_FALSE(DT.dominates(B("entry"), B("dead")));

  DominanceFrontier DF(DT);
  ASSERT_EQ(DF.frontier(B("a")).size(), 1u);
  EXPECT_EQ(DF.frontier(B("a"))[0], B("join"));
  ASSERT_EQ(DF.frontier(B("loop")).size(), 1u);
  EXPECT_EQ(DF.frontier(B("loop"))[0], B("loop"));
  EXPECT_TRUE(DF.frontier(B("entry")).empty());
  EXPECT_TRUE(DF.frontier(B("exit")).empty());
}

/// A deliberately wrong pass: makes the first `ret` of a function that
/// returns a value return nothing.
class BreakerPass : public Pass {
public:
  StringRef name() const override { return "breaker"; }
  bool runOnFunction(Function &F, PassStats &) override {
    for (const auto &BB : F.blocks())
      if (Instruction *T = BB->terminator())
        if (T->opcode() == Opcode::Ret && T->numOperands()) {
          T->removeOperand(0);
          return true;
        }
    return false;
  }
};

TEST(IRPasses, VerifyEachNamesPassFunctionBlockInstruction) {
  SourceMgr SM;
  auto M = parse("func @f(u32 %x) -> u32 {\n^entry:\n  ret u32 %x\n}\n", SM);
  ASSERT_TRUE(M);
  Pipeline P;
  P.push_back(std::make_unique<BreakerPass>());
  PipelineOptions Opts;
  Opts.VerifyEach = true;
  PassStats S;
  std::string Msg = errorText(runPipeline(*M, P, Opts, S));
  EXPECT_NE(Msg.find("after pass 'breaker': function '@f', block '^entry', "
                     "instruction 'ret': '@f' returns 'u32'; 'ret' needs a "
                     "value"),
            std::string::npos)
      << Msg;
  // Without --verify-each the broken IR goes through unnoticed.
  auto M2 = parse("func @f(u32 %x) -> u32 {\n^entry:\n  ret u32 %x\n}\n", SM);
  EXPECT_FALSE(runPipeline(*M2, P, PipelineOptions(), S));
}

TEST(IRPasses, PipelineParsing) {
  auto P = parsePipeline("dce,cse");
  ASSERT_TRUE(bool(P));
  ASSERT_EQ(P->size(), 2u);
  EXPECT_EQ((*P)[1]->name(), "cse");
  EXPECT_NE(errorText(parsePipeline("dce,nope").takeError())
                .find("unknown pass 'nope'"),
            std::string::npos);
  EXPECT_NE(errorText(parsePipeline("").takeError()).find("empty pass name"),
            std::string::npos);
}

TEST(IRPasses, StatisticsCountWork) {
  SourceMgr SM;
  auto M = parse(R"(func @f(u32 %x) -> u32 {
^entry:
  %a = add u32 %x, 1
  %b = add u32 1, %x
  %dead = mul u32 %a, %b
  ret u32 %b
}
)",
                 SM);
  ASSERT_TRUE(M);
  auto P = parsePipeline("cse,dce");
  ASSERT_TRUE(bool(P));
  PassStats S;
  PipelineOptions Opts;
  Opts.VerifyEach = true;
  ASSERT_FALSE(runPipeline(*M, *P, Opts, S));
  EXPECT_EQ(S.get("cse", "instructions eliminated"), 1u);
  EXPECT_EQ(S.get("dce", "instructions removed"), 1u);
  EXPECT_EQ(print(*M), "func @f(u32 %x) -> u32 {\n^entry:\n  %a = add u32 %x, "
                       "1\n  ret u32 %a\n}\n");
}

} // namespace

namespace {

/// Evaluates a straight-line, single-block function of one u32/i32
/// argument built from the integer operations strength-reduce emits, with
/// WAVE semantics (formats/isa.md §4.5, §4.6; formats/mir.md "Semantics the
/// optimizer relies on": division by zero gives 0, INT_MIN / -1 is INT_MIN
/// and its remainder 0). Independent of the SCCP folder.
uint32_t evalStraightLine(const Function &F, uint32_t Arg) {
  std::map<const Value *, uint32_t> V;
  V[F.arg(0)] = Arg;
  auto Get = [&](const Value *X) {
    if (const auto *C = dyn_cast<Constant>(X))
      return uint32_t(C->bits());
    return V.at(X);
  };
  for (const Instruction &I : F.entry()->insts()) {
    if (I.opcode() == Opcode::Ret)
      return Get(I.operand(0));
    uint32_t A = Get(I.operand(0));
    uint32_t B = I.numOperands() > 1 ? Get(I.operand(1)) : 0;
    bool Signed = I.type() == Type::I32;
    uint32_t R = 0;
    switch (I.opcode()) {
    case Opcode::Add:
      R = A + B;
      break;
    case Opcode::Sub:
      R = A - B;
      break;
    case Opcode::Mul:
      R = A * B;
      break;
    case Opcode::Neg:
      R = 0u - A;
      break;
    case Opcode::Shl:
      R = A << (B & 31);
      break;
    case Opcode::LShr:
      R = A >> (B & 31);
      break;
    case Opcode::AShr:
      R = uint32_t(int32_t(A) >> (B & 31));
      break;
    case Opcode::And:
      R = A & B;
      break;
    case Opcode::MulHi:
      R = Signed ? uint32_t(uint64_t(int64_t(int32_t(A)) * int32_t(B)) >> 32)
                 : uint32_t((uint64_t(A) * B) >> 32);
      break;
    case Opcode::Bitcast:
      R = A;
      break;
    case Opcode::Cvt: // i1 -> i32/u32
      EXPECT_EQ(I.auxType(), Type::I1);
      R = A & 1;
      break;
    case Opcode::ICmp:
      EXPECT_EQ(I.cmpPred(), CmpPred::Eq);
      R = A == B;
      break;
    case Opcode::Select:
      R = (A & 1) ? B : Get(I.operand(2));
      break;
    case Opcode::Div:
    case Opcode::Rem: {
      bool IsDiv = I.opcode() == Opcode::Div;
      if (B == 0)
        R = 0;
      else if (!Signed)
        R = IsDiv ? A / B : A % B;
      else if (A == 0x80000000u && B == 0xFFFFFFFFu)
        R = IsDiv ? A : 0;
      else
        R = IsDiv ? uint32_t(int32_t(A) / int32_t(B))
                  : uint32_t(int32_t(A) % int32_t(B));
      break;
    }
    default:
      ADD_FAILURE() << "unexpected " << I.desc().Name;
    }
    V[&I] = R;
  }
  ADD_FAILURE() << "no ret";
  return 0;
}

TEST(IRPasses, StrengthReductionKeepsQuotientsAndRemainders) {
  const uint32_t Xs[] = {0,          1,          2,           3,
                         7,          9,          10,          99,
                         1000,       65535,      65536,       123456789,
                         0x7FFFFFFF, 0x80000000, 0x80000001,  0xFFFFFFFE,
                         0xFFFFFFFF, 0xDEADBEEF, 4294967286u, 641};
  struct Case {
    const char *Op, *Ty;
    uint32_t D;
  };
  std::vector<Case> Cases;
  for (uint32_t D :
       {1u, 2u, 3u, 5u, 6u, 7u, 10u, 12u, 25u, 641u, 1000u, 0x10000u,
        0x7FFFFFFFu, 0x80000000u, 0x80000001u, 0xFFFFFFFFu}) {
    Cases.push_back({"div", "u32", D});
    Cases.push_back({"rem", "u32", D});
    Cases.push_back({"mul", "u32", D});
  }
  // Signed divisors: every sign, powers of two, -1, INT_MIN, the largest
  // magnitudes, divisors whose magic number is negative (7, -7, 641) or
  // needs no shift, and a pseudo-random sample.
  std::vector<int32_t> SignedDs = {
      1,         2,          4,          8,          1024,        1 << 30,
      -1,        INT32_MIN,  -2,         -4,         -1024,       -(1 << 30),
      3,         -3,         5,          -5,         6,           -6,
      7,         -7,         10,         -10,        12,          25,
      100,       -100,       641,        -641,       1000,        -1000,
      INT32_MAX, -INT32_MAX, 0x40000001, 1000000007, -1000000007, 0x55555555};
  uint32_t Seed = 12345;
  auto Next = [&] { // Numerical Recipes LCG
    Seed = Seed * 1664525u + 1013904223u;
    return Seed;
  };
  for (int I = 0; I < 24; ++I) {
    uint32_t R = Next();
    SignedDs.push_back(int32_t(R >> (R & 31))); // all magnitudes
  }
  for (int32_t D : SignedDs)
    if (D != 0)
      for (const char *Op : {"div", "rem", "mul"})
        Cases.push_back({Op, "i32", uint32_t(D)});
  for (int I = 0; I < 16; ++I) {
    uint32_t R = Next() >> (I & 31);
    if (R > 1) {
      Cases.push_back({"div", "u32", R});
      Cases.push_back({"rem", "u32", R});
    }
  }
  // Inputs: the edge values plus a pseudo-random sample of every magnitude.
  std::vector<uint32_t> Inputs(std::begin(Xs), std::end(Xs));
  for (uint32_t X : {0x80000000u, 0x80000002u, 0xC0000000u, 0x3FFFFFFFu,
                     0x40000000u, 0xFFFFFFF9u, 0xFFFFFC18u, 6u, 14u, 21u})
    Inputs.push_back(X);
  for (int I = 0; I < 400; ++I) {
    uint32_t R = Next();
    Inputs.push_back(R >> (I & 31));
  }
  auto P = parsePipeline("strength-reduce");
  ASSERT_TRUE(bool(P));
  for (const Case &C : Cases) {
    std::string Text =
        std::string("func @f(") + C.Ty + " %x) -> " + C.Ty +
        " {\n^entry:\n  %q = " + C.Op + " " + C.Ty + " %x, " +
        std::to_string(C.Ty[0] == 'i' ? int64_t(int32_t(C.D)) : int64_t(C.D)) +
        "\n  ret " + C.Ty + " %q\n}\n";
    SourceMgr SM1, SM2;
    auto Ref = parse(Text, SM1), Opt = parse(Text, SM2);
    ASSERT_TRUE(Ref && Opt) << Text;
    PassStats S;
    PipelineOptions Opts;
    Opts.VerifyEach = true;
    ASSERT_FALSE(runPipeline(*Opt, *P, Opts, S)) << Text;
    // Every division and remainder by a non-zero constant is reduced, and
    // only the unsigned high product (the one WAVE has) is emitted.
    for (const Instruction &I : Opt->functions()[0]->entry()->insts()) {
      EXPECT_TRUE(I.opcode() != Opcode::Div && I.opcode() != Opcode::Rem)
          << print(*Opt);
      EXPECT_TRUE(I.opcode() != Opcode::MulHi || I.type() == Type::U32)
          << print(*Opt);
    }
    for (uint32_t X : Inputs) {
      // The reference follows WAVE: no trap on INT_MIN / -1.
      EXPECT_EQ(evalStraightLine(*Opt->functions()[0], X),
                evalStraightLine(*Ref->functions()[0], X))
          << C.Op << ' ' << C.Ty << " x=" << X << " d=" << C.D << "\n"
          << print(*Opt);
    }
  }
}

} // namespace
