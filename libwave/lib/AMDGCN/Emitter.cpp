//===- Emitter.cpp - AMDGCN assembly text with HSA metadata ---------------===//
#include "Emitter.h"

#include "llvm/Support/Format.h"

using namespace llvm;

namespace wave::amdgcn {

/// A YAML single-quoted scalar: never read as a boolean, number or null
/// (argument names such as `y`, `n`, `on`, `null`).
static std::string yamlQuote(StringRef S) {
  std::string Out = "'";
  for (char C : S) {
    if (C == '\'')
      Out += "''";
    else
      Out += C;
  }
  return Out + "'";
}

static void emitKernelCode(raw_ostream &OS, const MFunction &F) {
  OS << "\t.globl\t" << F.Name << "\n\t.p2align\t8\n\t.type\t" << F.Name
     << ",@function\n"
     << F.Name << ":\n";
  for (const MInst &MI : F.Insts) {
    switch (MI.Kind) {
    case InstKind::Label:
      OS << printOperand(F, MI.Ops[0]) << ":\n";
      continue;
    case InstKind::Comment:
      OS << "\t; " << MI.Comment << "\n";
      continue;
    default:
      break;
    }
    OS << '\t' << MI.Op;
    bool First = true;
    for (const MOperand &O : MI.Ops) {
      OS << (First ? " " : ", ") << printOperand(F, O);
      First = false;
    }
    OS << MI.Suffix;
    if (!MI.Comment.empty())
      OS << "\t; " << MI.Comment;
    OS << '\n';
  }
  OS << ".Lfunc_end_" << F.Name << ":\n\t.size\t" << F.Name << ", .Lfunc_end_"
     << F.Name << "-" << F.Name << "\n\n";
}

/// `.amdhsa_next_free_vgpr` and `.vgpr_count`: on targets with a unified
/// VGPR/AGPR file, the AGPRs follow the architectural VGPRs from
/// accum_offset = align4(VGPRs), and the count covers both (AMDGPUUsage
/// "Kernel Descriptor": the total is align4(VGPRs) + AGPRs).
static unsigned accumOffset(const MFunction &F) {
  return std::max(4u, (F.NumVGPRs + 3) & ~3u);
}
static unsigned totalVGPRs(const MFunction &F) {
  return F.NumAGPRs ? accumOffset(F) + F.NumAGPRs : F.NumVGPRs;
}

static void emitDescriptor(raw_ostream &OS, const GCNTarget &T,
                           const MFunction &F, const KernelDesc &D) {
  OS << "\t.rodata\n\t.p2align\t6\n\t.amdhsa_kernel " << F.Name << '\n';
  auto Dir = [&](StringRef Name, uint64_t V) {
    OS << "\t\t.amdhsa_" << Name << ' ' << V << '\n';
  };
  Dir("group_segment_fixed_size", D.GroupSegmentSize);
  Dir("private_segment_fixed_size", F.ScratchBytes);
  Dir("kernarg_size", D.KernargSize);
  Dir("user_sgpr_count", D.UserSGPRCount);
  Dir("user_sgpr_kernarg_segment_ptr", 1);
  // Spill slots in scratch: architected flat scratch (every RDNA target
  // here), so no user or system SGPRs are involved.
  if (F.ScratchBytes)
    Dir("enable_private_segment", 1);
  Dir("system_sgpr_workgroup_id_x", D.WorkgroupIdEnable[0]);
  Dir("system_sgpr_workgroup_id_y", D.WorkgroupIdEnable[1]);
  Dir("system_sgpr_workgroup_id_z", D.WorkgroupIdEnable[2]);
  Dir("system_vgpr_workitem_id", D.WorkitemIdVGPRs == 3 ? 2 : 0);
  Dir("next_free_vgpr", totalVGPRs(F));
  Dir("next_free_sgpr", std::max(F.NumSGPRs, T.UserSGPRInit16Bug ? 16u : 1u));
  Dir("reserve_vcc", F.UsesVCC);
  if (T.HasAccumOffset)
    Dir("accum_offset", accumOffset(F));
  Dir("float_denorm_mode_32", 3);
  Dir("float_denorm_mode_16_64", 3);
  if (T.Gen != GCNGen::GFX12) {
    Dir("ieee_mode", 1);
    Dir("dx10_clamp", 1);
  }
  if (T.WaveSize == 32)
    Dir("wavefront_size32", 1);
  OS << "\t.end_amdhsa_kernel\n\t.text\n\n";
}

static void emitMetadata(raw_ostream &OS, const GCNTarget &T,
                         const std::vector<MFunction> &Funcs,
                         const std::vector<KernelDesc> &Descs) {
  OS << "\t.amdgpu_metadata\n---\namdhsa.kernels:\n";
  for (size_t I = 0; I < Funcs.size(); ++I) {
    const MFunction &F = Funcs[I];
    const KernelDesc &D = Descs[I];
    const KernelInfo &K = *D.Info;
    OS << "  - .args:\n";
    auto Arg = [&](StringRef Name, unsigned Offset, unsigned Size,
                   StringRef Kind, bool Global = false) {
      OS << "      - ";
      if (Global)
        OS << ".address_space: global\n        ";
      if (!Name.empty())
        OS << ".name: " << yamlQuote(Name) << "\n        ";
      OS << ".offset: " << Offset << "\n        .size: " << Size
         << "\n        .value_kind: " << Kind << '\n';
    };
    Arg("wave.device_memory", 0, 8, "global_buffer", true);
    for (unsigned P = 0; P < D.NumParams; ++P) {
      std::string Name = K.Params && P < K.Params->size()
                             ? (*K.Params)[P].Name
                             : "r" + std::to_string(P);
      Arg(Name, 8 + 4 * P, 4, "by_value");
    }
    unsigned H = (8 + 4 * D.NumParams + 7) & ~7u;
    Arg("", H, 4, "hidden_block_count_x");
    Arg("", H + 4, 4, "hidden_block_count_y");
    Arg("", H + 8, 4, "hidden_block_count_z");
    Arg("", H + 12, 2, "hidden_group_size_x");
    Arg("", H + 14, 2, "hidden_group_size_y");
    Arg("", H + 16, 2, "hidden_group_size_z");
    unsigned Flat = 1024;
    if (K.WorkgroupSize[0] > 0) {
      Flat = K.WorkgroupSize[0] * std::max(K.WorkgroupSize[1], 1u) *
             std::max(K.WorkgroupSize[2], 1u);
      OS << "    .reqd_workgroup_size:\n      - " << K.WorkgroupSize[0]
         << "\n      - " << std::max(K.WorkgroupSize[1], 1u) << "\n      - "
         << std::max(K.WorkgroupSize[2], 1u) << '\n';
    }
    OS << "    .group_segment_fixed_size: " << D.GroupSegmentSize << '\n'
       << "    .kernarg_segment_align: 8\n"
       << "    .kernarg_segment_size: " << D.KernargSize << '\n'
       << "    .max_flat_workgroup_size: " << Flat << '\n'
       << "    .name: " << yamlQuote(F.Name) << '\n'
       << "    .private_segment_fixed_size: " << F.ScratchBytes << '\n'
       << "    .sgpr_count: "
       << std::max(F.NumSGPRs + (F.UsesVCC ? 2 : 0),
                   T.UserSGPRInit16Bug ? 16u : 0u) << '\n'
       << "    .sgpr_spill_count: " << F.NumSpilledSGPRs << '\n'
       << "    .symbol: " << yamlQuote(F.Name + ".kd") << '\n'
       << "    .uniform_work_group_size: 1\n"
       << "    .vgpr_count: " << totalVGPRs(F) << '\n'
       << "    .vgpr_spill_count: " << F.NumSpilledVGPRs << '\n'
       << "    .wavefront_size: " << T.WaveSize << '\n';
    if (T.HasAccumOffset)
      OS << "    .agpr_count: " << F.NumAGPRs << '\n';
  }
  OS << "amdhsa.target: amdgcn-amd-amdhsa--" << T.Name << '\n'
     << "amdhsa.version:\n  - 1\n  - 2\n...\n\t.end_amdgpu_metadata\n";
}

void emitModule(raw_ostream &OS, const GCNTarget &T,
                const std::vector<MFunction> &Funcs,
                const std::vector<KernelDesc> &Descs, StringRef SourceName) {
  OS << "; AMDGCN code for " << T.Name << " translated by wavetools";
  if (!SourceName.empty())
    OS << " from " << SourceName;
  OS << "\n\t.amdgcn_target \"amdgcn-amd-amdhsa--" << T.Name
     << "\"\n\t.amdhsa_code_object_version 5\n\t.text\n";
  for (size_t I = 0; I < Funcs.size(); ++I) {
    emitKernelCode(OS, Funcs[I]);
    emitDescriptor(OS, T, Funcs[I], Descs[I]);
  }
  emitMetadata(OS, T, Funcs, Descs);
}

} // namespace wave::amdgcn
