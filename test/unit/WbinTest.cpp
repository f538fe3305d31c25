//===- WbinTest.cpp - .wbin writer byte-exactness and reader validation ---===//
//
// The expected bytes are formats/wbin.md "Example"'s worked example and §5.6's
// empty file, copied from the spec (produced by the reference assembler), not
// from our writer.
//
//===----------------------------------------------------------------------===//
#include "wave/ISA/ISA.h"
#include "wave/Object/Wbin.h"

#include "SpecBytes.h"

#include <gtest/gtest.h>

using namespace wave;

namespace {

using spec::TinyBytes;

WbinFile tinyFile() {
  WbinFile F;
  for (uint32_t W : {0x41000420u, 0x41010010u, 4u, 0x02020000u, 0x01000000u,
                     0x39000220u, 0u, 0x3F000090u})
    appendLE32(F.Code, W);
  KernelInfo K;
  K.Name = "tiny";
  K.RegisterCount = 4;
  K.WorkgroupSize = {4, 1, 1};
  K.CodeSize = 32;
  F.Kernels.push_back(K);
  return F;
}

TEST(Wbin, WritesWorkedExampleByteForByte) {
  ASSERT_EQ(TinyBytes.size(), 105u);
  EXPECT_EQ(writeWbin(tinyFile()), TinyBytes);
}

TEST(Wbin, WritesEmptyFile) {
  EXPECT_EQ(writeWbin(WbinFile()), spec::EmptyBytes);
}

TEST(Wbin, ReadsWorkedExample) {
  auto F = readWbin(TinyBytes);
  ASSERT_TRUE(static_cast<bool>(F)) << llvm::toString(F.takeError());
  EXPECT_EQ(F->Header.MetadataOffset, 0x45u);
  ASSERT_EQ(F->Kernels.size(), 1u);
  const KernelInfo &K = F->Kernels[0];
  EXPECT_EQ(K.Name, "tiny");
  EXPECT_EQ(K.NameOffset, 0x40u);
  EXPECT_EQ(K.RegisterCount, 4u);
  EXPECT_EQ(K.LocalMemorySize, 0u);
  EXPECT_EQ(K.WorkgroupSize, (std::array<uint32_t, 3>{4, 1, 1}));
  EXPECT_EQ(K.CodeSize, 32u);
  EXPECT_EQ(F->kernelCode(K).size(), 32u);
  // Writing what was read gives the same bytes.
  EXPECT_EQ(writeWbin(*F), TinyBytes);
}

// formats/wbin.md "Example": the reference's two-kernel layout.
TEST(Wbin, MultiKernelLayout) {
  WbinFile F;
  F.Code.assign(100, 0);
  KernelInfo A, B;
  A.Name = "vector_add";
  A.RegisterCount = 8;
  A.LocalMemorySize = 1024;
  A.CodeSize = 64;
  B.Name = "reduction";
  B.RegisterCount = 16;
  B.LocalMemorySize = 2048;
  B.CodeOffset = 64;
  B.CodeSize = 36;
  F.Kernels = {A, B};
  std::vector<uint8_t> Bytes = writeWbin(F);
  auto R = readWbin(Bytes);
  ASSERT_TRUE(static_cast<bool>(R));
  EXPECT_EQ(R->Header.SymbolOffset, 0x84u);
  EXPECT_EQ(R->Header.SymbolSize, 21u);
  EXPECT_EQ(R->Header.MetadataOffset, 0x99u);
  EXPECT_EQ(R->Header.MetadataSize, 68u);
  EXPECT_EQ(R->Kernels[0].NameOffset, 0x84u);
  EXPECT_EQ(R->Kernels[1].NameOffset, 0x8Fu);
  EXPECT_EQ(R->Kernels[1].Name, "reduction");
}

// D30: duplicate names point at the first copy.
TEST(Wbin, DuplicateNamesShareFirstCopy) {
  WbinFile F = tinyFile();
  F.Kernels.push_back(F.Kernels[0]);
  auto R = readWbin(writeWbin(F));
  ASSERT_TRUE(static_cast<bool>(R));
  EXPECT_EQ(R->Kernels[0].NameOffset, R->Kernels[1].NameOffset);
  EXPECT_EQ(R->Kernels[1].Name, "tiny");
}

// D4: stripped files keep readable metadata.
TEST(Wbin, NoSymbolsStaysReadable) {
  WbinWriteOptions O;
  O.NoSymbols = true;
  std::vector<uint8_t> Bytes = writeWbin(tinyFile(), O);
  auto R = readWbin(Bytes);
  ASSERT_TRUE(static_cast<bool>(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(R->Header.SymbolOffset, 0u);
  EXPECT_EQ(R->Header.MetadataOffset, 0x40u);
  EXPECT_EQ(R->Kernels[0].Name, "");
  EXPECT_EQ(R->Kernels[0].CodeSize, 32u);
}

uint64_t errorOffset(llvm::Expected<WbinFile> R) {
  EXPECT_FALSE(static_cast<bool>(R));
  uint64_t Off = ~0ull;
  llvm::handleAllErrors(R.takeError(),
                        [&](const WbinError &E) { Off = E.getOffset(); });
  return Off;
}

void put32(std::vector<uint8_t> &B, size_t Off, uint32_t V) {
  for (int I = 0; I != 4; ++I)
    B[Off + I] = (V >> (8 * I)) & 0xFF;
}

TEST(Wbin, RejectsMalformedHeaders) {
  // Every truncation fails cleanly (no out-of-bounds read under ASan).
  for (size_t N = 0; N < TinyBytes.size(); ++N) {
    std::vector<uint8_t> B(TinyBytes.begin(), TinyBytes.begin() + N);
    EXPECT_FALSE(static_cast<bool>(readWbin(B))) << N;
    llvm::consumeError(readWbin(B).takeError());
  }
  std::vector<uint8_t> B = TinyBytes;
  B[0] = 'X';
  EXPECT_EQ(errorOffset(readWbin(B)), 0u);
  B = TinyBytes;
  B[4] = 2;
  EXPECT_EQ(errorOffset(readWbin(B)), 4u);
  B = TinyBytes;
  put32(B, 0x0C, 0xFFFFFFF0); // code size overflowing
  EXPECT_EQ(errorOffset(readWbin(B)), 0x08u);
  B = TinyBytes;
  put32(B, 0x10, 0x1000); // symbol table outside
  EXPECT_EQ(errorOffset(readWbin(B)), 0x10u);
  B = TinyBytes;
  put32(B, 0x18, 0xFFFFFFFF); // metadata outside
  EXPECT_EQ(errorOffset(readWbin(B)), 0x18u);
  B = TinyBytes;
  put32(B, 0x45, 0x7FFFFFFF); // kernel count too large
  EXPECT_EQ(errorOffset(readWbin(B)), 0x45u);
  B = TinyBytes;
  put32(B, 0x49, 0x60); // name offset outside the symbol table
  EXPECT_EQ(errorOffset(readWbin(B)), 0x49u);
  B = TinyBytes;
  put32(B, 0x49 + 24, 0x10); // kernel code past the code section
  EXPECT_EQ(errorOffset(readWbin(B)), 0x49u + 24);
  B = TinyBytes;
  B[0x44] = 'x'; // name no longer NUL-terminated inside the symbol table
  EXPECT_EQ(errorOffset(readWbin(B)), 0x40u);
}

} // namespace
