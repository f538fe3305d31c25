//===- RunOptions.h - wave-run's command-line values and driver -*- C++ -*-===//
//
// The value syntax of the reference emulator's command line (formats/isa.md
// §7.1, with D42: every number accepts decimal or 0x hex), the order of
// operations of a run (formats/isa.md §7.2) and the dump formats
// (formats/isa.md §7.3). wave-run only maps strings from CLI11 into RunOptions
// and calls runProgram(); everything testable lives here.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_EMU_RUNOPTIONS_H
#define WAVE_EMU_RUNOPTIONS_H

#include "wave/Emu/Emulator.h"

#include "llvm/ADT/STLFunctionalExtras.h"
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
/// (formats/isa.md §7.1, D42). Fails for empty text, other characters, or
/// values above \p Max, with a message naming \p What.
llvm::Expected<uint64_t> parseNumber(llvm::StringRef Text, llvm::StringRef What,
                                     uint64_t Max = UINT64_MAX);

/// Parses `X,Y,Z` (exactly three u32 values, no spaces) for --grid and
/// --workgroup, or a single `X` meaning `X,1,1` (an extension of ours).
llvm::Expected<std::array<uint32_t, 3>> parseDims(llvm::StringRef Text,
                                                  llvm::StringRef What);

/// `--fill-zero OFFSET:TYPE:COUNT` / `--fill-iota OFFSET:TYPE:COUNT[:SCALE]`
/// (formats/isa.md §7.1). TYPE is kept only for diagnostics: the reference
/// ignores it (fill-zero writes 4 × COUNT bytes, fill-iota writes f32 values).
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

//===----------------------------------------------------------------------===//
// Named launches (wave-run(1) "NAMED ARGUMENTS"): values for a kernel's
// parameters by name, laid out in device memory from the kernel's parameter
// descriptors (KernelInfo::Params, formats/wbin.md "PARAMS").
//===----------------------------------------------------------------------===//

/// Device byte offset of the first named buffer. The bytes below it stay
/// unused, so a kernel that dereferences a zero "pointer" does not silently
/// read or clobber its first buffer's data.
inline constexpr uint64_t NamedBufferBase = 256;
/// Alignment in bytes of every named buffer's device offset.
inline constexpr uint64_t NamedBufferAlign = 256;

/// `--arg NAME=VALUE`: a value for the kernel parameter NAME. VALUE is kept
/// as text and interpreted against the parameter's descriptor by
/// planLaunch().
struct NamedArg {
  std::string Name;
  std::string Value;
};

/// True when \p Text is the named form `NAME=VALUE` of --arg rather than the
/// reference form `OFFSET:FILE`: a '=' comes before any ':'.
bool isNamedArg(llvm::StringRef Text);

/// Splits `NAME=VALUE` (--arg). Fails for an empty name or value.
llvm::Expected<NamedArg> parseNamedArg(llvm::StringRef Text);

/// `--out NAME=FILE`: write buffer NAME's final bytes to FILE.
struct NamedOut {
  std::string Name;
  std::string Path;
};
/// Splits `NAME=FILE` (--out). Fails for an empty name or file.
llvm::Expected<NamedOut> parseNamedOut(llvm::StringRef Text);

/// `--print NAME`, `--print NAME[I]`, `--print NAME[START:END]`: elements
/// [Start, End) of buffer NAME; either bound of the range may be omitted
/// (0 and the buffer's length).
struct NamedPrint {
  std::string Name;
  uint64_t Start = 0;          ///< first element.
  std::optional<uint64_t> End; ///< one past the last; none = length.
};
/// Parses a --print value. Fails for a missing name, unbalanced brackets or
/// bad numbers (decimal or 0x hex).
llvm::Expected<NamedPrint> parseNamedPrint(llvm::StringRef Text);

/// Parses a scalar of type \p T (I32, U32 or F32) and returns its 32 bits,
/// as a register holds them: i32 `-5` or `0x10` (range -2^31..2^31-1), u32
/// `7` or `0x10` (0..2^32-1, no sign), f32 a decimal or hexadecimal float,
/// `inf`, `-inf` or `nan`, rounded to nearest (a finite value too large for
/// f32 is an error). Fails naming \p What for any other text.
llvm::Expected<uint32_t> parseScalarValue(llvm::StringRef Text, WbinType T,
                                          llvm::StringRef What);

/// The splitmix64 generator (Steele, Lea, Flood, "Fast splittable
/// pseudorandom number generators", OOPSLA 2014; the constants of
/// Vigna's reference `splitmix64.c`): advances \p State by
/// 0x9e3779b97f4a7c15 and returns the mixed value.
uint64_t splitMix64(uint64_t &State);

/// The initial value of a buffer of a named launch, parsed but not yet
/// written (wave-run(1) "NAMED ARGUMENTS"): a file's bytes, or a generator
/// that writes any range of its elements in place, so that large buffers
/// are generated straight into device memory by several threads
/// (writeBuffers()). Elements are little-endian:
///   - `@FILE`: FILE's bytes; the size must be a multiple of the element size.
///   - `zeros:N`: N zero elements.
///   - `iota:N`: 0, 1, ..., N-1 converted to the element type (floats
///     rounded to nearest even, so exact while representable: up to 2^24
///     for f32, 2048 for f16, 256 for bf16).
///   - `random:N:SEED`: N values from splitMix64() seeded with SEED, one
///     call per element: i32/u32 take the low 32 bits; f32 is (z >> 40) *
///     2^-24, f64 (z >> 11) * 2^-53, f16 (z >> 53) * 2^-11, bf16 (z >> 56) *
///     2^-8: a uniform value in [0, 1), exact in the element type.
///   - `fill:N:V`: N copies of V, parsed like a scalar of the element type
///     (f64, f16 and bf16 parse as decimal floats, rounded to nearest even).
struct BufferSource {
  enum class Kind { File, Zeros, Iota, Random, Fill };
  Kind K = Kind::Zeros;
  WbinType Elem = WbinType::U32;
  uint64_t Count = 0; ///< elements.
  /// Random: the seed; Fill: the element's bits.
  uint64_t Operand = 0;
  std::vector<uint8_t> Bytes; ///< File: its bytes.

  /// The buffer's size in bytes.
  uint64_t size() const { return Count * wbinTypeSize(Elem); }
  /// Writes elements [\p First, \p First + \p N) (within Count) to \p Dst,
  /// N times the element size bytes. Element i is the same whatever range
  /// writes it: random's is the (i + 1)-th output of the generator.
  void write(uint64_t First, uint64_t N, uint8_t *Dst) const;
  /// All of it, in a vector.
  std::vector<uint8_t> bytes() const;
};

/// Parses \p Value, a buffer of element type \p Elem (BufferSource's
/// forms); a file is read at once. N and SEED are decimal or 0x hex. Fails
/// naming \p What for bad syntax, an unreadable file, a size that is not a
/// multiple of the element size, or more than 4 GiB.
llvm::Expected<BufferSource>
parseBufferSource(llvm::StringRef Value, WbinType Elem, llvm::StringRef What);

/// The bytes of parseBufferSource(\p Value, \p Elem, \p What).
llvm::Expected<std::vector<uint8_t>>
makeBuffer(llvm::StringRef Value, WbinType Elem, llvm::StringRef What);

/// One named buffer placed in device memory.
struct LaunchBuffer {
  unsigned Param = 0;  ///< parameter index (its register number).
  uint64_t Offset = 0; ///< device byte offset.
  BufferSource Source; ///< its initial value.
  uint64_t size() const { return Source.size(); }
};

/// Writes each buffer of \p Buffers into \p Memory at its offset, with up
/// to \p Threads threads (0: one per hardware thread) working on pieces of
/// about a MiB, so that a large generated input costs its share of every
/// core rather than one core's time. Every buffer must lie within
/// \p Memory.
void writeBuffers(llvm::ArrayRef<LaunchBuffer> Buffers,
                  llvm::MutableArrayRef<uint8_t> Memory, unsigned Threads);

/// Where a named launch puts everything: buffers in parameter order, each
/// at the next multiple of NamedBufferAlign from NamedBufferBase, and the
/// register values of every parameter (buffer offset or scalar bits).
struct LaunchPlan {
  std::vector<LaunchBuffer> Buffers;
  /// (register i, value) for parameter i, in parameter order.
  std::vector<std::pair<unsigned, uint32_t>> Regs;
  /// First device byte after the last buffer (NamedBufferBase if none).
  uint64_t End = NamedBufferBase;
  /// The buffer of parameter \p Param, or null for a scalar.
  const LaunchBuffer *bufferFor(unsigned Param) const;
};

/// "kernel 'K': parameter 'P' (f32 buffer)": how wave-run and the host
/// runtime (wave/Host/Runtime.h) name parameter \p P of kernel
/// \p KernelName in an error about its value.
std::string describeParam(llvm::StringRef KernelName, const WbinParam &P);

/// Binds the arguments of a launch of kernel \p KernelName to its
/// parameters \p Params (formats/wbin.md "PARAMS"): the first
/// \p NumPositional arguments to the first parameters in order, then the
/// arguments named \p Names (one each, in argument order) to the
/// parameters of those names. Returns, for each parameter, the index of its
/// argument. Fails with one message naming the kernel for more positional
/// arguments than parameters, an unknown name (listing the parameters), a
/// parameter given twice, or parameters given nothing (the message ends
/// with \p MissingHint, e.g. "; every parameter needs --arg NAME=VALUE").
llvm::Expected<std::vector<unsigned>>
bindParams(llvm::ArrayRef<WbinParam> Params, llvm::StringRef KernelName,
           size_t NumPositional, llvm::ArrayRef<llvm::StringRef> Names,
           llvm::StringRef MissingHint = "");

/// Lays out a named launch of \p K (display name \p KernelName) with
/// \p Args. Fails with one message naming the kernel and the parameter when
/// the kernel has no parameter descriptors, a name is unknown or given
/// twice, a parameter has no value, or a value does not suit its parameter
/// (a buffer given a number, a scalar given a generator, a number out of
/// range); the buffers would not fit the 32-bit device address space.
/// \p Guard bytes (memcheck's CheckGuardBytes) are left unused before each
/// buffer and after the last one, on top of the alignment.
llvm::Expected<LaunchPlan> planLaunch(const KernelInfo &K,
                                      llvm::StringRef KernelName,
                                      llvm::ArrayRef<NamedArg> Args,
                                      uint64_t Guard = 0);

/// Prints element \p I of a buffer of type \p T at \p Data (little-endian)
/// in the --dump-* formats: u32/i32 decimal, f32 as formatF32(), f16 and
/// bf16 widened to f32 first, f64 as formatF64().
void printElement(const uint8_t *Data, WbinType T, llvm::raw_ostream &OS);

/// A file wave-run writes after a successful run (--out).
struct OutputFile {
  std::string Path;
  std::vector<uint8_t> Bytes;
};

/// Everything a run needs besides the binary (formats/isa.md §7.1).
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
  /// --profile-jobs: print the run's JobsProfile (Emulator.h) to the error
  /// stream after it, whether or not it failed.
  bool ProfileJobs = false;
  /// --check and --check-limit (Checks.h); Kinds 0 = no checking.
  CheckOptions Check;
  /// Named launch: --arg NAME=VALUE, --out NAME=FILE, --print NAME[..].
  std::vector<NamedArg> NamedArgs;
  std::vector<NamedOut> Outs;
  std::vector<NamedPrint> Prints;
  /// --device-memory was given: a named launch must fit in it instead of
  /// growing Config.DeviceMemory.
  bool DeviceMemoryExplicit = false;
};

/// The repeatable and --dump-* options of wave-run as typed on the command
/// line, before parseRunOptionText() (formats/isa.md §7.1).
struct RunOptionText {
  /// --set-reg REG:VALUE, --fill-zero, --fill-iota, --arg (OFFSET:FILE or
  /// NAME=VALUE), --out NAME=FILE and --print NAME[START:END], in order.
  std::vector<std::string> SetRegs, FillZero, FillIota, Args, Outs, Prints;
  /// --dump-u32/f32/f16/bf16 OFFSET:COUNT and --dump-memory START:END;
  /// empty = not given.
  std::string DumpU32, DumpF32, DumpF16, DumpBf16, DumpMemory;
};

/// Parses \p Text into \p Opts: Config.SetRegs (parseSetReg()), FillZero
/// and FillIota (parseFill()), Args or NamedArgs (isNamedArg()), Outs,
/// Prints and the five dumps (parsePair()), appending to what \p Opts
/// holds. Fails with the first bad value's error, in that order.
llvm::Error parseRunOptionText(const RunOptionText &Text, RunOptions &Opts);

/// Resolves --kernel against \p File: a number selects by index, anything
/// else by name. Fails with "no kernel named 'X'" or an out-of-range
/// message.
llvm::Expected<unsigned> resolveKernel(const WbinFile &File,
                                       llvm::StringRef Spec);

/// Runs \p File with \p Opts in the order of formats/isa.md §7.2: fills (all
/// --fill-zero, then all --fill-iota, then all --arg OFFSET:FILE, then the
/// named buffers of planLaunch()), the run, the --dump-regs note (to
/// \p Err), the dumps in fixed order, the --print ranges in the order given
/// and --stats (to \p Out). --trace goes to \p Err. A named launch sets
/// r0..r(n-1) before any --set-reg and grows the device memory to hold its
/// buffers unless Opts.DeviceMemoryExplicit. The final bytes of each --out
/// buffer are appended to \p Outputs (when not null) for the caller to
/// write. Fails with an EmuError (Fault or Limit) for a kernel fault or the
/// instruction limit, its message ending in " (at FILE:LINE:COL)" when the
/// file's line table covers the faulting instruction, and with a
/// StringError for bad options (unknown kernel, unreadable --arg file,
/// wave width, any named-launch error); nothing is printed to \p Out after
/// a failure.
/// Runs kernel \p Kernel of \p File somewhere other than the emulator
/// (wave-run --device=hsa): \p Cfg holds the grid, the workgroup size and
/// the initial registers (SetRegs: a named launch's parameters, then
/// --set-reg), \p Memory the device memory as the kernel starts; the
/// executor leaves the final bytes there.
using KernelExecutor = llvm::function_ref<llvm::Error(
    const WbinFile &File, unsigned Kernel, const EmuConfig &Cfg,
    llvm::MutableArrayRef<uint8_t> Memory)>;

/// With an \p Executor, the run itself is the executor's (the emulator
/// only holds device memory; --trace and --stats are not available and
/// fail as bad options); everything before and after is the same.
///
/// With Opts.Check.Kinds, the checkers watch the run (Emulator::
/// enableChecks(); a named launch lays its buffers out with guard gaps for
/// memcheck) and print their reports and a summary line to \p Err; their
/// counts go to \p Checks (when not null) even when the run then fails.
/// Findings are not an error: the dumps, prints and outputs are those of an
/// unchecked run, and the caller decides the exit status. --check with an
/// \p Executor fails as a bad option.
llvm::Error runProgram(const WbinFile &File, const RunOptions &Opts,
                       llvm::raw_ostream &Out, llvm::raw_ostream &Err,
                       std::vector<OutputFile> *Outputs = nullptr,
                       KernelExecutor Executor = nullptr,
                       CheckCounts *Checks = nullptr);

/// Appends " (at FILE:LINE:COL)" (":COL" only when not 0) to the message of
/// an EmuError whose instruction the line table of \p File covers (its
/// LINES section, formats/wbin.md); \p CodeOffset is the running kernel's
/// first byte in the code section (the emulator's PCs are kernel-relative,
/// line rows code-section relative). Other errors pass through unchanged.
/// runProgram() does this to every run's error; so does the host runtime.
llvm::Error addSourcePosition(const WbinFile &File, uint32_t CodeOffset,
                              llvm::Error Er);

/// Prints a --dump-memory block for [\p Start, \p End) of \p Mem
/// (formats/isa.md §7.3). The range must lie inside \p Mem.
void dumpMemory(llvm::ArrayRef<uint8_t> Mem, uint64_t Start, uint64_t End,
                llvm::raw_ostream &OS);

} // namespace wave::emu

#endif // WAVE_EMU_RUNOPTIONS_H
