//===- Target.h - AMDGCN target descriptions ---------------------*- C++ -*-===//
//
// One GCNTarget per processor the AMDGCN stage can translate WAVE code for
// (formats/amdgcn-abi.md "Targets"). Everything that differs between
// processors lives here as data -- wave size, register files, instruction
// spellings, wait-count counters, memory-model sequences, hazard rules -- so
// the translator, the passes and the emitter never test processor names.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_AMDGCN_TARGET_H
#define WAVE_AMDGCN_TARGET_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace wave::amdgcn {

/// Instruction-set generation: selects a column of the spelling table
/// (GCNOps.def) and the wait-count model. GFX9 covers gfx90a/gfx942/gfx950
/// (AMD "CDNA2/3/4 ISA"), GFX11 gfx1100 ("RDNA3 ISA"), GFX12 gfx1200 and
/// gfx1250 ("RDNA4 ISA").
enum class GCNGen : uint8_t { GFX9, GFX11, GFX12 };

/// Static description of one processor. All register counts are per lane
/// (VGPRs) or per wave (SGPRs); granules are in registers.
struct GCNTarget {
  const char *Name;       ///< `--mcpu` value, e.g. "gfx942".
  GCNGen Gen;
  unsigned WaveSize;      ///< lanes per wave WAVE code runs at: 64 or 32.
  unsigned MaxVGPRs;      ///< architectural VGPRs addressable per lane.
  unsigned MaxSGPRs;      ///< SGPRs the allocator may use (VCC excluded).
  unsigned VGPRGranule;   ///< `.amdhsa_next_free_vgpr` allocation granule.
  bool HasAccumOffset;    ///< needs `.amdhsa_accum_offset` (gfx90a/942/950).
  bool PackedWorkItemIDs; ///< x,y,z ids packed in v0 (10 bits each).
  unsigned ConstantBusLimit; ///< SGPR/literal operands per VALU instruction.
  bool VOP3Literal;       ///< VOP3 encodings accept a 32-bit literal.
  bool SplitBarrier;      ///< s_barrier_signal/s_barrier_wait (GFX12).
  /// Workgroup ids are in ttmp9 (x) and ttmp7 (y: bits 15:0, z: 31:16)
  /// instead of system SGPRs (GFX12 "architected SGPRs").
  bool ArchitectedSGPRs;
  bool Supported;         ///< false: named in diagnostics, rejected.

  // Spellings that differ between generations (LLVM 22 assembler).
  const char *VAddU32;      ///< 32-bit add without carry-out.
  const char *VSubU32;      ///< 32-bit subtract without carry-out.
  const char *AtomicReturn; ///< modifier of a returning global atomic.
  const char *DsCmpSwap;    ///< returning LDS compare-and-swap.
  bool DsCmpSwapNewFirst;   ///< its data0 is the new value (GFX11+).
  bool F16ZeroesHigh;       ///< 16-bit VALU results clear bits 31:16.
  /// DPP has `row_bcast:15`/`row_bcast:31` and `wave_shr:1` (GFX9); without
  /// them, scans cross rows with `v_permlanex16_b32` (GFX10+, "RDNA3 ISA"
  /// §DPP16).
  bool DPPRowBroadcast;
  /// Packed f32 VALU (v_pk_mul_f32, v_pk_add_f32 on even-aligned VGPR
  /// pairs, with op_sel choosing each result's source halves): gfx90a
  /// and later CDNA (LLVM VOP3PInstructions.td `isGFX90APlus`; the RDNA
  /// generations have none).
  bool PackedF32;

  // Memory-model code sequences after the full wait (AMDGPUUsage "Memory
  // Model", as LLVM 22 emits them for fences); lines separated by '\n'.
  const char *AcquireWorkgroup;
  const char *AcquireAgent;
  const char *AcquireSystem;
  const char *ReleaseAgent;
  const char *ReleaseSystem;

  // Hazard rules the hardware does not interlock (LLVM 22's
  // GCNHazardRecognizer and AMDGPUWaitSGPRHazards; CDNA3 ISA §4.5).
  /// Wait states between a VALU write of an SGPR or VCC and a VALU read of
  /// it (gfx940 family: 2; 0 = interlocked).
  unsigned VALUWriteSGPRReadWaitStates;
  /// A VALU reading a VGPR a transcendental wrote, within 5 VALUs / 1
  /// transcendental and no memory instruction, waits with
  /// `s_waitcnt_depctr depctr_va_vdst(0)` (GFX11 VALUTransUseHazard).
  bool VALUTransUseHazard;
  /// SGPRs a VALU has read get `s_wait_alu` before a read of a newer SALU
  /// (sa_sdst) or VALU (va_sdst, va_vcc) write (GFX12 SGPR read hazards).
  bool SGPRReadHazards;
  /// The hardware initialises 16 user and system SGPRs in wave32 whatever
  /// the kernel asks for (LLVM's FeatureUserSGPRInit16Bug: gfx1100 and
  /// gfx1102). As LLVM does, the user SGPR count is padded to 16 minus the
  /// system SGPRs, so the workgroup ids are s[16-N..15], and
  /// `.amdhsa_next_free_sgpr` is at least 16.
  bool UserSGPRInit16Bug;
  /// Local data share bytes one workgroup may allocate (group segment).
  unsigned MaxLDSBytes;

  // Occupancy by registers (wave-objdump --kernels, wave-run --stats):
  // O = floor(VGPRFileBytes / (VGPRs * WaveSize * 4)) waves per SIMD, at
  // most MaxWavesPerSIMD. Sources in Target.cpp.
  /// Bytes of vector registers one SIMD holds for the waves resident on it
  /// (AGPRs included where the file is unified: gfx90a/942/950).
  unsigned VGPRFileBytes;
  /// Waves one SIMD holds at most, whatever their resources.
  unsigned MaxWavesPerSIMD;
};

/// Every processor wavetools knows, in the order `--help` lists them.
llvm::ArrayRef<GCNTarget> allTargets();

/// The target named \p MCPU (exact match), or nullptr.
const GCNTarget *lookupTarget(llvm::StringRef MCPU);

/// Comma-separated names of the supported targets, for diagnostics.
std::string supportedTargetList();

} // namespace wave::amdgcn

#endif // WAVE_AMDGCN_TARGET_H
