//===- Input.h - Reading a program given as assembly or .wbin ---*- C++ -*-===//
//
// Tools that consume a whole WAVE program (wave-as with a second target)
// accept either WAVE assembly, assembled in process, or an executable
// `.wbin`, told apart by the `.wbin` magic. Diagnostics are printed here, in
// the formats of Tool.h, so that every such tool reports them alike.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_TOOL_INPUT_H
#define WAVE_TOOL_INPUT_H

#include "wave/Asm/AsmParser.h"
#include "wave/Object/Wbin.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>
#include <optional>

namespace wave::tool {

/// The program in \p Buf, read from \p Input (a path, or "-" for stdin;
/// used in messages only). When \p AcceptWbin is set and \p Buf starts with
/// the `.wbin` magic "WAVE", it is read with readWbin() and must be an
/// executable: a relocatable object is refused with "'FILE': relocatable
/// object; link it with wave-link first". Otherwise \p Buf is WAVE assembly
/// and is assembled with \p Opts and, unless \p Opts.Relocatable, linked on
/// its own (linkExecutable(); its error is printed as "TOOL: error: FILE:
/// MSG"). Every diagnostic has been printed to
/// stderr when this returns std::nullopt (the caller exits with
/// ExitInvalidInput).
std::optional<WbinFile> loadProgram(llvm::StringRef ToolName,
                                    std::unique_ptr<llvm::MemoryBuffer> Buf,
                                    llvm::StringRef Input, bool AcceptWbin,
                                    const AsmOptions &Opts);

/// Assembles \p Source (named \p BufferName in diagnostics) with
/// assembleString() and links the object on its own (linkExecutable()):
/// WAVE assembly to a program the emulator and the translators run. The
/// assembler's diagnostics are appended, as printed, to \p Diags if
/// non-null; a link failure is the returned error.
llvm::Expected<WbinFile> assembleExecutable(llvm::StringRef Source,
                                            llvm::StringRef BufferName,
                                            std::string *Diags = nullptr,
                                            const AsmOptions &Opts = {});

} // namespace wave::tool

#endif // WAVE_TOOL_INPUT_H
