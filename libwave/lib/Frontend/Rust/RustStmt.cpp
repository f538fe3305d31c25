//===- RustStmt.cpp - Parser of the Rust kernel dialect: statements -------===//
//
// Blocks and statements of the Rust dialect: `let` (and `let x =
// shared(T, N)`), assignments and compound assignments, expression
// statements, `if` / `else if` / `else`, `while`, `loop`, `for i in a..b`
// (`..=`, `(a..b).step_by(s)`), `break`, `continue`, `return` and nested
// blocks. A block is parsed into a RustBlock first, because what its tail
// (a last expression without `;`, or a trailing `if`) means depends on the
// context: a function's result, the value of an if-expression branch, or
// (in a statement body) a call statement.
//
//===----------------------------------------------------------------------===//
#include "RustParser.h"

#include "llvm/ADT/StringSwitch.h"

using namespace wave;
using namespace wave::fe;
using llvm::SMLoc;

bool RustParser::assignOp(const RustToken &T,
                          std::optional<hir::BinaryOp> &Op) {
  if (!T.is(RustTok::Punct))
    return false;
  Op = llvm::StringSwitch<std::optional<hir::BinaryOp>>(T.Text)
           .Case("+=", hir::BinaryOp::Add)
           .Case("-=", hir::BinaryOp::Sub)
           .Case("*=", hir::BinaryOp::Mul)
           .Case("/=", hir::BinaryOp::Div)
           .Case("%=", hir::BinaryOp::Rem)
           .Case("&=", hir::BinaryOp::BitAnd)
           .Case("|=", hir::BinaryOp::BitOr)
           .Case("^=", hir::BinaryOp::BitXor)
           .Case("<<=", hir::BinaryOp::Shl)
           .Case(">>=", hir::BinaryOp::Shr)
           .Default(std::nullopt);
  return Op || T.Text == "=";
}

RustBlock RustParser::parseBlock() {
  RustBlock B;
  SMLoc LBrace = tok().loc();
  B.Block = std::make_unique<hir::BlockStmt>(LBrace);
  if (!isPunct("{")) {
    error(LBrace, "expected '{', found " + describe(tok()));
    return B;
  }
  if (!enterNesting())
    return B;
  consume();
  // A block is a scope of its own: the statements its expressions need
  // stay inside it, and its names end with it.
  std::vector<hir::StmtPtr> SavedPre = std::move(Pre);
  Pre.clear();
  bool SavedNoStruct = NoStructLiteral;
  NoStructLiteral = false;
  size_t NamesMark = Names.size();
  while (!atEof() && !isPunct("}")) {
    size_t Before = Pos;
    parseStmt(B);
    if (Pos == Before)
      consume();
    if ((B.Tail || B.TailIf || B.TailMatch) && !isPunct("}")) {
      // Cannot happen: a tail is only taken before '}'.
      B.Tail.reset();
      B.TailIf.reset();
      B.TailMatch.reset();
    }
  }
  Names.resize(NamesMark);
  NoStructLiteral = SavedNoStruct;
  Pre = std::move(SavedPre);
  if (!consumePunct("}")) {
    error(tok().loc(), "expected '}' to close the block, found " +
                           describe(tok()));
    note(LBrace, "to match this '{'");
  }
  leaveNesting();
  return B;
}

std::unique_ptr<hir::BlockStmt> RustParser::parseStmtBlock() {
  if (!isPunct("{")) {
    error(tok().loc(), "expected '{', found " + describe(tok()));
    return nullptr;
  }
  return finishStmtBlock(parseBlock());
}

std::unique_ptr<hir::BlockStmt> RustParser::finishStmtBlock(RustBlock B) {
  return finishBlock(std::move(B), ValueSink{});
}

std::unique_ptr<hir::BlockStmt> RustParser::finishBlock(RustBlock B,
                                                        const ValueSink &S) {
  auto &Body = B.Block->Body;
  if (B.Tail) {
    SMLoc L = B.Tail->loc();
    switch (S.K) {
    case ValueSink::Discard:
      if (llvm::isa<hir::CallExpr>(*B.Tail))
        Body.push_back(std::make_unique<hir::ExprStmt>(L, std::move(B.Tail)));
      else
        error(L, "expected ';' after the expression (only a function body, "
                 "an if-expression branch or a match arm can end in a "
                 "value)");
      break;
    case ValueSink::Assign:
      Body.push_back(std::make_unique<hir::AssignStmt>(
          L, std::make_unique<hir::NameExpr>(L, S.Target), std::move(B.Tail)));
      break;
    case ValueSink::Return:
      Body.push_back(std::make_unique<hir::ReturnStmt>(L, std::move(B.Tail)));
      break;
    }
  } else if (B.TailIf) {
    Body.push_back(ifToStmt(std::move(B.TailIf), S));
  } else if (B.TailMatch) {
    Body.push_back(matchToStmt(std::move(B.TailMatch), S));
  } else if (S.K == ValueSink::Assign) {
    // Without a value, the block must leave: `return`, `break`, `continue`.
    bool Diverges = !Body.empty() && (llvm::isa<hir::ReturnStmt>(*Body.back()) ||
                                      llvm::isa<hir::BreakStmt>(*Body.back()) ||
                                      llvm::isa<hir::ContinueStmt>(*Body.back()));
    if (!Diverges)
      error(B.Block->loc(), "this branch has no value: it must end in an "
                            "expression without ';' (or in 'return', "
                            "'break' or 'continue')");
  }
  return std::move(B.Block);
}

std::vector<hir::StmtPtr> RustParser::takePre(size_t Mark, bool KeepPure) {
  auto IsPureCopy = [](const hir::Stmt &S) {
    const auto *V = llvm::dyn_cast<hir::VarDecl>(&S);
    if (!V || !V->Init)
      return false;
    const hir::Expr *E = V->Init.get();
    if (const auto *U = llvm::dyn_cast<hir::UnaryExpr>(E))
      E = U->Op == hir::UnaryOp::Neg ? U->Operand.get() : E;
    return llvm::isa<hir::NameExpr>(E) || llvm::isa<hir::IntLitExpr>(E) ||
           llvm::isa<hir::FloatLitExpr>(E) || llvm::isa<hir::BoolLitExpr>(E);
  };
  size_t I = std::min(Mark, Pre.size());
  if (KeepPure)
    while (I < Pre.size() && IsPureCopy(*Pre[I]))
      ++I;
  std::vector<hir::StmtPtr> Out(std::make_move_iterator(Pre.begin() + I),
                                std::make_move_iterator(Pre.end()));
  Pre.resize(I);
  return Out;
}

std::string RustParser::hiddenName(llvm::StringRef Prefix) {
  unsigned N = NextHidden++;
  return N == 0 ? Prefix.str() : (Prefix + llvm::Twine(N)).str();
}

std::string RustParser::declareHidden(llvm::StringRef Prefix,
                                      hir::ExprPtr Init, SMLoc Loc) {
  std::string N = hiddenName(Prefix);
  bool Mutable = !Init;
  Pre.push_back(std::make_unique<hir::VarDecl>(Loc, N, std::nullopt,
                                               std::move(Init), Mutable));
  return N;
}

bool RustParser::endStmt(const llvm::Twine &What) {
  if (consumePunct(";") || isPunct("}"))
    return true;
  std::optional<hir::BinaryOp> Op;
  if (assignOp(tok(), Op))
    error(tok().loc(), "assignment cannot be used as an expression");
  else
    error(tok().loc(), "expected ';' " + What + ", found " + describe(tok()));
  return false;
}

bool RustParser::checkNoAssign() {
  std::optional<hir::BinaryOp> Op;
  if (!assignOp(tok(), Op))
    return true;
  error(tok().loc(), "assignment cannot be used as a condition; use '==' to "
                     "compare");
  return false;
}

void RustParser::parseStmt(RustBlock &B) {
  size_t At = B.Block->Body.size();
  parseStmtInner(B);
  // What the statement's expressions need runs before it (before the tail,
  // for a tail expression).
  if (!Pre.empty()) {
    auto &Body = B.Block->Body;
    At = std::min(At, Body.size());
    Body.insert(Body.begin() + At, std::make_move_iterator(Pre.begin()),
                std::make_move_iterator(Pre.end()));
    Pre.clear();
  }
}

void RustParser::parseStmtInner(RustBlock &B) {
  size_t Start = Pos;
  const RustToken T = tok();
  auto Push = [&](hir::StmtPtr S) {
    if (S) {
      B.Block->Body.push_back(std::move(S));
      return;
    }
    Pos = Start;
    skipStatement();
  };
  if (T.isPunct(";")) {
    consume();
    return;
  }
  if (T.isPunct("#")) {
    // An attribute on a statement (#[allow(...)]): skipped.
    consume();
    consumePunct("!");
    if (isPunct("["))
      skipBalanced();
    return;
  }
  if (T.is(RustTok::Lifetime)) {
    error(T.loc(), "loop labels are not supported in WAVE kernels");
    consume();
    consumePunct(":");
    return;
  }
  if (T.isPunct("{")) {
    Push(parseStmtBlock());
    return;
  }
  if (!T.is(RustTok::Ident)) {
    parseExprStmt(B);
    return;
  }
  llvm::StringRef W = T.Text;
  if (W == "let")
    return Push(parseLet());
  if (W == "if") {
    std::unique_ptr<RustIf> If = parseIf();
    if (!If)
      return Push(nullptr);
    if (isPunct("}")) {
      B.TailIf = std::move(If);
      return;
    }
    Push(ifToStmt(std::move(If), ValueSink{}));
    if (isPunct(".") || isIdent("as")) {
      error(tok().loc(), "an 'if' statement cannot be used as a value here; "
                         "use 'let' or parentheses");
      skipStatement();
    }
    return;
  }
  if (W == "match") {
    std::unique_ptr<RustMatch> M = parseMatch();
    if (!M)
      return Push(nullptr);
    if (isPunct("}")) {
      B.TailMatch = std::move(M);
      return;
    }
    Push(matchToStmt(std::move(M), ValueSink{}));
    if (isPunct(".") || isIdent("as")) {
      error(tok().loc(), "a 'match' statement cannot be used as a value "
                         "here; use 'let' or parentheses");
      skipStatement();
      return;
    }
    consumePunct(";");
    return;
  }
  if (W == "const" && !isIdent("fn", 1)) {
    parseConstItem(/*Local=*/true);
    return;
  }
  if (W == "while" || W == "loop")
    return Push(parseWhile());
  if (W == "for")
    return Push(parseFor());
  if (W == "break" || W == "continue") {
    consume();
    if (tok().is(RustTok::Lifetime)) {
      error(tok().loc(), "loop labels are not supported in WAVE kernels");
      consume();
    }
    if (!isPunct(";") && !isPunct("}")) {
      if (W == "break")
        error(tok().loc(), "'break' with a value is not supported in WAVE "
                           "kernels");
      else
        error(tok().loc(), "expected ';' after 'continue', found " +
                               describe(tok()));
      return Push(nullptr);
    }
    consumePunct(";");
    if (W == "break")
      B.Block->Body.push_back(std::make_unique<hir::BreakStmt>(T.loc()));
    else
      B.Block->Body.push_back(std::make_unique<hir::ContinueStmt>(T.loc()));
    return;
  }
  if (W == "return") {
    consume();
    hir::ExprPtr Value;
    if (!isPunct(";") && !isPunct("}")) {
      Value = parseExpr();
      if (!Value)
        return Push(nullptr);
    }
    if (!endStmt("after 'return'"))
      return Push(nullptr);
    B.Block->Body.push_back(
        std::make_unique<hir::ReturnStmt>(T.loc(), std::move(Value)));
    return;
  }
  bool IsItem = llvm::StringSwitch<bool>(W)
                    .Cases({"fn", "struct", "enum", "union", "impl", "trait",
                            "mod", "use", "const", "static", "type"},
                           true)
                    .Case("extern", true)
                    .Default(false);
  if (IsItem) {
    error(T.loc(), "'" + W + "' items inside functions are not supported in "
                   "WAVE kernels");
    return Push(nullptr);
  }
  if (W == "unsafe") {
    error(T.loc(), "'unsafe' blocks are not supported in WAVE kernels");
    return Push(nullptr);
  }
  if (W == "macro_rules" && isPunct("!", 1)) {
    error(T.loc(), "macros ('macro_rules!') are not supported in WAVE "
                   "kernels");
    return Push(nullptr);
  }
  parseExprStmt(B);
}

void RustParser::parseExprStmt(RustBlock &B) {
  size_t Start = Pos;
  hir::ExprPtr E = parseExpr();
  if (!E) {
    Pos = Start;
    skipStatement();
    return;
  }
  std::optional<hir::BinaryOp> Op;
  if (assignOp(tok(), Op)) {
    RustToken OpTok = consume();
    if (!llvm::isa<hir::NameExpr>(*E) && !llvm::isa<hir::IndexExpr>(*E) &&
        !llvm::isa<hir::MemberExpr>(*E))
      error(E->loc(), "invalid left-hand side of assignment: expected a "
                      "variable, a field 'v.x' or an element 'a[i]'");
    hir::ExprPtr Value = parseExpr();
    if (!Value || !endStmt("after the assignment")) {
      Pos = Start;
      skipStatement();
      return;
    }
    B.Block->Body.push_back(std::make_unique<hir::AssignStmt>(
        OpTok.loc(), std::move(E), std::move(Value), Op));
    return;
  }
  if (isPunct("}")) {
    B.Tail = std::move(E);
    return;
  }
  if (!endStmt("after the expression")) {
    skipStatement();
    return;
  }
  SMLoc L = E->loc();
  B.Block->Body.push_back(std::make_unique<hir::ExprStmt>(L, std::move(E)));
}

hir::StmtPtr RustParser::parseLet() {
  consume(); // 'let'
  bool Mutable = false;
  if (isIdent("mut")) {
    consume();
    Mutable = true;
  }
  RustToken Name;
  if (isPunct("(") && !Mutable)
    return parseLetTuple();
  if (isIdent("_") || isIdent("ref") || isPunct("(") || isPunct("[") ||
      (tok().is(RustTok::Ident) && isPunct("{", 1))) {
    error(tok().loc(), "'let' patterns are not supported in WAVE kernels; "
                       "declare a single name");
    return nullptr;
  }
  if (!expectName(Name, "a variable name after 'let'"))
    return nullptr;
  std::optional<hir::Scalar> Ty;
  const hir::StructDecl *StructTy = nullptr;
  SMLoc TyLoc;
  if (consumePunct(":")) {
    TyLoc = tok().loc();
    std::optional<hir::Type> T = parseType("after ':'");
    if (!T)
      return nullptr;
    if (T->isStruct())
      StructTy = T->Decl;
    else
      Ty = T->Elem;
  }
  hir::ExprPtr Init;
  if (consumePunct("=")) {
    if ((isIdent("shared") && isPunct("(", 1)) ||
        (isIdent("wave") && isPunct("::", 1) && isIdent("shared", 2) &&
         isPunct("(", 3))) {
      if (Ty || StructTy) {
        error(TyLoc, "a shared array declaration takes no type annotation");
        return nullptr;
      }
      return parseShared(Name);
    }
    Init = parseExpr();
    if (!Init)
      return nullptr;
    if (isIdent("else")) {
      error(tok().loc(), "'let ... else' is not supported in WAVE kernels");
      return nullptr;
    }
  }
  if (!endStmt("after the 'let' statement"))
    return nullptr;
  declareLocal(Name.Text);
  auto V = std::make_unique<hir::VarDecl>(Name.loc(), Name.Text.str(), Ty,
                                          std::move(Init), Mutable);
  V->DeclaredStruct = StructTy;
  return V;
}

hir::StmtPtr RustParser::parseShared(const RustToken &Name) {
  if (isIdent("wave"))
    Pos += 2;
  consume(); // 'shared'
  SMLoc LParen = consume().loc();
  std::optional<hir::Scalar> Elem =
      parseScalarType("as the element type of 'shared'");
  if (!Elem)
    return nullptr;
  if (!expectPunct(",", "after the element type of 'shared'"))
    return nullptr;
  hir::ExprPtr Size = parseExpr();
  if (!Size)
    return nullptr;
  consumePunct(",");
  if (!consumePunct(")")) {
    error(tok().loc(), "expected ')' to close the argument list, found " +
                           describe(tok()));
    note(LParen, "to match this '('");
    return nullptr;
  }
  if (!endStmt("after the 'let' statement"))
    return nullptr;
  declareLocal(Name.Text);
  return std::make_unique<hir::SharedDecl>(Name.loc(), Name.Text.str(), *Elem,
                                           std::move(Size));
}

hir::StmtPtr RustParser::parseWhile() {
  RustToken KW = consume();
  hir::ExprPtr Cond;
  if (KW.Text == "loop") {
    Cond = std::make_unique<hir::BoolLitExpr>(KW.loc(), true);
  } else {
    if (isIdent("let"))
      return parseWhileLet(KW.loc());
    size_t Mark = Pre.size();
    bool Saved = NoStructLiteral;
    NoStructLiteral = true;
    Cond = parseExpr();
    NoStructLiteral = Saved;
    if (!Cond || !checkNoAssign())
      return nullptr;
    std::vector<hir::StmtPtr> CondPre = takePre(Mark, /*KeepPure=*/false);
    if (!CondPre.empty()) {
      // The condition needs statements, run before every test:
      // loop { pre; if c { body } else { break; } }
      std::unique_ptr<hir::BlockStmt> Body = parseStmtBlock();
      if (!Body)
        return nullptr;
      auto Loop = std::make_unique<hir::BlockStmt>(Body->loc());
      for (hir::StmtPtr &S : CondPre)
        Loop->Body.push_back(std::move(S));
      auto Else = std::make_unique<hir::BlockStmt>(KW.loc());
      Else->Body.push_back(std::make_unique<hir::BreakStmt>(KW.loc()));
      Loop->Body.push_back(std::make_unique<hir::IfStmt>(
          KW.loc(), std::move(Cond), std::move(Body), std::move(Else)));
      return std::make_unique<hir::WhileStmt>(
          KW.loc(), std::make_unique<hir::BoolLitExpr>(KW.loc(), true),
          std::move(Loop));
    }
  }
  std::unique_ptr<hir::BlockStmt> Body = parseStmtBlock();
  if (!Body)
    return nullptr;
  return std::make_unique<hir::WhileStmt>(KW.loc(), std::move(Cond),
                                          std::move(Body));
}

hir::StmtPtr RustParser::parseFor() {
  SMLoc ForLoc = consume().loc();
  RustToken Var;
  if (isIdent("_")) {
    Var = consume(); // `for _ in ..`: a variable nobody can name.
  } else if (isPunct("(") || isPunct("[") || isIdent("mut") ||
             isIdent("ref")) {
    error(tok().loc(), "'for' patterns are not supported in WAVE kernels; "
                       "use a single name");
    return nullptr;
  } else if (!expectName(Var, "a loop variable after 'for'")) {
    return nullptr;
  }
  if (!isIdent("in")) {
    error(tok().loc(), "expected 'in' after the loop variable, found " +
                           describe(tok()));
    return nullptr;
  }
  consume();
  auto F = std::make_unique<hir::ForRangeStmt>(ForLoc, Var.Text.str(),
                                               Var.loc());
  bool Saved = NoStructLiteral;
  NoStructLiteral = true;
  bool Ok = parseForRange(*F);
  NoStructLiteral = Saved;
  if (!Ok)
    return nullptr;
  size_t NamesMark = Names.size();
  declareLocal(Var.Text);
  F->Body = parseStmtBlock();
  Names.resize(NamesMark);
  if (!F->Body)
    return nullptr;
  return F;
}

bool RustParser::parseForRange(hir::ForRangeStmt &F) {
  auto ParseBounds = [&]() {
    SMLoc StartLoc = tok().loc();
    bool Saved = RangeAllowed;
    RangeAllowed = true;
    F.Start = parseExpr();
    RangeAllowed = Saved;
    if (!F.Start)
      return false;
    if (isPunct("..=")) {
      F.Inclusive = true;
    } else if (!isPunct("..")) {
      error(StartLoc, "only ranges ('a..b', 'a..=b', '(a..b).step_by(s)') "
                      "can be iterated in WAVE kernels");
      return false;
    }
    consume();
    F.End = parseExpr();
    return F.End != nullptr;
  };
  // `(a..b).step_by(s)`: a '(' whose group holds a top-level range.
  bool Parenthesized = false;
  if (isPunct("(")) {
    unsigned Level = 0;
    for (size_t I = Pos; I < Toks.size(); ++I) {
      const RustToken &T = Toks[I];
      if (T.isPunct("(") || T.isPunct("[") || T.isPunct("{"))
        ++Level;
      else if (T.isPunct(")") || T.isPunct("]") || T.isPunct("}")) {
        if (--Level == 0)
          break;
      } else if (Level == 1 && (T.isPunct("..") || T.isPunct("..="))) {
        Parenthesized = true;
        break;
      } else if (T.is(RustTok::Eof)) {
        break;
      }
    }
  }
  if (!Parenthesized)
    return ParseBounds();
  SMLoc LParen = consume().loc();
  if (!ParseBounds())
    return false;
  if (!consumePunct(")")) {
    error(tok().loc(), "expected ')' to close the range, found " +
                           describe(tok()));
    note(LParen, "to match this '('");
    return false;
  }
  if (!isPunct("."))
    return true;
  consume();
  if (!isIdent("step_by")) {
    error(tok().loc(), "only '.step_by(s)' can follow a range in WAVE kernels "
                       "(found " +
                           describe(tok()) + ")");
    return false;
  }
  consume();
  std::vector<hir::ExprPtr> Args;
  if (!isPunct("(")) {
    error(tok().loc(), "expected '(' after 'step_by', found " +
                           describe(tok()));
    return false;
  }
  SMLoc ArgsLoc = tok().loc();
  if (!parseArgs(Args))
    return false;
  if (Args.size() != 1) {
    error(ArgsLoc, "'step_by' takes 1 argument");
    return false;
  }
  F.Step = std::move(Args[0]);
  if (isPunct(".")) {
    error(tok().loc(), "only '.step_by(s)' can follow a range in WAVE "
                       "kernels");
    return false;
  }
  return true;
}

std::unique_ptr<RustIf> RustParser::parseIf() {
  if (!enterNesting())
    return nullptr;
  NestingScope L{*this};
  auto If = std::make_unique<RustIf>();
  If->Loc = consume().loc();
  size_t NamesMark = Names.size();
  std::vector<hir::StmtPtr> RealDecls;
  if (isIdent("let")) {
    if (!parseIfLet(*If, RealDecls)) {
      Names.resize(NamesMark);
      return nullptr;
    }
  } else {
    size_t Mark = Pre.size();
    bool Saved = NoStructLiteral;
    NoStructLiteral = true;
    If->Cond = parseExpr();
    NoStructLiteral = Saved;
    If->CondPre = takePre(Mark);
    if (!If->Cond || !checkNoAssign())
      return nullptr;
  }
  if (!isPunct("{")) {
    error(tok().loc(), "expected '{' after the 'if' condition, found " +
                           describe(tok()));
    Names.resize(NamesMark);
    return nullptr;
  }
  If->Then = parseBlock();
  Names.resize(NamesMark); // `if let` bindings end with the then-block.
  auto &ThenBody = If->Then.Block->Body;
  ThenBody.insert(ThenBody.begin(), std::make_move_iterator(RealDecls.begin()),
                  std::make_move_iterator(RealDecls.end()));
  if (!isIdent("else"))
    return If;
  consume();
  if (isIdent("if")) {
    If->ElseIf = parseIf();
    if (!If->ElseIf)
      return nullptr;
  } else if (isPunct("{")) {
    If->Else = parseBlock();
  } else {
    error(tok().loc(), "expected '{' or 'if' after 'else', found " +
                           describe(tok()));
    return nullptr;
  }
  return If;
}

hir::StmtPtr RustParser::ifToStmt(std::unique_ptr<RustIf> If,
                                  const ValueSink &S) {
  std::unique_ptr<hir::BlockStmt> Then = finishBlock(std::move(If->Then), S);
  hir::StmtPtr Else;
  if (If->ElseIf)
    Else = ifToStmt(std::move(If->ElseIf), S);
  else if (If->Else)
    Else = finishBlock(std::move(*If->Else), S);
  else if (S.K == ValueSink::Assign)
    error(If->Loc, "an if-expression must have an 'else' branch");
  hir::StmtPtr Stmt = std::make_unique<hir::IfStmt>(
      If->Loc, std::move(If->Cond), std::move(Then), std::move(Else));
  if (If->CondPre.empty())
    return Stmt;
  // What the condition needs runs right before it (in the else-block of
  // an `else if`).
  auto Block = std::make_unique<hir::BlockStmt>(If->Loc);
  for (hir::StmtPtr &P : If->CondPre)
    Block->Body.push_back(std::move(P));
  Block->Body.push_back(std::move(Stmt));
  return Block;
}

bool RustParser::blockNeedsStmts(const RustBlock &B) const {
  if (!B.Block || !B.Block->Body.empty())
    return true;
  if (B.TailIf)
    return ifNeedsStmts(*B.TailIf);
  if (B.TailMatch)
    return matchNeedsStmts(*B.TailMatch);
  return !B.Tail; // No value: must diverge, which takes statements.
}

bool RustParser::ifNeedsStmts(const RustIf &If) const {
  if (!If.CondPre.empty() || blockNeedsStmts(If.Then))
    return true;
  if (If.ElseIf)
    return ifNeedsStmts(*If.ElseIf);
  return If.Else && blockNeedsStmts(*If.Else);
}

hir::ExprPtr RustParser::ifToExpr(std::unique_ptr<RustIf> If) {
  if (!If->ElseIf && !If->Else) {
    error(If->Loc, "an if-expression must have an 'else' branch");
    return nullptr;
  }
  if (ifNeedsStmts(*If)) {
    // let if.v; if c { ...; if.v = a; } else { ...; if.v = b; }
    SMLoc Loc = If->Loc;
    std::string N = declareHidden("if.v", nullptr, Loc);
    hir::StmtPtr S = ifToStmt(std::move(If), ValueSink{ValueSink::Assign, N});
    Pre.push_back(std::move(S));
    return std::make_unique<hir::NameExpr>(Loc, N);
  }
  hir::ExprPtr Then = blockToExpr(std::move(If->Then), If->Loc);
  hir::ExprPtr Else = If->ElseIf ? ifToExpr(std::move(If->ElseIf))
                                 : blockToExpr(std::move(*If->Else), If->Loc);
  if (!Then || !Else)
    return nullptr;
  return std::make_unique<hir::ConditionalExpr>(
      If->Loc, std::move(If->Cond), std::move(Then), std::move(Else));
}

hir::ExprPtr RustParser::blockToExpr(RustBlock B, SMLoc IfLoc) {
  if (!B.Block->Body.empty()) {
    error(B.Block->loc(),
          "if-expressions whose blocks contain statements are not supported");
    return nullptr;
  }
  if (B.Tail)
    return std::move(B.Tail);
  if (B.TailIf)
    return ifToExpr(std::move(B.TailIf));
  if (B.TailMatch)
    return matchToExpr(std::move(B.TailMatch));
  error(B.Block->loc(), "this branch of the if-expression has no value");
  return nullptr;
}
