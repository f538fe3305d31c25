//===- RustMatch.cpp - Parser of the Rust kernel dialect: patterns --------===//
//
// `match`, `if let`, `while let` and `let (a, b) = (x, y)` over integers,
// bools, C-like enums and tuples of them (formats/kernel-languages.md,
// "Rust", "Patterns"), lowered to existing HIR:
//
//   match (a, b) {            let match.s = a;  let match.s1 = b;
//     (0, _) => x,     ==>    if match.s == 0 { x }
//     (n, m) if n > m => y,   else if match.s > match.s1 { y }
//     _ => z,                 else { z }
//   }
//
// A scrutinee that is one expression but meets a tuple pattern (in
// `let`, `if let`, `while let`, or the first arm of a match) is a tuple
// value: it is copied once into a hidden variable and split into its
// elements (`match.s.0`, ...), which are then the leaves
// (expandScrutinee).
//
// The scrutinee's leaves are copied once into hidden immutable variables
// (names with a '.', which no Rust source can spell); a binding is an
// alias of its leaf, so a guard or arm that names it reads the copy (a
// `mut` binding in a block arm is a real variable). A match used as a
// value is a chain of ConditionalExprs when every arm is one expression,
// else its arms assign a hidden `let match.v;` that the match yields. A
// match is exhaustive when its unguarded arms cover every value: a `_` or
// binding arm, every variant of an enum, both bools (checked column by
// column over tuples, Maranget's usefulness test restricted to these
// finite domains); then its last arm needs no test.
//
//===----------------------------------------------------------------------===//
#include "RustParser.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"

#include <functional>

using namespace wave;
using namespace wave::fe;
using llvm::SMLoc;

namespace {
/// Most rows the exhaustiveness check expands `|` alternatives and tuples
/// into; beyond it, only a catch-all arm proves a match exhaustive.
constexpr size_t MaxRows = 4096;

size_t leafCount(const RustScrut &S) {
  if (!S.isTuple())
    return 1;
  size_t N = 0;
  for (const RustScrut &E : S.Elems)
    N += leafCount(E);
  return N;
}

bool isLiteral(const hir::Expr &E) {
  if (const auto *U = llvm::dyn_cast<hir::UnaryExpr>(&E))
    return U->Op == hir::UnaryOp::Neg && isLiteral(*U->Operand);
  return llvm::isa<hir::IntLitExpr>(E) || llvm::isa<hir::FloatLitExpr>(E) ||
         llvm::isa<hir::BoolLitExpr>(E);
}

bool containsBinding(const RustPat &P) {
  if (P.K == RustPat::Bind)
    return true;
  for (const RustPat &E : P.Elems)
    if (containsBinding(E))
      return true;
  return false;
}

/// One row of the exhaustiveness matrix: a leaf pattern per scrutinee
/// leaf (null: matches anything).
using Row = std::vector<const RustPat *>;

/// Appends the rows \p P expands to (over \p S's leaves) to \p Out; false
/// when they would be too many.
bool expandRows(const RustPat &P, const RustScrut &S, std::vector<Row> &Out) {
  switch (P.K) {
  case RustPat::Wild:
    Out.push_back(Row(leafCount(S), nullptr));
    return true;
  case RustPat::Bind:
    if (P.Sub)
      return expandRows(*P.Sub, S, Out);
    Out.push_back(Row(leafCount(S), nullptr));
    return true;
  case RustPat::Const:
  case RustPat::Range:
    Out.push_back(Row{&P});
    return true;
  case RustPat::Or:
    for (const RustPat &A : P.Elems)
      if (!expandRows(A, S, Out))
        return false;
    return Out.size() <= MaxRows;
  case RustPat::Tuple:
    break;
  }
  std::vector<Row> Acc{Row{}};
  for (size_t I = 0; I < P.Elems.size(); ++I) {
    std::vector<Row> Part;
    if (!expandRows(P.Elems[I], S.Elems[I], Part))
      return false;
    if (Acc.size() * Part.size() > MaxRows)
      return false;
    std::vector<Row> Next;
    for (const Row &A : Acc)
      for (const Row &B : Part) {
        Row R = A;
        R.insert(R.end(), B.begin(), B.end());
        Next.push_back(std::move(R));
      }
    Acc = std::move(Next);
  }
  Out.insert(Out.end(), Acc.begin(), Acc.end());
  return Out.size() <= MaxRows;
}

bool rowMatches(const RustPat *P, int64_t V) {
  if (!P)
    return true;
  if (P->K == RustPat::Const)
    return P->CVal.I == V;
  if (P->LoVal && V < *P->LoVal)
    return false;
  if (P->HiVal && (P->Inclusive ? V > *P->HiVal : V >= *P->HiVal))
    return false;
  return true;
}

/// Whether \p Rows cover every value of the columns from \p Col on.
bool covers(const std::vector<Row> &Rows, size_t Col, size_t NumCols) {
  if (Rows.empty())
    return false;
  if (Col == NumCols)
    return true;
  // The column's domain is finite when a pattern in it names a bool or an
  // enum variant; the values are then enumerated.
  std::vector<int64_t> Domain;
  bool Finite = false;
  for (const Row &R : Rows) {
    const RustPat *P = R[Col];
    if (!P || P->K != RustPat::Const)
      continue;
    if (P->CVal.K == RustConstVal::Bool) {
      Domain = {0, 1};
      Finite = true;
      break;
    }
    if (P->CVal.Enum) {
      for (const RustEnum::Variant &V : P->CVal.Enum->Variants)
        Domain.push_back(V.Value);
      Finite = true;
      break;
    }
  }
  if (!Finite) {
    std::vector<Row> Rest;
    for (const Row &R : Rows)
      if (!R[Col])
        Rest.push_back(R);
    return covers(Rest, Col + 1, NumCols);
  }
  for (int64_t V : Domain) {
    std::vector<Row> Rest;
    for (const Row &R : Rows)
      if (rowMatches(R[Col], V))
        Rest.push_back(R);
    if (!covers(Rest, Col + 1, NumCols))
      return false;
  }
  return true;
}

hir::ExprPtr andExpr(hir::ExprPtr A, hir::ExprPtr B, SMLoc Loc) {
  if (!A)
    return B;
  if (!B)
    return A;
  return std::make_unique<hir::BinaryExpr>(Loc, hir::BinaryOp::LogicalAnd,
                                           std::move(A), std::move(B));
}

/// Whether \p E names one of \p Names.
bool mentions(const hir::Expr &E, const llvm::StringSet<> &Names) {
  using K = hir::Expr::Kind;
  switch (E.kind()) {
  case K::Name:
    return Names.contains(llvm::cast<hir::NameExpr>(E).Name);
  case K::Unary:
    return mentions(*llvm::cast<hir::UnaryExpr>(E).Operand, Names);
  case K::Binary: {
    const auto &B = llvm::cast<hir::BinaryExpr>(E);
    return mentions(*B.LHS, Names) || mentions(*B.RHS, Names);
  }
  case K::Cast:
    return mentions(*llvm::cast<hir::CastExpr>(E).Operand, Names);
  case K::Conditional: {
    const auto &C = llvm::cast<hir::ConditionalExpr>(E);
    return mentions(*C.Cond, Names) || mentions(*C.Then, Names) ||
           mentions(*C.Else, Names);
  }
  case K::Index: {
    const auto &X = llvm::cast<hir::IndexExpr>(E);
    return mentions(*X.Base, Names) || mentions(*X.Index, Names);
  }
  case K::Call:
    for (const hir::ExprPtr &A : llvm::cast<hir::CallExpr>(E).Args)
      if (mentions(*A, Names))
        return true;
    return false;
  case K::Member:
    return mentions(*llvm::cast<hir::MemberExpr>(E).Base, Names);
  case K::StructLit:
    for (const auto &I : llvm::cast<hir::StructLitExpr>(E).Inits)
      if (I.Value && mentions(*I.Value, Names))
        return true;
    return false;
  default:
    return false;
  }
}
} // namespace

//===----------------------------------------------------------------------===//
// Scrutinees
//===----------------------------------------------------------------------===//

bool RustParser::parseScrutinee(RustScrut &S) {
  S.Loc = tok().loc();
  bool Tuple = false;
  if (isPunct("(")) {
    // A tuple when the group has a top-level ','.
    unsigned Level = 0;
    for (size_t I = Pos; I < Toks.size(); ++I) {
      const RustToken &T = Toks[I];
      if (T.isPunct("(") || T.isPunct("[") || T.isPunct("{"))
        ++Level;
      else if (T.isPunct(")") || T.isPunct("]") || T.isPunct("}")) {
        if (--Level == 0)
          break;
      } else if (Level == 1 && T.isPunct(",")) {
        Tuple = true;
        break;
      } else if (T.is(RustTok::Eof)) {
        break;
      }
    }
  }
  if (!Tuple) {
    S.Value = parseExpr();
    return S.Value != nullptr;
  }
  SMLoc LParen = consume().loc();
  while (!isPunct(")")) {
    RustScrut E;
    if (!parseScrutinee(E))
      return false;
    S.Elems.push_back(std::move(E));
    if (consumePunct(","))
      continue;
    if (!isPunct(")")) {
      error(tok().loc(),
            "expected ',' or ')' in the tuple, found " + describe(tok()));
      note(LParen, "to match this '('");
      return false;
    }
  }
  consume(); // ')'
  return true;
}

/// The tuple pattern \p P is or has under `x @`, or its first
/// alternative that is one; null if none.
static const RustPat *tupleShape(const RustPat &P) {
  if (P.K == RustPat::Tuple)
    return &P;
  if (P.K == RustPat::Bind && P.Sub)
    return tupleShape(*P.Sub);
  if (P.K == RustPat::Or)
    for (const RustPat &A : P.Elems)
      if (const RustPat *T = tupleShape(A))
        return T;
  return nullptr;
}

void RustParser::expandScrutinee(const RustPat &P, RustScrut &S,
                                 llvm::StringRef Prefix) {
  const RustPat *T = tupleShape(P);
  if (!T)
    return;
  if (S.isTuple()) {
    if (T->Elems.size() == S.Elems.size())
      for (size_t I = 0; I < S.Elems.size(); ++I)
        expandScrutinee(T->Elems[I], S.Elems[I], Prefix);
    return; // Otherwise checkPat() reports.
  }
  if (isLiteral(*S.Value))
    return;
  // Splits \p Sc, the tuple value \p Whole, into its elements as deep as
  // the tuple pattern \p Q goes.
  std::function<void(const RustPat &, RustScrut &, hir::ExprPtr)> Split =
      [&](const RustPat &Q, RustScrut &Sc, hir::ExprPtr Whole) {
        SMLoc L = Sc.Loc;
        Sc.Value.reset();
        Sc.Split = false;
        Sc.Elems.clear();
        for (size_t I = 0; I < Q.Elems.size(); ++I) {
          RustScrut E;
          E.Loc = L;
          E.Value = std::make_unique<hir::MemberExpr>(L, cloneExpr(*Whole, L),
                                                      std::to_string(I));
          E.Split = true;
          if (const RustPat *Sub = tupleShape(Q.Elems[I]))
            Split(*Sub, E, cloneExpr(*E.Value, L));
          Sc.Elems.push_back(std::move(E));
        }
        Sc.Whole = std::move(Whole);
      };
  SMLoc L = S.Value->loc();
  hir::ExprPtr Whole;
  if (S.Split) {
    Whole = std::move(S.Value);
  } else {
    std::string N = declareHidden(Prefix, std::move(S.Value), L);
    Whole = std::make_unique<hir::NameExpr>(L, N);
  }
  Split(*T, S, std::move(Whole));
}

void RustParser::scrutineeLeaves(RustScrut &S,
                                 std::vector<hir::ExprPtr> &Leaves,
                                 llvm::StringRef Prefix) {
  if (S.isTuple()) {
    for (RustScrut &E : S.Elems)
      scrutineeLeaves(E, Leaves, Prefix);
    return;
  }
  SMLoc L = S.Value->loc();
  if (isLiteral(*S.Value) || S.Split) {
    Leaves.push_back(std::move(S.Value));
  } else {
    std::string N = declareHidden(Prefix, std::move(S.Value), L);
    Leaves.push_back(std::make_unique<hir::NameExpr>(L, N));
  }
  S.Value = cloneExpr(*Leaves.back(), L); // Keeps the leaf shape.
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

hir::ExprPtr RustParser::parsePatConst(RustConstVal &V) {
  const RustToken T = tok();
  bool Neg = false;
  if (T.isPunct("-")) {
    consume();
    Neg = true;
  }
  const RustToken C = tok();
  hir::ExprPtr E;
  const RustEnum *Enum = nullptr;
  if (C.is(RustTok::Number)) {
    E = parseNumber();
  } else if (C.isIdent("true") || C.isIdent("false")) {
    consume();
    E = std::make_unique<hir::BoolLitExpr>(C.loc(), C.Text == "true");
  } else if (C.is(RustTok::Ident) && isPunct("::", 1)) {
    consume();
    consume();
    RustToken Var;
    if (!expectName(Var, "a variant name after '::'"))
      return nullptr;
    if (isPunct("(") || isPunct("{")) {
      error(tok().loc(), "tuple-struct and struct patterns are not supported "
                         "in WAVE kernels");
      return nullptr;
    }
    if (isPunct("::")) {
      error(tok().loc(), "only 'Enum::Variant' paths can be patterns in WAVE "
                         "kernels");
      return nullptr;
    }
    E = resolveEnumPath(C.Text, Var);
    if (auto It = Enums.find(C.Text); It != Enums.end())
      Enum = It->second.get();
    if (!E) {
      error(C.loc(), "'" + C.Text +
                         "' is not an enum; only 'Enum::Variant' "
                         "paths can be patterns in WAVE kernels");
      return nullptr;
    }
  } else if (C.is(RustTok::Ident) && lookupConst(C.Text)) {
    consume();
    E = cloneExpr(*lookupConst(C.Text), C.loc());
  } else if (C.is(RustTok::String) || C.is(RustTok::Char)) {
    unexpected(C, "");
    return nullptr;
  } else {
    error(C.loc(), "expected a literal, a constant or an enum variant in the "
                   "pattern, found " +
                       describe(C));
    return nullptr;
  }
  if (Neg)
    E = std::make_unique<hir::UnaryExpr>(T.loc(), hir::UnaryOp::Neg,
                                         std::move(E));
  std::optional<RustConstVal> R = evalConst(*E, std::nullopt);
  if (!R)
    return nullptr;
  V = *R;
  if (!Neg)
    V.Enum = Enum; // For the exhaustiveness check.
  if (V.K == RustConstVal::Float) {
    error(T.loc(), "float patterns are not supported in WAVE kernels; "
                   "compare in a guard");
    return nullptr;
  }
  return E;
}

bool RustParser::parsePattern(RustPat &P) {
  RustPat First;
  if (!parsePatternNoOr(First))
    return false;
  if (!isPunct("|")) {
    P = std::move(First);
    return true;
  }
  P.K = RustPat::Or;
  P.Loc = First.Loc;
  P.Elems.push_back(std::move(First));
  while (consumePunct("|")) {
    RustPat Alt;
    if (!parsePatternNoOr(Alt))
      return false;
    P.Elems.push_back(std::move(Alt));
  }
  for (const RustPat &A : P.Elems)
    if (containsBinding(A)) {
      error(A.Loc, "bindings inside '|' alternatives are not supported in "
                   "WAVE kernels; bind the whole pattern with '@'");
      return false;
    }
  return true;
}

bool RustParser::parsePatternNoOr(RustPat &P) {
  if (!enterNesting())
    return false;
  NestingScope L{*this};
  const RustToken T = tok();
  P.Loc = T.loc();
  if (T.isIdent("_")) {
    consume();
    P.K = RustPat::Wild;
    return true;
  }
  if (T.isPunct("(")) {
    SMLoc LParen = consume().loc();
    if (isPunct(")")) {
      error(T.loc(), "the unit pattern '()' is not supported in WAVE kernels");
      return false;
    }
    bool Comma = false;
    std::vector<RustPat> Elems;
    while (!isPunct(")")) {
      if (isPunct("..")) {
        error(tok().loc(), "rest patterns ('..') are not supported in WAVE "
                           "kernels; write '_' for each element");
        return false;
      }
      RustPat E;
      if (!parsePattern(E))
        return false;
      Elems.push_back(std::move(E));
      if (consumePunct(",")) {
        Comma = true;
        continue;
      }
      if (!isPunct(")")) {
        error(tok().loc(), "expected ',' or ')' in the tuple pattern, found " +
                               describe(tok()));
        note(LParen, "to match this '('");
        return false;
      }
    }
    consume(); // ')'
    if (Elems.size() == 1 && !Comma) {
      P = std::move(Elems[0]); // Parenthesized.
      return true;
    }
    P.K = RustPat::Tuple;
    P.Elems = std::move(Elems);
    return true;
  }
  if (T.isPunct("[")) {
    error(T.loc(), "slice patterns are not supported in WAVE kernels");
    return false;
  }
  if (T.isPunct("&") || T.isPunct("&&")) {
    error(T.loc(), "reference patterns are not supported in WAVE kernels");
    return false;
  }
  if (T.isIdent("ref") || T.isIdent("box")) {
    error(T.loc(), "'" + T.Text +
                       "' patterns are not supported in WAVE "
                       "kernels");
    return false;
  }
  if (T.isPunct("..=") || T.isPunct("..")) {
    // `..=hi`: no lower bound.
    consume();
    P.K = RustPat::Range;
    P.Inclusive = T.Text == "..=";
    RustConstVal V;
    P.Hi = parsePatConst(V);
    if (!P.Hi)
      return false;
    P.HiVal = V.I;
    return true;
  }
  bool StartsConst = T.is(RustTok::Number) || T.isPunct("-") ||
                     T.isIdent("true") || T.isIdent("false") ||
                     T.is(RustTok::String) || T.is(RustTok::Char) ||
                     (T.is(RustTok::Ident) && isPunct("::", 1));
  if (T.is(RustTok::Ident) && !StartsConst) {
    if (isPunct("(", 1)) {
      error(T.loc(), "tuple-struct patterns ('" + T.Text +
                         "(...)') are not supported in WAVE kernels");
      return false;
    }
    if (isPunct("{", 1) && !T.isIdent("mut")) {
      error(T.loc(), "struct patterns are not supported in WAVE kernels");
      return false;
    }
    StartsConst = !T.isIdent("mut") && lookupConst(T.Text);
    if (!StartsConst) {
      // A binding: `x`, `mut x`, `x @ subpattern`.
      if (T.isIdent("mut")) {
        consume();
        P.Mutable = true;
      }
      RustToken Name;
      if (!expectName(Name, "a pattern"))
        return false;
      P.K = RustPat::Bind;
      P.Name = Name.Text.str();
      if (consumePunct("@")) {
        auto Sub = std::make_unique<RustPat>();
        if (!parsePatternNoOr(*Sub))
          return false;
        if (containsBinding(*Sub)) {
          error(Sub->Loc, "bindings after '@' are not supported in WAVE "
                          "kernels");
          return false;
        }
        P.Sub = std::move(Sub);
      }
      return true;
    }
  }
  if (!StartsConst) {
    error(T.loc(), "expected a pattern, found " + describe(T));
    return false;
  }
  RustConstVal Lo;
  hir::ExprPtr LoE = parsePatConst(Lo);
  if (!LoE)
    return false;
  if (!isPunct("..=") && !isPunct("..") && !isPunct("...")) {
    P.K = RustPat::Const;
    P.Value = std::move(LoE);
    P.CVal = Lo;
    return true;
  }
  const RustToken Op = consume();
  P.K = RustPat::Range;
  P.Inclusive = Op.Text != "..";
  if (Lo.K != RustConstVal::Int) {
    error(P.Loc, "range patterns take integer bounds");
    return false;
  }
  P.Lo = std::move(LoE);
  P.LoVal = Lo.I;
  bool HasHi = tok().is(RustTok::Number) || isPunct("-") ||
               (tok().is(RustTok::Ident) && !isRustKeyword(tok().Text));
  if (!HasHi) {
    if (P.Inclusive) {
      error(tok().loc(), "expected the upper bound after '" + Op.Text + "'");
      return false;
    }
    return true; // `lo..`: no upper bound.
  }
  RustConstVal Hi;
  P.Hi = parsePatConst(Hi);
  if (!P.Hi)
    return false;
  if (Hi.K != RustConstVal::Int) {
    error(P.Loc, "range patterns take integer bounds");
    return false;
  }
  P.HiVal = Hi.I;
  if (P.Inclusive ? *P.LoVal > *P.HiVal : *P.LoVal >= *P.HiVal) {
    error(Op.loc(), P.Inclusive ? "lower range bound must be less than or "
                                  "equal to the upper bound"
                                : "lower range bound must be less than the "
                                  "upper bound");
    return false;
  }
  return true;
}

bool RustParser::checkPat(const RustPat &P, const RustScrut &S) {
  switch (P.K) {
  case RustPat::Wild:
    return true;
  case RustPat::Bind:
    if (P.Sub)
      return checkPat(*P.Sub, S);
    if (S.isTuple() && !S.Whole) {
      error(P.Loc, "binding a whole tuple scrutinee is not supported in "
                   "WAVE kernels; bind its elements: '(a, b)'");
      return false;
    }
    return true;
  case RustPat::Or:
    for (const RustPat &A : P.Elems)
      if (!checkPat(A, S))
        return false;
    return true;
  case RustPat::Const:
  case RustPat::Range:
    if (S.isTuple()) {
      error(P.Loc, "expected a tuple pattern of " +
                       llvm::Twine(S.Elems.size()) +
                       " elements: the scrutinee is a tuple");
      return false;
    }
    return true;
  case RustPat::Tuple:
    break;
  }
  if (!S.isTuple()) {
    error(P.Loc, "a tuple pattern needs a tuple value or a scrutinee such "
                 "as '(a, b)' (a match takes a tuple value apart when its "
                 "first arm's pattern is a tuple)");
    return false;
  }
  if (P.Elems.size() != S.Elems.size()) {
    error(P.Loc, "this pattern has " + llvm::Twine(P.Elems.size()) +
                     " elements but the tuple has " +
                     llvm::Twine(S.Elems.size()));
    return false;
  }
  for (size_t I = 0; I < P.Elems.size(); ++I)
    if (!checkPat(P.Elems[I], S.Elems[I]))
      return false;
  return true;
}

hir::ExprPtr RustParser::patTest(const RustPat &P, const RustScrut &S,
                                 const std::vector<hir::ExprPtr> &Leaves,
                                 size_t First) {
  using hir::BinaryOp;
  switch (P.K) {
  case RustPat::Wild:
    return nullptr;
  case RustPat::Bind:
    return P.Sub ? patTest(*P.Sub, S, Leaves, First) : nullptr;
  case RustPat::Const: {
    hir::ExprPtr Leaf = cloneExpr(*Leaves[First], P.Loc);
    if (P.CVal.K == RustConstVal::Bool)
      return P.CVal.I ? std::move(Leaf)
                      : std::make_unique<hir::UnaryExpr>(
                            P.Loc, hir::UnaryOp::RustNot, std::move(Leaf));
    return std::make_unique<hir::BinaryExpr>(
        P.Loc, BinaryOp::Eq, std::move(Leaf), cloneExpr(*P.Value, P.Loc));
  }
  case RustPat::Range: {
    hir::ExprPtr T;
    if (P.Lo)
      T = std::make_unique<hir::BinaryExpr>(P.Loc, BinaryOp::Ge,
                                            cloneExpr(*Leaves[First], P.Loc),
                                            cloneExpr(*P.Lo, P.Loc));
    if (P.Hi)
      T = andExpr(std::move(T),
                  std::make_unique<hir::BinaryExpr>(
                      P.Loc, P.Inclusive ? BinaryOp::Le : BinaryOp::Lt,
                      cloneExpr(*Leaves[First], P.Loc),
                      cloneExpr(*P.Hi, P.Loc)),
                  P.Loc);
    return T;
  }
  case RustPat::Or: {
    hir::ExprPtr T;
    for (const RustPat &A : P.Elems) {
      hir::ExprPtr AT = patTest(A, S, Leaves, First);
      if (!AT)
        return nullptr;
      T = T ? std::make_unique<hir::BinaryExpr>(P.Loc, BinaryOp::LogicalOr,
                                                std::move(T), std::move(AT))
            : std::move(AT);
    }
    return T;
  }
  case RustPat::Tuple:
    break;
  }
  hir::ExprPtr T;
  for (size_t I = 0; I < P.Elems.size(); ++I) {
    T = andExpr(std::move(T), patTest(P.Elems[I], S.Elems[I], Leaves, First),
                P.Loc);
    First += leafCount(S.Elems[I]);
  }
  return T;
}

bool RustParser::bindPattern(const RustPat &P, const RustScrut &S,
                             const std::vector<hir::ExprPtr> &Leaves,
                             size_t First, bool BlockBody,
                             std::vector<hir::StmtPtr> &RealDecls) {
  if (P.K == RustPat::Tuple) {
    for (size_t I = 0; I < P.Elems.size(); ++I) {
      if (!bindPattern(P.Elems[I], S.Elems[I], Leaves, First, BlockBody,
                       RealDecls))
        return false;
      First += leafCount(S.Elems[I]);
    }
    return true;
  }
  if (P.K != RustPat::Bind)
    return true; // `|` alternatives bind nothing (parsePattern).
  // A whole tuple value is its hidden copy (checkPat).
  const hir::Expr &Value = S.isTuple() ? *S.Whole : *Leaves[First];
  if (P.Mutable && BlockBody) {
    RealDecls.push_back(std::make_unique<hir::VarDecl>(
        P.Loc, P.Name, std::nullopt, cloneExpr(Value, P.Loc),
        /*Mutable=*/true));
    Names.push_back({P.Name, NameEntry::Local, nullptr});
    return true;
  }
  Names.push_back({P.Name, NameEntry::Alias, cloneExpr(Value, P.Loc)});
  return true;
}

//===----------------------------------------------------------------------===//
// match
//===----------------------------------------------------------------------===//

std::unique_ptr<RustMatch> RustParser::parseMatch() {
  if (!enterNesting())
    return nullptr;
  NestingScope L{*this};
  auto M = std::make_unique<RustMatch>();
  M->Loc = consume().loc(); // 'match'
  bool Saved = NoStructLiteral;
  NoStructLiteral = true;
  bool Ok = parseScrutinee(M->Shape);
  NoStructLiteral = Saved;
  if (!Ok)
    return nullptr;
  // The leaves are made at the first arm, whose pattern may take a tuple
  // value apart (expandScrutinee).
  bool HasLeaves = false;
  auto MakeLeaves = [&](const RustPat *First) {
    if (HasLeaves)
      return;
    if (First)
      expandScrutinee(*First, M->Shape, "match.s");
    scrutineeLeaves(M->Shape, M->Leaves, "match.s");
    HasLeaves = true;
  };
  if (!isPunct("{")) {
    MakeLeaves(nullptr);
    error(tok().loc(),
          "expected '{' after the match scrutinee, found " + describe(tok()));
    return nullptr;
  }
  SMLoc LBrace = consume().loc();
  // Skips the rest of a broken arm: to its ',' or the match's '}'.
  auto SkipArm = [&] {
    while (!atEof() && !isPunct("}") && !isPunct(",")) {
      if (isPunct("(") || isPunct("[") || isPunct("{"))
        skipBalanced();
      else
        consume();
    }
    consumePunct(",");
  };
  while (!atEof() && !isPunct("}")) {
    RustArm Arm;
    size_t NamesMark = Names.size();
    consumePunct("|");
    Arm.Pat.Loc = tok().loc();
    bool Parsed = parsePattern(Arm.Pat);
    MakeLeaves(Parsed ? &Arm.Pat : nullptr);
    if (!Parsed || !checkPat(Arm.Pat, M->Shape)) {
      Arm.Broken = true;
      M->Broken = true;
      // Skip the pattern; the arm's body is still parsed for its errors.
      while (!atEof() && !isPunct("=>") && !isPunct("}")) {
        if (isPunct("(") || isPunct("[") || isPunct("{"))
          skipBalanced();
        else
          consume();
      }
      if (!isPunct("=>"))
        break;
    }
    // Mutable bindings of a block arm are real variables; look ahead past
    // the guard for the `{`.
    bool BlockBody = false;
    {
      unsigned Level = 0;
      for (size_t I = Pos; I < Toks.size() && !Toks[I].is(RustTok::Eof); ++I) {
        const RustToken &T = Toks[I];
        if (T.isPunct("(") || T.isPunct("[") || T.isPunct("{"))
          ++Level;
        else if ((T.isPunct(")") || T.isPunct("]") || T.isPunct("}")) &&
                 Level-- == 0)
          break;
        else if (Level == 0 && T.isPunct("=>")) {
          BlockBody = I + 1 < Toks.size() && Toks[I + 1].isPunct("{");
          break;
        }
      }
    }
    std::vector<hir::StmtPtr> RealDecls;
    if (!Arm.Broken)
      bindPattern(Arm.Pat, M->Shape, M->Leaves, 0, BlockBody, RealDecls);
    if (isIdent("if")) {
      consume();
      size_t Mark = Pre.size();
      Arm.Guard = parseExpr();
      if (!Arm.Guard) {
        Names.resize(NamesMark);
        M->Broken = true;
        SkipArm();
        continue;
      }
      if (!takePre(Mark).empty())
        error(Arm.Guard->loc(), "a 'match' or a block-valued 'if' in a match "
                                "guard is not supported in WAVE kernels; "
                                "compute it before the match");
    }
    if (!isPunct("=>")) {
      error(tok().loc(), "expected '=>' after the match arm's pattern, "
                         "found " +
                             describe(tok()));
      Names.resize(NamesMark);
      M->Broken = true;
      SkipArm();
      continue;
    }
    Arm.Loc = consume().loc();
    if (isPunct("{")) {
      Arm.Body = parseBlock();
      auto &Body = Arm.Body.Block->Body;
      Body.insert(Body.begin(), std::make_move_iterator(RealDecls.begin()),
                  std::make_move_iterator(RealDecls.end()));
      consumePunct(",");
    } else {
      Arm.Body.Block = std::make_unique<hir::BlockStmt>(tok().loc());
      auto &Body = Arm.Body.Block->Body;
      const RustToken T = tok();
      bool Ok = true;
      size_t Mark = Pre.size();
      if (T.isIdent("return") || T.isIdent("break") || T.isIdent("continue")) {
        consume();
        if (T.Text == "return") {
          hir::ExprPtr V;
          if (!isPunct(",") && !isPunct("}")) {
            V = parseExpr();
            Ok = V != nullptr;
          }
          Body.push_back(
              std::make_unique<hir::ReturnStmt>(T.loc(), std::move(V)));
        } else if (T.Text == "break") {
          Body.push_back(std::make_unique<hir::BreakStmt>(T.loc()));
        } else {
          Body.push_back(std::make_unique<hir::ContinueStmt>(T.loc()));
        }
      } else if (T.isPunct("(") && isPunct(")", 1)) {
        Pos += 2; // `()`: nothing.
      } else {
        hir::ExprPtr E = parseExpr();
        Ok = E != nullptr;
        std::optional<hir::BinaryOp> Op;
        if (E && tok().is(RustTok::Punct) &&
            (isPunct("=") ||
             (tok().Text.size() >= 2 && tok().Text.back() == '=' &&
              !isPunct("==") && !isPunct("!=") && !isPunct("<=") &&
              !isPunct(">=") && !isPunct("=>")))) {
          // `pat => x = e,`: an assignment arm.
          RustToken OpTok = consume();
          assignOp(OpTok, Op);
          if (!llvm::isa<hir::NameExpr>(*E) && !llvm::isa<hir::IndexExpr>(*E))
            error(E->loc(), "invalid left-hand side of assignment: expected "
                            "a variable or an element 'a[i]'");
          hir::ExprPtr V = parseExpr();
          Ok = V != nullptr;
          if (V)
            Body.push_back(std::make_unique<hir::AssignStmt>(
                OpTok.loc(), std::move(E), std::move(V), Op));
        } else if (E) {
          Arm.Body.Tail = std::move(E);
        }
      }
      std::vector<hir::StmtPtr> ArmPre = takePre(Mark);
      Body.insert(Body.begin(), std::make_move_iterator(ArmPre.begin()),
                  std::make_move_iterator(ArmPre.end()));
      if (!Ok) {
        Names.resize(NamesMark);
        M->Broken = true;
        SkipArm();
        continue;
      }
      if (!consumePunct(",") && !isPunct("}")) {
        error(tok().loc(), "expected ',' or '}' after the match arm, found " +
                               describe(tok()));
        Names.resize(NamesMark);
        M->Broken = true;
        SkipArm();
        continue;
      }
    }
    Names.resize(NamesMark);
    M->Arms.push_back(std::move(Arm));
  }
  MakeLeaves(nullptr);
  if (!consumePunct("}")) {
    error(tok().loc(),
          "expected '}' to close the match, found " + describe(tok()));
    note(LBrace, "to match this '{'");
    return nullptr;
  }
  return M;
}

bool RustParser::checkExhaustive(const RustMatch &M) {
  size_t NumCols = M.Leaves.size();
  std::vector<Row> Rows;
  bool Expanded = true;
  for (const RustArm &A : M.Arms) {
    if (A.Broken || A.Guard)
      continue;
    std::vector<Row> R;
    if (!expandRows(A.Pat, M.Shape, R)) {
      Expanded = false;
      continue;
    }
    Rows.insert(Rows.end(), R.begin(), R.end());
    if (Rows.size() > MaxRows) {
      Expanded = false;
      break;
    }
  }
  if (covers(Rows, 0, NumCols))
    return true;
  if (M.Broken)
    return false;
  (void)Expanded;
  error(M.Loc, "non-exhaustive match: add an arm '_ => ...' (a match over "
               "integers needs an arm without a guard whose pattern is '_' "
               "or a name; a match over an enum or bool may list every value "
               "instead)");
  return false;
}

bool RustParser::matchNeedsStmts(const RustMatch &M) const {
  for (const RustArm &A : M.Arms)
    if (!A.Broken && blockNeedsStmts(A.Body))
      return true;
  return false;
}

hir::ExprPtr RustParser::armTest(RustMatch &M, RustArm &A, bool Last,
                                 bool Exhaustive) {
  if (A.Guard)
    return andExpr(patTest(A.Pat, M.Shape, M.Leaves, 0), std::move(A.Guard),
                   A.Pat.Loc);
  if (Last && Exhaustive)
    return nullptr; // The last arm of an exhaustive match.
  return patTest(A.Pat, M.Shape, M.Leaves, 0);
}

hir::StmtPtr RustParser::matchToStmt(std::unique_ptr<RustMatch> M,
                                     const ValueSink &S) {
  bool Exhaustive = checkExhaustive(*M);
  hir::StmtPtr Chain;
  for (size_t I = M->Arms.size(); I-- > 0;) {
    RustArm &A = M->Arms[I];
    if (A.Broken)
      continue;
    hir::ExprPtr Test = armTest(*M, A, !Chain, Exhaustive);
    // A statement match drops the values of its arms (`match x { 0 => 1,
    // _ => 2 };`), calls excepted.
    if (S.K == ValueSink::Discard && A.Body.Tail &&
        !llvm::isa<hir::CallExpr>(*A.Body.Tail))
      A.Body.Tail.reset();
    std::unique_ptr<hir::BlockStmt> Body = finishBlock(std::move(A.Body), S);
    if (!Test)
      Chain = std::move(Body);
    else
      Chain = std::make_unique<hir::IfStmt>(A.Pat.Loc, std::move(Test),
                                            std::move(Body), std::move(Chain));
  }
  if (!Chain)
    Chain = std::make_unique<hir::BlockStmt>(M->Loc);
  return Chain;
}

hir::ExprPtr RustParser::matchToExpr(std::unique_ptr<RustMatch> M) {
  SMLoc Loc = M->Loc;
  if (matchNeedsStmts(*M)) {
    std::string N = declareHidden("match.v", nullptr, Loc);
    hir::StmtPtr S = matchToStmt(std::move(M), ValueSink{ValueSink::Assign, N});
    Pre.push_back(std::move(S));
    return std::make_unique<hir::NameExpr>(Loc, N);
  }
  bool Exhaustive = checkExhaustive(*M);
  hir::ExprPtr Chain;
  bool Ok = !M->Broken;
  for (size_t I = M->Arms.size(); I-- > 0;) {
    RustArm &A = M->Arms[I];
    if (A.Broken)
      continue;
    hir::ExprPtr Test = armTest(*M, A, !Chain, Exhaustive);
    hir::ExprPtr V = blockToExpr(std::move(A.Body), A.Loc);
    if (!V) {
      Ok = false;
      continue;
    }
    if (!Test || !Chain)
      Chain = std::move(V);
    else
      Chain = std::make_unique<hir::ConditionalExpr>(
          A.Pat.Loc, std::move(Test), std::move(V), std::move(Chain));
  }
  if (!Chain) {
    if (Ok)
      error(Loc, "a match used as a value needs at least one arm");
    return nullptr;
  }
  return Chain;
}

//===----------------------------------------------------------------------===//
// if let, while let, let (a, b)
//===----------------------------------------------------------------------===//

bool RustParser::parseIfLet(RustIf &If, std::vector<hir::StmtPtr> &RealDecls) {
  consume(); // 'let'
  consumePunct("|");
  RustPat P;
  if (!parsePattern(P))
    return false;
  if (!expectPunct("=", "after the 'if let' pattern"))
    return false;
  size_t Mark = Pre.size();
  RustScrut S;
  bool Saved = NoStructLiteral;
  NoStructLiteral = true;
  bool Ok = parseScrutinee(S);
  NoStructLiteral = Saved;
  if (Ok)
    expandScrutinee(P, S, "if.s");
  if (!Ok || !checkPat(P, S)) {
    takePre(Mark, /*KeepPure=*/false);
    return false;
  }
  std::vector<hir::ExprPtr> Leaves;
  scrutineeLeaves(S, Leaves, "if.s");
  If.CondPre = takePre(Mark);
  If.Cond = patTest(P, S, Leaves, 0);
  if (!If.Cond)
    If.Cond = std::make_unique<hir::BoolLitExpr>(If.Loc, true);
  return bindPattern(P, S, Leaves, 0, /*BlockBody=*/true, RealDecls);
}

hir::StmtPtr RustParser::parseWhileLet(SMLoc WhileLoc) {
  consume(); // 'let'
  consumePunct("|");
  size_t Mark = Pre.size();
  size_t NamesMark = Names.size();
  auto Fail = [&]() -> hir::StmtPtr {
    takePre(Mark, /*KeepPure=*/false);
    Names.resize(NamesMark);
    return nullptr;
  };
  RustPat P;
  if (!parsePattern(P) || !expectPunct("=", "after the 'while let' pattern"))
    return Fail();
  RustScrut S;
  bool Saved = NoStructLiteral;
  NoStructLiteral = true;
  bool Ok = parseScrutinee(S);
  NoStructLiteral = Saved;
  if (Ok)
    expandScrutinee(P, S, "while.s");
  if (!Ok || !checkPat(P, S))
    return Fail();
  std::vector<hir::ExprPtr> Leaves;
  scrutineeLeaves(S, Leaves, "while.s");
  hir::ExprPtr Test = patTest(P, S, Leaves, 0);
  std::vector<hir::StmtPtr> RealDecls;
  bindPattern(P, S, Leaves, 0, /*BlockBody=*/true, RealDecls);
  // The scrutinee runs again on every iteration: everything it needs goes
  // into the loop.
  std::vector<hir::StmtPtr> LoopPre = takePre(Mark, /*KeepPure=*/false);
  std::unique_ptr<hir::BlockStmt> Body = parseStmtBlock();
  Names.resize(NamesMark);
  if (!Body)
    return nullptr;
  Body->Body.insert(Body->Body.begin(),
                    std::make_move_iterator(RealDecls.begin()),
                    std::make_move_iterator(RealDecls.end()));
  // while let P = E { B }  ==>  loop { let s = E; if test { B } else { break; }
  // }
  auto Loop = std::make_unique<hir::BlockStmt>(Body->loc());
  for (hir::StmtPtr &St : LoopPre)
    Loop->Body.push_back(std::move(St));
  if (Test) {
    auto Else = std::make_unique<hir::BlockStmt>(WhileLoc);
    Else->Body.push_back(std::make_unique<hir::BreakStmt>(WhileLoc));
    Loop->Body.push_back(std::make_unique<hir::IfStmt>(
        WhileLoc, std::move(Test), std::move(Body), std::move(Else)));
  } else {
    Loop->Body.push_back(std::move(Body));
  }
  return std::make_unique<hir::WhileStmt>(
      WhileLoc, std::make_unique<hir::BoolLitExpr>(WhileLoc, true),
      std::move(Loop));
}

hir::StmtPtr RustParser::parseLetTuple() {
  RustPat P;
  if (!parsePatternNoOr(P))
    return nullptr;
  // Only names and '_' may be bound by 'let': the pattern must always
  // match.
  std::vector<const RustPat *> Flat;
  std::function<bool(const RustPat &)> Walk = [&](const RustPat &Q) {
    if (Q.K == RustPat::Tuple) {
      for (const RustPat &E : Q.Elems)
        if (!Walk(E))
          return false;
      return true;
    }
    if ((Q.K == RustPat::Bind && !Q.Sub) || Q.K == RustPat::Wild) {
      Flat.push_back(&Q);
      return true;
    }
    error(Q.Loc, "refutable pattern in 'let': use 'if let' or 'match'");
    return false;
  };
  if (!Walk(P))
    return nullptr;
  std::vector<std::optional<hir::Scalar>> Types;
  if (consumePunct(":")) {
    std::function<bool()> ParseTy = [&]() {
      if (!isPunct("(")) {
        std::optional<hir::Scalar> S = parseScalarType("in the tuple type");
        Types.push_back(S);
        return S.has_value();
      }
      consume();
      while (!isPunct(")")) {
        if (!ParseTy())
          return false;
        if (!consumePunct(",") && !isPunct(")")) {
          error(tok().loc(), "expected ',' or ')' in the tuple type, found " +
                                 describe(tok()));
          return false;
        }
      }
      consume();
      return true;
    };
    if (!ParseTy())
      return nullptr;
    if (Types.size() != Flat.size()) {
      error(P.Loc, "the tuple type has " + llvm::Twine(Types.size()) +
                       " elements but the pattern binds " +
                       llvm::Twine(Flat.size()));
      return nullptr;
    }
  }
  if (!expectPunct("=", "after the 'let' pattern"))
    return nullptr;
  RustScrut S;
  if (!parseScrutinee(S))
    return nullptr;
  expandScrutinee(P, S, "let.t");
  if (!checkPat(P, S))
    return nullptr;
  if (!endStmt("after the 'let' statement"))
    return nullptr;
  // The values, flattened like the pattern.
  std::vector<hir::ExprPtr> Values;
  std::function<void(RustScrut &)> Collect = [&](RustScrut &Sc) {
    if (!Sc.isTuple()) {
      Values.push_back(std::move(Sc.Value));
      return;
    }
    for (RustScrut &E : Sc.Elems)
      Collect(E);
  };
  Collect(S);
  if (Values.size() != Flat.size()) {
    error(P.Loc, "a nested tuple must be bound by a tuple pattern in 'let'");
    return nullptr;
  }
  // `let (a, b) = (b, a)` reads both values before binding either: go
  // through hidden copies when a value names an earlier binding.
  llvm::StringSet<> Bound;
  bool NeedCopies = false;
  for (size_t I = 0; I < Flat.size(); ++I) {
    if (mentions(*Values[I], Bound))
      NeedCopies = true;
    if (Flat[I]->K == RustPat::Bind)
      Bound.insert(Flat[I]->Name);
  }
  if (NeedCopies)
    for (hir::ExprPtr &V : Values)
      if (!isLiteral(*V)) {
        SMLoc L = V->loc();
        V = std::make_unique<hir::NameExpr>(
            L, declareHidden("let.t", std::move(V), L));
      }
  std::vector<hir::StmtPtr> Out;
  for (size_t I = 0; I < Flat.size(); ++I) {
    const RustPat &Q = *Flat[I];
    if (Q.K == RustPat::Wild) {
      if (llvm::isa<hir::CallExpr>(*Values[I])) {
        SMLoc L = Values[I]->loc();
        Out.push_back(std::make_unique<hir::ExprStmt>(L, std::move(Values[I])));
      }
      continue;
    }
    Out.push_back(std::make_unique<hir::VarDecl>(
        Q.Loc, Q.Name, Types.empty() ? std::nullopt : Types[I],
        std::move(Values[I]), Q.Mutable));
  }
  for (const RustPat *Q : Flat)
    if (Q->K == RustPat::Bind)
      declareLocal(Q->Name);
  if (Out.empty())
    return std::make_unique<hir::BlockStmt>(P.Loc);
  // All but the last go before it, in the enclosing scope.
  hir::StmtPtr Last = std::move(Out.back());
  Out.pop_back();
  for (hir::StmtPtr &St : Out)
    Pre.push_back(std::move(St));
  return Last;
}
