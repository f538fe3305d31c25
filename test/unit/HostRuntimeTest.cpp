//===- HostRuntimeTest.cpp - Unit tests of the host runtime API -----------===//
//
// GoogleTest coverage of wave/Host/Runtime.h on the emulator device: kernels
// compiled from Python in process and launched by name and by position,
// buffers that persist across launches, every argument-binding error with its
// message, a faulting kernel that leaves the device usable, streams and
// events, and the errors of loading and compiling. Expected values are
// computed by hand from the kernels' definitions.
//
//===----------------------------------------------------------------------===//
#include "wave/Host/Runtime.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <numeric>

using namespace wave;
using namespace wave::host;

namespace {

/// Two elementwise kernels over n elements; scale reads what saxpy wrote.
const char *const SaxpySource = R"(@kernel
def saxpy(x: f32[:], y: f32[:], out: f32[:], a: f32, n: u32):
    i = global_id()
    if i < n:
        out[i] = a * x[i] + y[i]

@kernel
def scale(inp: f32[:], dst: f32[:], n: u32):
    i = global_id()
    if i < n:
        dst[i] = inp[i] * 2.0

@kernel
def oob(out: f32[:]):
    i = global_id()
    out[i + 100000000] = 1.0
)";

/// The message of \p E (a HostError) and checks its code; consumes it.
std::string messageOf(llvm::Error E, HostErrorCode Code) {
  EXPECT_TRUE(bool(E));
  EXPECT_EQ(errorCode(E), Code);
  std::string Msg;
  llvm::handleAllErrors(std::move(E),
                        [&](const HostError &H) { Msg = H.message(); });
  return Msg;
}

class HostRuntime : public ::testing::Test {
protected:
  void SetUp() override {
    DeviceOptions Opts;
    Opts.Jobs = 2;
    llvm::Expected<Device> D = Device::open("emu", Opts);
    ASSERT_TRUE(bool(D)) << llvm::toString(D.takeError());
    Dev.emplace(std::move(*D));
    driver::CompilerOptions CO;
    CO.Lang = hir::Language::Python;
    llvm::Expected<Module> M = Dev->compile(SaxpySource, "kernels.py", CO);
    ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
    Mod.emplace(std::move(*M));
  }

  Kernel kernel(llvm::StringRef Name) {
    llvm::Expected<Kernel> K = Mod->kernel(Name);
    EXPECT_TRUE(bool(K)) << llvm::toString(K.takeError());
    return std::move(*K);
  }

  /// x[i] = i, y[i] = 2i + 1 for i < N.
  void makeInputs(unsigned N) {
    std::vector<float> X(N), Y(N);
    for (unsigned I = 0; I != N; ++I) {
      X[I] = float(I);
      Y[I] = float(2 * I + 1);
    }
    X_ = cantFailBuffer(Dev->upload(llvm::ArrayRef<float>(X)));
    Y_ = cantFailBuffer(Dev->upload(llvm::ArrayRef<float>(Y)));
    Out = cantFailBuffer(Dev->allocate(N * 4, WbinType::F32));
  }

  static Buffer cantFailBuffer(llvm::Expected<Buffer> B) {
    EXPECT_TRUE(bool(B));
    if (!B) {
      llvm::consumeError(B.takeError());
      std::abort();
    }
    return std::move(*B);
  }

  /// The message of a saxpy launch with \p Args, which must fail.
  std::string bindError(std::vector<Arg> Args) {
    llvm::Error E = kernel("saxpy").launch({{4, 1, 1}, {0, 0, 0}}, Args);
    return messageOf(std::move(E), HostErrorCode::InvalidArgument);
  }

  std::optional<Device> Dev;
  std::optional<Module> Mod;
  std::optional<Buffer> X_, Y_, Out;
};

TEST_F(HostRuntime, ModuleListsKernels) {
  EXPECT_EQ(Mod->kernelNames(),
            (std::vector<std::string>{"saxpy", "scale", "oob"}));
  EXPECT_EQ(kernel("1").name(), "scale");
  ASSERT_EQ(kernel("saxpy").params().size(), 5u);
  EXPECT_EQ(kernel("saxpy").params()[3].Name, "a");
  llvm::Expected<Kernel> K = Mod->kernel("nope");
  EXPECT_EQ(messageOf(K.takeError(), HostErrorCode::InvalidArgument),
            "no kernel named 'nope' in 'kernels.py'; its kernels are: saxpy, "
            "scale, oob");
}

TEST_F(HostRuntime, SaxpyByNameAndByPosition) {
  const unsigned N = 1000;
  makeInputs(N);
  // By name, in an order other than the parameters'.
  llvm::Error E = kernel("saxpy").launch(
      {{4, 1, 1}, {0, 0, 0}}, {Arg("n", int64_t(N)), Arg("a", 0.5),
                               Arg("out", *Out), Arg("y", *Y_), Arg("x", *X_)});
  ASSERT_FALSE(bool(E)) << llvm::toString(std::move(E));
  llvm::Expected<std::vector<float>> R = Out->read<float>();
  ASSERT_TRUE(bool(R));
  ASSERT_EQ(R->size(), N);
  // 0.5 * i + (2i + 1) = 2.5 i + 1, exact in f32 for i < 1000.
  for (unsigned I = 0; I != N; ++I)
    ASSERT_EQ((*R)[I], 2.5f * float(I) + 1.0f) << "element " << I;

  // By position (a mixed call: the last one named), a = 3 as an integer.
  E = kernel("saxpy").launch(
      {{4, 1, 1}, {0, 0, 0}},
      {Arg(*X_), Arg(*Y_), Arg(*Out), Arg(int64_t(3)), Arg("n", int64_t(10))});
  ASSERT_FALSE(bool(E)) << llvm::toString(std::move(E));
  R = Out->read<float>();
  ASSERT_TRUE(bool(R));
  // 3i + 2i + 1 = 5i + 1 below 10; the rest keeps 2.5 i + 1.
  for (unsigned I = 0; I != N; ++I)
    ASSERT_EQ((*R)[I], I < 10 ? 5.0f * float(I) + 1.0f : 2.5f * float(I) + 1.0f)
        << "element " << I;
}

TEST_F(HostRuntime, BuffersPersistAcrossLaunches) {
  const unsigned N = 300;
  makeInputs(N);
  ASSERT_FALSE(bool(kernel("saxpy").launch(
      {{2, 1, 1}, {0, 0, 0}},
      {Arg(*X_), Arg(*Y_), Arg(*Out), Arg(1.0), Arg(int64_t(N))})));
  Buffer Dst = cantFailBuffer(Dev->allocate(N * 4));
  llvm::Error E = kernel("scale").launch(
      {{2, 1, 1}, {0, 0, 0}},
      {Arg("inp", *Out), Arg("dst", Dst), Arg("n", int64_t(N))});
  ASSERT_FALSE(bool(E)) << llvm::toString(std::move(E));
  llvm::Expected<std::vector<float>> R = Dst.read<float>();
  ASSERT_TRUE(bool(R));
  // (i + 2i + 1) * 2 = 6i + 2.
  for (unsigned I = 0; I != N; ++I)
    ASSERT_EQ((*R)[I], 6.0f * float(I) + 2.0f) << "element " << I;
  // Buffers are 256-byte aligned, above address 0, and do not overlap.
  EXPECT_GE(X_->deviceAddress(), 256u);
  EXPECT_EQ(Dst.deviceAddress() % 256, 0u);
  EXPECT_GE(Dst.deviceAddress(), Out->deviceAddress() + N * 4);
}

TEST_F(HostRuntime, ArgumentErrors) {
  makeInputs(16);
  Buffer I32 = cantFailBuffer(Dev->allocate(64, WbinType::I32));
  Buffer Odd = cantFailBuffer(Dev->allocate(6));
  EXPECT_EQ(bindError({Arg(*X_), Arg(*Y_), Arg(*Out), Arg(1.0),
                       Arg("m", int64_t(1))}),
            "kernel 'saxpy' has no parameter named 'm'; its parameters are: "
            "x, y, out, a, n");
  EXPECT_EQ(bindError({Arg(*X_), Arg(*Y_), Arg(*Out), Arg(1.0)}),
            "kernel 'saxpy': no value for parameter 'n'");
  EXPECT_EQ(bindError({Arg(*X_), Arg(*Y_)}),
            "kernel 'saxpy': no value for parameters 'out', 'a', 'n'");
  EXPECT_EQ(bindError({Arg(*X_), Arg(*Y_), Arg(*Out), Arg(1.0),
                       Arg(int64_t(16)), Arg("x", *X_)}),
            "kernel 'saxpy': parameter 'x' is given more than once");
  EXPECT_EQ(
      bindError({Arg(*X_), Arg(*Y_), Arg(*Out), Arg(*X_), Arg(int64_t(16))}),
      "kernel 'saxpy': parameter 'a' (f32 scalar): a scalar takes a "
      "number, not a buffer");
  EXPECT_EQ(
      bindError({Arg(*X_), Arg(2.0), Arg(*Out), Arg(1.0), Arg(int64_t(16))}),
      "kernel 'saxpy': parameter 'y' (f32 buffer): a buffer parameter "
      "takes a buffer, not a number");
  EXPECT_EQ(
      bindError({Arg(I32), Arg(*Y_), Arg(*Out), Arg(1.0), Arg(int64_t(16))}),
      "kernel 'saxpy': parameter 'x' (f32 buffer): the buffer holds i32 "
      "elements, not f32");
  EXPECT_EQ(
      bindError({Arg(*X_), Arg(Odd), Arg(*Out), Arg(1.0), Arg(int64_t(16))}),
      "kernel 'saxpy': parameter 'y' (f32 buffer): the buffer's 6 "
      "bytes are not a whole number of f32 elements (4 bytes each)");
  EXPECT_EQ(
      bindError({Arg(*X_), Arg(*Y_), Arg(*Out), Arg(1.0), Arg(int64_t(-1))}),
      "kernel 'saxpy': parameter 'n' (u32 scalar): value -1 is out of "
      "range (0 to 4294967295)");
  EXPECT_EQ(bindError({Arg(*X_), Arg(*Y_), Arg(*Out), Arg(1.0),
                       Arg(int64_t(1) << 32)}),
            "kernel 'saxpy': parameter 'n' (u32 scalar): value 4294967296 is "
            "out of range (0 to 4294967295)");
  EXPECT_EQ(bindError({Arg(*X_), Arg(*Y_), Arg(*Out), Arg(1.0), Arg(2.5)}),
            "kernel 'saxpy': parameter 'n' (u32 scalar): value 2.5 is a "
            "float; an integer parameter takes an integer");
  // 2^24 + 1 is the first integer f32 cannot hold.
  EXPECT_EQ(bindError({Arg(*X_), Arg(*Y_), Arg(*Out), Arg(int64_t(16777217)),
                       Arg(int64_t(16))}),
            "kernel 'saxpy': parameter 'a' (f32 scalar): integer 16777217 is "
            "not exactly representable in f32; pass a float to have it "
            "rounded");
  EXPECT_EQ(
      bindError({Arg(*X_), Arg(*Y_), Arg(*Out), Arg(1e39), Arg(int64_t(16))}),
      "kernel 'saxpy': parameter 'a' (f32 scalar): value 1e39 is out of "
      "range (finite f32 values are at most 3.4028235e38 in "
      "magnitude)");
  EXPECT_EQ(bindError({Arg(*X_), Arg(*Y_), Arg(*Out), Arg(1.0), Arg(int64_t(1)),
                       Arg(int64_t(2))}),
            "kernel 'saxpy' takes 5 parameters, but 6 positional arguments "
            "are given; its parameters are: x, y, out, a, n");
  EXPECT_EQ(bindError({Arg("x", *X_), Arg(*Y_)}),
            "kernel 'saxpy': argument 1 has no name but follows a named one; "
            "positional arguments come first");
}

TEST_F(HostRuntime, AllocationErrors) {
  llvm::Expected<Buffer> B = Dev->allocate(0);
  EXPECT_EQ(messageOf(B.takeError(), HostErrorCode::InvalidArgument),
            "a buffer needs at least 1 byte");
  B = Dev->allocate(6, WbinType::F32);
  EXPECT_EQ(messageOf(B.takeError(), HostErrorCode::InvalidArgument),
            "a buffer of f32 elements (4 bytes each) cannot have 6 bytes");
  B = Dev->allocate(uint64_t(1) << 33);
  EXPECT_EQ(errorCode(B.takeError()), HostErrorCode::Backend);
  // A 3 GiB buffer fits (lazily committed); a second one does not.
  llvm::Expected<Buffer> Big = Dev->allocate(uint64_t(3) << 30);
  ASSERT_TRUE(bool(Big));
  B = Dev->allocate(uint64_t(3) << 30);
  EXPECT_EQ(errorCode(B.takeError()), HostErrorCode::Backend);
  // Reading or writing past the end.
  std::vector<uint8_t> Bytes(8);
  llvm::Expected<Buffer> Small = Dev->allocate(4);
  ASSERT_TRUE(bool(Small));
  EXPECT_EQ(messageOf(Small->write(llvm::ArrayRef<uint8_t>(Bytes)),
                      HostErrorCode::InvalidArgument),
            "buffer write of 8 bytes at offset 0 does not fit the buffer's 4 "
            "bytes");
  EXPECT_EQ(messageOf(Small->read(llvm::MutableArrayRef<uint8_t>(Bytes), 2),
                      HostErrorCode::InvalidArgument),
            "buffer read of 8 bytes at offset 2 does not fit the buffer's 4 "
            "bytes");
}

TEST_F(HostRuntime, FreedMemoryIsReusedZeroed) {
  uint64_t Addr;
  {
    Buffer B = cantFailBuffer(Dev->allocate(1024));
    Addr = B.deviceAddress();
    std::vector<uint8_t> Ones(1024, 0xff);
    ASSERT_FALSE(bool(B.write(llvm::ArrayRef<uint8_t>(Ones))));
  }
  Buffer C = cantFailBuffer(Dev->allocate(512));
  EXPECT_EQ(C.deviceAddress(), Addr); // first fit
  llvm::Expected<std::vector<uint8_t>> R = C.read<uint8_t>();
  ASSERT_TRUE(bool(R));
  EXPECT_EQ(std::count(R->begin(), R->end(), 0), 512);
}

TEST_F(HostRuntime, FaultLeavesDeviceUsable) {
  Buffer B = cantFailBuffer(Dev->allocate(256, WbinType::F32));
  llvm::Error E = kernel("oob").launch({{1, 1, 1}, {0, 0, 0}}, {Arg(B)});
  std::string Msg = messageOf(std::move(E), HostErrorCode::Fault);
  EXPECT_NE(Msg.find("kernel 'oob': memory access out of bounds at pc 0x"),
            std::string::npos)
      << Msg;
  EXPECT_NE(Msg.find("wave 0 lane 0"), std::string::npos) << Msg;
  // The line table names the Python line of the store.
  EXPECT_NE(Msg.find("(at kernels.py:16"), std::string::npos) << Msg;
  // The device still works.
  makeInputs(8);
  ASSERT_FALSE(bool(kernel("saxpy").launch(
      {{1, 1, 1}, {0, 0, 0}},
      {Arg(*X_), Arg(*Y_), Arg(*Out), Arg(2.0), Arg(int64_t(8))})));
  llvm::Expected<std::vector<float>> R = Out->read<float>();
  ASSERT_TRUE(bool(R));
  for (unsigned I = 0; I != 8; ++I)
    EXPECT_EQ((*R)[I], 4.0f * float(I) + 1.0f); // 2i + 2i + 1
}

TEST_F(HostRuntime, StreamsAndEvents) {
  const unsigned N = 4096;
  makeInputs(N);
  Buffer Out2 = cantFailBuffer(Dev->allocate(N * 4, WbinType::F32));
  llvm::Expected<Stream> S1 = Dev->createStream(), S2 = Dev->createStream();
  ASSERT_TRUE(S1 && S2);
  Kernel K = kernel("saxpy");
  llvm::Expected<Event> E1 =
      K.enqueue(*S1, {{N / 256, 1, 1}, {0, 0, 0}},
                {Arg(*X_), Arg(*Y_), Arg(*Out), Arg(1.0), Arg(int64_t(N))});
  llvm::Expected<Event> E2 =
      K.enqueue(*S2, {{N / 256, 1, 1}, {0, 0, 0}},
                {Arg(*X_), Arg(*Y_), Arg(Out2), Arg(-1.0), Arg(int64_t(N))});
  ASSERT_TRUE(E1 && E2);
  // In order on S1: scale reads what saxpy wrote.
  Buffer Dst = cantFailBuffer(Dev->allocate(N * 4, WbinType::F32));
  llvm::Expected<Event> E3 =
      kernel("scale").enqueue(*S1, {{N / 256, 1, 1}, {0, 0, 0}},
                              {Arg(*Out), Arg(Dst), Arg(int64_t(N))});
  ASSERT_TRUE(bool(E3));
  EXPECT_FALSE(bool(E1->wait()));
  EXPECT_FALSE(bool(E2->wait()));
  EXPECT_TRUE(E1->done() && E2->done());
  EXPECT_GT(E1->elapsedMicroseconds(), 0.0);
  EXPECT_GT(E2->elapsedMicroseconds(), 0.0);
  EXPECT_FALSE(bool(S1->synchronize()));
  EXPECT_TRUE(E3->done());
  llvm::Expected<std::vector<float>> R1 = Out->read<float>(),
                                     R2 = Out2.read<float>(),
                                     R3 = Dst.read<float>();
  ASSERT_TRUE(R1 && R2 && R3);
  for (unsigned I = 0; I != N; ++I) {
    ASSERT_EQ((*R1)[I], 3.0f * float(I) + 1.0f) << I; // i + 2i + 1
    ASSERT_EQ((*R2)[I], float(I) + 1.0f) << I;        // -i + 2i + 1
    ASSERT_EQ((*R3)[I], 6.0f * float(I) + 2.0f) << I; // (3i + 1) * 2
  }
  // A fault on a stream comes back from its event once, and not again
  // from synchronize().
  Buffer B = cantFailBuffer(Dev->allocate(256, WbinType::F32));
  llvm::Expected<Event> EF =
      kernel("oob").enqueue(*S2, {{1, 1, 1}, {0, 0, 0}}, {Arg(B)});
  ASSERT_TRUE(bool(EF));
  EXPECT_EQ(errorCode(EF->wait()), HostErrorCode::Fault);
  EXPECT_FALSE(bool(EF->wait()));
  EXPECT_FALSE(bool(Dev->synchronize()));
  // Not waited for: synchronize() returns it.
  EF = kernel("oob").enqueue(*S2, {{1, 1, 1}, {0, 0, 0}}, {Arg(B)});
  ASSERT_TRUE(bool(EF));
  EXPECT_EQ(errorCode(Dev->synchronize()), HostErrorCode::Fault);
  EXPECT_FALSE(bool(EF->wait()));
}

TEST_F(HostRuntime, LoadErrors) {
  llvm::SmallString<128> Path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("host", "wbin", Path));
  llvm::FileRemover Remove(Path);
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    OS << "this is not a wbin";
  }
  llvm::Expected<Module> M = Dev->loadModule(Path);
  std::string Msg = messageOf(M.takeError(), HostErrorCode::Compile);
  EXPECT_EQ(Msg.rfind("'" + std::string(Path) + "': ", 0), 0u) << Msg;
  M = Dev->loadModule("/nonexistent/dir/k.wbin");
  EXPECT_EQ(errorCode(M.takeError()), HostErrorCode::Io);
  // The bytes of a compiled module load again.
  std::vector<uint8_t> Bytes = writeWbin(Mod->file());
  M = Dev->loadModule(llvm::ArrayRef<uint8_t>(Bytes), "again.wbin");
  ASSERT_TRUE(bool(M));
  EXPECT_EQ(M->kernelNames().size(), 3u);
}

TEST_F(HostRuntime, CompileErrors) {
  driver::CompilerOptions CO;
  llvm::Expected<Module> M = Dev->compile(
      "@kernel\ndef k(out: f32[:]):\n    out[0] = missing_name\n", "k.py", CO);
  std::string Msg = messageOf(M.takeError(), HostErrorCode::Compile);
  EXPECT_EQ(Msg.rfind("k.py:3:", 0), 0u) << Msg;
  EXPECT_NE(Msg.find("error: "), std::string::npos) << Msg;
  EXPECT_NE(Msg.find("    out[0] = missing_name\n"), std::string::npos) << Msg;
  EXPECT_NE(Msg.find('^'), std::string::npos) << Msg;
  M = Dev->compileFile("kernel.unknown");
  EXPECT_EQ(errorCode(M.takeError()), HostErrorCode::InvalidArgument);
}

TEST_F(HostRuntime, AssemblyWithoutDescriptorsTakesPositionalArgs) {
  llvm::SmallString<128> Path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("host", "wave", Path));
  llvm::FileRemover Remove(Path);
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    // r0: address, r1: value; one thread stores r1 at r0.
    OS << ".kernel put\n.workgroup_size 1, 1, 1\n"
          "    device_store_u32 r0, r1\n    halt\n.end\n";
  }
  llvm::Expected<Module> M = Dev->compileFile(Path);
  ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
  llvm::Expected<Kernel> K = M->kernel("put");
  ASSERT_TRUE(bool(K));
  EXPECT_TRUE(K->params().empty());
  Buffer B = cantFailBuffer(Dev->allocate(4, WbinType::U32));
  ASSERT_FALSE(bool(K->launch({}, {Arg(B), Arg(int64_t(0xdeadbeef))})));
  llvm::Expected<std::vector<uint32_t>> R = B.read<uint32_t>();
  ASSERT_TRUE(bool(R));
  EXPECT_EQ((*R)[0], 0xdeadbeefu);
  EXPECT_EQ(messageOf(K->launch({}, {Arg("v", int64_t(1))}),
                      HostErrorCode::InvalidArgument),
            "kernel 'put' has no parameter descriptors, so arguments cannot "
            "be named ('v'); pass them by position (argument i in register "
            "ri)");
}

TEST_F(HostRuntime, CompileFileFromMIR) {
  // MIR of the kernels, as wave-fe | wave-opt would write it.
  driver::CompilerOptions CO;
  CO.Emit = driver::EmitKind::MIR;
  std::string MIR, Diags;
  llvm::raw_string_ostream DOS(Diags);
  ASSERT_EQ(
      driver::compileSource("test", SaxpySource, "kernels.py", CO, MIR, DOS), 0)
      << Diags;
  llvm::SmallString<128> Path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("host", "wir", Path));
  llvm::FileRemover Remove(Path);
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    OS << MIR;
  }
  llvm::Expected<Module> M = Dev->compileFile(Path);
  ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
  llvm::Expected<Kernel> K = M->kernel("scale");
  ASSERT_TRUE(bool(K));
  Buffer In =
      cantFailBuffer(Dev->upload(llvm::ArrayRef<float>({1.5f, -2.0f, 3.0f})));
  Buffer Res = cantFailBuffer(Dev->allocate(12, WbinType::F32));
  ASSERT_FALSE(bool(K->launch({}, {Arg(In), Arg(Res), Arg(int64_t(3))})));
  llvm::Expected<std::vector<float>> R = Res.read<float>();
  ASSERT_TRUE(bool(R));
  EXPECT_EQ(*R, (std::vector<float>{3.0f, -4.0f, 6.0f}));
}

TEST(HostDevices, InstructionLimit) {
  DeviceOptions Opts;
  Opts.MaxInstructions = 5;
  llvm::Expected<Device> D = Device::open("emu", Opts);
  ASSERT_TRUE(bool(D));
  driver::CompilerOptions CO;
  llvm::Expected<Module> M = D->compile(SaxpySource, "kernels.py", CO);
  ASSERT_TRUE(bool(M));
  llvm::Expected<Kernel> K = M->kernel("scale");
  ASSERT_TRUE(bool(K));
  llvm::Expected<Buffer> B = D->allocate(1024, WbinType::F32);
  ASSERT_TRUE(bool(B));
  std::string Msg =
      messageOf(K->launch({}, {Arg(*B), Arg(*B), Arg(int64_t(256))}),
                HostErrorCode::Limit);
  EXPECT_NE(Msg.find("instruction limit exceeded"), std::string::npos) << Msg;
}

TEST(HostDevices, OpenAndList) {
  std::vector<DeviceInfo> Ds = listDevices();
  ASSERT_FALSE(Ds.empty());
  EXPECT_EQ(Ds[0].Name, "emu");
  llvm::Expected<Device> D = Device::open("nope");
  EXPECT_EQ(errorCode(D.takeError()), HostErrorCode::InvalidArgument);
  // No HSA runtime (or no /dev/kfd) here, or no agent 7 (the stub runtime
  // of lit/capi and lit/python has one): NoDevice either way. The message
  // of a missing runtime library is lit/python/hsa-stub.test's.
  D = Device::open("hsa:7");
  EXPECT_EQ(errorCode(D.takeError()), HostErrorCode::NoDevice);
  for (const DeviceInfo &I : Ds)
    if (I.Kind == BackendKind::Hsa)
      EXPECT_EQ(I.Name.rfind("hsa:", 0), 0u) << I.Name;
  // No driver here, or no device 7 (the stub driver of lit/capi and
  // lit/python has one): NoDevice either way.
  D = Device::open("cuda:7");
  EXPECT_EQ(errorCode(D.takeError()), HostErrorCode::NoDevice);
  for (const DeviceInfo &I : Ds)
    if (I.Kind == BackendKind::Cuda)
      EXPECT_EQ(I.Name.rfind("cuda:", 0), 0u) << I.Name;
  DeviceOptions Bad;
  Bad.WaveWidth = 65;
  D = Device::open("emu", Bad);
  EXPECT_EQ(errorCode(D.takeError()), HostErrorCode::InvalidArgument);
  // Options a CUDA device cannot take are refused before the driver loads.
  Bad.WaveWidth = 16;
  D = Device::open("cuda", Bad);
  EXPECT_EQ(errorCode(D.takeError()), HostErrorCode::InvalidArgument);
  DeviceOptions Huge;
  Huge.DeviceMemory = (uint64_t(1) << 32) + 256;
  D = Device::open("cuda", Huge);
  EXPECT_EQ(errorCode(D.takeError()), HostErrorCode::InvalidArgument);
  // The same for an HSA device, before the runtime loads.
  D = Device::open("hsa", Huge);
  EXPECT_EQ(messageOf(D.takeError(), HostErrorCode::InvalidArgument),
            "device 'hsa:0': 4294967552 bytes of device memory is more than "
            "WAVE's 32-bit addresses reach (4 GiB, formats/isa.md §4.9)");
}

TEST(HostCompile, OptionRanges) {
  // One check for every API: Device::compile() checks what compileFile()
  // does, in the same words.
  llvm::Expected<Device> D = Device::open("emu");
  ASSERT_TRUE(bool(D));
  driver::CompilerOptions CO;
  CO.OptLevel = 4;
  llvm::Expected<Module> M = D->compile(SaxpySource, "kernels.py", CO);
  EXPECT_EQ(messageOf(M.takeError(), HostErrorCode::InvalidArgument),
            "optimisation level 4 is not one of 0..3");
  CO.OptLevel = 2;
  CO.MaxRegisters = 0;
  M = D->compile(SaxpySource, "kernels.py", CO);
  EXPECT_EQ(messageOf(M.takeError(), HostErrorCode::InvalidArgument),
            "--max-registers 0 is not one of 1..256");
  EXPECT_EQ(
      messageOf(checkCompileLimits(1, 300, "opt_level", "max_registers", "f: "),
                HostErrorCode::InvalidArgument),
      "f: max_registers 300 is not one of 1..256");
  EXPECT_FALSE(bool(checkCompileLimits(3, 256)));
}

} // namespace
