//===- Verifier.h - MIR well-formedness checks ------------------*- C++ -*-===//
//
// The invariants every pass may assume and must keep (formats/mir.md,
// "Well-formedness"): blocks end in exactly one terminator with phis first;
// phis agree with the predecessors; every operand has the type its opcode
// and shape require; SSA definitions dominate their uses in reachable code
// (Cooper-Harvey-Kennedy dominators, Dominators.h); calls match their
// callee; kernels keep formats/kernel-abi.md.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_IR_VERIFIER_H
#define WAVE_IR_VERIFIER_H

#include "wave/IR/MIR.h"

#include "llvm/Support/Error.h"

namespace wave::mir {

/// Checks \p F. Returns success, or one SourceDiagError per violation (at most
/// 20, in block order), each naming the function, block and instruction
/// ("function '@f', block '^b', instruction '%3 = add i32 %1, %2': ...") and
/// located at the instruction's source position when it has one.
llvm::Error verifyFunction(const Function &F);

/// Checks the rules of private variable slots in \p F (formats/mir.md,
/// "Private variables"): `alloca` appears only in the entry block; a
/// ptr<private> value is always an alloca result (never an argument, a
/// function result, a phi, a select, a load or a bitcast); it is used only
/// as the address of load, load_u8, load_u16, store, store_u8 or store_u16
/// (never stored, passed to a call, compared or offset); and an access
/// moves at most the slot's size. Returns one SourceDiagError per violation
/// in the verifyFunction format. verifyFunction calls it;
/// implemented in VerifierAlloca.cpp.
llvm::Error verifyPrivateSlots(const Function &F);

/// Checks every function of \p M (see verifyFunction).
llvm::Error verifyModule(const Module &M);

/// Largest number of kernel parameters: they arrive in r0..r31
/// (formats/kernel-abi.md "Limits"; formats/isa.md §4.1 has 32 general
/// registers by default).
inline constexpr unsigned MaxKernelParams = 32;

} // namespace wave::mir

#endif // WAVE_IR_VERIFIER_H
