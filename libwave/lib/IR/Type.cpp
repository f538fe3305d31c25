//===- Type.cpp - MIR value types -----------------------------------------===//
//
// Spellings and sizes of the MIR types (formats/mir.md, "Types").
//
//===----------------------------------------------------------------------===//
#include "wave/IR/Type.h"

#include "llvm/ADT/APFloat.h"

using namespace llvm;

namespace wave::mir {

static const char *const TypeNames[NumTypes] = {
    "void", "i1",  "i32",   "u32",    "f16",         "bf16",
    "f32",  "f64", "v2f16", "v2bf16", "ptr<device>", "ptr<local>",
    "ptr<private>"};

StringRef typeName(Type T) { return TypeNames[unsigned(T)]; }

std::optional<Type> parseTypeName(StringRef S) {
  for (unsigned I = 0; I < NumTypes; ++I)
    if (S == TypeNames[I])
      return Type(I);
  return std::nullopt;
}

unsigned typeBits(Type T) {
  switch (T) {
  case Type::Void:
    return 0;
  case Type::I1:
    return 1;
  case Type::F16:
  case Type::BF16:
    return 16;
  case Type::F64:
    return 64;
  default:
    return 32;
  }
}

const llvm::fltSemantics *getFloatSemantics(Type T) {
  switch (T) {
  case Type::F16:
    return &llvm::APFloat::IEEEhalf();
  case Type::BF16:
    return &llvm::APFloat::BFloat();
  case Type::F32:
    return &llvm::APFloat::IEEEsingle();
  case Type::F64:
    return &llvm::APFloat::IEEEdouble();
  default:
    return nullptr;
  }
}

} // namespace wave::mir
