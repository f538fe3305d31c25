//===- Runtime.cpp - The host runtime API's handles -----------------------===//
//
// Device, Buffer, Module, Kernel, Stream and Event of wave/Host/Runtime.h
// over the objects of HostImpl.h: opening devices, loading and compiling
// modules (the .wbin reader, the assembler and linker, wave-compiler's
// pipeline), and binding a launch's arguments to the kernel's parameter
// descriptors with the rules and words of wave-run's named launches
// (lib/Emu/RunOptions.cpp planLaunch()).
//
//===----------------------------------------------------------------------===//
#include "HostImpl.h"

#include "wave/Asm/AsmParser.h"
#include "wave/Emu/FloatFormat.h"
#include "wave/Emu/RunOptions.h"
#include "wave/HIR/HIR.h"
#include "wave/Link/Linker.h"
#include "wave/Support/ReadFile.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace llvm;

namespace wave::host {

char HostError::ID;

void HostError::log(raw_ostream &OS) const { OS << Message; }

std::error_code HostError::convertToErrorCode() const {
  return inconvertibleErrorCode();
}

HostErrorCode errorCode(const Error &E) {
  // An Error's payload is reachable only by handling it: move it out, look,
  // and put the same payload back, unchecked as it was.
  Error &M = const_cast<Error &>(E);
  Error Taken = std::move(M);
  (void)bool(M); // M is now a checked success, so it may be assigned.
  HostErrorCode C = HostErrorCode::Backend;
  M = handleErrors(std::move(Taken), [&](std::unique_ptr<HostError> H) {
    C = H->code();
    return Error(std::move(H));
  });
  return C;
}

/// The emulator's description for \p WaveWidth-lane waves.
static std::string emulatorDescription(uint32_t WaveWidth) {
  return "WAVE reference emulator, " + std::to_string(WaveWidth) +
         "-lane waves";
}

std::vector<DeviceInfo> listDevices() {
  DeviceInfo Emu;
  Emu.Name = "emu";
  Emu.Kind = BackendKind::Emulator;
  Emu.Description = emulatorDescription(DeviceOptions().WaveWidth);
  std::vector<DeviceInfo> Ds = {Emu};
  for (DeviceInfo &D : listHsaDevices())
    Ds.push_back(std::move(D));
  for (DeviceInfo &D : listCudaDevices())
    Ds.push_back(std::move(D));
  return Ds;
}

Error checkCompileLimits(unsigned OptLevel, unsigned MaxRegisters,
                         StringRef OptLevelName, StringRef MaxRegistersName,
                         StringRef Prefix) {
  if (OptLevel > 3)
    return hostError(HostErrorCode::InvalidArgument, Prefix + OptLevelName +
                                                         " " + Twine(OptLevel) +
                                                         " is not one of 0..3");
  if (MaxRegisters < 1 || MaxRegisters > 256)
    return hostError(HostErrorCode::InvalidArgument,
                     Prefix + MaxRegistersName + " " + Twine(MaxRegisters) +
                         " is not one of 1..256");
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Device
//===----------------------------------------------------------------------===//

Expected<Device> Device::open(StringRef Name, const DeviceOptions &Opts) {
  if (Name == "emu") {
    Expected<std::unique_ptr<DeviceBackend>> B = createEmulatorBackend(Opts);
    if (!B)
      return B.takeError();
    DeviceInfo Info;
    Info.Name = "emu";
    Info.Kind = BackendKind::Emulator;
    Info.Description = emulatorDescription(Opts.WaveWidth);
    return Device(DeviceImpl::create(std::move(*B), std::move(Info), Opts));
  }
  StringRef Backend = Name.split(':').first, Index = Name.split(':').second;
  unsigned N = 0;
  bool GoodIndex = !Name.contains(':') || !Index.getAsInteger(10, N);
  if (Backend == "cuda" && GoodIndex) {
    DeviceInfo Info;
    Expected<std::unique_ptr<DeviceBackend>> B =
        createCudaBackend(N, Opts, Info);
    if (!B)
      return B.takeError();
    return Device(DeviceImpl::create(std::move(*B), std::move(Info), Opts));
  }
  if (Backend == "hsa" && GoodIndex) {
    DeviceInfo Info;
    Expected<std::unique_ptr<DeviceBackend>> B =
        createHsaBackend(N, Opts, Info);
    if (!B)
      return B.takeError();
    return Device(DeviceImpl::create(std::move(*B), std::move(Info), Opts));
  }
  return hostError(HostErrorCode::InvalidArgument,
                   "unknown device '" + Name +
                       "': devices are named emu, hsa[:N] or cuda[:N]");
}

const DeviceInfo &Device::info() const { return Impl->Info; }

Expected<Buffer> Device::allocate(uint64_t Bytes,
                                  std::optional<WbinType> Element) {
  if (Bytes == 0)
    return hostError(HostErrorCode::InvalidArgument,
                     "a buffer needs at least 1 byte");
  if (Element && Bytes % wbinTypeSize(*Element))
    return hostError(HostErrorCode::InvalidArgument,
                     "a buffer of " + wbinTypeName(*Element) + " elements (" +
                         Twine(wbinTypeSize(*Element)) +
                         " bytes each) cannot have " + Twine(Bytes) + " bytes");
  uint64_t Reserved = 0;
  Expected<uint64_t> Off = Impl->allocate(Bytes, Reserved);
  if (!Off)
    return Off.takeError();
  auto B = std::make_shared<BufferImpl>();
  B->Dev = Impl;
  B->Offset = *Off;
  B->Size = Bytes;
  B->Reserved = Reserved;
  B->Element = Element;
  return Buffer(std::move(B));
}

/// A module of \p File (already validated) named \p Name on \p Dev.
static Expected<std::shared_ptr<ModuleImpl>>
makeModule(std::shared_ptr<DeviceImpl> Dev, StringRef Name, WbinFile File) {
  if (File.Relocatable)
    return hostError(HostErrorCode::Compile,
                     "'" + Name +
                         "' is a relocatable object; link it with wave-link");
  if (File.Kernels.empty() && File.Code.empty())
    return hostError(HostErrorCode::Compile,
                     "'" + Name +
                         "': no kernels (the file has no kernel entries and "
                         "no code)");
  auto M = std::make_shared<ModuleImpl>();
  M->Dev = std::move(Dev);
  M->Name = Name.str();
  M->File = std::move(File);
  size_t N = std::max<size_t>(M->File.Kernels.size(), 1);
  for (size_t I = 0; I != N; ++I) {
    std::string KN =
        I < M->File.Kernels.size() ? M->File.Kernels[I].Name : std::string();
    M->KernelNames.push_back(KN.empty() ? "kernel_" + std::to_string(I) : KN);
  }
  if (Error E = M->Dev->Backend->prepare(*M))
    return std::move(E);
  return M;
}

Expected<Module> Device::loadModule(ArrayRef<uint8_t> Bytes, StringRef Name) {
  Expected<WbinFile> F = readWbin(Bytes);
  if (!F)
    return hostError(HostErrorCode::Compile,
                     "'" + Name + "': " + toString(F.takeError()));
  Expected<std::shared_ptr<ModuleImpl>> M =
      makeModule(Impl, Name, std::move(*F));
  if (!M)
    return M.takeError();
  return Module(std::move(*M));
}

/// The bytes of the file at \p Path, or an Io error naming it.
static Expected<std::unique_ptr<MemoryBuffer>> readInputFile(StringRef Path) {
  Expected<std::unique_ptr<MemoryBuffer>> B = readFileBounded(Path);
  if (!B)
    return hostError(HostErrorCode::Io,
                     "'" + Path + "': " + toString(B.takeError()));
  return B;
}

Expected<Module> Device::loadModule(StringRef Path) {
  Expected<std::unique_ptr<MemoryBuffer>> B = readInputFile(Path);
  if (!B)
    return B.takeError();
  return loadModule(arrayRefFromStringRef((*B)->getBuffer()), Path);
}

/// The tool name in the diagnostics of compile() and compileFile(): they
/// are wave-compiler's.
static constexpr const char *CompilerName = "wave-compiler";

/// A Compile error of the diagnostics \p Diags, without their last newline.
static Error compileError(std::string Diags) {
  while (!Diags.empty() && Diags.back() == '\n')
    Diags.pop_back();
  return hostError(HostErrorCode::Compile, Diags);
}

/// \p Opts with the fields compile() does not take from the caller: an
/// executable .wbin for the wave target.
static driver::CompilerOptions executableOptions(driver::CompilerOptions Opts) {
  Opts.Emit = driver::EmitKind::Object;
  Opts.Target = driver::WaveTriple;
  Opts.MCPU.clear();
  Opts.Relocatable = false;
  return Opts;
}

Expected<Module> Device::compile(StringRef Source, StringRef Name,
                                 const driver::CompilerOptions &Opts) {
  if (Error E = checkCompileLimits(Opts.OptLevel, Opts.MaxRegisters))
    return std::move(E);
  driver::CompilerOptions O = executableOptions(Opts);
  std::string Check = driver::checkOptions(O);
  if (!Check.empty())
    return hostError(HostErrorCode::InvalidArgument, Check);
  std::string Out, Diags;
  raw_string_ostream DOS(Diags);
  if (driver::compileSource(CompilerName, Source, Name, O, Out, DOS))
    return compileError(std::move(Diags));
  return loadModule(arrayRefFromStringRef(Out), Name);
}

Expected<Module> Device::compileFile(StringRef Path,
                                     std::optional<hir::Language> Lang,
                                     unsigned OptLevel, unsigned MaxRegisters) {
  StringRef Ext = sys::path::extension(Path);
  if (!Lang && Ext != ".wave" && Ext != ".wir" && !hir::languageForPath(Path))
    return hostError(HostErrorCode::InvalidArgument,
                     "'" + Path + "': unknown source extension '" + Ext +
                         "': expected .py, .cpp, .rs, .ts, .wir or .wave, "
                         "or name the language");
  if (Error E = checkCompileLimits(OptLevel, MaxRegisters))
    return E;
  Expected<std::unique_ptr<MemoryBuffer>> B = readInputFile(Path);
  if (!B)
    return B.takeError();
  StringRef Text = (*B)->getBuffer();
  if (!Lang && Ext == ".wave") {
    // wave-as: assemble, then link on its own into an executable.
    std::string Diags;
    Expected<WbinFile> Obj = assembleString(Text, Path, &Diags);
    if (!Obj) {
      consumeError(Obj.takeError());
      return compileError(std::move(Diags));
    }
    Expected<WbinFile> Exe = linkExecutable(std::move(*Obj), Path);
    if (!Exe)
      return hostError(HostErrorCode::Compile,
                       Path + ": " + toString(Exe.takeError()));
    Expected<std::shared_ptr<ModuleImpl>> M =
        makeModule(Impl, Path, std::move(*Exe));
    if (!M)
      return M.takeError();
    return Module(std::move(*M));
  }
  driver::CompilerOptions O;
  O.OptLevel = OptLevel;
  O.MaxRegisters = MaxRegisters;
  if (!Lang && Ext == ".wir") {
    O = executableOptions(O);
    std::string Out, Diags;
    raw_string_ostream DOS(Diags);
    if (driver::compileMIR(CompilerName, Text, Path, O, Out, DOS))
      return compileError(std::move(Diags));
    return loadModule(arrayRefFromStringRef(Out), Path);
  }
  O.Lang = Lang ? *Lang : *hir::languageForPath(Path);
  return compile(Text, Path, O);
}

Stream Device::defaultStream() {
  return Stream(std::shared_ptr<StreamImpl>(Impl, Impl->DefaultStream));
}

Expected<Stream> Device::createStream() {
  std::lock_guard<std::mutex> L(Impl->StateMu);
  Impl->Streams.push_back(std::make_unique<StreamImpl>(*Impl));
  return Stream(std::shared_ptr<StreamImpl>(Impl, Impl->Streams.back().get()));
}

Error Device::synchronize() {
  std::vector<StreamImpl *> Ss;
  {
    std::lock_guard<std::mutex> L(Impl->StateMu);
    for (const std::unique_ptr<StreamImpl> &S : Impl->Streams)
      Ss.push_back(S.get());
  }
  Error First = Error::success();
  for (StreamImpl *S : Ss) {
    Error E = S->synchronize();
    if (!First)
      First = std::move(E);
    else
      consumeError(std::move(E));
  }
  return First;
}

//===----------------------------------------------------------------------===//
// Buffer
//===----------------------------------------------------------------------===//

BufferImpl::~BufferImpl() { Dev->release(Offset, Reserved); }

uint64_t Buffer::size() const { return Impl->Size; }

std::optional<WbinType> Buffer::elementType() const { return Impl->Element; }

uint64_t Buffer::deviceAddress() const { return Impl->Offset; }

Device Buffer::device() const { return Device(Impl->Dev); }

/// InvalidArgument unless [Offset, Offset + Len) lies in a buffer of
/// \p Size bytes; \p What is "write" or "read".
static Error checkCopy(uint64_t Offset, uint64_t Len, uint64_t Size,
                       StringRef What) {
  if (Offset > Size || Len > Size - Offset)
    return hostError(HostErrorCode::InvalidArgument,
                     "buffer " + What + " of " + Twine(Len) +
                         " bytes at offset " + Twine(Offset) +
                         " does not fit the buffer's " + Twine(Size) +
                         " bytes");
  return Error::success();
}

Error Buffer::write(ArrayRef<uint8_t> Data, uint64_t Offset) {
  if (Error E = checkCopy(Offset, Data.size(), Impl->Size, "write"))
    return E;
  Impl->Dev->waitForBuffer(*Impl);
  return Impl->Dev->Backend->write(Impl->Offset + Offset, Data);
}

Error Buffer::read(MutableArrayRef<uint8_t> Out, uint64_t Offset) const {
  if (Error E = checkCopy(Offset, Out.size(), Impl->Size, "read"))
    return E;
  Impl->Dev->waitForBuffer(*Impl);
  return Impl->Dev->Backend->read(Impl->Offset + Offset, Out);
}

//===----------------------------------------------------------------------===//
// Module
//===----------------------------------------------------------------------===//

Expected<Kernel> Module::kernel(StringRef Name) const {
  const std::vector<std::string> &Ns = Impl->KernelNames;
  unsigned I = 0;
  if (!Name.empty() && isDigit(Name[0]) && !Name.getAsInteger(10, I)) {
    if (I < Ns.size())
      return Kernel(Impl, I);
  } else {
    for (size_t K = 0; K != Ns.size(); ++K)
      if (Ns[K] == Name)
        return Kernel(Impl, unsigned(K));
  }
  return hostError(HostErrorCode::InvalidArgument,
                   "no kernel named '" + Name + "' in '" + Impl->Name +
                       "'; its kernels are: " + join(Ns, ", "));
}

std::vector<std::string> Module::kernelNames() const {
  return Impl->KernelNames;
}

const WbinFile &Module::file() const { return Impl->File; }

Device Module::device() const { return Device(Impl->Dev); }

//===----------------------------------------------------------------------===//
// Kernel: argument binding
//===----------------------------------------------------------------------===//

const std::string &Kernel::name() const { return M->KernelNames[Index]; }

ArrayRef<WbinParam> Kernel::params() const {
  if (Index >= M->File.Kernels.size() || !M->File.Kernels[Index].Params)
    return {};
  return *M->File.Kernels[Index].Params;
}

/// A double as wave-run prints an f64: shortest round-trip digits.
static std::string formatNumber(double D) { return emu::formatF64(D); }

/// The register value of the number \p V for a scalar of type \p T
/// (formats/kernel-abi.md "Buffers and scalars"): an integer to i32/u32 in
/// range or to f32 when exact; a float to f32 rounded to nearest even, an
/// error for i32/u32. \p What names the parameter in errors.
static Expected<uint32_t> scalarBits(const ArgValue &V, WbinType T,
                                     const Twine &What) {
  auto Bad = [&](const Twine &Msg) {
    return hostError(HostErrorCode::InvalidArgument, What + ": " + Msg);
  };
  if (const int64_t *I = std::get_if<int64_t>(&V)) {
    switch (T) {
    case WbinType::I32:
      if (*I < INT32_MIN || *I > INT32_MAX)
        return Bad("value " + Twine(*I) +
                   " is out of range (-2147483648 to 2147483647)");
      return uint32_t(int32_t(*I));
    case WbinType::U32:
      if (*I < 0 || *I > int64_t(UINT32_MAX))
        return Bad("value " + Twine(*I) + " is out of range (0 to 4294967295)");
      return uint32_t(*I);
    case WbinType::F32: {
      float F = float(*I);
      if (!(F >= -0x1p63f && F < 0x1p63f) || int64_t(F) != *I)
        return Bad("integer " + Twine(*I) +
                   " is not exactly representable in f32; pass a float to "
                   "have it rounded");
      return emu::f32Bits(F);
    }
    default:
      break;
    }
  } else if (const double *D = std::get_if<double>(&V)) {
    switch (T) {
    case WbinType::I32:
    case WbinType::U32:
      return Bad("value " + formatNumber(*D) +
                 " is a float; an integer parameter takes an integer");
    case WbinType::F32: {
      float F = float(*D);
      if (std::isinf(F) && std::isfinite(*D))
        return Bad("value " + formatNumber(*D) +
                   " is out of range (finite f32 values are at most "
                   "3.4028235e38 in magnitude)");
      return emu::f32Bits(F);
    }
    default:
      break;
    }
  }
  return Bad(Twine("a scalar must be i32, u32 or f32, not ") + wbinTypeName(T));
}

/// The register value of an argument of a kernel without parameter
/// descriptors: a buffer's address, an integer's low 32 bits when it fits
/// i32 or u32, a float's f32 bits.
static Expected<uint32_t> untypedBits(const ArgValue &V, const Twine &What) {
  if (const Buffer *B = std::get_if<Buffer>(&V))
    return uint32_t(B->deviceAddress());
  if (const int64_t *I = std::get_if<int64_t>(&V)) {
    if (*I < INT32_MIN || *I > int64_t(UINT32_MAX))
      return hostError(HostErrorCode::InvalidArgument,
                       What + ": value " + Twine(*I) +
                           " does not fit a 32-bit register "
                           "(-2147483648 to 4294967295)");
    return uint32_t(*I);
  }
  return scalarBits(V, WbinType::F32, What);
}

/// Checks \p Args against kernel \p KernelName's parameters \p Ps (none:
/// positional only) and fills \p Cfg.SetRegs and \p Used.
/// \p Bufs holds, for each argument, its buffer or null.
static Error bindArgs(const DeviceImpl &Dev, StringRef KernelName,
                      std::optional<ArrayRef<WbinParam>> Ps, ArrayRef<Arg> Args,
                      ArrayRef<std::shared_ptr<BufferImpl>> Bufs,
                      emu::EmuConfig &Cfg,
                      std::vector<std::shared_ptr<BufferImpl>> &Used) {
  auto Bad = [&](const Twine &Msg) {
    return hostError(HostErrorCode::InvalidArgument, Msg);
  };
  size_t NumPositional = 0;
  while (NumPositional != Args.size() && Args[NumPositional].Name.empty())
    ++NumPositional;
  for (size_t A = NumPositional; A != Args.size(); ++A)
    if (Args[A].Name.empty())
      return Bad("kernel '" + KernelName + "': argument " + Twine(A) +
                 " has no name but follows a named one; positional "
                 "arguments come first");
  // Every buffer must be on this device.
  for (size_t A = 0; A != Args.size(); ++A)
    if (std::holds_alternative<Buffer>(Args[A].Value)) {
      if (!Bufs[A])
        return Bad("kernel '" + KernelName + "': argument " + Twine(A) +
                   " is an empty Buffer handle");
      if (Bufs[A]->Dev.get() != &Dev)
        return Bad("kernel '" + KernelName + "': argument " + Twine(A) +
                   " is a buffer of another device");
    }
  auto Use = [&](size_t A) {
    if (Bufs[A])
      Used.push_back(Bufs[A]);
  };

  if (!Ps) {
    if (NumPositional != Args.size())
      return Bad("kernel '" + KernelName +
                 "' has no parameter descriptors, "
                 "so arguments cannot be named ('" +
                 Args[NumPositional].Name +
                 "'); pass them by position (argument i in register ri)");
    if (Args.size() > 256)
      return Bad("kernel '" + KernelName + "': " + Twine(Args.size()) +
                 " arguments, but registers are r0..r255");
    for (size_t A = 0; A != Args.size(); ++A) {
      Expected<uint32_t> V = untypedBits(
          Args[A].Value, "kernel '" + KernelName + "': argument " + Twine(A));
      if (!V)
        return V.takeError();
      Cfg.SetRegs.emplace_back(unsigned(A), *V);
      Use(A);
    }
    return Error::success();
  }

  SmallVector<StringRef, 8> Names;
  for (size_t A = NumPositional; A != Args.size(); ++A)
    Names.push_back(Args[A].Name);
  Expected<std::vector<unsigned>> ArgOf =
      emu::bindParams(*Ps, KernelName, NumPositional, Names);
  if (!ArgOf)
    return Bad(toString(ArgOf.takeError()));

  for (size_t I = 0; I != Ps->size(); ++I) {
    const WbinParam &P = (*Ps)[I];
    const ArgValue &V = Args[(*ArgOf)[I]].Value;
    std::string What = emu::describeParam(KernelName, P);
    const Buffer *B = std::get_if<Buffer>(&V);
    if (P.Kind == WbinParamKind::Scalar) {
      if (B)
        return Bad(What + ": a scalar takes a number, not a buffer");
      Expected<uint32_t> Bits = scalarBits(V, P.Type, What);
      if (!Bits)
        return Bits.takeError();
      Cfg.SetRegs.emplace_back(unsigned(I), *Bits);
      continue;
    }
    if (!B)
      return Bad(What + ": a buffer parameter takes a buffer, not a number");
    std::optional<WbinType> Elem = B->elementType();
    if (Elem && *Elem != P.Type)
      return Bad(What + ": the buffer holds " + wbinTypeName(*Elem) +
                 " elements, not " + wbinTypeName(P.Type));
    unsigned Size = wbinTypeSize(P.Type);
    if (B->size() % Size)
      return Bad(What + ": the buffer's " + Twine(B->size()) +
                 " bytes are not a whole number of " + wbinTypeName(P.Type) +
                 " elements (" + Twine(Size) + " bytes each)");
    Cfg.SetRegs.emplace_back(unsigned(I), uint32_t(B->deviceAddress()));
    Use((*ArgOf)[I]);
  }
  return Error::success();
}

Expected<Event> Kernel::enqueue(Stream &S, const LaunchDims &Dims,
                                ArrayRef<Arg> Args) const {
  DeviceImpl &Dev = *M->Dev;
  if (!S.Impl || &S.Impl->Dev != &Dev)
    return hostError(HostErrorCode::InvalidArgument,
                     "kernel '" + name() +
                         "': the stream belongs to another device");
  LaunchJob J;
  J.M = M;
  emu::EmuConfig &Cfg = J.Cfg;
  Cfg.KernelIndex = Index;
  Cfg.Grid = Dims.Grid;
  Cfg.Workgroup = Dims.Workgroup;
  Cfg.WaveWidth = Dev.Opts.WaveWidth;
  Cfg.MaxInstructions = Dev.Opts.MaxInstructions;
  Cfg.Jobs = Dev.Opts.Jobs;
  KernelInfo NoInfo;
  const KernelInfo &KI =
      Index < M->File.Kernels.size() ? M->File.Kernels[Index] : NoInfo;
  std::array<uint32_t, 3> WG = effectiveWorkgroupSize(KI, Dims.Workgroup);
  if (WG == std::array<uint32_t, 3>{0, 0, 0})
    return hostError(HostErrorCode::InvalidArgument,
                     "kernel '" + name() +
                         "' has no workgroup size of its own: give "
                         "LaunchDims::Workgroup");
  uint64_t Threads = uint64_t(WG[0]) * WG[1] * WG[2];
  if (Threads > emu::MaxWorkgroupThreads)
    return hostError(HostErrorCode::InvalidArgument,
                     "kernel '" + name() + "': a workgroup of " +
                         Twine(Threads) + " threads is too large (at most " +
                         Twine(emu::MaxWorkgroupThreads) + ")");
  std::optional<ArrayRef<WbinParam>> Ps;
  if (KI.Params)
    Ps = ArrayRef<WbinParam>(*KI.Params);
  std::vector<std::shared_ptr<BufferImpl>> Bufs;
  for (const Arg &A : Args) {
    const Buffer *B = std::get_if<Buffer>(&A.Value);
    Bufs.push_back(B ? B->Impl : nullptr);
  }
  if (Error E = bindArgs(Dev, name(), Ps, Args, Bufs, Cfg, J.Buffers))
    return std::move(E);
  J.Ev = std::make_shared<EventImpl>();
  Event Ev(J.Ev);
  Dev.markPending(J, /*Add=*/true);
  S.Impl->push(std::move(J));
  return Ev;
}

Error Kernel::launch(const LaunchDims &Dims, ArrayRef<Arg> Args) const {
  Stream S = Device(M->Dev).defaultStream();
  Expected<Event> Ev = enqueue(S, Dims, Args);
  if (!Ev)
    return Ev.takeError();
  return Ev->wait();
}

//===----------------------------------------------------------------------===//
// Stream, Event
//===----------------------------------------------------------------------===//

Error Stream::synchronize() { return Impl->synchronize(); }

Device Stream::device() const { return Device(Impl->Dev.shared_from_this()); }

Error Event::wait() {
  Impl->waitDone();
  return Impl->takeError();
}

bool Event::done() const {
  std::lock_guard<std::mutex> L(Impl->Mu);
  return Impl->Done;
}

double Event::elapsedMicroseconds() {
  Impl->waitDone();
  std::lock_guard<std::mutex> L(Impl->Mu);
  return std::chrono::duration<double, std::micro>(Impl->End - Impl->Start)
      .count();
}

} // namespace wave::host
