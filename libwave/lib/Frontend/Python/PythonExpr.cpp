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
// lambda, `is`, `in`, `:=`, slices, fancy indexing, attribute access) get
// a located error. The subscripts and `.shape` of shaped buffer parameters
// (`a: f32[M, N]`) are desugared to one-dimensional HIR at the end of the
// file.
//
//===----------------------------------------------------------------------===//
#include "PythonParser.h"

using namespace wave;
using namespace wave::fe;
using llvm::cast;
using llvm::dyn_cast;
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
      // One index per dimension, separated by commas (a trailing comma is
      // allowed, as in Python); a slice or a list anywhere rejects the
      // whole subscript, which then leaves E as it was.
      std::vector<hir::ExprPtr> Indices;
      SMLoc CommaLoc;
      bool Rejected = false;
      do {
        if (!Indices.empty() && is(PyTok::RBracket))
          break;
        if (is(PyTok::LBracket)) {
          error(tok().loc(), "fancy indexing (a list of indices) is not "
                             "supported in WAVE kernels; write one integer "
                             "index per dimension");
          consume();
          skipBracketRest(); // The list.
          skipBracketRest(); // The rest of the subscript.
          Rejected = true;
          break;
        }
        if (!is(PyTok::Colon)) {
          hir::ExprPtr Index = parseExpr();
          if (!Index)
            return nullptr;
          Indices.push_back(std::move(Index));
        }
        if (is(PyTok::Colon)) {
          error(tok().loc(), "slices are not supported in WAVE kernels; "
                             "write one integer index per dimension");
          skipBracketRest();
          Rejected = true;
          break;
        }
        if (is(PyTok::Comma) && !CommaLoc.isValid())
          CommaLoc = tok().loc();
      } while (consumeIf(PyTok::Comma));
      if (Rejected)
        continue;
      if (!expectClose(PyTok::RBracket, Open,
                       "expected ']' to close the subscript"))
        return nullptr;
      E = makeSubscript(std::move(E), Open, std::move(Indices), CommaLoc);
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
      if (const auto *N = dyn_cast<hir::NameExpr>(E.get());
          N && tok().Text == "shape") {
        if (const PyShapedBuffer *S = shapeOf(*N)) {
          E = parseShapeAttr(*N, *S);
          if (!E)
            return nullptr;
          continue;
        }
        if (auto It = FlatBuffers.find(N->Name); It != FlatBuffers.end()) {
          error(Dot.loc(), "'" + N->Name + "' has no shape: it is declared '" +
                               It->second.second +
                               "'; declare it with its length as a parameter "
                               "(e.g. '" +
                               N->Name + ": f32[n]' with 'n: u32') to use '" +
                               N->Name + ".shape'");
          note(It->second.first, "'" + N->Name + "' is declared here");
          consume();
          continue;
        }
      }
      const auto *Root = dyn_cast<hir::NameExpr>(E.get());
      if (!llvm::isa<hir::NameExpr, hir::MemberExpr, hir::CallExpr,
                     hir::StructLitExpr>(E.get()) ||
          (Root && NonStructParams.count(Root->Name))) {
        error(Dot.loc(), "attribute access ('." + tok().Text +
                             "') is not supported in WAVE kernels");
        consume();
        continue;
      }
      // A field of a dataclass value, or a method call `v.name(args)`
      // (Sema checks that the value is a dataclass).
      const PyToken &Attr = consume();
      if (is(PyTok::LParen)) {
        const PyToken &Open = consume();
        auto C = std::make_unique<hir::CallExpr>(Attr.loc(), Attr.Text.str());
        C->Method = true;
        C->Args.push_back(std::move(E));
        if (!parseCallArgs(*C, Open))
          return nullptr;
        E = std::move(C);
        continue;
      }
      E = std::make_unique<hir::MemberExpr>(Attr.loc(), std::move(E),
                                            Attr.Text.str());
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
  if (Name == &T && ClassNames.count(W))
    return parseStructCall(T, OutMod->getStruct(W, T.loc()));
  const PyToken &Open = consume();
  auto C = std::make_unique<hir::CallExpr>(Name->loc(), Name->Text.str());
  if (!parseCallArgs(*C, Open))
    return nullptr;
  return C;
}

//===----------------------------------------------------------------------===//
// Shaped buffers
//===----------------------------------------------------------------------===//
//
// A buffer parameter declared `a: f32[M, N]` stays one pointer in HIR (and
// in the kernel ABI); only its uses are rewritten, here in the parser, to
// the one-dimensional forms Sema and lowering already know:
//
//   a[i, j]      ->  a[i * N + j]          (row-major; Horner's scheme for
//   a[i, j, k]   ->  a[(i * N + j) * K + k] more dimensions)
//   a[-1, j]     ->  a[(M - 1) * N + j]    (negative constants only)
//   a.shape[1]   ->  N
//
// In the linearised index a dimension is `u32`: a literal dimension is a
// `u32` literal and an `i32` parameter is converted with `cast<u32>`, so
// the index arithmetic is `u32` and wraps modulo 2^32 like any WAVE
// integer arithmetic. The synthesised `*` and `+` carry the position of the
// `[`; a multiplication of a constant zero (`a[0, j]` is `a[j]`) and an
// addition of one (`a[i, 0]` is `a[i * N]`) are left out.

namespace {
/// The value of an integer constant expression of literals (the `u32`
/// literals of linearised literal dimensions included), parentheses, unary
/// `+ -` and binary `+ - *`; std::nullopt for anything else, or when a
/// value leaves +-2^40 (far beyond any index).
std::optional<int64_t> constantIndex(const hir::Expr &E) {
  constexpr int64_t Limit = int64_t(1) << 40;
  auto InRange = [](int64_t V) -> std::optional<int64_t> {
    if (V > Limit || V < -Limit)
      return std::nullopt;
    return V;
  };
  if (const auto *L = dyn_cast<hir::IntLitExpr>(&E)) {
    if (L->Value > uint64_t(Limit))
      return std::nullopt;
    return static_cast<int64_t>(L->Value);
  }
  if (const auto *U = dyn_cast<hir::UnaryExpr>(&E)) {
    if (U->Op != hir::UnaryOp::Neg && U->Op != hir::UnaryOp::Plus)
      return std::nullopt;
    std::optional<int64_t> V = constantIndex(*U->Operand);
    if (!V)
      return std::nullopt;
    return U->Op == hir::UnaryOp::Neg ? -*V : *V;
  }
  if (const auto *B = dyn_cast<hir::BinaryExpr>(&E)) {
    if (B->Op != hir::BinaryOp::Add && B->Op != hir::BinaryOp::Sub &&
        B->Op != hir::BinaryOp::Mul)
      return std::nullopt;
    std::optional<int64_t> L = constantIndex(*B->LHS);
    std::optional<int64_t> R = L ? constantIndex(*B->RHS) : std::nullopt;
    if (!R)
      return std::nullopt;
    if (B->Op == hir::BinaryOp::Add)
      return InRange(*L + *R);
    if (B->Op == hir::BinaryOp::Sub)
      return InRange(*L - *R);
    // Two factors of up to 2^40 can overflow int64_t: bound |R| by
    // Limit / |L| before multiplying.
    int64_t AbsL = *L < 0 ? -*L : *L;
    if (AbsL != 0 && (*R > Limit / AbsL || *R < -Limit / AbsL))
      return std::nullopt;
    return *L * *R;
  }
  return std::nullopt;
}

/// Dimension \p D as a `u32` operand of a linearised index, at \p Loc.
hir::ExprPtr indexDim(const PyDim &D, SMLoc Loc) {
  if (D.Name.empty())
    return std::make_unique<hir::IntLitExpr>(Loc, D.Value, hir::Scalar::U32);
  auto N = std::make_unique<hir::NameExpr>(Loc, D.Name);
  if (!D.Signed)
    return N;
  return std::make_unique<hir::CastExpr>(Loc, hir::Scalar::U32, std::move(N));
}

/// "1 index", "3 indices".
std::string countIndices(size_t N) {
  return std::to_string(N) + (N == 1 ? " index" : " indices");
}
} // namespace

const PyShapedBuffer *PythonParser::shapeOf(const hir::Expr &E) const {
  const auto *N = dyn_cast<hir::NameExpr>(&E);
  if (!N)
    return nullptr;
  auto It = Shapes.find(N->Name);
  return It == Shapes.end() ? nullptr : &It->second;
}

hir::ExprPtr PythonParser::makeSubscript(hir::ExprPtr Base, const PyToken &Open,
                                         std::vector<hir::ExprPtr> Indices,
                                         SMLoc CommaLoc) {
  SMLoc Loc = Open.loc();
  // After an error the access is kept, at index 0, so that an assignment
  // to it is still an assignment and nothing else is reported about it.
  auto Quiet = [&] {
    return std::make_unique<hir::IndexExpr>(Loc, std::move(Base),
                                            placeholder(Loc));
  };
  const PyShapedBuffer *S = shapeOf(*Base);
  if (!S) {
    if (Indices.size() == 1)
      return std::make_unique<hir::IndexExpr>(Loc, std::move(Base),
                                              std::move(Indices[0]));
    const auto *N = dyn_cast<hir::NameExpr>(Base.get());
    auto It = N ? FlatBuffers.find(N->Name) : FlatBuffers.end();
    if (It != FlatBuffers.end()) {
      error(CommaLoc, "'" + N->Name + "' is declared '" + It->second.second +
                          "' and takes one index; declare its shape (e.g. '" +
                          N->Name +
                          ": f32[M, N]' with 'M: u32, N: u32') to index it "
                          "with " +
                          countIndices(Indices.size()));
      note(It->second.first, "'" + N->Name + "' is declared here");
    } else {
      error(CommaLoc, "multi-dimensional indexing is only supported on "
                      "buffer parameters declared with a shape, such as "
                      "'a: f32[M, N]'; index with a flat offset");
    }
    return Quiet();
  }
  if (S->Bad)
    return Quiet();
  const auto &Name = cast<hir::NameExpr>(*Base).Name;
  size_t Rank = S->Dims.size();
  if (Indices.size() != Rank) {
    error(Loc, "wrong number of indices for '" + Name + "': it has " +
                   std::to_string(Rank) +
                   (Rank == 1 ? " dimension" : " dimensions") + ", found " +
                   countIndices(Indices.size()));
    note(S->Loc, "'" + Name + "' is declared here as '" + S->Spelling + "'");
    return Quiet();
  }
  bool Ok = true;
  for (size_t K = 0; K < Rank; ++K) {
    Indices[K] = normaliseIndex(*S, Name, K, std::move(Indices[K]));
    Ok &= Indices[K] != nullptr;
  }
  if (!Ok)
    return Quiet();
  // A zero so far (`a[0, j]`) or a zero index (`a[i, 0]`) leaves out its
  // multiplication or addition, and a constant so far times a literal
  // dimension is folded (`a[1, 2, k]` on `f32[4, 4, W]` is `a[6u32 * W + k]`).
  hir::ExprPtr Linear = std::move(Indices[0]);
  for (size_t K = 1; K < Rank; ++K) {
    if (constantIndex(*Linear) == 0) {
      Linear = std::move(Indices[K]);
      continue;
    }
    Linear = std::make_unique<hir::BinaryExpr>(
        Loc, hir::BinaryOp::Mul, std::move(Linear), indexDim(S->Dims[K], Loc));
    if (constantIndex(*Indices[K]) != 0)
      Linear = std::make_unique<hir::BinaryExpr>(
          Loc, hir::BinaryOp::Add, std::move(Linear), std::move(Indices[K]));
    if (std::optional<int64_t> V = constantIndex(*Linear);
        V && *V >= 0 && *V <= int64_t(UINT32_MAX))
      Linear = std::make_unique<hir::IntLitExpr>(Loc, *V, hir::Scalar::U32);
  }
  return std::make_unique<hir::IndexExpr>(Loc, std::move(Base),
                                          std::move(Linear));
}

hir::ExprPtr PythonParser::normaliseIndex(const PyShapedBuffer &S,
                                          StringRef Name, unsigned K,
                                          hir::ExprPtr I) {
  const PyDim &D = S.Dims[K];
  std::string DimName = D.Name.empty() ? std::to_string(D.Value) : D.Name;
  std::optional<int64_t> V = constantIndex(*I);
  if (!V) {
    // `-i` looks like a negative index but cannot be counted from the end.
    if (const auto *U = dyn_cast<hir::UnaryExpr>(I.get());
        U && U->Op == hir::UnaryOp::Neg) {
      error(U->loc(), "a negative index must be an integer constant such as "
                      "'-1' (counted from the end of the dimension); write '" +
                          DimName +
                          " - ...' to count from the end with a "
                          "computed value");
      return nullptr;
    }
    return I;
  }
  if (D.Name.empty() && (*V >= static_cast<int64_t>(D.Value) ||
                         *V < -static_cast<int64_t>(D.Value))) {
    error(I->loc(), "index " + std::to_string(*V) +
                        " is out of range for dimension " + std::to_string(K) +
                        " of '" + Name + "', which has " + DimName +
                        " elements");
    note(S.Loc, "'" + Name + "' is declared here as '" + S.Spelling + "'");
    return nullptr;
  }
  if (*V >= 0)
    return I;
  SMLoc Loc = I->loc();
  if (D.Name.empty())
    return std::make_unique<hir::IntLitExpr>(Loc, D.Value + *V);
  return std::make_unique<hir::BinaryExpr>(
      Loc, hir::BinaryOp::Sub, indexDim(D, Loc),
      std::make_unique<hir::IntLitExpr>(Loc, static_cast<uint64_t>(-*V)));
}

hir::ExprPtr PythonParser::parseShapeAttr(const hir::NameExpr &Base,
                                          const PyShapedBuffer &S) {
  const PyToken &Attr = consume(); // 'shape'
  SMLoc Loc = Base.loc();
  if (!is(PyTok::LBracket)) {
    error(Attr.loc(), "'" + Base.Name +
                          ".shape' must be indexed with a "
                          "constant dimension, e.g. '" +
                          Base.Name + ".shape[0]'");
    return placeholder(Loc);
  }
  const PyToken &Open = consume();
  hir::ExprPtr K = parseExpr();
  if (!K)
    return nullptr;
  if (!expectClose(PyTok::RBracket, Open,
                   "expected ']' to close the subscript"))
    return nullptr;
  if (S.Bad)
    return placeholder(Loc);
  std::optional<int64_t> V = constantIndex(*K);
  int64_t Rank = static_cast<int64_t>(S.Dims.size());
  if (!V) {
    error(K->loc(), "the dimension in '" + Base.Name +
                        ".shape[...]' must be an integer constant");
    return placeholder(Loc);
  }
  if (*V >= Rank || *V < -Rank) {
    error(K->loc(), "'" + Base.Name + ".shape[" + std::to_string(*V) +
                        "]' is out of range: '" + Base.Name + "' has " +
                        std::to_string(Rank) +
                        (Rank == 1 ? " dimension" : " dimensions"));
    note(S.Loc, "'" + Base.Name + "' is declared here as '" + S.Spelling + "'");
    return placeholder(Loc);
  }
  const PyDim &D = S.Dims[*V < 0 ? *V + Rank : *V];
  if (D.Name.empty())
    return std::make_unique<hir::IntLitExpr>(Loc, D.Value);
  return std::make_unique<hir::NameExpr>(Loc, D.Name);
}

void PythonParser::checkNotShapeParam(StringRef Name, SMLoc Loc) {
  auto It = ShapeParams.find(Name);
  if (It == ShapeParams.end())
    return;
  error(Loc, "cannot assign to '" + Name + "': it is a dimension of buffer '" +
                 It->second.first + "'");
  note(It->second.second, "'" + Name + "' is used in the shape of '" +
                              It->second.first + "' here");
}
