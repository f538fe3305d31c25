//===- Checks.cpp - wave-run --check: memcheck, racecheck, initcheck, ... -===//
//
// The checkers of Checks.h / Checker.h. Each hook looks at one wave's
// access (or barrier) before the emulator performs it and prints at most
// one report per checker for it, naming the first offending lane and how
// many others there are: a wave that reads 32 uninitialised words is one
// finding, not 32. Reports read
//
//   <prefix>: <checker>: kernel 'K': <what> at pc 0xPPPP (<instruction>),
//       workgroup (x,y,z) wave W lane L[ (at FILE:LINE:COL)]: <details>
//
// on one line. The rules:
//
//   * memcheck. With named-launch buffers, an access of device memory must
//     lie entirely inside one buffer: a byte in a guard gap, outside every
//     buffer or past device memory, or an access straddling two buffers, is
//     reported with the buffer nearest the address and the element index
//     (negative before the buffer). Without buffers (an OFFSET:FILE launch)
//     only device memory's end is checked. A local access must lie inside
//     the kernel's local memory (formats/isa.md §4.12). The emulator still
//     faults where it always did (outside device or local memory).
//   * initcheck. Device bytes are initialised by --fill-zero, --fill-iota,
//     --arg and kernel writes; local bytes by a write of the same workgroup
//     (the emulator's zero fill, D39, does not count). Plain and atomic reads
//     of other bytes are reported.
//   * racecheck. The unit of concurrency is the wave: the lanes of a wave
//     execute each instruction together and in lane order (formats/isa.md
//     §4.3), so only accesses of different waves can race. Local memory:
//     two accesses of one byte by different waves of a workgroup in the
//     same barrier phase, at least one a plain write (two atomics never
//     race). Device memory: a plain write and a read or write of the same
//     4-byte word by different workgroups of the launch (atomics with
//     atomics never race), since workgroups may run in any order and at the
//     same time on a GPU.
//   * synccheck. `barrier` executed with some, but not all, present lanes
//     of the wave active (divergent control flow; spec §6.12 forbids it,
//     D28 lets it count). A wave with no lane active is not divergent: its
//     lanes all left a loop or skipped a branch together, and the rest of
//     the loop body runs with an empty mask until `endloop` (a counted loop
//     with barriers does this after its last iteration). Waves released from different barrier instructions, and a
//     barrier some waves never reach because they halted (without synccheck
//     the deadlock error of formats/isa.md §4.17; with it, a report, and the
//     waiting waves are released so that the run goes on).
//
//===----------------------------------------------------------------------===//
#include "Checker.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"

#include <algorithm>
#include <bit>

using namespace llvm;

namespace wave::emu {

static const char *const KindNames[NumCheckKinds] = {"memcheck", "racecheck",
                                                     "initcheck", "synccheck"};

StringRef checkKindName(CheckKind K) {
  return KindNames[std::countr_zero(unsigned(K)) & 3];
}

Expected<unsigned> parseCheckKinds(StringRef Text) {
  if (Text.empty())
    return unsigned(CheckAll);
  unsigned Mask = 0;
  SmallVector<StringRef, 4> Parts;
  Text.split(Parts, ',');
  for (StringRef P : Parts) {
    if (P == "all") {
      Mask |= CheckAll;
      continue;
    }
    unsigned K = 0;
    for (unsigned I = 0; I != NumCheckKinds; ++I)
      if (P == KindNames[I])
        K = 1u << I;
    if (!K)
      return createStringError(
          inconvertibleErrorCode(),
          "invalid --check value '%s': expected a comma-separated list of "
          "memcheck, racecheck, initcheck, synccheck or all",
          P.str().c_str());
    Mask |= K;
  }
  return Mask;
}

Checker::Checker(const CheckOptions &Opts, ArrayRef<CheckBuffer> Bufs,
                 raw_ostream &OS, const WbinFile &File, uint32_t CodeOffset,
                 std::string KernelName,
                 std::function<std::string(uint32_t)> InstText,
                 std::function<uint32_t(uint32_t)> PCOf, uint64_t DeviceSize, uint32_t LocalSize, unsigned W,
                 std::array<uint32_t, 3> Grid)
    : Opts(Opts), Buffers(Bufs.begin(), Bufs.end()), OS(OS), File(File),
      CodeOffset(CodeOffset), Name(std::move(KernelName)),
      InstText(std::move(InstText)), PCOf(std::move(PCOf)), DeviceSize(DeviceSize),
      LocalSize(LocalSize), W(W),
      Full(W == 64 ? ~uint64_t(0) : (uint64_t(1) << W) - 1), Grid(Grid) {
  llvm::sort(Buffers, [](const CheckBuffer &A, const CheckBuffer &B) {
    return A.Offset < B.Offset;
  });
  if (has(CheckInit)) {
    DevInit.assign(DeviceSize, 0);
    LocalInit.assign(LocalSize, 0);
  }
  if (has(CheckRace)) {
    LocalRace.assign(LocalSize, Race());
    DeviceRace.assign((DeviceSize + 3) / 4, DevRace());
  }
}

void Checker::markDevice(uint64_t Offset, uint64_t Size) {
  if (DevInit.empty() || Offset >= DevInit.size())
    return;
  Size = std::min<uint64_t>(Size, DevInit.size() - Offset);
  std::fill_n(DevInit.begin() + Offset, Size, 1);
}

void Checker::beginWorkgroup(std::array<uint32_t, 3> Id, uint64_t Linear) {
  WgId = Id;
  Group = uint32_t(Linear + 1);
  ++Epoch;
}

//===----------------------------------------------------------------------===//
// Reports
//===----------------------------------------------------------------------===//

bool Checker::begin(CheckKind K) {
  uint64_t &N = Counts.Found[std::countr_zero(unsigned(K))];
  ++N;
  if (Opts.Limit && N > Opts.Limit)
    return false;
  OS << Opts.Prefix << ": " << checkKindName(K) << ": kernel '" << Name
     << "': ";
  return true;
}

void Checker::site(uint32_t Idx) {
  uint32_t PC = PCOf(Idx);
  OS << "pc " << format("0x%04x", PC) << " (" << InstText(Idx) << ")";
  if (const WbinLine *L = File.lineFor(CodeOffset + PC)) {
    OS << " at " << File.SourceFiles[L->File] << ':' << L->Line;
    if (L->Column)
      OS << ':' << L->Column;
  }
}

void Checker::where(uint32_t Idx, unsigned Wave, int Lane) {
  OS << " at ";
  site(Idx);
  OS << ", workgroup (" << WgId[0] << ',' << WgId[1] << ',' << WgId[2]
     << ") wave " << Wave;
  if (Lane >= 0)
    OS << " lane " << Lane;
}

void Checker::groupOf(uint32_t G) {
  uint64_t L = G - 1, X = Grid[0], Y = Grid[1];
  OS << "workgroup (" << L % X << ',' << L / X % Y << ',' << L / X / Y << ")";
}

const CheckBuffer *Checker::bufferAt(uint64_t Addr) const {
  auto It = llvm::upper_bound(Buffers, Addr,
                              [](uint64_t A, const CheckBuffer &B) {
                                return A < B.Offset;
                              });
  if (It == Buffers.begin())
    return nullptr;
  const CheckBuffer &B = *std::prev(It);
  return Addr < B.Offset + B.Size ? &B : nullptr;
}

bool Checker::badDevice(uint64_t Addr, unsigned N) const {
  if (Buffers.empty())
    return Addr + N > DeviceSize;
  const CheckBuffer *B = bufferAt(Addr);
  return !B || Addr + N > B->Offset + B->Size;
}

static void describeBuffer(raw_ostream &OS, const CheckBuffer &B) {
  OS << "buffer '" << B.Name << "' (" << B.Size / B.ElemSize << ' '
     << B.TypeName << (B.Size / B.ElemSize == 1 ? " element" : " elements")
     << " at " << format("0x%08llx", (unsigned long long)B.Offset) << ")";
}

void Checker::describeDevice(uint64_t Addr, unsigned N) {
  OS << "address " << format("0x%08llx", (unsigned long long)Addr);
  if (Buffers.empty()) {
    OS << " is outside device memory (" << DeviceSize << " bytes)";
    return;
  }
  if (const CheckBuffer *B = bufferAt(Addr)) {
    uint64_t End = B->Offset + B->Size;
    OS << " is element " << (Addr - B->Offset) / B->ElemSize << " of ";
    describeBuffer(OS, *B);
    OS << ", and the access runs " << Addr + N - End << " bytes past its end";
    return;
  }
  // Between buffers: name the nearer one (an overrun of the one before, or
  // an underrun of the one after).
  auto Next = llvm::upper_bound(Buffers, Addr,
                                [](uint64_t A, const CheckBuffer &B) {
                                  return A < B.Offset;
                                });
  const CheckBuffer *Prev = Next == Buffers.begin() ? nullptr : &*(Next - 1);
  const CheckBuffer *After = Next == Buffers.end() ? nullptr : &*Next;
  uint64_t DPrev = Prev ? Addr - (Prev->Offset + Prev->Size) : UINT64_MAX;
  uint64_t DNext = After ? After->Offset - Addr : UINT64_MAX;
  if (Prev && DPrev <= DNext) {
    OS << " is " << DPrev << " bytes past the end of ";
    describeBuffer(OS, *Prev);
    OS << ": element " << (Addr - Prev->Offset) / Prev->ElemSize;
  } else {
    OS << " is " << DNext << " bytes before ";
    describeBuffer(OS, *After);
    OS << ": element -" << (DNext + After->ElemSize - 1) / After->ElemSize;
  }
  if (Addr + N > DeviceSize)
    OS << ", outside device memory (" << DeviceSize << " bytes)";
}

static const char *accessName(AccessKind K) {
  switch (K) {
  case AccessKind::Read:
    return "read";
  case AccessKind::Write:
    return "write";
  case AccessKind::Atomic:
    return "atomic";
  }
  return "access";
}

static void moreLanes(raw_ostream &OS, unsigned Bad) {
  if (Bad > 1)
    OS << " (and " << Bad - 1 << (Bad == 2 ? " more lane)" : " more lanes)");
}

//===----------------------------------------------------------------------===//
// memcheck
//===----------------------------------------------------------------------===//

void Checker::memcheck(const CheckSite &S, const uint32_t *Ap, uint64_t Exec,
                       unsigned N, AccessKind K, bool IsLocal) {
  if (!IsLocal && !Buffers.empty()) {
    // The common case: every lane inside the buffer of the lowest address.
    uint32_t Lo = UINT32_MAX, Hi = 0;
    if (Exec == Full) {
      for (unsigned L = 0; L != W; ++L) { // vectorized
        Lo = std::min(Lo, Ap[L]);
        Hi = std::max(Hi, Ap[L]);
      }
    } else {
      for (uint64_t Rem = Exec; Rem; Rem &= Rem - 1) {
        uint32_t A = Ap[std::countr_zero(Rem)];
        Lo = std::min(Lo, A);
        Hi = std::max(Hi, A);
      }
    }
    if (const CheckBuffer *B = bufferAt(Lo))
      if (uint64_t(Hi) + N <= B->Offset + B->Size)
        return;
  }
  int First = -1;
  unsigned Bad = 0;
  for (uint64_t Rem = Exec; Rem; Rem &= Rem - 1) {
    unsigned L = unsigned(std::countr_zero(Rem));
    uint64_t A = Ap[L];
    bool B = IsLocal ? A + N > LocalSize : badDevice(A, N);
    if (B) {
      if (First < 0)
        First = int(L);
      ++Bad;
    }
  }
  if (!Bad || !begin(CheckMem))
    return;
  uint64_t A = Ap[First];
  OS << "invalid " << (IsLocal ? "local " : "device ") << accessName(K)
     << " of " << N << (N == 1 ? " byte" : " bytes");
  where(S.Idx, S.Wave, First);
  OS << ": ";
  if (IsLocal)
    OS << "address " << format("0x%08llx", (unsigned long long)A)
       << " is outside the kernel's local memory (" << LocalSize
       << " bytes)";
  else
    describeDevice(A, N);
  moreLanes(OS, Bad);
  OS << "\n";
}

//===----------------------------------------------------------------------===//
// initcheck
//===----------------------------------------------------------------------===//

void Checker::initcheck(const CheckSite &S, const uint32_t *Ap, uint64_t Exec,
                        unsigned N, AccessKind K, bool IsLocal) {
  uint64_t Size = IsLocal ? LocalSize : DeviceSize;
  if (K != AccessKind::Write) {
    int First = -1;
    unsigned Bad = 0;
    for (uint64_t Rem = Exec; Rem; Rem &= Rem - 1) {
      unsigned L = unsigned(std::countr_zero(Rem));
      uint64_t A = Ap[L];
      if (A + N > Size)
        continue; // memcheck's, and a fault
      bool Init = true;
      for (unsigned I = 0; I != N; ++I)
        Init &= IsLocal ? LocalInit[A + I] == Group : DevInit[A + I] != 0;
      if (!Init) {
        if (First < 0)
          First = int(L);
        ++Bad;
      }
    }
    if (Bad && begin(CheckInit)) {
      uint64_t A = Ap[First];
      OS << (K == AccessKind::Atomic ? "atomic on" : "read of")
         << " uninitialised " << (IsLocal ? "local" : "device") << " memory";
      where(S.Idx, S.Wave, First);
      OS << ": " << N << (N == 1 ? " byte" : " bytes") << " at "
         << format("0x%08llx", (unsigned long long)A);
      if (!IsLocal)
        if (const CheckBuffer *B = bufferAt(A)) {
          OS << ", element " << (A - B->Offset) / B->ElemSize << " of ";
          describeBuffer(OS, *B);
        }
      if (IsLocal)
        OS << ", not written by this workgroup";
      else
        OS << ", not written by a fill, an argument or the kernel";
      moreLanes(OS, Bad);
      OS << "\n";
    }
  }
  if (K == AccessKind::Read)
    return;
  for (uint64_t Rem = Exec; Rem; Rem &= Rem - 1) {
    uint64_t A = Ap[std::countr_zero(Rem)];
    if (A + N > Size)
      continue;
    if (IsLocal)
      std::fill_n(LocalInit.begin() + A, N, Group);
    else
      std::fill_n(DevInit.begin() + A, N, 1);
  }
}

//===----------------------------------------------------------------------===//
// racecheck
//===----------------------------------------------------------------------===//

void Checker::racecheck(const CheckSite &S, const uint32_t *Ap, uint64_t Exec,
                        unsigned N, AccessKind K, bool IsLocal) {
  bool Reported = false;
  auto Hazard = [&](const char *Kind, unsigned Lane, uint64_t Addr) {
    Reported = true;
    if (!begin(CheckRace))
      return false;
    OS << (IsLocal ? "local" : "device") << " memory hazard (" << Kind
       << ") on " << (IsLocal ? "byte " : "word ")
       << format("0x%08llx", (unsigned long long)Addr) << ": "
       << accessName(K);
    where(S.Idx, S.Wave, int(Lane));
    return true;
  };
  const uint16_t Wv = uint16_t(S.Wave);
  for (uint64_t Rem = Exec; Rem; Rem &= Rem - 1) {
    unsigned L = unsigned(std::countr_zero(Rem));
    uint64_t A = Ap[L];
    if (IsLocal) {
      if (A + N > LocalSize)
        continue;
      for (uint64_t B = A; B != A + N; ++B) {
        Race &C = LocalRace[B];
        if (!Reported) {
          bool WNow = C.WEpoch == Epoch && C.WWave != Wv;
          bool RNow = C.REpoch == Epoch && (C.RWave != Wv || C.RMulti);
          if (K != AccessKind::Write && WNow) {
            if (Hazard("read after write", L, B)) {
              OS << "; write at ";
              site(C.WIdx);
              OS << " by wave " << C.WWave << " lane " << unsigned(C.WLane)
                 << ", with no barrier between\n";
            }
          } else if (K == AccessKind::Write && WNow) {
            if (Hazard("write after write", L, B)) {
              OS << "; write at ";
              site(C.WIdx);
              OS << " by wave " << C.WWave << " lane " << unsigned(C.WLane)
                 << ", with no barrier between\n";
            }
          } else if (K == AccessKind::Write && RNow) {
            if (Hazard("write after read", L, B)) {
              OS << "; " << (C.RAtomic ? "atomic" : "read") << " at ";
              site(C.RIdx);
              OS << " by wave " << C.RWave << " lane " << unsigned(C.RLane)
                 << (C.RMulti ? " (and other waves)" : "")
                 << ", with no barrier between\n";
            }
          }
        }
        if (K == AccessKind::Write) {
          C.WEpoch = Epoch;
          C.WIdx = S.Idx;
          C.WWave = Wv;
          C.WLane = uint8_t(L);
        } else {
          if (C.REpoch != Epoch) {
            C.REpoch = Epoch;
            C.RMulti = false;
          } else if (C.RWave != Wv) {
            C.RMulti = true;
          }
          C.RIdx = S.Idx;
          C.RWave = Wv;
          C.RLane = uint8_t(L);
          C.RAtomic = K == AccessKind::Atomic;
        }
      }
      continue;
    }
    if (A + N > DeviceSize)
      continue;
    for (uint64_t Wd = A / 4; Wd <= (A + N - 1) / 4; ++Wd) {
      DevRace &C = DeviceRace[Wd];
      if (!Reported) {
        bool WOther = C.WGroup && C.WGroup != Group;
        bool ROther = C.RGroup && (C.RGroup != Group || C.RMulti);
        const char *Kind = nullptr;
        bool AgainstWrite = true;
        if (K != AccessKind::Write && WOther)
          Kind = "read after write";
        else if (K == AccessKind::Write && WOther)
          Kind = "write after write";
        else if (K == AccessKind::Write && ROther) {
          Kind = "write after read";
          AgainstWrite = false;
        }
        if (Kind && Hazard(Kind, L, Wd * 4)) {
          uint32_t G = AgainstWrite ? C.WGroup : C.RGroup;
          if (!AgainstWrite && G == Group)
            G = C.ROther;
          OS << "; " << (AgainstWrite ? "write" : "read") << " at ";
          site(AgainstWrite ? C.WIdx : C.RIdx);
          OS << " by ";
          groupOf(G);
          OS << ", another workgroup of the launch\n";
        }
      }
      if (K == AccessKind::Write) {
        C.WGroup = Group;
        C.WIdx = S.Idx;
      } else {
        if (C.RGroup && C.RGroup != Group) {
          C.RMulti = true;
          C.ROther = C.RGroup;
        }
        C.RGroup = Group;
        C.RIdx = S.Idx;
      }
    }
  }
}

//===----------------------------------------------------------------------===//
// Hooks
//===----------------------------------------------------------------------===//

void Checker::access(const CheckSite &S, const uint32_t *Ap, uint64_t Exec,
                     unsigned N, AccessKind K, bool IsLocal) {
  if (!Exec)
    return;
  if (has(CheckMem))
    memcheck(S, Ap, Exec, N, K, IsLocal);
  if (has(CheckRace))
    racecheck(S, Ap, Exec, N, K, IsLocal);
  if (has(CheckInit))
    initcheck(S, Ap, Exec, N, K, IsLocal);
}

void Checker::accessLane(const CheckSite &S, unsigned Lane, uint64_t Addr,
                         unsigned N, AccessKind K, bool IsLocal) {
  // One lane: a row of W addresses with only that lane executing.
  uint32_t Ap[64];
  Ap[Lane] = uint32_t(Addr);
  access(S, Ap, uint64_t(1) << Lane, N, K, IsLocal);
}

void Checker::barrier(const CheckSite &S, uint64_t Exec, uint64_t Present) {
  if (!has(CheckSync) || Exec == Present || Exec == 0 || !begin(CheckSync))
    return;
  OS << "barrier in divergent control flow";
  where(S.Idx, S.Wave, -1);
  OS << ": " << std::popcount(Exec) << " of " << std::popcount(Present)
     << " lanes active (active mask "
     << format("0x%llx", (unsigned long long)Exec) << ", lanes present "
     << format("0x%llx", (unsigned long long)Present) << ")\n";
}

void Checker::release(ArrayRef<uint32_t> WaitIdx) {
  ++Epoch;
  if (!has(CheckSync))
    return;
  SmallVector<unsigned, 8> Halted;
  int First = -1;
  bool Differ = false;
  for (unsigned K = 0; K != WaitIdx.size(); ++K) {
    if (WaitIdx[K] == UINT32_MAX) {
      Halted.push_back(K);
      continue;
    }
    if (First < 0)
      First = int(K);
    else if (WaitIdx[K] != WaitIdx[First])
      Differ = true;
  }
  if (First < 0)
    return;
  auto WaveList = [&](ArrayRef<uint32_t> Idx, bool Waiting) {
    bool Comma = false;
    for (unsigned K = 0; K != Idx.size(); ++K)
      if ((Idx[K] != UINT32_MAX) == Waiting) {
        OS << (Comma ? ", " : "") << K;
        Comma = true;
      }
  };
  if (!Halted.empty() && begin(CheckSync)) {
    OS << "barrier not reached by every wave";
    where(WaitIdx[First], unsigned(First), -1);
    OS << ": wave" << (WaitIdx.size() - Halted.size() == 1 ? " " : "s ");
    WaveList(WaitIdx, true);
    OS << " wait, wave" << (Halted.size() == 1 ? " " : "s ");
    WaveList(WaitIdx, false);
    OS << (Halted.size() == 1 ? " has" : " have")
       << " halted (a deadlock without --check; the waiting waves are "
          "released)\n";
  }
  if (Differ && begin(CheckSync)) {
    OS << "waves wait at different barriers in workgroup (" << WgId[0] << ','
       << WgId[1] << ',' << WgId[2] << "): ";
    bool Comma = false;
    for (unsigned K = 0; K != WaitIdx.size(); ++K) {
      if (WaitIdx[K] == UINT32_MAX)
        continue;
      OS << (Comma ? "; " : "") << "wave " << K << " at ";
      site(WaitIdx[K]);
      Comma = true;
    }
    OS << "\n";
  }
}

void Checker::printSummary() {
  uint64_t Total = Counts.total(), Hidden = 0;
  OS << Opts.Prefix << ": check summary: " << Total
     << (Total == 1 ? " error" : " errors") << " (";
  bool Comma = false;
  for (unsigned I = 0; I != NumCheckKinds; ++I) {
    if (!(Opts.Kinds & (1u << I)))
      continue;
    OS << (Comma ? ", " : "") << KindNames[I] << ' ' << Counts.Found[I];
    Comma = true;
    if (Opts.Limit && Counts.Found[I] > Opts.Limit)
      Hidden += Counts.Found[I] - Opts.Limit;
  }
  OS << ")";
  if (Hidden)
    OS << "; " << Hidden << " not shown (--check-limit=" << Opts.Limit << ")";
  OS << "\n";
}

} // namespace wave::emu
