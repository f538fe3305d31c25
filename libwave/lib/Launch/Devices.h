//===- Devices.h - The GPU devices behind openDevice() ----------*- C++ -*-===//
//
// Private to lib/Launch: one opener per GPU runtime, each returning its
// Device subclass (HsaDevice.cpp, CudaDevice.cpp), and what both do around
// a dispatch: the run options and the --timing lines.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_LIB_LAUNCH_DEVICES_H
#define WAVE_LIB_LAUNCH_DEVICES_H

#include "wave/Launch/Device.h"

namespace wave::launch {

/// openDevice() for DeviceKind::Hsa (formats/amdgcn-abi.md).
llvm::Expected<std::unique_ptr<Device>>
openHsaDevice(const DeviceOptions &Opts, const WbinFile &File,
              llvm::ArrayRef<uint8_t> Bytes, bool IsCodeObject);

/// openDevice() for DeviceKind::Cuda (formats/nvptx-abi.md).
llvm::Expected<std::unique_ptr<Device>>
openCudaDevice(const DeviceOptions &Opts, const WbinFile &File,
               llvm::ArrayRef<uint8_t> Bytes);

/// Dispatches \p R (an hsa:: or cuda::DispatchRequest) on device
/// Opts.Agent of \p RT with the run options of \p Opts (--timeout,
/// --repeat, --timing), then prints the --timing lines.
template <typename RuntimeT, typename RequestT>
llvm::Error dispatchWithOptions(const DeviceOptions &Opts, RuntimeT &RT,
                                RequestT &R) {
  R.TimeoutSeconds = Opts.TimeoutSeconds;
  R.Repeat = Opts.Repeat;
  R.Profile = Opts.Timing;
  auto Res = RT.dispatch(Opts.Agent, R);
  if (!Res)
    return Res.takeError();
  printTimes(Opts, Res->Seconds);
  return llvm::Error::success();
}

/// Prints the --timing lines of a dispatch, "TOOL: dispatch N: T us", one
/// per launch; \p Seconds holds each launch's time in seconds.
void printTimes(const DeviceOptions &Opts, llvm::ArrayRef<double> Seconds);

} // namespace wave::launch

#endif // WAVE_LIB_LAUNCH_DEVICES_H
