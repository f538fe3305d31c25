//===- RunOptions.cpp - wave-run's command-line values and driver ---------===//
//
// Value parsing for the reference emulator's flags (ISA.md §7.1, D42), the
// fixed order of operations of ISA.md §7.2 and the dump formats of §7.3.
//
//===----------------------------------------------------------------------===//
#include "wave/Emu/RunOptions.h"
#include "wave/Support/HexDump.h"
#include "wave/Emu/FloatFormat.h"
#include "wave/ISA/ISA.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstring>

using namespace llvm;

namespace wave::emu {

static Error bad(const Twine &Msg) {
  return createStringError(std::make_error_code(std::errc::invalid_argument),
                           Msg);
}

Expected<uint64_t> parseNumber(StringRef Text, StringRef What, uint64_t Max) {
  StringRef Digits = Text;
  unsigned Radix = 10;
  if (Digits.starts_with("0x") || Digits.starts_with("0X")) {
    Digits = Digits.drop_front(2);
    Radix = 16;
  }
  uint64_t V = 0;
  if (Digits.empty() || Digits.getAsInteger(Radix, V) ||
      Digits.find_first_of("+- ") != StringRef::npos)
    return bad("invalid " + What + " '" + Text +
               "': expected a decimal or 0x-prefixed hexadecimal number");
  if (V > Max)
    return bad("invalid " + What + " '" + Text + "': must be at most " +
               Twine(Max));
  return V;
}

Expected<std::array<uint32_t, 3>> parseDims(StringRef Text, StringRef What) {
  SmallVector<StringRef, 4> Parts;
  Text.split(Parts, ',');
  if (Parts.size() != 3)
    return bad("invalid " + What + " '" + Text +
               "': expected three comma-separated numbers X,Y,Z");
  std::array<uint32_t, 3> D;
  for (unsigned I = 0; I != 3; ++I) {
    auto V = parseNumber(Parts[I], What, UINT32_MAX);
    if (!V)
      return V.takeError();
    D[I] = uint32_t(*V);
  }
  return D;
}

Expected<FillSpec> parseFill(StringRef Text, bool Iota) {
  StringRef Flag = Iota ? "--fill-iota" : "--fill-zero";
  SmallVector<StringRef, 5> Parts;
  Text.split(Parts, ':');
  if (Parts.size() != 3 && !(Iota && Parts.size() == 4))
    return bad("invalid " + Flag + " '" + Text +
               "': expected OFFSET:TYPE:COUNT" + (Iota ? "[:SCALE]" : ""));
  FillSpec S;
  auto Off = parseNumber(Parts[0], (Flag + " offset").str());
  if (!Off)
    return Off.takeError();
  auto Cnt = parseNumber(Parts[2], (Flag + " count").str());
  if (!Cnt)
    return Cnt.takeError();
  S.Offset = *Off;
  S.Type = Parts[1].str();
  S.Count = *Cnt;
  if (Parts.size() == 4) {
    double D;
    if (Parts[3].getAsDouble(D))
      return bad("invalid " + Flag + " scale '" + Parts[3] +
                 "': expected a number");
    S.Scale = float(D);
  }
  return S;
}

Expected<std::pair<uint64_t, uint64_t>> parsePair(StringRef Text,
                                                  StringRef What) {
  auto [L, R] = Text.split(':');
  if (!Text.contains(':'))
    return bad("invalid " + What + " '" + Text + "': expected two numbers A:B");
  auto A = parseNumber(L, What);
  if (!A)
    return A.takeError();
  auto B = parseNumber(R, What);
  if (!B)
    return B.takeError();
  return std::make_pair(*A, *B);
}

Expected<std::pair<unsigned, uint32_t>> parseSetReg(StringRef Text) {
  auto [L, R] = Text.split(':');
  if (!Text.contains(':'))
    return bad("invalid --set-reg '" + Text + "': expected REG:VALUE");
  L.consume_front("r");
  auto Reg = parseNumber(L, "--set-reg register", 255);
  if (!Reg)
    return Reg.takeError();
  auto Val = parseNumber(R, "--set-reg value");
  if (!Val)
    return Val.takeError();
  return std::make_pair(unsigned(*Reg), uint32_t(*Val));
}

Expected<std::pair<uint64_t, std::string>> parseArg(StringRef Text) {
  auto [L, R] = Text.split(':');
  if (!Text.contains(':') || R.empty())
    return bad("invalid --arg '" + Text + "': expected OFFSET:FILE");
  auto Off = parseNumber(L, "--arg offset");
  if (!Off)
    return Off.takeError();
  return std::make_pair(*Off, R.str());
}

Expected<unsigned> resolveKernel(const WbinFile &File, StringRef Spec) {
  if (Spec.empty())
    return 0u;
  if (!Spec.empty() && isDigit(Spec[0])) {
    auto I = parseNumber(Spec, "--kernel index", UINT32_MAX);
    if (!I)
      return I.takeError();
    size_t N = std::max<size_t>(File.Kernels.size(), 1);
    if (*I >= N)
      return bad("--kernel index " + Spec + " out of range: the file has " +
                 Twine(File.Kernels.size()) + " kernel(s)");
    return unsigned(*I);
  }
  int I = File.findKernel(Spec);
  if (I < 0)
    return bad("no kernel named '" + Spec + "' in the file");
  return unsigned(I);
}

void dumpMemory(ArrayRef<uint8_t> Mem, uint64_t Start, uint64_t End,
                raw_ostream &OS) {
  OS << format("Device memory 0x%08llx-0x%08llx:\n", (unsigned long long)Start,
               (unsigned long long)End);
  printHexRows(OS, Mem.slice(Start, End - Start), Start);
}

static Error oob(uint64_t Addr) {
  std::string Msg;
  raw_string_ostream OS(Msg);
  OS << "memory access out of bounds: address "
     << format("0x%016llx", (unsigned long long)Addr);
  return make_error<EmuError>(EmuErrorKind::Fault, std::move(Msg));
}

/// Checks that [Off, Off + Count*Elem) lies in a memory of Size bytes;
/// returns the first out-of-range byte otherwise.
static Error checkRange(uint64_t Off, uint64_t Count, unsigned Elem,
                        uint64_t Size) {
  if (Off > Size)
    return oob(Off);
  if (Count > (Size - Off) / Elem)
    return oob(Size);
  return Error::success();
}

Error runProgram(const WbinFile &File, const RunOptions &Opts, raw_ostream &Out,
                 raw_ostream &Err) {
  EmuConfig Cfg = Opts.Config;
  auto K = resolveKernel(File, Opts.Kernel);
  if (!K)
    return K.takeError();
  Cfg.KernelIndex = *K;
  auto EOrErr = Emulator::create(File, Cfg);
  if (!EOrErr)
    return EOrErr.takeError();
  Emulator &E = **EOrErr;
  if (Opts.DumpMemory && Opts.DumpMemory->second <= Opts.DumpMemory->first)
    return bad("invalid --dump-memory range: END must be greater than START");

  // ISA.md §7.2 step 3: all fill-zero, then all fill-iota, then all args.
  uint64_t Size = E.deviceMemory().size();
  for (const FillSpec &S : Opts.FillZero) {
    if (Error Er = checkRange(S.Offset, S.Count, 4, Size))
      return Er;
    std::memset(E.deviceMemory().data() + S.Offset, 0, S.Count * 4);
  }
  for (const FillSpec &S : Opts.FillIota) {
    if (Error Er = checkRange(S.Offset, S.Count, 4, Size))
      return Er;
    uint8_t *P = E.deviceMemory().data() + S.Offset;
    for (uint64_t I = 0; I != S.Count; ++I) {
      uint32_t V = f32Bits(float(I) * S.Scale);
      std::memcpy(P + 4 * I, &V, 4);
    }
  }
  for (const auto &[Off, Path] : Opts.Args) {
    auto Buf = MemoryBuffer::getFileOrSTDIN(Path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
    if (!Buf)
      return createStringError(Buf.getError(), "--arg file '%s': %s",
                               Path.c_str(), Buf.getError().message().c_str());
    StringRef B = (*Buf)->getBuffer();
    if (Error Er = E.writeDevice(
            Off, ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(B.data()),
                                   B.size())))
      return Er;
  }

  if (Opts.Trace)
    E.setTrace(&Err);
  if (Error Er = E.run())
    return Er;

  if (Opts.DumpRegs)
    Err << "Register dumps not implemented for multi-wave execution\n";

  // Validate every dump before printing any, so output is all or nothing.
  ArrayRef<uint8_t> Mem = E.deviceMemory();
  if (Opts.DumpMemory) {
    uint64_t S = Opts.DumpMemory->first, En = Opts.DumpMemory->second;
    if (En > Size)
      return oob(std::max(S, Size));
  }
  struct DumpReq {
    const std::optional<std::pair<uint64_t, uint64_t>> &D;
    unsigned Elem;
  } Dumps[] = {{Opts.DumpU32, 4},
               {Opts.DumpF32, 4},
               {Opts.DumpF16, 2},
               {Opts.DumpBf16, 2}};
  for (const DumpReq &R : Dumps)
    if (R.D)
      if (Error Er = checkRange(R.D->first, R.D->second, R.Elem, Size))
        return Er;

  if (Opts.DumpMemory)
    dumpMemory(Mem, Opts.DumpMemory->first, Opts.DumpMemory->second, Out);
  if (Opts.DumpU32)
    for (uint64_t I = 0; I != Opts.DumpU32->second; ++I)
      Out << readLE32(Mem.data() + Opts.DumpU32->first + 4 * I) << "\n";
  if (Opts.DumpF32)
    for (uint64_t I = 0; I != Opts.DumpF32->second; ++I)
      Out << formatF32(
                 bitsF32(readLE32(Mem.data() + Opts.DumpF32->first + 4 * I)))
          << "\n";
  auto Half = [&](uint64_t At) { return uint16_t(Mem[At] | Mem[At + 1] << 8); };
  if (Opts.DumpF16)
    for (uint64_t I = 0; I != Opts.DumpF16->second; ++I)
      Out << formatF32(bitsF32(f16ToF32Bits(Half(Opts.DumpF16->first + 2 * I))))
          << "\n";
  if (Opts.DumpBf16)
    for (uint64_t I = 0; I != Opts.DumpBf16->second; ++I)
      Out << formatF32(
                 bitsF32(bf16ToF32Bits(Half(Opts.DumpBf16->first + 2 * I))))
          << "\n";
  if (Opts.Stats)
    E.stats().print(Out);
  return Error::success();
}

} // namespace wave::emu
