//===- Toolchain.cpp - Driving ROCm's clang and ld.lld --------------------===//
//
// Finds clang and ld.lld (option, then environment, then PATH) and runs
//
//   clang -x assembler --target=amdgcn-amd-amdhsa -mcpu=CPU -c in.s -o in.o
//   ld.lld -shared in.o -o out.hsaco
//
// inside a private temporary directory (wave/Support/ExternalTool.h: how the
// tools are found and run, and cleaned up after on every path).
//
//===----------------------------------------------------------------------===//
#include "wave/AMDGCN/Toolchain.h"

#include "wave/Support/ExternalTool.h"

using namespace llvm;

namespace wave::amdgcn {

namespace {

const StringRef ClangNames[] = {"clang-22", "clang"};
const StringRef LdLldNames[] = {"ld.lld-22", "ld.lld"};
const ToolSpec ClangSpec = {"clang", "--clang", "WAVE_CLANG", "clang-22",
                            ClangNames};
const ToolSpec LdLldSpec = {"ld.lld", "--ld-lld", "WAVE_LD_LLD", "lld-22",
                            LdLldNames};

} // namespace

Expected<Toolchain> findToolchain(const ToolchainRequest &Req) {
  Toolchain TC;
  Expected<std::string> Clang = findTool(ClangSpec, Req.Clang);
  if (!Clang)
    return Clang.takeError();
  TC.Clang = std::move(*Clang);
  Expected<std::string> LdLld = findTool(LdLldSpec, Req.LdLld);
  if (!LdLld)
    return LdLld.takeError();
  TC.LdLld = std::move(*LdLld);
  return TC;
}

Expected<std::vector<uint8_t>>
buildCodeObject(const Toolchain &TC, StringRef AsmText, StringRef MCPU) {
  Expected<ToolTempDir> Dir = ToolTempDir::create("wave-amdgcn");
  if (!Dir)
    return Dir.takeError();
  Expected<std::string> AsmPath = Dir->writeFile("kernel.s", AsmText);
  if (!AsmPath)
    return AsmPath.takeError();
  std::string ObjPath = Dir->file("kernel.o");
  std::string CodePath = Dir->file("kernel.hsaco");

  std::string CPUArg = ("-mcpu=" + MCPU).str();
  StringRef ClangArgs[] = {
      TC.Clang, "-x", "assembler", "--target=amdgcn-amd-amdhsa", CPUArg, "-c",
      *AsmPath, "-o", ObjPath};
  if (Error E = runTool("clang", ClangArgs, *Dir))
    return E;

  StringRef LdArgs[] = {TC.LdLld, "-shared", ObjPath, "-o", CodePath};
  if (Error E = runTool("ld.lld", LdArgs, *Dir))
    return E;

  return Dir->readOutput(CodePath, "ld.lld");
}

} // namespace wave::amdgcn
