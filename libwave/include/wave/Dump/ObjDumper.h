//===- ObjDumper.h - Inspection of .wbin files for wave-objdump -*- C++ -*-===//
//
// Renders the facts of a `.wbin` (header, sections, symbols, kernel
// metadata, section contents, disassembly) as text or as JSON. All output
// goes to a caller-supplied stream; wave-objdump only selects what to show.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_DUMP_OBJDUMPER_H
#define WAVE_DUMP_OBJDUMPER_H

#include "wave/Object/Wbin.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace wave {

/// A region of the file (formats/wbin.md "Layout"): header, code, symbols,
/// metadata; with the extension flag the extension directory (`extdir`) and
/// each extension section by type (`strtab`, `symtab`, `reloc`, `params`,
/// `lines`, `ext.N` for an unknown type N; formats/wbin.md "Extension area");
/// and any bytes after the last of them (`trailing`, which reference readers
/// ignore, formats/wbin.md "What the reference readers check").
struct WbinSection {
  std::string Name;
  uint64_t Offset; ///< absolute file offset, bytes.
  uint64_t Size;   ///< bytes.
};

/// The sections of \p F, which readWbin() read and validated from \p Bytes
/// (the whole file), in file order.
std::vector<WbinSection> getSections(const WbinFile &F,
                                     llvm::ArrayRef<uint8_t> Bytes);

/// The names of the set bits of a header's flags: "extensions",
/// "relocatable", and "0xNNNN" for any unknown bits.
std::vector<std::string> decodeWbinFlags(uint16_t Flags);

/// What to show.
struct ObjDumpOptions {
  bool Headers = false;     ///< -h: header fields and section table.
  bool Symbols = false;     ///< -t: the symbol table.
  /// --kernels: the kernel metadata table, then each kernel's occupancy
  /// by registers on every target (Occupancy.h).
  bool Kernels = false;
  bool Contents = false;    ///< -s: hex dump of every section.
  bool Disassemble = false; ///< -d: instructions with offsets and raw words.
  bool Relocs = false;      ///< -r: the relocations.
  bool Params = false;      ///< --params: each kernel's parameter descriptors.
  /// -l: the line table; with Disassemble instead `; FILE:LINE:COL` lines
  /// before each instruction where the source position changes.
  bool LineNumbers = false;
  /// --mcpu: with Kernels, each kernel's occupancy (Occupancy.h) gets one
  /// more row for this AMDGCN processor, with R = MCPUVGPRs[kernel index]:
  /// the VGPRs the AMDGCN stage gives the kernels of the file being dumped
  /// (amdgcn::kernelVGPRCounts()), which the caller sets for each file.
  std::string MCPU;
  std::vector<unsigned> MCPUVGPRs;
};

/// Writes the selected parts of \p F as text. \p Bytes is the whole file
/// (for -s); \p FileName is printed in the first line. A word that fails to
/// decode in -d is printed as `<invalid: REASON>` and disassembly of that
/// kernel stops there; the function itself never fails.
void dumpText(llvm::raw_ostream &OS, llvm::StringRef FileName,
              const WbinFile &F, llvm::ArrayRef<uint8_t> Bytes,
              const ObjDumpOptions &Opts);

/// Writes the same facts as one JSON object (keys "file", "header",
/// "sections", "symbols", "relocations", "kernels", "params", "lines",
/// "contents", "disassembly"; only the selected ones besides "file").
/// Numbers are JSON integers; each kernel's "occupancy" is an array of
/// OccupancyRow objects ("waves_by_registers" null for none).
void dumpJSON(llvm::raw_ostream &OS, llvm::StringRef FileName,
              const WbinFile &F, llvm::ArrayRef<uint8_t> Bytes,
              const ObjDumpOptions &Opts);

} // namespace wave

#endif // WAVE_DUMP_OBJDUMPER_H
