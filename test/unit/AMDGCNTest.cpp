//===- AMDGCNTest.cpp - The AMDGCN translator's internals -----------------===//
#include "wave/AMDGCN/Target.h"
#include "wave/AMDGCN/Translate.h"
#include "wave/Asm/AsmParser.h"
#include "wave/Tool/Input.h"

#include "../../libwave/lib/AMDGCN/GCNIR.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>
#include <regex>

using namespace wave;
using namespace wave::amdgcn;

namespace {

std::string translate(llvm::StringRef Src, llvm::StringRef CPU,
                      std::string *Err = nullptr) {
  llvm::Expected<WbinFile> F = tool::assembleExecutable(Src, "t.wave");
  EXPECT_TRUE(bool(F));
  if (!F) {
    llvm::consumeError(F.takeError());
    return "";
  }
  TranslateOptions O;
  O.Target = lookupTarget(CPU);
  O.Comments = false;
  llvm::Expected<std::string> S = translateToAMDGCN(*F, O);
  if (!S) {
    if (Err)
      *Err = llvm::toString(S.takeError());
    else
      ADD_FAILURE() << llvm::toString(S.takeError());
    return "";
  }
  return *S;
}

TEST(AMDGCNTarget, TableAndLookup) {
  EXPECT_EQ(lookupTarget("gfx942")->WaveSize, 64u);
  EXPECT_EQ(lookupTarget("gfx1100")->WaveSize, 32u);
  EXPECT_TRUE(lookupTarget("gfx942")->HasAccumOffset);
  EXPECT_FALSE(lookupTarget("gfx1200")->HasAccumOffset);
  EXPECT_EQ(lookupTarget("gfx999"), nullptr);
  EXPECT_EQ(supportedTargetList(),
            "gfx942, gfx950, gfx90a, gfx1100, gfx1200, gfx1250");
}

// A uniform loop counter is a scalar: the increment is an s_add, and the
// divergent value (thread id) stays in VGPRs.
TEST(AMDGCNTranslate, UniformLoopCounterIsScalar) {
  std::string S = translate(R"(.kernel k
.registers 8
.param out, buffer, u32, write
    mov r1, sr_thread_id_x
    mov_imm r2, 0
    mov_imm r3, 1
    mov_imm r4, 10
    loop
        iadd r2, r2, r3
        icmp_ge p1, r2, r4
        break p1
    endloop
    iadd r5, r1, r2
    device_store_u32 r0, r5
    halt
.end
)",
                            "gfx942");
  EXPECT_NE(S.find("s_add_u32"), std::string::npos) << S;
  EXPECT_NE(S.find("s_cmp_ge_i32"), std::string::npos) << S;
  EXPECT_EQ(S.find("v_cmp_ge_i32"), std::string::npos) << S;
}

// A uniform loop inside a divergent if: every lane that runs the loop runs
// each iteration, so a counter the loop alone reads stays scalar.
TEST(AMDGCNTranslate, UniformLoopInDivergentIfKeepsScalarCounter) {
  std::string S = translate(R"(.kernel k
.registers 8
.param out, buffer, u32, write
    mov r1, sr_thread_id_x
    mov_imm r3, 1
    mov_imm r4, 10
    icmp_lt p2, r1, r4
    if p2
        mov_imm r2, 0
        loop
            iadd r2, r2, r3
            icmp_ge p1, r2, r4
            break p1
        endloop
        device_store_u32 r0, r1
    endif
    halt
.end
)",
                            "gfx942");
  EXPECT_NE(S.find("s_add_u32"), std::string::npos) << S;
  EXPECT_NE(S.find("s_cmp_ge_i32"), std::string::npos) << S;
  EXPECT_EQ(S.find("v_cmp_ge_i32"), std::string::npos) << S;
}

// The same loop, but the counter is read after the divergent if: lanes that
// skipped the if still hold the value from before it.
TEST(AMDGCNTranslate, CounterReadAfterDivergentIfIsVector) {
  std::string S = translate(R"(.kernel k
.registers 8
.param out, buffer, u32, write
    mov r1, sr_thread_id_x
    mov_imm r3, 1
    mov_imm r4, 10
    mov_imm r2, 0
    icmp_lt p2, r1, r4
    if p2
        loop
            iadd r2, r2, r3
            icmp_ge p1, r2, r4
            break p1
        endloop
    endif
    device_store_u32 r0, r2
    halt
.end
)",
                            "gfx942");
  EXPECT_EQ(S.find("s_add_u32"), std::string::npos) << S;
  EXPECT_NE(S.find("v_cmp_ge_i32"), std::string::npos) << S;
}

// A divergent continue lets some lanes skip an increment the others run, so
// a counter read only inside the loop still differs between lanes.
TEST(AMDGCNTranslate, DivergentContinueMakesCounterVector) {
  std::string S = translate(R"(.kernel k
.registers 8
.param out, buffer, u32, write
    mov r1, sr_thread_id_x
    mov_imm r3, 1
    mov_imm r4, 10
    mov_imm r2, 0
    mov_imm r6, 0
    loop
        iadd r6, r6, r3
        icmp_ge p1, r6, r4
        break p1
        icmp_lt p2, r1, r6
        continue p2
        iadd r2, r2, r3
        device_store_u32 r0, r2
    endloop
    halt
.end
)",
                            "gfx942");
  std::smatch M;
  ASSERT_TRUE(std::regex_search(
      S, M, std::regex("global_store_dword v[0-9]+, (v[0-9]+),")))
      << S;
  EXPECT_NE(S.find("v_add_u32 " + M[1].str() + ", " + M[1].str() + ", 1"),
            std::string::npos)
      << S;
}

// Linear scan lets a 32-bit result take the register of a source the same
// instruction reads for the last time, except for s_*_saveexec, which
// writes its result before it reads its source.
TEST(AMDGCNRegAlloc, ResultTakesDyingSourceRegister) {
  std::string S = translate(R"(.kernel k
.registers 8
.param out, buffer, f32, write
    mov r1, sr_thread_id_x
    cvt_f32_u32 r2, r1
    fmul r3, r2, r2
    fadd r4, r3, r2
    mov_imm r5, 3
    icmp_lt p1, r1, r5
    if p1
        device_store_u32 r0, r4
    endif
    halt
.end
)",
                            "gfx1100");
  std::smatch M;
  // r2 and r3 die at the fadd, whose result r4 takes one's register.
  ASSERT_TRUE(std::regex_search(
      S, M, std::regex("v_add_f32 (v[0-9]+), (v[0-9]+), (v[0-9]+)\n")))
      << S;
  EXPECT_TRUE(M[1] == M[2] || M[1] == M[3]) << S;
  // The if's condition dies at the s_and_saveexec, yet the saved mask does
  // not take its register.
  ASSERT_TRUE(std::regex_search(
      S, M, std::regex("s_and_saveexec_b32 (s[0-9]+), (s[0-9]+)\n")))
      << S;
  EXPECT_NE(M[1], M[2]) << S;
}

// With a fixed 256x1x1 workgroup, sr_num_waves is the constant 256 / 64 =
// 4 (folded through the multiply-add chain), the y and z ids are 0, and no
// shift by 0 or multiply by 1 is left (peephole identities and constants).
TEST(AMDGCNPeephole, FixedWorkgroupFoldsSpecialRegisters) {
  std::string S = translate(R"(.kernel k
.registers 8
.workgroup_size 256, 1, 1
.param out, buffer, u32, write
    mov r1, sr_num_waves
    mov r2, sr_wave_id
    iadd r3, r1, r2
    mov r4, sr_thread_id_x
    mov_imm r5, 2
    shl r4, r4, r5
    iadd r4, r0, r4
    device_store_u32 r4, r3
    halt
.end
)",
                            "gfx942");
  EXPECT_TRUE(std::regex_search(S, std::regex("s_add_u32 s[0-9]+, 4, s[0-9]+")))
      << S;
  EXPECT_EQ(S.find("s_bfe_u32"), std::string::npos) << S;
  EXPECT_EQ(S.find("s_mul_i32"), std::string::npos) << S;
  EXPECT_FALSE(std::regex_search(S, std::regex("s_lshl_b32 [^\n]*, 0\n")))
      << S;
  EXPECT_FALSE(std::regex_search(S, std::regex("s_mov_b32 (s[0-9]+), \\1\n")))
      << S;
}

// A value defined in a divergent if and used after it merges with the
// value before the if: it cannot live in an SGPR.
TEST(AMDGCNTranslate, MergedDivergentValueIsVector) {
  std::string S = translate(R"(.kernel k
.registers 8
.param out, buffer, u32, write
    mov r1, sr_thread_id_x
    mov_imm r2, 5
    mov_imm r3, 3
    icmp_lt p1, r1, r3
    if p1
        mov_imm r2, 9
    endif
    device_store_u32 r0, r2
    halt
.end
)",
                            "gfx1100");
  // r2 is written under the if's mask into a VGPR, never by s_mov.
  EXPECT_NE(S.find("v_mov_b32 v"), std::string::npos) << S;
  EXPECT_EQ(S.find(", 9\n"), S.find("v_mov_b32 v") == std::string::npos
                                   ? std::string::npos
                                   : S.find(", 9\n"));
  EXPECT_EQ(S.find("s_mov_b32 s1, 9"), std::string::npos) << S;
  EXPECT_NE(S.find("s_and_saveexec_b32"), std::string::npos) << S;
}

TEST(AMDGCNTranslate, ErrorsNameKernelAndPC) {
  std::string Err;
  translate(R"(.kernel bad
    loop
        halt
    endloop
    endif
    halt
.end
)",
            "gfx942", &Err);
  EXPECT_NE(Err.find("kernel 'bad', PC 0x000c"), std::string::npos) << Err;
  EXPECT_NE(Err.find("'endif' without a matching frame"), std::string::npos)
      << Err;
}

TEST(AMDGCNTranslate, RelocatableRejected) {
  llvm::Expected<WbinFile> F =
      tool::assembleExecutable(".kernel k\n halt\n.end\n", "t.wave");
  ASSERT_TRUE(bool(F));
  F->Relocatable = true;
  TranslateOptions O;
  O.Target = lookupTarget("gfx942");
  llvm::Expected<std::string> S = translateToAMDGCN(*F, O);
  ASSERT_FALSE(bool(S));
  EXPECT_NE(llvm::toString(S.takeError()).find("wave-link"),
            std::string::npos);
}

// --- SGPR spilling (RegAlloc.cpp) ------------------------------------------

/// A kernel with \p N nested divergent if/else levels (the ISA's limit is
/// 32), each changing every lane's result (test/lit/amdgcn/spill.wave).
std::string nestedIfKernel(unsigned N) {
  std::string S = ".kernel k\n.registers 8\n.param out, buffer, u32, write\n"
                  "    mov r1, sr_thread_id_x\n    mov_imm r2, 0\n"
                  "    mov_imm r5, 1\n";
  std::string Tail;
  for (unsigned I = 0; I < N; ++I) {
    S += "    mov_imm r3, " + std::to_string((I * 37 + 5) % 64) +
         "\n    icmp_ne p1, r1, r3\n    if p1\n    mov_imm r3, " +
         std::to_string(1u << I) + "\n    iadd r2, r2, r3\n";
    Tail = "    mov_imm r3, " + std::to_string(I % 6) +
           "\n    shr r4, r1, r3\n    and r4, r4, r5\n    mov_imm r3, " +
           std::to_string((I + 7) % 32) +
           "\n    shl r4, r4, r3\n    iadd r2, r2, r4\n    else\n"
           "    mov_imm r3, 3\n    imul r2, r2, r3\n    mov_imm r3, " +
           std::to_string(1u << ((I + 19) % 32)) +
           "\n    iadd r2, r2, r3\n    endif\n" + Tail;
  }
  return S + Tail +
         "    mov_imm r3, 2\n    shl r4, r1, r3\n    iadd r4, r0, r4\n"
         "    device_store_u32 r4, r2\n    halt\n.end\n";
}

// 32 nested divergent ifs keep 64 saved EXEC masks live; on wave64 targets
// (pairs, about 100 SGPRs) some go to lanes of a spill VGPR, which the
// descriptor's VGPR count includes. Every target translates.
TEST(AMDGCNRegAlloc, DeepNestingSpillsSGPRsToVGPRLanes) {
  std::string Src = nestedIfKernel(32);
  for (const char *CPU :
       {"gfx942", "gfx950", "gfx90a", "gfx1100", "gfx1200", "gfx1250"}) {
    std::string S = translate(Src, CPU);
    ASSERT_FALSE(S.empty()) << CPU;
    std::smatch M;
    ASSERT_TRUE(std::regex_search(
        S, M, std::regex("\\.amdhsa_next_free_vgpr ([0-9]+)")))
        << CPU;
    unsigned NumVGPRs = std::stoul(M[1]);
    ASSERT_TRUE(
        std::regex_search(S, M, std::regex("\\.sgpr_spill_count: ([0-9]+)")))
        << CPU;
    unsigned Spilled = std::stoul(M[1]);
    if (lookupTarget(CPU)->WaveSize == 32)
      continue; // 32-bit masks: no spill needed
    EXPECT_GT(Spilled, 0u) << CPU;
    // Each spilled SGPR has its own lane; reads name written lanes, and
    // every spill VGPR lies below the descriptor's count.
    std::set<std::pair<unsigned, unsigned>> Written;
    std::regex Lane("v_(write|read)lane_b32 (v([0-9]+)), (s[0-9]+), "
                    "([0-9]+)|v_readlane_b32 s[0-9]+, v([0-9]+), ([0-9]+)");
    unsigned Writes = 0, Reads = 0;
    for (auto It = std::sregex_iterator(S.begin(), S.end(), Lane);
         It != std::sregex_iterator(); ++It) {
      const std::smatch &L = *It;
      if (L[1].matched) {
        ++Writes;
        unsigned V = std::stoul(L[3]), Ln = std::stoul(L[5]);
        EXPECT_LT(V, NumVGPRs) << CPU;
        EXPECT_LT(Ln, 64u) << CPU;
        Written.insert({V, Ln});
      } else {
        ++Reads;
        unsigned V = std::stoul(L[6]), Ln = std::stoul(L[7]);
        EXPECT_TRUE(Written.count({V, Ln}))
            << CPU << ": v" << V << " lane " << Ln << " read before written";
      }
    }
    EXPECT_GT(Writes, 0u) << CPU;
    EXPECT_GT(Reads, 0u) << CPU;
    EXPECT_EQ(Written.size(), Spilled) << CPU;
  }
}

// 110 uniform values (SGPRs) live across a uniform loop and a divergent
// if: more than any target's SGPRs, so wave32 targets spill too, including
// values a loop rewrites on every iteration.
TEST(AMDGCNRegAlloc, UniformPressureSpillsOnEveryTarget) {
  const unsigned K = 110;
  std::string Src = ".kernel k\n.registers " + std::to_string(10 + K) +
                    "\n.param out, buffer, u32, write\n.param n, scalar, u32\n"
                    "    mov r2, sr_thread_id_x\n    mov_imm r3, 0\n";
  auto R = [](unsigned I) { return "r" + std::to_string(10 + I); };
  for (unsigned I = 0; I < K; ++I)
    Src += "    mov_imm r4, " + std::to_string(2 * I + 3) + "\n    imul " +
           R(I) + ", r1, r4\n";
  Src += "    mov_imm r5, 0\n    mov_imm r6, 1\n    mov_imm r7, 3\n    loop\n";
  for (unsigned I = 0; I < K; ++I)
    Src += "    xor " + R(I) + ", " + R(I) + ", r5\n";
  Src += "    and r8, r2, r6\n    icmp_eq p1, r8, r6\n    if p1\n";
  for (unsigned I = 0; I < K; I += 2)
    Src += "    iadd r3, r3, " + R(I) + "\n";
  Src += "    endif\n    iadd r5, r5, r6\n    icmp_ge p2, r5, r7\n"
         "    break p2\n    endloop\n";
  for (unsigned I = 0; I < K; ++I)
    Src += "    iadd r3, r3, " + R(I) + "\n";
  Src += "    shl r4, r2, r7\n    iadd r4, r0, r4\n"
         "    device_store_u32 r4, r3\n    halt\n.end\n";
  for (const char *CPU :
       {"gfx942", "gfx950", "gfx90a", "gfx1100", "gfx1200", "gfx1250"}) {
    std::string S = translate(Src, CPU);
    ASSERT_FALSE(S.empty()) << CPU;
    EXPECT_NE(S.find("v_writelane_b32"), std::string::npos) << CPU;
    EXPECT_NE(S.find("v_readlane_b32"), std::string::npos) << CPU;
    EXPECT_EQ(S.find(".sgpr_spill_count: 0\n"), std::string::npos) << CPU;
  }
}

/// A small interpreter for the instructions the IR-level spill test uses,
/// over virtual registers (before allocation) or physical ones (after):
/// s_mov_b32 / s_add_u32 / s_addk_i32 (read-modify-write), v_readlane_b32,
/// v_writelane_b32 and an `out` pseudo that records its operand's value.
struct MiniMachine {
  const MFunction &F;
  bool Phys;
  std::map<unsigned, uint32_t> S;                      // key -> value
  std::map<std::pair<unsigned, unsigned>, uint32_t> V; // (vgpr, lane)
  std::vector<uint32_t> Out;

  unsigned key(const MOperand &O, unsigned K) const {
    if (Phys)
      return unsigned(F.VRegs[O.Reg].Phys) + K;
    return O.Reg * 4 + K;
  }
  unsigned first(const MOperand &O) const { return O.Sub < 0 ? 0 : O.Sub; }
  uint32_t read(const MOperand &O) {
    if (O.K == MOperand::Imm)
      return uint32_t(O.Value);
    return S[key(O, first(O))];
  }
  void write(const MOperand &O, uint32_t X) { S[key(O, first(O))] = X; }
  void run() {
    for (const MInst &MI : F.Insts) {
      const auto &Op = MI.Ops;
      if (MI.Op == "s_mov_b32")
        write(Op[0], read(Op[1]));
      else if (MI.Op == "s_add_u32")
        write(Op[0], read(Op[1]) + read(Op[2]));
      else if (MI.Op == "s_addk_i32")
        write(Op[0], read(Op[0]) + read(Op[1]));
      else if (MI.Op == "v_writelane_b32")
        V[{unsigned(F.VRegs[Op[0].Reg].Phys), unsigned(Op[2].Value)}] =
            read(Op[1]);
      else if (MI.Op == "v_readlane_b32")
        write(Op[0],
              V[{unsigned(F.VRegs[Op[1].Reg].Phys), unsigned(Op[2].Value)}]);
      else if (MI.Op == "out")
        for (unsigned K = 0; K < regWidth(F.VRegs[Op[0].Reg].Class); ++K)
          Out.push_back(S[key(Op[0], K)]);
      else
        ADD_FAILURE() << "unexpected " << MI.Op;
    }
  }
};

// More SGPRs live at once than the target has: allocation spills until it
// fits, never moves the precoloured register, keeps read-modify-write
// operands and pair halves written one at a time, and computes what the
// virtual-register program computes.
TEST(AMDGCNRegAlloc, SpillRewriteKeepsValues) {
  GCNTarget T = *lookupTarget("gfx942");
  T.MaxSGPRs = 6;
  MFunction F;
  F.T = &T;
  F.Name = "k";
  auto Inst = [&](const char *Op, std::initializer_list<MOperand> Ops) {
    MInst MI;
    MI.setOp(Op);
    MI.Kind = llvm::StringRef(Op) == "out" ? InstKind::Other : InstKind::SALU;
    MI.Ops.assign(Ops.begin(), Ops.end());
    F.Insts.push_back(MI);
  };
  uint32_t Fixed = F.newVReg(RegClass::S64, 0); // like the kernarg pointer
  Inst("s_mov_b32", {MOperand::def(Fixed, 0), MOperand::imm(1000)});
  Inst("s_mov_b32", {MOperand::def(Fixed, 1), MOperand::imm(2000)});
  std::vector<uint32_t> Vals;
  for (unsigned I = 0; I < 6; ++I) {
    Vals.push_back(F.newVReg(RegClass::S32));
    Inst("s_mov_b32", {MOperand::def(Vals.back()), MOperand::imm(10 + I)});
  }
  uint32_t Pair = F.newVReg(RegClass::S64);
  Inst("s_mov_b32", {MOperand::def(Pair, 0), MOperand::imm(77)});
  Inst("s_mov_b32", {MOperand::def(Pair, 1), MOperand::imm(88)});
  for (unsigned I = 0; I < 6; ++I) {
    MOperand RMW = MOperand::def(Vals[I]);
    RMW.IsUse = true;
    Inst("s_addk_i32", {RMW, MOperand::imm(100 * (I + 1))});
  }
  uint32_t Sum = F.newVReg(RegClass::S32);
  Inst("s_add_u32",
       {MOperand::def(Sum), MOperand::use(Vals[0]), MOperand::use(Vals[5])});
  for (uint32_t R : Vals)
    Inst("out", {MOperand::use(R)});
  Inst("out", {MOperand::use(Pair)});
  Inst("out", {MOperand::use(Sum)});
  Inst("out", {MOperand::use(Fixed)});

  MiniMachine Before{F, false, {}, {}, {}};
  Before.run();
  ASSERT_FALSE(llvm::errorToBool(allocateRegisters(F)));
  EXPECT_GT(F.NumSpilledSGPRs, 0u);
  EXPECT_FALSE(F.SpillVGPRs.empty());
  EXPECT_LE(F.NumSGPRs, 6u);
  EXPECT_EQ(F.VRegs[Fixed].Phys, 0);
  for (const MInst &MI : F.Insts)
    for (const MOperand &O : MI.Ops)
      if (O.K == MOperand::VReg && O.Reg == Fixed)
        EXPECT_EQ(MI.Op == "v_writelane_b32" || MI.Op == "v_readlane_b32",
                  false)
            << "the precoloured pair was spilled";
  MiniMachine After{F, true, {}, {}, {}};
  After.run();
  EXPECT_EQ(Before.Out, After.Out);
  EXPECT_EQ(After.Out.back(), 2000u);
  EXPECT_EQ(After.Out[6], 77u);
  EXPECT_EQ(After.Out[7], 88u);
}

/// Runs a small VALU/SALU program lane by lane, with EXEC: enough of the
/// ISA for VGPR spill code (AGPR and scratch slots, EXEC save/restore).
struct LaneMachine {
  const MFunction &F;
  bool Phys;
  unsigned W;
  uint64_t Exec = ~0ull;
  std::map<unsigned, uint32_t> S;                      // SGPR key -> value
  std::map<std::pair<unsigned, unsigned>, uint32_t> V; // (key, lane)
  std::vector<uint32_t> Out;

  unsigned key(const MOperand &O) const {
    const VRegInfo &VI = F.VRegs[O.Reg];
    unsigned K = O.Sub < 0 ? 0 : unsigned(O.Sub);
    if (!Phys)
      return O.Reg * 4 + K;
    // Separate files: VGPRs, SGPRs, slots (AGPRs or scratch dwords).
    return (VI.SpillSlot ? 20000 : isVector(VI.Class) ? 0 : 10000) +
           unsigned(VI.Phys) + K;
  }
  bool active(unsigned L) const { return Exec >> L & 1; }
  uint32_t lane(const MOperand &O, unsigned L) {
    if (O.K == MOperand::Imm)
      return uint32_t(O.Value);
    return V[{key(O), L}];
  }
  void run() {
    for (const MInst &MI : F.Insts) {
      const auto &Op = MI.Ops;
      llvm::StringRef N = MI.Op;
      if (N == "s_mov_b64" || N == "s_mov_b32") {
        bool Wide = N == "s_mov_b64";
        if (Op[0].K == MOperand::Hw) { // exec <- imm | sreg
          uint64_t X = Op[1].K == MOperand::Imm
                           ? uint64_t(Op[1].Value)
                           : S[key(Op[1])] |
                                 (Wide ? uint64_t(S[key(Op[1]) + 1]) << 32
                                       : 0);
          Exec = X & (W == 64 ? ~0ull : (1ull << W) - 1);
        } else { // sreg <- exec
          S[key(Op[0])] = uint32_t(Exec);
          if (Wide)
            S[key(Op[0]) + 1] = uint32_t(Exec >> 32);
        }
      } else if (N == "v_add_u32" || N == "v_accvgpr_write_b32" ||
                 N == "v_accvgpr_read_b32" || N == "scratch_load_b32" ||
                 N == "scratch_store_b32") {
        const MOperand &D = N == "scratch_store_b32" ? Op[2] : Op[0];
        for (unsigned L = 0; L < W; ++L) {
          if (!active(L))
            continue;
          uint32_t X = N == "v_add_u32"          ? lane(Op[1], L) + lane(Op[2], L)
                       : N == "scratch_load_b32" ? lane(Op[2], L)
                                                 : lane(Op[1], L);
          V[{key(D), L}] = X;
        }
      } else if (N == "v_readlane_b32") {
        S[key(Op[0])] = lane(Op[1], unsigned(Op[2].Value));
      } else if (N == "out_s") {
        Out.push_back(S[key(Op[0])]);
      } else if (N == "out_v") {
        for (unsigned L = 0; L < W; ++L)
          Out.push_back(lane(Op[0], L));
      } else {
        ADD_FAILURE() << "unexpected " << MI.Op;
      }
    }
  }
};

// More VGPRs live at once than the target has: allocation spills them to
// AGPRs (gfx942) or scratch (gfx1100) until it fits, and the program
// computes what it computed before -- including a merging definition under
// a partial EXEC (the inactive lanes keep their values in the slot) and a
// v_readlane of an inactive lane (its load runs with every lane enabled).
TEST(AMDGCNRegAlloc, VGPRSpillKeepsLanes) {
  for (const char *CPU : {"gfx942", "gfx1100"}) {
    SCOPED_TRACE(CPU);
    GCNTarget T = *lookupTarget(CPU);
    T.MaxVGPRs = 4;
    MFunction F;
    F.T = &T;
    F.Name = "k";
    unsigned W = T.WaveSize;
    auto Inst = [&](const char *Op, std::initializer_list<MOperand> Ops) {
      MInst MI;
      MI.setOp(Op);
      MI.Kind = llvm::StringRef(Op).starts_with("v_") ? InstKind::VALU
                : llvm::StringRef(Op).starts_with("s_") ? InstKind::SALU
                                                        : InstKind::Other;
      MI.Ops.assign(Ops.begin(), Ops.end());
      F.Insts.push_back(MI);
    };
    const char *MovMask = W == 64 ? "s_mov_b64" : "s_mov_b32";
    uint32_t Lane = F.newVReg(RegClass::V32, 0); // v0: the lane id
    std::vector<uint32_t> Vals;
    for (unsigned I = 0; I < 6; ++I) {
      Vals.push_back(F.newVReg(RegClass::V32));
      Inst("v_add_u32", {MOperand::def(Vals.back()), MOperand::use(Lane),
                         MOperand::imm(100 * (I + 1))});
    }
    // Lanes 0, 2, 4, ... only: the values merge.
    Inst(MovMask, {MOperand::hw(HwReg::Exec, true, false),
                   MOperand::imm(0x5555555555555555ll)});
    for (uint32_t R : Vals) {
      MOperand D = MOperand::def(R);
      D.IsUse = true;
      Inst("v_add_u32", {D, MOperand::use(R), MOperand::imm(1000)});
    }
    uint32_t S = F.newVReg(RegClass::S32);
    Inst("v_readlane_b32",
         {MOperand::def(S), MOperand::use(Vals[2]), MOperand::imm(1)});
    Inst(MovMask, {MOperand::hw(HwReg::Exec, true, false), MOperand::imm(-1)});
    Inst("out_s", {MOperand::use(S)});
    for (uint32_t R : Vals)
      Inst("out_v", {MOperand::use(R)});

    LaneMachine Before{F, false, W};
    for (unsigned L = 0; L < W; ++L)
      Before.V[{Lane * 4, L}] = L;
    Before.run();
    ASSERT_FALSE(llvm::errorToBool(allocateRegisters(F)));
    EXPECT_GT(F.NumSpilledVGPRs, 0u);
    EXPECT_LE(F.NumVGPRs, 4u);
    EXPECT_EQ(F.VRegs[Lane].Phys, 0);
    if (F.spillsToAGPRs()) {
      EXPECT_GT(F.NumAGPRs, 0u);
      EXPECT_EQ(F.ScratchBytes, 0u);
    } else {
      EXPECT_EQ(F.NumAGPRs, 0u);
      EXPECT_GT(F.ScratchBytes, 0u);
    }
    bool WholeWave = false;
    for (const MInst &MI : F.Insts)
      if (MI.Op == MovMask && MI.Ops[1].K == MOperand::Hw)
        WholeWave = true; // EXEC saved around the v_readlane's load
    EXPECT_TRUE(WholeWave);
    LaneMachine After{F, true, W};
    for (unsigned L = 0; L < W; ++L)
      After.V[{0, L}] = L;
    After.run();
    EXPECT_EQ(Before.Out, After.Out);
    EXPECT_EQ(After.Out[0], 301u); // lane 1 of Vals[2], not merged
  }
}


} // namespace

// --- GCNOps.def ---------------------------------------------------------------

namespace {

/// What LLVM 22's .td files and AMD's ISA guides say about one
/// instruction, written down by hand from those sources (not from
/// GCNOps.def): SOPInstructions.td `Defs`/`Uses`, VOP1Instructions.td
/// `TRANS = 1`, VOP3Instructions.td (v_div_fmas `Uses = [VCC, EXEC]`), the
/// microcode format each is listed under in the CDNA3/RDNA3 ISA guides.
struct OpFact {
  const char *Spelling;
  InstKind Kind;
  GCNEnc Enc;
  bool DefSCC, UseSCC, Trans;
};

const OpFact Facts[] = {
    // SOP1
    {"s_mov_b32", InstKind::SALU, GCNEnc::SOP1, false, false, false},
    {"s_mov_b64", InstKind::SALU, GCNEnc::SOP1, false, false, false},
    {"s_not_b32", InstKind::SALU, GCNEnc::SOP1, true, false, false},
    {"s_brev_b32", InstKind::SALU, GCNEnc::SOP1, false, false, false},
    {"s_bcnt1_i32_b32", InstKind::SALU, GCNEnc::SOP1, true, false, false},
    {"s_ff1_i32_b32", InstKind::SALU, GCNEnc::SOP1, false, false, false},
    {"s_ff1_i32_b64", InstKind::SALU, GCNEnc::SOP1, false, false, false},
    {"s_flbit_i32_b32", InstKind::SALU, GCNEnc::SOP1, false, false, false},
    {"s_abs_i32", InstKind::SALU, GCNEnc::SOP1, true, false, false},
    {"s_and_saveexec_b64", InstKind::SALU, GCNEnc::SOP1, true, false, false},
    {"s_or_saveexec_b32", InstKind::SALU, GCNEnc::SOP1, true, false, false},
    // SOP2
    {"s_add_u32", InstKind::SALU, GCNEnc::SOP2, true, false, false},
    {"s_sub_u32", InstKind::SALU, GCNEnc::SOP2, true, false, false},
    {"s_mul_i32", InstKind::SALU, GCNEnc::SOP2, false, false, false},
    {"s_mul_hi_u32", InstKind::SALU, GCNEnc::SOP2, false, false, false},
    {"s_and_b64", InstKind::SALU, GCNEnc::SOP2, true, false, false},
    {"s_andn2_b32", InstKind::SALU, GCNEnc::SOP2, true, false, false},
    {"s_lshl_b32", InstKind::SALU, GCNEnc::SOP2, true, false, false},
    // SOPInstructions.td S_LSHL1..4_ADD_U32: `Defs = [SCC]` (overflow).
    {"s_lshl1_add_u32", InstKind::SALU, GCNEnc::SOP2, true, false, false},
    {"s_lshl4_add_u32", InstKind::SALU, GCNEnc::SOP2, true, false, false},
    {"s_ashr_i32", InstKind::SALU, GCNEnc::SOP2, true, false, false},
    {"s_bfe_u32", InstKind::SALU, GCNEnc::SOP2, true, false, false},
    {"s_min_i32", InstKind::SALU, GCNEnc::SOP2, true, false, false},
    {"s_cselect_b32", InstKind::SALU, GCNEnc::SOP2, false, true, false},
    {"s_cselect_b64", InstKind::SALU, GCNEnc::SOP2, false, true, false},
    // SOPC, SOPK, SOPP
    {"s_cmp_lg_u32", InstKind::SALU, GCNEnc::SOPC, true, false, false},
    {"s_cmp_eq_u64", InstKind::SALU, GCNEnc::SOPC, true, false, false},
    {"s_cbranch_scc1", InstKind::Branch, GCNEnc::SOPP, false, true, false},
    {"s_cbranch_scc0", InstKind::Branch, GCNEnc::SOPP, false, true, false},
    {"s_cbranch_execz", InstKind::Branch, GCNEnc::SOPP, false, false, false},
    {"s_branch", InstKind::Branch, GCNEnc::SOPP, false, false, false},
    {"s_trap", InstKind::Other, GCNEnc::SOPP, false, false, false},
    {"s_endpgm", InstKind::Other, GCNEnc::SOPP, false, false, false},
    {"s_nop", InstKind::Other, GCNEnc::SOPP, false, false, false},
    {"s_waitcnt", InstKind::Wait, GCNEnc::SOPP, false, false, false},
    {"s_waitcnt_vscnt", InstKind::Wait, GCNEnc::SOPK, false, false, false},
    // Memory
    {"s_load_dwordx2", InstKind::SMEM, GCNEnc::SMEM, false, false, false},
    {"global_load_dword", InstKind::VMEMLoad, GCNEnc::GLOBAL, false, false,
     false},
    {"global_store_short", InstKind::VMEMStore, GCNEnc::GLOBAL, false, false,
     false},
    {"ds_read_b32", InstKind::DS, GCNEnc::DS, false, false, false},
    {"ds_read2_b32", InstKind::DS, GCNEnc::DS, false, false, false},
    {"ds_write2_b32", InstKind::DS, GCNEnc::DS, false, false, false},
    {"ds_bpermute_b32", InstKind::DS, GCNEnc::DS, false, false, false},
    {"scratch_load_b32", InstKind::VMEMLoad, GCNEnc::SCRATCH, false, false,
     false},
    // VALU
    {"v_mov_b32", InstKind::VALU, GCNEnc::VOP1, false, false, false},
    {"v_exp_f32", InstKind::VALU, GCNEnc::VOP1, false, false, true},
    {"v_log_f32", InstKind::VALU, GCNEnc::VOP1, false, false, true},
    {"v_rcp_f32", InstKind::VALU, GCNEnc::VOP1, false, false, true},
    {"v_rcp_iflag_f32", InstKind::VALU, GCNEnc::VOP1, false, false, true},
    {"v_sqrt_f32", InstKind::VALU, GCNEnc::VOP1, false, false, true},
    {"v_rcp_f64", InstKind::VALU, GCNEnc::VOP1, false, false, true},
    {"v_rsq_f64", InstKind::VALU, GCNEnc::VOP1, false, false, true},
    {"v_fract_f64", InstKind::VALU, GCNEnc::VOP1, false, false, false},
    {"v_cvt_f32_f64", InstKind::VALU, GCNEnc::VOP1, false, false, false},
    {"v_readfirstlane_b32", InstKind::VALU, GCNEnc::VOP1, false, false, false},
    {"v_mul_f32", InstKind::VALU, GCNEnc::VOP2, false, false, false},
    {"v_fma_f32", InstKind::VALU, GCNEnc::VOP3, false, false, false},
    {"v_mul_lo_u32", InstKind::VALU, GCNEnc::VOP3, false, false, false},
    {"v_lshl_add_u32", InstKind::VALU, GCNEnc::VOP3, false, false, false},
    {"v_add_lshl_u32", InstKind::VALU, GCNEnc::VOP3, false, false, false},
    {"v_mad_u32_u24", InstKind::VALU, GCNEnc::VOP3, false, false, false},
    {"v_readlane_b32", InstKind::VALU, GCNEnc::VOP3, false, false, false},
    {"v_pk_add_f16", InstKind::VALU, GCNEnc::VOP3P, false, false, false},
    // VOP3PInstructions.td: V_PK_{FMA,MUL,ADD}_F32 under isGFX90APlus.
    {"v_pk_mul_f32", InstKind::VALU, GCNEnc::VOP3P, false, false, false},
    {"v_pk_add_f32", InstKind::VALU, GCNEnc::VOP3P, false, false, false},
    {"v_mov_b32_dpp", InstKind::VALU, GCNEnc::DPP, false, false, false},
};

} // namespace

TEST(AMDGCNOps, RowsAgreeWithLLVMAndISAGuides) {
  for (const OpFact &Fct : Facts) {
    SCOPED_TRACE(Fct.Spelling);
    GCNOp Op = lookupGCNOp(Fct.Spelling);
    ASSERT_NE(Op, GCNOp::None);
    MInst MI;
    MI.setOp(Op);
    EXPECT_EQ(MI.Op, Fct.Spelling);
    EXPECT_EQ(MI.Kind, Fct.Kind);
    EXPECT_EQ(MI.enc(), Fct.Enc);
    EXPECT_EQ(MI.writesSCC(), Fct.DefSCC);
    EXPECT_EQ(MI.readsSCC(), Fct.UseSCC);
    EXPECT_EQ(MI.has(OF_Trans), Fct.Trans);
  }
  // Implicit EXEC and VCC (SOPInstructions.td saveexec `Defs = [EXEC,
  // SCC], Uses = [EXEC]`; VOP3Instructions.td V_DIV_FMAS `Uses = [VCC,
  // EXEC]`; v_div_scale's VCC is an explicit operand).
  auto Info = [](const char *S) { return opInfo(lookupGCNOp(S)).Flags; };
  EXPECT_TRUE(Info("s_and_saveexec_b32") & OF_DefEXEC);
  EXPECT_TRUE(Info("s_and_saveexec_b32") & OF_UseEXEC);
  EXPECT_TRUE(Info("s_cbranch_execnz") & OF_UseEXEC);
  EXPECT_FALSE(Info("s_mov_b64") & OF_DefEXEC);
  EXPECT_TRUE(Info("v_div_fmas_f32") & OF_UseVCC);
  EXPECT_TRUE(Info("v_div_fmas_f64") & OF_UseVCC);
  EXPECT_FALSE(Info("v_div_scale_f32") & OF_UseVCC);
  EXPECT_FALSE(Info("v_cndmask_b32_e64") & OF_UseVCC);
}

TEST(AMDGCNOps, SpellingsAreUniqueAndLookUp) {
  std::set<std::string> Seen;
  for (size_t I = 1; I < size_t(GCNOp::NumOps); ++I) {
    const char *S = GCNOpTable[I].Spelling;
    EXPECT_TRUE(Seen.insert(S).second) << S;
    EXPECT_EQ(lookupGCNOp(S), GCNOp(I)) << S;
    // Only SALU, branches and waits have an SOP encoding; VALU rows a VOP
    // or DPP one; SCC is an SALU or branch matter.
    InstKind K = GCNOpTable[I].Kind;
    GCNEnc E = GCNOpTable[I].Enc;
    bool SOP = E == GCNEnc::SOP1 || E == GCNEnc::SOP2 || E == GCNEnc::SOPC ||
               E == GCNEnc::SOPK || E == GCNEnc::SOPP;
    bool VOP = E == GCNEnc::VOP1 || E == GCNEnc::VOP2 || E == GCNEnc::VOP3 ||
               E == GCNEnc::VOP3P || E == GCNEnc::DPP;
    if (K == InstKind::SALU || K == InstKind::Branch)
      EXPECT_TRUE(SOP) << S;
    if (K == InstKind::VALU)
      EXPECT_TRUE(VOP) << S;
    if (GCNOpTable[I].Flags & (OF_DefSCC | OF_UseSCC))
      EXPECT_TRUE(K == InstKind::SALU || K == InstKind::Branch) << S;
  }
  EXPECT_EQ(lookupGCNOp("s_not_a_mnemonic"), GCNOp::None);
}

// Every mnemonic the translator prints for the examples and conformance
// kernels, on every target, has a GCNOps.def row.
TEST(AMDGCNOps, EveryPrintedMnemonicHasARow) {
  namespace fs = std::filesystem;
  std::vector<fs::path> Files;
  fs::path Root = WAVE_SOURCE_DIR;
  for (const auto &E : fs::directory_iterator(Root / "examples"))
    if (E.path().extension() == ".wave")
      Files.push_back(E.path());
  for (const auto &E :
       fs::recursive_directory_iterator(Root / "test" / "conformance"))
    if (E.path().extension() == ".wave")
      Files.push_back(E.path());
  ASSERT_GT(Files.size(), 100u);
  std::set<std::string> Printed;
  unsigned Translated = 0;
  for (const fs::path &P : Files) {
    auto Buf = llvm::MemoryBuffer::getFile(P.string());
    ASSERT_TRUE(bool(Buf)) << P;
    llvm::Expected<WbinFile> W =
        tool::assembleExecutable((*Buf)->getBuffer(), P.filename().string());
    if (!W) { // the conformance suite's bad-* kernels
      llvm::consumeError(W.takeError());
      continue;
    }
    for (const GCNTarget &T : allTargets()) {
      TranslateOptions O;
      O.Target = &T;
      O.Comments = false;
      llvm::Expected<std::string> S = translateToAMDGCN(*W, O);
      if (!S) { // kernels that fault on purpose
        llvm::consumeError(S.takeError());
        continue;
      }
      ++Translated;
      llvm::SmallVector<llvm::StringRef, 0> Lines;
      llvm::StringRef(*S).split(Lines, '\n');
      for (llvm::StringRef L : Lines) {
        if (!L.consume_front("\t") || L.empty() || !llvm::isLower(L[0]))
          continue;
        Printed.insert(L.take_until([](char C) { return C == ' ' || C == '\t'; })
                           .str());
      }
    }
  }
  EXPECT_GT(Translated, 600u);
  for (const std::string &M : Printed)
    EXPECT_NE(lookupGCNOp(M), GCNOp::None) << M;
  EXPECT_GT(Printed.size(), 150u);
}

//===----------------------------------------------------------------------===//
// Combine.cpp: dominators, known bits, scoped CSE and fusion
//===----------------------------------------------------------------------===//

namespace {

/// A small hand-written kernel body for the Combine.cpp passes.
struct IRBuilder {
  GCNTarget T;
  MFunction F;
  explicit IRBuilder(const char *CPU) : T(*lookupTarget(CPU)) {
    F.T = &T;
    F.Name = "k";
  }
  MInst &inst(GCNOp Op, std::initializer_list<MOperand> Ops) {
    MInst MI;
    MI.setOp(Op);
    MI.Ops.assign(Ops.begin(), Ops.end());
    F.Insts.push_back(MI);
    return F.Insts.back();
  }
  void label(unsigned L) {
    MInst MI;
    MI.Kind = InstKind::Label;
    MI.Ops = {MOperand::label(L)};
    F.Insts.push_back(MI);
  }
  void branch(GCNOp Op, unsigned L) { inst(Op, {MOperand::label(L)}); }
  uint32_t v() { return F.newVReg(RegClass::V32); }
  uint32_t s() { return F.newVReg(RegClass::S32); }
  unsigned count(GCNOp Op) const {
    unsigned N = 0;
    for (const MInst &MI : F.Insts)
      N += MI.is(Op);
    return N;
  }
};

MOperand use(uint32_t R) { return MOperand::use(R); }
MOperand def(uint32_t R) { return MOperand::def(R); }
MOperand imm(int64_t V) { return MOperand::imm(V); }

} // namespace

// A diamond and a loop: block 0 dominates everything; the join's idom is
// the branch block, not either arm; a loop body's idom is its header.
TEST(AMDGCNCombine, Dominators) {
  IRBuilder B("gfx942");
  uint32_t X = B.s();
  B.inst(GCNOp::S_MOV_B32, {def(X), imm(1)});        // block 0
  B.branch(GCNOp::S_CBRANCH_SCC1, 1);
  B.inst(GCNOp::S_MOV_B32, {def(X), imm(2)});        // block 1 (then)
  B.branch(GCNOp::S_BRANCH, 2);
  B.label(1);                                        // block 2 (else)
  B.inst(GCNOp::S_MOV_B32, {def(X), imm(3)});
  B.label(2);                                        // block 3 (join, header)
  B.inst(GCNOp::S_ADD_U32, {def(X), use(X), imm(1)});
  B.branch(GCNOp::S_CBRANCH_SCC0, 2);                // latch: back to 3
  B.inst(GCNOp::S_ENDPGM, {});                       // block 4
  std::vector<CFGBlock> Blocks = buildCFG(B.F);
  ASSERT_EQ(Blocks.size(), 5u);
  std::vector<int> Idom = computeIdoms(Blocks);
  EXPECT_EQ(Idom[0], 0);
  EXPECT_EQ(Idom[1], 0);
  EXPECT_EQ(Idom[2], 0);
  EXPECT_EQ(Idom[3], 0);
  EXPECT_EQ(Idom[4], 3);
}

// Known bits: masks, bit-field extracts, right shifts, lane counts and
// narrow loads bound a value; sums and products of bounded values are
// bounded; an unknown source is not. A register's bound covers all of its
// definitions (5 and 7: 3 bits), a merging one keeping the old bound too.
TEST(AMDGCNCombine, ValueBits) {
  IRBuilder B("gfx942");
  uint32_t Tid = B.F.newVReg(RegClass::V32, 0); // precoloured: unknown
  uint32_t Tid8 = B.F.newVReg(RegClass::V32, 1);
  B.F.VRegs[Tid8].InputBits = 8; // an input the dispatch bounds
  uint32_t A = B.v(), E = B.v(), Sh = B.v(), L = B.v(), Lane = B.v(),
           Sum = B.v(), Prod = B.v(), Two = B.v(), Load = B.v(), Un = B.v(),
           Merge = B.v(), In = B.v();
  uint32_t Base = B.F.newVReg(RegClass::S64, 0);
  B.inst(GCNOp::V_AND_B32, {def(A), imm(0x3FF), use(Tid)});
  B.inst(GCNOp::V_BFE_U32, {def(E), use(Tid), imm(10), imm(10)});
  B.inst(GCNOp::V_LSHRREV_B32, {def(Sh), imm(20), use(Un)});
  // Lane id: mbcnt_lo(-1, 0) <= 32, then mbcnt_hi(-1, that) <= 63.
  B.inst(GCNOp::V_MBCNT_LO_U32_B32, {def(L), imm(-1), imm(0)});
  B.inst(GCNOp::V_MBCNT_LO_U32_B32, {def(Lane), imm(-1), imm(0)});
  B.inst(GCNOp::V_MBCNT_HI_U32_B32, {def(Lane), imm(-1), use(Lane)});
  B.inst(GCNOp::V_ADD_U32, {def(Sum), use(A), use(E)});
  B.inst(GCNOp::V_MUL_LO_U32, {def(Prod), use(A), use(Sh)});
  B.inst(GCNOp::V_MOV_B32, {def(Two), imm(5)});
  B.inst(GCNOp::V_MOV_B32, {def(Two), imm(7)});
  B.inst(GCNOp::GLOBAL_LOAD_UBYTE, {def(Load), use(A), use(Base)});
  B.inst(GCNOp::V_MOV_B32, {def(Merge), imm(0x1000)});
  MOperand M = def(Merge);
  M.IsUse = true;
  B.inst(GCNOp::V_AND_B32, {M, imm(1), use(A)});
  B.inst(GCNOp::V_MOV_B32, {def(In), use(Tid8)});
  std::vector<uint8_t> Bits = computeValueBits(B.F);
  EXPECT_EQ(Bits[Tid], 32);
  EXPECT_EQ(Bits[A], 10);
  EXPECT_EQ(Bits[E], 10);
  EXPECT_EQ(Bits[Sh], 12);
  EXPECT_EQ(Bits[L], 6);
  EXPECT_EQ(Bits[Lane], 6);
  EXPECT_EQ(Bits[Sum], 11);
  EXPECT_EQ(Bits[Prod], 22);
  EXPECT_EQ(Bits[Two], 3);
  EXPECT_EQ(Bits[Load], 8);
  EXPECT_EQ(Bits[Un], 32);
  EXPECT_EQ(Bits[Merge], 13);
  EXPECT_EQ(Bits[In], 8);
}

// Known bits around a loop: a counter halved each trip from 32 stays
// below 2^6; one incremented each trip is unbounded. In one block, a use
// reads the last definition before it (x = 7, then x = x >> 1: 2 bits for
// the second), unless EXEC changed in between for a VGPR (then any of its
// definitions: 5 >> 1 read after an EXEC write may see 0x100's lanes).
TEST(AMDGCNCombine, ValueBitsLoops) {
  IRBuilder B("gfx942");
  uint32_t Half = B.s(), Inc = B.s(), X = B.s(), Y = B.s(), V = B.v(),
           W = B.v(), Sv = B.F.newVReg(RegClass::S64);
  B.inst(GCNOp::S_MOV_B32, {def(Half), imm(32)});
  B.inst(GCNOp::S_MOV_B32, {def(Inc), imm(0)});
  B.inst(GCNOp::S_MOV_B32, {def(X), imm(7)});
  B.inst(GCNOp::S_LSHR_B32, {def(Y), use(X), imm(1)});
  B.inst(GCNOp::S_MOV_B32, {def(X), imm(0x100)});
  B.inst(GCNOp::V_MOV_B32, {def(V), imm(0x100)});
  B.inst(GCNOp::V_MOV_B32, {def(V), imm(5)});
  B.inst(GCNOp::S_MOV_B64, {MOperand::hw(HwReg::Exec, true, false), use(Sv)});
  B.inst(GCNOp::V_LSHRREV_B32, {def(W), imm(1), use(V)});
  B.label(0);
  B.inst(GCNOp::S_LSHR_B32, {def(Half), use(Half), imm(1)});
  B.inst(GCNOp::S_ADD_U32, {def(Inc), use(Inc), imm(1)});
  B.branch(GCNOp::S_CBRANCH_SCC1, 0);
  std::vector<uint8_t> Bits = computeValueBits(B.F);
  EXPECT_EQ(Bits[Half], 6);
  EXPECT_EQ(Bits[Inc], 32);
  EXPECT_EQ(Bits[Y], 2);
  EXPECT_EQ(Bits[W], 8);
}

// A predicate written under EXEC, P' = (P & ~exec) | M: with M a copy of
// EXEC it is one s_or P, exec; with M = 0 one s_andn2 P, exec. An EXEC
// write between the copy and the s_or keeps the three instructions.
TEST(AMDGCNCombine, PredicateWriteFold) {
  IRBuilder B("gfx942");
  auto Mask = [&]() { return B.F.newVReg(RegClass::S64); };
  uint32_t P = Mask(), M1 = Mask(), T1 = Mask(), P1 = Mask(), M2 = Mask(),
           T2 = Mask(), P2 = Mask(), M3 = Mask(), T3 = Mask(), P3 = Mask(),
           Sv = Mask();
  MOperand Exec = MOperand::hw(HwReg::Exec, false, true);
  B.inst(GCNOp::S_MOV_B64, {def(P), imm(5)});
  B.inst(GCNOp::S_MOV_B64, {def(M1), Exec});
  B.inst(GCNOp::S_ANDN2_B64, {def(T1), use(P), Exec});
  B.inst(GCNOp::S_OR_B64, {def(P1), use(T1), use(M1)});
  B.inst(GCNOp::S_MOV_B64, {def(M2), imm(0)});
  B.inst(GCNOp::S_ANDN2_B64, {def(T2), use(P1), Exec});
  B.inst(GCNOp::S_OR_B64, {def(P2), use(T2), use(M2)});
  B.inst(GCNOp::S_MOV_B64, {def(M3), Exec});
  B.inst(GCNOp::S_OR_SAVEEXEC_B64, {def(Sv), imm(-1)});
  B.inst(GCNOp::S_ANDN2_B64, {def(T3), use(P2), Exec});
  B.inst(GCNOp::S_OR_B64, {def(P3), use(T3), use(M3)});
  B.inst(GCNOp::S_MOV_B64, {MOperand::hw(HwReg::Exec, true, false), use(P3)});
  EXPECT_TRUE(runRangeFold(B.F));
  auto DefOf = [&](uint32_t R) -> const MInst * {
    for (const MInst &MI : B.F.Insts)
      if (!MI.Ops.empty() && MI.Ops[0].K == MOperand::VReg &&
          MI.Ops[0].Reg == R && MI.Ops[0].IsDef)
        return &MI;
    return nullptr;
  };
  ASSERT_TRUE(DefOf(P1) && DefOf(P2) && DefOf(P3));
  EXPECT_TRUE(DefOf(P1)->is(GCNOp::S_OR_B64));
  EXPECT_EQ(DefOf(P1)->Ops[1].Reg, P);
  EXPECT_EQ(DefOf(P1)->Ops[2].K, MOperand::Hw);
  EXPECT_TRUE(DefOf(P2)->is(GCNOp::S_ANDN2_B64));
  EXPECT_EQ(DefOf(P2)->Ops[1].Reg, P1);
  EXPECT_EQ(DefOf(T1), nullptr);
  EXPECT_EQ(DefOf(T2), nullptr);
  // The third keeps its s_andn2 and reads its copy of the old EXEC.
  EXPECT_NE(DefOf(T3), nullptr);
  EXPECT_EQ(DefOf(P3)->Ops[2].Reg, M3);
}

// Coalescing of in-place updates: a loop's chain acc1 = acc0 + x,
// acc2 = acc1 + x, acc0 = acc2 + x (each result a web of its own) ends up
// in acc0's register; a value written inside a whole-wave window (EXEC
// set to -1) is not merged into the register whose other lanes it would
// clobber, nor are two values live at once.
TEST(AMDGCNRegAlloc, CoalesceInPlace) {
  IRBuilder B("gfx942");
  uint32_t Acc0 = B.v(), Acc1 = B.v(), Acc2 = B.v(), X = B.v(), Out = B.v(),
           R = B.v(), T = B.v(), Both = B.v(), Keep = B.v(),
           Sv = B.F.newVReg(RegClass::S64);
  B.inst(GCNOp::V_MOV_B32, {def(X), imm(3)});
  B.inst(GCNOp::V_MOV_B32, {def(Acc0), imm(0)});
  B.label(0);
  B.inst(GCNOp::V_ADD_U32, {def(Acc1), use(Acc0), use(X)});
  B.inst(GCNOp::V_ADD_U32, {def(Acc2), use(Acc1), use(X)});
  B.inst(GCNOp::V_ADD_U32, {def(Acc0), use(Acc2), use(X)});
  B.branch(GCNOp::S_CBRANCH_SCC1, 0);
  B.inst(GCNOp::V_MOV_B32, {def(Out), use(Acc0)});
  B.inst(GCNOp::V_MOV_B32, {def(R), imm(9)});
  B.inst(GCNOp::S_OR_SAVEEXEC_B64, {def(Sv), imm(-1)});
  B.inst(GCNOp::V_MOV_B32, {def(T), use(X)});
  B.inst(GCNOp::S_MOV_B64, {MOperand::hw(HwReg::Exec, true, false), use(Sv)});
  B.inst(GCNOp::V_ADD_U32, {def(R), use(T), use(X)});
  B.inst(GCNOp::V_MOV_B32, {def(Keep), use(R)});
  // Keep is still live when Both is written from it: they interfere.
  B.inst(GCNOp::V_ADD_U32, {def(Both), use(Keep), use(X)});
  B.inst(GCNOp::V_ADD_U32, {def(Out), use(Both), use(Keep)});
  // D holds 7 in every lane, then a divergent part redefines it from A,
  // which dies there: lane-blind liveness sees no interference, but A's
  // register written before the if would clobber the 7 of the lanes the
  // if leaves out. EXEC changes between, so they keep their own.
  uint32_t A = B.v(), Dv = B.v(), Sv2 = B.F.newVReg(RegClass::S64),
           Cond = B.F.newVReg(RegClass::S64), Fin = B.v();
  B.inst(GCNOp::V_MOV_B32, {def(Dv), imm(7)});
  B.inst(GCNOp::V_MOV_B32, {def(A), imm(1)});
  B.inst(GCNOp::S_MOV_B64, {def(Cond), imm(1)});
  B.inst(GCNOp::S_AND_SAVEEXEC_B64, {def(Sv2), use(Cond)});
  B.inst(GCNOp::V_ADD_U32, {def(Dv), use(A), use(X)});
  B.inst(GCNOp::S_MOV_B64, {MOperand::hw(HwReg::Exec, true, false), use(Sv2)});
  B.inst(GCNOp::V_MOV_B32, {def(Fin), use(Dv)});
  coalesceInPlace(B.F);
  auto DefOf = [&](unsigned I) { return B.F.Insts[I].Ops[0].Reg; };
  // Instruction 20: D = A + X inside the if keeps D apart from A.
  EXPECT_NE(DefOf(20), B.F.Insts[20].Ops[1].Reg);
  // Instructions 3, 4, 5: the three adds of the loop, one register.
  EXPECT_EQ(DefOf(3), DefOf(4));
  EXPECT_EQ(DefOf(4), DefOf(5));
  EXPECT_EQ(B.F.Insts[3].Ops[1].Reg, DefOf(3));
  // Instruction 10: T, written with every lane enabled, keeps its own.
  EXPECT_NE(DefOf(10), DefOf(12));
  // Instruction 14: Both, from Keep which lives on.
  EXPECT_NE(DefOf(14), B.F.Insts[14].Ops[1].Reg);
}

// Range folding: a shuffle-style bounds check of a value known below W
// is gone (s_cmp_lt_u32 + s_cselect: the select becomes a move; v_cmp +
// v_cndmask under one EXEC: the select becomes a move); an unbounded one
// stays.
TEST(AMDGCNCombine, RangeFold) {
  IRBuilder B("gfx942");
  uint32_t Sel = B.s(), Un = B.s(), Mask = B.F.newVReg(RegClass::S64),
           Mask2 = B.F.newVReg(RegClass::S64), Lane = B.v(),
           VMask = B.F.newVReg(RegClass::S64), X = B.v(), D1 = B.v(),
           D2 = B.v(), D3 = B.v();
  B.inst(GCNOp::S_MOV_B32, {def(Sel), imm(16)});
  B.inst(GCNOp::S_CMP_LT_U32, {use(Sel), imm(64)});
  B.inst(GCNOp::S_CSELECT_B64, {def(Mask), imm(-1), imm(0)});
  B.inst(GCNOp::V_CNDMASK_B32_E64, {def(D1), imm(0), use(X), use(Mask)});
  B.inst(GCNOp::S_CMP_LT_U32, {use(Un), imm(64)});
  B.inst(GCNOp::S_CSELECT_B64, {def(Mask2), imm(-1), imm(0)});
  B.inst(GCNOp::V_CNDMASK_B32_E64, {def(D2), imm(0), use(X), use(Mask2)});
  B.inst(GCNOp::V_MBCNT_LO_U32_B32, {def(Lane), imm(-1), imm(0)});
  B.inst(GCNOp::V_CMP_GT_U32_E64, {def(VMask), imm(64), use(Lane)});
  B.inst(GCNOp::V_CNDMASK_B32_E64, {def(D3), imm(0), use(X), use(VMask)});
  // r == r is true, r != r false: the selects become moves of the first
  // and of the second value.
  uint32_t Flag = B.F.newVReg(RegClass::S64), Flag2 = B.F.newVReg(RegClass::S64);
  B.inst(GCNOp::S_CMP_EQ_U32, {use(Un), use(Un)});
  B.inst(GCNOp::S_CSELECT_B64, {def(Flag), imm(-1), imm(0)});
  B.inst(GCNOp::S_CMP_LG_U32, {use(Un), use(Un)});
  B.inst(GCNOp::S_CSELECT_B64, {def(Flag2), imm(-1), imm(0)});
  EXPECT_TRUE(runRangeFold(B.F));
  EXPECT_EQ(B.count(GCNOp::S_CMP_EQ_U32), 0u);
  EXPECT_EQ(B.count(GCNOp::S_CMP_LG_U32), 0u);
  EXPECT_EQ(B.count(GCNOp::S_MOV_B64), 3u); // Mask, Flag = -1, Flag2 = 0
  for (const MInst &MI : B.F.Insts)
    if (MI.is(GCNOp::S_MOV_B64) && MI.Ops[0].Reg == Flag2)
      EXPECT_EQ(MI.Ops[1].Value, 0);
  EXPECT_EQ(B.count(GCNOp::S_CMP_LT_U32), 1u);
  EXPECT_EQ(B.count(GCNOp::S_CSELECT_B64), 1u);
  EXPECT_EQ(B.count(GCNOp::V_CNDMASK_B32_E64), 1u); // D2's
  EXPECT_EQ(B.count(GCNOp::V_MOV_B32), 2u);
}

// CSE: a VALU repeat in the same EXEC is removed and its uses renamed; a
// repeat after an EXEC write is kept; an SALU repeat after an EXEC write
// is removed; an SALU repeat whose SCC is read is kept.
TEST(AMDGCNCombine, ScopedCSE) {
  IRBuilder B("gfx942");
  uint32_t X = B.v(), Y = B.v(), P1 = B.v(), P2 = B.v(), P3 = B.v();
  uint32_t SA = B.s(), S1 = B.s(), S2 = B.s(), S3 = B.s(), Sel = B.s();
  uint32_t Mask = B.F.newVReg(RegClass::S64), Saved = B.F.newVReg(RegClass::S64);
  B.inst(GCNOp::V_MOV_B32, {def(X), imm(0x1234)});
  B.inst(GCNOp::V_MOV_B32, {def(Y), imm(0x77)});
  B.inst(GCNOp::S_MOV_B32, {def(SA), imm(99)});
  B.inst(GCNOp::V_MUL_LO_U32, {def(P1), use(X), use(Y)});
  B.inst(GCNOp::S_MUL_I32, {def(S1), use(SA), use(SA)});
  B.inst(GCNOp::V_MUL_LO_U32, {def(P2), use(X), use(Y)}); // same EXEC: gone
  B.inst(GCNOp::S_MOV_B64, {def(Mask), imm(5)});
  B.inst(GCNOp::S_AND_SAVEEXEC_B64, {def(Saved), use(Mask)});
  B.F.Insts.back().Ops.push_back(MOperand::hw(HwReg::Exec, true, true));
  B.inst(GCNOp::V_MUL_LO_U32, {def(P3), use(X), use(Y)}); // new EXEC: kept
  B.inst(GCNOp::S_MUL_I32, {def(S2), use(SA), use(SA)});  // scalar: gone
  B.inst(GCNOp::S_ADD_U32, {def(S3), use(SA), use(SA)});
  B.inst(GCNOp::S_ADD_U32, {def(S3), use(SA), use(SA)});
  B.inst(GCNOp::S_CSELECT_B32, {def(Sel), imm(1), imm(0)});
  MInst &Out = B.inst(GCNOp::None, {use(P1), use(P2), use(P3), use(S1),
                                    use(S2), use(S3), use(Sel)});
  Out.Kind = InstKind::Other;
  runCSE(B.F);
  EXPECT_EQ(B.count(GCNOp::V_MUL_LO_U32), 2u);
  EXPECT_EQ(B.count(GCNOp::S_MUL_I32), 1u);
  // S3 has two definitions: neither is a candidate.
  EXPECT_EQ(B.count(GCNOp::S_ADD_U32), 2u);
  const MInst &O = B.F.Insts.back();
  EXPECT_EQ(O.Ops[0].Reg, P1);
  EXPECT_EQ(O.Ops[1].Reg, P1);
  EXPECT_EQ(O.Ops[2].Reg, P3);
  EXPECT_EQ(O.Ops[3].Reg, S1);
  EXPECT_EQ(O.Ops[4].Reg, S1);
}

// The SCC of a repeated SALU instruction that is read keeps it.
TEST(AMDGCNCombine, CSEKeepsReadSCC) {
  IRBuilder B("gfx942");
  uint32_t SA = B.s(), S1 = B.s(), S2 = B.s(), Sel = B.s();
  B.inst(GCNOp::S_MOV_B32, {def(SA), imm(99)});
  B.inst(GCNOp::S_ADD_U32, {def(S1), use(SA), imm(-1)});
  B.inst(GCNOp::S_ADD_U32, {def(S2), use(SA), imm(-1)});
  B.inst(GCNOp::S_CSELECT_B32, {def(Sel), imm(1), imm(0)}); // reads S2's SCC
  MInst &Out = B.inst(GCNOp::None, {use(S1), use(S2), use(Sel)});
  Out.Kind = InstKind::Other;
  runCSE(B.F);
  EXPECT_EQ(B.count(GCNOp::S_ADD_U32), 2u);
}

// Fusion: shift then add, add then shift, narrow multiply then add; not
// across an EXEC write, not with a second non-add use, not with a factor
// of 25 bits, not with two SGPRs on gfx942's one-operand constant bus.
TEST(AMDGCNCombine, Fusion) {
  IRBuilder B("gfx942");
  uint32_t Tid = B.F.newVReg(RegClass::V32, 0);
  uint32_t A = B.v(), X = B.v(), T1 = B.v(), R1 = B.v(), T2 = B.v(),
           R2 = B.v(), T3 = B.v(), R3 = B.v(), W = B.v(), T4 = B.v(),
           R4 = B.v(), T5 = B.v(), R5 = B.v(), R5b = B.v();
  uint32_t SX = B.s(), SY = B.s(), T6 = B.s(), R6 = B.v();
  B.inst(GCNOp::V_AND_B32, {def(A), imm(0x3FF), use(Tid)});
  B.inst(GCNOp::V_MOV_B32, {def(X), use(Tid)});
  B.inst(GCNOp::V_LSHLREV_B32, {def(T1), imm(2), use(X)});
  B.inst(GCNOp::V_ADD_U32, {def(R1), use(A), use(T1)});    // lshl_add
  B.inst(GCNOp::V_ADD_U32, {def(T2), use(A), use(X)});
  B.inst(GCNOp::V_LSHLREV_B32, {def(R2), imm(3), use(T2)}); // add_lshl
  B.inst(GCNOp::V_AND_B32, {def(W), imm(0x1FFFFFF), use(Tid)});
  B.inst(GCNOp::V_MUL_LO_U32, {def(T3), use(A), use(A)});
  B.inst(GCNOp::V_ADD_U32, {def(R3), use(T3), use(X)});     // mad_u32_u24
  B.inst(GCNOp::V_MUL_LO_U32, {def(T4), use(A), use(W)});
  B.inst(GCNOp::V_ADD_U32, {def(R4), use(T4), use(X)});     // 25 bits: no
  B.inst(GCNOp::V_LSHLREV_B32, {def(T5), imm(1), use(X)});
  B.inst(GCNOp::V_ADD_U32, {def(R5), use(T5), use(A)});
  B.inst(GCNOp::V_XOR_B32, {def(R5b), use(T5), use(A)});   // other use: no
  B.inst(GCNOp::S_MOV_B32, {def(SX), imm(100)});
  B.inst(GCNOp::S_LOAD_DWORD, {def(SY), use(B.F.newVReg(RegClass::S64, 0)),
                               imm(8)});
  B.inst(GCNOp::S_LSHL_B32, {def(T6), use(SY), use(SX)});
  B.inst(GCNOp::V_ADD_U32, {def(R6), use(T6), use(A)}); // two SGPRs: no
  MInst &Out = B.inst(GCNOp::None, {use(R1), use(R2), use(R3), use(R4),
                                    use(R5), use(R5b), use(R6)});
  Out.Kind = InstKind::Other;
  runFusion(B.F);
  EXPECT_EQ(B.count(GCNOp::V_LSHL_ADD_U32), 1u);
  EXPECT_EQ(B.count(GCNOp::V_ADD_LSHL_U32), 1u);
  EXPECT_EQ(B.count(GCNOp::V_MAD_U32_U24), 1u);
  EXPECT_EQ(B.count(GCNOp::V_MUL_LO_U32), 1u);
  EXPECT_EQ(B.count(GCNOp::S_LSHL_B32), 1u);
  EXPECT_EQ(B.count(GCNOp::V_LSHLREV_B32), 1u); // T5's
  for (const MInst &MI : B.F.Insts)
    if (MI.is(GCNOp::V_LSHL_ADD_U32)) {
      EXPECT_EQ(MI.Ops[0].Reg, R1);
      EXPECT_EQ(MI.Ops[1].Reg, X);
      EXPECT_EQ(MI.Ops[2].Value, 2);
      EXPECT_EQ(MI.Ops[3].Reg, A);
    } else if (MI.is(GCNOp::V_ADD_LSHL_U32)) {
      EXPECT_EQ(MI.Ops[0].Reg, R2);
      EXPECT_EQ(MI.Ops[3].Value, 3);
    } else if (MI.is(GCNOp::V_MAD_U32_U24)) {
      EXPECT_EQ(MI.Ops[0].Reg, R3);
      EXPECT_EQ(MI.Ops[3].Reg, X);
    }
}

// No fusion across an EXEC write; scalar shift-adds by 1..4 become
// s_lshl<n>_add_u32 only while their SCC is unread and their operands need
// at most one literal.
TEST(AMDGCNCombine, FusionBarriers) {
  IRBuilder B("gfx1100");
  uint32_t X = B.v(), A = B.v(), T1 = B.v(), R1 = B.v();
  uint32_t SX = B.s(), SY = B.s(), T2 = B.s(), R2 = B.s(), T3 = B.s(),
           R3 = B.s(), Sel = B.s();
  uint32_t Mask = B.F.newVReg(RegClass::S32), Saved = B.F.newVReg(RegClass::S32);
  uint32_t Kern = B.F.newVReg(RegClass::S64, 0);
  B.inst(GCNOp::V_MOV_B32, {def(X), imm(3)});
  B.inst(GCNOp::V_MOV_B32, {def(A), imm(4)});
  B.inst(GCNOp::S_LOAD_DWORD, {def(SX), use(Kern), imm(8)});
  B.inst(GCNOp::S_LOAD_DWORD, {def(SY), use(Kern), imm(12)});
  B.inst(GCNOp::S_MOV_B32, {def(Mask), imm(1)});
  B.inst(GCNOp::V_LSHLREV_B32, {def(T1), imm(2), use(X)});
  B.inst(GCNOp::S_AND_SAVEEXEC_B32, {def(Saved), use(Mask)});
  B.F.Insts.back().Ops.push_back(MOperand::hw(HwReg::Exec, true, true));
  B.inst(GCNOp::V_ADD_NC_U32, {def(R1), use(A), use(T1)}); // EXEC changed
  B.inst(GCNOp::S_LSHL_B32, {def(T2), use(SX), imm(3)});
  B.inst(GCNOp::S_ADD_U32, {def(R2), use(T2), use(SY)});   // s_lshl3_add
  B.inst(GCNOp::S_LSHL_B32, {def(T3), use(SX), imm(2)});
  B.inst(GCNOp::S_ADD_U32, {def(R3), use(SY), use(T3)});
  B.inst(GCNOp::S_CSELECT_B32, {def(Sel), imm(1), imm(0)}); // reads its SCC
  // Two different literals do not fit one SOP2 instruction.
  uint32_t T4 = B.s(), R4 = B.s();
  B.inst(GCNOp::S_LSHL_B32, {def(T4), imm(0x12345), imm(2)});
  B.inst(GCNOp::S_ADD_U32, {def(R4), use(T4), imm(0x6789)});
  MInst &Out = B.inst(GCNOp::None,
                      {use(R1), use(R2), use(R3), use(Sel), use(R4)});
  Out.Kind = InstKind::Other;
  runFusion(B.F);
  EXPECT_EQ(B.count(GCNOp::V_LSHL_ADD_U32), 0u);
  EXPECT_EQ(B.count(GCNOp::S_LSHL3_ADD_U32), 1u);
  EXPECT_EQ(B.count(GCNOp::S_LSHL2_ADD_U32), 0u);
  EXPECT_EQ(B.count(GCNOp::S_LSHL_B32), 2u);
}

// Branch clean-up: `s_cbranch_scc1 exit; latch: s_branch head; exit:` with
// no branch to the latch becomes `s_cbranch_scc0 head`; a branch over
// labels to where it falls through goes; with a `continue` branching to
// the latch, the s_branch is still reached from there and stays.
TEST(AMDGCNPeephole, SimplifyBranches) {
  auto Loop = [](bool ContinueToLatch) {
    IRBuilder B("gfx942");
    unsigned Head = B.F.newLabel(), Latch = B.F.newLabel(),
             Exit = B.F.newLabel();
    uint32_t X = B.s();
    B.inst(GCNOp::S_MOV_B32, {def(X), imm(0)});
    B.label(Head);
    B.inst(GCNOp::S_ADD_U32, {def(X), use(X), imm(1)});
    if (ContinueToLatch)
      B.branch(GCNOp::S_CBRANCH_EXECZ, Latch);
    B.inst(GCNOp::S_CMP_EQ_U32, {use(X), imm(4)});
    B.branch(GCNOp::S_CBRANCH_SCC1, Exit);
    B.label(Latch);
    B.branch(GCNOp::S_BRANCH, Head);
    B.label(Exit);
    B.inst(GCNOp::S_ENDPGM, {});
    simplifyBranches(B.F);
    return B;
  };
  IRBuilder Folded = Loop(false);
  EXPECT_EQ(Folded.count(GCNOp::S_BRANCH), 0u);
  EXPECT_EQ(Folded.count(GCNOp::S_CBRANCH_SCC1), 0u);
  ASSERT_EQ(Folded.count(GCNOp::S_CBRANCH_SCC0), 1u);
  for (const MInst &MI : Folded.F.Insts)
    if (MI.is(GCNOp::S_CBRANCH_SCC0))
      EXPECT_EQ(MI.Ops[0].Value, 0); // the head
  IRBuilder Kept = Loop(true);
  EXPECT_EQ(Kept.count(GCNOp::S_BRANCH), 1u);
  EXPECT_EQ(Kept.count(GCNOp::S_CBRANCH_SCC1), 1u);
  EXPECT_EQ(Kept.count(GCNOp::S_CBRANCH_EXECZ), 1u);

  IRBuilder Next("gfx942");
  Next.branch(GCNOp::S_CBRANCH_EXECZ, 1);
  Next.label(0);
  Next.label(1);
  Next.inst(GCNOp::S_ENDPGM, {});
  Next.F.NumLabels = 2;
  simplifyBranches(Next.F);
  EXPECT_EQ(Next.count(GCNOp::S_CBRANCH_EXECZ), 0u);
}

// LICM: in a loop entered by falling through, a VALU value from sources the
// loop never writes moves before the header; a value from a loop-carried
// source, a lane-mask write (v_cmp) and a register defined twice stay; a
// loop that widens EXEC (a whole-wave window) keeps everything.
TEST(AMDGCNCombine, LICM) {
  auto Build = [](bool WholeWave) {
    IRBuilder B("gfx942");
    unsigned Head = B.F.newLabel();
    uint32_t N = B.s(), X = B.v(), Inv = B.v(), Var = B.v(), Twice = B.v(),
             Out = B.v(), Mask = B.F.newVReg(RegClass::S64),
             Saved = B.F.newVReg(RegClass::S64);
    B.inst(GCNOp::S_MOV_B32, {def(N), imm(7)});
    B.inst(GCNOp::V_MOV_B32, {def(X), imm(1)});
    B.label(Head);
    B.inst(GCNOp::V_CVT_F32_U32, {def(Inv), use(N)});          // invariant
    B.inst(GCNOp::V_ADD_U32, {def(Var), use(X), use(Inv)});     // X varies
    B.inst(GCNOp::V_CMP_EQ_U32_E64, {def(Mask), use(N), imm(0)}); // mask
    B.inst(GCNOp::V_MOV_B32, {def(Twice), imm(3)});
    B.inst(GCNOp::V_MOV_B32, {def(Twice), imm(4)});
    if (WholeWave) {
      B.inst(GCNOp::S_OR_SAVEEXEC_B64, {def(Saved), imm(-1)});
      B.F.Insts.back().Ops.push_back(MOperand::hw(HwReg::Exec, true, true));
    }
    B.inst(GCNOp::V_ADD_U32, {def(Out), use(Var), use(Twice)});
    B.inst(GCNOp::V_MOV_B32, {def(X), use(Out)});
    B.inst(GCNOp::S_CMP_EQ_U32, {use(N), imm(0)});
    B.branch(GCNOp::S_CBRANCH_SCC0, Head);
    B.inst(GCNOp::S_ENDPGM, {});
    runLICM(B.F);
    return B;
  };
  // Index of the first instruction with opcode Op, or -1.
  auto At = [](const IRBuilder &B, GCNOp Op) {
    for (unsigned I = 0; I < B.F.Insts.size(); ++I)
      if (B.F.Insts[I].is(Op))
        return int(I);
    return -1;
  };
  auto LabelAt = [](const IRBuilder &B) {
    for (unsigned I = 0; I < B.F.Insts.size(); ++I)
      if (B.F.Insts[I].Kind == InstKind::Label)
        return int(I);
    return -1;
  };
  IRBuilder Moved = Build(false);
  EXPECT_LT(At(Moved, GCNOp::V_CVT_F32_U32), LabelAt(Moved));
  EXPECT_GT(At(Moved, GCNOp::V_ADD_U32), LabelAt(Moved));
  EXPECT_GT(At(Moved, GCNOp::V_CMP_EQ_U32_E64), LabelAt(Moved));
  unsigned MovsInLoop = 0;
  for (unsigned I = unsigned(LabelAt(Moved)); I < Moved.F.Insts.size(); ++I)
    MovsInLoop += Moved.F.Insts[I].is(GCNOp::V_MOV_B32);
  EXPECT_EQ(MovsInLoop, 3u); // both writes of Twice, and X's update
  IRBuilder Kept = Build(true);
  EXPECT_GT(At(Kept, GCNOp::V_CVT_F32_U32), LabelAt(Kept));
}

// The packed-f32 op_sel hazard (gfx942, as clang -O3 pads it): a
// v_pk_mul_f32 whose op_sel takes src0's high half, read by the next VALU,
// gets one wait state (s_nop 0); with op_sel:[0,0] it gets none, nor does
// an unrelated VALU in between leave one to add.
TEST(AMDGCNHazards, PackedOpSelForwarding) {
  auto Run = [](const char *OpSel, bool Gap) {
    IRBuilder B("gfx942");
    uint32_t A = B.F.newVReg(RegClass::V64), Bv = B.F.newVReg(RegClass::V64),
             P = B.F.newVReg(RegClass::V64), C = B.F.newVReg(RegClass::V64),
             X = B.v();
    B.F.VRegs[A].Phys = 0, B.F.VRegs[Bv].Phys = 2, B.F.VRegs[P].Phys = 4;
    B.F.VRegs[C].Phys = 6, B.F.VRegs[X].Phys = 8;
    B.inst(GCNOp::V_PK_MUL_F32, {def(P), use(A), use(Bv)}).Suffix = OpSel;
    if (Gap)
      B.inst(GCNOp::V_MOV_B32, {def(X), imm(1)});
    B.inst(GCNOp::V_PK_ADD_F32, {def(C), use(C), use(P)});
    B.inst(GCNOp::S_ENDPGM, {});
    mitigateHazards(B.F);
    return B.count(GCNOp::S_NOP);
  };
  EXPECT_EQ(Run(" op_sel:[1,0] op_sel_hi:[1,1]", false), 1u);
  EXPECT_EQ(Run(" op_sel_hi:[0,1]", false), 0u);
  EXPECT_EQ(Run(" op_sel:[1,0] op_sel_hi:[1,1]", true), 0u);
}

// SCC fold: `s_lshr R; s_cmp_eq_u32 R, 0` drops the compare and inverts its
// readers (a branch, an s_cselect); `s_cmp_lg_u32` just goes; an
// s_add_u32 (SCC = carry) and a compare not right after keep theirs.
TEST(AMDGCNCombine, SCCFold) {
  IRBuilder B("gfx942");
  uint32_t R = B.s(), M = B.F.newVReg(RegClass::S64), Q = B.s(), T = B.s();
  unsigned L = B.F.newLabel();
  B.inst(GCNOp::S_MOV_B32, {def(R), imm(64)});
  B.label(L);
  B.inst(GCNOp::S_LSHR_B32, {def(R), use(R), imm(1)});
  B.inst(GCNOp::S_CMP_EQ_U32, {use(R), imm(0)});
  B.inst(GCNOp::S_CSELECT_B64, {def(M), imm(-1), imm(0)});
  B.branch(GCNOp::S_CBRANCH_SCC0, L);
  B.inst(GCNOp::S_AND_B32, {def(Q), use(R), imm(3)});
  B.inst(GCNOp::S_CMP_LG_U32, {use(Q), imm(0)});
  B.inst(GCNOp::S_ADD_U32, {def(T), use(Q), imm(1)});
  B.inst(GCNOp::S_CMP_EQ_U32, {use(T), imm(0)});
  MInst &Use = B.inst(GCNOp::None, {use(M), use(T)});
  Use.Kind = InstKind::Other;
  B.inst(GCNOp::S_CSELECT_B32, {def(Q), imm(1), imm(2)}); // reads the add's
  B.inst(GCNOp::S_ENDPGM, {});
  runSCCFold(B.F);
  EXPECT_EQ(B.count(GCNOp::S_CMP_EQ_U32), 1u); // the add's stays
  EXPECT_EQ(B.count(GCNOp::S_CMP_LG_U32), 0u);
  EXPECT_EQ(B.count(GCNOp::S_CBRANCH_SCC1), 1u);
  EXPECT_EQ(B.count(GCNOp::S_CBRANCH_SCC0), 0u);
  for (const MInst &MI : B.F.Insts)
    if (MI.is(GCNOp::S_CSELECT_B64)) {
      EXPECT_EQ(MI.Ops[1].Value, 0);
      EXPECT_EQ(MI.Ops[2].Value, -1);
    }
}
