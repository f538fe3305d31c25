//===- TypeScriptClass.cpp - TypeScript dialect: classes and decorators ---===//
//
// Classes of the TypeScript dialect (formats/kernel-languages.md §12,
// "Classes of static methods"). TypeScript allows decorators on classes and
// their members only, so a decorated kernel is a static method:
//
//   class Blas {
//     @kernel({ workgroupSize: [64, 1, 1] })
//     static axpy(x: Float32Array, y: Float32Array, n: u32): void { ... }
//     static scale(v: f32): f32 { ... }      // a device function
//   }
//
// A class is a namespace of static methods: `@kernel` (also `@kernel()`,
// `@wave.kernel`) makes one a kernel, every other static method is a
// device function called as `Blas.scale(x)`. A method keeps its own name in
// HIR and MIR (a kernel is launched by that name), so the functions of all
// classes and of the top level share one namespace; a clash is Sema's
// "redefinition" error. Everything else a class may hold (fields,
// instance methods, constructors, accessors, static blocks) and decorators
// anywhere but on a static method are rejected, one located error each.
// A class with instance fields or a constructor and no static member or
// decorator is a class of plain data instead (TypeScriptStruct.cpp); one
// class is never both.
//
// A class may be used before it is declared, so calls are resolved once the
// whole file is read: `K.f(...)` must name a static method of class K, and
// a plain `f(...)` must not name a static method (in TypeScript a static
// method is not in scope by its plain name, not even in its own class).
//
//===----------------------------------------------------------------------===//
#include "TypeScriptParser.h"

#include "wave/Frontend/NumberLiteral.h"

using namespace wave;
using namespace wave::fe;

/// Words TypeScript allows before the name of a class member.
static bool isModifierWord(llvm::StringRef W) {
  return llvm::is_contained({"static", "public", "private", "protected",
                             "readonly", "abstract", "override", "declare",
                             "async", "accessor"},
                            W);
}

/// Whether \p T may follow a modifier in a member head (so that the
/// modifier word is not itself the member's name, as in `static() {}`).
static bool continuesMemberHead(const TSToken &T) {
  return T.is(TSTok::Ident) || T.is(TSTok::String) || T.is(TSTok::Number) ||
         T.is("[") || T.is("#") || T.is("*") || T.is("{");
}

bool TSParser::isMemberStart(const TSToken &T) const {
  return T.is("@") || (T.is(TSTok::Ident) &&
                       (isModifierWord(T.Text) || T.Text == "constructor" ||
                        T.Text == "get" || T.Text == "set"));
}

std::vector<size_t> TSParser::skipDecorators(bool *IsKernel) {
  std::vector<size_t> At;
  while (is("@")) {
    At.push_back(Pos);
    consume();
    // `@a.b.c(args)`.
    llvm::StringRef Last;
    while (tok().is(TSTok::Ident)) {
      Last = consume().Text;
      if (!consumeIf("."))
        break;
    }
    if (IsKernel && Last == "kernel")
      *IsKernel = true;
    if (is("("))
      skipBalanced();
  }
  return At;
}

void TSParser::parseClass() {
  consume(); // class
  const TSToken &N = tok();
  if (!N.is(TSTok::Ident)) {
    error(N.loc(), "expected a class name after 'class', found " + describe(N));
    skipTopLevel();
    return;
  }
  TSToken Name = consume();
  if (isQualifier(Name.Text))
    error(Name.loc(), "a class named '" + Name.Text + "' would hide the '" +
                          Name.Text +
                          ".' qualifier of intrinsic calls; "
                          "rename the class");
  auto [It, New] = Classes.try_emplace(Name.Text);
  if (New) {
    It->second.Loc = Name.loc();
  } else {
    error(Name.loc(), "redefinition of class '" + Name.Text + "'");
    note(It->second.Loc, "'" + Name.Text + "' is first defined here");
  }
  if (is("<")) {
    error(tok().loc(), "generic classes are not supported in WAVE kernels");
    while (!atEof() && !is("{") && !isIdent("extends") &&
           !isIdent("implements"))
      consume();
  }
  bool Plain = PlainClasses.contains(Name.Text);
  if (isIdent("extends") || isIdent("implements")) {
    error(tok().loc(), "'" + tok().Text +
                           (Plain ? "' is not supported in WAVE kernels: a "
                                    "class of plain data has no base"
                                  : "' is not supported in WAVE kernels: a "
                                    "class is a namespace of static "
                                    "methods"));
    while (!atEof() && !is("{") && !is(";"))
      consume();
  }
  if (!is("{")) {
    error(tok().loc(), "expected '{' to begin the body of class '" + Name.Text +
                           "', found " + describe(tok()));
    skipTopLevel();
    return;
  }
  if (Plain) {
    parsePlainClass(Name);
    return;
  }
  TSToken Open = consume();
  CurClass = Name.Text.str();
  while (!is("}") && !atEof()) {
    size_t Start = Pos;
    parseClassMember();
    // Every member consumes something, so that the loop ends.
    if (Pos == Start && !is("}") && !atEof())
      consume();
  }
  CurClass.clear();
  if (!consumeIf("}") && !Fatal) {
    error(tok().loc(), "expected '}' at the end of class '" + Name.Text +
                           "', found " + describe(tok()));
    note(Open.loc(), "to match this '{'");
  }
}

void TSParser::parseClassMember() {
  if (consumeIf(";"))
    return;
  const TSToken &First = tok();
  if (!First.KernelComment.empty() || First.ExportComment.isValid())
    error(First.KernelComment.empty()
              ? First.ExportComment
              : llvm::SMLoc::getFromPointer(First.KernelComment.data()),
          "'// @kernel' and '// @export' comments mark top-level functions; "
          "in a class, decorate a static method with '@kernel'");
  std::vector<size_t> Decorators = skipDecorators();

  bool Static = false;
  while (tok().is(TSTok::Ident) && isModifierWord(tok().Text) &&
         continuesMemberHead(tok(1))) {
    TSToken Mod = consume();
    if (Mod.Text == "static")
      Static = true;
    else if (llvm::is_contained(
                 {"async", "abstract", "override", "declare", "accessor"},
                 Mod.Text))
      error(Mod.loc(),
            "'" + Mod.Text + "' members are not supported in WAVE kernels");
    // `public`, `private`, `protected` only restrict TypeScript's checking;
    // `readonly` goes with fields, rejected below.
  }
  if (Static && is("{")) {
    error(Toks[Pos - 1].loc(),
          "static blocks are not supported in WAVE kernels");
    skipBalanced();
    return;
  }

  // What the member is, for the error that rejects it (empty: a static
  // method, which is accepted).
  std::string Desc, Why;
  TSToken Name = tok();
  if (is("*")) {
    error(tok().loc(), "generator methods are not supported in WAVE kernels");
    consume();
    Name = tok();
  }
  bool Accessor = (isIdent("get") || isIdent("set")) &&
                  continuesMemberHead(tok(1)) && !is("{", 1) && !is("*", 1);
  if (Accessor) {
    TSToken Kw = consume();
    Name = tok();
    Desc = "accessor '" + Name.Text.str() + "'";
    Why =
        "accessors ('" + Kw.Text.str() + "') are not supported in WAVE kernels";
  } else if (is("[") || is("#") || Name.is(TSTok::String) ||
             Name.is(TSTok::Number)) {
    const char *Msg =
        is("[")   ? "index signatures and computed member names are not "
                    "supported in WAVE kernels"
        : is("#") ? "private names are not supported in WAVE kernels"
                  : "quoted and numeric member names are not supported in "
                    "WAVE kernels";
    error(tok().loc(), Msg);
    skipTopLevel();
    return;
  } else if (!Name.is(TSTok::Ident)) {
    error(Name.loc(), "expected a class member, found " + describe(Name));
    skipTopLevel();
    return;
  }
  if (!Accessor) {
    consume(); // the name
    if (is("?")) {
      error(tok().loc(), "optional members are not supported in WAVE kernels");
      consume();
    }
    bool Method = is("(") || is("<");
    if (Method && Name.Text == "constructor") {
      Desc = "a constructor";
      Why = "constructors are not supported in WAVE kernels: a class holds "
            "static methods only (a class with static members or "
            "decorators is not a class of plain data)";
    } else if (Method && !Static) {
      Desc = "instance method '" + Name.Text.str() + "'";
      Why = "instance methods are not supported in WAVE kernels; make '" +
            Name.Text.str() +
            "' static (a class with static members or decorators is not a "
            "class of plain data)";
    } else if (!Method) {
      Desc = "field '" + Name.Text.str() + "'";
      Why = std::string(Static ? "static fields" : "fields") +
            " are not supported in WAVE kernels: a class holds static "
            "methods only (a class with static members or decorators is "
            "not a class of plain data)";
    }
  }
  if (!Desc.empty()) {
    // One error per bad decorator, else one for the member.
    for (size_t At : Decorators)
      error(Toks[At].loc(), "decorators are supported on static methods only "
                            "in WAVE kernels, not on " +
                                Desc);
    if (Decorators.empty())
      error(Name.loc(), Why);
    skipTopLevel();
    return;
  }

  // A static method: its decorators, then the function.
  bool IsKernel = false;
  std::optional<std::array<uint32_t, 3>> WG;
  for (size_t At : Decorators)
    parseMethodDecorator(At, IsKernel, WG);
  ClassInfo &C = Classes[CurClass];
  C.Methods.try_emplace(Name.Text, Name.loc());
  MethodClass.try_emplace(Name.Text, CurClass);
  parseFunctionRest(Name.loc(), Name, IsKernel, WG, llvm::SMLoc(),
                    /*Declaration=*/false);
}

void TSParser::parseMethodDecorator(
    size_t At, bool &IsKernel, std::optional<std::array<uint32_t, 3>> &WGSize) {
  size_t Saved = Pos;
  Pos = At;
  TSToken Sign = consume(); // @
  std::string Name;
  while (tok().is(TSTok::Ident)) {
    Name += consume().Text;
    if (!is("."))
      break;
    consume();
    Name += '.';
  }
  bool Kernel = Name == "kernel" || Name == "wave.kernel" ||
                (!WaveAlias.empty() && Name == WaveAlias + ".kernel");
  if (Name.empty()) {
    error(tok().loc(),
          "expected a decorator name after '@', found " + describe(tok()));
  } else if (!Kernel) {
    error(Sign.loc(), "unknown decorator '@" + Name +
                          "': WAVE kernels know only '@kernel'");
  } else if (IsKernel) {
    error(Sign.loc(), "duplicate '@kernel' decorator");
  } else {
    IsKernel = true;
    if (is("(")) {
      TSToken Open = consume();
      if (!consumeIf(")") && parseDecoratorOptions(WGSize) && !consumeIf(")")) {
        error(tok().loc(), "expected ')' to close the arguments of "
                           "'@kernel', found " +
                               describe(tok()));
        note(Open.loc(), "to match this '('");
      }
    }
  }
  Pos = Saved;
}

bool TSParser::parseDecoratorOptions(
    std::optional<std::array<uint32_t, 3>> &WGSize) {
  if (!is("{")) {
    error(tok().loc(), "expected '{ workgroupSize: [x, y, z] }' as the "
                       "argument of '@kernel', found " +
                           describe(tok()));
    return false;
  }
  TSToken Open = consume();
  bool Seen = false;
  while (!is("}")) {
    const TSToken &K = tok();
    if (!K.is(TSTok::Ident)) {
      error(K.loc(), "expected 'workgroupSize' in the options of '@kernel', "
                     "found " +
                         describe(K));
      return false;
    }
    if (K.Text != "workgroupSize") {
      error(K.loc(), "unknown option '" + K.Text +
                         "' of '@kernel': the only option is "
                         "'workgroupSize'");
      return false;
    }
    if (Seen) {
      error(K.loc(), "duplicate option 'workgroupSize'");
      return false;
    }
    Seen = true;
    consume();
    if (!expect(":", "after 'workgroupSize'"))
      return false;
    TSToken LBr = tok();
    if (!expect("[", "to begin the workgroup size (an array of 1 to 3 "
                     "integers)"))
      return false;
    std::array<uint32_t, 3> Dims = {1, 1, 1};
    unsigned N = 0;
    bool Ok = true;
    while (!is("]")) {
      const TSToken &V = tok();
      if (!V.is(TSTok::Number)) {
        error(V.loc(),
              "expected an integer workgroup size, found " + describe(V));
        return false;
      }
      NumberLiteral L = scanNumber(V.Text, DigitSeparator::Underscore,
                                   /*CLegacyOctal=*/false);
      if (L.IsFloat || !L.Suffix.empty() || !L.Error.empty() || L.Overflow ||
          L.IntValue < 1 || L.IntValue > 1024) {
        error(V.loc(), "workgroup size '" + V.Text +
                           "' must be an integer from 1 to 1024");
        Ok = false;
      } else if (N < 3) {
        Dims[N] = static_cast<uint32_t>(L.IntValue);
      }
      if (++N == 4) {
        error(V.loc(), "workgroupSize takes at most 3 values");
        return false;
      }
      consume();
      if (!consumeIf(","))
        break;
    }
    if (!is("]")) {
      error(tok().loc(),
            "expected ',' or ']' in 'workgroupSize', found " + describe(tok()));
      note(LBr.loc(), "to match this '['");
      return false;
    }
    consume();
    if (N == 0) {
      error(LBr.loc(), "workgroupSize takes 1 to 3 values");
      return false;
    }
    if (!Ok)
      return false;
    WGSize = Dims;
    if (!consumeIf(","))
      break;
  }
  if (!is("}")) {
    error(tok().loc(), "expected '}' to close the options of '@kernel', "
                       "found " +
                           describe(tok()));
    note(Open.loc(), "to match this '{'");
    return false;
  }
  consume();
  return true;
}

void TSParser::resolveClassCalls() {
  for (const QualifiedCall &C : QualifiedCalls) {
    auto It = Classes.find(C.Class);
    if (It == Classes.end()) {
      error(C.DotLoc, "property access is not supported in WAVE kernels; "
                      "only calls qualified with 'Math.', 'wave.' or the "
                      "name of a class of this file are");
      continue;
    }
    if (!It->second.Methods.count(C.Method)) {
      error(C.MethodLoc,
            "class '" + C.Class + "' has no static method '" + C.Method + "'");
      note(It->second.Loc, "'" + C.Class + "' is declared here");
    }
  }
  for (const PlainCall &C : PlainCalls) {
    auto It = MethodClass.find(C.Name);
    if (It == MethodClass.end() || TopLevelFunctions.contains(C.Name))
      continue;
    error(C.Loc, "'" + C.Name + "' is a static method of class '" + It->second +
                     "'; call it as '" + It->second + "." + C.Name + "(...)'");
  }
}
