//===- Diagnostics.cpp - Collecting located frontend errors ---------------===//
#include "wave/HIR/Diagnostics.h"

#include "wave/Support/SourceDiagnostic.h"

using namespace wave::hir;

void DiagnosticEngine::error(llvm::SMLoc Loc, const llvm::Twine &Msg) {
  // A suppressed error is not an error of the input (Sema's quiet pass
  // reports again what is still wrong).
  LastErrorDropped = Suppressed != 0;
  if (LastErrorDropped)
    return;
  ++NumErrors;
  LastErrorDropped = NumErrors > MaxErrors;
  if (!LastErrorDropped)
    Entries.push_back({Loc, Msg.str(), llvm::SourceMgr::DK_Error});
}

void DiagnosticEngine::note(llvm::SMLoc Loc, const llvm::Twine &Msg) {
  if (!LastErrorDropped && Suppressed == 0)
    Entries.push_back({Loc, Msg.str(), llvm::SourceMgr::DK_Note});
}

llvm::Error DiagnosticEngine::takeError() {
  llvm::Error All = llvm::Error::success();
  for (Entry &E : Entries)
    All = llvm::joinErrors(
        std::move(All),
        llvm::make_error<SourceDiagError>(E.Loc, std::move(E.Msg), E.Kind));
  if (NumErrors > MaxErrors)
    All = llvm::joinErrors(
        std::move(All),
        llvm::make_error<SourceDiagError>(
            llvm::SMLoc(), "too many errors (" + std::to_string(NumErrors) +
                               "); only the first " +
                               std::to_string(MaxErrors) + " are shown"));
  Entries.clear();
  return All;
}
