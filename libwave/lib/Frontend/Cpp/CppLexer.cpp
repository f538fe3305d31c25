//===- CppLexer.cpp - Tokenizer of the C++ kernel dialect -----------------===//
//
// Splits C++ kernel source into tokens with the longest-match rule of C++
// punctuators. Numbers are measured as C++ "pp-numbers" (digits, letters,
// `.`, `'` separators, signed exponents) so that a malformed literal stays
// one token; the parser evaluates them with scanNumber(). `#include` and
// `#pragma` lines (with `\` continuations) are skipped; any other directive
// is an error.
//
//===----------------------------------------------------------------------===//
#include "CppLexer.h"

#include "llvm/ADT/StringExtras.h"

using namespace wave::fe;

static bool isIdentStart(char C) { return llvm::isAlpha(C) || C == '_'; }
static bool isIdentChar(char C) { return llvm::isAlnum(C) || C == '_'; }

llvm::StringRef wave::fe::cppTokSpelling(CppTok K) {
  switch (K) {
  case CppTok::Eof:
    return "end of file";
  case CppTok::Ident:
    return "identifier";
  case CppTok::Number:
    return "number";
  case CppTok::String:
    return "string literal";
  case CppTok::Char:
    return "character literal";
  case CppTok::Unknown:
    return "character";
  case CppTok::LParen:
    return "(";
  case CppTok::RParen:
    return ")";
  case CppTok::LBracket:
    return "[";
  case CppTok::RBracket:
    return "]";
  case CppTok::LBrace:
    return "{";
  case CppTok::RBrace:
    return "}";
  case CppTok::Semi:
    return ";";
  case CppTok::Comma:
    return ",";
  case CppTok::Colon:
    return ":";
  case CppTok::ColonColon:
    return "::";
  case CppTok::Question:
    return "?";
  case CppTok::Dot:
    return ".";
  case CppTok::Arrow:
    return "->";
  case CppTok::Ellipsis:
    return "...";
  case CppTok::Hash:
    return "#";
  case CppTok::Plus:
    return "+";
  case CppTok::Minus:
    return "-";
  case CppTok::Star:
    return "*";
  case CppTok::Slash:
    return "/";
  case CppTok::Percent:
    return "%";
  case CppTok::Amp:
    return "&";
  case CppTok::Pipe:
    return "|";
  case CppTok::Caret:
    return "^";
  case CppTok::Tilde:
    return "~";
  case CppTok::Exclaim:
    return "!";
  case CppTok::Less:
    return "<";
  case CppTok::Greater:
    return ">";
  case CppTok::LessEq:
    return "<=";
  case CppTok::GreaterEq:
    return ">=";
  case CppTok::EqEq:
    return "==";
  case CppTok::NotEq:
    return "!=";
  case CppTok::AmpAmp:
    return "&&";
  case CppTok::PipePipe:
    return "||";
  case CppTok::LessLess:
    return "<<";
  case CppTok::GreaterGreater:
    return ">>";
  case CppTok::Equal:
    return "=";
  case CppTok::PlusEq:
    return "+=";
  case CppTok::MinusEq:
    return "-=";
  case CppTok::StarEq:
    return "*=";
  case CppTok::SlashEq:
    return "/=";
  case CppTok::PercentEq:
    return "%=";
  case CppTok::AmpEq:
    return "&=";
  case CppTok::PipeEq:
    return "|=";
  case CppTok::CaretEq:
    return "^=";
  case CppTok::LessLessEq:
    return "<<=";
  case CppTok::GreaterGreaterEq:
    return ">>=";
  case CppTok::PlusPlus:
    return "++";
  case CppTok::MinusMinus:
    return "--";
  }
  return "?";
}

void CppLexer::skipDirectiveLine() {
  while (Cur < End && *Cur != '\n') {
    if (*Cur == '\\' && Cur + 1 < End &&
        (Cur[1] == '\n' || (Cur[1] == '\r' && Cur + 2 < End && Cur[2] == '\n')))
      Cur += Cur[1] == '\r' ? 3 : 2;
    else
      ++Cur;
  }
}

void CppLexer::skipTrivia() {
  while (Cur < End) {
    char C = *Cur;
    if (C == '\n') {
      AtLineStart = true;
      ++Cur;
      continue;
    }
    if (C == ' ' || C == '\t' || C == '\r' || C == '\f' || C == '\v') {
      ++Cur;
      continue;
    }
    // A backslash-newline outside a directive joins lines; skip it.
    if (C == '\\' && Cur + 1 < End && Cur[1] == '\n') {
      Cur += 2;
      continue;
    }
    if (C == '/' && Cur + 1 < End && Cur[1] == '/') {
      while (Cur < End && *Cur != '\n')
        ++Cur;
      continue;
    }
    if (C == '/' && Cur + 1 < End && Cur[1] == '*') {
      const char *Start = Cur;
      Cur += 2;
      while (Cur + 1 < End && !(Cur[0] == '*' && Cur[1] == '/'))
        ++Cur;
      if (Cur + 1 >= End) {
        Diags.error(llvm::SMLoc::getFromPointer(Start),
                    "unterminated '/*' comment");
        Cur = End;
        return;
      }
      Cur += 2;
      continue;
    }
    if (C == '#' && AtLineStart) {
      const char *Hash = Cur++;
      while (Cur < End && (*Cur == ' ' || *Cur == '\t'))
        ++Cur;
      const char *NameStart = Cur;
      while (Cur < End && isIdentChar(*Cur))
        ++Cur;
      llvm::StringRef Name(NameStart, Cur - NameStart);
      if (Name != "include" && Name != "pragma") {
        if (Name.empty())
          Diags.error(llvm::SMLoc::getFromPointer(Hash),
                      "preprocessor directives are not supported");
        else
          Diags.error(llvm::SMLoc::getFromPointer(Hash),
                      "preprocessor directive '#" + Name +
                          "' is not supported");
      }
      skipDirectiveLine();
      continue;
    }
    return;
  }
}

CppToken CppLexer::lexNumber() {
  const char *Start = Cur;
  while (Cur < End) {
    char C = *Cur;
    if ((C == 'e' || C == 'E' || C == 'p' || C == 'P') && Cur + 1 < End &&
        (Cur[1] == '+' || Cur[1] == '-')) {
      Cur += 2;
      continue;
    }
    if (isIdentChar(C) || C == '.') {
      ++Cur;
      continue;
    }
    if (C == '\'' && Cur + 1 < End && isIdentChar(Cur[1])) {
      Cur += 2;
      continue;
    }
    break;
  }
  return make(CppTok::Number, Start);
}

CppToken CppLexer::lexQuoted(char Quote) {
  const char *Start = Cur++;
  while (Cur < End && *Cur != Quote && *Cur != '\n') {
    if (*Cur == '\\' && Cur + 1 < End && Cur[1] != '\n')
      ++Cur;
    ++Cur;
  }
  if (Cur < End && *Cur == Quote)
    ++Cur;
  return make(Quote == '"' ? CppTok::String : CppTok::Char, Start);
}

CppToken CppLexer::next() {
  skipTrivia();
  if (Cur >= End)
    return CppToken{CppTok::Eof, llvm::StringRef(End, 0)};
  AtLineStart = false;
  const char *Start = Cur;
  char C = *Cur;
  auto At = [&](size_t K) { return Cur + K < End ? Cur[K] : '\0'; };

  if (isIdentStart(C)) {
    while (Cur < End && isIdentChar(*Cur))
      ++Cur;
    return make(CppTok::Ident, Start);
  }
  if (llvm::isDigit(C) || (C == '.' && llvm::isDigit(At(1))))
    return lexNumber();
  if (C == '"' || C == '\'')
    return lexQuoted(C);

  // Punctuators, longest match first.
  struct Punct {
    const char *Spelling;
    CppTok K;
  };
  static const Punct Puncts[] = {
      {"<<=", CppTok::LessLessEq},
      {">>=", CppTok::GreaterGreaterEq},
      {"...", CppTok::Ellipsis},
      {"::", CppTok::ColonColon},
      {"->", CppTok::Arrow},
      {"<=", CppTok::LessEq},
      {">=", CppTok::GreaterEq},
      {"==", CppTok::EqEq},
      {"!=", CppTok::NotEq},
      {"&&", CppTok::AmpAmp},
      {"||", CppTok::PipePipe},
      {"<<", CppTok::LessLess},
      {">>", CppTok::GreaterGreater},
      {"+=", CppTok::PlusEq},
      {"-=", CppTok::MinusEq},
      {"*=", CppTok::StarEq},
      {"/=", CppTok::SlashEq},
      {"%=", CppTok::PercentEq},
      {"&=", CppTok::AmpEq},
      {"|=", CppTok::PipeEq},
      {"^=", CppTok::CaretEq},
      {"++", CppTok::PlusPlus},
      {"--", CppTok::MinusMinus},
      {"(", CppTok::LParen},
      {")", CppTok::RParen},
      {"[", CppTok::LBracket},
      {"]", CppTok::RBracket},
      {"{", CppTok::LBrace},
      {"}", CppTok::RBrace},
      {";", CppTok::Semi},
      {",", CppTok::Comma},
      {":", CppTok::Colon},
      {"?", CppTok::Question},
      {".", CppTok::Dot},
      {"#", CppTok::Hash},
      {"+", CppTok::Plus},
      {"-", CppTok::Minus},
      {"*", CppTok::Star},
      {"/", CppTok::Slash},
      {"%", CppTok::Percent},
      {"&", CppTok::Amp},
      {"|", CppTok::Pipe},
      {"^", CppTok::Caret},
      {"~", CppTok::Tilde},
      {"!", CppTok::Exclaim},
      {"<", CppTok::Less},
      {">", CppTok::Greater},
      {"=", CppTok::Equal},
  };
  llvm::StringRef Rest(Cur, End - Cur);
  for (const Punct &P : Puncts) {
    if (Rest.starts_with(P.Spelling)) {
      Cur += llvm::StringRef(P.Spelling).size();
      return make(P.K, Start);
    }
  }
  // One byte, or a whole UTF-8 sequence so that messages quote a
  // character rather than a fragment of one.
  ++Cur;
  if (static_cast<unsigned char>(C) >= 0xC0)
    while (Cur < End && (static_cast<unsigned char>(*Cur) & 0xC0) == 0x80 &&
           Cur - Start < 4)
      ++Cur;
  return make(CppTok::Unknown, Start);
}
