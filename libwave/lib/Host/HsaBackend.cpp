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
#include "ArenaBackend.h"

#include "wave/AMDGCN/Target.h"
#include "wave/Emu/RunOptions.h"
#include "wave/Runtime/HSA/CodeObject.h"
#include "wave/Runtime/HSA/Runtime.h"


using namespace llvm;

namespace wave::host {

/// An HSA error, or any other, as a HostError (ArenaBackend.h).
static Error hostErrorOf(Error E, HostErrorCode Failure) {
  return host::hostErrorOf<hsa::HsaError>(std::move(E), Failure);
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

class HsaBackend final : public ArenaBackend {
public:
  HsaBackend(std::unique_ptr<hsa::Runtime> RT,
             std::unique_ptr<hsa::Context> Ctx, std::string Name,
             std::string MCPU, uint64_t Base, uint64_t Size, double Timeout)
      : ArenaBackend(std::move(Name), "HSA", "HSA queue", Base, Size, Timeout),
        RT(std::move(RT)), Ctx(std::move(Ctx)), MCPU(std::move(MCPU)) {}
  ~HsaBackend() override {
    std::lock_guard<std::mutex> L(Mu);
    // Errors are not reported: a fault already made the queue unusable.
    Ctx->free(Base);
    Ctx.reset();
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
  Error copyIn(uint64_t Device, const uint8_t *Data, uint64_t Bytes) override {
    return backendError(Ctx->copyToDevice(Device, Data, Bytes));
  }
  Error copyOut(uint8_t *Out, uint64_t Device, uint64_t Bytes) override {
    return backendError(Ctx->copyFromDevice(Out, Device, Bytes));
  }
  Error fillZero(uint64_t Device, uint64_t Bytes) override {
    return backendError(Ctx->zero(Device, Bytes));
  }
  static Error backendError(Error E) {
    if (!E)
      return Error::success();
    return hostErrorOf(std::move(E), HostErrorCode::Backend);
  }

  std::unique_ptr<hsa::Runtime> RT;
  std::unique_ptr<hsa::Context> Ctx;
  std::string MCPU; ///< the agent's processor, the translation's target.
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
  return launchFailed(toString(Seconds.takeError()), Ctx->abandoned(),
                      Ctx->faulted(), KernelName);
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
  if (Error E = checkArenaOption(Name, Opts.DeviceMemory))
    return std::move(E);
  Expected<std::unique_ptr<hsa::Runtime>> RT = hsa::Runtime::open();
  if (!RT)
    return hostErrorOf(RT.takeError(), HostErrorCode::Backend);
  if (size_t Count = (*RT)->agents().size(); Index >= Count)
    return noSuchDevice("HSA GPU agent", Index, Count);
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
  Expected<uint64_t> Size =
      arenaSize(Name, Opts.DeviceMemory, (*Ctx)->deviceMemoryBytes(),
                "the coarse-grained memory of HSA agent '" + Agent.Name + "'");
  if (!Size)
    return Size.takeError();
  Expected<uint64_t> Base = allocateArena<hsa::HsaError>(**Ctx, *Size);
  if (!Base)
    return Base.takeError();
  Info.Name = Name;
  Info.Kind = BackendKind::Hsa;
  Info.Description = describe(Agent);
  return std::make_unique<HsaBackend>(std::move(*RT), std::move(*Ctx), Name,
                                      MCPU, *Base, *Size, Opts.TimeoutSeconds);
}

std::vector<DeviceInfo> listHsaDevices() {
  Expected<std::unique_ptr<hsa::Runtime>> RT = hsa::Runtime::open();
  if (!RT) {
    consumeError(RT.takeError());
    return {};
  }
  return deviceList("hsa", BackendKind::Hsa, (*RT)->agents(),
                    [](const hsa::AgentInfo &D) { return describe(D); });
}

} // namespace wave::host
