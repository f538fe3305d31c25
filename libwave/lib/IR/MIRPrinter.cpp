//===- MIRPrinter.cpp - MIR text printer ----------------------------------===//
//
// The canonical printer. Each Shape of MIROps.def has one print rule here and
// the mirror parse rule in MIRParser.cpp; formats/mir.md documents both.
//
//===----------------------------------------------------------------------===//
#include "wave/IR/MIRPrinter.h"
#include "wave/Support/Quote.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/Format.h"

using namespace llvm;

namespace wave::mir {

std::string constantText(const Constant &C) {
  uint64_t Bits = C.bits();
  switch (C.type()) {
  case Type::I1:
    return Bits ? "true" : "false";
  case Type::I32:
    return std::to_string(int32_t(uint32_t(Bits)));
  case Type::U32:
  case Type::PtrDevice:
  case Type::PtrLocal:
    return std::to_string(uint32_t(Bits));
  case Type::F16:
  case Type::BF16:
  case Type::F32:
  case Type::F64: {
    const fltSemantics &Sem = *getFloatSemantics(C.type());
    unsigned Width = typeBits(C.type());
    APFloat F(Sem, APInt(Width, Bits));
    if (F.isFinite()) {
      SmallString<32> S;
      F.toString(S);
      // Accept the decimal form only if it reads back to the same bits.
      APFloat Back(Sem);
      auto St = Back.convertFromString(S, APFloat::rmNearestTiesToEven);
      if (St && Back.bitcastToAPInt().getZExtValue() == Bits) {
        // "1" -> "1.0": a float literal should look like one.
        if (StringRef(S).find_first_of(".eE") == StringRef::npos)
          S += ".0";
        return std::string(S);
      }
      consumeError(St.takeError());
    }
    std::string Hex;
    raw_string_ostream OS(Hex);
    OS << "0x" << format_hex_no_prefix(Bits, Width / 4, /*Upper=*/true);
    return Hex;
  }
  default: {
    std::string Hex;
    raw_string_ostream OS(Hex);
    OS << "0x" << format_hex_no_prefix(Bits, 8, /*Upper=*/true);
    return Hex;
  }
  }
}

SlotNames::SlotNames(const Function &F) {
  StringSet<> Used;
  // Names are unique in parsed MIR; passes may duplicate one. Keep the first
  // and suffix the rest, deterministically in print order.
  auto Unique = [&](StringRef N) {
    std::string S = N.str();
    for (unsigned K = 1; !Used.insert(S).second; ++K)
      S = (N + "." + Twine(K)).str();
    return S;
  };
  unsigned NextValue = 0;
  auto Name = [&](const Value *V) {
    Values[V] = V->name().empty() ? "%" + std::to_string(NextValue++)
                                  : "%" + Unique(V->name());
  };
  for (unsigned I = 0; I < F.numArgs(); ++I)
    Name(F.arg(I));
  StringSet<> UsedBlocks;
  unsigned NextBlock = 0;
  for (const auto &BB : F.blocks()) {
    if (BB->name().empty()) {
      Blocks[BB.get()] = "^" + std::to_string(NextBlock++);
    } else {
      std::string S = BB->name().str();
      for (unsigned K = 1; !UsedBlocks.insert(S).second; ++K)
        S = (BB->name() + "." + Twine(K)).str();
      Blocks[BB.get()] = "^" + S;
    }
    for (const Instruction &I : BB->insts())
      if (I.type() != Type::Void)
        Name(&I);
  }
}

std::string SlotNames::value(const Value *V) const {
  if (const auto *C = dyn_cast<Constant>(V))
    return constantText(*C);
  auto It = Values.find(V);
  if (It == Values.end())
    return V->name().empty() ? "%<unknown>" : "%" + V->name().str();
  return It->second;
}

std::string SlotNames::block(const BasicBlock *BB) const {
  auto It = Blocks.find(BB);
  return It == Blocks.end() ? "^<unknown>" : It->second;
}

void printInstruction(const Instruction &I, const SlotNames &N,
                      raw_ostream &OS) {
  const OpDesc &D = I.desc();
  auto V = [&](unsigned K) { return N.value(I.operand(K)); };
  auto Ty = [](Type T) { return typeName(T); };
  if (I.type() != Type::Void)
    OS << N.value(&I) << " = ";
  OS << D.Name;
  // Operand lists past the first K operands, comma-separated.
  auto Rest = [&](unsigned From) {
    for (unsigned K = From; K < I.numOperands(); ++K)
      OS << (K == From ? " " : ", ") << V(K);
  };
  switch (D.Shp) {
  case Shape::Un:
  case Shape::Bin:
  case Shape::Tern:
  case Shape::Quat:
  case Shape::PtrOff:
  case Shape::Shuffle:
    OS << ' ' << Ty(I.type());
    Rest(0);
    break;
  case Shape::Cmp:
    OS << ' ' << cmpPredName(I.cmpPred()) << ' ' << Ty(I.auxType());
    Rest(0);
    break;
  case Shape::Select:
    OS << ' ' << Ty(I.type());
    Rest(0);
    break;
  case Shape::Cvt:
    OS << ' ' << Ty(I.auxType()) << ' ' << V(0) << " to " << Ty(I.type());
    break;
  case Shape::Load:
    OS << ' ' << Ty(I.type()) << ", " << Ty(I.auxType()) << ' ' << V(0);
    break;
  case Shape::Alloca:
    OS << ' ' << Ty(I.auxType());
    break;
  case Shape::Store:
    OS << ' ' << Ty(I.operand(0)->type()) << ' ' << V(0) << ", "
       << Ty(I.auxType()) << ' ' << V(1);
    break;
  case Shape::Atomic:
  case Shape::AtomicCas:
    OS << ' ' << scopeName(I.scope()) << ' ' << Ty(I.type()) << ", "
       << Ty(I.auxType()) << ' ' << V(0);
    for (unsigned K = 1; K < I.numOperands(); ++K)
      OS << ", " << V(K);
    break;
  case Shape::Ballot:
  case Shape::PredUn:
    Rest(0);
    break;
  case Shape::Nullary:
    break;
  case Shape::Fence:
    OS << ' ' << scopeName(I.scope());
    break;
  case Shape::SReg:
    OS << ' ' << specialRegName(I.imms()[0]);
    break;
  case Shape::MmaLoad:
    OS << ' ' << I.imms()[0] << ", " << Ty(Type::PtrLocal) << ' ' << V(0)
       << ", " << V(1);
    break;
  case Shape::MmaStore:
    OS << ' ' << Ty(Type::PtrLocal) << ' ' << V(0) << ", " << V(1) << ", "
       << I.imms()[0];
    break;
  case Shape::MmaCompute:
    OS << ' ' << I.imms()[0] << ", " << I.imms()[1] << ", " << I.imms()[2];
    break;
  case Shape::Call:
    OS << ' ' << Ty(I.type()) << " @"
       << (I.callee() ? I.callee()->name() : StringRef("<null>")) << '(';
    for (unsigned K = 0; K < I.numOperands(); ++K)
      OS << (K ? ", " : "") << Ty(I.operand(K)->type()) << ' ' << V(K);
    OS << ')';
    break;
  case Shape::Phi:
    OS << ' ' << Ty(I.type());
    for (unsigned K = 0; K < I.numOperands(); ++K)
      OS << (K ? ", [" : " [") << V(K) << ", " << N.block(I.block(K)) << ']';
    break;
  case Shape::Br:
    OS << ' ' << N.block(I.block(0));
    break;
  case Shape::CondBr:
    OS << ' ' << V(0) << ", " << N.block(I.block(0)) << ", "
       << N.block(I.block(1));
    break;
  case Shape::Ret:
    if (I.numOperands())
      OS << ' ' << Ty(I.operand(0)->type()) << ' ' << V(0);
    break;
  }
  if (Instruction::DebugLoc DL = I.debugLoc())
    OS << " !loc(" << DL.Line << ", " << DL.Col << ')';
}

std::string instructionText(const Instruction &I) {
  std::string S;
  raw_string_ostream OS(S);
  if (!I.function()) {
    OS << I.desc().Name;
    return S;
  }
  SlotNames N(*I.function());
  printInstruction(I, N, OS);
  return S;
}

void printFunction(const Function &F, raw_ostream &OS) {
  SlotNames N(F);
  if (F.linkage() == Function::Linkage::Export)
    OS << "export ";
  else if (F.isDeclaration())
    OS << "declare ";
  OS << (F.isKernel() ? "kernel @" : "func @") << F.name() << '(';
  for (unsigned I = 0; I < F.numArgs(); ++I) {
    const Argument &A = *F.arg(I);
    OS << (I ? ", " : "") << typeName(A.type());
    // Canonical attribute order: readonly, writeonly, elem(T).
    if (A.ReadOnly)
      OS << " readonly";
    if (A.WriteOnly)
      OS << " writeonly";
    if (A.ElemType)
      OS << " elem(" << typeName(*A.ElemType) << ')';
    OS << ' ' << N.value(&A);
  }
  OS << ')';
  if (!F.isKernel() && F.returnType() != Type::Void)
    OS << " -> " << typeName(F.returnType());
  if (F.isDeclaration()) {
    OS << '\n';
    return;
  }
  if (F.WorkgroupSize)
    OS << " workgroup_size(" << (*F.WorkgroupSize)[0] << ", "
       << (*F.WorkgroupSize)[1] << ", " << (*F.WorkgroupSize)[2] << ')';
  if (F.LocalMemory)
    OS << " local_memory(" << *F.LocalMemory << ')';
  OS << " {\n";
  bool First = true;
  for (const auto &BB : F.blocks()) {
    if (!First)
      OS << '\n';
    First = false;
    OS << N.block(BB.get()) << ":\n";
    for (const Instruction &I : BB->insts()) {
      OS << "  ";
      printInstruction(I, N, OS);
      OS << '\n';
    }
  }
  OS << "}\n";
}

void printModule(const Module &M, raw_ostream &OS) {
  bool First = true;
  if (!M.SourceFile.empty()) {
    OS << "source_filename = ";
    writeQuoted(OS, M.SourceFile);
    OS << '\n';
    First = false;
  }
  for (const auto &F : M.functions()) {
    if (!First)
      OS << '\n';
    First = false;
    printFunction(*F, OS);
  }
}

} // namespace wave::mir
