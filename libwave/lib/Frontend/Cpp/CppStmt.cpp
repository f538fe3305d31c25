//===- CppStmt.cpp - C++ kernel dialect: statements -----------------------===//
//
// Statements of the C++ dialect: blocks, declarations (`T a = e, b;`,
// `auto`, `const`, `__shared__ T x[N];`), assignments and compound
// assignments, `++`/`--` statements, calls, if/else, while, do-while,
// C-style for, break, continue and return. Host-language statements
// outside the dialect (switch, goto, try, labels, local arrays, ...) get a
// located error. After a syntax error the statement is skipped up to its
// end (CppParser::skipStatement) and parsing goes on.
//
//===----------------------------------------------------------------------===//
#include "CppParser.h"

using namespace wave;
using namespace wave::fe;
using llvm::isa;

std::unique_ptr<hir::BlockStmt> CppParser::parseBlock() {
  DepthGuard G(*this);
  CppToken LBrace = consume();
  auto B = std::make_unique<hir::BlockStmt>(LBrace.loc());
  while (!is(CppTok::RBrace) && !is(CppTok::Eof)) {
    size_t Before = Pos;
    parseStatement(*B);
    if (Pos == Before)
      consume();
  }
  if (!consumeIf(CppTok::RBrace)) {
    error(tok().loc(), "expected '}' at the end of the block, found " +
                           describe(tok()));
    note(LBrace.loc(), "to match this '{'");
  }
  return B;
}

void CppParser::parseStatement(hir::BlockStmt &Out) {
  if (!parseStatementInner(Out))
    skipStatement();
}

std::unique_ptr<hir::BlockStmt> CppParser::parseSubStatement() {
  if (is(CppTok::LBrace))
    return parseBlock();
  auto B = std::make_unique<hir::BlockStmt>(tok().loc());
  if (is(CppTok::RBrace) || is(CppTok::Eof)) {
    error(tok().loc(), "expected a statement, found " + describe(tok()));
    return B;
  }
  parseStatement(*B);
  return B;
}

bool CppParser::isDeclarationStart() {
  const CppToken &T = tok();
  if (!T.is(CppTok::Ident))
    return false;
  if (llvm::is_contained({"static", "__shared__", "constexpr", "auto",
                          "const", "volatile", "register", "thread_local"},
                         T.Text))
    return true;
  if (!isTypeStart())
    return false;
  // `float(x);` and `std::uint32_t(x)` are functional casts.
  unsigned Words = 1;
  if (T.Text == "std")
    Words = 3;
  return !is(CppTok::LParen, Words);
}

bool CppParser::rejectUnsupportedStatement() {
  const CppToken T = tok();
  llvm::StringRef W = T.Text;
  auto Reject = [&](const llvm::Twine &Msg) {
    error(T.loc(), Msg);
    skipStatement();
    return true;
  };
  if (W == "switch")
    return Reject("'switch' statements are not supported in WAVE kernels; "
                  "use 'if'/'else'");
  if (W == "case" || W == "default")
    return Reject("'" + W + "' labels are not supported in WAVE kernels");
  if (W == "goto")
    return Reject("'goto' is not supported in WAVE kernels");
  if (W == "throw")
    return Reject("exceptions are not supported in WAVE kernels");
  if (W == "try" || W == "catch") {
    error(T.loc(), "exceptions are not supported in WAVE kernels");
    consume();
    while (true) {
      if (is(CppTok::LParen))
        skipBalanced();
      if (is(CppTok::LBrace))
        skipBalanced();
      if (!isIdent("catch"))
        break;
      consume();
    }
    return true;
  }
  if (W == "asm" || W == "__asm__" || W == "__asm")
    return Reject("inline assembly is not supported in WAVE kernels");
  if (std::optional<std::string> Why = unsupportedDeclaration(W))
    return Reject(*Why);
  if (W == "co_return" || W == "co_yield" || W == "co_await")
    return Reject("coroutines are not supported in WAVE kernels");
  if (W == "delete" || W == "new")
    return Reject("'" + W + "' is not supported in WAVE kernels");
  if (W == "else")
    return Reject("'else' without a matching 'if'");
  if (W == "using")
    return Reject("only 'using namespace wave;' and 'using namespace std;' "
                  "are supported");
  return false;
}

bool CppParser::parseStatementInner(hir::BlockStmt &Out) {
  DepthGuard G(*this);
  const CppToken T = tok();
  switch (T.K) {
  case CppTok::LBrace:
    Out.Body.push_back(parseBlock());
    return true;
  case CppTok::Semi:
    consume();
    return true;
  case CppTok::LBracket:
    if (atAttributeList()) {
      bool IsKernel = false;
      std::optional<std::array<uint32_t, 3>> WG;
      llvm::SMLoc WGLoc;
      if (!parseAttributeList(IsKernel, WG, WGLoc, false))
        return false;
      return parseStatementInner(Out);
    }
    break;
  case CppTok::Ident: {
    llvm::StringRef W = T.Text;
    if (W == "if")
      return parseIf(Out);
    if (W == "while")
      return parseWhile(Out);
    if (W == "do")
      return parseDoWhile(Out);
    if (W == "for")
      return parseFor(Out);
    if (W == "break" || W == "continue") {
      consume();
      if (W == "break")
        Out.Body.push_back(std::make_unique<hir::BreakStmt>(T.loc()));
      else
        Out.Body.push_back(std::make_unique<hir::ContinueStmt>(T.loc()));
      return expect(CppTok::Semi, "after '" + W + "'");
    }
    if (W == "return") {
      consume();
      hir::ExprPtr V;
      if (!is(CppTok::Semi)) {
        V = parseExpr();
        if (!V)
          return false;
      }
      Out.Body.push_back(std::make_unique<hir::ReturnStmt>(T.loc(),
                                                           std::move(V)));
      return expect(CppTok::Semi, "after the return statement");
    }
    if (W == "using" && isIdent("namespace", 1) && tok(2).is(CppTok::Ident) &&
        (tok(2).Text == "wave" || tok(2).Text == "std") &&
        is(CppTok::Semi, 3)) {
      for (int I = 0; I < 4; ++I)
        consume();
      return true;
    }
    if (rejectUnsupportedStatement())
      return true;
    if (isDeclarationStart()) {
      if (!parseDeclaration(Out))
        return false;
      return expect(CppTok::Semi, "after the declaration");
    }
    if (is(CppTok::Colon, 1)) {
      error(T.loc(), "labels are not supported in WAVE kernels");
      consume();
      consume();
      return true;
    }
    if (is(CppTok::Ident, 1) && !isTypeStart(1)) {
      error(T.loc(), "unknown type name '" + W + "'");
      return false;
    }
    break;
  }
  default:
    break;
  }
  hir::StmtPtr S = parseSimpleStatement();
  if (!S)
    return false;
  Out.Body.push_back(std::move(S));
  return expect(CppTok::Semi, "after the statement");
}

hir::ExprPtr CppParser::parseCondition(llvm::StringRef Keyword) {
  llvm::SMLoc LParen = tok().loc();
  if (!expect(CppTok::LParen, "after '" + Keyword + "'"))
    return nullptr;
  if (isDeclarationStart()) {
    error(tok().loc(), "declarations in conditions are not supported in "
                       "WAVE kernels");
    return nullptr;
  }
  hir::ExprPtr E = parseExpr();
  if (!E)
    return nullptr;
  if (!consumeIf(CppTok::RParen)) {
    if (is(CppTok::Comma))
      error(tok().loc(), "the comma operator is not supported in WAVE "
                         "kernels");
    else
      error(tok().loc(), "expected ')' after the condition, found " +
                             describe(tok()));
    note(LParen, "to match this '('");
    return nullptr;
  }
  return E;
}

bool CppParser::parseIf(hir::BlockStmt &Out) {
  llvm::SMLoc IfLoc = consume().loc();
  if (isIdent("constexpr")) {
    error(tok().loc(), "'if constexpr' is not supported in WAVE kernels");
    consume();
  }
  hir::ExprPtr Cond = parseCondition("if");
  if (!Cond)
    return false;
  std::unique_ptr<hir::BlockStmt> Then = parseSubStatement();
  hir::StmtPtr Else;
  if (isIdent("else")) {
    consume();
    bool ElseIf = isIdent("if");
    std::unique_ptr<hir::BlockStmt> B = parseSubStatement();
    // `else if` nests the inner IfStmt directly, without a block.
    if (ElseIf && B->Body.size() == 1 && isa<hir::IfStmt>(*B->Body[0]))
      Else = std::move(B->Body[0]);
    else
      Else = std::move(B);
  }
  Out.Body.push_back(std::make_unique<hir::IfStmt>(
      IfLoc, std::move(Cond), std::move(Then), std::move(Else)));
  return true;
}

bool CppParser::parseWhile(hir::BlockStmt &Out) {
  llvm::SMLoc Loc = consume().loc();
  hir::ExprPtr Cond = parseCondition("while");
  if (!Cond)
    return false;
  std::unique_ptr<hir::BlockStmt> Body = parseSubStatement();
  Out.Body.push_back(
      std::make_unique<hir::WhileStmt>(Loc, std::move(Cond), std::move(Body)));
  return true;
}

bool CppParser::parseDoWhile(hir::BlockStmt &Out) {
  llvm::SMLoc Loc = consume().loc();
  std::unique_ptr<hir::BlockStmt> Body = parseSubStatement();
  if (!isIdent("while")) {
    error(tok().loc(), "expected 'while' after the body of 'do', found " +
                           describe(tok()));
    note(Loc, "'do' is here");
    return false;
  }
  consume();
  hir::ExprPtr Cond = parseCondition("while");
  if (!Cond)
    return false;
  Out.Body.push_back(std::make_unique<hir::WhileStmt>(
      Loc, std::move(Cond), std::move(Body), /*DoWhile=*/true));
  return expect(CppTok::Semi, "after 'do'/'while'");
}

bool CppParser::parseFor(hir::BlockStmt &Out) {
  llvm::SMLoc Loc = consume().loc();
  llvm::SMLoc LParen = tok().loc();
  if (!expect(CppTok::LParen, "after 'for'"))
    return false;
  auto F = std::make_unique<hir::ForStmt>(Loc);
  if (!is(CppTok::Semi)) {
    if (isDeclarationStart()) {
      hir::BlockStmt Tmp(tok().loc());
      if (!parseDeclaration(Tmp))
        return false;
      if (is(CppTok::Colon)) {
        error(Loc, "range-based 'for' loops are not supported in WAVE "
                   "kernels");
        return false;
      }
      if (Tmp.Body.size() > 1)
        error(Tmp.Body[1]->loc(), "only one variable may be declared in a "
                                  "'for' initializer");
      if (!Tmp.Body.empty()) {
        if (isa<hir::SharedDecl>(*Tmp.Body[0]))
          error(Tmp.Body[0]->loc(), "'__shared__' arrays cannot be declared "
                                    "in a 'for' initializer");
        else
          F->Init = std::move(Tmp.Body[0]);
      }
    } else {
      F->Init = parseSimpleStatement();
      if (!F->Init)
        return false;
    }
  }
  if (!expect(CppTok::Semi, "after the 'for' initializer"))
    return false;
  if (!is(CppTok::Semi)) {
    F->Cond = parseExpr();
    if (!F->Cond)
      return false;
  }
  if (!expect(CppTok::Semi, "after the 'for' condition"))
    return false;
  if (!is(CppTok::RParen)) {
    F->Step = parseSimpleStatement();
    if (!F->Step)
      return false;
  }
  if (!consumeIf(CppTok::RParen)) {
    if (is(CppTok::Comma))
      error(tok().loc(), "the comma operator is not supported in WAVE "
                         "kernels");
    else
      error(tok().loc(), "expected ')' after the 'for' header, found " +
                             describe(tok()));
    note(LParen, "to match this '('");
    return false;
  }
  F->Body = parseSubStatement();
  Out.Body.push_back(std::move(F));
  return true;
}

bool CppParser::parseDeclaration(hir::BlockStmt &Out) {
  llvm::SMLoc Start = tok().loc();
  bool Static = false, Shared = false, Constexpr = false;
  while (is(CppTok::Ident)) {
    llvm::StringRef W = tok().Text;
    if (W == "static")
      Static = true;
    else if (W == "__shared__")
      Shared = true;
    else if (W == "constexpr")
      Constexpr = true;
    else if (W == "register" || W == "thread_local" || W == "extern")
      error(tok().loc(), "'" + W + "' is not supported in WAVE kernels");
    else
      break;
    consume();
  }
  CppTypeSpec TS = parseTypeSpec(/*AllowAuto=*/!Shared);
  if (isIdent("__shared__")) {
    Shared = true;
    consume();
  }
  if (!TS.Valid) {
    if (is(CppTok::Ident) && is(CppTok::Ident, 1))
      error(tok().loc(), "unknown type name '" + tok().Text + "'");
    else
      error(tok().loc(), "expected a type, found " + describe(tok()));
    return false;
  }
  if (Static && !Shared)
    error(Start, "static local variables are not supported in WAVE kernels");
  if (TS.IsVoid) {
    error(TS.Loc, "variables cannot have type 'void'");
    return false;
  }
  while (true) {
    if (is(CppTok::Star)) {
      error(tok().loc(), "pointer variables are not supported in WAVE "
                         "kernels");
      return false;
    }
    if (is(CppTok::Amp) || is(CppTok::AmpAmp)) {
      error(tok().loc(), "references are not supported in WAVE kernels");
      return false;
    }
    if (!is(CppTok::Ident) || isTypeStart()) {
      error(tok().loc(), "expected a variable name, found " + describe(tok()));
      return false;
    }
    CppToken NameTok = consume();
    if (Shared) {
      if (!is(CppTok::LBracket)) {
        error(NameTok.loc(), "a '__shared__' variable must be an array: "
                             "'__shared__ T name[N];'");
        return false;
      }
      CppToken LB = consume();
      if (is(CppTok::RBracket)) {
        error(tok().loc(), "a '__shared__' array needs a size");
        return false;
      }
      hir::ExprPtr Size = parseExpr();
      if (!Size)
        return false;
      if (!consumeIf(CppTok::RBracket)) {
        error(tok().loc(), "expected ']' after the array size, found " +
                               describe(tok()));
        note(LB.loc(), "to match this '['");
        return false;
      }
      if (is(CppTok::LBracket)) {
        error(tok().loc(), "multi-dimensional shared arrays are not "
                           "supported; use a flat array");
        return false;
      }
      if (is(CppTok::Equal) || is(CppTok::LBrace)) {
        error(tok().loc(), "'__shared__' arrays cannot have an initializer");
        return false;
      }
      Out.Body.push_back(std::make_unique<hir::SharedDecl>(
          NameTok.loc(), NameTok.Text.str(), TS.S, std::move(Size)));
    } else {
      if (is(CppTok::LBracket)) {
        error(tok().loc(), "local arrays are not supported; use __shared__ "
                           "for workgroup memory");
        return false;
      }
      hir::ExprPtr Init;
      if (consumeIf(CppTok::Equal)) {
        Init = parseExpr();
        if (!Init)
          return false;
      } else if (is(CppTok::LBrace)) {
        CppToken LB = consume();
        if (!is(CppTok::RBrace)) {
          Init = parseExpr();
          if (!Init)
            return false;
        }
        if (!consumeIf(CppTok::RBrace)) {
          error(tok().loc(), "expected '}' after the initializer, found " +
                                 describe(tok()));
          note(LB.loc(), "to match this '{'");
          return false;
        }
      } else if (is(CppTok::LParen)) {
        error(tok().loc(), "initialization with '(...)' is not supported; "
                           "use '='");
        return false;
      }
      if (TS.IsAuto && !Init)
        error(NameTok.loc(), "'auto' variable '" + NameTok.Text +
                                 "' needs an initializer");
      std::optional<hir::Scalar> DeclTy;
      if (!TS.IsAuto)
        DeclTy = TS.S;
      Out.Body.push_back(std::make_unique<hir::VarDecl>(
          NameTok.loc(), NameTok.Text.str(), DeclTy, std::move(Init),
          /*Mutable=*/!(TS.Const || Constexpr)));
    }
    if (!consumeIf(CppTok::Comma))
      break;
  }
  return true;
}

/// Whether \p E may be assigned: a name or an element of an array.
static bool isAssignable(const hir::Expr &E) {
  return isa<hir::NameExpr>(E) || isa<hir::IndexExpr>(E);
}

hir::StmtPtr CppParser::parseSimpleStatement() {
  auto CheckTarget = [&](const hir::Expr &E, const CppToken &Op) {
    if (!isAssignable(E))
      error(E.loc(), "the operand of '" + Op.Text +
                         "' must be a variable or an array element");
  };
  if (is(CppTok::PlusPlus) || is(CppTok::MinusMinus)) {
    CppToken Op = consume();
    hir::ExprPtr Target = parseUnary();
    if (!Target)
      return nullptr;
    CheckTarget(*Target, Op);
    return std::make_unique<hir::AssignStmt>(
        Op.loc(), std::move(Target),
        std::make_unique<hir::IntLitExpr>(Op.loc(), 1),
        Op.is(CppTok::PlusPlus) ? hir::BinaryOp::Add : hir::BinaryOp::Sub);
  }
  // The assignment target (or the start of an expression statement) is
  // parsed up to the end of its postfix (or prefix) expression first.
  hir::ExprPtr E = is(CppTok::Ident) || (is(CppTok::LParen) && !atCCast())
                       ? parsePostfix(/*StopAtIncDec=*/true)
                       : parseUnary();
  if (!E)
    return nullptr;
  if (isAssignOp(tok().K)) {
    CppToken Op = consume();
    CheckTarget(*E, Op);
    hir::ExprPtr V = parseExpr();
    if (!V)
      return nullptr;
    return std::make_unique<hir::AssignStmt>(Op.loc(), std::move(E),
                                             std::move(V), compoundOp(Op.K));
  }
  if (is(CppTok::PlusPlus) || is(CppTok::MinusMinus)) {
    CppToken Op = consume();
    CheckTarget(*E, Op);
    return std::make_unique<hir::AssignStmt>(
        Op.loc(), std::move(E), std::make_unique<hir::IntLitExpr>(Op.loc(), 1),
        Op.is(CppTok::PlusPlus) ? hir::BinaryOp::Add : hir::BinaryOp::Sub);
  }
  E = parseConditional(std::move(E));
  if (!E)
    return nullptr;
  rejectAssignmentInExpr();
  llvm::SMLoc Loc = E->loc();
  return std::make_unique<hir::ExprStmt>(Loc, std::move(E));
}
