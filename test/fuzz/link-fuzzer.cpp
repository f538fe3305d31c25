//===- link-fuzzer.cpp - libFuzzer target: extension sections and linker --===//
//
// Feeds arbitrary bytes to readWbin(); a file that reads is written back and
// read again (the writer must produce what the reader accepts), and, when
// relocatable, linked on its own into an executable, with --gc-sections, and
// into a relocatable object. Nothing may crash, hang, leak or trip a
// sanitizer; errors (undefined symbols, recursion, register windows past
// r254, ...) are expected and ignored.
//
//===----------------------------------------------------------------------===//
#include "wave/Link/Linker.h"
#include "wave/Object/Wbin.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

using namespace wave;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::Expected<WbinFile> F = readWbin(llvm::ArrayRef<uint8_t>(Data, Size));
  if (!F) {
    llvm::consumeError(F.takeError());
    return 0;
  }
  llvm::Expected<WbinFile> Again = readWbin(writeWbin(*F));
  if (!Again)
    abort(); // our own writer's output must read back
  if (!F->Relocatable)
    return 0;
  for (int Mode = 0; Mode != 3; ++Mode) {
    std::vector<LinkInput> In{{"fuzz.o", *F}};
    LinkOptions Opts;
    Opts.GCSections = Mode == 1;
    Opts.Relocatable = Mode == 2;
    llvm::Expected<WbinFile> Out = link(In, Opts);
    if (!Out) {
      llvm::consumeError(Out.takeError());
      continue;
    }
    llvm::Expected<WbinFile> Back = readWbin(writeWbin(*Out));
    if (!Back)
      abort(); // linker output must be a valid file
  }
  return 0;
}
