//===- Linker.cpp - Links .wbin objects into executables ------------------===//
//
// Units (kernels and device functions) are cut out of the input objects
// along their symbols; `call` relocations name the units they enter. An
// executable places, after each entry kernel, one copy of every function
// the kernel reaches per register window, in depth-first first-call order
// (formats/wbin.md "Linking").
//
//===----------------------------------------------------------------------===//
#include "wave/Link/Linker.h"

#include "wave/ISA/ISA.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

using namespace llvm;

namespace wave {

/// Highest register index an instruction may name (formats/wave-asm.md §5).
static constexpr unsigned MaxRegister = 254;
/// WAVE's call stack holds 8 return addresses (formats/isa.md §4.16).
static constexpr unsigned MaxCallDepth = 8;

static Error linkError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

Error shiftRegisters(std::vector<uint8_t> &Code, unsigned Delta) {
  if (Delta == 0)
    return Error::success();
  for (uint64_t Off = 0; Off < Code.size();) {
    Expected<Inst> I = decodeInst(Code, Off);
    if (!I)
      return I.takeError();
    const FormDesc &F = I->form();
    for (unsigned K = 0; K != F.NumOperands; ++K) {
      const OperandDesc &OD = F.Operands[K];
      if (OD.Kind != OperandKind::Reg)
        continue;
      uint32_t R = I->getField(OD.Fld);
      // An omitted destination is field value 0 (the non-returning form).
      if (K == 0 && F.OptionalDest && R == 0)
        continue;
      if (R + Delta > MaxRegister)
        return linkError("instruction at offset " +
                         Twine(utohexstr(Off, /*LowerCase=*/true)) +
                         ": register r" + Twine(R) + " moved by " +
                         Twine(Delta) + " would exceed r254");
      I->setField(OD.Fld, R + Delta);
    }
    std::vector<uint8_t> Bytes;
    encodeInst(*I, Bytes);
    // Re-encoding keeps every field; only reserved bit 3 of W0, which the
    // assembler never sets, would be dropped.
    std::copy(Bytes.begin(), Bytes.end(), Code.begin() + Off);
    Off += Bytes.size();
  }
  return Error::success();
}

namespace {

/// A kernel or device function cut out of an input.
struct Unit {
  unsigned Input;
  unsigned Symbol; ///< index into the input's symbols.
  const WbinSymbol *Sym;
  int Kernel = -1; ///< index into the input's kernel table (kernels).
  /// Relocations inside the unit, offsets relative to its first byte;
  /// Target is a unit index or, before resolution, -1 - symbol index.
  struct Call {
    uint32_t Offset;
    int64_t Target;
    int32_t Addend;
  };
  std::vector<Call> Calls;
};

/// One placed copy of a unit in an executable kernel.
struct Copy {
  unsigned Unit;
  uint32_t Base;   ///< register window base.
  uint32_t Start;  ///< kernel-relative offset of its first byte.
  unsigned Height; ///< deepest call chain below it (in frames).
};

class Linker {
public:
  Linker(ArrayRef<LinkInput> Inputs, const LinkOptions &Opts)
      : Inputs(Inputs), Opts(Opts) {}
  Expected<WbinFile> run();

private:
  Error collectUnits();
  Error resolve(unsigned U);
  Error markLive();
  Expected<WbinFile> linkExecutable();
  Expected<WbinFile> linkRelocatable();
  /// "kernel 'k' (a.wbin)" or "function 'f' (b.wbin)".
  std::string describe(unsigned U) const;
  const std::string &inputName(unsigned U) const {
    return Inputs[Units[U].Input].Name;
  }
  ArrayRef<uint8_t> code(unsigned U) const {
    const WbinSymbol &S = *Units[U].Sym;
    return ArrayRef<uint8_t>(Inputs[Units[U].Input].File.Code)
        .slice(S.Offset, S.Size);
  }
  /// Places the copy of unit \p U at window \p Base for the kernel being
  /// built, and everything it calls; returns the copy's index.
  Expected<unsigned> place(unsigned U, uint32_t Base,
                           SmallVectorImpl<unsigned> &Path);
  /// Appends the line rows of input unit \p U placed at code-section
  /// offset \p At.
  void addLines(unsigned U, uint32_t At, WbinFile &Out);
  /// The unit of input \p In whose code contains code-section offset
  /// \p Offset, or -1.
  int ownerOf(unsigned In, uint32_t Offset) const;

  ArrayRef<LinkInput> Inputs;
  const LinkOptions &Opts;
  std::vector<Unit> Units;
  std::vector<DenseMap<unsigned, unsigned>> UnitOfSymbol; ///< per input.
  /// Per input, its units sorted by offset (they do not overlap).
  std::vector<std::vector<unsigned>> UnitsByOffset;
  StringMap<unsigned> Globals;
  std::vector<unsigned> Roots;
  std::vector<bool> Live;

  // State of the executable kernel being built.
  std::vector<Copy> Copies;
  std::map<std::pair<unsigned, uint32_t>, unsigned> CopyOf;
  std::vector<uint8_t> KernelCode;
};

} // namespace

std::string Linker::describe(unsigned U) const {
  const WbinSymbol &S = *Units[U].Sym;
  return (S.Kind == WbinSymbolKind::Kernel ? "kernel '" : "function '") +
         S.Name + "' (" + inputName(U) + ")";
}

Error Linker::collectUnits() {
  UnitOfSymbol.resize(Inputs.size());
  UnitsByOffset.resize(Inputs.size());
  for (unsigned In = 0; In != Inputs.size(); ++In) {
    const WbinFile &F = Inputs[In].File;
    if (!F.Relocatable)
      return linkError(Inputs[In].Name +
                       ": not a relocatable object (an executable or a "
                       "reference-format file); make objects with "
                       "'wave-as -c'");
    std::vector<unsigned> &Mine = UnitsByOffset[In];
    for (unsigned S = 0; S != F.Symbols.size(); ++S) {
      const WbinSymbol &Sym = F.Symbols[S];
      if (!Sym.Defined || Sym.Kind == WbinSymbolKind::Label)
        continue;
      Unit U{In, S, &Sym, -1, {}};
      if (Sym.Kind == WbinSymbolKind::Kernel)
        U.Kernel = F.findKernel(Sym.Name);
      UnitOfSymbol[In][S] = Units.size();
      Mine.push_back(Units.size());
      if (Sym.Binding == WbinBinding::Global) {
        auto [It, New] = Globals.try_emplace(Sym.Name, Units.size());
        if (!New)
          return linkError(
              "duplicate symbol '" + Sym.Name + "': defined in " +
              inputName(It->second) + " and " + Inputs[In].Name);
      }
      Units.push_back(std::move(U));
    }
    // Units must not overlap, and every relocation must lie in one.
    llvm::sort(Mine, [&](unsigned A, unsigned B) {
      return Units[A].Sym->Offset < Units[B].Sym->Offset;
    });
    for (size_t I = 1; I < Mine.size(); ++I) {
      const WbinSymbol &P = *Units[Mine[I - 1]].Sym, &Q = *Units[Mine[I]].Sym;
      if (P.Offset + P.Size > Q.Offset)
        return linkError(Inputs[In].Name + ": '" + P.Name + "' and '" +
                         Q.Name + "' overlap");
    }
    for (const WbinReloc &R : F.Relocs) {
      int U = ownerOf(In, R.Offset);
      const WbinSymbol *S = U < 0 ? nullptr : Units[U].Sym;
      if (!S || R.Offset + 8 > S->Offset + S->Size)
        return linkError(Inputs[In].Name + ": relocation at code offset " +
                         Twine(R.Offset) +
                         " lies outside every kernel and function");
      Units[U].Calls.push_back(
          {R.Offset - S->Offset, -1 - int64_t(R.Symbol), R.Addend});
    }
  }
  return Error::success();
}

int Linker::ownerOf(unsigned In, uint32_t Offset) const {
  const std::vector<unsigned> &Sorted = UnitsByOffset[In];
  auto It = llvm::upper_bound(Sorted, Offset, [&](uint32_t O, unsigned U) {
    return O < Units[U].Sym->Offset;
  });
  if (It == Sorted.begin())
    return -1;
  const WbinSymbol &S = *Units[*std::prev(It)].Sym;
  return Offset < S.Offset + S.Size ? int(*std::prev(It)) : -1;
}

Error Linker::resolve(unsigned U) {
  Unit &Un = Units[U];
  const WbinFile &F = Inputs[Un.Input].File;
  for (Unit::Call &C : Un.Calls) {
    if (C.Target >= 0)
      continue;
    unsigned SymIdx = unsigned(-1 - C.Target);
    const WbinSymbol &S = F.Symbols[SymIdx];
    int64_t T = -1;
    if (S.Defined) {
      auto It = UnitOfSymbol[Un.Input].find(SymIdx);
      if (It != UnitOfSymbol[Un.Input].end())
        T = It->second;
    } else {
      auto It = Globals.find(S.Name);
      if (It != Globals.end())
        T = It->second;
      else if (Opts.Relocatable)
        continue; // stays undefined in the output
    }
    if (T < 0)
      return linkError("undefined symbol '" + S.Name + "', called from " +
                       describe(U));
    if (Units[T].Sym->Kind != WbinSymbolKind::Function)
      return linkError(describe(U) + " calls " + describe(T) +
                       ", which is not a device function");
    C.Target = T;
  }
  return Error::success();
}

Error Linker::markLive() {
  // Roots: the entry kernels (and, in a relocatable link, global functions).
  StringMap<bool> Wanted;
  for (const std::string &E : Opts.Entries)
    Wanted[E] = false;
  for (unsigned U = 0; U != Units.size(); ++U) {
    const WbinSymbol &S = *Units[U].Sym;
    bool IsKernel = S.Kind == WbinSymbolKind::Kernel;
    if (IsKernel && !Opts.Entries.empty()) {
      auto It = Wanted.find(S.Name);
      if (It == Wanted.end())
        continue;
      It->second = true;
    }
    if (IsKernel || (Opts.Relocatable && S.Binding == WbinBinding::Global))
      Roots.push_back(U);
  }
  for (const std::string &E : Opts.Entries)
    if (!Wanted[E])
      return linkError("--entry '" + E + "' names no kernel of the inputs");
  Live.assign(Units.size(), !Opts.GCSections);
  if (!Opts.GCSections) {
    for (unsigned U = 0; U != Units.size(); ++U)
      if (Error E = resolve(U))
        return E;
    return Error::success();
  }
  std::vector<unsigned> Work(Roots.begin(), Roots.end());
  for (unsigned U : Roots)
    Live[U] = true;
  while (!Work.empty()) {
    unsigned U = Work.back();
    Work.pop_back();
    if (Error E = resolve(U))
      return E;
    for (const Unit::Call &C : Units[U].Calls)
      if (C.Target >= 0 && !Live[C.Target]) {
        Live[C.Target] = true;
        Work.push_back(C.Target);
      }
  }
  for (unsigned U = 0; U != Units.size(); ++U)
    if (!Live[U] && Opts.OnDiscard &&
        Units[U].Sym->Kind == WbinSymbolKind::Function)
      Opts.OnDiscard(inputName(U) + ": " + Units[U].Sym->Name);
  return Error::success();
}

Expected<unsigned> Linker::place(unsigned U, uint32_t Base,
                                 SmallVectorImpl<unsigned> &Path) {
  // Path holds the units of the call chain from the kernel down to U.
  auto Chain = [&] {
    std::string S;
    for (unsigned P : Path)
      S += Units[P].Sym->Name + " -> ";
    return S + Units[U].Sym->Name;
  };
  if (llvm::is_contained(Path, U))
    return linkError("recursive call chain " + Chain() + " (" + inputName(U) +
                     "): WAVE has no stack for recursion");
  const unsigned Depth = Path.size(); // frames pushed to reach U
  // A copy placed before brings the calls below it (its height); a new one
  // is checked as its callees are placed.
  auto Found = CopyOf.find({U, Base});
  const unsigned Below =
      Found == CopyOf.end() ? 0 : Copies[Found->second].Height;
  if (Depth + Below > MaxCallDepth)
    return linkError(
        "call chain " + Chain() + " nests more than " + Twine(MaxCallDepth) +
        " calls, the depth of WAVE's call stack (formats/isa.md §4.16)");
  if (Found != CopyOf.end())
    return Found->second;
  const WbinSymbol &S = *Units[U].Sym;
  if (Base + S.Registers > MaxRegister + 1)
    return linkError("call chain " + Chain() + " needs registers up to r" +
                     Twine(Base + S.Registers - 1) +
                     ": function '" + S.Name + "' uses " +
                     Twine(S.Registers) + " registers above window base r" +
                     Twine(Base) + ", and WAVE has r0..r254");
  unsigned Idx = Copies.size();
  uint32_t Start = Idx == 0 ? 0 : KernelCode.size();
  Copies.push_back({U, Base, Start, 0});
  CopyOf[{U, Base}] = Idx;
  std::vector<uint8_t> Code(code(U).begin(), code(U).end());
  if (Error E = shiftRegisters(Code, Base))
    return linkError(describe(U) + ": " + toString(std::move(E)));
  KernelCode.insert(KernelCode.end(), Code.begin(), Code.end());
  Path.push_back(U);
  unsigned Height = 0;
  for (const Unit::Call &C : Units[U].Calls) {
    uint32_t Target;
    if (unsigned(C.Target) == U && C.Addend != 0) {
      // A label inside this unit. (A call of its own first byte re-enters
      // it: recursion, reported below.)
      Target = Start + C.Addend;
    } else {
      Expected<unsigned> Callee =
          place(C.Target, Base + S.CallBase, Path);
      if (!Callee)
        return Callee.takeError();
      Target = Copies[*Callee].Start + C.Addend;
      Height = std::max(Height, Copies[*Callee].Height + 1);
    }
    uint32_t At = Start + C.Offset + 4;
    for (unsigned B = 0; B != 4; ++B)
      KernelCode[At + B] = (Target >> (8 * B)) & 0xFF;
  }
  Path.pop_back();
  Copies[Idx].Height = Height;
  return Idx;
}

void Linker::addLines(unsigned U, uint32_t At, WbinFile &Out) {
  const WbinFile &F = Inputs[Units[U].Input].File;
  const WbinSymbol &S = *Units[U].Sym;
  if (Opts.StripDebug || Opts.Strip)
    return;
  auto Emit = [&](const WbinLine *L, uint32_t Offset) {
    WbinLine Row;
    Row.Offset = Offset;
    if (L) {
      Row.File = Out.addSourceFile(F.SourceFiles[L->File]);
      Row.Line = L->Line;
      Row.Column = L->Column;
    }
    Out.addLine(Row);
  };
  Emit(F.lineFor(S.Offset), At);
  auto It = llvm::upper_bound(F.Lines, S.Offset,
                              [](uint32_t O, const WbinLine &L) {
                                return O < L.Offset;
                              });
  for (; It != F.Lines.end() && It->Offset < S.Offset + S.Size; ++It)
    Emit(It->Line ? &*It : nullptr, At + (It->Offset - S.Offset));
}

Expected<WbinFile> Linker::linkExecutable() {
  WbinFile Out;
  StringMap<unsigned> KernelNames;
  for (unsigned R : Roots) {
    const Unit &K = Units[R];
    const KernelInfo &Info = Inputs[K.Input].File.Kernels[K.Kernel];
    Copies.clear();
    CopyOf.clear();
    KernelCode.clear();
    SmallVector<unsigned, 8> Path;
    if (Expected<unsigned> E = place(R, 0, Path); !E)
      return E.takeError();
    KernelInfo Placed = Info;
    Placed.NameOffset = 0;
    Placed.CodeOffset = Out.Code.size();
    Placed.CodeSize = KernelCode.size();
    uint32_t Regs = Info.RegisterCount;
    for (const Copy &C : Copies)
      Regs = std::max(Regs, C.Base + Units[C.Unit].Sym->Registers);
    Placed.RegisterCount = Regs;
    if (Opts.Strip)
      Placed.Params.reset();
    for (const Copy &C : Copies)
      addLines(C.Unit, Placed.CodeOffset + C.Start, Out);
    Out.Code.insert(Out.Code.end(), KernelCode.begin(), KernelCode.end());
    Out.Kernels.push_back(std::move(Placed));
  }
  // A row at the end of the code would lie outside it; rows that continue
  // past a kernel's end are closed by the next kernel's first row.
  while (!Out.Lines.empty() && Out.Lines.back().Offset >= Out.Code.size())
    Out.Lines.pop_back();
  return Out;
}

Expected<WbinFile> Linker::linkRelocatable() {
  WbinFile Out;
  Out.Relocatable = true;
  std::vector<int64_t> NewSym(Units.size(), -1);
  std::vector<uint32_t> NewStart(Units.size());
  // Kernels and functions, in input order, each unit's code as is.
  for (unsigned U = 0; U != Units.size(); ++U) {
    if (!Live[U])
      continue;
    const Unit &Un = Units[U];
    const WbinSymbol &S = *Un.Sym;
    NewStart[U] = Out.Code.size();
    WbinSymbol Sym = S;
    Sym.Offset = NewStart[U];
    NewSym[U] = Out.Symbols.size();
    Out.Symbols.push_back(Sym);
    if (Un.Kernel >= 0) {
      KernelInfo K = Inputs[Un.Input].File.Kernels[Un.Kernel];
      K.NameOffset = 0;
      K.CodeOffset = NewStart[U];
      if (Opts.Strip)
        K.Params.reset();
      Out.Kernels.push_back(std::move(K));
    }
    addLines(U, NewStart[U], Out);
    ArrayRef<uint8_t> C = code(U);
    Out.Code.insert(Out.Code.end(), C.begin(), C.end());
  }
  // Labels of kept units.
  for (unsigned In = 0; In != Inputs.size(); ++In)
    for (const WbinSymbol &S : Inputs[In].File.Symbols) {
      if (S.Kind != WbinSymbolKind::Label)
        continue;
      int U = ownerOf(In, S.Offset);
      if (U < 0 || !Live[U])
        continue;
      WbinSymbol L = S;
      L.Offset = NewStart[U] + (S.Offset - Units[U].Sym->Offset);
      Out.Symbols.push_back(L);
    }
  // Relocations; references nobody defines stay undefined symbols.
  StringMap<uint32_t> Undefined;
  std::vector<std::pair<std::string, std::vector<WbinReloc *>>> Pending;
  for (unsigned U = 0; U != Units.size(); ++U) {
    if (!Live[U])
      continue;
    for (const Unit::Call &C : Units[U].Calls) {
      WbinReloc R;
      R.Offset = NewStart[U] + C.Offset;
      R.Addend = C.Addend;
      if (C.Target >= 0) {
        R.Symbol = NewSym[C.Target];
      } else {
        const WbinSymbol &S =
            Inputs[Units[U].Input].File.Symbols[unsigned(-1 - C.Target)];
        auto [It, New] = Undefined.try_emplace(S.Name, 0);
        if (New) {
          WbinSymbol Und;
          Und.Name = S.Name;
          Und.Binding = WbinBinding::Global;
          Und.Defined = false;
          It->second = Out.Symbols.size();
          Out.Symbols.push_back(Und);
        }
        R.Symbol = It->second;
      }
      Out.Relocs.push_back(R);
    }
  }
  while (!Out.Lines.empty() && Out.Lines.back().Offset >= Out.Code.size())
    Out.Lines.pop_back();
  return Out;
}

Expected<WbinFile> Linker::run() {
  if (Error E = collectUnits())
    return std::move(E);
  for (unsigned U = 0; U != Units.size(); ++U)
    if (Units[U].Sym->Kind == WbinSymbolKind::Kernel && Units[U].Kernel < 0)
      return linkError(inputName(U) + ": kernel symbol '" +
                       Units[U].Sym->Name + "' has no kernel table entry");
  if (Error E = markLive())
    return std::move(E);
  Expected<WbinFile> Out =
      Opts.Relocatable ? linkRelocatable() : linkExecutable();
  if (Out && Opts.Strip) {
    Out->Lines.clear();
    Out->SourceFiles.clear();
  }
  return Out;
}

Expected<WbinFile> link(ArrayRef<LinkInput> Inputs, const LinkOptions &Opts) {
  Linker L(Inputs, Opts);
  return L.run();
}

Expected<WbinFile> linkExecutable(WbinFile Object, StringRef Name) {
  std::vector<LinkInput> In(1);
  In[0].Name = Name.str();
  In[0].File = std::move(Object);
  return link(In);
}

} // namespace wave
