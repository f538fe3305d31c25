//===- Wbin.cpp - The .wbin container: reader and writer ------------------===//
//
// Byte-exact writer (formats/wbin.md "Writer algorithm") and a reader that
// validates every offset and size before using it (formats/wbin.md "What the
// reference readers check", D22).
//
//===----------------------------------------------------------------------===//
#include "wave/Object/Wbin.h"

#include "wave/ISA/ISA.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/ConvertUTF.h"
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
  return llvm::StringRef(reinterpret_cast<const char *>(Bytes.data()),
                         Bytes.size())
      .starts_with(WbinMagic);
}

static void appendLE16(std::vector<uint8_t> &Out, uint16_t V) {
  Out.push_back(V & 0xFF);
  Out.push_back(V >> 8);
}

static void writeExtensions(const WbinFile &F, std::vector<uint8_t> &Out);

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
  const bool Ext = F.hasExtensions();
  appendLE16(Out, WbinVersion);
  appendLE16(Out, (Ext ? WbinFlagExtensions : 0) |
                      (F.Relocatable ? WbinFlagRelocatable : 0));
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
  if (Ext)
    writeExtensions(F, Out);
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

//===----------------------------------------------------------------------===//
// Extension area (formats/wbin.md "Extension area")
//===----------------------------------------------------------------------===//

namespace {
constexpr uint32_t SymbolEntrySize = 24;
constexpr uint32_t RelocEntrySize = 16;
constexpr uint32_t ParamEntrySize = 8;
constexpr uint32_t LineEntrySize = 16;
constexpr uint32_t DirEntrySize = 12;

/// Interns strings into an extension string table whose offset 0 is "".
class StringTableBuilder {
public:
  StringTableBuilder() { Bytes.push_back(0); }
  uint32_t add(StringRef S) {
    if (S.empty())
      return 0;
    auto [It, New] = Offsets.try_emplace(S, Bytes.size());
    if (New) {
      Bytes.insert(Bytes.end(), S.begin(), S.end());
      Bytes.push_back(0);
    }
    return It->second;
  }
  std::vector<uint8_t> Bytes;

private:
  StringMap<uint32_t> Offsets;
};
} // namespace

static const char *const TypeNames[] = {"", "i32", "u32", "f32", "f16", "bf16",
                                        "f64"};

StringRef wbinTypeName(WbinType T) {
  unsigned I = static_cast<unsigned>(T);
  return I < std::size(TypeNames) ? TypeNames[I] : "";
}

std::optional<WbinType> parseWbinType(StringRef Name) {
  for (unsigned I = 1; I < std::size(TypeNames); ++I)
    if (Name == TypeNames[I])
      return static_cast<WbinType>(I);
  return std::nullopt;
}

unsigned wbinTypeSize(WbinType T) {
  switch (T) {
  case WbinType::F16:
  case WbinType::BF16:
    return 2;
  case WbinType::F64:
    return 8;
  default:
    return 4;
  }
}

StringRef wbinAccessName(uint8_t Access) {
  switch (Access) {
  case WbinAccessRead:
    return "read";
  case WbinAccessWrite:
    return "write";
  case WbinAccessReadWrite:
    return "readwrite";
  }
  return "";
}

uint8_t parseWbinAccess(StringRef Name) {
  return StringSwitch<uint8_t>(Name)
      .Case("read", WbinAccessRead)
      .Case("write", WbinAccessWrite)
      .Case("readwrite", WbinAccessReadWrite)
      .Default(0);
}

std::string wbinExtSectionName(uint32_t Type) {
  static const char *const Names[] = {"strtab", "symtab", "reloc", "params",
                                      "lines"};
  if (Type >= WbinExtStrtab && Type <= WbinExtLines)
    return Names[Type - WbinExtStrtab];
  return "ext." + std::to_string(Type);
}

bool WbinFile::hasExtensions() const {
  if (Relocatable || !Symbols.empty() || !Relocs.empty() || !Lines.empty())
    return true;
  for (const KernelInfo &K : Kernels)
    if (K.Params)
      return true;
  return false;
}

const WbinLine *WbinFile::lineFor(uint32_t Offset) const {
  auto It = std::upper_bound(
      Lines.begin(), Lines.end(), Offset,
      [](uint32_t O, const WbinLine &L) { return O < L.Offset; });
  if (It == Lines.begin())
    return nullptr;
  --It;
  return It->Line == 0 ? nullptr : &*It;
}

uint32_t WbinFile::addSourceFile(StringRef Name) {
  auto It = llvm::find(SourceFiles, Name);
  if (It != SourceFiles.end())
    return It - SourceFiles.begin();
  SourceFiles.push_back(Name.str());
  return SourceFiles.size() - 1;
}

void WbinFile::addLine(const WbinLine &Row) {
  if (Lines.empty()) {
    if (Row.Line != 0)
      Lines.push_back(Row);
    return;
  }
  WbinLine &Prev = Lines.back();
  if ((Prev.Line == 0 && Row.Line == 0) ||
      (Prev.File == Row.File && Prev.Line == Row.Line &&
       Prev.Column == Row.Column))
    return;
  if (Prev.Offset == Row.Offset)
    Prev = Row;
  else
    Lines.push_back(Row);
}

int WbinFile::findSymbol(StringRef Name) const {
  for (size_t I = 0; I != Symbols.size(); ++I)
    if (Symbols[I].Name == Name)
      return static_cast<int>(I);
  return -1;
}

/// Appends the extension area of \p F (directory, then sections in type
/// order) to \p Out, which ends with the metadata.
static void writeExtensions(const WbinFile &F, std::vector<uint8_t> &Out) {
  StringTableBuilder Strings;
  std::vector<std::pair<uint32_t, std::vector<uint8_t>>> Sections;

  if (!F.Symbols.empty()) {
    std::vector<uint8_t> S;
    for (const WbinSymbol &Sym : F.Symbols) {
      appendLE32(S, Strings.add(Sym.Name));
      S.push_back(static_cast<uint8_t>(Sym.Kind));
      S.push_back(static_cast<uint8_t>(Sym.Binding));
      S.push_back(Sym.Defined ? 0 : 1);
      S.push_back(0);
      appendLE32(S, Sym.Offset);
      appendLE32(S, Sym.Size);
      appendLE32(S, Sym.Registers);
      appendLE32(S, Sym.CallBase);
    }
    Sections.emplace_back(WbinExtSymtab, std::move(S));
  }
  if (!F.Relocs.empty()) {
    std::vector<uint8_t> S;
    for (const WbinReloc &R : F.Relocs) {
      appendLE32(S, R.Offset);
      appendLE32(S, R.Symbol);
      appendLE32(S, static_cast<uint32_t>(R.Type));
      appendLE32(S, static_cast<uint32_t>(R.Addend));
    }
    Sections.emplace_back(WbinExtReloc, std::move(S));
  }
  {
    std::vector<uint8_t> S;
    for (size_t I = 0; I != F.Kernels.size(); ++I) {
      const KernelInfo &K = F.Kernels[I];
      if (!K.Params)
        continue;
      appendLE32(S, I);
      appendLE32(S, K.Params->size());
      for (const WbinParam &P : *K.Params) {
        appendLE32(S, Strings.add(P.Name));
        S.push_back(static_cast<uint8_t>(P.Kind));
        S.push_back(static_cast<uint8_t>(P.Type));
        S.push_back(P.Access);
        S.push_back(0);
      }
    }
    if (!S.empty())
      Sections.emplace_back(WbinExtParams, std::move(S));
  }
  if (!F.Lines.empty()) {
    std::vector<uint8_t> S;
    appendLE32(S, F.SourceFiles.size());
    for (const std::string &Name : F.SourceFiles)
      appendLE32(S, Strings.add(Name));
    appendLE32(S, F.Lines.size());
    for (const WbinLine &L : F.Lines) {
      appendLE32(S, L.Offset);
      appendLE32(S, L.File);
      appendLE32(S, L.Line);
      appendLE32(S, L.Column);
    }
    Sections.emplace_back(WbinExtLines, std::move(S));
  }
  Sections.emplace(Sections.begin(), WbinExtStrtab, std::move(Strings.Bytes));

  const uint32_t Start = Out.size();
  Out.insert(Out.end(), {'W', 'E', 'X', 'T'});
  appendLE32(Out, Sections.size());
  uint32_t Pos = Start + 8 + DirEntrySize * Sections.size();
  for (const auto &[Type, Bytes] : Sections) {
    appendLE32(Out, Type);
    appendLE32(Out, Pos);
    appendLE32(Out, Bytes.size());
    Pos += Bytes.size();
  }
  for (const auto &[Type, Bytes] : Sections)
    Out.insert(Out.end(), Bytes.begin(), Bytes.end());
}

namespace {
/// Reads and validates the extension area of one file.
class ExtensionReader {
public:
  ExtensionReader(ArrayRef<uint8_t> Bytes, WbinFile &F) : Bytes(Bytes), F(F) {}
  Error read(uint64_t Start);

private:
  uint32_t u32(uint64_t Off) const { return readLE32(Bytes.data() + Off); }
  /// The string at \p StrOff of the string table; \p FieldOff is the file
  /// offset of the field that holds StrOff (for diagnostics).
  Expected<std::string> string(uint32_t StrOff, uint64_t FieldOff,
                               const Twine &What);
  Error readSymbols(uint64_t Off, uint64_t Size);
  Error readRelocs(uint64_t Off, uint64_t Size);
  Error readParams(uint64_t Off, uint64_t Size);
  Error readLines(uint64_t Off, uint64_t Size);

  ArrayRef<uint8_t> Bytes;
  WbinFile &F;
  uint64_t StrOff = 0, StrSize = 0;
};
} // namespace

Expected<std::string> ExtensionReader::string(uint32_t Off, uint64_t FieldOff,
                                              const Twine &What) {
  if (Off >= StrSize)
    return fail(FieldOff, What + " name offset " + Twine(Off) +
                              " lies outside the string table (" +
                              Twine(StrSize) + " bytes)");
  const uint8_t *Begin = Bytes.data() + StrOff + Off;
  const uint8_t *End = Bytes.data() + StrOff + StrSize;
  const uint8_t *Nul = std::find(Begin, End, 0);
  if (Nul == End)
    return fail(FieldOff, What + " name is not NUL-terminated inside the "
                                 "string table");
  const UTF8 *P = Begin;
  if (!isLegalUTF8String(&P, Nul))
    return fail(StrOff + Off + (P - Begin),
                What + " name is not valid UTF-8");
  return std::string(Begin, Nul);
}

Error ExtensionReader::read(uint64_t Start) {
  const uint64_t Len = Bytes.size();
  if (!rangeFits(Start, 8, Len))
    return fail(6, "extension flag set but the file ends at " + Twine(Len) +
                       ", before the extension directory at " + Twine(Start));
  if (!(Bytes[Start] == 'W' && Bytes[Start + 1] == 'E' &&
        Bytes[Start + 2] == 'X' && Bytes[Start + 3] == 'T'))
    return fail(Start, "bad extension directory magic (expected \"WEXT\")");
  F.ExtensionOffset = Start;
  const uint64_t Count = u32(Start + 4);
  if (Count > (Len - Start - 8) / DirEntrySize)
    return fail(Start + 4, "extension section count " + Twine(Count) +
                               " does not fit the file");
  const uint64_t DataStart = Start + 8 + DirEntrySize * Count;
  struct Entry {
    uint32_t Type;
    uint64_t Off, Size, At;
  };
  std::vector<Entry> Dir;
  uint32_t Seen = 0;
  for (uint64_t I = 0; I != Count; ++I) {
    const uint64_t At = Start + 8 + DirEntrySize * I;
    Entry E{u32(At), u32(At + 4), u32(At + 8), At};
    if (E.Off < DataStart || !rangeFits(E.Off, E.Size, Len))
      return fail(At + 4, "extension section " + Twine(I) + " [" +
                              Twine(E.Off) + ", +" + Twine(E.Size) +
                              ") lies outside the extension area");
    if (E.Type >= WbinExtStrtab && E.Type <= WbinExtLines) {
      if (Seen & (1u << E.Type))
        return fail(At, "extension section type " + Twine(E.Type) +
                            " appears twice");
      Seen |= 1u << E.Type;
    }
    F.ExtensionSections.push_back({E.Type, uint32_t(E.Off), uint32_t(E.Size)});
    Dir.push_back(E);
  }
  // The string table first: every other section refers to it.
  for (const Entry &E : Dir)
    if (E.Type == WbinExtStrtab) {
      StrOff = E.Off;
      StrSize = E.Size;
    }
  for (const Entry &E : Dir) {
    Error Err = Error::success();
    switch (E.Type) {
    case WbinExtSymtab:
      Err = readSymbols(E.Off, E.Size);
      break;
    case WbinExtParams:
      Err = readParams(E.Off, E.Size);
      break;
    case WbinExtLines:
      Err = readLines(E.Off, E.Size);
      break;
    default:
      break;
    }
    if (Err)
      return Err;
  }
  // Relocations refer to symbols, so they come last.
  for (const Entry &E : Dir)
    if (E.Type == WbinExtReloc)
      if (Error Err = readRelocs(E.Off, E.Size))
        return Err;
  if (!F.Relocs.empty() && !F.Relocatable)
    return fail(6, "relocations in a file that is not relocatable");
  return Error::success();
}

Error ExtensionReader::readSymbols(uint64_t Off, uint64_t Size) {
  if (Size % SymbolEntrySize != 0)
    return fail(Off, "symbol section size " + Twine(Size) +
                         " is not a multiple of " + Twine(SymbolEntrySize));
  StringMap<unsigned> Units;
  const uint32_t CodeSize = F.Code.size();
  for (uint64_t I = 0; I != Size / SymbolEntrySize; ++I) {
    const uint64_t E = Off + SymbolEntrySize * I;
    WbinSymbol S;
    Expected<std::string> Name = string(u32(E), E, "symbol " + Twine(I));
    if (!Name)
      return Name.takeError();
    S.Name = std::move(*Name);
    if (S.Name.empty())
      return fail(E, "symbol " + Twine(I) + " has an empty name");
    uint8_t Kind = Bytes[E + 4], Binding = Bytes[E + 5], Flags = Bytes[E + 6];
    if (Kind > 2)
      return fail(E + 4, "symbol '" + S.Name + "' has unknown kind " +
                             Twine(Kind));
    if (Binding > 1)
      return fail(E + 5, "symbol '" + S.Name + "' has unknown binding " +
                             Twine(Binding));
    if (Flags > 1 || Bytes[E + 7] != 0)
      return fail(E + 6, "symbol '" + S.Name + "' has unknown flags");
    S.Kind = WbinSymbolKind(Kind);
    S.Binding = WbinBinding(Binding);
    S.Defined = Flags == 0;
    S.Offset = u32(E + 8);
    S.Size = u32(E + 12);
    S.Registers = u32(E + 16);
    S.CallBase = u32(E + 20);
    if (!S.Defined) {
      if (S.Kind != WbinSymbolKind::Function ||
          S.Binding != WbinBinding::Global || S.Offset || S.Size ||
          S.Registers || S.CallBase)
        return fail(E, "undefined symbol '" + S.Name +
                           "' must be a global function with no value");
    } else {
      if (!rangeFits(S.Offset, S.Size, CodeSize) || S.Offset % 4 ||
          S.Size % 4)
        return fail(E + 8, "symbol '" + S.Name + "' [" + Twine(S.Offset) +
                               ", +" + Twine(S.Size) +
                               ") is not a 4-byte aligned range of the code "
                               "section (" + Twine(CodeSize) + " bytes)");
      if (S.Kind != WbinSymbolKind::Label && S.Size == 0)
        return fail(E + 12, "symbol '" + S.Name + "' has no code");
      if (S.Kind == WbinSymbolKind::Label &&
          (S.Size || S.Registers || S.CallBase ||
           S.Binding != WbinBinding::Local))
        return fail(E + 12, "label '" + S.Name +
                                "' must be local with no size or frame");
      if (S.Registers > 255 || S.CallBase > 255)
        return fail(E + 16, "symbol '" + S.Name +
                                "' has a register frame beyond r254");
    }
    if (S.Kind == WbinSymbolKind::Kernel) {
      int K = F.findKernel(S.Name);
      if (K < 0 || F.Kernels[K].CodeOffset != S.Offset ||
          F.Kernels[K].CodeSize != S.Size)
        return fail(E, "kernel symbol '" + S.Name +
                           "' does not match an entry of the kernel table");
    }
    // Global and undefined names are unique; local names may repeat (a
    // relocatable link merges the locals of several objects).
    if ((S.Binding == WbinBinding::Global) &&
        !Units.try_emplace(S.Name, I).second)
      return fail(E, "duplicate global symbol '" + S.Name + "'");
    F.Symbols.push_back(std::move(S));
  }
  return Error::success();
}

Error ExtensionReader::readRelocs(uint64_t Off, uint64_t Size) {
  if (Size % RelocEntrySize != 0)
    return fail(Off, "relocation section size " + Twine(Size) +
                         " is not a multiple of " + Twine(RelocEntrySize));
  for (uint64_t I = 0; I != Size / RelocEntrySize; ++I) {
    const uint64_t E = Off + RelocEntrySize * I;
    WbinReloc R;
    R.Offset = u32(E);
    R.Symbol = u32(E + 4);
    uint32_t Type = u32(E + 8);
    R.Addend = static_cast<int32_t>(u32(E + 12));
    if (R.Offset % 4 || !rangeFits(R.Offset, 8, F.Code.size()))
      return fail(E, "relocation " + Twine(I) + " at code offset " +
                         Twine(R.Offset) + " lies outside the code section");
    if (!F.Relocs.empty() && R.Offset <= F.Relocs.back().Offset)
      return fail(E, "relocation " + Twine(I) +
                         " is out of order or repeats an offset");
    Expected<Inst> In = decodeInst(F.Code, R.Offset);
    if (!In || In->Op != Opcode::Call) {
      if (!In)
        consumeError(In.takeError());
      return fail(E, "relocation " + Twine(I) + " at code offset " +
                         Twine(R.Offset) + " does not point at a 'call'");
    }
    if (Type != static_cast<uint32_t>(WbinRelocType::Call))
      return fail(E + 8, "relocation " + Twine(I) + " has unknown type " +
                             Twine(Type));
    if (R.Symbol >= F.Symbols.size())
      return fail(E + 4, "relocation " + Twine(I) + " names symbol " +
                             Twine(R.Symbol) + " of " +
                             Twine(F.Symbols.size()));
    const WbinSymbol &S = F.Symbols[R.Symbol];
    if (S.Kind != WbinSymbolKind::Function)
      return fail(E + 4, "relocation " + Twine(I) + " targets '" + S.Name +
                             "', which is not a function");
    if (R.Addend < 0 || R.Addend % 4 ||
        (S.Defined ? uint32_t(R.Addend) >= S.Size : R.Addend != 0))
      return fail(E + 12, "relocation " + Twine(I) + " addend " +
                              Twine(R.Addend) + " lies outside '" + S.Name +
                              "'");
    R.Type = WbinRelocType::Call;
    F.Relocs.push_back(R);
  }
  return Error::success();
}

Error ExtensionReader::readParams(uint64_t Off, uint64_t Size) {
  const uint64_t End = Off + Size;
  uint64_t P = Off;
  while (P != End) {
    if (End - P < 8)
      return fail(P, "truncated parameter group");
    const uint32_t K = u32(P), N = u32(P + 4);
    if (K >= F.Kernels.size())
      return fail(P, "parameter group for kernel " + Twine(K) + " of " +
                         Twine(F.Kernels.size()));
    if (F.Kernels[K].Params)
      return fail(P, "second parameter group for kernel " + Twine(K));
    if (N > 255 || N > (End - P - 8) / ParamEntrySize)
      return fail(P + 4, "parameter count " + Twine(N) +
                             " does not fit the section");
    std::vector<WbinParam> Params;
    for (uint32_t I = 0; I != N; ++I) {
      const uint64_t E = P + 8 + ParamEntrySize * I;
      WbinParam W;
      Expected<std::string> Name =
          string(u32(E), E, "parameter " + Twine(I) + " of kernel " + Twine(K));
      if (!Name)
        return Name.takeError();
      W.Name = std::move(*Name);
      uint8_t Kind = Bytes[E + 4], Type = Bytes[E + 5], Access = Bytes[E + 6];
      if (W.Name.empty() || Kind > 1 || Type < 1 || Type > 6 || Access < 1 ||
          Access > 3 || Bytes[E + 7] != 0)
        return fail(E, "malformed descriptor of parameter " + Twine(I) +
                           " of kernel " + Twine(K));
      W.Kind = WbinParamKind(Kind);
      W.Type = WbinType(Type);
      W.Access = Access;
      if (W.Kind == WbinParamKind::Scalar &&
          (W.Access != WbinAccessRead || wbinTypeSize(W.Type) != 4 ||
           W.Type == WbinType::F16))
        return fail(E + 5, "scalar parameter '" + W.Name +
                               "' must be i32, u32 or f32 and read-only");
      Params.push_back(std::move(W));
    }
    F.Kernels[K].Params = std::move(Params);
    P += 8 + ParamEntrySize * uint64_t(N);
  }
  return Error::success();
}

Error ExtensionReader::readLines(uint64_t Off, uint64_t Size) {
  if (Size < 8)
    return fail(Off, "truncated line table");
  const uint64_t NFiles = u32(Off);
  if (NFiles > (Size - 8) / 4)
    return fail(Off, "line table file count " + Twine(NFiles) +
                         " does not fit the section");
  for (uint64_t I = 0; I != NFiles; ++I) {
    Expected<std::string> Name =
        string(u32(Off + 4 + 4 * I), Off + 4 + 4 * I, "source file " + Twine(I));
    if (!Name)
      return Name.takeError();
    F.SourceFiles.push_back(std::move(*Name));
  }
  const uint64_t RowsAt = Off + 4 + 4 * NFiles;
  const uint64_t NRows = u32(RowsAt);
  if (NRows * LineEntrySize != Size - (RowsAt + 4 - Off))
    return fail(RowsAt, "line table row count " + Twine(NRows) +
                            " does not match the section size");
  for (uint64_t I = 0; I != NRows; ++I) {
    const uint64_t E = RowsAt + 4 + LineEntrySize * I;
    WbinLine L{u32(E), u32(E + 4), u32(E + 8), u32(E + 12)};
    if (L.Offset % 4 || L.Offset >= F.Code.size())
      return fail(E, "line row " + Twine(I) + " offset " + Twine(L.Offset) +
                         " lies outside the code section");
    if (!F.Lines.empty() && L.Offset <= F.Lines.back().Offset)
      return fail(E, "line row " + Twine(I) + " is out of order");
    if (L.File >= NFiles)
      return fail(E + 4, "line row " + Twine(I) + " names file " +
                             Twine(L.File) + " of " + Twine(NFiles));
    F.Lines.push_back(L);
  }
  return Error::success();
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
  // formats/wbin.md "What the reference readers check": metadata_size < 4 means
  // no kernels.
  const uint64_t Count =
      H.MetadataSize < 4 ? 0 : U32(H.MetadataOffset);
  if (H.MetadataSize >= 4 && H.MetadataOffset < WbinHeaderSize)
    return fail(0x18, "metadata offset " + Twine(H.MetadataOffset) +
                          " overlaps the header");
  if (Count && Count > (uint64_t(H.MetadataSize) - 4) / WbinKernelEntrySize)
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
      // Names are printed by every tool: valid UTF-8 without control
      // characters (no terminal escapes, no line breaks).
      const UTF8 *P = Begin;
      if (!isLegalUTF8String(&P, Nul))
        return fail(uint64_t(P - Bytes.data()),
                    "kernel " + Twine(I) + " name is not valid UTF-8");
      const uint8_t *Ctl =
          std::find_if(Begin, Nul, [](uint8_t C) { return C < 0x20 || C == 0x7F; });
      if (Ctl != Nul)
        return fail(uint64_t(Ctl - Bytes.data()),
                    "kernel " + Twine(I) + " name contains control character 0x" +
                        Twine::utohexstr(*Ctl));
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
  F.Relocatable = H.Flags & WbinFlagRelocatable;
  if (H.Flags & WbinFlagExtensions) {
    ExtensionReader R(Bytes, F);
    if (Error E = R.read(uint64_t(H.MetadataOffset) + H.MetadataSize))
      return std::move(E);
  }
  return F;
}

std::array<uint32_t, 3>
effectiveWorkgroupSize(const KernelInfo &K,
                       const std::array<uint32_t, 3> &Launch) {
  return K.WorkgroupSize[0] > 0 ? K.WorkgroupSize : Launch;
}

uint32_t effectiveLocalMemory(const KernelInfo &K, uint32_t Launch) {
  return K.LocalMemorySize ? K.LocalMemorySize : Launch;
}

} // namespace wave
