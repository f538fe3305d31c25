//===- WbinInput.h - Fuzzer bytes as a .wbin file ---------------*- C++ -*-===//
//
// Shared by the fuzzers that consume .wbin files (wbin-fuzzer,
// amdgcn-fuzzer): the bytes are read with readWbin(), and bytes that are not
// a valid .wbin become raw code instead -- one synthetic kernel "raw" over
// the bytes rounded down to whole words -- so the code under test also sees
// arbitrary instruction streams, not only what survives the reader.
//
//===----------------------------------------------------------------------===//
#ifndef WAVE_TEST_FUZZ_WBININPUT_H
#define WAVE_TEST_FUZZ_WBININPUT_H

#include "wave/Object/Wbin.h"

#include <cstddef>
#include <cstdint>

namespace wave::fuzz {

/// \p Data as a .wbin file, or as one raw kernel with \p RawRegisterCount
/// registers (0: the emulator's default) when readWbin() rejects it.
inline WbinFile wbinFromBytes(const uint8_t *Data, size_t Size,
                              uint32_t RawRegisterCount) {
  llvm::Expected<WbinFile> F = readWbin(llvm::ArrayRef<uint8_t>(Data, Size));
  if (F)
    return std::move(*F);
  llvm::consumeError(F.takeError());
  WbinFile Raw;
  Raw.Code.assign(Data, Data + (Size & ~size_t(3)));
  KernelInfo K;
  K.Name = "raw";
  K.RegisterCount = RawRegisterCount;
  K.CodeSize = uint32_t(Raw.Code.size());
  Raw.Kernels.push_back(K);
  return Raw;
}

} // namespace wave::fuzz

#endif // WAVE_TEST_FUZZ_WBININPUT_H
