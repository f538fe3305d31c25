//===- TypeScriptParser.h - Parser of the TypeScript dialect ----*- C++ -*-===//
//
// Private to the TypeScript frontend. TSParser is a recursive-descent
// parser over TSLexer tokens that builds unchecked HIR
// (formats/kernel-languages.md, "TypeScript"). Its members are split over
// five files: TypeScriptParser.cpp (tokens, recovery, the top level,
// functions, kernel markers, types), TypeScriptClass.cpp (classes of static
// methods, `@kernel` decorators, `K.f(x)` calls), TypeScriptStruct.cpp
// (classes of plain data), TypeScriptStmt.cpp
// (statements and automatic semicolon insertion) and TypeScriptExpr.cpp
// (expressions, by precedence climbing).
//
// Error recovery: a parse function that reports a syntax error returns
// null (or false); the statement (or top-level declaration) that called it
// skips to the next statement boundary and goes on, so that one run reports
// every error of a file. Constructs that parse but are outside the dialect
// (`x as f32`, `a ?? b`) are reported without skipping.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_LIB_FRONTEND_TYPESCRIPT_TYPESCRIPTPARSER_H
#define WAVE_LIB_FRONTEND_TYPESCRIPT_TYPESCRIPTPARSER_H

#include "TypeScriptLexer.h"

#include "wave/HIR/Diagnostics.h"
#include "wave/HIR/HIR.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"

#include <array>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace wave::fe {

class TSParser {
public:
  TSParser(llvm::StringRef Buffer, hir::DiagnosticEngine &Diags)
      : Lex(Buffer, Diags), Diags(Diags), Buffer(Buffer) {}

  /// Parses the whole buffer.
  std::unique_ptr<hir::Module> parseModule();

private:
  //===--- Tokens and diagnostics (TypeScriptParser.cpp) -----------------===//
  const TSToken &tok(unsigned Ahead = 0);
  TSToken consume();
  /// Consumes the punctuator \p S if it is the current token.
  bool consumeIf(llvm::StringRef S);
  bool is(llvm::StringRef S, unsigned Ahead = 0) { return tok(Ahead).is(S); }
  bool isIdent(llvm::StringRef S, unsigned Ahead = 0) {
    return tok(Ahead).isIdent(S);
  }
  bool atEof() { return tok().is(TSTok::Eof); }
  void error(llvm::SMLoc Loc, const llvm::Twine &Msg);
  void note(llvm::SMLoc Loc, const llvm::Twine &Msg);
  /// The token quoted for a message: "'x'", "end of file", "a string
  /// literal", ...
  std::string describe(const TSToken &T);
  /// Consumes the punctuator \p S or reports "expected 'S' \p Context,
  /// found ..." and returns false.
  bool expect(llvm::StringRef S, const llvm::Twine &Context);
  /// Skips the balanced group that starts at the current `(`, `[` or `{`.
  void skipBalanced();
  /// Skips to the end of the current statement: past a `;`, past a
  /// balanced `{...}`, up to (not past) a `}` that closes the enclosing
  /// block, or up to a statement keyword that starts a new line.
  void skipStatement();
  /// Skips a rejected top-level item the same way, stopping also before a
  /// top-level keyword that starts a line.
  void skipTopLevel();
  /// Skips to the `)` that closes the current group (consumed); stops
  /// before a `{` or `}` (and a `;` if \p StopAtSemi) outside brackets.
  void skipToCloseParen(bool StopAtSemi);

  /// Counts nesting; reports "nesting too deep" once past the limit and
  /// then makes every further token Eof, which unwinds the parser.
  class DepthGuard {
  public:
    explicit DepthGuard(TSParser &P);
    ~DepthGuard() { --P.Depth; }
    DepthGuard(const DepthGuard &) = delete;
    DepthGuard &operator=(const DepthGuard &) = delete;

  private:
    TSParser &P;
  };

  //===--- Top level and types (TypeScriptParser.cpp) --------------------===//
  void parseTopLevel();
  void parseImport();
  /// Parses `function name(params): T { body }` at the current `function`
  /// (\p Declaration: after `declare`, ending in `;` instead of a body).
  /// \p ExportLoc: the `// @export` comment before it, if any.
  void parseFunction(bool IsKernel,
                     std::optional<std::array<uint32_t, 3>> WGSize,
                     llvm::SMLoc ExportLoc = llvm::SMLoc(),
                     bool Declaration = false);
  /// Parses what follows a function's (or static method's) name \p Name:
  /// type parameters (rejected), the parameter list, the return type and
  /// the body, and appends the function to the module. \p KwLoc locates
  /// errors about the whole signature (`function`, or the method name).
  void parseFunctionRest(llvm::SMLoc KwLoc, const TSToken &Name, bool IsKernel,
                         std::optional<std::array<uint32_t, 3>> WGSize,
                         llvm::SMLoc ExportLoc, bool Declaration);
  bool parseParam(hir::FunctionDecl &F);
  /// Reads the `// @kernel ...` comment text \p Comment: sets \p WGSize
  /// from a `workgroup_size(x, y, z)` after the marker.
  void parseKernelComment(llvm::StringRef Comment,
                          std::optional<std::array<uint32_t, 3>> &WGSize);
  /// A parameter, return or variable type. \p What names the position for
  /// messages. Returns std::nullopt after reporting an error.
  std::optional<hir::Type> parseType(llvm::StringRef What);
  /// Rejects a top-level host-language declaration; true if it was one.
  bool rejectTopLevelKeyword();

  //===--- Classes and decorators (TypeScriptClass.cpp) -------------------===//
  /// Parses `class K { ... }` at the current `class`: a namespace of
  /// static methods, each a device function or, with `@kernel`, a kernel.
  /// Every other member is rejected with one located error.
  void parseClass();
  /// Parses one member of the class being parsed (CurClass).
  void parseClassMember();
  /// Skips the decorators that start at the current `@` (`@a.b(args)`
  /// each) and returns the token index of each `@`; sets \p *IsKernel when
  /// one of them names `@kernel`.
  std::vector<size_t> skipDecorators(bool *IsKernel = nullptr);
  /// Parses the decorator at token index \p At of a static method: sets
  /// \p IsKernel and \p WGSize for `@kernel`, `@kernel()` and
  /// `@kernel({workgroupSize: [x, y, z]})`, reports anything else.
  void parseMethodDecorator(size_t At, bool &IsKernel,
                            std::optional<std::array<uint32_t, 3>> &WGSize);
  /// Reads `{ workgroupSize: [x, y, z] }` (1 to 3 integers from 1 to 1024)
  /// into \p WGSize; false after reporting an error.
  bool parseDecoratorOptions(std::optional<std::array<uint32_t, 3>> &WGSize);
  /// A token that may start a class member on a new line (error recovery).
  bool isMemberStart(const TSToken &T) const;
  /// After the whole file is read: checks every `K.f(...)` call against
  /// the static methods of class K and rejects plain `f(...)` calls of a
  /// static method (TypeScript has no such name in scope).
  void resolveClassCalls();

  //===--- Classes of plain data (TypeScriptStruct.cpp) ------------------===//
  /// Before parsing: lexes the whole buffer (quietly) and records every
  /// class name, and the classes of plain data (a class with an instance
  /// field or a constructor) with the names of their fields and methods.
  void prescanClasses();
  /// Parses the body of class \p Name, a class of plain data, at its `{`
  /// into the struct of that name and its methods.
  void parsePlainClass(const TSToken &Name);
  /// Parses one member of the class of plain data \p S.
  void parsePlainMember(hir::StructDecl &S);
  /// Turns the parsed constructor \p F of \p S into the inlined function
  /// "C::constructor" that returns the struct literal of its assignments.
  void finishConstructor(hir::FunctionDecl &F, hir::StructDecl &S);
  /// `new C(args)` at `new`, for a class of plain data C.
  hir::ExprPtr parseNew();
  /// `E.name` or `E.name(args)` at the `.` after \p E, the field or method
  /// \p Name of a class of plain data.
  hir::ExprPtr parseMemberAccess(hir::ExprPtr E);
  /// The struct of the class of plain data \p Name, or null.
  hir::StructDecl *plainStruct(llvm::StringRef Name, llvm::SMLoc Loc);

  //===--- Statements (TypeScriptStmt.cpp) -------------------------------===//
  std::unique_ptr<hir::BlockStmt> parseBlock();
  /// Parses one statement and appends it (or, for `let a = 1, b = 2`,
  /// several) to \p Out. Recovers from errors itself.
  void parseStatement(hir::BlockStmt &Out);
  bool parseStatementInner(hir::BlockStmt &Out);
  /// A statement used as the body of if/while/for: a block, or any other
  /// statement wrapped in a block.
  std::unique_ptr<hir::BlockStmt> parseSubStatement();
  bool parseIf(hir::BlockStmt &Out);
  bool parseWhile(hir::BlockStmt &Out);
  bool parseDoWhile(hir::BlockStmt &Out);
  bool parseFor(hir::BlockStmt &Out);
  /// `( expr )` after if/while.
  hir::ExprPtr parseCondition(llvm::StringRef Keyword);
  /// `let/const/var a = e, b: T;` appended to \p Out (stops before the
  /// end of the statement). \p InFor: a `for` initializer (one declarator).
  bool parseDeclaration(hir::BlockStmt &Out, bool InFor);
  /// `shared(T, N)` / `wave.shared(T, N)` initializer of \p Name.
  hir::StmtPtr parseSharedInit(llvm::SMLoc NameLoc, llvm::StringRef Name);
  bool atSharedCall();
  /// Assignment, `x op= e`, `x++`, `++x`, or an expression statement.
  hir::StmtPtr parseSimpleStatement();
  /// Ends a statement: a `;`, or (automatic semicolon insertion) a line
  /// break, a `}` or the end of the file before the next token. Reports
  /// "expected ';' after \p What" otherwise.
  bool endStatement(llvm::StringRef What);
  /// The current token ends a statement without a `;` (ASI).
  bool atImplicitSemicolon();
  /// Rejects a host-language statement; true if it was one.
  bool rejectUnsupportedStatement();

  //===--- Expressions (TypeScriptExpr.cpp) ------------------------------===//
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
  /// The argument list after a callee name (current token `(`).
  hir::ExprPtr parseCallArgs(std::unique_ptr<hir::CallExpr> Call);
  /// Reports an assignment operator after a full expression.
  void rejectAssignmentInExpr();
  bool isAssignOp(const TSToken &T) const;
  std::optional<hir::BinaryOp> compoundOp(const TSToken &T) const;
  /// Whether \p Name qualifies a call (`wave`, `Math`, the name of an
  /// `import * as` of "wave").
  bool isQualifier(llvm::StringRef Name) const;

  TSLexer Lex;
  hir::DiagnosticEngine &Diags;
  /// Tokens read so far; Toks[Pos] is the current one. A deque, so that a
  /// reference from tok() stays valid while later tokens are read.
  std::deque<TSToken> Toks;
  size_t Pos = 0;
  TSToken EofTok;
  unsigned Depth = 0;
  /// Set after "nesting too deep": the parser stops.
  bool Fatal = false;
  /// The local name of `import * as X from "wave"` (besides `wave`).
  std::string WaveAlias;

  /// A class of static methods: where it is named and its methods.
  struct ClassInfo {
    llvm::SMLoc Loc;
    llvm::StringMap<llvm::SMLoc> Methods;
  };
  /// A call `Class.Method(...)`, checked once every class is known.
  struct QualifiedCall {
    std::string Class, Method;
    llvm::SMLoc DotLoc, MethodLoc;
  };
  /// A call of a plain name, checked against the static methods.
  struct PlainCall {
    std::string Name;
    llvm::SMLoc Loc;
  };
  llvm::StringMap<ClassInfo> Classes;
  /// The class of each static method by method name (its HIR name).
  llvm::StringMap<std::string> MethodClass;
  llvm::StringSet<> TopLevelFunctions;
  std::vector<QualifiedCall> QualifiedCalls;
  std::vector<PlainCall> PlainCalls;
  /// The class whose body is being parsed; empty outside classes.
  std::string CurClass;
  std::unique_ptr<hir::Module> M;

  llvm::StringRef Buffer;
  /// Every class name of the file, and the classes of plain data.
  llvm::StringSet<> AllClasses, PlainClasses;
  /// The field and method names of the classes of plain data: `E.name`
  /// and `E.name(...)` parse as a field access or a method call only for
  /// these, so files without such classes parse as before.
  llvm::StringSet<> PlainMembers;
  /// Inside a method (InMethod) or the constructor (InConstructor) of a
  /// class of plain data: `this` is a name.
  bool InMethod = false, InConstructor = false;
  /// Set when the method being parsed assigns a field of `this` (it then
  /// takes `this` by reference).
  bool ThisWritten = false;
  /// Where the constructor being parsed mentions `this`.
  std::vector<llvm::SMLoc> ConstructorThis;
  /// The parameter properties of the constructor being parsed.
  std::vector<TSToken> CtorProperties;
};

} // namespace wave::fe

#endif // WAVE_LIB_FRONTEND_TYPESCRIPT_TYPESCRIPTPARSER_H
