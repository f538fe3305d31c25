//===- AsmParser.cpp - WAVE assembly to .wbin -----------------------------===//
//
// A single-pass recursive-descent parser over AsmLexer tokens
// (formats/wave-asm.md), encoding each instruction as soon as it is parsed and
// patching `call` targets once every label is known. Operand checking is driven
// by the operand forms of Forms.def; no mnemonic is spelled here except the
// aliases of formats/isa.md §2.16 (`mov rd, sr_x`) and the scope words.
//
// Diagnostics are collected, sorted by source position and printed through
// the SourceMgr at the end, so deferred checks (undefined labels, register
// counts known only at `.end`) still come out in source order.
//
//===----------------------------------------------------------------------===//
#include "wave/Asm/AsmParser.h"

#include "AsmLexer.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <map>

using namespace llvm;

namespace wave {

namespace {

/// A parsed operand before it is matched against the form.
struct Operand {
  enum KindTy { Reg, Pred, NotPred, Special, Int, Float, Scope, Ident } Kind;
  Token Tok;
  uint64_t Value = 0; ///< register/predicate/special index, or scope.
};

/// One collected diagnostic (with an optional attached note).
struct Diag {
  SMLoc Loc;
  SourceMgr::DiagKind Kind;
  std::string Msg;
  SMRange Range;
  SMLoc NoteLoc;
  std::string Note;
  unsigned Seq; ///< tie-breaker keeping emission order at equal locations.
};

struct LabelDef {
  unsigned Unit;
  uint32_t Offset; ///< bytes from the unit's first byte (D2).
  SMLoc Loc;
};

struct PendingCall {
  size_t Word1Pos; ///< byte position of W1 in the code section.
  unsigned Unit;
  Token LabelTok;
};

/// A kernel or device function being assembled (formats/wave-asm.md §3).
/// Kernels keep their metadata in File.Kernels[Kernel]; a function's lives
/// in Info.
struct UnitDef {
  bool IsFunction = false;
  unsigned Kernel = 0; ///< index into File.Kernels (kernels only).
  KernelInfo Info;     ///< name, registers, code range (functions only).
  std::optional<uint32_t> CallBase;
  Token NameTok;
};

/// A relocation found while resolving calls: Unit is the target unit, or
/// ~0u for the `.extern` named by Tok.
struct PendingReloc {
  uint32_t Offset;
  unsigned Unit;
  int32_t Addend;
  Token Tok;
};

struct RegUse {
  uint32_t Reg;
  Token Tok;
};

class Parser {
public:
  Parser(SourceMgr &SM, const AsmOptions &Opts)
      : SM(SM), Opts(Opts),
        Lex(SM.getMemoryBuffer(SM.getMainFileID())->getBuffer(), &lexError,
            this) {}

  Expected<WbinFile> run(AsmStats *Stats);

private:
  static void lexError(void *Ctx, SMRange R, const std::string &Msg) {
    static_cast<Parser *>(Ctx)->error(R.Start, Msg, R);
  }

  // Token stream with one token of lookahead.
  void next() {
    if (HasPeek) {
      Tok = Peeked;
      HasPeek = false;
    } else {
      Tok = Lex.lex();
    }
  }
  const Token &peek() {
    if (!HasPeek) {
      Peeked = Lex.lex();
      HasPeek = true;
    }
    return Peeked;
  }
  void skipLine() {
    while (!Tok.is(TokenKind::Newline) && !Tok.is(TokenKind::Eof))
      next();
  }

  /// Reports an error; always returns true so callers can `return error()`.
  bool error(SMLoc Loc, const Twine &Msg, SMRange R = {}, SMLoc NoteLoc = {},
             const Twine &Note = "") {
    Diags.push_back({Loc, SourceMgr::DK_Error, Msg.str(), R, NoteLoc,
                     Note.str(), unsigned(Diags.size())});
    return true;
  }
  bool error(const Token &T, const Twine &Msg) {
    return error(T.getLoc(), Msg, SMRange(T.getLoc(), T.getEndLoc()));
  }
  void warning(const Token &T, const Twine &Msg) {
    if (Opts.Warnings == WarningMode::None)
      return;
    Diags.push_back({T.getLoc(),
                     Opts.Warnings == WarningMode::Error
                         ? SourceMgr::DK_Error
                         : SourceMgr::DK_Warning,
                     Msg.str(), SMRange(T.getLoc(), T.getEndLoc()), SMLoc(), "",
                     unsigned(Diags.size())});
  }

  static std::string describe(const Token &T) {
    switch (T.Kind) {
    case TokenKind::Eof:
      return "end of file";
    case TokenKind::Newline:
      return "end of line";
    default:
      return "'" + T.Text.str() + "'";
    }
  }

  bool parseStatement();
  bool parseDirective();
  bool parseLabel();
  bool parseInstruction();
  bool parseOperand(Operand &Op);
  bool parseU32(const Token &Directive, uint32_t &Out);
  bool startsOperand(const FormDesc &F, unsigned FirstExplicit);
  void closeKernel();
  bool parseUnitStart(const Token &D, bool IsFunction);
  bool parseParam(const Token &D);
  bool parseName(const Token &D, Token &Out);
  /// Reports \p Name (of \p T) unless it is valid UTF-8, as every name in
  /// an extension string table must be (formats/wbin.md "STRTAB").
  bool checkUTF8(const Token &T, StringRef Name);
  bool parseFile(const Token &D);
  bool parseLoc(const Token &D);
  void resolveCalls();
  void buildSymbols();
  /// The metadata of the open unit (OpenKernel >= 0).
  KernelInfo &openInfo() {
    UnitDef &U = Units[OpenKernel];
    return U.IsFunction ? U.Info : File.Kernels[U.Kernel];
  }
  KernelInfo &unitInfo(unsigned I) {
    return Units[I].IsFunction ? Units[I].Info : File.Kernels[Units[I].Kernel];
  }

  SourceMgr &SM;
  AsmOptions Opts;
  AsmLexer Lex;
  Token Tok, Peeked;
  bool HasPeek = false;

  WbinFile File;
  int OpenKernel = -1; ///< index into Units (kernel or function), or -1.
  Token OpenKernelTok;
  std::vector<UnitDef> Units;
  StringMap<Token> KernelNames; ///< kernels, functions and externs.
  StringMap<unsigned> UnitByName;
  StringMap<Token> Externs, Globals;
  /// `.file` numbers to indices of File.SourceFiles.
  std::map<uint32_t, uint32_t> FileNumbers;
  /// The `.loc` in effect: {file index, line, column}; line 0 = none.
  WbinLine CurLoc;
  std::vector<std::pair<uint32_t, Token>> LabelSyms; ///< unit, name.
  StringMap<LabelDef> Labels;
  std::vector<PendingCall> Calls;
  std::vector<PendingReloc> Relocs;
  std::vector<RegUse> RegUses; ///< of the open kernel.
  std::vector<Diag> Diags;
};

} // namespace

/// Words accepted as cache hints after a mnemonic and discarded (formats/isa.md
/// §2.10, §6.6).
static bool isCacheHint(StringRef W) {
  return W == ".cached" || W == ".uncached" || W == ".streaming";
}

/// "0x" followed by at least \p Digits uppercase hex digits.
static std::string hex(uint32_t V, unsigned Digits) {
  std::string S;
  raw_string_ostream OS(S);
  OS << "0x" << format_hex_no_prefix(V, Digits, /*Upper=*/true);
  return S;
}

/// The decimal digits of a register, predicate or predicate-prefix token
/// (`r300.lo` -> "300"), for messages about out-of-range indices.
static std::string indexText(const Token &T) {
  StringRef S = T.Text;
  S = S.drop_front(S.find_first_of("0123456789"));
  return S.take_while([](char C) { return C >= '0' && C <= '9'; }).str();
}

static bool isDirectiveName(StringRef W) {
  return W == ".kernel" || W == ".end" || W == ".registers" ||
         W == ".local_memory" || W == ".workgroup_size" || W == ".func" ||
         W == ".global" || W == ".extern" || W == ".param" ||
         W == ".call_base" || W == ".file" || W == ".loc";
}

/// `loc_HEX`: the disassembler's label spelling (D16). Such a label always
/// denotes the kernel offset HEX.
static std::optional<uint32_t> parseLocLabel(StringRef Name) {
  if (!Name.consume_front("loc_") || Name.empty() || Name.size() > 8)
    return std::nullopt;
  uint32_t V;
  if (Name.find_first_not_of("0123456789abcdefABCDEF") != StringRef::npos ||
      Name.getAsInteger(16, V))
    return std::nullopt;
  return V;
}

bool Parser::parseU32(const Token &Directive, uint32_t &Out) {
  if (!Tok.is(TokenKind::Integer))
    return error(Tok, "expected integer after '" + Directive.Text +
                          "', found " + describe(Tok));
  if (Tok.IntValue < 0 || Tok.IntValue > int64_t(UINT32_MAX))
    return error(Tok, "value " + Twine(Tok.IntValue) + " out of range for '" +
                          Directive.Text + "': must be 0-4294967295");
  Out = uint32_t(Tok.IntValue);
  next();
  return false;
}

void Parser::closeKernel() {
  KernelInfo &K = openInfo();
  K.CodeSize = File.Code.size() - K.CodeOffset;
  // D20: registers at or above the kernel's register count read 0 and drop
  // writes in the emulator.
  for (const RegUse &U : RegUses)
    if (U.Reg >= K.RegisterCount)
      warning(U.Tok, "register 'r" + Twine(U.Reg) + "' is not below the " +
                         "register count " + Twine(K.RegisterCount) +
                         (Units[OpenKernel].IsFunction ? " of function '"
                                                       : " of kernel '") +
                         K.Name +
                         "': reads give 0 and writes are dropped");
  RegUses.clear();
  OpenKernel = -1;
}

bool Parser::parseDirective() {
  Token D = Tok;
  StringRef Name = D.Text;
  if (!isDirectiveName(Name)) {
    if (isCacheHint(Name) || lookupScope(Name))
      return error(D, "unexpected '" + Name +
                          "': a cache hint or scope must follow an "
                          "instruction mnemonic");
    return error(D, "unknown directive '" + Name + "'");
  }
  next();
  if (Name == ".func")
    return parseUnitStart(D, /*IsFunction=*/true);
  if (Name == ".global" || Name == ".extern") {
    Token NameTok;
    if (parseName(D, NameTok))
      return true;
    if (OpenKernel >= 0)
      return error(D, "'" + Name + "' inside a kernel or function");
    StringMap<Token> &Set = Name == ".global" ? Globals : Externs;
    Set.try_emplace(NameTok.Text, NameTok);
    return false;
  }
  if (Name == ".file")
    return parseFile(D);
  if (Name == ".loc")
    return parseLoc(D);
  if (Name == ".kernel")
    return parseUnitStart(D, /*IsFunction=*/false);
  if (Name == ".end") {
    if (OpenKernel < 0)
      return error(D, "'.end' without an open kernel");
    closeKernel();
    return false;
  }
  // D23: kernel attributes only inside a kernel.
  if (OpenKernel < 0)
    return error(D, "'" + Name + "' outside a kernel");
  KernelInfo &K = openInfo();
  if (Name == ".registers")
    return parseU32(D, K.RegisterCount);
  if (Name == ".call_base") {
    uint32_t B;
    if (parseU32(D, B))
      return true;
    if (B > 254)
      return error(D, "'.call_base' " + Twine(B) + " out of range: must be "
                                                  "0-254");
    Units[OpenKernel].CallBase = B;
    return false;
  }
  if (Name == ".param")
    return parseParam(D);
  if (Units[OpenKernel].IsFunction)
    return error(D, "'" + Name + "' is a kernel attribute; device functions "
                                 "take their workgroup size and local memory "
                                 "from the calling kernel");
  if (Name == ".local_memory")
    return parseU32(D, K.LocalMemorySize);
  // .workgroup_size X, Y, Z
  std::array<uint32_t, 3> WG;
  for (unsigned I = 0; I != 3; ++I) {
    if (I) {
      if (!Tok.is(TokenKind::Comma))
        return error(Tok, "expected ',' in '.workgroup_size X, Y, Z', found " +
                              describe(Tok));
      next();
    }
    if (parseU32(D, WG[I]))
      return true;
  }
  K.WorkgroupSize = WG;
  return false;
}

/// `.kernel NAME` or `.func NAME`: opens a unit at the end of the code.
bool Parser::parseUnitStart(const Token &D, bool IsFunction) {
  StringRef Name = D.Text;
  {
    Token NameTok = Tok;
    if (!Tok.is(TokenKind::Identifier)) {
      bool Word = Tok.is(TokenKind::Register) || Tok.is(TokenKind::Predicate) ||
                  Tok.is(TokenKind::SpecialReg);
      if (!Tok.is(TokenKind::Error))
        error(Tok, "expected " + Twine(IsFunction ? "function" : "kernel") +
                       " name after '" + Name + "', found " + describe(Tok) +
                       (Word ? " (a name must not look like a register, "
                               "predicate or special register)"
                             : ""));
      // Recover: open the kernel anyway so that its body is still checked
      // without a cascade of "outside kernel" errors.
      if (Tok.is(TokenKind::Newline) || Tok.is(TokenKind::Eof))
        NameTok.Text = StringRef(Tok.Text.data(), 0);
    }
    if (!Tok.is(TokenKind::Newline) && !Tok.is(TokenKind::Eof))
      next();
    if (OpenKernel >= 0) {
      error(D.getLoc(),
            "kernel '" + openInfo().Name + "' not closed with .end",
            SMRange(D.getLoc(), D.getEndLoc()), OpenKernelTok.getLoc(),
            "kernel '" + openInfo().Name + "' starts here");
      closeKernel();
    }
    auto [It, New] = KernelNames.try_emplace(NameTok.Text, NameTok);
    if (!New)
      error(NameTok.getLoc(),
            "duplicate " + Twine(IsFunction ? "function" : "kernel") +
                " name '" + NameTok.Text + "'",
            SMRange(NameTok.getLoc(), NameTok.getEndLoc()), It->second.getLoc(),
            "previous definition is here");
    // Every reader checks kernel names too (formats/wbin.md).
    checkUTF8(NameTok, NameTok.Text);
    UnitDef U;
    U.IsFunction = IsFunction;
    U.NameTok = NameTok;
    KernelInfo K;
    K.Name = NameTok.Text.str();
    K.CodeOffset = File.Code.size();
    if (IsFunction) {
      U.Info = K;
    } else {
      U.Kernel = File.Kernels.size();
      File.Kernels.push_back(K);
    }
    UnitByName.try_emplace(NameTok.Text, Units.size());
    Units.push_back(std::move(U));
    OpenKernel = Units.size() - 1;
    OpenKernelTok = NameTok;
    // A unit starts without a source location (formats/wave-asm.md §3).
    CurLoc.Line = 0;
    return false;
  }
}

bool Parser::checkUTF8(const Token &T, StringRef Name) {
  const UTF8 *P = reinterpret_cast<const UTF8 *>(Name.begin());
  if (isLegalUTF8String(&P, reinterpret_cast<const UTF8 *>(Name.end())))
    return false;
  return error(T, "name is not valid UTF-8");
}

/// An identifier operand of a directive (`.global NAME`), into \p Out.
bool Parser::parseName(const Token &D, Token &Out) {
  if (!Tok.is(TokenKind::Identifier))
    return error(Tok, "expected a name after '" + D.Text + "', found " +
                          describe(Tok));
  Out = Tok;
  next();
  return checkUTF8(Out, Out.Text);
}

/// `.param NAME, buffer|scalar, TYPE[, read|write|readwrite]`.
bool Parser::parseParam(const Token &D) {
  if (Units[OpenKernel].IsFunction)
    return error(D, "'.param' describes kernel parameters; it is not allowed "
                    "in a device function");
  WbinParam P;
  // A parameter may be called like a register (`r0`), so any word will do.
  if (!Tok.is(TokenKind::Identifier) && !Tok.is(TokenKind::Register) &&
      !Tok.is(TokenKind::Predicate) && !Tok.is(TokenKind::SpecialReg))
    return error(Tok, "expected parameter name after '.param', found " +
                          describe(Tok));
  P.Name = Tok.Text.str();
  if (checkUTF8(Tok, P.Name))
    return true;
  next();
  SmallVector<Token, 3> Words;
  while (Tok.is(TokenKind::Comma)) {
    next();
    if (!Tok.is(TokenKind::Identifier))
      return error(Tok, "expected a word in '.param NAME, KIND, TYPE[, "
                        "ACCESS]', found " +
                            describe(Tok));
    Words.push_back(Tok);
    next();
  }
  if (Words.size() < 2 || Words.size() > 3)
    return error(D, "'.param' takes NAME, KIND, TYPE and, for a buffer, "
                    "ACCESS");
  if (Words[0].Text == "buffer")
    P.Kind = WbinParamKind::Buffer;
  else if (Words[0].Text != "scalar")
    return error(Words[0], "unknown parameter kind '" + Words[0].Text +
                               "': expected 'buffer' or 'scalar'");
  std::optional<WbinType> Ty = parseWbinType(Words[1].Text);
  if (!Ty)
    return error(Words[1], "unknown type '" + Words[1].Text +
                               "': expected i32, u32, f32, f16, bf16 or f64");
  P.Type = *Ty;
  if (P.Kind == WbinParamKind::Scalar) {
    if (Words.size() == 3)
      return error(Words[2], "a scalar parameter takes no access word");
    if (P.Type != WbinType::I32 && P.Type != WbinType::U32 &&
        P.Type != WbinType::F32)
      return error(Words[1], "a scalar parameter is one 32-bit register: "
                             "i32, u32 or f32 (formats/kernel-abi.md)");
    P.Access = WbinAccessRead;
  } else {
    P.Access = Words.size() == 3 ? parseWbinAccess(Words[2].Text)
                                 : uint8_t(WbinAccessReadWrite);
    if (!P.Access)
      return error(Words[2], "unknown access '" + Words[2].Text +
                                 "': expected read, write or readwrite");
  }
  KernelInfo &K = openInfo();
  if (!K.Params)
    K.Params.emplace();
  for (const WbinParam &Q : *K.Params)
    if (Q.Name == P.Name)
      return error(D, "duplicate parameter '" + P.Name + "'");
  if (K.Params->size() == 255)
    return error(D, "more than 255 parameters");
  K.Params->push_back(std::move(P));
  return false;
}

/// `.file N "NAME"` (N >= 1).
bool Parser::parseFile(const Token &D) {
  uint32_t N;
  if (parseU32(D, N))
    return true;
  if (N == 0)
    return error(D, "'.file' numbers start at 1");
  if (!Tok.is(TokenKind::String))
    return error(Tok, "expected a quoted file name after '.file " + Twine(N) +
                          "', found " + describe(Tok));
  std::string Name;
  StringRef Body = Tok.Text.drop_front().drop_back();
  for (size_t I = 0; I < Body.size(); ++I) {
    if (Body[I] == '\\' && I + 1 < Body.size())
      ++I;
    Name += Body[I];
  }
  if (checkUTF8(Tok, Name))
    return true;
  next();
  if (FileNumbers.count(N))
    return error(D, "file number " + Twine(N) + " defined twice");
  // One entry per distinct name, so two numbers for one file share it.
  FileNumbers[N] = File.addSourceFile(Name);
  return false;
}

/// `.loc N LINE COL`; line 0 ends the current location.
bool Parser::parseLoc(const Token &D) {
  uint32_t N, Line, Col = 0;
  if (parseU32(D, N) || parseU32(D, Line))
    return true;
  if (Tok.is(TokenKind::Integer) && parseU32(D, Col))
    return true;
  auto It = FileNumbers.find(N);
  if (It == FileNumbers.end())
    return error(D, "'.loc' names file " + Twine(N) +
                        ", which no earlier '.file' defines");
  CurLoc = WbinLine{0, It->second, Line, Col};
  return false;
}

bool Parser::parseLabel() {
  Token NameTok = Tok;
  next(); // identifier
  next(); // ':'
  StringRef Name = NameTok.Text;
  if (lookupScope(Name))
    return error(NameTok,
                 "'" + Name + "' is a scope name and cannot be a label");
  if (OpenKernel < 0)
    return error(NameTok, "label '" + Name + "' outside kernel");
  const KernelInfo &K = openInfo();
  uint32_t Off = File.Code.size() - K.CodeOffset;
  if (std::optional<uint32_t> Fixed = parseLocLabel(Name)) {
    if (*Fixed != Off)
      return error(NameTok, "label '" + Name + "' names kernel offset " +
                                hex(*Fixed, 4) + " but is defined at offset " +
                                hex(Off, 4));
    return false;
  }
  auto [It, New] = Labels.try_emplace(
      Name, LabelDef{unsigned(OpenKernel), Off, NameTok.getLoc()});
  if (!New)
    return error(NameTok.getLoc(), "duplicate label '" + Name + "'",
                 SMRange(NameTok.getLoc(), NameTok.getEndLoc()), It->second.Loc,
                 "previous definition is here");
  LabelSyms.emplace_back(OpenKernel, NameTok);
  return Opts.Relocatable && checkUTF8(NameTok, Name);
}

bool Parser::parseOperand(Operand &Op) {
  Op.Tok = Tok;
  switch (Tok.Kind) {
  case TokenKind::Register:
    if (Tok.Value > 254)
      return error(Tok, "invalid register index " + indexText(Tok) +
                            ": must be 0-254");
    if (Tok.Suffix == ".hi")
      return error(Tok, "register half '.hi' is not supported: half-precision "
                        "operations always use bits 15:0");
    if (!Tok.Suffix.empty() && Tok.Suffix != ".lo")
      return error(Tok, "invalid register suffix '" + Tok.Suffix +
                            "': only '.lo' is accepted");
    Op.Kind = Operand::Reg;
    Op.Value = Tok.Value;
    break;
  case TokenKind::Predicate:
    if (Tok.Value > 3)
      return error(Tok, "invalid predicate register index " + indexText(Tok) +
                            ": must be 0-3");
    Op.Kind = Operand::Pred;
    Op.Value = Tok.Value;
    break;
  case TokenKind::NotPredicate:
    Op.Kind = Operand::NotPred;
    Op.Value = Tok.Value;
    break;
  case TokenKind::SpecialReg:
    if (Tok.Value == InvalidSpecialReg)
      return error(Tok, "invalid special register '" + Tok.Text + "'");
    Op.Kind = Operand::Special;
    Op.Value = Tok.Value;
    break;
  case TokenKind::Integer:
    Op.Kind = Operand::Int;
    break;
  case TokenKind::Float:
    Op.Kind = Operand::Float;
    break;
  case TokenKind::DotWord:
  case TokenKind::Identifier:
    if (std::optional<unsigned> S = lookupScope(Tok.Text)) {
      Op.Kind = Operand::Scope;
      Op.Value = *S;
      break;
    }
    if (Tok.is(TokenKind::DotWord))
      return error(Tok, "expected scope specifier (.wave, .workgroup, "
                        ".device, .system), found " +
                            describe(Tok));
    Op.Kind = Operand::Ident;
    break;
  case TokenKind::Error:
    return true; // already diagnosed by the lexer
  default:
    return error(Tok, "expected operand, found " + describe(Tok));
  }
  next();
  return false;
}

/// Whether the current token starts the operand list of an instruction of
/// form \p F. Needed because statements need not be separated by newlines
/// (formats/wave-asm.md §2): `halt iadd r0, r1, r2` is two instructions.
bool Parser::startsOperand(const FormDesc &F, unsigned FirstExplicit) {
  switch (Tok.Kind) {
  case TokenKind::Register:
  case TokenKind::Predicate:
  case TokenKind::NotPredicate:
  case TokenKind::SpecialReg:
  case TokenKind::Integer:
  case TokenKind::Float:
  case TokenKind::Comma:
  case TokenKind::Error:
    return true;
  case TokenKind::DotWord:
    return !isDirectiveName(Tok.Text);
  case TokenKind::Identifier: {
    if (peek().is(TokenKind::Colon) || FirstExplicit >= F.NumOperands)
      return false;
    OperandKind K = F.Operands[FirstExplicit].Kind;
    return K == OperandKind::Label ||
           (K == OperandKind::Scope && lookupScope(Tok.Text));
  }
  default:
    return false;
  }
}

bool Parser::parseInstruction() {
  Inst I;
  Token PredTok;
  bool HasPred = false;
  if (Tok.is(TokenKind::PredPrefix)) {
    PredTok = Tok;
    if (Tok.Value > 3)
      return error(Tok, "invalid predicate register index " + indexText(Tok) +
                            ": must be 0-3");
    HasPred = true;
    I.PredReg = Tok.Value;
    I.PredNeg = Tok.Negated;
    next();
    if (!Tok.is(TokenKind::Identifier))
      return error(Tok, "expected instruction after predicate '" +
                            PredTok.Text + "', found " + describe(Tok));
  }
  Token MnemTok = Tok;
  StringRef Mnem = Tok.Text;
  next();

  std::optional<Opcode> Op = lookupMnemonic(Mnem);
  if (!Op) {
    // Suggest the closest mnemonic of the table.
    std::string Lower = Mnem.lower();
    StringRef Best;
    unsigned BestDist = 3;
    for (unsigned K = 0; K != NumOpcodes; ++K) {
      StringRef Cand = getInstDesc(static_cast<Opcode>(K)).Mnemonic;
      unsigned D = StringRef(Lower).edit_distance(Cand, true, BestDist);
      if (D < BestDist) {
        BestDist = D;
        Best = Cand;
      }
    }
    if (!Best.empty())
      return error(MnemTok, "unknown instruction '" + Mnem +
                                "'; did you mean '" + Best + "'?");
    return error(MnemTok, "unknown instruction '" + Mnem + "'");
  }

  // Suffixes written directly after the mnemonic: cache hints (discarded,
  // also accepted after a space as the reference does) and scopes (D13).
  std::optional<unsigned> SuffixScope;
  Token SuffixTok;
  const char *End = MnemTok.Text.end();
  while (Tok.is(TokenKind::DotWord) &&
         (Tok.Text.data() == End || isCacheHint(Tok.Text))) {
    if (!isCacheHint(Tok.Text)) {
      std::optional<unsigned> S = lookupScope(Tok.Text);
      if (!S)
        return error(Tok, "unknown suffix '" + Tok.Text + "' on '" + Mnem +
                              "': expected a cache hint (.cached, .uncached, "
                              ".streaming) or a scope");
      if (SuffixScope)
        return error(Tok, "scope given twice");
      SuffixScope = S;
      SuffixTok = Tok;
    }
    End = Tok.Text.end();
    next();
  }

  if (OpenKernel < 0)
    return error(MnemTok, "instruction outside kernel");

  // The form's operand slots, minus a scope given as a suffix.
  const FormDesc *F = &getFormDesc(getInstDesc(*Op).InstForm);
  int ScopeSlot = -1;
  for (unsigned K = 0; K != F->NumOperands; ++K)
    if (F->Operands[K].Kind == OperandKind::Scope)
      ScopeSlot = K;
  if (SuffixScope && ScopeSlot < 0)
    return error(SuffixTok, "'" + Mnem + "' does not take a scope");

  SmallVector<Operand, 5> Ops;
  unsigned FirstExplicit = (ScopeSlot == 0 && SuffixScope) ? 1 : 0;
  if (!Tok.is(TokenKind::Newline) && !Tok.is(TokenKind::Eof) &&
      startsOperand(*F, FirstExplicit)) {
    while (true) {
      Operand O;
      if (parseOperand(O))
        return true;
      Ops.push_back(O);
      if (!Tok.is(TokenKind::Comma))
        break;
      next();
    }
  }

  // `mov rd, sr_NAME` is mov_sr (formats/isa.md §2.16).
  if (*Op == Opcode::Mov && Ops.size() == 2) {
    if (Ops[1].Kind == Operand::Special)
      Op = Opcode::MovSr;
    else if (Ops[1].Kind == Operand::Int || Ops[1].Kind == Operand::Float)
      return error(Ops[1].Tok, "'mov' takes a register or special register "
                               "source; use 'mov_imm' for an immediate");
  }
  const InstDesc &Desc = getInstDesc(*Op);
  F = &getFormDesc(Desc.InstForm);

  SmallVector<unsigned, 5> Slots;
  for (unsigned K = 0; K != F->NumOperands; ++K)
    if (!(SuffixScope && int(K) == ScopeSlot))
      Slots.push_back(K);
  if (ScopeSlot >= 0 && !SuffixScope &&
      (Ops.empty() || Ops.back().Kind != Operand::Scope))
    return error(MnemTok, "'" + Mnem +
                              "' requires a scope operand (.wave, .workgroup, "
                              ".device, .system)");
  if (Ops.size() + 1 == Slots.size() && F->OptionalDest) {
    Slots.erase(Slots.begin()); // non-returning form: rd = 0
  } else if (Ops.size() != Slots.size()) {
    if (F->OptionalDest)
      return error(MnemTok, "expected " + Twine(Slots.size()) + " or " +
                                Twine(Slots.size() - 1) + " operands for '" +
                                Mnem + "', got " + Twine(Ops.size()));
    return error(MnemTok, "expected " + Twine(Slots.size()) + " operand" +
                              (Slots.size() == 1 ? "" : "s") + " for '" + Mnem +
                              "', got " + Twine(Ops.size()));
  }

  I.Op = *Op;
  if (SuffixScope)
    I.setField(Field::Scope, *SuffixScope);
  std::optional<size_t> CallLabel;
  SmallVector<RegUse, 5> Uses;
  for (unsigned K = 0; K != Slots.size(); ++K) {
    const OperandDesc &OD = F->Operands[Slots[K]];
    const Operand &O = Ops[K];
    switch (OD.Kind) {
    case OperandKind::Reg:
    case OperandKind::Frag:
      if (O.Kind == Operand::Special)
        // D21: the reference silently uses the index as a register number.
        return error(O.Tok, "special register '" + O.Tok.Text +
                                "' cannot be used as a general register; "
                                "read it first with 'mov rN, " +
                                O.Tok.Text + "'");
      if (O.Kind != Operand::Reg)
        return error(O.Tok,
                     "expected register operand, found " + describe(O.Tok));
      I.setField(OD.Fld, O.Value);
      if (OD.Kind == OperandKind::Reg)
        Uses.push_back({uint32_t(O.Value), O.Tok});
      break;
    case OperandKind::Pred:
      if (O.Kind == Operand::NotPred)
        // D17: there is no negated condition operand.
        return error(O.Tok, "negated predicate '" + O.Tok.Text +
                                "' is not supported: invert the compare that "
                                "sets 'p" +
                                Twine(O.Value) +
                                "' instead (e.g. 'icmp_ge' instead of "
                                "'icmp_lt')");
      if (O.Kind != Operand::Pred)
        return error(O.Tok, "expected predicate register operand (p0-p3), "
                            "found " +
                                describe(O.Tok));
      I.setField(OD.Fld, O.Value);
      break;
    case OperandKind::Special:
      if (O.Kind != Operand::Special)
        return error(O.Tok, "expected special register operand, found " +
                                describe(O.Tok));
      I.setField(OD.Fld, O.Value);
      break;
    case OperandKind::Imm:
      if (O.Kind == Operand::Int) {
        int64_t V = O.Tok.IntValue;
        if (V < INT32_MIN || V > int64_t(UINT32_MAX))
          return error(O.Tok, "immediate value " + Twine(V) +
                                  " out of range: must be -2147483648 to "
                                  "4294967295");
        I.setField(OD.Fld, uint32_t(V));
      } else if (O.Kind == Operand::Float) {
        // D7: encode the binary32 pattern (round to nearest even).
        std::string Text = O.Tok.Text.str();
        llvm::erase(Text, '_');
        APFloat F32(APFloat::IEEEsingle()), F64(APFloat::IEEEdouble());
        auto S32 = F32.convertFromString(Text, APFloat::rmNearestTiesToEven);
        auto S64 = F64.convertFromString(Text, APFloat::rmNearestTiesToEven);
        if (!S32 || !S64) {
          consumeError(S32.takeError());
          consumeError(S64.takeError());
          return error(O.Tok, "invalid number literal '" + O.Tok.Text + "'");
        }
        uint32_t Bits = F32.bitcastToAPInt().getZExtValue();
        uint32_t RefBits = uint32_t(F64.bitcastToAPInt().getZExtValue());
        warning(O.Tok, "floating-point immediate '" + O.Tok.Text +
                           "' is encoded as its f32 bit pattern " +
                           hex(Bits, 8) + " (the reference assembler encodes " +
                           hex(RefBits, 8) + ")");
        I.setField(OD.Fld, Bits);
      } else {
        return error(O.Tok,
                     "expected immediate operand, found " + describe(O.Tok));
      }
      break;
    case OperandKind::Scope:
      if (O.Kind != Operand::Scope)
        return error(O.Tok, "expected scope specifier (.wave, .workgroup, "
                            ".device, .system), found " +
                                describe(O.Tok));
      I.setField(OD.Fld, O.Value);
      break;
    case OperandKind::Label:
      if (O.Kind == Operand::Int) {
        // Extension: a numeric kernel offset.
        if (O.Tok.IntValue < 0 || O.Tok.IntValue > int64_t(UINT32_MAX))
          return error(O.Tok, "call target " + Twine(O.Tok.IntValue) +
                                  " out of range: must be 0-4294967295");
        // A function does not know where the linker will put it.
        if (Units[OpenKernel].IsFunction)
          return error(O.Tok, "a numeric call target is a kernel offset; "
                              "inside a device function call a label or a "
                              "function");
        I.setField(OD.Fld, uint32_t(O.Tok.IntValue));
      } else if (O.Kind == Operand::Ident) {
        CallLabel = K;
      } else {
        return error(O.Tok, "expected label operand, found " + describe(O.Tok));
      }
      break;
    case OperandKind::None:
      break;
    }
  }

  // Warnings (formats/isa.md §8).
  if (HasPred && I.PredReg == 0 && !I.PredNeg)
    warning(PredTok, "'@p0' cannot predicate an instruction; it executes "
                     "unconditionally");
  else if (HasPred && Desc.PrimaryOpcode == 0x3F && Desc.Mod >= 0 &&
           Desc.Mod <= 7)
    warning(PredTok, "predicate '" + PredTok.Text + "' on '" + Mnem +
                         "' is not meaningful: structured control flow "
                         "ignores or garbles it");
  if (F->OptionalDest &&
      Slots.size() == F->NumOperands - (SuffixScope ? 1 : 0) && I.Rd == 0)
    warning(Ops[0].Tok, "destination 'r0' of an atomic is encoded as the "
                        "non-returning form; the old value is not written");

  size_t Pos = File.Code.size();
  // A line row where the location changes (formats/wbin.md "LINES").
  WbinLine Row = CurLoc;
  Row.Offset = Pos;
  File.addLine(Row);
  encodeInst(I, File.Code);
  if (CallLabel)
    Calls.push_back({Pos + 4, unsigned(OpenKernel), Ops[*CallLabel].Tok});
  RegUses.insert(RegUses.end(), Uses.begin(), Uses.end());
  return false;
}

bool Parser::parseStatement() {
  switch (Tok.Kind) {
  case TokenKind::Newline:
    next();
    return false;
  case TokenKind::Error:
    return true;
  case TokenKind::DotWord:
    return parseDirective();
  case TokenKind::Identifier:
    if (peek().is(TokenKind::Colon))
      return parseLabel();
    return parseInstruction();
  case TokenKind::PredPrefix:
    return parseInstruction();
  case TokenKind::NotPredicate:
    return error(Tok, "unexpected '" + Tok.Text +
                          "': negated predicates are written '@!pN' before "
                          "an instruction");
  default:
    return error(Tok, "expected an instruction, label or directive, found " +
                          describe(Tok));
  }
}

Expected<WbinFile> Parser::run(AsmStats *Stats) {
  // Binary input (a .wbin, an executable) would give one error per garbage
  // character; a NUL byte never occurs in text, so report it once instead.
  StringRef Buf = SM.getMemoryBuffer(SM.getMainFileID())->getBuffer();
  size_t Nul = Buf.find('\0');
  if (Nul != StringRef::npos) {
    // Reported without a source line: echoing a binary line is useless.
    error(SMLoc(), Buf.starts_with("WAVE")
                       ? "input is a .wbin object, not assembly text (use "
                         "wave-dis)"
                       : "input contains a NUL byte at offset " + Twine(Nul) +
                             ": it is binary, not assembly text");
  } else {
    next();
  }
  while (Nul == StringRef::npos && !Tok.is(TokenKind::Eof)) {
    if (parseStatement())
      skipLine();
  }
  if (OpenKernel >= 0) {
    error(OpenKernelTok, "kernel '" + openInfo().Name +
                             "' not closed with .end");
    closeKernel();
  }
  resolveCalls();
  buildSymbols();
  // Always an object: symbols, relocations and `.extern`s stay for the
  // linker (tool::loadProgram links it on its own for an executable).
  File.Relocatable = true;

  std::sort(Diags.begin(), Diags.end(), [](const Diag &A, const Diag &B) {
    if (A.Loc.getPointer() != B.Loc.getPointer())
      return A.Loc.getPointer() < B.Loc.getPointer();
    return A.Seq < B.Seq;
  });
  AsmStats Counts;
  for (const Diag &D : Diags) {
    if (D.Kind == SourceMgr::DK_Error)
      ++Counts.Errors;
    else
      ++Counts.Warnings;
    SmallVector<SMRange, 1> Ranges;
    if (D.Range.isValid())
      Ranges.push_back(D.Range);
    if (D.Loc.isValid())
      SM.PrintMessage(D.Loc, D.Kind, D.Msg, Ranges);
    else
      SM.PrintMessage(
          errs(),
          SMDiagnostic(
              SM.getMemoryBuffer(SM.getMainFileID())->getBufferIdentifier(),
              D.Kind, D.Msg));
    if (D.NoteLoc.isValid())
      SM.PrintMessage(D.NoteLoc, SourceMgr::DK_Note, D.Note);
  }
  if (Stats)
    *Stats = Counts;
  if (Counts.Errors)
    return createStringError(inconvertibleErrorCode(), "%u error%s generated",
                             Counts.Errors, Counts.Errors == 1 ? "" : "s");
  return std::move(File);
}

/// Resolves every `call` operand (formats/wave-asm.md §4): a label of a
/// kernel becomes its kernel-relative offset (D2, true sizes); a function,
/// an `.extern`, or a label inside a function becomes a relocation.
void Parser::resolveCalls() {
  auto Patch = [&](size_t Word1Pos, uint32_t Target) {
    for (unsigned B = 0; B != 4; ++B)
      File.Code[Word1Pos + B] = (Target >> (8 * B)) & 0xFF;
  };
  for (const PendingCall &C : Calls) {
    StringRef Name = C.LabelTok.Text;
    const UnitDef &From = Units[C.Unit];
    uint32_t CallPos = C.Word1Pos - 4;
    auto It = Labels.find(Name);
    if (It != Labels.end()) {
      const LabelDef &L = It->second;
      if (Units[L.Unit].IsFunction || From.IsFunction) {
        if (L.Unit != C.Unit) {
          error(C.LabelTok, "label '" + Name + "' belongs to " +
                                (Units[L.Unit].IsFunction ? "function '"
                                                          : "kernel '") +
                                unitInfo(L.Unit).Name +
                                "'; call a function by its name");
          continue;
        }
        // Inside a function: relative to wherever the linker puts it.
        Relocs.push_back({CallPos, C.Unit, int32_t(L.Offset), C.LabelTok});
        continue;
      }
      if (L.Unit != C.Unit)
        warning(C.LabelTok,
                "label '" + Name + "' is defined in kernel '" +
                    unitInfo(L.Unit).Name +
                    "'; the call target is that kernel-relative offset");
      Patch(C.Word1Pos, L.Offset);
      continue;
    }
    if (std::optional<uint32_t> Fixed = parseLocLabel(Name)) {
      if (From.IsFunction)
        Relocs.push_back({CallPos, C.Unit, int32_t(*Fixed), C.LabelTok});
      else
        Patch(C.Word1Pos, *Fixed);
      continue;
    }
    auto U = UnitByName.find(Name);
    if (U != UnitByName.end()) {
      if (!Units[U->second].IsFunction) {
        error(C.LabelTok, "'" + Name + "' is a kernel; kernels cannot be "
                                       "called");
        continue;
      }
      Relocs.push_back({CallPos, U->second, 0, C.LabelTok});
      continue;
    }
    if (Externs.count(Name)) {
      Relocs.push_back({CallPos, ~0u, 0, C.LabelTok});
      continue;
    }
    error(C.LabelTok, "undefined label '" + Name +
                          "' (declare a function of another object with "
                          "'.extern " + Name + "')");
  }
}

/// Fills File.Symbols and File.Relocs from the units, labels, `.global`s
/// and `.extern`s (formats/wbin.md "SYMTAB"): kernels, then functions, in
/// source order, then labels, then undefined symbols.
void Parser::buildSymbols() {
  for (const auto &[Name, T] : Globals) {
    auto U = UnitByName.find(Name);
    if (U == UnitByName.end() || !Units[U->second].IsFunction)
      error(T, "'.global " + Name + "' names no device function of this "
                                    "file");
  }
  for (const auto &[Name, T] : Externs)
    if (UnitByName.count(Name))
      error(T, "'" + Name + "' is declared '.extern' but defined here");
  std::vector<uint32_t> SymOfUnit(Units.size());
  for (int Pass = 0; Pass != 2; ++Pass)
    for (unsigned I = 0; I != Units.size(); ++I) {
      const UnitDef &U = Units[I];
      if (U.IsFunction != (Pass == 1))
        continue;
      const KernelInfo &K = unitInfo(I);
      WbinSymbol S;
      S.Name = K.Name;
      S.Kind = U.IsFunction ? WbinSymbolKind::Function : WbinSymbolKind::Kernel;
      S.Binding = !U.IsFunction || Globals.count(K.Name) ? WbinBinding::Global
                                                         : WbinBinding::Local;
      S.Offset = K.CodeOffset;
      S.Size = K.CodeSize;
      S.Registers = K.RegisterCount;
      S.CallBase = U.CallBase.value_or(std::min<uint32_t>(K.RegisterCount, 255));
      if (U.IsFunction && S.Size == 0)
        error(U.NameTok, "function '" + K.Name + "' has no instructions");
      SymOfUnit[I] = File.Symbols.size();
      File.Symbols.push_back(std::move(S));
    }
  for (const auto &[Unit, T] : LabelSyms) {
    WbinSymbol S;
    S.Name = T.Text.str();
    S.Kind = WbinSymbolKind::Label;
    S.Offset = unitInfo(Unit).CodeOffset + Labels[T.Text].Offset;
    File.Symbols.push_back(std::move(S));
  }
  // Undefined symbols in name order, so the output does not depend on
  // hash order.
  std::vector<StringRef> ExternNames;
  for (const auto &E : Externs)
    if (!UnitByName.count(E.first()))
      ExternNames.push_back(E.first());
  llvm::sort(ExternNames);
  StringMap<uint32_t> ExternSym;
  for (StringRef Name : ExternNames) {
    WbinSymbol S;
    S.Name = Name.str();
    S.Binding = WbinBinding::Global;
    S.Defined = false;
    ExternSym[Name] = File.Symbols.size();
    File.Symbols.push_back(std::move(S));
  }
  for (const PendingReloc &R : Relocs) {
    WbinReloc W;
    W.Offset = R.Offset;
    W.Symbol = R.Unit == ~0u ? ExternSym.lookup(R.Tok.Text) : SymOfUnit[R.Unit];
    W.Addend = R.Addend;
    File.Relocs.push_back(W);
  }
  llvm::sort(File.Relocs, [](const WbinReloc &A, const WbinReloc &B) {
    return A.Offset < B.Offset;
  });
}

Expected<WbinFile> assemble(SourceMgr &SM, const AsmOptions &Opts,
                            AsmStats *Stats) {
  Parser P(SM, Opts);
  return P.run(Stats);
}

Expected<WbinFile> assembleString(StringRef Source, StringRef BufferName,
                                  std::string *Diags, const AsmOptions &Opts) {
  SourceMgr SM;
  SM.AddNewSourceBuffer(MemoryBuffer::getMemBufferCopy(Source, BufferName),
                        SMLoc());
  SM.setDiagHandler(
      [](const SMDiagnostic &D, void *Ctx) {
        if (auto *Out = static_cast<std::string *>(Ctx)) {
          raw_string_ostream OS(*Out);
          D.print(nullptr, OS, /*ShowColors=*/false);
        }
      },
      Diags);
  return assemble(SM, Opts);
}

} // namespace wave
