//===- RustExpr.cpp - Parser of the Rust kernel dialect: expressions ------===//
//
// Expressions of the Rust dialect with Rust's precedence (highest first):
// postfix (calls, method calls, `a[i]`, `wave::` paths); unary `-` `!`;
// `as`; `* / %`; `+ -`; `<< >>`; `&`; `^`; `|`; comparisons (which do
// not chain); `&&`; `||`. Binary levels are parsed by precedence climbing,
// all left-associative. Math methods (`x.sqrt()`, `x.mul_add(a, b)`) and
// their associated-function spelling (`f32::sqrt(x)`) become intrinsic
// calls; `wrapping_add/sub/mul` become plain arithmetic (integers wrap in
// this dialect). `if c { a } else { b }` in an operand position is a
// ConditionalExpr.
//
//===----------------------------------------------------------------------===//
#include "RustParser.h"

#include "wave/Frontend/NumberLiteral.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace wave;
using namespace wave::fe;
using llvm::SMLoc;

namespace {

/// Longest run of binary operators in one expression before "expression
/// too complex" (the tree would get too deep to walk recursively).
constexpr unsigned MaxOperatorRun = 1024;

struct BinOpInfo {
  unsigned Prec; ///< Higher binds tighter.
  hir::BinaryOp Op;
};

std::optional<BinOpInfo> binaryOp(const RustToken &T) {
  if (!T.is(RustTok::Punct))
    return std::nullopt;
  using hir::BinaryOp;
  return llvm::StringSwitch<std::optional<BinOpInfo>>(T.Text)
      .Case("||", BinOpInfo{1, BinaryOp::LogicalOr})
      .Case("&&", BinOpInfo{2, BinaryOp::LogicalAnd})
      .Case("==", BinOpInfo{3, BinaryOp::Eq})
      .Case("!=", BinOpInfo{3, BinaryOp::Ne})
      .Case("<", BinOpInfo{3, BinaryOp::Lt})
      .Case(">", BinOpInfo{3, BinaryOp::Gt})
      .Case("<=", BinOpInfo{3, BinaryOp::Le})
      .Case(">=", BinOpInfo{3, BinaryOp::Ge})
      .Case("|", BinOpInfo{4, BinaryOp::BitOr})
      .Case("^", BinOpInfo{5, BinaryOp::BitXor})
      .Case("&", BinOpInfo{6, BinaryOp::BitAnd})
      .Case("<<", BinOpInfo{7, BinaryOp::Shl})
      .Case(">>", BinOpInfo{7, BinaryOp::Shr})
      .Case("+", BinOpInfo{8, BinaryOp::Add})
      .Case("-", BinOpInfo{8, BinaryOp::Sub})
      .Case("*", BinOpInfo{9, BinaryOp::Mul})
      .Case("/", BinOpInfo{9, BinaryOp::Div})
      .Case("%", BinOpInfo{9, BinaryOp::Rem})
      .Default(std::nullopt);
}

/// A math method of the dialect: `x.Method(args)` -> `Intrinsic(x, args)`
/// (or the binary operator Wrapping for `wrapping_*`).
struct MathMethod {
  llvm::StringLiteral Method;
  llvm::StringLiteral Intrinsic;
  unsigned NumArgs; ///< Arguments besides the receiver.
  std::optional<hir::BinaryOp> Wrapping;
};

const MathMethod MathMethods[] = {
    {"sqrt", "sqrt", 0, std::nullopt},
    {"abs", "abs", 0, std::nullopt},
    {"floor", "floor", 0, std::nullopt},
    {"ceil", "ceil", 0, std::nullopt},
    {"round", "round", 0, std::nullopt},
    {"trunc", "trunc", 0, std::nullopt},
    {"fract", "fract", 0, std::nullopt},
    {"sin", "sin", 0, std::nullopt},
    {"cos", "cos", 0, std::nullopt},
    {"exp", "exp", 0, std::nullopt},
    {"exp2", "exp2", 0, std::nullopt},
    {"ln", "log", 0, std::nullopt},
    {"log2", "log2", 0, std::nullopt},
    {"recip", "rcp", 0, std::nullopt},
    {"min", "min", 1, std::nullopt},
    {"max", "max", 1, std::nullopt},
    {"clamp", "clamp", 2, std::nullopt},
    {"mul_add", "fma", 2, std::nullopt},
    {"wrapping_add", "", 1, hir::BinaryOp::Add},
    {"wrapping_sub", "", 1, hir::BinaryOp::Sub},
    {"wrapping_mul", "", 1, hir::BinaryOp::Mul},
};

const MathMethod *findMathMethod(llvm::StringRef Name) {
  for (const MathMethod &M : MathMethods)
    if (M.Method == Name)
      return &M;
  return nullptr;
}

bool isScalarTypeName(llvm::StringRef S) {
  return llvm::StringSwitch<bool>(S)
      .Cases({"f32", "f64", "f16", "i32", "u32", "usize", "isize"}, true)
      .Default(false);
}

/// Two tokens written without a space between them (`+` `+` of `x++`).
bool adjacent(const RustToken &A, const RustToken &B) {
  return A.Text.end() == B.Text.begin();
}

} // namespace

hir::ExprPtr RustParser::parseExpr() {
  hir::ExprPtr E = parseBinary(1);
  if (E && !RangeAllowed && (isPunct("..") || isPunct("..="))) {
    error(tok().loc(), "ranges are only supported in 'for' loops");
    return nullptr;
  }
  return E;
}

hir::ExprPtr RustParser::parseBinary(unsigned MinPrec) {
  hir::ExprPtr LHS = parseCast();
  if (!LHS)
    return nullptr;
  bool LastWasComparison = false;
  unsigned Run = 0;
  while (true) {
    const RustToken T = tok();
    std::optional<BinOpInfo> Info = binaryOp(T);
    if (!Info || Info->Prec < MinPrec)
      return LHS;
    if ((T.Text == "+" || T.Text == "-") && tok(1).isPunct(T.Text) &&
        adjacent(T, tok(1)) &&
        (T.Text == "+" || tok(2).isPunct(";") || tok(2).isPunct(")") ||
         tok(2).isPunct("}"))) {
      error(T.loc(), "'" + T.Text + T.Text + "' is not a Rust operator; use '" +
                         T.Text + "= 1' as a statement");
      return nullptr;
    }
    if (++Run > MaxOperatorRun) {
      error(T.loc(), "expression too complex");
      TooDeep = true;
      return nullptr;
    }
    bool IsComparison = hir::isComparison(Info->Op);
    if (IsComparison && LastWasComparison) {
      error(T.loc(), "comparison operators cannot be chained");
      note(T.loc(), "use '&&' to combine comparisons, or parentheses");
    }
    consume();
    size_t Mark = Pre.size();
    hir::ExprPtr RHS = parseBinary(Info->Prec + 1);
    if (!RHS)
      return nullptr;
    if ((Info->Op == hir::BinaryOp::LogicalAnd ||
         Info->Op == hir::BinaryOp::LogicalOr) &&
        !takePre(Mark).empty())
      // The right operand runs only sometimes; what it needs cannot be
      // hoisted before the expression.
      error(RHS->loc(), "a 'match' or a block-valued 'if' on the right of '" +
                            T.Text +
                            "' is not supported in WAVE kernels; bind it with "
                            "'let' first");
    LHS = std::make_unique<hir::BinaryExpr>(T.loc(), Info->Op, std::move(LHS),
                                            std::move(RHS));
    LastWasComparison = IsComparison;
  }
}

hir::ExprPtr RustParser::parseCast() {
  hir::ExprPtr E = parseUnary();
  if (!E)
    return nullptr;
  while (isIdent("as")) {
    SMLoc AsLoc = consume().loc();
    std::optional<hir::Scalar> To = parseScalarType("after 'as'");
    if (!To)
      return nullptr;
    E = std::make_unique<hir::CastExpr>(AsLoc, *To, std::move(E));
  }
  return E;
}

hir::ExprPtr RustParser::parseUnary() {
  if (!enterNesting())
    return nullptr;
  NestingScope L{*this};
  const RustToken T = tok();
  if (!T.is(RustTok::Punct))
    return parsePostfix();
  std::optional<hir::UnaryOp> Op;
  if (T.Text == "-")
    Op = hir::UnaryOp::Neg;
  else if (T.Text == "!")
    Op = hir::UnaryOp::RustNot;
  if (Op) {
    consume();
    hir::ExprPtr Operand = parseUnary();
    if (!Operand)
      return nullptr;
    return std::make_unique<hir::UnaryExpr>(T.loc(), *Op, std::move(Operand));
  }
  // Operators outside the dialect: reported, then the operand is used.
  if (T.Text == "*")
    error(T.loc(), "dereferencing ('*') is not supported in WAVE kernels");
  else if (T.Text == "&" || T.Text == "&&")
    error(T.loc(), "references ('&') are not supported in WAVE kernel "
                   "expressions");
  else if (T.Text == "+")
    error(T.loc(), "unary '+' is not a Rust operator");
  else if (T.Text == "~")
    error(T.loc(), "'~' is not a Rust operator; use '!' for bitwise not");
  else
    return parsePostfix();
  consume();
  if ((T.Text == "&" || T.Text == "&&") && isIdent("mut"))
    consume();
  return parseUnary();
}

hir::ExprPtr RustParser::parsePostfix() {
  hir::ExprPtr E = parsePrimary();
  if (!E)
    return nullptr;
  while (true) {
    if (isPunct("[")) {
      RustToken LBracket = consume();
      hir::ExprPtr Index = parseExpr();
      if (!Index)
        return nullptr;
      if (!consumePunct("]")) {
        error(tok().loc(), "expected ']' to close the index, found " +
                               describe(tok()));
        note(LBracket.loc(), "to match this '['");
        return nullptr;
      }
      E = std::make_unique<hir::IndexExpr>(LBracket.loc(), std::move(E),
                                           std::move(Index));
    } else if (isPunct(".")) {
      E = parseMethodCall(std::move(E));
      if (!E)
        return nullptr;
    } else if (isPunct("?")) {
      error(consume().loc(),
            "the '?' operator is not supported in WAVE kernels");
    } else if (isPunct("(")) {
      error(tok().loc(), "only functions can be called: expected a name "
                         "before '('");
      return nullptr;
    } else {
      return E;
    }
  }
}

hir::ExprPtr RustParser::parseMethodCall(hir::ExprPtr Recv) {
  consume(); // '.'
  if (tok().is(RustTok::Number)) {
    // A tuple element `t.0`; `t.0.1` is read as the number `0.1`, and
    // `t.0.x` maybe as `0.` and `x`.
    const RustToken Num = consume();
    llvm::StringRef Rest = Num.Text;
    while (true) {
      auto [Field, After] = Rest.split('.');
      bool Dot = Field.size() < Rest.size();
      if (Field.empty() || !llvm::all_of(Field, llvm::isDigit) ||
          (Field.size() > 1 && Field[0] == '0')) {
        error(Num.loc(), "expected a tuple element number after '.', found '" +
                             Num.Text + "'");
        return nullptr;
      }
      Recv = std::make_unique<hir::MemberExpr>(
          SMLoc::getFromPointer(Field.data()), std::move(Recv), Field.str());
      if (!Dot)
        return Recv;
      if (After.empty())
        break; // The name after the '.' follows.
      Rest = After;
    }
  }
  const RustToken Name = tok();
  if (!Name.is(RustTok::Ident)) {
    error(Name.loc(), "expected a method name after '.', found " +
                          describe(Name));
    return nullptr;
  }
  consume();
  if (isPunct("::")) {
    error(tok().loc(),
          "generic arguments ('::<>') are not supported in WAVE kernels");
    return nullptr;
  }
  if (!isPunct("("))
    return std::make_unique<hir::MemberExpr>(Name.loc(), std::move(Recv),
                                             Name.Text.str());
  std::vector<hir::ExprPtr> Args;
  Args.push_back(std::move(Recv));
  if (!parseArgs(Args))
    return nullptr;
  if (MethodNames.count(Name.Text)) {
    // A method of a struct of this file: Sema resolves it by the
    // receiver's type.
    auto C = std::make_unique<hir::CallExpr>(Name.loc(), Name.Text.str());
    C->Method = true;
    C->Args = std::move(Args);
    return C;
  }
  return makeMathCall(Name, std::move(Args));
}

hir::ExprPtr RustParser::makeMathCall(const RustToken &Method,
                                      std::vector<hir::ExprPtr> Args) {
  const MathMethod *M = findMathMethod(Method.Text);
  if (!M) {
    if (Method.Text == "step_by" || Method.Text == "rev")
      error(Method.loc(), "'" + Method.Text + "' is only supported as "
                          "'for i in (a..b).step_by(s)'");
    else
      error(Method.loc(), "method '" + Method.Text +
                              "' is not supported in WAVE kernels");
    return nullptr;
  }
  if (Args.size() != M->NumArgs + 1) {
    error(Method.loc(), "'" + Method.Text + "' takes " +
                            llvm::Twine(M->NumArgs) +
                            (M->NumArgs == 1 ? " argument" : " arguments") +
                            " besides its receiver");
    return nullptr;
  }
  if (M->Wrapping)
    return std::make_unique<hir::BinaryExpr>(Method.loc(), *M->Wrapping,
                                             std::move(Args[0]),
                                             std::move(Args[1]));
  auto C = std::make_unique<hir::CallExpr>(Method.loc(), M->Intrinsic.str());
  C->Args = std::move(Args);
  return C;
}

bool RustParser::parseArgs(std::vector<hir::ExprPtr> &Args) {
  RustToken LParen = consume(); // '('
  while (!consumePunct(")")) {
    if (atEof() || isPunct("}") || isPunct(";")) {
      error(tok().loc(), "expected ')' to close the argument list, found " +
                             describe(tok()));
      note(LParen.loc(), "to match this '('");
      return false;
    }
    hir::ExprPtr E = parseExpr();
    if (!E)
      return false;
    Args.push_back(std::move(E));
    if (consumePunct(","))
      continue;
    if (!isPunct(")")) {
      error(tok().loc(), "expected ',' or ')' in the argument list, found " +
                             describe(tok()));
      note(LParen.loc(), "to match this '('");
      return false;
    }
  }
  return true;
}

hir::ExprPtr RustParser::parsePrimary() {
  const RustToken T = tok();
  switch (T.K) {
  case RustTok::Number:
    return parseNumber();
  case RustTok::Ident:
    break;
  case RustTok::Punct:
    if (T.Text == "(") {
      consume();
      if (isPunct(")")) {
        error(T.loc(), "the unit value '()' is not supported in WAVE kernel "
                       "expressions");
        return nullptr;
      }
      hir::ExprPtr E = parseExpr();
      if (!E)
        return nullptr;
      if (isPunct(",")) {
        // A tuple `(a, b)`, `(a,)`: Sema types it (hir::StructLitExpr).
        auto L = std::make_unique<hir::StructLitExpr>(T.loc(), nullptr);
        L->Tuple = true;
        L->Inits.push_back({E->loc(), "0", std::move(E), -1});
        while (consumePunct(",") && !isPunct(")")) {
          hir::ExprPtr X = parseExpr();
          if (!X)
            return nullptr;
          L->Inits.push_back(
              {X->loc(), std::to_string(L->Inits.size()), std::move(X), -1});
        }
        if (!consumePunct(")")) {
          error(tok().loc(),
                "expected ',' or ')' in the tuple, found " + describe(tok()));
          note(T.loc(), "to match this '('");
          return nullptr;
        }
        return L;
      }
      if (!consumePunct(")")) {
        error(tok().loc(), "expected ')' to close the parenthesized "
                           "expression, found " +
                               describe(tok()));
        note(T.loc(), "to match this '('");
        return nullptr;
      }
      return E;
    }
    if (T.Text == "[")
      error(T.loc(), "array expressions are not supported in WAVE kernels");
    else if (T.Text == "|" || T.Text == "||")
      error(T.loc(), "closures are not supported in WAVE kernels");
    else if (T.Text == "{")
      error(T.loc(), "block expressions are not supported in WAVE kernels");
    else if (T.Text == ".." || T.Text == "..=")
      error(T.loc(), "ranges are only supported in 'for' loops");
    else
      error(T.loc(), "expected an expression, found " + describe(T));
    return nullptr;
  default:
    unexpected(T, "expected an expression");
    return nullptr;
  }
  llvm::StringRef W = T.Text;
  if (W == "true" || W == "false") {
    consume();
    return std::make_unique<hir::BoolLitExpr>(T.loc(), W == "true");
  }
  if (W == "if") {
    std::unique_ptr<RustIf> If = parseIf();
    if (!If)
      return nullptr;
    return ifToExpr(std::move(If));
  }
  if (W == "match") {
    std::unique_ptr<RustMatch> M = parseMatch();
    if (!M)
      return nullptr;
    return matchToExpr(std::move(M));
  }
  if (W == "self" && HasSelf) {
    consume();
    return std::make_unique<hir::NameExpr>(T.loc(), "self");
  }
  if (W == "Self" && CurImpl)
    return parsePathExpr();
  std::string Msg =
      llvm::StringSwitch<std::string>(W)
          .Cases({"loop", "while", "for"},
                 "loops cannot be used as expressions in WAVE kernels")
          .Case("unsafe", "'unsafe' blocks are not supported in WAVE kernels")
          .Cases({"return", "break", "continue"},
                 "'" + W.str() + "' cannot be used inside an expression")
          .Case("move", "closures are not supported in WAVE kernels")
          .Case("let", "'let' cannot be used as an expression")
          .Cases({"self", "Self"},
                 "'" + W.str() + "' is not supported in WAVE kernels")
          .Cases({"async", "await"},
                 "'" + W.str() + "' is not supported in WAVE kernels")
          .Default("");
  if (!Msg.empty()) {
    error(T.loc(), Msg);
    return nullptr;
  }
  if (W != "crate" && W != "super" && W != "_" && isRustKeyword(W)) {
    error(T.loc(), "expected an expression, found " + describe(T));
    return nullptr;
  }
  return parsePathExpr();
}

hir::ExprPtr RustParser::parsePathExpr() {
  std::vector<RustToken> Segs{consume()};
  while (isPunct("::")) {
    consume();
    if (isPunct("<")) {
      error(tok().loc(),
            "generic arguments ('::<>') are not supported in WAVE kernels");
      return nullptr;
    }
    if (!tok().is(RustTok::Ident)) {
      error(tok().loc(), "expected a name after '::', found " +
                             describe(tok()));
      return nullptr;
    }
    Segs.push_back(consume());
  }
  const RustToken &Last = Segs.back();
  if (isPunct("!")) {
    error(Last.loc(), "macros ('" + Last.Text +
                          "!') are not supported in WAVE kernels");
    return nullptr;
  }
  if (isPunct("{") && !NoStructLiteral && Segs.size() == 1)
    if (hir::StructDecl *S = structFor(Last.Text, Last.loc()))
      return parseStructLit(Last, S);
  if (isPunct("{") && !NoStructLiteral &&
      (Last.Text.front() >= 'A' && Last.Text.front() <= 'Z') &&
      Segs.size() == 1) {
    error(Last.loc(), "unknown struct '" + Last.Text + "'");
    return nullptr;
  }
  if (Segs.size() == 2)
    if (hir::StructDecl *S = structFor(Segs[0].Text, Segs[0].loc())) {
      // `V2::new(...)`, `Self::new(...)`: an associated function.
      if (!isPunct("(")) {
        error(Last.loc(), "associated constants are not supported in WAVE "
                          "kernels; only associated functions are");
        return nullptr;
      }
      auto C = std::make_unique<hir::CallExpr>(
          Last.loc(), S->Name + "::" + Last.Text.str());
      if (!parseArgs(C->Args))
        return nullptr;
      return C;
    }
  if (Segs.size() == 1) {
    if (Last.Text == "_") {
      error(Last.loc(), "'_' is not supported in WAVE kernel expressions");
      return nullptr;
    }
    if (!isPunct("(")) {
      // A constant or a pattern binding stands for its value.
      if (!InConstInit)
        if (hir::ExprPtr E = resolveName(Last.Text, Last.loc()))
          return E;
      return std::make_unique<hir::NameExpr>(Last.loc(), Last.Text.str());
    }
    auto C = std::make_unique<hir::CallExpr>(Last.loc(), Last.Text.str());
    if (!parseArgs(C->Args))
      return nullptr;
    return C;
  }
  std::string Path;
  for (const RustToken &S : Segs)
    Path += (Path.empty() ? "" : "::") + S.Text.str();
  if (Segs.size() == 2 && InConstInit && !isPunct("(") &&
      Segs[0].Text != "wave")
    // `Kind::A` in a constant: resolved when the constant is evaluated.
    return std::make_unique<hir::NameExpr>(Segs[0].loc(), Path);
  if (Segs.size() == 2 && Enums.count(Segs[0].Text)) {
    // `Kind::A`: the variant's value.
    if (isPunct("(") || isPunct("{")) {
      error(tok().loc(), "enum variants with fields are not supported in "
                         "WAVE kernels (only C-like enums are)");
      return nullptr;
    }
    if (InConstInit)
      return std::make_unique<hir::NameExpr>(Segs[0].loc(), Path);
    return resolveEnumPath(Segs[0].Text, Last);
  }
  if (Segs.size() == 2 && Segs[0].Text == "wave") {
    if (!isPunct("(")) {
      error(Segs[0].loc(), "only calls can be qualified with 'wave::' ('" +
                               Path + "' is not a call)");
      return nullptr;
    }
    auto C = std::make_unique<hir::CallExpr>(Last.loc(), Last.Text.str());
    if (!parseArgs(C->Args))
      return nullptr;
    return C;
  }
  if (Segs.size() == 2 && isScalarTypeName(Segs[0].Text) &&
      findMathMethod(Last.Text) && isPunct("(")) {
    // `f32::sqrt(x)`: the associated-function form of `x.sqrt()`.
    std::vector<hir::ExprPtr> Args;
    if (!parseArgs(Args))
      return nullptr;
    if (Args.empty()) {
      error(Last.loc(), "'" + Path + "' needs a receiver argument");
      return nullptr;
    }
    return makeMathCall(Last, std::move(Args));
  }
  error(Segs[0].loc(), "path '" + Path + "' is not supported in WAVE kernels "
                       "(only 'wave::' calls are)");
  return nullptr;
}

hir::ExprPtr RustParser::parseNumber() {
  RustToken T = consume();
  NumberLiteral N =
      scanNumber(T.Text, DigitSeparator::Underscore, /*CLegacyOctal=*/false);
  if (!N.Error.empty()) {
    error(T.loc(), N.Error);
    return std::make_unique<hir::IntLitExpr>(T.loc(), 0);
  }
  if (N.Overflow)
    error(T.loc(), "integer literal is too large");
  // Rust allows separators before the suffix: `2_i32`, `1.0_f32`.
  N.Suffix = N.Suffix.ltrim('_');
  std::optional<hir::Scalar> Suffix;
  bool FloatSuffix = false;
  if (!N.Suffix.empty()) {
    Suffix = llvm::StringSwitch<std::optional<hir::Scalar>>(N.Suffix)
                 .Case("u32", hir::Scalar::U32)
                 .Case("usize", hir::Scalar::U32)
                 .Case("i32", hir::Scalar::I32)
                 .Case("isize", hir::Scalar::I32)
                 .Case("f32", hir::Scalar::F32)
                 .Case("f64", hir::Scalar::F64)
                 .Case("f16", hir::Scalar::F16)
                 .Default(std::nullopt);
    if (!Suffix) {
      bool Known = llvm::StringSwitch<bool>(N.Suffix)
                       .Cases({"u8", "i8", "u16", "i16", "u64", "i64", "u128",
                               "i128"},
                              true)
                       .Default(false);
      if (Known)
        error(T.loc(), "literal suffix '" + N.Suffix +
                           "' is not supported in WAVE kernels (scalars are "
                           "f32, f64, f16, i32, u32 and bool)");
      else
        error(T.loc(), "invalid suffix '" + N.Suffix + "' on a number literal");
    } else {
      FloatSuffix = hir::isFloatScalar(*Suffix);
      if (N.IsFloat && !FloatSuffix) {
        error(T.loc(), "invalid suffix '" + N.Suffix + "' on a float literal");
        Suffix.reset();
      }
    }
  }
  if (N.IsFloat)
    return std::make_unique<hir::FloatLitExpr>(T.loc(), N.FloatValue, Suffix);
  if (FloatSuffix) // `1f32` is a float.
    return std::make_unique<hir::FloatLitExpr>(
        T.loc(), static_cast<double>(N.IntValue), Suffix);
  return std::make_unique<hir::IntLitExpr>(T.loc(), N.IntValue, Suffix);
}
