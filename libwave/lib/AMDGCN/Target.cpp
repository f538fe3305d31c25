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

// Memory-model sequences per family.
#define GFX940_MM "", "buffer_inv sc1", "buffer_inv sc0 sc1", "buffer_wbl2 sc1", \
    "buffer_wbl2 sc0 sc1"
#define GFX90A_MM "", "buffer_wbinvl1_vol", "buffer_invl2\nbuffer_wbinvl1_vol", "", \
    "buffer_wbl2"
#define GFX11_MM "buffer_gl0_inv", "buffer_gl1_inv\nbuffer_gl0_inv", \
    "buffer_gl1_inv\nbuffer_gl0_inv", "", ""
#define GFX12_MM "global_inv scope:SCOPE_SE", "global_inv scope:SCOPE_DEV", \
    "global_inv scope:SCOPE_SYS", "", "global_wb scope:SCOPE_SYS"
#define GFX9_SPELL "v_add_u32", "v_sub_u32", " sc0", "ds_cmpst_rtn_b32", false, \
    true, true
#define GFX90A_SPELL "v_add_u32", "v_sub_u32", " glc", "ds_cmpst_rtn_b32", false, \
    true, true
#define GFX11_SPELL "v_add_nc_u32", "v_sub_nc_u32", " glc", "ds_cmpstore_rtn_b32", \
    true, false, false
#define GFX12_SPELL "v_add_nc_u32", "v_sub_nc_u32", " th:TH_ATOMIC_RETURN", \
    "ds_cmpstore_rtn_b32", true, false, false

// Hazard rules: VALU-SGPR wait states, TransUse, SGPR read hazards,
// UserSGPRInit16Bug;
// then the LDS bytes per workgroup (CDNA3/CDNA4/RDNA ISA guides "LDS"; gfx950
// 160 KiB and gfx1250 320 KiB as LLVM 22 allows them).
#define GFX940_HAZ 2, false, false, false
#define GFX90A_HAZ 0, false, false, false
#define GFX1100_HAZ 0, true, false, true
#define GFX12_HAZ 0, false, true, false

static const GCNTarget Targets[] = {
    // Name   Gen   Wave VGPR SGPR Gran Accum Packed Bus Lit SplitBar ArchSGPR Supported
    {"gfx942", GCNGen::GFX9, 64, 256, 100, 8, true, true, 1, false, false, false, true,
     GFX9_SPELL, GFX940_MM, GFX940_HAZ, 65536},
    {"gfx950", GCNGen::GFX9, 64, 256, 100, 8, true, true, 1, false, false, false, true,
     GFX9_SPELL, GFX940_MM, GFX940_HAZ, 163840},
    {"gfx90a", GCNGen::GFX9, 64, 256, 100, 8, true, true, 1, false, false, false, true,
     GFX90A_SPELL, GFX90A_MM, GFX90A_HAZ, 65536},
    {"gfx1100", GCNGen::GFX11, 32, 256, 104, 8, false, true, 2, true, false, false, true,
     GFX11_SPELL, GFX11_MM, GFX1100_HAZ, 65536},
    {"gfx1200", GCNGen::GFX12, 32, 256, 104, 8, false, true, 2, true, true, true, true,
     GFX12_SPELL, GFX12_MM, GFX12_HAZ, 65536},
    {"gfx1250", GCNGen::GFX12, 32, 256, 104, 8, false, true, 2, true, true, true, true,
     GFX12_SPELL, GFX12_MM, GFX12_HAZ, 327680},
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
