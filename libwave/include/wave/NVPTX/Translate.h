//===- Translate.h - WAVE to PTX ---------------------------------*- C++ -*-===//
//
// The NVPTX stage (libwave/README.md "The NVPTX stage"): every kernel of an
// executable `.wbin` becomes a PTX `.entry` of one module, through LLVM IR
// in per-thread SIMT form, LLVM's optimisation pipeline and LLVM's NVPTX
// backend, in process. One WAVE wave is one warp (width 32). The ABI --
// parameters, launch shape, memory and how the WAVE semantics map -- is
// formats/nvptx-abi.md.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_NVPTX_TRANSLATE_H
#define WAVE_NVPTX_TRANSLATE_H

#include "wave/Object/TranslateError.h"
#include "wave/Object/Wbin.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace wave::nvptx {

/// The wave width of every translated kernel: one warp.
constexpr unsigned WaveWidth = 32;
/// The default and the supported GPU architectures (formats/nvptx-abi.md
/// "Targets"): sm_70 and newer.
constexpr unsigned DefaultSM = 80;
constexpr unsigned MinSM = 70;

/// The SM number of an `--mcpu` value: "sm_70", "sm_75", "sm_80", "sm_86",
/// "sm_87", "sm_89", "sm_90". Fails with "unsupported --mcpu 'X' ...",
/// listing the accepted values.
llvm::Expected<unsigned> parseMCPU(llvm::StringRef MCPU);

/// Options of translateToPTX().
struct TranslateOptions {
  unsigned SM = DefaultSM; ///< target architecture, sm_<SM>.
  /// Run LLVM's optimisation pipeline on the lifted IR (off: for reading
  /// the lifted form, and for tests of it).
  bool Optimize = true;
};

/// How the runtime launches one translated kernel (formats/nvptx-abi.md
/// "Kernel parameters" and "Launch").
///
/// Parameters, in order: `.u64` device-memory base (the byte WAVE address
/// 0 names); NumRegParams `.u32` values, the initial value of r0 ..
/// r(NumRegParams-1) in every lane; `.u64` device-memory size in bytes;
/// `.u32` local-memory size in bytes; `.u32` workgroup size x, y, z in
/// work-items. The launch is a grid of WAVE workgroups (gridDim = the WAVE
/// grid), each a one-dimensional CTA of ceil(x*y*z / 32) * 32 threads, with
/// the local-memory size (rounded up to 16) as dynamic shared memory.
struct KernelABI {
  std::string Name;   ///< the WAVE kernel's name.
  std::string Symbol; ///< the PTX `.entry` name (cuModuleGetFunction).
  unsigned NumRegParams = 0;
};

/// A translated module: PTX text (`.version`, `.target sm_NN`,
/// `.address_size 64`) and one KernelABI per kernel, in the `.wbin`'s order.
struct PTXModule {
  std::string PTX;
  std::vector<KernelABI> Kernels;
};

/// The KernelABI of every kernel of \p File, in its order, as
/// translateToPTX() gives them, without translating (the parameters and
/// entry names depend on the code and names only).
std::vector<KernelABI> kernelABIs(const WbinFile &File);

/// A kernel the stage cannot translate, located by kernel and PC.
using wave::TranslateError;

/// Translates every kernel of \p File (an executable; relocatable objects
/// are rejected) to one PTX module for sm_<Opts.SM>. Fails with a
/// TranslateError for the first instruction or shape that cannot be
/// translated.
llvm::Expected<PTXModule> translateToPTX(const WbinFile &File,
                                         const TranslateOptions &Opts);

/// The lifted LLVM IR of \p File as text (wave-as --emit=llvm), optimised
/// when Opts.Optimize is set.
llvm::Expected<std::string> translateToLLVMIR(const WbinFile &File,
                                              const TranslateOptions &Opts);

} // namespace wave::nvptx

#endif // WAVE_NVPTX_TRANSLATE_H
