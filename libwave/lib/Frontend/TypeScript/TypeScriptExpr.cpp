//===- TypeScriptExpr.cpp - TypeScript dialect: expressions ---------------===//
//
// Expressions of the TypeScript dialect by precedence climbing, with the
// ECMAScript precedence table (formats/kernel-languages.md, "TypeScript",
// highest first): member calls `Math.sqrt(x)` / `wave.f(x)`, calls and
// indexing; unary `- + ! ~`; `* / %`; `+ -`; `<< >> >>>`; `< <= > >=`;
// `== != === !==`; `&`; `^`; `|`; `&&`; `||`; `c ? a : b` (right
// associative). `**`, `??`, `in`, `instanceof` and `x as T` are parsed at
// their ECMAScript precedence only to be rejected with a located message.
//
//===----------------------------------------------------------------------===//
#include "TypeScriptParser.h"

#include "wave/Frontend/NumberLiteral.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace wave;
using namespace wave::fe;
using hir::BinaryOp;
using hir::UnaryOp;

namespace {
/// One row of the binary operator table.
struct BinInfo {
  unsigned Prec = 0; ///< 0: not a binary operator.
  std::optional<BinaryOp> Op; ///< std::nullopt: rejected operator.
  bool RightAssoc = false;
};
} // namespace

static BinInfo binInfo(const TSToken &T) {
  if (T.is(TSTok::Ident)) {
    if (T.Text == "instanceof" || T.Text == "in")
      return {7, std::nullopt};
    if ((T.Text == "as" || T.Text == "satisfies") && !T.NewlineBefore)
      return {7, std::nullopt};
    return {};
  }
  if (!T.is(TSTok::Punct))
    return {};
  return llvm::StringSwitch<BinInfo>(T.Text)
      .Case("||", {1, BinaryOp::LogicalOr})
      .Case("??", {1, std::nullopt})
      .Case("&&", {2, BinaryOp::LogicalAnd})
      .Case("|", {3, BinaryOp::BitOr})
      .Case("^", {4, BinaryOp::BitXor})
      .Case("&", {5, BinaryOp::BitAnd})
      .Cases({"==", "==="}, {6, BinaryOp::Eq})
      .Cases({"!=", "!=="}, {6, BinaryOp::Ne})
      .Case("<", {7, BinaryOp::Lt})
      .Case("<=", {7, BinaryOp::Le})
      .Case(">", {7, BinaryOp::Gt})
      .Case(">=", {7, BinaryOp::Ge})
      .Case("<<", {8, BinaryOp::Shl})
      .Case(">>", {8, BinaryOp::Shr})
      .Case(">>>", {8, BinaryOp::LShr})
      .Case("+", {9, BinaryOp::Add})
      .Case("-", {9, BinaryOp::Sub})
      .Case("*", {10, BinaryOp::Mul})
      .Case("/", {10, BinaryOp::Div})
      .Case("%", {10, BinaryOp::Rem})
      .Case("**", {11, std::nullopt, /*RightAssoc=*/true})
      .Default({});
}

bool TSParser::isAssignOp(const TSToken &T) const {
  return T.is(TSTok::Punct) &&
         llvm::is_contained({"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=",
                             "^=", "<<=", ">>=", ">>>=", "&&=", "||=", "?\?=",
                             "**="},
                            T.Text);
}

std::optional<BinaryOp> TSParser::compoundOp(const TSToken &T) const {
  return llvm::StringSwitch<std::optional<BinaryOp>>(T.Text)
      .Case("+=", BinaryOp::Add)
      .Case("-=", BinaryOp::Sub)
      .Case("*=", BinaryOp::Mul)
      .Case("/=", BinaryOp::Div)
      .Case("%=", BinaryOp::Rem)
      .Case("&=", BinaryOp::BitAnd)
      .Case("|=", BinaryOp::BitOr)
      .Case("^=", BinaryOp::BitXor)
      .Case("<<=", BinaryOp::Shl)
      .Case(">>=", BinaryOp::Shr)
      .Case(">>>=", BinaryOp::LShr)
      .Default(std::nullopt);
}

void TSParser::rejectAssignmentInExpr() {
  if (!isAssignOp(tok()))
    return;
  error(tok().loc(), "assignment cannot be used as an expression in WAVE "
                     "kernels; write it as a statement");
  consume();
  parseConditional();
}

hir::ExprPtr TSParser::parseExpr() {
  hir::ExprPtr E = parseConditional();
  if (E)
    rejectAssignmentInExpr();
  return E;
}

hir::ExprPtr TSParser::parseConditional(hir::ExprPtr LHS) {
  DepthGuard G(*this);
  hir::ExprPtr C = parseBinary(1, std::move(LHS));
  if (!C || !is("?"))
    return C;
  TSToken Q = consume();
  hir::ExprPtr Then = parseConditional();
  if (!Then)
    return nullptr;
  if (!is(":")) {
    error(tok().loc(), "expected ':' in the conditional expression, found " +
                           describe(tok()));
    note(Q.loc(), "to match this '?'");
    return nullptr;
  }
  consume();
  hir::ExprPtr Else = parseConditional();
  if (!Else)
    return nullptr;
  return std::make_unique<hir::ConditionalExpr>(
      Q.loc(), std::move(C), std::move(Then), std::move(Else));
}

hir::ExprPtr TSParser::parseBinary(unsigned MinPrec, hir::ExprPtr LHS) {
  if (!LHS) {
    LHS = parseUnary();
    if (!LHS)
      return nullptr;
  }
  while (true) {
    BinInfo I = binInfo(tok());
    if (I.Prec == 0 || I.Prec < MinPrec)
      return LHS;
    TSToken Op = consume();
    if (Op.isIdent("as") || Op.isIdent("satisfies")) {
      if (Op.Text == "as")
        error(Op.loc(), "'as' does not convert values; use f32(x), u32(x) or "
                        "i32(x)");
      else
        error(Op.loc(), "'satisfies' is not supported in WAVE kernels");
      // The asserted type: a name, `<...>` arguments, `[]` suffixes.
      if (tok().is(TSTok::Ident))
        consume();
      if (is("<"))
        while (!atEof() && !consumeIf(">") && !atImplicitSemicolon() &&
               !is(")") && !is(";"))
          consume();
      while (is("[") && is("]", 1)) {
        consume();
        consume();
      }
      continue;
    }
    hir::ExprPtr RHS = parseBinary(I.RightAssoc ? I.Prec : I.Prec + 1);
    if (!RHS)
      return nullptr;
    if (!I.Op) {
      if (Op.Text == "**")
        error(Op.loc(), "'**' is not supported in WAVE kernels; use "
                        "multiplication or exp2/log2");
      else if (Op.Text == "??")
        error(Op.loc(), "'?\?' is not supported in WAVE kernels");
      else
        error(Op.loc(),
              "'" + Op.Text + "' is not supported in WAVE kernels");
      continue;
    }
    LHS = std::make_unique<hir::BinaryExpr>(Op.loc(), *I.Op, std::move(LHS),
                                            std::move(RHS));
  }
}

hir::ExprPtr TSParser::parseUnary() {
  const TSToken &T = tok();
  std::optional<UnaryOp> Op;
  if (T.is("-"))
    Op = UnaryOp::Neg;
  else if (T.is("+"))
    Op = UnaryOp::Plus;
  else if (T.is("!"))
    Op = UnaryOp::LogicalNot;
  else if (T.is("~"))
    Op = UnaryOp::BitNot;
  if (Op) {
    TSToken OpTok = consume();
    DepthGuard G(*this);
    hir::ExprPtr E = parseUnary();
    if (!E)
      return nullptr;
    return std::make_unique<hir::UnaryExpr>(OpTok.loc(), *Op, std::move(E));
  }
  if (T.is("++") || T.is("--")) {
    error(T.loc(), "'" + T.Text + "' is only supported as a statement");
    consume();
    DepthGuard G(*this);
    return parseUnary();
  }
  if (T.isIdent("typeof") || T.isIdent("void") || T.isIdent("delete") ||
      T.isIdent("await")) {
    error(T.loc(), "'" + T.Text + "' is not supported in WAVE kernels");
    consume();
    DepthGuard G(*this);
    return parseUnary();
  }
  if (T.is("<")) {
    error(T.loc(), "type assertions are not supported in WAVE kernels; use "
                   "f32(x), u32(x) or i32(x)");
    while (!atEof() && !consumeIf(">") && !is(";") && !is(")"))
      consume();
    DepthGuard G(*this);
    return parseUnary();
  }
  return parsePostfix();
}

hir::ExprPtr TSParser::parsePostfix(bool StopAtIncDec) {
  hir::ExprPtr E = parsePrimary();
  if (!E)
    return nullptr;
  while (true) {
    const TSToken &T = tok();
    if (T.is("[")) {
      TSToken Open = consume();
      DepthGuard G(*this);
      hir::ExprPtr Idx = parseExpr();
      if (!Idx)
        return nullptr;
      if (!is("]")) {
        error(tok().loc(),
              "expected ']' to close the index, found " + describe(tok()));
        note(Open.loc(), "to match this '['");
        return nullptr;
      }
      consume();
      E = std::make_unique<hir::IndexExpr>(Open.loc(), std::move(E),
                                           std::move(Idx));
    } else if (T.is("(")) {
      error(T.loc(), "only functions called by name are supported in WAVE "
                     "kernels");
      return nullptr;
    } else if (T.is(".") && tok(1).is(TSTok::Ident) &&
               PlainMembers.contains(tok(1).Text)) {
      E = parseMemberAccess(std::move(E));
      if (!E)
        return nullptr;
    } else if (T.is(".") || T.is("?.")) {
      if (T.is("?."))
        error(T.loc(),
              "optional chaining ('?.') is not supported in WAVE kernels");
      else if (tok(1).isIdent("length"))
        error(T.loc(), "'.length' is not supported in WAVE kernels; pass the "
                       "length as a parameter");
      else
        error(T.loc(), "property access is not supported in WAVE kernels; "
                       "only calls qualified with 'Math.' or 'wave.' are");
      consume();
      if (tok().is(TSTok::Ident))
        consume();
      if (is("(")) {
        skipBalanced();
      }
    } else if (T.is("!") && !T.NewlineBefore) {
      error(T.loc(),
            "non-null assertions ('!') are not supported in WAVE kernels");
      consume();
    } else if ((T.is("++") || T.is("--")) && !T.NewlineBefore) {
      if (StopAtIncDec)
        return E;
      error(T.loc(), "'" + T.Text + "' is only supported as a statement");
      consume();
    } else if (T.is(TSTok::Template) && !T.NewlineBefore) {
      error(T.loc(), "tagged templates are not supported in WAVE kernels");
      consume();
    } else {
      return E;
    }
  }
}

hir::ExprPtr TSParser::parseNumber() {
  TSToken T = consume();
  NumberLiteral L = scanNumber(T.Text, DigitSeparator::Underscore,
                               /*CLegacyOctal=*/false);
  if (!L.Error.empty()) {
    error(T.loc(), L.Error);
    return nullptr;
  }
  if (L.Suffix == "n") {
    error(T.loc(), "BigInt literals are not supported in WAVE kernels");
    return nullptr;
  }
  if (!L.Suffix.empty()) {
    error(T.loc(), "invalid suffix '" + L.Suffix + "' on number literal '" +
                       T.Text + "'");
    return nullptr;
  }
  if (!L.IsFloat && T.Text.size() > 1 && T.Text[0] == '0' &&
      (llvm::isDigit(T.Text[1]) || T.Text[1] == '_')) {
    error(T.loc(), "octal literals with a leading '0' are not supported; "
                   "use '0o'");
    return nullptr;
  }
  if (L.IsFloat)
    return std::make_unique<hir::FloatLitExpr>(T.loc(), L.FloatValue);
  if (L.Overflow) {
    error(T.loc(), "integer literal '" + T.Text + "' does not fit in 64 bits");
    return nullptr;
  }
  return std::make_unique<hir::IntLitExpr>(T.loc(), L.IntValue);
}

hir::ExprPtr TSParser::parseCallArgs(std::unique_ptr<hir::CallExpr> Call) {
  TSToken Open = consume(); // (
  DepthGuard G(*this);
  while (!is(")")) {
    if (is("...")) {
      error(tok().loc(), "spread arguments are not supported in WAVE kernels");
      consume();
    }
    hir::ExprPtr A = parseExpr();
    if (!A)
      return nullptr;
    Call->Args.push_back(std::move(A));
    if (!consumeIf(","))
      break;
  }
  if (!is(")")) {
    error(tok().loc(), "expected ')' to close the argument list, found " +
                           describe(tok()));
    note(Open.loc(), "to match this '('");
    return nullptr;
  }
  consume();
  return Call;
}

/// The `Math.` functions of the dialect and the callee each becomes.
static llvm::StringRef mathCallee(llvm::StringRef Member) {
  return llvm::StringSwitch<llvm::StringRef>(Member)
      .Cases({"sqrt", "min", "max", "abs", "floor", "ceil", "round", "trunc",
              "exp", "log", "log2", "sin", "cos"},
             Member)
      .Case("fround", "f32")
      .Default("");
}

hir::ExprPtr TSParser::parseIdentifierExpr() {
  const TSToken &T = tok();
  llvm::StringRef W = T.Text;
  if (W == "true" || W == "false")
    return std::make_unique<hir::BoolLitExpr>(consume().loc(), W == "true");
  if (W == "this" && (InMethod || InConstructor)) {
    TSToken This = consume();
    if (!is(".")) {
      error(This.loc(), "'this' is only used as 'this.field' or "
                        "'this.method(...)' in WAVE kernels; it cannot "
                        "escape");
      return nullptr;
    }
    if (InConstructor)
      ConstructorThis.push_back(This.loc());
    return std::make_unique<hir::NameExpr>(This.loc(), "this");
  }
  if (W == "new" && !PlainClasses.empty())
    return parseNew();
  if (llvm::is_contained({"this", "null", "undefined", "super", "arguments"},
                         W)) {
    if (W == "this" && !CurClass.empty())
      error(T.loc(), "'this' is not supported in WAVE kernels; call a static "
                     "method as '" +
                         CurClass + ".f(...)'");
    else
      error(T.loc(), "'" + W + "' is not supported in WAVE kernels");
    return nullptr;
  }
  if (W == "new") {
    error(T.loc(), "'new' is not supported in WAVE kernels; declare "
                   "workgroup arrays with shared(T, N)");
    return nullptr;
  }
  if (W == "function" || W == "class") {
    error(T.loc(), W + " expressions are not supported in WAVE kernels");
    return nullptr;
  }
  if (llvm::is_contained({"typeof", "void", "delete", "await", "yield"}, W)) {
    error(T.loc(), "'" + W + "' is not supported in WAVE kernels");
    return nullptr;
  }
  if (llvm::is_contained({"if", "else", "for", "while", "do", "return",
                          "break", "continue", "let", "const", "var",
                          "switch", "case", "default", "try", "catch",
                          "finally", "throw", "import", "export", "in",
                          "instanceof", "with", "enum", "extends"},
                         W)) {
    error(T.loc(), "expected an expression, found '" + W + "'");
    return nullptr;
  }
  TSToken Name = consume();
  if (is("=>")) {
    error(tok().loc(), "arrow functions are not supported in WAVE kernels");
    return nullptr;
  }
  if (is(".") && isQualifier(Name.Text)) {
    consume();
    const TSToken &Mem = tok();
    if (!Mem.is(TSTok::Ident)) {
      error(Mem.loc(), "expected a name after '" + Name.Text + ".', found " +
                           describe(Mem));
      return nullptr;
    }
    TSToken Member = consume();
    std::string Callee = Member.Text.str();
    if (Name.Text == "Math" && is("(")) {
      llvm::StringRef C = mathCallee(Member.Text);
      if (C.empty())
        error(Name.loc(), "'Math." + Member.Text +
                              "' is not supported in WAVE kernels");
      else
        Callee = C.str();
    }
    if (!is("(")) {
      error(Name.loc(), "'" + Name.Text + "." + Member.Text +
                            "' is not supported in WAVE kernels; only calls "
                            "such as 'Math.sqrt(x)' are");
      return nullptr;
    }
    return parseCallArgs(
        std::make_unique<hir::CallExpr>(Member.loc(), std::move(Callee)));
  }
  // `K.f(x)`: a static method of class K, checked once every class is
  // known (resolveClassCalls); in HIR, a call of `f`.
  if (is(".") && tok(1).is(TSTok::Ident) && is("(", 2) &&
      (AllClasses.contains(Name.Text) ||
       !PlainMembers.contains(tok(1).Text))) {
    TSToken Dot = consume();
    TSToken Member = consume();
    QualifiedCalls.push_back(
        {Name.Text.str(), Member.Text.str(), Dot.loc(), Member.loc()});
    return parseCallArgs(
        std::make_unique<hir::CallExpr>(Member.loc(), Member.Text.str()));
  }
  if (is("(")) {
    PlainCalls.push_back({Name.Text.str(), Name.loc()});
    return parseCallArgs(
        std::make_unique<hir::CallExpr>(Name.loc(), Name.Text.str()));
  }
  return std::make_unique<hir::NameExpr>(Name.loc(), Name.Text.str());
}

hir::ExprPtr TSParser::parsePrimary() {
  const TSToken &T = tok();
  switch (T.K) {
  case TSTok::Number:
    return parseNumber();
  case TSTok::Ident:
    return parseIdentifierExpr();
  case TSTok::String:
    error(T.loc(), "strings are not supported in WAVE kernels");
    return nullptr;
  case TSTok::Template:
    error(T.loc(), "template literals are not supported in WAVE kernels");
    return nullptr;
  case TSTok::Eof:
  case TSTok::Unknown:
    error(T.loc(), "expected an expression, found " + describe(T));
    return nullptr;
  case TSTok::Punct:
    break;
  }
  if (T.is("(")) {
    TSToken Open = consume();
    if (is(")")) {
      error(Open.loc(), "arrow functions are not supported in WAVE kernels");
      return nullptr;
    }
    DepthGuard G(*this);
    hir::ExprPtr E = parseExpr();
    if (!E)
      return nullptr;
    if (is(",")) {
      error(tok().loc(), "the comma operator is not supported in WAVE kernels");
      return nullptr;
    }
    if (!is(")")) {
      error(tok().loc(), "expected ')' to close the parenthesized "
                         "expression, found " +
                             describe(tok()));
      note(Open.loc(), "to match this '('");
      return nullptr;
    }
    consume();
    if (is("=>")) {
      error(tok().loc(), "arrow functions are not supported in WAVE kernels");
      return nullptr;
    }
    return E;
  }
  const char *Msg = nullptr;
  if (T.is("["))
    Msg = "array literals are not supported in WAVE kernels";
  else if (T.is("{"))
    Msg = "object literals are not supported in WAVE kernels";
  else if (T.is("/") || T.is("/="))
    Msg = "regular expressions are not supported in WAVE kernels";
  else if (T.is("..."))
    Msg = "spread syntax ('...') is not supported in WAVE kernels";
  else if (T.is("#"))
    Msg = "private names are not supported in WAVE kernels";
  if (Msg)
    error(T.loc(), Msg);
  else
    error(T.loc(), "expected an expression, found " + describe(T));
  return nullptr;
}
