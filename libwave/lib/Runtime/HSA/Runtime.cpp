//===- Runtime.cpp - The ROCm HSA runtime: agents and dispatch ------------===//
//
// Core HSA API (hsa.h) for agents, regions, code objects, executables,
// queues and signals; AMD's extension (hsa_ext_amd.h) for the compute-unit
// count, the product name and dispatch profiling. Every HSA function is
// called through the runtime library that Library.h loads; the byte images
// of the kernarg segment and the AQL packet come from Dispatch.cpp.
//
//===----------------------------------------------------------------------===//
#include "wave/Runtime/HSA/Runtime.h"

#include "Library.h"

#include "wave/Runtime/HSA/Dispatch.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"

#include <atomic>
#include <chrono>
#include <cstring>

using namespace llvm;

namespace wave::hsa {

char HsaError::ID = 0;

std::error_code HsaError::convertToErrorCode() const {
  return inconvertibleErrorCode();
}

namespace {

/// The runtime library, for code that runs only once Runtime::open() has
/// loaded it (Library::get() then returns the same library again).
const Library &lib() { return cantFail(Library::get()); }

Error hsaError(HsaErrorKind Kind, const Twine &Msg) {
  return make_error<HsaError>(Kind, Msg.str());
}

/// Fails with "WHAT: <hsa_status_string>" unless \p S is success.
Error check(hsa_status_t S, const Twine &What) {
  if (S == HSA_STATUS_SUCCESS || S == HSA_STATUS_INFO_BREAK)
    return Error::success();
  const char *Text = nullptr;
  if (lib().hsa_status_string(S, &Text) != HSA_STATUS_SUCCESS || !Text)
    Text = "unknown HSA status";
  return hsaError(HsaErrorKind::Failure,
                  What + ": " + Text + " (status 0x" + utohexstr(S) + ")");
}

const char *segmentName(RegionInfo::Segment S) {
  switch (S) {
  case RegionInfo::Global:
    return "global";
  case RegionInfo::ReadOnly:
    return "readonly";
  case RegionInfo::Private:
    return "private";
  case RegionInfo::Group:
    return "group";
  case RegionInfo::Kernarg:
    return "kernarg";
  }
  return "?";
}

/// Reads what RegionInfo records of \p Region (HSA_REGION_INFO_*).
hsa_status_t readRegion(hsa_region_t Region, RegionInfo &RI) {
  hsa_region_segment_t Seg;
  uint32_t Flags = 0;
  size_t Size = 0;
  bool Alloc = false;
  const Library &L = lib();
  hsa_status_t S = L.hsa_region_get_info(Region, HSA_REGION_INFO_SEGMENT, &Seg);
  if (S == HSA_STATUS_SUCCESS && Seg == HSA_REGION_SEGMENT_GLOBAL)
    S = L.hsa_region_get_info(Region, HSA_REGION_INFO_GLOBAL_FLAGS, &Flags);
  if (S == HSA_STATUS_SUCCESS)
    S = L.hsa_region_get_info(Region, HSA_REGION_INFO_SIZE, &Size);
  if (S == HSA_STATUS_SUCCESS)
    S = L.hsa_region_get_info(Region, HSA_REGION_INFO_RUNTIME_ALLOC_ALLOWED,
                              &Alloc);
  if (S != HSA_STATUS_SUCCESS)
    return S;
  RI.Seg = RegionInfo::Segment(Seg);
  RI.KernargFlag = Flags & HSA_REGION_GLOBAL_FLAG_KERNARG;
  RI.FineGrained = Flags & HSA_REGION_GLOBAL_FLAG_FINE_GRAINED;
  RI.CoarseGrained = Flags & HSA_REGION_GLOBAL_FLAG_COARSE_GRAINED;
  RI.AllocAllowed = Alloc;
  RI.Size = Size;
  return HSA_STATUS_SUCCESS;
}

} // namespace

std::string AgentInfo::processor() const {
  StringRef S = ISA;
  size_t Dash = S.rfind("--");
  if (Dash != StringRef::npos)
    S = S.drop_front(Dash + 2);
  return S.take_until([](char C) { return C == ':'; }).str();
}

void printAgents(ArrayRef<AgentInfo> Agents, raw_ostream &OS) {
  for (size_t I = 0; I < Agents.size(); ++I) {
    const AgentInfo &A = Agents[I];
    OS << "agent " << I << ": " << A.Name;
    if (!A.ProductName.empty())
      OS << " (" << A.ProductName << ")";
    OS << "\n  isa: " << A.ISA << "\n  compute units: " << A.ComputeUnits
       << "\n  wavefront size: " << A.WavefrontSize << "\n  memory regions:\n";
    for (const RegionInfo &R : A.Regions) {
      OS << "    " << segmentName(R.Seg);
      if (R.Seg == RegionInfo::Global) {
        if (R.CoarseGrained)
          OS << " coarse-grained";
        if (R.FineGrained)
          OS << " fine-grained";
        if (R.KernargFlag)
          OS << " kernarg";
      }
      OS << ", " << R.Size << " bytes";
      if (!R.AllocAllowed)
        OS << ", not allocatable";
      OS << "\n";
    }
  }
}

/// Handles of the agents, in the order of Runtime::agents().
struct Runtime::Impl {
  bool Initialized = false;
  std::vector<hsa_agent_t> Agents;
  /// Set when a Context of this runtime is abandoned to a dispatch that
  /// did not complete: the runtime is then not shut down (hsa_shut_down
  /// would tear down a queue a kernel still runs on).
  std::shared_ptr<std::atomic<bool>> Abandoned =
      std::make_shared<std::atomic<bool>>(false);
};

Runtime::~Runtime() {
  if (I && I->Initialized && !I->Abandoned->load())
    lib().hsa_shut_down();
}

Expected<std::unique_ptr<Runtime>> Runtime::open() {
  // The library first: without it nothing else can be asked.
  Expected<const Library &> Lib = Library::get();
  if (!Lib)
    return Lib.takeError();
  const Library &L = *Lib;
  // Without the ROCm kernel driver hsa_init fails with a generic "out of
  // resources"; say what is missing instead. ROCm's runtime is asked only
  // when the driver is there; a library named by $WAVE_HSA_RUNTIME (the
  // tests' stub, which needs no driver) decides for itself.
  auto NoKfd = [] {
    return hsaError(HsaErrorKind::NoDevice,
                    "no HSA runtime device: /dev/kfd (the ROCm kernel "
                    "driver) is missing; use --device=emu");
  };
  bool HaveKfd = sys::fs::exists("/dev/kfd");
  if (!HaveKfd && L.Path == DefaultRuntimePath)
    return NoKfd();
  std::unique_ptr<Runtime> R(new Runtime());
  R->I = std::make_unique<Impl>();
  // A runtime that cannot start (no permission on /dev/kfd, a kernel
  // driver it does not support) leaves no device to use, as a CUDA driver
  // whose cuInit fails.
  if (hsa_status_t S = L.hsa_init(); S != HSA_STATUS_SUCCESS) {
    if (!HaveKfd)
      return NoKfd();
    return hsaError(HsaErrorKind::NoDevice,
                    "HSA runtime unusable: " +
                        toString(check(S, "hsa_init failed")));
  }
  R->I->Initialized = true;

  auto AgentCallback = [](hsa_agent_t A, void *Data) {
    hsa_device_type_t Type;
    hsa_status_t S = lib().hsa_agent_get_info(A, HSA_AGENT_INFO_DEVICE, &Type);
    if (S != HSA_STATUS_SUCCESS)
      return S;
    if (Type == HSA_DEVICE_TYPE_GPU)
      static_cast<std::vector<hsa_agent_t> *>(Data)->push_back(A);
    return HSA_STATUS_SUCCESS;
  };
  if (Error E = check(L.hsa_iterate_agents(AgentCallback, &R->I->Agents),
                      "enumerating HSA agents"))
    return std::move(E);
  if (R->I->Agents.empty())
    return hsaError(HsaErrorKind::NoDevice,
                    "no GPU agent: the HSA runtime found no GPU; use "
                    "--device=emu");

  for (hsa_agent_t A : R->I->Agents) {
    AgentInfo Info;
    char Name[64] = {};
    if (Error E = check(L.hsa_agent_get_info(A, HSA_AGENT_INFO_NAME, Name),
                        "reading an agent's name"))
      return std::move(E);
    Info.Name = std::string(Name, strnlen(Name, sizeof(Name)));
    char Product[64] = {};
    if (L.hsa_agent_get_info(A,
                             hsa_agent_info_t(HSA_AMD_AGENT_INFO_PRODUCT_NAME),
                             Product) == HSA_STATUS_SUCCESS)
      Info.ProductName = std::string(Product, strnlen(Product, sizeof(Product)));
    if (Error E = check(
            L.hsa_agent_get_info(
                A, hsa_agent_info_t(HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT),
                &Info.ComputeUnits),
            "reading agent " + Info.Name + "'s compute units"))
      return std::move(E);
    if (Error E = check(L.hsa_agent_get_info(A, HSA_AGENT_INFO_WAVEFRONT_SIZE,
                                             &Info.WavefrontSize),
                        "reading agent " + Info.Name + "'s wavefront size"))
      return std::move(E);
    auto IsaCallback = [](hsa_isa_t Isa, void *Data) {
      uint32_t Len = 0;
      hsa_status_t S =
          lib().hsa_isa_get_info_alt(Isa, HSA_ISA_INFO_NAME_LENGTH, &Len);
      if (S != HSA_STATUS_SUCCESS)
        return S;
      std::string Text(Len, '\0');
      S = lib().hsa_isa_get_info_alt(Isa, HSA_ISA_INFO_NAME, Text.data());
      if (S != HSA_STATUS_SUCCESS)
        return S;
      Text.resize(strnlen(Text.c_str(), Text.size()));
      *static_cast<std::string *>(Data) = Text;
      return HSA_STATUS_INFO_BREAK; // the first ISA is the agent's own
    };
    if (Error E = check(L.hsa_agent_iterate_isas(A, IsaCallback, &Info.ISA),
                        "reading agent " + Info.Name + "'s ISA"))
      return std::move(E);
    auto RegionCallback = [](hsa_region_t Region, void *Data) {
      RegionInfo RI;
      hsa_status_t S = readRegion(Region, RI);
      if (S == HSA_STATUS_SUCCESS)
        static_cast<std::vector<RegionInfo> *>(Data)->push_back(RI);
      return S;
    };
    if (Error E =
            check(L.hsa_agent_iterate_regions(A, RegionCallback, &Info.Regions),
                  "reading agent " + Info.Name + "'s memory regions"))
      return std::move(E);
    R->Infos.push_back(std::move(Info));
  }
  return std::move(R);
}

namespace {

/// The first allocatable global region of \p Agent with the property
/// \p Flag (a RegionInfo flag: coarse-grained, fine-grained, kernarg).
/// Regions whose properties cannot be read are passed over.
Expected<hsa_region_t> findRegion(hsa_agent_t Agent, bool RegionInfo::*Flag,
                                  StringRef What) {
  struct Search {
    bool RegionInfo::*Flag;
    hsa_region_t Found{0};
  } S{Flag};
  auto Callback = [](hsa_region_t Region, void *Data) {
    auto *Se = static_cast<Search *>(Data);
    RegionInfo RI;
    if (readRegion(Region, RI) != HSA_STATUS_SUCCESS ||
        RI.Seg != RegionInfo::Global || !(RI.*(Se->Flag)) || !RI.AllocAllowed)
      return HSA_STATUS_SUCCESS;
    Se->Found = Region;
    return HSA_STATUS_INFO_BREAK;
  };
  if (Error E = check(lib().hsa_agent_iterate_regions(Agent, Callback, &S),
                      "looking for " + What + " memory"))
    return std::move(E);
  if (!S.Found.handle)
    return hsaError(HsaErrorKind::Failure,
                    "the agent has no allocatable " + What + " memory region");
  return S.Found;
}

} // namespace

uint64_t Runtime::agentHandle(unsigned Index) const {
  return I->Agents[Index].handle;
}

Error Runtime::checkAgent(unsigned Index) const {
  if (Index < Infos.size())
    return Error::success();
  std::string There = Infos.size() == 1
                          ? "is 1 GPU agent"
                          : "are " + std::to_string(Infos.size()) +
                                " GPU agents";
  return hsaError(HsaErrorKind::NoDevice, "no agent " + Twine(Index) +
                                              ": there " + There +
                                              " (see --list-devices)");
}

//===----------------------------------------------------------------------===//
// LoadedKernel, Executable, Context
//===----------------------------------------------------------------------===//

Expected<KernargLayout> LoadedKernel::layout() const {
  if (KernargSize < 32 || KernargSize % 8 != 0 ||
      KernargSize > Context::KernargBufferBytes)
    return hsaError(HsaErrorKind::Failure,
                    "kernel '" + Symbol + "' has a kernarg segment of " +
                        Twine(KernargSize) +
                        " bytes, which is not the wavetools kernel ABI "
                        "(formats/amdgcn-abi.md)");
  return KernargLayout{(KernargSize - 24 - 8) / 4};
}

/// The HSA handles of a Context.
struct Context::Impl {
  hsa_agent_t Agent{0};
  hsa_region_t DevRegion{0};
  uint64_t DevRegionBytes = 0;
  void *Staging = nullptr, *Kernargs = nullptr;
  hsa_queue_t *Queue = nullptr;
  hsa_signal_t Signal{0};
  bool HasSignal = false, Profiling = false;
  uint64_t Frequency = 0;
  /// The status the queue's error callback reported (0: none).
  std::atomic<int> QueueStatus{0};
  /// The runtime's flag (Runtime::Impl::Abandoned).
  std::shared_ptr<std::atomic<bool>> RuntimeAbandoned;
};

Executable::~Executable() {
  if (Ctx.abandoned())
    return;
  // Release errors are not reported: after a fault, the fault matters.
  if (HasExe)
    lib().hsa_executable_destroy(hsa_executable_t{Exe});
  if (HasReader)
    lib().hsa_code_object_reader_destroy(hsa_code_object_reader_t{Reader});
}

Expected<LoadedKernel> Executable::kernel(StringRef Symbol) const {
  const Library &L = lib();
  LoadedKernel K;
  K.Symbol = Symbol.str();
  hsa_executable_symbol_t Sym;
  hsa_agent_t Agent = Ctx.I->Agent;
  if (Error E =
          check(L.hsa_executable_get_symbol_by_name(
                    hsa_executable_t{Exe}, K.Symbol.c_str(), &Agent, &Sym),
                "looking up kernel symbol '" + K.Symbol + "'"))
    return std::move(E);
  if (Error E =
          check(L.hsa_executable_symbol_get_info(
                    Sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &K.Object),
                "reading the kernel object of '" + K.Symbol + "'"))
    return std::move(E);
  if (Error E =
          check(L.hsa_executable_symbol_get_info(
                    Sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE,
                    &K.KernargSize),
                "reading the kernarg segment size"))
    return std::move(E);
  if (Error E =
          check(L.hsa_executable_symbol_get_info(
                    Sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE,
                    &K.GroupSegmentSize),
                "reading the group segment size"))
    return std::move(E);
  if (Error E =
          check(L.hsa_executable_symbol_get_info(
                    Sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE,
                    &K.PrivateSegmentSize),
                "reading the private segment size"))
    return std::move(E);
  return K;
}

namespace {

/// The queue's error callback: records the first asynchronous error (a
/// memory violation, an illegal instruction, ...) for launch() to report.
void queueError(hsa_status_t Status, hsa_queue_t *, void *Data) {
  int Expected = 0;
  static_cast<std::atomic<int> *>(Data)->compare_exchange_strong(Expected,
                                                                 int(Status));
}

} // namespace

Expected<std::unique_ptr<Context>> Context::create(const Runtime &RT,
                                                   unsigned Index) {
  if (Error E = RT.checkAgent(Index))
    return std::move(E);
  const Library &L = lib();
  std::unique_ptr<Context> C(new Context(RT.agents()[Index]));
  C->I = std::make_unique<Impl>();
  Impl &Im = *C->I;
  Im.Agent = hsa_agent_t{RT.agentHandle(Index)};
  Im.RuntimeAbandoned = RT.I->Abandoned;
  const std::string &AgentName = C->Info.Name;

  // Device memory in the coarse-grained region, staged through
  // fine-grained (host-visible) memory; kernargs in the kernarg region.
  Expected<hsa_region_t> DevRegion =
      findRegion(Im.Agent, &RegionInfo::CoarseGrained, "coarse-grained");
  if (!DevRegion)
    return DevRegion.takeError();
  Im.DevRegion = *DevRegion;
  size_t DevBytes = 0;
  if (Error E = check(
          L.hsa_region_get_info(Im.DevRegion, HSA_REGION_INFO_SIZE, &DevBytes),
          "reading the coarse-grained region's size"))
    return std::move(E);
  Im.DevRegionBytes = DevBytes;
  Expected<hsa_region_t> HostRegion =
      findRegion(Im.Agent, &RegionInfo::FineGrained, "fine-grained");
  if (!HostRegion)
    return HostRegion.takeError();
  Expected<hsa_region_t> ArgRegion =
      findRegion(Im.Agent, &RegionInfo::KernargFlag, "kernarg");
  if (!ArgRegion)
    return ArgRegion.takeError();
  if (Error E = check(
          L.hsa_memory_allocate(*ArgRegion, KernargBufferBytes, &Im.Kernargs),
          "allocating " + Twine(KernargBufferBytes) + " bytes of kernargs"))
    return std::move(E);
  if (Error E =
          check(L.hsa_memory_allocate(*HostRegion, StagingBytes, &Im.Staging),
                "allocating " + Twine(StagingBytes) +
                    " bytes of host staging memory"))
    return std::move(E);

  // Queue and completion signal.
  uint32_t QueueMax = 0;
  if (Error E = check(L.hsa_agent_get_info(
                          Im.Agent, HSA_AGENT_INFO_QUEUE_MAX_SIZE, &QueueMax),
                      "reading the agent's queue size"))
    return std::move(E);
  if (Error E = check(
          L.hsa_queue_create(Im.Agent, std::min<uint32_t>(QueueMax, 64),
                             HSA_QUEUE_TYPE_SINGLE, queueError, &Im.QueueStatus,
                             UINT32_MAX, UINT32_MAX, &Im.Queue),
          "creating a queue on agent " + AgentName)) {
    Im.Queue = nullptr;
    return std::move(E);
  }
  if (Error E = check(L.hsa_signal_create(1, 0, nullptr, &Im.Signal),
                      "creating a completion signal"))
    return std::move(E);
  Im.HasSignal = true;
  if (Error E = check(L.hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY,
                                            &Im.Frequency),
                      "reading the HSA timestamp frequency"))
    return std::move(E);
  return std::move(C);
}

Context::Context(AgentInfo Info) : Info(std::move(Info)) {}

Context::~Context() {
  if (Abandoned || !I)
    return;
  // Release errors are not reported: a fault already made the queue
  // unusable, and the fault is the error that matters.
  const Library &L = lib();
  if (I->HasSignal)
    L.hsa_signal_destroy(I->Signal);
  if (I->Queue)
    L.hsa_queue_destroy(I->Queue);
  if (I->Staging)
    L.hsa_memory_free(I->Staging);
  if (I->Kernargs)
    L.hsa_memory_free(I->Kernargs);
}

uint64_t Context::deviceMemoryBytes() const { return I->DevRegionBytes; }

bool Context::faulted() const { return I->QueueStatus.load() != 0; }

Expected<uint64_t> Context::allocate(uint64_t Bytes) {
  void *P = nullptr;
  if (Error E = check(lib().hsa_memory_allocate(
                          I->DevRegion, std::max<uint64_t>(Bytes, 1), &P),
                      "allocating " + Twine(Bytes) + " bytes of device memory"))
    return std::move(E);
  return reinterpret_cast<uintptr_t>(P);
}

void Context::free(uint64_t Address) {
  if (Address && !Abandoned)
    lib().hsa_memory_free(reinterpret_cast<void *>(uintptr_t(Address)));
}

Error Context::copyToDevice(uint64_t To, const void *From, uint64_t Bytes) {
  const auto *Src = static_cast<const uint8_t *>(From);
  for (uint64_t Done = 0; Done < Bytes;) {
    uint64_t N = std::min(Bytes - Done, StagingBytes);
    std::memcpy(I->Staging, Src + Done, N);
    if (Error E = check(
            lib().hsa_memory_copy(
                reinterpret_cast<void *>(uintptr_t(To + Done)), I->Staging, N),
            "copying " + Twine(N) + " bytes to the GPU"))
      return E;
    Done += N;
  }
  return Error::success();
}

Error Context::copyFromDevice(void *To, uint64_t From, uint64_t Bytes) {
  auto *Dst = static_cast<uint8_t *>(To);
  for (uint64_t Done = 0; Done < Bytes;) {
    uint64_t N = std::min(Bytes - Done, StagingBytes);
    if (Error E =
            check(lib().hsa_memory_copy(
                      I->Staging,
                      reinterpret_cast<void *>(uintptr_t(From + Done)), N),
                  "copying " + Twine(N) + " bytes from the GPU"))
      return E;
    std::memcpy(Dst + Done, I->Staging, N);
    Done += N;
  }
  return Error::success();
}

Error Context::zero(uint64_t At, uint64_t Bytes) {
  if (At % 4 == 0 && Bytes % 4 == 0)
    return check(lib().hsa_amd_memory_fill(
                     reinterpret_cast<void *>(uintptr_t(At)), 0, Bytes / 4),
                 "zeroing " + Twine(Bytes) + " bytes of device memory");
  std::memset(I->Staging, 0, std::min(Bytes, StagingBytes));
  for (uint64_t Done = 0; Done < Bytes;) {
    uint64_t N = std::min(Bytes - Done, StagingBytes);
    if (Error E = check(
            lib().hsa_memory_copy(
                reinterpret_cast<void *>(uintptr_t(At + Done)), I->Staging, N),
            "zeroing " + Twine(N) + " bytes of device memory"))
      return E;
    Done += N;
  }
  return Error::success();
}

Expected<std::unique_ptr<Executable>> Context::load(ArrayRef<uint8_t> Code) {
  const Library &L = lib();
  std::unique_ptr<Executable> X(new Executable(*this));
  // The reader reads the bytes in place: they live as long as it does.
  X->Bytes.assign(Code.begin(), Code.end());
  hsa_code_object_reader_t Reader;
  if (Error E = check(L.hsa_code_object_reader_create_from_memory(
                          X->Bytes.data(), X->Bytes.size(), &Reader),
                      "reading the code object"))
    return std::move(E);
  X->Reader = Reader.handle;
  X->HasReader = true;
  hsa_executable_t Exe;
  if (Error E =
          check(L.hsa_executable_create_alt(
                    HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
                    nullptr, &Exe),
                "creating an executable"))
    return std::move(E);
  X->Exe = Exe.handle;
  X->HasExe = true;
  if (Error E = check(L.hsa_executable_load_agent_code_object(
                          Exe, I->Agent, Reader, nullptr, nullptr),
                      "loading the code object for agent " + Info.Name))
    return std::move(E);
  if (Error E = check(L.hsa_executable_freeze(Exe, nullptr),
                      "freezing the executable"))
    return std::move(E);
  return std::move(X);
}

Expected<double> Context::launch(const LoadedKernel &K, const KernargValues &V,
                                 StringRef Kernel, double TimeoutSeconds,
                                 bool Profile) {
  const Library &L = lib();
  Expected<KernargLayout> Layout = K.layout();
  if (!Layout)
    return Layout.takeError();
  Expected<std::vector<uint8_t>> Args = packKernargs(*Layout, V);
  if (!Args)
    return hsaError(HsaErrorKind::Failure,
                    "kernel '" + Kernel + "': " + toString(Args.takeError()));
  Expected<DispatchPacket> Packet =
      makeDispatchPacket(V.Workgroups, V.GroupSize);
  if (!Packet)
    return hsaError(HsaErrorKind::Failure,
                    "kernel '" + Kernel + "': " + toString(Packet.takeError()));
  if (Profile && !I->Profiling) {
    if (Error E = check(L.hsa_amd_profiling_set_profiler_enabled(I->Queue, 1),
                        "enabling queue profiling"))
      return std::move(E);
    I->Profiling = true;
  }
  // The previous dispatch has completed: the kernarg buffer is free.
  std::memcpy(I->Kernargs, Args->data(), Args->size());
  Packet->KernelObject = K.Object;
  Packet->KernargAddress = reinterpret_cast<uintptr_t>(I->Kernargs);
  Packet->GroupSegmentSize = K.GroupSegmentSize;
  Packet->PrivateSegmentSize = K.PrivateSegmentSize;
  Packet->CompletionSignal = I->Signal.handle;
  std::array<uint8_t, packet_offset::Size> Body = encodeDispatchPacket(*Packet);
  uint32_t HeaderWord = dispatchHeaderWord(*Packet);

  hsa_queue_t *Queue = I->Queue;
  L.hsa_signal_store_relaxed(I->Signal, 1);
  uint64_t Index = L.hsa_queue_add_write_index_scacq_screl(Queue, 1);
  while (Index - L.hsa_queue_load_read_index_scacquire(Queue) >= Queue->size)
    ; // the queue is full: wait for the packet processor
  auto *Slot = static_cast<uint8_t *>(Queue->base_address) +
               packet_offset::Size * (Index & (Queue->size - 1));
  // Everything but the header first; the header, stored last with release
  // semantics, hands the packet to the packet processor.
  std::memcpy(Slot + 4, Body.data() + 4, packet_offset::Size - 4);
  __atomic_store_n(reinterpret_cast<uint32_t *>(Slot), HeaderWord,
                   __ATOMIC_RELEASE);
  L.hsa_signal_store_screlease(Queue->doorbell_signal,
                               hsa_signal_value_t(Index));

  // Wait in slices so that a timeout and a fault the queue's callback
  // reports are noticed whatever the runtime's own wait granularity.
  auto Start = std::chrono::steady_clock::now();
  while (L.hsa_signal_wait_scacquire(I->Signal, HSA_SIGNAL_CONDITION_LT, 1,
                                     I->Frequency / 10,
                                     HSA_WAIT_STATE_BLOCKED) != 0) {
    if (int Status = I->QueueStatus.load()) {
      const char *Text = nullptr;
      if (L.hsa_status_string(hsa_status_t(Status), &Text) !=
              HSA_STATUS_SUCCESS ||
          !Text)
        Text = "unknown HSA status";
      return hsaError(HsaErrorKind::Failure,
                      "kernel '" + Kernel + "' faulted on the GPU: " + Text +
                          " (status 0x" + utohexstr(unsigned(Status)) + ")");
    }
    double Waited =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
            .count();
    if (TimeoutSeconds > 0 && Waited >= TimeoutSeconds) {
      Abandoned = true;
      I->RuntimeAbandoned->store(true);
      return hsaError(HsaErrorKind::Timeout,
                      "kernel '" + Kernel + "' did not complete in " +
                          formatv("{0}", TimeoutSeconds).str() +
                          " s (--timeout)");
    }
  }
  if (!Profile)
    return 0.0;
  hsa_amd_profiling_dispatch_time_t T;
  if (Error E =
          check(L.hsa_amd_profiling_get_dispatch_time(I->Agent, I->Signal, &T),
                "reading the dispatch time"))
    return std::move(E);
  return double(T.end - T.start) / double(I->Frequency);
}

//===----------------------------------------------------------------------===//
// Runtime::dispatch
//===----------------------------------------------------------------------===//

Expected<DispatchResult> Runtime::dispatch(unsigned AgentIndex,
                                           const DispatchRequest &R) {
  if (Error E = checkAgent(AgentIndex))
    return std::move(E);
  if (R.Memory.size() > (uint64_t(1) << 32))
    return hsaError(HsaErrorKind::Failure,
                    "device memory of " + Twine(R.Memory.size()) +
                        " bytes is more than the 4 GiB that 32-bit device "
                        "addresses reach");
  Expected<std::unique_ptr<Context>> C = Context::create(*this, AgentIndex);
  if (!C)
    return C.takeError();
  Context &Ctx = **C;

  // Code object -> frozen executable -> kernel; the executable and the
  // memory are released before the context goes.
  uint64_t Memory = 0;
  std::unique_ptr<Executable> Exe;
  llvm::scope_exit Release([&] {
    Ctx.free(Memory);
    Exe.reset();
  });
  Expected<std::unique_ptr<Executable>> X = Ctx.load(R.CodeObject);
  if (!X)
    return X.takeError();
  Exe = std::move(*X);
  Expected<LoadedKernel> K = Exe->kernel(R.KernelSymbol);
  if (!K)
    return K.takeError();
  Expected<KernargLayout> Layout = K->layout();
  if (!Layout)
    return Layout.takeError();

  // Device memory, with the start image.
  Expected<uint64_t> Mem = Ctx.allocate(R.Memory.size());
  if (!Mem)
    return Mem.takeError();
  Memory = *Mem;
  if (Error E = Ctx.copyToDevice(Memory, R.Memory.data(), R.Memory.size()))
    return std::move(E);

  KernargValues V;
  V.DeviceBase = Memory;
  V.Params.assign(Layout->NumParams, 0);
  for (size_t P = 0; P < R.Registers.size() && P < Layout->NumParams; ++P)
    V.Params[P] = R.Registers[P];
  V.Workgroups = R.Workgroups;
  V.GroupSize = R.GroupSize;

  DispatchResult Result;
  StringRef Name =
      StringRef(R.KernelSymbol)
          .drop_back(StringRef(R.KernelSymbol).ends_with(".kd") ? 3 : 0);
  for (unsigned N = 0; N < std::max(R.Repeat, 1u); ++N) {
    Expected<double> Seconds =
        Ctx.launch(*K, V, Name, R.TimeoutSeconds, R.Profile);
    if (!Seconds)
      return Seconds.takeError();
    if (R.Profile)
      Result.Seconds.push_back(*Seconds);
  }

  if (Error E = Ctx.copyFromDevice(R.Memory.data(), Memory, R.Memory.size()))
    return std::move(E);
  return Result;
}

} // namespace wave::hsa
