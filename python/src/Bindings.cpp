//===- Bindings.cpp - The Python module wavetools._wavetools --------------===//
//
// pybind11 bindings of the host runtime API (wave/Host/Runtime.h): devices,
// buffers typed by NumPy dtypes, modules, kernels called like functions,
// streams and events. python/wavetools/__init__.py re-exports them and adds
// the module-level conveniences (default_device(), compile(), load()).
//
// Every llvm::Error becomes a wavetools.Error whose .code names its
// HostErrorCode ("invalid_argument", "compile", "fault", ...) and whose
// message is the HostError's; no C++ exception and no error reaches Python
// any other way. Launches, waits, synchronisations and compilations run with
// the GIL released.
//
//===----------------------------------------------------------------------===//
#include "wave/Host/Runtime.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Error.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <array>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace py = pybind11;
using namespace wave;
using namespace wave::host;

namespace {

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

/// wavetools.Error, created at module initialisation.
PyObject *ErrorType = nullptr;

/// A HostError on its way to Python: thrown by the bindings, turned into a
/// wavetools.Error by the translator registered in the module.
struct WaveError {
  HostErrorCode Code;
  std::string Message;
};

/// The .code of a wavetools.Error for \p C.
const char *codeName(HostErrorCode C) {
  switch (C) {
  case HostErrorCode::InvalidArgument:
    return "invalid_argument";
  case HostErrorCode::NoDevice:
    return "no_device";
  case HostErrorCode::Compile:
    return "compile";
  case HostErrorCode::Fault:
    return "fault";
  case HostErrorCode::Limit:
    return "limit";
  case HostErrorCode::Io:
    return "io";
  case HostErrorCode::Backend:
    return "backend";
  }
  return "backend";
}

[[noreturn]] void throwInvalid(std::string Message) {
  throw WaveError{HostErrorCode::InvalidArgument, std::move(Message)};
}

/// Throws \p E, if it is an error, as a WaveError.
void check(llvm::Error E) {
  if (!E)
    return;
  HostErrorCode Code = errorCode(E);
  std::string Message;
  llvm::handleAllErrors(std::move(E), [&](const llvm::ErrorInfoBase &B) {
    if (!Message.empty())
      Message += '\n';
    Message += B.message();
  });
  throw WaveError{Code, std::move(Message)};
}

/// The value of \p V, or its error thrown as a WaveError.
template <typename T> T unwrap(llvm::Expected<T> V) {
  if (!V)
    check(V.takeError());
  return std::move(*V);
}

/// Sets the Python error for a WaveError.
void raiseWaveError(const WaveError &E) {
  PyObject *Exc = PyObject_CallFunction(ErrorType, "s", E.Message.c_str());
  if (!Exc)
    return; // The call set its own error (MemoryError, mostly).
  PyObject *Code = PyUnicode_FromString(codeName(E.Code));
  if (!Code || PyObject_SetAttrString(Exc, "code", Code) != 0) {
    Py_XDECREF(Code);
    Py_DECREF(Exc);
    return;
  }
  Py_DECREF(Code);
  PyErr_SetObject(ErrorType, Exc);
  Py_DECREF(Exc);
}

//===----------------------------------------------------------------------===//
// Element types and NumPy dtypes
//===----------------------------------------------------------------------===//

/// The WbinType of NumPy \p DT (float32, float64, int32, uint32, float16),
/// or std::nullopt.
std::optional<WbinType> wbinTypeOfDtype(const py::dtype &DT) {
  char Kind = DT.kind();
  py::ssize_t Size = DT.itemsize();
  if (Kind == 'f' && Size == 4)
    return WbinType::F32;
  if (Kind == 'f' && Size == 8)
    return WbinType::F64;
  if (Kind == 'f' && Size == 2)
    return WbinType::F16;
  if (Kind == 'i' && Size == 4)
    return WbinType::I32;
  if (Kind == 'u' && Size == 4)
    return WbinType::U32;
  return std::nullopt;
}

/// The native NumPy dtype of elements of \p T (bf16 as its uint16 bits,
/// untyped buffers as bytes).
py::dtype dtypeOf(std::optional<WbinType> T) {
  if (!T)
    return py::dtype("uint8");
  switch (*T) {
  case WbinType::I32:
    return py::dtype("int32");
  case WbinType::U32:
    return py::dtype("uint32");
  case WbinType::F32:
    return py::dtype("float32");
  case WbinType::F16:
    return py::dtype("float16");
  case WbinType::BF16:
    return py::dtype("uint16");
  case WbinType::F64:
    return py::dtype("float64");
  }
  return py::dtype("uint8");
}

/// The WbinType of the dtype \p DT, which must have one; \p What names the
/// value in the message.
WbinType requireWbinType(const py::dtype &DT, const std::string &What) {
  std::optional<WbinType> T = wbinTypeOfDtype(DT);
  if (!T)
    throwInvalid(What + ": dtype " + py::str(DT).cast<std::string>() +
                 " has no WAVE element type (use float32, float64, int32, "
                 "uint32 or float16)");
  return *T;
}

/// \p A as a C-contiguous array of its own element type in native byte
/// order (A itself when it already is one).
py::array contiguous(const py::array &A, WbinType T) {
  return py::module_::import("numpy").attr("ascontiguousarray")(A, dtypeOf(T));
}

//===----------------------------------------------------------------------===//
// The Python classes
//===----------------------------------------------------------------------===//

/// wavetools.Buffer: a device buffer and the dtype of its elements.
struct PyBuffer {
  Buffer B;

  py::dtype dtype() const { return dtypeOf(B.elementType()); }
  uint64_t elementSize() const {
    std::optional<WbinType> T = B.elementType();
    return T ? wbinTypeSize(*T) : 1;
  }
  uint64_t length() const { return B.size() / elementSize(); }

  py::array numpy() const {
    py::array Out(dtype(),
                  std::vector<py::ssize_t>{static_cast<py::ssize_t>(length())});
    auto *Data = static_cast<uint8_t *>(Out.mutable_data());
    uint64_t Bytes = length() * elementSize();
    {
      py::gil_scoped_release NoGil;
      check(B.read(llvm::MutableArrayRef<uint8_t>(Data, Bytes)));
    }
    return Out;
  }

  void write(const py::array &A, uint64_t Offset) {
    // Typed buffers take arrays of their own element type; untyped ones,
    // any array's bytes.
    std::optional<WbinType> T = B.elementType();
    if (T && requireWbinType(A.dtype(), "Buffer.write") != *T)
      throwInvalid("Buffer.write: an array of " +
                   py::str(A.dtype()).cast<std::string>() +
                   " into a buffer of " + py::str(dtype()).cast<std::string>());
    py::array C = T ? contiguous(A, *T)
                    : py::module_::import("numpy").attr("ascontiguousarray")(A);
    uint64_t Bytes = C.nbytes();
    uint64_t ByteOffset = Offset * elementSize();
    if (Offset > length() || Bytes > B.size() - ByteOffset)
      throwInvalid("Buffer.write: " + std::to_string(C.size()) +
                   " elements at offset " + std::to_string(Offset) +
                   " do not fit in a buffer of " + std::to_string(length()));
    const auto *Data = static_cast<const uint8_t *>(C.data());
    py::gil_scoped_release NoGil;
    check(B.write(llvm::ArrayRef<uint8_t>(Data, Bytes), ByteOffset));
  }

  std::string repr() const {
    return "<wavetools.Buffer " + std::to_string(length()) + " x " +
           py::str(dtype()).cast<std::string>() + " on '" +
           B.device().info().Name + "'>";
  }
};

/// wavetools.Stream.
struct PyStream {
  Stream S;

  void synchronize() {
    py::gil_scoped_release NoGil;
    check(S.synchronize());
  }
};

/// wavetools.Event.
struct PyEvent {
  Event E;

  void wait() {
    py::gil_scoped_release NoGil;
    check(E.wait());
  }
  bool done() const { return E.done(); }
  double elapsed() {
    py::gil_scoped_release NoGil;
    return E.elapsedMicroseconds();
  }
};

struct PyKernel;

/// wavetools.Module.
struct PyModule {
  Module M;

  PyKernel kernel(const std::string &Name) const;
  std::string repr() const {
    std::string S = "<wavetools.Module [";
    std::vector<std::string> Names = M.kernelNames();
    for (size_t I = 0; I < Names.size(); ++I)
      S += (I ? ", " : "") + Names[I];
    return S + "] on '" + M.device().info().Name + "'>";
  }
};

/// The spelling of a buffer parameter's or scalar's type in signatures.
std::string paramSignature(const WbinParam &P) {
  std::string S = P.Name + ": " + wbinTypeName(P.Type).str();
  if (P.Kind == WbinParamKind::Buffer)
    S += std::string("[] ") + wbinAccessName(P.Access).str();
  return S;
}

/// The name of \p V's type: "str", "NoneType", ...
std::string typeName(py::handle V) {
  return py::str(py::type::handle_of(V).attr("__name__")).cast<std::string>();
}

/// Grid or workgroup dimensions from an int or a tuple of 1 to 3 ints;
/// missing dimensions are 1.
std::array<uint32_t, 3> parseDims(const py::handle &V, const char *What) {
  std::vector<py::handle> Items;
  py::tuple Tuple;
  if (py::isinstance<py::tuple>(V) || py::isinstance<py::list>(V)) {
    Tuple = py::tuple(py::reinterpret_borrow<py::object>(V));
    for (py::handle H : Tuple)
      Items.push_back(H);
  } else {
    Items.push_back(V);
  }
  if (Items.empty() || Items.size() > 3)
    throwInvalid(std::string(What) + "= must be an int or a tuple of 1 to 3 "
                                     "ints");
  std::array<uint32_t, 3> Dims = {1, 1, 1};
  for (size_t I = 0; I < Items.size(); ++I) {
    py::handle H = Items[I];
    if (py::isinstance<py::bool_>(H) || !PyIndex_Check(H.ptr()))
      throwInvalid(std::string(What) +
                   "= must be an int or a tuple of 1 to 3 ints, not " +
                   typeName(H));
    int Overflow = 0;
    py::object Index =
        py::reinterpret_steal<py::object>(PyNumber_Index(H.ptr()));
    if (!Index)
      throw py::error_already_set();
    long long N = PyLong_AsLongLongAndOverflow(Index.ptr(), &Overflow);
    if (Overflow || N < 0 || N > std::numeric_limits<uint32_t>::max())
      throwInvalid(std::string(What) + "= dimension " + std::to_string(I) +
                   " out of range (0 to 4294967295)");
    Dims[I] = static_cast<uint32_t>(N);
  }
  return Dims;
}

/// A NumPy array passed for a buffer parameter of a synchronous launch:
/// the temporary buffer it was copied to, and where to copy it back.
struct ArrayArg {
  py::array Original;
  py::array Contiguous; ///< Original, or its contiguous copy.
  Buffer Temp;
  uint64_t Bytes; ///< of the array (the buffer has at least one element).
  bool CopyBack;  ///< whether the kernel writes the parameter.
};

/// wavetools.Kernel.
struct PyKernel {
  Kernel K;
  Device D;

  py::list params() const {
    py::list L;
    for (const WbinParam &P : K.params())
      L.append(py::make_tuple(
          P.Name, P.Kind == WbinParamKind::Buffer ? "buffer" : "scalar",
          wbinTypeName(P.Type).str(),
          P.Kind == WbinParamKind::Buffer ? wbinAccessName(P.Access).str()
                                          : std::string("read")));
    return L;
  }

  std::string signature() const {
    std::string S = K.name() + "(";
    llvm::ArrayRef<WbinParam> Params = K.params();
    for (size_t I = 0; I < Params.size(); ++I)
      S += (I ? ", " : "") + paramSignature(Params[I]);
    return S + ")";
  }

  /// The parameter an argument binds to: positional \p Index, or \p Name.
  const WbinParam *paramFor(std::optional<size_t> Index,
                            const std::string &Name) const {
    llvm::ArrayRef<WbinParam> Params = K.params();
    if (Index)
      return *Index < Params.size() ? &Params[*Index] : nullptr;
    for (const WbinParam &P : Params)
      if (P.Name == Name)
        return &P;
    return nullptr;
  }

  /// The words naming an argument in messages.
  std::string argName(std::optional<size_t> Index,
                      const std::string &Name) const {
    std::string S = "kernel '" + K.name() + "': ";
    if (const WbinParam *P = paramFor(Index, Name))
      return S + "parameter '" + P->Name + "'";
    if (Index)
      return S + "positional argument " + std::to_string(*Index);
    return S + "argument '" + Name + "'";
  }

  /// Converts the Python argument \p V; arrays (only when \p Arrays) go to
  /// temporary buffers recorded in \p Temps.
  ArgValue convert(py::handle V, std::optional<size_t> Index,
                   const std::string &Name, bool Arrays,
                   std::vector<ArrayArg> &Temps) {
    if (py::isinstance<PyBuffer>(V))
      return V.cast<PyBuffer &>().B;
    if (py::isinstance<py::array>(V)) {
      if (!Arrays)
        throwInvalid(argName(Index, Name) +
                     ": an asynchronous launch takes Buffers, not arrays "
                     "(use Device.buffer(array))");
      return convertArray(py::reinterpret_borrow<py::array>(V), Index, Name,
                          Temps);
    }
    py::object NumPy = py::module_::import("numpy");
    if (py::isinstance<py::bool_>(V) || py::isinstance(V, NumPy.attr("bool_")))
      return static_cast<int64_t>(PyObject_IsTrue(V.ptr()) == 1);
    if (PyIndex_Check(V.ptr())) {
      py::object Int =
          py::reinterpret_steal<py::object>(PyNumber_Index(V.ptr()));
      if (!Int)
        throw py::error_already_set();
      int Overflow = 0;
      long long N = PyLong_AsLongLongAndOverflow(Int.ptr(), &Overflow);
      if (Overflow)
        throwInvalid(argName(Index, Name) + ": integer " +
                     py::str(Int).cast<std::string>() +
                     " does not fit in 64 bits");
      return static_cast<int64_t>(N);
    }
    if (py::isinstance<py::float_>(V) ||
        py::isinstance(V, NumPy.attr("floating")))
      return PyFloat_AsDouble(V.ptr());
    throwInvalid(argName(Index, Name) + ": cannot pass a " + typeName(V) +
                 " (expected a wavetools.Buffer, a numpy.ndarray, an int, a "
                 "float or a bool)");
  }

  ArgValue convertArray(py::array A, std::optional<size_t> Index,
                        const std::string &Name, std::vector<ArrayArg> &Temps) {
    WbinType T = requireWbinType(A.dtype(), argName(Index, Name));
    const WbinParam *P = paramFor(Index, Name);
    bool Writes =
        P && P->Kind == WbinParamKind::Buffer && (P->Access & WbinAccessWrite);
    if (Writes && !A.writeable())
      throwInvalid(argName(Index, Name) +
                   ": the kernel writes it, but the array is read-only");
    py::array C = contiguous(A, T);
    uint64_t Bytes = C.nbytes();
    // An empty array still gets a buffer (one element): the kernel sees a
    // valid address, and nothing is copied.
    Buffer Temp =
        unwrap(D.allocate(std::max<uint64_t>(Bytes, wbinTypeSize(T)), T));
    if (Bytes)
      check(Temp.write(llvm::ArrayRef<uint8_t>(
          static_cast<const uint8_t *>(C.data()), Bytes)));
    Temps.push_back(ArrayArg{A, C, Temp, Bytes, Writes});
    return Temp;
  }

  /// The host::Args of a call's arguments.
  std::vector<Arg> collect(const py::args &Args, const py::dict &Kwargs,
                           bool Arrays, std::vector<ArrayArg> &Temps) {
    std::vector<Arg> Out;
    for (size_t I = 0; I < Args.size(); ++I)
      Out.emplace_back(convert(Args[I], I, "", Arrays, Temps));
    for (auto [Key, Value] : Kwargs) {
      std::string Name = py::str(Key).cast<std::string>();
      Out.emplace_back(Name, convert(Value, std::nullopt, Name, Arrays, Temps));
    }
    return Out;
  }

  /// Takes grid=, workgroup= and (when \p Stream) stream= out of \p Kwargs.
  LaunchDims takeDims(py::dict &Kwargs, py::object *Stream) const {
    LaunchDims Dims;
    if (!Kwargs.contains("grid"))
      throwInvalid("kernel '" + K.name() +
                   "': grid= is required (an int or a tuple of 1 to 3 ints)");
    Dims.Grid = parseDims(Kwargs["grid"], "grid");
    PyDict_DelItemString(Kwargs.ptr(), "grid");
    if (Kwargs.contains("workgroup")) {
      py::object W = Kwargs["workgroup"];
      if (!W.is_none())
        Dims.Workgroup = parseDims(W, "workgroup");
      PyDict_DelItemString(Kwargs.ptr(), "workgroup");
    }
    if (Stream && Kwargs.contains("stream")) {
      *Stream = Kwargs["stream"];
      PyDict_DelItemString(Kwargs.ptr(), "stream");
    }
    return Dims;
  }

  void call(const py::args &Args, const py::kwargs &KwargsIn) {
    py::dict Kwargs = py::dict(KwargsIn); // A copy: takeDims() edits it.
    LaunchDims Dims = takeDims(Kwargs, nullptr);
    std::vector<ArrayArg> Temps;
    std::vector<Arg> List = collect(Args, Kwargs, /*Arrays=*/true, Temps);
    {
      py::gil_scoped_release NoGil;
      check(K.launch(Dims, List));
    }
    for (ArrayArg &AA : Temps) {
      if (!AA.CopyBack || !AA.Bytes)
        continue;
      // Into the contiguous copy (the array itself when it was one), then
      // into the array.
      py::array Dest = AA.Contiguous;
      check(AA.Temp.read(llvm::MutableArrayRef<uint8_t>(
          static_cast<uint8_t *>(Dest.mutable_data()), AA.Bytes)));
      if (!Dest.is(AA.Original))
        py::module_::import("numpy").attr("copyto")(AA.Original, Dest);
    }
  }

  PyEvent launch(const py::args &Args, const py::kwargs &KwargsIn) {
    py::dict Kwargs = py::dict(KwargsIn);
    py::object StreamObj = py::none();
    LaunchDims Dims = takeDims(Kwargs, &StreamObj);
    std::vector<ArrayArg> Temps;
    std::vector<Arg> List = collect(Args, Kwargs, /*Arrays=*/false, Temps);
    Stream S = D.defaultStream();
    if (!StreamObj.is_none()) {
      if (!py::isinstance<PyStream>(StreamObj))
        throwInvalid("kernel '" + K.name() +
                     "': stream= must be a wavetools.Stream or None");
      S = StreamObj.cast<PyStream &>().S;
    }
    py::gil_scoped_release NoGil;
    return PyEvent{unwrap(K.enqueue(S, Dims, List))};
  }
};

PyKernel PyModule::kernel(const std::string &Name) const {
  return PyKernel{unwrap(M.kernel(Name)), M.device()};
}

/// wavetools.Device.
struct PyDevice {
  Device D;

  PyBuffer buffer(const py::array &A) {
    WbinType T = requireWbinType(A.dtype(), "Device.buffer");
    py::array C = contiguous(A, T);
    uint64_t Bytes = C.nbytes();
    if (!Bytes)
      throwInvalid("Device.buffer: the array is empty (a buffer holds at "
                   "least one element)");
    PyBuffer B{unwrap(D.allocate(Bytes, T))};
    const auto *Data = static_cast<const uint8_t *>(C.data());
    py::gil_scoped_release NoGil;
    check(B.B.write(llvm::ArrayRef<uint8_t>(Data, Bytes)));
    return B;
  }

  PyBuffer empty(int64_t Count, const py::object &DType) {
    py::dtype DT = py::dtype::from_args(DType);
    WbinType T = requireWbinType(DT, "Device.empty");
    if (Count <= 0)
      throwInvalid("Device.empty: count must be positive, not " +
                   std::to_string(Count));
    return PyBuffer{
        unwrap(D.allocate(static_cast<uint64_t>(Count) * wbinTypeSize(T), T))};
  }

  PyModule compileFile(const py::object &PathObj, const py::object &Lang,
                       unsigned OptLevel, unsigned MaxRegisters) {
    std::string Path = fspath(PathObj);
    std::optional<hir::Language> L;
    if (!Lang.is_none())
      L = parseLang(py::str(Lang).cast<std::string>());
    checkLimits(OptLevel, MaxRegisters);
    py::gil_scoped_release NoGil;
    return PyModule{unwrap(D.compileFile(Path, L, OptLevel, MaxRegisters))};
  }

  PyModule compileSource(const std::string &Text, const std::string &Lang,
                         const std::string &Name, unsigned OptLevel,
                         unsigned MaxRegisters) {
    driver::CompilerOptions Opts;
    Opts.Lang = parseLang(Lang);
    checkLimits(OptLevel, MaxRegisters);
    Opts.OptLevel = OptLevel;
    Opts.MaxRegisters = MaxRegisters;
    py::gil_scoped_release NoGil;
    return PyModule{unwrap(D.compile(Text, Name, Opts))};
  }

  PyModule load(const py::object &What) {
    if (py::isinstance<py::bytes>(What) ||
        py::isinstance<py::bytearray>(What) ||
        py::isinstance<py::memoryview>(What)) {
      auto Copy =
          py::reinterpret_steal<py::bytes>(PyBytes_FromObject(What.ptr()));
      if (!Copy)
        throw py::error_already_set();
      std::string Bytes = Copy.cast<std::string>();
      py::gil_scoped_release NoGil;
      return PyModule{unwrap(D.loadModule(
          llvm::ArrayRef<uint8_t>(
              reinterpret_cast<const uint8_t *>(Bytes.data()), Bytes.size()),
          "<bytes>"))};
    }
    std::string Path = fspath(What);
    py::gil_scoped_release NoGil;
    return PyModule{unwrap(D.loadModule(llvm::StringRef(Path)))};
  }

  static std::string fspath(const py::object &Path) {
    return py::str(py::module_::import("os").attr("fspath")(Path))
        .cast<std::string>();
  }
  static hir::Language parseLang(const std::string &Lang) {
    std::optional<hir::Language> L = hir::parseLanguageName(Lang);
    if (!L)
      throwInvalid("unknown language '" + Lang +
                   "' (expected python, cpp, rust or typescript)");
    return *L;
  }
  /// checkCompileLimits() in the words of the keyword arguments.
  static void checkLimits(unsigned OptLevel, unsigned MaxRegisters) {
    check(checkCompileLimits(OptLevel, MaxRegisters, "opt_level",
                             "max_registers"));
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// The module
//===----------------------------------------------------------------------===//

PYBIND11_MODULE(_wavetools, M) {
  // Every docstring starts with its own signature line, in Python's words
  // (pybind11's would spell *args launches as (self, *args, **kwargs)).
  py::options Options;
  Options.disable_function_signatures();
  M.doc() = "The WAVE host runtime (wave/Host/Runtime.h): devices, buffers, "
            "modules and kernels.\n\nUse the package `wavetools`, which "
            "re-exports these and adds default_device(), compile(), "
            "compile_source() and load().";

  ErrorType = PyErr_NewExceptionWithDoc(
      "wavetools.Error",
      "An error of the WAVE host runtime.\n\n"
      "str(e) is the message, in the tools' words (for a compile error, "
      "the located diagnostics with their source lines and carets). "
      "e.code names what went wrong: \"invalid_argument\" (a bad name, "
      "type, size, shape or handle), \"no_device\" (the backend's runtime "
      "or device is missing), \"compile\" (a kernel source or .wbin did not "
      "compile or load), \"fault\" (the kernel faulted), \"limit\" (the "
      "instruction limit was reached), \"io\" (a file could not be read) "
      "or \"backend\" (the GPU runtime reported a failure).",
      PyExc_Exception, nullptr);
  if (!ErrorType)
    throw py::error_already_set();
  PyObject_SetAttrString(ErrorType, "code", Py_None);
  M.add_object("Error", py::handle(ErrorType));
  py::register_exception_translator([](std::exception_ptr P) {
    try {
      if (P)
        std::rethrow_exception(P);
    } catch (const WaveError &E) {
      raiseWaveError(E);
    }
  });

  M.attr("__version__") = WAVE_VERSION_STRING;
  M.def(
      "devices",
      [] {
        std::vector<std::string> Names;
        for (const DeviceInfo &I : listDevices())
          Names.push_back(I.Name);
        return Names;
      },
      "devices() -> list[str]\n\n"
      "The names of the devices present, \"emu\" (the reference emulator) "
      "first, then \"hsa:N\" for each AMD GPU agent when the HSA runtime "
      "loads, then \"cuda:N\" for each CUDA device when the CUDA driver "
      "loads (none when they do not).");

  py::class_<PyDevice>(M, "Device",
                       "A place kernels run, with its device memory.\n\n"
                       "Open one with wavetools.device(name) or "
                       "wavetools.default_device().")
      .def_property_readonly(
          "name", [](const PyDevice &D) { return D.D.info().Name; },
          "The device's name, as wavetools.devices() lists it.")
      .def_property_readonly(
          "description",
          [](const PyDevice &D) { return D.D.info().Description; },
          "One line describing the device.")
      .def("buffer", &PyDevice::buffer, py::arg("array"),
           "buffer(array) -> Buffer\n\n"
           "A new buffer holding a copy of `array` (any shape, flattened in "
           "C order), typed by its dtype: float32, float64, int32, uint32 "
           "or float16.")
      .def("empty", &PyDevice::empty, py::arg("count"),
           py::arg("dtype") = py::dtype("float32"),
           "empty(count, dtype=numpy.float32) -> Buffer\n\n"
           "A new buffer of `count` elements of `dtype`, zero-filled.")
      .def("zeros", &PyDevice::empty, py::arg("count"),
           py::arg("dtype") = py::dtype("float32"),
           "zeros(count, dtype=numpy.float32) -> Buffer\n\n"
           "A new buffer of `count` elements of `dtype`, zero-filled (the "
           "same as empty()).")
      .def("compile", &PyDevice::compileFile, py::arg("path"),
           py::arg("lang") = py::none(), py::arg("opt_level") = 2,
           py::arg("max_registers") = 32,
           "compile(path, lang=None, opt_level=2, max_registers=32) -> "
           "Module\n\n"
           "Reads and compiles the kernel source file `path` for this "
           "device, as wave-compiler does (`opt_level` is its -O, "
           "`max_registers` its --max-registers). The language comes from "
           "the extension (.py .cpp .rs .ts .wir .wave) unless `lang` names "
           "one (\"python\", \"cpp\", \"rust\", \"typescript\"). Raises "
           "Error with code \"compile\" and every diagnostic on failure.")
      .def("compile_source", &PyDevice::compileSource, py::arg("text"),
           py::arg("lang"), py::arg("name") = "<source>",
           py::arg("opt_level") = 2, py::arg("max_registers") = 32,
           "compile_source(text, lang, name=\"<source>\", opt_level=2, "
           "max_registers=32) -> Module\n\n"
           "Compiles kernel source `text` in language `lang` (\"python\", "
           "\"cpp\", \"rust\", \"typescript\"); `name` names it in "
           "diagnostics.")
      .def("load", &PyDevice::load, py::arg("path_or_bytes"),
           "load(path_or_bytes) -> Module\n\n"
           "Loads a .wbin from a file path or from bytes.")
      .def(
          "synchronize",
          [](PyDevice &D) {
            py::gil_scoped_release NoGil;
            check(D.D.synchronize());
          },
          "synchronize()\n\n"
          "Waits until every launch on every stream of the device has "
          "finished; raises the first launch error no Event has raised.")
      .def(
          "stream",
          [](PyDevice &D) { return PyStream{unwrap(D.D.createStream())}; },
          "stream() -> Stream\n\n"
          "A new stream: launches on one stream run in order, launches on "
          "different streams may run concurrently.")
      .def(
          "__eq__",
          [](const PyDevice &D, py::object O) {
            return py::isinstance<PyDevice>(O) && O.cast<PyDevice &>().D == D.D;
          },
          "Whether both are the same opened device.")
      .def("__hash__",
           [](const PyDevice &D) { return py::hash(py::str(D.D.info().Name)); })
      .def("__repr__", [](const PyDevice &D) {
        return "<wavetools.Device '" + D.D.info().Name + "'>";
      });

  M.def(
      "device",
      [](const std::string &Name, unsigned Jobs, uint64_t DeviceMemory,
         double Timeout) {
        DeviceOptions Opts;
        Opts.Jobs = Jobs;
        Opts.DeviceMemory = DeviceMemory;
        Opts.TimeoutSeconds = Timeout;
        py::gil_scoped_release NoGil;
        return PyDevice{unwrap(Device::open(Name, Opts))};
      },
      py::arg("name") = "emu", py::arg("jobs") = 0,
      py::arg("device_memory") = 0, py::arg("timeout") = 60.0,
      "device(name=\"emu\", jobs=0, device_memory=0, timeout=60.0) -> "
      "Device\n\n"
      "Opens the device `name`: \"emu\" (the reference emulator), "
      "\"hsa:N\" (\"hsa\" means agent 0) when ROCm's HSA runtime loads, or "
      "\"cuda:N\" (\"cuda\" means device 0) when the CUDA driver loads; "
      "devices() lists them. `jobs` is the emulator's threads per launch, "
      "0 for one per hardware thread; results never depend on it. A GPU "
      "device allocates `device_memory` bytes of device memory when it "
      "opens, every buffer's storage (0: 1 GiB, or the GPU's memory when "
      "less; at most 4 GiB, WAVE addresses being 32-bit), and a launch on "
      "it fails with code \"limit\" after `timeout` seconds (<= 0: never). "
      "Raises Error with code \"no_device\" when the backend, its runtime "
      "or driver, or the device is absent. A kernel fault on a GPU device "
      "(code \"fault\") leaves the device unusable: later calls on it "
      "raise \"fault\"; open it again.");

  py::class_<PyBuffer>(
      M, "Buffer",
      "Memory on a device, of one element type; it stays there across "
      "launches.\n\n"
      "Create one with Device.buffer(array), Device.empty(count, dtype) or "
      "Device.zeros(count, dtype); pass it to a kernel for a buffer "
      "parameter of the same element type.")
      .def("numpy", &PyBuffer::numpy,
           "numpy() -> numpy.ndarray\n\n"
           "A new one-dimensional array holding a copy of the buffer.")
      .def("write", &PyBuffer::write, py::arg("array"), py::arg("offset") = 0,
           "write(array, offset=0)\n\n"
           "Copies `array` (of the buffer's dtype, any shape, in C order) "
           "into the buffer, starting at element `offset`.")
      .def_property_readonly(
          "size", [](const PyBuffer &B) { return B.B.size(); },
          "Size in bytes.")
      .def_property_readonly("dtype", &PyBuffer::dtype,
                             "The numpy.dtype of the elements.")
      .def_property_readonly(
          "device", [](const PyBuffer &B) { return PyDevice{B.B.device()}; },
          "The Device the buffer is on.")
      .def("__len__", &PyBuffer::length, "The number of elements.")
      .def("__repr__", &PyBuffer::repr);

  py::class_<PyStream>(M, "Stream",
                       "An in-order queue of launches on one device "
                       "(Device.stream()); pass it to Kernel.launch().")
      .def("synchronize", &PyStream::synchronize,
           "synchronize()\n\n"
           "Waits for every launch queued so far; raises the first launch "
           "error no Event has raised.")
      .def_property_readonly(
          "device", [](const PyStream &S) { return PyDevice{S.S.device()}; },
          "The Device of the stream.");

  py::class_<PyEvent>(M, "Event",
                      "The completion of one asynchronous launch "
                      "(Kernel.launch()).")
      .def("wait", &PyEvent::wait,
           "wait()\n\n"
           "Waits for the launch to finish; raises its error (once: later "
           "calls return).")
      .def_property_readonly("done", &PyEvent::done,
                             "Whether the launch has finished.")
      .def_property_readonly(
          "elapsed_us", &PyEvent::elapsed,
          "Microseconds the launch ran, from its start on the device to its "
          "end (wall clock); waits for the launch first.");

  py::class_<PyModule>(
      M, "Module",
      "Kernels loaded on one device, from a .wbin or compiled from "
      "source.\n\n"
      "mod.kernel(name) or mod.NAME gives a Kernel.")
      .def_property_readonly(
          "kernels", [](const PyModule &M) { return M.M.kernelNames(); },
          "The kernels' names, in the file's order.")
      .def("kernel", &PyModule::kernel, py::arg("name"),
           "kernel(name) -> Kernel\n\n"
           "The kernel named `name`, or with index `name` (\"0\", \"1\", "
           "...). Raises Error with code \"invalid_argument\" listing the "
           "kernels there are when there is none.")
      .def_property_readonly(
          "device", [](const PyModule &M) { return PyDevice{M.M.device()}; },
          "The Device the module is loaded on.")
      .def("__getattr__",
           [](const PyModule &M, const std::string &Name) -> py::object {
             for (const std::string &K : M.M.kernelNames())
               if (K == Name)
                 return py::cast(M.kernel(Name));
             throw py::attribute_error("module has no kernel '" + Name + "'");
           })
      .def("__dir__",
           [](py::object Self) {
             py::list L = py::module_::import("builtins")
                              .attr("object")
                              .attr("__dir__")(Self);
             for (const std::string &K :
                  Self.cast<PyModule &>().M.kernelNames())
               L.append(K);
             return L;
           })
      .def("__repr__", &PyModule::repr);

  py::class_<PyKernel>(
      M, "Kernel",
      "One kernel of a module, called like a function.\n\n"
      "k(*args, grid, workgroup=None, **kwargs) launches it and waits; "
      "k.launch(...) queues it and returns an Event. Arguments bind to the "
      "parameters (k.params) by position, then by name, and are checked "
      "against them: every parameter given once, a Buffer or array of the "
      "parameter's element type for a buffer, an int, float or bool in "
      "range for a scalar. Each error raises Error with code "
      "\"invalid_argument\" naming the parameter.")
      .def_property_readonly(
          "name", [](const PyKernel &K) { return K.K.name(); },
          "The kernel's name.")
      .def_property_readonly(
          "params", &PyKernel::params,
          "The parameters, as (name, kind, type, access) tuples: kind "
          "\"buffer\" or \"scalar\"; type \"f32\", \"f16\", \"f64\", "
          "\"i32\", \"u32\" or \"bf16\"; access \"read\", \"write\" or "
          "\"readwrite\" (\"read\" for scalars).")
      .def("__call__", &PyKernel::call,
           "k(*args, grid, workgroup=None, **kwargs)\n\n"
           "Launches the kernel and waits for it.\n\n"
           "grid: workgroups in the grid, an int or a tuple of 1 to 3 ints "
           "(missing dimensions are 1). workgroup: threads per workgroup, "
           "the same way; None for the kernel's own.\n"
           "Arguments: a Buffer (stays on the device); a numpy.ndarray "
           "(any shape, copied to a temporary buffer, and copied back into "
           "the array after the launch when the kernel writes the "
           "parameter); an int, float or bool for a scalar.\n"
           "Raises Error: \"invalid_argument\" for a bad argument, "
           "\"fault\" when the kernel faults (on the emulator the message "
           "names the kernel, PC, wave and lane, and the device stays "
           "usable; on a GPU device it is the runtime's error, and the "
           "device is unusable from then on), \"limit\" at the emulator's "
           "instruction limit or a GPU device's timeout.")
      .def("launch", &PyKernel::launch,
           "launch(*args, grid, workgroup=None, stream=None, **kwargs) -> "
           "Event\n\n"
           "Queues the launch on `stream` (None: the device's default "
           "stream) and returns its Event at once; the launch's own error "
           "(\"fault\", \"limit\") is raised by Event.wait(). Arguments are "
           "Buffers and scalars only; argument errors are raised here.")
      .def("__repr__", [](const PyKernel &K) {
        return "<wavetools.Kernel " + K.signature() + ">";
      });

  // help() and repr() name the classes as the package exports them.
  for (const char *Class :
       {"Device", "Buffer", "Stream", "Event", "Module", "Kernel"})
    M.attr(Class).attr("__module__") = "wavetools";
}
