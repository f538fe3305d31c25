//===- Diagnostics.h - Collecting located frontend errors -------*- C++ -*-===//
//
// The frontends report every error of a file in one run (issue "wave-fe",
// "Bad input"): parsers recover at statement boundaries and Sema goes on
// with an Invalid type after an error. DiagnosticEngine collects the
// diagnostics in report order and hands them over as one llvm::Error of
// joined SourceDiagErrors, which wave::printSourceDiagnostics prints as
// `file:line:col: error: ...` with the source line and a caret
// (docs/conventions.md §5).
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_HIR_DIAGNOSTICS_H
#define WAVE_HIR_DIAGNOSTICS_H

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/SMLoc.h"
#include "llvm/Support/SourceMgr.h"

#include <string>
#include <vector>

namespace wave::hir {

/// Collects errors and notes. A note explains the error reported just
/// before it (e.g. "'x' is declared here").
class DiagnosticEngine {
public:
  /// Records an error at \p Loc (may be invalid: no location).
  void error(llvm::SMLoc Loc, const llvm::Twine &Msg);
  /// Records a note attached to the previous error; dropped if that error
  /// was suppressed.
  void note(llvm::SMLoc Loc, const llvm::Twine &Msg);

  unsigned numErrors() const { return NumErrors; }
  bool hasErrors() const { return NumErrors != 0; }

  /// While suppressed (a nesting count), error() and note() are dropped and
  /// not counted: Sema's type-inference pass checks a function once
  /// quietly before the pass that reports.
  void suppress() { ++Suppressed; }
  void unsuppress() { --Suppressed; }

  /// Moves every recorded diagnostic into one llvm::Error (joined
  /// SourceDiagError payloads, in report order); success if none.
  llvm::Error takeError();

  /// Stop recording after this many errors (later ones are counted only);
  /// a garbage file must not print megabytes.
  static constexpr unsigned MaxErrors = 50;

private:
  struct Entry {
    llvm::SMLoc Loc;
    std::string Msg;
    llvm::SourceMgr::DiagKind Kind;
  };
  std::vector<Entry> Entries;
  unsigned NumErrors = 0;
  unsigned Suppressed = 0;
  bool LastErrorDropped = false;
};

} // namespace wave::hir

#endif // WAVE_HIR_DIAGNOSTICS_H
