/* The installed C API from outside the build, compiled with pkg-config's
 * flags: saxpy compiled from its source file in process, on the emulator,
 * arguments by name; checked against the same arithmetic done here. */
#include "wave/wave.h"

#include <stdio.h>

#define CHECK(call)                                                            \
  do {                                                                         \
    wave_status_t s_ = (call);                                                 \
    if (s_ != WAVE_SUCCESS) {                                                  \
      fprintf(stderr, "c-consumer: %s: %s: %s\n", #call, wave_status_name(s_), \
              wave_last_error());                                              \
      return 1;                                                                \
    }                                                                          \
  } while (0)

int main(int argc, char **argv) {
  enum { N = 300 };
  float x[N], y[N], out[N];
  wave_device_t dev;
  wave_module_t mod;
  wave_kernel_t k;
  wave_buffer_t xb, yb;
  wave_args_t args;
  uint32_t grid[3] = {(N + 255) / 256, 1, 1}, wg[3] = {0, 0, 0};
  int i;
  if (argc != 2) {
    fprintf(stderr, "usage: c-consumer SAXPY.py\n");
    return 2;
  }
  for (i = 0; i < N; ++i) {
    x[i] = (float)i;
    y[i] = (float)(N - i);
  }
  CHECK(wave_device_open("emu", 0, &dev));
  CHECK(wave_module_compile_file(dev, argv[1], NULL, 2, 0, &mod));
  CHECK(wave_kernel_get(mod, "saxpy", &k));
  CHECK(wave_buffer_create(dev, sizeof x, WAVE_TYPE_F32, &xb));
  CHECK(wave_buffer_create(dev, sizeof y, WAVE_TYPE_F32, &yb));
  CHECK(wave_buffer_write(xb, 0, x, sizeof x));
  CHECK(wave_buffer_write(yb, 0, y, sizeof y));
  CHECK(wave_args_create(&args));
  CHECK(wave_args_buffer(args, "x", xb));
  CHECK(wave_args_buffer(args, "y", yb));
  CHECK(wave_args_float(args, "a", 2.0));
  CHECK(wave_args_int(args, "n", N));
  CHECK(wave_launch(k, grid, wg, args));
  CHECK(wave_buffer_read(yb, 0, out, sizeof out));
  for (i = 0; i < N; ++i)
    if (out[i] != 2.0f * x[i] + y[i]) {
      fprintf(stderr, "c-consumer: y[%d] = %g, expected %g\n", i, out[i],
              2.0f * x[i] + y[i]);
      return 1;
    }
  printf("c-consumer: saxpy of %d elements ok\n", N);
  wave_args_release(args);
  wave_buffer_release(xb);
  wave_buffer_release(yb);
  wave_kernel_release(k);
  wave_module_release(mod);
  wave_device_release(dev);
  return 0;
}
