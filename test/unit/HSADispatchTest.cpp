//===- HSADispatchTest.cpp - Kernargs, AQL packets, code-object cache -----===//
//
// The parts of wave-run --device=hsa that need no GPU. Expected bytes are
// worked out by hand from formats/amdgcn-abi.md and the HSA spec; the
// kernarg layout is also checked against the metadata the AMDGCN emitter
// writes, and, where the ROCm headers are installed, the packet layout and
// constants against hsa.h.
//
//===----------------------------------------------------------------------===//
#include "wave/AMDGCN/Target.h"
#include "wave/AMDGCN/Translate.h"
#include "wave/Asm/AsmParser.h"
#include "wave/Runtime/CodeObjectCache.h"
#include "wave/Runtime/HSA/CodeObject.h"
#include "wave/Runtime/HSA/Dispatch.h"
#include "wave/Runtime/HSA/Runtime.h"
#include "wave/Tool/Input.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdlib>
#include <regex>

#if __has_include(<hsa/hsa.h>)
#include <hsa/hsa.h>
#define WAVE_TEST_HAVE_HSA_H 1
#endif

using namespace wave;
using namespace wave::hsa;
using namespace wave::runtime;

namespace {

uint32_t le32(const std::vector<uint8_t> &B, unsigned Off) {
  return uint32_t(B[Off]) | uint32_t(B[Off + 1]) << 8 |
         uint32_t(B[Off + 2]) << 16 | uint32_t(B[Off + 3]) << 24;
}

// Three parameters: H = align8(8 + 12) = 24, segment 48 bytes.
TEST(HSAKernargs, LayoutAndBytes) {
  KernargLayout L{3};
  EXPECT_EQ(L.paramOffset(2), 16u);
  EXPECT_EQ(L.hiddenOffset(), 24u);
  EXPECT_EQ(L.groupSizeOffset(), 36u);
  EXPECT_EQ(L.size(), 48u);
  EXPECT_EQ(KernargLayout{0}.size(), 32u); // H = 8
  EXPECT_EQ(KernargLayout{6}.size(), 56u); // H = 32 (gemm)

  KernargValues V;
  V.DeviceBase = 0x1122334455667788ull;
  V.Params = {7, 0xFFFFFFFF, 65536};
  V.Workgroups = {2, 3, 4};
  V.GroupSize = {256, 1, 2};
  llvm::Expected<std::vector<uint8_t>> B = packKernargs(L, V);
  ASSERT_TRUE(bool(B)) << llvm::toString(B.takeError());
  const std::vector<uint8_t> Expected = {
      0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11, // base
      7,    0,    0,    0,                            // r0
      0xFF, 0xFF, 0xFF, 0xFF,                         // r1
      0,    0,    1,    0,                            // r2 = 65536
      0,    0,    0,    0,                            // padding to H
      2,    0,    0,    0,    3, 0, 0, 0, 4, 0, 0, 0, // block counts
      0,    1,    1,    0,    2, 0,                   // group sizes
      0,    0,    0,    0,    0, 0};                  // rest of H + 24
  EXPECT_EQ(*B, Expected);
}

TEST(HSAKernargs, WrongParameterCount) {
  KernargValues V;
  V.Params = {1};
  llvm::Expected<std::vector<uint8_t>> B = packKernargs(KernargLayout{2}, V);
  ASSERT_FALSE(bool(B));
  EXPECT_EQ(llvm::toString(B.takeError()),
            "kernel takes 2 parameter values, 1 given");
}

// A loaded kernel's parameter count comes from its kernarg segment size
// (H + 24, H = align8(8 + 4N)): the larger N of the two that fit; sizes
// the ABI never gives are refused, naming the kernel.
TEST(HSAKernargs, LayoutFromSegmentSize) {
  LoadedKernel K;
  K.Symbol = "k.kd";
  for (auto [Size, N] :
       {std::pair<uint32_t, unsigned>{32, 0}, {40, 2}, {48, 4}, {56, 6}}) {
    K.KernargSize = Size;
    llvm::Expected<KernargLayout> L = K.layout();
    ASSERT_TRUE(bool(L)) << llvm::toString(L.takeError());
    EXPECT_EQ(L->NumParams, N) << Size;
    EXPECT_EQ(L->size(), Size);
  }
  for (uint32_t Size : {0u, 24u, 44u, 8192u}) {
    K.KernargSize = Size;
    llvm::Expected<KernargLayout> L = K.layout();
    ASSERT_FALSE(bool(L)) << Size;
    EXPECT_EQ(llvm::toString(L.takeError()),
              "kernel 'k.kd' has a kernarg segment of " + std::to_string(Size) +
                  " bytes, which is not the wavetools kernel ABI "
                  "(formats/amdgcn-abi.md)");
  }
}

// The runner packs what the emitter promises in the code object's
// metadata: the segment size and the hidden arguments' offsets.
TEST(HSAKernargs, MatchesEmittedMetadata) {
  llvm::Expected<WbinFile> F = tool::assembleExecutable(R"(.kernel k
.registers 8
.param a, buffer, u32, read
.param b, buffer, u32, write
.param n, scalar, u32
    mov r3, sr_workgroup_size_x
    mov r4, sr_grid_size_y
    iadd r3, r3, r4
    device_store_u32 r1, r3
    halt
.end
)",
                                                        "t.wave");
  ASSERT_TRUE(bool(F)) << llvm::toString(F.takeError());
  amdgcn::TranslateOptions O;
  O.Target = amdgcn::lookupTarget("gfx942");
  llvm::Expected<std::string> S = amdgcn::translateToAMDGCN(*F, O);
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  KernargLayout L{3};
  std::smatch M;
  ASSERT_TRUE(std::regex_search(*S, M,
                                std::regex("kernarg_segment_size: ([0-9]+)")));
  EXPECT_EQ(std::stoul(M[1]), L.size());
  for (auto [Kind, Offset] :
       {std::pair<const char *, unsigned>{"hidden_block_count_x",
                                          L.blockCountOffset()},
        {"hidden_group_size_x", L.groupSizeOffset()}}) {
    std::regex Arg(std::string("\\.offset: +([0-9]+)\n[^-]*\\.value_kind: +") +
                   Kind);
    ASSERT_TRUE(std::regex_search(*S, M, Arg)) << Kind << "\n" << *S;
    EXPECT_EQ(std::stoul(M[1]), Offset) << Kind;
  }
}

// HSA spec §2.9.1: type 2 (kernel dispatch) | barrier << 8 | system (2)
// acquire << 9 | system release << 11 = 0x1502.
TEST(HSAPacket, HeaderBits) {
  EXPECT_EQ(packetHeader(PacketType::KernelDispatch, true, FenceScope::System,
                         FenceScope::System),
            0x1502);
  EXPECT_EQ(packetHeader(PacketType::Invalid, false, FenceScope::None,
                         FenceScope::Agent),
            0x0801);
  DispatchPacket P;
  P.Dimensions = 3;
  EXPECT_EQ(dispatchHeaderWord(P), 0x00031502u);
}

TEST(HSAPacket, FieldBytes) {
  llvm::Expected<DispatchPacket> P = makeDispatchPacket({2, 3, 1}, {16, 8, 1});
  ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
  EXPECT_EQ(P->Dimensions, 2);
  P->GroupSegmentSize = 1024;
  P->PrivateSegmentSize = 0;
  P->KernelObject = 0x00007F0000001000ull;
  P->KernargAddress = 0x00007F0000002000ull;
  P->CompletionSignal = 0xABCDull;
  std::array<uint8_t, 64> A = encodeDispatchPacket(*P);
  std::vector<uint8_t> B(A.begin(), A.end());
  EXPECT_EQ(le32(B, 0), 0u); // header and setup are stored last
  EXPECT_EQ(le32(B, 4), 16u | 8u << 16); // workgroup x, y
  EXPECT_EQ(le32(B, 8), 1u);             // workgroup z, reserved0
  EXPECT_EQ(le32(B, 12), 32u);           // grid x = 2 x 16 work-items
  EXPECT_EQ(le32(B, 16), 24u);           // grid y = 3 x 8
  EXPECT_EQ(le32(B, 20), 1u);
  EXPECT_EQ(le32(B, 24), 0u);
  EXPECT_EQ(le32(B, 28), 1024u);
  EXPECT_EQ(le32(B, 32), 0x1000u);
  EXPECT_EQ(le32(B, 36), 0x7F00u);
  EXPECT_EQ(le32(B, 40), 0x2000u);
  EXPECT_EQ(le32(B, 48), 0u); // reserved2
  EXPECT_EQ(le32(B, 56), 0xABCDu);
}

TEST(HSAPacket, GridErrors) {
  llvm::Expected<DispatchPacket> P =
      makeDispatchPacket({0x1000000, 1, 1}, {256, 1, 1});
  ASSERT_FALSE(bool(P));
  EXPECT_EQ(llvm::toString(P.takeError()),
            "grid dimension x of 16777216 workgroups of 256 work-items is "
            "more than 2^32-1 work-items");
  P = makeDispatchPacket({1, 0, 1}, {1, 1, 1});
  ASSERT_FALSE(bool(P));
  EXPECT_EQ(llvm::toString(P.takeError()),
            "grid dimension y of 0 workgroups of 1 work-items is empty");
}

#ifdef WAVE_TEST_HAVE_HSA_H
// The ROCm runtime's own definitions agree with ours.
TEST(HSAPacket, MatchesHsaH) {
  namespace O = packet_offset;
  static_assert(sizeof(hsa_kernel_dispatch_packet_t) == O::Size);
  EXPECT_EQ(offsetof(hsa_kernel_dispatch_packet_t, setup), O::Setup);
  EXPECT_EQ(offsetof(hsa_kernel_dispatch_packet_t, workgroup_size_x),
            O::WorkgroupSizeX);
  EXPECT_EQ(offsetof(hsa_kernel_dispatch_packet_t, grid_size_x), O::GridSizeX);
  EXPECT_EQ(offsetof(hsa_kernel_dispatch_packet_t, private_segment_size),
            O::PrivateSegmentSize);
  EXPECT_EQ(offsetof(hsa_kernel_dispatch_packet_t, group_segment_size),
            O::GroupSegmentSize);
  EXPECT_EQ(offsetof(hsa_kernel_dispatch_packet_t, kernel_object),
            O::KernelObject);
  EXPECT_EQ(offsetof(hsa_kernel_dispatch_packet_t, kernarg_address),
            O::KernargAddress);
  EXPECT_EQ(offsetof(hsa_kernel_dispatch_packet_t, completion_signal),
            O::CompletionSignal);
  uint16_t Expected = HSA_PACKET_TYPE_KERNEL_DISPATCH
                          << HSA_PACKET_HEADER_TYPE |
                      1 << HSA_PACKET_HEADER_BARRIER |
                      HSA_FENCE_SCOPE_SYSTEM
                          << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE |
                      HSA_FENCE_SCOPE_SYSTEM
                          << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE;
  EXPECT_EQ(packetHeader(PacketType::KernelDispatch, true, FenceScope::System,
                         FenceScope::System),
            Expected);
}
#endif

// The digest is independent of this code: Python's
//   hashlib.sha256(b''.join(struct.pack('<Q', len(p)) + p for p in
//     [b'wavetools code object cache 1', b'gfx942', b'wavetools 0.1',
//      b'WAVE'])).hexdigest()
TEST(HSACodeObjectCache, Key) {
  const uint8_t Wbin[] = {'W', 'A', 'V', 'E'};
  EXPECT_EQ(codeObjectCacheKey(Wbin, "gfx942", "wavetools 0.1"),
            "27ccf750daed9f80c131ce3e9019d24634051271585ca602e8bd5349c04c6a4d");
  // Each part matters, and moving bytes between parts changes the key.
  std::string K = codeObjectCacheKey(Wbin, "gfx942", "wavetools 0.1");
  EXPECT_NE(codeObjectCacheKey(Wbin, "gfx1100", "wavetools 0.1"), K);
  EXPECT_NE(codeObjectCacheKey(Wbin, "gfx942", "wavetools 0.2"), K);
  EXPECT_NE(codeObjectCacheKey(llvm::ArrayRef<uint8_t>(Wbin, 3), "gfx942",
                               "wavetools 0.1"),
            K);
  EXPECT_NE(codeObjectCacheKey({}, "gfx942a", "b"),
            codeObjectCacheKey({}, "gfx942", "ab"));
}

/// Sets (or with nullptr unsets) an environment variable for one scope.
class ScopedEnv {
public:
  ScopedEnv(const char *Name, const char *Value) : Name(Name) {
    if (const char *Old = std::getenv(Name))
      Saved = Old;
    if (Value)
      ::setenv(Name, Value, 1);
    else
      ::unsetenv(Name);
  }
  ~ScopedEnv() {
    if (Saved)
      ::setenv(Name, Saved->c_str(), 1);
    else
      ::unsetenv(Name);
  }

private:
  const char *Name;
  std::optional<std::string> Saved;
};

TEST(HSACodeObjectCache, Directory) {
  {
    ScopedEnv X("XDG_CACHE_HOME", "/var/cache/me"), H("HOME", "/home/me");
    EXPECT_EQ(llvm::cantFail(codeObjectCacheDir()), "/var/cache/me/wavetools");
  }
  {
    // A relative XDG_CACHE_HOME is invalid (XDG spec) and ignored.
    ScopedEnv X("XDG_CACHE_HOME", "rel"), H("HOME", "/home/me");
    EXPECT_EQ(llvm::cantFail(codeObjectCacheDir()),
              "/home/me/.cache/wavetools");
  }
  {
    ScopedEnv X("XDG_CACHE_HOME", nullptr), H("HOME", nullptr);
    llvm::Expected<std::string> D = codeObjectCacheDir();
    ASSERT_FALSE(bool(D));
    EXPECT_EQ(llvm::toString(D.takeError()),
              "no cache directory: neither XDG_CACHE_HOME nor HOME is set "
              "(use --no-cache)");
  }
}

TEST(HSACodeObjectCache, StoreAndLookup) {
  llvm::SmallString<128> Tmp;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("wave-cache", Tmp));
  std::string Dir = (Tmp + "/nested/wavetools").str();
  CodeObjectCache C(Dir, ".hsaco");
  EXPECT_FALSE(C.lookup("abc").has_value());
  const std::vector<uint8_t> Obj = {0x7F, 'E', 'L', 'F', 0, 1, 2};
  ASSERT_FALSE(bool(C.store("abc", Obj)));
  EXPECT_EQ(C.pathFor("abc"), Dir + "/abc.hsaco");
  std::optional<std::vector<uint8_t>> Got = C.lookup("abc");
  ASSERT_TRUE(Got.has_value());
  EXPECT_EQ(*Got, Obj);
  // Replacing an entry replaces all of it.
  ASSERT_FALSE(bool(C.store("abc", std::vector<uint8_t>{1})));
  EXPECT_EQ(*C.lookup("abc"), std::vector<uint8_t>{1});
  llvm::sys::fs::remove_directories(Tmp);
}

// A .wbin is translated once per processor and toolchain; the second
// request is served from the cache (the entry is replaced by marker bytes
// to tell).
TEST(HSACodeObjectCache, CodeObjectForTranslatesThenCaches) {
  llvm::Expected<WbinFile> F = tool::assembleExecutable(R"(.kernel k
.registers 4
.param out, buffer, u32, write
    mov r1, sr_thread_id_x
    device_store_u32 r0, r1
    halt
.end
)",
                                                        "t.wave");
  ASSERT_TRUE(bool(F)) << llvm::toString(F.takeError());
  const std::vector<uint8_t> Bytes = {1, 2, 3, 4}; // stands for the file
  llvm::SmallString<128> Tmp;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("wave-cache", Tmp));
  ScopedEnv X("XDG_CACHE_HOME", Tmp.c_str());
  CodeObjectRequest R;
  R.WbinBytes = Bytes;
  R.MCPU = "gfx942";
  llvm::Expected<std::vector<uint8_t>> Obj = codeObjectFor(*F, R);
  ASSERT_TRUE(bool(Obj)) << llvm::toString(Obj.takeError());
  ASSERT_GT(Obj->size(), 4u);
  EXPECT_EQ(std::vector<uint8_t>(Obj->begin(), Obj->begin() + 4),
            (std::vector<uint8_t>{0x7F, 'E', 'L', 'F'}));
  std::error_code EC;
  std::vector<std::string> Entries;
  for (llvm::sys::fs::directory_iterator It((Tmp + "/wavetools").str(), EC),
       End;
       !EC && It != End; It.increment(EC))
    Entries.push_back(It->path());
  ASSERT_EQ(Entries.size(), 1u);
  EXPECT_EQ(*CodeObjectCache((Tmp + "/wavetools").str(), ".hsaco")
                 .lookup(llvm::sys::path::stem(Entries[0])),
            *Obj);
  // Replace the entry: the next request returns it untouched...
  const std::vector<uint8_t> Marker = {'c', 'a', 'c', 'h', 'e', 'd'};
  ASSERT_FALSE(bool(CodeObjectCache((Tmp + "/wavetools").str(), ".hsaco")
                        .store(llvm::sys::path::stem(Entries[0]), Marker)));
  Obj = codeObjectFor(*F, R);
  ASSERT_TRUE(bool(Obj)) << llvm::toString(Obj.takeError());
  EXPECT_EQ(*Obj, Marker);
  // ... unless the cache is off, or the processor differs.
  R.UseCache = false;
  Obj = codeObjectFor(*F, R);
  ASSERT_TRUE(bool(Obj)) << llvm::toString(Obj.takeError());
  EXPECT_NE(*Obj, Marker);
  R.UseCache = true;
  R.MCPU = "gfx803";
  Obj = codeObjectFor(*F, R);
  ASSERT_FALSE(bool(Obj));
  EXPECT_EQ(llvm::toString(Obj.takeError()),
            "the agent's processor 'gfx803' is not a target the AMDGCN stage "
            "translates for (supported: " +
                amdgcn::supportedTargetList() + ")");
  llvm::sys::fs::remove_directories(Tmp);
}

// The --mcpu value comes from the agent's ISA name (AMDGPUUsage "Target
// Triples" and "Target ID": processor, then ':'-separated features).
TEST(HSAAgents, ProcessorFromISAName) {
  AgentInfo A;
  A.ISA = "amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-";
  EXPECT_EQ(A.processor(), "gfx942");
  A.ISA = "amdgcn-amd-amdhsa--gfx1100";
  EXPECT_EQ(A.processor(), "gfx1100");
}

TEST(HSAAgents, ListingFormat) {
  AgentInfo A;
  A.Name = "gfx942";
  A.ProductName = "AMD Instinct MI300X";
  A.ISA = "amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-";
  A.ComputeUnits = 304;
  A.WavefrontSize = 64;
  RegionInfo Vram;
  Vram.CoarseGrained = Vram.AllocAllowed = true;
  Vram.Size = 1024;
  RegionInfo Args;
  Args.FineGrained = Args.KernargFlag = Args.AllocAllowed = true;
  Args.Size = 64;
  RegionInfo Lds;
  Lds.Seg = RegionInfo::Group;
  Lds.Size = 65536;
  A.Regions = {Vram, Args, Lds};
  std::string S;
  llvm::raw_string_ostream OS(S);
  printAgents({A}, OS);
  EXPECT_EQ(S, "agent 0: gfx942 (AMD Instinct MI300X)\n"
               "  isa: amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-\n"
               "  compute units: 304\n"
               "  wavefront size: 64\n"
               "  memory regions:\n"
               "    global coarse-grained, 1024 bytes\n"
               "    global fine-grained kernarg, 64 bytes\n"
               "    group, 65536 bytes, not allocatable\n");
}

} // namespace
