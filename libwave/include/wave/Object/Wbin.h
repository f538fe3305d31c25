//===- Wbin.h - The .wbin container: reader and writer ----------*- C++ -*-===//
//
// The in-memory form of a `.wbin` file (ISA.md §5, formats/wbin.md) and its
// byte-exact writer and validating reader. Every tool that consumes a
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
#include <string>
#include <vector>

namespace wave {

/// Size of the fixed header (ISA.md §5.2).
inline constexpr uint32_t WbinHeaderSize = 32;
/// Size of one kernel metadata entry (ISA.md §5.5).
inline constexpr uint32_t WbinKernelEntrySize = 32;
/// The only container version (ISA.md §5.2).
inline constexpr uint16_t WbinVersion = 1;

/// The 32-byte header exactly as stored (ISA.md §5.2). Offsets are absolute
/// file offsets in bytes; sizes are in bytes.
struct WbinHeader {
  uint16_t Version = WbinVersion;
  uint16_t Flags = 0;
  uint32_t CodeOffset = 0, CodeSize = 0;
  uint32_t SymbolOffset = 0, SymbolSize = 0;
  uint32_t MetadataOffset = 0, MetadataSize = 0;
};

/// One kernel's metadata entry (ISA.md §5.5), with its name resolved.
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
};

/// A whole `.wbin`: the code section and the kernel table. The symbol table
/// is derived from the kernel names when writing.
struct WbinFile {
  std::vector<uint8_t> Code;
  std::vector<KernelInfo> Kernels;
  /// The header as read (reader only); the writer recomputes it.
  WbinHeader Header;

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

/// Serialises \p F with the reference writer's exact layout (ISA.md §5.6):
/// header, code, NUL-terminated kernel names, kernel count and entries, no
/// padding. Duplicate names point at the first copy (D30). Never fails.
std::vector<uint8_t> writeWbin(const WbinFile &F,
                               const WbinWriteOptions &Opts = {});

/// Parses and validates a `.wbin` (ISA.md §5.7, D22). Checks, in order: size
/// >= 32, magic "WAVE", version 1, code/symbol/metadata ranges inside the
/// file, the code section's size a multiple of 4, kernel count fitting
/// metadata_size and the file, every name offset inside the symbol table
/// and NUL-terminated there, every kernel code range inside the code
/// section. Fails with a WbinError naming the offending file offset; never
/// reads outside \p Bytes.
llvm::Expected<WbinFile> readWbin(llvm::ArrayRef<uint8_t> Bytes);

/// True if \p Bytes starts with the `.wbin` magic.
bool isWbin(llvm::ArrayRef<uint8_t> Bytes);

} // namespace wave

#endif // WAVE_OBJECT_WBIN_H
