// The installed C++ host runtime API from outside the build: the embedded
// saxpy kernel on the emulator, arguments by name; the result is checked
// against the same arithmetic done here (exact: small integers in f32).
#include "consumer_kernels.h"
#include "wave/Host/Runtime.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <vector>

using namespace wave::host;

static int fail(llvm::Error E) {
  llvm::errs() << "consumer: error: " << llvm::toString(std::move(E)) << "\n";
  return 1;
}

int main() {
  auto Dev = Device::open("emu");
  if (!Dev)
    return fail(Dev.takeError());
  auto M = Dev->loadModule(
      llvm::ArrayRef<uint8_t>(wave_kernels_saxpy, wave_kernels_saxpy_size),
      "saxpy.wbin");
  if (!M)
    return fail(M.takeError());
  auto K = M->kernel("saxpy");
  if (!K)
    return fail(K.takeError());
  const unsigned N = 1000;
  std::vector<float> X(N), Y(N);
  for (unsigned I = 0; I < N; ++I) {
    X[I] = float(I);
    Y[I] = float(2 * I + 1);
  }
  auto XB = Dev->upload(llvm::ArrayRef<float>(X));
  auto YB = Dev->upload(llvm::ArrayRef<float>(Y));
  if (!XB || !YB)
    return fail(llvm::joinErrors(XB.takeError(), YB.takeError()));
  LaunchDims Dims;
  Dims.Grid = {(N + 255) / 256, 1, 1};
  if (llvm::Error E = K->launch(Dims, {Arg("x", *XB), Arg("y", *YB),
                                       Arg("a", 3.0), Arg("n", int64_t(N))}))
    return fail(std::move(E));
  auto Out = YB->read<float>();
  if (!Out)
    return fail(Out.takeError());
  for (unsigned I = 0; I < N; ++I)
    if ((*Out)[I] != 3.0f * X[I] + Y[I]) {
      std::printf("consumer: y[%u] = %g, expected %g\n", I, (*Out)[I],
                  3.0f * X[I] + Y[I]);
      return 1;
    }
  std::printf("consumer: saxpy of %u elements ok\n", N);
  return 0;
}
