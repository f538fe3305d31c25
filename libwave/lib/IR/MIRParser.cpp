//===- MIRParser.cpp - MIR text parser ------------------------------------===//
//
// A hand-written lexer and recursive-descent parser for formats/mir.md. The
// per-Shape rules mirror printInstruction in MIRPrinter.cpp. Forward
// references to values become Placeholders of the expected type, replaced
// when the definition is seen; block references create the block, which is
// moved into text order when its label appears; calls to functions defined
// later are resolved at the end of the module.
//
//===----------------------------------------------------------------------===//
#include "wave/IR/MIRParser.h"
#include "wave/Support/SourceDiagnostic.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/ConvertUTF.h"

using namespace llvm;

namespace wave::mir {

namespace {

//===----------------------------------------------------------------------===//
// Lexer
//===----------------------------------------------------------------------===//

enum class Tok {
  Eof,
  Error,
  Ident,    // bare word: keywords, opcodes, types (incl. ptr<...>)
  Number,   // -?[0-9][0-9A-Za-z.+-]*
  ValueRef, // %name
  BlockRef, // ^name
  FuncRef,  // @name
  LParen,
  RParen,
  LBrace,
  RBrace,
  LBracket,
  RBracket,
  Comma,
  Equal,
  Colon,
  Arrow,
  String,   // "..." (source_filename)
  Bang,     // !name (instruction metadata: !loc)
};

struct Token {
  Tok Kind = Tok::Eof;
  StringRef Text;         // full spelling
  bool LineStart = false; // first token on its line
  SMLoc loc() const { return SMLoc::getFromPointer(Text.data()); }
  /// Name after the sigil of a reference token.
  StringRef name() const { return Text.drop_front(1); }
};

/// Parses a decimal or 0x-hexadecimal integer (no octal: "010" is ten).
static bool parseInteger(StringRef S, uint64_t &V) {
  if (S.starts_with("0x") || S.starts_with("0X"))
    return !S.drop_front(2).getAsInteger(16, V);
  return !S.getAsInteger(10, V);
}

static bool isNameChar(char C) { return isAlnum(C) || C == '_' || C == '.'; }

class Lexer {
public:
  explicit Lexer(StringRef Buf) : Cur(Buf.begin()), End(Buf.end()) {}

  Token next() {
    bool SawNewline = AtStart;
    AtStart = false;
    for (;;) {
      if (Cur == End)
        return make(Tok::Eof, Cur, Cur, true);
      char C = *Cur;
      if (C == '\n') {
        SawNewline = true;
        ++Cur;
      } else if (C == ' ' || C == '\t' || C == '\r' || C == '\f' || C == '\v') {
        ++Cur;
      } else if (C == ';') {
        while (Cur != End && *Cur != '\n')
          ++Cur;
      } else {
        break;
      }
    }
    const char *Start = Cur;
    char C = *Cur++;
    switch (C) {
    case '(':
      return make(Tok::LParen, Start, Cur, SawNewline);
    case ')':
      return make(Tok::RParen, Start, Cur, SawNewline);
    case '{':
      return make(Tok::LBrace, Start, Cur, SawNewline);
    case '}':
      return make(Tok::RBrace, Start, Cur, SawNewline);
    case '[':
      return make(Tok::LBracket, Start, Cur, SawNewline);
    case ']':
      return make(Tok::RBracket, Start, Cur, SawNewline);
    case ',':
      return make(Tok::Comma, Start, Cur, SawNewline);
    case '=':
      return make(Tok::Equal, Start, Cur, SawNewline);
    case ':':
      return make(Tok::Colon, Start, Cur, SawNewline);
    case '"':
      // A string ends at the next unescaped quote on the same line; a
      // backslash escapes the next character (\" and \\ only, checked by
      // the parser).
      while (Cur != End && *Cur != '"' && *Cur != '\n') {
        if (*Cur == '\\' && Cur + 1 != End && Cur[1] != '\n')
          ++Cur;
        ++Cur;
      }
      if (Cur == End || *Cur != '"')
        return make(Tok::Error, Start, Cur, SawNewline);
      ++Cur;
      return make(Tok::String, Start, Cur, SawNewline);
    case '!':
      while (Cur != End && (isAlnum(*Cur) || *Cur == '_'))
        ++Cur;
      if (Cur - Start == 1)
        return make(Tok::Error, Start, Cur, SawNewline);
      return make(Tok::Bang, Start, Cur, SawNewline);
    case '%':
    case '^':
    case '@': {
      while (Cur != End && isNameChar(*Cur))
        ++Cur;
      Tok K = C == '%'   ? Tok::ValueRef
              : C == '^' ? Tok::BlockRef
                         : Tok::FuncRef;
      if (Cur - Start == 1)
        return make(Tok::Error, Start, Cur, SawNewline);
      return make(K, Start, Cur, SawNewline);
    }
    case '-':
      if (Cur != End && *Cur == '>') {
        ++Cur;
        return make(Tok::Arrow, Start, Cur, SawNewline);
      }
      if (Cur == End || !isDigit(*Cur))
        return make(Tok::Error, Start, Cur, SawNewline);
      [[fallthrough]];
    default:
      if (isDigit(C) || C == '-') {
        while (Cur != End && (isAlnum(*Cur) || *Cur == '.' ||
                              ((*Cur == '+' || *Cur == '-') &&
                               (Cur[-1] == 'e' || Cur[-1] == 'E'))))
          ++Cur;
        return make(Tok::Number, Start, Cur, SawNewline);
      }
      if (isAlpha(C) || C == '_') {
        while (Cur != End && (isAlnum(*Cur) || *Cur == '_'))
          ++Cur;
        // ptr<device>, ptr<local>, ptr<private>: one token.
        if (StringRef(Start, Cur - Start) == "ptr" && Cur != End &&
            *Cur == '<') {
          const char *P = Cur + 1;
          while (P != End && isAlpha(*P))
            ++P;
          if (P != End && *P == '>')
            Cur = P + 1;
        }
        return make(Tok::Ident, Start, Cur, SawNewline);
      }
      return make(Tok::Error, Start, Cur, SawNewline);
    }
  }

private:
  Token make(Tok K, const char *B, const char *E, bool NL) {
    Token T;
    T.Kind = K;
    T.Text = StringRef(B, E - B);
    T.LineStart = NL;
    return T;
  }

  const char *Cur, *End;
  bool AtStart = true;
};

//===----------------------------------------------------------------------===//
// Parser
//===----------------------------------------------------------------------===//

/// Thrown-free failure marker: a diagnostic has been recorded.
struct Failed {};

class Parser {
public:
  Parser(SourceMgr &SM, unsigned BufferID)
      : SM(SM), Lex(SM.getMemoryBuffer(BufferID)->getBuffer()) {
    consume();
  }

  Expected<std::unique_ptr<Module>> run();

private:
  // Token stream.
  void consume() { T = Lex.next(); }
  bool is(Tok K) const { return T.Kind == K; }
  bool isIdent(StringRef S) const {
    return T.Kind == Tok::Ident && T.Text == S;
  }

  // Diagnostics. Each returns false so callers can `return error(...)`.
  bool error(SMLoc L, const Twine &Msg) {
    if (Diags.size() < MaxErrors)
      Diags.push_back(std::make_unique<SourceDiagError>(L, Msg.str()));
    ++NumErrors;
    return false;
  }
  void note(SMLoc L, const Twine &Msg) {
    if (Diags.size() < MaxErrors)
      Diags.push_back(
          std::make_unique<SourceDiagError>(L, Msg.str(), SourceMgr::DK_Note));
  }
  bool expected(StringRef What) {
    return error(T.loc(), "expected " + What + ", found " + describe(T));
  }
  static std::string describe(const Token &Tk) {
    if (Tk.Kind == Tok::Eof)
      return "end of file";
    return ("'" + Tk.Text + "'").str();
  }
  bool expect(Tok K, StringRef What) {
    if (!is(K))
      return expected(What);
    consume();
    return true;
  }
  bool tooManyErrors() const { return NumErrors >= MaxErrors; }

  /// Whether the current token starts a top-level item (`kernel`, `func`,
  /// `export`, `declare`, `source_filename`) at the start of a line: where
  /// error recovery resumes.
  bool atFunctionStart() const {
    return T.LineStart && (isIdent("kernel") || isIdent("func") ||
                           isIdent("export") || isIdent("declare") ||
                           isIdent("source_filename"));
  }

  // Grammar.
  bool parseSourceFilename();
  bool parseFunction(Function::Linkage Link);
  /// Parameter attributes of formats/mir.md "Parameter attributes".
  struct ParamAttrs {
    std::optional<Type> ElemType;
    bool ReadOnly = false, WriteOnly = false;
  };
  bool parseParamAttrs(ParamAttrs &A);
  bool parseDebugLoc(Instruction &I);
  bool parseFunctionBody(Function &F);
  bool parseBlock(Function &F);
  bool parseInstruction(BasicBlock &BB);
  bool parseType(Type &Ty, StringRef What = "a type");
  bool parseUInt(uint64_t &V, uint64_t Max, StringRef What);
  bool parseOperand(Type Ty, Value *&V);
  bool parseConstant(Type Ty, Constant *&C);
  bool parseBlockRef(BasicBlock *&BB);
  bool parseScope(Scope &S);
  void skipLine();
  void defineValue(Value *V, StringRef Name, SMLoc L);
  void finishFunction(Function &F);

  SourceMgr &SM;
  Lexer Lex;
  Token T;
  std::vector<std::unique_ptr<SourceDiagError>> Diags;
  unsigned NumErrors = 0;
  static constexpr unsigned MaxErrors = 20;

  std::unique_ptr<Module> M;
  bool SawSourceFilename = false;
  struct CallFixup {
    Instruction *I;
    std::string Name;
    SMLoc Loc;
  };
  std::vector<CallFixup> Calls;

  // Per-function state.
  Function *F = nullptr;
  StringMap<Value *> Values;
  struct Forward {
    std::unique_ptr<Placeholder> P;
    SMLoc Loc;
  };
  StringMap<Forward> Forwards;
  StringSet<> Poisoned; // names whose definition had an error
  struct BlockInfo {
    BasicBlock *BB;
    bool Defined;
    SMLoc FirstUse;
  };
  StringMap<BlockInfo> BlocksByName;
  std::vector<BasicBlock *> BlockOrder;
  /// Placeholders that could not be resolved; destroyed after the module.
  std::vector<std::unique_ptr<Placeholder>> Leftovers;
};

bool Parser::parseType(Type &Ty, StringRef What) {
  if (!is(Tok::Ident))
    return expected(What);
  auto P = parseTypeName(T.Text);
  if (!P)
    return error(T.loc(), "unknown type '" + T.Text + "'");
  Ty = *P;
  consume();
  return true;
}

bool Parser::parseUInt(uint64_t &V, uint64_t Max, StringRef What) {
  if (!is(Tok::Number))
    return expected(What);
  if (!parseInteger(T.Text, V) || V > Max)
    return error(T.loc(), "expected " + What + " in 0.." + Twine(Max) +
                              ", found '" + T.Text + "'");
  consume();
  return true;
}

bool Parser::parseScope(Scope &S) {
  if (!is(Tok::Ident))
    return expected("a scope (wave, workgroup, device, system)");
  auto P = mir::parseScope(T.Text);
  if (!P)
    return error(T.loc(), "unknown scope '" + T.Text +
                              "'; expected wave, workgroup, device or system");
  S = *P;
  consume();
  return true;
}

bool Parser::parseConstant(Type Ty, Constant *&C) {
  SMLoc L = T.loc();
  StringRef S = T.Text;
  if (Ty == Type::I1) {
    if (!is(Tok::Ident) || (S != "true" && S != "false"))
      return error(L, "expected 'true' or 'false' for an i1 constant, found " +
                          describe(T));
    C = F->constant(Ty, S == "true");
    consume();
    return true;
  }
  if (!is(Tok::Number))
    return expected(("a value of type '" + typeName(Ty) + "'").str());
  uint64_t Bits = 0;
  unsigned Width = typeBits(Ty);
  auto Bad = [&]() {
    return error(L, "invalid " + typeName(Ty) + " constant '" + S + "'");
  };
  if (const fltSemantics *Sem = getFloatSemantics(Ty)) {
    if (S.starts_with("0x") || S.starts_with("0X")) {
      if (S.drop_front(2).getAsInteger(16, Bits) ||
          (Width < 64 && Bits >> Width))
        return Bad();
    } else {
      APFloat Fl(*Sem);
      auto St = Fl.convertFromString(S, APFloat::rmNearestTiesToEven);
      if (!St) {
        consumeError(St.takeError());
        return Bad();
      }
      Bits = Fl.bitcastToAPInt().getZExtValue();
    }
  } else if (Ty == Type::V2F16 || Ty == Type::V2BF16) {
    if (!(S.starts_with("0x") || S.starts_with("0X")) ||
        S.drop_front(2).getAsInteger(16, Bits) || Bits >> 32)
      return error(L, "a " + typeName(Ty) +
                          " constant is written as 0x followed by its 32 bits");
  } else {
    // i32, u32, pointers: 32-bit integers; i32 also takes negative values.
    bool Neg = S.starts_with("-");
    if (Neg && Ty != Type::I32)
      return error(L, "negative constant '" + S + "' for unsigned type '" +
                          typeName(Ty) + "'");
    if (!parseInteger(S.drop_front(Neg), Bits))
      return Bad();
    if (Neg ? Bits > (uint64_t(1) << 31) : Bits > 0xFFFFFFFFull)
      return error(L, "constant '" + S + "' does not fit in " + typeName(Ty));
    if (Neg)
      Bits = uint32_t(-int64_t(Bits));
  }
  C = F->constant(Ty, Bits);
  consume();
  return true;
}

bool Parser::parseOperand(Type Ty, Value *&V) {
  if (!is(Tok::ValueRef)) {
    Constant *C;
    if (!parseConstant(Ty, C))
      return false;
    V = C;
    return true;
  }
  StringRef Name = T.name();
  SMLoc L = T.loc();
  consume();
  if (Value *Def = Values.lookup(Name)) {
    if (Def->type() != Ty)
      return error(L, "'%" + Name + "' has type '" + typeName(Def->type()) +
                          "', expected '" + typeName(Ty) + "'");
    V = Def;
    return true;
  }
  auto It = Forwards.find(Name);
  if (It != Forwards.end()) {
    if (It->second.P->type() != Ty)
      return error(L, "'%" + Name + "' is used with type '" + typeName(Ty) +
                          "' here but with type '" +
                          typeName(It->second.P->type()) + "' before");
    V = It->second.P.get();
    return true;
  }
  auto &Fw = Forwards[Name];
  Fw.P = std::make_unique<Placeholder>(Ty, L);
  Fw.Loc = L;
  V = Fw.P.get();
  return true;
}

bool Parser::parseBlockRef(BasicBlock *&BB) {
  if (!is(Tok::BlockRef))
    return expected("a block label '^name'");
  StringRef Name = T.name();
  auto It = BlocksByName.find(Name);
  if (It == BlocksByName.end()) {
    BasicBlock *New = F->addBlock(Name);
    It = BlocksByName.insert({Name, BlockInfo{New, false, T.loc()}}).first;
  }
  BB = It->second.BB;
  consume();
  return true;
}

void Parser::defineValue(Value *V, StringRef Name, SMLoc L) {
  if (Name.empty())
    return;
  if (Value *Old = Values.lookup(Name)) {
    error(L, "redefinition of '%" + Name + "'");
    if (auto *OldI = dyn_cast<Instruction>(Old); OldI && OldI->loc().isValid())
      note(OldI->loc(), "previous definition is here");
    return;
  }
  Values[Name] = V;
  V->setName(Name);
  auto It = Forwards.find(Name);
  if (It == Forwards.end())
    return;
  Placeholder *P = It->second.P.get();
  if (P->type() != V->type()) {
    error(It->second.Loc, "'%" + Name + "' is defined with type '" +
                              typeName(V->type()) + "' but used as '" +
                              typeName(P->type()) + "'");
    note(L, "defined here");
    // Keep the placeholder until the function is destroyed: its users stay
    // consistent, and the module is discarded anyway.
    Leftovers.push_back(std::move(It->second.P));
    Forwards.erase(It);
    return;
  }
  P->replaceAllUsesWith(V);
  Forwards.erase(It);
}

void Parser::skipLine() {
  do
    consume();
  while (!is(Tok::Eof) && !T.LineStart);
}

bool Parser::parseInstruction(BasicBlock &BB) {
  SMLoc Start = T.loc();
  StringRef ResultName;
  SMLoc ResultLoc;
  if (is(Tok::ValueRef)) {
    ResultName = T.name();
    ResultLoc = T.loc();
    consume();
    if (!is(Tok::Equal)) {
      Poisoned.insert(ResultName);
      return expected("'='");
    }
    consume();
  }
  Instruction *Current = nullptr;
  auto Fail = [&]() {
    if (!ResultName.empty())
      Poisoned.insert(ResultName);
    if (Current)
      llvm::erase_if(Calls, [&](const CallFixup &C) { return C.I == Current; });
    return false;
  };
  if (!is(Tok::Ident)) {
    expected("an instruction");
    return Fail();
  }
  SMLoc OpLoc = T.loc();
  auto OpOr = lookupOpcode(T.Text);
  if (!OpOr) {
    error(OpLoc, "unknown instruction '" + T.Text + "'");
    return Fail();
  }
  Opcode Op = *OpOr;
  const OpDesc &D = opDesc(Op);
  consume();

  // The type parameter T, checked against the row's type set.
  auto TypeParam = [&](Type &Ty) {
    SMLoc L = T.loc();
    if (!parseType(Ty))
      return false;
    if (!(D.Types & typeBit(Ty)))
      return error(L, "'" + Twine(D.Name) + "' does not take type '" +
                          typeName(Ty) + "'");
    return true;
  };
  auto PtrType = [&](Type &Ty) {
    SMLoc L = T.loc();
    if (!parseType(Ty, "a pointer type"))
      return false;
    if (!isPtrType(Ty))
      return error(L, "expected a pointer type, found '" + typeName(Ty) + "'");
    return true;
  };
  auto Comma = [&]() { return expect(Tok::Comma, "','"); };

  auto I = Instruction::create(Op, Type::Void);
  I->setLoc(Start);
  Current = I.get();
  Type Ty = Type::Void;
  Value *V = nullptr;
  // Parses N operands of type OpTy separated by commas.
  auto Operands = [&](unsigned N, Type OpTy) {
    for (unsigned K = 0; K < N; ++K) {
      if (K && !Comma())
        return false;
      if (!parseOperand(OpTy, V))
        return false;
      I->addOperand(V);
    }
    return true;
  };
  auto Frag = [&]() {
    uint64_t N;
    if (!parseUInt(N, 255, "an MMA fragment id"))
      return false;
    I->addImm(N);
    return true;
  };

  bool Ok = true;
  switch (D.Shp) {
  case Shape::Un:
  case Shape::Bin:
  case Shape::Tern:
  case Shape::Quat: {
    unsigned N = elementwiseArity(D.Shp);
    Ok = TypeParam(Ty) && Operands(N, Ty);
    break;
  }
  case Shape::PtrOff:
    Ok = TypeParam(Ty) && Operands(1, Ty) && Comma() && Operands(1, Type::U32);
    break;
  case Shape::Shuffle:
    Ok = TypeParam(Ty) && Operands(1, Ty) && Comma() && Operands(1, Type::U32);
    break;
  case Shape::Cmp: {
    if (!is(Tok::Ident)) {
      Ok = expected("a comparison predicate");
      break;
    }
    auto P = parseCmpPred(T.Text);
    if (!P) {
      Ok = error(T.loc(), "unknown comparison predicate '" + T.Text + "'");
      break;
    }
    if (Op == Opcode::ICmp && (*P == CmpPred::Ord || *P == CmpPred::Unord)) {
      Ok = error(T.loc(), "'" + T.Text + "' is an fcmp predicate only");
      break;
    }
    I->addImm(unsigned(*P));
    consume();
    Type OpTy;
    Ok = TypeParam(OpTy) && Operands(2, OpTy);
    I->setAuxType(OpTy);
    Ty = Type::I1;
    break;
  }
  case Shape::Select:
    Ok = TypeParam(Ty) && Operands(1, Type::I1) && Comma() && Operands(2, Ty);
    break;
  case Shape::Cvt: {
    Type From;
    if (!parseType(From, "the source type") || !Operands(1, From)) {
      Ok = false;
      break;
    }
    if (!isIdent("to")) {
      Ok = expected("'to'");
      break;
    }
    consume();
    SMLoc L = T.loc();
    if (!parseType(Ty, "the result type")) {
      Ok = false;
      break;
    }
    bool Valid =
        Op == Opcode::Cvt ? isValidCvt(From, Ty) : isValidBitcast(From, Ty);
    if (!Valid)
      Ok = error(L, "cannot " + Twine(D.Name) + " '" + typeName(From) +
                        "' to '" + typeName(Ty) + "'");
    I->setAuxType(From);
    break;
  }
  case Shape::Load: {
    Type P = Type::Void;
    Ok = TypeParam(Ty) && Comma() && PtrType(P) && Operands(1, P);
    I->setAuxType(P);
    break;
  }
  case Shape::Store: {
    Type ValTy = Type::Void, P = Type::Void;
    Ok = TypeParam(ValTy) && Operands(1, ValTy) && Comma() && PtrType(P) &&
         Operands(1, P);
    I->setAuxType(P);
    break;
  }
  case Shape::Alloca: {
    Type Slot = Type::Void;
    Ok = TypeParam(Slot);
    I->setAuxType(Slot);
    Ty = Type::PtrPrivate;
    break;
  }
  case Shape::Atomic:
  case Shape::AtomicCas: {
    Scope S;
    Type P = Type::Void;
    Ok = parseScope(S) && TypeParam(Ty) && Comma() && PtrType(P) &&
         Operands(1, P) && Comma() &&
         Operands(D.Shp == Shape::Atomic ? 1 : 2, Ty);
    I->addImm(unsigned(S));
    I->setAuxType(P);
    break;
  }
  case Shape::Ballot:
    Ok = Operands(1, Type::I1);
    Ty = Type::U32;
    break;
  case Shape::PredUn:
    Ok = Operands(1, Type::I1);
    Ty = Type::I1;
    break;
  case Shape::Nullary:
    break;
  case Shape::Fence: {
    Scope S;
    Ok = parseScope(S);
    I->addImm(unsigned(S));
    break;
  }
  case Shape::SReg: {
    if (!is(Tok::Ident)) {
      Ok = expected("a special register name");
      break;
    }
    auto R = parseSpecialReg(T.Text);
    if (!R) {
      Ok = error(T.loc(), "unknown special register '" + T.Text + "'");
      break;
    }
    I->addImm(*R);
    consume();
    Ty = Type::U32;
    break;
  }
  case Shape::MmaLoad: {
    Type P = Type::Void;
    SMLoc L;
    Ok = Frag() && Comma() && (L = T.loc(), PtrType(P));
    if (Ok && P != Type::PtrLocal)
      Ok = error(L, "MMA operates on local memory; expected 'ptr<local>'");
    Ok = Ok && Operands(1, Type::PtrLocal) && Comma() && Operands(1, Type::U32);
    break;
  }
  case Shape::MmaStore: {
    Type P = Type::Void;
    SMLoc L = T.loc();
    Ok = PtrType(P);
    if (Ok && P != Type::PtrLocal)
      Ok = error(L, "MMA operates on local memory; expected 'ptr<local>'");
    Ok = Ok && Operands(1, Type::PtrLocal) && Comma() &&
         Operands(1, Type::U32) && Comma() && Frag();
    break;
  }
  case Shape::MmaCompute:
    Ok = Frag() && Comma() && Frag() && Comma() && Frag();
    break;
  case Shape::Call: {
    if (!TypeParam(Ty)) {
      Ok = false;
      break;
    }
    if (!is(Tok::FuncRef)) {
      Ok = expected("a function name '@name'");
      break;
    }
    Calls.push_back({I.get(), T.name().str(), T.loc()});
    consume();
    if (!expect(Tok::LParen, "'('")) {
      Ok = false;
      break;
    }
    for (bool First = true; Ok && !is(Tok::RParen); First = false) {
      if (!First && !Comma()) {
        Ok = false;
        break;
      }
      Type ArgTy;
      Ok = parseType(ArgTy, "an argument type") && Operands(1, ArgTy);
      if (Ok && ArgTy == Type::Void)
        Ok = error(T.loc(), "an argument cannot have type 'void'");
    }
    Ok = Ok && expect(Tok::RParen, "')'");
    break;
  }
  case Shape::Phi:
    if (!TypeParam(Ty)) {
      Ok = false;
      break;
    }
    for (bool First = true; Ok; First = false) {
      if (!First) {
        if (!is(Tok::Comma))
          break;
        consume();
      }
      BasicBlock *From;
      Ok = expect(Tok::LBracket, "'['") && parseOperand(Ty, V) && Comma() &&
           parseBlockRef(From) && expect(Tok::RBracket, "']'");
      if (Ok)
        I->addIncoming(V, From);
    }
    break;
  case Shape::Br: {
    BasicBlock *To;
    Ok = parseBlockRef(To);
    if (Ok)
      I->addBlock(To);
    break;
  }
  case Shape::CondBr: {
    BasicBlock *A, *B;
    Ok = Operands(1, Type::I1) && Comma() && parseBlockRef(A) && Comma() &&
         parseBlockRef(B);
    if (Ok) {
      I->addBlock(A);
      I->addBlock(B);
    }
    break;
  }
  case Shape::Ret:
    if (is(Tok::Ident) && !T.LineStart) {
      Type RT;
      Ok = parseType(RT) && Operands(1, RT);
    }
    break;
  }
  if (Ok && is(Tok::Bang) && !T.LineStart)
    Ok = parseDebugLoc(*I);
  if (!Ok)
    return Fail();
  if (!T.LineStart && !is(Tok::Eof) && !is(Tok::RBrace)) {
    expected("end of line");
    return Fail();
  }
  I->setType(Ty);
  if (Ty == Type::Void && !ResultName.empty()) {
    error(ResultLoc, "'" + Twine(D.Name) + "' does not produce a value");
    return Fail();
  }
  Instruction *Raw = BB.append(std::move(I));
  defineValue(Raw, ResultName, ResultLoc);
  return true;
}

bool Parser::parseDebugLoc(Instruction &I) {
  if (T.Text != "!loc")
    return error(T.loc(), "unknown instruction metadata '" + T.Text +
                              "'; expected '!loc'");
  consume();
  uint64_t Line, Col;
  if (!expect(Tok::LParen, "'('"))
    return false;
  SMLoc LineLoc = T.loc();
  if (!parseUInt(Line, 0xFFFFFFFF, "a line number"))
    return false;
  if (Line == 0)
    return error(LineLoc, "line numbers start at 1; omit '!loc' for an "
                          "instruction without a source position");
  if (!expect(Tok::Comma, "','") ||
      !parseUInt(Col, 0xFFFFFFFF, "a column number") ||
      !expect(Tok::RParen, "')'"))
    return false;
  I.setDebugLoc({uint32_t(Line), uint32_t(Col)});
  return true;
}

bool Parser::parseBlock(Function &Fn) {
  // ^name:
  SMLoc L = T.loc();
  StringRef Name = T.name();
  consume();
  if (!expect(Tok::Colon, "':' after the block label"))
    return false;
  auto It = BlocksByName.find(Name);
  BasicBlock *BB;
  if (It == BlocksByName.end()) {
    BB = Fn.addBlock(Name);
    BlocksByName.insert({Name, BlockInfo{BB, true, L}});
  } else if (It->second.Defined) {
    error(L, "redefinition of block '^" + Name + "'");
    note(It->second.BB->loc(), "previous definition is here");
    BB = Fn.addBlock(""); // parse the body into a throwaway block
  } else {
    It->second.Defined = true;
    BB = It->second.BB;
  }
  BB->setLoc(L);
  BlockOrder.push_back(BB);
  while (!is(Tok::Eof) && !is(Tok::RBrace) && !is(Tok::BlockRef) &&
         !tooManyErrors()) {
    if (!T.LineStart) {
      expected("a new line");
      skipLine();
      continue;
    }
    if (!parseInstruction(*BB) && !is(Tok::Eof) && !T.LineStart)
      skipLine();
  }
  return true;
}

void Parser::finishFunction(Function &Fn) {
  for (auto &KV : Forwards) {
    StringRef Name = KV.getKey();
    if (!Poisoned.contains(Name))
      error(KV.second.Loc, "use of undefined value '%" + Name + "'");
    Leftovers.push_back(std::move(KV.second.P));
  }
  for (auto &KV : BlocksByName)
    if (!KV.second.Defined)
      error(KV.second.FirstUse,
            "use of undefined block '^" + KV.getKey() + "'");
  // Text order for the blocks.
  Fn.reorderBlocks(BlockOrder);
  // Numeric names are positional: drop them so the printer renumbers.
  auto Numeric = [](StringRef N) {
    return !N.empty() && all_of(N, [](char C) { return isDigit(C); });
  };
  for (unsigned I = 0; I < Fn.numArgs(); ++I)
    if (Numeric(Fn.arg(I)->name()))
      Fn.arg(I)->setName("");
  for (const auto &BB : Fn.blocks()) {
    if (Numeric(BB->name()))
      BB->setName("");
    for (Instruction &I : BB->insts())
      if (Numeric(I.name()))
        I.setName("");
  }
  Values.clear();
  Forwards.clear();
  Poisoned.clear();
  BlocksByName.clear();
  BlockOrder.clear();
}

bool Parser::parseParamAttrs(ParamAttrs &A) {
  for (;;) {
    if (!is(Tok::Ident))
      return true;
    SMLoc L = T.loc();
    StringRef Word = T.Text;
    bool Dup = false;
    if (Word == "readonly") {
      Dup = A.ReadOnly;
      A.ReadOnly = true;
      consume();
    } else if (Word == "writeonly") {
      Dup = A.WriteOnly;
      A.WriteOnly = true;
      consume();
    } else if (Word == "elem") {
      Dup = A.ElemType.has_value();
      consume();
      Type Ty;
      if (!expect(Tok::LParen, "'('") ||
          !parseType(Ty, "an element type") || !expect(Tok::RParen, "')'"))
        return false;
      A.ElemType = Ty;
    } else {
      return error(L, "unknown parameter attribute '" + Word +
                          "'; expected readonly, writeonly or elem(T)");
    }
    if (Dup)
      return error(L, "duplicate parameter attribute '" + Word + "'");
  }
}

bool Parser::parseFunction(Function::Linkage Link) {
  bool IsDecl = Link == Function::Linkage::Declaration;
  if (Link != Function::Linkage::Internal) {
    // 'export' / 'declare' apply to device functions only.
    StringRef Word = IsDecl ? "declare" : "export";
    consume();
    if (isIdent("kernel"))
      return error(T.loc(), "'" + Word +
                                "' applies to 'func' only; a kernel is an "
                                "entry point of its own object");
    if (!isIdent("func"))
      return expected(("'func' after '" + Word + "'").str());
  }
  bool IsKernel = T.Text == "kernel";
  consume();
  if (!is(Tok::FuncRef))
    return expected("a function name '@name'");
  SMLoc NameLoc = T.loc();
  std::string Name = T.name().str();
  consume();
  if (M->function(Name)) {
    error(NameLoc, "redefinition of function '@" + Name + "'");
    if (M->function(Name)->loc().isValid())
      note(M->function(Name)->loc(), "previous definition is here");
    return false;
  }
  struct Param {
    Type Ty;
    std::string Name;
    SMLoc Loc;
    ParamAttrs Attrs;
  };
  std::vector<Param> Params;
  if (!expect(Tok::LParen, "'('"))
    return false;
  while (!is(Tok::RParen)) {
    if (!Params.empty() && !expect(Tok::Comma, "',' or ')'"))
      return false;
    Param P;
    if (!parseType(P.Ty, "a parameter type"))
      return false;
    if (P.Ty == Type::Void)
      return error(T.loc(), "a parameter cannot have type 'void'");
    if (!parseParamAttrs(P.Attrs))
      return false;
    if (!is(Tok::ValueRef))
      return expected("a parameter name '%name'");
    P.Name = T.name().str();
    P.Loc = T.loc();
    consume();
    Params.push_back(std::move(P));
  }
  consume();
  Type RetTy = Type::Void;
  if (is(Tok::Arrow)) {
    SMLoc L = T.loc();
    consume();
    if (!parseType(RetTy, "a result type"))
      return false;
    if (IsKernel)
      return error(L, "a kernel cannot return a value");
  }
  F = M->addFunction(Name, IsKernel, RetTy);
  F->setLoc(NameLoc);
  F->setLinkage(Link);
  for (const Param &P : Params) {
    Argument *A = F->addArgument(P.Ty, "");
    A->ElemType = P.Attrs.ElemType;
    A->ReadOnly = P.Attrs.ReadOnly;
    A->WriteOnly = P.Attrs.WriteOnly;
    defineValue(A, P.Name, P.Loc);
  }
  if (IsDecl) {
    // `declare func @f(...) [-> T]` ends here: no attributes, no body.
    bool Ok = true;
    if (is(Tok::LBrace) && !T.LineStart)
      Ok = error(T.loc(), "a declaration has no body; write 'func' or "
                          "'export func' to define '@" + Name + "'");
    else if (is(Tok::Ident) && !T.LineStart)
      Ok = error(T.loc(), "a declaration takes no attributes, found '" +
                              T.Text + "'");
    else if (!T.LineStart && !is(Tok::Eof))
      Ok = expected("end of line");
    finishFunction(*F);
    return Ok;
  }
  // Attributes.
  while (is(Tok::Ident)) {
    SMLoc L = T.loc();
    if (T.Text == "workgroup_size") {
      consume();
      std::array<uint32_t, 3> WG;
      if (!expect(Tok::LParen, "'('"))
        return false;
      for (unsigned K = 0; K < 3; ++K) {
        uint64_t N;
        if ((K && !expect(Tok::Comma, "','")) ||
            !parseUInt(N, 0xFFFFFFFF, "a workgroup dimension"))
          return false;
        WG[K] = N;
      }
      if (!expect(Tok::RParen, "')'"))
        return false;
      if (!IsKernel)
        return error(L, "'workgroup_size' is a kernel attribute");
      F->WorkgroupSize = WG;
    } else if (T.Text == "local_memory") {
      consume();
      uint64_t N;
      if (!expect(Tok::LParen, "'('") ||
          !parseUInt(N, 0xFFFFFFFF, "a size in bytes") ||
          !expect(Tok::RParen, "')'"))
        return false;
      if (!IsKernel)
        return error(L, "'local_memory' is a kernel attribute");
      F->LocalMemory = N;
    } else {
      return error(L, "unknown function attribute '" + T.Text + "'");
    }
  }
  if (!expect(Tok::LBrace, "'{'"))
    return false;
  while (!is(Tok::RBrace) && !is(Tok::Eof) && !tooManyErrors()) {
    if (!is(Tok::BlockRef)) {
      expected("a block label '^name:'");
      skipLine();
      continue;
    }
    parseBlock(*F);
  }
  if (F->numBlocks() == 0 && !tooManyErrors())
    error(T.loc(), "function '@" + Name + "' has no blocks");
  bool Ok = expect(Tok::RBrace, "'}'");
  finishFunction(*F);
  return Ok;
}

bool Parser::parseSourceFilename() {
  SMLoc L = T.loc();
  if (!M->functions().empty() || SawSourceFilename)
    return error(L, "'source_filename' must be the first line of the module "
                    "and appear once");
  SawSourceFilename = true;
  consume();
  if (!expect(Tok::Equal, "'='"))
    return false;
  if (is(Tok::Error) && T.Text.starts_with("\""))
    return error(T.loc(), "unterminated string");
  if (!is(Tok::String))
    return expected("a quoted file name");
  SMLoc SL = T.loc();
  StringRef Body = T.Text.drop_front().drop_back();
  std::string Name;
  for (size_t K = 0; K < Body.size(); ++K) {
    char C = Body[K];
    if (C == '\\') {
      char N = Body[++K];
      if (N != '"' && N != '\\')
        return error(SMLoc::getFromPointer(Body.data() + K - 1),
                     "unknown escape '\\" + Twine(N) +
                         "'; a string escapes only '\\\"' and '\\\\'");
      C = N;
    }
    if (static_cast<unsigned char>(C) < 0x20 || C == 0x7F)
      return error(SMLoc::getFromPointer(Body.data() + K),
                   "control character in source_filename");
    Name += C;
  }
  if (Name.empty())
    return error(SL, "source_filename cannot be empty");
  // The name becomes a `.file` name, which assembly requires to be UTF-8
  // (formats/wave-asm.md).
  const UTF8 *P = reinterpret_cast<const UTF8 *>(Name.data());
  if (!isLegalUTF8String(&P, reinterpret_cast<const UTF8 *>(Name.data() +
                                                           Name.size())))
    return error(SL, "source_filename is not valid UTF-8");
  consume();
  if (!T.LineStart && !is(Tok::Eof))
    return expected("end of line");
  M->SourceFile = std::move(Name);
  return true;
}

Expected<std::unique_ptr<Module>> Parser::run() {
  M = std::make_unique<Module>();
  auto SkipToFunction = [&]() {
    do
      consume();
    while (!is(Tok::Eof) && !atFunctionStart());
  };
  while (!is(Tok::Eof) && !tooManyErrors()) {
    if (isIdent("source_filename")) {
      if (!parseSourceFilename())
        SkipToFunction();
      continue;
    }
    if (isIdent("kernel") || isIdent("func") || isIdent("export") ||
        isIdent("declare")) {
      Function::Linkage Link = isIdent("export") ? Function::Linkage::Export
                               : isIdent("declare")
                                   ? Function::Linkage::Declaration
                                   : Function::Linkage::Internal;
      if (!parseFunction(Link)) {
        if (F) {
          // Recover: skip to the next function header.
          finishFunction(*F);
        }
        while (!is(Tok::Eof) && !atFunctionStart())
          consume();
      }
      F = nullptr;
      continue;
    }
    expected("'kernel', 'func', 'export func' or 'declare func'");
    SkipToFunction();
  }
  for (const CallFixup &C : Calls) {
    Function *Callee = M->function(C.Name);
    if (!Callee)
      error(C.Loc, "call to undefined function '@" + C.Name + "'");
    else
      C.I->setCallee(Callee);
  }
  if (NumErrors) {
    // Report in source order (undefined names are found at the end of a
    // function); a note stays right after the error it explains.
    std::vector<std::vector<std::unique_ptr<SourceDiagError>>> Groups;
    for (auto &D : Diags) {
      if (D->diagKind() != SourceMgr::DK_Note || Groups.empty())
        Groups.emplace_back();
      Groups.back().push_back(std::move(D));
    }
    std::vector<unsigned> Order(Groups.size());
    for (unsigned I = 0; I < Order.size(); ++I)
      Order[I] = I;
    llvm::sort(Order, [&](unsigned A, unsigned B) {
      const char *PA = Groups[A].front()->loc().getPointer();
      const char *PB = Groups[B].front()->loc().getPointer();
      return PA != PB ? PA < PB : A < B;
    });
    Error All = Error::success();
    for (unsigned I : Order)
      for (auto &D : Groups[I])
        All = joinErrors(std::move(All), Error(std::move(D)));
    // Instructions may still use placeholders owned by Leftovers; destroy
    // the module first.
    M.reset();
    Leftovers.clear();
    return std::move(All);
  }
  return std::move(M);
}

} // namespace

Expected<std::unique_ptr<Module>> parseMIR(SourceMgr &SM, unsigned BufferID) {
  Parser P(SM, BufferID);
  return P.run();
}

Expected<std::unique_ptr<Module>> parseMIRString(StringRef Text, SourceMgr &SM,
                                                 StringRef Name) {
  unsigned ID = SM.AddNewSourceBuffer(
      MemoryBuffer::getMemBufferCopy(Text, Name), SMLoc());
  return parseMIR(SM, ID);
}

} // namespace wave::mir
