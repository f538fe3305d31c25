//===- Checks.h - wave-run --check: a sanitizer for WAVE kernels -*- C++ -*-===//
//
// The kernel checkers of `wave-run --check` (wave-run(1) "CHECKS"), modelled
// on NVIDIA's compute-sanitizer tools of the same names: memcheck (device
// accesses outside the buffer they belong to, local accesses past the
// kernel's local memory), initcheck (reads of bytes nothing initialised),
// synccheck (barriers in divergent control flow, barriers some waves never
// reach) and racecheck (unsynchronised conflicting accesses). The checkers
// watch an emulator run (Emulator::enableChecks()); they never change what
// the kernel computes. The implementation is lib/Emu/Checks.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_EMU_CHECKS_H
#define WAVE_EMU_CHECKS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace wave::emu {

/// One checker; the values are bits of CheckOptions::Kinds.
enum CheckKind : unsigned {
  CheckMem = 1,  ///< memcheck
  CheckRace = 2, ///< racecheck
  CheckInit = 4, ///< initcheck
  CheckSync = 8, ///< synccheck
  CheckAll = 15,
};

/// Number of checkers (the bits of CheckAll).
inline constexpr unsigned NumCheckKinds = 4;

/// The name of checker \p K (a single bit): "memcheck", "racecheck",
/// "initcheck" or "synccheck".
llvm::StringRef checkKindName(CheckKind K);

/// Parses the value of `--check=LIST`: a comma-separated list of checker
/// names (memcheck, racecheck, initcheck, synccheck, or `all`) into a mask
/// of CheckKind bits. An empty value means all of them. Fails, naming the
/// offending word and the valid ones, for any other word or an empty item.
llvm::Expected<unsigned> parseCheckKinds(llvm::StringRef Text);

/// Default of `--check-limit`: reports printed per checker.
inline constexpr uint64_t DefaultCheckLimit = 10;

/// Bytes left unused before and between the buffers of a named launch under
/// memcheck, in addition to the usual alignment (RunOptions.h
/// NamedBufferAlign), so that an access that overruns a buffer lands in a
/// gap rather than in its neighbour.
inline constexpr uint64_t CheckGuardBytes = 4096;

/// What to check and how much to say.
struct CheckOptions {
  /// CheckKind bits; 0 = no checking (the emulator's fast path).
  unsigned Kinds = 0;
  /// Reports printed per checker; the rest are only counted. 0 = no limit.
  uint64_t Limit = DefaultCheckLimit;
  /// Prefix of every report line ("<Prefix>: memcheck: ...").
  std::string Prefix = "wave-run";
};

/// A buffer memcheck knows (one named-launch buffer parameter).
struct CheckBuffer {
  std::string Name;     ///< the parameter's name.
  uint64_t Offset = 0;  ///< device byte offset of element 0.
  uint64_t Size = 0;    ///< bytes.
  unsigned ElemSize = 1; ///< bytes per element (element index = byte / it).
  std::string TypeName; ///< element type, as formats/wbin.md spells it.
};

/// Counts of findings of a checked run, per checker (indexed by the bit
/// number of the CheckKind: memcheck 0, racecheck 1, initcheck 2,
/// synccheck 3), printed or not.
struct CheckCounts {
  uint64_t Found[NumCheckKinds] = {};
  /// Total over every checker.
  uint64_t total() const {
    return Found[0] + Found[1] + Found[2] + Found[3];
  }
};

} // namespace wave::emu

#endif // WAVE_EMU_CHECKS_H
