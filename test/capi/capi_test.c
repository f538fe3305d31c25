/*===- capi_test.c - The C API (wave/wave.h) from C ------------------------===*
 *
 * Compiled as C, so that the header is checked as C too. Compiles a saxpy
 * kernel from Python source in process, runs it on "emu" (by name, by
 * position, on a stream), checks y = a * x + y against a computation by hand,
 * and checks the failures: a wrong argument name (WAVE_ERROR_INVALID_ARGUMENT
 * naming the parameter), a source that does not compile, NULL pointers.
 * "capi-test cuda MODE" and "capi-test hsa MODE" check a CUDA device and an
 * HSA device against the stub CUDA driver and the stub HSA runtime;
 * "capi-test --device NAME" runs the checks on device NAME instead of "emu"
 * (a real GPU: "cuda:0", "hsa:0", where one is lent).
 * Prints one line per check ("ok ..." or "FAIL ...") and exits non-zero on a
 * failure; test/lit/capi/capi.test runs it.
 *
 *===----------------------------------------------------------------------===*/
#include "wave/wave.h"

#include <stdio.h>
#include <string.h>

static int Failures = 0;

static void check(int Ok, const char *What) {
  printf("%s %s\n", Ok ? "ok" : "FAIL", What);
  if (!Ok)
    ++Failures;
}

/* Checks that Status is WAVE_SUCCESS; prints the last error otherwise. */
static int succeeded(wave_status_t Status, const char *What) {
  if (Status != WAVE_SUCCESS)
    printf("  %s: %s: %s\n", What, wave_status_name(Status), wave_last_error());
  check(Status == WAVE_SUCCESS, What);
  return Status == WAVE_SUCCESS;
}

/* The last line, "PASSED: 0 failures" or "FAILED: N failure(s)"; the exit
 * status. */
static int summary(void) {
  printf("%s: %d failure%s\n", Failures ? "FAILED" : "PASSED", Failures,
         Failures == 1 ? "" : "s");
  return Failures != 0;
}

static const char SaxpySource[] =
    "@kernel\n"
    "def saxpy(a: f32, x: f32[:], y: f32[:], n: u32):\n"
    "    i = global_id(0)\n"
    "    if i < n:\n"
    "        y[i] = a * x[i] + y[i]\n";

#define N 1000
#define WORKGROUP 256

static float X[N], Y0[N], Y[N];

/* y[i] = A * x[i] + y0[i]: exact in f32 for these values (multiples of
 * 0.25 below 2^12), so the comparison is exact. */
static int yIsSaxpy(float A, const float *Y0s, const float *Ys) {
  for (int I = 0; I < N; ++I)
    if (Ys[I] != A * X[I] + Y0s[I]) {
      printf("  y[%d] = %g, expected %g\n", I, Ys[I], A * X[I] + Y0s[I]);
      return 0;
    }
  return 1;
}

/* "capi-test BACKEND MODE": a GPU device of BACKEND ("cuda" or "hsa")
 * against its stub (test/gpu/stub-cuda/ and test/lit/capi/cuda-stub.test,
 * test/gpu/stub-hsa/ and test/lit/capi/hsa-stub.test), which runs no
 * kernel: MODE "run" uploads x and y, launches saxpy twice and checks that
 * y comes back as it was written; "fault", "jit" (CUDA: the PTX JIT
 * refuses the module), "load" (HSA: the code object loader refuses it)
 * and "nodevice" check the statuses of the stub's failures
 * (WAVE_CUDA_STUB_FAIL, WAVE_HSA_STUB_FAIL). */
static int gpuMode(const char *Backend, const char *Mode) {
  char First[16], Open[40];
  snprintf(First, sizeof First, "%s:0", Backend);
  snprintf(Open, sizeof Open, "wave_device_open_ex %s", Backend);
  size_t Count = 0;
  succeeded(wave_device_count(&Count), "wave_device_count");
  wave_device_t Dev = NULL;
  wave_status_t S = wave_device_open_ex(Backend, 0, 1 << 20, 60, &Dev);
  if (strcmp(Mode, "nodevice") == 0) {
    check(Count == 1, "only emu is listed");
    printf("  %s: %s\n", wave_status_name(S), wave_last_error());
    check(S == WAVE_ERROR_NO_DEVICE && Dev == NULL,
          "no device gives WAVE_ERROR_NO_DEVICE");
    return Failures != 0;
  }
  const char *Second = NULL;
  succeeded(wave_device_name(1, &Second), "wave_device_name 1");
  printf("  device 1: %s\n", Second ? Second : "(none)");
  check(Count == 2 && Second && strcmp(Second, First) == 0,
        "device 1 is the GPU");
  if (!succeeded(S, Open))
    return 1;
  wave_module_t Mod = NULL;
  S = wave_module_compile_source(Dev, SaxpySource, "python", 2, 0, &Mod);
  if (strcmp(Mode, "jit") == 0 || strcmp(Mode, "load") == 0) {
    printf("  %s: %s\n", wave_status_name(S), wave_last_error());
    check(S == WAVE_ERROR_COMPILE && Mod == NULL,
          strcmp(Mode, "jit") == 0
              ? "a JIT failure gives WAVE_ERROR_COMPILE"
              : "a code object load failure gives WAVE_ERROR_COMPILE");
    wave_device_release(Dev);
    return Failures != 0;
  }
  if (!succeeded(S, "wave_module_compile_source"))
    return 1;
  wave_kernel_t K = NULL;
  if (!succeeded(wave_kernel_get(Mod, "saxpy", &K), "wave_kernel_get saxpy"))
    return 1;
  wave_buffer_t BX = NULL, BY = NULL;
  succeeded(wave_buffer_create(Dev, sizeof X, WAVE_TYPE_F32, &BX),
            "wave_buffer_create x");
  succeeded(wave_buffer_create(Dev, sizeof Y0, WAVE_TYPE_F32, &BY),
            "wave_buffer_create y");
  succeeded(wave_buffer_write(BX, 0, X, sizeof X), "wave_buffer_write x");
  succeeded(wave_buffer_write(BY, 0, Y0, sizeof Y0), "wave_buffer_write y");
  const uint32_t Grid[3] = {(N + WORKGROUP - 1) / WORKGROUP, 1, 1};
  wave_args_t Args = NULL;
  succeeded(wave_args_create(&Args), "wave_args_create");
  wave_args_float(Args, "a", 2.5);
  wave_args_buffer(Args, "x", BX);
  wave_args_buffer(Args, "y", BY);
  wave_args_int(Args, "n", N);
  S = wave_launch(K, Grid, NULL, Args);
  if (strcmp(Mode, "fault") == 0) {
    printf("  %s: %s\n", wave_status_name(S), wave_last_error());
    check(S == WAVE_ERROR_FAULT, "a fault gives WAVE_ERROR_FAULT");
    S = wave_buffer_read(BY, 0, Y, sizeof Y);
    printf("  %s: %s\n", wave_status_name(S), wave_last_error());
    check(S == WAVE_ERROR_FAULT, "a read after it gives WAVE_ERROR_FAULT");
    S = wave_launch(K, Grid, NULL, Args);
    check(S == WAVE_ERROR_FAULT, "a launch after it gives WAVE_ERROR_FAULT");
  } else {
    succeeded(S, "wave_launch 1");
    succeeded(wave_launch(K, Grid, NULL, Args), "wave_launch 2");
    succeeded(wave_buffer_read(BY, 0, Y, sizeof Y), "wave_buffer_read y");
    check(memcmp(Y, Y0, sizeof Y) == 0, "y comes back as written");
  }
  wave_args_release(Args);
  wave_kernel_release(K);
  wave_module_release(Mod);
  wave_buffer_release(BX);
  wave_buffer_release(BY);
  wave_device_release(Dev);
  return summary();
}

int main(int Argc, char **Argv) {
  for (int I = 0; I < N; ++I) {
    X[I] = (float)I;
    Y0[I] = (float)(N - I);
  }
  if (Argc == 3 &&
      (strcmp(Argv[1], "cuda") == 0 || strcmp(Argv[1], "hsa") == 0))
    return gpuMode(Argv[1], Argv[2]);
  const char *DeviceName = "emu";
  if (Argc == 3 && strcmp(Argv[1], "--device") == 0)
    DeviceName = Argv[2];

  size_t Count = 0;
  const char *First = NULL;
  succeeded(wave_device_count(&Count), "wave_device_count");
  check(Count >= 1, "at least one device");
  succeeded(wave_device_name(0, &First), "wave_device_name");
  check(First && strcmp(First, "emu") == 0, "device 0 is emu");

  wave_device_t Dev = NULL;
  if (!succeeded(wave_device_open(DeviceName, 0, &Dev), "wave_device_open"))
    return 1;

  wave_module_t Mod = NULL;
  if (!succeeded(
          wave_module_compile_source(Dev, SaxpySource, "python", 2, 0, &Mod),
          "wave_module_compile_source"))
    return 1;
  wave_kernel_t K = NULL;
  if (!succeeded(wave_kernel_get(Mod, "saxpy", &K), "wave_kernel_get saxpy"))
    return 1;

  /* The parameters, as the source declares them. */
  check(wave_kernel_param_count(K) == 4, "saxpy has 4 parameters");
  static const char *const Names[4] = {"a", "x", "y", "n"};
  static const int IsBuffers[4] = {0, 1, 1, 0};
  static const wave_type_t Types[4] = {WAVE_TYPE_F32, WAVE_TYPE_F32,
                                       WAVE_TYPE_F32, WAVE_TYPE_U32};
  for (size_t I = 0; I < 4; ++I) {
    const char *Name = NULL;
    int IsBuffer = -1;
    wave_type_t Type = WAVE_TYPE_NONE;
    succeeded(wave_kernel_param(K, I, &Name, &IsBuffer, &Type),
              "wave_kernel_param");
    check(Name && strcmp(Name, Names[I]) == 0 && IsBuffer == IsBuffers[I] &&
              Type == Types[I],
          "parameter descriptor");
  }

  wave_buffer_t BX = NULL, BY = NULL;
  succeeded(wave_buffer_create(Dev, sizeof X, WAVE_TYPE_F32, &BX),
            "wave_buffer_create x");
  succeeded(wave_buffer_create(Dev, sizeof Y0, WAVE_TYPE_F32, &BY),
            "wave_buffer_create y");
  check(wave_buffer_size(BX) == sizeof X, "wave_buffer_size");
  succeeded(wave_buffer_write(BX, 0, X, sizeof X), "wave_buffer_write x");
  succeeded(wave_buffer_write(BY, 0, Y0, sizeof Y0), "wave_buffer_write y");

  const uint32_t Grid[3] = {(N + WORKGROUP - 1) / WORKGROUP, 1, 1};
  const uint32_t Workgroup[3] = {WORKGROUP, 1, 1};

  /* By name, in another order than the parameters'. */
  wave_args_t Args = NULL;
  succeeded(wave_args_create(&Args), "wave_args_create");
  wave_args_int(Args, "n", N);
  wave_args_buffer(Args, "y", BY);
  wave_args_buffer(Args, "x", BX);
  wave_args_float(Args, "a", 2.5);
  succeeded(wave_launch(K, Grid, Workgroup, Args), "wave_launch by name");
  wave_args_release(Args);
  succeeded(wave_buffer_read(BY, 0, Y, sizeof Y), "wave_buffer_read y");
  check(yIsSaxpy(2.5f, Y0, Y), "saxpy by name: y = 2.5 * x + y");

  /* By position, on the y the first launch left (the buffer persists), with
   * the kernel's own workgroup size. */
  float Y1[N];
  memcpy(Y1, Y, sizeof Y);
  succeeded(wave_args_create(&Args), "wave_args_create");
  wave_args_float(Args, NULL, -0.5);
  wave_args_buffer(Args, NULL, BX);
  wave_args_buffer(Args, NULL, BY);
  wave_args_int(Args, NULL, N);
  succeeded(wave_launch(K, Grid, NULL, Args), "wave_launch by position");
  wave_args_release(Args);
  succeeded(wave_buffer_read(BY, 0, Y, sizeof Y), "wave_buffer_read y");
  check(yIsSaxpy(-0.5f, Y1, Y), "saxpy by position: y = -0.5 * x + y");

  /* A wrong argument name: the status and a message naming it. */
  succeeded(wave_args_create(&Args), "wave_args_create");
  wave_args_float(Args, "a", 1.0);
  wave_args_buffer(Args, "x", BX);
  wave_args_buffer(Args, "y", BY);
  wave_args_int(Args, "count", N);
  wave_status_t S = wave_launch(K, Grid, Workgroup, Args);
  printf("  wrong name: %s: %s\n", wave_status_name(S), wave_last_error());
  check(S == WAVE_ERROR_INVALID_ARGUMENT,
        "wrong argument name gives WAVE_ERROR_INVALID_ARGUMENT");
  check(strstr(wave_last_error(), "count") != NULL,
        "its message names the argument");
  wave_args_release(Args);
  succeeded(wave_buffer_read(BY, 0, Y1, sizeof Y1), "wave_buffer_read y");
  check(memcmp(Y, Y1, sizeof Y) == 0, "the failed launch changed nothing");

  /* Asynchronously, on a stream of its own. */
  wave_stream_t Stream = NULL;
  succeeded(wave_stream_create(Dev, &Stream), "wave_stream_create");
  succeeded(wave_args_create(&Args), "wave_args_create");
  wave_args_float(Args, "a", 4.0);
  wave_args_buffer(Args, "x", BX);
  wave_args_buffer(Args, "y", BY);
  wave_args_int(Args, "n", N);
  wave_event_t Event = NULL;
  if (succeeded(wave_enqueue(K, Stream, Grid, Workgroup, Args, &Event),
                "wave_enqueue")) {
    double Elapsed = -1;
    succeeded(wave_event_wait(Event, &Elapsed), "wave_event_wait");
    check(Elapsed >= 0, "elapsed time");
    wave_event_release(Event);
  }
  succeeded(wave_stream_synchronize(Stream), "wave_stream_synchronize");
  wave_stream_release(Stream);
  wave_args_release(Args);
  succeeded(wave_device_synchronize(Dev), "wave_device_synchronize");
  succeeded(wave_buffer_read(BY, 0, Y, sizeof Y), "wave_buffer_read y");
  check(yIsSaxpy(4.0f, Y1, Y), "saxpy on a stream: y = 4 * x + y");

  /* Failures that are not launches. */
  wave_module_t Bad = NULL;
  S = wave_module_compile_source(
      Dev, "@kernel\ndef k(a: f32[:]):\n    a[0] = \n", "python", 2, 0, &Bad);
  check(S == WAVE_ERROR_COMPILE && Bad == NULL && *wave_last_error(),
        "a syntax error gives WAVE_ERROR_COMPILE with a message");
  S = wave_module_compile_source(Dev, SaxpySource, "cobol", 2, 0, &Bad);
  check(S == WAVE_ERROR_INVALID_ARGUMENT, "an unknown language");
  S = wave_module_compile_source(Dev, SaxpySource, "python", 2, 257, &Bad);
  check(S == WAVE_ERROR_INVALID_ARGUMENT &&
            strstr(wave_last_error(), "max_registers") != NULL,
        "max_registers out of range");
  wave_kernel_t NoKernel = NULL;
  S = wave_kernel_get(Mod, "nope", &NoKernel);
  check(S == WAVE_ERROR_INVALID_ARGUMENT &&
            strstr(wave_last_error(), "nope") != NULL,
        "an unknown kernel");
  wave_device_t NoDev = NULL;
  S = wave_device_open(NULL, 0, &NoDev);
  check(S == WAVE_ERROR_INVALID_ARGUMENT && *wave_last_error(),
        "a NULL device name");
  S = wave_launch(NULL, Grid, Workgroup, NULL);
  check(S == WAVE_ERROR_INVALID_ARGUMENT && *wave_last_error(),
        "a NULL kernel");
  S = wave_buffer_read(BY, 0, NULL, 4);
  check(S == WAVE_ERROR_INVALID_ARGUMENT, "a NULL read destination");
  S = wave_buffer_read(BY, sizeof Y - 2, Y, 4);
  check(S == WAVE_ERROR_INVALID_ARGUMENT, "a read past the end");
  check(strcmp(wave_status_name(WAVE_ERROR_FAULT), "WAVE_ERROR_FAULT") == 0,
        "wave_status_name");

  /* Releasing NULL is allowed; the kernel outlives its module handle. */
  wave_module_release(NULL);
  wave_module_release(Mod);
  succeeded(wave_args_create(&Args), "wave_args_create");
  wave_args_float(Args, NULL, 0.0);
  wave_args_buffer(Args, NULL, BX);
  wave_args_buffer(Args, NULL, BY);
  wave_args_int(Args, NULL, N);
  succeeded(wave_launch(K, Grid, Workgroup, Args),
            "a launch after the module's release");
  wave_args_release(Args);

  wave_kernel_release(K);
  wave_buffer_release(BX);
  wave_buffer_release(BY);
  wave_device_release(Dev);
  return summary();
}
