//===- Linker.h - Links .wbin objects into executables ----------*- C++ -*-===//
//
// The static linker behind wave-link and behind wave-as without -c
// (formats/wbin.md "Linking"). Inputs are `.wbin` files with the extension
// sections of formats/wbin.md; kernels and device functions are units of
// code; `call` relocations connect them.
//
// WAVE's call targets are byte offsets from the start of the *running*
// kernel (formats/isa.md §4.16), and WAVE has no stack, so an executable gives
// every kernel a private copy of each device function it reaches, placed after
// the kernel inside the kernel's code range, with the copy's registers
// renumbered into a window above its caller's frame.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_LINK_LINKER_H
#define WAVE_LINK_LINKER_H

#include "wave/Object/Wbin.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <string>
#include <vector>

namespace wave {

/// One input object: its name for diagnostics and its parsed contents.
struct LinkInput {
  std::string Name;
  WbinFile File;
};

/// Options of link().
struct LinkOptions {
  /// Produce a relocatable object (`wave-link -r`): units are merged,
  /// references between them stay relocations, undefined symbols may remain.
  bool Relocatable = false;
  /// Discard units not reachable through calls from the roots (the entry
  /// kernels; in a relocatable link also every global function) before
  /// resolving symbols, so their undefined references do not matter.
  bool GCSections = false;
  /// Kernels to keep, by name (`--entry`); empty keeps every kernel.
  std::vector<std::string> Entries;
  /// Drop the line table (`--strip-debug`).
  bool StripDebug = false;
  /// Write no extension area at all: a reference-format file (`--strip`).
  bool Strip = false;
  /// Called with "FILE: NAME" for each unit --gc-sections discards.
  std::function<void(llvm::StringRef)> OnDiscard;
};

/// Links \p Inputs (formats/wbin.md "Linking"). An executable holds every
/// entry kernel, in input order, each followed by its private copies of the
/// device functions it reaches (depth first, in first-call order), with
/// `call` W1 fields patched and callee registers renumbered; its
/// register_count covers every copy's window; parameter descriptors and
/// line rows are carried over. Output bytes depend only on the inputs'
/// contents and order; the order of inputs that define no kernel does not
/// matter.
///
/// Fails with one error whose message names the file(s) involved when: an
/// input is not relocatable and has more than kernels (executables are not
/// linkable); a global symbol is defined twice ("duplicate symbol 'f'
/// defined in a.wbin and b.wbin"); a referenced symbol is undefined
/// everywhere; two kernels share a name; an `--entry` names no kernel; the
/// call graph of a kernel has a cycle (recursion: "recursive call chain
/// k -> f -> f"), is deeper than WAVE's 8-entry call stack (formats/isa.md
/// §4.16), or needs registers beyond r254; a relocation's target is a kernel or
/// a label of another unit.
llvm::Expected<WbinFile> link(llvm::ArrayRef<LinkInput> Inputs,
                              const LinkOptions &Opts = {});

/// Links the one relocatable object \p Object (what assemble() returns for
/// the source named \p Name) on its own into an executable: link() of a
/// single input with default options. Fails as link() does, e.g. when a
/// `call` names a function the object does not define.
llvm::Expected<WbinFile> linkExecutable(WbinFile Object, llvm::StringRef Name);

/// Renumbers every general-register operand (OperandKind::Reg) of the
/// instructions in \p Code by adding \p Delta, leaving an omitted optional
/// destination (field 0 of an OptionalDest form) alone. Fails with the byte
/// offset of the first instruction that does not decode or whose register
/// would exceed r254.
llvm::Error shiftRegisters(std::vector<uint8_t> &Code, unsigned Delta);

} // namespace wave

#endif // WAVE_LINK_LINKER_H
