//===- RustParser.h - Parser of the Rust kernel dialect ---------*- C++ -*-===//
//
// Private to the Rust frontend. RustParser is a recursive-descent parser
// over the tokens of tokenizeRust() that builds unchecked HIR
// (formats/kernel-languages.md, "Rust"). Its members are split over five
// files: RustParser.cpp (tokens, diagnostics, items, attributes, types),
// RustStmt.cpp (blocks, statements, if-expressions), RustExpr.cpp
// (expressions, one function per precedence level), RustConst.cpp
// (`const` items, C-like enums, constant evaluation, name resolution),
// RustMatch.cpp (patterns, `match`, `if let`, `while let`, tuples) and
// RustStruct.cpp (structs, `impl` blocks, operator traits).
//
// Structs are HIR structs (hir::StructDecl, formats/kernel-languages.md
// §8, "Plain-data structs"): methods become functions named "V2::name"
// whose Owner is the struct, with `self` as the first parameter; `v.m(a)`
// is a method call Sema resolves by v's type; operator-trait impls are
// marked by Trait.
//
// Tuples are HIR structs too: a tuple type `(f32, u32)` is the anonymous
// struct Module::getTuple makes (fields 0, 1, ...), a tuple value `(a, b)`
// a StructLitExpr marked Tuple that Sema types, `t.0` a MemberExpr.
//
// Desugaring. HIR has no match, constant or enum node: the parser
// lowers them to existing nodes. A constant or enum variant becomes a
// typed literal at each use; a match becomes a chain of IfStmts (or, as a
// value whose arms are single expressions, a chain of ConditionalExprs);
// its scrutinee is copied once into a hidden immutable variable
// (`match.s`, a name no Rust source can spell) and pattern bindings are
// aliases of that variable. Statements an expression needs before it (the
// copy, a match that needs statements) are collected in Pre and emitted
// before the statement that contains the expression.
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

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
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
/// `if` or `match` whose branches may themselves end in values.
struct RustIf;
struct RustMatch;
struct RustBlock {
  std::unique_ptr<hir::BlockStmt> Block;
  hir::ExprPtr Tail;             ///< The value expression, or null.
  std::unique_ptr<RustIf> TailIf; ///< A trailing `if`, kept unconverted.
  std::unique_ptr<RustMatch> TailMatch; ///< A trailing `match`.
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
  /// Statements that must run right before Cond is evaluated (the
  /// scrutinee copy of an `if let`, a match inside the condition).
  std::vector<hir::StmtPtr> CondPre;
  RustBlock Then;
  std::unique_ptr<RustIf> ElseIf;
  std::optional<RustBlock> Else;
};

/// What a pattern's constant (a literal, `const` or enum variant) is, for
/// the exhaustiveness check.
struct RustEnum;
struct RustConstVal {
  enum Kind : uint8_t { Int, Float, Bool } K = Int;
  int64_t I = 0;  ///< Int and Bool (0 or 1) values.
  double F = 0;   ///< Float values.
  /// The type a suffix, a constant or an enum gave it; std::nullopt for an
  /// unsuffixed literal.
  std::optional<hir::Scalar> Ty;
  const RustEnum *Enum = nullptr; ///< Set for an enum variant.
};

/// A pattern of a match arm, an `if let` or a `while let`.
struct RustPat {
  enum Kind : uint8_t { Wild, Bind, Const, Range, Or, Tuple };
  Kind K = Wild;
  llvm::SMLoc Loc;
  std::string Name;             ///< Bind: the name (`x`, `mut x`, `x @ p`).
  bool Mutable = false;         ///< Bind: `mut x`.
  std::unique_ptr<RustPat> Sub; ///< Bind: the `@` subpattern, or null.
  hir::ExprPtr Value;           ///< Const: the literal to compare with.
  RustConstVal CVal;            ///< Const: its value.
  hir::ExprPtr Lo, Hi;          ///< Range: bounds (either may be null).
  std::optional<int64_t> LoVal, HiVal; ///< Range: their values.
  bool Inclusive = false;       ///< Range: `..=`.
  std::vector<RustPat> Elems;   ///< Or: alternatives; Tuple: elements.
};

/// A scrutinee as parsed: one expression, or a tuple of scrutinees.
struct RustScrut {
  llvm::SMLoc Loc;
  hir::ExprPtr Value;            ///< Null for a tuple.
  std::vector<RustScrut> Elems; ///< Tuple elements.
  /// A tuple value split by expandScrutinee(): the whole value (its hidden
  /// copy, or an element of one), which a binding of the tuple names.
  hir::ExprPtr Whole;
  /// Value is an element of such a copy (`match.s.0`): no copy needed.
  bool Split = false;
  bool isTuple() const { return !Value; }
};

/// One arm of a match: `Pat [if Guard] => Body`. An expression body is a
/// RustBlock with only a Tail.
struct RustArm {
  RustPat Pat;
  hir::ExprPtr Guard;
  RustBlock Body;
  llvm::SMLoc Loc; ///< The `=>`.
  bool Broken = false; ///< Its pattern was reported: drop the arm.
};

/// `match Scrut { Arms }` before it becomes statements or a value. Leaves
/// holds the scrutinee's leaf values in tuple order (a literal, or the
/// hidden variable its value was copied to); the copies are already in
/// Pre.
struct RustMatch {
  llvm::SMLoc Loc; ///< The `match` keyword.
  RustScrut Shape; ///< The scrutinee's tuple shape.
  std::vector<hir::ExprPtr> Leaves;
  std::vector<RustArm> Arms;
  bool Broken = false; ///< An error was reported: skip the checks.
};

/// A C-like enum (`enum Kind { A, B = 5, C }`): each variant is a constant
/// of Repr.
struct RustEnum {
  std::string Name;
  llvm::SMLoc Loc;
  hir::Scalar Repr = hir::Scalar::I32;
  struct Variant {
    std::string Name;
    llvm::SMLoc Loc;
    hir::ExprPtr Discr; ///< `= EXPR`, or null (previous + 1).
    int64_t Value = 0;
  };
  std::vector<Variant> Variants;
  enum State : uint8_t { Pending, Evaluating, Done } St = Pending;
};

/// A `const` item, evaluated on first use (module constants may be used
/// before they are declared, as Rust items).
struct RustConstItem {
  llvm::SMLoc Loc;
  hir::Scalar Ty = hir::Scalar::I32;
  hir::ExprPtr Init;    ///< Parsed without name resolution.
  hir::ExprPtr Literal; ///< The typed literal, once evaluated.
  enum State : uint8_t { Pending, Evaluating, Done, Failed } St = Pending;
};

/// Where the value of a block, if or match goes.
struct ValueSink {
  enum Kind : uint8_t { Discard, Assign, Return } K = Discard;
  std::string Target; ///< Assign: the variable.
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
  /// Leaves the level a successful enterNesting() entered, at the end of
  /// its scope.
  struct NestingScope {
    RustParser &P;
    ~NestingScope() { P.leaveNesting(); }
  };
  /// The compound-assignment operator \p T spells (`+=` is Add) in \p Op;
  /// true for those and for a plain `=` (Op then empty).
  static bool assignOp(const RustToken &T, std::optional<hir::BinaryOp> &Op);

  //===--- Items, attributes and types (RustParser.cpp) ------------------===//
  /// What the outer attributes before an item said.
  struct Attrs {
    bool Kernel = false;
    llvm::SMLoc KernelLoc;
    std::optional<std::array<uint32_t, 3>> WorkgroupSize;
    /// `#[export]` / `#[wave::export]`; unset when absent.
    llvm::SMLoc ExportLoc;
    /// `#[repr(u32)]` and the like (enums).
    std::optional<hir::Scalar> Repr;
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
  /// std::nullopt after an error. The name of an enum is its Repr.
  std::optional<hir::Scalar> parseScalarType(const llvm::Twine &Context);
  /// A scalar type or the name of a struct of this file (`Self` in an
  /// impl) at the current token; std::nullopt after an error.
  std::optional<hir::Type> parseType(const llvm::Twine &Context);

  //===--- Structs and impls (RustStruct.cpp) ----------------------------===//
  /// Pass 0 over the tokens: the names of the structs of the file and of
  /// the methods (functions with a `self` parameter) of its impls, so that
  /// types, literals and method calls are recognised before the items.
  void collectStructNames();
  /// `struct NAME { field: T, ... }` at the current `struct`.
  void parseStructItem(hir::Module &M);
  /// `impl NAME { fn ... }` or `impl TRAIT for NAME { ... }`.
  void parseImplItem(hir::Module &M);
  /// `NAME { field: e, ... }` after the struct's name \p Name.
  hir::ExprPtr parseStructLit(const RustToken &Name, hir::StructDecl *S);
  /// The struct that \p Name (a struct's name, or `Self` in an impl)
  /// denotes, or null.
  hir::StructDecl *structFor(llvm::StringRef Name, llvm::SMLoc Loc);
  /// `self`, `mut self`, `&self` or `&mut self` as the parameter of \p F
  /// (in an impl); \p Mutable tells a `mut` already consumed.
  bool parseSelfParam(hir::FunctionDecl &F, bool Mutable);

  //===--- Constants, enums and names (RustConst.cpp) --------------------===//
  /// Pass 1 over the module: parses every `const` and `enum` item (so
  /// that functions may use them before their declaration); pass 2 skips
  /// them.
  void collectModuleConsts();
  /// `const NAME: T = EXPR;` at the current `const`. Declares a module
  /// constant (\p Local false) or a local one (visible to the end of the
  /// block).
  bool parseConstItem(bool Local);
  /// `enum NAME { A, B = 5, C }` at the current `enum`.
  void parseEnumItem(const Attrs &A);
  /// Pass 1 over the items whose keyword is \p Keyword.
  void collectItems(llvm::StringRef Keyword);
  /// The typed literal of constant \p C (evaluated on first use); null
  /// after an error.
  const hir::Expr *constLiteral(RustConstItem &C, llvm::StringRef Name);
  /// Evaluates a constant expression of type \p Ty: literals, constants,
  /// enum variants, unary and binary operators and `as`. Reports and
  /// returns std::nullopt when \p E is not one or does not fit.
  std::optional<RustConstVal> evalConst(const hir::Expr &E,
                                        std::optional<hir::Scalar> Ty);
  /// The literal of \p V (typed when V.Ty is set) at \p Loc.
  static hir::ExprPtr makeLiteral(llvm::SMLoc Loc, const RustConstVal &V);
  /// What a name means in an expression here: a local, an alias of a
  /// pattern binding or a constant give a copy of their expression; null
  /// when the name is a plain variable.
  hir::ExprPtr resolveName(llvm::StringRef Name, llvm::SMLoc Loc);
  /// The value of enum variant `E::V` at \p Loc, or null when \p E is no
  /// enum (reports an unknown variant).
  hir::ExprPtr resolveEnumPath(llvm::StringRef E, const RustToken &V);
  /// The value of variant \p V of \p E (evaluating the discriminants on
  /// first use); reports an unknown variant at \p Loc.
  std::optional<RustConstVal> enumVariant(RustEnum &E, llvm::StringRef V,
                                          llvm::SMLoc Loc);
  void evalEnum(RustEnum &E);
  /// Converts \p V to \p Ty (a literal adopts it) with a range check;
  /// reports at \p Loc.
  std::optional<RustConstVal> convertConst(RustConstVal V, hir::Scalar Ty,
                                           llvm::SMLoc Loc, bool Explicit);
  /// The constant a pattern name denotes, or null.
  const hir::Expr *lookupConst(llvm::StringRef Name);
  /// Declares \p Name as a local variable from here to the end of the
  /// scope (it hides a constant or alias of the same name).
  void declareLocal(llvm::StringRef Name);
  /// A deep copy of \p E at location \p Loc (literals, names, operators).
  static hir::ExprPtr cloneExpr(const hir::Expr &E, llvm::SMLoc Loc);

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
  void parseStmtInner(RustBlock &B);
  hir::StmtPtr parseLet();
  hir::StmtPtr parseFor();
  bool parseForRange(hir::ForRangeStmt &F);
  /// `while c {}` / `loop {}`.
  hir::StmtPtr parseWhile();
  std::unique_ptr<RustIf> parseIf();
  hir::ExprPtr ifToExpr(std::unique_ptr<RustIf> If);
  /// The value of a branch block of an if-expression or a match arm.
  hir::ExprPtr blockToExpr(RustBlock B, llvm::SMLoc IfLoc);
  /// An expression statement, assignment or tail expression.
  void parseExprStmt(RustBlock &B);
  /// Consumes the `;` after a statement, or accepts a following `}`.
  bool endStmt(const llvm::Twine &What);
  /// Reports an assignment operator where a condition ends; false then.
  bool checkNoAssign();
  /// `shared(T, N)` / `wave::shared(T, N)` after `let name =`.
  hir::StmtPtr parseShared(const RustToken &Name);
  hir::StmtPtr ifToStmt(std::unique_ptr<RustIf> If, const ValueSink &S);
  /// Whether an if-expression needs statements (a branch with statements,
  /// a condition with statements) rather than a ConditionalExpr.
  bool ifNeedsStmts(const RustIf &If) const;
  bool blockNeedsStmts(const RustBlock &B) const;
  /// Moves the statements collected in Pre from index \p Mark on out;
  /// with \p KeepPure, a leading run of pure copies (`let match.s = x;`)
  /// stays in Pre (hoisting them is harmless).
  std::vector<hir::StmtPtr> takePre(size_t Mark, bool KeepPure = true);
  /// The block of \p B with its tail handled as \p S says.
  std::unique_ptr<hir::BlockStmt> finishBlock(RustBlock B,
                                              const ValueSink &S);
  /// A fresh hidden variable name with prefix \p Prefix ("match.s_3").
  std::string hiddenName(llvm::StringRef Prefix);
  /// Declares a hidden variable in Pre: `let NAME = Init;` or, with no
  /// Init, `let NAME;` typed by its first assignment. Returns the name.
  std::string declareHidden(llvm::StringRef Prefix, hir::ExprPtr Init,
                            llvm::SMLoc Loc);

  //===--- Patterns and match (RustMatch.cpp) ----------------------------===//
  /// `match` at the current token; null after an error that left no match.
  std::unique_ptr<RustMatch> parseMatch();
  /// A scrutinee: an expression or a tuple `(a, b)` of scrutinees.
  bool parseScrutinee(RustScrut &S);
  /// When \p P is a tuple pattern (also under `x @` or in `|`
  /// alternatives) and \p S one expression, a tuple value: copies it into
  /// a hidden variable declared in Pre and splits \p S into its elements
  /// (`match.s.0`, ...), as deep as \p P is.
  void expandScrutinee(const RustPat &P, RustScrut &S, llvm::StringRef Prefix);
  /// Copies the leaves of \p S into hidden variables declared in Pre
  /// (literals stay) and appends them to \p Leaves in tuple order.
  void scrutineeLeaves(RustScrut &S, std::vector<hir::ExprPtr> &Leaves,
                       llvm::StringRef Prefix);
  /// A pattern with `|` alternatives; false after a reported error.
  bool parsePattern(RustPat &P);
  bool parsePatternNoOr(RustPat &P);
  /// A literal pattern or range bound: `5`, `-5`, `true`, `N`, `E::V`.
  hir::ExprPtr parsePatConst(RustConstVal &V);
  /// Reports a pattern whose shape does not fit the scrutinee's.
  bool checkPat(const RustPat &P, const RustScrut &S);
  /// The test of \p P on the leaves of \p S from \p First; null when
  /// every value matches.
  hir::ExprPtr patTest(const RustPat &P, const RustScrut &S,
                       const std::vector<hir::ExprPtr> &Leaves, size_t First);
  /// Makes the bindings of \p P aliases of their leaves (in Names); with
  /// \p BlockBody, a `mut` binding becomes a real variable declared in
  /// \p RealDecls instead. False after a reported error.
  bool bindPattern(const RustPat &P, const RustScrut &S,
                   const std::vector<hir::ExprPtr> &Leaves, size_t First,
                   bool BlockBody, std::vector<hir::StmtPtr> &RealDecls);
  /// Whether the unguarded arms of \p M cover every value; reports a
  /// non-exhaustive match otherwise.
  bool checkExhaustive(const RustMatch &M);
  bool matchNeedsStmts(const RustMatch &M) const;
  /// The test that selects arm \p A of \p M (its pattern's test and
  /// guard); null when it needs none: no test and no guard, or the last
  /// arm (\p Last) of an \p Exhaustive match without a guard.
  hir::ExprPtr armTest(RustMatch &M, RustArm &A, bool Last, bool Exhaustive);
  hir::StmtPtr matchToStmt(std::unique_ptr<RustMatch> M, const ValueSink &S);
  hir::ExprPtr matchToExpr(std::unique_ptr<RustMatch> M);
  /// `let PAT = EXPR` after `if`: sets If.Cond and If.CondPre and makes
  /// the bindings (\p RealDecls go first in the then-block). False after
  /// an error.
  bool parseIfLet(RustIf &If, std::vector<hir::StmtPtr> &RealDecls);
  /// `while let PAT = EXPR { body }` after `while`.
  hir::StmtPtr parseWhileLet(llvm::SMLoc WhileLoc);
  /// `let (a, b) = (x, y);` at the `(` after `let`.
  hir::StmtPtr parseLetTuple();

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
  /// The module being parsed (for its structs).
  hir::Module *Mod = nullptr;
  /// Pass 0 (collectStructNames): struct names and method names.
  llvm::StringSet<> StructNames, MethodNames;
  /// The struct of the impl being parsed.
  hir::StructDecl *CurImpl = nullptr;
  /// The function being parsed has a `self` parameter.
  bool HasSelf = false;
  hir::DiagnosticEngine &Diags;
  unsigned Depth = 0;
  bool TooDeep = false;
  /// A `..` / `..=` may follow the expression (a `for` header).
  bool RangeAllowed = false;
  /// An `if`/`while` condition or scrutinee: `Name {` is not a struct
  /// literal.
  bool NoStructLiteral = false;
  /// Parsing a constant's initialiser: names are left unresolved.
  bool InConstInit = false;
  /// Statements the expression being parsed needs before it.
  std::vector<hir::StmtPtr> Pre;
  unsigned NextHidden = 0;
  /// Scoped names that hide module constants: locals, aliases of pattern
  /// bindings (Template: what they stand for) and local constants.
  struct NameEntry {
    std::string Name;
    enum Kind : uint8_t { Local, Alias, Const } K;
    hir::ExprPtr Template;
  };
  std::vector<NameEntry> Names;
  llvm::StringMap<RustConstItem> ModuleConsts;
  std::vector<std::string> ModuleConstOrder;
  llvm::StringMap<std::unique_ptr<RustEnum>> Enums;
  /// The items pass 1 parsed: their keyword's token index and the index
  /// past their end (skipped by pass 2).
  llvm::DenseMap<size_t, size_t> ConstItemEnds;
};

} // namespace wave::fe

#endif // WAVE_LIB_FRONTEND_RUST_RUSTPARSER_H
