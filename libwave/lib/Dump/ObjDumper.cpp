//===- ObjDumper.cpp - Inspection of .wbin files for wave-objdump ---------===//
//
// Text and JSON renderings of a validated WbinFile. The JSON carries exactly
// the facts of the text form so that scripts never need to scrape text.
//
//===----------------------------------------------------------------------===//
#include "wave/Dump/ObjDumper.h"

#include "wave/Dump/Occupancy.h"

#include "wave/ISA/ISA.h"
#include "wave/ISA/InstPrinter.h"
#include "wave/Support/HexDump.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

using namespace llvm;

namespace wave {

std::vector<WbinSection> getSections(const WbinFile &F,
                                     ArrayRef<uint8_t> Bytes) {
  const WbinHeader &H = F.Header;
  const uint64_t FileSize = Bytes.size();
  std::vector<WbinSection> S;
  S.push_back({"header", 0, WbinHeaderSize});
  S.push_back({"code", H.CodeOffset, H.CodeSize});
  if (H.SymbolOffset != 0 || H.SymbolSize != 0)
    S.push_back({"symbols", H.SymbolOffset, H.SymbolSize});
  S.push_back({"metadata", H.MetadataOffset, H.MetadataSize});
  // The extension directory: "WEXT", a u32 count, then one 12-byte entry
  // per section (formats/wbin.md "Directory"), as readWbin() recorded it.
  if (F.ExtensionOffset) {
    S.push_back({"extdir", F.ExtensionOffset,
                 8 + 12 * uint64_t(F.ExtensionSections.size())});
    for (const WbinExtSection &E : F.ExtensionSections)
      S.push_back({wbinExtSectionName(E.Type), E.Offset, E.Size});
  }
  uint64_t End = 0;
  for (const WbinSection &X : S)
    End = std::max(End, X.Offset + X.Size);
  if (End < FileSize)
    S.push_back({"trailing", End, FileSize - End});
  // By offset; empty sections at one offset by size, then name, so the
  // order is total and deterministic.
  llvm::sort(S, [](const WbinSection &A, const WbinSection &B) {
    return std::tie(A.Offset, A.Size, A.Name) <
           std::tie(B.Offset, B.Size, B.Name);
  });
  return S;
}

std::vector<std::string> decodeWbinFlags(uint16_t Flags) {
  std::vector<std::string> Names;
  if (Flags & WbinFlagExtensions)
    Names.push_back("extensions");
  if (Flags & WbinFlagRelocatable)
    Names.push_back("relocatable");
  if (uint16_t Rest = Flags & ~(WbinFlagExtensions | WbinFlagRelocatable))
    Names.push_back(formatv("{0:x4}", Rest).str());
  return Names;
}

namespace {

/// One instruction of a kernel's code, or the decode failure that ended it.
struct DisasmLine {
  uint64_t FileOffset;
  uint32_t CodeOffset; ///< code-section relative.
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
    L.CodeOffset = uint32_t(K.CodeOffset + Off);
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

/// "FILE:LINE:COL" of a line-table row (":COL" left out when 0).
std::string locString(const WbinFile &F, const WbinLine &L) {
  std::string S = F.SourceFiles[L.File] + ":" + std::to_string(L.Line);
  if (L.Column)
    S += ":" + std::to_string(L.Column);
  return S;
}

const char *bindingName(WbinBinding B) {
  return B == WbinBinding::Global ? "global" : "local";
}

const char *symbolKindName(WbinSymbolKind K) {
  switch (K) {
  case WbinSymbolKind::Kernel:
    return "kernel";
  case WbinSymbolKind::Function:
    return "function";
  case WbinSymbolKind::Label:
    return "label";
  }
  return "?";
}

/// "SYM", "SYM+N" or "SYM-N" for a relocation.
std::string relocTarget(const WbinFile &F, const WbinReloc &R) {
  std::string S = F.Symbols[R.Symbol].Name;
  if (R.Addend > 0)
    S += "+" + std::to_string(R.Addend);
  else if (R.Addend < 0)
    S += std::to_string(R.Addend);
  return S;
}

/// The units -d shows: every kernel, then every defined function symbol
/// (device functions of a relocatable object or a library), as a
/// KernelInfo with a name, code offset and size.
std::vector<std::pair<const char *, KernelInfo>>
disasmUnits(const WbinFile &F) {
  std::vector<std::pair<const char *, KernelInfo>> U;
  for (const KernelInfo &K : F.Kernels)
    U.emplace_back("kernel", K);
  for (const WbinSymbol &Sym : F.Symbols)
    if (Sym.Defined && Sym.Kind == WbinSymbolKind::Function) {
      KernelInfo K;
      K.Name = Sym.Name;
      K.CodeOffset = Sym.Offset;
      K.CodeSize = Sym.Size;
      U.emplace_back("function", K);
    }
  return U;
}

/// The relocation of the instruction at code-section offset \p Off, or null.
const WbinReloc *relocAt(const WbinFile &F, uint32_t Off) {
  auto It = llvm::partition_point(
      F.Relocs, [&](const WbinReloc &R) { return R.Offset < Off; });
  return It != F.Relocs.end() && It->Offset == Off ? &*It : nullptr;
}

std::string workgroupString(const KernelInfo &K) {
  return (Twine(K.WorkgroupSize[0]) + "," + Twine(K.WorkgroupSize[1]) + "," +
          Twine(K.WorkgroupSize[2]))
      .str();
}

} // namespace

/// The occupancy rows of kernel \p I of the file being dumped (--kernels).
static std::vector<OccupancyRow> occupancyOf(const WbinFile &F, size_t I,
                                             const ObjDumpOptions &Opts) {
  bool HasMCPU = I < Opts.MCPUVGPRs.size();
  return kernelOccupancy(F.Kernels[I].RegisterCount,
                         HasMCPU ? StringRef(Opts.MCPU) : StringRef(),
                         HasMCPU ? Opts.MCPUVGPRs[I] : 0);
}

void dumpText(raw_ostream &OS, StringRef FileName, const WbinFile &F,
              ArrayRef<uint8_t> Bytes, const ObjDumpOptions &Opts) {
  const WbinHeader &H = F.Header;
  OS << FileName << ": file format wbin version " << H.Version << "\n";
  if (Opts.Headers) {
    OS << "\nHeader:\n"
       << "  magic            WAVE\n"
       << "  version          " << H.Version << "\n"
       << "  flags            " << format("0x%04x", H.Flags);
    std::vector<std::string> FlagNames = decodeWbinFlags(H.Flags);
    if (!FlagNames.empty()) {
      OS << " (";
      for (size_t I = 0; I != FlagNames.size(); ++I)
        OS << (I ? ", " : "") << FlagNames[I];
      OS << ")";
    }
    OS << "\n"
       << "  kernels          " << F.Kernels.size() << "\n"
       << "\nSections:\n"
       << "Idx Name       Offset     Size\n";
    unsigned Idx = 0;
    for (const WbinSection &S : getSections(F, Bytes))
      OS << format("%3u %-10s 0x%08llx 0x%08llx\n", Idx++, S.Name.c_str(),
                   (unsigned long long)S.Offset, (unsigned long long)S.Size);
  }
  if (Opts.Symbols && F.Symbols.empty()) {
    // A reference-format file: the kernel table is the symbol table.
    OS << "\nSymbol table:\n"
       << "Value      Size       Type   Name\n";
    for (const KernelInfo &K : F.Kernels)
      OS << format("0x%08x 0x%08x kernel ", K.CodeOffset, K.CodeSize)
         << K.Name << "\n";
  } else if (Opts.Symbols) {
    // The extension SYMTAB; values are code-section offsets.
    OS << "\nSymbol table:\n"
       << "Value      Size       Bind   Kind     Regs CallBase Name\n";
    for (const WbinSymbol &Sym : F.Symbols) {
      if (Sym.Defined)
        OS << format("0x%08x ", Sym.Offset);
      else
        OS << "UND        ";
      OS << format("0x%08x %-6s %-8s %4u %8u ", Sym.Size,
                   bindingName(Sym.Binding), symbolKindName(Sym.Kind),
                   Sym.Registers, Sym.CallBase)
         << Sym.Name << "\n";
    }
  }
  if (Opts.Relocs) {
    OS << "\nRelocations:\n"
       << "Offset     Type Symbol\n";
    for (const WbinReloc &R : F.Relocs)
      OS << format("0x%08x ", R.Offset)
         << (R.Type == WbinRelocType::Call ? "CALL" : "?") << " "
         << relocTarget(F, R) << "\n";
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
    for (size_t I = 0; I != F.Kernels.size(); ++I) {
      OS << "\nOccupancy of kernel '" << F.Kernels[I].Name << "' by registers ("
         << occupancyEquation() << "):\n";
      printOccupancy(OS, occupancyOf(F, I, Opts));
    }
  }
  if (Opts.Params) {
    for (const KernelInfo &K : F.Kernels) {
      OS << "\nParameters of kernel '" << K.Name << "':\n";
      if (!K.Params) {
        OS << "  (no descriptors)\n";
        continue;
      }
      OS << "Reg  Kind   Type Access    Name\n";
      unsigned Reg = 0;
      for (const WbinParam &P : *K.Params) {
        bool Buf = P.Kind == WbinParamKind::Buffer;
        OS << format("r%-3u %-6s %-4s %-9s ", Reg++, Buf ? "buffer" : "scalar",
                     wbinTypeName(P.Type).str().c_str(),
                     Buf ? wbinAccessName(P.Access).str().c_str() : "-")
           << P.Name << "\n";
      }
    }
  }
  if (Opts.LineNumbers && !Opts.Disassemble) {
    OS << "\nLine table:\n"
       << "Offset     Location\n";
    for (const WbinLine &L : F.Lines) {
      OS << format("0x%08x ", L.Offset);
      if (L.Line)
        OS << locString(F, L) << "\n";
      else
        OS << "-\n";
    }
  }
  if (Opts.Contents) {
    for (const WbinSection &S : getSections(F, Bytes)) {
      OS << "\nContents of section " << S.Name << ":\n";
      printHexRows(OS, Bytes.slice(S.Offset, S.Size), S.Offset);
    }
  }
  if (Opts.Disassemble) {
    for (const auto &[What, K] : disasmUnits(F)) {
      OS << "\nDisassembly of " << What << " '" << K.Name << "':\n";
      const WbinLine *Last = nullptr;
      for (const DisasmLine &L : disassembleKernel(F, K)) {
        if (Opts.LineNumbers) {
          const WbinLine *Row = F.lineFor(L.CodeOffset);
          if (Row && Row != Last)
            OS << "  ; " << locString(F, *Row) << "\n";
          Last = Row;
        }
        OS << format("  %06llx:", (unsigned long long)L.FileOffset);
        std::string Padded;
        for (uint32_t W : L.Words)
          Padded += formatv(" {0:x-8}", W).str();
        OS << format("%-19s", Padded.c_str()) << "  " << L.Text;
        if (const WbinReloc *R = relocAt(F, L.CodeOffset))
          OS << "  ; CALL " << relocTarget(F, *R);
        OS << "\n";
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
        J.attributeArray("flag_names", [&] {
          for (const std::string &N : decodeWbinFlags(H.Flags))
            J.value(N);
        });
        J.attribute("code_offset", H.CodeOffset);
        J.attribute("code_size", H.CodeSize);
        J.attribute("symbol_offset", H.SymbolOffset);
        J.attribute("symbol_size", H.SymbolSize);
        J.attribute("metadata_offset", H.MetadataOffset);
        J.attribute("metadata_size", H.MetadataSize);
      });
      J.attributeArray("sections", [&] {
        for (const WbinSection &S : getSections(F, Bytes))
          J.object([&] {
            J.attribute("name", S.Name);
            J.attribute("offset", int64_t(S.Offset));
            J.attribute("size", int64_t(S.Size));
          });
      });
    }
    if (Opts.Symbols && !F.Symbols.empty())
      J.attributeArray("symbols", [&] {
        for (const WbinSymbol &Sym : F.Symbols)
          J.object([&] {
            J.attribute("name", Sym.Name);
            J.attribute("type", symbolKindName(Sym.Kind));
            J.attribute("binding", bindingName(Sym.Binding));
            J.attribute("defined", Sym.Defined);
            J.attribute("value", Sym.Offset);
            J.attribute("size", Sym.Size);
            J.attribute("registers", Sym.Registers);
            J.attribute("call_base", Sym.CallBase);
          });
      });
    else if (Opts.Symbols)
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
        for (size_t I = 0; I != F.Kernels.size(); ++I)
          J.object([&] {
            const KernelInfo &K = F.Kernels[I];
            J.attribute("name", K.Name);
            J.attribute("register_count", K.RegisterCount);
            J.attribute("local_memory_size", K.LocalMemorySize);
            J.attributeArray("workgroup_size", [&] {
              for (uint32_t D : K.WorkgroupSize)
                J.value(D);
            });
            J.attribute("code_offset", K.CodeOffset);
            J.attribute("code_size", K.CodeSize);
            J.attributeArray("occupancy", [&] {
              for (const OccupancyRow &R : occupancyOf(F, I, Opts))
                J.object([&] {
                  J.attribute("target", R.Target.Name);
                  J.attribute("unit", R.Target.Unit);
                  J.attribute("register_file_bytes",
                              R.Target.RegisterFileBytes);
                  J.attribute("wave_size", R.Target.WaveSize);
                  J.attribute("registers", R.Registers);
                  J.attribute("registers_from",
                              R.FromAMDGCN ? "amdgcn" : "metadata");
                  J.attribute("waves_by_registers",
                              R.ByRegisters ? json::Value(*R.ByRegisters)
                                            : json::Value(nullptr));
                  J.attribute("max_waves", R.Target.MaxWaves);
                  J.attribute("waves", R.Waves);
                });
            });
          });
      });
    if (Opts.Relocs)
      J.attributeArray("relocations", [&] {
        for (const WbinReloc &R : F.Relocs)
          J.object([&] {
            J.attribute("offset", R.Offset);
            J.attribute("type", "CALL");
            J.attribute("symbol", F.Symbols[R.Symbol].Name);
            J.attribute("symbol_index", R.Symbol);
            J.attribute("addend", int64_t(R.Addend));
          });
      });
    if (Opts.Params)
      J.attributeArray("params", [&] {
        for (const KernelInfo &K : F.Kernels)
          J.object([&] {
            J.attribute("kernel", K.Name);
            if (!K.Params) {
              J.attribute("parameters", nullptr);
              return;
            }
            J.attributeArray("parameters", [&] {
              unsigned Reg = 0;
              for (const WbinParam &P : *K.Params)
                J.object([&] {
                  bool Buf = P.Kind == WbinParamKind::Buffer;
                  J.attribute("register", Reg++);
                  J.attribute("name", P.Name);
                  J.attribute("kind", Buf ? "buffer" : "scalar");
                  J.attribute("type", wbinTypeName(P.Type));
                  if (Buf)
                    J.attribute("access", wbinAccessName(P.Access));
                });
            });
          });
      });
    if (Opts.LineNumbers)
      J.attributeObject("lines", [&] {
        J.attributeArray("files", [&] {
          for (const std::string &N : F.SourceFiles)
            J.value(N);
        });
        J.attributeArray("rows", [&] {
          for (const WbinLine &L : F.Lines)
            J.object([&] {
              J.attribute("offset", L.Offset);
              J.attribute("file", L.File);
              J.attribute("line", L.Line);
              J.attribute("column", L.Column);
            });
        });
      });
    if (Opts.Contents)
      J.attributeArray("contents", [&] {
        for (const WbinSection &S : getSections(F, Bytes))
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
        for (const auto &[What, K] : disasmUnits(F))
          J.object([&] {
            J.attribute(What, K.Name);
            J.attributeArray("instructions", [&] {
              for (const DisasmLine &L : disassembleKernel(F, K))
                J.object([&] {
                  J.attribute("offset", int64_t(L.FileOffset));
                  J.attributeArray("words", [&] {
                    for (uint32_t W : L.Words)
                      J.value(W);
                  });
                  J.attribute(L.Invalid ? "error" : "text", L.Text);
                  if (Opts.LineNumbers)
                    if (const WbinLine *Row = F.lineFor(L.CodeOffset))
                      J.attribute("loc", locString(F, *Row));
                  if (const WbinReloc *R = relocAt(F, L.CodeOffset))
                    J.attribute("reloc", relocTarget(F, *R));
                });
            });
          });
      });
  });
  OS << "\n";
}

} // namespace wave
