//===- EmuTest.cpp - Unit tests of the reference emulator -----------------===//
//
// GoogleTest coverage of wave::emu (formats/isa.md §4, §7.3 and the §8
// defaults): one group per instruction class with hand-computed values,
// divergence, barriers, wave operations under divergence, atomics ordering,
// MMA, f64, calls, faults and the command-line value syntax. Programs are built
// with wave::emu::ProgramBuilder (wave::Inst + encodeInst), so these tests do
// not depend on the assembler.
//
//===----------------------------------------------------------------------===//
#include "wave/Emu/Emulator.h"
#include "wave/Emu/FloatFormat.h"
#include "wave/Emu/ProgramBuilder.h"
#include "wave/Emu/RunOptions.h"

#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

using namespace wave;
using namespace wave::emu;

namespace {

/// Outcome of one emulation.
struct Result {
  bool Ok = false;
  EmuErrorKind Kind = EmuErrorKind::Fault;
  std::string Error;
  std::vector<uint8_t> Mem;
  EmuStats Stats;

  uint32_t u32(unsigned Index) const {
    uint32_t V;
    std::memcpy(&V, Mem.data() + 4 * Index, 4);
    return V;
  }
  float f32(unsigned Index) const { return std::bit_cast<float>(u32(Index)); }
};

/// Runs \p P with device memory starting as \p Init, one wave at a time
/// when \p OneWaveAtATime: a traced run never takes lockstep steps, so it
/// is the plain formats/isa.md §4.3 loop to compare lockstep steps with.
Result runInit(const ProgramBuilder &P, EmuConfig C,
               const std::vector<uint8_t> &Init, bool OneWaveAtATime) {
  WbinFile F = P.build();
  Result R;
  auto E = Emulator::create(F, C);
  if (!E) {
    R.Error = llvm::toString(E.takeError());
    return R;
  }
  if (!Init.empty())
    std::memcpy((*E)->deviceMemory().data(), Init.data(),
                std::min(Init.size(), (*E)->deviceMemory().size()));
  if (OneWaveAtATime)
    (*E)->setTrace(&llvm::nulls());
  llvm::Error Err = (*E)->run();
  R.Mem.assign((*E)->deviceMemory().begin(), (*E)->deviceMemory().end());
  R.Stats = (*E)->stats();
  R.Ok = !Err;
  llvm::handleAllErrors(std::move(Err), [&](const EmuError &EE) {
    R.Kind = EE.getKind();
    R.Error = EE.getMessage();
  });
  return R;
}

Result run(const ProgramBuilder &P, EmuConfig C = {}) {
  if (C.DeviceMemory == 1048576)
    C.DeviceMemory = 4096;
  return runInit(P, C, {}, /*OneWaveAtATime=*/false);
}

EmuConfig oneLane() {
  EmuConfig C;
  C.WaveWidth = 1;
  C.Workgroup = {1, 1, 1};
  return C;
}

uint32_t fb(float X) { return std::bit_cast<uint32_t>(X); }

/// Runs `Op r4, r1, r2, r3` on one lane with r1..r3 = A, B, Cv and returns
/// r4 (and r5, the high word for f64 results, at index 1).
uint32_t alu(Opcode Op, uint32_t A, uint32_t B = 0, uint32_t Cv = 0,
             uint32_t *Hi = nullptr) {
  ProgramBuilder P;
  P.movImm(1, A);
  P.movImm(2, B);
  P.movImm(3, Cv);
  P.op(Op, 4, 1, 2, 3);
  P.movImm(10, 0);
  P.movImm(11, 4);
  P.op(Opcode::DeviceStoreU32, 0, 10, 4);
  P.op(Opcode::DeviceStoreU32, 0, 11, 5);
  P.halt();
  Result R = run(P, oneLane());
  EXPECT_TRUE(R.Ok) << R.Error;
  if (Hi)
    *Hi = R.u32(1);
  return R.u32(0);
}
float falu(Opcode Op, float A, float B = 0, float Cv = 0) {
  return std::bit_cast<float>(alu(Op, fb(A), fb(B), fb(Cv)));
}
bool cmp(Opcode Op, uint32_t A, uint32_t B) {
  ProgramBuilder P;
  P.movImm(1, A);
  P.movImm(2, B);
  P.op(Op, 1, 1, 2); // p1
  P.movImm(5, 1);
  P.movImm(6, 0);
  P.op(Opcode::Select, 4, 1, 5, 6);
  P.op(Opcode::DeviceStoreU32, 0, 6, 4);
  P.halt();
  Result R = run(P, oneLane());
  EXPECT_TRUE(R.Ok) << R.Error;
  return R.u32(0) != 0;
}

/// Appends "store rV to device[lane * 4 + Base]" (uses r28, r29).
void storePerLane(ProgramBuilder &P, unsigned V, uint32_t Base = 0) {
  P.movSr(28, 4);
  P.movImm(29, 4);
  P.op(Opcode::Imul, 28, 28, 29);
  P.movImm(29, Base);
  P.op(Opcode::Iadd, 28, 28, 29);
  P.op(Opcode::DeviceStoreU32, 0, 28, V);
}

EmuConfig lanes(unsigned N, unsigned W = 0) {
  EmuConfig C;
  C.WaveWidth = W ? W : N;
  C.Workgroup = {N, 1, 1};
  return C;
}

const float Inf = std::numeric_limits<float>::infinity();
const float QNaN = std::numeric_limits<float>::quiet_NaN();

//===----------------------------------------------------------------------===//
// Value formats (formats/isa.md §7.3) and conversions (§4.8, §4.11)
//===----------------------------------------------------------------------===//

TEST(EmuFormat, VerifiedFloatExamples) {
  struct {
    float V;
    const char *Text;
  } Cases[] = {
      {3.0f, "3.0"},
      {0.1f, "0.1"},
      {-2.5f, "-2.5"},
      {0.5f, "0.5"},
      {100.0f, "100.0"},
      {1234.5677f, "1234.5677"},
      {123456790.0f, "123456790.0"},
      {1e15f, "1000000000000000.0"},
      {16777216.0f, "16777216.0"},
      {65504.0f, "65504.0"},
      {0.0001f, "0.0001"},
      {0.0002f, "0.0002"},
      {9.999999e-5f, "9.999999e-5"},
      {1e-5f, "1e-5"},
      {1e16f, "1e16"},
      {1.5e16f, "1.5e16"},
      {3.4028235e38f, "3.4028235e38"},
      {1.1754944e-38f, "1.1754944e-38"},
      {1e-45f, "1e-45"},
      {-0.0f, "-0.0"},
      {0.0f, "0.0"},
      {QNaN, "NaN"},
      {-QNaN, "NaN"},
      {Inf, "inf"},
      {-Inf, "-inf"},
  };
  for (auto &C : Cases)
    EXPECT_EQ(formatF32(C.V), C.Text) << C.Text;
}

// Exact ties between two shortest digit strings go to the larger magnitude
// (formats/isa.md §7.3): the first two are the examples the document gives,
// the rest come from an exact rational search (Python fractions) for f32
// values whose shortest round-trip length has two equally close strings.
TEST(EmuFormat, ShortestDigitTiesRoundUp) {
  struct {
    uint32_t Bits;
    const char *Text;
  } Cases[] = {
      {0x40074000, "2.1132813"},    {0xC0DA2000, "-6.8164063"},
      {0x3B600000, "0.0034179688"}, {0xBFEA8000, "-1.8320313"},
      {0x3FD38000, "1.6523438"},    {0xBD340000, "-0.043945313"},
      {0x3D040000, "0.032226563"},  {0x43510400, "209.01563"},
      {0x434ECC00, "206.79688"},    {0xC0E32000, "-7.0976563"},
  };
  for (auto &C : Cases)
    EXPECT_EQ(formatF32(std::bit_cast<float>(C.Bits)), C.Text) << C.Text;
  // Not a tie: the nearest string wins, whichever way.
  EXPECT_EQ(formatF32(1234.5677f), "1234.5677");
  EXPECT_EQ(formatF64(0.1 + 0.2), "0.30000000000000004");
}

TEST(EmuFormat, HalfAndBfloat) {
  EXPECT_EQ(f32BitsToF16(fb(65536.0f)), 0x7C00);
  EXPECT_EQ(f32BitsToF16(fb(65504.0f)), 0x7BFF);
  EXPECT_EQ(f32BitsToF16(fb(1.0f)), 0x3C00);
  EXPECT_EQ(f32BitsToF16(fb(-2.0f)), 0xC000);
  EXPECT_EQ(f32BitsToF16(fb(5.9604645e-8f)), 0x0001); // smallest subnormal
  EXPECT_EQ(f32BitsToF16(fb(2.9802322e-8f)), 0x0000); // tie -> even (0)
  EXPECT_EQ(f32BitsToF16(0x7FC00001), 0x7E00);        // quiet NaN
  EXPECT_EQ(f16ToF32Bits(0x3C00), fb(1.0f));
  EXPECT_EQ(f16ToF32Bits(0x0001), fb(5.9604645e-8f));
  EXPECT_EQ(f16ToF32Bits(0xFC00), fb(-Inf));
  EXPECT_EQ(formatF32(std::bit_cast<float>(f16ToF32Bits(0x2E66))),
            "0.099975586");
  EXPECT_EQ(f32BitsToBf16(0x3F8FFFFF), 0x3F8F);
  EXPECT_EQ(bf16ToF32Bits(0x3F80), fb(1.0f));
  // Round trip of every finite f16.
  for (uint32_t H = 0; H != 0x10000; ++H) {
    if ((H & 0x7C00) == 0x7C00)
      continue;
    EXPECT_EQ(f32BitsToF16(f16ToF32Bits(uint16_t(H))), H);
  }
}

TEST(EmuFormat, DumpMemoryExample) {
  const uint8_t Bytes[] = {0x00, 0x00, 0x40, 0x40, 0xcd, 0xcc, 0xcc, 0x3d,
                           0xac, 0xc5, 0x27, 0x37, 0xca, 0x1b, 0x0e, 0x5a,
                           0xaf, 0x29, 0x55, 0x5a, 0x00, 0x00, 0xc0, 0x7f,
                           0x00, 0x00, 0x80, 0x7f, 0x00, 0x00, 0x80, 0xff,
                           0x00, 0x00, 0x00, 0x80, 0xa3};
  std::string S;
  llvm::raw_string_ostream OS(S);
  dumpMemory(Bytes, 0, 0x25, OS);
  EXPECT_EQ(S, "Device memory 0x00000000-0x00000025:\n"
               "00000000: 00 00 40 40 cd cc cc 3d  ac c5 27 37 ca 1b 0e 5a  "
               "|..@@...=..'7...Z|\n"
               "00000010: af 29 55 5a 00 00 c0 7f  00 00 80 7f 00 00 80 ff  "
               "|.)UZ............|\n"
               "00000020: 00 00 00 80 a3                                    "
               "|.....|\n");
}

TEST(EmuOptions, Numbers) {
  EXPECT_EQ(*parseNumber("42", "x"), 42u);
  EXPECT_EQ(*parseNumber("0x1F", "x"), 31u);
  EXPECT_EQ(*parseNumber("0X10", "x"), 16u);
  for (const char *Bad : {"", "-1", "0x", "1 ", "abc", "12"}) {
    llvm::Expected<uint64_t> V = parseNumber(Bad, "x", 10);
    EXPECT_FALSE(static_cast<bool>(V)) << Bad;
    llvm::consumeError(V.takeError());
  }
  auto D = parseDims("4,0x2,1", "--grid");
  ASSERT_TRUE(static_cast<bool>(D));
  EXPECT_EQ((*D)[1], 2u);
  llvm::Expected<std::array<uint32_t, 3>> Bad = parseDims("4,2", "--grid");
  EXPECT_FALSE(static_cast<bool>(Bad));
  llvm::consumeError(Bad.takeError());
  auto SR = parseSetReg("3:0xFFFFFFFF1");
  ASSERT_TRUE(static_cast<bool>(SR));
  EXPECT_EQ(SR->first, 3u);
  EXPECT_EQ(SR->second, 0xFFFFFFF1u);
  auto FI = parseFill("0x100:f32:0x10:0.5", true);
  ASSERT_TRUE(static_cast<bool>(FI));
  EXPECT_EQ(FI->Offset, 0x100u);
  EXPECT_EQ(FI->Count, 16u);
  EXPECT_EQ(FI->Scale, 0.5f);
  llvm::Expected<FillSpec> FZ = parseFill("0:f32:4:1", false);
  EXPECT_FALSE(static_cast<bool>(FZ));
  llvm::consumeError(FZ.takeError());
  auto A = parseArg("16:dir/a:b.bin");
  ASSERT_TRUE(static_cast<bool>(A));
  EXPECT_EQ(A->second, "dir/a:b.bin");
}

//===----------------------------------------------------------------------===//
// Integer, bitwise, compare (formats/isa.md §4.5, §4.6, §4.10)
//===----------------------------------------------------------------------===//

TEST(EmuInteger, Arithmetic) {
  EXPECT_EQ(alu(Opcode::Iadd, 0xFFFFFFFF, 2), 1u);
  EXPECT_EQ(alu(Opcode::Isub, 1, 2), 0xFFFFFFFFu);
  EXPECT_EQ(alu(Opcode::Imul, 0x10000, 0x10000), 0u);
  EXPECT_EQ(alu(Opcode::ImulHi, 0xFFFFFFFF, 2), 1u);
  EXPECT_EQ(alu(Opcode::Imad, 3, 4, 5), 17u);
  EXPECT_EQ(alu(Opcode::Idiv, 7, 0), 0u);
  EXPECT_EQ(alu(Opcode::Idiv, 0x80000000, 0xFFFFFFFF), 0x80000000u);
  EXPECT_EQ(alu(Opcode::Idiv, uint32_t(-7), 2), uint32_t(-3));
  EXPECT_EQ(alu(Opcode::Imod, 7, 0), 0u);
  EXPECT_EQ(alu(Opcode::Imod, uint32_t(-7), 2), uint32_t(-1));
  EXPECT_EQ(alu(Opcode::Imod, 0x80000000, 0xFFFFFFFF), 0u);
  EXPECT_EQ(alu(Opcode::Ineg, 0x80000000), 0x80000000u);
  EXPECT_EQ(alu(Opcode::Iabs, uint32_t(-5)), 5u);
  EXPECT_EQ(alu(Opcode::Iabs, 0x80000000), 0x80000000u);
  EXPECT_EQ(alu(Opcode::Imin, uint32_t(-1), 1), uint32_t(-1));
  EXPECT_EQ(alu(Opcode::Imax, uint32_t(-1), 1), 1u);
  EXPECT_EQ(alu(Opcode::Iclamp, 10, 0, 5), 5u);
  EXPECT_EQ(alu(Opcode::Iclamp, uint32_t(-3), 0, 5), 0u);
  // D11 default: lo > hi never faults; min(max(a, lo), hi).
  EXPECT_EQ(alu(Opcode::Iclamp, 3, 10, 5), 5u);
}

// idiv and imod on many operand pairs, against 64-bit integer arithmetic
// (formats/isa.md §4.5: truncation toward zero, the remainder has the
// dividend's sign, b == 0 gives 0, INT_MIN / -1 gives INT_MIN and INT_MIN mod
// -1 gives 0). The pairs are the edge values against each other, dividends next
// to multiples of large divisors (where an inexact quotient would truncate to
// the wrong side), and random words; full waves and a half-masked one.
TEST(EmuInteger, DivisionMatchesIntegerArithmetic) {
  std::vector<int32_t> Edge = {0,
                               1,
                               -1,
                               2,
                               -2,
                               3,
                               -3,
                               7,
                               -7,
                               255,
                               256,
                               -256,
                               46340,
                               46341,
                               65535,
                               65536,
                               -65536,
                               1 << 22,
                               (1 << 22) + 1,
                               1 << 30,
                               -(1 << 30),
                               INT32_MAX,
                               INT32_MAX - 1,
                               INT32_MIN,
                               INT32_MIN + 1};
  std::vector<std::pair<int32_t, int32_t>> Pairs;
  for (int32_t A : Edge)
    for (int32_t B : Edge)
      Pairs.push_back({A, B});
  uint64_t X = 0x243F6A8885A308D3ull;
  auto Next = [&] {
    X ^= X << 13;
    X ^= X >> 7;
    X ^= X << 17;
    return uint32_t(X);
  };
  while (Pairs.size() < 8192) {
    int32_t B = int32_t(Next()) >> (Next() % 31);
    if (B == 0)
      continue;
    // q * B + r for r in {-1, 0, 1, |B| - 1}, when it fits in i32.
    int64_t Q = int64_t(int32_t(Next())) / (std::abs(int64_t(B)) + 1);
    for (int64_t R :
         {int64_t(-1), int64_t(0), int64_t(1), std::abs(int64_t(B)) - 1}) {
      int64_t A = Q * B + R;
      if (A >= INT32_MIN && A <= INT32_MAX)
        Pairs.push_back({int32_t(A), B});
    }
    Pairs.push_back({int32_t(Next()), int32_t(Next())});
  }
  Pairs.resize(8192);
  const uint32_t N = uint32_t(Pairs.size());
  // Thread t: r1 = A[t], r2 = B[t]; Q[t] = idiv, M[t] = imod. Odd threads
  // of the last workgroup run the two under a predicate that is false.
  ProgramBuilder P;
  P.movSr(10, 0); // tid
  P.movSr(11, 5); // group
  P.movImm(12, 256);
  P.op(Opcode::Imad, 10, 11, 12, 10);
  P.movImm(12, 4);
  P.op(Opcode::Imul, 13, 10, 12); // 4t
  P.op(Opcode::DeviceLoadU32, 1, 13);
  P.movImm(14, 4 * N);
  P.op(Opcode::Iadd, 15, 13, 14);
  P.op(Opcode::DeviceLoadU32, 2, 15);
  P.movImm(16, 1);
  P.op(Opcode::And, 17, 10, 16);
  P.movImm(18, N - 256);
  P.movImm(19, 0);
  P.op(Opcode::UcmpGe, 1, 10, 18);     // p1: last workgroup
  P.op(Opcode::Select, 17, 1, 17, 19); // r17: odd thread there
  P.op(Opcode::UcmpEq, 2, 17, 19);     // p2: runs the division
  P.movImm(4, 0xDEADBEEF);
  P.movImm(5, 0xDEADBEEF);
  P.pred(2, false, Opcode::Idiv, 4, 1, 2);
  P.pred(2, false, Opcode::Imod, 5, 1, 2);
  P.op(Opcode::Iadd, 15, 15, 14);
  P.op(Opcode::DeviceStoreU32, 0, 15, 4);
  P.op(Opcode::Iadd, 15, 15, 14);
  P.op(Opcode::DeviceStoreU32, 0, 15, 5);
  P.halt();
  EmuConfig C = lanes(256, 32);
  C.Grid = {N / 256, 1, 1};
  C.DeviceMemory = 16 * uint64_t(N);
  std::vector<uint8_t> Init(C.DeviceMemory);
  for (uint32_t T = 0; T != N; ++T) {
    std::memcpy(Init.data() + 4 * T, &Pairs[T].first, 4);
    std::memcpy(Init.data() + 4 * (N + T), &Pairs[T].second, 4);
  }
  Result R = runInit(P, C, Init, /*OneWaveAtATime=*/false);
  ASSERT_TRUE(R.Ok) << R.Error;
  for (uint32_t T = 0; T != N; ++T) {
    int64_t A = Pairs[T].first, B = Pairs[T].second;
    uint32_t WantQ = 0, WantM = 0;
    if (T >= N - 256 && T % 2) {
      WantQ = WantM = 0xDEADBEEF; // predicated off: unchanged
    } else if (B != 0) {
      int64_t Q =
          A / B; // truncates toward zero, like formats/isa.md's i32 rule
      WantQ = uint32_t(Q == int64_t(1) << 31 ? INT32_MIN : Q);
      WantM = uint32_t(A - Q * B);
    }
    ASSERT_EQ(R.u32(2 * N + T), WantQ) << A << " / " << B;
    ASSERT_EQ(R.u32(3 * N + T), WantM) << A << " mod " << B;
  }
}

TEST(EmuInteger, Bitwise) {
  EXPECT_EQ(alu(Opcode::And, 0xF0F0, 0xFF00), 0xF000u);
  EXPECT_EQ(alu(Opcode::Or, 0xF0F0, 0x0F00), 0xFFF0u);
  EXPECT_EQ(alu(Opcode::Xor, 0xFF, 0x0F), 0xF0u);
  EXPECT_EQ(alu(Opcode::Not, 0), 0xFFFFFFFFu);
  EXPECT_EQ(alu(Opcode::Shl, 1, 33), 2u);
  EXPECT_EQ(alu(Opcode::Shr, 0x80000000, 31), 1u);
  EXPECT_EQ(alu(Opcode::Sar, 0x80000000, 31), 0xFFFFFFFFu);
  EXPECT_EQ(alu(Opcode::Bitcount, 0xF0F0), 8u);
  EXPECT_EQ(alu(Opcode::Bitfind, 0), 0xFFFFFFFFu);
  EXPECT_EQ(alu(Opcode::Bitfind, 1), 31u);
  EXPECT_EQ(alu(Opcode::Bitfind, 0x80000000), 0u);
  EXPECT_EQ(alu(Opcode::Bitrev, 1), 0x80000000u);
  EXPECT_EQ(alu(Opcode::Bfe, 0xABCD1234, 8, 8), 0x12u);
  EXPECT_EQ(alu(Opcode::Bfe, 0xABCD1234, 4, 0), 0u);
  EXPECT_EQ(alu(Opcode::Bfe, 0xFFFFFFFF, 0, 32), 0u); // width 32 & 31 = 0
  // bfi r4, r1(base), r2(ins), r3(off), r4(width): width in r4 = 0 here.
  {
    ProgramBuilder P;
    P.movImm(1, 0xFFFFFFFF);
    P.movImm(2, 0);
    P.movImm(3, 4);
    P.movImm(5, 8);
    P.op(Opcode::Bfi, 6, 1, 2, 3, 5);
    P.movImm(7, 0);
    P.op(Opcode::DeviceStoreU32, 0, 7, 6);
    P.halt();
    Result R = run(P, oneLane());
    ASSERT_TRUE(R.Ok) << R.Error;
    EXPECT_EQ(R.u32(0), 0xFFFFF00Fu);
  }
}

TEST(EmuInteger, Compares) {
  EXPECT_TRUE(cmp(Opcode::IcmpLt, uint32_t(-1), 0));
  EXPECT_FALSE(cmp(Opcode::UcmpLt, uint32_t(-1), 0));
  EXPECT_TRUE(cmp(Opcode::IcmpGe, 3, 3));
  // D19 default: the extension codes evaluate properly.
  EXPECT_TRUE(cmp(Opcode::UcmpGt, uint32_t(-1), 0));
  EXPECT_TRUE(cmp(Opcode::UcmpGe, 5, 5));
  EXPECT_TRUE(cmp(Opcode::UcmpEq, 5, 5));
  EXPECT_TRUE(cmp(Opcode::UcmpNe, 5, 6));
  // Integer ord/unord are not D19 extensions: false, as in formats/isa.md
  // §4.10.
  EXPECT_FALSE(cmp(Opcode::IcmpOrd, 1, 2));
  EXPECT_FALSE(cmp(Opcode::IcmpUnord, 1, 2));
  EXPECT_FALSE(cmp(Opcode::UcmpOrd, 1, 2));
  EXPECT_FALSE(cmp(Opcode::UcmpUnord, 1, 2));
  EXPECT_TRUE(cmp(Opcode::FcmpGe, fb(2.0f), fb(2.0f)));
  EXPECT_FALSE(cmp(Opcode::FcmpGe, fb(QNaN), fb(2.0f)));
  EXPECT_TRUE(cmp(Opcode::FcmpNe, fb(QNaN), fb(QNaN)));
  EXPECT_FALSE(cmp(Opcode::FcmpEq, fb(QNaN), fb(QNaN)));
  EXPECT_TRUE(cmp(Opcode::FcmpEq, fb(0.0f), fb(-0.0f)));
  EXPECT_TRUE(cmp(Opcode::FcmpUnord, fb(QNaN), fb(1.0f)));
  EXPECT_FALSE(cmp(Opcode::FcmpOrd, fb(QNaN), fb(1.0f)));
}

//===----------------------------------------------------------------------===//
// f32, f16, bf16, f64, conversions (formats/isa.md §4.7-§4.9, §4.11)
//===----------------------------------------------------------------------===//

TEST(EmuFloat, Arithmetic) {
  EXPECT_EQ(falu(Opcode::Fadd, 1.5f, 2.25f), 3.75f);
  EXPECT_EQ(falu(Opcode::Fmul, 3.0f, -2.0f), -6.0f);
  // fma is fused: (1 + 2^-23)(1 - 2^-23) - 1 = -2^-46 exactly.
  float E = std::ldexp(1.0f, -23);
  EXPECT_EQ(falu(Opcode::Fma, 1 + E, 1 - E, -1.0f), -std::ldexp(1.0f, -46));
  // D10: division by zero is +inf whatever the dividend.
  EXPECT_EQ(alu(Opcode::Fdiv, fb(0.0f), fb(0.0f)), 0x7F800000u);
  EXPECT_EQ(alu(Opcode::Fdiv, fb(-1.0f), fb(-0.0f)), 0x7F800000u);
  EXPECT_EQ(alu(Opcode::Fdiv, fb(QNaN), fb(0.0f)), 0x7F800000u);
  EXPECT_EQ(falu(Opcode::Fdiv, 1.0f, 4.0f), 0.25f);
  EXPECT_EQ(alu(Opcode::Fneg, 0x7FC00001), 0xFFC00001u);
  EXPECT_EQ(alu(Opcode::Fabs, 0xFFC00001), 0x7FC00001u);
  // fmin/fmax: NaN-suppressing, operand order decides ±0.
  EXPECT_EQ(alu(Opcode::Fmin, fb(0.0f), fb(-0.0f)), fb(0.0f));
  EXPECT_EQ(alu(Opcode::Fmin, fb(-0.0f), fb(0.0f)), fb(-0.0f));
  EXPECT_EQ(falu(Opcode::Fmin, QNaN, 2.0f), 2.0f);
  EXPECT_EQ(falu(Opcode::Fmax, 2.0f, QNaN), 2.0f);
  EXPECT_EQ(falu(Opcode::Fmax, 1.0f, 3.0f), 3.0f);
  EXPECT_EQ(falu(Opcode::Fclamp, 5.0f, 0.0f, 1.0f), 1.0f);
  EXPECT_EQ(alu(Opcode::Fclamp, fb(-0.0f), fb(0.0f), fb(1.0f)), fb(-0.0f));
  EXPECT_TRUE(std::isnan(falu(Opcode::Fclamp, QNaN, 0.0f, 1.0f)));
  // D11 default: NaN bounds ignored, lo > hi does not crash.
  EXPECT_EQ(falu(Opcode::Fclamp, 5.0f, QNaN, 1.0f), 1.0f);
  EXPECT_EQ(falu(Opcode::Fclamp, 0.5f, 2.0f, 1.0f), 1.0f);
  EXPECT_EQ(alu(Opcode::Fsqrt, fb(-1.0f)), 0xFFC00000u);
  EXPECT_EQ(falu(Opcode::Frsqrt, 0.0f), Inf);
  EXPECT_EQ(falu(Opcode::Frsqrt, 4.0f), 0.5f);
  EXPECT_EQ(falu(Opcode::Frcp, 4.0f), 0.25f);
  EXPECT_EQ(falu(Opcode::Fround, 1.5f), 2.0f);
  EXPECT_EQ(falu(Opcode::Fround, -2.5f), -3.0f);
  EXPECT_EQ(falu(Opcode::Fround, 2.5f), 3.0f);
  EXPECT_EQ(falu(Opcode::Ffloor, -1.5f), -2.0f);
  EXPECT_EQ(falu(Opcode::Fceil, -1.5f), -1.0f);
  EXPECT_EQ(falu(Opcode::Ftrunc, -1.5f), -1.0f);
  EXPECT_EQ(falu(Opcode::Ffract, -1.25f), -0.25f);
  EXPECT_EQ(falu(Opcode::Fsat, 2.0f), 1.0f);
  EXPECT_EQ(falu(Opcode::Fexp2, 3.0f), 8.0f);
  EXPECT_EQ(falu(Opcode::Flog2, 8.0f), 3.0f);
  EXPECT_EQ(falu(Opcode::Fsin, 0.0f), 0.0f);
  EXPECT_EQ(falu(Opcode::Fcos, 0.0f), 1.0f);
  // Default NaN for invalid operations (x86-64 SSE).
  EXPECT_EQ(alu(Opcode::Fsub, fb(Inf), fb(Inf)), 0xFFC00000u);
}

TEST(EmuFloat, Conversions) {
  EXPECT_EQ(alu(Opcode::CvtF32I32, uint32_t(-3)), fb(-3.0f));
  EXPECT_EQ(alu(Opcode::CvtF32U32, 0xFFFFFFFF), fb(4294967296.0f));
  EXPECT_EQ(alu(Opcode::CvtI32F32, fb(QNaN)), 0u);
  EXPECT_EQ(alu(Opcode::CvtI32F32, fb(3e9f)), 0x7FFFFFFFu);
  EXPECT_EQ(alu(Opcode::CvtI32F32, fb(-3e9f)), 0x80000000u);
  EXPECT_EQ(alu(Opcode::CvtI32F32, fb(-2.7f)), uint32_t(-2));
  EXPECT_EQ(alu(Opcode::CvtU32F32, fb(-2.7f)), 0u);
  EXPECT_EQ(alu(Opcode::CvtU32F32, fb(5e9f)), 0xFFFFFFFFu);
  EXPECT_EQ(alu(Opcode::CvtU32F32, fb(3.9f)), 3u);
  EXPECT_EQ(alu(Opcode::CvtF16F32, fb(65536.0f)), 0x7C00u);
  EXPECT_EQ(alu(Opcode::CvtF16F32, fb(1.0f)), 0x3C00u);
  EXPECT_EQ(alu(Opcode::CvtF32F16, 0xABCD3C00), fb(1.0f));
  EXPECT_EQ(alu(Opcode::CvtBf16F32, 0x3F8FFFFF), 0x3F8Fu);
  EXPECT_EQ(alu(Opcode::CvtF32Bf16, 0x12343F80), fb(1.0f));
  uint32_t Hi = 0;
  EXPECT_EQ(alu(Opcode::CvtF64F32, fb(1.5f), 0, 0, &Hi), 0u);
  EXPECT_EQ(Hi, 0x3FF80000u);
}

TEST(EmuFloat, HalfPrecision) {
  // 1.0 + 2.0 in f16: 0x3C00 + 0x4000 = 3.0 (0x4200); high half cleared.
  EXPECT_EQ(alu(Opcode::Hadd, 0xFFFF3C00, 0x4000), 0x4200u);
  EXPECT_EQ(alu(Opcode::Hsub, 0x3C00, 0x4000), 0xBC00u);
  EXPECT_EQ(alu(Opcode::Hmul, 0x7BFF, 0x4000), 0x7C00u); // overflow -> inf
  EXPECT_EQ(alu(Opcode::Hmul, 0x5BFF, 0x5BFF), 0x7BFEu); // 65472.0156 -> RNE
  EXPECT_EQ(alu(Opcode::Hma, 0x4000, 0x4000, 0x3C00), 0x4500u); // 2*2+1 = 5
  EXPECT_EQ(alu(Opcode::Hadd2, 0x40003C00, 0x3C003C00), 0x42004000u);
  EXPECT_EQ(alu(Opcode::Hmul2, 0x40004000, 0x3C004200), 0x40004600u);
  EXPECT_EQ(alu(Opcode::Hma2, 0x40004000, 0x40004000, 0x3C003C00), 0x45004500u);
  // bf16 truncates: 1 + 2^-8 in bf16 is exact 0x3F80 + 0x3B80 -> 0x3F80.
  EXPECT_EQ(alu(Opcode::Badd, 0x3F80, 0x3F80), 0x4000u);
  EXPECT_EQ(alu(Opcode::Bsub, 0x4000, 0x3F80), 0x3F80u);
  EXPECT_EQ(alu(Opcode::Bmul, 0x4040, 0x4040), 0x4110u); // 3*3 = 9
  // 1/3-ish product truncates rather than rounds: 0x3EAB * 0x4040 = 1.0019..
  EXPECT_EQ(alu(Opcode::Bmul, 0x3EAB, 0x4040), 0x3F80u);
  EXPECT_EQ(alu(Opcode::Bma, 0x4000, 0x4000, 0x3F80), 0x40A0u);
  EXPECT_EQ(alu(Opcode::Badd2, 0x40003F80, 0x3F803F80), 0x40404000u);
  EXPECT_EQ(alu(Opcode::Bmul2, 0x40004040, 0x40004040), 0x40804110u);
  EXPECT_EQ(alu(Opcode::Bma2, 0x40004000, 0x40004000, 0x3F803F80), 0x40A040A0u);
}

TEST(EmuFloat, Double) {
  // dadd r4, r1, r2 reads pairs (r1,r2) and (r2,r3): build directly.
  auto D = [](Opcode Op, double A, double B, double Cv = 0) {
    ProgramBuilder P;
    uint64_t BA = std::bit_cast<uint64_t>(A), BB = std::bit_cast<uint64_t>(B),
             BC = std::bit_cast<uint64_t>(Cv);
    P.movImm(10, uint32_t(BA));
    P.movImm(11, uint32_t(BA >> 32));
    P.movImm(12, uint32_t(BB));
    P.movImm(13, uint32_t(BB >> 32));
    P.movImm(14, uint32_t(BC));
    P.movImm(15, uint32_t(BC >> 32));
    P.op(Op, 20, 10, 12, 14);
    P.movImm(30, 0);
    P.op(Opcode::DeviceStoreU64, 0, 30, 20);
    P.halt();
    Result R = run(P, oneLane());
    EXPECT_TRUE(R.Ok) << R.Error;
    uint64_t Bits = uint64_t(R.u32(0)) | uint64_t(R.u32(1)) << 32;
    return std::bit_cast<double>(Bits);
  };
  EXPECT_EQ(D(Opcode::Dadd, 0.1, 0.2), 0.1 + 0.2);
  EXPECT_EQ(D(Opcode::Dsub, 1.0, 0.25), 0.75);
  EXPECT_EQ(D(Opcode::Dmul, 1.5, -2.0), -3.0);
  EXPECT_EQ(D(Opcode::Dma, 2.0, 3.0, 1.0), 7.0);
  EXPECT_EQ(D(Opcode::Ddiv, 1.0, 0.0), std::numeric_limits<double>::infinity());
  EXPECT_EQ(D(Opcode::Ddiv, -1.0, 0.0),
            -std::numeric_limits<double>::infinity());
  EXPECT_TRUE(std::isnan(D(Opcode::Ddiv, 0.0, 0.0)));
  EXPECT_EQ(D(Opcode::Dsqrt, 2.25, 0), 1.5);
  // cvt_f32_f64 rounds to nearest.
  ProgramBuilder P;
  uint64_t B = std::bit_cast<uint64_t>(1e300);
  P.movImm(1, uint32_t(B));
  P.movImm(2, uint32_t(B >> 32));
  P.op(Opcode::CvtF32F64, 3, 1);
  P.movImm(4, 0);
  P.op(Opcode::DeviceStoreU32, 0, 4, 3);
  P.halt();
  Result R = run(P, oneLane());
  ASSERT_TRUE(R.Ok) << R.Error;
  EXPECT_EQ(R.f32(0), Inf);
}

//===----------------------------------------------------------------------===//
// Registers, special registers, memory (formats/isa.md §3, §4.1, §4.12)
//===----------------------------------------------------------------------===//

TEST(EmuState, RegistersBeyondCountReadZero) {
  ProgramBuilder P;
  P.kernel().RegisterCount = 12;
  P.movImm(20, 77); // dropped
  P.op(Opcode::Mov, 1, 20);
  P.movImm(2, 0);
  P.op(Opcode::DeviceStoreU32, 0, 2, 1);
  P.halt();
  Result R = run(P, oneLane());
  ASSERT_TRUE(R.Ok) << R.Error;
  EXPECT_EQ(R.u32(0), 0u);
}

TEST(EmuState, SpecialRegistersAndSetReg) {
  ProgramBuilder P;
  P.movSr(1, 0);                   // tid x
  P.movSr(2, 1);                   // tid y
  P.movSr(3, 15);                  // num waves
  P.movSr(4, 3);                   // wave id
  P.movSr(5, 19);                  // mma k
  P.op(Opcode::Iadd, 6, 7, 0);     // r7 from --set-reg
  P.movSr(8, 4);                   // lane
  P.movSr(9, 14);                  // wave width
  P.op(Opcode::Imad, 10, 4, 9, 8); // linear thread
  P.movImm(11, 24);
  P.op(Opcode::Imul, 10, 10, 11);
  P.movImm(11, 4);
  for (unsigned K = 0; K != 6; ++K) {
    P.op(Opcode::DeviceStoreU32, 0, 10, 1 + K);
    P.op(Opcode::Iadd, 10, 10, 11);
  }
  P.halt();
  EmuConfig C;
  C.WaveWidth = 4;
  C.Workgroup = {3, 2, 1};
  C.SetRegs = {{7, 1000}};
  Result R = run(P, C);
  ASSERT_TRUE(R.Ok) << R.Error;
  // Thread 4 = wave 1 lane 0: x = 1, y = 1.
  EXPECT_EQ(R.u32(4 * 6 + 0), 1u);
  EXPECT_EQ(R.u32(4 * 6 + 1), 1u);
  EXPECT_EQ(R.u32(4 * 6 + 2), 2u);
  EXPECT_EQ(R.u32(4 * 6 + 3), 1u);
  EXPECT_EQ(R.u32(4 * 6 + 4), 4u);
  EXPECT_EQ(R.u32(4 * 6 + 5), 1000u);
  // Thread 6 does not exist (T = 6): nothing stored there.
  EXPECT_EQ(R.u32(6 * 6 + 5), 0u);
  EXPECT_EQ(R.Stats.Waves, 2u);
}

TEST(EmuMemory, WidthsAndLocal128) {
  ProgramBuilder P;
  P.movImm(1, 0x11223344);
  P.movImm(2, 0x55667788);
  P.movImm(3, 0x99AABBCC);
  P.movImm(4, 0xDDEEFF00);
  P.movImm(10, 3);
  P.op(Opcode::LocalStoreU128, 0, 10, 1); // D25: true 16-byte access
  P.op(Opcode::LocalLoadU128, 20, 10);
  P.op(Opcode::LocalLoadU8, 24, 10);
  P.op(Opcode::LocalLoadU16, 25, 10);
  P.op(Opcode::LocalLoadU64, 26, 10);
  P.movImm(11, 0);
  P.op(Opcode::DeviceStoreU128, 0, 11, 20);
  P.movImm(11, 16);
  P.op(Opcode::DeviceStoreU32, 0, 11, 24);
  P.movImm(11, 20);
  P.op(Opcode::DeviceStoreU32, 0, 11, 25);
  P.movImm(11, 24);
  P.op(Opcode::DeviceStoreU64, 0, 11, 26);
  P.movImm(11, 33); // unaligned u16 store
  P.op(Opcode::DeviceStoreU16, 0, 11, 1);
  P.halt();
  Result R = run(P, oneLane());
  ASSERT_TRUE(R.Ok) << R.Error;
  EXPECT_EQ(R.u32(0), 0x11223344u);
  EXPECT_EQ(R.u32(3), 0xDDEEFF00u);
  EXPECT_EQ(R.u32(4), 0x44u);
  EXPECT_EQ(R.u32(5), 0x3344u);
  EXPECT_EQ(R.u32(6), 0x11223344u);
  EXPECT_EQ(R.u32(7), 0x55667788u);
  EXPECT_EQ(R.Mem[33], 0x44);
  EXPECT_EQ(R.Mem[34], 0x33);
  EXPECT_EQ(R.Mem[35], 0x00);
  EXPECT_EQ(R.Stats.LocalLoads, 4u);
  EXPECT_EQ(R.Stats.LocalLoadBytes, 16u + 1 + 2 + 8);
}

TEST(EmuMemory, OutOfBoundsFault) {
  ProgramBuilder P("vadd");
  P.movSr(1, 4);
  P.movImm(2, 4092);
  P.op(Opcode::Iadd, 2, 2, 1);
  P.op(Opcode::DeviceLoadU32, 3, 2);
  P.halt();
  Result R = run(P, lanes(8));
  ASSERT_FALSE(R.Ok);
  EXPECT_EQ(R.Kind, EmuErrorKind::Fault);
  EXPECT_EQ(R.Error,
            "kernel 'vadd': memory access out of bounds at pc 0x0014 "
            "(device_load_u32 r3, r2), workgroup (0,0,0) wave 0 lane 1: "
            "address 0x00000ffd, 4 bytes, device memory is 4096 bytes");
}

TEST(EmuMemory, StoreRaceHighestLaneWins) {
  ProgramBuilder P;
  P.movSr(1, 4);
  P.movImm(2, 0);
  P.op(Opcode::DeviceStoreU32, 0, 2, 1);
  P.halt();
  Result R = run(P, lanes(8));
  ASSERT_TRUE(R.Ok) << R.Error;
  EXPECT_EQ(R.u32(0), 7u);
}

//===----------------------------------------------------------------------===//
// Predication and structured control flow (formats/isa.md §4.4, §4.15, D5-D9)
//===----------------------------------------------------------------------===//

TEST(EmuControl, PredicatedAlu) {
  ProgramBuilder P;
  P.movSr(1, 4);
  P.movImm(2, 2);
  P.op(Opcode::IcmpLt, 1, 1, 2); // p1 = lane < 2
  P.movImm(3, 5);
  P.pred(1, false, Opcode::MovImm, 3); // @p1 mov_imm r3, 0
  P.movImm(4, 9);
  P.pred(0, true, Opcode::Mov, 4, 1); // @!p0 mov r4, r1 (p0 false)
  storePerLane(P, 3);
  storePerLane(P, 4, 64);
  P.halt();
  Result R = run(P, lanes(4));
  ASSERT_TRUE(R.Ok) << R.Error;
  EXPECT_EQ(R.u32(0), 0u);
  EXPECT_EQ(R.u32(1), 0u);
  EXPECT_EQ(R.u32(2), 5u);
  EXPECT_EQ(R.u32(3), 5u);
  for (unsigned L = 0; L != 4; ++L)
    EXPECT_EQ(R.u32(16 + L), L); // @!p0 executes everywhere (p0 = false)
}

TEST(EmuControl, IfElseEndif) {
  ProgramBuilder P;
  P.movSr(1, 4);
  P.movImm(2, 2);
  P.op(Opcode::IcmpLt, 1, 1, 2); // p1 = lane < 2
  P.op(Opcode::If, 0, 1);
  P.movImm(3, 100);
  P.op(Opcode::Else);
  P.movImm(3, 200);
  P.op(Opcode::Endif);
  P.movImm(5, 1);
  P.op(Opcode::Iadd, 3, 3, 5);
  storePerLane(P, 3);
  P.halt();
  Result R = run(P, lanes(4));
  ASSERT_TRUE(R.Ok) << R.Error;
  EXPECT_EQ(R.u32(0), 101u);
  EXPECT_EQ(R.u32(1), 101u);
  EXPECT_EQ(R.u32(2), 201u);
  EXPECT_EQ(R.u32(3), 201u);
  EXPECT_EQ(R.Stats.DivergentBranches, 1u);
}

/// Lane l counts loop iterations until its counter reaches l + 1; lanes that
/// break inside an if must stay off (D6).
TEST(EmuControl, LoopBreakInsideIf) {
  ProgramBuilder P;
  P.movSr(1, 4);
  P.movImm(2, 0); // iterations done
  P.movImm(3, 1);
  P.movImm(4, 0); // extra work after the if (must not run for broken lanes)
  P.op(Opcode::Loop);
  P.op(Opcode::Iadd, 2, 2, 3);
  P.op(Opcode::IcmpGt, 1, 2, 1); // p1 = iter > lane
  P.op(Opcode::If, 0, 1);
  P.op(Opcode::Break, 0, 1);
  P.op(Opcode::Endif);
  P.op(Opcode::Iadd, 4, 4, 3);
  P.op(Opcode::Endloop);
  storePerLane(P, 2);
  storePerLane(P, 4, 64);
  P.halt();
  Result R = run(P, lanes(4));
  ASSERT_TRUE(R.Ok) << R.Error;
  for (unsigned L = 0; L != 4; ++L) {
    EXPECT_EQ(R.u32(L), L + 1) << L;
    EXPECT_EQ(R.u32(16 + L), L) << L;
  }
}

/// D5 default: continue removes the continuing lanes for the rest of the
/// iteration; they come back at endloop. Sum of odd iteration numbers.
TEST(EmuControl, ContinueDefault) {
  ProgramBuilder P;
  P.movImm(1, 0); // i
  P.movImm(2, 0); // sum
  P.movImm(3, 1);
  P.movImm(4, 10);
  P.op(Opcode::Loop);
  P.op(Opcode::Iadd, 1, 1, 3);
  P.op(Opcode::IcmpGt, 1, 1, 4); // p1: i > 10
  P.op(Opcode::Break, 0, 1);
  P.op(Opcode::And, 5, 1, 3);
  P.movImm(6, 0);
  P.op(Opcode::IcmpEq, 2, 5, 6); // p2: even
  P.op(Opcode::If, 0, 2);
  P.op(Opcode::Continue, 0, 2); // inside an if
  P.op(Opcode::Endif);
  P.op(Opcode::Iadd, 2, 2, 1);
  P.op(Opcode::Endloop);
  P.movImm(7, 0);
  P.op(Opcode::DeviceStoreU32, 0, 7, 2);
  P.halt();
  Result R = run(P, oneLane());
  ASSERT_TRUE(R.Ok) << R.Error;
  EXPECT_EQ(R.u32(0), 1u + 3 + 5 + 7 + 9);
}

TEST(EmuControl, UniformContinueTerminates) {
  ProgramBuilder P;
  P.movImm(1, 0);
  P.movImm(3, 1);
  P.movImm(4, 3);
  P.op(Opcode::Loop);
  P.op(Opcode::Iadd, 1, 1, 3);
  P.op(Opcode::IcmpGe, 1, 1, 4);
  P.op(Opcode::Break, 0, 1);
  P.op(Opcode::IcmpEq, 2, 3, 3); // always true
  P.op(Opcode::Continue, 0, 2);
  P.op(Opcode::Endloop);
  storePerLane(P, 1);
  P.halt();
  Result R = run(P, lanes(2));
  ASSERT_TRUE(R.Ok) << R.Error;
  EXPECT_EQ(R.u32(0), 3u);
}

TEST(EmuControl, Nesting32DeepOk33Faults) {
  for (unsigned Depth : {32u, 33u}) {
    ProgramBuilder P;
    P.movImm(1, 1);
    P.op(Opcode::IcmpEq, 1, 1, 1);
    for (unsigned K = 0; K != Depth; ++K)
      P.op(K % 2 ? Opcode::Loop : Opcode::If, 0, 1);
    P.movImm(2, 42);
    for (unsigned K = Depth; K-- != 0;) {
      if (K % 2) {
        P.op(Opcode::Break, 0, 1);
        P.op(Opcode::Endloop);
      } else {
        P.op(Opcode::Endif);
      }
    }
    P.movImm(3, 0);
    P.op(Opcode::DeviceStoreU32, 0, 3, 2);
    P.halt();
    Result R = run(P, lanes(2));
    if (Depth == 32) {
      ASSERT_TRUE(R.Ok) << R.Error;
      EXPECT_EQ(R.u32(0), 42u);
    } else {
      ASSERT_FALSE(R.Ok);
      EXPECT_NE(R.Error.find("control stack overflow"), std::string::npos)
          << R.Error;
    }
  }
}

TEST(EmuControl, ControlFlowErrors) {
  for (Opcode Op : {Opcode::Else, Opcode::Endif, Opcode::Endloop, Opcode::Break,
                    Opcode::Continue}) {
    ProgramBuilder P;
    P.op(Op);
    P.halt();
    Result R = run(P, lanes(2));
    ASSERT_FALSE(R.Ok);
    EXPECT_NE(R.Error.find("control flow error"), std::string::npos) << R.Error;
    EXPECT_NE(R.Error.find("at pc 0x0000"), std::string::npos) << R.Error;
  }
}

/// D8 default: a predicated halt removes lanes for good, even when an
/// enclosing frame is restored later.
TEST(EmuControl, PredicatedHaltInsideLoop) {
  ProgramBuilder P;
  P.movSr(1, 4);
  P.movImm(2, 0);
  P.movImm(3, 1);
  P.movImm(5, 4);
  P.op(Opcode::Loop);
  P.op(Opcode::Iadd, 2, 2, 3);
  storePerLane(P, 2);
  P.op(Opcode::IcmpGt, 1, 2, 1); // p1: iter > lane
  P.op(Opcode::IcmpEq, 2, 1, 3); // p2: lane == 1
  P.op(Opcode::And, 0, 0, 0);
  P.pred(2, false, Opcode::Halt); // lane 1 stops here, in iteration 1
  P.op(Opcode::IcmpGe, 3, 2, 5);
  P.op(Opcode::Break, 0, 3);
  P.op(Opcode::Endloop);
  P.halt();
  Result R = run(P, lanes(4));
  ASSERT_TRUE(R.Ok) << R.Error;
  EXPECT_EQ(R.u32(0), 4u);
  EXPECT_EQ(R.u32(1), 1u); // halted in its first iteration
  EXPECT_EQ(R.u32(2), 4u);
  EXPECT_EQ(R.u32(3), 4u);
}

/// D9 default: `@p2 if p1` is `if (p1 && p2)`, and the mask stays reduced.
TEST(EmuControl, PredicatedIf) {
  ProgramBuilder P;
  P.movSr(1, 4);
  P.movImm(2, 2);
  P.op(Opcode::IcmpLt, 1, 1, 2); // p1: lane < 2
  P.movImm(2, 1);
  P.op(Opcode::IcmpEq, 2, 1, 2); // p2: lane == 1
  P.movImm(3, 0);
  P.pred(2, false, Opcode::If, 0, 1);
  P.movImm(3, 7);
  P.op(Opcode::Endif);
  storePerLane(P, 3);
  P.halt();
  Result R = run(P, lanes(4));
  ASSERT_TRUE(R.Ok) << R.Error;
  EXPECT_EQ(R.u32(0), 0u);
  EXPECT_EQ(R.u32(1), 7u);
  EXPECT_EQ(R.u32(2), 0u);
  EXPECT_EQ(R.u32(3), 0u);
}

TEST(EmuControl, CallAndReturn) {
  ProgramBuilder P;
  P.movImm(1, 5);
  uint32_t CallAt = P.call(0);
  P.movImm(3, 0);
  P.op(Opcode::DeviceStoreU32, 0, 3, 1);
  P.halt();
  P.patchCall(CallAt, P.here());
  P.op(Opcode::Iadd, 1, 1, 1); // function: r1 *= 2
  P.op(Opcode::Return);
  Result R = run(P, lanes(2));
  ASSERT_TRUE(R.Ok) << R.Error;
  EXPECT_EQ(R.u32(0), 10u);
}

TEST(EmuControl, CallFaults) {
  {
    ProgramBuilder P; // recursion: the 9th call overflows
    P.call(0);
    P.halt();
    Result R = run(P, lanes(1));
    ASSERT_FALSE(R.Ok);
    EXPECT_NE(R.Error.find("call stack overflow"), std::string::npos)
        << R.Error;
  }
  {
    ProgramBuilder P;
    P.call(6); // middle of the call itself
    P.halt();
    Result R = run(P, lanes(1));
    ASSERT_FALSE(R.Ok);
    EXPECT_NE(R.Error.find("not an instruction boundary"), std::string::npos)
        << R.Error;
  }
  {
    ProgramBuilder P; // predicated call with no qualifying lane: skipped
    P.pred(1, false, Opcode::Call);
    P.patchCall(0, 0);
    P.halt();
    Result R = run(P, lanes(2));
    EXPECT_TRUE(R.Ok) << R.Error;
  }
}

TEST(EmuControl, RunPastEndOfKernel) {
  ProgramBuilder P("noend");
  P.movImm(1, 1);
  Result R = run(P, lanes(2));
  ASSERT_FALSE(R.Ok);
  EXPECT_NE(R.Error.find("ran past the end of kernel 'noend'"),
            std::string::npos)
      << R.Error;
}

TEST(EmuControl, InvalidInstructionFaultsWhenReached) {
  ProgramBuilder P;
  P.halt();
  P.Code.insert(P.Code.end(), {0, 0, 0, 0x42}); // opcode 0x42
  Result R = run(P, lanes(2));
  EXPECT_TRUE(R.Ok) << R.Error; // never executed
  ProgramBuilder Q;
  Q.Code.insert(Q.Code.end(), {0, 0, 0, 0x42});
  R = run(Q, lanes(2));
  ASSERT_FALSE(R.Ok);
  EXPECT_NE(R.Error.find("invalid instruction at pc 0x0000"), std::string::npos)
      << R.Error;
  EXPECT_NE(R.Error.find("invalid opcode 0x42"), std::string::npos) << R.Error;
}

TEST(EmuControl, InstructionLimit) {
  ProgramBuilder P;
  P.op(Opcode::Loop);
  P.op(Opcode::Endloop);
  P.halt();
  EmuConfig C = lanes(2);
  C.MaxInstructions = 100;
  Result R = run(P, C);
  ASSERT_FALSE(R.Ok);
  EXPECT_EQ(R.Kind, EmuErrorKind::Limit);
  EXPECT_EQ(R.Error, "instruction limit exceeded: 101 instructions (limit: "
                     "100) at PC 0x00000004 in kernel 'k', workgroup (0,0,0)");
}

//===----------------------------------------------------------------------===//
// Lockstep steps: one step for every wave at one instruction (formats/isa.md
// §4.3)
//===----------------------------------------------------------------------===//

std::string statsText(const EmuStats &S) {
  std::string T;
  llvm::raw_string_ostream OS(T);
  S.print(OS);
  return T;
}

// Every register-to-register instruction (one, two or three sources, and
// the compares) on random words, 4 full waves of 8 lanes in 2 workgroups:
// lockstep steps give the same memory and statistics as one wave at a time.
TEST(EmuLockstep, EveryRegisterOpMatchesOneWaveAtATime) {
  std::vector<Opcode> Ops;
  for (unsigned O = 0; O != NumOpcodes; ++O) {
    const InstDesc &D = getInstDesc(Opcode(O));
    if ((D.Class == InstClass::Integer || D.Class == InstClass::Float) &&
        (D.InstForm == Form::R_R || D.InstForm == Form::R_RR ||
         D.InstForm == Form::R_RRR || D.InstForm == Form::P_RR))
      Ops.push_back(Opcode(O));
  }
  ASSERT_GT(Ops.size(), 90u);
  // r1..r3 = the three input words of thread (group, tid); each result goes
  // to Out + 4 * (64 * op + 32 * group + tid).
  constexpr uint32_t Out = 1024;
  ProgramBuilder P;
  P.movSr(10, 0); // tid
  P.movSr(11, 5); // group
  P.movImm(12, 32);
  P.op(Opcode::Imad, 10, 11, 12, 10); // 32 * group + tid
  P.movImm(12, 12);
  P.op(Opcode::Imul, 13, 10, 12); // input: 12 bytes per thread
  P.op(Opcode::DeviceLoadU32, 1, 13);
  P.movImm(12, 4);
  P.op(Opcode::Iadd, 13, 13, 12);
  P.op(Opcode::DeviceLoadU32, 2, 13);
  P.op(Opcode::Iadd, 13, 13, 12);
  P.op(Opcode::DeviceLoadU32, 3, 13);
  P.movImm(14, Out);
  P.op(Opcode::Imad, 20, 10, 12, 14); // Out + 4 * thread
  P.movImm(21, 4 * 64);
  P.movImm(30, 1);
  P.movImm(31, 0);
  for (Opcode Op : Ops) {
    if (getInstDesc(Op).InstForm == Form::P_RR) {
      P.op(Op, 1, 1, 2); // p1
      P.op(Opcode::Select, 4, 1, 30, 31);
    } else {
      P.op(Op, 4, 1, 2, 3);
    }
    P.op(Opcode::DeviceStoreU32, 0, 20, 4);
    P.op(Opcode::Iadd, 20, 20, 21);
  }
  P.halt();
  EmuConfig C = lanes(32, 8);
  C.Grid = {2, 1, 1};
  C.DeviceMemory = Out + 4 * 64 * Ops.size();
  std::vector<uint8_t> Init(C.DeviceMemory);
  uint64_t X = 0x9E3779B97F4A7C15ull;
  for (uint8_t &B : Init) {
    X ^= X << 13;
    X ^= X >> 7;
    X ^= X << 17;
    B = uint8_t(X);
  }
  Result Seq = runInit(P, C, Init, /*OneWaveAtATime=*/true);
  Result Lock = runInit(P, C, Init, /*OneWaveAtATime=*/false);
  ASSERT_TRUE(Seq.Ok) << Seq.Error;
  ASSERT_TRUE(Lock.Ok) << Lock.Error;
  EXPECT_EQ(statsText(Lock.Stats), statsText(Seq.Stats));
  for (size_t K = 0; K != Ops.size(); ++K)
    for (unsigned T = 0; T != 64; ++T) {
      unsigned I = Out / 4 + 64 * unsigned(K) + T;
      ASSERT_EQ(Lock.u32(I), Seq.u32(I))
          << getInstDesc(Ops[K]).Mnemonic << ", thread " << T;
    }
  // One value by hand, so that the comparison is not of two wrong runs.
  size_t Iadd = std::find(Ops.begin(), Ops.end(), Opcode::Iadd) - Ops.begin();
  uint32_t A, B;
  std::memcpy(&A, Init.data() + 12 * 37, 4);
  std::memcpy(&B, Init.data() + 12 * 37 + 4, 4);
  EXPECT_EQ(Lock.u32(Out / 4 + 64 * unsigned(Iadd) + 37), A + B);
}

// A fault in the third of four waves at a lockstep load: the waves before it
// have loaded, and the fault, the statistics and memory are those of one
// wave at a time.
TEST(EmuLockstep, FaultNamesTheWaveAndCountsItsSteps) {
  ProgramBuilder P("vadd");
  P.movSr(1, 0); // tid
  P.movImm(2, 4);
  P.op(Opcode::Imul, 3, 1, 2);
  P.movImm(4, 4012); // thread 21 (wave 2, lane 5) reads 4096..4099
  P.op(Opcode::Iadd, 3, 3, 4);
  P.op(Opcode::DeviceLoadU32, 5, 3);
  P.halt();
  EmuConfig C = lanes(32, 8);
  C.DeviceMemory = 4096;
  std::vector<uint8_t> Init(4096, 0);
  Result Seq = runInit(P, C, Init, true);
  Result Lock = runInit(P, C, Init, false);
  ASSERT_FALSE(Lock.Ok);
  EXPECT_EQ(Lock.Kind, EmuErrorKind::Fault);
  EXPECT_NE(Lock.Error.find("wave 2 lane 5: address 0x00001000, 4 bytes"),
            std::string::npos)
      << Lock.Error;
  EXPECT_EQ(Lock.Error, Seq.Error);
  // 5 instructions for each of 4 waves, then the load of waves 0, 1, 2.
  EXPECT_EQ(Lock.Stats.Instructions, 5u * 4 + 3);
  EXPECT_EQ(Lock.Stats.DeviceLoads, 3u * 8);
  EXPECT_EQ(statsText(Lock.Stats), statsText(Seq.Stats));
}

// The instruction limit in the middle of a round of lockstep steps: step 11
// is the third instruction (PC 16) of wave 2.
TEST(EmuLockstep, InstructionLimitMidRound) {
  ProgramBuilder P;
  for (unsigned I = 0; I != 8; ++I)
    P.op(Opcode::Iadd, 1, 1, 1); // 8 bytes each
  P.halt();
  EmuConfig C = lanes(32, 8);
  C.MaxInstructions = 10;
  std::vector<uint8_t> Init;
  Result Lock = runInit(P, C, Init, false);
  ASSERT_FALSE(Lock.Ok);
  EXPECT_EQ(Lock.Kind, EmuErrorKind::Limit);
  EXPECT_EQ(Lock.Error, "instruction limit exceeded: 11 instructions (limit: "
                        "10) at PC 0x00000010 in kernel 'k', workgroup "
                        "(0,0,0)");
}

// Whole-wave loads of every width with addresses that are one broadcast
// address, consecutive elements (also into the address register itself)
// and neighbours swapped, against little-endian reads of the input.
TEST(EmuLockstep, WholeWaveLoadPatterns) {
  constexpr uint32_t In = 64, Out = 2048;
  std::vector<uint8_t> Init(4096);
  for (size_t I = 0; I != Init.size(); ++I)
    Init[I] = uint8_t(I * 37 + 11);
  const Opcode Loads[] = {Opcode::DeviceLoadU8, Opcode::DeviceLoadU16,
                          Opcode::DeviceLoadU32, Opcode::DeviceLoadU64,
                          Opcode::DeviceLoadU128};
  for (unsigned Log = 0; Log != 5; ++Log) {
    unsigned N = 1u << Log, NR = N < 4 ? 1 : N / 4;
    for (unsigned Pattern = 0; Pattern != 4; ++Pattern) {
      SCOPED_TRACE("width " + std::to_string(N) + ", pattern " +
                   std::to_string(Pattern));
      // r1 = tid; r2 = element index; r20 = In + N * r2; r8.. (or r20..,
      // the address register) = loaded; r30 = where thread stores them.
      ProgramBuilder P;
      P.movSr(1, 0);
      P.movImm(24, 1);
      P.op(Opcode::Xor, 2, 1, 24); // tid ^ 1
      if (Pattern == 0)
        P.movImm(2, 5);
      else if (Pattern != 3)
        P.op(Opcode::Mov, 2, 1);
      P.movImm(24, N);
      P.movImm(25, In);
      P.op(Opcode::Imad, 20, 2, 24, 25);
      unsigned Dst = Pattern == 2 ? 20 : 8;
      P.op(Loads[Log], Dst, 20);
      P.movImm(26, 16);
      P.movImm(27, Out);
      P.op(Opcode::Imad, 30, 1, 26, 27); // Out + 16 * tid
      P.movImm(28, 4);
      for (unsigned K = 0; K != NR; ++K) {
        P.op(Opcode::DeviceStoreU32, 0, 30, Dst + K);
        P.op(Opcode::Iadd, 30, 30, 28);
      }
      P.halt();
      Result R = runInit(P, lanes(32, 16), Init, false);
      ASSERT_TRUE(R.Ok) << R.Error;
      for (uint32_t T = 0; T != 32; ++T) {
        uint32_t Elem = Pattern == 0 ? 5 : Pattern == 3 ? T ^ 1 : T;
        uint32_t Addr = In + N * Elem;
        for (unsigned K = 0; K != NR; ++K) {
          uint32_t Want = 0;
          for (unsigned B = 0; B != std::min(N, 4u); ++B)
            Want |= uint32_t(Init[Addr + 4 * K + B]) << (8 * B);
          ASSERT_EQ(R.u32(Out / 4 + 4 * T + K), Want)
              << "thread " << T << ", word " << K;
        }
      }
    }
  }
}

// Racing stores in a lockstep step: the last wave's highest lane wins, as
// in the one-wave-at-a-time order (formats/isa.md §4.3).
TEST(EmuLockstep, StoreRaceLastWaveWins) {
  ProgramBuilder P;
  P.movSr(1, 0); // tid
  P.movImm(2, 0);
  P.op(Opcode::DeviceStoreU32, 0, 2, 1);
  P.halt();
  Result R = run(P, lanes(32, 8));
  ASSERT_TRUE(R.Ok) << R.Error;
  EXPECT_EQ(R.u32(0), 31u);
}

//===----------------------------------------------------------------------===//
// Barriers, scheduling, atomics (formats/isa.md §4.3, §4.13, §4.17)
//===----------------------------------------------------------------------===//

TEST(EmuSync, BarrierAcrossWaves) {
  // Each thread writes its id to local[4*tid], barrier, then reads the
  // value of thread (tid + 1) % T, which lives in another wave for lane 3.
  ProgramBuilder P;
  P.movSr(1, 0);
  P.movImm(2, 4);
  P.op(Opcode::Imul, 3, 1, 2);
  P.movImm(4, 100);
  P.op(Opcode::Iadd, 5, 1, 4);
  P.op(Opcode::LocalStoreU32, 0, 3, 5);
  P.op(Opcode::Barrier);
  P.movImm(6, 1);
  P.op(Opcode::Iadd, 7, 1, 6);
  P.movImm(8, 16);
  P.op(Opcode::Imod, 7, 7, 8);
  P.op(Opcode::Imul, 7, 7, 2);
  P.op(Opcode::LocalLoadU32, 9, 7);
  P.op(Opcode::DeviceStoreU32, 0, 3, 9);
  P.halt();
  EmuConfig C = lanes(16, 4);
  C.Grid = {2, 1, 1};
  Result R = run(P, C);
  ASSERT_TRUE(R.Ok) << R.Error;
  for (unsigned T = 0; T != 16; ++T)
    EXPECT_EQ(R.u32(T), 100 + (T + 1) % 16) << T;
  EXPECT_EQ(R.Stats.Barriers, 2u);
  EXPECT_EQ(R.Stats.Workgroups, 2u);
  EXPECT_EQ(R.Stats.Waves, 8u);
}

TEST(EmuSync, DeadlockNamesWaves) {
  ProgramBuilder P;
  P.movSr(1, 3);
  P.movImm(2, 0);
  P.op(Opcode::IcmpEq, 1, 1, 2);
  P.pred(1, false, Opcode::Halt); // wave 0 halts
  P.op(Opcode::Barrier);
  P.halt();
  Result R = run(P, lanes(4, 2));
  ASSERT_FALSE(R.Ok);
  EXPECT_EQ(R.Error, "kernel 'k': deadlock detected: workgroup (0,0,0) "
                     "deadlocked - waves waiting at different barriers "
                     "(wave 0 halted, wave 1 at barrier pc 0x0018)");
}

TEST(EmuSync, AtomicsOrderedByWaveThenLane) {
  // Every thread does atomic_add(counter, 1) and stores the returned value;
  // round-robin + ascending lanes give wave 0 lanes 0..3, then wave 1 ...
  ProgramBuilder P;
  P.movImm(1, 1024);
  P.movImm(2, 1);
  P.op(Opcode::AtomicAdd, 3, 1, 2);
  P.movSr(4, 0);
  P.movImm(5, 4);
  P.op(Opcode::Imul, 4, 4, 5);
  P.op(Opcode::DeviceStoreU32, 0, 4, 3);
  P.op(Opcode::LocalAtomicMax, 0, 2, 4); // non-returning, rd = 0
  P.halt();
  Result R = run(P, lanes(8, 4));
  ASSERT_TRUE(R.Ok) << R.Error;
  for (unsigned T = 0; T != 8; ++T)
    EXPECT_EQ(R.u32(T), T);
  EXPECT_EQ(R.u32(256), 8u);
  EXPECT_EQ(R.Stats.AtomicOps, 4u); // 2 instructions x 2 waves
  EXPECT_EQ(R.Stats.AtomicLaneOps, 16u);
}

// An atomic lane out of bounds faults after the lanes before it completed
// (formats/isa.md §4.3: ascending lanes), and names the address that lane had,
// even when the old values go to the address register itself.
TEST(EmuSync, AtomicOutOfBoundsAfterEarlierLanes) {
  for (unsigned Rd : {0u, 2u}) {
    SCOPED_TRACE("rd = r" + std::to_string(Rd));
    ProgramBuilder P("hist");
    P.movSr(1, 4); // lane
    P.movImm(4, 4);
    P.op(Opcode::Imul, 1, 1, 4);
    P.movImm(2, 4088);
    P.op(Opcode::Iadd, 2, 2, 1); // 4088 + 4 * lane: lane 2 is at 4096
    P.movImm(3, 5);
    P.op(Opcode::AtomicAdd, Rd, 2, 3);
    P.halt();
    std::vector<uint8_t> Init(4096, 0);
    Init[4088] = 10;
    Init[4092] = 20;
    EmuConfig C = lanes(8);
    C.DeviceMemory = 4096;
    Result R = runInit(P, C, Init, false);
    ASSERT_FALSE(R.Ok);
    EXPECT_EQ(R.Kind, EmuErrorKind::Fault);
    EXPECT_NE(R.Error.find("wave 0 lane 2: address 0x00001000, 4 bytes, "
                           "device memory is 4096 bytes"),
              std::string::npos)
        << R.Error;
    EXPECT_EQ(R.u32(4088 / 4), 15u);
    EXPECT_EQ(R.u32(4092 / 4), 25u);
  }
}

TEST(EmuSync, AtomicKindsAndCas) {
  auto At = [](Opcode Op, uint32_t Mem, uint32_t V, uint32_t Cv,
               uint32_t &Old) {
    ProgramBuilder P;
    P.movImm(1, 0);
    P.movImm(2, Mem);
    P.op(Opcode::DeviceStoreU32, 0, 1, 2);
    P.movImm(3, V);
    P.movImm(4, Cv);
    P.op(Op, 5, 1, 3, 4);
    P.movImm(6, 4);
    P.op(Opcode::DeviceStoreU32, 0, 6, 5);
    P.halt();
    Result R = run(P, oneLane());
    EXPECT_TRUE(R.Ok) << R.Error;
    Old = R.u32(1);
    return R.u32(0);
  };
  uint32_t Old;
  EXPECT_EQ(At(Opcode::AtomicSub, 5, 7, 0, Old), uint32_t(-2));
  EXPECT_EQ(Old, 5u);
  EXPECT_EQ(At(Opcode::AtomicMin, 5, 0xFFFFFFFF, 0, Old), 5u);
  EXPECT_EQ(At(Opcode::AtomicMax, 5, 0xFFFFFFFF, 0, Old), 0xFFFFFFFFu);
  EXPECT_EQ(At(Opcode::AtomicAnd, 6, 3, 0, Old), 2u);
  EXPECT_EQ(At(Opcode::AtomicOr, 6, 3, 0, Old), 7u);
  EXPECT_EQ(At(Opcode::AtomicXor, 6, 3, 0, Old), 5u);
  EXPECT_EQ(At(Opcode::AtomicXchg, 6, 3, 0, Old), 3u);
  // D3 default: if mem == R[rs2] then mem = R[rs3]; returns old.
  EXPECT_EQ(At(Opcode::AtomicCas, 5, 5, 9, Old), 9u);
  EXPECT_EQ(Old, 5u);
  EXPECT_EQ(At(Opcode::AtomicCas, 5, 4, 9, Old), 5u);
  // Local memory is separate (and zero): the local CAS succeeds, returns 0.
  EXPECT_EQ(At(Opcode::LocalAtomicCas, 7, 0, 9, Old), 7u);
  EXPECT_EQ(Old, 0u);
}

//===----------------------------------------------------------------------===//
// Wave operations (formats/isa.md §4.14)
//===----------------------------------------------------------------------===//

TEST(EmuWave, ShufflesAndReductions) {
  ProgramBuilder P;
  P.movSr(1, 4); // lane
  P.movImm(2, 10);
  P.op(Opcode::Imul, 3, 1, 2); // v = 10 * lane
  P.movImm(4, 1);
  P.op(Opcode::WaveShuffleDown, 5, 3, 4);
  P.op(Opcode::WaveShuffleUp, 6, 3, 4);
  P.op(Opcode::WaveShuffleXor, 7, 3, 4);
  P.movImm(8, 2);
  P.op(Opcode::WaveBroadcast, 9, 3, 8);
  P.op(Opcode::WavePrefixSum, 10, 3);
  P.op(Opcode::WaveReduceAdd, 11, 3);
  P.op(Opcode::WaveReduceMin, 12, 3);
  P.op(Opcode::WaveReduceMax, 13, 3);
  P.movImm(14, 0xFFFFFFFF);
  P.op(Opcode::WaveShuffleDown, 15, 3, 14); // D26: reads lane - 1
  const unsigned Regs[] = {5, 6, 7, 9, 10, 11, 12, 13, 15};
  for (unsigned K = 0; K != 9; ++K)
    storePerLane(P, Regs[K], 16 * K);
  P.halt();
  Result R = run(P, lanes(4));
  ASSERT_TRUE(R.Ok) << R.Error;
  uint32_t Down[] = {10, 20, 30, 0}, Up[] = {0, 0, 10, 20},
           Xor[] = {10, 0, 30, 20}, Pre[] = {0, 0, 10, 30},
           D26[] = {0, 0, 10, 20};
  for (unsigned L = 0; L != 4; ++L) {
    EXPECT_EQ(R.u32(L), Down[L]);
    EXPECT_EQ(R.u32(4 + L), Up[L]);
    EXPECT_EQ(R.u32(8 + L), Xor[L]);
    EXPECT_EQ(R.u32(12 + L), 20u);
    EXPECT_EQ(R.u32(16 + L), Pre[L]);
    EXPECT_EQ(R.u32(20 + L), 60u);
    EXPECT_EQ(R.u32(24 + L), 0u);
    EXPECT_EQ(R.u32(28 + L), 30u);
    EXPECT_EQ(R.u32(32 + L), D26[L]);
  }
}

TEST(EmuWave, UnderDivergence) {
  // Only odd lanes active: they reduce over odd lanes only; even lanes keep
  // their registers; a shuffle may read an inactive lane's value.
  ProgramBuilder P;
  P.movSr(1, 4);
  P.movImm(2, 1);
  P.op(Opcode::And, 3, 1, 2);
  P.op(Opcode::IcmpEq, 1, 3, 2); // p1: odd lane
  P.movImm(4, 999);
  P.movImm(5, 999);
  P.movImm(6, 999);
  P.movImm(7, 999);
  P.op(Opcode::If, 0, 1);
  P.op(Opcode::WaveReduceAdd, 4, 1); // 1 + 3 + 5 + 7
  P.op(Opcode::WavePrefixSum, 5, 1);
  P.op(Opcode::WaveShuffleXor, 6, 1, 2); // reads even (inactive) lanes
  P.op(Opcode::WaveBallot, 7, 1);
  P.op(Opcode::WaveAll, 2, 1);
  P.op(Opcode::Endif);
  P.movImm(8, 0);
  P.movImm(9, 1);
  P.op(Opcode::Select, 8, 2, 9, 8);
  storePerLane(P, 4);
  storePerLane(P, 5, 32);
  storePerLane(P, 6, 64);
  storePerLane(P, 7, 96);
  storePerLane(P, 8, 128);
  P.halt();
  Result R = run(P, lanes(8));
  ASSERT_TRUE(R.Ok) << R.Error;
  for (unsigned L = 0; L != 8; ++L) {
    bool Odd = L & 1;
    EXPECT_EQ(R.u32(L), Odd ? 16u : 999u) << L;
    const uint32_t Prefix[] = {999, 0, 999, 1, 999, 4, 999, 9};
    EXPECT_EQ(R.u32(8 + L), Prefix[L]) << L; // exclusive sum of odd lanes
    EXPECT_EQ(R.u32(16 + L), Odd ? L - 1 : 999u) << L;
    EXPECT_EQ(R.u32(24 + L), Odd ? 0xAAu : 999u) << L;
    EXPECT_EQ(R.u32(32 + L), Odd ? 1u : 0u) << L;
  }
}

//===----------------------------------------------------------------------===//
// MMA (formats/isa.md §4.18)
//===----------------------------------------------------------------------===//

TEST(EmuMma, LoadComputeStore) {
  // A = [[1,2,3,4],...] row i = i*4 + k + 1; B = identity * 2; C = A * B.
  ProgramBuilder P;
  P.movImm(1, 0);  // A at local 0
  P.movImm(2, 64); // B at local 64
  P.movImm(3, 16); // stride
  P.movImm(4, 4);
  P.movImm(5, 0); // i
  P.movImm(6, fb(1.0f));
  P.movImm(7, fb(1.0f));
  P.movImm(8, fb(2.0f));
  P.movImm(9, 0); // addr
  // Fill A with 1..16 by a loop.
  P.movImm(10, 16);
  P.movImm(11, 1);
  P.op(Opcode::Loop);
  P.op(Opcode::LocalStoreU32, 0, 9, 6);
  P.op(Opcode::Fadd, 6, 6, 7);
  P.op(Opcode::Iadd, 9, 9, 4);
  P.op(Opcode::Iadd, 5, 5, 11);
  P.op(Opcode::IcmpGe, 1, 5, 10);
  P.op(Opcode::Break, 0, 1);
  P.op(Opcode::Endloop);
  // B diagonal: offsets 64 + 20k.
  for (unsigned K = 0; K != 4; ++K) {
    P.movImm(12, 64 + 20 * K);
    P.op(Opcode::LocalStoreU32, 0, 12, 8);
  }
  P.op(Opcode::MmaLoadA, 0, 1, 3);
  P.op(Opcode::MmaLoadB, 1, 2, 3);
  P.op(Opcode::MmaCompute, 0, 1, 2);
  P.op(Opcode::MmaCompute, 0, 1, 2); // accumulate twice: C = 2 * A * B
  P.movImm(13, 128);
  P.op(Opcode::MmaStoreC, 13, 3, 2);
  P.op(Opcode::MmaStoreC, 1, 3, 7); // fragment 7 never computed: zeros to A
  // Copy local 128..191 and 0..15 to device.
  P.movImm(14, 0);
  for (unsigned K = 0; K != 16; ++K) {
    P.movImm(15, 128 + 4 * K);
    P.op(Opcode::LocalLoadU32, 16, 15);
    P.movImm(17, 4 * K);
    P.op(Opcode::DeviceStoreU32, 0, 17, 16);
  }
  P.op(Opcode::LocalLoadU32, 16, 14);
  P.movImm(17, 64);
  P.op(Opcode::DeviceStoreU32, 0, 17, 16);
  P.halt();
  Result R = run(P, oneLane());
  ASSERT_TRUE(R.Ok) << R.Error;
  for (unsigned K = 0; K != 16; ++K)
    EXPECT_EQ(R.f32(K), 4.0f * float(K + 1)) << K;
  EXPECT_EQ(R.u32(16), 0u);
}

//===----------------------------------------------------------------------===//
// The driver (formats/isa.md §7.2)
//===----------------------------------------------------------------------===//

TEST(EmuDriver, FillsDumpsAndStats) {
  ProgramBuilder P("fill");
  P.movSr(1, 4);
  P.movImm(2, 4);
  P.op(Opcode::Imul, 3, 1, 2);
  P.op(Opcode::DeviceLoadU32, 4, 3);
  P.op(Opcode::Fadd, 4, 4, 4);
  P.op(Opcode::DeviceStoreU32, 0, 3, 4);
  P.halt();
  WbinFile F = P.build();
  RunOptions O;
  O.Config.Workgroup = {4, 1, 1};
  O.FillIota.push_back({0, "f32", 4, 0.5f});
  O.FillZero.push_back({4, "f32", 1});
  O.DumpF32 = {{0, 4}};
  O.DumpU32 = {{0, 1}};
  O.Stats = true;
  std::string Out, Err;
  llvm::raw_string_ostream OS(Out), ES(Err);
  llvm::Error E = runProgram(F, O, OS, ES);
  ASSERT_FALSE(static_cast<bool>(E));
  EXPECT_EQ(Out.substr(0, Out.find("Execution")), "0\n0.0\n1.0\n2.0\n3.0\n");
  EXPECT_NE(Out.find("  Instructions executed: 7\n"), std::string::npos);
  EXPECT_NE(Out.find("    Loads:  4 (16 bytes)\n"), std::string::npos);
}

// With a KernelExecutor the run is the executor's (wave-run --device=hsa):
// it sees the memory after every fill and the registers of --set-reg, and
// what it leaves in memory is what the dumps print; the emulator never
// runs (its kernel would store 1.0 where the executor writes 7).
TEST(EmuDriver, ExecutorReplacesTheRun) {
  ProgramBuilder P("k");
  P.movImm(1, 0x3F800000);
  P.op(Opcode::DeviceStoreU32, 0, 0, 1);
  P.halt();
  WbinFile F = P.build();
  RunOptions O;
  O.Config.Workgroup = {4, 1, 1};
  O.Config.Grid = {2, 1, 1};
  O.Config.SetRegs = {{0, 8}, {2, 5}};
  O.FillIota.push_back({0, "f32", 4, 1.0f});
  O.DumpU32 = {{8, 2}};
  std::string Out, Err;
  llvm::raw_string_ostream OS(Out), ES(Err);
  unsigned Calls = 0;
  auto Executor = [&](const WbinFile &File, unsigned K, const EmuConfig &Cfg,
                      llvm::MutableArrayRef<uint8_t> Mem) -> llvm::Error {
    ++Calls;
    EXPECT_EQ(&File, &F);
    EXPECT_EQ(K, 0u);
    EXPECT_EQ(Cfg.Grid, (std::array<uint32_t, 3>{2, 1, 1}));
    EXPECT_EQ(Cfg.SetRegs.size(), 2u);
    EXPECT_EQ(Mem.size(), O.Config.DeviceMemory);
    uint32_t V;
    std::memcpy(&V, Mem.data() + 8, 4); // iota: 2.0f
    EXPECT_EQ(V, 0x40000000u);
    V = 7;
    std::memcpy(Mem.data() + 8, &V, 4);
    return llvm::Error::success();
  };
  llvm::Error E = runProgram(F, O, OS, ES, nullptr, Executor);
  ASSERT_FALSE(static_cast<bool>(E)) << llvm::toString(std::move(E));
  EXPECT_EQ(Calls, 1u);
  EXPECT_EQ(Out, "7\n1077936128\n"); // 7, then iota's 3.0f
  // The emulator's own diagnostics are not available with an executor.
  O.Stats = true;
  E = runProgram(F, O, OS, ES, nullptr, Executor);
  ASSERT_TRUE(static_cast<bool>(E));
  EXPECT_EQ(llvm::toString(std::move(E)),
            "--stats needs the emulator (--device=emu)");
}

TEST(EmuDriver, KernelSelection) {
  ProgramBuilder P("first");
  P.halt();
  WbinFile F = P.build();
  KernelInfo Second = F.Kernels[0];
  Second.Name = "second";
  F.Kernels.push_back(Second);
  EXPECT_EQ(*resolveKernel(F, "second"), 1u);
  EXPECT_EQ(*resolveKernel(F, "0x1"), 1u);
  llvm::Expected<unsigned> Bad = resolveKernel(F, "third");
  EXPECT_FALSE(static_cast<bool>(Bad));
  EXPECT_NE(llvm::toString(Bad.takeError()).find("no kernel named 'third'"),
            std::string::npos);
  llvm::Expected<unsigned> Far = resolveKernel(F, "2");
  EXPECT_FALSE(static_cast<bool>(Far));
  llvm::consumeError(Far.takeError());
}

TEST(EmuDriver, RejectsBadWaveWidth) {
  ProgramBuilder P;
  P.halt();
  WbinFile F = P.build();
  for (unsigned W : {0u, 65u}) {
    EmuConfig C;
    C.WaveWidth = W;
    auto E = Emulator::create(F, C);
    EXPECT_FALSE(static_cast<bool>(E));
    llvm::consumeError(E.takeError());
  }
}

TEST(EmuDriver, WriteDeviceBounds) {
  ProgramBuilder P;
  P.halt();
  WbinFile F = P.build();
  EmuConfig C;
  C.DeviceMemory = 16;
  auto E = Emulator::create(F, C);
  ASSERT_TRUE(static_cast<bool>(E));
  const uint8_t Bytes[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  EXPECT_FALSE(static_cast<bool>((*E)->writeDevice(8, Bytes)));
  llvm::Error Err = (*E)->writeDevice(12, Bytes);
  ASSERT_TRUE(static_cast<bool>(Err));
  EXPECT_NE(llvm::toString(std::move(Err)).find("0x0000000000000010"),
            std::string::npos);
  EXPECT_EQ((*E)->deviceMemory()[15], 8);
  // Limits on hostile metadata are errors, not allocations.
  F.Kernels[0].LocalMemorySize = 0xFFFFFFFF;
  auto Big = Emulator::create(F, C);
  EXPECT_FALSE(static_cast<bool>(Big));
  llvm::consumeError(Big.takeError());
  F.Kernels[0].LocalMemorySize = 0;
  F.Kernels[0].WorkgroupSize = {1024, 1024, 1};
  auto Wide = Emulator::create(F, C);
  EXPECT_FALSE(static_cast<bool>(Wide));
  llvm::consumeError(Wide.takeError());
}

TEST(EmuDriver, NoKernelTableRunsWholeCode) {
  // formats/isa.md §4.2: a file without kernel entries runs from code offset 0.
  ProgramBuilder P;
  P.movImm(1, 5);
  P.movImm(2, 0);
  P.op(Opcode::DeviceStoreU32, 0, 2, 1);
  P.halt();
  WbinFile F = P.build();
  F.Kernels.clear();
  EmuConfig C = oneLane();
  C.DeviceMemory = 64;
  auto E = Emulator::create(F, C);
  ASSERT_TRUE(static_cast<bool>(E));
  EXPECT_EQ((*E)->kernelName(), "kernel_0");
  ASSERT_FALSE(static_cast<bool>((*E)->run()));
  EXPECT_EQ((*E)->deviceMemory()[0], 5);
}

TEST(EmuDriver, Wave64FullMask) {
  ProgramBuilder P;
  P.movSr(1, 4);
  storePerLane(P, 1);
  P.halt();
  EmuConfig C = lanes(64);
  Result R = run(P, C);
  ASSERT_TRUE(R.Ok) << R.Error;
  EXPECT_EQ(R.u32(63), 63u);
}

} // namespace

//===----------------------------------------------------------------------===//
// Named launches (wave-run(1) "NAMED ARGUMENTS")
//===----------------------------------------------------------------------===//

namespace {

TEST(EmuNamedLaunch, SplitMix64MatchesTheReferenceSequence) {
  // Vigna's splitmix64.c seeded with 0 starts with these outputs.
  uint64_t S = 0;
  EXPECT_EQ(splitMix64(S), 0xe220a8397b1dcdafull);
  EXPECT_EQ(splitMix64(S), 0x6e789e6aa1b965f4ull);
  EXPECT_EQ(splitMix64(S), 0x06c45d188009454full);
}

TEST(EmuNamedLaunch, SingleNumberDims) {
  auto D = parseDims("64", "--grid");
  ASSERT_TRUE(static_cast<bool>(D));
  EXPECT_EQ(*D, (std::array<uint32_t, 3>{64, 1, 1}));
}

TEST(EmuNamedLaunch, ArgFormsAreToldApartByTheFirstSeparator) {
  EXPECT_TRUE(isNamedArg("x=@a.f32"));
  EXPECT_TRUE(isNamedArg("x=random:4:1"));
  EXPECT_FALSE(isNamedArg("0:a=b"));
  EXPECT_FALSE(isNamedArg("0x100:x.bin"));
}

TEST(EmuNamedLaunch, PrintRanges) {
  auto P = parseNamedPrint("y[2:8]");
  ASSERT_TRUE(static_cast<bool>(P));
  EXPECT_EQ(P->Name, "y");
  EXPECT_EQ(P->Start, 2u);
  EXPECT_EQ(P->End, std::optional<uint64_t>(8));
  P = parseNamedPrint("y[3]");
  ASSERT_TRUE(static_cast<bool>(P));
  EXPECT_EQ(P->Start, 3u);
  EXPECT_EQ(P->End, std::optional<uint64_t>(4));
  P = parseNamedPrint("y");
  ASSERT_TRUE(static_cast<bool>(P));
  EXPECT_FALSE(P->End.has_value());
  for (const char *Bad : {"", "[1]", "y[1", "y[a:b]", "y[1]]"}) {
    auto B = parseNamedPrint(Bad);
    EXPECT_FALSE(static_cast<bool>(B)) << Bad;
    llvm::consumeError(B.takeError());
  }
}

TEST(EmuNamedLaunch, ScalarValues) {
  auto V = [](const char *T, WbinType Ty) {
    auto R = parseScalarValue(T, Ty, "p");
    if (!R) {
      llvm::consumeError(R.takeError());
      return std::optional<uint32_t>();
    }
    return std::optional<uint32_t>(*R);
  };
  EXPECT_EQ(V("-5", WbinType::I32), 0xfffffffbu);
  EXPECT_EQ(V("-0x80000000", WbinType::I32), 0x80000000u);
  EXPECT_EQ(V("0x80000000", WbinType::I32), std::nullopt);
  EXPECT_EQ(V("0x10", WbinType::U32), 16u);
  EXPECT_EQ(V("+1", WbinType::U32), std::nullopt);
  EXPECT_EQ(V("2.5", WbinType::F32), 0x40200000u);
  EXPECT_EQ(V("-inf", WbinType::F32), 0xff800000u);
  EXPECT_EQ(V("1e-50", WbinType::F32), 0u); // underflow is not an error
  EXPECT_EQ(V("1e39", WbinType::F32), std::nullopt);
  EXPECT_EQ(V("1", WbinType::F64), std::nullopt); // scalars are 32-bit
}

TEST(EmuNamedLaunch, LayoutIsInParameterOrderAt256ByteBoundaries) {
  KernelInfo K;
  K.Params = std::vector<WbinParam>{
      {"x", WbinParamKind::Buffer, WbinType::F32, WbinAccessRead},
      {"n", WbinParamKind::Scalar, WbinType::U32, WbinAccessRead},
      {"y", WbinParamKind::Buffer, WbinType::F16, WbinAccessReadWrite}};
  auto P = planLaunch(K, "k", {{"n", "7"}, {"y", "zeros:3"}, {"x", "iota:65"}});
  ASSERT_TRUE(static_cast<bool>(P)) << llvm::toString(P.takeError());
  ASSERT_EQ(P->Buffers.size(), 2u);
  EXPECT_EQ(P->Buffers[0].Offset, 256u); // 260 bytes: ends at 516
  EXPECT_EQ(P->Buffers[1].Offset, 768u);
  EXPECT_EQ(P->End, 774u);
  using R = std::pair<unsigned, uint32_t>;
  EXPECT_EQ(P->Regs, (std::vector<R>{{0, 256}, {1, 7}, {2, 768}}));
}

TEST(EmuNamedLaunch, FormatF64UsesTheDumpRules) {
  EXPECT_EQ(formatF64(0.1), "0.1");
  EXPECT_EQ(formatF64(1.0), "1.0");
  EXPECT_EQ(formatF64(1e-5), "1e-5");
  EXPECT_EQ(formatF64(-0.0), "-0.0");
  EXPECT_EQ(formatF32(0.1f), "0.1");
}

} // namespace
