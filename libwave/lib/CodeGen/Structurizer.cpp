//===- Structurizer.cpp - Reducible CFG to WAVE structured control --------===//
//
// Turns a reducible CFG into WAVE's structured control flow (formats/isa.md
// §2.13, §4.15; per-thread semantics of §8 D5, D6, D8 as documented in
// Structurizer.h) without duplicating any node.
//
// The method follows Ramsey, "Beyond Relooper: recursive translation of
// unstructured control flow to structured control flow" (ICFP 2022): code
// is laid out along the dominator tree, a node's branch becomes an If/Else
// whose arms hold the dominator children that have the node as their only
// forward predecessor, and the other dominator children ("merge nodes") are
// placed after the node's construct in reverse post-order. Wasm's `block` /
// `br` (a forward jump to the end of an enclosing block) has no WAVE
// counterpart, so a forward jump to a merge node Y is a flag: the edge sets
// flag Y, and Y's code is wrapped in `If flag_Y` unless every thread that can
// reach Y's position is bound for Y (the usual diamond needs no flag).
// WAVE loops repeat when control falls into `endloop`, so loop exits are
// `Break`s and the exit targets are placed after the `EndLoop`; a loop with
// several exit targets, or an exit through several loops, records the target
// in a flag that is tested after each `EndLoop` (`Break f` / `Continue f`).
//
// Before (CFG):                     After:
//   ^e: br ^h                         block ^e
//   ^h: condbr ^b, ^x                 loop
//   ^b: br ^h                           block ^h
//   ^x: ret                             break !^h
//                                       block ^b
//                                     endloop
//                                     block ^x
//                                     halt
//
// Steps (all near-linear, and iterative, so 100k-node functions are fine):
//  1. DFS from the entry: reverse post-order (RPO) and retreating edges.
//  2. Dominators: Cooper, Harvey, Kennedy, "A Simple, Fast Dominance
//     Algorithm" (2001), Figure 3. A retreating edge whose target does not
//     dominate its source proves the CFG irreducible (Hecht and Ullman).
//  3. Natural loops, nested by header (inner loops first, union-find to
//     the outermost known loop, as in LLVM's LoopInfo). An exit into a
//     region that only returns (`if (c) return;` in a loop body) joins the
//     loop, so it ends in Halt inside the loop instead of costing a Break
//     and a flag; the loop's own test (at its header or a latch) stays a
//     Break so that while loops keep their shape.
//  4. Placement tree: each node hangs under its nearest dominator whose
//     construct sits in the same loop context (a node that exits a loop is
//     placed after the `EndLoop` of the outermost loop it leaves).
//  5. Pre-order numbering of the placement tree (= the order of the Block
//     statements), then a bottom-up pass: the largest position any thread
//     leaving a construct may still be bound for decides which merge nodes
//     need a guard flag. Two guarded merges in a row whose threads are
//     exactly those bound for one or the other share one flag as If/Else.
//  6. Emission, then peepholes (a Continue that falls into EndLoop anyway,
//     empty If arms, SetFlags nobody reads) and flag numbering: flags whose
//     lives do not overlap share a number.
//
// Known limit: If/Loop nesting follows the dominator tree, and a guarded
// merge nests what it dominates; nothing here keeps the depth within the
// 32 frames of formats/isa.md §4.15 (CodeGen.cpp refuses a kernel that exceeds
// it).
//
//===----------------------------------------------------------------------===//
#include "wave/CodeGen/Structurizer.h"

#include "wave/IR/Dominators.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <functional>
#include <queue>

using namespace llvm;

namespace wave::codegen {
namespace {

constexpr unsigned None = ~0u;

/// How an edge X -> T is translated, seen from X's innermost loop.
enum class EdgeKind : uint8_t {
  ContinueInner, ///< back edge to the header of X's innermost loop
  ContinueOuter, ///< back edge to the header of an enclosing loop
  Exit,          ///< forward edge leaving X's innermost loop
  Forward,       ///< forward edge inside X's innermost loop
};

/// The translation of one outgoing edge: either a node whose construct is
/// emitted in place (Inline) or a short statement list.
struct Action {
  unsigned Inline = None;
  SmallVector<SStmt, 2> Stmts;

  bool isInline() const { return Inline != None; }
  bool isEmpty() const { return !isInline() && Stmts.empty(); }
  bool endsInLeave() const {
    return !isInline() && !Stmts.empty() &&
           (Stmts.back().K == SStmt::Kind::Break ||
            Stmts.back().K == SStmt::Kind::Continue);
  }
  /// A lone unconditional Break or Continue: it can take the branch
  /// condition itself instead of being wrapped in an If.
  bool isPureLeave() const { return endsInLeave() && Stmts.size() == 1; }
  bool isPureBreak() const {
    return isPureLeave() && Stmts[0].K == SStmt::Kind::Break;
  }
  bool sameAs(const Action &O) const {
    if (isInline() || O.isInline() || Stmts.size() != O.Stmts.size())
      return false;
    for (auto [A, B] : zip(Stmts, O.Stmts))
      if (A.K != B.K || A.Id != B.Id || A.Value != B.Value ||
          A.Cond.K != B.Cond.K || A.Cond.Id != B.Cond.Id ||
          A.Cond.Negated != B.Cond.Negated)
        return false;
    return true;
  }
};

/// An entry of the emission work list: a statement, or the whole construct
/// of a node.
struct Item {
  bool IsStmt;
  unsigned Node;
  SStmt S;
  static Item stmt(SStmt S) { return {true, None, S}; }
  static Item construct(unsigned N) { return {false, N, SStmt{}}; }
};

SStmt mk(SStmt::Kind K, SCond C = SCond::always()) {
  SStmt S;
  S.K = K;
  S.Cond = C;
  return S;
}
SStmt mkBlock(unsigned N) {
  SStmt S = mk(SStmt::Kind::Block);
  S.Id = N;
  return S;
}
SStmt mkSet(unsigned F, bool V) {
  SStmt S = mk(SStmt::Kind::SetFlag);
  S.Id = F;
  S.Value = V;
  return S;
}

class Structurizer {
public:
  Structurizer(const SCFG &G, StringRef FuncName)
      : G(G), FuncName(FuncName), N(G.size()) {}

  Expected<StructuredCode> run();
  /// Steps 1-2 only: input checks, RPO, dominators, reducibility.
  Error analyze();

private:
  const SCFG &G;
  StringRef FuncName;
  unsigned N;

  // --- CFG over reachable nodes -------------------------------------------
  std::vector<SmallVector<unsigned, 2>> Succs; ///< distinct successors
  std::vector<SmallVector<unsigned, 2>> Preds; ///< distinct reachable preds
  std::vector<unsigned> RPO;                   ///< reachable nodes
  std::vector<unsigned> RPONum;                ///< None if unreachable
  std::vector<std::pair<unsigned, unsigned>> Retreating;

  // --- Dominators -----------------------------------------------------------
  std::vector<unsigned> IDom;
  std::vector<unsigned> DomIn, DomOut;

  // --- Loops (loop 0 is the whole function) --------------------------------
  std::vector<unsigned> LoopOf;     ///< node -> innermost loop
  std::vector<unsigned> HeaderLoop; ///< node -> loop it heads, or 0
  std::vector<unsigned> LoopHeader, LoopParent, LoopIn, LoopOut;
  std::vector<SmallVector<unsigned, 2>> Exits; ///< loop -> exit targets
  /// Loop L's dispatch tests flags of the targets that leave its parent.
  std::vector<bool> DispatchReads;
  /// Loop L has an exit target that stays in its parent loop.
  std::vector<bool> HasFlowExit;

  // --- Placement tree -------------------------------------------------------
  std::vector<unsigned> Place; ///< placement parent
  std::vector<bool> IsInline;  ///< emitted inside its parent's branch arm
  std::vector<SmallVector<unsigned, 2>> MergeIn, MergePost;
  std::vector<unsigned> Pre; ///< position of the node's Block statement
  std::vector<bool> Guarded, FwdNeeded, ContNeeded;
  /// The largest position a thread falling out of a node's construct may be
  /// bound for; -1 when no thread falls out (all halt, break or continue).
  std::vector<int64_t> MaxOut;
  /// A node's construct may continue the loop around it.
  std::vector<bool> MayContinue;
  /// ElseOf[M]: the next merge sibling, emitted as the Else of M's guard
  /// (the threads that skip M are exactly those bound for it).
  std::vector<unsigned> ElseOf;

  // Logical flag numbers, remapped to shared numbers at the end.
  unsigned fwdFlag(unsigned T) const { return T; }
  unsigned contFlag(unsigned H) const { return N + H; }

  std::string name(unsigned V) const {
    if (V < G.Names.size() && !G.Names[V].empty())
      return G.Names[V];
    return ("#" + Twine(V)).str();
  }
  bool reachable(unsigned V) const { return RPONum[V] != None; }
  bool dominates(unsigned A, unsigned B) const {
    return DomIn[A] <= DomIn[B] && DomOut[B] <= DomOut[A];
  }
  /// Whether node T is a member of loop L (loop 0 holds every node).
  bool contains(unsigned L, unsigned T) const {
    unsigned TL = LoopOf[T];
    return L == 0 || (LoopIn[L] <= LoopIn[TL] && LoopIn[TL] < LoopOut[L]);
  }
  /// The loop whose body holds node V's construct: for a header, the loop
  /// around its own loop.
  unsigned ctx(unsigned V) const {
    return HeaderLoop[V] ? LoopParent[HeaderLoop[V]] : LoopOf[V];
  }
  bool isBackEdge(unsigned X, unsigned T) const {
    return HeaderLoop[T] && contains(HeaderLoop[T], X);
  }
  EdgeKind classify(unsigned X, unsigned T) const {
    unsigned L = LoopOf[X];
    if (isBackEdge(X, T))
      return HeaderLoop[T] == L ? EdgeKind::ContinueInner
                                : EdgeKind::ContinueOuter;
    return contains(L, T) ? EdgeKind::Forward : EdgeKind::Exit;
  }

  Error validate() const;
  void computeRPO();
  void computeDominators();
  Error checkReducible() const;
  void computeLoops();
  void computeLoopIntervals();
  void absorbClosedExits();
  bool needsFlagOnEdge(unsigned X, unsigned T, EdgeKind K) const;
  void computeExits();
  void computePlacement();
  void computeGuards();
  void markDispatchFlags();

  Action action(unsigned X, unsigned T) const;
  void buildConstruct(unsigned X, SmallVectorImpl<Item> &Out) const;
  void buildBranch(unsigned X, SmallVectorImpl<Item> &Out) const;
  void buildDispatch(unsigned L, SmallVectorImpl<Item> &Out) const;
  std::vector<SStmt> emit() const;
};

Error Structurizer::validate() const {
  for (unsigned V = 0; V < N; ++V) {
    if (G.Succs[V].size() > 2)
      return createStringError(
          inconvertibleErrorCode(),
          "function '%s': block %s has %zu successors, expected at most 2",
          FuncName.str().c_str(), name(V).c_str(), G.Succs[V].size());
    for (unsigned S : G.Succs[V])
      if (S >= N)
        return createStringError(inconvertibleErrorCode(),
                                 "function '%s': block %s branches to "
                                 "node %u, which does not exist",
                                 FuncName.str().c_str(), name(V).c_str(), S);
  }
  return Error::success();
}

/// Iterative DFS from node 0. The false successor is visited first so that
/// the true side comes first in RPO (merge nodes are laid out in RPO).
void Structurizer::computeRPO() {
  Succs.resize(N);
  for (unsigned V = 0; V < N; ++V) {
    for (unsigned S : G.Succs[V])
      if (!is_contained(Succs[V], S))
        Succs[V].push_back(S);
  }
  RPONum.assign(N, None);
  std::vector<uint8_t> State(N, 0); // 0 new, 1 on stack, 2 done
  std::vector<unsigned> Post;
  SmallVector<std::pair<unsigned, unsigned>, 32> Stack;
  Stack.push_back({0, 0});
  State[0] = 1;
  while (!Stack.empty()) {
    auto &[V, Next] = Stack.back();
    if (Next < Succs[V].size()) {
      unsigned S = Succs[V][Succs[V].size() - 1 - Next++];
      if (State[S] == 0) {
        State[S] = 1;
        Stack.push_back({S, 0});
      } else if (State[S] == 1) {
        Retreating.push_back({V, S});
      }
      continue;
    }
    State[V] = 2;
    Post.push_back(V);
    Stack.pop_back();
  }
  RPO.assign(Post.rbegin(), Post.rend());
  for (unsigned I = 0; I < RPO.size(); ++I)
    RPONum[RPO[I]] = I;
  Preds.resize(N);
  for (unsigned V : RPO)
    for (unsigned S : Succs[V])
      Preds[S].push_back(V);
}

void Structurizer::computeDominators() {
  // Cooper-Harvey-Kennedy over RPO numbers (Dominators.h).
  std::vector<SmallVector<unsigned, 2>> PredNums(RPO.size());
  for (unsigned I = 0; I < RPO.size(); ++I)
    for (unsigned P : Preds[RPO[I]])
      PredNums[I].push_back(RPONum[P]);
  std::vector<unsigned> Doms = mir::computeImmediateDominators(PredNums);
  IDom.assign(N, None);
  std::vector<SmallVector<unsigned, 2>> Kids(N);
  for (unsigned I = 1; I < RPO.size(); ++I) {
    IDom[RPO[I]] = RPO[Doms[I]];
    Kids[RPO[Doms[I]]].push_back(RPO[I]);
  }
  DomIn.assign(N, 0);
  DomOut.assign(N, 0);
  unsigned Clock = 0;
  SmallVector<std::pair<unsigned, unsigned>, 32> Stack;
  Stack.push_back({0, 0});
  DomIn[0] = Clock++;
  while (!Stack.empty()) {
    auto &[V, Next] = Stack.back();
    if (Next < Kids[V].size()) {
      unsigned K = Kids[V][Next++];
      DomIn[K] = Clock++;
      Stack.push_back({K, 0});
      continue;
    }
    DomOut[V] = Clock++;
    Stack.pop_back();
  }
}

Error Structurizer::checkReducible() const {
  for (auto [From, To] : Retreating) {
    if (dominates(To, From))
      continue;
    return createStringError(
        inconvertibleErrorCode(),
        "function '%s': irreducible control flow: the cycle through %s and "
        "%s has more than one entry",
        FuncName.str().c_str(), name(To).c_str(), name(From).c_str());
  }
  return Error::success();
}

/// Natural loops, innermost first (a header is dominated by the headers of
/// the loops around it, so it comes later in RPO). The backward walk from
/// the latches jumps over loops found earlier through their outermost known
/// loop (union-find with path halving), so each node is visited once per
/// loop that directly contains it.
void Structurizer::computeLoops() {
  LoopOf.assign(N, 0);
  HeaderLoop.assign(N, 0);
  LoopHeader.assign(1, None);
  LoopParent.assign(1, 0);
  std::vector<unsigned> Outer(1, 0); // union-find over loops
  auto Find = [&](unsigned L) {
    while (Outer[L] != L) {
      Outer[L] = Outer[Outer[L]];
      L = Outer[L];
    }
    return L;
  };
  std::vector<bool> IsHeader(N, false);
  for (auto [From, To] : Retreating)
    IsHeader[To] = true;
  SmallVector<unsigned, 32> Work;
  for (unsigned I = RPO.size(); I-- > 0;) {
    unsigned H = RPO[I];
    if (!IsHeader[H])
      continue;
    unsigned L = LoopHeader.size();
    LoopHeader.push_back(H);
    LoopParent.push_back(0);
    Outer.push_back(L);
    LoopOf[H] = L;
    HeaderLoop[H] = L;
    for (unsigned P : Preds[H])
      if (dominates(H, P))
        Work.push_back(P);
    while (!Work.empty()) {
      unsigned V = Work.pop_back_val();
      if (V == H)
        continue;
      if (LoopOf[V] == 0) {
        LoopOf[V] = L;
        append_range(Work, Preds[V]);
        continue;
      }
      unsigned Sub = Find(LoopOf[V]);
      if (Sub == L)
        continue;
      LoopParent[Sub] = L;
      Outer[Sub] = L;
      append_range(Work, Preds[LoopHeader[Sub]]);
    }
  }
  computeLoopIntervals();
}

/// Loop-tree intervals for O(1) membership tests.
void Structurizer::computeLoopIntervals() {
  unsigned NL = LoopHeader.size();
  std::vector<SmallVector<unsigned, 2>> Kids(NL);
  for (unsigned L = 1; L < NL; ++L)
    Kids[LoopParent[L]].push_back(L);
  LoopIn.assign(NL, 0);
  LoopOut.assign(NL, 0);
  unsigned Clock = 0;
  SmallVector<std::pair<unsigned, unsigned>, 16> Stack;
  Stack.push_back({0, 0});
  LoopIn[0] = Clock++;
  while (!Stack.empty()) {
    auto &[L, Next] = Stack.back();
    if (Next < Kids[L].size()) {
      unsigned K = Kids[L][Next++];
      LoopIn[K] = Clock++;
      Stack.push_back({K, 0});
      continue;
    }
    LoopOut[L] = Clock;
    Stack.pop_back();
  }
}

/// A loop exit X -> R where R's dominator subtree has no edge leaving it
/// (it ends in returns, e.g. `if (c) return;` in a loop body) and X is R's
/// only predecessor is emitted inside the loop, ending in Halt, instead of
/// as a Break plus a flag-guarded block after the EndLoop. Only done for
/// loops with several exit targets, so that a plain while loop keeps its
/// `break` and its exit code after the loop. R's subtree joins X's loop;
/// the invariants the later steps rely on still hold (the header dominates
/// the absorbed nodes, and only X enters them).
void Structurizer::absorbClosedExits() {
  // Closed(R): all edges from R's dominator subtree stay in it. Subtree of
  // R = nodes V with DomIn[R] <= DomIn[V] < DomOut[R].
  std::vector<unsigned> Lo(N, None), Hi(N, 0);
  for (unsigned I = RPO.size(); I-- > 0;) {
    unsigned V = RPO[I];
    for (unsigned S : Succs[V]) {
      Lo[V] = std::min(Lo[V], DomIn[S]);
      Hi[V] = std::max(Hi[V], DomIn[S]);
    }
  }
  // Children before parents: decreasing DomIn.
  std::vector<unsigned> ByIn(RPO);
  llvm::sort(ByIn, [&](unsigned A, unsigned B) { return DomIn[A] > DomIn[B]; });
  for (unsigned V : ByIn)
    if (V != 0) {
      unsigned D = IDom[V];
      Lo[D] = std::min(Lo[D], Lo[V]);
      Hi[D] = std::max(Hi[D], Hi[V]);
    }
  auto Closed = [&](unsigned R) {
    return (Lo[R] == None || Lo[R] >= DomIn[R]) && Hi[R] < DomOut[R];
  };
  // Distinct exit targets per loop, before any change.
  std::vector<SmallVector<unsigned, 2>> Ex(LoopHeader.size());
  SmallVector<std::pair<unsigned, unsigned>, 8> Cands;
  for (unsigned X : RPO)
    for (unsigned T : Succs[X]) {
      unsigned L = LoopOf[X];
      if (L == 0 || contains(L, T) || isBackEdge(X, T))
        continue;
      if (!is_contained(Ex[L], T))
        Ex[L].push_back(T);
      // Keep the loop's own test (at the header or a latch) as its exit.
      bool Test = X == LoopHeader[L] || is_contained(Succs[X], LoopHeader[L]);
      if (!Test && IDom[T] == X && Preds[T].size() == 1 && Closed(T))
        Cands.push_back({X, T});
    }
  bool Changed = false;
  std::vector<unsigned> InOrder(ByIn.rbegin(), ByIn.rend());
  for (auto [X, R] : Cands) {
    unsigned L = LoopOf[X];
    if (Ex[L].size() < 2)
      continue;
    unsigned A = ctx(R);
    auto It =
        llvm::lower_bound(InOrder, DomIn[R], [&](unsigned V, unsigned In) {
          return DomIn[V] < In;
        });
    for (; It != InOrder.end() && DomIn[*It] < DomOut[R]; ++It) {
      unsigned V = *It;
      if (LoopOf[V] == A)
        LoopOf[V] = L;
      if (unsigned M = HeaderLoop[V]; M && LoopParent[M] == A)
        LoopParent[M] = L;
    }
    Changed = true;
  }
  if (Changed)
    computeLoopIntervals();
}

/// Exits[L]: the distinct targets of edges leaving loop L, ordered by RPO.
/// An edge leaving several loops is an exit of each of them.
void Structurizer::computeExits() {
  Exits.assign(LoopHeader.size(), {});
  for (unsigned X : RPO)
    for (unsigned T : Succs[X]) {
      if (classify(X, T) == EdgeKind::ContinueInner)
        continue;
      for (unsigned L = LoopOf[X]; L != 0 && !contains(L, T); L = LoopParent[L])
        Exits[L].push_back(T);
    }
  for (auto &E : Exits) {
    llvm::sort(E,
               [&](unsigned A, unsigned B) { return RPONum[A] < RPONum[B]; });
    E.erase(std::unique(E.begin(), E.end()), E.end());
  }
}

/// Place(Y) is the nearest strict dominator of Y whose construct contains
/// Y's: Y goes inside the loop body of a header A when Y is in A's loop, or
/// after A's construct when both sit in the same loop context. Because the
/// dominator path from Place(Y) to any predecessor of Y follows placement
/// parents, every jump to Y comes from code emitted before Y and inside
/// Place(Y)'s construct.
void Structurizer::computePlacement() {
  Place.assign(N, None);
  IsInline.assign(N, false);
  MergeIn.assign(N, {});
  MergePost.assign(N, {});
  for (unsigned I = 1; I < RPO.size(); ++I) {
    unsigned Y = RPO[I];
    unsigned D = IDom[Y];
    unsigned C = ctx(Y);
    unsigned P = D;
    if (LoopOf[D] != C && ctx(D) != C) {
      unsigned L = LoopOf[D];
      while (LoopParent[L] != C)
        L = LoopParent[L];
      P = LoopHeader[L];
    }
    Place[Y] = P;
    unsigned FwdPreds = 0;
    for (unsigned Pr : Preds[Y])
      if (!isBackEdge(Pr, Y))
        ++FwdPreds;
    bool InLoop = C == LoopOf[P];
    if (FwdPreds == 1 && InLoop && is_contained(Succs[P], Y))
      IsInline[Y] = true;
    else if (InLoop)
      MergeIn[P].push_back(Y); // in RPO order
    else
      MergePost[P].push_back(Y);
  }
}

/// Positions, then, bottom-up, the largest position a thread falling out of
/// each construct may be bound for (MaxOut). A merge node Y needs a guard
/// iff some thread reaching Y's position is bound for a later position.
/// Threads that leave through Break/Continue/Halt never reach it.
void Structurizer::computeGuards() {
  // Pre-order of the placement tree in emission order: inline children in
  // successor order, then in-loop merges, then post-loop merges.
  Pre.assign(N, None);
  std::vector<unsigned> Order;
  Order.reserve(RPO.size());
  SmallVector<unsigned, 64> Stack;
  Stack.push_back(0);
  SmallVector<unsigned, 8> Kids;
  while (!Stack.empty()) {
    unsigned X = Stack.pop_back_val();
    Pre[X] = Order.size();
    Order.push_back(X);
    Kids.clear();
    for (unsigned T : Succs[X])
      if (IsInline[T] && Place[T] == X)
        Kids.push_back(T);
    append_range(Kids, MergeIn[X]);
    append_range(Kids, MergePost[X]);
    for (unsigned K : reverse(Kids))
      Stack.push_back(K);
  }

  Guarded.assign(N, false);
  FwdNeeded.assign(N, false);
  MaxOut.assign(N, -1);
  MayContinue.assign(N, false);
  ElseOf.assign(N, None);
  std::vector<unsigned> Size(N, 1);
  auto Merges = [&](ArrayRef<unsigned> Ms, int64_t R) {
    for (unsigned I = 0; I < Ms.size(); ++I) {
      unsigned M = Ms[I];
      if (R <= int64_t(Pre[M])) {
        R = std::max(R, MaxOut[M]);
        continue;
      }
      Guarded[M] = FwdNeeded[M] = true;
      // If every thread here is bound for M or the next sibling M2, and no
      // path goes from M to M2, M2 is the Else of M's guard.
      if (I + 1 < Ms.size() && R == int64_t(Pre[Ms[I + 1]])) {
        unsigned M2 = Ms[I + 1];
        bool MReachesM2 = any_of(Preds[M2], [&](unsigned P) {
          return Pre[M] <= Pre[P] && Pre[P] < Pre[M] + Size[M];
        });
        if (!MReachesM2) {
          ElseOf[M] = M2;
          R = std::max({R, MaxOut[M], MaxOut[M2]});
          ++I;
          continue;
        }
      }
      R = std::max(R, MaxOut[M]);
    }
    return R;
  };
  for (unsigned X : reverse(Order)) {
    int64_t R = -1;
    for (unsigned T : Succs[X]) {
      if (IsInline[T] && Place[T] == X)
        R = std::max(R, MaxOut[T]);
      else if (classify(X, T) == EdgeKind::Forward)
        R = std::max(R, int64_t(Pre[T]));
    }
    R = Merges(MergeIn[X], R);
    if (unsigned L = HeaderLoop[X]) {
      // Everything in the body has been consumed or continues; after the
      // EndLoop only the exit targets that stay in the parent loop flow on.
      R = -1;
      unsigned C = LoopParent[L];
      for (unsigned T : Exits[L])
        if (contains(C, T) && !(C != 0 && T == LoopHeader[C]))
          R = std::max(R, int64_t(Pre[T]));
      R = Merges(MergePost[X], R);
    }
    MaxOut[X] = R;
    bool Cont = false;
    if (unsigned L = HeaderLoop[X]) {
      unsigned C = LoopParent[L];
      Cont = C != 0 && is_contained(Exits[L], LoopHeader[C]);
    } else {
      for (unsigned T : Succs[X])
        Cont |= classify(X, T) == EdgeKind::ContinueInner ||
                (IsInline[T] && Place[T] == X && MayContinue[T]);
      for (unsigned M : MergeIn[X])
        Cont |= MayContinue[M];
    }
    for (unsigned M : MergePost[X])
      Cont |= MayContinue[M];
    MayContinue[X] = Cont;
    for (unsigned T : Succs[X])
      if (IsInline[T] && Place[T] == X)
        Size[X] += Size[T];
    for (unsigned M : MergeIn[X])
      Size[X] += Size[M];
    for (unsigned M : MergePost[X])
      Size[X] += Size[M];
  }
}

/// After EndLoop of L the threads that leave further (Break) or repeat the
/// parent loop (Continue) are picked out by their target's flag, unless the
/// choice is forced.
void Structurizer::markDispatchFlags() {
  ContNeeded.assign(N, false);
  DispatchReads.assign(LoopHeader.size(), false);
  HasFlowExit.assign(LoopHeader.size(), false);
  for (unsigned L = 1; L < LoopHeader.size(); ++L) {
    const auto &Ex = Exits[L];
    unsigned C = LoopParent[L];
    bool HasK = false, HasF = false;
    for (unsigned T : Ex) {
      if (C != 0 && T == LoopHeader[C])
        HasK = true;
      else if (contains(C, T))
        HasF = true;
    }
    HasFlowExit[L] = HasF;
    if (Ex.size() < 2 || (!HasK && !HasF))
      continue;
    DispatchReads[L] = true;
    for (unsigned T : Ex) {
      if (contains(C, T))
        continue;
      if (isBackEdge(LoopHeader[L], T))
        ContNeeded[T] = true;
      else
        FwdNeeded[T] = true;
    }
    if (HasK && HasF)
      ContNeeded[LoopHeader[C]] = true;
  }
}

/// Whether the thread taking edge X -> T passes a test of T's flag: T's
/// guard, or the dispatch after the EndLoop of a loop it leaves.
bool Structurizer::needsFlagOnEdge(unsigned X, unsigned T, EdgeKind K) const {
  if (K == EdgeKind::Forward || K == EdgeKind::Exit) {
    if (!FwdNeeded[T])
      return false;
    if (Guarded[T])
      return true;
    for (unsigned L = LoopOf[X]; L != 0 && !contains(LoopParent[L], T);
         L = LoopParent[L])
      if (DispatchReads[L])
        return true;
    return false;
  }
  if (K != EdgeKind::ContinueOuter || !ContNeeded[T])
    return false;
  unsigned L = LoopOf[X];
  for (; LoopParent[L] != HeaderLoop[T]; L = LoopParent[L])
    if (DispatchReads[L])
      return true;
  return HasFlowExit[L];
}

Action Structurizer::action(unsigned X, unsigned T) const {
  Action A;
  EdgeKind K = classify(X, T);
  bool Flag = needsFlagOnEdge(X, T, K);
  switch (K) {
  case EdgeKind::ContinueInner:
    A.Stmts.push_back(mk(SStmt::Kind::Continue));
    break;
  case EdgeKind::ContinueOuter:
    if (Flag)
      A.Stmts.push_back(mkSet(contFlag(T), true));
    A.Stmts.push_back(mk(SStmt::Kind::Break));
    break;
  case EdgeKind::Exit:
    if (Flag)
      A.Stmts.push_back(mkSet(fwdFlag(T), true));
    A.Stmts.push_back(mk(SStmt::Kind::Break));
    break;
  case EdgeKind::Forward:
    if (IsInline[T] && Place[T] == X)
      A.Inline = T;
    else if (Flag)
      A.Stmts.push_back(mkSet(fwdFlag(T), true));
    break;
  }
  return A;
}

static void append(const Action &A, SmallVectorImpl<Item> &Out,
                   SCond C = SCond::always()) {
  if (A.isInline()) {
    Out.push_back(Item::construct(A.Inline));
    return;
  }
  for (unsigned I = 0; I < A.Stmts.size(); ++I) {
    SStmt S = A.Stmts[I];
    if (I + 1 == A.Stmts.size())
      S.Cond = C;
    Out.push_back(Item::stmt(S));
  }
}

/// The branch at the end of node X. Preferences, for readable output and
/// shallow If nesting: a lone Break/Continue takes the condition itself
/// (`break !^h` then the loop body); an arm that always leaves (Break,
/// Continue, Halt) goes in an If without Else and the other arm follows
/// it; an empty arm never becomes an empty then-part (the condition is
/// negated instead).
void Structurizer::buildBranch(unsigned X, SmallVectorImpl<Item> &Out) const {
  const auto &S = Succs[X];
  if (S.empty()) {
    Out.push_back(Item::stmt(mk(SStmt::Kind::Halt)));
    return;
  }
  if (S.size() == 1) {
    append(action(X, S[0]), Out);
    return;
  }
  Action A0 = action(X, S[0]), A1 = action(X, S[1]);
  SCond C = SCond::node(X), NotC = SCond::node(X, /*Neg=*/true);
  auto If = [&](SCond Cond) {
    Out.push_back(Item::stmt(mk(SStmt::Kind::If, Cond)));
  };
  auto EndIf = [&] { Out.push_back(Item::stmt(mk(SStmt::Kind::EndIf))); };
  // An arm whose threads all halt or break needs no Else: the other arm
  // can follow the EndIf (`if ^b / block ^r / halt / endif`). Not for an
  // arm that continues: its Continue would then have to be spelled out.
  auto NoFallOut = [&](const Action &A) {
    return A.isInline() && MaxOut[A.Inline] < 0 && !MayContinue[A.Inline];
  };
  if (A0.sameAs(A1)) {
    append(A0, Out);
  } else if (A0.isPureLeave() && A1.isPureLeave()) {
    // One Break and one Continue: test the Break, so that the Continue
    // comes last and usually disappears into the EndLoop.
    if (A1.isPureBreak()) {
      append(A1, Out, NotC);
      append(A0, Out);
    } else {
      append(A0, Out, C);
      append(A1, Out);
    }
  } else if (A1.isPureLeave()) {
    append(A1, Out, NotC);
    append(A0, Out);
  } else if (A0.isPureLeave()) {
    append(A0, Out, C);
    append(A1, Out);
  } else if (A1.endsInLeave()) {
    If(NotC);
    append(A1, Out);
    EndIf();
    append(A0, Out);
  } else if (A0.endsInLeave() || NoFallOut(A0)) {
    If(C);
    append(A0, Out);
    EndIf();
    append(A1, Out);
  } else if (NoFallOut(A1)) {
    If(NotC);
    append(A1, Out);
    EndIf();
    append(A0, Out);
  } else if (A1.isEmpty()) {
    If(C);
    append(A0, Out);
    EndIf();
  } else if (A0.isEmpty()) {
    If(NotC);
    append(A1, Out);
    EndIf();
  } else {
    If(C);
    append(A0, Out);
    Out.push_back(Item::stmt(mk(SStmt::Kind::Else)));
    append(A1, Out);
    EndIf();
  }
}

void Structurizer::buildDispatch(unsigned L, SmallVectorImpl<Item> &Out) const {
  const auto &Ex = Exits[L];
  if (Ex.empty())
    return;
  unsigned C = LoopParent[L];
  auto IsK = [&](unsigned T) { return C != 0 && T == LoopHeader[C]; };
  SmallVector<unsigned, 4> O;
  bool HasK = false, HasF = false;
  for (unsigned T : Ex) {
    if (IsK(T))
      HasK = true;
    else if (contains(C, T))
      HasF = true;
    else
      O.push_back(T);
  }
  if (!HasK && !HasF) {
    Out.push_back(Item::stmt(mk(SStmt::Kind::Break)));
    return;
  }
  if (Ex.size() == 1) {
    if (HasK)
      Out.push_back(Item::stmt(mk(SStmt::Kind::Continue)));
    return;
  }
  for (unsigned T : O) {
    unsigned F = isBackEdge(LoopHeader[L], T) ? contFlag(T) : fwdFlag(T);
    Out.push_back(Item::stmt(mk(SStmt::Kind::Break, SCond::flag(F))));
  }
  if (HasK)
    Out.push_back(Item::stmt(
        mk(SStmt::Kind::Continue,
           HasF ? SCond::flag(contFlag(LoopHeader[C])) : SCond::always())));
}

void Structurizer::buildConstruct(unsigned X,
                                  SmallVectorImpl<Item> &Out) const {
  unsigned L = HeaderLoop[X];
  auto Clear = [&](ArrayRef<unsigned> Ms) {
    for (unsigned M : Ms)
      if (FwdNeeded[M])
        Out.push_back(Item::stmt(mkSet(fwdFlag(M), false)));
  };
  auto Merge = [&](ArrayRef<unsigned> Ms) {
    for (unsigned I = 0; I < Ms.size(); ++I) {
      unsigned M = Ms[I];
      if (!Guarded[M]) {
        Out.push_back(Item::construct(M));
        continue;
      }
      Out.push_back(Item::stmt(mk(SStmt::Kind::If, SCond::flag(fwdFlag(M)))));
      Out.push_back(Item::construct(M));
      if (ElseOf[M] != None) {
        Out.push_back(Item::stmt(mk(SStmt::Kind::Else)));
        Out.push_back(Item::construct(Ms[++I]));
      }
      Out.push_back(Item::stmt(mk(SStmt::Kind::EndIf)));
    }
  };
  if (L) {
    Clear(MergePost[X]);
    Out.push_back(Item::stmt(mk(SStmt::Kind::Loop)));
    if (ContNeeded[X])
      Out.push_back(Item::stmt(mkSet(contFlag(X), false)));
  }
  Clear(MergeIn[X]);
  Out.push_back(Item::stmt(mkBlock(X)));
  buildBranch(X, Out);
  Merge(MergeIn[X]);
  if (L) {
    Out.push_back(Item::stmt(mk(SStmt::Kind::EndLoop)));
    buildDispatch(L, Out);
    Merge(MergePost[X]);
  }
}

/// Expands constructs with an explicit stack (the placement tree can be as
/// deep as the function is long).
std::vector<SStmt> Structurizer::emit() const {
  std::vector<SStmt> Stmts;
  std::vector<Item> Stack;
  Stack.push_back(Item::construct(0));
  SmallVector<Item, 16> Buf;
  while (!Stack.empty()) {
    Item I = Stack.back();
    Stack.pop_back();
    if (I.IsStmt) {
      Stmts.push_back(I.S);
      continue;
    }
    Buf.clear();
    buildConstruct(I.Node, Buf);
    Stack.insert(Stack.end(), Buf.rbegin(), Buf.rend());
  }
  return Stmts;
}

/// Peepholes: drop a Continue whose fall-through reaches the EndLoop anyway
/// (only EndIf, or Else-arms that are skipped, lie between) and SetFlags of
/// flags nobody reads; then drop the If arms this left empty.
void simplify(std::vector<SStmt> &Stmts) {
  using K = SStmt::Kind;
  BitVector Dead(Stmts.size());
  bool AtEnd = false;
  SmallVector<bool, 16> IfEnds;
  for (unsigned I = Stmts.size(); I-- > 0;) {
    switch (Stmts[I].K) {
    case K::EndLoop:
      AtEnd = true;
      break;
    case K::EndIf:
      IfEnds.push_back(AtEnd);
      break;
    case K::Else:
      AtEnd = IfEnds.back();
      break;
    case K::If:
      IfEnds.pop_back();
      AtEnd = false;
      break;
    case K::Continue:
      if (AtEnd)
        Dead.set(I);
      break;
    default:
      AtEnd = false;
      break;
    }
  }
  llvm::DenseSet<unsigned> Read;
  for (const SStmt &S : Stmts)
    if (S.Cond.K == SCond::Kind::Flag &&
        (S.K == K::If || S.K == K::Break || S.K == K::Continue))
      Read.insert(S.Cond.Id);
  for (unsigned I = 0; I < Stmts.size(); ++I)
    if (Stmts[I].K == K::SetFlag && !Read.count(Stmts[I].Id))
      Dead.set(I);

  // Rebuild, removing empty arms. Frame: index of the If in Out, and whether
  // an Else was emitted.
  std::vector<SStmt> Out;
  Out.reserve(Stmts.size());
  SmallVector<std::pair<size_t, bool>, 16> Ifs;
  for (unsigned I = 0; I < Stmts.size(); ++I) {
    if (Dead.test(I))
      continue;
    const SStmt &S = Stmts[I];
    switch (S.K) {
    case K::If:
      Ifs.push_back({Out.size(), false});
      Out.push_back(S);
      break;
    case K::Else:
      if (Ifs.back().first + 1 == Out.size()) {
        // Empty then-part: test the negated condition instead.
        Out.back().Cond.Negated = !Out.back().Cond.Negated;
      } else {
        Ifs.back().second = true;
        Out.push_back(S);
      }
      break;
    case K::EndIf: {
      auto [At, HasElse] = Ifs.pop_back_val();
      if (HasElse && Out.back().K == K::Else) {
        Out.pop_back();
        HasElse = false;
      }
      if (!HasElse && At + 1 == Out.size()) {
        Out.pop_back();
        break;
      }
      Out.push_back(S);
      break;
    }
    default:
      Out.push_back(S);
      break;
    }
  }
  Stmts = std::move(Out);
}

/// Renumbers flags so that flags with disjoint lives share a number;
/// returns how many numbers are used. A flag's life runs from its first
/// statement (the clear at the start of the construct holding all its uses;
/// control enters a construct only at its start) to its last use, extended
/// to the EndLoop of every loop that contains the last use but not the
/// clear: such a flag must stay false across that loop's back edge.
/// Overlapping lives get distinct numbers by greedy interval colouring
/// (lowest free number first), which is optimal for intervals.
unsigned allocateFlags(std::vector<SStmt> &Stmts) {
  auto FlagOf = [](const SStmt &S) -> unsigned {
    if (S.K == SStmt::Kind::SetFlag)
      return S.Id;
    if (S.Cond.K == SCond::Kind::Flag)
      return S.Cond.Id;
    return None;
  };
  // Loop structure: the innermost Loop around each statement and the
  // EndLoop of each Loop.
  std::vector<unsigned> Around(Stmts.size(), None), EndOf(Stmts.size(), None);
  SmallVector<unsigned, 16> Open;
  for (unsigned I = 0; I < Stmts.size(); ++I) {
    Around[I] = Open.empty() ? None : Open.back();
    if (Stmts[I].K == SStmt::Kind::Loop)
      Open.push_back(I);
    else if (Stmts[I].K == SStmt::Kind::EndLoop)
      EndOf[Open.pop_back_val()] = I;
  }
  DenseMap<unsigned, std::pair<unsigned, unsigned>> Life; // first, last
  for (unsigned I = 0; I < Stmts.size(); ++I)
    if (unsigned F = FlagOf(Stmts[I]); F != None) {
      auto [It, New] = Life.try_emplace(F, I, I);
      It->second.second = I;
    }
  std::vector<SmallVector<unsigned, 1>> EndsAt(Stmts.size());
  for (auto &[F, L] : Life) {
    unsigned Last = L.second;
    for (unsigned Lp = Around[Last]; Lp != None && L.first < Lp;
         Lp = Around[Lp])
      Last = EndOf[Lp];
    L.second = Last;
  }
  DenseMap<unsigned, unsigned> Phys;
  std::priority_queue<unsigned, std::vector<unsigned>, std::greater<unsigned>>
      Free;
  unsigned Count = 0;
  for (unsigned I = 0; I < Stmts.size(); ++I) {
    unsigned F = FlagOf(Stmts[I]);
    if (F != None) {
      auto [It, New] = Phys.try_emplace(F, 0);
      if (New) {
        if (Free.empty()) {
          It->second = Count++;
        } else {
          It->second = Free.top();
          Free.pop();
        }
        EndsAt[Life[F].second].push_back(It->second);
      }
      if (Stmts[I].K == SStmt::Kind::SetFlag)
        Stmts[I].Id = It->second;
      else
        Stmts[I].Cond.Id = It->second;
    }
    for (unsigned P : EndsAt[I])
      Free.push(P);
  }
  return Count;
}

Error Structurizer::analyze() {
  if (N == 0)
    return Error::success();
  if (Error E = validate())
    return E;
  computeRPO();
  computeDominators();
  return checkReducible();
}

Expected<StructuredCode> Structurizer::run() {
  StructuredCode Code;
  if (Error E = analyze())
    return std::move(E);
  if (N == 0)
    return Code;
  computeLoops();
  absorbClosedExits();
  computeExits();
  computePlacement();
  computeGuards();
  markDispatchFlags();
  Code.Stmts = emit();
  simplify(Code.Stmts);
  Code.NumFlags = allocateFlags(Code.Stmts);
  return Code;
}

} // namespace

Expected<StructuredCode> structurize(const SCFG &G, StringRef FuncName) {
  return Structurizer(G, FuncName).run();
}

Error checkReducible(const SCFG &G, StringRef FuncName) {
  return Structurizer(G, FuncName).analyze();
}

static void printCond(const SCond &C, const SCFG &G, raw_ostream &OS) {
  if (C.Negated)
    OS << '!';
  switch (C.K) {
  case SCond::Kind::True:
    OS << "true";
    break;
  case SCond::Kind::NodeCond:
    if (C.Id < G.Names.size() && !G.Names[C.Id].empty())
      OS << G.Names[C.Id];
    else
      OS << '#' << C.Id;
    break;
  case SCond::Kind::Flag:
    OS << 'f' << C.Id;
    break;
  }
}

void printStructuredCode(const StructuredCode &C, const SCFG &G,
                         raw_ostream &OS) {
  using K = SStmt::Kind;
  unsigned Depth = 0;
  for (const SStmt &S : C.Stmts) {
    if (S.K == K::Else || S.K == K::EndIf || S.K == K::EndLoop)
      Depth = Depth ? Depth - 1 : 0;
    OS.indent(2 * Depth);
    auto Cond = [&] {
      if (S.Cond.K != SCond::Kind::True || S.Cond.Negated) {
        OS << ' ';
        printCond(S.Cond, G, OS);
      }
    };
    switch (S.K) {
    case K::Block:
      OS << "block ";
      if (S.Id < G.Names.size() && !G.Names[S.Id].empty())
        OS << G.Names[S.Id];
      else
        OS << '#' << S.Id;
      break;
    case K::If:
      OS << "if";
      Cond();
      break;
    case K::Else:
      OS << "else";
      break;
    case K::EndIf:
      OS << "endif";
      break;
    case K::Loop:
      OS << "loop";
      break;
    case K::EndLoop:
      OS << "endloop";
      break;
    case K::Break:
      OS << "break";
      Cond();
      break;
    case K::Continue:
      OS << "continue";
      Cond();
      break;
    case K::Halt:
      OS << "halt";
      break;
    case K::SetFlag:
      OS << "setflag f" << S.Id << ", " << (S.Value ? "true" : "false");
      break;
    }
    OS << '\n';
    if (S.K == K::If || S.K == K::Else || S.K == K::Loop)
      ++Depth;
  }
}

} // namespace wave::codegen
