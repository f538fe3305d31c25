//===- Compiler.cpp - The whole compiler pipeline in one process ----------===//
//
// Each stage below is the body of one single tool, in the same order of
// calls: tools/wave-fe (parse, check, lower, verify, print MIR),
// tools/wave-opt (parse, verify, run the -O pipeline, print), tools/wave-ra
// (parse, verify, compileModule) and tools/wave-as (assemble, link on its
// own, write the .wbin or run the AMDGCN or NVPTX stage). Passing text
// between the stages, rather than the in-memory modules, is deliberate: the
// printers are canonical (docs/conventions.md §4), so what the next stage
// parses is what it would read from a pipe, and the bytes cannot drift from
// the single tools'.
//
//===----------------------------------------------------------------------===//
#include "wave/Driver/Compiler.h"

#include "wave/AMDGCN/Driver.h"
#include "wave/Asm/AsmParser.h"
#include "wave/CodeGen/CodeGen.h"
#include "wave/Frontend/Frontend.h"
#include "wave/HIR/HIRPrinter.h"
#include "wave/HIR/Lowering.h"
#include "wave/HIR/Sema.h"
#include "wave/IR/MIRParser.h"
#include "wave/IR/MIRPrinter.h"
#include "wave/IR/Verifier.h"
#include "wave/Link/Linker.h"
#include "wave/NVPTX/Translate.h"
#include "wave/Object/Wbin.h"
#include "wave/Support/SourceDiagnostic.h"
#include "wave/Tool/Tool.h"
#include "wave/Transforms/Pass.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace wave::driver {

static constexpr const char *NVPTXTriple = "nvptx64-nvidia-cuda";

StringRef emitKindName(EmitKind K) {
  switch (K) {
  case EmitKind::AST:
    return "ast";
  case EmitKind::HIR:
    return "hir";
  case EmitKind::MIR:
    return "mir";
  case EmitKind::LIR:
    return "lir";
  case EmitKind::Asm:
    return "asm";
  case EmitKind::Object:
    return "wbin";
  }
  llvm_unreachable("unknown EmitKind");
}

std::optional<EmitKind> parseEmitKind(StringRef S) {
  for (EmitKind K : {EmitKind::AST, EmitKind::HIR, EmitKind::MIR, EmitKind::LIR,
                     EmitKind::Asm, EmitKind::Object})
    if (S == emitKindName(K))
      return K;
  return std::nullopt;
}

std::string checkOptions(const CompilerOptions &Opts) {
  std::string AMDGCN = amdgcn::AMDGCNTriple;
  const std::string &T = Opts.Target;
  if (T != WaveTriple && T != AMDGCN && T != NVPTXTriple)
    return "unknown target '" + T + "'; supported: wave, " + AMDGCN + ", " +
           NVPTXTriple;
  if (Opts.Relocatable && Opts.Emit != EmitKind::Object)
    return "-c cannot be used with --emit=" + emitKindName(Opts.Emit).str() +
           " (it writes a relocatable .wbin)";
  if (T == WaveTriple) {
    if (!Opts.MCPU.empty())
      return "--mcpu needs --target=" + AMDGCN + " or " + NVPTXTriple;
    return "";
  }
  // The other targets translate an executable .wbin: the stages before it
  // are the wave target's, so stopping early names no target.
  if (Opts.Relocatable)
    return "-c cannot be used with --target=" + T;
  if (Opts.Emit != EmitKind::Object)
    return "--emit=" + emitKindName(Opts.Emit).str() +
           " cannot be used with --target=" + T +
           " (the stages before the target's are the same for every target)";
  if (T == NVPTXTriple) {
    if (!Opts.MCPU.empty())
      if (Expected<unsigned> SM = nvptx::parseMCPU(Opts.MCPU); !SM)
        return toString(SM.takeError());
    return "";
  }
  if (Opts.MCPU.empty())
    return "--target=" + AMDGCN +
           " needs --mcpu=CPU; supported: " + amdgcn::supportedTargetList();
  if (!amdgcn::lookupTarget(Opts.MCPU))
    return "unknown processor '" + Opts.MCPU +
           "'; supported: " + amdgcn::supportedTargetList();
  return "";
}

std::optional<std::array<uint32_t, 3>> parseWorkgroupSize(StringRef S) {
  SmallVector<StringRef, 3> Parts;
  S.split(Parts, ',');
  if (Parts.empty() || Parts.size() > 3)
    return std::nullopt;
  std::array<uint32_t, 3> Out = {1, 1, 1};
  for (size_t I = 0; I < Parts.size(); ++I) {
    unsigned V;
    if (Parts[I].trim().getAsInteger(10, V) || V == 0 || V > 1024)
      return std::nullopt;
    Out[I] = V;
  }
  return Out;
}

bool isBinaryOutput(const CompilerOptions &Opts) {
  return Opts.Emit == EmitKind::Object && Opts.Target != NVPTXTriple;
}

std::string defaultOutputPath(StringRef Input, const CompilerOptions &Opts) {
  if (Opts.Emit != EmitKind::Object || Input == "-")
    return "-";
  SmallString<256> P(Input);
  sys::path::replace_extension(P, Opts.Target == NVPTXTriple  ? "ptx"
                                  : Opts.Target == WaveTriple ? "wbin"
                                                              : "hsaco");
  return std::string(P);
}

/// \p Word as one shell word: as is when it has no character the shell
/// treats specially, else single-quoted ('\'' for a quote).
static std::string shellWord(StringRef Word) {
  auto Plain = [](char C) {
    return isAlnum(C) || StringRef("_-./=,:+@%^").contains(C);
  };
  if (!Word.empty() && all_of(Word, Plain))
    return Word.str();
  std::string Q = "'";
  for (char C : Word)
    Q += C == '\'' ? std::string("'\\''") : std::string(1, C);
  return Q + "'";
}

std::string equivalentPipe(StringRef Input, StringRef Output,
                           const CompilerOptions &Opts) {
  std::string S = "wave-fe";
  auto Arg = [&](const Twine &W) { S += " " + shellWord(W.str()); };
  if (hir::languageForPath(Input) != Opts.Lang)
    Arg("--lang=" + hir::languageName(Opts.Lang));
  if (Opts.Emit == EmitKind::AST || Opts.Emit == EmitKind::HIR)
    Arg("--emit=" + emitKindName(Opts.Emit));
  if (!Opts.Kernel.empty())
    Arg("--kernel=" + Opts.Kernel);
  if (Opts.WorkgroupSize) {
    const auto &W = *Opts.WorkgroupSize;
    Arg("--workgroup-size=" + Twine(W[0]) + "," + Twine(W[1]) + "," +
        Twine(W[2]));
  }
  if (Input != "-")
    Arg(Input);
  if (Opts.Emit >= EmitKind::MIR)
    S += " | wave-opt -O" + std::to_string(Opts.OptLevel);
  if (Opts.Emit >= EmitKind::LIR) {
    S += " | wave-ra";
    if (Opts.MaxRegisters != 32)
      Arg("--max-registers=" + Twine(Opts.MaxRegisters));
    if (Opts.Emit == EmitKind::LIR)
      Arg("--emit=lir");
  }
  if (Opts.Emit == EmitKind::Object) {
    S += " | wave-as";
    if (Opts.Relocatable)
      Arg("-c");
    if (Opts.Target != WaveTriple)
      Arg("--target=" + Opts.Target);
    if (!Opts.MCPU.empty())
      Arg("--mcpu=" + Opts.MCPU);
  }
  // wave-as writes stdout for stdin by default; every text stage does.
  if (Output != "-" || (Opts.Emit == EmitKind::Object && Input != "-")) {
    Arg("-o");
    Arg(Output);
  }
  return S;
}

/// Prints "TOOL: error: MESSAGE" to \p Diags: tool::printError() for
/// stderr, the same words without colour for any other stream.
static void printError(raw_ostream &Diags, StringRef ToolName,
                       const Twine &Message) {
  if (&Diags == &errs()) {
    tool::printError(ToolName, Message);
    return;
  }
  Diags << ToolName << ": error: " << Message << "\n";
}

/// A SourceMgr holding a copy of \p Text named \p Name; its buffer ID is 1.
static void addBuffer(SourceMgr &SM, StringRef Text, StringRef Name) {
  SM.AddNewSourceBuffer(MemoryBuffer::getMemBufferCopy(Text, Name), SMLoc());
}

/// Parses and verifies the MIR text \p Text (named \p Name in diagnostics)
/// as wave-opt and wave-ra do first. Prints the diagnostics on failure.
static std::unique_ptr<mir::Module> readMIR(StringRef ToolName, StringRef Text,
                                            StringRef Name, SourceMgr &SM,
                                            raw_ostream &Diags) {
  addBuffer(SM, Text, Name);
  Expected<std::unique_ptr<mir::Module>> M = mir::parseMIR(SM, 1);
  if (!M) {
    printSourceDiagnostics(M.takeError(), SM, ToolName, Diags);
    return nullptr;
  }
  if (Error E = mir::verifyModule(**M)) {
    printSourceDiagnostics(std::move(E), SM, ToolName, Diags);
    return nullptr;
  }
  return std::move(*M);
}

/// The wave-fe stage: source to HIR (AST, HIR) or MIR text in \p Out.
static int runFrontend(StringRef ToolName, StringRef Source, StringRef Input,
                       const CompilerOptions &Opts, std::string &Out,
                       raw_ostream &DiagOS) {
  SourceMgr SM;
  addBuffer(SM, Source, tool::displayName(Input));
  hir::DiagnosticEngine Diags;
  std::unique_ptr<hir::Module> M = fe::parseSource(Opts.Lang, SM, 1, Diags);
  if (Opts.Emit != EmitKind::AST && !Diags.hasErrors())
    hir::checkModule(*M, Diags);
  hir::LoweringOptions LOpts;
  if (!Opts.Kernel.empty() && !Diags.hasErrors()) {
    const hir::FunctionDecl *K = M->function(Opts.Kernel);
    if (!K || !K->IsKernel) {
      printError(DiagOS, ToolName,
                 "no kernel named '" + Opts.Kernel + "' in '" +
                     tool::displayName(Input) + "'");
      return tool::ExitInvalidInput;
    }
    LOpts.OnlyKernel = Opts.Kernel;
  }
  if (Diags.hasErrors()) {
    printSourceDiagnostics(Diags.takeError(), SM, ToolName, DiagOS);
    return tool::ExitInvalidInput;
  }
  raw_string_ostream OS(Out);
  if (Opts.Emit == EmitKind::AST || Opts.Emit == EmitKind::HIR) {
    hir::printModule(*M, OS);
    return tool::ExitSuccess;
  }
  if (Opts.WorkgroupSize)
    LOpts.DefaultWorkgroupSize = *Opts.WorkgroupSize;
  LOpts.SM = &SM;
  LOpts.SourceFile = tool::displayName(Input).str();
  std::unique_ptr<mir::Module> MM = hir::lowerModule(*M, LOpts);
  if (Error E = mir::verifyModule(*MM)) {
    printSourceDiagnostics(std::move(E), SM, ToolName, DiagOS,
                           "internal error: lowered MIR is invalid: ");
    return tool::ExitInvalidInput;
  }
  mir::printModule(*MM, OS);
  return tool::ExitSuccess;
}

/// The wave-opt stage: MIR text to optimised MIR text.
static int runOptimizer(StringRef ToolName, StringRef MIR, StringRef MIRName,
                        const CompilerOptions &Opts, std::string &Out,
                        raw_ostream &Diags) {
  Expected<mir::Pipeline> P = mir::Pipeline();
  std::vector<StringRef> Names = mir::optLevelPasses(Opts.OptLevel);
  if (!Names.empty())
    P = mir::parsePipeline(join(Names, ","));
  if (!P) { // the -O pipelines name registered passes only
    printError(Diags, ToolName, toString(P.takeError()));
    return tool::ExitInvalidInput;
  }
  SourceMgr SM;
  std::unique_ptr<mir::Module> M = readMIR(ToolName, MIR, MIRName, SM, Diags);
  if (!M)
    return tool::ExitInvalidInput;
  mir::PassStats Stats;
  if (Error E = mir::runPipeline(*M, *P, mir::PipelineOptions(), Stats)) {
    printSourceDiagnostics(std::move(E), SM, ToolName, Diags);
    return tool::ExitInvalidInput;
  }
  raw_string_ostream OS(Out);
  mir::printModule(*M, OS);
  return tool::ExitSuccess;
}

/// The wave-ra stage: MIR text to LIR or WAVE assembly text.
static int runCodeGen(StringRef ToolName, StringRef MIR,
                      const CompilerOptions &Opts, std::string &Out,
                      raw_ostream &Diags) {
  SourceMgr SM;
  std::unique_ptr<mir::Module> M =
      readMIR(ToolName, MIR, "<wave-opt output>", SM, Diags);
  if (!M)
    return tool::ExitInvalidInput;
  codegen::CodeGenOptions CGOpts;
  CGOpts.MaxRegisters = Opts.MaxRegisters;
  CGOpts.Emit = Opts.Emit == EmitKind::LIR ? codegen::EmitKind::LIR
                                           : codegen::EmitKind::Asm;
  raw_string_ostream OS(Out);
  if (Error E = codegen::compileModule(*M, CGOpts, OS)) {
    printSourceDiagnostics(std::move(E), SM, ToolName, Diags);
    return tool::ExitInvalidInput;
  }
  return tool::ExitSuccess;
}

/// The wave-as stage: WAVE assembly to the target's object bytes.
static int runAssembler(StringRef ToolName, StringRef Asm, StringRef Input,
                        const CompilerOptions &Opts, std::string &Out,
                        raw_ostream &Diags) {
  static constexpr const char *Name = "<wave-ra output>";
  // What a pipe would hand wave-as when the module had neither a kernel nor
  // an exported function: wave-as refuses it, and so do we, by name.
  if (Asm.trim().empty()) {
    printError(Diags, ToolName,
               "'" + tool::displayName(Input) + "': no kernels in input");
    return tool::ExitInvalidInput;
  }
  SourceMgr SM;
  addBuffer(SM, Asm, Name);
  // Without a handler, the assembler's diagnostics go to stderr.
  if (&Diags != &errs())
    SM.setDiagHandler(
        [](const SMDiagnostic &D, void *Ctx) {
          D.print(nullptr, *static_cast<raw_ostream *>(Ctx),
                  /*ShowColors=*/false);
        },
        &Diags);
  AsmOptions AOpts;
  AOpts.Relocatable = Opts.Relocatable;
  Expected<WbinFile> File = assemble(SM, AOpts);
  if (!File) { // assemble() has printed every diagnostic through SM
    consumeError(File.takeError());
    return tool::ExitInvalidInput;
  }
  if (!Opts.Relocatable) {
    File = linkExecutable(std::move(*File), Name);
    if (!File) {
      printError(Diags, ToolName,
                 Twine(Name) + ": " + toString(File.takeError()));
      return tool::ExitInvalidInput;
    }
    // An executable must have something to run (wave-run refuses one
    // without kernels); a file of exported functions compiles with -c.
    if (File->Kernels.empty()) {
      printError(Diags, ToolName,
                 "'" + tool::displayName(Input) +
                     "': no kernels in input; a file of "
                     "device functions only needs -c");
      return tool::ExitInvalidInput;
    }
  }

  auto Fail = [&](Error E) {
    handleAllErrors(std::move(E), [&](const ErrorInfoBase &EI) {
      printError(Diags, ToolName, EI.message());
    });
    return tool::ExitInvalidInput;
  };
  if (Opts.Target == WaveTriple) {
    std::vector<uint8_t> Bytes = writeWbin(*File, WbinWriteOptions());
    Out.assign(Bytes.begin(), Bytes.end());
  } else if (Opts.Target == NVPTXTriple) {
    nvptx::TranslateOptions TOpts;
    if (!Opts.MCPU.empty())
      TOpts.SM = cantFail(nvptx::parseMCPU(Opts.MCPU));
    Expected<nvptx::PTXModule> M = nvptx::translateToPTX(*File, TOpts);
    if (!M)
      return Fail(M.takeError());
    Out = std::move(M->PTX);
  } else {
    amdgcn::StageOptions Stage;
    Stage.Target = amdgcn::lookupTarget(Opts.MCPU);
    Stage.SourceName = tool::displayName(Input).str();
    Expected<std::vector<uint8_t>> Bytes = amdgcn::runAMDGCNStage(*File, Stage);
    if (!Bytes)
      return Fail(Bytes.takeError());
    Out.assign(Bytes->begin(), Bytes->end());
  }
  return tool::ExitSuccess;
}

int compileSource(StringRef ToolName, StringRef Source, StringRef Input,
                  const CompilerOptions &Opts, std::string &Out) {
  return compileSource(ToolName, Source, Input, Opts, Out, errs());
}

/// The stages after the frontend: wave-opt on \p MIR (named \p MIRName),
/// wave-ra and wave-as, each as far as Opts.Emit asks.
static int compileFromMIR(StringRef ToolName, StringRef MIR, StringRef MIRName,
                          StringRef Input, const CompilerOptions &Opts,
                          std::string &Out, raw_ostream &Diags) {
  std::string OptMIR, Asm;
  if (int RC = runOptimizer(ToolName, MIR, MIRName, Opts, OptMIR, Diags))
    return RC;
  if (Opts.Emit == EmitKind::MIR) {
    Out = std::move(OptMIR);
    return tool::ExitSuccess;
  }
  if (int RC = runCodeGen(ToolName, OptMIR, Opts, Asm, Diags))
    return RC;
  if (Opts.Emit <= EmitKind::Asm) {
    Out = std::move(Asm);
    return tool::ExitSuccess;
  }
  return runAssembler(ToolName, Asm, Input, Opts, Out, Diags);
}

int compileSource(StringRef ToolName, StringRef Source, StringRef Input,
                  const CompilerOptions &Opts, std::string &Out,
                  raw_ostream &Diags) {
  if (Source.trim().empty()) {
    // tool::rejectEmptyInput()'s message.
    printError(Diags, ToolName,
               "'" + tool::displayName(Input) +
                   "': no kernels in input (the input is empty)");
    return tool::ExitInvalidInput;
  }
  std::string MIR;
  if (int RC = runFrontend(ToolName, Source, Input, Opts, MIR, Diags))
    return RC;
  if (Opts.Emit <= EmitKind::HIR) {
    Out = std::move(MIR);
    return tool::ExitSuccess;
  }
  return compileFromMIR(ToolName, MIR, "<wave-fe output>", Input, Opts, Out,
                        Diags);
}

int compileMIR(StringRef ToolName, StringRef MIR, StringRef Input,
               const CompilerOptions &Opts, std::string &Out,
               raw_ostream &Diags) {
  if (MIR.trim().empty()) {
    printError(Diags, ToolName,
               "'" + tool::displayName(Input) +
                   "': no kernels in input (the input is empty)");
    return tool::ExitInvalidInput;
  }
  if (Opts.Emit <= EmitKind::HIR) {
    printError(Diags, ToolName,
               "'" + tool::displayName(Input) + "': MIR input has no " +
                   emitKindName(Opts.Emit) + " to emit");
    return tool::ExitInvalidInput;
  }
  return compileFromMIR(ToolName, MIR, tool::displayName(Input), Input, Opts,
                        Out, Diags);
}

} // namespace wave::driver
