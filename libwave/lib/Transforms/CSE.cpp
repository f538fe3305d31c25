//===- CSE.cpp - Common subexpression elimination -------------------------===//
//
// Replaces an instruction by an earlier identical one that dominates it
// (local CSE within a block and global CSE across dominating blocks). The
// dominator tree is walked in preorder with a scoped table of available
// expressions, so an expression is reused exactly where its first occurrence
// dominates (the classic dominator-scoped value numbering of Briggs, Cooper,
// Simpson, "Value Numbering", SPE 1997, without the hashing of phis).
//
// Two instructions are identical when opcode, result and auxiliary types,
// immediates (predicate, special register) and operands agree; the first
// two operands of commutative operations are compared as a set. Only
// side-effect-free instructions that do not read memory take part: loads,
// stores, atomics, calls, barriers, fences and MMA are never merged.
// Convergent wave operations are merged only within one block: a dominating
// block may run with more active lanes, and a shuffle or a reduction there
// can see different values (formats/isa.md §4.14).
//
//   before                               after
//   ^entry:                              ^entry:
//     %a = add i32 %x, %y                  %a = add i32 %x, %y
//     condbr %c, ^then, ^exit              condbr %c, ^then, ^exit
//   ^then:                               ^then:
//     %b = add i32 %y, %x                  store i32 %a, ptr<device> %p
//     store i32 %b, ptr<device> %p         ...
//
//===----------------------------------------------------------------------===//
#include "wave/IR/Dominators.h"
#include "wave/Transforms/Pass.h"

#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/SmallVector.h"

#include <unordered_map>
#include <vector>

using namespace llvm;

namespace wave::mir {

namespace {

using Key = std::vector<uint64_t>;

/// Hash of a Key: the tables are hash maps, so a lookup is O(key) rather
/// than O(key x log table) comparisons of a std::map.
struct KeyHash {
  size_t operator()(const Key &K) const {
    return llvm::hash_combine_range(K.begin(), K.end());
  }
};
using Table = std::unordered_map<Key, Instruction *, KeyHash>;

/// The identity of \p I as a flat key.
static Key keyOf(const Instruction &I) {
  Key K;
  K.push_back(uint64_t(I.opcode()));
  K.push_back(uint64_t(I.type()));
  K.push_back(uint64_t(I.auxType()));
  K.push_back(I.imms().size());
  for (uint32_t Imm : I.imms())
    K.push_back(Imm);
  size_t First = K.size();
  for (Value *V : I.operands())
    K.push_back(reinterpret_cast<uintptr_t>(V));
  if (I.isCommutative() && I.numOperands() >= 2 && K[First] > K[First + 1])
    std::swap(K[First], K[First + 1]);
  return K;
}

static bool isCandidate(const Instruction &I) {
  return I.type() != Type::Void && !I.hasSideEffects() && !I.mayReadMemory() &&
         !I.isPhi();
}

class CSEPass : public Pass {
public:
  StringRef name() const override { return "cse"; }

  bool runOnFunction(Function &F, PassStats &Stats) override {
    if (!F.entry())
      return false;
    CFG G(F);
    DominatorTree DT(G);
    Table Avail;
    // One bucket array up front: rehashing a large table repeatedly costs
    // more than the lookups themselves.
    size_t NumInsts = 0;
    for (const auto &BB : F.blocks())
      NumInsts += BB->size();
    Avail.reserve(NumInsts);
    // Undo log: keys inserted in each open scope.
    struct Frame {
      BasicBlock *BB;
      unsigned NextChild;
      std::vector<Key> Added;
    };
    std::vector<Frame> Stack;
    unsigned Removed = 0;
    auto Enter = [&](BasicBlock *BB) {
      Frame Fr{BB, 0, {}};
      Table Local; // convergent ops: this block only
      for (auto It = BB->begin(); It != BB->end();) {
        Instruction &I = *It++;
        if (!isCandidate(I))
          continue;
        Key K = keyOf(I);
        auto &Table = I.isConvergent() ? Local : Avail;
        auto [Pos, New] = Table.insert({K, &I});
        if (New) {
          if (!I.isConvergent())
            Fr.Added.push_back(std::move(K));
          continue;
        }
        I.replaceAllUsesWith(Pos->second);
        I.eraseFromParent();
        ++Removed;
      }
      Stack.push_back(std::move(Fr));
    };
    Enter(F.entry());
    while (!Stack.empty()) {
      Frame &Top = Stack.back();
      ArrayRef<BasicBlock *> Kids = DT.children(Top.BB);
      if (Top.NextChild < Kids.size()) {
        Enter(Kids[Top.NextChild++]);
        continue;
      }
      for (const Key &K : Top.Added)
        Avail.erase(K);
      Stack.pop_back();
    }
    Stats.add(name(), "instructions eliminated", Removed);
    return Removed != 0;
  }
};

} // namespace

std::unique_ptr<Pass> createCSEPass() { return std::make_unique<CSEPass>(); }

} // namespace wave::mir
