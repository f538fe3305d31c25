//===- RustConst.cpp - Parser of the Rust kernel dialect: constants -------===//
//
// `const` items (module level and in blocks), C-like enums and the names
// that refer to them (formats/kernel-languages.md, "Rust", "Constants and
// enums"). HIR has neither, so a constant is evaluated here, once, to a
// typed literal that replaces every use of its name; an enum is its
// representation type (i32 unless `#[repr(u32)]`) and `Kind::A` the typed
// literal of A's discriminant. Module items are order-independent as in
// Rust: parseModule() runs collectModuleConsts() first, and constants are
// evaluated on first use (a cycle is an error).
//
// Also the parser's scoped names (NameEntry): locals hide constants,
// pattern bindings are aliases of the hidden scrutinee copies (RustMatch.cpp).
//
//===----------------------------------------------------------------------===//
#include "RustParser.h"

#include "llvm/ADT/StringSwitch.h"

#include <cmath>

using namespace wave;
using namespace wave::fe;
using hir::Scalar;
using llvm::SMLoc;

namespace {
constexpr int64_t I32Min = INT32_MIN, I32Max = INT32_MAX, U32Max = UINT32_MAX;

/// Whether \p V fits integer type \p S.
bool fitsInt(int64_t V, Scalar S) {
  if (S == Scalar::I32)
    return V >= I32Min && V <= I32Max;
  return V >= 0 && V <= U32Max;
}

/// \p V wrapped to integer type \p S (an `as` conversion).
int64_t wrapInt(int64_t V, Scalar S) {
  uint32_t Bits = uint32_t(uint64_t(V));
  return S == Scalar::I32 ? int64_t(int32_t(Bits)) : int64_t(Bits);
}

std::string typeWord(const RustConstVal &V) {
  if (V.Ty)
    return "'" + hir::scalarName(*V.Ty).str() + "'";
  return V.K == RustConstVal::Float ? "a float literal" : "an integer literal";
}
} // namespace

//===----------------------------------------------------------------------===//
// Literals and copies
//===----------------------------------------------------------------------===//

hir::ExprPtr RustParser::makeLiteral(SMLoc Loc, const RustConstVal &V) {
  switch (V.K) {
  case RustConstVal::Bool:
    return std::make_unique<hir::BoolLitExpr>(Loc, V.I != 0);
  case RustConstVal::Float:
    if (std::signbit(V.F))
      return std::make_unique<hir::UnaryExpr>(
          Loc, hir::UnaryOp::Neg,
          std::make_unique<hir::FloatLitExpr>(Loc, -V.F, V.Ty));
    return std::make_unique<hir::FloatLitExpr>(Loc, V.F, V.Ty);
  case RustConstVal::Int:
    break;
  }
  if (V.I < 0)
    return std::make_unique<hir::UnaryExpr>(
        Loc, hir::UnaryOp::Neg,
        std::make_unique<hir::IntLitExpr>(Loc, uint64_t(-V.I), V.Ty));
  return std::make_unique<hir::IntLitExpr>(Loc, uint64_t(V.I), V.Ty);
}

hir::ExprPtr RustParser::cloneExpr(const hir::Expr &E, SMLoc Loc) {
  using K = hir::Expr::Kind;
  switch (E.kind()) {
  case K::IntLit: {
    const auto &L = llvm::cast<hir::IntLitExpr>(E);
    return std::make_unique<hir::IntLitExpr>(Loc, L.Value, L.Suffix);
  }
  case K::FloatLit: {
    const auto &L = llvm::cast<hir::FloatLitExpr>(E);
    return std::make_unique<hir::FloatLitExpr>(Loc, L.Value, L.Suffix);
  }
  case K::BoolLit:
    return std::make_unique<hir::BoolLitExpr>(
        Loc, llvm::cast<hir::BoolLitExpr>(E).Value);
  case K::Name:
    return std::make_unique<hir::NameExpr>(Loc,
                                           llvm::cast<hir::NameExpr>(E).Name);
  case K::Unary: {
    const auto &U = llvm::cast<hir::UnaryExpr>(E);
    return std::make_unique<hir::UnaryExpr>(Loc, U.Op,
                                            cloneExpr(*U.Operand, Loc));
  }
  case K::Binary: {
    const auto &B = llvm::cast<hir::BinaryExpr>(E);
    return std::make_unique<hir::BinaryExpr>(Loc, B.Op, cloneExpr(*B.LHS, Loc),
                                             cloneExpr(*B.RHS, Loc));
  }
  case K::Cast: {
    const auto &C = llvm::cast<hir::CastExpr>(E);
    return std::make_unique<hir::CastExpr>(Loc, C.To,
                                           cloneExpr(*C.Operand, Loc));
  }
  case K::Conditional: {
    const auto &C = llvm::cast<hir::ConditionalExpr>(E);
    return std::make_unique<hir::ConditionalExpr>(Loc, cloneExpr(*C.Cond, Loc),
                                                  cloneExpr(*C.Then, Loc),
                                                  cloneExpr(*C.Else, Loc));
  }
  case K::Index: {
    const auto &X = llvm::cast<hir::IndexExpr>(E);
    return std::make_unique<hir::IndexExpr>(Loc, cloneExpr(*X.Base, Loc),
                                            cloneExpr(*X.Index, Loc));
  }
  case K::Call: {
    const auto &C = llvm::cast<hir::CallExpr>(E);
    auto N = std::make_unique<hir::CallExpr>(Loc, C.Callee);
    N->Method = C.Method;
    for (const hir::ExprPtr &A : C.Args)
      N->Args.push_back(cloneExpr(*A, Loc));
    return N;
  }
  case K::Member: {
    const auto &Mem = llvm::cast<hir::MemberExpr>(E);
    return std::make_unique<hir::MemberExpr>(Loc, cloneExpr(*Mem.Base, Loc),
                                             Mem.Name);
  }
  case K::StructLit: {
    const auto &L = llvm::cast<hir::StructLitExpr>(E);
    auto N =
        std::make_unique<hir::StructLitExpr>(Loc, L.Tuple ? nullptr : L.Struct);
    N->Tuple = L.Tuple;
    for (const hir::StructLitExpr::Init &I : L.Inits)
      N->Inits.push_back({Loc, I.Name, cloneExpr(*I.Value, Loc), -1});
    return N;
  }
  case K::CompareChain:
    break;
  }
  // Templates are literals and names; nothing else is ever copied.
  return std::make_unique<hir::IntLitExpr>(Loc, 0);
}

//===----------------------------------------------------------------------===//
// Names
//===----------------------------------------------------------------------===//

void RustParser::declareLocal(llvm::StringRef Name) {
  // Only needed where the name would otherwise mean something else.
  bool Hides = ModuleConsts.count(Name) != 0;
  for (const NameEntry &N : Names)
    Hides |= N.Name == Name;
  if (Hides)
    Names.push_back({Name.str(), NameEntry::Local, nullptr});
}

hir::ExprPtr RustParser::resolveName(llvm::StringRef Name, SMLoc Loc) {
  for (auto It = Names.rbegin(); It != Names.rend(); ++It) {
    if (It->Name != Name)
      continue;
    if (It->K == NameEntry::Local || !It->Template)
      return nullptr;
    return cloneExpr(*It->Template, Loc);
  }
  auto C = ModuleConsts.find(Name);
  if (C == ModuleConsts.end())
    return nullptr;
  const hir::Expr *L = constLiteral(C->second, Name);
  if (!L)
    return std::make_unique<hir::IntLitExpr>(Loc, 0); // Already reported.
  return cloneExpr(*L, Loc);
}

const hir::Expr *RustParser::lookupConst(llvm::StringRef Name) {
  for (auto It = Names.rbegin(); It != Names.rend(); ++It)
    if (It->Name == Name)
      return It->K == NameEntry::Const ? It->Template.get() : nullptr;
  auto C = ModuleConsts.find(Name);
  return C == ModuleConsts.end() ? nullptr : constLiteral(C->second, Name);
}

std::optional<RustConstVal>
RustParser::enumVariant(RustEnum &E, llvm::StringRef V, SMLoc Loc) {
  evalEnum(E);
  for (const RustEnum::Variant &Var : E.Variants)
    if (Var.Name == V) {
      RustConstVal R;
      R.I = Var.Value;
      R.Ty = E.Repr;
      R.Enum = &E;
      return R;
    }
  error(Loc, "no variant '" + V + "' in enum '" + E.Name + "'");
  return std::nullopt;
}

hir::ExprPtr RustParser::resolveEnumPath(llvm::StringRef E,
                                         const RustToken &V) {
  auto It = Enums.find(E);
  if (It == Enums.end())
    return nullptr;
  std::optional<RustConstVal> R = enumVariant(*It->second, V.Text, V.loc());
  if (!R)
    return std::make_unique<hir::IntLitExpr>(V.loc(), 0, It->second->Repr);
  return makeLiteral(V.loc(), *R);
}

//===----------------------------------------------------------------------===//
// Items
//===----------------------------------------------------------------------===//

void RustParser::collectItems(llvm::StringRef Keyword) {
  size_t Save = Pos;
  while (!atEof()) {
    size_t Before = Pos;
    std::optional<Scalar> Repr;
    while (isPunct("#")) {
      consume();
      consumePunct("!");
      // `#[repr(u32)]`: the only attribute pass 1 reads.
      if (isPunct("[") && isIdent("repr", 1) && isPunct("(", 2) &&
          tok(3).is(RustTok::Ident) && isPunct(")", 4))
        Repr = llvm::StringSwitch<std::optional<Scalar>>(tok(3).Text)
                   .Cases({"u32", "usize"}, Scalar::U32)
                   .Cases({"i32", "isize"}, Scalar::I32)
                   .Default(std::nullopt);
      if (isPunct("["))
        skipBalanced();
    }
    if (isIdent("pub")) {
      consume();
      if (isPunct("("))
        skipBalanced();
    }
    size_t Start = Pos;
    if (isIdent(Keyword) && !isIdent("fn", 1)) {
      if (Keyword == "const") {
        parseConstItem(/*Local=*/false);
      } else {
        Attrs A;
        A.Repr = Repr;
        parseEnumItem(A);
      }
      ConstItemEnds[Start] = Pos;
    } else if (!atEof()) {
      skipItem();
    }
    if (Pos == Before)
      consume();
  }
  Pos = Save;
}

void RustParser::collectModuleConsts() {
  // Enums first: a constant's type may name one.
  collectItems("enum");
  collectItems("const");
  // Every constant and enum is checked, used or not.
  for (const std::string &N : ModuleConstOrder)
    constLiteral(ModuleConsts.find(N)->second, N);
  for (auto &E : Enums)
    evalEnum(*E.second);
}

bool RustParser::parseConstItem(bool Local) {
  consume(); // 'const'
  RustToken Name;
  if (!expectName(Name, "a constant name after 'const'")) {
    skipStatement();
    return false;
  }
  if (!isPunct(":")) {
    error(tok().loc(), "expected ':' and a type after the constant name, "
                       "found " +
                           describe(tok()));
    skipStatement();
    return false;
  }
  consume();
  std::optional<Scalar> Ty = parseScalarType("as the constant's type");
  if (!Ty || !expectPunct("=", "after the constant's type")) {
    skipStatement();
    return false;
  }
  bool Saved = InConstInit;
  InConstInit = true;
  hir::ExprPtr Init = parseExpr();
  InConstInit = Saved;
  if (!Init || !expectPunct(";", "after the constant")) {
    skipStatement();
    return false;
  }
  if (Local) {
    std::optional<RustConstVal> V = evalConst(*Init, *Ty);
    hir::ExprPtr Lit;
    if (V)
      Lit = makeLiteral(Name.loc(), *V);
    else
      Lit = std::make_unique<hir::IntLitExpr>(Name.loc(), 0, *Ty);
    Names.push_back({Name.Text.str(), NameEntry::Const, std::move(Lit)});
    return V.has_value();
  }
  auto [It, New] = ModuleConsts.try_emplace(Name.Text);
  if (!New || Enums.count(Name.Text)) {
    error(Name.loc(), "redefinition of '" + Name.Text + "'");
    note(New ? Enums[Name.Text]->Loc : It->second.Loc,
         "'" + Name.Text + "' is first defined here");
    return false;
  }
  It->second.Loc = Name.loc();
  It->second.Ty = *Ty;
  It->second.Init = std::move(Init);
  ModuleConstOrder.push_back(Name.Text.str());
  return true;
}

const hir::Expr *RustParser::constLiteral(RustConstItem &C,
                                          llvm::StringRef Name) {
  switch (C.St) {
  case RustConstItem::Done:
    return C.Literal.get();
  case RustConstItem::Failed:
    return nullptr;
  case RustConstItem::Evaluating:
    error(C.Loc, "constant '" + Name + "' depends on itself");
    C.St = RustConstItem::Failed;
    return nullptr;
  case RustConstItem::Pending:
    break;
  }
  C.St = RustConstItem::Evaluating;
  std::optional<RustConstVal> V = evalConst(*C.Init, C.Ty);
  if (C.St == RustConstItem::Failed || !V) {
    C.St = RustConstItem::Failed;
    return nullptr;
  }
  C.Literal = makeLiteral(C.Loc, *V);
  C.St = RustConstItem::Done;
  return C.Literal.get();
}

void RustParser::parseEnumItem(const Attrs &A) {
  consume(); // 'enum'
  RustToken Name;
  if (!expectName(Name, "an enum name after 'enum'")) {
    skipItem();
    return;
  }
  if (isPunct("<")) {
    error(tok().loc(), "generic enums are not supported in WAVE kernels");
    skipItem();
    return;
  }
  if (!isPunct("{")) {
    error(tok().loc(),
          "expected '{' after the enum name, found " + describe(tok()));
    skipItem();
    return;
  }
  SMLoc LBrace = consume().loc();
  auto E = std::make_unique<RustEnum>();
  E->Name = Name.Text.str();
  E->Loc = Name.loc();
  E->Repr = A.Repr.value_or(Scalar::I32);
  bool Ok = true;
  while (!atEof() && !isPunct("}")) {
    while (isPunct("#")) { // #[default] and the like
      consume();
      if (isPunct("["))
        skipBalanced();
    }
    RustToken V;
    if (!expectName(V, "a variant name")) {
      Ok = false;
      break;
    }
    if (isPunct("(") || isPunct("{")) {
      error(tok().loc(), "enum variants with fields are not supported in "
                         "WAVE kernels (only C-like enums are)");
      Ok = false;
      break;
    }
    RustEnum::Variant Var;
    Var.Name = V.Text.str();
    Var.Loc = V.loc();
    for (const RustEnum::Variant &W : E->Variants)
      if (W.Name == Var.Name) {
        error(V.loc(), "duplicate variant '" + V.Text + "'");
        note(W.Loc, "'" + V.Text + "' is first defined here");
      }
    if (consumePunct("=")) {
      bool Saved = InConstInit;
      InConstInit = true;
      Var.Discr = parseExpr();
      InConstInit = Saved;
      if (!Var.Discr) {
        Ok = false;
        break;
      }
    }
    E->Variants.push_back(std::move(Var));
    if (!consumePunct(",") && !isPunct("}")) {
      error(tok().loc(),
            "expected ',' or '}' after the variant, found " + describe(tok()));
      Ok = false;
      break;
    }
  }
  if (!Ok) {
    while (!atEof() && !isPunct("}"))
      isPunct("(") || isPunct("{") || isPunct("[") ? skipBalanced()
                                                   : (void)consume();
  }
  if (!consumePunct("}")) {
    error(tok().loc(),
          "expected '}' to close the enum, found " + describe(tok()));
    note(LBrace, "to match this '{'");
  }
  if (!Ok)
    return;
  if (Enums.count(E->Name) || ModuleConsts.count(E->Name)) {
    error(E->Loc, "redefinition of '" + E->Name + "'");
    return;
  }
  std::string N = E->Name;
  Enums[N] = std::move(E);
}

void RustParser::evalEnum(RustEnum &E) {
  if (E.St != RustEnum::Pending)
    return;
  E.St = RustEnum::Evaluating;
  std::optional<int64_t> Prev;
  for (RustEnum::Variant &V : E.Variants) {
    if (V.Discr) {
      std::optional<RustConstVal> R = evalConst(*V.Discr, E.Repr);
      V.Value = R ? R->I : (Prev ? *Prev + 1 : 0);
    } else {
      V.Value = Prev ? *Prev + 1 : 0;
      if (!fitsInt(V.Value, E.Repr))
        error(V.Loc, "enum discriminant " + std::to_string(V.Value) +
                         " does not fit in '" + hir::scalarName(E.Repr).str() +
                         "'");
    }
    Prev = V.Value;
    for (const RustEnum::Variant &W : E.Variants) {
      if (&W == &V)
        break;
      if (W.Value == V.Value) {
        error(V.Loc, "discriminant " + std::to_string(V.Value) +
                         " is already used by '" + W.Name + "'");
        break;
      }
    }
  }
  E.St = RustEnum::Done;
}

//===----------------------------------------------------------------------===//
// Constant evaluation
//===----------------------------------------------------------------------===//

std::optional<RustConstVal> RustParser::convertConst(RustConstVal V, Scalar Ty,
                                                     SMLoc Loc, bool Explicit) {
  std::string TyName = "'" + hir::scalarName(Ty).str() + "'";
  if (Ty == Scalar::Bool) {
    if (V.K != RustConstVal::Bool) {
      error(Loc, "expected a bool constant, found " + typeWord(V));
      return std::nullopt;
    }
    V.Ty = Ty;
    return V;
  }
  if (V.K == RustConstVal::Bool) {
    if (!Explicit || !hir::isIntegerScalar(Ty)) {
      error(Loc, "expected " + TyName + ", found a bool");
      return std::nullopt;
    }
    V.K = RustConstVal::Int;
  }
  bool ToFloat = hir::isFloatScalar(Ty);
  if (V.K == RustConstVal::Int && ToFloat) {
    if (V.Ty && !Explicit) {
      error(Loc, "expected " + TyName + ", found " + typeWord(V));
      return std::nullopt;
    }
    if (!V.Ty && !Explicit) {
      error(Loc, "expected " + TyName +
                     ", found an integer literal (write "
                     "it with a decimal point)");
      return std::nullopt;
    }
    V.F = double(V.I);
    V.K = RustConstVal::Float;
  } else if (V.K == RustConstVal::Float && !ToFloat) {
    if (!Explicit) {
      error(Loc, "expected " + TyName + ", found " + typeWord(V));
      return std::nullopt;
    }
    // `as` truncates toward zero and saturates (NaN gives 0).
    double T = std::isnan(V.F) ? 0 : std::trunc(V.F);
    double Lo = Ty == Scalar::I32 ? double(I32Min) : 0;
    double Hi = Ty == Scalar::I32 ? double(I32Max) : double(U32Max);
    V.I = int64_t(std::min(std::max(T, Lo), Hi));
    V.K = RustConstVal::Int;
  } else if (V.K == RustConstVal::Int) {
    if (V.Ty && *V.Ty != Ty && !Explicit) {
      error(Loc, "expected " + TyName + ", found " + typeWord(V) +
                     "; convert it with 'as'");
      return std::nullopt;
    }
    if (Explicit && V.Ty) {
      V.I = wrapInt(V.I, Ty);
    } else if (!fitsInt(V.I, Ty)) {
      error(Loc,
            "constant " + std::to_string(V.I) + " does not fit in " + TyName);
      return std::nullopt;
    }
  } else if (V.Ty && *V.Ty != Ty && !Explicit) {
    error(Loc, "expected " + TyName + ", found " + typeWord(V) +
                   "; convert it with 'as'");
    return std::nullopt;
  }
  if (V.K == RustConstVal::Float && Ty == Scalar::F32)
    V.F = double(float(V.F));
  V.Ty = Ty;
  V.Enum = nullptr;
  return V;
}

std::optional<RustConstVal> RustParser::evalConst(const hir::Expr &E,
                                                  std::optional<Scalar> Ty) {
  auto Done =
      [&](std::optional<RustConstVal> V) -> std::optional<RustConstVal> {
    if (!V || !Ty)
      return V;
    return convertConst(*V, *Ty, E.loc(), /*Explicit=*/false);
  };
  RustConstVal V;
  switch (E.kind()) {
  case hir::Expr::Kind::IntLit: {
    const auto &L = llvm::cast<hir::IntLitExpr>(E);
    if (L.Value > uint64_t(U32Max)) {
      error(L.loc(), "integer literal " + std::to_string(L.Value) +
                         " does not fit in 32 bits");
      return std::nullopt;
    }
    V.I = int64_t(L.Value);
    V.Ty = L.Suffix;
    if (V.Ty && !fitsInt(V.I, *V.Ty) &&
        !(V.Ty == Scalar::I32 && V.I == -int64_t(I32Min)))
      V.I = wrapInt(V.I, *V.Ty);
    return Done(V);
  }
  case hir::Expr::Kind::FloatLit: {
    const auto &L = llvm::cast<hir::FloatLitExpr>(E);
    V.K = RustConstVal::Float;
    V.F = L.Value;
    V.Ty = L.Suffix;
    return Done(V);
  }
  case hir::Expr::Kind::BoolLit:
    V.K = RustConstVal::Bool;
    V.I = llvm::cast<hir::BoolLitExpr>(E).Value;
    V.Ty = Scalar::Bool;
    return Done(V);
  case hir::Expr::Kind::Name: {
    llvm::StringRef N = llvm::cast<hir::NameExpr>(E).Name;
    auto [EnumName, Variant] = N.split("::");
    if (!Variant.empty()) {
      auto It = Enums.find(EnumName);
      if (It == Enums.end()) {
        error(E.loc(), "'" + EnumName + "' is not an enum");
        return std::nullopt;
      }
      return Done(enumVariant(*It->second, Variant, E.loc()));
    }
    for (auto It = Names.rbegin(); It != Names.rend(); ++It)
      if (It->Name == N) {
        if (It->K != NameEntry::Const || !It->Template) {
          error(E.loc(), "'" + N +
                             "' is not a constant; a constant's value "
                             "may use literals and other constants only");
          return std::nullopt;
        }
        return Done(evalConst(*It->Template, std::nullopt));
      }
    auto C = ModuleConsts.find(N);
    if (C == ModuleConsts.end()) {
      error(E.loc(), "'" + N +
                         "' is not a constant; a constant's value may "
                         "use literals and other constants only");
      return std::nullopt;
    }
    const hir::Expr *L = constLiteral(C->second, N);
    if (!L)
      return std::nullopt;
    return Done(evalConst(*L, std::nullopt));
  }
  case hir::Expr::Kind::Cast: {
    const auto &C = llvm::cast<hir::CastExpr>(E);
    std::optional<RustConstVal> O = evalConst(*C.Operand, std::nullopt);
    if (!O)
      return std::nullopt;
    if (!O->Ty && O->K == RustConstVal::Int && hir::isIntegerScalar(C.To))
      O->Ty = C.To == Scalar::I32 && O->I > I32Max ? Scalar::U32 : C.To;
    return Done(convertConst(*O, C.To, C.loc(), /*Explicit=*/true));
  }
  case hir::Expr::Kind::Unary: {
    const auto &U = llvm::cast<hir::UnaryExpr>(E);
    std::optional<RustConstVal> O = evalConst(*U.Operand, std::nullopt);
    if (!O)
      return std::nullopt;
    V = *O;
    V.Enum = nullptr;
    if (U.Op == hir::UnaryOp::Neg) {
      if (V.K == RustConstVal::Bool || V.Ty == Scalar::U32) {
        error(U.loc(), "cannot negate " + typeWord(V));
        return std::nullopt;
      }
      if (V.K == RustConstVal::Float)
        V.F = -V.F;
      else
        V.I = -V.I;
      if (V.K == RustConstVal::Int && V.Ty && !fitsInt(V.I, *V.Ty)) {
        error(U.loc(), "overflow in constant expression");
        return std::nullopt;
      }
      return Done(V);
    }
    if (U.Op == hir::UnaryOp::RustNot) {
      if (V.K == RustConstVal::Bool) {
        V.I = !V.I;
        return Done(V);
      }
      if (V.K == RustConstVal::Int) {
        Scalar S =
            V.Ty.value_or(Ty && hir::isIntegerScalar(*Ty) ? *Ty : Scalar::I32);
        V.I = wrapInt(~V.I, S);
        V.Ty = S;
        return Done(V);
      }
    }
    error(U.loc(), "invalid operand of '" + hir::unaryOpSpelling(U.Op) +
                       "' in a constant");
    return std::nullopt;
  }
  case hir::Expr::Kind::Binary:
    break;
  default:
    error(E.loc(), "not a constant expression: a constant's value may use "
                   "literals, constants, enum variants, operators and 'as'");
    return std::nullopt;
  }
  const auto &B = llvm::cast<hir::BinaryExpr>(E);
  std::optional<RustConstVal> L = evalConst(*B.LHS, std::nullopt);
  if (!L)
    return std::nullopt;
  std::optional<RustConstVal> R = evalConst(*B.RHS, std::nullopt);
  if (!R)
    return std::nullopt;
  using hir::BinaryOp;
  llvm::StringRef Sp = hir::binaryOpSpelling(B.Op);
  auto Bad = [&](const llvm::Twine &Why) -> std::optional<RustConstVal> {
    error(B.loc(), "invalid operands to '" + Sp + "' in a constant (" +
                       typeWord(*L) + " and " + typeWord(*R) + "): " + Why);
    return std::nullopt;
  };
  bool IsShift = B.Op == BinaryOp::Shl || B.Op == BinaryOp::Shr;
  if (B.Op == BinaryOp::LogicalAnd || B.Op == BinaryOp::LogicalOr) {
    if (L->K != RustConstVal::Bool || R->K != RustConstVal::Bool)
      return Bad("expected bools");
    V.K = RustConstVal::Bool;
    V.Ty = Scalar::Bool;
    V.I = B.Op == BinaryOp::LogicalAnd ? (L->I && R->I) : (L->I || R->I);
    return Done(V);
  }
  if (L->K != R->K && !IsShift)
    return Bad("the operands must have the same type");
  if (!IsShift && L->Ty && R->Ty && *L->Ty != *R->Ty)
    return Bad("the operands must have the same type; convert one with 'as'");
  std::optional<Scalar> T = IsShift ? L->Ty : (L->Ty ? L->Ty : R->Ty);
  if (hir::isComparison(B.Op)) {
    V.K = RustConstVal::Bool;
    V.Ty = Scalar::Bool;
    bool Res = false;
    auto Cmp = [&](auto A, auto C) {
      switch (B.Op) {
      case BinaryOp::Eq:
        return A == C;
      case BinaryOp::Ne:
        return A != C;
      case BinaryOp::Lt:
        return A < C;
      case BinaryOp::Le:
        return A <= C;
      case BinaryOp::Gt:
        return A > C;
      default:
        return A >= C;
      }
    };
    Res = L->K == RustConstVal::Float ? Cmp(L->F, R->F) : Cmp(L->I, R->I);
    V.I = Res;
    return Done(V);
  }
  if (L->K == RustConstVal::Bool) {
    if (B.Op != BinaryOp::BitAnd && B.Op != BinaryOp::BitOr &&
        B.Op != BinaryOp::BitXor)
      return Bad("arithmetic on bool");
    V = *L;
    V.I = B.Op == BinaryOp::BitAnd  ? (L->I & R->I)
          : B.Op == BinaryOp::BitOr ? (L->I | R->I)
                                    : (L->I ^ R->I);
    return Done(V);
  }
  if (L->K == RustConstVal::Float) {
    V.K = RustConstVal::Float;
    V.Ty = T;
    switch (B.Op) {
    case BinaryOp::Add:
      V.F = L->F + R->F;
      break;
    case BinaryOp::Sub:
      V.F = L->F - R->F;
      break;
    case BinaryOp::Mul:
      V.F = L->F * R->F;
      break;
    case BinaryOp::Div:
      V.F = L->F / R->F;
      break;
    case BinaryOp::Rem:
      V.F = std::fmod(L->F, R->F);
      break;
    default:
      return Bad("not an operation on floats");
    }
    if (T == Scalar::F32)
      V.F = double(float(V.F));
    return Done(V);
  }
  if (R->K != RustConstVal::Int)
    return Bad("expected integers");
  // Integers: exact in 64 bits, then checked against the type (Rust
  // rejects a constant that overflows).
  V.K = RustConstVal::Int;
  V.Ty = T;
  int64_t A = L->I, C = R->I;
  Scalar S = T.value_or(Ty && hir::isIntegerScalar(*Ty) ? *Ty : Scalar::I32);
  switch (B.Op) {
  case BinaryOp::Add:
    V.I = A + C;
    break;
  case BinaryOp::Sub:
    V.I = A - C;
    break;
  case BinaryOp::Mul:
    V.I = A * C;
    break;
  case BinaryOp::Div:
  case BinaryOp::Rem:
    if (C == 0) {
      error(B.loc(), "division by zero in a constant");
      return std::nullopt;
    }
    V.I = B.Op == BinaryOp::Div ? A / C : A % C;
    break;
  case BinaryOp::Shl:
  case BinaryOp::Shr:
    if (C < 0 || C >= 32) {
      error(B.loc(),
            "shift by " + std::to_string(C) + " overflows a 32-bit constant");
      return std::nullopt;
    }
    V.I = B.Op == BinaryOp::Shl ? wrapInt(A << C, S) : (A >> C);
    break;
  case BinaryOp::BitAnd:
    V.I = wrapInt(A & C, S);
    break;
  case BinaryOp::BitOr:
    V.I = wrapInt(A | C, S);
    break;
  case BinaryOp::BitXor:
    V.I = wrapInt(A ^ C, S);
    break;
  default:
    return Bad("not an operation on integers");
  }
  if (T && !fitsInt(V.I, *T)) {
    error(B.loc(),
          "overflow in constant expression ('" + hir::scalarName(*T) + "')");
    return std::nullopt;
  }
  return Done(V);
}
