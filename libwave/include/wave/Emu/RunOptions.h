//===- RunOptions.h - wave-run's command-line values and driver -*- C++ -*-===//
//
// The value syntax of the reference emulator's command line (ISA.md §7.1,
// with D42: every number accepts decimal or 0x hex), the order of
// operations of a run (ISA.md §7.2) and the dump formats (ISA.md §7.3).
// wave-run only maps strings from CLI11 into RunOptions and calls
// runProgram(); everything testable lives here.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_EMU_RUNOPTIONS_H
#define WAVE_EMU_RUNOPTIONS_H

#include "wave/Emu/Emulator.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace wave::emu {

/// Parses an unsigned number: decimal, or hexadecimal after `0x`/`0X`
/// (ISA.md §7.1, D42). Fails for empty text, other characters, or values
/// above \p Max, with a message naming \p What.
llvm::Expected<uint64_t> parseNumber(llvm::StringRef Text, llvm::StringRef What,
                                     uint64_t Max = UINT64_MAX);

/// Parses `X,Y,Z` (exactly three u32 values, no spaces) for --grid and
/// --workgroup.
llvm::Expected<std::array<uint32_t, 3>> parseDims(llvm::StringRef Text,
                                                  llvm::StringRef What);

/// `--fill-zero OFFSET:TYPE:COUNT` / `--fill-iota OFFSET:TYPE:COUNT[:SCALE]`
/// (ISA.md §7.1). TYPE is kept only for diagnostics: the reference ignores
/// it (fill-zero writes 4 × COUNT bytes, fill-iota writes f32 values).
struct FillSpec {
  uint64_t Offset = 0; ///< device byte offset.
  std::string Type;
  uint64_t Count = 0; ///< elements (4 bytes each).
  float Scale = 1.0f; ///< fill-iota only.
};
/// Parses a --fill-zero (\p Iota false: exactly 3 fields) or --fill-iota
/// (\p Iota true: 3 or 4 fields, SCALE a decimal float) value.
llvm::Expected<FillSpec> parseFill(llvm::StringRef Text, bool Iota);

/// `OFFSET:COUNT` (dumps) or `START:END` (--dump-memory): two numbers.
llvm::Expected<std::pair<uint64_t, uint64_t>> parsePair(llvm::StringRef Text,
                                                        llvm::StringRef What);

/// `REG:VALUE` (--set-reg): REG 0..255, VALUE a u64 truncated to 32 bits.
llvm::Expected<std::pair<unsigned, uint32_t>> parseSetReg(llvm::StringRef Text);

/// `OFFSET:FILE` (--arg), split at the first ':'.
llvm::Expected<std::pair<uint64_t, std::string>> parseArg(llvm::StringRef Text);

/// Everything a run needs besides the binary (ISA.md §7.1).
struct RunOptions {
  EmuConfig Config;
  /// --kernel NAME|INDEX (D18); empty = kernel 0.
  std::string Kernel;
  std::vector<FillSpec> FillZero, FillIota;
  std::vector<std::pair<uint64_t, std::string>> Args;
  std::optional<std::pair<uint64_t, uint64_t>> DumpU32, DumpF32, DumpF16,
      DumpBf16, DumpMemory;
  bool DumpRegs = false;
  bool Stats = false;
  bool Trace = false;
};

/// Resolves --kernel against \p File: a number selects by index, anything
/// else by name. Fails with "no kernel named 'X'" or an out-of-range
/// message.
llvm::Expected<unsigned> resolveKernel(const WbinFile &File,
                                       llvm::StringRef Spec);

/// Runs \p File with \p Opts in the order of ISA.md §7.2: fills (all
/// --fill-zero, then all --fill-iota, then all --arg), the run, the
/// --dump-regs note (to \p Err), the dumps in fixed order and --stats (to
/// \p Out). --trace goes to \p Err. Fails with an EmuError (Fault or
/// Limit) for a kernel fault or the instruction limit, and with a
/// StringError for bad options (unknown kernel, unreadable --arg file,
/// wave width); nothing is printed to \p Out after a failure.
llvm::Error runProgram(const WbinFile &File, const RunOptions &Opts,
                       llvm::raw_ostream &Out, llvm::raw_ostream &Err);

/// Prints a --dump-memory block for [\p Start, \p End) of \p Mem (ISA.md
/// §7.3). The range must lie inside \p Mem.
void dumpMemory(llvm::ArrayRef<uint8_t> Mem, uint64_t Start, uint64_t End,
                llvm::raw_ostream &OS);

} // namespace wave::emu

#endif // WAVE_EMU_RUNOPTIONS_H
