//===- Occupancy.cpp - Waves per SIMD or SM by register use ---------------===//
//
// The equation of Occupancy.h over the target tables of the AMDGCN and
// NVPTX stages, and its table for wave-objdump --kernels and wave-run
// --stats.
//
//===----------------------------------------------------------------------===//
#include "wave/Dump/Occupancy.h"

#include "wave/AMDGCN/Target.h"
#include "wave/NVPTX/Target.h"
#include "wave/NVPTX/Translate.h"

#include "llvm/Support/Format.h"

#include <algorithm>

using namespace llvm;

namespace wave {

std::vector<OccupancyTarget> occupancyTargets() {
  std::vector<OccupancyTarget> Ts;
  for (const amdgcn::GCNTarget &T : amdgcn::allTargets())
    if (T.Supported)
      Ts.push_back(
          {T.Name, "SIMD", T.VGPRFileBytes, T.WaveSize, T.MaxWavesPerSIMD});
  for (const nvptx::SMTarget &T : nvptx::allSMTargets())
    Ts.push_back({"sm_" + std::to_string(T.SM), "SM", T.RegisterFileBytes,
                  nvptx::WaveWidth, T.MaxWarpsPerSM});
  return Ts;
}

std::optional<uint64_t> wavesByRegisters(const OccupancyTarget &T,
                                         uint64_t Registers) {
  if (Registers == 0)
    return std::nullopt;
  // R * W * w cannot overflow: R < 2^32 in every caller, W * w <= 256.
  return T.RegisterFileBytes /
         (Registers * T.WaveSize * OccupancyRegisterBytes);
}

static OccupancyRow makeRow(const OccupancyTarget &T, uint64_t Registers,
                            bool FromAMDGCN) {
  std::optional<uint64_t> O = wavesByRegisters(T, Registers);
  return {T, Registers, FromAMDGCN, O,
          O ? std::min<uint64_t>(*O, T.MaxWaves) : T.MaxWaves};
}

std::vector<OccupancyRow> kernelOccupancy(uint64_t RegisterCount,
                                          StringRef MCPU, uint64_t MCPUVGPRs) {
  std::vector<OccupancyRow> Rows;
  for (const OccupancyTarget &T : occupancyTargets()) {
    Rows.push_back(makeRow(T, RegisterCount, false));
    if (!MCPU.empty() && T.Name == MCPU)
      Rows.push_back(makeRow(T, MCPUVGPRs, true));
  }
  return Rows;
}

std::string occupancyEquation() {
  return "O = floor(F / (R * W * " + std::to_string(OccupancyRegisterBytes) +
         ")) waves per SIMD or SM";
}

void printOccupancy(raw_ostream &OS, ArrayRef<OccupancyRow> Rows,
                    StringRef Indent) {
  OS << Indent << "Target  Unit       F  W    R From          O  Cap Waves\n";
  for (const OccupancyRow &R : Rows) {
    std::string O = R.ByRegisters ? std::to_string(*R.ByRegisters) : "-";
    OS << Indent
       << format("%-7s %-4s %7u %2u %4llu %-8s %6s %4u %5llu\n",
                 R.Target.Name.c_str(), R.Target.Unit.str().c_str(),
                 R.Target.RegisterFileBytes, R.Target.WaveSize,
                 (unsigned long long)R.Registers,
                 R.FromAMDGCN ? "amdgcn" : "metadata", O.c_str(),
                 R.Target.MaxWaves, (unsigned long long)R.Waves);
  }
}

void printOccupancyLines(raw_ostream &OS, ArrayRef<OccupancyRow> Rows,
                         StringRef Indent) {
  for (const OccupancyRow &R : Rows) {
    OS << Indent << format("%-8s ", (R.Target.Name + ":").c_str()) << R.Waves
       << " per " << R.Target.Unit << " (";
    if (R.ByRegisters)
      OS << "O = floor(" << R.Target.RegisterFileBytes << " / (" << R.Registers
         << " * " << R.Target.WaveSize << " * " << OccupancyRegisterBytes
         << ")) = " << *R.ByRegisters;
    else
      OS << "R = 0: no register limit";
    OS << ", cap " << R.Target.MaxWaves << ")\n";
  }
}

} // namespace wave
