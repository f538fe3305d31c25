//===- SemaInternal.h - The checker shared by the Sema files ----*- C++ -*-===//
//
// Private to libwave/lib/HIR. Sema.cpp holds names, types and statements;
// SemaIntrinsics.cpp the intrinsic calls; SemaGPU.cpp the whole-module GPU
// rules (recursion, barriers under divergent control, return paths).
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_LIB_HIR_SEMAINTERNAL_H
#define WAVE_LIB_HIR_SEMAINTERNAL_H

#include "wave/HIR/Diagnostics.h"
#include "wave/HIR/HIR.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace wave::hir {

/// The conversion rules of one language (formats/kernel-languages.md,
/// "Types and conversions").
struct LanguageRules {
  /// Operands of different scalar types promote to the higher of
  /// bool < i32 < u32 < f16 < f32 < f64 (Python, C++); otherwise they must
  /// match (Rust, TypeScript).
  bool PromoteMixed;
  /// Assignments, initialisers, arguments and returns convert implicitly
  /// to a higher type (Python, C++).
  bool ImplicitWiden;
  /// ... and to any scalar type, narrowing included (C++).
  bool ImplicitNarrow;
  /// A number may stand where a condition is expected (Python, C++,
  /// TypeScript): it is true when not zero.
  bool Truthiness;
  /// A variable initialised by a literal takes the type of its first typed
  /// use (Python, Rust, TypeScript); C++'s `auto` takes the literal's
  /// default type at once, as C++ does.
  bool InferFromUse;
  /// The type of an integer literal that no context types (std::nullopt:
  /// an error asking for an annotation; TypeScript's is f64).
  std::optional<Scalar> DefaultInt;
  /// The same for a float literal.
  std::optional<Scalar> DefaultFloat;
  /// How to write a conversion in this language, for hints, with T where
  /// the type goes: "T(x)", "x as T", "static_cast<T>(x)".
  const char *CastPattern;
  /// The language's name in messages ("Python", "C++", ...).
  const char *DisplayName;
};

const LanguageRules &rulesFor(Language L);

/// What a name is bound to in a scope.
struct Binding {
  VarDecl *Var = nullptr;
  const Param *Parm = nullptr;
  const SharedDecl *Shared = nullptr;
  llvm::SMLoc loc() const;
};

/// Checks one module. Pass 1 of every function runs quietly (diagnostics
/// suppressed, no conversions inserted) to infer the types of variables
/// initialised by a literal from their first typed use; pass 2 reports and
/// rewrites.
class Sema {
public:
  Sema(Module &M, DiagnosticEngine &Diags)
      : M(M), Diags(Diags), Rules(rulesFor(M.Lang)) {}

  bool run();

  // --- Types ---------------------------------------------------------------
  /// Checks \p E and returns its type (also stored in E->Ty). Past
  /// MaxNestDepth nested expressions and statements, reports once and
  /// returns Invalid without descending.
  Type checkExpr(ExprPtr &E);
  Type checkExprNode(ExprPtr &E);
  /// Counts one more level of nesting at \p Loc; false (reported once)
  /// past MaxNestDepth.
  bool enterNesting(llvm::SMLoc Loc);
  /// Gives \p E the scalar type \p To: a literal adopts it (range-checked),
  /// a typed value converts when the language allows it implicitly
  /// (\p Explicit: any scalar conversion). Reports and returns false
  /// otherwise. \p What names the context for messages ("initialiser of
  /// 'x'").
  bool coerce(ExprPtr &E, Scalar To, const llvm::Twine &What,
              bool Explicit = false);
  /// Converts a condition to bool (Truthiness) or reports.
  bool coerceToBool(ExprPtr &E, const llvm::Twine &What);
  /// The common type of two operands of \p Op at \p Loc, or Invalid after
  /// reporting. Literal with literal stays a literal type.
  Type unify(const Type &L, const Type &R, llvm::SMLoc Loc,
             llvm::StringRef OpSpelling);
  /// Turns a literal type into a concrete one by the language's default;
  /// reports at \p Loc when there is none (TypeScript).
  std::optional<Scalar> defaultScalar(const Type &T, llvm::SMLoc Loc);
  /// The written conversion of x to \p To in this language ("x as u32").
  std::string castHint(Scalar To) const;
  /// The type of \p V, declared without a type, from the type of its
  /// first value: a scalar as it is; a literal stays pending in the quiet
  /// pass, then takes the type its first typed use gave it there, or the
  /// language's default (Invalid, reported, when there is none).
  Type typeFromValue(const VarDecl &V, const Type &ValueTy);
  /// Whether a value of \p From converts to \p To without a written cast.
  bool implicitlyConverts(Scalar From, Scalar To) const;

  // --- Intrinsics (SemaIntrinsics.cpp) ---------------------------------------
  /// Checks a call whose callee names an intrinsic or a cast (which
  /// replaces \p Self, the owner of \p C, with a CastExpr); returns
  /// std::nullopt when it names neither.
  std::optional<Type> checkIntrinsicCall(CallExpr &C, ExprPtr &Self);
  /// The scalar a cast written as a call converts to (`f32(x)`, Python
  /// `int(x)`), if \p Name is one.
  static std::optional<Scalar> castCallTarget(llvm::StringRef Name,
                                              Language L);
  /// Whether \p Name (after dropping a `wave_` prefix where that names a
  /// wave operation) is an intrinsic or cast name.
  static bool isIntrinsicName(llvm::StringRef Name, Language L);

  // --- Constant folding ----------------------------------------------------
  /// The value of an integer constant expression made of literals and
  /// + - * / % << >> & | ^ and unary -; std::nullopt otherwise.
  static std::optional<int64_t> evalConstInt(const Expr &E);

  DiagnosticEngine &diags() { return Diags; }
  const LanguageRules &rules() const { return Rules; }
  /// True in the quiet inference pass.
  bool quiet() const { return Quiet; }

private:
  void checkFunctionBody(FunctionDecl &F);
  void checkStmt(StmtPtr &S);
  void checkStmtNode(StmtPtr &S);
  void checkBlock(BlockStmt &B, bool NewScope = true);
  void checkVarDecl(VarDecl &V);
  void checkAssign(AssignStmt &A);
  Type checkName(NameExpr &N);
  Type checkBinary(BinaryExpr &B, ExprPtr &Self);
  Type checkUnary(UnaryExpr &U, ExprPtr &Self);
  Type checkCompareChain(CompareChainExpr &C);
  Type checkConditional(ConditionalExpr &C);
  Type checkIndex(IndexExpr &X);
  Type checkCall(CallExpr &C, ExprPtr &Self);
  Type checkCast(CastExpr &C);

  // --- Structs (SemaStruct.cpp) ----------------------------------------------
  /// Checks the struct declarations: defined, fields of scalar or struct
  /// type, no struct containing itself.
  void checkStructs();
  Type checkStructLit(StructLitExpr &L);
  /// A tuple literal that nothing typed (StructLitExpr::Tuple): its type
  /// from its elements'.
  Type checkTupleLit(StructLitExpr &L);
  /// Tells a tuple literal \p E (or each branch of a conditional one)
  /// that it initialises a \p To, which becomes its type when \p To is a
  /// tuple of as many elements. Called before \p E is checked.
  void expectType(Expr &E, const Type &To);
  Type checkMember(MemberExpr &Mem);
  /// Gives \p E the type \p To: coerce() for a scalar, the same struct
  /// for a struct. Reports and returns false otherwise.
  bool coerceTo(ExprPtr &E, const Type &To, const llvm::Twine &What);
  /// `a op b` or `op a` whose left (only) operand \p LHS is a struct:
  /// the method of the operator trait's impl, called. Replaces \p Self
  /// (the operator, which owns \p LHS and \p RHS) with the call and checks
  /// it; reports and leaves \p Self as it is when there is no such impl.
  Type checkOperatorCall(ExprPtr &Self, llvm::SMLoc Loc,
                         llvm::StringRef Spelling, llvm::StringRef Trait,
                         ExprPtr &LHS, ExprPtr *RHS);
  /// A compound assignment to a struct place: becomes a call of the
  /// `*Assign` trait's method (`a += b` is `a.add_assign(b)`).
  void checkCompoundStructAssign(StmtPtr &SP);
  /// The type of a variable or parameter named by \p E, or of a field of
  /// one, found without reporting; Invalid when \p E is no such place.
  Type placeType(const Expr &E) const;
  /// The variable or parameter at the root of a place expression, or null.
  static const NameExpr *placeRoot(const Expr &E);
  /// The trait method of struct \p S named \p Method, or null.
  const FunctionDecl *traitMethod(const StructDecl &S, llvm::StringRef Method);
  /// Settles a literal-typed operand of a comparison chain or similar.
  void settleLiteral(ExprPtr &E, const Type &T);

  void pushScope() { Scopes.emplace_back(); }
  void popScope() { Scopes.pop_back(); }
  /// Declares \p Name in the innermost scope (or function scope for
  /// Python); reports a redeclaration where the language forbids one.
  void declare(llvm::StringRef Name, Binding B, llvm::SMLoc Loc);
  const Binding *lookup(llvm::StringRef Name) const;

  Module &M;
  DiagnosticEngine &Diags;
  const LanguageRules &Rules;
  FunctionDecl *CurFn = nullptr;
  unsigned LoopDepth = 0;
  /// Nesting of checkExpr/checkStmt. The parsers build operator chains
  /// (`x + x + ... + x`) and `elif` chains iteratively, so a tree can be far
  /// deeper than the parsers' own recursion limit; every later walk of the
  /// tree (this one, the lowering to MIR) recurses, so a bound here keeps
  /// them all within the stack, ASan's larger frames included.
  static constexpr unsigned MaxNestDepth = 1024;
  unsigned NestDepth = 0;
  bool NestTooDeep = false;
  bool Quiet = false;
  std::vector<llvm::StringMap<Binding>> Scopes;
  /// Pass 1 results: the type a literal-initialised variable first met.
  llvm::DenseMap<const VarDecl *, Scalar> Inferred;
  uint32_t SharedOffset = 0;
};

/// Bytes of workgroup memory one kernel's shared arrays may take.
inline constexpr uint32_t MaxSharedBytes = 65536;
/// Kernel parameters: one register each, r0..r31 (formats/kernel-abi.md).
inline constexpr unsigned MaxKernelParams = 32;

/// Calls \p Fn on every expression of \p E, children first.
void forEachExpr(const Expr &E, llvm::function_ref<void(const Expr &)> Fn);
/// Calls \p OnStmt on every statement and \p OnExpr on every expression
/// of \p S (statements before their children).
void forEachNode(const Stmt &S, llvm::function_ref<void(const Stmt &)> OnStmt,
                 llvm::function_ref<void(const Expr &)> OnExpr);

/// Whole-module GPU rules after types (SemaGPU.cpp): recursion,
/// barrier() under thread-dependent control flow, return on every path.
void checkGPURules(Module &M, DiagnosticEngine &Diags);

} // namespace wave::hir

#endif // WAVE_LIB_HIR_SEMAINTERNAL_H
