//===- CAPI.cpp - wave/wave.h: the host runtime API for C -----------------===//
//
// Each C handle is a heap object holding the C++ handle (wave/Host/Runtime.h)
// it stands for; releasing it drops that copy, and the C++ object lives on
// while a launch in flight uses it. Every entry point checks its pointers,
// turns each llvm::Error into the status of its HostErrorCode and the
// message into the calling thread's last error, and catches every C++
// exception (std::bad_alloc, mostly): nothing unwinds into C.
//
//===----------------------------------------------------------------------===//
#include "wave/wave.h"

#include "wave/Host/Runtime.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <exception>
#include <mutex>
#include <new>
#include <set>
#include <string>
#include <vector>

using namespace llvm;
using namespace wave;
using namespace wave::host;

// The C handles. The structs are declared (opaque) by wave/wave.h in the
// global namespace.
struct wave_device {
  Device D;
};
struct wave_buffer {
  Buffer B;
};
struct wave_module {
  Module M;
};
struct wave_kernel {
  Kernel K;
  /// The module's device, for wave_enqueue()'s default stream.
  Device D;
};
struct wave_stream {
  Stream S;
};
struct wave_event {
  Event E;
};
struct wave_args {
  /// Arguments without a name, in order; they precede the named ones
  /// whatever order the calls came in (host::Arg).
  std::vector<Arg> Positional;
  std::vector<Arg> Named;
};

namespace {

/// The calling thread's last failure message (wave_last_error()).
thread_local std::string LastError;

wave_status_t setError(wave_status_t Status, std::string Message) {
  LastError = std::move(Message);
  return Status;
}

/// WAVE_ERROR_INVALID_ARGUMENT with \p Message.
wave_status_t invalid(std::string Message) {
  return setError(WAVE_ERROR_INVALID_ARGUMENT, std::move(Message));
}

/// The status of \p E (its HostErrorCode; Backend for other errors) with its
/// message, or WAVE_SUCCESS; consumes \p E.
wave_status_t status(Error E) {
  if (!E)
    return WAVE_SUCCESS;
  auto Code = static_cast<wave_status_t>(errorCode(E));
  std::string Message;
  handleAllErrors(
      std::move(E),
      [&](const HostError &H) {
        if (!Message.empty())
          Message += '\n';
        Message += H.message();
      },
      [&](const ErrorInfoBase &B) {
        if (!Message.empty())
          Message += '\n';
        Message += B.message();
      });
  if (Code < WAVE_ERROR_INVALID_ARGUMENT || Code > WAVE_ERROR_BACKEND)
    Code = WAVE_ERROR_BACKEND;
  return setError(Code, std::move(Message));
}

/// Runs \p F, which returns a wave_status_t, turning any exception into
/// WAVE_ERROR_BACKEND.
template <typename Fn> wave_status_t guarded(const char *Func, Fn &&F) {
  try {
    return F();
  } catch (const std::bad_alloc &) {
    return setError(WAVE_ERROR_BACKEND,
                    std::string(Func) + ": out of host memory");
  } catch (const std::exception &Ex) {
    return setError(WAVE_ERROR_BACKEND,
                    std::string(Func) + ": internal error: " + Ex.what());
  } catch (...) {
    return setError(WAVE_ERROR_BACKEND, std::string(Func) + ": internal error");
  }
}

/// The message of a null \p What argument of \p Func.
wave_status_t null(const char *Func, const char *What) {
  return invalid(std::string(Func) + ": " + What + " is NULL");
}

/// Stores a new C handle holding \p Value in \p *Out.
template <typename Handle, typename T>
wave_status_t make(Expected<T> Value, Handle **Out) {
  if (!Value)
    return status(Value.takeError());
  *Out = new Handle{std::move(*Value)};
  return WAVE_SUCCESS;
}

/// Converts a wave_type_t; false for a value outside the enum.
bool toWbinType(wave_type_t T, std::optional<WbinType> &Out) {
  if (T == WAVE_TYPE_NONE) {
    Out = std::nullopt;
    return true;
  }
  if (T < WAVE_TYPE_I32 || T > WAVE_TYPE_F64)
    return false;
  Out = static_cast<WbinType>(T);
  return true;
}

/// Device names handed out by wave_device_name(): kept for the process's
/// life, so the pointers stay valid.
const char *internName(const std::string &Name) {
  static std::mutex Lock;
  static std::set<std::string> *Names = new std::set<std::string>();
  std::lock_guard<std::mutex> G(Lock);
  return Names->insert(Name).first->c_str();
}

/// LaunchDims from the C arrays; a null \p Workgroup is {0, 0, 0}.
LaunchDims dims(const uint32_t Grid[3], const uint32_t Workgroup[3]) {
  LaunchDims D;
  for (unsigned I = 0; I < 3; ++I) {
    D.Grid[I] = Grid[I];
    D.Workgroup[I] = Workgroup ? Workgroup[I] : 0;
  }
  return D;
}

/// The arguments of \p A in host::Arg order: positional, then named.
std::vector<Arg> argList(const wave_args &A) {
  std::vector<Arg> All = A.Positional;
  llvm::append_range(All, A.Named);
  return All;
}

/// Adds \p V to \p A, by \p Name or (null) at the next position.
wave_status_t addArg(wave_args_t A, const char *Name, ArgValue V) {
  if (Name)
    A->Named.emplace_back(std::string(Name), std::move(V));
  else
    A->Positional.emplace_back(std::move(V));
  return WAVE_SUCCESS;
}

/// Parses the language name \p Lang of \p Func into \p Out.
wave_status_t parseLang(const char *Func, const char *Lang,
                        std::optional<hir::Language> &Out) {
  Out = hir::parseLanguageName(Lang);
  if (!Out)
    return invalid(std::string(Func) + ": unknown language '" + Lang +
                   "' (expected python, cpp, rust or typescript)");
  return WAVE_SUCCESS;
}

/// Checks \p Func's opt_level and max_registers (checkCompileLimits());
/// wave.h's max_registers 0 is wave-ra's default (32).
wave_status_t checkCompileArgs(const char *Func, unsigned OptLevel,
                               unsigned &MaxRegisters) {
  if (MaxRegisters == 0)
    MaxRegisters = driver::CompilerOptions().MaxRegisters;
  return status(checkCompileLimits(OptLevel, MaxRegisters, "optimisation level",
                                   "max_registers", std::string(Func) + ": "));
}

} // namespace

extern "C" {

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

const char *wave_last_error(void) { return LastError.c_str(); }

const char *wave_status_name(wave_status_t Status) {
  switch (Status) {
  case WAVE_SUCCESS:
    return "WAVE_SUCCESS";
  case WAVE_ERROR_INVALID_ARGUMENT:
    return "WAVE_ERROR_INVALID_ARGUMENT";
  case WAVE_ERROR_NO_DEVICE:
    return "WAVE_ERROR_NO_DEVICE";
  case WAVE_ERROR_COMPILE:
    return "WAVE_ERROR_COMPILE";
  case WAVE_ERROR_FAULT:
    return "WAVE_ERROR_FAULT";
  case WAVE_ERROR_LIMIT:
    return "WAVE_ERROR_LIMIT";
  case WAVE_ERROR_IO:
    return "WAVE_ERROR_IO";
  case WAVE_ERROR_BACKEND:
    return "WAVE_ERROR_BACKEND";
  }
  return "WAVE_ERROR_UNKNOWN";
}

//===----------------------------------------------------------------------===//
// Devices
//===----------------------------------------------------------------------===//

wave_status_t wave_device_count(size_t *Count) {
  return guarded(__func__, [&] {
    if (!Count)
      return null(__func__, "count");
    *Count = listDevices().size();
    return WAVE_SUCCESS;
  });
}

wave_status_t wave_device_name(size_t Index, const char **Name) {
  return guarded(__func__, [&] {
    if (!Name)
      return null(__func__, "name");
    std::vector<DeviceInfo> Devices = listDevices();
    if (Index >= Devices.size())
      return invalid("wave_device_name: device index " + std::to_string(Index) +
                     " out of range (" + std::to_string(Devices.size()) +
                     " devices)");
    *Name = internName(Devices[Index].Name);
    return WAVE_SUCCESS;
  });
}

wave_status_t wave_device_open(const char *Name, unsigned Jobs,
                               wave_device_t *Out) {
  DeviceOptions Defaults;
  return wave_device_open_ex(Name, Jobs, Defaults.DeviceMemory,
                             Defaults.TimeoutSeconds, Out);
}

wave_status_t wave_device_open_ex(const char *Name, unsigned Jobs,
                                  uint64_t DeviceMemory, double TimeoutSeconds,
                                  wave_device_t *Out) {
  return guarded(__func__, [&] {
    if (!Out)
      return null(__func__, "device");
    *Out = nullptr;
    if (!Name)
      return null(__func__, "name");
    DeviceOptions Opts;
    Opts.Jobs = Jobs;
    Opts.DeviceMemory = DeviceMemory;
    Opts.TimeoutSeconds = TimeoutSeconds;
    return make(Device::open(Name, Opts), Out);
  });
}

wave_status_t wave_device_synchronize(wave_device_t Device) {
  return guarded(__func__, [&] {
    if (!Device)
      return null(__func__, "device");
    return status(Device->D.synchronize());
  });
}

void wave_device_release(wave_device_t Device) { delete Device; }

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

wave_status_t wave_buffer_create(wave_device_t Device, uint64_t Bytes,
                                 wave_type_t Element, wave_buffer_t *Out) {
  return guarded(__func__, [&] {
    if (!Out)
      return null(__func__, "buffer");
    *Out = nullptr;
    if (!Device)
      return null(__func__, "device");
    std::optional<WbinType> T;
    if (!toWbinType(Element, T))
      return invalid("wave_buffer_create: unknown element type " +
                     std::to_string(static_cast<int>(Element)));
    return make(Device->D.allocate(Bytes, T), Out);
  });
}

wave_status_t wave_buffer_write(wave_buffer_t Buffer, uint64_t Offset,
                                const void *Data, uint64_t Bytes) {
  return guarded(__func__, [&] {
    if (!Buffer)
      return null(__func__, "buffer");
    if (!Data && Bytes)
      return null(__func__, "data");
    return status(Buffer->B.write(
        ArrayRef<uint8_t>(static_cast<const uint8_t *>(Data), Bytes), Offset));
  });
}

wave_status_t wave_buffer_read(wave_buffer_t Buffer, uint64_t Offset,
                               void *Data, uint64_t Bytes) {
  return guarded(__func__, [&] {
    if (!Buffer)
      return null(__func__, "buffer");
    if (!Data && Bytes)
      return null(__func__, "data");
    return status(Buffer->B.read(
        MutableArrayRef<uint8_t>(static_cast<uint8_t *>(Data), Bytes), Offset));
  });
}

uint64_t wave_buffer_size(wave_buffer_t Buffer) {
  return Buffer ? Buffer->B.size() : 0;
}

void wave_buffer_release(wave_buffer_t Buffer) { delete Buffer; }

//===----------------------------------------------------------------------===//
// Modules
//===----------------------------------------------------------------------===//

wave_status_t wave_module_load(wave_device_t Device, const char *Path,
                               wave_module_t *Out) {
  return guarded(__func__, [&] {
    if (!Out)
      return null(__func__, "module");
    *Out = nullptr;
    if (!Device)
      return null(__func__, "device");
    if (!Path)
      return null(__func__, "path");
    return make(Device->D.loadModule(StringRef(Path)), Out);
  });
}

wave_status_t wave_module_load_bytes(wave_device_t Device, const void *Bytes,
                                     size_t Size, wave_module_t *Out) {
  return guarded(__func__, [&] {
    if (!Out)
      return null(__func__, "module");
    *Out = nullptr;
    if (!Device)
      return null(__func__, "device");
    if (!Bytes && Size)
      return null(__func__, "bytes");
    return make(
        Device->D.loadModule(
            ArrayRef<uint8_t>(static_cast<const uint8_t *>(Bytes), Size),
            "<memory>"),
        Out);
  });
}

wave_status_t wave_module_compile_file(wave_device_t Device, const char *Path,
                                       const char *Lang, unsigned OptLevel,
                                       unsigned MaxRegisters,
                                       wave_module_t *Out) {
  return guarded(__func__, [&] {
    if (!Out)
      return null(__func__, "module");
    *Out = nullptr;
    if (!Device)
      return null(__func__, "device");
    if (!Path)
      return null(__func__, "path");
    if (wave_status_t S = checkCompileArgs(__func__, OptLevel, MaxRegisters))
      return S;
    std::optional<hir::Language> L;
    if (Lang && *Lang)
      if (wave_status_t S = parseLang(__func__, Lang, L))
        return S;
    return make(Device->D.compileFile(Path, L, OptLevel, MaxRegisters), Out);
  });
}

wave_status_t wave_module_compile_source(wave_device_t Device,
                                         const char *Source, const char *Lang,
                                         unsigned OptLevel,
                                         unsigned MaxRegisters,
                                         wave_module_t *Out) {
  return guarded(__func__, [&] {
    if (!Out)
      return null(__func__, "module");
    *Out = nullptr;
    if (!Device)
      return null(__func__, "device");
    if (!Source)
      return null(__func__, "source");
    if (!Lang)
      return null(__func__, "lang");
    if (wave_status_t S = checkCompileArgs(__func__, OptLevel, MaxRegisters))
      return S;
    std::optional<hir::Language> L;
    if (wave_status_t S = parseLang(__func__, Lang, L))
      return S;
    driver::CompilerOptions Opts;
    Opts.Lang = *L;
    Opts.OptLevel = OptLevel;
    Opts.MaxRegisters = MaxRegisters;
    return make(Device->D.compile(Source, "<source>", Opts), Out);
  });
}

void wave_module_release(wave_module_t Module) { delete Module; }

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

wave_status_t wave_kernel_get(wave_module_t Module, const char *Name,
                              wave_kernel_t *Out) {
  return guarded(__func__, [&] {
    if (!Out)
      return null(__func__, "kernel");
    *Out = nullptr;
    if (!Module)
      return null(__func__, "module");
    if (!Name)
      return null(__func__, "name");
    Expected<Kernel> K = Module->M.kernel(Name);
    if (!K)
      return status(K.takeError());
    *Out = new wave_kernel{std::move(*K), Module->M.device()};
    return WAVE_SUCCESS;
  });
}

size_t wave_kernel_param_count(wave_kernel_t Kernel) {
  return Kernel ? Kernel->K.params().size() : 0;
}

wave_status_t wave_kernel_param(wave_kernel_t Kernel, size_t Index,
                                const char **Name, int *IsBuffer,
                                wave_type_t *Type) {
  return guarded(__func__, [&] {
    if (!Kernel)
      return null(__func__, "kernel");
    ArrayRef<WbinParam> Params = Kernel->K.params();
    if (Index >= Params.size())
      return invalid("wave_kernel_param: kernel '" + Kernel->K.name() +
                     "' has no parameter " + std::to_string(Index) + " (" +
                     std::to_string(Params.size()) + " parameters)");
    const WbinParam &P = Params[Index];
    if (Name)
      *Name = P.Name.c_str();
    if (IsBuffer)
      *IsBuffer = P.Kind == WbinParamKind::Buffer;
    if (Type)
      *Type = static_cast<wave_type_t>(P.Type);
    return WAVE_SUCCESS;
  });
}

void wave_kernel_release(wave_kernel_t Kernel) { delete Kernel; }

//===----------------------------------------------------------------------===//
// Arguments
//===----------------------------------------------------------------------===//

wave_status_t wave_args_create(wave_args_t *Out) {
  return guarded(__func__, [&] {
    if (!Out)
      return null(__func__, "args");
    *Out = new wave_args();
    return WAVE_SUCCESS;
  });
}

wave_status_t wave_args_buffer(wave_args_t Args, const char *Name,
                               wave_buffer_t Buffer) {
  return guarded(__func__, [&] {
    if (!Args)
      return null(__func__, "args");
    if (!Buffer)
      return invalid(std::string("wave_args_buffer: buffer for ") +
                     (Name ? "parameter '" + std::string(Name) + "'"
                           : std::string("a positional argument")) +
                     " is NULL");
    return addArg(Args, Name, Buffer->B);
  });
}

wave_status_t wave_args_int(wave_args_t Args, const char *Name, int64_t Value) {
  return guarded(__func__, [&] {
    if (!Args)
      return null(__func__, "args");
    return addArg(Args, Name, Value);
  });
}

wave_status_t wave_args_float(wave_args_t Args, const char *Name,
                              double Value) {
  return guarded(__func__, [&] {
    if (!Args)
      return null(__func__, "args");
    return addArg(Args, Name, Value);
  });
}

void wave_args_release(wave_args_t Args) { delete Args; }

//===----------------------------------------------------------------------===//
// Launches, streams and events
//===----------------------------------------------------------------------===//

wave_status_t wave_launch(wave_kernel_t Kernel, const uint32_t Grid[3],
                          const uint32_t Workgroup[3], wave_args_t Args) {
  return guarded(__func__, [&] {
    if (!Kernel)
      return null(__func__, "kernel");
    if (!Grid)
      return null(__func__, "grid");
    std::vector<Arg> List;
    if (Args)
      List = argList(*Args);
    return status(Kernel->K.launch(dims(Grid, Workgroup), List));
  });
}

wave_status_t wave_stream_create(wave_device_t Device, wave_stream_t *Out) {
  return guarded(__func__, [&] {
    if (!Out)
      return null(__func__, "stream");
    *Out = nullptr;
    if (!Device)
      return null(__func__, "device");
    return make(Device->D.createStream(), Out);
  });
}

wave_status_t wave_stream_synchronize(wave_stream_t Stream) {
  return guarded(__func__, [&] {
    if (!Stream)
      return null(__func__, "stream");
    return status(Stream->S.synchronize());
  });
}

void wave_stream_release(wave_stream_t Stream) { delete Stream; }

wave_status_t wave_enqueue(wave_kernel_t Kernel, wave_stream_t Stream,
                           const uint32_t Grid[3], const uint32_t Workgroup[3],
                           wave_args_t Args, wave_event_t *Out) {
  return guarded(__func__, [&] {
    if (!Out)
      return null(__func__, "event");
    *Out = nullptr;
    if (!Kernel)
      return null(__func__, "kernel");
    if (!Grid)
      return null(__func__, "grid");
    std::vector<Arg> List;
    if (Args)
      List = argList(*Args);
    host::Stream S = Stream ? Stream->S : Kernel->D.defaultStream();
    return make(Kernel->K.enqueue(S, dims(Grid, Workgroup), List), Out);
  });
}

wave_status_t wave_event_wait(wave_event_t Event, double *ElapsedUs) {
  return guarded(__func__, [&] {
    if (!Event)
      return null(__func__, "event");
    wave_status_t S = status(Event->E.wait());
    if (ElapsedUs)
      *ElapsedUs = Event->E.elapsedMicroseconds();
    return S;
  });
}

void wave_event_release(wave_event_t Event) { delete Event; }

} // extern "C"
