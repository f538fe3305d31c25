//===- wave-dis.cpp - WAVE disassembler driver ----------------------------===//
//
// wave-dis [options] [INPUT]: prints a `.wbin` (formats/wbin.md) as WAVE
// assembly that wave-as re-assembles to the same bytes (formats/wave-asm.md §7,
// D13-D16), or, with --hex, the instructions of a hex listing. The work is done
// by wave::disassemble(); this file maps options to it and results to exit
// codes.
//
//===----------------------------------------------------------------------===//
#include "wave/Asm/Disassembler.h"
#include "wave/Object/Wbin.h"
#include "wave/Tool/Tool.h"

#include "llvm/Support/SourceMgr.h"

using namespace llvm;
using namespace wave;

static constexpr const char *ToolName = "wave-dis";

int main(int Argc, char **Argv) {
  auto App = tool::makeApp(ToolName, "Disassemble a WAVE .wbin object file "
                                     "into assembly.");
  std::string Input = "-", Output = "-";
  DisasmOptions Opts;
  bool Hex = false;
  App->add_option("INPUT", Input,
                  "Object file (or hex text with --hex); '-' (the default) "
                  "reads stdin");
  App->add_option("-o,--output", Output,
                  "Output file; '-' (the default) is "
                  "stdout")
      ->type_name("FILE");
  App->add_flag("--offsets", Opts.Offsets,
                "Prefix each instruction with its file offset");
  App->add_flag("--raw", Opts.Raw,
                "With --offsets, also print the raw instruction words");
  App->add_flag("--no-directives", Opts.NoDirectives,
                "Omit .kernel, .end and kernel attribute lines");
  App->add_flag("--hex", Hex,
                "Input is hex text (bytes or 32-bit words) of instructions, "
                "not a .wbin");

  return tool::runMain(*App, Argc, Argv, [&]() -> int {
    auto BufOrErr = tool::readInput(Input, WbinMagic);
    if (!BufOrErr) {
      tool::printFileError(ToolName, Input, BufOrErr.takeError());
      return tool::ExitUsage;
    }
    std::string Text;
    raw_string_ostream OS(Text);
    if (Hex) {
      SourceMgr SM;
      SM.AddNewSourceBuffer(std::move(*BufOrErr), SMLoc());
      Expected<std::vector<uint8_t>> Bytes = parseHexText(SM);
      if (!Bytes) {
        consumeError(Bytes.takeError()); // diagnostics already printed
        return tool::ExitInvalidInput;
      }
      if (Error E = disassembleCode(*Bytes, OS, Opts)) {
        tool::printBinaryError(ToolName, Input, std::move(E));
        return tool::ExitInvalidInput;
      }
    } else {
      const MemoryBuffer &Buf = **BufOrErr;
      ArrayRef<uint8_t> Bytes(
          reinterpret_cast<const uint8_t *>(Buf.getBufferStart()),
          Buf.getBufferSize());
      Expected<WbinFile> File = readWbin(Bytes);
      if (!File) {
        tool::printBinaryError(ToolName, Input, File.takeError());
        return tool::ExitInvalidInput;
      }
      // Decode errors are reported at their file offset.
      if (Error E = disassemble(*File, OS, Opts)) {
        tool::printBinaryError(ToolName, Input, std::move(E),
                               File->Header.CodeOffset);
        return tool::ExitInvalidInput;
      }
    }
    return tool::exitCodeFor(
        tool::writeOutput(ToolName, Output, /*Binary=*/false, /*Force=*/false,
                          [&](raw_ostream &Out) {
                            Out << Text;
                            return Error::success();
                          }));
  });
}
