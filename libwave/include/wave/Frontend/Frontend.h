//===- Frontend.h - Kernel-language parsers ---------------------*- C++ -*-===//
//
// One recursive-descent parser per kernel language
// (formats/kernel-languages.md), each over its own tokenizer with line and
// column tracking, each producing unchecked HIR (HIR.h): names unresolved,
// types only where the source writes them. Parsers report every syntax error of
// the buffer (they resynchronise at the next statement) and reject constructs
// outside the dialect (classes, closures, strings, exceptions, ...) with a
// located error.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_FRONTEND_FRONTEND_H
#define WAVE_FRONTEND_FRONTEND_H

#include "wave/HIR/Diagnostics.h"
#include "wave/HIR/HIR.h"

#include "llvm/Support/SourceMgr.h"

#include <memory>

namespace wave::fe {

/// Parses buffer \p BufferID of \p SM as Python kernel source. Always
/// returns a module (possibly partial); \p Diags has the errors.
std::unique_ptr<hir::Module> parsePython(const llvm::SourceMgr &SM,
                                         unsigned BufferID,
                                         hir::DiagnosticEngine &Diags);
/// The same for the C++ dialect, with the dialect's own hand-written parser
/// (wave-fe --cpp-frontend=builtin), which accepts exactly the subset of
/// formats/kernel-languages.md §10 without Clang's additions.
std::unique_ptr<hir::Module> parseCpp(const llvm::SourceMgr &SM,
                                      unsigned BufferID,
                                      hir::DiagnosticEngine &Diags);
/// The same for the C++ dialect through Clang's front end (C++20, in
/// process): Clang parses, instantiates templates, resolves overloads and
/// reports C++ errors; the checked AST is lowered to the same unchecked HIR
/// parseCpp builds (Cpp/ClangFrontend.cpp).
std::unique_ptr<hir::Module> parseCppWithClang(const llvm::SourceMgr &SM,
                                               unsigned BufferID,
                                               hir::DiagnosticEngine &Diags);
/// The same for the Rust dialect.
std::unique_ptr<hir::Module> parseRust(const llvm::SourceMgr &SM,
                                       unsigned BufferID,
                                       hir::DiagnosticEngine &Diags);
/// The same for the TypeScript dialect.
std::unique_ptr<hir::Module> parseTypeScript(const llvm::SourceMgr &SM,
                                             unsigned BufferID,
                                             hir::DiagnosticEngine &Diags);

/// Dispatches to the parser of \p Lang; C++ goes through Clang
/// (parseCppWithClang).
std::unique_ptr<hir::Module> parseSource(hir::Language Lang,
                                         const llvm::SourceMgr &SM,
                                         unsigned BufferID,
                                         hir::DiagnosticEngine &Diags);

} // namespace wave::fe

#endif // WAVE_FRONTEND_FRONTEND_H
