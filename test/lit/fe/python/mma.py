# The MMA intrinsics (formats/kernel-languages.md §4): fragment ids are
# constants of the instruction; a tile is a shared f32 array, an element
# index and a row stride in elements, lowered to a ptr<local> and a stride in
# bytes (formats/isa.md §2.15, §4.18). The WAVE code then goes through both
# GPU targets.
# RUN: wave-fe --emit=hir %s | FileCheck %s --check-prefix=HIR
# RUN: wave-fe %s | FileCheck %s
# RUN: wave-fe %s | wave-opt -O2 | wave-ra | FileCheck %s --check-prefix=ASM
# RUN: wave-fe %s | wave-opt -O2 | wave-ra | wave-as - -o %t.wbin
# RUN: wave-as --target=amdgcn-amd-amdhsa --mcpu=gfx942 -S %t.wbin -o - | FileCheck %s --check-prefix=GCN
# RUN: wave-as --target=nvptx64-nvidia-cuda %t.wbin -o - | FileCheck %s --check-prefix=PTX

@kernel(workgroup_size=(16, 1, 1))
def tile(out: f32[:], row: u32):
    a = shared(f32, 64)
    c = shared(f32, 16)
    t = thread_id()
    a[t] = f32(t)
    barrier()
    # HIR: mma_load_a(0, a, row * 16, 8);
    # CHECK: %[[I:[0-9]+]] = mul u32 %row, 16
    # CHECK-NEXT: %[[O:[0-9]+]] = shl u32 %[[I]], 2
    # CHECK-NEXT: %[[P:[0-9]+]] = ptradd ptr<local> 0, %[[O]]
    # CHECK-NEXT: %[[S:[0-9]+]] = shl u32 8, 2
    # CHECK-NEXT: mma_load_a 0, ptr<local> %[[P]], %[[S]] !loc([[@LINE+1]], 5)
    mma_load_a(0, a, row * 16, 8)
    # HIR: mma_load_b(3, a, 4, t);
    # CHECK: mma_load_b 3, ptr<local> %{{[0-9]+}}, %{{[0-9]+}} !loc([[@LINE+1]], 5)
    mma_load_b(3, a, 4, t)
    # HIR: mma_compute(0, 3, 2 * 127);
    # CHECK: mma_compute 0, 3, 254 !loc([[@LINE+1]], 5)
    mma_compute(0, 3, 2 * 127)
    # HIR: mma_store_c(c, 0, 4, 254);
    # CHECK: mma_store_c ptr<local> %{{[0-9]+}}, %{{[0-9]+}}, 254 !loc([[@LINE+1]], 5)
    mma_store_c(c, 0, 4, 254)
    barrier()
    out[t] = c[t]

# ASM: mma_load_a r0, r{{[0-9]+}}, r{{[0-9]+}}
# ASM: mma_load_b r3, r{{[0-9]+}}, r{{[0-9]+}}
# ASM: mma_compute r0, r3, r254
# ASM: mma_store_c r{{[0-9]+}}, r{{[0-9]+}}, r254
# GCN: ds_read2_b32
# GCN: v_pk_mul_f32
# GCN: v_pk_add_f32
# GCN: ds_write2_b32
# PTX: .entry tile
