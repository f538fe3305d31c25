//===- HIRPrinter.h - HIR as text (wave-fe --emit=hir) ----------*- C++ -*-===//
//
// Prints HIR in one language-neutral, C-like syntax: one statement per
// line, blocks indented by two spaces, declarations with their types.
// Before Sema (--emit=ast) it shows the tree as parsed; after Sema
// (--emit=hir) it adds the resolved types of variables and shows every
// implicit conversion as `T(x)` and every intrinsic by its canonical name.
// The text is for people and FileCheck tests; nothing reads it back.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_HIR_HIRPRINTER_H
#define WAVE_HIR_HIRPRINTER_H

#include "wave/HIR/HIR.h"

#include "llvm/Support/raw_ostream.h"

namespace wave::hir {

void printModule(const Module &M, llvm::raw_ostream &OS);
void printExpr(const Expr &E, llvm::raw_ostream &OS);

} // namespace wave::hir

#endif // WAVE_HIR_HIRPRINTER_H
