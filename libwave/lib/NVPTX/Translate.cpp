//===- Translate.cpp - WAVE to PTX through LLVM's NVPTX backend -----------===//
//
// The driver of the NVPTX stage: one LLVM module for all kernels of a
// `.wbin` (Lift.cpp builds each kernel), LLVM's default O2 pipeline with
// the NVPTX target's own passes, and the NVPTX backend's assembly printer,
// all in process (formats/nvptx-abi.md "Why LLVM").
//
//===----------------------------------------------------------------------===//

#include "wave/NVPTX/Translate.h"
#include "wave/NVPTX/Target.h"

#include "Lift.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/CGSCCPassManager.h"
#include "llvm/Analysis/LoopAnalysisManager.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Triple.h"

#include <memory>
#include <mutex>

extern "C" {
void LLVMInitializeNVPTXTargetInfo();
void LLVMInitializeNVPTXTarget();
void LLVMInitializeNVPTXTargetMC();
void LLVMInitializeNVPTXAsmPrinter();
}

using namespace llvm;

namespace wave::nvptx {

Expected<unsigned> parseMCPU(StringRef MCPU) {
  // The architectures --mcpu accepts: the table of Target.h
  // (formats/nvptx-abi.md "Targets").
  unsigned SM = 0;
  StringRef Num = MCPU;
  if (Num.consume_front("sm_") && !Num.getAsInteger(10, SM) &&
      any_of(allSMTargets(), [&](const SMTarget &T) { return T.SM == SM; }))
    return SM;
  std::string List;
  for (const SMTarget &T : allSMTargets())
    List += (List.empty() ? "sm_" : ", sm_") + std::to_string(T.SM);
  return createStringError(inconvertibleErrorCode(),
                           "unsupported --mcpu '%s' for nvptx64-nvidia-cuda; "
                           "supported: %s",
                           MCPU.str().c_str(), List.c_str());
}

namespace {

constexpr const char *TripleName = "nvptx64-nvidia-cuda";

Expected<std::unique_ptr<TargetMachine>> makeTargetMachine(unsigned SM) {
  static std::once_flag Once;
  std::call_once(Once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
  });
  Triple TT(TripleName);
  std::string Why;
  const Target *T = TargetRegistry::lookupTarget(TT, Why);
  if (!T)
    return createStringError(inconvertibleErrorCode(),
                             "the NVPTX target is not available: %s",
                             Why.c_str());
  // PTX ISA 7.8 is what sm_90 needs and what ptxas 11.8 accepts
  // (formats/nvptx-abi.md "PTX version").
  TargetOptions Opts;
  std::unique_ptr<TargetMachine> TM(T->createTargetMachine(
      TT, "sm_" + std::to_string(SM), "+ptx78", Opts, std::nullopt,
      std::nullopt, CodeGenOptLevel::Aggressive));
  if (!TM)
    return createStringError(inconvertibleErrorCode(),
                             "cannot create the NVPTX target machine");
  return TM;
}

/// Folds `vote.ballot.sync(-1, constant)` (every lane of a translated
/// kernel's warp takes part) and erases unused ballots. Returns whether it
/// changed anything.
bool foldBallots(Module &M) {
  bool Changed = false;
  for (Function &F : M)
    for (BasicBlock &BB : F)
      for (Instruction &I : make_early_inc_range(BB)) {
        auto *CI = dyn_cast<CallInst>(&I);
        if (!CI || CI->getIntrinsicID() != Intrinsic::nvvm_vote_ballot_sync)
          continue;
        auto *Mask = dyn_cast<ConstantInt>(CI->getArgOperand(0));
        if (!Mask || !Mask->isAllOnesValue())
          continue;
        if (auto *P = dyn_cast<ConstantInt>(CI->getArgOperand(1)))
          CI->replaceAllUsesWith(
              ConstantInt::get(CI->getType(), P->isZero() ? 0 : ~0ull));
        if (CI->use_empty()) {
          CI->eraseFromParent();
          Changed = true;
        }
      }
  return Changed;
}

Expected<std::unique_ptr<Module>>
buildModule(const WbinFile &File, const TranslateOptions &Opts,
            LLVMContext &Ctx, TargetMachine &TM, PTXModule *Out) {
  if (File.Relocatable)
    return createStringError(inconvertibleErrorCode(),
                             "a relocatable object cannot be translated; "
                             "link it with wave-link first");
  if (Opts.SM < MinSM)
    return createStringError(inconvertibleErrorCode(),
                             "sm_%u is not supported (sm_70 or newer)",
                             Opts.SM);
  auto M = std::make_unique<Module>("wave", Ctx);
  M->setTargetTriple(TM.getTargetTriple());
  M->setDataLayout(TM.createDataLayout());
  std::vector<KernelABI> Kernels = kernelABIs(File);
  for (unsigned I = 0; I < File.Kernels.size(); ++I) {
    if (Error E = detail::liftKernel(File, I, Kernels[I], *M))
      return std::move(E);
    assert(M->getFunction(Kernels[I].Symbol) && "the entry was renamed");
  }
  std::string Broken;
  raw_string_ostream OS(Broken);
  if (verifyModule(*M, &OS))
    return createStringError(inconvertibleErrorCode(),
                             "internal error: the lifted LLVM IR is invalid: "
                             "%s",
                             Broken.c_str());
  if (Opts.Optimize) {
    LoopAnalysisManager LAM;
    FunctionAnalysisManager FAM;
    CGSCCAnalysisManager CGAM;
    ModuleAnalysisManager MAM;
    PassBuilder PB(&TM);
    PB.registerModuleAnalyses(MAM);
    PB.registerCGSCCAnalyses(CGAM);
    PB.registerFunctionAnalyses(FAM);
    PB.registerLoopAnalyses(LAM);
    PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
    ModulePassManager MPM =
        PB.buildPerModuleDefaultPipeline(OptimizationLevel::O2);
    MPM.run(*M, MAM);
    // The speculative chunks' range checks, merged now that constants are
    // folded into them. LLVM does not fold warp votes; a constant predicate
    // (common once the register file is promoted) gives a constant ballot,
    // and an unused ballot can go. Then clean up what that exposes.
    bool Lowered = detail::lowerSpanChecks(*M);
    if (foldBallots(*M) || Lowered) {
      ModulePassManager Cleanup;
      if (Error E = PB.parsePassPipeline(
              Cleanup, "function(instcombine<no-verify-fixpoint>,"
                       "early-cse,"
                       "simplifycfg,"
                       "adce)"))
        return std::move(E);
      Cleanup.run(*M, MAM);
    }
  } else {
    detail::lowerSpanChecks(*M);
  }
  if (Out)
    Out->Kernels = std::move(Kernels);
  return M;
}

} // namespace

std::vector<KernelABI> kernelABIs(const WbinFile &File) {
  std::vector<KernelABI> Kernels;
  for (unsigned I = 0; I < File.Kernels.size(); ++I) {
    const KernelInfo &K = File.Kernels[I];
    KernelABI ABI;
    ABI.Name = K.Name;
    ABI.Symbol = detail::entrySymbol(K, I);
    // User names never start with "__" (entrySymbol), so the fallback
    // cannot meet one.
    for (const KernelABI &Prev : Kernels)
      if (Prev.Symbol == ABI.Symbol)
        ABI.Symbol = "__wave_kernel_" + std::to_string(I);
    ABI.NumRegParams = detail::registerParamCount(File, K);
    Kernels.push_back(std::move(ABI));
  }
  return Kernels;
}

Expected<PTXModule> translateToPTX(const WbinFile &File,
                                   const TranslateOptions &Opts) {
  auto TM = makeTargetMachine(Opts.SM);
  if (!TM)
    return TM.takeError();
  LLVMContext Ctx;
  PTXModule Out;
  auto M = buildModule(File, Opts, Ctx, **TM, &Out);
  if (!M)
    return M.takeError();
  SmallString<0> PTX;
  raw_svector_ostream OS(PTX);
  legacy::PassManager PM;
  if ((*TM)->addPassesToEmitFile(PM, OS, nullptr,
                                 CodeGenFileType::AssemblyFile))
    return createStringError(inconvertibleErrorCode(),
                             "the NVPTX target cannot emit PTX");
  PM.run(**M);
  Out.PTX = PTX.str().str();
  return Out;
}

Expected<std::string> translateToLLVMIR(const WbinFile &File,
                                        const TranslateOptions &Opts) {
  auto TM = makeTargetMachine(Opts.SM);
  if (!TM)
    return TM.takeError();
  LLVMContext Ctx;
  auto M = buildModule(File, Opts, Ctx, **TM, nullptr);
  if (!M)
    return M.takeError();
  std::string Text;
  raw_string_ostream OS(Text);
  (*M)->print(OS, nullptr);
  return Text;
}

} // namespace wave::nvptx
