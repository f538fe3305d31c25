//===- ClangLowering.h - Clang's AST to HIR ---------------------*- C++ -*-===//
//
// Private to the C++ frontend (Cpp/ClangFrontend.cpp runs Clang; this is
// what reads its AST). Lowering turns the definitions a translation unit's
// kernels use into the unchecked HIR the other parsers build
// (formats/kernel-languages.md, "Through Clang"): ClangLowering.cpp holds
// functions, statements and expressions, ClangClasses.cpp classes as HIR
// structs.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_LIB_FRONTEND_CPP_CLANGLOWERING_H
#define WAVE_LIB_FRONTEND_CPP_CLANGLOWERING_H

#include "wave/HIR/Diagnostics.h"
#include "wave/HIR/HIR.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/TemplateBase.h"
#include "clang/Basic/SourceManager.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/SourceMgr.h"

#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace wave::fe::clangfe {

using llvm::SMLoc;
using llvm::StringRef;

/// The annotation a wave:: attribute becomes on the function it marks.
constexpr const char *KernelNote = "wave.kernel";
constexpr const char *ExportNote = "wave.export";
constexpr const char *WorkgroupNote = "wave.workgroup_size";
constexpr const char *SharedNote = "wave.shared";

/// Clang source locations as positions in the SourceMgr buffer the
/// frontend was given: the main file directly, a user header at the
/// `#include` that brought it in, the prelude nowhere.
class LocationMap {
public:
  LocationMap(const llvm::SourceMgr &SM, unsigned BufferID)
      : Buffer(SM.getMemoryBuffer(BufferID)) {}
  void setSourceManager(const clang::SourceManager *CSM) { this->CSM = CSM; }
  SMLoc map(clang::SourceLocation L) const {
    if (!CSM || L.isInvalid())
      return SMLoc();
    L = CSM->getFileLoc(L);
    clang::FileID F = CSM->getFileID(L);
    while (F.isValid() && F != CSM->getMainFileID()) {
      L = CSM->getIncludeLoc(F);
      if (L.isInvalid())
        return SMLoc();
      F = CSM->getFileID(L);
    }
    if (F != CSM->getMainFileID())
      return SMLoc();
    unsigned Off = CSM->getFileOffset(L);
    if (Off > Buffer->getBufferSize())
      return SMLoc();
    return SMLoc::getFromPointer(Buffer->getBufferStart() + Off);
  }

private:
  const llvm::MemoryBuffer *Buffer;
  const clang::SourceManager *CSM = nullptr;
};

class Lowering {
public:
  Lowering(clang::ASTContext &Ctx, LocationMap &Locs,
           hir::DiagnosticEngine &Diags)
      : Ctx(Ctx), Locs(Locs), Diags(Diags) {}

  std::unique_ptr<hir::Module> run();

  /// The deepest statement and expression nesting lowered (Clang's nodes,
  /// implicit ones included); deeper input is one error. HIR Sema's own
  /// limit of 1024 levels (formats/kernel-languages.md §7) is lower, so
  /// this one is reached only where HIR could not be built at all.
  static constexpr unsigned MaxDepth = 4096;

private:
  /// Counts one level of nesting; false (after one error) past MaxDepth.
  bool enter(clang::SourceLocation L) {
    if (++Depth <= MaxDepth)
      return true;
    if (!DepthReported)
      Diags.error(loc(L), "expressions and statements nested more than "
                          "1024 levels deep (split the expression or the "
                          "chain of branches)");
    DepthReported = true;
    return false;
  }
  unsigned Depth = 0;
  bool DepthReported = false;
  /// The file's non-template functions (namespaces included) in source
  /// order, the prelude's intrinsics left out.
  std::vector<const clang::FunctionDecl *> topLevelFunctions() const;
  void collectFunctions(const clang::DeclContext *DC,
                        std::vector<const clang::FunctionDecl *> &Out) const;
  /// Reports every virtual member function of the file's classes: WAVE has
  /// no indirect calls (formats/kernel-languages.md, "C++").
  void rejectVirtualClasses(const clang::DeclContext *DC);
  SMLoc loc(clang::SourceLocation L) const { return Locs.map(L); }
  SMLoc loc(const clang::Stmt *S) const { return loc(S->getBeginLoc()); }
  /// The `[` of \p A (Clang records only the `]`), where the dialect's
  /// parser places an element access: the first `[` after the base.
  SMLoc lbracket(const clang::ArraySubscriptExpr *A) const {
    SMLoc Base = loc(A->getBase()->getEndLoc()), End = loc(A->getRBracketLoc());
    if (!Base.isValid() || !End.isValid())
      return End;
    const char *P = Base.getPointer();
    while (P < End.getPointer() && *P != '[')
      ++P;
    return SMLoc::getFromPointer(P);
  }
  void unsupported(clang::SourceLocation L, const llvm::Twine &What) {
    Diags.error(loc(L), What + " is not supported in WAVE kernels");
  }

  static bool hasNote(const clang::Decl *D, StringRef Note) {
    for (const auto *A : D->specific_attrs<clang::AnnotateAttr>())
      if (A->getAnnotation() == Note)
        return true;
    return false;
  }
  static const clang::AnnotateAttr *note(const clang::Decl *D,
                                         StringRef Note) {
    for (const auto *A : D->specific_attrs<clang::AnnotateAttr>())
      if (A->getAnnotation() == Note)
        return A;
    return nullptr;
  }
  /// Whether \p F is declared by the prelude (an intrinsic).
  bool isIntrinsic(const clang::FunctionDecl *F) const;

  std::optional<hir::Scalar> scalar(clang::QualType T) const;
  std::optional<hir::Type> paramType(const clang::ParmVarDecl *P);

  /// The HIR name of \p F: its own name, unless another lowered function
  /// has the same one (overloads, template instantiations), then the name
  /// and the parameter types (`add.f32.f32`).
  std::string nameOf(const clang::FunctionDecl *F);
  /// The suffix template arguments \p Args add to the name of an
  /// instantiation, each after a '.': a scalar type's name (`f32`; `t` for
  /// another type), an integer (`4`, `n5` for -5), `a` for anything else
  /// (`sumN<float, 4>` is sumN.f32.4, `V<float>` V.f32).
  std::string
  templateSuffix(llvm::ArrayRef<clang::TemplateArgument> Args) const;
  /// Queues \p F for lowering (once).
  void require(const clang::FunctionDecl *F);
  void lowerFunction(const clang::FunctionDecl *F);

  std::unique_ptr<hir::BlockStmt> block(const clang::Stmt *S);
  void stmt(const clang::Stmt *S, std::vector<hir::StmtPtr> &Out);
  void varDecl(const clang::VarDecl *V, std::vector<hir::StmtPtr> &Out);
  hir::StmtPtr simpleStmt(const clang::Stmt *S);
  hir::ExprPtr expr(const clang::Expr *E);
  hir::ExprPtr call(const clang::CallExpr *C);

  //===--- Classes: HIR structs (ClangClasses.cpp) -----------------------===//
  /// The class type of \p T (references looked through), or null.
  static const clang::CXXRecordDecl *recordOf(clang::QualType T);
  /// The HIR struct of class type \p T, defined from its members on first
  /// use (an instantiation is named by its template arguments, `V.f32`);
  /// null, after an error at \p L, for a class with base classes, virtual
  /// functions, a union or a member that is not a number, bool or such a
  /// class.
  hir::StructDecl *structOf(clang::QualType T, clang::SourceLocation L);
  /// The HIR type of a value of type \p T: a scalar or a struct.
  std::optional<hir::Type> valueType(clang::QualType T,
                                     clang::SourceLocation L);
  /// The HIR name of member function \p MD: `Class::name`, operators
  /// spelled out (`operator*` is `Class::op_mul`), constructors
  /// `Class::ctor`, overloads followed by their parameter types.
  std::string methodName(const clang::CXXMethodDecl *MD);
  /// A struct literal of \p S with every leaf 0 (a trivial default
  /// constructor, an omitted aggregate member).
  hir::ExprPtr zeroValue(const hir::StructDecl *S, SMLoc L);
  /// The class-typed initializer list \p IL as a struct literal.
  hir::ExprPtr aggregate(const clang::InitListExpr *IL);
  /// A construction: a trivial copy is its argument, a trivial default
  /// constructor zeros, any other a call of the constructor's function.
  hir::ExprPtr construct(const clang::CXXConstructExpr *CE);
  /// A member function or operator call `recv.f(args)` as a call of its
  /// HIR function with the receiver first.
  hir::ExprPtr memberCall(const clang::CXXMethodDecl *MD,
                          const clang::Expr *Recv,
                          llvm::ArrayRef<const clang::Expr *> Args,
                          clang::SourceLocation L);
  /// Completes a constructor's HIR body: `this` is a local of the class
  /// (zeros), the member initializers (and default member initializers)
  /// assign it, the written body follows and the function returns it.
  void constructorBody(const clang::CXXConstructorDecl *Ctor,
                       const hir::StructDecl *S, hir::FunctionDecl &FD);
  /// The name an overloaded operator's function gets (`*` is "mul", `+=`
  /// "add_assign"), as HIR's operator methods are named.
  static std::string operatorName(clang::OverloadedOperatorKind K);
  /// While a constructor's body is lowered: `return;` returns `this`.
  bool InConstructor = false;
  /// While a `C& operator...` body is lowered: `return *this;` returns
  /// nothing.
  bool ReturnsThis = false;
  /// The HIR name of a local or parameter.
  std::string varName(const clang::ValueDecl *D) const {
    return D->getNameAsString();
  }
  /// Whether \p E names a place a reference local may stand for: a local
  /// or parameter that is no buffer or array, or a member (`.`) of one or
  /// of `*this`.
  bool isPlace(const clang::Expr *E) const;
  /// The place \p E (isPlace), at \p L: a reference local's use.
  hir::ExprPtr refPlace(const clang::Expr *E, SMLoc L);
  /// Reference locals (`float& r = x;`) and the place each refers to:
  /// they get no HIR variable, each use is the place itself.
  llvm::DenseMap<const clang::VarDecl *, const clang::Expr *> RefAliases;
  /// The parameters and locals lowered so far in the current function,
  /// by name (the places references may name must not be hidden).
  llvm::StringMap<llvm::SmallVector<const clang::ValueDecl *, 1>> LocalNames;

  llvm::DenseMap<const clang::CXXRecordDecl *, hir::StructDecl *> Structs;

  clang::ASTContext &Ctx;
  LocationMap &Locs;
  hir::DiagnosticEngine &Diags;
  std::unique_ptr<hir::Module> M;
  std::deque<const clang::FunctionDecl *> Work;
  llvm::DenseMap<const clang::FunctionDecl *, std::string> Names;
  /// Names of more than one non-template function of the file.
  llvm::StringSet<> Overloaded;
};

} // namespace wave::fe::clangfe

#endif // WAVE_LIB_FRONTEND_CPP_CLANGLOWERING_H
