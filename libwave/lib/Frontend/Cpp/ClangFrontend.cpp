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
//   lowers to the MIR of the hand-written parser. The lowering is
//   ClangLowering.{h,cpp} and ClangClasses.cpp; this file runs Clang.
//
//===----------------------------------------------------------------------===//
#include "wave/Frontend/Frontend.h"

#include "ClangLowering.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
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

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"

using namespace wave;
using namespace wave::fe::clangfe;
using llvm::SMLoc;
using llvm::StringRef;

namespace {

//===----------------------------------------------------------------------===//
// The wave:: attributes
//===----------------------------------------------------------------------===//


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

