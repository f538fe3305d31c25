//===- Dispatch.h - Kernel arguments and AQL dispatch packets ----*- C++ -*-===//
//
// The byte-level pieces of an HSA dispatch of a translated WAVE kernel that
// need no GPU: the kernarg segment (formats/amdgcn-abi.md "Kernel
// arguments") and the AQL kernel-dispatch packet (HSA Platform System
// Architecture Specification 1.2, §2.9.6 "Kernel Dispatch Packet Format";
// hsa.h `hsa_kernel_dispatch_packet_t`). The runner (wave-run --device=hsa)
// writes these bytes into kernarg memory and into a queue slot.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_RUNTIME_HSA_DISPATCH_H
#define WAVE_RUNTIME_HSA_DISPATCH_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <vector>

namespace wave::hsa {

/// Where the parts of a translated kernel's kernarg segment lie, for a
/// kernel with \p NumParams 32-bit parameters (formats/amdgcn-abi.md
/// "Kernel arguments"): the 64-bit device-memory base at 0, parameter k at
/// 8 + 4k, then the hidden arguments from H = align8(8 + 4N): the grid in
/// workgroups (3 x u32) and the workgroup size (3 x u16, at H + 12). The
/// segment is H + 24 bytes, 8-aligned.
struct KernargLayout {
  unsigned NumParams = 0;

  static constexpr unsigned BaseOffset = 0;
  unsigned paramOffset(unsigned K) const { return 8 + 4 * K; }
  unsigned hiddenOffset() const { return (8 + 4 * NumParams + 7) & ~7u; }
  unsigned blockCountOffset() const { return hiddenOffset(); }
  unsigned groupSizeOffset() const { return hiddenOffset() + 12; }
  unsigned size() const { return hiddenOffset() + 24; }
  static constexpr unsigned Alignment = 8;
};

/// What one dispatch passes to a kernel.
struct KernargValues {
  uint64_t DeviceBase = 0;            ///< address of WAVE device address 0.
  std::vector<uint32_t> Params;       ///< r0 .. r(N-1) on entry.
  std::array<uint32_t, 3> Workgroups = {1, 1, 1}; ///< grid, in workgroups.
  std::array<uint16_t, 3> GroupSize = {1, 1, 1};  ///< work-items.
};

/// The kernarg segment bytes (little-endian) for \p V under \p L. Fails
/// when \p V has a different number of parameters than \p L.
llvm::Expected<std::vector<uint8_t>> packKernargs(const KernargLayout &L,
                                                  const KernargValues &V);

/// HSA packet types and fence scopes (HSA spec §2.9.1, hsa.h
/// `hsa_packet_type_t`, `hsa_fence_scope_t`).
enum class PacketType : uint8_t { Invalid = 1, KernelDispatch = 2 };
enum class FenceScope : uint8_t { None = 0, Agent = 1, System = 2 };

/// The 16-bit AQL packet header (HSA spec §2.9.1 "Packet header"): type in
/// bits 7:0, barrier bit 8, acquire fence scope bits 10:9, release fence
/// scope bits 12:11.
uint16_t packetHeader(PacketType Type, bool Barrier, FenceScope Acquire,
                      FenceScope Release);

/// The fields of a kernel-dispatch packet. Sizes are in work-items (grid)
/// and bytes (segments); handles are opaque 64-bit values.
struct DispatchPacket {
  uint16_t Dimensions = 1;                      ///< 1..3 (setup bits 1:0).
  std::array<uint16_t, 3> WorkgroupSize = {1, 1, 1};
  std::array<uint32_t, 3> GridSize = {1, 1, 1}; ///< work-items, not groups.
  uint32_t PrivateSegmentSize = 0;
  uint32_t GroupSegmentSize = 0;
  uint64_t KernelObject = 0;   ///< the kernel descriptor's address.
  uint64_t KernargAddress = 0;
  uint64_t CompletionSignal = 0; ///< hsa_signal_t handle (0: none).
};

/// Byte offsets of the packet's fields (HSA spec §2.9.6, Table 2-12).
namespace packet_offset {
constexpr unsigned Header = 0, Setup = 2, WorkgroupSizeX = 4,
                   GridSizeX = 12, PrivateSegmentSize = 24,
                   GroupSegmentSize = 28, KernelObject = 32,
                   KernargAddress = 40, CompletionSignal = 56, Size = 64;
} // namespace packet_offset

/// The packet's 64 bytes with the header word left 0: the runner writes
/// bytes 4..63 first, then publishes the packet by storing
/// dispatchHeaderWord() into bytes 0..3 with release semantics (HSA spec
/// §2.8.3: the packet processor reads a packet once its type is valid).
std::array<uint8_t, packet_offset::Size>
encodeDispatchPacket(const DispatchPacket &P);

/// Header and setup as the one 32-bit word the runner stores last: a
/// kernel-dispatch header with system-scope acquire and release fences and
/// the barrier bit set (each dispatch waits for the previous one), setup =
/// the dimension count.
uint32_t dispatchHeaderWord(const DispatchPacket &P);

/// The packet for a grid of \p Workgroups workgroups of \p GroupSize
/// work-items (formats/amdgcn-abi.md "Dispatch": grid_size = workgroups x
/// workgroup size; no partial workgroups). Dimensions is the highest
/// dimension with more than one work-item (at least 1). Fails when a grid
/// size overflows 32 bits.
llvm::Expected<DispatchPacket>
makeDispatchPacket(std::array<uint32_t, 3> Workgroups,
                   std::array<uint16_t, 3> GroupSize);

} // namespace wave::hsa

#endif // WAVE_RUNTIME_HSA_DISPATCH_H
