//===- HIR.cpp - HIR names and helpers ------------------------------------===//
#include "wave/HIR/HIR.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/Path.h"

using namespace wave::hir;

Expr::~Expr() = default;
Stmt::~Stmt() = default;

llvm::StringRef wave::hir::languageName(Language L) {
  switch (L) {
  case Language::Python:
    return "python";
  case Language::Cpp:
    return "cpp";
  case Language::Rust:
    return "rust";
  case Language::TypeScript:
    return "typescript";
  }
  llvm_unreachable("bad language");
}

std::optional<Language> wave::hir::parseLanguageName(llvm::StringRef S) {
  return llvm::StringSwitch<std::optional<Language>>(S)
      .Cases({"python", "py"}, Language::Python)
      .Cases({"cpp", "c++"}, Language::Cpp)
      .Cases({"rust", "rs"}, Language::Rust)
      .Cases({"typescript", "ts"}, Language::TypeScript)
      .Default(std::nullopt);
}

std::optional<Language> wave::hir::languageForPath(llvm::StringRef Path) {
  llvm::StringRef Ext = llvm::sys::path::extension(Path);
  return llvm::StringSwitch<std::optional<Language>>(Ext)
      .Case(".py", Language::Python)
      .Cases({".cpp", ".cc", ".cxx", ".hpp", ".h"}, Language::Cpp)
      .Case(".rs", Language::Rust)
      .Case(".ts", Language::TypeScript)
      .Default(std::nullopt);
}

llvm::StringRef wave::hir::scalarName(Scalar S) {
  switch (S) {
  case Scalar::Bool:
    return "bool";
  case Scalar::I32:
    return "i32";
  case Scalar::U32:
    return "u32";
  case Scalar::F16:
    return "f16";
  case Scalar::F32:
    return "f32";
  case Scalar::F64:
    return "f64";
  }
  llvm_unreachable("bad scalar");
}

unsigned wave::hir::scalarBytes(Scalar S) {
  switch (S) {
  case Scalar::F16:
    return 2;
  case Scalar::F64:
    return 8;
  default:
    return 4;
  }
}

std::string wave::hir::typeName(const Type &T) {
  switch (T.K) {
  case Type::Invalid:
    return "<error>";
  case Type::Void:
    return "void";
  case Type::ScalarKind:
    return scalarName(T.Elem).str();
  case Type::Buffer:
    return (T.ReadOnly ? "const " : "") + scalarName(T.Elem).str() + "[]";
  case Type::Shared:
    return "shared " + scalarName(T.Elem).str() + "[" +
           std::to_string(T.Count) + "]";
  case Type::IntLiteral:
    return "integer literal";
  case Type::FloatLiteral:
    return "float literal";
  case Type::Struct:
    return T.Decl ? T.Decl->Name : "<struct>";
  }
  llvm_unreachable("bad type kind");
}

int StructDecl::fieldIndex(llvm::StringRef N) const {
  for (size_t I = 0; I < Fields.size(); ++I)
    if (Fields[I].Name == N)
      return int(I);
  return -1;
}

unsigned StructDecl::numLeaves() const {
  unsigned N = 0;
  for (const Field &F : Fields)
    N += F.Ty.isStruct() && F.Ty.Decl ? F.Ty.Decl->numLeaves() : 1;
  return N;
}

unsigned StructDecl::leafOffset(unsigned I) const {
  unsigned N = 0;
  for (unsigned J = 0; J < I; ++J)
    N += Fields[J].Ty.isStruct() && Fields[J].Ty.Decl
             ? Fields[J].Ty.Decl->numLeaves()
             : 1;
  return N;
}

void StructDecl::leaves(std::vector<std::pair<Scalar, std::string>> &Out,
                        const std::string &Prefix) const {
  for (const Field &F : Fields) {
    std::string Path = Prefix.empty() ? F.Name : Prefix + "." + F.Name;
    if (F.Ty.isStruct() && F.Ty.Decl)
      F.Ty.Decl->leaves(Out, Path);
    else
      Out.push_back({F.Ty.Elem, Path});
  }
}

bool FunctionDecl::isInlined() const {
  if (Owner || ReturnTy.isStruct())
    return true;
  for (const Param &P : Params)
    if (P.Ty.isStruct() || P.ByRef)
      return true;
  return false;
}

llvm::StringRef wave::hir::binaryOpSpelling(BinaryOp Op) {
  switch (Op) {
  case BinaryOp::Add:
    return "+";
  case BinaryOp::Sub:
    return "-";
  case BinaryOp::Mul:
    return "*";
  case BinaryOp::Div:
    return "/";
  case BinaryOp::FloorDiv:
    return "//";
  case BinaryOp::Rem:
    return "%";
  case BinaryOp::Shl:
    return "<<";
  case BinaryOp::Shr:
    return ">>";
  case BinaryOp::LShr:
    return ">>>";
  case BinaryOp::BitAnd:
    return "&";
  case BinaryOp::BitOr:
    return "|";
  case BinaryOp::BitXor:
    return "^";
  case BinaryOp::LogicalAnd:
    return "&&";
  case BinaryOp::LogicalOr:
    return "||";
  case BinaryOp::Eq:
    return "==";
  case BinaryOp::Ne:
    return "!=";
  case BinaryOp::Lt:
    return "<";
  case BinaryOp::Le:
    return "<=";
  case BinaryOp::Gt:
    return ">";
  case BinaryOp::Ge:
    return ">=";
  }
  llvm_unreachable("bad binary op");
}

llvm::StringRef wave::hir::unaryOpSpelling(UnaryOp Op) {
  switch (Op) {
  case UnaryOp::Neg:
    return "-";
  case UnaryOp::Plus:
    return "+";
  case UnaryOp::LogicalNot:
  case UnaryOp::RustNot:
    return "!";
  case UnaryOp::BitNot:
    return "~";
  }
  llvm_unreachable("bad unary op");
}

StructDecl *Module::structNamed(llvm::StringRef Name) const {
  for (const auto &S : Structs)
    if (S->Name == Name)
      return S.get();
  return nullptr;
}

StructDecl *Module::getStruct(llvm::StringRef Name, llvm::SMLoc Loc) {
  if (StructDecl *S = structNamed(Name))
    return S;
  Structs.push_back(std::make_unique<StructDecl>(Loc, Name.str()));
  return Structs.back().get();
}

StructDecl *Module::getTuple(llvm::ArrayRef<Type> Elems, llvm::SMLoc Loc) {
  std::string Name = "(";
  for (size_t I = 0; I < Elems.size(); ++I)
    Name += (I ? ", " : "") + typeName(Elems[I]);
  Name += Elems.size() == 1 ? ",)" : ")";
  if (StructDecl *S = structNamed(Name))
    return S;
  StructDecl *S = getStruct(Name, Loc);
  S->Loc = Loc;
  S->Defined = true;
  S->Tuple = true;
  for (size_t I = 0; I < Elems.size(); ++I)
    S->Fields.push_back({Loc, std::to_string(I), Elems[I]});
  return S;
}

FunctionDecl *Module::function(llvm::StringRef Name) const {
  for (const auto &F : Functions)
    if (F->Name == Name)
      return F.get();
  return nullptr;
}

namespace {
struct IntrinsicRow {
  const char *Name;
  IntrinsicKind Kind;
  bool WavePrefix;
};
const IntrinsicRow IntrinsicRows[] = {
    {"", IntrinsicKind::NoArgU32, false},
#define WAVE_INTRINSIC(Id, Name, Kind, WavePrefix, MirOp)                      \
  {Name, IntrinsicKind::Kind, WavePrefix != 0},
#include "wave/HIR/Intrinsics.def"
};
} // namespace

llvm::StringRef wave::hir::intrinsicName(IntrinsicId Id) {
  return IntrinsicRows[unsigned(Id)].Name;
}

IntrinsicKind wave::hir::intrinsicKind(IntrinsicId Id) {
  return IntrinsicRows[unsigned(Id)].Kind;
}

IntrinsicId wave::hir::lookupIntrinsic(llvm::StringRef Name) {
  bool Prefixed = Name.consume_front("wave_");
  for (unsigned I = 1; I < std::size(IntrinsicRows); ++I) {
    const IntrinsicRow &R = IntrinsicRows[I];
    if (Name == R.Name && (!Prefixed || R.WavePrefix))
      return IntrinsicId(I);
  }
  // "wave_width" itself starts with "wave_".
  if (Prefixed && Name == "width")
    return IntrinsicId::WaveWidth;
  return IntrinsicId::None;
}
