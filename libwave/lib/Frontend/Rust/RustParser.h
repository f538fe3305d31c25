//===- RustParser.h - Parser of the Rust kernel dialect ---------*- C++ -*-===//
//
// Private to the Rust frontend. RustParser is a recursive-descent parser
// over the tokens of tokenizeRust() that builds unchecked HIR
// (formats/kernel-languages.md, "Rust"). Its members are split over three
// files: RustParser.cpp (tokens, diagnostics, items, attributes, types),
// RustStmt.cpp (blocks, statements, if-expressions) and RustExpr.cpp
// (expressions, one function per precedence level).
//
// Error recovery: a parse function that reports a syntax error returns
// null; the statement (or item) that called it skips to the next statement
// boundary and goes on, so that one run reports every error of a file.
// Constructs that parse but are outside the dialect (a `u64`, unary `*`)
// are reported without skipping.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_LIB_FRONTEND_RUST_RUSTPARSER_H
#define WAVE_LIB_FRONTEND_RUST_RUSTPARSER_H

#include "RustLexer.h"

#include "wave/HIR/Diagnostics.h"
#include "wave/HIR/HIR.h"

#include "llvm/ADT/Twine.h"

#include <array>
#include <memory>
#include <optional>
#include <vector>

namespace wave::fe {

/// Whether \p S is a Rust keyword (not usable as a name).
bool isRustKeyword(llvm::StringRef S);

/// A `{ ... }` block as parsed, before its context decides what its tail
/// means: statements, then possibly a tail expression (no `;`) or a tail
/// `if` whose branches may themselves end in values.
struct RustIf;
struct RustBlock {
  std::unique_ptr<hir::BlockStmt> Block;
  hir::ExprPtr Tail;             ///< The value expression, or null.
  std::unique_ptr<RustIf> TailIf; ///< A trailing `if`, kept unconverted.
  RustBlock();
  RustBlock(RustBlock &&);
  RustBlock &operator=(RustBlock &&);
  ~RustBlock();
};

/// `if Cond Then [else (ElseIf | Else)]` before it becomes an IfStmt or a
/// ConditionalExpr.
struct RustIf {
  llvm::SMLoc Loc; ///< The `if` keyword.
  hir::ExprPtr Cond;
  RustBlock Then;
  std::unique_ptr<RustIf> ElseIf;
  std::optional<RustBlock> Else;
};

class RustParser {
public:
  RustParser(llvm::StringRef Buffer, hir::DiagnosticEngine &Diags)
      : Toks(tokenizeRust(Buffer, Diags)), Diags(Diags) {}

  /// Parses the whole buffer.
  std::unique_ptr<hir::Module> parseModule();

private:
  //===--- Tokens and diagnostics (RustParser.cpp) -----------------------===//
  const RustToken &tok(unsigned Ahead = 0) const;
  RustToken consume();
  bool isPunct(llvm::StringRef S, unsigned Ahead = 0) const {
    return tok(Ahead).isPunct(S);
  }
  bool isIdent(llvm::StringRef S, unsigned Ahead = 0) const {
    return tok(Ahead).isIdent(S);
  }
  bool consumePunct(llvm::StringRef S);
  bool atEof() const { return tok().is(RustTok::Eof); }
  void error(llvm::SMLoc Loc, const llvm::Twine &Msg);
  void note(llvm::SMLoc Loc, const llvm::Twine &Msg);
  /// The token quoted for a message: "'x'", "end of file".
  static std::string describe(const RustToken &T);
  /// Consumes the punctuator \p S or reports "expected 'S' \p Context" and
  /// returns false.
  bool expectPunct(llvm::StringRef S, const llvm::Twine &Context);
  /// Consumes an identifier that is not a keyword into \p Out, or reports
  /// "expected \p What".
  bool expectName(RustToken &Out, const llvm::Twine &What);
  /// Reports the token that cannot start what is expected here (with the
  /// dialect's reason for strings, labels, macros...).
  void unexpected(const RustToken &T, const llvm::Twine &Context);
  /// Skips to the end of the current statement: past a `;`, past a
  /// balanced `{...}`, or up to (not past) a `}` that closes the enclosing
  /// block.
  void skipStatement();
  /// Skips a rejected item: past a `;` or a balanced `{...}`.
  void skipItem();
  /// Skips the balanced group that starts at the current `(`, `[` or `{`.
  void skipBalanced();
  /// Counts nesting; reports "nesting too deep" once past the limit and
  /// then makes every later token read as end of file.
  bool enterNesting();
  void leaveNesting() { --Depth; }

  //===--- Items, attributes and types (RustParser.cpp) ------------------===//
  /// What the outer attributes before an item said.
  struct Attrs {
    bool Kernel = false;
    llvm::SMLoc KernelLoc;
    std::optional<std::array<uint32_t, 3>> WorkgroupSize;
    /// `#[export]` / `#[wave::export]`; unset when absent.
    llvm::SMLoc ExportLoc;
  };
  /// `extern "C" { fn f(...) -> T; ... }` (or `extern { ... }`): each
  /// `fn` becomes a declaration.
  void parseExternBlock(hir::Module &M);
  void parseItem(hir::Module &M);
  void parseOuterAttribute(Attrs &A);
  void parseKernelArgs(Attrs &A);
  std::optional<uint32_t> parseWorkgroupDim();
  void parseUse();
  /// `fn NAME(params) [-> T]` and a body, or `;` when \p Declaration (in
  /// an extern block).
  std::unique_ptr<hir::FunctionDecl> parseFunction(const Attrs &A,
                                                   bool Declaration = false);
  bool parseParam(hir::FunctionDecl &F);
  /// A scalar type name at the current token (consumed even when wrong);
  /// std::nullopt after an error.
  std::optional<hir::Scalar> parseScalarType(const llvm::Twine &Context);

  //===--- Statements (RustStmt.cpp) -------------------------------------===//
  /// Parses `{ ... }`; null Block after an error that left no block.
  RustBlock parseBlock();
  /// Parses a block used as a statement body (if/while/loop/for, nested
  /// block): its tail becomes an ExprStmt (calls) or an error.
  std::unique_ptr<hir::BlockStmt> parseStmtBlock();
  /// Moves a block's tail into its statements (statement context).
  std::unique_ptr<hir::BlockStmt> finishStmtBlock(RustBlock B);
  /// Parses one statement into \p B; sets B.Tail / B.TailIf for a value
  /// that ends the block.
  void parseStmt(RustBlock &B);
  hir::StmtPtr parseLet();
  hir::StmtPtr parseFor();
  bool parseForRange(hir::ForRangeStmt &F);
  /// `while c {}` / `loop {}`.
  hir::StmtPtr parseWhile();
  std::unique_ptr<RustIf> parseIf();
  hir::StmtPtr ifToStmt(std::unique_ptr<RustIf> If);
  hir::ExprPtr ifToExpr(std::unique_ptr<RustIf> If);
  /// The value of a branch block of an if-expression.
  hir::ExprPtr blockToExpr(RustBlock B, llvm::SMLoc IfLoc);
  /// An expression statement, assignment or tail expression.
  void parseExprStmt(RustBlock &B);
  /// Consumes the `;` after a statement, or accepts a following `}`.
  bool endStmt(const llvm::Twine &What);
  /// Reports an assignment operator where a condition ends; false then.
  bool checkNoAssign();
  /// `shared(T, N)` / `wave::shared(T, N)` after `let name =`.
  hir::StmtPtr parseShared(const RustToken &Name);

  //===--- Expressions (RustExpr.cpp) ------------------------------------===//
  hir::ExprPtr parseExpr();
  hir::ExprPtr parseBinary(unsigned MinPrec);
  hir::ExprPtr parseCast();
  hir::ExprPtr parseUnary();
  hir::ExprPtr parsePostfix();
  hir::ExprPtr parsePrimary();
  hir::ExprPtr parsePathExpr();
  hir::ExprPtr parseNumber();
  hir::ExprPtr parseMethodCall(hir::ExprPtr Recv);
  /// `( args )` into \p Args; false after an error.
  bool parseArgs(std::vector<hir::ExprPtr> &Args);
  /// Maps a math method (`x.sqrt()`, `f32::sqrt(x)`) to its intrinsic
  /// call; \p Args holds the receiver first. Null after an error.
  hir::ExprPtr makeMathCall(const RustToken &Method,
                            std::vector<hir::ExprPtr> Args);

  std::vector<RustToken> Toks;
  size_t Pos = 0;
  hir::DiagnosticEngine &Diags;
  unsigned Depth = 0;
  bool TooDeep = false;
  /// A `..` / `..=` may follow the expression (a `for` header).
  bool RangeAllowed = false;
};

} // namespace wave::fe

#endif // WAVE_LIB_FRONTEND_RUST_RUSTPARSER_H
