//===- LIR.h - Low-level IR of wave-ra --------------------------*- C++ -*-===//
//
// LIR is WAVE assembly over virtual registers: the form in which wave-ra
// (libwave/README.md "The pipeline") holds a function between instruction
// selection and emission. A function is one linear list of instructions whose
// control flow is already structured (if/else/endif,
// loop/break/continue/endloop, halt; formats/isa.md §2.13, §4.15), exactly as
// it will be printed; there are no basic blocks and no branches.
//
// Registers are virtual until register allocation (RegAlloc.h) fills
// LFunction::Assignment. A virtual register has a class (general `r` or
// predicate `p`, formats/isa.md §2.2) and, for general registers, a size: 1, or
// 2 for an f64 that lives in a register pair (rN, rN+1) (formats/isa.md §4.9).
//
// Besides WAVE instructions LIR has two pseudo-instructions (LPseudo):
//   copy dst, src      a register move of the class and size of dst
//                      (mov; two movs for a pair). Phi elimination and
//                      spilling make them; coalescing removes most.
//   pset pd, 0|1       pd := false|true in the active lanes; emitted as
//                      `icmp_ne pd, r0, r0` / `icmp_eq pd, r0, r0` (a
//                      register compared with itself, so no register is
//                      read for its value).
//
// Semantics the allocator relies on (per-thread view of formats/isa.md §4.15
// with the D5, D6 and D8 defaults our emulator implements): every lane runs the
// code as a scalar thread would; a write in a masked-off lane does not happen,
// so liveness computed per thread over the structured control flow is exact.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_CODEGEN_LIR_H
#define WAVE_CODEGEN_LIR_H

#include "wave/ISA/ISA.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace wave::codegen {

/// Register classes of WAVE (formats/isa.md §2.2): general registers r0..r254
/// and predicate registers p0..p3.
enum class RegClass : uint8_t { GPR, Pred };

/// Number of predicate registers (formats/isa.md §4.1).
inline constexpr unsigned NumPredRegs = 4;
/// Largest general register count a kernel may declare (r0..r254 are
/// writable in assembly, formats/wave-asm.md §1; wave-ra allows 256 as the
/// issue's upper bound but never assigns r255).
inline constexpr unsigned MaxGPRs = 255;

/// What is known about one virtual register.
struct VRegInfo {
  RegClass Class = RegClass::GPR;
  /// Consecutive general registers it occupies: 1, or 2 for an f64 pair.
  /// Always 1 for predicates.
  uint8_t Size = 1;
  /// Precoloured physical register (kernel parameters arrive in r0..rn-1,
  /// formats/kernel-abi.md), or -1.
  int16_t Fixed = -1;
  /// Must not be given r0: the destination of a returning atomic, where
  /// rd == 0 encodes "non-returning" (formats/isa.md §2.11).
  bool NoR0 = false;
  /// An outgoing call slot (formats/wave-asm.md §9): an argument or result
  /// register of a call of a declaration, r(B + CallSlot) once allocation
  /// has chosen the call base B (LFunction::CallBase); -1 otherwise. Slot
  /// registers are not allocated: no instruction but the call's argument
  /// moves, the call itself and the move of its result mentions them, and
  /// they are never coalesced.
  int16_t CallSlot = -1;
  /// A readable name for comments and LIR printing: the MIR value it came
  /// from ("i.next"), or empty.
  std::string Name;
};

/// Pseudo-instructions; None means a real WAVE instruction (LInst::Op).
enum class LPseudo : uint8_t { None, Copy, PSet };

/// One operand of an LInst, in assembly order (formats/isa.md §2, Forms.def).
struct LOperand {
  enum class Kind : uint8_t {
    None,
    Reg,     ///< virtual register V (either class); Sub selects a half.
    Imm,     ///< 32-bit immediate V (mov_imm, pset).
    Special, ///< special register index V (formats/isa.md §3).
    Scope,   ///< memory scope V (0..3, formats/isa.md §1.4).
    Label,   ///< call target: index V into LModule::Functions.
    Frag,    ///< MMA fragment id V.
  };
  Kind K = Kind::None;
  /// For a Reg operand of a pair register used by a one-register
  /// instruction (`mov`, `select`, a 32-bit store of one half): 0 for the
  /// low register, 1 for the high one. 0 otherwise.
  uint8_t Sub = 0;
  uint32_t V = 0;

  static LOperand reg(unsigned VReg, unsigned Sub = 0) {
    return {Kind::Reg, uint8_t(Sub), VReg};
  }
  static LOperand imm(uint32_t V) { return {Kind::Imm, 0, V}; }
  static LOperand special(unsigned Index) { return {Kind::Special, 0, Index}; }
  static LOperand scope(unsigned S) { return {Kind::Scope, 0, S}; }
  static LOperand label(unsigned Func) { return {Kind::Label, 0, Func}; }
  static LOperand frag(unsigned Id) { return {Kind::Frag, 0, Id}; }
  bool isReg() const { return K == Kind::Reg; }
};

/// One LIR instruction. Operands follow the WAVE form of Op
/// (Forms.def) with every register operand present; a non-returning atomic
/// is written with its destination omitted (Ops starts at the address).
/// Pseudo-instructions: Copy {dst, src}, PSet {pd, imm}.
/// A `call` of a declaration (formats/wave-asm.md §9) is {label, result
/// slot registers (definitions, CallResults of them), argument slot
/// registers (uses)}; the registers are call-slot virtual registers
/// (VRegInfo::CallSlot) and are not printed in assembly.
struct LInst {
  Opcode Op = Opcode::Nop;
  LPseudo Pseudo = LPseudo::None;
  /// For a `call`: how many operands after the label are results (0 or 1).
  uint8_t CallResults = 0;
  llvm::SmallVector<LOperand, 4> Ops;
  /// Printed after the instruction as `; Comment` (the MIR value or source
  /// it came from); may be empty.
  std::string Comment;
  /// Source position of the MIR instruction this one comes from (its
  /// `!loc`, formats/mir.md "Source files and locations"); Line 0 when
  /// unknown. Printed as `.loc 1 Line Col` where it changes
  /// (formats/wave-asm.md §9).
  uint32_t Line = 0, Col = 0;

  static LInst make(Opcode Op, std::initializer_list<LOperand> Ops,
                    llvm::StringRef Comment = "") {
    LInst I;
    I.Op = Op;
    I.Ops.assign(Ops.begin(), Ops.end());
    I.Comment = Comment.str();
    return I;
  }
  static LInst copy(unsigned Dst, unsigned Src, llvm::StringRef Comment = "") {
    LInst I;
    I.Pseudo = LPseudo::Copy;
    I.Ops = {LOperand::reg(Dst), LOperand::reg(Src)};
    I.Comment = Comment.str();
    return I;
  }
  static LInst pset(unsigned Pd, bool Value, llvm::StringRef Comment = "") {
    LInst I;
    I.Pseudo = LPseudo::PSet;
    I.Ops = {LOperand::reg(Pd), LOperand::imm(Value)};
    I.Comment = Comment.str();
    return I;
  }
  bool isCopy() const { return Pseudo == LPseudo::Copy; }
};

/// Whether operand \p Idx of \p I is written (a definition) rather than
/// read. Destinations of R_* / P_* forms, mov*, returning atomics and the
/// first operand of copy/pset are definitions, and a call's result slot
/// registers (LInst); MMA fragment and store operands are not.
bool isDefOperand(const LInst &I, unsigned Idx);

/// Whether \p I writes virtual register \p VReg (wholly or in part).
bool writesVReg(const LInst &I, unsigned VReg);

/// How many consecutive general registers operand \p Idx of \p I touches,
/// starting at its register (+ Sub): 2 for the f64 operands of
/// dadd/dsub/dmul/dma/ddiv/dsqrt, the f64 side of cvt_f32_f64/cvt_f64_f32,
/// the value of *_load_u64 / *_store_u64 (formats/isa.md §2.6, §2.9, §4.12); 4
/// for the u128 forms; the vreg's Size for copy; 1 otherwise (also for
/// predicates). A definition narrower than its vreg's Size is a partial
/// definition: the other half stays live through it.
unsigned operandWidth(const LInst &I, unsigned Idx,
                      llvm::ArrayRef<VRegInfo> VRegs);

/// A function in LIR.
struct LFunction {
  std::string Name;
  bool IsKernel = true;
  /// Kernel attributes (formats/mir.md): threads per dimension, bytes.
  std::optional<std::array<uint32_t, 3>> WorkgroupSize;
  uint32_t LocalMemory = 0;
  /// Parameters: the first NumParams virtual registers, precoloured to
  /// r0..r(NumParams-1) (formats/kernel-abi.md; a device function's f64
  /// parameter takes a pair, formats/wave-asm.md §9). Other precoloured
  /// virtual registers (a device function's result in r0) are not split
  /// at entry by the allocator.
  unsigned NumParams = 0;
  /// `.param` descriptor lines of a kernel, without the directive
  /// ("x, buffer, f32, read"), in parameter order; empty when a parameter
  /// cannot be described (a ptr<device> without elem(T)).
  std::vector<std::string> ParamLines;
  /// Names of the declared functions this one calls; a `call`'s label
  /// operand indexes this list (printed when no FuncNames are given).
  std::vector<std::string> Callees;
  /// The most argument or result registers of any of its calls
  /// (formats/wave-asm.md §9): the frame reaches r(CallBase + CallSlots - 1).
  unsigned CallSlots = 0;
  /// After register allocation of a function with calls: the call base B,
  /// one above every register allocated to anything else; `.call_base B`.
  unsigned CallBase = 0;
  /// Whether `.loc` directives are printed (the module has a
  /// source_filename, emitted as `.file 1`).
  bool EmitLocs = false;

  std::vector<VRegInfo> VRegs;
  std::vector<LInst> Insts;

  /// After register allocation: the physical register of every virtual
  /// register (the low one of a pair; 0..3 for predicates), or -1 for a
  /// virtual register no instruction uses any more.
  std::vector<int16_t> Assignment;
  /// After register allocation: the `.registers` count (highest general
  /// register written or read, plus one; at least NumParams; with calls,
  /// CallBase + CallSlots).
  unsigned RegistersUsed = 0;

  unsigned newVReg(RegClass C, unsigned Size = 1, llvm::StringRef Name = "") {
    VRegInfo Info;
    Info.Class = C;
    Info.Size = uint8_t(Size);
    Info.Name = Name.str();
    VRegs.push_back(std::move(Info));
    return VRegs.size() - 1;
  }
  bool isAllocated() const { return !Assignment.empty(); }
};

/// Appends to \p Out the computation of the linear thread id within the
/// workgroup, tid_x + wx * (tid_y + wy * tid_z) for a workgroup of \p WG =
/// (wx, wy, wz) threads (formats/isa.md §3), into the general register \p Dst;
/// dimensions of size 1 are skipped (a 1x1x1 workgroup reads tid_x, 0).
/// The sum accumulates in Dst; every constant and special register goes
/// through a fresh temporary from \p NewTemp that dies at its one use, so
/// the sequence needs Dst and one temporary at a time. \p Comment goes on
/// the first instruction. The register allocator's spill base and
/// instruction selection's private slots (formats/wave-asm.md §9) share it.
void emitLinearThreadId(std::vector<LInst> &Out, unsigned Dst,
                        const std::array<uint32_t, 3> &WG,
                        llvm::function_ref<unsigned()> NewTemp,
                        llvm::StringRef Comment = "");

/// Prints \p I in assembly syntax. Before allocation (or with
/// \p Virtual set) registers print as `%rN` / `%pN` (pairs as `%rN:2`,
/// halves as `%rN.hi`); after it, as the assigned `rN` / `pN`. Pseudos
/// print as `copy` / `pset` before allocation and as their expansion after
/// (a copy between identical registers prints nothing). \p FuncNames
/// resolves call labels.
void printLInst(const LFunction &F, const LInst &I, llvm::raw_ostream &OS,
                bool Virtual, llvm::ArrayRef<std::string> FuncNames = {});

/// Prints the whole function: `.kernel` header comment, then one
/// instruction per line, indented by structured-control-flow depth.
void printLFunction(const LFunction &F, llvm::raw_ostream &OS, bool Virtual,
                    llvm::ArrayRef<std::string> FuncNames = {});

} // namespace wave::codegen

#endif // WAVE_CODEGEN_LIR_H
