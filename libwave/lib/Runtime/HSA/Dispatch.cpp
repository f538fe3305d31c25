//===- Dispatch.cpp - Kernel arguments and AQL dispatch packets -----------===//
//
// Little-endian byte images of the kernarg segment (formats/amdgcn-abi.md)
// and of the AQL kernel-dispatch packet (HSA spec 1.2 §2.9.6).
//
//===----------------------------------------------------------------------===//
#include "wave/Runtime/HSA/Dispatch.h"

#include "llvm/Support/Endian.h"

using namespace llvm;

namespace wave::hsa {

namespace {

template <typename T> void put(uint8_t *Bytes, unsigned Offset, T Value) {
  support::endian::write<T, endianness::little>(Bytes + Offset, Value);
}

} // namespace

Expected<std::vector<uint8_t>> packKernargs(const KernargLayout &L,
                                            const KernargValues &V) {
  if (V.Params.size() != L.NumParams)
    return createStringError(inconvertibleErrorCode(),
                             "kernel takes %u parameter values, %zu given",
                             L.NumParams, V.Params.size());
  std::vector<uint8_t> Bytes(L.size(), 0);
  put<uint64_t>(Bytes.data(), KernargLayout::BaseOffset, V.DeviceBase);
  for (unsigned K = 0; K < L.NumParams; ++K)
    put<uint32_t>(Bytes.data(), L.paramOffset(K), V.Params[K]);
  for (unsigned D = 0; D < 3; ++D) {
    put<uint32_t>(Bytes.data(), L.blockCountOffset() + 4 * D,
                  V.Workgroups[D]);
    put<uint16_t>(Bytes.data(), L.groupSizeOffset() + 2 * D, V.GroupSize[D]);
  }
  return Bytes;
}

uint16_t packetHeader(PacketType Type, bool Barrier, FenceScope Acquire,
                      FenceScope Release) {
  return uint16_t(uint16_t(Type) | uint16_t(Barrier) << 8 |
                  uint16_t(Acquire) << 9 | uint16_t(Release) << 11);
}

std::array<uint8_t, packet_offset::Size>
encodeDispatchPacket(const DispatchPacket &P) {
  namespace O = packet_offset;
  std::array<uint8_t, O::Size> Bytes{};
  for (unsigned D = 0; D < 3; ++D) {
    put<uint16_t>(Bytes.data(), O::WorkgroupSizeX + 2 * D,
                  P.WorkgroupSize[D]);
    put<uint32_t>(Bytes.data(), O::GridSizeX + 4 * D, P.GridSize[D]);
  }
  put<uint32_t>(Bytes.data(), O::PrivateSegmentSize, P.PrivateSegmentSize);
  put<uint32_t>(Bytes.data(), O::GroupSegmentSize, P.GroupSegmentSize);
  put<uint64_t>(Bytes.data(), O::KernelObject, P.KernelObject);
  put<uint64_t>(Bytes.data(), O::KernargAddress, P.KernargAddress);
  put<uint64_t>(Bytes.data(), O::CompletionSignal, P.CompletionSignal);
  return Bytes;
}

uint32_t dispatchHeaderWord(const DispatchPacket &P) {
  uint16_t Header = packetHeader(PacketType::KernelDispatch, /*Barrier=*/true,
                                 FenceScope::System, FenceScope::System);
  return uint32_t(Header) | uint32_t(P.Dimensions) << 16;
}

Expected<DispatchPacket>
makeDispatchPacket(std::array<uint32_t, 3> Workgroups,
                   std::array<uint16_t, 3> GroupSize) {
  DispatchPacket P;
  P.Dimensions = 1;
  for (unsigned D = 0; D < 3; ++D) {
    uint64_t Items = uint64_t(Workgroups[D]) * GroupSize[D];
    if (Items == 0 || Items > UINT32_MAX)
      return createStringError(
          inconvertibleErrorCode(),
          "grid dimension %c of %u workgroups of %u work-items is %s",
          "xyz"[D], Workgroups[D], unsigned(GroupSize[D]),
          Items == 0 ? "empty" : "more than 2^32-1 work-items");
    P.WorkgroupSize[D] = GroupSize[D];
    P.GridSize[D] = uint32_t(Items);
    if (Items > 1)
      P.Dimensions = uint16_t(D + 1);
  }
  return P;
}

} // namespace wave::hsa
