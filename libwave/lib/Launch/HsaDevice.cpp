//===- HsaDevice.cpp - Dispatch on an AMD GPU through the HSA runtime -----===//
//
// wave-run --device=hsa: the code object for the agent (the input itself,
// or the .wbin translated by hsa::codeObjectFor()), then one AQL dispatch
// per kernel launch (formats/amdgcn-abi.md).
//
//===----------------------------------------------------------------------===//
#include "Devices.h"

#include "wave/Runtime/HSA/CodeObject.h"
#include "wave/Runtime/HSA/Runtime.h"

using namespace llvm;
using namespace wave;
using namespace wave::launch;

namespace {

/// An HSA agent and the code object of the binary for it.
class HsaDevice final : public Device {
public:
  HsaDevice(const DeviceOptions &Opts, std::unique_ptr<hsa::Runtime> RT,
            std::vector<uint8_t> CodeObject)
      : Opts(Opts), RT(std::move(RT)), CodeObject(std::move(CodeObject)) {}

  Error dispatch(const WbinFile &F, unsigned K, const emu::EmuConfig &Cfg,
                 MutableArrayRef<uint8_t> Memory) override {
    const KernelInfo &KI = F.Kernels[K];
    hsa::DispatchRequest R;
    R.CodeObject = CodeObject;
    R.KernelSymbol = KI.Name + ".kd";
    R.Memory = Memory;
    for (const auto &[Reg, Value] : Cfg.SetRegs) { // later ones win
      if (Reg >= R.Registers.size())
        R.Registers.resize(Reg + 1, 0);
      R.Registers[Reg] = Value;
    }
    R.Workgroups = Cfg.Grid;
    std::array<uint32_t, 3> Group = effectiveWorkgroupSize(KI, Cfg.Workgroup);
    for (unsigned D = 0; D < 3; ++D) {
      uint32_t Size = Group[D];
      if (Size > UINT16_MAX)
        return createStringError(inconvertibleErrorCode(),
                                 "workgroup dimension %c of %u work-items "
                                 "does not fit an AQL packet",
                                 "xyz"[D], Size);
      R.GroupSize[D] = uint16_t(Size);
    }
    return dispatchWithOptions(Opts, *RT, R);
  }

private:
  DeviceOptions Opts;
  std::unique_ptr<hsa::Runtime> RT;
  std::vector<uint8_t> CodeObject;
};

} // namespace

Expected<std::unique_ptr<Device>>
launch::openHsaDevice(const DeviceOptions &Opts, const WbinFile &File,
                      ArrayRef<uint8_t> Bytes, bool IsCodeObject) {
  auto RT = hsa::Runtime::open();
  if (!RT)
    return RT.takeError();
  if (Error E = (*RT)->checkAgent(Opts.Agent))
    return std::move(E);
  std::vector<uint8_t> CodeObject;
  if (IsCodeObject) {
    CodeObject.assign(Bytes.begin(), Bytes.end());
  } else {
    hsa::CodeObjectRequest Req;
    Req.WbinBytes = Bytes;
    Req.MCPU = (*RT)->agents()[Opts.Agent].processor();
    Req.UseCache = Opts.UseCache;
    Req.Clang = Opts.Clang;
    Req.LdLld = Opts.LdLld;
    auto Obj = hsa::codeObjectFor(File, Req);
    if (!Obj) // a bad input, whatever the error's kind: exit status 1
      return make_error<StringError>(toString(Obj.takeError()),
                                     inconvertibleErrorCode());
    CodeObject = std::move(*Obj);
  }
  return std::make_unique<HsaDevice>(Opts, std::move(*RT),
                                     std::move(CodeObject));
}
