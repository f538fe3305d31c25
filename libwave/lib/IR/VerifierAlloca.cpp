//===- VerifierAlloca.cpp - Rules of private variable slots ---------------===//
//
// The verifier's checks for `alloca` and ptr<private> (formats/mir.md,
// "Private variables"), kept apart from the main walk in Verifier.cpp.
// The rules make every slot a plain per-thread variable whose address never
// escapes: that is what lets mem2reg reason about a slot from its use list
// alone (no aliasing, no calls that might touch it), and what lets wave-ra
// later place surviving slots in registers or private memory without an
// address-taken analysis.
//
//===----------------------------------------------------------------------===//
#include "wave/IR/MIRPrinter.h"
#include "wave/IR/Verifier.h"
#include "wave/Support/SourceDiagnostic.h"

#include "llvm/ADT/Twine.h"

using namespace llvm;

namespace wave::mir {

/// Bits moved by a load or store (the _u8/_u16 forms by their width).
static unsigned accessBits(const Instruction &I) {
  switch (I.opcode()) {
  case Opcode::LoadU8:
  case Opcode::StoreU8:
    return 8;
  case Opcode::LoadU16:
  case Opcode::StoreU16:
    return 16;
  case Opcode::Store:
    return typeBits(I.operand(0)->type());
  default:
    return typeBits(I.type());
  }
}

Error verifyPrivateSlots(const Function &F) {
  Error Errs = Error::success();
  // Fast path: most functions have no private slots at all.
  bool Any = F.returnType() == Type::PtrPrivate;
  for (unsigned K = 0; K < F.numArgs(); ++K)
    Any |= F.arg(K)->type() == Type::PtrPrivate;
  for (const auto &BB : F.blocks())
    for (const Instruction &I : BB->insts())
      Any |= I.type() == Type::PtrPrivate || I.opcode() == Opcode::Alloca;
  if (!Any)
    return Errs;

  SlotNames Names(F);
  unsigned Count = 0;
  auto Fail = [&](const BasicBlock *BB, const Instruction *I,
                  const Twine &Msg) {
    if (++Count > 20)
      return;
    std::string Where = ("function '@" + F.name() + "'").str();
    SMLoc Loc = F.loc();
    if (BB)
      Where += ", block '" + Names.block(BB) + "'";
    if (I) {
      std::string Text;
      raw_string_ostream OS(Text);
      printInstruction(*I, Names, OS);
      Where += ", instruction '" + Text + "'";
      Loc = I->loc();
    }
    Errs =
        joinErrors(std::move(Errs),
                   make_error<SourceDiagError>(Loc, Where + ": " + Msg.str()));
  };

  if (F.returnType() == Type::PtrPrivate)
    Fail(nullptr, nullptr, "a function cannot return 'ptr<private>'");
  for (unsigned K = 0; K < F.numArgs(); ++K)
    if (F.arg(K)->type() == Type::PtrPrivate)
      Fail(nullptr, nullptr,
           "parameter " + Twine(K) + " ('" + Names.value(F.arg(K)) +
               "') has type 'ptr<private>'; private slots do not cross "
               "calls");

  for (const auto &BB : F.blocks())
    for (const Instruction &I : BB->insts()) {
      if (I.opcode() == Opcode::Alloca) {
        if (BB.get() != F.entry())
          Fail(BB.get(), &I, "'alloca' must be in the entry block");
      } else if (I.type() == Type::PtrPrivate) {
        Fail(BB.get(), &I, "only 'alloca' produces a 'ptr<private>' value");
      }
      // Operands of type ptr<private>: only load/store addresses.
      for (unsigned K = 0; K < I.numOperands(); ++K) {
        const Value *V = I.operand(K);
        if (V->type() != Type::PtrPrivate)
          continue;
        Shape S = I.desc().Shp;
        bool IsAddress =
            (S == Shape::Load && K == 0) || (S == Shape::Store && K == 1);
        if (!IsAddress) {
          Fail(BB.get(), &I,
               "the address of private slot '" + Names.value(V) +
                   "' may only be used as the address of a load or store");
          continue;
        }
        const auto *Slot = dyn_cast<Instruction>(V);
        if (!Slot || Slot->opcode() != Opcode::Alloca)
          continue; // reported at its definition
        if (accessBits(I) > typeBits(Slot->auxType()))
          Fail(BB.get(), &I,
               "access of " + Twine(accessBits(I)) +
                   " bits is larger than private slot '" + Names.value(V) +
                   "' of type '" + typeName(Slot->auxType()) + "'");
      }
    }
  return Errs;
}

} // namespace wave::mir
