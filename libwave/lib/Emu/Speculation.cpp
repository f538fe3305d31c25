//===- Speculation.cpp - Speculative device memory of one workgroup -------===//
//
// See Speculation.h.
//
//===----------------------------------------------------------------------===//
#include "Speculation.h"

namespace wave::emu {

SpeculativeMemory::Entry *SpeculativeMemory::find(uint32_t G) {
  size_t Mask = Table.size() - 1;
  for (size_t H = (G * 0x9E3779B1u) & Mask;; H = (H + 1) & Mask) {
    Entry &E = Table[H];
    if (E.Tag != Tag)
      return &E; // empty: where G goes
    if (E.Granule == G)
      return &E;
  }
}

SpeculativeMemory::Entry *SpeculativeMemory::entry(uint32_t G) {
  Entry *E = find(G);
  if (E->Tag == Tag)
    return E;
  // A granule read so far without an entry moves into the table.
  if (Used == MaxGranules)
    return nullptr;
  bool WasRead = ReadMark[G] == ReadTag;
  if (WasRead)
    --PlainReads;
  if (2 * (Used + 1) > Table.size()) {
    // Grow, keeping this run's entries; stale ones are dropped.
    std::vector<Entry> Old(2 * Table.size());
    Old.swap(Table);
    for (const Entry &X : Old)
      if (X.Tag == Tag)
        *find(X.Granule) = X;
    E = find(G);
  }
  ++Used;
  *E = Entry{G, Tag, WasRead ? Read : 0u, 0, 0};
  return E;
}

SpeculativeMemory::ReadKind SpeculativeMemory::prepareReadSlow(uint64_t Addr,
                                                               unsigned N) {
  uint64_t End = Addr + N;
  ReadKind Kind = ReadKind::Plain;
  for (uint64_t A = Addr; A < End;) {
    uint32_t G = uint32_t(A >> GranuleLog);
    A = uint64_t(G + 1) << GranuleLog;
    if (ReadMark[G] == ReadTag)
      continue;
    Entry *E = find(G);
    if (E->Tag != Tag) {
      // Neither written nor read before: record it without an entry.
      if (PlainReads == MaxReadGranules) {
        giveUp();
        return ReadKind::GaveUp;
      }
      ++PlainReads;
      Reads.push_back(G);
      ReadMark[G] = ReadTag;
      continue;
    }
    if (E->Flags & HasOps) {
      giveUp();
      return ReadKind::GaveUp;
    }
    if (E->Flags & HasSlot) {
      Kind = ReadKind::Merged; // read() records what it takes from memory
      continue;
    }
    if (!(E->Flags & Read)) {
      E->Flags |= Read;
      Reads.push_back(G);
    }
    ReadMark[G] = ReadTag;
  }
  return Kind;
}

/// Calls \p Piece(G, A, PieceEnd) for each granule G that the bytes
/// [\p Addr, \p Addr + \p N) touch, with the part [A, PieceEnd) in it, until
/// it returns false. Returns false when one did.
template <typename Fn>
static bool forEachGranule(uint64_t Addr, unsigned N, Fn &&Piece) {
  uint64_t End = Addr + N;
  for (uint64_t A = Addr; A < End;) {
    uint32_t G = uint32_t(A >> GranuleLog);
    uint64_t PieceEnd = std::min<uint64_t>(End, uint64_t(G + 1) << GranuleLog);
    if (!Piece(G, A, PieceEnd))
      return false;
    A = PieceEnd;
  }
  return true;
}

bool SpeculativeMemory::read(uint64_t Addr, unsigned N, uint8_t *Out) {
  return forEachGranule(
      Addr, N, [&](uint32_t G, uint64_t A, uint64_t PieceEnd) {
        Entry *E = entry(G);
        if (!E || (E->Flags & HasOps))
          return giveUp();
        bool FromMemory = true;
        if (E->Flags & HasSlot) {
          const uint8_t *S = slot(*E);
          FromMemory = false;
          for (uint64_t B = A; B != PieceEnd; ++B) {
            uint32_t Off = uint32_t(B & (GranuleSize - 1));
            if (S[GranuleSize + Off]) {
              Out[B - Addr] = S[Off];
            } else {
              Out[B - Addr] = Dev[B];
              FromMemory = true;
            }
          }
        } else {
          std::memcpy(Out + (A - Addr), Dev + A, PieceEnd - A);
        }
        // Bytes the run wrote itself do not depend on other workgroups.
        if (FromMemory && !(E->Flags & Read)) {
          E->Flags |= Read;
          Reads.push_back(G);
        }
        return true;
      });
}

bool SpeculativeMemory::writeSlow(uint64_t Addr, unsigned N,
                                  const uint8_t *In) {
  uint64_t End = Addr + N;
  return forEachGranule(
      Addr, N, [&](uint32_t G, uint64_t A, uint64_t PieceEnd) {
        Entry *E = entry(G);
        // A store after a logged atomic in the same granule would have to be
        // ordered after it: give up rather than track words.
        if (!E || (E->Flags & HasOps))
          return giveUp();
        if (!(E->Flags & HasSlot)) {
          if (!slotLeft())
            return giveUp();
          E->Flags |= HasSlot;
          E->Slot = newSlot();
          Slots.emplace_back(G, E->Slot);
          std::memset(slot(*E) + GranuleSize, 0, GranuleSize);
        }
        uint8_t *S = slot(*E);
        uint32_t Off = uint32_t(A & (GranuleSize - 1));
        std::memcpy(S + Off, In + (A - Addr), PieceEnd - A);
        std::memset(S + GranuleSize + Off, 0xFF, PieceEnd - A);
        forgetRead(G);
        if (PieceEnd == End && A == Addr) {
          LastWrite = G;
          LastWriteSlot = S;
        }
        return true;
      });
}

bool SpeculativeMemory::atomicSlow(uint64_t Addr, AtomicKind K, uint32_t V,
                                   uint32_t Cmp, bool Blind, uint32_t &Old) {
  uint32_t G = uint32_t(Addr >> GranuleLog);
  uint32_t Off = uint32_t(Addr & (GranuleSize - 1));
  // Anything but the window's fast path on one of its granules ends it.
  if (inWindow(G))
    spillWindow();
  if (Blind && Off + 4 <= GranuleSize) {
    Entry *E = entry(G);
    if (!E)
      return giveUp();
    if (E->Flags & HasSlot) {
      uint8_t *S = slot(*E);
      unsigned Written = 0;
      for (unsigned B = 0; B != 4; ++B)
        Written += S[GranuleSize + Off + B] != 0;
      if (Written == 4) {
        // The run's own value is the base: apply it in place.
        uint32_t Cur;
        std::memcpy(&Cur, S + Off, 4);
        uint32_t New = atomicResult(K, Cur, V, Cmp);
        std::memcpy(S + Off, &New, 4);
        return true;
      }
      if (Written)
        return giveUp();
    }
    if (!(E->Flags & HasOps)) {
      if (!slotLeft())
        return giveUp();
      // From here on, loads and stores of the granule give up.
      E->Flags |= HasOps;
      E->Ops = newSlot();
      OpsSlots.emplace_back(G, E->Ops);
      // The slot's bytes now hold an OpsSlot (Pool is raw storage).
      OpsSlot *Fresh = new (slotBytes(E->Ops)) OpsSlot;
      // Uniform only without stores: an atomic on a word the run wrote
      // whole applies in place (above), and one logged for it in the
      // uniform fast path would apply after all of those.
      uint32_t Id;
      if (Off % 4 == 0 && !(E->Flags & HasSlot) && identity(K, Id)) {
        std::fill(std::begin(Fresh->Kind), std::end(Fresh->Kind), K);
        std::fill(std::begin(Fresh->V), std::end(Fresh->V), Id);
        Fresh->Uniform = K;
        growWindow(G, K);
      } else {
        std::fill(std::begin(Fresh->Kind), std::end(Fresh->Kind), NoOp);
        Fresh->Uniform = NoOp;
      }
      forgetRead(G);
      if (LastWrite == G)
        LastWrite = NoGranule;
    }
    if (inWindow(G)) {
      uint32_t &P = windowOperands(G)[Off / 4];
      P = combine(K, P, V);
      return true;
    }
    OpsSlot &S = *opsSlot(E->Ops);
    unsigned W = Off / 4;
    if (Off % 4 == 0 && K != AtomicKind::Cas) {
      // Combine with the word's pending operation, or start a new one.
      if (S.Kind[W] == K) {
        S.V[W] = combine(K, S.V[W], V);
      } else {
        flushPending(S, G, W);
        S.Kind[W] = K;
        S.V[W] = V;
      }
    } else {
      // A CAS, or an unaligned word: to the ordered log, after the pending
      // operations of the words it overlaps.
      flushPending(S, G, W);
      if (Off % 4 && W + 1 != GranuleSize / 4)
        flushPending(S, G, W + 1);
      Ops.push_back({uint32_t(Addr), V, Cmp, K});
    }
    OpsCache[cacheIndex(G)] = {G, S.Uniform, &S};
    return true;
  }
  uint8_t Bytes[4];
  if (!read(Addr, 4, Bytes))
    return false;
  std::memcpy(&Old, Bytes, 4);
  uint32_t New = atomicResult(K, Old, V, Cmp);
  std::memcpy(Bytes, &New, 4);
  return write(Addr, 4, Bytes);
}

void SpeculativeMemory::growWindow(uint32_t G, AtomicKind K) {
  // A uniform granule of the window's kind, not in the window yet.
  auto Uniform = [&](uint32_t N) {
    Entry *E = find(N);
    return E->Tag == Tag && (E->Flags & HasOps) && !inWindow(N) &&
           opsSlot(E->Ops)->Uniform == WinKind;
  };
  auto Take = [&](uint32_t N) {
    std::memcpy(windowOperands(N), opsSlot(find(N)->Ops)->V, GranuleSize);
  };
  if (!WinBytes) {
    if (WinUsed)
      return;
    WinUsed = true;
    WinKind = K;
    // Room to grow both ways.
    WinAnchor = G - std::min<uint32_t>(G, WindowGranules / 2);
    WinLo = G;
    WinHi = G;
  } else if (K != WinKind || !(G == WinHi || G + 1 == WinLo)) {
    return;
  }
  if (G == WinHi && WinHi - WinAnchor == WindowGranules)
    return;
  if (G + 1 == WinLo && WinLo == WinAnchor)
    return;
  Take(G);
  if (G == WinHi)
    ++WinHi;
  else
    --WinLo;
  // Granules made uniform earlier that the window now reaches.
  while (WinHi - WinAnchor != WindowGranules && Uniform(WinHi))
    Take(WinHi++);
  while (WinLo != WinAnchor && Uniform(WinLo - 1))
    Take(--WinLo);
  WinAddr = uint64_t(WinLo) << GranuleLog;
  WinBytes = uint64_t(WinHi - WinLo) << GranuleLog;
  WinSkew = (WinLo - WinAnchor) * (GranuleSize / 4);
}

void SpeculativeMemory::spillWindow() {
  for (uint32_t G = WinLo; G != WinHi; ++G)
    std::memcpy(opsSlot(find(G)->Ops)->V, windowOperands(G), GranuleSize);
  WinBytes = 0;
}

void SpeculativeMemory::commit(uint8_t *Mem, uint32_t *WriteTick,
                               uint32_t Tick) const {
  for (auto [G, S] : Slots) {
    uint64_t Base = uint64_t(G) << GranuleLog;
    size_t N = size_t(std::min<uint64_t>(GranuleSize, DevSize - Base));
    const uint8_t *Data = slotBytes(S);
    const uint8_t *Mask = Data + GranuleSize;
    uint8_t *Dst = Mem + Base;
    for (size_t B = 0; B != N; ++B)
      Dst[B] = Mask[B] ? Data[B] : Dst[B];
    __atomic_store_n(&WriteTick[G], Tick, __ATOMIC_RELAXED);
  }
  auto Apply = [&](uint32_t Addr, AtomicKind K, uint32_t V, uint32_t Cmp) {
    uint32_t Cur;
    std::memcpy(&Cur, Mem + Addr, 4);
    uint32_t New = atomicResult(K, Cur, V, Cmp);
    std::memcpy(Mem + Addr, &New, 4);
  };
  for (const LoggedAtomic &Op : Ops) {
    Apply(Op.Addr, Op.Kind, Op.V, Op.Cmp);
    __atomic_store_n(&WriteTick[Op.Addr >> GranuleLog], Tick, __ATOMIC_RELAXED);
  }
  // Each word's pending operation is its newest.
  for (auto [G, Slot] : OpsSlots) {
    const OpsSlot &S = *opsSlot(Slot);
    const uint32_t *V = inWindow(G) ? windowOperands(G) : S.V;
    for (unsigned W = 0; W != GranuleSize / 4; ++W)
      if (S.Kind[W] != NoOp && !isIdentity(S.Kind[W], V[W]))
        Apply((G << GranuleLog) + 4 * W, S.Kind[W], V[W], 0);
    __atomic_store_n(&WriteTick[G], Tick, __ATOMIC_RELAXED);
  }
}

} // namespace wave::emu
