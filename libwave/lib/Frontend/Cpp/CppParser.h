//===- CppParser.h - Parser of the C++ kernel dialect -----------*- C++ -*-===//
//
// Private to the C++ frontend. CppParser is a recursive-descent parser over
// CppLexer tokens that builds unchecked HIR (formats/kernel-languages.md,
// "C++"). Its members are split over three files: CppParser.cpp (tokens,
// top-level declarations, functions, attributes, types), CppStmt.cpp
// (statements) and CppExpr.cpp (expressions, by precedence climbing).
//
// Error recovery: a parse function that reports a syntax error returns
// null; the statement (or top-level declaration) that called it skips to
// the next statement boundary and goes on, so that one run reports every
// error of a file. Constructs that parse but are outside the dialect
// (a `long`, a `u` suffix misuse) are reported without skipping.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_LIB_FRONTEND_CPP_CPPPARSER_H
#define WAVE_LIB_FRONTEND_CPP_CPPPARSER_H

#include "CppLexer.h"

#include "wave/HIR/Diagnostics.h"
#include "wave/HIR/HIR.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/SourceMgr.h"

#include <memory>
#include <optional>
#include <vector>

namespace wave::fe {

/// The type words of a declaration, parameter, return type or cast.
struct CppTypeSpec {
  llvm::SMLoc Loc;     ///< The first word.
  bool Valid = false;  ///< A type was written (possibly with errors).
  bool IsVoid = false; ///< `void`.
  bool IsAuto = false; ///< `auto`.
  bool Const = false;  ///< `const` anywhere among the words.
  hir::Scalar S = hir::Scalar::I32;
};

class CppParser {
public:
  CppParser(llvm::StringRef Buffer, hir::DiagnosticEngine &Diags)
      : Lex(Buffer, Diags), Diags(Diags) {}

  /// Parses the whole buffer.
  std::unique_ptr<hir::Module> parseModule();

private:
  //===--- Tokens and diagnostics (CppParser.cpp) ------------------------===//
  /// The token \p Ahead tokens on (by value: reading ahead may grow the
  /// token buffer).
  CppToken tok(unsigned Ahead = 0);
  CppToken consume();
  bool consumeIf(CppTok K);
  bool is(CppTok K, unsigned Ahead = 0) { return tok(Ahead).is(K); }
  bool isIdent(llvm::StringRef S, unsigned Ahead = 0) {
    return tok(Ahead).isIdent(S);
  }
  void error(llvm::SMLoc Loc, const llvm::Twine &Msg);
  void note(llvm::SMLoc Loc, const llvm::Twine &Msg);
  /// "'x'" for an identifier, "end of file", ...: the current token quoted
  /// for a message.
  std::string describe(const CppToken &T);
  /// Consumes a \p K token or reports "expected 'K' \p Context, found ..."
  /// and returns false.
  bool expect(CppTok K, const llvm::Twine &Context);
  /// Skips to the end of the current statement: past a `;`, past a
  /// balanced `{...}`, or up to (not past) a `}` that closes the
  /// enclosing block.
  void skipStatement();
  /// Skips a rejected top-level declaration: past a `;` or a balanced
  /// `{...}` (and a `;` after it).
  void skipTopLevel();
  /// Skips the balanced group that starts at the current `(`, `[` or `{`.
  void skipBalanced();

  /// Counts nesting; reports "nesting too deep" once past the limit and
  /// then makes every further token Eof, which unwinds the parser.
  class DepthGuard {
  public:
    explicit DepthGuard(CppParser &P);
    ~DepthGuard() { --P.Depth; }
    DepthGuard(const DepthGuard &) = delete;
    DepthGuard &operator=(const DepthGuard &) = delete;

  private:
    CppParser &P;
  };

  //===--- Top level, attributes, types (CppParser.cpp) ------------------===//
  void parseTopLevel();
  /// `[[...]]` lists before a function; sets kernel / workgroup size.
  bool parseAttributeList(bool &IsKernel,
                          std::optional<std::array<uint32_t, 3>> &WGSize,
                          llvm::SMLoc &WGLoc, bool InFunctionHead);
  bool atAttributeList() {
    return is(CppTok::LBracket) && is(CppTok::LBracket, 1);
  }
  void parseFunction(llvm::SMLoc StartLoc, bool IsKernel,
                     std::optional<std::array<uint32_t, 3>> WGSize,
                     llvm::SMLoc WGLoc, const CppTypeSpec &Ret);
  bool parseParam(hir::FunctionDecl &F);
  /// Whether the token \p Ahead tokens on starts type words (including
  /// `const`; `auto` when \p AllowAuto).
  bool isTypeStart(unsigned Ahead = 0, bool AllowAuto = false);
  /// A C++ spelling of a scalar type as one word (`float`, `uint32_t`,
  /// `std::int32_t` is two) usable as a functional cast; sets \p Words to
  /// the number of tokens.
  std::optional<hir::Scalar> functionalCastType(unsigned Ahead,
                                                unsigned &Words);
  /// Parses the type words at the current token (reports unsupported
  /// ones). Valid is false when none is there.
  CppTypeSpec parseTypeSpec(bool AllowAuto);

  //===--- Statements (CppStmt.cpp) --------------------------------------===//
  std::unique_ptr<hir::BlockStmt> parseBlock();
  /// Parses one statement and appends it (or, for `T a, b;`, several) to
  /// \p Out. Recovers from errors itself.
  void parseStatement(hir::BlockStmt &Out);
  /// A statement used as the body of if/while/for: a block, or any other
  /// statement wrapped in a block.
  std::unique_ptr<hir::BlockStmt> parseSubStatement();
  bool parseStatementInner(hir::BlockStmt &Out);
  bool parseIf(hir::BlockStmt &Out);
  bool parseWhile(hir::BlockStmt &Out);
  bool parseDoWhile(hir::BlockStmt &Out);
  bool parseFor(hir::BlockStmt &Out);
  /// `( expr )` after if/while; null after an error.
  hir::ExprPtr parseCondition(llvm::StringRef Keyword);
  /// A declaration `T a = e, b;` (or `__shared__ T x[N];`) appended to
  /// \p Out. Stops before the `;`.
  bool parseDeclaration(hir::BlockStmt &Out);
  /// Assignment, `x op= e`, `x++`, `++x`, or an expression statement.
  /// Stops before the `;`.
  hir::StmtPtr parseSimpleStatement();
  bool isDeclarationStart();
  /// Why a declaration starting with keyword \p W (class, struct, enum,
  /// template, ...) is outside the dialect, at the top level and in a
  /// body alike; std::nullopt for other words.
  static std::optional<std::string> unsupportedDeclaration(llvm::StringRef W);
  /// Rejects a host-language statement keyword; true if it was one.
  bool rejectUnsupportedStatement();

  //===--- Expressions (CppExpr.cpp) -------------------------------------===//
  /// A full expression: conditional, then rejects a trailing assignment.
  hir::ExprPtr parseExpr();
  /// `?:` level; \p LHS is an already parsed prefix (the statement parser
  /// reads an assignment target first).
  hir::ExprPtr parseConditional(hir::ExprPtr LHS = nullptr);
  hir::ExprPtr parseBinary(unsigned MinPrec, hir::ExprPtr LHS = nullptr);
  hir::ExprPtr parseUnary();
  /// \p StopAtIncDec: leave a trailing `++`/`--` for the statement parser.
  hir::ExprPtr parsePostfix(bool StopAtIncDec = false);
  hir::ExprPtr parsePrimary();
  hir::ExprPtr parseNumber();
  hir::ExprPtr parseIdentifierExpr();
  hir::ExprPtr parseCallArgs(std::unique_ptr<hir::CallExpr> Call);
  /// `( T ) e` when the current `(` starts a C cast.
  bool atCCast();
  hir::ExprPtr parseCCast();
  hir::ExprPtr parseNamedCast();
  /// Reports an assignment operator after a full expression.
  void rejectAssignmentInExpr();
  bool isAssignOp(CppTok K) const;
  std::optional<hir::BinaryOp> compoundOp(CppTok K) const;

  CppLexer Lex;
  hir::DiagnosticEngine &Diags;
  /// Tokens read ahead; Toks[Pos] is the current one.
  std::vector<CppToken> Toks;
  size_t Pos = 0;
  CppToken EofTok;
  unsigned Depth = 0;
  /// Set after "nesting too deep": the parser stops.
  bool Fatal = false;
  std::unique_ptr<hir::Module> M;
  /// `[[wave::export]]` seen in the current function head; unset if not.
  llvm::SMLoc ExportLoc;
  /// Adds \p F to the module, merging it with an earlier declaration or
  /// definition of the same name (a prototype and a definition with the
  /// same signature are one function; anything else is reported).
  void addFunction(std::unique_ptr<hir::FunctionDecl> F);
};

} // namespace wave::fe

#endif // WAVE_LIB_FRONTEND_CPP_CPPPARSER_H
