//===- Interpreter.cpp - The emulator's execution loop --------------------===//
//
// WorkgroupRunner: a workgroup's setup, the execution loop over its waves
// (formats/isa.md §4.3; EmulatorImpl.h, "Registers", "Control",
// "Scheduling") and a speculative run's periodic checks and promotion. The
// loop is one function template, instantiated per tracing, memory mode
// (Speculation.h) and --check, and each untraced instantiation is compiled
// twice on x86-64 (baseline and x86-64-v3, picked at load time; see
// WAVE_EMU_CLONES), so everything it calls in its hot path (the scalar
// semantics below, LaneMemory.h) is in this translation unit, inlined.
//
//===----------------------------------------------------------------------===//
#include "EmulatorImpl.h"
#include "LaneMemory.h"

#include "wave/Emu/FloatFormat.h"
#include "wave/ISA/ISA.h"
#include "wave/ISA/Semantics.h"

#include <algorithm>
#include <bit>
#include <climits>
#include <cmath>
#include <cstring>
#include <vector>

using namespace llvm;

namespace wave::emu {

WorkgroupRunner::WorkgroupRunner(EmulatorImpl &E)
    : E(E), Code(E.Code), InvalidReason(E.InvalidReason), Cfg(E.Cfg),
      Name(E.Name), RRow(E.RRow), WRow(E.WRow), W(E.W), Stride(E.Stride),
      NumWaves(E.NumWaves), RowSize(E.RowSize), Full(E.Full), WG(E.WG),
      Trace(E.Trace) {
  Waves.assign(NumWaves, Wave());
  for (Wave &Wv : Waves)
    for (auto &Tid : Wv.Tid)
      Tid.assign(W, 0);
  RegFile.assign(size_t(E.NumRows) * RowSize, 0);
  Local.assign(E.LocalSize, 0);
  ZeroFrag.assign(16 * W, 0.0f);
}

//===----------------------------------------------------------------------===//
// Scalar semantics (formats/isa.md §4.5-§4.11)
//===----------------------------------------------------------------------===//

namespace {

inline float F(uint32_t B) { return std::bit_cast<float>(B); }
inline uint32_t U(float X) { return std::bit_cast<uint32_t>(X); }
inline double Dbl(uint32_t Lo, uint32_t Hi) {
  return std::bit_cast<double>(uint64_t(Lo) | uint64_t(Hi) << 32);
}

// f16 / bf16 helpers (formats/isa.md §4.8).
inline float h2f(uint32_t H) { return F(f16ToF32Bits(uint16_t(H))); }
inline uint32_t f2h(float X) { return f32BitsToF16(U(X)); }
inline float b2f(uint32_t H) { return F((H & 0xFFFF) << 16); }
inline uint32_t f2b(float X) { return U(X) >> 16; }

inline uint64_t laneBit(unsigned L) { return uint64_t(1) << L; }

} // namespace

//===----------------------------------------------------------------------===//
// Workgroup setup
//===----------------------------------------------------------------------===//

void WorkgroupRunner::initWorkgroup() {
  uint64_t T = uint64_t(WG[0]) * WG[1] * WG[2];
  std::memset(RegFile.data(), 0, RegFile.size() * sizeof(uint32_t));
  std::fill(Local.begin(), Local.end(), 0);
  for (unsigned WI = 0; WI != NumWaves; ++WI) {
    Wave &Wv = Waves[WI];
    Wv.R = RegFile.data() + size_t(WI) * Stride;
    Wv.P[0] = Wv.P[1] = Wv.P[2] = Wv.P[3] = 0;
    Wv.PC = 0;
    Wv.St = WaveStatus::Ready;
    Wv.Depth = Wv.CallDepth = 0;
    Wv.Id = WI;
    Wv.Exited = 0;
    uint64_t M = 0;
    for (unsigned L = 0; L != W; ++L) {
      uint64_t I = uint64_t(WI) * W + L;
      if (I < T)
        M |= laneBit(L);
      Wv.Tid[0][L] = uint32_t(I % WG[0]);
      Wv.Tid[1][L] = uint32_t((I / WG[0]) % WG[1]);
      Wv.Tid[2][L] = uint32_t(I / (uint64_t(WG[0]) * WG[1]));
    }
    Wv.Active = Wv.Live = M;
    for (auto &Tab : Wv.Frag)
      Tab.fill(-1);
    Wv.FragPool.clear();
    for (auto [Reg, Val] : Cfg.SetRegs)
      if (Reg < E.NumRegs)
        std::fill_n(Wv.R + E.WRow[Reg], Stride, Val);
  }
}

//===----------------------------------------------------------------------===//
// The execution loop
//===----------------------------------------------------------------------===//

// Lane-loop helpers. Exec is the set of lanes that execute; when it covers
// the whole wave the loop writes every lane, otherwise it blends. A wave's
// part of a register row is Stride (W rounded up to a multiple of 8) lanes,
// and lane loops run over whole chunks of 8: each chunk is copied into local
// arrays before anything is written, so an instruction whose destination is
// one of its sources (`fma r1, r2, r3, r1`) still vectorizes (a plain loop
// over possibly-aliasing rows would not). Lanes past W are padding:
// computed, never read. ALU covers Lanes lanes from R (one wave, or in a
// lockstep step every wave); CMP loops over the GroupWaves waves from Pick.
#define ALU(EXPR)                                                              \
  do {                                                                         \
    uint32_t *Dp = R + I.D;                                                    \
    const uint32_t *Ap = R + I.A, *Bp = R + I.B, *Cp = R + I.C;                \
    for (unsigned L0 = 0; L0 < Lanes; L0 += 8) {                               \
      uint32_t Ta[8], Tb[8], Tc[8], Td[8];                                     \
      std::memcpy(Ta, Ap + L0, sizeof(Ta));                                    \
      std::memcpy(Tb, Bp + L0, sizeof(Tb));                                    \
      std::memcpy(Tc, Cp + L0, sizeof(Tc));                                    \
      if (Exec == Full) {                                                      \
        for (unsigned K = 0; K != 8; ++K) {                                    \
          uint32_t a = Ta[K], b = Tb[K], c = Tc[K];                            \
          (void)a;                                                             \
          (void)b;                                                             \
          (void)c;                                                             \
          Td[K] = (EXPR);                                                      \
        }                                                                      \
      } else {                                                                 \
        std::memcpy(Td, Dp + L0, sizeof(Td));                                  \
        for (unsigned K = 0; K != 8; ++K) {                                    \
          uint32_t a = Ta[K], b = Tb[K], c = Tc[K];                            \
          (void)a;                                                             \
          (void)b;                                                             \
          (void)c;                                                             \
          uint32_t Res = (EXPR);                                               \
          uint32_t Msk = 0u - uint32_t((Exec >> (L0 + K)) & 1);                \
          Td[K] = (Res & Msk) | (Td[K] & ~Msk);                                \
        }                                                                      \
      }                                                                        \
      std::memcpy(Dp + L0, Td, sizeof(Td));                                    \
    }                                                                          \
  } while (0)
#define FALU(EXPR) ALU(U(EXPR))
#define CMP(EXPR)                                                              \
  do {                                                                         \
    for (unsigned G = 0; G != GroupWaves; ++G) {                               \
      Wave &Wg = Waves[Pick + G];                                              \
      const uint32_t *Ap = Wg.R + I.A, *Bp = Wg.R + I.B;                       \
      uint64_t Bits = 0;                                                       \
      for (unsigned L0 = 0; L0 < Stride; L0 += 8) {                            \
        uint32_t Chunk = 0;                                                    \
        for (unsigned K = 0; K != 8; ++K) {                                    \
          uint32_t a = Ap[L0 + K], b = Bp[L0 + K];                             \
          (void)a;                                                             \
          (void)b;                                                             \
          Chunk |= uint32_t(bool(EXPR)) << K;                                  \
        }                                                                      \
        Bits |= uint64_t(Chunk) << L0;                                         \
      }                                                                        \
      if (I.Rd < 4)                                                            \
        Wg.P[I.Rd] = (Wg.P[I.Rd] & ~Exec) | (Bits & Exec);                     \
    }                                                                          \
  } while (0)
#define FORLANES(MASK)                                                         \
  for (uint64_t Rem_ = (MASK); Rem_; Rem_ &= Rem_ - 1)                         \
    if (unsigned L = unsigned(std::countr_zero(Rem_)); true)

template <bool Tracing, MemMode M, bool Checked>
[[gnu::always_inline]] inline bool WorkgroupRunner::runLoop() {
  const DInst *Prog = Code.data();
  const unsigned NW = NumWaves;
  // A promoted run (checkpoint()) resumes where the speculative loop left.
  uint64_t Steps = Resume.Steps, NextCheck = nextCheck(Steps);
  unsigned Cursor = Resume.Cursor, NumHalted = Resume.NumHalted,
           NumBarrier = Resume.NumBarrier;
  uint8_t *Dev = E.Device.data();
  const uint64_t DevSize = E.Device.size();
  uint8_t *Loc = Local.data();
  const uint64_t LocSize = Local.size();
  uint64_t *Counts = OpCount;
  const unsigned W = this->W;
  const unsigned Stride = this->Stride;
  const uint64_t Full = this->Full;
  uint32_t Tmp[64];

  auto Halt = [&](Wave &Wv) {
    Wv.St = WaveStatus::Halted;
    ++NumHalted;
  };

  for (;;) {
    if (NumHalted == NW)
      return true;
    if (NumBarrier == NW) {
      if constexpr (Checked)
        checkRelease();
      for (unsigned K = 0; K != NW; ++K) {
        Waves[K].St = WaveStatus::Ready;
        ++Waves[K].PC;
      }
      NumBarrier = 0;
      ++Stats.Barriers;
      continue;
    }
    // Lockstep: when every wave is ready at the same instruction with all
    // lanes executing, and the next pick is wave 0, the next NW steps are
    // that instruction for wave 0, 1, ..., NW - 1 (formats/isa.md §4.3): one
    // step does them, either as one loop over the whole register rows (Lanes =
    // RowSize) or as a loop over the waves in the case (GroupWaves = NW). A
    // step never crosses NextCheck, so the limit and the speculative checks see
    // the same step counts as one wave at a time.
    unsigned Lanes = Stride, GroupWaves = 1;
    if constexpr (!Tracing) {
      if (NW > 1 && Cursor == NW - 1 && NumHalted == 0 && NumBarrier == 0 &&
          Steps + NW < NextCheck) {
        const DInst &I0 = Prog[Waves[0].PC];
        GroupKind K = GroupKindOf[I0.Op];
        if (K != GroupKind::None && lockstep(I0)) {
          GroupWaves = NW;
          if (K == GroupKind::Rows)
            Lanes = RowSize;
        }
      }
    }
    unsigned Pick = Cursor;
    bool Found = false;
    for (unsigned K = 0; K != NW; ++K) {
      if (++Pick == NW)
        Pick = 0;
      if (Waves[Pick].St == WaveStatus::Ready) {
        Found = true;
        break;
      }
    }
    if (!Found) {
      if (NumBarrier == 0)
        return true;
      if constexpr (Checked) {
        // synccheck reports the barrier the halted waves never reach and
        // lets the waiting ones go on (Checks.cpp).
        if (E.Chk->has(CheckSync)) {
          checkRelease();
          for (Wave &X : Waves)
            if (X.St == WaveStatus::Barrier) {
              X.St = WaveStatus::Ready;
              ++X.PC;
            }
          NumBarrier = 0;
          ++Stats.Barriers;
          continue;
        }
      }
      return deadlockFault();
    }
    Cursor = Pick;
    Wave &Wv = Waves[Pick];
    const uint32_t ExecIdx = Wv.PC;
    ++Steps;
    if (Wv.Active == 0 && Wv.Depth == 0) {
      Halt(Wv);
    } else {
      const DInst &I = Prog[ExecIdx];
      uint32_t *R = Wv.R;
      const uint64_t PM =
          I.Pred == 0 ? ~uint64_t(0)
                      : ((I.Pred & 4) ? ~Wv.P[I.Pred & 3] : Wv.P[I.Pred & 3]);
      const uint64_t Exec = Wv.Active & PM;
      uint32_t Next = ExecIdx + 1;
      Counts[I.Op] += GroupWaves;
      if constexpr (Tracing)
        traceStep(Wv, ExecIdx);

      switch (I.Op) {
#define ELEMENTWISE_CASE(OP, ...)                                              \
  case uint16_t(Opcode::OP):                                                   \
    ALU(__VA_ARGS__);                                                          \
    break;
        WAVE_EMU_ELEMENTWISE_OPS(ELEMENTWISE_CASE)
#undef ELEMENTWISE_CASE

      // f64 on register pairs (formats/isa.md §4.9).
      case uint16_t(Opcode::Dadd):
      case uint16_t(Opcode::Dsub):
      case uint16_t(Opcode::Dmul):
      case uint16_t(Opcode::Dma):
      case uint16_t(Opcode::Ddiv):
      case uint16_t(Opcode::Dsqrt): {
        const uint32_t *A0 = R + RRow[I.Rs1], *A1 = R + RRow[(I.Rs1 + 1) & 255];
        const uint32_t *B0 = R + RRow[I.Rs2], *B1 = R + RRow[(I.Rs2 + 1) & 255];
        const uint32_t *C0 = R + RRow[I.Rs3], *C1 = R + RRow[(I.Rs3 + 1) & 255];
        uint32_t *D0 = R + WRow[I.Rd], *D1 = R + WRow[(I.Rd + 1) & 255];
        FORLANES(Exec) {
          double X = Dbl(A0[L], A1[L]), Y = Dbl(B0[L], B1[L]), Z;
          switch (I.Op) {
          case uint16_t(Opcode::Dadd):
            Z = X + Y;
            break;
          case uint16_t(Opcode::Dsub):
            Z = X - Y;
            break;
          case uint16_t(Opcode::Dmul):
            Z = X * Y;
            break;
          case uint16_t(Opcode::Dma):
            Z = std::fma(X, Y, Dbl(C0[L], C1[L]));
            break;
          case uint16_t(Opcode::Ddiv):
            Z = X / Y;
            break;
          default:
            Z = std::sqrt(X);
            break;
          }
          uint64_t Bits = std::bit_cast<uint64_t>(Z);
          D0[L] = uint32_t(Bits);
          D1[L] = uint32_t(Bits >> 32);
        }
        break;
      }

      // Bitwise (formats/isa.md §4.6).
      case uint16_t(Opcode::Bfi): {
        const uint32_t *Ep = R + RRow[I.Rs4];
        uint32_t *Dp = R + I.D;
        const uint32_t *Ap = R + I.A, *Bp = R + I.B, *Cp = R + I.C;
        FORLANES(Exec) Dp[L] = sem::bfi(Ap[L], Bp[L], Cp[L], Ep[L]);
        break;
      }

      // Comparisons (formats/isa.md §4.10; D19 default for the extension
      // codes).
      case uint16_t(Opcode::IcmpEq):
        CMP(a == b);
        break;
      case uint16_t(Opcode::IcmpNe):
        CMP(a != b);
        break;
      case uint16_t(Opcode::IcmpLt):
        CMP(int32_t(a) < int32_t(b));
        break;
      case uint16_t(Opcode::IcmpLe):
        CMP(int32_t(a) <= int32_t(b));
        break;
      case uint16_t(Opcode::IcmpGt):
        CMP(int32_t(a) > int32_t(b));
        break;
      case uint16_t(Opcode::IcmpGe):
        CMP(int32_t(a) >= int32_t(b));
        break;
      // Integer "ord"/"unord" (codes 6, 7) are not among D19's extensions,
      // so they keep the reference result of formats/isa.md §4.10: always
      // false.
      case uint16_t(Opcode::IcmpOrd):
      case uint16_t(Opcode::IcmpUnord):
        CMP(false);
        break;
      case uint16_t(Opcode::UcmpEq):
        CMP(a == b);
        break;
      case uint16_t(Opcode::UcmpNe):
        CMP(a != b);
        break;
      case uint16_t(Opcode::UcmpLt):
        CMP(a < b);
        break;
      case uint16_t(Opcode::UcmpLe):
        CMP(a <= b);
        break;
      case uint16_t(Opcode::UcmpGt):
        CMP(a > b);
        break;
      case uint16_t(Opcode::UcmpGe):
        CMP(a >= b);
        break;
      case uint16_t(Opcode::UcmpOrd):
      case uint16_t(Opcode::UcmpUnord):
        CMP(false);
        break;
      case uint16_t(Opcode::FcmpEq):
        CMP(F(a) == F(b));
        break;
      case uint16_t(Opcode::FcmpNe):
        CMP(F(a) != F(b));
        break;
      case uint16_t(Opcode::FcmpLt):
        CMP(F(a) < F(b));
        break;
      case uint16_t(Opcode::FcmpLe):
        CMP(F(a) <= F(b));
        break;
      case uint16_t(Opcode::FcmpGt):
        CMP(F(a) > F(b));
        break;
      case uint16_t(Opcode::FcmpGe):
        CMP(F(a) >= F(b));
        break;
      case uint16_t(Opcode::FcmpOrd):
        CMP(!std::isnan(F(a)) && !std::isnan(F(b)));
        break;
      case uint16_t(Opcode::FcmpUnord):
        CMP(std::isnan(F(a)) || std::isnan(F(b)));
        break;
      case uint16_t(Opcode::Select): {
        uint64_t PS = I.Rs1 < 4 ? Wv.P[I.Rs1] : 0;
        uint32_t *Dp = R + I.D;
        const uint32_t *Bp = R + I.B, *Cp = R + I.C;
        for (unsigned L0 = 0; L0 < Stride; L0 += 8) {
          uint32_t Tb[8], Tc[8], Td[8];
          std::memcpy(Tb, Bp + L0, sizeof(Tb));
          std::memcpy(Tc, Cp + L0, sizeof(Tc));
          std::memcpy(Td, Dp + L0, sizeof(Td));
          for (unsigned K = 0; K != 8; ++K) {
            uint32_t Res = ((PS >> (L0 + K)) & 1) ? Tb[K] : Tc[K];
            uint32_t Msk = 0u - uint32_t((Exec >> (L0 + K)) & 1);
            Td[K] = (Res & Msk) | (Td[K] & ~Msk);
          }
          std::memcpy(Dp + L0, Td, sizeof(Td));
        }
        break;
      }

      // Conversions (formats/isa.md §4.11).
      case uint16_t(Opcode::CvtF32F64): {
        const uint32_t *A0 = R + RRow[I.Rs1], *A1 = R + RRow[(I.Rs1 + 1) & 255];
        uint32_t *Dp = R + I.D;
        FORLANES(Exec) Dp[L] = U(float(Dbl(A0[L], A1[L])));
        break;
      }
      case uint16_t(Opcode::CvtF64F32): {
        const uint32_t *Ap = R + I.A;
        uint32_t *D0 = R + WRow[I.Rd], *D1 = R + WRow[(I.Rd + 1) & 255];
        FORLANES(Exec) {
          uint64_t Bits = std::bit_cast<uint64_t>(double(F(Ap[L])));
          D1[L] = uint32_t(Bits >> 32);
          D0[L] = uint32_t(Bits);
        }
        break;
      }

      // Memory (formats/isa.md §4.12; D25 default: local mod 4 is 16 bytes).
      case uint16_t(Opcode::LocalLoadU8):
      case uint16_t(Opcode::LocalLoadU16):
      case uint16_t(Opcode::LocalLoadU32):
      case uint16_t(Opcode::LocalLoadU64):
      case uint16_t(Opcode::LocalLoadU128):
      case uint16_t(Opcode::DeviceLoadU8):
      case uint16_t(Opcode::DeviceLoadU16):
      case uint16_t(Opcode::DeviceLoadU32):
      case uint16_t(Opcode::DeviceLoadU64):
      case uint16_t(Opcode::DeviceLoadU128): {
        bool IsLocal = getAddressSpace(Opcode(I.Op)) == AddressSpace::Local;
        unsigned N = getAccessBytes(Opcode(I.Op));
        uint8_t *Mem = IsLocal ? Loc : Dev;
        uint64_t Size = IsLocal ? LocSize : DevSize;
        // A lockstep step loads for each wave in turn (GroupWaves).
        unsigned Cnt = unsigned(std::popcount(Exec));
        for (unsigned G = 0; G != GroupWaves; ++G) {
          uint32_t *Rg = Waves[Pick + G].R;
          const uint32_t *Ap = Rg + I.A;
          if (IsLocal) {
            Stats.LocalLoads += Cnt;
            Stats.LocalLoadBytes += uint64_t(Cnt) * N;
          } else {
            Stats.DeviceLoads += Cnt;
            Stats.DeviceLoadBytes += uint64_t(Cnt) * N;
          }
          if constexpr (Checked)
            E.Chk->access({ExecIdx, I.PC, Pick + G}, Ap, Exec, N,
                          AccessKind::Read, IsLocal);
          int Bad;
#define LOAD_WIDTH(NB)                                                         \
  if constexpr (M == MemMode::Speculative)                                     \
    Bad = IsLocal                                                              \
              ? loadLanes<NB>(Rg, WRow, I.Rd, Ap, Exec, Full, W, Mem, Size)    \
              : speculativeLoadLanes<NB>(Spec, Rg, WRow, I.Rd, Ap, Exec, Full, \
                                         W, Mem, Size);                        \
  else                                                                         \
    Bad = loadLanes<NB>(Rg, WRow, I.Rd, Ap, Exec, Full, W, Mem, Size)
          switch (N) {
          case 1:
            LOAD_WIDTH(1);
            break;
          case 2:
            LOAD_WIDTH(2);
            break;
          case 4:
            LOAD_WIDTH(4);
            break;
          case 8:
            LOAD_WIDTH(8);
            break;
          default:
            LOAD_WIDTH(16);
            break;
          }
#undef LOAD_WIDTH
          if (Bad == GaveUpLane)
            return false;
          if (Bad >= 0) {
            Counts[I.Op] -= GroupWaves - 1 - G; // only waves 0 .. G ran
            return memFault(Waves[Pick + G], I, Bad, IsLocal, Ap[Bad], N);
          }
        }
        break;
      }
      case uint16_t(Opcode::LocalStoreU8):
      case uint16_t(Opcode::LocalStoreU16):
      case uint16_t(Opcode::LocalStoreU32):
      case uint16_t(Opcode::LocalStoreU64):
      case uint16_t(Opcode::LocalStoreU128):
      case uint16_t(Opcode::DeviceStoreU8):
      case uint16_t(Opcode::DeviceStoreU16):
      case uint16_t(Opcode::DeviceStoreU32):
      case uint16_t(Opcode::DeviceStoreU64):
      case uint16_t(Opcode::DeviceStoreU128): {
        bool IsLocal = getAddressSpace(Opcode(I.Op)) == AddressSpace::Local;
        unsigned N = getAccessBytes(Opcode(I.Op));
        uint8_t *Mem = IsLocal ? Loc : Dev;
        uint64_t Size = IsLocal ? LocSize : DevSize;
        // A lockstep step stores for each wave in turn (GroupWaves).
        unsigned Cnt = unsigned(std::popcount(Exec));
        for (unsigned G = 0; G != GroupWaves; ++G) {
          const uint32_t *Rg = Waves[Pick + G].R;
          const uint32_t *Ap = Rg + I.A;
          if (IsLocal) {
            Stats.LocalStores += Cnt;
            Stats.LocalStoreBytes += uint64_t(Cnt) * N;
          } else {
            Stats.DeviceStores += Cnt;
            Stats.DeviceStoreBytes += uint64_t(Cnt) * N;
          }
          if constexpr (Checked)
            E.Chk->access({ExecIdx, I.PC, Pick + G}, Ap, Exec, N,
                          AccessKind::Write, IsLocal);
          int Bad;
#define STORE_WIDTH(NB)                                                        \
  if constexpr (M == MemMode::Speculative)                                     \
    Bad = IsLocal ? storeLanes<NB>(Rg, RRow, I.Rs2, Ap, Exec, Mem, Size)       \
                  : speculativeStoreLanes<NB>(Spec, Rg, RRow, I.Rs2, Ap, Exec, \
                                              Size);                           \
  else                                                                         \
    Bad = storeLanes<NB>(Rg, RRow, I.Rs2, Ap, Exec, Mem, Size)
          switch (N) {
          case 1:
            STORE_WIDTH(1);
            break;
          case 2:
            STORE_WIDTH(2);
            break;
          case 4:
            STORE_WIDTH(4);
            break;
          case 8:
            STORE_WIDTH(8);
            break;
          default:
            STORE_WIDTH(16);
            break;
          }
#undef STORE_WIDTH
          if constexpr (M == MemMode::Marked)
            if (!IsLocal)
              markLanes(WriteTick, Tick, Ap, Exec, N, Size);
          if (Bad == GaveUpLane)
            return false;
          if (Bad >= 0) {
            Counts[I.Op] -= GroupWaves - 1 - G; // only waves 0 .. G ran
            return memFault(Waves[Pick + G], I, Bad, IsLocal, Ap[Bad], N);
          }
        }
        break;
      }

      // Atomics (formats/isa.md §4.13; D3 default for CAS).
      case uint16_t(Opcode::LocalAtomicAdd):
      case uint16_t(Opcode::LocalAtomicSub):
      case uint16_t(Opcode::LocalAtomicMin):
      case uint16_t(Opcode::LocalAtomicMax):
      case uint16_t(Opcode::LocalAtomicAnd):
      case uint16_t(Opcode::LocalAtomicOr):
      case uint16_t(Opcode::LocalAtomicXor):
      case uint16_t(Opcode::LocalAtomicXchg):
      case uint16_t(Opcode::LocalAtomicCas):
      case uint16_t(Opcode::AtomicAdd):
      case uint16_t(Opcode::AtomicSub):
      case uint16_t(Opcode::AtomicMin):
      case uint16_t(Opcode::AtomicMax):
      case uint16_t(Opcode::AtomicAnd):
      case uint16_t(Opcode::AtomicOr):
      case uint16_t(Opcode::AtomicXor):
      case uint16_t(Opcode::AtomicXchg):
      case uint16_t(Opcode::AtomicCas): {
        bool IsLocal = getAddressSpace(Opcode(I.Op)) == AddressSpace::Local;
        // The modifier is the operation (formats/isa.md §2.11).
        auto Kind = AtomicKind(getInstDesc(Opcode(I.Op)).Mod);
        uint8_t *Mem = IsLocal ? Loc : Dev;
        uint64_t Size = IsLocal ? LocSize : DevSize;
        const uint32_t *Ap = R + I.A, *Vp = R + I.B, *Cp = R + I.C;
        uint32_t *Dp = R + I.D;
        Stats.AtomicLaneOps += unsigned(std::popcount(Exec));
        if constexpr (Checked)
          E.Chk->access({ExecIdx, I.PC, Pick}, Ap, Exec, 4, AccessKind::Atomic,
                        IsLocal);
        // The lane loop, with the operation a constant (withAtomicKind). It
        // works on copies of the operands: the stores to memory could alias
        // the captured variables themselves, and the loop would reload them
        // through the closure at every lane.
        int Bad = withAtomicKind(Kind, [&](auto KC) -> int {
          constexpr AtomicKind K = decltype(KC)::value;
          const uint32_t *A = Ap, *V = Vp, *Cmp = Cp;
          uint32_t *D = Dp;
          uint8_t *Base = Mem;
          const uint64_t Bound = Size;
          // rd = r0 discards the old value (formats/isa.md §4.13).
          const bool Blind = I.Rd == 0;
          const bool ThroughSpec = M == MemMode::Speculative && !IsLocal;
          // A Marked run stamps the granules of each lane it applies.
          const bool Stamp = M == MemMode::Marked && !IsLocal;
          uint32_t *WT = WriteTick;
          const uint32_t T = Tick;
          SpeculativeMemory &S = Spec;
          if (ThroughSpec && Blind)
            return S.blindAtomicLanes<K>(A, V, Cmp, Exec, Bound);
          FORLANES(Exec) {
            uint64_t Addr = A[L];
            if (Addr + 4 > Bound)
              return int(L);
            uint32_t Old;
            if (ThroughSpec) {
              if (!S.atomic(Addr, K, V[L], Cmp[L], /*Blind=*/false, Old))
                return GaveUpLane;
            } else {
              std::memcpy(&Old, Base + Addr, 4);
              uint32_t New = atomicResult(K, Old, V[L], Cmp[L]);
              std::memcpy(Base + Addr, &New, 4);
              if (Stamp) {
                __atomic_store_n(&WT[Addr >> GranuleLog], T, __ATOMIC_RELAXED);
                __atomic_store_n(&WT[(Addr + 3) >> GranuleLog], T,
                                 __ATOMIC_RELAXED);
              }
            }
            if (!Blind)
              D[L] = Old;
          }
          return -1;
        });
        if (Bad == GaveUpLane)
          return false;
        if (Bad >= 0)
          return memFault(Wv, I, Bad, IsLocal, Ap[Bad], 4);
        break;
      }

      // Wave operations (formats/isa.md §4.14).
      case uint16_t(Opcode::WaveShuffle):
      case uint16_t(Opcode::WaveShuffleUp):
      case uint16_t(Opcode::WaveShuffleDown):
      case uint16_t(Opcode::WaveShuffleXor):
      case uint16_t(Opcode::WaveBroadcast): {
        const uint32_t *Vp = R + I.A, *Sp = R + I.B;
        uint32_t *Dp = R + I.D;
        if (I.Op == uint16_t(Opcode::WaveBroadcast)) {
          if (!Exec)
            break;
          uint32_t S = Sp[std::countr_zero(Exec)];
          uint32_t V = S < W ? Vp[S] : 0;
          FORLANES(Exec) Dp[L] = V;
          break;
        }
        FORLANES(Exec) {
          uint32_t Sel = Sp[L];
          uint64_t Src;
          switch (I.Op) {
          case uint16_t(Opcode::WaveShuffle):
            Src = Sel;
            break;
          case uint16_t(Opcode::WaveShuffleUp):
            Src = L >= Sel ? L - Sel : ~uint64_t(0);
            break;
          case uint16_t(Opcode::WaveShuffleDown):
            Src = uint32_t(L + Sel); // wraps modulo 2^32 (D26)
            break;
          default:
            Src = L ^ Sel;
            break;
          }
          Tmp[L] = Src < W ? Vp[Src] : 0;
        }
        FORLANES(Exec) Dp[L] = Tmp[L];
        break;
      }
      case uint16_t(Opcode::WaveBallot): {
        uint64_t PS = I.Rs1 < 4 ? Wv.P[I.Rs1] : 0;
        uint32_t V = uint32_t(PS & Exec);
        uint32_t *Dp = R + I.D;
        FORLANES(Exec) Dp[L] = V;
        break;
      }
      case uint16_t(Opcode::WaveAny):
      case uint16_t(Opcode::WaveAll): {
        uint64_t PS = I.Rs1 < 4 ? Wv.P[I.Rs1] : 0;
        bool V = I.Op == uint16_t(Opcode::WaveAny) ? (PS & Exec) != 0
                                                   : (PS & Exec) == Exec;
        if (I.Rd < 4)
          Wv.P[I.Rd] = V ? (Wv.P[I.Rd] | Exec) : (Wv.P[I.Rd] & ~Exec);
        break;
      }
      case uint16_t(Opcode::WavePrefixSum): {
        const uint32_t *Ap = R + I.A;
        uint32_t *Dp = R + I.D;
        uint32_t Sum = 0;
        FORLANES(Exec) {
          Tmp[L] = Sum;
          Sum += Ap[L];
        }
        FORLANES(Exec) Dp[L] = Tmp[L];
        break;
      }
      case uint16_t(Opcode::WaveReduceAdd):
      case uint16_t(Opcode::WaveReduceMin):
      case uint16_t(Opcode::WaveReduceMax): {
        const uint32_t *Ap = R + I.A;
        uint32_t *Dp = R + I.D;
        uint32_t Acc = I.Op == uint16_t(Opcode::WaveReduceMin) ? ~0u : 0u;
        FORLANES(Exec) {
          uint32_t V = Ap[L];
          if (I.Op == uint16_t(Opcode::WaveReduceAdd))
            Acc += V;
          else if (I.Op == uint16_t(Opcode::WaveReduceMin))
            Acc = std::min(Acc, V);
          else
            Acc = std::max(Acc, V);
        }
        FORLANES(Exec) Dp[L] = Acc;
        break;
      }

      // Structured control flow (formats/isa.md §4.15 with D5, D6, D9
      // defaults).
      case uint16_t(Opcode::If): {
        if (Wv.Depth == MaxControlDepth)
          return fault(Wv, I, -1, "control stack overflow",
                       "more than 32 nested if/loop frames");
        uint64_t PS = I.Rs1 < 4 ? Wv.P[I.Rs1] : 0;
        uint64_t Pm = Wv.Active & PS & PM;
        if (Wv.Active & ~Pm)
          ++Stats.DivergentBranches;
        Wv.Stack[Wv.Depth++] = {Wv.Active, Wv.Active & ~Pm, 0, false};
        Wv.Active = Pm;
        break;
      }
      case uint16_t(Opcode::Else): {
        if (Wv.Depth == 0 || Wv.Stack[Wv.Depth - 1].IsLoop)
          return fault(Wv, I, -1,
                       "control flow error: else without matching if");
        Wv.Active = Wv.Stack[Wv.Depth - 1].Else & ~Wv.Exited;
        break;
      }
      case uint16_t(Opcode::Endif): {
        if (Wv.Depth == 0 || Wv.Stack[Wv.Depth - 1].IsLoop)
          return fault(Wv, I, -1,
                       "control flow error: endif without matching if");
        Wv.Active = Wv.Stack[--Wv.Depth].Entry & ~Wv.Exited;
        break;
      }
      case uint16_t(Opcode::Loop): {
        if (Wv.Depth == MaxControlDepth)
          return fault(Wv, I, -1, "control stack overflow",
                       "more than 32 nested if/loop frames");
        Wv.Stack[Wv.Depth++] = {Wv.Active, 0, Next, true};
        break;
      }
      case uint16_t(Opcode::Break):
      case uint16_t(Opcode::Continue): {
        bool IsBreak = I.Op == uint16_t(Opcode::Break);
        int LoopIdx = int(Wv.Depth) - 1;
        while (LoopIdx >= 0 && !Wv.Stack[LoopIdx].IsLoop)
          --LoopIdx;
        if (LoopIdx < 0)
          return fault(Wv, I, -1,
                       IsBreak
                           ? "control flow error: break outside of loop"
                           : "control flow error: continue outside of loop");
        uint64_t PS = I.Rs1 < 4 ? Wv.P[I.Rs1] : 0;
        uint64_t Bm = Wv.Active & PS & PM;
        uint64_t OldActive = Wv.Active;
        if (IsBreak)
          Wv.Stack[LoopIdx].Else |= Bm;
        Wv.Active &= ~Bm;
        for (unsigned K = unsigned(LoopIdx) + 1; K < Wv.Depth; ++K) {
          Wv.Stack[K].Entry &= ~Bm;
          Wv.Stack[K].Else &= ~Bm;
        }
        if constexpr (Tracing)
          if (IsBreak)
            traceBreak(OldActive, PS & OldActive, I.Rs1, Wv.Active);
        break;
      }
      case uint16_t(Opcode::Endloop): {
        if (Wv.Depth == 0 || !Wv.Stack[Wv.Depth - 1].IsLoop)
          return fault(Wv, I, -1,
                       "control flow error: endloop without matching loop");
        Frame &Fr = Wv.Stack[Wv.Depth - 1];
        uint64_t OldActive = Wv.Active;
        uint64_t Rm = Fr.Entry & ~Fr.Else & ~Wv.Exited;
        if (Rm) {
          Wv.Active = Rm;
          Next = Fr.Start;
        } else {
          Wv.Active = Fr.Entry & ~Wv.Exited;
          --Wv.Depth;
        }
        if constexpr (Tracing)
          traceEndloop(OldActive, Wv.Active, Rm != 0, Next);
        break;
      }
      case uint16_t(Opcode::Call): {
        if (I.Pred && !(Wv.Active & PM)) {
          --Counts[I.Op]; // D9 default: skipped when no lane qualifies.
          break;
        }
        if (Wv.CallDepth == MaxCallDepth)
          return fault(Wv, I, -1, "call stack overflow",
                       "more than 8 nested calls");
        if (I.Imm == NoTarget)
          return callTargetFault(Wv, I);
        Wv.CallStack[Wv.CallDepth++] = Next;
        Next = I.Imm;
        break;
      }

      // Synchronisation (formats/isa.md §4.17 with the D8 default for halt).
      case uint16_t(Opcode::Halt): {
        if (I.Pred) {
          --Counts[I.Op]; // the lane-removing form is not counted.
          if (!Exec)
            break;
        }
        Wv.Exited |= Exec;
        Wv.Active &= ~Wv.Exited;
        if ((Wv.Live & ~Wv.Exited) == 0) {
          Halt(Wv);
          Next = ExecIdx;
        }
        break;
      }
      case uint16_t(Opcode::Return): {
        if (I.Pred && !Exec) {
          --Counts[I.Op];
          break;
        }
        if (Wv.CallDepth == 0) {
          // Return from the kernel: the wave ends.
          Wv.Exited = Wv.Live;
          Wv.Active = 0;
          Halt(Wv);
          Next = ExecIdx;
          break;
        }
        Next = Wv.CallStack[--Wv.CallDepth];
        break;
      }
      case uint16_t(Opcode::Barrier): {
        if (I.Pred && !Exec) {
          --Counts[I.Op];
          break;
        }
        if constexpr (Checked)
          E.Chk->barrier({ExecIdx, I.PC, Pick}, Exec, Wv.Live & ~Wv.Exited);
        Wv.St = WaveStatus::Barrier;
        ++NumBarrier;
        Next = ExecIdx; // PC += 4 happens at the release.
        break;
      }
      case uint16_t(Opcode::FenceAcquire):
      case uint16_t(Opcode::FenceRelease):
      case uint16_t(Opcode::FenceAcqRel):
      case uint16_t(Opcode::Wait):
      case uint16_t(Opcode::Nop):
        if (I.Pred && !Exec)
          --Counts[I.Op];
        break;

      // MMA (formats/isa.md §4.18): per-lane 4x4 f32 fragments, local memory.
      case uint16_t(Opcode::MmaLoadA):
      case uint16_t(Opcode::MmaLoadB): {
        unsigned Tab = I.Op == uint16_t(Opcode::MmaLoadA) ? 0 : 1;
        int32_t &Slot = Wv.Frag[Tab][I.Rd];
        if (Slot < 0 && Exec) {
          Slot = int32_t(Wv.FragPool.size());
          Wv.FragPool.resize(Wv.FragPool.size() + 16 * W, 0.0f);
        }
        const uint32_t *Ap = R + I.A, *Sp = R + I.B;
        FORLANES(Exec) {
          float *Fr = Wv.FragPool.data() + Slot;
          for (unsigned Row = 0; Row != 4; ++Row)
            for (unsigned Col = 0; Col != 4; ++Col) {
              uint64_t Addr = uint32_t(Ap[L] + Row * Sp[L] + 4 * Col);
              if constexpr (Checked)
                E.Chk->accessLane({ExecIdx, I.PC, Pick}, L, Addr, 4,
                                  AccessKind::Read, true);
              if (Addr + 4 > LocSize)
                return memFault(Wv, I, int(L), true, Addr, 4);
              uint32_t V;
              std::memcpy(&V, Loc + Addr, 4);
              Fr[(Row * 4 + Col) * W + L] = F(V);
            }
        }
        break;
      }
      case uint16_t(Opcode::MmaCompute): {
        if (!Exec)
          break;
        int32_t &CSlot = Wv.Frag[2][I.Rs2];
        if (CSlot < 0) {
          CSlot = int32_t(Wv.FragPool.size());
          Wv.FragPool.resize(Wv.FragPool.size() + 16 * W, 0.0f);
        }
        int32_t ASlot = Wv.Frag[0][I.Rd], BSlot = Wv.Frag[1][I.Rs1];
        float *Pool = Wv.FragPool.data();
        const float *Af = ASlot < 0 ? ZeroFrag.data() : Pool + ASlot;
        const float *Bf = BSlot < 0 ? ZeroFrag.data() : Pool + BSlot;
        float *Cf = Pool + CSlot;
        FORLANES(Exec) {
          for (unsigned Row = 0; Row != 4; ++Row)
            for (unsigned Col = 0; Col != 4; ++Col) {
              float Acc = Cf[(Row * 4 + Col) * W + L];
              for (unsigned K = 0; K != 4; ++K) {
                float Prod =
                    Af[(Row * 4 + K) * W + L] * Bf[(K * 4 + Col) * W + L];
                Acc = Acc + Prod;
              }
              Cf[(Row * 4 + Col) * W + L] = Acc;
            }
        }
        break;
      }
      case uint16_t(Opcode::MmaStoreC): {
        int32_t CSlot = Wv.Frag[2][I.Rs2];
        const float *Cf =
            CSlot < 0 ? ZeroFrag.data() : Wv.FragPool.data() + CSlot;
        const uint32_t *Ap = R + RRow[I.Rd], *Sp = R + I.A;
        FORLANES(Exec) {
          for (unsigned Row = 0; Row != 4; ++Row)
            for (unsigned Col = 0; Col != 4; ++Col) {
              uint64_t Addr = uint32_t(Ap[L] + Row * Sp[L] + 4 * Col);
              if constexpr (Checked)
                E.Chk->accessLane({ExecIdx, I.PC, Pick}, L, Addr, 4,
                                  AccessKind::Write, true);
              if (Addr + 4 > LocSize)
                return memFault(Wv, I, int(L), true, Addr, 4);
              uint32_t V = U(Cf[(Row * 4 + Col) * W + L]);
              std::memcpy(Loc + Addr, &V, 4);
            }
        }
        break;
      }

      case uint16_t(Opcode::MovSr): {
        uint32_t *Dp = R + I.D;
        unsigned Idx = I.Imm;
        uint32_t Uniform = 0;
        const uint32_t *PerLane = nullptr;
        switch (Idx) {
        case 0:
        case 1:
        case 2:
          PerLane = Wv.Tid[Idx].data();
          break;
        case 3:
          Uniform = Wv.Id;
          break;
        case 5:
        case 6:
        case 7:
          Uniform = WgId[Idx - 5];
          break;
        case 8:
        case 9:
        case 10:
          Uniform = WG[Idx - 8];
          break;
        case 11:
        case 12:
        case 13:
          Uniform = Cfg.Grid[Idx - 11];
          break;
        case 14:
          Uniform = W;
          break;
        case 15:
          Uniform = NumWaves;
          break;
        case 16:
          Uniform = 1;
          break;
        case 17:
        case 18:
        case 19:
          Uniform = 4;
          break;
        default:
          break;
        }
        FORLANES(Exec) Dp[L] = Idx == 4 ? L : PerLane ? PerLane[L] : Uniform;
        break;
      }

      case OpInvalid:
        --Counts[I.Op];
        return fault(Wv, I, -1, "invalid instruction",
                     InvalidReason[ExecIdx].c_str());
      case OpEnd:
      default:
        --Counts[I.Op];
        return pastEndFault(Wv, I);
      }
      if (Wv.St != WaveStatus::Halted)
        Wv.PC = Next;
      if (GroupWaves > 1) {
        for (unsigned K = 1; K != NW; ++K)
          Waves[K].PC = Next;
        Steps += NW - 1;
        Cursor = NW - 1;
      }
    }
    if (Steps >= NextCheck) {
      Check C = checkpoint(Steps, Prog[ExecIdx], NextCheck);
      if (C == Check::Stop)
        return false;
      if constexpr (M == MemMode::Speculative) {
        if (C == Check::Promote) {
          Resume = {Steps, Cursor, NumHalted, NumBarrier};
          Promoting = true;
          return true;
        }
      }
    }
  }
}

#undef ALU
#undef FALU
#undef CMP
#undef FORLANES

// The hot loop, compiled for AVX2+FMA and for the baseline; the dynamic
// loader picks one (ifunc). Semantics do not depend on the choice.
#if defined(__clang__) && defined(__x86_64__) && defined(__linux__) &&         \
    !defined(WAVE_EMU_NO_MULTIVERSION)
#define WAVE_EMU_CLONES                                                        \
  __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define WAVE_EMU_CLONES
#endif

WAVE_EMU_CLONES static bool runDirect(WorkgroupRunner &R) {
  return R.runLoop<false, MemMode::Direct>();
}
WAVE_EMU_CLONES static bool runMarked(WorkgroupRunner &R) {
  return R.runLoop<false, MemMode::Marked>();
}
WAVE_EMU_CLONES static bool runSpeculative(WorkgroupRunner &R) {
  return R.runLoop<false, MemMode::Speculative>();
}
// wave-run --check: sequential, direct, with the checkers' hooks.
WAVE_EMU_CLONES static bool runChecked(WorkgroupRunner &R) {
  return R.runLoop<false, MemMode::Direct, true>();
}
[[gnu::noinline]] static bool runCheckedTrace(WorkgroupRunner &R) {
  return R.runLoop<true, MemMode::Direct, true>();
}

void WorkgroupRunner::checkRelease() {
  std::vector<uint32_t> WaitIdx(NumWaves);
  for (unsigned K = 0; K != NumWaves; ++K)
    WaitIdx[K] =
        Waves[K].St == WaveStatus::Barrier ? Waves[K].PC : UINT32_MAX;
  E.Chk->release(WaitIdx);
}

void WorkgroupRunner::begin(MemMode M) {
  Fault.reset();
  Stats = EmuStats();
  std::fill(std::begin(OpCount), std::end(OpCount), 0);
  Mode = M;
  Promoted = Promoting = false;
  if (M == MemMode::Speculative)
    Spec.begin(E.Device.data(), E.Device.size());
}

void WorkgroupRunner::promote() {
  // Every older workgroup has committed and the reads so far are valid:
  // publish the stores so far and go on directly.
  Spec.commit(E.Device.data(), WriteTick, Tick);
  Mode = MemMode::Marked;
  Promoted = true;
}

bool WorkgroupRunner::runWorkgroup(std::array<uint32_t, 3> Id) {
  WgId = Id;
  Resume = {0, NumWaves - 1, 0, 0};
  if (Mode == MemMode::Speculative &&
      Committed->load(std::memory_order_acquire) == Group) {
    if (!Spec.valid(WriteTick, StartTick))
      return Spec.abandon();
    promote();
  }
  initWorkgroup();
  Stats.Waves += NumWaves;
  ++Stats.Workgroups;
  if (E.Chk) {
    E.Chk->beginWorkgroup(
        Id, Id[0] + uint64_t(Cfg.Grid[0]) * (Id[1] + uint64_t(Cfg.Grid[1]) * Id[2]));
    return Trace ? runCheckedTrace(*this) : runChecked(*this);
  }
  if (Trace)
    return runLoop<true, MemMode::Direct>();
  switch (Mode) {
  case MemMode::Direct:
    return runDirect(*this);
  case MemMode::Marked:
    return runMarked(*this);
  case MemMode::Speculative:
    break;
  }
  if (!runSpeculative(*this))
    return false;
  if (!Promoting)
    return true;
  Promoting = false;
  promote();
  return runMarked(*this);
}

uint64_t WorkgroupRunner::nextCheck(uint64_t Steps) const {
  uint64_t Limit = Cfg.MaxInstructions;
  uint64_t Next = Limit ? Limit + 1 : UINT64_MAX;
  if (Mode == MemMode::Speculative)
    Next = std::min(Next, Steps + CheckInterval);
  return Next;
}

WorkgroupRunner::Check WorkgroupRunner::checkpoint(uint64_t Steps,
                                                   const DInst &I,
                                                   uint64_t &NextCheck) {
  uint64_t Limit = Cfg.MaxInstructions;
  if (Limit && Steps > Limit) {
    limitFault(Steps, I);
    return Check::Stop;
  }
  if (Mode == MemMode::Speculative) {
    // A run whose result is no longer wanted, or that already read stale
    // memory, stops here rather than running on (it may spin on a flag an
    // older workgroup has set in the meantime). One that has become the
    // oldest, with valid reads, goes on directly.
    if (Cancel->load(std::memory_order_relaxed)) {
      Spec.abandon();
      return Check::Stop;
    }
    bool Oldest = Committed->load(std::memory_order_acquire) == Group;
    if (!Spec.valid(WriteTick, StartTick)) {
      Spec.abandon();
      return Check::Stop;
    }
    if (Oldest)
      return Check::Promote;
  }
  NextCheck = nextCheck(Steps);
  return Check::Continue;
}

} // namespace wave::emu
