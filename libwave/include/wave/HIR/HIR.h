//===- HIR.h - High-level IR of the kernel frontends ------------*- C++ -*-===//
//
// HIR is the typed syntax tree every kernel-language frontend produces
// (libwave/README.md, "The pipeline"): named variables, structured
// if/while/for, calls by name. The four parsers (Frontend.h) build it with
// no types resolved beyond the ones written in the source; Sema (Sema.h)
// resolves names, infers and checks types, inserts implicit conversions,
// recognises intrinsics and validates GPU rules; lowering (Lowering.h)
// turns checked HIR into SSA MIR. Once a kernel is HIR, the language it was
// written in matters only through Module::Lang, which selects the
// conversion rules of formats/kernel-languages.md ("Types and
// conversions").
//
// Nodes are a small class hierarchy with LLVM-style RTTI (isa/dyn_cast on
// a Kind field). Every node records the SMLoc of the token that names it
// (an operator, a keyword, the first character of a name) in the buffer of
// the SourceMgr the parser read, so diagnostics point at source.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_HIR_HIR_H
#define WAVE_HIR_HIR_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/SMLoc.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace wave::hir {

/// Kernel source languages (formats/kernel-languages.md).
enum class Language : uint8_t { Python, Cpp, Rust, TypeScript };

/// "python", "cpp", "rust", "typescript".
llvm::StringRef languageName(Language L);
/// Accepts the names of languageName() and the aliases "py", "c++", "rs",
/// "ts"; std::nullopt otherwise.
std::optional<Language> parseLanguageName(llvm::StringRef S);
/// Language of a file by its extension (.py; .cpp .cc .cxx .hpp .h; .rs;
/// .ts); std::nullopt for anything else (including "-").
std::optional<Language> languageForPath(llvm::StringRef Path);

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

/// The scalar types of kernel languages (i32, u32, f32, f16, f64 and bool
/// are first-class).
enum class Scalar : uint8_t { Bool, I32, U32, F16, F32, F64 };

/// "bool", "i32", "u32", "f16", "f32", "f64".
llvm::StringRef scalarName(Scalar S);
inline bool isIntegerScalar(Scalar S) {
  return S == Scalar::I32 || S == Scalar::U32;
}
inline bool isFloatScalar(Scalar S) {
  return S == Scalar::F16 || S == Scalar::F32 || S == Scalar::F64;
}
/// Bytes one element of \p S occupies in a buffer or shared array (bool: 4).
unsigned scalarBytes(Scalar S);

class StructDecl;

/// The type of an expression, variable or parameter.
///
/// - Void: a function's result type only.
/// - Scalar: a value of Elem.
/// - Buffer: a device buffer of Elem (a kernel or device-function
///   parameter); ReadOnly for Rust `&[T]`, C++ `const T*`.
/// - Shared: a workgroup-shared array of Count elements of Elem.
/// - IntLiteral / FloatLiteral: an unsuffixed number literal (or a variable
///   initialised by one whose type is still being inferred) that takes the
///   type its context asks for (formats/kernel-languages.md).
/// - Struct: a value of the plain-data struct Decl
///   (formats/kernel-languages.md §8, "Plain-data structs"): a local, a
///   by-value parameter or the result of a device function; lowering
///   scalarises it.
/// - Invalid: the type of an expression that already produced an error;
///   Sema reports nothing further about it.
struct Type {
  enum Kind : uint8_t {
    Invalid,
    Void,
    ScalarKind,
    Buffer,
    Shared,
    IntLiteral,
    FloatLiteral,
    Struct
  };
  Kind K = Invalid;
  Scalar Elem = Scalar::I32;
  bool ReadOnly = false;
  uint32_t Count = 0;
  const StructDecl *Decl = nullptr; ///< Struct only.

  static Type invalid() { return Type{}; }
  static Type voidType() { return Type{Void}; }
  static Type scalar(Scalar S) { return Type{ScalarKind, S}; }
  static Type buffer(Scalar S, bool ReadOnly = false) {
    return Type{Buffer, S, ReadOnly};
  }
  static Type shared(Scalar S, uint32_t Count) {
    return Type{Shared, S, false, Count};
  }
  static Type intLiteral() { return Type{IntLiteral}; }
  static Type floatLiteral() { return Type{FloatLiteral}; }
  static Type structType(const StructDecl *D) {
    return Type{Struct, Scalar::I32, false, 0, D};
  }

  bool isInvalid() const { return K == Invalid; }
  bool isVoid() const { return K == Void; }
  bool isScalar() const { return K == ScalarKind; }
  bool isScalar(Scalar S) const { return K == ScalarKind && Elem == S; }
  bool isBool() const { return isScalar(Scalar::Bool); }
  bool isInteger() const { return isScalar() && isIntegerScalar(Elem); }
  bool isFloat() const { return isScalar() && isFloatScalar(Elem); }
  bool isLiteral() const { return K == IntLiteral || K == FloatLiteral; }
  /// An arithmetic value: a non-bool scalar or a literal.
  bool isNumeric() const { return isLiteral() || (isScalar() && !isBool()); }
  /// A buffer or a shared array (indexable memory).
  bool isArray() const { return K == Buffer || K == Shared; }
  bool isStruct() const { return K == Struct; }

  bool operator==(const Type &O) const {
    if (K != O.K)
      return false;
    if (K == ScalarKind)
      return Elem == O.Elem;
    if (K == Buffer)
      return Elem == O.Elem && ReadOnly == O.ReadOnly;
    if (K == Shared)
      return Elem == O.Elem && Count == O.Count;
    if (K == Struct)
      return Decl == O.Decl;
    return true;
  }
  bool operator!=(const Type &O) const { return !(*this == O); }
};

/// The type as kernel sources write it in diagnostics and --emit=hir:
/// "f32", "f32[]", "const f32[]", "shared f32[256]", "void", "integer
/// literal", "float literal", a struct's name, "<error>".
std::string typeName(const Type &T);

/// A plain-data struct (Rust `struct V2 { x: f32, y: f32 }`): named fields
/// of scalar or struct type, no references, no generics. Frontends make
/// one per name on first mention (Module::getStruct), so that a type may
/// be used before its definition; Defined says a definition was parsed.
///
/// Lowering scalarises a struct value into its leaves: the scalar fields
/// of its fields, depth first in declaration order (`Line { a: V2, b: V2
/// }` has the leaves a.x, a.y, b.x, b.y).
class StructDecl {
public:
  StructDecl(llvm::SMLoc FirstUse, std::string Name)
      : FirstUse(FirstUse), Name(std::move(Name)) {}
  struct Field {
    llvm::SMLoc Loc; ///< The field's name.
    std::string Name;
    Type Ty; ///< A scalar or a struct.
  };
  llvm::SMLoc Loc;      ///< The name in the definition (unset until one).
  llvm::SMLoc FirstUse; ///< Where the name was first mentioned.
  std::string Name;
  bool Defined = false;
  /// An anonymous tuple type (Rust `(f32, u32)`, Module::getTuple): its
  /// fields are named "0", "1", ... and its Name spells its element types.
  bool Tuple = false;
  std::vector<Field> Fields;

  /// The index of field \p Name, or -1.
  int fieldIndex(llvm::StringRef Name) const;
  /// The number of scalar leaves (see the class comment).
  unsigned numLeaves() const;
  /// The index of the first leaf of field \p I.
  unsigned leafOffset(unsigned I) const;
  /// The scalar type and the dotted path ("a.x") of every leaf, in order.
  void leaves(std::vector<std::pair<Scalar, std::string>> &Out,
              const std::string &Prefix = "") const;
};

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

/// Binary operators. The parsers map their spellings (Python `and`, `//`,
/// TypeScript `===`, `>>>`, ...) onto these; Sema gives each its meaning
/// for the operand types (formats/kernel-languages.md, "Operators").
enum class BinaryOp : uint8_t {
  Add,
  Sub,
  Mul,
  Div,      ///< `/`: integer division on two integers, else float division.
  FloorDiv, ///< Python `//` (same as Div on integers; floor() on floats).
  Rem,      ///< `%`: truncating remainder on integers.
  Shl,
  Shr,  ///< `>>`: arithmetic on i32, logical on u32.
  LShr, ///< TypeScript `>>>`: always logical.
  BitAnd,
  BitOr,
  BitXor,
  LogicalAnd, ///< `&&` / `and`: short-circuit, bool operands.
  LogicalOr,  ///< `||` / `or`.
  Eq,
  Ne,
  Lt,
  Le,
  Gt,
  Ge,
};
/// The operator's spelling in C-like syntax ("+", "<<", "&&", ...).
llvm::StringRef binaryOpSpelling(BinaryOp Op);
inline bool isComparison(BinaryOp Op) {
  return Op >= BinaryOp::Eq && Op <= BinaryOp::Ge;
}

/// Unary operators.
enum class UnaryOp : uint8_t {
  Neg,        ///< `-x`
  Plus,       ///< `+x` (no effect)
  LogicalNot, ///< C `!x`, Python `not x`: bool (or truthiness) operand.
  BitNot,     ///< `~x`: integers.
  RustNot,    ///< Rust `!x`: logical on bool, bitwise on integers.
};
llvm::StringRef unaryOpSpelling(UnaryOp Op);

class Expr;
using ExprPtr = std::unique_ptr<Expr>;

/// Base of all expressions. Ty is set by Sema (Invalid before).
class Expr {
public:
  enum class Kind : uint8_t {
    IntLit,
    FloatLit,
    BoolLit,
    Name,
    Unary,
    Binary,
    CompareChain,
    Conditional,
    Call,
    Index,
    Cast,
    StructLit,
    Member,
  };
  virtual ~Expr();
  Kind kind() const { return K; }
  llvm::SMLoc loc() const { return Loc; }
  Type Ty;

protected:
  Expr(Kind K, llvm::SMLoc Loc) : K(K), Loc(Loc) {}

private:
  Kind K;
  llvm::SMLoc Loc;
};

/// An integer literal. Suffix is the type a suffix gave it (C++ `10u`,
/// Rust `10u32`), else std::nullopt (the literal adapts to its context).
class IntLitExpr : public Expr {
public:
  IntLitExpr(llvm::SMLoc Loc, uint64_t Value,
             std::optional<Scalar> Suffix = std::nullopt)
      : Expr(Kind::IntLit, Loc), Value(Value), Suffix(Suffix) {}
  uint64_t Value;
  std::optional<Scalar> Suffix;
  static bool classof(const Expr *E) { return E->kind() == Kind::IntLit; }
};

/// A floating-point literal (C++ `1.5f` has Suffix f32).
class FloatLitExpr : public Expr {
public:
  FloatLitExpr(llvm::SMLoc Loc, double Value,
               std::optional<Scalar> Suffix = std::nullopt)
      : Expr(Kind::FloatLit, Loc), Value(Value), Suffix(Suffix) {}
  double Value;
  std::optional<Scalar> Suffix;
  static bool classof(const Expr *E) { return E->kind() == Kind::FloatLit; }
};

/// `true` / `false` (Python `True` / `False`).
class BoolLitExpr : public Expr {
public:
  BoolLitExpr(llvm::SMLoc Loc, bool Value)
      : Expr(Kind::BoolLit, Loc), Value(Value) {}
  bool Value;
  static bool classof(const Expr *E) { return E->kind() == Kind::BoolLit; }
};

class VarDecl;
class Param;
class SharedDecl;

/// A use of a variable or parameter by name. Sema binds Var or Parm.
class NameExpr : public Expr {
public:
  NameExpr(llvm::SMLoc Loc, std::string Name)
      : Expr(Kind::Name, Loc), Name(std::move(Name)) {}
  std::string Name;
  const VarDecl *Var = nullptr; ///< Set by Sema for a local variable.
  const Param *Parm = nullptr;  ///< Set by Sema for a parameter.
  const SharedDecl *Shared = nullptr; ///< Set by Sema for a shared array.
  static bool classof(const Expr *E) { return E->kind() == Kind::Name; }
};

class UnaryExpr : public Expr {
public:
  UnaryExpr(llvm::SMLoc Loc, UnaryOp Op, ExprPtr Operand)
      : Expr(Kind::Unary, Loc), Op(Op), Operand(std::move(Operand)) {}
  UnaryOp Op;
  ExprPtr Operand;
  static bool classof(const Expr *E) { return E->kind() == Kind::Unary; }
};

/// `LHS op RHS`; Loc is the operator.
class BinaryExpr : public Expr {
public:
  BinaryExpr(llvm::SMLoc Loc, BinaryOp Op, ExprPtr LHS, ExprPtr RHS)
      : Expr(Kind::Binary, Loc), Op(Op), LHS(std::move(LHS)),
        RHS(std::move(RHS)) {}
  BinaryOp Op;
  ExprPtr LHS, RHS;
  /// Set by Sema: the type both operands were converted to (for a
  /// comparison, Ty is bool and this is the compared type).
  Type OperandTy;
  static bool classof(const Expr *E) { return E->kind() == Kind::Binary; }
};

/// Python's chained comparison `a < b <= c`: Operands.size() ==
/// Ops.size() + 1, every operand evaluated at most once, left to right,
/// stopping at the first false comparison.
class CompareChainExpr : public Expr {
public:
  CompareChainExpr(llvm::SMLoc Loc) : Expr(Kind::CompareChain, Loc) {}
  std::vector<ExprPtr> Operands;
  std::vector<BinaryOp> Ops;
  std::vector<llvm::SMLoc> OpLocs;
  /// Set by Sema: the compared type of each Ops[i].
  std::vector<Type> OperandTys;
  static bool classof(const Expr *E) {
    return E->kind() == Kind::CompareChain;
  }
};

/// `Cond ? Then : Else`, Python `Then if Cond else Else`, Rust
/// `if Cond { Then } else { Else }` as an expression. Only the chosen arm
/// is evaluated.
class ConditionalExpr : public Expr {
public:
  ConditionalExpr(llvm::SMLoc Loc, ExprPtr Cond, ExprPtr Then, ExprPtr Else)
      : Expr(Kind::Conditional, Loc), Cond(std::move(Cond)),
        Then(std::move(Then)), Else(std::move(Else)) {}
  ExprPtr Cond, Then, Else;
  static bool classof(const Expr *E) { return E->kind() == Kind::Conditional; }
};

class FunctionDecl;

/// How Sema checks an intrinsic (Intrinsics.def, "Kind").
enum class IntrinsicKind : uint8_t {
  SpecialReg,
  GlobalId,
  NoArgU32,
  Barrier,
  Fence,
  Atomic,
  AtomicCas,
  WaveInt,
  Shuffle,
  Ballot,
  WaveBool,
  MathUnary,
  Abs,
  MinMax,
  Clamp,
  Fma,
  MmaLoad,
  MmaStore,
  MmaCompute,
};

/// One enumerator per row of Intrinsics.def, after None.
enum class IntrinsicId : uint8_t {
  None,
#define WAVE_INTRINSIC(Id, Name, Kind, WavePrefix, MirOp) Id,
#include "wave/HIR/Intrinsics.def"
};

/// The source spelling of \p Id ("thread_id"); empty for None.
llvm::StringRef intrinsicName(IntrinsicId Id);
IntrinsicKind intrinsicKind(IntrinsicId Id);
/// The intrinsic a callee name denotes: a row's Name, or `wave_` + Name
/// for the rows with WavePrefix; None otherwise.
IntrinsicId lookupIntrinsic(llvm::StringRef Name);

/// A call by name: an intrinsic (formats/kernel-languages.md,
/// "Intrinsics"), a cast written as a call (`f32(x)`, Python `int(x)`), or
/// a device function. The parser drops a `wave.` / `wave::` / `Math.`
/// qualifier; Loc is the callee name.
class CallExpr : public Expr {
public:
  CallExpr(llvm::SMLoc Loc, std::string Callee)
      : Expr(Kind::Call, Loc), Callee(std::move(Callee)) {}
  std::string Callee;
  std::vector<ExprPtr> Args;
  /// A method call `recv.name(args)` as parsed: Callee is the method's
  /// name and Args[0] the receiver. Sema resolves it through the
  /// receiver's struct type (Callee becomes "V2::name") and clears it.
  bool Method = false;
  /// Set by Sema: the device function called, or null for an intrinsic.
  const FunctionDecl *Target = nullptr;
  /// Set by Sema for an intrinsic (Intrinsics.def).
  IntrinsicId Intrinsic = IntrinsicId::None;
  static bool classof(const Expr *E) { return E->kind() == Kind::Call; }
};

/// `Base[Index]`: an element of a buffer or shared array. Loc is `[`.
class IndexExpr : public Expr {
public:
  IndexExpr(llvm::SMLoc Loc, ExprPtr Base, ExprPtr Index)
      : Expr(Kind::Index, Loc), Base(std::move(Base)), Index(std::move(Index)) {
  }
  ExprPtr Base, Index;
  static bool classof(const Expr *E) { return E->kind() == Kind::Index; }
};

/// A conversion to a scalar type: written (C `(float)x`, `static_cast`,
/// Rust `as`; Implicit false) or inserted by Sema (Implicit true).
class CastExpr : public Expr {
public:
  CastExpr(llvm::SMLoc Loc, Scalar To, ExprPtr Operand, bool Implicit = false)
      : Expr(Kind::Cast, Loc), To(To), Operand(std::move(Operand)),
        Implicit(Implicit) {}
  Scalar To;
  ExprPtr Operand;
  bool Implicit;
  static bool classof(const Expr *E) { return E->kind() == Kind::Cast; }
};

/// A struct literal `V2 { x: 1.0, y: e }`. Inits are in source order
/// (evaluated in that order); Sema sets each Field and checks that every
/// field is given once. Loc is the struct's name.
class StructLitExpr : public Expr {
public:
  StructLitExpr(llvm::SMLoc Loc, StructDecl *Struct)
      : Expr(Kind::StructLit, Loc), Struct(Struct) {}
  struct Init {
    llvm::SMLoc Loc; ///< The field's name.
    std::string Name;
    ExprPtr Value;
    int Field = -1; ///< Set by Sema.
  };
  /// Null for a tuple literal until Sema sets it.
  StructDecl *Struct;
  std::vector<Init> Inits;
  /// A tuple literal (Rust `(a, b)`): Inits are named "0", "1", ... and
  /// Sema takes Struct from what the literal initialises (a variable,
  /// parameter, return value or field of a tuple type with as many
  /// elements), else makes it from the elements' types (an unsuffixed
  /// literal taking the language's default). Loc is the `(`.
  bool Tuple = false;
  static bool classof(const Expr *E) { return E->kind() == Kind::StructLit; }
};

/// A field of a struct value, `Base.Name`. A member of a variable or
/// parameter (through any number of fields) may be assigned. Loc is the
/// field's name.
class MemberExpr : public Expr {
public:
  MemberExpr(llvm::SMLoc Loc, ExprPtr Base, std::string Name)
      : Expr(Kind::Member, Loc), Base(std::move(Base)), Name(std::move(Name)) {}
  ExprPtr Base;
  std::string Name;
  int Field = -1; ///< Set by Sema.
  static bool classof(const Expr *E) { return E->kind() == Kind::Member; }
};

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

class Stmt;
using StmtPtr = std::unique_ptr<Stmt>;

class Stmt {
public:
  enum class Kind : uint8_t {
    Block,
    VarDecl,
    SharedDecl,
    Assign,
    ExprStmt,
    If,
    While,
    For,
    ForRange,
    Break,
    Continue,
    Return,
  };
  virtual ~Stmt();
  Kind kind() const { return K; }
  llvm::SMLoc loc() const { return Loc; }

protected:
  Stmt(Kind K, llvm::SMLoc Loc) : K(K), Loc(Loc) {}

private:
  Kind K;
  llvm::SMLoc Loc;
};

/// `{ ... }`: a scope for C++, Rust and TypeScript declarations. Python
/// suites are blocks too (Python variables are function-scoped; Sema knows).
class BlockStmt : public Stmt {
public:
  explicit BlockStmt(llvm::SMLoc Loc) : Stmt(Kind::Block, Loc) {}
  std::vector<StmtPtr> Body;
  static bool classof(const Stmt *S) { return S->kind() == Kind::Block; }
};

/// A local variable: C++ `float x = e;`, Rust `let mut x: f32 = e;`,
/// TypeScript `let x: f32 = e;`, Python `x: f32 = e`. DeclaredTy is the
/// written type (std::nullopt: inferred from Init). Loc is the name.
///
/// Python's plain `x = e` to a name not yet bound is an AssignStmt; Sema
/// creates the VarDecl (Implicit) for it.
class VarDecl : public Stmt {
public:
  VarDecl(llvm::SMLoc Loc, std::string Name, std::optional<Scalar> DeclaredTy,
          ExprPtr Init, bool Mutable = true)
      : Stmt(Kind::VarDecl, Loc), Name(std::move(Name)),
        DeclaredTy(DeclaredTy), Init(std::move(Init)), Mutable(Mutable) {}
  std::string Name;
  std::optional<Scalar> DeclaredTy;
  /// A written struct type (DeclaredTy is then std::nullopt).
  const StructDecl *DeclaredStruct = nullptr;
  ExprPtr Init; ///< May be null (C++ `int x;`): the variable starts at 0.
  bool Mutable; ///< false for `const` (C++, TS) and Rust `let` without mut.
  bool Implicit = false; ///< Made by Sema for a Python first assignment.
  Type Ty;               ///< Set by Sema.
  static bool classof(const Stmt *S) { return S->kind() == Kind::VarDecl; }
};

/// A workgroup-shared array: Python `tile = shared(f32, 256)`, Rust
/// `let mut tile = shared(f32, 256);`, TypeScript `const tile =
/// shared(f32, 256);`, C++ `__shared__ float tile[256];`. Size must be a
/// constant expression (Sema folds it).
class SharedDecl : public Stmt {
public:
  SharedDecl(llvm::SMLoc Loc, std::string Name, Scalar Elem, ExprPtr Size)
      : Stmt(Kind::SharedDecl, Loc), Name(std::move(Name)), Elem(Elem),
        Size(std::move(Size)) {}
  std::string Name;
  Scalar Elem;
  ExprPtr Size;
  Type Ty;             ///< Set by Sema: Type::shared(Elem, N).
  uint32_t Offset = 0; ///< Set by Sema: byte offset in local memory.
  static bool classof(const Stmt *S) { return S->kind() == Kind::SharedDecl; }
};

/// `Target = Value` or a compound assignment `Target op= Value` (Op set;
/// also C++/TS `x++` / `x--` as Op Add/Sub with Value 1). Target is a
/// NameExpr, an IndexExpr or a MemberExpr. Loc is the operator.
class AssignStmt : public Stmt {
public:
  AssignStmt(llvm::SMLoc Loc, ExprPtr Target, ExprPtr Value,
             std::optional<BinaryOp> Op = std::nullopt)
      : Stmt(Kind::Assign, Loc), Target(std::move(Target)),
        Value(std::move(Value)), Op(Op) {}
  ExprPtr Target, Value;
  std::optional<BinaryOp> Op;
  /// Set by Sema for a compound assignment: the type the operation is done
  /// in (the result converts back to the target's type).
  Type OpTy;
  /// Set by Sema when this assignment declares a Python variable.
  VarDecl *Declares = nullptr;
  static bool classof(const Stmt *S) { return S->kind() == Kind::Assign; }
};

/// An expression evaluated for its effects (a call).
class ExprStmt : public Stmt {
public:
  ExprStmt(llvm::SMLoc Loc, ExprPtr E)
      : Stmt(Kind::ExprStmt, Loc), E(std::move(E)) {}
  ExprPtr E;
  static bool classof(const Stmt *S) { return S->kind() == Kind::ExprStmt; }
};

/// `if Cond Then else Else` (Else may be null). Python `elif` and C++
/// `else if` nest an IfStmt in Else.
class IfStmt : public Stmt {
public:
  IfStmt(llvm::SMLoc Loc, ExprPtr Cond, std::unique_ptr<BlockStmt> Then,
         StmtPtr Else)
      : Stmt(Kind::If, Loc), Cond(std::move(Cond)), Then(std::move(Then)),
        Else(std::move(Else)) {}
  ExprPtr Cond;
  std::unique_ptr<BlockStmt> Then;
  StmtPtr Else; ///< A BlockStmt, an IfStmt or null.
  static bool classof(const Stmt *S) { return S->kind() == Kind::If; }
};

/// `while Cond Body`; DoWhile: `do Body while (Cond);`. Rust `loop` is a
/// While with Cond a BoolLit true.
class WhileStmt : public Stmt {
public:
  WhileStmt(llvm::SMLoc Loc, ExprPtr Cond, std::unique_ptr<BlockStmt> Body,
            bool DoWhile = false)
      : Stmt(Kind::While, Loc), Cond(std::move(Cond)), Body(std::move(Body)),
        DoWhile(DoWhile) {}
  ExprPtr Cond;
  std::unique_ptr<BlockStmt> Body;
  bool DoWhile;
  static bool classof(const Stmt *S) { return S->kind() == Kind::While; }
};

/// C-style `for (Init; Cond; Step) Body` (C++, TypeScript). Init is a
/// VarDecl, an AssignStmt, an ExprStmt or null; Cond may be null (true);
/// Step is an AssignStmt, an ExprStmt or null. `continue` runs Step.
class ForStmt : public Stmt {
public:
  explicit ForStmt(llvm::SMLoc Loc) : Stmt(Kind::For, Loc) {}
  StmtPtr Init;
  ExprPtr Cond;
  StmtPtr Step;
  std::unique_ptr<BlockStmt> Body;
  static bool classof(const Stmt *S) { return S->kind() == Kind::For; }
};

/// A counted loop over a half-open range: Python `for i in range(a, b, s)`,
/// Rust `for i in a..b` / `(a..b).step_by(s)` / `a..=b` (Inclusive).
/// Start, End and Step are evaluated once, before the first iteration
/// (Start defaults to 0 and Step to 1 when null). The loop variable is
/// declared by the loop (Var) and assigned from a hidden counter at the top
/// of every iteration, so the body may change it without changing the
/// iteration. A negative constant Step counts down (Python).
class ForRangeStmt : public Stmt {
public:
  ForRangeStmt(llvm::SMLoc Loc, std::string VarName, llvm::SMLoc VarLoc)
      : Stmt(Kind::ForRange, Loc), Var(std::make_unique<VarDecl>(
                                       VarLoc, std::move(VarName),
                                       std::nullopt, nullptr)) {}
  std::unique_ptr<VarDecl> Var;
  ExprPtr Start, End, Step;
  bool Inclusive = false;
  std::unique_ptr<BlockStmt> Body;
  static bool classof(const Stmt *S) { return S->kind() == Kind::ForRange; }
};

class BreakStmt : public Stmt {
public:
  explicit BreakStmt(llvm::SMLoc Loc) : Stmt(Kind::Break, Loc) {}
  static bool classof(const Stmt *S) { return S->kind() == Kind::Break; }
};

class ContinueStmt : public Stmt {
public:
  explicit ContinueStmt(llvm::SMLoc Loc) : Stmt(Kind::Continue, Loc) {}
  static bool classof(const Stmt *S) { return S->kind() == Kind::Continue; }
};

/// `return` or `return Value` (Rust: also a block's tail expression).
class ReturnStmt : public Stmt {
public:
  ReturnStmt(llvm::SMLoc Loc, ExprPtr Value)
      : Stmt(Kind::Return, Loc), Value(std::move(Value)) {}
  ExprPtr Value; ///< May be null.
  static bool classof(const Stmt *S) { return S->kind() == Kind::Return; }
};

//===----------------------------------------------------------------------===//
// Functions and modules
//===----------------------------------------------------------------------===//

/// A parameter: a buffer (Type::buffer), a scalar or a struct. Loc is
/// the name.
class Param {
public:
  Param(llvm::SMLoc Loc, std::string Name, Type Ty, bool Mutable = true)
      : Loc(Loc), Name(std::move(Name)), Ty(Ty), Mutable(Mutable) {}
  llvm::SMLoc Loc;
  std::string Name;
  Type Ty;
  /// Whether the body may assign the parameter itself (C++ `const int n`
  /// and Rust parameters without `mut` may not).
  bool Mutable;
  /// A struct or scalar parameter that refers to the caller's value
  /// instead of copying it (Rust `&self`, `&mut self`, C++ `T& x`;
  /// Mutable for `&mut self`, `T&`): a Mutable one's argument must be a
  /// variable or parameter or a field of one. The function is inlined
  /// (FunctionDecl::isInlined), so neither a kernel nor an exported or
  /// declared function has one.
  bool ByRef = false;
};

/// How a device function relates to other objects
/// (formats/kernel-languages.md §1, "External and exported functions";
/// MIR `func` / `export func` / `declare func`, formats/mir.md).
enum class Linkage : uint8_t {
  Internal,    ///< Private to the file (inlined, dropped when unused).
  Export,      ///< Defined here and callable from other objects.
  Declaration, ///< No body: defined in another object.
};

/// A kernel (entry point) or a device function.
class FunctionDecl {
public:
  FunctionDecl(llvm::SMLoc Loc, std::string Name, bool IsKernel)
      : Loc(Loc), Name(std::move(Name)), IsKernel(IsKernel) {}
  llvm::SMLoc Loc; ///< The function's name.
  std::string Name;
  bool IsKernel;
  /// Set by the parser from the dialect's export or declaration marker.
  /// A Declaration has no Body.
  Linkage Link = Linkage::Internal;
  /// The export marker (decorator, attribute, comment), for diagnostics;
  /// unset when there is none.
  llvm::SMLoc ExportLoc;
  /// Where the body ends: the closing `}` (C++, Rust, TypeScript), the end
  /// of the body's last line (Python). The implicit return at the end of
  /// the function gets this position. Unset for declarations.
  llvm::SMLoc EndLoc;
  bool isDeclaration() const { return Link == Linkage::Declaration; }
  std::vector<Param> Params;
  Type ReturnTy = Type::voidType();
  /// Kernels: the workgroup size the source gave (decorator, attribute or
  /// comment), in threads; std::nullopt means the --workgroup-size default.
  std::optional<std::array<uint32_t, 3>> WorkgroupSize;
  std::unique_ptr<BlockStmt> Body;
  /// Set by Sema: bytes of workgroup-shared memory the function declares.
  uint32_t SharedBytes = 0;
  /// Made by Sema: the variables Python declares by assigning a new name
  /// (AssignStmt::Declares points here).
  std::vector<std::unique_ptr<VarDecl>> ImplicitVars;
  /// A method or associated function: the struct whose `impl` defines it
  /// (its Name is then "V2::name").
  const StructDecl *Owner = nullptr;
  /// For a method of an operator-trait impl (`impl Add for V2`): the
  /// trait's name ("Add"); Sema dispatches `a + b` on V2 to it.
  std::string Trait;
  /// Whether lowering inlines every call instead of making a MIR function:
  /// methods, functions that take or return a struct (MIR has no
  /// aggregates, and a MIR function returns one value) and functions with
  /// a by-reference parameter (Param::ByRef: MIR passes values).
  bool isInlined() const;
};

/// One source file: its functions in source order.
class Module {
public:
  explicit Module(Language Lang) : Lang(Lang) {}
  Language Lang;
  std::vector<std::unique_ptr<FunctionDecl>> Functions;
  /// Plain-data structs in order of first mention.
  std::vector<std::unique_ptr<StructDecl>> Structs;
  /// The function named \p Name, or null.
  FunctionDecl *function(llvm::StringRef Name) const;
  /// The struct named \p Name, or null.
  StructDecl *structNamed(llvm::StringRef Name) const;
  /// The struct named \p Name, made (undefined, first mentioned at \p Loc)
  /// if there is none yet.
  StructDecl *getStruct(llvm::StringRef Name, llvm::SMLoc Loc);
  /// The tuple type of \p Elems (scalars and structs, at least one): a
  /// defined StructDecl with Tuple set, named "(f32, u32)" (a 1-tuple
  /// "(f32,)"), made at its first use (\p Loc) and shared by every use.
  StructDecl *getTuple(llvm::ArrayRef<Type> Elems, llvm::SMLoc Loc);
};

} // namespace wave::hir

#endif // WAVE_HIR_HIR_H
