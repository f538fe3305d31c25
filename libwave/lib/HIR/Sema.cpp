//===- Sema.cpp - Names, types and statements of HIR ----------------------===//
//
// The type rules are those of formats/kernel-languages.md ("Types and
// conversions"): number literals take the type their context asks for;
// operands of different types promote (Python, C++) or must match (Rust,
// TypeScript); implicit conversions become CastExpr nodes so that lowering
// never guesses.
//
//===----------------------------------------------------------------------===//
#include "SemaInternal.h"

#include "wave/HIR/Sema.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <cassert>

using namespace wave::hir;
using llvm::cast;
using llvm::dyn_cast;
using llvm::isa;

const LanguageRules &wave::hir::rulesFor(Language L) {
  //                                 Promote Widen Narrow Truth Infer
  static const LanguageRules Python{true, true, false, true, true,
                                    Scalar::I32, Scalar::F32, "T(x)",
                                    "Python"};
  static const LanguageRules Cpp{true, true, true, true, false,
                                 Scalar::I32, Scalar::F64,
                                 "static_cast<T>(x)", "C++"};
  static const LanguageRules Rust{false, false, false, false, true,
                                  Scalar::I32, Scalar::F64, "x as T", "Rust"};
  // TypeScript: a literal nothing gives a type is a JavaScript number, f64.
  static const LanguageRules TypeScript{false, false, false, true, true,
                                        Scalar::F64, Scalar::F64, "T(x)",
                                        "TypeScript"};
  switch (L) {
  case Language::Python:
    return Python;
  case Language::Cpp:
    return Cpp;
  case Language::Rust:
    return Rust;
  case Language::TypeScript:
    return TypeScript;
  }
  return Python;
}

llvm::SMLoc Binding::loc() const {
  if (Var)
    return Var->loc();
  if (Parm)
    return Parm->Loc;
  return Shared ? Shared->loc() : llvm::SMLoc();
}

/// Promotion rank: bool < i32 < u32 < f16 < f32 < f64.
/// Why `%` and `//` reject f64 operands: WAVE has no f64 remainder, floor or
/// truncation (formats/isa.md §2.6; formats/kernel-languages.md §3).
static constexpr llvm::StringLiteral NoF64Op =
    "not supported on f64 (WAVE's f64 operations are add, sub, mul, fma, div "
    "and sqrt: formats/isa.md §2.6)";

static unsigned rank(Scalar S) { return unsigned(S); }

static std::string quoted(const Type &T) { return "'" + typeName(T) + "'"; }
static std::string quoted(Scalar S) { return "'" + scalarName(S).str() + "'"; }

std::string Sema::castHint(Scalar To) const {
  std::string S = Rules.CastPattern;
  size_t T = S.find('T');
  return S.replace(T, 1, scalarName(To).str());
}

bool Sema::implicitlyConverts(Scalar From, Scalar To) const {
  if (From == To || Rules.ImplicitNarrow)
    return true;
  return Rules.ImplicitWiden && rank(To) > rank(From);
}

std::optional<Scalar> Sema::defaultScalar(const Type &T, llvm::SMLoc Loc) {
  if (T.isScalar())
    return T.Elem;
  std::optional<Scalar> D =
      T.K == Type::IntLiteral ? Rules.DefaultInt : Rules.DefaultFloat;
  if (!D)
    Diags.error(Loc, "this number literal has no type here: " +
                         llvm::Twine(Rules.DisplayName) +
                         " number literals take the type of what they are "
                         "combined with or assigned to; annotate the "
                         "variable (for example 'let x: u32 = 0') or convert "
                         "it (" +
                         castHint(Scalar::U32) + ")");
  return D;
}

std::optional<int64_t> Sema::evalConstInt(const Expr &E) {
  if (const auto *L = dyn_cast<IntLitExpr>(&E))
    return L->Value > uint64_t(INT64_MAX) ? std::nullopt
                                          : std::optional<int64_t>(L->Value);
  if (const auto *U = dyn_cast<UnaryExpr>(&E)) {
    auto V = evalConstInt(*U->Operand);
    if (!V)
      return std::nullopt;
    if (U->Op == UnaryOp::Neg)
      return -*V;
    if (U->Op == UnaryOp::Plus)
      return V;
    return std::nullopt;
  }
  if (const auto *C = dyn_cast<CastExpr>(&E))
    return isIntegerScalar(C->To) ? evalConstInt(*C->Operand) : std::nullopt;
  const auto *B = dyn_cast<BinaryExpr>(&E);
  if (!B)
    return std::nullopt;
  auto L = evalConstInt(*B->LHS), R = evalConstInt(*B->RHS);
  if (!L || !R)
    return std::nullopt;
  // Keep intermediate values far from overflow: anything beyond 2^40 is
  // out of every 32-bit range anyway.
  constexpr int64_t Big = int64_t(1) << 40;
  auto Clamp = [&](int64_t V) -> std::optional<int64_t> {
    if (V > Big || V < -Big)
      return std::nullopt;
    return V;
  };
  if (*L > Big || *L < -Big || *R > Big || *R < -Big)
    return std::nullopt;
  switch (B->Op) {
  case BinaryOp::Add:
    return Clamp(*L + *R);
  case BinaryOp::Sub:
    return Clamp(*L - *R);
  case BinaryOp::Mul:
    return Clamp(*L * *R);
  case BinaryOp::Div:
  case BinaryOp::FloorDiv:
    return *R ? std::optional<int64_t>(*L / *R) : std::nullopt;
  case BinaryOp::Rem:
    return *R ? std::optional<int64_t>(*L % *R) : std::nullopt;
  case BinaryOp::Shl:
    return *R >= 0 && *R < 40 ? Clamp(*L << *R) : std::nullopt;
  case BinaryOp::Shr:
  case BinaryOp::LShr:
    return *R >= 0 && *R < 63 ? std::optional<int64_t>(*L >> *R)
                              : std::nullopt;
  case BinaryOp::BitAnd:
    return *L & *R;
  case BinaryOp::BitOr:
    return *L | *R;
  case BinaryOp::BitXor:
    return *L ^ *R;
  default:
    return std::nullopt;
  }
}

//===----------------------------------------------------------------------===//
// Scopes
//===----------------------------------------------------------------------===//

void Sema::declare(llvm::StringRef Name, Binding B, llvm::SMLoc Loc) {
  llvm::StringMap<Binding> &Scope = Scopes.back();
  auto [It, New] = Scope.try_emplace(Name, B);
  if (New)
    return;
  // Rust shadows; a Python name is one variable per function (handled by
  // the caller); C++ and TypeScript reject a second declaration.
  if (M.Lang == Language::Rust) {
    It->second = B;
    return;
  }
  Diags.error(Loc, "redeclaration of '" + Name + "'");
  Diags.note(It->second.loc(), "'" + Name + "' is first declared here");
}

const Binding *Sema::lookup(llvm::StringRef Name) const {
  for (auto It = Scopes.rbegin(); It != Scopes.rend(); ++It) {
    auto F = It->find(Name);
    if (F != It->end())
      return &F->second;
  }
  return nullptr;
}

//===----------------------------------------------------------------------===//
// Conversions
//===----------------------------------------------------------------------===//

/// The 32-bit integer type in which the literal operation \p E is computed
/// when its context makes it a number of float type \p To: bitwise
/// operators and shifts work on integers only (JavaScript's ToInt32 values;
/// `>>>` on a ToUint32 value), and in TypeScript `%` of two integer
/// literals, which WAVE cannot do in f64, has the same value in i32.
/// std::nullopt for anything else.
static std::optional<Scalar> literalIntegerType(const Expr &E, Scalar To,
                                                Language Lang) {
  if (const auto *U = dyn_cast<UnaryExpr>(&E))
    return U->Op == UnaryOp::BitNot ? std::optional<Scalar>(Scalar::I32)
                                    : std::nullopt;
  const auto *B = dyn_cast<BinaryExpr>(&E);
  if (!B)
    return std::nullopt;
  switch (B->Op) {
  case BinaryOp::BitAnd:
  case BinaryOp::BitOr:
  case BinaryOp::BitXor:
  case BinaryOp::Shl:
  case BinaryOp::Shr:
    return Scalar::I32;
  case BinaryOp::LShr:
    return Scalar::U32;
  case BinaryOp::Rem:
    return Lang == Language::TypeScript && To == Scalar::F64 &&
                   E.Ty.K == Type::IntLiteral
               ? std::optional<Scalar>(Scalar::I32)
               : std::nullopt;
  default:
    return std::nullopt;
  }
}

void Sema::settleLiteral(ExprPtr &E, const Type &T) {
  if (!E || !E->Ty.isLiteral())
    return;
  if (T.isFloat()) {
    // An integer operation of literals in a float context: computed in i32
    // or u32 and converted where the language converts integers to floats
    // implicitly (TypeScript: formats/kernel-languages.md §12, "Numbers").
    if (std::optional<Scalar> Int = literalIntegerType(*E, T.Elem, M.Lang)) {
      settleLiteral(E, Type::scalar(*Int));
      if (M.Lang != Language::TypeScript &&
          !implicitlyConverts(*Int, T.Elem)) {
        Diags.error(E->loc(), "an integer operation on literals cannot be " +
                                  quoted(T.Elem) +
                                  " here; convert it explicitly");
        return;
      }
      if (!Quiet) {
        llvm::SMLoc Loc = E->loc();
        E = std::make_unique<CastExpr>(Loc, T.Elem, std::move(E),
                                       /*Implicit=*/true);
        E->Ty = T;
      }
      return;
    }
    if (const auto *B = dyn_cast<BinaryExpr>(E.get());
        B && B->Op == BinaryOp::Rem && T.isScalar(Scalar::F64))
      Diags.error(B->loc(), "'%' of a float literal is an f64 remainder, "
                            "which WAVE lacks (formats/isa.md §2.6); "
                            "convert an operand to f32: f32(x)");
  }
  E->Ty = T;
  switch (E->kind()) {
  case Expr::Kind::Unary:
    settleLiteral(cast<UnaryExpr>(*E).Operand, T);
    return;
  case Expr::Kind::Binary: {
    auto &B = cast<BinaryExpr>(*E);
    if (isComparison(B.Op))
      return;
    // Both operands take the type, the shift count included (as
    // checkBinary converts a typed count to the shifted operand's type).
    B.OperandTy = T;
    settleLiteral(B.LHS, T);
    settleLiteral(B.RHS, T);
    return;
  }
  case Expr::Kind::Conditional: {
    auto &C = cast<ConditionalExpr>(*E);
    settleLiteral(C.Then, T);
    settleLiteral(C.Else, T);
    return;
  }
  case Expr::Kind::Name: {
    // A variable still waiting for its type (pass 1): this use decides.
    auto &N = cast<NameExpr>(*E);
    if (N.Var && T.isScalar() && Rules.InferFromUse)
      Inferred.try_emplace(N.Var, T.Elem);
    return;
  }
  default:
    return;
  }
}

bool Sema::coerce(ExprPtr &E, Scalar To, const llvm::Twine &What,
                  bool Explicit) {
  const Type T = E->Ty;
  if (T.isInvalid())
    return false;
  if (T.isLiteral()) {
    bool ToFloat = isFloatScalar(To);
    if (T.K == Type::IntLiteral && To != Scalar::Bool) {
      settleLiteral(E, Type::scalar(To));
      if (auto V = evalConstInt(*E); V && (*V < INT32_MIN || *V > UINT32_MAX) &&
                                     !ToFloat) {
        Diags.error(E->loc(), "integer constant " + std::to_string(*V) +
                                  " does not fit in " + quoted(To));
        return false;
      }
      return true;
    }
    if (T.K == Type::FloatLiteral && ToFloat) {
      settleLiteral(E, Type::scalar(To));
      return true;
    }
    // A float literal becoming an integer, or a number becoming a bool.
    Scalar Via = T.K == Type::IntLiteral ? Scalar::I32 : Scalar::F32;
    if (!Explicit && !implicitlyConverts(Via, To)) {
      Diags.error(E->loc(), "cannot use a " + typeName(T) + " as " +
                                quoted(To) + " in " + What);
      return false;
    }
    settleLiteral(E, Type::scalar(Via)); // Now a typed Via value.
    return coerce(E, To, What, Explicit);
  }
  if (T.isArray()) {
    Diags.error(E->loc(), "a " + typeName(T) +
                              " is not a value; index it to use an element (" +
                              What + ")");
    return false;
  }
  if (T.isVoid()) {
    Diags.error(E->loc(), "a call that returns nothing used as a value in " +
                              What);
    return false;
  }
  if (T.Elem == To)
    return true;
  if (!Explicit && !implicitlyConverts(T.Elem, To)) {
    // TypeScript: a number (f64) never narrows silently; say how to write
    // it (formats/kernel-languages.md §12, "Numbers").
    if (M.Lang == Language::TypeScript && T.Elem == Scalar::F64 &&
        To != Scalar::Bool) {
      Diags.error(E->loc(), "narrowing " + quoted(T) + " to " + quoted(To) +
                                " must be explicit in " + What + "; write " +
                                scalarName(To) + "(...)");
      return false;
    }
    Diags.error(E->loc(), "cannot convert " + quoted(T) + " to " + quoted(To) +
                              " implicitly in " + What +
                              "; convert it explicitly: " + castHint(To));
    return false;
  }
  if (!Quiet) {
    llvm::SMLoc Loc = E->loc();
    E = std::make_unique<CastExpr>(Loc, To, std::move(E), /*Implicit=*/true);
    E->Ty = Type::scalar(To);
  }
  return true;
}

/// The type of a literal that meets only literals (compared with one, or
/// used as a condition): i32 for an integer literal; f32 for a float
/// literal, f64 in TypeScript, where it is a JavaScript number
/// (formats/kernel-languages.md §12, "Numbers").
static Scalar bareLiteralScalar(const Type &T, Language L) {
  if (T.K == Type::IntLiteral)
    return Scalar::I32;
  return L == Language::TypeScript ? Scalar::F64 : Scalar::F32;
}

bool Sema::coerceToBool(ExprPtr &E, const llvm::Twine &What) {
  const Type T = E->Ty;
  if (T.isInvalid() || T.isBool())
    return !T.isInvalid();
  if (T.isNumeric() && Rules.Truthiness) {
    if (T.isLiteral())
      settleLiteral(E, Type::scalar(bareLiteralScalar(T, M.Lang)));
    return coerce(E, Scalar::Bool, What, /*Explicit=*/true);
  }
  Diags.error(E->loc(), "expected a bool in " + What + ", found " +
                            quoted(T) +
                            (T.isNumeric() ? "; compare it explicitly "
                                             "(for example 'x != 0')"
                                           : ""));
  return false;
}

Type Sema::unify(const Type &L, const Type &R, llvm::SMLoc Loc,
                 llvm::StringRef Op) {
  if (L.isInvalid() || R.isInvalid())
    return Type::invalid();
  auto Bad = [&](const llvm::Twine &Why) {
    Diags.error(Loc, "invalid operands to '" + Op + "' (" + quoted(L) +
                         " and " + quoted(R) + "): " + Why);
    return Type::invalid();
  };
  for (const Type *T : {&L, &R}) {
    if (T->isArray())
      return Bad("a buffer or shared array is not a value; index it");
    if (T->isVoid())
      return Bad("a call that returns nothing has no value");
  }
  if (L.isLiteral() && R.isLiteral())
    return L.K == Type::IntLiteral && R.K == Type::IntLiteral
               ? Type::intLiteral()
               : Type::floatLiteral();
  if (L.isLiteral() || R.isLiteral()) {
    const Type &Lit = L.isLiteral() ? L : R;
    const Type &Typed = L.isLiteral() ? R : L;
    if (Typed.isBool())
      return Bad("a bool does not mix with numbers");
    if (Lit.K == Type::IntLiteral || Typed.isFloat())
      return Typed;
    // A float literal meets an integer.
    if (!Rules.PromoteMixed)
      return Bad("a float literal does not mix with an integer; convert the "
                 "integer: " +
                 castHint(Scalar::F32));
    return Type::scalar(*Rules.DefaultFloat);
  }
  if (L == R)
    return L;
  if (L.isBool() != R.isBool() && !Rules.PromoteMixed)
    return Bad("a bool does not mix with numbers");
  if (!Rules.PromoteMixed)
    return Bad(llvm::Twine(Rules.DisplayName) +
               " does not convert between number types implicitly; convert "
               "one side, for example " +
               castHint(rank(L.Elem) >= rank(R.Elem) ? L.Elem : R.Elem));
  return rank(L.Elem) >= rank(R.Elem) ? L : R;
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

Type Sema::checkExpr(ExprPtr &E) {
  if (!enterNesting(E->loc()))
    return E->Ty = Type::invalid();
  Type T = checkExprNode(E);
  --NestDepth;
  return T;
}

bool Sema::enterNesting(llvm::SMLoc Loc) {
  if (NestDepth >= MaxNestDepth) {
    if (!NestTooDeep)
      Diags.error(Loc, "expressions and statements nested more than " +
                           llvm::Twine(MaxNestDepth) +
                           " levels deep (split the expression or the "
                           "chain of branches)");
    NestTooDeep = true;
    return false;
  }
  ++NestDepth;
  return true;
}

Type Sema::checkExprNode(ExprPtr &E) {
  Type T;
  switch (E->kind()) {
  case Expr::Kind::IntLit: {
    auto &L = cast<IntLitExpr>(*E);
    T = L.Suffix ? Type::scalar(*L.Suffix) : Type::intLiteral();
    if (L.Value > UINT32_MAX) {
      Diags.error(L.loc(), "integer literal " + std::to_string(L.Value) +
                               " does not fit in 32 bits");
      T = Type::invalid();
    }
    break;
  }
  case Expr::Kind::FloatLit: {
    auto &L = cast<FloatLitExpr>(*E);
    T = L.Suffix ? Type::scalar(*L.Suffix) : Type::floatLiteral();
    break;
  }
  case Expr::Kind::BoolLit:
    T = Type::scalar(Scalar::Bool);
    break;
  case Expr::Kind::Name:
    T = checkName(cast<NameExpr>(*E));
    break;
  case Expr::Kind::Unary:
    T = checkUnary(cast<UnaryExpr>(*E), E);
    if (!isa<UnaryExpr>(*E))
      return T; // An operator trait's method call (checkOperatorCall).
    break;
  case Expr::Kind::Binary:
    T = checkBinary(cast<BinaryExpr>(*E), E);
    if (!isa<BinaryExpr>(*E))
      return T;
    break;
  case Expr::Kind::CompareChain:
    T = checkCompareChain(cast<CompareChainExpr>(*E));
    break;
  case Expr::Kind::Conditional:
    T = checkConditional(cast<ConditionalExpr>(*E));
    break;
  case Expr::Kind::Call:
    return checkCall(cast<CallExpr>(*E), E);
  case Expr::Kind::Index:
    T = checkIndex(cast<IndexExpr>(*E));
    break;
  case Expr::Kind::Cast:
    T = checkCast(cast<CastExpr>(*E));
    break;
  case Expr::Kind::StructLit:
    T = checkStructLit(cast<StructLitExpr>(*E));
    break;
  case Expr::Kind::Member:
    T = checkMember(cast<MemberExpr>(*E));
    break;
  }
  E->Ty = T;
  return T;
}

Type Sema::checkName(NameExpr &N) {
  N.Var = nullptr;
  N.Parm = nullptr;
  N.Shared = nullptr;
  const Binding *B = lookup(N.Name);
  if (!B) {
    if (M.function(N.Name))
      Diags.error(N.loc(), "function '" + N.Name +
                               "' used as a value; call it: " + N.Name +
                               "(...)");
    else
      Diags.error(N.loc(), "use of undeclared name '" + N.Name + "'");
    return Type::invalid();
  }
  N.Var = B->Var;
  N.Parm = B->Parm;
  N.Shared = B->Shared;
  if (B->Var)
    return B->Var->Ty;
  if (B->Parm)
    return B->Parm->Ty;
  return B->Shared->Ty;
}

Type Sema::checkUnary(UnaryExpr &U, ExprPtr &Self) {
  Type T = checkExpr(U.Operand);
  if (T.isInvalid())
    return T;
  if (T.isStruct() && U.Op == UnaryOp::Neg)
    return checkOperatorCall(Self, U.loc(), "-", "Neg", U.Operand, nullptr);
  llvm::StringRef Sp = unaryOpSpelling(U.Op);
  auto Bad = [&](const llvm::Twine &Why) {
    Diags.error(U.loc(), "invalid operand to unary '" + Sp + "' (" +
                             quoted(T) + "): " + Why);
    return Type::invalid();
  };
  UnaryOp Op = U.Op;
  if (Op == UnaryOp::RustNot)
    Op = T.isBool() ? UnaryOp::LogicalNot : UnaryOp::BitNot;
  switch (Op) {
  case UnaryOp::Neg:
  case UnaryOp::Plus:
    if (!T.isNumeric())
      return Bad("expected a number");
    return T;
  case UnaryOp::BitNot:
    if (T.K == Type::IntLiteral || T.isInteger())
      return T;
    return Bad("expected an integer");
  case UnaryOp::LogicalNot:
    if (!coerceToBool(U.Operand, "the operand of '" + Sp + "'"))
      return Type::invalid();
    return Type::scalar(Scalar::Bool);
  case UnaryOp::RustNot:
    break;
  }
  return Type::invalid();
}

Type Sema::checkBinary(BinaryExpr &B, ExprPtr &Self) {
  llvm::StringRef Sp = binaryOpSpelling(B.Op);
  if (B.Op == BinaryOp::LogicalAnd || B.Op == BinaryOp::LogicalOr) {
    checkExpr(B.LHS);
    checkExpr(B.RHS);
    bool Ok = coerceToBool(B.LHS, "the left operand of '" + Sp + "'");
    Ok &= coerceToBool(B.RHS, "the right operand of '" + Sp + "'");
    B.OperandTy = Type::scalar(Scalar::Bool);
    return Ok ? Type::scalar(Scalar::Bool) : Type::invalid();
  }
  Type L = checkExpr(B.LHS), R = checkExpr(B.RHS);
  if (L.isInvalid() || R.isInvalid())
    return Type::invalid();
  if (L.isStruct()) {
    llvm::StringRef Trait = llvm::StringSwitch<llvm::StringRef>(Sp)
                                .Case("+", "Add")
                                .Case("-", "Sub")
                                .Case("*", "Mul")
                                .Case("/", "Div")
                                .Case("%", "Rem")
                                .Default("");
    return checkOperatorCall(Self, B.loc(), Sp, Trait, B.LHS, &B.RHS);
  }
  if (R.isStruct()) {
    Diags.error(B.loc(), "invalid operands to '" + Sp + "' (" + quoted(L) +
                             " and " + quoted(R) +
                             "): a struct operator takes the struct on "
                             "the left");
    return Type::invalid();
  }

  if (B.Op == BinaryOp::Shl || B.Op == BinaryOp::Shr ||
      B.Op == BinaryOp::LShr) {
    auto IsInt = [](const Type &T) {
      return T.K == Type::IntLiteral || T.isInteger();
    };
    if (!IsInt(L) || !IsInt(R)) {
      Diags.error(B.loc(), "invalid operands to '" + Sp + "' (" + quoted(L) +
                               " and " + quoted(R) +
                               "): shifts take integers");
      return Type::invalid();
    }
    Type T = L.isLiteral() ? (R.isLiteral() ? L : R) : L;
    // JavaScript's '>>>' reads its left operand as unsigned.
    if (B.Op == BinaryOp::LShr && T.isScalar(Scalar::I32)) {
      coerce(B.LHS, Scalar::I32, "'>>>'");
      T = Type::scalar(Scalar::U32);
    }
    B.OperandTy = T;
    if (T.isScalar()) {
      if (B.Op == BinaryOp::LShr && L.isScalar(Scalar::I32))
        coerce(B.LHS, Scalar::U32, "'>>>'", /*Explicit=*/true);
      else
        coerce(B.LHS, T.Elem, "the left operand of '" + Sp + "'");
      // The shift count converts freely (Rust allows any integer type).
      coerce(B.RHS, T.Elem, "the shift count", /*Explicit=*/true);
    }
    return T;
  }

  Type T = unify(L, R, B.loc(), Sp);
  if (T.isInvalid())
    return T;
  auto Bad = [&](const llvm::Twine &Why) {
    Diags.error(B.loc(), "invalid operands to '" + Sp + "' (" + quoted(L) +
                             " and " + quoted(R) + "): " + Why);
    return Type::invalid();
  };
  bool IsBool = T.isBool();
  bool IsFloat = T.K == Type::FloatLiteral || T.isFloat();
  if (isComparison(B.Op)) {
    if (IsBool && B.Op != BinaryOp::Eq && B.Op != BinaryOp::Ne)
      return Bad("bools are only compared with == and !=");
    // f64 compares, which WAVE lacks (formats/isa.md §2.8), are lowered to
    // dsub, dmul, cvt and fcmp (Lowering.cpp, emitCompareF64).
    // Two literals compare as i32 or f32 (TypeScript: f64).
    if (T.isLiteral())
      T = Type::scalar(bareLiteralScalar(T, M.Lang));
  } else {
    switch (B.Op) {
    case BinaryOp::BitAnd:
    case BinaryOp::BitOr:
    case BinaryOp::BitXor:
      if (IsFloat)
        return Bad("bitwise operators take integers or bools");
      break;
    case BinaryOp::Rem:
    case BinaryOp::FloorDiv:
      if (T.isScalar(Scalar::F64))
        return Bad(NoF64Op);
      [[fallthrough]];
    default:
      if (IsBool)
        return Bad("arithmetic on bool");
      break;
    }
  }
  B.OperandTy = T;
  if (T.isScalar()) {
    coerce(B.LHS, T.Elem, "the left operand of '" + Sp + "'");
    coerce(B.RHS, T.Elem, "the right operand of '" + Sp + "'");
  }
  return isComparison(B.Op) ? Type::scalar(Scalar::Bool) : T;
}

Type Sema::checkCompareChain(CompareChainExpr &C) {
  for (ExprPtr &E : C.Operands)
    checkExpr(E);
  C.OperandTys.clear();
  bool Ok = true;
  for (size_t I = 0; I < C.Ops.size(); ++I) {
    const Type &L = C.Operands[I]->Ty, &R = C.Operands[I + 1]->Ty;
    llvm::StringRef Sp = binaryOpSpelling(C.Ops[I]);
    Type T = unify(L, R, C.OpLocs[I], Sp);
    if (T.isLiteral())
      T = Type::scalar(T.K == Type::IntLiteral ? Scalar::I32 : Scalar::F32);
    if (T.isBool() && C.Ops[I] != BinaryOp::Eq && C.Ops[I] != BinaryOp::Ne) {
      Diags.error(C.OpLocs[I], "bools are only compared with == and !=");
      T = Type::invalid();
    }
    Ok &= !T.isInvalid();
    C.OperandTys.push_back(T);
  }
  if (!Ok)
    return Type::invalid();
  // Each operand is evaluated once; a literal takes the type of the first
  // comparison it is in, and lowering converts values per comparison.
  for (size_t I = 0; I < C.Operands.size(); ++I) {
    const Type &T = C.OperandTys[I == 0 ? 0 : I - 1];
    if (C.Operands[I]->Ty.isLiteral())
      coerce(C.Operands[I], T.Elem, "a comparison");
    else if (C.Operands[I]->Ty.isArray() || C.Operands[I]->Ty.isVoid())
      return Type::invalid();
  }
  return Type::scalar(Scalar::Bool);
}

Type Sema::checkConditional(ConditionalExpr &C) {
  checkExpr(C.Cond);
  bool Ok = coerceToBool(C.Cond, "the condition of a conditional expression");
  Type A = checkExpr(C.Then), B = checkExpr(C.Else);
  if (!Ok || A.isInvalid() || B.isInvalid())
    return Type::invalid();
  if (A.isStruct() || B.isStruct()) {
    if (A == B)
      return A;
    Diags.error(C.loc(), "the branches of a conditional value have "
                         "different types (" +
                             quoted(A) + " and " + quoted(B) + ")");
    return Type::invalid();
  }
  if (A.isBool() && B.isBool())
    return A;
  Type T = unify(A, B, C.loc(), "?:");
  if (T.isScalar()) {
    coerce(C.Then, T.Elem, "a conditional expression");
    coerce(C.Else, T.Elem, "a conditional expression");
  }
  return T;
}

Type Sema::checkIndex(IndexExpr &X) {
  Type Base = checkExpr(X.Base);
  Type Idx = checkExpr(X.Index);
  if (Base.isInvalid() || Idx.isInvalid())
    return Type::invalid();
  if (!Base.isArray() || !isa<NameExpr>(*X.Base)) {
    Diags.error(X.loc(), "only buffers and shared arrays can be indexed, not " +
                             quoted(Base));
    return Type::invalid();
  }
  if (Idx.K == Type::IntLiteral) {
    if (auto V = evalConstInt(*X.Index); V && *V < 0) {
      Diags.error(X.Index->loc(), "negative index " + std::to_string(*V));
      return Type::invalid();
    }
    coerce(X.Index, Scalar::U32, "an index");
  } else if (!Idx.isInteger()) {
    Diags.error(X.Index->loc(),
                "an index must be an integer, not " + quoted(Idx) +
                    (Idx.isNumeric() ? "; convert it: " + castHint(Scalar::U32)
                                     : ""));
    return Type::invalid();
  }
  if (Base.K == Type::Shared && Idx.K == Type::IntLiteral) {
    if (auto V = evalConstInt(*X.Index); V && *V >= Base.Count)
      Diags.error(X.Index->loc(), "index " + std::to_string(*V) +
                                      " is past the end of " + quoted(Base));
  }
  return Type::scalar(Base.Elem);
}

Type Sema::checkCast(CastExpr &C) {
  Type T = checkExpr(C.Operand);
  if (T.isInvalid())
    return T;
  if (!T.isScalar() && !T.isLiteral()) {
    Diags.error(C.loc(), "cannot convert " + quoted(T) + " to " +
                             quoted(C.To));
    return Type::invalid();
  }
  if (T.isLiteral()) {
    // TypeScript: converting a variable that still waits for its type does
    // not give it one (`let w = 0.5; f32(w)` narrows the number w).
    bool NamesVariable = false;
    if (M.Lang == Language::TypeScript && Quiet)
      forEachExpr(*C.Operand,
                  [&](const Expr &X) { NamesVariable |= isa<NameExpr>(X); });
    if (NamesVariable)
      return Type::scalar(C.To);
    Scalar Via = T.K == Type::IntLiteral
                     ? (C.To == Scalar::Bool ? Scalar::I32 : C.To)
                     : (isFloatScalar(C.To) ? C.To : Scalar::F32);
    coerce(C.Operand, Via, "a conversion");
  }
  return Type::scalar(C.To);
}

Type Sema::checkCall(CallExpr &C, ExprPtr &Self) {
  C.Target = nullptr;
  C.Intrinsic = IntrinsicId::None;
  if (C.Method) {
    // `recv.name(args)`: the method `name` of the receiver's struct.
    Type R = checkExpr(C.Args[0]);
    if (R.isInvalid()) {
      Self->Ty = Type::invalid();
      return Self->Ty;
    }
    const FunctionDecl *MF =
        R.isStruct() ? M.function(R.Decl->Name + "::" + C.Callee) : nullptr;
    // The receiver parameter: Rust's `self`, TypeScript's `this`.
    if (!MF || MF->Params.empty() ||
        (MF->Params[0].Name != "self" && MF->Params[0].Name != "this")) {
      Diags.error(C.loc(), "no method '" + C.Callee + "' on type " + quoted(R));
      Self->Ty = Type::invalid();
      return Self->Ty;
    }
    C.Callee = MF->Name;
    C.Method = false;
  }
  const FunctionDecl *F = M.function(C.Callee);
  if (!F) {
    if (std::optional<Type> T = checkIntrinsicCall(C, Self)) {
      Self->Ty = *T;
      return *T;
    }
    Diags.error(C.loc(), "call to unknown function '" + C.Callee + "'");
    for (ExprPtr &A : C.Args)
      checkExpr(A);
    Self->Ty = Type::invalid();
    return Self->Ty;
  }
  if (F->IsKernel) {
    Diags.error(C.loc(), "kernel '" + C.Callee +
                             "' cannot be called; only device functions "
                             "can");
    Diags.note(F->Loc, "'" + C.Callee + "' is declared here");
    Self->Ty = Type::invalid();
    return Self->Ty;
  }
  C.Target = F;
  if (C.Args.size() != F->Params.size()) {
    Diags.error(C.loc(), "'" + C.Callee + "' takes " +
                             std::to_string(F->Params.size()) +
                             " argument(s), not " +
                             std::to_string(C.Args.size()));
    Diags.note(F->Loc, "'" + C.Callee + "' is declared here");
    Self->Ty = Type::invalid();
    return Self->Ty;
  }
  bool Ok = true;
  for (size_t I = 0; I < C.Args.size(); ++I) {
    const Param &P = F->Params[I];
    expectType(*C.Args[I], P.Ty);
    Type A = checkExpr(C.Args[I]);
    if (A.isInvalid()) {
      Ok = false;
      continue;
    }
    std::string What = "argument " + std::to_string(I + 1) + " ('" + P.Name +
                       "') of '" + C.Callee + "'";
    if (P.Ty.K == Type::Buffer) {
      const auto *N = dyn_cast<NameExpr>(C.Args[I].get());
      if (!N || !N->Parm || A.K != Type::Buffer || A.Elem != P.Ty.Elem) {
        Diags.error(C.Args[I]->loc(), "expected a buffer of " +
                                          quoted(P.Ty.Elem) + " for " + What +
                                          ", found " + quoted(A));
        Ok = false;
      } else if (A.ReadOnly && !P.Ty.ReadOnly) {
        Diags.error(C.Args[I]->loc(), "read-only buffer '" + N->Name +
                                          "' passed as writable " + What);
        Diags.note(N->Parm->Loc, "'" + N->Name + "' is declared here");
        Ok = false;
      }
      continue;
    }
    if (P.ByRef && P.Mutable) {
      // `&mut self`: the method changes the receiver in place.
      const NameExpr *Root = placeRoot(*C.Args[I]);
      bool Mutable = Root && (Root->Var ? Root->Var->Mutable || !Root->Var->Init
                                        : Root->Parm && Root->Parm->Mutable);
      if (!Mutable && P.Name != "self" && P.Name != "this") {
        // C++ `float& v`: a buffer element or a temporary cannot be
        // referred to (HIR has no pointers).
        Diags.error(C.Args[I]->loc(),
                    What + " is a reference: " +
                        (Root ? "'" + Root->Name + "' is not mutable"
                              : std::string("pass a variable, a parameter or "
                                            "a member of one (copy a buffer "
                                            "element into a variable, and "
                                            "store it back)")));
        Ok = false;
        continue;
      }
      if (!Mutable) {
        Diags.error(C.Args[I]->loc(),
                    "'" + F->Name +
                        (M.Lang == Language::TypeScript
                             ? "' assigns fields of 'this': "
                             : "' takes '&mut self': ") +
                        (Root ? "'" + Root->Name + "' is not mutable" +
                                    (M.Lang == Language::Rust
                                         ? " (declare it with 'mut')"
                                     : M.Lang == Language::TypeScript &&
                                             Root->Var
                                         ? " (declare it with 'let')"
                                         : "")
                              : std::string("call it on a variable")));
        Ok = false;
        continue;
      }
    }
    if (P.Ty.isStruct() || A.isStruct())
      Ok &= coerceTo(C.Args[I], P.Ty, What);
    else
      Ok &= coerce(C.Args[I], P.Ty.Elem, What);
  }
  Self->Ty = Ok ? F->ReturnTy : Type::invalid();
  return Self->Ty;
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

void Sema::checkBlock(BlockStmt &B, bool NewScope) {
  // Python names are function-scoped: its blocks open no scope.
  NewScope &= M.Lang != Language::Python;
  if (NewScope)
    pushScope();
  for (StmtPtr &S : B.Body)
    checkStmt(S);
  if (NewScope)
    popScope();
}

Type Sema::typeFromValue(const VarDecl &V, const Type &ValueTy) {
  if (ValueTy.isScalar())
    return ValueTy;
  if (!ValueTy.isLiteral())
    return Type::invalid();
  if (Quiet)
    return ValueTy; // Waits for its first typed use.
  auto It = Inferred.find(&V);
  std::optional<Scalar> S = It != Inferred.end()
                                ? std::optional<Scalar>(It->second)
                                : defaultScalar(ValueTy, V.loc());
  return S ? Type::scalar(*S) : Type::invalid();
}

void Sema::checkVarDecl(VarDecl &V) {
  if (V.Init && V.DeclaredStruct)
    expectType(*V.Init, Type::structType(V.DeclaredStruct));
  Type Init = V.Init ? checkExpr(V.Init) : Type::invalid();
  std::string What = "the initial value of '" + V.Name + "'";
  if (V.DeclaredTy) {
    V.Ty = Type::scalar(*V.DeclaredTy);
    if (V.Init && Init.isStruct())
      coerceTo(V.Init, V.Ty, What);
    else if (V.Init)
      coerce(V.Init, *V.DeclaredTy, What);
  } else if (V.DeclaredStruct) {
    V.Ty = Type::structType(V.DeclaredStruct);
    if (V.Init && !Init.isInvalid())
      coerceTo(V.Init, V.Ty, What);
  } else if (Init.isStruct()) {
    V.Ty = Init;
  } else if (!V.Init && M.Lang == Language::Rust) {
    // Rust's deferred initialisation `let x; ... x = e;` (the Rust parser
    // also makes one for a match or if used as a value): like a variable
    // initialised by an integer literal, it takes the type of its first
    // typed assignment or use, else the integer default.
    V.Ty = typeFromValue(V, Type::intLiteral());
  } else if (!V.Init) {
    Diags.error(V.loc(), "'" + V.Name + "' needs a type or an initial value");
    V.Ty = Type::invalid();
  } else if (Init.isLiteral() || Init.isScalar()) {
    V.Ty = typeFromValue(V, Init);
    if (Init.isLiteral() && V.Ty.isScalar())
      coerce(V.Init, V.Ty.Elem, What);
  } else {
    if (!Init.isInvalid())
      Diags.error(V.Init->loc(), "cannot initialise a variable with a " +
                                     typeName(Init));
    V.Ty = Type::invalid();
  }
  declare(V.Name, Binding{&V}, V.loc());
}

void Sema::checkAssign(AssignStmt &A) {
  if (!A.Op)
    expectType(*A.Value, placeType(*A.Target));
  Type VT = checkExpr(A.Value);
  // Python declares a variable by assigning a new name.
  if (auto *N = dyn_cast<NameExpr>(A.Target.get());
      N && M.Lang == Language::Python && (A.Declares || !lookup(N->Name)) &&
      !A.Op) {
    if (!A.Declares) {
      CurFn->ImplicitVars.push_back(std::make_unique<VarDecl>(
          N->loc(), N->Name, std::nullopt, nullptr));
      A.Declares = CurFn->ImplicitVars.back().get();
      A.Declares->Implicit = true;
    }
    VarDecl &V = *A.Declares;
    V.Ty = VT.isStruct() ? VT : typeFromValue(V, VT); // A struct: as is.
    if (V.Ty.isInvalid() && !VT.isLiteral() && !VT.isInvalid())
      Diags.error(A.Value->loc(), "cannot assign a " + typeName(VT) +
                                      " to a variable");
    Scopes.front()[V.Name] = Binding{&V};
  }

  Type TT = checkExpr(A.Target);
  if (TT.isInvalid() || VT.isInvalid())
    return;
  std::string What;
  if (auto *Mem = dyn_cast<MemberExpr>(A.Target.get())) {
    const NameExpr *Root = placeRoot(*Mem);
    if (!Root) {
      Diags.error(A.loc(), "cannot assign to a field of a temporary value");
      return;
    }
    What = "the assignment to '" + Root->Name + "." + Mem->Name + "'";
    bool Mutable = Root->Var ? Root->Var->Mutable || !Root->Var->Init
                             : Root->Parm && Root->Parm->Mutable;
    if (!Mutable) {
      bool RefSelf = Root->Parm && Root->Parm->ByRef;
      Diags.error(A.loc(),
                  "cannot assign to a field of '" + Root->Name +
                      "': it is not mutable" +
                      (RefSelf ? " (the method takes '&self'; take "
                                 "'&mut self')"
                       : M.Lang == Language::Rust ? " (declare it with 'mut')"
                       : M.Lang == Language::TypeScript && Root->Var
                           ? " (declare it with 'let')"
                           : ""));
      Diags.note(Root->Var ? Root->Var->loc() : Root->Parm->Loc,
                 "'" + Root->Name + "' is declared here");
      return;
    }
  } else if (auto *N = dyn_cast<NameExpr>(A.Target.get())) {
    What = "the assignment to '" + N->Name + "'";
    if (N->Shared || (N->Parm && N->Parm->Ty.isArray())) {
      Diags.error(A.loc(), "cannot assign to " + typeName(TT) + " '" +
                               N->Name + "'; assign to an element");
      return;
    }
    bool Mutable = N->Var ? N->Var->Mutable || !N->Var->Init
                          : N->Parm && N->Parm->Mutable;
    if (!Mutable) {
      Diags.error(A.loc(), "cannot assign to '" + N->Name +
                               "': it is not mutable" +
                               (M.Lang == Language::Rust
                                    ? " (declare it with 'mut')"
                                    : ""));
      Diags.note(N->Var ? N->Var->loc() : N->Parm->Loc,
                 "'" + N->Name + "' is declared here");
      return;
    }
    // A variable still waiting for its type takes the assigned one.
    if (TT.isLiteral() && VT.isScalar() && N->Var && !A.Op &&
        Rules.InferFromUse)
      Inferred.try_emplace(N->Var, VT.Elem);
  } else if (auto *X = dyn_cast<IndexExpr>(A.Target.get())) {
    const auto *Base = cast<NameExpr>(X->Base.get());
    What = "the store to '" + Base->Name + "'";
    if (Base->Parm && Base->Parm->Ty.ReadOnly) {
      Diags.error(A.loc(), "cannot store to read-only buffer '" +
                               Base->Name + "'");
      Diags.note(Base->Parm->Loc, "'" + Base->Name + "' is declared here");
      return;
    }
  } else {
    Diags.error(A.loc(), "cannot assign to this expression");
    return;
  }
  if (TT.isStruct() || VT.isStruct()) {
    if (A.Op)
      Diags.error(A.loc(), "invalid operands to '" + binaryOpSpelling(*A.Op) +
                               "=' (" + quoted(TT) + " and " + quoted(VT) +
                               ")");
    else if (TT.isStruct())
      coerceTo(A.Value, TT, What);
    else if (auto *N = dyn_cast<NameExpr>(A.Target.get());
             N && N->Var && !N->Var->Init && !N->Var->DeclaredTy)
      Diags.error(A.loc(), "'" + N->Name + "' holds a " + quoted(VT) +
                               ": declare it with its type ('" + N->Name +
                               ": " + typeName(VT) + "') or an initial value");
    else
      Diags.error(A.loc(), "cannot assign a " + quoted(VT) + " to " +
                               (TT.isLiteral() ? "a variable without a type "
                                                 "(give it one, or an "
                                                 "initial value)"
                                               : "a " + quoted(TT)));
    return;
  }
  if (!A.Op) {
    if (TT.isScalar())
      coerce(A.Value, TT.Elem, What);
    return;
  }
  // Compound assignment: computed like the binary operator, then converted
  // back to the target's type.
  llvm::StringRef Sp = binaryOpSpelling(*A.Op);
  Type T = (*A.Op == BinaryOp::Shl || *A.Op == BinaryOp::Shr ||
            *A.Op == BinaryOp::LShr)
               ? TT
               : unify(TT, VT, A.loc(), (Sp + "=").str());
  if (T.isInvalid())
    return;
  if (T.isLiteral()) {
    // TypeScript: `x += 1` on a variable that waits for its type is no
    // typed use; the default (f64) applies only if no later use types it.
    if (Quiet && M.Lang == Language::TypeScript)
      return;
    std::optional<Scalar> D = defaultScalar(T, A.loc());
    if (!D)
      return;
    T = Type::scalar(*D);
  }
  settleLiteral(A.Target, T);
  if (T.isBool() ||
      (T.isFloat() && (*A.Op == BinaryOp::BitAnd || *A.Op == BinaryOp::BitOr ||
                       *A.Op == BinaryOp::BitXor || *A.Op == BinaryOp::Shl ||
                       *A.Op == BinaryOp::Shr || *A.Op == BinaryOp::LShr))) {
    Diags.error(A.loc(), "invalid operands to '" + Sp + "=' (" + quoted(TT) +
                             " and " + quoted(VT) + ")");
    return;
  }
  if (T.isScalar(Scalar::F64) &&
      (*A.Op == BinaryOp::Rem || *A.Op == BinaryOp::FloorDiv)) {
    Diags.error(A.loc(), "invalid operands to '" + Sp + "=' (" + quoted(TT) +
                             " and " + quoted(VT) + "): " + NoF64Op);
    return;
  }
  A.OpTy = T;
  coerce(A.Value, T.Elem, What, /*Explicit=*/*A.Op == BinaryOp::Shl ||
                                    *A.Op == BinaryOp::Shr ||
                                    *A.Op == BinaryOp::LShr);
  if (TT.isScalar() && TT.Elem != T.Elem && !implicitlyConverts(T.Elem, TT.Elem))
    Diags.error(A.loc(), "the result of '" + Sp + "=' is " + quoted(T) +
                             " but the target is " + quoted(TT) +
                             "; convert explicitly: " + castHint(TT.Elem));
}

void Sema::checkStmt(StmtPtr &SP) {
  if (!enterNesting(SP->loc()))
    return;
  checkStmtNode(SP);
  --NestDepth;
}

void Sema::checkStmtNode(StmtPtr &SP) {
  Stmt &S = *SP;
  switch (S.kind()) {
  case Stmt::Kind::Block:
    checkBlock(cast<BlockStmt>(S));
    return;
  case Stmt::Kind::VarDecl:
    checkVarDecl(cast<VarDecl>(S));
    return;
  case Stmt::Kind::SharedDecl: {
    auto &D = cast<SharedDecl>(S);
    std::optional<int64_t> N = D.Size ? evalConstInt(*D.Size) : std::nullopt;
    if (!CurFn->IsKernel) {
      // An exported function becomes a WAVE `.func`, which may not use
      // local memory (formats/wave-asm.md §9): say which function.
      if (CurFn->Link == Linkage::Export)
        Diags.error(D.loc(), "shared arrays are declared in kernels only; "
                             "exported function '" +
                                 CurFn->Name + "' cannot use local memory");
      else
        Diags.error(D.loc(), "shared arrays are declared in kernels only");
    } else if (D.Elem == Scalar::Bool) {
      Diags.error(D.loc(), "shared arrays of bool are not supported");
    } else if (!N || *N <= 0) {
      Diags.error(D.Size ? D.Size->loc() : D.loc(),
                  "the size of shared array '" + D.Name +
                      "' must be a positive integer constant");
    } else {
      unsigned Align = scalarBytes(D.Elem);
      uint64_t Offset = (uint64_t(SharedOffset) + Align - 1) / Align * Align;
      uint64_t End = Offset + uint64_t(*N) * Align;
      if (End > MaxSharedBytes) {
        Diags.error(D.loc(), "shared arrays of this kernel need " +
                                 std::to_string(End) +
                                 " bytes, more than the " +
                                 std::to_string(MaxSharedBytes) +
                                 " bytes of workgroup memory");
      } else {
        D.Offset = Offset;
        SharedOffset = End;
        CurFn->SharedBytes = SharedOffset;
        D.Ty = Type::shared(D.Elem, uint32_t(*N));
      }
    }
    declare(D.Name, Binding{nullptr, nullptr, &D}, D.loc());
    return;
  }
  case Stmt::Kind::Assign:
    if (auto &A = cast<AssignStmt>(S); A.Op && placeType(*A.Target).isStruct())
      return checkCompoundStructAssign(SP);
    checkAssign(cast<AssignStmt>(S));
    return;
  case Stmt::Kind::ExprStmt: {
    auto &E = cast<ExprStmt>(S);
    checkExpr(E.E);
    if (!isa<CallExpr>(*E.E) && !isa<CastExpr>(*E.E) && !E.E->Ty.isInvalid())
      Diags.error(E.E->loc(), "this expression has no effect; only calls "
                              "may stand alone as statements");
    return;
  }
  case Stmt::Kind::If: {
    auto &I = cast<IfStmt>(S);
    checkExpr(I.Cond);
    coerceToBool(I.Cond, "the condition of 'if'");
    checkBlock(*I.Then);
    if (I.Else)
      checkStmt(I.Else);
    return;
  }
  case Stmt::Kind::While: {
    auto &W = cast<WhileStmt>(S);
    if (!W.DoWhile) {
      checkExpr(W.Cond);
      coerceToBool(W.Cond, "the loop condition");
    }
    ++LoopDepth;
    checkBlock(*W.Body);
    --LoopDepth;
    if (W.DoWhile) {
      checkExpr(W.Cond);
      coerceToBool(W.Cond, "the loop condition");
    }
    return;
  }
  case Stmt::Kind::For: {
    auto &F = cast<ForStmt>(S);
    bool Scoped = M.Lang != Language::Python;
    if (Scoped)
      pushScope();
    if (F.Init)
      checkStmt(F.Init);
    if (F.Cond) {
      checkExpr(F.Cond);
      coerceToBool(F.Cond, "the loop condition");
    }
    ++LoopDepth;
    checkBlock(*F.Body);
    --LoopDepth;
    if (F.Step)
      checkStmt(F.Step);
    if (Scoped)
      popScope();
    return;
  }
  case Stmt::Kind::ForRange: {
    auto &F = cast<ForRangeStmt>(S);
    Type T = Type::intLiteral();
    bool Ok = true;
    for (ExprPtr *E : {&F.Start, &F.End, &F.Step}) {
      if (!*E)
        continue;
      Type A = checkExpr(*E);
      if (A.isInvalid()) {
        Ok = false;
        continue;
      }
      if (A.K != Type::IntLiteral && !A.isInteger()) {
        Diags.error((*E)->loc(), "range bounds and steps must be integers, "
                                 "not " +
                                     quoted(A));
        Ok = false;
        continue;
      }
      T = unify(T, A, (*E)->loc(), "range");
      Ok &= !T.isInvalid();
    }
    if (F.Step)
      if (auto V = evalConstInt(*F.Step); V && *V == 0) {
        Diags.error(F.Step->loc(), "the step of a range must not be zero");
        Ok = false;
      }
    VarDecl &V = *F.Var;
    V.Ty = Ok ? typeFromValue(V, T) : Type::invalid();
    if (V.Ty.isScalar())
      for (ExprPtr *E : {&F.Start, &F.End, &F.Step})
        if (*E)
          coerce(*E, V.Ty.Elem, "a range");
    if (M.Lang != Language::Python)
      pushScope();
    if (M.Lang == Language::Python)
      Scopes.front()[V.Name] = Binding{&V};
    else
      declare(V.Name, Binding{&V}, V.loc());
    ++LoopDepth;
    checkBlock(*F.Body);
    --LoopDepth;
    if (M.Lang != Language::Python)
      popScope();
    return;
  }
  case Stmt::Kind::Break:
  case Stmt::Kind::Continue:
    if (!LoopDepth)
      Diags.error(S.loc(), S.kind() == Stmt::Kind::Break
                               ? "'break' outside a loop"
                               : "'continue' outside a loop");
    return;
  case Stmt::Kind::Return: {
    auto &R = cast<ReturnStmt>(S);
    if (R.Value) {
      expectType(*R.Value, CurFn->ReturnTy);
      checkExpr(R.Value);
      if (CurFn->ReturnTy.isVoid()) {
        Diags.error(R.loc(), CurFn->IsKernel
                                 ? "a kernel returns no value"
                                 : "function '" + CurFn->Name +
                                       "' returns no value");
        return;
      }
      if (CurFn->ReturnTy.isStruct() || R.Value->Ty.isStruct())
        coerceTo(R.Value, CurFn->ReturnTy,
                 "the return value of '" + CurFn->Name + "'");
      else
        coerce(R.Value, CurFn->ReturnTy.Elem,
               "the return value of '" + CurFn->Name + "'");
    } else if (!CurFn->ReturnTy.isVoid()) {
      Diags.error(R.loc(), "function '" + CurFn->Name + "' must return a " +
                               quoted(CurFn->ReturnTy));
    }
    return;
  }
  }
}

void Sema::checkFunctionBody(FunctionDecl &F) {
  CurFn = &F;
  for (int Pass = 0; Pass < 2; ++Pass) {
    Quiet = Pass == 0;
    if (Quiet)
      Diags.suppress();
    Scopes.clear();
    pushScope();
    for (const Param &P : F.Params)
      declare(P.Name, Binding{nullptr, &P}, P.Loc);
    LoopDepth = 0;
    NestDepth = 0;
    NestTooDeep = false; // the quiet pass reported nothing
    SharedOffset = 0;
    F.SharedBytes = 0;
    if (F.Body)
      checkBlock(*F.Body, /*NewScope=*/false);
    if (Quiet)
      Diags.unsuppress();
  }
  Quiet = false;
  Inferred.clear();
  CurFn = nullptr;
}

bool Sema::run() {
  unsigned ErrorsBefore = Diags.numErrors();
  checkStructs();
  // Signatures first: calls may name functions defined later.
  llvm::StringMap<const FunctionDecl *> Seen;
  for (const auto &F : M.Functions) {
    auto [It, New] = Seen.try_emplace(F->Name, F.get());
    if (!New) {
      Diags.error(F->Loc, "redefinition of '" + F->Name + "'");
      Diags.note(It->second->Loc,
                 "'" + F->Name +
                     (It->second->isDeclaration() ? "' is first declared here"
                                                  : "' is first defined here"));
    }
    if (isIntrinsicName(F->Name, M.Lang))
      Diags.error(F->Loc, "'" + F->Name +
                              "' is the name of an intrinsic; rename the "
                              "function");
    llvm::StringMap<const Param *> Names;
    unsigned Index = 0;
    for (const Param &P : F->Params) {
      ++Index;
      if (!Names.try_emplace(P.Name, &P).second)
        Diags.error(P.Loc, "duplicate parameter '" + P.Name + "'");
      if (P.Ty.isArray() && P.Ty.Elem == Scalar::Bool)
        Diags.error(P.Loc, "buffers of bool are not supported");
      if (P.ByRef && !P.Ty.isStruct() &&
          (F->IsKernel || F->Link != Linkage::Internal))
        Diags.error(P.Loc, "parameter '" + P.Name + "' of " +
                               (F->IsKernel          ? "kernel"
                                : F->isDeclaration() ? "declared function"
                                                     : "exported function") +
                               " '" + F->Name +
                               "' is a reference; references pass only "
                               "between functions of one file (they are "
                               "inlined)");
      else if (P.Ty.isStruct() && !F->IsKernel && F->Link != Linkage::Internal)
        Diags.error(P.Loc, "parameter '" + P.Name + "' of " +
                               (F->isDeclaration() ? "declared" : "exported") +
                               " function '" + F->Name +
                               "' is a struct; "
                               "structs pass only between functions of "
                               "one file (they are inlined)");
      if (!F->IsKernel)
        continue;
      // bool arrives as a u32 and f16 as its f32 value (Lowering.cpp).
      bool Ok = P.Ty.K == Type::Buffer ||
                (P.Ty.isScalar() && !P.Ty.isScalar(Scalar::F64));
      if (!Ok && P.Ty.isScalar(Scalar::F64))
        Diags.error(P.Loc, "kernel parameter '" + P.Name +
                               "' has type 'f64', which takes a register "
                               "pair (formats/isa.md §4.9), but a kernel "
                               "parameter is one 32-bit register "
                               "(formats/kernel-abi.md); pass it in a buffer "
                               "of f64, or as an f32");
      else if (!Ok)
        Diags.error(P.Loc, "kernel parameter '" + P.Name + "' has type " +
                               quoted(P.Ty) +
                               "; kernel parameters are buffers or bool, "
                               "i32, u32, f16, f32 scalars (one 32-bit "
                               "register each, formats/kernel-abi.md)");
      if (Index == MaxKernelParams + 1)
        Diags.error(P.Loc, "kernel '" + F->Name + "' has more than " +
                               std::to_string(MaxKernelParams) +
                               " parameters (one register each, r0..r31)");
    }
    if (F->IsKernel && F->Link == Linkage::Export)
      Diags.error(F->ExportLoc.isValid() ? F->ExportLoc : F->Loc,
                  "kernel '" + F->Name +
                      "' cannot be exported; only device functions can "
                      "(kernels are entry points already)");
    if (F->IsKernel && F->isDeclaration())
      Diags.error(F->Loc, "kernel '" + F->Name +
                              "' has no body; only device functions can be "
                              "declared");
    if (F->IsKernel && !F->ReturnTy.isVoid())
      Diags.error(F->Loc, "kernel '" + F->Name + "' must return void");
    if (F->ReturnTy.isStruct() && !F->IsKernel && F->Link != Linkage::Internal)
      Diags.error(F->Loc,
                  std::string(F->isDeclaration() ? "declared" : "exported") +
                      " function '" + F->Name +
                      "' returns a struct; structs pass only "
                      "between functions of one file (they are "
                      "inlined)");
  }
  for (const auto &F : M.Functions)
    checkFunctionBody(*F);
  if (Diags.numErrors() == ErrorsBefore)
    checkGPURules(M, Diags);
  return Diags.numErrors() == ErrorsBefore;
}

bool wave::hir::checkModule(Module &M, DiagnosticEngine &Diags) {
  return Sema(M, Diags).run();
}
