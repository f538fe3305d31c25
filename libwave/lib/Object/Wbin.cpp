//===- Wbin.cpp - The .wbin container: reader and writer ------------------===//
//
// Byte-exact writer (ISA.md §5.6) and a reader that validates every offset
// and size before using it (ISA.md §5.7, D22).
//
//===----------------------------------------------------------------------===//
#include "wave/Object/Wbin.h"

#include "wave/ISA/ISA.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace wave {

char WbinError::ID = 0;

void WbinError::log(raw_ostream &OS) const {
  OS << format("0x%x", Offset) << ": " << Message;
}

std::error_code WbinError::convertToErrorCode() const {
  return std::make_error_code(std::errc::invalid_argument);
}

int WbinFile::findKernel(StringRef Name) const {
  for (size_t I = 0; I != Kernels.size(); ++I)
    if (Kernels[I].Name == Name)
      return static_cast<int>(I);
  return -1;
}

bool isWbin(ArrayRef<uint8_t> Bytes) {
  return Bytes.size() >= 4 && Bytes[0] == 'W' && Bytes[1] == 'A' &&
         Bytes[2] == 'V' && Bytes[3] == 'E';
}

static void appendLE16(std::vector<uint8_t> &Out, uint16_t V) {
  Out.push_back(V & 0xFF);
  Out.push_back(V >> 8);
}

std::vector<uint8_t> writeWbin(const WbinFile &F,
                               const WbinWriteOptions &Opts) {
  const uint32_t CodeSize = F.Code.size();
  // Symbol table: every name + NUL in kernel order; each entry points at the
  // first copy of its name (D30).
  std::vector<uint8_t> Symbols;
  std::vector<uint32_t> NameOffsets;
  StringMap<uint32_t> FirstCopy;
  const uint32_t SymOff = Opts.NoSymbols ? 0 : WbinHeaderSize + CodeSize;
  for (const KernelInfo &K : F.Kernels) {
    uint32_t Pos = SymOff + Symbols.size();
    NameOffsets.push_back(FirstCopy.try_emplace(K.Name, Pos).first->second);
    Symbols.insert(Symbols.end(), K.Name.begin(), K.Name.end());
    Symbols.push_back(0);
  }
  if (Opts.NoSymbols)
    Symbols.clear();
  const uint32_t SymSize = Symbols.size();
  // Unlike the reference (D4), stripped files keep their metadata after the
  // code rather than at offset 0.
  const uint32_t MetaOff = WbinHeaderSize + CodeSize + SymSize;
  const uint32_t MetaSize = 4 + WbinKernelEntrySize * F.Kernels.size();

  std::vector<uint8_t> Out;
  Out.reserve(MetaOff + MetaSize);
  Out.insert(Out.end(), {'W', 'A', 'V', 'E'});
  appendLE16(Out, WbinVersion);
  appendLE16(Out, 0);
  appendLE32(Out, WbinHeaderSize);
  appendLE32(Out, CodeSize);
  appendLE32(Out, SymOff);
  appendLE32(Out, SymSize);
  appendLE32(Out, MetaOff);
  appendLE32(Out, MetaSize);
  Out.insert(Out.end(), F.Code.begin(), F.Code.end());
  Out.insert(Out.end(), Symbols.begin(), Symbols.end());
  appendLE32(Out, F.Kernels.size());
  for (size_t I = 0; I != F.Kernels.size(); ++I) {
    const KernelInfo &K = F.Kernels[I];
    appendLE32(Out, Opts.NoSymbols ? 0 : NameOffsets[I]);
    appendLE32(Out, K.RegisterCount);
    appendLE32(Out, K.LocalMemorySize);
    for (uint32_t D : K.WorkgroupSize)
      appendLE32(Out, D);
    appendLE32(Out, K.CodeOffset);
    appendLE32(Out, K.CodeSize);
  }
  return Out;
}

static Error fail(uint64_t Offset, const Twine &Msg) {
  return make_error<WbinError>(Offset, Msg.str());
}

/// Checks that [Off, Off + Size) lies inside a file of FileSize bytes,
/// without overflowing.
static bool rangeFits(uint64_t Off, uint64_t Size, uint64_t FileSize) {
  return Off <= FileSize && Size <= FileSize - Off;
}

Expected<WbinFile> readWbin(ArrayRef<uint8_t> Bytes) {
  const uint64_t Len = Bytes.size();
  if (Len < WbinHeaderSize)
    return fail(0, "file too small for a .wbin header: " + Twine(Len) +
                       " bytes, need 32");
  if (!isWbin(Bytes))
    return fail(0, "bad magic: not a .wbin file");
  auto U32 = [&](uint64_t Off) { return readLE32(Bytes.data() + Off); };
  WbinFile F;
  WbinHeader &H = F.Header;
  H.Version = Bytes[4] | Bytes[5] << 8;
  H.Flags = Bytes[6] | Bytes[7] << 8;
  H.CodeOffset = U32(0x08);
  H.CodeSize = U32(0x0C);
  H.SymbolOffset = U32(0x10);
  H.SymbolSize = U32(0x14);
  H.MetadataOffset = U32(0x18);
  H.MetadataSize = U32(0x1C);
  if (H.Version != WbinVersion)
    return fail(4, "unsupported version " + Twine(H.Version) +
                       " (expected 1)");
  if (!rangeFits(H.CodeOffset, H.CodeSize, Len))
    return fail(0x08, "code section [" + Twine(H.CodeOffset) + ", +" +
                          Twine(H.CodeSize) + ") extends past end of file (" +
                          Twine(Len) + " bytes)");
  if (H.CodeSize % 4 != 0)
    return fail(0x0C, "code size " + Twine(H.CodeSize) +
                          " is not a multiple of 4");
  bool HasSymbols = H.SymbolOffset != 0 || H.SymbolSize != 0;
  if (HasSymbols && !rangeFits(H.SymbolOffset, H.SymbolSize, Len))
    return fail(0x10, "symbol table [" + Twine(H.SymbolOffset) + ", +" +
                          Twine(H.SymbolSize) +
                          ") extends past end of file (" + Twine(Len) +
                          " bytes)");
  if (!rangeFits(H.MetadataOffset, H.MetadataSize, Len))
    return fail(0x18, "metadata [" + Twine(H.MetadataOffset) + ", +" +
                          Twine(H.MetadataSize) +
                          ") extends past end of file (" + Twine(Len) +
                          " bytes)");
  F.Code.assign(Bytes.begin() + H.CodeOffset,
                Bytes.begin() + H.CodeOffset + H.CodeSize);
  if (H.MetadataSize < 4)
    return F; // ISA.md §5.7: no kernels.
  if (H.MetadataOffset < WbinHeaderSize)
    return fail(0x18, "metadata offset " + Twine(H.MetadataOffset) +
                          " overlaps the header");
  const uint64_t Count = U32(H.MetadataOffset);
  if (Count > (uint64_t(H.MetadataSize) - 4) / WbinKernelEntrySize)
    return fail(H.MetadataOffset,
                "kernel count " + Twine(Count) + " does not fit metadata size " +
                    Twine(H.MetadataSize));
  F.Kernels.reserve(Count);
  for (uint64_t I = 0; I != Count; ++I) {
    const uint64_t E = H.MetadataOffset + 4 + I * WbinKernelEntrySize;
    KernelInfo K;
    K.NameOffset = U32(E);
    K.RegisterCount = U32(E + 4);
    K.LocalMemorySize = U32(E + 8);
    K.WorkgroupSize = {U32(E + 12), U32(E + 16), U32(E + 20)};
    K.CodeOffset = U32(E + 24);
    K.CodeSize = U32(E + 28);
    if (K.NameOffset != 0 && H.SymbolSize > 0) {
      const uint64_t SymEnd = uint64_t(H.SymbolOffset) + H.SymbolSize;
      if (K.NameOffset < H.SymbolOffset || K.NameOffset >= SymEnd)
        return fail(E, "kernel " + Twine(I) + " name offset " +
                           Twine(K.NameOffset) +
                           " lies outside the symbol table");
      const uint8_t *Begin = Bytes.data() + K.NameOffset;
      const uint8_t *End = Bytes.data() + SymEnd;
      const uint8_t *Nul = std::find(Begin, End, 0);
      if (Nul == End)
        return fail(K.NameOffset, "kernel " + Twine(I) +
                                      " name is not NUL-terminated inside "
                                      "the symbol table");
      K.Name.assign(Begin, Nul);
    }
    if (!rangeFits(K.CodeOffset, K.CodeSize, H.CodeSize))
      return fail(E + 24, "kernel " + Twine(I) + " code [" +
                              Twine(K.CodeOffset) + ", +" + Twine(K.CodeSize) +
                              ") lies outside the code section (" +
                              Twine(H.CodeSize) + " bytes)");
    if (K.CodeOffset % 4 != 0 || K.CodeSize % 4 != 0)
      return fail(E + 24, "kernel " + Twine(I) +
                              " code offset and size must be multiples of 4");
    F.Kernels.push_back(std::move(K));
  }
  return F;
}

} // namespace wave
