//===- Launch.h - Kernel parameters and launch shape of a CUDA launch -*- C++
//-*-===//
//
// The parts of a CUDA launch of a translated WAVE kernel that need no GPU:
// the kernel parameter values in the order and sizes of the NVPTX stage's
// ABI (wave/NVPTX/Translate.h `KernelABI`), and the grid, CTA and dynamic
// shared memory of cuLaunchKernel. The runner (wave-run --device=cuda)
// hands these to the driver.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_RUNTIME_CUDA_LAUNCH_H
#define WAVE_RUNTIME_CUDA_LAUNCH_H

#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <vector>

namespace wave::cuda {

/// What one launch passes to a translated kernel (KernelABI "Parameters").
struct KernelParamValues {
  uint64_t DeviceBase = 0; ///< device address of WAVE device address 0.
  /// The initial value of r0 .. r(N-1) in every lane, N = the kernel's
  /// KernelABI::NumRegParams.
  std::vector<uint32_t> Registers;
  uint64_t DeviceMemorySize = 0;                     ///< bytes.
  uint32_t LocalMemorySize = 0;                      ///< bytes per workgroup.
  std::array<uint32_t, 3> WorkgroupSize = {1, 1, 1}; ///< work-items.
};

/// The kernel parameters of one launch, packed: each value little-endian at
/// the next multiple of its own size (the offsets of the PTX `.param`
/// space, PTX ISA §5.1.6.1 "Kernel Function Parameters"), in KernelABI's
/// order -- `.u64` base, NumRegParams `.u32` registers, `.u64` memory size,
/// `.u32` local size, `.u32` workgroup x, y, z.
struct KernelParams {
  std::vector<uint8_t> Bytes;
  /// Byte offset and size (4 or 8) of each parameter in Bytes.
  std::vector<std::pair<unsigned, unsigned>> Slots;

  /// One pointer per parameter, into Bytes: cuLaunchKernel's
  /// `kernelParams`. Valid while Bytes is neither resized nor destroyed.
  std::vector<void *> pointers();
};

/// Packs \p V as KernelParams describes; NumRegParams + 6 parameters.
KernelParams packKernelParams(const KernelParamValues &V);

/// Threads of a CTA: CUDA's limit on every current GPU
/// (CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK).
constexpr uint32_t MaxCTAThreads = 1024;
/// Threads of a warp, the width of one WAVE wave on the GPU.
constexpr uint32_t WarpSize = 32;
/// Dynamic shared memory a launch gets without opting in with
/// cuFuncSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES), in
/// bytes (CUDA C++ Programming Guide, "Shared Memory": 48 KiB).
constexpr uint32_t DefaultSharedLimit = 48 * 1024;
/// Largest grid dimensions of cuLaunchKernel (x, y, z), in CTAs.
constexpr std::array<uint32_t, 3> MaxGrid = {0x7fffffffu, 65535, 65535};

/// The arguments of cuLaunchKernel for a WAVE launch (KernelABI "Launch").
struct LaunchShape {
  std::array<uint32_t, 3> Grid = {1, 1, 1};  ///< CTAs = WAVE workgroups.
  std::array<uint32_t, 3> Block = {1, 1, 1}; ///< threads; y = z = 1.
  uint32_t SharedBytes = 0;                  ///< dynamic shared memory per CTA.
  /// The launch needs cuFuncSetAttribute to allow SharedBytes first.
  bool needsSharedOptIn() const { return SharedBytes > DefaultSharedLimit; }
};

/// The launch of a grid of \p Workgroups WAVE workgroups of \p GroupSize
/// work-items with \p LocalMemory bytes of local memory each: gridDim =
/// \p Workgroups; a one-dimensional CTA of ceil(x*y*z / 32) * 32 threads
/// (whole warps: one WAVE wave per warp); dynamic shared memory = the local
/// memory rounded up to 16 bytes. Fails with a message naming the limit
/// when a dimension is 0, a workgroup needs more than MaxCTAThreads
/// threads, a grid dimension exceeds MaxGrid, or the rounded local memory
/// does not fit 32 bits.
llvm::Expected<LaunchShape>
computeLaunchShape(std::array<uint32_t, 3> Workgroups,
                   std::array<uint32_t, 3> GroupSize, uint32_t LocalMemory);

} // namespace wave::cuda

#endif // WAVE_RUNTIME_CUDA_LAUNCH_H
