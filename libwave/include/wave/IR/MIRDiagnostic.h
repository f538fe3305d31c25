//===- MIRDiagnostic.h - Located MIR errors ---------------------*- C++ -*-===//
//
// The llvm::Error payload that the MIR parser and verifier return: a message
// with an optional source location (an SMLoc into the buffer the parser
// read) and a severity, so a tool prints `file:line:col: error: ...` with the
// source line and a caret through llvm::SourceMgr (STYLE.md §5). Several
// diagnostics travel together with llvm::joinErrors, in report order.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_IR_MIRDIAGNOSTIC_H
#define WAVE_IR_MIRDIAGNOSTIC_H

#include "llvm/Support/Error.h"
#include "llvm/Support/SMLoc.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace wave::mir {

/// One diagnostic about MIR input or an IR invariant.
class MIRDiagError : public llvm::ErrorInfo<MIRDiagError> {
public:
  static char ID;
  /// \p Loc may be invalid (IR made by a pass); \p Kind is DK_Error or
  /// DK_Note (a note follows the error it explains).
  MIRDiagError(llvm::SMLoc Loc, std::string Msg,
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
unsigned printMIRDiagnostics(llvm::Error E, const llvm::SourceMgr &SM,
                             llvm::StringRef ToolName, llvm::raw_ostream &OS,
                             llvm::StringRef Prefix = "");

} // namespace wave::mir

#endif // WAVE_IR_MIRDIAGNOSTIC_H
