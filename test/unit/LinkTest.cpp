//===- LinkTest.cpp - .wbin extension sections and the linker -------------===//
//
// Expected bytes and offsets are computed by hand from formats/wbin.md
// (extension area layout) and formats/isa.md §1 (encodings), §4.16 (call
// targets are relative to the running kernel).
//
//===----------------------------------------------------------------------===//
#include "wave/Asm/AsmParser.h"
#include "wave/ISA/ISA.h"
#include "wave/Link/Linker.h"
#include "wave/Object/Wbin.h"
#include "wave/Tool/Input.h"

#include <gtest/gtest.h>

using namespace wave;

namespace {

WbinFile assembleObject(llvm::StringRef Src, bool Relocatable = true) {
  AsmOptions Opts;
  Opts.Relocatable = Relocatable;
  std::string Diags;
  auto F = Relocatable ? assembleString(Src, "t.wave", &Diags, Opts)
                       : tool::assembleExecutable(Src, "t.wave", &Diags, Opts);
  EXPECT_TRUE(static_cast<bool>(F)) << Diags;
  if (!F) {
    llvm::consumeError(F.takeError());
    return WbinFile();
  }
  return std::move(*F);
}

uint32_t word(const std::vector<uint8_t> &Code, uint32_t Off) {
  return readLE32(Code.data() + Off);
}

std::string linkErrorOf(std::vector<LinkInput> In, LinkOptions Opts = {}) {
  auto R = link(In, Opts);
  if (R)
    return "";
  return llvm::toString(R.takeError());
}

// A kernel with one scalar parameter and no code beyond `halt`: the
// extension area, written out by hand from formats/wbin.md.
TEST(WbinExtensions, ParamsSectionBytes) {
  WbinFile F;
  appendLE32(F.Code, 0x3F000090); // halt (formats/wbin.md "Example")
  KernelInfo K;
  K.Name = "k";
  K.CodeSize = 4;
  K.Params = std::vector<WbinParam>{
      {"n", WbinParamKind::Scalar, WbinType::U32, WbinAccessRead}};
  F.Kernels.push_back(K);
  std::vector<uint8_t> B = writeWbin(F);
  // Header 32 + code 4 + name "k\0" 2 = metadata at 38, size 4 + 32 = 36.
  ASSERT_EQ(readLE32(B.data() + 0x18), 38u);
  EXPECT_EQ(B[6], 1u); // flags: extensions
  const uint32_t E = 38 + 36;
  ASSERT_EQ(B.size(), E + 8 + 2 * 12 + 3 + 16);
  EXPECT_EQ(std::string(B.begin() + E, B.begin() + E + 4), "WEXT");
  EXPECT_EQ(readLE32(B.data() + E + 4), 2u);
  // STRTAB: "\0n\0" right after the directory.
  EXPECT_EQ(readLE32(B.data() + E + 8), 1u);
  EXPECT_EQ(readLE32(B.data() + E + 12), E + 32);
  EXPECT_EQ(readLE32(B.data() + E + 16), 3u);
  // PARAMS: kernel 0, count 1, {name 1, scalar 0, u32 2, read 1, 0}.
  EXPECT_EQ(readLE32(B.data() + E + 20), 4u);
  EXPECT_EQ(readLE32(B.data() + E + 24), E + 35);
  EXPECT_EQ(readLE32(B.data() + E + 28), 16u);
  std::vector<uint8_t> Params(B.begin() + E + 35, B.end());
  EXPECT_EQ(Params, (std::vector<uint8_t>{0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0,
                                          0, 2, 1, 0}));
  // The reference part is the file without parameters, but for the flags.
  WbinFile Plain = F;
  Plain.Kernels[0].Params.reset();
  std::vector<uint8_t> P = writeWbin(Plain);
  ASSERT_EQ(P.size(), E);
  std::vector<uint8_t> Prefix(B.begin(), B.begin() + E);
  Prefix[6] = 0;
  EXPECT_EQ(Prefix, P);
}

TEST(WbinExtensions, RoundTripsEverySection) {
  WbinFile F = assembleObject(R"(
.file 1 "a.py"
.extern ext
.global g
.kernel k
    .registers 4
    .call_base 3
    .param x, buffer, f32, read
    .param n, scalar, i32
    .loc 1 2 3
    call g
here:
    call ext
    halt
.end
.func g
    .registers 2
    .loc 1 9 1
    call inner
inner:
    return
.end
)");
  ASSERT_TRUE(F.Relocatable);
  ASSERT_EQ(F.Symbols.size(), 5u); // k, g, labels here+inner, ext
  EXPECT_EQ(F.Symbols[0].Name, "k");
  EXPECT_EQ(F.Symbols[0].CallBase, 3u);
  EXPECT_EQ(F.Symbols[1].Name, "g");
  EXPECT_EQ(F.Symbols[1].Binding, WbinBinding::Global);
  EXPECT_EQ(F.Symbols[1].Offset, 20u); // call 8 + call 8 + halt 4
  EXPECT_EQ(F.Symbols[4].Name, "ext");
  EXPECT_FALSE(F.Symbols[4].Defined);
  // call g at 0; call ext at 8; call inner at 20 (g + 8 bytes: addend 8).
  ASSERT_EQ(F.Relocs.size(), 3u);
  EXPECT_EQ(F.Relocs[0].Symbol, 1u);
  EXPECT_EQ(F.Relocs[1].Symbol, 4u);
  EXPECT_EQ(F.Relocs[2].Offset, 20u);
  EXPECT_EQ(F.Relocs[2].Symbol, 1u);
  EXPECT_EQ(F.Relocs[2].Addend, 8);
  // 1:2:3 from 0; g starts without a location, but its first instruction
  // has one, so the next row is 1:9:1 at 20.
  ASSERT_EQ(F.Lines.size(), 2u);
  EXPECT_EQ(F.Lines[1].Offset, 20u);
  EXPECT_EQ(F.Lines[1].Line, 9u);
  auto R = readWbin(writeWbin(F));
  ASSERT_TRUE(static_cast<bool>(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(R->Symbols.size(), F.Symbols.size());
  EXPECT_EQ(R->Relocs.size(), F.Relocs.size());
  EXPECT_EQ(R->Lines, F.Lines);
  EXPECT_EQ(R->SourceFiles, F.SourceFiles);
  EXPECT_EQ(R->Kernels[0].Params, F.Kernels[0].Params);
  EXPECT_EQ(writeWbin(*R), writeWbin(F));
}

/// Offset of the extension directory entry of section \p Type.
uint32_t dirEntry(const std::vector<uint8_t> &B, uint32_t Type) {
  uint32_t E = readLE32(B.data() + 0x18) + readLE32(B.data() + 0x1C);
  uint32_t N = readLE32(B.data() + E + 4);
  for (uint32_t I = 0; I != N; ++I)
    if (readLE32(B.data() + E + 8 + 12 * I) == Type)
      return E + 8 + 12 * I;
  return 0;
}

std::string readError(const std::vector<uint8_t> &B) {
  auto R = readWbin(B);
  if (R)
    return "";
  return llvm::toString(R.takeError());
}

TEST(WbinExtensions, RejectsCorruptSections) {
  WbinFile F = assembleObject(R"(
.extern f
.global g
.kernel k
    call f
    halt
.end
.func g
    return
.end
)");
  const std::vector<uint8_t> Good = writeWbin(F);
  ASSERT_EQ(readError(Good), "");
  auto Patch32 = [](std::vector<uint8_t> B, uint32_t At, uint32_t V) {
    for (int I = 0; I != 4; ++I)
      B[At + I] = (V >> (8 * I)) & 0xFF;
    return B;
  };
  const uint32_t Sym = dirEntry(Good, 2), Rel = dirEntry(Good, 3),
                 Str = dirEntry(Good, 1);
  ASSERT_TRUE(Sym && Rel && Str);
  const uint32_t SymAt = readLE32(Good.data() + Sym + 4);
  const uint32_t RelAt = readLE32(Good.data() + Rel + 4);
  const uint32_t StrAt = readLE32(Good.data() + Str + 4);
  // Magic.
  std::vector<uint8_t> B = Good;
  B[readLE32(Good.data() + 0x18) + readLE32(Good.data() + 0x1C)] = 'X';
  EXPECT_NE(readError(B).find("extension directory magic"), std::string::npos);
  // A section running past the end of the file.
  EXPECT_NE(readError(Patch32(Good, Sym + 8, 1u << 20)).find("outside the "
                                                             "extension area"),
            std::string::npos);
  // A relocation outside the code, and one that is not on a call.
  EXPECT_NE(readError(Patch32(Good, RelAt, 4096)).find("outside the code"),
            std::string::npos);
  EXPECT_NE(readError(Patch32(Good, RelAt, 8)).find("does not point at a "
                                                    "'call'"),
            std::string::npos);
  // A relocation naming a symbol that does not exist, or a kernel.
  EXPECT_NE(readError(Patch32(Good, RelAt + 4, 99)).find("names symbol 99"),
            std::string::npos);
  EXPECT_NE(readError(Patch32(Good, RelAt + 4, 0)).find("not a function"),
            std::string::npos);
  // A symbol name that is not UTF-8: "k" becomes 0xFF.
  B = Good;
  uint32_t KName = readLE32(Good.data() + SymAt);
  B[StrAt + KName] = 0xFF;
  EXPECT_NE(readError(B).find("not valid UTF-8"), std::string::npos);
  // A name offset past the string table.
  EXPECT_NE(readError(Patch32(Good, SymAt, 1000)).find("outside the string "
                                                       "table"),
            std::string::npos);
  // Two global symbols with one name: rename g (symbol 1) to k.
  EXPECT_NE(readError(Patch32(Good, SymAt + 24, KName)).find("duplicate "
                                                             "global"),
            std::string::npos);
  // Relocations in a file that is not relocatable.
  B = Good;
  B[6] &= ~WbinFlagRelocatable;
  EXPECT_NE(readError(B).find("not relocatable"), std::string::npos);
}

TEST(Linker, ShiftsRegistersButNotOmittedDestinations) {
  std::vector<uint8_t> Code;
  Inst Add;
  Add.Op = Opcode::Iadd;
  Add.Rd = 1, Add.Rs1 = 2, Add.Rs2 = 0;
  encodeInst(Add, Code);
  ASSERT_FALSE(static_cast<bool>(shiftRegisters(Code, 10)));
  auto I = decodeInst(Code, 0);
  ASSERT_TRUE(static_cast<bool>(I));
  EXPECT_EQ(I->Rd, 11);
  EXPECT_EQ(I->Rs1, 12);
  EXPECT_EQ(I->Rs2, 10);
  // Moving r12 (now rs1) by 243 would need r255.
  EXPECT_TRUE(llvm::errorToBool(shiftRegisters(Code, 243)));
}

// The worked example of formats/wbin.md "Linking": main calls twice, which
// calls inc; offsets and windows computed by hand.
const char *MainSrc = R"(
.extern twice
.kernel k
    .registers 5
    .call_base 3
    mov r3, r1
    call twice
    halt
.end
)";
const char *LibSrc = R"(
.global twice
.func twice
    .registers 2
    .call_base 1
    iadd r0, r0, r0
    mov r1, r0
    call inc
    return
.end
.func inc
    .registers 2
    mov_imm r1, 1
    iadd r0, r0, r1
    return
.end
.func unused
    .registers 1
    return
.end
)";

TEST(Linker, PlacesPrivateCopiesAndPatchesCalls) {
  std::vector<LinkInput> In{{"main.o", assembleObject(MainSrc)},
                            {"lib.o", assembleObject(LibSrc)}};
  auto Out = link(In);
  ASSERT_TRUE(static_cast<bool>(Out)) << llvm::toString(Out.takeError());
  // k: mov 4 + call 8 + halt 4 = 16 bytes; twice at 16: iadd 8 (R_RR,
  // formats/isa.md §1.5) + mov 4 + call 8 + return 4 = 24 bytes; inc at 40.
  ASSERT_EQ(Out->Kernels.size(), 1u);
  EXPECT_EQ(Out->Kernels[0].CodeSize, Out->Code.size());
  EXPECT_EQ(word(Out->Code, 8), 16u);      // call twice -> 16
  EXPECT_EQ(word(Out->Code, 16 + 16), 40u); // twice's call inc -> 40
  // Windows: twice at base 3 (r0 -> r3), inc at 3 + 1 = 4; registers
  // max(5, 3 + 2, 4 + 2) = 6.
  EXPECT_EQ(Out->Kernels[0].RegisterCount, 6u);
  auto Twice = decodeInst(Out->Code, 16);
  ASSERT_TRUE(static_cast<bool>(Twice));
  EXPECT_EQ(Twice->Rd, 3);
  auto Imm = decodeInst(Out->Code, 40);
  ASSERT_TRUE(static_cast<bool>(Imm));
  EXPECT_EQ(Imm->Op, Opcode::MovImm);
  EXPECT_EQ(Imm->Rd, 5); // inc's r1 at base 4
  EXPECT_FALSE(Out->Relocatable);
  EXPECT_TRUE(Out->Symbols.empty());
  // Function-only inputs may come in any order: same bytes.
  std::vector<LinkInput> Swapped{In[1], In[0]};
  auto Out2 = link(Swapped);
  ASSERT_TRUE(static_cast<bool>(Out2));
  EXPECT_EQ(writeWbin(*Out2), writeWbin(*Out));
}

TEST(Linker, CallAtLargeOffset) {
  // 20000 nops before the call: the callee starts after them.
  std::string Src = ".global far\n.kernel k\n.registers 1\n";
  for (int I = 0; I != 20000; ++I)
    Src += "    nop\n";
  Src += "    call far\n    halt\n.end\n.func far\n.registers 1\n    return\n"
         ".end\n";
  std::vector<LinkInput> In{{"big.o", assembleObject(Src)}};
  auto Out = link(In);
  ASSERT_TRUE(static_cast<bool>(Out)) << llvm::toString(Out.takeError());
  EXPECT_EQ(word(Out->Code, 80000 + 4), 80000u + 8 + 4);
}

TEST(Linker, Diagnostics) {
  std::vector<LinkInput> Main{{"main.o", assembleObject(MainSrc)}};
  EXPECT_EQ(linkErrorOf(Main),
            "undefined symbol 'twice', called from kernel 'k' (main.o)");
  std::vector<LinkInput> Dup{{"main.o", assembleObject(MainSrc)},
                             {"a.o", assembleObject(LibSrc)},
                             {"b.o", assembleObject(LibSrc)}};
  EXPECT_EQ(linkErrorOf(Dup),
            "duplicate symbol 'twice': defined in a.o and b.o");
  std::vector<LinkInput> Rec{{"r.o", assembleObject(R"(
.kernel k
    call f
    halt
.end
.func f
    call g
    return
.end
.func g
    call f
    return
.end
)")}};
  EXPECT_NE(linkErrorOf(Rec).find("recursive call chain k -> f -> g -> f"),
            std::string::npos);
  LinkOptions Entry;
  Entry.Entries = {"nope"};
  EXPECT_EQ(linkErrorOf(Main, Entry),
            "--entry 'nope' names no kernel of the inputs");
  // Nine nested calls overflow the 8-entry call stack.
  std::string Deep = ".kernel k\n.registers 1\n    call f0\n    halt\n.end\n";
  for (int I = 0; I != 9; ++I)
    Deep += ".func f" + std::to_string(I) + "\n.registers 1\n.call_base 0\n" +
            (I < 8 ? "    call f" + std::to_string(I + 1) + "\n" : "") +
            "    return\n.end\n";
  std::vector<LinkInput> D{{"d.o", assembleObject(Deep)}};
  EXPECT_NE(linkErrorOf(D).find("nests more than 8 calls"), std::string::npos);
  // Exactly eight are fine.
  Deep.replace(Deep.find("    call f8\n"), 11, "");
  std::vector<LinkInput> D8{{"d.o", assembleObject(Deep)}};
  EXPECT_EQ(linkErrorOf(D8), "");
  // Executables are not link inputs.
  std::vector<LinkInput> Exe{
      {"x.wbin", assembleObject(".kernel k\n    halt\n.end\n", false)}};
  EXPECT_NE(linkErrorOf(Exe).find("not a relocatable object"),
            std::string::npos);
}

TEST(Linker, GCSectionsIgnoresUnreachableUndefinedReferences) {
  const char *Src = R"(
.extern missing
.kernel k
    halt
.end
.func dead
    call missing
    return
.end
)";
  std::vector<LinkInput> In{{"g.o", assembleObject(Src)}};
  EXPECT_EQ(linkErrorOf(In),
            "undefined symbol 'missing', called from function 'dead' (g.o)");
  LinkOptions GC;
  GC.GCSections = true;
  std::vector<std::string> Discarded;
  GC.OnDiscard = [&](llvm::StringRef S) { Discarded.push_back(S.str()); };
  auto Out = link(In, GC);
  ASSERT_TRUE(static_cast<bool>(Out)) << llvm::toString(Out.takeError());
  EXPECT_EQ(Out->Code.size(), 4u);
  EXPECT_EQ(Discarded, std::vector<std::string>{"g.o: dead"});
}

TEST(Linker, RelocatableLinkKeepsRelocations) {
  std::vector<LinkInput> In{{"main.o", assembleObject(MainSrc)},
                            {"lib.o", assembleObject(LibSrc)}};
  LinkOptions R;
  R.Relocatable = true;
  auto Obj = link(In, R);
  ASSERT_TRUE(static_cast<bool>(Obj)) << llvm::toString(Obj.takeError());
  EXPECT_TRUE(Obj->Relocatable);
  // Linking the merged object gives the executable of the two inputs.
  std::vector<LinkInput> Again{{"merged.o", std::move(*Obj)}};
  auto Exe1 = link(Again);
  auto Exe2 = link(In);
  ASSERT_TRUE(Exe1 && Exe2);
  EXPECT_EQ(writeWbin(*Exe1), writeWbin(*Exe2));
}

} // namespace
