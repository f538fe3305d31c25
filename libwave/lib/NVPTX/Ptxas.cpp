//===- Ptxas.cpp - Assembling PTX into a cubin with NVIDIA's ptxas --------===//
#include "wave/NVPTX/Ptxas.h"

#include "wave/Support/ExternalTool.h"

using namespace llvm;

namespace wave::nvptx {

namespace {
const StringRef PtxasNames[] = {"ptxas"};
const ToolSpec PtxasSpec = {"ptxas", "--ptxas", "WAVE_PTXAS",
                            "nvidia-cuda-toolkit", PtxasNames};
} // namespace

Expected<std::string> findPtxas(StringRef FromOption) {
  return findTool(PtxasSpec, FromOption);
}

Expected<std::vector<uint8_t>> buildCubin(StringRef Ptxas, StringRef PTX,
                                          unsigned SM) {
  Expected<ToolTempDir> Dir = ToolTempDir::create("wave-nvptx");
  if (!Dir)
    return Dir.takeError();
  Expected<std::string> In = Dir->writeFile("kernel.ptx", PTX);
  if (!In)
    return In.takeError();
  std::string Out = Dir->file("kernel.cubin");
  std::string Arch = "sm_" + std::to_string(SM);
  StringRef Args[] = {Ptxas, "-arch", Arch, "-o", Out, *In};
  if (Error E = runTool("ptxas", Args, *Dir))
    return std::move(E);
  return Dir->readOutput(Out, "ptxas");
}

} // namespace wave::nvptx
