//===- MIRLinkageTest.cpp - separate-compilation MIR syntax ---------------===//
//
// Library-level tests of the MIR additions for separate compilation
// (formats/mir.md "Source files and locations", "Linkage", "Parameter
// attributes"): what the parser records in the data structures, verifier
// rules that the parser cannot produce from text (an exported kernel, a
// declaration with a body), and a prefix sweep over the new syntax.
//
//===----------------------------------------------------------------------===//
#include "wave/IR/MIR.h"
#include "wave/IR/MIRParser.h"
#include "wave/IR/MIRPrinter.h"
#include "wave/IR/Verifier.h"

#include <gtest/gtest.h>

using namespace llvm;
using namespace wave::mir;

namespace {

std::string errorText(Error E) {
  std::string S;
  handleAllErrors(std::move(E),
                  [&](const ErrorInfoBase &EI) { S += EI.message() + "\n"; });
  return S;
}

const char *const Text = R"(source_filename = "k.py"

declare func @ext(f32 %a) -> f32

export func @twice(f32 %x) -> f32 {
^entry:
  %y = fadd f32 %x, %x !loc(2, 7)
  ret f32 %y !loc(2, 3)
}

kernel @k(ptr<device> readonly elem(f32) %in, ptr<device> writeonly %out, u32 %n) {
^entry:
  %v = load f32, ptr<device> %in !loc(5, 9)
  %w = call f32 @ext(f32 %v) !loc(6, 1)
  store f32 %w, ptr<device> %out
  ret
}
)";

TEST(MIRLinkage, ParserFillsTheDataStructures) {
  SourceMgr SM;
  auto M = parseMIRString(Text, SM);
  ASSERT_TRUE(bool(M)) << errorText(M.takeError());
  Module &Mod = **M;
  EXPECT_EQ(Mod.SourceFile, "k.py");
  Function *Ext = Mod.function("ext");
  Function *Twice = Mod.function("twice");
  Function *K = Mod.function("k");
  ASSERT_TRUE(Ext && Twice && K);
  EXPECT_TRUE(Ext->isDeclaration());
  EXPECT_EQ(Ext->numBlocks(), 0u);
  EXPECT_EQ(Twice->linkage(), Function::Linkage::Export);
  EXPECT_EQ(K->linkage(), Function::Linkage::Internal);
  EXPECT_TRUE(K->arg(0)->ReadOnly);
  EXPECT_FALSE(K->arg(0)->WriteOnly);
  EXPECT_EQ(K->arg(0)->ElemType, Type::F32);
  EXPECT_TRUE(K->arg(1)->WriteOnly);
  EXPECT_FALSE(K->arg(1)->ElemType.has_value());
  EXPECT_FALSE(K->arg(2)->ReadOnly || K->arg(2)->WriteOnly);
  // !loc positions, in instruction order; the store has none.
  std::vector<std::pair<unsigned, unsigned>> Locs;
  for (Instruction &I : K->entry()->insts())
    Locs.push_back({I.debugLoc().Line, I.debugLoc().Col});
  std::vector<std::pair<unsigned, unsigned>> Want = {
      {5, 9}, {6, 1}, {0, 0}, {0, 0}};
  EXPECT_EQ(Locs, Want);
  EXPECT_EQ(std::next(K->entry()->begin())->callee(), Ext);
  EXPECT_FALSE(verifyModule(Mod));
  std::string Out;
  raw_string_ostream OS(Out);
  printModule(Mod, OS);
  EXPECT_EQ(Out, Text);
}

TEST(MIRLinkage, VerifierRejectsExportedKernelAndDeclarationWithBody) {
  Module M;
  Function *K = M.addFunction("k", /*IsKernel=*/true, Type::Void);
  K->setLinkage(Function::Linkage::Export);
  K->addBlock("entry")->append(Instruction::create(Opcode::Ret, Type::Void));
  Function *D = M.addFunction("d", /*IsKernel=*/false, Type::Void);
  D->setLinkage(Function::Linkage::Declaration);
  D->addBlock("entry")->append(Instruction::create(Opcode::Ret, Type::Void));
  Function *DK = M.addFunction("dk", /*IsKernel=*/true, Type::Void);
  DK->setLinkage(Function::Linkage::Declaration);
  std::string E = errorText(verifyModule(M));
  EXPECT_NE(E.find("function '@k': 'export' and 'declare' apply to device "
                   "functions only"),
            std::string::npos)
      << E;
  EXPECT_NE(E.find("function '@d': a declaration has no body"),
            std::string::npos)
      << E;
  EXPECT_NE(E.find("function '@dk': 'export' and 'declare' apply to device "
                   "functions only"),
            std::string::npos)
      << E;
  // A body-less declaration is not "a function without blocks".
  EXPECT_EQ(E.find("has no blocks"), std::string::npos) << E;
}

TEST(MIRLinkage, NoCrashOnAnyPrefix) {
  std::string S = Text;
  for (size_t Len = 0; Len <= S.size(); ++Len) {
    SourceMgr SM;
    auto M = parseMIRString(StringRef(S).take_front(Len), SM);
    if (!M) {
      consumeError(M.takeError());
      continue;
    }
    consumeError(verifyModule(**M));
  }
}

} // namespace
