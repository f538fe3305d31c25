//===- Target.cpp - AMDGCN target descriptions ----------------------------===//
//
// The processor table. Sources: AMDGPUUsage "Processors" (wave sizes, packed
// work-item IDs, accum_offset), the CDNA3 and RDNA3/RDNA4 ISA guides
// (register files, constant bus, VOP3 literals), LLVM 22's AMDGPU assembler
// (which processors it accepts).
//
//===----------------------------------------------------------------------===//
#include "wave/AMDGCN/Target.h"

#include <string>

using namespace llvm;

namespace wave::amdgcn {

static const GCNTarget Targets[] = {
    // Name      Gen           Wave VGPR SGPR Gran Accum Packed Bus Lit   SplitBar Supported
    {"gfx942", GCNGen::GFX9, 64, 256, 100, 8, true, true, 1, false, false, true},
    {"gfx950", GCNGen::GFX9, 64, 256, 100, 8, true, true, 1, false, false, true},
    {"gfx90a", GCNGen::GFX9, 64, 256, 100, 8, true, true, 1, false, false, true},
    {"gfx1100", GCNGen::GFX11, 32, 256, 104, 8, false, true, 2, true, false, true},
    {"gfx1200", GCNGen::GFX12, 32, 256, 104, 8, false, true, 2, true, true, true},
    {"gfx1250", GCNGen::GFX12, 32, 256, 104, 8, false, true, 2, true, true, true},
};

ArrayRef<GCNTarget> allTargets() { return Targets; }

const GCNTarget *lookupTarget(StringRef MCPU) {
  for (const GCNTarget &T : Targets)
    if (MCPU == T.Name && T.Supported)
      return &T;
  return nullptr;
}

std::string supportedTargetList() {
  std::string S;
  for (const GCNTarget &T : Targets) {
    if (!T.Supported)
      continue;
    if (!S.empty())
      S += ", ";
    S += T.Name;
  }
  return S;
}

} // namespace wave::amdgcn
