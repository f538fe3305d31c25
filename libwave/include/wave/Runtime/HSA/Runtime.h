//===- Runtime.h - The ROCm HSA runtime: agents and dispatch ------*- C++ -*-===//
//
// wave-run --device=hsa on the ROCm HSA runtime (libhsa-runtime64; HSA
// Runtime Programmer's Reference Manual 1.2, and AMD's hsa_ext_amd.h):
// opening the runtime, the GPU agents and their memory regions
// (--list-devices), and one kernel dispatch of a code object (load, memory,
// kernargs, AQL packet, completion signal). The pieces of a dispatch are a
// Context's methods, which the host runtime's HSA devices
// (lib/Host/HsaBackend.cpp) use too, keeping one queue, its device memory
// and its code objects across launches. The runtime library is opened with
// dlopen at first use and never linked (lib/Runtime/HSA/Library.h), so
// wavetools builds and runs on machines without it or without a GPU; there,
// opening fails with an HsaError of kind NoDevice.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_RUNTIME_HSA_RUNTIME_H
#define WAVE_RUNTIME_HSA_RUNTIME_H

#include "wave/Runtime/HSA/Dispatch.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace wave::hsa {

/// What went wrong, for wave-run's exit status.
enum class HsaErrorKind {
  NoDevice, ///< no runtime library, no HSA runtime device or no GPU
            ///< agent: exit status 2.
  Failure,  ///< an HSA call failed, or the code object is unusable: 1.
  Timeout,  ///< the dispatch did not complete within --timeout: 3.
};

/// An error of the HSA runner: one line naming what was being done and, for
/// a failed HSA call, hsa_status_string()'s text.
class HsaError : public llvm::ErrorInfo<HsaError> {
public:
  static char ID;
  HsaError(HsaErrorKind Kind, std::string Message)
      : Kind(Kind), Message(std::move(Message)) {}
  HsaErrorKind getKind() const { return Kind; }
  void log(llvm::raw_ostream &OS) const override { OS << Message; }
  std::error_code convertToErrorCode() const override;

private:
  HsaErrorKind Kind;
  std::string Message;
};

/// A memory region of an agent (HSA_REGION_INFO_*).
struct RegionInfo {
  enum Segment : uint8_t { Global, ReadOnly, Private, Group, Kernarg };
  Segment Seg = Global;
  bool KernargFlag = false, FineGrained = false, CoarseGrained = false;
  bool AllocAllowed = false;
  uint64_t Size = 0; ///< bytes.
};

/// A GPU agent as --list-devices shows it.
struct AgentInfo {
  std::string Name;        ///< HSA_AGENT_INFO_NAME, e.g. "gfx942".
  std::string ProductName; ///< HSA_AMD_AGENT_INFO_PRODUCT_NAME.
  std::string ISA;  ///< first ISA's name, "amdgcn-amd-amdhsa--gfx942:...".
  uint32_t ComputeUnits = 0;
  uint32_t WavefrontSize = 0;
  std::vector<RegionInfo> Regions;

  /// The processor part of ISA ("gfx942" from
  /// "amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-"), the --mcpu value the
  /// AMDGCN stage translates for.
  std::string processor() const;
};

/// Prints \p Agents as --list-devices does: one block per agent with its
/// index (the --agent value), names, ISA, compute units, wavefront size and
/// memory regions.
void printAgents(llvm::ArrayRef<AgentInfo> Agents, llvm::raw_ostream &OS);

/// One kernel dispatch.
struct DispatchRequest {
  llvm::ArrayRef<uint8_t> CodeObject; ///< the .hsaco bytes.
  std::string KernelSymbol;           ///< "<name>.kd".
  /// Device memory as the kernel starts; receives the final bytes. At most
  /// 4 GiB (the 32-bit device addresses of formats/amdgcn-abi.md).
  llvm::MutableArrayRef<uint8_t> Memory;
  std::vector<uint32_t> Registers; ///< r0, r1, ... on entry (missing: 0).
  std::array<uint32_t, 3> Workgroups = {1, 1, 1};
  std::array<uint16_t, 3> GroupSize = {1, 1, 1};
  double TimeoutSeconds = 60; ///< per dispatch; <= 0: wait forever.
  unsigned Repeat = 1;        ///< dispatches, one after another.
  bool Profile = false;       ///< record each dispatch's GPU time.
};

/// What a dispatch reports.
struct DispatchResult {
  std::vector<double> Seconds; ///< GPU time of each dispatch (Profile).
};

/// The opened HSA runtime (hsa_init ... hsa_shut_down) and its GPU agents.
class Runtime {
public:
  /// Opens the runtime: loads the library ($WAVE_HSA_RUNTIME, else
  /// libhsa-runtime64.so.1), then hsa_init and the agent queries. Fails
  /// with NoDevice when the library does not load ("HSA runtime not found:
  /// dlopen PATH: <dlerror>"), when /dev/kfd (the ROCm kernel driver) is
  /// missing (checked before hsa_init for the default library; for one
  /// that $WAVE_HSA_RUNTIME names, such as the tests' stub, only when its
  /// hsa_init fails), when hsa_init fails ("HSA runtime unusable: ...") or
  /// when no GPU agent is present; with Failure when the library lacks an
  /// entry point ("HSA runtime 'PATH' has no entry point 'NAME'") or an
  /// agent query fails.
  static llvm::Expected<std::unique_ptr<Runtime>> open();
  ~Runtime();
  Runtime(const Runtime &) = delete;
  Runtime &operator=(const Runtime &) = delete;

  llvm::ArrayRef<AgentInfo> agents() const { return Infos; }

  /// Fails with NoDevice ("no agent N: there are M GPU agents") unless
  /// \p Index names one of agents().
  llvm::Error checkAgent(unsigned Index) const;

  /// Runs \p R on agent \p Agent with a Context: loads \p R.CodeObject,
  /// copies \p R.Memory to the agent's coarse-grained memory, dispatches
  /// the kernel \p R.Repeat times (Context::launch()), and copies the
  /// memory back. Fails with Failure for a failed call or a fault, with
  /// Timeout when a dispatch does not complete in time. Every resource is
  /// released on every path except Timeout (Context).
  llvm::Expected<DispatchResult> dispatch(unsigned Agent,
                                          const DispatchRequest &R);

  /// The agent handle (hsa_agent_t::handle) of agent \p Index.
  uint64_t agentHandle(unsigned Index) const;

private:
  friend class Context;
  Runtime() = default;
  struct Impl;
  std::unique_ptr<Impl> I;
  std::vector<AgentInfo> Infos;
};

/// A kernel of a loaded code object, as a dispatch needs it
/// (HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_*).
struct LoadedKernel {
  std::string Symbol;  ///< "<name>.kd".
  uint64_t Object = 0; ///< the kernel descriptor's address.
  uint32_t KernargSize = 0, GroupSegmentSize = 0, PrivateSegmentSize = 0;

  /// The kernel's kernarg layout, from its segment size: size = H + 24
  /// with H = align8(8 + 4N). Two N give each size; the larger is taken,
  /// which puts one register's value in the padding before H, where the
  /// kernel never reads (formats/amdgcn-abi.md "Kernel arguments"). Fails
  /// with Failure when the size is not the wavetools kernel ABI's.
  llvm::Expected<KernargLayout> layout() const;
};

class Context;

/// A code object loaded for a Context's agent and frozen (a code object
/// reader over a copy of its bytes, and an executable). Destroying it
/// destroys both, unless its Context was abandoned; it must go before its
/// Context.
class Executable {
public:
  ~Executable();
  Executable(const Executable &) = delete;
  Executable &operator=(const Executable &) = delete;
  /// The kernel whose descriptor symbol is \p Symbol ("<name>.kd").
  llvm::Expected<LoadedKernel> kernel(llvm::StringRef Symbol) const;

private:
  friend class Context;
  explicit Executable(Context &Ctx) : Ctx(Ctx) {}
  Context &Ctx;
  std::vector<uint8_t> Bytes;
  uint64_t Reader = 0, Exe = 0;
  bool HasReader = false, HasExe = false;
};

/// One GPU agent of a Runtime and what a dispatch does on it: memory in
/// the agent's coarse-grained region (device addresses, never dereferenced
/// on the host), copies through a host-visible (fine-grained) staging
/// buffer, code objects, and kernel dispatches on one queue, each waited
/// for with a deadline. Creating it makes the queue, the completion
/// signal, the kernarg buffer (kernarg region) and the staging buffer.
/// Calls must be serialised by the caller. Failed HSA calls are HsaErrors
/// of kind Failure ("WHAT: <hsa_status_string> (status 0xNNNN)").
///
/// A fault of a dispatch (the queue's error callback: a memory violation,
/// an illegal instruction, ...) leaves the queue unusable: faulted().
/// A dispatch that times out still runs; the context is then abandoned:
/// its destructor releases nothing (the kernel may still use the queue and
/// memory), its Runtime is not shut down, and the process's exit reclaims
/// both.
class Context {
public:
  /// Opens agent \p Index of \p RT (Runtime::checkAgent() first).
  static llvm::Expected<std::unique_ptr<Context>> create(const Runtime &RT,
                                                         unsigned Index);
  /// Destroys the signal, the queue and the buffers, unless abandoned.
  /// Memory and executables are the caller's to free first.
  ~Context();
  Context(const Context &) = delete;
  Context &operator=(const Context &) = delete;

  const AgentInfo &info() const { return Info; }
  /// Bytes of the agent's coarse-grained region (HSA_REGION_INFO_SIZE).
  uint64_t deviceMemoryBytes() const;

  /// hsa_memory_allocate of \p Bytes (at least 1) in the coarse-grained
  /// region; the device address.
  llvm::Expected<uint64_t> allocate(uint64_t Bytes);
  /// hsa_memory_free; errors are ignored (after a fault, the fault
  /// matters).
  void free(uint64_t Address);
  /// Copies \p Bytes from the host to device address \p To: through the
  /// staging buffer, one hsa_memory_copy per StagingBytes.
  llvm::Error copyToDevice(uint64_t To, const void *From, uint64_t Bytes);
  /// Copies \p Bytes from device address \p From to the host.
  llvm::Error copyFromDevice(void *To, uint64_t From, uint64_t Bytes);
  /// Zeroes \p Bytes at device address \p At (hsa_amd_memory_fill; both a
  /// multiple of 4, else through the staging buffer).
  llvm::Error zero(uint64_t At, uint64_t Bytes);

  /// Loads \p CodeObject (a .hsaco) for the agent and freezes it; a
  /// refusal is a Failure naming the agent.
  llvm::Expected<std::unique_ptr<Executable>>
  load(llvm::ArrayRef<uint8_t> CodeObject);

  /// Dispatches \p K with arguments \p V (V.Params sized to K's layout)
  /// over \p Workgroups workgroups of \p GroupSize work-items: the
  /// kernargs into the kernarg buffer, one AQL kernel-dispatch packet
  /// (makeDispatchPacket(), system-scope fences, barrier bit) on the
  /// queue, then a wait on its completion signal for at most
  /// \p TimeoutSeconds (<= 0: forever). With \p Profile, returns the GPU
  /// time in seconds (hsa_amd_profiling_get_dispatch_time), else 0. Fails
  /// with Failure "kernel 'K' faulted on the GPU: <status>" (the context
  /// is faulted() from then on) or with Timeout "kernel 'K' did not
  /// complete in N s (--timeout)" (the context is abandoned()).
  llvm::Expected<double> launch(const LoadedKernel &K, const KernargValues &V,
                                llvm::StringRef Kernel, double TimeoutSeconds,
                                bool Profile);

  /// Whether a dispatch timed out: the context is left to the process's
  /// exit.
  bool abandoned() const { return Abandoned; }
  /// Whether a dispatch faulted: the queue is unusable.
  bool faulted() const;

  /// Bytes of the staging buffer: host copies of more are made in pieces.
  static constexpr uint64_t StagingBytes = uint64_t(16) << 20;
  /// Bytes of the kernarg buffer: the largest kernarg segment a dispatch
  /// may have.
  static constexpr uint64_t KernargBufferBytes = 4096;

private:
  friend class Executable;
  explicit Context(AgentInfo Info);
  struct Impl;
  std::unique_ptr<Impl> I;
  AgentInfo Info;
  bool Abandoned = false;
};

} // namespace wave::hsa

#endif // WAVE_RUNTIME_HSA_RUNTIME_H
