//===- CppExpr.cpp - C++ kernel dialect: expressions ----------------------===//
//
// Expressions of the C++ dialect by precedence climbing over the C++
// binary-operator table (`*` `/` `%` bind tightest, then `+ -`, `<< >>`,
// relations, equality, `&`, `^`, `|`, `&&`, `||`; all left-associative),
// with `?:` (right-associative) above them and prefix operators and C
// casts below. Postfix `a[i]` and calls by name (`wave::` and `std::`
// qualifiers are dropped), functional casts `float(x)` and `static_cast`
// make CastExprs; `f32(x)` stays a call for Sema. Number literals are
// evaluated with scanNumber() and their C++ suffixes mapped to WAVE types.
//
//===----------------------------------------------------------------------===//
#include "CppParser.h"

#include "wave/Frontend/NumberLiteral.h"

using namespace wave;
using namespace wave::fe;
using hir::BinaryOp;

/// Binding power of a binary operator token (0: not one) and its HIR
/// operator.
static unsigned binaryPrec(CppTok K, BinaryOp &Op) {
  switch (K) {
  case CppTok::PipePipe:
    Op = BinaryOp::LogicalOr;
    return 1;
  case CppTok::AmpAmp:
    Op = BinaryOp::LogicalAnd;
    return 2;
  case CppTok::Pipe:
    Op = BinaryOp::BitOr;
    return 3;
  case CppTok::Caret:
    Op = BinaryOp::BitXor;
    return 4;
  case CppTok::Amp:
    Op = BinaryOp::BitAnd;
    return 5;
  case CppTok::EqEq:
    Op = BinaryOp::Eq;
    return 6;
  case CppTok::NotEq:
    Op = BinaryOp::Ne;
    return 6;
  case CppTok::Less:
    Op = BinaryOp::Lt;
    return 7;
  case CppTok::LessEq:
    Op = BinaryOp::Le;
    return 7;
  case CppTok::Greater:
    Op = BinaryOp::Gt;
    return 7;
  case CppTok::GreaterEq:
    Op = BinaryOp::Ge;
    return 7;
  case CppTok::LessLess:
    Op = BinaryOp::Shl;
    return 8;
  case CppTok::GreaterGreater:
    Op = BinaryOp::Shr;
    return 8;
  case CppTok::Plus:
    Op = BinaryOp::Add;
    return 9;
  case CppTok::Minus:
    Op = BinaryOp::Sub;
    return 9;
  case CppTok::Star:
    Op = BinaryOp::Mul;
    return 10;
  case CppTok::Slash:
    Op = BinaryOp::Div;
    return 10;
  case CppTok::Percent:
    Op = BinaryOp::Rem;
    return 10;
  default:
    return 0;
  }
}

bool CppParser::isAssignOp(CppTok K) const {
  return K == CppTok::Equal || compoundOp(K).has_value();
}

std::optional<BinaryOp> CppParser::compoundOp(CppTok K) const {
  switch (K) {
  case CppTok::PlusEq:
    return BinaryOp::Add;
  case CppTok::MinusEq:
    return BinaryOp::Sub;
  case CppTok::StarEq:
    return BinaryOp::Mul;
  case CppTok::SlashEq:
    return BinaryOp::Div;
  case CppTok::PercentEq:
    return BinaryOp::Rem;
  case CppTok::AmpEq:
    return BinaryOp::BitAnd;
  case CppTok::PipeEq:
    return BinaryOp::BitOr;
  case CppTok::CaretEq:
    return BinaryOp::BitXor;
  case CppTok::LessLessEq:
    return BinaryOp::Shl;
  case CppTok::GreaterGreaterEq:
    return BinaryOp::Shr;
  default:
    return std::nullopt;
  }
}

void CppParser::rejectAssignmentInExpr() {
  if (!isAssignOp(tok().K))
    return;
  error(tok().loc(), "'" + tok().Text +
                         "' cannot be used inside an expression; assignments "
                         "are statements in WAVE kernels");
  consume();
  // Parse (and drop) the right-hand side so that parsing goes on after it.
  if (hir::ExprPtr Ignored = parseConditional())
    rejectAssignmentInExpr();
}

hir::ExprPtr CppParser::parseExpr() {
  hir::ExprPtr E = parseConditional();
  if (E)
    rejectAssignmentInExpr();
  return E;
}

hir::ExprPtr CppParser::parseConditional(hir::ExprPtr LHS) {
  DepthGuard G(*this);
  hir::ExprPtr Cond = parseBinary(1, std::move(LHS));
  if (!Cond || !is(CppTok::Question))
    return Cond;
  CppToken Q = consume();
  hir::ExprPtr Then = parseConditional();
  if (!Then)
    return nullptr;
  if (!consumeIf(CppTok::Colon)) {
    error(tok().loc(), "expected ':' in the conditional expression, found " +
                           describe(tok()));
    note(Q.loc(), "to match this '?'");
    return nullptr;
  }
  hir::ExprPtr Else = parseConditional();
  if (!Else)
    return nullptr;
  return std::make_unique<hir::ConditionalExpr>(
      Q.loc(), std::move(Cond), std::move(Then), std::move(Else));
}

hir::ExprPtr CppParser::parseBinary(unsigned MinPrec, hir::ExprPtr LHS) {
  if (!LHS) {
    LHS = parseUnary();
    if (!LHS)
      return nullptr;
  }
  while (true) {
    BinaryOp Op;
    unsigned Prec = binaryPrec(tok().K, Op);
    if (Prec == 0 || Prec < MinPrec)
      return LHS;
    CppToken OpTok = consume();
    hir::ExprPtr RHS = parseUnary();
    if (!RHS)
      return nullptr;
    BinaryOp NextOp;
    while (binaryPrec(tok().K, NextOp) > Prec) {
      RHS = parseBinary(Prec + 1, std::move(RHS));
      if (!RHS)
        return nullptr;
    }
    LHS = std::make_unique<hir::BinaryExpr>(OpTok.loc(), Op, std::move(LHS),
                                            std::move(RHS));
  }
}

hir::ExprPtr CppParser::parseUnary() {
  DepthGuard G(*this);
  const CppToken T = tok();
  std::optional<hir::UnaryOp> Op;
  switch (T.K) {
  case CppTok::Minus:
    Op = hir::UnaryOp::Neg;
    break;
  case CppTok::Plus:
    Op = hir::UnaryOp::Plus;
    break;
  case CppTok::Exclaim:
    Op = hir::UnaryOp::LogicalNot;
    break;
  case CppTok::Tilde:
    Op = hir::UnaryOp::BitNot;
    break;
  case CppTok::PlusPlus:
  case CppTok::MinusMinus:
    error(T.loc(), "'" + T.Text + "' is only supported as a statement");
    consume();
    return parseUnary();
  case CppTok::Star:
    error(T.loc(), "pointer dereference is not supported in WAVE kernels");
    consume();
    return parseUnary();
  case CppTok::Amp:
  case CppTok::AmpAmp:
    error(T.loc(), "taking an address is not supported in WAVE kernels");
    consume();
    return parseUnary();
  case CppTok::LParen:
    if (atCCast())
      return parseCCast();
    return parsePostfix();
  default:
    return parsePostfix();
  }
  consume();
  hir::ExprPtr Operand = parseUnary();
  if (!Operand)
    return nullptr;
  return std::make_unique<hir::UnaryExpr>(T.loc(), *Op, std::move(Operand));
}

bool CppParser::atCCast() {
  if (!is(CppTok::LParen) || !isTypeStart(1))
    return false;
  unsigned I = 1;
  while (true) {
    if (tok(I).isIdent("std") && isTypeStart(I)) {
      I += 3;
      continue;
    }
    if (tok(I).is(CppTok::Ident) && isTypeStart(I)) {
      ++I;
      continue;
    }
    break;
  }
  while (is(CppTok::Star, I) || is(CppTok::Amp, I) || is(CppTok::AmpAmp, I))
    ++I;
  return is(CppTok::RParen, I);
}

hir::ExprPtr CppParser::parseCCast() {
  CppToken LParen = consume();
  CppTypeSpec TS = parseTypeSpec(/*AllowAuto=*/false);
  bool Bad = false;
  if (is(CppTok::Star) || is(CppTok::Amp) || is(CppTok::AmpAmp)) {
    error(tok().loc(), "pointer and reference casts are not supported in "
                       "WAVE kernels");
    Bad = true;
    while (!is(CppTok::RParen) && !is(CppTok::Eof))
      consume();
  }
  if (!expect(CppTok::RParen, "after the type of the cast"))
    return nullptr;
  hir::ExprPtr Operand = parseUnary();
  if (!Operand)
    return nullptr;
  if (TS.IsVoid && !Bad) {
    error(TS.Loc, "casts to 'void' are not supported in WAVE kernels");
    Bad = true;
  }
  if (Bad)
    return Operand;
  return std::make_unique<hir::CastExpr>(LParen.loc(), TS.S,
                                         std::move(Operand));
}

hir::ExprPtr CppParser::parseNamedCast() {
  CppToken KW = consume();
  if (!expect(CppTok::Less, "after '" + KW.Text + "'"))
    return nullptr;
  if (!isTypeStart()) {
    error(tok().loc(), "expected a type in '" + KW.Text + "', found " +
                           describe(tok()));
    return nullptr;
  }
  CppTypeSpec TS = parseTypeSpec(/*AllowAuto=*/false);
  if (is(CppTok::Star) || is(CppTok::Amp) || is(CppTok::AmpAmp)) {
    error(tok().loc(), "pointer and reference casts are not supported in "
                       "WAVE kernels");
    return nullptr;
  }
  if (!expect(CppTok::Greater, "after the type of '" + KW.Text + "'"))
    return nullptr;
  llvm::SMLoc LParen = tok().loc();
  if (!expect(CppTok::LParen, "after '" + KW.Text + "<...>'"))
    return nullptr;
  hir::ExprPtr E = parseExpr();
  if (!E)
    return nullptr;
  if (!consumeIf(CppTok::RParen)) {
    error(tok().loc(), "expected ')' to close '" + KW.Text + "', found " +
                           describe(tok()));
    note(LParen, "to match this '('");
    return nullptr;
  }
  if (TS.IsVoid) {
    error(TS.Loc, "casts to 'void' are not supported in WAVE kernels");
    return E;
  }
  return std::make_unique<hir::CastExpr>(KW.loc(), TS.S, std::move(E));
}

hir::ExprPtr CppParser::parsePostfix(bool StopAtIncDec) {
  hir::ExprPtr E = parsePrimary();
  if (!E)
    return nullptr;
  while (true) {
    const CppToken T = tok();
    switch (T.K) {
    case CppTok::LBracket: {
      consume();
      hir::ExprPtr Index = parseExpr();
      if (!Index)
        return nullptr;
      if (!consumeIf(CppTok::RBracket)) {
        error(tok().loc(), "expected ']' after the index, found " +
                               describe(tok()));
        note(T.loc(), "to match this '['");
        return nullptr;
      }
      E = std::make_unique<hir::IndexExpr>(T.loc(), std::move(E),
                                           std::move(Index));
      continue;
    }
    case CppTok::LParen:
      error(T.loc(), "only functions can be called by name in WAVE kernels");
      return nullptr;
    case CppTok::Dot:
    case CppTok::Arrow:
      error(T.loc(), "member access is not supported in WAVE kernels");
      return nullptr;
    case CppTok::PlusPlus:
    case CppTok::MinusMinus:
      if (StopAtIncDec)
        return E;
      error(T.loc(), "'" + T.Text + "' is only supported as a statement");
      consume();
      continue;
    default:
      return E;
    }
  }
}

hir::ExprPtr CppParser::parsePrimary() {
  const CppToken T = tok();
  switch (T.K) {
  case CppTok::Number:
    return parseNumber();
  case CppTok::Ident:
    return parseIdentifierExpr();
  case CppTok::String:
    error(T.loc(), "string literals are not supported in WAVE kernels");
    return nullptr;
  case CppTok::Char:
    error(T.loc(), "character literals are not supported in WAVE kernels");
    return nullptr;
  case CppTok::LParen: {
    consume();
    hir::ExprPtr E = parseExpr();
    if (!E)
      return nullptr;
    if (!consumeIf(CppTok::RParen)) {
      if (is(CppTok::Comma))
        error(tok().loc(), "the comma operator is not supported in WAVE "
                           "kernels");
      else
        error(tok().loc(), "expected ')', found " + describe(tok()));
      note(T.loc(), "to match this '('");
      return nullptr;
    }
    return E;
  }
  case CppTok::LBracket:
    error(T.loc(), "lambdas are not supported in WAVE kernels");
    return nullptr;
  case CppTok::LBrace:
    error(T.loc(), "initializer lists are not supported in WAVE kernels");
    return nullptr;
  case CppTok::ColonColon:
    error(T.loc(), "qualified names are not supported in WAVE kernels");
    return nullptr;
  default:
    error(T.loc(), "expected an expression, found " + describe(T));
    return nullptr;
  }
}

hir::ExprPtr CppParser::parseIdentifierExpr() {
  const CppToken T = tok();
  llvm::StringRef W = T.Text;
  if (W == "true" || W == "false") {
    consume();
    return std::make_unique<hir::BoolLitExpr>(T.loc(), W == "true");
  }
  if (W == "static_cast")
    return parseNamedCast();
  if (llvm::is_contained({"reinterpret_cast", "const_cast", "dynamic_cast",
                          "bit_cast", "this", "nullptr", "sizeof", "alignof",
                          "new", "delete", "throw", "typeid", "noexcept",
                          "co_await", "decltype", "alignas", "operator"},
                         W)) {
    error(T.loc(), "'" + W + "' is not supported in WAVE kernels");
    return nullptr;
  }
  unsigned Words = 0;
  if (std::optional<hir::Scalar> S = functionalCastType(0, Words);
      S && is(CppTok::LParen, Words)) {
    for (unsigned I = 0; I < Words; ++I)
      consume();
    CppToken LParen = consume();
    if (is(CppTok::RParen)) {
      error(tok().loc(), "a functional cast needs one value");
      return nullptr;
    }
    hir::ExprPtr E = parseExpr();
    if (!E)
      return nullptr;
    if (!consumeIf(CppTok::RParen)) {
      if (is(CppTok::Comma))
        error(tok().loc(), "a functional cast takes exactly one value");
      else
        error(tok().loc(), "expected ')' to close the cast, found " +
                               describe(tok()));
      note(LParen.loc(), "to match this '('");
      return nullptr;
    }
    return std::make_unique<hir::CastExpr>(T.loc(), *S, std::move(E));
  }
  // `f32(x)` and the other WAVE type names called like functions stay
  // calls; Sema makes them casts.
  bool WaveCast = llvm::is_contained({"f32", "f16", "f64", "i32", "u32"}, W) &&
                  is(CppTok::LParen, 1);
  if ((isTypeStart() && !WaveCast) || W == "auto") {
    error(T.loc(), "expected an expression, found type '" + W + "'");
    return nullptr;
  }
  if (llvm::is_contained({"if", "else", "while", "for", "do", "return",
                          "break", "continue", "switch", "case", "default",
                          "goto", "try", "catch", "using", "namespace",
                          "class", "struct", "union", "enum", "template",
                          "typedef", "static", "__shared__", "constexpr"},
                         W)) {
    error(T.loc(), "expected an expression, found '" + W + "'");
    return nullptr;
  }
  consume();
  if (is(CppTok::ColonColon)) {
    consume();
    if (!is(CppTok::Ident)) {
      error(tok().loc(), "expected a name after '" + W + "::', found " +
                             describe(tok()));
      return nullptr;
    }
    CppToken Name = consume();
    if (W != "wave" && W != "std") {
      error(T.loc(), "qualified name '" + W + "::" + Name.Text +
                         "' is not supported in WAVE kernels");
      return nullptr;
    }
    if (!is(CppTok::LParen)) {
      error(T.loc(), "'" + W + "::" + Name.Text +
                         "' must be called; other qualified names are not "
                         "supported in WAVE kernels");
      return nullptr;
    }
    return parseCallArgs(
        std::make_unique<hir::CallExpr>(Name.loc(), Name.Text.str()));
  }
  if (is(CppTok::LParen))
    return parseCallArgs(std::make_unique<hir::CallExpr>(T.loc(), W.str()));
  return std::make_unique<hir::NameExpr>(T.loc(), W.str());
}

hir::ExprPtr CppParser::parseCallArgs(std::unique_ptr<hir::CallExpr> Call) {
  CppToken LParen = consume();
  if (consumeIf(CppTok::RParen))
    return Call;
  while (true) {
    hir::ExprPtr A = parseExpr();
    if (!A)
      return nullptr;
    Call->Args.push_back(std::move(A));
    if (consumeIf(CppTok::Comma))
      continue;
    if (consumeIf(CppTok::RParen))
      return Call;
    error(tok().loc(), "expected ')' to close the argument list, found " +
                           describe(tok()));
    note(LParen.loc(), "to match this '('");
    return nullptr;
  }
}

hir::ExprPtr CppParser::parseNumber() {
  const CppToken T = consume();
  llvm::StringRef Text = T.Text;
  llvm::SMLoc Loc = T.loc();
  NumberLiteral L = scanNumber(Text, DigitSeparator::Apostrophe, true);
  std::string Suffix = L.Suffix.str();
  bool Hex = Text.size() > 1 && Text[0] == '0' && (Text[1] | 0x20) == 'x';
  // C++ allows "1.f" and "1.e5", where scanNumber stops before the '.':
  // read them as "1.0f" and "1.0e5".
  if (!Hex && !L.IsFloat && L.Error.empty() && L.Suffix.empty() &&
      L.Length < Text.size() && Text[L.Length] == '.') {
    std::string S = Text.substr(0, L.Length + 1).str() + "0" +
                    Text.substr(L.Length + 1).str();
    NumberLiteral L2 = scanNumber(S, DigitSeparator::Apostrophe, true);
    if (L2.Length == S.size() && L2.IsFloat) {
      Suffix = L2.Suffix.str();
      L = L2;
      L.Length = Text.size();
    }
  }
  auto Placeholder = [&] { return std::make_unique<hir::IntLitExpr>(Loc, 0); };
  if (Hex && (Text.contains('.') || Text.contains_insensitive("p"))) {
    error(Loc, "hexadecimal floating-point literals are not supported in "
               "WAVE kernels");
    return Placeholder();
  }
  if (!L.Error.empty()) {
    error(Loc, L.Error);
    return Placeholder();
  }
  if (L.Length != Text.size()) {
    error(Loc, "invalid number literal '" + Text + "'");
    return Placeholder();
  }
  std::string Lower = llvm::StringRef(Suffix).lower();
  if (L.IsFloat) {
    std::optional<hir::Scalar> S;
    if (Lower == "f" || Lower == "f32")
      S = hir::Scalar::F32;
    else if (Lower == "h" || Lower == "f16")
      S = hir::Scalar::F16;
    else if (Lower == "f64")
      S = hir::Scalar::F64;
    else if (Lower == "l")
      error(Loc, "float suffix '" + Suffix +
                     "' is not supported; 'long double' does not exist in "
                     "WAVE");
    else if (!Lower.empty())
      error(Loc, "invalid suffix '" + Suffix + "' on a floating-point literal");
    return std::make_unique<hir::FloatLitExpr>(Loc, L.FloatValue, S);
  }
  std::optional<hir::Scalar> S;
  if (Lower == "u")
    S = hir::Scalar::U32;
  else if (llvm::is_contained({"l", "ll", "ul", "lu", "ull", "llu", "z", "uz",
                               "zu"},
                              Lower))
    error(Loc, "integer suffix '" + Suffix +
                   "' is not supported; WAVE integers are 32-bit");
  else if (!Lower.empty())
    error(Loc, "invalid suffix '" + Suffix + "' on an integer literal");
  if (L.Overflow)
    error(Loc, "integer literal '" + Text + "' is too large");
  return std::make_unique<hir::IntLitExpr>(Loc, L.IntValue, S);
}
