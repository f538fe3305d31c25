//===- Wbin.h - The .wbin container: reader and writer ----------*- C++ -*-===//
//
// The in-memory form of a `.wbin` file (formats/wbin.md, formats/wbin.md) and
// its byte-exact writer and validating reader. Every tool that consumes a
// `.wbin` (wave-dis, wave-objdump, wave-run, wave-link) goes through
// readWbin(); none parses the bytes itself.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_OBJECT_WBIN_H
#define WAVE_OBJECT_WBIN_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace wave {

/// Size of the fixed header (formats/wbin.md "Header (32 bytes)").
inline constexpr uint32_t WbinHeaderSize = 32;
/// Size of one kernel metadata entry (formats/wbin.md "Kernel entry").
inline constexpr uint32_t WbinKernelEntrySize = 32;
/// The only container version (formats/wbin.md "Header (32 bytes)").
inline constexpr uint16_t WbinVersion = 1;

/// The 32-byte header exactly as stored (formats/wbin.md "Header (32 bytes)").
/// Offsets are absolute file offsets in bytes; sizes are in bytes.
struct WbinHeader {
  uint16_t Version = WbinVersion;
  uint16_t Flags = 0;
  uint32_t CodeOffset = 0, CodeSize = 0;
  uint32_t SymbolOffset = 0, SymbolSize = 0;
  uint32_t MetadataOffset = 0, MetadataSize = 0;
};

/// Header `flags` bits. Reference readers ignore the field (formats/wbin.md
/// "What the reference readers check", "compatible extension points");
/// formats/wbin.md "Extension area".
enum WbinFlag : uint16_t {
  /// An extension area starts at metadata_offset + metadata_size.
  WbinFlagExtensions = 1u << 0,
  /// A relocatable object (`wave-as -c`): input for wave-link, not runnable.
  WbinFlagRelocatable = 1u << 1,
};

/// Element type of a buffer parameter, or type of a scalar one
/// (formats/wbin.md "PARAMS"). Scalars are I32, U32 or F32
/// (formats/kernel-abi.md: one 32-bit register each).
enum class WbinType : uint8_t { I32 = 1, U32 = 2, F32 = 3, F16 = 4, BF16 = 5, F64 = 6 };

/// "i32", "u32", "f32", "f16", "bf16" or "f64".
llvm::StringRef wbinTypeName(WbinType T);
/// Inverse of wbinTypeName(); std::nullopt for any other spelling.
std::optional<WbinType> parseWbinType(llvm::StringRef Name);
/// Size in bytes of one element of \p T (2, 4 or 8).
unsigned wbinTypeSize(WbinType T);

/// Parameter kind: a scalar value or the byte offset of a buffer.
enum class WbinParamKind : uint8_t { Scalar = 0, Buffer = 1 };

/// How a kernel uses a buffer parameter (bit set). Scalars are Read.
enum WbinAccess : uint8_t {
  WbinAccessRead = 1,
  WbinAccessWrite = 2,
  WbinAccessReadWrite = 3,
};
/// "read", "write" or "readwrite" (the access bits 1..3).
llvm::StringRef wbinAccessName(uint8_t Access);
/// Inverse of wbinAccessName(); 0 for any other spelling.
uint8_t parseWbinAccess(llvm::StringRef Name);

/// One kernel parameter descriptor (formats/wbin.md "PARAMS"). Parameter i
/// of a kernel arrives in register ri (formats/kernel-abi.md).
struct WbinParam {
  std::string Name;
  WbinParamKind Kind = WbinParamKind::Scalar;
  WbinType Type = WbinType::U32; ///< element type (buffer) or value type.
  uint8_t Access = WbinAccessRead;
  bool operator==(const WbinParam &O) const {
    return Name == O.Name && Kind == O.Kind && Type == O.Type &&
           Access == O.Access;
  }
};

/// One kernel's metadata entry (formats/wbin.md "Kernel entry"), with its name
/// resolved.
struct KernelInfo {
  std::string Name;
  uint32_t RegisterCount = 32;  ///< registers per lane (`.registers`).
  uint32_t LocalMemorySize = 0; ///< bytes per workgroup (`.local_memory`).
  /// Threads per workgroup in x, y, z; {0,0,0} = "use the runner's value".
  std::array<uint32_t, 3> WorkgroupSize = {0, 0, 0};
  uint32_t CodeOffset = 0; ///< first byte, relative to the code section.
  uint32_t CodeSize = 0;   ///< bytes of code.
  /// Absolute file offset of the name as stored (reader only; 0 = none).
  uint32_t NameOffset = 0;
  /// Parameter descriptors in ABI order (extension PARAMS section);
  /// std::nullopt when the file does not describe this kernel's parameters.
  std::optional<std::vector<WbinParam>> Params;
};

/// The workgroup dimensions of a dispatch of \p K (formats/isa.md §4.2,
/// item 2): the kernel's `.workgroup_size` when its x is > 0 -- all three
/// components, zeros included (a zero makes a workgroup without threads)
/// -- otherwise \p Launch (the runner's `--workgroup`). Every executor
/// (the emulator, HSA, CUDA, the NVPTX lifter's constants) asks this.
std::array<uint32_t, 3>
effectiveWorkgroupSize(const KernelInfo &K, const std::array<uint32_t, 3> &Launch);

/// The local memory bytes of a dispatch of \p K: the kernel's
/// `.local_memory` when nonzero, otherwise \p Launch (`--local-memory`).
uint32_t effectiveLocalMemory(const KernelInfo &K, uint32_t Launch);

/// Symbol binding: visible to other objects at link time, or not.
enum class WbinBinding : uint8_t { Local = 0, Global = 1 };
/// What a symbol names.
enum class WbinSymbolKind : uint8_t {
  Kernel = 0,   ///< an entry point; also in the kernel table.
  Function = 1, ///< a device function, entered with `call`, left with `return`.
  Label = 2,    ///< a position inside a kernel or function (informational).
};

/// One entry of the extension SYMTAB section (formats/wbin.md "SYMTAB").
struct WbinSymbol {
  std::string Name;
  WbinSymbolKind Kind = WbinSymbolKind::Function;
  WbinBinding Binding = WbinBinding::Local;
  /// False for an undefined (`.extern`) symbol, which is Global, a Function
  /// and has Offset = Size = Registers = CallBase = 0.
  bool Defined = true;
  uint32_t Offset = 0; ///< first byte, relative to the code section.
  uint32_t Size = 0;   ///< bytes (kernels and functions); 0 for labels.
  /// Kernels and functions: the unit's register frame r0..r(Registers-1)
  /// (its `.registers`). A callee's r0 is the caller's r(CallBase): the
  /// linker renumbers the callee's registers by the caller's window base
  /// plus CallBase (formats/wbin.md "SYMTAB", formats/wave-asm.md §9).
  uint32_t Registers = 0;
  uint32_t CallBase = 0;
};

/// Relocation types (formats/wbin.md "RELOC").
enum class WbinRelocType : uint8_t {
  /// W1 of the `call` at Offset := (code-section offset of the copy of
  /// Symbol placed for the running kernel) + Addend - (that kernel's
  /// code_offset): the kernel-relative target of formats/isa.md §4.16.
  Call = 1,
};

/// One entry of the extension RELOC section.
struct WbinReloc {
  uint32_t Offset = 0; ///< the `call` instruction's W0, code-section relative.
  uint32_t Symbol = 0; ///< index into WbinFile::Symbols.
  WbinRelocType Type = WbinRelocType::Call;
  int32_t Addend = 0; ///< bytes added to the symbol's address.
};

/// One row of the extension LINES section: code from Offset up to the next
/// row's Offset comes from SourceFiles[File]:Line:Column. Line 0 means
/// "no source location".
struct WbinLine {
  uint32_t Offset = 0; ///< code-section relative, a multiple of 4.
  uint32_t File = 0;   ///< index into WbinFile::SourceFiles.
  uint32_t Line = 0, Column = 0;
  bool operator==(const WbinLine &O) const {
    return Offset == O.Offset && File == O.File && Line == O.Line &&
           Column == O.Column;
  }
};

/// Extension section types (formats/wbin.md "Directory"); other values are
/// reserved and skipped by readers.
enum WbinExtType : uint32_t {
  WbinExtStrtab = 1,
  WbinExtSymtab = 2,
  WbinExtReloc = 3,
  WbinExtParams = 4,
  WbinExtLines = 5,
};
/// "strtab", "symtab", "reloc", "params", "lines", or "ext.N" for a
/// reserved type N.
std::string wbinExtSectionName(uint32_t Type);

/// One entry of the extension directory as read: a section's type and its
/// absolute file range.
struct WbinExtSection {
  uint32_t Type = 0, Offset = 0, Size = 0;
};

/// A whole `.wbin`: the code section and the kernel table. The symbol table
/// is derived from the kernel names when writing.
struct WbinFile {
  std::vector<uint8_t> Code;
  std::vector<KernelInfo> Kernels;
  /// The header as read (reader only); the writer recomputes it.
  WbinHeader Header;

  // Extension area (formats/wbin.md); all empty in a reference-format file.
  /// An object for wave-link (header flag WbinFlagRelocatable).
  bool Relocatable = false;
  /// Symbols in SYMTAB order (kernels, functions, labels, undefined).
  std::vector<WbinSymbol> Symbols;
  /// Relocations sorted by Offset.
  std::vector<WbinReloc> Relocs;
  /// Source file names of the line table.
  std::vector<std::string> SourceFiles;
  /// Line table rows sorted by Offset.
  std::vector<WbinLine> Lines;
  /// Every entry of the extension directory, in directory order, known
  /// types and reserved ones (reader only; the writer lays out its own).
  std::vector<WbinExtSection> ExtensionSections;
  /// Absolute file offset of the extension area as read (reader only; 0 =
  /// none).
  uint32_t ExtensionOffset = 0;

  /// True when writeWbin() will write an extension area: the file is
  /// relocatable or has symbols, relocations, parameter descriptors or a
  /// line table.
  bool hasExtensions() const;
  /// The line-table row covering code-section offset \p Offset, or null
  /// when there is none or it says "no location" (Line 0).
  const WbinLine *lineFor(uint32_t Offset) const;
  /// Index of the symbol named \p Name, or -1.
  int findSymbol(llvm::StringRef Name) const;
  /// Index of source file \p Name in SourceFiles, appending it if new.
  uint32_t addSourceFile(llvm::StringRef Name);
  /// Appends line-table row \p Row (rows come in offset order) unless the
  /// table already says the same from the last row on: the same file, line
  /// and column, or "no location" (Line 0) for both. A row at the last
  /// row's offset replaces it; a "no location" row at the start is
  /// dropped. So every row marks a change (formats/wbin.md "LINES").
  void addLine(const WbinLine &Row);

  /// The code bytes of kernel \p K. The reader guarantees the range lies
  /// inside Code.
  llvm::ArrayRef<uint8_t> kernelCode(const KernelInfo &K) const {
    return llvm::ArrayRef<uint8_t>(Code).slice(K.CodeOffset, K.CodeSize);
  }
  /// Index of the kernel named \p Name, or -1.
  int findKernel(llvm::StringRef Name) const;
};

/// A malformed `.wbin`: the reason and the file offset it concerns.
class WbinError : public llvm::ErrorInfo<WbinError> {
public:
  static char ID;
  WbinError(uint64_t Offset, std::string Message)
      : Offset(Offset), Message(std::move(Message)) {}
  uint64_t getOffset() const { return Offset; }
  const std::string &getMessage() const { return Message; }
  /// Prints "0xOFFSET: MESSAGE".
  void log(llvm::raw_ostream &OS) const override;
  std::error_code convertToErrorCode() const override;

private:
  uint64_t Offset;
  std::string Message;
};

/// Options of writeWbin().
struct WbinWriteOptions {
  /// Omit the symbol table. The symbol fields become 0 and, unlike the
  /// reference (D4), the metadata still follows the code.
  bool NoSymbols = false;
};

/// Serialises \p F with the reference writer's exact layout (formats/wbin.md
/// "Writer algorithm"): header, code, NUL-terminated kernel names, kernel count
/// and entries, no padding. Duplicate names point at the first copy (D30). When
/// F.hasExtensions(), the extension area follows the metadata and the header's
/// flags say so (formats/wbin.md); the bytes before it are those a file without
/// extensions would have. Never fails.
std::vector<uint8_t> writeWbin(const WbinFile &F,
                               const WbinWriteOptions &Opts = {});

/// Parses and validates a `.wbin` (formats/wbin.md "What the reference readers
/// check", D22). Checks, in order: size >= 32, magic "WAVE", version 1,
/// code/symbol/metadata ranges inside the file, the code section's size a
/// multiple of 4, kernel count fitting metadata_size and the file, every name
/// offset inside the symbol table and NUL-terminated there, every kernel code
/// range inside the code section. With the extension flag, also the extension
/// area (formats/wbin.md "What the reader checks"): directory, section ranges,
/// string offsets and UTF-8, symbol and kernel indices, relocations on `call`
/// instructions inside the code, sorted line rows. Fails with a WbinError
/// naming the offending file offset; never reads outside \p Bytes.
llvm::Expected<WbinFile> readWbin(llvm::ArrayRef<uint8_t> Bytes);

/// The 4 bytes every `.wbin` starts with (formats/wbin.md "Header (32 bytes)").
inline constexpr llvm::StringLiteral WbinMagic = "WAVE";

/// True if \p Bytes starts with WbinMagic.
bool isWbin(llvm::ArrayRef<uint8_t> Bytes);

} // namespace wave

#endif // WAVE_OBJECT_WBIN_H
