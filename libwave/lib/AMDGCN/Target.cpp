//===- Target.cpp - AMDGCN target descriptions ----------------------------===//
//
// The processor table. Sources: AMDGPUUsage "Processors" (wave sizes, packed
// work-item IDs, accum_offset), the CDNA3 and RDNA3/RDNA4 ISA guides
// (register files, constant bus, VOP3 literals), LLVM 22's AMDGPU assembler
// (which processors it accepts); for occupancy, ROCm's "AMD GPU
// specifications" and LLVM 22's occupancy model (see the table's comment).
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
    true, true, true
#define GFX90A_SPELL "v_add_u32", "v_sub_u32", " glc", "ds_cmpst_rtn_b32", false, \
    true, true, true
#define GFX11_SPELL "v_add_nc_u32", "v_sub_nc_u32", " glc", "ds_cmpstore_rtn_b32", \
    true, false, false, false
#define GFX12_SPELL "v_add_nc_u32", "v_sub_nc_u32", " th:TH_ATOMIC_RETURN", \
    "ds_cmpstore_rtn_b32", true, false, false, false

// Hazard rules: VALU-SGPR wait states, TransUse, SGPR read hazards,
// UserSGPRInit16Bug;
// then the LDS bytes per workgroup (CDNA3/CDNA4/RDNA ISA guides "LDS"; gfx950
// 160 KiB and gfx1250 320 KiB as LLVM 22 allows them).
#define GFX940_HAZ 2, false, false, false
#define GFX90A_HAZ 0, false, false, false
#define GFX1100_HAZ 0, true, false, true
#define GFX12_HAZ 0, false, true, false

// Occupancy: bytes of the VGPR file of one SIMD, then waves per SIMD.
//  * gfx90a, gfx942, gfx950 (wave64): 512 KiB of VGPRs per CU (ROCm "AMD GPU
//    specifications", column "VGPR File (KiB)", for MI210/MI250X, MI300X and
//    MI355X), four SIMDs per CU: 128 KiB = 512 unified VGPRs+AGPRs x 64 lanes
//    x 4 bytes per SIMD, as LLVM 22's getTotalNumVGPRs() (512 for the
//    gfx90a family). 8 waves per SIMD: LLVM's getMaxWavesPerEU() (8 for the
//    gfx90a family; llvm-calc-occupancy(1)'s gfx90a example prints "Max
//    waves/EU: 8"). llc-22 agrees for all three: 96 VGPRs give 5 waves,
//    128 give 4.
//  * gfx1100, gfx1200 (wave32): 768 KiB of VGPRs per WGP of four SIMD32s
//    (ROCm "AMD GPU specifications": RX 7900 XTX, RX 9060 XT; 512 KiB for
//    gfx1102, which LLVM gives 1024 VGPRs): 192 KiB = 1536 VGPRs x 32 lanes
//    x 4 bytes per SIMD, as LLVM 22 models both (llc-22: 128 VGPRs give 10
//    waves with its 24-register granule, 200 give 7). 16 waves per SIMD:
//    getMaxWavesPerEU() (16 from GFX10.3 on); llc-22 prints "Occupancy: 16"
//    for an empty kernel.
//  * gfx1250 (wave32): 128 KiB = 1024 VGPRs x 32 lanes x 4 bytes and 16
//    waves, as LLVM 22 computes occupancy (llc-22 -mcpu=gfx1250: 96 VGPRs
//    give 10 waves, 128 give 8, an empty kernel 16). No public AMD document
//    found confirms these two numbers.
#define CDNA_OCC 131072, 8
#define RDNA_OCC 196608, 16
#define GFX1250_OCC 131072, 16

static const GCNTarget Targets[] = {
    // Name   Gen   Wave VGPR SGPR Gran Accum Packed Bus Lit SplitBar ArchSGPR Supported
    {"gfx942", GCNGen::GFX9, 64, 256, 100, 8, true, true, 1, false, false, false, true,
     GFX9_SPELL, GFX940_MM, GFX940_HAZ, 65536, CDNA_OCC},
    {"gfx950", GCNGen::GFX9, 64, 256, 100, 8, true, true, 1, false, false, false, true,
     GFX9_SPELL, GFX940_MM, GFX940_HAZ, 163840, CDNA_OCC},
    {"gfx90a", GCNGen::GFX9, 64, 256, 100, 8, true, true, 1, false, false, false, true,
     GFX90A_SPELL, GFX90A_MM, GFX90A_HAZ, 65536, CDNA_OCC},
    {"gfx1100", GCNGen::GFX11, 32, 256, 104, 8, false, true, 2, true, false, false, true,
     GFX11_SPELL, GFX11_MM, GFX1100_HAZ, 65536, RDNA_OCC},
    {"gfx1200", GCNGen::GFX12, 32, 256, 104, 8, false, true, 2, true, true, true, true,
     GFX12_SPELL, GFX12_MM, GFX12_HAZ, 65536, RDNA_OCC},
    {"gfx1250", GCNGen::GFX12, 32, 256, 104, 8, false, true, 2, true, true, true, true,
     GFX12_SPELL, GFX12_MM, GFX12_HAZ, 327680, GFX1250_OCC},
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
