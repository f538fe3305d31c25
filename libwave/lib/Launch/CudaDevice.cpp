//===- CudaDevice.cpp - Launch on an NVIDIA GPU through the CUDA driver ---===//
//
// wave-run --device=cuda: every kernel translated to PTX for the device's
// SM, in process, then one launch per kernel dispatch following the
// translation's KernelABI (formats/nvptx-abi.md).
//
//===----------------------------------------------------------------------===//
#include "Devices.h"

#include "wave/NVPTX/Translate.h"
#include "wave/Runtime/CUDA/Runtime.h"
#include "wave/Runtime/CodeObjectCache.h"

#include <algorithm>

using namespace llvm;
using namespace wave;
using namespace wave::launch;

namespace {

/// A CUDA device and the PTX of the binary for it.
class CudaDevice final : public Device {
public:
  CudaDevice(const DeviceOptions &Opts, std::unique_ptr<cuda::Runtime> RT,
             nvptx::PTXModule PTX)
      : Opts(Opts), RT(std::move(RT)), PTX(std::move(PTX)) {}

  Error dispatch(const WbinFile &F, unsigned K, const emu::EmuConfig &Cfg,
                 MutableArrayRef<uint8_t> Memory) override {
    const KernelInfo &KI = F.Kernels[K];
    if (K >= PTX.Kernels.size())
      return createStringError("kernel '%s' has no PTX entry", KI.Name.c_str());
    const nvptx::KernelABI &ABI = PTX.Kernels[K];
    cuda::DispatchRequest R;
    R.PTX = PTX.PTX;
    R.Symbol = ABI.Symbol;
    R.KernelName = KI.Name;
    R.Memory = Memory;
    // A named launch's parameters, then --set-reg (later ones win); the
    // kernel reads no other register's initial value.
    R.Registers.assign(ABI.NumRegParams, 0);
    for (const auto &[Reg, Value] : Cfg.SetRegs)
      if (Reg < R.Registers.size())
        R.Registers[Reg] = Value;
    R.LocalMemory = effectiveLocalMemory(KI, Cfg.LocalMemory);
    R.GroupSize = effectiveWorkgroupSize(KI, Cfg.Workgroup);
    R.Workgroups = Cfg.Grid;
    return dispatchWithOptions(Opts, *RT, R);
  }

private:
  DeviceOptions Opts;
  std::unique_ptr<cuda::Runtime> RT;
  nvptx::PTXModule PTX;
};

} // namespace

Expected<std::unique_ptr<Device>>
launch::openCudaDevice(const DeviceOptions &Opts, const WbinFile &File,
                       ArrayRef<uint8_t> Bytes) {
  auto RT = cuda::Runtime::open();
  if (!RT)
    return RT.takeError();
  if (Error E = (*RT)->checkDevice(Opts.Agent))
    return std::move(E);
  auto SM = cuda::targetSM((*RT)->devices()[Opts.Agent]);
  if (!SM)
    return SM.takeError();
  // The PTX from the code-object cache, or translated and stored; the
  // driver JIT-compiles it for the device at load time.
  auto PTX = runtime::cachedCodeObject(
      Bytes, "sm_" + std::to_string(*SM), "nvptx", ".ptx", Opts.UseCache,
      [&]() -> Expected<std::vector<uint8_t>> {
        nvptx::TranslateOptions TO;
        TO.SM = *SM;
        auto Translated = nvptx::translateToPTX(File, TO);
        if (!Translated)
          return Translated.takeError();
        return std::vector<uint8_t>(Translated->PTX.begin(),
                                    Translated->PTX.end());
      });
  if (!PTX) // a bad input, whatever the error's kind: exit status 1
    return make_error<StringError>(toString(PTX.takeError()),
                                   inconvertibleErrorCode());
  nvptx::PTXModule Module;
  Module.PTX.assign(PTX->begin(), PTX->end());
  Module.Kernels = nvptx::kernelABIs(File);
  return std::make_unique<CudaDevice>(Opts, std::move(*RT), std::move(Module));
}
