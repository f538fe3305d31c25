//===- StubRuntime.cpp - A fake HSA runtime for wave-run's tests ---------===//
//
// libwave-hsa-stub.so exports every entry point of
// libwave/lib/Runtime/HSA/LibraryAPI.def, so that wave-run --device=hsa and
// the host runtime's "hsa:N" devices run end to end without an AMD GPU when
// WAVE_HSA_RUNTIME names it (test/lit/run/hsa-launch.test,
// test/lit/python/hsa-stub.test, test/lit/capi/hsa-stub.test). It has a CPU
// agent and one GPU agent, "gfx942" ("Stub gfx942", ISA
// amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-, 304 compute units, 64-lane
// wavefronts) with four memory regions: coarse-grained global (64 GiB),
// fine-grained global, kernarg, and group. Coarse-grained memory is host
// memory behind fake device addresses from 0xa00000000 on (the caller
// never dereferences it); fine-grained and kernarg memory is real host
// memory, printed as "host". Code objects are ELF files whose `NAME.kd`
// symbols are kernel descriptors (AMDGPUUsage "Kernel Descriptor"): the
// group and private segment sizes and the kernarg size are read from
// them. A queue's AQL packets are processed when its doorbell is rung:
// each kernel-dispatch packet is logged and completes at once (its
// completion signal is decremented); no kernel runs, so memory keeps the
// bytes copied in.
//
// Every call that initialises, enumerates agents, allocates, frees,
// copies, fills, creates or destroys something, loads code or reads
// profiling times, and every AQL packet processed, appends one line to the
// file named by $WAVE_HSA_STUB_LOG (when set); attribute queries, signal
// stores and waits and queue index updates are not logged. E.g.
//
//   aql dispatch header=0x1502 setup=1 workgroup=64,1,1 grid=128,1,1
//   private=0 group=0 kernel=k.kd kernarg[32]=00000000 0000000a ...
//
// with the kernarg segment as little-endian 32-bit words in hex (so the
// device base is its first two words, low then high).
// $WAVE_HSA_STUB_FAIL picks a failure: `nodevice` (only the CPU agent),
// `load` (hsa_executable_load_agent_code_object:
// HSA_STATUS_ERROR_INVALID_CODE_OBJECT), `memory` (coarse-grained
// allocations fail: HSA_STATUS_ERROR_OUT_OF_RESOURCES), `launch` (a
// dispatch faults: the queue's error callback gets
// HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION and the packet never
// completes) or `hang` (a dispatch never completes).
//
//===----------------------------------------------------------------------===//
#include "../StubLog.h"

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include <algorithm>
#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

namespace {

/// The value of an attribute parameter, read without an enum-typed load:
/// the runtime's callers pass AMD extension attributes
/// (hsa_amd_agent_info_t, ...) through the core enum types, whose ranges do
/// not hold them, and UBSan's enum check would stop a sanitized build.
template <typename Enum> unsigned rawAttribute(const Enum &A) {
  static_assert(sizeof(Enum) == sizeof(unsigned));
  unsigned Raw;
  std::memcpy(&Raw, &A, sizeof Raw);
  return Raw;
}

/// Appends one formatted line to $WAVE_HSA_STUB_LOG.
void logLine(const char *Fmt, ...) {
  va_list Args;
  va_start(Args, Fmt);
  wave::stub::appendLine("WAVE_HSA_STUB_LOG", Fmt, Args);
  va_end(Args);
}

bool failMode(const char *Mode) {
  return wave::stub::failing("WAVE_HSA_STUB_FAIL", Mode);
}

/// One lock for all of the stub's state: the host runtime calls from its
/// streams' worker threads.
std::recursive_mutex &lock() {
  static std::recursive_mutex M;
  return M;
}

constexpr uint64_t CpuAgent = 1, GpuAgent = 2;
constexpr uint64_t TimestampFrequency = 1000000000; // 1 GHz: nanoseconds.

/// The GPU agent's regions, handles 1..4.
struct Region {
  const char *Name;
  hsa_region_segment_t Segment;
  uint32_t Flags;
  uint64_t Size;
  bool Alloc;
};
const Region Regions[] = {
    {"coarse-grained", HSA_REGION_SEGMENT_GLOBAL,
     HSA_REGION_GLOBAL_FLAG_COARSE_GRAINED, uint64_t(64) << 30, true},
    {"fine-grained", HSA_REGION_SEGMENT_GLOBAL,
     HSA_REGION_GLOBAL_FLAG_FINE_GRAINED, uint64_t(256) << 30, true},
    {"kernarg", HSA_REGION_SEGMENT_GLOBAL,
     HSA_REGION_GLOBAL_FLAG_KERNARG | HSA_REGION_GLOBAL_FLAG_FINE_GRAINED,
     uint64_t(256) << 30, true},
    {"group", HSA_REGION_SEGMENT_GROUP, 0, 65536, false},
};
constexpr size_t NumRegions = sizeof(Regions) / sizeof(Regions[0]);

/// Coarse-grained allocations by fake device address.
std::map<uint64_t, std::vector<uint8_t>> &deviceMemory() {
  static std::map<uint64_t, std::vector<uint8_t>> M;
  return M;
}
uint64_t NextDeviceAddress = 0xa00000000ull;
/// Fine-grained and kernarg allocations: real memory, by address.
std::map<uint64_t, std::unique_ptr<uint8_t[]>> &hostMemory() {
  static std::map<uint64_t, std::unique_ptr<uint8_t[]>> M;
  return M;
}

/// The host bytes of fake device addresses [Address, Address + Bytes), or
/// null when that is not inside one coarse-grained allocation.
uint8_t *deviceBytes(uint64_t Address, size_t Bytes) {
  auto &M = deviceMemory();
  auto It = M.upper_bound(Address);
  if (It == M.begin())
    return nullptr;
  --It;
  uint64_t Off = Address - It->first;
  if (Off + Bytes > It->second.size())
    return nullptr;
  return It->second.data() + Off;
}

/// A pointer as the log shows it: a device address in hex, else "host".
std::string where(const void *P) {
  uint64_t A = reinterpret_cast<uintptr_t>(P);
  if (deviceBytes(A, 0)) {
    char Text[32];
    std::snprintf(Text, sizeof(Text), "0x%llx", (unsigned long long)A);
    return Text;
  }
  return "host";
}

/// A kernel of a loaded code object.
struct Kernel {
  std::string Symbol; ///< "NAME.kd".
  uint32_t Group = 0, Private = 0, KernargSize = 0;
  uint64_t Object = 0; ///< the fake kernel-descriptor address.
};
/// Kernels by kernel object (what an AQL packet names).
std::map<uint64_t, Kernel> &kernels() {
  static std::map<uint64_t, Kernel> M;
  return M;
}
uint64_t NextKernelObject = 0xc00000000ull;

struct Reader {
  std::vector<uint8_t> Bytes;
};
struct Executable {
  std::vector<uint64_t> Kernels; ///< kernel objects, in symbol order.
  bool Frozen = false;
};
std::map<uint64_t, std::unique_ptr<Reader>> Readers;
std::map<uint64_t, std::unique_ptr<Executable>> Executables;
uint64_t NextHandle = 1;

struct Queue;
/// A signal: its value; a queue's doorbell names the queue.
struct Signal {
  hsa_signal_value_t Value = 0;
  Queue *Doorbell = nullptr;
  uint64_t Start = 0, End = 0; ///< the last dispatch's times (profiling).
};
std::map<uint64_t, std::unique_ptr<Signal>> Signals;
uint64_t NextSignal = 1;

struct Queue {
  hsa_queue_t Q{};
  std::unique_ptr<uint8_t[]> Ring;
  uint64_t Read = 0, Write = 0;
  void (*Callback)(hsa_status_t, hsa_queue_t *, void *) = nullptr;
  void *Data = nullptr;
  bool Profiling = false;
  bool Broken = false;
};
std::map<hsa_queue_t *, std::unique_ptr<Queue>> Queues;

uint64_t now() {
  return uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::steady_clock::now().time_since_epoch())
                      .count());
}

template <typename T> T get(const uint8_t *P) {
  T V;
  std::memcpy(&V, P, sizeof(T));
  return V;
}

/// The `.kd` symbols of the ELF code object \p B; false when it is not a
/// 64-bit little-endian ELF file with a symbol table.
bool readKernels(const std::vector<uint8_t> &B, std::vector<Kernel> &Out) {
  const uint8_t *P = B.data();
  if (B.size() < 64 ||
      std::memcmp(P,
                  "\x7f"
                  "ELF",
                  4) != 0 ||
      P[4] != 2 || P[5] != 1)
    return false;
  uint64_t ShOff = get<uint64_t>(P + 0x28);
  uint16_t ShEntSize = get<uint16_t>(P + 0x3a), ShNum = get<uint16_t>(P + 0x3c);
  if (ShEntSize < 64 || ShOff + uint64_t(ShEntSize) * ShNum > B.size())
    return false;
  auto Sec = [&](unsigned I) { return P + ShOff + uint64_t(ShEntSize) * I; };
  for (unsigned S = 0; S < ShNum; ++S) {
    const uint8_t *H = Sec(S);
    if (get<uint32_t>(H + 4) != 2) // SHT_SYMTAB
      continue;
    uint64_t Off = get<uint64_t>(H + 0x18), Size = get<uint64_t>(H + 0x20);
    uint32_t Link = get<uint32_t>(H + 0x28);
    if (Off + Size > B.size() || Link >= ShNum)
      return false;
    const uint8_t *StrH = Sec(Link);
    uint64_t StrOff = get<uint64_t>(StrH + 0x18),
             StrSize = get<uint64_t>(StrH + 0x20);
    if (StrOff + StrSize > B.size())
      return false;
    for (uint64_t E = 0; E + 24 <= Size; E += 24) {
      const uint8_t *Sym = P + Off + E;
      uint32_t Name = get<uint32_t>(Sym);
      uint16_t Shndx = get<uint16_t>(Sym + 6);
      uint64_t Value = get<uint64_t>(Sym + 8);
      if (Name >= StrSize || Shndx == 0 || Shndx >= ShNum)
        continue;
      const char *N = reinterpret_cast<const char *>(P + StrOff + Name);
      std::string SymName(N, strnlen(N, StrSize - Name));
      if (SymName.size() < 4 ||
          SymName.compare(SymName.size() - 3, 3, ".kd") != 0)
        continue;
      const uint8_t *DH = Sec(Shndx);
      uint64_t Addr = get<uint64_t>(DH + 0x10), DOff = get<uint64_t>(DH + 0x18);
      uint64_t At = DOff + (Value - Addr);
      if (Value < Addr || At + 64 > B.size())
        continue;
      Kernel K;
      K.Symbol = SymName;
      K.Group = get<uint32_t>(P + At);
      K.Private = get<uint32_t>(P + At + 4);
      K.KernargSize = get<uint32_t>(P + At + 8);
      Out.push_back(K);
    }
    return true;
  }
  return false;
}

/// The packets [Q.Read, Index] of \p Q: logs each dispatch and completes
/// it (or, failing, breaks the queue or leaves the packet running).
void process(Queue &Q, uint64_t Index) {
  for (; Q.Read <= Index && Q.Read < Q.Write; ++Q.Read) {
    uint8_t *Slot = Q.Ring.get() + 64 * (Q.Read % Q.Q.size);
    uint16_t Header = get<uint16_t>(Slot);
    uint16_t Setup = get<uint16_t>(Slot + 2);
    if ((Header & 0xff) != HSA_PACKET_TYPE_KERNEL_DISPATCH) {
      logLine("aql packet header=0x%x: not a kernel dispatch", Header);
      continue;
    }
    uint64_t Object = get<uint64_t>(Slot + 32);
    uint64_t KernargAddr = get<uint64_t>(Slot + 40);
    uint64_t Completion = get<uint64_t>(Slot + 56);
    auto KIt = kernels().find(Object);
    std::string Args;
    std::string Name = "?";
    if (KIt != kernels().end()) {
      Name = KIt->second.Symbol;
      const uint8_t *A = reinterpret_cast<const uint8_t *>(KernargAddr);
      char Text[16];
      std::snprintf(Text, sizeof(Text), "[%u]=", KIt->second.KernargSize);
      Args = Text;
      for (uint32_t I = 0; I + 4 <= KIt->second.KernargSize; I += 4) {
        std::snprintf(Text, sizeof(Text), "%s%08x", I ? " " : "",
                      get<uint32_t>(A + I));
        Args += Text;
      }
    }
    logLine("aql dispatch header=0x%x setup=%u workgroup=%u,%u,%u "
            "grid=%u,%u,%u private=%u group=%u kernel=%s kernarg%s "
            "signal=%llu",
            Header, Setup, get<uint16_t>(Slot + 4), get<uint16_t>(Slot + 6),
            get<uint16_t>(Slot + 8), get<uint32_t>(Slot + 12),
            get<uint32_t>(Slot + 16), get<uint32_t>(Slot + 20),
            get<uint32_t>(Slot + 24), get<uint32_t>(Slot + 28), Name.c_str(),
            Args.c_str(), (unsigned long long)Completion);
    if (failMode("hang"))
      continue;
    if (failMode("launch")) {
      Q.Broken = true;
      logLine("queue error callback status=0x%x",
              HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION);
      if (Q.Callback)
        Q.Callback(hsa_status_t(HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION),
                   &Q.Q, Q.Data);
      continue;
    }
    auto SIt = Signals.find(Completion);
    if (SIt != Signals.end()) {
      SIt->second->Start = now();
      SIt->second->End = SIt->second->Start + 1500; // 1.5 us
      SIt->second->Value -= 1;
    }
  }
}

} // namespace

extern "C" {

hsa_status_t hsa_init() {
  logLine("hsa_init");
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_shut_down() {
  logLine("hsa_shut_down");
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_status_string(hsa_status_t Status, const char **Text) {
  switch (unsigned(Status)) {
  case HSA_STATUS_SUCCESS:
    *Text = "HSA_STATUS_SUCCESS: The function has been executed successfully.";
    return HSA_STATUS_SUCCESS;
  case HSA_STATUS_ERROR_INVALID_ARGUMENT:
    *Text = "HSA_STATUS_ERROR_INVALID_ARGUMENT: One of the actual arguments "
            "does not meet a precondition stated in the documentation of the "
            "corresponding formal argument.";
    return HSA_STATUS_SUCCESS;
  case HSA_STATUS_ERROR_OUT_OF_RESOURCES:
    *Text = "HSA_STATUS_ERROR_OUT_OF_RESOURCES: The runtime failed to "
            "allocate the necessary resources. This error may also occur "
            "when the core runtime library needs to spawn threads or create "
            "internal OS-specific events.";
    return HSA_STATUS_SUCCESS;
  case HSA_STATUS_ERROR_INVALID_CODE_OBJECT:
    *Text = "HSA_STATUS_ERROR_INVALID_CODE_OBJECT: The code object is "
            "invalid.";
    return HSA_STATUS_SUCCESS;
  case HSA_STATUS_ERROR_INVALID_SYMBOL_NAME:
    *Text = "HSA_STATUS_ERROR_INVALID_SYMBOL_NAME: There is no symbol with "
            "the given name.";
    return HSA_STATUS_SUCCESS;
  case HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION:
    *Text = "HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION: The agent attempted "
            "to access memory beyond the largest legal address.";
    return HSA_STATUS_SUCCESS;
  }
  *Text = "HSA_STATUS_ERROR: A generic error has occurred.";
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_system_get_info(hsa_system_info_t Attribute, void *Value) {
  if (rawAttribute(Attribute) == HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY) {
    *static_cast<uint64_t *>(Value) = TimestampFrequency;
    return HSA_STATUS_SUCCESS;
  }
  return HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

hsa_status_t hsa_iterate_agents(hsa_status_t (*Callback)(hsa_agent_t, void *),
                                void *Data) {
  logLine("hsa_iterate_agents");
  for (uint64_t A : {CpuAgent, GpuAgent}) {
    if (A == GpuAgent && failMode("nodevice"))
      break;
    hsa_status_t S = Callback(hsa_agent_t{A}, Data);
    if (S != HSA_STATUS_SUCCESS)
      return S;
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_agent_get_info(hsa_agent_t Agent, hsa_agent_info_t Attribute,
                                void *Value) {
  bool Gpu = Agent.handle == GpuAgent;
  switch (rawAttribute(Attribute)) {
  case HSA_AGENT_INFO_NAME:
    std::memset(Value, 0, 64);
    std::strcpy(static_cast<char *>(Value), Gpu ? "gfx942" : "Stub CPU");
    return HSA_STATUS_SUCCESS;
  case HSA_AGENT_INFO_DEVICE:
    *static_cast<hsa_device_type_t *>(Value) =
        Gpu ? HSA_DEVICE_TYPE_GPU : HSA_DEVICE_TYPE_CPU;
    return HSA_STATUS_SUCCESS;
  case HSA_AGENT_INFO_WAVEFRONT_SIZE:
    *static_cast<uint32_t *>(Value) = Gpu ? 64 : 1;
    return HSA_STATUS_SUCCESS;
  case HSA_AGENT_INFO_QUEUE_MAX_SIZE:
    *static_cast<uint32_t *>(Value) = Gpu ? 131072 : 0;
    return HSA_STATUS_SUCCESS;
  case HSA_AMD_AGENT_INFO_PRODUCT_NAME:
    std::memset(Value, 0, 64);
    std::strcpy(static_cast<char *>(Value), Gpu ? "Stub gfx942" : "Stub CPU");
    return HSA_STATUS_SUCCESS;
  case HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT:
    *static_cast<uint32_t *>(Value) = Gpu ? 304 : 16;
    return HSA_STATUS_SUCCESS;
  }
  return HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

hsa_status_t hsa_signal_create(hsa_signal_value_t Initial, uint32_t Consumers,
                               const hsa_agent_t *ConsumerAgents,
                               hsa_signal_t *Out) {
  std::lock_guard<std::recursive_mutex> L(lock());
  uint64_t H = NextSignal++;
  Signals[H] = std::make_unique<Signal>();
  Signals[H]->Value = Initial;
  Out->handle = H;
  logLine("hsa_signal_create value=%lld -> signal=%llu", (long long)Initial,
          (unsigned long long)H);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_signal_destroy(hsa_signal_t S) {
  std::lock_guard<std::recursive_mutex> L(lock());
  logLine("hsa_signal_destroy signal=%llu", (unsigned long long)S.handle);
  return Signals.erase(S.handle) ? HSA_STATUS_SUCCESS
                                 : HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

void hsa_signal_store_relaxed(hsa_signal_t S, hsa_signal_value_t Value) {
  std::lock_guard<std::recursive_mutex> L(lock());
  auto It = Signals.find(S.handle);
  if (It != Signals.end())
    It->second->Value = Value;
}

void hsa_signal_store_screlease(hsa_signal_t S, hsa_signal_value_t Value) {
  std::lock_guard<std::recursive_mutex> L(lock());
  auto It = Signals.find(S.handle);
  if (It == Signals.end())
    return;
  It->second->Value = Value;
  // The doorbell: the packet processor takes what was published.
  if (Queue *Q = It->second->Doorbell)
    process(*Q, uint64_t(Value));
}

hsa_signal_value_t hsa_signal_wait_scacquire(hsa_signal_t S,
                                             hsa_signal_condition_t Condition,
                                             hsa_signal_value_t Compare,
                                             uint64_t TimeoutHint,
                                             hsa_wait_state_t WaitState) {
  hsa_signal_value_t V;
  {
    std::lock_guard<std::recursive_mutex> L(lock());
    auto It = Signals.find(S.handle);
    if (It == Signals.end())
      return 0;
    V = It->second->Value;
  }
  bool Met = false;
  switch (Condition) {
  case HSA_SIGNAL_CONDITION_EQ:
    Met = V == Compare;
    break;
  case HSA_SIGNAL_CONDITION_NE:
    Met = V != Compare;
    break;
  case HSA_SIGNAL_CONDITION_LT:
    Met = V < Compare;
    break;
  case HSA_SIGNAL_CONDITION_GTE:
    Met = V >= Compare;
    break;
  }
  if (Met)
    return V;
  // Nothing will change the value: wait a little, as the hint allows.
  std::this_thread::sleep_for(std::chrono::nanoseconds(
      std::min<uint64_t>(TimeoutHint, 10000000))); // at most 10 ms
  return V;
}

hsa_status_t
hsa_queue_create(hsa_agent_t Agent, uint32_t Size, hsa_queue_type32_t Type,
                 void (*Callback)(hsa_status_t, hsa_queue_t *, void *),
                 void *Data, uint32_t PrivateSegmentSize,
                 uint32_t GroupSegmentSize, hsa_queue_t **Out) {
  std::lock_guard<std::recursive_mutex> L(lock());
  logLine("hsa_queue_create size=%u callback=%s", Size,
          Callback ? "yes" : "no");
  if (Agent.handle != GpuAgent || Size == 0 || (Size & (Size - 1)))
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  auto Q = std::make_unique<Queue>();
  Q->Ring.reset(new uint8_t[size_t(Size) * 64]());
  Q->Q.type = Type;
  Q->Q.base_address = Q->Ring.get();
  Q->Q.size = Size;
  Q->Q.id = Queues.size();
  uint64_t Door = NextSignal++;
  Signals[Door] = std::make_unique<Signal>();
  Signals[Door]->Doorbell = Q.get();
  Q->Q.doorbell_signal.handle = Door;
  Q->Callback = Callback;
  Q->Data = Data;
  *Out = &Q->Q;
  Queues[&Q->Q] = std::move(Q);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_queue_destroy(hsa_queue_t *Q) {
  std::lock_guard<std::recursive_mutex> L(lock());
  logLine("hsa_queue_destroy");
  auto It = Queues.find(Q);
  if (It == Queues.end())
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  Signals.erase(Q->doorbell_signal.handle);
  Queues.erase(It);
  return HSA_STATUS_SUCCESS;
}

uint64_t hsa_queue_load_read_index_scacquire(const hsa_queue_t *Q) {
  std::lock_guard<std::recursive_mutex> L(lock());
  auto It = Queues.find(const_cast<hsa_queue_t *>(Q));
  return It == Queues.end() ? 0 : It->second->Read;
}

uint64_t hsa_queue_add_write_index_scacq_screl(const hsa_queue_t *Q,
                                               uint64_t Value) {
  std::lock_guard<std::recursive_mutex> L(lock());
  auto It = Queues.find(const_cast<hsa_queue_t *>(Q));
  if (It == Queues.end())
    return 0;
  uint64_t Old = It->second->Write;
  It->second->Write += Value;
  return Old;
}

hsa_status_t hsa_agent_iterate_regions(hsa_agent_t Agent,
                                       hsa_status_t (*Callback)(hsa_region_t,
                                                                void *),
                                       void *Data) {
  if (Agent.handle != GpuAgent)
    return HSA_STATUS_SUCCESS;
  for (size_t I = 0; I < NumRegions; ++I) {
    hsa_status_t S = Callback(hsa_region_t{I + 1}, Data);
    if (S != HSA_STATUS_SUCCESS)
      return S;
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_region_get_info(hsa_region_t Region,
                                 hsa_region_info_t Attribute, void *Value) {
  if (Region.handle < 1 || Region.handle > NumRegions)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  const struct Region &R = Regions[Region.handle - 1];
  switch (rawAttribute(Attribute)) {
  case HSA_REGION_INFO_SEGMENT:
    *static_cast<hsa_region_segment_t *>(Value) = R.Segment;
    return HSA_STATUS_SUCCESS;
  case HSA_REGION_INFO_GLOBAL_FLAGS:
    *static_cast<uint32_t *>(Value) = R.Flags;
    return HSA_STATUS_SUCCESS;
  case HSA_REGION_INFO_SIZE:
    *static_cast<size_t *>(Value) = R.Size;
    return HSA_STATUS_SUCCESS;
  case HSA_REGION_INFO_RUNTIME_ALLOC_ALLOWED:
    *static_cast<bool *>(Value) = R.Alloc;
    return HSA_STATUS_SUCCESS;
  }
  return HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

hsa_status_t hsa_memory_allocate(hsa_region_t Region, size_t Size, void **Out) {
  std::lock_guard<std::recursive_mutex> L(lock());
  if (Region.handle < 1 || Region.handle > NumRegions ||
      !Regions[Region.handle - 1].Alloc || Size == 0) {
    logLine("hsa_memory_allocate bytes=%zu: invalid", Size);
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  const struct Region &R = Regions[Region.handle - 1];
  if (R.Flags == HSA_REGION_GLOBAL_FLAG_COARSE_GRAINED) {
    if (failMode("memory") || Size > R.Size) {
      logLine("hsa_memory_allocate region=%s bytes=%zu: out of resources",
              R.Name, Size);
      return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
    }
    uint64_t A = NextDeviceAddress;
    deviceMemory()[A].assign(Size, 0xA5);
    NextDeviceAddress += (Size + 0xFFFF) & ~uint64_t(0xFFFF);
    logLine("hsa_memory_allocate region=%s bytes=%zu -> 0x%llx", R.Name, Size,
            (unsigned long long)A);
    *Out = reinterpret_cast<void *>(A);
    return HSA_STATUS_SUCCESS;
  }
  logLine("hsa_memory_allocate region=%s bytes=%zu -> host", R.Name, Size);
  std::unique_ptr<uint8_t[]> Mem(new uint8_t[Size]);
  std::memset(Mem.get(), 0xA5, Size);
  *Out = Mem.get();
  hostMemory()[reinterpret_cast<uintptr_t>(Mem.get())] = std::move(Mem);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_memory_free(void *P) {
  std::lock_guard<std::recursive_mutex> L(lock());
  uint64_t A = reinterpret_cast<uintptr_t>(P);
  logLine("hsa_memory_free ptr=%s", where(P).c_str());
  if (deviceMemory().erase(A) || hostMemory().erase(A))
    return HSA_STATUS_SUCCESS;
  return HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

hsa_status_t hsa_memory_copy(void *Dst, const void *Src, size_t Size) {
  std::lock_guard<std::recursive_mutex> L(lock());
  logLine("hsa_memory_copy dst=%s src=%s bytes=%zu", where(Dst).c_str(),
          where(Src).c_str(), Size);
  uint8_t *D = deviceBytes(reinterpret_cast<uintptr_t>(Dst), Size);
  const uint8_t *S = deviceBytes(reinterpret_cast<uintptr_t>(Src), Size);
  // A pointer that is a device address but not inside one allocation
  // (deviceBytes with Size 0 finds its start) is refused.
  if ((!D && deviceBytes(reinterpret_cast<uintptr_t>(Dst), 0)) ||
      (!S && deviceBytes(reinterpret_cast<uintptr_t>(Src), 0)))
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  std::memmove(D ? D : static_cast<uint8_t *>(Dst),
               S ? S : static_cast<const uint8_t *>(Src), Size);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_memory_fill(void *P, uint32_t Value, size_t Count) {
  std::lock_guard<std::recursive_mutex> L(lock());
  logLine("hsa_amd_memory_fill ptr=%s value=0x%x count=%zu", where(P).c_str(),
          Value, Count);
  uint64_t A = reinterpret_cast<uintptr_t>(P);
  if (A % 4)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  uint8_t *D = deviceBytes(A, Count * 4);
  if (!D && deviceBytes(A, 0))
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  uint8_t *At = D ? D : static_cast<uint8_t *>(P);
  for (size_t I = 0; I < Count; ++I)
    std::memcpy(At + 4 * I, &Value, 4);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_agent_iterate_isas(hsa_agent_t Agent,
                                    hsa_status_t (*Callback)(hsa_isa_t, void *),
                                    void *Data) {
  if (Agent.handle != GpuAgent)
    return HSA_STATUS_SUCCESS;
  hsa_status_t S = Callback(hsa_isa_t{942}, Data);
  return S == HSA_STATUS_INFO_BREAK ? HSA_STATUS_SUCCESS : S;
}

hsa_status_t hsa_isa_get_info_alt(hsa_isa_t Isa, hsa_isa_info_t Attribute,
                                  void *Value) {
  static const char Name[] = "amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-";
  if (rawAttribute(Attribute) == HSA_ISA_INFO_NAME_LENGTH) {
    *static_cast<uint32_t *>(Value) = sizeof(Name); // with the NUL
    return HSA_STATUS_SUCCESS;
  }
  if (rawAttribute(Attribute) == HSA_ISA_INFO_NAME) {
    std::memcpy(Value, Name, sizeof(Name));
    return HSA_STATUS_SUCCESS;
  }
  return HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

hsa_status_t
hsa_code_object_reader_create_from_memory(const void *CodeObject, size_t Size,
                                          hsa_code_object_reader_t *Out) {
  std::lock_guard<std::recursive_mutex> L(lock());
  logLine("hsa_code_object_reader_create_from_memory bytes=%zu", Size);
  auto R = std::make_unique<Reader>();
  const auto *B = static_cast<const uint8_t *>(CodeObject);
  R->Bytes.assign(B, B + Size);
  Out->handle = NextHandle++;
  Readers[Out->handle] = std::move(R);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_code_object_reader_destroy(hsa_code_object_reader_t R) {
  std::lock_guard<std::recursive_mutex> L(lock());
  logLine("hsa_code_object_reader_destroy");
  return Readers.erase(R.handle) ? HSA_STATUS_SUCCESS
                                 : HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

hsa_status_t
hsa_executable_create_alt(hsa_profile_t Profile,
                          hsa_default_float_rounding_mode_t Rounding,
                          const char *Options, hsa_executable_t *Out) {
  std::lock_guard<std::recursive_mutex> L(lock());
  logLine("hsa_executable_create_alt");
  Out->handle = NextHandle++;
  Executables[Out->handle] = std::make_unique<Executable>();
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_executable_destroy(hsa_executable_t E) {
  std::lock_guard<std::recursive_mutex> L(lock());
  logLine("hsa_executable_destroy");
  auto It = Executables.find(E.handle);
  if (It == Executables.end())
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  for (uint64_t K : It->second->Kernels)
    kernels().erase(K);
  Executables.erase(It);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_executable_load_agent_code_object(
    hsa_executable_t E, hsa_agent_t Agent, hsa_code_object_reader_t R,
    const char *Options, hsa_loaded_code_object_t *Loaded) {
  std::lock_guard<std::recursive_mutex> L(lock());
  auto EIt = Executables.find(E.handle);
  auto RIt = Readers.find(R.handle);
  if (EIt == Executables.end() || RIt == Readers.end() ||
      Agent.handle != GpuAgent)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  std::vector<Kernel> Ks;
  if (failMode("load") || !readKernels(RIt->second->Bytes, Ks)) {
    logLine("hsa_executable_load_agent_code_object: invalid code object");
    return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  }
  logLine("hsa_executable_load_agent_code_object kernels=%zu", Ks.size());
  for (Kernel &K : Ks) {
    K.Object = NextKernelObject;
    NextKernelObject += 0x100;
    EIt->second->Kernels.push_back(K.Object);
    kernels()[K.Object] = K;
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_executable_freeze(hsa_executable_t E, const char *Options) {
  std::lock_guard<std::recursive_mutex> L(lock());
  logLine("hsa_executable_freeze");
  auto It = Executables.find(E.handle);
  if (It == Executables.end())
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  It->second->Frozen = true;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_executable_get_symbol_by_name(hsa_executable_t E,
                                               const char *Name,
                                               const hsa_agent_t *Agent,
                                               hsa_executable_symbol_t *Out) {
  std::lock_guard<std::recursive_mutex> L(lock());
  auto It = Executables.find(E.handle);
  if (It == Executables.end() || !It->second->Frozen)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  for (uint64_t K : It->second->Kernels)
    if (kernels()[K].Symbol == Name) {
      logLine("hsa_executable_get_symbol_by_name %s", Name);
      Out->handle = K;
      return HSA_STATUS_SUCCESS;
    }
  logLine("hsa_executable_get_symbol_by_name %s: not found", Name);
  return HSA_STATUS_ERROR_INVALID_SYMBOL_NAME;
}

hsa_status_t
hsa_executable_symbol_get_info(hsa_executable_symbol_t Sym,
                               hsa_executable_symbol_info_t Attribute,
                               void *Value) {
  std::lock_guard<std::recursive_mutex> L(lock());
  auto It = kernels().find(Sym.handle);
  if (It == kernels().end())
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  const Kernel &K = It->second;
  switch (rawAttribute(Attribute)) {
  case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT:
    *static_cast<uint64_t *>(Value) = K.Object;
    return HSA_STATUS_SUCCESS;
  case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE:
    *static_cast<uint32_t *>(Value) = K.KernargSize;
    return HSA_STATUS_SUCCESS;
  case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE:
    *static_cast<uint32_t *>(Value) = K.Group;
    return HSA_STATUS_SUCCESS;
  case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE:
    *static_cast<uint32_t *>(Value) = K.Private;
    return HSA_STATUS_SUCCESS;
  }
  return HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

hsa_status_t hsa_amd_profiling_set_profiler_enabled(hsa_queue_t *Q,
                                                    int Enable) {
  std::lock_guard<std::recursive_mutex> L(lock());
  logLine("hsa_amd_profiling_set_profiler_enabled enable=%d", Enable);
  auto It = Queues.find(Q);
  if (It == Queues.end())
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  It->second->Profiling = Enable;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t
hsa_amd_profiling_get_dispatch_time(hsa_agent_t Agent, hsa_signal_t S,
                                    hsa_amd_profiling_dispatch_time_t *Time) {
  std::lock_guard<std::recursive_mutex> L(lock());
  logLine("hsa_amd_profiling_get_dispatch_time signal=%llu",
          (unsigned long long)S.handle);
  auto It = Signals.find(S.handle);
  if (It == Signals.end())
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  Time->start = It->second->Start;
  Time->end = It->second->End;
  return HSA_STATUS_SUCCESS;
}

} // extern "C"

// Every entry point the runner loads is defined here with hsa.h's
// signature (a different one would not compile against the declaration).
#define WAVE_HSA_ENTRY(Name)                                                   \
  static_assert(std::is_same_v<decltype(&::Name), decltype(&::Name)>,          \
                #Name " is declared by hsa.h");
#include "LibraryAPI.def"
