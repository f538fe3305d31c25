//===- MIR.cpp - MIR data structures --------------------------------------===//
//
// Use-list maintenance, block and function ownership, and the tables that
// MIROps.def and SpecialRegs.def expand into.
//
//===----------------------------------------------------------------------===//
#include "wave/IR/MIR.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/ErrorHandling.h"

#include <algorithm>

using namespace llvm;

namespace wave::mir {

//===----------------------------------------------------------------------===//
// Tables
//===----------------------------------------------------------------------===//

static const OpDesc OpTable[] = {
#define MIR_OP(Id, Name, Shp, Types, Flags)                                    \
  {Name, Shape::Shp, Types, uint8_t(Flags)},
#include "wave/IR/MIROps.def"
};

const OpDesc &opDesc(Opcode Op) { return OpTable[unsigned(Op)]; }

std::optional<Opcode> lookupOpcode(StringRef Name) {
  static const StringMap<Opcode> Map = [] {
    StringMap<Opcode> M;
    for (unsigned I = 0; I < NumOpcodes; ++I)
      M[OpTable[I].Name] = Opcode(I);
    return M;
  }();
  auto It = Map.find(Name);
  if (It == Map.end())
    return std::nullopt;
  return It->second;
}

static const char *const PredNames[] = {"eq", "ne", "lt",  "le",
                                        "gt", "ge", "ord", "unord"};

StringRef cmpPredName(CmpPred P) { return PredNames[unsigned(P)]; }

std::optional<CmpPred> parseCmpPred(StringRef S) {
  for (unsigned I = 0; I < 8; ++I)
    if (S == PredNames[I])
      return CmpPred(I);
  return std::nullopt;
}

static const char *const ScopeNames[] = {"wave", "workgroup", "device",
                                         "system"};

StringRef scopeName(Scope S) { return ScopeNames[unsigned(S)]; }

std::optional<Scope> parseScope(StringRef S) {
  for (unsigned I = 0; I < 4; ++I)
    if (S == ScopeNames[I])
      return Scope(I);
  return std::nullopt;
}

namespace {
struct SRegRow {
  const char *Name; // with the sr_ prefix
  unsigned Index;
};
} // namespace

static const SRegRow SRegs[] = {
#define WAVE_SPECIAL_REG(Id, Name, Index) {Name, Index},
#include "wave/ISA/SpecialRegs.def"
};

StringRef specialRegName(unsigned Index) {
  for (const SRegRow &R : SRegs)
    if (R.Index == Index)
      return StringRef(R.Name).drop_front(3);
  return "";
}

std::optional<unsigned> parseSpecialReg(StringRef S) {
  for (const SRegRow &R : SRegs)
    if (StringRef(R.Name).drop_front(3) == S)
      return R.Index;
  return std::nullopt;
}

bool isValidCvt(Type From, Type To) {
  auto Is = [&](Type F, Type T) { return From == F && To == T; };
  // formats/isa.md §2.9, destination type second here.
  return Is(Type::I32, Type::F32) || Is(Type::U32, Type::F32) ||
         Is(Type::F32, Type::I32) || Is(Type::F32, Type::U32) ||
         Is(Type::F16, Type::F32) || Is(Type::F32, Type::F16) ||
         Is(Type::F64, Type::F32) || Is(Type::F32, Type::F64) ||
         Is(Type::BF16, Type::F32) || Is(Type::F32, Type::BF16) ||
         // i1 -> 0/1 (a select on the backend).
         Is(Type::I1, Type::I32) || Is(Type::I1, Type::U32);
}

bool isValidBitcast(Type From, Type To) {
  if (From == Type::Void || To == Type::Void || From == Type::I1 ||
      To == Type::I1 || From == To || From == Type::PtrPrivate ||
      To == Type::PtrPrivate)
    return false;
  return typeBits(From) == typeBits(To);
}

//===----------------------------------------------------------------------===//
// Values and instructions
//===----------------------------------------------------------------------===//

Value::~Value() = default;

void Value::addUse(Instruction *User, unsigned OpNo) {
  User->UseSlot[OpNo] = Uses.size();
  Uses.push_back({User, OpNo});
}

void Value::removeUse(Instruction *User, unsigned OpNo) {
  // O(1): a value used a million times (a constant, a kernel parameter)
  // must not make every erase of one of its users a linear scan.
  unsigned Slot = User->UseSlot[OpNo];
  assert(Slot < Uses.size() && Uses[Slot].User == User &&
         Uses[Slot].OpNo == OpNo && "use not found");
  if (Slot + 1 != Uses.size()) {
    Uses[Slot] = Uses.back();
    Uses[Slot].User->UseSlot[Uses[Slot].OpNo] = Slot;
  }
  Uses.pop_back();
}

void Value::replaceAllUsesWith(Value *New) {
  if (New == this)
    return;
  // setOperand edits Uses; work on a copy.
  SmallVector<Use, 4> Copy(Uses.begin(), Uses.end());
  for (const Use &U : Copy)
    U.User->setOperand(U.OpNo, New);
}

std::unique_ptr<Instruction> Instruction::create(Opcode Op, Type Ty) {
  return std::unique_ptr<Instruction>(new Instruction(Op, Ty));
}

Instruction::~Instruction() { dropAllOperands(); }

Function *Instruction::function() const {
  return Parent ? Parent->parent() : nullptr;
}

void Instruction::addOperand(Value *V) {
  Ops.push_back(V);
  UseSlot.push_back(0);
  V->addUse(this, Ops.size() - 1);
}

void Instruction::setOperand(unsigned I, Value *V) {
  Ops[I]->removeUse(this, I);
  Ops[I] = V;
  V->addUse(this, I);
}

void Instruction::removeOperand(unsigned I) {
  // Renumber the uses of the operands after I.
  for (unsigned J = I, E = Ops.size(); J != E; ++J)
    Ops[J]->removeUse(this, J);
  Ops.erase(Ops.begin() + I);
  UseSlot.pop_back();
  for (unsigned J = I, E = Ops.size(); J != E; ++J)
    Ops[J]->addUse(this, J);
  if (isPhi())
    Blocks.erase(Blocks.begin() + I);
}

void Instruction::dropAllOperands() {
  for (unsigned I = 0, E = Ops.size(); I != E; ++I)
    Ops[I]->removeUse(this, I);
  Ops.clear();
  UseSlot.clear();
}

Value *Instruction::incomingFor(const BasicBlock *BB) const {
  for (unsigned I = 0, E = Blocks.size(); I != E; ++I)
    if (Blocks[I] == BB)
      return Ops[I];
  return nullptr;
}

void Instruction::eraseFromParent() {
  assert(!hasUses() && "erasing an instruction that is still used");
  Parent->remove(this).reset();
}

BasicBlock::~BasicBlock() {
  // Operands first, so that deleting in any order never touches a freed
  // value's use list.
  for (Instruction &I : Insts)
    I.dropAllOperands();
  while (!Insts.empty()) {
    Instruction *I = &Insts.front();
    Insts.remove(*I);
    delete I;
  }
}

Instruction *BasicBlock::terminator() const {
  if (Insts.empty() || !Insts.back().isTerminator())
    return nullptr;
  return const_cast<Instruction *>(&Insts.back());
}

SmallVector<BasicBlock *, 2> BasicBlock::successors() const {
  SmallVector<BasicBlock *, 2> S;
  if (Instruction *T = terminator())
    S.append(T->blocks().begin(), T->blocks().end());
  return S;
}

BasicBlock::iterator BasicBlock::firstNonPhi() {
  auto It = Insts.begin();
  while (It != Insts.end() && It->isPhi())
    ++It;
  return It;
}

Instruction *BasicBlock::insert(iterator Pos, std::unique_ptr<Instruction> I) {
  Instruction *Raw = I.release();
  Raw->Parent = this;
  Insts.insert(Pos, *Raw);
  return Raw;
}

std::unique_ptr<Instruction> BasicBlock::remove(Instruction *I) {
  assert(I->Parent == this);
  Insts.remove(*I);
  I->Parent = nullptr;
  return std::unique_ptr<Instruction>(I);
}

//===----------------------------------------------------------------------===//
// Functions and modules
//===----------------------------------------------------------------------===//

Function::~Function() {
  for (auto &BB : Blocks)
    for (Instruction &I : BB->insts())
      I.dropAllOperands();
  Blocks.clear();
}

Argument *Function::addArgument(Type Ty, StringRef ArgName) {
  Args.push_back(std::make_unique<Argument>(Ty, Args.size(), this));
  Args.back()->setName(ArgName);
  return Args.back().get();
}

Constant *Function::constant(Type Ty, uint64_t Bits) {
  auto &Slot = Constants[{Ty, Bits}];
  if (!Slot)
    Slot = std::make_unique<Constant>(Ty, Bits);
  return Slot.get();
}

BasicBlock *Function::addBlock(StringRef BBName) {
  Blocks.push_back(std::make_unique<BasicBlock>(this));
  Blocks.back()->setName(BBName);
  return Blocks.back().get();
}

BasicBlock *Function::addBlockAfter(BasicBlock *After, StringRef BBName) {
  int Idx = blockIndex(After);
  auto It = Blocks.insert(Blocks.begin() + (Idx + 1),
                          std::make_unique<BasicBlock>(this));
  (*It)->setName(BBName);
  return It->get();
}

void Function::eraseBlock(BasicBlock *BB) {
  int Idx = blockIndex(BB);
  assert(Idx >= 0 && "block not in function");
  for (Instruction &I : BB->insts())
    I.dropAllOperands();
  Blocks.erase(Blocks.begin() + Idx);
}

void Function::reorderBlocks(ArrayRef<BasicBlock *> Order) {
  // O(blocks): one index map instead of a blockIndex() search per block.
  DenseMap<const BasicBlock *, unsigned> Index;
  for (unsigned I = 0, E = Blocks.size(); I != E; ++I)
    Index[Blocks[I].get()] = I;
  std::vector<std::unique_ptr<BasicBlock>> New;
  New.reserve(Blocks.size());
  for (BasicBlock *BB : Order) {
    auto It = Index.find(BB);
    if (It != Index.end() && Blocks[It->second])
      New.push_back(std::move(Blocks[It->second]));
  }
  for (auto &BB : Blocks)
    if (BB)
      New.push_back(std::move(BB));
  Blocks = std::move(New);
}

void Function::eraseBlocks(ArrayRef<BasicBlock *> Dead) {
  SmallPtrSet<const BasicBlock *, 16> Set(Dead.begin(), Dead.end());
  for (BasicBlock *BB : Dead)
    for (Instruction &I : BB->insts())
      I.dropAllOperands();
  llvm::erase_if(Blocks, [&](const std::unique_ptr<BasicBlock> &BB) {
    return Set.count(BB.get());
  });
}

int Function::blockIndex(const BasicBlock *BB) const {
  for (unsigned I = 0, E = Blocks.size(); I != E; ++I)
    if (Blocks[I] && Blocks[I].get() == BB)
      return I;
  return -1;
}

Function *Module::addFunction(StringRef Name, bool IsKernel, Type RetTy) {
  Funcs.push_back(std::make_unique<Function>(this, Name, IsKernel, RetTy));
  ByName[Name] = Funcs.back().get();
  return Funcs.back().get();
}

Function *Module::function(StringRef Name) const {
  auto It = ByName.find(Name);
  return It == ByName.end() ? nullptr : It->second;
}

} // namespace wave::mir
