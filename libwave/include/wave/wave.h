/*===- wave.h - The host runtime API for C ----------------------*- C -*-===*\
|*                                                                            *|
|* wave/Host/Runtime.h for C and for foreign-function interfaces: opaque      *|
|* handles, status codes, no C++ types. Every function returns a              *|
|* wave_status_t (WAVE_SUCCESS or the code of the failure) and writes its     *|
|* results through pointers; on failure wave_last_error() gives the message   *|
|* of the calling thread's last failure. Every function is thread-safe.       *|
|* Handles are released with their *_release function; a launch in flight     *|
|* keeps what it uses alive.                                                  *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
#ifndef WAVE_WAVE_H
#define WAVE_WAVE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The values of wave::host::HostErrorCode. */
typedef enum wave_status {
  WAVE_SUCCESS = 0,
  WAVE_ERROR_INVALID_ARGUMENT = 1, /* a bad name, type, size or handle */
  WAVE_ERROR_NO_DEVICE = 2,        /* the backend's runtime or device is absent */
  WAVE_ERROR_COMPILE = 3,          /* a source or .wbin did not compile/load */
  WAVE_ERROR_FAULT = 4,            /* the kernel faulted */
  WAVE_ERROR_LIMIT = 5,            /* the instruction limit was reached */
  WAVE_ERROR_IO = 6,               /* a file could not be read */
  WAVE_ERROR_BACKEND = 7           /* the GPU runtime reported a failure */
} wave_status_t;

/* wave::WbinType values (formats/wbin.md "PARAMS" type codes). */
typedef enum wave_type {
  WAVE_TYPE_NONE = 0, /* untyped buffer */
  WAVE_TYPE_I32 = 1,
  WAVE_TYPE_U32 = 2,
  WAVE_TYPE_F32 = 3,
  WAVE_TYPE_F16 = 4,
  WAVE_TYPE_BF16 = 5,
  WAVE_TYPE_F64 = 6
} wave_type_t;

typedef struct wave_device *wave_device_t;
typedef struct wave_buffer *wave_buffer_t;
typedef struct wave_module *wave_module_t;
typedef struct wave_kernel *wave_kernel_t;
typedef struct wave_stream *wave_stream_t;
typedef struct wave_event *wave_event_t;

/* The message of the calling thread's last failure ("" if none); valid
 * until the thread's next call. */
const char *wave_last_error(void);
/* A constant name for a status: "WAVE_ERROR_FAULT", ... */
const char *wave_status_name(wave_status_t status);

/* Devices: "emu"; "hsa:N" ("hsa" = "hsa:0") for each GPU agent when ROCm's
 * HSA runtime (libhsa-runtime64.so.1) loads; and "cuda:N" ("cuda" =
 * "cuda:0") when the CUDA driver (libcuda.so.1) loads, as
 * wave_device_count/wave_device_name list them (wave::host::Device::open;
 * a missing runtime, driver or device gives WAVE_ERROR_NO_DEVICE). jobs:
 * the emulator's threads per launch, 0 = all cores. A GPU device allocates
 * its device memory when it opens: wave_device_open_ex's device_memory
 * bytes (0 = 1 GiB, or the GPU's memory when less; at most 4 GiB, WAVE
 * addresses being 32-bit), and a launch on it may run timeout_s seconds
 * (<= 0: no limit; then WAVE_ERROR_LIMIT); wave_device_open takes the
 * defaults (0, 60 s). A fault on a GPU device (WAVE_ERROR_FAULT) leaves it
 * unusable: later calls on it fail with WAVE_ERROR_FAULT; open it again. */
wave_status_t wave_device_count(size_t *count);
/* *name stays valid for the life of the process. */
wave_status_t wave_device_name(size_t index, const char **name);
wave_status_t wave_device_open(const char *name, unsigned jobs,
                               wave_device_t *device);
wave_status_t wave_device_open_ex(const char *name, unsigned jobs,
                                  uint64_t device_memory, double timeout_s,
                                  wave_device_t *device);
wave_status_t wave_device_synchronize(wave_device_t device);
void wave_device_release(wave_device_t device);

/* Buffers: bytes on a device, element type or WAVE_TYPE_NONE. */
wave_status_t wave_buffer_create(wave_device_t device, uint64_t bytes,
                                 wave_type_t element, wave_buffer_t *buffer);
wave_status_t wave_buffer_write(wave_buffer_t buffer, uint64_t offset,
                                const void *data, uint64_t bytes);
wave_status_t wave_buffer_read(wave_buffer_t buffer, uint64_t offset,
                               void *data, uint64_t bytes);
uint64_t wave_buffer_size(wave_buffer_t buffer);
void wave_buffer_release(wave_buffer_t buffer);

/* Modules: a .wbin file or bytes, or a kernel source compiled in process
 * (language from the extension, or "python", "cpp", "rust", "typescript";
 * opt_level 0..3 and max_registers 1..256 are wave-compiler's -O and
 * --max-registers; max_registers 0 means its default, 32). */
wave_status_t wave_module_load(wave_device_t device, const char *path,
                               wave_module_t *module);
wave_status_t wave_module_load_bytes(wave_device_t device, const void *bytes,
                                     size_t size, wave_module_t *module);
wave_status_t wave_module_compile_file(wave_device_t device, const char *path,
                                       const char *lang, unsigned opt_level,
                                       unsigned max_registers,
                                       wave_module_t *module);
wave_status_t wave_module_compile_source(wave_device_t device,
                                         const char *source, const char *lang,
                                         unsigned opt_level,
                                         unsigned max_registers,
                                         wave_module_t *module);
void wave_module_release(wave_module_t module);

/* Kernels and their parameters (formats/wbin.md "PARAMS"). */
wave_status_t wave_kernel_get(wave_module_t module, const char *name,
                              wave_kernel_t *kernel);
size_t wave_kernel_param_count(wave_kernel_t kernel);
/* is_buffer: 1 for a buffer parameter, 0 for a scalar. name, is_buffer and
 * type may each be NULL; *name stays valid while the kernel handle lives. */
wave_status_t wave_kernel_param(wave_kernel_t kernel, size_t index,
                                const char **name, int *is_buffer,
                                wave_type_t *type);
void wave_kernel_release(wave_kernel_t kernel);

/* Arguments: an opaque list, filled by name (NULL name = next position;
 * positional arguments bind to the first parameters, in the order given,
 * whatever the order of the calls). One list may serve many launches. */
typedef struct wave_args *wave_args_t;
wave_status_t wave_args_create(wave_args_t *args);
wave_status_t wave_args_buffer(wave_args_t args, const char *name,
                               wave_buffer_t buffer);
wave_status_t wave_args_int(wave_args_t args, const char *name, int64_t value);
wave_status_t wave_args_float(wave_args_t args, const char *name,
                              double value);
void wave_args_release(wave_args_t args);

/* Launches. grid and workgroup are 3 values each; workgroup {0,0,0} (or
 * NULL) = the kernel's own. args may be NULL for a kernel without
 * parameters. wave_launch waits; wave_enqueue returns an event (stream
 * NULL = the device's default stream). */
wave_status_t wave_launch(wave_kernel_t kernel, const uint32_t grid[3],
                          const uint32_t workgroup[3], wave_args_t args);
wave_status_t wave_stream_create(wave_device_t device, wave_stream_t *stream);
wave_status_t wave_stream_synchronize(wave_stream_t stream);
void wave_stream_release(wave_stream_t stream);
wave_status_t wave_enqueue(wave_kernel_t kernel, wave_stream_t stream,
                           const uint32_t grid[3], const uint32_t workgroup[3],
                           wave_args_t args, wave_event_t *event);
/* Waits; returns the launch's status (a failure once: later waits return
 * WAVE_SUCCESS). elapsed_us may be NULL. */
wave_status_t wave_event_wait(wave_event_t event, double *elapsed_us);
void wave_event_release(wave_event_t event);

#ifdef __cplusplus
}
#endif

#endif /* WAVE_WAVE_H */
