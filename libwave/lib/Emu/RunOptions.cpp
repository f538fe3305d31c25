//===- RunOptions.cpp - wave-run's command-line values and driver ---------===//
//
// Value parsing for the reference emulator's flags (formats/isa.md §7.1, D42),
// the fixed order of operations of formats/isa.md §7.2 and the dump formats of
// §7.3.
//
//===----------------------------------------------------------------------===//
#include "wave/Emu/RunOptions.h"
#include "wave/Support/HexDump.h"
#include "wave/Support/ReadFile.h"
#include "wave/Emu/FloatFormat.h"
#include "wave/ISA/ISA.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Threading.h"

#include <atomic>
#include <cassert>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <thread>

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
  if (Parts.size() != 3 && Parts.size() != 1)
    return bad("invalid " + What + " '" + Text +
               "': expected three comma-separated numbers X,Y,Z or one "
               "number X");
  std::array<uint32_t, 3> D = {1, 1, 1};
  for (unsigned I = 0; I != Parts.size(); ++I) {
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

//===----------------------------------------------------------------------===//
// Named launches
//===----------------------------------------------------------------------===//

bool isNamedArg(StringRef Text) {
  size_t Eq = Text.find('='), Colon = Text.find(':');
  return Eq != StringRef::npos && (Colon == StringRef::npos || Eq < Colon);
}

Expected<NamedArg> parseNamedArg(StringRef Text) {
  auto [Name, Value] = Text.split('=');
  if (Name.empty() || Value.empty())
    return bad("invalid --arg '" + Text + "': expected NAME=VALUE");
  return NamedArg{Name.str(), Value.str()};
}

Expected<NamedOut> parseNamedOut(StringRef Text) {
  auto [Name, Path] = Text.split('=');
  if (!Text.contains('=') || Name.empty() || Path.empty())
    return bad("invalid --out '" + Text + "': expected NAME=FILE");
  return NamedOut{Name.str(), Path.str()};
}

Expected<NamedPrint> parseNamedPrint(StringRef Text) {
  NamedPrint P;
  size_t Open = Text.find('[');
  StringRef Name = Text.take_front(Open);
  auto Bad = [&] {
    return bad("invalid --print '" + Text +
               "': expected NAME, NAME[INDEX] or NAME[START:END]");
  };
  if (Name.empty() || Name.contains(']'))
    return Bad();
  P.Name = Name.str();
  if (Open == StringRef::npos)
    return P;
  StringRef Range = Text.drop_front(Open + 1);
  if (!Range.consume_back("]") || Range.contains('[') || Range.contains(']'))
    return Bad();
  auto Num = [&](StringRef S) { return parseNumber(S, "--print index"); };
  if (!Range.contains(':')) {
    auto I = Num(Range);
    if (!I)
      return I.takeError();
    if (*I == UINT64_MAX)
      return Bad();
    P.Start = *I;
    P.End = *I + 1;
    return P;
  }
  auto [L, R] = Range.split(':');
  if (!L.empty()) {
    auto S = Num(L);
    if (!S)
      return S.takeError();
    P.Start = *S;
  }
  if (!R.empty()) {
    auto E = Num(R);
    if (!E)
      return E.takeError();
    P.End = *E;
  }
  return P;
}

Error parseRunOptionText(const RunOptionText &Text, RunOptions &Opts) {
  for (const std::string &S : Text.SetRegs)
    if (auto R = parseSetReg(S))
      Opts.Config.SetRegs.push_back(*R);
    else
      return R.takeError();
  for (bool Iota : {false, true})
    for (const std::string &S : Iota ? Text.FillIota : Text.FillZero)
      if (auto F = parseFill(S, Iota))
        (Iota ? Opts.FillIota : Opts.FillZero).push_back(*F);
      else
        return F.takeError();
  for (const std::string &S : Text.Args)
    if (isNamedArg(S)) {
      if (auto A = parseNamedArg(S))
        Opts.NamedArgs.push_back(*A);
      else
        return A.takeError();
    } else if (auto A = parseArg(S))
      Opts.Args.push_back(*A);
    else
      return A.takeError();
  for (const std::string &S : Text.Outs)
    if (auto O = parseNamedOut(S))
      Opts.Outs.push_back(*O);
    else
      return O.takeError();
  for (const std::string &S : Text.Prints)
    if (auto P = parseNamedPrint(S))
      Opts.Prints.push_back(*P);
    else
      return P.takeError();
  std::pair<const std::string *, const char *> Dumps[] = {
      {&Text.DumpU32, "--dump-u32"},
      {&Text.DumpF32, "--dump-f32"},
      {&Text.DumpF16, "--dump-f16"},
      {&Text.DumpBf16, "--dump-bf16"},
      {&Text.DumpMemory, "--dump-memory"}};
  std::optional<std::pair<uint64_t, uint64_t>> *Dests[] = {
      &Opts.DumpU32, &Opts.DumpF32, &Opts.DumpF16, &Opts.DumpBf16,
      &Opts.DumpMemory};
  for (unsigned I = 0; I < 5; ++I) {
    if (Dumps[I].first->empty())
      continue;
    auto P = parsePair(*Dumps[I].first, Dumps[I].second);
    if (!P)
      return P.takeError();
    *Dests[I] = *P;
  }
  return Error::success();
}

/// Parses a decimal or hexadecimal float of type T with strtof/strtod:
/// the whole text must be consumed; a finite value that overflows is an
/// error (an underflow to a subnormal or zero is not).
template <typename T>
static std::optional<T> parseFloatText(StringRef Text, bool &Overflow) {
  Overflow = false;
  if (Text.empty() || isSpace(Text[0]))
    return std::nullopt;
  std::string S = Text.str();
  char *EndP = nullptr;
  errno = 0;
  T V;
  if constexpr (std::is_same_v<T, float>)
    V = std::strtof(S.c_str(), &EndP);
  else
    V = std::strtod(S.c_str(), &EndP);
  if (EndP != S.c_str() + S.size())
    return std::nullopt;
  if (errno == ERANGE && std::isinf(V)) {
    Overflow = true;
    return std::nullopt;
  }
  return V;
}

Expected<uint32_t> parseScalarValue(StringRef Text, WbinType T,
                                    StringRef What) {
  auto Invalid = [&](const Twine &Expected) {
    return bad(What + ": invalid value '" + Text + "': expected " + Expected);
  };
  auto Range = [&](const Twine &Bounds) {
    return bad(What + ": value '" + Text + "' is out of range (" + Bounds +
               ")");
  };
  auto Int = [&](StringRef Digits, uint64_t &V) {
    unsigned Radix = 10;
    if (Digits.starts_with("0x") || Digits.starts_with("0X")) {
      Digits = Digits.drop_front(2);
      Radix = 16;
    }
    // getAsInteger would accept a sign of its own.
    if (Digits.empty() || !llvm::all_of(Digits, [&](char C) {
          return Radix == 16 ? isHexDigit(C) : isDigit(C);
        }))
      return false;
    // Too many digits for 64 bits is out of range, not malformed.
    if (Digits.getAsInteger(Radix, V))
      V = UINT64_MAX;
    return true;
  };
  switch (T) {
  case WbinType::U32: {
    uint64_t V;
    if (!Int(Text, V))
      return Invalid("an unsigned integer (decimal or 0x hex)");
    if (V > UINT32_MAX)
      return Range("0 to 4294967295");
    return uint32_t(V);
  }
  case WbinType::I32: {
    StringRef Mag = Text;
    bool Neg = Mag.consume_front("-");
    uint64_t V;
    if (!Int(Mag, V))
      return Invalid("an integer (decimal or 0x hex, optionally negative)");
    if (V > (Neg ? 0x80000000ull : 0x7fffffffull))
      return Range("-2147483648 to 2147483647");
    return uint32_t(Neg ? -int64_t(V) : int64_t(V));
  }
  case WbinType::F32: {
    bool Overflow;
    std::optional<float> V = parseFloatText<float>(Text, Overflow);
    if (Overflow)
      return Range("finite f32 values are at most 3.4028235e38 in magnitude");
    if (!V)
      return Invalid("a number such as 2.5, -1e-3, inf or nan");
    return f32Bits(*V);
  }
  default:
    return bad(What + ": a scalar must be i32, u32 or f32, not " +
               wbinTypeName(T));
  }
}

uint64_t splitMix64(uint64_t &State) {
  uint64_t Z = (State += 0x9e3779b97f4a7c15ull);
  Z = (Z ^ (Z >> 30)) * 0xbf58476d1ce4e5b9ull;
  Z = (Z ^ (Z >> 27)) * 0x94d049bb133111ebull;
  return Z ^ (Z >> 31);
}

/// Stores the \p Size low bytes of \p V at \p Dst, little-endian.
static void storeLE(uint8_t *Dst, uint64_t V, unsigned Size) {
  for (unsigned I = 0; I != Size; ++I)
    Dst[I] = uint8_t(V >> (8 * I));
}

/// The bits of \p D as an element of the float type \p T (f32, f64, f16 or
/// bf16), rounded to nearest even.
static uint64_t floatElementBits(double D, WbinType T) {
  switch (T) {
  case WbinType::F64:
    return std::bit_cast<uint64_t>(D);
  case WbinType::F16:
    return f32BitsToF16(f32Bits(float(D)));
  case WbinType::BF16:
    return f32BitsToBf16Nearest(f32Bits(float(D)));
  default:
    return f32Bits(float(D));
  }
}

static bool isFloatType(WbinType T) {
  return T == WbinType::F32 || T == WbinType::F64 || T == WbinType::F16 ||
         T == WbinType::BF16;
}

/// The element of type \p T that random: makes of generator output \p Z.
static uint64_t randomElementBits(uint64_t Z, WbinType T) {
  switch (T) {
  case WbinType::F32:
    return f32Bits(float(Z >> 40) * 0x1p-24f);
  case WbinType::F64:
    return std::bit_cast<uint64_t>(double(Z >> 11) * 0x1p-53);
  case WbinType::F16:
    return f32BitsToF16(f32Bits(float(Z >> 53) * 0x1p-11f));
  case WbinType::BF16:
    return f32BitsToBf16Nearest(f32Bits(float(Z >> 56) * 0x1p-8f));
  default:
    return uint32_t(Z);
  }
}

void BufferSource::write(uint64_t First, uint64_t N, uint8_t *Dst) const {
  unsigned Size = wbinTypeSize(Elem);
  switch (K) {
  case Kind::File:
    std::memcpy(Dst, Bytes.data() + First * Size, N * Size);
    return;
  case Kind::Zeros:
    std::memset(Dst, 0, N * Size);
    return;
  case Kind::Iota:
    for (uint64_t I = 0; I != N; ++I)
      storeLE(Dst + I * Size,
              isFloatType(Elem) ? floatElementBits(double(First + I), Elem)
                                : First + I,
              Size);
    return;
  case Kind::Random: {
    // splitMix64() adds its increment before mixing: element i is the
    // mix of Seed + (i + 1) * increment.
    uint64_t State = Operand + First * 0x9e3779b97f4a7c15ull;
    for (uint64_t I = 0; I != N; ++I)
      storeLE(Dst + I * Size, randomElementBits(splitMix64(State), Elem), Size);
    return;
  }
  case Kind::Fill:
    for (uint64_t I = 0; I != N; ++I)
      storeLE(Dst + I * Size, Operand, Size);
    return;
  }
}

std::vector<uint8_t> BufferSource::bytes() const {
  if (K == Kind::File)
    return Bytes;
  std::vector<uint8_t> Out(size());
  write(0, Count, Out.data());
  return Out;
}

Expected<BufferSource> parseBufferSource(StringRef Value, WbinType Elem,
                                         StringRef What) {
  unsigned Size = wbinTypeSize(Elem);
  BufferSource Out;
  Out.Elem = Elem;
  if (Value.starts_with("@")) {
    StringRef Path = Value.drop_front();
    if (Path.empty())
      return bad(What + ": '@' needs a file name");
    // Device memory is at most 4 GiB: so is a buffer.
    auto Buf = readFileBounded(Path);
    if (!Buf)
      return createStringError(inconvertibleErrorCode(), "%s: file '%s': %s",
                               What.str().c_str(), Path.str().c_str(),
                               toString(Buf.takeError()).c_str());
    StringRef B = (*Buf)->getBuffer();
    if (B.size() % Size)
      return bad(What + ": file '" + Path + "' has " + Twine(B.size()) +
                 " bytes, not a multiple of the " + Twine(Size) + "-byte " +
                 wbinTypeName(Elem) + " element");
    Out.K = BufferSource::Kind::File;
    Out.Bytes.assign(B.begin(), B.end());
    Out.Count = B.size() / Size;
    return Out;
  }
  SmallVector<StringRef, 4> Parts;
  Value.split(Parts, ':');
  StringRef Kind = Parts[0];
  unsigned Want = Kind == "zeros" || Kind == "iota"    ? 2
                  : Kind == "random" || Kind == "fill" ? 3
                                                       : 0;
  if (!Want)
    return bad(What + ": invalid value '" + Value +
               "': expected @FILE, zeros:N, iota:N, random:N:SEED or "
               "fill:N:VALUE");
  if (Parts.size() != Want)
    return bad(What + ": invalid value '" + Value + "': expected " + Kind +
               (Want == 2          ? ":N"
                : Kind == "random" ? ":N:SEED"
                                   : ":N:VALUE"));
  auto N = parseNumber(Parts[1], (What + ": element count").str());
  if (!N)
    return N.takeError();
  // Every buffer must fit the 32-bit device address space.
  if (*N > (uint64_t(1) << 32) / Size)
    return bad(What + ": " + Twine(*N) + " elements of " + wbinTypeName(Elem) +
               " do not fit the 4 GiB device address space");
  Out.Count = *N;
  if (Kind == "zeros") {
    Out.K = BufferSource::Kind::Zeros;
  } else if (Kind == "iota") {
    Out.K = BufferSource::Kind::Iota;
  } else if (Kind == "random") {
    auto Seed = parseNumber(Parts[2], (What + ": random seed").str());
    if (!Seed)
      return Seed.takeError();
    Out.K = BufferSource::Kind::Random;
    Out.Operand = *Seed;
  } else { // fill
    Out.K = BufferSource::Kind::Fill;
    if (Elem == WbinType::I32 || Elem == WbinType::U32 ||
        Elem == WbinType::F32) {
      auto V = parseScalarValue(Parts[2], Elem, What);
      if (!V)
        return V.takeError();
      Out.Operand = *V;
    } else {
      bool Overflow;
      std::optional<double> D = parseFloatText<double>(Parts[2], Overflow);
      if (!D)
        return bad(What + ": invalid fill value '" + Parts[2] +
                   "': expected a number such as 2.5, -1e-3, inf or nan");
      Out.Operand = floatElementBits(*D, Elem);
    }
  }
  return Out;
}

Expected<std::vector<uint8_t>> makeBuffer(StringRef Value, WbinType Elem,
                                          StringRef What) {
  Expected<BufferSource> S = parseBufferSource(Value, Elem, What);
  if (!S)
    return S.takeError();
  return S->bytes();
}

void writeBuffers(ArrayRef<LaunchBuffer> Buffers, MutableArrayRef<uint8_t> Memory,
                  unsigned Threads) {
  // Pieces of whole elements, about a MiB each, claimed in order.
  constexpr uint64_t PieceBytes = 1 << 20;
  struct Piece {
    const LaunchBuffer *B;
    uint64_t First, N;
  };
  std::vector<Piece> Pieces;
  for (const LaunchBuffer &B : Buffers) {
    assert(B.Offset + B.size() <= Memory.size() && "buffer outside memory");
    uint64_t Step = std::max<uint64_t>(1, PieceBytes / wbinTypeSize(B.Source.Elem));
    for (uint64_t First = 0; First < B.Source.Count; First += Step)
      Pieces.push_back({&B, First, std::min(Step, B.Source.Count - First)});
  }
  auto WritePiece = [&](const Piece &P) {
    unsigned Size = wbinTypeSize(P.B->Source.Elem);
    P.B->Source.write(P.First, P.N,
                      Memory.data() + P.B->Offset + P.First * Size);
  };
  if (!Threads)
    Threads = hardware_concurrency().compute_thread_count();
  Threads = unsigned(std::min<uint64_t>(Threads, Pieces.size() / 4));
  if (Threads <= 1) {
    for (const Piece &P : Pieces)
      WritePiece(P);
    return;
  }
  std::atomic<size_t> Next{0};
  auto Work = [&] {
    for (size_t I; (I = Next.fetch_add(1)) < Pieces.size();)
      WritePiece(Pieces[I]);
  };
  std::vector<std::thread> Pool;
  for (unsigned T = 1; T != Threads; ++T)
    Pool.emplace_back(Work);
  Work();
  for (std::thread &T : Pool)
    T.join();
}

const LaunchBuffer *LaunchPlan::bufferFor(unsigned Param) const {
  for (const LaunchBuffer &B : Buffers)
    if (B.Param == Param)
      return &B;
  return nullptr;
}

std::string describeParam(StringRef KernelName, const WbinParam &P) {
  return ("kernel '" + KernelName + "': parameter '" + P.Name + "' (" +
          wbinTypeName(P.Type) +
          (P.Kind == WbinParamKind::Buffer ? " buffer)" : " scalar)"))
      .str();
}

/// "its parameters are: x, y" (or that it has none).
static std::string paramList(ArrayRef<WbinParam> Ps) {
  if (Ps.empty())
    return "it has no parameters";
  std::string S = "its parameters are: ";
  for (size_t I = 0; I != Ps.size(); ++I)
    S += (I ? ", " : "") + Ps[I].Name;
  return S;
}

Expected<std::vector<unsigned>> bindParams(ArrayRef<WbinParam> Ps,
                                           StringRef KernelName,
                                           size_t NumPositional,
                                           ArrayRef<StringRef> Names,
                                           StringRef MissingHint) {
  if (NumPositional > Ps.size())
    return bad("kernel '" + KernelName + "' takes " + Twine(Ps.size()) +
               " parameter" + (Ps.size() == 1 ? "" : "s") + ", but " +
               Twine(NumPositional) + " positional arguments are given; " +
               paramList(Ps));
  constexpr unsigned None = ~0u;
  std::vector<unsigned> ArgOf(Ps.size(), None);
  for (size_t A = 0; A != NumPositional; ++A)
    ArgOf[A] = unsigned(A);
  for (size_t N = 0; N != Names.size(); ++N) {
    auto It = llvm::find_if(
        Ps, [&](const WbinParam &P) { return P.Name == Names[N]; });
    if (It == Ps.end())
      return bad("kernel '" + KernelName + "' has no parameter named '" +
                 Names[N] + "'; " + paramList(Ps));
    unsigned &Slot = ArgOf[It - Ps.begin()];
    if (Slot != None)
      return bad("kernel '" + KernelName + "': parameter '" + Names[N] +
                 "' is given more than once");
    Slot = unsigned(NumPositional + N);
  }
  std::string Missing;
  unsigned NumMissing = 0;
  for (size_t I = 0; I != Ps.size(); ++I)
    if (ArgOf[I] == None)
      Missing += (NumMissing++ ? ", '" : "'") + Ps[I].Name + "'";
  if (NumMissing)
    return bad("kernel '" + KernelName + "': no value for parameter" +
               (NumMissing > 1 ? "s " : " ") + Missing + MissingHint);
  return ArgOf;
}

Expected<LaunchPlan> planLaunch(const KernelInfo &K, StringRef KernelName,
                                ArrayRef<NamedArg> Args, uint64_t Guard) {
  if (!K.Params)
    return bad("kernel '" + KernelName +
               "' has no parameter descriptors, so named arguments "
               "(--arg NAME=VALUE, --out, --print) cannot be used; give "
               "'.param' lines when assembling it, or use --arg OFFSET:FILE "
               "and --set-reg");
  const std::vector<WbinParam> &Ps = *K.Params;
  SmallVector<StringRef, 8> Names;
  for (const NamedArg &A : Args)
    Names.push_back(A.Name);
  Expected<std::vector<unsigned>> ArgOf =
      bindParams(Ps, KernelName, 0, Names,
                 "; every parameter needs --arg NAME=VALUE");
  if (!ArgOf)
    return ArgOf.takeError();

  LaunchPlan Plan;
  uint64_t Cur = NamedBufferBase;
  for (size_t I = 0; I != Ps.size(); ++I) {
    const WbinParam &P = Ps[I];
    StringRef Value = Args[(*ArgOf)[I]].Value;
    std::string What = describeParam(KernelName, P);
    if (P.Kind == WbinParamKind::Scalar) {
      if (Value.starts_with("@") || Value.contains(':'))
        return bad(What + ": invalid value '" + Value +
                   "': a scalar takes a number, not a buffer");
      auto V = parseScalarValue(Value, P.Type, What);
      if (!V)
        return V.takeError();
      Plan.Regs.emplace_back(unsigned(I), *V);
      continue;
    }
    auto Source = parseBufferSource(Value, P.Type, What);
    if (!Source)
      return Source.takeError();
    uint64_t Off = alignTo(Cur + Guard, NamedBufferAlign);
    Cur = Off + Source->size();
    if (Cur > (uint64_t(1) << 32))
      return bad("kernel '" + KernelName + "': the buffers need " + Twine(Cur) +
                 " bytes of device memory, more than the 4 GiB that 32-bit "
                 "addresses reach (at parameter '" +
                 P.Name + "')");
    Plan.Regs.emplace_back(unsigned(I), uint32_t(Off));
    Plan.Buffers.push_back({unsigned(I), Off, std::move(*Source)});
  }
  Plan.End = Cur + (Plan.Buffers.empty() ? 0 : Guard);
  if (Plan.End > (uint64_t(1) << 32))
    return bad("kernel '" + KernelName + "': the buffers and their guard "
               "gaps need " + Twine(Plan.End) + " bytes of device memory, "
               "more than the 4 GiB that 32-bit addresses reach");
  return Plan;
}

void printElement(const uint8_t *D, WbinType T, raw_ostream &OS) {
  uint16_t H = uint16_t(D[0] | D[1] << 8);
  switch (T) {
  case WbinType::U32:
    OS << readLE32(D);
    break;
  case WbinType::I32:
    OS << int32_t(readLE32(D));
    break;
  case WbinType::F32:
    OS << formatF32(bitsF32(readLE32(D)));
    break;
  case WbinType::F16:
    OS << formatF32(bitsF32(f16ToF32Bits(H)));
    break;
  case WbinType::BF16:
    OS << formatF32(bitsF32(bf16ToF32Bits(H)));
    break;
  case WbinType::F64:
    OS << formatF64(std::bit_cast<double>(uint64_t(readLE32(D)) |
                                          uint64_t(readLE32(D + 4)) << 32));
    break;
  }
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

Error addSourcePosition(const WbinFile &File, uint32_t CodeOffset, Error Er) {
  return handleErrors(
      std::move(Er), [&](std::unique_ptr<EmuError> EE) -> Error {
        std::optional<uint32_t> PC = EE->getPC();
        const WbinLine *L = PC ? File.lineFor(CodeOffset + *PC) : nullptr;
        if (!L)
          return Error(std::move(EE));
        std::string Msg = EE->getMessage();
        raw_string_ostream OS(Msg);
        OS << " (at " << File.SourceFiles[L->File] << ':' << L->Line;
        if (L->Column)
          OS << ':' << L->Column;
        OS << ')';
        return make_error<EmuError>(EE->getKind(), std::move(Msg), PC);
      });
}

/// A named launch resolved against the kernel: its layout and, for each
/// --out and --print, the parameter it names.
struct NamedLaunch {
  LaunchPlan Plan;
  std::vector<const LaunchBuffer *> OutBufs, PrintBufs;
  std::vector<WbinType> PrintTypes;
};

/// Plans the named part of a run (planLaunch, then --out and --print
/// names and ranges) and adjusts \p Cfg: registers r0..r(n-1) before the
/// user's --set-reg values, device memory grown to fit unless explicit.
static Expected<std::optional<NamedLaunch>>
prepareNamedLaunch(const WbinFile &File, unsigned K, const RunOptions &Opts,
                   EmuConfig &Cfg) {
  if (Opts.NamedArgs.empty() && Opts.Outs.empty() && Opts.Prints.empty())
    return std::nullopt;
  if (File.Kernels.empty())
    return bad("the file has no kernel table, so no parameter descriptors: "
               "named arguments (--arg NAME=VALUE, --out, --print) cannot be "
               "used; use --arg OFFSET:FILE and --set-reg");
  const KernelInfo &KI = File.Kernels[K];
  std::string Name = KI.Name.empty() ? "kernel_" + std::to_string(K) : KI.Name;
  // memcheck: guard gaps around the buffers (Checks.h).
  auto Plan = planLaunch(KI, Name, Opts.NamedArgs,
                         (Opts.Check.Kinds & CheckMem) ? CheckGuardBytes : 0);
  if (!Plan)
    return Plan.takeError();
  NamedLaunch NL{std::move(*Plan), {}, {}, {}};
  const std::vector<WbinParam> &Ps = *KI.Params;
  auto Buffer = [&](StringRef Param,
                    StringRef Flag) -> Expected<const LaunchBuffer *> {
    auto It =
        llvm::find_if(Ps, [&](const WbinParam &P) { return P.Name == Param; });
    if (It == Ps.end())
      return bad(Flag + " '" + Param + "': kernel '" + Name +
                 "' has no parameter named '" + Param + "'; " + paramList(Ps));
    const LaunchBuffer *B = NL.Plan.bufferFor(unsigned(It - Ps.begin()));
    if (!B)
      return bad(Flag + " '" + Param + "': parameter '" + Param +
                 "' of kernel '" + Name + "' is a scalar, not a buffer");
    return B;
  };
  for (const NamedOut &O : Opts.Outs) {
    auto B = Buffer(O.Name, "--out");
    if (!B)
      return B.takeError();
    NL.OutBufs.push_back(*B);
  }
  for (const NamedPrint &P : Opts.Prints) {
    auto B = Buffer(P.Name, "--print");
    if (!B)
      return B.takeError();
    WbinType T = Ps[(*B)->Param].Type;
    uint64_t Len = (*B)->Source.Count;
    uint64_t End = P.End.value_or(Len);
    if (P.Start > End || End > Len)
      return bad("--print '" + P.Name + "[" + Twine(P.Start) + ":" +
                 Twine(End) + "]': buffer '" + P.Name + "' has " + Twine(Len) +
                 " elements");
    NL.PrintBufs.push_back(*B);
    NL.PrintTypes.push_back(T);
  }
  if (Opts.DeviceMemoryExplicit) {
    if (NL.Plan.End > Cfg.DeviceMemory)
      return bad("--device-memory " + Twine(Cfg.DeviceMemory) +
                 " is too small for the named buffers of kernel '" + Name +
                 "': they need " + Twine(NL.Plan.End) +
                 " bytes (leave --device-memory out to size it to fit)");
  } else {
    Cfg.DeviceMemory = std::max(Cfg.DeviceMemory, NL.Plan.End);
  }
  Cfg.SetRegs.insert(Cfg.SetRegs.begin(), NL.Plan.Regs.begin(),
                     NL.Plan.Regs.end());
  return std::optional<NamedLaunch>(std::move(NL));
}

/// The selected kernel's own sizes (its metadata entry) within what the
/// emulator runs: a WbinError at the entry's field, so that the file, not
/// the command line, is named (formats/wbin.md "Kernel entry").
static Error checkKernelLimits(const WbinFile &File, unsigned K) {
  if (K >= File.Kernels.size())
    return Error::success();
  const KernelInfo &KI = File.Kernels[K];
  uint64_t Entry = uint64_t(File.Header.MetadataOffset) + 4 +
                   uint64_t(WbinKernelEntrySize) * K;
  if (KI.WorkgroupSize[0] > 0) {
    std::array<uint32_t, 3> G = effectiveWorkgroupSize(KI, {});
    uint64_t T = uint64_t(G[0]) * G[1] * G[2];
    if (T > MaxWorkgroupThreads)
      return make_error<WbinError>(
          Entry + 12, "kernel '" + KI.Name + "': workgroup size " +
                          std::to_string(KI.WorkgroupSize[0]) + " x " +
                          std::to_string(KI.WorkgroupSize[1]) + " x " +
                          std::to_string(KI.WorkgroupSize[2]) + " is " +
                          std::to_string(T) + " threads; the emulator runs " +
                          "at most " + std::to_string(MaxWorkgroupThreads));
  }
  if (KI.LocalMemorySize > MaxLocalMemoryBytes)
    return make_error<WbinError>(
        Entry + 8, "kernel '" + KI.Name + "': local memory of " +
                       std::to_string(KI.LocalMemorySize) +
                       " bytes per workgroup; the emulator gives at most " +
                       std::to_string(MaxLocalMemoryBytes));
  return Error::success();
}

Error runProgram(const WbinFile &File, const RunOptions &Opts, raw_ostream &Out,
                 raw_ostream &Err, std::vector<OutputFile> *Outputs,
                 KernelExecutor Executor, CheckCounts *Checks) {
  if (Executor &&
      (Opts.Trace || Opts.Stats || Opts.Check.Kinds || Opts.ProfileJobs))
    return bad(Twine(Opts.Trace         ? "--trace"
                     : Opts.Stats       ? "--stats"
                     : Opts.ProfileJobs ? "--profile-jobs"
                                        : "--check") +
               " needs the emulator (--device=emu)");
  EmuConfig Cfg = Opts.Config;
  auto K = resolveKernel(File, Opts.Kernel);
  if (!K)
    return K.takeError();
  Cfg.KernelIndex = *K;
  if (Error E = checkKernelLimits(File, *K))
    return E;
  auto NamedOrErr = prepareNamedLaunch(File, *K, Opts, Cfg);
  if (!NamedOrErr)
    return NamedOrErr.takeError();
  std::optional<NamedLaunch> &Named = *NamedOrErr;
  uint32_t CodeOffset = File.Kernels.empty() ? 0 : File.Kernels[*K].CodeOffset;
  auto EOrErr = Emulator::create(File, Cfg);
  if (!EOrErr)
    return EOrErr.takeError();
  Emulator &E = **EOrErr;
  if (Opts.DumpMemory && Opts.DumpMemory->second <= Opts.DumpMemory->first)
    return bad("invalid --dump-memory range: END must be greater than START");
  if (Opts.Check.Kinds) {
    // memcheck's buffers: every buffer parameter of a named launch.
    std::vector<CheckBuffer> Bufs;
    if (Named)
      for (const LaunchBuffer &B : Named->Plan.Buffers) {
        const WbinParam &P = (*File.Kernels[*K].Params)[B.Param];
        Bufs.push_back({P.Name, B.Offset, B.size(),
                        wbinTypeSize(P.Type), wbinTypeName(P.Type).str()});
      }
    E.enableChecks(Opts.Check, Bufs, Err);
  }

  // formats/isa.md §7.2 step 3: all fill-zero, then all fill-iota, then all
  // args.
  uint64_t Size = E.deviceMemory().size();
  for (const FillSpec &S : Opts.FillZero) {
    if (Error Er = checkRange(S.Offset, S.Count, 4, Size))
      return Er;
    std::memset(E.deviceMemory().data() + S.Offset, 0, S.Count * 4);
    E.markInitialized(S.Offset, S.Count * 4);
  }
  for (const FillSpec &S : Opts.FillIota) {
    if (Error Er = checkRange(S.Offset, S.Count, 4, Size))
      return Er;
    uint8_t *P = E.deviceMemory().data() + S.Offset;
    for (uint64_t I = 0; I != S.Count; ++I) {
      uint32_t V = f32Bits(float(I) * S.Scale);
      std::memcpy(P + 4 * I, &V, 4);
    }
    E.markInitialized(S.Offset, S.Count * 4);
  }
  for (const auto &[Off, Path] : Opts.Args) {
    // A stream that does not fit in device memory from Off on is an error
    // anyway: read no more of it. A regular file is read whole (at most
    // 4 GiB) and writeDevice() says where it does not fit.
    uint64_t Size = E.deviceMemory().size();
    bool Regular = sys::fs::is_regular_file(Path);
    auto Buf = readFileBounded(Path, Regular ? MaxInputBytes
                                             : Off < Size ? Size - Off : 0);
    if (!Buf)
      return createStringError(inconvertibleErrorCode(), "--arg file '%s': %s",
                               Path.c_str(), toString(Buf.takeError()).c_str());
    StringRef B = (*Buf)->getBuffer();
    if (Error Er = E.writeDevice(
            Off, ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(B.data()),
                                   B.size())))
      return Er;
  }
  if (Named) {
    // Straight into device memory, on the run's threads; a buffer that does
    // not fit (an explicit --device-memory) fails as writeDevice() says.
    for (const LaunchBuffer &B : Named->Plan.Buffers)
      if (B.Offset + B.size() > Size)
        if (Error Er = E.writeDevice(B.Offset, B.Source.bytes()))
          return Er;
    writeBuffers(Named->Plan.Buffers, E.deviceMemory(), Cfg.Jobs);
    for (const LaunchBuffer &B : Named->Plan.Buffers)
      E.markInitialized(B.Offset, B.size());
  }

  if (Executor) {
    if (Error Er = Executor(File, *K, Cfg, E.deviceMemory()))
      return Er;
  } else {
    if (Opts.Trace)
      E.setTrace(&Err);
    Error Er = E.run();
    if (Checks)
      *Checks = E.checkCounts();
    if (Opts.ProfileJobs)
      E.jobsProfile().print(Err);
    if (Er)
      return addSourcePosition(File, CodeOffset, std::move(Er));
  }

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
  if (Named) {
    for (size_t I = 0; I != Opts.Prints.size(); ++I) {
      const LaunchBuffer &B = *Named->PrintBufs[I];
      unsigned Size = wbinTypeSize(Named->PrintTypes[I]);
      uint64_t End = Opts.Prints[I].End.value_or(B.Source.Count);
      for (uint64_t J = Opts.Prints[I].Start; J < End; ++J) {
        printElement(Mem.data() + B.Offset + J * Size, Named->PrintTypes[I],
                     Out);
        Out << "\n";
      }
    }
    if (Outputs)
      for (size_t I = 0; I != Opts.Outs.size(); ++I) {
        const LaunchBuffer &B = *Named->OutBufs[I];
        ArrayRef<uint8_t> Bytes = Mem.slice(B.Offset, B.size());
        Outputs->push_back({Opts.Outs[I].Path,
                            std::vector<uint8_t>(Bytes.begin(), Bytes.end())});
      }
  }
  if (Opts.Stats)
    E.stats().print(Out);
  return Error::success();
}

} // namespace wave::emu
