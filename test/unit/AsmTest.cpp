//===- AsmTest.cpp - Assembler, instruction printer, disassembler ---------===//
//
// Unit tests of the Asm area: the worked examples of formats/wbin.md "Writer
// algorithm", §5.8 and §2.17 byte for byte, the defaults of formats/isa.md §8
// (D2, D3, D7, D9, D12-D14, D17, D20, D21, D23, D30), diagnostics, and the
// exhaustive print -> parse -> encode -> decode -> print round trip over every
// row of Opcodes.def.
//
//===----------------------------------------------------------------------===//
#include "wave/Asm/AsmParser.h"
#include "wave/Asm/Disassembler.h"
#include "wave/ISA/ISA.h"
#include "wave/ISA/InstPrinter.h"
#include "wave/Object/Wbin.h"
#include "wave/Tool/Input.h"

#include "SpecBytes.h"

#include <gtest/gtest.h>

using namespace wave;

namespace {

/// Assembles \p Src; on failure returns nullopt and leaves the diagnostics
/// in \p Diags.
std::optional<WbinFile> assembleOk(llvm::StringRef Src,
                                   std::string *Diags = nullptr,
                                   WarningMode W = WarningMode::All) {
  std::string Local;
  AsmOptions Opts;
  Opts.Warnings = W;
  auto F =
      tool::assembleExecutable(Src, "t.wave", Diags ? Diags : &Local, Opts);
  if (!F) {
    llvm::consumeError(F.takeError());
    return std::nullopt;
  }
  return std::move(*F);
}

/// The diagnostics of a source that must fail.
std::string errorsOf(llvm::StringRef Src) {
  std::string Diags;
  EXPECT_FALSE(assembleOk(Src, &Diags)) << Src.str();
  return Diags;
}

std::vector<uint32_t> words(const WbinFile &F) {
  std::vector<uint32_t> W;
  for (size_t I = 0; I + 4 <= F.Code.size(); I += 4)
    W.push_back(readLE32(F.Code.data() + I));
  return W;
}

std::vector<uint32_t> wordsOf(llvm::StringRef Body) {
  auto F = assembleOk((".kernel k\n" + Body + "\n.end\n").str());
  EXPECT_TRUE(F) << Body.str();
  return F ? words(*F) : std::vector<uint32_t>{};
}

// formats/wbin.md "Example", copied from the document.
TEST(Asm, WorkedExample58) {
  const char *Src = spec::TinySource;
  const std::vector<uint8_t> &Expected = spec::TinyBytes;
  ASSERT_EQ(Expected.size(), 105u);
  std::string Diags;
  auto F = assembleOk(Src, &Diags);
  ASSERT_TRUE(F) << Diags;
  EXPECT_EQ(Diags, "");
  EXPECT_EQ(writeWbin(*F), Expected);
}

// formats/wbin.md "Writer algorithm": no kernels -> the 36-byte file; empty
// input is valid.
TEST(Asm, NoKernels) {
  const std::vector<uint8_t> &Expected = spec::EmptyBytes;
  for (const char *Src : {"", "; only a comment\n", "\n\n  # x\n"}) {
    auto F = assembleOk(Src);
    ASSERT_TRUE(F);
    EXPECT_EQ(writeWbin(*F), Expected);
  }
}

// formats/isa.md §2.17, words copied from the document.
TEST(Asm, VerifiedEncodings217) {
  struct Case {
    const char *Src;
    std::vector<uint32_t> Words;
  } Cases[] = {
      {"mov r0, sr_lane_id", {0x41000420}},
      {"mov_imm r1, 4", {0x41010010, 0x00000004}},
      {"imul r2, r0, r1", {0x02020000, 0x01000000}},
      {"device_store_u32 r2, r0", {0x39000220, 0x00000000}},
      {"device_load_u128 r4, r1", {0x38040140}},
      {"halt", {0x3F000090}},
      {"@!p3 halt", {0x3F000097}},
      {"@p2 barrier", {0x3F0000A2}},
      {"@!p0 iadd r0, r1, r2", {0x00000104, 0x02000000}},
      {"icmp_ne p3, r1, r2", {0x28030110, 0x02000000}},
      {"select r0, p1, r2, r3", {0x2B000100, 0x02030000}},
      {"bfi r0, r1, r2, r3, r4", {0x27000140, 0x02030400}},
      {"hma2 r1, r2, r3, r4", {0x1D010220, 0x03040000}},
      {"ddiv r0, r2, r4", {0x1F000200, 0x04000000}},
      {"dsqrt r0, r2", {0x1F000210}},
      {"cvt_bf16_f32 r1, r2", {0x2C010290}},
      {"atomic_exchange r5, r1, r2, workgroup", {0x3D050170, 0x02000001}},
      {"atomic_add r1, r2, device", {0x3D000100, 0x02000002}},
      {"local_atomic_add r1, r2", {0x3C000100, 0x02000000}},
      // D3: our default encodes CAS as mod 8; the reference wrote 3D000100.
      {"atomic_cas r1, r2, r3, .wave", {0x3D000180, 0x02030000}},
      {"wave_ballot r0, p1", {0x3E000150}},
      {"wave_any p0, p1", {0x3E000160}},
      {"wave_reduce_max r1, r2", {0x3E0102B0}},
      {"wave_prefix_sum r1, r2", {0x3E010280}},
      {"if p1", {0x3F000100}},
      {"continue p2", {0x3F000250}},
      {"endloop", {0x3F000060}},
      {"fence_acq_rel .system", {0x3F0000D0, 0x00000003}},
      {"mma_compute r1, r2, r3", {0x40010230, 0x03000000}},
      {"mov_sr r0, sr_mma_k", {0x41001320}},
  };
  for (const Case &C : Cases)
    EXPECT_EQ(wordsOf(C.Src), C.Words) << C.Src;
}

// D13: scope as suffix or trailing operand, with or without the dot.
TEST(Asm, ScopeSpellings) {
  std::vector<uint32_t> W = {0x3D010200, 0x03000002};
  EXPECT_EQ(wordsOf("atomic_add r1, r2, r3, .device"), W);
  EXPECT_EQ(wordsOf("atomic_add r1, r2, r3, device"), W);
  EXPECT_EQ(wordsOf("atomic_add.device r1, r2, r3"), W);
  std::vector<uint32_t> F = {0x3F0000B0, 0x00000001};
  EXPECT_EQ(wordsOf("fence_acquire .workgroup"), F);
  EXPECT_EQ(wordsOf("fence_acquire workgroup"), F);
  EXPECT_EQ(wordsOf("fence_acquire.workgroup"), F);
  // Cache hints are discarded, with or without a space.
  EXPECT_EQ(wordsOf("device_load_u32.uncached r0, r1"),
            wordsOf("device_load_u32 r0, r1"));
  EXPECT_EQ(wordsOf("halt .streaming"), wordsOf("halt"));
  // D3: local CAS, returning and not.
  EXPECT_EQ(wordsOf("local_atomic_cas r1, r2, r3, r4"),
            (std::vector<uint32_t>{0x3C010280, 0x03040000}));
  EXPECT_EQ(wordsOf("local_atomic_cas r2, r3, r4"),
            (std::vector<uint32_t>{0x3C000280, 0x03040000}));
}

// formats/wave-asm.md §1, §2: lexical details.
TEST(Asm, Lexical) {
  EXPECT_EQ(wordsOf("mov_imm r1, 1_000"), wordsOf("mov_imm r1, 1000"));
  EXPECT_EQ(wordsOf("mov_imm r1, 0xFF_FF"), wordsOf("mov_imm r1, 65535"));
  EXPECT_EQ(wordsOf("mov_imm r1, -1"),
            (std::vector<uint32_t>{0x41010010, 0xFFFFFFFF}));
  EXPECT_EQ(wordsOf("mov_imm r1, -2147483648"),
            (std::vector<uint32_t>{0x41010010, 0x80000000}));
  EXPECT_EQ(wordsOf("mov_imm r1, 4294967295"),
            (std::vector<uint32_t>{0x41010010, 0xFFFFFFFF}));
  // Newlines are optional between statements.
  EXPECT_EQ(wordsOf("iadd r0, r1, r2 isub r3, r4, r5 halt"),
            wordsOf("iadd r0, r1, r2\nisub r3, r4, r5\nhalt"));
  EXPECT_EQ(wordsOf("l: halt # comment\n; comment"), wordsOf("halt"));
  EXPECT_EQ(wordsOf("fadd r1.lo, r2, r3"), wordsOf("fadd r1, r2, r3"));
  EXPECT_EQ(wordsOf("mov r1, sr_200"), (std::vector<uint32_t>{0x4101C820}));
}

// D7: float immediates encode the f32 pattern and warn.
TEST(Asm, FloatImmediate) {
  std::string Diags;
  auto F = assembleOk(".kernel k\nmov_imm r0, 1.0\nmov_imm r1, 2e-3\n"
                      "mov_imm r2, -0.5\n.end\n",
                      &Diags);
  ASSERT_TRUE(F);
  auto W = words(*F);
  EXPECT_EQ(W[1], 0x3F800000u);
  EXPECT_EQ(W[3], 0x3B03126Fu);
  EXPECT_EQ(W[5], 0xBF000000u);
  EXPECT_NE(Diags.find("t.wave:2:13: warning: floating-point immediate '1.0' "
                       "is encoded as its f32 bit pattern 0x3F800000"),
            std::string::npos)
      << Diags;
}

// D2: labels use true sizes and are kernel-relative.
TEST(Asm, LabelOffsets) {
  auto F = assembleOk(".kernel a\nhalt\n.end\n"
                      ".kernel b\niadd r0, r1, r2\ndevice_store_u32 r1, r2\n"
                      "target: halt\ncall target\ncall later\nlater:\n.end\n");
  ASSERT_TRUE(F);
  ASSERT_EQ(F->Kernels.size(), 2u);
  EXPECT_EQ(F->Kernels[1].CodeOffset, 4u);
  EXPECT_EQ(F->Kernels[1].CodeSize, 36u);
  auto W = words(*F);
  // a: halt; b: iadd(2) store(2) halt call(2) call(2)
  EXPECT_EQ(W[6], 0x3F000070u);
  EXPECT_EQ(W[7], 16u);
  EXPECT_EQ(W[9], 36u);
  // loc_XXXX names a numeric offset, defined or not.
  EXPECT_EQ(wordsOf("call loc_0010"),
            (std::vector<uint32_t>{0x3F000070, 0x10}));
  EXPECT_EQ(wordsOf("halt\nloc_0004: call loc_0004"),
            (std::vector<uint32_t>{0x3F000090, 0x3F000070, 0x4}));
}

// Diagnostics: location, wording, every error of the file in one run.
TEST(Asm, Diagnostics) {
  struct Case {
    const char *Body; ///< placed on line 2, inside a kernel
    const char *Expected;
  } Cases[] = {
      {"iaddd r0, r1, r2", "t.wave:2:1: error: unknown instruction 'iaddd'"},
      {"iadd r0, r1",
       "t.wave:2:1: error: expected 3 operands for 'iadd', got 2"},
      {"iadd r255, r1, r2",
       "t.wave:2:6: error: invalid register index 255: must be 0-254"},
      {"if p4", "t.wave:2:4: error: invalid predicate register index 4: must "
                "be 0-3"},
      {"mov_imm r0, 4294967296", "t.wave:2:13: error: immediate value "
                                 "4294967296 out of range"},
      {"mov_imm r0, -2147483649", "error: immediate value -2147483649 out of "
                                  "range"},
      {"fadd r1.hi, r2, r3", "t.wave:2:6: error: register half '.hi'"},
      {"if !p0", "t.wave:2:4: error: negated predicate '!p0' is not "
                 "supported: invert the compare"},
      {"break !p1", "error: negated predicate '!p1'"},
      {"iadd r0, sr_lane_id, r1",
       "t.wave:2:10: error: special register 'sr_lane_id' cannot be used as "
       "a general register"},
      {"atomic_add r1, r2, r3", "error: 'atomic_add' requires a scope"},
      {"fence_acquire", "error: 'fence_acquire' requires a scope"},
      {"call nowhere", "t.wave:2:6: error: undefined label 'nowhere'"},
      {"mov r0, 5", "error: 'mov' takes a register"},
      {"iadd r0, r1, r2 /", "t.wave:2:17: error: unexpected character '/'"},
      {".foo", "t.wave:2:1: error: unknown directive '.foo'"},
      {"mov r0, sr_bogus", "error: invalid special register 'sr_bogus'"},
      {"mov_imm r0, 0x", "error: invalid number literal '0x'"},
      {"mov_imm r0, 99999999999999999999", "error: invalid number literal"},
      {"@q halt", "error: invalid predicate syntax"},
      {"icmp_lt r0, r1, r2", "error: expected predicate register operand"},
      {"iadd r0, p1, r2", "error: expected register operand, found 'p1'"},
      {"x: x: halt", "error: duplicate label 'x'"},
      {"wave: halt", "error: 'wave' is a scope name and cannot be a label"},
      {".registers -1", "error: value -1 out of range for '.registers'"},
      {".registers 4294967296", "error: value 4294967296 out of range"},
      {".workgroup_size 1, 2", "error: expected ',' in '.workgroup_size"},
      {"iadd.device r0, r1, r2", "error: 'iadd' does not take a scope"},
      {"halt.bogus", "error: unknown suffix '.bogus' on 'halt'"},
      {"loc_0008: halt", "error: label 'loc_0008' names kernel offset 0x0008 "
                         "but is defined at offset 0x0000"},
      {"r1", "error: expected an instruction, label or directive, found "
             "'r1'"},
  };
  for (const Case &C : Cases) {
    std::string D =
        errorsOf((".kernel k\n" + llvm::Twine(C.Body) + "\n.end\n").str());
    EXPECT_NE(D.find(C.Expected), std::string::npos)
        << "source: " << C.Body << "\ngot: " << D;
  }
  // Caret line.
  std::string D = errorsOf(".kernel k\n  iaddd r0, r1, r2\n.end\n");
  EXPECT_NE(D.find("  iaddd r0, r1, r2\n  ^~~~~\n"), std::string::npos) << D;
}

TEST(Asm, AllErrorsInOneRun) {
  std::string D = errorsOf("halt\n.kernel k\nbogus1\nhalt\nbogus2 r1\n"
                           "iadd r300, r1, r2\n.end\n.kernel k\n.end\n"
                           ".kernel open\n");
  for (const char *E :
       {"t.wave:1:1: error: instruction outside kernel",
        "t.wave:3:1: error: unknown instruction 'bogus1'",
        "t.wave:5:1: error: unknown instruction 'bogus2'",
        "t.wave:6:6: error: invalid register index 300",
        "t.wave:8:9: error: duplicate kernel name 'k'",
        "t.wave:2:9: note: previous definition is here",
        "t.wave:10:9: error: kernel 'open' not closed with .end"})
    EXPECT_NE(D.find(E), std::string::npos) << E << "\n" << D;
  // Source order.
  EXPECT_LT(D.find("t.wave:3:1"), D.find("t.wave:5:1"));
}

TEST(Asm, Warnings) {
  std::string D;
  auto F = assembleOk(".kernel k\n.registers 8\n@p0 halt\n@p1 if p2\n"
                      "iadd r8, r1, r2\n@!p1 call k2\nk2: halt\n.end\n",
                      &D);
  ASSERT_TRUE(F) << D;
  EXPECT_NE(D.find("t.wave:3:1: warning: '@p0' cannot predicate"),
            std::string::npos)
      << D;
  EXPECT_NE(D.find("t.wave:4:1: warning: predicate '@p1' on 'if'"),
            std::string::npos);
  EXPECT_NE(D.find("t.wave:5:6: warning: register 'r8' is not below the "
                   "register count 8"),
            std::string::npos);
  EXPECT_NE(D.find("t.wave:6:1: warning: predicate '@!p1' on 'call'"),
            std::string::npos);
  // -W none / -W error.
  std::string None;
  EXPECT_TRUE(
      assembleOk(".kernel k\n@p0 halt\n.end\n", &None, WarningMode::None));
  EXPECT_EQ(None, "");
  std::string Err;
  EXPECT_FALSE(
      assembleOk(".kernel k\n@p0 halt\n.end\n", &Err, WarningMode::Error));
  EXPECT_NE(Err.find("error: '@p0'"), std::string::npos) << Err;
}

/// Fills the operand fields of \p I from its form with the value \p R
/// (reduced to the field's range).
void fillOperands(Inst &I, uint8_t R) {
  const FormDesc &F = I.form();
  for (unsigned K = 0; K != F.NumOperands; ++K) {
    const OperandDesc &O = F.Operands[K];
    uint32_t V = R;
    if (O.Kind == OperandKind::Pred || O.Kind == OperandKind::Scope)
      V = R & 3;
    if (O.Kind == OperandKind::Imm)
      V = R == 254 ? 0xDEADBEEF : R;
    if (O.Kind == OperandKind::Label)
      V = uint32_t(R) * 4;
    I.setField(O.Fld, V);
  }
}

// Every opcode x every predicate form x boundary register numbers: the
// printed text assembles to the same instruction, and decoding it prints the
// same text (formats/isa.md §1, §2; formats/wave-asm.md §7).
TEST(Asm, PrintParseRoundTripAllOpcodes) {
  struct Pred {
    uint8_t Reg;
    bool Neg;
  } Preds[] = {{0, false}, {1, false}, {2, false}, {3, false},
               {0, true},  {1, true},  {2, true},  {3, true}};
  const uint8_t Regs[] = {0, 1, 254};
  std::vector<Inst> Expected;
  std::string Src = ".kernel all\n.registers 255\n";
  for (unsigned Op = 0; Op != NumOpcodes; ++Op)
    for (const Pred &P : Preds)
      for (uint8_t R : Regs) {
        Inst I;
        I.Op = static_cast<Opcode>(Op);
        I.PredReg = P.Reg;
        I.PredNeg = P.Neg;
        fillOperands(I, R);
        Expected.push_back(I);
        Src += formatInst(I) + "\n";
      }
  Src += ".end\n";
  std::string Diags;
  auto F = assembleOk(Src, &Diags, WarningMode::None);
  ASSERT_TRUE(F) << Diags;
  uint64_t Off = 0;
  for (const Inst &E : Expected) {
    std::string Text = formatInst(E);
    SCOPED_TRACE(Text);
    auto D = decodeInst(F->Code, Off);
    ASSERT_TRUE(static_cast<bool>(D)) << llvm::toString(D.takeError());
    std::vector<uint8_t> A, B;
    encodeInst(E, A);
    encodeInst(*D, B);
    EXPECT_EQ(A, B);
    EXPECT_EQ(formatInst(*D), Text);
    Off += D->length();
  }
  EXPECT_EQ(Off, F->Code.size());
}

TEST(InstPrinter, Spellings) {
  auto Dec = [](std::vector<uint32_t> W) {
    std::vector<uint8_t> B;
    for (uint32_t X : W)
      appendLE32(B, X);
    auto I = decodeInst(B, 0);
    EXPECT_TRUE(static_cast<bool>(I));
    return I ? formatInst(*I) : std::string();
  };
  EXPECT_EQ(Dec({0x3D010200, 0x03000002}), "atomic_add r1, r2, r3, .device");
  EXPECT_EQ(Dec({0x3D000200, 0x03000002}), "atomic_add r2, r3, .device");
  EXPECT_EQ(Dec({0x3F0000B0, 0x00000001}), "fence_acquire .workgroup");
  EXPECT_EQ(Dec({0x00000104, 0x02000000}), "@!p0 iadd r0, r1, r2");
  EXPECT_EQ(Dec({0x41001420}), "mov r0, sr_20");
  EXPECT_EQ(Dec({0x41000420}), "mov r0, sr_lane_id");
  EXPECT_EQ(Dec({0x41010010, 9}), "mov_imm r1, 9");
  EXPECT_EQ(Dec({0x41010010, 10}), "mov_imm r1, 0xA");
  EXPECT_EQ(Dec({0x3F000070, 0x1C}), "call loc_001C");
  EXPECT_EQ(Dec({0x29010260, 0x03000000}), "ucmp_ord p1, r2, r3");
}

TEST(Disassembler, LayoutAndRoundTrip) {
  const char *Src = ".kernel first\n"
                    ".registers 0\n"
                    ".workgroup_size 1, 1, 1\n"
                    ".local_memory 64\n"
                    "    call sub\n"
                    "    halt\n"
                    "sub:\n"
                    "    atomic_add.device r1, r2, r3\n"
                    "    return\n"
                    ".end\n"
                    ".kernel second\n"
                    "    call 6\n"
                    "    call 0x100\n"
                    "    halt\n"
                    "    call loc_001C\n"
                    ".end\n";
  auto F = assembleOk(Src);
  ASSERT_TRUE(F);
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  ASSERT_FALSE(static_cast<bool>(disassemble(*F, OS)));
  EXPECT_EQ(Out, ".kernel first\n"
                 ".registers 0\n"
                 ".workgroup_size 1, 1, 1\n"
                 ".local_memory 64\n"
                 "    call loc_000C\n"
                 "    halt\n"
                 "loc_000C:\n"
                 "    atomic_add r1, r2, r3, .device\n"
                 "    return\n"
                 ".end\n"
                 "\n"
                 ".kernel second\n"
                 "    call loc_0006\n"
                 "    call loc_0100\n"
                 "    halt\n"
                 "    call loc_001C\n"
                 "loc_001C:\n"
                 ".end\n");
  auto Again = assembleOk(Out);
  ASSERT_TRUE(Again);
  EXPECT_EQ(writeWbin(*Again), writeWbin(*F));
}

TEST(Disassembler, OffsetsRawAndErrors) {
  auto F =
      assembleOk(".kernel a\nhalt\n.end\n.kernel b\nmov_imm r1, 4\n.end\n");
  ASSERT_TRUE(F);
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  DisasmOptions O;
  O.Offsets = O.Raw = O.NoDirectives = true;
  ASSERT_FALSE(static_cast<bool>(disassemble(*F, OS, O)));
  EXPECT_EQ(Out, "0x0020: 3F000090  halt\n"
                 "0x0024: 41010010  mov_imm r1, 4\n"
                 "        00000004\n");
  // A truncated second word in kernel b: offset relative to the code.
  F->Code.resize(F->Code.size() - 4);
  F->Kernels[1].CodeSize = 4;
  std::string Ignored;
  llvm::raw_string_ostream IS(Ignored);
  llvm::Error E = disassemble(*F, IS);
  ASSERT_TRUE(static_cast<bool>(E));
  llvm::handleAllErrors(std::move(E), [](const DecodeError &D) {
    EXPECT_EQ(D.getOffset(), 4u);
    EXPECT_EQ(D.getKind(), DecodeErrorKind::Truncated);
  });
  // Unnamed kernels get a name that re-assembles.
  EXPECT_EQ(getUnnamedKernelName(3), "kernel_3");
}

TEST(Disassembler, HexText) {
  llvm::SourceMgr SM;
  SM.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBuffer("0x90 0x00 0x00 0x3f ; halt\n"
                                       "41010010 00000004, # mov_imm\n",
                                       "h.txt"),
      llvm::SMLoc());
  auto B = parseHexText(SM);
  ASSERT_TRUE(static_cast<bool>(B));
  EXPECT_EQ(*B, (std::vector<uint8_t>{0x90, 0, 0, 0x3F, 0x10, 0, 1, 0x41, 4, 0,
                                      0, 0}));
  llvm::SourceMgr Bad;
  std::string Diags;
  Bad.setDiagHandler(
      [](const llvm::SMDiagnostic &D, void *C) {
        llvm::raw_string_ostream OS(*static_cast<std::string *>(C));
        D.print(nullptr, OS, false);
      },
      &Diags);
  Bad.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBuffer("0x90 zz 123\n", "h.txt"),
      llvm::SMLoc());
  auto E = parseHexText(Bad);
  EXPECT_FALSE(static_cast<bool>(E));
  llvm::consumeError(E.takeError());
  EXPECT_NE(Diags.find("1:6: error: invalid hex token 'zz'"), std::string::npos)
      << Diags;
  EXPECT_NE(Diags.find("1:9: error: invalid hex token '123'"),
            std::string::npos);
}

// Garbage never crashes and always fails cleanly.
TEST(Asm, GarbageInput) {
  std::string Bytes;
  for (unsigned I = 0; I != 4096; ++I)
    Bytes += char((I * 7919u) >> 3);
  std::string D;
  EXPECT_FALSE(assembleOk(Bytes, &D));
  EXPECT_FALSE(D.empty());
  D.clear();
  EXPECT_FALSE(assembleOk(std::string("halt\0\0", 6), &D));
  EXPECT_EQ(D, "t.wave: error: input contains a NUL byte at offset 4: it is "
               "binary, not assembly text\n");
}

} // namespace
