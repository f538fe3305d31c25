//===- StructurizerTest.cpp - CFG structurizer
//-----------------------------===//
//
// The structurizer is checked independently of its algorithm: a per-thread
// interpreter of StructuredCode (the execution model of Structurizer.h) must
// execute the same sequence of blocks as a walk of the CFG that takes the
// same branch decisions, and halt where the CFG returns. Decisions are
// seeded per (node, visit count); after a few visits of a node the walk
// heads for the nearest return so loops end. Random reducible CFGs are a
// random DAG plus back edges to dominators (which keeps the DAG's
// dominators, so the graph is reducible by construction). Shape tests
// compare the printed code of small textbook CFGs with output worked out
// by hand.
//
//===----------------------------------------------------------------------===//
#include "wave/CodeGen/Structurizer.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <chrono>
#include <climits>
#include <map>
#include <random>

using namespace llvm;
using namespace wave::codegen;

namespace {

/// Parses "a: b c\nb: c\nc:" (node: true-successor false-successor); the
/// first line is the entry. Names get the `^` sigil.
SCFG parseCFG(StringRef Text) {
  SCFG G;
  std::map<std::string, unsigned> Ids;
  SmallVector<StringRef, 16> Lines;
  Text.split(Lines, '\n', -1, false);
  SmallVector<std::pair<StringRef, StringRef>, 16> Defs;
  for (StringRef L : Lines) {
    L = L.trim();
    if (L.empty())
      continue;
    auto [Name, Rest] = L.split(':');
    Name = Name.trim();
    Ids[Name.str()] = Defs.size();
    Defs.push_back({Name, Rest});
  }
  G.Succs.resize(Defs.size());
  for (auto [I, D] : enumerate(Defs)) {
    G.Names.push_back(("^" + D.first).str());
    SmallVector<StringRef, 2> Ss;
    D.second.split(Ss, ' ', -1, false);
    for (StringRef S : Ss) {
      auto It = Ids.find(S.trim().str());
      EXPECT_NE(It, Ids.end()) << "unknown block " << S.str();
      if (It != Ids.end())
        G.Succs[I].push_back(It->second);
    }
  }
  return G;
}

std::vector<bool> reachable(const SCFG &G) {
  std::vector<bool> R(G.size(), false);
  if (G.size() == 0)
    return R;
  std::vector<unsigned> Work{0};
  R[0] = true;
  while (!Work.empty()) {
    unsigned V = Work.back();
    Work.pop_back();
    for (unsigned S : G.Succs[V])
      if (!R[S]) {
        R[S] = true;
        Work.push_back(S);
      }
  }
  return R;
}

/// Static checks: balanced If/Else/EndIf and Loop/EndLoop, Break/Continue
/// only in a Loop, NodeCond N only after Block N with no Block, Loop,
/// EndLoop or Halt in between, flags in range, every reachable node in
/// exactly one Block and unreachable nodes in none. Returns "" when fine.
std::string checkStructure(const StructuredCode &C, const SCFG &G) {
  using K = SStmt::Kind;
  SmallVector<int, 16> Frames; // 0 if, 1 if-with-else, 2 loop
  unsigned Loops = 0;
  unsigned CondNode = ~0u;
  std::vector<unsigned> Count(G.size(), 0);
  for (auto [I, S] : enumerate(C.Stmts)) {
    std::string At = " at statement " + std::to_string(I);
    if (S.Cond.K == SCond::Kind::NodeCond && S.Cond.Id != CondNode)
      return "condition of node " + std::to_string(S.Cond.Id) +
             " used away from its block" + At;
    if (S.Cond.K == SCond::Kind::Flag && S.Cond.Id >= C.NumFlags)
      return "flag out of range" + At;
    if (S.Cond.K != SCond::Kind::True &&
        !(S.K == K::If || S.K == K::Break || S.K == K::Continue))
      return "condition on a statement that takes none" + At;
    switch (S.K) {
    case K::Block:
      if (S.Id >= G.size())
        return "block out of range" + At;
      ++Count[S.Id];
      CondNode = S.Id;
      break;
    case K::If:
      if (S.Cond.K == SCond::Kind::True)
        return "if without a condition" + At;
      Frames.push_back(0);
      break;
    case K::Else:
      if (Frames.empty() || Frames.back() != 0)
        return "else without if" + At;
      Frames.back() = 1;
      break;
    case K::EndIf:
      if (Frames.empty() || Frames.back() == 2)
        return "endif without if" + At;
      Frames.pop_back();
      break;
    case K::Loop:
      Frames.push_back(2);
      ++Loops;
      CondNode = ~0u;
      break;
    case K::EndLoop:
      if (Frames.empty() || Frames.back() != 2)
        return "endloop without loop" + At;
      Frames.pop_back();
      --Loops;
      CondNode = ~0u;
      break;
    case K::Break:
    case K::Continue:
      if (!Loops)
        return "break/continue outside a loop" + At;
      break;
    case K::Halt:
      CondNode = ~0u;
      break;
    case K::SetFlag:
      if (S.Id >= C.NumFlags)
        return "flag out of range" + At;
      break;
    }
  }
  if (!Frames.empty())
    return "unclosed if or loop";
  std::vector<bool> R = reachable(G);
  for (unsigned V = 0; V < G.size(); ++V)
    if (Count[V] != (R[V] ? 1u : 0u))
      return "node " + std::to_string(V) + " appears " +
             std::to_string(Count[V]) + " times";
  return "";
}

uint64_t mix(uint64_t X) {
  X += 0x9e3779b97f4a7c15ULL;
  X = (X ^ (X >> 30)) * 0xbf58476d1ce4e5b9ULL;
  X = (X ^ (X >> 27)) * 0x94d049bb133111ebULL;
  return X ^ (X >> 31);
}

/// Branch decisions: random per (node, visit); from the Limit-th visit of a
/// node on, the successor nearer to a return (when they differ).
struct Oracle {
  const SCFG &G;
  std::vector<unsigned> Dist; // edges to the nearest return
  uint64_t Seed = 0;
  unsigned Limit = 3;

  explicit Oracle(const SCFG &G) : G(G), Dist(G.size(), UINT_MAX) {
    std::vector<std::vector<unsigned>> Preds(G.size());
    std::vector<unsigned> Work;
    for (unsigned V = 0; V < G.size(); ++V) {
      for (unsigned S : G.Succs[V])
        Preds[S].push_back(V);
      if (G.Succs[V].empty()) {
        Dist[V] = 0;
        Work.push_back(V);
      }
    }
    for (size_t I = 0; I < Work.size(); ++I) // BFS
      for (unsigned P : Preds[Work[I]])
        if (Dist[P] == UINT_MAX) {
          Dist[P] = Dist[Work[I]] + 1;
          Work.push_back(P);
        }
  }
  bool decide(unsigned V, unsigned Visit) const {
    unsigned D0 = Dist[G.Succs[V][0]], D1 = Dist[G.Succs[V][1]];
    if (Visit >= Limit && D0 != D1)
      return D0 < D1;
    return mix(Seed ^ mix(uint64_t(V) << 32 | Visit)) & 1;
  }
};

struct Trace {
  std::vector<unsigned> Blocks;
  bool Halted = false;
  std::string Error;
};

/// The reference: walks the CFG for at most Max blocks.
Trace walkCFG(const SCFG &G, const Oracle &O, size_t Max) {
  Trace T;
  std::vector<unsigned> Visits(G.size(), 0);
  unsigned V = 0;
  while (T.Blocks.size() < Max) {
    T.Blocks.push_back(V);
    const auto &S = G.Succs[V];
    if (S.empty()) {
      T.Halted = true;
      break;
    }
    if (S.size() == 1 || S[0] == S[1])
      V = S[0];
    else
      V = O.decide(V, Visits[V]++) ? S[0] : S[1];
  }
  return T;
}

/// Runs the structured code for one thread, with the semantics documented
/// in Structurizer.h, until it halts or has run Max blocks.
Trace interpret(const StructuredCode &C, const SCFG &G, const Oracle &O,
                size_t Max) {
  using K = SStmt::Kind;
  Trace T;
  size_t NS = C.Stmts.size();
  // Match[i]: If -> Else or EndIf; Else -> EndIf; Loop <-> EndLoop.
  // InLoop[i]: the innermost Loop around statement i.
  std::vector<size_t> Match(NS, 0), InLoop(NS, SIZE_MAX);
  std::vector<size_t> Stack, Loops;
  for (size_t I = 0; I < NS; ++I) {
    InLoop[I] = Loops.empty() ? SIZE_MAX : Loops.back();
    switch (C.Stmts[I].K) {
    case K::If:
      Stack.push_back(I);
      break;
    case K::Else:
      Match[Stack.back()] = I;
      Stack.back() = I;
      break;
    case K::EndIf:
      Match[Stack.back()] = I;
      Stack.pop_back();
      break;
    case K::Loop:
      Loops.push_back(I);
      break;
    case K::EndLoop:
      Match[I] = Loops.back();
      Match[Loops.back()] = I;
      Loops.pop_back();
      break;
    default:
      break;
    }
  }
  std::vector<unsigned> Visits(G.size(), 0);
  std::vector<int> Flags(C.NumFlags, -1); // -1: never written
  unsigned Last = ~0u;
  bool LastCond = false;
  auto Eval = [&](const SCond &Cond, bool &Ok) {
    bool V = true;
    switch (Cond.K) {
    case SCond::Kind::True:
      break;
    case SCond::Kind::NodeCond:
      if (Cond.Id != Last || G.Succs[Last].size() != 2) {
        T.Error = "condition of a node that did not just run";
        Ok = false;
      }
      V = LastCond;
      break;
    case SCond::Kind::Flag:
      if (Flags[Cond.Id] < 0) {
        T.Error = "flag read before it was written";
        Ok = false;
      }
      V = Flags[Cond.Id] == 1;
      break;
    }
    return V != Cond.Negated;
  };
  size_t Steps = 0, MaxSteps = (Max + 2) * (4 * NS + 16);
  size_t PC = 0;
  while (true) {
    if (++Steps > MaxSteps) {
      T.Error = "no progress";
      return T;
    }
    if (PC >= NS) {
      T.Error = "fell off the end";
      return T;
    }
    const SStmt &S = C.Stmts[PC];
    bool Ok = true;
    switch (S.K) {
    case K::Block: {
      T.Blocks.push_back(S.Id);
      Last = S.Id;
      const auto &Su = G.Succs[S.Id];
      if (Su.size() == 2 && Su[0] != Su[1])
        LastCond = O.decide(S.Id, Visits[S.Id]++);
      if (T.Blocks.size() >= Max && !Su.empty())
        return T;
      ++PC;
      break;
    }
    case K::If:
      PC = Eval(S.Cond, Ok) ? PC + 1 : Match[PC] + 1;
      break;
    case K::Else:
      PC = Match[PC] + 1;
      break;
    case K::EndIf:
    case K::Loop:
      ++PC;
      break;
    case K::EndLoop:
      PC = Match[PC] + 1;
      break;
    case K::Break:
      PC = Eval(S.Cond, Ok) ? Match[InLoop[PC]] + 1 : PC + 1;
      break;
    case K::Continue:
      PC = Eval(S.Cond, Ok) ? InLoop[PC] + 1 : PC + 1;
      break;
    case K::Halt:
      T.Halted = true;
      return T;
    case K::SetFlag:
      Flags[S.Id] = S.Value;
      ++PC;
      break;
    }
    if (!Ok)
      return T;
  }
}

/// Structurizes G and checks structure plus Runs random executions.
/// Returns the printed code ("" after a failure).
std::string check(const SCFG &G, unsigned Runs = 16, uint64_t Seed = 1) {
  auto R = structurize(G, "@test");
  if (!R) {
    ADD_FAILURE() << toString(R.takeError());
    return "";
  }
  std::string Text;
  raw_string_ostream OS(Text);
  printStructuredCode(*R, G, OS);
  std::string Bad = checkStructure(*R, G);
  if (!Bad.empty()) {
    ADD_FAILURE() << Bad << "\n" << Text;
    return "";
  }
  Oracle O(G);
  size_t Max = 8 * G.size() + 64;
  for (unsigned Run = 0; Run < Runs; ++Run) {
    O.Seed = mix(Seed * 1000003 + Run);
    Trace Want = walkCFG(G, O, Max);
    Trace Got = interpret(*R, G, O, Want.Blocks.size());
    if (!Got.Error.empty() || Got.Blocks != Want.Blocks ||
        Got.Halted != Want.Halted) {
      std::string W, H;
      for (unsigned B : Want.Blocks)
        W += " " + std::to_string(B);
      for (unsigned B : Got.Blocks)
        H += " " + std::to_string(B);
      ADD_FAILURE() << "run " << Run << ": " << Got.Error << "\nCFG walk:" << W
                    << (Want.Halted ? " ret" : "") << "\nstructured:" << H
                    << (Got.Halted ? " halt" : "") << "\n"
                    << Text;
      return "";
    }
  }
  return Text;
}

std::string check(StringRef CFGText) { return check(parseCFG(CFGText)); }

/// A random reducible CFG: nodes in topological order, forward edges to
/// later nodes (mostly near, sometimes far), back edges to a dominator of
/// the source (itself included), some returns and equal condbr targets.
/// Unreachable nodes get arbitrary edges.
SCFG randomReducible(std::mt19937_64 &Rng, unsigned N) {
  SCFG G;
  G.Succs.resize(N);
  for (unsigned I = 0; I < N; ++I)
    G.Names.push_back("^n" + std::to_string(I));
  std::vector<std::vector<unsigned>> Preds(N);
  std::vector<unsigned> IDom(N, ~0u), Depth(N, 0);
  auto Rand = [&](unsigned Bound) { return unsigned(Rng() % Bound); };
  for (unsigned I = 0; I < N; ++I) {
    bool Reach = I == 0;
    unsigned D = ~0u;
    for (unsigned P : Preds[I]) {
      if (IDom[P] == ~0u && P != 0)
        continue; // unreachable predecessor
      Reach = true;
      if (D == ~0u) {
        D = P;
        continue;
      }
      unsigned A = D, B = P; // LCA in the dominator tree
      while (A != B) {
        if (Depth[A] < Depth[B])
          std::swap(A, B);
        A = IDom[A];
      }
      D = A;
    }
    if (I != 0 && Reach) {
      IDom[I] = D;
      Depth[I] = Depth[D] + 1;
    }
    unsigned Kind = Rand(100);
    unsigned NS = Kind < 10 ? 0 : Kind < 40 ? 1 : 2;
    if (I == N - 1 && Rand(2))
      NS = 0;
    for (unsigned K = 0; K < NS; ++K) {
      unsigned T;
      if (K == 1 && Rand(100) < 4) {
        T = G.Succs[I][0];
      } else if (!Reach) {
        T = Rand(N);
      } else if (I + 1 < N && Rand(100) < 72) {
        unsigned R = Rand(100);
        unsigned Span = R < 60 ? 2 : R < 90 ? 5 : N;
        T = I + 1 + Rand(std::min(Span, N - I - 1));
      } else {
        T = I; // back edge to a dominator
        for (unsigned Up = Rand(4); Up && T != 0; --Up)
          T = IDom[T];
      }
      G.Succs[I].push_back(T);
      if (T > I && !is_contained(Preds[T], I))
        Preds[T].push_back(I);
    }
  }
  return G;
}

/// Random reducible pieces in sequence: the returns of piece I branch to
/// the entry of piece I+1 (the last piece keeps its returns), and so does a
/// random reachable node of piece I, so most of a large graph is reachable.
/// Entering a piece only at its entry keeps the whole graph reducible.
SCFG chainedRandom(std::mt19937_64 &Rng, unsigned Pieces, unsigned MaxPiece) {
  SCFG G;
  for (unsigned P = 0; P < Pieces; ++P) {
    SCFG Piece = randomReducible(Rng, 1 + Rng() % MaxPiece);
    unsigned Base = G.size(), Next = Base + Piece.size();
    if (P + 1 < Pieces) {
      std::vector<bool> R = reachable(Piece);
      std::vector<unsigned> Open, All;
      for (unsigned V = 0; V < Piece.size(); ++V)
        if (R[V]) {
          All.push_back(V);
          if (Piece.Succs[V].size() < 2)
            Open.push_back(V);
        }
      // Local numbering: Piece.size() stands for the next piece's entry.
      if (!Open.empty())
        Piece.Succs[Open[Rng() % Open.size()]].push_back(Piece.size());
      else
        Piece.Succs[All[Rng() % All.size()]][1] = Piece.size();
    }
    for (unsigned V = 0; V < Piece.size(); ++V) {
      auto Ss = Piece.Succs[V];
      for (unsigned &S : Ss)
        S += Base;
      if (Ss.empty() && P + 1 < Pieces)
        Ss.push_back(Next);
      G.Succs.push_back(Ss);
      G.Names.push_back("^n" + std::to_string(Base + V));
    }
  }
  return G;
}

//===----------------------------------------------------------------------===//
// Shapes
//===----------------------------------------------------------------------===//

TEST(Structurizer, IfThen) {
  EXPECT_EQ(check("a: b m\nb: m\nm:"), "block ^a\n"
                                       "if ^a\n"
                                       "  block ^b\n"
                                       "endif\n"
                                       "block ^m\n"
                                       "halt\n");
  // The then-part on the false side: negate rather than leave it empty.
  EXPECT_EQ(check("a: m b\nb: m\nm:"), "block ^a\n"
                                       "if !^a\n"
                                       "  block ^b\n"
                                       "endif\n"
                                       "block ^m\n"
                                       "halt\n");
}

TEST(Structurizer, Diamond) {
  EXPECT_EQ(check("a: b c\nb: d\nc: d\nd:"), "block ^a\n"
                                             "if ^a\n"
                                             "  block ^b\n"
                                             "else\n"
                                             "  block ^c\n"
                                             "endif\n"
                                             "block ^d\n"
                                             "halt\n");
}

TEST(Structurizer, NestedDiamonds) {
  EXPECT_EQ(check("a: b c\nb: d e\nd: f\ne: f\nf: g\nc: g\ng:"),
            "block ^a\n"
            "if ^a\n"
            "  block ^b\n"
            "  if ^b\n"
            "    block ^d\n"
            "  else\n"
            "    block ^e\n"
            "  endif\n"
            "  block ^f\n"
            "else\n"
            "  block ^c\n"
            "endif\n"
            "block ^g\n"
            "halt\n");
}

TEST(Structurizer, ShortCircuitAnd) {
  // if (a && b) t else e; m — ^e is reached from ^a and ^b, which is not
  // the end of either If: one flag.
  EXPECT_EQ(check("a: b e\nb: t e\nt: m\ne: m\nm:"), "setflag f0, false\n"
                                                     "block ^a\n"
                                                     "if ^a\n"
                                                     "  block ^b\n"
                                                     "  if ^b\n"
                                                     "    block ^t\n"
                                                     "  else\n"
                                                     "    setflag f0, true\n"
                                                     "  endif\n"
                                                     "else\n"
                                                     "  setflag f0, true\n"
                                                     "endif\n"
                                                     "if f0\n"
                                                     "  block ^e\n"
                                                     "endif\n"
                                                     "block ^m\n"
                                                     "halt\n");
}

TEST(Structurizer, ShortCircuitOr) {
  // if (a || b) t else e; m
  EXPECT_EQ(check("a: t b\nb: t e\nt: m\ne: m\nm:"), "setflag f0, false\n"
                                                     "block ^a\n"
                                                     "if ^a\n"
                                                     "  setflag f0, true\n"
                                                     "else\n"
                                                     "  block ^b\n"
                                                     "  if ^b\n"
                                                     "    setflag f0, true\n"
                                                     "  else\n"
                                                     "    block ^e\n"
                                                     "  endif\n"
                                                     "endif\n"
                                                     "if f0\n"
                                                     "  block ^t\n"
                                                     "endif\n"
                                                     "block ^m\n"
                                                     "halt\n");
}

TEST(Structurizer, WhileLoop) {
  EXPECT_EQ(check("e: h\nh: b x\nb: h\nx:"), "block ^e\n"
                                             "loop\n"
                                             "  block ^h\n"
                                             "  break !^h\n"
                                             "  block ^b\n"
                                             "endloop\n"
                                             "block ^x\n"
                                             "halt\n");
}

TEST(Structurizer, DoWhileLoop) {
  EXPECT_EQ(check("e: b\nb: l\nl: b x\nx:"), "block ^e\n"
                                             "loop\n"
                                             "  block ^b\n"
                                             "  block ^l\n"
                                             "  break !^l\n"
                                             "endloop\n"
                                             "block ^x\n"
                                             "halt\n");
}

TEST(Structurizer, SelfLoop) {
  EXPECT_EQ(check("e: s\ns: s x\nx:"), "block ^e\n"
                                       "loop\n"
                                       "  block ^s\n"
                                       "  break !^s\n"
                                       "endloop\n"
                                       "block ^x\n"
                                       "halt\n");
}

TEST(Structurizer, ContinueFromTheMiddle) {
  EXPECT_EQ(check("e: h\nh: a x\na: h b\nb: h\nx:"), "block ^e\n"
                                                     "loop\n"
                                                     "  block ^h\n"
                                                     "  break !^h\n"
                                                     "  block ^a\n"
                                                     "  continue ^a\n"
                                                     "  block ^b\n"
                                                     "endloop\n"
                                                     "block ^x\n"
                                                     "halt\n");
}

TEST(Structurizer, LoopWithTwoExitTargets) {
  // while (h) { if (b) goto y; l } x: ret; y: ret
  EXPECT_EQ(check("e: h\nh: b x\nb: y l\nl: h\nx: m\ny: m\nm:"),
            "block ^e\n"
            "setflag f0, false\n"
            "loop\n"
            "  block ^h\n"
            "  break !^h\n"
            "  block ^b\n"
            "  if ^b\n"
            "    setflag f0, true\n"
            "    break\n"
            "  endif\n"
            "  block ^l\n"
            "endloop\n"
            "if f0\n"
            "  block ^y\n"
            "else\n"
            "  block ^x\n"
            "endif\n"
            "block ^m\n"
            "halt\n");
}

TEST(Structurizer, BreakOutOfNestedLoops) {
  // for (h1) { for (h2) { if (!b) goto x; c } l1 } x
  EXPECT_EQ(check("e: h1\nh1: h2 x\nh2: b l1\nb: c x\nc: h2\nl1: h1\nx:"),
            "block ^e\n"
            "setflag f0, false\n"
            "loop\n"
            "  block ^h1\n"
            "  break !^h1\n"
            "  loop\n"
            "    block ^h2\n"
            "    break !^h2\n"
            "    block ^b\n"
            "    if !^b\n"
            "      setflag f0, true\n"
            "      break\n"
            "    endif\n"
            "    block ^c\n"
            "  endloop\n"
            "  break f0\n"
            "  block ^l1\n"
            "endloop\n"
            "block ^x\n"
            "halt\n");
}

TEST(Structurizer, ContinueOuterLoopFromInnerLoop) {
  // for (h1) { for (h2) { if (b) continue outer; c } l1 } x — the inner
  // loop ends for ^l1 or for the next outer iteration: one flag.
  EXPECT_EQ(check("e: h1\nh1: h2 x\nh2: b l1\nb: h1 c\nc: h2\nl1: h1\nx:"),
            "block ^e\n"
            "loop\n"
            "  setflag f0, false\n"
            "  block ^h1\n"
            "  break !^h1\n"
            "  loop\n"
            "    block ^h2\n"
            "    break !^h2\n"
            "    block ^b\n"
            "    if ^b\n"
            "      setflag f0, true\n"
            "      break\n"
            "    endif\n"
            "    block ^c\n"
            "  endloop\n"
            "  continue f0\n"
            "  block ^l1\n"
            "endloop\n"
            "block ^x\n"
            "halt\n");
}

TEST(Structurizer, ReturnInsideLoop) {
  // while (h) { if (b) return; l } x — the return stays in the loop.
  EXPECT_EQ(check("e: h\nh: b x\nb: r l\nr:\nl: h\nx:"), "block ^e\n"
                                                         "loop\n"
                                                         "  block ^h\n"
                                                         "  break !^h\n"
                                                         "  block ^b\n"
                                                         "  if ^b\n"
                                                         "    block ^r\n"
                                                         "    halt\n"
                                                         "  endif\n"
                                                         "  block ^l\n"
                                                         "endloop\n"
                                                         "block ^x\n"
                                                         "halt\n");
}

TEST(Structurizer, ReturnInsideNestedLoop) {
  EXPECT_EQ(check("e: h1\nh1: h2 x\nh2: b l1\nb: r c\nr:\nc: h2\nl1: h1\nx:"),
            "block ^e\n"
            "loop\n"
            "  block ^h1\n"
            "  break !^h1\n"
            "  loop\n"
            "    block ^h2\n"
            "    break !^h2\n"
            "    block ^b\n"
            "    if ^b\n"
            "      block ^r\n"
            "      halt\n"
            "    endif\n"
            "    block ^c\n"
            "  endloop\n"
            "  block ^l1\n"
            "endloop\n"
            "block ^x\n"
            "halt\n");
}

TEST(Structurizer, InfiniteLoopLeftOnlyByReturn) {
  EXPECT_EQ(check("e: h\nh: a b\na: r h\nb: h\nr:"), "block ^e\n"
                                                     "loop\n"
                                                     "  block ^h\n"
                                                     "  if ^h\n"
                                                     "    block ^a\n"
                                                     "    break ^a\n"
                                                     "  else\n"
                                                     "    block ^b\n"
                                                     "  endif\n"
                                                     "endloop\n"
                                                     "block ^r\n"
                                                     "halt\n");
}

TEST(Structurizer, NestedLoopsSharingAnExit) {
  // Both loops leave to ^x; the inner one (a do-while) also to the outer
  // latch ^l1, so it records which.
  EXPECT_EQ(check("e: h1\nh1: h2 x\nh2: b x\nb: h2 l1\nl1: h1\nx:"),
            "block ^e\n"
            "setflag f0, false\n"
            "loop\n"
            "  block ^h1\n"
            "  break !^h1\n"
            "  loop\n"
            "    block ^h2\n"
            "    if !^h2\n"
            "      setflag f0, true\n"
            "      break\n"
            "    endif\n"
            "    block ^b\n"
            "    break !^b\n"
            "  endloop\n"
            "  break f0\n"
            "  block ^l1\n"
            "endloop\n"
            "block ^x\n"
            "halt\n");
}

TEST(Structurizer, SeveralReturns) {
  // Early returns: an arm that halts needs no Else, which keeps the If
  // nesting (32 frames at most, formats/isa.md §4.15) shallow.
  EXPECT_EQ(check("a: b c\nb:\nc: d e\nd:\ne:"), "block ^a\n"
                                                 "if ^a\n"
                                                 "  block ^b\n"
                                                 "  halt\n"
                                                 "endif\n"
                                                 "block ^c\n"
                                                 "if ^c\n"
                                                 "  block ^d\n"
                                                 "  halt\n"
                                                 "endif\n"
                                                 "block ^e\n"
                                                 "halt\n");
}

TEST(Structurizer, EqualSuccessorsAndUnreachableNodes) {
  EXPECT_EQ(check("a: b b\nu: b a\nb:"), "block ^a\n"
                                         "block ^b\n"
                                         "halt\n");
}

TEST(Structurizer, EmptyFunction) {
  auto R = structurize(SCFG{}, "@k");
  ASSERT_TRUE(bool(R)) << toString(R.takeError());
  EXPECT_TRUE(R->Stmts.empty());
}

TEST(Structurizer, IrreducibleIsAnError) {
  // ^b and ^c form a cycle entered at both.
  SCFG G = parseCFG("a: b c\nb: c\nc: b d\nd:");
  auto R = structurize(G, "@k");
  ASSERT_FALSE(bool(R));
  std::string Msg = toString(R.takeError());
  EXPECT_NE(Msg.find("function '@k': irreducible control flow: the cycle "
                     "through "),
            std::string::npos)
      << Msg;
  EXPECT_NE(Msg.find("^b"), std::string::npos) << Msg;
  EXPECT_NE(Msg.find("^c"), std::string::npos) << Msg;
  EXPECT_NE(Msg.find("has more than one entry"), std::string::npos) << Msg;
}

TEST(Structurizer, BadSuccessorIsAnError) {
  SCFG G;
  G.Succs = {{5}};
  G.Names = {"^a"};
  auto R = structurize(G, "@k");
  ASSERT_FALSE(bool(R));
  EXPECT_NE(toString(R.takeError()).find("^a"), std::string::npos);
}

//===----------------------------------------------------------------------===//
// Random graphs and scale
//===----------------------------------------------------------------------===//

TEST(Structurizer, RandomReducibleGraphs) {
  std::mt19937_64 Rng(12345);
  for (unsigned I = 0; I < 4000; ++I) {
    unsigned N = 1 + Rng() % (I < 2000 ? 12 : 40);
    SCFG G = randomReducible(Rng, N);
    std::string Out = check(G, 8, I);
    if (Out.empty()) {
      std::string Desc;
      for (unsigned V = 0; V < N; ++V) {
        Desc += std::to_string(V) + ":";
        for (unsigned S : G.Succs[V])
          Desc += " " + std::to_string(S);
        Desc += "\n";
      }
      FAIL() << "graph " << I << "\n" << Desc;
    }
  }
}

TEST(Structurizer, ChainedRandomGraphs) {
  std::mt19937_64 Rng(4242);
  for (unsigned I = 0; I < 40; ++I)
    if (check(chainedRandom(Rng, 20, 60), 4, I).empty())
      FAIL() << "chained graph " << I;
}

TEST(Structurizer, LargeFunctionsAreFast) {
  std::mt19937_64 Rng(777);
  SCFG G = chainedRandom(Rng, 1000, 40);
  auto Start = std::chrono::steady_clock::now();
  auto R = structurize(G, "@big");
  double Secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
          .count();
  ASSERT_TRUE(bool(R)) << toString(R.takeError());
  EXPECT_EQ(checkStructure(*R, G), "");
  EXPECT_GT(R->Stmts.size(), G.size() / 2); // mostly reachable
  EXPECT_LT(Secs, 2.0);

  // A 20000-deep loop nest and a chain of 20000 diamonds.
  SCFG Deep;
  unsigned D = 10000;
  Deep.Succs.resize(2 * D + 1);
  for (unsigned I = 0; I < D; ++I) {
    Deep.Succs[I] = {I + 1};                                     // header
    Deep.Succs[2 * D - I - 1] = {I, I == 0 ? 2 * D : 2 * D - I}; // latch
  }
  Deep.Succs[D] = {D + 1 == 2 * D ? 2 * D : D + 1};
  auto RD = structurize(Deep, "@deep");
  ASSERT_TRUE(bool(RD)) << toString(RD.takeError());
  EXPECT_EQ(checkStructure(*RD, Deep), "");

  SCFG Chain;
  for (unsigned I = 0; I < 20000; ++I) {
    unsigned B = 3 * I;
    Chain.Succs.push_back({B + 1, B + 2});
    Chain.Succs.push_back({B + 3});
    Chain.Succs.push_back({B + 3});
  }
  Chain.Succs.push_back({});
  auto RC = structurize(Chain, "@chain");
  ASSERT_TRUE(bool(RC)) << toString(RC.takeError());
  EXPECT_EQ(checkStructure(*RC, Chain), "");
  EXPECT_EQ(RC->NumFlags, 0u);
}

} // namespace
