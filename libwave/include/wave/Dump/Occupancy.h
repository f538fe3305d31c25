//===- Occupancy.h - Waves per SIMD or SM by register use -------*- C++ -*-===//
//
// The occupancy estimate of wave-objdump --kernels and wave-run --stats:
// how many waves of a kernel one SIMD (AMD) or SM (NVIDIA) holds at once
// when vector registers are the only limit,
//
//   O = floor(F / (R * W * w))
//
// with F the bytes of the register file of one SIMD or SM, R the registers
// per lane of the kernel, W the lanes per wave and w = 4 bytes per
// register, then capped by the hardware's waves per SIMD or SM. F, W and
// the cap come from the target tables of the AMDGCN stage (GCNTarget) and
// the NVPTX stage (SMTarget), where their sources are. The estimate ignores
// allocation granules and every other limit (LDS, workgroup size, SGPRs).
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_DUMP_OCCUPANCY_H
#define WAVE_DUMP_OCCUPANCY_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace wave {

/// Bytes of one register of one lane (w of the equation).
inline constexpr unsigned OccupancyRegisterBytes = 4;

/// One processor's facts for the equation.
struct OccupancyTarget {
  std::string Name;           ///< `--mcpu` spelling: "gfx942", "sm_80".
  llvm::StringRef Unit;       ///< where F and the cap apply: "SIMD" or "SM".
  unsigned RegisterFileBytes; ///< F: bytes of vector registers per Unit.
  unsigned WaveSize;          ///< W: lanes per wave (warp).
  unsigned MaxWaves;          ///< the hardware's cap of waves per Unit.
};

/// Every processor: the AMDGCN stage's targets in the order of its table
/// (amdgcn::allTargets()), then the NVPTX stage's, oldest first.
std::vector<OccupancyTarget> occupancyTargets();

/// O = floor(F / (R * W * w)) for \p Registers = R per lane; none for
/// R = 0, which registers do not limit. 0 when one wave does not fit.
std::optional<uint64_t> wavesByRegisters(const OccupancyTarget &T,
                                         uint64_t Registers);

/// One line of the estimate.
struct OccupancyRow {
  OccupancyTarget Target;
  uint64_t Registers; ///< R, registers per lane.
  /// R is the VGPR count of the kernel as the AMDGCN stage translates it
  /// for Target (wave-objdump --mcpu), not the `.wbin` metadata's.
  bool FromAMDGCN = false;
  std::optional<uint64_t> ByRegisters; ///< O; none for R = 0.
  uint64_t Waves; ///< min(O, Target.MaxWaves): resident waves per Unit.
};

/// The estimate of a kernel whose metadata gives \p RegisterCount registers:
/// one row per occupancyTargets() entry, and, when \p MCPU names one of
/// them, one more right after it with R = \p MCPUVGPRs (FromAMDGCN).
std::vector<OccupancyRow> kernelOccupancy(uint64_t RegisterCount,
                                          llvm::StringRef MCPU = "",
                                          uint64_t MCPUVGPRs = 0);

/// The header of the estimate's text form, without a newline:
/// "O = floor(F / (R * W * 4)) waves per SIMD or SM".
std::string occupancyEquation();

/// Writes \p Rows as a table, a column header first, each line starting
/// with \p Indent: target, unit, F, W, R, where R comes from ("metadata" or
/// "amdgcn"), O ("-" for none), the cap and the resident waves.
void printOccupancy(llvm::raw_ostream &OS, llvm::ArrayRef<OccupancyRow> Rows,
                    llvm::StringRef Indent = "");

/// Writes \p Rows in the "label: value" style of wave-run --stats, one line
/// per row starting with \p Indent, the equation written out with the
/// row's numbers: `gfx942:  8 per SIMD (O = floor(131072 / (24 * 64 * 4))
/// = 21, cap 8)`; for R = 0 `(R = 0: no register limit, cap 8)`.
void printOccupancyLines(llvm::raw_ostream &OS,
                         llvm::ArrayRef<OccupancyRow> Rows,
                         llvm::StringRef Indent = "");

} // namespace wave

#endif // WAVE_DUMP_OCCUPANCY_H
