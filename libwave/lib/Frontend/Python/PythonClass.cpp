//===- PythonClass.cpp - Dataclasses of the Python kernel dialect ---------===//
//
// Plain-data structs of the Python dialect (formats/kernel-languages.md §9,
// "Dataclasses"), mapped onto the HIR struct nodes as the Rust frontend
// does (RustStruct.cpp): `@dataclass class Complex:` with annotated fields
// becomes a hir::StructDecl; its methods become HIR functions named
// "Complex::name" with Owner set and `self` first; the dunder operators
// (`__add__` ...) are named as the methods of the Rust operator traits
// (`add` ...) and marked with the trait, so that Sema dispatches `a + b`
// on a Complex to them. A construction `Complex(1.0, im=2.0)` is a struct
// literal whose positional arguments get their fields' names, and whose
// missing fields their defaults, once the whole module is parsed (a class
// may be used before its definition).
//
//===----------------------------------------------------------------------===//
#include "PythonParser.h"

#include "llvm/ADT/StringSwitch.h"

using namespace wave;
using namespace wave::fe;
using llvm::dyn_cast;
using llvm::SMLoc;
using llvm::StringRef;

/// The literal default of a field whose `=` is token \p I (a number,
/// optionally negated, or True/False, then the end of the line).
static std::optional<PyFieldDefault>
literalDefault(const std::vector<PyToken> &Toks, size_t I) {
  PyFieldDefault V;
  if (++I >= Toks.size())
    return std::nullopt;
  V.Loc = Toks[I].loc();
  if (Toks[I].is(PyTok::Minus)) {
    V.Neg = true;
    ++I;
  }
  if (I + 1 >= Toks.size())
    return std::nullopt;
  const PyToken &T = Toks[I];
  if (T.is(PyTok::Number)) {
    V.IsFloat = T.IsFloat;
    V.IntValue = T.IntValue;
    V.FloatValue = T.FloatValue;
  } else if (!V.Neg && (T.isIdent("True") || T.isIdent("False"))) {
    V.IsBool = true;
    V.BoolValue = T.isIdent("True");
  } else {
    return std::nullopt;
  }
  const PyToken &After = Toks[I + 1];
  if (!After.is(PyTok::Newline) && !After.is(PyTok::Semi) &&
      !After.is(PyTok::Eof))
    return std::nullopt;
  return V;
}

void PythonParser::collectClassNames() {
  for (size_t I = 0; I + 1 < Toks.size(); ++I) {
    if (!Toks[I].isIdent("class") || !Toks[I + 1].is(PyTok::Ident))
      continue;
    auto &Fields = ClassNames[Toks[I + 1].Text];
    // The header's end, then the lines one level into the body: those
    // that start `name:` declare fields.
    size_t J = I + 2;
    while (J < Toks.size() && !Toks[J].is(PyTok::Newline) &&
           !Toks[J].is(PyTok::Eof))
      ++J;
    if (J + 1 >= Toks.size() || !Toks[J + 1].is(PyTok::Indent))
      continue;
    unsigned Level = 0;
    bool LineStart = true;
    for (J = J + 1; J + 1 < Toks.size() && !Toks[J].is(PyTok::Eof); ++J) {
      const PyToken &T = Toks[J];
      if (T.is(PyTok::Indent) || T.is(PyTok::Dedent)) {
        if (T.is(PyTok::Indent))
          ++Level;
        else if (--Level == 0)
          break;
        LineStart = true;
        continue;
      }
      if (T.is(PyTok::Newline)) {
        LineStart = true;
        continue;
      }
      if (LineStart && Level == 1 && T.is(PyTok::Ident) &&
          !isPythonKeyword(T.Text) && Toks[J + 1].is(PyTok::Colon)) {
        std::optional<PyFieldDefault> D;
        size_t K = J + 2;
        unsigned Brackets = 0;
        for (; K < Toks.size() && !Toks[K].is(PyTok::Newline) &&
               !Toks[K].is(PyTok::Eof);
             ++K) {
          PyTok KK = Toks[K].K;
          if (KK == PyTok::LParen || KK == PyTok::LBracket)
            ++Brackets;
          else if ((KK == PyTok::RParen || KK == PyTok::RBracket) && Brackets)
            --Brackets;
          else if (KK == PyTok::Equal && !Brackets) {
            D = literalDefault(Toks, K);
            break;
          }
        }
        Fields.emplace_back(T.Text.str(), D);
      }
      LineStart = false;
    }
  }
}

bool PythonParser::atDataclassDecorator() const {
  if (isIdent("dataclass", 1))
    return true;
  return isIdent("dataclasses", 1) && is(PyTok::Dot, 2) &&
         isIdent("dataclass", 3);
}

namespace {
/// The HIR method and operator trait of a supported dunder method;
/// {"", ""} for any other name.
std::pair<StringRef, StringRef> dunderMethod(StringRef Name) {
  using P = std::pair<StringRef, StringRef>;
  return llvm::StringSwitch<P>(Name)
      .Case("__add__", P("add", "Add"))
      .Case("__sub__", P("sub", "Sub"))
      .Case("__mul__", P("mul", "Mul"))
      .Case("__truediv__", P("div", "Div"))
      .Case("__mod__", P("rem", "Rem"))
      .Case("__neg__", P("neg", "Neg"))
      .Case("__iadd__", P("add_assign", "AddAssign"))
      .Case("__isub__", P("sub_assign", "SubAssign"))
      .Case("__imul__", P("mul_assign", "MulAssign"))
      .Case("__itruediv__", P("div_assign", "DivAssign"))
      .Case("__imod__", P("rem_assign", "RemAssign"))
      .Default(P("", ""));
}

/// Whether \p K is `=` or an augmented assignment.
bool isAssignTok(PyTok K) {
  switch (K) {
  case PyTok::Equal:
  case PyTok::PlusEq:
  case PyTok::MinusEq:
  case PyTok::StarEq:
  case PyTok::SlashEq:
  case PyTok::SlashSlashEq:
  case PyTok::PercentEq:
  case PyTok::AmpEq:
  case PyTok::PipeEq:
  case PyTok::CaretEq:
  case PyTok::LessLessEq:
  case PyTok::GreaterGreaterEq:
    return true;
  default:
    return false;
  }
}
} // namespace

void PythonParser::parseClassDef(hir::Module &M) {
  SMLoc DecoLoc;
  if (is(PyTok::At)) {
    DecoLoc = consume().loc();
    if (isIdent("dataclasses")) {
      consume();
      consume();
    }
    consume(); // 'dataclass'
    if (is(PyTok::LParen)) {
      error(tok().loc(), "'@dataclass' takes no arguments in WAVE kernels");
      consume();
      skipBracketRest();
    }
    if (!is(PyTok::Newline)) {
      error(tok().loc(),
            "expected a newline after the decorator, found " + describe(tok()));
      skipToLineEnd();
    }
    consumeIf(PyTok::Newline);
    if (is(PyTok::At)) {
      error(tok().loc(), "a dataclass takes no other decorator in WAVE "
                         "kernels");
      while (is(PyTok::At)) {
        skipToLineEnd();
        consumeIf(PyTok::Newline);
      }
    }
    if (!isIdent("class")) {
      error(tok().loc(),
            "expected 'class' after '@dataclass', found " + describe(tok()));
      skipStatement();
      return;
    }
  }
  const PyToken &ClassTok = consume(); // 'class'
  if (!isName()) {
    error(tok().loc(),
          "expected a class name after 'class', found " + describe(tok()));
    skipStatement();
    return;
  }
  const PyToken &NameTok = consume();
  if (!DecoLoc.isValid()) {
    error(ClassTok.loc(), "only '@dataclass' classes are supported in WAVE "
                          "kernels; decorate '" +
                              NameTok.Text + "' with '@dataclass'");
    skipStatement();
    return;
  }
  hir::StructDecl *S = M.getStruct(NameTok.Text, NameTok.loc());
  if (S->Defined) {
    error(NameTok.loc(), "redefinition of class '" + NameTok.Text + "'");
    note(S->Loc, "'" + NameTok.Text + "' is first defined here");
    skipStatement();
    return;
  }
  S->Defined = true;
  S->Loc = NameTok.loc();
  if (is(PyTok::LParen)) {
    error(tok().loc(), "class inheritance is not supported in WAVE kernels");
    consume();
    skipBracketRest();
  }
  if (!is(PyTok::Colon)) {
    error(tok().loc(),
          "expected ':' after the class name, found " + describe(tok()));
    skipStatement();
    return;
  }
  consume();
  if (!is(PyTok::Newline) || !is(PyTok::Indent, 1)) {
    error(tok().loc(), "expected an indented class body on the next line");
    skipStatement();
    return;
  }
  consume();
  consume();
  SMLoc FirstDefault; // The first field with a default.
  CurClass = S;
  bool First = true;
  while (!is(PyTok::Dedent) && !is(PyTok::Eof) && !Fatal) {
    if (is(PyTok::Newline)) {
      consume();
      continue;
    }
    if (First && atDocstring()) {
      skipDocstring();
      First = false;
      continue;
    }
    First = false;
    if (isIdent("pass") && (is(PyTok::Newline, 1) || is(PyTok::Eof, 1))) {
      consume();
      continue;
    }
    if (is(PyTok::At) &&
        (isIdent("staticmethod", 1) || isIdent("classmethod", 1))) {
      error(tok(1).loc(), "static and class methods are not supported in "
                          "WAVE kernels; define a function outside the "
                          "class");
      skipToLineEnd();
      consumeIf(PyTok::Newline);
      skipStatement(); // The decorated definition.
      continue;
    }
    if (is(PyTok::At) || isIdent("def")) {
      parseFunctionDef(M);
      continue;
    }
    if (isName() && is(PyTok::Colon, 1)) {
      // A field `name: T` or `name: T = default`.
      const PyToken &Field = consume();
      consume();
      std::optional<PyTypeRef> T = parseType();
      if (!T) {
        skipStatement();
        continue;
      }
      hir::Type Ty = hir::Type::invalid();
      if (T->IsNone || T->IsBuffer)
        error(T->Loc, "a dataclass field is a scalar such as 'f32' or "
                      "another dataclass");
      else if (T->Struct)
        Ty = hir::Type::structType(T->Struct);
      else if (T->Valid)
        Ty = hir::Type::scalar(T->S);
      std::optional<PyFieldDefault> D;
      if (is(PyTok::Equal)) {
        D = literalDefault(Toks, Pos);
        consume();
        if (!D) {
          error(tok().loc(), "the default of a dataclass field is a number "
                             "or True/False in WAVE kernels");
          skipToLineEnd();
        } else {
          skipToLineEnd(); // The literal, checked by literalDefault.
        }
        if (D && !FirstDefault.isValid())
          FirstDefault = Field.loc();
      } else if (FirstDefault.isValid() && !Ty.isInvalid()) {
        error(Field.loc(), "field '" + Field.Text +
                               "' without a default follows a field with "
                               "one");
        note(FirstDefault, "the first field with a default");
      }
      if (!atStmtEnd()) {
        error(tok().loc(),
              "expected a newline after the field, found " + describe(tok()));
        skipToLineEnd();
      }
      consumeIf(PyTok::Semi);
      consumeIf(PyTok::Newline);
      if (!Ty.isInvalid())
        S->Fields.push_back({Field.loc(), Field.Text.str(), Ty});
      continue;
    }
    if (isName() && is(PyTok::Equal, 1))
      error(tok().loc(), "class variables are not supported in WAVE "
                         "kernels; declare a field with a type, e.g. '" +
                             tok().Text + ": f32'");
    else if (isIdent("class"))
      error(tok().loc(), "nested classes are not supported in WAVE kernels");
    else if (!rejectUnsupportedStatement())
      error(tok().loc(), "expected a field ('name: type') or a method "
                         "('def') in the body of dataclass '" +
                             S->Name + "', found " + describe(tok()));
    skipStatement();
  }
  CurClass = nullptr;
  consumeIf(PyTok::Dedent);
  if (S->Fields.empty())
    error(NameTok.loc(), "dataclass '" + S->Name +
                             "' has no fields; WAVE structs hold at least "
                             "one");
}

void PythonParser::finishMethod(hir::FunctionDecl &F, const PyToken &NameTok,
                                size_t BodyBegin, size_t BodyEnd) {
  hir::StructDecl *S = CurClass;
  StringRef Name = NameTok.Text;
  auto [Method, Trait] = dunderMethod(Name);
  if (Name.starts_with("__") && Name.ends_with("__") && Method.empty())
    error(NameTok.loc(), "method '" + Name +
                             "' is not supported in WAVE kernels (the "
                             "operators __add__, __sub__, __mul__, "
                             "__truediv__, __mod__, __neg__ and their "
                             "__i*__ forms are)");
  bool InPlace = Method.ends_with("_assign");
  // `self.f = ...` (or `self.a.b += ...`) in the body: the method changes
  // its receiver, as Python's would, so `self` refers to it. So does a
  // call `self.m(...)` or `self.a.m(...)` of a method m that changes its
  // own (resolved over the module by propagateSelfMutation).
  SelfMethod Info{&F, InPlace, {}};
  for (size_t I = BodyBegin; I + 2 < BodyEnd; ++I) {
    if (!Toks[I].isIdent("self") || !Toks[I + 1].is(PyTok::Dot) ||
        (I > 0 && Toks[I - 1].is(PyTok::Dot)))
      continue;
    size_t J = I + 1;
    while (J + 1 < BodyEnd && Toks[J].is(PyTok::Dot) &&
           Toks[J + 1].is(PyTok::Ident))
      J += 2;
    if (J < BodyEnd && isAssignTok(Toks[J].K))
      Info.Direct = true;
    else if (J < BodyEnd && Toks[J].is(PyTok::LParen))
      Info.Calls.push_back(Toks[J - 1].Text.str());
  }
  if (!F.Params.empty() && F.Params[0].Name == "self")
    SelfMethods.push_back(std::move(Info));
  if (InPlace && F.Body) {
    // `__iadd__` returns self (Python rebinds the target to the result):
    // the HIR method changes its receiver and returns nothing.
    auto &Body = F.Body->Body;
    const auto *R =
        Body.empty() ? nullptr : dyn_cast<hir::ReturnStmt>(Body.back().get());
    const auto *N =
        R && R->Value ? dyn_cast<hir::NameExpr>(R->Value.get()) : nullptr;
    if (!N || N->Name != "self")
      error(NameTok.loc(), "'" + Name +
                               "' must end with 'return self' in WAVE "
                               "kernels");
    else
      Body.pop_back();
    F.ReturnTy = hir::Type::voidType();
  }
  F.Name = S->Name + "::" + (Method.empty() ? Name.str() : Method.str());
  F.Owner = S;
  F.Trait = Trait.str();
}

void PythonParser::propagateSelfMutation() {
  // Methods (by Python name, over every class) that change their receiver.
  llvm::StringMap<bool> Mutating;
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (SelfMethod &M : SelfMethods) {
      bool Mut = M.Direct;
      for (const std::string &C : M.Calls)
        Mut |= Mutating.count(C) != 0;
      if (!Mut || M.F->Params[0].ByRef)
        continue;
      M.F->Params[0].ByRef = true;
      M.F->Params[0].Mutable = true;
      StringRef Name = M.F->Name;
      Mutating[Name.substr(Name.rfind(':') + 1)] = true;
      Changed = true;
    }
  }
}

hir::ExprPtr PythonParser::parseStructCall(const PyToken &Name,
                                           hir::StructDecl *S) {
  const PyToken &Open = consume(); // '('
  const auto &Fields = ClassNames.find(Name.Text)->second;
  auto L = std::make_unique<hir::StructLitExpr>(Name.loc(), S);
  bool SawKeyword = false;
  while (!is(PyTok::RParen)) {
    if (is(PyTok::Star) || is(PyTok::StarStar)) {
      error(tok().loc(), "argument unpacking ('" + tok().Text +
                             "') is not supported in WAVE kernels");
      return nullptr;
    }
    if (isName() && is(PyTok::Equal, 1)) {
      const PyToken &Key = consume();
      consume();
      hir::ExprPtr V = parseExpr();
      if (!V)
        return nullptr;
      L->Inits.push_back({Key.loc(), Key.Text.str(), std::move(V), -1});
      SawKeyword = true;
    } else {
      SMLoc At = tok().loc();
      if (SawKeyword) {
        error(At, "positional argument follows keyword argument");
        return nullptr;
      }
      size_t I = L->Inits.size();
      if (I >= Fields.size()) {
        error(At, "'" + Name.Text + "' takes " + llvm::Twine(Fields.size()) +
                      " field(s); this is argument " + llvm::Twine(I + 1));
        return nullptr;
      }
      hir::ExprPtr V = parseExpr();
      if (!V)
        return nullptr;
      L->Inits.push_back({At, Fields[I].first, std::move(V), -1});
    }
    if (!consumeIf(PyTok::Comma))
      break;
  }
  if (!expectClose(PyTok::RParen, Open,
                   "expected ')' to close the argument list"))
    return nullptr;
  // The fields not given take their defaults, written at the construction.
  for (const auto &[Field, D] : Fields) {
    if (!D)
      continue;
    bool Given = false;
    for (const hir::StructLitExpr::Init &I : L->Inits)
      Given |= I.Name == Field;
    if (Given)
      continue;
    SMLoc At = Name.loc();
    hir::ExprPtr V;
    if (D->IsBool)
      V = std::make_unique<hir::BoolLitExpr>(At, D->BoolValue);
    else if (D->IsFloat)
      V = std::make_unique<hir::FloatLitExpr>(At, D->FloatValue);
    else
      V = std::make_unique<hir::IntLitExpr>(At, D->IntValue);
    if (D->Neg)
      V = std::make_unique<hir::UnaryExpr>(At, hir::UnaryOp::Neg, std::move(V));
    L->Inits.push_back({At, Field, std::move(V), -1});
  }
  return L;
}
