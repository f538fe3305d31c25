//===- Launch.cpp - Kernel parameters and launch shape of a CUDA launch ---===//
//
// The packed parameter values of a translated kernel and cuLaunchKernel's
// grid, CTA and dynamic shared memory (wave/NVPTX/Translate.h `KernelABI`).
//
//===----------------------------------------------------------------------===//
#include "wave/Runtime/CUDA/Launch.h"

#include "llvm/Support/Endian.h"

using namespace llvm;

namespace wave::cuda {

std::vector<void *> KernelParams::pointers() {
  std::vector<void *> P;
  P.reserve(Slots.size());
  for (const auto &[Offset, Size] : Slots)
    P.push_back(Bytes.data() + Offset);
  return P;
}

KernelParams packKernelParams(const KernelParamValues &V) {
  KernelParams K;
  auto Put = [&](uint64_t Value, unsigned Size) {
    size_t Offset = (K.Bytes.size() + Size - 1) / Size * Size;
    K.Bytes.resize(Offset + Size, 0);
    if (Size == 8)
      support::endian::write64le(K.Bytes.data() + Offset, Value);
    else
      support::endian::write32le(K.Bytes.data() + Offset, uint32_t(Value));
    K.Slots.push_back({unsigned(Offset), Size});
  };
  Put(V.DeviceBase, 8);
  for (uint32_t R : V.Registers)
    Put(R, 4);
  Put(V.DeviceMemorySize, 8);
  Put(V.LocalMemorySize, 4);
  for (uint32_t D : V.WorkgroupSize)
    Put(D, 4);
  return K;
}

Expected<LaunchShape> computeLaunchShape(std::array<uint32_t, 3> Workgroups,
                                         std::array<uint32_t, 3> GroupSize,
                                         uint32_t LocalMemory) {
  LaunchShape S;
  uint64_t Threads = 1;
  for (unsigned D = 0; D < 3; ++D) {
    char Axis = "xyz"[D];
    if (GroupSize[D] == 0)
      return createStringError("workgroup dimension %c is 0 work-items", Axis);
    if (Workgroups[D] == 0)
      return createStringError("grid dimension %c is 0 workgroups", Axis);
    if (Workgroups[D] > MaxGrid[D])
      return createStringError("grid dimension %c of %u workgroups is more "
                               "than CUDA's %u",
                               Axis, Workgroups[D], MaxGrid[D]);
    Threads *= GroupSize[D];
    S.Grid[D] = Workgroups[D];
  }
  uint64_t CTA = (Threads + WarpSize - 1) / WarpSize * WarpSize;
  if (CTA > MaxCTAThreads)
    return createStringError(
        "a workgroup of %u x %u x %u work-items needs a CTA of %llu threads; "
        "CUDA allows at most %u",
        GroupSize[0], GroupSize[1], GroupSize[2], (unsigned long long)CTA,
        MaxCTAThreads);
  S.Block = {uint32_t(CTA), 1, 1};
  uint64_t Shared = (uint64_t(LocalMemory) + 15) / 16 * 16;
  if (Shared > UINT32_MAX)
    return createStringError("local memory of %u bytes per workgroup does not "
                             "fit CUDA's shared memory",
                             LocalMemory);
  S.SharedBytes = uint32_t(Shared);
  return S;
}

} // namespace wave::cuda
