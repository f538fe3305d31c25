//===- MIRParser.h - MIR text parser ----------------------------*- C++ -*-===//
//
// Reads the text form of formats/mir.md into a Module. Syntax and type
// errors (every operand's expected type is known from the instruction's
// shape) are reported with their location; structural rules (terminators,
// phi placement, dominance) are the Verifier's.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_IR_MIRPARSER_H
#define WAVE_IR_MIRPARSER_H

#include "wave/IR/MIR.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/SourceMgr.h"

#include <memory>

namespace wave::mir {

/// Parses buffer \p BufferID of \p SM. The returned Module's instructions
/// keep SMLocs into that buffer, so \p SM must outlive any diagnostic that
/// uses them.
///
/// Errors: one SourceDiagError per problem found (joined, in source order; the
/// parser resynchronises at the next line, so several errors are reported
/// per run, at most 20), each with the location of the offending token.
/// Never crashes or asserts on any input bytes.
llvm::Expected<std::unique_ptr<Module>> parseMIR(llvm::SourceMgr &SM,
                                                 unsigned BufferID);

/// Convenience for tests: parses \p Text (named \p Name in diagnostics)
/// into a fresh SourceMgr that \p SM receives.
llvm::Expected<std::unique_ptr<Module>>
parseMIRString(llvm::StringRef Text, llvm::SourceMgr &SM,
               llvm::StringRef Name = "<string>");

} // namespace wave::mir

#endif // WAVE_IR_MIRPARSER_H
