//===- AMDGCNTest.cpp - The AMDGCN translator's internals -----------------===//
#include "wave/AMDGCN/Target.h"
#include "wave/AMDGCN/Translate.h"
#include "wave/Asm/AsmParser.h"

#include "llvm/Support/Error.h"

#include <gtest/gtest.h>

#include <regex>

using namespace wave;
using namespace wave::amdgcn;

namespace {

std::string translate(llvm::StringRef Src, llvm::StringRef CPU,
                      std::string *Err = nullptr) {
  llvm::Expected<WbinFile> F = assembleString(Src, "t.wave");
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
  // r2 dies at the fadd, whose result r4 takes its register.
  ASSERT_TRUE(std::regex_search(
      S, M, std::regex("v_add_f32 (v[0-9]+), v[0-9]+, (v[0-9]+)\n")))
      << S;
  EXPECT_EQ(M[1], M[2]) << S;
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
  llvm::Expected<WbinFile> F = assembleString(".kernel k\n halt\n.end\n",
                                              "t.wave");
  ASSERT_TRUE(bool(F));
  F->Relocatable = true;
  TranslateOptions O;
  O.Target = lookupTarget("gfx942");
  llvm::Expected<std::string> S = translateToAMDGCN(*F, O);
  ASSERT_FALSE(bool(S));
  EXPECT_NE(llvm::toString(S.takeError()).find("wave-link"),
            std::string::npos);
}

} // namespace
