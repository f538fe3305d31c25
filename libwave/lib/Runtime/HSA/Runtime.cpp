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
};

Runtime::~Runtime() {
  if (I && I->Initialized)
    lib().hsa_shut_down();
}

Expected<std::unique_ptr<Runtime>> Runtime::open() {
  // The library first: without it nothing else can be asked.
  Expected<const Library &> Lib = Library::get();
  if (!Lib)
    return Lib.takeError();
  const Library &L = *Lib;
  // Without the ROCm kernel driver hsa_init fails with a generic "out of
  // resources"; say what is missing instead.
  if (!sys::fs::exists("/dev/kfd"))
    return hsaError(HsaErrorKind::NoDevice,
                    "no HSA runtime device: /dev/kfd (the ROCm kernel "
                    "driver) is missing; use --device=emu");
  std::unique_ptr<Runtime> R(new Runtime());
  R->I = std::make_unique<Impl>();
  if (Error E = check(L.hsa_init(), "initialising the HSA runtime"))
    return std::move(E);
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

/// Memory from hsa_memory_allocate, freed on destruction.
struct HsaMemory {
  void *Ptr = nullptr;
  ~HsaMemory() {
    if (Ptr)
      lib().hsa_memory_free(Ptr);
  }
};

Error allocate(hsa_region_t Region, size_t Size, HsaMemory &M,
               const Twine &What) {
  return check(lib().hsa_memory_allocate(Region, Size ? Size : 1, &M.Ptr),
               "allocating " + Twine(Size) + " bytes of " + What);
}

} // namespace

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

Expected<DispatchResult> Runtime::dispatch(unsigned AgentIndex,
                                           const DispatchRequest &R) {
  if (Error E = checkAgent(AgentIndex))
    return std::move(E);
  if (R.Memory.size() > (uint64_t(1) << 32))
    return hsaError(HsaErrorKind::Failure,
                    "device memory of " + Twine(R.Memory.size()) +
                        " bytes is more than the 4 GiB that 32-bit device "
                        "addresses reach");
  const Library &L = lib();
  hsa_agent_t Agent = I->Agents[AgentIndex];
  const std::string &AgentName = Infos[AgentIndex].Name;

  // Code object -> frozen executable -> kernel symbol.
  hsa_code_object_reader_t Reader;
  if (Error E = check(L.hsa_code_object_reader_create_from_memory(
                          R.CodeObject.data(), R.CodeObject.size(), &Reader),
                      "reading the code object"))
    return std::move(E);
  scope_exit DestroyReader([&] { L.hsa_code_object_reader_destroy(Reader); });
  hsa_executable_t Exe;
  if (Error E =
          check(L.hsa_executable_create_alt(
                    HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
                    nullptr, &Exe),
                "creating an executable"))
    return std::move(E);
  scope_exit DestroyExe([&] { L.hsa_executable_destroy(Exe); });
  if (Error E = check(L.hsa_executable_load_agent_code_object(
                          Exe, Agent, Reader, nullptr, nullptr),
                      "loading the code object for agent " + AgentName))
    return std::move(E);
  if (Error E = check(L.hsa_executable_freeze(Exe, nullptr),
                      "freezing the executable"))
    return std::move(E);
  hsa_executable_symbol_t Sym;
  if (Error E = check(L.hsa_executable_get_symbol_by_name(
                          Exe, R.KernelSymbol.c_str(), &Agent, &Sym),
                      "looking up kernel symbol '" + R.KernelSymbol + "'"))
    return std::move(E);
  uint64_t KernelObject = 0;
  uint32_t KernargSize = 0, GroupSize = 0, PrivateSize = 0;
  if (Error E = check(
          L.hsa_executable_symbol_get_info(
              Sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &KernelObject),
          "reading the kernel object of '" + R.KernelSymbol + "'"))
    return std::move(E);
  if (Error E =
          check(L.hsa_executable_symbol_get_info(
                    Sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE,
                    &KernargSize),
                "reading the kernarg segment size"))
    return std::move(E);
  if (Error E =
          check(L.hsa_executable_symbol_get_info(
                    Sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE,
                    &GroupSize),
                "reading the group segment size"))
    return std::move(E);
  if (Error E =
          check(L.hsa_executable_symbol_get_info(
                    Sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE,
                    &PrivateSize),
                "reading the private segment size"))
    return std::move(E);

  // The kernel's parameter count from its kernarg segment: size = H + 24
  // with H = align8(8 + 4N). Two N give each size; taking the larger puts
  // one register's value in the padding before H, which the kernel never
  // reads (formats/amdgcn-abi.md "Kernel arguments").
  if (KernargSize < 32 || KernargSize % 8 != 0)
    return hsaError(HsaErrorKind::Failure,
                    "kernel '" + R.KernelSymbol + "' has a kernarg segment of " +
                        Twine(KernargSize) +
                        " bytes, which is not the wavetools kernel ABI "
                        "(formats/amdgcn-abi.md)");
  KernargLayout Layout{(KernargSize - 24 - 8) / 4};

  // Memory: the device image in coarse-grained memory, staged through
  // fine-grained (host-visible) memory; kernargs in the kernarg region.
  Expected<hsa_region_t> DevRegion =
      findRegion(Agent, &RegionInfo::CoarseGrained, "coarse-grained");
  if (!DevRegion)
    return DevRegion.takeError();
  Expected<hsa_region_t> HostRegion =
      findRegion(Agent, &RegionInfo::FineGrained, "fine-grained");
  if (!HostRegion)
    return HostRegion.takeError();
  Expected<hsa_region_t> ArgRegion =
      findRegion(Agent, &RegionInfo::KernargFlag, "kernarg");
  if (!ArgRegion)
    return ArgRegion.takeError();
  HsaMemory Device, Staging, Kernargs;
  if (Error E = allocate(*DevRegion, R.Memory.size(), Device, "device memory"))
    return std::move(E);
  if (Error E = allocate(*HostRegion, R.Memory.size(), Staging,
                         "host staging memory"))
    return std::move(E);
  if (Error E = allocate(*ArgRegion, Layout.size(), Kernargs, "kernargs"))
    return std::move(E);
  std::memcpy(Staging.Ptr, R.Memory.data(), R.Memory.size());
  if (Error E =
          check(L.hsa_memory_copy(Device.Ptr, Staging.Ptr, R.Memory.size()),
                "copying device memory to the GPU"))
    return std::move(E);

  KernargValues V;
  V.DeviceBase = reinterpret_cast<uintptr_t>(Device.Ptr);
  V.Params.assign(Layout.NumParams, 0);
  for (size_t K = 0; K < R.Registers.size() && K < Layout.NumParams; ++K)
    V.Params[K] = R.Registers[K];
  V.Workgroups = R.Workgroups;
  V.GroupSize = R.GroupSize;
  Expected<std::vector<uint8_t>> Args = packKernargs(Layout, V);
  if (!Args)
    return Args.takeError();
  std::memcpy(Kernargs.Ptr, Args->data(), Args->size());

  Expected<DispatchPacket> Packet =
      makeDispatchPacket(R.Workgroups, R.GroupSize);
  if (!Packet)
    return Packet.takeError();
  Packet->KernelObject = KernelObject;
  Packet->KernargAddress = reinterpret_cast<uintptr_t>(Kernargs.Ptr);
  Packet->GroupSegmentSize = GroupSize;
  Packet->PrivateSegmentSize = PrivateSize;

  // Queue and completion signal.
  uint32_t QueueMax = 0;
  if (Error E = check(
          L.hsa_agent_get_info(Agent, HSA_AGENT_INFO_QUEUE_MAX_SIZE, &QueueMax),
          "reading the agent's queue size"))
    return std::move(E);
  hsa_queue_t *Queue = nullptr;
  if (Error E =
          check(L.hsa_queue_create(Agent, std::min<uint32_t>(QueueMax, 64),
                                   HSA_QUEUE_TYPE_SINGLE, nullptr, nullptr,
                                   UINT32_MAX, UINT32_MAX, &Queue),
                "creating a queue on agent " + AgentName))
    return std::move(E);
  scope_exit DestroyQueue([&] { L.hsa_queue_destroy(Queue); });
  if (R.Profile)
    if (Error E = check(L.hsa_amd_profiling_set_profiler_enabled(Queue, 1),
                        "enabling queue profiling"))
      return std::move(E);
  hsa_signal_t Signal;
  if (Error E = check(L.hsa_signal_create(1, 0, nullptr, &Signal),
                      "creating a completion signal"))
    return std::move(E);
  scope_exit DestroySignal([&] { L.hsa_signal_destroy(Signal); });
  Packet->CompletionSignal = Signal.handle;

  uint64_t Frequency = 0;
  if (Error E = check(L.hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY,
                                            &Frequency),
                      "reading the HSA timestamp frequency"))
    return std::move(E);

  DispatchResult Result;
  std::array<uint8_t, packet_offset::Size> Body =
      encodeDispatchPacket(*Packet);
  uint32_t HeaderWord = dispatchHeaderWord(*Packet);
  for (unsigned N = 0; N < std::max(R.Repeat, 1u); ++N) {
    L.hsa_signal_store_relaxed(Signal, 1);
    uint64_t Index = L.hsa_queue_add_write_index_scacq_screl(Queue, 1);
    while (Index - L.hsa_queue_load_read_index_scacquire(Queue) >= Queue->size)
      ; // the queue is full: wait for the packet processor
    auto *Slot = static_cast<uint8_t *>(Queue->base_address) +
                 packet_offset::Size * (Index & (Queue->size - 1));
    // Everything but the header first; the header, stored last with
    // release semantics, hands the packet to the packet processor.
    std::memcpy(Slot + 4, Body.data() + 4, packet_offset::Size - 4);
    __atomic_store_n(reinterpret_cast<uint32_t *>(Slot), HeaderWord,
                     __ATOMIC_RELEASE);
    L.hsa_signal_store_screlease(Queue->doorbell_signal,
                                 hsa_signal_value_t(Index));

    // Wait in slices so that a timeout is honoured whatever the runtime's
    // own wait granularity.
    auto Start = std::chrono::steady_clock::now();
    while (L.hsa_signal_wait_scacquire(Signal, HSA_SIGNAL_CONDITION_LT, 1,
                                       Frequency / 10,
                                       HSA_WAIT_STATE_BLOCKED) != 0) {
      double Waited = std::chrono::duration<double>(
                          std::chrono::steady_clock::now() - Start)
                          .count();
      if (R.TimeoutSeconds > 0 && Waited >= R.TimeoutSeconds)
        return hsaError(HsaErrorKind::Timeout,
                        "kernel '" + R.KernelSymbol + "' did not complete in " +
                            formatv("{0}", R.TimeoutSeconds).str() +
                            " s (--timeout)");
    }
    if (R.Profile) {
      hsa_amd_profiling_dispatch_time_t T;
      if (Error E =
              check(L.hsa_amd_profiling_get_dispatch_time(Agent, Signal, &T),
                    "reading the dispatch time"))
        return std::move(E);
      Result.Seconds.push_back(double(T.end - T.start) / double(Frequency));
    }
  }

  if (Error E =
          check(L.hsa_memory_copy(Staging.Ptr, Device.Ptr, R.Memory.size()),
                "copying device memory back from the GPU"))
    return std::move(E);
  std::memcpy(R.Memory.data(), Staging.Ptr, R.Memory.size());
  return Result;
}

} // namespace wave::hsa
