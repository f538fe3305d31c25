//===- HsaBackend.cpp - The HSA backend of the host runtime ---------------===//
//
// Device::open("hsa:N"): GPU agent N of the ROCm HSA runtime through one
// hsa::Context (the pieces wave-run's dispatch is made of: a queue, a
// completion signal, a kernarg buffer and a host staging buffer) and one
// allocation in the agent's coarse-grained memory, the arena, whose first
// byte is WAVE device address 0 (formats/amdgcn-abi.md: a buffer parameter
// is a 32-bit offset from the kernarg's device-memory base). The shared
// allocator of Device.cpp hands out ranges of the arena; host copies are
// hsa_memory_copy of exactly the bytes asked for, at the arena's base + the
// buffer's offset, through the staging buffer; zeroing is
// hsa_amd_memory_fill. Nothing is copied around a launch. A module is
// translated to a code object for the agent's processor
// (hsa::codeObjectFor: the AMDGCN stage, clang and ld.lld, the code-object
// cache) and loaded once, when it is created; its kernels' descriptors are
// looked up then too. A launch is one AQL kernel-dispatch packet whose
// kernarg segment holds the arena's base, the register parameters and the
// hidden grid and workgroup sizes. The AMDGCN ABI passes no memory size
// (an access out of bounds does not fault there, formats/amdgcn-abi.md
// "Where results can differ"), so the end of the highest allocation, which
// the emulator and CUDA devices bound accesses by, is not passed.
//
// A fault the queue reports leaves the device unusable: the launch fails
// with Fault, and every later call that needs the GPU fails with Fault
// saying so, until the device is opened again. A launch that does not
// complete within DeviceOptions::TimeoutSeconds fails with Limit, and the
// queue and memory are left to the process's exit (the kernel may still
// use them).
//
//===----------------------------------------------------------------------===//
#include "HostImpl.h"

#include "wave/AMDGCN/Target.h"
#include "wave/Emu/RunOptions.h"
#include "wave/Runtime/HSA/CodeObject.h"
#include "wave/Runtime/HSA/Runtime.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

using namespace llvm;

namespace wave::host {

/// The arena when DeviceOptions::DeviceMemory is 0: 1 GiB, or the agent's
/// whole coarse-grained memory when it has less.
static constexpr uint64_t DefaultArenaBytes = uint64_t(1) << 30;
/// The most device memory a WAVE kernel can address: 32-bit addresses
/// (formats/isa.md §4.9).
static constexpr uint64_t MaxArenaBytes = uint64_t(1) << 32;

/// \p E, an HsaError or another error, as a HostError: NoDevice for a
/// missing runtime or agent, Limit for a timeout, \p Failure otherwise.
static Error hostErrorOf(Error E, HostErrorCode Failure) {
  HostErrorCode C = Failure;
  std::string Msg;
  handleAllErrors(std::move(E), [&](const ErrorInfoBase &EI) {
    if (EI.isA<hsa::HsaError>()) {
      switch (static_cast<const hsa::HsaError &>(EI).getKind()) {
      case hsa::HsaErrorKind::NoDevice:
        C = HostErrorCode::NoDevice;
        break;
      case hsa::HsaErrorKind::Timeout:
        C = HostErrorCode::Limit;
        break;
      case hsa::HsaErrorKind::Failure:
        break;
      }
    }
    Msg += (Msg.empty() ? "" : "\n") + EI.message();
  });
  return hostError(C, Msg);
}

namespace {

class HsaBackend;

/// A module's code object on the agent and its kernels' descriptors.
class HsaModule final : public BackendModule {
public:
  HsaModule(HsaBackend &B) : B(B) {}
  ~HsaModule() override;
  HsaBackend &B;
  std::unique_ptr<hsa::Executable> Exe;
  /// Kernel K's descriptor, or why it has none.
  std::vector<std::optional<hsa::LoadedKernel>> Kernels;
  std::vector<std::string> Missing;
};

class HsaBackend final : public DeviceBackend {
public:
  HsaBackend(std::unique_ptr<hsa::Runtime> RT,
             std::unique_ptr<hsa::Context> Ctx, std::string Name,
             std::string MCPU, uint64_t Base, uint64_t Size, double Timeout)
      : RT(std::move(RT)), Ctx(std::move(Ctx)), Name(std::move(Name)),
        MCPU(std::move(MCPU)), Base(Base), Size(Size), Timeout(Timeout) {}
  ~HsaBackend() override {
    std::lock_guard<std::mutex> L(Mu);
    // Errors are not reported: a fault already made the queue unusable.
    Ctx->free(Base);
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

  /// Unloads \p M's code object (the executable does nothing once the
  /// context is abandoned).
  void unload(HsaModule &M) {
    std::lock_guard<std::mutex> L(Mu);
    M.Exe.reset();
  }

private:
  /// Success, or the Fault error of a device a fault or timeout broke. Mu
  /// is held.
  Error usable() {
    if (Broken)
      return hostError(HostErrorCode::Fault, "HSA device '" + Name +
                                                 "' is unusable: " + *Broken +
                                                 "; open the device again");
    return Error::success();
  }
  static Error backendError(Error E) {
    if (!E)
      return Error::success();
    return hostErrorOf(std::move(E), HostErrorCode::Backend);
  }

  std::unique_ptr<hsa::Runtime> RT;
  std::unique_ptr<hsa::Context> Ctx;
  std::string Name; ///< "hsa:N".
  std::string MCPU; ///< the agent's processor, the translation's target.
  uint64_t Base;    ///< the arena: WAVE device address 0.
  uint64_t Size;    ///< the arena's bytes.
  double Timeout;   ///< seconds per launch; <= 0: none.
  std::mutex Mu;    ///< one HSA call sequence at a time.
  /// Why the device is unusable (a fault or a timeout), if it is.
  std::optional<std::string> Broken;
};

HsaModule::~HsaModule() { B.unload(*this); }

Error HsaBackend::prepare(ModuleImpl &M) {
  std::vector<uint8_t> Wbin = writeWbin(M.File);
  hsa::CodeObjectRequest Req;
  Req.WbinBytes = Wbin;
  Req.MCPU = MCPU;
  Expected<std::vector<uint8_t>> Code = hsa::codeObjectFor(M.File, Req);
  if (!Code)
    return hostError(HostErrorCode::Compile,
                     "'" + M.Name + "': cannot translate it for HSA device '" +
                         Name + "' (" + MCPU +
                         "): " + toString(Code.takeError()));
  auto HM = std::make_unique<HsaModule>(*this);
  std::lock_guard<std::mutex> L(Mu);
  if (Error E = usable())
    return E;
  Expected<std::unique_ptr<hsa::Executable>> Exe = Ctx->load(*Code);
  if (!Exe)
    return hostError(HostErrorCode::Compile,
                     "'" + M.Name + "': " + toString(Exe.takeError()));
  HM->Exe = std::move(*Exe);
  for (const KernelInfo &KI : M.File.Kernels) {
    Expected<hsa::LoadedKernel> K = HM->Exe->kernel(KI.Name + ".kd");
    if (!K) {
      HM->Kernels.push_back(std::nullopt);
      HM->Missing.push_back(toString(K.takeError()));
      continue;
    }
    HM->Kernels.push_back(std::move(*K));
    HM->Missing.emplace_back();
  }
  M.Backend = std::move(HM);
  return Error::success();
}

Error HsaBackend::run(LaunchJob &J, uint64_t /*Top*/) {
  std::lock_guard<std::mutex> L(Mu);
  J.Ev->Start = std::chrono::steady_clock::now();
  if (Error E = usable())
    return E;
  const ModuleImpl &M = *J.M;
  unsigned K = J.Cfg.KernelIndex;
  const std::string &KernelName = M.KernelNames[K];
  auto &HM = static_cast<HsaModule &>(*M.Backend);
  if (K >= HM.Kernels.size() || !HM.Kernels[K])
    return hostError(HostErrorCode::InvalidArgument,
                     "kernel '" + KernelName + "' has no code object entry" +
                         (K < HM.Missing.size() ? ": " + HM.Missing[K] : ""));
  const hsa::LoadedKernel &LK = *HM.Kernels[K];
  Expected<hsa::KernargLayout> Layout = LK.layout();
  if (!Layout)
    return hostErrorOf(Layout.takeError(), HostErrorCode::Backend);
  const KernelInfo &KI = M.File.Kernels[K];
  hsa::KernargValues V;
  V.DeviceBase = Base;
  // The bound parameters; the kernel reads no other register's initial
  // value (formats/amdgcn-abi.md "Kernel arguments").
  V.Params.assign(Layout->NumParams, 0);
  for (const auto &[Reg, Value] : J.Cfg.SetRegs)
    if (Reg < V.Params.size())
      V.Params[Reg] = Value;
  V.Workgroups = J.Cfg.Grid;
  std::array<uint32_t, 3> Group = effectiveWorkgroupSize(KI, J.Cfg.Workgroup);
  for (unsigned D = 0; D < 3; ++D) {
    if (Group[D] > UINT16_MAX)
      return hostError(HostErrorCode::InvalidArgument,
                       "kernel '" + KernelName + "': workgroup dimension " +
                           Twine("xyz"[D]) + " of " + Twine(Group[D]) +
                           " work-items does not fit an AQL packet");
    V.GroupSize[D] = uint16_t(Group[D]);
  }
  Expected<double> Seconds = Ctx->launch(LK, V, KernelName, Timeout, false);
  if (Seconds)
    return Error::success();
  std::string Msg = toString(Seconds.takeError());
  bool TimedOut = Ctx->abandoned();
  if (!TimedOut && !Ctx->faulted())
    return hostError(HostErrorCode::Backend, Msg);
  if (TimedOut) {
    std::string Late = "kernel '" + KernelName + "' did not complete in " +
                       formatv("{0}", Timeout).str() + " s";
    Broken = Late + ", and its queue was abandoned to it";
    return hostError(HostErrorCode::Limit,
                     Late + " (DeviceOptions::TimeoutSeconds); the device's "
                            "HSA queue is abandoned: open the device again");
  }
  Broken = "an earlier launch faulted (" + Msg +
           "), and a fault leaves the HSA queue unusable";
  return hostError(HostErrorCode::Fault,
                   Msg + "; the device's HSA queue is unusable from now on: "
                         "open the device again");
}

} // namespace

/// The description of agent \p A.
static std::string describe(const hsa::AgentInfo &A) {
  std::string S = A.ProductName.empty() ? A.Name : A.ProductName;
  S += ", " + A.processor() + ", " + std::to_string(A.ComputeUnits) +
       " compute units";
  if (const amdgcn::GCNTarget *T = amdgcn::lookupTarget(A.processor()))
    S += ", " + std::to_string(T->WaveSize) + "-lane waves";
  uint64_t Coarse = 0;
  for (const hsa::RegionInfo &R : A.Regions)
    if (R.Seg == hsa::RegionInfo::Global && R.CoarseGrained && R.AllocAllowed)
      Coarse = std::max(Coarse, R.Size);
  return S + ", " + std::to_string(Coarse >> 20) + " MiB (HSA)";
}

Expected<std::unique_ptr<DeviceBackend>>
createHsaBackend(unsigned Index, const DeviceOptions &Opts, DeviceInfo &Info) {
  std::string Name = "hsa:" + std::to_string(Index);
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
  Expected<std::unique_ptr<hsa::Runtime>> RT = hsa::Runtime::open();
  if (!RT)
    return hostErrorOf(RT.takeError(), HostErrorCode::Backend);
  if (size_t Count = (*RT)->agents().size(); Index >= Count)
    return hostError(HostErrorCode::NoDevice,
                     "no HSA GPU agent " + Twine(Index) + ": there " +
                         (Count == 1 ? std::string("is 1")
                                     : "are " + std::to_string(Count)) +
                         " (listDevices() names them)");
  const hsa::AgentInfo &Agent = (*RT)->agents()[Index];
  std::string MCPU = Agent.processor();
  const amdgcn::GCNTarget *Target = amdgcn::lookupTarget(MCPU);
  if (!Target || !Target->Supported)
    return hostError(HostErrorCode::NoDevice,
                     "HSA agent '" + Agent.Name + "' is " + MCPU +
                         ", which the AMDGCN translation does not target "
                         "(supported: " +
                         amdgcn::supportedTargetList() + ")");

  Expected<std::unique_ptr<hsa::Context>> Ctx =
      hsa::Context::create(**RT, Index);
  if (!Ctx)
    return hostErrorOf(Ctx.takeError(), HostErrorCode::Backend);
  uint64_t Pool = (*Ctx)->deviceMemoryBytes();
  uint64_t Size = Opts.DeviceMemory;
  if (!Size)
    Size = std::min(DefaultArenaBytes, Pool);
  else if (Size > Pool)
    return hostError(HostErrorCode::InvalidArgument,
                     "device '" + Name + "': " + Twine(Size) +
                         " bytes of device memory asked for, but HSA agent '" +
                         Agent.Name + "' has " + Twine(Pool) +
                         " of coarse-grained memory");
  Size = alignTo(Size, emu::NamedBufferAlign);
  Expected<uint64_t> Base = (*Ctx)->allocate(Size);
  if (!Base)
    return hostErrorOf(Base.takeError(), HostErrorCode::Backend);
  // All of it zero, as the emulator's memory starts.
  if (Error E = (*Ctx)->zero(*Base, Size)) {
    (*Ctx)->free(*Base);
    return hostErrorOf(std::move(E), HostErrorCode::Backend);
  }
  Info.Name = Name;
  Info.Kind = BackendKind::Hsa;
  Info.Description = describe(Agent);
  return std::make_unique<HsaBackend>(std::move(*RT), std::move(*Ctx), Name,
                                      MCPU, *Base, Size, Opts.TimeoutSeconds);
}

std::vector<DeviceInfo> listHsaDevices() {
  std::vector<DeviceInfo> Ds;
  Expected<std::unique_ptr<hsa::Runtime>> RT = hsa::Runtime::open();
  if (!RT) {
    consumeError(RT.takeError());
    return Ds;
  }
  ArrayRef<hsa::AgentInfo> Agents = (*RT)->agents();
  for (size_t I = 0; I != Agents.size(); ++I) {
    DeviceInfo D;
    D.Name = "hsa:" + std::to_string(I);
    D.Kind = BackendKind::Hsa;
    D.Description = describe(Agents[I]);
    Ds.push_back(std::move(D));
  }
  return Ds;
}

} // namespace wave::host
