//===- CodeGen.cpp - MIR to WAVE assembly ---------------------------------===//
//
// Drives selection, structurization, allocation and emission for each
// kernel (CodeGen.h), and lays the structured statements out as LIR.
//
//===----------------------------------------------------------------------===//
#include "wave/CodeGen/CodeGen.h"
#include "wave/Support/Quote.h"

#include "wave/CodeGen/ISel.h"
#include "wave/CodeGen/LIR.h"
#include "wave/CodeGen/Structurizer.h"
#include "wave/IR/MIR.h"
#include "wave/Transforms/Pass.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <set>

using namespace llvm;

namespace wave::codegen {

/// Frames of a wave's divergence stack (formats/isa.md §4.1, §4.15).
static constexpr unsigned MaxControlDepth = 32;

namespace {

/// Turns StructuredCode into the linear LIR of SF.F.
class Layout {
public:
  Layout(SelectedFunction &SF, const StructuredCode &SC) : SF(SF), SC(SC) {}
  void run();

private:
  LFunction &F() { return SF.F; }
  /// Appends a control instruction; without a position of its own it
  /// takes the one of the branch it comes from (CurLine, CurCol).
  void emit(LInst I) {
    if (!I.Line) {
      I.Line = CurLine;
      I.Col = CurCol;
    }
    F().Insts.push_back(std::move(I));
  }
  /// Makes the branch of SCFG node \p Node the current source position.
  void branchFrom(unsigned Node) {
    CurLine = SF.Blocks[Node].TermLine;
    CurCol = SF.Blocks[Node].TermCol;
  }
  /// A predicate register holding \p C at the current position.
  unsigned predicate(const SCond &C);
  /// A new predicate register holding the negation of \p P.
  unsigned negate(unsigned P);
  /// The inverse compare of \p Op with its operands swapped or not, if the
  /// ISA has one that is exact for every input (NaN included).
  static std::optional<std::pair<Opcode, bool>> inverseCompare(Opcode Op);

  /// A predicate known to be true in every active lane here: the
  /// condition of the innermost open `if`, while in its then-part and not
  /// written since; ~0u if none.
  unsigned activeTruePredicate() const;

  /// An `if` not yet closed: where it is in Insts, its predicate, and
  /// whether its `else` has been seen.
  struct OpenIf {
    size_t At;
    unsigned Pred;
    bool InElse;
  };
  std::vector<OpenIf> OpenIfs;

  SelectedFunction &SF;
  const StructuredCode &SC;
  std::vector<unsigned> FlagRegs;
  /// Index in Insts where the current Block statement's code begins.
  size_t BlockStart = 0;
  /// Source position of the branch the current control comes from.
  uint32_t CurLine = 0, CurCol = 0;
};

} // namespace

std::optional<std::pair<Opcode, bool>> Layout::inverseCompare(Opcode Op) {
  // (a op b) is false exactly when (x inv y) is true, where (x, y) is
  // (a, b) or (b, a) per the bool (formats/isa.md §4.10). Only the compares our
  // assembler and the reference emulator both evaluate (D19) are used.
  switch (Op) {
  case Opcode::IcmpEq:
    return std::pair(Opcode::IcmpNe, false);
  case Opcode::IcmpNe:
    return std::pair(Opcode::IcmpEq, false);
  case Opcode::IcmpLt:
    return std::pair(Opcode::IcmpGe, false);
  case Opcode::IcmpGe:
    return std::pair(Opcode::IcmpLt, false);
  case Opcode::IcmpLe:
    return std::pair(Opcode::IcmpGt, false);
  case Opcode::IcmpGt:
    return std::pair(Opcode::IcmpLe, false);
  case Opcode::UcmpLt: // !(a < b) == b <= a
    return std::pair(Opcode::UcmpLe, true);
  case Opcode::UcmpLe: // !(a <= b) == b < a
    return std::pair(Opcode::UcmpLt, true);
  case Opcode::FcmpEq:
    return std::pair(Opcode::FcmpNe, false);
  case Opcode::FcmpNe:
    return std::pair(Opcode::FcmpEq, false);
  case Opcode::FcmpOrd:
    return std::pair(Opcode::FcmpUnord, false);
  case Opcode::FcmpUnord:
    return std::pair(Opcode::FcmpOrd, false);
  default: // fcmp lt/le/gt are false on NaN, so their negation is not one.
    return std::nullopt;
  }
}

unsigned Layout::negate(unsigned P) {
  std::vector<LInst> &Insts = F().Insts;
  unsigned N = F().newVReg(RegClass::Pred, 1,
                           F().VRegs[P].Name.empty()
                               ? ""
                               : "!" + F().VRegs[P].Name);
  // Recompute with the inverse compare when P's definition is in the
  // current block and its operands are not written after it.
  for (size_t K = Insts.size(); K > BlockStart; --K) {
    const LInst &Def = Insts[K - 1];
    if (!writesVReg(Def, P))
      continue;
    auto Inv = Def.Pseudo == LPseudo::None ? inverseCompare(Def.Op)
                                           : std::nullopt;
    if (!Inv)
      break;
    unsigned A = Def.Ops[1].V, B = Def.Ops[2].V;
    if (any_of(ArrayRef(Insts).drop_front(K), [&](const LInst &I) {
          return writesVReg(I, A) || writesVReg(I, B);
        }))
      break;
    LOperand X = Def.Ops[1], Y = Def.Ops[2];
    if (Inv->second)
      std::swap(X, Y);
    emit(LInst::make(Inv->first, {LOperand::reg(N), X, Y},
                     F().VRegs[N].Name));
    return N;
  }
  // No inverse compare: N := true, then false where P holds.
  emit(LInst::pset(N, true));
  emit(LInst::make(Opcode::If, {LOperand::reg(P)}));
  emit(LInst::pset(N, false));
  emit(LInst::make(Opcode::Endif, {}));
  return N;
}

unsigned Layout::activeTruePredicate() const {
  if (OpenIfs.empty() || OpenIfs.back().InElse)
    return ~0u;
  const OpenIf &If = OpenIfs.back();
  if (any_of(ArrayRef(SF.F.Insts).drop_front(If.At + 1),
             [&](const LInst &I) { return writesVReg(I, If.Pred); }))
    return ~0u;
  return If.Pred;
}

unsigned Layout::predicate(const SCond &C) {
  unsigned P;
  switch (C.K) {
  case SCond::Kind::True:
    // Inside `if p`, p holds in every active lane (formats/isa.md §4.15).
    if (!C.Negated)
      if (unsigned Known = activeTruePredicate(); Known != ~0u)
        return Known;
    P = F().newVReg(RegClass::Pred);
    emit(LInst::pset(P, !C.Negated));
    return P;
  case SCond::Kind::NodeCond:
    P = SF.Blocks[C.Id].CondVReg;
    break;
  case SCond::Kind::Flag:
    P = FlagRegs[C.Id];
    break;
  }
  return C.Negated ? negate(P) : P;
}

/// Drops `else` right before `endif` and `if p` right before `endif`:
/// blocks that select to nothing (a `ret`, an edge without phi copies) and
/// copies deleted by coalescing leave empty arms behind, and an empty arm
/// does nothing. One pass with an output stack handles nested empties.
static void removeEmptyArms(LFunction &F) {
  std::vector<LInst> Out;
  Out.reserve(F.Insts.size());
  auto IsOp = [](const LInst &I, Opcode Op) {
    return I.Pseudo == LPseudo::None && I.Op == Op;
  };
  for (LInst &I : F.Insts) {
    if (IsOp(I, Opcode::Endif) && !Out.empty()) {
      if (IsOp(Out.back(), Opcode::Else))
        Out.pop_back();
      if (IsOp(Out.back(), Opcode::If)) {
        Out.pop_back();
        continue;
      }
    }
    Out.push_back(std::move(I));
  }
  F.Insts = std::move(Out);
}

void Layout::run() {
  for (unsigned Flag = 0; Flag != SC.NumFlags; ++Flag)
    FlagRegs.push_back(
        F().newVReg(RegClass::Pred, 1, "flag" + std::to_string(Flag)));
  for (const SStmt &S : SC.Stmts) {
    if ((S.K == SStmt::Kind::If || S.K == SStmt::Kind::Break ||
         S.K == SStmt::Kind::Continue) &&
        S.Cond.K == SCond::Kind::NodeCond)
      branchFrom(S.Cond.Id);
    switch (S.K) {
    case SStmt::Kind::Block: {
      BlockStart = F().Insts.size();
      std::vector<LInst> &Body = SF.Blocks[S.Id].Body;
      for (LInst &I : Body)
        F().Insts.push_back(std::move(I)); // keeps its own position
      Body.clear();
      branchFrom(S.Id);
      break;
    }
    case SStmt::Kind::If: {
      unsigned P = predicate(S.Cond);
      OpenIfs.push_back({F().Insts.size(), P, false});
      emit(LInst::make(Opcode::If, {LOperand::reg(P)}));
      break;
    }
    case SStmt::Kind::Break:
      emit(LInst::make(Opcode::Break, {LOperand::reg(predicate(S.Cond))}));
      break;
    case SStmt::Kind::Continue:
      emit(
          LInst::make(Opcode::Continue, {LOperand::reg(predicate(S.Cond))}));
      break;
    case SStmt::Kind::Else:
      if (!OpenIfs.empty())
        OpenIfs.back().InElse = true;
      emit(LInst::make(Opcode::Else, {}));
      break;
    case SStmt::Kind::EndIf:
      if (!OpenIfs.empty())
        OpenIfs.pop_back();
      emit(LInst::make(Opcode::Endif, {}));
      break;
    case SStmt::Kind::Loop:
      emit(LInst::make(Opcode::Loop, {}));
      break;
    case SStmt::Kind::EndLoop:
      emit(LInst::make(Opcode::Endloop, {}));
      break;
    case SStmt::Kind::Halt:
      // A device function's threads leave through its one `return`
      // (formats/wave-asm.md §9); a kernel's halt.
      emit(F().IsKernel ? LInst::make(Opcode::Halt, {}, "return")
                        : LInst::make(Opcode::Return, {}));
      break;
    case SStmt::Kind::SetFlag:
      emit(LInst::pset(FlagRegs[S.Id], S.Value));
      break;
    }
  }
  removeEmptyArms(F());
  // Every lane has returned by now; the final halt ends the wave and keeps
  // execution inside the kernel's code (formats/isa.md §4.2, D18). A device
  // function ends in its return.
  Opcode Last = F().IsKernel ? Opcode::Halt : Opcode::Return;
  if (F().Insts.empty() || F().Insts.back().Op != Last ||
      F().Insts.back().Pseudo != LPseudo::None)
    emit(LInst::make(Last, {}));
}

/// Whether \p I only computes its destinations: no memory access, no
/// control flow, no synchronisation. Loads are kept (removing one would
/// hide an out-of-bounds fault, formats/isa.md §4.12).
static bool isPure(const LInst &I) {
  if (I.Pseudo != LPseudo::None)
    return true;
  switch (getInstDesc(I.Op).Class) {
  case InstClass::Integer:
  case InstClass::Float:
  case InstClass::Wave:
    return I.Op != Opcode::MmaLoadA && I.Op != Opcode::MmaLoadB &&
           I.Op != Opcode::MmaStoreC && I.Op != Opcode::MmaCompute;
  case InstClass::Control:
    return I.Op == Opcode::Mov || I.Op == Opcode::MovImm ||
           I.Op == Opcode::MovSr;
  default:
    return false;
  }
}

/// Deletes pure instructions whose results nothing reads (the compare left
/// behind when a negated condition is recomputed with the inverse compare,
/// constants no instruction needs any more). LIR is not SSA, so a register
/// is dead when no instruction anywhere reads it.
static void removeDeadCode(LFunction &F) {
  std::vector<unsigned> Uses(F.VRegs.size(), 0);
  auto ForEachUse = [](const LInst &I, auto Fn) {
    for (unsigned Idx = 0; Idx != I.Ops.size(); ++Idx)
      if (I.Ops[Idx].isReg() && !isDefOperand(I, Idx))
        Fn(I.Ops[Idx].V);
  };
  for (const LInst &I : F.Insts)
    ForEachUse(I, [&](unsigned V) { ++Uses[V]; });
  std::vector<bool> Dead(F.Insts.size(), false);
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (size_t K = F.Insts.size(); K-- > 0;) {
      const LInst &I = F.Insts[K];
      if (Dead[K] || !isPure(I))
        continue;
      bool AnyDef = false, AllDead = true;
      for (unsigned Idx = 0; Idx != I.Ops.size(); ++Idx)
        if (I.Ops[Idx].isReg() && isDefOperand(I, Idx)) {
          AnyDef = true;
          AllDead &= Uses[I.Ops[Idx].V] == 0 &&
                     F.VRegs[I.Ops[Idx].V].Fixed < 0;
        }
      if (!AnyDef || !AllDead)
        continue;
      Dead[K] = true;
      Changed = true;
      ForEachUse(I, [&](unsigned V) { --Uses[V]; });
    }
  }
  size_t Out = 0;
  for (size_t K = 0; K != F.Insts.size(); ++K)
    if (!Dead[K]) {
      if (Out != K)
        F.Insts[Out] = std::move(F.Insts[K]);
      ++Out;
    }
  F.Insts.resize(Out);
}

/// Whether \p Name is a word of WAVE assembly (formats/wave-asm.md §1): a
/// letter or `_`, then letters, digits and `_`. Any word names a `.param`.
static bool isAssemblyWord(StringRef Name) {
  if (Name.empty() || !(isAlpha(Name[0]) || Name[0] == '_'))
    return false;
  return llvm::all_of(Name, [](char C) { return isAlnum(C) || C == '_'; });
}

/// Whether \p Name can follow `.kernel` in WAVE assembly (formats/wave-asm.md
/// §1): a word that the lexer does not read as a register, predicate or
/// special register.
static bool isAssemblyName(StringRef Name) {
  if (!isAssemblyWord(Name))
    return false;
  if ((Name[0] == 'r' || Name[0] == 'p') && Name.size() > 1 &&
      isDigit(Name[1]))
    return false;
  return !Name.starts_with("sr");
}

/// The `.param` descriptors of kernel \p MF (formats/wave-asm.md §9,
/// formats/wbin.md "PARAMS"): `NAME, buffer, ELEM, ACCESS` for a
/// ptr<device> with elem(T) (ACCESS read for readonly, write for
/// writeonly, else readwrite), `NAME, scalar, TYPE` otherwise. NAME is the
/// MIR parameter name, or `argI` for a positional one or one that is not
/// an assembly word (`src`, `r1` and `sr_lane_id` are names here). Empty when a ptr<device> parameter has no
/// elem(T): a kernel is described completely or not at all.
static std::vector<std::string> paramLines(const mir::Function &MF) {
  std::vector<std::string> Lines;
  for (unsigned K = 0; K != MF.numArgs(); ++K) {
    const mir::Argument &A = *MF.arg(K);
    std::string Line = isAssemblyWord(A.name())
                           ? A.name().str()
                           : "arg" + std::to_string(K);
    if (A.type() == mir::Type::PtrDevice) {
      if (!A.ElemType)
        return {};
      Line += ", buffer, " + mir::typeName(*A.ElemType).str() + ", " +
              (A.ReadOnly    ? "read"
               : A.WriteOnly ? "write"
                             : "readwrite");
    } else {
      Line += ", scalar, " + mir::typeName(A.type()).str();
    }
    Lines.push_back(std::move(Line));
  }
  return Lines;
}

/// Makes every `ret` of \p MF a branch to one new exit block that holds
/// the only `ret` (with a phi of the results): a device function compiled
/// as `.func` ends in exactly one top-level `return` (formats/wave-asm.md
/// §9), which the structurizer places at depth 0 when one block exits.
static void mergeReturns(mir::Function &MF) {
  SmallVector<mir::BasicBlock *, 4> Rets;
  for (const std::unique_ptr<mir::BasicBlock> &BB : MF.blocks())
    if (mir::Instruction *T = BB->terminator();
        T && T->opcode() == mir::Opcode::Ret)
      Rets.push_back(BB.get());
  if (Rets.size() < 2)
    return;
  mir::BasicBlock *Exit = MF.addBlock("");
  mir::Instruction *Phi = nullptr;
  if (MF.returnType() != mir::Type::Void)
    Phi = Exit->append(
        mir::Instruction::create(mir::Opcode::Phi, MF.returnType()));
  auto Ret = mir::Instruction::create(mir::Opcode::Ret, mir::Type::Void);
  for (mir::BasicBlock *BB : Rets) {
    mir::Instruction *T = BB->terminator();
    if (Phi)
      Phi->addIncoming(T->operand(0), BB);
    Ret->setDebugLoc(T->debugLoc());
    auto Br = mir::Instruction::create(mir::Opcode::Br, mir::Type::Void);
    Br->setDebugLoc(T->debugLoc());
    Br->addBlock(Exit);
    T->dropAllOperands();
    T->eraseFromParent();
    BB->append(std::move(Br));
  }
  if (Phi)
    Ret->addOperand(Phi);
  Exit->append(std::move(Ret));
}

/// Whether any instruction of \p M has a source position.
static bool hasDebugLocs(const mir::Module &M) {
  for (const std::unique_ptr<mir::Function> &MF : M.functions())
    for (const std::unique_ptr<mir::BasicBlock> &BB : MF->blocks())
      for (const mir::Instruction &I : BB->insts())
        if (I.debugLoc())
          return true;
  return false;
}

/// The deepest nesting of if/loop frames \p F reaches when it runs,
/// counting the if/else a predicate copy prints as (LIR.cpp).
static unsigned maxNesting(const LFunction &F) {
  unsigned Depth = 0, Max = 0;
  for (const LInst &I : F.Insts) {
    if (I.isCopy() && F.VRegs[I.Ops[0].V].Class == RegClass::Pred &&
        F.Assignment[I.Ops[0].V] != F.Assignment[I.Ops[1].V])
      Max = std::max(Max, Depth + 1);
    if (I.Pseudo != LPseudo::None)
      continue;
    if (I.Op == Opcode::If || I.Op == Opcode::Loop)
      Max = std::max(Max, ++Depth);
    else if ((I.Op == Opcode::Endif || I.Op == Opcode::Endloop) && Depth)
      --Depth;
  }
  return Max;
}

/// Number of WAVE instructions in \p Asm, one function as printLFunction
/// writes it: instructions are the indented lines (directives start at
/// column 0), so copies count as what they print as, nothing or moves.
static unsigned countInstructions(StringRef Asm) {
  unsigned N = 0;
  for (StringRef Line : split(Asm, '\n'))
    N += Line.starts_with(" ");
  return N;
}

Error compileModule(mir::Module &M, const CodeGenOptions &Opts,
                    raw_ostream &OS, std::vector<KernelReport> *Reports) {
  // Device-function calls are inlined (WAVE's call/return act on whole
  // waves, MIR's calls on lanes); a call left over is recursive, and
  // instruction selection reports it.
  bool HasCalls = false;
  for (const std::unique_ptr<mir::Function> &MF : M.functions())
    for (const std::unique_ptr<mir::BasicBlock> &BB : MF->blocks())
      for (const mir::Instruction &I : BB->insts())
        HasCalls |= I.opcode() == mir::Opcode::Call;
  if (HasCalls)
    mir::inlineAllCalls(M);

  std::string Text;
  raw_string_ostream Out(Text);
  bool First = true;
  // Declared functions some unit calls: `.extern` lines, sorted, at the
  // top (formats/wave-asm.md §3, §9).
  std::set<std::string> Externs;
  // Source positions: file 1 is the module's source_filename; `.loc`
  // directives refer to it (formats/wave-asm.md §9).
  bool EmitLocs = !M.SourceFile.empty() && hasDebugLocs(M);
  std::string Header;
  raw_string_ostream HeaderOS(Header);
  if (EmitLocs && Opts.Emit == EmitKind::Asm) {
    HeaderOS << ".file 1 ";
    writeQuoted(HeaderOS, M.SourceFile);
    HeaderOS << "\n\n";
  }
  for (const std::unique_ptr<mir::Function> &MF : M.functions()) {
    // Kernels, and export funcs as `.func` (the others are inlined).
    bool IsFunc = MF->linkage() == mir::Function::Linkage::Export;
    if (!MF->isKernel() && !IsFunc)
      continue;
    if (IsFunc)
      mergeReturns(*MF);
    if (!isAssemblyName(MF->name()))
      return createStringError(
          (IsFunc ? "function '@" : "kernel '@") + MF->name() +
          "': the name cannot be written in WAVE assembly (an identifier "
          "of letters, digits and '_' not starting with rN, pN or sr; "
          "formats/wave-asm.md §1)");
    // Irreducible control flow is reported on the CFG as written, before
    // selection splits edges and adds blocks the user never named.
    std::string Name = ("@" + MF->name()).str();
    if (Error E = checkReducible(buildSCFG(*MF), Name))
      return E;
    Expected<SelectedFunction> SF = selectInstructions(*MF);
    if (!SF)
      return SF.takeError();
    Expected<StructuredCode> SC = structurize(SF->G, Name);
    if (!SC)
      return SC.takeError();
    Layout(*SF, *SC).run();
    LFunction &F = SF->F;
    Externs.insert(F.Callees.begin(), F.Callees.end());
    if (F.IsKernel)
      F.ParamLines = paramLines(*MF);
    F.EmitLocs = EmitLocs && Opts.Emit == EmitKind::Asm;
    removeDeadCode(F);
    if (!First)
      Out << '\n';
    First = false;
    if (Opts.Emit == EmitKind::LIR) {
      printLFunction(F, Out, /*Virtual=*/true);
      continue;
    }
    RegAllocOptions RAO;
    RAO.MaxRegisters = Opts.MaxRegisters;
    RAO.InterferenceOut = Opts.InterferenceOut;
    if (Opts.InterferenceOut)
      *Opts.InterferenceOut << "; interference graph of kernel '" << F.Name
                            << "'\n";
    Expected<RegAllocStats> Stats = allocateRegisters(F, RAO);
    if (!Stats)
      return Stats.takeError();
    removeEmptyArms(F);
    if (!F.IsKernel && F.LocalMemory)
      return createStringError(
          "function '@" + F.Name + "': a device function compiled as "
          "'.func' cannot use local memory, and " +
          std::to_string(Stats->SpilledVRegs) +
          " values spill there at --max-registers " +
          std::to_string(Opts.MaxRegisters) + " (formats/wave-asm.md §9)");
    if (unsigned Depth = maxNesting(F); Depth > MaxControlDepth)
      return createStringError(
          "kernel '@" + F.Name + "': structured control flow nests " +
          std::to_string(Depth) +
          " frames deep; a wave's divergence stack "
          "holds " +
          std::to_string(MaxControlDepth) + " (formats/isa.md §4.15)");
    std::string Asm;
    raw_string_ostream AsmOS(Asm);
    printLFunction(F, AsmOS, /*Virtual=*/false);
    Out << Asm;
    if (Reports)
      Reports->push_back({F.Name, *Stats, countInstructions(Asm)});
  }
  if (!Externs.empty() && Opts.Emit == EmitKind::Asm) {
    for (const std::string &Name : Externs)
      HeaderOS << ".extern " << Name << '\n';
    HeaderOS << '\n';
  }
  OS << Header << Text;
  return Error::success();
}

} // namespace wave::codegen
