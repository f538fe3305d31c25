//===- SourceDiagnostic.cpp - Located errors in source input --------------===//
#include "wave/Support/SourceDiagnostic.h"

using namespace llvm;

namespace wave {

char SourceDiagError::ID = 0;

unsigned printSourceDiagnostics(Error E, const SourceMgr &SM,
                                StringRef ToolName, raw_ostream &OS,
                                StringRef Prefix) {
  unsigned Errors = 0;
  handleAllErrors(
      std::move(E),
      [&](const SourceDiagError &D) {
        if (D.diagKind() == SourceMgr::DK_Error)
          ++Errors;
        std::string Msg = (Prefix + D.text()).str();
        if (D.loc().isValid())
          SM.PrintMessage(OS, D.loc(), D.diagKind(), Msg);
        else
          OS << ToolName << ": "
             << (D.diagKind() == SourceMgr::DK_Note ? "note: " : "error: ")
             << Msg << "\n";
      },
      [&](const ErrorInfoBase &EI) {
        ++Errors;
        OS << ToolName << ": error: " << Prefix << EI.message() << "\n";
      });
  return Errors;
}

} // namespace wave
