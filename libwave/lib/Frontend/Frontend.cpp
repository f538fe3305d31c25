//===- Frontend.cpp - Parser dispatch -------------------------------------===//
#include "wave/Frontend/Frontend.h"

#include "llvm/Support/ErrorHandling.h"

using namespace wave;

std::unique_ptr<hir::Module> fe::parseSource(hir::Language Lang,
                                             const llvm::SourceMgr &SM,
                                             unsigned BufferID,
                                             hir::DiagnosticEngine &Diags) {
  switch (Lang) {
  case hir::Language::Python:
    return parsePython(SM, BufferID, Diags);
  case hir::Language::Cpp:
    return parseCppWithClang(SM, BufferID, Diags);
  case hir::Language::Rust:
    return parseRust(SM, BufferID, Diags);
  case hir::Language::TypeScript:
    return parseTypeScript(SM, BufferID, Diags);
  }
  llvm_unreachable("bad language");
}
