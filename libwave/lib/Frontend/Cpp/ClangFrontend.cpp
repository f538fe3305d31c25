//===- ClangFrontend.cpp - C++ kernels through Clang's front end ----------===//
//
// parseCppWithClang: the C++ dialect parsed and checked by Clang (C++20, in
// process), then lowered from Clang's AST to the same unchecked HIR the
// other parsers build (formats/kernel-languages.md, "C++").
//
// * Clang sees the user's file after a prelude (WavePrelude below) that
//   declares the intrinsics, the WAVE type names (`f32`, `u32`, `half`, the
//   `uint32_t` family), `__kernel`, `__shared__` and the CUDA-style
//   qualifiers the dialect ignores. `#include <cstdint>`-style system
//   headers resolve to empty files; `#include "x.h"` reads the user's header
//   next to the source. The attributes `[[wave::kernel]]`,
//   `[[wave::workgroup_size(X, Y, Z)]]` and `[[wave::export]]` are
//   registered with Clang's attribute registry and become annotations.
// * Clang resolves names, instantiates templates, picks overloads and
//   checks C++; its errors (and their notes) become our located
//   diagnostics, with Clang's wording.
// * Lowering walks the definitions the kernels use: the kernels, every
//   function they call (template instantiations and overloads included, each
//   a HIR function of its own with a unique name) and exported functions.
//   Implicit conversions are dropped: HIR Sema applies the dialect's
//   conversion rules again (formats/kernel-languages.md "Conversions"), so an
//   unsuffixed literal still takes its context's type, and every kernel
//   lowers to the MIR of the hand-written parser.
//
//===----------------------------------------------------------------------===//
#include "wave/Frontend/Frontend.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Basic/ParsedAttrInfo.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/Lexer.h"
#include "clang/Sema/ParsedAttr.h"
#include "clang/Sema/Sema.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <deque>

using namespace wave;
using llvm::SMLoc;
using llvm::StringRef;

namespace {

//===----------------------------------------------------------------------===//
// The wave:: attributes
//===----------------------------------------------------------------------===//

/// The annotation a wave:: attribute becomes on the function it marks.
constexpr const char *KernelNote = "wave.kernel";
constexpr const char *ExportNote = "wave.export";
constexpr const char *WorkgroupNote = "wave.workgroup_size";
constexpr const char *SharedNote = "wave.shared";

/// [[wave::kernel]], [[wave::export]] (no arguments) and
/// [[wave::workgroup_size(X[, Y[, Z]])]] on functions.
struct WaveAttrInfo : clang::ParsedAttrInfo {
  WaveAttrInfo(const char *Note, unsigned OptArgs,
               llvm::ArrayRef<Spelling> Spellings)
      : Note(Note) {
    this->OptArgs = OptArgs;
    this->Spellings = Spellings;
  }
  bool diagAppertainsToDecl(clang::Sema &S, const clang::ParsedAttr &A,
                            const clang::Decl *D) const override {
    if (llvm::isa<clang::FunctionDecl>(D) ||
        llvm::isa<clang::FunctionTemplateDecl>(D))
      return true;
    S.Diag(A.getLoc(), clang::diag::warn_attribute_wrong_decl_type_str)
        << A << A.isRegularKeywordAttribute() << "functions";
    return false;
  }
  AttrHandling handleDeclAttribute(clang::Sema &S, clang::Decl *D,
                                   const clang::ParsedAttr &A) const override {
    if (!A.getScopeName() || A.getScopeName()->getName() != "wave")
      return AttributeNotApplied;
    llvm::SmallVector<clang::Expr *, 3> Args;
    for (unsigned I = 0; I != A.getNumArgs(); ++I)
      if (A.isArgExpr(I))
        Args.push_back(A.getArgAsExpr(I));
    D->addAttr(clang::AnnotateAttr::Create(S.Context, Note, Args.data(),
                                           Args.size(), A.getRange()));
    return AttributeApplied;
  }
  const char *Note;
};

constexpr clang::ParsedAttrInfo::Spelling KernelSpellings[] = {
    {clang::ParsedAttr::AS_CXX11, "wave::kernel"}};
constexpr clang::ParsedAttrInfo::Spelling ExportSpellings[] = {
    {clang::ParsedAttr::AS_CXX11, "wave::export"}};
// The unscoped spelling is there for the parser only: it asks plugins about
// an attribute's arguments by the unscoped name (clang::hasAttribute), and
// skips them for an attribute it does not know. handleDeclAttribute ignores
// an attribute without the wave:: scope.
constexpr clang::ParsedAttrInfo::Spelling WorkgroupSpellings[] = {
    {clang::ParsedAttr::AS_CXX11, "wave::workgroup_size"},
    {clang::ParsedAttr::AS_CXX11, "workgroup_size"}};

struct KernelAttr : WaveAttrInfo {
  KernelAttr() : WaveAttrInfo(KernelNote, 0, KernelSpellings) {}
};
struct ExportAttr : WaveAttrInfo {
  ExportAttr() : WaveAttrInfo(ExportNote, 0, ExportSpellings) {}
};
struct WorkgroupAttr : WaveAttrInfo {
  WorkgroupAttr() : WaveAttrInfo(WorkgroupNote, 3, WorkgroupSpellings) {}
};

clang::ParsedAttrInfoRegistry::Add<KernelAttr> RegKernel("wave-kernel", "");
clang::ParsedAttrInfoRegistry::Add<ExportAttr> RegExport("wave-export", "");
clang::ParsedAttrInfoRegistry::Add<WorkgroupAttr> RegWG("wave-workgroup", "");

//===----------------------------------------------------------------------===//
// The prelude
//===----------------------------------------------------------------------===//

/// Declarations every kernel file sees first. Intrinsics are loosely typed:
/// Clang only has to accept the calls, HIR Sema checks them by the
/// dialect's rules (Intrinsics.def).
constexpr const char *WavePrelude = R"cpp(
typedef float f32; typedef double f64; typedef _Float16 half;
typedef _Float16 f16; typedef int i32; typedef unsigned u32;
typedef unsigned uint; typedef int int32_t; typedef unsigned uint32_t;
namespace std { using ::int32_t; using ::uint32_t; }
#define __kernel __attribute__((annotate("wave.kernel")))
#define __shared__ __attribute__((annotate("wave.shared")))
#define __restrict__ __restrict
#define __global
#define __global__ __attribute__((annotate("wave.cuda_global")))
#define __device__
#define __forceinline__ inline
#define __noinline__
namespace wave {
template <class A, class B> using __common = decltype(true ? A() : B());
u32 thread_id(u32 d = 0); u32 workgroup_id(u32 d = 0);
u32 workgroup_size(u32 d = 0); u32 grid_size(u32 d = 0);
u32 global_id(u32 d = 0); u32 lane_id(); u32 wave_width();
void barrier(); void fence();
#define WAVE_ATOMIC(N) template <class T, class I, class V> T N(T *, I, V);
WAVE_ATOMIC(atomic_add) WAVE_ATOMIC(atomic_sub) WAVE_ATOMIC(atomic_min)
WAVE_ATOMIC(atomic_max) WAVE_ATOMIC(atomic_and) WAVE_ATOMIC(atomic_or)
WAVE_ATOMIC(atomic_xor) WAVE_ATOMIC(atomic_exchange)
#undef WAVE_ATOMIC
template <class T, class I, class E, class D> T atomic_cas(T *, I, E, D);
#define WAVE_UNARY(N) template <class T> T N(T);
WAVE_UNARY(reduce_add) WAVE_UNARY(reduce_min) WAVE_UNARY(reduce_max)
WAVE_UNARY(prefix_sum) WAVE_UNARY(wave_reduce_add) WAVE_UNARY(wave_reduce_min)
WAVE_UNARY(wave_reduce_max) WAVE_UNARY(wave_prefix_sum)
WAVE_UNARY(sqrt) WAVE_UNARY(rsqrt) WAVE_UNARY(rcp) WAVE_UNARY(sin)
WAVE_UNARY(cos) WAVE_UNARY(exp2) WAVE_UNARY(log2) WAVE_UNARY(exp)
WAVE_UNARY(log) WAVE_UNARY(floor) WAVE_UNARY(ceil) WAVE_UNARY(round)
WAVE_UNARY(trunc) WAVE_UNARY(fract) WAVE_UNARY(abs)
#undef WAVE_UNARY
#define WAVE_SHUFFLE(N) template <class T, class L> T N(T, L);
WAVE_SHUFFLE(shuffle) WAVE_SHUFFLE(shuffle_up) WAVE_SHUFFLE(shuffle_down)
WAVE_SHUFFLE(shuffle_xor) WAVE_SHUFFLE(broadcast)
WAVE_SHUFFLE(wave_shuffle) WAVE_SHUFFLE(wave_shuffle_up)
WAVE_SHUFFLE(wave_shuffle_down) WAVE_SHUFFLE(wave_shuffle_xor)
WAVE_SHUFFLE(wave_broadcast)
#undef WAVE_SHUFFLE
u32 ballot(bool); bool any(bool); bool all(bool);
u32 wave_ballot(bool); bool wave_any(bool); bool wave_all(bool);
template <class A, class B> __common<A, B> min(A, B);
template <class A, class B> __common<A, B> max(A, B);
template <class A, class L, class H> A clamp(A, L, H);
template <class F, class T, class I, class S> void mma_load_a(F, T *, I, S);
template <class F, class T, class I, class S> void mma_load_b(F, T *, I, S);
template <class T, class I, class S, class F> void mma_store_c(T *, I, S, F);
template <class A, class B, class C> void mma_compute(A, B, C);
template <class A, class B, class C> A fma(A, B, C);
}
namespace std { using namespace ::wave; }
using namespace wave;
)cpp";

/// System headers a kernel may include; they resolve to empty files (the
/// prelude declares what they would).
constexpr const char *EmptyHeaders[] = {
    "cstdint", "stdint.h", "cmath", "math.h", "cstddef", "stddef.h",
    "wave.h",  "wave.hpp", "algorithm", "cstdlib", "type_traits"};

//===----------------------------------------------------------------------===//
// Diagnostics
//===----------------------------------------------------------------------===//

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

/// Clang's errors and their notes into the frontend's DiagnosticEngine
/// (warnings are not shown: the dialect's checker has its own).
class DiagForwarder : public clang::DiagnosticConsumer {
public:
  DiagForwarder(hir::DiagnosticEngine &Diags, LocationMap &Locs)
      : Diags(Diags), Locs(Locs) {}
  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override {
    clang::DiagnosticConsumer::HandleDiagnostic(Level, Info);
    llvm::SmallString<128> Msg;
    Info.FormatDiagnostic(Msg);
    SMLoc Loc = Info.hasSourceManager() ? Locs.map(Info.getLocation())
                                        : SMLoc();
    if (Level >= clang::DiagnosticsEngine::Error) {
      Diags.error(Loc, Msg);
      LastWasError = true;
    } else if (Level == clang::DiagnosticsEngine::Note && LastWasError) {
      Diags.note(Loc, Msg);
    } else if (Level != clang::DiagnosticsEngine::Note) {
      LastWasError = false;
    }
  }

private:
  hir::DiagnosticEngine &Diags;
  LocationMap &Locs;
  bool LastWasError = false;
};

//===----------------------------------------------------------------------===//
// AST to HIR
//===----------------------------------------------------------------------===//

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
  /// Queues \p F for lowering (once).
  void require(const clang::FunctionDecl *F);
  void lowerFunction(const clang::FunctionDecl *F);

  std::unique_ptr<hir::BlockStmt> block(const clang::Stmt *S);
  void stmt(const clang::Stmt *S, std::vector<hir::StmtPtr> &Out);
  void varDecl(const clang::VarDecl *V, std::vector<hir::StmtPtr> &Out);
  hir::StmtPtr simpleStmt(const clang::Stmt *S);
  hir::ExprPtr expr(const clang::Expr *E);
  hir::ExprPtr call(const clang::CallExpr *C);

  //===--- Structs and classes: scalarised, their functions inlined ------===//
  /// One scalar of a flattened struct: its path below the object
  /// (".re", ".pos.x") and type.
  struct Field {
    std::string Path;
    hir::Scalar Ty;
  };
  /// The class type of \p T (references looked through), or null.
  static const clang::CXXRecordDecl *recordOf(clang::QualType T);
  /// Appends the scalars of class type \p T to \p Out in declaration order
  /// (nested classes flattened); false, with an error at \p L, for a field
  /// of another type, a base class or a virtual function.
  bool fieldsOf(clang::QualType T, clang::SourceLocation L,
                std::vector<Field> &Out, const std::string &Prefix = "");
  /// Whether a call of \p F must be inlined: a member function, or one that
  /// takes or returns a class.
  bool needsInlining(const clang::FunctionDecl *F) const;
  /// The HIR name of an object denoted by \p E (a variable, a member of one,
  /// `*this`), or std::nullopt for a temporary.
  std::optional<std::string> objectPath(const clang::Expr *E);
  /// The values of the scalars of the class-typed expression \p E, in
  /// fieldsOf order; false after an error.
  bool structValue(const clang::Expr *E, std::vector<hir::ExprPtr> &Out);
  /// What an inlined call gives: nothing, a scalar variable, or the HIR
  /// name prefix of a class object.
  struct Inlined {
    enum Kind { Void, Scalar, Object } K = Void;
    std::string Name;
  };
  /// Inlines a call of \p F on object \p Obj (null for a free function)
  /// with \p Args into the statements before the current one (Pre).
  std::optional<Inlined> inlineCall(const clang::FunctionDecl *F,
                                    const clang::Expr *Obj,
                                    llvm::ArrayRef<const clang::Expr *> Args,
                                    clang::SourceLocation L);
  /// The callee, object and arguments of a call that needs inlining.
  bool inlineParts(const clang::Expr *E, const clang::FunctionDecl *&F,
                   const clang::Expr *&Obj,
                   llvm::SmallVectorImpl<const clang::Expr *> &Args);
  /// The HIR name of a local or parameter (renamed inside inlined bodies).
  std::string varName(const clang::ValueDecl *D) const {
    auto It = Renames.find(D);
    return It != Renames.end() ? It->second : D->getNameAsString();
  }
  /// A fresh HIR variable declaration (typed, no initial value unless
  /// given) appended to \p Out.
  void declare(std::vector<hir::StmtPtr> &Out, SMLoc L, const std::string &N,
               hir::Scalar T, hir::ExprPtr Init = nullptr);

  /// Statements that must run before the statement being lowered (the
  /// bodies of inlined calls); null where none may go (a loop condition,
  /// the right operand of && and ||, an arm of ?:).
  std::vector<hir::StmtPtr> *Pre = nullptr;
  /// Locals and parameters of inlined bodies, renamed; reference
  /// parameters bound to their argument.
  llvm::DenseMap<const clang::ValueDecl *, std::string> Renames;
  /// The HIR name prefix of `*this` in an inlined member function.
  std::string ThisBase;
  /// The prefix of the innermost inlined body's names ("" outside).
  std::string InlinePrefix;
  unsigned InlineCount = 0, InlineDepth = 0;

  clang::ASTContext &Ctx;
  LocationMap &Locs;
  hir::DiagnosticEngine &Diags;
  std::unique_ptr<hir::Module> M;
  std::deque<const clang::FunctionDecl *> Work;
  llvm::DenseMap<const clang::FunctionDecl *, std::string> Names;
  /// Names of more than one non-template function of the file.
  llvm::StringSet<> Overloaded;
};

bool Lowering::isIntrinsic(const clang::FunctionDecl *F) const {
  const clang::SourceManager &CSM = Ctx.getSourceManager();
  clang::SourceLocation L = CSM.getFileLoc(F->getLocation());
  return CSM.getFileID(L) != CSM.getMainFileID() &&
         CSM.getFilename(L).ends_with("wave_prelude.h");
}

std::optional<hir::Scalar> Lowering::scalar(clang::QualType T) const {
  T = T.getCanonicalType().getUnqualifiedType();
  if (const auto *B = T->getAs<clang::BuiltinType>()) {
    switch (B->getKind()) {
    case clang::BuiltinType::Bool:
      return hir::Scalar::Bool;
    case clang::BuiltinType::Int:
      return hir::Scalar::I32;
    case clang::BuiltinType::UInt:
      return hir::Scalar::U32;
    case clang::BuiltinType::Float:
      return hir::Scalar::F32;
    case clang::BuiltinType::Double:
      return hir::Scalar::F64;
    case clang::BuiltinType::Float16:
      return hir::Scalar::F16;
    default:
      return std::nullopt;
    }
  }
  return std::nullopt;
}

std::optional<hir::Type> Lowering::paramType(const clang::ParmVarDecl *P) {
  clang::QualType T = P->getType();
  if (const auto *PT = T->getAs<clang::PointerType>()) {
    clang::QualType E = PT->getPointeeType();
    if (auto S = scalar(E))
      return hir::Type::buffer(*S, E.isConstQualified());
  } else if (auto S = scalar(T)) {
    return hir::Type::scalar(*S);
  }
  Diags.error(loc(P->getLocation()),
              "parameter type '" + T.getAsString() +
                  "' is not supported in WAVE kernels");
  return std::nullopt;
}

std::string Lowering::nameOf(const clang::FunctionDecl *F) {
  F = F->getCanonicalDecl();
  auto It = Names.find(F);
  if (It != Names.end())
    return It->second;
  return Names[F] = F->getNameAsString();
}

void Lowering::require(const clang::FunctionDecl *F) {
  const clang::FunctionDecl *Def = F->getDefinition();
  F = F->getCanonicalDecl();
  if (Names.count(F))
    return;
  std::string Name = F->getNameAsString();
  if (const clang::TemplateArgumentList *Args =
          F->getTemplateSpecializationArgs()) {
    // An instantiation: the template's name and its arguments
    // (`sumN<float, 4>` is sumN.f32.4).
    for (const clang::TemplateArgument &A : Args->asArray()) {
      Name += '.';
      if (A.getKind() == clang::TemplateArgument::Type) {
        std::optional<hir::Scalar> S = scalar(A.getAsType());
        Name += S ? hir::scalarName(*S).str() : "t";
      } else if (A.getKind() == clang::TemplateArgument::Integral) {
        llvm::APSInt V = A.getAsIntegral();
        Name += V.isNegative() ? "n" + llvm::toString(-V, 10)
                               : llvm::toString(V, 10);
      } else {
        Name += "a";
      }
    }
  } else if (Overloaded.count(Name)) {
    // One of several functions of this name: its parameter types
    // (`twice(float)` is twice.f32, `fill(int*, unsigned)` fill.pi32.u32).
    for (const clang::ParmVarDecl *P : F->parameters()) {
      Name += '.';
      clang::QualType T = P->getType();
      if (const auto *PT = T->getAs<clang::PointerType>())
        T = PT->getPointeeType(), Name += "p";
      std::optional<hir::Scalar> S = scalar(T);
      Name += S ? hir::scalarName(*S).str() : "t";
    }
  }
  Names[F] = Name;
  Work.push_back(Def ? Def : F);
}

void Lowering::collectFunctions(
    const clang::DeclContext *DC,
    std::vector<const clang::FunctionDecl *> &Out) const {
  for (const clang::Decl *D : DC->decls()) {
    if (const auto *NS = llvm::dyn_cast<clang::NamespaceDecl>(D))
      collectFunctions(NS, Out);
    else if (const auto *LS = llvm::dyn_cast<clang::LinkageSpecDecl>(D))
      collectFunctions(LS, Out);
    else if (const auto *F = llvm::dyn_cast<clang::FunctionDecl>(D);
             F && !isIntrinsic(F) && !F->isTemplated() &&
             !llvm::isa<clang::CXXMethodDecl>(F))
      Out.push_back(F);
  }
}

void Lowering::rejectVirtualClasses(const clang::DeclContext *DC) {
  for (const clang::Decl *D : DC->decls()) {
    if (const auto *NS = llvm::dyn_cast<clang::NamespaceDecl>(D)) {
      rejectVirtualClasses(NS);
    } else if (const auto *RD = llvm::dyn_cast<clang::CXXRecordDecl>(D);
               RD && RD->isThisDeclarationADefinition()) {
      for (const clang::CXXMethodDecl *MD : RD->methods())
        if (MD->isVirtual() && !MD->isImplicit())
          Diags.error(loc(MD->getLocation()),
                      "virtual functions are not supported in WAVE kernels "
                      "(WAVE has no indirect calls)");
      rejectVirtualClasses(RD);
    }
  }
}

std::vector<const clang::FunctionDecl *> Lowering::topLevelFunctions() const {
  std::vector<const clang::FunctionDecl *> Out;
  collectFunctions(Ctx.getTranslationUnitDecl(), Out);
  return Out;
}

std::unique_ptr<hir::Module> Lowering::run() {
  M = std::make_unique<hir::Module>(hir::Language::Cpp);
  // Every function of the file where it is defined (a function only
  // declared: where it is first declared), as the dialect's parser orders
  // them; template instantiations after them, as calls require them.
  llvm::StringMap<const clang::FunctionDecl *> Seen;
  for (const clang::FunctionDecl *F : topLevelFunctions()) {
    auto [It, New] = Seen.try_emplace(F->getName(), F->getCanonicalDecl());
    if (!New && It->second != F->getCanonicalDecl())
      Overloaded.insert(F->getName());
  }
  rejectVirtualClasses(Ctx.getTranslationUnitDecl());
  for (const clang::FunctionDecl *F : topLevelFunctions()) {
    const clang::FunctionDecl *Def = F->getDefinition();
    if (needsInlining(F) && !hasNote(F, KernelNote))
      continue; // lowered where it is called
    if (!Def || Def == F)
      require(F);
  }
  while (!Work.empty()) {
    const clang::FunctionDecl *F = Work.front();
    Work.pop_front();
    lowerFunction(F);
  }
  return std::move(M);
}

void Lowering::lowerFunction(const clang::FunctionDecl *F) {
  auto FD = std::make_unique<hir::FunctionDecl>(
      loc(F->getLocation()), nameOf(F), hasNote(F, KernelNote));
  if (hasNote(F, ExportNote)) {
    FD->Link = hir::Linkage::Export;
    FD->ExportLoc = loc(note(F, ExportNote)->getLocation());
  }
  if (hasNote(F, "wave.cuda_global"))
    Diags.error(loc(F->getLocation()),
                "'__global__' is CUDA's; mark WAVE kernels with __kernel");
  if (const auto *WG = note(F, WorkgroupNote)) {
    std::array<uint32_t, 3> Size = {1, 1, 1};
    unsigned I = 0;
    for (clang::Expr *E : WG->args()) {
      std::optional<llvm::APSInt> V = E->getIntegerConstantExpr(Ctx);
      if (!V || V->getSExtValue() < 1 || V->getSExtValue() > 1024) {
        Diags.error(loc(E), "workgroup size must be an integer from 1 to "
                            "1024");
        continue;
      }
      Size[I++] = uint32_t(V->getZExtValue());
    }
    FD->WorkgroupSize = Size;
  }
  if (auto S = scalar(F->getReturnType()))
    FD->ReturnTy = hir::Type::scalar(*S);
  else if (!F->getReturnType()->isVoidType())
    Diags.error(loc(F->getLocation()),
                "return type '" + F->getReturnType().getAsString() +
                    "' is not supported in WAVE kernels");
  for (const clang::ParmVarDecl *P : F->parameters()) {
    std::optional<hir::Type> T = paramType(P);
    if (!T)
      continue;
    bool Mutable = !(T->isScalar() && P->getType().isConstQualified());
    FD->Params.emplace_back(loc(P->getLocation()), P->getNameAsString(), *T,
                            Mutable);
  }
  if (F->hasBody()) {
    FD->Body = block(F->getBody());
    FD->EndLoc = loc(F->getBody()->getEndLoc());
  } else {
    FD->Link = hir::Linkage::Declaration;
  }
  M->Functions.push_back(std::move(FD));
}

std::unique_ptr<hir::BlockStmt> Lowering::block(const clang::Stmt *S) {
  auto B = std::make_unique<hir::BlockStmt>(loc(S));
  if (const auto *CS = llvm::dyn_cast<clang::CompoundStmt>(S)) {
    for (const clang::Stmt *Sub : CS->body())
      stmt(Sub, B->Body);
  } else {
    stmt(S, B->Body);
  }
  return B;
}

void Lowering::varDecl(const clang::VarDecl *V,
                       std::vector<hir::StmtPtr> &Out) {
  SMLoc L = loc(V->getLocation());
  clang::QualType T = V->getType();
  if (hasNote(V, SharedNote)) {
    const auto *AT = Ctx.getAsConstantArrayType(T);
    auto S = AT ? scalar(AT->getElementType()) : std::nullopt;
    if (!S) {
      Diags.error(L, "a __shared__ array has one dimension of a scalar type");
      return;
    }
    // The size as written (`16 * 16`), which the checker folds; the
    // constant Clang computed when the type has no written size.
    hir::ExprPtr Size;
    if (const clang::TypeSourceInfo *TSI = V->getTypeSourceInfo())
      if (auto TL = TSI->getTypeLoc().getAs<clang::ConstantArrayTypeLoc>())
        if (const clang::Expr *SE = TL.getSizeExpr())
          Size = expr(SE);
    if (!Size)
      Size = std::make_unique<hir::IntLitExpr>(L,
                                               AT->getSize().getZExtValue());
    Out.push_back(std::make_unique<hir::SharedDecl>(L, V->getNameAsString(),
                                                    *S, std::move(Size)));
    return;
  }
  if (T->isArrayType()) {
    Diags.error(L, "local arrays are not supported in WAVE kernels; use "
                   "__shared__ for workgroup memory");
    return;
  }
  if (V->isStaticLocal()) {
    unsupported(V->getLocation(), "a static local variable");
    return;
  }
  std::string Name = InlinePrefix.empty()
                         ? V->getNameAsString()
                         : InlinePrefix + "." + V->getNameAsString();
  if (!InlinePrefix.empty())
    Renames[V] = Name;
  if (recordOf(T) && !T->isReferenceType()) {
    // A class object: one variable per scalar, "z.re", "z.im".
    std::vector<Field> Fs;
    if (!fieldsOf(T, V->getLocation(), Fs))
      return;
    std::vector<hir::ExprPtr> Vals;
    if (V->hasInit() && !structValue(V->getInit(), Vals))
      return;
    for (size_t I = 0; I != Fs.size(); ++I)
      declare(Out, L, Name + Fs[I].Path, Fs[I].Ty,
              Vals.empty() ? nullptr : std::move(Vals[I]));
    return;
  }
  std::optional<hir::Scalar> S = scalar(T);
  if (!S) {
    Diags.error(L, "a variable of type '" + T.getAsString() +
                       "' is not supported in WAVE kernels");
    return;
  }
  bool Auto = T->getContainedAutoType() != nullptr ||
              llvm::isa<clang::AutoType>(V->getType().getTypePtr());
  hir::ExprPtr Init = V->hasInit() ? expr(V->getInit()) : nullptr;
  bool Mutable = !T.isConstQualified();
  Out.push_back(std::make_unique<hir::VarDecl>(
      L, Name, Auto ? std::nullopt : std::optional(*S), std::move(Init),
      Mutable));
}

void Lowering::stmt(const clang::Stmt *S, std::vector<hir::StmtPtr> &Out) {
  if (!S)
    return;
  llvm::scope_exit Leave([&] { --Depth; });
  if (!enter(S->getBeginLoc()))
    return;
  // Inlined calls of this statement go right before it.
  std::vector<hir::StmtPtr> *SavedPre = Pre;
  Pre = &Out;
  llvm::scope_exit Restore([&] { Pre = SavedPre; });
  switch (S->getStmtClass()) {
  case clang::Stmt::NullStmtClass:
    return;
  case clang::Stmt::AttributedStmtClass:
    return stmt(llvm::cast<clang::AttributedStmt>(S)->getSubStmt(), Out);
  case clang::Stmt::CompoundStmtClass:
    Out.push_back(block(S));
    return;
  case clang::Stmt::DeclStmtClass:
    for (const clang::Decl *D : llvm::cast<clang::DeclStmt>(S)->decls()) {
      if (const auto *V = llvm::dyn_cast<clang::VarDecl>(D))
        varDecl(V, Out);
      else if (!llvm::isa<clang::UsingDirectiveDecl>(D) &&
               !llvm::isa<clang::StaticAssertDecl>(D))
        unsupported(D->getLocation(), "this declaration");
    }
    return;
  case clang::Stmt::IfStmtClass: {
    const auto *If = llvm::cast<clang::IfStmt>(S);
    if (If->isConstexpr() && !If->getInit()) {
      // Clang has decided it: only the kept branch is code.
      if (std::optional<const clang::Stmt *> Kept =
              If->getNondiscardedCase(Ctx))
        if (*Kept)
          Out.push_back(block(*Kept));
      return;
    }
    if (If->getInit() || If->getConditionVariable()) {
      unsupported(If->getBeginLoc(), "this form of 'if'");
      return;
    }
    hir::StmtPtr Else;
    if (const clang::Stmt *E = If->getElse()) {
      if (llvm::isa<clang::IfStmt>(E)) {
        std::vector<hir::StmtPtr> One;
        stmt(E, One);
        if (!One.empty())
          Else = std::move(One.front());
      } else {
        Else = block(E);
      }
    }
    Out.push_back(std::make_unique<hir::IfStmt>(
        loc(If), expr(If->getCond()), block(If->getThen()), std::move(Else)));
    return;
  }
  case clang::Stmt::WhileStmtClass: {
    const auto *W = llvm::cast<clang::WhileStmt>(S);
    Pre = nullptr;
    hir::ExprPtr Cond = expr(W->getCond());
    Pre = &Out;
    Out.push_back(std::make_unique<hir::WhileStmt>(loc(W), std::move(Cond),
                                                   block(W->getBody())));
    return;
  }
  case clang::Stmt::DoStmtClass: {
    const auto *D = llvm::cast<clang::DoStmt>(S);
    Pre = nullptr;
    hir::ExprPtr Cond = expr(D->getCond());
    Pre = &Out;
    Out.push_back(std::make_unique<hir::WhileStmt>(
        loc(D), std::move(Cond), block(D->getBody()), /*DoWhile=*/true));
    return;
  }
  case clang::Stmt::ForStmtClass: {
    const auto *F = llvm::cast<clang::ForStmt>(S);
    auto FS = std::make_unique<hir::ForStmt>(loc(F));
    if (const clang::Stmt *Init = F->getInit()) {
      std::vector<hir::StmtPtr> One;
      stmt(Init, One);
      if (One.size() > 1)
        unsupported(Init->getBeginLoc(), "more than one loop variable");
      if (!One.empty())
        FS->Init = std::move(One.front());
    }
    Pre = nullptr;
    if (F->getCond())
      FS->Cond = expr(F->getCond());
    if (F->getInc())
      FS->Step = simpleStmt(F->getInc());
    Pre = &Out;
    FS->Body = block(F->getBody());
    Out.push_back(std::move(FS));
    return;
  }
  case clang::Stmt::BreakStmtClass:
    Out.push_back(std::make_unique<hir::BreakStmt>(loc(S)));
    return;
  case clang::Stmt::ContinueStmtClass:
    Out.push_back(std::make_unique<hir::ContinueStmt>(loc(S)));
    return;
  case clang::Stmt::ReturnStmtClass: {
    const auto *R = llvm::cast<clang::ReturnStmt>(S);
    Out.push_back(std::make_unique<hir::ReturnStmt>(
        loc(R), R->getRetValue() ? expr(R->getRetValue()) : nullptr));
    return;
  }
  default:
    if (llvm::isa<clang::Expr>(S)) {
      if (hir::StmtPtr One = simpleStmt(S))
        Out.push_back(std::move(One));
      return;
    }
    unsupported(S->getBeginLoc(),
                "'" + llvm::StringRef(S->getStmtClassName()) + "'");
  }
}

/// Maps a C++ binary (or compound-assignment) operator onto HIR's.
static std::optional<hir::BinaryOp> binaryOp(clang::BinaryOperatorKind K) {
  using clang::BinaryOperatorKind;
  switch (K) {
  case clang::BO_Mul:
  case clang::BO_MulAssign:
    return hir::BinaryOp::Mul;
  case clang::BO_Div:
  case clang::BO_DivAssign:
    return hir::BinaryOp::Div;
  case clang::BO_Rem:
  case clang::BO_RemAssign:
    return hir::BinaryOp::Rem;
  case clang::BO_Add:
  case clang::BO_AddAssign:
    return hir::BinaryOp::Add;
  case clang::BO_Sub:
  case clang::BO_SubAssign:
    return hir::BinaryOp::Sub;
  case clang::BO_Shl:
  case clang::BO_ShlAssign:
    return hir::BinaryOp::Shl;
  case clang::BO_Shr:
  case clang::BO_ShrAssign:
    return hir::BinaryOp::Shr;
  case clang::BO_And:
  case clang::BO_AndAssign:
    return hir::BinaryOp::BitAnd;
  case clang::BO_Or:
  case clang::BO_OrAssign:
    return hir::BinaryOp::BitOr;
  case clang::BO_Xor:
  case clang::BO_XorAssign:
    return hir::BinaryOp::BitXor;
  case clang::BO_LAnd:
    return hir::BinaryOp::LogicalAnd;
  case clang::BO_LOr:
    return hir::BinaryOp::LogicalOr;
  case clang::BO_EQ:
    return hir::BinaryOp::Eq;
  case clang::BO_NE:
    return hir::BinaryOp::Ne;
  case clang::BO_LT:
    return hir::BinaryOp::Lt;
  case clang::BO_LE:
    return hir::BinaryOp::Le;
  case clang::BO_GT:
    return hir::BinaryOp::Gt;
  case clang::BO_GE:
    return hir::BinaryOp::Ge;
  default:
    return std::nullopt;
  }
}

hir::StmtPtr Lowering::simpleStmt(const clang::Stmt *S) {
  const auto *E = llvm::cast<clang::Expr>(S)->IgnoreParens();
  if (const auto *EWC = llvm::dyn_cast<clang::ExprWithCleanups>(E))
    E = EWC->getSubExpr()->IgnoreParens();
  // `a = b` on class objects with the implicit (member-wise) assignment.
  if (const auto *Op = llvm::dyn_cast<clang::CXXOperatorCallExpr>(E);
      Op && Op->getOperator() == clang::OO_Equal && Op->getNumArgs() == 2) {
    const auto *MD = llvm::dyn_cast_or_null<clang::CXXMethodDecl>(
        Op->getDirectCallee());
    if (MD && MD->isTrivial()) {
      std::optional<std::string> To = objectPath(Op->getArg(0));
      std::vector<Field> Fs;
      std::vector<hir::ExprPtr> Vals;
      if (!To) {
        unsupported(Op->getExprLoc(), "assigning to this object");
        return nullptr;
      }
      if (!fieldsOf(Op->getArg(0)->getType(), Op->getExprLoc(), Fs) ||
          !structValue(Op->getArg(1), Vals) || !Pre)
        return nullptr;
      SMLoc L = loc(Op->getOperatorLoc());
      for (size_t I = 0; I + 1 < Fs.size(); ++I)
        Pre->push_back(std::make_unique<hir::AssignStmt>(
            L, std::make_unique<hir::NameExpr>(L, *To + Fs[I].Path),
            std::move(Vals[I])));
      return std::make_unique<hir::AssignStmt>(
          L, std::make_unique<hir::NameExpr>(L, *To + Fs.back().Path),
          std::move(Vals.back()));
    }
  }
  // A call that is inlined and whose value is not used.
  {
    const clang::FunctionDecl *F = nullptr;
    const clang::Expr *Obj = nullptr;
    llvm::SmallVector<const clang::Expr *, 4> Args;
    if (inlineParts(E, F, Obj, Args)) {
      inlineCall(F, Obj, Args, E->getExprLoc());
      return nullptr;
    }
  }
  if (const auto *B = llvm::dyn_cast<clang::BinaryOperator>(E)) {
    if (B->getOpcode() == clang::BO_Assign)
      return std::make_unique<hir::AssignStmt>(
          loc(B->getOperatorLoc()), expr(B->getLHS()), expr(B->getRHS()));
    if (B->isCompoundAssignmentOp())
      return std::make_unique<hir::AssignStmt>(
          loc(B->getOperatorLoc()), expr(B->getLHS()), expr(B->getRHS()),
          binaryOp(B->getOpcode()));
  }
  if (const auto *U = llvm::dyn_cast<clang::UnaryOperator>(E);
      U && U->isIncrementDecrementOp()) {
    SMLoc L = loc(U->getOperatorLoc());
    return std::make_unique<hir::AssignStmt>(
        L, expr(U->getSubExpr()), std::make_unique<hir::IntLitExpr>(L, 1),
        U->isIncrementOp() ? hir::BinaryOp::Add : hir::BinaryOp::Sub);
  }
  return std::make_unique<hir::ExprStmt>(loc(E), expr(E));
}

hir::ExprPtr Lowering::expr(const clang::Expr *E) {
  SMLoc L = loc(E->getExprLoc());
  llvm::scope_exit Leave([&] { --Depth; });
  if (!enter(E->getExprLoc()))
    return std::make_unique<hir::IntLitExpr>(L, 0);
  auto Bad = [&](const llvm::Twine &What) -> hir::ExprPtr {
    unsupported(E->getExprLoc(), What);
    return std::make_unique<hir::IntLitExpr>(L, 0);
  };
  switch (E->getStmtClass()) {
  case clang::Stmt::ImplicitCastExprClass:
  case clang::Stmt::ParenExprClass:
  case clang::Stmt::ExprWithCleanupsClass:
  case clang::Stmt::MaterializeTemporaryExprClass:
  case clang::Stmt::CXXBindTemporaryExprClass:
    return expr(llvm::cast<clang::Expr>(*E->child_begin()));
  case clang::Stmt::ConstantExprClass:
    return expr(llvm::cast<clang::ConstantExpr>(E)->getSubExpr());
  case clang::Stmt::SubstNonTypeTemplateParmExprClass:
    return expr(
        llvm::cast<clang::SubstNonTypeTemplateParmExpr>(E)->getReplacement());
  case clang::Stmt::IntegerLiteralClass: {
    const auto *I = llvm::cast<clang::IntegerLiteral>(E);
    std::optional<hir::Scalar> Suffix;
    if (!I->getType()->isSpecificBuiltinType(clang::BuiltinType::Int))
      Suffix = scalar(I->getType());
    return std::make_unique<hir::IntLitExpr>(L, I->getValue().getZExtValue(),
                                             Suffix);
  }
  case clang::Stmt::FloatingLiteralClass: {
    const auto *F = llvm::cast<clang::FloatingLiteral>(E);
    std::optional<hir::Scalar> Suffix;
    if (!F->getType()->isSpecificBuiltinType(clang::BuiltinType::Double))
      Suffix = scalar(F->getType());
    return std::make_unique<hir::FloatLitExpr>(L, F->getValueAsApproximateDouble(),
                                               Suffix);
  }
  case clang::Stmt::CXXBoolLiteralExprClass:
    return std::make_unique<hir::BoolLitExpr>(
        L, llvm::cast<clang::CXXBoolLiteralExpr>(E)->getValue());
  case clang::Stmt::DeclRefExprClass: {
    const auto *D = llvm::cast<clang::DeclRefExpr>(E)->getDecl();
    if (const auto *V = llvm::dyn_cast<clang::VarDecl>(D)) {
      // A constexpr variable of a template or namespace scope: its value.
      if (!V->isLocalVarDeclOrParm()) {
        if (const clang::APValue *C = V->evaluateValue(); C && C->isInt())
          return std::make_unique<hir::IntLitExpr>(
              L, C->getInt().getZExtValue(), scalar(V->getType()));
        return Bad("a global variable");
      }
      return std::make_unique<hir::NameExpr>(L, varName(V));
    }
    if (const auto *EC = llvm::dyn_cast<clang::EnumConstantDecl>(D))
      return std::make_unique<hir::IntLitExpr>(
          L, EC->getInitVal().getZExtValue());
    return Bad("a reference to '" + D->getNameAsString() + "'");
  }
  case clang::Stmt::UnaryOperatorClass: {
    const auto *U = llvm::cast<clang::UnaryOperator>(E);
    hir::UnaryOp Op;
    switch (U->getOpcode()) {
    case clang::UO_Minus:
      Op = hir::UnaryOp::Neg;
      break;
    case clang::UO_Plus:
      Op = hir::UnaryOp::Plus;
      break;
    case clang::UO_LNot:
      Op = hir::UnaryOp::LogicalNot;
      break;
    case clang::UO_Not:
      Op = hir::UnaryOp::BitNot;
      break;
    case clang::UO_Deref:
      return Bad("pointer dereference");
    case clang::UO_AddrOf:
      return Bad("taking an address");
    default:
      return Bad("'++'/'--' inside an expression");
    }
    return std::make_unique<hir::UnaryExpr>(L, Op, expr(U->getSubExpr()));
  }
  case clang::Stmt::BinaryOperatorClass: {
    const auto *B = llvm::cast<clang::BinaryOperator>(E);
    std::optional<hir::BinaryOp> Op = binaryOp(B->getOpcode());
    if (!Op || B->isAssignmentOp())
      return Bad(B->isAssignmentOp() ? "assignment inside an expression"
                                     : "the comma operator");
    hir::ExprPtr LHS = expr(B->getLHS());
    std::vector<hir::StmtPtr> *SavedPre = Pre;
    if (B->isLogicalOp())
      Pre = nullptr; // the right operand may not run
    hir::ExprPtr RHS = expr(B->getRHS());
    Pre = SavedPre;
    return std::make_unique<hir::BinaryExpr>(L, *Op, std::move(LHS),
                                             std::move(RHS));
  }
  case clang::Stmt::ConditionalOperatorClass: {
    const auto *C = llvm::cast<clang::ConditionalOperator>(E);
    hir::ExprPtr Cond = expr(C->getCond());
    std::vector<hir::StmtPtr> *SavedPre = Pre;
    Pre = nullptr; // only one arm runs
    hir::ExprPtr Then = expr(C->getTrueExpr()), Else = expr(C->getFalseExpr());
    Pre = SavedPre;
    return std::make_unique<hir::ConditionalExpr>(
        loc(C->getQuestionLoc()), std::move(Cond), std::move(Then),
        std::move(Else));
  }
  case clang::Stmt::ArraySubscriptExprClass: {
    const auto *A = llvm::cast<clang::ArraySubscriptExpr>(E);
    return std::make_unique<hir::IndexExpr>(
        lbracket(A), expr(A->getBase()), expr(A->getIdx()));
  }
  case clang::Stmt::CStyleCastExprClass:
  case clang::Stmt::CXXFunctionalCastExprClass:
  case clang::Stmt::CXXStaticCastExprClass: {
    const auto *C = llvm::cast<clang::ExplicitCastExpr>(E);
    std::optional<hir::Scalar> To = scalar(C->getTypeAsWritten());
    if (!To)
      return Bad("a cast to '" + C->getTypeAsWritten().getAsString() + "'");
    return std::make_unique<hir::CastExpr>(L, *To, expr(C->getSubExpr()));
  }
  case clang::Stmt::CallExprClass:
  case clang::Stmt::CXXMemberCallExprClass:
  case clang::Stmt::CXXOperatorCallExprClass: {
    const clang::FunctionDecl *F = nullptr;
    const clang::Expr *Obj = nullptr;
    llvm::SmallVector<const clang::Expr *, 4> Args;
    if (inlineParts(E, F, Obj, Args)) {
      std::optional<Inlined> R = inlineCall(F, Obj, Args, E->getExprLoc());
      if (!R || R->K != Inlined::Scalar)
        return R && R->K == Inlined::Void ? Bad("using the value of a void call")
               : R ? Bad("a class object where a number is needed")
                   : std::make_unique<hir::IntLitExpr>(L, 0);
      return std::make_unique<hir::NameExpr>(L, R->Name);
    }
    if (!llvm::isa<clang::CallExpr>(E) ||
        E->getStmtClass() != clang::Stmt::CallExprClass)
      return Bad("this operator call");
    return call(llvm::cast<clang::CallExpr>(E));
  }
  case clang::Stmt::MemberExprClass: {
    // A scalar member: of a named object "z.re", or of a temporary.
    const auto *ME = llvm::cast<clang::MemberExpr>(E);
    if (std::optional<std::string> P = objectPath(E))
      return std::make_unique<hir::NameExpr>(L, *P);
    const auto *FD = llvm::dyn_cast<clang::FieldDecl>(ME->getMemberDecl());
    std::vector<Field> Fs;
    std::vector<hir::ExprPtr> Vals;
    if (!FD || !fieldsOf(ME->getBase()->getType(), ME->getExprLoc(), Fs) ||
        !structValue(ME->getBase(), Vals))
      return FD ? std::make_unique<hir::IntLitExpr>(L, 0)
                : Bad("this member");
    std::string Want = "." + FD->getNameAsString();
    for (size_t I = 0; I != Fs.size(); ++I)
      if (Fs[I].Path == Want)
        return std::move(Vals[I]);
    return Bad("this member");
  }
  case clang::Stmt::CXXDefaultArgExprClass:
    return expr(llvm::cast<clang::CXXDefaultArgExpr>(E)->getExpr());
  case clang::Stmt::CXXDefaultInitExprClass:
    return expr(llvm::cast<clang::CXXDefaultInitExpr>(E)->getExpr());
  case clang::Stmt::InitListExprClass: {
    // A scalar's braces: `float b{x}`, `T x{}`.
    const auto *IL = llvm::cast<clang::InitListExpr>(E);
    if (!scalar(IL->getType()))
      return Bad("an initializer list of type '" +
                 IL->getType().getAsString() + "'");
    if (IL->getNumInits() == 0)
      return std::make_unique<hir::IntLitExpr>(L, 0);
    return expr(IL->getInit(0));
  }
  case clang::Stmt::ImplicitValueInitExprClass:
  case clang::Stmt::CXXScalarValueInitExprClass:
    return std::make_unique<hir::IntLitExpr>(L, 0);
  default:
    return Bad("'" + llvm::StringRef(E->getStmtClassName()) + "'");
  }
}

hir::ExprPtr Lowering::call(const clang::CallExpr *C) {
  SMLoc L = loc(C->getExprLoc());
  const clang::FunctionDecl *F = C->getDirectCallee();
  if (!F) {
    unsupported(C->getExprLoc(), "an indirect call");
    return std::make_unique<hir::IntLitExpr>(L, 0);
  }
  std::string Callee;
  if (isIntrinsic(F)) {
    Callee = F->getNameAsString();
  } else {
    require(F);
    Callee = nameOf(F);
  }
  if (const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(
          C->getCallee()->IgnoreImplicit()))
    L = loc(Ref->getNameInfo().getLoc());
  auto Call = std::make_unique<hir::CallExpr>(L, Callee);
  for (const clang::Expr *A : C->arguments())
    if (!llvm::isa<clang::CXXDefaultArgExpr>(A))
      Call->Args.push_back(expr(A));
  return Call;
}

//===----------------------------------------------------------------------===//
// Structs and classes
//===----------------------------------------------------------------------===//
//
// A class object is scalarised: one HIR variable per scalar member, named
// by its path ("z.re"; nested members "p.pos.x"). Calls of member
// functions, operators, constructors and functions that take or return a
// class are inlined: the callee's body becomes a block before the statement
// that calls it, its parameters and locals renamed under "inlN.", its
// object's members the caller's variables, and its result a variable
// "inlN.ret" (or the members "inlN.ret.re", ...). HIR and MIR see only
// scalars (issue 26: structs "scalarised in lowering; MIR need not change").

const clang::CXXRecordDecl *Lowering::recordOf(clang::QualType T) {
  const clang::CXXRecordDecl *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  return RD ? RD->getDefinition() : nullptr;
}

bool Lowering::fieldsOf(clang::QualType T, clang::SourceLocation L,
                        std::vector<Field> &Out, const std::string &Prefix) {
  const clang::CXXRecordDecl *RD = recordOf(T);
  if (!RD) {
    unsupported(L, "a value of type '" + T.getAsString() + "'");
    return false;
  }
  if (RD->getNumBases() || RD->isUnion() || RD->isPolymorphic()) {
    unsupported(L, "a class with base classes, a union or a class with "
                   "virtual functions as a value");
    return false;
  }
  size_t Before = Out.size();
  for (const clang::FieldDecl *FD : RD->fields()) {
    clang::QualType FT = FD->getType();
    std::string Path = Prefix + "." + FD->getNameAsString();
    if (std::optional<hir::Scalar> S = scalar(FT); S && !FD->isBitField()) {
      Out.push_back({Path, *S});
    } else if (recordOf(FT) && !FT->isReferenceType()) {
      if (!fieldsOf(FT, FD->getLocation(), Out, Path))
        return false;
    } else {
      Diags.error(loc(FD->getLocation()),
                  "a member of type '" + FT.getAsString() +
                      "' is not supported in WAVE kernels (members are "
                      "numbers, bools or classes of them)");
      return false;
    }
  }
  if (Out.size() == Before && Prefix.empty()) {
    unsupported(L, "a class without data members as a value");
    return false;
  }
  return true;
}

bool Lowering::needsInlining(const clang::FunctionDecl *F) const {
  if (llvm::isa<clang::CXXMethodDecl>(F))
    return true;
  if (recordOf(F->getReturnType()))
    return true;
  for (const clang::ParmVarDecl *P : F->parameters())
    if (recordOf(P->getType()) || P->getType()->isReferenceType())
      return true;
  return false;
}

/// \p E without the nodes that do not change an object's identity.
static const clang::Expr *skipWrappers(const clang::Expr *E) {
  while (true) {
    E = E->IgnoreParens();
    if (const auto *C = llvm::dyn_cast<clang::ImplicitCastExpr>(E);
        C && (C->getCastKind() == clang::CK_NoOp ||
              C->getCastKind() == clang::CK_LValueToRValue ||
              C->getCastKind() == clang::CK_UncheckedDerivedToBase))
      E = C->getSubExpr();
    else if (const auto *M = llvm::dyn_cast<clang::MaterializeTemporaryExpr>(E))
      E = M->getSubExpr();
    else if (const auto *W = llvm::dyn_cast<clang::ExprWithCleanups>(E))
      E = W->getSubExpr();
    else if (const auto *B = llvm::dyn_cast<clang::CXXBindTemporaryExpr>(E))
      E = B->getSubExpr();
    else if (const auto *K = llvm::dyn_cast<clang::ConstantExpr>(E))
      E = K->getSubExpr();
    else
      return E;
  }
}

std::optional<std::string> Lowering::objectPath(const clang::Expr *E) {
  E = skipWrappers(E);
  if (const auto *DR = llvm::dyn_cast<clang::DeclRefExpr>(E)) {
    const auto *V = llvm::dyn_cast<clang::VarDecl>(DR->getDecl());
    if (V && V->isLocalVarDeclOrParm())
      return varName(V);
    return std::nullopt;
  }
  if (const auto *U = llvm::dyn_cast<clang::UnaryOperator>(E);
      U && U->getOpcode() == clang::UO_Deref &&
      llvm::isa<clang::CXXThisExpr>(skipWrappers(U->getSubExpr())) &&
      !ThisBase.empty())
    return ThisBase;
  if (const auto *ME = llvm::dyn_cast<clang::MemberExpr>(E)) {
    const auto *FD = llvm::dyn_cast<clang::FieldDecl>(ME->getMemberDecl());
    if (!FD)
      return std::nullopt;
    const clang::Expr *Base = skipWrappers(ME->getBase());
    std::optional<std::string> B;
    if (llvm::isa<clang::CXXThisExpr>(Base)) {
      if (!ThisBase.empty())
        B = ThisBase;
    } else if (!ME->isArrow()) {
      B = objectPath(Base);
    }
    if (B)
      return *B + "." + FD->getNameAsString();
  }
  return std::nullopt;
}

void Lowering::declare(std::vector<hir::StmtPtr> &Out, SMLoc L,
                       const std::string &N, hir::Scalar T,
                       hir::ExprPtr Init) {
  Out.push_back(std::make_unique<hir::VarDecl>(L, N, T, std::move(Init)));
}

bool Lowering::structValue(const clang::Expr *E,
                           std::vector<hir::ExprPtr> &Out) {
  E = skipWrappers(E);
  SMLoc L = loc(E->getExprLoc());
  std::vector<Field> Fs;
  if (!fieldsOf(E->getType(), E->getExprLoc(), Fs))
    return false;
  auto Named = [&](const std::string &Base) {
    for (const Field &F : Fs)
      Out.push_back(std::make_unique<hir::NameExpr>(L, Base + F.Path));
    return true;
  };
  if (std::optional<std::string> P = objectPath(E))
    return Named(*P);
  if (const auto *FC = llvm::dyn_cast<clang::CXXFunctionalCastExpr>(E))
    return structValue(FC->getSubExpr(), Out);
  if (const auto *DA = llvm::dyn_cast<clang::CXXDefaultArgExpr>(E))
    return structValue(DA->getExpr(), Out);
  if (const auto *DI = llvm::dyn_cast<clang::CXXDefaultInitExpr>(E))
    return structValue(DI->getExpr(), Out);
  if (const auto *IL = llvm::dyn_cast<clang::InitListExpr>(E)) {
    // An aggregate: {re, im}; members without a value are 0.
    const clang::CXXRecordDecl *RD = recordOf(IL->getType());
    unsigned I = 0;
    for (const clang::FieldDecl *FD : RD->fields()) {
      const clang::Expr *Init =
          I < IL->getNumInits() ? IL->getInit(I) : nullptr;
      ++I;
      if (recordOf(FD->getType())) {
        if (Init) {
          if (!structValue(Init, Out))
            return false;
        } else {
          std::vector<Field> Sub;
          fieldsOf(FD->getType(), E->getExprLoc(), Sub);
          for (size_t K = 0; K != Sub.size(); ++K)
            Out.push_back(std::make_unique<hir::IntLitExpr>(L, 0));
        }
      } else {
        Out.push_back(Init ? expr(Init)
                           : std::make_unique<hir::IntLitExpr>(L, 0));
      }
    }
    return true;
  }
  if (llvm::isa<clang::ImplicitValueInitExpr>(E) ||
      llvm::isa<clang::CXXScalarValueInitExpr>(E)) {
    for (size_t K = 0; K != Fs.size(); ++K)
      Out.push_back(std::make_unique<hir::IntLitExpr>(L, 0));
    return true;
  }
  if (const auto *CE = llvm::dyn_cast<clang::CXXConstructExpr>(E)) {
    const clang::CXXConstructorDecl *Ctor = CE->getConstructor();
    if (Ctor->isTrivial() && Ctor->isCopyOrMoveConstructor())
      return structValue(CE->getArg(0), Out);
    if (Ctor->isTrivial() && Ctor->isDefaultConstructor()) {
      for (size_t K = 0; K != Fs.size(); ++K)
        Out.push_back(std::make_unique<hir::IntLitExpr>(L, 0));
      return true;
    }
    llvm::SmallVector<const clang::Expr *, 4> Args(CE->arguments());
    std::optional<Inlined> R = inlineCall(Ctor, nullptr, Args,
                                          E->getExprLoc());
    return R && Named(R->Name);
  }
  const clang::FunctionDecl *F = nullptr;
  const clang::Expr *Obj = nullptr;
  llvm::SmallVector<const clang::Expr *, 4> Args;
  if (inlineParts(E, F, Obj, Args)) {
    std::optional<Inlined> R = inlineCall(F, Obj, Args, E->getExprLoc());
    if (!R)
      return false;
    if (R->K == Inlined::Object)
      return Named(R->Name);
  }
  unsupported(E->getExprLoc(), "this expression of class type");
  return false;
}

bool Lowering::inlineParts(const clang::Expr *E,
                           const clang::FunctionDecl *&F,
                           const clang::Expr *&Obj,
                           llvm::SmallVectorImpl<const clang::Expr *> &Args) {
  E = skipWrappers(E);
  if (const auto *MC = llvm::dyn_cast<clang::CXXMemberCallExpr>(E)) {
    F = MC->getMethodDecl();
    Obj = MC->getImplicitObjectArgument();
    Args.append(MC->arg_begin(), MC->arg_end());
    return F != nullptr;
  }
  if (const auto *OC = llvm::dyn_cast<clang::CXXOperatorCallExpr>(E)) {
    F = OC->getDirectCallee();
    if (!F || isIntrinsic(F))
      return false;
    const auto *MD = llvm::dyn_cast<clang::CXXMethodDecl>(F);
    if (MD && MD->isTrivial())
      return false; // implicit assignment: member-wise (simpleStmt)
    unsigned First = MD ? 1 : 0;
    Obj = MD ? OC->getArg(0) : nullptr;
    for (unsigned I = First; I < OC->getNumArgs(); ++I)
      Args.push_back(OC->getArg(I));
    return needsInlining(F);
  }
  if (const auto *C = llvm::dyn_cast<clang::CallExpr>(E)) {
    F = C->getDirectCallee();
    if (!F || isIntrinsic(F) || !needsInlining(F))
      return false;
    Obj = nullptr;
    Args.append(C->arg_begin(), C->arg_end());
    return true;
  }
  return false;
}

/// Whether \p S contains a return statement (lambdas aside).
static bool containsReturn(const clang::Stmt *S) {
  if (!S)
    return false;
  if (llvm::isa<clang::ReturnStmt>(S))
    return true;
  if (llvm::isa<clang::LambdaExpr>(S))
    return false;
  for (const clang::Stmt *C : S->children())
    if (containsReturn(C))
      return true;
  return false;
}

std::optional<Lowering::Inlined>
Lowering::inlineCall(const clang::FunctionDecl *F, const clang::Expr *Obj,
                     llvm::ArrayRef<const clang::Expr *> Args,
                     clang::SourceLocation CallLoc) {
  SMLoc L = loc(CallLoc);
  if (!Pre) {
    unsupported(CallLoc,
                "calling '" + F->getNameAsString() +
                    "' (a member function, or a function that takes or "
                    "returns a class, is inlined) in a loop condition, on "
                    "the right of && or ||, or in an arm of ?:");
    return std::nullopt;
  }
  const clang::FunctionDecl *Def = F->getDefinition();
  const auto *Body =
      Def ? llvm::dyn_cast_or_null<clang::CompoundStmt>(Def->getBody())
          : nullptr;
  if (!Body) {
    Diags.error(L, "'" + F->getQualifiedNameAsString() +
                       "' is inlined and must be defined in the file");
    return std::nullopt;
  }
  if (InlineDepth >= 32) {
    Diags.error(L, "inlining '" + F->getQualifiedNameAsString() +
                       "' goes deeper than 32 calls; recursion is not "
                       "supported in WAVE kernels");
    return std::nullopt;
  }
  const clang::Stmt *Last = Body->body_empty() ? nullptr : Body->body_back();
  for (const clang::Stmt *S : Body->body())
    if (S != Last ? containsReturn(S)
                  : !llvm::isa<clang::ReturnStmt>(S) && containsReturn(S)) {
      Diags.error(loc(S->getBeginLoc()),
                  "'" + F->getQualifiedNameAsString() +
                      "' is inlined (it is a member function or takes or "
                      "returns a class) and may return only at its end");
      return std::nullopt;
    }

  std::string Prefix = "inl" + std::to_string(++InlineCount);
  const auto *Ctor = llvm::dyn_cast<clang::CXXConstructorDecl>(Def);
  Inlined R;
  clang::QualType RT = F->getReturnType();
  std::vector<Field> ResultFields;
  if (Ctor) {
    R = {Inlined::Object, Prefix + ".this"};
    if (!fieldsOf(Ctx.getCanonicalTagType(Ctor->getParent()), CallLoc,
                  ResultFields))
      return std::nullopt;
    for (const Field &Fd : ResultFields)
      declare(*Pre, L, R.Name + Fd.Path, Fd.Ty);
  } else if (RT->isVoidType()) {
    R.K = Inlined::Void;
  } else if (RT->isReferenceType() && recordOf(RT)) {
    R.K = Inlined::Object; // `return *this;`: the object itself
  } else if (recordOf(RT)) {
    R = {Inlined::Object, Prefix + ".ret"};
    if (!fieldsOf(RT, CallLoc, ResultFields))
      return std::nullopt;
    for (const Field &Fd : ResultFields)
      declare(*Pre, L, R.Name + Fd.Path, Fd.Ty);
  } else if (std::optional<hir::Scalar> S = scalar(RT)) {
    R = {Inlined::Scalar, Prefix + ".ret"};
    declare(*Pre, L, R.Name, *S);
  } else {
    unsupported(CallLoc, "a function returning '" + RT.getAsString() + "'");
    return std::nullopt;
  }

  // The object: the caller's variables, or a copy of a temporary.
  std::string NewThis;
  if (Ctor) {
    NewThis = R.Name;
  } else if (Obj) {
    const clang::Expr *O = skipWrappers(Obj);
    if (llvm::isa<clang::CXXThisExpr>(O) && !ThisBase.empty()) {
      NewThis = ThisBase;
    } else if (std::optional<std::string> P = objectPath(O)) {
      NewThis = *P;
    } else {
      std::vector<Field> Fs;
      std::vector<hir::ExprPtr> Vals;
      if (!fieldsOf(O->getType(), CallLoc, Fs) || !structValue(O, Vals))
        return std::nullopt;
      NewThis = Prefix + ".obj";
      for (size_t I = 0; I != Fs.size(); ++I)
        declare(*Pre, L, NewThis + Fs[I].Path, Fs[I].Ty, std::move(Vals[I]));
    }
  }
  if (R.K == Inlined::Object && R.Name.empty())
    R.Name = NewThis;

  // Parameters, evaluated in the caller.
  auto B = std::make_unique<hir::BlockStmt>(L);
  llvm::DenseMap<const clang::ValueDecl *, std::string> Bound;
  for (unsigned I = 0; I != Def->getNumParams(); ++I) {
    const clang::ParmVarDecl *P = Def->getParamDecl(I);
    const clang::Expr *A =
        I < Args.size() ? Args[I] : P->getDefaultArg();
    if (!A)
      return std::nullopt;
    if (const auto *DA = llvm::dyn_cast<clang::CXXDefaultArgExpr>(A))
      A = DA->getExpr();
    clang::QualType PT = P->getType();
    std::string PN = Prefix + "." +
                     (P->getName().empty() ? "arg" + std::to_string(I)
                                           : P->getNameAsString());
    bool MutRef = PT->isReferenceType() &&
                  !PT.getNonReferenceType().isConstQualified();
    if (MutRef || PT->isPointerType()) {
      // Bound to the caller's object, variable or buffer.
      std::optional<std::string> Path = objectPath(A);
      if (!Path) {
        unsupported(A->getExprLoc(),
                    "passing this to a reference or pointer parameter (pass "
                    "a variable)");
        return std::nullopt;
      }
      Bound[P] = *Path;
    } else if (recordOf(PT)) {
      std::vector<Field> Fs;
      std::vector<hir::ExprPtr> Vals;
      if (!fieldsOf(PT, A->getExprLoc(), Fs) || !structValue(A, Vals))
        return std::nullopt;
      for (size_t K = 0; K != Fs.size(); ++K)
        declare(B->Body, L, PN + Fs[K].Path, Fs[K].Ty, std::move(Vals[K]));
      Bound[P] = PN;
    } else if (std::optional<hir::Scalar> S = scalar(PT)) {
      declare(B->Body, L, PN, *S, expr(A));
      Bound[P] = PN;
    } else {
      unsupported(P->getLocation(),
                  "a parameter of type '" + PT.getAsString() + "'");
      return std::nullopt;
    }
  }

  // The body, with the callee's names.
  std::string SavedThis = ThisBase, SavedPrefix = InlinePrefix;
  std::vector<hir::StmtPtr> *SavedPre = Pre;
  for (auto &[D, N] : Bound)
    Renames[D] = N;
  ThisBase = NewThis;
  InlinePrefix = Prefix;
  ++InlineDepth;
  Pre = &B->Body;
  if (Ctor) {
    for (const clang::CXXCtorInitializer *Init : Ctor->inits()) {
      const clang::FieldDecl *FD = Init->getMember();
      if (!FD || !Init->getInit())
        continue;
      std::string To = NewThis + "." + FD->getNameAsString();
      if (recordOf(FD->getType())) {
        std::vector<Field> Fs;
        std::vector<hir::ExprPtr> Vals;
        if (fieldsOf(FD->getType(), Init->getSourceLocation(), Fs) &&
            structValue(Init->getInit(), Vals))
          for (size_t K = 0; K != Fs.size(); ++K)
            B->Body.push_back(std::make_unique<hir::AssignStmt>(
                L, std::make_unique<hir::NameExpr>(L, To + Fs[K].Path),
                std::move(Vals[K])));
      } else {
        B->Body.push_back(std::make_unique<hir::AssignStmt>(
            L, std::make_unique<hir::NameExpr>(L, To),
            expr(Init->getInit())));
      }
    }
  }
  for (const clang::Stmt *S : Body->body()) {
    const auto *Ret = llvm::dyn_cast<clang::ReturnStmt>(S);
    if (!Ret || !Ret->getRetValue()) {
      if (!Ret)
        stmt(S, B->Body);
      continue;
    }
    Pre = &B->Body;
    SMLoc RL = loc(Ret);
    if (R.K == Inlined::Scalar) {
      B->Body.push_back(std::make_unique<hir::AssignStmt>(
          RL, std::make_unique<hir::NameExpr>(RL, R.Name),
          expr(Ret->getRetValue())));
    } else if (RT->isReferenceType()) {
      if (objectPath(Ret->getRetValue()) != NewThis)
        unsupported(Ret->getBeginLoc(), "returning a reference to anything "
                                        "but '*this'");
    } else if (R.K == Inlined::Object) {
      std::vector<hir::ExprPtr> Vals;
      if (structValue(Ret->getRetValue(), Vals))
        for (size_t K = 0; K != ResultFields.size(); ++K)
          B->Body.push_back(std::make_unique<hir::AssignStmt>(
              RL,
              std::make_unique<hir::NameExpr>(RL,
                                              R.Name + ResultFields[K].Path),
              std::move(Vals[K])));
    } else {
      std::vector<hir::StmtPtr> One;
      stmt(S, One); // a void function returning a void call
    }
  }
  --InlineDepth;
  ThisBase = SavedThis;
  InlinePrefix = SavedPrefix;
  Pre = SavedPre;
  for (auto &[D, N] : Bound)
    Renames.erase(D);
  Pre->push_back(std::move(B));
  return R;
}

/// The stack Clang and the lowering run on (bytes, reserved, touched only
/// as deep as the input nests). Clang's parser recurses once per `else if`
/// (about 1.3 KiB each) without moving to a new stack as its Sema does; 512
/// MiB holds a chain of some 400,000.
constexpr unsigned FrontEndStack = 512u << 20;

/// Runs Lowering once Clang has built the translation unit without errors.
class LowerConsumer : public clang::ASTConsumer {
public:
  LowerConsumer(LocationMap &Locs, hir::DiagnosticEngine &Diags,
                std::unique_ptr<hir::Module> &Out)
      : Locs(Locs), Diags(Diags), Out(Out) {}
  void HandleTranslationUnit(clang::ASTContext &Ctx) override {
    if (Ctx.getDiagnostics().hasErrorOccurred())
      return;
    Out = Lowering(Ctx, Locs, Diags).run();
  }

private:
  LocationMap &Locs;
  hir::DiagnosticEngine &Diags;
  std::unique_ptr<hir::Module> &Out;
};

class LowerAction : public clang::ASTFrontendAction {
public:
  LowerAction(LocationMap &Locs, hir::DiagnosticEngine &Diags,
              std::unique_ptr<hir::Module> &Out)
      : Locs(Locs), Diags(Diags), Out(Out) {}
  std::unique_ptr<clang::ASTConsumer>
  CreateASTConsumer(clang::CompilerInstance &CI, StringRef) override {
    Locs.setSourceManager(&CI.getSourceManager());
    return std::make_unique<LowerConsumer>(Locs, Diags, Out);
  }

private:
  LocationMap &Locs;
  hir::DiagnosticEngine &Diags;
  std::unique_ptr<hir::Module> &Out;
};

/// The most `else if`s one file may have. Clang's parser nests one level
/// per `else if`, and its name lookup walks every enclosing scope, so a
/// chain of n costs n^2 (20,000 take 20 s); kernels are far below this.
constexpr unsigned MaxElseIfs = 2048;

/// Reports the first `else if` of \p Buf past MaxElseIfs, found with Clang's
/// raw lexer (no preprocessing: comments and strings are skipped, macros
/// are not expanded). False when there is one.
bool checkElseIfChains(const llvm::MemoryBuffer &Buf,
                       hir::DiagnosticEngine &Diags) {
  clang::LangOptions LO;
  LO.CPlusPlus = LO.CPlusPlus20 = true;
  clang::Lexer Lex(clang::SourceLocation(), LO, Buf.getBufferStart(),
                   Buf.getBufferStart(), Buf.getBufferEnd());
  clang::Token Tok;
  unsigned N = 0;
  bool AfterElse = false;
  do {
    Lex.LexFromRawLexer(Tok);
    bool IsIdent = Tok.is(clang::tok::raw_identifier);
    if (IsIdent && AfterElse && Tok.getRawIdentifier() == "if" &&
        ++N > MaxElseIfs) {
      const char *At = Lex.getBufferLocation() - 2;
      Diags.error(SMLoc::getFromPointer(At),
                  "more than " + llvm::Twine(MaxElseIfs) +
                      " 'else if' branches in one file (nesting too deep); "
                      "split the chain");
      return false;
    }
    AfterElse = IsIdent && Tok.getRawIdentifier() == "else";
  } while (Tok.isNot(clang::tok::eof));
  return true;
}

} // namespace

std::unique_ptr<hir::Module>
fe::parseCppWithClang(const llvm::SourceMgr &SM, unsigned BufferID,
                      hir::DiagnosticEngine &Diags) {
  const llvm::MemoryBuffer *Buf = SM.getMemoryBuffer(BufferID);
  // The main file keeps its name and directory, so that `#include "x.h"`
  // finds the user's header next to it and messages name the file.
  llvm::SmallString<256> MainPath(Buf->getBufferIdentifier());
  if (MainPath.empty() || MainPath == "-" || MainPath == "<stdin>")
    MainPath = "<stdin>.cpp";
  llvm::sys::fs::make_absolute(MainPath);

  auto Mem = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  auto FS = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(
      llvm::vfs::getRealFileSystem());
  FS->pushOverlay(Mem);
  Mem->addFile(MainPath, 0,
               llvm::MemoryBuffer::getMemBufferCopy(Buf->getBuffer()));
  Mem->addFile("/wave-include/wave_prelude.h", 0,
               llvm::MemoryBuffer::getMemBuffer(WavePrelude));
  for (const char *H : EmptyHeaders)
    Mem->addFile(std::string("/wave-system/") + H, 0,
                 llvm::MemoryBuffer::getMemBuffer(""));

  if (!checkElseIfChains(*Buf, Diags))
    return std::make_unique<hir::Module>(hir::Language::Cpp);
  LocationMap Locs(SM, BufferID);
  DiagForwarder Forward(Diags, Locs);
  std::vector<const char *> Args = {
      "-x", "c++", "-std=c++20", "-fsyntax-only", "-nostdsysteminc",
      "-nobuiltininc", "-nostdinc++", "-isystem", "/wave-system", "-include",
      "/wave-include/wave_prelude.h", "-w", "-ferror-limit", "0",
      "-fno-spell-checking", "-ftemplate-depth=256",
      "-ftemplate-backtrace-limit=4", "-triple", "x86_64-unknown-linux-gnu",
      MainPath.c_str()};

  clang::DiagnosticOptions DiagOpts;
  auto ArgDiags = clang::CompilerInstance::createDiagnostics(*FS, DiagOpts,
                                                              &Forward, false);
  auto Invocation = std::make_shared<clang::CompilerInvocation>();
  if (!clang::CompilerInvocation::CreateFromArgs(*Invocation, Args,
                                                 *ArgDiags)) {
    Diags.error(SMLoc(), "cannot set up Clang for C++ kernels");
    return std::make_unique<hir::Module>(hir::Language::Cpp);
  }
  // Our printer shows the carets; without them Clang also leaves out its
  // "N errors generated." line.
  Invocation->getDiagnosticOpts().ShowCarets = false;
  clang::CompilerInstance CI(Invocation);
  CI.setVirtualFileSystem(FS);
  CI.createDiagnostics(&Forward, /*ShouldOwnClient=*/false);
  std::unique_ptr<hir::Module> Out;
  LowerAction Action(Locs, Diags, Out);
  // On a thread with a stack for deep input. Were crash recovery enabled
  // (llvm::CrashRecoveryContext::Enable; no tool enables it, so that the
  // fuzzers see crashes), a crash in Clang would become this error.
  llvm::CrashRecoveryContext CRC;
  if (!CRC.RunSafelyOnThread([&] { CI.ExecuteAction(Action); },
                             FrontEndStack)) {
    Diags.error(SMLoc(), "Clang's front end ran out of stack on this input "
                         "(statements nested too deep)");
    Out.reset();
  }
  if (!Out)
    Out = std::make_unique<hir::Module>(hir::Language::Cpp);
  return Out;
}
