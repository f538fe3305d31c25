//===- PythonStmt.cpp - Statements of the Python kernel dialect -----------===//
//
// Every statement form of the Python dialect (formats/kernel-languages.md,
// "Python"): suites, `if`/`elif`/`else`, `while`, `for ... in range(...)`,
// annotated declarations, `shared(T, N)` arrays, plain and augmented
// assignments, `return`, `break`, `continue`, `pass` and expression
// statements; unsupported statements get a located error.
//
// A suite is either an indented block (NEWLINE INDENT ... DEDENT) or
// simple statements on the header's line. After a syntax error the
// statement is skipped up to the end of its logical line and past the
// indented block it opens, which is the next line at the same or a lower
// indentation.
//
//===----------------------------------------------------------------------===//
#include "PythonParser.h"

using namespace wave;
using namespace wave::fe;
using llvm::dyn_cast;
using llvm::isa;
using llvm::SMLoc;
using llvm::StringRef;

std::unique_ptr<hir::BlockStmt> PythonParser::parseSuite(StringRef What,
                                                         bool AllowDocstring) {
  SMLoc Loc = tok().loc();
  if (!consumeIf(PyTok::Colon)) {
    error(tok().loc(), "expected ':' after the " + What + " header, found " +
                           describe(tok()));
    skipToLineEnd();
    return parseIndentedBlock(Loc, What, /*Quiet=*/true, AllowDocstring);
  }
  if (!is(PyTok::Newline) && !is(PyTok::Eof)) {
    auto B = std::make_unique<hir::BlockStmt>(Loc);
    if (AllowDocstring && atDocstring())
      skipDocstring();
    else
      parseSimpleStatements(B->Body);
    return B;
  }
  return parseIndentedBlock(Loc, What, /*Quiet=*/false, AllowDocstring);
}

std::unique_ptr<hir::BlockStmt>
PythonParser::parseIndentedBlock(SMLoc Loc, StringRef What, bool Quiet,
                                 bool AllowDocstring) {
  auto B = std::make_unique<hir::BlockStmt>(Loc);
  consumeIf(PyTok::Newline);
  if (!is(PyTok::Indent)) {
    if (!Quiet)
      error(tok().loc(), "expected an indented block after the " + What);
    return B;
  }
  DepthGuard G(*this);
  if (!G)
    return B;
  consume();
  parseBlockBody(B->Body, AllowDocstring);
  return B;
}

void PythonParser::parseBlockBody(std::vector<hir::StmtPtr> &Out,
                                  bool AllowDocstring) {
  if (AllowDocstring && atDocstring())
    skipDocstring();
  while (!is(PyTok::Dedent) && !is(PyTok::Eof)) {
    size_t Before = Pos;
    parseStatement(Out);
    if (Pos == Before)
      consume(); // Never loop without progress.
  }
  consumeIf(PyTok::Dedent);
}

void PythonParser::parseStatement(std::vector<hir::StmtPtr> &Out) {
  const PyToken &T = tok();
  if (T.is(PyTok::Newline)) {
    consume();
    return;
  }
  if (T.is(PyTok::Indent)) {
    error(T.loc(), "unexpected indent");
    DepthGuard G(*this);
    if (!G)
      return;
    consume();
    parseBlockBody(Out, /*AllowDocstring=*/false);
    return;
  }
  if (T.is(PyTok::At) || T.isIdent("def")) {
    error(T.loc(), "nested functions (closures) are not supported in WAVE "
                   "kernels");
    while (is(PyTok::At))
      skipStatement();
    if (isIdent("def"))
      skipStatement();
    return;
  }
  if (T.isIdent("if")) {
    if (hir::StmtPtr S = parseIf())
      Out.push_back(std::move(S));
    return;
  }
  if (T.isIdent("while")) {
    if (hir::StmtPtr S = parseWhile())
      Out.push_back(std::move(S));
    return;
  }
  if (T.isIdent("for")) {
    if (hir::StmtPtr S = parseFor())
      Out.push_back(std::move(S));
    return;
  }
  if (T.isIdent("elif") || T.isIdent("else")) {
    error(T.loc(), "'" + T.Text + "' without a matching 'if'");
    skipStatement();
    return;
  }
  if (rejectUnsupportedStatement()) {
    skipStatement();
    return;
  }
  parseSimpleStatements(Out);
}

void PythonParser::parseSimpleStatements(std::vector<hir::StmtPtr> &Out) {
  while (true) {
    if (!parseSimpleStatement(Out)) {
      skipStatement();
      return;
    }
    if (consumeIf(PyTok::Semi)) {
      if (is(PyTok::Newline) || is(PyTok::Eof)) {
        consumeIf(PyTok::Newline);
        return;
      }
      continue;
    }
    if (consumeIf(PyTok::Newline) || is(PyTok::Eof))
      return;
    if (is(PyTok::Unknown))
      error(tok().loc(), "unexpected character " + describe(tok()));
    else
      error(tok().loc(), "expected a newline or ';' after the statement, "
                         "found " +
                             describe(tok()));
    skipStatement();
    return;
  }
}

bool PythonParser::parseSimpleStatement(std::vector<hir::StmtPtr> &Out) {
  const PyToken &T = tok();
  if (T.isIdent("pass")) {
    consume();
    return true;
  }
  if (T.isIdent("break")) {
    Out.push_back(std::make_unique<hir::BreakStmt>(consume().loc()));
    return true;
  }
  if (T.isIdent("continue")) {
    Out.push_back(std::make_unique<hir::ContinueStmt>(consume().loc()));
    return true;
  }
  if (T.isIdent("return")) {
    SMLoc Loc = consume().loc();
    hir::ExprPtr V;
    if (!atStmtEnd()) {
      V = parseExpr();
      if (!V)
        return false;
      if (is(PyTok::Comma)) {
        error(tok().loc(), "returning a tuple is not supported in WAVE "
                           "kernels");
        return false;
      }
    }
    Out.push_back(std::make_unique<hir::ReturnStmt>(Loc, std::move(V)));
    return true;
  }
  if (T.isIdent("import") || T.isIdent("from")) {
    error(T.loc(),
          "'" + T.Text + "' is only allowed at the top level of a WAVE module");
    return false;
  }
  if (T.isIdent("if") || T.isIdent("while") || T.isIdent("for") ||
      T.isIdent("def") || T.isIdent("class") || T.isIdent("try") ||
      T.isIdent("with")) {
    error(T.loc(), "'" + T.Text + "' statement must start on its own line");
    return false;
  }
  if (T.isIdent("raise") || T.isIdent("global") || T.isIdent("nonlocal") ||
      T.isIdent("del") || T.isIdent("assert") || T.isIdent("yield")) {
    rejectUnsupportedStatement();
    return false;
  }
  if (isName() && is(PyTok::Colon, 1))
    return parseAnnotatedDecl(Out);
  if (isName() && is(PyTok::Equal, 1) &&
      ((isIdent("shared", 2) && is(PyTok::LParen, 3)) ||
       (isIdent("wave", 2) && is(PyTok::Dot, 3) && isIdent("shared", 4) &&
        is(PyTok::LParen, 5))))
    return parseSharedDecl(Out);
  return parseAssignOrExpr(Out);
}

/// `name: T` or `name: T = e`.
bool PythonParser::parseAnnotatedDecl(std::vector<hir::StmtPtr> &Out) {
  const PyToken &Name = consume();
  consume(); // ':'
  checkNotShapeParam(Name.Text, Name.loc());
  std::optional<PyTypeRef> T = parseType();
  if (!T)
    return false;
  std::optional<hir::Scalar> Declared;
  if (T->IsNone)
    error(T->Loc, "'None' is not a variable type");
  else if (T->IsBuffer)
    error(T->Loc, "local variables cannot be buffers; buffers are "
                  "parameters and shared arrays are declared with "
                  "'shared(T, N)'");
  else if (T->Valid)
    Declared = T->S;
  hir::ExprPtr Init;
  if (consumeIf(PyTok::Equal)) {
    Init = parseExpr();
    if (!Init)
      return false;
    if (is(PyTok::Equal)) {
      error(tok().loc(), "chained assignment ('a = b = c') is not supported "
                         "in WAVE kernels");
      return false;
    }
  }
  auto V = std::make_unique<hir::VarDecl>(Name.loc(), Name.Text.str(), Declared,
                                          std::move(Init));
  V->DeclaredStruct = T->Struct;
  Out.push_back(std::move(V));
  return true;
}

/// `name = shared(T, N)` or `name = wave.shared(T, N)`.
bool PythonParser::parseSharedDecl(std::vector<hir::StmtPtr> &Out) {
  const PyToken &Name = consume();
  consume(); // '='
  checkNotShapeParam(Name.Text, Name.loc());
  if (isIdent("wave")) {
    consume();
    consume();
  }
  const PyToken &Callee = consume();
  const PyToken &Open = consume();
  if (!is(PyTok::Ident)) {
    error(tok().loc(), "expected an element type as the first argument of "
                       "'shared', e.g. 'shared(f32, 256)', found " +
                           describe(tok()));
    return false;
  }
  std::optional<PyTypeRef> T = parseType();
  if (!T)
    return false;
  bool Ok = T->Valid && !T->IsBuffer;
  if (T->Struct)
    error(T->Loc, "shared arrays of dataclasses are not supported in WAVE "
                  "kernels");
  else if (T->Valid && T->IsBuffer)
    error(T->Loc, "the element type of 'shared' is a scalar type such as "
                  "'f32'");
  else if (T->Valid && T->S == hir::Scalar::Bool) {
    error(T->Loc, "shared arrays of 'bool' are not supported in WAVE "
                  "kernels");
    Ok = false;
  }
  if (!consumeIf(PyTok::Comma)) {
    error(tok().loc(), "'shared' takes an element type and a size, e.g. "
                       "'shared(f32, 256)'");
    note(Callee.loc(), "in this call");
    return false;
  }
  hir::ExprPtr Size = parseExpr();
  if (!Size)
    return false;
  if (is(PyTok::Comma) && !is(PyTok::RParen, 1)) {
    error(tok().loc(), "'shared' takes an element type and a size, e.g. "
                       "'shared(f32, 256)'");
    return false;
  }
  consumeIf(PyTok::Comma);
  if (!expectClose(PyTok::RParen, Open,
                   "expected ')' to close the argument list"))
    return false;
  if (Ok)
    Out.push_back(std::make_unique<hir::SharedDecl>(Name.loc(), Name.Text.str(),
                                                    T->S, std::move(Size)));
  return true;
}

namespace {
/// The operator of an augmented assignment token.
std::optional<hir::BinaryOp> augmentedOp(PyTok K) {
  switch (K) {
  case PyTok::PlusEq:
    return hir::BinaryOp::Add;
  case PyTok::MinusEq:
    return hir::BinaryOp::Sub;
  case PyTok::StarEq:
    return hir::BinaryOp::Mul;
  case PyTok::SlashEq:
    return hir::BinaryOp::Div;
  case PyTok::SlashSlashEq:
    return hir::BinaryOp::FloorDiv;
  case PyTok::PercentEq:
    return hir::BinaryOp::Rem;
  case PyTok::AmpEq:
    return hir::BinaryOp::BitAnd;
  case PyTok::PipeEq:
    return hir::BinaryOp::BitOr;
  case PyTok::CaretEq:
    return hir::BinaryOp::BitXor;
  case PyTok::LessLessEq:
    return hir::BinaryOp::Shl;
  case PyTok::GreaterGreaterEq:
    return hir::BinaryOp::Shr;
  default:
    return std::nullopt;
  }
}
} // namespace

/// `target = e`, `target op= e`, or an expression statement.
bool PythonParser::parseAssignOrExpr(std::vector<hir::StmtPtr> &Out) {
  SMLoc Start = tok().loc();
  hir::ExprPtr E = parseExpr();
  if (!E)
    return false;
  if (is(PyTok::Comma)) {
    bool Assign = false;
    for (unsigned I = 0; !is(PyTok::Newline, I) && !is(PyTok::Eof, I); ++I)
      Assign |= is(PyTok::Equal, I);
    error(tok().loc(), Assign ? "tuple assignment is not supported in WAVE "
                                "kernels"
                              : "tuples are not supported in WAVE kernels");
    return false;
  }
  if (is(PyTok::Colon)) {
    error(tok().loc(), "only a plain name can be declared with a type "
                       "annotation");
    return false;
  }
  const PyToken &OpTok = tok();
  std::optional<hir::BinaryOp> Op = augmentedOp(OpTok.K);
  if (OpTok.is(PyTok::StarStarEq) || OpTok.is(PyTok::AtEq)) {
    error(OpTok.loc(),
          pyTokSpelling(OpTok.K) + " is not supported in WAVE kernels");
    return false;
  }
  if (!OpTok.is(PyTok::Equal) && !Op) {
    Out.push_back(std::make_unique<hir::ExprStmt>(Start, std::move(E)));
    return true;
  }
  consume();
  if (const auto *N = dyn_cast<hir::NameExpr>(E.get()))
    checkNotShapeParam(N->Name, N->loc());
  else if (!isa<hir::IndexExpr, hir::MemberExpr>(E.get()))
    error(E->loc(), "cannot assign to this expression; the target must be a "
                    "name, 'buffer[index]' or 'value.field'");
  hir::ExprPtr V = parseExpr();
  if (!V)
    return false;
  if (is(PyTok::Equal)) {
    error(tok().loc(), "chained assignment ('a = b = c') is not supported in "
                       "WAVE kernels");
    return false;
  }
  if (is(PyTok::Comma)) {
    error(tok().loc(), "tuples are not supported in WAVE kernels");
    return false;
  }
  Out.push_back(std::make_unique<hir::AssignStmt>(OpTok.loc(), std::move(E),
                                                  std::move(V), Op));
  return true;
}

hir::StmtPtr PythonParser::parseIf() {
  std::unique_ptr<hir::IfStmt> Root;
  hir::IfStmt *Last = nullptr;
  bool Bad = false;
  // `if` and every `elif`: one IfStmt each, chained through Else.
  do {
    const PyToken &Kw = consume();
    hir::ExprPtr Cond = parseExpr();
    std::unique_ptr<hir::BlockStmt> Then;
    if (!Cond) {
      Bad = true;
      skipToLineEnd();
      Then = parseIndentedBlock(Kw.loc(), "'if' statement", /*Quiet=*/true);
    } else {
      Then = parseSuite("'" + Kw.Text.str() + "' statement");
    }
    if (Bad)
      continue;
    auto S = std::make_unique<hir::IfStmt>(Kw.loc(), std::move(Cond),
                                           std::move(Then), nullptr);
    hir::IfStmt *P = S.get();
    if (Last)
      Last->Else = std::move(S);
    else
      Root = std::move(S);
    Last = P;
  } while (isIdent("elif"));
  if (isIdent("else")) {
    consume();
    std::unique_ptr<hir::BlockStmt> Else = parseSuite("'else' clause");
    if (!Bad)
      Last->Else = std::move(Else);
  }
  if (Bad)
    return nullptr;
  return Root;
}

void PythonParser::rejectLoopElse(StringRef Loop) {
  if (!isIdent("else"))
    return;
  error(tok().loc(),
        "'else' after a '" + Loop + "' loop is not supported in WAVE kernels");
  consume();
  parseSuite("'else' clause");
}

hir::StmtPtr PythonParser::parseWhile() {
  const PyToken &Kw = consume();
  hir::ExprPtr Cond = parseExpr();
  std::unique_ptr<hir::BlockStmt> Body;
  if (!Cond) {
    skipToLineEnd();
    parseIndentedBlock(Kw.loc(), "'while' statement", /*Quiet=*/true);
    rejectLoopElse("while");
    return nullptr;
  }
  Body = parseSuite("'while' statement");
  rejectLoopElse("while");
  return std::make_unique<hir::WhileStmt>(Kw.loc(), std::move(Cond),
                                          std::move(Body));
}

hir::StmtPtr PythonParser::parseFor() {
  const PyToken &Kw = consume();
  bool Synced = false; // At the header's ':' with no error so far.
  bool Bad = true;
  std::unique_ptr<hir::ForRangeStmt> F;
  if (!isName()) {
    error(tok().loc(), "expected a loop variable name after 'for', found " +
                           describe(tok()));
  } else if (is(PyTok::Comma, 1)) {
    error(tok(1).loc(), "tuple targets are not supported in WAVE kernels");
  } else if (!isIdent("in", 1)) {
    error(tok(1).loc(),
          "expected 'in' after the loop variable, found " + describe(tok(1)));
  } else {
    const PyToken &Var = consume();
    consume(); // 'in'
    checkNotShapeParam(Var.Text, Var.loc());
    SMLoc IterLoc = tok().loc();
    hir::ExprPtr Iter = parseExpr();
    if (Iter) {
      Synced = true;
      auto *Call = dyn_cast<hir::CallExpr>(Iter.get());
      if (!Call || Call->Callee != "range") {
        error(IterLoc, "'for' loops can only iterate over 'range(...)' in "
                       "WAVE kernels");
      } else if (Call->Args.empty() || Call->Args.size() > 3) {
        error(Call->loc(), "'range' takes 1 to 3 arguments, found " +
                               llvm::Twine(Call->Args.size()));
      } else {
        Bad = false;
        F = std::make_unique<hir::ForRangeStmt>(Kw.loc(), Var.Text.str(),
                                                Var.loc());
        auto &A = Call->Args;
        if (A.size() == 1) {
          F->End = std::move(A[0]);
        } else {
          F->Start = std::move(A[0]);
          F->End = std::move(A[1]);
          if (A.size() == 3)
            F->Step = std::move(A[2]);
        }
      }
    }
  }
  std::unique_ptr<hir::BlockStmt> Body;
  if (Synced) {
    Body = parseSuite("'for' statement");
  } else {
    skipToLineEnd();
    parseIndentedBlock(Kw.loc(), "'for' statement", /*Quiet=*/true);
  }
  rejectLoopElse("for");
  if (Bad)
    return nullptr;
  F->Body = std::move(Body);
  return F;
}
