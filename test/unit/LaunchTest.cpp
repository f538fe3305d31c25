//===- LaunchTest.cpp - wave::launch without a GPU ------------------------===//
//
// The exit statuses of wave-run(1) for device and run errors
// (libwave/include/wave/Launch/Device.h), the emulator default of
// openDevice() and the code-object stand-in.
//
//===----------------------------------------------------------------------===//
#include "wave/Launch/Device.h"
#include "wave/Runtime/CUDA/Runtime.h"
#include "wave/Runtime/HSA/Runtime.h"
#include "wave/Tool/Tool.h"

#include "gtest/gtest.h"

using namespace llvm;
using namespace wave;
using namespace wave::launch;

namespace {

/// The exit status \p Map gives the one error in \p E.
template <typename MapT> int codeOf(Error E, MapT Map) {
  int RC = -1;
  handleAllErrors(std::move(E), [&](const ErrorInfoBase &EI) { RC = Map(EI); });
  return RC;
}

TEST(LaunchTest, DeviceErrorExitCodes) {
  auto Dev = [](Error E) {
    return codeOf(std::move(E), exitCodeForDeviceError);
  };
  using cuda::CudaErrorKind;
  using hsa::HsaErrorKind;
  EXPECT_EQ(Dev(make_error<hsa::HsaError>(HsaErrorKind::NoDevice, "x")),
            tool::ExitUsage);
  EXPECT_EQ(Dev(make_error<hsa::HsaError>(HsaErrorKind::Timeout, "x")),
            tool::ExitLimit);
  EXPECT_EQ(Dev(make_error<hsa::HsaError>(HsaErrorKind::Failure, "x")),
            tool::ExitInvalidInput);
  EXPECT_EQ(Dev(make_error<cuda::CudaError>(CudaErrorKind::NoDevice, "x")),
            tool::ExitUsage);
  EXPECT_EQ(Dev(make_error<cuda::CudaError>(CudaErrorKind::Timeout, "x")),
            tool::ExitLimit);
  EXPECT_EQ(Dev(make_error<cuda::CudaError>(CudaErrorKind::Failure, "x")),
            tool::ExitInvalidInput);
  // A failed translation, or anything else, is a bad input.
  EXPECT_EQ(Dev(createStringError("x")), tool::ExitInvalidInput);
}

TEST(LaunchTest, RunErrorExitCodes) {
  auto Run = [](Error E) { return codeOf(std::move(E), exitCodeForRunError); };
  EXPECT_EQ(Run(make_error<hsa::HsaError>(hsa::HsaErrorKind::Timeout, "x")),
            tool::ExitLimit);
  EXPECT_EQ(
      Run(make_error<cuda::CudaError>(cuda::CudaErrorKind::NoDevice, "x")),
      tool::ExitUsage);
  EXPECT_EQ(Run(make_error<WbinError>(0, "x")), tool::ExitInvalidInput);
  EXPECT_EQ(Run(make_error<emu::EmuError>(emu::EmuErrorKind::Limit, "x")),
            tool::ExitLimit);
  EXPECT_EQ(Run(make_error<emu::EmuError>(emu::EmuErrorKind::Fault, "x")),
            tool::ExitInvalidInput);
  // A bad option value found while running (unknown kernel, ...): usage.
  EXPECT_EQ(Run(createStringError("x")), tool::ExitUsage);
  EXPECT_EQ(reportRunError("wave-run", "k.wbin", Error::success()),
            tool::ExitSuccess);
}

TEST(LaunchTest, EmulatorIsNoDevice) {
  WbinFile F = codeObjectStandIn("k");
  ASSERT_EQ(F.Kernels.size(), 1u);
  EXPECT_EQ(F.Kernels[0].Name, "k");
  EXPECT_EQ(F.Kernels[0].CodeSize, F.Code.size());
  auto Dev = openDevice(DeviceOptions(), F, {});
  ASSERT_TRUE(bool(Dev)) << toString(Dev.takeError());
  EXPECT_EQ(Dev->get(), nullptr);
}

} // namespace
