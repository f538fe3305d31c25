//===- wave-fe.cpp - Kernel source to MIR ---------------------------------===//
//
// wave-fe [--lang python|cpp|rust|typescript] [--emit=ast|hir|mir]
//         [--kernel NAME] [--workgroup-size X[,Y[,Z]]] [-o FILE] [FILE|-]
// parses a kernel source file (formats/kernel-languages.md) into HIR,
// checks it and lowers it to MIR text (formats/mir.md). The language comes
// from the file extension unless --lang gives it. Exit codes: 0 ok, 1 bad
// input (every error of the file is reported), 2 usage or I/O error.
//
//===----------------------------------------------------------------------===//
#include "wave/Driver/Compiler.h"
#include "wave/Frontend/Frontend.h"
#include "wave/HIR/HIRPrinter.h"
#include "wave/HIR/Lowering.h"
#include "wave/HIR/Sema.h"
#include "wave/IR/MIRPrinter.h"
#include "wave/IR/Verifier.h"
#include "wave/Support/SourceDiagnostic.h"
#include "wave/Tool/Tool.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SourceMgr.h"

using namespace wave;
using namespace wave::tool;

static constexpr const char *ToolName = "wave-fe";

/// \p Path with the OLD prefix of the last matching OLD=NEW in \p Maps
/// replaced by NEW (clang's -fdebug-prefix-map rule), so that builds in
/// different directories write the same bytes.
static std::string remapPrefix(llvm::StringRef Path,
                               llvm::ArrayRef<std::string> Maps) {
  for (const std::string &M : llvm::reverse(Maps)) {
    auto [Old, New] = llvm::StringRef(M).split('=');
    if (Path.starts_with(Old))
      return (New + Path.drop_front(Old.size())).str();
  }
  return Path.str();
}

int main(int Argc, char **Argv) {
  auto App = makeApp(ToolName, "Compile a Python, C++, Rust or TypeScript "
                               "kernel to MIR");
  std::string Lang, Emit = "mir", Kernel, WGSize, Output = "-", Input = "-";
  std::string CppFrontend = "clang";
  App->add_option("--lang,-x", Lang,
                  "Source language (default: from the file extension)")
      ->check(CLI::IsMember({"python", "py", "cpp", "c++", "rust", "rs",
                             "typescript", "ts"})
                  .description(""))
      ->type_name("python|cpp|rust|typescript");
  App->add_option("--cpp-frontend", CppFrontend,
                  "C++ parser: Clang's front end (clang, the default) or "
                  "the dialect's own (builtin)")
      ->check(CLI::IsMember({"builtin", "clang"}).description(""))
      ->type_name("builtin|clang");
  App->add_option("--emit", Emit,
                  "mir: MIR text (default); hir: checked HIR; ast: HIR as "
                  "parsed, before checking")
      ->check(CLI::IsMember({"ast", "hir", "mir"}).description(""))
      ->type_name("ast|hir|mir");
  App->add_option("--kernel", Kernel,
                  "Emit only kernel NAME and the device functions it calls")
      ->type_name("NAME");
  App->add_option("--workgroup-size", WGSize,
                  "Workgroup size of kernels that do not give one "
                  "(default 256,1,1)")
      ->type_name("X[,Y[,Z]]");
  std::vector<std::string> PrefixMaps;
  App->add_option("--debug-prefix-map", PrefixMaps,
                  "Record the source path with prefix OLD replaced by NEW in "
                  "the MIR's source_filename (clang's -fdebug-prefix-map; "
                  "repeatable, the last matching OLD wins)")
      ->type_name("OLD=NEW")
      ->check([](const std::string &V) {
        return V.find('=') == std::string::npos ? "expected OLD=NEW" : "";
      });
  App->add_option("-o,--output", Output, "Write to FILE ('-' for stdout)")
      ->type_name("FILE");
  App->add_option("input", Input, "Kernel source file ('-' for stdin)")
      ->type_name("FILE");

  return runMain(*App, Argc, Argv, [&]() -> int {
    hir::LoweringOptions Opts;
    if (!WGSize.empty()) {
      std::optional<std::array<uint32_t, 3>> WG =
          driver::parseWorkgroupSize(WGSize);
      if (!WG) {
        printError(ToolName, "--workgroup-size: expected X[,Y[,Z]] with each "
                             "dimension 1-1024, got '" +
                                 WGSize + "'");
        return ExitUsage;
      }
      Opts.DefaultWorkgroupSize = *WG;
    }
    std::optional<hir::Language> L =
        Lang.empty() ? hir::languageForPath(Input)
                     : hir::parseLanguageName(Lang);
    if (!L) {
      printError(ToolName, "cannot tell the language of '" +
                               displayName(Input) +
                               "'; use --lang python|cpp|rust|typescript");
      return ExitUsage;
    }
    auto Buf = readInput(Input);
    if (!Buf) {
      printFileError(ToolName, displayName(Input), Buf.takeError());
      return ExitUsage;
    }
    if (rejectEmptyInput(ToolName, Input, (*Buf)->getBuffer()))
      return ExitInvalidInput;
    llvm::SourceMgr SM;
    std::unique_ptr<llvm::MemoryBuffer> Owned = llvm::MemoryBuffer::
        getMemBufferCopy((*Buf)->getBuffer(), displayName(Input));
    unsigned BufID = SM.AddNewSourceBuffer(std::move(Owned), llvm::SMLoc());

    hir::DiagnosticEngine Diags;
    std::unique_ptr<hir::Module> M =
        *L == hir::Language::Cpp && CppFrontend == "builtin"
            ? fe::parseCpp(SM, BufID, Diags)
            : fe::parseSource(*L, SM, BufID, Diags);
    if (Emit != "ast" && !Diags.hasErrors())
      hir::checkModule(*M, Diags);
    if (!Kernel.empty() && !Diags.hasErrors()) {
      const hir::FunctionDecl *K = M->function(Kernel);
      if (!K || !K->IsKernel) {
        printError(ToolName, "no kernel named '" + Kernel + "' in '" +
                                 displayName(Input) + "'");
        return ExitInvalidInput;
      }
      Opts.OnlyKernel = Kernel;
    }
    if (Diags.hasErrors()) {
      printSourceDiagnostics(Diags.takeError(), SM, ToolName, llvm::errs());
      return ExitInvalidInput;
    }
    if (Emit == "ast" || Emit == "hir")
      return exitCodeFor(writeOutput(
          ToolName, Output, /*Binary=*/false, /*Force=*/false,
          [&](llvm::raw_ostream &OS) {
            hir::printModule(*M, OS);
            return llvm::Error::success();
          }));

    Opts.SM = &SM;
    Opts.SourceFile = remapPrefix(displayName(Input), PrefixMaps);
    std::unique_ptr<mir::Module> MM = hir::lowerModule(*M, Opts);
    if (llvm::Error E = mir::verifyModule(*MM)) {
      // A lowering bug, not the user's: say so rather than blame the input.
      printSourceDiagnostics(std::move(E), SM, ToolName, llvm::errs(),
                             "internal error: lowered MIR is invalid: ");
      return ExitInvalidInput;
    }
    return exitCodeFor(writeOutput(ToolName, Output, /*Binary=*/false,
                                   /*Force=*/false,
                                   [&](llvm::raw_ostream &OS) {
                                     mir::printModule(*MM, OS);
                                     return llvm::Error::success();
                                   }));
  });
}
