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
#include "clang/Sema/ParsedAttr.h"
#include "clang/Sema/Sema.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"
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

private:
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
    auto Size = std::make_unique<hir::IntLitExpr>(
        L, AT->getSize().getZExtValue());
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
      L, V->getNameAsString(), Auto ? std::nullopt : std::optional(*S),
      std::move(Init), Mutable));
}

void Lowering::stmt(const clang::Stmt *S, std::vector<hir::StmtPtr> &Out) {
  if (!S)
    return;
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
    Out.push_back(std::make_unique<hir::WhileStmt>(
        loc(W), expr(W->getCond()), block(W->getBody())));
    return;
  }
  case clang::Stmt::DoStmtClass: {
    const auto *D = llvm::cast<clang::DoStmt>(S);
    Out.push_back(std::make_unique<hir::WhileStmt>(
        loc(D), expr(D->getCond()), block(D->getBody()), /*DoWhile=*/true));
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
    if (F->getCond())
      FS->Cond = expr(F->getCond());
    if (F->getInc())
      FS->Step = simpleStmt(F->getInc());
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
      return std::make_unique<hir::NameExpr>(L, V->getNameAsString());
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
    return std::make_unique<hir::BinaryExpr>(L, *Op, expr(B->getLHS()),
                                             expr(B->getRHS()));
  }
  case clang::Stmt::ConditionalOperatorClass: {
    const auto *C = llvm::cast<clang::ConditionalOperator>(E);
    return std::make_unique<hir::ConditionalExpr>(
        loc(C->getQuestionLoc()), expr(C->getCond()), expr(C->getTrueExpr()),
        expr(C->getFalseExpr()));
  }
  case clang::Stmt::ArraySubscriptExprClass: {
    const auto *A = llvm::cast<clang::ArraySubscriptExpr>(E);
    return std::make_unique<hir::IndexExpr>(
        loc(A->getRBracketLoc()), expr(A->getBase()), expr(A->getIdx()));
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
    return call(llvm::cast<clang::CallExpr>(E));
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
  CI.ExecuteAction(Action);
  if (!Out)
    Out = std::make_unique<hir::Module>(hir::Language::Cpp);
  return Out;
}
