//===- PythonParser.h - Parser of the Python kernel dialect -----*- C++ -*-===//
//
// Private to the Python frontend. PythonParser is a recursive-descent
// parser over the token vector of tokenizePython() that builds unchecked
// HIR (formats/kernel-languages.md, "Python"). Its members are split over
// four files: PythonParser.cpp (tokens, diagnostics, recovery, the
// module, decorators, functions, types), PythonClass.cpp (@dataclass
// classes, their methods and constructions), PythonStmt.cpp (statements)
// and PythonExpr.cpp (expressions, one function per precedence level).
//
// Error recovery: a parse function that reports a syntax error returns
// null (or false); the statement that called it skips to the end of its
// logical line, and past the indented block that follows when there is
// one, so that one run reports every error of a file. Constructs whose
// extent is known (a `**`, a keyword argument, a list display, a string)
// are reported and parsing goes on in place with a placeholder.
// Recursion is capped at MaxDepth nested expressions and blocks: deeper
// input gets one "nesting too deep" error and parsing stops.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_LIB_FRONTEND_PYTHON_PYTHONPARSER_H
#define WAVE_LIB_FRONTEND_PYTHON_PYTHONPARSER_H

#include "PythonLexer.h"

#include "wave/HIR/Diagnostics.h"
#include "wave/HIR/HIR.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/Twine.h"

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace wave::fe {

/// One dimension of a shaped buffer annotation `T[M, 4]`: the name of an
/// integer parameter of the same function, or an integer literal.
struct PyDim {
  llvm::SMLoc Loc;    ///< The dimension's token.
  std::string Name;   ///< The parameter; empty for a literal.
  uint64_t Value = 0; ///< The literal (1..2^32-1) when Name is empty.
  /// Set once the parameter is resolved: it is an `i32` (converted to
  /// `u32` where an index is linearised).
  bool Signed = false;
};

/// A type annotation as written: `f32`, `wave.u32`, `f32[:]`, `f32[M, N]`,
/// `None`.
struct PyTypeRef {
  llvm::SMLoc Loc;       ///< The first token of the annotation.
  bool Valid = false;    ///< A known scalar was named (S is meaningful).
  bool IsNone = false;   ///< `None`.
  bool IsBuffer = false; ///< `T[:]` or `T[dims]`.
  /// `T[dims]`: the shape, outermost dimension first (row-major). Empty
  /// for `T[:]`.
  std::vector<PyDim> Dims;
  /// A malformed shape (reported): the buffer is neither `T[:]` nor shaped.
  bool BadShape = false;
  hir::Scalar S = hir::Scalar::I32;
  std::string Spelling; ///< The type name without qualifier, for messages.
  /// A `@dataclass` of the file (`Complex` or the forward reference
  /// `"Complex"`); Valid is then false.
  hir::StructDecl *Struct = nullptr;
};

/// The default of a dataclass field (`x: f32 = 0.0`): a number, optionally
/// negated, or True/False.
struct PyFieldDefault {
  llvm::SMLoc Loc;
  bool IsFloat = false, IsBool = false, Neg = false;
  uint64_t IntValue = 0;
  double FloatValue = 0;
  bool BoolValue = false;
};

/// A buffer parameter of the function being parsed that was declared with
/// a shape (`a: f32[M, N]`): its subscripts and `.shape` are desugared to
/// one-dimensional HIR (formats/kernel-languages.md, "Shaped buffers").
struct PyShapedBuffer {
  std::vector<PyDim> Dims;
  llvm::SMLoc Loc;      ///< The annotation, for notes.
  std::string Spelling; ///< The annotation as written, e.g. "f32[M, N]".
  /// The shape had an error (reported): uses are accepted quietly.
  bool Bad = false;
};

class PythonParser {
public:
  PythonParser(llvm::StringRef Buffer, hir::DiagnosticEngine &Diags)
      : Toks(tokenizePython(Buffer, LexErrors)), Diags(Diags) {}

  /// Parses the whole buffer.
  std::unique_ptr<hir::Module> parseModule();

  /// Deepest nesting of expressions and blocks before "nesting too deep".
  static constexpr unsigned MaxDepth = 256;
  /// Most dimensions of a shaped buffer (NumPy's classic NPY_MAXDIMS).
  static constexpr unsigned MaxDims = 32;

private:
  //===--- Tokens and diagnostics (PythonParser.cpp) ---------------------===//
  const PyToken &tok(unsigned Ahead = 0) const {
    size_t I = Pos + Ahead;
    return I < Toks.size() ? Toks[I] : Toks.back();
  }
  const PyToken &consume() {
    const PyToken &T = Toks[Pos];
    if (Pos + 1 < Toks.size())
      ++Pos;
    flushLexErrors();
    return T;
  }
  /// Reports the tokenizer's errors up to the current token.
  void flushLexErrors(bool All = false);
  bool is(PyTok K, unsigned Ahead = 0) const { return tok(Ahead).is(K); }
  bool isIdent(llvm::StringRef S, unsigned Ahead = 0) const {
    return tok(Ahead).isIdent(S);
  }
  bool consumeIf(PyTok K) {
    if (!is(K))
      return false;
    consume();
    return true;
  }
  /// A name token that is not a keyword.
  bool isName(unsigned Ahead = 0) const {
    return is(PyTok::Ident, Ahead) && !isPythonKeyword(tok(Ahead).Text);
  }
  /// At the end of a simple statement: `;`, NEWLINE or end of file.
  bool atStmtEnd() const {
    return is(PyTok::Semi) || is(PyTok::Newline) || is(PyTok::Eof);
  }
  void error(llvm::SMLoc Loc, const llvm::Twine &Msg);
  void note(llvm::SMLoc Loc, const llvm::Twine &Msg);
  /// "'x'", "end of line", "a string", ...: \p T for "found ..." in messages.
  std::string describe(const PyToken &T) const;
  /// Expects the closing bracket \p K of \p Open; else reports \p Msg and a
  /// note at the opener.
  bool expectClose(PyTok K, const PyToken &Open, const llvm::Twine &Msg);

  /// RAII nesting counter; false once MaxDepth is exceeded (reported once,
  /// then the parser jumps to the end of the input).
  class DepthGuard {
  public:
    explicit DepthGuard(PythonParser &P);
    ~DepthGuard() { --P.Depth; }
    explicit operator bool() const { return Ok; }

  private:
    PythonParser &P;
    bool Ok;
  };

  //===--- Recovery (PythonParser.cpp) ----------------------------------===//
  /// Skips to the NEWLINE of the current logical line (not consumed).
  void skipToLineEnd();
  /// Skips the rest of the logical line and the indented block after it.
  void skipStatement();
  /// At an INDENT: skips to just past the matching DEDENT.
  void skipBlock();
  /// Skips to just past the bracket that closes an already consumed
  /// opener (nested brackets included); stops at NEWLINE.
  void skipBracketRest();

  //===--- Module and functions (PythonParser.cpp) -----------------------===//
  /// `from dataclasses import dataclass`, else parseImportOf().
  void parseImport();
  /// `import wave` (or `dataclasses`) and `from wave import ...`.
  void parseImportOf();
  /// Records the names of the `class` statements of the module and the
  /// fields of their bodies (names in order, literal defaults), so that
  /// annotations and constructions may name a dataclass defined later.
  void collectClassNames();
  /// Whether the decorator at the current `@` is `@dataclass` or
  /// `@dataclasses.dataclass`.
  bool atDataclassDecorator() const;
  /// `@dataclass class Name: body` (PythonClass.cpp); a `class` without
  /// the decorator is reported and skipped.
  void parseClassDef(hir::Module &M);
  /// Makes `self` refer to the receiver in every method that changes it,
  /// directly or through a call of another such method. Run once the whole
  /// module is parsed.
  void propagateSelfMutation();
  /// At `(` after the name of a dataclass: `S(a, b)` / `S(x=a, y=b)`.
  hir::ExprPtr parseStructCall(const PyToken &Name, hir::StructDecl *S);
  /// Renames a method of CurClass (`__add__` -> "Complex::add") and marks
  /// its operator; \p BodyBegin/BodyEnd delimit its body's tokens.
  void finishMethod(hir::FunctionDecl &F, const PyToken &NameTok,
                    size_t BodyBegin, size_t BodyEnd);
  /// Whether the current logical line is only string literals.
  bool atDocstring() const;
  void skipDocstring();
  /// Decorators (zero or more), then `def`.
  void parseFunctionDef(hir::Module &M);
  struct KernelMark {
    bool IsKernel = false;
    std::optional<std::array<uint32_t, 3>> WorkgroupSize;
    /// `@export` / `@wave.export`; unset when absent.
    llvm::SMLoc ExportLoc;
  };
  /// At the `:` of a function header: whether the body is only `...`
  /// (after an optional docstring), which declares the function. Consumes
  /// that body when it is.
  bool parseEllipsisBody();
  /// One `@...` line.
  void parseDecorator(KernelMark &K);
  void parseWorkgroupSize(KernelMark &K);
  bool parseParams(hir::FunctionDecl &F);
  /// Records the shaped buffer parameters of \p F (Shapes, ShapeParams)
  /// and reports every dimension that names no `i32`/`u32` parameter of
  /// \p F. \p Types holds the annotation of each of F.Params (index by
  /// index).
  void resolveShapes(const hir::FunctionDecl &F,
                     const std::vector<PyTypeRef> &Types);
  /// A type annotation; std::nullopt after a syntax error (reported).
  std::optional<PyTypeRef> parseType();
  /// After the `[` of a buffer type other than `T[:]`: the dimensions and
  /// the `]`. Returns false after reporting a malformed shape (the rest of
  /// the brackets is then the caller's to skip); more than MaxDims
  /// dimensions are reported and set T.BadShape.
  bool parseShape(PyTypeRef &T);
  /// Reports a statement keyword outside the dialect and returns true.
  bool rejectUnsupportedStatement();

  //===--- Statements (PythonStmt.cpp) ----------------------------------===//
  /// `:` and the suite after a compound statement's header.
  std::unique_ptr<hir::BlockStmt> parseSuite(llvm::StringRef What,
                                             bool AllowDocstring = false);
  /// At NEWLINE: the indented block of a suite. \p Quiet: a header error
  /// was already reported, so a missing block is not.
  std::unique_ptr<hir::BlockStmt>
  parseIndentedBlock(llvm::SMLoc Loc, llvm::StringRef What, bool Quiet,
                     bool AllowDocstring = false);
  /// After INDENT: statements up to and including the matching DEDENT.
  void parseBlockBody(std::vector<hir::StmtPtr> &Out, bool AllowDocstring);
  void parseStatement(std::vector<hir::StmtPtr> &Out);
  /// `a; b; c` NEWLINE.
  void parseSimpleStatements(std::vector<hir::StmtPtr> &Out);
  bool parseSimpleStatement(std::vector<hir::StmtPtr> &Out);
  bool parseAnnotatedDecl(std::vector<hir::StmtPtr> &Out);
  bool parseSharedDecl(std::vector<hir::StmtPtr> &Out);
  bool parseAssignOrExpr(std::vector<hir::StmtPtr> &Out);
  hir::StmtPtr parseIf();
  hir::StmtPtr parseWhile();
  hir::StmtPtr parseFor();
  /// A loop's `else:` clause: reported and skipped.
  void rejectLoopElse(llvm::StringRef Loop);

  //===--- Expressions (PythonExpr.cpp) ---------------------------------===//
  hir::ExprPtr parseExpr();
  hir::ExprPtr parseConditional();
  hir::ExprPtr parseOr();
  hir::ExprPtr parseAnd();
  hir::ExprPtr parseNot();
  hir::ExprPtr parseComparison();
  /// `|`, `^`, `&`, shifts, additive, multiplicative (Level 0..5).
  hir::ExprPtr parseBinary(unsigned Level);
  hir::ExprPtr parseUnary();
  hir::ExprPtr parsePower();
  hir::ExprPtr parsePrimary();
  hir::ExprPtr parseAtom();
  /// After a call's `(`: the arguments and `)`.
  bool parseCallArgs(hir::CallExpr &C, const PyToken &LParen);
  hir::ExprPtr placeholder(llvm::SMLoc Loc);

  //===--- Shaped buffers (PythonExpr.cpp) ------------------------------===//
  /// The shaped buffer parameter \p E names, or null.
  const PyShapedBuffer *shapeOf(const hir::Expr &E) const;
  /// `Base[Indices...]` (\p Open is the `[`; \p CommaLoc the first comma,
  /// unset when there is none): a one-dimensional IndexExpr, with the index
  /// linearised for a shaped buffer. Reports a wrong number of indices and
  /// constant indices outside a literal dimension.
  hir::ExprPtr makeSubscript(hir::ExprPtr Base, const PyToken &Open,
                             std::vector<hir::ExprPtr> Indices,
                             llvm::SMLoc CommaLoc);
  /// Index \p I of dimension \p K of \p S with a negative constant index
  /// counted from the end; null after an error (reported).
  hir::ExprPtr normaliseIndex(const PyShapedBuffer &S, llvm::StringRef Name,
                              unsigned K, hir::ExprPtr I);
  /// At the `shape` of `Base.shape`: `.shape[k]` for a constant k, as the
  /// dimension's parameter or literal.
  hir::ExprPtr parseShapeAttr(const hir::NameExpr &Base,
                              const PyShapedBuffer &S);
  /// Reports an assignment (or declaration) of \p Name at \p Loc when it
  /// names a dimension of a shaped buffer.
  void checkNotShapeParam(llvm::StringRef Name, llvm::SMLoc Loc);

  std::vector<PyLexError> LexErrors;
  size_t NextLexError = 0;
  std::vector<PyToken> Toks;
  size_t Pos = 0;
  hir::DiagnosticEngine &Diags;
  /// The shaped buffer parameters of the function being parsed, by name.
  llvm::StringMap<PyShapedBuffer> Shapes;
  /// The parameters of that function that name a dimension: the buffer and
  /// the dimension's token (for "cannot assign").
  llvm::StringMap<std::pair<std::string, llvm::SMLoc>> ShapeParams;
  /// Its buffer parameters declared `T[:]`, for messages: the annotation
  /// and its spelling ("f32[:]").
  llvm::StringMap<std::pair<llvm::SMLoc, std::string>> FlatBuffers;
  /// The module being parsed.
  hir::Module *OutMod = nullptr;
  /// The module's classes by name (collectClassNames): their fields in
  /// order, each with its default when that is a literal.
  llvm::StringMap<
      std::vector<std::pair<std::string, std::optional<PyFieldDefault>>>>
      ClassNames;
  /// The dataclass whose body is being parsed, or null.
  hir::StructDecl *CurClass = nullptr;
  /// A method with `self` (owned by the module): whether its body assigns
  /// through `self`, and the methods it calls on `self` or its fields.
  struct SelfMethod {
    hir::FunctionDecl *F;
    bool Direct;
    std::vector<std::string> Calls;
  };
  std::vector<SelfMethod> SelfMethods;
  /// Parameters of the function being parsed annotated with a scalar or a
  /// buffer type: `p.name` on them keeps the parser's error.
  llvm::StringMap<bool> NonStructParams;
  unsigned Depth = 0;
  /// Nesting too deep: everything after is skipped and nothing reported.
  bool Fatal = false;
};

/// The scalar a type name denotes (`f32`, `int` -> i32, `float` -> f32).
std::optional<hir::Scalar> pythonScalarType(llvm::StringRef Name);

} // namespace wave::fe

#endif // WAVE_LIB_FRONTEND_PYTHON_PYTHONPARSER_H
