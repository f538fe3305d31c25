//===- SemaIntrinsics.cpp - Checking intrinsic calls and call casts -------===//
//
// Intrinsics.def lists the intrinsics; each Kind has one checking rule
// here (formats/kernel-languages.md, "Intrinsics"). Where WAVE lacks an
// operation for a type the error says so and names the ISA section.
//
//===----------------------------------------------------------------------===//
#include "SemaInternal.h"

#include "llvm/ADT/StringSwitch.h"

using namespace wave::hir;
using llvm::dyn_cast;

std::optional<Scalar> Sema::castCallTarget(llvm::StringRef Name,
                                           Language L) {
  std::optional<Scalar> S = llvm::StringSwitch<std::optional<Scalar>>(Name)
                                .Case("f32", Scalar::F32)
                                .Case("u32", Scalar::U32)
                                .Case("i32", Scalar::I32)
                                .Case("f16", Scalar::F16)
                                .Case("f64", Scalar::F64)
                                .Case("bool", Scalar::Bool)
                                .Default(std::nullopt);
  if (!S && L == Language::Python)
    S = llvm::StringSwitch<std::optional<Scalar>>(Name)
            .Case("int", Scalar::I32)
            .Case("float", Scalar::F32)
            .Default(std::nullopt);
  return S;
}

bool Sema::isIntrinsicName(llvm::StringRef Name, Language L) {
  return lookupIntrinsic(Name) != IntrinsicId::None ||
         castCallTarget(Name, L).has_value();
}

std::optional<Type> Sema::checkIntrinsicCall(CallExpr &C, ExprPtr &Self) {
  const std::string Name = C.Callee;
  if (std::optional<Scalar> To = castCallTarget(Name, M.Lang)) {
    if (C.Args.size() != 1) {
      Diags.error(C.loc(), "'" + Name + "(...)' converts one value; " +
                               std::to_string(C.Args.size()) + " given");
      for (ExprPtr &A : C.Args)
        checkExpr(A);
      return Type::invalid();
    }
    llvm::SMLoc Loc = C.loc();
    Self = std::make_unique<CastExpr>(Loc, *To, std::move(C.Args[0]));
    return checkExpr(Self);
  }

  IntrinsicId Id = lookupIntrinsic(Name);
  if (Id == IntrinsicId::None)
    return std::nullopt;
  C.Intrinsic = Id;
  for (ExprPtr &A : C.Args)
    checkExpr(A);
  for (ExprPtr &A : C.Args)
    if (A->Ty.isInvalid())
      return Type::invalid();

  auto Arity = [&](size_t Min, size_t Max) {
    if (C.Args.size() >= Min && C.Args.size() <= Max)
      return true;
    std::string Want = Min == Max ? std::to_string(Min)
                                  : std::to_string(Min) + " or " +
                                        std::to_string(Max);
    Diags.error(C.loc(), "'" + Name + "' takes " + Want + " argument(s), not " +
                             std::to_string(C.Args.size()));
    return false;
  };
  auto Arg = [&](size_t I) { return "argument " + std::to_string(I + 1) +
                                    " of '" + Name + "'"; };
  const Type U32 = Type::scalar(Scalar::U32);
  const Type Void = Type::voidType();

  // The common numeric type of arguments [0, N), settled and converted.
  auto CommonNumeric = [&](size_t N, bool FloatOnly) -> Type {
    Type T = C.Args[0]->Ty;
    for (size_t I = 1; I < N; ++I)
      T = unify(T, C.Args[I]->Ty, C.Args[I]->loc(), Name);
    if (T.isInvalid())
      return T;
    if (!T.isNumeric()) {
      Diags.error(C.loc(), "'" + Name + "' takes numbers, not " +
                               typeName(T));
      return Type::invalid();
    }
    if (T.isLiteral())
      // Math on bare literals: f32 (TypeScript: f64, a JavaScript number),
      // i32 for integer literals where integers are accepted.
      T = Type::scalar(
          FloatOnly || T.K == Type::FloatLiteral
              ? (M.Lang == Language::TypeScript ? Scalar::F64 : Scalar::F32)
              : Scalar::I32);
    if (FloatOnly && T.isInteger()) {
      if (!Rules.PromoteMixed) {
        Diags.error(C.loc(), "'" + Name + "' takes a float, not " +
                                 typeName(T) + "; convert it: " +
                                 castHint(Scalar::F32));
        return Type::invalid();
      }
      T = Type::scalar(Scalar::F32);
    }
    for (size_t I = 0; I < N; ++I)
      if (!coerce(C.Args[I], T.Elem, Arg(I)))
        return Type::invalid();
    return T;
  };
  auto NoF64 = [&](const Type &T) {
    if (!T.isScalar(Scalar::F64))
      return true;
    Diags.error(C.loc(), "'" + Name +
                             "' is not supported on f64 (WAVE's "
                             "f64 operations are add, sub, mul, "
                             "fma, div and sqrt: formats/isa.md §2.6; "
                             "comparisons, min and max are built from "
                             "them)");
    return false;
  };
  // A buffer or shared-array argument of integer elements that the kernel
  // may write, for atomics.
  auto AtomicTarget = [&]() -> std::optional<Scalar> {
    const auto *N = dyn_cast<NameExpr>(C.Args[0].get());
    const Type &T = C.Args[0]->Ty;
    if (!N || !T.isArray()) {
      Diags.error(C.Args[0]->loc(), "the first argument of '" + Name +
                                        "' must be a buffer or a shared "
                                        "array");
      return std::nullopt;
    }
    if (!isIntegerScalar(T.Elem)) {
      Diags.error(C.Args[0]->loc(), "'" + Name +
                                        "' needs i32 or u32 elements, not " +
                                        typeName(T) +
                                        " (WAVE atomics are 32-bit integer: "
                                        "formats/isa.md §2.11)");
      return std::nullopt;
    }
    if (T.ReadOnly) {
      Diags.error(C.Args[0]->loc(),
                  "'" + Name + "' on read-only buffer '" + N->Name + "'");
      return std::nullopt;
    }
    if ((Id == IntrinsicId::AtomicMin || Id == IntrinsicId::AtomicMax) &&
        T.Elem == Scalar::I32) {
      Diags.error(C.loc(), "'" + Name +
                               "' on i32 is not supported: WAVE's "
                               "atomic min and max compare "
                               "unsigned (formats/isa.md §2.11); use a u32 "
                               "buffer or atomic_cas");
      return std::nullopt;
    }
    Type Idx = C.Args[1]->Ty;
    if (Idx.K == Type::IntLiteral)
      coerce(C.Args[1], Scalar::U32, Arg(1));
    else if (!Idx.isInteger()) {
      Diags.error(C.Args[1]->loc(), "an index must be an integer, not " +
                                        typeName(Idx));
      return std::nullopt;
    }
    return T.Elem;
  };

  // An MMA fragment id: a constant encoded in the instruction where a
  // register number goes, so r0..r254 as the assembler spells it.
  auto FragmentId = [&](size_t I) {
    std::optional<int64_t> V = evalConstInt(*C.Args[I]);
    if (!V || *V < 0 || *V > 254) {
      Diags.error(C.Args[I]->loc(),
                  Arg(I) + " is a fragment id: a constant 0..254 (WAVE "
                           "encodes it in a register field of the "
                           "instruction: formats/isa.md §2.15, "
                           "formats/wave-asm.md §5)");
      return false;
    }
    coerce(C.Args[I], Scalar::U32, Arg(I), /*Explicit=*/true);
    return true;
  };
  // The shared f32 array, element index and row stride (in elements) of
  // an MMA load or store, from argument \p First on.
  auto MmaTile = [&](size_t First) {
    const auto *N = dyn_cast<NameExpr>(C.Args[First].get());
    const Type &T = C.Args[First]->Ty;
    if (!N || T.K != Type::Shared || T.Elem != Scalar::F32) {
      Diags.error(C.Args[First]->loc(),
                  Arg(First) + " must be a shared array of f32, not '" +
                      typeName(T) + "'" +
                      " (MMA moves f32 fragments to and from "
                      "workgroup-shared memory: formats/isa.md §4.18)");
      return false;
    }
    for (size_t I = First + 1; I < First + 3; ++I) {
      const Type &X = C.Args[I]->Ty;
      if (X.K != Type::IntLiteral && !X.isInteger()) {
        Diags.error(C.Args[I]->loc(),
                    Arg(I) +
                        (I == First + 1 ? " is an element index"
                                        : " is a row stride in elements") +
                        " and must be an integer, not " + typeName(X));
        return false;
      }
      coerce(C.Args[I], Scalar::U32, Arg(I), /*Explicit=*/true);
    }
    return true;
  };

  switch (intrinsicKind(Id)) {
  case IntrinsicKind::MmaLoad:
    if (!Arity(4, 4) || !FragmentId(0) || !MmaTile(1))
      return Type::invalid();
    return Void;
  case IntrinsicKind::MmaStore:
    if (!Arity(4, 4) || !MmaTile(0) || !FragmentId(3))
      return Type::invalid();
    return Void;
  case IntrinsicKind::MmaCompute:
    if (!Arity(3, 3))
      return Type::invalid();
    for (size_t I = 0; I < 3; ++I)
      if (!FragmentId(I))
        return Type::invalid();
    return Void;
  case IntrinsicKind::SpecialReg:
  case IntrinsicKind::GlobalId: {
    if (!Arity(0, 1))
      return Type::invalid();
    if (C.Args.size() == 1) {
      std::optional<int64_t> D = evalConstInt(*C.Args[0]);
      if (!D || *D < 0 || *D > 2) {
        Diags.error(C.Args[0]->loc(), "the dimension of '" + Name +
                                          "' must be the constant 0, 1 or 2");
        return Type::invalid();
      }
      coerce(C.Args[0], Scalar::U32, Arg(0));
    }
    return U32;
  }
  case IntrinsicKind::NoArgU32:
    return Arity(0, 0) ? U32 : Type::invalid();
  case IntrinsicKind::Barrier:
  case IntrinsicKind::Fence:
    return Arity(0, 0) ? Void : Type::invalid();
  case IntrinsicKind::Atomic:
  case IntrinsicKind::AtomicCas: {
    size_t N = intrinsicKind(Id) == IntrinsicKind::Atomic ? 3 : 4;
    if (!Arity(N, N))
      return Type::invalid();
    std::optional<Scalar> Elem = AtomicTarget();
    if (!Elem)
      return Type::invalid();
    for (size_t I = 2; I < N; ++I)
      if (!coerce(C.Args[I], *Elem, Arg(I)))
        return Type::invalid();
    return Type::scalar(*Elem);
  }
  case IntrinsicKind::WaveInt: {
    if (!Arity(1, 1))
      return Type::invalid();
    Type T = C.Args[0]->Ty;
    if (T.K == Type::IntLiteral)
      T = U32;
    if (!T.isInteger()) {
      Diags.error(C.Args[0]->loc(),
                  "'" + Name + "' takes an i32 or u32, not " + typeName(T) +
                      " (WAVE's wave reductions and scans are integer: "
                      "formats/isa.md §2.12)");
      return Type::invalid();
    }
    coerce(C.Args[0], T.Elem, Arg(0));
    return T;
  }
  case IntrinsicKind::Shuffle: {
    if (!Arity(2, 2))
      return Type::invalid();
    Type T = C.Args[0]->Ty;
    if (T.isLiteral())
      T = Type::scalar(T.K == Type::IntLiteral ? Scalar::U32 : Scalar::F32);
    if (!T.isScalar() || !(T.isInteger() || T.isScalar(Scalar::F32))) {
      Diags.error(C.Args[0]->loc(), "'" + Name +
                                        "' moves i32, u32 or f32 values, "
                                        "not " +
                                        typeName(T) +
                                        " (formats/isa.md §2.12)");
      return Type::invalid();
    }
    coerce(C.Args[0], T.Elem, Arg(0));
    const Type &L = C.Args[1]->Ty;
    if (L.K != Type::IntLiteral && !L.isInteger()) {
      Diags.error(C.Args[1]->loc(), "the lane of '" + Name +
                                        "' must be an integer, not " +
                                        typeName(L));
      return Type::invalid();
    }
    coerce(C.Args[1], Scalar::U32, Arg(1), /*Explicit=*/true);
    return T;
  }
  case IntrinsicKind::Ballot:
  case IntrinsicKind::WaveBool:
    if (!Arity(1, 1) || !coerceToBool(C.Args[0], Arg(0)))
      return Type::invalid();
    return intrinsicKind(Id) == IntrinsicKind::Ballot
               ? U32
               : Type::scalar(Scalar::Bool);
  case IntrinsicKind::MathUnary: {
    if (!Arity(1, 1))
      return Type::invalid();
    Type T = CommonNumeric(1, /*FloatOnly=*/true);
    if (T.isInvalid() || (Id != IntrinsicId::Sqrt && !NoF64(T)))
      return Type::invalid();
    return T;
  }
  case IntrinsicKind::Abs: {
    if (!Arity(1, 1))
      return Type::invalid();
    Type T = CommonNumeric(1, /*FloatOnly=*/false);
    return T.isInvalid() || !NoF64(T) ? Type::invalid() : T;
  }
  case IntrinsicKind::MinMax:
  case IntrinsicKind::Clamp: {
    bool IsClamp = intrinsicKind(Id) == IntrinsicKind::Clamp;
    size_t N = IsClamp ? 3 : 2;
    if (!Arity(N, N))
      return Type::invalid();
    Type T = CommonNumeric(N, /*FloatOnly=*/false);
    // min and max on f64 are lowered through the f64 comparison.
    return T.isInvalid() || (IsClamp && !NoF64(T)) ? Type::invalid() : T;
  }
  case IntrinsicKind::Fma:
    if (!Arity(3, 3))
      return Type::invalid();
    return CommonNumeric(3, /*FloatOnly=*/true);
  }
  return Type::invalid();
}
