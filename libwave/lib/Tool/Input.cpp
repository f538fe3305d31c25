//===- Input.cpp - Reading a program given as assembly or .wbin -----------===//
#include "wave/Tool/Input.h"

#include "wave/Link/Linker.h"
#include "wave/Tool/Tool.h"

#include "llvm/Support/SourceMgr.h"

using namespace llvm;

namespace wave::tool {

std::optional<WbinFile> loadProgram(StringRef ToolName,
                                    std::unique_ptr<MemoryBuffer> Buf,
                                    StringRef Input, bool AcceptWbin,
                                    const AsmOptions &Opts) {
  ArrayRef<uint8_t> Bytes(
      reinterpret_cast<const uint8_t *>(Buf->getBufferStart()),
      Buf->getBufferSize());
  if (AcceptWbin && isWbin(Bytes)) {
    Expected<WbinFile> File = readWbin(Bytes);
    if (!File) {
      printBinaryError(ToolName, Input, File.takeError());
      return std::nullopt;
    }
    if (File->Relocatable) {
      printError(ToolName, "'" + displayName(Input) +
                               "': relocatable object; link it with "
                               "wave-link first");
      return std::nullopt;
    }
    return std::move(*File);
  }
  SourceMgr SM;
  SM.AddNewSourceBuffer(std::move(Buf), SMLoc());
  Expected<WbinFile> File = assemble(SM, Opts);
  if (!File) {
    // assemble() has printed every diagnostic through SM.
    consumeError(File.takeError());
    return std::nullopt;
  }
  if (Opts.Relocatable)
    return std::move(*File);
  Expected<WbinFile> Linked =
      linkExecutable(std::move(*File), displayName(Input));
  if (!Linked) {
    printError(ToolName,
               displayName(Input) + ": " + toString(Linked.takeError()));
    return std::nullopt;
  }
  return std::move(*Linked);
}

Expected<WbinFile> assembleExecutable(StringRef Source, StringRef BufferName,
                                      std::string *Diags,
                                      const AsmOptions &Opts) {
  Expected<WbinFile> Object = assembleString(Source, BufferName, Diags, Opts);
  if (!Object)
    return Object.takeError();
  return linkExecutable(std::move(*Object), BufferName);
}

} // namespace wave::tool
