//===- Sema.h - Checking HIR ------------------------------------*- C++ -*-===//
//
// Semantic analysis of a parsed HIR module (HIR.h): binds names
// (NameExpr::Var/Parm, CallExpr::Target/Intrinsic), infers the types of
// variables declared without one, checks every operation by the rules of
// formats/kernel-languages.md ("Types and conversions") for the module's
// language and makes each implicit conversion an explicit CastExpr
// (Implicit), recognises intrinsics and casts written as calls, folds
// shared-array sizes and lays shared arrays out in local memory, and
// validates the GPU rules: no recursion, kernels return nothing and take
// 32-bit parameters, stores only to writable buffers, barrier() not under
// control flow that depends on the thread (when it can tell), every path
// of a function with a result returns.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_HIR_SEMA_H
#define WAVE_HIR_SEMA_H

#include "wave/HIR/Diagnostics.h"
#include "wave/HIR/HIR.h"

namespace wave::hir {

/// Checks \p M in place, reporting to \p Diags. Returns true when no error
/// was reported; only then may the module be lowered.
bool checkModule(Module &M, DiagnosticEngine &Diags);

} // namespace wave::hir

#endif // WAVE_HIR_SEMA_H
