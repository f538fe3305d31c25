//===- CFG.cpp - Basic blocks of the target IR ----------------------------===//
//
// The control-flow graph the dataflow passes share (liveness, wait counts,
// hazards): blocks split at labels and after branches; a block falls through
// to the next unless it ends in s_branch or s_endpgm.
//
//===----------------------------------------------------------------------===//
#include "GCNIR.h"

#include "llvm/ADT/DenseMap.h"

using namespace llvm;

namespace wave::amdgcn {

std::vector<CFGBlock> buildCFG(const MFunction &F) {
  std::vector<CFGBlock> Blocks;
  DenseMap<int64_t, unsigned> LabelBlock;
  unsigned Start = 0;
  auto Close = [&](unsigned End) {
    if (End > Start || Blocks.empty())
      Blocks.push_back({Start, End, {}});
    Start = End;
  };
  for (unsigned I = 0; I < F.Insts.size(); ++I) {
    const MInst &MI = F.Insts[I];
    if (MI.Kind == InstKind::Label && I != Start)
      Close(I);
    if (MI.Kind == InstKind::Label)
      LabelBlock[MI.Ops[0].Value] = unsigned(Blocks.size());
    if (MI.Kind == InstKind::Branch || MI.is(GCNOp::S_ENDPGM))
      Close(I + 1);
  }
  Close(unsigned(F.Insts.size()));
  for (unsigned B = 0; B < Blocks.size(); ++B) {
    CFGBlock &Bl = Blocks[B];
    bool FallsThrough = true;
    if (Bl.End > Bl.Begin) {
      const MInst &Last = F.Insts[Bl.End - 1];
      if (Last.Kind == InstKind::Branch) {
        auto It = LabelBlock.find(Last.Ops[0].Value);
        if (It != LabelBlock.end())
          Bl.Succs.push_back(It->second);
      }
      FallsThrough = !Last.is(GCNOp::S_BRANCH) && !Last.is(GCNOp::S_ENDPGM);
    }
    if (FallsThrough && B + 1 < Blocks.size())
      Bl.Succs.push_back(B + 1);
  }
  return Blocks;
}

} // namespace wave::amdgcn
