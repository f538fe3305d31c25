//===- Speculation.h - Speculative device memory of one workgroup -*- C++ -*-=//
//
// Private to the emulator (EmulatorImpl.h). formats/isa.md §4.2 runs the
// workgroups of a grid one after another, each seeing every store and atomic of
// the ones before it. With --jobs N the emulator runs N workgroups at a time
// and still gives exactly that result (libwave/README.md "The reference
// emulator", wave-run(1) "PARALLEL EXECUTION"):
//
// * The oldest workgroup not yet committed runs directly on device memory,
//   as a single-threaded run does, stamping every 256-byte granule it writes
//   with its commit tick.
// * Younger workgroups run speculatively through a SpeculativeMemory: loads
//   read committed device memory (or the workgroup's own buffered bytes)
//   and record the granules read; stores go to private 256-byte slots with a
//   byte mask; an atomic whose old value is discarded (rd = r0) is logged as
//   an operation to apply at commit, since nothing in the workgroup observes
//   the word. A word's consecutive logged operations of one kind combine
//   into one pending operation, kept per word in a slot of its granule; a
//   run of neighbouring granules with operations of one kind only (a
//   histogram's bins) keeps them in a window indexed by address instead.
// * Workgroups commit in grid order. A speculative workgroup is valid when
//   no granule it read was written by a commit (or a direct run) that it
//   did not see at its start; a valid one copies its slots and applies its
//   logged atomics, in program order, to device memory. An invalid one, or
//   one that gave up (its atomic log and its plain accesses met in one
//   granule, or its buffers outgrew their bound), runs again directly, as
//   the oldest.
//
// Every result, fault and statistic is therefore that of the sequential run.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_LIB_EMU_SPECULATION_H
#define WAVE_LIB_EMU_SPECULATION_H

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <type_traits>
#include <vector>

namespace wave::emu {

/// Device memory is tracked in granules of 1 << GranuleLog bytes.
inline constexpr unsigned GranuleLog = 8;
inline constexpr uint32_t GranuleSize = 1u << GranuleLog;

/// The device atomic operations, in modifier order (formats/isa.md §2.11,
/// §4.13).
enum class AtomicKind : uint8_t { Add, Sub, Min, Max, And, Or, Xor, Xchg, Cas };

/// The new value of a 32-bit atomic read-modify-write (formats/isa.md §4.13; D3
/// default: a real compare-and-swap).
inline uint32_t atomicResult(AtomicKind K, uint32_t Old, uint32_t V,
                             uint32_t Cmp) {
  switch (K) {
  case AtomicKind::Add:
    return Old + V;
  case AtomicKind::Sub:
    return Old - V;
  case AtomicKind::Min:
    return std::min(Old, V);
  case AtomicKind::Max:
    return std::max(Old, V);
  case AtomicKind::And:
    return Old & V;
  case AtomicKind::Or:
    return Old | V;
  case AtomicKind::Xor:
    return Old ^ V;
  case AtomicKind::Xchg:
    return V;
  case AtomicKind::Cas:
    break;
  }
  return Old == V ? Cmp : Old;
}

/// Calls \p F with std::integral_constant<AtomicKind, K> for \p K, so that
/// a lane loop in F has the operation as a constant.
template <typename Fn> decltype(auto) withAtomicKind(AtomicKind K, Fn &&F) {
  using enum AtomicKind;
  switch (K) {
  case Add:
    return F(std::integral_constant<AtomicKind, Add>());
  case Sub:
    return F(std::integral_constant<AtomicKind, Sub>());
  case Min:
    return F(std::integral_constant<AtomicKind, Min>());
  case Max:
    return F(std::integral_constant<AtomicKind, Max>());
  case And:
    return F(std::integral_constant<AtomicKind, And>());
  case Or:
    return F(std::integral_constant<AtomicKind, Or>());
  case Xor:
    return F(std::integral_constant<AtomicKind, Xor>());
  case Xchg:
    return F(std::integral_constant<AtomicKind, Xchg>());
  case Cas:
    break;
  }
  return F(std::integral_constant<AtomicKind, Cas>());
}

/// The device memory view of one speculative workgroup run (see the file
/// comment). Reused from run to run by one worker thread; begin() starts a
/// run. Not thread-safe; the committed memory it reads may change under it
/// (that is what validation detects).
class SpeculativeMemory {
public:
  /// Granules a run may write (store to or log atomics on) before it gives
  /// up: at most 256 KiB of table and 4 MiB of slots, the bound on a
  /// worker's extra memory for writes.
  static constexpr uint32_t MaxGranules = 8192;
  /// Granules a run may only read before it gives up: 64 MiB of device
  /// memory, at the cost of 4 bytes each in the read list (1 MiB) and one
  /// check each when the run is validated. Far above MaxGranules, because
  /// workgroups commonly read much more than they write -- a blocked GEMM's
  /// workgroup at 2048 x 2048 reads 2 MiB of shared inputs (8192 granules)
  /// and writes 64 KiB -- and a run that gives up runs again on the one
  /// thread that commits (issue 28).
  static constexpr uint32_t MaxReadGranules = uint32_t(1) << 18;

  SpeculativeMemory() = default;
  SpeculativeMemory(const SpeculativeMemory &) = delete;
  SpeculativeMemory &operator=(const SpeculativeMemory &) = delete;

  /// Starts a run over \p Mem, \p Size bytes of committed device memory.
  void begin(const uint8_t *Mem, uint64_t Size) {
    Dev = Mem;
    DevSize = Size;
    if (++Tag == 0) { // 2^32 runs: forget every stale entry for real.
      std::fill(Table.begin(), Table.end(), Entry());
      Tag = 1;
    }
    if (Table.empty())
      Table.assign(1024, Entry());
    size_t NumGranules = size_t((Size + GranuleSize - 1) >> GranuleLog);
    if (NumGranules != ReadMarkSize) {
      // calloc: pages of the marks are touched only as granules are read.
      ReadMark.reset(static_cast<uint16_t *>(
          std::calloc(std::max<size_t>(NumGranules, 1), sizeof(uint16_t))));
      if (!ReadMark)
        throw std::bad_alloc();
      ReadMarkSize = NumGranules;
      ReadTag = 0;
    }
    if (++ReadTag == 0) { // 65535 runs: clear the marks for real.
      std::fill_n(ReadMark.get(), ReadMarkSize, 0);
      ReadTag = 1;
    }
    Used = PlainReads = 0;
    Reads.clear();
    Slots.clear();
    OpsSlots.clear();
    NextSlot = 0;
    Ops.clear();
    GaveUp = false;
    std::fill(std::begin(OpsCache), std::end(OpsCache),
              OpsCacheEntry{NoGranule, NoOp, nullptr});
    LastWrite = NoGranule;
    LastWriteSlot = nullptr;
    WinBytes = 0;
    WinUsed = false;
  }

  /// True when the run gave up; it must run again as the oldest workgroup.
  bool gaveUp() const { return GaveUp; }
  /// Granules the run has written (at most MaxGranules) and only read (at
  /// most MaxReadGranules) so far.
  uint32_t writtenGranules() const { return Used; }
  uint32_t readGranules() const { return PlainReads; }
  /// Gives the run up from outside (its reads went stale, or its result is
  /// not wanted). Returns false.
  bool abandon() { return giveUp(); }

  /// How prepareRead() found a read.
  enum class ReadKind {
    Plain,  ///< recorded; the bytes may be read from committed memory.
    Merged, ///< the run wrote some of the bytes: read them with read().
    GaveUp  ///< the run gave up.
  };

  /// Records a read of \p N bytes (1..16) at \p Addr (the caller has
  /// checked Addr + N <= size) and says how to read them. The common case,
  /// a granule read before and not written, is one compare.
  [[gnu::always_inline]] ReadKind prepareRead(uint64_t Addr, unsigned N) {
    uint32_t G = uint32_t(Addr >> GranuleLog);
    if (ReadMark[G] == ReadTag &&
        (Addr & (GranuleSize - 1)) + N <= GranuleSize)
      return ReadKind::Plain;
    return prepareReadSlow(Addr, N);
  }

  /// Reads \p N bytes (1..16) at \p Addr into \p Out, from this run's own
  /// stores where it made them and committed memory elsewhere. The caller
  /// has checked Addr + N <= size. Returns false when the run gives up.
  bool read(uint64_t Addr, unsigned N, uint8_t *Out);

  /// Buffers a store of \p N bytes (1..16) from \p In at \p Addr. Returns
  /// false when the run gives up.
  [[gnu::always_inline]] bool write(uint64_t Addr, unsigned N,
                                    const uint8_t *In) {
    uint32_t G = uint32_t(Addr >> GranuleLog);
    uint32_t Off = uint32_t(Addr & (GranuleSize - 1));
    if (G == LastWrite && Off + N <= GranuleSize) {
      std::memcpy(LastWriteSlot + Off, In, N);
      std::memset(LastWriteSlot + GranuleSize + Off, 0xFF, N);
      return true;
    }
    return writeSlow(Addr, N, In);
  }

  /// One lane of a device atomic at \p Addr (4 bytes, in bounds). When
  /// \p Blind (the old value is discarded) and nothing of this run touched
  /// the word, the operation is logged for commit; otherwise it is a read
  /// and a write. \p Old receives the old value when not logged. Returns
  /// false when the run gives up.
  [[gnu::always_inline]] bool atomic(uint64_t Addr, AtomicKind K, uint32_t V,
                                     uint32_t Cmp, bool Blind, uint32_t &Old) {
    if (Blind)
      return blindAtomic(Addr, K, V, Cmp);
    return atomicSlow(Addr, K, V, Cmp, /*Blind=*/false, Old);
  }

  /// atomic() with \p Blind set: the old value is discarded.
  [[gnu::always_inline]] bool blindAtomic(uint64_t Addr, AtomicKind K,
                                          uint32_t V, uint32_t Cmp) {
    // The common cases: an aligned word in the window of its kind, where
    // the operand is found as in device memory; or whose pending operation
    // is of the same kind, in a uniform granule of that kind without
    // looking at the word's kind.
    uint64_t WinOff = Addr - WinAddr;
    if (WinOff < WinBytes) {
      if ((Addr & 3) == 0 && K == WinKind) {
        uint32_t &P = WinV[(WinOff >> 2) + WinSkew];
        P = combine(K, P, V);
        return true;
      }
    } else if ((Addr & 3) == 0 && K != AtomicKind::Cas) {
      uint32_t G = uint32_t(Addr >> GranuleLog);
      const OpsCacheEntry &E = OpsCache[cacheIndex(G)];
      unsigned W = unsigned(Addr & (GranuleSize - 1)) / 4;
      if (E.Granule == G && (E.Uniform == K || E.Slot->Kind[W] == K)) {
        E.Slot->V[W] = combine(K, E.Slot->V[W], V);
        return true;
      }
    }
    uint32_t Old;
    return atomicSlow(Addr, K, V, Cmp, /*Blind=*/true, Old);
  }

  /// Result of blindAtomicLanes() when the run gave up.
  static constexpr int GaveUpLane = -2;

  /// blindAtomic() of kind \p K for every lane L of \p Exec, in ascending
  /// order: the word at \p A[L] with operands \p V[L] and \p Cmp[L].
  /// Returns the first lane whose word is not within \p Bound bytes (the
  /// lanes before it are applied), GaveUpLane, or -1.
  template <AtomicKind K>
  [[gnu::always_inline]] int
  blindAtomicLanes(const uint32_t *A, const uint32_t *V, const uint32_t *Cmp,
                   uint64_t Exec, uint64_t Bound) {
    for (uint64_t Rem = Exec; Rem;) {
      // The window in locals: the updates store through a uint32_t pointer,
      // which could otherwise alias the members, reloaded at every lane.
      // Its words below Bound only, so that a lane in it is in bounds.
      if (K == WinKind) {
        const uint64_t WA = WinAddr;
        const uint64_t Words =
            std::min(WinBytes / 4, Bound > WA ? (Bound - WA) / 4 : 0);
        uint32_t *WV = WinV + WinSkew;
        for (; Rem; Rem &= Rem - 1) {
          unsigned L = unsigned(std::countr_zero(Rem));
          // The word index; rotating moves the low bits of a misaligned
          // offset (and the borrow of one below WA) to the top.
          uint64_t Idx = std::rotr(A[L] - WA, 2);
          if (Idx >= Words)
            break;
          WV[Idx] = combine(K, WV[Idx], V[L]);
        }
        if (!Rem)
          break;
      }
      // A lane outside the window: the general path, which may change it.
      unsigned L = unsigned(std::countr_zero(Rem));
      if (uint64_t(A[L]) + 4 > Bound)
        return int(L);
      if (!blindAtomic(A[L], K, V[L], Cmp[L]))
        return GaveUpLane;
      Rem &= Rem - 1;
    }
    return -1;
  }

  /// True when no granule this run read was written by a commit with a
  /// tick above \p StartTick (\p WriteTick: the tick of each granule's last
  /// write, 0 for none).
  bool valid(const uint32_t *WriteTick, uint32_t StartTick) const {
    for (uint32_t G : Reads)
      if (__atomic_load_n(&WriteTick[G], __ATOMIC_RELAXED) > StartTick)
        return false;
    return true;
  }

  /// Applies the run's stores and logged atomics to \p Mem (the memory of
  /// begin(), now writable) and stamps the granules they write with
  /// \p Tick in \p WriteTick.
  void commit(uint8_t *Mem, uint32_t *WriteTick, uint32_t Tick) const;

private:
  static constexpr uint32_t NoGranule = ~0u;
  enum : uint32_t { Read = 1, HasSlot = 2, HasOps = 4 };
  /// One granule touched by the run, in an open-addressing table; entries
  /// whose tag is not the run's are empty.
  struct Entry {
    uint32_t Granule = 0, Tag = 0, Flags = 0;
    /// The granule's slots in Pool: its stored bytes (HasSlot) and its
    /// pending atomics (HasOps). A granule may have both.
    uint32_t Slot = 0, Ops = 0;
  };
  struct LoggedAtomic {
    uint32_t Addr, V, Cmp;
    AtomicKind Kind;
  };
  /// The pending operations of a granule with logged atomics: per aligned
  /// word, the combination of the word's latest run of same-kind operations
  /// (Kind NoOp: none). They apply at commit after everything in Ops, which
  /// holds each word's older operations. A granule without stores whose
  /// first operation has an identity starts uniform: every word pending
  /// that kind with the identity as operand, so that more of the kind need
  /// not look at the word's kind. Lives in a slot of Pool.
  static constexpr auto NoOp = AtomicKind(0xFF);
  struct OpsSlot {
    uint32_t V[GranuleSize / 4];
    AtomicKind Kind[GranuleSize / 4];
    /// The kind of every word while all have one; NoOp otherwise.
    AtomicKind Uniform;
  };
  static_assert(sizeof(OpsSlot) <= 2 * GranuleSize);

  Entry *find(uint32_t G);
  Entry *entry(uint32_t G);
  /// The 2 * GranuleSize bytes of slot \p Slot of Pool.
  uint8_t *slotBytes(uint32_t Slot) const {
    return Pool.get() + size_t(Slot) * 2 * GranuleSize;
  }
  uint8_t *slot(const Entry &E) const { return slotBytes(E.Slot); }
  /// The OpsSlot that atomicSlow() created in slot \p Slot.
  OpsSlot *opsSlot(uint32_t Slot) const {
    return std::launder(reinterpret_cast<OpsSlot *>(slotBytes(Slot)));
  }
  /// A new slot of Pool, when one is left (slotLeft()): an entry has at most
  /// two, and the pool MaxGranules.
  bool slotLeft() const { return NextSlot != MaxGranules; }
  uint32_t newSlot() {
    if (!Pool)
      Pool = std::make_unique_for_overwrite<uint8_t[]>(size_t(MaxGranules) *
                                                       2 * GranuleSize);
    return NextSlot++;
  }
  /// Moves the pending operation of word \p W of \p S (granule \p G) to the
  /// ordered log (an identity operation changes nothing and is dropped).
  void flushPending(OpsSlot &S, uint32_t G, unsigned W) {
    if (S.Kind[W] != NoOp && !isIdentity(S.Kind[W], S.V[W]))
      Ops.push_back({(G << GranuleLog) + 4 * W, S.V[W], 0, S.Kind[W]});
    S.Kind[W] = NoOp;
    S.Uniform = NoOp;
  }
  /// The operand with which \p K changes no word, when there is one (xchg
  /// and CAS have none): x + 0 = x - 0 = max(x, 0) = x | 0 = x ^ 0 and
  /// min(x, ~0) = x & ~0 = x (unsigned, as atomicResult()).
  static bool identity(AtomicKind K, uint32_t &Id) {
    switch (K) {
    case AtomicKind::Add:
    case AtomicKind::Sub:
    case AtomicKind::Max:
    case AtomicKind::Or:
    case AtomicKind::Xor:
      Id = 0;
      return true;
    case AtomicKind::Min:
    case AtomicKind::And:
      Id = ~0u;
      return true;
    case AtomicKind::Xchg:
    case AtomicKind::Cas:
      break;
    }
    return false;
  }
  static bool isIdentity(AtomicKind K, uint32_t V) {
    uint32_t Id;
    return identity(K, Id) && V == Id;
  }
  bool giveUp() {
    GaveUp = true;
    return false;
  }
  ReadKind prepareReadSlow(uint64_t Addr, unsigned N);
  bool atomicSlow(uint64_t Addr, AtomicKind K, uint32_t V, uint32_t Cmp,
                  bool Blind, uint32_t &Old);
  /// The operand of the single operation equal to \p K with \p First, then
  /// \p K with \p Second (not for CAS): x - a - b = x - (a + b),
  /// min(min(x, a), b) = min(x, min(a, b)), and so on; xchg keeps the
  /// second.
  static uint32_t combine(AtomicKind K, uint32_t First, uint32_t Second) {
    switch (K) {
    case AtomicKind::Add:
    case AtomicKind::Sub:
      return First + Second;
    case AtomicKind::Min:
      return std::min(First, Second);
    case AtomicKind::Max:
      return std::max(First, Second);
    case AtomicKind::And:
      return First & Second;
    case AtomicKind::Or:
      return First | Second;
    case AtomicKind::Xor:
      return First ^ Second;
    case AtomicKind::Xchg:
    case AtomicKind::Cas:
      break;
    }
    return Second;
  }
  /// Adds granule \p G, whose OpsSlot atomicSlow() has just made uniform
  /// of kind \p K, to the window when it can be: it starts the run's
  /// window, or is next to the window of its kind.
  void growWindow(uint32_t G, AtomicKind K);
  /// Moves the window's operands to their OpsSlots and ends the window.
  void spillWindow();
  /// The operands of granule \p G of the window.
  uint32_t *windowOperands(uint32_t G) {
    return WinV + size_t(G - WinAnchor) * (GranuleSize / 4);
  }
  const uint32_t *windowOperands(uint32_t G) const {
    return WinV + size_t(G - WinAnchor) * (GranuleSize / 4);
  }
  bool inWindow(uint32_t G) const {
    return WinBytes && G >= WinLo && G < WinHi;
  }
  /// OpsCache slot of granule \p G: a multiplicative hash, since the rows
  /// of a matrix are granules a power of two apart.
  static uint32_t cacheIndex(uint32_t G) {
    return (G * 0x9E3779B1u) >> (32 - ReadCacheLog);
  }
  /// Reads of granule \p G, which now has a slot or logged atomics, go
  /// through the table.
  void forgetRead(uint32_t G) { ReadMark[G] = 0; }
  bool writeSlow(uint64_t Addr, unsigned N, const uint8_t *In);

  const uint8_t *Dev = nullptr;
  uint64_t DevSize = 0;
  std::vector<Entry> Table;
  uint32_t Tag = 0;
  /// Granules in the table (at most MaxGranules), and granules read with
  /// no table entry (each once in Reads and marked; at most
  /// MaxReadGranules).
  uint32_t Used = 0, PlainReads = 0;
  std::vector<uint32_t> Reads;                   ///< granules read.
  std::vector<std::pair<uint32_t, uint32_t>> Slots; ///< (granule, slot).
  std::vector<std::pair<uint32_t, uint32_t>> OpsSlots; ///< likewise.
  uint32_t NextSlot = 0;
  /// Logged atomics in program order, before the pending ones of OpsSlots.
  std::vector<LoggedAtomic> Ops;
  /// Slot storage: per slot GranuleSize data bytes, then GranuleSize mask
  /// bytes (0xFF: written), or an OpsSlot. Allocated once, touched as used.
  std::unique_ptr<uint8_t[]> Pool;
  bool GaveUp = false;
  /// Per granule of device memory: ReadTag when this run has read it and
  /// it has neither slot nor logged atomics (reads of it need no
  /// bookkeeping). Allocated once per device memory size.
  struct FreeDeleter {
    void operator()(void *P) const { std::free(P); }
  };
  std::unique_ptr<uint16_t[], FreeDeleter> ReadMark;
  size_t ReadMarkSize = 0;
  uint16_t ReadTag = 0;
  static constexpr unsigned ReadCacheLog = 8;
  /// Granules with logged atomics, direct-mapped likewise, with their
  /// pending operations and a copy of OpsSlot::Uniform (atomicSlow(), the
  /// only place a slot changes, keeps it current).
  struct OpsCacheEntry {
    uint32_t Granule;
    AtomicKind Uniform;
    OpsSlot *Slot;
  };
  OpsCacheEntry OpsCache[1u << ReadCacheLog];
  /// The last granule written, with its slot.
  uint32_t LastWrite = NoGranule;
  uint8_t *LastWriteSlot = nullptr;
  /// The window: granules [WinLo, WinHi), consecutive and uniform of kind
  /// WinKind, whose pending operands live in WinV rather than in their
  /// OpsSlots, indexed by address as device memory is (a histogram's bins:
  /// one subtraction and a compare find a lane's operand). Its bytes are
  /// [WinAddr, WinAddr + WinBytes); WinBytes 0: none. WinV holds granules
  /// [WinAnchor, WinAnchor + WindowGranules); WinSkew is the index of
  /// WinLo's first operand. At most one window per run (WinUsed).
  static constexpr uint32_t WindowGranules = 16;
  uint64_t WinAddr = 0, WinBytes = 0;
  uint32_t WinLo = 0, WinHi = 0, WinAnchor = 0, WinSkew = 0;
  AtomicKind WinKind = NoOp;
  bool WinUsed = false;
  uint32_t WinV[WindowGranules * GranuleSize / 4];
};

} // namespace wave::emu

#endif // WAVE_LIB_EMU_SPECULATION_H
