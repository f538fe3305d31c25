//===- Disassembler.cpp - .wbin to WAVE assembly --------------------------===//
//
// Decodes each kernel twice: once to find the `call` targets that need a
// label line (D16), once to print. Output layout: formats/wave-asm.md §7 and
// formats/wave-asm.md ("Disassembler output").
//
//===----------------------------------------------------------------------===//
#include "wave/Asm/Disassembler.h"
#include "wave/Support/Quote.h"

#include "wave/ISA/ISA.h"
#include "wave/ISA/InstPrinter.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/Format.h"

using namespace llvm;

namespace wave {

std::string getUnnamedKernelName(unsigned Index) {
  return "kernel_" + std::to_string(Index);
}

/// Re-bases a DecodeError from kernel-relative to code-section offsets.
static Error rebase(Error E, uint64_t Base) {
  return handleErrors(std::move(E), [&](const DecodeError &D) -> Error {
    return make_error<DecodeError>(D.getKind(), Base + D.getOffset(),
                                   D.getWord0());
  });
}

static void printLine(raw_ostream &OS, const Inst &I, ArrayRef<uint8_t> Bytes,
                      uint64_t FileOffset, const DisasmOptions &Opts) {
  uint32_t W0 = readLE32(Bytes.data());
  std::string Text = formatInst(I);
  if (Opts.Offsets) {
    OS << format("0x%04llX: ", (unsigned long long)FileOffset);
    if (Opts.Raw)
      OS << format("%08X  ", W0);
  } else {
    OS << "    ";
  }
  OS << Text;
  if (Opts.ShowEncoding) {
    OS.indent(Text.size() < 36 ? 36 - Text.size() : 1);
    OS << "; encoding: [" << format("0x%08X", W0);
    if (I.length() == 8)
      OS << format(",0x%08X", readLE32(Bytes.data() + 4));
    OS << ']';
  }
  OS << '\n';
  if (Opts.Offsets && Opts.Raw && I.length() == 8)
    OS << "        " << format("%08X", readLE32(Bytes.data() + 4)) << '\n';
}

/// Prints the instructions of one kernel (or a bare stream when \p Labels is
/// false). Offsets in errors are relative to \p Code.
static Error printCode(ArrayRef<uint8_t> Code, raw_ostream &OS,
                       const DisasmOptions &Opts, uint64_t FileBase,
                       bool Labels, const WbinFile *F = nullptr,
                       uint32_t CodeBase = 0) {
  DenseSet<uint32_t> Targets;
  if (Labels) {
    DenseSet<uint64_t> Starts;
    for (uint64_t Off = 0; Off < Code.size();) {
      Expected<Inst> I = decodeInst(Code, Off);
      if (!I)
        return I.takeError();
      Starts.insert(Off);
      if (I->Op == Opcode::Call)
        Targets.insert(I->Word1);
      Off += I->length();
    }
    Starts.insert(Code.size());
    // Only targets that fall on an instruction boundary (or the end) of this
    // kernel get a label; the rest re-assemble through the numeric meaning
    // of `loc_XXXX`.
    SmallVector<uint32_t, 8> Drop;
    for (uint32_t T : Targets)
      if (!Starts.contains(T))
        Drop.push_back(T);
    for (uint32_t T : Drop)
      Targets.erase(T);
  }
  for (uint64_t Off = 0; Off < Code.size();) {
    Expected<Inst> I = decodeInst(Code, Off);
    if (!I)
      return I.takeError();
    if (Targets.contains(uint32_t(Off)))
      OS << getLocLabel(Off) << ":\n";
    if (F && !Opts.NoDirectives) {
      // A `.loc` wherever a line-table row starts, so that wave-as rebuilds
      // the same rows (it adds one where the location changes).
      uint32_t At = CodeBase + uint32_t(Off);
      auto Row = llvm::partition_point(
          F->Lines, [&](const WbinLine &L) { return L.Offset < At; });
      if (Row != F->Lines.end() && Row->Offset == At)
        OS << "    .loc " << Row->File + 1 << ' ' << Row->Line << ' '
           << Row->Column << '\n';
    }
    printLine(OS, *I, Code.slice(Off, I->length()), FileBase + Off, Opts);
    Off += I->length();
  }
  if (Targets.contains(uint32_t(Code.size())))
    OS << getLocLabel(Code.size()) << ":\n";
  return Error::success();
}

Error disassembleCode(ArrayRef<uint8_t> Code, raw_ostream &OS,
                      const DisasmOptions &Opts, uint64_t BaseOffset) {
  return printCode(Code, OS, Opts, BaseOffset, /*Labels=*/false);
}

Error disassemble(const WbinFile &F, raw_ostream &OS,
                  const DisasmOptions &Opts) {
  const uint64_t FileBase =
      F.Header.CodeOffset ? F.Header.CodeOffset : WbinHeaderSize;
  if (F.Kernels.empty())
    return printCode(F.Code, OS, Opts, FileBase, /*Labels=*/false);
  // Source files of the line table, numbered from 1 in table order.
  if (!Opts.NoDirectives && !F.SourceFiles.empty()) {
    for (size_t I = 0; I != F.SourceFiles.size(); ++I) {
      OS << ".file " << I + 1 << ' ';
      writeQuoted(OS, F.SourceFiles[I]);
      OS << '\n';
    }
    OS << '\n';
  }
  for (unsigned KI = 0; KI != F.Kernels.size(); ++KI) {
    const KernelInfo &K = F.Kernels[KI];
    // The reader guarantees the range; stay safe for hand-built files.
    uint64_t Begin = std::min<uint64_t>(K.CodeOffset, F.Code.size());
    uint64_t Size = std::min<uint64_t>(K.CodeSize, F.Code.size() - Begin);
    ArrayRef<uint8_t> Code = ArrayRef<uint8_t>(F.Code).slice(Begin, Size);
    if (!Opts.NoDirectives) {
      if (KI)
        OS << '\n';
      OS << ".kernel " << (K.Name.empty() ? getUnnamedKernelName(KI) : K.Name)
         << '\n';
      if (K.RegisterCount != 32)
        OS << ".registers " << K.RegisterCount << '\n';
      if (K.WorkgroupSize != std::array<uint32_t, 3>{0, 0, 0})
        OS << ".workgroup_size " << K.WorkgroupSize[0] << ", "
           << K.WorkgroupSize[1] << ", " << K.WorkgroupSize[2] << '\n';
      if (K.LocalMemorySize != 0)
        OS << ".local_memory " << K.LocalMemorySize << '\n';
      if (K.Params)
        for (const WbinParam &P : *K.Params) {
          bool Buf = P.Kind == WbinParamKind::Buffer;
          OS << ".param " << P.Name << ", " << (Buf ? "buffer" : "scalar")
             << ", " << wbinTypeName(P.Type);
          if (Buf)
            OS << ", " << wbinAccessName(P.Access);
          OS << '\n';
        }
    }
    if (Error E = printCode(Code, OS, Opts, FileBase + Begin, /*Labels=*/true,
                            &F, uint32_t(Begin)))
      return rebase(std::move(E), Begin);
    if (!Opts.NoDirectives)
      OS << ".end\n";
  }
  return Error::success();
}

static bool isHex(char C) {
  return (C >= '0' && C <= '9') || (C >= 'a' && C <= 'f') ||
         (C >= 'A' && C <= 'F');
}

Expected<std::vector<uint8_t>> parseHexText(SourceMgr &SM) {
  StringRef Buf = SM.getMemoryBuffer(SM.getMainFileID())->getBuffer();
  std::vector<uint8_t> Out;
  unsigned Errors = 0;
  size_t I = 0;
  while (I < Buf.size()) {
    char C = Buf[I];
    if (C == ' ' || C == '\t' || C == '\r' || C == '\n' || C == ',') {
      ++I;
      continue;
    }
    if (C == ';' || C == '#' || Buf.substr(I).starts_with("//")) {
      while (I < Buf.size() && Buf[I] != '\n')
        ++I;
      continue;
    }
    size_t Start = I;
    while (I < Buf.size() && !StringRef(" \t\r\n,;#").contains(Buf[I]))
      ++I;
    StringRef Tok = Buf.slice(Start, I);
    StringRef Digits = Tok;
    if (Digits.starts_with("0x") || Digits.starts_with("0X"))
      Digits = Digits.drop_front(2);
    bool AllHex = !Digits.empty() && llvm::all_of(Digits, isHex);
    uint32_t V = 0;
    if (AllHex && Digits.size() <= 2 && !Digits.getAsInteger(16, V)) {
      Out.push_back(uint8_t(V));
    } else if (AllHex && Digits.size() == 8 && !Digits.getAsInteger(16, V)) {
      appendLE32(Out, V);
    } else {
      ++Errors;
      SMLoc Loc = SMLoc::getFromPointer(Tok.data());
      SM.PrintMessage(Loc, SourceMgr::DK_Error,
                      "invalid hex token '" + Tok +
                          "': expected a byte (1-2 hex digits) or a 32-bit "
                          "word (8 hex digits)",
                      SMRange(Loc, SMLoc::getFromPointer(Tok.end())));
    }
  }
  if (Errors)
    return createStringError(inconvertibleErrorCode(), "%u invalid hex token%s",
                             Errors, Errors == 1 ? "" : "s");
  return Out;
}

} // namespace wave
