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
#include "HostImpl.h"

#include "wave/Emu/RunOptions.h"
#include "wave/NVPTX/Translate.h"
#include "wave/Runtime/CUDA/Runtime.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

using namespace llvm;
using wave::cuda::CUdeviceptr;
using wave::cuda::CUfunction;
using wave::cuda::CUmodule;

namespace wave::host {

/// The arena when DeviceOptions::DeviceMemory is 0: 1 GiB, or the device's
/// whole memory when it has less.
static constexpr uint64_t DefaultArenaBytes = uint64_t(1) << 30;
/// The most device memory a WAVE kernel can address: 32-bit addresses
/// (formats/isa.md §4.9).
static constexpr uint64_t MaxArenaBytes = uint64_t(1) << 32;

/// \p E, a CudaError or another error, as a HostError: NoDevice for a
/// missing driver or device, Limit for a timeout, \p Failure otherwise.
static Error hostErrorOf(Error E, HostErrorCode Failure) {
  HostErrorCode C = Failure;
  std::string Msg;
  handleAllErrors(std::move(E), [&](const ErrorInfoBase &EI) {
    if (EI.isA<cuda::CudaError>()) {
      switch (static_cast<const cuda::CudaError &>(EI).getKind()) {
      case cuda::CudaErrorKind::NoDevice:
        C = HostErrorCode::NoDevice;
        break;
      case cuda::CudaErrorKind::Timeout:
        C = HostErrorCode::Limit;
        break;
      case cuda::CudaErrorKind::Failure:
        break;
      }
    }
    Msg += (Msg.empty() ? "" : "\n") + EI.message();
  });
  return hostError(C, Msg);
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

class CudaBackend final : public DeviceBackend {
public:
  CudaBackend(std::unique_ptr<cuda::Runtime> RT,
              std::unique_ptr<cuda::Context> Ctx, std::string Name, unsigned SM,
              CUdeviceptr Base, uint64_t Size, double Timeout)
      : RT(std::move(RT)), Ctx(std::move(Ctx)), Name(std::move(Name)), SM(SM),
        Base(Base), Size(Size), Timeout(Timeout) {}
  ~CudaBackend() override {
    std::lock_guard<std::mutex> L(Mu);
    // Errors are not reported: a fault already made the context unusable.
    if (!Ctx->abandoned()) {
      consumeError(Ctx->makeCurrent());
      Ctx->free(Base);
    }
    Ctx.reset();
  }

  uint64_t memorySize() const override { return Size; }
  std::string memoryDescription() const override {
    return "the " + std::to_string(Size) + " bytes of device memory of '" +
           Name + "' (DeviceOptions::DeviceMemory)";
  }

  Error write(uint64_t Addr, ArrayRef<uint8_t> Data) override {
    if (Data.empty())
      return Error::success();
    std::lock_guard<std::mutex> L(Mu);
    if (Error E = usable())
      return E;
    return backendError(
        Ctx->copyToDevice(Base + Addr, Data.data(), Data.size()));
  }
  Error read(uint64_t Addr, MutableArrayRef<uint8_t> Out) override {
    if (Out.empty())
      return Error::success();
    std::lock_guard<std::mutex> L(Mu);
    if (Error E = usable())
      return E;
    return backendError(
        Ctx->copyFromDevice(Out.data(), Base + Addr, Out.size()));
  }
  Error zero(uint64_t Addr, uint64_t Len) override {
    std::lock_guard<std::mutex> L(Mu);
    if (Error E = usable())
      return E;
    return backendError(Ctx->zero(Base + Addr, Len));
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
  /// Success, or the Fault error of a context a fault or timeout broke;
  /// then makes the context current. Mu is held.
  Error usable() {
    if (Broken)
      return hostError(HostErrorCode::Fault, "CUDA device '" + Name +
                                                 "' is unusable: " + *Broken +
                                                 "; open the device again");
    return backendError(Ctx->makeCurrent());
  }
  static Error backendError(Error E) {
    if (!E)
      return Error::success();
    return hostErrorOf(std::move(E), HostErrorCode::Backend);
  }

  std::unique_ptr<cuda::Runtime> RT;
  std::unique_ptr<cuda::Context> Ctx;
  std::string Name; ///< "cuda:N".
  unsigned SM;      ///< the translation's target.
  CUdeviceptr Base; ///< the arena: WAVE device address 0.
  uint64_t Size;    ///< the arena's bytes.
  double Timeout;   ///< seconds per launch; <= 0: none.
  std::mutex Mu;    ///< one driver call sequence at a time.
  /// Why the context is unusable (a fault or a timeout), if it is.
  std::optional<std::string> Broken;
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
  std::string Msg = toString(Seconds.takeError());
  bool TimedOut = Ctx->abandoned();
  if (!TimedOut && !Ctx->faulted())
    return hostError(HostErrorCode::Backend, Msg);
  if (TimedOut) {
    std::string Late = "kernel '" + KernelName + "' did not complete in " +
                       formatv("{0}", Timeout).str() + " s";
    Broken = Late + ", and its context was abandoned to it";
    return hostError(HostErrorCode::Limit,
                     Late + " (DeviceOptions::TimeoutSeconds); the device's "
                            "CUDA context is abandoned: open the device "
                            "again");
  }
  Broken = "an earlier launch faulted (" + Msg +
           "), and a CUDA fault leaves the context unusable";
  return hostError(HostErrorCode::Fault,
                   Msg + "; the device's CUDA context is unusable from now "
                         "on: open the device again");
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
  if (Opts.DeviceMemory > MaxArenaBytes)
    return hostError(HostErrorCode::InvalidArgument,
                     "device '" + Name + "': " + Twine(Opts.DeviceMemory) +
                         " bytes of device memory is more than WAVE's 32-bit "
                         "addresses reach (4 GiB, formats/isa.md §4.9)");
  if (Opts.DeviceMemory && Opts.DeviceMemory <= emu::NamedBufferBase)
    return hostError(HostErrorCode::InvalidArgument,
                     "device '" + Name + "': " + Twine(Opts.DeviceMemory) +
                         " bytes of device memory leave no room for a "
                         "buffer (they start at address " +
                         Twine(emu::NamedBufferBase) + ")");
  Expected<std::unique_ptr<cuda::Runtime>> RT = cuda::Runtime::open();
  if (!RT)
    return hostErrorOf(RT.takeError(), HostErrorCode::Backend);
  if (size_t Count = (*RT)->devices().size(); Index >= Count)
    return hostError(HostErrorCode::NoDevice,
                     "no CUDA device " + Twine(Index) + ": there " +
                         (Count == 1 ? std::string("is 1")
                                     : "are " + std::to_string(Count)) +
                         " (listDevices() names them)");
  const cuda::DeviceInfo &Dev = (*RT)->devices()[Index];
  Expected<unsigned> SM = cuda::targetSM(Dev);
  if (!SM)
    return hostErrorOf(SM.takeError(), HostErrorCode::Backend);
  uint64_t Size = Opts.DeviceMemory;
  if (!Size)
    Size = std::min(DefaultArenaBytes, Dev.Memory);
  else if (Size > Dev.Memory)
    return hostError(
        HostErrorCode::InvalidArgument,
        "device '" + Name + "': " + Twine(Size) +
            " bytes of device memory asked for, but CUDA device '" + Dev.Name +
            "' has " + Twine(Dev.Memory));
  Size = alignTo(Size, emu::NamedBufferAlign);

  Expected<std::unique_ptr<cuda::Context>> Ctx =
      cuda::Context::create(**RT, Index);
  if (!Ctx)
    return hostErrorOf(Ctx.takeError(), HostErrorCode::Backend);
  Expected<CUdeviceptr> Base = (*Ctx)->allocate(Size);
  if (!Base)
    return hostErrorOf(Base.takeError(), HostErrorCode::Backend);
  // All of it zero, as the emulator's memory starts.
  if (Error E = (*Ctx)->zero(*Base, Size)) {
    (*Ctx)->free(*Base);
    return hostErrorOf(std::move(E), HostErrorCode::Backend);
  }
  Info.Name = Name;
  Info.Kind = BackendKind::Cuda;
  Info.Description = describe(Dev);
  return std::make_unique<CudaBackend>(std::move(*RT), std::move(*Ctx), Name,
                                       *SM, *Base, Size, Opts.TimeoutSeconds);
}

std::vector<DeviceInfo> listCudaDevices() {
  std::vector<DeviceInfo> Ds;
  Expected<std::unique_ptr<cuda::Runtime>> RT = cuda::Runtime::open();
  if (!RT) {
    consumeError(RT.takeError());
    return Ds;
  }
  ArrayRef<cuda::DeviceInfo> Devs = (*RT)->devices();
  for (size_t I = 0; I != Devs.size(); ++I) {
    DeviceInfo D;
    D.Name = "cuda:" + std::to_string(I);
    D.Kind = BackendKind::Cuda;
    D.Description = describe(Devs[I]);
    Ds.push_back(std::move(D));
  }
  return Ds;
}

} // namespace wave::host
