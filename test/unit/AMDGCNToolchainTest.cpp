//===- AMDGCNToolchainTest.cpp - Finding and running clang and ld.lld -----===//
//
// findToolchain()'s precedence (option > environment > PATH, clang-22 before
// clang) and buildCodeObject()'s error reports and clean-up
// (wave/AMDGCN/Toolchain.h). The tools are small shell scripts written into
// a private directory; PATH, WAVE_CLANG, WAVE_LD_LLD and TMPDIR are set
// inside each test and restored afterwards. One test runs the real
// clang-22 and ld.lld-22 and is skipped when they are not installed.
//
//===----------------------------------------------------------------------===//
#include "wave/AMDGCN/Toolchain.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <string>

using namespace llvm;
using namespace wave::amdgcn;

namespace {

/// Saves an environment variable and restores (or unsets) it on exit.
class EnvGuard {
public:
  explicit EnvGuard(const char *Name) : Name(Name) {
    if (const char *V = std::getenv(Name))
      Saved = V;
  }
  ~EnvGuard() { restore(); }
  void set(const std::string &V) { ::setenv(Name, V.c_str(), 1); }
  void restore() {
    if (Saved)
      set(*Saved);
    else
      unset();
  }
  void unset() { ::unsetenv(Name); }

private:
  const char *Name;
  std::optional<std::string> Saved;
};

class AMDGCNToolchainTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(sys::fs::createUniqueDirectory("wave-tc-test", Root));
    Bin = sub("bin");
    Other = sub("other");
    Tmp = sub("tmp");
    WaveClang.unset();
    WaveLdLld.unset();
    Path.set(Bin);
  }
  void TearDown() override { sys::fs::remove_directories(Root); }

  std::string sub(StringRef Name) {
    SmallString<256> P(Root);
    sys::path::append(P, Name);
    EXPECT_FALSE(sys::fs::create_directories(P));
    return std::string(P);
  }

  /// Writes an executable shell script \p Dir/\p Name with \p Body.
  std::string script(StringRef Dir, StringRef Name, StringRef Body) {
    SmallString<256> P(Dir);
    sys::path::append(P, Name);
    std::error_code EC;
    {
      raw_fd_ostream OS(P, EC);
      EXPECT_FALSE(EC);
      OS << "#!/bin/sh\n" << Body << "\n";
    }
    EXPECT_FALSE(sys::fs::setPermissions(
        P, sys::fs::perms(sys::fs::all_read | sys::fs::all_exe |
                          sys::fs::owner_write)));
    return std::string(P);
  }
  std::string tool(StringRef Dir, StringRef Name) {
    return script(Dir, Name, "exit 0");
  }

  /// Names of the entries of \p Dir.
  std::vector<std::string> entries(StringRef Dir) {
    std::vector<std::string> Names;
    std::error_code EC;
    for (sys::fs::directory_iterator I(Dir, EC), E; I != E && !EC;
         I.increment(EC))
      Names.push_back(sys::path::filename(I->path()).str());
    return Names;
  }

  SmallString<256> Root;
  std::string Bin, Other, Tmp;
  EnvGuard Path{"PATH"}, WaveClang{"WAVE_CLANG"}, WaveLdLld{"WAVE_LD_LLD"},
      TmpDir{"TMPDIR"};
};

std::string errorOf(Expected<Toolchain> R) {
  if (R)
    return "";
  return toString(R.takeError());
}

TEST_F(AMDGCNToolchainTest, PathPrefersVersionedNames) {
  std::string Clang = tool(Bin, "clang"), Clang22 = tool(Bin, "clang-22");
  std::string Ld = tool(Bin, "ld.lld"), Ld22 = tool(Bin, "ld.lld-22");
  Expected<Toolchain> TC = findToolchain({});
  ASSERT_TRUE(bool(TC)) << toString(TC.takeError());
  EXPECT_EQ(TC->Clang, Clang22);
  EXPECT_EQ(TC->LdLld, Ld22);

  ASSERT_FALSE(sys::fs::remove(Clang22));
  ASSERT_FALSE(sys::fs::remove(Ld22));
  TC = findToolchain({});
  ASSERT_TRUE(bool(TC)) << toString(TC.takeError());
  EXPECT_EQ(TC->Clang, Clang);
  EXPECT_EQ(TC->LdLld, Ld);
}

TEST_F(AMDGCNToolchainTest, EnvironmentBeatsPath) {
  tool(Bin, "clang-22");
  tool(Bin, "ld.lld-22");
  std::string EnvClang = tool(Other, "my-clang");
  std::string EnvLd = tool(Other, "my-ld");
  WaveClang.set(EnvClang);
  WaveLdLld.set(EnvLd);
  Expected<Toolchain> TC = findToolchain({});
  ASSERT_TRUE(bool(TC)) << toString(TC.takeError());
  EXPECT_EQ(TC->Clang, EnvClang);
  EXPECT_EQ(TC->LdLld, EnvLd);
}

TEST_F(AMDGCNToolchainTest, OptionBeatsEnvironment) {
  tool(Bin, "clang-22");
  tool(Bin, "ld.lld-22");
  WaveClang.set(tool(Other, "env-clang"));
  WaveLdLld.set(tool(Other, "env-ld"));
  ToolchainRequest Req;
  Req.Clang = tool(Other, "opt-clang");
  Req.LdLld = tool(Other, "opt-ld");
  Expected<Toolchain> TC = findToolchain(Req);
  ASSERT_TRUE(bool(TC)) << toString(TC.takeError());
  EXPECT_EQ(TC->Clang, Req.Clang);
  EXPECT_EQ(TC->LdLld, Req.LdLld);
}

TEST_F(AMDGCNToolchainTest, BareNamesAreLookedUpOnPath) {
  std::string Mine = tool(Bin, "mine-clang");
  tool(Bin, "ld.lld-22");
  WaveClang.set("mine-clang");
  Expected<Toolchain> TC = findToolchain({});
  ASSERT_TRUE(bool(TC)) << toString(TC.takeError());
  EXPECT_EQ(TC->Clang, Mine);
}

TEST_F(AMDGCNToolchainTest, NothingFoundNamesEverythingTried) {
  EXPECT_EQ(errorOf(findToolchain({})),
            "cannot find clang: tried --clang, $WAVE_CLANG, clang-22 and "
            "clang on PATH; install clang-22 or pass --clang=PATH");
  tool(Bin, "clang-22");
  EXPECT_EQ(errorOf(findToolchain({})),
            "cannot find ld.lld: tried --ld-lld, $WAVE_LD_LLD, ld.lld-22 and "
            "ld.lld on PATH; install lld-22 or pass --ld-lld=PATH");
}

TEST_F(AMDGCNToolchainTest, ABadExplicitChoiceIsAnErrorNotAFallback) {
  tool(Bin, "clang-22");
  tool(Bin, "ld.lld-22");
  WaveClang.set("/nonexistent/clang");
  EXPECT_EQ(errorOf(findToolchain({})),
            "cannot find clang: $WAVE_CLANG names '/nonexistent/clang', which "
            "is not an executable file; install clang-22 or pass "
            "--clang=PATH");
  ToolchainRequest Req;
  Req.LdLld = "no-such-ld";
  WaveClang.unset();
  EXPECT_EQ(errorOf(findToolchain(Req)),
            "cannot find ld.lld: --ld-lld names 'no-such-ld', which is not on "
            "PATH; install lld-22 or pass --ld-lld=PATH");
  // A directory is not a tool.
  Req.LdLld = Other;
  EXPECT_NE(errorOf(findToolchain(Req)).find("not an executable file"),
            std::string::npos);
}

TEST_F(AMDGCNToolchainTest, ToolFailureCarriesItsStderrAndCleansUp) {
  TmpDir.set(Tmp);
  Toolchain TC;
  TC.Clang = script(Bin, "clang",
                    "echo 'kernel.s:3:1: error: invalid instruction' >&2\n"
                    "echo '  bogus' >&2\nexit 3");
  TC.LdLld = tool(Bin, "ld.lld");
  Expected<std::vector<uint8_t>> R = buildCodeObject(TC, "bogus\n", "gfx942");
  ASSERT_FALSE(bool(R));
  EXPECT_EQ(toString(R.takeError()),
            "clang failed (exit 3):\nkernel.s:3:1: error: invalid "
            "instruction\n  bogus");
  EXPECT_TRUE(entries(Tmp).empty());
}

TEST_F(AMDGCNToolchainTest, TemporaryPathsAreNotShownInMessages) {
  TmpDir.set(Tmp);
  Toolchain TC;
  // Echo the input path as clang would in a diagnostic.
  TC.Clang = script(Bin, "clang", "echo \"$6:1:1: error: nope\" >&2; exit 1");
  TC.LdLld = tool(Bin, "ld.lld");
  Expected<std::vector<uint8_t>> R = buildCodeObject(TC, "x\n", "gfx942");
  ASSERT_FALSE(bool(R));
  EXPECT_EQ(toString(R.takeError()),
            "clang failed (exit 1):\nkernel.s:1:1: error: nope");
  EXPECT_TRUE(entries(Tmp).empty());
}

TEST_F(AMDGCNToolchainTest, LinkerFailureAndSignalsAreReported) {
  TmpDir.set(Tmp);
  Toolchain TC;
  // The fake clang must create the object it is asked for: "-o OBJ" are
  // the last two arguments.
  TC.Clang = script(Bin, "clang", "for a; do last=$a; done; : > \"$last\"");
  TC.LdLld = script(Bin, "ld.lld", "echo 'ld.lld: error: undefined symbol: "
                                   "foo' >&2; exit 1");
  Expected<std::vector<uint8_t>> R = buildCodeObject(TC, "", "gfx1100");
  ASSERT_FALSE(bool(R));
  EXPECT_EQ(toString(R.takeError()),
            "ld.lld failed (exit 1):\nld.lld: error: undefined symbol: foo");

  TC.LdLld = script(Bin, "ld.lld", "kill -SEGV $$");
  R = buildCodeObject(TC, "", "gfx1100");
  ASSERT_FALSE(bool(R));
  std::string Msg = toString(R.takeError());
  EXPECT_EQ(Msg.rfind("ld.lld failed (signal: ", 0), 0u) << Msg;

  TC.LdLld = script(Bin, "ld.lld", "exit 5");
  R = buildCodeObject(TC, "", "gfx1100");
  ASSERT_FALSE(bool(R));
  EXPECT_EQ(toString(R.takeError()), "ld.lld failed (exit 5) with no output");
  EXPECT_TRUE(entries(Tmp).empty());
}

TEST_F(AMDGCNToolchainTest, ArgumentsAreTheDocumentedCommandLines) {
  TmpDir.set(Tmp);
  SmallString<256> Log(Root);
  sys::path::append(Log, "log");
  Toolchain TC;
  TC.Clang = script(Bin, "clang",
                    ("echo clang \"$@\" >> '" + Log + "'\n"
                     "for a; do last=$a; done; : > \"$last\"")
                        .str());
  TC.LdLld = script(Bin, "ld.lld",
                    ("echo ld.lld \"$@\" >> '" + Log + "'\n"
                     "for a; do last=$a; done; printf 'ELF' > \"$last\"")
                        .str());
  Expected<std::vector<uint8_t>> R = buildCodeObject(TC, "", "gfx1200");
  ASSERT_TRUE(bool(R)) << toString(R.takeError());
  EXPECT_EQ(std::string(R->begin(), R->end()), "ELF");
  auto Buf = MemoryBuffer::getFile(Log);
  ASSERT_TRUE(bool(Buf));
  // The private directory's name is random: call it D.
  std::string Text = (*Buf)->getBuffer().str();
  Regex Random("wave-amdgcn-[^/]+/");
  while (Random.match(Text))
    Text = Random.sub("D/", Text);
  std::string T = Tmp;
  EXPECT_EQ(Text, "clang -x assembler --target=amdgcn-amd-amdhsa "
                  "-mcpu=gfx1200 -c " + T + "/D/kernel.s -o " + T +
                      "/D/kernel.o\n"
                      "ld.lld -shared " + T + "/D/kernel.o -o " + T +
                      "/D/kernel.hsaco\n");
  EXPECT_TRUE(entries(Tmp).empty());
}

TEST_F(AMDGCNToolchainTest, RealToolsBuildAnElfCodeObject) {
  Path.restore(); // the real PATH for this test
  ErrorOr<std::string> Clang = sys::findProgramByName("clang-22");
  ErrorOr<std::string> Ld = sys::findProgramByName("ld.lld-22");
  if (!Clang || !Ld)
    GTEST_SKIP() << "clang-22 and ld.lld-22 are not installed";
  TmpDir.set(Tmp);
  Toolchain TC{*Clang, *Ld};
  const char *Asm = R"(.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
.text
.globl k
.p2align 8
.type k,@function
k:
  s_endpgm
.rodata
.p2align 6
.amdhsa_kernel k
  .amdhsa_next_free_vgpr 1
  .amdhsa_next_free_sgpr 1
  .amdhsa_accum_offset 4
.end_amdhsa_kernel
)";
  Expected<std::vector<uint8_t>> R = buildCodeObject(TC, Asm, "gfx942");
  ASSERT_TRUE(bool(R)) << toString(R.takeError());
  ASSERT_GE(R->size(), 4u);
  EXPECT_EQ(std::string(R->begin(), R->begin() + 4), "\x7f"
                                                     "ELF");
  EXPECT_TRUE(entries(Tmp).empty());

  // An assembler error comes back with clang's own message.
  R = buildCodeObject(TC, "  v_bogus v0\n", "gfx942");
  ASSERT_FALSE(bool(R));
  std::string Msg = toString(R.takeError());
  EXPECT_EQ(Msg.rfind("clang failed (exit 1):\nkernel.s:1:", 0), 0u) << Msg;
  EXPECT_TRUE(entries(Tmp).empty());
}

} // namespace
