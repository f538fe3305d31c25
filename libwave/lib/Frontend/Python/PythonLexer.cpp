//===- PythonLexer.cpp - Tokenizer of the Python kernel dialect -----------===//
//
// Implements tokenizePython(): one left-to-right pass over the buffer that
// tracks the open brackets (inside them newlines join lines) and the stack
// of indentation columns (at the start of each logical line, a deeper
// column pushes an INDENT, a shallower one pops DEDENTs down to a column
// on the stack; a column between two levels is "unindent does not match"
// and the line stays in the inner block). An unclosed bracket would
// swallow the rest of the file into one logical line, so a physical line
// that starts with a statement-only keyword (`def`, `return`, ...) ends
// the bracketed line early, and a file with an unclosed bracket is
// tokenized again in recovery mode, where a line not indented deeper than
// the bracket's logical line ends it too. The parser then reports the
// missing closer with a note at the opener.
//
//===----------------------------------------------------------------------===//
#include "PythonLexer.h"

#include "wave/Frontend/NumberLiteral.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <cstring>
#include <string>

using namespace wave::fe;

namespace {

bool isIdentStart(char C) { return llvm::isAlpha(C) || C == '_'; }
bool isIdentChar(char C) { return llvm::isAlnum(C) || C == '_'; }
bool isNewlineChar(char C) { return C == '\n' || C == '\r'; }

/// Keywords that can only start a statement: a physical line inside
/// brackets that starts with one of them means a bracket was never closed.
bool isStatementOnlyKeyword(llvm::StringRef S) {
  return llvm::StringSwitch<bool>(S)
      .Cases({"def", "class", "return", "while", "elif", "break", "continue",
              "pass", "import", "global", "nonlocal", "try", "except",
              "finally", "with", "raise", "assert", "del"},
             true)
      .Default(false);
}

class Lexer {
public:
  Lexer(llvm::StringRef Buffer, bool Recovery)
      : Cur(Buffer.begin()), End(Buffer.end()), Recovery(Recovery) {}

  std::vector<PyToken> run();

  std::vector<PyLexError> Errors;
  /// A bracket was still open at a statement keyword or at the end.
  bool SawUnclosed = false;

private:
  void lineStart();
  void lexToken();
  void lexNumber();
  void lexString(const char *Start, const char *Quote);
  void newline();
  /// Whether the next non-blank physical line (from Cur, just past a
  /// newline) starts a new statement although a bracket is open: it starts
  /// with a statement-only keyword or, in recovery mode, it is not
  /// indented deeper than the logical line the bracket is on.
  bool nextLineStartsStatement() const;
  void skipNewline() {
    if (*Cur == '\r' && Cur + 1 < End && Cur[1] == '\n')
      ++Cur;
    ++Cur;
  }
  void push(PyTok K, const char *Start) {
    PyToken T;
    T.K = K;
    T.Text = llvm::StringRef(Start, Cur - Start);
    Toks.push_back(T);
    LastEnd = Cur;
  }
  void pushEmpty(PyTok K, const char *At) {
    PyToken T;
    T.K = K;
    T.Text = llvm::StringRef(At, 0);
    Toks.push_back(T);
  }
  bool lastIsLineEnd() const {
    return Toks.empty() || Toks.back().is(PyTok::Newline);
  }
  char peek(size_t K) const { return Cur + K < End ? Cur[K] : '\0'; }
  /// Records an error found before the next token is pushed (or, with
  /// \p OnLastToken, about the token just pushed).
  void error(const char *At, const llvm::Twine &Msg, bool OnLastToken = false) {
    size_t Index = Toks.size() - (OnLastToken && !Toks.empty() ? 1 : 0);
    Errors.push_back({Index, llvm::SMLoc::getFromPointer(At), Msg.str()});
  }

  const char *Cur;
  const char *End;
  bool Recovery;
  /// Indentation column of the current logical line.
  unsigned LineCol = 0;
  std::vector<PyToken> Toks;
  std::vector<unsigned> Indents{0};
  /// Open brackets, innermost last (only their count matters here).
  unsigned Brackets = 0;
  bool AtLineStart = true;
  /// Just past the last real token: where a NEWLINE is reported.
  const char *LastEnd = nullptr;
};

} // namespace

std::vector<PyToken> Lexer::run() {
  LastEnd = Cur;
  while (Cur < End) {
    if (AtLineStart && Brackets == 0) {
      lineStart();
      continue;
    }
    lexToken();
  }
  if (Brackets)
    SawUnclosed = true;
  if (!lastIsLineEnd())
    pushEmpty(PyTok::Newline, LastEnd);
  for (size_t I = 1; I < Indents.size(); ++I)
    pushEmpty(PyTok::Dedent, End);
  pushEmpty(PyTok::Eof, End);
  return std::move(Toks);
}

/// Measures the indentation of a new logical line; blank and comment-only
/// lines are consumed whole and change nothing.
void Lexer::lineStart() {
  unsigned Col = 0;
  while (Cur < End) {
    if (*Cur == ' ')
      ++Col;
    else if (*Cur == '\t')
      Col = (Col / 8 + 1) * 8;
    else if (*Cur == '\f')
      Col = 0;
    else
      break;
    ++Cur;
  }
  if (Cur == End)
    return;
  if (*Cur == '#') {
    while (Cur < End && !isNewlineChar(*Cur))
      ++Cur;
  }
  if (Cur == End)
    return;
  if (isNewlineChar(*Cur)) {
    skipNewline();
    return;
  }
  AtLineStart = false;
  LineCol = Col;
  if (Col > Indents.back()) {
    Indents.push_back(Col);
    pushEmpty(PyTok::Indent, Cur);
    return;
  }
  while (Col < Indents.back()) {
    if (Col > Indents[Indents.size() - 2]) {
      // Between two levels: report it and keep the line in the inner
      // block, so that the block structure (and the parse) goes on.
      error(Cur, "unindent does not match any outer indentation level");
      return;
    }
    Indents.pop_back();
    pushEmpty(PyTok::Dedent, Cur);
  }
}

void Lexer::newline() {
  skipNewline();
  if (Brackets != 0) {
    if (!nextLineStartsStatement())
      return;
    // A bracket was left open; end the logical line here so that the rest
    // of the file still parses (the parser reports the missing closer).
    Brackets = 0;
    SawUnclosed = true;
  }
  if (!lastIsLineEnd())
    pushEmpty(PyTok::Newline, LastEnd);
  AtLineStart = true;
}

bool Lexer::nextLineStartsStatement() const {
  // Only the next physical line is looked at (a blank or comment line
  // says nothing; the newline that ends it asks again), which keeps the
  // lexer linear.
  const char *P = Cur;
  while (P < End && (*P == ' ' || *P == '\t' || *P == '\f'))
    ++P;
  const char *W = P;
  while (P < End && isIdentChar(*P))
    ++P;
  if (isStatementOnlyKeyword(llvm::StringRef(W, P - W)))
    return true;
  if (!Recovery || W == End || llvm::is_contained(")]}#\r\n", *W))
    return false;
  // Measure the column of W (Cur is the start of its line) as lineStart()
  // would.
  unsigned Col = 0;
  for (const char *L = Cur; L < W; ++L)
    Col = *L == '\t' ? (Col / 8 + 1) * 8 : *L == '\f' ? 0 : Col + 1;
  return Col <= LineCol;
}

void Lexer::lexToken() {
  char C = *Cur;
  if (C == ' ' || C == '\t' || C == '\f') {
    ++Cur;
    return;
  }
  if (C == '#') {
    while (Cur < End && !isNewlineChar(*Cur))
      ++Cur;
    return;
  }
  if (isNewlineChar(C)) {
    newline();
    return;
  }
  if (C == '\\') {
    if (Cur + 1 < End && isNewlineChar(Cur[1])) {
      ++Cur;
      skipNewline();
      if (Cur == End)
        error(Cur - 1, "unexpected end of file after line continuation "
                       "character");
      return;
    }
    error(Cur, "unexpected character after line continuation character");
    ++Cur;
    return;
  }
  const char *Start = Cur;
  if (llvm::isDigit(C) || (C == '.' && llvm::isDigit(peek(1)))) {
    lexNumber();
    return;
  }
  if (isIdentStart(C)) {
    while (Cur < End && isIdentChar(*Cur))
      ++Cur;
    // A string prefix (r, b, u, f and their pairs) right before a quote.
    if (Cur < End && (*Cur == '\'' || *Cur == '"') && Cur - Start <= 2 &&
        llvm::all_of(llvm::StringRef(Start, Cur - Start), [](char P) {
          return llvm::is_contained("rRbBuUfF", P);
        })) {
      lexString(Start, Cur);
      return;
    }
    push(PyTok::Ident, Start);
    return;
  }
  if (C == '\'' || C == '"') {
    lexString(Start, Cur);
    return;
  }
  if (static_cast<unsigned char>(C) >= 0x80) {
    while (Cur < End && static_cast<unsigned char>(*Cur) >= 0x80)
      ++Cur;
    push(PyTok::Unknown, Start);
    return;
  }

  // Punctuation: longest match first.
  struct Punct {
    const char *S;
    PyTok K;
  };
  static const Punct Puncts[] = {
      {"**=", PyTok::StarStarEq},
      {"//=", PyTok::SlashSlashEq},
      {"<<=", PyTok::LessLessEq},
      {">>=", PyTok::GreaterGreaterEq},
      {"...", PyTok::Ellipsis},
      {"**", PyTok::StarStar},
      {"//", PyTok::SlashSlash},
      {"<<", PyTok::LessLess},
      {">>", PyTok::GreaterGreater},
      {"<=", PyTok::LessEq},
      {">=", PyTok::GreaterEq},
      {"==", PyTok::EqEq},
      {"!=", PyTok::NotEq},
      {"->", PyTok::Arrow},
      {":=", PyTok::Walrus},
      {"+=", PyTok::PlusEq},
      {"-=", PyTok::MinusEq},
      {"*=", PyTok::StarEq},
      {"/=", PyTok::SlashEq},
      {"%=", PyTok::PercentEq},
      {"&=", PyTok::AmpEq},
      {"|=", PyTok::PipeEq},
      {"^=", PyTok::CaretEq},
      {"@=", PyTok::AtEq},
      {"(", PyTok::LParen},
      {")", PyTok::RParen},
      {"[", PyTok::LBracket},
      {"]", PyTok::RBracket},
      {"{", PyTok::LBrace},
      {"}", PyTok::RBrace},
      {":", PyTok::Colon},
      {",", PyTok::Comma},
      {";", PyTok::Semi},
      {".", PyTok::Dot},
      {"@", PyTok::At},
      {"=", PyTok::Equal},
      {"+", PyTok::Plus},
      {"-", PyTok::Minus},
      {"*", PyTok::Star},
      {"/", PyTok::Slash},
      {"%", PyTok::Percent},
      {"&", PyTok::Amp},
      {"|", PyTok::Pipe},
      {"^", PyTok::Caret},
      {"~", PyTok::Tilde},
      {"<", PyTok::Less},
      {">", PyTok::Greater},
  };
  llvm::StringRef Rest(Cur, End - Cur);
  for (const Punct &P : Puncts) {
    if (!Rest.starts_with(P.S))
      continue;
    Cur += std::strlen(P.S);
    if (P.K == PyTok::LParen || P.K == PyTok::LBracket || P.K == PyTok::LBrace)
      ++Brackets;
    else if ((P.K == PyTok::RParen || P.K == PyTok::RBracket ||
              P.K == PyTok::RBrace) &&
             Brackets)
      --Brackets;
    push(P.K, Start);
    return;
  }
  ++Cur;
  push(PyTok::Unknown, Start);
}

void Lexer::lexNumber() {
  const char *Start = Cur;
  NumberLiteral N =
      scanNumber(llvm::StringRef(Cur, End - Cur), DigitSeparator::Underscore,
                 /*CLegacyOctal=*/false);
  if (N.Length == 0)
    N.Length = 1;
  Cur += N.Length;
  push(PyTok::Number, Start);
  PyToken &T = Toks.back();
  T.IsFloat = N.IsFloat;
  T.IntValue = N.IntValue;
  T.FloatValue = N.FloatValue;
  llvm::StringRef Digits = T.Text.drop_back(N.Suffix.size());
  if (!N.Error.empty()) {
    error(Start, N.Error, true);
    T.Reported = true;
  } else if (!N.Suffix.empty()) {
    if (N.Suffix.equals_insensitive("j"))
      error(N.Suffix.data(),
            "complex literals are not supported in WAVE kernels", true);
    else
      error(N.Suffix.data(),
            "invalid suffix '" + N.Suffix +
                "' on number literal; Python number "
                "literals take no suffix",
            true);
    T.Reported = true;
  } else if (!N.IsFloat && Digits.size() > 1 && Digits[0] == '0' &&
             (llvm::isDigit(Digits[1]) || Digits[1] == '_') &&
             Digits.find_first_of("123456789") != llvm::StringRef::npos) {
    error(Start,
          "leading zeros in decimal integer literals are not "
          "permitted; use an '0o' prefix for octal integers",
          true);
    T.Reported = true;
  }
}

/// Scans a string literal whose prefix starts at \p Start and whose
/// opening quote is at \p Quote (== Cur).
void Lexer::lexString(const char *Start, const char *Quote) {
  char Q = *Quote;
  bool Triple = peek(1) == Q && peek(2) == Q;
  Cur += Triple ? 3 : 1;
  bool Closed = false;
  while (Cur < End) {
    char C = *Cur;
    if (C == '\\') {
      ++Cur;
      if (Cur < End)
        skipNewline();
      continue;
    }
    if (!Triple && isNewlineChar(C))
      break;
    if (C == Q && (!Triple || (peek(1) == Q && peek(2) == Q))) {
      Cur += Triple ? 3 : 1;
      Closed = true;
      break;
    }
    ++Cur;
  }
  push(PyTok::String, Start);
  if (!Closed) {
    error(Start,
          Triple ? "unterminated triple-quoted string literal"
                 : "unterminated string literal",
          true);
    Toks.back().Reported = true;
  }
}

std::vector<PyToken> wave::fe::tokenizePython(llvm::StringRef Buffer,
                                              std::vector<PyLexError> &Errors) {
  Lexer L(Buffer, /*Recovery=*/false);
  std::vector<PyToken> Toks = L.run();
  if (L.SawUnclosed) {
    // Only a file with an unclosed bracket is tokenized in recovery mode,
    // so valid files never depend on the indentation heuristic.
    Lexer R(Buffer, /*Recovery=*/true);
    Toks = R.run();
    Errors = std::move(R.Errors);
    return Toks;
  }
  Errors = std::move(L.Errors);
  return Toks;
}

bool wave::fe::isPythonKeyword(llvm::StringRef S) {
  return llvm::StringSwitch<bool>(S)
      .Cases({"False",  "None",     "True",  "and",    "as",       "assert",
              "async",  "await",    "break", "class",  "continue", "def",
              "del",    "elif",     "else",  "except", "finally",  "for",
              "from",   "global",   "if",    "import", "in",       "is",
              "lambda", "nonlocal", "not",   "or",     "pass",     "raise",
              "return", "try",      "while", "with",   "yield"},
             true)
      .Default(false);
}

llvm::StringRef wave::fe::pyTokSpelling(PyTok K) {
  switch (K) {
  case PyTok::Eof:
    return "end of file";
  case PyTok::Newline:
    return "end of line";
  case PyTok::Indent:
    return "indent";
  case PyTok::Dedent:
    return "dedent";
  case PyTok::Ident:
    return "identifier";
  case PyTok::Number:
    return "number";
  case PyTok::String:
    return "string";
  case PyTok::Unknown:
    return "character";
  case PyTok::LParen:
    return "'('";
  case PyTok::RParen:
    return "')'";
  case PyTok::LBracket:
    return "'['";
  case PyTok::RBracket:
    return "']'";
  case PyTok::LBrace:
    return "'{'";
  case PyTok::RBrace:
    return "'}'";
  case PyTok::Colon:
    return "':'";
  case PyTok::Comma:
    return "','";
  case PyTok::Semi:
    return "';'";
  case PyTok::Dot:
    return "'.'";
  case PyTok::Ellipsis:
    return "'...'";
  case PyTok::Arrow:
    return "'->'";
  case PyTok::At:
    return "'@'";
  case PyTok::Equal:
    return "'='";
  case PyTok::Walrus:
    return "':='";
  case PyTok::Plus:
    return "'+'";
  case PyTok::Minus:
    return "'-'";
  case PyTok::Star:
    return "'*'";
  case PyTok::StarStar:
    return "'**'";
  case PyTok::Slash:
    return "'/'";
  case PyTok::SlashSlash:
    return "'//'";
  case PyTok::Percent:
    return "'%'";
  case PyTok::LessLess:
    return "'<<'";
  case PyTok::GreaterGreater:
    return "'>>'";
  case PyTok::Amp:
    return "'&'";
  case PyTok::Pipe:
    return "'|'";
  case PyTok::Caret:
    return "'^'";
  case PyTok::Tilde:
    return "'~'";
  case PyTok::Less:
    return "'<'";
  case PyTok::LessEq:
    return "'<='";
  case PyTok::Greater:
    return "'>'";
  case PyTok::GreaterEq:
    return "'>='";
  case PyTok::EqEq:
    return "'=='";
  case PyTok::NotEq:
    return "'!='";
  case PyTok::PlusEq:
    return "'+='";
  case PyTok::MinusEq:
    return "'-='";
  case PyTok::StarEq:
    return "'*='";
  case PyTok::SlashEq:
    return "'/='";
  case PyTok::SlashSlashEq:
    return "'//='";
  case PyTok::PercentEq:
    return "'%='";
  case PyTok::AmpEq:
    return "'&='";
  case PyTok::PipeEq:
    return "'|='";
  case PyTok::CaretEq:
    return "'^='";
  case PyTok::LessLessEq:
    return "'<<='";
  case PyTok::GreaterGreaterEq:
    return "'>>='";
  case PyTok::StarStarEq:
    return "'**='";
  case PyTok::AtEq:
    return "'@='";
  }
  return "token";
}
