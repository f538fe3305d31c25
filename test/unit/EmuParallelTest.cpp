//===- EmuParallelTest.cpp - Parallel workgroups of the reference emulator ===//
//
// Differential tests of EmuConfig::Jobs (lib/Emu/Speculation.h): every kernel
// runs with Jobs = 1 and with Jobs = 2, 3 and 4, and the whole device memory,
// the printed statistics and any error (message and kind) must be identical,
// since formats/isa.md §4.2 runs workgroups one after another in grid order
// whatever the number of threads. Each kernel also has expected values computed
// here, by hand or by a plain C++ model of the sequential order, never taken
// from the emulator. The last group tests SpeculativeMemory directly.
//
//===----------------------------------------------------------------------===//
#include "wave/Asm/AsmParser.h"
#include "wave/Emu/Emulator.h"
#include "wave/Tool/Input.h"

#include "../../libwave/lib/Emu/Speculation.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

using namespace wave;
using namespace wave::emu;

namespace {

/// The thread counts compared with Jobs = 1.
constexpr unsigned ParallelJobs[] = {2, 3, 4};

/// Everything a run leaves behind.
struct Outcome {
  bool Ok = false;
  EmuErrorKind Kind = EmuErrorKind::Fault;
  std::string Error;
  std::vector<uint8_t> Mem;
  std::string Stats;
};

uint64_t loadLE(const std::vector<uint8_t> &Mem, uint64_t Addr, unsigned N) {
  uint64_t V = 0;
  for (unsigned I = 0; I != N; ++I)
    V |= uint64_t(Mem[Addr + I]) << (8 * I);
  return V;
}
void storeLE(std::vector<uint8_t> &Mem, uint64_t Addr, unsigned N, uint64_t V) {
  for (unsigned I = 0; I != N; ++I)
    Mem[Addr + I] = uint8_t(V >> (8 * I));
}
uint32_t load32(const std::vector<uint8_t> &Mem, uint64_t Addr) {
  return uint32_t(loadLE(Mem, Addr, 4));
}
void store32(std::vector<uint8_t> &Mem, uint64_t Addr, uint32_t V) {
  storeLE(Mem, Addr, 4, V);
}

/// Assembles \p Src. With \p Delay0 or \p Delay, workgroup 0 first counts
/// to Delay0 and the others to Delay (a loop of 4 steps, on r28-r31 and
/// p0): a slow workgroup 0 lets the other threads start and run younger
/// workgroups speculatively, and longer workgroups overlap more.
WbinFile assemble(std::string Src, unsigned Delay0 = 0, unsigned Delay = 0) {
  if (Delay0 || Delay) {
    std::string Loop;
    llvm::raw_string_ostream(Loop) << "    mov     r28, sr_workgroup_id_x\n"
                                   << "    mov     r29, sr_workgroup_id_y\n"
                                   << "    or      r28, r28, r29\n"
                                   << "    mov     r29, sr_workgroup_id_z\n"
                                   << "    or      r28, r28, r29\n"
                                   << "    mov_imm r29, 0\n"
                                   << "    mov_imm r30, " << Delay0 << "\n"
                                   << "    mov_imm r31, " << Delay << "\n"
                                   << "    icmp_eq p0, r28, r29\n"
                                   << "    select  r30, p0, r30, r31\n"
                                   << "    mov_imm r31, 1\n"
                                   << "    loop\n"
                                   << "        ucmp_le p0, r30, r29\n"
                                   << "        break   p0\n"
                                   << "        iadd    r29, r29, r31\n"
                                   << "    endloop\n";
    Src.insert(Src.find('\n') + 1, Loop);
  }
  std::string Diags;
  llvm::Expected<WbinFile> F =
      tool::assembleExecutable(Src, "parallel.wave", &Diags);
  if (!F) {
    ADD_FAILURE() << llvm::toString(F.takeError()) << "\n" << Diags;
    return WbinFile();
  }
  return std::move(*F);
}

/// Runs kernel 0 of \p F with \p Jobs threads on device memory that starts
/// as \p Init (zero-extended).
Outcome runJobs(const WbinFile &F, EmuConfig C, unsigned Jobs,
                const std::vector<uint8_t> &Init) {
  C.Jobs = Jobs;
  Outcome O;
  auto E = Emulator::create(F, C);
  if (!E) {
    O.Error = llvm::toString(E.takeError());
    ADD_FAILURE() << "create: " << O.Error;
    return O;
  }
  Emulator &Emu = **E;
  if (!Init.empty())
    std::memcpy(Emu.deviceMemory().data(), Init.data(),
                std::min<size_t>(Init.size(), Emu.deviceMemory().size()));
  llvm::Error Err = Emu.run();
  O.Mem.assign(Emu.deviceMemory().begin(), Emu.deviceMemory().end());
  llvm::raw_string_ostream OS(O.Stats);
  Emu.stats().print(OS);
  O.Ok = !Err;
  llvm::handleAllErrors(std::move(Err), [&](const EmuError &EE) {
    O.Kind = EE.getKind();
    O.Error = EE.getMessage();
  });
  return O;
}

/// Byte-for-byte comparison that names the first differing ranges.
testing::AssertionResult sameBytes(const std::vector<uint8_t> &Want,
                                   const std::vector<uint8_t> &Got) {
  if (Want.size() != Got.size())
    return testing::AssertionFailure()
           << "size " << Got.size() << ", want " << Want.size();
  size_t Count = 0;
  std::string Msg;
  llvm::raw_string_ostream OS(Msg);
  unsigned Ranges = 0;
  for (size_t I = 0; I != Want.size(); ++I) {
    if (Want[I] == Got[I])
      continue;
    ++Count;
    if (I && Want[I - 1] != Got[I - 1])
      continue;
    if (++Ranges > 8)
      continue;
    size_t E = I;
    while (E != Want.size() && Want[E] != Got[E])
      ++E;
    OS << "\n  [" << llvm::format_hex(I, 10) << ", " << llvm::format_hex(E, 10)
       << "): first " << llvm::format_hex(Got[I], 4) << ", want "
       << llvm::format_hex(Want[I], 4);
  }
  if (!Count)
    return testing::AssertionSuccess();
  return testing::AssertionFailure()
         << Count << " byte(s) differ in " << Ranges << " range(s)" << Msg;
}

/// A parallel outcome against the sequential one.
testing::AssertionResult sameOutcome(const Outcome &Seq, const Outcome &Par) {
  if (Par.Ok != Seq.Ok || Par.Error != Seq.Error)
    return testing::AssertionFailure()
           << "error \"" << Par.Error << "\", want \"" << Seq.Error << "\"";
  if (!Seq.Ok && Par.Kind != Seq.Kind)
    return testing::AssertionFailure() << "error kinds differ";
  if (Par.Stats != Seq.Stats)
    return testing::AssertionFailure() << "statistics\n"
                                       << Par.Stats << "want\n"
                                       << Seq.Stats;
  return sameBytes(Seq.Mem, Par.Mem);
}

/// Runs \p F with Jobs = 1, then \p Repeats times with each of ParallelJobs,
/// expecting identical outcomes. Returns the Jobs = 1 outcome.
Outcome runAllJobs(const WbinFile &F, const EmuConfig &C,
                   const std::vector<uint8_t> &Init = {},
                   unsigned Repeats = 1) {
  Outcome Seq = runJobs(F, C, 1, Init);
  for (unsigned J : ParallelJobs)
    for (unsigned Rep = 0; Rep != Repeats; ++Rep)
      EXPECT_TRUE(sameOutcome(Seq, runJobs(F, C, J, Init)))
          << "Jobs = " << J << ", repeat " << Rep;
  return Seq;
}

EmuConfig launch(uint32_t Groups, uint32_t Threads, uint32_t Width,
                 uint64_t DeviceMemory) {
  EmuConfig C;
  C.Grid = {Groups, 1, 1};
  C.Workgroup = {Threads, 1, 1};
  C.WaveWidth = Width;
  C.DeviceMemory = DeviceMemory;
  return C;
}

//===----------------------------------------------------------------------===//
// Inter-workgroup dependencies
//===----------------------------------------------------------------------===//

// A true chain (workgroup g reads the word g-1 wrote) gives word g+1 =
// (g+1)(g+2)/2 in every mode, for words in one granule, apart and straddling.
TEST(EmuParallel, ChainOfWorkgroups) {
  // r0 = stride in bytes. A busy loop of (7g mod 16) * 8 iterations between
  // the load and the store keeps the read stale for a while.
  WbinFile F = assemble(R"(.kernel chain
    mov     r1, sr_workgroup_id_x
    imul    r3, r1, r0              ; word g
    iadd    r4, r3, r0              ; word g+1
    device_load_u32 r5, r3
    mov_imm r6, 1
    iadd    r7, r1, r6              ; g+1
    mov_imm r9, 7
    imul    r10, r1, r9
    mov_imm r9, 15
    and     r10, r10, r9
    mov_imm r9, 8
    imul    r10, r10, r9
    mov_imm r8, 0
    loop
        ucmp_le p1, r10, r8
        break   p1
        iadd    r8, r8, r6
    endloop
    iadd    r5, r5, r7
    device_store_u32 r4, r5
    halt
.end
)",
                        4000, 100);
  const uint32_t Groups = 64;
  for (uint32_t Stride : {4u, 256u, 254u}) {
    SCOPED_TRACE("stride " + std::to_string(Stride));
    EmuConfig C = launch(Groups, 32, 32, 65536);
    C.SetRegs = {{0, Stride}};
    Outcome Seq = runAllJobs(F, C);
    ASSERT_TRUE(Seq.Ok) << Seq.Error;
    std::vector<uint8_t> Want(C.DeviceMemory, 0);
    for (uint32_t G = 0; G != Groups; ++G)
      store32(Want, uint64_t(G + 1) * Stride, (G + 1) * (G + 2) / 2);
    EXPECT_TRUE(sameBytes(Want, Seq.Mem));
    // Jobs = 0: one thread per hardware thread.
    EXPECT_TRUE(sameOutcome(Seq, runJobs(F, C, 0, {})));
  }
}

// A chain through the top lane of a whole-wave load: workgroup g loads 32
// words whose last one, alone in its granule, is the word g-1 wrote, so a
// speculative run must record that granule too. The other lanes read the
// granule just below (a coalesced load over two granules) or one far away
// (a wave reading two rows of a matrix). Each workgroup also stores a word
// of its own first, in the top lane's granule, in the one below or
// elsewhere, so that the load also meets the run's own stores.
TEST(EmuParallel, ChainThroughTheTopLaneOfAWaveLoad) {
  // X(h) = 256 (h + 2) is the word workgroup h writes: (h+1)(h+2)/2. r0 =
  // offset of the own store from X(g-1), where it stores 1000 (g + 1); r1
  // = offset of lanes 0..30 from X(g-1) - 124 + 4 lane (zeros).
  WbinFile F = assemble(R"(.kernel toplane
    mov     r14, r1
    mov     r1, sr_workgroup_id_x
    mov     r2, sr_lane_id
    mov_imm r3, 256
    mov_imm r6, 1
    iadd    r7, r1, r6              ; g+1
    imul    r4, r7, r3              ; X(g-1) = 256 (g+1)
    iadd    r5, r4, r3              ; X(g)
    mov_imm r9, 1000
    imul    r9, r7, r9
    iadd    r8, r4, r0
    device_store_u32 r8, r9         ; the own store
    mov_imm r9, 124
    isub    r8, r4, r9
    mov_imm r9, 4
    imul    r10, r2, r9
    iadd    r8, r8, r10             ; X(g-1) - 124 + 4 lane
    mov_imm r9, 31
    ucmp_lt p1, r2, r9
    @p1 iadd r8, r8, r14            ; lanes 0..30: + r1
    device_load_u32 r11, r8
    mov_imm r9, 7
    imul    r10, r1, r9
    mov_imm r9, 15
    and     r10, r10, r9
    mov_imm r9, 8
    imul    r10, r10, r9
    mov_imm r12, 0
    loop
        ucmp_le p1, r10, r12
        break   p1
        iadd    r12, r12, r6
    endloop
    mov_imm r9, 31
    wave_broadcast r13, r11, r9     ; the top lane's word
    iadd    r13, r13, r7
    device_store_u32 r5, r13
    halt
.end
)",
                        4000, 100);
  const uint32_t Groups = 64;
  for (uint32_t Apart : {0u, 0x8000u})
    for (uint32_t Own : {4u, uint32_t(-128), 65536u}) {
      SCOPED_TRACE("lanes 0..30 " + std::to_string(Apart) +
                   " bytes further, own store at X(g-1) + " +
                   std::to_string(int32_t(Own)));
      EmuConfig C = launch(Groups, 32, 32, 1 << 17);
      C.SetRegs = {{0, Own}, {1, Apart}};
      Outcome Seq = runAllJobs(F, C, {}, /*Repeats=*/3);
      ASSERT_TRUE(Seq.Ok) << Seq.Error;
      std::vector<uint8_t> Want(C.DeviceMemory, 0);
      for (uint32_t G = 0; G != Groups; ++G) {
        store32(Want, 256 * (G + 1) + Own, 1000 * (G + 1));
        store32(Want, 256 * (G + 2), (G + 1) * (G + 2) / 2);
      }
      EXPECT_TRUE(sameBytes(Want, Seq.Mem));
      EXPECT_TRUE(sameOutcome(Seq, runJobs(F, C, 8, {}))) << "Jobs = 8";
    }
}

// Returning atomics hand thread i of workgroup g ticket g*T + i in every mode.
TEST(EmuParallel, TicketsFromReturningAtomics) {
  WbinFile F = assemble(R"(.kernel tickets
    mov     r1, sr_workgroup_id_x
    mov     r2, sr_thread_id_x
    mov     r3, sr_workgroup_size_x
    imad    r4, r1, r3, r2          ; global thread id
    mov_imm r5, 1
    mov_imm r6, 0
    atomic_add r7, r6, r5, .device  ; ticket
    mov_imm r8, 2
    shl     r9, r4, r8
    mov_imm r10, 4096
    iadd    r9, r9, r10
    device_store_u32 r9, r7         ; by_id[id] = ticket
    shl     r11, r7, r8
    mov_imm r10, 65536
    iadd    r11, r11, r10
    device_store_u32 r11, r4        ; by_ticket[ticket] = id
    halt
.end
)",
                        4000, 50);
  const uint32_t Groups = 64;
  struct Shape {
    uint32_t Threads, Width;
  };
  for (Shape S : {Shape{32, 32}, Shape{64, 16}, Shape{20, 7}}) {
    SCOPED_TRACE("T = " + std::to_string(S.Threads) +
                 ", W = " + std::to_string(S.Width));
    EmuConfig C = launch(Groups, S.Threads, S.Width, 131072);
    Outcome Seq = runAllJobs(F, C);
    ASSERT_TRUE(Seq.Ok) << Seq.Error;
    std::vector<uint8_t> Want(C.DeviceMemory, 0);
    uint32_t N = Groups * S.Threads;
    store32(Want, 0, N);
    for (uint32_t I = 0; I != N; ++I) {
      store32(Want, 4096 + 4 * I, I);
      store32(Want, 65536 + 4 * I, I);
    }
    EXPECT_TRUE(sameBytes(Want, Seq.Mem));
  }
}

// Blind atomics of every kind, exchange and CAS chains included, end as in the
// sequential order.
TEST(EmuParallel, BlindAtomicsApplyInGridOrder) {
  WbinFile F = assemble(R"(.kernel blind
    mov     r1, sr_workgroup_id_x
    mov     r2, sr_thread_id_x
    mov     r3, sr_workgroup_size_x
    imad    r4, r1, r3, r2          ; v = global thread id
    mov_imm r5, 7
    mov_imm r6, 1
    imad    r7, r4, r5, r6          ; 7v + 1
    mov_imm r5, 0x9E3779B1
    imul    r8, r4, r5              ; h = v * 0x9E3779B1
    mov_imm r10, 0x100
    atomic_add r10, r7, .device
    mov_imm r10, 0x104
    atomic_max r10, r8, .device
    mov_imm r10, 0x108
    atomic_xor r10, r8, .device
    mov_imm r5, 1000
    iadd    r9, r4, r5
    mov_imm r10, 0x200
    atomic_exchange r10, r9, .device
    mov_imm r5, 3
    atomic_add r10, r5, .device
    iadd    r11, r4, r6             ; v + 1
    mov_imm r10, 0x300
    atomic_cas r10, r4, r11, .device ; [0x300] == v: [0x300] = v + 1
    iadd    r12, r1, r6             ; g + 1
    mov_imm r10, 0x304
    atomic_cas r10, r1, r12, .device ; [0x304] == g: [0x304] = g + 1
    mov_imm r10, 0x308
    atomic_sub r10, r7, .device
    mov_imm r10, 0x30c
    atomic_min r10, r8, .device
    not     r13, r4
    mov_imm r10, 0x310
    atomic_and r10, r13, .device
    mov_imm r10, 0x314
    atomic_exchange r10, r8, .device
    mov_imm r10, 0x314
    atomic_cas r10, r8, r4, .device ; [0x314] == h: [0x314] = v
    mov_imm r5, 2
    shl     r14, r4, r5
    mov_imm r5, 0x1000
    iadd    r14, r14, r5
    device_store_u32 r14, r8        ; out[v] = h
    halt
.end
)",
                        4000, 50);
  const uint32_t Groups = 48;
  struct Shape {
    uint32_t Threads, Width;
  };
  for (Shape S : {Shape{32, 32}, Shape{24, 8}}) {
    SCOPED_TRACE("T = " + std::to_string(S.Threads) +
                 ", W = " + std::to_string(S.Width));
    EmuConfig C = launch(Groups, S.Threads, S.Width, 16384);
    std::vector<uint8_t> Init(C.DeviceMemory, 0);
    store32(Init, 0x30c, 0xFFFFFFFF);
    store32(Init, 0x310, 0xFFFFFFFF);
    Outcome Seq = runAllJobs(F, C, Init);
    ASSERT_TRUE(Seq.Ok) << Seq.Error;

    // The sequential order: instruction by instruction, thread by thread.
    std::vector<uint8_t> Want = Init;
    auto Apply = [&](uint32_t Addr, std::function<uint32_t(uint32_t)> Fn) {
      store32(Want, Addr, Fn(load32(Want, Addr)));
    };
    using Step = std::function<void(uint32_t G, uint32_t V)>;
    auto H = [](uint32_t V) { return V * 0x9E3779B1u; };
    std::vector<Step> Steps = {
        [&](uint32_t, uint32_t V) {
          Apply(0x100, [&](uint32_t O) { return O + 7 * V + 1; });
        },
        [&](uint32_t, uint32_t V) {
          Apply(0x104, [&](uint32_t O) { return std::max(O, H(V)); });
        },
        [&](uint32_t, uint32_t V) {
          Apply(0x108, [&](uint32_t O) { return O ^ H(V); });
        },
        [&](uint32_t, uint32_t V) {
          Apply(0x200, [&](uint32_t) { return V + 1000; });
        },
        [&](uint32_t, uint32_t) {
          Apply(0x200, [&](uint32_t O) { return O + 3; });
        },
        [&](uint32_t, uint32_t V) {
          Apply(0x300, [&](uint32_t O) { return O == V ? V + 1 : O; });
        },
        [&](uint32_t G, uint32_t) {
          Apply(0x304, [&](uint32_t O) { return O == G ? G + 1 : O; });
        },
        [&](uint32_t, uint32_t V) {
          Apply(0x308, [&](uint32_t O) { return O - (7 * V + 1); });
        },
        [&](uint32_t, uint32_t V) {
          Apply(0x30c, [&](uint32_t O) { return std::min(O, H(V)); });
        },
        [&](uint32_t, uint32_t V) {
          Apply(0x310, [&](uint32_t O) { return O & ~V; });
        },
        [&](uint32_t, uint32_t V) {
          Apply(0x314, [&](uint32_t) { return H(V); });
        },
        [&](uint32_t, uint32_t V) {
          Apply(0x314, [&](uint32_t O) { return O == H(V) ? V : O; });
        },
        [&](uint32_t, uint32_t V) { store32(Want, 0x1000 + 4 * V, H(V)); },
    };
    for (uint32_t G = 0; G != Groups; ++G)
      for (const Step &St : Steps)
        for (uint32_t T = 0; T != S.Threads; ++T)
          St(G, G * S.Threads + T);
    EXPECT_TRUE(sameBytes(Want, Seq.Mem));
    // By hand: the CAS chains advance once per thread and per workgroup.
    EXPECT_EQ(load32(Seq.Mem, 0x300), Groups * S.Threads);
    EXPECT_EQ(load32(Seq.Mem, 0x304), Groups);
    EXPECT_EQ(load32(Seq.Mem, 0x314), Groups * S.Threads - 1);
  }
}

//===----------------------------------------------------------------------===//
// Speculation giving up (Speculation.h)
//===----------------------------------------------------------------------===//

// Blind atomics next to plain accesses in one granule (the give-up paths and
// their neighbours) give the sequential result.
TEST(EmuParallel, BlindAtomicMeetsPlainAccess) {
  // A logged blind atomic then a plain load or store in its granule, or a
  // blind atomic on a word written in part, give up the speculation; one on
  // a word written whole applies in the buffer, one straddling two granules
  // is a read and a write, one after a plain read of the granule is logged.
  const uint32_t Groups = 40, Threads = 16;
  const uint32_t N = Groups * Threads;
  struct Case {
    const char *Name;
    const char *Body;
    std::function<void(std::vector<uint8_t> &)> Check;
  };
  std::vector<Case> Cases = {
      {"load after blind atomic", R"(
    mov_imm r10, 0x400
    atomic_add r10, r5, .device     ; A += 1, logged
    mov_imm r11, 0x440
    device_load_u32 r12, r11        ; B, same granule
    iadd    r13, r12, r5
    device_store_u32 r11, r13       ; B += 1
    mov_imm r6, 2
    shl     r14, r1, r6
    mov_imm r7, 0x1000
    iadd    r14, r14, r7
    device_store_u32 r14, r12       ; out[g] = B before
)",
       [&](std::vector<uint8_t> &Mem) {
         EXPECT_EQ(load32(Mem, 0x400), N);
         EXPECT_EQ(load32(Mem, 0x440), Groups);
         for (uint32_t G = 0; G != Groups; ++G)
           EXPECT_EQ(load32(Mem, 0x1000 + 4 * G), G);
       }},
      {"store after blind atomic", R"(
    mov_imm r10, 0x800
    atomic_add r10, r5, .device
    mov_imm r11, 0x808
    device_store_u32 r11, r1        ; same granule as the logged atomic
    mov_imm r12, 0x80c
    atomic_xor r12, r4, .device
)",
       [&](std::vector<uint8_t> &Mem) {
         uint32_t X = 0;
         for (uint32_t V = 0; V != N; ++V)
           X ^= V;
         EXPECT_EQ(load32(Mem, 0x800), N);
         EXPECT_EQ(load32(Mem, 0x808), Groups - 1);
         EXPECT_EQ(load32(Mem, 0x80c), X);
       }},
      {"blind atomic on a word written in part", R"(
    iadd    r6, r1, r5
    mov_imm r10, 0xC00
    device_store_u8 r10, r6         ; low byte = g + 1
    mov_imm r7, 0x100
    atomic_add r10, r7, .device     ; word += 0x100 per thread
)",
       [&](std::vector<uint8_t> &Mem) {
         uint32_t W = 0;
         for (uint32_t G = 0; G != Groups; ++G)
           W = ((W & ~0xFFu) | ((G + 1) & 0xFF)) + 0x100 * Threads;
         EXPECT_EQ(load32(Mem, 0xC00), W);
       }},
      {"blind atomics in the own buffer, straddling, after a read", R"(
    mov_imm r11, 0xD00
    device_store_u32 r11, r1        ; [0xD00] = g
    mov_imm r8, 5
    atomic_add r11, r8, .device     ; += 5 in the run's own buffer
    mov_imm r12, 0xDFE
    atomic_add r12, r8, .device     ; straddles 0xE00
    mov_imm r13, 0xF00
    device_load_u32 r14, r13        ; 7, from Init
    iadd    r14, r14, r5
    mov_imm r13, 0xF04
    atomic_add r13, r14, .device    ; same granule as the read: logged
)",
       [&](std::vector<uint8_t> &Mem) {
         EXPECT_EQ(load32(Mem, 0xD00), Groups - 1 + 5 * Threads);
         EXPECT_EQ(load32(Mem, 0xDFE), 5 * N);
         EXPECT_EQ(load32(Mem, 0xF00), 7u);
         EXPECT_EQ(load32(Mem, 0xF04), 8 * N);
       }},
  };
  for (const Case &K : Cases) {
    SCOPED_TRACE(K.Name);
    std::string Src = R"(.kernel giveup
    mov     r1, sr_workgroup_id_x
    mov     r2, sr_thread_id_x
    mov     r3, sr_workgroup_size_x
    imad    r4, r1, r3, r2
    mov_imm r5, 1
)";
    Src += K.Body;
    Src += "    halt\n.end\n";
    WbinFile F = assemble(Src, 4000, 50);
    EmuConfig C = launch(Groups, Threads, 16, 8192);
    std::vector<uint8_t> Init(C.DeviceMemory, 0);
    store32(Init, 0xF00, 7);
    Outcome Seq = runAllJobs(F, C, Init);
    ASSERT_TRUE(Seq.Ok) << Seq.Error;
    K.Check(Seq.Mem);
  }
}

// Workgroups storing to more than SpeculativeMemory::MaxGranules granules
// give the sequential result.
TEST(EmuParallel, TooManyGranulesWritten) {
  static_assert(260 * 32 > SpeculativeMemory::MaxGranules);
  // Thread t stores g + 1 at byte g of granules t, t + 32, ... 8319.
  WbinFile F = assemble(R"(.kernel wide_stores
    mov     r1, sr_workgroup_id_x
    mov     r2, sr_thread_id_x
    mov_imm r3, 8320
    mov_imm r4, 8
    mov_imm r6, 32
    mov_imm r7, 1
    iadd    r8, r1, r7
    mov     r5, r2
    loop
        ucmp_le p1, r3, r5
        break   p1
        shl     r9, r5, r4
        iadd    r9, r9, r1
        device_store_u8 r9, r8
        iadd    r5, r5, r6
    endloop
    halt
.end
)");
  const uint32_t Groups = 6;
  EmuConfig C = launch(Groups, 32, 32, 4 << 20);
  Outcome Seq = runAllJobs(F, C);
  ASSERT_TRUE(Seq.Ok) << Seq.Error;
  std::vector<uint8_t> Want(C.DeviceMemory, 0);
  for (uint32_t I = 0; I != 8320; ++I)
    for (uint32_t G = 0; G != Groups; ++G)
      Want[I * 256 + G] = uint8_t(G + 1);
  EXPECT_TRUE(sameBytes(Want, Seq.Mem));
}

// Workgroups that read more than SpeculativeMemory::MaxGranules granules of
// input nobody writes (a blocked GEMM's shared tiles, issue 28) commit
// their speculation: the JobsProfile shows no batch run again, and every
// workgroup run once. Each thread t of workgroup g sums byte 0 of granules
// t, t + 32, ... 8319, then counts to 20000 (so that a younger workgroup
// has read everything long before the older one ends: with the old bound
// of 8192 granules read or written, it gave up), and stores the sum at
// 0x3F0000 + 4 (32g + t).
TEST(EmuParallel, WideReadsStaySpeculative) {
  static_assert(8320 > SpeculativeMemory::MaxGranules);
  WbinFile F = assemble(R"(.kernel wide_reads
    mov     r1, sr_workgroup_id_x
    mov     r2, sr_thread_id_x
    mov_imm r3, 8320
    mov_imm r4, 8
    mov_imm r6, 32
    mov     r5, r2
    mov_imm r10, 0
    loop
        ucmp_le p1, r3, r5
        break   p1
        shl     r9, r5, r4
        device_load_u8 r11, r9
        iadd    r10, r10, r11
        iadd    r5, r5, r6
    endloop
    mov_imm r14, 0
    mov_imm r15, 20000
    mov_imm r7, 1
    loop
        ucmp_le p1, r15, r14
        break   p1
        iadd    r14, r14, r7
    endloop
    imad    r12, r1, r6, r2
    mov_imm r13, 2
    shl     r12, r12, r13
    mov_imm r13, 0x3F0000
    iadd    r12, r12, r13
    device_store_u32 r12, r10
    halt
.end
)");
  const uint32_t Groups = 16;
  EmuConfig C = launch(Groups, 32, 32, 4 << 20);
  C.Jobs = 2;
  std::vector<uint8_t> Want(C.DeviceMemory, 0);
  for (uint32_t I = 0; I != 8320; ++I)
    Want[I * 256] = uint8_t(I * 13);
  auto E = Emulator::create(F, C);
  ASSERT_TRUE(bool(E)) << llvm::toString(E.takeError());
  std::memcpy((*E)->deviceMemory().data(), Want.data(), Want.size());
  ASSERT_FALSE(bool((*E)->run()));
  for (uint32_t T = 0; T != 32; ++T) {
    uint32_t Sum = 0;
    for (uint32_t I = T; I < 8320; I += 32)
      Sum += uint8_t(I * 13);
    for (uint32_t G = 0; G != Groups; ++G)
      store32(Want, 0x3F0000 + 4 * (32 * G + T), Sum);
  }
  std::vector<uint8_t> Got((*E)->deviceMemory().begin(),
                           (*E)->deviceMemory().end());
  EXPECT_TRUE(sameBytes(Want, Got));
  const JobsProfile &P = (*E)->jobsProfile();
  ASSERT_EQ(P.Threads.size(), 2u);
  uint64_t Workgroups = 0;
  for (const JobsProfile::Thread &T : P.Threads) {
    Workgroups += T.Workgroups;
    EXPECT_EQ(T.RerunGaveUp, 0u);
    EXPECT_EQ(T.RerunStale, 0u);
    EXPECT_LE(T.SpeculativeBatches, T.Batches);
  }
  EXPECT_EQ(Workgroups, Groups);
}

// A run on one thread leaves the profile empty, and says so.
TEST(EmuParallel, ProfileOfOneThread) {
  WbinFile F = assemble(".kernel k\n    halt\n.end\n");
  EmuConfig C = launch(4, 32, 32, 4096);
  C.Jobs = 1;
  auto E = Emulator::create(F, C);
  ASSERT_TRUE(bool(E)) << llvm::toString(E.takeError());
  ASSERT_FALSE(bool((*E)->run()));
  EXPECT_TRUE((*E)->jobsProfile().Threads.empty());
  std::string S;
  llvm::raw_string_ostream OS(S);
  (*E)->jobsProfile().print(OS);
  EXPECT_EQ(S, "Parallel run: none, the workgroups ran on one thread\n");
}

// Workgroups reading more than SpeculativeMemory::MaxGranules granules,
// some written by the previous workgroup, give the sequential result.
TEST(EmuParallel, TooManyGranulesRead) {
  // Thread t sums byte 0 of granules t, t + 32, ... 8319, stores the sum at
  // 0x3F0000 + 4 (32g + t), then stores g + 1 at byte 0 of granule t.
  WbinFile F = assemble(R"(.kernel wide_loads
    mov     r1, sr_workgroup_id_x
    mov     r2, sr_thread_id_x
    mov_imm r3, 8320
    mov_imm r4, 8
    mov_imm r6, 32
    mov_imm r7, 1
    mov     r5, r2
    mov_imm r10, 0
    loop
        ucmp_le p1, r3, r5
        break   p1
        shl     r9, r5, r4
        device_load_u8 r11, r9
        iadd    r10, r10, r11
        iadd    r5, r5, r6
    endloop
    imad    r12, r1, r6, r2
    mov_imm r13, 2
    shl     r12, r12, r13
    mov_imm r13, 0x3F0000
    iadd    r12, r12, r13
    device_store_u32 r12, r10
    shl     r9, r2, r4
    iadd    r8, r1, r7
    device_store_u8 r9, r8
    halt
.end
)");
  const uint32_t Groups = 6;
  EmuConfig C = launch(Groups, 32, 32, 4 << 20);
  std::vector<uint8_t> Init(C.DeviceMemory, 0);
  for (uint32_t I = 0; I != 8320; ++I)
    Init[I * 256] = uint8_t(I * 13);
  Outcome Seq = runAllJobs(F, C, Init);
  ASSERT_TRUE(Seq.Ok) << Seq.Error;
  std::vector<uint8_t> Want = Init;
  for (uint32_t G = 0; G != Groups; ++G) {
    for (uint32_t T = 0; T != 32; ++T) {
      uint32_t Sum = 0;
      for (uint32_t I = T; I < 8320; I += 32)
        Sum += Want[I * 256];
      store32(Want, 0x3F0000 + 4 * (32 * G + T), Sum);
    }
    for (uint32_t T = 0; T != 32; ++T)
      Want[T * 256] = uint8_t(G + 1);
  }
  EXPECT_TRUE(sameBytes(Want, Seq.Mem));
}

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

// A fault in one workgroup of a 4x4x4 grid leaves the same error and memory
// (earlier workgroups and the faulting one's first lanes only) in every mode.
TEST(EmuParallel, FaultInALaterWorkgroup) {
  // r0 = linear id of the faulting workgroup.
  WbinFile F = assemble(R"(.kernel fault
    mov     r1, sr_workgroup_id_x
    mov     r10, sr_workgroup_id_y
    mov     r11, sr_workgroup_id_z
    mov_imm r12, 4
    imad    r13, r11, r12, r10
    imad    r1, r13, r12, r1        ; g = x + 4 (y + 4 z)
    mov     r2, sr_thread_id_x
    mov_imm r5, 1
    mov_imm r6, 0x40
    atomic_add r6, r5, .device      ; counter
    mov_imm r3, 32
    imad    r4, r1, r3, r2
    mov_imm r7, 2
    shl     r4, r4, r7
    mov_imm r8, 0x1000
    iadd    r4, r4, r8              ; &out[32g + t]
    icmp_eq p1, r1, r0
    mov_imm r9, 16
    ucmp_le p2, r9, r2
    mov_imm r9, 0xFFFFFF00
    @p1 select r4, p2, r9, r4
    iadd    r14, r1, r5
    device_store_u32 r4, r14        ; out[32g + t] = g + 1
    halt
.end
)",
                        4000, 50);
  for (uint32_t Bad : {1u, 40u, 63u}) {
    SCOPED_TRACE("faulting workgroup " + std::to_string(Bad));
    EmuConfig C = launch(1, 32, 32, 16384);
    C.Grid = {4, 4, 4};
    C.SetRegs = {{0, Bad}};
    Outcome Seq = runAllJobs(F, C);
    ASSERT_FALSE(Seq.Ok);
    EXPECT_EQ(Seq.Kind, EmuErrorKind::Fault);
    std::string Where = "workgroup (" + std::to_string(Bad % 4) + "," +
                        std::to_string(Bad / 4 % 4) + "," +
                        std::to_string(Bad / 16) + ") wave 0 lane 16";
    EXPECT_NE(Seq.Error.find("memory access out of bounds"), std::string::npos)
        << Seq.Error;
    EXPECT_NE(Seq.Error.find(Where), std::string::npos) << Seq.Error;
    EXPECT_NE(Seq.Error.find("address 0xffffff00"), std::string::npos)
        << Seq.Error;
    std::vector<uint8_t> Want(C.DeviceMemory, 0);
    store32(Want, 0x40, 32 * (Bad + 1));
    for (uint32_t G = 0; G <= Bad; ++G)
      for (uint32_t T = 0; T != (G == Bad ? 16 : 32); ++T)
        store32(Want, 0x1000 + 4 * (32 * G + T), G + 1);
    EXPECT_TRUE(sameBytes(Want, Seq.Mem));
  }
}

// A fault reached only through a stale pointer is not reported; one through
// a real bad pointer is, identically.
TEST(EmuParallel, FaultFromStaleOrRealPointer) {
  // Workgroup g dereferences the pointer workgroup g-1 stored. A speculative
  // workgroup that reads the initial bad pointer faults only speculatively;
  // a bad pointer stored by workgroup 39 makes workgroup 40 fault for real.
  // r3 = the workgroup that stores the bad pointer r4 (none if >= grid).
  WbinFile F = assemble(R"(.kernel chase
    mov     r1, sr_workgroup_id_x
    mov_imm r10, 0x40
    device_load_u32 r11, r10        ; p (0xfffffff0 at first)
    mov_imm r9, 0x800
    mov_imm r5, 0
    icmp_eq p1, r1, r5
    select  r11, p1, r9, r11        ; workgroup 0 starts at 0x800
    device_load_u32 r12, r11        ; *p
    mov_imm r5, 1
    iadd    r12, r12, r5
    mov_imm r6, 2
    shl     r7, r1, r6
    mov_imm r8, 0x1000
    iadd    r7, r7, r8
    device_store_u32 r7, r12        ; out[g] = *p + 1
    icmp_eq p2, r1, r3
    select  r7, p2, r4, r7
    device_store_u32 r10, r7        ; p = &out[g], or the bad pointer
    halt
.end
)",
                        4000, 50);
  const uint32_t Groups = 64;
  for (uint32_t BadAfter : {1000u, 39u}) {
    SCOPED_TRACE("bad pointer after workgroup " + std::to_string(BadAfter));
    EmuConfig C = launch(Groups, 8, 8, 8192);
    C.SetRegs = {{3, BadAfter}, {4, 0xFFFFFFF0}};
    std::vector<uint8_t> Init(C.DeviceMemory, 0);
    store32(Init, 0x40, 0xFFFFFFF0);
    Outcome Seq = runAllJobs(F, C, Init, /*Repeats=*/2);
    std::vector<uint8_t> Want = Init;
    uint32_t Last = std::min(BadAfter, Groups - 1);
    for (uint32_t G = 0; G <= Last; ++G)
      store32(Want, 0x1000 + 4 * G, G + 1);
    store32(Want, 0x40,
            BadAfter < Groups ? 0xFFFFFFF0 : 0x1000 + 4 * (Groups - 1));
    EXPECT_TRUE(sameBytes(Want, Seq.Mem));
    if (BadAfter >= Groups) {
      EXPECT_TRUE(Seq.Ok) << Seq.Error;
      continue;
    }
    ASSERT_FALSE(Seq.Ok);
    EXPECT_EQ(Seq.Kind, EmuErrorKind::Fault);
    EXPECT_NE(Seq.Error.find("workgroup (40,0,0) wave 0 lane 0: address "
                             "0xfffffff0, 4 bytes"),
              std::string::npos)
        << Seq.Error;
  }
}

// The instruction limit exceeded in one workgroup gives the same message and
// memory in every mode.
TEST(EmuParallel, InstructionLimitInOneWorkgroup) {
  // r0 = the long workgroup. Each iteration stores the count at out[g] and
  // adds 1 per thread to the counter at 0.
  WbinFile F = assemble(R"(.kernel limit
    mov     r1, sr_workgroup_id_x
    mov_imm r3, 10
    mov_imm r9, 4000
    icmp_eq p1, r1, r0
    select  r3, p1, r9, r3
    mov_imm r5, 1
    mov_imm r6, 2
    shl     r7, r1, r6
    mov_imm r8, 0x100
    iadd    r7, r7, r8
    mov_imm r10, 0
    mov_imm r4, 0
    loop
        ucmp_le p2, r3, r4
        break   p2
        iadd    r4, r4, r5
        device_store_u32 r7, r4
        atomic_add r10, r5, .device
    endloop
    halt
.end
)",
                        4000, 50);
  const uint32_t Groups = 64, Long = 37;
  EmuConfig C = launch(Groups, 32, 32, 4096);
  // Workgroup 0 counts to 4000 first (16000 steps): within the limit.
  C.MaxInstructions = 20000;
  C.SetRegs = {{0, Long}};
  Outcome Seq = runAllJobs(F, C, {}, /*Repeats=*/2);
  ASSERT_FALSE(Seq.Ok);
  EXPECT_EQ(Seq.Kind, EmuErrorKind::Limit);
  EXPECT_EQ(Seq.Error.rfind("instruction limit exceeded: 20001 instructions "
                            "(limit: 20000) at PC 0x",
                            0),
            0u)
      << Seq.Error;
  for (uint32_t G = 0; G != Groups; ++G)
    if (G != Long)
      EXPECT_EQ(load32(Seq.Mem, 0x100 + 4 * G), G < Long ? 10u : 0u) << G;
  // The long workgroup stopped after some iterations: each stores, then
  // adds 32.
  uint32_t Done = load32(Seq.Mem, 0x100 + 4 * Long);
  EXPECT_GT(Done, 10u);
  EXPECT_LT(Done, 4000u);
  uint32_t Counter = load32(Seq.Mem, 0);
  EXPECT_TRUE(Counter == 32 * (10 * Long + Done) ||
              Counter == 32 * (10 * Long + Done - 1))
      << Counter;
}

// A barrier deadlock in one workgroup gives the same error and memory in every
// mode.
TEST(EmuParallel, DeadlockInALaterWorkgroup) {
  // r0 = the deadlocking workgroup.
  WbinFile F = assemble(R"(.kernel dl
    mov     r1, sr_workgroup_id_x
    mov     r2, sr_thread_id_x
    mov     r3, sr_workgroup_size_x
    imad    r4, r1, r3, r2
    mov_imm r5, 2
    shl     r4, r4, r5
    mov_imm r5, 1
    iadd    r6, r1, r5              ; g + 1
    mov_imm r7, 0x1000
    iadd    r8, r4, r7
    device_store_u32 r8, r6         ; before[v] = g + 1
    mov     r9, sr_wave_id
    mov_imm r10, 0
    icmp_eq p1, r9, r5
    select  r11, p1, r5, r10        ; wave 1
    icmp_eq p2, r1, r0
    select  r11, p2, r11, r10       ; wave 1 of workgroup r0
    icmp_ne p3, r11, r10
    @p3 halt
    barrier
    mov_imm r7, 0x3000
    iadd    r8, r4, r7
    device_store_u32 r8, r6         ; after[v] = g + 1
    halt
.end
)",
                        4000, 50);
  const uint32_t Groups = 32, Threads = 16, Bad = 13;
  EmuConfig C = launch(Groups, Threads, 8, 32768);
  C.SetRegs = {{0, Bad}};
  Outcome Seq = runAllJobs(F, C, {}, /*Repeats=*/2);
  ASSERT_FALSE(Seq.Ok);
  EXPECT_EQ(Seq.Kind, EmuErrorKind::Fault);
  EXPECT_NE(Seq.Error.find("deadlock detected: workgroup (13,0,0)"),
            std::string::npos)
      << Seq.Error;
  EXPECT_NE(Seq.Error.find("wave 1 halted"), std::string::npos) << Seq.Error;
  std::vector<uint8_t> Want(C.DeviceMemory, 0);
  for (uint32_t G = 0; G <= Bad; ++G)
    for (uint32_t T = 0; T != Threads; ++T) {
      store32(Want, 0x1000 + 4 * (G * Threads + T), G + 1);
      if (G != Bad)
        store32(Want, 0x3000 + 4 * (G * Threads + T), G + 1);
    }
  EXPECT_TRUE(sameBytes(Want, Seq.Mem));
}

// No workgroup after a failed one writes device memory (regression test of a
// race: see the comment inside).
TEST(EmuParallel, FailureLeaksNoLaterWorkgroup) {
  // The first parallel emulator published a failed workgroup as committed
  // before it set Cancel, so a thread claiming the next workgroup in between
  // ran it directly as the oldest (and a speculative one could be promoted),
  // leaving stores the sequential run never makes. The window is short, so
  // this repeats a tiny failing launch (one run in about 200 showed it on a
  // 2-core machine).
  // Workgroup g stores g + 1 at 4g; workgroup r0's store is out of bounds.
  WbinFile F = assemble(R"(.kernel leak
    mov     r1, sr_workgroup_id_x
    mov_imm r2, 4
    imul    r3, r1, r2
    mov_imm r4, 1
    iadd    r5, r1, r4
    icmp_eq p1, r1, r0
    mov_imm r6, 0xFFFFFFF0
    @p1 mov r3, r6
    device_store_u32 r3, r5
    halt
.end
)");
  struct Launch {
    uint32_t Jobs, Groups, Bad;
  };
  for (Launch L : {Launch{3, 3, 0}, Launch{4, 8, 3}}) {
    SCOPED_TRACE("Jobs = " + std::to_string(L.Jobs) + ", workgroup " +
                 std::to_string(L.Bad) + " of " + std::to_string(L.Groups) +
                 " faults");
    EmuConfig C = launch(L.Groups, 1, 1, 256);
    C.SetRegs = {{0, L.Bad}};
    Outcome Seq = runJobs(F, C, 1, {});
    ASSERT_FALSE(Seq.Ok);
    std::vector<uint8_t> Want(C.DeviceMemory, 0);
    for (uint32_t G = 0; G != L.Bad; ++G)
      store32(Want, 4 * G, G + 1);
    ASSERT_TRUE(sameBytes(Want, Seq.Mem));
    unsigned Leaks = 0, Runs = 400;
    for (unsigned Run = 0; Run != Runs; ++Run) {
      Outcome Par = runJobs(F, C, L.Jobs, {});
      if (!sameOutcome(Seq, Par)) {
        if (!Leaks)
          ADD_FAILURE() << "run " << Run << ": "
                        << sameOutcome(Seq, Par).message();
        ++Leaks;
      }
    }
    EXPECT_EQ(Leaks, 0u) << "of " << Runs << " runs";
  }
}

//===----------------------------------------------------------------------===//
// Spin-waits
//===----------------------------------------------------------------------===//

// A spin-wait on a flag the previous workgroup sets terminates and matches,
// with no instruction limit and with one only speculative spinners reach.
TEST(EmuParallel, SpinWaitOnThePreviousWorkgroup) {
  // r0 = flag stride. Flag 0 is set by Init.
  WbinFile F = assemble(R"(.kernel spin
    mov     r1, sr_workgroup_id_x
    imul    r7, r1, r0
    mov_imm r8, 0x100
    iadd    r7, r7, r8              ; &flag[g]
    iadd    r9, r7, r0              ; &flag[g+1]
    mov_imm r10, 0
    loop
        device_load_u32 r11, r7
        icmp_ne p1, r11, r10
        break   p1
    endloop
    mov_imm r5, 3
    imul    r12, r11, r5
    mov_imm r5, 2
    shl     r13, r1, r5
    mov_imm r5, 0x8000
    iadd    r13, r13, r5
    device_store_u32 r13, r12       ; data[g] = 3 flag[g]
    mov_imm r5, 2
    iadd    r14, r1, r5
    device_store_u32 r9, r14        ; flag[g+1] = g + 2
    halt
.end
)",
                        3000, 0);
  const uint32_t Groups = 12;
  for (uint32_t Stride : {4u, 256u})
    for (uint64_t Limit : {uint64_t(0), uint64_t(20000)}) {
      SCOPED_TRACE("stride " + std::to_string(Stride) + ", limit " +
                   std::to_string(Limit));
      EmuConfig C = launch(Groups, 32, 32, 65536);
      C.MaxInstructions = Limit;
      C.SetRegs = {{0, Stride}};
      std::vector<uint8_t> Init(C.DeviceMemory, 0);
      store32(Init, 0x100, 1);
      Outcome Seq = runAllJobs(F, C, Init);
      ASSERT_TRUE(Seq.Ok) << Seq.Error;
      std::vector<uint8_t> Want = Init;
      for (uint32_t G = 0; G != Groups; ++G) {
        store32(Want, 0x8000 + 4 * G, 3 * (G + 1));
        store32(Want, 0x100 + uint64_t(G + 1) * Stride, G + 2);
      }
      EXPECT_TRUE(sameBytes(Want, Seq.Mem));
    }
}

//===----------------------------------------------------------------------===//
// Long workgroups
//===----------------------------------------------------------------------===//

// Long workgroups (a speculative run may become the oldest mid-run) match a
// C++ model and the sequential run, also with a fault or the limit.
TEST(EmuParallel, LongWorkgroups) {
  // Tens of thousands of steps per workgroup, with barriers and local memory
  // in the loop; after it, each does what a speculative run cannot: a
  // returning atomic and a load in the granule of its logged atomics.
  // r0 = iterations; workgroup r14 does r15 more; workgroup r25 faults
  // after the loop.
  WbinFile F = assemble(R"(.kernel long
    mov     r1, sr_workgroup_id_x
    mov     r2, sr_thread_id_x
    mov     r3, sr_workgroup_size_x
    imad    r4, r1, r3, r2          ; v = global thread id
    mov_imm r5, 1
    mov_imm r6, 2
    shl     r7, r4, r6              ; 4v
    mov_imm r8, 0x1000
    iadd    r9, r7, r8              ; &own[v]
    shl     r10, r2, r6             ; local 4t
    mov_imm r19, 4
    xor     r19, r10, r19           ; local 4 (t ^ 1)
    mov_imm r11, 0x100              ; counter of blind atomics
    mov_imm r12, 0                  ; i
    mov_imm r13, 0                  ; acc
    mov     r16, r0
    icmp_eq p1, r1, r14
    @p1 iadd r16, r16, r15
    loop
        ucmp_le p2, r16, r12
        break   p2
        atomic_add r11, r5, .device
        iadd    r13, r13, r12
        local_store_u32 r10, r13
        barrier
        local_load_u32 r18, r19
        barrier
        device_store_u32 r9, r18    ; own[v] = the neighbour's acc
        iadd    r12, r12, r5
    endloop
    mov_imm r20, 0x104
    atomic_add r21, r20, r5, .device ; ticket, next to the counter
    mov_imm r22, 0x4000
    iadd    r23, r7, r22
    device_store_u32 r23, r21       ; tickets[v]
    device_load_u32 r24, r11        ; the counter
    device_load_u32 r27, r9         ; own[v] again
    mov_imm r22, 0x7000
    iadd    r23, r7, r22
    device_store_u32 r23, r27       ; copies[v]
    mov_imm r22, 0x6000
    iadd    r23, r7, r22
    icmp_eq p3, r1, r25
    mov_imm r26, 0xFFFFFFF0
    @p3 mov r23, r26
    device_store_u32 r23, r24       ; counts[v]
    halt
.end
)");
  const uint32_t Groups = 8, Threads = 8, Iters = 3000;
  // The sequential result of workgroups 0 .. Last (all of the last one
  // unless it faults at the final store).
  auto Model = [&](uint32_t LongGroup, uint32_t Extra, uint32_t Last,
                   bool LastFaults) {
    std::vector<uint8_t> M(65536, 0);
    uint32_t Counter = 0;
    for (uint32_t G = 0; G <= Last; ++G) {
      uint32_t N = Iters + (G == LongGroup ? Extra : 0);
      Counter += N * Threads;
      for (uint32_t T = 0; T != Threads; ++T) {
        uint32_t V = G * Threads + T;
        store32(M, 0x1000 + 4 * V, N * (N - 1) / 2);
        store32(M, 0x4000 + 4 * V, V);
        store32(M, 0x7000 + 4 * V, N * (N - 1) / 2);
        if (!(LastFaults && G == Last))
          store32(M, 0x6000 + 4 * V, Counter);
      }
      store32(M, 0x100, Counter);
      store32(M, 0x104, (G + 1) * Threads);
    }
    return M;
  };
  EmuConfig C = launch(Groups, Threads, 4, 65536);
  C.MaxInstructions = 0;
  {
    SCOPED_TRACE("no error");
    C.SetRegs = {{0, Iters}, {14, 5}, {15, 1000}, {25, 1000}};
    Outcome Seq = runAllJobs(F, C);
    ASSERT_TRUE(Seq.Ok) << Seq.Error;
    EXPECT_TRUE(sameBytes(Model(5, 1000, Groups - 1, false), Seq.Mem));
  }
  {
    SCOPED_TRACE("fault after the loop of workgroup 6");
    C.SetRegs = {{0, Iters}, {14, 1000}, {15, 0}, {25, 6}};
    Outcome Seq = runAllJobs(F, C);
    ASSERT_FALSE(Seq.Ok);
    EXPECT_EQ(Seq.Kind, EmuErrorKind::Fault);
    EXPECT_NE(Seq.Error.find("workgroup (6,0,0) wave 0 lane 0: address "
                             "0xfffffff0"),
              std::string::npos)
        << Seq.Error;
    EXPECT_TRUE(sameBytes(Model(1000, 0, 6, true), Seq.Mem));
  }
  {
    SCOPED_TRACE("instruction limit in workgroup 5");
    // About 2 waves * 12 steps per iteration: 72000 steps, and 144000 for
    // workgroup 5.
    C.MaxInstructions = 100000;
    C.SetRegs = {{0, Iters}, {14, 5}, {15, Iters}, {25, 1000}};
    Outcome Seq = runAllJobs(F, C);
    ASSERT_FALSE(Seq.Ok);
    EXPECT_EQ(Seq.Kind, EmuErrorKind::Limit);
    EXPECT_EQ(Seq.Error.rfind("instruction limit exceeded: 100001 "
                              "instructions (limit: 100000) at PC 0x",
                              0),
              0u)
        << Seq.Error;
    std::vector<uint8_t> Want = Model(1000, 0, 4, false);
    // Workgroup 5 stopped inside its loop: compare what lies outside it.
    for (uint32_t Addr : {0x1000u, 0x4000u, 0x6000u, 0x7000u})
      std::memset(&Seq.Mem[Addr + 4 * 5 * Threads], 0, 4 * Threads);
    uint32_t Counter5 = load32(Seq.Mem, 0x100);
    EXPECT_GT(Counter5, load32(Want, 0x100));
    EXPECT_EQ((Counter5 - load32(Want, 0x100)) % Threads, 0u);
    store32(Seq.Mem, 0x100, load32(Want, 0x100));
    EXPECT_TRUE(sameBytes(Want, Seq.Mem));
  }
}

//===----------------------------------------------------------------------===//
// Unaligned accesses
//===----------------------------------------------------------------------===//

// Unaligned, granule-straddling accesses passed between workgroups match a
// byte-level model of the sequential order.
TEST(EmuParallel, UnalignedAndGranuleCrossing) {
  // Workgroup g reads block g (1024 bytes at 1024 g) and writes block g+1.
  WbinFile F = assemble(R"(.kernel unaligned
    mov     r1, sr_workgroup_id_x
    mov_imm r5, 1024
    imul    r6, r1, r5              ; block g
    iadd    r7, r6, r5              ; block g+1
    mov_imm r8, 254
    iadd    r9, r6, r8
    device_load_u32 r20, r9
    mov_imm r10, 1
    iadd    r20, r20, r10
    iadd    r9, r7, r8
    device_store_u32 r9, r20
    mov_imm r8, 767
    iadd    r9, r6, r8
    device_load_u16 r21, r9
    mov_imm r10, 0x101
    iadd    r21, r21, r10
    iadd    r9, r7, r8
    device_store_u16 r9, r21
    mov_imm r8, 508
    iadd    r9, r6, r8
    device_load_u64 r22, r9
    mov_imm r10, 2
    iadd    r22, r22, r10
    mov_imm r10, 3
    iadd    r23, r23, r10
    iadd    r9, r7, r8
    device_store_u64 r9, r22
    mov_imm r8, 1016
    iadd    r9, r6, r8
    device_load_u128 r24, r9        ; ends 8 bytes into block g+1
    mov_imm r10, 4
    iadd    r24, r24, r10
    mov_imm r10, 5
    iadd    r25, r25, r10
    mov_imm r10, 6
    iadd    r26, r26, r10
    mov_imm r10, 7
    iadd    r27, r27, r10
    iadd    r9, r7, r8
    device_store_u128 r9, r24       ; ends 8 bytes into block g+2
    mov_imm r8, 250
    iadd    r9, r7, r8
    device_load_u64 r12, r9         ; 4 bytes of memory, 4 of its own
    mov_imm r8, 1012
    iadd    r9, r7, r8
    device_load_u128 r14, r9        ; 4 bytes of memory, 12 of its own
    mov_imm r8, 600
    iadd    r9, r7, r8
    device_store_u64 r9, r12
    mov_imm r8, 700
    iadd    r9, r7, r8
    device_store_u128 r9, r14
    halt
.end
)",
                        4000, 50);
  const uint32_t Groups = 40;
  EmuConfig C = launch(Groups, 8, 8, 1024 * (Groups + 4));
  std::vector<uint8_t> Init(C.DeviceMemory);
  for (size_t I = 0; I != Init.size(); ++I)
    Init[I] = uint8_t(I * 37 + 11);
  Outcome Seq = runAllJobs(F, C, Init, /*Repeats=*/2);
  ASSERT_TRUE(Seq.Ok) << Seq.Error;

  std::vector<uint8_t> Want = Init;
  auto Words = [&](uint64_t Addr, unsigned N, uint32_t Add0, uint32_t Step) {
    // Loads N words at Addr and adds Add0, Add0 + Step, ... (per word).
    std::vector<uint32_t> V(N);
    for (unsigned K = 0; K != N; ++K)
      V[K] = load32(Want, Addr + 4 * K) + Add0 + Step * K;
    return V;
  };
  auto Put = [&](uint64_t Addr, const std::vector<uint32_t> &V) {
    for (unsigned K = 0; K != V.size(); ++K)
      store32(Want, Addr + 4 * K, V[K]);
  };
  for (uint64_t G = 0; G != Groups; ++G) {
    uint64_t R = 1024 * G, W = R + 1024;
    Put(W + 254, Words(R + 254, 1, 1, 1));
    storeLE(Want, W + 767, 2, (loadLE(Want, R + 767, 2) + 0x101) & 0xFFFF);
    std::vector<uint32_t> V64 = Words(R + 508, 2, 2, 1);
    Put(W + 508, V64);
    Put(W + 1016, Words(R + 1016, 4, 4, 1));
    std::vector<uint32_t> M64 = Words(W + 250, 2, 0, 0);
    std::vector<uint32_t> M128 = Words(W + 1012, 4, 0, 0);
    Put(W + 600, M64);
    Put(W + 700, M128);
  }
  EXPECT_TRUE(sameBytes(Want, Seq.Mem));
  // By hand: the u32 at 254 of block k is its initial value plus k.
  for (uint64_t K = 1; K <= Groups; K += 13)
    EXPECT_EQ(load32(Seq.Mem, 1024 * K + 254), uint32_t(load32(Init, 254) + K));
}

//===----------------------------------------------------------------------===//
// Random kernels
//===----------------------------------------------------------------------===//

/// SplitMix64: a fixed sequence on every platform.
struct Rng {
  uint64_t State;
  uint64_t next() {
    uint64_t Z = (State += 0x9E3779B97F4A7C15ull);
    Z = (Z ^ (Z >> 30)) * 0xBF58476D1CE4E5B9ull;
    Z = (Z ^ (Z >> 27)) * 0x94D049BB133111EBull;
    return Z ^ (Z >> 31);
  }
  uint32_t below(uint32_t N) { return uint32_t(next() % N); }
  bool chance(unsigned Percent) { return below(100) < Percent; }
};

/// One operation of a random kernel, executed by every thread in order.
/// Address: Base + (((A g + B t + C) ^ (Dep ? R[Dep] : 0)) & Mask).
struct RandOp {
  enum Kind { Load, Store, Atomic, Alu } K;
  unsigned Width = 4; ///< Load/Store bytes.
  unsigned Reg = 8;   ///< value register (first of several).
  unsigned Reg2 = 8;  ///< Atomic: value; Alu: source.
  unsigned Reg3 = 8;  ///< Atomic CAS: desired value.
  uint32_t A = 0, B = 0, C = 0;
  unsigned Dep = 0; ///< 0: none.
  AtomicKind AK = AtomicKind::Add;
  bool Blind = true;
  unsigned AluOp = 0; ///< 0 iadd, 1 xor, 2 imul.
  unsigned Pred = 0;  ///< 0 none, 1 @p1, 2 @!p1.
};

struct RandKernel {
  uint32_t GridX, GridY, GridZ, Threads, Width, Mask, Base, DelayMul;
  /// Delay iterations are (g * DelayMul mod 8) << DelayShift.
  uint32_t DelayShift;
  uint32_t PredLimit;
  uint32_t InitK[8], InitC[8];
  std::vector<RandOp> Ops;
  /// Not a multiple of the granule size: the last granule is partial.
  uint64_t memSize() const { return uint64_t(Base) + Mask + 1 + 15; }
};

RandKernel makeRandKernel(uint64_t Seed) {
  Rng R{Seed};
  RandKernel K;
  static const uint32_t Widths[] = {1, 4, 7, 8, 16, 32, 64};
  K.Width = Widths[R.below(7)];
  uint32_t Waves = 1 + R.below(3);
  K.Threads = K.Width * Waves - R.below(K.Width);
  K.GridX = 6 + R.below(20);
  K.GridY = 1 + R.below(2);
  K.GridZ = 1 + R.below(2);
  static const uint32_t Masks[] = {255, 511, 1023, 4095, 16383};
  K.Mask = Masks[R.below(5)];
  K.Base = 0x100 + R.below(256);
  K.DelayMul = R.chance(50) ? R.below(8) : 0;
  // Long workgroups (thousands of steps) make small batches of them run in
  // parallel; short ones make large batches.
  K.DelayShift = 4;
  if (K.DelayMul && R.chance(50)) {
    K.DelayShift = 9;
    K.GridX = 3 + R.below(6);
  }
  K.PredLimit = R.below(K.Threads + 1);
  for (unsigned I = 0; I != 8; ++I) {
    K.InitK[I] = uint32_t(R.next());
    K.InitC[I] = uint32_t(R.next());
  }
  static const uint32_t Muls[] = {0, 1, 4, 16, 64, 256, 260, 1000};
  unsigned N = 6 + R.below(19);
  for (unsigned I = 0; I != N; ++I) {
    RandOp Op;
    unsigned Pick = R.below(100);
    Op.K = Pick < 30   ? RandOp::Load
           : Pick < 55 ? RandOp::Store
           : Pick < 85 ? RandOp::Atomic
                       : RandOp::Alu;
    static const unsigned WidthOf[] = {1, 2, 4, 8, 16};
    Op.Width = WidthOf[R.below(5)];
    unsigned Regs = Op.Width == 16 ? 4 : Op.Width == 8 ? 2 : 1;
    Op.Reg = 8 + R.below(9 - Regs);
    Op.Reg2 = 8 + R.below(8);
    Op.Reg3 = 8 + R.below(8);
    Op.A = R.chance(70) ? Muls[R.below(8)] : uint32_t(R.next());
    Op.B = R.chance(70) ? Muls[R.below(8)] : uint32_t(R.next());
    Op.C = uint32_t(R.next());
    Op.Dep = R.chance(20) ? 8 + R.below(8) : 0;
    Op.AK = AtomicKind(R.below(9));
    Op.Blind = R.chance(60);
    Op.AluOp = R.below(3);
    Op.Pred = R.chance(70) ? 0 : 1 + R.below(2);
    K.Ops.push_back(Op);
  }
  return K;
}

std::string randKernelSource(const RandKernel &K) {
  static const char *AtomicName[] = {"add", "sub", "min",      "max", "and",
                                     "or",  "xor", "exchange", "cas"};
  auto WidthName = [](unsigned Bytes) {
    return Bytes == 1   ? "u8"
           : Bytes == 2 ? "u16"
           : Bytes == 4 ? "u32"
           : Bytes == 8 ? "u64"
                        : "u128";
  };
  static const char *AluName[] = {"iadd", "xor", "imul"};
  std::string S;
  llvm::raw_string_ostream OS(S);
  // r1 = g, r2 = t, r3 = Mask, r4 = Base, r8..r15 values, r16 address,
  // r17 scratch, p1 = t < PredLimit.
  OS << ".kernel random\n"
     << "    mov r1, sr_workgroup_id_x\n"
     << "    mov r16, sr_workgroup_id_z\n"
     << "    mov r17, sr_grid_size_y\n"
     << "    mov r18, sr_workgroup_id_y\n"
     << "    imad r16, r16, r17, r18\n"
     << "    mov r17, sr_grid_size_x\n"
     << "    imad r1, r16, r17, r1\n"
     << "    mov r2, sr_thread_id_x\n"
     << "    mov_imm r3, " << K.Mask << "\n"
     << "    mov_imm r4, " << K.Base << "\n"
     << "    mov_imm r17, " << K.PredLimit << "\n"
     << "    ucmp_lt p1, r2, r17\n";
  for (unsigned I = 0; I != 8; ++I)
    OS << "    mov_imm r17, " << K.InitK[I] << "\n"
       << "    imad r" << 8 + I << ", r1, r17, r2\n"
       << "    mov_imm r17, " << K.InitC[I] << "\n"
       << "    iadd r" << 8 + I << ", r" << 8 + I << ", r17\n";
  if (K.DelayMul) {
    // (g * DelayMul mod 8) << DelayShift iterations of nothing: uneven run
    // times.
    OS << "    mov_imm r17, " << K.DelayMul << "\n"
       << "    imul r18, r1, r17\n"
       << "    mov_imm r17, 7\n"
       << "    and r18, r18, r17\n"
       << "    mov_imm r17, " << K.DelayShift << "\n"
       << "    shl r18, r18, r17\n"
       << "    mov_imm r19, 0\n"
       << "    mov_imm r17, 1\n"
       << "    loop\n"
       << "        ucmp_le p2, r18, r19\n"
       << "        break p2\n"
       << "        iadd r19, r19, r17\n"
       << "    endloop\n";
  }
  for (const RandOp &Op : K.Ops) {
    const char *P = Op.Pred == 0 ? "" : Op.Pred == 1 ? "@p1 " : "@!p1 ";
    if (Op.K == RandOp::Alu) {
      OS << "    " << P << AluName[Op.AluOp] << " r" << Op.Reg << ", r"
         << Op.Reg << ", r" << Op.Reg2 << "\n";
      continue;
    }
    OS << "    mov_imm r17, " << Op.A << "\n"
       << "    imul r16, r1, r17\n"
       << "    mov_imm r17, " << Op.B << "\n"
       << "    imad r16, r2, r17, r16\n"
       << "    mov_imm r17, " << Op.C << "\n"
       << "    iadd r16, r16, r17\n";
    if (Op.Dep)
      OS << "    xor r16, r16, r" << Op.Dep << "\n";
    OS << "    and r16, r16, r3\n"
       << "    iadd r16, r16, r4\n";
    switch (Op.K) {
    case RandOp::Load:
      OS << "    " << P << "device_load_" << WidthName(Op.Width) << " r"
         << Op.Reg << ", r16\n";
      break;
    case RandOp::Store:
      OS << "    " << P << "device_store_" << WidthName(Op.Width) << " r16, r"
         << Op.Reg << "\n";
      break;
    default: {
      OS << "    " << P << "atomic_" << AtomicName[unsigned(Op.AK)] << " ";
      if (!Op.Blind)
        OS << "r" << Op.Reg << ", ";
      OS << "r16, r" << Op.Reg2;
      if (Op.AK == AtomicKind::Cas)
        OS << ", r" << Op.Reg3;
      OS << ", .device\n";
      break;
    }
    }
  }
  OS << "    halt\n.end\n";
  return S;
}

/// The sequential result of \p K on \p Mem: workgroups in grid order; in a
/// workgroup every operation runs for all threads in ascending order (waves
/// interleave one instruction at a time and run the same straight-line
/// code).
void modelRandKernel(const RandKernel &K, std::vector<uint8_t> &Mem) {
  uint32_t Groups = K.GridX * K.GridY * K.GridZ;
  for (uint32_t G = 0; G != Groups; ++G) {
    std::vector<std::array<uint32_t, 16>> Regs(K.Threads);
    for (uint32_t T = 0; T != K.Threads; ++T)
      for (unsigned I = 0; I != 8; ++I)
        Regs[T][8 + I] = G * K.InitK[I] + T + K.InitC[I];
    for (const RandOp &Op : K.Ops)
      for (uint32_t T = 0; T != K.Threads; ++T) {
        bool P1 = T < K.PredLimit;
        if ((Op.Pred == 1 && !P1) || (Op.Pred == 2 && P1))
          continue;
        std::array<uint32_t, 16> &R = Regs[T];
        if (Op.K == RandOp::Alu) {
          uint32_t A = R[Op.Reg], B = R[Op.Reg2];
          R[Op.Reg] = Op.AluOp == 0 ? A + B : Op.AluOp == 1 ? A ^ B : A * B;
          continue;
        }
        uint32_t Addr = G * Op.A + T * Op.B + Op.C;
        if (Op.Dep)
          Addr ^= R[Op.Dep];
        Addr = (Addr & K.Mask) + K.Base;
        if (Op.K == RandOp::Load) {
          if (Op.Width <= 4) {
            R[Op.Reg] = uint32_t(loadLE(Mem, Addr, Op.Width));
          } else {
            for (unsigned W = 0; W != Op.Width / 4; ++W)
              R[Op.Reg + W] = load32(Mem, Addr + 4 * W);
          }
        } else if (Op.K == RandOp::Store) {
          if (Op.Width <= 4) {
            storeLE(Mem, Addr, Op.Width, R[Op.Reg]);
          } else {
            for (unsigned W = 0; W != Op.Width / 4; ++W)
              store32(Mem, Addr + 4 * W, R[Op.Reg + W]);
          }
        } else {
          uint32_t Old = load32(Mem, Addr);
          store32(Mem, Addr, atomicResult(Op.AK, Old, R[Op.Reg2], R[Op.Reg3]));
          if (!Op.Blind)
            R[Op.Reg] = Old;
        }
      }
  }
}

// Seeded random kernels of loads, stores and atomics on a shared region match
// a C++ model of the sequential order in every mode.
TEST(EmuParallel, RandomKernels) {
  for (uint64_t Seed = 1; Seed <= 20; ++Seed) {
    SCOPED_TRACE("seed " + std::to_string(Seed));
    RandKernel K = makeRandKernel(Seed);
    std::string Src = randKernelSource(K);
    WbinFile F = assemble(Src, 4000, 0);
    EmuConfig C;
    C.Grid = {K.GridX, K.GridY, K.GridZ};
    C.Workgroup = {K.Threads, 1, 1};
    C.WaveWidth = K.Width;
    C.DeviceMemory = K.memSize();
    std::vector<uint8_t> Init(C.DeviceMemory);
    Rng R{Seed * 7919};
    for (uint8_t &B : Init)
      B = R.chance(50) ? uint8_t(R.next()) : 0;
    Outcome Seq = runAllJobs(F, C, Init);
    ASSERT_TRUE(Seq.Ok) << Seq.Error << "\n" << Src;
    // Deeper speculation than there are cores.
    EXPECT_TRUE(sameOutcome(Seq, runJobs(F, C, 8, Init))) << "Jobs = 8";
    std::vector<uint8_t> Want = Init;
    modelRandKernel(K, Want);
    EXPECT_TRUE(sameBytes(Want, Seq.Mem)) << Src;
  }
}

//===----------------------------------------------------------------------===//
// SpeculativeMemory
//===----------------------------------------------------------------------===//

std::vector<uint8_t> pattern(size_t N) {
  std::vector<uint8_t> M(N);
  for (size_t I = 0; I != N; ++I)
    M[I] = uint8_t(I * 7 + 3);
  return M;
}

// Buffered stores merge into loads, validate only what came from memory and
// commit exactly the stored bytes.
TEST(EmuParallelSpec, BufferedStoresMergeAndCommit) {
  std::vector<uint8_t> Mem = pattern(1024), Orig = Mem;
  std::vector<uint32_t> Tick(4, 0);
  SpeculativeMemory S;
  S.begin(Mem.data(), Mem.size());
  const uint8_t Four[4] = {0xA0, 0xA1, 0xA2, 0xA3};
  ASSERT_TRUE(S.write(254, 4, Four)); // bytes 254..257: granules 0 and 1
  EXPECT_EQ(Mem, Orig);               // buffered
  EXPECT_EQ(S.prepareRead(252, 8), SpeculativeMemory::ReadKind::Merged);
  uint8_t Out[8];
  ASSERT_TRUE(S.read(252, 8, Out));
  const uint8_t Want[8] = {Orig[252], Orig[253], 0xA0,      0xA1,
                           0xA2,      0xA3,      Orig[258], Orig[259]};
  EXPECT_EQ(0, std::memcmp(Out, Want, 8));
  // Bytes of granule 2 the run wrote itself do not depend on anyone.
  ASSERT_TRUE(S.write(512, 4, Four));
  ASSERT_TRUE(S.read(512, 4, Out));
  EXPECT_EQ(0, std::memcmp(Out, Four, 4));
  Tick[2] = 9;
  EXPECT_TRUE(S.valid(Tick.data(), 0));
  Tick[1] = 9; // granule 1: bytes 258..259 came from memory
  EXPECT_FALSE(S.valid(Tick.data(), 0));
  EXPECT_TRUE(S.valid(Tick.data(), 9));
  EXPECT_FALSE(S.gaveUp());

  std::fill(Tick.begin(), Tick.end(), 0);
  Mem[300] = 0x55; // a commit of someone else, outside the stored bytes
  S.commit(Mem.data(), Tick.data(), 7);
  std::vector<uint8_t> After = Orig;
  After[300] = 0x55;
  std::memcpy(&After[254], Four, 4);
  std::memcpy(&After[512], Four, 4);
  EXPECT_EQ(Mem, After);
  EXPECT_EQ(Tick, (std::vector<uint32_t>{7, 7, 7, 0}));
}

// Blind atomics apply at commit to the memory of then; returning ones and ones
// on a word the run wrote whole apply at once.
TEST(EmuParallelSpec, AtomicsLoggedOrApplied) {
  std::vector<uint8_t> Mem(1024, 0);
  store32(Mem, 0x100, 10);
  store32(Mem, 0x200, 1);
  std::vector<uint32_t> Tick(4, 0);
  SpeculativeMemory S;
  S.begin(Mem.data(), Mem.size());
  uint32_t Old = 0xDEAD;
  ASSERT_TRUE(S.atomic(0x100, AtomicKind::Add, 5, 0, /*Blind=*/true, Old));
  ASSERT_TRUE(S.atomic(0x104, AtomicKind::Cas, 0, 77, /*Blind=*/true, Old));
  ASSERT_TRUE(S.atomic(0x200, AtomicKind::Xor, 3, 0, /*Blind=*/false, Old));
  EXPECT_EQ(Old, 1u);
  const uint8_t Word[4] = {40, 0, 0, 0};
  ASSERT_TRUE(S.write(0x300, 4, Word));
  ASSERT_TRUE(S.atomic(0x300, AtomicKind::Max, 50, 0, /*Blind=*/true, Old));
  EXPECT_EQ(load32(Mem, 0x100), 10u); // nothing applied yet
  EXPECT_FALSE(S.gaveUp());
  // Granule 1 was never read: a commit there does not invalidate the run.
  Tick[1] = 3;
  EXPECT_TRUE(S.valid(Tick.data(), 0));
  Tick[2] = 3; // the returning atomic read granule 2
  EXPECT_FALSE(S.valid(Tick.data(), 0));

  store32(Mem, 0x100, 100); // someone else's commit
  S.commit(Mem.data(), Tick.data(), 8);
  EXPECT_EQ(load32(Mem, 0x100), 105u);
  EXPECT_EQ(load32(Mem, 0x104), 77u);
  EXPECT_EQ(load32(Mem, 0x200), 2u);
  EXPECT_EQ(load32(Mem, 0x300), 50u);
  EXPECT_EQ(Tick, (std::vector<uint32_t>{0, 8, 8, 8}));
}

// A granule with stores and then blind atomics keeps both: the stored bytes,
// atomics on the words the run wrote whole (applied in place, in program
// order whatever their kinds), and logged atomics on the others, whatever
// kind came first.
TEST(EmuParallelSpec, StoresThenLoggedAtomicsInOneGranule) {
  for (AtomicKind First : {AtomicKind::Xchg, AtomicKind::Add}) {
    SCOPED_TRACE(unsigned(First));
    std::vector<uint8_t> Mem(1024, 0);
    for (uint32_t A = 0x100; A != 0x200; A += 4)
      store32(Mem, A, A);
    SpeculativeMemory S;
    S.begin(Mem.data(), Mem.size());
    uint32_t Old;
    const uint8_t Word[4] = {40, 0, 0, 0};
    ASSERT_TRUE(S.write(0x100, 4, Word));
    ASSERT_TRUE(S.atomic(0x104, First, 9, 0, /*Blind=*/true, Old));
    ASSERT_TRUE(S.atomic(0x120, AtomicKind::Add, 7, 0, /*Blind=*/true, Old));
    ASSERT_TRUE(S.atomic(0x100, AtomicKind::Add, 2, 0, /*Blind=*/true, Old));
    ASSERT_TRUE(S.atomic(0x120, AtomicKind::Add, 1, 0, /*Blind=*/true, Old));
    // Mixed kinds on the written word stay in program order: 42, 70, 73, 90.
    ASSERT_TRUE(S.atomic(0x100, AtomicKind::Xchg, 70, 0, /*Blind=*/true, Old));
    ASSERT_TRUE(S.atomic(0x100, AtomicKind::Add, 3, 0, /*Blind=*/true, Old));
    ASSERT_TRUE(S.atomic(0x100, AtomicKind::Xchg, 90, 0, /*Blind=*/true, Old));
    EXPECT_FALSE(S.gaveUp());
    std::vector<uint32_t> Tick(4, 0);
    S.commit(Mem.data(), Tick.data(), 1);
    EXPECT_EQ(load32(Mem, 0x100), 90u);
    EXPECT_EQ(load32(Mem, 0x104), First == AtomicKind::Xchg ? 9u : 0x104u + 9);
    EXPECT_EQ(load32(Mem, 0x120), 0x120u + 8);
    for (uint32_t A = 0x108; A != 0x200; A += 4)
      if (A != 0x120)
        ASSERT_EQ(load32(Mem, A), A) << A;
  }
}

// Long random sequences of blind atomics of every kind on a few words, two
// of them unaligned and overlapping aligned ones (so that runs of pending
// operations and the ordered log interleave on one word), and in half of
// the runs after a store to one of them, commit to the result of applying
// them one by one.
TEST(EmuParallelSpec, LoggedAtomicsMatchSequentialOrder) {
  const uint32_t Words[] = {0x100, 0x104, 0x1FC, 0x300, 0x102, 0x1F9, 0x304};
  for (uint64_t Seed = 1; Seed <= 40; ++Seed) {
    SCOPED_TRACE("seed " + std::to_string(Seed));
    Rng R{Seed};
    std::vector<uint8_t> Mem(4096, 0);
    for (uint32_t A : Words)
      store32(Mem, A, R.below(4));
    std::vector<uint8_t> Want = Mem, Orig = Mem;
    SpeculativeMemory S;
    S.begin(Mem.data(), Mem.size());
    // In odd seeds the run first stores word 0x300, so that its granule
    // has atomics applied in place next to logged ones.
    if (Seed % 2) {
      uint32_t Stored = R.below(4);
      ASSERT_TRUE(S.write(0x300, 4, reinterpret_cast<uint8_t *>(&Stored)));
      store32(Want, 0x300, Stored);
    }
    for (unsigned I = 0; I != 400; ++I) {
      uint32_t A = Words[R.below(7)];
      // Runs of one kind on one word, which merge, and everything else.
      auto K = AtomicKind(R.chance(30) ? 0 : R.below(9));
      uint32_t V = R.below(4), Cmp = R.below(4);
      if (K == AtomicKind::Sub || K == AtomicKind::Add)
        V = uint32_t(R.next());
      uint32_t Old;
      ASSERT_TRUE(S.atomic(A, K, V, Cmp, /*Blind=*/true, Old)) << I;
      store32(Want, A, atomicResult(K, load32(Want, A), V, Cmp));
    }
    EXPECT_EQ(Mem, Orig);
    std::vector<uint32_t> Tick(16, 0);
    S.commit(Mem.data(), Tick.data(), 1);
    EXPECT_TRUE(sameBytes(Want, Mem));
  }
}

// Blind atomics over a run of neighbouring granules, mostly of one kind:
// the window of uniform granules grows both ways, takes in granules made
// uniform before it reached them, and ends when another kind or a CAS
// meets one of its granules; commit equals applying them one by one.
TEST(EmuParallelSpec, WindowOfUniformGranulesMatchesSequentialOrder) {
  for (uint64_t Seed = 1; Seed <= 60; ++Seed) {
    SCOPED_TRACE("seed " + std::to_string(Seed));
    Rng R{Seed};
    std::vector<uint8_t> Mem(64 * 256, 0);
    for (uint32_t A = 0; A != Mem.size(); A += 4)
      store32(Mem, A, R.below(1000));
    std::vector<uint8_t> Want = Mem, Orig = Mem;
    SpeculativeMemory S;
    S.begin(Mem.data(), Mem.size());
    // Seeds 1-20: one kind only; 21-40: another kind now and then; 41-60:
    // also CAS. Granules 20..43, and a far one. Odd seeds apply waves of
    // lanes with blindAtomicLanes(), some lanes off and now and then one
    // out of bounds; even seeds one atomic at a time.
    unsigned OtherPercent = Seed <= 20 ? 0 : 2;
    auto Main = AtomicKind(Seed % 7); // add .. xor: all have an identity
    for (unsigned I = 0; I != 3000; ++I) {
      AtomicKind K = Main;
      if (R.below(100) < OtherPercent)
        K = AtomicKind(Seed > 40 ? R.below(9) : R.below(8));
      unsigned Lanes = Seed % 2 ? 1 + R.below(32) : 1;
      uint32_t A[32], V[32], Cmp[32];
      uint64_t Exec = 0;
      int Bad = -1;
      for (unsigned L = 0; L != Lanes; ++L) {
        uint32_t G = R.chance(5) ? 60 : 20 + R.below(24);
        A[L] = G * 256 + 4 * R.below(64);
        V[L] = R.below(1000);
        Cmp[L] = R.below(1000);
        if (Lanes > 1 && R.chance(20)) {
          A[L] = ~0u; // inactive: never read
          continue;
        }
        Exec |= uint64_t(1) << L;
        if (Bad < 0 && Lanes > 1 && R.chance(1)) {
          A[L] = uint32_t(Mem.size()) - 2;
          Bad = int(L);
        }
      }
      int Got;
      if (Lanes == 1) {
        uint32_t Old;
        ASSERT_TRUE(S.atomic(A[0], K, V[0], Cmp[0], /*Blind=*/true, Old)) << I;
        Got = -1;
      } else {
        Got = withAtomicKind(K, [&](auto KC) {
          return S.blindAtomicLanes<decltype(KC)::value>(A, V, Cmp, Exec,
                                                         Mem.size());
        });
      }
      ASSERT_EQ(Got, Bad) << I;
      for (unsigned L = 0; L != (Bad < 0 ? Lanes : unsigned(Bad)); ++L)
        if (Exec >> L & 1)
          store32(Want, A[L],
                  atomicResult(K, load32(Want, A[L]), V[L], Cmp[L]));
    }
    EXPECT_FALSE(S.gaveUp());
    EXPECT_EQ(Mem, Orig);
    std::vector<uint32_t> Tick(64, 0);
    S.commit(Mem.data(), Tick.data(), 1);
    EXPECT_TRUE(sameBytes(Want, Mem));
  }
}

// A window over the last, partial granule of memory: its lanes below the end
// apply there, the first one past the end is reported, and nothing after it
// or past the end is written. A misaligned word in the window is not one of
// its words.
TEST(EmuParallelSpec, WindowAtTheEndOfMemory) {
  // 760 bytes of memory (granule 2 is 248 bytes long) and 8 canary bytes.
  std::vector<uint8_t> Buf = pattern(768), Orig = Buf;
  const uint64_t Size = 760;
  SpeculativeMemory S;
  S.begin(Buf.data(), Size);
  uint32_t Old;
  ASSERT_TRUE(S.atomic(512, AtomicKind::Add, 1, 0, /*Blind=*/true, Old));
  const uint32_t A[4] = {516, 756, 760, 600}, V[4] = {10, 20, 30, 40},
                 Cmp[4] = {};
  EXPECT_EQ(S.blindAtomicLanes<AtomicKind::Add>(A, V, Cmp, 0xF, Size), 2);
  // Lanes 1 and 3 alone: the last word is in the window, 600 too.
  const uint32_t B[2] = {756, 600}, W[2] = {5, 6};
  EXPECT_EQ(S.blindAtomicLanes<AtomicKind::Add>(B, W, Cmp, 0x3, Size), -1);
  EXPECT_FALSE(S.gaveUp());
  std::vector<uint32_t> Tick(3, 0);
  S.commit(Buf.data(), Tick.data(), 1);
  std::vector<uint8_t> Want = Orig;
  store32(Want, 512, load32(Orig, 512) + 1);
  store32(Want, 516, load32(Orig, 516) + 10);
  store32(Want, 756, load32(Orig, 756) + 20 + 5);
  store32(Want, 600, load32(Orig, 600) + 6);
  EXPECT_TRUE(sameBytes(Want, Buf));

  // The misaligned word at 522 overlaps the one at 520: both apply in
  // program order, through the log.
  Orig = Buf;
  S.begin(Buf.data(), Size);
  ASSERT_TRUE(S.atomic(512, AtomicKind::Add, 1, 0, /*Blind=*/true, Old));
  const uint32_t C[2] = {520, 522};
  EXPECT_EQ(S.blindAtomicLanes<AtomicKind::Add>(C, W, Cmp, 0x3, Size), -1);
  EXPECT_FALSE(S.gaveUp());
  S.commit(Buf.data(), Tick.data(), 2);
  Want = Orig;
  store32(Want, 512, load32(Orig, 512) + 1);
  store32(Want, 520, load32(Want, 520) + 5);
  store32(Want, 522, load32(Want, 522) + 6);
  EXPECT_TRUE(sameBytes(Want, Buf));
}

// A run that only reads gives up after MaxReadGranules granules.
TEST(EmuParallelSpec, ReadBound) {
  constexpr uint32_t N = SpeculativeMemory::MaxReadGranules;
  std::vector<uint8_t> Mem((uint64_t(N) + 1) * 256, 0);
  SpeculativeMemory S;
  S.begin(Mem.data(), Mem.size());
  for (uint32_t G = 0; G != N; ++G)
    ASSERT_EQ(S.prepareRead(uint64_t(G) * 256 + 16, 8),
              SpeculativeMemory::ReadKind::Plain)
        << G;
  // Granules already read cost nothing more.
  EXPECT_EQ(S.prepareRead(0, 16), SpeculativeMemory::ReadKind::Plain);
  EXPECT_EQ(S.prepareRead(uint64_t(N) * 256, 4),
            SpeculativeMemory::ReadKind::GaveUp);
  EXPECT_TRUE(S.gaveUp());
}

// A run gives up exactly in the documented cases, and begin() starts afresh.
TEST(EmuParallelSpec, GivesUp) {
  std::vector<uint8_t> Mem((SpeculativeMemory::MaxGranules + 2) * 256, 0);
  SpeculativeMemory S;
  uint32_t Old;
  const uint8_t Byte[1] = {1};
  uint8_t Out[4];

  S.begin(Mem.data(), Mem.size());
  ASSERT_TRUE(S.atomic(0x100, AtomicKind::Add, 1, 0, true, Old));
  EXPECT_EQ(S.prepareRead(0x1F0, 4), SpeculativeMemory::ReadKind::GaveUp);
  EXPECT_TRUE(S.gaveUp());

  S.begin(Mem.data(), Mem.size());
  EXPECT_FALSE(S.gaveUp());
  ASSERT_TRUE(S.atomic(0x100, AtomicKind::Add, 1, 0, true, Old));
  EXPECT_FALSE(S.write(0x180, 1, Byte));
  EXPECT_TRUE(S.gaveUp());

  S.begin(Mem.data(), Mem.size());
  ASSERT_TRUE(S.atomic(0x100, AtomicKind::Add, 1, 0, true, Old));
  EXPECT_FALSE(S.read(0x104, 4, Out));
  EXPECT_TRUE(S.gaveUp());

  S.begin(Mem.data(), Mem.size());
  ASSERT_TRUE(S.write(0x101, 1, Byte));
  EXPECT_FALSE(S.atomic(0x100, AtomicKind::Add, 1, 0, true, Old));
  EXPECT_TRUE(S.gaveUp());

  S.begin(Mem.data(), Mem.size());
  for (uint32_t G = 0; G != SpeculativeMemory::MaxGranules; ++G)
    ASSERT_TRUE(S.write(uint64_t(G) * 256 + 5, 1, Byte)) << G;
  EXPECT_FALSE(
      S.write(uint64_t(SpeculativeMemory::MaxGranules) * 256, 1, Byte));
  EXPECT_TRUE(S.gaveUp());

  // Reads have a bound of their own, far above the one of writes.
  S.begin(Mem.data(), Mem.size());
  for (uint32_t G = 0; G != SpeculativeMemory::MaxGranules + 2; ++G)
    ASSERT_EQ(S.prepareRead(uint64_t(G) * 256, 4),
              SpeculativeMemory::ReadKind::Plain)
        << G;
  EXPECT_FALSE(S.gaveUp());
  EXPECT_EQ(S.readGranules(), SpeculativeMemory::MaxGranules + 2);
  EXPECT_EQ(S.writtenGranules(), 0u);

  // Granules read and then written count as written, once.
  S.begin(Mem.data(), Mem.size());
  for (uint32_t G = 0; G != SpeculativeMemory::MaxGranules + 2; ++G)
    ASSERT_EQ(S.prepareRead(uint64_t(G) * 256, 4),
              SpeculativeMemory::ReadKind::Plain)
        << G;
  for (uint32_t G = 0; G != SpeculativeMemory::MaxGranules; ++G)
    ASSERT_TRUE(S.write(uint64_t(G) * 256 + 7, 1, Byte)) << G;
  EXPECT_EQ(S.writtenGranules(), SpeculativeMemory::MaxGranules);
  EXPECT_EQ(S.readGranules(), 2u);
  EXPECT_FALSE(
      S.write(uint64_t(SpeculativeMemory::MaxGranules) * 256, 1, Byte));
  EXPECT_TRUE(S.gaveUp());

  // A fresh run after all that commits only its own store.
  S.begin(Mem.data(), Mem.size());
  ASSERT_TRUE(S.write(0x42, 1, Byte));
  std::vector<uint32_t> Tick(Mem.size() / 256, 0);
  S.commit(Mem.data(), Tick.data(), 1);
  EXPECT_EQ(Mem[0x42], 1);
  EXPECT_EQ(std::count(Mem.begin(), Mem.end(), 0), ptrdiff_t(Mem.size() - 1));
}

} // namespace
