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

/// A region of the file (ISA.md §5.1): header, code, symbols, metadata, and
/// any trailing bytes after the last section (an extension area that
/// reference readers ignore, ISA.md §5.7).
struct WbinSection {
  std::string Name;
  uint64_t Offset; ///< absolute file offset, bytes.
  uint64_t Size;   ///< bytes.
};

/// The sections of a file already validated by readWbin(), in file order.
std::vector<WbinSection> getSections(const WbinFile &F, uint64_t FileSize);

/// What to show.
struct ObjDumpOptions {
  bool Headers = false;     ///< -h: header fields and section table.
  bool Symbols = false;     ///< -t: the symbol table.
  bool Kernels = false;     ///< --kernels: the kernel metadata table.
  bool Contents = false;    ///< -s: hex dump of every section.
  bool Disassemble = false; ///< -d: instructions with offsets and raw words.
};

/// Writes the selected parts of \p F as text. \p Bytes is the whole file
/// (for -s); \p FileName is printed in the first line. A word that fails to
/// decode in -d is printed as `<invalid: REASON>` and disassembly of that
/// kernel stops there; the function itself never fails.
void dumpText(llvm::raw_ostream &OS, llvm::StringRef FileName,
              const WbinFile &F, llvm::ArrayRef<uint8_t> Bytes,
              const ObjDumpOptions &Opts);

/// Writes the same facts as one JSON object (keys "file", "header",
/// "sections", "symbols", "kernels", "contents", "disassembly"; only the
/// selected ones besides "file"). Numbers are JSON integers.
void dumpJSON(llvm::raw_ostream &OS, llvm::StringRef FileName,
              const WbinFile &F, llvm::ArrayRef<uint8_t> Bytes,
              const ObjDumpOptions &Opts);

} // namespace wave

#endif // WAVE_DUMP_OBJDUMPER_H
