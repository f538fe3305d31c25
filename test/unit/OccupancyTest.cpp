//===- OccupancyTest.cpp - Occupancy by registers over the target tables --===//
//
// The equation O = floor(F / (R * W * 4)) of wave/Dump/Occupancy.h, the
// target-table facts it reads (AMDGCN GCNTarget, NVPTX SMTarget) and the
// --mcpu row. Expected numbers are computed by hand in the comments.
//
//===----------------------------------------------------------------------===//
#include "wave/Dump/Occupancy.h"
#include "wave/NVPTX/Target.h"
#include "wave/NVPTX/Translate.h"

#include <gtest/gtest.h>

using namespace wave;

namespace {

const OccupancyTarget &target(const std::vector<OccupancyTarget> &Ts,
                              llvm::StringRef Name) {
  for (const OccupancyTarget &T : Ts)
    if (T.Name == Name)
      return T;
  ADD_FAILURE() << "no target " << Name.str();
  return Ts.front();
}

TEST(Occupancy, EveryTargetHasWholeRegistersPerLaneAndACap) {
  std::vector<OccupancyTarget> Ts = occupancyTargets();
  // 6 AMD processors, 8 NVIDIA architectures.
  ASSERT_EQ(Ts.size(), 14u);
  for (const OccupancyTarget &T : Ts) {
    SCOPED_TRACE(T.Name);
    EXPECT_EQ(T.RegisterFileBytes % (T.WaveSize * OccupancyRegisterBytes), 0u);
    EXPECT_GT(T.MaxWaves, 0u);
  }
  // Registers per lane of one SIMD or SM: F / (W * 4).
  EXPECT_EQ(target(Ts, "gfx942").RegisterFileBytes / (64 * 4), 512u);
  EXPECT_EQ(target(Ts, "gfx1100").RegisterFileBytes / (32 * 4), 1536u);
  EXPECT_EQ(target(Ts, "gfx1250").RegisterFileBytes / (32 * 4), 1024u);
  EXPECT_EQ(target(Ts, "sm_90").RegisterFileBytes / 4, 65536u);
}

TEST(Occupancy, Equation) {
  std::vector<OccupancyTarget> Ts = occupancyTargets();
  // 131072 / (24 * 64 * 4) = 21.3; 262144 / (24 * 32 * 4) = 85.3.
  EXPECT_EQ(wavesByRegisters(target(Ts, "gfx942"), 24), 21u);
  EXPECT_EQ(wavesByRegisters(target(Ts, "sm_75"), 24), 85u);
  // 131072 / (1024 * 64 * 4) = 0.5: not one wave fits.
  EXPECT_EQ(wavesByRegisters(target(Ts, "gfx90a"), 1024), 0u);
  EXPECT_EQ(wavesByRegisters(target(Ts, "gfx1200"), 0), std::nullopt);
}

TEST(Occupancy, RowsCapAndAddTheMCPURowAfterItsTarget) {
  // R = 24 from the metadata; gfx1100 also with 40 VGPRs:
  // 196608 / (40 * 32 * 4) = 38 -> cap 16.
  std::vector<OccupancyRow> Rows = kernelOccupancy(24, "gfx1100", 40);
  ASSERT_EQ(Rows.size(), 15u);
  EXPECT_EQ(Rows[3].Target.Name, "gfx1100");
  EXPECT_FALSE(Rows[3].FromAMDGCN);
  EXPECT_EQ(Rows[4].Target.Name, "gfx1100");
  EXPECT_TRUE(Rows[4].FromAMDGCN);
  EXPECT_EQ(Rows[4].Registers, 40u);
  EXPECT_EQ(Rows[4].ByRegisters, 38u);
  EXPECT_EQ(Rows[4].Waves, 16u);
  for (const OccupancyRow &R : Rows)
    if (R.Target.Name == "sm_75")
      EXPECT_EQ(R.Waves, 32u); // 85 -> cap 32
  // R = 0: no register limit, the cap alone.
  for (const OccupancyRow &R : kernelOccupancy(0)) {
    EXPECT_EQ(R.ByRegisters, std::nullopt);
    EXPECT_EQ(R.Waves, R.Target.MaxWaves);
  }
}

TEST(Occupancy, NVPTXTableIsWhatParseMCPUAccepts) {
  for (const nvptx::SMTarget &T : nvptx::allSMTargets()) {
    llvm::Expected<unsigned> SM =
        nvptx::parseMCPU("sm_" + std::to_string(T.SM));
    ASSERT_TRUE(bool(SM)) << llvm::toString(SM.takeError());
    EXPECT_EQ(*SM, T.SM);
  }
  llvm::Expected<unsigned> Old = nvptx::parseMCPU("sm_60");
  ASSERT_FALSE(bool(Old));
  EXPECT_NE(llvm::toString(Old.takeError()).find("sm_70, sm_72"),
            std::string::npos);
}

} // namespace
