//===- Device.cpp - openDevice(), exit statuses, --list-devices -----------===//
//
// The runtime-independent part of wave::launch: the factory over the GPU
// devices (HsaDevice.cpp, CudaDevice.cpp), the code-object stand-in, and
// the mapping of device and run errors to wave-run(1)'s exit statuses.
//
//===----------------------------------------------------------------------===//
#include "Devices.h"

#include "wave/ISA/ISA.h"
#include "wave/Runtime/CUDA/Runtime.h"
#include "wave/Runtime/HSA/Runtime.h"
#include "wave/Tool/Tool.h"

#include "llvm/Support/Format.h"

using namespace llvm;
using namespace wave;
using namespace wave::launch;

Device::~Device() = default;

Error Device::operator()(const WbinFile &File, unsigned Kernel,
                         const emu::EmuConfig &Cfg,
                         MutableArrayRef<uint8_t> Memory) {
  if (Kernel < File.Kernels.size() &&
      llvm::is_contained(
          effectiveWorkgroupSize(File.Kernels[Kernel], Cfg.Workgroup), 0u))
    return Error::success();
  return dispatch(File, Kernel, Cfg, Memory);
}

Expected<std::unique_ptr<Device>> launch::openDevice(const DeviceOptions &Opts,
                                                     const WbinFile &File,
                                                     ArrayRef<uint8_t> Bytes,
                                                     bool IsCodeObject) {
  switch (Opts.Kind) {
  case DeviceKind::Emu:
    break;
  case DeviceKind::Hsa:
    return openHsaDevice(Opts, File, Bytes, IsCodeObject);
  case DeviceKind::Cuda:
    return openCudaDevice(Opts, File, Bytes);
  }
  return nullptr;
}

void launch::printTimes(const DeviceOptions &Opts, ArrayRef<double> Seconds) {
  raw_ostream &OS = Opts.TimingOS ? *Opts.TimingOS : errs();
  for (size_t I = 0; I < Seconds.size(); ++I)
    OS << Opts.ToolName << ": dispatch " << I + 1 << ": "
       << format("%.3f", Seconds[I] * 1e6) << " us\n";
}

WbinFile launch::codeObjectStandIn(StringRef Name) {
  WbinFile F;
  Inst Halt;
  Halt.Op = Opcode::Halt;
  encodeInst(Halt, F.Code);
  KernelInfo K;
  K.Name = Name.str();
  K.CodeSize = uint32_t(F.Code.size());
  F.Kernels.push_back(std::move(K));
  return F;
}

/// The exit status of a runtime error of kind \p Kind (HsaErrorKind or
/// CudaErrorKind, which name the same three cases).
template <typename KindT> static int exitCodeForKind(KindT Kind) {
  switch (Kind) {
  case KindT::NoDevice:
    return tool::ExitUsage;
  case KindT::Timeout:
    return tool::ExitLimit;
  case KindT::Failure:
    break;
  }
  return tool::ExitInvalidInput;
}

int launch::exitCodeForDeviceError(const ErrorInfoBase &EI) {
  if (EI.isA<hsa::HsaError>())
    return exitCodeForKind(static_cast<const hsa::HsaError &>(EI).getKind());
  if (EI.isA<cuda::CudaError>())
    return exitCodeForKind(static_cast<const cuda::CudaError &>(EI).getKind());
  return tool::ExitInvalidInput;
}

int launch::reportDeviceError(StringRef ToolName, Error E) {
  int RC = tool::ExitInvalidInput;
  handleAllErrors(std::move(E), [&](const ErrorInfoBase &EI) {
    tool::printError(ToolName, EI.message());
    RC = exitCodeForDeviceError(EI);
  });
  return RC;
}

int launch::exitCodeForRunError(const ErrorInfoBase &EI) {
  if (EI.isA<hsa::HsaError>() || EI.isA<cuda::CudaError>())
    return exitCodeForDeviceError(EI);
  if (EI.isA<WbinError>())
    return tool::ExitInvalidInput;
  if (EI.isA<emu::EmuError>())
    return static_cast<const emu::EmuError &>(EI).getKind() ==
                   emu::EmuErrorKind::Limit
               ? tool::ExitLimit
               : tool::ExitInvalidInput;
  return tool::ExitUsage;
}

int launch::reportRunError(StringRef ToolName, StringRef Input, Error E) {
  int RC = tool::ExitSuccess;
  handleAllErrors(
      std::move(E),
      [&](const WbinError &WE) {
        // A limit the file's own metadata breaks: located, bad input.
        tool::printBinaryError(ToolName, Input, make_error<WbinError>(WE));
        RC = exitCodeForRunError(WE);
      },
      [&](const emu::EmuError &EE) {
        tool::printError(ToolName, EE.getMessage());
        RC = exitCodeForRunError(EE);
      },
      [&](const ErrorInfoBase &EI) {
        tool::printError(ToolName, EI.message());
        RC = exitCodeForRunError(EI);
      });
  return RC;
}

int launch::listDevices(StringRef ToolName, raw_ostream &OS) {
  auto HSA = hsa::Runtime::open();
  auto CUDA = cuda::Runtime::open();
  if (!HSA && !CUDA) {
    int HsaRC = reportDeviceError(ToolName, HSA.takeError());
    int CudaRC = reportDeviceError(ToolName, CUDA.takeError());
    return HsaRC == tool::ExitUsage && CudaRC == tool::ExitUsage
               ? tool::ExitUsage
               : tool::ExitInvalidInput;
  }
  if (HSA)
    hsa::printAgents((*HSA)->agents(), OS);
  else
    OS << toString(HSA.takeError()) << "\n";
  if (CUDA)
    (*CUDA)->printDevices(OS);
  else
    OS << toString(CUDA.takeError()) << "\n";
  return tool::ExitSuccess;
}
