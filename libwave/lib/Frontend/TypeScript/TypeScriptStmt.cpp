//===- TypeScriptStmt.cpp - TypeScript dialect: statements ----------------===//
//
// Statements of the TypeScript dialect (formats/kernel-languages.md,
// "TypeScript"): blocks, `let`/`const`/`var` declarations (several
// declarators become several VarDecls), `shared(T, N)` arrays, assignments
// and compound assignments, `++`/`--` statements, calls, if/else, while,
// do-while, C-style for, break, continue and return.
//
// Automatic semicolon insertion, simplified: a statement ends at a `;`, or
// without one before a `}`, the end of the file, or a token on a new line
// that cannot continue it (the expression parser stops at it). `return`,
// `break` and `continue` followed by a line break end there, and a `++` or
// `--` on a new line starts a new statement (the restricted productions).
//
//===----------------------------------------------------------------------===//
#include "TypeScriptParser.h"

using namespace wave;
using namespace wave::fe;
using hir::Scalar;
using hir::Type;
using llvm::cast;
using llvm::dyn_cast;
using llvm::isa;

/// Whether \p E may be assigned: a name, an element or a field of a
/// class of plain data.
static bool isAssignable(const hir::Expr &E) {
  return isa<hir::NameExpr>(E) || isa<hir::IndexExpr>(E) ||
         isa<hir::MemberExpr>(E);
}

/// Whether \p E is a field of `this` (through any number of fields).
static bool isThisField(const hir::Expr &E) {
  const hir::Expr *X = &E;
  while (const auto *Mem = dyn_cast<hir::MemberExpr>(X))
    X = Mem->Base.get();
  const auto *N = dyn_cast<hir::NameExpr>(X);
  return X != &E && N && N->Name == "this";
}

bool TSParser::atImplicitSemicolon() {
  return tok().NewlineBefore || is("}") || atEof();
}

bool TSParser::endStatement(llvm::StringRef What) {
  if (consumeIf(";") || atImplicitSemicolon())
    return true;
  error(tok().loc(),
        "expected ';' after " + What + ", found " + describe(tok()));
  return false;
}

std::unique_ptr<hir::BlockStmt> TSParser::parseBlock() {
  DepthGuard G(*this);
  TSToken Open = consume(); // {
  auto B = std::make_unique<hir::BlockStmt>(Open.loc());
  while (!is("}") && !atEof())
    parseStatement(*B);
  if (!consumeIf("}") && !Fatal) {
    error(tok().loc(), "expected '}' at the end of the block, found " +
                           describe(tok()));
    note(Open.loc(), "to match this '{'");
  }
  return B;
}

void TSParser::parseStatement(hir::BlockStmt &Out) {
  size_t Start = Pos;
  if (!parseStatementInner(Out))
    skipStatement();
  // Every statement consumes something, so that the block loop ends.
  if (Pos == Start && !atEof() && !is("}"))
    consume();
}

std::unique_ptr<hir::BlockStmt> TSParser::parseSubStatement() {
  if (is("{"))
    return parseBlock();
  DepthGuard G(*this);
  auto B = std::make_unique<hir::BlockStmt>(tok().loc());
  if (is("}") || atEof())
    error(tok().loc(), "expected a statement, found " + describe(tok()));
  else
    parseStatement(*B);
  return B;
}

bool TSParser::rejectUnsupportedStatement() {
  const TSToken &T = tok();
  if (!T.is(TSTok::Ident))
    return false;
  llvm::StringRef W = T.Text;
  if (W == "try") {
    error(T.loc(), "'try' statements are not supported in WAVE kernels");
    consume();
    if (is("{"))
      skipBalanced();
    while (isIdent("catch") || isIdent("finally")) {
      consume();
      if (is("("))
        skipBalanced();
      if (is("{"))
        skipBalanced();
    }
    return true;
  }
  if (W == "else") {
    error(T.loc(), "'else' without a matching 'if'");
    consume();
    return true;
  }
  std::string Msg;
  if (llvm::is_contained({"switch", "throw", "with", "debugger"}, W))
    Msg = "'" + W.str() + "' statements are not supported in WAVE kernels";
  else if (W == "function" || (W == "async" && isIdent("function", 1)))
    Msg = "nested functions are not supported in WAVE kernels";
  else if (W == "class")
    Msg = "classes are not supported in WAVE kernels";
  else if (W == "interface")
    Msg = "interfaces are not supported in WAVE kernels";
  else if (W == "type" && tok(1).is(TSTok::Ident))
    Msg = "type aliases are not supported in WAVE kernels";
  else if (W == "enum")
    Msg = "enums are not supported in WAVE kernels";
  else if (W == "import" || W == "export")
    Msg = "'" + W.str() + "' is only allowed at the top level";
  else if (W == "yield")
    Msg = "'yield' is not supported in WAVE kernels";
  if (Msg.empty() && is(":", 1)) {
    // Report the label and parse the statement it labels.
    error(T.loc(), "labeled statements are not supported in WAVE kernels");
    consume();
    consume();
    return true;
  }
  if (Msg.empty())
    return false;
  error(T.loc(), Msg);
  consume();
  skipStatement();
  return true;
}

bool TSParser::parseStatementInner(hir::BlockStmt &Out) {
  const TSToken &T = tok();
  if (T.is("{")) {
    Out.Body.push_back(parseBlock());
    return true;
  }
  if (T.is(";")) {
    consume();
    return true;
  }
  if (T.isIdent("let") || T.isIdent("const") || T.isIdent("var")) {
    if (isIdent("enum", 1)) {
      error(T.loc(), "enums are not supported in WAVE kernels");
      return false;
    }
    return parseDeclaration(Out, /*InFor=*/false) &&
           endStatement("the declaration");
  }
  if (T.isIdent("if"))
    return parseIf(Out);
  if (T.isIdent("while"))
    return parseWhile(Out);
  if (T.isIdent("do"))
    return parseDoWhile(Out);
  if (T.isIdent("for"))
    return parseFor(Out);
  if (T.isIdent("return")) {
    TSToken Kw = consume();
    hir::ExprPtr V;
    if (!is(";") && !atImplicitSemicolon()) {
      V = parseExpr();
      if (!V)
        return false;
    }
    Out.Body.push_back(std::make_unique<hir::ReturnStmt>(Kw.loc(), std::move(V)));
    return endStatement("'return'");
  }
  if (T.isIdent("break") || T.isIdent("continue")) {
    TSToken Kw = consume();
    if (tok().is(TSTok::Ident) && !tok().NewlineBefore) {
      error(tok().loc(), "labeled '" + Kw.Text +
                             "' is not supported in WAVE kernels");
      consume();
    }
    if (Kw.Text == "break")
      Out.Body.push_back(std::make_unique<hir::BreakStmt>(Kw.loc()));
    else
      Out.Body.push_back(std::make_unique<hir::ContinueStmt>(Kw.loc()));
    return endStatement("'" + Kw.Text.str() + "'");
  }
  if (rejectUnsupportedStatement())
    return true;
  hir::StmtPtr S = parseSimpleStatement();
  if (!S)
    return false;
  Out.Body.push_back(std::move(S));
  return endStatement("the statement");
}

void TSParser::skipToCloseParen(bool StopAtSemi) {
  while (!atEof()) {
    const TSToken &T = tok();
    if (T.is(")")) {
      consume();
      return;
    }
    if (T.is("{") || T.is("}") || (StopAtSemi && T.is(";")))
      return;
    if (T.is("(") || T.is("["))
      skipBalanced();
    else
      consume();
  }
}

hir::ExprPtr TSParser::parseCondition(llvm::StringRef Keyword) {
  TSToken Open = tok();
  if (!expect("(", "after '" + Keyword + "'"))
    return nullptr;
  hir::ExprPtr E = parseExpr();
  if (E && consumeIf(")"))
    return E;
  if (E) {
    error(tok().loc(), "expected ')' after the condition of '" + Keyword +
                           "', found " + describe(tok()));
    note(Open.loc(), "to match this '('");
  }
  // Recover at the `)` so that the body is still parsed.
  skipToCloseParen(/*StopAtSemi=*/true);
  if (!is("{"))
    return nullptr;
  return std::make_unique<hir::BoolLitExpr>(Open.loc(), false);
}

bool TSParser::parseIf(hir::BlockStmt &Out) {
  DepthGuard G(*this);
  TSToken Kw = consume();
  hir::ExprPtr Cond = parseCondition("if");
  if (!Cond)
    return false;
  std::unique_ptr<hir::BlockStmt> Then = parseSubStatement();
  hir::StmtPtr Else;
  if (isIdent("else")) {
    consume();
    if (isIdent("if")) {
      hir::BlockStmt Tmp(tok().loc());
      bool Ok = parseIf(Tmp);
      if (!Tmp.Body.empty())
        Else = std::move(Tmp.Body.front());
      if (!Ok)
        skipStatement();
    } else {
      Else = parseSubStatement();
    }
  }
  Out.Body.push_back(std::make_unique<hir::IfStmt>(
      Kw.loc(), std::move(Cond), std::move(Then), std::move(Else)));
  return true;
}

bool TSParser::parseWhile(hir::BlockStmt &Out) {
  TSToken Kw = consume();
  hir::ExprPtr Cond = parseCondition("while");
  if (!Cond)
    return false;
  std::unique_ptr<hir::BlockStmt> Body = parseSubStatement();
  Out.Body.push_back(
      std::make_unique<hir::WhileStmt>(Kw.loc(), std::move(Cond), std::move(Body)));
  return true;
}

bool TSParser::parseDoWhile(hir::BlockStmt &Out) {
  TSToken Kw = consume();
  std::unique_ptr<hir::BlockStmt> Body = parseSubStatement();
  if (!isIdent("while")) {
    error(tok().loc(), "expected 'while' after the body of 'do', found " +
                           describe(tok()));
    note(Kw.loc(), "to match this 'do'");
    return false;
  }
  consume();
  hir::ExprPtr Cond = parseCondition("while");
  if (!Cond)
    return false;
  Out.Body.push_back(std::make_unique<hir::WhileStmt>(
      Kw.loc(), std::move(Cond), std::move(Body), /*DoWhile=*/true));
  // ECMAScript inserts the `;` after `do ... while (c)` even on one line.
  consumeIf(";");
  return true;
}

bool TSParser::parseFor(hir::BlockStmt &Out) {
  TSToken Kw = consume();
  if (isIdent("await")) {
    error(tok().loc(), "'for await' loops are not supported in WAVE kernels");
    consume();
  }
  TSToken Open = tok();
  if (!expect("(", "after 'for'"))
    return false;
  auto Recover = [&]() {
    skipToCloseParen(/*StopAtSemi=*/false);
    // Parse the body anyway for its errors.
    if (is("{"))
      parseSubStatement();
    return true;
  };
  bool IsDecl = isIdent("let") || isIdent("const") || isIdent("var");
  unsigned A = IsDecl ? 1 : 0;
  if (tok(A).is(TSTok::Ident) &&
      (isIdent("of", A + 1) || isIdent("in", A + 1))) {
    error(tok(A + 1).loc(), "'for..." + tok(A + 1).Text +
                                "' loops are not supported in WAVE kernels; "
                                "use 'for (let i = 0; i < n; i++)'");
    return Recover();
  }
  auto F = std::make_unique<hir::ForStmt>(Kw.loc());
  if (IsDecl) {
    hir::BlockStmt Tmp(tok().loc());
    if (!parseDeclaration(Tmp, /*InFor=*/true))
      return Recover();
    if (!Tmp.Body.empty())
      F->Init = std::move(Tmp.Body.front());
  } else if (!is(";")) {
    F->Init = parseSimpleStatement();
    if (!F->Init)
      return Recover();
  }
  if (!expect(";", "after the 'for' initializer"))
    return Recover();
  if (!is(";")) {
    F->Cond = parseExpr();
    if (!F->Cond)
      return Recover();
  }
  if (!expect(";", "after the 'for' condition"))
    return Recover();
  if (!is(")")) {
    F->Step = parseSimpleStatement();
    if (!F->Step)
      return Recover();
    if (is(",")) {
      error(tok().loc(), "the comma operator is not supported in WAVE "
                         "kernels; use one step statement");
      return Recover();
    }
  }
  if (!is(")")) {
    error(tok().loc(),
          "expected ')' to close the 'for' header, found " + describe(tok()));
    note(Open.loc(), "to match this '('");
    return Recover();
  }
  consume();
  F->Body = parseSubStatement();
  Out.Body.push_back(std::move(F));
  return true;
}

bool TSParser::atSharedCall() {
  if (isIdent("shared") && is("(", 1))
    return true;
  return tok().is(TSTok::Ident) &&
         (tok().Text == "wave" || tok().Text == WaveAlias) && is(".", 1) &&
         isIdent("shared", 2) && is("(", 3);
}

/// The element type names shared(...) accepts.
static std::optional<Scalar> sharedElemType(llvm::StringRef W) {
  if (W == "f32")
    return Scalar::F32;
  if (W == "u32")
    return Scalar::U32;
  if (W == "i32")
    return Scalar::I32;
  if (W == "f16")
    return Scalar::F16;
  if (W == "f64")
    return Scalar::F64;
  return std::nullopt;
}

hir::StmtPtr TSParser::parseSharedInit(llvm::SMLoc NameLoc,
                                       llvm::StringRef Name) {
  if (!isIdent("shared")) {
    consume(); // wave
    consume(); // .
  }
  consume(); // shared
  TSToken Open = consume();
  const TSToken &E = tok();
  std::optional<Scalar> Elem =
      E.is(TSTok::Ident) ? sharedElemType(E.Text) : std::nullopt;
  if (!Elem) {
    error(E.loc(), "expected an element type (f32, u32, i32, f16 or f64) as "
                   "the first argument of 'shared', found " +
                       describe(E));
    return nullptr;
  }
  consume();
  if (!expect(",", "after the element type of 'shared'"))
    return nullptr;
  hir::ExprPtr Size = parseExpr();
  if (!Size)
    return nullptr;
  if (!is(")")) {
    error(tok().loc(), "expected ')' to close the argument list of 'shared', "
                       "found " +
                           describe(tok()));
    note(Open.loc(), "to match this '('");
    return nullptr;
  }
  consume();
  return std::make_unique<hir::SharedDecl>(NameLoc, Name.str(), *Elem,
                                           std::move(Size));
}

/// Reserved words that cannot name a variable.
static bool isReservedName(llvm::StringRef W) {
  return llvm::is_contained(
      {"break", "case", "catch", "class", "const", "continue", "debugger",
       "default", "delete", "do", "else", "enum", "export", "extends", "false",
       "finally", "for", "function", "if", "import", "in", "instanceof", "new",
       "null", "return", "super", "switch", "this", "throw", "true", "try",
       "typeof", "var", "void", "while", "with", "let", "yield", "await"},
      W);
}

bool TSParser::parseDeclaration(hir::BlockStmt &Out, bool InFor) {
  TSToken Kw = consume();
  bool Mutable = Kw.Text != "const";
  while (true) {
    const TSToken &N = tok();
    if (N.is("[") || N.is("{")) {
      error(N.loc(), "destructuring is not supported in WAVE kernels");
      return false;
    }
    if (!N.is(TSTok::Ident) || isReservedName(N.Text)) {
      error(N.loc(), "expected a variable name after '" + Kw.Text +
                         "', found " + describe(N));
      return false;
    }
    TSToken Name = consume();
    if (is("!")) {
      error(tok().loc(), "definite assignment assertions ('!') are not "
                         "supported in WAVE kernels");
      consume();
    }
    std::optional<Type> Ty;
    llvm::SMLoc TyLoc;
    bool Annotated = false;
    if (consumeIf(":")) {
      Annotated = true;
      TyLoc = tok().loc();
      Ty = parseType("variable");
      if (!Ty)
        return false;
    }
    if (consumeIf("=")) {
      if (atSharedCall()) {
        if (Annotated)
          error(TyLoc, "shared array '" + Name.Text +
                           "' takes no type annotation");
        hir::StmtPtr S = parseSharedInit(Name.loc(), Name.Text);
        if (!S)
          return false;
        Out.Body.push_back(std::move(S));
      } else {
        hir::ExprPtr Init = parseExpr();
        if (!Init)
          return false;
        if (Ty && !Ty->isScalar() && !Ty->isStruct())
          error(TyLoc, "local variables must have a scalar type, found '" +
                           hir::typeName(*Ty) + "'");
        Out.Body.push_back(std::make_unique<hir::VarDecl>(
            Name.loc(), Name.Text.str(),
            Ty && Ty->isScalar() ? std::optional<Scalar>(Ty->Elem)
                                 : std::nullopt,
            std::move(Init), Mutable));
        if (Ty && Ty->isStruct())
          cast<hir::VarDecl>(*Out.Body.back()).DeclaredStruct = Ty->Decl;
      }
    } else {
      if (!Mutable)
        error(Name.loc(), "'const' declaration of '" + Name.Text +
                              "' must be initialized");
      if (Ty && Ty->isStruct())
        error(Name.loc(), "variable '" + Name.Text + "' of class '" +
                              Ty->Decl->Name +
                              "' must be initialized (= new " +
                              Ty->Decl->Name + "(...))");
      else if (Ty && !Ty->isScalar())
        error(TyLoc, "local variables must have a scalar type, found '" +
                         hir::typeName(*Ty) + "'");
      Out.Body.push_back(std::make_unique<hir::VarDecl>(
          Name.loc(), Name.Text.str(),
          Ty && Ty->isScalar() ? std::optional<Scalar>(Ty->Elem)
                               : std::nullopt,
          nullptr, Mutable));
    }
    if (!is(","))
      return true;
    if (InFor) {
      error(tok().loc(), "several declarations in a 'for' initializer are "
                         "not supported in WAVE kernels");
      return false;
    }
    consume();
  }
}

hir::StmtPtr TSParser::parseSimpleStatement() {
  TSToken First = tok();
  auto One = [](llvm::SMLoc L) {
    return std::make_unique<hir::IntLitExpr>(L, 1);
  };
  if (is("++") || is("--")) {
    TSToken Op = consume();
    hir::ExprPtr Target = parsePostfix();
    if (!Target)
      return nullptr;
    if (!isAssignable(*Target)) {
      error(Op.loc(), "the operand of '" + Op.Text +
                          "' must be a variable or an element");
      return nullptr;
    }
    ThisWritten |= isThisField(*Target);
    return std::make_unique<hir::AssignStmt>(
        Op.loc(), std::move(Target), One(Op.loc()),
        Op.Text == "++" ? hir::BinaryOp::Add : hir::BinaryOp::Sub);
  }
  hir::ExprPtr E;
  bool Unary = is("-") || is("+") || is("!") || is("~");
  E = Unary ? parseUnary() : parsePostfix(/*StopAtIncDec=*/true);
  if (!E)
    return nullptr;
  if (!Unary && (is("++") || is("--")) && !tok().NewlineBefore) {
    TSToken Op = consume();
    if (!isAssignable(*E)) {
      error(Op.loc(), "the operand of '" + Op.Text +
                          "' must be a variable or an element");
      return nullptr;
    }
    ThisWritten |= isThisField(*E);
    return std::make_unique<hir::AssignStmt>(
        Op.loc(), std::move(E), One(Op.loc()),
        Op.Text == "++" ? hir::BinaryOp::Add : hir::BinaryOp::Sub);
  }
  if (isAssignOp(tok())) {
    TSToken Op = consume();
    if (!isAssignable(*E))
      error(Op.loc(), "the left side of '" + Op.Text +
                          "' must be a variable or an element");
    std::optional<hir::BinaryOp> BOp = compoundOp(Op);
    if (Op.Text != "=" && !BOp)
      error(Op.loc(), "'" + Op.Text + "' is not supported in WAVE kernels");
    ThisWritten |= isThisField(*E);
    hir::ExprPtr V = parseExpr();
    if (!V)
      return nullptr;
    return std::make_unique<hir::AssignStmt>(Op.loc(), std::move(E),
                                             std::move(V), BOp);
  }
  E = parseConditional(std::move(E));
  if (!E)
    return nullptr;
  if (isAssignOp(tok())) {
    error(tok().loc(), "the left side of '" + tok().Text +
                           "' must be a variable or an element");
    return nullptr;
  }
  return std::make_unique<hir::ExprStmt>(First.loc(), std::move(E));
}
