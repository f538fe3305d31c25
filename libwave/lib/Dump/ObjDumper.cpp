//===- ObjDumper.cpp - Inspection of .wbin files for wave-objdump ---------===//
//
// Text and JSON renderings of a validated WbinFile. The JSON carries exactly
// the facts of the text form so that scripts never need to scrape text.
//
//===----------------------------------------------------------------------===//
#include "wave/Dump/ObjDumper.h"

#include "wave/Asm/InstPrinter.h"
#include "wave/ISA/ISA.h"
#include "wave/Support/HexDump.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

using namespace llvm;

namespace wave {

std::vector<WbinSection> getSections(const WbinFile &F, uint64_t FileSize) {
  const WbinHeader &H = F.Header;
  std::vector<WbinSection> S;
  S.push_back({"header", 0, WbinHeaderSize});
  S.push_back({"code", H.CodeOffset, H.CodeSize});
  if (H.SymbolOffset != 0 || H.SymbolSize != 0)
    S.push_back({"symbols", H.SymbolOffset, H.SymbolSize});
  S.push_back({"metadata", H.MetadataOffset, H.MetadataSize});
  uint64_t End = 0;
  for (const WbinSection &X : S)
    End = std::max(End, X.Offset + X.Size);
  if (End < FileSize)
    S.push_back({"trailing", End, FileSize - End});
  std::stable_sort(S.begin(), S.end(),
                   [](const WbinSection &A, const WbinSection &B) {
                     return A.Offset < B.Offset;
                   });
  return S;
}

namespace {

/// One instruction of a kernel's code, or the decode failure that ended it.
struct DisasmLine {
  uint64_t FileOffset;
  std::vector<uint32_t> Words;
  std::string Text;
  bool Invalid = false;
};

std::vector<DisasmLine> disassembleKernel(const WbinFile &F,
                                          const KernelInfo &K) {
  std::vector<DisasmLine> Lines;
  ArrayRef<uint8_t> Code = F.kernelCode(K);
  const uint64_t Base = F.Header.CodeOffset + K.CodeOffset;
  for (uint64_t Off = 0; Off < Code.size();) {
    DisasmLine L;
    L.FileOffset = Base + Off;
    Expected<Inst> I = decodeInst(Code, Off);
    if (!I) {
      L.Invalid = true;
      handleAllErrors(I.takeError(), [&](const DecodeError &E) {
        L.Text = "<invalid: " + E.reason() + ">";
      });
      if (Code.size() - Off >= 4)
        L.Words.push_back(readLE32(Code.data() + Off));
      Lines.push_back(std::move(L));
      break;
    }
    L.Words.push_back(readLE32(Code.data() + Off));
    if (I->length() == 8)
      L.Words.push_back(readLE32(Code.data() + Off + 4));
    raw_string_ostream OS(L.Text);
    printInst(*I, OS);
    Off += I->length();
    Lines.push_back(std::move(L));
  }
  return Lines;
}

std::string workgroupString(const KernelInfo &K) {
  return (Twine(K.WorkgroupSize[0]) + "," + Twine(K.WorkgroupSize[1]) + "," +
          Twine(K.WorkgroupSize[2]))
      .str();
}

} // namespace

void dumpText(raw_ostream &OS, StringRef FileName, const WbinFile &F,
              ArrayRef<uint8_t> Bytes, const ObjDumpOptions &Opts) {
  const WbinHeader &H = F.Header;
  OS << FileName << ": file format wbin version " << H.Version << "\n";
  if (Opts.Headers) {
    OS << "\nHeader:\n"
       << "  magic            WAVE\n"
       << "  version          " << H.Version << "\n"
       << "  flags            " << format("0x%04x", H.Flags) << "\n"
       << "  kernels          " << F.Kernels.size() << "\n"
       << "\nSections:\n"
       << "Idx Name       Offset     Size\n";
    unsigned Idx = 0;
    for (const WbinSection &S : getSections(F, Bytes.size()))
      OS << format("%3u %-10s 0x%08llx 0x%08llx\n", Idx++, S.Name.c_str(),
                   (unsigned long long)S.Offset, (unsigned long long)S.Size);
  }
  if (Opts.Symbols) {
    OS << "\nSymbol table:\n"
       << "Value      Size       Type   Name\n";
    for (const KernelInfo &K : F.Kernels)
      OS << format("0x%08x 0x%08x kernel ", K.CodeOffset, K.CodeSize)
         << K.Name << "\n";
  }
  if (Opts.Kernels) {
    OS << "\nKernels:\n"
       << "Idx Registers LocalMemory Workgroup       CodeOffset CodeSize Name\n";
    unsigned Idx = 0;
    for (const KernelInfo &K : F.Kernels)
      OS << format("%3u %9u %11u %-15s 0x%08x %8u ", Idx++, K.RegisterCount,
                   K.LocalMemorySize, workgroupString(K).c_str(), K.CodeOffset,
                   K.CodeSize)
         << K.Name << "\n";
  }
  if (Opts.Contents) {
    for (const WbinSection &S : getSections(F, Bytes.size())) {
      OS << "\nContents of section " << S.Name << ":\n";
      printHexRows(OS, Bytes.slice(S.Offset, S.Size), S.Offset);
    }
  }
  if (Opts.Disassemble) {
    for (const KernelInfo &K : F.Kernels) {
      OS << "\nDisassembly of kernel '" << K.Name << "':\n";
      for (const DisasmLine &L : disassembleKernel(F, K)) {
        OS << format("  %06llx:", (unsigned long long)L.FileOffset);
        std::string Padded;
        for (uint32_t W : L.Words)
          Padded += formatv(" {0:x-8}", W).str();
        OS << format("%-19s", Padded.c_str()) << "  " << L.Text << "\n";
      }
    }
  }
}

void dumpJSON(raw_ostream &OS, StringRef FileName, const WbinFile &F,
              ArrayRef<uint8_t> Bytes, const ObjDumpOptions &Opts) {
  json::OStream J(OS, 2);
  const WbinHeader &H = F.Header;
  J.object([&] {
    J.attribute("file", FileName);
    if (Opts.Headers) {
      J.attributeObject("header", [&] {
        J.attribute("magic", "WAVE");
        J.attribute("version", H.Version);
        J.attribute("flags", H.Flags);
        J.attribute("code_offset", H.CodeOffset);
        J.attribute("code_size", H.CodeSize);
        J.attribute("symbol_offset", H.SymbolOffset);
        J.attribute("symbol_size", H.SymbolSize);
        J.attribute("metadata_offset", H.MetadataOffset);
        J.attribute("metadata_size", H.MetadataSize);
      });
      J.attributeArray("sections", [&] {
        for (const WbinSection &S : getSections(F, Bytes.size()))
          J.object([&] {
            J.attribute("name", S.Name);
            J.attribute("offset", int64_t(S.Offset));
            J.attribute("size", int64_t(S.Size));
          });
      });
    }
    if (Opts.Symbols)
      J.attributeArray("symbols", [&] {
        for (const KernelInfo &K : F.Kernels)
          J.object([&] {
            J.attribute("name", K.Name);
            J.attribute("type", "kernel");
            J.attribute("value", K.CodeOffset);
            J.attribute("size", K.CodeSize);
            J.attribute("name_offset", K.NameOffset);
          });
      });
    if (Opts.Kernels)
      J.attributeArray("kernels", [&] {
        for (const KernelInfo &K : F.Kernels)
          J.object([&] {
            J.attribute("name", K.Name);
            J.attribute("register_count", K.RegisterCount);
            J.attribute("local_memory_size", K.LocalMemorySize);
            J.attributeArray("workgroup_size", [&] {
              for (uint32_t D : K.WorkgroupSize)
                J.value(D);
            });
            J.attribute("code_offset", K.CodeOffset);
            J.attribute("code_size", K.CodeSize);
          });
      });
    if (Opts.Contents)
      J.attributeArray("contents", [&] {
        for (const WbinSection &S : getSections(F, Bytes.size()))
          J.object([&] {
            J.attribute("name", S.Name);
            J.attribute("offset", int64_t(S.Offset));
            std::string Hex;
            for (uint8_t B : Bytes.slice(S.Offset, S.Size))
              Hex += formatv("{0:x-2}", B).str();
            J.attribute("hex", Hex);
          });
      });
    if (Opts.Disassemble)
      J.attributeArray("disassembly", [&] {
        for (const KernelInfo &K : F.Kernels)
          J.object([&] {
            J.attribute("kernel", K.Name);
            J.attributeArray("instructions", [&] {
              for (const DisasmLine &L : disassembleKernel(F, K))
                J.object([&] {
                  J.attribute("offset", int64_t(L.FileOffset));
                  J.attributeArray("words", [&] {
                    for (uint32_t W : L.Words)
                      J.value(W);
                  });
                  J.attribute(L.Invalid ? "error" : "text", L.Text);
                });
            });
          });
      });
  });
  OS << "\n";
}

} // namespace wave
