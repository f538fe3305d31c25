//===- PythonExpr.cpp - Expressions of the Python kernel dialect ----------===//
//
// One parse function per precedence level of Python 3's expression
// grammar, lowest first: conditional `a if c else b`, `or`, `and`, `not`,
// comparisons (a chain of two or more becomes a CompareChainExpr), `|`,
// `^`, `&`, shifts, `+ -`, `* / // %`, unary `- + ~`, `**` (rejected),
// then primaries: names, literals, parenthesised expressions, calls
// (`wave.` dropped), subscripts. Binary operators are left-associative;
// the conditional expression is right-associative. Python constructs
// outside the dialect (strings, tuples, lists, dicts, comprehensions,
// lambda, `is`, `in`, `:=`, slices, attribute access) get a located
// error.
//
//===----------------------------------------------------------------------===//
#include "PythonParser.h"

using namespace wave;
using namespace wave::fe;
using llvm::SMLoc;
using llvm::StringRef;

hir::ExprPtr PythonParser::placeholder(SMLoc Loc) {
  return std::make_unique<hir::IntLitExpr>(Loc, 0);
}

hir::ExprPtr PythonParser::parseExpr() {
  DepthGuard G(*this);
  if (!G)
    return nullptr;
  hir::ExprPtr E = parseConditional();
  if (E && is(PyTok::Walrus)) {
    error(tok().loc(), "assignment expressions (':=') are not supported in "
                       "WAVE kernels");
    consume();
    if (!parseExpr())
      return nullptr;
  }
  return E;
}

hir::ExprPtr PythonParser::parseConditional() {
  hir::ExprPtr Then = parseOr();
  if (!Then || !isIdent("if"))
    return Then;
  const PyToken &If = consume();
  hir::ExprPtr Cond = parseOr();
  if (!Cond)
    return nullptr;
  if (!isIdent("else")) {
    error(tok().loc(), "expected 'else' in the conditional expression, "
                       "found " +
                           describe(tok()));
    note(If.loc(), "conditional expression starts here");
    return nullptr;
  }
  consume();
  DepthGuard G(*this);
  if (!G)
    return nullptr;
  hir::ExprPtr Else = parseConditional();
  if (!Else)
    return nullptr;
  return std::make_unique<hir::ConditionalExpr>(
      If.loc(), std::move(Cond), std::move(Then), std::move(Else));
}

hir::ExprPtr PythonParser::parseOr() {
  hir::ExprPtr L = parseAnd();
  while (L && isIdent("or")) {
    SMLoc Loc = consume().loc();
    hir::ExprPtr R = parseAnd();
    if (!R)
      return nullptr;
    L = std::make_unique<hir::BinaryExpr>(Loc, hir::BinaryOp::LogicalOr,
                                          std::move(L), std::move(R));
  }
  return L;
}

hir::ExprPtr PythonParser::parseAnd() {
  hir::ExprPtr L = parseNot();
  while (L && isIdent("and")) {
    SMLoc Loc = consume().loc();
    hir::ExprPtr R = parseNot();
    if (!R)
      return nullptr;
    L = std::make_unique<hir::BinaryExpr>(Loc, hir::BinaryOp::LogicalAnd,
                                          std::move(L), std::move(R));
  }
  return L;
}

hir::ExprPtr PythonParser::parseNot() {
  if (!isIdent("not"))
    return parseComparison();
  SMLoc Loc = consume().loc();
  DepthGuard G(*this);
  if (!G)
    return nullptr;
  hir::ExprPtr E = parseNot();
  if (!E)
    return nullptr;
  return std::make_unique<hir::UnaryExpr>(Loc, hir::UnaryOp::LogicalNot,
                                          std::move(E));
}

namespace {
std::optional<hir::BinaryOp> comparisonOp(PyTok K) {
  switch (K) {
  case PyTok::Less:
    return hir::BinaryOp::Lt;
  case PyTok::LessEq:
    return hir::BinaryOp::Le;
  case PyTok::Greater:
    return hir::BinaryOp::Gt;
  case PyTok::GreaterEq:
    return hir::BinaryOp::Ge;
  case PyTok::EqEq:
    return hir::BinaryOp::Eq;
  case PyTok::NotEq:
    return hir::BinaryOp::Ne;
  default:
    return std::nullopt;
  }
}
} // namespace

hir::ExprPtr PythonParser::parseComparison() {
  hir::ExprPtr First = parseBinary(0);
  if (!First)
    return nullptr;
  std::vector<hir::ExprPtr> Operands;
  std::vector<hir::BinaryOp> Ops;
  std::vector<SMLoc> OpLocs;
  Operands.push_back(std::move(First));
  while (true) {
    std::optional<hir::BinaryOp> Op = comparisonOp(tok().K);
    if (!Op) {
      // Membership and identity tests are outside the dialect.
      const char *Spelling = nullptr;
      unsigned Len = 1;
      if (isIdent("in"))
        Spelling = "in";
      else if (isIdent("not") && isIdent("in", 1))
        Spelling = "not in", Len = 2;
      else if (isIdent("is") && isIdent("not", 1))
        Spelling = "is not", Len = 2;
      else if (isIdent("is"))
        Spelling = "is";
      if (!Spelling)
        break;
      error(tok().loc(),
            "'" + llvm::Twine(Spelling) + "' is not supported in WAVE kernels");
      while (Len--)
        consume();
      if (!parseBinary(0))
        return nullptr;
      continue;
    }
    OpLocs.push_back(consume().loc());
    Ops.push_back(*Op);
    hir::ExprPtr R = parseBinary(0);
    if (!R)
      return nullptr;
    Operands.push_back(std::move(R));
  }
  if (Ops.empty())
    return std::move(Operands[0]);
  if (Ops.size() == 1)
    return std::make_unique<hir::BinaryExpr>(
        OpLocs[0], Ops[0], std::move(Operands[0]), std::move(Operands[1]));
  auto C = std::make_unique<hir::CompareChainExpr>(OpLocs[0]);
  C->Operands = std::move(Operands);
  C->Ops = std::move(Ops);
  C->OpLocs = std::move(OpLocs);
  return C;
}

namespace {
/// The operators of one binary precedence level (0: `|` ... 5: `*`).
std::optional<hir::BinaryOp> binaryOpAt(unsigned Level, PyTok K) {
  switch (Level) {
  case 0:
    if (K == PyTok::Pipe)
      return hir::BinaryOp::BitOr;
    break;
  case 1:
    if (K == PyTok::Caret)
      return hir::BinaryOp::BitXor;
    break;
  case 2:
    if (K == PyTok::Amp)
      return hir::BinaryOp::BitAnd;
    break;
  case 3:
    if (K == PyTok::LessLess)
      return hir::BinaryOp::Shl;
    if (K == PyTok::GreaterGreater)
      return hir::BinaryOp::Shr;
    break;
  case 4:
    if (K == PyTok::Plus)
      return hir::BinaryOp::Add;
    if (K == PyTok::Minus)
      return hir::BinaryOp::Sub;
    break;
  case 5:
    if (K == PyTok::Star)
      return hir::BinaryOp::Mul;
    if (K == PyTok::Slash)
      return hir::BinaryOp::Div;
    if (K == PyTok::SlashSlash)
      return hir::BinaryOp::FloorDiv;
    if (K == PyTok::Percent)
      return hir::BinaryOp::Rem;
    break;
  default:
    break;
  }
  return std::nullopt;
}
constexpr unsigned NumBinaryLevels = 6;
} // namespace

hir::ExprPtr PythonParser::parseBinary(unsigned Level) {
  if (Level == NumBinaryLevels)
    return parseUnary();
  hir::ExprPtr L = parseBinary(Level + 1);
  while (L) {
    if (Level == 5 && is(PyTok::At)) {
      error(tok().loc(), "matrix multiplication ('@') is not supported in "
                         "WAVE kernels");
      consume();
      if (!parseBinary(Level + 1))
        return nullptr;
      continue;
    }
    std::optional<hir::BinaryOp> Op = binaryOpAt(Level, tok().K);
    if (!Op)
      break;
    SMLoc Loc = consume().loc();
    hir::ExprPtr R = parseBinary(Level + 1);
    if (!R)
      return nullptr;
    L = std::make_unique<hir::BinaryExpr>(Loc, *Op, std::move(L), std::move(R));
  }
  return L;
}

hir::ExprPtr PythonParser::parseUnary() {
  hir::UnaryOp Op;
  if (is(PyTok::Minus))
    Op = hir::UnaryOp::Neg;
  else if (is(PyTok::Plus))
    Op = hir::UnaryOp::Plus;
  else if (is(PyTok::Tilde))
    Op = hir::UnaryOp::BitNot;
  else
    return parsePower();
  SMLoc Loc = consume().loc();
  DepthGuard G(*this);
  if (!G)
    return nullptr;
  hir::ExprPtr E = parseUnary();
  if (!E)
    return nullptr;
  return std::make_unique<hir::UnaryExpr>(Loc, Op, std::move(E));
}

hir::ExprPtr PythonParser::parsePower() {
  hir::ExprPtr E = parsePrimary();
  if (E && is(PyTok::StarStar)) {
    error(tok().loc(), "'**' is not supported; use repeated multiplication, "
                       "or exp2() and log2()");
    consume();
    DepthGuard G(*this);
    if (!G || !parseUnary())
      return nullptr;
  }
  return E;
}

/// An atom and its trailers: calls, subscripts, attribute accesses.
hir::ExprPtr PythonParser::parsePrimary() {
  hir::ExprPtr E = parseAtom();
  while (E) {
    if (is(PyTok::LBracket)) {
      const PyToken &Open = consume();
      if (is(PyTok::Colon)) {
        error(tok().loc(), "slices are not supported in WAVE kernels");
        skipBracketRest();
        continue;
      }
      hir::ExprPtr Index = parseExpr();
      if (!Index)
        return nullptr;
      if (is(PyTok::Colon)) {
        error(tok().loc(), "slices are not supported in WAVE kernels");
        skipBracketRest();
        continue;
      }
      if (is(PyTok::Comma)) {
        error(tok().loc(), "multi-dimensional indexing is not supported in "
                           "WAVE kernels; index with a flat offset");
        skipBracketRest();
        continue;
      }
      if (!expectClose(PyTok::RBracket, Open,
                       "expected ']' to close the subscript"))
        return nullptr;
      E = std::make_unique<hir::IndexExpr>(Open.loc(), std::move(E),
                                           std::move(Index));
      continue;
    }
    if (is(PyTok::LParen)) {
      error(tok().loc(), "only functions named directly can be called in "
                         "WAVE kernels");
      consume();
      skipBracketRest();
      continue;
    }
    if (is(PyTok::Dot)) {
      const PyToken &Dot = consume();
      if (!is(PyTok::Ident)) {
        error(tok().loc(),
              "expected an attribute name after '.', found " + describe(tok()));
        return nullptr;
      }
      error(Dot.loc(), "attribute access ('." + tok().Text +
                           "') is not supported in WAVE kernels");
      consume();
      continue;
    }
    break;
  }
  return E;
}

bool PythonParser::parseCallArgs(hir::CallExpr &C, const PyToken &Open) {
  while (!is(PyTok::RParen)) {
    if (is(PyTok::Star) || is(PyTok::StarStar)) {
      error(tok().loc(), "argument unpacking ('" + tok().Text +
                             "') is not supported in WAVE kernels");
      consume();
      if (!parseExpr())
        return false;
    } else if (isName() && is(PyTok::Equal, 1)) {
      error(tok().loc(), "keyword arguments are not supported in WAVE "
                         "kernels");
      consume();
      consume();
      if (!parseExpr())
        return false;
    } else {
      hir::ExprPtr A = parseExpr();
      if (!A)
        return false;
      if (isIdent("for")) {
        error(tok().loc(), "comprehensions and generator expressions are not "
                           "supported in WAVE kernels");
        skipBracketRest();
        return true;
      }
      C.Args.push_back(std::move(A));
    }
    if (!consumeIf(PyTok::Comma))
      break;
  }
  return expectClose(PyTok::RParen, Open,
                     "expected ')' to close the argument list");
}

hir::ExprPtr PythonParser::parseAtom() {
  const PyToken &T = tok();
  switch (T.K) {
  case PyTok::Number:
    consume();
    if (T.IsFloat)
      return std::make_unique<hir::FloatLitExpr>(T.loc(), T.FloatValue);
    return std::make_unique<hir::IntLitExpr>(T.loc(), T.IntValue);
  case PyTok::String:
    if (!T.Reported)
      error(T.loc(), "strings are not supported in WAVE kernels");
    while (is(PyTok::String))
      consume();
    return placeholder(T.loc());
  case PyTok::LParen: {
    const PyToken &Open = consume();
    if (consumeIf(PyTok::RParen)) {
      error(Open.loc(), "tuples are not supported in WAVE kernels");
      return placeholder(Open.loc());
    }
    if (isIdent("yield")) {
      error(tok().loc(), "generators ('yield') are not supported in WAVE "
                         "kernels");
      return nullptr;
    }
    hir::ExprPtr E = parseExpr();
    if (!E)
      return nullptr;
    if (is(PyTok::Comma)) {
      error(tok().loc(), "tuples are not supported in WAVE kernels");
      skipBracketRest();
      return E;
    }
    if (isIdent("for")) {
      error(tok().loc(), "comprehensions and generator expressions are not "
                         "supported in WAVE kernels");
      skipBracketRest();
      return E;
    }
    if (!expectClose(PyTok::RParen, Open,
                     "expected ')' to close the parenthesised expression"))
      return nullptr;
    return E;
  }
  case PyTok::LBracket:
    error(T.loc(), "lists are not supported in WAVE kernels");
    consume();
    skipBracketRest();
    return placeholder(T.loc());
  case PyTok::LBrace:
    error(T.loc(), "dicts and sets are not supported in WAVE kernels");
    consume();
    skipBracketRest();
    return placeholder(T.loc());
  case PyTok::Ellipsis:
    error(T.loc(), "'...' is not supported in WAVE kernels");
    return nullptr;
  case PyTok::Unknown:
    if (T.Text == "!")
      error(T.loc(), "unexpected character '!'; use 'not' for logical "
                     "negation and '!=' for inequality");
    else if (static_cast<unsigned char>(T.Text[0]) >= 0x80)
      error(T.loc(), "non-ASCII characters are not supported in WAVE "
                     "kernels");
    else
      error(T.loc(), "unexpected character " + describe(T));
    return nullptr;
  case PyTok::Ident:
    break;
  default:
    error(T.loc(), "expected an expression, found " + describe(T));
    return nullptr;
  }

  StringRef W = T.Text;
  if (W == "True" || W == "False") {
    consume();
    return std::make_unique<hir::BoolLitExpr>(T.loc(), W == "True");
  }
  if (W == "None") {
    error(T.loc(), "'None' is not supported in WAVE kernels");
    consume();
    return placeholder(T.loc());
  }
  if (W == "lambda") {
    error(T.loc(), "lambda expressions are not supported in WAVE kernels");
    return nullptr;
  }
  if (W == "await" || W == "yield") {
    rejectUnsupportedStatement();
    return nullptr;
  }
  if (isPythonKeyword(W)) {
    error(T.loc(), "expected an expression, found " + describe(T));
    return nullptr;
  }
  consume();
  const PyToken *Name = &T;
  if (W == "wave" && is(PyTok::Dot)) {
    // `wave.f(...)`: the qualifier is dropped.
    consume();
    if (!is(PyTok::Ident) || isPythonKeyword(tok().Text)) {
      error(tok().loc(),
            "expected a name after 'wave.', found " + describe(tok()));
      return nullptr;
    }
    Name = &consume();
    if (!is(PyTok::LParen)) {
      error(Name->loc(), "'wave." + Name->Text +
                             "' can only be called; attribute access is not "
                             "supported in WAVE kernels");
      return std::make_unique<hir::NameExpr>(Name->loc(), Name->Text.str());
    }
  }
  if (!is(PyTok::LParen))
    return std::make_unique<hir::NameExpr>(Name->loc(), Name->Text.str());
  const PyToken &Open = consume();
  auto C = std::make_unique<hir::CallExpr>(Name->loc(), Name->Text.str());
  if (!parseCallArgs(*C, Open))
    return nullptr;
  return C;
}
