//===- SemaGPU.cpp - Whole-module GPU rules -------------------------------===//
//
// Rules that need the whole, typed module (formats/kernel-languages.md,
// "GPU rules"):
//   - no recursion: WAVE's call stack holds 8 frames and wave-ra inlines
//     every call, so a cycle in the call graph is an error at the call that
//     closes it;
//   - barrier() (directly or through a device function) not under control
//     flow that depends on the thread. A value is thread-dependent when it
//     comes from thread_id, global_id, lane_id, prefix_sum, a shuffle, an
//     atomic, or a load at a thread-dependent index, or from a variable
//     assigned one (iterated to a fixed point). A condition that is
//     thread-dependent makes its arms divergent; so does a thread-dependent
//     break or continue for its whole loop, and a thread-dependent return
//     for the rest of the function. This is "when it can tell": a barrier
//     under a condition on a loaded value that differs between threads is
//     not caught;
//   - a function with a result returns on every path.
//
//===----------------------------------------------------------------------===//
#include "SemaInternal.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"

using namespace wave::hir;
using llvm::cast;
using llvm::dyn_cast;

void wave::hir::forEachExpr(const Expr &E, llvm::function_ref<void(const Expr &)> Fn) {
  switch (E.kind()) {
  case Expr::Kind::Unary:
    forEachExpr(*cast<UnaryExpr>(E).Operand, Fn);
    break;
  case Expr::Kind::Binary:
    forEachExpr(*cast<BinaryExpr>(E).LHS, Fn);
    forEachExpr(*cast<BinaryExpr>(E).RHS, Fn);
    break;
  case Expr::Kind::CompareChain:
    for (const ExprPtr &O : cast<CompareChainExpr>(E).Operands)
      forEachExpr(*O, Fn);
    break;
  case Expr::Kind::Conditional: {
    const auto &C = cast<ConditionalExpr>(E);
    forEachExpr(*C.Cond, Fn);
    forEachExpr(*C.Then, Fn);
    forEachExpr(*C.Else, Fn);
    break;
  }
  case Expr::Kind::Call:
    for (const ExprPtr &A : cast<CallExpr>(E).Args)
      forEachExpr(*A, Fn);
    break;
  case Expr::Kind::Index:
    forEachExpr(*cast<IndexExpr>(E).Base, Fn);
    forEachExpr(*cast<IndexExpr>(E).Index, Fn);
    break;
  case Expr::Kind::Cast:
    forEachExpr(*cast<CastExpr>(E).Operand, Fn);
    break;
  case Expr::Kind::StructLit:
    for (const StructLitExpr::Init &I : cast<StructLitExpr>(E).Inits)
      if (I.Value)
        forEachExpr(*I.Value, Fn);
    break;
  case Expr::Kind::Member:
    forEachExpr(*cast<MemberExpr>(E).Base, Fn);
    break;
  default:
    break;
  }
  Fn(E);
}

void wave::hir::forEachNode(const Stmt &S, llvm::function_ref<void(const Stmt &)> OnStmt,
                 llvm::function_ref<void(const Expr &)> OnExpr) {
  OnStmt(S);
  auto E = [&](const ExprPtr &X) {
    if (X)
      forEachExpr(*X, OnExpr);
  };
  auto Sub = [&](const Stmt *X) {
    if (X)
      forEachNode(*X, OnStmt, OnExpr);
  };
  switch (S.kind()) {
  case Stmt::Kind::Block:
    for (const StmtPtr &C : cast<BlockStmt>(S).Body)
      Sub(C.get());
    break;
  case Stmt::Kind::VarDecl:
    E(cast<VarDecl>(S).Init);
    break;
  case Stmt::Kind::SharedDecl:
    break;
  case Stmt::Kind::Assign:
    E(cast<AssignStmt>(S).Target);
    E(cast<AssignStmt>(S).Value);
    break;
  case Stmt::Kind::ExprStmt:
    E(cast<ExprStmt>(S).E);
    break;
  case Stmt::Kind::If:
    E(cast<IfStmt>(S).Cond);
    Sub(cast<IfStmt>(S).Then.get());
    Sub(cast<IfStmt>(S).Else.get());
    break;
  case Stmt::Kind::While:
    E(cast<WhileStmt>(S).Cond);
    Sub(cast<WhileStmt>(S).Body.get());
    break;
  case Stmt::Kind::For: {
    const auto &F = cast<ForStmt>(S);
    Sub(F.Init.get());
    E(F.Cond);
    Sub(F.Step.get());
    Sub(F.Body.get());
    break;
  }
  case Stmt::Kind::ForRange: {
    const auto &F = cast<ForRangeStmt>(S);
    E(F.Start);
    E(F.End);
    E(F.Step);
    Sub(F.Body.get());
    break;
  }
  case Stmt::Kind::Return:
    E(cast<ReturnStmt>(S).Value);
    break;
  case Stmt::Kind::Break:
  case Stmt::Kind::Continue:
    break;
  }
}

namespace {

//===----------------------------------------------------------------------===//
// Recursion
//===----------------------------------------------------------------------===//

class CallGraph {
public:
  explicit CallGraph(const Module &M) {
    for (const auto &F : M.Functions) {
      auto &Calls = Edges[F.get()];
      if (F->Body)
        forEachNode(*F->Body, [](const Stmt &) {},
                    [&](const Expr &E) {
                      if (const auto *C = dyn_cast<CallExpr>(&E))
                        if (C->Target)
                          Calls.push_back(C);
                    });
    }
  }

  /// Reports every call that closes a cycle.
  void reportCycles(const Module &M, DiagnosticEngine &Diags) {
    for (const auto &F : M.Functions)
      visit(F.get(), Diags);
  }

  /// Whether \p F reaches a barrier() through its calls.
  bool mayBarrier(const FunctionDecl *F) {
    auto [It, New] = Barrier.try_emplace(F, false);
    if (!New)
      return It->second;
    bool B = false;
    if (F->Body)
      forEachNode(*F->Body, [](const Stmt &) {},
                  [&](const Expr &E) {
                    if (const auto *C = dyn_cast<CallExpr>(&E))
                      B |= C->Intrinsic == IntrinsicId::Barrier ||
                           (C->Target && mayBarrier(C->Target));
                  });
    Barrier[F] = B;
    return B;
  }

private:
  enum State { Unvisited, Active, Done };
  void visit(const FunctionDecl *F, DiagnosticEngine &Diags) {
    State &S = States[F];
    if (S != Unvisited)
      return;
    S = Active;
    for (const CallExpr *C : Edges[F]) {
      if (States[C->Target] == Active) {
        Diags.error(C->loc(),
                    "recursive call to '" + C->Target->Name +
                        "': recursion is not supported in WAVE kernels "
                        "(device-function calls are inlined)");
        Diags.note(C->Target->Loc, "'" + C->Target->Name +
                                       "' is defined here");
        continue;
      }
      visit(C->Target, Diags);
    }
    States[F] = Done;
  }

  llvm::DenseMap<const FunctionDecl *, std::vector<const CallExpr *>> Edges;
  llvm::DenseMap<const FunctionDecl *, State> States;
  llvm::DenseMap<const FunctionDecl *, bool> Barrier;
};

//===----------------------------------------------------------------------===//
// Barriers under thread-dependent control flow
//===----------------------------------------------------------------------===//

class DivergenceChecker {
public:
  DivergenceChecker(CallGraph &CG, DiagnosticEngine &Diags)
      : CG(CG), Diags(Diags) {}

  void run(const FunctionDecl &F) {
    if (!F.Body)
      return;
    // Thread-dependent variables, to a fixed point (loops carry values
    // backwards).
    size_t Before;
    do {
      Before = Varying.size();
      Report = false;
      Control.clear();
      AfterReturn = {};
      walk(*F.Body);
    } while (Varying.size() != Before);
    Report = true;
    Control.clear();
    AfterReturn = {};
    walk(*F.Body);
  }

private:
  bool varying(const Expr &E) const {
    bool V = false;
    forEachExpr(E, [&](const Expr &X) {
      if (const auto *N = dyn_cast<NameExpr>(&X)) {
        V |= (N->Var && Varying.contains(N->Var)) ||
             (N->Parm && Varying.contains(N->Parm));
      } else if (const auto *C = dyn_cast<CallExpr>(&X)) {
        switch (C->Intrinsic) {
        case IntrinsicId::ThreadId:
        case IntrinsicId::GlobalId:
        case IntrinsicId::LaneId:
        case IntrinsicId::PrefixSum:
        case IntrinsicId::Shuffle:
        case IntrinsicId::ShuffleUp:
        case IntrinsicId::ShuffleDown:
        case IntrinsicId::ShuffleXor:
          V = true;
          break;
        default:
          V |= intrinsicKind(C->Intrinsic) == IntrinsicKind::Atomic ||
               intrinsicKind(C->Intrinsic) == IntrinsicKind::AtomicCas;
        }
      }
    });
    return V;
  }

  /// The location of the innermost thread-dependent condition in force.
  std::optional<llvm::SMLoc> divergent() const {
    if (!Control.empty())
      return Control.back();
    if (AfterReturn.isValid())
      return AfterReturn;
    return std::nullopt;
  }

  void assignTo(const Expr &Target, bool V) {
    if (!V && !divergent())
      return;
    const Expr *Root = &Target;
    while (const auto *Mem = dyn_cast<MemberExpr>(Root))
      Root = Mem->Base.get(); // A field taints its whole variable.
    if (const auto *N = dyn_cast<NameExpr>(Root)) {
      if (N->Var)
        Varying.insert(N->Var);
      else if (N->Parm)
        Varying.insert(N->Parm);
    }
  }

  void checkBarriers(const Expr &E) {
    if (!Report)
      return;
    std::optional<llvm::SMLoc> D = divergent();
    if (!D)
      return;
    forEachExpr(E, [&](const Expr &X) {
      const auto *C = dyn_cast<CallExpr>(&X);
      if (!C)
        return;
      bool Direct = C->Intrinsic == IntrinsicId::Barrier;
      if (!Direct && !(C->Target && CG.mayBarrier(C->Target)))
        return;
      Diags.error(C->loc(),
                  Direct ? "barrier() under control flow that depends on the "
                           "thread: waves that skip it never arrive and the "
                           "workgroup deadlocks"
                         : "call to '" + C->Target->Name +
                               "', which waits at a barrier, under control "
                               "flow that depends on the thread");
      Diags.note(*D, "this condition depends on the thread");
    });
  }

  /// Whether \p S holds a break/continue of the loop it is in (not of a
  /// nested loop) under a thread-dependent condition.
  bool divergentLoopExit(const Stmt &S, bool Cond) const {
    switch (S.kind()) {
    case Stmt::Kind::Break:
    case Stmt::Kind::Continue:
      return Cond;
    case Stmt::Kind::Block:
      for (const StmtPtr &C : cast<BlockStmt>(S).Body)
        if (divergentLoopExit(*C, Cond))
          return true;
      return false;
    case Stmt::Kind::If: {
      const auto &I = cast<IfStmt>(S);
      bool C = Cond || varying(*I.Cond);
      return divergentLoopExit(*I.Then, C) ||
             (I.Else && divergentLoopExit(*I.Else, C));
    }
    default:
      return false;
    }
  }

  static bool containsReturn(const Stmt &S) {
    bool R = false;
    forEachNode(S, [&](const Stmt &X) { R |= X.kind() == Stmt::Kind::Return; },
                [](const Expr &) {});
    return R;
  }

  void walkLoopBody(const BlockStmt &Body, bool CondVarying,
                    llvm::SMLoc CondLoc) {
    bool Pushed = false;
    if (CondVarying) {
      Control.push_back(CondLoc);
      Pushed = true;
    } else {
      for (const StmtPtr &S : Body.Body)
        if (divergentLoopExit(*S, false)) {
          Control.push_back(S->loc());
          Pushed = true;
          break;
        }
    }
    walk(Body);
    if (Pushed)
      Control.pop_back();
  }

  void walk(const Stmt &S) {
    switch (S.kind()) {
    case Stmt::Kind::Block:
      for (const StmtPtr &C : cast<BlockStmt>(S).Body)
        walk(*C);
      return;
    case Stmt::Kind::VarDecl: {
      const auto &V = cast<VarDecl>(S);
      if (V.Init) {
        checkBarriers(*V.Init);
        if (varying(*V.Init) || divergent())
          Varying.insert(&V);
      }
      return;
    }
    case Stmt::Kind::SharedDecl:
      return;
    case Stmt::Kind::Assign: {
      const auto &A = cast<AssignStmt>(S);
      checkBarriers(*A.Value);
      assignTo(*A.Target, varying(*A.Value));
      return;
    }
    case Stmt::Kind::ExprStmt:
      checkBarriers(*cast<ExprStmt>(S).E);
      return;
    case Stmt::Kind::If: {
      const auto &I = cast<IfStmt>(S);
      checkBarriers(*I.Cond);
      bool V = varying(*I.Cond);
      if (V)
        Control.push_back(I.Cond->loc());
      walk(*I.Then);
      if (I.Else)
        walk(*I.Else);
      if (V) {
        Control.pop_back();
        if (!AfterReturn.isValid() &&
            (containsReturn(*I.Then) || (I.Else && containsReturn(*I.Else))))
          AfterReturn = I.Cond->loc();
      }
      return;
    }
    case Stmt::Kind::While: {
      const auto &W = cast<WhileStmt>(S);
      checkBarriers(*W.Cond);
      walkLoopBody(*W.Body, varying(*W.Cond), W.Cond->loc());
      return;
    }
    case Stmt::Kind::For: {
      const auto &F = cast<ForStmt>(S);
      if (F.Init)
        walk(*F.Init);
      bool V = F.Cond && varying(*F.Cond);
      if (F.Cond)
        checkBarriers(*F.Cond);
      walkLoopBody(*F.Body, V, F.Cond ? F.Cond->loc() : F.loc());
      if (F.Step)
        walk(*F.Step);
      return;
    }
    case Stmt::Kind::ForRange: {
      const auto &F = cast<ForRangeStmt>(S);
      bool V = false;
      for (const ExprPtr *E : {&F.Start, &F.End, &F.Step})
        if (*E) {
          checkBarriers(**E);
          V |= varying(**E);
        }
      if (V || divergent())
        Varying.insert(F.Var.get());
      walkLoopBody(*F.Body, V, F.loc());
      return;
    }
    case Stmt::Kind::Return:
      if (const auto &R = cast<ReturnStmt>(S); R.Value)
        checkBarriers(*R.Value);
      return;
    case Stmt::Kind::Break:
    case Stmt::Kind::Continue:
      return;
    }
  }

  CallGraph &CG;
  DiagnosticEngine &Diags;
  llvm::DenseSet<const void *> Varying;
  std::vector<llvm::SMLoc> Control;
  llvm::SMLoc AfterReturn;
  bool Report = false;
};

//===----------------------------------------------------------------------===//
// Return paths
//===----------------------------------------------------------------------===//

bool containsBreakOf(const Stmt &S) {
  switch (S.kind()) {
  case Stmt::Kind::Break:
    return true;
  case Stmt::Kind::Block:
    for (const StmtPtr &C : cast<BlockStmt>(S).Body)
      if (containsBreakOf(*C))
        return true;
    return false;
  case Stmt::Kind::If:
    return containsBreakOf(*cast<IfStmt>(S).Then) ||
           (cast<IfStmt>(S).Else && containsBreakOf(*cast<IfStmt>(S).Else));
  default: // A nested loop's break is its own.
    return false;
  }
}

/// Whether control never reaches the end of \p S.
bool alwaysReturns(const Stmt &S) {
  switch (S.kind()) {
  case Stmt::Kind::Return:
    return true;
  case Stmt::Kind::Block:
    for (const StmtPtr &C : cast<BlockStmt>(S).Body)
      if (alwaysReturns(*C))
        return true;
    return false;
  case Stmt::Kind::If: {
    const auto &I = cast<IfStmt>(S);
    return I.Else && alwaysReturns(*I.Then) && alwaysReturns(*I.Else);
  }
  case Stmt::Kind::While: {
    const auto &W = cast<WhileStmt>(S);
    const auto *B = dyn_cast<BoolLitExpr>(W.Cond.get());
    return B && B->Value && !containsBreakOf(*W.Body);
  }
  default:
    return false;
  }
}

} // namespace

void wave::hir::checkGPURules(Module &M, DiagnosticEngine &Diags) {
  CallGraph CG(M);
  CG.reportCycles(M, Diags);
  for (const auto &F : M.Functions) {
    DivergenceChecker(CG, Diags).run(*F);
    if (!F->ReturnTy.isVoid() && F->Body && !alwaysReturns(*F->Body))
      Diags.error(F->Loc, "function '" + F->Name +
                              "' may reach its end without returning a " +
                              typeName(F->ReturnTy));
  }
}
