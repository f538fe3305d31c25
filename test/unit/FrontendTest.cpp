//===- FrontendTest.cpp - Unit tests of the frontend library --------------===//
//
// The parts of wave-fe below the tools: the number scanner the four
// tokenizers share, language and intrinsic lookup, and Sema + lowering
// driven through the C++ dialect (which stands for all four here; the
// dialects' own rules are tested by test/lit/fe/). Expected values are
// worked out by hand from formats/kernel-languages.md.
//
//===----------------------------------------------------------------------===//
#include "wave/Frontend/Frontend.h"
#include "wave/Frontend/NumberLiteral.h"
#include "wave/HIR/HIRPrinter.h"
#include "wave/HIR/Lowering.h"
#include "wave/HIR/Sema.h"
#include "wave/IR/MIRPrinter.h"
#include "wave/IR/Verifier.h"
#include "wave/Support/SourceDiagnostic.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace wave;
using namespace wave::fe;
using namespace wave::hir;

namespace {

TEST(NumberLiteralTest, IntegersInEveryRadix) {
  auto N = scanNumber("0x1F+", DigitSeparator::Underscore, false);
  EXPECT_FALSE(N.IsFloat);
  EXPECT_EQ(N.IntValue, 31u);
  EXPECT_EQ(N.Length, 4u);
  EXPECT_EQ(scanNumber("0b1010", DigitSeparator::Underscore, false).IntValue,
            10u);
  EXPECT_EQ(scanNumber("0o17", DigitSeparator::Underscore, false).IntValue,
            15u);
  EXPECT_EQ(scanNumber("017", DigitSeparator::Apostrophe, true).IntValue, 15u);
  EXPECT_EQ(scanNumber("1_000_000", DigitSeparator::Underscore, false).IntValue,
            1000000u);
  EXPECT_EQ(scanNumber("1'000", DigitSeparator::Apostrophe, true).IntValue,
            1000u);
}

TEST(NumberLiteralTest, FloatsAndSuffixes) {
  auto F = scanNumber("1.5e3f;", DigitSeparator::Apostrophe, true);
  EXPECT_TRUE(F.IsFloat);
  EXPECT_EQ(F.FloatValue, 1500.0);
  EXPECT_EQ(F.Suffix, "f");
  EXPECT_EQ(F.Length, 6u);
  auto R = scanNumber("2.0f32", DigitSeparator::Underscore, false);
  EXPECT_EQ(R.Suffix, "f32");
  auto U = scanNumber("10u32", DigitSeparator::Underscore, false);
  EXPECT_FALSE(U.IsFloat);
  EXPECT_EQ(U.IntValue, 10u);
  EXPECT_EQ(U.Suffix, "u32");
  auto E = scanNumber("1.e5 ", DigitSeparator::Underscore, false);
  EXPECT_TRUE(E.IsFloat);
  EXPECT_EQ(E.FloatValue, 100000.0);
  EXPECT_EQ(E.Length, 4u);
  // "1.sqrt" is not a float: the scanner stops before the '.'.
  EXPECT_EQ(scanNumber("1.sqrt", DigitSeparator::Underscore, false).Length,
            1u);
  // 0.1 is the binary64 nearest to one tenth.
  EXPECT_EQ(scanNumber(".1", DigitSeparator::Underscore, false).FloatValue, 0.1);
}

TEST(NumberLiteralTest, RangesAndErrors) {
  // Rust "0..n": the integer stops before the range operator.
  auto N = scanNumber("0..n", DigitSeparator::Underscore, false);
  EXPECT_FALSE(N.IsFloat);
  EXPECT_EQ(N.Length, 1u);
  EXPECT_FALSE(scanNumber("0x", DigitSeparator::Underscore, false)
                   .Error.empty());
  EXPECT_FALSE(scanNumber("09", DigitSeparator::Apostrophe, true).Error.empty());
  EXPECT_TRUE(scanNumber("99999999999999999999", DigitSeparator::Underscore,
                         false)
                  .Overflow);
}

TEST(LanguageTest, NamesAndExtensions) {
  EXPECT_EQ(languageForPath("a/b/k.rs"), Language::Rust);
  EXPECT_EQ(languageForPath("k.cc"), Language::Cpp);
  EXPECT_EQ(languageForPath("k.ts"), Language::TypeScript);
  EXPECT_EQ(languageForPath("-"), std::nullopt);
  EXPECT_EQ(parseLanguageName("py"), Language::Python);
  EXPECT_EQ(parseLanguageName("c++"), Language::Cpp);
  EXPECT_EQ(parseLanguageName("go"), std::nullopt);
}

TEST(IntrinsicTest, WavePrefixOnlyForWaveOperations) {
  EXPECT_EQ(lookupIntrinsic("reduce_add"), IntrinsicId::ReduceAdd);
  EXPECT_EQ(lookupIntrinsic("wave_reduce_add"), IntrinsicId::ReduceAdd);
  EXPECT_EQ(lookupIntrinsic("wave_width"), IntrinsicId::WaveWidth);
  EXPECT_EQ(lookupIntrinsic("wave_sqrt"), IntrinsicId::None);
  EXPECT_EQ(lookupIntrinsic("sqrt"), IntrinsicId::Sqrt);
  EXPECT_EQ(intrinsicName(IntrinsicId::GlobalId), "global_id");
  EXPECT_EQ(intrinsicKind(IntrinsicId::AtomicCas), IntrinsicKind::AtomicCas);
  EXPECT_EQ(lookupIntrinsic("mma_store_c"), IntrinsicId::MmaStoreC);
  EXPECT_EQ(lookupIntrinsic("wave_mma_compute"), IntrinsicId::None);
  EXPECT_EQ(intrinsicKind(IntrinsicId::MmaLoadB), IntrinsicKind::MmaLoad);
}

/// Parses and checks C++ source; returns the diagnostics text ("" if none)
/// and, through \p Out, the lowered MIR text when checking succeeded.
std::string compile(llvm::StringRef Src, std::string *Out = nullptr) {
  llvm::SourceMgr SM;
  unsigned ID = SM.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(Src, "t.cpp"), llvm::SMLoc());
  DiagnosticEngine Diags;
  auto M = parseCpp(SM, ID, Diags);
  if (!Diags.hasErrors() && checkModule(*M, Diags) && Out) {
    auto MM = lowerModule(*M, LoweringOptions());
    if (llvm::Error E = mir::verifyModule(*MM))
      return "verifier: " + llvm::toString(std::move(E));
    llvm::raw_string_ostream OS(*Out);
    mir::printModule(*MM, OS);
  }
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  printSourceDiagnostics(Diags.takeError(), SM, "test", OS);
  return Text;
}

TEST(SemaTest, LiteralsAdoptTheirContext) {
  std::string MIR;
  EXPECT_EQ(compile("__kernel void k(float* p, uint32_t n) {\n"
                    "  p[0] = p[1] * 2;\n"   // 2 becomes 2.0f, not f64
                    "  uint32_t m = n + 1;\n" // 1 becomes u32
                    "  p[m] = 0.5f;\n"
                    "}\n",
                    &MIR),
            "");
  EXPECT_NE(MIR.find("fmul f32 %"), std::string::npos) << MIR;
  EXPECT_NE(MIR.find(", 2.0"), std::string::npos) << MIR;
  EXPECT_NE(MIR.find("add u32 %n, 1"), std::string::npos) << MIR;
  EXPECT_EQ(MIR.find("f64"), std::string::npos) << MIR;
}

TEST(SemaTest, CppPromotesMixedOperands) {
  std::string MIR;
  // int + unsigned is unsigned in C++; the int converts by bitcast.
  EXPECT_EQ(compile("__kernel void k(uint32_t* p, int a, uint32_t b) {\n"
                    "  p[0] = a + b;\n"
                    "}\n",
                    &MIR),
            "");
  EXPECT_NE(MIR.find("bitcast i32 %a to u32"), std::string::npos) << MIR;
}

TEST(SemaTest, ReportsEveryErrorWithLocations) {
  std::string D = compile("__kernel void k(const float* p, int n) {\n"
                          "  p[0] = 1.0f;\n"
                          "  q = 2;\n"
                          "  int x = n / 2;\n"
                          "  x = atomic_min(p, 0, 1);\n"
                          "}\n");
  EXPECT_NE(D.find("t.cpp:2:8: error: cannot store to read-only buffer 'p'"),
            std::string::npos)
      << D;
  EXPECT_NE(D.find("note: 'p' is declared here"), std::string::npos) << D;
  EXPECT_NE(D.find("t.cpp:3:3: error: use of undeclared name 'q'"),
            std::string::npos)
      << D;
  EXPECT_NE(D.find("'atomic_min' needs i32 or u32 elements"),
            std::string::npos)
      << D;
}

TEST(SemaTest, RecursionAndMissingReturns) {
  std::string D = compile("int f(int x) { return f(x - 1); }\n"
                          "int g(int x) { if (x > 0) { return 1; } }\n"
                          "__kernel void k(int* p) { p[0] = f(1) + g(2); }\n");
  EXPECT_NE(D.find("recursive call to 'f'"), std::string::npos) << D;
  EXPECT_NE(D.find("'g' may reach its end without returning"),
            std::string::npos)
      << D;
}

TEST(SemaTest, BarrierUnderThreadDependentControlFlow) {
  std::string D = compile("__kernel void k(float* p) {\n"
                          "  uint32_t t = thread_id();\n"
                          "  uint32_t u = t * 2;\n"
                          "  if (u < 64) {\n"
                          "    barrier();\n"
                          "  }\n"
                          "}\n");
  EXPECT_NE(D.find("t.cpp:5:5: error: barrier() under control flow that "
                   "depends on the thread"),
            std::string::npos)
      << D;
  EXPECT_NE(D.find("t.cpp:4:9: note: this condition depends on the thread"),
            std::string::npos)
      << D;
  // A uniform condition is fine.
  EXPECT_EQ(compile("__kernel void k(float* p, uint32_t n) {\n"
                    "  if (n > 4) { barrier(); }\n"
                    "}\n"),
            "");
}

TEST(LoweringTest, LoopVariablesBecomePhis) {
  std::string MIR;
  ASSERT_EQ(compile("__kernel void k(uint32_t* p, uint32_t n) {\n"
                    "  uint32_t s = 0;\n"
                    "  for (uint32_t i = 0; i < n; i++) { s += i; }\n"
                    "  p[0] = s;\n"
                    "}\n",
                    &MIR),
            "");
  // Braun et al.: one phi per variable changed in the loop, none in the
  // exit (its only predecessor is the header), no alloca at all.
  EXPECT_NE(MIR.find("%s = phi u32"), std::string::npos) << MIR;
  EXPECT_NE(MIR.find("%i = phi u32"), std::string::npos) << MIR;
  EXPECT_EQ(MIR.find("alloca"), std::string::npos) << MIR;
  size_t Phis = 0;
  for (size_t P = MIR.find("= phi"); P != std::string::npos;
       P = MIR.find("= phi", P + 1))
    ++Phis;
  EXPECT_EQ(Phis, 2u) << MIR;
}

TEST(LoweringTest, ShortCircuitBranchesInsteadOfComputingBools) {
  std::string MIR;
  ASSERT_EQ(compile("__kernel void k(int* p, int n) {\n"
                    "  if (n > 0 && p[n] > 0) { p[0] = 1; }\n"
                    "}\n",
                    &MIR),
            "");
  // p[n] is loaded only on the and.rhs path.
  size_t Rhs = MIR.find("^and.rhs:");
  ASSERT_NE(Rhs, std::string::npos) << MIR;
  EXPECT_GT(MIR.find("load i32"), Rhs) << MIR;
  EXPECT_EQ(MIR.find("and i1"), std::string::npos) << MIR;
}

/// Parses, checks and lowers C++ source with locations; null on an error.
std::unique_ptr<mir::Module> lowerCpp(llvm::SourceMgr &SM, llvm::StringRef Src,
                                     std::string OnlyKernel = "") {
  unsigned ID = SM.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(Src, "t.cpp"), llvm::SMLoc());
  DiagnosticEngine Diags;
  auto M = parseCpp(SM, ID, Diags);
  if (Diags.hasErrors() || !checkModule(*M, Diags)) {
    llvm::consumeError(Diags.takeError());
    return nullptr;
  }
  LoweringOptions Opts;
  Opts.SM = &SM;
  Opts.SourceFile = "t.cpp";
  Opts.OnlyKernel = OnlyKernel;
  return lowerModule(*M, Opts);
}

TEST(FrontendLinkageTest, DeclarationsExportsAndBufferAccess) {
  llvm::SourceMgr SM;
  // Hand-worked accesses (formats/kernel-languages.md §8): a reads only,
  // b is only stored to, c goes to a writable declared parameter (read
  // and written), d to a const one (read), e is unused (readonly), f is
  // only written through put(), g gets an atomic (read and written).
  auto MM = lowerCpp(SM,
                     "float ext(float* p, const float* q);\n"
                     "[[wave::export]] float twice(float x) { return 2 * x; }\n"
                     "void put(float* o, uint32_t i) { o[i] = 1.0f; }\n"
                     "__kernel void k(float* a, float* b, float* c, float* d,\n"
                     "                float* e, float* f, uint32_t* g) {\n"
                     "  b[0] = a[0] + ext(c, d);\n"
                     "  put(f, 0);\n"
                     "  atomic_add(g, 0, 1u);\n"
                     "}\n");
  ASSERT_TRUE(MM);
  EXPECT_EQ(MM->SourceFile, "t.cpp");
  mir::Function *Ext = MM->function("ext");
  ASSERT_TRUE(Ext);
  EXPECT_TRUE(Ext->isDeclaration());
  EXPECT_TRUE(Ext->blocks().empty());
  EXPECT_FALSE(Ext->arg(0)->ReadOnly);
  EXPECT_TRUE(Ext->arg(1)->ReadOnly); // const float*
  EXPECT_EQ(MM->function("twice")->linkage(), mir::Function::Linkage::Export);
  EXPECT_EQ(MM->function("put")->linkage(), mir::Function::Linkage::Internal);
  mir::Function *K = MM->function("k");
  ASSERT_TRUE(K);
  struct Want {
    bool RO, WO;
  } W[] = {{true, false},  {false, true}, {false, false}, {true, false},
           {true, false},  {false, true}, {false, false}};
  for (unsigned I = 0; I < 7; ++I) {
    SCOPED_TRACE(I);
    EXPECT_EQ(K->arg(I)->ElemType,
              I == 6 ? mir::Type::U32 : mir::Type::F32);
    EXPECT_EQ(K->arg(I)->ReadOnly, W[I].RO);
    EXPECT_EQ(K->arg(I)->WriteOnly, W[I].WO);
  }
  // Scalars carry no buffer attributes.
  EXPECT_FALSE(MM->function("twice")->arg(0)->ElemType);
  EXPECT_FALSE(llvm::errorToBool(mir::verifyModule(*MM)));
}

TEST(FrontendLinkageTest, OnlyKernelKeepsCalledDeclarations) {
  llvm::SourceMgr SM;
  auto MM = lowerCpp(SM,
                     "float ext(float x);\n"
                     "float unused(float x);\n"
                     "[[wave::export]] float lone(float x) { return x; }\n"
                     "__kernel void k(float* a) { a[0] = ext(a[1]); }\n",
                     "k");
  ASSERT_TRUE(MM);
  ASSERT_TRUE(MM->function("ext"));
  EXPECT_TRUE(MM->function("ext")->isDeclaration());
  EXPECT_FALSE(MM->function("unused"));
  EXPECT_FALSE(MM->function("lone"));
}

TEST(FrontendLocationTest, InstructionsCarryLineAndColumn) {
  llvm::SourceMgr SM;
  // Line 2: the '+' is at column 12, the '=' at column 8, the '[' of a[0]
  // at column 4; the implicit return is the '}' of line 3, column 1.
  auto MM = lowerCpp(SM, "__kernel void k(float* a, float x) {\n"
                         "  a[0] = x + x;\n"
                         "}\n");
  ASSERT_TRUE(MM);
  mir::Function *K = MM->function("k");
  std::vector<std::pair<mir::Opcode, std::pair<uint32_t, uint32_t>>> Got;
  for (const auto &BB : K->blocks())
    for (const mir::Instruction &I : *BB)
      Got.push_back({I.opcode(), {I.debugLoc().Line, I.debugLoc().Col}});
  auto Find = [&](mir::Opcode Op) {
    for (auto &[O, L] : Got)
      if (O == Op)
        return L;
    return std::pair<uint32_t, uint32_t>{0, 0};
  };
  EXPECT_EQ(Find(mir::Opcode::FAdd), (std::pair<uint32_t, uint32_t>{2, 12}));
  EXPECT_EQ(Find(mir::Opcode::Store), (std::pair<uint32_t, uint32_t>{2, 8}));
  EXPECT_EQ(Find(mir::Opcode::Ret), (std::pair<uint32_t, uint32_t>{3, 1}));
  // Every instruction has a position.
  for (auto &[O, L] : Got)
    EXPECT_NE(L.first, 0u);
}

} // namespace
