//===- LaneMemory.h - Lane loads and stores of the loop ---------*- C++ -*-===//
//
// Private to Interpreter.cpp, the only file that includes it: a load or a
// store of one wave, lane by lane or as blocks of 8 lanes, on device or
// local memory directly or (a speculative run) through a SpeculativeMemory.
// The helpers are always_inline (or small inline) functions with internal
// linkage, so that each instantiation of the execution loop, in each of its
// multiversioned clones, compiles them in place for its target.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_LIB_EMU_LANEMEMORY_H
#define WAVE_LIB_EMU_LANEMEMORY_H

#include "Speculation.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>

namespace wave::emu {

namespace {

/// The largest of the \p W lane values at \p Ap (a vectorized loop).
inline uint32_t maxLane(const uint32_t *Ap, unsigned W) {
  uint32_t Max = 0;
  for (unsigned L = 0; L != W; ++L)
    Max = std::max(Max, Ap[L]);
  return Max;
}

/// The smallest (\p Min) and the largest (\p Max) of the \p W lane values
/// at \p Ap (one vectorized loop).
inline void minMaxLane(const uint32_t *Ap, unsigned W, uint32_t &Min,
                       uint32_t &Max) {
  uint32_t Lo = ~0u, Hi = 0;
  for (unsigned L = 0; L != W; ++L) {
    Lo = std::min(Lo, Ap[L]);
    Hi = std::max(Hi, Ap[L]);
  }
  Min = Lo;
  Max = Hi;
}

/// Loads N bytes for each of the \p W lanes from Mem + Ap[lane] into rd
/// (and the following registers for N > 4), without bounds checks: the
/// caller has checked every address. Runs of 8 lanes that read one address
/// (a broadcast) or consecutive N-byte elements (a coalesced access, the
/// common GPU pattern) load as one block; other runs load lane by lane.
template <unsigned N>
[[gnu::always_inline]] inline void gatherLanes(uint32_t *R,
                                               const uint32_t *WRow,
                                               uint8_t Rd, const uint32_t *Ap,
                                               unsigned W,
                                               const uint8_t *Mem) {
  constexpr unsigned NR = N < 4 ? 1 : N / 4; // registers written
  uint32_t *Dp[NR];
  for (unsigned K = 0; K != NR; ++K)
    Dp[K] = R + WRow[(Rd + K) & 255];
  auto LoadLane = [&](unsigned L, uint32_t Addr) {
    uint32_t V[NR] = {};
    std::memcpy(V, Mem + Addr, N);
    for (unsigned K = 0; K != NR; ++K)
      Dp[K][L] = V[K];
  };
  unsigned L0 = 0;
  for (; L0 + 8 <= W; L0 += 8) {
    // Copy the addresses first: rd may be the address register.
    uint32_t A[8];
    std::memcpy(A, Ap + L0, sizeof(A));
    bool Same = true, Seq = true;
    for (unsigned K = 0; K != 8; ++K) {
      Same &= A[K] == A[0];
      Seq &= A[K] == A[0] + K * N;
    }
    if (Same) {
      uint32_t V[NR] = {};
      std::memcpy(V, Mem + A[0], N);
      for (unsigned K = 0; K != NR; ++K)
        for (unsigned J = 0; J != 8; ++J)
          Dp[K][L0 + J] = V[K];
    } else if (Seq) {
      uint32_t V[8][NR] = {};
      for (unsigned J = 0; J != 8; ++J)
        std::memcpy(V[J], Mem + A[0] + J * N, N);
      for (unsigned K = 0; K != NR; ++K)
        for (unsigned J = 0; J != 8; ++J)
          Dp[K][L0 + J] = V[J][K];
    } else {
      for (unsigned J = 0; J != 8; ++J)
        LoadLane(L0 + J, A[J]);
    }
  }
  for (; L0 != W; ++L0)
    LoadLane(L0, Ap[L0]);
}

/// Loads N bytes for every lane in Exec (ascending) from Mem into rd (and
/// the following registers for N > 4). Returns the first lane whose access
/// is out of bounds, or -1. N is a constant so memcpy becomes a move.
template <unsigned N>
[[gnu::always_inline]] inline int
loadLanes(uint32_t *R, const uint32_t *WRow, uint8_t Rd, const uint32_t *Ap,
          uint64_t Exec, uint64_t Full, unsigned W, const uint8_t *Mem,
          uint64_t Size) {
  if (Exec == Full) {
    // Whole wave: one vectorized bounds check, then a branch-free gather.
    if (uint64_t(maxLane(Ap, W)) + N <= Size) {
      gatherLanes<N>(R, WRow, Rd, Ap, W, Mem);
      return -1;
    }
  }
  for (uint64_t Rem = Exec; Rem; Rem &= Rem - 1) {
    unsigned L = unsigned(std::countr_zero(Rem));
    uint64_t Addr = Ap[L];
    if (Addr + N > Size)
      return int(L);
    if constexpr (N <= 4) {
      uint32_t V = 0;
      std::memcpy(&V, Mem + Addr, N);
      R[WRow[Rd] + L] = V;
    } else {
      uint32_t V[N / 4];
      std::memcpy(V, Mem + Addr, N);
      for (unsigned K = 0; K != N / 4; ++K)
        R[WRow[(Rd + K) & 255] + L] = V[K];
    }
  }
  return -1;
}

/// Stores N bytes of rval (and following registers for N > 4) for every
/// lane in Exec, ascending. Returns the first failing lane, or -1.
template <unsigned N>
[[gnu::always_inline]] inline int storeLanes(const uint32_t *R, const uint32_t *RRow, uint8_t Rv,
                      const uint32_t *Ap, uint64_t Exec, uint8_t *Mem,
                      uint64_t Size) {
  for (uint64_t Rem = Exec; Rem; Rem &= Rem - 1) {
    unsigned L = unsigned(std::countr_zero(Rem));
    uint64_t Addr = Ap[L];
    if (Addr + N > Size)
      return int(L);
    if constexpr (N <= 4) {
      uint32_t V = R[RRow[Rv] + L];
      std::memcpy(Mem + Addr, &V, N);
    } else {
      uint32_t V[N / 4];
      for (unsigned K = 0; K != N / 4; ++K)
        V[K] = R[RRow[(Rv + K) & 255] + L];
      std::memcpy(Mem + Addr, V, N);
    }
  }
  return -1;
}

/// speculativeLoadLanes/StoreLanes result: the run gave up (Speculation.h).
constexpr int GaveUpLane = SpeculativeMemory::GaveUpLane;

/// loadLanes for device memory seen through \p S: returns the first lane
/// out of bounds, GaveUpLane, or -1.
template <unsigned N>
[[gnu::always_inline]] inline int
speculativeLoadLanes(SpeculativeMemory &S, uint32_t *R, const uint32_t *WRow,
                     uint8_t Rd, const uint32_t *Ap, uint64_t Exec,
                     uint64_t Full, unsigned W, const uint8_t *Mem,
                     uint64_t Size) {
  // Record every lane's read first; when none touches this run's own
  // stores, the loads are the plain gather from committed memory.
  if (Exec == Full) {
    uint32_t Lo, Hi;
    minMaxLane(Ap, W, Lo, Hi);
    if (uint64_t(Hi) + N <= Size) {
      // Whole wave within two neighbouring granules (a coalesced access):
      // the lowest and the highest lane touch both, so they are the ones
      // to record.
      uint64_t GLo = Lo >> GranuleLog,
               GHi = (uint64_t(Hi) + N - 1) >> GranuleLog;
      if (GHi - GLo <= 1) {
        SpeculativeMemory::ReadKind K = S.prepareRead(GLo << GranuleLog, 1);
        if (K == SpeculativeMemory::ReadKind::Plain && GHi != GLo)
          K = S.prepareRead(GHi << GranuleLog, 1);
        if (K == SpeculativeMemory::ReadKind::GaveUp)
          return GaveUpLane;
        if (K == SpeculativeMemory::ReadKind::Plain) {
          gatherLanes<N>(R, WRow, Rd, Ap, W, Mem); // bounds checked above
          return -1;
        }
      }
      // Or every lane within the granule of the first or of the last lane,
      // apart (a wave of a GEMM reading two rows): those two.
      uint32_t GFirst = Ap[0] >> GranuleLog, GLast = Ap[W - 1] >> GranuleLog;
      bool InFirstOrLast = true;
      for (unsigned L = 0; L != W; ++L) {
        uint32_t A = Ap[L], G = A >> GranuleLog;
        InFirstOrLast &= ((G == GFirst) | (G == GLast)) &
                         ((A & (GranuleSize - 1)) + N <= GranuleSize);
      }
      if (InFirstOrLast) {
        SpeculativeMemory::ReadKind K =
            S.prepareRead(uint64_t(GFirst) << GranuleLog, 1);
        if (K == SpeculativeMemory::ReadKind::Plain)
          K = S.prepareRead(uint64_t(GLast) << GranuleLog, 1);
        if (K == SpeculativeMemory::ReadKind::GaveUp)
          return GaveUpLane;
        if (K == SpeculativeMemory::ReadKind::Plain) {
          gatherLanes<N>(R, WRow, Rd, Ap, W, Mem); // bounds checked above
          return -1;
        }
      }
      // Otherwise find the lanes that start a granule (vectorized), so that
      // only those are looked up.
      uint64_t Starts = 1;
      for (unsigned L0 = 0; L0 < W; L0 += 8) {
        uint32_t Chunk = 0;
        for (unsigned K = 0; K != 8; ++K) {
          unsigned L = L0 + K;
          uint32_t A = Ap[L], P = L ? Ap[L - 1] : ~A;
          Chunk |= uint32_t(((A ^ P) >> GranuleLog) != 0 ||
                            (A & (GranuleSize - 1)) + N > GranuleSize)
                   << K;
        }
        Starts |= uint64_t(Chunk) << L0;
      }
      Starts &= Full;
      bool Plain = true;
      for (; Starts; Starts &= Starts - 1) {
        SpeculativeMemory::ReadKind K =
            S.prepareRead(Ap[std::countr_zero(Starts)], N);
        if (K == SpeculativeMemory::ReadKind::GaveUp)
          return GaveUpLane;
        Plain &= K == SpeculativeMemory::ReadKind::Plain;
      }
      if (Plain) {
        gatherLanes<N>(R, WRow, Rd, Ap, W, Mem); // bounds checked above
        return -1;
      }
    }
  }
  // Neighbouring lanes mostly read the same granule: check it once.
  bool Plain = true;
  uint64_t Prev = ~uint64_t(0);
  for (uint64_t Rem = Exec; Rem; Rem &= Rem - 1) {
    unsigned L = unsigned(std::countr_zero(Rem));
    uint64_t Addr = Ap[L];
    if (Addr + N > Size)
      return int(L);
    if ((Addr >> GranuleLog) == Prev &&
        (Addr & (GranuleSize - 1)) + N <= GranuleSize)
      continue;
    Prev = Addr >> GranuleLog;
    SpeculativeMemory::ReadKind K = S.prepareRead(Addr, N);
    if (K == SpeculativeMemory::ReadKind::GaveUp)
      return GaveUpLane;
    Plain &= K == SpeculativeMemory::ReadKind::Plain;
  }
  if (Plain)
    return loadLanes<N>(R, WRow, Rd, Ap, Exec, Full, W, Mem, Size);
  for (uint64_t Rem = Exec; Rem; Rem &= Rem - 1) {
    unsigned L = unsigned(std::countr_zero(Rem));
    uint64_t Addr = Ap[L];
    uint32_t V[(N + 3) / 4] = {};
    if (!S.read(Addr, N, reinterpret_cast<uint8_t *>(V)))
      return GaveUpLane;
    for (unsigned K = 0; K != (N + 3) / 4; ++K)
      R[WRow[(Rd + K) & 255] + L] = V[K];
  }
  return -1;
}

/// storeLanes for device memory seen through \p S.
template <unsigned N>
[[gnu::always_inline]] inline int
speculativeStoreLanes(SpeculativeMemory &S, const uint32_t *R,
                      const uint32_t *RRow, uint8_t Rv, const uint32_t *Ap,
                      uint64_t Exec, uint64_t Size) {
  for (uint64_t Rem = Exec; Rem; Rem &= Rem - 1) {
    unsigned L = unsigned(std::countr_zero(Rem));
    uint64_t Addr = Ap[L];
    if (Addr + N > Size)
      return int(L);
    uint32_t V[(N + 3) / 4];
    for (unsigned K = 0; K != (N + 3) / 4; ++K)
      V[K] = R[RRow[(Rv + K) & 255] + L];
    if (!S.write(Addr, N, reinterpret_cast<const uint8_t *>(V)))
      return GaveUpLane;
  }
  return -1;
}

/// Stamps the granules written by an N-byte store of every lane in \p Exec
/// (the in-bounds ones) with \p Tick.
inline void markLanes(uint32_t *WriteTick, uint32_t Tick, const uint32_t *Ap,
                      uint64_t Exec, unsigned N, uint64_t Size) {
  for (uint64_t Rem = Exec; Rem; Rem &= Rem - 1) {
    uint64_t Addr = Ap[std::countr_zero(Rem)];
    if (Addr + N <= Size) {
      __atomic_store_n(&WriteTick[Addr >> GranuleLog], Tick, __ATOMIC_RELAXED);
      __atomic_store_n(&WriteTick[(Addr + N - 1) >> GranuleLog], Tick,
                       __ATOMIC_RELAXED);
    }
  }
}


} // namespace

} // namespace wave::emu

#endif // WAVE_LIB_EMU_LANEMEMORY_H
