//===- Devices.h - The GPU devices behind openDevice() ----------*- C++ -*-===//
//
// Private to lib/Launch: one opener per GPU runtime, each returning its
// Device subclass (HsaDevice.cpp, CudaDevice.cpp), and the --timing lines
// both print.
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

/// Prints the --timing lines of a dispatch, "TOOL: dispatch N: T us", one
/// per launch; \p Seconds holds each launch's time in seconds.
void printTimes(const DeviceOptions &Opts, llvm::ArrayRef<double> Seconds);

} // namespace wave::launch

#endif // WAVE_LIB_LAUNCH_DEVICES_H
