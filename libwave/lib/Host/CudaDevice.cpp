//===- CudaDevice.cpp - The CUDA backend of the host runtime --------------===//
//
// Device::open("cuda:N"): one CUDA context on device N (cuda::Context, the
// pieces wave-run's dispatch is made of) and one device allocation, the
// arena, whose first byte is WAVE device address 0 (formats/nvptx-abi.md:
// a buffer parameter is a 32-bit offset from `device_base`). The shared
// allocator of Device.cpp hands out ranges of the arena; host copies are
// one cuMemcpyHtoD or cuMemcpyDtoH of exactly the bytes asked for, at the
// arena's base + the buffer's offset; zeroing is cuMemsetD8. Nothing is
// copied around a launch. A module is translated to PTX (for the device's
// SM, cuda::targetSM) and JIT-loaded once, when it is created; its
// kernels' functions are looked up then too. A launch passes the arena's
// base, the register parameters, and as the memory size the end of the
// highest allocation: the kernel's bounds checks then fault exactly where
// the emulator's do (it runs over the same [0, top) of memory).
//
// A CUDA fault leaves the context unusable (CUDA's errors of a faulted
// launch are sticky): the launch fails with Fault, and every later call
// that needs the GPU fails with Fault saying so, until the device is
// opened again. A launch that does not complete within
// DeviceOptions::TimeoutSeconds fails with Limit, and the context is left
// to the process's exit (destroying it would wait for the kernel).
//
//===----------------------------------------------------------------------===//
#include "ArenaBackend.h"

#include "wave/Emu/RunOptions.h"
#include "wave/NVPTX/Translate.h"
#include "wave/Runtime/CUDA/Runtime.h"


using namespace llvm;
using wave::cuda::CUdeviceptr;
using wave::cuda::CUfunction;
using wave::cuda::CUmodule;

namespace wave::host {

/// A CUDA error, or any other, as a HostError (ArenaBackend.h).
static Error hostErrorOf(Error E, HostErrorCode Failure) {
  return host::hostErrorOf<cuda::CudaError>(std::move(E), Failure);
}

namespace {

class CudaBackend;

/// A module's PTX module on the device and its kernels' functions.
class CudaModule final : public BackendModule {
public:
  CudaModule(CudaBackend &B) : B(B) {}
  ~CudaModule() override;
  CudaBackend &B;
  CUmodule Module = nullptr;
  std::vector<nvptx::KernelABI> ABIs;
  std::vector<CUfunction> Functions;
};

class CudaBackend final : public ArenaBackend {
public:
  CudaBackend(std::unique_ptr<cuda::Runtime> RT,
              std::unique_ptr<cuda::Context> Ctx, std::string Name, unsigned SM,
              CUdeviceptr Base, uint64_t Size, double Timeout)
      : ArenaBackend(std::move(Name), "CUDA", "CUDA context", Base, Size,
                     Timeout),
        RT(std::move(RT)), Ctx(std::move(Ctx)), SM(SM) {}
  ~CudaBackend() override {
    std::lock_guard<std::mutex> L(Mu);
    // Errors are not reported: a fault already made the context unusable.
    if (!Ctx->abandoned()) {
      consumeError(Ctx->makeCurrent());
      Ctx->free(Base);
    }
    Ctx.reset();
  }

  Error prepare(ModuleImpl &M) override;
  Error run(LaunchJob &J, uint64_t Top) override;

  /// Unloads \p M's module unless the context is gone.
  void unload(CudaModule &M) {
    std::lock_guard<std::mutex> L(Mu);
    if (!M.Module || Ctx->abandoned())
      return;
    if (Error E = Ctx->makeCurrent()) {
      consumeError(std::move(E));
      return;
    }
    Ctx->unloadModule(M.Module);
  }

private:
  Error copyIn(uint64_t Device, const uint8_t *Data, uint64_t Bytes) override {
    return backendError(Ctx->copyToDevice(Device, Data, Bytes));
  }
  Error copyOut(uint8_t *Out, uint64_t Device, uint64_t Bytes) override {
    return backendError(Ctx->copyFromDevice(Out, Device, Bytes));
  }
  Error fillZero(uint64_t Device, uint64_t Bytes) override {
    return backendError(Ctx->zero(Device, Bytes));
  }
  /// Launches and copies run on the streams' threads: the context must be
  /// current on each.
  Error enter() override { return backendError(Ctx->makeCurrent()); }
  static Error backendError(Error E) {
    if (!E)
      return Error::success();
    return hostErrorOf(std::move(E), HostErrorCode::Backend);
  }

  std::unique_ptr<cuda::Runtime> RT;
  std::unique_ptr<cuda::Context> Ctx;
  unsigned SM; ///< the translation's target.
};

CudaModule::~CudaModule() { B.unload(*this); }

Error CudaBackend::prepare(ModuleImpl &M) {
  nvptx::TranslateOptions TO;
  TO.SM = SM;
  Expected<nvptx::PTXModule> PTX = nvptx::translateToPTX(M.File, TO);
  if (!PTX)
    return hostError(HostErrorCode::Compile,
                     "'" + M.Name + "': cannot translate it for CUDA device '" +
                         Name + "' (sm_" + Twine(SM) +
                         "): " + toString(PTX.takeError()));
  auto CM = std::make_unique<CudaModule>(*this);
  CM->ABIs = std::move(PTX->Kernels);
  std::lock_guard<std::mutex> L(Mu);
  if (Error E = usable())
    return E;
  Expected<CUmodule> Mod = Ctx->loadModule(PTX->PTX);
  if (!Mod)
    return hostError(HostErrorCode::Compile,
                     "'" + M.Name + "': " + toString(Mod.takeError()));
  CM->Module = *Mod;
  for (const nvptx::KernelABI &ABI : CM->ABIs) {
    Expected<CUfunction> F = Ctx->function(CM->Module, ABI.Symbol);
    if (!F) {
      Ctx->unloadModule(CM->Module);
      CM->Module = nullptr;
      return hostErrorOf(F.takeError(), HostErrorCode::Backend);
    }
    CM->Functions.push_back(*F);
  }
  M.Backend = std::move(CM);
  return Error::success();
}

Error CudaBackend::run(LaunchJob &J, uint64_t Top) {
  std::lock_guard<std::mutex> L(Mu);
  J.Ev->Start = std::chrono::steady_clock::now();
  if (Error E = usable())
    return E;
  const ModuleImpl &M = *J.M;
  unsigned K = J.Cfg.KernelIndex;
  const std::string &KernelName = M.KernelNames[K];
  auto &CM = static_cast<CudaModule &>(*M.Backend);
  if (K >= CM.Functions.size())
    return hostError(HostErrorCode::InvalidArgument,
                     "kernel '" + KernelName + "' has no PTX entry");
  KernelInfo NoInfo;
  const KernelInfo &KI = K < M.File.Kernels.size() ? M.File.Kernels[K] : NoInfo;
  cuda::KernelParamValues V;
  V.DeviceBase = Base;
  // The bound parameters; the kernel reads no other register's initial
  // value (formats/nvptx-abi.md "Kernel parameters").
  V.Registers.assign(CM.ABIs[K].NumRegParams, 0);
  for (const auto &[Reg, Value] : J.Cfg.SetRegs)
    if (Reg < V.Registers.size())
      V.Registers[Reg] = Value;
  V.DeviceMemorySize = Top;
  V.LocalMemorySize = effectiveLocalMemory(KI, J.Cfg.LocalMemory);
  V.WorkgroupSize = effectiveWorkgroupSize(KI, J.Cfg.Workgroup);
  Expected<cuda::LaunchShape> Shape = cuda::launchShapeFor(
      Ctx->info(), J.Cfg.Grid, V.WorkgroupSize, V.LocalMemorySize, KernelName);
  if (!Shape)
    return hostErrorOf(Shape.takeError(), HostErrorCode::InvalidArgument);
  Expected<double> Seconds =
      Ctx->launch(CM.Functions[K], *Shape, V, KernelName, Timeout, false);
  if (Seconds)
    return Error::success();
  return launchFailed(toString(Seconds.takeError()), Ctx->abandoned(),
                      Ctx->faulted(), KernelName);
}

} // namespace

/// The description of CUDA device \p D.
static std::string describe(const cuda::DeviceInfo &D) {
  return D.Name + ", " + D.arch() + ", " + std::to_string(D.Multiprocessors) +
         " multiprocessors, " + std::to_string(D.Memory >> 20) + " MiB (CUDA)";
}

Expected<std::unique_ptr<DeviceBackend>>
createCudaBackend(unsigned Index, const DeviceOptions &Opts, DeviceInfo &Info) {
  std::string Name = "cuda:" + std::to_string(Index);
  if (Opts.WaveWidth != cuda::WarpSize)
    return hostError(HostErrorCode::InvalidArgument,
                     "device '" + Name + "': CUDA devices run " +
                         Twine(cuda::WarpSize) +
                         "-lane waves (one per warp), "
                         "not " +
                         Twine(Opts.WaveWidth));
  if (Error E = checkArenaOption(Name, Opts.DeviceMemory))
    return std::move(E);
  Expected<std::unique_ptr<cuda::Runtime>> RT = cuda::Runtime::open();
  if (!RT)
    return hostErrorOf(RT.takeError(), HostErrorCode::Backend);
  if (size_t Count = (*RT)->devices().size(); Index >= Count)
    return noSuchDevice("CUDA device", Index, Count);
  const cuda::DeviceInfo &Dev = (*RT)->devices()[Index];
  Expected<unsigned> SM = cuda::targetSM(Dev);
  if (!SM)
    return hostErrorOf(SM.takeError(), HostErrorCode::Backend);
  Expected<uint64_t> Size = arenaSize(Name, Opts.DeviceMemory, Dev.Memory,
                                     "CUDA device '" + Dev.Name + "'");
  if (!Size)
    return Size.takeError();

  Expected<std::unique_ptr<cuda::Context>> Ctx =
      cuda::Context::create(**RT, Index);
  if (!Ctx)
    return hostErrorOf(Ctx.takeError(), HostErrorCode::Backend);
  Expected<uint64_t> Base = allocateArena<cuda::CudaError>(**Ctx, *Size);
  if (!Base)
    return Base.takeError();
  Info.Name = Name;
  Info.Kind = BackendKind::Cuda;
  Info.Description = describe(Dev);
  return std::make_unique<CudaBackend>(std::move(*RT), std::move(*Ctx), Name,
                                       *SM, *Base, *Size, Opts.TimeoutSeconds);
}

std::vector<DeviceInfo> listCudaDevices() {
  Expected<std::unique_ptr<cuda::Runtime>> RT = cuda::Runtime::open();
  if (!RT) {
    consumeError(RT.takeError());
    return {};
  }
  return deviceList("cuda", BackendKind::Cuda, (*RT)->devices(),
                    [](const cuda::DeviceInfo &D) { return describe(D); });
}

} // namespace wave::host
