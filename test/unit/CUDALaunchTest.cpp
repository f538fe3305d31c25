//===- CUDALaunchTest.cpp - Kernel parameters and launch shape for CUDA ---===//
//
// The parts of wave-run --device=cuda that need no GPU: the packed kernel
// parameters and cuLaunchKernel's grid, CTA and shared memory for the
// NVPTX stage's KernelABI (wave/NVPTX/Translate.h), and the architecture
// the translation targets on a device. Expected bytes are worked out by
// hand from KernelABI's parameter list and PTX's natural alignment.
//
//===----------------------------------------------------------------------===//
#include "wave/Runtime/CUDA/Launch.h"
#include "wave/Runtime/CUDA/Runtime.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace wave::cuda;

namespace {

// Two register parameters: base at 0, r0 at 8, r1 at 12, the memory size
// at 16 (already 8-aligned), local size at 24, workgroup x, y, z at 28..36.
TEST(CUDAParams, EvenRegisterCount) {
  KernelParamValues V;
  V.DeviceBase = 0x1122334455667788ull;
  V.Registers = {0x100, 0xFFFFFFFF};
  V.DeviceMemorySize = 0x100000000ull;
  V.LocalMemorySize = 16384;
  V.WorkgroupSize = {100, 2, 3};
  KernelParams P = packKernelParams(V);
  const std::vector<std::pair<unsigned, unsigned>> Slots = {
      {0, 8}, {8, 4}, {12, 4}, {16, 8}, {24, 4}, {28, 4}, {32, 4}, {36, 4}};
  EXPECT_EQ(P.Slots, Slots);
  const std::vector<uint8_t> Bytes = {
      0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,             // base
      0x00, 0x01, 0x00, 0x00,                                     // r0
      0xFF, 0xFF, 0xFF, 0xFF,                                     // r1
      0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,             // memory size
      0x00, 0x40, 0x00, 0x00,                                     // local size
      100,  0,    0,    0,    2,    0,    0,    0,    3, 0, 0, 0, // workgroup
  };
  EXPECT_EQ(P.Bytes, Bytes);
}

// An odd register count leaves 4 bytes of padding before the memory size.
TEST(CUDAParams, OddRegisterCountPadsTheSize) {
  KernelParamValues V;
  V.Registers = {7};
  V.DeviceMemorySize = 1048576;
  KernelParams P = packKernelParams(V);
  ASSERT_EQ(P.Slots.size(), 7u);
  EXPECT_EQ(P.Slots[1], std::make_pair(8u, 4u));
  EXPECT_EQ(P.Slots[2], std::make_pair(16u, 8u));
  EXPECT_EQ(P.Bytes.size(), 40u);
  uint64_t Size = 0;
  std::memcpy(&Size, P.Bytes.data() + 16, 8);
  EXPECT_EQ(Size, 1048576u);
}

// No register parameters: six parameters, the size right after the base.
TEST(CUDAParams, NoRegisters) {
  KernelParams P = packKernelParams(KernelParamValues{});
  EXPECT_EQ(P.Slots.size(), 6u);
  EXPECT_EQ(P.Slots[1], std::make_pair(8u, 8u));
  EXPECT_EQ(P.Bytes.size(), 32u);
}

// kernelParams points at each value in place.
TEST(CUDAParams, PointersAddressTheValues) {
  KernelParamValues V;
  V.DeviceBase = 0xd00000000ull;
  V.Registers = {1, 2, 3};
  V.WorkgroupSize = {32, 1, 1};
  KernelParams P = packKernelParams(V);
  std::vector<void *> Ptrs = P.pointers();
  ASSERT_EQ(Ptrs.size(), 9u);
  uint64_t Base = 0;
  std::memcpy(&Base, Ptrs[0], 8);
  EXPECT_EQ(Base, 0xd00000000ull);
  for (unsigned K = 0; K < 3; ++K) {
    uint32_t R = 0;
    std::memcpy(&R, Ptrs[1 + K], 4);
    EXPECT_EQ(R, K + 1);
  }
  uint32_t X = 0;
  std::memcpy(&X, Ptrs[6], 4);
  EXPECT_EQ(X, 32u);
}

TEST(CUDALaunch, WholeWarpsInOneDimension) {
  auto S = computeLaunchShape({3, 2, 1}, {100, 1, 1}, 16384);
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  EXPECT_EQ(S->Grid, (std::array<uint32_t, 3>{3, 2, 1}));
  EXPECT_EQ(S->Block, (std::array<uint32_t, 3>{128, 1, 1}));
  EXPECT_EQ(S->SharedBytes, 16384u);
  EXPECT_FALSE(S->needsSharedOptIn());

  S = computeLaunchShape({1, 1, 1}, {8, 4, 2}, 0); // 64 work-items
  ASSERT_TRUE(bool(S));
  EXPECT_EQ(S->Block, (std::array<uint32_t, 3>{64, 1, 1}));
  EXPECT_EQ(S->SharedBytes, 0u);

  S = computeLaunchShape({1, 1, 1}, {1, 1, 1}, 1); // one warp, 16 bytes
  ASSERT_TRUE(bool(S));
  EXPECT_EQ(S->Block[0], 32u);
  EXPECT_EQ(S->SharedBytes, 16u);

  S = computeLaunchShape({1, 1, 1}, {1024, 1, 1}, 0);
  ASSERT_TRUE(bool(S));
  EXPECT_EQ(S->Block[0], 1024u);
}

TEST(CUDALaunch, SharedMemoryRoundsAndOptsIn) {
  auto S = computeLaunchShape({1, 1, 1}, {32, 1, 1}, 100);
  ASSERT_TRUE(bool(S));
  EXPECT_EQ(S->SharedBytes, 112u);
  S = computeLaunchShape({1, 1, 1}, {32, 1, 1}, 48 * 1024);
  ASSERT_TRUE(bool(S));
  EXPECT_FALSE(S->needsSharedOptIn());
  S = computeLaunchShape({1, 1, 1}, {32, 1, 1}, 48 * 1024 + 1);
  ASSERT_TRUE(bool(S));
  EXPECT_EQ(S->SharedBytes, 48u * 1024 + 16);
  EXPECT_TRUE(S->needsSharedOptIn());
  S = computeLaunchShape({1, 1, 1}, {32, 1, 1}, UINT32_MAX);
  EXPECT_FALSE(bool(S));
  llvm::consumeError(S.takeError());
}

TEST(CUDALaunch, Limits) {
  auto Message = [](llvm::Expected<LaunchShape> S) {
    return S ? std::string("ok") : llvm::toString(S.takeError());
  };
  EXPECT_EQ(Message(computeLaunchShape({1, 1, 1}, {1025, 1, 1}, 0)),
            "a workgroup of 1025 x 1 x 1 work-items needs a CTA of 1056 "
            "threads; CUDA allows at most 1024");
  EXPECT_EQ(Message(computeLaunchShape({1, 1, 1}, {33, 32, 1}, 0)),
            "a workgroup of 33 x 32 x 1 work-items needs a CTA of 1056 "
            "threads; CUDA allows at most 1024");
  EXPECT_EQ(Message(computeLaunchShape({1, 65536, 1}, {32, 1, 1}, 0)),
            "grid dimension y of 65536 workgroups is more than CUDA's 65535");
  EXPECT_EQ(Message(computeLaunchShape({0x80000000u, 1, 1}, {32, 1, 1}, 0)),
            "grid dimension x of 2147483648 workgroups is more than CUDA's "
            "2147483647");
  EXPECT_EQ(Message(computeLaunchShape({1, 1, 0}, {32, 1, 1}, 0)),
            "grid dimension z is 0 workgroups");
  EXPECT_EQ(Message(computeLaunchShape({1, 1, 1}, {32, 0, 1}, 0)),
            "workgroup dimension y is 0 work-items");
  EXPECT_EQ(
      Message(computeLaunchShape({0x7fffffffu, 65535, 65535}, {32, 32, 1}, 0)),
      "ok");
}

// The translation targets the device's own architecture up to sm_90, the
// nearest older one the NVPTX stage accepts in between, and refuses GPUs
// older than sm_70.
TEST(CUDATarget, ClampsToTheTranslatorsRange) {
  auto SM = [](unsigned Major, unsigned Minor) -> std::string {
    DeviceInfo D;
    D.Name = "GPU";
    D.Major = Major;
    D.Minor = Minor;
    llvm::Expected<unsigned> R = targetSM(D);
    return R ? std::to_string(*R) : llvm::toString(R.takeError());
  };
  EXPECT_EQ(SM(9, 0), "90");
  EXPECT_EQ(SM(10, 0), "90");
  EXPECT_EQ(SM(12, 0), "90");
  EXPECT_EQ(SM(8, 9), "89");
  EXPECT_EQ(SM(8, 8), "87"); // no sm_88: the nearest older one
  EXPECT_EQ(SM(8, 6), "86");
  EXPECT_EQ(SM(8, 0), "80");
  EXPECT_EQ(SM(7, 5), "75");
  EXPECT_EQ(SM(7, 3), "72");
  EXPECT_EQ(SM(7, 0), "70");
  EXPECT_EQ(SM(6, 1), "CUDA device 'GPU' is sm_61; the NVPTX translation "
                      "needs sm_70 or newer");
}

TEST(CUDATarget, ArchName) {
  DeviceInfo D;
  D.Major = 8;
  D.Minor = 6;
  EXPECT_EQ(D.arch(), "sm_86");
}

} // namespace
