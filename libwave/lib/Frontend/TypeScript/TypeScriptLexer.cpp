//===- TypeScriptLexer.cpp - Tokenizer of the TypeScript dialect ----------===//
//
// Splits TypeScript kernel source into tokens with the longest-match rule of
// ECMAScript punctuators. `/` is always a division punctuator (the parser
// rejects a regular expression where an operand is expected). Numbers are
// measured with scanNumber() so that a literal with a suffix (`10n`) stays
// one token; the parser evaluates and checks it. A `#!` line at the start
// and a UTF-8 byte order mark are skipped.
//
//===----------------------------------------------------------------------===//
#include "TypeScriptLexer.h"

#include "wave/Frontend/NumberLiteral.h"

#include "llvm/ADT/StringExtras.h"

using namespace wave::fe;

bool wave::fe::isTSIdentStart(char C) {
  return llvm::isAlpha(C) || C == '_' || C == '$';
}
bool wave::fe::isTSIdentChar(char C) {
  return llvm::isAlnum(C) || C == '_' || C == '$';
}

TSLexer::TSLexer(llvm::StringRef Buffer, hir::DiagnosticEngine &Diags)
    : Cur(Buffer.begin()), End(Buffer.end()), Diags(Diags) {
  llvm::StringRef B = Buffer;
  if (B.starts_with("\xEF\xBB\xBF"))
    Cur += 3;
  if (llvm::StringRef(Cur, End - Cur).starts_with("#!"))
    while (Cur != End && *Cur != '\n')
      ++Cur;
}

/// A `// @kernel` marker: the comment text after `//`, blanks skipped,
/// starts with `@kernel` and a blank or the end of the comment follows.
static llvm::StringRef kernelMarker(llvm::StringRef Body) {
  llvm::StringRef B = Body.ltrim(" \t");
  if (!B.starts_with("@kernel"))
    return {};
  llvm::StringRef Rest = B.drop_front(7);
  if (!Rest.empty() && Rest[0] != ' ' && Rest[0] != '\t' && Rest[0] != '\r')
    return {};
  return B.rtrim(" \t\r");
}

/// A `// @export` marker: the comment is `@export` alone (blanks
/// around it allowed). Returns the text from the `@`, or empty.
static llvm::StringRef exportMarker(llvm::StringRef Body) {
  llvm::StringRef B = Body.trim(" \t\r");
  return B == "@export" ? B : llvm::StringRef();
}

void TSLexer::skipTrivia(TSToken &T) {
  while (Cur != End) {
    char C = *Cur;
    if (C == '\n') {
      T.NewlineBefore = true;
      ++Cur;
    } else if (C == ' ' || C == '\t' || C == '\r' || C == '\v' || C == '\f') {
      ++Cur;
    } else if (C == '/' && Cur + 1 != End && Cur[1] == '/') {
      const char *Start = Cur + 2;
      while (Cur != End && *Cur != '\n')
        ++Cur;
      llvm::StringRef K = kernelMarker(llvm::StringRef(Start, Cur - Start));
      if (!K.empty())
        T.KernelComment = K;
      llvm::StringRef E = exportMarker(llvm::StringRef(Start, Cur - Start));
      if (!E.empty())
        T.ExportComment = llvm::SMLoc::getFromPointer(E.data());
    } else if (C == '/' && Cur + 1 != End && Cur[1] == '*') {
      const char *Start = Cur;
      Cur += 2;
      bool Closed = false;
      while (Cur != End) {
        if (*Cur == '*' && Cur + 1 != End && Cur[1] == '/') {
          Cur += 2;
          Closed = true;
          break;
        }
        if (*Cur == '\n')
          T.NewlineBefore = true;
        ++Cur;
      }
      if (!Closed)
        Diags.error(llvm::SMLoc::getFromPointer(Start),
                    "unterminated '/*' comment");
    } else {
      return;
    }
  }
}

TSToken TSLexer::next() {
  TSToken T;
  T.NewlineBefore = First;
  First = false;
  skipTrivia(T);
  const char *Start = Cur;
  if (Cur == End) {
    T.K = TSTok::Eof;
    T.Text = llvm::StringRef(End, 0);
    return T;
  }
  char C = *Cur;
  if (isTSIdentStart(C)) {
    while (Cur != End && isTSIdentChar(*Cur))
      ++Cur;
    T.K = TSTok::Ident;
  } else if (llvm::isDigit(C) ||
             (C == '.' && Cur + 1 != End && llvm::isDigit(Cur[1]))) {
    lexNumber(T);
  } else if (C == '"' || C == '\'' || C == '`') {
    lexQuoted(T, C);
  } else if (static_cast<unsigned char>(C) >= 0x80) {
    // One UTF-8 sequence, so that the message shows the character.
    ++Cur;
    while (Cur != End && Cur - Start < 4 &&
           (static_cast<unsigned char>(*Cur) & 0xC0) == 0x80)
      ++Cur;
    T.K = TSTok::Unknown;
  } else {
    lexPunct(T);
  }
  T.Text = llvm::StringRef(Start, Cur - Start);
  return T;
}

void TSLexer::lexNumber(TSToken &T) {
  NumberLiteral N = scanNumber(llvm::StringRef(Cur, End - Cur),
                               DigitSeparator::Underscore,
                               /*CLegacyOctal=*/false);
  Cur += N.Length ? N.Length : 1;
  T.K = TSTok::Number;
}

void TSLexer::lexQuoted(TSToken &T, char Quote) {
  T.K = Quote == '`' ? TSTok::Template : TSTok::String;
  ++Cur;
  while (Cur != End) {
    char C = *Cur;
    if (C == '\\') {
      Cur += (Cur + 1 != End) ? 2 : 1;
      continue;
    }
    if (C == '\n' && Quote != '`')
      break; // Unterminated; the parser rejects the token anyway.
    ++Cur;
    if (C == Quote)
      return;
  }
}

void TSLexer::lexPunct(TSToken &T) {
  // Longest match first.
  static const char *const Puncts[] = {
      ">>>=", "...", "===", "!==", "**=", "<<=", ">>=", ">>>", "&&=", "||=",
      "?\?=", "=>",  "==",  "!=",  "<=",  ">=",  "&&",  "||",  "??",  "?.",
      "++",   "--",  "+=",  "-=",  "*=",  "/=",  "%=",  "&=",  "|=",  "^=",
      "<<",   ">>",  "**"};
  llvm::StringRef Rest(Cur, End - Cur);
  T.K = TSTok::Punct;
  for (const char *P : Puncts) {
    if (!Rest.starts_with(P))
      continue;
    llvm::StringRef S(P);
    // `a?.5:b` is a conditional, not optional chaining.
    if (S == "?." && Rest.size() > 2 && llvm::isDigit(Rest[2]))
      continue;
    Cur += S.size();
    return;
  }
  if (llvm::StringRef("{}()[];,<>+-*/%&|^!~?:=.@#").contains(*Cur)) {
    ++Cur;
    return;
  }
  T.K = TSTok::Unknown;
  ++Cur;
}
