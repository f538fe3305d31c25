//===- MIR.h - MIR data structures ------------------------------*- C++ -*-===//
//
// The mid-level SSA IR of wavetools (formats/mir.md): a Module owns
// Functions (kernels and device functions); a Function owns its Arguments,
// uniqued Constants and BasicBlocks; a BasicBlock owns an intrusive list of
// Instructions, phis first and exactly one terminator last (checked by the
// Verifier, not enforced while passes edit). Every Value records its uses
// (user instruction, operand index), so def-use chains and
// replaceAllUsesWith are O(uses).
//
// Operations come from MIROps.def; their operand layout by Shape is:
//   operands()   SSA operands in text order (phi: incoming values).
//   blocks()     phi: incoming blocks (parallel to operands); br / condbr:
//                successors.
//   imms()       icmp/fcmp: CmpPred; atomics and fences: Scope; sreg:
//                special-register index (SpecialRegs.def); mma: fragment ids.
//   auxType()    cvt/bitcast: source type; load/store: pointer type;
//                alloca: the slot's type (the result is ptr<private>).
//   callee()     call: the called Function.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_IR_MIR_H
#define WAVE_IR_MIR_H

#include "wave/IR/Type.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/ilist_node.h"
#include "llvm/ADT/simple_ilist.h"
#include "llvm/Support/SMLoc.h"

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace wave::mir {

class BasicBlock;
class Function;
class Instruction;
class Module;

/// One enumerator per row of MIROps.def.
enum class Opcode : uint8_t {
#define MIR_OP(Id, Name, Shape, Types, Flags) Id,
#include "wave/IR/MIROps.def"
};

/// Number of Opcode enumerators.
inline constexpr unsigned NumOpcodes = 0
#define MIR_OP(Id, Name, Shape, Types, Flags) +1
#include "wave/IR/MIROps.def"
    ;

/// Operand/result patterns of MIROps.def (syntax in formats/mir.md).
enum class Shape : uint8_t {
  Un,         ///< %r = op T %a                    r,a : T
  Bin,        ///< %r = op T %a, %b                 r,a,b : T
  Tern,       ///< %r = op T %a, %b, %c
  Quat,       ///< %r = op T %a, %b, %c, %d
  PtrOff,     ///< %r = op T %p, %off               off : u32
  Cmp,        ///< %r = op PRED T %a, %b            r : i1
  Select,     ///< %r = op T %c, %a, %b             c : i1
  Cvt,        ///< %r = op S %a to T
  Load,       ///< %r = op T, P %p                  P : pointer
  Store,      ///< op T %v, P %p
  Alloca,     ///< %r = op T                       r : ptr<private>
  Atomic,     ///< %r = op SCOPE T, P %p, %v
  AtomicCas,  ///< %r = op SCOPE T, P %p, %cmp, %new
  Shuffle,    ///< %r = op T %v, %lane              lane : u32
  Ballot,     ///< %r = op %c                       c : i1, r : u32
  PredUn,     ///< %r = op %c                       c, r : i1
  Nullary,    ///< op
  Fence,      ///< op SCOPE
  SReg,       ///< %r = op NAME                     r : u32
  MmaLoad,    ///< op FRAG, ptr<local> %p, %stride  stride : u32
  MmaStore,   ///< op ptr<local> %p, %stride, FRAG
  MmaCompute, ///< op FRAG, FRAG, FRAG
  Call,       ///< [%r =] op T @f(T %a, ...)        T may be void
  Phi,        ///< %r = op T [%v, ^bb], ...
  Br,         ///< op ^bb
  CondBr,     ///< op %c, ^t, ^f
  Ret,        ///< op | op T %v
};

/// Value operands of the elementwise shapes: Un 1, Bin 2, Tern 3, Quat 4;
/// 0 for every other shape.
inline unsigned elementwiseArity(Shape S) {
  switch (S) {
  case Shape::Un:
    return 1;
  case Shape::Bin:
    return 2;
  case Shape::Tern:
    return 3;
  case Shape::Quat:
    return 4;
  default:
    return 0;
  }
}

/// Row flags of MIROps.def.
enum OpFlag : uint8_t {
  OF_Term = 1,
  OF_Side = 2,
  OF_Read = 4,
  OF_Write = 8,
  OF_Conv = 16,
  OF_Comm = 32,
};

/// Static description of an opcode (one MIROps.def row).
struct OpDesc {
  const char *Name;
  Shape Shp;
  TypeMask Types;
  uint8_t Flags;
};

/// The MIROps.def row of \p Op.
const OpDesc &opDesc(Opcode Op);
/// Looks an opcode up by its text spelling; std::nullopt if unknown.
std::optional<Opcode> lookupOpcode(llvm::StringRef Name);

/// Comparison predicates of icmp/fcmp (formats/isa.md §2.8). icmp on u32 and
/// pointers compares unsigned; ord/unord are fcmp only.
enum class CmpPred : uint8_t { Eq, Ne, Lt, Le, Gt, Ge, Ord, Unord };
llvm::StringRef cmpPredName(CmpPred P);
std::optional<CmpPred> parseCmpPred(llvm::StringRef S);

/// Memory scopes of atomics and fences (formats/isa.md §1.4).
enum class Scope : uint8_t { Wave, Workgroup, Device, System };
llvm::StringRef scopeName(Scope S);
std::optional<Scope> parseScope(llvm::StringRef S);

/// Name of special register \p Index without the "sr_" prefix
/// ("thread_id_x"); empty if the index is not in SpecialRegs.def.
llvm::StringRef specialRegName(unsigned Index);
std::optional<unsigned> parseSpecialReg(llvm::StringRef S);

/// Whether converting \p From to \p To with `cvt` (value conversion,
/// formats/isa.md §2.9 plus i1 -> i32/u32) or `bitcast` (same size) is allowed.
bool isValidCvt(Type From, Type To);
bool isValidBitcast(Type From, Type To);

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

/// One use of a value: operand \c OpNo of instruction \c User.
struct Use {
  Instruction *User;
  unsigned OpNo;
};

/// Anything an instruction may take as an operand. Not copyable; owned by
/// its Function (arguments, constants), BasicBlock (instructions) or the
/// parser (placeholders for forward references).
class Value {
public:
  enum class Kind : uint8_t { Argument, Constant, Instruction, Placeholder };

  Value(const Value &) = delete;
  Value &operator=(const Value &) = delete;
  virtual ~Value();

  Kind kind() const { return K; }
  Type type() const { return Ty; }
  void setType(Type T) { Ty = T; }

  /// Source name without the sigil; empty for unnamed values, which the
  /// printer numbers.
  llvm::StringRef name() const { return Name; }
  void setName(llvm::StringRef N) { Name = N.str(); }

  /// Every use, in no particular order (removing a use moves the last one
  /// into its place, so that removal is O(1)).
  llvm::ArrayRef<Use> uses() const { return Uses; }
  bool hasUses() const { return !Uses.empty(); }
  unsigned numUses() const { return Uses.size(); }

  /// Makes every use of this value use \p New instead. \p New must have
  /// the same type (not checked; the verifier will).
  void replaceAllUsesWith(Value *New);

protected:
  Value(Kind K, Type Ty) : K(K), Ty(Ty) {}

private:
  friend class Instruction;
  /// Appends a use and records its position in User's use slots.
  void addUse(Instruction *User, unsigned OpNo);
  /// Removes the use (User, OpNo) in O(1): the position comes from User's
  /// use slots and the last use moves into the hole.
  void removeUse(Instruction *User, unsigned OpNo);

  Kind K;
  Type Ty;
  std::string Name;
  llvm::SmallVector<Use, 2> Uses;
};

/// A formal parameter of a function, in declaration order (Kernel ABI:
/// parameter i arrives in register ri).
class Argument : public Value {
public:
  Argument(Type Ty, unsigned Index, Function *Parent)
      : Value(Kind::Argument, Ty), Index(Index), Parent(Parent) {}
  unsigned index() const { return Index; }
  Function *parent() const { return Parent; }
  static bool classof(const Value *V) { return V->kind() == Kind::Argument; }

  // Parameter attributes (formats/mir.md "Functions"): what the kernel's
  // `.param` descriptor says about a buffer (formats/wbin.md "PARAMS").
  /// `elem(T)` on a `ptr<device>` parameter: the buffer's element type.
  std::optional<Type> ElemType;
  /// `readonly`: the function never writes through this pointer.
  bool ReadOnly = false;
  /// `writeonly`: the function never reads through this pointer.
  bool WriteOnly = false;

private:
  unsigned Index;
  Function *Parent;
};

/// An immediate of some type, uniqued per Function by (type, bits). The bits
/// are the value's encoding, zero-extended: i1 0/1, i32 two's complement,
/// f16/bf16/f32/f64 IEEE bits, packed pairs with lane 0 in bits 15:0.
class Constant : public Value {
public:
  Constant(Type Ty, uint64_t Bits) : Value(Kind::Constant, Ty), Bits(Bits) {}
  uint64_t bits() const { return Bits; }
  static bool classof(const Value *V) { return V->kind() == Kind::Constant; }

private:
  uint64_t Bits;
};

/// A forward reference made by the parser; replaced before parsing ends.
class Placeholder : public Value {
public:
  Placeholder(Type Ty, llvm::SMLoc Loc)
      : Value(Kind::Placeholder, Ty), Loc(Loc) {}
  llvm::SMLoc loc() const { return Loc; }
  static bool classof(const Value *V) { return V->kind() == Kind::Placeholder; }

private:
  llvm::SMLoc Loc;
};

//===----------------------------------------------------------------------===//
// Instructions
//===----------------------------------------------------------------------===//

/// One MIR operation. Its type() is the result type (Void when it produces
/// nothing). Created detached with create(); owned by a BasicBlock once
/// inserted.
class Instruction : public Value, public llvm::ilist_node<Instruction> {
public:
  /// Makes a detached instruction with result type \p Ty.
  static std::unique_ptr<Instruction> create(Opcode Op, Type Ty);
  ~Instruction() override;

  Opcode opcode() const { return Op; }
  const OpDesc &desc() const { return opDesc(Op); }
  bool isTerminator() const { return desc().Flags & OF_Term; }
  bool isPhi() const { return Op == Opcode::Phi; }
  /// Must not be removed even when unused (stores, atomics, barriers,
  /// fences, calls, MMA, terminators).
  bool hasSideEffects() const { return desc().Flags & (OF_Side | OF_Term); }
  bool mayReadMemory() const { return desc().Flags & OF_Read; }
  bool mayWriteMemory() const { return desc().Flags & OF_Write; }
  bool isConvergent() const { return desc().Flags & OF_Conv; }
  bool isCommutative() const { return desc().Flags & OF_Comm; }

  BasicBlock *parent() const { return Parent; }
  Function *function() const;

  // Operands.
  unsigned numOperands() const { return Ops.size(); }
  Value *operand(unsigned I) const { return Ops[I]; }
  llvm::ArrayRef<Value *> operands() const { return Ops; }
  void addOperand(Value *V);
  void setOperand(unsigned I, Value *V);
  /// Removes operand \p I (and, for a phi, its incoming block).
  void removeOperand(unsigned I);
  /// Drops every operand (their use lists forget this instruction).
  void dropAllOperands();

  // Blocks: phi incoming blocks or branch successors.
  llvm::ArrayRef<BasicBlock *> blocks() const { return Blocks; }
  BasicBlock *block(unsigned I) const { return Blocks[I]; }
  void addBlock(BasicBlock *BB) { Blocks.push_back(BB); }
  void setBlock(unsigned I, BasicBlock *BB) { Blocks[I] = BB; }

  /// Phi only: adds an incoming (value, predecessor) pair.
  void addIncoming(Value *V, BasicBlock *BB) {
    addOperand(V);
    addBlock(BB);
  }
  /// Phi only: the incoming value for \p BB, or null.
  Value *incomingFor(const BasicBlock *BB) const;

  llvm::ArrayRef<uint32_t> imms() const { return Imms; }
  void addImm(uint32_t V) { Imms.push_back(V); }
  void setImm(unsigned I, uint32_t V) { Imms[I] = V; }
  CmpPred cmpPred() const { return CmpPred(Imms[0]); }
  Scope scope() const { return Scope(Imms[0]); }

  Type auxType() const { return AuxTy; }
  void setAuxType(Type T) { AuxTy = T; }

  Function *callee() const { return Callee; }
  void setCallee(Function *F) { Callee = F; }

  /// Where the parser read this instruction; invalid for instructions made
  /// by passes.
  llvm::SMLoc loc() const { return Loc; }
  void setLoc(llvm::SMLoc L) { Loc = L; }

  /// Source position `!loc(LINE, COL)` in the module's source file
  /// (Module::SourceFile); Line 0 = unknown. Passes that create an
  /// instruction in place of others copy it (formats/mir.md "Source
  /// locations"); it becomes the `.wbin` line table (formats/wbin.md).
  struct DebugLoc {
    uint32_t Line = 0, Col = 0;
    explicit operator bool() const { return Line != 0; }
  };
  DebugLoc debugLoc() const { return DL; }
  void setDebugLoc(DebugLoc L) { DL = L; }

  /// Unlinks from the parent block and deletes this instruction. Its
  /// result must be unused.
  void eraseFromParent();

  static bool classof(const Value *V) { return V->kind() == Kind::Instruction; }

private:
  friend class BasicBlock;
  friend class Value;
  Instruction(Opcode Op, Type Ty) : Value(Kind::Instruction, Ty), Op(Op) {}

  Opcode Op;
  Type AuxTy = Type::Void;
  BasicBlock *Parent = nullptr;
  Function *Callee = nullptr;
  llvm::SMLoc Loc;
  DebugLoc DL;
  llvm::SmallVector<Value *, 3> Ops;
  /// UseSlot[I] is the index of this instruction's use of Ops[I] in
  /// Ops[I]->Uses (kept by Value::addUse/removeUse).
  llvm::SmallVector<unsigned, 3> UseSlot;
  llvm::SmallVector<BasicBlock *, 2> Blocks;
  llvm::SmallVector<uint32_t, 1> Imms;
};

/// A basic block: phis, then ordinary instructions, then one terminator.
class BasicBlock {
public:
  using InstList = llvm::simple_ilist<Instruction>;
  using iterator = InstList::iterator;

  explicit BasicBlock(Function *Parent) : Parent(Parent) {}
  ~BasicBlock();
  BasicBlock(const BasicBlock &) = delete;
  BasicBlock &operator=(const BasicBlock &) = delete;

  Function *parent() const { return Parent; }
  llvm::StringRef name() const { return Name; }
  void setName(llvm::StringRef N) { Name = N.str(); }

  InstList &insts() { return Insts; }
  const InstList &insts() const { return Insts; }
  iterator begin() { return Insts.begin(); }
  iterator end() { return Insts.end(); }
  bool empty() const { return Insts.empty(); }
  size_t size() const { return Insts.size(); }
  Instruction &front() { return Insts.front(); }
  Instruction &back() { return Insts.back(); }

  /// The last instruction if it is a terminator, else null.
  Instruction *terminator() const;
  /// Successor blocks in terminator operand order (with repeats).
  llvm::SmallVector<BasicBlock *, 2> successors() const;
  /// The first non-phi position.
  iterator firstNonPhi();

  /// Takes ownership of \p I and inserts it before \p Pos.
  Instruction *insert(iterator Pos, std::unique_ptr<Instruction> I);
  Instruction *append(std::unique_ptr<Instruction> I) {
    return insert(end(), std::move(I));
  }
  /// Unlinks \p I without deleting it; the caller owns it again.
  std::unique_ptr<Instruction> remove(Instruction *I);

  /// Where the parser read the label; may be invalid.
  llvm::SMLoc loc() const { return Loc; }
  void setLoc(llvm::SMLoc L) { Loc = L; }

private:
  Function *Parent;
  std::string Name;
  InstList Insts;
  llvm::SMLoc Loc;
};

//===----------------------------------------------------------------------===//
// Functions and modules
//===----------------------------------------------------------------------===//

/// A kernel (entry point, no result, Kernel ABI parameters) or a device
/// function (callable with `call`).
class Function {
public:
  Function(Module *Parent, llvm::StringRef Name, bool IsKernel, Type RetTy)
      : Parent(Parent), Name(Name.str()), Kernel(IsKernel), RetTy(RetTy) {}
  ~Function();
  Function(const Function &) = delete;
  Function &operator=(const Function &) = delete;

  Module *parent() const { return Parent; }
  llvm::StringRef name() const { return Name; }
  bool isKernel() const { return Kernel; }
  Type returnType() const { return RetTy; }

  /// How a device function relates to other objects (formats/mir.md
  /// "Functions"): `func` is private to the module (inlined, dropped when
  /// unused); `export func` is also emitted by wave-ra as a global `.func`
  /// other objects may call; `declare func` has no body and is defined in
  /// another object (wave-ra emits a real `call` and `.extern`). Kernels
  /// are always Internal here (they are entry points regardless).
  enum class Linkage : uint8_t { Internal, Export, Declaration };
  Linkage linkage() const { return Link; }
  void setLinkage(Linkage L) { Link = L; }
  bool isDeclaration() const { return Link == Linkage::Declaration; }

  Argument *addArgument(Type Ty, llvm::StringRef Name);
  unsigned numArgs() const { return Args.size(); }
  Argument *arg(unsigned I) const { return Args[I].get(); }

  /// Kernel attribute `workgroup_size(x, y, z)`, in threads.
  std::optional<std::array<uint32_t, 3>> WorkgroupSize;
  /// Kernel attribute `local_memory(N)`, in bytes.
  std::optional<uint32_t> LocalMemory;

  /// The uniqued constant (\p Ty, \p Bits); see Constant for the encoding.
  Constant *constant(Type Ty, uint64_t Bits);

  // Blocks, entry first.
  llvm::ArrayRef<std::unique_ptr<BasicBlock>> blocks() const { return Blocks; }
  unsigned numBlocks() const { return Blocks.size(); }
  BasicBlock *entry() const {
    return Blocks.empty() ? nullptr : Blocks[0].get();
  }
  BasicBlock *addBlock(llvm::StringRef Name = "");
  /// Creates a block placed right after \p After.
  BasicBlock *addBlockAfter(BasicBlock *After, llvm::StringRef Name = "");
  /// Deletes \p BB. Its instructions must have no uses outside it and no
  /// branch or phi may still name it.
  void eraseBlock(BasicBlock *BB);
  /// Deletes every block of \p Dead (same conditions as eraseBlock) in one
  /// O(blocks) sweep; the others keep their order.
  void eraseBlocks(llvm::ArrayRef<BasicBlock *> Dead);
  /// Puts the blocks in \p Order first, in that order; blocks not listed
  /// follow in their current order. O(blocks).
  void reorderBlocks(llvm::ArrayRef<BasicBlock *> Order);
  /// Index of \p BB in blocks(), or -1.
  int blockIndex(const BasicBlock *BB) const;

  llvm::SMLoc loc() const { return Loc; }
  void setLoc(llvm::SMLoc L) { Loc = L; }

private:
  Module *Parent;
  std::string Name;
  bool Kernel;
  Linkage Link = Linkage::Internal;
  Type RetTy;
  std::vector<std::unique_ptr<Argument>> Args;
  std::vector<std::unique_ptr<BasicBlock>> Blocks;
  std::map<std::pair<Type, uint64_t>, std::unique_ptr<Constant>> Constants;
  llvm::SMLoc Loc;
};

/// A translation unit: kernels and device functions in text order.
class Module {
public:
  Module() = default;
  Module(const Module &) = delete;
  Module &operator=(const Module &) = delete;

  /// Creates a function; the name must be new (the parser checks).
  Function *addFunction(llvm::StringRef Name, bool IsKernel, Type RetTy);
  Function *function(llvm::StringRef Name) const;
  llvm::ArrayRef<std::unique_ptr<Function>> functions() const { return Funcs; }

  /// `source_filename = "NAME"`: the file the `!loc` positions refer to;
  /// empty when unknown.
  std::string SourceFile;

private:
  std::vector<std::unique_ptr<Function>> Funcs;
  llvm::StringMap<Function *> ByName;
};

} // namespace wave::mir

#endif // WAVE_IR_MIR_H
