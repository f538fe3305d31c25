//===- Disassembler.h - .wbin to WAVE assembly ------------------*- C++ -*-===//
//
// Turns a whole `.wbin` (or a bare instruction stream) into assembly text in
// the layout of formats/wave-asm.md §7, with this project's defaults so that
// the output re-assembles to the same bytes (D13-D16). Also parses the hex text
// accepted by `wave-dis --hex`.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_ASM_DISASSEMBLER_H
#define WAVE_ASM_DISASSEMBLER_H

#include "wave/Object/Wbin.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <vector>

namespace wave {

/// Output options (formats/wave-asm.md §7; `wave-dis` flags of the same names).
struct DisasmOptions {
  /// Prefix each instruction line with `0x%04X: `, its file offset.
  bool Offsets = false;
  /// With Offsets: also print W0 as `%08X  ` and W1 on a line of its own.
  bool Raw = false;
  /// Omit `.kernel`/`.end`/attribute lines and blank separators.
  bool NoDirectives = false;
  /// Append `; encoding: [0xW0(,0xW1)]` to each instruction (as
  /// `wave-as --show-encoding`).
  bool ShowEncoding = false;
};

/// Name printed for kernel \p Index when its stored name is empty (unnamed
/// or `--no-symbols` files): `kernel_<Index>`, the reference emulator's
/// fallback (formats/wbin.md "What the reference readers check").
std::string getUnnamedKernelName(unsigned Index);

/// Writes the disassembly of \p F to \p OS: first `.file N "NAME"` for
/// each source file of the line table (N from 1), then per kernel, in table
/// order, `.kernel NAME`, then `.registers N` if N != 32,
/// `.workgroup_size X, Y, Z` if not 0, 0, 0, `.local_memory N` if N != 0
/// (the assembler defaults, D15), one `.param` line per parameter
/// descriptor, the instructions indented by four spaces, each preceded by
/// `.loc FILE LINE COL` where a line-table row starts, with a `loc_XXXX:` line
/// before every instruction that is the target of a `call` in the same
/// kernel (D16), and `.end`; kernels are separated by one empty line. A file
/// without kernels lists its whole code section without directives.
/// Instruction file offsets are `F.Header.CodeOffset` (0x20 if 0) plus the
/// code-section offset.
///
/// Fails with the first DecodeError (formats/isa.md §1.6); its offset is
/// relative to the start of the code section. Output written before the failure
/// is incomplete; callers should buffer it. Never reads outside F.Code.
llvm::Error disassemble(const WbinFile &F, llvm::raw_ostream &OS,
                        const DisasmOptions &Opts = {});

/// Writes one line per instruction of \p Code (no directives, no labels),
/// formatted as disassemble() does; \p BaseOffset (bytes) is added to the
/// offsets printed with DisasmOptions::Offsets. Fails with the first
/// DecodeError, whose offset is relative to \p Code.
llvm::Error disassembleCode(llvm::ArrayRef<uint8_t> Code, llvm::raw_ostream &OS,
                            const DisasmOptions &Opts = {},
                            uint64_t BaseOffset = 0);

/// Parses the main buffer of \p SM as hex text (`wave-dis --hex`): tokens
/// separated by blanks, newlines or commas; `;`, `#` and `//` start
/// comments. Each token is hex digits with an optional `0x` prefix: 1-2
/// digits are one byte, 8 digits one 32-bit little-endian word (as
/// formats/isa.md writes instruction words). Reports every bad token through \p
/// SM and fails if there was one.
llvm::Expected<std::vector<uint8_t>> parseHexText(llvm::SourceMgr &SM);

} // namespace wave

#endif // WAVE_ASM_DISASSEMBLER_H
