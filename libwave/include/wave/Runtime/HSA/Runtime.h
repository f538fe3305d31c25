//===- Runtime.h - The ROCm HSA runtime: agents and dispatch ------*- C++ -*-===//
//
// wave-run --device=hsa on the ROCm HSA runtime (libhsa-runtime64; HSA
// Runtime Programmer's Reference Manual 1.2, and AMD's hsa_ext_amd.h):
// opening the runtime, the GPU agents and their memory regions
// (--list-devices), and one kernel dispatch of a code object (load, memory,
// kernargs, AQL packet, completion signal). The runtime library is opened
// with dlopen at first use and never linked (lib/Runtime/HSA/Library.h), so
// wavetools builds and runs on machines without it or without a GPU; there,
// opening fails with an HsaError of kind NoDevice.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_RUNTIME_HSA_RUNTIME_H
#define WAVE_RUNTIME_HSA_RUNTIME_H

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
  /// missing or when no GPU agent is present; with Failure when the library
  /// lacks an entry point ("HSA runtime 'PATH' has no entry point 'NAME'")
  /// or hsa_init or an agent query fails.
  static llvm::Expected<std::unique_ptr<Runtime>> open();
  ~Runtime();
  Runtime(const Runtime &) = delete;
  Runtime &operator=(const Runtime &) = delete;

  llvm::ArrayRef<AgentInfo> agents() const { return Infos; }

  /// Fails with NoDevice ("no agent N: there are M GPU agents") unless
  /// \p Index names one of agents().
  llvm::Error checkAgent(unsigned Index) const;

  /// Loads \p R.CodeObject for agent \p Agent, copies \p R.Memory to the
  /// agent's coarse-grained memory, dispatches the kernel \p R.Repeat
  /// times (AQL kernel-dispatch packets with system-scope fences, each
  /// waiting on its completion signal for at most \p R.TimeoutSeconds),
  /// and copies the memory back. Every resource is released on every path.
  llvm::Expected<DispatchResult> dispatch(unsigned Agent,
                                          const DispatchRequest &R);

private:
  Runtime() = default;
  struct Impl;
  std::unique_ptr<Impl> I;
  std::vector<AgentInfo> Infos;
};

} // namespace wave::hsa

#endif // WAVE_RUNTIME_HSA_RUNTIME_H
