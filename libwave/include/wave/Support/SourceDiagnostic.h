//===- SourceDiagnostic.h - Located errors in source input ------*- C++ -*-===//
//
// The llvm::Error payload that every parser and checker of text input returns
// (the MIR parser and verifier, the kernel-language front ends): a message
// with an optional source location (an SMLoc into the buffer the parser read)
// and a severity, so a tool prints `file:line:col: error: ...` with the source
// line and a caret through llvm::SourceMgr (docs/conventions.md §5). Several
// diagnostics travel together with llvm::joinErrors, in report order.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_SUPPORT_SOURCEDIAGNOSTIC_H
#define WAVE_SUPPORT_SOURCEDIAGNOSTIC_H

#include "llvm/Support/Error.h"
#include "llvm/Support/SMLoc.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace wave {

/// One diagnostic about source input or an IR invariant.
class SourceDiagError : public llvm::ErrorInfo<SourceDiagError> {
public:
  static char ID;
  /// \p Loc may be invalid (IR made by a pass); \p Kind is DK_Error or
  /// DK_Note (a note follows the error it explains).
  SourceDiagError(llvm::SMLoc Loc, std::string Msg,
                  llvm::SourceMgr::DiagKind Kind = llvm::SourceMgr::DK_Error)
      : Loc(Loc), Msg(std::move(Msg)), Kind(Kind) {}

  llvm::SMLoc loc() const { return Loc; }
  const std::string &text() const { return Msg; }
  llvm::SourceMgr::DiagKind diagKind() const { return Kind; }

  void log(llvm::raw_ostream &OS) const override { OS << Msg; }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }

private:
  llvm::SMLoc Loc;
  std::string Msg;
  llvm::SourceMgr::DiagKind Kind;
};

/// Prints every diagnostic in \p E to \p OS and consumes it: located ones as
/// `file:line:col: error: MSG`, the source line and a caret (through \p SM);
/// others as `TOOL: error: MSG`. \p Prefix, if not empty, is prepended to
/// every message (e.g. "after pass 'cse': "). Returns the number of errors
/// (notes not counted).
unsigned printSourceDiagnostics(llvm::Error E, const llvm::SourceMgr &SM,
                                llvm::StringRef ToolName, llvm::raw_ostream &OS,
                                llvm::StringRef Prefix = "");

} // namespace wave

#endif // WAVE_SUPPORT_SOURCEDIAGNOSTIC_H
